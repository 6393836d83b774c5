//! Puzzles: stored from recorded games, tried and rated (a first try only), cut from a server's
//! own finished games for that server alone, the corpus cut once by one process at a time, the
//! daily puzzle claimed and posted once a day, and on Discord: /puzzle, /solve, /dailypuzzle and
//! the daily post's button.

use taflbot::engine::puzzle::cut;
use taflbot::notation::{canonical, recorded_game};
use taflbot::rules::{Move, Variant};
use taflbot::service::text::{self, Plain};
use taflbot::service::{
    Progress, PuzzleView, Scope, Service, ServiceError, Solving, DAILY_ATTEMPTS, DAY,
};

use crate::fake_discord::{s, Opt};
use crate::support::{
    alice, bob, brandubh_game, carol, is_png, service_at, Harness, ALICE, BOB, CHANNEL, T0,
};

const BRANDUBH_GAMES: &str = include_str!("../../data/brandubh.csv");

fn brandubh() -> &'static Variant {
    Variant::by_id("brandubh").unwrap()
}

/// The stored solution of puzzle `id`, as written.
async fn solution(svc: &Service, id: i64) -> Vec<String> {
    let text: String = sqlx::query_scalar("SELECT solution FROM puzzles WHERE id = $1")
        .bind(id)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    text.split_whitespace().map(str::to_string).collect()
}

/// A legal move in the puzzle's position that is not the solution's next move and does not win
/// at once: a wrong answer.
fn wrong_move(p: &PuzzleView, right: &str) -> String {
    p.game
        .legal_moves()
        .into_iter()
        .find(|&m: &Move| {
            let mut g = p.game.clone();
            canonical(p.game.position(), m) != right && g.play(m).is_ok() && g.outcome().is_none()
        })
        .map(|m| canonical(p.game.position(), m))
        .expect("a wrong move")
}

/// A service with the first four Brandubh puzzles of the corpus stored.
async fn with_puzzles() -> Service {
    let (svc, _) = service_at(":memory:", T0).await;
    // Each line read is told (for the command line's progress bar), up to the fourth puzzle's.
    let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = read.clone();
    let step = move || {
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let (new, problems) = svc
        .import_puzzles(brandubh(), BRANDUBH_GAMES, 4, step)
        .await
        .unwrap();
    assert_eq!(new, 4, "{problems:?}");
    let lines = read.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        lines > 4 && lines < BRANDUBH_GAMES.lines().count(),
        "{lines} lines told"
    );
    svc
}

#[tokio::test]
async fn a_puzzle_is_solved_move_by_move_and_a_first_try_only_is_rated() {
    // Stored once: the same file again adds nothing.
    let svc = with_puzzles().await;
    let (again, _) = svc
        .import_puzzles(brandubh(), BRANDUBH_GAMES, 4, || ())
        .await
        .unwrap();
    assert_eq!(again, 0);
    let none = svc.solve(&alice(), "e1-e5").await.unwrap_err();
    assert_eq!(
        none.to_string(),
        "you have no puzzle open: /puzzle opens one"
    );

    // The two-move puzzle of the four (the others win in one) is the one of a database of its
    // own, stored from the line `taflbot puzzles --json` prints.
    let (found, _) = taflbot::service::read_puzzles(brandubh(), BRANDUBH_GAMES, 4);
    let long = found.iter().find(|p| p.solution.len() == 3).unwrap();
    let json = serde_json::json!({
        "variant": "brandubh",
        "position": long.position,
        "solution": long.solution,
        "theme": long.theme.name(),
    });
    let (svc, clock) = service_at(":memory:", T0).await;
    let (new, _) = svc
        .import_puzzles(brandubh(), &json.to_string(), 1, || ())
        .await
        .unwrap();
    assert_eq!(new, 1);
    let two = 1;
    let line = solution(&svc, two).await;
    assert_eq!(line, long.solution);
    let none = svc.solve(&alice(), "e1-e5").await.unwrap_err();
    assert!(matches!(none, ServiceError::NoPuzzleOpen));
    let shown = svc.puzzle(&alice(), None, None).await.unwrap();
    assert_eq!(shown.puzzle.id, two);
    assert!(!shown.again && shown.puzzle.rated);
    assert_eq!(shown.puzzle.variant, brandubh());
    assert_eq!((shown.puzzle.solver_moves, shown.puzzle.found), (2, 0));
    assert!(is_png(Some(&shown.png)));
    let said = text::puzzle_shown(&shown, &Plain);
    assert!(
        said.starts_with(&format!(
            "Puzzle #{two}. Brandubh 7x7, king capture: the attackers to move win in 2 moves."
        )),
        "{said}"
    );
    // Asked again (or for another) while it is open: the same one.
    let same = svc.puzzle(&alice(), Some(brandubh()), None).await.unwrap();
    assert!(same.again);
    assert_eq!(same.puzzle.id, two);

    // Bad notation and an illegal move are refused and change nothing.
    let garbled = svc.solve(&alice(), "hello").await.unwrap_err();
    assert!(matches!(garbled, ServiceError::Move(_)), "{garbled}");
    let illegal = svc.solve(&alice(), "a1-a2").await.unwrap_err();
    assert!(matches!(illegal, ServiceError::Move(_)), "{illegal}");
    assert_eq!(
        svc.puzzle(&alice(), None, None).await.unwrap().puzzle.found,
        0
    );

    // The first move is answered with the solution's reply.
    let first = svc.solve(&alice(), &line[0]).await.unwrap();
    assert_eq!(
        first.how,
        Solving::Right {
            reply: line[1].clone()
        }
    );
    assert_eq!(first.rating, None);
    assert_eq!(first.puzzle.found, 1);
    // Shown again mid-way: at the reply.
    let mid = svc.puzzle(&alice(), None, None).await.unwrap();
    assert_eq!(mid.puzzle.found, 1);
    assert_eq!(mid.puzzle.game.position(), first.puzzle.game.position());
    let last = svc.solve(&alice(), &line[2]).await.unwrap();
    assert_eq!(last.how, Solving::Solved);
    let change = last.rating.expect("a rated first try");
    assert!(change.after > change.before, "{change:?}");
    let said = text::solve_step(&last, &Plain);
    assert!(said.contains(&format!("puzzle #{two} solved!")), "{said}");
    assert!(last.puzzle.game.outcome().is_some());

    // bob's first try at it is rated too: a wrong move fails it, and shows the solution.
    let his = svc.puzzle(&bob(), Some(brandubh()), None).await.unwrap();
    assert_eq!(his.puzzle.id, two);
    assert!(his.puzzle.rated);
    let puzzle_before = his.puzzle.rating;
    assert!(puzzle_before.rating < 1500.0, "alice's solve lowered it");
    let wrong = wrong_move(&his.puzzle, &line[0]);
    let failed = svc.solve(&bob(), &wrong).await.unwrap();
    assert_eq!(
        failed.how,
        Solving::Failed {
            solution: Some(line.clone())
        }
    );
    let lost = failed.rating.unwrap();
    assert!(lost.after < lost.before);
    // A second try of his is not rated, solved or not; nor is any asked for by number.
    let by_number = svc.puzzle(&bob(), None, None).await.unwrap_err();
    assert!(
        matches!(by_number, ServiceError::AllPuzzlesTried(_)),
        "{by_number}"
    );
    // A failed puzzle opens again a day later, not before: one guess a day.
    let soon = svc.puzzle(&bob(), None, Some(two)).await.unwrap_err();
    assert!(
        matches!(soon, ServiceError::PuzzleRetryTooSoon { id, wait } if id == two && wait == taflbot::service::DAY),
        "{soon}"
    );
    assert_eq!(
        soon.to_string(),
        format!("you failed puzzle #{two} less than a day ago: it opens for you again in 1 day")
    );
    clock.advance(taflbot::service::DAY);
    let retry = svc.puzzle(&bob(), None, Some(two)).await.unwrap();
    assert!(!retry.puzzle.rated);
    assert!(
        retry.puzzle.rating.rating > puzzle_before.rating,
        "bob's failure raised it"
    );
    svc.solve(&bob(), &line[0]).await.unwrap();
    let solved = svc.solve(&bob(), &line[2]).await.unwrap();
    assert_eq!((solved.how, solved.rating), (Solving::Solved, None));
    let record = svc.puzzle_rating(&bob()).await.unwrap().unwrap();
    assert_eq!((record.tries, record.solves), (1, 0));

    // Profiles show the puzzle rating.
    let profile = svc.profile(&alice()).await.unwrap();
    let said = text::profile(&profile, &Plain);
    assert!(said.contains("Puzzles: "), "{said}");
    assert!(said.contains("1 solved of 1 rated"), "{said}");

    // A fresh account's first try is never rated (the rule of rated play), so failing it shows
    // no solution: fresh accounts cannot fish the solutions of another's rated tries.
    let fresh = taflbot::service::Person::new("fresh", "fresh");
    let its = svc
        .puzzle_as(&fresh, Some(brandubh()), None, true)
        .await
        .unwrap();
    assert_eq!(its.puzzle.id, two);
    assert!(!its.puzzle.rated);
    let failed = svc
        .solve(&fresh, &wrong_move(&its.puzzle, &line[0]))
        .await
        .unwrap();
    assert_eq!(failed.how, Solving::Failed { solution: None });
    assert_eq!(failed.rating, None);

    // carol works through every Brandubh puzzle of the four, then is told she has tried them
    // all. Asked for by number, a puzzle is not rated even at a first try.
    let (added, _) = svc
        .import_puzzles(brandubh(), BRANDUBH_GAMES, 4, || ())
        .await
        .unwrap();
    assert_eq!(added, 3);
    let named = svc.puzzle(&carol(), None, Some(2)).await.unwrap();
    assert!(!named.puzzle.rated);
    let right = solution(&svc, 2).await;
    let fished = svc
        .solve(&carol(), &wrong_move(&named.puzzle, &right[0]))
        .await
        .unwrap();
    // A try by number shows no solution: it could be a second account fishing for the main
    // one's rated try.
    assert_eq!(fished.how, Solving::Failed { solution: None });
    let said = text::solve_step(&fished, &Plain);
    assert!(
        said.contains("puzzle #2 failed. Its solution is shown only at the end of a rated try"),
        "{said}"
    );
    assert!(!said.contains(&right[0]), "{said}");
    let mut seen = Vec::new();
    loop {
        match svc.puzzle(&carol(), Some(brandubh()), None).await {
            Ok(p) => {
                assert!(p.puzzle.rated && !seen.contains(&p.puzzle.id));
                seen.push(p.puzzle.id);
                let right = solution(&svc, p.puzzle.id).await;
                let wrong = wrong_move(&p.puzzle, &right[0]);
                svc.solve(&carol(), &wrong).await.unwrap();
            }
            Err(e) => {
                assert!(
                    matches!(e, ServiceError::AllPuzzlesTried(v) if v == brandubh()),
                    "{e}"
                );
                break;
            }
        }
    }
    assert_eq!(seen.len(), 3, "the one asked for by number is tried");
    let copenhagen = Variant::by_id("copenhagen").unwrap();
    let none = svc
        .puzzle(&carol(), Some(copenhagen), None)
        .await
        .unwrap_err();
    assert!(matches!(none, ServiceError::NoPuzzles(Some(_))), "{none}");
    let missing = svc.puzzle(&carol(), None, Some(99)).await.unwrap_err();
    assert!(matches!(missing, ServiceError::NoSuchPuzzle(99)));
}

/// The moves of the first Brandubh corpus game that ends on the board and gives a puzzle.
fn puzzle_game() -> Vec<String> {
    BRANDUBH_GAMES
        .lines()
        .find_map(|line| {
            let (game, winner) = recorded_game(brandubh(), line)?;
            game.outcome()?;
            cut(&game, winner?)?;
            Some(
                line.split(',')
                    .next()?
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            )
        })
        .expect("a corpus game that gives a puzzle")
}

#[tokio::test]
async fn a_servers_finished_games_give_puzzles_to_that_server_alone() {
    let (svc, _) = service_at(":memory:", T0).await;
    let here = svc.scoped(Scope::Server("1".into()));
    let id = brandubh_game(&here, &alice(), &bob()).await;
    assert!(
        !svc.cut_finished_games().await.unwrap(),
        "no game has ended"
    );
    for (i, mv) in puzzle_game().iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        here.play(&who, Some(id), None, mv).await.unwrap();
    }
    assert!(svc.game(id).await.unwrap().outcome.is_some());
    assert!(svc.cut_finished_games().await.unwrap());
    assert!(!svc.cut_finished_games().await.unwrap(), "looked at once");
    let (game_id, guild): (Option<i64>, Option<String>) =
        sqlx::query_as("SELECT game_id, guild FROM puzzles")
            .fetch_one(svc.pool())
            .await
            .unwrap();
    assert_eq!((game_id, guild.as_deref()), (Some(id), Some("1")));

    let elsewhere = svc.scoped(Scope::Server("2".into()));
    let refused = elsewhere.puzzle(&carol(), None, None).await.unwrap_err();
    assert!(
        matches!(refused, ServiceError::NoPuzzles(None)),
        "{refused}"
    );
    let by_number = elsewhere.puzzle(&carol(), None, Some(1)).await.unwrap_err();
    assert!(matches!(by_number, ServiceError::NoSuchPuzzle(1)));
    let direct = svc.scoped(Scope::Direct);
    assert!(direct.puzzle(&carol(), None, None).await.is_err());
    let p = here.puzzle(&carol(), None, None).await.unwrap();
    assert_eq!(p.puzzle.variant, brandubh());
    assert!(p.puzzle.rated);
    // Its players are never offered it: they could have set it up.
    let own = here.puzzle(&alice(), None, None).await.unwrap_err();
    assert!(matches!(own, ServiceError::AllPuzzlesTried(_)), "{own}");
}

#[tokio::test]
async fn the_corpus_is_cut_once_a_batch_at_a_time_by_one_process_at_once() {
    let dir = crate::support::scratch("corpus-puzzles");
    let db = dir.join("corpus.db");
    let url = db.to_string_lossy().to_string();
    let (a, _) = service_at(&url, T0).await;
    let (b, clock) = service_at(&url, T0).await;
    let b = b.with_lease(60);
    // Eight Copenhagen games, two batches: each the first games of the corpus that give a
    // puzzle, then three unfinished ones, which give none.
    let copenhagen = Variant::by_id("copenhagen").unwrap();
    let lines: Vec<&str> = taflbot::service::CORPUS.lines().collect();
    let mut giving = Vec::new();
    let mut positions = std::collections::HashSet::new();
    for line in &lines {
        let Some((game, Some(winner))) = recorded_game(copenhagen, line) else {
            continue;
        };
        if let Some(p) = cut(&game, winner) {
            giving.push(*line);
            positions.insert(taflbot::rules::write_position(p.game.position()));
            if giving.len() == 2 {
                break;
            }
        }
    }
    let unfinished: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.ends_with("Ongoing"))
        .take(3)
        .collect();
    let mut corpus = Vec::new();
    for line in &giving {
        corpus.push(*line);
        corpus.extend(&unfinished);
    }
    assert_eq!(corpus.len(), 2 * taflbot::service::CORPUS_BATCH);
    let corpus: &'static str = Box::leak(corpus.join("\n").into_boxed_str());
    // Each process takes the next batch.
    assert_eq!(a.cut_corpus(corpus).await.unwrap(), Progress::Worked);
    // The lines are cut in this database's own order, drawn once.
    let seed: i64 = sqlx::query_scalar("SELECT seed FROM chores WHERE name = 'corpus'")
        .fetch_one(a.pool())
        .await
        .unwrap();
    assert_ne!(seed, 0);
    let lines: Vec<&str> = corpus.lines().collect();
    let first_batch = taflbot::service::cutting_order(lines.len(), seed)
        .into_iter()
        .take(taflbot::service::CORPUS_BATCH)
        .filter(|&i| giving.contains(&lines[i]))
        .count();
    assert_eq!(a.puzzle_count().await.unwrap(), first_batch as i64);
    assert_eq!(b.cut_corpus(corpus).await.unwrap(), Progress::Worked);
    assert_eq!(a.cut_corpus(corpus).await.unwrap(), Progress::Done);
    let done_to: i64 = sqlx::query_scalar("SELECT done_to FROM chores WHERE name = 'corpus'")
        .fetch_one(a.pool())
        .await
        .unwrap();
    assert_eq!(done_to, 8);
    let stored: Vec<String> = sqlx::query_scalar("SELECT position FROM puzzles ORDER BY id")
        .fetch_all(a.pool())
        .await
        .unwrap();
    assert_eq!(stored.len(), 2);
    assert!(stored.iter().all(|p| positions.contains(p)), "{stored:?}");
    let stored = stored.len() as i64;
    // A claim left by a process that died is taken over once its lease has run out.
    sqlx::query("UPDATE chores SET done_to = 0, claimed_until = $1 WHERE name = 'corpus'")
        .bind(T0 + 60)
        .execute(a.pool())
        .await
        .unwrap();
    assert_eq!(b.cut_corpus(corpus).await.unwrap(), Progress::Busy);
    clock.set(T0 + 61);
    assert_eq!(b.cut_corpus(corpus).await.unwrap(), Progress::Worked);
    assert_eq!(a.puzzle_count().await.unwrap(), stored, "nothing twice");
}

#[tokio::test]
async fn the_daily_puzzle_is_set_by_managers_and_claimed_once_a_day() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let svc = svc.with_lease(60);
    let here = svc.scoped(Scope::Server("1".into()));
    let refused = here
        .set_daily_puzzle(false, Some("55"), true)
        .await
        .unwrap_err();
    assert!(matches!(refused, ServiceError::NotManager));
    let direct = svc.scoped(Scope::Direct);
    let refused = direct.set_daily_puzzle(true, None, true).await.unwrap_err();
    assert!(matches!(refused, ServiceError::NotInServer));
    let set = here.set_daily_puzzle(true, Some("55"), true).await.unwrap();
    assert_eq!(set.channel.as_deref(), Some("55"));
    // No puzzle yet: nothing to post, and the claim lapses.
    assert!(svc.claim_daily_puzzle().await.unwrap().is_none());
    svc.import_puzzles(brandubh(), BRANDUBH_GAMES, 3, || ())
        .await
        .unwrap();
    assert!(svc.claim_daily_puzzle().await.unwrap().is_none(), "claimed");
    clock.set(T0 + 61);
    let first = svc.claim_daily_puzzle().await.unwrap().expect("a post due");
    assert_eq!((first.guild.as_str(), first.channel.as_str()), ("1", "55"));
    assert!(is_png(Some(&first.png)));
    let said = text::daily_puzzle(&first, &Plain);
    assert!(
        said.starts_with(&format!("Daily puzzle #{}.", first.puzzle.id)),
        "{said}"
    );
    // Claimed: another process finds nothing due.
    assert!(svc.claim_daily_puzzle().await.unwrap().is_none());
    svc.daily_puzzle_posted(&first, true).await.unwrap();
    clock.set(T0 + 3600);
    assert!(
        svc.claim_daily_puzzle().await.unwrap().is_none(),
        "once a day"
    );

    // The next day, the next puzzle; a failed post is tried again after the lease, and the day
    // is given up after so many failures.
    let next_day = (T0.div_euclid(DAY) + 1) * DAY + 10;
    clock.set(next_day);
    let mut second = svc.claim_daily_puzzle().await.unwrap().unwrap();
    assert_ne!(second.puzzle.id, first.puzzle.id);
    for attempt in 1..=DAILY_ATTEMPTS {
        svc.daily_puzzle_posted(&second, false).await.unwrap();
        clock.set(next_day + 61 * attempt);
        let again = svc.claim_daily_puzzle().await.unwrap();
        if attempt < DAILY_ATTEMPTS {
            second = again.unwrap_or_else(|| panic!("attempt {attempt}"));
        } else {
            assert!(again.is_none(), "given up for the day");
        }
    }
    // A process whose claim ran out and was taken over records nothing.
    let day_after = next_day + DAY;
    clock.set(day_after);
    let stale = svc.claim_daily_puzzle().await.unwrap().unwrap();
    clock.set(day_after + 61);
    let fresh = svc.claim_daily_puzzle().await.unwrap().unwrap();
    svc.daily_puzzle_posted(&stale, true).await.unwrap();
    let posted_day: i64 = sqlx::query_scalar("SELECT posted_day FROM daily_puzzles")
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert!(posted_day < fresh.day);
    svc.daily_puzzle_posted(&fresh, true).await.unwrap();
    assert!(svc.claim_daily_puzzle().await.unwrap().is_none());
    // Stopped: nothing more. Started again the same day: not posted twice.
    let off = here
        .set_daily_puzzle(true, Some("55"), false)
        .await
        .unwrap();
    assert_eq!(off.channel, None);
    clock.set(day_after + 2 * DAY);
    assert!(svc.claim_daily_puzzle().await.unwrap().is_none());
    here.set_daily_puzzle(true, Some("55"), true).await.unwrap();
    let back = svc.claim_daily_puzzle().await.unwrap().unwrap();
    svc.daily_puzzle_posted(&back, true).await.unwrap();
    here.set_daily_puzzle(true, Some("55"), false)
        .await
        .unwrap();
    here.set_daily_puzzle(true, Some("56"), true).await.unwrap();
    assert!(svc.claim_daily_puzzle().await.unwrap().is_none());
}

#[tokio::test]
async fn discord_shows_puzzles_privately_and_posts_the_daily_one_with_its_button() {
    let h = Harness::start("puzzles").await;
    let none = h
        .slash(ALICE, CHANNEL, "solve", &[("move", s("e1-e5"))])
        .await;
    assert!(none.private());
    assert_eq!(
        none.content(),
        "You have no puzzle open: /puzzle opens one."
    );
    let empty = h.slash(ALICE, CHANNEL, "puzzle", &[]).await;
    assert!(empty.private());
    assert!(
        empty.content().starts_with("There are no puzzles here yet"),
        "{}",
        empty.content()
    );
    h.service
        .import_puzzles(brandubh(), BRANDUBH_GAMES, 4, || ())
        .await
        .unwrap();

    let opened = h
        .slash(ALICE, CHANNEL, "puzzle", &[("variant", s("brandubh"))])
        .await;
    assert!(opened.private());
    assert!(
        opened.content().starts_with("Puzzle #"),
        "{}",
        opened.content()
    );
    assert!(is_png(opened.png()));
    let id: i64 = opened.content()["Puzzle #".len()..]
        .split('.')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let line = solution(&h.service, id).await;
    let bad = h
        .slash(ALICE, CHANNEL, "solve", &[("move", s("e9-e10"))])
        .await;
    assert!(bad.private());
    let right = h
        .slash(ALICE, CHANNEL, "solve", &[("move", s(&line[0]))])
        .await;
    assert!(right.private());
    assert!(is_png(right.png()));
    if line.len() == 1 {
        assert!(right.content().contains("solved!"), "{}", right.content());
    } else {
        assert!(right.content().contains(&line[1]), "{}", right.content());
    }

    // A manager sets the daily puzzle in this channel; it is posted with its Solve button.
    let set = h
        .slash(ALICE, CHANNEL, "dailypuzzle", &[("set", Opt::Int(0))])
        .await;
    assert!(
        set.content().starts_with("A puzzle will be posted in"),
        "{}",
        set.content()
    );
    let daily = h
        .fake
        .wait_post("the daily puzzle", |p| {
            p.channel == CHANNEL && p.content.contains("Daily puzzle")
        })
        .await;
    assert_eq!(daily.buttons.len(), 1, "{:?}", daily.buttons);
    let button = daily.buttons[0].clone();
    assert!(button.starts_with("puzzle:"));
    assert!(daily.files.iter().any(|(name, _)| name.ends_with(".png")));
    // bob presses it: the puzzle opens for him alone.
    let pressed = h.press(BOB, CHANNEL, &button).await;
    assert!(pressed.private());
    let number = button.trim_start_matches("puzzle:");
    assert!(
        pressed.content().starts_with(&format!("Puzzle #{number}.")),
        "{}",
        pressed.content()
    );
    h.shutdown().await;
}

#[tokio::test]
async fn puzzle_files_are_checked_line_by_line() {
    let (found, _) = taflbot::service::read_puzzles(brandubh(), BRANDUBH_GAMES, 2);
    assert_eq!(found.len(), 2);
    let json = |position: &str, solution: &[String]| {
        serde_json::json!({
            "variant": "brandubh",
            "position": position,
            "solution": solution,
            "theme": "king capture",
        })
        .to_string()
    };
    // A legal first move other than the solution's: the puzzle it makes does not win.
    let first = &found[0];
    let (game, _) =
        taflbot::service::read_puzzle(brandubh(), &first.position, &first.solution.join(" "))
            .unwrap();
    let other = game
        .legal_moves()
        .into_iter()
        .map(|m| canonical(game.position(), m))
        .find(|m| *m != first.solution[0])
        .unwrap();
    let text = [
        json(&first.position, &first.solution),
        json(&found[1].position, &found[1].solution),
        json(&first.position, &[other]),
        "{not json".to_string(),
        json(
            &first.position,
            &[first.solution[0].clone(), "a1-a2".into()],
        ),
    ]
    .join("\n");
    let (svc, _) = service_at(":memory:", T0).await;
    let (new, problems) = svc
        .import_puzzles(brandubh(), &text, 10, || ())
        .await
        .unwrap();
    assert_eq!(new, 2, "{problems:?}");
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(
        problems[0].starts_with("line 3: not a sound puzzle: the solution does not end"),
        "{problems:?}"
    );
    assert!(problems[1].starts_with("line 4: "), "{problems:?}");
    assert!(problems[2].starts_with("line 5: "), "{problems:?}");
}

#[tokio::test]
async fn a_damaged_puzzle_ends_its_try_and_is_reported() {
    let svc = with_puzzles().await;
    let open = svc.puzzle(&alice(), None, None).await.unwrap();
    sqlx::query("UPDATE puzzles SET solution = 'z9-z10' WHERE id = $1")
        .bind(open.puzzle.id)
        .execute(svc.pool())
        .await
        .unwrap();
    let refused = svc.solve(&alice(), "a1-a2").await.unwrap_err();
    assert!(
        matches!(refused, ServiceError::BrokenPuzzle(id, _) if id == open.puzzle.id),
        "{refused}"
    );
    assert!(refused.is_fault());
    // The try is over, unrated: the player is not held at it.
    let next = svc.puzzle(&alice(), None, None).await.unwrap();
    assert!(!next.again);
    assert_ne!(next.puzzle.id, open.puzzle.id);
    assert!(svc.puzzle_rating(&alice()).await.unwrap().is_none());
}

#[tokio::test]
async fn each_database_cuts_the_corpus_in_an_order_of_its_own() {
    // The shipped corpus cut by the shipped binary must not say which puzzle has which number.
    let mut seeds = Vec::new();
    for _ in 0..2 {
        let (svc, _) = service_at(":memory:", T0).await;
        assert_eq!(
            svc.cut_corpus(taflbot::service::CORPUS).await.unwrap(),
            Progress::Worked
        );
        let seed: i64 = sqlx::query_scalar("SELECT seed FROM chores WHERE name = 'corpus'")
            .fetch_one(svc.pool())
            .await
            .unwrap();
        seeds.push(seed);
    }
    assert_ne!(seeds[0], seeds[1], "two databases, two orders");
    let n = taflbot::service::CORPUS.lines().count();
    let (one, two) = (
        taflbot::service::cutting_order(n, seeds[0]),
        taflbot::service::cutting_order(n, seeds[1]),
    );
    assert_ne!(one, two);
    // Each is a whole order of the lines, and neither is the corpus's own.
    let mut sorted = one.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n).collect::<Vec<_>>());
    assert_ne!(one, (0..n).collect::<Vec<_>>());
    assert_eq!(taflbot::service::cutting_order(5, 0), vec![0, 1, 2, 3, 4]);
}

#[tokio::test]
async fn a_puzzle_of_an_unknown_theme_is_reported_not_guessed() {
    let svc = with_puzzles().await;
    let open = svc.puzzle(&alice(), None, None).await.unwrap();
    sqlx::query("UPDATE puzzles SET theme = 'sorcery' WHERE id = $1")
        .bind(open.puzzle.id)
        .execute(svc.pool())
        .await
        .unwrap();
    let refused = svc.solve(&alice(), "a1-a2").await.unwrap_err();
    assert!(
        matches!(&refused, ServiceError::BrokenPuzzle(id, why)
            if *id == open.puzzle.id && why.contains("sorcery")),
        "{refused}"
    );
}

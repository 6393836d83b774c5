//! The correspondence player's tools through the service: forecasts (kept, answered at once,
//! ended by another move, a takeback or the end, raced with the player's own move, against
//! taflbot), private notes, and more time.

use taflbot::engine::{self, Settings, Step};
use taflbot::notation::{canonical, read_move};
use taflbot::rules::{Game, Variant};
use taflbot::service::{
    ForecastDone, News, NoteDone, Person, Service, ServiceError, SideChoice, Takeback, DAY,
    MAX_FORECAST_LINES, MAX_FORECAST_MOVES,
};

use crate::support::{alice, bob, service_at, started, T0};

async fn service() -> Service {
    service_at(":memory:", T0).await.0
}

/// The stored moves of a game, replayed by the rules core.
async fn replayed(svc: &Service, game: i64) -> Game {
    let variant: String = sqlx::query_scalar("SELECT variant FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    let mut g = Game::new(Variant::by_id(&variant).unwrap());
    for text in stored(svc, game).await {
        let (m, _) = read_move(g.position(), &text).unwrap();
        g.play(m).unwrap();
    }
    g
}

async fn stored(svc: &Service, game: i64) -> Vec<String> {
    sqlx::query_scalar("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(game)
        .fetch_all(svc.pool())
        .await
        .unwrap()
}

/// `n` legal moves on from `game`, each a whole turn (the `pick`th of the legal moves, spread).
fn line_from(game: &Game, n: usize, pick: usize) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for i in 0..n {
        let moves = g.legal_moves();
        let side = g.position().turn();
        let m = (0..moves.len())
            .map(|k| moves[(pick + i * 7 + k) % moves.len()])
            .find(|&m| {
                let mut after = g.clone();
                after.play(m).is_ok()
                    && after.outcome().is_none()
                    && after.position().turn() != side
            })
            .expect("a quiet move");
        out.push(canonical(g.position(), m));
        g.play(m).unwrap();
    }
    out
}

async fn forecast(svc: &Service, who: &Person, game: i64, line: &[String]) -> ForecastDone {
    svc.forecast(who, Some(game), None, Some(&line.join(", ")), false)
        .await
        .unwrap()
        .done
}

async fn lines_of(svc: &Service, who: &Person, game: i64) -> Vec<Vec<String>> {
    svc.forecast(who, Some(game), None, None, false)
        .await
        .unwrap()
        .lines
}

#[tokio::test]
async fn a_forecast_reply_is_played_at_once_and_the_rest_of_the_line_stays() {
    let svc = service().await;
    let game = started(&svc).await;
    let line = line_from(&replayed(&svc, game).await, 4, 3);
    // bob keeps a line while alice is to move: her move, his answer, her move, his answer.
    assert_eq!(
        forecast(&svc, &bob(), game, &line).await,
        ForecastDone::Kept
    );
    let played = svc
        .play(&alice(), Some(game), None, &line[0])
        .await
        .unwrap();
    assert_eq!(played.forecast.len(), 1);
    let reply = &played.forecast[0];
    assert_eq!(
        reply.news,
        News::Forecast {
            by: bob(),
            text: format!("1... {}", line[1])
        }
    );
    // The move's own view is the game between the two; the reply's is after it.
    assert_eq!(played.view.turns + 1, reply.view.turns);
    assert_eq!(reply.view.waiting_for, Some(alice()));
    assert!(!reply.png.is_empty());
    assert_eq!(stored(&svc, game).await, line[..2]);
    // The rest of the line stays, and answers her next move too.
    assert_eq!(lines_of(&svc, &bob(), game).await, vec![line[2..].to_vec()]);
    let played = svc
        .play(&alice(), Some(game), None, &line[2])
        .await
        .unwrap();
    assert_eq!(played.forecast.len(), 1);
    assert_eq!(stored(&svc, game).await, line);
    assert!(lines_of(&svc, &bob(), game).await.is_empty());
}

#[tokio::test]
async fn another_move_ends_the_lines_it_does_not_begin() {
    let svc = service().await;
    let game = started(&svc).await;
    let start = replayed(&svc, game).await;
    let line = line_from(&start, 2, 3);
    let other = line_from(&start, 1, 20);
    assert_ne!(line[0], other[0]);
    forecast(&svc, &bob(), game, &line).await;
    let played = svc
        .play(&alice(), Some(game), None, &other[0])
        .await
        .unwrap();
    assert!(played.forecast.is_empty());
    assert_eq!(stored(&svc, game).await, other);
    assert!(lines_of(&svc, &bob(), game).await.is_empty());
    // Nothing is left in the table either, and the game no longer looks for lines.
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM forecasts")
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
    let looking: i64 = sqlx::query_scalar("SELECT forecasting FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(looking, 0);
}

#[tokio::test]
async fn lines_form_a_tree_within_limits_and_a_bad_line_names_its_first_bad_move() {
    let svc = service().await;
    let game = started(&svc).await;
    let start = replayed(&svc, game).await;
    let line = line_from(&start, 4, 3);
    // Only while the opponent is to move.
    assert!(matches!(
        svc.forecast(&alice(), Some(game), None, Some(&line.join(" ")), false).await,
        Err(ServiceError::ForecastOnYourMove(g)) if g == game
    ));
    // An illegal second move is named, with its place in the line.
    let bad = format!("{}, a1-a1", line[0]);
    match svc
        .forecast(&bob(), Some(game), None, Some(&bad), false)
        .await
    {
        Err(ServiceError::BadForecast { at: 2, mv, .. }) => assert_eq!(mv, "a1-a1"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        svc.forecast(&bob(), Some(game), None, Some(&line[..3].join(" ")), false)
            .await,
        Err(ServiceError::ForecastEndsOnTheirs)
    ));
    assert!(matches!(
        svc.forecast(&bob(), Some(game), None, Some(&line[0]), false)
            .await,
        Err(ServiceError::ForecastTooShort)
    ));
    let long = line_from(&start, MAX_FORECAST_MOVES + 2, 3).join(" ");
    assert!(matches!(
        svc.forecast(&bob(), Some(game), None, Some(&long), false).await,
        Err(ServiceError::ForecastTooLong { max }) if max == MAX_FORECAST_MOVES
    ));
    // A line, then a longer one that goes on from it: one line.
    forecast(&svc, &bob(), game, &line[..2]).await;
    assert_eq!(
        forecast(&svc, &bob(), game, &line).await,
        ForecastDone::Kept
    );
    assert_eq!(
        forecast(&svc, &bob(), game, &line[..2]).await,
        ForecastDone::AlreadyKept
    );
    assert_eq!(lines_of(&svc, &bob(), game).await, vec![line.clone()]);
    // Another answer to the same move is refused: one answer to each move.
    let mut after = start.clone();
    after
        .play(read_move(after.position(), &line[0]).unwrap().0)
        .unwrap();
    let answer = line_from(&after, 1, 11);
    assert_ne!(answer[0], line[1]);
    match svc
        .forecast(
            &bob(),
            Some(game),
            None,
            Some(&format!("{} {}", line[0], answer[0])),
            false,
        )
        .await
    {
        Err(ServiceError::ForecastConflict { kept, new, .. }) => {
            assert_eq!((kept, new), (line[1].clone(), answer[0].clone()))
        }
        other => panic!("{other:?}"),
    }
    // Lines for other moves of hers branch the tree, up to the most kept.
    let firsts: Vec<String> = start
        .legal_moves()
        .into_iter()
        .map(|m| canonical(start.position(), m))
        .filter(|m| *m != line[0])
        .collect();
    let mut kept = 1;
    for first in &firsts {
        let mut g = start.clone();
        g.play(read_move(g.position(), first).unwrap().0).unwrap();
        if g.outcome().is_some() {
            continue;
        }
        let reply = line_from(&g, 1, 0);
        let said = svc
            .forecast(
                &bob(),
                Some(game),
                None,
                Some(&format!("{first} {}", reply[0])),
                false,
            )
            .await;
        if kept < MAX_FORECAST_LINES {
            assert_eq!(said.unwrap().done, ForecastDone::Kept);
            kept += 1;
        } else {
            assert!(
                matches!(said, Err(ServiceError::TooManyForecasts(_))),
                "{said:?}"
            );
            break;
        }
    }
    assert_eq!(lines_of(&svc, &bob(), game).await.len(), MAX_FORECAST_LINES);
    let cleared = svc
        .forecast(&bob(), Some(game), None, None, true)
        .await
        .unwrap();
    assert_eq!(cleared.done, ForecastDone::Cleared);
    assert!(cleared.lines.is_empty());
}

#[tokio::test]
async fn a_takeback_and_the_end_of_the_game_end_every_line() {
    let svc = service().await;
    let game = started(&svc).await;
    let opening = line_from(&replayed(&svc, game).await, 2, 5);
    svc.play(&alice(), Some(game), None, &opening[0])
        .await
        .unwrap();
    svc.play(&bob(), Some(game), None, &opening[1])
        .await
        .unwrap();
    let line = line_from(&replayed(&svc, game).await, 2, 3);
    forecast(&svc, &bob(), game, &line).await;
    // bob takes his last move back, alice agrees: the line was for another game.
    assert!(matches!(
        svc.takeback(&bob(), Some(game), None).await.unwrap(),
        Takeback::Asked(_)
    ));
    svc.accept_takeback(&alice(), Some(game), None)
        .await
        .unwrap();
    assert!(lines_of(&svc, &bob(), game).await.is_empty());
    // After bob moves again, a line kept ends with the game.
    svc.play(&bob(), Some(game), None, &opening[1])
        .await
        .unwrap();
    forecast(&svc, &bob(), game, &line).await;
    svc.resign(&alice(), Some(game), None).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM forecasts WHERE game_id = $1")
        .bind(game)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn a_forecast_reply_and_the_players_own_move_never_both_land() {
    // Two processes on one database file: alice's move (answered by bob's forecast) in one,
    // bob's own move at the same moment in the other.
    let dir = crate::support::scratch("forecast-race");
    let db = dir.join("race.db");
    let (one, clock) = service_at(db.to_str().unwrap(), T0).await;
    let two = crate::support::open(&db, &clock).await;
    for round in 0..8 {
        let game = started(&one).await;
        let start = replayed(&one, game).await;
        let line = line_from(&start, 2, 3 + round);
        forecast(&one, &bob(), game, &line).await;
        let mut after = start.clone();
        after
            .play(read_move(after.position(), &line[0]).unwrap().0)
            .unwrap();
        let own = line_from(&after, 1, 17 + round)[0].clone();
        let (a, b) = (alice(), bob());
        let (moved, own_move) = tokio::join!(
            one.play(&a, Some(game), None, &line[0]),
            two.play(&b, Some(game), None, &own),
        );
        assert_eq!(moved.unwrap().forecast.len(), 1);
        // bob's own move came either before alice's (not his turn) or after the reply (not his
        // turn again): never a third move.
        assert!(
            matches!(
                own_move,
                Err(ServiceError::NotYourTurn { .. } | ServiceError::PositionChanged(_))
            ),
            "{own_move:?}"
        );
        assert_eq!(stored(&one, game).await, line, "round {round}");
        assert_eq!(replayed(&one, game).await.turns().len(), 2);
    }
}

/// A Brandubh game of alice's against taflbot at level 1, after her first move, with her forecast
/// of taflbot's answer (foreseen: level 1 searches one ply with the service's seed) and her reply:
/// the game, her first move, taflbot's answer and her reply.
async fn foreseen_against_taflbot(svc: &Service) -> (i64, String, String, String) {
    let taflbot = Person::new("taflbot", "taflbot");
    let game = svc
        .play_bot(
            &alice(),
            &taflbot,
            &taflbot::service::Terms {
                side: SideChoice::Attackers,
                days: None,
                ..taflbot::service::Terms::new("brandubh".parse().unwrap())
            },
            Some(1),
            Some("chan"),
        )
        .await
        .unwrap()
        .id;
    let first = line_from(&replayed(svc, game).await, 1, 4);
    svc.play(&alice(), Some(game), None, &first[0])
        .await
        .unwrap();
    // Level 1 searches one ply with the service's seed: its answer can be foreseen.
    let now = replayed(svc, game).await;
    let seed = game as u64 ^ (now.turns().len() as u64) << 32;
    let thought = engine::think(&now, &Settings::level(1, seed)).unwrap();
    let [Step::Move(m)] = thought.turn.as_slice() else {
        panic!("one move: {:?}", thought.turn)
    };
    let theirs = canonical(now.position(), *m);
    let mut after = now.clone();
    after.play(*m).unwrap();
    let mine = line_from(&after, 1, 2)[0].clone();
    forecast(svc, &alice(), game, &[theirs.clone(), mine.clone()]).await;
    (game, first[0].clone(), theirs, mine)
}

#[tokio::test]
async fn a_forecast_answers_taflbot_too() {
    let svc = service().await;
    let (game, first, theirs, mine) = foreseen_against_taflbot(&svc).await;
    let moved = svc.bot_turn(game).await.unwrap().expect("the bot moved");
    assert_eq!(stored(&svc, game).await, [first, theirs, mine.clone()]);
    // The reply's notice comes with the bot's, said as forecast, for this process to deliver.
    assert_eq!(moved.forecast.len(), 1);
    assert_eq!(
        moved.forecast[0].news(),
        News::Forecast {
            by: alice(),
            text: format!("2. {mine}")
        }
    );
}

/// After a forecast reply to taflbot's turn, taflbot's next turn comes at once, not at the bot
/// player's next look at every game (a minute on the default lease).
#[tokio::test]
async fn taflbot_answers_a_forecast_reply_at_once() {
    let svc = service().await;
    let (game, ..) = foreseen_against_taflbot(&svc).await;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let player = svc.spawn_bot_player(stopped, |_| async { true });
    // The player's first look finds taflbot to move; the reply is played with its turn.
    crate::support::until("taflbot's turn after the forecast reply", || async {
        stored(&svc, game).await.len() == 4
    })
    .await;
    let _ = stop.send(true);
    player.await.unwrap();
}

#[tokio::test]
async fn a_note_is_its_authors_alone_and_outlives_the_game() {
    let svc = service().await;
    let game = started(&svc).await;
    let plan = "Close the corners first; then squeeze the king *slowly*.";
    let note = svc
        .note(&alice(), Some(game), None, Some(plan), false)
        .await
        .unwrap();
    assert_eq!(
        (note.done, note.text.as_deref()),
        (NoteDone::Kept, Some(plan))
    );
    // bob sees none of it: his own note is empty, and his record does not carry hers.
    let his = svc
        .note(&bob(), Some(game), None, None, false)
        .await
        .unwrap();
    assert_eq!(his.text, None);
    svc.resign(&bob(), Some(game), None).await.unwrap();
    let his_record = svc.export(&bob(), Some(game), None, 0).await.unwrap();
    assert!(
        !his_record.record.contains("corners"),
        "{}",
        his_record.record
    );
    assert!(!his_record.private);
    // Hers, after the end, does, as comment lines the record reader passes over.
    let her_record = svc.export(&alice(), Some(game), None, 0).await.unwrap();
    assert!(her_record.private);
    assert!(
        her_record.record.contains("; Close the corners first"),
        "{}",
        her_record.record
    );
    taflbot::notation::read_record(&her_record.record).unwrap();
    // Someone not in the game has no note on it to keep.
    let carol = crate::support::carol();
    assert!(matches!(
        svc.note(&carol, Some(game), None, Some("mine"), false).await,
        Err(ServiceError::NotAPlayer(g)) if g == game
    ));
    let long = "x".repeat(taflbot::service::MAX_NOTE_CHARS + 1);
    assert!(matches!(
        svc.note(&alice(), Some(game), None, Some(&long), false)
            .await,
        Err(ServiceError::NoteTooLong { .. })
    ));
    let cleared = svc
        .note(&alice(), Some(game), None, None, true)
        .await
        .unwrap();
    assert_eq!((cleared.done, cleared.text), (NoteDone::Cleared, None));
}

#[tokio::test]
async fn more_time_goes_to_the_opponent_once_a_move() {
    let svc = service().await;
    let game = started(&svc).await;
    let before = svc.game(game).await.unwrap().deadline;
    // alice is to move: bob gives her two days.
    assert!(matches!(
        svc.more_time(&alice(), Some(game), None, 2).await,
        Err(ServiceError::MoreTimeOnYourMove(g)) if g == game
    ));
    assert!(matches!(
        svc.more_time(&bob(), Some(game), None, 8).await,
        Err(ServiceError::BadOption { .. })
    ));
    let given = svc.more_time(&bob(), Some(game), None, 2).await.unwrap();
    assert_eq!(given.news, News::MoreTime { by: bob(), days: 2 });
    assert_eq!(given.view.deadline, before + 2 * DAY);
    assert_eq!(svc.game(game).await.unwrap().deadline, before + 2 * DAY);
    assert!(matches!(
        svc.more_time(&bob(), Some(game), None, 1).await,
        Err(ServiceError::MoreTimeGiven(g)) if g == game
    ));
    // The next move opens the next gift: alice may give bob time now.
    let mv = line_from(&replayed(&svc, game).await, 1, 3);
    svc.play(&alice(), Some(game), None, &mv[0]).await.unwrap();
    let deadline = svc.game(game).await.unwrap().deadline;
    let given = svc.more_time(&alice(), Some(game), None, 7).await.unwrap();
    assert_eq!(given.view.deadline, deadline + 7 * DAY);
    let said =
        taflbot::service::text::news(&given.news, &given.view, &taflbot::service::text::Plain);
    assert!(said.starts_with("alice gave bob 7 days more"), "{said}");
}

// ----- end to end, on the fake Discord -----

mod on_discord {
    use super::*;
    use crate::fake_discord::{elsewhere, s, Elsewhere, Opt};
    use crate::support::{Harness, ALICE, BOB};

    #[tokio::test]
    async fn a_forecast_reply_is_posted_right_after_the_move_it_answers() {
        let h = Harness::start("forecast-e2e").await;
        let (game, thread) = h.game("tyr-11").await;
        let line = line_from(&replayed(&h.service, game).await, 2, 3);
        let kept = h
            .slash(BOB, thread, "forecast", &[("line", s(&line.join(",")))])
            .await;
        assert!(kept.private(), "{}", kept.content());
        assert!(kept.content().starts_with("Kept."), "{}", kept.content());
        assert!(kept.content().contains(&line[1]), "{}", kept.content());
        // alice's move is her answer, pinging nobody: bob has answered already.
        let moved = h.play(ALICE, thread, &line[0]).await;
        assert!(
            moved.content().starts_with("alice played"),
            "{}",
            moved.content()
        );
        assert!(moved.pings().is_empty(), "{:?}", moved.pings());
        let reply = h
            .fake
            .wait_post("the forecast reply", |p| {
                p.channel == thread && p.content.contains("as forecast")
            })
            .await;
        assert!(
            reply
                .content
                .starts_with(&format!("bob played 1... {}, as forecast.", line[1])),
            "{}",
            reply.content
        );
        assert_eq!(reply.pings, [ALICE.id.to_string()]);
        assert!(reply.files.iter().any(|(name, _)| name.ends_with(".png")));
        assert_eq!(h.moves_stored(game).await, 2);
        h.shutdown().await;
    }

    #[tokio::test]
    async fn a_note_answers_its_author_alone_and_more_time_is_said_in_the_thread() {
        let h = Harness::start("note-e2e").await;
        let (game, thread) = h.game("tyr-11").await;
        let note = h
            .slash(
                ALICE,
                thread,
                "note",
                &[("text", s("@everyone squeeze the king"))],
            )
            .await;
        assert!(note.private());
        assert!(note.pings().is_empty());
        assert!(
            note.content().contains("> @everyone squeeze"),
            "{}",
            note.content()
        );
        // Her record carries it, so it is hers alone; bob's is for the channel.
        let hers = h.slash(ALICE, thread, "record", &[]).await;
        assert!(hers.private());
        let his = h.slash(BOB, thread, "record", &[]).await;
        assert!(!his.private());
        let text = |c: &crate::fake_discord::Call| {
            c.files
                .iter()
                .find(|(n, _)| n.ends_with(".txt"))
                .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
                .unwrap()
        };
        assert!(text(&hers).contains("squeeze the king"));
        assert!(!text(&his).contains("squeeze"));
        // bob gives alice (to move) three days; the thread hears who gave them.
        let given = h
            .slash(BOB, thread, "moretime", &[("days", Opt::Int(3))])
            .await;
        assert!(
            given.content().starts_with("bob gave alice 3 days more"),
            "{}",
            given.content()
        );
        let again = h
            .slash(BOB, thread, "moretime", &[("days", Opt::Int(1))])
            .await;
        assert!(again.private());
        assert!(again.content().contains("already"), "{}", again.content());
        assert_eq!(
            h.service.game(game).await.unwrap().deadline,
            h.service.now() + 6 * DAY
        );
        h.shutdown().await;
    }

    #[tokio::test]
    async fn installed_on_an_account_it_answers_in_dms_and_refuses_games_there() {
        let h = Harness::start("user-install").await;
        let dm = h.fake.next_id();
        for place in [
            Elsewhere::BotDm,
            Elsewhere::GroupDm,
            Elsewhere::OtherServer(42),
        ] {
            let rules = h
                .fake
                .ask(elsewhere(
                    h.fake
                        .slash(ALICE, dm, "rules", &[("variant", s("brandubh"))]),
                    place,
                ))
                .await;
            assert!(
                rules.content().contains("Brandubh"),
                "{place:?}: {}",
                rules.content()
            );
            assert!(rules.png().is_some(), "{place:?}");
            let moved = h
                .fake
                .ask(elsewhere(
                    h.fake.slash(ALICE, dm, "move", &[("move", s("d1-d3"))]),
                    place,
                ))
                .await;
            assert!(moved.private(), "{place:?}");
            assert!(
                moved
                    .content()
                    .starts_with("`/move` works in a server that has taflbot"),
                "{place:?}: {}",
                moved.content()
            );
        }
        // Nothing was posted anywhere: answers only.
        assert!(h.fake.posts().is_empty(), "{:?}", h.fake.posts());
        h.shutdown().await;
    }
}

// ----- quiet hours and the daily digest -----

/// The next moment after `t` at `hour`:`minute` UTC.
fn next_utc(t: i64, hour: i64, minute: i64) -> i64 {
    let day = t - t.rem_euclid(DAY);
    let at = day + hour * 3600 + minute * 60;
    if at > t {
        at
    } else {
        at + DAY
    }
}

fn hours(change: &[(&str, &str)]) -> taflbot::service::HoursChange {
    let mut h = taflbot::service::HoursChange::default();
    for (name, value) in change {
        match *name {
            "dm" => h.dm = Some(*value == "on"),
            "digest" => h.digest = Some(*value == "on"),
            "hour" => h.hour = Some(value.parse().unwrap()),
            "quiet" => h.quiet = Some(value.to_string()),
            "zone" => h.zone = Some(value.to_string()),
            _ => panic!("{name}"),
        }
    }
    h
}

#[tokio::test]
async fn the_digest_is_sent_once_at_its_hour_by_two_processes() {
    let dir = crate::support::scratch("digest");
    let db = dir.join("digest.db");
    let (one, clock) = service_at(db.to_str().unwrap(), T0).await;
    let two = crate::support::open(&db, &clock).await;
    let game = started(&one).await;
    // alice (to move) asks for a digest at 9 in Oslo; bob too, with nothing waiting for him.
    let set = one
        .notify(
            &alice(),
            &hours(&[("digest", "on"), ("hour", "9"), ("zone", "Europe/Oslo")]),
        )
        .await
        .unwrap();
    assert_eq!(set.digest, Some(9));
    one.notify(&bob(), &hours(&[("digest", "on")]))
        .await
        .unwrap();
    // 9 in Oslo in January is 8:00 UTC.
    let nine = next_utc(T0, 8, 0);
    clock.set(nine - 60);
    assert!(one.due_digests().await.unwrap().is_empty());
    clock.set(nine);
    let (a, b) = tokio::join!(one.due_digests(), two.due_digests());
    let sent: Vec<_> = a.unwrap().into_iter().chain(b.unwrap()).collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].to, alice());
    assert_eq!(sent[0].games.len(), 1);
    assert_eq!(sent[0].games[0].0.id, game);
    let said = taflbot::service::text::digest(&sent[0], &taflbot::service::text::Plain);
    assert!(said.starts_with("1 game waits for your move:"), "{said}");
    // Once a day: not again that day, again the next.
    clock.set(nine + 3600);
    assert!(one.due_digests().await.unwrap().is_empty());
    clock.set(nine + DAY);
    assert_eq!(two.due_digests().await.unwrap().len(), 1);
    // Refusals say what was wrong.
    assert!(matches!(
        one.notify(&alice(), &hours(&[("zone", "Mars/Olympus")]))
            .await,
        Err(ServiceError::UnknownZone(_))
    ));
    assert!(matches!(
        one.notify(&alice(), &hours(&[("quiet", "late")])).await,
        Err(ServiceError::BadQuietHours(_))
    ));
}

#[tokio::test]
async fn quiet_hours_bring_a_reminder_forward_and_never_move_the_deadline() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let game = started(&svc).await;
    let deadline = svc.game(game).await.unwrap().deadline;
    // alice's reminder is due a day before her deadline; quiet hours from an hour before it.
    let remind = deadline - DAY;
    let hour = (remind.rem_euclid(DAY) / 3600 + 23) % 24;
    let quiet = format!("{hour}-{}", (hour + 4) % 24);
    svc.notify(&alice(), &hours(&[("quiet", &quiet)]))
        .await
        .unwrap();
    let begins = remind - remind.rem_euclid(3600) - 3600;
    clock.set(begins - 60);
    let reminders = |notices: Vec<taflbot::service::Notice>| {
        notices
            .into_iter()
            .filter(|n| matches!(n.news(), News::Reminder { .. }))
            .count()
    };
    assert_eq!(reminders(svc.sweep().await.unwrap()), 0);
    clock.set(begins);
    assert_eq!(reminders(svc.sweep().await.unwrap()), 1);
    assert_eq!(svc.game(game).await.unwrap().deadline, deadline);
    // Once only.
    clock.set(remind);
    assert_eq!(reminders(svc.sweep().await.unwrap()), 0);
}

/// Held news is told when a player's quiet hours end, however many others are still quiet: the
/// sixty read first hold theirs, and the one after them, whose hours are over, is told at once.
#[tokio::test]
async fn held_news_is_told_when_quiet_hours_end_however_many_are_still_quiet() {
    // T0 is 08:00 UTC.
    let (svc, _) = service_at(":memory:", T0).await;
    let game = started(&svc).await;
    for i in 0..60 {
        let quiet = taflbot::service::Person::new(format!("q{i}"), format!("quiet{i}"));
        svc.notify(&quiet, &hours(&[("quiet", "07-10")]))
            .await
            .unwrap();
        svc.hold(&quiet, game, false).await.unwrap();
    }
    let awake = taflbot::service::Person::new("awake", "awake");
    svc.notify(&awake, &hours(&[("quiet", "01-06")]))
        .await
        .unwrap();
    svc.hold(&awake, game, true).await.unwrap();
    let told = svc.quiet_ended().await.unwrap();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].to.key, "awake");
    assert_eq!(told[0].games.len(), 1);
    assert!(told[0].games[0].1, "a reminder");
    // Told once; the quiet ones still wait.
    assert!(svc.quiet_ended().await.unwrap().is_empty());
}

mod quiet_on_discord {
    use super::*;
    use crate::support::{Harness, ALICE, BOB};

    #[tokio::test]
    async fn quiet_hours_hold_the_ping_and_the_dm_and_tell_them_when_they_end() {
        let h = Harness::start("quiet-hours").await;
        let (game, thread) = h.game("tyr-11").await;
        let now = h.service.now();
        let quiet_from = next_utc(now, 22, 0);
        h.clock.set(quiet_from - 3600);
        // bob (to move after alice) wants DMs, but not between 22 and 7 UTC.
        let set = h
            .slash(
                BOB,
                thread,
                "notify",
                &[
                    ("dm", crate::fake_discord::Opt::Int(0)),
                    ("quiet", crate::fake_discord::s("22-07")),
                ],
            )
            .await;
        assert!(
            set.content().contains("Quiet hours 22:00 to 07:00 (UTC)"),
            "{}",
            set.content()
        );
        h.clock.set(quiet_from + 3600);
        let mv = line_from(&replayed(&h.service, game).await, 1, 3);
        let moved = h.play(ALICE, thread, &mv[0]).await;
        // Named, but not pinged: the mention is not allowed to notify.
        assert!(
            moved.content().contains(">, your move"),
            "{}",
            moved.content()
        );
        assert!(moved.pings().is_empty(), "{:?}", moved.pings());
        assert!(h.fake.dms_to(BOB.id).is_empty());
        // When they end, one message tells what was held.
        h.clock.set(quiet_from + 9 * 3600);
        let told = h
            .fake
            .wait_post("what quiet hours held", |p| {
                p.content.starts_with("Your quiet hours are over")
            })
            .await;
        assert!(
            told.content.contains(&format!("Game #{game}: your move")),
            "{}",
            told.content
        );
        assert_eq!(h.fake.dms_to(BOB.id).len(), 1);
        h.shutdown().await;
    }
}

//! Several processes on one database: each test opens it twice (two pools, as two processes
//! would) on one clock, and has both do the same thing at the same moment. On SQLite that is one
//! file; in the run on PostgreSQL one database (see `support::database`).

use std::collections::HashSet;
use std::sync::Arc;

use futures_util::future::join_all;
use taflbot::service::{
    News, Person, Service, ServiceError, SideChoice, TestClock, DAY, LEASE, MAX_OPEN_CHALLENGES,
};

use crate::support::{alice, bob, moves_stored, scratch, started, store, Scratch, T0};

/// Two services on one new database, as two processes would have, sharing one clock; and the
/// database's folder, to be held while they work.
async fn two_processes(name: &str) -> (Service, Service, Arc<TestClock>, Scratch) {
    let dir = scratch(name);
    let path = dir.join("shared.db");
    let url = path.to_str().unwrap();
    let clock = Arc::new(TestClock::new(T0));
    let one = Service::new(store(url).await, clock.clone());
    let two = Service::new(store(url).await, clock.clone());
    (one, two, clock, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_moves_for_one_game_at_once_apply_one_and_the_other_is_told_why() {
    let (one, two, _, _dir) = two_processes("two-moves").await;
    let game = started(&one).await;
    for turn in 0..12 {
        let view = one.game(game).await.unwrap();
        let mover = view.waiting_for.clone().unwrap();
        let (_, moves) = one.legal_moves(&mover, Some(game), None).await.unwrap();
        // The same player sends two different moves, one through each process.
        let (a, b) = (&moves[turn % moves.len()], &moves[(turn + 5) % moves.len()]);
        let before = moves_stored(&one, game).await;
        let (first, second) = tokio::join!(
            one.play(&mover, Some(game), None, a),
            two.play(&mover, Some(game), None, b)
        );
        let results = [first.map(|p| p.view.turns), second.map(|p| p.view.turns)];
        let applied = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(applied, 1, "turn {turn}: {results:?}");
        let refused = results.iter().find_map(|r| r.as_ref().err()).unwrap();
        assert!(
            matches!(refused, ServiceError::NotYourTurn { .. }),
            "turn {turn}: {refused:?}"
        );
        assert!(refused.to_string().contains("turn"), "{refused}");
        assert_eq!(moves_stored(&one, game).await, before + 1);
        if one.game(game).await.unwrap().open_chain {
            one.end_turn(&mover, Some(game), None).await.unwrap();
        }
    }
    // Both processes read the same game, and it replays.
    let (a, b) = (one.game(game).await.unwrap(), two.game(game).await.unwrap());
    assert_eq!((a.turns, &a.position), (b.turns, &b.position));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_open_challenge_limit_holds_across_processes() {
    let (one, two, _, _dir) = two_processes("challenge-limit").await;
    let targets: Vec<Person> = (0..2 * MAX_OPEN_CHALLENGES)
        .map(|i| Person::new(format!("t{i}"), format!("t{i}")))
        .collect();
    let alice = alice();
    let attempts = targets.iter().enumerate().map(|(i, to)| {
        let svc = if i % 2 == 0 { &one } else { &two };
        svc.challenge(&alice, to, "tablut", SideChoice::Random, None, None)
    });
    let results = join_all(attempts).await;
    let made = results.iter().filter(|r| r.is_ok()).count() as i64;
    assert_eq!(made, MAX_OPEN_CHALLENGES, "{results:?}");
    assert!(results
        .iter()
        .filter_map(|r| r.as_ref().err())
        .all(|e| matches!(e, ServiceError::TooManyChallenges(_))));
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenges WHERE status = 'open'")
        .fetch_one(two.pool())
        .await
        .unwrap();
    assert_eq!(open, MAX_OPEN_CHALLENGES);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_deadline_is_handled_once_by_two_sweepers() {
    let (one, two, clock, _dir) = two_processes("two-sweepers").await;
    let mut games = Vec::new();
    for i in 0..6 {
        let challenger = Person::new(format!("c{i}"), format!("c{i}"));
        let c = one
            .challenge(
                &challenger,
                &bob(),
                "tablut",
                SideChoice::Random,
                Some(3),
                None,
            )
            .await
            .unwrap();
        games.push(one.accept(&bob(), Some(c.id), None).await.unwrap().id);
    }
    // The reminders, then the losses on time, each swept by both at once.
    for (when, kind) in [
        (T0 + 2 * DAY + 60, "reminder"),
        (T0 + 3 * DAY + 60, "timeout"),
    ] {
        clock.set(when);
        let (a, b) = tokio::join!(one.sweep(), two.sweep());
        let notices: Vec<_> = a.unwrap().into_iter().chain(b.unwrap()).collect();
        let of_kind: Vec<i64> = notices
            .iter()
            .filter(|n| n.kind.as_str() == kind)
            .map(|n| n.game_id)
            .collect();
        let once: HashSet<i64> = of_kind.iter().copied().collect();
        assert_eq!(of_kind.len(), games.len(), "{kind}: {of_kind:?}");
        assert_eq!(once, games.iter().copied().collect(), "{kind}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_notice_is_claimed_by_one_process_and_a_dead_ones_claims_run_out() {
    let (one, two, clock, _dir) = two_processes("claims").await;
    let game = started(&one).await;
    let mut left = HashSet::new();
    for _ in 0..120 {
        left.insert(one.leave_notice(game, &News::Update).await.unwrap().id);
    }
    // Both claim at once, round after round, until nothing is left.
    let (mut by_one, mut by_two) = (Vec::new(), Vec::new());
    loop {
        let (a, b) = tokio::join!(one.claim_notices(), two.claim_notices());
        let (a, b) = (a.unwrap(), b.unwrap());
        if a.is_empty() && b.is_empty() {
            break;
        }
        by_one.extend(a.iter().map(|n| n.id));
        by_two.extend(b.iter().map(|n| n.id));
    }
    let all: HashSet<i64> = by_one.iter().chain(&by_two).copied().collect();
    assert_eq!(
        all.len(),
        by_one.len() + by_two.len(),
        "a notice claimed twice"
    );
    assert_eq!(all, left);
    // Process one delivers what it claimed; process two dies holding the rest.
    for id in &by_one {
        one.delivered(*id).await.unwrap();
    }
    assert!(one.claim_notices().await.unwrap().is_empty(), "still held");
    clock.advance(LEASE + 1);
    let taken_over: HashSet<i64> = one
        .claim_notices()
        .await
        .unwrap()
        .into_iter()
        .chain(one.claim_notices().await.unwrap())
        .chain(one.claim_notices().await.unwrap())
        .map(|n| n.id)
        .collect();
    assert_eq!(taken_over, by_two.iter().copied().collect());
    for id in taken_over {
        one.delivered(id).await.unwrap();
    }
    assert!(two.pending_notices().await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_turn_is_searched_once_and_taken_over_when_its_process_dies() {
    let (one, two, clock, _dir) = two_processes("bot-turns").await;
    let bot = Person::new("bot", "taflbot");
    let terms = taflbot::service::Terms {
        side: SideChoice::Defenders,
        ..taflbot::service::Terms::new("brandubh".parse().unwrap())
    };
    let game = one
        .play_bot(&alice(), &bot, &terms, Some(1), None)
        .await
        .unwrap()
        .id;
    // The bot attacks and is to move: both processes are woken for it at once.
    let (a, b) = tokio::join!(one.bot_turn(game), two.bot_turn(game));
    let played = [a.unwrap(), b.unwrap()];
    assert_eq!(played.iter().flatten().count(), 1, "{played:?}");
    assert_eq!(moves_stored(&one, game).await, 1);
    let first = played.iter().flatten().next().unwrap();
    one.delivered(first.notice.id).await.unwrap();
    // Alice moves; process one claims the bot's turn and dies before playing it.
    let (_, moves) = one.legal_moves(&alice(), Some(game), None).await.unwrap();
    one.play(&alice(), Some(game), None, &moves[0])
        .await
        .unwrap();
    let orphan = one.bot_think(game).await.unwrap().expect("one's search");
    assert!(
        two.bot_turn(game).await.unwrap().is_none(),
        "held by one until its lease runs out"
    );
    clock.advance(one.lease() + 1);
    let notice = two
        .bot_turn(game)
        .await
        .unwrap()
        .expect("taken over")
        .notice;
    assert_eq!(moves_stored(&one, game).await, 3);
    // One's search, come back late, no longer fits the game and plays nothing.
    assert!(one.bot_play(orphan).await.unwrap().is_none());
    assert_eq!(moves_stored(&one, game).await, 3);
    // The turn's notice is held by the process that played it, not by the other's sweeper.
    assert!(one.claim_notices().await.unwrap().is_empty());
    two.delivered(notice.id).await.unwrap();
}

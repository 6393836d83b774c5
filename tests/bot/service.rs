//! The game service on an in-memory database and on files, under a test clock.

use std::sync::Arc;

use taflbot::rules::{Reason, Side};
use taflbot::service::text::{self, Plain};
use taflbot::service::{
    Notice, NoticeKind, Person, Service, ServiceError, SideChoice, TestClock, DAY,
};
use taflbot::store;

use crate::support::{alice, bob, carol, T0};

async fn service(url: &str) -> (Service, Arc<TestClock>) {
    crate::support::service_at(url, T0).await
}

/// alice (attackers) against bob (defenders) at tyr-11, three days per move.
async fn started(svc: &Service) -> i64 {
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Attackers,
            None,
            Some("chan"),
        )
        .await
        .unwrap();
    svc.accept(&bob(), Some(c.id), None).await.unwrap().id
}

/// A notice's sentence, in plain text, from its game as it is now.
async fn said_of(svc: &Service, notice: &Notice) -> String {
    let view = svc.game(notice.game_id).await.unwrap();
    text::notice(notice, &view, &Plain)
}

#[tokio::test]
async fn a_challenge_accepted_becomes_a_game_that_is_played() {
    let (svc, _) = service(":memory:").await;
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Attackers,
            Some(5),
            Some("chan"),
        )
        .await
        .unwrap();
    assert_eq!(c.days, 5);
    let view = svc.accept(&bob(), None, None).await.unwrap();
    assert_eq!(view.players[0].name, "alice");
    assert_eq!(view.waiting_for.as_ref().unwrap().name, "alice");
    assert_eq!(view.deadline, T0 + 5 * DAY);
    let played = svc
        .play(&alice(), None, Some("chan"), "d1-d3")
        .await
        .unwrap();
    assert_eq!(played.view.last_turn, vec!["d1-d3"]);
    let said = text::news(&played.news, &played.view, &Plain);
    assert!(
        said.starts_with("alice played d1-d3. Game #1: bob (defenders) to move"),
        "{said}"
    );
    assert_eq!(&played.png[1..4], b"PNG");
    svc.play(&bob(), Some(view.id), None, "e5-e2")
        .await
        .unwrap();
    let (board, png) = svc
        .board(&carol(), Some(view.id), None, true)
        .await
        .unwrap();
    assert_eq!(board.turns, 2);
    assert!(!png.is_empty());
    let record = svc.record(&alice(), Some(view.id), None).await.unwrap();
    assert!(
        record.contains("[Attackers \"alice\"]") && record.contains("1... e5-e2"),
        "{record}"
    );
    let games = svc.games(&alice()).await.unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].your_turn);
    assert_eq!(games[0].opponent.name, "bob");
}

#[tokio::test]
async fn refusals_say_what_was_wrong() {
    let (svc, _) = service(":memory:").await;
    let self_challenge = svc
        .challenge(&alice(), &alice(), "tyr-11", SideChoice::Random, None, None)
        .await;
    assert_eq!(
        self_challenge.unwrap_err().to_string(),
        "you cannot challenge yourself"
    );
    let days = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Random,
            Some(4),
            None,
        )
        .await;
    assert_eq!(
        days.unwrap_err().to_string(),
        "4 days per move is not offered: choose 1, 2, 3, 5, 7, 10 or 14"
    );
    let variant = svc
        .challenge(&alice(), &bob(), "chess", SideChoice::Random, None, None)
        .await;
    assert!(matches!(variant, Err(ServiceError::UnknownVariant(_))));

    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Defenders,
            None,
            None,
        )
        .await
        .unwrap();
    let own = svc.accept(&alice(), Some(c.id), None).await.unwrap_err();
    assert_eq!(
        own.to_string(),
        "this is your own challenge: only the challenged player answers it (/cancel withdraws it)"
    );
    let stranger = svc.accept(&carol(), Some(c.id), None).await.unwrap_err();
    assert_eq!(stranger.to_string(), "this is not your challenge");
    let id = svc.accept(&bob(), Some(c.id), None).await.unwrap().id;
    let again = svc.accept(&bob(), Some(c.id), None).await.unwrap_err();
    assert_eq!(
        again.to_string(),
        format!("challenge #{} is no longer open (accepted)", c.id)
    );

    // bob attacks: alice asked for the defenders.
    let stranger = svc
        .play(&carol(), Some(id), None, "d1-d3")
        .await
        .unwrap_err();
    assert_eq!(
        stranger.to_string(),
        format!("you are not playing in game #{id}")
    );
    let early = svc
        .play(&alice(), Some(id), None, "e5-e2")
        .await
        .unwrap_err();
    assert_eq!(
        early.to_string(),
        format!("it is not your turn in game #{id}: it is bob's move")
    );
    let illegal = svc.play(&bob(), Some(id), None, "d1-d9").await.unwrap_err();
    assert_eq!(illegal.to_string(), "the path is blocked at d4");
    let (view, _) = svc.board(&bob(), Some(id), None, false).await.unwrap();
    assert_eq!(view.turns, 0, "a refused move changes nothing");
    svc.resign(&alice(), Some(id), None).await.unwrap();
    let over = svc.play(&bob(), Some(id), None, "d1-d3").await.unwrap_err();
    assert_eq!(
        over.to_string(),
        format!("game #{id} is over: bob (attackers) won: resignation")
    );
    let over = svc.resign(&bob(), Some(id), None).await.unwrap_err();
    assert_eq!(
        over.to_string(),
        format!("game #{id} is over: bob (attackers) won: resignation")
    );
}

#[tokio::test]
async fn endings_resign_draw_abort() {
    let (svc, _) = service(":memory:").await;
    let g1 = started(&svc).await;
    let view = svc.resign(&bob(), Some(g1), None).await.unwrap();
    assert_eq!(view.outcome.unwrap().winner, Some(Side::Attackers));
    assert_eq!(view.outcome.unwrap().reason, Reason::Resignation);
    assert_eq!(
        text::status_line(&view, &Plain),
        format!(
            "Game #{g1} is over: alice (attackers) won: resignation. \
             Ratings: alice 1742 (+242), bob 1258 (-242)."
        )
    );

    let g2 = started(&svc).await;
    let (offered, agreed) = svc.draw(&alice(), Some(g2), None).await.unwrap();
    assert!(!agreed);
    assert_eq!(offered.draw_offer.unwrap().name, "alice");
    let twice = svc.draw(&alice(), Some(g2), None).await.unwrap_err();
    assert_eq!(
        twice.to_string(),
        format!("you have already offered a draw in game #{g2}")
    );
    svc.decline_draw(&bob(), Some(g2), None).await.unwrap();
    svc.draw(&alice(), Some(g2), None).await.unwrap();
    let (drawn, agreed) = svc.draw(&bob(), Some(g2), None).await.unwrap();
    assert!(agreed);
    assert_eq!(drawn.outcome.unwrap().reason, Reason::Agreement);

    let g3 = started(&svc).await;
    let aborted = svc.abort(&bob(), Some(g3), None).await.unwrap();
    assert!(aborted.aborted);
    let g4 = started(&svc).await;
    svc.play(&alice(), Some(g4), None, "d1-d3").await.unwrap();
    let late = svc.abort(&alice(), Some(g4), None).await.unwrap_err();
    assert_eq!(
        late.to_string(),
        format!("game #{g4} has begun: resign instead of aborting")
    );
    // A finished game reads back with its ending after a reload.
    let (view, _) = svc.board(&alice(), Some(g1), None, false).await.unwrap();
    assert_eq!(view.outcome.unwrap().reason, Reason::Resignation);
}

#[tokio::test]
async fn a_berserk_chain_goes_on_until_its_player_ends_it() {
    let (svc, _) = service(":memory:").await;
    let id = started(&svc).await;
    // Random but legal play until a capture leaves a chain open, then end it.
    let mut rng = taflbot::rules::random::Rng::new(3);
    let players = [alice(), bob()];
    for _ in 0..400 {
        let (view, _) = svc.board(&alice(), Some(id), None, false).await.unwrap();
        if view.outcome.is_some() {
            break;
        }
        let pos = taflbot::rules::parse_position(view.variant, &view.position).unwrap();
        let who = &players[view.to_move as usize];
        if pos.chain().is_some() {
            let ended = svc.end_turn(who, Some(id), None).await.unwrap();
            let said = text::news(&ended.news, &ended.view, &Plain);
            assert!(said.contains("ended the turn"), "{said}");
            assert_ne!(ended.view.to_move, view.to_move);
            return;
        }
        let moves = pos.legal_moves();
        let m = moves[rng.below(moves.len())];
        let text = taflbot::notation::canonical(&pos, m);
        svc.play(who, Some(id), None, &text).await.unwrap();
    }
    panic!("no berserk chain came up");
}

#[tokio::test]
async fn reminders_and_timeouts_come_once_even_across_a_restart() {
    let dir = std::env::temp_dir().join(format!("taflbot-deadlines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.db");
    let url = file.to_str().unwrap().to_string();
    let (svc, clock) = service(&url).await;
    let id = started(&svc).await;
    clock.advance(2 * DAY - 60);
    assert!(
        svc.sweep().await.unwrap().is_empty(),
        "no reminder before 24 hours remain"
    );
    clock.advance(120);
    let notices = svc.sweep().await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, NoticeKind::Reminder);
    let said = said_of(&svc, &notices[0]).await;
    assert!(
        said.starts_with("alice, game #1 is waiting for your move"),
        "{said}"
    );
    assert!(
        svc.sweep().await.unwrap().is_empty(),
        "a reminder is sent once"
    );
    drop(svc);

    // A new process on the same file: the reminder is not repeated; the timeout comes once.
    let clock = Arc::new(TestClock::new(T0 + 2 * DAY + 60));
    let svc = Service::new(store::open(&url).await.unwrap(), clock.clone());
    assert!(svc.sweep().await.unwrap().is_empty());
    clock.set(T0 + 3 * DAY);
    let notices = svc.sweep().await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, NoticeKind::Timeout);
    let said = said_of(&svc, &notices[0]).await;
    assert!(said.starts_with("alice ran out of time."), "{said}");
    assert!(svc.sweep().await.unwrap().is_empty());
    let (view, _) = svc.board(&bob(), Some(id), None, false).await.unwrap();
    assert_eq!(view.outcome.unwrap().reason, Reason::Timeout);
    assert_eq!(view.outcome.unwrap().winner, Some(Side::Defenders));
    let pending = svc.pending_notices().await.unwrap();
    assert_eq!(pending.len(), 2);
    for n in &pending {
        svc.delivered(n.id).await.unwrap();
    }
    assert!(svc.pending_notices().await.unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_move_restarts_the_clock_and_one_day_games_are_reminded_at_12_hours() {
    let (svc, clock) = service(":memory:").await;
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tablut",
            SideChoice::Attackers,
            Some(1),
            None,
        )
        .await
        .unwrap();
    let id = svc.accept(&bob(), Some(c.id), None).await.unwrap().id;
    clock.advance(DAY / 2 - 10);
    assert!(svc.sweep().await.unwrap().is_empty());
    let played = svc.play(&alice(), Some(id), None, "d1-d3").await.unwrap();
    assert_eq!(played.view.deadline, svc.now() + DAY);
    clock.advance(DAY / 2 + 5);
    let notices = svc.sweep().await.unwrap();
    assert_eq!(notices.len(), 1);
    let said = said_of(&svc, &notices[0]).await;
    assert!(said.starts_with("bob, game"), "{said}");
}

#[tokio::test]
async fn challenges_lapse_after_a_week() {
    let (svc, clock) = service(":memory:").await;
    let c = svc
        .challenge(&alice(), &bob(), "tyr-11", SideChoice::Random, None, None)
        .await
        .unwrap();
    clock.advance(7 * DAY);
    svc.sweep().await.unwrap();
    let late = svc.accept(&bob(), Some(c.id), None).await.unwrap_err();
    assert_eq!(
        late.to_string(),
        format!("challenge #{} is no longer open (expired)", c.id)
    );
    let c2 = svc
        .challenge(&alice(), &bob(), "tyr-11", SideChoice::Random, None, None)
        .await
        .unwrap();
    assert_eq!(svc.withdraw(&alice(), Some(c2.id)).await.unwrap().id, c2.id);
    let gone = svc.accept(&bob(), Some(c2.id), None).await.unwrap_err();
    assert_eq!(
        gone.to_string(),
        format!("challenge #{} is no longer open (withdrawn)", c2.id)
    );
    clock.advance(taflbot::service::CHALLENGE_COOLDOWN);
    let c3 = svc
        .challenge(&alice(), &bob(), "tyr-11", SideChoice::Random, None, None)
        .await
        .unwrap();
    assert_eq!(svc.decline(&bob(), None).await.unwrap().id, c3.id);
    assert_eq!(
        svc.decline(&bob(), None).await.unwrap_err().to_string(),
        "you have no open challenge to answer"
    );
}

#[tokio::test]
async fn a_broken_game_is_set_aside_and_the_others_go_on() {
    let (svc, _) = service(":memory:").await;
    let broken = started(&svc).await;
    let fine = started(&svc).await;
    svc.play(&alice(), Some(broken), None, "d1-d3")
        .await
        .unwrap();
    svc.play(&alice(), Some(fine), None, "d1-d3").await.unwrap();
    sqlx::query("UPDATE moves SET text = 'k1-k9' WHERE game_id = ?")
        .bind(broken)
        .execute(svc.pool())
        .await
        .unwrap();
    // A new process (the corruption came from outside: a rules change, a damaged file).
    let svc = Service::new(svc.pool().clone(), Arc::new(TestClock::new(T0)));
    let err = svc
        .board(&bob(), Some(broken), None, false)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("game #{broken} could not be loaded")),
        "{err}"
    );
    let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = ?")
        .bind(broken)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(status, "broken");
    svc.play(&bob(), Some(fine), None, "e5-e2").await.unwrap();
    assert_eq!(
        svc.games(&bob()).await.unwrap().len(),
        1,
        "the broken game is out of the lists"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_at_once_give_exactly_one_result() {
    let dir = std::env::temp_dir().join(format!("taflbot-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = dir.join("race.db").to_str().unwrap().to_string();
    let (svc, _) = service(&url).await;
    let id = started(&svc).await;
    for round in 0..5 {
        let moves = if round % 2 == 0 {
            [
                "d1-d2", "d1-d3", "h1-h2", "h1-h3", "a4-b4", "a4-c4", "k4-j4", "k4-i4",
            ]
        } else {
            [
                "e5-e2", "e5-e3", "g5-g2", "g5-g3", "e7-e9", "e7-e10", "g7-g9", "g7-g10",
            ]
        };
        let who = if round % 2 == 0 { alice() } else { bob() };
        let mut tasks = Vec::new();
        for text in moves {
            let (svc, who) = (svc.clone(), who.clone());
            tasks.push(tokio::spawn(async move {
                svc.play(&who, Some(id), None, text).await
            }));
        }
        let mut ok = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(_) => ok += 1,
                Err(
                    ServiceError::PositionChanged(_)
                    | ServiceError::NotYourTurn { .. }
                    | ServiceError::Move(_),
                ) => {}
                Err(e) => panic!("unexpected: {e}"),
            }
        }
        assert_eq!(ok, 1, "round {round}");
    }
    let (view, _) = svc.board(&alice(), Some(id), None, false).await.unwrap();
    assert_eq!(view.turns, 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn times_read_as_utc_dates() {
    assert_eq!(text::utc(0), "1970-01-01 00:00 UTC");
    assert_eq!(text::utc(1_800_000_000), "2027-01-15 08:00 UTC");
    assert_eq!(text::utc(951_782_400), "2000-02-29 00:00 UTC");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_in_different_games_at_once_all_succeed() {
    let dir = std::env::temp_dir().join(format!("taflbot-parallel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = dir.join("parallel.db").to_str().unwrap().to_string();
    let (svc, _) = service(&url).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(started(&svc).await);
    }
    for (who, text) in [
        (alice(), "d1-d3"),
        (bob(), "e5-e2"),
        (alice(), "h1-h3"),
        (bob(), "g5-g2"),
    ] {
        let tasks: Vec<_> = ids
            .iter()
            .map(|id| {
                let (svc, who, id) = (svc.clone(), who.clone(), *id);
                tokio::spawn(async move { svc.play(&who, Some(id), None, text).await })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_task_delivers_notices_until_stopped() {
    let (svc, clock) = service(":memory:").await;
    started(&svc).await;
    clock.advance(2 * DAY + 1);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (sent, mut received) = tokio::sync::mpsc::unbounded_channel();
    let task = svc.spawn_sweeper(
        std::time::Duration::from_millis(10),
        stopped,
        move |notice| {
            let sent = sent.clone();
            async move { sent.send(notice).is_ok() }
        },
    );
    let notice = tokio::time::timeout(std::time::Duration::from_secs(5), received.recv())
        .await
        .expect("a notice within 5 s")
        .unwrap();
    assert_eq!(notice.kind, NoticeKind::Reminder);
    stop.send(true).unwrap();
    task.await.unwrap();
    assert!(
        svc.pending_notices().await.unwrap().is_empty(),
        "delivered notices are marked"
    );
}

#[tokio::test]
async fn a_move_after_the_deadline_loses_on_time() {
    let (svc, clock) = service(":memory:").await;
    let id = started(&svc).await;
    clock.advance(3 * DAY);
    let late = svc
        .play(&alice(), Some(id), None, "d1-d3")
        .await
        .unwrap_err();
    assert_eq!(
        late.to_string(),
        format!("your time in game #{id} ran out: the game is lost on time")
    );
    let (view, _) = svc.board(&bob(), Some(id), None, false).await.unwrap();
    assert_eq!(view.outcome.unwrap().reason, Reason::Timeout);
    let pending = svc.pending_notices().await.unwrap();
    assert_eq!(pending.len(), 1, "the timeout is announced once");
    assert!(svc.sweep().await.unwrap().is_empty());
}

#[tokio::test]
async fn without_a_game_number_the_game_is_found_or_the_choice_asked_for() {
    let (svc, _) = service(":memory:").await;
    let first = started(&svc).await;
    let out_of_turn = svc.play(&bob(), None, None, "e5-e2").await.unwrap_err();
    assert_eq!(
        out_of_turn.to_string(),
        format!("it is not your turn in game #{first}: it is alice's move")
    );
    let second = started(&svc).await;
    let several = svc.resign(&alice(), None, None).await.unwrap_err();
    assert_eq!(
        several.to_string(),
        format!("several of your games match (#{first}, #{second}): say which with game:")
    );
    // Where none of the player's games is played, all of them are meant.
    let elsewhere = svc
        .resign(&alice(), None, Some("another channel"))
        .await
        .unwrap_err();
    assert_eq!(elsewhere.to_string(), several.to_string());
    // A game's own thread names it.
    svc.set_thread(second, Some("thread-2")).await.unwrap();
    let view = svc.resign(&alice(), None, Some("thread-2")).await.unwrap();
    assert_eq!(view.id, second);
    let (only, moves) = svc.legal_moves(&alice(), None, None).await.unwrap();
    assert_eq!(only, first);
    let tyr = taflbot::rules::Variant::by_id("tyr-11").unwrap();
    assert_eq!(
        moves.len(),
        taflbot::rules::Position::start(tyr).legal_moves().len()
    );
    assert!(moves.iter().any(|m| m == "d1-d3"));
    let not_yours = svc
        .legal_moves(&bob(), Some(first), None)
        .await
        .unwrap_err();
    assert_eq!(
        not_yours.to_string(),
        format!("it is not your turn in game #{first}: it is alice's move")
    );
}

#[tokio::test]
async fn past_the_deadline_no_one_acts_before_the_loss_on_time_and_the_right_player_is_named() {
    let (svc, clock) = service(":memory:").await;
    let id = started(&svc).await;
    clock.advance(3 * DAY + 1);
    // bob is not to move: he is told that alice's time ran out, not his.
    let e = svc.resign(&bob(), Some(id), None).await.unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("alice's time in game #{id} ran out: alice lost on time")
    );
    let view = svc.game(id).await.unwrap();
    assert_eq!(view.outcome.unwrap().reason, Reason::Timeout);
    assert_eq!(view.outcome.unwrap().winner, Some(Side::Defenders));

    // A player out of time can no longer resign, abort or accept a draw.
    for act in 0..3 {
        let id = started(&svc).await;
        svc.draw(&bob(), Some(id), None).await.unwrap();
        clock.advance(3 * DAY + 1);
        let e = match act {
            0 => svc.resign(&alice(), Some(id), None).await.unwrap_err(),
            1 => svc.abort(&alice(), Some(id), None).await.unwrap_err(),
            _ => svc.draw(&alice(), Some(id), None).await.unwrap_err(),
        };
        assert_eq!(
            e.to_string(),
            format!("your time in game #{id} ran out: the game is lost on time")
        );
        let view = svc.game(id).await.unwrap();
        assert_eq!(view.outcome.unwrap().reason, Reason::Timeout, "{act}");
    }
    // The loss was written with its notice, once.
    let notices = svc.sweep().await.unwrap();
    assert!(notices.is_empty(), "{notices:?}");
    let pending = svc.pending_notices().await.unwrap();
    assert_eq!(
        pending
            .iter()
            .filter(|n| n.kind == NoticeKind::Timeout)
            .count(),
        4
    );
}

#[tokio::test]
async fn a_draw_offer_lasts_until_the_opponent_moves_and_accepting_never_offers() {
    let (svc, _clock) = service(":memory:").await;
    let id = started(&svc).await;
    // Nothing to accept: refused, and no offer is made.
    let e = svc.accept_draw(&bob(), Some(id), None).await.unwrap_err();
    assert!(matches!(e, ServiceError::NoDrawOffer(_)), "{e}");
    assert!(svc.game(id).await.unwrap().draw_offer.is_none());
    // alice offers and moves: the offer stands.
    svc.draw(&alice(), Some(id), None).await.unwrap();
    let played = svc.play(&alice(), Some(id), None, "d1-d3").await.unwrap();
    assert_eq!(played.view.draw_offer, Some(alice()));
    assert_eq!(svc.game(id).await.unwrap().draw_offer, Some(alice()));
    // bob moves instead of answering: the offer lapses.
    let played = svc.play(&bob(), Some(id), None, "e5-e2").await.unwrap();
    assert_eq!(played.view.draw_offer, None);
    let e = svc.accept_draw(&bob(), Some(id), None).await.unwrap_err();
    assert!(matches!(e, ServiceError::NoDrawOffer(_)), "{e}");
    // An offer answered by the Accept draw button ends the game.
    svc.draw(&alice(), Some(id), None).await.unwrap();
    let drawn = svc.accept_draw(&bob(), Some(id), None).await.unwrap();
    assert!(drawn.outcome.is_some_and(|o| o.winner.is_none()));
}

#[tokio::test]
async fn a_random_side_is_drawn_when_the_challenge_is_made_and_kept() {
    let (svc, clock) = service(":memory:").await;
    let mut attacked = [0, 0];
    for i in 0..64 {
        let challenger = Person::new(format!("c{i}"), format!("c{i}"));
        let c = svc
            .challenge(
                &challenger,
                &bob(),
                "tablut",
                SideChoice::Random,
                None,
                None,
            )
            .await
            .unwrap();
        let drawn: Option<bool> =
            sqlx::query_scalar("SELECT challenger_attacks FROM challenges WHERE id = ?")
                .bind(c.id)
                .fetch_one(svc.pool())
                .await
                .unwrap();
        let drawn = drawn.expect("drawn when the challenge is made");
        // Whenever it is accepted, the drawn side holds.
        clock.advance(1 + i64::from(i % 7));
        let view = svc.accept(&bob(), Some(c.id), None).await.unwrap();
        assert_eq!(view.players[0].key == challenger.key, drawn);
        attacked[usize::from(drawn)] += 1;
    }
    // Both sides come up (a fair coin fails this once in 2^63 runs).
    assert!(attacked[0] > 0 && attacked[1] > 0, "{attacked:?}");
}

#[tokio::test]
async fn challenges_cannot_be_used_to_pester() {
    let (svc, clock) = service(":memory:").await;
    let challenge = |from: Person, to: Person| {
        let svc = svc.clone();
        async move {
            svc.challenge(&from, &to, "tablut", SideChoice::Random, None, None)
                .await
        }
    };
    let first = challenge(alice(), bob()).await.unwrap();
    for (from, to) in [(alice(), bob()), (bob(), alice())] {
        let e = challenge(from, to).await.unwrap_err();
        assert!(
            matches!(e, ServiceError::ChallengeOpen(id) if id == first.id),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "challenge #{} between you two is still open: answer or withdraw it first",
                first.id
            )
        );
    }
    // Declined: not again at once, but after the cooldown.
    svc.decline(&bob(), Some(first.id)).await.unwrap();
    let e = challenge(alice(), bob()).await.unwrap_err();
    assert!(matches!(e, ServiceError::ChallengeCooldown(_)), "{e}");
    clock.advance(taflbot::service::CHALLENGE_COOLDOWN);
    challenge(alice(), bob()).await.unwrap();
    // At most five open at once.
    for i in 0..4 {
        challenge(alice(), Person::new(format!("p{i}"), format!("p{i}")))
            .await
            .unwrap();
    }
    let e = challenge(alice(), carol()).await.unwrap_err();
    assert_eq!(
        e.to_string(),
        "you have 5 open challenges, the most there may be: wait for answers or withdraw one"
    );
}

#[tokio::test]
async fn a_failing_notice_is_retried_less_and_less_often_then_given_up_and_pruned() {
    use taflbot::service::{Delivery, KEPT_FOR, MAX_DELIVERY_ATTEMPTS};
    let (svc, clock) = service(":memory:").await;
    let id = started(&svc).await;
    let notice = svc
        .leave_notice(id, &taflbot::service::News::Update)
        .await
        .unwrap();
    let mut waits = Vec::new();
    for _ in 0..MAX_DELIVERY_ATTEMPTS {
        let due = svc.pending_notices().await.unwrap();
        assert_eq!(due.len(), 1, "due again after its wait");
        svc.tried(notice.id, Delivery::Retry).await.unwrap();
        assert!(
            svc.pending_notices().await.unwrap().is_empty(),
            "not due at once"
        );
        let next: i64 = sqlx::query_scalar("SELECT next_try_at FROM notices WHERE id = ?")
            .bind(notice.id)
            .fetch_one(svc.pool())
            .await
            .unwrap();
        waits.push(next - svc.now());
        clock.set(next);
    }
    assert_eq!(&waits[..4], [60, 120, 240, 480]);
    assert_eq!(*waits.last().unwrap(), 6 * 3600, "{waits:?}");
    assert!(
        svc.pending_notices().await.unwrap().is_empty(),
        "given up after {MAX_DELIVERY_ATTEMPTS} tries"
    );
    // Kept a while for the record, then forgotten with old challenges.
    clock.advance(KEPT_FOR + taflbot::service::CHALLENGE_LIFETIME);
    svc.sweep().await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notices WHERE id = ?")
        .bind(notice.id)
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
    let challenges: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenges")
        .fetch_one(svc.pool())
        .await
        .unwrap();
    assert_eq!(challenges, 0, "the answered challenge is forgotten");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_openers_of_a_new_database_all_start_and_sqlite_urls_keep_their_options() {
    let dir = std::env::temp_dir().join(format!("taflbot-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for round in 0..10 {
        let url = dir
            .join(format!("new-{round}.db"))
            .to_str()
            .unwrap()
            .to_string();
        let openers = (0..6).map(|_| store::open(&url));
        for opened in futures_util::future::join_all(openers).await {
            match opened {
                Ok(pool) => pool.close().await,
                Err(e) => panic!("round {round}: {e}"),
            }
        }
    }
    // A `sqlite:` URL's query is options, not part of the file's name.
    let url = format!("sqlite://{}/with-mode.db?mode=rwc", dir.to_str().unwrap());
    store::open(&url).await.unwrap().close().await;
    assert!(dir.join("with-mode.db").exists());
    assert!(std::fs::read_dir(&dir).unwrap().all(|f| !f
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains('?')));
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Deadlines: reminders before a player's time runs out, once even across a restart; a move
//! restarts the clock; the loss on time, and no one acting past the deadline before it.

use std::sync::Arc;

use taflbot::rules::{Reason, Side};
use taflbot::service::text::{self, Plain};
use taflbot::service::{Notice, NoticeKind, Service, SideChoice, TestClock, DAY};

use crate::support::{alice, bob, service_at, started, Harness, T0};

async fn service(url: &str) -> (Service, Arc<TestClock>) {
    service_at(url, T0).await
}

/// A notice's sentence, in plain text, from its game as it is now.
async fn said_of(svc: &Service, notice: &Notice) -> String {
    let view = svc.game(notice.game_id).await.unwrap();
    text::notice(notice, &view, &Plain)
}

#[tokio::test]
async fn reminders_and_timeouts_come_once_even_across_a_restart() {
    let dir = crate::support::scratch("deadlines-service");
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
    let svc = Service::new(crate::support::store(&url).await, clock.clone());
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

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_and_timeouts_are_posted_in_the_thread() {
    let h = Harness::start("deadlines").await;
    let (game, thread) = h.game("tyr-11").await;
    let next = h.service.game(game).await.unwrap().waiting_for.unwrap();
    h.clock.advance(2 * DAY + 1);
    let reminder = h
        .fake
        .wait_post("the reminder", |p| {
            p.channel == thread && p.content.contains("waiting for your move")
        })
        .await;
    assert_eq!(reminder.pings, std::slice::from_ref(&next.key));
    h.clock.advance(DAY);
    let timeout = h
        .fake
        .wait_post("the timeout", |p| {
            p.channel == thread && p.content.contains("ran out of time")
        })
        .await;
    assert_eq!(timeout.pings.len(), 2);
    assert!(h.service.game(game).await.unwrap().outcome.is_some());
    h.shutdown().await;
}

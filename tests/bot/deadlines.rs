//! Deadlines: reminders before a player's time runs out, and the loss on time.

use taflbot::service::DAY;

use crate::support::Harness;

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

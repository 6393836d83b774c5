//! Notification by direct message (/notify): turns and reminders sent to a player who asked for
//! them, and a note in the thread, once, when the messages cannot be sent.

use crate::fake_discord::Opt;
use crate::support::{Harness, ALICE, BOB, CHANNEL};

// ----- on Discord, end to end -----

#[tokio::test]
async fn turns_come_by_direct_message_and_closed_dms_fall_back_to_the_thread_once() {
    let h = Harness::start("dms").await;
    let on = h
        .slash(BOB, CHANNEL, "notify", &[("dm", Opt::Int(0))])
        .await;
    assert!(on.private());
    assert!(on
        .content()
        .starts_with("Your turns and reminders come by direct message"));
    let (game, thread) = h.game("tablut").await;
    // The game begins with alice to move: no message for bob yet.
    assert!(h.fake.dms_to(BOB.id).is_empty());
    h.play(ALICE, thread, "d1-d3").await;
    let dm = h
        .fake
        .wait_post("bob's direct message", |p| {
            p.content
                .starts_with(&format!("Game #{game} (Tablut (Cartier)) against alice"))
        })
        .await;
    assert!(
        dm.content
            .contains(&format!("in <#{thread}> is waiting for your move")),
        "{}",
        dm.content
    );
    assert!(dm.content.contains("<t:"), "{}", dm.content);
    // A direct message may ping its addressee and nobody else.
    assert_eq!(dm.pings, vec![BOB.id.to_string()]);
    assert_eq!(h.fake.dms_to(BOB.id).len(), 1);
    // alice never asked for them.
    h.play(BOB, thread, "c5-c7").await;
    assert!(h.fake.dms_to(ALICE.id).is_empty());

    // bob closes his direct messages: the next turn is said in the thread, once, and the
    // messages stop.
    h.fake.close_dms(BOB.id);
    h.play(ALICE, thread, "f1-f3").await;
    let note = h
        .fake
        .wait_post("the note in the thread", |p| {
            p.channel == thread && p.content.contains("cannot send you direct messages")
        })
        .await;
    assert!(
        note.content.starts_with(&format!("<@{}>", BOB.id)),
        "{}",
        note.content
    );
    assert_eq!(note.pings, vec![BOB.id.to_string()]);
    h.play(BOB, thread, "g5-g7").await;
    h.play(ALICE, thread, "a4-b4").await;
    let notes = h
        .fake
        .posts_in(thread)
        .into_iter()
        .filter(|p| p.content.contains("cannot send you direct messages"))
        .count();
    assert_eq!(notes, 1);
    let tries = h
        .fake
        .calls()
        .iter()
        .filter(|c| c.path == "/users/@me/channels")
        .count();
    assert_eq!(
        tries, 2,
        "one message sent, one refused, then no more tries"
    );
    h.shutdown().await;
}

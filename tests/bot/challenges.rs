//! Challenges: made, answered by button, refused when one is open; the game's thread and the
//! moves posted there.

use crate::fake_discord::{s, Opt};
use crate::support::{is_png, opponent, png_of, Harness, ALICE, BOB, CAROL, CHANNEL};

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_accepted_by_button_opens_a_thread_and_the_moves_are_posted_there() {
    let h = Harness::start("flow").await;
    let challenge = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(BOB)),
                ("variant", s("tyr-11")),
                ("side", Opt::Int(0)),
                ("days", Opt::Int(3)),
            ],
        )
        .await;
    assert_eq!(challenge.kind(), 4);
    assert!(!challenge.private());
    assert!(
        challenge.content().starts_with(&format!(
            "<@{}>, <@{}> challenges you to a rated game of **TYR",
            BOB.id, ALICE.id
        )),
        "{}",
        challenge.content()
    );
    assert_eq!(challenge.pings(), [BOB.id.to_string()]);
    let buttons = challenge.buttons();
    assert_eq!(buttons.len(), 2);
    assert!(buttons[0].starts_with("accept:") && buttons[1].starts_with("decline:"));

    // A second challenge while this one is open is refused privately, pinging nobody.
    let again = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[("opponent", Opt::User(BOB)), ("variant", s("tablut"))],
        )
        .await;
    assert!(again.private());
    assert!(
        again
            .content()
            .contains("is still open: answer or withdraw it first"),
        "{}",
        again.content()
    );
    assert!(again.pings().is_empty());

    // Nobody but bob may answer.
    let stranger = h.press(CAROL, CHANNEL, &buttons[0]).await;
    assert!(stranger.private());
    assert_eq!(stranger.content(), "This is not your challenge.");
    let own = h.press(ALICE, CHANNEL, &buttons[1]).await;
    assert!(own.private());
    assert!(
        own.content().starts_with("This is your own challenge"),
        "{}",
        own.content()
    );

    let accepted = h.press(BOB, CHANNEL, &buttons[0]).await;
    assert_eq!(accepted.kind(), 7);
    assert!(
        accepted.buttons().is_empty(),
        "the buttons go once answered"
    );
    h.fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #"))
        .await;
    let threads = h.fake.threads_of(CHANNEL);
    assert_eq!(threads.len(), 1, "one thread for the game");
    let thread = threads[0];
    assert!(
        accepted.content().starts_with("bob accepted: game #"),
        "{}",
        accepted.content()
    );
    // Answered first; the thread, once made, is named in the answer.
    h.fake
        .wait_call("the answer naming the thread", |c| {
            c.method == "PATCH"
                && c.path.ends_with("/messages/@original")
                && c.content().contains(&format!("<#{thread}>"))
        })
        .await;
    assert!(h.fake.thread(thread).unwrap().name.contains("alice vs bob"));
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.channel == thread)
        .await;
    assert!(is_png(png_of(&opening)));
    let game: i64 = 1;
    let first = h.service.game(game).await.unwrap().waiting_for.unwrap();
    assert_eq!(opening.pings, std::slice::from_ref(&first.key));

    // Moves in the thread: each answered with the board, naming the next player.
    for _ in 0..4 {
        let (who, mv) = h.a_move(game).await;
        let before = h.moves_stored(game).await;
        let answer = h.play(who, thread, &mv).await;
        assert_eq!(answer.kind(), 4);
        assert!(!answer.private());
        assert!(is_png(answer.png()), "the answer carries the board");
        assert!(
            answer
                .content()
                .contains(&format!("{} played {mv}", who.name)),
            "{}",
            answer.content()
        );
        let next = opponent(who);
        assert_eq!(answer.pings(), [next.id.to_string()]);
        assert!(answer
            .content()
            .contains(&format!("<@{}>, your move.", next.id)));
        assert_eq!(h.moves_stored(game).await, before + 1);
    }
    h.shutdown().await;
}

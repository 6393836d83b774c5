//! Moves: illegal ones and strangers refused with nothing changed; a berserk chain ended by its
//! player.

use crate::common;
use crate::fake_discord::{s, Opt};
use crate::support::{is_png, opponent, person, Harness, ALICE, BOB, CAROL};

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_and_strangers_are_refused_privately_and_nothing_changes() {
    let h = Harness::start("refusals").await;
    let (game, thread) = h.game("tyr-11").await;
    let (who, _) = h.a_move(game).await;
    let other = opponent(who);
    let stored = h.moves_stored(game).await;
    let posts = h.fake.posts().len();

    for (by, text) in [(who, "a1-a11"), (who, "e5-e"), (other, "d1-d3")] {
        let expected = h
            .service
            .play(&person(by), Some(game), None, text)
            .await
            .unwrap_err();
        let answer = h.play(by, thread, text).await;
        assert!(answer.private(), "{text}");
        assert_eq!(
            answer.content(),
            taflbot::discord::commands::refusal(&expected)
        );
        assert!(answer.png().is_none());
    }
    let stranger = h
        .slash(
            CAROL,
            thread,
            "move",
            &[("move", s("d1-d3")), ("game", Opt::Int(game))],
        )
        .await;
    assert!(stranger.private());
    assert_eq!(
        stranger.content(),
        format!("You are not playing in game #{game}.")
    );
    let resign = h
        .slash(CAROL, thread, "resign", &[("game", Opt::Int(game))])
        .await;
    assert!(resign.private());
    assert_eq!(h.moves_stored(game).await, stored, "no move was stored");
    assert_eq!(h.fake.posts().len(), posts, "nothing was posted");
    assert!(h.service.game(game).await.unwrap().outcome.is_none());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_berserk_chain_ends_with_the_end_turn_button() {
    let h = Harness::start("berserk").await;
    let (game, thread) = h.game("tyr-11").await;
    h.set_start(
        game,
        &common::position_string("tyr-11", "a", "tc1 Td5 te5 Tb8 ta8 Kh9"),
    )
    .await;
    let capture = h.play(ALICE, thread, "c1-c5").await;
    assert!(
        capture.content().contains("alice played c1-c5xd5"),
        "{}",
        capture.content()
    );
    assert!(
        capture.content().contains("may capture again"),
        "{}",
        capture.content()
    );
    assert_eq!(capture.buttons(), [format!("endturn:{game}")]);
    assert_eq!(
        capture.pings(),
        [ALICE.id.to_string()],
        "the chain is alice's"
    );
    // bob cannot end alice's turn.
    let refused = h.press(BOB, thread, &format!("endturn:{game}")).await;
    assert!(refused.private());
    let ended = h.press(ALICE, thread, &format!("endturn:{game}")).await;
    assert!(
        ended.content().contains("alice ended the turn"),
        "{}",
        ended.content()
    );
    assert_eq!(ended.pings(), [BOB.id.to_string()]);
    assert!(is_png(ended.png()));
    assert_eq!(h.moves_stored(game).await, 2);
    h.shutdown().await;
}

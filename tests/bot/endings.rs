//! Endings: resignation, draws offered and agreed, games called off, and a game won by a move.

use crate::common;
use crate::support::{is_png, Harness, ALICE, BOB};

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_draws_and_a_won_game_are_announced() {
    let h = Harness::start("endings").await;
    // A draw offered by command and accepted by button.
    let (game, thread) = h.game("tablut").await;
    // A stale Accept draw press, with no offer open, is refused and offers nothing.
    let stale = h.press(BOB, thread, &format!("drawyes:{game}")).await;
    assert!(stale.private());
    assert_eq!(
        stale.content(),
        format!("There is no draw offer to answer in game #{game}.")
    );
    assert!(h.service.game(game).await.unwrap().draw_offer.is_none());
    let offer = h.slash(ALICE, thread, "draw", &[]).await;
    assert!(
        offer.content().contains("alice offers a draw"),
        "{}",
        offer.content()
    );
    assert_eq!(offer.pings(), [BOB.id.to_string()]);
    assert_eq!(
        offer.buttons(),
        [format!("drawyes:{game}"), format!("drawno:{game}")]
    );
    let agreed = h.press(BOB, thread, &format!("drawyes:{game}")).await;
    assert!(
        agreed.content().contains("bob accepted the draw"),
        "{}",
        agreed.content()
    );
    assert!(
        agreed.content().contains("a draw: agreed"),
        "{}",
        agreed.content()
    );
    let view = h.service.game(game).await.unwrap();
    assert!(view.outcome.is_some_and(|o| o.winner.is_none()));

    // Called off before the first move.
    let (game, thread) = h.game("tyr-11").await;
    let aborted = h.slash(BOB, thread, "abort", &[]).await;
    assert!(
        aborted.content().starts_with(&format!(
            "bob called the game off. Game #{game} was aborted."
        )),
        "{}",
        aborted.content()
    );
    let too_late = {
        let (game, thread) = h.game("tyr-11").await;
        let (who, mv) = h.a_move(game).await;
        h.play(who, thread, &mv).await;
        h.slash(ALICE, thread, "abort", &[]).await
    };
    assert!(too_late.private());
    assert!(
        too_late.content().contains("has begun: resign instead"),
        "{}",
        too_late.content()
    );

    // Resignation.
    let (game, thread) = h.game("tyr-11").await;
    let resigned = h.slash(BOB, thread, "resign", &[]).await;
    assert!(!resigned.private());
    assert!(
        resigned
            .content()
            .starts_with(&format!("bob resigned. Game #{game} is over: alice")),
        "{}",
        resigned.content()
    );
    assert_eq!(resigned.pings().len(), 2);
    let again = h.play(ALICE, thread, "d1-d3").await;
    assert!(again.private());
    assert!(again.content().contains("is over"), "{}", again.content());

    // The king escapes: the game is won by the move, and announced.
    let (game, thread) = h.game("tyr-11").await;
    h.set_start(game, &common::position_string("tyr-11", "d", "Kc3 th8"))
        .await;
    let escape = h.play(BOB, thread, "c3-a3").await;
    assert!(
        escape.content().contains("bob played c3-a3"),
        "{}",
        escape.content()
    );
    assert!(
        escape.content().contains("is over: bob (defenders) won"),
        "{}",
        escape.content()
    );
    assert!(is_png(escape.png()));
    assert_eq!(escape.pings().len(), 2, "both players hear of the result");
    assert!(h.service.game(game).await.unwrap().outcome.is_some());
    h.shutdown().await;
}

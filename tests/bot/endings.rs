//! Endings: resignation, draws offered, declined and agreed, games called off, and a game won by a
//! move; a draw offer lasts until the opponent moves.

use std::sync::Arc;

use taflbot::rules::{Reason, Side};
use taflbot::service::text::{self, Plain};
use taflbot::service::{Service, ServiceError, TestClock};

use crate::common;
use crate::support::{
    a_turn_each, alice, bob, is_png, service_at, started, Harness, ALICE, BOB, T0,
};

async fn service(url: &str) -> (Service, Arc<TestClock>) {
    service_at(url, T0).await
}

#[tokio::test]
async fn endings_resign_draw_abort() {
    let (svc, _) = service(":memory:").await;
    let g1 = started(&svc).await;
    a_turn_each(&svc, g1).await;
    let view = svc.resign(&bob(), Some(g1), None).await.unwrap().view;
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
    a_turn_each(&svc, g2).await;
    let said = svc.draw(&alice(), Some(g2), None).await.unwrap();
    let agreed = matches!(said.news, taflbot::service::News::DrawAgreed { .. });
    let offered = said.view;
    assert!(!agreed);
    assert_eq!(offered.draw_offer.unwrap().name, "alice");
    let twice = svc.draw(&alice(), Some(g2), None).await.unwrap_err();
    assert_eq!(
        twice.to_string(),
        format!("you have already offered a draw in game #{g2}")
    );
    svc.decline_draw(&bob(), Some(g2), None).await.unwrap();
    svc.draw(&alice(), Some(g2), None).await.unwrap();
    let said = svc.draw(&bob(), Some(g2), None).await.unwrap();
    let agreed = matches!(said.news, taflbot::service::News::DrawAgreed { .. });
    let drawn = said.view;
    assert!(agreed);
    assert_eq!(drawn.outcome.unwrap().reason, Reason::Agreement);

    let g3 = started(&svc).await;
    let aborted = svc.abort(&bob(), Some(g3), None).await.unwrap().view;
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
    let drawn = svc.accept_draw(&bob(), Some(id), None).await.unwrap().view;
    assert!(drawn.outcome.is_some_and(|o| o.winner.is_none()));
}

// ----- on Discord, end to end -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_draws_and_a_won_game_are_announced() {
    let h = Harness::start("endings").await;
    // A draw offered by command and accepted by button, after a turn each.
    let (game, thread) = h.game("tablut").await;
    h.a_turn_each(game, thread).await;
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

    // Resignation, after a turn each.
    let (game, thread) = h.game("tyr-11").await;
    h.a_turn_each(game, thread).await;
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
        escape.content().contains("bob played 1. c3-a3"),
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

/// A draw declined by command: the answer says so, and the offer is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_is_declined_by_command() {
    let h = Harness::start("declined").await;
    let (game, thread) = h.game("tablut").await;
    h.slash(ALICE, thread, "draw", &[]).await;
    let declined = h.slash(BOB, thread, "declinedraw", &[]).await;
    assert_eq!(
        declined.content(),
        format!("bob declined the draw in game #{game}.")
    );
    assert!(declined.pings().is_empty());
    assert!(h.service.game(game).await.unwrap().draw_offer.is_none());
    h.shutdown().await;
}

/// The end of a game leads on: its post carries a Rematch button, which challenges the opponent
/// to the same terms with the sides swapped (a message of its own, the game's end left as it
/// was); asked of a game still going, or by someone not in it, it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_game_offers_a_rematch_with_the_sides_swapped() {
    let h = Harness::start("rematch").await;
    let (game, thread) = h.game("tablut").await;
    let early = h.press(BOB, thread, &format!("rematch:{game}")).await;
    assert!(early.private());
    assert_eq!(
        early.content(),
        format!("Game #{game} is still going: a rematch comes after it ends.")
    );
    h.a_turn_each(game, thread).await;
    let resigned = h.slash(BOB, thread, "resign", &[]).await;
    assert!(
        resigned.buttons().contains(&format!("rematch:{game}")),
        "{:?}",
        resigned.buttons()
    );
    let stranger = h
        .press(crate::support::CAROL, thread, &format!("rematch:{game}"))
        .await;
    assert!(stranger.private(), "{}", stranger.content());
    // bob (the defenders) asks: alice is challenged, bob to attack this time.
    let rematch = h.press(BOB, thread, &format!("rematch:{game}")).await;
    assert!(!rematch.private());
    assert_eq!(rematch.kind(), 4, "a message of its own, not an update");
    assert!(
        rematch.content().contains(
            "challenges you to a rated game of **Tablut (Cartier)** (tablut): bob plays the attackers"
        ),
        "{}",
        rematch.content()
    );
    assert_eq!(rematch.pings(), [ALICE.id.to_string()]);
    let accept = rematch
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .unwrap();
    let started = h.press(ALICE, thread, &accept).await;
    assert!(
        started.content().contains("accepted"),
        "{}",
        started.content()
    );
    let new_game = h.service.game(game + 1).await.unwrap();
    assert_eq!(new_game.players[Side::Attackers].key, BOB.id.to_string());
    assert_eq!(new_game.players[Side::Defenders].key, ALICE.id.to_string());
    assert_eq!(new_game.variant.id, "tablut");
    assert!(new_game.rated);
    h.shutdown().await;
}

/// The end of a game also offers its review: the Review button and `/review` answer with the
/// marked turns, every turn in a file and the chart; asked of a game still going, `/review` is
/// refused privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_game_offers_its_review() {
    let h = Harness::start("review").await;
    let (game, thread) = h.game("brandubh").await;
    let early = h
        .slash(
            ALICE,
            thread,
            "review",
            &[("game", crate::fake_discord::Opt::Int(game))],
        )
        .await;
    assert!(early.private());
    assert!(
        early.content().starts_with(&format!(
            "Game #{game} is still going: a review comes after it ends"
        )),
        "{}",
        early.content()
    );
    h.a_turn_each(game, thread).await;
    let resigned = h.slash(BOB, thread, "resign", &[]).await;
    let buttons = resigned.buttons();
    assert!(buttons.contains(&format!("review:{game}")), "{buttons:?}");
    assert!(buttons.contains(&format!("rematch:{game}")), "{buttons:?}");
    let pressed = h.press(BOB, thread, &format!("review:{game}")).await;
    assert!(!pressed.private());
    assert!(
        pressed
            .content()
            .starts_with(&format!("Review of game #{game} (Brandubh 7x7)")),
        "{}",
        pressed.content()
    );
    let names: Vec<&str> = pressed.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [format!("review-{game}.txt"), format!("review-{game}.png")]
    );
    assert!(is_png(pressed.png()));
    // In the game's thread, /review with no game means that game; now it is read back.
    let asked = h.slash(ALICE, thread, "review", &[]).await;
    assert_eq!(asked.content(), pressed.content());
    h.shutdown().await;
}

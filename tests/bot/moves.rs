//! Moves: a berserk chain until its player ends it, moves at once in one game (one result) and in
//! many (all succeed); on Discord, illegal ones and strangers refused with nothing changed, and a
//! berserk chain ended by its button.

use std::sync::Arc;

use taflbot::service::text::{self, Plain};
use taflbot::service::{Service, ServiceError, TestClock};

use crate::common;
use crate::fake_discord::{s, Opt};
use crate::support::{
    alice, bob, is_png, opponent, person, service_at, started, Harness, ALICE, BOB, CAROL, T0,
};

async fn service(url: &str) -> (Service, Arc<TestClock>) {
    service_at(url, T0).await
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_at_once_give_exactly_one_result() {
    let dir = crate::support::scratch("race");
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_in_different_games_at_once_all_succeed() {
    let dir = crate::support::scratch("parallel");
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
}

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
        capture.content().contains("alice played 1. c1-c5xd5"),
        "{}",
        capture.content()
    );
    assert!(
        capture
            .content()
            .contains("may capture again with the piece on c5, or end the turn with `/endturn`."),
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

/// The same chain ended by command instead of the button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_berserk_chain_ends_by_command() {
    let h = Harness::start("endturn").await;
    let (game, thread) = h.game("tyr-11").await;
    h.set_start(
        game,
        &common::position_string("tyr-11", "a", "tc1 Td5 te5 Tb8 ta8 Kh9"),
    )
    .await;
    h.play(ALICE, thread, "c1-c5").await;
    let ended = h.slash(ALICE, thread, "endturn", &[]).await;
    assert!(
        ended.content().contains("alice ended the turn"),
        "{}",
        ended.content()
    );
    assert_eq!(ended.pings(), [BOB.id.to_string()]);
    assert_eq!(h.moves_stored(game).await, 2);
    h.shutdown().await;
}

//! Takebacks: asked, agreed (by command or button), declined, refused after the end, at once
//! against the bot; the moves table stays the truth.

use std::sync::Arc;

use taflbot::service::{News, Person, Service, ServiceError, SideChoice, Takeback, TestClock, DAY};

use crate::fake_discord::Opt;
use crate::support::{alice, bob, Harness, ALICE, BOB, T0};

async fn service() -> (Service, Arc<TestClock>) {
    crate::support::service_at(":memory:", T0).await
}

/// A rated tyr-11 game, alice attacking, after `moves`.
async fn game_after(svc: &Service, moves: &[&str]) -> i64 {
    let id = crate::support::started(svc).await;
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        svc.play(&who, Some(id), None, m).await.unwrap();
    }
    id
}

async fn stored_moves(svc: &Service, game: i64) -> Vec<String> {
    sqlx::query_scalar("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(game)
        .fetch_all(svc.pool())
        .await
        .unwrap()
}

#[tokio::test]
async fn a_takeback_agreed_undoes_the_turn_and_the_reply_since() {
    let (svc, clock) = service().await;
    let game = game_after(&svc, &["d1-d3", "f8-g8", "h1-h3"]).await;
    let before = svc.game(game).await.unwrap();
    // bob asks to take back f8-g8; alice has replied since, so h1-h3 goes too.
    let Takeback::Asked(taflbot::service::GameNews { view, news }) =
        svc.takeback(&bob(), Some(game), None).await.unwrap()
    else {
        panic!("asked, not taken back")
    };
    assert_eq!(view.takeback, Some(bob()));
    assert_eq!(
        news,
        News::TakebackAsked {
            by: bob(),
            turn: "1... f8-g8".into()
        }
    );
    assert!(matches!(
        svc.takeback(&bob(), Some(game), None).await,
        Err(ServiceError::TakebackAsked(g)) if g == game
    ));
    assert!(matches!(
        svc.accept_takeback(&bob(), Some(game), None).await,
        Err(ServiceError::NoTakeback(_))
    ));
    clock.advance(DAY);
    let played = svc
        .accept_takeback(&alice(), Some(game), None)
        .await
        .unwrap();
    assert_eq!(
        played.news,
        News::TakebackAccepted {
            by: alice(),
            turns: 2,
            turn: "1... f8-g8".into()
        }
    );
    assert_eq!(stored_moves(&svc, game).await, vec!["d1-d3"]);
    let view = played.view;
    assert_eq!(view.turns, 1);
    assert_eq!(view.waiting_for, Some(bob()));
    assert_eq!(view.takeback, None);
    assert_eq!(
        view.deadline,
        T0 + DAY + 3 * DAY,
        "bob has his full time again"
    );
    assert_ne!(view.position, before.position);
    assert!(!played.png.is_empty());
    // The game goes on from there, and a restart replays the shorter game.
    svc.play(&bob(), Some(game), None, "f8-g8").await.unwrap();
    let fresh = Service::new(svc.pool().clone(), clock.clone());
    assert_eq!(fresh.game(game).await.unwrap().turns, 2);
}

#[tokio::test]
async fn a_takeback_declined_or_overtaken_by_a_move_leaves_the_game() {
    let (svc, _) = service().await;
    let game = game_after(&svc, &["d1-d3"]).await;
    svc.takeback(&alice(), Some(game), None).await.unwrap();
    let view = svc
        .decline_takeback(&bob(), Some(game), None)
        .await
        .unwrap()
        .view;
    assert_eq!(view.takeback, None);
    assert_eq!(stored_moves(&svc, game).await, vec!["d1-d3"]);
    assert!(matches!(
        svc.decline_takeback(&bob(), Some(game), None).await,
        Err(ServiceError::NoTakeback(_))
    ));
    // Asked again for the same turn: refused, a turn is asked for once.
    let again = svc.takeback(&alice(), Some(game), None).await.unwrap_err();
    assert!(matches!(again, ServiceError::TakebackDeclined(g) if g == game));
    assert_eq!(
        again.to_string(),
        format!("your takeback in game #{game} was declined: a turn is asked for once")
    );
    assert_eq!(svc.game(game).await.unwrap().takeback, None);
    // A turn later it may be asked for again; bob moves instead of answering: it lapses.
    svc.play(&bob(), Some(game), None, "f8-g8").await.unwrap();
    svc.play(&alice(), Some(game), None, "h1-h3").await.unwrap();
    svc.takeback(&alice(), Some(game), None).await.unwrap();
    let (_, moves) = svc.legal_moves(&bob(), Some(game), None).await.unwrap();
    svc.play(&bob(), Some(game), None, &moves[0]).await.unwrap();
    assert_eq!(svc.game(game).await.unwrap().takeback, None);
    // bob, asked by nobody, asks himself; alice agrees by answering with takeback.
    svc.takeback(&bob(), Some(game), None).await.unwrap();
    let Takeback::TakenBack(played) = svc.takeback(&alice(), Some(game), None).await.unwrap()
    else {
        panic!("alice's takeback agrees to bob's")
    };
    assert_eq!(played.view.turns, 3);
    // Nothing of one's own to take back: refused.
    let fresh = game_after(&svc, &[]).await;
    assert!(matches!(
        svc.takeback(&alice(), Some(fresh), None).await,
        Err(ServiceError::NothingToTakeBack(_))
    ));
    // A stranger is not a player.
    assert!(matches!(
        svc.takeback(&Person::new("u3", "carol"), Some(game), None)
            .await,
        Err(ServiceError::NotAPlayer(_))
    ));
}

#[tokio::test]
async fn never_after_the_end() {
    let (svc, _) = service().await;
    let game = game_after(&svc, &["d1-d3"]).await;
    svc.takeback(&alice(), Some(game), None).await.unwrap();
    svc.resign(&bob(), Some(game), None).await.unwrap();
    assert!(matches!(
        svc.accept_takeback(&bob(), Some(game), None).await,
        Err(ServiceError::GameOver(..))
    ));
    assert!(matches!(
        svc.takeback(&alice(), Some(game), None).await,
        Err(ServiceError::GameOver(..))
    ));
    assert_eq!(stored_moves(&svc, game).await, vec!["d1-d3"]);
}

#[tokio::test]
async fn the_bot_agrees_at_once() {
    let (svc, _) = service().await;
    let bot = Person::new("bot", "taflbot");
    let view = svc
        .play_bot(
            &alice(),
            &bot,
            &taflbot::service::Terms {
                side: SideChoice::Attackers,
                days: None,
                ..taflbot::service::Terms::new("tyr-11".parse().unwrap())
            },
            Some(1),
            None,
        )
        .await
        .unwrap();
    svc.play(&alice(), Some(view.id), None, "d1-d3")
        .await
        .unwrap();
    // Before the bot answers, alice's turn alone is taken back, at once.
    let Takeback::TakenBack(played) = svc.takeback(&alice(), Some(view.id), None).await.unwrap()
    else {
        panic!("the bot agrees at once")
    };
    assert_eq!(
        played.news,
        News::TakebackAccepted {
            by: bot.clone(),
            turns: 1,
            turn: "1. d1-d3".into()
        }
    );
    assert_eq!(played.view.turns, 0);
    assert_eq!(played.view.waiting_for, Some(alice()));
    assert!(stored_moves(&svc, view.id).await.is_empty());
    // After its reply, both turns go, and the sentence says so.
    svc.play(&alice(), Some(view.id), None, "d1-d3")
        .await
        .unwrap();
    svc.bot_turn(view.id)
        .await
        .unwrap()
        .expect("the bot's reply");
    assert_eq!(stored_moves(&svc, view.id).await.len(), 2);
    let Takeback::TakenBack(played) = svc.takeback(&alice(), Some(view.id), None).await.unwrap()
    else {
        panic!("the bot agrees at once")
    };
    assert_eq!(
        played.news,
        News::TakebackAccepted {
            by: bot,
            turns: 2,
            turn: "1. d1-d3".into()
        }
    );
    assert!(stored_moves(&svc, view.id).await.is_empty());
    assert_eq!(played.view.waiting_for, Some(alice()));
    let said =
        taflbot::service::text::news(&played.news, &played.view, &taflbot::service::text::Plain);
    assert!(
        said.starts_with(
            "taflbot agreed: alice's last turn (1. d1-d3) and the reply to it are taken back (two turns)."
        ),
        "{said}"
    );
}

// ----- on Discord, end to end -----

/// Asked by command, agreed by command; asked again after the next move, declined by command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_asked_agreed_and_declined_by_command() {
    let h = Harness::start("takeback").await;
    let (game, thread) = h.game("tyr-11").await;
    h.play(ALICE, thread, "d1-d3").await;
    let asked = h.slash(ALICE, thread, "takeback", &[]).await;
    assert!(
        asked
            .content()
            .contains("alice asks to take back their last turn (`1. d1-d3`)"),
        "{}",
        asked.content()
    );
    assert_eq!(asked.pings(), [BOB.id.to_string()]);
    assert_eq!(
        asked.buttons(),
        [format!("backyes:{game}"), format!("backno:{game}")]
    );
    let agreed = h.slash(BOB, thread, "takeback", &[]).await;
    assert!(
        agreed
            .content()
            .contains("bob agreed: the last turn (`1. d1-d3`) is taken back"),
        "{}",
        agreed.content()
    );
    assert_eq!(h.moves_stored(game).await, 0);
    h.play(ALICE, thread, "d1-d2").await;
    h.slash(ALICE, thread, "takeback", &[]).await;
    let declined = h
        .slash(BOB, thread, "takeback", &[("decline", Opt::Bool(true))])
        .await;
    assert_eq!(
        declined.content(),
        format!("bob declined to take back the last turn in game #{game}.")
    );
    assert_eq!(h.moves_stored(game).await, 1);
    h.shutdown().await;
}

//! Games against taflbot's engine, through the service: started at once, the bot's turns stored
//! with their notices, never twice, found again after a restart; hints where they are allowed.

use std::time::Duration;

use taflbot::rules::Side;
use taflbot::service::text::{self, Plain};
use taflbot::service::{NoticeKind, Person, Service, ServiceError, SideChoice, MAX_BOT_GAMES};

use crate::support::{alice, bob, service_at, until_no_notice_pending, T0};

fn taflbot() -> Person {
    Person::new("u0", "taflbot")
}

async fn service(url: &str) -> Service {
    service_at(url, T0).await.0
}

async fn moves_stored(svc: &Service, game: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = ?")
        .bind(game)
        .fetch_one(svc.pool())
        .await
        .unwrap()
}

/// alice against the bot; `side` is alice's.
async fn versus(svc: &Service, variant: &str, side: SideChoice, level: u8) -> i64 {
    svc.play_bot(
        &alice(),
        &taflbot(),
        variant,
        side,
        None,
        Some(level),
        Some("chan"),
    )
    .await
    .unwrap()
    .id
}

#[tokio::test]
async fn the_bot_answers_a_move_once_and_its_notice_is_kept_until_delivered() {
    let svc = service(":memory:").await;
    let view = svc
        .play_bot(
            &alice(),
            &taflbot(),
            "brandubh",
            SideChoice::Attackers,
            Some(2),
            Some(2),
            Some("chan"),
        )
        .await
        .unwrap();
    let id = view.id;
    assert_eq!(view.bot, Some((Side::Defenders, 2)));
    assert_eq!(
        view.waiting_for,
        Some(alice()),
        "alice attacks, so she begins"
    );
    assert!(svc.bot_games_due().await.unwrap().is_empty());
    assert!(
        svc.bot_turn(id).await.unwrap().is_none(),
        "not the bot's turn"
    );

    svc.play(&alice(), Some(id), None, "d1-c1").await.unwrap();
    assert_eq!(svc.bot_games_due().await.unwrap(), vec![id]);
    let notice = svc.bot_turn(id).await.unwrap().expect("the bot moves");
    assert_eq!(notice.kind, NoticeKind::Moved);
    assert_eq!(moves_stored(&svc, id).await, 2);
    // Its turn is over: asked again, it does nothing.
    assert!(svc.bot_turn(id).await.unwrap().is_none());
    assert_eq!(moves_stored(&svc, id).await, 2);
    let game = svc.game(id).await.unwrap();
    assert_eq!(game.waiting_for, Some(alice()));
    let said = text::post(&notice.news(), &game, &Plain);
    assert!(said.starts_with("taflbot played "), "{said}");
    assert!(said.ends_with("alice, your move."), "{said}");
    // The notice waits for its delivery.
    assert_eq!(svc.pending_notices().await.unwrap().len(), 1);
    svc.delivered(notice.id).await.unwrap();
    assert!(svc.pending_notices().await.unwrap().is_empty());
}

#[tokio::test]
async fn two_searches_at_once_make_one_move() {
    let svc = service(":memory:").await;
    let id = versus(&svc, "tablut", SideChoice::Defenders, 3).await;
    let (a, b) = tokio::join!(svc.bot_turn(id), svc.bot_turn(id));
    let moved = [a, b]
        .into_iter()
        .filter(|r| matches!(r, Ok(Some(_))))
        .count();
    assert_eq!(moved, 1);
    assert_eq!(moves_stored(&svc, id).await, 1);
}

#[tokio::test]
async fn a_restart_finds_the_games_where_the_bot_is_to_move() {
    let dir = std::env::temp_dir().join(format!("taflbot-versus-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = dir.join("games.db").display().to_string();
    let svc = service(&url).await;
    // alice defends, so the bot (attackers) is to move; it never got to think.
    let id = versus(&svc, "sea-battle-9", SideChoice::Defenders, 1).await;
    svc.pool().close().await;

    let svc = service(&url).await;
    assert_eq!(svc.bot_games_due().await.unwrap(), vec![id]);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (sent, mut delivered) = tokio::sync::mpsc::unbounded_channel();
    let player = svc.spawn_bot_player(stopped, move |notice| {
        let sent = sent.clone();
        async move { sent.send(notice).is_ok() }
    });
    let notice = tokio::time::timeout(Duration::from_secs(20), delivered.recv())
        .await
        .expect("the bot moves after the restart")
        .unwrap();
    assert_eq!(notice.game_id, id);
    assert_eq!(moves_stored(&svc, id).await, 1);
    // Delivered, so not offered again; alice's move wakes the bot at once.
    until_no_notice_pending(&svc).await;
    let (_, moves) = svc.legal_moves(&alice(), Some(id), None).await.unwrap();
    svc.play(&alice(), Some(id), None, &moves[0]).await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(20), delivered.recv())
        .await
        .expect("the bot answers the move")
        .unwrap();
    assert_eq!(answer.game_id, id);
    assert_eq!(moves_stored(&svc, id).await, 3);
    stop.send(true).unwrap();
    player.await.unwrap();
    svc.pool().close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_whole_game_against_the_bot_stores_every_turn_it_plays() {
    // TYR's berserk chains make turns of several moves; the game must replay from the database.
    let svc = service(":memory:").await;
    let id = versus(&svc, "tyr-11", SideChoice::Defenders, 1).await;
    for turn in 0..200 {
        let view = svc.game(id).await.unwrap();
        if view.waiting_for.is_none() {
            break;
        }
        if view.to_move == Side::Attackers {
            assert!(svc.bot_turn(id).await.unwrap().is_some(), "turn {turn}");
        } else {
            let (_, moves) = svc.legal_moves(&alice(), Some(id), None).await.unwrap();
            let pick = &moves[(turn * 7) % moves.len()];
            match svc.play(&alice(), Some(id), None, pick).await {
                Ok(_) => {}
                Err(e) => panic!("alice's {pick}: {e}"),
            }
            let view = svc.game(id).await.unwrap();
            if view.open_chain && view.to_move == Side::Defenders {
                svc.end_turn(&alice(), Some(id), None).await.unwrap();
            }
        }
    }
    let view = svc.game(id).await.unwrap();
    assert!(view.outcome.is_some(), "the game ended: {}", view.position);
    // Loaded afresh from its moves (a new service has no cache), it is the same game.
    let record = svc.record(&alice(), Some(id), None).await.unwrap();
    assert!(record.contains("taflbot"), "{record}");
}

#[tokio::test]
async fn hints_in_bot_games_and_finished_games_only() {
    let svc = service(":memory:").await;
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "brandubh",
            SideChoice::Attackers,
            None,
            Some("chan"),
        )
        .await
        .unwrap();
    let human = svc.accept(&bob(), Some(c.id), None).await.unwrap().id;
    match svc.hint(&alice(), Some(human), None).await {
        Err(ServiceError::NoHintHere(g)) => assert_eq!(g, human),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        svc.hint(&bob(), Some(human), None).await,
        Err(ServiceError::NoHintHere(_))
    ));
    // Once it is over, a hint is for the position before its last turn.
    svc.play(&alice(), Some(human), None, "d2-e2")
        .await
        .unwrap();
    svc.resign(&bob(), Some(human), None).await.unwrap();
    let h = svc.hint(&alice(), Some(human), None).await.unwrap();
    assert!(!h.turn.is_empty());
    assert_eq!(
        h.side,
        Side::Defenders,
        "bob resigned with his move to make"
    );
    // In a game against the bot: for the side to move, with the line.
    let bot_game = versus(&svc, "brandubh", SideChoice::Attackers, 1).await;
    let h = svc.hint(&alice(), Some(bot_game), None).await.unwrap();
    assert_eq!(h.side, Side::Attackers);
    assert_eq!(h.line.first(), h.turn.first());
    let said = text::hint(&h, &Plain);
    assert!(said.contains("taflbot would play"), "{said}");
}

#[tokio::test]
async fn the_bots_limits() {
    let svc = service(":memory:").await;
    let wrong = svc
        .play_bot(
            &alice(),
            &taflbot(),
            "brandubh",
            SideChoice::Random,
            None,
            Some(6),
            None,
        )
        .await;
    assert!(matches!(wrong, Err(ServiceError::BadLevel(6))), "{wrong:?}");
    for _ in 0..MAX_BOT_GAMES {
        versus(&svc, "brandubh", SideChoice::Attackers, 1).await;
    }
    let more = svc
        .play_bot(
            &alice(),
            &taflbot(),
            "brandubh",
            SideChoice::Random,
            None,
            None,
            None,
        )
        .await;
    assert!(
        matches!(more, Err(ServiceError::TooManyBotGames(n)) if n == MAX_BOT_GAMES),
        "{more:?}"
    );
    assert_eq!(
        more.unwrap_err().to_string(),
        "you have 3 games against the bot going, the most there may be: finish one first"
    );
}

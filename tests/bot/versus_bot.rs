//! Games against taflbot's engine, through the service: started at once, the bot's turns stored
//! with their notices, never twice, found again after a restart; hints where they are allowed.
//! And on Discord, end to end: challenging taflbot, its moves posted with the board, its turn
//! played after a restart, and hints refused in games between people.

use std::time::Duration;

use taflbot::rules::Side;
use taflbot::service::text::{self, Plain};
use taflbot::service::{
    NoticeKind, Person, Service, ServiceError, SideChoice, Takeback, Terms, HINT_PAUSE,
    MAX_BOT_GAMES,
};

use crate::fake_discord::{s, Opt, GUILD};
use crate::support::{
    alice, bob, carol, is_png, moves_stored, person, png_of, service_at, until_no_notice_pending,
    Harness, ALICE, BOB, CAROL, CHANNEL, T0, TAFLBOT,
};

fn taflbot() -> Person {
    Person::new("u0", "taflbot")
}

async fn service(url: &str) -> Service {
    service_at(url, T0).await.0
}

/// A Brandubh game between people after a turn each: `attacker` moved d2-e2, `defender` c4-c3.
async fn a_turn_each_between(svc: &Service, attacker: &Person, defender: &Person) -> i64 {
    let game = crate::support::brandubh_game(svc, attacker, defender).await;
    svc.play(attacker, Some(game), None, "d2-e2").await.unwrap();
    svc.play(defender, Some(game), None, "c4-c3").await.unwrap();
    game
}

/// alice against the bot; `side` is alice's.
async fn versus(svc: &Service, variant: &str, side: SideChoice, level: u8) -> i64 {
    svc.play_bot(
        &alice(),
        &taflbot(),
        &taflbot::service::Terms {
            side,
            days: None,
            ..taflbot::service::Terms::new(variant.parse().unwrap())
        },
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
            &taflbot::service::Terms {
                side: SideChoice::Attackers,
                days: Some(2),
                ..taflbot::service::Terms::new("brandubh".parse().unwrap())
            },
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
    let notice = svc
        .bot_turn(id)
        .await
        .unwrap()
        .expect("the bot moves")
        .notice;
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
    let dir = crate::support::scratch("versus-service");
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
    let (svc, clock) = service_at(":memory:", T0).await;
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
    // A game given up, not ended on the board: the hint is for where it stopped.
    let said = text::hint(&h, &Plain);
    assert!(
        said.starts_with(&format!("At the end of game #{human} ")),
        "{said}"
    );
    // In a game against the bot: for the side to move, with the line.
    let bot_game = versus(&svc, "brandubh", SideChoice::Attackers, 1).await;
    clock.advance(HINT_PAUSE);
    let h = svc.hint(&alice(), Some(bot_game), None).await.unwrap();
    assert_eq!(h.side, Side::Attackers);
    assert_eq!(h.line.first(), h.turn.first());
    let said = text::hint(&h, &Plain);
    assert!(said.contains("taflbot would play"), "{said}");
}

#[tokio::test]
async fn hints_are_rationed_per_player_and_remembered_per_position() {
    let (svc, clock) = service_at(":memory:", T0).await;
    let game = versus(&svc, "brandubh", SideChoice::Attackers, 1).await;
    let first = svc.hint(&alice(), Some(game), None).await.unwrap();
    // The same position again costs nothing: the same hint at once, with no pause.
    let again = svc.hint(&alice(), Some(game), None).await.unwrap();
    assert_eq!((again.turn, again.line), (first.turn.clone(), first.line));
    // Another position is worked out afresh, after the pause that follows a hint.
    svc.play(&alice(), Some(game), None, &first.turn.join(" "))
        .await
        .unwrap();
    svc.bot_turn(game).await.unwrap().expect("the bot answers");
    clock.advance(5);
    match svc.hint(&alice(), Some(game), None).await {
        Err(ServiceError::HintPause(wait)) => assert_eq!(wait, HINT_PAUSE - 5),
        other => panic!("expected a pause, got {other:?}"),
    }
    let said = ServiceError::HintPause(HINT_PAUSE - 5).to_string();
    assert!(
        said.contains(&format!("one hint or review every {HINT_PAUSE} seconds")),
        "{said}"
    );
    // The pause is alice's own: bob, in a game of his, is not held up.
    let other = a_turn_each_between(&svc, &bob(), &carol()).await;
    svc.resign(&bob(), Some(other), None).await.unwrap();
    assert!(svc.hint(&bob(), Some(other), None).await.is_ok());
    clock.advance(HINT_PAUSE - 5);
    let later = svc.hint(&alice(), Some(game), None).await.unwrap();
    assert_eq!(later.side, Side::Attackers);
}

#[tokio::test]
async fn the_bot_thinks_again_when_the_position_it_searched_is_gone() {
    let svc = service(":memory:").await;
    let game = versus(&svc, "brandubh", SideChoice::Attackers, 1).await;
    svc.play(&alice(), Some(game), None, "d2-e2").await.unwrap();
    let stale = svc
        .bot_think(game)
        .await
        .unwrap()
        .expect("the bot is to move");
    // Meanwhile alice takes her move back and makes another: as many moves, another position.
    match svc.takeback(&alice(), Some(game), None).await.unwrap() {
        Takeback::TakenBack(_) => {}
        other => panic!("the bot agrees at once, not {other:?}"),
    }
    svc.play(&alice(), Some(game), None, "b4-b3").await.unwrap();
    assert!(
        svc.bot_play(stale).await.unwrap().is_none(),
        "a turn chosen for a position taken back is not played"
    );
    assert_eq!(moves_stored(&svc, game).await, 1);
    // Thinking afresh, it plays.
    assert!(svc.bot_turn(game).await.unwrap().is_some());
    assert_eq!(moves_stored(&svc, game).await, 2);
}

#[tokio::test]
async fn no_hint_for_a_continuation_of_a_game_still_being_played() {
    let svc = service(":memory:").await;
    let live = a_turn_each_between(&svc, &alice(), &bob()).await;
    // alice continues the live game against carol, gives it up at once, and asks for a hint.
    let record = svc.record(&alice(), Some(live), None).await.unwrap();
    let terms = Terms {
        side: SideChoice::Attackers,
        from: Some(&record),
        ..Terms::new("brandubh".parse().unwrap())
    };
    let c = svc.offer(&alice(), &carol(), &terms, None).await.unwrap();
    let copy = svc.accept(&carol(), Some(c.id), None).await.unwrap().id;
    svc.resign(&carol(), Some(copy), None).await.unwrap();
    for who in [alice(), carol()] {
        match svc.hint(&who, Some(copy), None).await {
            Err(ServiceError::HintForLiveGame(g, from)) => assert_eq!((g, from), (copy, live)),
            other => panic!("{}: expected a refusal, got {other:?}", who.name),
        }
    }
    let said = ServiceError::HintForLiveGame(copy, live).to_string();
    assert!(
        said.contains(&format!("game #{live}, which is still being played")),
        "{said}"
    );
    // The live game moving on does not open it: its board has stood there.
    svc.play(&alice(), Some(live), None, "b4-b3").await.unwrap();
    assert!(matches!(
        svc.hint(&alice(), Some(copy), None).await,
        Err(ServiceError::HintForLiveGame(..))
    ));
    // Once the live game is over, the continuation may be studied.
    svc.resign(&bob(), Some(live), None).await.unwrap();
    assert!(svc.hint(&alice(), Some(copy), None).await.is_ok());
}

#[tokio::test]
async fn the_bots_limits() {
    let svc = service(":memory:").await;
    let wrong = svc
        .play_bot(
            &alice(),
            &taflbot(),
            &taflbot::service::Terms {
                side: SideChoice::Random,
                days: None,
                ..taflbot::service::Terms::new("brandubh".parse().unwrap())
            },
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
            &taflbot::service::Terms {
                side: SideChoice::Random,
                days: None,
                ..taflbot::service::Terms::new("brandubh".parse().unwrap())
            },
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

// ----- on Discord, end to end -----

/// taflbot itself, as a user option names it.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_taflbot_starts_a_game_it_answers_with_a_picture() {
    let h = Harness::start("versus").await;
    let answer = h.alice_versus_taflbot().await;
    assert!(!answer.private());
    assert!(
        answer
            .content()
            .contains("takes on taflbot: game #1 (Brandubh 7x7) has begun, taflbot at level 1"),
        "{}",
        answer.content()
    );
    let opening = h
        .fake
        .wait_post("the opening board", |p| p.content.starts_with("Game #1:"))
        .await;
    let thread = opening.channel;
    assert_ne!(thread, CHANNEL, "the game has its thread");
    assert!(is_png(png_of(&opening)));
    // alice attacks and moves; taflbot answers in the thread with the board, pinging her.
    let mine = h.play(ALICE, thread, "d2-c2").await;
    assert!(
        mine.content().contains("played 1. d2-c2"),
        "{}",
        mine.content()
    );
    assert!(
        mine.content().contains("taflbot is thinking."),
        "{}",
        mine.content()
    );
    assert!(mine.pings().is_empty(), "the bot is not pinged");
    let reply = h
        .fake
        .wait_post("taflbot's move", |p| {
            p.content.starts_with("taflbot played ")
        })
        .await;
    assert_eq!(reply.channel, thread);
    assert!(is_png(png_of(&reply)));
    assert!(
        reply
            .content
            .ends_with(&format!("<@{}>, your move.", ALICE.id)),
        "{}",
        reply.content
    );
    assert_eq!(reply.pings, [ALICE.id.to_string()]);
    assert_eq!(h.moves_stored(1).await, 2);
    // A hint, privately, in a game against the bot.
    let hint = h.slash(ALICE, thread, "hint", &[]).await;
    assert!(hint.private());
    assert!(
        hint.content().contains("taflbot would play"),
        "{}",
        hint.content()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_bot_plays_where_it_is_to_move() {
    let mut h = Harness::start("versus-restart").await;
    // While no bot is connected, alice starts a game in which taflbot moves first.
    h.bot.take().unwrap().shutdown().await;
    let me = person(TAFLBOT);
    let alice = person(ALICE);
    let view = h
        .service
        .scoped(taflbot::service::Scope::Server(GUILD.to_string()))
        .play_bot(
            &alice,
            &me,
            &taflbot::service::Terms {
                side: taflbot::service::SideChoice::Defenders,
                days: None,
                ..taflbot::service::Terms::new("tablut".parse().unwrap())
            },
            Some(1),
            Some(&CHANNEL.to_string()),
        )
        .await
        .unwrap();
    assert_eq!(h.moves_stored(view.id).await, 0);
    h.connect().await;
    let moved = h
        .fake
        .wait_post("taflbot's first move", |p| {
            p.content.starts_with("taflbot played ")
        })
        .await;
    assert_eq!(moved.channel, CHANNEL);
    assert!(is_png(png_of(&moved)));
    assert_eq!(h.moves_stored(view.id).await, 1);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_hint_in_a_game_between_people_that_goes_on() {
    let h = Harness::start("no-hint").await;
    let (game, thread) = h.game("brandubh").await;
    let refused = h.slash(BOB, thread, "hint", &[]).await;
    assert!(refused.private());
    assert_eq!(
        refused.content(),
        format!(
            "No hints in game #{game}: hints are for games against the bot and for finished games."
        )
    );
    // Nor does a level make a challenge to a person.
    let level = h
        .slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(CAROL)),
                ("variant", s("brandubh")),
                ("level", Opt::Int(2)),
            ],
        )
        .await;
    assert!(level.private());
    assert!(
        level.content().contains("a challenge to a person has none"),
        "{}",
        level.content()
    );
    h.shutdown().await;
}

/// A rematch against taflbot begins at once: the same variant, days and level, alice on the
/// other side.
#[tokio::test]
async fn a_rematch_against_taflbot_begins_at_once_with_the_sides_swapped() {
    let svc = service(":memory:").await;
    let game = versus(&svc, "brandubh", SideChoice::Defenders, 2).await;
    svc.resign(&alice(), Some(game), None).await.unwrap();
    let again = svc
        .rematch(&alice(), &taflbot(), game, Some("chan"))
        .await
        .unwrap();
    let taflbot::service::Rematch::AgainstBot(view) = again else {
        panic!("{again:?}");
    };
    assert_ne!(view.id, game);
    assert_eq!(view.players[taflbot::rules::Side::Attackers], alice());
    assert_eq!(view.bot, Some((taflbot::rules::Side::Defenders, 2)));
    assert_eq!(view.variant.id, "brandubh");
    assert!(view.outcome.is_none());
}

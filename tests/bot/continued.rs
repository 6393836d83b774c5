//! Games continued from elsewhere: `/challenge ... from:` with a move list from aagenielsen.dk
//! (a real Copenhagen game from the corpus) or a game record.

use taflbot::service::{Service, ServiceError, SideChoice, Terms};

use crate::common::long_copenhagen_game;
use crate::support::{alice, bob, carol, review_body, set_review_body, T0};

async fn service() -> Service {
    crate::support::service_at(":memory:", T0).await.0
}

/// The first `plies` moves of the corpus's first game that long, as aagenielsen.dk writes them.
fn corpus_opening(plies: usize) -> String {
    let set = include_str!("../../data/copenhagen.csv");
    let moves = set
        .lines()
        .map(|row| row.split(',').next().unwrap())
        .find(|moves| moves.split_whitespace().count() > plies)
        .unwrap();
    moves
        .split_whitespace()
        .take(plies)
        .collect::<Vec<_>>()
        .join(" ")
}

async fn continued(svc: &Service, variant: &str, from: &str) -> Result<i64, ServiceError> {
    let terms = Terms {
        side: SideChoice::Attackers,
        from: Some(from),
        ..Terms::new(variant.parse().unwrap())
    };
    let c = svc.offer(&alice(), &bob(), &terms, None).await?;
    Ok(svc.accept(&bob(), Some(c.id), None).await?.id)
}

#[tokio::test]
async fn a_corpus_game_goes_on_from_its_twentieth_move() {
    let svc = service().await;
    let opening = corpus_opening(20);
    let terms = Terms {
        side: SideChoice::Attackers,
        from: Some(&opening),
        ..Terms::new("copenhagen".parse().unwrap())
    };
    let c = svc.offer(&alice(), &bob(), &terms, None).await.unwrap();
    assert_eq!(c.continued, Some(20));
    let said = taflbot::service::text::challenge_made(&c, &taflbot::service::text::Plain);
    assert!(
        said.contains("continuing a game after its first 20 moves"),
        "{said}"
    );
    let view = svc.accept(&bob(), Some(c.id), None).await.unwrap();
    // Twenty moves, one a turn: the attackers are to move again, and the game is not rated.
    assert_eq!(view.turns, 20);
    assert_eq!(view.waiting_for, Some(alice()));
    assert!(!view.rated);
    let replayed = taflbot::notation::import_moves(
        taflbot::rules::Variant::by_id("copenhagen").unwrap(),
        &opening,
    )
    .unwrap();
    assert_eq!(
        view.position,
        taflbot::rules::write_position(replayed.position())
    );
    // The record shows the imported moves, and the game goes on after them.
    let exported = svc.export(&alice(), Some(view.id), None, 0).await.unwrap();
    let first = opening.split_whitespace().next().unwrap();
    assert!(
        exported.record.contains(&format!("1. {first}")),
        "{}",
        exported.record
    );
    let legal = svc
        .legal_moves(&alice(), Some(view.id), None)
        .await
        .unwrap()
        .1;
    svc.play(&alice(), Some(view.id), None, &legal[0])
        .await
        .unwrap();
    // A takeback reaches back to the first move made here, never into the record.
    assert!(matches!(
        svc.takeback(&bob(), Some(view.id), None).await,
        Err(ServiceError::NothingToTakeBack(_))
    ));
    svc.takeback(&alice(), Some(view.id), None).await.unwrap();
    let back = svc
        .accept_takeback(&bob(), Some(view.id), None)
        .await
        .unwrap();
    assert_eq!(back.view.turns, 20);
}

#[tokio::test]
async fn a_record_is_continued_and_bad_ones_are_refused_to_the_challenger() {
    let svc = service().await;
    let moves = long_copenhagen_game(9);
    let mut game = taflbot::rules::Game::new(taflbot::rules::Variant::by_id("copenhagen").unwrap());
    for m in &moves {
        let (mv, _) = taflbot::notation::read_move(game.position(), m).unwrap();
        game.play(mv).unwrap();
    }
    let record = taflbot::notation::write_record(&game, &[("Site", "elsewhere")]);
    let id = continued(&svc, "copenhagen", &record).await.unwrap();
    let view = svc.game(id).await.unwrap();
    assert_eq!(view.turns, 9);
    assert_eq!(
        view.waiting_for,
        Some(bob()),
        "after nine moves the defenders move"
    );

    // Another variant's record.
    assert!(matches!(
        continued(&svc, "fetlar", &record).await,
        Err(ServiceError::ContinuedVariant { .. })
    ));
    // A list that does not replay, refused when the challenge is made.
    assert!(matches!(
        continued(&svc, "copenhagen", "d1-d3 d1-d2").await,
        Err(ServiceError::BadImport(_))
    ));
    // A game that is over.
    let over = format!("{} timeout", corpus_opening(6));
    assert!(matches!(
        continued(&svc, "copenhagen", &over).await,
        Err(ServiceError::ContinuedOver)
    ));
    // Too long.
    let long = "d1-d3 ".repeat(5000);
    assert!(matches!(
        continued(&svc, "copenhagen", &long).await,
        Err(ServiceError::ImportTooLong { .. })
    ));
}

/// A review of a continued game reviews its players' turns only: the record's turns are
/// replayed, not marked nor counted in anyone's accuracy, and the turns keep their numbers.
#[tokio::test]
async fn a_review_of_a_continued_game_leaves_the_record_out() {
    let svc = service().await;
    let id = continued(&svc, "copenhagen", &corpus_opening(20))
        .await
        .unwrap();
    let mut played = Vec::new();
    for who in [alice(), bob()] {
        let (_, moves) = svc.legal_moves(&who, Some(id), None).await.unwrap();
        let mv = moves[moves.len() / 2].clone();
        svc.play(&who, Some(id), None, &mv).await.unwrap();
        played.push(mv);
    }
    svc.resign(&alice(), Some(id), None).await.unwrap();
    let r = svc.review(&alice(), Some(id), None).await.unwrap();
    assert!(r.fresh);
    assert_eq!(r.review.first, 20);
    let turns: Vec<_> = r.review.turns.iter().map(|t| t.played.join(" ")).collect();
    assert_eq!(turns, played);
    let every = taflbot::service::text::review_turn_lines(&r.review, r.game.variant);
    assert!(
        every.starts_with(&format!(
            "Turns 1. to 10... came from the record the game continued from: not reviewed.\n11. attackers {}",
            played[0]
        )),
        "{every}"
    );
    assert!(
        every.contains(&format!("\n11... defenders {}", played[1])),
        "{every}"
    );
    let chart = svc.review_chart(&alice(), &r).await.unwrap().unwrap();
    assert_eq!(&chart[1..4], b"PNG");
    // Read back the same; a review stored before the record was left out is made again.
    let again = svc.review(&bob(), Some(id), None).await.unwrap();
    assert!(!again.fresh);
    assert_eq!(again.review, r.review);
    let body = review_body(&svc, id).await;
    let old = body.replace("\"first\":20,", "");
    assert_ne!(old, body);
    set_review_body(&svc, id, &old).await;
    let remade = svc.review(&carol(), Some(id), None).await.unwrap();
    assert!(remade.fresh);
    assert_eq!(remade.review, r.review);
}

/// A rematch of a continued game is offered on the same terms: from the same record, with the
/// sides swapped.
#[tokio::test]
async fn a_rematch_of_a_continued_game_continues_from_the_same_record() {
    let svc = service().await;
    let id = continued(&svc, "copenhagen", &corpus_opening(20))
        .await
        .unwrap();
    let (_, moves) = svc.legal_moves(&alice(), Some(id), None).await.unwrap();
    svc.play(&alice(), Some(id), None, &moves[0]).await.unwrap();
    svc.resign(&bob(), Some(id), None).await.unwrap();
    let taflbot = taflbot::service::Person::new("u0", "taflbot");
    let again = svc.rematch(&alice(), &taflbot, id, None).await.unwrap();
    let taflbot::service::Rematch::Offered(c) = again else {
        panic!("{again:?}");
    };
    assert_eq!(c.continued, Some(20));
    let view = svc.accept(&bob(), Some(c.id), None).await.unwrap();
    assert_eq!(view.turns, 20);
    let original = taflbot::notation::import_moves(
        taflbot::rules::Variant::by_id("copenhagen").unwrap(),
        &corpus_opening(20),
    )
    .unwrap();
    assert_eq!(
        view.position,
        taflbot::rules::write_position(original.position())
    );
    // The sides swapped: bob plays the attackers now, and they are to move.
    assert_eq!(view.players[taflbot::rules::Side::Attackers], bob());
    assert_eq!(view.waiting_for, Some(bob()));
}

/// A TYR game of `turns` whole turns, drawn from `seed`, in which at least `ended` berserk
/// chains were ended by choice while they could have gone on (each stored as an `end` step).
fn berserk_record(turns: usize, ended: usize, seed: u64) -> Option<taflbot::rules::Game> {
    use taflbot::rules::{random::Rng, Game, Variant};
    let mut game = Game::new(Variant::by_id("tyr-11").unwrap());
    let mut rng = Rng::new(seed);
    let mut chose_to_end = 0;
    while game.turns().len() < turns || game.turns().last().is_some_and(|t| !t.complete) {
        let side = game.position().turn();
        let legal = game.legal_moves();
        if legal.is_empty() || game.outcome().is_some() {
            return None;
        }
        game.play(legal[rng.below(legal.len())]).ok()?;
        if game.outcome().is_some() {
            return None;
        }
        if game.position().turn() == side {
            game.end_turn().ok()?;
            chose_to_end += 1;
        }
    }
    (chose_to_end >= ended).then_some(game)
}

/// The record's steps count its chains ended by choice: a review of a game continued from a
/// TYR record with such chains reviews exactly the players' own turns, and its rematch begins
/// where the record ended.
#[tokio::test]
async fn a_record_with_chains_ended_by_choice_is_left_out_whole_and_no_further() {
    let svc = service().await;
    let record = (0..500)
        .find_map(|seed| berserk_record(30, 2, seed))
        .expect("a TYR game with two chains ended by choice");
    let text = taflbot::notation::write_record(&record, &[]);
    let id = continued(&svc, "tyr-11", &text).await.unwrap();
    let mut played = Vec::new();
    for _ in 0..2 {
        let view = svc.game(id).await.unwrap();
        let who = view.waiting_for.unwrap();
        let (_, moves) = svc.legal_moves(&who, Some(id), None).await.unwrap();
        let mv = moves[0].clone();
        let after = svc.play(&who, Some(id), None, &mv).await.unwrap();
        if after.view.waiting_for.as_ref() == Some(&who) {
            svc.end_turn(&who, Some(id), None).await.unwrap();
        }
        played.push(mv);
    }
    svc.resign(&alice(), Some(id), None).await.unwrap();
    let r = svc.review(&alice(), Some(id), None).await.unwrap();
    assert_eq!(r.review.first, record.turns().len());
    let turns: Vec<_> = r.review.turns.iter().map(|t| t.played[0].clone()).collect();
    assert_eq!(turns, played);
    // The rematch continues from the record, not from the players' turns after it.
    let taflbot = taflbot::service::Person::new("u0", "taflbot");
    let taflbot::service::Rematch::Offered(c) =
        svc.rematch(&bob(), &taflbot, id, None).await.unwrap()
    else {
        panic!("a challenge");
    };
    let again = svc.accept(&alice(), Some(c.id), None).await.unwrap();
    assert_eq!(again.turns, record.turns().len());
    assert_eq!(
        again.position,
        taflbot::rules::write_position(record.position())
    );
}

//! One numbering: every view of one game (the news of each move, its picture's description, the
//! record, the review, a hint) numbers a turn as the record does, `3. d1-d3` then `3... d6-d4`.

use taflbot::engine::{think, Settings};
use taflbot::notation::{canonical, TurnNumber};
use taflbot::render::description_of;
use taflbot::rules::{Game, Variant};
use taflbot::service::text::{self, Plain};
use taflbot::service::News;

use crate::support::{alice, bob, brandubh_game, service_at, T0};

/// Seven Brandubh turns as the engine plays them at level 1, ending before the game does.
fn seven_turns() -> Vec<String> {
    let mut game = Game::new(Variant::by_id("brandubh").unwrap());
    let mut moves = Vec::new();
    for seed in 0..7 {
        let thought = think(&game, &Settings::level(1, seed)).unwrap();
        let m = thought.moves()[0];
        moves.push(canonical(game.position(), m));
        game.play(m).unwrap();
        assert!(game.outcome().is_none(), "{moves:?}");
    }
    moves
}

#[tokio::test]
async fn every_view_of_a_game_numbers_its_turns_as_the_record_does() {
    let (svc, _) = service_at(":memory:", T0).await;
    let id = brandubh_game(&svc, &alice(), &bob()).await;
    let moves = seven_turns();
    let mut numbered = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        let played = svc.play(&who, Some(id), None, mv).await.unwrap();
        let expected = format!("{} {mv}", TurnNumber::of(i));
        // The news line.
        match &played.news {
            News::Moved { text, .. } => assert_eq!(text, &expected),
            other => panic!("{other:?}"),
        }
        let said = text::news(&played.news, &played.view, &Plain);
        assert!(said.contains(&format!("played {expected}.")), "{said}");
        // The picture's description (its header is drawn from the same words).
        let described = description_of(&played.png).unwrap();
        assert!(
            described.starts_with(&format!("Brandubh 7x7 board after {expected}")),
            "{described}"
        );
        numbered.push(expected);
    }
    assert_eq!(numbered[0].split(' ').next(), Some("1."));
    assert_eq!(numbered[1].split(' ').next(), Some("1..."));
    assert_eq!(numbered[6].split(' ').next(), Some("4."));

    // The record: one line a turn, `1. d1-d3` then `1... d6-d4`.
    let record = svc.record(&alice(), Some(id), None).await.unwrap();
    let lines: Vec<&str> = record
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(lines, numbered, "{record}");

    // A hint for the game as it ended: the turn the defenders would have played next.
    svc.resign(&bob(), Some(id), None).await.unwrap();
    let hint = svc.hint(&alice(), Some(id), None).await.unwrap();
    assert_eq!(hint.number, TurnNumber::of(moves.len()));
    let said = text::hint(&hint, &Plain);
    assert!(said.contains("would play 4... "), "{said}");

    // The review: each turn's line starts with the same number and moves.
    let review = svc.review(&bob(), Some(id), None).await.unwrap();
    let lines = text::review_turn_lines(&review.review, review.game.variant);
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), numbered.len(), "{lines:?}");
    for (line, expected) in lines.iter().zip(&numbered) {
        let (number, mv) = expected.split_once(' ').unwrap();
        assert!(
            line.starts_with(&format!("{number} ")),
            "{line} / {expected}"
        );
        assert!(line.contains(&format!(" {mv}")), "{line} / {expected}");
    }
}

//! Reviews a player believes: one chance per position, and positions whose result is known read
//! as known, in the variants whose curves were fitted on their own games.

use taflbot::engine::review::{chance, review, Curve, BUDGET};
use taflbot::engine::{take, think, Settings};
use taflbot::notation::recorded_game;
use taflbot::rules::{parse_position, Game, Side, Variant};

fn position(id: &str, text: &str) -> Game {
    let v = Variant::by_id(id).unwrap();
    Game::from_position(parse_position(v, text).unwrap())
}

/// A lone king against the eight attackers of a full Brandubh siege is lost, and reads so: the
/// taught row scores it at about two men down, and Brandubh's curve, fitted on its recorded
/// games, reads that as lost for the defenders whoever is to move.
#[test]
fn a_lone_king_against_a_full_siege_reads_as_lost() {
    let v = Variant::by_id("brandubh").unwrap();
    for text in [
        "3t3/3t3/7/tt1K1tt/7/3t3/3t3 d",
        "3t3/3t3/7/tt1K1tt/7/3t3/3t3 a",
    ] {
        let game = position("brandubh", text);
        let mover = game.position().turn();
        let c = chance(&game, &Curve::of(v), BUDGET);
        let defenders = if mover == Side::Defenders { c } else { 1.0 - c };
        assert!(
            defenders < 0.25,
            "{text}: the defenders' chance is {defenders:.2}"
        );
    }
}

/// A king one move from a free corner has won; so has a side whose game is over.
#[test]
fn a_king_one_move_from_a_free_corner_reads_as_won() {
    let v = Variant::by_id("copenhagen").unwrap();
    let game = position("copenhagen", "11/11/11/5t5/11/3t3t3/11/11/11/11/4K6 d");
    assert!(chance(&game, &Curve::of(v), BUDGET) > 0.99);
    // Save the Standard won on the board: the winner's chance is certain, however it stands.
    let standard = Variant::by_id("standard-7").unwrap();
    let mut game = Game::new(standard);
    let mut rng = taflbot::rules::random::Rng::new(11);
    while game.outcome().is_none() {
        taflbot::rules::random::play_random(&mut game, &mut rng, 1);
    }
    let r = review(&game, game.turns().len() - 1, &Curve::of(standard), 2_000);
    let last = r.turns.last().unwrap();
    let won = game.outcome().unwrap().winner == Some(last.side);
    assert_eq!(last.after, if won { 1.0 } else { 0.0 });
}

/// Each position of a recorded game has one chance: the chance after a turn is the chance
/// before the next (for the other side), and a mark is the drop between them.
#[test]
fn a_reviewed_position_has_one_chance() {
    let v = Variant::by_id("copenhagen").unwrap();
    let line = include_str!("../../data/copenhagen.csv")
        .lines()
        .nth(7)
        .unwrap();
    let (full, _) = recorded_game(v, line).unwrap();
    let game = full.after_turns(24.min(full.turns().len()));
    let r = review(&game, 0, &Curve::of(v), 20_000);
    assert_eq!(r.turns.len(), game.turns().len());
    for pair in r.turns.windows(2) {
        assert_ne!(pair[0].side, pair[1].side);
        assert_eq!(pair[0].after, 1.0 - pair[1].before);
    }
    let chances = r.defenders_chances();
    for (i, t) in r.turns.iter().enumerate() {
        let defenders_before = match t.side {
            Side::Defenders => t.before,
            Side::Attackers => 1.0 - t.before,
        };
        assert!((chances[i] - defenders_before).abs() < 1e-12);
        if t.mark.is_some() {
            assert!(t.before - t.after >= taflbot::engine::review::THRESHOLDS[0]);
        }
    }
}

/// Level 4 strips level 1's Brandubh defenders: the review sees their game go, and marks the
/// turns that threw their men away.
#[test]
fn a_brandubh_game_thrown_away_is_marked() {
    let v = Variant::by_id("brandubh").unwrap();
    let mut game = Game::new(v);
    let strong = Settings::level(4, 1);
    let weak = Settings::level(1, 1);
    while game.outcome().is_none() && game.turns().len() < 80 {
        let settings = if game.position().turn() == Side::Attackers {
            &strong
        } else {
            &weak
        };
        let t = think(&game, settings).unwrap();
        for step in t.turn {
            take(&mut game, step).unwrap();
        }
    }
    assert_eq!(
        game.outcome().and_then(|o| o.winner),
        Some(Side::Attackers),
        "level 4 beats level 1"
    );
    let r = review(&game, 0, &Curve::of(v), BUDGET);
    let marked = r
        .turns
        .iter()
        .filter(|t| t.side == Side::Defenders && t.mark.is_some())
        .count();
    assert!(marked >= 1, "no turn of the defenders is marked");
    // Before the end the defenders' chance has fallen below a quarter.
    let chances = r.defenders_chances();
    let low = chances[..chances.len() - 1]
        .iter()
        .copied()
        .fold(1.0, f64::min);
    assert!(
        low < 0.25,
        "the defenders' chance never fell below {low:.2}"
    );
}

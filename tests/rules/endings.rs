//! Won endings are converted, in every family: level 3 playing the side far ahead against level 3
//! wins within 40 of its own turns.
//!
//! The lone kings are the two Copenhagen positions where the engine, playing the attackers against
//! another engine, chased a king alone round the middle of the board until a match's move cap;
//! and positions reached in seeded games of level 3 (attackers) against level 1 (defenders), each
//! the first of its game where the king was left with two men or fewer against six attackers or
//! more (Brandubh's first comes from such a game, seed 1, played with the taught row). The
//! defenders far ahead are each variant's start with only three attackers left.

use taflbot::engine::arena::Player;
use taflbot::rules::random::Rng;
use taflbot::rules::{parse_position, write_position, Game, Outcome, Position, Side, Variant};

/// Turns the side far ahead may take to win.
const WITHIN: u32 = 40;

/// Plays `level` for `strong` against level 3 from `position` until the game ends or `strong` has
/// taken [`WITHIN`] turns; the outcome, and the turns `strong` took.
fn play_out(position: &Position, strong: Side, level: u8) -> (Option<Outcome>, u32) {
    let mut game = Game::from_position(position.clone());
    let mut rng = Rng::new(1);
    let mut turns = 0;
    while game.outcome().is_none() && turns < WITHIN {
        let player = if game.position().turn() == strong {
            turns += 1;
            Player::Level(level)
        } else {
            Player::Level(3)
        };
        player.play_turn(&mut game, &mut rng);
    }
    (game.outcome(), turns)
}

fn assert_converted_at(id: &str, text: &str, strong: Side, level: u8) {
    let variant = Variant::by_id(id).unwrap();
    let position = parse_position(variant, text).unwrap();
    let (outcome, turns) = play_out(&position, strong, level);
    assert!(
        outcome.is_some_and(|o| o.winner == Some(strong)),
        "{id} {text}: {strong:?} at level {level} did not win within {WITHIN} turns \
         ({outcome:?} after {turns})"
    );
}

fn assert_converted(id: &str, text: &str, strong: Side) {
    assert_converted_at(id, text, strong, 3);
}

/// The two positions the engine did not convert against another engine, attackers to move.
const FROM_THE_MATCH: [&str; 2] = [
    "2t2t2t2/3t5t1/t1t7t/1t9/3t7/8t1t/6t4/2t1t6/t6K1t1/1t6t2/2t5t2 a",
    "2t5t2/2t5t2/1t7tt/t10/5t5/6K4/t10/4t6/t6t2t/1t7t1/2t5t2 a",
];

#[test]
fn a_lone_king_in_the_middle_of_a_copenhagen_board_is_encircled_or_captured() {
    for text in FROM_THE_MATCH {
        assert_converted("copenhagen", text, Side::Attackers);
    }
}

/// Lone kings from seeded games, by family: Copenhagen and Fetlar, Tablut and Brandubh, Sea
/// Battle, TYR, ODIN.
const LONE_KINGS: [(&str, &str); 16] = [
    ("copenhagen", "1t1ttttt3/5t5/6t4/5t5/t4T4t/t1t2K3tt/t4T4t/9tt/11/8t2/2t2tt1t2 d"),
    ("copenhagen", "4tt1t3/2t2t3t1/tt6t1t/1t3t5/1t9/Kt9/t4t5/11/t1t6tt/7tt2/2t3t4 d"),
    ("fetlar", "1t1t1tt4/2t8/t1t5ttt/8tK1/9tt/7t3/10t/5t4t/t3t4t1/2t5t2/2t5t2 d"),
    ("fetlar", "2t1tttt3/1t1Kt6/t1tt1t1tttt/9t1/11/6t4/11/5t5/tt8t/8t2/2t5t2 d"),
    ("tablut", "3tt4/9/2Tt5/tT2t4/t2K1t2t/4t1t2/2t6/4tt3/3t1t1t1 d"),
    ("tablut-linnaeus", "2Ttt4/4t4/3t5/t3T3t/tt2Kt2t/4t3t/3t1t3/t8/4t4 d"),
    ("brandubh", "3t3/2t1T2/4T2/t3Ktt/2t1t2/7/3t3 d"),
    ("brandubh", "3t3/3t3/2T4/ttTKt1t/7/1t5/3t3 d"),
    ("sea-battle-11", "3ttt5/2t8/11/1tTt1t5/t4T1tt2/2t1tKt1t1t/t4t1t1t1/8t1t/11/11/3t1tt4 d"),
    ("sea-battle-11", "3t1ttt1t1/5t5/4tKT3t/1t1t1t5/10t/t2t1T2t1t/5t5/t3t6/2t7t/4t6/6tt3 d"),
    ("sea-battle-9", "4t4/1t2t2t1/t7t/3t2t2/t1t1t4/1t1K1t3/2t1t4/3t5/4T4 d"),
    ("tyr-11", "t2t3t2t/11/2t4tt2/3tt6/1T3t5/3t2t1t2/t4K2t2/3t1Tt3t/2t8/11/2tt3t2t d"),
    ("tyr-11", "t6t2t/11/2t1t3t2/3t1t1tt1t/1T3T5/t1t2K2t1t/5tt4/3t6t/2t5t2/11/t6t3 d"),
    (
        "tyr-15",
        "t2t1t1t1t1t2t/6t8/11tt2/t1tt4t5t/11t3/14t/3t2t1t1t4/t1t9t2/5t3T5/4t2K4t2/3t2t3T4/t7t2t2t/2t6t5/15/t6t3t2t d",
    ),
    ("odin-11", "t2t3t2t/5cvt3/t1t1vt2t2/3t5Tt/4vt1v3/1c1K5c1/2v1tt1v3/t5t1t1t/1ttt2v3t/11/5cvt3 d"),
    ("odin-11", "t2t3t2t/5c5/2t1vtvtt2/2t7t/5v1tv2/1c2tKT1tc1/2vv1Tv1v2/t3tt2t2/2tt1c4t/4t6/7t2t d"),
];

#[test]
fn a_king_with_two_men_or_fewer_against_many_attackers_is_taken_in_every_family() {
    for (id, text) in LONE_KINGS {
        assert_converted(id, text, Side::Attackers);
    }
}

/// A Brandubh ending once in [`LONE_KINGS`] that needs a deeper attacker: against the taught row's
/// defence at level 3 the king escapes from level 3's attackers, and level 4 takes him (BENCHMARKS,
/// "Brandubh taught"). In Brandubh, whose defenders win most games, a king with two men against
/// six attackers or more is often not lost at all; both of the list's Brandubh positions are
/// converted by level 3 with the classic row and the taught one alike.
const DEEPER: (&str, &str) = ("brandubh", "3t3/1t1t3/1T5/t1TK2t/3t1t1/7/3t3 d");

#[test]
fn a_brandubh_ending_that_needs_a_deeper_search_is_converted_by_level_4() {
    assert_converted_at(DEEPER.0, DEEPER.1, Side::Attackers, 4);
}

/// A variant's start with its attackers cut to the first three listed, defenders to move.
fn three_attackers_left(variant: &'static Variant) -> Position {
    let start = taflbot::rules::parse_setup(&write_position(&Position::start(variant))).unwrap();
    let mut setup = start.clone();
    let mut kept = 0;
    setup.pieces.retain(|(_, piece)| {
        piece.side == Side::Defenders || {
            kept += 1;
            kept <= 3
        }
    });
    setup.turn = Side::Defenders;
    Position::from_setup(variant, &setup).unwrap()
}

#[test]
fn defenders_far_ahead_escape_in_every_family() {
    for id in [
        "tyr-11",
        "odin-11",
        "sea-battle-11",
        "tablut",
        "brandubh",
        "copenhagen",
        "fetlar",
    ] {
        let variant = Variant::by_id(id).unwrap();
        let text = write_position(&three_attackers_left(variant));
        assert_converted(id, &text, Side::Defenders);
    }
}

#[test]
fn an_army_down_to_its_standard_and_two_men_is_beaten() {
    let variant = Variant::by_id("standard-7").unwrap();
    for weak in [Side::Defenders, Side::Attackers] {
        let start =
            taflbot::rules::parse_setup(&write_position(&Position::start(variant))).unwrap();
        let mut setup = start.clone();
        let mut kept = 0;
        setup.pieces.retain(|(_, piece)| {
            piece.side != weak || piece.role == taflbot::rules::Role::Standard || {
                kept += 1;
                kept <= 2
            }
        });
        let position = Position::from_setup(variant, &setup).unwrap();
        let text = write_position(&position);
        assert_converted("standard-7", &text, weak.other());
    }
}

//! Linnaeus' Tablut, one test per rule that sets it apart from Cartier's `tablut`: the board,
//! throne, captures and escape are shared (and tested there); games that cannot be won are drawn.

use crate::common;

use common::{play, pos, refusal, shuffle};
use taflbot::rules::{perft, Game, Outcome, Position, Reason, Side, Variant};

#[test]
fn board_moves_and_captures_are_cartiers() {
    let linnaeus = Variant::by_id("tablut-linnaeus").unwrap();
    let cartier = Variant::by_id("tablut").unwrap();
    assert_eq!(linnaeus.setup, cartier.setup);
    for depth in 1..=3 {
        assert_eq!(
            perft(&Position::start(linnaeus), depth),
            perft(&Position::start(cartier), depth)
        );
    }
    // The throne bars everyone, the king once he has left it too.
    let p = pos("tablut-linnaeus", "d", "Ke6 ta1 Tc5");
    assert_eq!(
        refusal(&p, "e6-e5"),
        "no piece may cross or stop on the throne (e5)"
    );
    assert_eq!(
        refusal(&p, "c5-g5"),
        "no piece may cross or stop on the throne (e5)"
    );
    // A defender beside the king's throne falls when three attackers surround it.
    let q = pos("tablut-linnaeus", "a", "Ke5 td5 tf5 te6 Te4 ta3");
    assert_eq!(play(&q, "a3-e3").1, "a3-e3xe4");
}

#[test]
fn a_side_walled_in_draws_but_a_side_without_pieces_loses() {
    let walled = pos(
        "tablut-linnaeus",
        "a",
        "te7 td6 Te6 tf6 ta5 Td5 Ke5 Tf5 tg5 td4 Te4 tf4 te3",
    );
    let (after, _) = play(&walled, "a5-c5");
    assert_eq!(after.outcome(), Some(Outcome::draw(Reason::NoMoves)));
    // In Cartier's rules the same position loses for the defenders.
    let cartier = pos(
        "tablut",
        "a",
        "te7 td6 Te6 tf6 ta5 Td5 Ke5 Tf5 tg5 td4 Te4 tf4 te3",
    );
    assert_eq!(
        play(&cartier, "a5-c5").0.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::NoMoves))
    );
    // The defenders take the last attacker: the attackers have no piece, and lose.
    let last = pos("tablut-linnaeus", "d", "Kb8 Tb3 tc3 Th3");
    assert_eq!(
        play(&last, "h3-d3").0.outcome(),
        Some(Outcome::win(Side::Defenders, Reason::NoMoves))
    );
}

#[test]
fn a_third_repetition_is_a_draw_not_an_illegal_move() {
    let mut game = Game::from_position(pos("tablut-linnaeus", "a", "ta1 Kc7 Tg3"));
    shuffle(
        &mut game,
        &[
            "a1-a2", "c7-c6", "a2-a1", "c6-c7", "a1-a2", "c7-c6", "a2-a1",
        ],
    );
    assert_eq!(game.outcome(), None);
    shuffle(&mut game, &["c6-c7"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

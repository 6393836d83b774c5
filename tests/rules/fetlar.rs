//! Fetlar Hnefatafl, one test per rule from position strings: Copenhagen's board, throne, corners
//! and king, without shieldwall or exit fort, and repetition a draw.

use crate::common;

use common::{play, pos, refusal, shuffle, sq};
use taflbot::rules::{Game, Outcome, Position, Reason, Side, Variant};

fn won(side: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(side, reason))
}

#[test]
fn the_start_is_copenhagens() {
    let fetlar = Position::start(Variant::by_id("fetlar").unwrap());
    let copenhagen = Position::start(Variant::by_id("copenhagen").unwrap());
    assert_eq!(fetlar.legal_moves(), copenhagen.legal_moves());
    assert_eq!(fetlar.turn(), Side::Attackers);
    assert_eq!(fetlar.royal(Side::Defenders), Some(sq("f6")));
}

#[test]
fn no_shieldwall() {
    // In Copenhagen b5-b1 captures the row c1 d1; in Fetlar it captures nothing.
    let p = pos("fetlar", "a", "Tc1 Td1 tc2 td2 te1 tb5 Kf6");
    assert_eq!(play(&p, "b5-b1").1, "b5-b1");
    let q = pos("copenhagen", "a", "Tc1 Td1 tc2 td2 te1 tb5 Kf6");
    assert_eq!(play(&q, "b5-b1").1, "b5-b1xc1/d1");
}

#[test]
fn no_exit_fort() {
    let fort = pos("fetlar", "d", "Ke1 Td1 Tf1 Td2 Tf2 Te3 Td5 tb10 tk6");
    assert_eq!(play(&fort, "d5-d3").0.outcome(), None);
    let copenhagen = pos("copenhagen", "d", "Ke1 Td1 Tf1 Td2 Tf2 Te3 Td5 tb10 tk6");
    assert_eq!(
        play(&copenhagen, "d5-d3").0.outcome(),
        won(Side::Defenders, Reason::ExitFort)
    );
}

#[test]
fn only_the_king_stops_on_the_throne_and_corners_and_escapes_to_a_corner() {
    let p = pos("fetlar", "d", "Tf8 Ta5 Kb3 ta10");
    assert_eq!(
        refusal(&p, "f8-f6"),
        "only the king may stop on the throne (f6)"
    );
    assert_eq!(
        refusal(&p, "a5-a1"),
        "only the king may stop on the corner (a1)"
    );
    assert_eq!(play(&p, "f8-f4").1, "f8-f4");
    let k = pos("fetlar", "d", "Kf8 ta10 tc4");
    let (edge, _) = play(&k, "f8-f11");
    assert_eq!(edge.outcome(), None, "the edge is no escape");
    let (waited, _) = play(&edge, "a10-a9");
    let (home, _) = play(&waited, "f11-k11");
    assert_eq!(home.outcome(), won(Side::Defenders, Reason::KingEscaped));
}

#[test]
fn hostile_squares_and_an_armed_king() {
    // The empty throne takes defenders and attackers; the king's throne only attackers.
    assert_eq!(
        play(&pos("fetlar", "a", "Tf7 tc8 Kb2"), "c8-f8").1,
        "c8-f8xf7"
    );
    assert_eq!(play(&pos("fetlar", "a", "Tf7 tc8 Kf6"), "c8-f8").1, "c8-f8");
    assert_eq!(
        play(&pos("fetlar", "d", "tf7 Tc8 Kf6 ta10"), "c8-f8").1,
        "c8-f8xf7"
    );
    // A corner takes a man of either side.
    assert_eq!(
        play(&pos("fetlar", "a", "Tb1 tc3 Kf6"), "c3-c1").1,
        "c3-c1xb1"
    );
    // The king captures.
    assert_eq!(
        play(&pos("fetlar", "d", "Kc4 te4 Tf4 ta10"), "c4-d4").1,
        "c4-d4xe4"
    );
}

#[test]
fn the_king_is_captured_on_four_sides_or_three_and_the_throne_never_on_the_edge() {
    let four = pos("fetlar", "a", "Kd4 td5 td3 tc4 te8");
    assert_eq!(
        play(&four, "e8-e4").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    let two = pos("fetlar", "a", "Kd4 tc4 te8 Tb10");
    assert_eq!(play(&two, "e8-e4").0.outcome(), None);
    let throne = pos("fetlar", "a", "Ke6 te7 te5 td9");
    assert_eq!(
        play(&throne, "d9-d6").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    let edge = pos("fetlar", "a", "Ka5 ta6 ta4 tb9 Th8");
    assert_eq!(play(&edge, "b9-b5").0.outcome(), None);
}

#[test]
fn encirclement_wins_and_a_side_without_a_move_loses() {
    // The king on his throne and a man on f7, ringed in: after any attackers' move, no defender
    // can reach the edge.
    let ring = pos("fetlar", "a", "Kf6 Tf7 tf8 te7 tg7 te6 tg6 tf5 tb2");
    assert_eq!(ring.outcome(), None);
    let (after, _) = play(&ring, "b2-b3");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::Encircled));
    // After b4-b2 the man on a2 is walled in by the corner and attackers, and the king on f1 by
    // attackers (on the edge he is not captured): no move, and the defenders lose.
    let stuck = pos("fetlar", "a", "Ta2 Kf1 ta3 te1 tg1 tf2 tb4");
    let (after, written) = play(&stuck, "b4-b2");
    assert_eq!(written, "b4-b2");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::NoMoves));
}

#[test]
fn a_third_repetition_is_a_draw() {
    let mut game = Game::from_position(pos("fetlar", "a", "ta9 Tb2 Kf6 tk5"));
    shuffle(
        &mut game,
        &[
            "a9-a8", "b2-b3", "a8-a9", "b3-b2", "a9-a8", "b2-b3", "a8-a9",
        ],
    );
    assert_eq!(game.outcome(), None);
    shuffle(&mut game, &["b3-b2"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

//! Save the Standard (RULES.md §4): the board, the pieces, the slots, captures and winning.

use crate::common;

use common::{play, pos, refusal, sq};
use taflbot::notation::read_move;
use taflbot::rules::{Game, Outcome, Position, Reason, Side, Slot, Terrain, Variant};

fn won(side: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(side, reason))
}

#[test]
fn the_boards_have_their_river_bridges_hills_and_havens() {
    let seven = Variant::by_id("standard-7").unwrap();
    assert_eq!((seven.files, seven.ranks), (7, 15));
    let thirteen = Variant::by_id("standard-13").unwrap();
    assert_eq!((thirteen.files, thirteen.ranks), (13, 27));
    let expect = |v: &Variant, squares: &str, t: Terrain| {
        for name in squares.split_whitespace() {
            assert_eq!(v.terrain(sq(name)), t, "{} {name}", v.id);
        }
        let n = v.squares().filter(|s| v.terrain(*s) == t).count();
        assert_eq!(n, squares.split_whitespace().count(), "{} {t:?}", v.id);
    };
    expect(seven, "b8 d8 f8", Terrain::Bridge);
    expect(seven, "a8 c8 e8 g8", Terrain::Water);
    expect(seven, "d4 d12", Terrain::Hill);
    expect(seven, "a1 g1 a7 g7 a9 g9 a15 g15", Terrain::Haven);
    expect(thirteen, "d14 g14 j14", Terrain::Bridge);
    expect(thirteen, "g7 g21", Terrain::Hill);
    expect(thirteen, "a1 m1 a13 m13 a15 m15 a27 m27", Terrain::Haven);
    assert_eq!(seven.field_owner(sq("a1")), Some(Side::GOLD));
    assert_eq!(seven.field_owner(sq("a9")), Some(Side::RED));
    assert_eq!(seven.field_owner(sq("b8")), None);
}

#[test]
fn gold_opens_with_one_attacking_move_then_turns_are_two_moves() {
    let start = Position::start(Variant::by_id("standard-7").unwrap());
    assert_eq!(
        (start.turn(), start.slot()),
        (Side::GOLD, Some(Slot::Attacking))
    );
    assert_eq!(
        refusal(&start, "d6-e6"),
        "this slot needs a piece in the enemy field"
    );
    let (p, _) = play(&start, "a11-b11");
    assert_eq!((p.turn(), p.slot()), (Side::RED, Some(Slot::Defending)));
    assert_eq!(
        refusal(&p, "a5-b5"),
        "this slot needs a piece in your own field"
    );
    let (p, _) = play(&p, "d14-e14");
    assert_eq!((p.turn(), p.slot()), (Side::RED, Some(Slot::Attacking)));
    let (p, _) = play(&p, "a5-b5");
    assert_eq!((p.turn(), p.slot()), (Side::GOLD, Some(Slot::Defending)));
    assert!(taflbot::rules::write_position(&p).ends_with(" g slot:defending"));
}

#[test]
fn a_piece_on_a_bridge_moves_in_either_slot() {
    let defending = pos("standard-7", "g slot:defending", "Sd2 Ib8 sd12 ie12");
    assert_eq!(play(&defending, "b8-b10").1, "b8-b10");
    let attacking = pos("standard-7", "g slot:attacking", "Sd2 Ib8 Ia11 sd12 ie12");
    assert_eq!(play(&attacking, "b8-b6").1, "b8-b6");
}

#[test]
fn a_slot_without_a_legal_move_is_skipped() {
    let p = pos("standard-7", "r slot:defending", "Sd2 Ib6 sd12 ib10");
    let (p, _) = play(&p, "b10-c10");
    assert_eq!(
        (p.turn(), p.slot()),
        (Side::GOLD, Some(Slot::Defending)),
        "Red has nothing to attack with"
    );
    let (p, _) = play(&p, "b6-c6");
    assert_eq!((p.turn(), p.slot()), (Side::RED, Some(Slot::Defending)));
}

#[test]
fn a_side_with_no_move_in_either_slot_loses() {
    let p = pos("standard-7", "g slot:attacking", "Sd2 Ic15 Ie15 Id13 sd15");
    let (after, _) = play(&p, "d13-d14");
    assert_eq!(after.outcome(), won(Side::GOLD, Reason::NoMoves));
}

#[test]
fn cavalry_may_end_with_a_step_at_right_angles() {
    let p = pos("standard-7", "r slot:attacking", "Sd2 hc3 sd12");
    assert_eq!(play(&p, "c3-c6-d6").1, "c3-c6-d6");
    assert_eq!(
        play(&p, "c3-d6").1,
        "c3-c6-d6",
        "the corner may be left out"
    );
    assert_eq!(play(&p, "c3 c6 d6").1, "c3-c6-d6");
    assert_eq!(
        play(&p, "c3-d4").1,
        "c3-c4-d4",
        "a diagonal step, onto the Hill"
    );
    assert_eq!(
        play(&p, "c3-d3-d4").1,
        "c3-c4-d4",
        "the other way round is the same move"
    );
    assert_eq!(play(&p, "c3-c6").1, "c3-c6");
    let moves = p.legal_moves();
    let diagonal = moves.iter().filter(|m| m.to == sq("d4")).count();
    assert_eq!(diagonal, 1, "one move per destination");
    assert!(refusal(&p, "c3-e5").starts_with("Cavalry turns with one step"));
}

#[test]
fn only_cavalry_turns_corners() {
    let p = pos("standard-7", "g slot:defending", "Sd2 Ic3 sd12");
    assert_eq!(
        refusal(&p, "c3-c6-d6"),
        "only Cavalry may turn a corner, and the piece on c3 is Infantry"
    );
    assert_eq!(
        refusal(&p, "c3-d6"),
        "pieces move in a straight line along a rank or a file"
    );
}

#[test]
fn cavalry_and_standards_stay_in_their_field() {
    let p = pos("standard-7", "r slot:attacking", "Sd2 hd7 hb6 sd12");
    assert_eq!(refusal(&p, "d7-d9"), "Cavalry cannot cross the river");
    assert_eq!(refusal(&p, "b6-b8"), "Cavalry cannot cross the river");
}

#[test]
fn cavalry_cannot_step_into_the_river() {
    let p = pos("standard-7", "r slot:attacking", "Sd2 hc7 sd12");
    assert_eq!(
        refusal(&p, "c7-e7-e8"),
        "e8 is water: no piece may enter the river"
    );
}

#[test]
fn the_standard_stays_home() {
    let p = pos("standard-7", "g slot:defending", "Sd7 sd12");
    assert_eq!(refusal(&p, "d7-d9"), "Standard cannot cross the river");
}

#[test]
fn water_is_never_entered() {
    let p = pos("standard-7", "g slot:defending", "Sd2 Ic7 sd12");
    assert_eq!(
        refusal(&p, "c7-c8"),
        "c8 is water: no piece may enter the river"
    );
    assert_eq!(
        refusal(&p, "c7-c10"),
        "c8 is water: no piece may enter the river"
    );
}

#[test]
fn infantry_crosses_by_bridges_and_passes_hills_and_havens_without_stopping() {
    let p = pos("standard-7", "g slot:defending", "Sd1 Id2 Ib7 Ia2 sd12");
    assert_eq!(play(&p, "b7-b8").1, "b7-b8");
    assert_eq!(play(&p, "b7-b11").1, "b7-b11");
    assert_eq!(play(&p, "d2-d6").1, "d2-d6", "over the Hill on d4");
    assert_eq!(refusal(&p, "d2-d4"), "Infantry may not stop on a Hill");
    assert_eq!(refusal(&p, "a2-a1"), "Infantry may not stop on a Haven");
}

#[test]
fn empty_hills_and_havens_count_as_the_capturers() {
    let p = pos("standard-7", "r slot:attacking", "Sd3 Ib1 ic5 sd12");
    assert_eq!(play(&p, "c5-c1").1, "c5-c1xb1");
    let held = pos("standard-7", "r slot:attacking", "Sd3 Ib1 Ha1 ic5 sd12");
    assert_eq!(
        play(&held, "c5-c1").1,
        "c5-c1",
        "a Haven held by Gold does not help Red"
    );
}

#[test]
fn infantry_and_cavalry_fall_to_sandwiches() {
    let q = pos("standard-7", "r slot:attacking", "Sd2 Ie5 if5 id7 sd12");
    assert_eq!(play(&q, "d7-d5").1, "d7-d5xe5");
    let cavalry = pos("standard-7", "r slot:attacking", "Sd2 He5 if5 id7 sd12");
    assert_eq!(play(&cavalry, "d7-d5").1, "d7-d5xe5");
    let by_hill = pos("standard-7", "r slot:attacking", "Sd1 Ie4 if7 sd12");
    assert_eq!(
        play(&by_hill, "f7-f4").1,
        "f7-f4xe4",
        "the empty Hill on d4 closes the sandwich"
    );
}

#[test]
fn a_standard_takes_cavalry_on_a_hill_or_haven_by_moving_onto_it() {
    let hill = pos("standard-7", "g slot:defending", "Sd2 hd4 sd12");
    let (after, written) = play(&hill, "d2-d4");
    assert_eq!(written, "d2-d4xd4");
    assert_eq!(after.piece_at(sq("d4")).unwrap().side, Side::GOLD);
    let plain = pos("standard-7", "g slot:defending", "Sd1 hd3 sd12");
    assert_eq!(refusal(&plain, "d1-d3"), "d3 is occupied");
}

#[test]
fn a_standard_falls_only_to_four_enemies() {
    let four = pos(
        "standard-7",
        "g slot:attacking",
        "Sd2 Ib11 Id11 Ic12 Ia10 sc11",
    );
    let (after, written) = play(&four, "a10-c10");
    assert_eq!(written, "a10-c10xc11");
    assert_eq!(after.outcome(), won(Side::GOLD, Reason::StandardCaptured));
    let hill = pos(
        "standard-7",
        "g slot:attacking",
        "Sd2 Ic11 Ie11 Ia10 sd11 ia13",
    );
    let (after, written) = play(&hill, "a10-d10");
    assert_eq!(written, "a10-d10", "an empty Hill is not an enemy piece");
    assert_eq!(after.outcome(), None);
}

#[test]
fn a_standard_on_its_own_haven_wins_at_once() {
    let p = pos("standard-7", "g slot:defending", "Sb1 Ia11 sd12");
    let (after, _) = play(&p, "b1-a1");
    assert_eq!(after.outcome(), won(Side::GOLD, Reason::StandardSaved));
    assert_eq!(
        after.slot(),
        Some(Slot::Defending),
        "the attacking slot is not played"
    );
}

#[test]
fn a_third_repetition_is_a_draw() {
    let mut game = Game::from_position(pos("standard-7", "g slot:defending", "Sd2 Ib6 sd12 ib10"));
    for text in [
        "b6-c6", "b10-c10", "c6-b6", "c10-b10", "b6-c6", "b10-c10", "c6-b6",
    ] {
        let (m, _) = read_move(game.position(), text).unwrap();
        game.play(m).unwrap();
        assert_eq!(game.outcome(), None, "{text}");
    }
    let (m, _) = read_move(game.position(), "c10-b10").unwrap();
    game.play(m).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn the_big_board_plays_too() {
    let start = Position::start(Variant::by_id("standard-13").unwrap());
    assert_eq!(
        refusal(&start, "g10-h10"),
        "this slot needs a piece in the enemy field"
    );
    let (p, written) = play(&start, "g25-f25-f24");
    assert_eq!(written, "g25-f25-f24");
    assert_eq!((p.turn(), p.slot()), (Side::RED, Some(Slot::Defending)));
}

#[test]
fn positions_in_the_middle_of_a_turn_count_for_repetition() {
    // The position with Gold's attacking slot due comes round a third time: a draw, although no
    // position at the start of a turn repeated three times.
    let mut game = Game::from_position(pos("standard-7", "g slot:defending", "Sd4 Ia13 sd12"));
    let turns = [
        "d4-d3 a13-a14",
        "d12-d13",
        "d3-d2 a14-a13",
        "d13-d12",
        "d2-d3 a13-a14",
        "d12-d13",
        "d3-c3 a14-a13",
        "d13-d12",
    ];
    for turn in turns {
        taflbot::notation::play_turn(&mut game, turn, taflbot::notation::TurnEnd::Whole).unwrap();
        assert_eq!(game.outcome(), None, "{turn}");
    }
    taflbot::notation::play_turn(&mut game, "c3-d3", taflbot::notation::TurnEnd::MayStayOpen)
        .unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

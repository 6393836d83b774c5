//! One test per rule of RULES.md §0–§3: a position, a move, the captures and the outcome.

use crate::common;

use common::{play, pos, refusal, shuffle, sq};
use taflbot::notation::read_move;
use taflbot::rules::{Game, Outcome, Reason, Role, Side, Variant};

fn won(side: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(side, reason))
}

// ----- custodian capture -----

#[test]
fn a_sandwich_captures() {
    let p = pos("tyr-11", "a", "td5 Te5 tf8 Kh3");
    let (after, written) = play(&p, "f8-f5");
    assert_eq!(written, "f8-f5xe5");
    assert_eq!(after.piece_at(sq("e5")), None);
    assert_eq!(after.turn(), Side::Defenders);
}

#[test]
fn one_move_captures_three() {
    let p = pos("tyr-11", "a", "te1 Td5 tc5 Tf5 tg5 Te6 te7 Kj3");
    let (_, written) = play(&p, "e1-e5");
    assert_eq!(written, "e1-e5xd5/e6/f5");
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let p = pos("tyr-11", "d", "td5 tf5 Te8 Kh3 ta1");
    let (after, written) = play(&p, "e8-e5");
    assert_eq!(written, "e8-e5");
    assert_eq!(after.piece_at(sq("e5")).unwrap().side, Side::Defenders);
}

#[test]
fn the_edge_is_never_hostile() {
    let p = pos("tyr-11", "a", "Ta5 tb8 Kh3");
    let (after, written) = play(&p, "b8-b5");
    assert_eq!(written, "b8-b5");
    assert!(after.piece_at(sq("a5")).is_some());
}

#[test]
fn only_the_moving_piece_captures() {
    // e5 already stands between two attackers; a move elsewhere does not take it.
    let p = pos("tyr-11", "a", "td5 Te5 tf5 tb9 Kh3");
    let (after, written) = play(&p, "b9-b8");
    assert_eq!(written, "b9-b8");
    assert!(after.piece_at(sq("e5")).is_some());
}

// ----- kings -----

#[test]
fn an_armed_king_captures_as_mover() {
    let p = pos("tyr-11", "d", "tf3 Tf2 Kc4 ta9");
    let (_, written) = play(&p, "c4-f4");
    assert_eq!(written, "c4-f4xf3");
}

#[test]
fn an_armed_king_is_the_far_piece_of_a_sandwich() {
    let p = pos("tyr-11", "d", "tf3 Kf2 Tc4 ta9");
    let (_, written) = play(&p, "c4-f4");
    assert_eq!(written, "c4-f4xf3");
}

#[test]
fn a_weak_king_falls_to_two_attackers() {
    let p = pos("tyr-11", "a", "Kf5 te5 tg8");
    let (after, written) = play(&p, "g8-g5");
    assert_eq!(written, "g8-g5xf5");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::KingCaptured));
}

#[test]
fn the_cargo_ship_never_captures() {
    let p = pos("sea-battle-11", "d", "Tf3 tf4 Kc5 ta9");
    let (_, written) = play(&p, "c5-f5");
    assert_eq!(written, "c5-f5");
}

#[test]
fn the_cargo_ship_is_never_the_far_piece() {
    let p = pos("sea-battle-11", "d", "Kf5 tf4 Tc3 ta9");
    let (after, written) = play(&p, "c3-f3");
    assert_eq!(written, "c3-f3");
    assert!(after.piece_at(sq("f4")).is_some());
}

#[test]
fn the_cargo_ship_is_captured_on_four_sides_only() {
    let two = pos("sea-battle-11", "a", "Kf5 te5 tg8 ta9");
    let (after, written) = play(&two, "g8-g5");
    assert_eq!(written, "g8-g5");
    assert_eq!(after.outcome(), None);

    let four = pos("sea-battle-11", "a", "Kf5 te5 tg5 tf6 ti4");
    let (after, written) = play(&four, "i4-f4");
    assert_eq!(written, "i4-f4xf5");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::KingCaptured));
}

#[test]
fn sea_battle_men_are_captured_by_two() {
    let p = pos("sea-battle-9", "a", "td5 Te5 tf8 Kh3");
    let (_, written) = play(&p, "f8-f5");
    assert_eq!(written, "f8-f5xe5");
}

// ----- Cartier's throne -----

#[test]
fn no_piece_crosses_or_stops_on_the_throne() {
    let p = pos("tablut", "a", "te2 Kc7");
    assert_eq!(
        refusal(&p, "e2-e7"),
        "no piece may cross or stop on the throne (e5)"
    );
    assert_eq!(
        refusal(&p, "e2-e5"),
        "no piece may cross or stop on the throne (e5)"
    );
    assert!(p.legal_moves().iter().all(|m| m.to != sq("e5")));
}

#[test]
fn the_king_may_not_return_to_the_throne() {
    let p = pos("tablut", "d", "Ke6 ta1");
    assert_eq!(
        refusal(&p, "e6-e5"),
        "no piece may cross or stop on the throne (e5)"
    );
    assert_eq!(
        refusal(&p, "e6-e3"),
        "no piece may cross or stop on the throne (e5)"
    );
}

#[test]
fn the_king_starts_on_the_throne_and_leaves_it() {
    let p = pos("tablut", "d", "Ke5 ta1");
    let (after, written) = play(&p, "e5-e7");
    assert_eq!(written, "e5-e7");
    assert_eq!(after.piece_at(sq("e7")).unwrap().role, Role::King);
}

#[test]
fn the_empty_throne_is_hostile_to_both_sides() {
    let defender = pos("tablut", "a", "Te4 ta3 Kg7");
    assert_eq!(play(&defender, "a3-e3").1, "a3-e3xe4");
    let attacker = pos("tablut", "d", "td5 Tc8 Kg7");
    assert_eq!(play(&attacker, "c8-c5").1, "c8-c5xd5");
}

#[test]
fn a_defender_beside_the_occupied_throne_falls_when_three_attackers_surround_it() {
    let three = pos("tablut", "a", "Ke5 td5 tf5 te6 Te4 ta3");
    assert_eq!(play(&three, "a3-e3").1, "a3-e3xe4");
    let two = pos("tablut", "a", "Ke5 td5 tf5 Te4 ta3");
    assert_eq!(play(&two, "a3-e3").1, "a3-e3");
}

#[test]
fn the_king_on_the_throne_needs_four_attackers() {
    let p = pos("tablut", "a", "Ke5 td5 tf5 te6 ta4");
    let (after, written) = play(&p, "a4-e4");
    assert_eq!(written, "a4-e4xe5");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::KingCaptured));
    let three = pos("tablut", "a", "Ke5 td5 tf5 ta4 Tb8");
    assert_eq!(play(&three, "a4-e4").1, "a4-e4");
}

#[test]
fn the_king_beside_the_throne_needs_three_attackers() {
    let p = pos("tablut", "a", "Ke6 td6 tf6 ta7");
    assert_eq!(play(&p, "a7-e7").1, "a7-e7xe6");
    let two = pos("tablut", "a", "Ke6 td6 ta7 Tb2");
    assert_eq!(play(&two, "a7-e7").1, "a7-e7");
    let sideways = pos("tablut", "a", "Ke6 te7 tf8 Tb2");
    assert_eq!(play(&sideways, "f8-f6").1, "f8-f6");
}

#[test]
fn the_king_elsewhere_falls_to_two() {
    let p = pos("tablut", "a", "Kc3 tb3 td8");
    let (after, written) = play(&p, "d8-d3");
    assert_eq!(written, "d8-d3xc3");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::KingCaptured));
}

#[test]
fn the_tablut_king_is_armed() {
    let p = pos("tablut", "d", "Kc7 tc4 Tc3 ta9");
    // The king comes down beside c4 from c7; c4 lies between him and the defender on c3.
    assert_eq!(play(&p, "c7-c5").1, "c7-c5xc4");
}

// ----- winning -----

#[test]
fn the_king_escapes_on_any_edge() {
    for variant in ["tyr-11", "sea-battle-9", "tablut"] {
        let p = pos(variant, "d", "Kc3 th8");
        let (after, written) = play(&p, "c3-a3");
        assert_eq!(written, "c3-a3");
        assert_eq!(
            after.outcome(),
            won(Side::Defenders, Reason::KingEscaped),
            "{variant}"
        );
    }
}

#[test]
fn encirclement_wins_for_the_attackers() {
    let p = pos("sea-battle-9", "a", "Ke5 Te6 td5 tf5 td6 tf6 te7 ta4");
    let (after, written) = play(&p, "a4-e4");
    assert_eq!(written, "a4-e4");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::Encircled));
}

#[test]
fn a_defender_on_the_edge_breaks_the_encirclement() {
    let p = pos("sea-battle-9", "a", "Ke5 Te6 td5 tf5 td6 tf6 te7 ta4 Ti9");
    let (after, _) = play(&p, "a4-e4");
    assert_eq!(after.outcome(), None);
}

#[test]
fn a_gap_in_the_ring_is_no_encirclement() {
    let p = pos("sea-battle-9", "a", "Ke5 Te6 td5 tf5 td6 te7 ta4");
    let (after, _) = play(&p, "a4-e4");
    assert_eq!(after.outcome(), None);
}

#[test]
fn a_side_without_a_legal_move_loses() {
    let p = pos("tyr-11", "d", "ta1 Ta2 Tc1 Kf6");
    let (after, _) = play(&p, "c1-b1");
    assert_eq!(after.outcome(), won(Side::Defenders, Reason::NoMoves));
}

#[test]
fn a_draw_by_agreement() {
    let mut game = Game::new(Variant::by_id("tyr-11").unwrap());
    game.agree_draw().unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Agreement)));
    let m = Game::new(Variant::by_id("tyr-11").unwrap()).legal_moves()[0];
    assert_eq!(game.play(m).unwrap_err().to_string(), "the game is over");
}

// ----- berserk -----

fn berserk_start() -> taflbot::rules::Position {
    pos("tyr-11", "a", "tc1 Td5 te5 Tb8 ta8 Kh9")
}

#[test]
fn a_capture_leaves_the_turn_open_for_the_same_piece() {
    let (open, written) = play(&berserk_start(), "c1-c5");
    assert_eq!(written, "c1-c5xd5");
    assert_eq!(open.chain(), Some(sq("c5")));
    assert_eq!(open.turn(), Side::Attackers);
    let (done, written) = play(&open, "c5-c8");
    assert_eq!(written, "c5-c8xb8");
    assert_eq!(done.chain(), None);
    assert_eq!(done.turn(), Side::Defenders);
}

#[test]
fn a_continuation_must_capture_and_use_the_same_piece() {
    let (open, _) = play(&berserk_start(), "c1-c5");
    assert_eq!(
        refusal(&open, "c5-c6"),
        "a berserk continuation must capture (the king may instead run to the edge)"
    );
    assert!(refusal(&open, "a8-a9").starts_with("your berserk chain is open: only the piece on c5"));
    assert_eq!(open.legal_moves().len(), 1);
}

#[test]
fn the_chain_is_optional() {
    let (open, _) = play(&berserk_start(), "c1-c5");
    let ended = open.end_turn().unwrap();
    assert_eq!(ended.turn(), Side::Defenders);
    assert_eq!(ended.chain(), None);
}

#[test]
fn no_chain_stays_open_without_a_capturing_continuation() {
    let p = pos("tyr-11", "a", "tc1 Td5 te5 Kh9");
    let (after, _) = play(&p, "c1-c5");
    assert_eq!(after.chain(), None);
    assert_eq!(after.turn(), Side::Defenders);
}

#[test]
fn the_king_may_end_a_chain_with_a_run_to_the_edge() {
    let p = pos("tyr-11", "d", "tf4 Tf3 Kc5 ta1");
    let (open, written) = play(&p, "c5-f5");
    assert_eq!(written, "c5-f5xf4");
    assert_eq!(open.chain(), Some(sq("f5")));
    let (after, _) = play(&open, "f5-f11");
    assert_eq!(after.outcome(), won(Side::Defenders, Reason::KingEscaped));
}

#[test]
fn only_the_king_may_run_without_capturing() {
    let p = pos("tyr-11", "d", "tf4 Kf3 Tc5 ta1");
    let (open, _) = play(&p, "c5-f5");
    assert_eq!(
        open.chain(),
        None,
        "a man has no run to the edge, so the turn ends"
    );
}

#[test]
fn the_game_keeps_the_chain_in_one_turn() {
    let mut game = Game::from_position(berserk_start());
    for text in ["c1-c5", "c5-c8"] {
        let (m, _) = read_move(game.position(), text).unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(game.turns().len(), 1);
    assert_eq!(game.turns()[0].moves.len(), 2);
    assert!(game.turns()[0].complete);
}

// ----- commanders -----

#[test]
fn a_commander_jumps_friend_or_foe_in_tyr() {
    let friend = pos("tyr-commanders-11", "a", "cd4 td5 Kh9");
    assert_eq!(play(&friend, "d4^d6").1, "d4^d6");
    assert_eq!(
        play(&friend, "d4-d6").1,
        "d4^d6",
        "a jump may be written with -"
    );
    let foe = pos("tyr-commanders-11", "a", "cd4 Td5 Kh9");
    assert_eq!(play(&foe, "d4^d6").1, "d4^d6");
    assert!(foe.legal_moves().iter().any(|m| m.to == sq("d6")));
}

#[test]
fn a_commander_never_jumps_the_king_or_a_commander() {
    let king = pos("tyr-commanders-11", "a", "cd4 Kd5 ta1");
    assert_eq!(refusal(&king, "d4^d6"), "a commander may not jump the king");
    let commander = pos("tyr-commanders-11", "a", "cd4 Cd5 Kh9");
    assert_eq!(
        refusal(&commander, "d4^d6"),
        "a commander may not jump another commander"
    );
    assert!(!commander.legal_moves().iter().any(|m| m.to == sq("d6")));
}

#[test]
fn a_jump_captures_from_its_landing_square_and_starts_a_chain() {
    let p = pos("tyr-commanders-11", "a", "cd4 Td5 Te6 tf6 Tc9 tb9 Kh2");
    let (open, written) = play(&p, "d4^d6");
    assert_eq!(written, "d4^d6xe6");
    assert!(open.piece_at(sq("d5")).is_some(), "the jumped piece stays");
    assert_eq!(open.chain(), Some(sq("d6")));
    assert_eq!(play(&open, "d6-d9").1, "d6-d9xc9");
}

#[test]
fn an_odin_commander_jumps_only_enemies() {
    let friend = pos("odin-11", "a", "cd4 td5 Kh9");
    assert_eq!(
        refusal(&friend, "d4^d6"),
        "a commander may jump only an enemy piece"
    );
    let own_vman = pos("odin-11", "a", "cd4 vd5 Kh9");
    assert_eq!(
        refusal(&own_vman, "d4^d6"),
        "a commander may jump only an enemy piece"
    );
    let enemy_vman = pos("odin-11", "a", "cd4 Vd5 Kh9");
    assert_eq!(play(&enemy_vman, "d4^d6").1, "d4^d6");
}

#[test]
fn men_cannot_jump() {
    let p = pos("tyr-commanders-11", "a", "td4 Td5 Kh9");
    assert_eq!(refusal(&p, "d4-d6"), "the path is blocked at d5");
}

// ----- V-men -----

#[test]
fn a_captured_v_man_changes_sides() {
    let p = pos("odin-11", "a", "td5 Ve5 tf8 Kh3");
    let (after, written) = play(&p, "f8-f5");
    assert_eq!(written, "f8-f5xe5");
    let flipped = after.piece_at(sq("e5")).unwrap();
    assert_eq!((flipped.side, flipped.role), (Side::Attackers, Role::VMan));
    assert_eq!(
        after.count(Side::Attackers) + after.count(Side::Defenders),
        4
    );
}

#[test]
fn a_flip_counts_as_a_capture_for_berserk() {
    let p = pos("odin-11", "a", "tc1 Vd5 te5 Tb8 ta8 Kh9");
    let (open, written) = play(&p, "c1-c5");
    assert_eq!(written, "c1-c5xd5");
    assert_eq!(open.chain(), Some(sq("c5")));
}

#[test]
fn a_flipped_v_man_acts_for_its_new_side() {
    let p = pos("odin-11", "a", "td5 Ve5 tf8 Te4 th3 Ki6");
    let (after, written) = play(&p, "f8-f5");
    assert_eq!(written, "f8-f5xe5");
    let after = if after.chain().is_some() {
        after.end_turn().unwrap()
    } else {
        after
    };
    let (after, _) = play(&after, "i6-i7");
    // e4 now stands between the attacker arriving on e3 and the V-man on e5, which is theirs.
    assert_eq!(play(&after, "h3-e3").1, "h3-e3xe4");
}

// ----- repetition -----

#[test]
fn a_third_repetition_by_the_defenders_loses_in_tyr() {
    let mut game = Game::from_position(pos("tyr-11", "a", "ta1 Kf6 Tj9"));
    shuffle(
        &mut game,
        &[
            "a1-a2", "f6-f7", "a2-a1", "f7-f6", "a1-a2", "f6-f7", "a2-a1",
        ],
    );
    assert_eq!(game.outcome(), None);
    shuffle(&mut game, &["f7-f6"]);
    assert_eq!(game.outcome(), won(Side::Attackers, Reason::Repetition));
}

#[test]
fn a_third_repetition_by_the_attackers_does_not_end_the_game() {
    let mut game = Game::from_position(pos("sea-battle-11", "d", "ta1 Kf6 Tj9"));
    shuffle(
        &mut game,
        &[
            "f6-f7", "a1-a2", "f7-f6", "a2-a1", "f6-f7", "a1-a2", "f7-f6", "a2-a1",
        ],
    );
    assert_eq!(
        game.outcome(),
        None,
        "the attackers produced the third repetition"
    );
    shuffle(&mut game, &["f6-f7"]);
    assert_eq!(game.outcome(), won(Side::Attackers, Reason::Repetition));
}

#[test]
fn a_third_repetition_is_illegal_in_tablut() {
    let mut game = Game::from_position(pos("tablut", "a", "ta1 Kc7 Tg3"));
    shuffle(
        &mut game,
        &[
            "a1-a2", "c7-c6", "a2-a1", "c6-c7", "a1-a2", "c7-c6", "a2-a1",
        ],
    );
    let (m, _) = read_move(game.position(), "c6-c7").unwrap();
    assert_eq!(
        game.play(m).unwrap_err().to_string(),
        "that move would repeat a position for the third time"
    );
    assert!(!game.legal_moves().contains(&m));
    assert_eq!(game.outcome(), None);
}

// ----- bad input -----

#[test]
fn refusals_say_why() {
    let p = pos("tyr-11", "a", "td1 td4 Kf6 Te8");
    assert_eq!(refusal(&p, "d1-d6"), "the path is blocked at d4");
    assert_eq!(refusal(&p, "c3-c5"), "there is no piece on c3");
    assert_eq!(
        refusal(&p, "e8-e5"),
        "the piece on e8 is not yours: it is the attackers' turn"
    );
    assert_eq!(
        refusal(&p, "d1-e2"),
        "pieces move in a straight line along a rank or a file"
    );
    assert_eq!(refusal(&p, "d1-l1"), "l1 is not on this board");
    assert_eq!(
        refusal(&p, "d1-d1"),
        "a move must go somewhere: the two squares are the same"
    );
    assert_eq!(refusal(&p, "d1-d4"), "d4 is occupied");
    assert_eq!(
        refusal(&p, "d1"),
        "\"d1\" names only one square; write where the piece goes, like e1-e5"
    );
    assert_eq!(
        refusal(&p, "hello"),
        "\"hello\" is not a square; write a move like e1-e5"
    );
    assert_eq!(refusal(&p, ""), "write a move like e1-e5");
    assert_eq!(
        refusal(&p, "d1-d2x"),
        "an x must be followed by the captured squares, like e5-e8xe9"
    );
}

#[test]
fn every_written_form_of_a_move_is_read() {
    let p = pos("tyr-11", "a", "td5 Te5 tf8 Kh3");
    for text in [
        "f8-f5",
        "f8f5",
        "f8 f5",
        "F8-F5",
        " f8 - f5 ",
        "f8-f5xe5",
        "f8-f5 xe5",
        "f8-f5xe5xe5",
    ] {
        assert_eq!(play(&p, text).1, "f8-f5xe5", "{text}");
    }
}

#[test]
fn announced_captures_must_be_the_real_ones() {
    let p = pos("tyr-11", "a", "td5 Te5 tf8 Kh3");
    assert_eq!(refusal(&p, "f8-f5xe6"), "that move captures e5, not e6");
    assert_eq!(
        refusal(&p, "f8-f5xe5/e6"),
        "that move captures e5, not e5, e6"
    );
    let quiet = pos("tyr-11", "a", "tf8 Kh3");
    assert_eq!(
        refusal(&quiet, "f8-f5xe5"),
        "that move captures nothing, not e5"
    );
}

#[test]
fn illegal_position_strings_are_refused_with_the_reason() {
    use taflbot::rules::parse_position;
    let tyr = Variant::by_id("tyr-11").unwrap();
    let tablut = Variant::by_id("tablut").unwrap();
    let cases: &[(&Variant, &str, &str)] = &[
        (
            tyr,
            "9/9/9/9/9/9/9/9/9 a",
            "the position is 9x9, but this variant's board is 11x11",
        ),
        (
            tyr,
            "11/11/11/11/11/5K5/11/11/11/11/11 x",
            "\"x\" is not a side to move for this variant",
        ),
        (
            tyr,
            "11/11/11/11/11/5K5/11/11/11/11/11 g",
            "\"g\" is not a side to move for this variant",
        ),
        (
            tyr,
            "11/11/11/11/11/5K4K/11/11/11/11/11 a",
            "a side may have only one king",
        ),
        (
            tyr,
            "11/11/11/11/11/5K4c/11/11/11/11/11 a",
            "this variant has no commander (on k6)",
        ),
        (
            tyr,
            "11/11/11/11/11/5k5/11/11/11/11/11 a",
            "the king on f6 must be a defender (upper case K)",
        ),
        (
            tyr,
            "11/11/11/11/11/5Q5/11/11/11/11/11 a",
            "'Q' is not a piece letter",
        ),
        (
            tyr,
            "11/11/11/11/11/5K6/11/11/11/11/11 a",
            "rank 6 has 12 squares but rank 11 has 11",
        ),
        (
            tyr,
            "11/11/11/11/11/5K5/11/11/11/11/11",
            "the side to move is missing (a, d, g or r after the board)",
        ),
        (
            tyr,
            "11/11/11/11/11/5K5/11/11/11/11/11 a extra",
            "\"extra\" is not a field this position string understands",
        ),
        (
            tablut,
            "9/9/9/9/4t4/9/9/9/2K6 a",
            "a man cannot stand on the throne e5",
        ),
        (tyr, "", "the position string is empty"),
    ];
    for (variant, text, why) in cases {
        let err = parse_position(variant, text).unwrap_err();
        assert_eq!(err.to_string(), *why, "{text}");
    }
}

#[test]
fn position_strings_read_back() {
    for v in Variant::all() {
        let p = taflbot::rules::Position::start(v);
        let text = taflbot::rules::write_position(&p);
        assert_eq!(text, v.setup, "{}", v.id);
        assert_eq!(taflbot::rules::parse_position(v, &text).unwrap(), p);
    }
    let (open, _) = play(&berserk_start(), "c1-c5");
    let text = taflbot::rules::write_position(&open);
    assert!(text.ends_with(" a chain:c5"), "{text}");
    let back = taflbot::rules::parse_position(Variant::by_id("tyr-11").unwrap(), &text).unwrap();
    assert_eq!(back, open);
    assert_eq!(back.hash(), open.hash());
}

#[test]
fn a_side_whose_every_move_repeats_a_third_time_loses_in_tablut() {
    let mut game = Game::from_position(
        taflbot::rules::parse_position(
            Variant::by_id("tablut").unwrap(),
            "9/9/9/3t5/2tK5/2t1t4/3t5/9/t8 a",
        )
        .unwrap(),
    );
    shuffle(
        &mut game,
        &[
            "a1-a2", "d5-d4", "a2-a1", "d4-d5", "a1-a2", "d5-d4", "a2-a1",
        ],
    );
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), won(Side::Attackers, Reason::NoMoves));
}

#[test]
fn a_caret_marks_only_a_jump() {
    let p = pos("tyr-commanders-11", "a", "cd4 Kh9");
    assert_eq!(
        refusal(&p, "d4^d9"),
        "that is not a jump: ^ marks a commander's jump over one adjacent piece"
    );
}

#[test]
fn the_first_mover_is_the_setups() {
    for v in Variant::all() {
        assert_eq!(
            taflbot::rules::Position::start(v).turn(),
            v.first,
            "{}",
            v.id
        );
    }
}

#[test]
fn unreadable_moves_say_how_to_write_them_and_quote_little() {
    let v = Variant::by_id("standard-13").unwrap();
    let start = taflbot::rules::Position::start(v);
    let cavalry = read_move(&start, "c1c5d5").unwrap_err().to_string();
    assert!(
        cavalry.contains("a Cavalry move with its corner is written with dashes, like c3-c7-d7"),
        "{cavalry}"
    );
    let long = format!("a1-a2x{}", "b".repeat(300));
    let said = read_move(&start, &long).unwrap_err().to_string();
    assert!(said.chars().count() < 150, "{said}");
}

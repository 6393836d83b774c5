//! Brandubh: the game set published with the `hnefatafl` crate replayed move for move and capture
//! for capture, and one test per rule from position strings.

use crate::common;

use common::{play, pos, refusal, shuffle, sq};
use taflbot::rules::{Game, Outcome, Reason, Side};

fn won(side: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(side, reason))
}

#[test]
fn every_game_of_the_set_replays_with_its_captures_and_its_result() {
    let r = common::replay_set("brandubh", include_str!("../../data/brandubh.csv"));
    // Two rows hold no game at all ("timeout,0,0,").
    assert_eq!(r.games, 523);
    assert!(
        r.failures.is_empty(),
        "{} of {} games fail:\n{}",
        r.failures.len(),
        r.games,
        r.failures.join("\n")
    );
    // Most games end by resignation; over a hundred end by the rules or the clock, and those
    // agree with the record.
    assert!(r.ended > 100, "{}", r.ended);
    assert!(r.timeouts > 0, "{}", r.timeouts);
}

// ----- the rules, one by one -----

#[test]
fn only_the_king_stops_on_the_throne_and_the_corners_and_anyone_passes_the_empty_throne() {
    let p = pos("brandubh", "d", "Td6 Tb1 Kf2 tb7");
    assert_eq!(
        refusal(&p, "d6-d4"),
        "only the king may stop on the throne (d4)"
    );
    assert_eq!(
        refusal(&p, "b1-a1"),
        "only the king may stop on the corner (a1)"
    );
    assert_eq!(play(&p, "d6-d2").1, "d6-d2");
    let a = pos("brandubh", "a", "td6 Kf2");
    assert_eq!(play(&a, "d6-d1").1, "d6-d1");
    assert!(a.legal_moves().iter().all(|m| m.to != sq("d4")));
}

#[test]
fn the_king_returns_to_the_throne_and_escapes_only_to_a_corner() {
    let p = pos("brandubh", "d", "Kd6 tb7 tg2");
    let (throne, _) = play(&p, "d6-d4");
    assert_eq!(throne.royal(Side::Defenders), Some(sq("d4")));
    let edge = pos("brandubh", "d", "Kb3 tb6 tg2");
    let (on_edge, _) = play(&edge, "b3-b1");
    assert_eq!(on_edge.outcome(), None, "the edge is no escape");
    let (waited, _) = play(&on_edge, "b6-b5");
    let (home, _) = play(&waited, "b1-a1");
    assert_eq!(home.outcome(), won(Side::Defenders, Reason::KingEscaped));
}

#[test]
fn the_king_away_from_the_throne_falls_to_two_or_one_against_a_corner() {
    let two = pos("brandubh", "a", "Kc2 tb2 td6");
    let (after, written) = play(&two, "d6-d2");
    assert_eq!(written, "d6-d2xc2");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::KingCaptured));
    let corner = pos("brandubh", "a", "Kb1 tc3 Tf6");
    assert_eq!(
        play(&corner, "c3-c1").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    // Two at right angles do not.
    let angle = pos("brandubh", "a", "Kc2 tc3 te1 Tf6");
    assert_eq!(play(&angle, "e1-d1").0.outcome(), None);
    assert_eq!(play(&angle, "e1-d1").1, "e1-d1");
}

#[test]
fn the_king_beside_the_throne_needs_three_and_on_it_four() {
    let beside = pos("brandubh", "a", "Kd5 tc5 te5 ta6");
    assert_eq!(
        play(&beside, "a6-d6").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    let two = pos("brandubh", "a", "Kd5 tc5 ta6 Tg3");
    assert_eq!(play(&two, "a6-d6").0.outcome(), None);
    let throne = pos("brandubh", "a", "Kd4 tc4 te4 td5 ta3");
    assert_eq!(
        play(&throne, "a3-d3").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    let three = pos("brandubh", "a", "Kd4 tc4 te4 ta3");
    assert_eq!(play(&three, "a3-d3").0.outcome(), None);
}

#[test]
fn corners_are_hostile_to_all_and_the_throne_to_defenders_only_when_empty() {
    assert_eq!(
        play(&pos("brandubh", "a", "Tb1 tc3 Kf6"), "c3-c1").1,
        "c3-c1xb1"
    );
    assert_eq!(
        play(&pos("brandubh", "d", "tb1 Tc3 Kf6 tg6"), "c3-c1").1,
        "c3-c1xb1"
    );
    assert_eq!(
        play(&pos("brandubh", "a", "Td5 ta6 Kf2"), "a6-d6").1,
        "a6-d6xd5"
    );
    assert_eq!(
        play(&pos("brandubh", "a", "Kd4 Td5 ta6"), "a6-d6").1,
        "a6-d6"
    );
    assert_eq!(
        play(&pos("brandubh", "d", "td5 Ta6 Kf2 tg6"), "a6-d6").1,
        "a6-d6xd5"
    );
}

#[test]
fn the_king_is_armed() {
    assert_eq!(
        play(&pos("brandubh", "d", "Kd4 td5 Ta6 tg6"), "a6-d6").1,
        "a6-d6xd5"
    );
    assert_eq!(
        play(&pos("brandubh", "d", "Kf2 tc5 Tb5 tg6"), "f2-f5").1,
        "f2-f5"
    );
    assert_eq!(
        play(&pos("brandubh", "d", "Kf2 te5 Td5 tg6"), "f2-f5").1,
        "f2-f5xe5"
    );
}

#[test]
fn a_ring_around_every_defender_wins_for_the_attackers() {
    let p = pos(
        "brandubh",
        "a",
        "Kd4 Td5 Td3 tc3 tc4 tc5 te3 te4 te5 td6 ta2",
    );
    assert_eq!(p.outcome(), None);
    assert_eq!(
        play(&p, "a2-d2").0.outcome(),
        won(Side::Attackers, Reason::Encircled)
    );
}

#[test]
fn a_side_without_a_move_loses() {
    // After e3-e1 the king on c1 is boxed in by his own men on b1 and d1 and the attacker on c2,
    // and they by the corner a1 and the attackers on b2, d2 and e1.
    let p = pos("brandubh", "a", "Tb1 Kc1 Td1 tb2 tc2 td2 te3");
    let (after, written) = play(&p, "e3-e1");
    assert_eq!(written, "e3-e1");
    assert_eq!(after.outcome(), won(Side::Attackers, Reason::NoMoves));
}

#[test]
fn a_side_that_shuttles_three_times_loses_the_attackers_too() {
    let mut game = Game::from_position(pos("brandubh", "a", "tb6 Kf2 Tf5"));
    let attackers = ["b6-b5", "b5-b6"];
    let defenders = ["f5-f4", "f4-f5"];
    // Both shuttle; the attackers' seventh move completes their third pair and loses.
    for i in 0..7 {
        shuffle(&mut game, &[attackers[i % 2]]);
        if i == 6 {
            assert_eq!(game.outcome(), won(Side::Defenders, Reason::Repetition));
            return;
        }
        assert_eq!(game.outcome(), None, "attackers' move {}", i + 1);
        shuffle(&mut game, &[defenders[i % 2]]);
        assert_eq!(game.outcome(), None, "defenders' move {}", i + 1);
    }
}

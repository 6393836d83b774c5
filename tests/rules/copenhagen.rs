//! Copenhagen Hnefatafl: the corpus of 1,752 real games replayed move for move and capture for
//! capture, perft from the start, and one test per rule from position strings.

use crate::common;

use common::{play, pos, refusal};
use taflbot::notation::import_moves;
use taflbot::rules::{perft, Move, Outcome, Position, Reason, Side, Variant};

fn copenhagen() -> &'static Variant {
    Variant::by_id("copenhagen").unwrap()
}

fn won(side: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(side, reason))
}

#[test]
fn every_game_of_the_corpus_replays_with_its_captures_and_its_result() {
    let r = common::replay_set("copenhagen", include_str!("../../data/copenhagen.csv"));
    assert_eq!(r.games, 1752);
    assert!(
        r.failures.is_empty(),
        "{} of {} games fail:\n{}",
        r.failures.len(),
        r.games,
        r.failures.join("\n")
    );
    // Most games end by resignation; many end by the rules, and those agree with the record.
    assert!(r.ended > 300, "{}", r.ended);
}

#[test]
fn perft_from_the_start() {
    let start = Position::start(copenhagen());
    assert_eq!(perft(&start, 1), 116);
    assert_eq!(perft(&start, 2), 6_788);
    assert_eq!(perft(&start, 3), 806_344);
}

/// 50 million leaves; under a second in a release build (the last ply is counted, not played).
#[test]
fn perft_depth_four() {
    assert_eq!(perft(&Position::start(copenhagen()), 4), 50_456_804);
}

// ----- the rules, one by one -----

#[test]
fn a_shieldwall_is_captured_at_once() {
    // Defenders c1 and d1 on the edge, each faced by an attacker; e1 closes one end, the mover
    // closes the other.
    let p = pos("copenhagen", "a", "Tc1 Td1 tc2 td2 te1 tb5 Kf6");
    let (after, written) = play(&p, "b5-b1");
    assert_eq!(written, "b5-b1xc1/d1");
    assert_eq!(after.count(Side::Defenders), 1);
    // Without a piece in front of each, there is no wall.
    let open = pos("copenhagen", "a", "Tc1 Td1 tc2 te1 tb5 Kf6");
    assert_eq!(play(&open, "b5-b1").1, "b5-b1");
}

#[test]
fn a_king_in_the_shieldwall_stays() {
    let p = pos("copenhagen", "a", "Tc1 Kd1 Te1 tc2 td2 te2 tf1 tb5");
    let (after, written) = play(&p, "b5-b1");
    assert_eq!(written, "b5-b1xc1/e1");
    assert_eq!(after.royal(Side::Defenders), Some(common::sq("d1")));
    assert_eq!(
        after.outcome(),
        None,
        "the king on the edge is not captured"
    );
}

#[test]
fn a_corner_closes_a_shieldwall() {
    let p = pos("copenhagen", "a", "Tb1 Tc1 tb2 tc2 td5 Kf6");
    assert_eq!(play(&p, "d5-d1").1, "d5-d1xb1/c1");
    // The defenders' shieldwall takes attackers alike.
    let q = pos("copenhagen", "d", "tj11 ti11 Tj10 Ti10 Th5 Kf6");
    assert_eq!(play(&q, "h5-h11").1, "h5-h11xi11/j11");
}

#[test]
fn an_exit_fort_wins_and_a_broken_one_does_not() {
    // The king on e1, free to move to e2; d1 f1 d2 f2 e3 wall him in, and d3 guards e3.
    let fort = pos("copenhagen", "d", "Ke1 Td1 Tf1 Td2 Tf2 Te3 Td5 tb10 tk6");
    let (after, _) = play(&fort, "d5-d3");
    assert_eq!(after.outcome(), won(Side::Defenders, Reason::ExitFort));
    // Without d3, the attackers could capture e3 from d3 and f3: the fort can be broken.
    let (after, _) = play(&fort, "d5-d4");
    assert_eq!(after.outcome(), None);
    // With a gap at f2 the attackers can walk in.
    let gap = pos("copenhagen", "d", "Ke1 Td1 Tf1 Td2 Te3 Td5 tb10 tk6");
    assert_eq!(play(&gap, "d5-d3").0.outcome(), None);
    // A king with no room to move is no fort.
    let stuck = pos("copenhagen", "d", "Ke1 Td1 Tf1 Te2 Td5 tb10 tk6");
    assert_eq!(play(&stuck, "d5-d2").0.outcome(), None);
}

#[test]
fn the_empty_throne_is_hostile_to_both_and_the_occupied_one_only_to_attackers() {
    let attacker_by_empty = pos("copenhagen", "d", "tf7 Tc8 Kb2 ta10");
    assert_eq!(play(&attacker_by_empty, "c8-f8").1, "c8-f8xf7");
    let defender_by_empty = pos("copenhagen", "a", "Tf7 tc8 Kb2");
    assert_eq!(play(&defender_by_empty, "c8-f8").1, "c8-f8xf7");
    let defender_by_king = pos("copenhagen", "a", "Tf7 tc8 Kf6");
    assert_eq!(play(&defender_by_king, "c8-f8").1, "c8-f8");
    let attacker_by_king = pos("copenhagen", "d", "tf7 Tc8 Kf6 ta10");
    assert_eq!(play(&attacker_by_king, "c8-f8").1, "c8-f8xf7");
}

#[test]
fn only_the_king_stops_on_the_throne_and_the_corners() {
    let p = pos("copenhagen", "d", "Tf8 Ta5 Kb3 ta10");
    assert_eq!(
        refusal(&p, "f8-f6"),
        "only the king may stop on the throne (f6)"
    );
    assert_eq!(
        refusal(&p, "a5-a1"),
        "only the king may stop on the corner (a1)"
    );
    // Any piece passes the empty throne.
    assert_eq!(play(&p, "f8-f4").1, "f8-f4");
    // The king re-enters it, and escapes only to a corner.
    let k = pos("copenhagen", "d", "Kf8 ta10 tc4");
    let (on_throne, _) = play(&k, "f8-f6");
    assert_eq!(on_throne.royal(Side::Defenders), Some(common::sq("f6")));
    assert_eq!(on_throne.outcome(), None);
    let (edge, _) = play(&k, "f8-f11");
    assert_eq!(edge.outcome(), None, "the edge is no escape");
    let (corner, _) = play(&edge, "a10-a9");
    let (home, _) = play(&corner, "f11-k11");
    assert_eq!(home.outcome(), won(Side::Defenders, Reason::KingEscaped));
}

#[test]
fn the_king_is_captured_on_four_sides_or_three_and_the_throne_but_never_on_the_edge() {
    let four = pos("copenhagen", "a", "Kd4 td5 td3 tc4 te8");
    assert_eq!(
        play(&four, "e8-e4").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    let two = pos("copenhagen", "a", "Kd4 tc4 te8 Tb10");
    assert_eq!(play(&two, "e8-e4").0.outcome(), None);
    let throne = pos("copenhagen", "a", "Ke6 te7 te5 td9");
    assert_eq!(
        play(&throne, "d9-d6").0.outcome(),
        won(Side::Attackers, Reason::KingCaptured)
    );
    let edge = pos("copenhagen", "a", "Ka5 ta6 ta4 tb9 Th8");
    let (after, written) = play(&edge, "b9-b5");
    assert_eq!((written.as_str(), after.outcome()), ("b9-b5", None));
}

#[test]
fn defenders_who_shuttle_three_times_lose() {
    let mut game = taflbot::rules::Game::from_position(pos("copenhagen", "a", "ta9 Tb2 Kf6 tk5"));
    let mut play_text = |text: &str| {
        let (m, _) = taflbot::notation::read_move(game.position(), text).unwrap();
        game.play(m).unwrap();
        game.outcome()
    };
    let attackers = ["a9-a8", "a8-a9"];
    let defenders = ["b2-b3", "b3-b2"];
    for i in 0..7 {
        assert_eq!(play_text(attackers[i % 2]), None);
        let after = play_text(defenders[i % 2]);
        if i < 6 {
            assert_eq!(after, None, "defenders' move {}", i + 1);
        } else {
            assert_eq!(after, won(Side::Attackers, Reason::Repetition));
        }
    }
}

#[test]
fn the_corpus_record_format_imports() {
    let game = import_moves(copenhagen(), "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2").unwrap();
    assert_eq!(game.move_count(), 5);
    assert_eq!(game.position().count(Side::Defenders), 12);
    let wrong = import_moves(copenhagen(), "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3").unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "move 5 (g3-e3): the list captures nothing but the move captures e2"
    );
    let illegal = import_moves(copenhagen(), "d1-d3 d3-d1").unwrap_err();
    assert_eq!(illegal.ply, 2);
}

#[test]
fn perft_counts_only_sequences_of_the_full_length() {
    // The defenders' king can reach a corner at once: those moves end the game.
    let start = pos("copenhagen", "d", "Kc1 tf8 tg8 th8 Tk6");
    let moves = start.legal_moves();
    let (ending, going_on): (Vec<&Move>, Vec<&Move>) = moves.iter().partition(|m| {
        let (next, _) = start.play(**m).unwrap();
        next.outcome().is_some()
    });
    assert!(!ending.is_empty(), "a move ends the game");
    assert_eq!(perft(&start, 1), moves.len() as u64);
    // At depth 2 a finished game adds nothing: only the replies to the other moves count.
    let replies: u64 = going_on
        .iter()
        .map(|m| start.play(**m).unwrap().0.legal_moves().len() as u64)
        .sum();
    assert_eq!(perft(&start, 2), replies);
}

//! The probes checked against slower ways of finding the same.

use super::super::moves::MoveKind;
use super::super::random::{playout, Rng};
use super::super::variant::Variant;
use super::*;

/// The king's room, grown a square at a time over the whole board.
fn room_by_steps(pos: &Position) -> u32 {
    let Some(king) = pos.royal(Side::Defenders) else {
        return 0;
    };
    let open = pos
        .variant
        .board
        .minus(&pos.pieces[Side::Attackers.index()]);
    let mut region = SquareSet::EMPTY;
    region.insert(king);
    loop {
        let grown = [1, -1, STRIDE, -STRIDE]
            .iter()
            .fold(region, |r, by| r.or(&region.shifted(*by)))
            .and(&open);
        if grown == region {
            return region.len() as u32;
        }
        region = grown;
    }
}

/// The king's reach counted as three walks, one question each: the escapes from the paths
/// the search reads, then every square he reaches with its lines to an escape.
fn lines_walked_apart(pos: &Position) -> KingLines {
    let (escapes, _) = pos.king_escape_paths();
    let mut lines = KingLines {
        escapes: escapes as u32,
        ..KingLines::default()
    };
    let (Some(king), false) = (
        pos.royal(Side::Defenders),
        pos.variant.rules.escape == Escape::None,
    ) else {
        return lines;
    };
    let access = pos.variant.access(Role::King);
    for dir in Dir::ALL {
        let mut sq = king.step(dir);
        while pos.cells[sq.index()] & PIECE_MASK == 0 {
            let a = access[(pos.cells[sq.index()] >> TERRAIN_SHIFT) as usize];
            if a & STOP != 0 {
                let n = pos.lines_to_escape(sq);
                lines.routes += u32::from(n > 0);
                lines.forks += u32::from(n > 1);
            }
            if a & PASS == 0 {
                break;
            }
            sq = sq.step(dir);
        }
    }
    lines
}

/// Over random games of every variant, the king's reach read in one walk is the reach read
/// in three, and the positions compared include escapes, routes and forks.
#[test]
fn the_kings_lines_in_one_walk_are_those_of_three() {
    let (mut escapes, mut forks) = (0, 0);
    for v in Variant::all() {
        for seed in 0..4 {
            playout(&Position::start(v), &mut Rng::new(seed), 300, |pos, _| {
                let lines = pos.king_lines();
                assert_eq!(lines, lines_walked_apart(pos), "{}\n{pos:?}", v.id);
                escapes += usize::from(lines.escapes > 0);
                forks += usize::from(lines.forks > 0);
            });
        }
    }
    assert!(escapes > 20 && forks > 20, "{escapes} {forks}");
}

/// Over random games of every variant with a king, the room grown a rank at a time is the
/// room grown a square at a time.
#[test]
fn the_kings_room_is_counted_rank_by_rank_as_step_by_step() {
    let mut rooms = std::collections::BTreeSet::new();
    for v in Variant::all() {
        for seed in 0..4 {
            playout(&Position::start(v), &mut Rng::new(seed), 300, |pos, _| {
                let room = pos.king_room();
                assert_eq!(room, room_by_steps(pos), "{}\n{pos:?}", v.id);
                rooms.insert(room);
            });
        }
    }
    // Rooms of many sizes were compared (a ring closed: the engine's tests).
    assert!(rooms.len() > 50, "{rooms:?}");
}

/// Over random games of every variant, every capturing slide lands on a capture target, the
/// moves onto the targets are found from them outward with the commanders' jumps (where
/// that list may stand in), and the king's road agrees with the relaxed distance where that
/// one is exact.
#[test]
fn capture_targets_hold_every_capture() {
    for v in Variant::all() {
        for seed in 0..6 {
            playout(&Position::start(v), &mut Rng::new(seed), 300, |pos, _| {
                let targets = pos.capture_targets();
                for m in pos.legal_moves() {
                    if m.kind == MoveKind::Slide && !pos.captures_of(m).is_empty() {
                        assert!(targets.contains(m.to), "{}: {m:?}\n{pos:?}", v.id);
                    }
                }
                if pos.moves_onto_suffice() {
                    let mut onto = Vec::new();
                    pos.moves_onto(&targets, &mut onto);
                    let mut want: Vec<_> = pos
                        .legal_moves()
                        .into_iter()
                        .filter(|m| targets.contains(m.to) || m.kind == MoveKind::Jump)
                        .collect();
                    want.sort_by_key(|m| (m.from.index(), m.to.index()));
                    onto.sort_by_key(|m| (m.from.index(), m.to.index()));
                    assert_eq!(onto, want, "{}\n{pos:?}", v.id);
                }
                if pos.royal(Side::Defenders).is_some() && !v.rules.armies {
                    let escapes = pos.king_escapes() > 0;
                    assert_eq!(pos.king_road() == 1, escapes, "{}\n{pos:?}", v.id);
                }
            });
        }
    }
}

/// The pieces with an open line, counted from the rows' and files' ends, are those found piece
/// by piece, on every board and in positions where lines open and close.
#[test]
fn open_to_edge_counts_the_pieces_with_an_open_line() {
    let mut counted = 0;
    for v in Variant::all() {
        for seed in 0..4 {
            playout(&Position::start(v), &mut Rng::new(seed), 160, |pos, _| {
                for side in [Side::Attackers, Side::Defenders] {
                    let want = pos.pieces[side.index()]
                        .iter()
                        .filter(|sq| pos.open_lines(*sq) > 0)
                        .count() as u32;
                    assert_eq!(pos.open_to_edge(side), want, "{}: {pos:?}", v.id);
                    counted += want;
                }
            });
        }
    }
    assert!(counted > 10_000, "{counted}");
}

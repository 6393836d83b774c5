//! Which pieces a move captures, worked out before the board changes. The move is seen through a
//! view in which the piece has already left `from` and stands on `to`, so the same code answers
//! "what would this capture?" (berserk continuations) and "what does it capture?" (playing).

use super::cell::{role_of, side_of, terrain_of};
use super::moves::{Captures, Move};
use super::piece::{Role, Side, PIECE_MASK};
use super::square::{Dir, Square, GRID, MAX_FILES};
use super::variant::{KingCapture, Terrain, Throne, Variant};

/// The board as it stands after the piece moved, before anything is captured.
struct After<'a> {
    variant: &'a Variant,
    cells: &'a [u8; GRID],
    from: Square,
    to: Square,
    mover: u8,
}

impl After<'_> {
    #[inline(always)]
    fn at(&self, sq: Square) -> u8 {
        let c = self.cells[sq.index()];
        if sq == self.to {
            (c & !PIECE_MASK) | self.mover
        } else if sq == self.from {
            c & !PIECE_MASK
        } else {
            c
        }
    }

    /// Whether `sq` closes a sandwich against a piece of `victim`'s side.
    #[inline]
    fn hostile(&self, sq: Square, victim: Side) -> bool {
        let c = self.at(sq);
        if c & PIECE_MASK != 0 {
            if side_of(c) != victim {
                return role_of(c) != Some(Role::King) || self.variant.rules.king_armed;
            }
            // Cartier: the king on his throne with three attackers around it is hostile to the
            // defender on the fourth side.
            return self.variant.rules.throne == Some(Throne::Cartier)
                && victim == Side::Defenders
                && role_of(c) == Some(Role::King)
                && terrain_of(c) == Terrain::Throne
                && self.attackers_around(sq) == 3;
        }
        matches!(
            terrain_of(c),
            Terrain::Throne | Terrain::Corner | Terrain::Hill | Terrain::Haven
        )
    }

    fn attackers_around(&self, sq: Square) -> usize {
        Dir::ALL
            .iter()
            .filter(|d| {
                let c = self.at(sq.step(**d));
                c & PIECE_MASK != 0 && side_of(c) == Side::Attackers
            })
            .count()
    }

    fn attacker_or_throne(&self, sq: Square) -> bool {
        let c = self.at(sq);
        if c & PIECE_MASK != 0 {
            side_of(c) == Side::Attackers
        } else {
            terrain_of(c) == Terrain::Throne
        }
    }

    /// Whether the attacker's arrival beside the king (on `king`, in direction `dir`) takes him.
    fn king_captured(&self, king: Square, dir: Dir) -> bool {
        let v = self.variant;
        match v.rules.king_capture {
            KingCapture::Custodian => self.hostile(king.step(dir), Side::Defenders),
            KingCapture::FourSides => self.attackers_around(king) == 4,
            KingCapture::NearThrone => {
                let near_throne = v
                    .centre
                    .is_some_and(|c| c == king || Dir::ALL.iter().any(|d| king.step(*d) == c));
                if near_throne {
                    Dir::ALL
                        .iter()
                        .all(|d| self.attacker_or_throne(king.step(*d)))
                } else {
                    self.hostile(king.step(dir), Side::Defenders)
                }
            }
            KingCapture::Copenhagen => {
                !v.edge.contains(king)
                    && Dir::ALL
                        .iter()
                        .all(|d| self.attacker_or_throne(king.step(*d)))
            }
        }
    }

    /// Save the Standard: pieces of `enemy` on all four sides.
    fn surrounded_by(&self, sq: Square, enemy: Side) -> bool {
        Dir::ALL.iter().all(|d| {
            let c = self.at(sq.step(*d));
            c & PIECE_MASK != 0 && side_of(c) == enemy
        })
    }
}

/// The squares that `m` captures on (a V-man's among them, though it only changes sides).
#[inline]
pub(super) fn captures(variant: &Variant, cells: &[u8; GRID], m: Move) -> Captures {
    let mut out = Captures::new();
    scan(variant, cells, m, |sq| {
        // A piece both sandwiched and in a shieldwall is captured once.
        if !out.contains(sq) {
            out.push(sq);
        }
        true
    });
    out
}

/// Whether `m` captures anything; stops at the first capture.
#[inline]
pub(super) fn captures_any(variant: &Variant, cells: &[u8; GRID], m: Move) -> bool {
    !scan(variant, cells, m, |_| false)
}

/// Calls `found` with each square `m` captures on, until it returns false; returns false then.
#[inline(always)]
fn scan(
    variant: &Variant,
    cells: &[u8; GRID],
    m: Move,
    mut found: impl FnMut(Square) -> bool,
) -> bool {
    let mover = cells[m.from.index()] & PIECE_MASK;
    let side = side_of(mover);
    if cells[m.to.index()] & PIECE_MASK != 0 && !found(m.to) {
        // A Standard takes Cavalry by replacement.
        return false;
    }
    if role_of(mover) == Some(Role::King) && !variant.rules.king_armed {
        return true;
    }
    let view = After {
        variant,
        cells,
        from: m.from,
        to: m.to,
        mover,
    };
    for dir in Dir::ALL {
        let sq = m.to.step(dir);
        let victim = view.at(sq);
        if victim & PIECE_MASK == 0 || side_of(victim) == side {
            continue;
        }
        let taken = match role_of(victim) {
            Some(Role::King) => view.king_captured(sq, dir),
            Some(Role::Standard) => view.surrounded_by(sq, side),
            _ => view.hostile(sq.step(dir), side.other()),
        };
        if taken && !found(sq) {
            return false;
        }
    }
    if variant.rules.shieldwall && variant.edge.contains(m.to) {
        return shieldwalls(&view, side, &mut found);
    }
    true
}

/// Copenhagen's shieldwall: the mover, landing on the edge, closes one end of a row of two or more
/// enemy pieces along that edge whose other end is the mover's piece or a corner, while every piece
/// of the row faces a piece of the mover's side towards the centre. The row is captured but for a
/// king standing in it. Reports each captured square to `found`; false when it says stop.
fn shieldwalls(view: &After, side: Side, found: &mut impl FnMut(Square) -> bool) -> bool {
    let (v, to) = (view.variant, view.to);
    let front = if to.rank() == 0 {
        Dir::Up
    } else if to.rank() == v.ranks - 1 {
        Dir::Down
    } else if to.file() == 0 {
        Dir::Right
    } else {
        Dir::Left
    };
    for dir in front.perpendicular() {
        let mut row = [Square::from_index(0); MAX_FILES as usize];
        let mut len = 0;
        let mut sq = to.step(dir);
        let closed = loop {
            let c = view.at(sq);
            if c & PIECE_MASK == 0 {
                // An empty square opens the row, unless it is a corner (off the board is neither).
                break terrain_of(c) == Terrain::Corner;
            }
            if side_of(c) == side {
                break true;
            }
            let facing = view.at(sq.step(front));
            if facing & PIECE_MASK == 0 || side_of(facing) != side {
                break false;
            }
            row[len] = sq;
            len += 1;
            sq = sq.step(dir);
        };
        if closed && len >= 2 {
            for &sq in &row[..len] {
                if role_of(view.at(sq)) != Some(Role::King) && !found(sq) {
                    return false;
                }
            }
        }
    }
    true
}

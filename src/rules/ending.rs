//! What ends a game on the board: a royal piece captured or home, a side with no move,
//! Copenhagen's exit fort, and encirclement.

use super::cell::{side_of, terrain_of};
use super::moves::{Outcome, Reason};
use super::piece::{Side, PIECE_MASK};
use super::position::Position;
use super::square::{Dir, Square, SquareSet, GRID, STRIDE};
use super::variant::{Escape, Terrain};

impl Position {
    /// A result that the board shows at once: a royal piece captured or home.
    pub(super) fn decided(&self) -> Option<Outcome> {
        let v = self.variant;
        if v.rules.armies {
            for side in Side::BOTH {
                let Some(sq) = self.royal[side.index()] else {
                    return Some(Outcome::win(side.other(), Reason::StandardCaptured));
                };
                if v.terrain(sq) == Terrain::Haven && v.field_owner(sq) == Some(side) {
                    return Some(Outcome::win(side, Reason::StandardSaved));
                }
            }
            return None;
        }
        let Some(king) = self.royal[Side::Defenders.index()] else {
            return Some(Outcome::win(Side::Attackers, Reason::KingCaptured));
        };
        let escaped = match v.rules.escape {
            Escape::Edge => v.edge.contains(king),
            Escape::Corner => v.terrain(king) == Terrain::Corner,
            Escape::None => false,
        };
        escaped.then_some(Outcome::win(Side::Defenders, Reason::KingEscaped))
    }

    /// A result that depends on who is to move: encirclement, or no legal move.
    pub(super) fn stalled(&self) -> Option<Outcome> {
        if self.outcome.is_some() {
            return self.outcome;
        }
        if self.chain.is_some() {
            return None;
        }
        if self.variant.rules.exit_fort && self.turn == Side::Attackers && self.exit_fort() {
            return Some(Outcome::win(Side::Defenders, Reason::ExitFort));
        }
        if self.variant.rules.encirclement && self.turn == Side::Defenders && self.encircled() {
            return Some(Outcome::win(Side::Attackers, Reason::Encircled));
        }
        if !self.has_move() {
            return Some(self.stuck());
        }
        None
    }

    /// The outcome when the side to move has no legal move: it loses, or in some variants draws,
    /// unless it has no piece left at all: then it lost them all and loses.
    pub(super) fn stuck(&self) -> Outcome {
        if self.variant.rules.no_move_draws && !self.pieces[self.turn.index()].is_empty() {
            Outcome::draw(Reason::NoMoves)
        } else {
            Outcome::win(self.turn.other(), Reason::NoMoves)
        }
    }

    /// Copenhagen's exit fort, after a defenders' move: the king stands on the edge with room to
    /// move, in a region of empty squares that defenders close off from every attacker (and from
    /// the corners), and each of those defenders is safe from capture: on each line through it,
    /// one neighbour is off the board, a defender, or the fort's inside (not a hostile empty throne).
    pub(super) fn exit_fort(&self) -> bool {
        let Some(king) = self.royal[Side::Defenders.index()] else {
            return false;
        };
        if !self.variant.edge.contains(king) {
            return false;
        }
        let empty = |sq: Square| {
            let c = self.cells[sq.index()];
            c & PIECE_MASK == 0 && terrain_of(c) != Terrain::OffBoard
        };
        if !Dir::ALL.iter().any(|d| empty(king.step(*d))) {
            return false;
        }
        let mut inside = SquareSet::EMPTY;
        let mut wall = SquareSet::EMPTY;
        inside.insert(king);
        let mut stack = [Square::from_index(0); GRID];
        stack[0] = king;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let sq = stack[top];
            for dir in Dir::ALL {
                let n = sq.step(dir);
                let c = self.cells[n.index()];
                if inside.contains(n) || wall.contains(n) || terrain_of(c) == Terrain::OffBoard {
                    continue;
                }
                if c & PIECE_MASK != 0 {
                    if side_of(c) == Side::Attackers {
                        return false;
                    }
                    wall.insert(n);
                    continue;
                }
                if terrain_of(c) == Terrain::Corner {
                    return false;
                }
                inside.insert(n);
                stack[top] = n;
                top += 1;
            }
        }
        let safe = |n: Square| {
            let c = self.cells[n.index()];
            match terrain_of(c) {
                Terrain::OffBoard => true,
                _ if c & PIECE_MASK != 0 => side_of(c) == Side::Defenders,
                Terrain::Throne | Terrain::Corner => false,
                _ => inside.contains(n),
            }
        };
        wall.iter().all(|sq| {
            [Dir::Up, Dir::Right]
                .into_iter()
                .all(|d| safe(sq.step(d)) || safe(sq.step(d.opposite())))
        })
    }

    /// No defender can reach an edge square through empty or defender-held squares.
    pub(super) fn encircled(&self) -> bool {
        let defenders = &self.pieces[Side::Defenders.index()];
        if !defenders.and(&self.variant.edge).is_empty() {
            return false;
        }
        // Usually some defender has a line of plain empty squares to the edge, which the row and
        // file masks show at once; then some other line open past defenders; only failing both,
        // the search below.
        if defenders.iter().any(|sq| self.open_lines(sq) > 0) {
            return false;
        }
        // Usually some defender has an open line to the edge: no need to search.
        let open_line = |sq: Square| {
            Dir::ALL.iter().any(|&d| {
                let mut at = sq.step(d);
                loop {
                    let c = self.cells[at.index()];
                    if terrain_of(c) == Terrain::OffBoard {
                        return true;
                    }
                    if c & PIECE_MASK != 0 && side_of(c) == Side::Attackers {
                        return false;
                    }
                    at = at.step(d);
                }
            })
        };
        if defenders.iter().any(open_line) {
            return false;
        }
        // Grow the defenders' region a square at a time through every square not held by an
        // attacker, until it reaches the edge or stops growing.
        let v = self.variant;
        let open = v.board.minus(&self.pieces[Side::Attackers.index()]);
        let mut region = *defenders;
        loop {
            let grown = region
                .or(&region.shifted(1))
                .or(&region.shifted(-1))
                .or(&region.shifted(STRIDE))
                .or(&region.shifted(-STRIDE))
                .and(&open);
            if !grown.and(&v.edge).is_empty() {
                return false;
            }
            if grown == region {
                return true;
            }
            region = grown;
        }
    }
}

//! Checking a move written by a player: the legal move it describes, or why there is none.

use super::error::IllegalMove;
use super::moves::{Move, MoveKind};
use super::piece::{Piece, Role, PIECE_MASK};
use super::position::Position;
use super::square::{Dir, Square};
use super::variant::{Terrain, Throne, PASS, STOP, TERRAIN_SHIFT};

impl Position {
    // ----- checking a move, with the reason when it is illegal -----

    /// Finds the legal move that `m` describes, or says why there is none. A Cavalry move written
    /// without its corner gets the corner of a legal path; a jump may be written as a slide.
    pub fn check(&self, m: Move) -> Result<Move, IllegalMove> {
        let v = self.variant;
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        for sq in [m.from, m.to] {
            if !v.contains(sq) {
                return Err(IllegalMove::OffBoard { at: sq });
            }
        }
        let Some(piece) = self.piece_at(m.from) else {
            return Err(IllegalMove::NoPiece { at: m.from });
        };
        if piece.side != self.turn {
            return Err(IllegalMove::NotYourPiece {
                at: m.from,
                turn: v.turn_phrase(self.turn),
            });
        }
        if let Some(chain) = self.chain {
            if m.from != chain {
                return Err(IllegalMove::ChainPiece { at: chain });
            }
        }
        if let Some(slot) = self.slot {
            if !self.movers().contains(m.from) {
                return Err(IllegalMove::WrongSlot { slot });
            }
        }
        if m.from == m.to {
            return Err(IllegalMove::SameSquare);
        }
        let found = match m.kind {
            MoveKind::Turn { corner } => self
                .check_turn(piece, m.from, corner, m.to)
                .map(|m| self.canonical_turn(m)),
            _ => self.check_line(piece, m.from, m.to),
        }?;
        if m.kind == MoveKind::Jump && found.kind != MoveKind::Jump {
            return Err(IllegalMove::NotAJump);
        }
        if self.chain.is_some() && !self.continues_chain(found) {
            return Err(IllegalMove::ContinuationMustCapture);
        }
        Ok(found)
    }

    pub(super) fn check_line(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
    ) -> Result<Move, IllegalMove> {
        let Some((dir, distance)) = from.line_to(to) else {
            if piece.role == Role::Cavalry {
                // Written without its corner: either corner of a legal path will do.
                let corners = [
                    Square::new(from.file(), to.rank()),
                    Square::new(to.file(), from.rank()),
                ];
                let mut first_error = None;
                for corner in corners.into_iter().flatten() {
                    match self.check_turn(piece, from, corner, to) {
                        Ok(m) => return Ok(self.canonical_turn(m)),
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
                return Err(first_error.unwrap_or(IllegalMove::BadTurn));
            }
            return Err(IllegalMove::NotStraight);
        };
        if distance == 2 && piece.role == Role::Commander {
            let over = from.step(dir);
            let c = self.cells[over.index()];
            if c & PIECE_MASK != 0 {
                let Some(rule) = self.variant.rules.jumps else {
                    return Err(IllegalMove::PathBlocked { at: over });
                };
                self.jumpable(c, piece.side, rule)?;
                self.check_destination(piece, to)?;
                return Ok(Move::jump(from, to));
            }
        }
        self.check_path(piece, from, dir, distance)?;
        let target = self.cells[to.index()];
        if target & PIECE_MASK != 0
            && piece.role == Role::Standard
            && self.replaceable(target, piece.side)
        {
            return Ok(Move::slide(from, to));
        }
        self.check_destination(piece, to)?;
        Ok(Move::slide(from, to))
    }

    /// The squares strictly between `from` and `distance` steps along `dir` must be passable.
    pub(super) fn check_path(
        &self,
        piece: Piece,
        from: Square,
        dir: Dir,
        distance: u8,
    ) -> Result<(), IllegalMove> {
        let mut sq = from;
        for _ in 1..distance {
            sq = sq.step(dir);
            let c = self.cells[sq.index()];
            if c & PIECE_MASK != 0 {
                return Err(IllegalMove::PathBlocked { at: sq });
            }
            if self.variant.access(piece.role)[(c >> TERRAIN_SHIFT) as usize] & PASS == 0 {
                return Err(self.barred(piece, sq));
            }
        }
        Ok(())
    }

    pub(super) fn check_destination(&self, piece: Piece, to: Square) -> Result<(), IllegalMove> {
        let c = self.cells[to.index()];
        if c & PIECE_MASK != 0 {
            return Err(IllegalMove::Occupied { at: to });
        }
        if self.variant.access(piece.role)[(c >> TERRAIN_SHIFT) as usize] & STOP == 0 {
            return Err(self.barred(piece, to));
        }
        Ok(())
    }

    /// Why `piece` may not pass or stop on `sq`.
    pub(super) fn barred(&self, piece: Piece, sq: Square) -> IllegalMove {
        let name = self.variant.role_name(piece.role);
        match self.variant.terrain(sq) {
            Terrain::Throne if self.variant.rules.throne == Some(Throne::Cartier) => {
                IllegalMove::ThroneBarred { at: sq }
            }
            t @ (Terrain::Throne | Terrain::Corner) => IllegalMove::KingOnly {
                at: sq,
                square: t.name(),
            },
            Terrain::Water => IllegalMove::Water { at: sq },
            Terrain::Bridge => IllegalMove::RiverBarred { piece: name },
            t @ (Terrain::Hill | Terrain::Haven) => IllegalMove::NoStopping {
                piece: name,
                square: t.name(),
            },
            Terrain::Plain | Terrain::OffBoard => IllegalMove::OffBoard { at: sq },
        }
    }

    pub(super) fn check_turn(
        &self,
        piece: Piece,
        from: Square,
        corner: Square,
        to: Square,
    ) -> Result<Move, IllegalMove> {
        if piece.role != Role::Cavalry {
            return Err(IllegalMove::NotCavalry {
                at: from,
                piece: self.variant.role_phrase(piece.role),
            });
        }
        if !self.variant.contains(corner) {
            return Err(IllegalMove::OffBoard { at: corner });
        }
        let (Some((dir, distance)), Some((step, 1))) = (from.line_to(corner), corner.line_to(to))
        else {
            return Err(IllegalMove::BadTurn);
        };
        if step == dir || step == dir.opposite() {
            return Err(IllegalMove::BadTurn);
        }
        self.check_path(piece, from, dir, distance)?;
        self.check_destination(piece, corner)?;
        self.check_destination(piece, to)?;
        Ok(Move::turn(from, corner, to))
    }

    /// The form of a Cavalry turn that the move list uses (see `cavalry_turns`).
    pub(super) fn canonical_turn(&self, m: Move) -> Move {
        let mut found = m;
        self.piece_moves(m.from, &mut |c| {
            if c.to == m.to && matches!(c.kind, MoveKind::Turn { .. }) {
                found = c;
                return false;
            }
            true
        });
        found
    }
}

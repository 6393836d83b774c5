//! Move generation: every legal move of a position, fast, and whether a side has one.

use super::cell::{role_of, side_of, terrain_of};
use super::error::IllegalMove;
use super::moves::Move;
use super::piece::{Role, Side, PIECE_MASK, ROLE_MASK, SIDE_BIT};
use super::position::Position;
use super::square::{Dir, Square};
use super::variant::{Escape, Jumps, Terrain, PASS, STOP, TERRAIN_SHIFT};

impl Position {
    /// Every legal move. During a berserk chain: the chain piece's capturing moves (and the king's
    /// run to the edge); ending the turn instead is [`Position::end_turn`].
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Like [`Position::legal_moves`], into a buffer that is cleared first.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        if let Some(sq) = self.chain {
            self.piece_moves(sq, &mut |m| {
                if self.continues_chain(m) {
                    moves.push(m);
                }
                true
            });
            return;
        }
        for from in self.movers().iter() {
            let code = self.cells[from.index()];
            match role_of(code) {
                Some(Role::Standard | Role::Cavalry) | None => {
                    self.piece_moves(from, &mut |m| {
                        moves.push(m);
                        true
                    });
                }
                Some(role) => {
                    let access = self.variant.access(role);
                    moves.reserve(64);
                    self.fast_slides(from, role, access, moves);
                    if role == Role::Commander {
                        self.jumps(from, side_of(code), access, &mut |m| {
                            moves.push(m);
                            true
                        });
                    }
                }
            }
        }
    }

    /// The slides of a piece that moves like a rook, found with the row and file masks: the run
    /// of plain empty squares in each direction comes from one bit scan, and its moves are written
    /// sixteen at a time without a branch per square. A special square at the end of a run (a
    /// throne that may be crossed, a bridge, a Hill) is walked square by square from there.
    #[inline(always)]
    pub(super) fn fast_slides(
        &self,
        from: Square,
        role: Role,
        access: &[u8; 8],
        moves: &mut Vec<Move>,
    ) {
        let (file, rank) = (from.file() as u32, from.rank() as u32);
        let row = self.rows[rank as usize + 1];
        let col = self.cols[file as usize];
        let walks = self.variant.walks_specials[role as usize];
        // Written out for each direction: a loop over the four keeps its state on the stack.
        let up = (col >> (rank + 2)).trailing_zeros();
        self.slide_run(from, Dir::Up, up, walks, access, moves);
        let right = (row >> (file + 2)).trailing_zeros();
        self.slide_run(from, Dir::Right, right, walks, access, moves);
        let down = (col << (31 - rank)).leading_zeros();
        self.slide_run(from, Dir::Down, down, walks, access, moves);
        let left = (row << (31 - file)).leading_zeros();
        self.slide_run(from, Dir::Left, left, walks, access, moves);
    }

    #[inline(always)]
    pub(super) fn slide_run(
        &self,
        from: Square,
        dir: Dir,
        run: u32,
        walks: bool,
        access: &[u8; 8],
        moves: &mut Vec<Move>,
    ) {
        push_run(moves, from, dir, run as usize);
        if !walks {
            return;
        }
        let mut sq = from.step_by(dir, run as i32 + 1);
        let c = self.cells[sq.index()];
        if c & PIECE_MASK != 0 || terrain_of(c) == Terrain::OffBoard {
            return;
        }
        // A special square: the square-by-square walk decides.
        loop {
            let c = self.cells[sq.index()];
            if c & PIECE_MASK != 0 {
                break;
            }
            let a = access[(c >> TERRAIN_SHIFT) as usize];
            if a & STOP != 0 {
                moves.push(Move::slide(from, sq));
            }
            if a & PASS == 0 {
                break;
            }
            sq = sq.step(dir);
        }
    }

    /// Whether the side to move has any move at all (early exit).
    pub(super) fn has_move(&self) -> bool {
        if let Some(sq) = self.chain {
            return self.has_continuation(sq);
        }
        self.movers()
            .iter()
            .any(|from| !self.piece_moves(from, &mut |_| false))
    }

    /// Calls `emit` with every move of the piece on `from`, ignoring whose turn it is. Stops and
    /// returns false as soon as `emit` returns false.
    #[inline(always)]
    pub(super) fn piece_moves(&self, from: Square, emit: &mut impl FnMut(Move) -> bool) -> bool {
        let code = self.cells[from.index()];
        let Some(role) = role_of(code) else {
            return true;
        };
        let side = side_of(code);
        let access = self.variant.access(role);
        let special = matches!(role, Role::Standard | Role::Cavalry);
        for dir in Dir::ALL {
            let mut sq = from.step(dir);
            loop {
                let c = self.cells[sq.index()];
                // An empty plain square: every piece passes and stops there.
                if c == 0 && !special {
                    if !emit(Move::slide(from, sq)) {
                        return false;
                    }
                    sq = sq.step(dir);
                    continue;
                }
                if c & PIECE_MASK != 0 {
                    if role == Role::Standard
                        && self.replaceable(c, side)
                        && !emit(Move::slide(from, sq))
                    {
                        return false;
                    }
                    break;
                }
                let a = access[(c >> TERRAIN_SHIFT) as usize];
                if a & STOP != 0 {
                    if !emit(Move::slide(from, sq)) {
                        return false;
                    }
                    if role == Role::Cavalry && !self.cavalry_turns(from, sq, dir, access, emit) {
                        return false;
                    }
                }
                if a & PASS == 0 {
                    break;
                }
                sq = sq.step(dir);
            }
        }
        if role == Role::Commander {
            return self.jumps(from, side, access, emit);
        }
        true
    }

    /// A commander's short jumps.
    #[inline]
    pub(super) fn jumps(
        &self,
        from: Square,
        side: Side,
        access: &[u8; 8],
        emit: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        let Some(rule) = self.variant.rules.jumps else {
            return true;
        };
        for dir in Dir::ALL {
            let over = from.step(dir);
            if self.jumpable(self.cells[over.index()], side, rule).is_ok() {
                let to = over.step(dir);
                let c = self.cells[to.index()];
                if c & PIECE_MASK == 0
                    && access[(c >> TERRAIN_SHIFT) as usize] & STOP != 0
                    && !emit(Move::jump(from, to))
                {
                    return false;
                }
            }
        }
        true
    }

    /// Cavalry's one step at right angles from `corner`, reached from `from` going `dir`.
    #[inline]
    pub(super) fn cavalry_turns(
        &self,
        from: Square,
        corner: Square,
        dir: Dir,
        access: &[u8; 8],
        emit: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        let stop = |sq: Square| {
            let c = self.cells[sq.index()];
            c & PIECE_MASK == 0 && access[(c >> TERRAIN_SHIFT) as usize] & STOP != 0
        };
        for side_dir in dir.perpendicular() {
            let to = corner.step(side_dir);
            if !stop(to) {
                continue;
            }
            // A diagonal neighbour is reachable both ways round; keep one move for it, turning
            // after the rank step (up or down) when that way is open.
            let horizontal = matches!(dir, Dir::Left | Dir::Right);
            if horizontal && corner == from.step(dir) && stop(from.step(side_dir)) {
                continue;
            }
            if !emit(Move::turn(from, corner, to)) {
                return false;
            }
        }
        true
    }

    /// Whether a Standard of `side` may take the piece in cell `c` by moving onto it.
    #[inline]
    pub(super) fn replaceable(&self, c: u8, side: Side) -> bool {
        role_of(c) == Some(Role::Cavalry)
            && side_of(c) != side
            && matches!(terrain_of(c), Terrain::Hill | Terrain::Haven)
    }

    /// Whether a commander of `side` may jump the piece in cell `c`.
    pub(super) fn jumpable(&self, c: u8, side: Side, rule: Jumps) -> Result<(), IllegalMove> {
        match role_of(c) {
            None => Err(IllegalMove::NotStraight),
            Some(Role::King) => Err(IllegalMove::JumpOverKing),
            Some(Role::Commander) => Err(IllegalMove::JumpOverCommander),
            Some(_) if rule == Jumps::EnemiesOnly && side_of(c) == side => {
                Err(IllegalMove::JumpOverFriend)
            }
            Some(_) => Ok(()),
        }
    }

    /// Whether `m`, played by the chain's piece, may continue the chain.
    #[inline]
    pub(super) fn continues_chain(&self, m: Move) -> bool {
        let code = self.cells[m.from.index()];
        if role_of(code) == Some(Role::King)
            && self.variant.rules.escape == Escape::Edge
            && self.variant.edge.contains(m.to)
        {
            return true;
        }
        // Most squares have no enemy beside them; only those need the full capture test.
        let enemy = (code & SIDE_BIT) ^ SIDE_BIT;
        let beside_enemy = Dir::ALL.iter().any(|d| {
            let c = self.cells[m.to.step(*d).index()];
            c & ROLE_MASK != 0 && c & SIDE_BIT == enemy
        });
        beside_enemy && super::capture::captures_any(self.variant, &self.cells, m)
    }

    pub(super) fn has_continuation(&self, sq: Square) -> bool {
        let code = self.cells[sq.index()];
        let simple = matches!(role_of(code), Some(Role::Man | Role::King | Role::VMan))
            && !self.variant.walks_specials[(code & ROLE_MASK) as usize];
        if !simple {
            return !self.piece_moves(sq, &mut |m| !self.continues_chain(m));
        }
        // Plain slides only: the runs come from the masks, as in `fast_slides`.
        let (file, rank) = (sq.file() as u32, sq.rank() as u32);
        let row = self.rows[rank as usize + 1];
        let col = self.cols[file as usize];
        let runs = [
            (Dir::Up, (col >> (rank + 2)).trailing_zeros()),
            (Dir::Right, (row >> (file + 2)).trailing_zeros()),
            (Dir::Down, (col << (31 - rank)).leading_zeros()),
            (Dir::Left, (row << (31 - file)).leading_zeros()),
        ];
        runs.iter().any(|&(dir, run)| {
            (1..=run as i32).any(|k| self.continues_chain(Move::slide(sq, sq.step_by(dir, k))))
        })
    }
}

/// Appends the slides from `from` over the next `run` squares in `dir`.
#[inline(always)]
fn push_run(moves: &mut Vec<Move>, from: Square, dir: Dir, run: usize) {
    const BATCH: usize = 8;
    if run > BATCH {
        moves.extend((1..=run as i32).map(|k| Move::slide(from, from.step_by(dir, k))));
        return;
    }
    let len = moves.len();
    let spare = &mut moves.spare_capacity_mut()[..BATCH];
    // Writing a whole batch whatever the run's length costs less than a branch per square.
    let step = dir.offset() as u16;
    let mut to = from.index() as u16;
    for slot in spare.iter_mut() {
        to = to.wrapping_add(step);
        slot.write(Move::slide(from, Square::from_index(to as usize)));
    }
    // SAFETY: the loop above initialised the first BATCH spare slots (the caller reserved them),
    // and `run` <= BATCH of them become part of the vector.
    unsafe { moves.set_len(len + run) };
}

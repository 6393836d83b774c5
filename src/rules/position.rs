//! A legal position: the board, whose turn it is, and the turn's state.

use std::fmt;

use super::cell::{role_of, side_of, terrain_of};
use super::error::{IllegalMove, SetupError};
use super::moves::{Captures, Move, MoveKind, Outcome, Reason, Slot};
use super::piece::{Piece, Role, Side, PIECE_MASK, ROLE_MASK, SIDE_BIT};
use super::square::{Dir, Square, SquareSet, GRID, STRIDE};
use super::variant::{
    Escape, Jumps, Terrain, Throne, Variant, FILE_MASKS, PASS, RANK_MASKS, STOP, TERRAIN_SHIFT,
};

/// Any arrangement of pieces with a side to move, maybe nonsense. [`Position::from_setup`] checks it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub files: u8,
    pub ranks: u8,
    pub pieces: Vec<(Square, Piece)>,
    pub turn: Side,
    /// The piece of an open berserk chain.
    pub chain: Option<Square>,
    /// Save the Standard: the slot due (the defending slot when not given).
    pub slot: Option<Slot>,
}

/// A position that can arise in its variant. Code that holds one never checks it again.
#[derive(Clone)]
pub struct Position {
    variant: &'static Variant,
    /// Terrain in bits 4..7, the piece code in bits 0..3.
    cells: [u8; GRID],
    pieces: [SquareSet; 2],
    /// Squares that stop a slide over plain empty squares, by row and by file (see `Variant`).
    rows: [u32; RANK_MASKS],
    cols: [u32; FILE_MASKS],
    /// Where each side's king or Standard stands.
    royal: [Option<Square>; 2],
    turn: Side,
    chain: Option<Square>,
    slot: Option<Slot>,
    hash: u64,
    outcome: Option<Outcome>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.turn == other.turn
            && self.chain == other.chain
            && self.slot == other.slot
            && self.cells == other.cells
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Position({}, {:?} to move)", self.variant.id, self.turn)?;
        for r in (0..self.variant.ranks).rev() {
            for fl in 0..self.variant.files {
                let sq = Square::new(fl, r).unwrap();
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None => match self.variant.terrain(sq) {
                        Terrain::Plain => '.',
                        Terrain::Water => '~',
                        Terrain::Bridge => '=',
                        _ => '+',
                    },
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A Zobrist-style key for a piece on a square, computed instead of tabled.
#[inline(always)]
fn key(sq: Square, code: u8) -> u64 {
    splitmix(((sq.index() as u64) << 4) | code as u64)
}

#[inline(always)]
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const TURN_KEY: u64 = 0x5b1f_3c2e_9a47_d1c3;
const SLOT_KEY: u64 = 0x2f6e_a5d4_17c9_8b03;
const CHAIN_KEY: u64 = 0x71d3_0b8e_c2a5_4f69;

impl Position {
    /// The start position of a variant.
    pub fn start(variant: &'static Variant) -> Position {
        // Read once per variant, then copied.
        variant
            .start
            .get_or_init(|| {
                let setup = super::setup::parse_setup(variant.setup)
                    .expect("every variant's setup is a valid position string");
                Position::from_setup(variant, &setup).expect("every variant's setup is legal")
            })
            .clone()
    }

    /// Checks a setup against the variant's rules and returns the position, or what is wrong.
    pub fn from_setup(variant: &'static Variant, setup: &Setup) -> Result<Position, SetupError> {
        if setup.files != variant.files || setup.ranks != variant.ranks {
            return Err(SetupError::Size {
                files: setup.files as usize,
                ranks: setup.ranks as usize,
                want_files: variant.files,
                want_ranks: variant.ranks,
            });
        }
        let mut pos = Position {
            variant,
            cells: variant.empty_cells,
            pieces: [SquareSet::EMPTY; 2],
            rows: variant.empty_rows,
            cols: variant.empty_cols,
            royal: [None; 2],
            turn: setup.turn,
            chain: None,
            slot: None,
            hash: 0,
            outcome: None,
        };
        for &(sq, piece) in &setup.pieces {
            if !variant.contains(sq) {
                return Err(SetupError::Syntax(format!("{sq} is not on this board")));
            }
            if !variant.roles().contains(&piece.role) {
                return Err(SetupError::RoleNotInVariant {
                    at: sq,
                    piece: variant.role_name(piece.role),
                });
            }
            if pos.cells[sq.index()] & PIECE_MASK != 0 {
                return Err(SetupError::Syntax(format!("{sq} holds two pieces")));
            }
            let terrain = variant.terrain(sq);
            // The king starts on Cartier's throne, though he may never come back to it.
            let king_on_throne = piece.role == Role::King && terrain == Terrain::Throne;
            if variant.access(piece.role)[terrain as usize] & STOP == 0 && !king_on_throne {
                return Err(SetupError::CannotStand {
                    at: sq,
                    piece: variant.role_phrase(piece.role),
                    square: terrain.name(),
                });
            }
            if piece.role == Role::King && piece.side != Side::Defenders {
                return Err(SetupError::WrongSideRoyal { at: sq });
            }
            if matches!(piece.role, Role::King | Role::Standard) {
                if pos.royal[piece.side.index()].is_some() {
                    return Err(SetupError::TwoRoyals {
                        piece: variant.role_name(piece.role),
                    });
                }
                pos.royal[piece.side.index()] = Some(sq);
            }
            pos.put(sq, piece.code());
        }
        if pos.turn == Side::Attackers {
            pos.hash ^= TURN_KEY;
        }
        if variant.rules.armies {
            pos.set_slot(setup.slot.unwrap_or(Slot::Defending));
        } else if setup.slot.is_some() {
            return Err(SetupError::BadField("slot".into()));
        }
        if let Some(sq) = setup.chain {
            let ok = variant.rules.berserk
                && pos.piece_at(sq).is_some_and(|p| p.side == pos.turn)
                && pos.has_continuation(sq);
            if !ok {
                return Err(SetupError::BadChain(sq));
            }
            pos.set_chain(Some(sq));
        }
        pos.outcome = pos.decided();
        if pos.outcome.is_none() {
            // A slot with nothing to move is skipped, as after a move.
            match pos.slot {
                Some(Slot::Defending) if !pos.has_move() => {
                    pos.set_slot(Slot::Attacking);
                    if !pos.has_move() {
                        pos.set_slot(Slot::Defending);
                    }
                }
                Some(Slot::Attacking) if !pos.has_move() => {
                    pos.settle_slot(pos.turn, Slot::Attacking)
                }
                _ => {}
            }
            pos.outcome = pos.stalled();
        }
        Ok(pos)
    }

    /// The raw arrangement, for writing out.
    pub fn to_setup(&self) -> Setup {
        let mut pieces = Vec::new();
        for side in Side::BOTH {
            for sq in self.pieces[side.index()].iter() {
                pieces.push((sq, Piece::from_code(self.cells[sq.index()]).unwrap()));
            }
        }
        pieces.sort_by_key(|(sq, _)| *sq);
        Setup {
            files: self.variant.files,
            ranks: self.variant.ranks,
            pieces,
            turn: self.turn,
            chain: self.chain,
            slot: self.slot,
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The piece whose berserk chain is open, if any: the turn continues with it or ends.
    pub fn chain(&self) -> Option<Square> {
        self.chain
    }

    /// Save the Standard: the slot due.
    pub fn slot(&self) -> Option<Slot> {
        self.slot
    }

    /// A key of the board, the side to move and the turn state, for repetition.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The result, if the position decides the game. Repetition and agreement are the game's to
    /// judge: see [`crate::rules::Game`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if !self.variant.contains(sq) {
            return None;
        }
        Piece::from_code(self.cells[sq.index()])
    }

    /// The king (tafl) or the Standard of a side, if on the board.
    pub fn royal(&self, side: Side) -> Option<Square> {
        self.royal[side.index()]
    }

    /// How many pieces a side has.
    pub fn count(&self, side: Side) -> usize {
        self.pieces[side.index()].len()
    }

    /// Every piece of a side with its square.
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces[side.index()]
            .iter()
            .map(|sq| (sq, Piece::from_code(self.cells[sq.index()]).unwrap()))
    }

    // ----- board edits, keeping the sets and the hash in step -----

    #[inline(always)]
    fn put(&mut self, sq: Square, code: u8) {
        let i = sq.index();
        self.cells[i] = (self.cells[i] & !PIECE_MASK) | code;
        self.rows[sq.rank() as usize + 1] |= 1 << (sq.file() + 1);
        self.cols[sq.file() as usize] |= 1 << (sq.rank() + 1);
        self.pieces[side_of(code).index()].insert(sq);
        self.hash ^= key(sq, code);
    }

    #[inline(always)]
    fn take(&mut self, sq: Square) -> u8 {
        let i = sq.index();
        let code = self.cells[i] & PIECE_MASK;
        self.cells[i] &= !PIECE_MASK;
        if self.cells[i] == 0 {
            self.rows[sq.rank() as usize + 1] &= !(1 << (sq.file() + 1));
            self.cols[sq.file() as usize] &= !(1 << (sq.rank() + 1));
        }
        self.pieces[side_of(code).index()].remove(sq);
        self.hash ^= key(sq, code);
        code
    }

    fn set_chain(&mut self, chain: Option<Square>) {
        if let Some(old) = self.chain {
            self.hash ^= CHAIN_KEY ^ key(old, 0);
        }
        if let Some(new) = chain {
            self.hash ^= CHAIN_KEY ^ key(new, 0);
        }
        self.chain = chain;
    }

    fn set_slot(&mut self, slot: Slot) {
        if self.slot == Some(Slot::Attacking) {
            self.hash ^= SLOT_KEY;
        }
        if slot == Slot::Attacking {
            self.hash ^= SLOT_KEY;
        }
        self.slot = Some(slot);
    }

    fn set_turn(&mut self, side: Side) {
        if side != self.turn {
            self.hash ^= TURN_KEY;
            self.turn = side;
        }
    }

    // ----- move generation -----

    /// The pieces that may move now: the side to move's, narrowed to the slot's field in Save the
    /// Standard and to the chain's piece during a berserk chain.
    fn movers(&self) -> SquareSet {
        let own = &self.pieces[self.turn.index()];
        match self.slot {
            Some(Slot::Defending) => own.and(&self.variant.home[self.turn.index()]),
            Some(Slot::Attacking) => own.and(&self.variant.away[self.turn.index()]),
            None => *own,
        }
    }

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
    fn fast_slides(&self, from: Square, role: Role, access: &[u8; 8], moves: &mut Vec<Move>) {
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
    fn slide_run(
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
    fn has_move(&self) -> bool {
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
    fn piece_moves(&self, from: Square, emit: &mut impl FnMut(Move) -> bool) -> bool {
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
    fn jumps(
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
    fn cavalry_turns(
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
    fn replaceable(&self, c: u8, side: Side) -> bool {
        role_of(c) == Some(Role::Cavalry)
            && side_of(c) != side
            && matches!(terrain_of(c), Terrain::Hill | Terrain::Haven)
    }

    /// Whether a commander of `side` may jump the piece in cell `c`.
    fn jumpable(&self, c: u8, side: Side, rule: Jumps) -> Result<(), IllegalMove> {
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
    fn continues_chain(&self, m: Move) -> bool {
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

    fn has_continuation(&self, sq: Square) -> bool {
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

    // ----- playing -----

    /// Checks a move and plays it: the new position and the squares captured.
    pub fn play(&self, m: Move) -> Result<(Position, Captures), IllegalMove> {
        let m = self.check(m)?;
        let mut next = self.clone();
        let captures = next.play_unchecked(m);
        Ok((next, captures))
    }

    /// Plays a move from [`Position::legal_moves`] in place. A move that is not legal leaves the
    /// position in an unspecified (but memory-safe) state.
    pub fn play_unchecked(&mut self, m: Move) -> Captures {
        let mover = self.turn;
        let captures = self.apply(m);
        self.outcome = self.decided();
        if self.outcome.is_some() {
            // The game is over; the move was made, so the turn passes, as after any move.
            self.set_chain(None);
            self.set_turn(mover.other());
            if self.slot.is_some() {
                self.set_slot(Slot::Defending);
            }
            return captures;
        }
        if self.variant.rules.berserk && !captures.is_empty() && self.has_continuation(m.to) {
            self.set_chain(Some(m.to));
        } else {
            self.set_chain(None);
            self.pass_turn(mover);
        }
        self.outcome = self.stalled();
        captures
    }

    /// Ends an open berserk chain: the turn passes.
    pub fn end_turn(&self) -> Result<Position, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.chain.is_none() {
            return Err(IllegalMove::NoOpenChain);
        }
        let mut next = self.clone();
        next.set_chain(None);
        next.pass_turn(self.turn);
        next.outcome = next.stalled();
        Ok(next)
    }

    /// After `mover`'s move: the next slot, or the other side.
    fn pass_turn(&mut self, mover: Side) {
        match self.slot {
            Some(slot) => self.settle_slot(mover, slot),
            None => self.set_turn(mover.other()),
        }
    }

    /// Save the Standard: after `side` used `slot`, finds the next slot with a legal move. A side
    /// with no move in either slot is left to move in its defending slot and loses.
    fn settle_slot(&mut self, side: Side, slot: Slot) {
        if slot == Slot::Defending {
            self.set_turn(side);
            self.set_slot(Slot::Attacking);
            if self.has_move() {
                return;
            }
        }
        let next = side.other();
        self.set_turn(next);
        self.set_slot(Slot::Defending);
        if self.has_move() {
            return;
        }
        self.set_slot(Slot::Attacking);
        if self.has_move() {
            return;
        }
        self.set_slot(Slot::Defending);
    }

    /// What `m` would capture, the board left as it is.
    #[inline]
    pub(crate) fn captures_of(&self, m: Move) -> Captures {
        super::capture::captures(self.variant, &self.cells, m)
    }

    /// Moves the piece and makes the captures; nothing else.
    #[inline]
    fn apply(&mut self, m: Move) -> Captures {
        let captures = self.captures_of(m);
        if self.cells[m.to.index()] & PIECE_MASK != 0 {
            // A Standard takes Cavalry by replacement (listed among the captures).
            self.take(m.to);
        }
        let code = self.take(m.from);
        self.put(m.to, code);
        let side = side_of(code);
        if matches!(role_of(code), Some(Role::King | Role::Standard)) {
            self.royal[side.index()] = Some(m.to);
        }
        for sq in captures.iter() {
            if sq == m.to {
                continue;
            }
            let victim = self.take(sq);
            match role_of(victim) {
                Some(Role::VMan) => self.put(sq, victim ^ SIDE_BIT),
                Some(Role::King | Role::Standard) => self.royal[side.other().index()] = None,
                _ => {}
            }
        }
        captures
    }

    /// A result that the board shows at once: a royal piece captured or home.
    fn decided(&self) -> Option<Outcome> {
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
    fn stalled(&self) -> Option<Outcome> {
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
            return Some(Outcome::win(self.turn.other(), Reason::NoMoves));
        }
        None
    }

    /// Copenhagen's exit fort, after a defenders' move: the king stands on the edge with room to
    /// move, in a region of empty squares that defenders close off from every attacker (and from
    /// the corners), and each of those defenders is safe from capture: on each line through it,
    /// one neighbour is off the board, a defender, or the fort's inside (not a hostile empty throne).
    fn exit_fort(&self) -> bool {
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
    fn encircled(&self) -> bool {
        let defenders = &self.pieces[Side::Defenders.index()];
        if !defenders.and(&self.variant.edge).is_empty() {
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

    fn check_line(&self, piece: Piece, from: Square, to: Square) -> Result<Move, IllegalMove> {
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
    fn check_path(
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

    fn check_destination(&self, piece: Piece, to: Square) -> Result<(), IllegalMove> {
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
    fn barred(&self, piece: Piece, sq: Square) -> IllegalMove {
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

    fn check_turn(
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
    fn canonical_turn(&self, m: Move) -> Move {
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

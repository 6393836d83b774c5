//! A legal position: the board, whose turn it is, and the turn's state.

use std::fmt;

use super::cell::{role_of, side_of};
use super::error::{IllegalMove, SetupError};
use super::moves::{Captures, Move, Outcome, Slot};
use super::piece::{Piece, Role, Side, PIECE_MASK, SIDE_BIT};
use super::square::{Square, SquareSet, FOLDED, GRID};
use super::variant::{Terrain, Variant, FILE_MASKS, RANK_MASKS, STOP};

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
    pub(super) variant: &'static Variant,
    /// Terrain in bits 4..7, the piece code in bits 0..3.
    pub(super) cells: [u8; GRID],
    pub(super) pieces: [SquareSet; 2],
    /// Squares that stop a slide over plain empty squares, by row and by file (see `Variant`).
    pub(super) rows: [u32; RANK_MASKS],
    pub(super) cols: [u32; FILE_MASKS],
    /// Where each side's king or Standard stands.
    pub(super) royal: [Option<Square>; 2],
    /// How many pieces of each cell code (role and side) stand on the board: material is read
    /// from them, not counted square by square.
    pub(super) counts: [u8; 16],
    /// How many pieces stand on each class of square by [`super::fold`], by [`Placed`] kind:
    /// the evaluation's square tables are read from them, not square by square.
    pub(super) placed: [[u8; FOLDED]; 3],
    pub(super) turn: Side,
    pub(super) chain: Option<Square>,
    pub(super) slot: Option<Slot>,
    pub(super) hash: u64,
    pub(super) outcome: Option<Outcome>,
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

/// The kinds of piece counted by class of square ([`Position::placed`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Placed {
    /// Every piece of the attackers.
    Attackers = 0,
    /// The defenders' pieces but their royal one.
    Defenders = 1,
    /// The defenders' king or Standard.
    DefendersRoyal = 2,
}

/// The [`Placed`] kind of each cell code.
const PLACED: [u8; 16] = {
    let mut kinds = [0; 16];
    let mut code = 0;
    while code < 16 {
        let royal = code & 0b111 == Role::King as usize || code & 0b111 == Role::Standard as usize;
        kinds[code] = if code & SIDE_BIT as usize == 0 {
            Placed::Attackers as u8
        } else if royal {
            Placed::DefendersRoyal as u8
        } else {
            Placed::Defenders as u8
        };
        code += 1;
    }
    kinds
};

/// A Zobrist-style key for a piece on a square, computed instead of tabled.
#[inline(always)]
pub(super) fn key(sq: Square, code: u8) -> u64 {
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
            counts: [0; 16],
            placed: [[0; FOLDED]; 3],
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

    /// How many pieces of a role a side has.
    #[inline]
    pub fn count_of(&self, piece: Piece) -> u32 {
        u32::from(self.counts[piece.code() as usize])
    }

    /// How many pieces of a kind stand on each class of square by [`super::fold`].
    #[inline]
    pub fn placed(&self, kind: Placed) -> &[u8; FOLDED] {
        &self.placed[kind as usize]
    }

    /// How many pieces a side has: its eight counts by role (cell codes 0..8 for the attackers,
    /// 8..16 for the defenders), summed at once as the bytes of one word.
    #[inline]
    pub fn count(&self, side: Side) -> usize {
        let at = side.index() * 8;
        let counts = u64::from_le_bytes(self.counts[at..at + 8].try_into().unwrap());
        // Every byte's sum lands in the top byte; a side has fewer than 256 pieces.
        (counts.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    /// Every piece of a side with its square.
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces[side.index()]
            .iter()
            .map(|sq| (sq, Piece::from_code(self.cells[sq.index()]).unwrap()))
    }

    // ----- board edits, keeping the sets and the hash in step -----

    #[inline(always)]
    pub(super) fn put(&mut self, sq: Square, code: u8) {
        let i = sq.index();
        self.cells[i] = (self.cells[i] & !PIECE_MASK) | code;
        self.rows[sq.rank() as usize + 1] |= 1 << (sq.file() + 1);
        self.cols[sq.file() as usize] |= 1 << (sq.rank() + 1);
        self.pieces[side_of(code).index()].insert(sq);
        self.counts[code as usize] += 1;
        self.placed[PLACED[code as usize] as usize][self.variant.folds[i] as usize] += 1;
        self.hash ^= key(sq, code);
    }

    #[inline(always)]
    pub(super) fn take(&mut self, sq: Square) -> u8 {
        let i = sq.index();
        let code = self.cells[i] & PIECE_MASK;
        self.cells[i] &= !PIECE_MASK;
        if self.cells[i] == 0 {
            self.rows[sq.rank() as usize + 1] &= !(1 << (sq.file() + 1));
            self.cols[sq.file() as usize] &= !(1 << (sq.rank() + 1));
        }
        self.pieces[side_of(code).index()].remove(sq);
        self.counts[code as usize] -= 1;
        self.placed[PLACED[code as usize] as usize][self.variant.folds[i] as usize] -= 1;
        self.hash ^= key(sq, code);
        code
    }

    pub(super) fn set_chain(&mut self, chain: Option<Square>) {
        if let Some(old) = self.chain {
            self.hash ^= CHAIN_KEY ^ key(old, 0);
        }
        if let Some(new) = chain {
            self.hash ^= CHAIN_KEY ^ key(new, 0);
        }
        self.chain = chain;
    }

    pub(super) fn set_slot(&mut self, slot: Slot) {
        if self.slot == Some(Slot::Attacking) {
            self.hash ^= SLOT_KEY;
        }
        if slot == Slot::Attacking {
            self.hash ^= SLOT_KEY;
        }
        self.slot = Some(slot);
    }

    pub(super) fn set_turn(&mut self, side: Side) {
        if side != self.turn {
            self.hash ^= TURN_KEY;
            self.turn = side;
        }
    }

    // ----- move generation -----

    /// The pieces that may move now: the side to move's, narrowed to the slot's field in Save the
    /// Standard and to the chain's piece during a berserk chain.
    pub(super) fn movers(&self) -> SquareSet {
        let own = &self.pieces[self.turn.index()];
        match self.slot {
            Some(Slot::Defending) => own.and(&self.variant.home[self.turn]),
            Some(Slot::Attacking) => own.and(&self.variant.away[self.turn]),
            None => *own,
        }
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
    pub(super) fn pass_turn(&mut self, mover: Side) {
        match self.slot {
            Some(slot) => self.settle_slot(mover, slot),
            None => self.set_turn(mover.other()),
        }
    }

    /// Save the Standard: after `side` used `slot`, finds the next slot with a legal move. A side
    /// with no move in either slot is left to move in its defending slot and loses.
    pub(super) fn settle_slot(&mut self, side: Side, slot: Slot) {
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
    pub(super) fn apply(&mut self, m: Move) -> Captures {
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
}

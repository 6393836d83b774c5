//! A game: a position with the history that repetition needs, and the endings that are not on the
//! board (agreement, resignation, time).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::error::IllegalMove;
use super::moves::{Captures, Move, Outcome, Reason, Slot};
use super::piece::Side;
use super::position::Position;
use super::variant::{Repetition, Variant};

/// Positions are counted by their keys, which are well mixed already: they are their own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type Seen = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// A move as played, with what it captured.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlayedMove {
    pub mv: Move,
    pub captures: Captures,
    /// The position the move was played in.
    pub before_hash: u64,
}

/// One side's turn: one move, a berserk chain, or Save the Standard's two slots.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Turn {
    pub side: Side,
    pub moves: Vec<PlayedMove>,
    /// The turn is over (the other side is to move, or the game ended).
    pub complete: bool,
}

#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    /// How many moves have been played.
    moves: usize,
    turns: Vec<Turn>,
    /// How often each position has stood at the end of a turn (the start included).
    seen: Seen,
    /// An ending the board does not show: repetition, agreement, resignation, time.
    ending: Option<Outcome>,
    /// Per side, for [`Repetition::Perpetual`] and its either-side form: the back-and-forth pairs repeated in a row, and
    /// whether the side is halfway through the next pair.
    shuttles: [(u32, bool); 2],
}

impl Game {
    pub fn new(variant: &'static Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    pub fn from_position(start: Position) -> Game {
        let mut seen = Seen::default();
        seen.insert(start.hash(), 1);
        Game {
            position: start.clone(),
            start,
            moves: 0,
            turns: Vec::new(),
            seen,
            ending: None,
            shuttles: [(0, false); 2],
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.position.variant()
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// How many moves have been played.
    pub fn move_count(&self) -> usize {
        self.moves
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.ending.or(self.position.outcome())
    }

    /// How often the position with this key has stood at the end of a turn (the start included).
    pub fn times_seen(&self, hash: u64) -> u32 {
        self.seen.get(&hash).copied().unwrap_or(0)
    }

    /// The legal moves, less those the repetition rule forbids.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.ending.is_some() {
            return Vec::new();
        }
        let mut moves = self.position.legal_moves();
        if self.variant().rules.repetition == Repetition::Illegal {
            moves.retain(|m| {
                let mut next = self.position.clone();
                next.play_unchecked(*m);
                !self.repeats_third_time(&next)
            });
        }
        moves
    }

    fn repeats_third_time(&self, next: &Position) -> bool {
        let (_, counted) = step_ends(self.position.turn(), self.position.slot(), next);
        counted && self.seen.get(&next.hash()).copied().unwrap_or(0) >= 2
    }

    /// Checks and plays a move.
    pub fn play(&mut self, m: Move) -> Result<PlayedMove, IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let m = self.position.check(m)?;
        let (side, slot, before_hash) = (
            self.position.turn(),
            self.position.slot(),
            self.position.hash(),
        );
        let captures = if self.variant().rules.repetition == Repetition::Illegal {
            // The move is refused if it repeats: try it on a copy first.
            let mut next = self.position.clone();
            let captures = next.play_unchecked(m);
            if self.repeats_third_time(&next) {
                return Err(IllegalMove::Repetition);
            }
            self.position = next;
            captures
        } else {
            self.position.play_unchecked(m)
        };
        let played = PlayedMove {
            mv: m,
            captures,
            before_hash,
        };
        match self.turns.last_mut() {
            Some(turn) if !turn.complete => turn.moves.push(played),
            _ => self.turns.push(Turn {
                side,
                moves: vec![played],
                complete: false,
            }),
        }
        let (ends, counted) = step_ends(side, slot, &self.position);
        self.moves += 1;
        if ends {
            self.complete_turn();
        }
        if counted {
            self.count_position(side);
        }
        Ok(played)
    }

    /// The game as it stood after its first `n` turns (all of them, for `n` past the end),
    /// replayed from its start.
    pub fn after_turns(&self, n: usize) -> Game {
        let mut game = Game::from_position(self.start.clone());
        for turn in self.turns.iter().take(n) {
            for m in &turn.moves {
                // Played once already from the same start, so played again the same.
                if game.play(m.mv).is_err() {
                    return game;
                }
            }
            let open = game.outcome().is_none() && game.position().turn() == turn.side;
            if turn.complete && open && game.end_turn().is_err() {
                return game;
            }
        }
        game
    }

    /// Ends an open berserk chain.
    pub fn end_turn(&mut self) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let next = self.position.end_turn()?;
        if self.variant().rules.repetition == Repetition::Illegal && self.repeats_third_time(&next)
        {
            return Err(IllegalMove::Repetition);
        }
        let side = self.position.turn();
        self.position = next;
        self.complete_turn();
        self.count_position(side);
        Ok(())
    }

    fn complete_turn(&mut self) {
        if let Some(turn) = self.turns.last_mut() {
            turn.complete = true;
        }
    }

    /// [`Repetition::Perpetual`]: `mover`'s move repeats, without a capture, the move they made two
    /// turns ago; every second such repetition completes a pair. Any other move starts the count
    /// again. Defenders who complete three pairs in a row lose; where the rule holds for either
    /// side, so do attackers.
    fn count_shuttle(&mut self, mover: Side, either_side: bool) {
        let n = self.turns.len();
        let single = |t: &Turn| match t.moves.as_slice() {
            [only] if only.captures.is_empty() => Some(only.mv),
            _ => None,
        };
        let repeats = n >= 5
            && self.turns[n - 5].side == mover
            && single(&self.turns[n - 1]).is_some()
            && single(&self.turns[n - 1]) == single(&self.turns[n - 5]);
        let (pairs, halfway) = &mut self.shuttles[mover.index()];
        if repeats {
            if !*halfway {
                *pairs += 1;
            }
            *halfway = !*halfway;
        } else {
            *pairs = 0;
            *halfway = false;
        }
        if (mover == Side::Defenders || either_side) && *pairs >= 3 {
            self.ending = Some(Outcome::win(mover.other(), Reason::Repetition));
        }
    }

    /// Counts the position `mover` just produced and applies the repetition rule.
    fn count_position(&mut self, mover: Side) {
        if self.position.is_over() {
            return;
        }
        let repetition = self.variant().rules.repetition;
        let count = self.seen.entry(self.position.hash()).or_insert(0);
        *count += 1;
        let count = *count;
        if matches!(
            repetition,
            Repetition::Perpetual | Repetition::PerpetualEitherSide
        ) {
            self.count_shuttle(mover, repetition == Repetition::PerpetualEitherSide);
            return;
        }
        if count >= 3 {
            self.ending = match repetition {
                Repetition::DefendersLose if mover == Side::Defenders => {
                    Some(Outcome::win(Side::Attackers, Reason::Repetition))
                }
                Repetition::Draw => Some(Outcome::draw(Reason::Repetition)),
                _ => None,
            };
        }
        // Where repetition forbids moves, it may forbid every move: the side is stuck.
        if repetition == Repetition::Illegal
            && self.ending.is_none()
            && self.legal_moves().is_empty()
        {
            self.ending = Some(self.position.stuck());
        }
    }

    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<(), IllegalMove> {
        self.end_with(Outcome::draw(Reason::Agreement))
    }

    pub fn resign(&mut self, side: Side) -> Result<(), IllegalMove> {
        self.end_with(Outcome::win(side.other(), Reason::Resignation))
    }

    /// The side ran out of time.
    pub fn lose_on_time(&mut self, side: Side) -> Result<(), IllegalMove> {
        self.end_with(Outcome::win(side.other(), Reason::Timeout))
    }

    /// The side withdrew from the tournament the game was played in.
    pub fn forfeit(&mut self, side: Side) -> Result<(), IllegalMove> {
        self.end_with(Outcome::win(side.other(), Reason::Forfeit))
    }

    fn end_with(&mut self, outcome: Outcome) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.ending = Some(outcome);
        Ok(())
    }
}

/// After a move made with `turn` and `slot` to play, leading to `next`: whether the turn ended,
/// and whether `next` is a position that repetition counts: the end of a turn, or in Save the
/// Standard the end of a slot (RULES.md §0: the same board, side to move and slot).
fn step_ends(turn: Side, slot: Option<Slot>, next: &Position) -> (bool, bool) {
    let ends = next.turn() != turn || next.is_over();
    (ends, ends || next.slot() != slot)
}

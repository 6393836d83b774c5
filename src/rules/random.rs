//! Seeded random playouts, for tests and benchmarks. Deterministic: the same seed plays the same game.

use super::game::Game;
use super::moves::Move;
use super::position::Position;

/// A small, fast generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// What a playout step did.
pub enum Step {
    Moved(Move),
    EndedTurn,
}

/// Plays random moves from `start` until the game ends or `max_plies` steps were taken, calling
/// `visit` with the position before each step and the step. During a berserk chain, ending the
/// turn is one more choice beside the continuations. Returns the final position.
pub fn playout(
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    mut visit: impl FnMut(&Position, &Step),
) -> Position {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(128);
    for _ in 0..max_plies {
        if pos.is_over() {
            break;
        }
        pos.legal_moves_into(&mut moves);
        let extra = usize::from(pos.chain().is_some());
        let pick = rng.below(moves.len() + extra);
        if pick == moves.len() {
            visit(&pos, &Step::EndedTurn);
            pos = pos.end_turn().expect("a chain is open");
        } else {
            let m = moves[pick];
            visit(&pos, &Step::Moved(m));
            pos.play_unchecked(m);
        }
    }
    pos
}

/// Plays random moves in a game (ending a berserk chain is one more choice) until it ends or
/// `max_moves` moves and turn ends were made.
pub fn play_random(game: &mut Game, rng: &mut Rng, max_moves: usize) {
    for _ in 0..max_moves {
        if game.outcome().is_some() {
            return;
        }
        let moves = game.legal_moves();
        let chain = game.position().chain().is_some();
        let pick = rng.below(moves.len() + usize::from(chain));
        if pick == moves.len() {
            game.end_turn().expect("a chain is open");
        } else {
            game.play(moves[pick]).expect("a listed move is legal");
        }
    }
}

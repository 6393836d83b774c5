//! Counting move trees.
//!
//! A ply is one move. After a capture that could be continued (berserk), the next ply is either a
//! continuation by the same piece or, with the turn ended, a move of the opponent: ending the turn
//! is not a ply of its own. Only sequences of exactly `depth` plies count, as other engines count
//! them: a move that ends the game is a leaf at the last ply and adds nothing at an earlier one.

use super::position::Position;

/// The number of move sequences of `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(128);
    pos.legal_moves_into(&mut moves);
    let mut total = if depth == 1 {
        moves.len() as u64
    } else {
        let mut sum = 0;
        for &m in &moves {
            let mut next = pos.clone();
            next.play_unchecked(m);
            if !next.is_over() {
                sum += perft(&next, depth - 1);
            }
        }
        sum
    };
    if pos.chain().is_some() {
        if let Ok(ended) = pos.end_turn() {
            total += perft(&ended, depth);
        }
    }
    total
}

//! A memo of fixed size for a search's hot paths: each key's value is kept in the one slot its
//! hash's top bits pick, in place of whatever was there (direct-mapped, no probing). A slot keeps
//! its whole key, so a value found is the key's own, never another's that shares the slot.
//! [`Evals`] is the one of a search's evaluations.

use std::num::NonZeroU64;

use super::eval::{Board, Rooms};
use crate::rules::Position;

/// Values of type `V` remembered by keys of type `K` in `2^bits` slots.
pub struct Memo<K, V> {
    slots: Vec<Option<(K, V)>>,
    /// The hash is shifted right by this much to give a slot.
    shift: u32,
}

impl<K: Copy + Eq, V: Copy> Memo<K, V> {
    /// `2^bits` empty slots (1 to 32 bits).
    pub fn new(bits: u32) -> Memo<K, V> {
        let bits = bits.clamp(1, 32);
        Memo {
            slots: vec![None; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// No slots: every value is made afresh.
    pub fn none() -> Memo<K, V> {
        Memo {
            slots: Vec::new(),
            shift: 63,
        }
    }

    /// Whether there are no slots (the caller may then skip working out a key).
    pub fn is_none(&self) -> bool {
        self.slots.is_empty()
    }

    /// The value remembered for `key` (whose hash is `hash`), or else `make`'s, then remembered
    /// in the key's slot.
    #[inline]
    pub fn recall(&mut self, hash: u64, key: K, make: impl FnOnce() -> V) -> V {
        let Some(slot) = self.slots.get_mut((hash >> self.shift) as usize) else {
            return make();
        };
        match slot {
            Some((k, v)) if *k == key => *v,
            _ => {
                let v = make();
                *slot = Some((key, v));
                v
            }
        }
    }
}

/// The evaluations made in a search, remembered by position key: a search meets the same quiet
/// position again and again (each deeper iteration goes through the last one's leaves, and
/// transpositions reach them by other orders), and the evaluation depends on nothing the key
/// leaves out.
pub struct Evals {
    memo: Memo<NonZeroU64, i32>,
}

impl Evals {
    /// Slots, as bits of the index: 8,192 slots of 16 bytes (a key is never 0, so a slot needs no
    /// more room than the key and the score), small enough to stay in a core's cache.
    const BITS: u32 = 13;

    pub fn new() -> Evals {
        Evals {
            memo: Memo::new(Self::BITS),
        }
    }

    /// The score of `pos` for the side to move on `board`, remembered or made (the king's room
    /// looked up in `rooms`). A position whose key is 0 is not remembered.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, pos: &Position, rooms: &mut Rooms) -> i32 {
        self.evaluate_by(board, pos, rooms, || board.learned(pos))
    }

    /// [`Evals::evaluate`], the network's part given by `net_part` as for
    /// [`Board::evaluate_by`] (asked only when the score is not remembered).
    #[inline]
    pub fn evaluate_by(
        &mut self,
        board: &Board,
        pos: &Position,
        rooms: &mut Rooms,
        net_part: impl FnOnce() -> i32,
    ) -> i32 {
        let hash = pos.hash();
        match NonZeroU64::new(hash) {
            Some(key) => self
                .memo
                .recall(hash, key, || board.evaluate_by(pos, rooms, net_part)),
            None => board.evaluate_by(pos, rooms, net_part),
        }
    }
}

impl Default for Evals {
    fn default() -> Evals {
        Evals::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_made_once_and_a_key_sharing_its_slot_gets_its_own() {
        let mut memo: Memo<u64, u32> = Memo::new(4);
        let made = std::cell::Cell::new(0);
        let recall = |memo: &mut Memo<u64, u32>, hash: u64, key: u64| {
            memo.recall(hash, key, || {
                made.set(made.get() + 1);
                key as u32 * 10
            })
        };
        assert_eq!(recall(&mut memo, 1 << 60, 7), 70);
        assert_eq!(recall(&mut memo, 1 << 60, 7), 70);
        // The same slot (the same top bits), another key: its own value, made, in its place.
        assert_eq!(recall(&mut memo, 1 << 60, 8), 80);
        assert_eq!(recall(&mut memo, 1 << 60, 7), 70);
        // Another slot keeps its own.
        assert_eq!(recall(&mut memo, 3 << 60, 9), 90);
        assert_eq!(recall(&mut memo, 3 << 60, 9), 90);
        assert_eq!(made.get(), 4);
        // Without slots nothing is kept.
        let mut none: Memo<u64, u32> = Memo::none();
        assert!(none.is_none() && !memo.is_none());
        assert_eq!(recall(&mut none, u64::MAX, 3), 30);
        assert_eq!(recall(&mut none, u64::MAX, 3), 30);
        assert_eq!(made.get(), 6);
    }

    /// A memo of scores by a non-zero key takes no more room than the key and the score.
    #[test]
    fn a_slot_of_a_nonzero_key_and_a_score_is_sixteen_bytes() {
        assert_eq!(
            std::mem::size_of::<Option<(std::num::NonZeroU64, i32)>>(),
            16
        );
    }
}

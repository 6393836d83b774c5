//! The search's transposition table: what a position was found worth, to what depth, and its
//! best step.

use super::{Step, WON};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub key: u64,
    pub step: Option<Step>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

/// The transposition table: one entry per slot, replaced when the new search is as deep.
pub(super) struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    #[inline]
    pub fn put(&mut self, entry: Entry) {
        let slot = &mut self.slots[entry.key as usize & self.mask];
        if slot.is_none_or(|old| old.key != entry.key || old.depth <= entry.depth) {
            *slot = Some(entry);
        }
    }
}

/// Win scores are stored relative to the node, not the root.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WON {
        score + ply as i32
    } else if score <= -WON {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WON {
        score - ply as i32
    } else if score <= -WON {
        score + ply as i32
    } else {
        score
    }
}

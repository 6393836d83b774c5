//! [`BySide`]: one value for each side, indexed by [`Side`], as shakmaty's `ByColor` is by colour.

use std::ops::{Index, IndexMut};

use super::Side;

/// A value for each side: the players of a game, whether each is away, their rating changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    pub attackers: T,
    pub defenders: T,
}

impl<T> BySide<T> {
    pub const fn new(attackers: T, defenders: T) -> BySide<T> {
        BySide {
            attackers,
            defenders,
        }
    }

    /// A value for each side, from the side.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> BySide<T> {
        BySide::new(f(Side::Attackers), f(Side::Defenders))
    }

    /// Each value turned into another, side by side.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide::new(f(self.attackers), f(self.defenders))
    }

    /// Both values, the attackers' first.
    pub fn iter(&self) -> std::array::IntoIter<&T, 2> {
        [&self.attackers, &self.defenders].into_iter()
    }

    /// Each side with its value, the attackers first.
    pub fn sides(&self) -> impl Iterator<Item = (Side, &T)> {
        Side::BOTH.into_iter().zip(self.iter())
    }

    /// The side whose value satisfies `f`, the attackers asked first.
    pub fn find_side(&self, mut f: impl FnMut(&T) -> bool) -> Option<Side> {
        self.sides().find(|(_, v)| f(v)).map(|(side, _)| side)
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;

    fn index(&self, side: Side) -> &T {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Attackers => &mut self.attackers,
            Side::Defenders => &mut self.defenders,
        }
    }
}

impl<'a, T> IntoIterator for &'a BySide<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, 2>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

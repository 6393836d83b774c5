//! Squares and directions.
//!
//! Every board, from 7x15 to 17x17, lives in one fixed grid of rows of 18 cells: up to 17 files and one
//! off-board column that borders both the row's right end and the next row's left end, with an
//! off-board row below rank 1 and above the top rank. A square's number therefore does not depend on
//! the variant, a step in any direction is a constant offset, and a ray walk stops at the border
//! without testing coordinates.

use std::fmt;
use std::str::FromStr;

/// Cells per grid row: 17 files at most and one off-board column.
pub(crate) const STRIDE: i32 = 18;
/// Number of cells in the grid: 29 rows of 18 (27 ranks and two border rows), rounded up to whole
/// 64-bit words for [`SquareSet`].
pub(crate) const GRID: usize = 576;
/// The widest and tallest boards the grid holds.
pub const MAX_FILES: u8 = 17;
pub const MAX_RANKS: u8 = 27;

/// The folded squares: a square's distances to the nearer file edge and the nearer rank edge,
/// the smaller first, each capped at [`FOLD_CAP`]. The board's symmetries map a square onto one
/// of the same class, so the classes are 21 on any board: the evaluation's square tables are
/// weighted by them, and a position counts its pieces on each.
pub const FOLD_CAP: u8 = 5;
pub const FOLDED: usize = (FOLD_CAP as usize + 1) * (FOLD_CAP as usize + 2) / 2;

/// The class of the square at (`file`, `rank`) on a board of `files` by `ranks`.
#[inline]
pub fn fold(file: u8, rank: u8, files: u8, ranks: u8) -> usize {
    let a = file.min(files - 1 - file).min(FOLD_CAP) as usize;
    let b = rank.min(ranks - 1 - rank).min(FOLD_CAP) as usize;
    let (lo, hi) = (a.min(b), a.max(b));
    hi * (hi + 1) / 2 + lo
}

/// A square of the board: `a1` is the lower-left corner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square on `file` (0 = `a`) and `rank` (0 = `1`), if it fits the largest board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_FILES && rank < MAX_RANKS {
            Some(Square((rank as u16 + 1) * STRIDE as u16 + file as u16))
        } else {
            None
        }
    }

    pub(crate) const fn from_index(index: usize) -> Square {
        Square(index as u16)
    }

    /// The grid cell of this square.
    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (`a` = 0).
    pub const fn file(self) -> u8 {
        (self.0 % STRIDE as u16) as u8
    }

    /// 0-based rank (`1` = 0).
    pub const fn rank(self) -> u8 {
        (self.0 / STRIDE as u16) as u8 - 1
    }

    /// The neighbouring cell in `dir` (which may be off the board).
    #[inline(always)]
    pub(crate) const fn step(self, dir: Dir) -> Square {
        Square((self.0 as i32 + dir.offset()) as u16)
    }

    /// The cell `n` steps away in `dir` (wrapping for far-off cells, which are never read).
    #[inline(always)]
    pub(crate) const fn step_by(self, dir: Dir, n: i32) -> Square {
        Square((self.0 as i32 + dir.offset() * n) as u16)
    }

    /// Squares between `self` and `to` (exclusive), if they share a file or rank.
    pub fn line_to(self, to: Square) -> Option<(Dir, u8)> {
        let (df, dr) = (
            to.file() as i32 - self.file() as i32,
            to.rank() as i32 - self.rank() as i32,
        );
        let dir = match (df.signum(), dr.signum()) {
            (0, 1) => Dir::Up,
            (0, -1) => Dir::Down,
            (1, 0) => Dir::Right,
            (-1, 0) => Dir::Left,
            _ => return None,
        };
        Some((dir, (df.abs() + dr.abs()) as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a square (write a file letter and a rank number, like e5)",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl Square {
    /// Reads a square name from the start of `text`: a file letter and one or two digits.
    /// Returns the square and the number of bytes used.
    pub fn parse_prefix(text: &str) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let letter = bytes.first()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = bytes[1..]
            .iter()
            .take(2)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || bytes[1] == b'0' {
            return None;
        }
        let rank: u32 = text[1..1 + digits].parse().ok()?;
        let file = letter - b'a';
        if rank == 0 || rank > MAX_RANKS as u32 {
            return None;
        }
        Square::new(file, rank as u8 - 1).map(|sq| (sq, 1 + digits))
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match Square::parse_prefix(s) {
            Some((sq, used)) if used == s.len() => Ok(sq),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

/// The four orthogonal directions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    Up,
    Right,
    Down,
    Left,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    #[inline(always)]
    pub(crate) const fn offset(self) -> i32 {
        match self {
            Dir::Up => STRIDE,
            Dir::Right => 1,
            Dir::Down => -STRIDE,
            Dir::Left => -1,
        }
    }

    pub const fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Right => Dir::Left,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
        }
    }

    /// The two directions at right angles to this one.
    pub const fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::Up | Dir::Down => [Dir::Left, Dir::Right],
            Dir::Left | Dir::Right => [Dir::Down, Dir::Up],
        }
    }
}

/// A set of grid cells, one bit each.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct SquareSet([u64; GRID / 64]);

impl SquareSet {
    pub(crate) const EMPTY: SquareSet = SquareSet([0; GRID / 64]);

    #[inline(always)]
    pub(crate) fn insert(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline(always)]
    pub(crate) fn contains(&self, sq: Square) -> bool {
        let i = sq.index();
        self.0[i >> 6] & (1 << (i & 63)) != 0
    }

    pub(crate) fn and(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
        out
    }

    pub(crate) fn or(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }

    pub(crate) fn minus(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= !b;
        }
        out
    }

    /// Every member moved `by` grid cells (towards higher indices when positive); members moved
    /// past either end of the grid drop out.
    pub(crate) fn shifted(&self, by: i32) -> SquareSet {
        const N: usize = GRID / 64;
        let mut out = [0u64; N];
        // The shifts the board uses (a step or two) stay within a word: no branch per word.
        if (1..64).contains(&by) {
            let b = by as u32;
            out[0] = self.0[0] << b;
            for (o, w) in out[1..].iter_mut().zip(self.0.windows(2)) {
                *o = (w[1] << b) | (w[0] >> (64 - b));
            }
            return SquareSet(out);
        }
        if (-63..0).contains(&by) {
            let b = by.unsigned_abs();
            for (o, w) in out.iter_mut().zip(self.0.windows(2)) {
                *o = (w[0] >> b) | (w[1] << (64 - b));
            }
            out[N - 1] = self.0[N - 1] >> b;
            return SquareSet(out);
        }
        let k = by.unsigned_abs() as usize;
        let (words, bits) = (k / 64, k % 64);
        if by >= 0 {
            for (i, word) in out.iter_mut().enumerate().skip(words) {
                let mut v = self.0[i - words] << bits;
                if bits > 0 && i > words {
                    v |= self.0[i - words - 1] >> (64 - bits);
                }
                *word = v;
            }
        } else {
            for (i, word) in out.iter_mut().enumerate().take(N - words) {
                let mut v = self.0[i + words] >> bits;
                if bits > 0 && i + words + 1 < N {
                    v |= self.0[i + words + 1] << (64 - bits);
                }
                *word = v;
            }
        }
        SquareSet(out)
    }

    /// A hash of the members, mixed with `seed`: for tables keyed by a set.
    #[inline]
    pub(crate) fn mix(&self, seed: u64) -> u64 {
        self.0.iter().fold(seed, |h, w| {
            (h.rotate_left(5) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }

    /// The members on one rank, as bits by file (bit 0 for file a).
    #[inline]
    pub(crate) fn rank_bits(&self, rank: u8) -> u32 {
        let start = (rank as usize + 1) * STRIDE as usize;
        let (word, bit) = (start >> 6, start & 63);
        let mut bits = self.0[word] >> bit;
        if bit > 64 - STRIDE as usize && word + 1 < self.0.len() {
            bits |= self.0[word + 1] << (64 - bit);
        }
        (bits & ((1 << MAX_FILES) - 1)) as u32
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub(crate) fn iter(&self) -> SquareSetIter {
        SquareSetIter {
            words: self.0,
            word: 0,
        }
    }
}

pub(crate) struct SquareSetIter {
    words: [u64; GRID / 64],
    word: usize,
}

impl Iterator for SquareSetIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < self.words.len() {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Square::from_index(
                    self.word * 64 + w.trailing_zeros() as usize,
                ));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_is_symmetric_and_covers_every_class() {
        let mut seen = [false; FOLDED];
        for f in 0..13u8 {
            for r in 0..13u8 {
                let c = fold(f, r, 13, 13);
                assert_eq!(c, fold(r, f, 13, 13));
                assert_eq!(c, fold(12 - f, r, 13, 13));
                assert_eq!(c, fold(f, 12 - r, 13, 13));
                seen[c] = true;
            }
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(fold(0, 0, 7, 7), 0);
        assert_eq!(fold(3, 3, 7, 7), 9);
    }

    #[test]
    fn names_read_back() {
        for name in ["a1", "k11", "m27", "e5", "q17"] {
            let sq: Square = name.parse().unwrap_or_else(|_| panic!("{name}"));
            assert_eq!(sq.to_string(), name);
        }
        assert_eq!("K11".parse::<Square>().unwrap().to_string(), "k11");
        for bad in ["", "a", "a0", "1a", "a28", "z1", "a01", "a1x", "é1", "r1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}

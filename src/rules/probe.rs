//! Questions the engine asks of a position, answered from the board's own tables: cheaper than
//! going through the public move list, and still pure. Crate-internal: the engine is their user.

use super::cell::{role_of, side_of, terrain_of};
use super::moves::Move;
use super::piece::{Piece, Role, Side, PIECE_MASK};
use super::position::Position;
use super::square::{Dir, Square, SquareSet, MAX_RANKS, STRIDE};
use super::variant::{Escape, Terrain, PASS, STOP, TERRAIN_SHIFT};

impl Position {
    /// The squares of a side's pieces.
    #[inline]
    pub(crate) fn squares_of(&self, side: Side) -> &SquareSet {
        &self.pieces[side.index()]
    }

    /// The squares orthogonally next to a piece of `side` (on the board or not).
    pub(crate) fn beside(&self, side: Side) -> SquareSet {
        let own = &self.pieces[side.index()];
        own.shifted(1)
            .or(&own.shifted(-1))
            .or(&own.shifted(STRIDE))
            .or(&own.shifted(-STRIDE))
    }

    /// Where a slide of the side to move may capture: next to an enemy with a piece of the
    /// mover's side or a special square beyond it, next to the enemy king or Standard, on the
    /// edge beside an enemy where shieldwalls count, or on an enemy (a Standard taking Cavalry).
    /// A superset: [`Position::captures_of`] decides. Jumps and Cavalry's turns are not covered.
    pub(crate) fn capture_targets(&self) -> SquareSet {
        let side = self.turn;
        let enemy = &self.pieces[side.other().index()];
        let anvil = self.pieces[side.index()].or(&self.variant.specials);
        let mut out = *enemy;
        for d in [1, -1, STRIDE, -STRIDE] {
            out = out.or(&enemy.shifted(-d).and(&anvil.shifted(-2 * d)));
        }
        if let Some(royal) = self.royal[side.other().index()] {
            for d in Dir::ALL {
                out.insert(royal.step(d));
            }
        }
        if self.variant.rules.shieldwall {
            out = out.or(&self.beside(side.other()).and(&self.variant.edge));
        }
        out
    }

    /// Whether [`Position::moves_onto`] can stand for the move list here: no berserk chain open,
    /// no turn slots, no armies (Cavalry's turns and the Standards' rules).
    pub(crate) fn moves_onto_suffice(&self) -> bool {
        self.chain.is_none() && self.slot.is_none() && !self.variant.rules.armies
    }

    /// The legal moves of the side to move that land on `targets` or jump: its slides onto the
    /// squares of `targets`, found from the targets outward (far fewer than all moves), and
    /// every jump of its commanders, wherever it lands. Only where [`Position::moves_onto_suffice`].
    pub(crate) fn moves_onto(&self, targets: &SquareSet, out: &mut Vec<Move>) {
        self.slides_onto(targets, out);
        let side = self.turn;
        let commander = Piece::new(side, Role::Commander);
        if self.outcome.is_some() || self.count_of(commander) == 0 {
            return;
        }
        let access = self.variant.access(Role::Commander);
        for from in self.pieces[side.index()].iter() {
            if self.cells[from.index()] & PIECE_MASK == commander.code() {
                self.jumps(from, side, access, &mut |m| {
                    out.push(m);
                    true
                });
            }
        }
    }

    /// The legal slides of the side to move onto the squares of `targets`.
    fn slides_onto(&self, targets: &SquareSet, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let own = &self.pieces[self.turn.index()];
        for to in targets.and(&self.variant.board).iter() {
            let here = self.cells[to.index()];
            if here & PIECE_MASK != 0 {
                continue;
            }
            let to_terrain = (here >> TERRAIN_SHIFT) as usize;
            for dir in Dir::ALL {
                // Walk away from the target to the first piece; note the special squares passed.
                let mut sq = to.step(dir);
                let mut passed: u8 = 0;
                loop {
                    let c = self.cells[sq.index()];
                    if c & PIECE_MASK != 0 {
                        if own.contains(sq) {
                            let Some(role) = role_of(c) else { break };
                            let access = self.variant.access(role);
                            let crosses = (0..8u8)
                                .filter(|t| passed & (1 << t) != 0)
                                .all(|t| access[t as usize] & PASS != 0);
                            if access[to_terrain] & STOP != 0 && crosses {
                                out.push(Move::slide(sq, to));
                            }
                        }
                        break;
                    }
                    let t = c >> TERRAIN_SHIFT;
                    if t == Terrain::OffBoard as u8 {
                        break;
                    }
                    if t != Terrain::Plain as u8 {
                        passed |= 1 << t;
                    }
                    sq = sq.step(dir);
                }
            }
        }
    }

    /// Whether `m` captures anything, the board left as it is.
    #[inline]
    pub(crate) fn captures_anything(&self, m: Move) -> bool {
        super::capture::captures_any(self.variant, &self.cells, m)
    }

    /// The moves by which the king would escape now if it were the defenders' turn: the squares
    /// he reaches in one move that end the game. At most four (one per direction).
    pub(crate) fn king_escapes(&self) -> usize {
        self.king_escape_paths().0
    }

    /// The king's escapes in one move, and every square of their paths (the escape squares
    /// included): where an attacker must stand to stop them.
    pub(crate) fn king_escape_paths(&self) -> (usize, SquareSet) {
        let mut paths = SquareSet::EMPTY;
        let Some(king) = self.royal[Side::Defenders.index()] else {
            return (0, paths);
        };
        let v = self.variant;
        if v.rules.escape == Escape::None {
            return (0, paths);
        }
        let access = v.access(Role::King);
        let mut found = 0;
        for dir in Dir::ALL {
            let mut sq = king.step(dir);
            let mut path = SquareSet::EMPTY;
            loop {
                let c = self.cells[sq.index()];
                if c & PIECE_MASK != 0 {
                    break;
                }
                path.insert(sq);
                let a = access[(c >> TERRAIN_SHIFT) as usize];
                if a & STOP != 0 && self.escapes_on(sq) {
                    found += 1;
                    paths = paths.or(&path);
                    break;
                }
                if a & PASS == 0 {
                    break;
                }
                sq = sq.step(dir);
            }
        }
        (found, paths)
    }

    /// How many moves the king needs to escape if nothing else moved: 1 when he can escape now,
    /// 2 when a square he reaches in one move has a clear line to an escape square, else 3.
    #[cfg(test)]
    fn king_road(&self) -> u32 {
        let lines = self.king_lines();
        if lines.escapes > 0 {
            1
        } else if lines.routes > 0 {
            2
        } else {
            3
        }
    }

    /// What the squares the king reaches in one move say of his escape, read in one walk along
    /// his four rays: how many of them end the game, how many have a clear line to an escape
    /// square, and how many have two lines or more (a fork: one move cannot close both).
    /// Special squares on a line count as closed.
    pub(crate) fn king_lines(&self) -> KingLines {
        let mut lines = KingLines::default();
        let Some(king) = self.royal[Side::Defenders.index()] else {
            return lines;
        };
        if self.variant.rules.escape == Escape::None {
            return lines;
        }
        let access = self.variant.access(Role::King);
        for dir in Dir::ALL {
            let mut sq = king.step(dir);
            let mut escaped = false;
            loop {
                let c = self.cells[sq.index()];
                if c & PIECE_MASK != 0 {
                    break;
                }
                let a = access[(c >> TERRAIN_SHIFT) as usize];
                if a & STOP != 0 {
                    if !escaped && self.escapes_on(sq) {
                        escaped = true;
                        lines.escapes += 1;
                    }
                    let n = self.lines_to_escape(sq);
                    lines.routes += u32::from(n > 0);
                    lines.forks += u32::from(n > 1);
                }
                if a & PASS == 0 {
                    break;
                }
                sq = sq.step(dir);
            }
        }
        lines
    }

    /// How many clear lines to an escape square a king on `sq` would have.
    #[inline]
    fn lines_to_escape(&self, sq: Square) -> u32 {
        let (file, rank) = (sq.file() as u32, sq.rank() as u32);
        let (files, ranks) = (self.variant.files as u32, self.variant.ranks as u32);
        let row = self.rows[rank as usize + 1];
        let col = self.cols[file as usize];
        let up = (col >> (rank + 2)).trailing_zeros();
        let right = (row >> (file + 2)).trailing_zeros();
        let down = (col << (31 - rank)).leading_zeros();
        let left = (row << (31 - file)).leading_zeros();
        let n = |open: bool| u32::from(open);
        match self.variant.rules.escape {
            Escape::Edge => {
                n(up == ranks - 1 - rank)
                    + n(right == files - 1 - file)
                    + n(down == rank)
                    + n(left == file)
            }
            // Along an edge line, up to the square before the corner (the corner itself is
            // special, so the run stops there).
            Escape::Corner => {
                let on_rank_edge = rank == 0 || rank == ranks - 1;
                let on_file_edge = file == 0 || file == files - 1;
                n(on_rank_edge && right + 2 == files - file)
                    + n(on_rank_edge && left + 1 == file)
                    + n(on_file_edge && up + 2 == ranks - rank)
                    + n(on_file_edge && down + 1 == rank)
            }
            Escape::None => 0,
        }
    }

    /// In how many of the four directions the squares from `sq` to the board's edge are all plain
    /// and empty: the lines a piece there could leave by (special squares count as closed).
    #[inline]
    pub(crate) fn open_lines(&self, sq: Square) -> u32 {
        let (file, rank) = (sq.file() as u32, sq.rank() as u32);
        let (files, ranks) = (self.variant.files as u32, self.variant.ranks as u32);
        let row = self.rows[rank as usize + 1];
        let col = self.cols[file as usize];
        let up = (col >> (rank + 2)).trailing_zeros() == ranks - 1 - rank;
        let right = (row >> (file + 2)).trailing_zeros() == files - 1 - file;
        let down = (col << (31 - rank)).leading_zeros() == rank;
        let left = (row << (31 - file)).leading_zeros() == file;
        u32::from(up) + u32::from(right) + u32::from(down) + u32::from(left)
    }

    /// How many of `side`'s pieces have at least one open line ([`Self::open_lines`]): each line
    /// to an edge is open for the piece nearest that edge on it, if any, so the rows' and files'
    /// outermost pieces are the only ones to look at, found from the bits by rank and by file
    /// instead of piece by piece.
    pub(crate) fn open_to_edge(&self, side: Side) -> u32 {
        let (files, ranks) = (u32::from(self.variant.files), u32::from(self.variant.ranks));
        // Bit 0 and the bits past the board stand for off-board cells; the board's are 1..=n.
        let inside = |n: u32| ((1u32 << (n + 1)) - 1) & !1;
        let mut ends = SquareSet::EMPTY;
        let mut end = |file: u32, rank: u32| {
            ends.insert(Square::from_index(
                ((rank + 1) * STRIDE as u32 + file) as usize,
            ));
        };
        for rank in 0..ranks {
            let row = self.rows[rank as usize + 1] & inside(files);
            if row != 0 {
                end(row.trailing_zeros() - 1, rank);
                end(30 - row.leading_zeros(), rank);
            }
        }
        for file in 0..files {
            let col = self.cols[file as usize] & inside(ranks);
            if col != 0 {
                end(file, col.trailing_zeros() - 1);
                end(file, 30 - col.leading_zeros());
            }
        }
        // An outermost cell that is a special square, not a piece, closes the line itself.
        ends.and(&self.pieces[side.index()]).len() as u32
    }

    /// Whether the king standing on `sq` has escaped.
    #[inline]
    pub(crate) fn escapes_on(&self, sq: Square) -> bool {
        match self.variant.rules.escape {
            Escape::Edge => self.variant.edge.contains(sq),
            Escape::Corner => terrain_of(self.cells[sq.index()]) == Terrain::Corner,
            Escape::None => false,
        }
    }

    /// The fewest moves the piece on `from` needs to stand on a square of `goal` if nothing else
    /// moved, counting up to `limit`; `limit + 1` when it needs more. The relaxed game of the
    /// king's escape and the Standard's road home.
    pub(crate) fn relaxed_distance(&self, from: Square, goal: &SquareSet, limit: u32) -> u32 {
        let code = self.cells[from.index()];
        let Some(role) = role_of(code) else {
            return limit + 1;
        };
        let access = self.variant.access(role);
        let mut seen = SquareSet::EMPTY;
        seen.insert(from);
        let mut frontier = [Square::from_index(0); 160];
        let mut next = [Square::from_index(0); 160];
        frontier[0] = from;
        let mut len = 1;
        for distance in 1..=limit {
            let mut next_len = 0;
            for &at in &frontier[..len] {
                for dir in Dir::ALL {
                    let mut sq = at.step(dir);
                    loop {
                        let c = self.cells[sq.index()];
                        if c & PIECE_MASK != 0 {
                            break;
                        }
                        let a = access[(c >> TERRAIN_SHIFT) as usize];
                        if a & STOP != 0 && !seen.contains(sq) {
                            if goal.contains(sq) {
                                return distance;
                            }
                            seen.insert(sq);
                            if next_len < next.len() {
                                next[next_len] = sq;
                                next_len += 1;
                            }
                        }
                        if a & PASS == 0 {
                            break;
                        }
                        sq = sq.step(dir);
                    }
                }
            }
            if next_len == 0 {
                break;
            }
            std::mem::swap(&mut frontier, &mut next);
            len = next_len;
        }
        limit + 1
    }

    /// The squares a royal piece of `side` wins on: escape squares for the king, the side's own
    /// Havens for a Standard.
    pub(crate) fn goal_squares(&self, side: Side) -> SquareSet {
        let v = self.variant;
        let mut goal = SquareSet::EMPTY;
        for sq in v.squares() {
            let hit = if v.rules.armies {
                v.terrain(sq) == Terrain::Haven && v.field_owner(sq) == Some(side)
            } else {
                side == Side::Defenders && self.escapes_on(sq)
            };
            if hit {
                goal.insert(sq);
            }
        }
        goal
    }

    /// The number of enemy pieces (and hostile empty squares) next to `sq`, for a piece of `side`.
    pub(crate) fn pressure(&self, sq: Square, side: Side) -> u32 {
        Dir::ALL
            .iter()
            .filter(|d| {
                let c = self.cells[sq.step(**d).index()];
                if c & PIECE_MASK != 0 {
                    side_of(c) != side
                } else {
                    matches!(terrain_of(c), Terrain::Throne | Terrain::Corner)
                }
            })
            .count() as u32
    }

    /// The king's room: how many squares he could reach, a step at a time, through squares
    /// free of attackers (his own men counted as free, since they can make way). Closing a ring
    /// around him cuts it from most of the board to the ring's inside, and every step the ring
    /// takes inwards cuts it further. 0 without a king.
    ///
    /// Grown a rank at a time: each rank's part is spread along the rank's runs of open squares,
    /// then into the ranks above and below, sweeping up and down until nothing changes.
    pub(crate) fn king_room(&self) -> u32 {
        let Some(king) = self.royal[Side::Defenders.index()] else {
            return 0;
        };
        let v = self.variant;
        let ranks = v.ranks as usize;
        let mut open = [0u32; MAX_RANKS as usize];
        let free = v.board.minus(&self.pieces[Side::Attackers.index()]);
        for (rank, open) in open.iter_mut().enumerate().take(ranks) {
            *open = free.rank_bits(rank as u8);
        }
        let mut region = [0u32; MAX_RANKS as usize];
        let k = king.rank() as usize;
        region[k] = spread_along(1 << king.file(), open[k]);
        // Sweeps up and down in turn, until one adds nothing: then every rank holds all that
        // its neighbours lead to.
        for sweep in 0.. {
            let mut grew = false;
            if sweep % 2 == 0 {
                for rank in 1..ranks {
                    grew |= spread_from(&mut region, &open, rank - 1, rank);
                }
            } else {
                for rank in (0..ranks - 1).rev() {
                    grew |= spread_from(&mut region, &open, rank + 1, rank);
                }
            }
            // The first sweep up leaves the ranks below the king for the first sweep down.
            if !grew && sweep > 0 {
                break;
            }
        }
        region[..ranks].iter().map(|r| r.count_ones()).sum()
    }
}

/// The king's reach toward an escape: [`Position::king_lines`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct KingLines {
    /// The moves that escape now: at most four, one per direction.
    pub escapes: u32,
    /// The squares he reaches in one move that have a clear line to an escape square.
    pub routes: u32,
    /// Those of them with two clear lines or more.
    pub forks: u32,
}

/// Whether rank `to`'s part of the region grew from rank `from`'s.
#[inline]
fn spread_from(region: &mut [u32], open: &[u32], from: usize, to: usize) -> bool {
    let seeds = region[from] & open[to] & !region[to];
    if seeds != 0 {
        region[to] = spread_along(region[to] | seeds, open[to]);
    }
    seeds != 0
}

/// `seeds` (open squares) spread both ways along a rank through the `open` squares: the runs of
/// open squares that hold a seed. Upwards by one addition: a seed's carry runs through the open
/// squares above it and stops past the run's end. Downwards by doubling steps, as far as any rank
/// reaches.
#[inline]
fn spread_along(seeds: u32, open: u32) -> u32 {
    // A rank has at most MAX_FILES bits, so the carry past the highest run stays in the word.
    let up = ((open + seeds) ^ open) & open;
    let (mut down, mut pass) = (seeds, open);
    for step in [1, 2, 4, 8, 16] {
        down |= pass & (down >> step);
        pass &= pass >> step;
    }
    up | down
}

#[cfg(test)]
mod tests;

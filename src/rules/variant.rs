//! The variant table: one row of data per game, plus the tables derived from it once at start-up.

use std::sync::LazyLock;

use super::by_side::BySide;
use super::piece::{Role, Side};
use super::square::{fold, Square, SquareSet, GRID, MAX_FILES, MAX_RANKS};

/// The family a variant belongs to; it names the pieces and the sides.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Tyr,
    Odin,
    SeaBattle,
    Tablut,
    SaveTheStandard,
    /// Copenhagen and Fetlar: 11x11, corner escape, a strong king.
    Copenhagen,
    Brandubh,
}

/// How the king (or cargo ship) is captured.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingCapture {
    /// Weak: two attackers on opposite sides, like any piece.
    Custodian,
    /// Attackers on all four sides (so never on the edge).
    FourSides,
    /// Four attackers on the throne, three beside it (the throne closes the fourth), two
    /// elsewhere: Tablut (both readings) and Brandubh.
    NearThrone,
    /// Copenhagen: four sides, or three and the throne; never on the edge.
    Copenhagen,
}

/// How the defenders win by moving the king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Escape {
    /// The king reaches any edge square.
    Edge,
    /// The king reaches a corner square.
    Corner,
    /// No king: Save the Standard.
    None,
}

/// Which pieces a commander may jump.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Jumps {
    /// Any adjacent piece but the king and commanders (TYR with commanders).
    FriendOrFoe,
    /// Only enemy pieces, never the king or a commander (ODIN).
    EnemiesOnly,
}

/// The centre square's rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Throne {
    /// Cartier's Tablut: nobody stops on it or passes it once the king has left; hostile when empty,
    /// and to a defender beside it when the king sits on it surrounded by three attackers.
    Cartier,
    /// Copenhagen: only the king stops on it, anyone passes it empty; hostile to attackers always and
    /// to defenders when empty.
    Copenhagen,
}

/// What a repeated position does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// A defenders' turn that produces a position for the third time loses for the defenders.
    DefendersLose,
    /// A move that would produce a position for the third time is illegal.
    Illegal,
    /// A position occurring for the third time is a draw.
    Draw,
    /// Copenhagen as played on aagenielsen.dk: defenders who shuttle the same move back and forth
    /// (a repeated pair of non-capturing moves) three times in a row lose.
    Perpetual,
    /// As `Perpetual`, for either side: the side that shuttles three times in a row loses
    /// (Brandubh, as the `hnefatafl` crate's Federation Brandubh plays it).
    PerpetualEitherSide,
}

/// The rule switches of a variant.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The king captures, as mover and as the far piece of a sandwich.
    pub king_armed: bool,
    pub king_capture: KingCapture,
    pub escape: Escape,
    /// A capturing move lets the same piece move again while it keeps capturing.
    pub berserk: bool,
    pub jumps: Option<Jumps>,
    pub throne: Option<Throne>,
    /// Only the king may stop on a corner, and corners are hostile to all.
    pub corners: bool,
    /// The attackers win when no defender can reach the edge.
    pub encirclement: bool,
    pub shieldwall: bool,
    pub exit_fort: bool,
    pub repetition: Repetition,
    /// A side left without a legal move draws instead of losing (Linnaeus' Tablut).
    pub no_move_draws: bool,
    /// Save the Standard: two fields, a river, turns of a defending and an attacking move.
    pub armies: bool,
}

/// A special square. Kept in bits 4..7 of a board cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Terrain {
    Plain = 0,
    Throne = 1,
    Corner = 2,
    Water = 3,
    Bridge = 4,
    Hill = 5,
    Haven = 6,
    OffBoard = 7,
}

impl Terrain {
    pub(crate) const fn from_bits(bits: u8) -> Terrain {
        match bits {
            0 => Terrain::Plain,
            1 => Terrain::Throne,
            2 => Terrain::Corner,
            3 => Terrain::Water,
            4 => Terrain::Bridge,
            5 => Terrain::Hill,
            6 => Terrain::Haven,
            _ => Terrain::OffBoard,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plain => "square",
            Terrain::Throne => "throne",
            Terrain::Corner => "corner",
            Terrain::Water => "river",
            Terrain::Bridge => "bridge",
            Terrain::Hill => "Hill",
            Terrain::Haven => "Haven",
            Terrain::OffBoard => "edge of the board",
        }
    }
}

pub(crate) const TERRAIN_SHIFT: u8 = 4;
/// Row masks: one per grid row (the board's ranks and the border rows).
pub(crate) const RANK_MASKS: usize = MAX_RANKS as usize + 2;
pub(crate) const FILE_MASKS: usize = MAX_FILES as usize;
/// A piece may pass over the square.
pub(crate) const PASS: u8 = 1;
/// A piece may end its move on the square.
pub(crate) const STOP: u8 = 2;

/// One row of the variant table.
pub struct Row {
    pub id: &'static str,
    pub name: &'static str,
    pub family: Family,
    pub files: u8,
    pub ranks: u8,
    /// The start position as a position string; its side letter says who moves first.
    pub setup: &'static str,
    pub rules: Rules,
    pub summary: &'static str,
}

/// A variant: its table row and the board tables derived from it.
pub struct Variant {
    pub id: &'static str,
    pub name: &'static str,
    pub family: Family,
    pub files: u8,
    pub ranks: u8,
    pub setup: &'static str,
    pub first: Side,
    pub rules: Rules,
    pub summary: &'static str,
    /// The empty board: terrain in bits 4..7 of every cell, off-board cells marked.
    pub(crate) empty_cells: [u8; GRID],
    /// Per grid row (rank + 1), a bit per file (bit file + 1) for every square a slide cannot cross
    /// as a plain empty square: off-board and special squares. Pieces are added by positions.
    pub(crate) empty_rows: [u32; RANK_MASKS],
    /// Per file, a bit per rank (bit rank + 1), likewise.
    pub(crate) empty_cols: [u32; FILE_MASKS],
    /// `access[role][terrain]`: PASS and STOP bits.
    pub(crate) access: [[u8; 8]; 8],
    /// Whether a role may pass or stop on any special square of this board, so that a slide must
    /// look beyond one; false for every role in variants without special squares (and for all in
    /// Tablut, whose throne bars everyone).
    pub(crate) walks_specials: [bool; 8],
    /// Save the Standard: the squares from which a side's piece moves in the defending slot (its
    /// own field and the bridges), indexed by side. Empty for other variants.
    pub(crate) home: BySide<SquareSet>,
    /// Save the Standard: the squares from which a piece moves in the attacking slot.
    pub(crate) away: BySide<SquareSet>,
    /// The squares on the board's edge.
    pub(crate) edge: SquareSet,
    /// The special squares (throne, corners, river, Hills, Havens): the ones that may be hostile.
    pub(crate) specials: SquareSet,
    /// Every square of the board.
    pub(crate) board: SquareSet,
    /// Each square's class by [`fold`] (0 off the board).
    pub(crate) folds: [u8; GRID],
    /// The start position, read from `setup` when first asked for.
    pub(crate) start: std::sync::OnceLock<super::position::Position>,
    pub(crate) centre: Option<Square>,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({})", self.id)
    }
}

impl Variant {
    /// Every variant, in the order of the table.
    pub fn all() -> &'static [Variant] {
        &VARIANTS
    }

    /// The variant with this id (`tyr-11`, `tablut`, ...), case-insensitive.
    pub fn by_id(id: &str) -> Option<&'static Variant> {
        VARIANTS
            .iter()
            .find(|v| v.id.eq_ignore_ascii_case(id.trim()))
    }

    /// The terrain of a square of this board.
    pub fn terrain(&self, sq: Square) -> Terrain {
        Terrain::from_bits(self.empty_cells[sq.index()] >> TERRAIN_SHIFT)
    }

    /// Whether the square lies on the board's edge.
    pub fn edge_contains(&self, sq: Square) -> bool {
        self.edge.contains(sq)
    }

    /// Whether the square lies on this board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.file() < self.files && sq.rank() < self.ranks
    }

    /// Every square of the board, rank by rank from `a1`.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ranks).flat_map(move |r| (0..self.files).filter_map(move |f| Square::new(f, r)))
    }

    /// The side's name in messages: "attackers", "defenders", "Gold", "Red".
    pub fn side_name(&self, side: Side) -> &'static str {
        match (self.family, side) {
            (Family::SaveTheStandard, Side::GOLD) => "Gold",
            (Family::SaveTheStandard, _) => "Red",
            (_, Side::Attackers) => "attackers",
            (_, Side::Defenders) => "defenders",
        }
    }

    /// The side as a sentence names it: "the attackers", "the defenders", but "Gold" and "Red".
    pub fn the_side(&self, side: Side) -> String {
        match self.family {
            Family::SaveTheStandard => self.side_name(side).to_string(),
            _ => format!("the {}", self.side_name(side)),
        }
    }

    /// "the defenders' turn", "Gold's turn".
    pub fn turn_phrase(&self, side: Side) -> &'static str {
        match (self.family, side) {
            (Family::SaveTheStandard, Side::GOLD) => "Gold's turn",
            (Family::SaveTheStandard, _) => "Red's turn",
            (_, Side::Attackers) => "the attackers' turn",
            (_, Side::Defenders) => "the defenders' turn",
        }
    }

    /// The letter of the side in a position string.
    pub fn side_letter(&self, side: Side) -> char {
        match (self.family, side) {
            (Family::SaveTheStandard, Side::GOLD) => 'g',
            (Family::SaveTheStandard, _) => 'r',
            (_, Side::Attackers) => 'a',
            (_, Side::Defenders) => 'd',
        }
    }

    /// The name of a role in this variant ("cargo ship" for Sea Battle's king).
    pub fn role_name(&self, role: Role) -> &'static str {
        match (self.family, role) {
            (Family::SeaBattle, Role::King) => "cargo ship",
            _ => role.name(),
        }
    }

    /// The role's name with its article: "a man", "the king", "Infantry".
    pub fn role_phrase(&self, role: Role) -> String {
        match role {
            Role::King | Role::Standard => format!("the {}", self.role_name(role)),
            Role::Infantry | Role::Cavalry => self.role_name(role).to_string(),
            _ => format!("a {}", self.role_name(role)),
        }
    }

    /// The roles that a position of this variant may hold.
    pub fn roles(&self) -> &'static [Role] {
        match self.family {
            Family::SaveTheStandard => &[Role::Standard, Role::Infantry, Role::Cavalry],
            Family::Odin => &[Role::Man, Role::King, Role::Commander, Role::VMan],
            _ if self.rules.jumps.is_some() => &[Role::Man, Role::King, Role::Commander],
            _ => &[Role::Man, Role::King],
        }
    }

    /// Save the Standard: the side whose home field holds this square (None on the river).
    pub fn field_owner(&self, sq: Square) -> Option<Side> {
        if !self.rules.armies {
            return None;
        }
        let river = self.ranks / 2;
        match sq.rank().cmp(&river) {
            std::cmp::Ordering::Less => Some(Side::GOLD),
            std::cmp::Ordering::Greater => Some(Side::RED),
            std::cmp::Ordering::Equal => None,
        }
    }

    #[inline(always)]
    pub(crate) fn access(&self, role: Role) -> &[u8; 8] {
        &self.access[role as usize]
    }

    fn build(row: &Row) -> Variant {
        let mut cells = [(Terrain::OffBoard as u8) << TERRAIN_SHIFT; GRID];
        let mut edge = SquareSet::EMPTY;
        let mut board = SquareSet::EMPTY;
        let mut folds = [0; GRID];
        let (w, h) = (row.files, row.ranks);
        for r in 0..h {
            for f in 0..w {
                let sq = Square::new(f, r).expect("variant boards fit the grid");
                cells[sq.index()] = 0;
                folds[sq.index()] = fold(f, r, w, h) as u8;
                board.insert(sq);
                if f == 0 || r == 0 || f == w - 1 || r == h - 1 {
                    edge.insert(sq);
                }
            }
        }
        let mut set = |f: u8, r: u8, t: Terrain| {
            let sq = Square::new(f, r).expect("special squares lie on the board");
            cells[sq.index()] = (t as u8) << TERRAIN_SHIFT;
        };
        let centre = (row.rules.throne.is_some()).then(|| Square::new(w / 2, h / 2).unwrap());
        if let Some(c) = centre {
            set(c.file(), c.rank(), Terrain::Throne);
        }
        if row.rules.corners {
            for (f, r) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
                set(f, r, Terrain::Corner);
            }
        }
        let mut home = BySide::new(SquareSet::EMPTY, SquareSet::EMPTY);
        let mut away = BySide::new(SquareSet::EMPTY, SquareSet::EMPTY);
        if row.rules.armies {
            // Two square fields of `w` ranks, the river between them.
            let river = h / 2;
            let bridges: &[u8] = if w == 7 { &[1, 3, 5] } else { &[3, 6, 9] };
            for f in 0..w {
                let t = if bridges.contains(&f) {
                    Terrain::Bridge
                } else {
                    Terrain::Water
                };
                set(f, river, t);
            }
            for base in [0, river + 1] {
                set(w / 2, base + w / 2, Terrain::Hill);
                for (f, r) in [
                    (0, base),
                    (w - 1, base),
                    (0, base + w - 1),
                    (w - 1, base + w - 1),
                ] {
                    set(f, r, Terrain::Haven);
                }
            }
            for r in 0..h {
                for f in 0..w {
                    let sq = Square::new(f, r).unwrap();
                    let (gold, red) = (Side::GOLD, Side::RED);
                    if r < river {
                        home[gold].insert(sq);
                        away[red].insert(sq);
                    } else if r > river {
                        home[red].insert(sq);
                        away[gold].insert(sq);
                    } else if bridges.contains(&f) {
                        for s in [gold, red] {
                            home[s].insert(sq);
                            away[s].insert(sq);
                        }
                    }
                }
            }
        }
        let mut specials = SquareSet::EMPTY;
        for (i, c) in cells.iter().enumerate() {
            let t = c >> TERRAIN_SHIFT;
            if t != Terrain::Plain as u8 && t != Terrain::OffBoard as u8 {
                specials.insert(Square::from_index(i));
            }
        }
        let access = access_table(&row.rules);
        let mut walks_specials = [false; 8];
        for (role, walks) in walks_specials.iter_mut().enumerate() {
            *walks = cells
                .iter()
                .map(|c| c >> TERRAIN_SHIFT)
                .filter(|t| *t != Terrain::Plain as u8 && *t != Terrain::OffBoard as u8)
                .any(|t| access[role][t as usize] != 0);
        }
        let mut empty_rows = [u32::MAX; RANK_MASKS];
        let mut empty_cols = [u32::MAX; FILE_MASKS];
        for r in 0..h {
            for f in 0..w {
                let sq = Square::new(f, r).unwrap();
                if cells[sq.index()] == 0 {
                    empty_rows[r as usize + 1] &= !(1 << (f + 1));
                    empty_cols[f as usize] &= !(1 << (r + 1));
                }
            }
        }
        Variant {
            id: row.id,
            name: row.name,
            family: row.family,
            files: w,
            ranks: h,
            setup: row.setup,
            first: match row.setup.split_whitespace().nth(1) {
                Some("d") | Some("g") => Side::Defenders,
                _ => Side::Attackers,
            },
            rules: row.rules,
            summary: row.summary,
            empty_cells: cells,
            empty_rows,
            empty_cols,
            access,
            walks_specials,
            home,
            away,
            edge,
            specials,
            board,
            folds,
            centre,
            start: std::sync::OnceLock::new(),
        }
    }
}

/// Which terrain each role may pass over and stop on.
fn access_table(rules: &Rules) -> [[u8; 8]; 8] {
    let mut table = [[0u8; 8]; 8];
    for role in Role::ALL {
        let row = &mut table[role as usize];
        row[Terrain::Plain as usize] = PASS | STOP;
        row[Terrain::Throne as usize] = match rules.throne {
            Some(Throne::Cartier) | None => 0,
            Some(Throne::Copenhagen) if role == Role::King => PASS | STOP,
            Some(Throne::Copenhagen) => PASS,
        };
        row[Terrain::Corner as usize] = if role == Role::King { PASS | STOP } else { 0 };
        row[Terrain::Water as usize] = 0;
        row[Terrain::Bridge as usize] = if role == Role::Infantry {
            PASS | STOP
        } else {
            0
        };
        let special = if role == Role::Infantry {
            PASS
        } else {
            PASS | STOP
        };
        row[Terrain::Hill as usize] = special;
        row[Terrain::Haven as usize] = special;
        row[Terrain::OffBoard as usize] = 0;
    }
    table
}

use super::catalogue::TABLE;

static VARIANTS: LazyLock<Vec<Variant>> =
    LazyLock::new(|| TABLE.iter().map(Variant::build).collect());

//! The variant table: one row of data per game, plus the tables derived from it once at start-up.

use std::sync::LazyLock;

use super::by_side::BySide;
use super::piece::{Role, Side};
use super::square::{Square, SquareSet, GRID, MAX_FILES, MAX_RANKS};

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
        let (w, h) = (row.files, row.ranks);
        for r in 0..h {
            for f in 0..w {
                let sq = Square::new(f, r).expect("variant boards fit the grid");
                cells[sq.index()] = 0;
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

const TAFL: Rules = Rules {
    king_armed: true,
    king_capture: KingCapture::Custodian,
    escape: Escape::Edge,
    berserk: false,
    jumps: None,
    throne: None,
    corners: false,
    encirclement: false,
    shieldwall: false,
    exit_fort: false,
    repetition: Repetition::DefendersLose,
    no_move_draws: false,
    armies: false,
};

const TYR: Rules = Rules {
    berserk: true,
    ..TAFL
};
const TYR_COMMANDERS: Rules = Rules {
    jumps: Some(Jumps::FriendOrFoe),
    ..TYR
};
const ODIN: Rules = Rules {
    jumps: Some(Jumps::EnemiesOnly),
    ..TYR
};
const SEA_BATTLE: Rules = Rules {
    king_armed: false,
    king_capture: KingCapture::FourSides,
    encirclement: true,
    ..TAFL
};
const TABLUT: Rules = Rules {
    king_capture: KingCapture::NearThrone,
    throne: Some(Throne::Cartier),
    repetition: Repetition::Illegal,
    ..TAFL
};
const STANDARD: Rules = Rules {
    king_armed: true,
    king_capture: KingCapture::FourSides,
    escape: Escape::None,
    repetition: Repetition::Draw,
    armies: true,
    ..TAFL
};

const COPENHAGEN: Rules = Rules {
    king_capture: KingCapture::Copenhagen,
    escape: Escape::Corner,
    throne: Some(Throne::Copenhagen),
    corners: true,
    encirclement: true,
    shieldwall: true,
    exit_fort: true,
    repetition: Repetition::Perpetual,
    ..TAFL
};

/// Tablut as Linnaeus' account is read by the `hnefatafl` crate: Cartier's board, moves and
/// captures, but games that cannot be won are drawn.
const LINNAEUS: Rules = Rules {
    repetition: Repetition::Draw,
    no_move_draws: true,
    ..TABLUT
};

/// Brandubh as the `hnefatafl` crate's Federation Brandubh preset plays it.
const BRANDUBH: Rules = Rules {
    king_capture: KingCapture::NearThrone,
    escape: Escape::Corner,
    throne: Some(Throne::Copenhagen),
    corners: true,
    encirclement: true,
    repetition: Repetition::PerpetualEitherSide,
    ..TAFL
};

/// Fetlar Hnefatafl (the Fetlar Hnefatafl Panel's rules): Copenhagen without shieldwalls or exit
/// forts, and repetition draws.
const FETLAR: Rules = Rules {
    shieldwall: false,
    exit_fort: false,
    repetition: Repetition::Draw,
    ..COPENHAGEN
};

const COPENHAGEN_SUMMARY: &str = "The rules of aagenielsen.dk and hnefatafl.org. Attackers move first. Only \
the king may stop on the throne f6 or a corner; any piece may pass the empty throne. Custodian capture; the \
king is armed. The corners are hostile to all, the throne to the attackers always and to the defenders when \
empty. Shieldwall: a row of two or more pieces along an edge, each faced by an enemy, is captured when the \
mover closes both ends (a corner may close one); a king in the row survives. The king is captured on four \
sides, or three and the throne, never on the edge. The defenders win when the king reaches a corner or \
builds an exit fort (on the edge, free to move, walled in by defenders that cannot be captured); the \
attackers win by capturing the king or by encirclement. Defenders who repeat the same pair of moves back \
and forth three times in a row lose.";

const TYR_SUMMARY: &str = "Attackers move first. No throne and no special squares. Custodian capture by any two \
pieces; the king is armed and weak (two attackers capture him). The king escapes on any edge square. Berserk: \
after a capture the same piece may move again while it keeps capturing, and the king may end such a chain with a \
run to the edge. A defenders' move that repeats a position for the third time loses.";
const TYR_COMMANDERS_SUMMARY: &str = "TYR with commanders: as TYR, and a commander may also jump over one \
adjacent piece (friend or foe, never the king or a commander) onto the empty square beyond; the jump captures \
from its landing square and may start or continue a berserk chain.";
const ODIN_SUMMARY: &str =
    "ODIN: TYR with commanders that jump only enemy pieces, and V-men that change sides \
instead of leaving the board when captured (a change of side counts as a capture for berserk).";
const SEA_BATTLE_SUMMARY: &str = "Attackers move first. No special squares. Custodian capture of every piece \
but the cargo ship, which is unarmed and is captured only by attackers on all four sides. The defenders win \
when the cargo ship reaches any edge square; the attackers win by capturing it, or by encirclement: no defender \
can reach the edge. A defenders' move that repeats a position for the third time loses.";
const TABLUT_SUMMARY: &str = "Cartier's rules. Muscovites (attackers) move first. No piece may stop on or pass \
the throne e5, not even the king once he has left it. The empty throne is hostile to both sides. The king is \
armed; he is captured by four attackers on the throne, three beside it, two elsewhere, and escapes on any edge \
square. A move that would repeat a position for the third time is illegal.";
const LINNAEUS_SUMMARY: &str = "Tablut as Linnaeus' account is most often read today. Board, moves and \
captures as in Cartier's `tablut`: attackers first, nobody stops on or passes the throne e5 (the king may not \
return), the empty throne is hostile to both sides, the king is armed and is captured by four attackers on the \
throne, three beside it, two elsewhere, and escapes on any edge square. Games that cannot be won are drawn: a \
position reached for the third time is a draw, and so is a side left with pieces but no move.";
const BRANDUBH_SUMMARY: &str = "The Irish 7x7 game: 8 attackers against 4 defenders and an armed king. \
Attackers move first. Only the king may stop on the throne d4 or a corner; any piece passes the empty throne. \
The corners are hostile to all, the king included; the throne to the attackers always and to the defenders when \
empty. The king is captured by four attackers on the throne, three beside it (the throne closing the fourth), \
two elsewhere (or one against a corner). The defenders win when the king reaches a corner; the attackers win by \
capturing him or by encirclement. A side that shuttles the same pair of moves back and forth three times in a \
row loses; so does a side with no move.";
const FETLAR_SUMMARY: &str = "The rules of the Fetlar Hnefatafl Panel (2007). Copenhagen's board and start; \
attackers move first. Only the king may stop on the throne f6 or a corner; any piece passes the empty throne. \
Custodian capture; the king is armed. The corners are hostile to all, the throne to the attackers always and \
to the defenders when empty. The king is captured on four sides, or three and the throne, never on the edge. \
The defenders win when the king reaches a corner; the attackers win by capturing him or by encircling every \
defender. No shieldwall and no exit fort. A position reached for the third time is a draw; a side with no move \
loses.";
const STANDARD_SUMMARY: &str = "Two armies, two home fields, a river with three bridges. Gold opens with one \
attacking move; then each turn is a defending move (a piece in its own field) and an attacking move (a piece in \
the enemy field). Only Infantry crosses bridges; Infantry may not stop on a Hill or Haven. Cavalry may end a \
rook move with one step at right angles. Capture by sandwich, Hills and Havens counting as the capturer's; a \
Standard needs enemies on all four sides, and may take Cavalry standing on a Hill or Haven by moving onto it. \
Win by capturing the enemy Standard or by bringing yours to one of your Havens. A third repetition is a draw.";

macro_rules! row {
    ($id:literal, $name:literal, $family:ident, $w:literal x $h:literal, $rules:ident, $summary:ident, $setup:literal) => {
        Row {
            id: $id,
            name: $name,
            family: Family::$family,
            files: $w,
            ranks: $h,
            setup: $setup,
            rules: $rules,
            summary: $summary,
        }
    };
}

/// The table. Setups are RULES.md's diagrams written as position strings.
pub const TABLE: &[Row] = &[
    row!("tyr-11", "TYR 11x11 (Simple Tyr)", Tyr, 11 x 11, TYR, TYR_SUMMARY,
        "t2t3t2t/11/2t2t2t2/t2t1T1t2t/4TTT4/2tTTKTTt2/4TTT4/t2t1T1t2t/2t2t2t2/11/t2t3t2t a"),
    row!("tyr-15", "TYR 15x15 (Simple Tyr)", Tyr, 15 x 15, TYR, TYR_SUMMARY,
        "t2t3t3t2t/15/2t2t3t2t2/t2t2t1t2t2t/4T2T2T4/2t3T1T3t2/3t1T1T1T1t3/t3T1TKT1T3t/3t1T1T1T1t3/2t3T1T3t2/4T2T2T4/t2t2t1t2t2t/2t2t3t2t2/15/t2t3t3t2t a"),
    row!("tyr-17", "TYR 17x17 (Simple Tyr)", Tyr, 17 x 17, TYR, TYR_SUMMARY,
        "t3t3t3t3t/17/2t3t1t1t3t2/3t3t1t3t3/t3t3T3t3t/5T2T2T5/2t4T1T4t2/3t2T1T1T2t3/t1t1TT1TKT1TT1t1t/3t2T1T1T2t3/2t4T1T4t2/5T2T2T5/t3t3T3t3t/3t3t1t3t3/2t3t1t1t3t2/17/t3t3t3t3t a"),
    row!("tyr-commanders-11", "TYR with commanders 11x11", Tyr, 11 x 11, TYR_COMMANDERS, TYR_COMMANDERS_SUMMARY,
        "t2t3t2t/11/2t2t2t2/t2c1T1c2t/4TTT4/2tTTKTTt2/4TTT4/t2c1T1c2t/2t2t2t2/11/t2t3t2t a"),
    row!("tyr-commanders-15", "TYR with commanders 15x15", Tyr, 15 x 15, TYR_COMMANDERS, TYR_COMMANDERS_SUMMARY,
        "t2t3t3t2t/15/2t2t3t2t2/t2c2t1t2c2t/4T2T2T4/2t3T1T3t2/3t1T1T1T1t3/t3T1TKT1T3t/3t1T1T1T1t3/2t3T1T3t2/4T2T2T4/t2c2t1t2c2t/2t2t3t2t2/15/t2t3t3t2t a"),
    row!("tyr-commanders-17", "TYR with commanders 17x17", Tyr, 17 x 17, TYR_COMMANDERS, TYR_COMMANDERS_SUMMARY,
        "t3t3t3t3t/17/2t3t1t1t3t2/3c3t1t3c3/t3t3T3t3t/5T2T2T5/2t4T1T4t2/3t2T1T1T2t3/t1t1TT1TKT1TT1t1t/3t2T1T1T2t3/2t4T1T4t2/5T2T2T5/t3t3T3t3t/3c3t1t3c3/2t3t1t1t3t2/17/t3t3t3t3t a"),
    row!("odin-11", "ODIN 11x11", Odin, 11 x 11, ODIN, ODIN_SUMMARY,
        "t2t3t2t/5c5/2t1vt2t2/t2t1CVt2t/3VTTT1v2/1ctCTKTCtc1/2v1TTTV3/t2tVC1t2t/2t2tv1t2/5c5/t2t3t2t a"),
    row!("odin-15", "ODIN 15x15", Odin, 15 x 15, ODIN, ODIN_SUMMARY,
        "t2t3t3t2t/7c7/2t2t1v1t2t2/t2t2t1t2t2t/4T2C2T4/2t3TVT3t2/3t1T1T1T1t3/tcv1CVTKTVC1vct/3t1T1T1T1t3/2t3TVT3t2/4T2C2T4/t2t2t1t2t2t/2t2t1v1t2t2/7c7/t2t3t3t2t a"),
    row!("odin-17", "ODIN 17x17", Odin, 17 x 17, ODIN, ODIN_SUMMARY,
        "t3t3t3t3t/8c8/2t1v1t1t1t3t2/3t3t1t3t3/t3t3C3t1v1t/5T2T2T5/2t4TVT4t2/3t2T1T1T2t3/tct1CTVTKTVTC1tct/3t2T1T1T2t3/2t4TVT4t2/5T2T2T5/t1v1t3C3t3t/3t3t1t3t3/2t3t1t1t1v1t2/8c8/t3t3t3t3t a"),
    row!("sea-battle-9", "Sea Battle 9x9", SeaBattle, 9 x 9, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "4t4/1t2t2t1/2t3t2/3TTT3/tt1TKT1tt/3TTT3/2t3t2/1t2t2t1/4t4 a"),
    row!("sea-battle-11", "Sea Battle 11x11", SeaBattle, 11 x 11, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "3ttttt3/5t5/5T5/t4T4t/t4T4t/ttTTTKTTTtt/t4T4t/t4T4t/5T5/5t5/3ttttt3 a"),
    row!("sea-battle-13", "Sea Battle 13x13", SeaBattle, 13 x 13, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4 a"),
    row!("sea-battle-15", "Sea Battle 15x15", SeaBattle, 15 x 15, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5 a"),
    row!("tablut", "Tablut (Cartier)", Tablut, 9 x 9, TABLUT, TABLUT_SUMMARY,
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"),
    row!("tablut-linnaeus", "Tablut (Linnaeus)", Tablut, 9 x 9, LINNAEUS, LINNAEUS_SUMMARY,
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"),
    row!("brandubh", "Brandubh 7x7", Brandubh, 7 x 7, BRANDUBH, BRANDUBH_SUMMARY,
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a"),
    row!("copenhagen", "Copenhagen Hnefatafl 11x11", Copenhagen, 11 x 11, COPENHAGEN, COPENHAGEN_SUMMARY,
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a"),
    row!("fetlar", "Fetlar Hnefatafl 11x11", Copenhagen, 11 x 11, FETLAR, FETLAR_SUMMARY,
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a"),
    row!("standard-7", "Save the Standard 7", SaveTheStandard, 7 x 15, STANDARD, STANDARD_SUMMARY,
        "3H3/3i3/I2i2I/IIisiII/I2i2I/3i3/3H3/7/3h3/3I3/i2I2i/iiISIii/i2I2i/3I3/3h3 g slot:attacking"),
    row!("standard-13", "Save the Standard 13", SaveTheStandard, 13 x 27, STANDARD, STANDARD_SUMMARY,
        "5III5/6I6/6H6/6i6/6i6/I5i5I/IIHiiisiiiHII/I5i5I/6i6/6i6/6H6/6I6/5III5/13/5iii5/6i6/6h6/6I6/6I6/i5I5i/iihIIISIIIhii/i5I5i/6I6/6I6/6h6/6i6/5iii5 g slot:attacking"),
];

static VARIANTS: LazyLock<Vec<Variant>> =
    LazyLock::new(|| TABLE.iter().map(Variant::build).collect());

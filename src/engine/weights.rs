//! The evaluation's weights as data: one row of numbers per family, read from a committed text
//! file. Two sets are kept: the classic one, set by hand, and the taught one, fitted to games by
//! `taflbot tune` (see [`super::teach`]). Pure: the files are compiled in.

use std::fmt::Write;

use crate::rules::{Family, FOLDED};

/// The groups of terms, each a name in the weights file and a run of weights. The evaluation
/// adds each term's value times its weight, counted for the defenders (what favours the attackers
/// has a negative value).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Group {
    /// A constant for the defenders: how the sides' chances stand when the other terms are even
    /// (where the start is taken off every score, as in variants with draws, it never counts).
    Bias,
    /// A man (or V-man): the attackers', then the defenders'.
    Man,
    /// A commander: the attackers', then the defenders'.
    Commander,
    /// Save the Standard's Infantry and Cavalry.
    Infantry,
    Cavalry,
    /// The royal piece's road home if only he moved: one move, two, or more (but somewhere to
    /// go).
    Road,
    /// Per line the king could escape by in one move beyond the first.
    OpenRoad,
    /// Per enemy piece or hostile square beside a royal piece (a penalty for its owner).
    Pressure,
    /// Per attacker on a corner's approaches (corner escapes), at most a family's cap a corner.
    Guard,
    /// Per defender with an open line to the edge.
    EdgeLines,
    /// Per square of the king's room (on boards wide enough for it to count).
    Room,
    /// When the defenders are down to a few men: per square cut off from the king's room.
    MopUp,
    /// Then per step the attackers stand nearer the king than the board is wide.
    CloseIn,
    /// Per square the king reaches in one move that has a clear line to an escape.
    Routes,
    /// Per such square with two lines: two cannot both be closed with one move.
    Forks,
    /// Per corner whose diagonal fence (the three squares two steps from it, b2's diagonal
    /// included) holds two attackers or more.
    Fence,
    /// Per attacker on a square, the squares folded by the board's symmetry (see [`crate::rules::fold`]).
    AttackerSquares,
    /// Per defender (not the king) on a square, folded.
    DefenderSquares,
    /// The king's square, folded.
    KingSquares,
}

impl Group {
    pub const ALL: [Group; 19] = [
        Group::Bias,
        Group::Man,
        Group::Commander,
        Group::Infantry,
        Group::Cavalry,
        Group::Road,
        Group::OpenRoad,
        Group::Pressure,
        Group::Guard,
        Group::EdgeLines,
        Group::Room,
        Group::MopUp,
        Group::CloseIn,
        Group::Routes,
        Group::Forks,
        Group::Fence,
        Group::AttackerSquares,
        Group::DefenderSquares,
        Group::KingSquares,
    ];

    /// The name in the weights file.
    pub fn name(self) -> &'static str {
        match self {
            Group::Bias => "bias",
            Group::Man => "man",
            Group::Commander => "commander",
            Group::Infantry => "infantry",
            Group::Cavalry => "cavalry",
            Group::Road => "road",
            Group::OpenRoad => "open_road",
            Group::Pressure => "pressure",
            Group::Guard => "guard",
            Group::EdgeLines => "edge_lines",
            Group::Room => "room",
            Group::MopUp => "mop_up",
            Group::CloseIn => "close_in",
            Group::Routes => "routes",
            Group::Forks => "forks",
            Group::Fence => "fence",
            Group::AttackerSquares => "attacker_squares",
            Group::DefenderSquares => "defender_squares",
            Group::KingSquares => "king_squares",
        }
    }

    /// How many weights it has.
    pub const fn width(self) -> usize {
        match self {
            Group::Man | Group::Commander => 2,
            Group::Road => 3,
            Group::AttackerSquares | Group::DefenderSquares | Group::KingSquares => FOLDED,
            _ => 1,
        }
    }

    /// Where its weights start in a row.
    pub const fn at(self) -> usize {
        let mut at = 0;
        let mut i = 0;
        while i < Group::ALL.len() {
            if Group::ALL[i] as usize == self as usize {
                return at;
            }
            at += Group::ALL[i].width();
            i += 1;
        }
        at
    }
}

/// The weights in a row.
pub const TERMS: usize = Group::KingSquares.at() + Group::KingSquares.width();

/// One family's weights.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Weights {
    pub values: [i32; TERMS],
}

impl Weights {
    pub const ZERO: Weights = Weights { values: [0; TERMS] };

    /// The weights of a group.
    pub fn of(&self, group: Group) -> &[i32] {
        &self.values[group.at()..group.at() + group.width()]
    }

    /// Whether any weight of the group counts.
    pub fn uses(&self, group: Group) -> bool {
        self.of(group).iter().any(|w| *w != 0)
    }

    /// A number that tells rows apart (FNV-1a over the weights), the same on every build and
    /// machine: what stored judgements were made by.
    pub fn fingerprint(&self) -> u64 {
        fnv(self.values.iter().flat_map(|v| v.to_le_bytes()))
    }
}

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Which set of weights the engine judges by.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum Eval {
    /// Set by hand, the engine's weights until the taught set: kept to measure against.
    Classic,
    /// Fitted to games by `taflbot tune`.
    #[default]
    Taught,
    /// A set read from a file when the program starts ([`set_trial`]), to measure a fit before
    /// it is compiled in; the taught set where none was given.
    Trial,
}

/// The trial set, given once before the engine first judges a position.
static TRIAL: std::sync::OnceLock<WeightSet> = std::sync::OnceLock::new();

/// Makes `set` the [`Eval::Trial`] weights. Only the first call counts, and only before the
/// engine's first judgement: false otherwise.
pub fn set_trial(set: WeightSet) -> bool {
    TRIAL.set(set).is_ok()
}

impl Eval {
    pub const ALL: [Eval; 3] = [Eval::Classic, Eval::Taught, Eval::Trial];

    pub fn name(self) -> &'static str {
        match self {
            Eval::Classic => "classic",
            Eval::Taught => "taught",
            Eval::Trial => "trial",
        }
    }

    pub fn by_name(name: &str) -> Option<Eval> {
        Eval::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The committed file's text.
    pub fn text(self) -> &'static str {
        match self {
            Eval::Classic => include_str!("weights/classic.txt"),
            Eval::Taught | Eval::Trial => include_str!("weights/taught.txt"),
        }
    }

    /// The set's weights for a family (read once from the committed file).
    pub fn weights(self, family: Family) -> &'static Weights {
        &self.set().rows[family_index(family)]
    }

    /// The whole set (read once from the committed file; for trial, the file given, if any).
    pub fn set(self) -> &'static WeightSet {
        static SETS: std::sync::LazyLock<Vec<WeightSet>> = std::sync::LazyLock::new(|| {
            Eval::ALL
                .iter()
                .map(|e| {
                    let committed = || {
                        read(e.text()).unwrap_or_else(|err| {
                            panic!("the committed weights {} do not read: {err}", e.name())
                        })
                    };
                    match e {
                        // Fixed now, so that a trial given later is refused, not ignored.
                        Eval::Trial => TRIAL.get_or_init(committed).clone(),
                        _ => committed(),
                    }
                })
                .collect()
        });
        &SETS[self as usize]
    }
}

/// The families in the order of a weights file.
pub const FAMILIES: [Family; 7] = [
    Family::Tyr,
    Family::Odin,
    Family::SeaBattle,
    Family::Tablut,
    Family::Copenhagen,
    Family::Brandubh,
    Family::SaveTheStandard,
];

pub fn family_index(family: Family) -> usize {
    FAMILIES
        .iter()
        .position(|f| *f == family)
        .expect("every family is listed")
}

/// A family's name in a weights file.
pub fn family_name(family: Family) -> &'static str {
    match family {
        Family::Tyr => "tyr",
        Family::Odin => "odin",
        Family::SeaBattle => "sea-battle",
        Family::Tablut => "tablut",
        Family::Copenhagen => "copenhagen",
        Family::Brandubh => "brandubh",
        Family::SaveTheStandard => "standard",
    }
}

pub fn family_by_name(name: &str) -> Option<Family> {
    FAMILIES.into_iter().find(|f| family_name(*f) == name)
}

/// A whole weights file: a row per family.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WeightSet {
    pub rows: Vec<Weights>,
}

/// Reads a weights file: `[family]` headers, then `name = numbers` lines; `#` starts a comment.
/// Every family must be there; a group left out weighs nothing.
pub fn read(text: &str) -> Result<WeightSet, String> {
    let mut rows: Vec<Option<Weights>> = vec![None; FAMILIES.len()];
    let mut current: Option<usize> = None;
    let mut seen: Vec<Group> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or_default().trim();
        let at = || format!("line {}", n + 1);
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let family = family_by_name(name.trim())
                .ok_or_else(|| format!("{}: unknown family \"{name}\"", at()))?;
            let i = family_index(family);
            if rows[i].is_some() {
                return Err(format!("{}: family \"{name}\" given twice", at()));
            }
            rows[i] = Some(Weights::ZERO);
            current = Some(i);
            seen.clear();
            continue;
        }
        let i = current.ok_or_else(|| format!("{}: weights before any [family]", at()))?;
        let (name, values) = line
            .split_once('=')
            .ok_or_else(|| format!("{}: expected `name = numbers`", at()))?;
        let group = Group::ALL
            .into_iter()
            .find(|g| g.name() == name.trim())
            .ok_or_else(|| format!("{}: unknown weight \"{}\"", at(), name.trim()))?;
        if seen.contains(&group) {
            return Err(format!("{}: \"{}\" given twice", at(), group.name()));
        }
        seen.push(group);
        let numbers = values
            .split_whitespace()
            .map(|v| v.parse::<i32>())
            .collect::<Result<Vec<i32>, _>>()
            .map_err(|e| format!("{}: {e}", at()))?;
        if numbers.len() != group.width() {
            return Err(format!(
                "{}: \"{}\" takes {} numbers, not {}",
                at(),
                group.name(),
                group.width(),
                numbers.len()
            ));
        }
        let row = rows[i].as_mut().expect("the family's row was started");
        row.values[group.at()..group.at() + group.width()].copy_from_slice(&numbers);
    }
    let rows = rows
        .into_iter()
        .zip(FAMILIES)
        .map(|(row, f)| row.ok_or_else(|| format!("family \"{}\" is missing", family_name(f))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(WeightSet { rows })
}

/// Writes a weights file that [`read`] reads back, after a header of comment lines.
pub fn write(set: &WeightSet, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    for (row, family) in set.rows.iter().zip(FAMILIES) {
        let _ = writeln!(out, "\n[{}]", family_name(family));
        for group in Group::ALL {
            let values = row.of(group);
            if values.iter().all(|v| *v == 0) {
                continue;
            }
            let text: Vec<String> = values.iter().map(i32::to_string).collect();
            let _ = writeln!(out, "{} = {}", group.name(), text.join(" "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_tile_the_row() {
        let mut at = 0;
        for g in Group::ALL {
            assert_eq!(g.at(), at, "{}", g.name());
            at += g.width();
        }
        assert_eq!(at, TERMS);
    }

    #[test]
    fn a_written_set_reads_back_and_errors_say_where() {
        for e in Eval::ALL {
            let set = read(e.text()).unwrap();
            assert_eq!(read(&write(&set, "again")).unwrap(), set);
        }
        assert!(read("[tyr]\nman = 1").unwrap_err().contains("line 2"));
        assert!(read("[nowhere]").unwrap_err().contains("unknown family"));
        assert!(read("[tyr]\nman = 1 2").unwrap_err().contains("missing"));
        assert!(read("[tyr]\nlove = 3")
            .unwrap_err()
            .contains("unknown weight"));
    }
}

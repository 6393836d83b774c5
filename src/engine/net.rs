//! A small learned network beside a variant's row of weights: one hidden layer over where each
//! kind of piece stands, trained (`taflbot net`, [`train`]) on what the row's score leaves
//! unexplained in self-play and recorded games. Its output, in hundredths of a man for the
//! defenders, is added to the row's.
//!
//! The inputs are one per kind of piece (the attackers', the defenders' men, the defenders'
//! king or Standard) and square, and one more for the defenders to move; a position lights the
//! inputs of its pieces. The hidden layer is those inputs' columns summed with its bias, each
//! unit cut off below zero; the output is the units weighed and its bias.
//!
//! The weights are whole numbers (thousandths, as the file keeps them), and so are the sums:
//! adding and taking away columns in any order gives the same sums to the bit. That is what lets
//! a search carry the sums from a position to the next ([`Sums`]), paying for the pieces a move
//! changes instead of for every piece, and still score each position exactly as
//! [`Net::score`] scores it alone.

pub mod train;

use std::sync::OnceLock;

use super::weights::Eval;
use crate::rules::{Position, Side, Square, SquareSet, Variant};

/// The hidden layer's width.
pub const HIDDEN: usize = 32;

/// The file's numbers, and the network's, are the weights times this.
const SCALE: f32 = 1000.0;

/// How far the network may move a score, in hundredths of a man: a safeguard against a
/// position far from any it was shown.
const REACH: i32 = 2000;

/// A trained network for one variant, every weight in thousandths.
#[derive(Clone, Debug)]
pub struct Net {
    variant: &'static Variant,
    /// The hidden layer's weights, a column of `HIDDEN` per input.
    w1: Vec<[i32; HIDDEN]>,
    b1: [i32; HIDDEN],
    /// The output's weights (in men: the output is times a hundred).
    w2: [i32; HIDDEN],
    b2: i32,
}

/// The hidden layer's sums of a position before the cut, in thousandths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hidden([i32; HIDDEN]);

/// The number of inputs of a board's network.
pub fn inputs(files: u8, ranks: u8) -> usize {
    3 * usize::from(files) * usize::from(ranks) + 1
}

/// What a position shows a network: where each kind of piece stands, and whose move it is. Two
/// positions' lights compared say which inputs a move turned on and off.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Lights {
    attackers: SquareSet,
    /// The defenders' pieces but their royal one.
    men: SquareSet,
    royal: Option<Square>,
    defenders_move: bool,
}

impl Lights {
    pub const NONE: Lights = Lights {
        attackers: SquareSet::EMPTY,
        men: SquareSet::EMPTY,
        royal: None,
        defenders_move: false,
    };

    #[inline]
    pub fn of(pos: &Position) -> Lights {
        let royal = pos.royal(Side::Defenders);
        let mut men = *pos.squares_of(Side::Defenders);
        if let Some(sq) = royal {
            men.remove(sq);
        }
        Lights {
            attackers: *pos.squares_of(Side::Attackers),
            men,
            royal,
            defenders_move: pos.turn() == Side::Defenders,
        }
    }

    /// Calls `light` with each input lit, on a board `files` wide of `cells` squares.
    #[inline]
    pub(crate) fn each(&self, files: u8, cells: usize, mut light: impl FnMut(usize)) {
        let at = |sq| cell(files, sq);
        for sq in self.attackers.iter() {
            light(at(sq));
        }
        for sq in self.men.iter() {
            light(cells + at(sq));
        }
        if let Some(sq) = self.royal {
            light(2 * cells + at(sq));
        }
        if self.defenders_move {
            light(3 * cells);
        }
    }
}

/// A square's place in a block of inputs, on a board `files` wide.
#[inline]
fn cell(files: u8, sq: Square) -> usize {
    usize::from(sq.rank()) * usize::from(files) + usize::from(sq.file())
}

/// Calls `change` with each input that `to` lights and `from` does not (`true`) and each that
/// `from` lights and `to` does not (`false`), on `variant`'s board: what a step changed.
#[inline]
pub(crate) fn changes(
    variant: &Variant,
    from: &Lights,
    to: &Lights,
    mut change: impl FnMut(usize, bool),
) {
    let files = variant.files;
    let cells = usize::from(files) * usize::from(variant.ranks);
    let at = |sq| cell(files, sq);
    for (old, new, base) in [
        (&from.attackers, &to.attackers, 0),
        (&from.men, &to.men, cells),
    ] {
        for sq in old.minus(new).iter() {
            change(base + at(sq), false);
        }
        for sq in new.minus(old).iter() {
            change(base + at(sq), true);
        }
    }
    if from.royal != to.royal {
        if let Some(sq) = from.royal {
            change(2 * cells + at(sq), false);
        }
        if let Some(sq) = to.royal {
            change(2 * cells + at(sq), true);
        }
    }
    if from.defenders_move != to.defenders_move {
        change(3 * cells, to.defenders_move);
    }
}

/// Calls `light` with each input `pos` lights: the attackers' squares in order, then the
/// defenders' (their royal piece's where it stands among them), then the turn. (The trainer sums
/// in this order, so its networks depend on it to the last bit.)
#[inline]
pub fn features(pos: &Position, mut light: impl FnMut(usize)) {
    let v = pos.variant();
    let cells = usize::from(v.files) * usize::from(v.ranks);
    let at = |sq| cell(v.files, sq);
    for sq in pos.squares_of(Side::Attackers).iter() {
        light(at(sq));
    }
    let royal = pos.royal(Side::Defenders);
    for sq in pos.squares_of(Side::Defenders).iter() {
        let kind = if Some(sq) == royal { 2 } else { 1 };
        light(kind * cells + at(sq));
    }
    if pos.turn() == Side::Defenders {
        light(3 * cells);
    }
}

/// A number a network's hidden sums are kept in: 32-bit sums add as ever, 16-bit ones wrap (a
/// trained network's true sums stay inside them, so the order of the steps does not matter).
pub(crate) trait Lane: Copy {
    fn plus(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
}

impl Lane for i32 {
    #[inline]
    fn plus(self, other: i32) -> i32 {
        self + other
    }
    #[inline]
    fn minus(self, other: i32) -> i32 {
        self - other
    }
}

impl Lane for i16 {
    #[inline]
    fn plus(self, other: i16) -> i16 {
        self.wrapping_add(other)
    }
    #[inline]
    fn minus(self, other: i16) -> i16 {
        self.wrapping_sub(other)
    }
}

/// Adds an input's column to the hidden layer's sums.
#[inline]
pub(crate) fn add<T: Lane, const N: usize>(hidden: &mut [T; N], column: &[T; N]) {
    for (h, w) in hidden.iter_mut().zip(column) {
        *h = h.plus(*w);
    }
}

/// The hidden sums of what `lights` shows on `variant`'s board, from nothing: the biases `b1`
/// and the lit inputs' columns of `w1`.
#[inline]
pub(crate) fn sums_of<T: Lane, const N: usize>(
    variant: &Variant,
    w1: &[[T; N]],
    b1: &[T; N],
    lights: &Lights,
) -> [T; N] {
    let mut sums = *b1;
    let cells = usize::from(variant.files) * usize::from(variant.ranks);
    lights.each(variant.files, cells, |i| add(&mut sums, &w1[i]));
    sums
}

/// The hidden sums of what `to` shows, from `sums`, those of `from`: the columns of the inputs
/// `to` lights and `from` does not are added, those of the reverse taken away.
#[inline]
pub(crate) fn sums_after<T: Lane, const N: usize>(
    variant: &Variant,
    w1: &[[T; N]],
    sums: &[T; N],
    from: &Lights,
    to: &Lights,
) -> [T; N] {
    let mut next = *sums;
    changes(variant, from, to, |i, on| {
        for (h, w) in next.iter_mut().zip(&w1[i]) {
            *h = if on { h.plus(*w) } else { h.minus(*w) };
        }
    });
    next
}

impl Net {
    /// A network of zeros (it adds nothing) for a variant.
    pub fn zero(variant: &'static Variant) -> Net {
        Net {
            variant,
            w1: vec![[0; HIDDEN]; inputs(variant.files, variant.ranks)],
            b1: [0; HIDDEN],
            w2: [0; HIDDEN],
            b2: 0,
        }
    }

    /// The variant the network was made for.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// A hash of the network's weights, the same on every build: what a review records of the
    /// evaluation that judged it.
    pub fn fingerprint(&self) -> u64 {
        let numbers = self.w1.iter().flatten().chain(&self.b1).chain(&self.w2);
        let bits = numbers.chain([&self.b2]).flat_map(|x| x.to_le_bytes());
        super::weights::fnv(self.variant.id.bytes().chain(bits))
    }

    /// The network's part of the score of `pos` for the defenders, in hundredths of a man.
    #[inline]
    pub fn score(&self, pos: &Position) -> i32 {
        self.output(&self.hidden(&Lights::of(pos)))
    }

    /// [`Net::score`] of a position that lights `lit`.
    pub(crate) fn score_of(&self, lit: &[u16]) -> i32 {
        let mut hidden = self.b1;
        for &i in lit {
            add(&mut hidden, &self.w1[usize::from(i)]);
        }
        self.output(&Hidden(hidden))
    }

    /// The hidden sums of what `lights` shows, from nothing.
    #[inline]
    pub fn hidden(&self, lights: &Lights) -> Hidden {
        Hidden(sums_of(self.variant, &self.w1, &self.b1, lights))
    }

    /// The hidden sums of what `to` shows, from those of `from`.
    #[inline]
    pub fn moved(&self, sums: &Hidden, from: &Lights, to: &Lights) -> Hidden {
        Hidden(sums_after(self.variant, &self.w1, &sums.0, from, to))
    }

    /// The output of the hidden sums, in hundredths of a man, rounded (halves up), within the
    /// reach: the units cut off below zero and weighed (thousandths by thousandths: millionths
    /// of a man, of which a hundredth of a man is ten thousand).
    #[inline]
    pub fn output(&self, hidden: &Hidden) -> i32 {
        let mut out = i64::from(self.b2) * 1000;
        for (h, w) in hidden.0.iter().zip(&self.w2) {
            out += i64::from((*h).max(0)) * i64::from(*w);
        }
        let rounded = (out + 5_000).div_euclid(10_000);
        rounded.clamp(-i64::from(REACH), i64::from(REACH)) as i32
    }

    /// The network as text: a header line, then the output's bias and weights, the hidden
    /// layer's biases, and a line of weights per input, every number times a thousand.
    pub fn write(&self, comment: &str) -> String {
        let ints =
            |xs: &[i32]| -> String { xs.iter().map(i32::to_string).collect::<Vec<_>>().join(" ") };
        let mut text = String::new();
        for line in comment.lines() {
            text += &format!("# {line}\n");
        }
        text += &format!("net {} {}\n", self.variant.id, HIDDEN);
        text += &format!("b2 {}\n", ints(&[self.b2]));
        text += &format!("w2 {}\n", ints(&self.w2));
        text += &format!("b1 {}\n", ints(&self.b1));
        for column in &self.w1 {
            text += &format!("w1 {}\n", ints(column));
        }
        text
    }

    /// Reads a network as [`Net::write`] writes it.
    pub fn read(text: &str) -> Result<Net, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(n, l)| (n + 1, l.split('#').next().unwrap_or_default().trim()))
            .filter(|(_, l)| !l.is_empty());
        let (n, header) = lines.next().ok_or("the network file is empty")?;
        let shape: Vec<&str> = header.split_whitespace().collect();
        let bad_header = || format!("line {n}: expected \"net VARIANT {HIDDEN}\"");
        let ["net", id, hidden] = shape[..] else {
            return Err(bad_header());
        };
        let variant =
            Variant::by_id(id).ok_or_else(|| format!("line {n}: unknown variant \"{id}\""))?;
        if hidden != HIDDEN.to_string() {
            return Err(bad_header());
        }
        let mut net = Net::zero(variant);
        let mut row = |name: &str, width: usize| -> Result<Vec<i32>, String> {
            let (n, line) = lines
                .next()
                .ok_or_else(|| format!("the network file ends before its {name} line"))?;
            let mut words = line.split_whitespace();
            if words.next() != Some(name) {
                return Err(format!("line {n}: expected the {name} line"));
            }
            let values = words
                .map(str::parse::<i32>)
                .collect::<Result<Vec<i32>, _>>()
                .map_err(|_| format!("line {n}: a weight that is not a whole number"))?;
            if values.len() != width {
                return Err(format!(
                    "line {n}: {} numbers, expected {width}",
                    values.len()
                ));
            }
            Ok(values)
        };
        net.b2 = row("b2", 1)?[0];
        net.w2.copy_from_slice(&row("w2", HIDDEN)?);
        net.b1.copy_from_slice(&row("b1", HIDDEN)?);
        for i in 0..net.w1.len() {
            net.w1[i].copy_from_slice(&row("w1", HIDDEN)?);
        }
        if let Some((n, _)) = lines.next() {
            return Err(format!("line {n}: more lines than the network has inputs"));
        }
        Ok(net)
    }
}

/// A network whose hidden sums a search carries along its line: made from nothing for a
/// position, moved from a parent's for a child, and turned into a score.
pub trait Layer: Sync + 'static {
    /// The hidden sums of a position.
    type Sums: Copy;
    /// The sums of no position, to fill slots not made yet.
    const EMPTY: Self::Sums;
    /// The sums of what `lights` shows, from nothing.
    fn sums(&self, lights: &Lights) -> Self::Sums;
    /// The sums of what `to` shows, from those of `from`.
    fn sums_moved(&self, sums: &Self::Sums, from: &Lights, to: &Lights) -> Self::Sums;
    /// The score of the sums for the defenders, in hundredths of a man.
    fn score_of_sums(&self, sums: &Self::Sums) -> i32;
}

impl Layer for Net {
    type Sums = Hidden;
    const EMPTY: Hidden = Hidden([0; HIDDEN]);
    #[inline]
    fn sums(&self, lights: &Lights) -> Hidden {
        self.hidden(lights)
    }
    #[inline]
    fn sums_moved(&self, sums: &Hidden, from: &Lights, to: &Lights) -> Hidden {
        self.moved(sums, from, to)
    }
    #[inline]
    fn score_of_sums(&self, sums: &Hidden) -> i32 {
        self.output(sums)
    }
}

/// The hidden sums along a search's line, a slot per ply. A slot's sums are made when a position
/// at its ply or above is first judged, from the ply below (the pieces one step moved), the
/// plies below made first where they are not: so each position's sums are made once however
/// many of its children are judged, and only the line's first position's from nothing. Each
/// position entered at a ply clears its slot.
pub struct Sums<L: Layer = Net> {
    net: &'static L,
    slots: Vec<Slot<L::Sums>>,
}

#[derive(Clone, Copy)]
struct Slot<S> {
    lights: Lights,
    hidden: S,
    made: bool,
}

impl<L: Layer> Sums<L> {
    /// Slots for plies 0 to `plies` - 1.
    pub fn new(net: &'static L, plies: usize) -> Sums<L> {
        let slot = Slot {
            lights: Lights::NONE,
            hidden: L::EMPTY,
            made: false,
        };
        Sums {
            net,
            slots: vec![slot; plies],
        }
    }

    /// `pos` is the position at `ply` now (every ply below it holds the line to it).
    #[inline]
    pub fn enter(&mut self, ply: usize, pos: &Position) {
        let slot = &mut self.slots[ply];
        slot.lights = Lights::of(pos);
        slot.made = false;
    }

    /// The network's score of the position at `ply`, for the defenders: what the network
    /// gives the position alone.
    #[inline]
    pub fn score(&mut self, ply: usize) -> i32 {
        if !self.slots[ply].made {
            self.make(ply);
        }
        self.net.score_of_sums(&self.slots[ply].hidden)
    }

    /// Makes the sums of `ply` and of every ply below it not made yet.
    fn make(&mut self, ply: usize) {
        let from = match self.slots[..ply].iter().rposition(|s| s.made) {
            Some(q) => q + 1,
            None => {
                let first = &mut self.slots[0];
                first.hidden = self.net.sums(&first.lights);
                first.made = true;
                1
            }
        };
        for r in from..=ply {
            let (below, here) = self.slots.split_at_mut(r);
            let (parent, slot) = (&below[r - 1], &mut here[0]);
            slot.hidden = self
                .net
                .sums_moved(&parent.hidden, &parent.lights, &slot.lights);
            slot.made = true;
        }
    }
}

/// The sums a search carries along its line for its board's network, of either kind.
pub enum LineSums {
    Small(Sums<Net>),
    Wide(Sums<super::wide::Wide>),
}

impl LineSums {
    /// The sums for `board`'s network, where it has one.
    pub fn of(board: &super::eval::Board, plies: usize) -> Option<LineSums> {
        match (board.wide(), board.net()) {
            (Some(wide), _) => Some(LineSums::Wide(Sums::new(wide, plies))),
            (None, Some(net)) => Some(LineSums::Small(Sums::new(net, plies))),
            (None, None) => None,
        }
    }

    #[inline]
    pub fn enter(&mut self, ply: usize, pos: &Position) {
        match self {
            LineSums::Small(sums) => sums.enter(ply, pos),
            LineSums::Wide(sums) => sums.enter(ply, pos),
        }
    }

    /// What [`super::eval::Board::learned`] gives the position at `ply`.
    #[inline]
    pub fn score(&mut self, ply: usize) -> i32 {
        match self {
            LineSums::Small(sums) => sums.score(ply),
            LineSums::Wide(sums) => sums.score(ply),
        }
    }
}

/// What the trial set adds by way of a network.
#[derive(Debug)]
pub enum TrialNet {
    /// The taught set's networks (where no other was given).
    Taught,
    /// None at all: the trial row alone.
    Without,
    /// This network for its variant, the taught set's for the others.
    Given(Box<Net>),
    /// This wide network as the whole evaluation of its variant (no row, no small network
    /// there), the taught set's for the others.
    Wide(Box<super::wide::Wide>),
}

/// The trial network, given once before the engine first judges a position.
static TRIAL: OnceLock<TrialNet> = OnceLock::new();

/// What the trial set adds, as given (the taught set's networks where nothing was).
pub(crate) fn trial() -> &'static TrialNet {
    TRIAL.get_or_init(|| TrialNet::Taught)
}

/// Makes `net` what the [`Eval::Trial`] set adds. Only the first call counts, and only before
/// the engine's first judgement: false otherwise.
pub fn set_trial(net: TrialNet) -> bool {
    TRIAL.set(net).is_ok()
}

/// The committed networks of the taught set: each variant's file, compiled in.
const TAUGHT: [(&str, &str); 2] = [
    ("copenhagen", include_str!("weights/copenhagen.net")),
    ("odin-11", include_str!("weights/odin-11.net")),
];

/// The taught set's network for a variant, if it has one, read once.
fn taught(variant: &'static Variant) -> Option<&'static Net> {
    static READ: [OnceLock<Net>; TAUGHT.len()] = [const { OnceLock::new() }; TAUGHT.len()];
    let i = TAUGHT.iter().position(|(id, _)| *id == variant.id)?;
    Some(READ[i].get_or_init(|| {
        let (id, text) = TAUGHT[i];
        let net = Net::read(text).unwrap_or_else(|e| {
            panic!("the committed network weights/{id}.net does not read: {e}")
        });
        assert!(
            std::ptr::eq(net.variant, variant),
            "the committed network weights/{id}.net is for another variant"
        );
        net
    }))
}

/// The network a set of weights adds for a variant, if any: the taught set's committed ones;
/// for the trial set what was given ([`set_trial`]).
pub fn of(eval: Eval, variant: &'static Variant) -> Option<&'static Net> {
    match eval {
        Eval::Classic => None,
        Eval::Taught => taught(variant),
        Eval::Trial => match trial() {
            TrialNet::Taught => taught(variant),
            TrialNet::Without => None,
            TrialNet::Given(net) if std::ptr::eq(net.variant, variant) => Some(net),
            TrialNet::Wide(wide) if std::ptr::eq(wide.variant(), variant) => None,
            TrialNet::Given(..) | TrialNet::Wide(..) => taught(variant),
        },
    }
}

#[cfg(test)]
mod tests;

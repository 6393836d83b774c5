//! A small learned network beside a variant's row of weights: one hidden layer over where each
//! kind of piece stands, trained (`taflbot net`, [`train`]) on what the row's score leaves
//! unexplained in self-play and recorded games. Its output, in hundredths of a man for the
//! defenders, is added to the row's.
//!
//! The inputs are one per kind of piece (the attackers', the defenders' men, the defenders'
//! king or Standard) and square, and one more for the defenders to move; a position lights the
//! inputs of its pieces. The hidden layer is those inputs' columns summed with its bias, each
//! unit cut off below zero; the output is the units weighed and its bias.

pub mod train;

use std::sync::OnceLock;

use super::weights::Eval;
use crate::rules::{Position, Side, Variant};

/// The hidden layer's width.
pub const HIDDEN: usize = 32;

/// The file's numbers are the weights times this.
const SCALE: f32 = 1000.0;

/// How far the network may move a score, in hundredths of a man: a safeguard against a
/// position far from any it was shown.
const REACH: f32 = 2000.0;

/// A trained network for one variant.
#[derive(Clone, Debug)]
pub struct Net {
    variant: &'static Variant,
    /// The hidden layer's weights, a column of `HIDDEN` per input.
    w1: Vec<[f32; HIDDEN]>,
    b1: [f32; HIDDEN],
    /// The output's weights (in men: the output is times a hundred).
    w2: [f32; HIDDEN],
    b2: f32,
}

/// The number of inputs of a board's network.
pub fn inputs(files: u8, ranks: u8) -> usize {
    3 * usize::from(files) * usize::from(ranks) + 1
}

/// Calls `light` with each input `pos` lights.
#[inline]
pub fn features(pos: &Position, mut light: impl FnMut(usize)) {
    let v = pos.variant();
    let cells = usize::from(v.files) * usize::from(v.ranks);
    let at = |sq: crate::rules::Square| {
        usize::from(sq.rank()) * usize::from(v.files) + usize::from(sq.file())
    };
    for (sq, _) in pos.pieces(Side::Attackers) {
        light(at(sq));
    }
    let royal = pos.royal(Side::Defenders);
    for (sq, _) in pos.pieces(Side::Defenders) {
        let kind = if Some(sq) == royal { 2 } else { 1 };
        light(kind * cells + at(sq));
    }
    if pos.turn() == Side::Defenders {
        light(3 * cells);
    }
}

/// Adds an input's column to the hidden layer's sums.
#[inline]
fn add(hidden: &mut [f32; HIDDEN], column: &[f32; HIDDEN]) {
    for (h, w) in hidden.iter_mut().zip(column) {
        *h += w;
    }
}

impl Net {
    /// A network of zeros (it adds nothing) for a variant.
    pub fn zero(variant: &'static Variant) -> Net {
        Net {
            variant,
            w1: vec![[0.0; HIDDEN]; inputs(variant.files, variant.ranks)],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            b2: 0.0,
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
        let bits = numbers
            .chain([&self.b2])
            .flat_map(|x| x.to_bits().to_le_bytes());
        super::weights::fnv(self.variant.id.bytes().chain(bits))
    }

    /// The network's part of the score of `pos` for the defenders, in hundredths of a man.
    #[inline]
    pub fn score(&self, pos: &Position) -> i32 {
        let mut hidden = self.b1;
        features(pos, |i| add(&mut hidden, &self.w1[i]));
        self.finish(&hidden)
    }

    /// [`Net::score`] of a position that lights `lit`.
    pub(crate) fn score_of(&self, lit: &[u16]) -> i32 {
        let mut hidden = self.b1;
        for &i in lit {
            add(&mut hidden, &self.w1[usize::from(i)]);
        }
        self.finish(&hidden)
    }

    #[inline]
    fn finish(&self, hidden: &[f32; HIDDEN]) -> i32 {
        self.output(hidden).clamp(-REACH, REACH).round() as i32
    }

    /// The output, in hundredths of a man, of the hidden layer's sums before the cut.
    #[inline]
    fn output(&self, hidden: &[f32; HIDDEN]) -> f32 {
        let mut out = self.b2;
        for (h, w) in hidden.iter().zip(&self.w2) {
            out += h.max(0.0) * w;
        }
        out * 100.0
    }

    /// The network as text: a header line, then the output's bias and weights, the hidden
    /// layer's biases, and a line of weights per input, every number times a thousand.
    pub fn write(&self, comment: &str) -> String {
        let ints = |xs: &[f32]| -> String {
            xs.iter()
                .map(|x| ((x * SCALE).round() as i32).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
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
        let mut row = |name: &str, width: usize| -> Result<Vec<f32>, String> {
            let (n, line) = lines
                .next()
                .ok_or_else(|| format!("the network file ends before its {name} line"))?;
            let mut words = line.split_whitespace();
            if words.next() != Some(name) {
                return Err(format!("line {n}: expected the {name} line"));
            }
            let values = words
                .map(|w| w.parse::<i32>().map(|x| x as f32 / SCALE))
                .collect::<Result<Vec<f32>, _>>()
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

/// What the trial set adds by way of a network.
#[derive(Debug)]
pub enum TrialNet {
    /// The taught set's networks (where no other was given).
    Taught,
    /// None at all: the trial row alone.
    Without,
    /// This network for its variant, the taught set's for the others.
    Given(Box<Net>),
}

/// The trial network, given once before the engine first judges a position.
static TRIAL: OnceLock<TrialNet> = OnceLock::new();

/// Makes `net` what the [`Eval::Trial`] set adds. Only the first call counts, and only before
/// the engine's first judgement: false otherwise.
pub fn set_trial(net: TrialNet) -> bool {
    TRIAL.set(net).is_ok()
}

/// The committed networks of the taught set, by variant.
fn taught(variant: &'static Variant) -> Option<&'static Net> {
    static COPENHAGEN: OnceLock<Net> = OnceLock::new();
    match variant.id {
        "copenhagen" => Some(COPENHAGEN.get_or_init(|| {
            Net::read(include_str!("weights/copenhagen.net")).unwrap_or_else(|e| {
                panic!("the committed network weights/copenhagen.net does not read: {e}")
            })
        })),
        _ => None,
    }
}

/// The network a set of weights adds for a variant, if any: the taught set's committed ones;
/// for the trial set what was given ([`set_trial`]).
pub fn of(eval: Eval, variant: &'static Variant) -> Option<&'static Net> {
    match eval {
        Eval::Classic => None,
        Eval::Taught => taught(variant),
        Eval::Trial => match TRIAL.get_or_init(|| TrialNet::Taught) {
            TrialNet::Taught => taught(variant),
            TrialNet::Without => None,
            TrialNet::Given(net) if std::ptr::eq(net.variant, variant) => Some(net),
            TrialNet::Given(..) => taught(variant),
        },
    }
}

#[cfg(test)]
mod tests;

//! A wide learned network that is a variant's whole evaluation: the same inputs as the small
//! network beside a row ([`super::net`]: where each kind of piece stands, and whose move it
//! is), a hidden layer of [`WIDE`] units, and one output, the defenders' chance on the logistic
//! curve. It is trained ([`train`]) on games' results alone.
//!
//! Its numbers are 16-bit whole numbers: the hidden weights and biases in 255ths ([`QA`]), the
//! output's weights in 64ths ([`QB`]). A hidden unit is cut below zero and above one (255), and
//! the output's sum, in 255ths of 64ths, is [`UNIT`] hundredths of a man a whole one. Adding
//! and taking away columns in any order gives the same sums to the bit (they wrap as 16-bit
//! numbers do, and a trained network's true sums stay inside them), so a search carries the
//! sums along its line ([`super::net::Sums`]) and scores each position exactly as
//! [`Wide::score`] scores it alone. The loops run over fixed arrays of 16-bit numbers, which
//! the compiler turns into vector instructions.

pub mod train;

use super::net::{inputs, sums_after, sums_of, Layer, Lights};
use crate::rules::{Position, Variant};

/// The hidden layer's width.
pub const WIDE: usize = 256;

/// A hidden weight or bias of one is this much.
pub const QA: i32 = 255;

/// An output weight of one is this much.
pub const QB: i32 = 64;

/// Hundredths of a man an output of one is worth: the curve's slope is one in this many.
pub const UNIT: i32 = 400;

/// The largest score the network gives, in hundredths of a man: far below a won position's.
const REACH: i32 = 30_000;

/// The file's first line.
const MAGIC: &str = "taflbot wide network";

/// A wide network for one variant.
#[derive(Clone, Debug)]
pub struct Wide {
    variant: &'static Variant,
    /// A column of the hidden layer's weights per input.
    w1: Vec<[i16; WIDE]>,
    b1: [i16; WIDE],
    w2: [i16; WIDE],
    /// In 255ths of 64ths.
    b2: i32,
}

/// The hidden layer's sums of a position before the cut, in 255ths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Acc([i16; WIDE]);

impl Wide {
    /// A network of zeros (every position even) for a variant.
    pub fn zero(variant: &'static Variant) -> Wide {
        Wide {
            variant,
            w1: vec![[0; WIDE]; inputs(variant.files, variant.ranks)],
            b1: [0; WIDE],
            w2: [0; WIDE],
            b2: 0,
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// A hash of the weights, the same on every build (what a review records of its judge).
    pub fn fingerprint(&self) -> u64 {
        let hidden = self.w1.iter().flatten().chain(&self.b1).chain(&self.w2);
        let bits = hidden
            .flat_map(|x| x.to_le_bytes())
            .chain(self.b2.to_le_bytes());
        super::weights::fnv(self.variant.id.bytes().chain(bits))
    }

    /// The score of `pos` for the defenders, in hundredths of a man.
    #[inline]
    pub fn score(&self, pos: &Position) -> i32 {
        self.output(&self.acc(&Lights::of(pos)))
    }

    /// [`Wide::score`] of a position that lights `lit`.
    pub(crate) fn score_of(&self, lit: &[u16]) -> i32 {
        let mut acc = self.b1;
        for &i in lit {
            super::net::add(&mut acc, &self.w1[usize::from(i)]);
        }
        self.output(&Acc(acc))
    }

    /// The sums of what `lights` shows, from nothing.
    #[inline]
    pub fn acc(&self, lights: &Lights) -> Acc {
        Acc(sums_of(self.variant, &self.w1, &self.b1, lights))
    }

    /// The sums of what `to` shows, from those of `from`.
    #[inline]
    pub fn moved(&self, acc: &Acc, from: &Lights, to: &Lights) -> Acc {
        Acc(sums_after(self.variant, &self.w1, &acc.0, from, to))
    }

    /// The output of the sums, in hundredths of a man for the defenders, rounded (halves up).
    #[inline]
    pub fn output(&self, acc: &Acc) -> i32 {
        let mut sum = 0i32;
        for (a, w) in acc.0.iter().zip(&self.w2) {
            sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
        }
        let out = (i64::from(sum) + i64::from(self.b2)) * i64::from(UNIT);
        let whole = i64::from(QA * QB);
        let rounded = (out + whole / 2).div_euclid(whole);
        rounded.clamp(-i64::from(REACH), i64::from(REACH)) as i32
    }

    /// The network as a file: comment lines, a header line, then the numbers as little-endian
    /// 16-bit words (the hidden weights by input, the hidden biases, the output's weights) and
    /// the output's bias as a 32-bit one.
    pub fn write(&self, comment: &str) -> Vec<u8> {
        let mut bytes = Vec::new();
        for line in comment.lines() {
            bytes.extend_from_slice(format!("# {line}\n").as_bytes());
        }
        let header = format!("{MAGIC} {} {WIDE} {QA} {QB} {UNIT}\n", self.variant.id);
        bytes.extend_from_slice(header.as_bytes());
        let words = self.w1.iter().flatten().chain(&self.b1).chain(&self.w2);
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&self.b2.to_le_bytes());
        bytes
    }

    /// Whether `bytes` look like a wide network's file (its first line not a comment is the
    /// header), to tell it from a small network's text.
    pub fn is_file(bytes: &[u8]) -> bool {
        let mut rest = bytes;
        while rest.starts_with(b"#") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |e| e + 1);
            rest = &rest[end..];
        }
        rest.starts_with(MAGIC.as_bytes())
    }

    /// Reads a network as [`Wide::write`] writes it.
    pub fn read(bytes: &[u8]) -> Result<Wide, String> {
        let mut rest = bytes;
        let header = loop {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or("the network file has no header line")?;
            let line =
                std::str::from_utf8(&rest[..end]).map_err(|_| "a header line that is not text")?;
            rest = &rest[end + 1..];
            if !line.starts_with('#') {
                break line.to_string();
            }
        };
        let expected = format!("\"{MAGIC} VARIANT {WIDE} {QA} {QB} {UNIT}\"");
        let shape = header
            .strip_prefix(MAGIC)
            .ok_or_else(|| format!("the header is not {expected}"))?;
        let words: Vec<&str> = shape.split_whitespace().collect();
        let [id, rest_of_shape @ ..] = &words[..] else {
            return Err(format!("the header is not {expected}"));
        };
        let variant =
            Variant::by_id(id).ok_or_else(|| format!("unknown variant \"{id}\" in the header"))?;
        let ours = [
            WIDE.to_string(),
            QA.to_string(),
            QB.to_string(),
            UNIT.to_string(),
        ];
        if rest_of_shape != ours {
            return Err(format!(
                "the header says \"{}\", this build reads {expected}",
                header.trim()
            ));
        }
        let mut net = Wide::zero(variant);
        let words_wanted = (net.w1.len() + 2) * WIDE;
        if rest.len() != words_wanted * 2 + 4 {
            return Err(format!(
                "{} bytes of weights, expected {}",
                rest.len(),
                words_wanted * 2 + 4
            ));
        }
        let mut words = rest
            .chunks_exact(2)
            .take(words_wanted)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        for column in net.w1.iter_mut() {
            column.fill_with(|| words.next().unwrap_or(0));
        }
        net.b1.fill_with(|| words.next().unwrap_or(0));
        net.w2.fill_with(|| words.next().unwrap_or(0));
        let tail = &rest[words_wanted * 2..];
        net.b2 = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Ok(net)
    }
}

impl Layer for Wide {
    type Sums = Acc;
    const EMPTY: Acc = Acc([0; WIDE]);
    #[inline]
    fn sums(&self, lights: &Lights) -> Acc {
        self.acc(lights)
    }
    #[inline]
    fn sums_moved(&self, acc: &Acc, from: &Lights, to: &Lights) -> Acc {
        self.moved(acc, from, to)
    }
    #[inline]
    fn score_of_sums(&self, acc: &Acc) -> i32 {
        self.output(acc)
    }
}

/// The committed wide networks of the taught set, each the whole evaluation of its variant.
const TAUGHT: [(&str, &[u8]); 0] = [];

/// The taught set's wide network for a variant, if it has one, read once.
fn taught(variant: &'static Variant) -> Option<&'static Wide> {
    static READ: [std::sync::OnceLock<Wide>; TAUGHT.len()] =
        [const { std::sync::OnceLock::new() }; TAUGHT.len()];
    let i = TAUGHT.iter().position(|(id, _)| *id == variant.id)?;
    Some(READ[i].get_or_init(|| {
        let (id, bytes) = TAUGHT[i];
        let net = Wide::read(bytes).unwrap_or_else(|e| {
            panic!("the committed network weights/{id}.wide does not read: {e}")
        });
        assert!(
            std::ptr::eq(net.variant, variant),
            "the committed network weights/{id}.wide is for another variant"
        );
        net
    }))
}

/// The wide network that is a set's whole evaluation of a variant, if any: the taught set's
/// committed ones; for the trial set the one given, where one was given for the variant.
pub fn of(eval: super::Eval, variant: &'static Variant) -> Option<&'static Wide> {
    use super::net::TrialNet;
    match eval {
        super::Eval::Classic => None,
        super::Eval::Taught => taught(variant),
        super::Eval::Trial => match super::net::trial() {
            TrialNet::Wide(wide) if std::ptr::eq(wide.variant, variant) => Some(wide),
            TrialNet::Without => None,
            _ => taught(variant),
        },
    }
}

#[cfg(test)]
mod tests;

//! Training a [`Net`]: on positions whose chance for the defenders is known (a game's result, or
//! the search's chance, or a blend), the network learns what the row's score leaves out. The
//! chance a position gets is the logistic curve of the row's score plus the network's; the fit
//! lowers the cross-entropy of those chances by Adam's steps over small batches, each position
//! shown in one of the board's symmetries drawn at random. Pure and deterministic for a seed.

use super::{features, inputs, Net, HIDDEN, SCALE};
use crate::engine::teach::chance;
use crate::rules::random::Rng;
use crate::rules::{Position, Variant};

/// One position to learn from.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The inputs it lights.
    pub lit: Vec<u16>,
    /// The row's score for the defenders, in hundredths of a man.
    pub base: f32,
    /// The chance it should get.
    pub target: f32,
}

impl Sample {
    /// The sample of `pos`, whose row scores `base` for the defenders and which should get
    /// `target`.
    pub fn new(pos: &Position, base: i32, target: f64) -> Sample {
        let mut lit = Vec::with_capacity(64);
        features(pos, |i| lit.push(i as u16));
        Sample {
            lit,
            base: base as f32,
            target: target as f32,
        }
    }
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Training {
    /// The logistic curve's slope, per hundredth of a man (the row's).
    pub k: f64,
    pub epochs: usize,
    /// Adam's step.
    pub rate: f64,
    /// Positions a step.
    pub batch: usize,
    /// Every weight shrinks by this share a step.
    pub decay: f64,
    /// The pull of the output towards zero: its square, in men, times this is added to each
    /// position's loss, so that the network moves scores only where the data says so much.
    pub pull: f64,
    pub seed: u64,
}

impl Default for Training {
    fn default() -> Training {
        Training {
            k: 0.0007,
            epochs: 12,
            rate: 0.001,
            batch: 256,
            decay: 1e-6,
            pull: 0.0,
            seed: 1,
        }
    }
}

/// What a training did: the mean squared error of the chances, the row's alone and with the
/// network, on the positions trained on and on those held out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    pub trained: usize,
    pub held: usize,
    pub row_trained: f64,
    pub net_trained: f64,
    pub row_held: f64,
    pub net_held: f64,
}

/// Whether sample `i` is held out: one block of 200 in 20 (about a game in twenty, since the
/// samples come a game at a time).
pub fn held_out(i: usize) -> bool {
    (i / 200) % 20 == 19
}

/// The board's symmetries as maps of the inputs: the flips, and on a square board the turns
/// too. The defenders' turn maps to itself.
pub(crate) fn symmetries(files: u8, ranks: u8) -> Vec<Vec<u16>> {
    let (f, r) = (usize::from(files), usize::from(ranks));
    let cells = f * r;
    let count = if files == ranks { 8 } else { 4 };
    (0..count)
        .map(|s| {
            let mut map = vec![0u16; inputs(files, ranks)];
            for (i, m) in map.iter_mut().enumerate() {
                if i == 3 * cells {
                    *m = i as u16;
                    continue;
                }
                let (kind, cell) = (i / cells, i % cells);
                let (mut x, mut y) = (cell % f, cell / f);
                if s & 1 != 0 {
                    x = f - 1 - x;
                }
                if s & 2 != 0 {
                    y = r - 1 - y;
                }
                if s & 4 != 0 {
                    (x, y) = (y, x);
                }
                *m = (kind * cells + y * f + x) as u16;
            }
            map
        })
        .collect()
}

/// The flat parameters: the hidden weights by input, the hidden biases, the output weights and
/// its bias.
struct Params {
    n: usize,
    values: Vec<f64>,
}

impl Params {
    fn w1(&self) -> usize {
        0
    }
    fn b1(&self) -> usize {
        self.n * HIDDEN
    }
    fn w2(&self) -> usize {
        self.b1() + HIDDEN
    }
    fn b2(&self) -> usize {
        self.w2() + HIDDEN
    }

    /// The hidden sums before the cut, and the output in hundredths of a man.
    fn forward(&self, lit: impl Iterator<Item = usize>) -> ([f64; HIDDEN], f64) {
        let mut hidden = [0.0; HIDDEN];
        hidden.copy_from_slice(&self.values[self.b1()..self.b1() + HIDDEN]);
        for i in lit {
            let column = &self.values[i * HIDDEN..(i + 1) * HIDDEN];
            for (h, w) in hidden.iter_mut().zip(column) {
                *h += w;
            }
        }
        let w2 = &self.values[self.w2()..self.w2() + HIDDEN];
        let out = self.values[self.b2()]
            + hidden
                .iter()
                .zip(w2)
                .map(|(h, w)| h.max(0.0) * w)
                .sum::<f64>();
        (hidden, out * 100.0)
    }

    fn net(&self, variant: &'static Variant) -> Net {
        let mut net = Net::zero(variant);
        // In thousandths, as the file keeps them (rounded from single precision, as ever).
        let at = |k: usize| (self.values[k] as f32 * SCALE).round() as i32;
        for (i, column) in net.w1.iter_mut().enumerate() {
            for (j, w) in column.iter_mut().enumerate() {
                *w = at(self.w1() + i * HIDDEN + j);
            }
        }
        for j in 0..HIDDEN {
            net.b1[j] = at(self.b1() + j);
            net.w2[j] = at(self.w2() + j);
        }
        net.b2 = at(self.b2());
        net
    }
}

/// The mean squared error of the chances of `samples` (those `pick` keeps), by the row alone
/// and with the network.
fn errors(
    net: &Net,
    samples: &[Sample],
    k: f64,
    pick: impl Fn(usize) -> bool,
) -> (f64, f64, usize) {
    let (mut row, mut with, mut n) = (0.0, 0.0, 0);
    for (_, s) in samples.iter().enumerate().filter(|(i, _)| pick(*i)) {
        let (base, t) = (f64::from(s.base), f64::from(s.target));
        row += (chance(base, k) - t).powi(2);
        with += (chance(base + f64::from(net.score_of(&s.lit)), k) - t).powi(2);
        n += 1;
    }
    let n_f = n.max(1) as f64;
    (row / n_f, with / n_f, n)
}

/// Trains a network for `variant` on `samples` (those [`held_out`] are only
/// measured).
pub fn train(variant: &'static Variant, samples: &[Sample], t: Training) -> (Net, Report) {
    train_told(variant, samples, t, &mut || {})
}

/// [`train`], calling `epoch_done` after each epoch (a command line's progress).
pub fn train_told(
    variant: &'static Variant,
    samples: &[Sample],
    t: Training,
    epoch_done: &mut dyn FnMut(),
) -> (Net, Report) {
    let (files, ranks) = (variant.files, variant.ranks);
    let n = inputs(files, ranks);
    let mut rng = Rng::new(t.seed);
    let mut uniform =
        |scale: f64| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 * scale - scale;
    let mut p = Params {
        n,
        values: vec![0.0; n * HIDDEN + 2 * HIDDEN + 1],
    };
    for i in 0..n * HIDDEN {
        p.values[i] = uniform(0.05);
    }
    let (b1, w2) = (p.b1(), p.w2());
    for j in 0..HIDDEN {
        p.values[b1 + j] = 0.1;
        p.values[w2 + j] = uniform(0.01);
    }
    let maps = symmetries(files, ranks);
    let mut order: Vec<usize> = (0..samples.len()).filter(|i| !held_out(*i)).collect();
    let (mut m, mut v) = (vec![0.0; p.values.len()], vec![0.0; p.values.len()]);
    let mut grad = vec![0.0; p.values.len()];
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0i32;
    let mut rng = Rng::new(t.seed ^ 0x7a11);
    for _ in 0..t.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for batch in order.chunks(t.batch.max(1)) {
            grad.fill(0.0);
            for &i in batch {
                let s = &samples[i];
                let map = &maps[rng.below(maps.len())];
                let lit = s.lit.iter().map(|&l| usize::from(map[usize::from(l)]));
                let (hidden, out) = p.forward(lit.clone());
                let z = t.k * (f64::from(s.base) + out);
                let g = ((1.0 / (1.0 + (-z).exp()) - f64::from(s.target)) * t.k
                    + 2.0 * t.pull * out / 10_000.0)
                    * 100.0;
                grad[p.b2()] += g;
                for j in 0..HIDDEN {
                    if hidden[j] > 0.0 {
                        grad[p.w2() + j] += g * hidden[j];
                        let d = g * p.values[p.w2() + j];
                        grad[p.b1() + j] += d;
                        for l in lit.clone() {
                            grad[l * HIDDEN + j] += d;
                        }
                    }
                }
            }
            step += 1;
            let scale = 1.0 / batch.len() as f64;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for (k, value) in p.values.iter_mut().enumerate() {
                let g = grad[k] * scale;
                m[k] = beta1 * m[k] + (1.0 - beta1) * g;
                v[k] = beta2 * v[k] + (1.0 - beta2) * g * g;
                *value -= t.rate * (m[k] / c1) / ((v[k] / c2).sqrt() + eps) + t.decay * *value;
            }
        }
        epoch_done();
    }
    let net = p.net(variant);
    let (row_trained, net_trained, trained) = errors(&net, samples, t.k, |i| !held_out(i));
    let (row_held, net_held, held) = errors(&net, samples, t.k, held_out);
    let report = Report {
        trained,
        held,
        row_trained,
        net_trained,
        row_held,
        net_held,
    };
    (net, report)
}

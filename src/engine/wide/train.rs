//! Training a [`Wide`] network on games' results: each position's target is its game's result
//! for the defenders (1 won, ½ drawn, 0 lost), and the network's output, through the logistic
//! curve, is taught to meet it by Adam's steps over batches, each position shown in one of the
//! board's symmetries. The attackers' wins and the defenders' weigh the same in all, however
//! many of each the games gave (self-play seldom wins as evenly as tafl's sides are matched), so
//! the network learns what wins rather than which side wins more often in its games. Each
//! batch is shared between threads; the result is the same for a seed and a number of threads.
//! Pure, but for the threads.

use super::{Wide, QA, QB, WIDE};
use crate::engine::net::features;
use crate::engine::net::train::{held_out, symmetries};
use crate::rules::random::Rng;
use crate::rules::{Position, Variant};

/// Positions to learn from, their lit inputs kept end to end (a few dozen 16-bit numbers each,
/// so that tens of millions fit in memory).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    lit: Vec<u16>,
    ends: Vec<u32>,
    targets: Vec<f32>,
    /// Each position's game's result for the defenders, in halves (0 lost, 1 drawn, 2 won).
    results: Vec<u8>,
}

impl Samples {
    /// Adds `pos`, whose game ended `result` for the defenders (1 won, ½ drawn, 0 lost), to
    /// be taught `target` (the result, or a blend of it with the search's chance).
    pub fn push(&mut self, pos: &Position, result: f64, target: f64) {
        features(pos, |i| self.lit.push(i as u16));
        self.ends.push(self.lit.len() as u32);
        self.targets.push(target as f32);
        self.results
            .push((result * 2.0).round().clamp(0.0, 2.0) as u8);
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn lit(&self, i: usize) -> &[u16] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.lit[start..self.ends[i] as usize]
    }

    /// Each position's weight: the defenders' wins and the attackers' weigh the same in all
    /// (draws weigh one each).
    fn weights(&self) -> Vec<f32> {
        let count = |r: u8| self.results.iter().filter(|x| **x == r).count().max(1) as f32;
        let (losses, wins) = (count(0), count(2));
        let half = (wins + losses) / 2.0;
        self.results
            .iter()
            .map(|r| match r {
                0 => half / losses,
                2 => half / wins,
                _ => 1.0,
            })
            .collect()
    }
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Training<'a> {
    /// The network to start from (the last generation's), else random numbers from the seed.
    pub from: Option<&'a Wide>,
    pub epochs: usize,
    /// Adam's step; the last third of the epochs take a tenth of it.
    pub rate: f32,
    /// Positions a step.
    pub batch: usize,
    pub seed: u64,
    pub threads: usize,
}

impl Default for Training<'_> {
    fn default() -> Self {
        Training {
            from: None,
            epochs: 10,
            rate: 0.001,
            batch: 4096,
            seed: 1,
            threads: 1,
        }
    }
}

/// What a training did: the (weighted) mean squared error of the chances on the positions held
/// out, by the even guess (every position ½), by the trained network and by its 16-bit
/// numbers, and how many positions were trained on and held out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    pub trained: usize,
    pub held: usize,
    pub even: f64,
    pub float: f64,
    pub quantised: f64,
}

/// The largest a weight may grow (the 16-bit sums of a trained network stay inside their range).
const CLIP: f32 = 1.98;

/// The network's numbers while it learns.
#[derive(Clone)]
struct Params {
    w1: Vec<[f32; WIDE]>,
    b1: [f32; WIDE],
    w2: [f32; WIDE],
    b2: f32,
}

impl Params {
    fn zero(inputs: usize) -> Params {
        Params {
            w1: vec![[0.0; WIDE]; inputs],
            b1: [0.0; WIDE],
            w2: [0.0; WIDE],
            b2: 0.0,
        }
    }

    /// The hidden sums before the cut, and the output.
    #[inline]
    fn forward(&self, lit: impl Iterator<Item = usize>) -> ([f32; WIDE], f32) {
        let mut h = self.b1;
        for i in lit {
            for (h, w) in h.iter_mut().zip(&self.w1[i]) {
                *h += w;
            }
        }
        let mut out = self.b2;
        for (h, w) in h.iter().zip(&self.w2) {
            out += h.clamp(0.0, 1.0) * w;
        }
        (h, out)
    }

    /// Adds `scale` times `other` to every number.
    fn add(&mut self, other: &Params) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            for (a, b) in a.iter_mut().zip(b) {
                *a += b;
            }
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        self.b2 += other.b2;
    }

    fn clear(&mut self) {
        self.w1.iter_mut().for_each(|c| c.fill(0.0));
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
    }

    /// Every number, in one order, with its matching number in two more sets of the same shape.
    fn zip3<'a>(
        &'a mut self,
        m: &'a mut Params,
        v: &'a mut Params,
        g: &'a Params,
    ) -> impl Iterator<Item = (&'a mut f32, &'a mut f32, &'a mut f32, f32)> {
        fn flat(p: &mut Params) -> impl Iterator<Item = &mut f32> {
            let Params { w1, b1, w2, b2 } = p;
            w1.iter_mut()
                .flatten()
                .chain(b1.iter_mut())
                .chain(w2.iter_mut())
                .chain(std::iter::once(b2))
        }
        let grads =
            g.w1.iter()
                .flatten()
                .chain(&g.b1)
                .chain(&g.w2)
                .chain(std::iter::once(&g.b2))
                .copied();
        flat(self)
            .zip(flat(m))
            .zip(flat(v))
            .zip(grads)
            .map(|(((p, m), v), g)| (p, m, v, g))
    }

    /// The numbers of a trained network, to go on from.
    fn of(net: &Wide) -> Params {
        let real = |q: i16, by: i32| f32::from(q) / by as f32;
        let mut p = Params::zero(net.w1.len());
        for (weights, column) in p.w1.iter_mut().zip(&net.w1) {
            for (w, q) in weights.iter_mut().zip(column) {
                *w = real(*q, QA);
            }
        }
        for j in 0..WIDE {
            p.b1[j] = real(net.b1[j], QA);
            p.w2[j] = real(net.w2[j], QB);
        }
        p.b2 = net.b2 as f32 / (QA * QB) as f32;
        p
    }

    fn quantised(&self, variant: &'static Variant) -> Wide {
        let mut net = Wide::zero(variant);
        let q = |x: f32, by: i32| (x * by as f32).round() as i16;
        for (column, weights) in net.w1.iter_mut().zip(&self.w1) {
            for (c, w) in column.iter_mut().zip(weights) {
                *c = q(*w, QA);
            }
        }
        for j in 0..WIDE {
            net.b1[j] = q(self.b1[j], QA);
            net.w2[j] = q(self.w2[j], QB);
        }
        net.b2 = (self.b2 * (QA * QB) as f32).round() as i32;
        net
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adds the gradient of one position's loss to `g`.
#[inline]
fn learn(p: &Params, g: &mut Params, lit: &[usize], target: f32, weight: f32) {
    let (h, out) = p.forward(lit.iter().copied());
    let d_out = (sigmoid(out) - target) * weight;
    g.b2 += d_out;
    let mut d = [0.0f32; WIDE];
    for j in 0..WIDE {
        g.w2[j] += d_out * h[j].clamp(0.0, 1.0);
        if h[j] > 0.0 && h[j] < 1.0 {
            d[j] = d_out * p.w2[j];
        }
    }
    for (b, d) in g.b1.iter_mut().zip(&d) {
        *b += d;
    }
    for &i in lit {
        for (w, d) in g.w1[i].iter_mut().zip(&d) {
            *w += d;
        }
    }
}

/// Adam's step number `step` of size `rate` on `p`, its moments `m` and `v`, by the gradient
/// `g` (a batch's sum, times `scale`), every number kept within [`CLIP`].
fn adam(
    p: &mut Params,
    (m, v): (&mut Params, &mut Params),
    g: &Params,
    step: i32,
    rate: f32,
    scale: f32,
) {
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
    for (value, m, v, g) in p.zip3(m, v, g) {
        let g = g * scale;
        *m = beta1 * *m + (1.0 - beta1) * g;
        *v = beta2 * *v + (1.0 - beta2) * g * g;
        *value = (*value - rate * (*m / c1) / ((*v / c2).sqrt() + eps)).clamp(-CLIP, CLIP);
    }
}

/// The weighted mean squared error of the chances of the held-out positions, by `chance`.
fn held_error(samples: &Samples, weights: &[f32], chance: impl Fn(&[u16]) -> f64) -> f64 {
    let (mut sum, mut all) = (0.0, 0.0);
    for i in (0..samples.len()).filter(|i| held_out(*i)) {
        let w = f64::from(weights[i]);
        sum += w * (chance(samples.lit(i)) - f64::from(samples.targets[i])).powi(2);
        all += w;
    }
    sum / all.max(f64::MIN_POSITIVE)
}

/// Trains a network for `variant` on `samples` (those [`held_out`] are only measured), calling
/// `epoch_done` after each epoch.
pub fn train(
    variant: &'static Variant,
    samples: &Samples,
    t: Training<'_>,
    epoch_done: &mut dyn FnMut(),
) -> (Wide, Report) {
    let n = super::inputs(variant.files, variant.ranks);
    let maps = symmetries(variant.files, variant.ranks);
    let weights = samples.weights();
    let mut rng = Rng::new(t.seed);
    let mut uniform =
        |scale: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
    let p = match t.from {
        Some(net) => Params::of(net),
        None => {
            let mut p = Params::zero(n);
            p.w1.iter_mut().flatten().for_each(|w| *w = uniform(0.1));
            p.b1.fill(0.1);
            p.w2.iter_mut().for_each(|w| *w = uniform(0.1));
            p
        }
    };
    let mut p = p;
    let (mut m, mut v) = (Params::zero(n), Params::zero(n));
    let threads = t.threads.max(1);
    let mut grads: Vec<Params> = (0..threads).map(|_| Params::zero(n)).collect();
    let mut order: Vec<usize> = (0..samples.len()).filter(|i| !held_out(*i)).collect();
    let mut step = 0i32;
    let mut shuffle = Rng::new(t.seed ^ 0x51de);
    for epoch in 0..t.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, shuffle.below(i + 1));
        }
        let rate = if 3 * epoch >= 2 * t.epochs {
            t.rate / 10.0
        } else {
            t.rate
        };
        for (b, batch) in order.chunks(t.batch.max(1)).enumerate() {
            let share = batch.len().div_ceil(threads);
            std::thread::scope(|s| {
                for (part, g) in batch.chunks(share.max(1)).zip(grads.iter_mut()) {
                    let (p, maps, weights) = (&p, &maps, &weights);
                    s.spawn(move || {
                        g.clear();
                        let mut pick =
                            Rng::new(t.seed ^ ((epoch as u64) << 40) ^ ((b as u64) << 8));
                        let mut lit = Vec::with_capacity(64);
                        for &i in part {
                            let map = &maps[pick.below(maps.len())];
                            lit.clear();
                            lit.extend(
                                samples
                                    .lit(i)
                                    .iter()
                                    .map(|&l| usize::from(map[usize::from(l)])),
                            );
                            learn(p, g, &lit, samples.targets[i], weights[i]);
                        }
                    });
                }
            });
            let (first, rest) = grads.split_at_mut(1);
            for other in rest
                .iter()
                .take(batch.len().div_ceil(share.max(1)).saturating_sub(1))
            {
                first[0].add(other);
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            adam(&mut p, (&mut m, &mut v), &first[0], step, rate, scale);
        }
        epoch_done();
    }
    let net = p.quantised(variant);
    let even = held_error(samples, &weights, |_| 0.5);
    let float = held_error(samples, &weights, |lit| {
        f64::from(sigmoid(p.forward(lit.iter().map(|&l| usize::from(l))).1))
    });
    let quantised = held_error(samples, &weights, |lit| {
        let score = f64::from(net.score_of(lit));
        1.0 / (1.0 + (-score / f64::from(super::UNIT)).exp())
    });
    let held = (0..samples.len()).filter(|i| held_out(*i)).count();
    let report = Report {
        trained: samples.len() - held,
        held,
        even,
        float,
        quantised,
    };
    (net, report)
}

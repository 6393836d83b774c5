//! Teaching the evaluation: games to learn from (self-play from random openings at a fixed
//! budget), and a logistic ("Texel") fit of a family's weights to the positions of games whose
//! results are known. Pure and deterministic for given seeds; the files are read and written by
//! the command line (`taflbot selfplay`, `taflbot tune`).

pub mod record;

use super::eval::Board;
use super::weights::{Weights, TERMS};
use super::{arena, steps, take, think, Eval, Settings};
use crate::rules::random::Rng;
use crate::rules::{Game, Position, Role, Side, Variant};

/// A position of a game, with what the search thought of it for the defenders when it played
/// there (none for positions of recorded games).
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: Position,
    pub score: Option<i32>,
}

/// A game played to learn from: its positions before each engine turn, and the game itself (its
/// moves, for the suites cut from self-play).
#[derive(Clone, Debug)]
pub struct Played {
    pub samples: Vec<Sample>,
    pub game: Game,
}

impl Played {
    /// How the game ended: the winner, if any, or `None` when it was unfinished within the turns
    /// allowed.
    pub fn result(&self) -> Option<Option<Side>> {
        self.game.outcome().map(|o| o.winner)
    }
}

/// How a game of self-play begins: `opening` random turns drawn from the game's seed (and up to
/// `spread` more, how many drawn from the seed too), after up to `thin` men of one side are
/// taken off the start ([`thinned_start`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Start {
    pub opening: usize,
    pub spread: usize,
    pub thin: usize,
}

impl Start {
    /// The random turns the game of `seed` begins with.
    pub fn turns(&self, seed: u64) -> usize {
        if self.spread == 0 {
            return self.opening;
        }
        self.opening + Rng::new(seed ^ 0x09e0_5b1d).below(self.spread + 1)
    }
}

/// Plays a game against itself from `start` drawn from `seed`, each turn searched with
/// `settings`; unfinished after `max_turns` turns it is left unfinished.
pub fn self_play(
    variant: &'static Variant,
    settings: &Settings,
    start: Start,
    seed: u64,
    max_turns: usize,
) -> Played {
    let mut game = thinned_start(variant, start.thin, seed);
    for step in arena::opening_from(&game, start.turns(seed), seed) {
        take(&mut game, step).expect("an opening of legal steps");
    }
    let mut rng = Rng::new(seed ^ 0x5e1f_9a7e);
    let mut samples = Vec::new();
    for _ in 0..max_turns {
        if game.outcome().is_some() || steps(&game).is_empty() {
            break;
        }
        let turn_settings = Settings {
            seed: rng.next_u64(),
            ..*settings
        };
        let thought = think(&game, &turn_settings).expect("the game is in play");
        let for_defenders = if game.position().turn() == Side::Defenders {
            thought.score
        } else {
            -thought.score
        };
        samples.push(Sample {
            position: game.position().clone(),
            score: (thought.won_in.is_none()).then_some(for_defenders),
        });
        for step in thought.turn {
            take(&mut game, step).expect("the engine chose a legal step");
        }
    }
    Played { samples, game }
}

/// The start of `variant` with up to `most` men of one side taken off the board: how many (none
/// to `most`), which side and which men are drawn from `seed`; royal and special pieces stay.
/// Self-play from the start alone seldom reaches a side far ahead in men, so the fit never sees
/// what such a lead is worth (a Brandubh lone king against a full siege is lost); games from a
/// side a few men short are played out by the engine like any other, and their results say it.
/// With `most` 0 it is the start, and nothing is drawn from the seed.
pub fn thinned_start(variant: &'static Variant, most: usize, seed: u64) -> Game {
    if most == 0 {
        return Game::new(variant);
    }
    let mut rng = Rng::new(seed ^ 0x7e1a_0c5d);
    let side = Side::BOTH[rng.below(2)];
    let start = Position::start(variant);
    let mut setup = start.to_setup();
    for _ in 0..rng.below(most + 1) {
        let men: Vec<usize> = (0..setup.pieces.len())
            .filter(|&i| {
                let piece = setup.pieces[i].1;
                piece.side == side && piece.role == Role::Man
            })
            .collect();
        if men.is_empty() {
            break;
        }
        setup.pieces.remove(men[rng.below(men.len())]);
    }
    match Position::from_setup(variant, &setup) {
        Ok(pos) if pos.outcome().is_none() => Game::from_position(pos),
        _ => Game::new(variant),
    }
}

/// A game's result for the defenders: 1 won, 0 lost, ½ drawn.
pub fn result_for_defenders(winner: Option<Side>) -> f64 {
    match winner {
        Some(Side::Defenders) => 1.0,
        Some(Side::Attackers) => 0.0,
        None => 0.5,
    }
}

/// Whether a position is quiet enough to judge by the evaluation alone: the side to move can
/// capture nothing and the king cannot escape in one move.
pub fn quiet(pos: &Position) -> bool {
    pos.outcome().is_none()
        && pos.chain().is_none()
        && pos.king_escapes() == 0
        && !pos
            .legal_moves()
            .into_iter()
            .any(|m| pos.captures_anything(m))
}

/// The winning chance for the defenders of a score for them: the logistic curve with slope `k`.
#[inline]
pub fn chance(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// A position's target: `lambda` of it the game's `result` for the defenders, the rest the
/// search's chance of its `score` on the curve of slope `k` (all the result where there is none).
fn target(result: f64, score: Option<i32>, k: f64, lambda: f64) -> f64 {
    match score {
        Some(s) => lambda * result + (1.0 - lambda) * chance(f64::from(s), k),
        None => result,
    }
}

/// One position to fit: its terms (those not zero, by index) and the chance it should get.
#[derive(Clone, Debug)]
pub struct Example {
    pub terms: Vec<(u16, f32)>,
    pub target: f32,
}

impl Example {
    /// The example of a position whose game ended `result` for the defenders, and for which the
    /// search scored `score` (for the defenders), blended: `lambda` of the target is the result,
    /// the rest the search's chance.
    pub fn new(
        board: &Board,
        pos: &Position,
        result: f64,
        score: Option<i32>,
        k: f64,
        lambda: f64,
    ) -> Example {
        let row = board.row(pos);
        let terms = row
            .0
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(i, v)| (i as u16, *v as f32))
            .collect();
        Example {
            terms,
            target: target(result, score, k, lambda) as f32,
        }
    }

    /// The same position with the target of `result` and `score` blended as [`Example::new`]
    /// blends them: its terms are not worked out again.
    pub fn retargeted(&self, result: f64, score: Option<i32>, k: f64, lambda: f64) -> Example {
        Example {
            terms: self.terms.clone(),
            target: target(result, score, k, lambda) as f32,
        }
    }

    /// The weights' score of the position, for the defenders.
    pub(crate) fn score(&self, w: &[f64]) -> f64 {
        self.terms
            .iter()
            .map(|(i, v)| w[*i as usize] * f64::from(*v))
            .sum()
    }
}

/// The mean squared error of the weights' chances against the targets.
pub fn error(examples: &[Example], w: &[f64], k: f64) -> f64 {
    let total: f64 = examples
        .iter()
        .map(|e| (chance(e.score(w), k) - f64::from(e.target)).powi(2))
        .sum();
    total / examples.len().max(1) as f64
}

/// The slope and the offset (in hundredths of a man, for the defenders) for which the weights'
/// chances fit the targets best: the slope searched on a log scale, the offset for each slope.
pub fn best_curve(examples: &[Example], w: &[f64]) -> (f64, f64) {
    let scores: Vec<(f64, f64)> = examples
        .iter()
        .map(|e| (e.score(w), f64::from(e.target)))
        .collect();
    let error = |k: f64, b: f64| -> f64 {
        scores
            .iter()
            .map(|(s, t)| (chance(s + b, k) - t).powi(2))
            .sum::<f64>()
    };
    let ternary = |lo: f64, hi: f64, f: &dyn Fn(f64) -> f64| -> f64 {
        let (mut lo, mut hi) = (lo, hi);
        for _ in 0..40 {
            let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if f(a) < f(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    };
    let offset = |k: f64| ternary(-3000.0, 3000.0, &|b| error(k, b));
    let k = ternary(1e-5f64.ln(), 1e-1f64.ln(), &|lk| {
        let k = lk.exp();
        error(k, offset(k))
    })
    .exp();
    (k, offset(k))
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// The logistic curve's slope, per hundredth of a man.
    pub k: f64,
    /// Passes over the examples.
    pub epochs: usize,
    /// Adam's step, in hundredths of a man.
    pub rate: f64,
    /// Pull of each weight towards its starting value, per pass (keeps terms the data hardly
    /// sees where they were).
    pub anchor: f64,
}

/// Fits weights to the examples by Adam on the mean squared error of the logistic chances,
/// starting from `start`; weights in `frozen` keep their values. Returns the weights rounded to
/// whole hundredths, and the error before and after. `epoch_done` is called after each pass (for
/// a progress bar).
pub fn fit(
    examples: &[Example],
    start: &Weights,
    frozen: &[bool; TERMS],
    fit: Fit,
    epoch_done: &mut dyn FnMut(),
) -> (Weights, f64, f64) {
    let start_w: Vec<f64> = start.values.iter().map(|v| f64::from(*v)).collect();
    let mut w = start_w.clone();
    let before = error(examples, &w, fit.k);
    let (mut m, mut v) = (vec![0.0; TERMS], vec![0.0; TERMS]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let n = examples.len().max(1) as f64;
    for epoch in 1..=fit.epochs {
        let mut grad = vec![0.0; TERMS];
        for e in examples {
            let p = chance(e.score(&w), fit.k);
            // d(p - t)^2/dw = 2 (p - t) p (1 - p) k x
            let g = 2.0 * (p - f64::from(e.target)) * p * (1.0 - p) * fit.k;
            for (i, x) in &e.terms {
                grad[*i as usize] += g * f64::from(*x);
            }
        }
        for i in 0..TERMS {
            if frozen[i] {
                continue;
            }
            let g = grad[i] / n + fit.anchor * (w[i] - start_w[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= fit.rate * mh / (vh.sqrt() + eps);
        }
        epoch_done();
    }
    let mut out = Weights::ZERO;
    for (o, x) in out.values.iter_mut().zip(&w) {
        *o = x.round() as i32;
    }
    let rounded: Vec<f64> = out.values.iter().map(|v| f64::from(*v)).collect();
    let after = error(examples, &rounded, fit.k);
    (out, before, after)
}

/// The settings self-play searches with: `nodes` a turn, judged by `eval`.
pub fn self_play_settings(nodes: u64, eval: Eval) -> Settings {
    Settings {
        eval,
        table_bits: 16,
        ..Settings::nodes(nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_is_the_same_for_a_seed_and_ends_or_stops() {
        let v = Variant::by_id("brandubh").unwrap();
        let s = self_play_settings(300, Eval::Classic);
        let start = Start {
            spread: 0,
            opening: 2,
            thin: 0,
        };
        let a = self_play(v, &s, start, 9, 60);
        let b = self_play(v, &s, start, 9, 60);
        assert_eq!(a.samples.len(), b.samples.len());
        assert_eq!(a.result(), b.result());
        assert!(!a.samples.is_empty() && a.samples.len() <= 60);
        assert!(a.samples.iter().any(|s| s.score.is_some()));
    }

    #[test]
    fn fitting_moves_weights_towards_what_the_results_say() {
        // Positions where the defenders won when they had more men: the man's weight for the
        // defenders must grow from nothing.
        let examples: Vec<Example> = (0..200)
            .map(|i| {
                let men = (i % 9) as f32 - 4.0;
                Example {
                    terms: vec![(1, men)],
                    target: if men > 0.0 {
                        0.9
                    } else if men < 0.0 {
                        0.1
                    } else {
                        0.5
                    },
                }
            })
            .collect();
        let frozen = [false; TERMS];
        let f = Fit {
            k: 0.003,
            epochs: 300,
            rate: 5.0,
            anchor: 0.0,
        };
        let mut epochs = 0;
        let (w, before, after) = fit(&examples, &Weights::ZERO, &frozen, f, &mut || epochs += 1);
        assert_eq!(epochs, f.epochs);
        assert!(w.values[1] > 100, "{}", w.values[1]);
        assert!(after < before / 2.0, "{before} {after}");
        // A frozen weight stays.
        let mut frozen = [false; TERMS];
        frozen[1] = true;
        assert_eq!(
            fit(&examples, &Weights::ZERO, &frozen, f, &mut || ())
                .0
                .values[1],
            0
        );
    }
}

//! The winning-chance curve fitted to scored positions and their games' results.

use super::Curve;
use crate::engine::WON;
use crate::rules::{BySide, Side};

/// Fits a [`Curve`] to `(side to move, score, whether that side won)` samples by Newton's method
/// on the logistic log-likelihood (the sides' intercepts and a shared slope). Forced results
/// are left out, and so are repetitions the search scores as lost (`-(WON - 1)`, past every
/// evaluation but short of a forced loss): the curve is for the scores in between, and one such
/// score among hundreds pulls the slope to nothing.
pub fn fit(samples: &[(Side, i32, bool)]) -> Curve {
    // Parameters: slope (per 100 of score, to keep the steps well scaled), attackers' and
    // defenders' intercepts.
    let mut p = [0.0f64; 3];
    let usable: Vec<&(Side, i32, bool)> = samples.iter().filter(|s| s.1.abs() < WON - 1).collect();
    for _ in 0..50 {
        let mut grad = [0.0f64; 3];
        let mut hess = [[0.0f64; 3]; 3];
        for &&(side, score, won) in &usable {
            let x = [
                f64::from(score) / 100.0,
                f64::from(u8::from(side == Side::Attackers)),
                f64::from(u8::from(side == Side::Defenders)),
            ];
            let z: f64 = (0..3).map(|i| p[i] * x[i]).sum();
            let q = 1.0 / (1.0 + (-z).exp());
            let y = f64::from(u8::from(won));
            for i in 0..3 {
                grad[i] += (y - q) * x[i];
                for j in 0..3 {
                    hess[i][j] += q * (1.0 - q) * x[i] * x[j];
                }
            }
        }
        // A little ridge keeps the system solvable when a side has no samples.
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] += 1e-6;
        }
        let Some(step) = solve3(hess, grad) else {
            break;
        };
        for i in 0..3 {
            p[i] += step[i];
        }
        if step.iter().all(|s| s.abs() < 1e-9) {
            break;
        }
    }
    Curve {
        slope: p[0] / 100.0,
        intercept: BySide::new(p[1], p[2]),
    }
}

/// Solves `a x = b` for a 3x3 system by Gaussian elimination with pivoting.
fn solve3(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..3 {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (v, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *v -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let rest: f64 = (row + 1..3).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::random::Rng;

    #[test]
    fn the_fit_finds_the_curve_the_samples_were_drawn_from() {
        let truth = Curve {
            slope: 0.006,
            intercept: BySide::new(-0.3, 0.4),
        };
        let mut rng = Rng::new(7);
        let mut samples = Vec::new();
        for i in 0..40_000 {
            let side = if i % 2 == 0 {
                Side::Attackers
            } else {
                Side::Defenders
            };
            let score = rng.below(1201) as i32 - 600;
            let won = (rng.below(1_000_000) as f64) / 1e6 < truth.chance(side, score);
            samples.push((side, score, won));
        }
        // Repetitions scored as lost and forced results, whatever came of them, are left out.
        for i in 0..200 {
            let side = Side::BOTH[i % 2];
            samples.push((side, -(WON - 1), i % 3 == 0));
            samples.push((side, WON + 5, i % 5 == 0));
        }
        let fitted = fit(&samples);
        assert!((fitted.slope - truth.slope).abs() < 0.0006, "{fitted:?}");
        for side in [Side::Attackers, Side::Defenders] {
            assert!(
                (fitted.intercept[side] - truth.intercept[side]).abs() < 0.06,
                "{fitted:?}"
            );
        }
    }
}

//! Reviews of finished games. The engine scores every position of the game on one budget, fixed
//! for games of up to 299 turns and shared by a longer game's positions ([`budget_for`]);
//! each score becomes the side to move's chance of winning (a logistic curve fitted on real
//! games); each turn is marked by how much of its mover's chance it gave away.
//!
//! Pure like the rest of the engine: the caller decides where the work runs.

use crate::rules::{BySide, Family, Game, Side, Turn};

use super::{steps, think, written, Eval, Settings, WON};

/// Positions searched for each position of a reviewed game (its start, and where each turn
/// leaves it), in games of up to 299 turns; about 50 ms a position on 11x11. A game's budget
/// ([`budget_for`]) depends on its length alone, so a review is the same however often it is
/// made.
pub const BUDGET: u64 = 100_000;

/// Positions searched for a whole review at most: a long game's positions share it, so that no
/// game holds the engine for much longer than 15 s. It is 300 positions on [`BUDGET`]: of the
/// decided Copenhagen games on record, the longest has 341 turns, and 99 % have under 170.
pub const WHOLE: u64 = 30_000_000;

/// The fewest positions searched for each position of a reviewed game: below it a score says
/// too little to mark a turn by.
pub const FLOOR: u64 = 10_000;

/// The longest game, in turns, that is reviewed: its positions (each turn's, and the start's)
/// share [`WHOLE`] on [`FLOOR`] each.
pub const MOST_TURNS: usize = (WHOLE / FLOOR) as usize - 1;

/// The budget for each position of a game of `turns` turns: [`BUDGET`] while the whole review
/// stays within [`WHOLE`], then [`WHOLE`] shared among its positions, but never below [`FLOOR`]
/// (past [`MOST_TURNS`] the whole grows again; the bot refuses such games).
pub fn budget_for(turns: usize) -> u64 {
    let positions = turns as u64 + 1;
    (WHOLE / positions).clamp(FLOOR, BUDGET)
}

/// How a score becomes a winning chance: `1 / (1 + e^-(slope * score + intercept))`, with an
/// intercept for each side to move. Scores are in hundredths of a man, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub slope: f64,
    pub intercept: BySide<f64>,
}

/// The curve of the classic weights' scores, fitted on the 1,752 Copenhagen games of
/// aagenielsen.dk (the 1,714 that were decided), two positions from each, scored on [`BUDGET`]:
/// the puzzles' judge, which scores with the classic weights. The intercepts differ so much
/// because the classic evaluation counts the attackers' men against the defenders' at one weight,
/// while the attackers start with twice as many: at an even count the attackers are far behind.
/// Reviews use [`Curve::of`] the game's family, fitted on the same weights' scores.
pub const CURVE: Curve = Curve {
    slope: 0.00302,
    intercept: BySide::new(-2.291, 2.138),
};

impl Curve {
    /// The curve of a family's reviews, fitted on the reviews' scores (the classic weights') by
    /// `cargo run --release --example winning_chance -- FAMILY GAMES`: Copenhagen's ([`CURVE`]) on
    /// its corpus, the others on about 120 games the engine played against itself. Two fits were
    /// not usable and keep Copenhagen's: Brandubh's came out flat (a 100,000-node search solves
    /// most of its positions, and the rest did not tell the recorded games' results apart), and
    /// ODIN's had 45 decided games of 160 (the rest reach the turn limit). See `BENCHMARKS.md`
    /// ("Reviews").
    pub fn of(family: Family) -> Curve {
        let (slope, attackers, defenders) = match family {
            Family::Copenhagen | Family::Brandubh | Family::Odin => return CURVE,
            Family::Tablut => (0.00191, -0.811, 0.649),
            Family::SeaBattle => (0.00287, -3.049, 3.104),
            Family::Tyr => (0.00252, -1.173, 0.918),
            Family::SaveTheStandard => (0.00465, -0.372, -0.131),
        };
        Curve {
            slope,
            intercept: BySide::new(attackers, defenders),
        }
    }
}

/// Drops of the mover's winning chance (0 to 1) from which a turn is an inaccuracy, a mistake
/// and a blunder. See `BENCHMARKS.md` ("Reviews") for how they were chosen.
pub const THRESHOLDS: [f64; 3] = [0.08, 0.15, 0.25];

/// A chance at or beyond this distance from 0 or 1 is a decided game: no turn played in it is
/// marked, unless it gives the win away.
pub const DECIDED: f64 = 0.03;

impl Curve {
    /// The side to move's chance of winning at `score`; a forced win is 1, a forced loss 0.
    pub fn chance(&self, side: Side, score: i32) -> f64 {
        if score >= WON {
            return 1.0;
        }
        if score <= -WON {
            return 0.0;
        }
        let x = self.slope * f64::from(score) + self.intercept[side];
        1.0 / (1.0 + (-x).exp())
    }
}

/// How bad a turn was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark for a drop of the mover's chance, if it deserves one.
    pub fn of_drop(drop: f64) -> Option<Mark> {
        match drop {
            d if d >= THRESHOLDS[2] => Some(Mark::Blunder),
            d if d >= THRESHOLDS[1] => Some(Mark::Mistake),
            d if d >= THRESHOLDS[0] => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The machine name and back (`inaccuracy`, ...), for storing.
    pub fn parse(name: &str) -> Option<Mark> {
        [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// One reviewed turn.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedTurn {
    pub side: Side,
    /// The turn as played, its moves in canonical text.
    pub played: Vec<String>,
    /// The mover's chance of winning before and after the turn.
    pub before: f64,
    pub after: f64,
    /// The only turn the rules allowed.
    pub forced: bool,
    pub mark: Option<Mark>,
    /// The engine's turn in its place, for a marked turn.
    pub better: Option<Vec<String>>,
}

impl ReviewedTurn {
    /// How much of the mover's chance the turn gave away (never below 0).
    pub fn drop(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }

    /// How close the turn came to the best, 0 to 100: 100 for no drop, about 70 for a drop
    /// of 0.08, 50 for 0.16 and 25 for 0.32.
    pub fn accuracy(&self) -> f64 {
        100.0 * (-4.3 * self.drop()).exp()
    }
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The turns that came before the reviewed ones: the moves of a record the game was
    /// continued from, which its players did not make. Turn `first + 1` is the first reviewed.
    pub first: usize,
    pub turns: Vec<ReviewedTurn>,
    /// The defenders' chance before the first reviewed turn.
    pub start: f64,
}

impl Review {
    /// A side's accuracy: the mean of its turns' that were not forced, or `None` without any.
    pub fn accuracy(&self, side: Side) -> Option<f64> {
        let own: Vec<f64> = self
            .turns
            .iter()
            .filter(|t| t.side == side && !t.forced)
            .map(ReviewedTurn::accuracy)
            .collect();
        (!own.is_empty()).then(|| own.iter().sum::<f64>() / own.len() as f64)
    }

    /// The defenders' chance of winning at the start and after each turn.
    pub fn defenders_chances(&self) -> Vec<f64> {
        std::iter::once(self.start)
            .chain(self.turns.iter().map(|t| match t.side {
                Side::Defenders => t.after,
                Side::Attackers => 1.0 - t.after,
            }))
            .collect()
    }

    /// How many turns of a side got each mark: inaccuracies, mistakes and blunders.
    pub fn marks(&self, side: Side) -> [usize; 3] {
        let mut counts = [0; 3];
        for t in self.turns.iter().filter(|t| t.side == side) {
            if let Some(m) = t.mark {
                counts[m as usize] += 1;
            }
        }
        counts
    }
}

/// The engine's view of one position: the side to move's chance, and its turn there.
struct Scored {
    chance: f64,
    best: Vec<String>,
    /// Whether the rules allowed only one step.
    forced: bool,
}

/// Scores a position: by its result when the game is over there, otherwise by a search.
fn score(game: &Game, curve: &Curve, budget: u64) -> Scored {
    let side = game.position().turn();
    if let Some(o) = game.outcome() {
        let chance = match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        return Scored {
            chance,
            best: Vec::new(),
            forced: false,
        };
    }
    let forced = steps(game).len() == 1;
    // Judged by the classic weights, the ones the curves were fitted to: the taught ones'
    // scores swing more from one turn to the next (after the engine's own turn the mover's
    // chance fell by 0.087 or more in 5 % of Copenhagen positions, against 0.014), so they would
    // mark one turn in twenty of the engine's own.
    let settings = Settings {
        eval: Eval::Classic,
        ..Settings::nodes(budget)
    };
    match think(game, &settings) {
        Ok(t) => Scored {
            chance: curve.chance(side, t.score),
            best: written(game, &t.turn),
            forced,
        },
        Err(_) => Scored {
            chance: 0.5,
            best: Vec::new(),
            forced,
        },
    }
}

/// Reviews `game`'s turns after its first `first` (those came from a record it was continued
/// from: they are replayed, not reviewed), each position searched on `budget` nodes. A turn left
/// open at the end (a chain the game ended in) is reviewed as far as it went.
pub fn review(game: &Game, first: usize, curve: &Curve, budget: u64) -> Review {
    let first = first.min(game.turns().len());
    let mut replay = game.after_turns(first);
    let mut here = score(&replay, curve, budget);
    let start = match replay.position().turn() {
        Side::Defenders => here.chance,
        Side::Attackers => 1.0 - here.chance,
    };
    let mut turns = Vec::with_capacity(game.turns().len() - first);
    for turn in &game.turns()[first..] {
        let mut played = Vec::with_capacity(turn.moves.len());
        if !replay_turn(&mut replay, turn, &mut played) {
            break;
        }
        let next = score(&replay, curve, budget);
        let after = if replay.position().turn() == turn.side && replay.outcome().is_none() {
            next.chance
        } else {
            1.0 - next.chance
        };
        let before = here.chance;
        let decided = before <= DECIDED || (before >= 1.0 - DECIDED && after >= 0.5);
        let mark = if here.forced || decided || played == here.best {
            None
        } else {
            Mark::of_drop(before - after)
        };
        turns.push(ReviewedTurn {
            side: turn.side,
            played,
            before,
            after,
            forced: here.forced,
            better: mark.map(|_| here.best.clone()),
            mark,
        });
        here = next;
    }
    Review {
        first,
        turns,
        start,
    }
}

/// Plays `turn` on `replay` (as far as its moves go), writing them into `played`; false where
/// the turn cannot be ended as it was (the review stops there).
fn replay_turn(replay: &mut Game, turn: &Turn, played: &mut Vec<String>) -> bool {
    for m in &turn.moves {
        played.push(crate::notation::canonical(replay.position(), m.mv));
        if replay.play(m.mv).is_err() {
            break;
        }
    }
    !(turn.complete
        && replay.outcome().is_none()
        && replay.position().turn() == turn.side
        && replay.end_turn().is_err())
}

/// Fits a [`Curve`] to `(side to move, score, whether that side won)` samples by Newton's method
/// on the logistic log-likelihood (the sides' intercepts and a shared slope). Forced results
/// are left out: the curve is for the scores in between.
pub fn fit(samples: &[(Side, i32, bool)]) -> Curve {
    // Parameters: slope (per 100 of score, to keep the steps well scaled), attackers' and
    // defenders' intercepts.
    let mut p = [0.0f64; 3];
    let usable: Vec<&(Side, i32, bool)> = samples.iter().filter(|s| s.1.abs() < WON).collect();
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
    fn long_games_share_the_whole_budget_down_to_the_floor() {
        assert_eq!(budget_for(0), BUDGET);
        assert_eq!(budget_for(299), BUDGET);
        assert_eq!(budget_for(599), WHOLE / 600);
        assert!(budget_for(599) < BUDGET);
        for turns in [300, 1_000, 2_000, MOST_TURNS] {
            let whole = budget_for(turns) * (turns as u64 + 1);
            assert!(whole <= WHOLE && budget_for(turns) >= FLOOR, "{turns}");
        }
        assert_eq!(budget_for(MOST_TURNS), FLOOR);
        assert_eq!(budget_for(MOST_TURNS * 10), FLOOR);
    }

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
        let fitted = fit(&samples);
        assert!((fitted.slope - truth.slope).abs() < 0.0006, "{fitted:?}");
        for side in [Side::Attackers, Side::Defenders] {
            assert!(
                (fitted.intercept[side] - truth.intercept[side]).abs() < 0.06,
                "{fitted:?}"
            );
        }
    }

    #[test]
    fn marks_grow_with_the_drop_and_forced_results_are_certain() {
        assert_eq!(Mark::of_drop(0.01), None);
        assert_eq!(Mark::of_drop(THRESHOLDS[0]), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_drop(THRESHOLDS[1]), Some(Mark::Mistake));
        assert_eq!(Mark::of_drop(0.9), Some(Mark::Blunder));
        assert_eq!(CURVE.chance(Side::Attackers, WON + 5), 1.0);
        assert_eq!(CURVE.chance(Side::Defenders, -WON - 5), 0.0);
        let even = CURVE.chance(Side::Defenders, 0);
        assert!(even > CURVE.chance(Side::Attackers, 0));
        assert!(CURVE.chance(Side::Defenders, 300) > even);
    }

    /// Every family's curve rises with the score for either side to move and is certain only of
    /// forced results.
    #[test]
    fn every_familys_curve_rises_with_the_score() {
        use crate::engine::weights::FAMILIES;
        for family in FAMILIES {
            let curve = Curve::of(family);
            for side in [Side::Attackers, Side::Defenders] {
                let chances: Vec<f64> = (-10..=10).map(|i| curve.chance(side, i * 100)).collect();
                assert!(chances.windows(2).all(|w| w[0] < w[1]), "{family:?}");
                assert!(chances.iter().all(|c| *c > 0.0 && *c < 1.0), "{family:?}");
                assert_eq!(curve.chance(side, WON), 1.0);
            }
        }
    }
}

//! Reviews of finished games. The engine searches every position of the game once, on one
//! budget, fixed for games of up to 299 turns and shared by a longer game's positions
//! ([`budget_for`]); each score, the mean of the last two depths' so that it leans to neither
//! side ([`super::Thought::steady_score`]), becomes the chance of the side to move (a logistic
//! curve fitted per variant, [`Curve::of`]), so a position has one chance: the chance after turn
//! n is the chance before turn n+1. Each turn is marked by how much of its mover's chance it gave
//! away between the two, as lichess does; its better turn is the best the search of its position
//! found.
//!
//! Pure like the rest of the engine: the caller decides where the work runs.

use crate::rules::{BySide, Family, Game, Side, Turn, Variant};

use super::{take, think, weigh, written, Settings, Step, WON};

mod fit;
pub use fit::fit;

/// Positions searched for each position of a reviewed game (each a turn was played in), in games
/// of up to 299 turns; about a tenth of a second a position on 11x11. A game's budget
/// ([`budget_for`]) depends on its length alone, so a review is the same however often it is
/// made.
pub const BUDGET: u64 = 100_000;

/// Positions searched for a whole review at most: a long game's positions share it, so that no
/// game holds the engine for much longer than half a minute. It is 300 positions on [`BUDGET`]: of the
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
/// because the classic evaluation counts the attackers' men against the defenders' at one
/// weight, while the attackers start with twice as many: at an even count the attackers are far
/// behind.
pub const CURVE: Curve = Curve {
    slope: 0.00302,
    intercept: BySide::new(-2.291, 2.138),
};

impl Curve {
    /// The curve of a variant's reviews, fitted on the steady scores of the reviews' search (the
    /// taught weights) by `cargo run --release --example winning_chance -- VARIANT GAMES`:
    /// Copenhagen's on 600 games of its corpus and Brandubh's on its 518 decided recorded games,
    /// the others on 300 games the engine played against itself on that variant's board
    /// (2026-12-04). A board's own fit is used where it had a hundred decided games or more and a
    /// slope at least half its family's first board's; the others (Fetlar and the boards of 13x13
    /// and more, whose fits on 400 games came out flat, falling or under half) take their family's
    /// first board's curve ([`Curve::family`]). A new taught set wants these fitted again. See
    /// `BENCHMARKS.md` ("Reviews").
    pub fn of(variant: &Variant) -> Curve {
        let (slope, attackers, defenders) = match variant.id {
            // Decided games of 300, and the slope: 239, 295, 299 and 211.
            "tablut-linnaeus" => (0.00497, -0.823, 0.197),
            "sea-battle-9" => (0.00343, 0.236, -0.682),
            "tyr-commanders-11" => (0.00216, -0.654, 0.751),
            "odin-15" => (0.00077, -0.576, 0.649),
            _ => return Curve::family(variant.family),
        };
        Curve {
            slope,
            intercept: BySide::new(attackers, defenders),
        }
    }

    /// The curve fitted on a family's first board: TYR 11, ODIN 11, Sea Battle 11, Cartier's
    /// Tablut and Save the Standard 7 on 300 games of self-play each (300, 282, 297, 298 and 298
    /// of them decided), Copenhagen and Brandubh on their recorded games.
    pub fn family(family: Family) -> Curve {
        let (slope, attackers, defenders) = match family {
            Family::Brandubh => BRANDUBH,
            Family::Odin => (0.00146, -0.008, -0.255),
            Family::Copenhagen => (0.00266, -0.682, 0.466),
            Family::Tablut => (0.00393, -1.403, 1.277),
            Family::SeaBattle => (0.00346, -0.653, 0.416),
            Family::Tyr => (0.00327, -0.658, 0.467),
            Family::SaveTheStandard => (0.00301, 0.064, -0.044),
        };
        Curve {
            slope,
            intercept: BySide::new(attackers, defenders),
        }
    }
}

/// Brandubh's curve: slope, the attackers' and the defenders' intercepts, fitted on its 518
/// decided recorded games (`data/brandubh.csv`), two positions each. The engine's self-play is
/// no ground for it: from three random turns its defenders won 1,983 games of 2,000, and 177 of
/// 200 with up to four men of one side taken off first (`selfplay --thin 4`), so a fit on it
/// read a lone king against the full siege as 60 % for the defenders, where the engine's own
/// attackers win that position 18 games in 20 (`examples/from_position.rs`).
const BRANDUBH: (f64, f64, f64) = (0.01727, 0.200, -0.361);

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

/// The settings a review searches with: `budget` nodes for each position, by the engine's own
/// (taught) weights, whose curves [`Curve::of`] holds.
pub fn settings(budget: u64) -> Settings {
    Settings::nodes(budget)
}

/// A turn weighed against the engine's best, as scores for its mover (hundredths of a man).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weighed {
    /// The best first step's score: the mover's standing before the turn.
    pub best: i32,
    /// The turn's own score: its last step's, searched exactly in the same search as that
    /// position's best (a one-step turn's in the search that gave `best`).
    pub played: i32,
    /// Whether the rules allowed only one first step.
    pub forced: bool,
    /// The best first step.
    pub best_step: Step,
}

/// Weighs the turn `steps` (as taken, a berserk chain's end included) from `game` on `settings`:
/// a search of the turn's first position, and of its last where the turn has more than one step.
/// A step and the best scored in one search share what the search does not see, so a turn as
/// good as the best is not marked because a search of the next position saw further. `None`
/// when the game is over or does not allow the steps.
pub fn weigh_turn(game: &Game, steps: &[Step], settings: &Settings) -> Option<Weighed> {
    let (&first, rest) = steps.split_first()?;
    let forced = super::steps(game).len() == 1;
    let here = weigh(game, first, settings)?;
    let mut played = here.score;
    if let Some((&last, middle)) = rest.split_last() {
        let mut g = game.clone();
        take(&mut g, first).ok()?;
        for &step in middle {
            take(&mut g, step).ok()?;
        }
        played = weigh(&g, last, settings)?.score;
    }
    Some(Weighed {
        best: here.best_score,
        played,
        forced,
        best_step: here.best,
    })
}

/// The steps of `turn` as it was taken from `game`: its moves, and the end of a chain it left
/// open. `None` where the game does not allow them (the review stops there).
pub fn turn_steps(game: &Game, turn: &Turn) -> Option<Vec<Step>> {
    let mut g = game.clone();
    let mut steps = Vec::with_capacity(turn.moves.len() + 1);
    for m in &turn.moves {
        g.play(m.mv).ok()?;
        steps.push(Step::Move(m.mv));
    }
    if turn.complete && g.outcome().is_none() && g.position().turn() == turn.side {
        g.end_turn().ok()?;
        steps.push(Step::EndTurn);
    }
    Some(steps)
}

/// `side`'s chance in `game`, and the best turn there: by the result when the game is over,
/// otherwise by one search of the position.
fn chance_here(
    game: &Game,
    side: Side,
    curve: &Curve,
    settings: &Settings,
) -> (f64, Option<Vec<Step>>) {
    if let Some(o) = game.outcome() {
        let chance = match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        return (chance, None);
    }
    let mover = game.position().turn();
    match think(game, settings) {
        Ok(t) => {
            let chance = curve.chance(mover, t.steady_score());
            let chance = if mover == side { chance } else { 1.0 - chance };
            (chance, Some(t.turn))
        }
        Err(_) => (0.5, None),
    }
}

/// The chance of the side to move in `game`, searched once on `budget` nodes as a review
/// searches each position (1 or 0 for a game that is over).
pub fn chance(game: &Game, curve: &Curve, budget: u64) -> f64 {
    chance_here(game, game.position().turn(), curve, &settings(budget)).0
}

/// The defenders' chance from `side`'s.
fn defenders(side: Side, chance: f64) -> f64 {
    match side {
        Side::Defenders => chance,
        Side::Attackers => 1.0 - chance,
    }
}

/// Reviews `game`'s turns after its first `first` (those came from a record it was continued
/// from: they are replayed, not reviewed), each position searched once on `budget` nodes. A
/// turn's chances are its mover's in the position before it and in the position after it, so
/// one position never has two chances. A turn left open at the end (a chain the game ended in)
/// is reviewed as far as it went.
pub fn review(game: &Game, first: usize, curve: &Curve, budget: u64) -> Review {
    review_told(game, first, curve, budget, &mut || {})
}

/// [`review`], calling `turn_done` after each turn reviewed (a command line's progress).
pub fn review_told(
    game: &Game,
    first: usize,
    curve: &Curve,
    budget: u64,
    turn_done: &mut dyn FnMut(),
) -> Review {
    let first = first.min(game.turns().len());
    let settings = settings(budget);
    let mut replay = game.after_turns(first);
    let side = replay.position().turn();
    let (mut chance, mut best) = chance_here(&replay, side, curve, &settings);
    let start = defenders(side, chance);
    let mut turns = Vec::with_capacity(game.turns().len() - first);
    for turn in &game.turns()[first..] {
        let side = replay.position().turn();
        let Some(steps) = turn_steps(&replay, turn) else {
            break;
        };
        let forced = super::steps(&replay).len() == 1;
        let played = written(&replay, &steps);
        let better = best.as_ref().map(|b| written(&replay, b));
        let mut next = replay.clone();
        if steps.iter().any(|&s| take(&mut next, s).is_err()) {
            break;
        }
        let before = chance;
        let (after, best_next) = chance_here(&next, side, curve, &settings);
        let decided = before <= DECIDED || (before >= 1.0 - DECIDED && after >= 0.5);
        let drop = if forced || decided {
            None
        } else {
            Mark::of_drop(before - after)
        };
        // The engine's turn in its place; a drop with nothing better to name is not marked.
        let better = drop.and(better).filter(|b| *b != played);
        let mark = drop.filter(|_| better.is_some());
        turns.push(ReviewedTurn {
            side,
            played,
            before,
            after,
            forced,
            better,
            mark,
        });
        // The next mover's chance in the same position.
        let mover = next.position().turn();
        chance = if mover == side { after } else { 1.0 - after };
        best = best_next;
        replay = next;
        turn_done();
    }
    Review {
        first,
        turns,
        start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A game the engine plays with itself at depth 2, from two random turns drawn from `seed`.
    fn engine_game(id: &str, seed: u64, turns: usize) -> Game {
        let variant = crate::rules::Variant::by_id(id).unwrap();
        let mut game = Game::new(variant);
        for step in crate::engine::arena::opening(variant, 2, seed) {
            take(&mut game, step).unwrap();
        }
        for _ in 0..turns {
            let Ok(t) = think(&game, &Settings::depth(2)) else {
                break;
            };
            for step in t.turn {
                take(&mut game, step).unwrap();
            }
        }
        game
    }

    /// The engine's own one-step turns weigh as much as its best: the turn and the best are
    /// scored in one search, so nothing a later search sees comes between them. Any other step
    /// weighs its exact score, not the bound a search that only looks for the best gives it.
    #[test]
    fn a_turn_is_weighed_against_the_best_in_one_search() {
        let settings = Settings::depth(2);
        for (id, seed) in [
            ("brandubh", 1),
            ("brandubh", 2),
            ("copenhagen", 3),
            ("tablut", 4),
        ] {
            let game = engine_game(id, seed, 24);
            let mut replay = game.after_turns(0);
            for turn in game.turns() {
                let steps = turn_steps(&replay, turn).unwrap();
                let w = weigh_turn(&replay, &steps, &settings).unwrap();
                if replay.turns().len() >= 2 {
                    assert_eq!(w.played, w.best, "{id} {seed} {steps:?}");
                }
                // Any other step weighs its exact score: as a search that scores every root
                // step in full sees it.
                let exact = crate::engine::scored_steps(&replay, settings.limits, settings.eval);
                for &(other, score) in exact.iter().step_by(7) {
                    let o = weigh_turn(&replay, &[other], &settings).unwrap();
                    assert_eq!((o.best, o.played), (w.best, score), "{id} {seed} {other:?}");
                }
                for s in steps {
                    take(&mut replay, s).unwrap();
                }
            }
        }
        // An illegal step, and a finished game, are not weighed.
        let game = engine_game("brandubh", 1, 0);
        let d4 = crate::rules::Square::new(3, 3).unwrap();
        let d4d4 = Step::Move(crate::rules::Move::slide(d4, d4));
        assert_eq!(weigh_turn(&game, &[d4d4], &settings), None);
        assert_eq!(weigh_turn(&game, &[], &settings), None);
    }

    /// Every variant has a curve, and every curve rises with the score for either side to move
    /// and is certain only of forced results.
    #[test]
    fn every_familys_curve_rises_with_the_score() {
        use crate::engine::weights::FAMILIES;
        let curves = FAMILIES
            .into_iter()
            .map(Curve::family)
            .chain(crate::rules::Variant::all().iter().map(Curve::of));
        for curve in curves {
            let family = curve;
            for side in [Side::Attackers, Side::Defenders] {
                let chances: Vec<f64> = (-10..=10).map(|i| curve.chance(side, i * 100)).collect();
                assert!(chances.windows(2).all(|w| w[0] < w[1]), "{family:?}");
                assert!(chances.iter().all(|c| *c > 0.0 && *c < 1.0), "{family:?}");
                assert_eq!(curve.chance(side, WON), 1.0);
            }
        }
    }
}

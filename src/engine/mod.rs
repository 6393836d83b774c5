//! The AI opponent: a search over the rules core's positions for every variant. Pure like the
//! rules core: no I/O, no async (it reads the clock only to keep to a time limit).
//!
//! ```
//! use taflbot::engine::{think, Settings, Step};
//! use taflbot::rules::{Game, Variant};
//!
//! let game = Game::new(Variant::by_id("brandubh").unwrap());
//! let thought = think(&game, &Settings::depth(2)).unwrap();
//! assert!(matches!(thought.turn[0], Step::Move(_)));
//! ```

pub mod arena;
pub mod eval;
mod memo;
pub mod net;
pub mod puzzle;
pub mod review;
mod search;
pub mod teach;
pub mod weights;
pub mod wide;

use std::time::Duration;

use crate::rules::random::Rng;
use crate::rules::{Game, Move, Side};

pub use search::{WIN, WON};
pub use weights::Eval;

/// One step of a turn: a move, or ending an open berserk chain.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Step {
    Move(Move),
    EndTurn,
}

/// When to stop thinking. Unset limits do not apply; depth 1 is always finished.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl Limits {
    /// A search of about `nodes` positions, however deep that goes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits {
            depth: None,
            nodes: Some(nodes),
            time: None,
        }
    }
}

/// How to think: the limits of each step's search, and how far below the best a step may score
/// and still be chosen (the weaker levels), by chance drawn from `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub limits: Limits,
    pub margin: i32,
    pub seed: u64,
    /// The transposition table has 2^bits entries.
    pub table_bits: u32,
    /// The weights it judges by.
    pub eval: Eval,
}

/// The strongest and weakest levels players may choose.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=5;
/// The level a game against the bot gets unless the challenge names one.
pub const DEFAULT_LEVEL: u8 = 3;

impl Settings {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Settings {
        Settings {
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            margin: 0,
            seed: 0,
            table_bits: 18,
            eval: Eval::default(),
        }
    }

    /// A search of about `nodes` positions for each step: the same work on every run.
    pub fn nodes(nodes: u64) -> Settings {
        Settings {
            limits: Limits::nodes(nodes),
            ..Settings::depth(1)
        }
    }

    /// A player's level, 1 (weakest) to 5. Levels 1 and 2 look one and two plies ahead and choose
    /// at random among the steps scoring close to the best; 3 to 5 search a budget of nodes (about
    /// 20,000, 100,000 and 500,000) and play the best step.
    pub fn level(level: u8, seed: u64) -> Settings {
        let (depth, nodes, margin) = match level.clamp(1, 5) {
            1 => (Some(1), None, 250),
            2 => (Some(2), None, 100),
            3 => (None, Some(20_000), 0),
            4 => (None, Some(100_000), 0),
            _ => (None, Some(500_000), 0),
        };
        Settings {
            limits: Limits {
                depth,
                nodes,
                // However many nodes, no step takes more than this.
                time: Some(Duration::from_secs(20)),
            },
            margin,
            seed,
            table_bits: 18,
            eval: Eval::default(),
        }
    }
}

/// What the engine chose, and what it saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The whole turn: one move, a berserk chain (ended by [`Step::EndTurn`] when it stops before
    /// running out of captures), or both slots of a Save the Standard turn.
    pub turn: Vec<Step>,
    /// The first step's score for the side to move, in hundredths of a man; see `won_in`.
    pub score: i32,
    /// Plies to a forced win (positive) or loss (negative), when the search saw one.
    pub won_in: Option<i32>,
    /// The deepest search finished for the first step.
    pub depth: u32,
    /// The first step's best score one depth shallower (`None` where only depth 1 finished).
    pub shallower: Option<i32>,
    /// Positions visited, over every step of the turn.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The line the first step's search expects, from the first step.
    pub pv: Vec<Step>,
}

impl Thought {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            self.nodes
        }
    }

    /// The score that leans to neither side: the mean of the last two depths' (a search's score
    /// favours the side that moves at its last depth, which flips from one depth to the next), or
    /// the score alone for a forced result or a search of one depth.
    pub fn steady_score(&self) -> i32 {
        match self.shallower {
            Some(s) if self.won_in.is_none() && s.abs() < WON => (self.score + s) / 2,
            _ => self.score,
        }
    }

    /// The score in hundredths of a man, when no forced result is seen.
    pub fn centipawns(&self) -> Option<i32> {
        self.won_in.is_none().then_some(self.score)
    }

    /// A forced result as the side to move's own moves: to a win (positive) or a loss (negative).
    pub fn mate_in(&self) -> Option<i32> {
        self.won_in.map(|p| (p.abs() + 1) / 2 * p.signum())
    }

    /// The turn's moves, without the step that ends a chain (a whole turn ends it anyway).
    pub fn moves(&self) -> Vec<Move> {
        self.turn
            .iter()
            .filter_map(|s| match s {
                Step::Move(m) => Some(*m),
                Step::EndTurn => None,
            })
            .collect()
    }
}

/// Why the engine has nothing to say.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the game is over")]
    GameOver,
}

/// The steps the game allows now: its legal moves (less those its repetition rule forbids), and
/// ending the turn when a chain is open and that is allowed.
pub fn steps(game: &Game) -> Vec<Step> {
    let mut steps: Vec<Step> = game.legal_moves().into_iter().map(Step::Move).collect();
    if game.position().chain().is_some() && game.clone().end_turn().is_ok() {
        steps.push(Step::EndTurn);
    }
    steps
}

/// Steps from `game` on, in canonical text, each as written in the position it is played in (the
/// end of a chain is not written: a whole turn ends it).
pub fn written(game: &Game, steps: &[Step]) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for &step in steps {
        if let Step::Move(m) = step {
            out.push(crate::rules::canonical(g.position(), m));
        }
        if take(&mut g, step).is_err() {
            break;
        }
    }
    out
}

/// Takes a step in a game.
pub fn take(game: &mut Game, step: Step) -> Result<(), crate::rules::IllegalMove> {
    match step {
        Step::Move(m) => game.play(m).map(|_| ()),
        Step::EndTurn => game.end_turn(),
    }
}

/// Chooses a whole turn for the side to move.
pub fn think(game: &Game, settings: &Settings) -> Result<Thought, EngineError> {
    if game.outcome().is_some() {
        return Err(EngineError::GameOver);
    }
    let board = eval::Board::with(game.variant(), settings.eval);
    let side: Side = game.position().turn();
    let mut rng = Rng::new(settings.seed ^ game.position().hash());
    let mut playing = game.clone();
    let mut thought: Option<Thought> = None;
    let mut turn = Vec::new();
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    loop {
        let steps = steps(&playing);
        if steps.is_empty() {
            break;
        }
        // A forced step (a chain's last capture, say) needs no thought beyond its score.
        let limits = if steps.len() == 1 {
            Limits {
                depth: Some(1),
                ..settings.limits
            }
        } else {
            settings.limits
        };
        let mut search = search::Search::new(board, &playing, limits, settings.table_bits);
        search.exact_root = settings.margin > 0;
        let found = search.run(&steps);
        nodes += search.nodes;
        elapsed += search.elapsed();
        let step = choose(&found, settings.margin, &mut rng);
        if thought.is_none() {
            let won_in = (found.score.abs() >= WON)
                .then(|| (WIN - found.score.abs()) * found.score.signum());
            thought = Some(Thought {
                turn: Vec::new(),
                score: found.score,
                won_in,
                depth: found.depth,
                shallower: found.shallower,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: found.pv.clone(),
            });
        }
        turn.push(step);
        take(&mut playing, step).expect("the search chose a legal step");
        if playing.outcome().is_some() || playing.position().turn() != side {
            break;
        }
        if playing.turns().last().is_some_and(|t| t.complete) {
            break;
        }
    }
    let mut thought = thought.ok_or(EngineError::GameOver)?;
    thought.turn = turn;
    thought.nodes = nodes;
    thought.elapsed = elapsed;
    Ok(thought)
}

/// A forced result for the side to move within `plies`, as a search of `nodes` positions sees
/// it: plies to a win (positive) or a loss (negative). `None` when it sees none, or the game is
/// over. The forced-escape suite is cut and checked with it.
pub fn forced_within(game: &Game, nodes: u64, plies: i32) -> Option<i32> {
    forced_with(game, &Settings::nodes(nodes), plies)
}

/// [`forced_within`] with a search of `settings` (a larger table for a larger search, say).
pub fn forced_with(game: &Game, settings: &Settings, plies: i32) -> Option<i32> {
    let thought = think(game, settings).ok()?;
    thought.won_in.filter(|p| p.abs() <= plies)
}

/// Every step the game allows now with its score for the side to move by the weights of `eval`,
/// each searched with a full window to the last depth finished within `limits`, best first.
pub fn scored_steps(game: &Game, limits: Limits, eval: Eval) -> Vec<(Step, i32)> {
    let steps = steps(game);
    if steps.is_empty() || game.outcome().is_some() {
        return Vec::new();
    }
    let board = eval::Board::with(game.variant(), eval);
    let mut search = search::Search::new(board, game, limits, 16);
    search.exact_root = true;
    search.run(&steps).root
}

/// The side to move's scores for its best step and for `step`, from one search on `settings` (its
/// limits, weights and table; not its margin), in which `step` is scored exactly (a full window at every depth) as the
/// best is: a review weighs the step a player took against the best in the same search, so that
/// what the search does not see in either cancels out. `None` when the game is over or the game
/// does not allow `step`.
pub fn weigh(game: &Game, step: Step, settings: &Settings) -> Option<Weighing> {
    let steps = steps(game);
    if game.outcome().is_some() || !steps.contains(&step) {
        return None;
    }
    let board = eval::Board::with(game.variant(), settings.eval);
    let mut search = search::Search::new(board, game, settings.limits, settings.table_bits);
    search.exact_step = Some(step);
    let found = search.run(&steps);
    let score = found.root.iter().find(|r| r.0 == step)?.1;
    Some(Weighing {
        best: found.best,
        best_score: found.score,
        score,
    })
}

/// What [`weigh`] found, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weighing {
    /// The best step, and its score.
    pub best: Step,
    pub best_score: i32,
    /// The weighed step's score (at most `best_score`).
    pub score: i32,
}

/// The best step, or with a margin a step drawn among those scoring within it of the best (never
/// one that loses by force when another does not).
fn choose(found: &search::Found, margin: i32, rng: &mut Rng) -> Step {
    if margin <= 0 || found.root.len() < 2 {
        return found.best;
    }
    let best = found.root.iter().map(|r| r.1).max().unwrap_or(found.score);
    let near: Vec<Step> = found
        .root
        .iter()
        .filter(|(_, s)| *s >= best - margin && (*s > -WON || best <= -WON))
        .map(|(step, _)| *step)
        .collect();
    if near.is_empty() {
        return found.best;
    }
    near[rng.below(near.len())]
}

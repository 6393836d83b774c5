//! Puzzles: positions cut from real games where the side to move wins by force, tried one at a
//! time by each player, in private.
//!
//! - Where they come from: the Copenhagen corpus taflbot carries (cut a few games at a time by a
//!   claimed chore, so that the first start is not held up), a file (`taflbot import-puzzles`),
//!   and the finished games of each server, which the same background work looks at once each.
//!   A puzzle cut from a server's game is seen only in that server; the others are everyone's.
//! - Trying one: `/puzzle` opens one near the player's puzzle rating that they have not tried (or
//!   shows the one they have open); `/solve` checks each of the solver's moves, answers a right
//!   one with the solution's reply, and ends the try solved or failed. A move that is not legal
//!   there, or not written as a move, is refused and changes nothing. A wrong move shows the
//!   solution only at the end of a rated try (a try by number could be a second account
//!   fishing for the main one's), and a failed puzzle opens again for its player a day later.
//! - Ratings: each player has one puzzle rating, and each puzzle a rating of its own, both
//!   Glicko-2. Only a player's first try at a puzzle is rated, and never a puzzle asked for by
//!   number (the daily one, or one a friend names: its solution may have been seen), so a puzzle
//!   seen once cannot be solved again for points; a player is never offered a puzzle cut from a
//!   game of their own, which they could have set up. A player whose rating is still uncertain
//!   moves a puzzle's rating little, as Glicko-2 weighs every result by the opponent's
//!   deviation. Puzzle ratings rank nobody: there is no puzzle leaderboard to farm.
//! - The daily puzzle: a server's managers name a channel, and each day (UTC) one process claims
//!   the day's post and makes it.

use sqlx::{AnyConnection, Row};

use super::{Lease, Person, RatingChange, Scope, Service, ServiceError, DAY};
use crate::engine::puzzle::{check, cut, Puzzle, Theme, Unsound};
use crate::notation;
use crate::rating::{self, Rating};
use crate::render::{Scene, Theme as Colours};
use crate::rules::{parse_position, write_position, Game, Move, Side, Variant};

mod daily;
mod make;
mod tries;

pub use daily::{DailyPuzzle, DailySetting};
pub use make::{cutting_order, read_puzzles, Found};

/// The recorded Copenhagen games that puzzles are first cut from.
pub const CORPUS: &str = include_str!("../../../data/copenhagen.csv");
/// The variant of [`CORPUS`].
pub const CORPUS_VARIANT: &str = "copenhagen";
/// Lines of the corpus cut per claim (about a second of work).
pub const CORPUS_BATCH: usize = 4;
/// Finished games looked at per claim.
pub const GAMES_BATCH: i64 = 4;
/// A new puzzle is one of this many untried ones nearest the player's rating, chosen at random.
const NEAREST: i64 = 12;
/// The server of a puzzle cut from a game of no server (the local mode's): seen only where every
/// game is (the local mode), never in a Discord server that shares the database.
pub const NO_SERVER: &str = "-";
/// Rounds of one call of [`Service::claim_daily_puzzle`] at most.
const MAX_CLAIM_ROUNDS: usize = 20;
/// Failed daily posts in a day before the day's puzzle is given up.
pub const DAILY_ATTEMPTS: i64 = 5;

/// How far a chore came in one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A batch was done; more may be left.
    Worked,
    /// Nothing is left.
    Done,
    /// Another process holds the chore now.
    Busy,
}

/// A puzzle as a player sees it while trying it.
#[derive(Clone, Debug)]
pub struct PuzzleView {
    pub id: i64,
    pub variant: &'static Variant,
    /// The puzzle's game from its position, with the moves played in this try.
    pub game: Game,
    pub solver: Side,
    /// The solver's moves the solution asks for, and how many the player has found.
    pub solver_moves: usize,
    pub found: usize,
    pub theme: Theme,
    /// The puzzle's rating.
    pub rating: Rating,
    /// Whether this try is rated (the player's first at this puzzle).
    pub rated: bool,
}

/// A puzzle shown: opened now, or open already.
#[derive(Clone, Debug)]
pub struct PuzzleShown {
    pub puzzle: PuzzleView,
    pub png: Vec<u8>,
    /// The player had it open already (asked again, or asked for another meanwhile).
    pub again: bool,
}

/// How a move in a puzzle went.
#[derive(Clone, Debug, PartialEq)]
pub enum Solving {
    /// Right: the opponent replied, and the puzzle goes on.
    Right { reply: String },
    /// Right, and the puzzle is solved.
    Solved,
    /// Wrong: the try is over; the solution from the position it was played in, shown only at
    /// the end of a rated try (a try by number could be an account fishing for another's
    /// rated try).
    Failed { solution: Option<Vec<String>> },
}

/// A move in a puzzle: what it was, how it went, the board after it, and the player's puzzle
/// rating when a rated try ended.
#[derive(Clone, Debug)]
pub struct SolveStep {
    pub puzzle: PuzzleView,
    pub played: String,
    pub how: Solving,
    pub rating: Option<RatingChange>,
    pub png: Vec<u8>,
}

/// A player's puzzle rating and rated tries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRecord {
    pub rating: Rating,
    pub tries: i64,
    pub solves: i64,
}

/// A puzzle as stored, read back: the game at its position and its solution's moves.
pub fn read_puzzle(
    variant: &'static Variant,
    position: &str,
    solution: &str,
) -> Result<(Game, Vec<Move>), String> {
    let start = parse_position(variant, position).map_err(|e| e.to_string())?;
    let game = Game::from_position(start);
    let mut g = game.clone();
    let mut moves = Vec::new();
    for text in solution.split_whitespace() {
        let (m, _) = notation::read_move(g.position(), text).map_err(|e| e.to_string())?;
        g.play(m).map_err(|e| e.to_string())?;
        moves.push(m);
    }
    Ok((game, moves))
}

/// A puzzle row.
struct Stored {
    id: i64,
    variant: &'static Variant,
    position: String,
    solution: String,
    theme: String,
    rating: Rating,
}

const PUZZLE_SELECT: &str =
    "SELECT id, variant, position, solution, theme, rating, deviation, volatility FROM puzzles";

fn stored(row: &sqlx::any::AnyRow) -> Result<Stored, ServiceError> {
    let variant: String = row.try_get("variant")?;
    Ok(Stored {
        id: row.try_get("id")?,
        variant: Variant::by_id(&variant).ok_or(ServiceError::UnknownVariant(variant))?,
        position: row.try_get("position")?,
        solution: row.try_get("solution")?,
        theme: row.try_get("theme")?,
        rating: rating_of(row)?,
    })
}

/// The rating of a row (a puzzle's or a player's): its `rating`, `deviation` and `volatility`.
fn rating_of(row: &sqlx::any::AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
    })
}

/// A player's puzzle rating as of `now`: its deviation grown since `rated_at`.
fn grown(row: &sqlx::any::AnyRow, now: i64) -> Result<Rating, sqlx::Error> {
    let at: i64 = row.try_get("rated_at")?;
    Ok(rating_of(row)?.after(now - at))
}

impl Stored {
    /// The puzzle as a try at `step` sees it (the solver's first `step` moves and their replies
    /// played).
    fn view(&self, step: usize, rated: bool) -> Result<(PuzzleView, Vec<Move>), ServiceError> {
        let (game, solution) = read_puzzle(self.variant, &self.position, &self.solution)
            .map_err(|e| ServiceError::BrokenPuzzle(self.id, e))?;
        let solver = game.position().turn();
        // A try is open only before the solution's last move: a step past it, or a solution of
        // no moves, is a damaged row.
        if 2 * step >= solution.len() || solution.len().is_multiple_of(2) {
            let why = format!("step {step} of a solution of {} moves", solution.len());
            return Err(ServiceError::BrokenPuzzle(self.id, why));
        }
        let mut g = game;
        for &m in solution.iter().take(2 * step) {
            g.play(m)
                .map_err(|e| ServiceError::BrokenPuzzle(self.id, e.to_string()))?;
        }
        let theme = Theme::ALL
            .into_iter()
            .find(|t| t.name() == self.theme)
            .ok_or_else(|| {
                ServiceError::BrokenPuzzle(self.id, format!("no theme is called {:?}", self.theme))
            })?;
        Ok((
            PuzzleView {
                id: self.id,
                variant: self.variant,
                game: g,
                solver,
                solver_moves: solution.len().div_ceil(2),
                found: step,
                theme,
                rating: self.rating,
                rated,
            },
            solution,
        ))
    }
}

impl Service {
    async fn shown(&self, view: PuzzleView, again: bool) -> Result<PuzzleShown, ServiceError> {
        let png = self.puzzle_picture(&view).await?;
        Ok(PuzzleShown {
            puzzle: view,
            png,
            again,
        })
    }

    /// The board of a puzzle as it stands, the solver's side below, the last move marked.
    async fn puzzle_picture(&self, view: &PuzzleView) -> Result<Vec<u8>, ServiceError> {
        let game = view.game.clone();
        let flip = view.solver == Side::Defenders;
        self.cpu(move |renderer| renderer.png(&Scene::game(&game).flipped(flip), Colours::Classic))
            .await
    }
}

/// `me`'s open try: its puzzle, step and whether it is rated.
async fn open_try(
    conn: &mut AnyConnection,
    me: i64,
) -> Result<Option<(Stored, usize, bool)>, ServiceError> {
    let row = sqlx::query(
        "SELECT p.id, p.variant, p.position, p.solution, p.theme, p.rating, p.deviation,
                p.volatility, t.step, t.rated
         FROM puzzle_tries t JOIN puzzles p ON p.id = t.puzzle_id
         WHERE t.player_id = $1 AND t.status = 'open'",
    )
    .bind(me)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let step: i64 = row.try_get("step")?;
    let rated: i64 = row.try_get("rated")?;
    Ok(Some((stored(&row)?, step.max(0) as usize, rated != 0)))
}

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
//!   there, or not written as a move, is refused and changes nothing.
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

use super::{Person, RatingChange, Scope, Service, ServiceError, DAY};
use crate::engine::puzzle::{check, cut, Puzzle, Theme, Unsound};
use crate::notation;
use crate::rating::{self, Rating};
use crate::render::{Scene, Theme as Colours};
use crate::rules::{parse_position, write_position, Game, Move, Side, Variant};

/// The recorded Copenhagen games that puzzles are first cut from.
pub const CORPUS: &str = include_str!("../../tests/data/copenhagen.csv");
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

/// A chore claimed: how far it has come, its seed, and until when the claim holds.
struct Claimed {
    done_to: i64,
    seed: i64,
    until: i64,
}

/// A seed no other database is likely to share (never 0, which means "in order").
fn fresh_seed() -> i64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    (h.finish() >> 1).max(1) as i64
}

/// The order `n` corpus lines are cut in for `seed`: a shuffle of them, the same in every
/// process; seed 0 keeps the corpus's order.
pub fn cutting_order(n: usize, seed: i64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if seed != 0 {
        let mut rng = crate::rules::random::Rng::new(seed as u64);
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
    }
    order
}

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

/// A server's daily puzzle, claimed for posting.
#[derive(Clone, Debug)]
pub struct DailyPuzzle {
    pub guild: String,
    pub channel: String,
    pub day: i64,
    pub puzzle: PuzzleView,
    pub png: Vec<u8>,
    /// The claim this process holds on the post: until when.
    pub claim: i64,
}

/// A server's daily puzzle setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailySetting {
    /// The channel it is posted in; `None`: no daily puzzle.
    pub channel: Option<String>,
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
            .unwrap_or(Theme::Material);
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
    /// Opens a puzzle for `who`: puzzle `number`, or else an untried one of `variant` (by
    /// default, the variant of their last try, or the one with the most puzzles) near their
    /// puzzle rating. A player with a try open is shown it again instead.
    pub async fn puzzle(
        &self,
        who: &Person,
        variant: Option<&'static Variant>,
        number: Option<i64>,
    ) -> Result<PuzzleShown, ServiceError> {
        let mut tx = self.write().await?;
        let me = self.player_id(&mut tx, who).await?;
        if let Some((stored, step, rated)) = open_try(&mut tx, me).await? {
            let seen = self.open_view(&mut tx, me, &stored, step, rated).await;
            tx.commit().await?;
            return self.shown(seen?.0, true).await;
        }
        let id = match number {
            Some(id) => {
                let guild: Option<Option<String>> =
                    sqlx::query_scalar("SELECT guild FROM puzzles WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await?;
                match guild {
                    None => return Err(ServiceError::NoSuchPuzzle(id)),
                    Some(g) if !self.scope.sees(g.as_deref()) => {
                        return Err(ServiceError::NoSuchPuzzle(id))
                    }
                    Some(_) => id,
                }
            }
            None => {
                let variant = match variant {
                    Some(v) => v,
                    None => self.usual_puzzle_variant(&mut tx, me).await?,
                };
                self.untried(&mut tx, me, variant).await?
            }
        };
        let tried: Option<(String, Option<i64>)> = sqlx::query_as(
            "SELECT status, ended_at FROM puzzle_tries WHERE player_id = $1 AND puzzle_id = $2",
        )
        .bind(me)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        // A failed puzzle opens again a day later: one guess a day, so that accounts cannot
        // take turns guessing its moves for another's rated try.
        if let Some(("failed", Some(ended))) = tried.as_ref().map(|(s, e)| (s.as_str(), *e)) {
            let wait = ended + DAY - self.now();
            if wait > 0 {
                return Err(ServiceError::PuzzleRetryTooSoon { id, wait });
            }
        }
        // A puzzle asked for by number (the daily one, or one a friend names) is never rated: its
        // solution may have been seen elsewhere.
        let rated = tried.is_none() && number.is_none();
        sqlx::query(
            "INSERT INTO puzzle_tries (player_id, puzzle_id, step, status, rated, started_at)
             VALUES ($1, $2, 0, 'open', $3, $4)
             ON CONFLICT (player_id, puzzle_id) DO UPDATE
             SET step = 0, status = 'open', rated = 0, started_at = excluded.started_at,
                 ended_at = NULL",
        )
        .bind(me)
        .bind(id)
        .bind(i64::from(rated))
        .bind(self.now())
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(&format!("{PUZZLE_SELECT} WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        let (view, _) = stored(&row)?.view(0, rated)?;
        tx.commit().await?;
        self.shown(view, false).await
    }

    /// Plays `text` as `who`'s next move in their open puzzle.
    pub async fn solve(&self, who: &Person, text: &str) -> Result<SolveStep, ServiceError> {
        let mut tx = self.write().await?;
        let me = self.player_id(&mut tx, who).await?;
        let (stored, step, rated) = open_try(&mut tx, me)
            .await?
            .ok_or(ServiceError::NoPuzzleOpen)?;
        let (mut view, solution) = match self.open_view(&mut tx, me, &stored, step, rated).await {
            Ok(seen) => seen,
            Err(e) => {
                tx.commit().await?;
                return Err(e);
            }
        };
        let (m, _) = notation::read_move(view.game.position(), text.trim())?;
        let played = notation::canonical(view.game.position(), m);
        let wanted = solution[2 * step];
        let mut g = view.game.clone();
        g.play(m)?;
        let wins_now = g.outcome().is_some_and(|o| o.winner == Some(view.solver));
        let how = if m == wanted || wins_now {
            if wins_now || 2 * step + 1 >= solution.len() {
                Solving::Solved
            } else {
                let reply = solution[2 * step + 1];
                let written = notation::canonical(g.position(), reply);
                g.play(reply)
                    .map_err(|e| ServiceError::BrokenPuzzle(stored.id, e.to_string()))?;
                Solving::Right { reply: written }
            }
        } else {
            Solving::Failed {
                solution: rated.then(|| {
                    crate::engine::written(
                        &view.game,
                        &solution[2 * step..]
                            .iter()
                            .map(|&m| crate::engine::Step::Move(m))
                            .collect::<Vec<_>>(),
                    )
                }),
            }
        };
        let mut change = None;
        match &how {
            Solving::Right { .. } => {
                sqlx::query(
                    "UPDATE puzzle_tries SET step = step + 1
                     WHERE player_id = $1 AND puzzle_id = $2 AND status = 'open'",
                )
                .bind(me)
                .bind(stored.id)
                .execute(&mut *tx)
                .await?;
                view.found += 1;
            }
            Solving::Solved | Solving::Failed { .. } => {
                let solved = how == Solving::Solved;
                if solved {
                    view.found += 1;
                }
                change = self.end_try(&mut tx, me, &stored, solved, rated).await?;
            }
        }
        tx.commit().await?;
        view.game = g;
        let png = self.puzzle_picture(&view).await?;
        Ok(SolveStep {
            puzzle: view,
            played,
            how,
            rating: change,
            png,
        })
    }

    /// A player's puzzle rating (grown for the time since it last changed), with their tries
    /// and solves; `None` before their first rated try.
    pub async fn puzzle_rating(&self, who: &Person) -> Result<Option<PuzzleRecord>, ServiceError> {
        let row = sqlx::query(
            "SELECT r.rating, r.deviation, r.volatility, r.rated_at, r.tries, r.solves
             FROM puzzle_ratings r JOIN players p ON p.id = r.player_id WHERE p.key = $1",
        )
        .bind(&who.key)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(PuzzleRecord {
            rating: grown(&row, self.now())?,
            tries: row.try_get("tries")?,
            solves: row.try_get("solves")?,
        }))
    }

    /// The open try of `me` at `stored`, as they see it. A puzzle that no longer reads or
    /// replays ends the try, unrated, so that the player is not held at it (the caller commits
    /// that before refusing); the refusal says it was reported.
    async fn open_view(
        &self,
        conn: &mut AnyConnection,
        me: i64,
        stored: &Stored,
        step: usize,
        rated: bool,
    ) -> Result<(PuzzleView, Vec<Move>), ServiceError> {
        match stored.view(step, rated) {
            Ok(seen) => Ok(seen),
            Err(e) => {
                tracing::error!(puzzle = stored.id, error = %e, "a stored puzzle does not replay");
                sqlx::query(
                    "UPDATE puzzle_tries SET status = 'failed', rated = 0, ended_at = $3
                     WHERE player_id = $1 AND puzzle_id = $2 AND status = 'open'",
                )
                .bind(me)
                .bind(stored.id)
                .bind(self.now())
                .execute(&mut *conn)
                .await?;
                Err(e)
            }
        }
    }

    /// Ends `me`'s open try at `stored`, solved or failed; a rated try changes both ratings.
    async fn end_try(
        &self,
        conn: &mut AnyConnection,
        me: i64,
        stored: &Stored,
        solved: bool,
        rated: bool,
    ) -> Result<Option<RatingChange>, ServiceError> {
        let now = self.now();
        sqlx::query(
            "UPDATE puzzle_tries SET status = $3, ended_at = $4
             WHERE player_id = $1 AND puzzle_id = $2 AND status = 'open'",
        )
        .bind(me)
        .bind(stored.id)
        .bind(if solved { "solved" } else { "failed" })
        .bind(now)
        .execute(&mut *conn)
        .await?;
        if !rated {
            return Ok(None);
        }
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, rated_at FROM puzzle_ratings WHERE player_id = $1",
        )
        .bind(me)
        .fetch_optional(&mut *conn)
        .await?;
        let player = match row {
            Some(row) => grown(&row, now)?,
            None => rating::START,
        };
        let (after, puzzle) = rating::duel(player, stored.rating, solved);
        let solve = i64::from(solved);
        sqlx::query(
            "INSERT INTO puzzle_ratings
                 (player_id, rating, deviation, volatility, rated_at, tries, solves)
             VALUES ($1, $2, $3, $4, $5, 1, $6)
             ON CONFLICT (player_id) DO UPDATE
             SET rating = excluded.rating, deviation = excluded.deviation,
                 volatility = excluded.volatility, rated_at = excluded.rated_at,
                 tries = puzzle_ratings.tries + 1, solves = puzzle_ratings.solves + $6",
        )
        .bind(me)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(now)
        .bind(solve)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4,
                 tries = tries + 1, solves = solves + $5
             WHERE id = $1",
        )
        .bind(stored.id)
        .bind(puzzle.rating)
        .bind(puzzle.deviation)
        .bind(puzzle.volatility)
        .bind(solve)
        .execute(&mut *conn)
        .await?;
        Ok(Some(RatingChange {
            before: player.rating,
            after: after.rating,
        }))
    }

    /// The variant of `me`'s last try, or else the one with the most puzzles seen here.
    async fn usual_puzzle_variant(
        &self,
        conn: &mut AnyConnection,
        me: i64,
    ) -> Result<&'static Variant, ServiceError> {
        let last: Option<String> = sqlx::query_scalar(
            "SELECT p.variant FROM puzzle_tries t JOIN puzzles p ON p.id = t.puzzle_id
             WHERE t.player_id = $1 ORDER BY t.started_at DESC LIMIT 1",
        )
        .bind(me)
        .fetch_optional(&mut *conn)
        .await?;
        let most: Option<String> = match last {
            Some(v) => Some(v),
            None => {
                sqlx::query_scalar(
                    "SELECT variant FROM puzzles
                     WHERE ($1 = '*' OR guild IS NULL OR guild = $1)
                     GROUP BY variant ORDER BY COUNT(*) DESC, variant LIMIT 1",
                )
                .bind(self.scope.guild_param())
                .fetch_optional(&mut *conn)
                .await?
            }
        };
        most.as_deref()
            .and_then(Variant::by_id)
            .ok_or(ServiceError::NoPuzzles(None))
    }

    /// An untried puzzle of `variant` near `me`'s puzzle rating, chosen at random among the
    /// nearest; never one cut from a game of theirs (which they could have set up).
    async fn untried(
        &self,
        conn: &mut AnyConnection,
        me: i64,
        variant: &'static Variant,
    ) -> Result<i64, ServiceError> {
        let mine: Option<f64> =
            sqlx::query_scalar("SELECT rating FROM puzzle_ratings WHERE player_id = $1")
                .bind(me)
                .fetch_optional(&mut *conn)
                .await?;
        let near: Vec<i64> = sqlx::query_scalar(&format!(
            "SELECT id FROM puzzles
             WHERE variant = $1 AND ($2 = '*' OR guild IS NULL OR guild = $2)
               AND NOT EXISTS (SELECT 1 FROM puzzle_tries t
                               WHERE t.puzzle_id = puzzles.id AND t.player_id = $3)
               AND NOT EXISTS (SELECT 1 FROM games g
                               WHERE g.id = puzzles.game_id
                                 AND (g.attacker = $3 OR g.defender = $3))
             ORDER BY ABS(rating - $4), id LIMIT {NEAREST}"
        ))
        .bind(variant.id)
        .bind(self.scope.guild_param())
        .bind(me)
        .bind(mine.unwrap_or(rating::START.rating))
        .fetch_all(&mut *conn)
        .await?;
        if near.is_empty() {
            let any: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM puzzles
                 WHERE variant = $1 AND ($2 = '*' OR guild IS NULL OR guild = $2) LIMIT 1",
            )
            .bind(variant.id)
            .bind(self.scope.guild_param())
            .fetch_optional(&mut *conn)
            .await?;
            return Err(match any {
                Some(_) => ServiceError::AllPuzzlesTried(variant),
                None => ServiceError::NoPuzzles(Some(variant)),
            });
        }
        // A cheap mix of the moment and the player: the same player asking twice in a second
        // may get the same one, which is no harm.
        let pick = (self.now() as u64 ^ (me as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
            >> 33;
        Ok(near[(pick % near.len() as u64) as usize])
    }

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

    // ----- where puzzles come from -----

    /// Stores puzzles read from `text`: JSON lines as `taflbot puzzles --json` writes them (each
    /// checked again), or recorded games, one a line, as the corpus writes them (cut here). At
    /// most `limit`; returns how many were new, and the lines that could not be used with why.
    pub async fn import_puzzles(
        &self,
        variant: &'static Variant,
        text: &str,
        limit: usize,
    ) -> Result<(usize, Vec<String>), ServiceError> {
        let text = text.to_string();
        let (found, problems) = self
            .cpu(move |_| read_puzzles(variant, &text, limit))
            .await?;
        let mut new = 0;
        for p in &found {
            new += usize::from(self.add_puzzle(&self.pool, p, None).await?);
        }
        Ok((new, problems))
    }

    /// How many puzzles are stored.
    pub async fn puzzle_count(&self) -> Result<i64, ServiceError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM puzzles")
            .fetch_one(&self.pool)
            .await?)
    }

    /// Stores one puzzle (from game `from`, of its server, when cut from a game here); false when
    /// it was stored already.
    async fn add_puzzle<'e>(
        &self,
        conn: impl sqlx::Executor<'e, Database = sqlx::Any>,
        p: &Found,
        from: Option<(i64, Option<&str>)>,
    ) -> Result<bool, ServiceError> {
        let done = sqlx::query(
            "INSERT INTO puzzles (variant, position, solution, theme, game_id, guild, rating,
                                  deviation, volatility, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (variant, position) DO NOTHING",
        )
        .bind(p.variant.id)
        .bind(&p.position)
        .bind(p.solution.join(" "))
        .bind(p.theme.name())
        .bind(from.map(|(g, _)| g))
        .bind(from.and_then(|(_, guild)| guild))
        .bind(rating::START.rating)
        .bind(rating::START.deviation)
        .bind(rating::START.volatility)
        .bind(self.now())
        .execute(conn)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// One batch of the background work that makes puzzles: the corpus's next lines, then the
    /// finished games not yet looked at. Each is claimed first, so that several processes never
    /// cut the same batch; a process that dies holding a claim leaves it to another once the
    /// lease runs out. Returns whether anything was done (more may be left).
    pub async fn make_puzzles(&self, corpus: bool) -> Result<bool, ServiceError> {
        let mut worked = false;
        if corpus {
            worked |= self.cut_corpus(CORPUS).await? == Progress::Worked;
        }
        worked |= self.cut_finished_games().await?;
        Ok(worked)
    }

    /// Claims a chore for a lease: how far it has come and until when the claim holds, or `None`
    /// when another process holds it.
    /// A chore's seed is drawn once, by the process that first names it (the order the corpus
    /// is cut in; 0, in order, for a database that began cutting before chores had seeds).
    async fn claim_chore(&self, name: &str) -> Result<Option<Claimed>, ServiceError> {
        let now = self.now();
        let until = now + self.lease;
        sqlx::query(
            "INSERT INTO chores (name, seed) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(fresh_seed())
        .execute(&self.pool)
        .await?;
        let row: Option<(i64, i64)> = sqlx::query_as(
            "UPDATE chores SET claimed_until = $2
             WHERE name = $1 AND (claimed_until IS NULL OR claimed_until <= $3)
             RETURNING done_to, seed",
        )
        .bind(name)
        .bind(until)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(done_to, seed)| Claimed {
            done_to,
            seed,
            until,
        }))
    }

    /// Cuts the next lines of `corpus` (a batch), stores their puzzles and moves the chore on.
    /// The corpus is cut once per database.
    pub async fn cut_corpus(&self, corpus: &'static str) -> Result<Progress, ServiceError> {
        const CHORE: &str = "corpus";
        let total = corpus.lines().count() as i64;
        let Some(Claimed {
            done_to,
            seed,
            until,
        }) = self.claim_chore(CHORE).await?
        else {
            return Ok(Progress::Busy);
        };
        // Moves the chore on and lets it go, unless the claim ran out and another process took
        // it meanwhile (its batch then counts, and this one's puzzles are stored twice over
        // harmlessly: each position once).
        let release = |to: i64| {
            sqlx::query(
                "UPDATE chores SET done_to = $2, claimed_until = NULL
                 WHERE name = $1 AND claimed_until = $3",
            )
            .bind(CHORE)
            .bind(to)
            .bind(until)
        };
        if done_to >= total {
            release(done_to).execute(&self.pool).await?;
            return Ok(Progress::Done);
        }
        let variant = Variant::by_id(CORPUS_VARIANT).expect("the corpus's variant is a variant");
        // Cut in an order of this database's own, so that a puzzle's number says nothing of
        // which recorded game (and so which solution) it came from.
        let all: Vec<&str> = corpus.lines().collect();
        let lines: String = cutting_order(all.len(), seed)
            .into_iter()
            .skip(done_to as usize)
            .take(CORPUS_BATCH)
            .map(|i| all[i])
            .collect::<Vec<_>>()
            .join("\n");
        let found = self
            .cpu(move |_| read_puzzles(variant, &lines, usize::MAX).0)
            .await?;
        let mut tx = self.write().await?;
        for p in &found {
            self.add_puzzle(&mut *tx, p, None).await?;
        }
        let next = (done_to + CORPUS_BATCH as i64).min(total);
        release(next).execute(&mut *tx).await?;
        tx.commit().await?;
        if next >= total {
            tracing::info!("every puzzle of the corpus is made");
        }
        Ok(Progress::Worked)
    }

    /// Looks at a batch of finished games not looked at yet and stores the puzzles cut from
    /// them, each of its game's server. False when none was waiting (or another process holds
    /// the work).
    pub async fn cut_finished_games(&self) -> Result<bool, ServiceError> {
        const CHORE: &str = "games";
        let waiting = |conn| {
            sqlx::query_scalar::<_, i64>(
                "SELECT id FROM games WHERE status = 'finished' AND puzzles_cut = 0
                 ORDER BY id LIMIT $1",
            )
            .bind(GAMES_BATCH)
            .fetch_all(conn)
        };
        // A look before claiming, so that an idle database is not written to every round.
        if waiting(&self.pool).await?.is_empty() {
            return Ok(false);
        }
        let Some(Claimed { until, .. }) = self.claim_chore(CHORE).await? else {
            return Ok(false);
        };
        let everywhere = self.scoped(Scope::Everywhere);
        let mut cuts = Vec::new();
        for id in waiting(&self.pool).await? {
            cuts.push((id, everywhere.cut_game(id).await));
        }
        let mut tx = self.write().await?;
        for (id, found) in &cuts {
            match found {
                Ok(Some((p, guild))) => {
                    self.add_puzzle(&mut *tx, p, Some((*id, Some(guild))))
                        .await?;
                }
                Ok(None) => {}
                // A game that cannot be loaded or cut is passed over for good, not tried again
                // every round.
                Err(e) => tracing::warn!(game = id, error = %e, "not looked at for puzzles"),
            }
            sqlx::query("UPDATE games SET puzzles_cut = 1 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "UPDATE chores SET claimed_until = NULL WHERE name = $1 AND claimed_until = $2",
        )
        .bind(CHORE)
        .bind(until)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The puzzle cut from finished game `id`, if it gives one, with the server it belongs to:
    /// the game's, or [`NO_SERVER`] for a game of no server (the local mode's).
    async fn cut_game(&self, id: i64) -> Result<Option<(Found, String)>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let loaded = self.load(&mut conn, id).await?;
        drop(conn);
        let guild = loaded.row.guild.clone().unwrap_or(NO_SERVER.to_string());
        let Some(winner) = loaded.row.result.winner() else {
            return Ok(None);
        };
        let game = loaded.game;
        let found = self
            .cpu(move |_| cut(&game, winner).map(|p| Found::of(&p)))
            .await?;
        Ok(found.map(|f| (f, guild)))
    }

    /// Runs [`Service::make_puzzles`] in the background until `stop`: a batch, then a rest as
    /// long as the batch took (so that it takes at most about half a core), or `every` when
    /// there was nothing to do.
    pub fn spawn_puzzle_maker(
        &self,
        every: std::time::Duration,
        corpus: bool,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        let service = self.clone();
        tokio::spawn(async move {
            loop {
                let began = std::time::Instant::now();
                let rest = match service.make_puzzles(corpus).await {
                    Ok(true) => began.elapsed().max(std::time::Duration::from_millis(50)),
                    Ok(false) => every,
                    Err(e) => {
                        tracing::warn!(error = %e, "puzzles not made; trying again later");
                        every
                    }
                };
                if !super::rest_or_stop(rest, &mut stop).await {
                    return;
                }
            }
        })
    }

    // ----- the daily puzzle -----

    /// Sets (or, with `on` false, stops) the daily puzzle of the caller's server, posted in
    /// `channel`. Only someone who manages the server may.
    pub async fn set_daily_puzzle(
        &self,
        manages: bool,
        channel: Option<&str>,
        on: bool,
    ) -> Result<DailySetting, ServiceError> {
        let Scope::Server(guild) = &self.scope else {
            return Err(ServiceError::NotInServer);
        };
        if !manages {
            return Err(ServiceError::NotManager);
        }
        let channel = match (on, channel) {
            (false, _) => None,
            (true, Some(c)) => Some(c),
            (true, None) => return Err(ServiceError::NotInServer),
        };
        sqlx::query(
            "INSERT INTO daily_puzzles (guild, channel) VALUES ($1, $2)
             ON CONFLICT (guild) DO UPDATE SET channel = excluded.channel",
        )
        .bind(guild)
        .bind(channel)
        .execute(&self.pool)
        .await?;
        Ok(DailySetting {
            channel: channel.map(str::to_string),
        })
    }

    /// Claims one server's daily puzzle post that is due today and not claimed by another
    /// process (for a lease), with the puzzle it is to show: the next the server has not had,
    /// in the order puzzles were made. `None` when no post is due. A server with no puzzle to
    /// show yet keeps its claim until the lease runs out, and is tried again then.
    pub async fn claim_daily_puzzle(&self) -> Result<Option<DailyPuzzle>, ServiceError> {
        let now = self.now();
        let day = now.div_euclid(DAY);
        let until = now + self.lease;
        // Each round claims a server, or passes over a puzzle that cannot be shown; a bound
        // keeps a store of nothing but such puzzles from holding this here.
        for _ in 0..MAX_CLAIM_ROUNDS {
            let row = sqlx::query(
                "UPDATE daily_puzzles SET claimed_until = $2
                 WHERE guild = (SELECT guild FROM daily_puzzles
                                WHERE channel IS NOT NULL AND posted_day < $1
                                  AND (claimed_until IS NULL OR claimed_until <= $3)
                                ORDER BY guild LIMIT 1)
                   AND (claimed_until IS NULL OR claimed_until <= $3)
                 RETURNING guild, channel, puzzle_id",
            )
            .bind(day)
            .bind(until)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let guild: String = row.try_get(0)?;
            let channel: Option<String> = row.try_get(1)?;
            let last: Option<i64> = row.try_get(2)?;
            let Some(channel) = channel else {
                continue;
            };
            let next = sqlx::query(&format!(
                "{PUZZLE_SELECT} WHERE (guild IS NULL OR guild = $1)
                 ORDER BY CASE WHEN id > $2 THEN 0 ELSE 1 END, id LIMIT 1"
            ))
            .bind(&guild)
            .bind(last.unwrap_or(0))
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = next else {
                // No puzzle yet: the claim lapses, and the post is tried again then.
                continue;
            };
            let stored = stored(&row)?;
            let shown = match stored.view(0, false) {
                Ok((view, _)) => match self.puzzle_picture(&view).await {
                    Ok(png) => Ok((view, png)),
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            };
            match shown {
                Ok((puzzle, png)) => {
                    return Ok(Some(DailyPuzzle {
                        guild,
                        channel,
                        day,
                        puzzle,
                        png,
                        claim: until,
                    }))
                }
                Err(e) => {
                    // A puzzle that cannot be shown is passed over, and the claim let go: the
                    // next one is posted in its place.
                    tracing::error!(puzzle = stored.id, error = %e, "a daily puzzle passed over");
                    sqlx::query(
                        "UPDATE daily_puzzles SET puzzle_id = $2, claimed_until = NULL
                         WHERE guild = $1 AND claimed_until = $3",
                    )
                    .bind(&guild)
                    .bind(stored.id)
                    .bind(until)
                    .execute(&self.pool)
                    .await?;
                }
            }
        }
        Ok(None)
    }

    /// Records a claimed daily post: made (the day is done), or failed (tried again once the
    /// claim runs out, at most [`DAILY_ATTEMPTS`] times a day, then the day is given up). Nothing
    /// changes when the claim has passed to another process meanwhile.
    pub async fn daily_puzzle_posted(
        &self,
        daily: &DailyPuzzle,
        posted: bool,
    ) -> Result<(), ServiceError> {
        if posted {
            sqlx::query(
                "UPDATE daily_puzzles SET posted_day = $2, puzzle_id = $3, claimed_until = NULL,
                     attempts = 0
                 WHERE guild = $1 AND claimed_until = $4",
            )
            .bind(&daily.guild)
            .bind(daily.day)
            .bind(daily.puzzle.id)
            .bind(daily.claim)
        } else {
            // The failures are counted per day: a day's count starts from nothing.
            sqlx::query(
                "UPDATE daily_puzzles
                 SET posted_day = CASE WHEN (CASE WHEN tried_day = $2 THEN attempts ELSE 0 END) + 1 >= $3
                                       THEN $2 ELSE posted_day END,
                     attempts = (CASE WHEN tried_day = $2 THEN attempts ELSE 0 END) + 1,
                     tried_day = $2
                 WHERE guild = $1 AND claimed_until = $4",
            )
            .bind(&daily.guild)
            .bind(daily.day)
            .bind(DAILY_ATTEMPTS)
            .bind(daily.claim)
        }
        .execute(&self.pool)
        .await?;
        Ok(())
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

/// A puzzle found in a file or cut from a game, ready to store.
#[derive(Clone, Debug)]
pub struct Found {
    pub variant: &'static Variant,
    pub position: String,
    pub solution: Vec<String>,
    pub theme: Theme,
}

impl Found {
    /// A puzzle the engine cut, as stored.
    fn of(p: &Puzzle) -> Found {
        Found {
            variant: p.game.variant(),
            position: write_position(p.game.position()),
            solution: p.written(),
            theme: p.theme,
        }
    }
}

/// Reads puzzles from lines (see [`Service::import_puzzles`]): at most `limit`, with a note for
/// each line that could not be used.
pub fn read_puzzles(
    variant: &'static Variant,
    text: &str,
    limit: usize,
) -> (Vec<Found>, Vec<String>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if found.len() >= limit {
            break;
        }
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let read = if line.starts_with('{') {
            puzzle_line(line).map(Some)
        } else {
            Ok(game_line(variant, line))
        };
        match read {
            Ok(Some(p)) => found.push(p),
            Ok(None) => {}
            Err(why) => problems.push(format!("line {}: {why}", i + 1)),
        }
    }
    (found, problems)
}

/// A puzzle written as `taflbot puzzles --json` writes it, checked for soundness.
fn puzzle_line(line: &str) -> Result<Found, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let field = |name: &str| {
        v[name]
            .as_str()
            .ok_or_else(|| format!("no \"{name}\" as text"))
    };
    let variant = Variant::by_id(field("variant")?)
        .ok_or_else(|| format!("no variant {}", field("variant").unwrap_or_default()))?;
    let solution: Vec<String> = v["solution"]
        .as_array()
        .ok_or("no \"solution\" list")?
        .iter()
        .map(|s| {
            s.as_str()
                .map(str::to_string)
                .ok_or("a turn that is not text")
        })
        .collect::<Result<_, _>>()?;
    let (game, moves) = read_puzzle(variant, field("position")?, &solution.join(" "))?;
    let theme = check(&game, &moves).map_err(|e: Unsound| format!("not a sound puzzle: {e}"))?;
    Ok(Found {
        variant,
        position: write_position(game.position()),
        solution: crate::engine::written(
            &game,
            &moves
                .iter()
                .map(|&m| crate::engine::Step::Move(m))
                .collect::<Vec<_>>(),
        ),
        theme,
    })
}

/// The puzzle cut from a recorded game (`moves[,…,result]`), if it gives one.
fn game_line(variant: &'static Variant, line: &str) -> Option<Found> {
    let (game, winner) = notation::recorded_game(variant, line)?;
    cut(&game, winner?).map(|p| Found::of(&p))
}

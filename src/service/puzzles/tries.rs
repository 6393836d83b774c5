//! Trying puzzles: choosing one for a player, judging their moves, and their puzzle rating.

use super::*;
use crate::engine::puzzle::{judge, Judged};

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
        self.puzzle_as(who, variant, number, false).await
    }

    /// [`Service::puzzle`] for a `newcomer` (an account or membership too new for rated play):
    /// their tries are never rated, so a failed one shows no solution. Otherwise fresh accounts
    /// could fail puzzles by the dozen to read the solutions for another account's rated tries.
    pub async fn puzzle_as(
        &self,
        who: &Person,
        variant: Option<&'static Variant>,
        number: Option<i64>,
        newcomer: bool,
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
        let rated = tried.is_none() && number.is_none() && !newcomer;
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
        let mut g = view.game.clone();
        g.play(m)?;
        let how = match judge(&g, view.solver, &solution, step, m) {
            Judged::Solved => Solving::Solved,
            Judged::Right { reply } => {
                let written = notation::canonical(g.position(), reply);
                g.play(reply)
                    .map_err(|e| ServiceError::BrokenPuzzle(stored.id, e.to_string()))?;
                Solving::Right { reply: written }
            }
            // The rest of the line is shown only at the end of a rated try (see `Solving`).
            Judged::Failed => Solving::Failed {
                solution: rated.then(|| {
                    crate::engine::written(
                        &view.game,
                        &solution[2 * step..]
                            .iter()
                            .map(|&m| crate::engine::Step::Move(m))
                            .collect::<Vec<_>>(),
                    )
                }),
            },
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
}

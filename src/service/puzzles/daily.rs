//! The daily puzzle: a server's managers name a channel, and each day (UTC) one process claims
//! the day's post and makes it.

use super::*;

/// A server's daily puzzle, claimed for posting.
#[derive(Clone, Debug)]
pub struct DailyPuzzle {
    pub guild: String,
    pub channel: String,
    pub day: i64,
    pub puzzle: PuzzleView,
    pub png: Vec<u8>,
    /// The claim this process holds on the post.
    pub claim: Lease,
}

/// A server's daily puzzle setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailySetting {
    /// The channel it is posted in; `None`: no daily puzzle.
    pub channel: Option<String>,
}

impl Service {
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
        let lease = self.new_lease();
        let (now, until) = (lease.now, lease.until);
        let day = now.div_euclid(DAY);
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
                        claim: lease,
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
            .bind(daily.claim.until)
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
            .bind(daily.claim.until)
        }
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

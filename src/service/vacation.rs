//! A player's settings for being away and being told. Vacation: a player stops their clocks in every game for up to [`DEFAULT_VACATION_DAYS`] a
//! calendar year (the service's setting). While they are away their deadlines do not fall due;
//! when they come back (or their days run out, which the sweeper notices), each game waiting for
//! their move gets its deadline moved on by the time it waited during the vacation. Direct
//! messages: a player may ask to be told of their turns and reminders by DM.

use chrono::Datelike;
use sqlx::AnyConnection;

use super::{Person, Service, ServiceError, DAY};
use crate::rules::{parse_position, Side, Variant};

/// Vacation days per player and calendar year, unless the service is told otherwise.
pub const DEFAULT_VACATION_DAYS: u32 = 14;

/// Where a player's vacation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    /// On vacation since then, or not on vacation.
    pub since: Option<i64>,
    /// Seconds of vacation left this year (from now, while on vacation).
    pub left: i64,
    /// While on vacation: when the days run out and the clocks run again by themselves.
    pub until: Option<i64>,
}

/// The calendar year (UTC) of a moment.
fn year_of(t: i64) -> i32 {
    chrono::DateTime::from_timestamp(t, 0).map_or(1970, |d| d.year())
}

/// The vacation used in the year of `now`, from the stored seconds used and the year they count in.
fn used_this_year(used: i64, year: i32, now: i64) -> i64 {
    if year == year_of(now) {
        used
    } else {
        0
    }
}

/// The first moment (UTC) of a calendar year.
fn year_start(year: i32) -> i64 {
    chrono::NaiveDate::from_ymd_opt(year, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map_or(0, |d| d.and_utc().timestamp())
}

/// A player's vacation columns: since, used, year.
type Columns = (Option<i64>, i64, i32);

impl Service {
    /// When a vacation begun at `since`, with `used` seconds already spent in that year, runs out.
    /// Each day counts in the year it falls in: the rest of the first year's days last until its
    /// end at most, and from the new year on its own days do.
    fn runs_out(&self, since: i64, used: i64) -> i64 {
        let end = since + (self.vacation_allowance - used).max(0);
        let next_year = year_start(year_of(since) + 1);
        if end <= next_year {
            end
        } else {
            next_year + self.vacation_allowance
        }
    }

    /// Starts (`on`) or ends a vacation for `who`.
    pub async fn vacation(&self, who: &Person, on: bool) -> Result<Vacation, ServiceError> {
        let now = self.now();
        let mut tx = self.write().await?;
        let id = self.player_id(&mut tx, who).await?;
        let (since, spent, year) = self.columns(&mut tx, id).await?;
        let used = used_this_year(spent, year, now);
        let left = self.vacation_allowance - used;
        let status = match (on, since) {
            (true, Some(since)) => {
                return Err(ServiceError::OnVacation {
                    until: self.runs_out(since, spent),
                })
            }
            (false, None) => return Err(ServiceError::NotOnVacation),
            (true, None) => {
                let until = self.runs_out(now, used);
                if left <= 0 {
                    return Err(ServiceError::NoVacationLeft {
                        days: self.vacation_days(),
                    });
                }
                sqlx::query(
                    "UPDATE players SET vacation_since = $1, vacation_used = $2, vacation_year = $3
                     WHERE id = $4",
                )
                .bind(now)
                .bind(used)
                .bind(year_of(now))
                .bind(id)
                .execute(&mut *tx)
                .await?;
                Vacation {
                    since: Some(now),
                    left,
                    until: Some(until),
                }
            }
            (false, Some(since)) => {
                self.come_back(&mut tx, id, since, now).await?;
                let (_, used, _) = self.columns(&mut tx, id).await?;
                Vacation {
                    since: None,
                    left: self.vacation_allowance - used,
                    until: None,
                }
            }
        };
        tx.commit().await?;
        Ok(status)
    }

    /// Where `who`'s vacation stands.
    pub async fn vacation_status(&self, who: &Person) -> Result<Vacation, ServiceError> {
        let now = self.now();
        let mut conn = self.pool.acquire().await?;
        let id: Option<i64> = sqlx::query_scalar("SELECT id FROM players WHERE key = $1")
            .bind(&who.key)
            .fetch_optional(&mut *conn)
            .await?;
        let (since, used, year) = match id {
            Some(id) => self.columns(&mut conn, id).await?,
            None => (None, 0, 0),
        };
        Ok(match since {
            Some(since) => {
                let until = self.runs_out(since, used);
                Vacation {
                    since: Some(since),
                    left: until - now,
                    until: Some(until),
                }
            }
            None => Vacation {
                since: None,
                left: self.vacation_allowance - used_this_year(used, year, now),
                until: None,
            },
        })
    }

    /// The vacation days a player has a year.
    pub fn vacation_days(&self) -> u32 {
        (self.vacation_allowance / DAY) as u32
    }

    async fn columns(&self, conn: &mut AnyConnection, id: i64) -> Result<Columns, ServiceError> {
        Ok(sqlx::query_as(
            "SELECT vacation_since, vacation_used, vacation_year FROM players WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut *conn)
        .await?)
    }

    /// Ends the vacations whose days have run out, each at the moment they ran out.
    pub(super) async fn end_spent_vacations(&self, now: i64) -> Result<(), ServiceError> {
        let away: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT id, vacation_since, vacation_used FROM players WHERE vacation_since IS NOT NULL",
        )
        .fetch_all(&self.pool)
        .await?;
        let spent = away
            .into_iter()
            .filter(|&(_, since, used)| self.runs_out(since, used) <= now);
        for (id, since, used) in spent {
            let mut tx = self.write().await?;
            // Still away as read (a player who came back meanwhile is left alone).
            let (still, _, _) = self.columns(&mut tx, id).await?;
            if still == Some(since) {
                let end = self.runs_out(since, used);
                self.come_back(&mut tx, id, since, end).await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }

    /// Ends player `id`'s vacation (begun at `since`) at `end`: the days are counted, and each
    /// game waiting for their move has its deadline moved on by the time it waited while they
    /// were away.
    async fn come_back(
        &self,
        conn: &mut AnyConnection,
        id: i64,
        since: i64,
        end: i64,
    ) -> Result<(), ServiceError> {
        // The days count in the year each falls in: a vacation into a new year has used that
        // year's days from its first moment (the old year's were used up by then).
        let year = year_of(end);
        let (sql, spent) = if year == year_of(since) {
            (
                "UPDATE players SET vacation_since = NULL, vacation_used = vacation_used + $1,
                    vacation_year = $2 WHERE id = $3",
                end - since,
            )
        } else {
            (
                "UPDATE players SET vacation_since = NULL, vacation_used = $1, vacation_year = $2
                 WHERE id = $3",
                end - year_start(year),
            )
        };
        sqlx::query(sql)
            .bind(spent)
            .bind(year)
            .bind(id)
            .execute(&mut *conn)
            .await?;
        let games: Vec<(i64, String, String, i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT id, variant, position, attacker, turn_started, deadline, days FROM games
             WHERE status = 'active' AND (attacker = $1 OR defender = $1)",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        for (game, variant, position, attacker, turn_started, deadline, days) in games {
            let Some(pos) =
                Variant::by_id(&variant).and_then(|v| parse_position(v, &position).ok())
            else {
                continue;
            };
            let mine = if attacker == id {
                Side::Attackers
            } else {
                Side::Defenders
            };
            if pos.turn() != mine {
                continue;
            }
            let waited = end - since.max(turn_started);
            if waited <= 0 {
                continue;
            }
            let deadline = deadline + waited;
            sqlx::query(
                "UPDATE games SET deadline = $1, remind_at = $2, reminded = 0 WHERE id = $3",
            )
            .bind(deadline)
            .bind(super::deadlines::remind_at(deadline, days as u32, None))
            .bind(game)
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }
}

impl Service {
    /// Whether `who` wants their turns and reminders by direct message.
    pub async fn set_direct_messages(&self, who: &Person, on: bool) -> Result<(), ServiceError> {
        let mut tx = self.write().await?;
        let id = self.player_id(&mut tx, who).await?;
        sqlx::query("UPDATE players SET dm = $1 WHERE id = $2")
            .bind(super::rows::Flag(on))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether `who` has asked for direct messages.
    pub async fn wants_direct_messages(&self, who: &Person) -> Result<bool, ServiceError> {
        let on: Option<super::rows::Flag> =
            sqlx::query_scalar("SELECT dm FROM players WHERE key = $1")
                .bind(&who.key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(on.is_some_and(bool::from))
    }
}

//! Deadlines: the reminder a day before (half a day in one-day games), the loss on time, and
//! challenges that lapse. The sweeper runs these periodically and hands the notices to the front
//! end; every effect is written with its notice in one transaction.

use sqlx::{AnyConnection, FromRow};

use super::finish::Ending;
use super::load::Loaded;
use super::rows::{GameRow, GAME_SELECT};
use super::{Delivery, News, Notice, Service, ServiceError, DAY};
use crate::rules::parse_position;

/// The reminder time: 24 hours before the deadline, or 12 for one-day games; in a team game, a
/// quarter of its window of votes before the window closes.
pub(super) fn remind_at(deadline: i64, days: u32, vote_window: Option<i64>) -> i64 {
    deadline
        - match vote_window {
            Some(window) => window / 4,
            None if days == 1 => DAY / 2,
            None => DAY,
        }
}

impl Service {
    /// Sends reminders, ends games whose time ran out, and lapses old challenges. Every effect is
    /// written with its notice in one transaction, so after a restart nothing is missed or sent
    /// twice. Returns the notices it wrote.
    pub async fn sweep(&self) -> Result<Vec<Notice>, ServiceError> {
        let now = self.now();
        let mut notices = Vec::new();
        // Vacations whose days ran out end first: their clocks run again from that moment.
        self.end_spent_vacations(now).await?;
        let lapsed = self.lapse_tournaments().await?;
        if lapsed > 0 {
            tracing::info!(lapsed, "open tournaments never started were called off");
        }
        // A team game's window closes instead of its side losing: its turn is played, or it
        // opens again (in a transaction of its own, after Discord is asked about the voters).
        // Windows close after the other games' deadlines, so that asking about their voters
        // delays no other game's loss on time (and before the reminders, so that a window
        // closing now is not reminded of).
        let due: Vec<(i64, Option<i64>)> = sqlx::query_as(
            "SELECT id, vote_window FROM games WHERE status = 'active' AND deadline <= $1",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        let (windows, due): (Vec<_>, Vec<_>) = due.into_iter().partition(|(_, w)| w.is_some());
        for (id, _) in due {
            let mut tx = self.write().await?;
            let mut loaded = match self.load(&mut tx, id).await {
                Ok(l) => l,
                Err(e) => {
                    // One damaged game must not stop the others' deadlines.
                    tracing::warn!(game = id, error = %e, "timeout skipped");
                    tx.commit().await?;
                    continue;
                }
            };
            // The player to move loses, unless they are on vacation.
            if loaded.overdue(now) {
                notices.extend(self.time_out(&mut tx, &mut loaded, now).await?);
            }
            tx.commit().await?;
        }
        notices.extend(self.close_windows(windows.iter().map(|(id, _)| *id)).await);
        // A reminder that would fall in its player's quiet hours comes before they begin (quiet
        // hours last less than a day): where a player keeps quiet hours, those due within a day
        // are read too, each sent at its time.
        let reminders = sqlx::query(&format!(
            "{GAME_SELECT} WHERE g.status = 'active' AND g.reminded = 0
               AND (g.remind_at <= $1
                    OR (g.remind_at <= $2
                        AND (pa.quiet_from IS NOT NULL OR pd.quiet_from IS NOT NULL)))"
        ))
        .bind(now)
        .bind(now + DAY)
        .fetch_all(&self.pool)
        .await?;
        for r in &reminders {
            let Ok(row) = GameRow::from_row(r) else {
                continue;
            };
            let Ok(pos) = parse_position(row.variant.0, &row.position) else {
                continue;
            };
            if row.away(pos.turn()) {
                // On vacation: reminded when the clock runs again.
                continue;
            }
            let when = row
                .quiet(pos.turn())
                .map_or(row.remind_at, |q| q.reminder(row.remind_at));
            if when > now {
                continue;
            }
            let mut tx = self.write().await?;
            // Only if the turn it reminds of is still the one stored: a move since the list was
            // read restarted the clock.
            let done = sqlx::query(
                "UPDATE games SET reminded = 1
                 WHERE id = $1 AND reminded = 0 AND status = 'active' AND remind_at = $2 AND move_count = $3",
            )
            .bind(row.id)
            .bind(row.remind_at)
            .bind(row.move_count)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                let to = row.player(pos.turn());
                notices.push(self.notice(&mut tx, row.id, &News::Reminder { to }).await?);
            }
            tx.commit().await?;
        }
        sqlx::query(
            "UPDATE challenges SET status = 'expired' WHERE status = 'open' AND expires_at <= $1",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        self.prune().await?;
        Ok(notices)
    }

    /// Closes the team games' windows whose time is up, one after another: each window's
    /// notice, if it wrote one (a window another process closed writes none).
    async fn close_windows(&self, games: impl Iterator<Item = i64>) -> Vec<Notice> {
        let mut notices = Vec::new();
        for id in games {
            match self.close_window(id, None).await {
                Ok(notice) => notices.extend(notice),
                Err(e) => tracing::warn!(game = id, error = %e, "a window did not close"),
            }
        }
        notices
    }

    /// Ends a game whose time ran out: the side to move loses. Returns the notice it wrote, or
    /// nothing when the game had already ended or been moved on.
    pub(super) async fn time_out(
        &self,
        tx: &mut AnyConnection,
        loaded: &mut Loaded,
        now: i64,
    ) -> Result<Option<Notice>, ServiceError> {
        let late = loaded.game.position().turn();
        if loaded.game.lose_on_time(late).is_err() {
            return Ok(None);
        }
        let late = loaded.row.player(late);
        let (_, notice) = self
            .finish(
                tx,
                loaded,
                Ending::OnTime { now },
                Some(&News::Timeout { late }),
            )
            .await?;
        Ok(notice)
    }

    /// Runs [`Service::sweep`] every `every` until `stop` turns true, handing each notice due to
    /// `deliver`, which says how it went ([`Delivery`], or whether it was delivered): a failed one
    /// is offered again later, less and less often, so a restart or an outage loses nothing and
    /// a channel that is gone is not knocked on forever.
    pub fn spawn_sweeper<F, Fut>(
        &self,
        every: std::time::Duration,
        mut stop: tokio::sync::watch::Receiver<bool>,
        deliver: F,
    ) -> tokio::task::JoinHandle<()>
    where
        F: Fn(Notice) -> Fut + Send + 'static,
        Fut: std::future::Future + Send,
        Fut::Output: Into<Delivery>,
    {
        let service = self.clone();
        tokio::spawn(async move {
            let mut rest = std::time::Duration::ZERO;
            while super::rest_or_stop(rest, &mut stop).await {
                rest = every;
                if let Err(e) = service.sweep().await {
                    tracing::warn!(error = %e, "sweep failed; trying again next round");
                }
                for notice in service.claim_notices().await.unwrap_or_default() {
                    let id = notice.id;
                    let how = deliver(notice).await.into();
                    if let Err(e) = service.tried(id, how).await {
                        tracing::warn!(notice = id, error = %e, "could not record a delivery");
                    }
                }
            }
        })
    }
}

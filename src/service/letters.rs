//! A player's hours and the letters they bring: their time zone, quiet hours (no ping and no
//! direct message then; what was held is told in one message when they end), and a daily digest
//! of the games that wait for them. Each letter is claimed before it is sent, so that several
//! processes on one database send it once.

use sqlx::AnyConnection;

use super::quiet::{next_at_hour, read_hours, zone, zone_or_utc, Quiet};
use super::rows::Flag;
use super::{GameSummary, Person, Service, ServiceError};

/// A player's settings for being told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hours {
    /// Turns and reminders by direct message.
    pub dm: bool,
    /// Their time zone (UTC when none).
    pub zone: Option<String>,
    /// Quiet hours, from and to, in their zone.
    pub quiet: Option<(u8, u8)>,
    /// The hour of their daily digest, in their zone.
    pub digest: Option<u8>,
}

/// What a `/notify` changes: each setting given, the others left as they are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HoursChange {
    pub dm: Option<bool>,
    pub digest: Option<bool>,
    /// The digest's hour (0 to 23); given alone, it turns the digest on.
    pub hour: Option<u8>,
    /// Quiet hours as `HH-HH`, or `off`.
    pub quiet: Option<String>,
    pub zone: Option<String>,
}

/// The hour of a digest when none is asked for.
pub const DEFAULT_DIGEST_HOUR: u8 = 8;

/// A day's digest for a player: the games where it is their move, the least time left first,
/// with where each is played.
#[derive(Clone, Debug)]
pub struct Digest {
    pub to: Person,
    pub games: Vec<(GameSummary, Option<String>)>,
}

/// What quiet hours held back from a player, told when they end: each game, whether a reminder
/// was among it, and where it is played.
#[derive(Clone, Debug)]
pub struct Held {
    pub to: Person,
    pub games: Vec<(i64, bool, Option<String>)>,
}

/// The most letters one round claims.
const LETTERS_A_ROUND: i64 = 50;

type HoursRow = (Flag, Option<String>, Option<i64>, Option<i64>, Option<i64>);
/// A player with something held: id, key, name, zone, quiet from and to.
type HeldFor = (
    i64,
    String,
    String,
    Option<String>,
    Option<i64>,
    Option<i64>,
);
/// A held row: its id, the game, whether a reminder, the game's thread and channel.
type HeldRow = (i64, i64, Flag, Option<String>, Option<String>);

impl Service {
    /// `/notify`: changes what is given and says where every setting stands.
    pub async fn notify(&self, who: &Person, change: &HoursChange) -> Result<Hours, ServiceError> {
        if let Some(name) = &change.zone {
            if zone(name).is_none() {
                return Err(ServiceError::UnknownZone(name.clone()));
            }
        }
        let quiet = match change.quiet.as_deref().map(str::trim) {
            None => None,
            Some("off") => Some(None),
            Some(text) => {
                Some(Some(read_hours(text).ok_or_else(|| {
                    ServiceError::BadQuietHours(text.to_string())
                })?))
            }
        };
        let mut tx = self.write().await?;
        let id = self.player_id(&mut tx, who).await?;
        let (dm, old_zone, from, to, hour): HoursRow = sqlx::query_as(
            "SELECT dm, zone, quiet_from, quiet_to, digest_hour FROM players WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let mut hours = Hours {
            dm: dm.0,
            zone: old_zone,
            quiet: from.zip(to).map(|(f, t)| (f as u8, t as u8)),
            digest: hour.map(|h| h as u8),
        };
        if let Some(dm) = change.dm {
            hours.dm = dm;
        }
        if let Some(name) = &change.zone {
            hours.zone = Some(name.trim().to_string());
        }
        if let Some(quiet) = quiet {
            hours.quiet = quiet;
        }
        match (change.digest, change.hour) {
            (Some(false), _) => hours.digest = None,
            (_, Some(h)) => hours.digest = Some(h),
            (Some(true), None) => hours.digest = hours.digest.or(Some(DEFAULT_DIGEST_HOUR)),
            (None, None) => {}
        }
        let tz = zone_or_utc(hours.zone.as_deref());
        let due = hours.digest.map(|h| next_at_hour(tz, h, self.now()));
        sqlx::query(
            "UPDATE players SET dm = $1, zone = $2, quiet_from = $3, quiet_to = $4,
                digest_hour = $5, digest_due = $6
             WHERE id = $7",
        )
        .bind(Flag(hours.dm))
        .bind(&hours.zone)
        .bind(hours.quiet.map(|(f, _)| i64::from(f)))
        .bind(hours.quiet.map(|(_, t)| i64::from(t)))
        .bind(hours.digest.map(i64::from))
        .bind(due)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(hours)
    }

    /// Keeps what quiet hours held from `who` in `game` (their turn, or a reminder), for the
    /// message that tells it when they end.
    pub async fn hold(&self, who: &Person, game: i64, reminder: bool) -> Result<(), ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self.player_id(&mut conn, who).await?;
        sqlx::query(
            "INSERT INTO held (player, game_id, reminder, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(game)
        .bind(Flag(reminder))
        .bind(self.now())
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// The digests due now, each claimed (its next one set a day on) so that no other process
    /// sends it. A player with no game waiting for them gets none that day.
    pub async fn due_digests(&self) -> Result<Vec<Digest>, ServiceError> {
        let now = self.now();
        let due: Vec<(i64, String, String, Option<String>, i64, i64)> = sqlx::query_as(
            "SELECT id, key, name, zone, digest_hour, digest_due FROM players
             WHERE digest_due IS NOT NULL AND digest_due <= $1 AND digest_hour IS NOT NULL
             ORDER BY digest_due LIMIT $2",
        )
        .bind(now)
        .bind(LETTERS_A_ROUND)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for (id, key, name, zone, hour, was) in due {
            let next = next_at_hour(zone_or_utc(zone.as_deref()), hour as u8, now);
            let claimed =
                sqlx::query("UPDATE players SET digest_due = $1 WHERE id = $2 AND digest_due = $3")
                    .bind(next)
                    .bind(id)
                    .bind(was)
                    .execute(&self.pool)
                    .await?;
            if claimed.rows_affected() != 1 {
                continue;
            }
            let to = Person::new(key, name);
            let mut conn = self.pool.acquire().await?;
            let games: Vec<(GameSummary, Option<String>)> = self
                .summaries(&mut conn, &to)
                .await?
                .into_iter()
                .filter(|(_, g)| g.your_turn)
                .map(|([channel, thread], g)| (g, thread.or(channel)))
                .collect();
            if !games.is_empty() {
                out.push(Digest { to, games });
            }
        }
        Ok(out)
    }

    /// What quiet hours held, for up to [`LETTERS_A_ROUND`] players whose quiet hours are over
    /// now: claimed by taking it off the list, so that one process tells it. The players with
    /// held news are read a page at a time, those still quiet passed over, until that many are
    /// told or none is left: however many are quiet, one whose hours ended is not kept waiting
    /// behind them.
    pub async fn quiet_ended(&self) -> Result<Vec<Held>, ServiceError> {
        let now = self.now();
        let mut out = Vec::new();
        let mut after = 0i64;
        while out.len() < LETTERS_A_ROUND as usize {
            let page: Vec<HeldFor> = sqlx::query_as(
                "SELECT DISTINCT p.id, p.key, p.name, p.zone, p.quiet_from, p.quiet_to
                     FROM held h JOIN players p ON p.id = h.player
                     WHERE p.id > $1 ORDER BY p.id LIMIT $2",
            )
            .bind(after)
            .bind(LETTERS_A_ROUND)
            .fetch_all(&self.pool)
            .await?;
            let Some(last) = page.last() else { break };
            after = last.0;
            for (id, key, name, zone, from, to) in page {
                if out.len() >= LETTERS_A_ROUND as usize {
                    break;
                }
                if Quiet::stored(zone.as_deref(), from, to).is_some_and(|q| q.contains(now)) {
                    continue;
                }
                let mut tx = self.write().await?;
                let games = self.take_held(&mut tx, id).await?;
                tx.commit().await?;
                if !games.is_empty() {
                    out.push(Held {
                        to: Person::new(key, name),
                        games,
                    });
                }
            }
        }
        Ok(out)
    }

    /// Takes what was held for player `id` off the list: only what this call deleted is its own.
    async fn take_held(
        &self,
        tx: &mut AnyConnection,
        id: i64,
    ) -> Result<Vec<(i64, bool, Option<String>)>, ServiceError> {
        let rows: Vec<HeldRow> = sqlx::query_as(
            "SELECT h.id, h.game_id, h.reminder, g.thread, g.channel
             FROM held h JOIN games g ON g.id = h.game_id WHERE h.player = $1 ORDER BY h.id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let mut games: Vec<(i64, bool, Option<String>)> = Vec::new();
        for (row, game, reminder, thread, channel) in rows {
            let gone = sqlx::query("DELETE FROM held WHERE id = $1")
                .bind(row)
                .execute(&mut *tx)
                .await?;
            if gone.rows_affected() != 1 {
                continue;
            }
            match games.iter_mut().find(|(g, _, _)| *g == game) {
                Some(seen) => seen.1 |= reminder.0,
                None => games.push((game, reminder.0, thread.or(channel))),
            }
        }
        Ok(games)
    }
}

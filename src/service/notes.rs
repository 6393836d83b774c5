//! A player's private note on a game, and more time given to the opponent.
//!
//! A note is seen by its author alone: in `/note`, and in their own record of the game. It stays
//! after the game ends. More time is a kindness: one to seven days added to the opponent's
//! current move, once a turn, said in the game's thread.

use super::{GameNews, News, Person, Service, ServiceError, DAY};

/// The most characters a note holds.
pub const MAX_NOTE_CHARS: usize = 1000;
/// The most days of more time given at once.
pub const MAX_MORE_TIME_DAYS: u32 = 7;

/// A player's note on a game, as it stands after a `/note`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub game: i64,
    /// None when the player keeps no note on the game.
    pub text: Option<String>,
    /// What the command did.
    pub done: NoteDone,
}

/// What a `/note` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteDone {
    Shown,
    Kept,
    Cleared,
}

impl Service {
    /// `/note`: keeps `text` as `who`'s note on the game they mean (over the one kept before),
    /// clears it, or shows it. A finished game is named with its number.
    pub async fn note(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        text: Option<&str>,
        clear: bool,
    ) -> Result<Note, ServiceError> {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        if let Some(text) = text {
            let chars = text.chars().count();
            if chars > MAX_NOTE_CHARS {
                return Err(ServiceError::NoteTooLong {
                    chars,
                    max: MAX_NOTE_CHARS,
                });
            }
        }
        let mut tx = self.write().await?;
        let game = self.resolve_game(&mut tx, who, id, channel, false).await?;
        let loaded = self.load(&mut tx, game).await?;
        let player = loaded.row.player_ids()[loaded.seat_of(who)?];
        let done = if clear {
            sqlx::query("DELETE FROM notes WHERE game_id = $1 AND player = $2")
                .bind(game)
                .bind(player)
                .execute(&mut *tx)
                .await?;
            NoteDone::Cleared
        } else if let Some(text) = text {
            // One statement, so two writers at once leave one note, the later one.
            sqlx::query(
                "INSERT INTO notes (game_id, player, text, updated_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, player) DO UPDATE SET text = $5, updated_at = $6",
            )
            .bind(game)
            .bind(player)
            .bind(text)
            .bind(self.now())
            .bind(text)
            .bind(self.now())
            .execute(&mut *tx)
            .await?;
            NoteDone::Kept
        } else {
            NoteDone::Shown
        };
        let text = self.own_note(&mut tx, who, game).await?;
        tx.commit().await?;
        Ok(Note { game, text, done })
    }

    /// `who`'s note on game `game`, if they keep one.
    pub(super) async fn own_note(
        &self,
        conn: &mut sqlx::AnyConnection,
        who: &Person,
        game: i64,
    ) -> Result<Option<String>, ServiceError> {
        let text: Option<String> = sqlx::query_scalar(
            "SELECT n.text FROM notes n JOIN players p ON p.id = n.player
             WHERE n.game_id = $1 AND p.key = $2",
        )
        .bind(game)
        .bind(&who.key)
        .fetch_optional(conn)
        .await?;
        Ok(text)
    }

    /// `/moretime`: gives `who`'s opponent `days` more on their current move, once a turn.
    pub async fn more_time(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        days: u32,
    ) -> Result<GameNews, ServiceError> {
        if !(1..=MAX_MORE_TIME_DAYS).contains(&days) {
            return Err(ServiceError::BadOption {
                option: "days".into(),
                given: days.to_string(),
                expected: format!("1 to {MAX_MORE_TIME_DAYS} days"),
            });
        }
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, false).await?;
        let game = loaded.row.id;
        loaded.ensure_active()?;
        if loaded.row.bot().is_some() {
            return Err(ServiceError::MoreTimeForBot(game));
        }
        if loaded.game.position().turn() == seat {
            return Err(ServiceError::MoreTimeOnYourMove(game));
        }
        let count = loaded.row.move_count;
        if loaded.row.more_time_at == Some(count) {
            return Err(ServiceError::MoreTimeGiven(game));
        }
        let deadline = loaded.row.deadline + i64::from(days) * DAY;
        // Guarded by the move count and the mark, so that a move or another gift meanwhile wins.
        let done = sqlx::query(
            "UPDATE games SET deadline = $1, remind_at = $2, reminded = 0, more_time_at = $3,
                updated_at = $4
             WHERE id = $5 AND move_count = $6 AND status = 'active'
               AND (more_time_at IS NULL OR more_time_at <> $7)",
        )
        .bind(deadline)
        .bind(loaded.row.remind_at(deadline))
        .bind(count)
        .bind(self.now())
        .bind(game)
        .bind(count)
        .bind(count)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(ServiceError::PositionChanged(game));
        }
        tx.commit().await?;
        loaded.row.deadline = deadline;
        loaded.row.more_time_at = Some(count);
        Ok(GameNews {
            news: News::MoreTime {
                by: loaded.row.player(seat),
                days,
            },
            view: loaded.view(),
        })
    }
}

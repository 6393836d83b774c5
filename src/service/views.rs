//! Looking at games: a game by id, a player's games, the board, the record, a GIF of the whole
//! game, and a move list from elsewhere replayed and shown (nothing stored).

use super::load::Loaded;
use super::{text, Exported, GameSummary, GameView, Imported, Person, Service, ServiceError};
use crate::notation::write_record;
use crate::render::Scene;
use crate::rules::{BySide, Variant};

impl Service {
    /// A game by id, as anyone sees it (the front end uses it to post notices).
    pub async fn game(&self, id: i64) -> Result<GameView, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        Ok(self.load(&mut conn, id).await?.view())
    }

    /// The picture of a game as it stands, by id (for news delivered later).
    pub async fn game_picture(&self, id: i64) -> Result<Vec<u8>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let loaded = self.load(&mut conn, id).await?;
        drop(conn);
        let theme = loaded.row.thread_theme();
        self.picture(&loaded, false, theme).await
    }

    /// Records the thread of the place `view` is shown in (the game's, or in a game between two
    /// servers the second server's), or that it has none any more.
    pub async fn set_thread_of(
        &self,
        view: &GameView,
        thread: Option<&str>,
    ) -> Result<(), ServiceError> {
        match view
            .second
            .as_ref()
            .filter(|s| Some(s.side) == view.seen_from)
        {
            Some(second) => self.set_second_thread(view.id, second.side, thread).await,
            None => self.set_thread(view.id, thread).await,
        }
    }

    /// Records the thread a game is played in, or that it has none any more.
    pub async fn set_thread(&self, id: i64, thread: Option<&str>) -> Result<(), ServiceError> {
        let done = sqlx::query("UPDATE games SET thread = $1 WHERE id = $2")
            .bind(thread)
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(ServiceError::NoSuchGame(id));
        }
        Ok(())
    }

    /// A player's active games, theirs to move first.
    pub async fn games(&self, who: &Person) -> Result<Vec<GameSummary>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        Ok(self
            .summaries(&mut conn, who)
            .await?
            .into_iter()
            .map(|(_, s)| s)
            .collect())
    }

    /// The game `who` means, loaded.
    async fn meant(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Loaded, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self
            .resolve_game(&mut conn, who, id, channel, false)
            .await?;
        self.load(&mut conn, id).await
    }

    /// A game's state and picture.
    pub async fn board(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        flip: bool,
    ) -> Result<(GameView, Vec<u8>), ServiceError> {
        let loaded = self.meant(who, id, channel).await?;
        let theme = self.theme_for(who).await?;
        let png = self.picture(&loaded, flip, theme).await?;
        Ok((loaded.view(), png))
    }

    /// The game record, for export.
    pub async fn record(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<String, ServiceError> {
        let loaded = self.meant(who, id, channel).await?;
        Ok(record_text(&loaded))
    }

    /// A game to take away, loaded once: where it stands, its record, and the whole game as an
    /// animated GIF unless record and GIF together would pass `max_bytes` (the upload limit where
    /// it is shown).
    pub async fn export(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        max_bytes: usize,
    ) -> Result<Exported, ServiceError> {
        let loaded = self.meant(who, id, channel).await?;
        let note = {
            let mut conn = self.pool.acquire().await?;
            self.own_note(&mut conn, who, loaded.row.id).await?
        };
        let mut record = record_text(&loaded);
        if let Some(note) = &note {
            // Comment lines, which a record's reader passes over: the record still replays.
            record.push_str(&format!("\n; Note of {}:\n", one_line(&who.name)));
            for line in note.lines() {
                record.push_str(&format!("; {line}\n"));
            }
        }
        let room = max_bytes.saturating_sub(record.len());
        let view = loaded.view();
        let BySide {
            attackers: a,
            defenders: d,
        } = loaded.row.players();
        let game = loaded.game;
        let theme = self.theme_for(who).await?;
        let gif = self
            .cpu(move |renderer| {
                renderer
                    .gif_within(&game, theme, false, Some([a.name, d.name]), room)
                    .ok()
            })
            .await?;
        Ok(Exported {
            view,
            record,
            gif,
            private: note.is_some(),
        })
    }

    /// A variant's start position as a picture, in the theme of `who`.
    pub async fn start_picture(
        &self,
        who: &Person,
        v: &'static Variant,
    ) -> Result<Vec<u8>, ServiceError> {
        let theme = self.theme_for(who).await?;
        self.cpu(move |renderer| {
            let game = crate::rules::Game::new(v);
            renderer.png(&Scene::game(&game), theme)
        })
        .await
    }

    /// Reads a game written as a plain move list (aagenielsen.dk's form), checking every move and
    /// capture: its record, a GIF of it (unless it would pass `max_bytes`), the final board and a
    /// sentence on where it stands. Nothing is stored. A list of more than [`MAX_IMPORT_MOVES`]
    /// moves is refused before any work. The pictures are in the theme of `who`.
    pub async fn import(
        &self,
        who: &Person,
        v: &'static Variant,
        moves: &str,
        max_bytes: usize,
    ) -> Result<Imported, ServiceError> {
        let count = moves.split_whitespace().count();
        if count > MAX_IMPORT_MOVES || moves.len() > MAX_IMPORT_BYTES {
            return Err(ServiceError::ImportTooLong {
                moves: count,
                max: MAX_IMPORT_MOVES,
            });
        }
        let moves = moves.to_string();
        let theme = self.theme_for(who).await?;
        self.cpu(move |renderer| {
            let game = crate::notation::import_moves(v, &moves).map_err(ServiceError::BadImport)?;
            let summary =
                text::imported(v, game.move_count(), game.outcome(), game.position().turn());
            Ok(Imported {
                record: write_record(&game, &[]),
                gif: renderer
                    .gif_within(&game, theme, false, None, max_bytes)
                    .ok(),
                png: renderer.png(&Scene::game(&game), theme),
                summary,
            })
        })
        .await?
    }
}

/// A game's record with its number and players as tags.
/// A name on one line of a record's comment.
fn one_line(name: &str) -> String {
    name.chars().filter(|c| !c.is_control()).collect()
}

fn record_text(loaded: &Loaded) -> String {
    let BySide {
        attackers: a,
        defenders: d,
    } = loaded.row.players();
    let game = loaded.row.id.to_string();
    let tags = [
        ("Game", game.as_str()),
        ("Attackers", a.name.as_str()),
        ("Defenders", d.name.as_str()),
    ];
    write_record(&loaded.game, &tags)
}

/// The most moves an import takes (an aagenielsen.dk game rarely passes 300).
pub const MAX_IMPORT_MOVES: usize = 1000;
/// The most text an import reads: a thousand moves with their captures.
pub const MAX_IMPORT_BYTES: usize = 16 * 1024;

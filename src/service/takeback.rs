//! Takebacks: a player asks to undo their last turn (and the opponent's reply, when one came);
//! the opponent agrees or declines. Against the bot the answer is yes at once. The moves table
//! stays the truth: the turns taken back are deleted from it and the game replays from what is
//! left. Never after the game ended, never into the moves of an imported record.

use sqlx::AnyConnection;

use super::load::{play_moves, Loaded};
use super::rows::GameStatus;
use super::{GameNews, News, Person, Played, Service, ServiceError};
use crate::rules::write_position;

/// What asking for a takeback did.
#[derive(Debug)]
pub enum Takeback {
    /// The opponent is asked; the news is the question to post.
    Asked(GameNews),
    /// Taken back at once (the bot agrees): the game as it is now, with its picture.
    TakenBack(Played),
}

impl Service {
    /// Asks to take back `who`'s last turn in the game they mean, or, when their opponent has
    /// asked for one, agrees to it.
    pub async fn takeback(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Takeback, ServiceError> {
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, false).await?;
        loaded.ensure_active()?;
        let game = loaded.row.id;
        let me = loaded.row.player_ids()[seat];
        match loaded.row.takeback_by {
            Some(by) if by == me => return Err(ServiceError::TakebackAsked(game)),
            None if loaded.row.takeback_declined_by == Some(me)
                && loaded.row.takeback_declined_at == Some(loaded.row.move_count) =>
            {
                return Err(ServiceError::TakebackDeclined(game))
            }
            Some(asker) => {
                let played = self.agree(tx, loaded, asker, who).await?;
                return Ok(Takeback::TakenBack(played));
            }
            None => {}
        }
        let (cut, turn, turns) = self
            .last_turn(&mut tx, &loaded, me)
            .await?
            .ok_or(ServiceError::NothingToTakeBack(game))?;
        if loaded.row.bot().is_some() {
            self.take_back(&mut tx, &mut loaded, cut).await?;
            tx.commit().await?;
            let png = self
                .picture(&loaded, false, loaded.row.thread_theme())
                .await?;
            let bot = loaded.row.player(seat.other());
            return Ok(Takeback::TakenBack(Played {
                view: loaded.view(),
                news: News::TakebackAccepted {
                    by: bot,
                    turns,
                    turn,
                },
                png,
                forecast: Vec::new(),
            }));
        }
        sqlx::query("UPDATE games SET takeback_by = $1 WHERE id = $2")
            .bind(me)
            .bind(game)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        loaded.row.takeback_by = Some(me);
        Ok(Takeback::Asked(GameNews {
            view: loaded.view(),
            news: News::TakebackAsked {
                by: who.clone(),
                turn,
            },
        }))
    }

    /// Agrees to the opponent's takeback: their last turn (and any reply since) is undone.
    pub async fn accept_takeback(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Played, ServiceError> {
        let (tx, loaded, asker) = self.open_takeback(who, id, channel).await?;
        self.agree(tx, loaded, asker, who).await
    }

    /// Takes back the last turn of `asker` (a player id), as `who` agreed.
    async fn agree(
        &self,
        mut tx: sqlx::Transaction<'static, sqlx::Any>,
        mut loaded: Loaded,
        asker: i64,
        who: &Person,
    ) -> Result<Played, ServiceError> {
        let (cut, turn, turns) = self
            .last_turn(&mut tx, &loaded, asker)
            .await?
            .ok_or(ServiceError::NothingToTakeBack(loaded.row.id))?;
        self.take_back(&mut tx, &mut loaded, cut).await?;
        tx.commit().await?;
        let png = self
            .picture(&loaded, false, loaded.row.thread_theme())
            .await?;
        Ok(Played {
            view: loaded.view(),
            news: News::TakebackAccepted {
                by: who.clone(),
                turns,
                turn,
            },
            png,
            forecast: Vec::new(),
        })
    }

    /// Declines the opponent's takeback.
    pub async fn decline_takeback(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameNews, ServiceError> {
        let (mut tx, mut loaded, asker) = self.open_takeback(who, id, channel).await?;
        // The asker may not ask again for this turn (until a move changes the count).
        sqlx::query(
            "UPDATE games SET takeback_by = NULL, takeback_declined_by = $1,
                takeback_declined_at = move_count
             WHERE id = $2",
        )
        .bind(asker)
        .bind(loaded.row.id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        loaded.row.takeback_by = None;
        loaded.row.takeback_declined_by = Some(asker);
        loaded.row.takeback_declined_at = Some(loaded.row.move_count);
        Ok(GameNews {
            view: loaded.view(),
            news: News::TakebackDeclined { by: who.clone() },
        })
    }

    /// The game `who` means, going on, with a takeback asked by their opponent (whose player id
    /// comes back).
    async fn open_takeback(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(sqlx::Transaction<'static, sqlx::Any>, Loaded, i64), ServiceError> {
        let (tx, loaded, me) = self.open_active(who, id, channel).await?;
        match loaded.row.takeback_by {
            Some(by) if by != me => Ok((tx, loaded, by)),
            _ => Err(ServiceError::NoTakeback(loaded.row.id)),
        }
    }

    /// Where player `me`'s last turn begins (its first ply) and its stored steps: the turns after
    /// it (the opponent's reply) go too. `None` when they have no turn that may be taken back.
    async fn last_turn(
        &self,
        conn: &mut AnyConnection,
        loaded: &Loaded,
        me: i64,
    ) -> Result<Option<(i64, String, u8)>, ServiceError> {
        let moves: Vec<(i64, String, i64)> = sqlx::query_as(
            "SELECT ply, text, player FROM moves WHERE game_id = $1 ORDER BY ply DESC",
        )
        .bind(loaded.row.id)
        .fetch_all(&mut *conn)
        .await?;
        let mine: Vec<&(i64, String, i64)> = moves
            .iter()
            .skip_while(|m| m.2 != me)
            .take_while(|m| m.2 == me)
            .collect();
        // Imported moves are the record the game began from: never taken back.
        let Some(first) = mine.last().filter(|m| m.0 >= loaded.row.imported) else {
            return Ok(None);
        };
        // The opponent's reply after that turn goes with it.
        let replied = moves.first().is_some_and(|m| m.2 != me);
        let turns = 1 + u8::from(replied);
        // The turn as the record writes it, with its number (`1... f8-g8`).
        let index = loaded.game.turns().len().saturating_sub(usize::from(turns));
        let turn = crate::notation::numbered_turn(&loaded.game, index).unwrap_or_else(|| {
            let steps: Vec<&str> = mine.iter().rev().map(|m| m.1.as_str()).collect();
            steps.join(" ")
        });
        Ok(Some((first.0, turn, turns)))
    }

    /// Deletes the steps from ply `cut` on and stores the game as the rest replays: the player
    /// to move has their full time again.
    async fn take_back(
        &self,
        conn: &mut AnyConnection,
        loaded: &mut Loaded,
        cut: i64,
    ) -> Result<(), ServiceError> {
        let id = loaded.row.id;
        let now = self.now();
        // Forecasts were made for the game as it stood: a takeback ends them all.
        self.end_forecasts(conn, loaded).await?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(id)
            .bind(cut)
            .execute(&mut *conn)
            .await?;
        let left: Vec<String> =
            sqlx::query_scalar("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(&mut *conn)
                .await?;
        let game = play_moves(&loaded.row, &left).map_err(ServiceError::Corrupt)?;
        let position = write_position(game.position());
        let deadline = now + loaded.row.turn_length();
        let done = sqlx::query(
            "UPDATE games SET position = $1, move_count = $2, turn_started = $3, deadline = $4,
                remind_at = $5, reminded = 0, draw_offer = NULL, takeback_by = NULL,
                takeback_declined_by = NULL, updated_at = $6
             WHERE id = $7 AND move_count = $8 AND status = 'active'",
        )
        .bind(&position)
        .bind(left.len() as i64)
        .bind(now)
        .bind(deadline)
        .bind(loaded.row.remind_at(deadline))
        .bind(now)
        .bind(id)
        .bind(loaded.row.move_count)
        .execute(&mut *conn)
        .await?;
        if done.rows_affected() != 1 {
            return Err(ServiceError::PositionChanged(id));
        }
        loaded.game = game;
        loaded.row.position = position;
        loaded.row.move_count = left.len() as i64;
        loaded.row.deadline = deadline;
        loaded.row.draw_offer = None;
        loaded.row.takeback_by = None;
        loaded.row.status = GameStatus::Active;
        Ok(())
    }
}

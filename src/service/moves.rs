//! Moves: a move written as text, the end of a berserk chain, and the legal moves a player may
//! choose from. Each is checked by the rules core and stored with the game in one transaction.

use super::finish::Ending;
use super::load::Loaded;
use super::{News, Person, Played, Service, ServiceError};
use crate::notation::{canonical, read_move};
use crate::rules::{write_position, Game, Side};

/// What a turn's step stores: a move in canonical text, or the end of a chain.
enum Step {
    Move(String),
    End,
}

impl Service {
    /// Plays a move written as text.
    pub async fn play(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        text: &str,
    ) -> Result<Played, ServiceError> {
        self.act(who, id, channel, |game| {
            let (m, _) = read_move(game.position(), text)?;
            let written = canonical(game.position(), m);
            game.play(m)?;
            Ok(Step::Move(written))
        })
        .await
    }

    /// Ends an open berserk chain.
    pub async fn end_turn(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Played, ServiceError> {
        self.act(who, id, channel, |game| {
            game.end_turn()?;
            Ok(Step::End)
        })
        .await
    }

    /// The moves of `legal_moves` that start on the square `from` (all of them when none is
    /// given). A square that is not one, or that has none of the player's pieces that can
    /// move, is refused with the reason.
    pub async fn legal_moves_from(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        from: Option<&str>,
    ) -> Result<(i64, Vec<String>), ServiceError> {
        let (id, moves) = self.legal_moves(who, id, channel).await?;
        let Some(text) = from else {
            return Ok((id, moves));
        };
        let square: crate::rules::Square = text.trim().parse().map_err(|_| {
            let shown = text.chars().filter(char::is_ascii_alphanumeric).take(8);
            ServiceError::NoMovesFrom(shown.collect())
        })?;
        let name = square.to_string();
        let mine: Vec<String> = moves
            .into_iter()
            .filter(|m| {
                m.strip_prefix(&name)
                    .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
            })
            .collect();
        if mine.is_empty() {
            return Err(ServiceError::NoMovesFrom(name));
        }
        Ok((id, mine))
    }

    /// The legal moves, in canonical form, of the game `who` means when it is their move.
    pub async fn legal_moves(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(i64, Vec<String>), ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self.resolve_game(&mut conn, who, id, channel, true).await?;
        let loaded = self.load(&mut conn, id).await?;
        let seat = loaded.seat_of(who)?;
        loaded.ensure_active()?;
        loaded.ensure_turn(seat)?;
        Ok((id, loaded.canonical_moves()))
    }

    /// Loads the game, checks that it is `who`'s move, applies `step`, and stores the result, all
    /// in one transaction.
    async fn act(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        step: impl FnOnce(&mut Game) -> Result<Step, ServiceError>,
    ) -> Result<Played, ServiceError> {
        let now = self.now();
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, true).await?;
        loaded.ensure_active()?;
        loaded.ensure_turn(seat)?;
        let mover = seat;
        let step = step(&mut loaded.game)?;
        let stored = match &step {
            Step::Move(text) => text.as_str(),
            Step::End => "end",
        };
        self.store_steps(&mut tx, &mut loaded, mover, &[stored], now)
            .await?;
        // The game after this move, kept apart only where a forecast may play on from it.
        let before_replies = loaded.row.forecasting.0.then(|| loaded.clone());
        // A whole turn of one move may be foreseen by the opponent's forecast.
        let whole = loaded.game.position().turn() != mover;
        let foreseen = match &step {
            Step::Move(text) if whole => Some(text.clone()),
            _ => None,
        };
        let answered = self
            .answer_forecasts(&mut tx, &mut loaded, foreseen, now)
            .await?;
        tx.commit().await?;
        let moved = before_replies.as_ref().unwrap_or(&loaded);
        let by = moved.row.player(mover);
        let news = match step {
            Step::Move(text) => News::Moved {
                by,
                text: crate::notation::numbered_last(moved.game.turns().len(), &text),
            },
            Step::End => News::TurnEnded { by },
        };
        self.wake_bot(&loaded.view());
        let mut forecast = Vec::with_capacity(answered.len());
        for a in answered {
            forecast.push(Played {
                view: a.after.view(),
                news: a.news,
                png: self.picture_or_none(&a.after).await,
                forecast: Vec::new(),
            });
        }
        Ok(Played {
            view: moved.view(),
            news,
            png: self.picture_or_none(moved).await,
            forecast,
        })
    }

    /// The board of `loaded` after a move that is stored already: a picture that cannot be made
    /// leaves the news without one.
    async fn picture_or_none(&self, loaded: &Loaded) -> Vec<u8> {
        match self.picture(loaded, false, loaded.row.thread_theme()).await {
            Ok(png) => png,
            Err(e) => {
                tracing::error!(game = loaded.row.id, error = %e, "no picture after a move");
                Vec::new()
            }
        }
    }

    /// Writes steps that `mover` has just taken in `loaded.game` (their stored texts: a canonical
    /// move or `end`) and the game's new state, on the caller's transaction, and brings
    /// `loaded.row` up to date. Fails with `PositionChanged` when another move came first.
    pub(super) async fn store_steps(
        &self,
        tx: &mut sqlx::AnyConnection,
        loaded: &mut Loaded,
        mover: Side,
        stored: &[&str],
        now: i64,
    ) -> Result<(), ServiceError> {
        let id = loaded.row.id;
        let player_id = loaded.row.player_ids()[mover];
        let first_ply = loaded.row.move_count;
        for (i, text) in stored.iter().enumerate() {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, text, player, played_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(first_ply + i as i64)
            .bind(text)
            .bind(player_id)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(|e| match e.as_database_error().map(|d| d.kind()) {
                // The move's place is taken: another move came first.
                Some(sqlx::error::ErrorKind::UniqueViolation) => ServiceError::PositionChanged(id),
                _ => ServiceError::from(e),
            })?;
        }
        let count = stored.len() as i64;
        let turn_passed = loaded.game.position().turn() != mover;
        let outcome = loaded.game.outcome();
        let deadline = if turn_passed {
            now + loaded.row.turn_length()
        } else {
            loaded.row.deadline
        };
        // The game stays active here; an ending is written by `finish`, as every ending is.
        let updated = sqlx::query(
            "UPDATE games SET position = $1, move_count = move_count + $2,
                draw_offer = CASE WHEN draw_offer = $3 THEN draw_offer ELSE NULL END, updated_at = $4,
                turn_started = CASE WHEN $5 THEN $6 ELSE turn_started END,
                deadline = $7, remind_at = CASE WHEN $8 THEN $9 ELSE remind_at END,
                reminded = CASE WHEN $10 THEN 0 ELSE reminded END, takeback_by = NULL
             WHERE id = $11 AND move_count = $12 AND status = 'active'",
        )
        .bind(write_position(loaded.game.position()))
        .bind(count)
        .bind(player_id)
        .bind(now)
        .bind(turn_passed)
        .bind(now)
        .bind(deadline)
        .bind(turn_passed)
        .bind(loaded.row.remind_at(deadline))
        .bind(turn_passed)
        .bind(id)
        .bind(first_ply)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(ServiceError::PositionChanged(id));
        }
        self.replayed.put(id, first_ply + count, &loaded.game);
        loaded.row.move_count += count;
        loaded.row.deadline = deadline;
        loaded.row.takeback_by = None;
        if outcome.is_some() {
            let (ended, _) = self.finish(tx, loaded, Ending::OnTheBoard, None).await?;
            if !ended {
                return Err(ServiceError::PositionChanged(id));
            }
        }
        // A draw offer lasts until the opponent of the player who made it moves.
        if loaded.row.draw_offer != Some(player_id) || outcome.is_some() {
            loaded.row.draw_offer = None;
        }
        Ok(())
    }
}

//! Forecasts: "if you play X, I play Y". A player keeps lines of moves in a game, each beginning
//! with the opponent's next move and alternating from there. When the opponent plays a line's
//! first move, its second is played at once in the player's name, in the same transaction as the
//! move it answers (so no move of the player's own can come between), and the rest of the line
//! stays. Any other move ends the lines it does not begin; a takeback or the game's end ends them
//! all.
//!
//! The lines of a game form a tree: two lines may part at the opponent's move, never at the
//! player's own (one answer to each move). [`merge`] keeps that, and [`answer`] finds the reply;
//! both are plain functions of the lines.

use sqlx::AnyConnection;

use super::load::Loaded;
use super::{News, Person, Service, ServiceError};
use crate::notation::{canonical, read_move, split_moves};
use crate::rules::Side;

/// The most lines a player keeps in one game.
pub const MAX_FORECAST_LINES: usize = 10;
/// The most moves of one line (the opponent's and the player's together).
pub const MAX_FORECAST_MOVES: usize = 20;

/// A player's forecasts in a game, as they stand after a `/forecast`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forecasts {
    pub game: i64,
    /// The lines kept, each beginning with the opponent's next move.
    pub lines: Vec<Vec<String>>,
    /// What the command did.
    pub done: ForecastDone,
}

/// What a `/forecast` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForecastDone {
    /// Shown only.
    Shown,
    /// A line kept (a new one, or one that goes on further than a line kept before).
    Kept,
    /// The line was kept already (it begins a line kept before).
    AlreadyKept,
    /// Every line of the player's in the game is gone.
    Cleared,
}

/// How a new line goes with those kept.
#[derive(Debug, PartialEq, Eq)]
pub enum Merge {
    /// Keep the line; the kept lines at these indices are its beginnings, replaced by it.
    Add { replaces: Vec<usize> },
    /// The line begins a kept one already.
    Within,
    /// The line answers a move another way than a kept line does: that line, and where they part
    /// (the index of the answer, from 0).
    Conflict { kept: usize, at: usize },
}

/// How `new` goes with the lines `kept` (all beginning at the same move).
pub fn merge(kept: &[Vec<String>], new: &[String]) -> Merge {
    let mut replaces = Vec::new();
    for (i, line) in kept.iter().enumerate() {
        let same = line.iter().zip(new).take_while(|(a, b)| a == b).count();
        if same == new.len() {
            return Merge::Within;
        }
        if same == line.len() {
            replaces.push(i);
        } else if same % 2 == 1 {
            // They part at an answer of the player's (the odd plies): one answer to each move.
            return Merge::Conflict { kept: i, at: same };
        }
    }
    Merge::Add { replaces }
}

/// The answer the lines `kept` give to the opponent's move `played`, if any: the reply, and for
/// each line whether it goes on (its moves after the reply), or ends.
pub fn answer(kept: &[Vec<String>], played: &str) -> (Option<String>, Vec<Option<Vec<String>>>) {
    let mut reply = None;
    let rest = kept
        .iter()
        .map(|line| match line.as_slice() {
            [first, second, more @ ..] if first == played => {
                reply.get_or_insert_with(|| second.clone());
                (!more.is_empty()).then(|| more.to_vec())
            }
            _ => None,
        })
        .collect();
    (reply, rest)
}

/// A reply played from a forecast, with the game as it stood after it.
pub(super) struct Answered {
    pub news: News,
    pub after: Loaded,
}

/// Reads a line as the move option is written (moves separated by spaces or commas) into its
/// moves, without checking them; refused when longer than a line may be.
fn words(line: &str) -> Result<Vec<String>, ServiceError> {
    // Counted before anything is kept: the longest text Discord allows is read once.
    let moves: Vec<String> = line
        .split(',')
        .flat_map(split_moves)
        .filter(|m| !m.is_empty())
        .take(MAX_FORECAST_MOVES + 1)
        .collect();
    if moves.len() > MAX_FORECAST_MOVES {
        return Err(ServiceError::ForecastTooLong {
            max: MAX_FORECAST_MOVES,
        });
    }
    if moves.len() < 2 {
        return Err(ServiceError::ForecastTooShort);
    }
    Ok(moves)
}

/// Checks a line from the game as it stands (the opponent to move) and writes it in canonical
/// moves: every move legal in turn, each a whole turn, the last the player's own.
fn checked(loaded: &Loaded, moves: &[String]) -> Result<Vec<String>, ServiceError> {
    let mut game = loaded.game.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let bad = |why: String| ServiceError::BadForecast {
            at: i + 1,
            mv: text.clone(),
            why,
        };
        if game.outcome().is_some() {
            return Err(bad("the game is over before it".into()));
        }
        let side = game.position().turn();
        let (m, _) = read_move(game.position(), text).map_err(|e| bad(e.to_string()))?;
        let written = canonical(game.position(), m);
        game.play(m).map_err(|e| bad(e.to_string()))?;
        if game.position().turn() == side && game.outcome().is_none() {
            return Err(bad(
                "it leaves a chain of captures open: a forecast's moves are whole turns".into(),
            ));
        }
        out.push(written);
    }
    if out.len() % 2 == 1 {
        return Err(ServiceError::ForecastEndsOnTheirs);
    }
    Ok(out)
}

impl Service {
    /// `/forecast`: keeps a line (`line`), clears the player's lines (`clear`), or shows them, in
    /// the game `who` means. A line begins with the opponent's next move.
    pub async fn forecast(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        line: Option<&str>,
        clear: bool,
    ) -> Result<Forecasts, ServiceError> {
        let (mut tx, loaded, seat) = self.open_game(who, id, channel, false).await?;
        let game = loaded.row.id;
        let player = loaded.row.player_ids()[seat];
        let ply = loaded.row.move_count;
        let done = if clear {
            sqlx::query("DELETE FROM forecasts WHERE game_id = $1 AND player = $2")
                .bind(game)
                .bind(player)
                .execute(&mut *tx)
                .await?;
            ForecastDone::Cleared
        } else if let Some(line) = line.filter(|l| !l.trim().is_empty()) {
            loaded.ensure_active()?;
            if loaded.game.position().turn() == seat {
                return Err(ServiceError::ForecastOnYourMove(game));
            }
            let new = checked(&loaded, &words(line)?)?;
            let kept = lines(&mut tx, game, player, ply).await?;
            match merge(
                &kept.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>(),
                &new,
            ) {
                Merge::Within => ForecastDone::AlreadyKept,
                Merge::Conflict { kept: k, at } => {
                    return Err(ServiceError::ForecastConflict {
                        after: kept[k].1[..at].join(" "),
                        kept: kept[k].1[at].clone(),
                        new: new[at].clone(),
                    })
                }
                Merge::Add { replaces } => {
                    if kept.len() - replaces.len() >= MAX_FORECAST_LINES {
                        return Err(ServiceError::TooManyForecasts(MAX_FORECAST_LINES));
                    }
                    for i in replaces {
                        sqlx::query("DELETE FROM forecasts WHERE id = $1")
                            .bind(kept[i].0)
                            .execute(&mut *tx)
                            .await?;
                    }
                    sqlx::query("UPDATE games SET forecasting = 1 WHERE id = $1")
                        .bind(game)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT INTO forecasts (game_id, player, ply, moves, created_at)
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(game)
                    .bind(player)
                    .bind(ply)
                    .bind(new.join(" "))
                    .bind(self.now())
                    .execute(&mut *tx)
                    .await?;
                    ForecastDone::Kept
                }
            }
        } else {
            ForecastDone::Shown
        };
        let lines = lines(&mut tx, game, player, ply).await?;
        tx.commit().await?;
        Ok(Forecasts {
            game,
            lines: lines.into_iter().map(|(_, l)| l).collect(),
            done,
        })
    }

    /// Plays the replies that forecasts give to the turn just stored in `loaded` (`played`: its
    /// canonical text when it was one move), on the caller's transaction: the reply of the player
    /// now to move, then, in turn, any reply of the other to that, and so on. Lines that no
    /// longer apply are ended. Returns each reply with the game after it.
    pub(super) async fn answer_forecasts(
        &self,
        tx: &mut AnyConnection,
        loaded: &mut Loaded,
        played: Option<String>,
        now: i64,
    ) -> Result<Vec<Answered>, ServiceError> {
        let mut out = Vec::new();
        if !loaded.row.forecasting.0 {
            // No line is kept in the game: nothing to look up.
            return Ok(out);
        }
        let mut played = played;
        while loaded.game.outcome().is_none() {
            let side: Side = loaded.game.position().turn();
            let player = loaded.row.player_ids()[side];
            let game = loaded.row.id;
            let ply = loaded.row.move_count - 1;
            // Lines of an earlier ply were passed by a move they did not foresee.
            sqlx::query("DELETE FROM forecasts WHERE game_id = $1 AND player = $2 AND ply <> $3")
                .bind(game)
                .bind(player)
                .bind(ply)
                .execute(&mut *tx)
                .await?;
            let kept = lines(tx, game, player, ply).await?;
            if kept.is_empty() {
                break;
            }
            let moves: Vec<Vec<String>> = kept.iter().map(|(_, l)| l.clone()).collect();
            let (reply, rest) = answer(&moves, played.as_deref().unwrap_or(""));
            for ((row, _), rest) in kept.iter().zip(rest) {
                match rest {
                    Some(rest) => {
                        sqlx::query("UPDATE forecasts SET ply = $1, moves = $2 WHERE id = $3")
                            .bind(ply + 2)
                            .bind(rest.join(" "))
                            .bind(row)
                            .execute(&mut *tx)
                            .await
                            .map(|_| ())?
                    }
                    None => sqlx::query("DELETE FROM forecasts WHERE id = $1")
                        .bind(row)
                        .execute(&mut *tx)
                        .await
                        .map(|_| ())?,
                }
            }
            let Some(reply) = reply else { break };
            // Checked when it was kept; a line that no longer plays is dropped, not played.
            let Ok((m, _)) = read_move(loaded.game.position(), &reply) else {
                break;
            };
            let text = canonical(loaded.game.position(), m);
            if loaded.game.play(m).is_err() || loaded.game.position().turn() == side {
                return Err(ServiceError::Internal(format!(
                    "forecast {reply} in game #{game} no longer plays"
                )));
            }
            self.store_steps(tx, loaded, side, &[&text], now).await?;
            out.push(Answered {
                news: News::Forecast {
                    by: loaded.row.player(side),
                    text: crate::notation::numbered_last(loaded.game.turns().len(), &text),
                },
                after: loaded.clone(),
            });
            played = Some(text);
        }
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM forecasts WHERE game_id = $1")
            .bind(loaded.row.id)
            .fetch_one(&mut *tx)
            .await?;
        if left == 0 {
            stop_looking(tx, loaded).await?;
        }
        Ok(out)
    }

    /// Ends every line kept in `loaded`'s game (a takeback, the end of the game).
    pub(super) async fn end_forecasts(
        &self,
        conn: &mut AnyConnection,
        loaded: &mut Loaded,
    ) -> Result<(), ServiceError> {
        if !loaded.row.forecasting.0 {
            return Ok(());
        }
        sqlx::query("DELETE FROM forecasts WHERE game_id = $1")
            .bind(loaded.row.id)
            .execute(&mut *conn)
            .await?;
        stop_looking(conn, loaded).await
    }
}

/// Marks `loaded`'s game as keeping no forecast: its moves look for none.
async fn stop_looking(conn: &mut AnyConnection, loaded: &mut Loaded) -> Result<(), ServiceError> {
    sqlx::query("UPDATE games SET forecasting = 0 WHERE id = $1")
        .bind(loaded.row.id)
        .execute(conn)
        .await?;
    loaded.row.forecasting = super::rows::Flag(false);
    Ok(())
}

/// The lines of `player` in `game` that begin at ply `ply`, with their row ids, oldest first.
async fn lines(
    conn: &mut AnyConnection,
    game: i64,
    player: i64,
    ply: i64,
) -> Result<Vec<(i64, Vec<String>)>, ServiceError> {
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, moves FROM forecasts WHERE game_id = $1 AND player = $2 AND ply = $3
         ORDER BY id",
    )
    .bind(game)
    .bind(player)
    .bind(ply)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, moves)| (id, moves.split(' ').map(str::to_string).collect()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn lines_part_at_the_opponents_move_never_at_ones_own() {
        let kept = vec![line("a b c d")];
        assert_eq!(
            merge(&kept, &line("a b e f")),
            Merge::Add { replaces: vec![] }
        );
        assert_eq!(merge(&kept, &line("x y")), Merge::Add { replaces: vec![] });
        assert_eq!(
            merge(&kept, &line("a z")),
            Merge::Conflict { kept: 0, at: 1 }
        );
        assert_eq!(
            merge(&kept, &line("a b c z")),
            Merge::Conflict { kept: 0, at: 3 }
        );
        assert_eq!(merge(&kept, &line("a b")), Merge::Within);
        assert_eq!(
            merge(&kept, &line("a b c d e f")),
            Merge::Add { replaces: vec![0] }
        );
    }

    #[test]
    fn the_move_foreseen_is_answered_and_the_rest_goes_on() {
        let kept = vec![line("a b c d"), line("a b e f"), line("x y")];
        let (reply, rest) = answer(&kept, "a");
        assert_eq!(reply.as_deref(), Some("b"));
        assert_eq!(rest, vec![Some(line("c d")), Some(line("e f")), None]);
        let (reply, rest) = answer(&kept, "q");
        assert_eq!(reply, None);
        assert_eq!(rest, vec![None, None, None]);
        let (reply, rest) = answer(&[line("x y")], "x");
        assert_eq!(reply.as_deref(), Some("y"));
        assert_eq!(rest, vec![None]);
    }
}

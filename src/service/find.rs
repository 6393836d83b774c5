//! Which game a player means when they do not say: the only one waiting for them here, or the one
//! whose thread they are in.

use sqlx::{AnyConnection, FromRow};

use super::rows::{GameRow, GAME_SELECT};
use super::{GameSummary, Person, Service, ServiceError};
use crate::rules::parse_position;

impl Service {
    /// Finds the game a player means: the one named, or the only one waiting for their move
    /// (in `channel`, when given).
    pub(super) async fn resolve_game(
        &self,
        conn: &mut AnyConnection,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        waiting_only: bool,
    ) -> Result<i64, ServiceError> {
        if let Some(id) = id {
            return Ok(id);
        }
        // The player's active games here: in the channel or its game thread, when one is given.
        // Where none of them is played, all of them are meant.
        let mine = self.summaries(conn, who).await?;
        let in_channel = |places: &[Option<String>; 2]| {
            channel.is_none_or(|c| places.iter().any(|p| p.as_deref() == Some(c)))
        };
        let anywhere = !mine.iter().any(|(places, _)| in_channel(places));
        if anywhere {
            if let Some(thread) = channel {
                // The thread of one of their finished games means that game (to be told it is over).
                let ended: Option<i64> = sqlx::query_scalar(
                    "SELECT g.id FROM games g JOIN players pa ON pa.id = g.attacker
                     JOIN players pd ON pd.id = g.defender
                     WHERE (pa.key = $1 OR pd.key = $1) AND g.thread = $2 AND g.status != 'broken'
                     ORDER BY g.id DESC LIMIT 1",
                )
                .bind(&who.key)
                .bind(thread)
                .fetch_optional(&mut *conn)
                .await?;
                if let Some(id) = ended {
                    return Ok(id);
                }
            }
        }
        let here: Vec<GameSummary> = mine
            .into_iter()
            .filter(|(places, _)| anywhere || in_channel(places))
            .map(|(_, summary)| summary)
            .collect();
        let waiting: Vec<i64> = here.iter().filter(|g| g.your_turn).map(|g| g.id).collect();
        let all: Vec<i64> = here.iter().map(|g| g.id).collect();
        if waiting_only {
            return match (waiting.as_slice(), all.as_slice()) {
                ([id], _) => Ok(*id),
                // One game, not theirs to move: the use case will say whose move it is.
                ([], [id]) => Ok(*id),
                ([], _) => Err(ServiceError::NoGameWaiting),
                _ => Err(ServiceError::SeveralGames(waiting)),
            };
        }
        match all.as_slice() {
            [id] => Ok(*id),
            [] => {
                // Nothing in progress here: the player's latest game here, finished or not.
                let latest: Option<i64> = sqlx::query_scalar(
                    "SELECT g.id FROM games g JOIN players pa ON pa.id = g.attacker
                     JOIN players pd ON pd.id = g.defender
                     WHERE (pa.key = $1 OR pd.key = $1) AND g.status != 'broken'
                       AND ($2 IS NULL OR g.channel = $2 OR g.thread = $2)
                     ORDER BY g.id DESC LIMIT 1",
                )
                .bind(&who.key)
                .bind(channel)
                .fetch_optional(&mut *conn)
                .await?;
                latest.ok_or(ServiceError::NoGames)
            }
            _ => Err(ServiceError::SeveralGames(all)),
        }
    }

    /// A player's active games with their channels: theirs to move first, then by deadline. A row
    /// that does not read is left out here (loading it by number reports it).
    pub(super) async fn summaries(
        &self,
        conn: &mut AnyConnection,
        who: &Person,
    ) -> Result<Vec<([Option<String>; 2], GameSummary)>, ServiceError> {
        let rows = sqlx::query(&format!(
            "{GAME_SELECT} WHERE g.status = 'active' AND (pa.key = $1 OR pd.key = $1)
             ORDER BY g.deadline"
        ))
        .bind(&who.key)
        .fetch_all(&mut *conn)
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let Ok(row) = GameRow::from_row(r) else {
                continue;
            };
            if !self.scope.sees(row.guild.as_deref()) {
                continue;
            }
            let Ok(pos) = parse_position(row.variant.0, &row.position) else {
                continue;
            };
            let Some(me) = row.seat(who) else {
                continue;
            };
            out.push((
                [row.channel.clone(), row.thread.clone()],
                GameSummary {
                    id: row.id,
                    variant: row.variant.0,
                    opponent: row.player(me.other()),
                    your_turn: pos.turn() == me,
                    deadline: row.deadline,
                    paused: row.away(pos.turn()),
                },
            ));
        }
        out.sort_by_key(|(_, s)| (!s.your_turn, s.deadline));
        Ok(out)
    }
}

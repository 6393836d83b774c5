//! A server's team games: those going on, and its record in those that ended.

use sqlx::FromRow;

use super::super::finish::Ending;
use super::super::rows::{GameResult, GameRow, GameStatus, GAME_SELECT};
use super::super::{News, Notice};
use super::{Member, Service, ServiceError};
use crate::rules::{parse_position, BySide, Side, Variant};
use crate::service::Person;

/// The finished team games a record lists, the latest first.
pub const RECORD_SHOWN: usize = 10;

/// One team game of a server.
#[derive(Clone, Debug)]
pub struct TeamLine {
    pub id: i64,
    pub variant: &'static Variant,
    pub players: BySide<Person>,
    /// The sides this server's teams play: one, or both where two of its roles play.
    pub ours: Vec<Side>,
    pub result: GameResult,
    /// While it goes on: the side to move, and when its window closes.
    pub to_move: Option<Side>,
    pub deadline: i64,
    pub thread: Option<String>,
}

/// A server's team games.
#[derive(Clone, Debug, Default)]
pub struct TeamGames {
    pub going: Vec<TeamLine>,
    /// The latest finished, at most [`RECORD_SHOWN`].
    pub finished: Vec<TeamLine>,
    /// Against taflbot and other servers: the server's wins, draws and losses.
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// Games between two of its own roles, which count for neither.
    pub between_roles: u32,
}

impl Service {
    /// Calls off a team game of this server, for `by`, one of its managers: it ends with no
    /// result, at any move (a team game is never rated). In a game between servers, either
    /// server's managers may. Its news is a kept notice, told in each server's thread as every
    /// notice is.
    pub async fn call_off_team_game(
        &self,
        by: &Member,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Notice, ServiceError> {
        let guild = self.scope.team_guild()?.to_string();
        if !by.manages {
            return Err(ServiceError::NotManager);
        }
        let mut tx = self.write().await?;
        let id = self.resolve_team_game(&mut tx, &guild, id, channel).await?;
        let mut loaded = self.load(&mut tx, id).await?;
        loaded.ensure_active()?;
        let news = News::Aborted {
            by: by.person.clone(),
        };
        let (done, notice) = self
            .finish(&mut tx, &mut loaded, Ending::CalledOff, Some(&news))
            .await?;
        match notice {
            Some(notice) if done => {
                tx.commit().await?;
                Ok(notice)
            }
            // Another writer ended it first.
            _ => {
                drop(tx);
                let mut conn = self.pool.acquire().await?;
                self.load(&mut conn, id).await?.ensure_active()?;
                Err(ServiceError::GameOver(id, None))
            }
        }
    }

    /// This server's team games and its record in them.
    pub async fn team_games(&self) -> Result<TeamGames, ServiceError> {
        let guild = self.scope.team_guild()?.to_string();
        let mut conn = self.pool.acquire().await?;
        let rows = sqlx::query(&format!(
            "{GAME_SELECT} WHERE g.status != 'broken'
               AND g.id IN (SELECT game_id FROM team_sides WHERE guild = $1)
             ORDER BY g.id DESC"
        ))
        .bind(&guild)
        .fetch_all(&mut *conn)
        .await?;
        let mut out = TeamGames::default();
        for r in &rows {
            let Ok(row) = GameRow::from_row(r) else {
                continue;
            };
            let players = row.players();
            let ours: Vec<Side> = [Side::Attackers, Side::Defenders]
                .into_iter()
                .filter(|s| players[*s].is_team_of(&guild))
                .collect();
            let active = row.status == GameStatus::Active;
            let to_move = active
                .then(|| parse_position(row.variant.0, &row.position).ok())
                .flatten()
                .map(|p| p.turn());
            let line = TeamLine {
                id: row.id,
                variant: row.variant.0,
                players,
                ours,
                result: row.result,
                to_move,
                deadline: row.deadline,
                // A game between two servers: the second's thread is its own.
                thread: match row.second() {
                    Some(second) if second.guild == guild => second.thread,
                    _ => row.thread.clone(),
                },
            };
            if active {
                out.going.push(line);
                continue;
            }
            if line.result == GameResult::Aborted {
                continue;
            }
            match (line.ours.as_slice(), line.result.winner()) {
                ([_, _], _) => out.between_roles += 1,
                (_, None) => out.drawn += 1,
                ([side], Some(winner)) if *side == winner => out.won += 1,
                _ => out.lost += 1,
            }
            if out.finished.len() < RECORD_SHOWN {
                out.finished.push(line);
            }
        }
        Ok(out)
    }
}

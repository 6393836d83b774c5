//! A game's beginning, in one place: every game (accepted from a challenge, against taflbot, a
//! tournament's) is written by [`Service::begin_game`], its clock started in one way. Its end is
//! written in one place too ([`super::finish`]).

use sqlx::AnyConnection;

use super::deadlines::remind_at;
use super::rows::Flag;
use super::{Service, ServiceError, DAY};
use crate::rules::Variant;

/// A game to begin: who plays which side of what, where, and how it counts.
#[derive(Clone, Copy, Debug)]
pub(super) struct NewGame<'a> {
    pub variant: &'static Variant,
    /// The start position, and the position now: a continued game begins where its record
    /// ended, with the record's moves stored as its first (`imported` of them).
    pub start: &'a str,
    pub position: &'a str,
    pub imported: i64,
    pub attacker: i64,
    pub defender: i64,
    /// Days per move.
    pub days: i64,
    /// A team game: each turn a window of votes this many seconds long (instead of `days`).
    pub vote_window: Option<i64>,
    pub guild: Option<&'a str>,
    pub channel: Option<&'a str>,
    pub thread: Option<&'a str>,
    pub rated: bool,
    /// Against taflbot: its level, and whether it attacks.
    pub bot: Option<(u8, bool)>,
    pub tournament: Option<i64>,
}

impl<'a> NewGame<'a> {
    /// A game of `variant` from its setup between two players, `days` a move, unrated, nowhere
    /// in particular: the fields that differ are set by the caller.
    pub fn new(variant: &'static Variant, attacker: i64, defender: i64, days: i64) -> Self {
        NewGame {
            variant,
            start: variant.setup,
            position: variant.setup,
            imported: 0,
            attacker,
            defender,
            days,
            vote_window: None,
            guild: None,
            channel: None,
            thread: None,
            rated: false,
            bot: None,
            tournament: None,
        }
    }
}

impl Service {
    /// Writes a new game, its first move's clock started now, and returns its id.
    pub(super) async fn begin_game(
        &self,
        conn: &mut AnyConnection,
        game: &NewGame<'_>,
    ) -> Result<i64, ServiceError> {
        let now = self.now();
        let turn = game.vote_window.unwrap_or(game.days * DAY);
        let deadline = now + turn;
        let remind = remind_at(deadline, game.days as u32, game.vote_window);
        let id = sqlx::query_scalar(
            "INSERT INTO games (variant, start, position, move_count, imported, attacker, defender,
                                days, guild, channel, thread, rated, bot_level, bot_attacks,
                                tournament_id, turn_started, deadline, remind_at, created_at,
                                updated_at, vote_window)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                     $18, $19, $20, $21)
             RETURNING id",
        )
        .bind(game.variant.id)
        .bind(game.start)
        .bind(game.position)
        .bind(game.imported)
        .bind(game.imported)
        .bind(game.attacker)
        .bind(game.defender)
        .bind(game.days)
        .bind(game.guild)
        .bind(game.channel)
        .bind(game.thread)
        .bind(Flag(game.rated))
        .bind(game.bot.map(|(level, _)| i64::from(level)))
        .bind(game.bot.map(|(_, attacks)| Flag(attacks)))
        .bind(game.tournament)
        .bind(now)
        .bind(deadline)
        .bind(remind)
        .bind(now)
        .bind(now)
        .bind(game.vote_window)
        .fetch_one(conn)
        .await?;
        Ok(id)
    }
}

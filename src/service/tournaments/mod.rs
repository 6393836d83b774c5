//! Tournaments of two-game matches: made, joined, left, started, cancelled, listed and stood.
//! Each match is two ordinary games with the sides swapped, begun at once (each its own game,
//! with deadlines, reminders and vacations as any other, rated when the tournament is). The
//! pairings and standings are worked out by [`crate::tournament`]; here they are stored.
//!
//! The next round is paired by the write that ends the last game of a round
//! ([`Service::tournament_game_over`], called wherever a game's result is stored), in the same
//! transaction: a restart never loses a round or pairs one twice, and with writes one at a time
//! two games ending together cannot both pair it.
//!
//! - `mod.rs`: the kinds of data, and the use cases a command asks for;
//! - `rounds.rs`: a result checked against the timeout rule, and the next round paired;
//! - `read.rs`: a tournament read back (the one a command means, its view, its results).

mod read;
mod rounds;

use sqlx::Row;

use super::rows::{Flag, GameResult, VariantId};
use super::{Person, Service, ServiceError};
use crate::rules::Variant;
use crate::tournament::{progress, swiss};
pub use crate::tournament::{Format, Status};

/// Tournaments open or running at once in one server.
pub const MAX_OPEN_TOURNAMENTS: i64 = 5;
/// Open or running tournaments one member may have made in a server: no one holds every place.
pub const MAX_OPEN_PER_CREATOR: i64 = 2;
/// Days an open tournament waits to be started before it lapses (is called off by the sweeper).
pub const LAPSES_AFTER_DAYS: i64 = 14;
/// Players in one tournament, at most (four groups of eight in a round robin).
pub const MAX_PLAYERS: i64 = 32;
/// Players a tournament needs to start.
pub const MIN_PLAYERS: i64 = 3;
/// Lost on time in more than half of their finished games (and at least this many): withdrawn.
pub const TIMEOUTS_TO_WITHDRAW: i64 = 2;

/// What a tournament command did to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentDone {
    Created,
    Joined,
    Left,
    Cancelled,
}

/// What a tournament is played for, as its creator sets it.
#[derive(Clone, Debug)]
pub struct TournamentTerms<'a> {
    pub variant: &'static Variant,
    pub format: Format,
    pub name: Option<&'a str>,
    /// Days per move of its games.
    pub days: Option<u32>,
    pub rated: bool,
    /// Rounds of a Swiss (at most half the players, as many as a field needs by default).
    pub rounds: Option<u32>,
    /// The most players it takes.
    pub players: Option<u32>,
}

/// A tournament as a player sees it.
#[derive(Clone, Debug)]
pub struct TournamentView {
    pub id: i64,
    pub name: String,
    pub variant: &'static Variant,
    pub format: Format,
    pub status: Status,
    pub days: i64,
    pub rated: bool,
    /// Swiss rounds asked (0: as the field needs).
    pub rounds: i64,
    pub max_players: i64,
    pub creator: Person,
    /// The entrants: by seed once it started, by joining before.
    pub players: Vec<Entrant>,
    /// The round paired last (0 before the start).
    pub stage: i64,
    pub winner: Option<Person>,
    /// Where it was made, and its own thread there once the front end opened one.
    pub channel: Option<String>,
    pub thread: Option<String>,
}

/// One entrant.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub person: Person,
    pub seed: Option<i64>,
    pub withdrawn: bool,
}

/// A line of the standings.
#[derive(Clone, Debug)]
pub struct StandingLine {
    pub person: Person,
    pub line: crate::tournament::standings::Standing,
    pub withdrawn: bool,
}

/// The standings with what each player scored against each other one.
#[derive(Clone, Debug)]
pub struct Crosstable {
    pub view: TournamentView,
    /// First place first.
    pub lines: Vec<StandingLine>,
    /// `scores[i][j]`: the half points line `i` took from line `j` (none when they have not met).
    pub scores: Vec<Vec<Option<u32>>>,
}

/// Half points as a player reads points: `3`, `1½`, `½`.
pub fn half_points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// What starting a tournament (or a round of it) began.
#[derive(Clone, Debug)]
pub struct Started {
    pub tournament: TournamentView,
    /// The games begun, each announced by a kept notice as well.
    pub games: Vec<i64>,
    /// Entrants who sit out the round with a bye.
    pub byes: Vec<Person>,
}

#[derive(sqlx::FromRow)]
struct TournamentRow {
    id: i64,
    guild: Option<String>,
    channel: Option<String>,
    thread: Option<String>,
    name: String,
    variant: VariantId,
    format: Format,
    days: i64,
    rated: Flag,
    rounds: i64,
    max_players: i64,
    creator: i64,
    status: Status,
    stage: i64,
    winner: Option<i64>,
}

const TOURNAMENT_SELECT: &str =
    "SELECT id, guild, channel, thread, name, variant, format, days, rated,
    rounds, max_players, creator, status, stage, winner FROM tournaments";

/// A game of the tournament as its standings read it.
struct GameOf {
    attacker: i64,
    defender: i64,
    finished: bool,
    result: GameResult,
    reason: Option<String>,
    moves: i64,
}

impl Service {
    /// Makes a tournament in this server, with `who` running it and its first entrant.
    pub async fn create_tournament(
        &self,
        who: &Person,
        terms: &TournamentTerms<'_>,
        channel: Option<&str>,
    ) -> Result<TournamentView, ServiceError> {
        if matches!(self.scope, super::Scope::Direct) {
            return Err(ServiceError::NotInServer);
        }
        let days = terms.days.unwrap_or(super::DEFAULT_DAYS);
        if !super::DAYS_PER_MOVE.contains(&days) {
            return Err(ServiceError::BadDays(days));
        }
        let max_players = i64::from(terms.players.unwrap_or(MAX_PLAYERS as u32));
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&max_players) {
            return Err(ServiceError::TournamentSize(max_players));
        }
        let rounds = i64::from(terms.rounds.unwrap_or(0));
        if terms.format == Format::Swiss && terms.rounds.is_some() {
            let most = swiss::max_rounds(max_players as usize) as i64;
            if !(1..=most).contains(&rounds) {
                return Err(ServiceError::SwissRounds { rounds, most });
            }
        }
        let name = terms
            .name
            .map(|n| {
                // One line of at most 60 characters: it names a thread too.
                let line: String = n
                    .chars()
                    .filter(|&c| !super::text::invisible(c))
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                line.trim().chars().take(60).collect::<String>()
            })
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("{} {}", terms.variant.name, terms.format.name()));
        let now = self.now();
        let mut tx = self.write().await?;
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournaments
             WHERE status IN ('open', 'running') AND COALESCE(guild, '') = $1",
        )
        .bind(self.scope.guild().unwrap_or(""))
        .fetch_one(&mut *tx)
        .await?;
        if open >= MAX_OPEN_TOURNAMENTS {
            return Err(ServiceError::TooManyTournaments(MAX_OPEN_TOURNAMENTS));
        }
        let creator = self.player_id(&mut tx, who).await?;
        let theirs: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournaments
             WHERE status IN ('open', 'running') AND COALESCE(guild, '') = $1 AND creator = $2",
        )
        .bind(self.scope.guild().unwrap_or(""))
        .bind(creator)
        .fetch_one(&mut *tx)
        .await?;
        if theirs >= MAX_OPEN_PER_CREATOR {
            return Err(ServiceError::TooManyTournamentsOfYours(
                MAX_OPEN_PER_CREATOR,
            ));
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO tournaments (guild, channel, name, variant, format, days, rated, rounds,
                                      max_players, creator, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
        )
        .bind(self.scope.guild())
        .bind(channel)
        .bind(&name)
        .bind(terms.variant.id)
        .bind(terms.format)
        .bind(i64::from(days))
        .bind(Flag(terms.rated))
        .bind(rounds)
        .bind(max_players)
        .bind(creator)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        self.enter(&mut tx, id, creator).await?;
        let view = self.tournament_view(&mut tx, id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// `who` joins an open tournament (the one open here when `id` is not given).
    pub async fn join_tournament(
        &self,
        who: &Person,
        id: Option<i64>,
    ) -> Result<TournamentView, ServiceError> {
        self.join_tournament_as(who, id, false).await
    }

    /// [`Service::join_tournament`] for a player who may be too new to the server, or to Discord,
    /// for rated play (the front end knows: [`crate::service::RATED_ACCOUNT_DAYS`]): refused a
    /// rated tournament, whose games are rated, as a rated challenge is.
    pub async fn join_tournament_as(
        &self,
        who: &Person,
        id: Option<i64>,
        newcomer: bool,
    ) -> Result<TournamentView, ServiceError> {
        let mut tx = self.write().await?;
        let t = self.tournament_here(&mut tx, id, &[Status::Open]).await?;
        if t.status != Status::Open {
            return Err(ServiceError::TournamentStarted(t.id));
        }
        if newcomer && t.rated.0 {
            return Err(ServiceError::TooNewToRate(who.clone()));
        }
        let player = self.player_id(&mut tx, who).await?;
        let players: Vec<i64> =
            sqlx::query_scalar("SELECT player FROM tournament_players WHERE tournament_id = $1")
                .bind(t.id)
                .fetch_all(&mut *tx)
                .await?;
        if players.contains(&player) {
            return Err(ServiceError::AlreadyJoined(t.id));
        }
        if players.len() as i64 >= t.max_players {
            return Err(ServiceError::TournamentFull(t.id, t.max_players));
        }
        self.enter(&mut tx, t.id, player).await?;
        let view = self.tournament_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// Enters `player` in tournament `id`, joined now.
    async fn enter(
        &self,
        conn: &mut sqlx::AnyConnection,
        id: i64,
        player: i64,
    ) -> Result<(), ServiceError> {
        sqlx::query(
            "INSERT INTO tournament_players (tournament_id, player, joined_at) VALUES ($1, $2, $3)",
        )
        .bind(id)
        .bind(player)
        .bind(self.now())
        .execute(conn)
        .await?;
        Ok(())
    }

    /// `who` leaves a tournament: before the start they are simply no longer in it; after, they
    /// are withdrawn and lose their games still going by forfeit, rated where they were rated
    /// (leaving is no way out of a rating loss).
    pub async fn leave_tournament(
        &self,
        who: &Person,
        id: Option<i64>,
    ) -> Result<TournamentView, ServiceError> {
        let mut tx = self.write().await?;
        let t = self
            .tournament_here(&mut tx, id, &[Status::Open, Status::Running])
            .await?;
        let player = self.player_id(&mut tx, who).await?;
        let withdrawn: Option<Option<i64>> = sqlx::query_scalar(
            "SELECT withdrawn_at FROM tournament_players WHERE tournament_id = $1 AND player = $2",
        )
        .bind(t.id)
        .bind(player)
        .fetch_optional(&mut *tx)
        .await?;
        match (withdrawn, t.status) {
            (None, _) | (Some(Some(_)), _) => return Err(ServiceError::NotJoined(t.id)),
            (Some(None), Status::Open) => {
                sqlx::query(
                    "DELETE FROM tournament_players WHERE tournament_id = $1 AND player = $2",
                )
                .bind(t.id)
                .bind(player)
                .execute(&mut *tx)
                .await?;
            }
            (Some(None), Status::Running) => {
                let forfeited = self
                    .withdraw_entrant(&mut tx, t.id, player, rounds::Forfeits::Rated)
                    .await?;
                self.advance(&mut tx, t.id).await?;
                if let Some(&last) = forfeited.last() {
                    self.tournament_notice(&mut tx, last, t.id).await?;
                }
            }
            _ => return Err(ServiceError::TournamentOver(t.id)),
        }
        let view = self.tournament_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// Starts a tournament: its creator, or anyone who manages the server (`manages`, as the
    /// front end knows it). The entrants are seeded by their rating here in its variant, and the
    /// first round's games begin.
    pub async fn start_tournament(
        &self,
        who: &Person,
        id: Option<i64>,
        manages: bool,
    ) -> Result<Started, ServiceError> {
        let mut tx = self.write().await?;
        let t = self.tournament_here(&mut tx, id, &[Status::Open]).await?;
        if t.status != Status::Open {
            return Err(ServiceError::TournamentStarted(t.id));
        }
        self.ensure_runs(&mut tx, &t, who, manages).await?;
        let rows = sqlx::query(
            "SELECT tp.player, COALESCE(r.rating, 1500.0) AS rating FROM tournament_players tp
             LEFT JOIN ratings r ON r.player = tp.player AND r.pool = $2 AND r.variant = $3
             WHERE tp.tournament_id = $1 ORDER BY tp.joined_at, tp.player",
        )
        .bind(t.id)
        .bind(t.guild.clone().unwrap_or_default())
        .bind(t.variant.id)
        .fetch_all(&mut *tx)
        .await?;
        let mut entrants: Vec<(i64, f64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        if (entrants.len() as i64) < MIN_PLAYERS {
            return Err(ServiceError::TooFewPlayers {
                have: entrants.len() as i64,
                need: MIN_PLAYERS,
            });
        }
        // The highest rating first; the earlier to join first among equals (a stable sort).
        entrants.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (seed, (player, rating)) in entrants.iter().enumerate() {
            sqlx::query(
                "UPDATE tournament_players SET seed = $1, rating = $2
                 WHERE tournament_id = $3 AND player = $4",
            )
            .bind(seed as i64)
            .bind(*rating)
            .bind(t.id)
            .bind(*player)
            .execute(&mut *tx)
            .await?;
        }
        let rounds = progress::rounds(t.format, t.rounds.max(0) as usize, entrants.len()) as i64;
        sqlx::query(
            "UPDATE tournaments SET status = 'running', started_at = $1, rounds = $2
             WHERE id = $3 AND status = 'open'",
        )
        .bind(self.now())
        .bind(rounds)
        .bind(t.id)
        .execute(&mut *tx)
        .await?;
        let players: Vec<i64> = entrants.iter().map(|e| e.0).collect();
        let t = TournamentRow {
            status: Status::Running,
            rounds,
            ..t
        };
        let pairings = progress::first_round(t.format, players.len())
            .ok_or_else(|| ServiceError::Internal("no first Swiss round".into()))?;
        let (games, byes) = self
            .begin_round(&mut tx, &t, 1, &players, &pairings)
            .await?;
        let tournament = self.tournament_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(Started {
            tournament,
            games,
            byes,
        })
    }

    /// Cancels a tournament that has not finished: its creator or a manager. Games going on go on
    /// as ordinary games; no further round is paired.
    pub async fn cancel_tournament(
        &self,
        who: &Person,
        id: Option<i64>,
        manages: bool,
    ) -> Result<TournamentView, ServiceError> {
        let mut tx = self.write().await?;
        let t = self
            .tournament_here(&mut tx, id, &[Status::Open, Status::Running])
            .await?;
        self.ensure_runs(&mut tx, &t, who, manages).await?;
        if !t.status.is_going() {
            return Err(ServiceError::TournamentOver(t.id));
        }
        sqlx::query("UPDATE tournaments SET status = 'cancelled', finished_at = $1 WHERE id = $2")
            .bind(self.now())
            .bind(t.id)
            .execute(&mut *tx)
            .await?;
        let view = self.tournament_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// Calls off, in every server, the open tournaments that waited [`LAPSES_AFTER_DAYS`] without
    /// being started, so that a place is never held for ever. One statement: two sweepers at
    /// once call each off once. Returns how many lapsed.
    pub async fn lapse_tournaments(&self) -> Result<u64, ServiceError> {
        let now = self.now();
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'cancelled', finished_at = $1
             WHERE status = 'open' AND created_at <= $2",
        )
        .bind(now)
        .bind(now - LAPSES_AFTER_DAYS * super::DAY)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Remembers the thread the front end opened for a tournament (or forgets one gone).
    pub async fn set_tournament_thread(
        &self,
        id: i64,
        thread: Option<&str>,
    ) -> Result<(), ServiceError> {
        sqlx::query("UPDATE tournaments SET thread = $1 WHERE id = $2")
            .bind(thread)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

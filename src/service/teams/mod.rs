//! Team games: a game whose sides are teams, each turn a window of votes. A team is every member
//! of a server, or the members of one of its roles; it plays against taflbot or another team of
//! the same server. The game itself is a game as every other: its players are the teams (players
//! whose key begins `team:`), its deadline the end of the window open now, its thread, pictures,
//! record and review those of any game. Nothing of it touches a person's rating.
//!
//! - this file: the teams, who votes for which side, and a team game's start;
//! - `votes.rs`: a vote cast or changed, and a window closed (its turn played, or repeated);
//! - `record.rs`: a server's team games, going and ended, and its record;
//! - `tally.rs`: the count of a window's votes, pure;
//! - `servers.rs`: a server against another: its home, the challenge and its answer.

mod checks;
mod record;
mod servers;
mod tally;
mod votes;

pub use record::{TeamGames, TeamLine, RECORD_SHOWN};
pub use servers::{ServerSeen, TeamAnswer, TeamChallenge, DECLINED_PAUSE, MAX_TEAM_CHALLENGES};
pub use tally::{VoteTally, TALLY_SHOWN};
pub use votes::{Voted, WindowClosed};

use std::future::Future;
use std::pin::Pin;

use sqlx::AnyConnection;

use super::begin::NewGame;
use super::challenges::coin;
use super::rows::{Flag, SideChoice};
use super::{GameView, Person, Scope, Service, ServiceError};
use crate::engine::{self, LEVELS};
use crate::rules::{Side, Variant};

/// A window's hours: at least, at most, and when none are given.
pub const MIN_WINDOW_HOURS: u32 = 1;
pub const MAX_WINDOW_HOURS: u32 = 72;
pub const DEFAULT_WINDOW_HOURS: u32 = 24;
/// Windows in a row that close without a vote lose the game on time.
pub const EMPTY_WINDOWS_LOSE: i64 = 3;
/// Team games one server may have going at once, and of those, one person may have started.
pub const MAX_TEAM_GAMES: i64 = 3;
pub const MAX_TEAM_GAMES_STARTED: i64 = 1;
/// The most moves one vote may name: a berserk chain, or a turn of two moves.
pub const MAX_TURN_MOVES: usize = 8;
/// The server of the local mode, where every player is a member.
pub const LOCAL_SERVER: &str = "local";

/// A member of a server as the front end knows them when they vote, start or close a window: who
/// they are, the roles they hold there, and whether they manage the server.
#[derive(Clone, Debug)]
pub struct Member {
    pub person: Person,
    pub roles: Vec<String>,
    pub manages: bool,
    /// An account or a membership too new to vote: the rule of rated play
    /// ([`super::RATED_ACCOUNT_DAYS`], [`super::RATED_MEMBER_DAYS`]), so that a burst of fresh
    /// accounts cannot decide a team's turn.
    pub newcomer: bool,
}

/// A role of a server, as the front end names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRole {
    pub id: String,
    pub name: String,
}

/// Whom a server's team plays.
#[derive(Clone, Debug)]
pub enum TeamOpponent {
    /// taflbot (`bot`, as the front end names it) at `level`; every member of the server votes.
    Taflbot { bot: Person, level: Option<u8> },
    /// Two roles of the server, one a side; a member of both votes for neither.
    Roles {
        attackers: TeamRole,
        defenders: TeamRole,
    },
}

/// What a team game is played on.
#[derive(Clone, Copy, Debug)]
pub struct TeamTerms {
    pub variant: &'static Variant,
    /// The side of the server's team against taflbot (two roles have their sides given).
    pub side: SideChoice,
    /// Hours of each turn's window of votes.
    pub hours: Option<u32>,
    /// Whether a window about to close pings the role that votes in it.
    pub ping: bool,
}

/// What the front end knows of a member now, asked when a window closes: a member who left the
/// server, or no longer holds the role they voted for, loses their vote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Membership {
    /// A member, with the roles they hold.
    Roles(Vec<String>),
    /// No longer a member.
    Gone,
    /// Not known (no front end to ask, or it could not answer): the vote stands as cast.
    Unknown,
}

/// Where the service asks what [`Membership`] a voter has, and what a server is: Discord in the
/// bot; the local mode and most tests have none.
pub trait Roster: Send + Sync {
    fn membership<'a>(
        &'a self,
        guild: &'a str,
        member: &'a str,
    ) -> Pin<Box<dyn Future<Output = Membership> + Send + 'a>>;

    /// Whether taflbot is in server `guild`, and its name.
    fn server<'a>(
        &'a self,
        _guild: &'a str,
    ) -> Pin<Box<dyn Future<Output = ServerSeen> + Send + 'a>> {
        Box::pin(async { ServerSeen::Unknown })
    }
}

/// No roster: every vote stands as cast.
pub struct NoRoster;

impl Roster for NoRoster {
    fn membership<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
    ) -> Pin<Box<dyn Future<Output = Membership> + Send + 'a>> {
        Box::pin(async { Membership::Unknown })
    }
}

/// Who votes for one side of a team game.
#[derive(Clone, Debug, sqlx::FromRow)]
pub(super) struct TeamSide {
    side: String,
    pub guild: String,
    /// The role whose members vote; every member of the server where none.
    pub role: Option<String>,
    pub captain: Option<i64>,
    pub ping: Flag,
    /// The role pinged where the side is a whole server (a game between servers), if any.
    pub ping_role: Option<String>,
    /// Windows in a row closed without a vote.
    pub empty: i64,
}

impl TeamSide {
    pub fn side(&self) -> Side {
        if self.side == "attackers" {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }
}

/// As stored.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// A side of a team game as stored: who votes for it, who captains it, and where it plays.
pub(super) struct TeamSideRow<'a> {
    pub guild: &'a str,
    pub role: Option<&'a str>,
    pub captain: Option<i64>,
    pub ping: bool,
    /// The role to ping before its window closes, where it is not the role that votes.
    pub ping_role: Option<&'a str>,
    /// The channel of the side's own thread, where it is not the game's (a game of two servers).
    pub channel: Option<&'a str>,
}

/// The player that stands for a team: every member of `guild`, or those of `role`.
pub fn team_person(guild: &str, role: Option<&TeamRole>, server: &str) -> Person {
    match role {
        Some(r) => Person::new(format!("team:{guild}:{}", r.id), &r.name),
        None => Person::new(format!("team:{guild}"), server),
    }
}

impl Person {
    /// Whether this player is a team, not a person: never pinged, never sent a message.
    pub fn is_team(&self) -> bool {
        self.key.starts_with("team:")
    }

    /// Whether this player is a team of server `guild` (all of it, or one of its roles), as
    /// [`team_person`] keys them.
    pub fn is_team_of(&self, guild: &str) -> bool {
        self.key
            .strip_prefix("team:")
            .and_then(|k| k.strip_prefix(guild))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
    }
}

/// The side a member of `guild` holding `roles` votes for among `sides`: refused where they are
/// on no side, or on both (the holder of both roles).
pub(super) fn side_of_member(
    game: i64,
    sides: &[TeamSide],
    guild: &str,
    roles: &[String],
) -> Result<Side, ServiceError> {
    let on: Vec<Side> = sides
        .iter()
        .filter(|s| s.guild == guild && s.role.as_ref().is_none_or(|r| roles.contains(r)))
        .map(TeamSide::side)
        .collect();
    match on.as_slice() {
        [side] => Ok(*side),
        [] => Err(ServiceError::NotOnTeam(game)),
        _ => Err(ServiceError::OnBothTeams(game)),
    }
}

impl Scope {
    /// The server a team game is played for: this one, or the local mode's.
    pub(super) fn team_guild(&self) -> Result<&str, ServiceError> {
        match self {
            Scope::Server(g) => Ok(g),
            Scope::Everywhere => Ok(LOCAL_SERVER),
            Scope::Direct => Err(ServiceError::NotInServer),
        }
    }
}

impl Service {
    /// Starts a team game of this server (`server`: its name, for the team that is all of it),
    /// against taflbot or between two of its roles, with its thread's channel `home`. The
    /// starter is the game's captain: they may close a window early, as managers may. Any member
    /// may start one against taflbot; only a manager one between roles, whose reminders may
    /// ping a role on a schedule.
    pub async fn start_team_game(
        &self,
        by: &Member,
        server: &str,
        opponent: &TeamOpponent,
        terms: &TeamTerms,
        home: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let hours = terms.hours.unwrap_or(DEFAULT_WINDOW_HOURS);
        if !(MIN_WINDOW_HOURS..=MAX_WINDOW_HOURS).contains(&hours) {
            return Err(ServiceError::BadWindow(hours));
        }
        let guild = self.scope.team_guild()?.to_string();
        // (the side's player, and its role where a role plays it) for the attackers, then the
        // defenders, and taflbot's level and side where it plays
        let (attackers, defenders, bot) = match opponent {
            TeamOpponent::Taflbot { bot, level } => {
                let level = level.unwrap_or(engine::DEFAULT_LEVEL);
                if !LEVELS.contains(&level) {
                    return Err(ServiceError::BadLevel(level));
                }
                let team = (team_person(&guild, None, server), None);
                let attacks = match terms.side {
                    SideChoice::Attackers => true,
                    SideChoice::Defenders => false,
                    SideChoice::Random => coin()?,
                };
                let bot_side = (bot.clone(), None);
                if attacks {
                    (team, bot_side, Some((level, false)))
                } else {
                    (bot_side, team, Some((level, true)))
                }
            }
            TeamOpponent::Roles {
                attackers,
                defenders,
            } => {
                if !by.manages {
                    return Err(ServiceError::NotManager);
                }
                if attackers.id == defenders.id {
                    return Err(ServiceError::SameRoles);
                }
                let side = |r| (team_person(&guild, Some(r), server), Some(r));
                (side(attackers), side(defenders), None)
            }
        };
        let mut tx = self.write().await?;
        let captain = self.player_id(&mut tx, &by.person).await?;
        self.check_team_room(&mut tx, &guild, Some(captain)).await?;
        let ids = [
            self.player_id(&mut tx, &attackers.0).await?,
            self.player_id(&mut tx, &defenders.0).await?,
        ];
        let mut game = NewGame::new(terms.variant, ids[0], ids[1], 1);
        game.vote_window = Some(i64::from(hours) * 3600);
        game.guild = match &self.scope {
            Scope::Server(g) => Some(g),
            _ => None,
        };
        game.channel = home;
        game.bot = bot;
        let id = self.begin_game(&mut tx, &game).await?;
        for (side, (person, role)) in [(Side::Attackers, &attackers), (Side::Defenders, &defenders)]
        {
            if !person.is_team() {
                continue;
            }
            let team = TeamSideRow {
                guild: &guild,
                role: role.map(|r| r.id.as_str()),
                captain: Some(captain),
                ping: terms.ping && role.is_some(),
                ping_role: None,
                channel: None,
            };
            self.add_team_side(&mut tx, id, side, &team).await?;
        }
        let view = self.load(&mut tx, id).await?.view();
        tx.commit().await?;
        Ok(view)
    }

    /// Stores who votes for `side` of team game `game`.
    async fn add_team_side(
        &self,
        conn: &mut AnyConnection,
        game: i64,
        side: Side,
        team: &TeamSideRow<'_>,
    ) -> Result<(), ServiceError> {
        sqlx::query(
            "INSERT INTO team_sides (game_id, side, guild, role, captain, ping, ping_role, channel)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(game)
        .bind(side_name(side))
        .bind(team.guild)
        .bind(team.role)
        .bind(team.captain)
        .bind(Flag(team.ping))
        .bind(team.ping_role)
        .bind(team.channel)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// Refuses a new team game where the server has as many going as it may, or the starter
    /// (where one is named) has started one that goes on.
    async fn check_team_room(
        &self,
        conn: &mut AnyConnection,
        guild: &str,
        starter: Option<i64>,
    ) -> Result<(), ServiceError> {
        let (going, theirs): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(DISTINCT g.id),
                    COUNT(DISTINCT CASE WHEN t.captain = $2 THEN g.id END)
             FROM games g JOIN team_sides t ON t.game_id = g.id
             WHERE g.status = 'active' AND t.guild = $1",
        )
        .bind(guild)
        .bind(starter.unwrap_or(-1))
        .fetch_one(&mut *conn)
        .await?;
        if going >= MAX_TEAM_GAMES {
            return Err(ServiceError::TooManyTeamGames(MAX_TEAM_GAMES));
        }
        if theirs >= MAX_TEAM_GAMES_STARTED {
            return Err(ServiceError::TeamGameOfYours);
        }
        Ok(())
    }

    /// The role to ping when the window open now in team game `game` is about to close: the
    /// role of the side to move, where its team chose to be pinged; for a whole server in a game
    /// between servers, the role its home names.
    pub async fn role_to_remind(&self, game: i64) -> Result<Option<String>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let loaded = self.load(&mut conn, game).await?;
        let side = loaded.game.position().turn();
        let sides = self.team_sides(&mut conn, game).await?;
        Ok(sides.into_iter().find(|s| s.side() == side).and_then(|s| {
            if s.ping.0 {
                s.role
            } else {
                s.ping_role
            }
        }))
    }

    /// The sides of a team game that teams play (one against taflbot, two between roles).
    pub(super) async fn team_sides(
        &self,
        conn: &mut AnyConnection,
        game: i64,
    ) -> Result<Vec<TeamSide>, ServiceError> {
        Ok(sqlx::query_as(
            "SELECT side, guild, role, captain, ping, ping_role, empty FROM team_sides WHERE game_id = $1
             ORDER BY side",
        )
        .bind(game)
        .fetch_all(&mut *conn)
        .await?)
    }
}

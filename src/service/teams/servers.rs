//! A server against another. A manager chooses the channel where the server is challenged and
//! plays (its home, `/teamgame home`); a manager of another server challenges it; a manager of
//! the server challenged accepts or declines. The game is one game of both servers: the game's
//! own channel and thread are the challenger's, and `team_sides` keeps the other's. Each server
//! votes only for its side, in its own thread, and sees the other's turns as they are played.

use sqlx::AnyConnection;

use super::{side_name, team_person, Member, TeamRole, TeamSideRow, TeamTerms};
use super::{DEFAULT_WINDOW_HOURS, MAX_WINDOW_HOURS, MIN_WINDOW_HOURS};
use crate::rules::{Side, Variant};
use crate::service::begin::NewGame;
use crate::service::challenges::coin;
use crate::service::rows::{SideChoice, VariantId};
use crate::service::{
    GameView, News, Person, Scope, Service, ServiceError, CHALLENGE_LIFETIME, DAY,
};

/// Challenges one server may have open at once (made or received).
pub const MAX_TEAM_CHALLENGES: i64 = 3;
/// After a server declines a challenge, the challenger may not challenge it again for this long
/// (its home is not a place to be flooded).
pub const DECLINED_PAUSE: i64 = DAY;

/// What the front end can say of a server by its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerSeen {
    /// taflbot is in it; its name.
    In(String),
    /// taflbot is not in it (or it does not exist).
    NotIn,
    /// Not known (no front end to ask, or it could not answer).
    Unknown,
}

/// A challenge from one server to another.
#[derive(Clone, Debug)]
pub struct TeamChallenge {
    pub id: i64,
    /// The two servers' teams.
    pub from: Person,
    pub to: Person,
    /// The home channel of the server challenged, where the challenge is shown.
    pub to_channel: String,
    /// Where the challenge was made: the challenger's thread is opened there.
    pub from_channel: Option<String>,
    pub variant: &'static Variant,
    /// The side the challenging server asked for.
    pub side: SideChoice,
    pub hours: u32,
    pub by: Person,
    pub expires_at: i64,
}

/// A challenge between servers answered.
#[derive(Clone, Debug)]
pub enum TeamAnswer {
    /// The game begun (its opening is a notice, shown in both servers' threads).
    Accepted(Box<GameView>),
    Declined(Box<TeamChallenge>),
}

#[derive(sqlx::FromRow)]
struct ChallengeRow {
    id: i64,
    from_guild: String,
    from_name: String,
    from_channel: Option<String>,
    to_guild: String,
    to_name: String,
    to_channel: String,
    variant: VariantId,
    side: String,
    hours: i64,
    challenger: i64,
    challenger_key: String,
    challenger_name: String,
    status: String,
    expires_at: i64,
}

impl ChallengeRow {
    fn challenge(&self) -> TeamChallenge {
        TeamChallenge {
            id: self.id,
            from: team_person(&self.from_guild, None, &self.from_name),
            to: team_person(&self.to_guild, None, &self.to_name),
            to_channel: self.to_channel.clone(),
            from_channel: self.from_channel.clone(),
            variant: self.variant.0,
            side: match self.side.as_str() {
                "attackers" => SideChoice::Attackers,
                "defenders" => SideChoice::Defenders,
                _ => SideChoice::Random,
            },
            hours: self.hours as u32,
            by: Person::new(self.challenger_key.clone(), &self.challenger_name),
            expires_at: self.expires_at,
        }
    }
}

/// A server's id as a challenge names it: Discord's digits.
fn server_id(text: &str) -> Result<String, ServiceError> {
    let id = text.trim();
    if id.is_empty() || id.len() > 20 || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ServiceError::BadServer(text.chars().take(40).collect()));
    }
    Ok(id.to_string())
}

impl Scope {
    /// The server of a command about servers against each other: none in the local mode, which
    /// has one.
    fn own_server(&self) -> Result<&str, ServiceError> {
        match self {
            Scope::Server(g) => Ok(g),
            Scope::Everywhere => Err(ServiceError::OneServerHere),
            Scope::Direct => Err(ServiceError::NotInServer),
        }
    }
}

impl Service {
    /// Makes `channel` this server's home for team games, for `by`, a manager, with the role
    /// to `ping` before the server's windows close in games between servers (or none); or,
    /// `off`, leaves the server without one: it can no longer be challenged, and the challenges
    /// to it still open are withdrawn. The channel kept.
    pub async fn set_team_home(
        &self,
        by: &Member,
        channel: Option<&str>,
        ping: Option<&TeamRole>,
        off: bool,
    ) -> Result<Option<String>, ServiceError> {
        let guild = self.scope.own_server()?.to_string();
        if !by.manages {
            return Err(ServiceError::NotManager);
        }
        let mut tx = self.write().await?;
        let channel = match channel {
            Some(c) if !off => c,
            _ => {
                sqlx::query("DELETE FROM team_homes WHERE guild = $1")
                    .bind(&guild)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "UPDATE team_challenges SET status = 'withdrawn'
                     WHERE to_guild = $1 AND status = 'open'",
                )
                .bind(&guild)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                return Ok(None);
            }
        };
        let setter = self.player_id(&mut tx, &by.person).await?;
        sqlx::query(
            "INSERT INTO team_homes (guild, channel, ping_role, set_by, set_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (guild) DO UPDATE SET channel = $2, ping_role = $3, set_by = $4,
                 set_at = $5",
        )
        .bind(&guild)
        .bind(channel)
        .bind(ping.map(|r| r.id.as_str()))
        .bind(setter)
        .bind(self.now())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(channel.to_string()))
    }

    /// Challenges server `target` (its id) to a team game, for `by`, a manager of this server;
    /// `here` is where this server's thread is to be opened. The challenge is to be shown in the
    /// other server's home channel (the front end does it, and withdraws it where it cannot).
    pub async fn challenge_server(
        &self,
        by: &Member,
        target: &str,
        terms: &TeamTerms,
        here: Option<&str>,
    ) -> Result<TeamChallenge, ServiceError> {
        let guild = self.scope.own_server()?.to_string();
        if !by.manages {
            return Err(ServiceError::NotManager);
        }
        let target = server_id(target)?;
        if target == guild {
            return Err(ServiceError::SameServer);
        }
        let hours = terms.hours.unwrap_or(DEFAULT_WINDOW_HOURS);
        if !(MIN_WINDOW_HOURS..=MAX_WINDOW_HOURS).contains(&hours) {
            return Err(ServiceError::BadWindow(hours));
        }
        let to_name = match self.roster.server(&target).await {
            ServerSeen::In(name) => name,
            ServerSeen::NotIn => return Err(ServiceError::NotInThatServer(target)),
            ServerSeen::Unknown => format!("Server {target}"),
        };
        let from_name = match self.roster.server(&guild).await {
            ServerSeen::In(name) => name,
            _ => format!("Server {guild}"),
        };
        let now = self.now();
        let mut tx = self.write().await?;
        let home: Option<String> =
            sqlx::query_scalar("SELECT channel FROM team_homes WHERE guild = $1")
                .bind(&target)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(to_channel) = home else {
            return Err(ServiceError::NoTeamHome(team_person(
                &target, None, &to_name,
            )));
        };
        let challenger = self.player_id(&mut tx, &by.person).await?;
        self.check_team_room(&mut tx, &guild, Some(challenger))
            .await?;
        self.check_team_room(&mut tx, &target, None).await?;
        self.check_challenge_room(&mut tx, &guild, &target, now)
            .await?;
        let expires_at = now + CHALLENGE_LIFETIME;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO team_challenges (from_guild, from_name, from_channel, to_guild, to_name,
                 to_channel, variant, side, hours, challenger, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(&guild)
        .bind(&from_name)
        .bind(here)
        .bind(&target)
        .bind(&to_name)
        .bind(&to_channel)
        .bind(terms.variant.id)
        .bind(terms.side.as_str())
        .bind(i64::from(hours))
        .bind(challenger)
        .bind(now)
        .bind(expires_at)
        .fetch_one(&mut *tx)
        .await?;
        let row = self.team_challenge(&mut tx, id).await?;
        tx.commit().await?;
        Ok(row.challenge())
    }

    /// Refuses a challenge from `guild` to `target` at `now` while one between them is open,
    /// while `target` declined `guild`'s last one lately, or where either limit is reached.
    async fn check_challenge_room(
        &self,
        tx: &mut AnyConnection,
        guild: &str,
        target: &str,
        now: i64,
    ) -> Result<(), ServiceError> {
        let open: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT id, from_guild, to_guild FROM team_challenges
             WHERE status = 'open' AND expires_at > $1
               AND (from_guild IN ($2, $3) OR to_guild IN ($2, $3))",
        )
        .bind(now)
        .bind(guild)
        .bind(target)
        .fetch_all(&mut *tx)
        .await?;
        let pair = |a: &str, b: &str| (a == guild && b == target) || (a == target && b == guild);
        if let Some((id, ..)) = open.iter().find(|(_, a, b)| pair(a, b)) {
            return Err(ServiceError::TeamChallengeOpen(*id));
        }
        let declined: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(answered_at) FROM team_challenges
             WHERE status = 'declined' AND from_guild = $1 AND to_guild = $2",
        )
        .bind(guild)
        .bind(target)
        .fetch_one(&mut *tx)
        .await?;
        if let Some(at) = declined.filter(|at| now - at < DECLINED_PAUSE) {
            return Err(ServiceError::DeclinedLately(at + DECLINED_PAUSE));
        }
        // A server's own limit counts the challenges it made, so that strangers' challenges to
        // it never stop it challenging; those waiting for its answer have a limit of their own
        // (its managers decline them, or take the home away, which withdraws them all).
        let made = open.iter().filter(|(_, from, _)| *from == guild).count() as i64;
        let waiting = open.iter().filter(|(_, _, to)| *to == target).count() as i64;
        if made >= MAX_TEAM_CHALLENGES || waiting >= MAX_TEAM_CHALLENGES {
            return Err(ServiceError::TooManyTeamChallenges {
                most: MAX_TEAM_CHALLENGES,
                received: made < MAX_TEAM_CHALLENGES,
            });
        }
        Ok(())
    }

    /// Withdraws challenge `id`, which could not be shown in the other server.
    pub async fn withdraw_team_challenge(&self, id: i64) -> Result<(), ServiceError> {
        sqlx::query(
            "UPDATE team_challenges SET status = 'withdrawn' WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Accepts or declines challenge `id`, for `by`, a manager of the server challenged. Once
    /// only: of two managers pressing at once, one answers and the other is told it is answered.
    pub async fn answer_team_challenge(
        &self,
        by: &Member,
        id: i64,
        accept: bool,
    ) -> Result<TeamAnswer, ServiceError> {
        let guild = self.scope.own_server()?.to_string();
        let now = self.now();
        let mut tx = self.write().await?;
        let row = self.team_challenge(&mut tx, id).await?;
        if row.status != "open" || row.expires_at <= now {
            return Err(ServiceError::NoTeamChallenge(id));
        }
        if row.to_guild != guild {
            return Err(ServiceError::NotYourTeamChallenge(id));
        }
        if !by.manages {
            return Err(ServiceError::NotManager);
        }
        let answerer = self.player_id(&mut tx, &by.person).await?;
        let claimed = sqlx::query(
            "UPDATE team_challenges SET status = $1, answered_by = $2, answered_at = $3
             WHERE id = $4 AND status = 'open'",
        )
        .bind(if accept { "accepted" } else { "declined" })
        .bind(answerer)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            return Err(ServiceError::NoTeamChallenge(id));
        }
        if !accept {
            tx.commit().await?;
            return Ok(TeamAnswer::Declined(Box::new(row.challenge())));
        }
        let view = self.begin_between_servers(&mut tx, &row, answerer).await?;
        tx.commit().await?;
        Ok(TeamAnswer::Accepted(Box::new(view)))
    }

    /// Begins the game of challenge `row`, accepted by `answerer`: the challenger's place is
    /// the game's own, the other server's is its side's.
    async fn begin_between_servers(
        &self,
        tx: &mut AnyConnection,
        row: &ChallengeRow,
        answerer: i64,
    ) -> Result<GameView, ServiceError> {
        let challenge = row.challenge();
        self.check_team_room(&mut *tx, &row.from_guild, None)
            .await?;
        self.check_team_room(&mut *tx, &row.to_guild, None).await?;
        // The role each server pings before its windows close, as its home names it now.
        let ping_of = |guild: &str| {
            sqlx::query_scalar::<_, Option<String>>(
                "SELECT ping_role FROM team_homes WHERE guild = $1",
            )
            .bind(guild.to_string())
        };
        let from_ping = ping_of(&row.from_guild)
            .fetch_optional(&mut *tx)
            .await?
            .flatten();
        let to_ping = ping_of(&row.to_guild)
            .fetch_optional(&mut *tx)
            .await?
            .flatten();
        let challenger_attacks = match challenge.side {
            SideChoice::Attackers => true,
            SideChoice::Defenders => false,
            SideChoice::Random => coin()?,
        };
        let from = TeamSideRow {
            guild: &row.from_guild,
            role: None,
            captain: Some(row.challenger),
            ping: false,
            ping_role: from_ping.as_deref(),
            channel: row.from_channel.as_deref(),
        };
        let to = TeamSideRow {
            guild: &row.to_guild,
            role: None,
            captain: Some(answerer),
            ping: false,
            ping_role: to_ping.as_deref(),
            channel: Some(&row.to_channel),
        };
        let ((attackers, a_side), (defenders, d_side)) = if challenger_attacks {
            ((&challenge.from, from), (&challenge.to, to))
        } else {
            ((&challenge.to, to), (&challenge.from, from))
        };
        let ids = [
            self.player_id(&mut *tx, attackers).await?,
            self.player_id(&mut *tx, defenders).await?,
        ];
        let mut game = NewGame::new(challenge.variant, ids[0], ids[1], 1);
        game.vote_window = Some(i64::from(challenge.hours) * 3600);
        // The game's own place is the challenger's; the other server's is its side's.
        game.guild = Some(&row.from_guild);
        game.channel = row.from_channel.as_deref();
        let game_id = self.begin_game(&mut *tx, &game).await?;
        for (side, team) in [(Side::Attackers, &a_side), (Side::Defenders, &d_side)] {
            self.add_team_side(&mut *tx, game_id, side, team).await?;
        }
        sqlx::query("UPDATE team_challenges SET game_id = $1 WHERE id = $2")
            .bind(game_id)
            .bind(row.id)
            .execute(&mut *tx)
            .await?;
        // Its opening is told in both servers' threads, each opened as it is told.
        self.notice(&mut *tx, game_id, &News::Started).await?;
        Ok(self.load(&mut *tx, game_id).await?.view())
    }

    /// Keeps the thread of the second server of a game between two servers (none: forgotten,
    /// where it is gone).
    pub async fn set_second_thread(
        &self,
        game: i64,
        side: Side,
        thread: Option<&str>,
    ) -> Result<(), ServiceError> {
        sqlx::query("UPDATE team_sides SET thread = $1 WHERE game_id = $2 AND side = $3")
            .bind(thread)
            .bind(game)
            .bind(side_name(side))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn team_challenge(
        &self,
        conn: &mut AnyConnection,
        id: i64,
    ) -> Result<ChallengeRow, ServiceError> {
        sqlx::query_as(
            "SELECT c.id, c.from_guild, c.from_name, c.from_channel, c.to_guild, c.to_name,
                    c.to_channel, c.variant, c.side, c.hours, c.challenger,
                    p.key AS challenger_key, p.name AS challenger_name, c.status, c.expires_at
             FROM team_challenges c JOIN players p ON p.id = c.challenger WHERE c.id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(ServiceError::NoTeamChallenge(id))
    }
}

#[cfg(test)]
mod tests {
    use super::server_id;

    #[test]
    fn a_server_is_named_by_its_digits() {
        assert_eq!(
            server_id(" 800000000000000001 ").unwrap(),
            "800000000000000001"
        );
        for wrong in ["", "abc", "12 34", "123456789012345678901", "<#1>", "-1"] {
            assert!(server_id(wrong).is_err(), "{wrong}");
        }
    }
}

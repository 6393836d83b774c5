//! Challenges: made, accepted (the game begins), declined, withdrawn. An unanswered challenge
//! lapses after a week (the sweeper marks it).

use sqlx::AnyConnection;

use super::begin::NewGame;
use super::load::Loaded;
use super::rows::{ChallengeRow, ChallengeStatus, Flag, SideChoice, CHALLENGE_SELECT};
use super::{Challenge, GameView, Person, Service, ServiceError, DAY};
use crate::rules::{write_position, Side, Variant};

/// The days per move a game may have; the default is 3.
pub const DAYS_PER_MOVE: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
pub const DEFAULT_DAYS: u32 = 3;
/// An unanswered challenge lapses after a week.
pub const CHALLENGE_LIFETIME: i64 = 7 * DAY;
/// The most challenges one player may have open at once.
pub const MAX_OPEN_CHALLENGES: i64 = 5;
/// After challenging someone who did not take it up (declined, withdrawn, lapsed), the wait before
/// challenging them again.
pub const CHALLENGE_COOLDOWN: i64 = 60;

/// One fair coin from the operating system: true when the challenger attacks.
pub(super) fn coin() -> Result<bool, ServiceError> {
    let mut byte = [0u8; 1];
    getrandom::getrandom(&mut byte)
        .map_err(|e| ServiceError::Internal(format!("no randomness: {e}")))?;
    Ok(byte[0] & 1 == 1)
}

/// A challenge's terms, checked: the days per move, and whether the challenger attacks (a random
/// side drawn now).
pub(super) fn terms(
    from: &Person,
    to: &Person,
    side: SideChoice,
    days: Option<u32>,
) -> Result<(u32, bool), ServiceError> {
    if from.key == to.key {
        return Err(ServiceError::SelfChallenge);
    }
    let days = days.unwrap_or(DEFAULT_DAYS);
    if !DAYS_PER_MOVE.contains(&days) {
        return Err(ServiceError::BadDays(days));
    }
    let attacks = match side {
        SideChoice::Attackers => true,
        SideChoice::Defenders => false,
        SideChoice::Random => coin()?,
    };
    Ok((days, attacks))
}

/// What a challenge asks for.
#[derive(Clone, Copy, Debug)]
pub struct Terms<'a> {
    pub variant: &'static Variant,
    pub side: SideChoice,
    /// Days per move; [`DEFAULT_DAYS`] when not given.
    pub days: Option<u32>,
    /// Whether the result changes the players' ratings (the default), or a friendly game.
    pub rated: bool,
    /// A game record or move list the game continues from.
    pub from: Option<&'a str>,
}

impl<'a> Terms<'a> {
    /// A rated game of `variant`, sides drawn by lot, the default days per move.
    pub fn new(variant: &'static Variant) -> Terms<'a> {
        Terms {
            variant,
            side: SideChoice::Random,
            days: None,
            rated: true,
            from: None,
        }
    }
}

/// Which side of a challenge a player answers from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Answering {
    /// The challenged player: accept or decline.
    Challenged,
    /// The challenger: withdraw.
    Challenger,
}

impl From<&ChallengeRow> for Challenge {
    fn from(r: &ChallengeRow) -> Challenge {
        Challenge {
            id: r.id,
            variant: r.variant.0,
            side: r.side,
            days: r.days as u32,
            expires_at: r.expires_at,
            challenger: Person::new(&r.challenger_key, &r.challenger_name),
            challenged: Person::new(&r.challenged_key, &r.challenged_name),
            rated: r.rated.0,
            continued: r
                .from_moves
                .as_deref()
                .and_then(|t| super::continued::read(r.variant.0, t).ok())
                .map(|c| c.steps.len()),
        }
    }
}

impl Service {
    /// Challenges `to` to a rated game of the variant with the id `variant`.
    pub async fn challenge(
        &self,
        from: &Person,
        to: &Person,
        variant: &str,
        side: SideChoice,
        days: Option<u32>,
        channel: Option<&str>,
    ) -> Result<Challenge, ServiceError> {
        let variant: &'static Variant = variant.parse()?;
        let terms = Terms {
            side,
            days,
            ..Terms::new(variant)
        };
        self.offer(from, to, &terms, channel).await
    }

    /// Challenges `to` on the given terms.
    pub async fn offer(
        &self,
        from: &Person,
        to: &Person,
        terms: &Terms<'_>,
        channel: Option<&str>,
    ) -> Result<Challenge, ServiceError> {
        let Terms {
            variant,
            side,
            days,
            rated,
            ..
        } = *terms;
        let (days, challenger_attacks) = self::terms(from, to, side, days)?;
        // A game continued from elsewhere is read now, so that a list that does not replay is
        // refused to the challenger, not to the one who accepts.
        let continued = match terms.from {
            Some(text) => Some(super::continued::read(variant, text)?.steps.len()),
            None => None,
        };
        let now = self.now();
        let mut tx = self.write().await?;
        let a = self.player_id(&mut tx, from).await?;
        let b = self.player_id(&mut tx, to).await?;
        self.ensure_may_challenge(&mut tx, a, b, now).await?;
        let expires_at = now + CHALLENGE_LIFETIME;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO challenges (challenger, challenged, variant, side, challenger_attacks, days,
                                     guild, channel, created_at, expires_at, rated, from_moves)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(a)
        .bind(b)
        .bind(variant.id)
        .bind(side)
        .bind(Flag(challenger_attacks))
        .bind(days as i64)
        .bind(self.scope.guild())
        .bind(channel)
        .bind(now)
        .bind(expires_at)
        .bind(Flag(rated))
        .bind(terms.from)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Challenge {
            rated,
            continued,
            id,
            challenger: from.clone(),
            challenged: to.clone(),
            variant,
            side,
            days,
            expires_at,
        })
    }

    /// Refuses a challenge that would pester: one already open between the two players (either
    /// way), too many open from the challenger, or one too soon after the last that was not
    /// taken up.
    async fn ensure_may_challenge(
        &self,
        conn: &mut AnyConnection,
        from: i64,
        to: i64,
        now: i64,
    ) -> Result<(), ServiceError> {
        let open: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM challenges WHERE status = 'open' AND expires_at > $3
               AND ((challenger = $1 AND challenged = $2) OR (challenger = $2 AND challenged = $1))
             LIMIT 1",
        )
        .bind(from)
        .bind(to)
        .bind(now)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(id) = open {
            return Err(ServiceError::ChallengeOpen(id));
        }
        let mine: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM challenges WHERE challenger = $1 AND status = 'open' AND expires_at > $2",
        )
        .bind(from)
        .bind(now)
        .fetch_one(&mut *conn)
        .await?;
        if mine >= MAX_OPEN_CHALLENGES {
            return Err(ServiceError::TooManyChallenges(MAX_OPEN_CHALLENGES));
        }
        let last: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(created_at) FROM challenges
             WHERE challenger = $1 AND challenged = $2 AND status != 'accepted'",
        )
        .bind(from)
        .bind(to)
        .fetch_one(&mut *conn)
        .await?;
        if let Some(wait) = last
            .map(|t| t + CHALLENGE_COOLDOWN - now)
            .filter(|w| *w > 0)
        {
            return Err(ServiceError::ChallengeCooldown(wait));
        }
        Ok(())
    }

    /// The open challenge `id`, or the only one `who` can answer from their end.
    async fn open_challenge(
        &self,
        conn: &mut AnyConnection,
        who: &Person,
        id: Option<i64>,
        answering: Answering,
    ) -> Result<ChallengeRow, ServiceError> {
        let now = self.now();
        let rows: Vec<ChallengeRow> = match id {
            Some(id) => {
                sqlx::query_as(&format!("{CHALLENGE_SELECT} WHERE c.id = $1"))
                    .bind(id)
                    .fetch_all(&mut *conn)
                    .await?
            }
            None => {
                let column = match answering {
                    Answering::Challenged => "pb.key",
                    Answering::Challenger => "pa.key",
                };
                sqlx::query_as(&format!(
                    "{CHALLENGE_SELECT} WHERE {column} = $1 AND c.status = 'open' AND c.expires_at > $2
                     ORDER BY c.id"
                ))
                .bind(&who.key)
                .bind(now)
                .fetch_all(&mut *conn)
                .await?
            }
        };
        let row = match rows.as_slice() {
            [] => return Err(ServiceError::NoSuchChallenge(id)),
            [row] => row.clone(),
            many => {
                return Err(ServiceError::SeveralChallenges(
                    many.iter().map(|r| r.id).collect(),
                ))
            }
        };
        if !self.scope.sees(row.guild.as_deref()) {
            return Err(ServiceError::NoSuchChallenge(Some(row.id)));
        }
        if row.status != ChallengeStatus::Open {
            return Err(ServiceError::ChallengeClosed(row.id, row.status));
        }
        if row.expires_at <= now {
            return Err(ServiceError::ChallengeClosed(
                row.id,
                ChallengeStatus::Expired,
            ));
        }
        let mine = match answering {
            Answering::Challenged => row.challenged_key == who.key,
            Answering::Challenger => row.challenger_key == who.key,
        };
        if !mine {
            let own = answering == Answering::Challenged && row.challenger_key == who.key;
            return Err(if own {
                ServiceError::OwnChallenge
            } else {
                ServiceError::NotYourChallenge
            });
        }
        Ok(row)
    }

    /// Accepts a challenge: the game begins.
    pub async fn accept(
        &self,
        who: &Person,
        id: Option<i64>,
        thread: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        self.accept_as(who, id, thread, false).await
    }

    /// [`Service::accept`] by a `newcomer` (an account or membership too new for rated play):
    /// a rated challenge is refused, as a rated challenge naming them is. A member who joined
    /// after being challenged (Discord says nothing of a non-member's joining) is looked at
    /// here, when they answer.
    pub async fn accept_as(
        &self,
        who: &Person,
        id: Option<i64>,
        thread: Option<&str>,
        newcomer: bool,
    ) -> Result<GameView, ServiceError> {
        let now = self.now();
        let mut tx = self.write().await?;
        let c = self
            .open_challenge(&mut tx, who, id, Answering::Challenged)
            .await?;
        if newcomer && c.rated.0 {
            return Err(ServiceError::TooNewToRate(who.clone()));
        }
        // Drawn when the challenge was made; a challenge from before that was kept draws now.
        let challenger_attacks = match (c.challenger_attacks, c.side) {
            (Some(attacks), _) => attacks.0,
            (None, SideChoice::Attackers) => true,
            (None, SideChoice::Defenders) => false,
            (None, SideChoice::Random) => coin()?,
        };
        let (attacker, defender) = if challenger_attacks {
            (c.challenger, c.challenged)
        } else {
            (c.challenged, c.challenger)
        };
        // A continued game begins where its record ended; its moves are stored as its first.
        let continued = match &c.from_moves {
            Some(text) => Some(super::continued::read(c.variant.0, text)?),
            None => None,
        };
        let (start, position) = match &continued {
            Some(k) => (
                write_position(k.game.start()),
                write_position(k.game.position()),
            ),
            None => (c.variant.setup.to_string(), c.variant.setup.to_string()),
        };
        let imported = continued.as_ref().map_or(0, |k| k.steps.len() as i64);
        let game_id = self
            .begin_game(
                &mut tx,
                &NewGame {
                    start: &start,
                    position: &position,
                    imported,
                    guild: c.guild.as_deref(),
                    channel: c.channel.as_deref(),
                    thread,
                    // A game continued from a record is not rated: its first moves were not
                    // played here.
                    rated: c.rated.0 && imported == 0,
                    ..NewGame::new(c.variant.0, attacker, defender, c.days)
                },
            )
            .await?;
        for (ply, (side, text)) in continued.iter().flat_map(|k| &k.steps).enumerate() {
            let player = match side {
                Side::Attackers => attacker,
                Side::Defenders => defender,
            };
            sqlx::query(
                "INSERT INTO moves (game_id, ply, text, player, played_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game_id)
            .bind(ply as i64)
            .bind(text)
            .bind(player)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let done = sqlx::query(
            "UPDATE challenges SET status = 'accepted', game_id = $1 WHERE id = $2 AND status = 'open'",
        )
        .bind(game_id)
        .bind(c.id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(ServiceError::ChallengeClosed(
                c.id,
                ChallengeStatus::Accepted,
            ));
        }
        let loaded: Loaded = self.load(&mut tx, game_id).await?;
        tx.commit().await?;
        Ok(loaded.view())
    }

    /// Declines a challenge made to `who`.
    pub async fn decline(&self, who: &Person, id: Option<i64>) -> Result<Challenge, ServiceError> {
        self.close_challenge(who, id, Answering::Challenged, ChallengeStatus::Declined)
            .await
    }

    /// Withdraws a challenge that `who` made.
    pub async fn withdraw(&self, who: &Person, id: Option<i64>) -> Result<Challenge, ServiceError> {
        self.close_challenge(who, id, Answering::Challenger, ChallengeStatus::Withdrawn)
            .await
    }

    async fn close_challenge(
        &self,
        who: &Person,
        id: Option<i64>,
        answering: Answering,
        status: ChallengeStatus,
    ) -> Result<Challenge, ServiceError> {
        let mut tx = self.write().await?;
        let c = self.open_challenge(&mut tx, who, id, answering).await?;
        sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
            .bind(status)
            .bind(c.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Challenge::from(&c))
    }
}

//! Notices: a game's news kept for the front end to deliver later (a reminder or timeout of the
//! sweeper, or a post that Discord could not take). A notice is data: what happened, in which
//! game, by whom. The sentence is made when it is delivered, in the front end's style.

use sqlx::AnyConnection;

use super::{GameView, Lease, Person, Service, ServiceError};
use crate::tournament::Status;

/// What happened in a game: the news a front end posts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// The game has begun.
    Started,
    /// A move, in canonical text.
    Moved {
        by: Person,
        text: String,
    },
    /// A berserk chain ended by its player.
    TurnEnded {
        by: Person,
    },
    Resigned {
        by: Person,
    },
    Aborted {
        by: Person,
    },
    DrawOffered {
        by: Person,
    },
    DrawAgreed {
        by: Person,
    },
    DrawDeclined {
        by: Person,
    },
    /// The player to move has a day (half a day in one-day games) left.
    Reminder {
        to: Person,
    },
    /// The player to move ran out of time and lost.
    Timeout {
        late: Person,
    },
    /// Where the game stands (a notice kept from before notices were data).
    Update,
    /// A player asks to take back their last turn (`turn`: its moves, for the opponent to see).
    TakebackAsked {
        by: Person,
        turn: String,
    },
    /// The opponent agreed: the asker's last turn (`turn`, numbered as the record numbers it) is
    /// taken back, and with it the opponent's reply if one came after it (`turns`: 1 or 2).
    TakebackAccepted {
        by: Person,
        turns: u8,
        turn: String,
    },
    TakebackDeclined {
        by: Person,
    },
    /// A reply played at once from `by`'s forecast, in canonical text.
    Forecast {
        by: Person,
        text: String,
    },
    /// `by` gave their opponent `days` more on the current move.
    MoreTime {
        by: Person,
        days: u32,
    },
    /// A team's window of votes closed: the turn with the most votes (the tally's first) was
    /// played in its name.
    Voted {
        by: Person,
        tally: super::VoteTally,
    },
    /// A team's window closed without a vote, the `empty`th in a row: it is open again.
    NoVotes {
        team: Person,
        empty: u32,
    },
}

/// The kind of a notice, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    Started,
    Moved,
    TurnEnded,
    Resigned,
    Aborted,
    DrawOffered,
    DrawAgreed,
    DrawDeclined,
    Reminder,
    Timeout,
    Update,
    TakebackAsked,
    TakebackAccepted,
    TakebackDeclined,
    Forecast,
    MoreTime,
    Voted,
    NoVotes,
    /// A tournament's news after this game ended: its detail is the tournament's id.
    Tournament,
}

/// The stored name, also shown by the local mode.
impl std::fmt::Display for NoticeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl NoticeKind {
    pub(super) const ALL: [NoticeKind; 19] = [
        NoticeKind::Started,
        NoticeKind::Moved,
        NoticeKind::TurnEnded,
        NoticeKind::Resigned,
        NoticeKind::Aborted,
        NoticeKind::DrawOffered,
        NoticeKind::DrawAgreed,
        NoticeKind::DrawDeclined,
        NoticeKind::Reminder,
        NoticeKind::Timeout,
        NoticeKind::Update,
        NoticeKind::TakebackAsked,
        NoticeKind::TakebackAccepted,
        NoticeKind::TakebackDeclined,
        NoticeKind::Tournament,
        NoticeKind::Forecast,
        NoticeKind::MoreTime,
        NoticeKind::Voted,
        NoticeKind::NoVotes,
    ];

    /// The stored name, also shown by the local mode.
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::Started => "started",
            NoticeKind::Moved => "moved",
            NoticeKind::TurnEnded => "turn_ended",
            NoticeKind::Resigned => "resigned",
            NoticeKind::Aborted => "aborted",
            NoticeKind::DrawOffered => "draw_offered",
            NoticeKind::DrawAgreed => "draw_agreed",
            NoticeKind::DrawDeclined => "draw_declined",
            NoticeKind::Reminder => "reminder",
            NoticeKind::Timeout => "timeout",
            NoticeKind::Update => "update",
            NoticeKind::TakebackAsked => "takeback_asked",
            NoticeKind::TakebackAccepted => "takeback_accepted",
            NoticeKind::TakebackDeclined => "takeback_declined",
            NoticeKind::Tournament => "tournament",
            NoticeKind::Forecast => "forecast",
            NoticeKind::MoreTime => "more_time",
            NoticeKind::Voted => "voted",
            NoticeKind::NoVotes => "no_votes",
        }
    }
}

impl News {
    /// The stored form: kind, the player it is about, and the move.
    fn parts(
        &self,
    ) -> (
        NoticeKind,
        Option<&Person>,
        Option<std::borrow::Cow<'_, str>>,
    ) {
        match self {
            News::Started => (NoticeKind::Started, None, None),
            News::Moved { by, text } => (NoticeKind::Moved, Some(by), Some(text.into())),
            News::TurnEnded { by } => (NoticeKind::TurnEnded, Some(by), None),
            News::Resigned { by } => (NoticeKind::Resigned, Some(by), None),
            News::Aborted { by } => (NoticeKind::Aborted, Some(by), None),
            News::DrawOffered { by } => (NoticeKind::DrawOffered, Some(by), None),
            News::DrawAgreed { by } => (NoticeKind::DrawAgreed, Some(by), None),
            News::DrawDeclined { by } => (NoticeKind::DrawDeclined, Some(by), None),
            News::Reminder { to } => (NoticeKind::Reminder, Some(to), None),
            News::Timeout { late } => (NoticeKind::Timeout, Some(late), None),
            News::Update => (NoticeKind::Update, None, None),
            News::TakebackAsked { by, turn } => {
                (NoticeKind::TakebackAsked, Some(by), Some(turn.into()))
            }
            News::TakebackAccepted { by, turns, turn } => (
                NoticeKind::TakebackAccepted,
                Some(by),
                Some(format!("{turns} {turn}").into()),
            ),
            News::TakebackDeclined { by } => (NoticeKind::TakebackDeclined, Some(by), None),
            News::Forecast { by, text } => (NoticeKind::Forecast, Some(by), Some(text.into())),
            News::MoreTime { by, days } => (
                NoticeKind::MoreTime,
                Some(by),
                Some(days.to_string().into()),
            ),
            News::Voted { by, tally } => (NoticeKind::Voted, Some(by), Some(tally.stored().into())),
            News::NoVotes { team, empty } => (
                NoticeKind::NoVotes,
                Some(team),
                Some(empty.to_string().into()),
            ),
        }
    }

    pub fn kind(&self) -> NoticeKind {
        self.parts().0
    }

    /// The players a post of this news pings: the one it addresses, never anyone it only names.
    /// A player in their quiet hours is not pinged (what was held is told when they end).
    pub fn addressees<'a>(&'a self, view: &'a GameView) -> Vec<&'a Person> {
        let mut called = self.called(view);
        called.retain(|p| !view.is_quiet(p) && !p.is_team());
        called
    }

    /// The players the news calls on, quiet or not.
    fn called<'a>(&'a self, view: &'a GameView) -> Vec<&'a Person> {
        match self {
            News::Reminder { to } => vec![to],
            News::DrawOffered { by } | News::TakebackAsked { by, .. } => {
                view.players.iter().filter(|p| p.key != by.key).collect()
            }
            News::DrawDeclined { .. } | News::TakebackDeclined { .. } => Vec::new(),
            _ => match &view.waiting_for {
                Some(_) if view.bot_to_move() => Vec::new(),
                Some(next) => vec![next],
                None => view.people().collect(),
            },
        }
    }

    /// Whether this news calls on `to` to act (their turn, a reminder): what a direct message
    /// tells a player who asked for them.
    pub fn calls_on(&self, view: &GameView, to: &Person) -> bool {
        match self {
            News::Reminder { to: reminded } => reminded.key == to.key,
            News::Started
            | News::Moved { .. }
            | News::Forecast { .. }
            | News::Voted { .. }
            | News::TurnEnded { .. }
            | News::TakebackAccepted { .. } => {
                view.waiting_for.as_ref().is_some_and(|w| w.key == to.key)
            }
            _ => false,
        }
    }

    /// Whether the news is posted where the game is played. A decline is not: it only answers
    /// the one who declined (in place of the offer's buttons).
    pub fn posted(&self) -> bool {
        !matches!(
            self,
            News::DrawDeclined { .. } | News::TakebackDeclined { .. }
        )
    }

    /// Whether a post of this news carries the board as it is now (a move, the start).
    pub fn shows_board(&self) -> bool {
        matches!(
            self,
            News::Started
                | News::Moved { .. }
                | News::Forecast { .. }
                | News::Voted { .. }
                | News::TurnEnded { .. }
                | News::Update
        )
    }
}

/// What became of one try to deliver a notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    Delivered,
    /// Failed for now (Discord down, slow, rate-limited): tried again later, less and less often.
    Retry,
    /// Can never be delivered (the bot was removed, the channel is gone): not tried again.
    GiveUp,
}

impl From<bool> for Delivery {
    fn from(delivered: bool) -> Delivery {
        if delivered {
            Delivery::Delivered
        } else {
            Delivery::Retry
        }
    }
}

/// Tries of a notice before it is given up.
pub const MAX_DELIVERY_ATTEMPTS: i64 = 10;
/// The wait after the first failed try; it doubles after each further one, up to six hours.
const FIRST_RETRY: i64 = 60;
const LAST_RETRY: i64 = 6 * 3600;
/// Delivered and given-up notices, and answered challenges, are kept this long.
pub const KEPT_FOR: i64 = 30 * super::DAY;

/// News kept for delivery.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Notice {
    pub id: i64,
    pub game_id: i64,
    pub kind: NoticeKind,
    actor_key: Option<String>,
    actor_name: Option<String>,
    detail: Option<String>,
}

impl Notice {
    /// The tournament whose news this is, for a notice of the kind [`NoticeKind::Tournament`].
    pub fn tournament(&self) -> Option<i64> {
        (self.kind == NoticeKind::Tournament)
            .then(|| self.detail.as_deref()?.split(':').next()?.parse().ok())
            .flatten()
    }

    /// Whether this tournament notice is the one of the result that ended the tournament (the
    /// one that names the winner; earlier ones delivered late do not).
    pub fn ends_tournament(&self) -> bool {
        self.tournament().is_some()
            && self
                .detail
                .as_deref()
                .is_some_and(|d| d.ends_with(":final"))
    }

    /// The news this notice keeps. A row missing the player or move its kind needs (which only
    /// damaged data can be) reads as where the game stands.
    pub fn news(&self) -> News {
        let actor = match (&self.actor_key, &self.actor_name) {
            (Some(key), Some(name)) => Some(Person::new(key, name)),
            _ => None,
        };
        let text = self.detail.clone();
        match (self.kind, actor, text) {
            (NoticeKind::Started, _, _) => News::Started,
            (NoticeKind::Moved, Some(by), Some(text)) => News::Moved { by, text },
            (NoticeKind::TurnEnded, Some(by), _) => News::TurnEnded { by },
            (NoticeKind::Resigned, Some(by), _) => News::Resigned { by },
            (NoticeKind::Aborted, Some(by), _) => News::Aborted { by },
            (NoticeKind::DrawOffered, Some(by), _) => News::DrawOffered { by },
            (NoticeKind::DrawAgreed, Some(by), _) => News::DrawAgreed { by },
            (NoticeKind::DrawDeclined, Some(by), _) => News::DrawDeclined { by },
            (NoticeKind::Reminder, Some(to), _) => News::Reminder { to },
            (NoticeKind::Timeout, Some(late), _) => News::Timeout { late },
            (NoticeKind::TakebackAsked, Some(by), Some(turn)) => News::TakebackAsked { by, turn },
            // The count, then the turn (older notices hold the count alone, or nothing: one).
            (NoticeKind::TakebackAccepted, Some(by), detail) => {
                let detail = detail.unwrap_or_default();
                let (turns, turn) = detail.split_once(' ').unwrap_or((&detail, ""));
                let (turns, turn) = (turns.parse().unwrap_or(1), turn.to_string());
                News::TakebackAccepted { by, turns, turn }
            }
            (NoticeKind::TakebackDeclined, Some(by), _) => News::TakebackDeclined { by },
            (NoticeKind::Forecast, Some(by), Some(text)) => News::Forecast { by, text },
            (NoticeKind::MoreTime, Some(by), Some(days)) => match days.parse() {
                Ok(days) => News::MoreTime { by, days },
                Err(_) => News::Update,
            },
            (NoticeKind::Voted, Some(by), Some(tally)) => match super::VoteTally::read(&tally) {
                Some(tally) => News::Voted { by, tally },
                None => News::Update,
            },
            (NoticeKind::NoVotes, Some(team), Some(empty)) => match empty.parse() {
                Ok(empty) => News::NoVotes { team, empty },
                Err(_) => News::Update,
            },
            _ => News::Update,
        }
    }
}

/// The most notices one process claims at a time.
pub const CLAIMED_AT_ONCE: i64 = 50;

/// How long a claim on work that other processes could take over lasts by default (a notice being
/// delivered, the bot's turn being searched), in seconds: a process that dies holding one leaves
/// the work to another after this long.
pub const LEASE: i64 = 120;

const NOTICE_SELECT: &str =
    "SELECT n.id, n.game_id, n.kind, p.key AS actor_key, p.name AS actor_name, n.detail
     FROM notices n LEFT JOIN players p ON p.id = n.actor";

impl Service {
    /// Keeps a game's news for later delivery (a post that failed now).
    pub async fn leave_notice(&self, game: i64, news: &News) -> Result<Notice, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        self.notice(&mut conn, game, news).await
    }

    /// Writes a notice on `conn` (inside the caller's transaction, when it is one).
    pub(super) async fn notice(
        &self,
        conn: &mut AnyConnection,
        game: i64,
        news: &News,
    ) -> Result<Notice, ServiceError> {
        let (kind, actor, detail) = news.parts();
        let actor = match actor {
            Some(p) => Some(self.player_id(conn, p).await?),
            None => None,
        };
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO notices (game_id, kind, actor, detail, created_at) VALUES ($1, $2, $3, $4, $5)
             RETURNING id",
        )
        .bind(game)
        .bind(kind)
        .bind(actor)
        .bind(detail.map(|d| d.into_owned()))
        .bind(self.now())
        .fetch_one(&mut *conn)
        .await?;
        Ok(sqlx::query_as(&format!("{NOTICE_SELECT} WHERE n.id = $1"))
            .bind(id)
            .fetch_one(&mut *conn)
            .await?)
    }

    /// Keeps a tournament's news for delivery, on `conn`: the game `game` (of the tournament) has
    /// ended, and the standings, the round or the tournament itself have moved on.
    pub(super) async fn tournament_notice(
        &self,
        conn: &mut AnyConnection,
        game: i64,
        tournament: i64,
    ) -> Result<(), ServiceError> {
        let status: Status = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1")
            .bind(tournament)
            .fetch_one(&mut *conn)
            .await?;
        let detail = if status == Status::Finished {
            format!("{tournament}:final")
        } else {
            tournament.to_string()
        };
        sqlx::query(
            "INSERT INTO notices (game_id, kind, detail, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(game)
        .bind(NoticeKind::Tournament)
        .bind(detail)
        .bind(self.now())
        .execute(conn)
        .await?;
        Ok(())
    }

    /// Notices due for delivery (not delivered, not given up, not waiting for a retry), oldest
    /// first, whether or not a process has claimed them: what is still to be delivered.
    pub async fn pending_notices(&self) -> Result<Vec<Notice>, ServiceError> {
        Ok(sqlx::query_as(&format!(
            "{NOTICE_SELECT} WHERE n.delivered_at IS NULL AND n.given_up_at IS NULL
               AND n.next_try_at <= $1 ORDER BY n.id"
        ))
        .bind(self.now())
        .fetch_all(&self.pool)
        .await?)
    }

    /// Claims up to [`CLAIMED_AT_ONCE`] notices due for delivery, oldest first, for this process
    /// to deliver and then report with [`Service::tried`]. A notice another process holds is
    /// skipped (not waited for) until its lease runs out: then, the other process having died
    /// or stalled, it is claimed again. So each notice is delivered once by whoever claims it.
    pub async fn claim_notices(&self) -> Result<Vec<Notice>, ServiceError> {
        self.claim_notices_up_to(CLAIMED_AT_ONCE).await
    }

    /// Claims up to `most` notices due for delivery, as [`Service::claim_notices`] does: a small
    /// batch when each may take long to deliver (a game's thread opened, its board drawn), so
    /// that the lease does not run out in the middle of it.
    pub async fn claim_notices_up_to(&self, most: i64) -> Result<Vec<Notice>, ServiceError> {
        let lease = self.new_lease();
        let now = lease.now;
        let engine = crate::store::Engine::of_pool(&self.pool);
        // On SQLite the write lock; on PostgreSQL only the rows' own locks, skipped by the other
        // claimers, so claiming never waits on the game writes' lock.
        let mut tx = match engine {
            crate::store::Engine::Sqlite => self.write().await?,
            crate::store::Engine::Postgres => self.pool.begin().await?,
        };
        let ids: Vec<i64> = sqlx::query_scalar(&format!(
            "SELECT id FROM notices
             WHERE delivered_at IS NULL AND given_up_at IS NULL AND next_try_at <= $1
               AND (claimed_until IS NULL OR claimed_until <= $2)
             ORDER BY id LIMIT $3{}",
            engine.skip_locked()
        ))
        .bind(now)
        .bind(now)
        .bind(most.max(1))
        .fetch_all(&mut *tx)
        .await?;
        let mut claimed = Vec::with_capacity(ids.len());
        for id in ids {
            self.hold_notice(&mut tx, id, lease).await?;
            claimed.push(
                sqlx::query_as(&format!("{NOTICE_SELECT} WHERE n.id = $1"))
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?,
            );
        }
        tx.commit().await?;
        Ok(claimed)
    }

    /// Claims a notice for this process until its lease runs out: one just written in `conn`'s
    /// transaction by the process that delivers it at once (the bot's turn), or one claimed by
    /// [`Service::claim_notices`]. No other process's sweeper posts it meanwhile.
    pub(super) async fn hold_notice(
        &self,
        conn: &mut AnyConnection,
        notice: i64,
        lease: Lease,
    ) -> Result<(), ServiceError> {
        sqlx::query("UPDATE notices SET claimed_until = $1 WHERE id = $2")
            .bind(lease.until)
            .bind(notice)
            .execute(conn)
            .await?;
        Ok(())
    }

    /// Records how a try to deliver a notice went: delivered, to be tried again after a wait that
    /// doubles each time (given up after [`MAX_DELIVERY_ATTEMPTS`]), or given up.
    pub async fn tried(&self, notice: i64, how: Delivery) -> Result<(), ServiceError> {
        let now = self.now();
        match how {
            Delivery::Delivered => return self.delivered(notice).await,
            Delivery::Retry => {
                sqlx::query(
                    "UPDATE notices SET attempts = attempts + 1, claimed_until = NULL,
                        next_try_at = $1 + CASE
                            WHEN attempts >= 20 OR ($2 << CAST(attempts AS INTEGER)) > $3 THEN $3
                            ELSE $2 << CAST(attempts AS INTEGER) END,
                        given_up_at = CASE WHEN attempts + 1 >= $4 THEN $5 ELSE NULL END
                     WHERE id = $6",
                )
                .bind(now)
                .bind(FIRST_RETRY)
                .bind(LAST_RETRY)
                .bind(MAX_DELIVERY_ATTEMPTS)
                .bind(now)
                .bind(notice)
                .execute(&self.pool)
                .await?;
            }
            Delivery::GiveUp => {
                sqlx::query(
                    "UPDATE notices SET attempts = attempts + 1, given_up_at = $1, claimed_until = NULL
                     WHERE id = $2",
                )
                .bind(now)
                .bind(notice)
                .execute(&self.pool)
                .await?;
            }
        }
        Ok(())
    }

    /// Forgets what no longer matters: notices delivered or given up, and challenges answered or
    /// lapsed, more than [`KEPT_FOR`] ago.
    pub async fn prune(&self) -> Result<(), ServiceError> {
        let before = self.now() - KEPT_FOR;
        sqlx::query("DELETE FROM notices WHERE COALESCE(delivered_at, given_up_at) < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM challenges WHERE status != 'open' AND expires_at < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks a notice delivered.
    pub async fn delivered(&self, notice: i64) -> Result<(), ServiceError> {
        sqlx::query("UPDATE notices SET delivered_at = $1, claimed_until = NULL WHERE id = $2")
            .bind(self.now())
            .bind(notice)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

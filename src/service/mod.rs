//! The game service: the use cases that `commands::apply` (and so both front ends) and the tests
//! call. Every change is checked by the rules core and stored in one transaction; moves are the
//! truth and the cached position is checked against them. One file each:
//!
//! - `begin.rs` and `finish.rs`: a game's life in one place; every game is written by
//!   `begin_game`, every result by `finish` (then the rating, the notice, the tournament);
//! - `challenges.rs`: challenges made, accepted (the game begins), declined, withdrawn;
//! - `continued.rs`: games begun from a record or move list of elsewhere;
//! - `moves.rs`: moves and the end of a berserk chain;
//! - `endings.rs`: resignation, draws offered, agreed and declined, games called off;
//! - `takeback.rs`: takebacks asked, agreed and declined;
//! - `forecasts.rs`: lines of moves kept ahead, each reply played at once; `notes.rs`: a
//!   player's private note on a game, and more time given to the opponent;
//! - `views.rs`: the board, a player's games, records, GIFs, imports;
//! - `deadlines.rs`: reminders, losses on time and lapsed challenges (the sweeper);
//! - `bot.rs`: games against taflbot, its turns on the blocking pool, hints;
//! - `ratings.rs`: a rated result's change, leaderboards, profiles and their chart;
//! - `vacation.rs`: vacations and direct-message settings; `letters.rs`: a player's hours (time
//!   zone, quiet hours, daily digest), the digests due and what quiet hours held; `quiet.rs`:
//!   the arithmetic of those hours;
//! - `teams/`: team games, a server's members voting each turn; their windows of votes;
//! - `tournaments/`: tournaments of two-game matches, their rounds paired as games end;
//! - `rematch.rs`: a finished game's terms again, the sides swapped;
//! - `reviews.rs`: the engine's review of a finished game, kept once made;
//! - `puzzles/`: puzzles cut from games, tried and rated, and the daily puzzle;
//! - `notices.rs`: the news of a game, kept as data for later delivery, and whom it addresses;
//!   `shown.rs`: a kept notice made ready to show, the same for both front ends;
//! - `load.rs` (loading and replaying a game), `find.rs` (the game a player means), `rows.rs`
//!   (typed rows and stored enums), `clock.rs` (the clock, which tests set), `error.rs` (refusals);
//! - `text/`: every sentence a player reads.

mod begin;
mod bot;
mod challenges;
mod clock;
mod continued;
mod deadlines;
mod endings;
mod error;
mod find;
mod finish;
mod forecasts;
mod letters;
mod load;
mod moves;
mod notes;
mod notices;
mod puzzles;
pub mod quiet;
mod ratings;
mod rematch;
mod reviews;
mod rows;
pub mod shown;
mod takeback;
mod teams;
pub mod text;
mod themes;
mod thinking;
mod tournaments;
mod vacation;
mod views;

pub use bot::{BotMoved, Hint, MAX_BOT_GAMES};
pub use challenges::{
    Terms, CHALLENGE_COOLDOWN, CHALLENGE_LIFETIME, DAYS_PER_MOVE, DEFAULT_DAYS, MAX_OPEN_CHALLENGES,
};
pub use clock::{rest_or_stop, Clock, Lease, SystemClock, TestClock, DAY};
pub use error::{Ending, ServiceError};
pub use forecasts::{ForecastDone, Forecasts, MAX_FORECAST_LINES, MAX_FORECAST_MOVES};
pub use letters::{Digest, Held, Hours, HoursChange, DEFAULT_DIGEST_HOUR};
pub use notes::{Note, NoteDone, MAX_MORE_TIME_DAYS, MAX_NOTE_CHARS};
pub use notices::{
    Delivery, News, Notice, NoticeKind, CLAIMED_AT_ONCE, KEPT_FOR, LEASE, MAX_DELIVERY_ATTEMPTS,
};
pub use puzzles::{
    cutting_order, read_puzzle, read_puzzles, DailyPuzzle, DailySetting, Found, Progress,
    PuzzleRecord, PuzzleShown, PuzzleView, SolveStep, Solving, CORPUS, CORPUS_BATCH,
    CORPUS_VARIANT, DAILY_ATTEMPTS, GAMES_BATCH,
};
pub use ratings::{
    Leaderboard, Profile, Ranked, Standing, Tally, DAILY_GAIN, LEADERBOARD_PAGE, MAX_HISTORY,
    PAIR_RESULTS_PER_DAY, RATED_ACCOUNT_DAYS, RATED_MEMBER_DAYS, REAL_LENGTH,
};
pub use rematch::Rematch;
pub use reviews::GameReview;
pub use rows::{ChallengeStatus, GameResult, GameStatus, SideChoice};
pub use takeback::Takeback;
pub use teams::{
    team_person, Member, Membership, NoRoster, Roster, ServerSeen, TeamAnswer, TeamChallenge,
    TeamGames, TeamLine, TeamOpponent, TeamRole, TeamTerms, VoteTally, Voted, WindowClosed,
    DECLINED_PAUSE, DEFAULT_WINDOW_HOURS, EMPTY_WINDOWS_LOSE, LOCAL_SERVER, MAX_TEAM_CHALLENGES,
    MAX_TEAM_GAMES, MAX_TEAM_GAMES_STARTED, MAX_TURN_MOVES, MAX_WINDOW_HOURS, MIN_WINDOW_HOURS,
    RECORD_SHOWN, TALLY_SHOWN,
};
pub use themes::ThemeSetting;
pub use thinking::{HINT_MEMORY, HINT_PAUSE, HINT_QUEUE, HINT_SHARE};
pub use tournaments::Status as TournamentStatus;
pub use tournaments::{
    half_points, Crosstable, Entrant, Format, StandingLine, Started, TournamentDone,
    TournamentTerms, TournamentView, LAPSES_AFTER_DAYS, MAX_OPEN_PER_CREATOR, MAX_OPEN_TOURNAMENTS,
    MAX_PLAYERS, MIN_PLAYERS, TIMEOUTS_TO_WITHDRAW,
};
pub use vacation::{Vacation, DEFAULT_VACATION_DAYS};
pub use views::{MAX_IMPORT_BYTES, MAX_IMPORT_MOVES};

use std::sync::Arc;

use sqlx::{AnyConnection, AnyPool};

use crate::render::Renderer;
use crate::rules::{BySide, Outcome, Side, Variant};

/// A person, as the front end knows them: a stable key (a Discord id, a local name) and a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub key: String,
    pub name: String,
}

impl Person {
    pub fn new(key: impl Into<String>, name: impl Into<String>) -> Person {
        Person {
            key: key.into(),
            name: name.into(),
        }
    }
}

/// An open or answered challenge.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: i64,
    pub challenger: Person,
    pub challenged: Person,
    pub variant: &'static Variant,
    pub side: SideChoice,
    pub days: u32,
    pub expires_at: i64,
    /// Whether the game's result will change the players' ratings.
    pub rated: bool,
    /// A game continued from elsewhere: the moves it begins after.
    pub continued: Option<usize>,
}

/// A game as a player sees it.
#[derive(Clone, Debug)]
pub struct GameView {
    pub id: i64,
    pub variant: &'static Variant,
    /// The players by side.
    pub players: BySide<Person>,
    pub position: String,
    pub to_move: Side,
    /// The player whose move it is, while the game goes on.
    pub waiting_for: Option<Person>,
    pub outcome: Option<Outcome>,
    /// `aborted` games end with no result.
    pub aborted: bool,
    pub deadline: i64,
    pub channel: Option<String>,
    pub thread: Option<String>,
    pub draw_offer: Option<Person>,
    /// The last turn in canonical text.
    pub last_turn: Vec<String>,
    pub turns: usize,
    /// A berserk chain is open: the player to move may capture again with the same piece or end
    /// the turn.
    pub open_chain: bool,
    /// The square of the piece that may capture again, while a chain is open.
    pub chain: Option<crate::rules::Square>,
    /// In a game against the engine: the side it plays and its level.
    pub bot: Option<(Side, u8)>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The result was not rated because the pair had had as many rated results in a day as
    /// count.
    pub pair_limited: bool,
    /// Whether each player is on vacation (their clocks stopped).
    pub away: BySide<bool>,
    /// Whether each player is in their quiet hours: not pinged, not sent direct messages.
    pub quiet: BySide<bool>,
    /// The player who asked to take back their last turn, until the opponent answers.
    pub takeback: Option<Person>,
    /// Once a rated game has ended: the players' ratings before and after.
    pub ratings: Option<BySide<RatingChange>>,
    /// A team game: the length of each turn's window of votes, in seconds.
    pub vote_window: Option<i64>,
    /// A game between two servers: the place of the second (the game's own channel and thread
    /// are the first's, the server that challenged).
    pub second: Option<SecondPlace>,
    /// In a game between two servers: the side whose server's thread this view is shown in
    /// (none: the game as a whole).
    pub seen_from: Option<Side>,
}

/// Where the second server of a game between two servers plays: its side, and its channel and
/// thread there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondPlace {
    pub guild: String,
    pub side: Side,
    pub channel: Option<String>,
    pub thread: Option<String>,
}

impl SecondPlace {
    /// Where the posts for the team playing `side` go in a game whose second place (in a game
    /// between two servers) is `second` and whose own place is `first`.
    pub fn place_of<'a>(
        second: Option<&'a SecondPlace>,
        side: Side,
        first: Option<&'a str>,
    ) -> Option<&'a str> {
        match second {
            Some(second) if second.side == side => {
                second.thread.as_deref().or(second.channel.as_deref())
            }
            _ => first,
        }
    }
}

/// A player's rating in a variant before and after a result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub before: f64,
    pub after: f64,
}

impl GameView {
    /// The channel or thread the game's posts go to.
    pub fn place(&self) -> Option<&str> {
        self.thread.as_deref().or(self.channel.as_deref())
    }

    /// Where the posts for the team playing `side` go: in a game between two servers, the
    /// thread (or channel) of that side's server; otherwise the game's.
    pub fn place_of(&self, side: Side) -> Option<&str> {
        SecondPlace::place_of(self.second.as_ref(), side, self.place())
    }

    /// In a game between two servers: the side whose server's thread is the game's own.
    pub fn first_side(&self) -> Option<Side> {
        self.second.as_ref().map(|s| s.side.other())
    }

    /// Whether taflbot is to move, in a game against it that goes on.
    pub fn bot_to_move(&self) -> bool {
        self.waiting_for.is_some() && self.bot.is_some_and(|(side, _)| side == self.to_move)
    }

    /// The players who are people: both, or taflbot's opponent.
    pub fn people(&self) -> impl Iterator<Item = &Person> {
        let bot = self.bot.map(|(side, _)| side);
        self.players
            .sides()
            .filter(move |(side, _)| Some(*side) != bot)
            .map(|(_, p)| p)
    }

    /// The opponent of `who` (or `who`, when they do not play).
    pub fn opponent_of<'a>(&'a self, who: &'a Person) -> &'a Person {
        self.players
            .iter()
            .find(|p| p.key != who.key)
            .unwrap_or(who)
    }

    /// Whether `who` plays here and is in their quiet hours.
    pub fn is_quiet(&self, who: &Person) -> bool {
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .any(|side| self.players[side].key == who.key && self.quiet[side])
    }
}

/// What a use case did to a game: the game after it, the news, and the picture when a move made it.
pub struct Played {
    pub view: GameView,
    pub news: News,
    pub png: Vec<u8>,
    /// The replies that forecasts played at once after this move, in order, each with the game
    /// after it.
    pub forecast: Vec<Played>,
}

impl std::fmt::Debug for Played {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Played({:?}, {:?}, {} bytes of picture)",
            self.view.id,
            self.news,
            self.png.len()
        )
    }
}

/// What a use case did to a game that needs no new picture (a resignation, a draw offered): the
/// game after it, and the news.
#[derive(Debug)]
pub struct GameNews {
    pub view: GameView,
    pub news: News,
}

/// A game to take away: where it stands, its record, and a GIF of it when one fits.
pub struct Exported {
    pub view: GameView,
    pub record: String,
    pub gif: Option<Vec<u8>>,
    /// The record carries the caller's private note: it is shown to them alone.
    pub private: bool,
}

/// A game read from a move list.
pub struct Imported {
    pub record: String,
    /// The whole game, unless the file would pass the size allowed.
    pub gif: Option<Vec<u8>>,
    pub png: Vec<u8>,
    pub summary: String,
}

/// A player's game in a list.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: i64,
    pub variant: &'static Variant,
    pub opponent: Person,
    pub your_turn: bool,
    pub deadline: i64,
    /// The player to move is on vacation: the deadline waits for them.
    pub paused: bool,
}

/// Where a use case is asked from, which decides the games it may see: a game belongs to the
/// Discord server it was started in and is seen only there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// The local mode, the sweeper and the tests: every game.
    #[default]
    Everywhere,
    /// A Discord server: its own games (and games from before servers were recorded).
    Server(String),
    /// A direct message: no server, so no game.
    Direct,
}

impl Scope {
    /// Whether a game of `guild` (None: the local mode, or from before servers were kept) is seen.
    fn sees(&self, guild: Option<&str>) -> bool {
        match (self, guild) {
            (Scope::Everywhere, _) | (_, None) => true,
            (Scope::Server(here), Some(there)) => here == there,
            (Scope::Direct, Some(_)) => false,
        }
    }

    /// The rows this scope sees, as the parameter `$n` of the condition
    /// `($n = '*' OR guild IS NULL OR guild = $n)`: every row, or those of no server and the
    /// server's own.
    fn guild_param(&self) -> &str {
        match self {
            Scope::Everywhere => "*",
            Scope::Server(g) => g,
            Scope::Direct => "",
        }
    }

    /// The server a new challenge is made in, and whose settings (its theme) hold here.
    fn guild(&self) -> Option<&str> {
        match self {
            Scope::Server(g) => Some(g),
            _ => None,
        }
    }
}

/// The service. Cheap to clone; share it between tasks.
#[derive(Clone)]
pub struct Service {
    scope: Scope,
    pool: AnyPool,
    clock: Arc<dyn Clock>,
    renderer: Arc<Renderer>,
    replayed: Arc<load::Replayed>,
    /// Places for CPU work (pictures, GIFs, long replays) on the blocking pool.
    cpu: Arc<tokio::sync::Semaphore>,
    /// The engine's places for the bot's turns and for hints, and the hints' rationing.
    thinking: Arc<thinking::Thinking>,
    bot: Arc<bot::BotQueue>,
    /// Vacation allowed per player and calendar year, in seconds.
    vacation_allowance: i64,
    /// How long this process's claims on shared work last, in seconds (see [`LEASE`]).
    lease: i64,
    /// Where a closing window asks whether its voters are still members.
    roster: Arc<dyn Roster>,
}

/// Runs `work` on tokio's blocking pool once `places` has room for it.
async fn on_pool<T: Send + 'static>(
    places: &tokio::sync::Semaphore,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ServiceError> {
    let _place = places
        .acquire()
        .await
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ServiceError::Internal(e.to_string()))
}

/// How many pieces of CPU work run at once: all cores but one (for the async workers), at least one
/// and at most four.
fn cpu_places() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).clamp(1, 4)
}

impl Service {
    pub fn new(pool: AnyPool, clock: Arc<dyn Clock>) -> Service {
        Service {
            scope: Scope::Everywhere,
            pool,
            clock,
            renderer: Arc::new(Renderer::new()),
            replayed: Arc::new(load::Replayed::default()),
            cpu: Arc::new(tokio::sync::Semaphore::new(cpu_places())),
            thinking: Arc::new(thinking::Thinking::new(
                cpu_places(),
                cpu_places().div_ceil(2),
            )),
            bot: Arc::default(),
            vacation_allowance: i64::from(DEFAULT_VACATION_DAYS) * DAY,
            lease: LEASE,
            roster: Arc::new(NoRoster),
        }
    }

    /// The same service asking `roster` whether a team game's voters are still members.
    pub fn with_roster(self, roster: Arc<dyn Roster>) -> Service {
        Service { roster, ..self }
    }

    /// The same service with claims on shared work lasting `seconds` (at least one).
    pub fn with_lease(self, seconds: i64) -> Service {
        Service {
            lease: seconds.max(1),
            ..self
        }
    }

    /// How long this service's claims on shared work last, in seconds.
    pub fn lease(&self) -> i64 {
        self.lease
    }

    /// A claim made now, held for this service's lease.
    pub(crate) fn new_lease(&self) -> Lease {
        let now = self.now();
        Lease {
            now,
            until: now + self.lease,
        }
    }

    /// The same service with `days` of vacation a year for each player.
    pub fn with_vacation_days(self, days: u32) -> Service {
        Service {
            vacation_allowance: i64::from(days) * DAY,
            ..self
        }
    }

    /// Runs CPU work (a picture, a GIF, a long replay) on tokio's blocking pool, a few at a time,
    /// so that the async workers stay free for the commands that only read and write: twenty GIFs
    /// at once queue here and `/help` is answered meanwhile.
    pub async fn cpu<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Renderer) -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let renderer = self.renderer.clone();
        on_pool(&self.cpu, move || work(&renderer)).await
    }

    /// The same service as seen from `scope`: games of other servers are refused and not listed.
    pub fn scoped(&self, scope: Scope) -> Service {
        Service {
            scope,
            ..self.clone()
        }
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// A write transaction: it holds the database's write lock from its first statement (see
    /// [`crate::store::begin_write`]), so that what a use case reads stays true until it commits.
    async fn write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, ServiceError> {
        Ok(crate::store::begin_write(&self.pool).await?)
    }

    /// The database id of a person, who is added (or has their name brought up to date).
    async fn player_id(&self, conn: &mut AnyConnection, p: &Person) -> Result<i64, ServiceError> {
        Ok(sqlx::query_scalar(
            "INSERT INTO players (key, name, created_at) VALUES ($1, $2, $3)
             ON CONFLICT(key) DO UPDATE SET name = excluded.name RETURNING id",
        )
        .bind(&p.key)
        .bind(&p.name)
        .bind(self.now())
        .fetch_one(&mut *conn)
        .await?)
    }
}

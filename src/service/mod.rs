//! The game service: the use cases that the Discord commands and the local mode both call.
//! Challenge, accept, move, resign, draw, deadlines. Every change is checked by the rules core and
//! stored in one transaction; moves are the truth and the cached position is checked against them.

mod error;

pub use error::ServiceError;

use std::collections::HashMap;
use std::sync::Arc;

use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection, SqlitePool};

use crate::notation::{canonical, read_move, write_move, write_record};
use crate::render::{Renderer, Scene, Theme};
use crate::rules::random::Rng;
use crate::rules::{parse_position, write_position, Game, Outcome, Reason, Side, Variant};

/// Seconds since the Unix epoch. The service reads the time only through this, so tests can move it.
pub trait Clock: Send + Sync {
    fn now(&self) -> i64;
}

/// The system's clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    }
}

/// A clock that tests set by hand.
#[derive(Default)]
pub struct TestClock(std::sync::atomic::AtomicI64);

impl TestClock {
    pub fn new(now: i64) -> TestClock {
        TestClock(std::sync::atomic::AtomicI64::new(now))
    }

    pub fn set(&self, now: i64) {
        self.0.store(now, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn advance(&self, seconds: i64) {
        self.0
            .fetch_add(seconds, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> i64 {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

pub const DAY: i64 = 86_400;
/// The days per move a game may have; the default is 3.
pub const DAYS_PER_MOVE: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
pub const DEFAULT_DAYS: u32 = 3;
/// An unanswered challenge lapses after a week.
pub const CHALLENGE_LIFETIME: i64 = 7 * DAY;

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

/// The side a challenger asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SideChoice {
    Attackers,
    Defenders,
    Random,
}

impl SideChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            SideChoice::Attackers => "attackers",
            SideChoice::Defenders => "defenders",
            SideChoice::Random => "random",
        }
    }

    /// Reads `attackers`, `defenders`, `random` (and Save the Standard's `red`, `gold`).
    pub fn parse(s: &str) -> Option<SideChoice> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" | "red" => Some(SideChoice::Attackers),
            "defenders" | "defender" | "d" | "gold" => Some(SideChoice::Defenders),
            "random" | "any" | "r" => Some(SideChoice::Random),
            _ => None,
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
}

/// A game as a player sees it.
#[derive(Clone, Debug)]
pub struct GameView {
    pub id: i64,
    pub variant: &'static Variant,
    /// The players by side: attackers (Red) first.
    pub players: [Person; 2],
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
}

impl GameView {
    /// One line on the state of the game: who is to move and by when, or how it ended.
    pub fn status_line(&self) -> String {
        let v = self.variant;
        if self.aborted {
            return format!("Game #{} was aborted.", self.id);
        }
        match self.outcome {
            None => {
                let who = &self.players[self.to_move as usize];
                format!(
                    "Game #{}: {} ({}) to move, {}.",
                    self.id,
                    who.name,
                    v.side_name(self.to_move),
                    deadline_text(self.deadline)
                )
            }
            Some(o) => format!(
                "Game #{} is over: {}.",
                self.id,
                outcome_text(v, &self.players, o)
            ),
        }
    }
}

/// "Ann (attackers) won: the king was captured", "a draw: agreed".
pub fn outcome_text(v: &Variant, players: &[Person; 2], o: Outcome) -> String {
    let why = crate::render::reason_text(o.reason);
    match o.winner {
        Some(side) => format!(
            "{} ({}) won: {why}",
            players[side as usize].name,
            v.side_name(side)
        ),
        None => format!("a draw: {why}"),
    }
}

/// "deadline 2026-11-25 14:00 UTC".
pub fn deadline_text(deadline: i64) -> String {
    format!("deadline {}", utc(deadline))
}

/// A Unix time as `YYYY-MM-DD HH:MM UTC` (the civil calendar from days since 1970).
pub fn utc(t: i64) -> String {
    let (days, secs) = (t.div_euclid(DAY), t.rem_euclid(DAY));
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// What a move produced: the game after it, a sentence, and the picture.
pub struct Played {
    pub view: GameView,
    pub text: String,
    pub png: Vec<u8>,
}

impl std::fmt::Debug for Played {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Played({:?}, {} bytes of picture)",
            self.text,
            self.png.len()
        )
    }
}

/// A game read from a move list.
pub struct Imported {
    pub record: String,
    pub gif: Vec<u8>,
    pub png: Vec<u8>,
    pub summary: String,
}

/// A message the sweeper or a use case left for the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub id: i64,
    pub game_id: Option<i64>,
    pub kind: String,
    pub text: String,
}

/// A player's game in a list.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: i64,
    pub variant: &'static Variant,
    pub opponent: Person,
    pub your_turn: bool,
    pub deadline: i64,
}

/// A game loaded and replayed.
struct Loaded {
    row: GameRow,
    game: Game,
}

#[derive(Clone, Debug)]
struct GameRow {
    id: i64,
    variant: &'static Variant,
    start: String,
    players: [(i64, Person); 2],
    days: u32,
    channel: Option<String>,
    thread: Option<String>,
    status: String,
    result: String,
    reason: Option<String>,
    position: String,
    move_count: i64,
    draw_offer: Option<i64>,
    deadline: i64,
}

/// The service. Cheap to clone; share it between tasks.
#[derive(Clone)]
pub struct Service {
    pool: SqlitePool,
    clock: Arc<dyn Clock>,
    renderer: Arc<Renderer>,
    replayed: Arc<Replayed>,
}

/// Games replayed recently, by id, with the move count and position they were replayed at. A
/// game is taken from here only when its stored row still shows that count and position, so it is
/// exactly what replaying its moves would give; otherwise the moves are replayed again.
#[derive(Default)]
struct Replayed {
    games: std::sync::Mutex<HashMap<i64, (i64, String, Game)>>,
}

impl Replayed {
    /// Enough for every game that is being played right now on a busy server.
    const CAPACITY: usize = 512;

    fn get(&self, id: i64, move_count: i64, position: &str) -> Option<Game> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        match games.get(&id) {
            Some((count, pos, game)) if *count == move_count && pos == position => {
                Some(game.clone())
            }
            _ => None,
        }
    }

    fn put(&self, id: i64, move_count: i64, game: &Game) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= Self::CAPACITY && !games.contains_key(&id) {
            // Forget an arbitrary game: it is replayed from the database when next needed.
            if let Some(old) = games.keys().next().copied() {
                games.remove(&old);
            }
        }
        games.insert(
            id,
            (move_count, write_position(game.position()), game.clone()),
        );
    }
}

const GAME_COLUMNS: &str = "g.id, g.variant, g.start, g.attacker, pa.key, pa.name, g.defender, pd.key, pd.name, \
     g.days, g.channel, g.thread, g.status, g.result, g.reason, g.position, g.move_count, g.draw_offer, g.deadline";

impl Service {
    pub fn new(pool: SqlitePool, clock: Arc<dyn Clock>) -> Service {
        Service {
            pool,
            clock,
            renderer: Arc::new(Renderer::new()),
            replayed: Arc::new(Replayed::default()),
        }
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// A transaction that holds SQLite's write lock from its first statement. A deferred one would
    /// read a snapshot and then fail to write if another transaction committed in between; an
    /// immediate one waits its turn (up to the busy timeout) and then reads what is current.
    async fn write(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, ServiceError> {
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    // ----- players -----

    async fn player_id(
        &self,
        conn: &mut SqliteConnection,
        p: &Person,
    ) -> Result<i64, ServiceError> {
        let now = self.now();
        let row = sqlx::query(
            "INSERT INTO players (key, name, created_at) VALUES (?, ?, ?)
             ON CONFLICT(key) DO UPDATE SET name = excluded.name RETURNING id",
        )
        .bind(&p.key)
        .bind(&p.name)
        .bind(now)
        .fetch_one(&mut *conn)
        .await?;
        Ok(row.get(0))
    }

    // ----- challenges -----

    /// Challenges `to` to a game of `variant`.
    pub async fn challenge(
        &self,
        from: &Person,
        to: &Person,
        variant: &str,
        side: SideChoice,
        days: Option<u32>,
        channel: Option<&str>,
    ) -> Result<Challenge, ServiceError> {
        let variant = Variant::by_id(variant)
            .ok_or_else(|| ServiceError::UnknownVariant(variant.to_string()))?;
        if from.key == to.key {
            return Err(ServiceError::SelfChallenge);
        }
        let days = days.unwrap_or(DEFAULT_DAYS);
        if !DAYS_PER_MOVE.contains(&days) {
            return Err(ServiceError::BadDays(days));
        }
        let now = self.now();
        let mut tx = self.write().await?;
        let a = self.player_id(&mut tx, from).await?;
        let b = self.player_id(&mut tx, to).await?;
        let expires_at = now + CHALLENGE_LIFETIME;
        let row = sqlx::query(
            "INSERT INTO challenges (challenger, challenged, variant, side, days, channel, created_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(a)
        .bind(b)
        .bind(variant.id)
        .bind(side.as_str())
        .bind(days as i64)
        .bind(channel)
        .bind(now)
        .bind(expires_at)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Challenge {
            id: row.get(0),
            challenger: from.clone(),
            challenged: to.clone(),
            variant,
            side,
            days,
            expires_at,
        })
    }

    /// The open challenge `id`, or the only one waiting for `who` to answer.
    async fn open_challenge(
        &self,
        conn: &mut SqliteConnection,
        who: &Person,
        id: Option<i64>,
        incoming: bool,
    ) -> Result<(Challenge, i64, i64), ServiceError> {
        let now = self.now();
        let sql = "SELECT c.id, c.variant, c.side, c.days, c.expires_at, c.status, c.challenger, pa.key, pa.name,
                          c.challenged, pb.key, pb.name
                   FROM challenges c JOIN players pa ON pa.id = c.challenger JOIN players pb ON pb.id = c.challenged";
        let rows = match id {
            Some(id) => {
                sqlx::query(&format!("{sql} WHERE c.id = ?"))
                    .bind(id)
                    .fetch_all(&mut *conn)
                    .await?
            }
            None => {
                let column = if incoming { "pb.key" } else { "pa.key" };
                sqlx::query(&format!(
                    "{sql} WHERE {column} = ? AND c.status = 'open' AND c.expires_at > ? ORDER BY c.id"
                ))
                .bind(&who.key)
                .bind(now)
                .fetch_all(&mut *conn)
                .await?
            }
        };
        let row = match rows.as_slice() {
            [] if id.is_some() => return Err(ServiceError::NoSuchChallenge(id)),
            [] => return Err(ServiceError::NoSuchChallenge(None)),
            [row] => row,
            many => {
                return Err(ServiceError::SeveralChallenges(
                    many.iter().map(|r| r.get(0)).collect(),
                ))
            }
        };
        let status: String = row.get(5);
        let expires_at: i64 = row.get(4);
        let challenge = Challenge {
            id: row.get(0),
            variant: Variant::by_id(row.get::<&str, _>(1))
                .ok_or(ServiceError::Corrupt("an unknown variant".into()))?,
            side: SideChoice::parse(row.get::<&str, _>(2)).unwrap_or(SideChoice::Random),
            days: row.get::<i64, _>(3) as u32,
            expires_at,
            challenger: Person::new(row.get::<String, _>(7), row.get::<String, _>(8)),
            challenged: Person::new(row.get::<String, _>(10), row.get::<String, _>(11)),
        };
        if status != "open" {
            return Err(ServiceError::ChallengeClosed(challenge.id, status));
        }
        if expires_at <= now {
            return Err(ServiceError::ChallengeClosed(
                challenge.id,
                "expired".into(),
            ));
        }
        let mine = if incoming {
            challenge.challenged.key == who.key
        } else {
            challenge.challenger.key == who.key
        };
        if !mine {
            let own = incoming && challenge.challenger.key == who.key;
            return Err(if own {
                ServiceError::OwnChallenge
            } else {
                ServiceError::NotYourChallenge
            });
        }
        Ok((challenge, row.get(6), row.get(9)))
    }

    /// Accepts a challenge: the game begins.
    pub async fn accept(
        &self,
        who: &Person,
        id: Option<i64>,
        thread: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let now = self.now();
        let mut tx = self.write().await?;
        let (c, challenger, challenged) = self.open_challenge(&mut tx, who, id, true).await?;
        let challenger_attacks = match c.side {
            SideChoice::Attackers => true,
            SideChoice::Defenders => false,
            SideChoice::Random => {
                Rng::new((now as u64) ^ (c.id as u64).rotate_left(17)).below(2) == 0
            }
        };
        let (attacker, defender) = if challenger_attacks {
            (challenger, challenged)
        } else {
            (challenged, challenger)
        };
        let start = c.variant.setup;
        let deadline = now + c.days as i64 * DAY;
        let row = sqlx::query(
            "INSERT INTO games (variant, start, attacker, defender, days, channel, thread, position,
                                turn_started, deadline, remind_at, created_at, updated_at)
             SELECT ?, ?, ?, ?, ?, channel, ?, ?, ?, ?, ?, ?, ? FROM challenges WHERE id = ? RETURNING id",
        )
        .bind(c.variant.id)
        .bind(start)
        .bind(attacker)
        .bind(defender)
        .bind(c.days as i64)
        .bind(thread)
        .bind(start)
        .bind(now)
        .bind(deadline)
        .bind(remind_at(deadline, c.days))
        .bind(now)
        .bind(now)
        .bind(c.id)
        .fetch_one(&mut *tx)
        .await?;
        let game_id: i64 = row.get(0);
        let done = sqlx::query("UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ? AND status = 'open'")
            .bind(game_id)
            .bind(c.id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Err(ServiceError::ChallengeClosed(c.id, "answered".into()));
        }
        let loaded = self.load(&mut tx, game_id).await?;
        tx.commit().await?;
        Ok(self.view(&loaded))
    }

    /// Declines a challenge made to `who`.
    pub async fn decline(&self, who: &Person, id: Option<i64>) -> Result<Challenge, ServiceError> {
        self.close_challenge(who, id, true, "declined").await
    }

    /// Withdraws a challenge that `who` made.
    pub async fn withdraw(&self, who: &Person, id: Option<i64>) -> Result<Challenge, ServiceError> {
        self.close_challenge(who, id, false, "withdrawn").await
    }

    async fn close_challenge(
        &self,
        who: &Person,
        id: Option<i64>,
        incoming: bool,
        status: &str,
    ) -> Result<Challenge, ServiceError> {
        let mut tx = self.write().await?;
        let (c, _, _) = self.open_challenge(&mut tx, who, id, incoming).await?;
        sqlx::query("UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'")
            .bind(status)
            .bind(c.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(c)
    }

    // ----- loading -----

    fn game_row(row: &SqliteRow) -> Result<GameRow, ServiceError> {
        let variant_id: String = row.get(1);
        Ok(GameRow {
            id: row.get(0),
            variant: Variant::by_id(&variant_id)
                .ok_or_else(|| ServiceError::Corrupt(format!("unknown variant {variant_id}")))?,
            start: row.get(2),
            players: [
                (
                    row.get(3),
                    Person::new(row.get::<String, _>(4), row.get::<String, _>(5)),
                ),
                (
                    row.get(6),
                    Person::new(row.get::<String, _>(7), row.get::<String, _>(8)),
                ),
            ],
            days: row.get::<i64, _>(9) as u32,
            channel: row.get(10),
            thread: row.get(11),
            status: row.get(12),
            result: row.get(13),
            reason: row.get(14),
            position: row.get(15),
            move_count: row.get(16),
            draw_offer: row.get(17),
            deadline: row.get(18),
        })
    }

    /// Loads a game and replays its moves. A game that no longer replays, or whose cached
    /// position disagrees with its moves, is marked broken and reported.
    async fn load(&self, conn: &mut SqliteConnection, id: i64) -> Result<Loaded, ServiceError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g JOIN players pa ON pa.id = g.attacker
             JOIN players pd ON pd.id = g.defender WHERE g.id = ?"
        ))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(ServiceError::NoSuchGame(id))?;
        let row = Self::game_row(&row)?;
        if row.status == "broken" {
            return Err(ServiceError::Broken(id));
        }
        if let Some(game) = self.replayed.get(id, row.move_count, &row.position) {
            if row.status == "active" || game.outcome().is_some() {
                return Ok(Loaded { row, game });
            }
        }
        let moves: Vec<String> =
            sqlx::query("SELECT text FROM moves WHERE game_id = ? ORDER BY ply")
                .bind(id)
                .fetch_all(&mut *conn)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
        match replay(&row, &moves) {
            Ok(game) => {
                self.replayed.put(id, row.move_count, &game);
                Ok(Loaded { row, game })
            }
            Err(why) => {
                tracing::error!(game = id, %why, "a stored game no longer replays; marked broken");
                self.mark_broken(conn, id, &why).await;
                Err(ServiceError::Broken(id))
            }
        }
    }

    /// Sets a game aside. The mark is written on `conn` (it lasts when that is a plain connection)
    /// and again, once the caller's transaction is over, from a task of its own: a use case that
    /// fails on a broken game rolls its transaction back, and the mark must not go with it.
    async fn mark_broken(&self, conn: &mut SqliteConnection, id: i64, why: &str) {
        const MARK: &str = "UPDATE games SET status = 'broken', broken_reason = ? WHERE id = ?";
        let _ = sqlx::query(MARK)
            .bind(why)
            .bind(id)
            .execute(&mut *conn)
            .await;
        let (pool, why) = (self.pool.clone(), why.to_string());
        tokio::spawn(async move {
            if let Err(e) = sqlx::query(MARK).bind(&why).bind(id).execute(&pool).await {
                tracing::error!(game = id, error = %e, "could not mark the game broken");
            }
        });
    }

    fn view(&self, l: &Loaded) -> GameView {
        let row = &l.row;
        let to_move = l.game.position().turn();
        let outcome = l.game.outcome();
        let last_turn = l
            .game
            .turns()
            .last()
            .map(|turn| {
                turn.moves
                    .iter()
                    .map(|p| write_move(p.mv, &p.captures))
                    .collect()
            })
            .unwrap_or_default();
        let players = [row.players[0].1.clone(), row.players[1].1.clone()];
        GameView {
            id: row.id,
            variant: row.variant,
            waiting_for: (outcome.is_none() && row.status == "active")
                .then(|| players[to_move as usize].clone()),
            players,
            position: write_position(l.game.position()),
            to_move,
            outcome,
            aborted: row.result == "aborted",
            deadline: row.deadline,
            channel: row.channel.clone(),
            thread: row.thread.clone(),
            draw_offer: row.draw_offer.and_then(|id| {
                row.players
                    .iter()
                    .find(|(pid, _)| *pid == id)
                    .map(|(_, p)| p.clone())
            }),
            last_turn,
            turns: l.game.turns().len(),
            open_chain: outcome.is_none() && l.game.position().chain().is_some(),
        }
    }

    /// The picture of a loaded game.
    fn picture(&self, l: &Loaded, flip: bool, theme: Theme) -> Vec<u8> {
        let names = [
            l.row.players[0].1.name.clone(),
            l.row.players[1].1.name.clone(),
        ];
        let scene = Scene::game(&l.game).flipped(flip).named(Some(names));
        self.renderer.png(&scene, theme)
    }

    /// Finds the game a player means: the one named, or the only one waiting for their move
    /// (in `channel`, when given).
    async fn resolve_game(
        &self,
        conn: &mut SqliteConnection,
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
                     WHERE (pa.key = ?1 OR pd.key = ?1) AND g.thread = ?2 AND g.status != 'broken'
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
                     WHERE (pa.key = ?1 OR pd.key = ?1) AND g.status != 'broken'
                       AND (?2 IS NULL OR g.channel = ?2 OR g.thread = ?2)
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

    /// A player's active games with their channels: theirs to move first, then by deadline.
    async fn summaries(
        &self,
        conn: &mut SqliteConnection,
        who: &Person,
    ) -> Result<Vec<([Option<String>; 2], GameSummary)>, ServiceError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g JOIN players pa ON pa.id = g.attacker
             JOIN players pd ON pd.id = g.defender
             WHERE g.status = 'active' AND (pa.key = ? OR pd.key = ?) ORDER BY g.deadline"
        ))
        .bind(&who.key)
        .bind(&who.key)
        .fetch_all(&mut *conn)
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let Ok(row) = Self::game_row(r) else {
                continue;
            };
            let Ok(pos) = parse_position(row.variant, &row.position) else {
                continue;
            };
            let me = usize::from(row.players[1].1.key == who.key);
            let your_turn = row.players[pos.turn() as usize].1.key == who.key;
            out.push((
                [row.channel.clone(), row.thread.clone()],
                GameSummary {
                    id: row.id,
                    variant: row.variant,
                    opponent: row.players[1 - me].1.clone(),
                    your_turn,
                    deadline: row.deadline,
                },
            ));
        }
        out.sort_by_key(|(_, s)| (!s.your_turn, s.deadline));
        Ok(out)
    }

    /// A player's active games, theirs to move first.
    pub async fn games(&self, who: &Person) -> Result<Vec<GameSummary>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        Ok(self
            .summaries(&mut conn, who)
            .await?
            .into_iter()
            .map(|(_, s)| s)
            .collect())
    }

    /// A game's state and picture.
    pub async fn board(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        flip: bool,
    ) -> Result<(GameView, Vec<u8>), ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self
            .resolve_game(&mut conn, who, id, channel, false)
            .await?;
        let loaded = self.load(&mut conn, id).await?;
        Ok((
            self.view(&loaded),
            self.picture(&loaded, flip, Theme::Classic),
        ))
    }

    /// The game record, for export.
    pub async fn record(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<String, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self
            .resolve_game(&mut conn, who, id, channel, false)
            .await?;
        let loaded = self.load(&mut conn, id).await?;
        let p = &loaded.row.players;
        let game_tag = id.to_string();
        let tags = [
            ("Game", game_tag.as_str()),
            ("Attackers", p[0].1.name.as_str()),
            ("Defenders", p[1].1.name.as_str()),
        ];
        Ok(write_record(&loaded.game, &tags))
    }

    /// The whole game as an animated GIF.
    pub async fn gif(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Vec<u8>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self
            .resolve_game(&mut conn, who, id, channel, false)
            .await?;
        let loaded = self.load(&mut conn, id).await?;
        let names = [
            loaded.row.players[0].1.name.clone(),
            loaded.row.players[1].1.name.clone(),
        ];
        Ok(self
            .renderer
            .gif(&loaded.game, Theme::Classic, false, Some(names)))
    }

    /// Reads a game written as a plain move list (aagenielsen.dk's form), checking every move and
    /// capture: its record, a GIF of it, the final board and a sentence on where it stands. Nothing
    /// is stored.
    pub fn import(&self, variant: &str, moves: &str) -> Result<Imported, ServiceError> {
        let v = Variant::by_id(variant)
            .ok_or_else(|| ServiceError::UnknownVariant(variant.to_string()))?;
        let game = crate::notation::import_moves(v, moves)
            .map_err(|e| ServiceError::BadInput(format!("the move list does not replay: {e}")))?;
        let state = match game.outcome() {
            Some(o) => match o.winner {
                Some(side) => format!(
                    "the {} won: {}",
                    v.side_name(side),
                    crate::render::reason_text(o.reason)
                ),
                None => format!("a draw: {}", crate::render::reason_text(o.reason)),
            },
            None => format!("the {} to move", v.side_name(game.position().turn())),
        };
        let summary = format!(
            "{} moves of {} replayed, every move and capture checked; {state}.",
            game.move_count(),
            v.name
        );
        Ok(Imported {
            record: write_record(&game, &[]),
            gif: self.renderer.gif(&game, Theme::Classic, false, None),
            png: self.renderer.png(&Scene::game(&game), Theme::Classic),
            summary,
        })
    }

    /// A write transaction on the game `who` means (see `resolve_game`), loaded and replayed, and
    /// the side `who` plays in it.
    async fn open_game(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        waiting_only: bool,
    ) -> Result<(sqlx::Transaction<'static, sqlx::Sqlite>, Loaded, Side), ServiceError> {
        let mut tx = self.write().await?;
        let id = self
            .resolve_game(&mut tx, who, id, channel, waiting_only)
            .await?;
        let loaded = self.load(&mut tx, id).await?;
        let seat = seat_of(&loaded.row, who)?;
        Ok((tx, loaded, seat))
    }

    /// A game by id, as anyone sees it (the front end uses it to post notices).
    pub async fn game(&self, id: i64) -> Result<GameView, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let loaded = self.load(&mut conn, id).await?;
        Ok(self.view(&loaded))
    }

    /// Records the thread a game is played in, or that it has none any more.
    pub async fn set_thread(&self, id: i64, thread: Option<&str>) -> Result<(), ServiceError> {
        let done = sqlx::query("UPDATE games SET thread = ? WHERE id = ?")
            .bind(thread)
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(ServiceError::NoSuchGame(id));
        }
        Ok(())
    }

    /// The legal moves, in canonical form, of the game `who` means when it is their move.
    pub async fn legal_moves(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(i64, Vec<String>), ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = self.resolve_game(&mut conn, who, id, channel, true).await?;
        let loaded = self.load(&mut conn, id).await?;
        let seat = seat_of(&loaded.row, who)?;
        ensure_active(&loaded)?;
        let mover = loaded.game.position().turn();
        if seat != mover {
            return Err(ServiceError::NotYourTurn {
                game: id,
                waiting_for: loaded.row.players[mover as usize].1.name.clone(),
            });
        }
        let pos = loaded.game.position();
        let moves = loaded
            .game
            .legal_moves()
            .into_iter()
            .map(|m| canonical(pos, m))
            .collect();
        Ok((id, moves))
    }

    // ----- moves -----

    /// Plays a move written as text.
    pub async fn play(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        text: &str,
    ) -> Result<Played, ServiceError> {
        self.act(who, id, channel, |game| {
            let (m, _) = read_move(game.position(), text)?;
            let written = canonical(game.position(), m);
            game.play(m)?;
            Ok(written)
        })
        .await
    }

    /// Ends an open berserk chain.
    pub async fn end_turn(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<Played, ServiceError> {
        self.act(who, id, channel, |game| {
            game.end_turn()?;
            Ok("end".to_string())
        })
        .await
    }

    /// Loads the game, checks that it is `who`'s move, applies `step`, and stores the result, all
    /// in one transaction.
    async fn act(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        step: impl FnOnce(&mut Game) -> Result<String, ServiceError>,
    ) -> Result<Played, ServiceError> {
        let now = self.now();
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, true).await?;
        let id = loaded.row.id;
        ensure_active(&loaded)?;
        if loaded.row.deadline <= now {
            // The sweeper has not come round yet, but the time is up: the game is lost on time.
            self.time_out(&mut tx, &mut loaded, now).await?;
            tx.commit().await?;
            return Err(ServiceError::OutOfTime(id));
        }
        let mover = loaded.game.position().turn();
        if seat != mover {
            return Err(ServiceError::NotYourTurn {
                game: id,
                waiting_for: loaded.row.players[mover as usize].1.name.clone(),
            });
        }
        let text = step(&mut loaded.game)?;
        let player_id = loaded.row.players[seat as usize].0;
        let ply = loaded.row.move_count;
        sqlx::query(
            "INSERT INTO moves (game_id, ply, text, player, played_at) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(ply)
        .bind(&text)
        .bind(player_id)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| match e.as_database_error().map(|d| d.kind()) {
            // The move's place is taken: another move came first.
            Some(sqlx::error::ErrorKind::UniqueViolation) => ServiceError::PositionChanged(id),
            _ => ServiceError::from(e),
        })?;
        let turn_passed = loaded.game.position().turn() != mover;
        let outcome = loaded.game.outcome();
        let (status, result, reason) = outcome_columns(loaded.row.variant, outcome);
        let deadline = if turn_passed {
            now + loaded.row.days as i64 * DAY
        } else {
            loaded.row.deadline
        };
        let updated = sqlx::query(
            "UPDATE games SET position = ?, move_count = move_count + 1, status = ?, result = ?, reason = ?,
                draw_offer = NULL, updated_at = ?,
                turn_started = CASE WHEN ? THEN ? ELSE turn_started END,
                deadline = ?, remind_at = CASE WHEN ? THEN ? ELSE remind_at END,
                reminded = CASE WHEN ? THEN 0 ELSE reminded END
             WHERE id = ? AND move_count = ? AND status = 'active'",
        )
        .bind(write_position(loaded.game.position()))
        .bind(status)
        .bind(&result)
        .bind(reason)
        .bind(now)
        .bind(turn_passed)
        .bind(now)
        .bind(deadline)
        .bind(turn_passed)
        .bind(remind_at(deadline, loaded.row.days))
        .bind(turn_passed)
        .bind(id)
        .bind(ply)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(ServiceError::PositionChanged(id));
        }
        tx.commit().await?;
        self.replayed.put(id, ply + 1, &loaded.game);
        loaded.row.move_count += 1;
        loaded.row.deadline = deadline;
        loaded.row.status = status.to_string();
        loaded.row.draw_offer = None;
        let view = self.view(&loaded);
        let png = self.picture(&loaded, false, Theme::Classic);
        let mover_name = &loaded.row.players[mover as usize].1.name;
        let said = if text == "end" {
            format!("{mover_name} ended the turn.")
        } else {
            format!("{mover_name} played {text}.")
        };
        let next =
            if view.outcome.is_none() && !turn_passed && loaded.game.position().chain().is_some() {
                format!(" {mover_name} may capture again with the same piece, or end the turn.")
            } else {
                String::new()
            };
        let text = format!("{said}{next} {}", view.status_line());
        Ok(Played { view, text, png })
    }

    // ----- endings -----

    /// Resigns a game.
    pub async fn resign(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        self.finish(who, id, channel, |game, seat| {
            game.resign(seat)?;
            Ok(())
        })
        .await
    }

    /// Offers a draw, or accepts the opponent's open offer.
    pub async fn draw(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(GameView, bool), ServiceError> {
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, false).await?;
        let id = loaded.row.id;
        ensure_active(&loaded)?;
        let me = loaded.row.players[seat as usize].0;
        let agreed = matches!(loaded.row.draw_offer, Some(by) if by != me);
        if agreed {
            loaded.game.agree_draw()?;
            self.store_ending(&mut tx, &mut loaded).await?;
        } else {
            if loaded.row.draw_offer == Some(me) {
                return Err(ServiceError::DrawAlreadyOffered(id));
            }
            sqlx::query("UPDATE games SET draw_offer = ? WHERE id = ?")
                .bind(me)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            loaded.row.draw_offer = Some(me);
        }
        tx.commit().await?;
        Ok((self.view(&loaded), agreed))
    }

    /// Declines the opponent's open draw offer.
    pub async fn decline_draw(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, false).await?;
        let id = loaded.row.id;
        ensure_active(&loaded)?;
        let me = loaded.row.players[seat as usize].0;
        match loaded.row.draw_offer {
            Some(by) if by != me => {}
            _ => return Err(ServiceError::NoDrawOffer(id)),
        }
        sqlx::query("UPDATE games SET draw_offer = NULL WHERE id = ?")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        loaded.row.draw_offer = None;
        Ok(self.view(&loaded))
    }

    /// Aborts a game before its first move: it ends with no result.
    pub async fn abort(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameView, ServiceError> {
        let (mut tx, mut loaded, _) = self.open_game(who, id, channel, false).await?;
        let id = loaded.row.id;
        ensure_active(&loaded)?;
        if loaded.row.move_count > 0 {
            return Err(ServiceError::CannotAbort(id));
        }
        sqlx::query("UPDATE games SET status = 'finished', result = 'aborted', reason = NULL, draw_offer = NULL
             WHERE id = ? AND move_count = 0")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        loaded.row.status = "finished".into();
        loaded.row.result = "aborted".into();
        Ok(self.view(&loaded))
    }

    async fn finish(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
        end: impl FnOnce(&mut Game, Side) -> Result<(), ServiceError>,
    ) -> Result<GameView, ServiceError> {
        let (mut tx, mut loaded, seat) = self.open_game(who, id, channel, false).await?;
        ensure_active(&loaded)?;
        end(&mut loaded.game, seat)?;
        self.store_ending(&mut tx, &mut loaded).await?;
        tx.commit().await?;
        Ok(self.view(&loaded))
    }

    /// Writes the ending the game has just reached by agreement or resignation.
    async fn store_ending(
        &self,
        conn: &mut SqliteConnection,
        loaded: &mut Loaded,
    ) -> Result<(), ServiceError> {
        let (status, result, reason) = outcome_columns(loaded.row.variant, loaded.game.outcome());
        sqlx::query(
            "UPDATE games SET status = ?, result = ?, reason = ?, draw_offer = NULL, updated_at = ?
             WHERE id = ? AND status = 'active'",
        )
        .bind(status)
        .bind(&result)
        .bind(reason)
        .bind(self.now())
        .bind(loaded.row.id)
        .execute(&mut *conn)
        .await?;
        loaded.row.status = status.to_string();
        loaded.row.draw_offer = None;
        Ok(())
    }

    // ----- deadlines -----

    /// Sends reminders, ends games whose time ran out, and lapses old challenges. Every effect is
    /// written with its notice in one transaction, so after a restart nothing is missed or sent
    /// twice. Returns the notices it wrote.
    pub async fn sweep(&self) -> Result<Vec<Notice>, ServiceError> {
        let now = self.now();
        let mut notices = Vec::new();
        let due: Vec<i64> =
            sqlx::query("SELECT id FROM games WHERE status = 'active' AND deadline <= ?")
                .bind(now)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
        for id in due {
            let mut tx = self.write().await?;
            let mut loaded = match self.load(&mut tx, id).await {
                Ok(l) => l,
                Err(e) => {
                    // One damaged game must not stop the others' deadlines.
                    tracing::warn!(game = id, error = %e, "timeout skipped");
                    tx.commit().await?;
                    continue;
                }
            };
            if let Some(notice) = self.time_out(&mut tx, &mut loaded, now).await? {
                notices.push(notice);
            }
            tx.commit().await?;
        }
        let reminders = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g JOIN players pa ON pa.id = g.attacker
             JOIN players pd ON pd.id = g.defender
             WHERE g.status = 'active' AND g.reminded = 0 AND g.remind_at <= ?"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        for r in &reminders {
            let Ok(row) = Self::game_row(r) else {
                continue;
            };
            let Ok(pos) = parse_position(row.variant, &row.position) else {
                continue;
            };
            let mut tx = self.write().await?;
            // Only if the turn it reminds of is still the one stored: a move since the list was
            // read restarted the clock.
            let done = sqlx::query(
                "UPDATE games SET reminded = 1
                 WHERE id = ? AND reminded = 0 AND status = 'active' AND remind_at <= ? AND move_count = ?",
            )
            .bind(row.id)
            .bind(now)
            .bind(row.move_count)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                let who = &row.players[pos.turn() as usize].1;
                let text = format!(
                    "{}, game #{} is waiting for your move: {}.",
                    who.name,
                    row.id,
                    deadline_text(row.deadline)
                );
                notices.push(
                    self.notice(&mut tx, Some(row.id), "reminder", &text)
                        .await?,
                );
            }
            tx.commit().await?;
        }
        sqlx::query(
            "UPDATE challenges SET status = 'expired' WHERE status = 'open' AND expires_at <= ?",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(notices)
    }

    /// Ends a game whose time ran out: the side to move loses. Returns the notice it wrote, or
    /// nothing when the game had already ended or been moved on.
    async fn time_out(
        &self,
        tx: &mut SqliteConnection,
        loaded: &mut Loaded,
        now: i64,
    ) -> Result<Option<Notice>, ServiceError> {
        let id = loaded.row.id;
        let late = loaded.game.position().turn();
        if loaded.game.lose_on_time(late).is_err() {
            return Ok(None);
        }
        let (status, result, reason) = outcome_columns(loaded.row.variant, loaded.game.outcome());
        let done = sqlx::query(
            "UPDATE games SET status = ?, result = ?, reason = ?, updated_at = ?, draw_offer = NULL
             WHERE id = ? AND status = 'active' AND deadline <= ?",
        )
        .bind(status)
        .bind(&result)
        .bind(reason)
        .bind(now)
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        loaded.row.status = status.to_string();
        let view = self.view(loaded);
        let text = format!(
            "{} ran out of time. {}",
            loaded.row.players[late as usize].1.name,
            view.status_line()
        );
        Ok(Some(self.notice(tx, Some(id), "timeout", &text).await?))
    }

    /// Leaves a message for the front end to deliver later (a post that failed now).
    pub async fn leave_notice(
        &self,
        game: Option<i64>,
        kind: &str,
        text: &str,
    ) -> Result<Notice, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        self.notice(&mut conn, game, kind, text).await
    }

    async fn notice(
        &self,
        conn: &mut SqliteConnection,
        game: Option<i64>,
        kind: &str,
        text: &str,
    ) -> Result<Notice, ServiceError> {
        let row = sqlx::query("INSERT INTO notices (game_id, kind, text, created_at) VALUES (?, ?, ?, ?) RETURNING id")
            .bind(game)
            .bind(kind)
            .bind(text)
            .bind(self.now())
            .fetch_one(&mut *conn)
            .await?;
        Ok(Notice {
            id: row.get(0),
            game_id: game,
            kind: kind.to_string(),
            text: text.to_string(),
        })
    }

    /// Runs [`Service::sweep`] every `every` until `stop` turns true, handing each notice to
    /// `deliver` (which returns whether it was delivered; undelivered ones are offered again on
    /// the next round, so a restart or a failed post loses nothing).
    pub fn spawn_sweeper<F, Fut>(
        &self,
        every: std::time::Duration,
        mut stop: tokio::sync::watch::Receiver<bool>,
        deliver: F,
    ) -> tokio::task::JoinHandle<()>
    where
        F: Fn(Notice) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = bool> + Send,
    {
        let service = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    changed = stop.changed() => {
                        // The sender is gone: nobody can stop us any more, so stop now.
                        if changed.is_err() {
                            return;
                        }
                    }
                }
                if *stop.borrow() {
                    return;
                }
                if let Err(e) = service.sweep().await {
                    tracing::warn!(error = %e, "sweep failed; trying again next round");
                }
                for notice in service.pending_notices().await.unwrap_or_default() {
                    let id = notice.id;
                    if deliver(notice).await {
                        let _ = service.delivered(id).await;
                    }
                }
            }
        })
    }

    /// Notices not yet delivered, oldest first.
    pub async fn pending_notices(&self) -> Result<Vec<Notice>, ServiceError> {
        let rows = sqlx::query(
            "SELECT id, game_id, kind, text FROM notices WHERE delivered_at IS NULL ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| Notice {
                id: r.get(0),
                game_id: r.get(1),
                kind: r.get(2),
                text: r.get(3),
            })
            .collect())
    }

    /// Marks a notice delivered.
    pub async fn delivered(&self, notice: i64) -> Result<(), ServiceError> {
        sqlx::query("UPDATE notices SET delivered_at = ? WHERE id = ?")
            .bind(self.now())
            .bind(notice)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// The reminder time: 24 hours before the deadline, or 12 for one-day games.
fn remind_at(deadline: i64, days: u32) -> i64 {
    deadline - if days == 1 { DAY / 2 } else { DAY }
}

/// Refuses a game that is over (or set aside).
fn ensure_active(loaded: &Loaded) -> Result<(), ServiceError> {
    if loaded.row.status != "active" || loaded.game.outcome().is_some() {
        let how = match (loaded.game.outcome(), loaded.row.result.as_str()) {
            (_, "aborted") => "it was aborted".to_string(),
            (Some(o), _) => {
                let players = [
                    loaded.row.players[0].1.clone(),
                    loaded.row.players[1].1.clone(),
                ];
                outcome_text(loaded.row.variant, &players, o)
            }
            (None, _) => String::new(),
        };
        return Err(ServiceError::GameOver(loaded.row.id, how));
    }
    Ok(())
}

/// The side `who` plays in a game, or why they may not act in it.
fn seat_of(row: &GameRow, who: &Person) -> Result<Side, ServiceError> {
    if row.players[0].1.key == who.key {
        Ok(Side::Attackers)
    } else if row.players[1].1.key == who.key {
        Ok(Side::Defenders)
    } else {
        Err(ServiceError::NotAPlayer(row.id))
    }
}

/// The status, result and reason columns for an outcome.
fn outcome_columns(
    v: &Variant,
    outcome: Option<Outcome>,
) -> (&'static str, String, Option<&'static str>) {
    match outcome {
        None => ("active", "ongoing".to_string(), None),
        Some(o) => (
            "finished",
            crate::notation::status_name(v, Some(o)),
            Some(o.reason.as_str()),
        ),
    }
}

/// Replays a stored game: its moves, then any ending the moves do not show.
fn replay(row: &GameRow, moves: &[String]) -> Result<Game, String> {
    let start =
        parse_position(row.variant, &row.start).map_err(|e| format!("the start position: {e}"))?;
    let mut game = Game::from_position(start);
    for (ply, text) in moves.iter().enumerate() {
        if text == "end" {
            game.end_turn()
                .map_err(|e| format!("move {}: end of turn: {e}", ply + 1))?;
            continue;
        }
        let (m, _) = read_move(game.position(), text)
            .map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
        game.play(m)
            .map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
    }
    if moves.len() as i64 != row.move_count {
        return Err(format!(
            "the game counts {} moves but {} are stored",
            row.move_count,
            moves.len()
        ));
    }
    if row.status == "active" && game.outcome().is_some() {
        return Err("the game is stored as going on, but its moves have ended it".to_string());
    }
    let replayed = write_position(game.position());
    if replayed != row.position {
        return Err(format!(
            "the stored position {} is not the one its moves give ({replayed})",
            row.position
        ));
    }
    if row.status == "finished" && game.outcome().is_none() && row.result != "aborted" {
        let reason = row.reason.as_deref().and_then(Reason::from_str_name);
        let loser = |winner: &str| {
            Side::BOTH
                .into_iter()
                .find(|s| {
                    crate::notation::status_name(
                        row.variant,
                        Some(Outcome::win(*s, Reason::Resignation)),
                    ) == winner
                })
                .map(Side::other)
        };
        let ended = match (reason, row.result.as_str()) {
            (Some(Reason::Agreement), _) => game.agree_draw().is_ok(),
            (Some(Reason::Resignation), r) => loser(r).is_some_and(|s| game.resign(s).is_ok()),
            (Some(Reason::Timeout), r) => loser(r).is_some_and(|s| game.lose_on_time(s).is_ok()),
            _ => false,
        };
        if !ended {
            return Err(format!(
                "the stored result {} does not follow from the moves",
                row.result
            ));
        }
    }
    Ok(game)
}

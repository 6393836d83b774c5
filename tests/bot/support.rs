//! What the tests share. For the service's tests: the players, and a service on a fresh database
//! under a test clock. For the end-to-end tests on Discord: the players as Discord members, and a
//! `Harness` (a fake Discord on 127.0.0.1, the real bot connected to it, and the service behind
//! the bot on a SQLite file).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use taflbot::discord::post::Retry;
use taflbot::discord::{Config, Running};
use taflbot::service::{Person, Service, SideChoice, TestClock};
use taflbot::store;

use crate::fake_discord::{self, s, Fake, Member, Opt};

/// The test clock's usual start.
pub const T0: i64 = 1_800_000_000;

pub fn alice() -> Person {
    Person::new("u1", "alice")
}

pub fn bob() -> Person {
    Person::new("u2", "bob")
}

pub fn carol() -> Person {
    Person::new("u3", "carol")
}

/// The variable that runs the service's tests on PostgreSQL (set to `postgres`): the suite runs
/// them again with it set (`postgres::the_service_tests_pass_on_postgres_too`).
pub const ENGINE: &str = "TAFLBOT_TEST_ENGINE";

/// Whether this run of the tests is the one on PostgreSQL.
pub fn on_postgres() -> bool {
    std::env::var(ENGINE).is_ok_and(|e| e == "postgres")
}

/// The database a test names (`:memory:` or a SQLite file), on the engine this run of the tests
/// uses: on PostgreSQL, `:memory:` is a new database each time, and a file's path names a database
/// of its own, the same each time it is opened (a restart finds what was written).
pub fn database(url: &str) -> String {
    if !on_postgres() {
        return url.to_string();
    }
    let pg = crate::throwaway_pg::cluster().expect("PostgreSQL for the run on PostgreSQL");
    match url {
        ":memory:" | "sqlite::memory:" => pg.database(),
        file => pg.named(file),
    }
}

/// The store of [`database`]`(url)`, opened.
pub async fn store(url: &str) -> sqlx::AnyPool {
    let url = database(url);
    store::open(&url)
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"))
}

/// A service on the database `url` (`:memory:` or a file), its clock at `now`.
pub async fn service_at(url: &str, now: i64) -> (Service, Arc<TestClock>) {
    let clock = Arc::new(TestClock::new(now));
    let pool = store(url).await;
    (Service::new(pool, clock.clone()), clock)
}

/// `p` as a member of the server holding `roles`, not a manager, old enough to vote.
pub fn member(p: Person, roles: &[&str]) -> taflbot::service::Member {
    taflbot::service::Member {
        person: p,
        roles: roles.iter().map(|r| r.to_string()).collect(),
        manages: false,
        newcomer: false,
    }
}

/// A Brandubh game between `attacker` and `defender`, begun (challenged and accepted).
pub async fn brandubh_game(svc: &Service, attacker: &Person, defender: &Person) -> i64 {
    let c = svc
        .challenge(
            attacker,
            defender,
            "brandubh",
            SideChoice::Attackers,
            None,
            None,
        )
        .await
        .unwrap();
    svc.accept(defender, Some(c.id), None).await.unwrap().id
}

/// How many moves of a game are stored.
pub async fn moves_stored(svc: &Service, game: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(game)
        .fetch_one(svc.pool())
        .await
        .unwrap()
}

/// The review stored for a game, as its row holds it.
pub async fn review_body(svc: &Service, game: i64) -> String {
    sqlx::query_scalar("SELECT body FROM reviews WHERE game_id = $1")
        .bind(game)
        .fetch_one(svc.pool())
        .await
        .unwrap()
}

/// Overwrites the review stored for a game, as an older taflbot or a damaged row would leave it.
pub async fn set_review_body(svc: &Service, game: i64, body: &str) {
    sqlx::query("UPDATE reviews SET body = $1 WHERE game_id = $2")
        .bind(body)
        .bind(game)
        .execute(svc.pool())
        .await
        .unwrap();
}

/// A game begun: alice (attackers) against bob (defenders) at tyr-11, three days per move.
pub async fn started(svc: &Service) -> i64 {
    let c = svc
        .challenge(
            &alice(),
            &bob(),
            "tyr-11",
            SideChoice::Attackers,
            None,
            Some("chan"),
        )
        .await
        .unwrap();
    svc.accept(&bob(), Some(c.id), None).await.unwrap().id
}

/// One turn for each side, each a legal move of the middle of the list (a berserk chain is
/// ended): a result after it is rated, as one before it is not.
pub async fn a_turn_each(svc: &Service, game: i64) {
    turns(svc, game, 2).await;
}

/// Plays on in a game, each move chosen by its player from their legal moves (the middle one at
/// first, then spread), until it has had `n` turns; the game must still be going.
pub async fn turns(svc: &Service, game: i64, n: usize) {
    loop {
        let view = svc.game(game).await.unwrap();
        let next = view.waiting_for.clone().expect("the game goes on");
        if view.open_chain {
            svc.end_turn(&next, Some(game), None).await.unwrap();
        } else if view.turns >= n {
            return;
        } else {
            let (_, moves) = svc.legal_moves(&next, Some(game), None).await.unwrap();
            let mv = &moves[(moves.len() / 2 + view.turns.saturating_sub(1) * 7) % moves.len()];
            svc.play(&next, Some(game), None, mv).await.unwrap();
        }
    }
}

/// Waits until `done` holds, asking every 20 ms; fails, naming `what`, after 10 s. For what a
/// background task writes to the database after the test saw its other effects.
pub async fn until<F, Fut>(what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !done().await {
        assert!(
            std::time::Instant::now() < deadline,
            "waited 10 s for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Waits until no notice is pending: a player task records a delivery only after the delivery
/// returns, so a test that saw the notice arrive may be a moment early.
pub async fn until_no_notice_pending(svc: &Service) {
    until("every delivered notice to be recorded", || async {
        svc.pending_notices().await.unwrap().is_empty()
    })
    .await;
}

// ----- on Discord -----

/// alice, bob and carol as Discord members (other people than the service tests' `alice()` and
/// the others: their keys are their Discord ids).
pub const ALICE: Member = Member {
    id: 111_111_111_111_111_111,
    name: "alice",
};
pub const BOB: Member = Member {
    id: 222_222_222_222_222_222,
    name: "bob",
};
pub const CAROL: Member = Member {
    id: 333_333_333_333_333_333,
    name: "carol",
};
/// taflbot itself, as a user option names it.
pub const TAFLBOT: Member = Member {
    id: fake_discord::APP,
    name: "taflbot",
};
/// The channel where the games are challenged and their threads made.
pub const CHANNEL: u64 = 700_000_000_000_000_001;

/// Retries quick enough for a test.
fn quick() -> Retry {
    Retry {
        attempts: 4,
        first_wait: Duration::from_millis(20),
        max_wait: Duration::from_millis(80),
        timeout: Duration::from_millis(700),
    }
}

/// The bot's configuration for `fake`, its retries and sweeps quick enough for a test.
pub fn quick_config(fake: &Fake) -> Config {
    let mut config = fake.config();
    config.answers = quick();
    config.posts = quick();
    config.sweep_every = Duration::from_millis(100);
    config
}

/// A fake Discord, the bot connected to it, and the service behind the bot.
pub struct Harness {
    pub fake: Fake,
    pub bot: Option<Running>,
    pub service: Service,
    pub clock: Arc<TestClock>,
    /// The database's folder, removed when the harness goes (declared last, so dropped last).
    dir: Scratch,
}

/// The harness's database file in its folder.
const HARNESS_DB: &str = "bot.db";

impl Harness {
    /// A fresh database, a fake Discord and a bot connected to it, ready.
    pub async fn start(name: &str) -> Harness {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
        let dir = scratch(name);
        let db = dir.join(HARNESS_DB);
        let fake = Fake::start().await;
        let clock = Arc::new(TestClock::new(1_790_000_000));
        let service = open(&db, &clock).await;
        let mut h = Harness {
            fake,
            bot: None,
            service,
            clock,
            dir,
        };
        h.connect().await;
        h
    }

    fn config(&self) -> Config {
        quick_config(&self.fake)
    }

    /// Starts a bot (a new serenity client) on the database and waits until it is ready.
    pub async fn connect(&mut self) {
        let bot = self.fake.connect(self.config(), self.service.clone()).await;
        self.bot = Some(bot);
    }

    /// Stops the bot and starts a new one on the same database file.
    pub async fn restart(&mut self) {
        self.bot.take().unwrap().shutdown().await;
        self.service.pool().close().await;
        self.service = open(&self.dir.join(HARNESS_DB), &self.clock).await;
        self.connect().await;
    }

    pub async fn slash(
        &self,
        who: Member,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> fake_discord::Call {
        self.fake
            .ask(self.fake.slash(who, channel, name, options))
            .await
    }

    /// alice challenges taflbot in CHANNEL to Brandubh, attacking, at level 1: the answer.
    pub async fn alice_versus_taflbot(&self) -> fake_discord::Call {
        self.slash(
            ALICE,
            CHANNEL,
            "challenge",
            &[
                ("opponent", Opt::User(TAFLBOT)),
                ("variant", s("brandubh")),
                ("side", Opt::Int(0)),
                ("level", Opt::Int(1)),
            ],
        )
        .await
    }

    /// `who` moves `mv` by /move in `channel`.
    pub async fn play(&self, who: Member, channel: u64, mv: &str) -> fake_discord::Call {
        self.slash(who, channel, "move", &[("move", s(mv))]).await
    }

    pub async fn press(&self, who: Member, channel: u64, button: &str) -> fake_discord::Call {
        self.fake.ask(self.fake.press(who, channel, button)).await
    }

    /// alice challenges bob (alice attacks) and bob accepts by button: the game and its thread.
    pub async fn game(&self, variant: &str) -> (i64, u64) {
        game_in(
            &self.fake,
            &self.service,
            fake_discord::GUILD,
            CHANNEL,
            variant,
        )
        .await
    }

    pub async fn moves_stored(&self, game: i64) -> i64 {
        moves_stored(&self.service, game).await
    }

    /// Replaces a fresh game's start position (the service replays from it).
    pub async fn set_start(&self, game: i64, position: &str) {
        sqlx::query("UPDATE games SET start = $1, position = $2 WHERE id = $3 AND move_count = 0")
            .bind(position)
            .bind(position)
            .bind(game)
            .execute(self.service.pool())
            .await
            .unwrap();
    }

    /// A legal move for whoever is to move, and who that is.
    pub async fn a_move(&self, game: i64) -> (Member, String) {
        a_move_in(&self.service, game).await
    }

    /// A turn for each player by `/move` in the game's thread, so that a result counts.
    pub async fn a_turn_each(&self, game: i64, thread: u64) {
        for _ in 0..2 {
            let (who, mv) = self.a_move(game).await;
            self.play(who, thread, &mv).await;
        }
    }

    /// Holds the database as another writer would, until the transaction is rolled back: the
    /// bot's work on it waits meanwhile.
    pub async fn hold_database(&self) -> sqlx::Transaction<'static, sqlx::Any> {
        taflbot::store::begin_write(self.service.pool())
            .await
            .unwrap()
    }

    pub async fn shutdown(mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
    }
}

/// alice challenges bob (alice attacks) in `channel` of the server `guild`, and bob accepts by
/// button: the game and its thread.
pub async fn game_in(
    fake: &Fake,
    svc: &Service,
    guild: u64,
    channel: u64,
    variant: &str,
) -> (i64, u64) {
    let challenge = fake
        .ask(fake_discord::in_guild(
            fake.slash(
                ALICE,
                channel,
                "challenge",
                &[
                    ("opponent", Opt::User(BOB)),
                    ("variant", s(variant)),
                    ("side", Opt::Int(0)),
                ],
            ),
            guild,
        ))
        .await;
    let accept = challenge
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("accept:"))
        .unwrap_or_else(|| panic!("an Accept button: {}", challenge.content()));
    let answer = fake
        .ask(fake_discord::in_guild(
            fake.press(BOB, channel, &accept),
            guild,
        ))
        .await;
    assert_eq!(answer.kind(), 7, "the challenge message is updated");
    // An update carrying no files says nothing of attachments: an empty list there would
    // strip the message's own files.
    assert!(
        answer.json["data"].get("attachments").is_none(),
        "{}",
        answer.json
    );
    let game = svc
        .games(&person(BOB))
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .max()
        .unwrap();
    // The answer comes first; the thread, then the opening board in it, follow.
    let opening = format!("Game #{game}:");
    let posted = fake
        .wait_post("the opening board", |p| p.content.starts_with(&opening))
        .await;
    (game, posted.channel)
}

/// A legal move (alice's or bob's) for whoever is to move in `game`, and who that is.
pub async fn a_move_in(svc: &Service, game: i64) -> (Member, String) {
    let view = svc.game(game).await.unwrap();
    let next = view.waiting_for.unwrap();
    let who = [ALICE, BOB]
        .into_iter()
        .find(|m| m.id.to_string() == next.key)
        .unwrap();
    let (_, moves) = svc.legal_moves(&next, Some(game), None).await.unwrap();
    (who, moves[moves.len() / 2].clone())
}

/// The service on the database file `db`, under `clock`.
pub async fn open(db: &std::path::Path, clock: &Arc<TestClock>) -> Service {
    Service::new(store(db.to_str().unwrap()).await, clock.clone())
}

pub fn is_png(bytes: Option<&[u8]>) -> bool {
    bytes.is_some_and(|b| b.starts_with(b"\x89PNG\r\n\x1a\n") && b.len() > 1000)
}

/// A fresh folder for one test's files, named by `name`. It is removed when the guard is dropped,
/// unless the test is failing: then it stays, to be looked at. Tests run at once, so a name is
/// taken once in a run (a second test with it would empty the first one's folder).
pub fn scratch(name: &str) -> Scratch {
    static TAKEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
    assert!(
        !taken.iter().any(|t| t == name),
        "the test folder name {name:?} is taken by another test"
    );
    taken.push(name.to_string());
    drop(taken);
    let dir = std::env::temp_dir().join(format!("taflbot-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A test's folder from [`scratch`]: a path while it lives.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A Discord member as the service knows them.
pub fn person(m: Member) -> Person {
    Person::new(m.id.to_string(), m.name)
}

/// Of alice and bob, the one who is not `m`.
pub fn opponent(m: Member) -> Member {
    if m.id == ALICE.id {
        BOB
    } else {
        ALICE
    }
}

/// The answer to an interaction sent by `Fake::interact`, waited for 20 s at most.
pub async fn answer_within_20s(
    rx: tokio::sync::oneshot::Receiver<fake_discord::Call>,
) -> fake_discord::Call {
    tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .unwrap()
        .unwrap()
}

/// The first file of a post: the board's picture, where there is one.
pub fn png_of(p: &fake_discord::Posted) -> Option<&[u8]> {
    p.files.first().map(|(_, bytes)| bytes.as_slice())
}

/// Whether `text` tells that `mv` was played, numbered as the record numbers it (`played 3. d1-d3`
/// or `played 3... d6-d4`).
pub fn told_played(text: &str, mv: &str) -> bool {
    text.split("played ").skip(1).any(|rest| {
        let (number, moves) = rest.split_once(' ').unwrap_or((rest, ""));
        let digits = number.trim_end_matches('.');
        number.ends_with('.')
            && !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
            && moves.starts_with(mv)
    })
}

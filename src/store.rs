//! The database: SQLite (a file, the embedded default) or PostgreSQL (a `postgres://` URL), both
//! through sqlx's `Any` driver, so that the use cases have one code path and one set of portable
//! SQL; and the migrations, embedded in the binary and applied in order at start-up.
//!
//! Why `Any` and not a store generic over the database: the use cases are many and small, each a
//! few statements in one transaction, and the two engines differ in very little SQL that the
//! service writes (the placeholders are `$N` on both, checked by a test over every string). A
//! generic store would put a type parameter on the service and every front end for the sake of
//! those few differences; `Any` keeps them here, where [`Engine`] names them: how a write
//! transaction takes its lock, the schema, and how a connection is set up.

mod address;
pub mod copy;

pub use address::shown;
use address::{lower_scheme, postgres_scheme};

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};

/// The default database file.
pub const DEFAULT_DATABASE: &str = "taflbot.db";

/// The database engines taflbot runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

impl Engine {
    /// What ends a `SELECT` of rows a statement claims: on PostgreSQL, row locks that other
    /// claimers skip instead of waiting for (so that two processes claim different rows); on
    /// SQLite nothing, as its write transaction already excludes every other writer.
    pub fn skip_locked(self) -> &'static str {
        match self {
            Engine::Sqlite => "",
            Engine::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// The engine a database URL (or file path) names. A URL's scheme is read as URLs are,
    /// whatever its case (`Postgres://` and `POSTGRESQL://` are PostgreSQL URLs).
    pub fn of(url: &str) -> Engine {
        if postgres_scheme(url.trim()).is_some() {
            Engine::Postgres
        } else {
            Engine::Sqlite
        }
    }

    /// The engine of an open pool.
    pub fn of_pool(pool: &AnyPool) -> Engine {
        match pool.connect_options().database_url.scheme() {
            "postgres" | "postgresql" => Engine::Postgres,
            _ => Engine::Sqlite,
        }
    }
}

/// The key of PostgreSQL's transaction-level advisory lock that a write transaction takes: writes
/// are one at a time on PostgreSQL as on SQLite (see [`begin_write`]). The number is arbitrary but
/// fixed: "taflbot" in ASCII, read as a number.
pub const WRITE_LOCK: i64 = 32758189831384948;

/// A write transaction: it holds the database's write lock from its first statement, so that what
/// it reads stays true until it commits.
///
/// On SQLite that is `BEGIN IMMEDIATE`: a deferred transaction would read a snapshot and then fail
/// to write if another committed in between, where an immediate one waits its turn (up to the busy
/// timeout) and then reads what is current. On PostgreSQL it is a transaction-level advisory lock
/// taken first, which every process sharing the database takes the same way: two moves for one
/// game, two challenges that would pass a limit together, or two sweepers finding the same
/// deadline, each run one after the other, and the second reads what the first wrote (READ
/// COMMITTED reads afresh at each statement). Reads need no lock and run beside the writes.
///
/// A connection found lost as the transaction begins (PostgreSQL restarted, or ended the session)
/// is dropped, and the transaction begun on another: nothing was done on it yet, so nothing is
/// lost by trying again. A connection lost later fails the use case, whose transaction PostgreSQL
/// then rolls back whole.
pub async fn begin_write(
    pool: &AnyPool,
) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
    let mut tries = 0;
    loop {
        let begun = match Engine::of_pool(pool) {
            Engine::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
            // One round trip: `BEGIN` and the lock as one simple query (PostgreSQL runs its
            // statements in order, and the transaction is open when it answers).
            Engine::Postgres => pool.begin_with(BEGIN_AND_LOCK.as_str()).await,
        };
        match begun {
            // Every pooled connection may have been lost at once: one more try than there are.
            Err(e) if lost_connection(&e) && tries <= pool.options().get_max_connections() => {
                tries += 1;
                suspect_connections();
                tracing::info!(error = %e, "a database connection was lost; trying another");
            }
            other => return other,
        }
    }
}

/// Until when (milliseconds on [`clock_ms`]) every pooled PostgreSQL connection is tested before
/// use: for a while after one was found lost, as its siblings were most likely lost with it.
static SUSPECT_UNTIL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Milliseconds since this process first asked.
fn clock_ms() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_millis() as u64
}

/// Marks the pooled connections as suspect for the next ten seconds, after one was found lost:
/// each is then tested before use, and replaced if it is lost too.
pub fn suspect_connections() {
    SUSPECT_UNTIL.store(clock_ms() + 10_000, std::sync::atomic::Ordering::Relaxed);
}

fn connections_suspect() -> bool {
    clock_ms() < SUSPECT_UNTIL.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether an error says that the connection to the database was lost (the server went away,
/// restarted or ended the session), rather than that a statement failed.
pub fn lost_connection(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::Protocol(_) | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|code| {
            // PostgreSQL's connection exceptions (08...) and an operator's intervention (57P01
            // terminated by the administrator, 57P02 crash of another backend, 57P03 starting
            // up or shutting down).
            code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03")
        }),
        _ => false,
    }
}

/// `BEGIN` followed by taking [`WRITE_LOCK`], as one simple query.
static BEGIN_AND_LOCK: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})"));

/// A schema change: its SQLite file, and PostgreSQL's beside it (PostgreSQL begins at version 10
/// with the whole schema, under its own name).
struct Migration {
    version: i64,
    name: &'static str,
    sqlite: &'static str,
    /// The name and SQL PostgreSQL records and runs; none before it was supported.
    postgres: Option<(&'static str, &'static str)>,
}

/// A migration before PostgreSQL was supported: `migrations/FILE.sql`.
macro_rules! sqlite_only {
    ($version:literal, $name:literal, $file:literal) => {
        Migration {
            version: $version,
            name: $name,
            sqlite: include_str!(concat!("../migrations/", $file, ".sql")),
            postgres: None,
        }
    };
}

/// A migration of both engines: `migrations/FILE.sql` and `migrations/postgres/FILE.sql`.
macro_rules! both {
    ($version:literal, $name:literal, $file:literal) => {
        Migration {
            version: $version,
            name: $name,
            sqlite: include_str!(concat!("../migrations/", $file, ".sql")),
            postgres: Some((
                $name,
                include_str!(concat!("../migrations/postgres/", $file, ".sql")),
            )),
        }
    };
}

/// The migrations of both engines, by version: the one list that SQLite, PostgreSQL and
/// `copy-db` read. A new schema change is a new pair of files and a new row, never an edit.
const MIGRATIONS: &[Migration] = &[
    sqlite_only!(1, "init", "0001_init"),
    sqlite_only!(2, "notices as data", "0002_notices_as_data"),
    sqlite_only!(3, "fair sides and delivery", "0003_fair_sides_and_delivery"),
    sqlite_only!(4, "servers", "0004_servers"),
    sqlite_only!(5, "bot games", "0005_bot_games"),
    sqlite_only!(6, "ratings", "0006_ratings"),
    sqlite_only!(7, "comforts", "0007_comforts"),
    sqlite_only!(8, "takebacks and messages", "0008_takebacks_and_messages"),
    sqlite_only!(9, "takeback declined", "0009_takeback_declined"),
    Migration {
        version: 10,
        name: "rating pools",
        sqlite: include_str!("../migrations/0010_rating_pools.sql"),
        // PostgreSQL begins here, with the whole schema of this version.
        postgres: Some((
            "schema",
            include_str!("../migrations/postgres/0010_schema.sql"),
        )),
    },
    both!(11, "claims", "0011_claims"),
    both!(12, "tournaments", "0012_tournaments"),
    both!(13, "tournament notices", "0013_tournament_notices"),
    both!(14, "reviews", "0014_reviews"),
    both!(15, "puzzles", "0015_puzzles"),
    both!(16, "chore seeds", "0016_chore_seeds"),
    both!(17, "correspondence", "0017_correspondence"),
    both!(18, "quiet hours and digest", "0018_quiet_hours_and_digest"),
    both!(19, "team games", "0019_team_games"),
    both!(20, "server teams", "0020_server_teams"),
    both!(21, "themes", "0021_themes"),
    both!(22, "team voters", "0022_team_voters"),
];

/// Why the database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database error: the database has schema version {found}, newer than this taflbot knows ({known})")]
    TooNew { found: i64, known: i64 },
    #[error("could not connect to PostgreSQL at {place}: {why}")]
    Unreachable { place: String, why: String },
    /// Not a form of database address taflbot reads; what was given is not repeated (it may
    /// hold a password).
    #[error("{0}")]
    Address(&'static str),
}

/// Connects to PostgreSQL once, to say in one sentence why it cannot be used (unreachable, or
/// refusing the user, password or database) before a pool would retry for its whole timeout.
async fn reach(url: &str, options: &AnyConnectOptions) -> Result<(), StoreError> {
    let place = url::Url::parse(url)
        .ok()
        .map(|u| {
            let host = u.host_str().unwrap_or("localhost").to_string();
            format!("{host}:{}", u.port().unwrap_or(5432))
        })
        .unwrap_or_else(|| "the URL given".into());
    let attempt = tokio::time::timeout(
        Duration::from_secs(10),
        <sqlx::AnyConnection as sqlx::Connection>::connect_with(options),
    )
    .await;
    let why = match attempt {
        Ok(Ok(conn)) => {
            let _ = sqlx::Connection::close(conn).await;
            return Ok(());
        }
        Ok(Err(sqlx::Error::Io(e))) => e.to_string(),
        Ok(Err(sqlx::Error::Database(d))) => d.message().to_string(),
        Ok(Err(e)) => e.to_string(),
        Err(_) => "no answer in 10 seconds".to_string(),
    };
    Err(StoreError::Unreachable { place, why })
}

/// Opens the database named by `url` and brings its schema up to date: a `postgres://` (or
/// `postgresql://`) URL, or SQLite's file path, `sqlite:` URL or `:memory:` (a SQLite file is
/// created if missing).
pub async fn open(url: &str) -> Result<AnyPool, StoreError> {
    let url = address::checked(url)?;
    sqlx::any::install_default_drivers();
    // Two processes starting on a new SQLite file race to switch it to WAL and create the schema;
    // SQLite may answer one of them "database is locked" at once instead of waiting. Trying again a
    // few times, a little later each time, lets both start.
    let mut wait = Duration::from_millis(20);
    for _ in 0..8 {
        match open_once(url).await {
            Err(StoreError::Database(e)) if is_locked(&e) => {
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            other => return other,
        }
    }
    open_once(url).await
}

fn is_locked(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.message().contains("locked") || d.message().contains("busy"))
}

/// The file a SQLite database `url` (a path or a `sqlite:` URL) lives in; none for PostgreSQL or
/// a database in memory.
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    let url = address::checked(url).ok()?;
    if Engine::of(url) != Engine::Sqlite || url == ":memory:" || url.starts_with("sqlite::memory:")
    {
        return None;
    }
    let path = match url.strip_prefix("sqlite:") {
        Some(rest) => {
            let rest = rest.strip_prefix("//").unwrap_or(rest);
            let rest = rest.split('?').next().unwrap_or(rest);
            percent_encoding::percent_decode_str(rest)
                .decode_utf8_lossy()
                .into_owned()
        }
        None => url.to_string(),
    };
    Some(std::path::PathBuf::from(path))
}

/// SQLite's URL for a file path: `sqlx` reads a `sqlite:` URL's path percent-decoded and stops it
/// at `?`, so a path's every other character is written percent-encoded.
fn sqlite_url(path: &str) -> String {
    const KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'/')
        .remove(b'.')
        .remove(b'-')
        .remove(b'_');
    format!(
        "sqlite:{}?mode=rwc",
        percent_encoding::utf8_percent_encode(path, KEPT)
    )
}

async fn open_once(url: &str) -> Result<AnyPool, StoreError> {
    let engine = Engine::of(url);
    let memory = url == ":memory:" || url == "sqlite::memory:";
    let url = match engine {
        Engine::Postgres => lower_scheme(url),
        Engine::Sqlite if memory => "sqlite::memory:".to_string(),
        // A `sqlite:` URL is read as one (its `?mode=rwc` and the like are options, not part of
        // the file name); anything else is a path.
        Engine::Sqlite if url.starts_with("sqlite:") => url.to_string(),
        Engine::Sqlite => sqlite_url(url),
    };
    let options = AnyConnectOptions::from_str(&url)?;
    if engine == Engine::Postgres {
        reach(&url, &options).await?;
    }
    let pool = AnyPoolOptions::new()
        // Every connection to SQLite's `:memory:` is a database of its own: keep exactly one.
        .max_connections(match engine {
            _ if memory => 1,
            Engine::Sqlite => 4,
            Engine::Postgres => 10,
        })
        .min_connections(if memory { 1 } else { 0 })
        // A PostgreSQL connection is tested by a round trip before use only when it has been
        // idle a while, or another was just found lost: one in steady use would pay that on
        // every transaction (a sixth of a move's time). One lost all the same is found by
        // `begin_write`, or fails one request with "try again".
        .test_before_acquire(engine == Engine::Sqlite)
        .before_acquire(move |conn, meta| {
            Box::pin(async move {
                if engine == Engine::Postgres
                    && (meta.idle_for > Duration::from_secs(1) || connections_suspect())
                {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
        // A database that cannot be reached fails a request in seconds, not half a minute.
        .acquire_timeout(Duration::from_secs(match engine {
            Engine::Postgres => 10,
            Engine::Sqlite => 30,
        }))
        .idle_timeout((!memory).then_some(Duration::from_secs(600)))
        .max_lifetime((!memory).then_some(Duration::from_secs(3600)))
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if engine == Engine::Sqlite {
                    set_up_sqlite(conn, memory).await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await?;
    migrate(&pool).await?;
    Ok(pool)
}

/// A SQLite connection's settings: foreign keys on and a busy timeout; for a file, WAL (readers
/// work beside the writer) and NORMAL syncing (a commit survives the process being killed: it is
/// in the WAL file, not in the process).
async fn set_up_sqlite(conn: &mut sqlx::AnyConnection, memory: bool) -> Result<(), sqlx::Error> {
    conn.execute("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000")
        .await?;
    if !memory {
        conn.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            .await?;
    }
    Ok(())
}

/// Applies the migrations that the database has not seen.
pub async fn migrate(pool: &AnyPool) -> Result<(), StoreError> {
    match Engine::of_pool(pool) {
        Engine::Sqlite => migrate_up_to(pool, i64::MAX).await,
        Engine::Postgres => migrate_postgres(pool).await,
    }
}

/// Applies SQLite's migrations up to `last` (for a test of a later migration on data written
/// before it), each in its own transaction.
///
/// The runner is our own rather than `sqlx::migrate!`: sqlx's migrator reads which migrations were
/// applied before it takes SQLite's write lock, so two processes starting on a new file can both
/// decide to apply the same one. Here the decision is made inside `BEGIN IMMEDIATE`.
pub async fn migrate_up_to(pool: &AnyPool, last: i64) -> Result<(), StoreError> {
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    )
    .execute(pool)
    .await?;
    for m in MIGRATIONS.iter().filter(|m| m.version <= last) {
        let (version, name, sql) = (&m.version, m.name, m.sqlite);
        // Under the write lock, and decided inside it: two processes starting on a new file
        // apply each migration once.
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let applied: Vec<i64> = sqlx::query("SELECT version FROM schema_migrations")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let known = MIGRATIONS.last().map_or(0, |m| m.version);
        if let Some(newest) = applied.iter().max().filter(|n| **n > known) {
            return Err(StoreError::TooNew {
                found: *newest,
                known,
            });
        }
        if applied.contains(version) {
            continue;
        }
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        record_migration(&mut tx, *version, name).await?;
        tx.commit().await?;
    }
    Ok(())
}

async fn record_migration(
    conn: &mut sqlx::AnyConnection,
    version: i64,
    name: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)")
        .bind(version)
        .bind(name)
        .bind(unix_now())
        .execute(conn)
        .await?;
    Ok(())
}

/// Brings a PostgreSQL database's schema up to date, in one transaction under an advisory lock:
/// two processes starting on a new database apply each migration once, the second finding the
/// first's work done.
async fn migrate_postgres(pool: &AnyPool) -> Result<(), StoreError> {
    let mut tx = begin_write(pool).await?;
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    )
    .execute(&mut *tx)
    .await?;
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM schema_migrations")
        .fetch_all(&mut *tx)
        .await?;
    let known = MIGRATIONS.last().map_or(0, |m| m.version);
    if let Some(&found) = applied.iter().max().filter(|n| **n > known) {
        return Err(StoreError::TooNew { found, known });
    }
    for m in MIGRATIONS {
        let (version, Some((name, sql))) = (&m.version, m.postgres) else {
            continue;
        };
        if applied.contains(version) {
            continue;
        }
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        record_migration(&mut tx, *version, name).await?;
    }
    tx.commit().await?;
    Ok(())
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::MIGRATIONS;

    /// The tables there are after the migrations `sqls` in turn: each `CREATE TABLE` adds one,
    /// `DROP TABLE` takes one away, `ALTER TABLE a RENAME TO b` renames one.
    fn tables<'a>(sqls: impl Iterator<Item = &'a str>) -> Vec<String> {
        let mut tables: Vec<String> = Vec::new();
        for sql in sqls {
            let words: Vec<String> = sql
                .split_whitespace()
                .map(|w| w.trim_end_matches([';', '(']).to_string())
                .collect();
            let at = |i: usize| words.get(i).map_or("", |w| w.as_str());
            for i in 0..words.len() {
                let skip = if at(i + 2) == "IF" { 3 } else { 0 };
                let name = at(i + 2 + skip).to_string();
                match (at(i), at(i + 1)) {
                    ("CREATE", "TABLE") => tables.push(name),
                    ("DROP", "TABLE") => tables.retain(|t| *t != name),
                    ("ALTER", "TABLE") if at(i + 3) == "RENAME" && at(i + 4) == "TO" => {
                        let new = at(i + 5).to_string();
                        tables.retain(|t| *t != name);
                        tables.push(new);
                    }
                    _ => {}
                }
            }
        }
        tables.sort();
        tables.dedup();
        tables
    }

    #[test]
    fn copy_db_copies_every_table_the_migrations_create_on_both_engines() {
        let sqlite = tables(MIGRATIONS.iter().map(|m| m.sqlite));
        let postgres = tables(
            MIGRATIONS
                .iter()
                .filter_map(|m| m.postgres)
                .map(|(_, sql)| sql),
        );
        let mut copied: Vec<String> = super::copy::TABLES.iter().map(|t| t.to_string()).collect();
        copied.sort();
        assert_eq!(sqlite, copied);
        assert_eq!(postgres, copied);
    }

    #[test]
    fn versions_rise_one_at_a_time() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.name);
        }
    }
}

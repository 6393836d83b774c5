//! The SQLite database: opening it (WAL, foreign keys), and the migrations in `migrations/`,
//! embedded in the binary and applied in order at start-up.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

/// The default database file.
pub const DEFAULT_DATABASE: &str = "taflbot.db";

/// The migrations, by version. A new schema change is a new file and a new row, never an edit.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../migrations/0001_init.sql")),
    (
        2,
        "notices as data",
        include_str!("../migrations/0002_notices_as_data.sql"),
    ),
    (
        3,
        "fair sides and delivery",
        include_str!("../migrations/0003_fair_sides_and_delivery.sql"),
    ),
    (4, "servers", include_str!("../migrations/0004_servers.sql")),
    (
        5,
        "bot games",
        include_str!("../migrations/0005_bot_games.sql"),
    ),
    (6, "ratings", include_str!("../migrations/0006_ratings.sql")),
    (
        7,
        "comforts",
        include_str!("../migrations/0007_comforts.sql"),
    ),
    (
        8,
        "takebacks and messages",
        include_str!("../migrations/0008_takebacks_and_messages.sql"),
    ),
    (
        9,
        "takeback declined",
        include_str!("../migrations/0009_takeback_declined.sql"),
    ),
    (
        10,
        "rating pools",
        include_str!("../migrations/0010_rating_pools.sql"),
    ),
];

/// PostgreSQL's migrations, by version: a new database begins with the whole schema at version 10,
/// and each later version adds a file here beside SQLite's.
const POSTGRES_MIGRATIONS: &[(i64, &str, &str)] = &[(
    10,
    "schema",
    include_str!("../migrations/postgres/0010_schema.sql"),
)];

/// Why the database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database error: the database has schema version {found}, newer than this taflbot knows ({known})")]
    TooNew { found: i64, known: i64 },
}

/// Opens (creating if needed) the database named by `url`: a file path, a `sqlite:` URL, or
/// `:memory:`, and brings its schema up to date.
pub async fn open(url: &str) -> Result<SqlitePool, StoreError> {
    // Two processes starting on a new file race to switch it to WAL and create the schema; SQLite
    // may answer one of them "database is locked" at once instead of waiting. Trying again a few
    // times, a little later each time, lets both start.
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

async fn open_once(url: &str) -> Result<SqlitePool, StoreError> {
    let memory = url == ":memory:" || url == "sqlite::memory:";
    let options = if memory {
        SqliteConnectOptions::from_str("sqlite::memory:")?
    } else {
        // A `sqlite:` URL is read as one (its `?mode=rwc` and the like are options, not part of
        // the file name); anything else is a path.
        let options = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else {
            SqliteConnectOptions::new().filename(url)
        };
        options
            .create_if_missing(true)
            // WAL lets readers work beside the writer; NORMAL syncs at checkpoints, and a commit
            // survives the process being killed (it is in the WAL file, not in the process).
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
    }
    .foreign_keys(true)
    .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        // Every connection to `:memory:` is a database of its own: keep exactly one.
        .max_connections(if memory { 1 } else { 4 })
        .min_connections(if memory { 1 } else { 0 })
        .idle_timeout(if memory {
            None
        } else {
            Some(Duration::from_secs(600))
        })
        .max_lifetime(if memory {
            None
        } else {
            Some(Duration::from_secs(3600))
        })
        .connect_with(options)
        .await?;
    migrate(&pool).await?;
    Ok(pool)
}

/// Applies the migrations that the database has not seen, each in its own transaction.
///
/// The runner is our own rather than `sqlx::migrate!`: sqlx's migrator reads which migrations were
/// applied before it takes SQLite's write lock, so two processes starting on a new file can both
/// decide to apply the same one. Here the decision is made inside `BEGIN IMMEDIATE`.
pub async fn migrate(pool: &SqlitePool) -> Result<(), StoreError> {
    migrate_up_to(pool, i64::MAX).await
}

/// Applies the migrations up to `last` (for a test of a later migration on data written before
/// it).
pub async fn migrate_up_to(pool: &SqlitePool, last: i64) -> Result<(), StoreError> {
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    )
    .execute(pool)
    .await?;
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 <= last) {
        // Under the write lock, and decided inside it: two processes starting on a new file
        // apply each migration once.
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let applied: Vec<i64> = sqlx::query("SELECT version FROM schema_migrations")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let known = MIGRATIONS.last().map(|m| m.0).unwrap_or(0);
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
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        sqlx::query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
        )
        .bind(version)
        .bind(name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
    }
    Ok(())
}

/// Brings a PostgreSQL database's schema up to date, in one transaction under an advisory lock:
/// two processes starting on a new database apply each migration once, the second finding the
/// first's work done.
pub async fn migrate_postgres(pool: &sqlx::PgPool) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    // The lock's key is arbitrary but fixed: "taflbot" in ASCII, read as a number.
    sqlx::query("SELECT pg_advisory_xact_lock(32758189831384948)")
        .execute(&mut *tx)
        .await?;
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    )
    .execute(&mut *tx)
    .await?;
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM schema_migrations")
        .fetch_all(&mut *tx)
        .await?;
    let known = POSTGRES_MIGRATIONS.last().map_or(0, |m| m.0);
    if let Some(&found) = applied.iter().max().filter(|n| **n > known) {
        return Err(StoreError::TooNew { found, known });
    }
    for (version, name, sql) in POSTGRES_MIGRATIONS {
        if applied.contains(version) {
            continue;
        }
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
        )
        .bind(version)
        .bind(name)
        .bind(unix_now())
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

//! Moving a server between engines: every table of one database copied into another that is
//! empty (SQLite to PostgreSQL, or back), in one transaction on the target, checked by counting.

use futures_util::TryStreamExt;
use sqlx::{AnyConnection, AnyPool, Row, ValueRef};

use super::{begin_write, Engine, StoreError};

/// The tables, in an order in which every row's references are already there.
pub const TABLES: [&str; 25] = [
    "players",
    "tournaments",
    "tournament_players",
    "games",
    "tournament_matches",
    "challenges",
    "moves",
    "notices",
    "ratings",
    "rating_changes",
    "reviews",
    "puzzles",
    "puzzle_tries",
    "puzzle_ratings",
    "daily_puzzles",
    "chores",
    "forecasts",
    "notes",
    "held",
    "team_sides",
    "team_votes",
    "team_voters",
    "team_homes",
    "team_challenges",
    "server_settings",
];

/// The tables with an identity column `id`, whose next value follows the rows copied.
const WITH_IDS: [&str; 11] = [
    "players",
    "tournaments",
    "games",
    "tournament_matches",
    "challenges",
    "notices",
    "puzzles",
    "forecasts",
    "held",
    "team_votes",
    "team_challenges",
];

/// Why a copy was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("the target already holds data ({0}): copy into an empty database, or empty it first")]
    TargetNotEmpty(String),
    #[error("the copy of {table} has {copied} rows where the source has {source_rows}: nothing was written")]
    CountMismatch {
        table: &'static str,
        source_rows: i64,
        copied: i64,
    },
    #[error("{table}.{column}: a value of the source does not fit the target's column: {why}")]
    Value {
        table: &'static str,
        column: String,
        why: String,
    },
}

/// What a column holds, as the target declares it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Integer,
    Real,
    Text,
}

/// How many rows of each table were copied.
pub type Copied = Vec<(&'static str, i64)>;

/// Copies every table of `from` into `to`, which must hold no rows. The source is read in one
/// snapshot; the target is written in one transaction that commits only when each table's count
/// matches the source's. Stop the bot first: a running one's writes after the snapshot would not
/// come across.
pub async fn copy(from: &AnyPool, to: &AnyPool) -> Result<Copied, CopyError> {
    copy_told(from, to, || {}).await
}

/// [`copy`], calling `table_done` after each of the [`TABLES`] is copied (a command line's
/// progress).
pub async fn copy_told(
    from: &AnyPool,
    to: &AnyPool,
    mut table_done: impl FnMut(),
) -> Result<Copied, CopyError> {
    let held = counts(to).await?;
    let busy: Vec<String> = held
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(t, n)| format!("{n} {t}"))
        .collect();
    if !busy.is_empty() {
        return Err(CopyError::TargetNotEmpty(busy.join(", ")));
    }
    let mut source = match Engine::of_pool(from) {
        Engine::Sqlite => from.begin().await?,
        Engine::Postgres => {
            from.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .await?
        }
    };
    let mut target = begin_write(to).await?;
    let mut copied = Vec::new();
    for table in TABLES {
        let source_rows: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&mut *source)
            .await?;
        let columns = columns(&mut target, Engine::of_pool(to), table).await?;
        copy_table(&mut source, &mut target, table, &columns).await?;
        let written: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&mut *target)
            .await?;
        if written != source_rows {
            return Err(CopyError::CountMismatch {
                table,
                source_rows,
                copied: written,
            });
        }
        copied.push((table, written));
        table_done();
    }
    if Engine::of_pool(to) == Engine::Postgres {
        // Rows came with their ids: new rows must be numbered after them.
        for table in WITH_IDS {
            sqlx::query(&format!(
                "SELECT 1 FROM (SELECT setval(pg_get_serial_sequence('{table}', 'id'),
                                              COALESCE(MAX(id), 0) + 1, false) FROM {table}) s"
            ))
            .execute(&mut *target)
            .await?;
        }
    }
    target.commit().await?;
    source.rollback().await?;
    Ok(copied)
}

/// The number of rows of each table.
pub async fn counts(pool: &AnyPool) -> Result<Copied, CopyError> {
    let mut counts = Vec::new();
    for table in TABLES {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(pool)
            .await?;
        counts.push((table, n));
    }
    Ok(counts)
}

/// The target's columns of `table`, in order, with what each holds.
async fn columns(
    conn: &mut AnyConnection,
    engine: Engine,
    table: &str,
) -> Result<Vec<(String, Kind)>, CopyError> {
    let rows: Vec<(String, String)> = match engine {
        Engine::Sqlite => {
            sqlx::query_as("SELECT name, type FROM pragma_table_info($1) ORDER BY cid")
                .bind(table)
                .fetch_all(&mut *conn)
                .await?
        }
        Engine::Postgres => {
            sqlx::query_as(
                "SELECT CAST(column_name AS TEXT), CAST(data_type AS TEXT)
                 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1
                 ORDER BY ordinal_position",
            )
            .bind(table)
            .fetch_all(&mut *conn)
            .await?
        }
    };
    Ok(rows
        .into_iter()
        .map(|(name, declared)| {
            let declared = declared.to_ascii_uppercase();
            let kind = if declared.contains("INT") {
                Kind::Integer
            } else if declared.contains("REAL")
                || declared.contains("DOUB")
                || declared.contains("FLOA")
            {
                Kind::Real
            } else {
                Kind::Text
            };
            (name, kind)
        })
        .collect())
}

/// Copies one table's rows, read as a stream (memory does not grow with the table).
async fn copy_table(
    source: &mut AnyConnection,
    target: &mut AnyConnection,
    table: &'static str,
    columns: &[(String, Kind)],
) -> Result<(), CopyError> {
    let names: Vec<&str> = columns.iter().map(|(n, _)| n.as_str()).collect();
    let select = format!("SELECT {} FROM {table}", names.join(", "));
    let placeholders: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
    let insert = format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        names.join(", "),
        placeholders.join(", ")
    );
    // Read a batch, then write it: one connection cannot read a stream and write at once, but
    // the two are different connections; batches keep the memory bounded all the same.
    let mut rows = sqlx::query(&select).fetch(&mut *source);
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        let row = rows.try_next().await?;
        let done = row.is_none();
        if let Some(row) = row {
            batch.push(values(&row, table, columns)?);
        }
        if batch.len() == BATCH || (done && !batch.is_empty()) {
            for values in batch.drain(..) {
                let mut query = sqlx::query(&insert);
                for value in values {
                    query = match value {
                        Value::Integer(v) => query.bind(v),
                        Value::Real(v) => query.bind(v),
                        Value::Text(v) => query.bind(v),
                    };
                }
                query.execute(&mut *target).await?;
            }
        }
        if done {
            return Ok(());
        }
    }
}

const BATCH: usize = 500;

/// A value on its way, typed as the target's column.
enum Value {
    Integer(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
}

fn values(
    row: &sqlx::any::AnyRow,
    table: &'static str,
    columns: &[(String, Kind)],
) -> Result<Vec<Value>, CopyError> {
    let mut values = Vec::with_capacity(columns.len());
    for (i, (name, kind)) in columns.iter().enumerate() {
        let wrong = |e: sqlx::Error| CopyError::Value {
            table,
            column: name.clone(),
            why: e.to_string(),
        };
        let null = row.try_get_raw(i).map_err(wrong)?.is_null();
        values.push(match kind {
            _ if null => match kind {
                Kind::Integer => Value::Integer(None),
                Kind::Real => Value::Real(None),
                Kind::Text => Value::Text(None),
            },
            Kind::Integer => Value::Integer(Some(row.try_get::<i64, _>(i).map_err(wrong)?)),
            // SQLite may keep a whole number in a REAL column as an integer.
            Kind::Real => Value::Real(Some(match row.try_get::<f64, _>(i) {
                Ok(v) => v,
                Err(_) => row.try_get::<i64, _>(i).map_err(wrong)? as f64,
            })),
            Kind::Text => Value::Text(Some(row.try_get::<String, _>(i).map_err(wrong)?)),
        });
    }
    Ok(values)
}

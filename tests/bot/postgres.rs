//! The throwaway PostgreSQL the tests start (`tests/throwaway_pg`): one cluster for the test
//! binary, a database of its own for each test.

use sqlx::postgres::PgPool;

use crate::throwaway_pg;

#[tokio::test]
async fn a_throwaway_postgres_gives_each_test_a_database_of_its_own() {
    let Some(pg) = throwaway_pg::cluster() else {
        return;
    };
    let (one, two) = (pg.database(), pg.database());
    assert_ne!(one, two);
    let first = PgPool::connect(&one).await.unwrap();
    sqlx::query("CREATE TABLE kept (n BIGINT NOT NULL)")
        .execute(&first)
        .await
        .unwrap();
    sqlx::query("INSERT INTO kept (n) VALUES ($1), ($2)")
        .bind(7_i64)
        .bind(11_i64)
        .execute(&first)
        .await
        .unwrap();
    let sum: i64 = sqlx::query_scalar("SELECT CAST(SUM(n) AS BIGINT) FROM kept")
        .fetch_one(&first)
        .await
        .unwrap();
    assert_eq!(sum, 18);
    // The other database has nothing of it.
    let second = PgPool::connect(&two).await.unwrap();
    let missing = sqlx::query("SELECT n FROM kept").fetch_all(&second).await;
    assert!(missing.is_err(), "{missing:?}");
    first.close().await;
    second.close().await;
}

/// The columns of each table, with whether they may be NULL, sorted.
type Columns = Vec<(String, String, bool)>;

async fn sqlite_columns() -> Columns {
    let pool = taflbot::store::open(":memory:").await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut columns = Vec::new();
    for table in tables {
        let rows: Vec<(String, i64, i64)> = sqlx::query_as(&format!(
            "SELECT name, \"notnull\", pk FROM pragma_table_info('{table}')"
        ))
        .fetch_all(&pool)
        .await
        .unwrap();
        for (name, not_null, pk) in rows {
            // A primary key's column is never NULL, whatever SQLite's table says.
            columns.push((table.clone(), name, not_null == 0 && pk == 0));
        }
    }
    columns.sort();
    columns
}

#[tokio::test]
async fn postgres_has_the_schema_sqlite_has_and_migrates_once_from_two_processes() {
    let Some(pg) = throwaway_pg::cluster() else {
        return;
    };
    let url = pg.database();
    sqlx::any::install_default_drivers();
    let (one, two) = (
        sqlx::AnyPool::connect(&url).await.unwrap(),
        sqlx::AnyPool::connect(&url).await.unwrap(),
    );
    // Two processes starting at once on a new database.
    let (a, b) = tokio::join!(taflbot::store::migrate(&one), taflbot::store::migrate(&two));
    a.unwrap();
    b.unwrap();
    taflbot::store::migrate(&one).await.unwrap();
    let versions: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM schema_migrations ORDER BY version")
            .fetch_all(&one)
            .await
            .unwrap();
    assert_eq!(
        versions,
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]
    );
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::TEXT, column_name::TEXT, is_nullable::TEXT
         FROM information_schema.columns WHERE table_schema = 'public'",
    )
    .fetch_all(&one)
    .await
    .unwrap();
    let mut columns: Columns = rows
        .into_iter()
        .map(|(t, c, nullable)| (t, c, nullable == "YES"))
        .collect();
    columns.sort();
    assert_eq!(columns, sqlite_columns().await);
    one.close().await;
    two.close().await;
}

#[tokio::test]
async fn stored_names_read_back_through_sqlxs_any_driver_on_both_engines() {
    use sqlx::any::AnyPoolOptions;
    use taflbot::service::{ChallengeStatus, GameResult, GameStatus, SideChoice};
    sqlx::any::install_default_drivers();
    let mut urls = vec!["sqlite::memory:".to_string()];
    if let Some(pg) = throwaway_pg::cluster() {
        urls.push(pg.database());
    }
    for url in urls {
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        sqlx::raw_sql("CREATE TABLE names (status TEXT, result TEXT, side TEXT, challenge TEXT)")
            .execute(&pool)
            .await
            .unwrap();
        let written = (
            GameStatus::Finished,
            GameResult::DefendersWon,
            SideChoice::Random,
            ChallengeStatus::Withdrawn,
        );
        sqlx::query("INSERT INTO names VALUES ($1, $2, $3, $4)")
            .bind(written.0)
            .bind(written.1)
            .bind(written.2)
            .bind(written.3)
            .execute(&pool)
            .await
            .unwrap();
        let read: (GameStatus, GameResult, SideChoice, ChallengeStatus) =
            sqlx::query_as("SELECT status, result, side, challenge FROM names")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(read, written, "{url}");
        let stored: String = sqlx::query_scalar("SELECT result FROM names")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(stored, "defenders_won");
        // A name that is none of ours is an error that says which.
        sqlx::query("UPDATE names SET status = 'lost'")
            .execute(&pool)
            .await
            .unwrap();
        let bad = sqlx::query_scalar::<_, GameStatus>("SELECT status FROM names")
            .fetch_one(&pool)
            .await
            .unwrap_err()
            .to_string();
        assert!(bad.contains("unknown gamestatus \"lost\""), "{url}: {bad}");
        pool.close().await;
    }
}

/// The service's tests, the Discord adapter's and the features' end-to-end tests, run again on
/// PostgreSQL: this test runs its own test binary with [`crate::support::ENGINE`] set, so that
/// each test body opens its database on the throwaway cluster (see `support::database`). Left out
/// are the tests that are about SQLite or need no database: the crash and process tests (a
/// program of their own on a SQLite file), the SQL text, the command line, the pictures and this
/// file. The local mode runs there on a `postgres://` URL.
#[test]
fn the_service_tests_pass_on_postgres_too() {
    if crate::support::on_postgres() || throwaway_pg::cluster().is_none() {
        return;
    }
    let skipped = [
        "crash::",
        "process",
        "postgres::",
        "sql::",
        "cli::",
        "render::",
    ];
    let mut run = std::process::Command::new(std::env::current_exe().unwrap());
    for s in skipped {
        run.args(["--skip", s]);
    }
    let out = run
        .env(crate::support::ENGINE, "postgres")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail = |s: &str| {
        s.lines()
            .rev()
            .take(150)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        out.status.success(),
        "the run on PostgreSQL failed:\n{}\n{}",
        tail(&stdout),
        tail(&stderr)
    );
    let passed: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("test result: ok. "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // Most of the suite ran, not a filter's leftovers.
    assert!(
        passed >= 80,
        "only {passed} tests ran on PostgreSQL:\n{stdout}"
    );
}

/// Each game as a player sees it, and the tyr-11 leaderboard, of a service's database.
async fn what_players_see(svc: &taflbot::service::Service) -> (Vec<String>, Vec<String>) {
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM games ORDER BY id")
        .fetch_all(svc.pool())
        .await
        .unwrap();
    let mut games = Vec::new();
    for id in ids {
        let g = svc.game(id).await.unwrap();
        games.push(format!(
            "{} {} {} {:?} {:?} {} {:?}",
            g.id, g.position, g.turns, g.outcome, g.waiting_for, g.deadline, g.ratings
        ));
    }
    let board = svc
        .leaderboard(Some("tyr-11".parse().unwrap()), 1)
        .await
        .unwrap()
        .lines
        .iter()
        .map(|r| format!("{} {} {:?} {}", r.rank, r.player.name, r.rating, r.games))
        .collect();
    (games, board)
}

fn copy_db(from: &str, to: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["copy-db", "--from", from, "--to", to])
        .output()
        .unwrap()
}

/// `taflbot copy-db` from SQLite into an empty PostgreSQL and back: every row comes across, the
/// games go on where they were (new rows numbered after the old), a target holding data is
/// refused, and nothing in it changes.
#[tokio::test]
async fn copy_db_moves_a_server_to_postgres_and_back_and_its_games_go_on() {
    use crate::support::{alice, bob, carol, service_at, started, turns, T0};
    use taflbot::service::{News, SideChoice};
    let Some(pg) = throwaway_pg::cluster() else {
        return;
    };
    let dir = crate::support::scratch("copy-db");
    let sqlite = dir.join("club.db");
    let sqlite = sqlite.to_str().unwrap();
    let (svc, _) = service_at(sqlite, T0).await;
    // A rated result, a game going on, a challenge open, a kept notice, a setting.
    let done = started(&svc).await;
    turns(&svc, done, 2).await;
    svc.resign(&bob(), Some(done), None).await.unwrap();
    let going = started(&svc).await;
    turns(&svc, going, 3).await;
    svc.challenge(
        &carol(),
        &alice(),
        "brandubh",
        SideChoice::Random,
        None,
        None,
    )
    .await
    .unwrap();
    svc.leave_notice(going, &News::Update).await.unwrap();
    svc.set_direct_messages(&bob(), true).await.unwrap();
    let before = what_players_see(&svc).await;
    let counts = taflbot::store::copy::counts(svc.pool()).await.unwrap();
    svc.pool().close().await;

    let target = pg.database();
    let out = copy_db(sqlite, &target);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("games 2") && said.contains("moves 5"),
        "{said}"
    );

    let pool = taflbot::store::open(&target).await.unwrap();
    assert_eq!(taflbot::store::copy::counts(&pool).await.unwrap(), counts);
    let moved = taflbot::service::Service::new(
        pool,
        std::sync::Arc::new(taflbot::service::TestClock::new(T0)),
    );
    assert_eq!(what_players_see(&moved).await, before);
    assert_eq!(moved.pending_notices().await.unwrap().len(), 1);
    assert!(moved.wants_direct_messages(&bob()).await.unwrap());
    // The game goes on, and a new one is numbered after the old.
    turns(&moved, going, 4).await;
    assert_eq!(moved.game(going).await.unwrap().turns, 4);
    assert_eq!(started(&moved).await, going + 1);

    // Into a database that holds data: refused, and it is unchanged.
    let after = taflbot::store::copy::counts(moved.pool()).await.unwrap();
    let refused = copy_db(sqlite, &target);
    assert!(!refused.status.success());
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains("already holds data") && why.contains("3 games"),
        "{why}"
    );
    assert_eq!(
        taflbot::store::copy::counts(moved.pool()).await.unwrap(),
        after
    );

    // And back into a new SQLite file.
    let back = dir.join("back.db");
    let back = back.to_str().unwrap();
    let out = copy_db(&target, back);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (home, _) = service_at(back, T0).await;
    assert_eq!(
        taflbot::store::copy::counts(home.pool()).await.unwrap(),
        after
    );
    assert_eq!(
        what_players_see(&home).await,
        what_players_see(&moved).await
    );
    assert_eq!(started(&home).await, going + 2);
}

/// Ends every session of the test's database but `holder`'s own, as PostgreSQL does when it
/// restarts or an operator ends them, and waits until they have ended (PostgreSQL 13's
/// `pg_terminate_backend` cannot wait itself). Sessions opened meanwhile are left alone.
async fn end_other_sessions(holder: &mut sqlx::PgConnection) {
    let ended: Vec<i32> = sqlx::query_scalar(
        "SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .fetch_all(&mut *holder)
    .await
    .unwrap();
    sqlx::query("SELECT pg_terminate_backend(pid) FROM unnest($1::int4[]) AS pid")
        .bind(&ended)
        .execute(&mut *holder)
        .await
        .unwrap();
    for _ in 0..500 {
        // Read afresh: inside a transaction the list would be the one of its first look.
        sqlx::query("SELECT pg_stat_clear_snapshot()")
            .execute(&mut *holder)
            .await
            .unwrap();
        let left: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ANY($1)")
                .bind(&ended)
                .fetch_one(&mut *holder)
                .await
                .unwrap();
        if left == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the sessions {ended:?} did not end within 5 s");
}

/// How many sessions of the test's database wait for a lock, as `holder` sees them now.
///
/// Within a transaction PostgreSQL lists the sessions that there were at the transaction's first
/// look (its statistics snapshot; only what each waits for is read afresh). A connection that the
/// pool opened since, for the move, would never be listed: the snapshot is dropped first.
async fn sessions_waiting_for_a_lock(holder: &mut sqlx::PgConnection) -> i64 {
    sqlx::query("SELECT pg_stat_clear_snapshot()")
        .execute(&mut *holder)
        .await
        .unwrap();
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )
    .fetch_one(holder)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lost_connections_refuse_the_move_in_flight_whole_and_the_pool_reconnects() {
    use sqlx::Connection;
    use taflbot::service::text::{refusal, Plain};
    use taflbot::service::{Service, ServiceError, TestClock};
    let Some(pg) = throwaway_pg::cluster() else {
        return;
    };
    let url = pg.database();
    let pool = taflbot::store::open(&url).await.unwrap();
    let svc = Service::new(
        pool,
        std::sync::Arc::new(TestClock::new(crate::support::T0)),
    );
    let game = crate::support::started(&svc).await;
    let mut holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let a_move = |who| {
        let svc = svc.clone();
        async move {
            let (_, moves) = svc.legal_moves(&who, Some(game), None).await.unwrap();
            moves[moves.len() / 2].clone()
        }
    };

    // Every idle connection of the bot is lost: the next move begins on a new one and goes
    // through.
    let mv = a_move(crate::support::alice()).await;
    end_other_sessions(&mut holder).await;
    svc.play(&crate::support::alice(), Some(game), None, &mv)
        .await
        .unwrap();

    // A move caught halfway: it has written its move and waits for the game's row, which another
    // session holds, when the connection is lost.
    let mv = a_move(crate::support::bob()).await;
    sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(game)
        .execute(&mut holder)
        .await
        .unwrap();
    // Looked at once before the move starts, and then the bot's connections are lost: the move
    // opens a new one, which the looks below must see although the first look did not.
    assert_eq!(sessions_waiting_for_a_lock(&mut holder).await, 0);
    end_other_sessions(&mut holder).await;
    let flight = tokio::spawn({
        let (svc, mv) = (svc.clone(), mv.clone());
        async move {
            svc.play(&crate::support::bob(), Some(game), None, &mv)
                .await
        }
    });
    for waited in 0.. {
        if sessions_waiting_for_a_lock(&mut holder).await > 0 {
            break;
        }
        if flight.is_finished() {
            let ended = flight.await.unwrap();
            panic!("the move ended before it waited for the game's row: {ended:?}");
        }
        if waited >= 1500 {
            // What every session of the database was doing, to tell where the move was held.
            let sessions: Vec<String> = sqlx::query_scalar(
                "SELECT concat_ws(' / ', state, wait_event_type, wait_event, query)
                 FROM pg_stat_activity WHERE datname = current_database()",
            )
            .fetch_all(&mut holder)
            .await
            .unwrap();
            let pool = svc.pool();
            panic!(
                "the move never waited for the game's row; the pool: {} connections, {} idle; \
                 sessions: {sessions:?}",
                pool.size(),
                pool.num_idle()
            );
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    end_other_sessions(&mut holder).await;
    let refused = flight.await.unwrap().unwrap_err();
    assert!(matches!(refused, ServiceError::Database(_)), "{refused:?}");
    assert_eq!(
        refusal(&refused, &Plain),
        "the connection to the database was lost; nothing was changed, try again"
    );
    sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    // Nothing of it was kept: neither the move nor the game's new state.
    assert_eq!(crate::support::moves_stored(&svc, game).await, 1);
    let view = svc.game(game).await.unwrap();
    assert_eq!(view.turns, 1);
    assert_eq!(view.waiting_for, Some(crate::support::bob()));
    // Asked again, it goes through.
    svc.play(&crate::support::bob(), Some(game), None, &mv)
        .await
        .unwrap();
    assert_eq!(crate::support::moves_stored(&svc, game).await, 2);
    holder.close().await.unwrap();
}

#[test]
fn a_database_that_cannot_be_used_is_one_sentence_naming_the_host_never_the_password() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut urls = vec![
        (
            format!("postgres://bot:s3cret@127.0.0.1:{port}/taflbot"),
            format!("could not connect to PostgreSQL at 127.0.0.1:{port}: "),
        ),
        // Pasted with a leading space: still a PostgreSQL URL, not a SQLite file named after it.
        (
            format!(" postgres://bot:s3cret@127.0.0.1:{port}/taflbot"),
            format!("could not connect to PostgreSQL at 127.0.0.1:{port}: "),
        ),
        // libpq's keyword form is refused, without repeating it.
        (
            format!("host=127.0.0.1 port={port} user=bot password=s3cret dbname=taflbot"),
            "it is in libpq's keyword form".to_string(),
        ),
    ];
    if let Some(pg) = throwaway_pg::cluster() {
        urls.push((
            format!("postgres://taflbot:s3cret@127.0.0.1:{}/no_such_db", pg.port),
            "database \"no_such_db\" does not exist".to_string(),
        ));
    }
    for (url, says) in urls {
        let started = std::time::Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .args(["local", "--db", &url])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{text}");
        assert_eq!(text.trim().lines().count(), 1, "{text}");
        assert!(text.contains(&says), "{text}");
        assert!(!text.contains("s3cret"), "{text}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "it took {:?} to say so",
            started.elapsed()
        );
    }
}

#[tokio::test]
async fn copy_db_copies_every_table_of_the_schema() {
    let pool = taflbot::store::open(":memory:").await.unwrap();
    let mut tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name <> 'schema_migrations'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    tables.sort();
    let mut copied: Vec<&str> = taflbot::store::copy::TABLES.to_vec();
    copied.sort();
    assert_eq!(tables, copied, "a table that copy-db leaves behind");
}

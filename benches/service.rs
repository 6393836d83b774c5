//! The service's speed and footprint, as a bench binary (`cargo bench --bench service`):
//! - moves per second through the service, each move rendered: on a SQLite file, and on a
//!   throwaway PostgreSQL (where its server is installed) beside it in the same run;
//! - opening a database of 100,000 finished and 10,000 active games (open, migrate, first sweep);
//! - resident memory after loading every one of those 10,000 active games.

mod common;
#[path = "../tests/throwaway_pg/mod.rs"]
mod throwaway_pg;

use std::sync::Arc;
use std::time::Instant;

use taflbot::notation::write_move;
use taflbot::rules::random::{play_random, Rng};
use taflbot::rules::{write_position, Game, Side, Variant};
use taflbot::service::{Person, Service, SideChoice, SystemClock};

/// A whole random Tablut game as (side, move text) pairs, and its final position.
fn scripted_game(seed: u64) -> (Vec<(Side, String)>, String) {
    let mut game = Game::new(Variant::by_id("tablut").unwrap());
    play_random(&mut game, &mut Rng::new(seed), 400);
    let mut moves = Vec::new();
    for turn in game.turns() {
        for p in &turn.moves {
            moves.push((turn.side, write_move(p.mv, &p.captures)));
        }
    }
    (moves, write_position(game.position()))
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// Plays whole scripted games one after another until `count` moves were played.
async fn play_games(svc: Service, players: [Person; 2], count: usize, first_seed: u64) -> usize {
    let mut played = 0;
    let mut seed = first_seed;
    while played < count {
        let (moves, _) = scripted_game(seed);
        seed += 1;
        let c = svc
            .challenge(
                &players[0],
                &players[1],
                "tablut",
                SideChoice::Attackers,
                None,
                None,
            )
            .await
            .unwrap();
        let id = svc.accept(&players[1], Some(c.id), None).await.unwrap().id;
        for (side, text) in &moves {
            svc.play(&players[*side as usize], Some(id), None, text)
                .await
                .unwrap();
            played += 1;
        }
    }
    played
}

async fn moves_per_second(engine: &str, url: &str) {
    let pool = taflbot::store::open(url).await.unwrap();
    let svc = Service::new(pool, Arc::new(SystemClock));
    for tasks in [1usize, 8] {
        let start = Instant::now();
        let mut handles = Vec::new();
        for t in 0..tasks {
            let players = [
                Person::new(format!("a{tasks}-{t}"), "alice"),
                Person::new(format!("b{tasks}-{t}"), "bob"),
            ];
            handles.push(tokio::spawn(play_games(
                svc.clone(),
                players,
                3000 / tasks,
                100 * t as u64,
            )));
        }
        let mut played = 0;
        for h in handles {
            played += h.await.unwrap();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "service moves on {engine}, {tasks} game(s) at a time: {played} moves in {secs:.2} s = \
             {:.0} moves/s (each move rendered)",
            played as f64 / secs
        );
    }
}

async fn big_database(dir: &std::path::Path) {
    let url = dir.join("big.db");
    let path = url.to_str().unwrap();
    {
        let pool = taflbot::store::open(path).await.unwrap();
        let built = Instant::now();
        let (moves, position) = scripted_game(1);
        let (active_moves, active_position) = {
            let short: Vec<_> = moves.iter().take(20).cloned().collect();
            let mut game = Game::new(Variant::by_id("tablut").unwrap());
            for (_, text) in &short {
                let (m, _) = taflbot::notation::read_move(game.position(), text).unwrap();
                game.play(m).unwrap();
            }
            (short, write_position(game.position()))
        };
        let mut tx = pool.begin().await.unwrap();
        sqlx::query(
            "INSERT INTO players (key, name, created_at) VALUES ('a', 'alice', 0), ('b', 'bob', 0)",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        // Set-based: the games from a counter, the moves from two template games.
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 110000)
             INSERT INTO games (variant, start, attacker, defender, days, status, result, reason, position,
                 move_count, turn_started, deadline, remind_at, created_at, updated_at)
             SELECT 'tablut', $1, 1, 2, 3,
                    CASE WHEN i > 100000 THEN 'active' ELSE 'finished' END,
                    CASE WHEN i > 100000 THEN 'ongoing' ELSE 'defenders_won' END,
                    CASE WHEN i > 100000 THEN NULL ELSE 'resignation' END,
                    CASE WHEN i > 100000 THEN $2 ELSE $3 END,
                    CASE WHEN i > 100000 THEN $4 ELSE $5 END,
                    0, $6, $6, 0, 0 FROM n",
        )
        .bind(Variant::by_id("tablut").unwrap().setup)
        .bind(&active_position)
        .bind(&position)
        .bind(active_moves.len() as i64)
        .bind(moves.len() as i64)
        .bind(4_000_000_000i64)
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query("CREATE TEMP TABLE template (active INTEGER, ply INTEGER, text TEXT)")
            .execute(&mut *tx)
            .await
            .unwrap();
        for (active, list) in [(0, &moves), (1, &active_moves)] {
            for (ply, (_, text)) in list.iter().enumerate() {
                sqlx::query("INSERT INTO template VALUES ($1, $2, $3)")
                    .bind(active)
                    .bind(ply as i64)
                    .bind(text)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
        }
        sqlx::query(
            "INSERT INTO moves (game_id, ply, text, player, played_at)
             SELECT g.id, t.ply, t.text, 1, 0 FROM games g JOIN template t
             ON t.active = (g.status = 'active') ORDER BY g.id, t.ply",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        pool.close().await;
        println!(
            "built a database of 100,000 finished and 10,000 active games in {:.1} s ({} MiB)",
            built.elapsed().as_secs_f64(),
            std::fs::metadata(path)
                .map(|m| m.len() / (1024 * 1024))
                .unwrap_or(0)
        );
    }
    let before = rss_kib();
    let opened = Instant::now();
    let pool = taflbot::store::open(path).await.unwrap();
    let svc = Service::new(pool, Arc::new(SystemClock));
    svc.sweep().await.unwrap();
    let games = svc.games(&Person::new("a", "alice")).await.unwrap();
    println!(
        "opening it, migrating, the first sweep and listing the {} active games: {:.3} s",
        games.len(),
        opened.elapsed().as_secs_f64()
    );
    let loaded = Instant::now();
    for g in &games {
        svc.board(&Person::new("a", "alice"), Some(g.id), None, false)
            .await
            .unwrap();
    }
    println!(
        "every active game loaded, replayed and drawn once: {:.1} s; resident memory {} MiB (was {} MiB before opening)",
        loaded.elapsed().as_secs_f64(),
        rss_kib() / 1024,
        before / 1024
    );
}

fn main() {
    // `moves` measures only the moves; `sqlite` or `postgres` only that engine's.
    let asked = |word: &str| std::env::args().any(|a| a == word);
    let only_moves = asked("moves");
    let (sqlite, postgres) = match (asked("sqlite"), asked("postgres")) {
        (false, false) => (true, true),
        chosen => chosen,
    };
    common::bench_binary("service", |dir| async move {
        if sqlite {
            moves_per_second(
                "SQLite (a file, WAL)",
                dir.join("moves.db").to_str().unwrap(),
            )
            .await;
        }
        if let Some(pg) = throwaway_pg::cluster().filter(|_| postgres) {
            moves_per_second("PostgreSQL (loopback, fsync off)", &pg.database()).await;
        }
        if !only_moves {
            big_database(&dir).await;
        }
    });
}

//! The bot under load, as a bench binary (`cargo bench --bench discord`): 100 games played at once
//! through the real serenity client and the fake Discord of the end-to-end tests, on a database
//! file. Reports moves per second and the latency from INTERACTION_CREATE to the bot's answer with
//! the picture (p50, p90, p99, max).

mod common;
#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::{s, Fake, Member, Opt};
use taflbot::notation::write_move;
use taflbot::rules::random::{play_random, Rng};
use taflbot::rules::{Game, Variant};
use taflbot::service::{Person, Service, SideChoice, SystemClock};

const GAMES: usize = 100;
const MOVES_PER_GAME: usize = 40;
const CHANNEL: u64 = 700_000_000_000_000_001;

/// The moves of a random Tablut game, in order.
fn script(seed: u64) -> Vec<String> {
    let mut game = Game::new(Variant::by_id("tablut").unwrap());
    play_random(&mut game, &mut Rng::new(seed), MOVES_PER_GAME);
    game.turns()
        .iter()
        .flat_map(|t| t.moves.iter().map(|p| write_move(p.mv, &p.captures)))
        .collect()
}

fn person(m: Member) -> Person {
    Person::new(m.id.to_string(), m.name)
}

async fn run(dir: &std::path::Path) {
    let fake = Fake::start().await;
    fake.keep_files(false);
    let db = dir.join("load.db");
    let pool = taflbot::store::open(db.to_str().unwrap()).await.unwrap();
    let service = Service::new(pool, Arc::new(SystemClock));

    // Two sets of 100 games, each game in a thread of its own: attackers (who move first in
    // Tablut) challenge.
    let mut sets = [Vec::new(), Vec::new()];
    for (set, games) in sets.iter_mut().enumerate() {
        for g in 0..GAMES {
            let n = set * GAMES + g;
            let (a, d) = (Member::numbered(2 * n), Member::numbered(2 * n + 1));
            let c = service
                .challenge(
                    &person(a),
                    &person(d),
                    "tablut",
                    SideChoice::Attackers,
                    Some(14),
                    Some(&CHANNEL.to_string()),
                )
                .await
                .unwrap();
            let view = service.accept(&person(d), Some(c.id), None).await.unwrap();
            let thread = 600_000_000_000_000_000 + n as u64;
            service
                .set_thread(view.id, Some(&thread.to_string()))
                .await
                .unwrap();
            games.push(Table {
                id: view.id,
                thread,
                players: [a, d],
                moves: script(n as u64 + 1),
            });
        }
    }

    let bot = fake.connect(fake.config(), service.clone()).await;
    // Warm up: one board per game (fills the bot's memory of replayed games, opens connections).
    for t in sets.iter().flatten() {
        fake.ask(fake.slash(t.players[0], t.thread, "board", &[("game", Opt::Int(t.id))]))
            .await;
    }
    let [flat_out, paced] = sets;

    // As fast as it goes: each game sends its next move as soon as the last one is answered.
    let (count, elapsed, mut latencies) = play(&fake, flat_out, None).await;
    report(
        &format!("{GAMES} games at once, flat out"),
        count,
        elapsed,
        &mut latencies,
    );

    // At a steady 300 moves/s in all: each game moves every 1/3 s, the games staggered.
    let (count2, elapsed, mut latencies) = play(&fake, paced, Some(RATE)).await;
    report(
        &format!("{GAMES} games at once, {RATE:.0} moves/s offered"),
        count2,
        elapsed,
        &mut latencies,
    );

    bot.shutdown().await;
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(service.pool())
        .await
        .unwrap();
    assert_eq!(
        stored as usize,
        count + count2,
        "every answered move is stored"
    );
}

/// The offered load of the paced run, in moves per second over all games.
const RATE: f64 = 300.0;

struct Table {
    id: i64,
    thread: u64,
    players: [Member; 2],
    moves: Vec<String>,
}

/// Plays every game's moves through the fake; returns the moves played, the time, the latencies.
async fn play(
    fake: &Fake,
    games: Vec<Table>,
    rate: Option<f64>,
) -> (usize, Duration, Vec<Duration>) {
    let started = Instant::now();
    let period = rate.map(|r| Duration::from_secs_f64(GAMES as f64 / r));
    let mut tasks = Vec::new();
    for (g, t) in games.into_iter().enumerate() {
        let fake = fake.clone();
        tasks.push(tokio::spawn(async move {
            let offset = period.map(|p| p.mul_f64(g as f64 / GAMES as f64));
            let mut latencies = Vec::with_capacity(t.moves.len());
            for (ply, mv) in t.moves.iter().enumerate() {
                if let (Some(period), Some(offset)) = (period, offset) {
                    let due = started + offset + period * ply as u32;
                    tokio::time::sleep_until(due.into()).await;
                }
                let who = t.players[ply % 2];
                let interaction = fake.slash(
                    who,
                    t.thread,
                    "move",
                    &[("move", s(mv)), ("game", Opt::Int(t.id))],
                );
                let sent = Instant::now();
                let answer = fake.ask(interaction).await;
                latencies.push(sent.elapsed());
                assert!(
                    answer.files.iter().any(|(name, _)| name == "board.png"),
                    "game {}, {mv}: {}",
                    t.id,
                    answer.content()
                );
            }
            latencies
        }));
    }
    let mut latencies: Vec<Duration> = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    (latencies.len(), started.elapsed(), latencies)
}

fn report(what: &str, count: usize, elapsed: Duration, latencies: &mut [Duration]) {
    latencies.sort();
    let at = |q: f64| {
        latencies[((latencies.len() as f64 * q).ceil() as usize).clamp(1, latencies.len()) - 1]
    };
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "discord load, {what}: {count} moves in {:.2} s = {:.0} moves/s",
        elapsed.as_secs_f64(),
        count as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  latency INTERACTION_CREATE -> answer with picture: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(at(0.50)),
        ms(at(0.90)),
        ms(at(0.99)),
        ms(*latencies.last().unwrap())
    );
}

fn main() {
    common::bench_binary("discord", |dir| async move { run(&dir).await });
}

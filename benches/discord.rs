//! The bot under load, as a bench binary (`cargo bench --bench discord`): games played through the
//! real serenity client and the fake Discord of the end-to-end tests, one at a time, eight at once
//! and a hundred at once; on a SQLite file, on a throwaway PostgreSQL, and as two `taflbot run`
//! processes with a shard each on PostgreSQL. Reports moves per second and the latency from
//! INTERACTION_CREATE to the bot's answer with the picture (p50, p90, p99, max).

mod common;
#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;
#[path = "../tests/throwaway_pg/mod.rs"]
mod throwaway_pg;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::{s, Fake, Member, Opt};
use taflbot::notation::write_move;
use taflbot::rules::random::{play_random, Rng};
use taflbot::rules::{Game, Variant};
use taflbot::service::{Person, Scope, Service, SideChoice, SystemClock};

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

/// Where the bot runs: in this process on one database, or as two `taflbot run` processes that
/// share a PostgreSQL database, each with half of two shards.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    InProcess,
    TwoProcesses,
}

/// The server of the `n`th game: games alternate between a server on shard 0 of 2 and one on
/// shard 1 (one process runs a single shard, which carries both).
fn guild_of(n: usize) -> u64 {
    fake_discord::GUILD + ((n as u64 % 2) << 22)
}

/// A `taflbot run` process against the fake, killed when dropped.
struct Process(std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn process(fake: &Fake, database: &str, shards: &str) -> Process {
    Process(
        std::process::Command::new(env!("CARGO_BIN_EXE_taflbot"))
            .arg("run")
            .env("DISCORD_TOKEN", "fake.bot.token")
            .env("DISCORD_API_BASE", &fake.http_url)
            .env("DISCORD_GUILD_ID", fake_discord::GUILD.to_string())
            .env("DATABASE_URL", database)
            .env("TAFLBOT_SHARDS", shards)
            .env("RUST_LOG", "error")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("taflbot runs"),
    )
}

/// The runs of one set-up: one game at a time, eight at once, a hundred flat out, and a hundred
/// at a steady offered rate; each run plays games of its own.
const RUNS: [(&str, usize, Option<f64>); 4] = [
    ("1 game at a time", 1, None),
    ("8 games at once", 8, None),
    ("100 games at once, flat out", 100, None),
    ("100 games at once, 300 moves/s offered", 100, Some(RATE)),
];

async fn run(setup: &str, database: &str, layout: Layout) {
    let fake = Fake::start().await;
    fake.keep_files(false);
    let pool = taflbot::store::open(database).await.unwrap();
    let service = Service::new(pool, Arc::new(SystemClock));

    // The games of every run, each in a thread of its own: attackers (who move first in Tablut)
    // challenge. One game at a time plays ten games one after another; eight at once, three each.
    let mut runs = Vec::new();
    let mut n = 0;
    for (what, at_once, rate) in RUNS {
        let mut lanes: Vec<Vec<Table>> = Vec::new();
        for _ in 0..at_once {
            let mut lane = Vec::new();
            for _ in 0..match at_once {
                1 => 10,
                8 => 3,
                _ => 1,
            } {
                lane.push(table(&service, n).await);
                n += 1;
            }
            lanes.push(lane);
        }
        runs.push((what, lanes, rate));
    }

    let (bot, _processes) = match layout {
        Layout::InProcess => (
            Some(fake.connect(fake.config(), service.clone()).await),
            vec![],
        ),
        Layout::TwoProcesses => {
            let processes = vec![
                process(&fake, database, "0/2"),
                process(&fake, database, "1/2"),
            ];
            fake.registered().await;
            while fake.identified().len() < 2 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            (None, processes)
        }
    };
    // Warm up: one board per game (fills the bot's memory of replayed games, opens connections).
    for t in runs.iter().flat_map(|r| r.1.iter().flatten()) {
        fake.ask(t.interaction(&fake, t.players[0], "board", &[("game", Opt::Int(t.id))]))
            .await;
    }
    let mut played = 0;
    for (what, lanes, rate) in runs {
        let (count, elapsed, mut latencies) = play(&fake, lanes, rate).await;
        report(&format!("{setup}, {what}"), count, elapsed, &mut latencies);
        played += count;
    }
    if let Some(bot) = bot {
        bot.shutdown().await;
    }
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(service.pool())
        .await
        .unwrap();
    assert_eq!(stored as usize, played, "every answered move is stored");
    service.pool().close().await;
}

/// The `n`th game, begun in its server, with its thread and the moves it will be played with.
async fn table(service: &Service, n: usize) -> Table {
    let (a, d) = (Member::numbered(2 * n), Member::numbered(2 * n + 1));
    let guild = guild_of(n);
    let here = service.scoped(Scope::Server(guild.to_string()));
    let c = here
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
    let view = here.accept(&person(d), Some(c.id), None).await.unwrap();
    let thread = 600_000_000_000_000_000 + n as u64;
    here.set_thread(view.id, Some(&thread.to_string()))
        .await
        .unwrap();
    Table {
        id: view.id,
        thread,
        guild,
        players: [a, d],
        moves: script(n as u64 + 1),
    }
}

/// The offered load of the paced run, in moves per second over all games.
const RATE: f64 = 300.0;

struct Table {
    id: i64,
    thread: u64,
    guild: u64,
    players: [Member; 2],
    moves: Vec<String>,
}

impl Table {
    /// `who`'s slash command in the game's thread, from the game's server.
    fn interaction(
        &self,
        fake: &Fake,
        who: Member,
        name: &str,
        options: &[(&str, Opt)],
    ) -> serde_json::Value {
        fake_discord::in_guild(fake.slash(who, self.thread, name, options), self.guild)
    }
}

/// Plays every lane's games through the fake, the lanes at once and each lane's games one after
/// another; returns the moves played, the time, the latencies. With a rate, the moves of all
/// lanes together are offered at that rate, staggered.
async fn play(
    fake: &Fake,
    lanes: Vec<Vec<Table>>,
    rate: Option<f64>,
) -> (usize, Duration, Vec<Duration>) {
    let started = Instant::now();
    let count = lanes.len();
    let period = rate.map(|r| Duration::from_secs_f64(count as f64 / r));
    let mut tasks = Vec::new();
    for (g, lane) in lanes.into_iter().enumerate() {
        let fake = fake.clone();
        tasks.push(tokio::spawn(async move {
            let offset = period.map(|p| p.mul_f64(g as f64 / count as f64));
            let mut latencies = Vec::new();
            let mut step = 0;
            for t in lane {
                for (ply, mv) in t.moves.iter().enumerate() {
                    if let (Some(period), Some(offset)) = (period, offset) {
                        let due = started + offset + period * step;
                        tokio::time::sleep_until(due.into()).await;
                    }
                    step += 1;
                    let who = t.players[ply % 2];
                    let interaction = t.interaction(
                        &fake,
                        who,
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
    common::bench_binary("discord", |dir| async move {
        let file = dir.join("load.db");
        run("SQLite", file.to_str().unwrap(), Layout::InProcess).await;
        if let Some(pg) = throwaway_pg::cluster() {
            run("PostgreSQL", &pg.database(), Layout::InProcess).await;
            run(
                "PostgreSQL, two processes",
                &pg.database(),
                Layout::TwoProcesses,
            )
            .await;
        }
    });
}

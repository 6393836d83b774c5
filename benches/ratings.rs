//! Leaderboards and profiles on a server with 10,000 rated players (`cargo bench --bench
//! ratings`): the players are made by the service itself, each in rated games that ended, on a
//! database file; then a leaderboard page (the first and one deep down), a profile of a player
//! with 300 rated games in three variants, and that profile's chart are timed.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, Criterion};
use taflbot::service::{Person, Scope, Service, SideChoice, Terms, TestClock, DAY};

const PLAYERS: usize = 10_000;
const GUILD: &str = "bench";

fn person(i: usize) -> Person {
    Person::new(format!("p{i}"), format!("player {i}"))
}

/// One rated game of `variant`: `a` attacks, the loser resigns.
async fn rated(svc: &Service, a: &Person, d: &Person, variant: &str, attackers_win: bool) {
    let terms = Terms {
        side: SideChoice::Attackers,
        ..Terms::new(variant.parse().unwrap())
    };
    let c = svc.offer(a, d, &terms, None).await.unwrap();
    let id = svc.accept(d, Some(c.id), None).await.unwrap().id;
    // A turn each (the first legal move): a result before it is not rated.
    for who in [a, d] {
        let (_, moves) = svc.legal_moves(who, Some(id), None).await.unwrap();
        svc.play(who, Some(id), None, &moves[0]).await.unwrap();
    }
    let loser = if attackers_win { d } else { a };
    svc.resign(loser, Some(id), None).await.unwrap();
}

/// A server where every one of [`PLAYERS`] has played, and player 0 has 300 rated games.
async fn server(path: &str) -> Service {
    let pool = taflbot::store::open(path).await.unwrap();
    let clock = Arc::new(TestClock::new(1_800_000_000));
    let svc = Service::new(pool, clock.clone()).scoped(Scope::Server(GUILD.into()));
    let started = std::time::Instant::now();
    // Everyone plays their neighbour; the results follow a fixed pattern.
    for i in (0..PLAYERS).step_by(2) {
        rated(&svc, &person(i), &person(i + 1), "tyr-11", i % 3 != 0).await;
        if i % 1000 == 0 {
            clock.advance(DAY);
        }
    }
    for i in (1..PLAYERS - 1).step_by(2) {
        rated(&svc, &person(i), &person(i + 1), "tyr-11", i % 5 != 0).await;
    }
    let variants = ["tyr-11", "copenhagen", "tablut"];
    for g in 0..300 {
        let opponent = person(1 + (g * 37) % (PLAYERS - 1));
        rated(&svc, &person(0), &opponent, variants[g % 3], g % 4 != 0).await;
        clock.advance(DAY / 3);
    }
    println!(
        "built a server of {PLAYERS} rated players through the service in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    svc
}

fn leaderboard_and_profile(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("taflbot-ratings-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("server.db");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let svc = runtime.block_on(server(path.to_str().unwrap()));
    let mut group = c.benchmark_group("ratings (10,000 players)");
    group.sample_size(30);
    group.bench_function("leaderboard, first page", |b| {
        b.iter(|| black_box(runtime.block_on(svc.leaderboard(None, 1)).unwrap()))
    });
    group.bench_function("leaderboard, page 300", |b| {
        b.iter(|| {
            black_box(
                runtime
                    .block_on(svc.leaderboard("tyr-11".parse().ok(), 300))
                    .unwrap(),
            )
        })
    });
    let champion = person(0);
    group.bench_function("profile (300 rated games)", |b| {
        b.iter(|| black_box(runtime.block_on(svc.profile(&champion)).unwrap()))
    });
    let profile = runtime.block_on(svc.profile(&champion)).unwrap();
    group.bench_function("profile's chart (3 lines)", |b| {
        b.iter(|| {
            black_box(
                runtime
                    .block_on(svc.rating_chart(&profile.player, &profile))
                    .unwrap(),
            )
        })
    });
    group.bench_function("profile with its chart", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let p = svc.profile(&champion).await.unwrap();
                black_box(svc.rating_chart(&p.player, &p).await.unwrap())
            })
        })
    });
    group.finish();
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, leaderboard_and_profile);

fn main() {
    // `cargo test --benches` runs bench binaries without `--bench`: building the server is not
    // worth it there.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

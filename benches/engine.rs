//! The engine's speed: positions searched per second, per family, on mid-game positions of
//! seeded random games (the rules benchmark's, and the same kind for the other boards). Each
//! search stops after a fixed number of positions, checked as it goes, so it visits the same
//! positions on every run; the throughput is in nodes per second, every cost of a search (its
//! table, its set-up) included.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taflbot::engine::{think, Limits, Settings};
use taflbot::rules::Game;

mod common;
use common::midgame_positions;

/// One variant per family: the 11x11 boards where the family has one; and TYR's largest board,
/// where counting the king's room costs most.
const FAMILIES: [&str; 9] = [
    "tyr-11",
    "tyr-17",
    "odin-11",
    "sea-battle-11",
    "copenhagen",
    "fetlar",
    "tablut",
    "brandubh",
    "standard-7",
];

/// Positions per search, about: the limit is checked every 1,024.
const NODES: u64 = 200_000;

fn nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for id in FAMILIES {
        let games: Vec<Game> = midgame_positions(id, 8)
            .into_iter()
            .map(Game::from_position)
            .collect();
        let settings = Settings {
            limits: Limits {
                nodes: Some(NODES),
                ..Limits::default()
            },
            ..Settings::depth(1)
        };
        let nodes: u64 = games
            .iter()
            .map(|g| think(g, &settings).unwrap().nodes)
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{id} ({nodes} nodes)"), |b| {
            b.iter(|| {
                for g in &games {
                    black_box(think(g, &settings).unwrap());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nodes_per_second);
criterion_main!(benches);

//! The engine's speed: positions searched per second, per family, on mid-game positions of
//! seeded random games (the rules benchmark's, and the same kind for the other boards). Each
//! search is a fixed depth, so it visits the same positions on every run; the throughput is in
//! nodes per second.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taflbot::engine::{think, Settings};
use taflbot::rules::Game;

mod common;
use common::midgame_positions;

/// One variant per family: the 11x11 boards where the family has one.
const FAMILIES: [(&str, u32); 8] = [
    ("tyr-11", 4),
    ("odin-11", 4),
    ("sea-battle-11", 4),
    ("copenhagen", 4),
    ("fetlar", 4),
    ("tablut", 5),
    ("brandubh", 6),
    ("standard-7", 4),
];

fn nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for (id, depth) in FAMILIES {
        let games: Vec<Game> = midgame_positions(id, 8)
            .into_iter()
            .map(Game::from_position)
            .collect();
        let settings = Settings {
            table_bits: 16,
            ..Settings::depth(depth)
        };
        let nodes: u64 = games
            .iter()
            .map(|g| think(g, &settings).unwrap().nodes)
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{id} depth {depth} ({} nodes)", nodes), |b| {
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

//! The engine's speed: positions searched per second, per family, on mid-game positions of
//! seeded random games (the rules benchmark's, and the same kind for the other boards). Each
//! search stops after a fixed number of positions, checked as it goes, so it visits the same
//! positions on every run; the throughput is in nodes per second, every cost of a search (its
//! table, its set-up) included.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taflbot::cli::{trial_net, trial_weights};
use taflbot::engine::{think, Eval, Settings};
use taflbot::rules::Game;

mod common;
use common::midgame_positions;

/// One variant per family: the 11x11 boards where the family has one; and the largest boards
/// (17x17), where counting the king's room costs most, with and without commanders and V-men.
const FAMILIES: [&str; 11] = [
    "tyr-11",
    "tyr-17",
    "tyr-commanders-17",
    "odin-17",
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

/// The sets timed: the classic and the taught one, and a weights file (as `tune` writes) where
/// `TAFLBOT_TRIAL` names one, so that a fit's speed is measured beside them in the same run;
/// `TAFLBOT_TRIAL_NET` gives the trial set a network file, or `none` (the taught rows without
/// their networks, where `TAFLBOT_TRIAL` is not given).
fn evals() -> Vec<Eval> {
    let mut evals = vec![Eval::Classic, Eval::Taught];
    if let Some(path) = std::env::var_os("TAFLBOT_TRIAL") {
        trial_weights(std::path::Path::new(&path))
            .unwrap_or_else(|e| panic!("TAFLBOT_TRIAL: {}", e.text));
        evals.push(Eval::Trial);
    }
    // The trial set's network: a file (as `taflbot net` writes), or `none` for its rows alone.
    if let Some(name) = std::env::var_os("TAFLBOT_TRIAL_NET") {
        trial_net(&name.to_string_lossy())
            .unwrap_or_else(|e| panic!("TAFLBOT_TRIAL_NET: {}", e.text));
        if !evals.contains(&Eval::Trial) {
            evals.push(Eval::Trial);
        }
    }
    evals
}

fn nodes_per_second(c: &mut Criterion) {
    let evals = evals();
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for id in FAMILIES {
        let games: Vec<Game> = midgame_positions(id, 8)
            .into_iter()
            .map(Game::from_position)
            .collect();
        // The taught weights beside the classic ones (and the trial's), in the same run.
        for &eval in &evals {
            let settings = Settings {
                eval,
                ..Settings::nodes(NODES)
            };
            let nodes: u64 = games
                .iter()
                .map(|g| think(g, &settings).unwrap().nodes)
                .sum();
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{id} {} ({nodes} nodes)", eval.name()), |b| {
                b.iter(|| {
                    for g in &games {
                        black_box(think(g, &settings).unwrap());
                    }
                })
            });
        }
    }
    group.finish();
}

/// A review of a 60-turn Copenhagen game (the first of the corpus that long, cut at 60 turns):
/// each turn weighed against the best in one search on the review's budget, on one core. The aim
/// is 10 s at most.
fn review_of_a_game(c: &mut Criterion) {
    use taflbot::engine::review::{review, Curve, BUDGET};
    let copenhagen = taflbot::rules::Variant::by_id("copenhagen").unwrap();
    let moves = include_str!("../data/copenhagen.csv")
        .lines()
        .map(|row| row.split(',').next().unwrap())
        .find(|moves| moves.split_whitespace().count() >= 60)
        .unwrap();
    let sixty: Vec<&str> = moves.split_whitespace().take(60).collect();
    let game = taflbot::notation::import_moves(copenhagen, &sixty.join(" ")).unwrap();
    assert_eq!(game.turns().len(), 60);
    let mut group = c.benchmark_group("review");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(40));
    group.bench_function("copenhagen, 60 turns", |b| {
        b.iter(|| black_box(review(&game, 0, &Curve::of(copenhagen), BUDGET)))
    });
    group.finish();
}

criterion_group!(benches, nodes_per_second, review_of_a_game);
criterion_main!(benches);

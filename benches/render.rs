//! Picture speed and size: a PNG of a mid-game position (composing and encoding), the encoder's
//! settings compared, a GIF of a 100-turn game, and a tournament's crosstable of 32. Sizes are printed when the benchmark starts.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use taflbot::render::{
    encode_png_with, CrossRow, PngSettings, Renderer, Scene, Theme, PNG_SETTINGS,
};
use taflbot::rules::random::{play_random, Rng};
use taflbot::rules::{Game, Variant};

/// A random game of `turns` turns at least (the first seed whose game lasts that long), cut there.
fn random_game(id: &str, turns: usize) -> Game {
    let v = Variant::by_id(id).unwrap();
    for seed in 0.. {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(v);
        while game.outcome().is_none() && game.turns().len() < turns {
            play_random(&mut game, &mut rng, 1);
        }
        if game.turns().len() >= turns && game.outcome().is_none() {
            return game;
        }
    }
    unreachable!()
}

fn png(c: &mut Criterion) {
    let renderer = Renderer::new();
    let mut group = c.benchmark_group("png");
    for (id, turns) in [
        ("tyr-11", 40),
        ("tyr-17", 60),
        ("standard-13", 40),
        ("sea-battle-11", 40),
    ] {
        let game = random_game(id, turns);
        let scene = Scene::game(&game);
        let bytes = renderer.png(&scene, Theme::Classic);
        let frame = renderer.frame(&scene, Theme::Classic);
        eprintln!(
            "{id}: {}x{} px, PNG {} bytes ({:.1} KiB)",
            frame.width,
            frame.height,
            bytes.len(),
            bytes.len() as f64 / 1024.0
        );
        group.bench_function(format!("{id} draw+encode"), |b| {
            b.iter(|| black_box(renderer.png(black_box(&scene), Theme::Classic)))
        });
        group.bench_function(format!("{id} draw"), |b| {
            b.iter(|| black_box(renderer.frame(black_box(&scene), Theme::Classic)))
        });
    }
    group.finish();
}

fn settings(c: &mut Criterion) {
    let renderer = Renderer::new();
    let game = random_game("tyr-11", 40);
    let frame = renderer.frame(&Scene::game(&game), Theme::Classic);
    let mut group = c.benchmark_group("png_settings_tyr-11");
    let candidates = [
        ("fast up (chosen)", PNG_SETTINGS),
        (
            "fast sub",
            PngSettings {
                compression: png::Compression::Fast,
                filter: png::Filter::Sub,
            },
        ),
        (
            "fast none",
            PngSettings {
                compression: png::Compression::Fast,
                filter: png::Filter::NoFilter,
            },
        ),
        (
            "fast adaptive",
            PngSettings {
                compression: png::Compression::Fast,
                filter: png::Filter::Adaptive,
            },
        ),
        (
            "balanced sub",
            PngSettings {
                compression: png::Compression::Balanced,
                filter: png::Filter::Sub,
            },
        ),
        (
            "high sub",
            PngSettings {
                compression: png::Compression::High,
                filter: png::Filter::Sub,
            },
        ),
    ];
    for (name, s) in candidates {
        let size = encode_png_with(&frame, s).len();
        eprintln!(
            "encode {name}: {size} bytes ({:.1} KiB)",
            size as f64 / 1024.0
        );
        group.bench_function(name, |b| b.iter(|| black_box(encode_png_with(&frame, s))));
    }
    group.finish();
}

fn gif(c: &mut Criterion) {
    let renderer = Renderer::new();
    let game = random_game("tyr-11", 100);
    let bytes = renderer.gif(&game, Theme::Classic, false, None);
    eprintln!(
        "tyr-11 GIF of {} turns: {} bytes ({:.1} KiB)",
        game.turns().len(),
        bytes.len(),
        bytes.len() as f64 / 1024.0
    );
    let mut group = c.benchmark_group("gif");
    group.sample_size(20);
    group.bench_function("tyr-11 100 turns", |b| {
        b.iter(|| black_box(renderer.gif(&game, Theme::Classic, false, None)))
    });
    group.finish();
}

/// A tournament's crosstable at its largest (32 players, every cell filled, names of the most
/// characters drawn), as posted after each result.
fn crosstable(c: &mut Criterion) {
    let n = 32;
    let rows: Vec<CrossRow> = (0..n)
        .map(|i| CrossRow {
            name: format!("player number {i} with a long name"),
            withdrawn: i % 9 == 8,
            cells: (0..n)
                .map(|j| (i != j).then(|| ["0", "½", "1", "1½", "2"][(i * 7 + j) % 5].to_string()))
                .collect(),
            points: format!("{}½", n - i),
            tie_break: format!("{:.2}", 100.0 - i as f64),
        })
        .collect();
    let bytes =
        taflbot::render::crosstable("#1 A tournament of 32", &rows, Theme::Classic).unwrap();
    eprintln!(
        "crosstable of {n}: {} bytes ({:.1} KiB)",
        bytes.len(),
        bytes.len() as f64 / 1024.0
    );
    let mut group = c.benchmark_group("crosstable");
    group.sample_size(20);
    group.bench_function("32 players", |b| {
        b.iter(|| {
            black_box(taflbot::render::crosstable(
                "#1 A tournament of 32",
                &rows,
                Theme::Classic,
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, png, settings, gif, crosstable);
criterion_main!(benches);

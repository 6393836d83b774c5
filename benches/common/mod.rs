//! What the benchmarks share: the positions they measure on, and the frame of a bench binary.

// Each bench binary uses its part.
#![allow(dead_code)]

use std::future::Future;
use std::path::{Path, PathBuf};

use taflbot::rules::random::{playout, Rng};
use taflbot::rules::{Position, Variant};

/// Mid-game positions (plies 20 to 60 of random games, not over, no open chain).
pub fn midgame_positions(id: &str, count: usize) -> Vec<Position> {
    let v = Variant::by_id(id).unwrap();
    let start = Position::start(v);
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        let mut rng = Rng::new(seed);
        seed += 1;
        let mut ply = 0;
        playout(&start, &mut rng, 60, |pos, _| {
            ply += 1;
            if ply >= 20
                && ply % 10 == 0
                && pos.chain().is_none()
                && !pos.is_over()
                && out.len() < count
            {
                out.push(pos.clone());
            }
        });
    }
    out
}

/// Runs the body of an async bench binary on a multi-threaded runtime, with a scratch folder that
/// is removed after. Only under `cargo bench` (`--bench` given): `cargo test --benches` also runs
/// bench binaries, and that stays quick.
pub fn bench_binary<F: Future<Output = ()>>(name: &str, body: impl FnOnce(PathBuf) -> F) {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("taflbot-{name}-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(body(dir.clone()));
    remove(&dir);
}

fn remove(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

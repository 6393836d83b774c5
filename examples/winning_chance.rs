//! Fits the review's winning-chance curve (`taflbot::engine::review::CURVE`) on the Copenhagen
//! corpus, and measures what the marks' thresholds are set against.
//!
//! From each decided game, two positions at plies drawn at random are scored on the review's
//! budget; the side to move's score and whether that side won the game are the samples of a
//! logistic fit. At each position the engine's own turn and the turn played in the game are
//! scored too: the drop of the mover's chance after the engine's own turn is the noise of the
//! measure (a turn the engine itself would play should not be marked), and the players' drops
//! show how often each mark falls.
//!
//! `cargo run --release --example winning_chance [-- GAMES]`

use taflbot::engine::review::{fit, Curve, BUDGET, CURVE, THRESHOLDS};
use taflbot::engine::{think, Settings};
use taflbot::notation::import_moves;
use taflbot::rules::random::Rng;
use taflbot::rules::{Game, Side, Variant};

struct Sample {
    side: Side,
    score: i32,
    won: bool,
    /// The opponent's score after the engine's turn and after the turn played.
    after_best: i32,
    after_played: Option<i32>,
}

/// The score for the side to move; terminal positions by their result.
fn score(game: &Game) -> i32 {
    let side = game.position().turn();
    match game.outcome() {
        Some(o) => match o.winner {
            Some(w) if w == side => taflbot::engine::WIN,
            Some(_) => -taflbot::engine::WIN,
            None => 0,
        },
        None => think(game, &Settings::nodes(BUDGET)).map_or(0, |t| t.score),
    }
}

fn sample(game: &Game, plies: usize, winner: Side) -> Option<Sample> {
    let variant = game.variant();
    let mut g = Game::new(variant);
    for t in &game.turns()[..plies] {
        for m in &t.moves {
            g.play(m.mv).ok()?;
        }
    }
    if g.outcome().is_some() {
        return None;
    }
    let side = g.position().turn();
    let thought = think(&g, &Settings::nodes(BUDGET)).ok()?;
    let mut best = g.clone();
    for m in thought.moves() {
        best.play(m).ok()?;
    }
    let after_played = game.turns().get(plies).and_then(|t| {
        let mut played = g.clone();
        for m in &t.moves {
            played.play(m.mv).ok()?;
        }
        Some(score(&played))
    });
    Some(Sample {
        side,
        score: thought.score,
        won: side == winner,
        after_best: score(&best),
        after_played,
    })
}

fn drop(curve: &Curve, side: Side, before: i32, after: i32) -> f64 {
    (curve.chance(side, before) - (1.0 - curve.chance(side.other(), after))).max(0.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let limit: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    let variant = Variant::by_id("copenhagen").expect("copenhagen is a variant");
    let corpus = include_str!("../data/copenhagen.csv");
    let games: Vec<(Game, Side)> = corpus
        .lines()
        .filter_map(|row| {
            let mut cols = row.rsplitn(4, ',');
            let winner = taflbot::notation::listed_winner(cols.next()?)?;
            let moves = cols.nth(2)?;
            Some((import_moves(variant, moves).ok()?, winner))
        })
        .take(limit)
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = games.len().div_ceil(threads);
    let samples: Vec<Sample> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(chunk.max(1))
            .enumerate()
            .map(|(part, games)| {
                s.spawn(move || {
                    let mut rng = Rng::new(part as u64 + 1);
                    let mut out = Vec::new();
                    for (game, winner) in games {
                        let plies = game.turns().len();
                        if plies < 2 {
                            continue;
                        }
                        for _ in 0..2 {
                            if let Some(x) = sample(game, rng.below(plies), *winner) {
                                out.push(x);
                            }
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a sampling thread"))
            .collect()
    });
    let points: Vec<(Side, i32, bool)> = samples.iter().map(|s| (s.side, s.score, s.won)).collect();
    let curve = fit(&points);
    println!(
        "{} games, {} positions: slope {:.5}, intercepts attackers {:.3}, defenders {:.3}",
        games.len(),
        samples.len(),
        curve.slope,
        curve.intercept[Side::Attackers],
        curve.intercept[Side::Defenders]
    );
    println!(
        "(in use: slope {:.5}, intercepts {:.3} / {:.3})",
        CURVE.slope,
        CURVE.intercept[Side::Attackers],
        CURVE.intercept[Side::Defenders]
    );
    let mut own: Vec<f64> = samples
        .iter()
        .map(|s| drop(&curve, s.side, s.score, s.after_best))
        .collect();
    own.sort_by(f64::total_cmp);
    let mut played: Vec<f64> = samples
        .iter()
        .filter_map(|s| Some(drop(&curve, s.side, s.score, s.after_played?)))
        .collect();
    played.sort_by(f64::total_cmp);
    for (name, drops) in [("engine's own turns", &own), ("turns played", &played)] {
        println!(
            "{name}: drop at 50 % {:.3}, 75 % {:.3}, 90 % {:.3}, 95 % {:.3}, 99 % {:.3}",
            percentile(drops, 0.5),
            percentile(drops, 0.75),
            percentile(drops, 0.9),
            percentile(drops, 0.95),
            percentile(drops, 0.99)
        );
        let share = |t: f64| {
            drops.iter().filter(|&&d| d >= t).count() as f64 / drops.len().max(1) as f64 * 100.0
        };
        println!(
            "  at or past the thresholds {:?}: {:.1} %, {:.1} %, {:.1} %",
            THRESHOLDS,
            share(THRESHOLDS[0]),
            share(THRESHOLDS[1]),
            share(THRESHOLDS[2])
        );
    }
}

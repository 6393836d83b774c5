//! Fits a variant's review winning-chance curve (`taflbot::engine::review::Curve::of`), and
//! measures what the marks' thresholds are set against.
//!
//! The games: the recorded games of Copenhagen (1,752) and Brandubh (523) where no OPENING is
//! given, and otherwise games the engine plays against itself on the variant's own board (from
//! OPENING random opening turns, three where none is given, after THIN men of one side at most
//! are taken off the start, none where none is given; 3,000 nodes a turn, seeded).
//! From each decided game, two positions at plies drawn at random from the game's own seed (the
//! same on any number of threads) are searched on the review's budget with the given weights
//! (the reviews' own, the taught ones, where none are given); the side to move's steady score,
//! the one a review reads, and whether that side won the game are the samples of a logistic fit.
//! At each position the turn played in the game and the engine's own turn on a quarter of the
//! review's budget are weighed as a review weighs them (`review::weigh_turn`): the players' drops
//! show how often each mark falls, and the engine's say how often a turn a lesser search of the
//! engine's own would play is marked.
//!
//! `cargo run --release --example winning_chance [-- VARIANT [GAMES [WEIGHTS [OPENING [THIN]]]]]`
//! (a variant id, copenhagen where none is given; WEIGHTS taught or classic)

use taflbot::engine::review::{self, fit, turn_steps, weigh_turn, Curve, BUDGET, THRESHOLDS};
use taflbot::engine::teach::{self_play, self_play_settings, Start};
use taflbot::engine::{think, Eval, Settings};
use taflbot::notation::recorded_game;
use taflbot::rules::random::Rng;
use taflbot::rules::{Game, Side, Variant};

struct Sample {
    side: Side,
    /// The position's steady score on the review's search, the score a review turns into a
    /// chance (`Thought::steady_score`).
    score: i32,
    won: bool,
    /// The mover's score after the engine's own turn on a quarter of the budget, and after the
    /// turn played, each weighed in the same search as the best.
    after_own: i32,
    after_played: Option<i32>,
}

/// The review's search with `eval`'s weights, on `nodes`.
fn settings(eval: Eval, nodes: u64) -> Settings {
    Settings {
        eval,
        ..review::settings(nodes)
    }
}

fn sample(game: &Game, plies: usize, winner: Side, eval: Eval) -> Option<Sample> {
    let g = game.after_turns(plies);
    g.outcome().is_none().then_some(())?;
    let side = g.position().turn();
    let judge = settings(eval, BUDGET);
    let score = think(&g, &judge).ok()?.steady_score();
    let own = think(&g, &settings(eval, BUDGET / 4)).ok()?;
    let weighed_own = weigh_turn(&g, &own.turn, &judge)?;
    let after_played = game
        .turns()
        .get(plies)
        .and_then(|t| weigh_turn(&g, &turn_steps(&g, t)?, &judge));
    Some(Sample {
        side,
        score,
        won: side == winner,
        after_own: weighed_own.played,
        after_played: after_played.map(|w| w.played),
    })
}

fn drop(curve: &Curve, side: Side, before: i32, after: i32) -> f64 {
    (curve.chance(side, before) - curve.chance(side, after)).max(0.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The decided games to sample: a variant's recorded games where it has them (Copenhagen's and
/// Brandubh's) and `recorded`, else self-play from `start`.
fn games_of(
    variant: &'static Variant,
    limit: usize,
    eval: Eval,
    start: Start,
    recorded: bool,
) -> Vec<(Game, Side)> {
    let corpus = match variant.id {
        "copenhagen" if recorded => Some(include_str!("../data/copenhagen.csv")),
        "brandubh" if recorded => Some(include_str!("../data/brandubh.csv")),
        _ => None,
    };
    if let Some(corpus) = corpus {
        return corpus
            .lines()
            .filter_map(|line| match recorded_game(variant, line)? {
                (game, Some(winner)) => Some((game, winner)),
                _ => None,
            })
            .take(limit)
            .collect();
    }
    (1..=limit.min(400) as u64)
        .filter_map(|seed| {
            let game = played_against_itself(variant, seed, eval, start);
            let winner = game.outcome()?.winner?;
            Some((game, winner))
        })
        .collect()
}

/// A game the engine plays against itself from `start` drawn from `seed`, 3,000 nodes a turn,
/// 300 turns at most.
fn played_against_itself(variant: &'static Variant, seed: u64, eval: Eval, start: Start) -> Game {
    self_play(variant, &self_play_settings(3_000, eval), start, seed, 300).game
}

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "copenhagen".to_string());
    let variant = Variant::by_id(&id).expect("a variant id: copenhagen, brandubh, tyr-11, ...");
    let limit: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    let eval = Eval::by_name(&args.next().unwrap_or_else(|| "taught".to_string()))
        .expect("weights: classic or taught");
    // A variant with recorded games is fitted on them unless an OPENING is given.
    let opening: Option<usize> = args.next().and_then(|a| a.parse().ok());
    let thin = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let start = Start {
        opening: opening.unwrap_or(3),
        thin,
        spread: 0,
    };
    let games = games_of(variant, limit, eval, start, opening.is_none());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = games.len().div_ceil(threads).max(1);
    let samples: Vec<Sample> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .enumerate()
            .map(|(part, games)| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for (i, (game, winner)) in games.iter().enumerate() {
                        // Each game's plies are drawn from its own seed: the same samples on
                        // any number of threads.
                        let mut rng = Rng::new((part * chunk + i) as u64 + 1);
                        let plies = game.turns().len();
                        if plies < 2 {
                            continue;
                        }
                        for _ in 0..2 {
                            if let Some(x) = sample(game, rng.below(plies), *winner, eval) {
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
    let in_use = Curve::of(variant);
    println!(
        "(in use: slope {:.5}, intercepts {:.3} / {:.3})",
        in_use.slope,
        in_use.intercept[Side::Attackers],
        in_use.intercept[Side::Defenders]
    );
    let mut own: Vec<f64> = samples
        .iter()
        .map(|s| drop(&curve, s.side, s.score, s.after_own))
        .collect();
    own.sort_by(f64::total_cmp);
    let mut played: Vec<f64> = samples
        .iter()
        .filter_map(|s| Some(drop(&curve, s.side, s.score, s.after_played?)))
        .collect();
    played.sort_by(f64::total_cmp);
    for (name, drops) in [
        ("engine's own turns on a quarter of the budget", &own),
        ("turns played", &played),
    ] {
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

//! How much a review's chart saws by the side to move, on recorded Copenhagen games: the gap
//! between the chance after a turn and the chance before the next (0 when each position has one
//! chance), and the lag-one autocorrelation of the defenders' chance from ply to ply (a sawtooth,
//! one tooth a ply, drives it towards -1; a smooth line keeps it near 0 or above).
//!
//! `cargo run --release --example review_zigzag [-- GAMES [FROM]]` (three games from the 100th
//! where none are given; only games of 60 turns or more are taken)

use taflbot::engine::review::{review, Curve, BUDGET};
use taflbot::notation::recorded_game;
use taflbot::rules::{Side, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let from: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let v = Variant::by_id("copenhagen").expect("copenhagen");
    let curve = Curve::of(v);
    let (mut gaps, mut worst, mut steps, mut lagged, mut squares) = (0.0, 0.0f64, 0usize, 0.0, 0.0);
    for line in include_str!("../data/copenhagen.csv")
        .lines()
        .skip(from)
        .filter_map(|l| recorded_game(v, l).map(|g| g.0))
        .filter(|g| g.turns().len() >= 60)
        .take(games)
    {
        let game = line.after_turns(60);
        let r = review(&game, 0, &curve, BUDGET);
        let defenders = |side: Side, c: f64| if side == Side::Defenders { c } else { 1.0 - c };
        for pair in r.turns.windows(2) {
            let gap = (defenders(pair[0].side, pair[0].after)
                - defenders(pair[1].side, pair[1].before))
            .abs();
            gaps += gap;
            worst = worst.max(gap);
            steps += 1;
        }
        let chances = r.defenders_chances();
        let changes: Vec<f64> = chances.windows(2).map(|w| w[1] - w[0]).collect();
        for pair in changes.windows(2) {
            lagged += pair[0] * pair[1];
        }
        squares += changes.iter().map(|d| d * d).sum::<f64>();
    }
    println!(
        "{games} games of 60 turns: gap between a turn's after and the next turn's before: mean {:.3}, \
         largest {worst:.3}; lag-one autocorrelation of the chart's changes {:.2}",
        gaps / steps.max(1) as f64,
        lagged / squares.max(f64::MIN_POSITIVE)
    );
}

//! Finds, in Copenhagen games the attackers lost to an escape, the attackers' turn after which
//! the escape was forced, and writes the position before it: the forced-escape suite
//! (`data/forced-escapes.txt`, read by `tests/rules/escapes.rs`).
//!
//! For each game, every attackers' turn is tried from the first: the position after it is
//! searched on a fixed budget, and the first after which the defenders' win is forced is the
//! turn the suite asks about. The position before it goes in the suite when the same search
//! finds no forced loss for the attackers there (so the escape could still be stopped, as far
//! as the search sees). Deterministic: the searches are limited by nodes.
//!
//! `cargo run --release --example forced_escapes -- GAMES_FILE > data/forced-escapes.txt`

use taflbot::engine::{think, Settings};
use taflbot::notation::import_moves;
use taflbot::rules::{Game, Side, Variant};

/// The budget of each search: deep enough to see escapes several turns ahead.
const NODES: u64 = 2_000_000;

/// Plies within which a forced win counts.
const WITHIN: i32 = 9;

/// Whether the side to move in `game` has a forced win (positive) or loss (negative) within
/// [`WITHIN`] plies, as the search sees it.
fn forced(game: &Game) -> Option<i32> {
    let thought = think(game, &Settings::nodes(NODES)).ok()?;
    thought.won_in.filter(|p| p.abs() <= WITHIN)
}

fn main() {
    let path = std::env::args().nth(1).expect("the games file");
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let variant = Variant::by_id("copenhagen").expect("copenhagen");
    println!(
        "# The forced-escape suite: for each Copenhagen game the attackers lost, the moves up"
    );
    println!("# to the attackers' turn after which the escape was forced, then that turn.");
    println!("# Made by `cargo run --release --example forced_escapes -- {path}`.");
    for (number, line) in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
    {
        let moves: Vec<&str> = line.split_whitespace().collect();
        let mut found = None;
        for ply in 0..moves.len() {
            let Ok(before) = import_moves(variant, &moves[..ply].join(" ")) else {
                break;
            };
            if before.outcome().is_some() || before.position().turn() != Side::Attackers {
                continue;
            }
            let Ok(after) = import_moves(variant, &moves[..=ply].join(" ")) else {
                break;
            };
            if after.outcome().is_some() {
                break;
            }
            if let Some(p) = forced(&after).filter(|p| *p > 0) {
                let lost_before = forced(&before).is_some_and(|p| p < 0);
                eprintln!(
                    "game {}: ply {ply} {} forces the escape in {p}{}",
                    number + 1,
                    moves[ply],
                    if lost_before { " (lost already)" } else { "" }
                );
                if !lost_before {
                    found = Some(ply);
                }
                break;
            }
        }
        if let Some(ply) = found {
            println!("{} | {}", moves[..ply].join(" "), moves[ply]);
        }
    }
}

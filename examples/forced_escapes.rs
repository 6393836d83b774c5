//! Finds, in Copenhagen games the attackers lost to an escape, the attackers' turn after which
//! the escape was forced, and writes the position before it: the forced-escape suite
//! (`data/forced-escapes.txt` from the games lost to an outside engine, and
//! `data/forced-escapes-selfplay.txt` from the self-play games of `examples/escape_games.rs`;
//! read by `tests/rules/escapes.rs`).
//!
//! For each game, every attackers' turn is tried from the first: the position after it is
//! searched on a fixed budget, and the first after which the defenders' win is forced is the
//! turn the suite asks about. The position before it goes in the suite when a search eight times
//! as large, with a larger table, finds no forced loss for the attackers there (so the escape
//! could still be stopped, as far as the search sees): the position before the turn is a ply
//! further from the escape, and a search of the first budget does not see that far.
//! Deterministic: the searches are limited by nodes.
//!
//! `cargo run --release --example forced_escapes -- GAMES_FILE > data/forced-escapes.txt`

use taflbot::engine::{forced_with, forced_within, Settings};
use taflbot::notation::read_move;
use taflbot::rules::{Game, Side, Variant};

/// The budget of each search: deep enough to see escapes several turns ahead.
const NODES: u64 = 2_000_000;

/// The budget of the search that asks whether the position before the turn was lost already.
const LOST_NODES: u64 = 8 * NODES;

/// Its table: a search of that size needs more than the usual 2^18 entries to see as far.
const LOST_TABLE_BITS: u32 = 22;

/// Plies within which a forced win counts.
const WITHIN: i32 = 9;

/// Whether the attackers, to move in `before`, lose within [`WITHIN`] plies whatever they play,
/// as a search of [`LOST_NODES`] sees with a table of 2^[`LOST_TABLE_BITS`] entries.
fn lost_already(before: &Game) -> bool {
    let settings = Settings {
        table_bits: LOST_TABLE_BITS,
        ..Settings::nodes(LOST_NODES)
    };
    forced_with(before, &settings, WITHIN).is_some_and(|p| p < 0)
}

/// The ply of the attackers' turn in `moves` after which the escape is forced, if the position
/// before it was not lost already. The game is played once, move by move.
fn forcing_turn(variant: &'static Variant, moves: &[&str], number: usize) -> Option<usize> {
    let mut before = Game::new(variant);
    for (ply, text) in moves.iter().enumerate() {
        let mut after = before.clone();
        let (m, _) = read_move(after.position(), text).ok()?;
        after.play(m).ok()?;
        if after.outcome().is_some() {
            return None;
        }
        if before.position().turn() == Side::Attackers {
            if let Some(p) = forced_within(&after, NODES, WITHIN).filter(|p| *p > 0) {
                let lost_before = lost_already(&before);
                eprintln!(
                    "game {number}: ply {ply} {text} forces the escape in {p}{}",
                    if lost_before { " (lost already)" } else { "" }
                );
                return (!lost_before).then_some(ply);
            }
        }
        before = after;
    }
    None
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
    println!("# search: {NODES} nodes, within {WITHIN} plies");
    println!("# lost already: {LOST_NODES} nodes, a table of 2^{LOST_TABLE_BITS} entries");
    for (number, line) in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
    {
        let moves: Vec<&str> = line.split_whitespace().collect();
        if let Some(ply) = forcing_turn(variant, &moves, number + 1) {
            println!("{} | {}", moves[..ply].join(" "), moves[ply]);
        }
    }
}

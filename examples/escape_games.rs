//! Writes Copenhagen games of the teaching's self-play that the attackers lost to an escape: the
//! taught engine against itself on 3,000 nodes a step from three random opening turns, exactly as
//! `taflbot selfplay --variant copenhagen --eval taught` plays them (game i has seed i). One game
//! a line, moves as aagenielsen.dk writes them, for `examples/forced_escapes.rs` to cut the
//! self-play half of the forced-escape suite from (`data/selfplay-losses-copenhagen.txt`).
//!
//! `cargo run --release --example escape_games -- GAMES > data/selfplay-losses-copenhagen.txt`
//! writes the first GAMES such games.

use taflbot::engine::teach::{self_play, self_play_settings, Start};
use taflbot::engine::Eval;
use taflbot::notation::write_move;
use taflbot::rules::{Reason, Side, Variant};

/// The teaching's self-play: nodes a step, random opening turns, and turns at most.
const NODES: u64 = 3000;
const OPENING: usize = 3;
const MAX_TURNS: usize = 300;

fn main() {
    let wanted: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("how many games");
    let variant = Variant::by_id("copenhagen").expect("copenhagen");
    let settings = self_play_settings(NODES, Eval::Taught);
    println!(
        "# Copenhagen games of the taught engine's self-play ({NODES} nodes a step, {OPENING}"
    );
    println!("# random opening turns) that the attackers lost to an escape, one a line.");
    println!("# Made by `cargo run --release --example escape_games -- {wanted}`.");
    let mut found = 0;
    for seed in 1.. {
        if found == wanted {
            break;
        }
        let start = Start {
            opening: OPENING,
            thin: 0,
            spread: 0,
        };
        let played = self_play(variant, &settings, start, seed, MAX_TURNS);
        let escaped = played
            .game
            .outcome()
            .is_some_and(|o| o.winner == Some(Side::Defenders) && o.reason == Reason::KingEscaped);
        if !escaped {
            continue;
        }
        let moves: Vec<String> = played
            .game
            .turns()
            .iter()
            .flat_map(|t| &t.moves)
            .map(|m| write_move(m.mv, &m.captures))
            .collect();
        println!("# seed {seed}; {} plies", moves.len());
        println!("{}", moves.join(" "));
        found += 1;
    }
}

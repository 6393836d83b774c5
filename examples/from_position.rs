//! Who wins from a position when the engine plays both sides: GAMES games, each after one or
//! two random turns drawn from its seed, NODES nodes a turn with the taught weights.
//!
//! `cargo run --release --example from_position -- VARIANT "POSITION" [GAMES [NODES]]`

use taflbot::engine::teach::self_play_settings;
use taflbot::engine::{steps, take, think, Eval, Settings};
use taflbot::rules::random::Rng;
use taflbot::rules::{parse_position, Game, Side, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = Variant::by_id(&args.next().expect("a variant id")).expect("a variant id");
    let text = args.next().expect("a position string");
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3_000);
    let start = Game::from_position(parse_position(variant, &text).expect("a position"));
    let (mut attackers, mut defenders, mut open) = (0, 0, 0);
    for seed in 1..=games {
        let mut game = start.clone();
        let mut rng = Rng::new(seed);
        for _ in 0..(1 + seed % 2) {
            let options = steps(&game);
            if game.outcome().is_some() || options.is_empty() {
                break;
            }
            take(&mut game, options[rng.below(options.len())]).expect("a listed step");
        }
        let settings = Settings {
            seed,
            ..self_play_settings(nodes, Eval::Taught)
        };
        for _ in 0..300 {
            if game.outcome().is_some() || steps(&game).is_empty() {
                break;
            }
            let Ok(thought) = think(&game, &settings) else {
                break;
            };
            for step in thought.turn {
                take(&mut game, step).expect("a legal step");
            }
        }
        match game.outcome().and_then(|o| o.winner) {
            Some(Side::Attackers) => attackers += 1,
            Some(Side::Defenders) => defenders += 1,
            None => open += 1,
        }
    }
    println!(
        "{games} games at {nodes} nodes: attackers {attackers}, defenders {defenders}, open {open}"
    );
}

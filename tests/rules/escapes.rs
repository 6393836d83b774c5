//! The forced-escape suite: positions of Copenhagen games the engine lost as the attackers
//! (`data/attacking-losses-copenhagen.txt`), each just before the attackers' turn after which
//! the king's escape was forced (`data/forced-escapes.txt`, cut by `examples/forced_escapes.rs`).
//! The engine at its strongest level plays the attackers' turn there, and a deeper search then
//! looks for the defenders' forced win after it.

use taflbot::engine::{forced_within, take, think, Settings};
use taflbot::notation::import_moves;
use taflbot::rules::{Game, Side, Variant};

const SUITE: &str = include_str!("../../data/forced-escapes.txt");

/// How many of the suite's positions the engine stops the escape in, at least: what it does with
/// the taught set of the fifth round, one fewer than the fourth round's 7, a set it beats 61.3 %
/// over 100 pairs (see `BENCHMARKS.md`, "The forced-escape suite").
const STOPPED_AT_LEAST: usize = 6;

/// The suite's positions (attackers to move), each with its game's moves and the turn the
/// game's attackers played there.
fn suite() -> Vec<(Game, &'static str, &'static str)> {
    SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (moves, played) = line.split_once(" | ").expect("moves | turn");
            (copenhagen(moves), moves, played.trim())
        })
        .collect()
}

fn copenhagen(moves: &str) -> Game {
    let variant = Variant::by_id("copenhagen").unwrap();
    import_moves(variant, moves).unwrap_or_else(|e| panic!("{moves}: {e:?}"))
}

/// The deeper search's budget and horizon: those the suite was cut with, as its file says
/// (`# search: N nodes, within P plies`).
fn search() -> (u64, i32) {
    let line = SUITE
        .lines()
        .find_map(|l| l.strip_prefix("# search: "))
        .expect("the suite names its search");
    let words: Vec<&str> = line.split_whitespace().collect();
    match words[..] {
        [nodes, "nodes,", "within", plies, "plies"] => {
            (nodes.parse().expect("nodes"), plies.parse().expect("plies"))
        }
        _ => panic!("a search line of another shape: {line}"),
    }
}

/// Whether the defenders, to move in `game`, have a forced win the deeper search sees.
fn escape_forced(game: &Game) -> bool {
    let (nodes, within) = search();
    forced_within(game, nodes, within).is_some_and(|p| p > 0)
}

#[test]
fn the_suite_is_of_positions_where_the_played_turn_forced_the_escape() {
    let suite = suite();
    assert!(suite.len() >= 10, "{} positions", suite.len());
    for (game, moves, played) in &suite {
        assert_eq!(game.position().turn(), Side::Attackers, "{moves}");
        let after = copenhagen(&format!("{moves} {played}"));
        assert!(after.outcome().is_none(), "{moves} {played}");
        assert!(escape_forced(&after), "{moves} {played}");
    }
}

#[test]
fn the_engine_stops_the_forced_escapes() {
    let suite = suite();
    let mut stopped = 0;
    for (game, _, _) in &suite {
        let thought = think(game, &Settings::level(5, 1)).expect("a game in play");
        let mut after = game.clone();
        for step in thought.turn {
            take(&mut after, step).expect("a legal step");
        }
        if after.outcome().is_some() || !escape_forced(&after) {
            stopped += 1;
        }
    }
    eprintln!("stopped {stopped} of {}", suite.len());
    assert!(
        stopped >= STOPPED_AT_LEAST,
        "the engine stopped {stopped} of {} forced escapes, fewer than {STOPPED_AT_LEAST}",
        suite.len()
    );
}

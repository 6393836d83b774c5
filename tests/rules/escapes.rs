//! The forced-escape suites: positions of Copenhagen games the engine lost as the attackers, each
//! just before the attackers' turn after which the king's escape was forced, cut by
//! `examples/forced_escapes.rs`. One suite is of games lost to an outside engine
//! (`data/attacking-losses-copenhagen.txt` cut into `data/forced-escapes.txt`), the other of the
//! taught engine's own self-play (`data/selfplay-losses-copenhagen.txt`, written by
//! `examples/escape_games.rs`, cut into `data/forced-escapes-selfplay.txt`). The engine at its
//! strongest level plays the attackers' turn there, and a deeper search then looks for the
//! defenders' forced win after it.

use taflbot::engine::{forced_within, take, think, Settings};
use taflbot::notation::import_moves;
use taflbot::rules::{Game, Side, Variant};

/// A suite's text, and how many of its positions the engine stops the escape in, at least.
struct Suite {
    text: &'static str,
    stopped_at_least: usize,
}

/// Games lost to the outside engine. The least stopped is what the engine does with the taught
/// set: 6 of 11, where the classic set stops 1 (see `BENCHMARKS.md`, "The forced-escape suite").
const OUTSIDE: Suite = Suite {
    text: include_str!("../../data/forced-escapes.txt"),
    stopped_at_least: 6,
};

/// The taught engine's self-play on 3,000 nodes a step: level 5 searches far more, and stops 20
/// of its 23 escapes (`BENCHMARKS.md`, "The forced-escape suite").
const SELF_PLAY: Suite = Suite {
    text: include_str!("../../data/forced-escapes-selfplay.txt"),
    stopped_at_least: 20,
};

/// The suite's positions (attackers to move), each with its game's moves and the turn the
/// game's attackers played there.
fn positions(suite: &Suite) -> Vec<(Game, &'static str, &'static str)> {
    suite
        .text
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
fn search(suite: &Suite) -> (u64, i32) {
    let line = suite
        .text
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

/// Whether the defenders, to move in `game`, have a forced win the suite's deeper search sees.
fn escape_forced(suite: &Suite, game: &Game) -> bool {
    let (nodes, within) = search(suite);
    forced_within(game, nodes, within).is_some_and(|p| p > 0)
}

/// Every position is the attackers' to move, and the turn played there forced the escape.
fn assert_cut_right(suite: &Suite) {
    let positions = positions(suite);
    assert!(positions.len() >= 10, "{} positions", positions.len());
    for (game, moves, played) in &positions {
        assert_eq!(game.position().turn(), Side::Attackers, "{moves}");
        let after = copenhagen(&format!("{moves} {played}"));
        assert!(after.outcome().is_none(), "{moves} {played}");
        assert!(escape_forced(suite, &after), "{moves} {played}");
    }
}

/// Level 5 plays the attackers' turn in each position; the escape must be stopped (no forced
/// win for the defenders after it) in at least the suite's number of them.
fn assert_stopped(suite: &Suite) {
    let positions = positions(suite);
    let mut stopped = 0;
    for (game, _, _) in &positions {
        let thought = think(game, &Settings::level(5, 1)).expect("a game in play");
        let mut after = game.clone();
        for step in thought.turn {
            take(&mut after, step).expect("a legal step");
        }
        if after.outcome().is_some() || !escape_forced(suite, &after) {
            stopped += 1;
        }
    }
    eprintln!("stopped {stopped} of {}", positions.len());
    assert!(
        stopped >= suite.stopped_at_least,
        "the engine stopped {stopped} of {} forced escapes, fewer than {}",
        positions.len(),
        suite.stopped_at_least
    );
}

#[test]
fn the_outside_engine_suite_is_of_positions_where_the_played_turn_forced_the_escape() {
    assert_cut_right(&OUTSIDE);
}

#[test]
fn the_self_play_suite_is_of_positions_where_the_played_turn_forced_the_escape() {
    assert_cut_right(&SELF_PLAY);
}

#[test]
fn the_engine_stops_the_outside_engine_forced_escapes() {
    assert_stopped(&OUTSIDE);
}

#[test]
fn the_engine_stops_the_self_play_forced_escapes() {
    assert_stopped(&SELF_PLAY);
}

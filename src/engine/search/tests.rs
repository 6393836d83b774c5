use super::*;
use crate::engine::{steps, Eval};
use crate::rules::random::{play_random, Rng};
use crate::rules::Variant;

/// With the network's sums carried along the line, a search visits the same positions and
/// finds the same step, score and line as one that scores each position's network afresh.
#[test]
fn carrying_the_networks_sums_changes_nothing_the_search_finds() {
    let v = Variant::by_id("copenhagen").unwrap();
    let board = Board::with(v, Eval::Taught);
    assert!(
        board.net().is_some(),
        "Copenhagen's taught set has a network"
    );
    for seed in 0..6 {
        let mut game = Game::new(v);
        play_random(&mut game, &mut Rng::new(seed), 2 * seed as usize + 8);
        if game.outcome().is_some() {
            continue;
        }
        let run = |carry: bool| {
            let mut search = Search::new(board, &game, Limits::nodes(30_000), 16);
            if !carry {
                search.sums = None;
            }
            let found = search.run(&steps(&game));
            (found.best, found.score, found.depth, found.pv, search.nodes)
        };
        assert_eq!(run(true), run(false), "seed {seed}");
    }
}

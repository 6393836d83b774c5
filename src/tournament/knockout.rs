//! Knockouts: a bracket seeded by rating, filled with byes up to the next power of two (the top
//! seeds get them), in the usual order: seeds 1 and 2 can meet only in the final, 1 to 4 only in
//! the semi-finals, and so on. Each round's winners meet in bracket order.
//!
//! A match drawn on points (2–2 in half points) is decided without a further game: the player
//! whose win was shorter in turns goes through (winning quickly is the WTF's tie-break too); when
//! neither won on the board, or both wins were as long, the higher seed does.

use super::{Pair, Pairing, Played, Seed};

/// The first round of a bracket for `players` (seeds `0..players`), in bracket order: a match,
/// or a bye where a seed has no opponent.
pub fn first_round(players: usize) -> Vec<Pairing> {
    let size = players.next_power_of_two().max(2);
    let order = bracket_order(size);
    order
        .chunks(2)
        .filter_map(|two| {
            let (a, b) = (two[0], two[1]);
            match (a < players, b < players) {
                (true, true) => Some(Pairing::Match(Pair::new(a, b))),
                (true, false) => Some(Pairing::Bye(a)),
                (false, true) => Some(Pairing::Bye(b)),
                (false, false) => None,
            }
        })
        .collect()
}

/// The seeds' places in a bracket of `size` (a power of two), top to bottom: 0 and 1 at opposite
/// ends, and each later seed opposite the one it would meet when the favourites win.
pub fn bracket_order(size: usize) -> Vec<Seed> {
    let mut order = vec![0];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n - 1 - s]).collect();
    }
    order
}

/// The next round: the previous round's winners (byes included) in bracket order, paired in
/// turn. Empty once one player is left: the winner.
pub fn next_round(winners: &[Seed]) -> Vec<Pair> {
    if winners.len() < 2 {
        return Vec::new();
    }
    winners
        .chunks(2)
        .map(|two| Pair::new(two[0], two[1]))
        .collect()
}

/// Who goes through from a finished match: more half points, then the shorter win on the board,
/// then the higher seed. `games` are the match's two games.
pub fn match_winner(pair: Pair, games: &[Played]) -> Seed {
    let points = |s: Seed| -> u32 { games.iter().filter_map(|g| g.half_points(s)).sum() };
    let (a, b) = (pair.first, pair.second);
    if points(a) != points(b) {
        return if points(a) > points(b) { a } else { b };
    }
    let shortest = |s: Seed| {
        games
            .iter()
            .filter(|g| !g.forfeit && g.winner() == Some(s))
            .map(|g| g.turns)
            .min()
    };
    match (shortest(a), shortest(b)) {
        (Some(x), Some(y)) if x != y => {
            if x < y {
                a
            } else {
                b
            }
        }
        _ => a.min(b),
    }
}

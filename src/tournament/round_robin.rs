//! Round robins: Berger tables for a group, and groups of at most eight for a larger field, seeded
//! by rating, whose winners meet in a final round robin. By correspondence every match of a group
//! begins at once (as ICCF plays its round robins); the rounds only number the matches.

use super::{Pair, Pairing, Seed};

/// The most players in one group.
pub const GROUP_SIZE: usize = 8;

/// Berger's tables for `players` (seeds `0..players`): the rounds of a round robin, each match
/// once. With an odd number of players one sits out each round (a bye, which in a round robin
/// scores nothing: everyone sits out once).
///
/// The circle method: the last place stays, the others turn one step each round; a round pairs
/// the places from both ends inwards. With 4 players: 0-3 1-2, then 2-3 0-1, then 1-3 2-0. (Which
/// player attacks in a match's first game does not matter: each attacks once.)
pub fn berger(players: usize) -> Vec<Vec<Pairing>> {
    if players < 2 {
        return Vec::new();
    }
    // A place for "nobody" makes the number even.
    let places = players + players % 2;
    let nobody = (players % 2 == 1).then_some(places - 1);
    let mut circle: Vec<Seed> = (0..places).collect();
    let mut rounds = Vec::with_capacity(places - 1);
    for _ in 0..places - 1 {
        let mut pairings = Vec::with_capacity(places / 2);
        for i in 0..places / 2 {
            let (a, b) = (circle[i], circle[places - 1 - i]);
            pairings.push(match (Some(a) == nobody, Some(b) == nobody) {
                (true, _) => Pairing::Bye(b),
                (_, true) => Pairing::Bye(a),
                _ => Pairing::Match(Pair::new(a, b)),
            });
        }
        rounds.push(pairings);
        // Every place but the last turns one step.
        circle[..places - 1].rotate_right(1);
    }
    rounds
}

/// Every match of a round robin among `players`, in Berger's order.
pub fn matches(players: usize) -> Vec<Pair> {
    berger(players)
        .into_iter()
        .flatten()
        .filter_map(|p| match p {
            Pairing::Match(pair) => Some(pair),
            Pairing::Bye(_) => None,
        })
        .collect()
}

/// The groups of a field of `players` (seeds by rating): one group of up to [`GROUP_SIZE`], or
/// as few groups as hold everyone, their sizes differing by one at most, seeded by snake order
/// (the first seeds one to each group, then back the other way), so every group is as strong.
pub fn groups(players: usize) -> Vec<Vec<Seed>> {
    let count = players.div_ceil(GROUP_SIZE).max(1);
    let mut groups = vec![Vec::new(); count];
    for seed in 0..players {
        let (lap, at) = (seed / count, seed % count);
        let group = if lap % 2 == 0 { at } else { count - 1 - at };
        groups[group].push(seed);
    }
    groups
}

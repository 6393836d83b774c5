//! Swiss rounds: each round pairs players with the same score (or as near as can be), never two
//! who have met, within a score group the top half against the bottom half by rating, as the
//! Dutch system does. With an odd number of players, the lowest-placed player who has not had a
//! bye gets one ([`super::BYE_HALF_POINTS`]).
//!
//! The pairing is a depth-first search: the highest-placed player still unpaired takes the best
//! opponent left whose pairing lets everyone else be paired too. Preferred opponents come first,
//! so the first complete pairing found is the one the rules ask for; a search that has to back
//! up is bounded ([`MAX_STEPS`]).

use std::collections::HashSet;

use super::{Pair, Pairing, Seed};

/// The most steps the search takes before it gives up on a round.
pub const MAX_STEPS: usize = 200_000;

/// The most rounds a Swiss of `players` plays: half the players, rounded down (at least one).
/// Within that, a round can always be paired without a rematch: after k rounds each player has
/// met at most k of the others, and while k stays below half the field, those they have not met
/// are more than half of it, and such a graph always has a perfect matching (Dirac). Past it, a
/// field can be left where no pairing exists (six players after three rounds may be left as two
/// triangles of those who have not met).
pub fn max_rounds(players: usize) -> usize {
    (players / 2).max(1)
}

/// One entrant as a Swiss round sees them.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub seed: Seed,
    /// Half points so far.
    pub score: u32,
    /// Whether they have had a bye already.
    pub had_bye: bool,
}

/// The next round's pairings for `entrants` (those still playing, withdrawn players left out),
/// who must not meet anyone in `met` again (pairs as [`Pair::key`]). `None` when no pairing
/// without a rematch exists (or none was found within [`MAX_STEPS`]): the tournament has run out
/// of rounds.
///
/// Each match's first game is attacked by the lower-placed player of the pair; both games
/// begin at once, so this only orders them.
pub fn pair_round(entrants: &[Entrant], met: &HashSet<(Seed, Seed)>) -> Option<Vec<Pairing>> {
    // The order of places: score, then seed (rating).
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by_key(|e| (std::cmp::Reverse(e.score), e.seed));
    let mut search = Search {
        order: &order,
        met,
        paired: vec![false; order.len()],
        chosen: Vec::with_capacity(order.len() / 2),
        steps: 0,
    };
    if order.len().is_multiple_of(2) {
        return search.pair().then(|| search.pairings(None));
    }
    // The bye goes to the lowest place that has not had one (and lets the rest be paired).
    for bye in (0..order.len()).rev().filter(|&i| !order[i].had_bye) {
        search.paired[bye] = true;
        if search.pair() {
            return Some(search.pairings(Some(order[bye].seed)));
        }
        search.paired[bye] = false;
    }
    None
}

struct Search<'a> {
    order: &'a [&'a Entrant],
    met: &'a HashSet<(Seed, Seed)>,
    /// By place in `order`.
    paired: Vec<bool>,
    /// Places paired so far, higher place first.
    chosen: Vec<(usize, usize)>,
    steps: usize,
}

impl Search<'_> {
    /// Pairs every place still unpaired; whether it could.
    fn pair(&mut self) -> bool {
        let Some(top) = (0..self.order.len()).find(|&i| !self.paired[i]) else {
            return true;
        };
        self.paired[top] = true;
        for other in self.candidates(top) {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                break;
            }
            self.paired[other] = true;
            self.chosen.push((top, other));
            if self.pair() {
                return true;
            }
            self.chosen.pop();
            self.paired[other] = false;
        }
        self.paired[top] = false;
        false
    }

    /// The places `top` may meet, best first: their own score group before the groups below
    /// (nearest score first), and within a score group the one as far below `top` as half the
    /// unpaired group (top half against bottom half), then those nearest that place.
    fn candidates(&self, top: usize) -> Vec<usize> {
        let seed = self.order[top].seed;
        let score = self.order[top].score;
        let mut open: Vec<usize> = (0..self.order.len())
            .filter(|&i| !self.paired[i])
            .filter(|&i| {
                !self
                    .met
                    .contains(&Pair::new(seed, self.order[i].seed).key())
            })
            .collect();
        // The rest of `top`'s own score group that is still unpaired (in place order).
        let group: Vec<usize> = (0..self.order.len())
            .filter(|&i| i != top && !self.paired[i] && self.order[i].score == score)
            .collect();
        // Half the group, `top` included, lies above the place it should meet.
        let ideal = group.len().div_ceil(2);
        open.sort_by_key(|&i| {
            let gap = score.abs_diff(self.order[i].score);
            let within = group
                .iter()
                .position(|&g| g == i)
                .map_or(0, |at| at.abs_diff(ideal.saturating_sub(1)));
            (gap, within, i)
        });
        open
    }

    fn pairings(&self, bye: Option<Seed>) -> Vec<Pairing> {
        let mut out: Vec<Pairing> = self
            .chosen
            .iter()
            .map(|&(high, low)| {
                Pairing::Match(Pair::new(self.order[low].seed, self.order[high].seed))
            })
            .collect();
        out.extend(bye.map(Pairing::Bye));
        out
    }
}

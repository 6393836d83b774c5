//! Standings: by points, then among players level on points by the points they took from one
//! another (head-to-head), then Sonneborn-Berger (each game's score times the final points of the
//! opponent it was scored against), then games won on the board, then the shortest win in turns
//! (the WTF's tafl tie-break; no win is last), and last the seed.

use std::cmp::{Ordering, Reverse};

use super::{Played, Seed, BYE_HALF_POINTS};

/// One entrant's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub seed: Seed,
    /// Half points, byes included.
    pub points: u32,
    /// Half points taken from the others level on points (0 when nobody is level).
    pub head_to_head: u32,
    /// Sonneborn-Berger, in quarter points: for each game, its half points times the
    /// opponent's final half points.
    pub sonneborn_berger: u64,
    /// Games won on the board (forfeits left out).
    pub wins: u32,
    /// The shortest win on the board, in turns.
    pub shortest_win: Option<u32>,
    pub games: u32,
    pub byes: u32,
}

/// The standings of `players` entrants (seeds `0..players`) after `games` and `byes` (one seed
/// per bye given), first place first.
pub fn standings(players: usize, games: &[Played], byes: &[Seed]) -> Vec<Standing> {
    let mut table: Vec<Standing> = (0..players)
        .map(|seed| Standing {
            seed,
            points: 0,
            head_to_head: 0,
            sonneborn_berger: 0,
            wins: 0,
            shortest_win: None,
            games: 0,
            byes: 0,
        })
        .collect();
    for &seed in byes.iter().filter(|&&s| s < players) {
        table[seed].points += BYE_HALF_POINTS;
        table[seed].byes += 1;
    }
    let within = |g: &&Played| g.attacker < players && g.defender < players;
    for g in games.iter().filter(within) {
        for seed in [g.attacker, g.defender] {
            let line = &mut table[seed];
            line.points += g.half_points(seed).unwrap_or(0);
            line.games += 1;
            if g.winner() == Some(seed) && !g.forfeit {
                line.wins += 1;
                line.shortest_win = Some(line.shortest_win.map_or(g.turns, |t| t.min(g.turns)));
            }
        }
    }
    let points: Vec<u32> = table.iter().map(|l| l.points).collect();
    for g in games.iter().filter(within) {
        for seed in [g.attacker, g.defender] {
            let scored = u64::from(g.half_points(seed).unwrap_or(0));
            table[seed].sonneborn_berger += scored * u64::from(points[g.opponent(seed)]);
        }
    }
    for line in table.iter_mut() {
        line.head_to_head = games
            .iter()
            .filter(within)
            .filter(|g| {
                let other = g.opponent(line.seed);
                (g.attacker == line.seed || g.defender == line.seed)
                    && other != line.seed
                    && points[other] == line.points
            })
            .filter_map(|g| g.half_points(line.seed))
            .sum();
    }
    table.sort_by(order);
    table
}

/// The order of the standings: better first.
fn order(a: &Standing, b: &Standing) -> Ordering {
    let key = |s: &Standing| {
        (
            Reverse(s.points),
            Reverse(s.head_to_head),
            Reverse(s.sonneborn_berger),
            Reverse(s.wins),
            // No win sorts after every win.
            s.shortest_win.unwrap_or(u32::MAX),
            s.seed,
        )
    };
    key(a).cmp(&key(b))
}

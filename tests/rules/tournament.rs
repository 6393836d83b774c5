//! Tournaments' arithmetic: Berger tables and groups, Swiss rounds (checked by hand, and over
//! many random tournaments), knockout brackets with byes, and the standings' tie-breaks.

use std::collections::HashSet;

use taflbot::tournament::knockout::{bracket_order, first_round, match_winner, next_round};
use taflbot::tournament::round_robin::{berger, groups, matches};
use taflbot::tournament::standings::standings;
use taflbot::tournament::swiss::{max_rounds, pair_round, Entrant};
use taflbot::tournament::{Outcome, Pair, Pairing, Played, Seed};

/// A game of the tournament: `attacker` against `defender`, with its outcome and length.
fn game(attacker: Seed, defender: Seed, outcome: Outcome, turns: u32) -> Played {
    Played {
        attacker,
        defender,
        outcome,
        turns,
        forfeit: false,
    }
}

/// Both games of a match, each won by its attacker (a split, 2–2), or by `winner` twice.
fn both_won_by(pair: Pair, winner: Seed, turns: u32) -> Vec<Played> {
    pair.games()
        .into_iter()
        .map(|(a, d)| {
            let outcome = if a == winner {
                Outcome::AttackerWon
            } else {
                Outcome::DefenderWon
            };
            game(a, d, outcome, turns)
        })
        .collect()
}

fn split(pair: Pair, turns: [u32; 2]) -> Vec<Played> {
    pair.games()
        .into_iter()
        .zip(turns)
        .map(|((a, d), t)| game(a, d, Outcome::AttackerWon, t))
        .collect()
}

fn drawn(pair: Pair) -> Vec<Played> {
    pair.games()
        .into_iter()
        .map(|(a, d)| game(a, d, Outcome::Draw, 50))
        .collect()
}

fn pairs_of(round: &[Pairing]) -> Vec<(Seed, Seed)> {
    let mut out: Vec<(Seed, Seed)> = round
        .iter()
        .filter_map(|p| match p {
            Pairing::Match(pair) => Some(pair.key()),
            Pairing::Bye(_) => None,
        })
        .collect();
    out.sort();
    out
}

fn bye_of(round: &[Pairing]) -> Option<Seed> {
    round.iter().find_map(|p| match p {
        Pairing::Bye(s) => Some(*s),
        Pairing::Match(_) => None,
    })
}

#[test]
fn berger_tables_pair_everyone_once_and_nobody_twice_in_a_round() {
    assert_eq!(
        berger(4).iter().map(|r| pairs_of(r)).collect::<Vec<_>>(),
        [
            vec![(0, 3), (1, 2)],
            vec![(0, 1), (2, 3)],
            vec![(0, 2), (1, 3)]
        ]
    );
    for players in 2..=12 {
        let rounds = berger(players);
        let mut met = HashSet::new();
        for round in &rounds {
            let mut here = HashSet::new();
            for p in round {
                let seeds = match p {
                    Pairing::Match(pair) => {
                        assert!(met.insert(pair.key()), "{players}: {pair:?} twice");
                        vec![pair.first, pair.second]
                    }
                    Pairing::Bye(s) => vec![*s],
                };
                for s in seeds {
                    assert!(
                        s < players && here.insert(s),
                        "{players}: {s} twice in a round"
                    );
                }
            }
            assert_eq!(here.len(), players, "{players}: everyone has a place");
        }
        assert_eq!(met.len(), players * (players - 1) / 2, "{players}");
        assert_eq!(rounds.len(), players - 1 + players % 2);
    }
    // Four players: six matches, twelve games, each pair twice with the sides swapped.
    let games: Vec<(Seed, Seed)> = matches(4).iter().flat_map(|m| m.games()).collect();
    assert_eq!(games.len(), 12);
    for a in 0..4 {
        for d in 0..4 {
            let times = games.iter().filter(|g| **g == (a, d)).count();
            assert_eq!(times, usize::from(a != d), "{a} attacking {d}");
        }
    }
}

#[test]
fn a_large_field_is_seeded_into_even_groups_of_eight_at_most() {
    assert_eq!(groups(8), [vec![0, 1, 2, 3, 4, 5, 6, 7]]);
    assert_eq!(groups(9), [vec![0, 3, 4, 7, 8], vec![1, 2, 5, 6]]);
    let twenty = groups(20);
    assert_eq!(
        twenty,
        [
            vec![0, 5, 6, 11, 12, 17, 18],
            vec![1, 4, 7, 10, 13, 16, 19],
            vec![2, 3, 8, 9, 14, 15]
        ]
    );
    for players in 1..=64 {
        let g = groups(players);
        let sizes: Vec<usize> = g.iter().map(Vec::len).collect();
        assert!(sizes.iter().all(|&n| n <= 8), "{players}: {sizes:?}");
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        let mut all: Vec<Seed> = g.into_iter().flatten().collect();
        all.sort();
        assert_eq!(all, (0..players).collect::<Vec<_>>());
    }
}

/// Plays a Swiss round's matches with the results `result` gives each pair, keeping the score.
fn play_round(
    round: &[Pairing],
    entrants: &mut [Entrant],
    met: &mut HashSet<(Seed, Seed)>,
    played: &mut Vec<Played>,
    byes: &mut Vec<Seed>,
    result: impl Fn(Pair) -> Vec<Played>,
) {
    for p in round {
        match *p {
            Pairing::Match(pair) => {
                assert!(met.insert(pair.key()), "a rematch: {pair:?}");
                let games = result(pair);
                for g in &games {
                    for e in entrants.iter_mut() {
                        e.score += g.half_points(e.seed).unwrap_or(0);
                    }
                }
                played.extend(games);
            }
            Pairing::Bye(s) => {
                let e = entrants.iter_mut().find(|e| e.seed == s).unwrap();
                assert!(!e.had_bye, "a second bye for {s}");
                e.had_bye = true;
                e.score += taflbot::tournament::BYE_HALF_POINTS;
                byes.push(s);
            }
        }
    }
}

fn entrants(n: usize) -> Vec<Entrant> {
    (0..n)
        .map(|seed| Entrant {
            seed,
            score: 0,
            had_bye: false,
        })
        .collect()
}

#[test]
fn a_six_player_swiss_of_three_rounds_as_worked_out_by_hand() {
    let mut e = entrants(6);
    let (mut met, mut played, mut byes) = (HashSet::new(), Vec::new(), Vec::new());

    // Round 1, everyone on 0: the top half meets the bottom half.
    let r1 = pair_round(&e, &met).unwrap();
    assert_eq!(pairs_of(&r1), [(0, 3), (1, 4), (2, 5)]);
    play_round(&r1, &mut e, &mut met, &mut played, &mut byes, |p| {
        if p.key() == (2, 5) {
            split(p, [40, 40])
        } else {
            both_won_by(p, p.key().0, 40)
        }
    });
    // 0 and 1 on 4 half points, 2 and 5 on 2, 3 and 4 on 0.
    // Round 2: 0-1 in the top group; 2 has met 5, so 2 drops to meet 3, and 5 meets 4.
    let r2 = pair_round(&e, &met).unwrap();
    assert_eq!(pairs_of(&r2), [(0, 1), (2, 3), (4, 5)]);
    play_round(&r2, &mut e, &mut met, &mut played, &mut byes, |p| {
        match p.key() {
            (0, 1) => split(p, [40, 40]),
            (2, 3) => both_won_by(p, 2, 40),
            _ => drawn(p),
        }
    });
    // 0, 1 and 2 on 6; 5 on 4, 4 on 2, 3 on 0.
    // Round 3: 0 has met 1, so 0-2; 1 meets the next score down, 5; 3-4 is left and new.
    let r3 = pair_round(&e, &met).unwrap();
    assert_eq!(pairs_of(&r3), [(0, 2), (1, 5), (3, 4)]);
    play_round(&r3, &mut e, &mut met, &mut played, &mut byes, |p| {
        match p.key() {
            (0, 2) => split(p, [20, 30]),
            (1, 5) => both_won_by(p, 1, 40),
            _ => both_won_by(p, 4, 40),
        }
    });
    assert!(byes.is_empty());

    // Final points (half points): 1 has 10; 0 and 2 have 8 and split their match, so
    // Sonneborn-Berger decides: 0 took 2 from 1 (10) and 2 from 2 (8), 4 from 3 (0): 36; 2 took
    // 2 from 5 (4), 4 from 3 (0) and 2 from 0 (8): 24. Then 4 (6), 5 (4), 3 (0).
    let table = standings(6, &played, &byes);
    let order: Vec<Seed> = table.iter().map(|s| s.seed).collect();
    assert_eq!(order, [1, 0, 2, 4, 5, 3]);
    let points: Vec<u32> = table.iter().map(|s| s.points).collect();
    assert_eq!(points, [10, 8, 8, 6, 4, 0]);
    assert_eq!(table[1].head_to_head, table[2].head_to_head);
    assert_eq!(
        (table[1].sonneborn_berger, table[2].sonneborn_berger),
        (36, 24)
    );
}

#[test]
fn a_five_player_swiss_gives_each_bye_to_the_lowest_placed_without_one() {
    let mut e = entrants(5);
    let (mut met, mut played, mut byes) = (HashSet::new(), Vec::new(), Vec::new());
    let higher_wins = |p: Pair| both_won_by(p, p.key().0, 40);
    let r1 = pair_round(&e, &met).unwrap();
    assert_eq!(
        (pairs_of(&r1), bye_of(&r1)),
        (vec![(0, 2), (1, 3)], Some(4))
    );
    play_round(&r1, &mut e, &mut met, &mut played, &mut byes, higher_wins);
    // 0 and 1 on 4, 4 on 2 (the bye), 2 and 3 on 0: the last place without a bye is 3.
    let r2 = pair_round(&e, &met).unwrap();
    assert_eq!(
        (pairs_of(&r2), bye_of(&r2)),
        (vec![(0, 1), (2, 4)], Some(3))
    );
    play_round(&r2, &mut e, &mut met, &mut played, &mut byes, higher_wins);
    // 0 on 8, 4 on 4... 2 has had no bye and is last: its bye. 0-4 first would leave 1-3, who
    // met in round 1, so 0 meets 3 and 1 meets 4.
    let r3 = pair_round(&e, &met).unwrap();
    assert_eq!(
        (pairs_of(&r3), bye_of(&r3)),
        (vec![(0, 3), (1, 4)], Some(2))
    );
    play_round(&r3, &mut e, &mut met, &mut played, &mut byes, higher_wins);
    assert_eq!(byes, [4, 3, 2]);
    let table = standings(5, &played, &byes);
    assert_eq!(table[0].seed, 0);
    assert_eq!(table[0].points, 12);
    let with_bye = table.iter().find(|s| s.seed == 4).unwrap();
    assert_eq!((with_bye.byes, with_bye.games), (1, 4));
}

#[test]
fn random_swiss_tournaments_never_pair_a_rematch_or_a_second_bye() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for players in 3..=24 {
        let rounds = max_rounds(players).min(8);
        let mut e = entrants(players);
        let (mut met, mut played, mut byes) = (HashSet::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let Some(pairings) = pair_round(&e, &met) else {
                panic!("{players} players, round {}: no pairing", round + 1);
            };
            let seen: usize = pairings
                .iter()
                .map(|p| match p {
                    Pairing::Match(_) => 2,
                    Pairing::Bye(_) => 1,
                })
                .sum();
            assert_eq!(seen, players, "everyone has a place");
            let outcomes: Vec<u64> = (0..players).map(|_| next() % 3).collect();
            play_round(&pairings, &mut e, &mut met, &mut played, &mut byes, |p| {
                p.games()
                    .into_iter()
                    .enumerate()
                    .map(|(i, (a, d))| {
                        let outcome = match outcomes[(p.first + i) % players] {
                            0 => Outcome::AttackerWon,
                            1 => Outcome::DefenderWon,
                            _ => Outcome::Draw,
                        };
                        game(a, d, outcome, 30)
                    })
                    .collect()
            });
        }
        // Points add up: every game hands out 2 half points, every bye BYE_HALF_POINTS.
        let table = standings(players, &played, &byes);
        let total: u32 = table.iter().map(|s| s.points).sum();
        assert_eq!(
            total as usize,
            2 * played.len() + byes.len() * taflbot::tournament::BYE_HALF_POINTS as usize
        );
    }
}

#[test]
fn a_five_player_knockout_gives_the_top_seeds_byes() {
    assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
    let first = first_round(5);
    assert_eq!(
        first,
        [
            Pairing::Bye(0),
            Pairing::Match(Pair::new(3, 4)),
            Pairing::Bye(1),
            Pairing::Bye(2)
        ]
    );
    // 4 beats 3 in a split match by the shorter win.
    let games = split(Pair::new(3, 4), [60, 25]);
    assert_eq!(match_winner(Pair::new(3, 4), &games), 4);
    let second = next_round(&[0, 4, 1, 2]);
    assert_eq!(second, [Pair::new(0, 4), Pair::new(1, 2)]);
    // 4 beats 0 outright; 1 and 2 draw both games: the higher seed goes through.
    assert_eq!(
        match_winner(Pair::new(0, 4), &both_won_by(Pair::new(0, 4), 4, 40)),
        4
    );
    assert_eq!(match_winner(Pair::new(1, 2), &drawn(Pair::new(1, 2))), 1);
    let last = next_round(&[4, 1]);
    assert_eq!(last, [Pair::new(4, 1)]);
    assert!(next_round(&[4]).is_empty(), "one left: the winner");
    // Every size: each seed once, the byes to the top seeds.
    for players in 2..=40 {
        let first = first_round(players);
        let mut seen: Vec<Seed> = first
            .iter()
            .flat_map(|p| match p {
                Pairing::Match(pair) => vec![pair.first, pair.second],
                Pairing::Bye(s) => vec![*s],
            })
            .collect();
        seen.sort();
        assert_eq!(seen, (0..players).collect::<Vec<_>>());
        let byes: Vec<Seed> = first
            .iter()
            .filter_map(|p| match p {
                Pairing::Bye(s) => Some(*s),
                Pairing::Match(_) => None,
            })
            .collect();
        let expected = players.next_power_of_two() - players;
        let mut sorted = byes.clone();
        sorted.sort();
        assert_eq!(sorted, (0..expected).collect::<Vec<_>>(), "{players}");
    }
}

#[test]
fn ties_go_to_head_to_head_then_wins_then_the_shortest_win() {
    // A round robin of four: 0 and 1 finish level, and 0 beat 1 in their match.
    let mut games = Vec::new();
    games.extend(both_won_by(Pair::new(0, 1), 0, 40));
    games.extend(both_won_by(Pair::new(0, 2), 2, 40));
    games.extend(both_won_by(Pair::new(0, 3), 0, 40));
    games.extend(both_won_by(Pair::new(1, 2), 1, 40));
    games.extend(both_won_by(Pair::new(1, 3), 1, 40));
    games.extend(both_won_by(Pair::new(2, 3), 3, 40));
    let table = standings(4, &games, &[]);
    let points: Vec<(Seed, u32)> = table.iter().map(|s| (s.seed, s.points)).collect();
    // 0 and 1 have 8 each, and 0 took 4 from 1: 0 is first. 2 and 3 have 4 each, and 3 took 4
    // from 2: 3 is ahead, though 2's Sonneborn-Berger is the higher (2 beat 0, on 8; 3 beat 2,
    // on 4).
    assert_eq!(points, [(0, 8), (1, 8), (3, 4), (2, 4)]);
    let h2h: Vec<u32> = table.iter().map(|s| s.head_to_head).collect();
    assert_eq!(h2h, [4, 0, 4, 0]);
    assert!(table[3].sonneborn_berger > table[2].sonneborn_berger);

    // Two players level on everything but the length of their wins.
    let games = vec![
        game(0, 2, Outcome::AttackerWon, 50),
        game(2, 0, Outcome::Draw, 50),
        game(1, 3, Outcome::AttackerWon, 21),
        game(3, 1, Outcome::Draw, 50),
        game(0, 1, Outcome::Draw, 50),
        game(1, 0, Outcome::Draw, 50),
        game(2, 3, Outcome::Draw, 50),
        game(3, 2, Outcome::Draw, 50),
    ];
    let table = standings(4, &games, &[]);
    assert_eq!(table[0].seed, 1, "{table:?}");
    assert_eq!(table[0].shortest_win, Some(21));
    // A win by forfeit counts for the points only.
    let forfeit = Played {
        forfeit: true,
        ..game(3, 2, Outcome::AttackerWon, 0)
    };
    let table = standings(4, &[forfeit], &[]);
    let three = table.iter().find(|s| s.seed == 3).unwrap();
    assert_eq!((three.points, three.wins, three.shortest_win), (2, 0, None));
}

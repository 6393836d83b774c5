//! What a running tournament does once a round's games are all over: pair the next round, or
//! end with its winner. Pure: the service reads the field, asks [`next`], and writes the answer.

use std::collections::HashSet;

use super::{knockout, round_robin, standings, swiss, Format, Pair, Pairing, Played, Seed};

/// What the decision reads of a tournament whose round `stage` is over.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    pub format: Format,
    /// The round paired last (1 for the first).
    pub stage: usize,
    /// Swiss rounds asked.
    pub rounds: usize,
    /// Per seed, whether they have left (or were withdrawn): they are paired no more, and win
    /// nothing.
    pub withdrawn: &'a [bool],
    /// Every finished game of the tournament, and every bye.
    pub played: &'a [Played],
    pub byes: &'a [Seed],
    /// The finished games and byes of round `stage` only (a grouped round robin's groups, then
    /// its final).
    pub stage_played: &'a [Played],
    pub stage_byes: &'a [Seed],
    /// The matches of round `stage` in bracket order, a bye without a second (a knockout's).
    pub last_round: &'a [(Seed, Option<Seed>)],
}

/// What follows the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Round `round`'s pairings, each in its section (a round robin's group; 0 elsewhere). A
    /// match with a player withdrawn is a bye for the other.
    Round {
        round: usize,
        pairings: Vec<(usize, Pairing)>,
    },
    /// The tournament is over; its winner, unless nobody is left to win it.
    Over { winner: Option<Seed> },
}

/// How many rounds a tournament of `players` plays: a Swiss one as many as were asked, within
/// what can always be paired, or (0 asked) as many as the field needs to find a winner; the
/// other formats keep what they were given (their shape sets their rounds).
pub fn rounds(format: Format, asked: usize, players: usize) -> usize {
    match format {
        Format::Swiss if asked == 0 => {
            let needed = (players as f64).log2().ceil() as usize;
            needed.min(swiss::max_rounds(players))
        }
        Format::Swiss => asked.min(swiss::max_rounds(players)),
        _ => asked,
    }
}

/// The first round of a tournament of `players` (seeds `0..players`), each pairing in its
/// section: a round robin's groups all at once, a Swiss round by seed, a knockout's bracket.
/// None where no Swiss round can be paired (never in a first round, where nobody has met).
pub fn first_round(format: Format, players: usize) -> Option<Vec<(usize, Pairing)>> {
    Some(match format {
        Format::RoundRobin => round_robin::groups(players)
            .into_iter()
            .enumerate()
            .flat_map(|(section, group)| {
                round_robin::matches(group.len())
                    .into_iter()
                    .map(move |p| {
                        let pair = Pair::new(group[p.first], group[p.second]);
                        (section, Pairing::Match(pair))
                    })
                    .collect::<Vec<_>>()
            })
            .collect(),
        Format::Swiss => {
            let entrants: Vec<swiss::Entrant> = (0..players)
                .map(|seed| swiss::Entrant {
                    seed,
                    score: 0,
                    had_bye: false,
                })
                .collect();
            swiss::pair_round(&entrants, &HashSet::new())?
                .into_iter()
                .map(|p| (0, p))
                .collect()
        }
        Format::Knockout => knockout::first_round(players)
            .into_iter()
            .map(|p| (0, p))
            .collect(),
    })
}

/// The next round of `field`, or its end.
pub fn next(field: &Field) -> Next {
    let paired = match field.format {
        Format::RoundRobin => round_robin_final(field),
        Format::Swiss => next_swiss(field),
        Format::Knockout => next_knockout(field),
    };
    match paired {
        Some((round, pairings)) => Next::Round {
            round,
            pairings: pairings
                .into_iter()
                .map(|(section, p)| (section, without_withdrawn(p, field.withdrawn)))
                .collect(),
        },
        None => Next::Over {
            winner: winner(field),
        },
    }
}

/// A grouped round robin's final after its groups (stage 1): each group's best not withdrawn,
/// every one against every other. None once there is no final to play.
fn round_robin_final(field: &Field) -> Option<(usize, Vec<(usize, Pairing)>)> {
    let groups = round_robin::groups(field.withdrawn.len());
    if field.stage != 1 || groups.len() < 2 {
        return None;
    }
    let mut winners = Vec::new();
    for group in &groups {
        let games: Vec<Played> = field
            .stage_played
            .iter()
            .filter(|g| group.contains(&g.attacker))
            .copied()
            .collect();
        let table = standings::standings(field.withdrawn.len(), &games, &[]);
        if let Some(best) = table
            .iter()
            .find(|s| group.contains(&s.seed) && !field.withdrawn[s.seed])
        {
            winners.push(best.seed);
        }
    }
    winners.sort();
    let pairs: Vec<(usize, Pairing)> = round_robin::matches(winners.len())
        .into_iter()
        .map(|p| {
            let pair = Pair::new(winners[p.first], winners[p.second]);
            (0, Pairing::Match(pair))
        })
        .collect();
    (!pairs.is_empty()).then_some((2, pairs))
}

/// A Swiss round after the last, while rounds are left and two players are still in.
fn next_swiss(field: &Field) -> Option<(usize, Vec<(usize, Pairing)>)> {
    let still_in = field.withdrawn.iter().filter(|w| !**w).count();
    if field.stage >= field.rounds || still_in < 2 {
        return None;
    }
    let table = standings::standings(field.withdrawn.len(), field.played, field.byes);
    let entrants: Vec<swiss::Entrant> = table
        .iter()
        .filter(|s| !field.withdrawn[s.seed])
        .map(|s| swiss::Entrant {
            seed: s.seed,
            score: s.points,
            had_bye: field.byes.contains(&s.seed),
        })
        .collect();
    let met: HashSet<(Seed, Seed)> = field
        .played
        .iter()
        .map(|g| Pair::new(g.attacker, g.defender).key())
        .collect();
    swiss::pair_round(&entrants, &met)
        .map(|round| (field.stage + 1, round.into_iter().map(|p| (0, p)).collect()))
}

/// A knockout's next round: the last round's winners, where a winner who has withdrawn since
/// gives way to the player they beat (unless both left).
fn next_knockout(field: &Field) -> Option<(usize, Vec<(usize, Pairing)>)> {
    let withdrawn = field.withdrawn;
    let round: Vec<Seed> = field
        .last_round
        .iter()
        .map(|&(first, second)| {
            let winner = match_winner((first, second), field.played);
            match second {
                Some(second) if withdrawn[winner] => {
                    let loser = if winner == first { second } else { first };
                    if withdrawn[loser] {
                        winner
                    } else {
                        loser
                    }
                }
                _ => winner,
            }
        })
        .collect();
    let next = knockout::next_round(&round);
    (!next.is_empty()).then(|| {
        let pairings = next.into_iter().map(|p| (0, Pairing::Match(p))).collect();
        (field.stage + 1, pairings)
    })
}

/// A match with a player withdrawn is not played: the other has a bye. With both withdrawn,
/// neither plays, and the higher seed goes on.
fn without_withdrawn(pairing: Pairing, withdrawn: &[bool]) -> Pairing {
    match pairing {
        Pairing::Match(p) if withdrawn[p.first] != withdrawn[p.second] => {
            Pairing::Bye(if withdrawn[p.first] {
                p.second
            } else {
                p.first
            })
        }
        Pairing::Match(p) if withdrawn[p.first] => Pairing::Bye(p.first),
        other => other,
    }
}

/// Who won a finished tournament: a knockout's last match's winner; elsewhere the top of the
/// standings (of the final's, in a grouped round robin) among those still in who played.
fn winner(field: &Field) -> Option<Seed> {
    match field.format {
        Format::Knockout => field
            .last_round
            .first()
            .map(|&m| match_winner(m, field.played)),
        Format::RoundRobin | Format::Swiss => {
            let (games, byes) = if field.format == Format::RoundRobin {
                (field.stage_played, field.stage_byes)
            } else {
                (field.played, field.byes)
            };
            standings::standings(field.withdrawn.len(), games, byes)
                .iter()
                .find(|s| !field.withdrawn[s.seed] && (s.games > 0 || s.byes > 0))
                .map(|s| s.seed)
        }
    }
}

/// The winner of a knockout match (`first` alone: a bye) from the games played.
pub fn match_winner((first, second): (Seed, Option<Seed>), played: &[Played]) -> Seed {
    let Some(second) = second else {
        return first;
    };
    let pair = Pair::new(first, second);
    let games: Vec<Played> = played
        .iter()
        .filter(|g| pair.has(g.attacker) && pair.has(g.defender))
        .copied()
        .collect();
    knockout::match_winner(pair, &games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Outcome;

    fn won(winner: Seed, loser: Seed, attacked: bool) -> Played {
        let (attacker, defender, outcome) = if attacked {
            (winner, loser, Outcome::AttackerWon)
        } else {
            (loser, winner, Outcome::DefenderWon)
        };
        Played {
            attacker,
            defender,
            outcome,
            turns: 30,
            forfeit: false,
        }
    }

    fn field<'a>(format: Format, withdrawn: &'a [bool], played: &'a [Played]) -> Field<'a> {
        Field {
            format,
            stage: 1,
            rounds: 3,
            withdrawn,
            played,
            byes: &[],
            stage_played: played,
            stage_byes: &[],
            last_round: &[],
        }
    }

    #[test]
    fn the_first_round_pairs_every_player_once_per_match() {
        // Five in a round robin: each pair meets once; a Swiss round gives one bye; a knockout
        // of five has three byes (a bracket of eight).
        let rr = first_round(Format::RoundRobin, 5).unwrap();
        assert_eq!(rr.len(), 10);
        let swiss = first_round(Format::Swiss, 5).unwrap();
        let byes = |r: &[(usize, Pairing)]| {
            r.iter()
                .filter(|(_, p)| matches!(p, Pairing::Bye(_)))
                .count()
        };
        assert_eq!((swiss.len(), byes(&swiss)), (3, 1));
        let ko = first_round(Format::Knockout, 5).unwrap();
        assert_eq!((ko.len(), byes(&ko)), (4, 3));
    }

    #[test]
    fn swiss_plays_the_rounds_asked_within_what_can_be_paired() {
        assert_eq!(rounds(Format::Swiss, 0, 8), 3);
        // Five need three to find a winner, but only two can always be paired.
        assert_eq!(rounds(Format::Swiss, 0, 5), 2);
        assert_eq!(rounds(Format::Swiss, 0, 16), 4);
        assert_eq!(rounds(Format::Swiss, 9, 4), swiss::max_rounds(4));
        assert_eq!(rounds(Format::Knockout, 0, 8), 0);
    }

    #[test]
    fn a_knockout_pairs_the_winners_and_ends_with_the_last_one() {
        // Seeds 0–3: 0 beats 3 twice, 2 beats 1 twice.
        let played = [
            won(0, 3, true),
            won(0, 3, false),
            won(2, 1, true),
            won(2, 1, false),
        ];
        let last = [(0, Some(3)), (1, Some(2))];
        let f = Field {
            last_round: &last,
            ..field(Format::Knockout, &[false; 4], &played)
        };
        assert_eq!(
            next(&f),
            Next::Round {
                round: 2,
                pairings: vec![(0, Pairing::Match(Pair::new(0, 2)))]
            }
        );
        let mut all = played.to_vec();
        all.extend([won(2, 0, true), won(2, 0, false)]);
        let final_round = [(0, Some(2))];
        let f = Field {
            stage: 2,
            last_round: &final_round,
            ..field(Format::Knockout, &[false; 4], &all)
        };
        assert_eq!(next(&f), Next::Over { winner: Some(2) });
    }

    #[test]
    fn a_knockout_winner_who_left_gives_way_to_the_player_they_beat() {
        let played = [
            won(0, 3, true),
            won(0, 3, false),
            won(2, 1, true),
            won(2, 1, false),
        ];
        let last = [(0, Some(3)), (1, Some(2))];
        let withdrawn = [true, false, false, false];
        let f = Field {
            last_round: &last,
            ..field(Format::Knockout, &withdrawn, &played)
        };
        assert_eq!(
            next(&f),
            Next::Round {
                round: 2,
                pairings: vec![(0, Pairing::Match(Pair::new(3, 2)))]
            }
        );
    }

    #[test]
    fn a_match_with_one_player_withdrawn_is_a_bye_for_the_other() {
        // Six players, one Swiss round played: 0 beat 1, 2 beat 3, 4 beat 5. Seed 2 left.
        let played = [won(0, 1, true), won(2, 3, true), won(4, 5, true)];
        let withdrawn = [false, false, true, false, false, false];
        let Next::Round { round, pairings } = next(&field(Format::Swiss, &withdrawn, &played))
        else {
            panic!("a second round is due");
        };
        assert_eq!(round, 2);
        let seeds: Vec<Seed> = pairings
            .iter()
            .flat_map(|(_, p)| match p {
                Pairing::Match(p) => vec![p.first, p.second],
                Pairing::Bye(s) => vec![*s],
            })
            .collect();
        assert!(!seeds.contains(&2), "a withdrawn player is not paired");
        assert_eq!(seeds.len(), 5);
        let byes = pairings
            .iter()
            .filter(|(_, p)| matches!(p, Pairing::Bye(_)))
            .count();
        assert_eq!(byes, 1, "five players still in: one bye");
        // The withdrawn player's own pairings, were they made, would be byes for the other.
        assert_eq!(
            without_withdrawn(Pairing::Match(Pair::new(2, 5)), &withdrawn),
            Pairing::Bye(5)
        );
    }

    #[test]
    fn swiss_ends_after_its_rounds_with_the_leader_still_in() {
        let played = [won(0, 1, true), won(0, 1, false), won(2, 3, true)];
        let f = Field {
            stage: 3,
            ..field(Format::Swiss, &[false; 4], &played)
        };
        assert_eq!(next(&f), Next::Over { winner: Some(0) });
        // The leader left: the next best still in wins.
        let withdrawn = [true, false, false, false];
        let f = Field {
            stage: 3,
            ..field(Format::Swiss, &withdrawn, &played)
        };
        assert_eq!(next(&f), Next::Over { winner: Some(2) });
    }

    #[test]
    fn a_grouped_round_robin_sends_each_groups_best_to_a_final() {
        // Twelve players make two groups (round_robin::groups); the best of each meet.
        let groups = round_robin::groups(12);
        assert_eq!(groups.len(), 2);
        let (a, b) = (&groups[0], &groups[1]);
        let played = [
            won(a[1], a[0], true),
            won(a[1], a[2], true),
            won(b[2], b[0], false),
            won(b[2], b[1], true),
        ];
        let f = field(Format::RoundRobin, &[false; 12], &played);
        let mut finalists = [a[1], b[2]];
        finalists.sort();
        assert_eq!(
            next(&f),
            Next::Round {
                round: 2,
                pairings: vec![(0, Pairing::Match(Pair::new(finalists[0], finalists[1])))]
            }
        );
        // One group round robin: over after its one stage.
        let f = field(Format::RoundRobin, &[false; 4], &played[..0]);
        assert_eq!(next(&f), Next::Over { winner: None });
    }
}

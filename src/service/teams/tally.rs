//! The count of a window's votes: pure, so that every process reads the same winner from the
//! same votes.

use super::votes::RESIGN;

/// A window's votes counted: every turn voted for with its votes, most first; of turns with as
/// many votes, the one whose last vote came first leads (it reached that count first). Resigning
/// needs more than half of the votes: where it leads with fewer, the turn after it is played
/// and stands first (so a burst of votes cannot resign a team's game that most voters play on).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VoteTally {
    /// How many members' votes were counted.
    pub voters: u32,
    /// Each turn (its moves canonical, separated by spaces) with its votes, the winner first.
    pub counts: Vec<(String, u32)>,
}

/// The most turns a stored tally keeps, the winner among them; the rest are counted as others.
pub const TALLY_SHOWN: usize = 5;

impl VoteTally {
    /// Counts votes given as (turn, order), where a smaller order was cast earlier.
    pub fn of<'a>(votes: impl IntoIterator<Item = (&'a str, i64)>) -> VoteTally {
        // (turn, votes, order of the last vote)
        let mut turns: Vec<(&str, u32, i64)> = Vec::new();
        let mut voters = 0;
        for (turn, order) in votes {
            voters += 1;
            match turns.iter_mut().find(|(t, ..)| *t == turn) {
                Some((_, n, last)) => {
                    *n += 1;
                    *last = (*last).max(order);
                }
                None => turns.push((turn, 1, order)),
            }
        }
        turns.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
        if turns.len() > 1 && turns[0].0 == RESIGN && 2 * turns[0].1 <= voters {
            turns.swap(0, 1);
        }
        VoteTally {
            voters,
            counts: turns
                .into_iter()
                .map(|(t, n, _)| (t.to_string(), n))
                .collect(),
        }
    }

    /// Whether resigning was voted for at least as much as the turn played, which then needed
    /// more than half of the votes (it may also have reached its count later).
    pub fn resign_held_back(&self) -> bool {
        match self.counts.as_slice() {
            [(_, played), (turn, n), ..] => turn == RESIGN && n >= played,
            _ => false,
        }
    }

    /// The turn that won, if anyone voted.
    pub fn winner(&self) -> Option<&str> {
        self.counts.first().map(|(t, _)| t.as_str())
    }

    /// The votes of the turns past the first [`TALLY_SHOWN`].
    pub fn others(&self) -> u32 {
        let shown: u32 = self.counts.iter().take(TALLY_SHOWN).map(|(_, n)| n).sum();
        self.voters - shown
    }

    /// The stored form: the voters on the first line, then one line per turn shown, its votes
    /// first.
    pub fn stored(&self) -> String {
        let mut out = self.voters.to_string();
        for (turn, n) in self.counts.iter().take(TALLY_SHOWN) {
            out.push('\n');
            out.push_str(&format!("{n} {turn}"));
        }
        out
    }

    /// Reads [`VoteTally::stored`]; None where the text is not one.
    pub fn read(text: &str) -> Option<VoteTally> {
        let mut lines = text.lines();
        let voters = lines.next()?.parse().ok()?;
        let counts = lines
            .map(|line| {
                let (n, turn) = line.split_once(' ')?;
                Some((turn.to_string(), n.parse().ok()?))
            })
            .collect::<Option<Vec<_>>>()?;
        let shown: u32 = counts.iter().map(|(_, n)| n).sum();
        (!counts.is_empty() && shown <= voters).then_some(VoteTally { voters, counts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_voted_turn_wins_and_a_tie_goes_to_the_turn_that_reached_its_count_first() {
        let t = VoteTally::of([("a", 1), ("b", 2), ("b", 3), ("a", 4), ("c", 5)]);
        // a and b have two votes each; a's second came at 4, b's at 3: b reached two first.
        assert_eq!(t.winner(), Some("b"));
        assert_eq!(t.voters, 5);
        assert_eq!(
            t.counts,
            [("b".into(), 2), ("a".into(), 2), ("c".into(), 1)].to_vec()
        );
        // A third vote for a wins it outright.
        let t = VoteTally::of([("a", 1), ("b", 2), ("b", 3), ("a", 4), ("a", 6)]);
        assert_eq!(t.winner(), Some("a"));
        assert_eq!(VoteTally::of([]).winner(), None);
    }

    #[test]
    fn resigning_needs_more_than_half_of_the_votes() {
        // Three of seven for resign: the leading move is played.
        let votes = [
            ("resign", 1),
            ("resign", 2),
            ("resign", 3),
            ("d1-e1", 4),
            ("d1-e1", 5),
            ("a4-a5", 6),
            ("a4-a5", 7),
        ];
        let t = VoteTally::of(votes);
        assert_eq!(t.winner(), Some("d1-e1"));
        assert_eq!(t.counts[1], ("resign".into(), 3));
        // Half is not more than half.
        let t = VoteTally::of([("resign", 1), ("resign", 2), ("d1-e1", 3), ("c4-c5", 4)]);
        assert_eq!(t.winner(), Some("d1-e1"));
        // Four of eight is half, not more; four of seven resign, and so does a lone voter.
        let eight = VoteTally::of(votes.into_iter().chain([("resign", 8)]));
        assert_eq!(eight.winner(), Some("d1-e1"));
        let mut seven = votes;
        seven[6] = ("resign", 7);
        assert_eq!(VoteTally::of(seven).winner(), Some("resign"));
        assert_eq!(VoteTally::of([("resign", 1)]).winner(), Some("resign"));
        // A stored tally reads back with the played turn first.
        let t = VoteTally::of(votes);
        assert_eq!(
            VoteTally::read(&t.stored()).unwrap().winner(),
            Some("d1-e1")
        );
    }

    #[test]
    fn a_tally_is_stored_with_its_five_leaders_and_read_back() {
        let votes: Vec<(String, i64)> = (0..8)
            .flat_map(|t| (0..=t).map(move |k| (format!("m{t} x{t}"), t * 10 + k)))
            .collect();
        let t = VoteTally::of(votes.iter().map(|(turn, o)| (turn.as_str(), *o)));
        assert_eq!(t.voters, 36);
        assert_eq!(t.winner(), Some("m7 x7"));
        let read = VoteTally::read(&t.stored()).unwrap();
        assert_eq!(read.voters, 36);
        assert_eq!(read.counts.len(), TALLY_SHOWN);
        assert_eq!(read.counts, t.counts[..TALLY_SHOWN]);
        // The three turns left out had 1 + 2 + 3 votes.
        assert_eq!(read.others(), 6);
        assert_eq!(VoteTally::read("3\nfive d3-d1"), None);
        assert_eq!(VoteTally::read("1\n2 d3-d1"), None);
    }
}

//! Whether a window's voters may still vote for their side, asked of the front end (Discord)
//! before the window's turn is played: a member who left the server, or lost the side's role,
//! loses their vote. The questions go out a few at a time and are capped, so that a window of
//! hundreds of voters closes in a bounded time.

use futures_util::stream::{FuturesUnordered, StreamExt};

use super::tally::VoteTally;
use super::{side_of_member, Membership, TeamSide};
use crate::rules::Side;

/// Voters asked about at once.
pub const LOOKUPS_AT_ONCE: usize = 8;
/// The most voters asked about when one window closes: the voters of the leading turns first,
/// since only a leader's lost votes can change what is played. A voter not asked about keeps
/// their vote.
pub const LOOKUPS_PER_WINDOW: usize = 100;

/// A vote as the check reads it: its order, its turn and its voter.
pub(super) struct Cast<'a> {
    pub id: i64,
    pub turn: &'a str,
    pub voter_key: &'a str,
}

impl super::Service {
    /// The voters among `votes` whose vote no longer counts for `side` of game `id`: asked
    /// about [`LOOKUPS_AT_ONCE`] at a time, at most [`LOOKUPS_PER_WINDOW`], the voters of the
    /// turns that lead first.
    pub(super) async fn voters_gone(
        &self,
        id: i64,
        sides: &[TeamSide],
        guild: &str,
        side: Side,
        votes: &[Cast<'_>],
    ) -> Vec<String> {
        let mut asked = asked_first(votes).into_iter();
        let mut pending = FuturesUnordered::new();
        let mut gone = Vec::new();
        loop {
            while pending.len() < LOOKUPS_AT_ONCE {
                match asked.next() {
                    Some(voter) => pending.push(self.still_votes(id, sides, guild, side, voter)),
                    None => break,
                }
            }
            match pending.next().await {
                Some((voter, false)) => gone.push(voter.to_string()),
                Some((_, true)) => {}
                None => return gone,
            }
        }
    }

    /// Whether `voter` still votes for `side`: a member holding the side's role (any member,
    /// where no role plays it). Where Discord cannot say, the vote stands.
    async fn still_votes<'a>(
        &self,
        id: i64,
        sides: &[TeamSide],
        guild: &str,
        side: Side,
        voter: &'a str,
    ) -> (&'a str, bool) {
        let stays = match self.roster.membership(guild, voter).await {
            Membership::Roles(roles) => side_of_member(id, sides, guild, &roles).ok() == Some(side),
            Membership::Gone => false,
            Membership::Unknown => true,
        };
        (voter, stays)
    }
}

/// The voters to ask about, at most [`LOOKUPS_PER_WINDOW`]: those of the tally's leading turn
/// first, then the next turn's, each turn's in the order they voted.
fn asked_first<'a>(votes: &[Cast<'a>]) -> Vec<&'a str> {
    let tally = VoteTally::of(votes.iter().map(|v| (v.turn, v.id)));
    let rank = |turn: &str| tally.counts.iter().position(|(t, _)| t == turn);
    let mut order: Vec<&Cast> = votes.iter().collect();
    order.sort_by_key(|v| (rank(v.turn), v.id));
    order
        .into_iter()
        .take(LOOKUPS_PER_WINDOW)
        .map(|v| v.voter_key)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leaders_voters_are_asked_about_first_and_no_more_than_the_cap() {
        let keys: Vec<String> = (0..300).map(|i| format!("v{i}")).collect();
        // 200 votes for a (voters 100 to 299), 100 for b (0 to 99), one for c last.
        let mut votes: Vec<Cast> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| Cast {
                id: i as i64,
                turn: if i < 100 { "b" } else { "a" },
                voter_key: k,
            })
            .collect();
        votes.push(Cast {
            id: 300,
            turn: "c",
            voter_key: "late",
        });
        let asked = asked_first(&votes);
        assert_eq!(asked.len(), LOOKUPS_PER_WINDOW);
        // a leads with 200 votes: its first hundred voters, in the order they voted.
        assert_eq!(asked[0], "v100");
        assert!(asked
            .iter()
            .all(|k| k[1..].parse::<usize>().unwrap() >= 100));
        // A small window asks about everyone, the leader's voters first: five each, and b
        // reached five first, so b leads.
        let asked = asked_first(&votes[95..105]);
        assert_eq!(
            asked,
            ["v95", "v96", "v97", "v98", "v99", "v100", "v101", "v102", "v103", "v104"]
        );
        let asked = asked_first(&votes[96..105]);
        assert_eq!(asked[..5], ["v100", "v101", "v102", "v103", "v104"]);
    }
}

//! A game's end, in one place: how each kind of ending is written, and what follows every one
//! of them in one order (the rating, the notice, the tournament's next round).
//!
//! The rules that differ between endings are the arms of [`Ending::terms`], each with its reason;
//! every site that ends a game (a move, a resignation or agreement, the sweeper's loss on time, a
//! tournament's forfeits, a game called off) goes through [`Service::finish`], the one writer of
//! a game's result (`tests/bot/house.rs` checks that no other writes one).

use sqlx::AnyConnection;

use super::load::Loaded;
use super::rows::{Flag, GameResult, GameRow, GameStatus};
use super::{News, Notice, Service, ServiceError};
use crate::rules::{Outcome, Reason, Side};

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// A move ended it (a capture, an escape, a position repeated, no move left): the outcome
    /// is on the game, stored with the move on the same transaction.
    OnTheBoard,
    /// Resigned, or a draw agreed: the outcome is already on the game.
    ByThePlayers,
    /// The side to move ran out of time (the game's outcome already says so), found by the
    /// sweeper at `now`.
    OnTime { now: i64 },
    /// `loser` left the tournament the game belongs to.
    Forfeit { loser: Side, rated: bool },
    /// Called off before its first move.
    Aborted,
    /// A team game called off by a manager of a server that plays it, at any move.
    CalledOff,
}

/// What an ending writes: the result, its reason, and whether it is rated.
struct Terms {
    result: GameResult,
    reason: Option<Reason>,
    rated: bool,
}

impl Ending {
    fn terms(self, loaded: &Loaded) -> Terms {
        let row = &loaded.row;
        let both_moved = loaded.both_sides_moved();
        match self {
            // Before each side has made a turn, what the players agreed or gave up is a game
            // called off (a result cannot be farmed from a game never played); in a tournament
            // it is a result all the same, as a match is never left without one.
            Ending::ByThePlayers if !both_moved && row.tournament_id.is_none() => Terms {
                result: GameResult::Aborted,
                reason: None,
                rated: false,
            },
            // The outcome is on the game. A game won on the board counts as it was going to;
            // on time, a player who never moved loses, but a game before a turn each is not
            // rated.
            Ending::OnTheBoard | Ending::ByThePlayers | Ending::OnTime { .. } => {
                let outcome = loaded.game.outcome();
                Terms {
                    result: GameResult::of(&row.variant, outcome),
                    reason: outcome.map(|o| o.reason),
                    rated: row.rated.0 && (both_moved || self == Ending::OnTheBoard),
                }
            }
            // Leaving a rated tournament loses its games, rated, so that leaving is no way out
            // of a loss; a tournament called off, or a player removed, forfeits them unrated.
            Ending::Forfeit { loser, rated } => Terms {
                result: GameResult::of(
                    &row.variant,
                    Some(Outcome::win(loser.other(), Reason::Forfeit)),
                ),
                reason: Some(Reason::Forfeit),
                rated: rated && row.rated.0,
            },
            Ending::Aborted => Terms {
                result: GameResult::Aborted,
                reason: None,
                rated: row.rated.0,
            },
            // A team game is never rated, and a server's managers may end theirs without a
            // result whenever they choose (a game kept alive by a vote a window holds a place).
            Ending::CalledOff => Terms {
                result: GameResult::Aborted,
                reason: None,
                rated: false,
            },
        }
    }
}

impl Ending {
    /// Whether the game's tournament is moved on from here. A player's forfeits are written
    /// together, and the caller moves the tournament on once after them all.
    fn moves_tournament_on(self) -> bool {
        !matches!(self, Ending::Forfeit { .. })
    }
}

impl Service {
    /// Ends `loaded`'s game as `ending` says, if it is still stored as going on (and, on time,
    /// still late; called off, still without a move): writes the result, then does what follows
    /// every ending ([`Service::finished`]). False, and nothing written, when another writer
    /// ended or moved the game first.
    pub(super) async fn finish(
        &self,
        conn: &mut AnyConnection,
        loaded: &mut Loaded,
        ending: Ending,
        news: Option<&News>,
    ) -> Result<(bool, Option<Notice>), ServiceError> {
        let terms = ending.terms(loaded);
        let (deadline_by, unmoved) = match ending {
            Ending::OnTime { now } => (Some(now), false),
            Ending::Aborted => (None, true),
            _ => (None, false),
        };
        let done = sqlx::query(
            "UPDATE games SET status = 'finished', result = $1, reason = $2, rated = $3,
                draw_offer = NULL, takeback_by = NULL, updated_at = $4
             WHERE id = $5 AND status = 'active'
               AND ($6 IS NULL OR deadline <= $6) AND ($7 = 0 OR move_count = 0)",
        )
        .bind(terms.result)
        .bind(terms.reason.map(|r| r.as_str()))
        .bind(Flag(terms.rated))
        .bind(self.now())
        .bind(loaded.row.id)
        .bind(deadline_by)
        .bind(i64::from(unmoved))
        .execute(&mut *conn)
        .await?;
        if done.rows_affected() != 1 {
            return Ok((false, None));
        }
        // Forecasts end with the game (notes stay).
        self.end_forecasts(conn, loaded).await?;
        let row = &mut loaded.row;
        row.status = GameStatus::Finished;
        row.result = terms.result;
        row.rated = Flag(terms.rated);
        row.draw_offer = None;
        row.takeback_by = None;
        let notice = self
            .finished(conn, row, news, ending.moves_tournament_on())
            .await?;
        Ok((true, notice))
    }

    /// What follows every result written, in this order: the rating (for a rated result), the
    /// notice of `news` (told before the tournament standings that follow from it), and, when
    /// `tournament`, the tournament's next round or end. A game called off changes no rating
    /// and no tournament (tournament games are never called off).
    async fn finished(
        &self,
        conn: &mut AnyConnection,
        row: &mut GameRow,
        news: Option<&News>,
        tournament: bool,
    ) -> Result<Option<Notice>, ServiceError> {
        if row.result == GameResult::Aborted {
            return match news {
                Some(news) => Ok(Some(self.notice(conn, row.id, news).await?)),
                None => Ok(None),
            };
        }
        self.rate(conn, row, self.now()).await?;
        let notice = match news {
            Some(news) => Some(self.notice(conn, row.id, news).await?),
            None => None,
        };
        if tournament {
            self.tournament_game_over(conn, row.id).await?;
        }
        Ok(notice)
    }
}

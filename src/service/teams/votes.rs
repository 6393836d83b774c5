//! Votes: a member's vote cast or changed in the window open now, and a window closed, by the
//! sweeper when its time is up or early by a manager or the captain. A closed window plays the
//! turn with the most votes, in the team's name, with the tally in its notice; a window without
//! a vote is opened again, and the third in a row loses the game on time.

use sqlx::AnyConnection;

use super::super::load::Loaded;
use super::checks::Cast;
use super::tally::VoteTally;
use super::{side_of_member, Member, EMPTY_WINDOWS_LOSE, MAX_TURN_MOVES};
use crate::notation::{canonical, read_move};
use crate::rules::{Game, Side};
use crate::service::endings::resigned;
use crate::service::finish::Ending;
use crate::service::{News, Notice, Service, ServiceError};

/// The vote that resigns the game for the team, where it wins the window.
pub const RESIGN: &str = "resign";

/// A vote kept.
#[derive(Clone, Debug)]
pub struct Voted {
    pub game: i64,
    /// The turn voted for, its moves canonical and separated by spaces.
    pub turn: String,
    /// The member had voted in this window before: this vote replaces that one.
    pub changed: bool,
    /// How many have voted in the window so far.
    pub votes: i64,
    /// When the window closes.
    pub closes_at: i64,
    /// The number of the turn the window is for, as the record writes it (`2...`).
    pub turn_number: crate::notation::TurnNumber,
    /// The window: its ply, and the side it is for.
    pub ply: i64,
    pub side: Side,
    /// Where the game is played (its thread, else its channel).
    pub place: Option<String>,
    /// The post there that shows how many voted in this window, once one is made.
    pub count_post: Option<String>,
}

impl Voted {
    /// Whether the window's count is to be shown or edited after this vote: a changed vote
    /// leaves the count as it was, so once a post shows the count there is nothing to edit (one
    /// member changing their vote fifty times edits nothing).
    pub fn count_to_show(&self) -> bool {
        !(self.changed && self.count_post.is_some())
    }
}

/// What closing a window did: its notice, for the front end to deliver.
pub type WindowClosed = Notice;

/// A vote as read for the tally.
#[derive(sqlx::FromRow)]
struct VoteRow {
    id: i64,
    turn: String,
    voter_key: String,
}

/// The steps a vote's turn stores, played on `game` (a copy): the moves in canonical text, and
/// `end` where the vote stops a berserk chain that could go on; or [`RESIGN`] alone. Refused where a move is not
/// legal, where moves go on past the end of the turn, or where the turn is left unfinished.
fn read_turn(game: &mut Game, text: &str) -> Result<Vec<String>, ServiceError> {
    if text.trim().eq_ignore_ascii_case(RESIGN) {
        return Ok(vec![RESIGN.to_string()]);
    }
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .take(MAX_TURN_MOVES + 1)
        .collect();
    if words.is_empty() {
        return Err(ServiceError::MissingOption {
            option: "move".into(),
            example: "/vote move:d3-d1".into(),
        });
    }
    if words.len() > MAX_TURN_MOVES {
        return Err(ServiceError::TurnTooLong(MAX_TURN_MOVES));
    }
    let mover = game.position().turn();
    let mut steps = Vec::with_capacity(words.len() + 1);
    for (i, word) in words.iter().enumerate() {
        if i > 0 && game.position().turn() != mover {
            return Err(ServiceError::TurnOver(steps.join(" ")));
        }
        let (m, _) = read_move(game.position(), word)?;
        steps.push(canonical(game.position(), m));
        game.play(m)?;
    }
    if game.outcome().is_none() && game.position().turn() == mover {
        game.end_turn()
            .map_err(|_| ServiceError::TurnUnfinished(steps.join(" ")))?;
        steps.push("end".into());
    }
    Ok(steps)
}

/// The turn a vote is kept as: its moves, without the end of a chain.
fn turn_key(steps: &[String]) -> String {
    steps
        .iter()
        .filter(|s| *s != "end")
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

impl Service {
    /// Casts `member`'s vote for the turn `text` in the window open now of a team game here
    /// (the one named, the one of this thread, or the only one), or changes their vote.
    pub async fn vote(
        &self,
        member: &Member,
        id: Option<i64>,
        channel: Option<&str>,
        text: &str,
    ) -> Result<Voted, ServiceError> {
        let now = self.now();
        let guild = self.scope.team_guild()?.to_string();
        let mut tx = self.write().await?;
        let (loaded, side) = self
            .open_window(&mut tx, member, &guild, id, channel)
            .await?;
        let id = loaded.row.id;
        if member.newcomer {
            return Err(ServiceError::TooNewToVote(id));
        }
        if loaded.row.deadline <= now {
            return Err(ServiceError::WindowOver(id));
        }
        let steps = read_turn(&mut loaded.game.clone(), text)?;
        let turn = turn_key(&steps);
        let voter = self.player_id(&mut tx, &member.person).await?;
        Self::claim_side(&mut tx, id, voter, side).await?;
        let ply = loaded.row.move_count;
        let changed =
            sqlx::query("DELETE FROM team_votes WHERE game_id = $1 AND ply = $2 AND voter = $3")
                .bind(id)
                .bind(ply)
                .bind(voter)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
        sqlx::query(
            "INSERT INTO team_votes (game_id, ply, voter, turn, cast_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(ply)
        .bind(voter)
        .bind(&turn)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let votes: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM team_votes WHERE game_id = $1 AND ply = $2")
                .bind(id)
                .bind(ply)
                .fetch_one(&mut *tx)
                .await?;
        let count_post = count_post(&mut tx, id, side, ply).await?;
        tx.commit().await?;
        Ok(Voted {
            game: id,
            turn,
            changed,
            votes,
            closes_at: loaded.row.deadline,
            turn_number: crate::notation::TurnNumber::next(&loaded.game),
            ply,
            side,
            place: loaded.row.place_of(side),
            count_post,
        })
    }

    /// Binds `voter` to `side` in game `id` on their first vote, and refuses a vote for the other
    /// side. The key holds it when two processes take both sides' votes at once: one insert wins,
    /// and the other reads its side.
    async fn claim_side(
        conn: &mut AnyConnection,
        id: i64,
        voter: i64,
        side: Side,
    ) -> Result<(), ServiceError> {
        sqlx::query(
            "INSERT INTO team_voters (game_id, voter, side) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(voter)
        .bind(super::side_name(side))
        .execute(&mut *conn)
        .await?;
        let bound: String =
            sqlx::query_scalar("SELECT side FROM team_voters WHERE game_id = $1 AND voter = $2")
                .bind(id)
                .bind(voter)
                .fetch_one(&mut *conn)
                .await?;
        if bound == super::side_name(side) {
            Ok(())
        } else {
            Err(ServiceError::VotedForOtherSide(id))
        }
    }

    /// The legal moves, in canonical form, of the team game a member means, when their side is
    /// to vote: what `/vote` offers as it is typed.
    pub async fn team_legal_moves(
        &self,
        member: &Member,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(i64, Vec<String>), ServiceError> {
        let guild = self.scope.team_guild()?.to_string();
        let mut conn = self.pool.acquire().await?;
        let (loaded, _) = self
            .open_window(&mut conn, member, &guild, id, channel)
            .await?;
        let mut moves = loaded.canonical_moves();
        moves.push(RESIGN.to_string());
        Ok((loaded.row.id, moves))
    }

    /// The team game a member of `guild` means, loaded, and the side they vote for: refused
    /// where the game is over or the window open now is not their side's.
    async fn open_window(
        &self,
        conn: &mut AnyConnection,
        member: &Member,
        guild: &str,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<(Loaded, Side), ServiceError> {
        let id = self.resolve_team_game(conn, guild, id, channel).await?;
        let loaded = self.load(conn, id).await?;
        loaded.ensure_active()?;
        let sides = self.team_sides(conn, id).await?;
        let side = side_of_member(id, &sides, guild, &member.roles)?;
        let to_move = loaded.game.position().turn();
        if side != to_move {
            return Err(ServiceError::NotYourWindow {
                game: id,
                waiting_for: loaded.row.player(to_move),
            });
        }
        Ok((loaded, side))
    }

    /// How many have voted in the window of `voted` now (later votes may have come since), and
    /// the post kept to show it, if any.
    pub async fn count_now(&self, voted: &Voted) -> Result<(i64, Option<String>), ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let votes: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM team_votes WHERE game_id = $1 AND ply = $2")
                .bind(voted.game)
                .bind(voted.ply)
                .fetch_one(&mut *conn)
                .await?;
        let post = count_post(&mut conn, voted.game, voted.side, voted.ply).await?;
        Ok((votes, post))
    }

    /// Keeps `message` as the post that shows how many voted in the window of `voted`; false
    /// where another process has kept one for that window first.
    pub async fn keep_count_post(
        &self,
        voted: &Voted,
        message: &str,
    ) -> Result<bool, ServiceError> {
        let kept = sqlx::query(
            "UPDATE team_sides SET count_message = $1, count_ply = $2
             WHERE game_id = $3 AND side = $4 AND (count_ply IS NULL OR count_ply != $5)",
        )
        .bind(message)
        .bind(voted.ply)
        .bind(voted.game)
        .bind(super::side_name(voted.side))
        .bind(voted.ply)
        .execute(&self.pool)
        .await?;
        Ok(kept.rows_affected() == 1)
    }

    /// Closes the open window of team game `id` early, for `by` (a manager of the server the
    /// side plays for, or the game's captain), where someone has voted.
    pub async fn close_window_early(
        &self,
        by: &Member,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<WindowClosed, ServiceError> {
        let guild = self.scope.team_guild()?.to_string();
        let mut conn = self.pool.acquire().await?;
        let id = self
            .resolve_team_game(&mut conn, &guild, id, channel)
            .await?;
        drop(conn);
        match self.close_window(id, Some((by, &guild))).await? {
            Some(notice) => Ok(notice),
            None => Err(ServiceError::PositionChanged(id)),
        }
    }

    /// Closes the open window of team game `id`: by the sweeper (`by` none) once its time is up,
    /// or early by a member of the server given, with the right. The votes of members who left
    /// the server or lost their side's role since they voted are not counted. Nothing where the
    /// window was closed meanwhile (by another process).
    pub(in crate::service) async fn close_window(
        &self,
        id: i64,
        by: Option<(&Member, &str)>,
    ) -> Result<Option<WindowClosed>, ServiceError> {
        let now = self.now();
        // Who voted, asked of the front end before the write begins (it may take a while).
        let Some((ply, side, dropped)) = self.voters_before_closing(id, by).await? else {
            return Ok(None);
        };
        let mut tx = self.write().await?;
        let mut loaded = self.load(&mut tx, id).await?;
        if loaded.row.status != super::super::GameStatus::Active
            || loaded.row.move_count != ply
            || loaded.game.position().turn() != side
        {
            return Ok(None);
        }
        let sides = self.team_sides(&mut tx, id).await?;
        let Some(team) = sides.iter().find(|s| s.side() == side).cloned() else {
            return Ok(None);
        };
        match by {
            Some((member, guild)) => {
                self.may_close(&mut tx, id, (&sides, &team), member, guild)
                    .await?
            }
            None if loaded.row.deadline > now => return Ok(None),
            None => {}
        }
        let votes = self.window_votes(&mut tx, id, ply).await?;
        let tally = VoteTally::of(
            votes
                .iter()
                .filter(|v| !dropped.contains(&v.voter_key))
                .map(|v| (v.turn.as_str(), v.id)),
        );
        let team_player = loaded.row.player(side);
        let notice = match tally.winner() {
            Some(RESIGN) => {
                loaded.game.resign(side)?;
                self.finish(&mut tx, &mut loaded, Ending::ByThePlayers, None)
                    .await?;
                self.set_empty_windows(&mut tx, id, side, 0).await?;
                let news = resigned(&loaded, team_player);
                Some(self.notice(&mut tx, id, &news).await?)
            }
            Some(turn) => {
                let steps = read_turn(&mut loaded.game, turn)?;
                let stored: Vec<&str> = steps.iter().map(String::as_str).collect();
                self.store_steps(&mut tx, &mut loaded, side, &stored, now)
                    .await?;
                self.set_empty_windows(&mut tx, id, side, 0).await?;
                let news = News::Voted {
                    by: team_player,
                    tally,
                };
                Some(self.notice(&mut tx, id, &news).await?)
            }
            None if by.is_some() => return Err(ServiceError::NoVotesYet(id)),
            None if team.empty + 1 >= EMPTY_WINDOWS_LOSE => {
                self.set_empty_windows(&mut tx, id, side, team.empty + 1)
                    .await?;
                self.time_out(&mut tx, &mut loaded, now).await?
            }
            None => {
                let empty = team.empty + 1;
                self.set_empty_windows(&mut tx, id, side, empty).await?;
                self.open_window_again(&mut tx, &loaded, now).await?;
                let news = News::NoVotes {
                    team: team_player,
                    empty: empty as u32,
                };
                Some(self.notice(&mut tx, id, &news).await?)
            }
        };
        tx.commit().await?;
        // taflbot's answer is woken by the front end once the vote is shown (or found by the
        // bot player's next look), so that it never comes before it.
        Ok(notice)
    }

    /// The window of team game `id` as it stands before it is closed (the ply, the side to
    /// move) and the voters whose votes no longer count, asked of the front end; `by`'s right to
    /// close it early is looked at first. Nothing where it is taflbot's turn and the sweeper asks.
    async fn voters_before_closing(
        &self,
        id: i64,
        by: Option<(&Member, &str)>,
    ) -> Result<Option<(i64, Side, Vec<String>)>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let loaded = self.load(&mut conn, id).await?;
        loaded.ensure_active()?;
        let side = loaded.game.position().turn();
        let sides = self.team_sides(&mut conn, id).await?;
        let Some(team) = sides.iter().find(|s| s.side() == side) else {
            // taflbot's turn: no window is open.
            return match by {
                Some(_) => Err(ServiceError::NotYourWindow {
                    game: id,
                    waiting_for: loaded.row.player(side),
                }),
                None => Ok(None),
            };
        };
        // The right to close early is looked at before Discord is asked about anyone.
        if let Some((member, guild)) = by {
            self.may_close(&mut conn, id, (&sides, team), member, guild)
                .await?;
        }
        let votes = self
            .window_votes(&mut conn, id, loaded.row.move_count)
            .await?;
        let casts: Vec<Cast> = votes
            .iter()
            .map(|v| Cast {
                id: v.id,
                turn: &v.turn,
                voter_key: &v.voter_key,
            })
            .collect();
        drop(conn);
        let dropped = self
            .voters_gone(id, &sides, &team.guild, side, &casts)
            .await;
        Ok(Some((loaded.row.move_count, side, dropped)))
    }

    /// Refuses `member` (of `guild`) the closing of `team`'s window early (`sides`: all the
    /// game's) unless they manage that server, or are the game's captain and vote for that side:
    /// the starter of a game between two roles captains the team of the role they hold, never the
    /// other.
    async fn may_close(
        &self,
        conn: &mut AnyConnection,
        game: i64,
        (sides, team): (&[super::TeamSide], &super::TeamSide),
        member: &Member,
        guild: &str,
    ) -> Result<(), ServiceError> {
        if member.manages && guild == team.guild {
            return Ok(());
        }
        let theirs = side_of_member(game, sides, guild, &member.roles);
        if theirs.ok() != Some(team.side()) {
            return Err(ServiceError::NotCaptain(game));
        }
        let key: Option<String> = match team.captain {
            Some(captain) => {
                sqlx::query_scalar("SELECT key FROM players WHERE id = $1")
                    .bind(captain)
                    .fetch_optional(&mut *conn)
                    .await?
            }
            None => None,
        };
        if key.as_deref() == Some(member.person.key.as_str()) {
            Ok(())
        } else {
            Err(ServiceError::NotCaptain(game))
        }
    }

    /// The votes cast in the window of ply `ply`, in the order they stand.
    async fn window_votes(
        &self,
        conn: &mut AnyConnection,
        game: i64,
        ply: i64,
    ) -> Result<Vec<VoteRow>, ServiceError> {
        Ok(sqlx::query_as(
            "SELECT v.id, v.turn, p.key AS voter_key FROM team_votes v
             JOIN players p ON p.id = v.voter
             WHERE v.game_id = $1 AND v.ply = $2 ORDER BY v.id",
        )
        .bind(game)
        .bind(ply)
        .fetch_all(&mut *conn)
        .await?)
    }

    async fn set_empty_windows(
        &self,
        conn: &mut AnyConnection,
        game: i64,
        side: Side,
        empty: i64,
    ) -> Result<(), ServiceError> {
        sqlx::query("UPDATE team_sides SET empty = $1 WHERE game_id = $2 AND side = $3")
            .bind(empty)
            .bind(game)
            .bind(super::side_name(side))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Opens the window of the same turn again, from now.
    async fn open_window_again(
        &self,
        conn: &mut AnyConnection,
        loaded: &Loaded,
        now: i64,
    ) -> Result<(), ServiceError> {
        let deadline = now + loaded.row.turn_length();
        sqlx::query(
            "UPDATE games SET deadline = $1, remind_at = $2, reminded = 0, turn_started = $3,
                updated_at = $3
             WHERE id = $4 AND move_count = $5 AND status = 'active'",
        )
        .bind(deadline)
        .bind(loaded.row.remind_at(deadline))
        .bind(now)
        .bind(loaded.row.id)
        .bind(loaded.row.move_count)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// The team game a member of `guild` means: the one named (a team game of this server),
    /// the one whose thread this is, or the only one going here.
    pub(super) async fn resolve_team_game(
        &self,
        conn: &mut AnyConnection,
        guild: &str,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<i64, ServiceError> {
        if let Some(id) = id {
            let ours: Option<i64> = sqlx::query_scalar(
                "SELECT game_id FROM team_sides WHERE game_id = $1 AND guild = $2 LIMIT 1",
            )
            .bind(id)
            .bind(guild)
            .fetch_optional(&mut *conn)
            .await?;
            return match ours {
                Some(id) => Ok(id),
                None => Err(ServiceError::NotTeamGame(id)),
            };
        }
        let going: Vec<(i64, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT DISTINCT g.id, g.thread, t.thread FROM games g
             JOIN team_sides t ON t.game_id = g.id
             WHERE g.status = 'active' AND t.guild = $1 ORDER BY g.id",
        )
        .bind(guild)
        .fetch_all(&mut *conn)
        .await?;
        if let Some(here) = channel {
            let place = |p: &Option<String>| p.as_deref() == Some(here);
            if let Some((id, ..)) = going.iter().find(|(_, a, b)| place(a) || place(b)) {
                return Ok(*id);
            }
        }
        let mut ids: Vec<i64> = going.iter().map(|(id, ..)| *id).collect();
        ids.dedup();
        match ids.as_slice() {
            [id] => Ok(*id),
            [] => Err(ServiceError::NoTeamGame),
            _ => Err(ServiceError::SeveralTeamGames(ids)),
        }
    }
}

/// The post kept to show how many voted in `side`'s window at `ply` of team game `game`, if any.
async fn count_post(
    conn: &mut AnyConnection,
    game: i64,
    side: Side,
    ply: i64,
) -> Result<Option<String>, ServiceError> {
    let post: Option<Option<String>> = sqlx::query_scalar(
        "SELECT count_message FROM team_sides WHERE game_id = $1 AND side = $2 AND count_ply = $3",
    )
    .bind(game)
    .bind(super::side_name(side))
    .bind(ply)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(post.flatten())
}

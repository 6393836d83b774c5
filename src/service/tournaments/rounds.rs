//! A tournament moving on: each result checked against the timeout rule, and the next round
//! paired (or the winner found) by the write that ends the last game of a round.

use sqlx::{AnyConnection, Row};

use super::{TournamentRow, TIMEOUTS_TO_WITHDRAW, TOURNAMENT_SELECT};
use crate::rules::{Reason, Side};
use crate::service::begin::NewGame;
use crate::service::finish::Ending;
use crate::service::rows::GameResult;
use crate::service::{News, Person, Service, ServiceError};
use crate::tournament::progress::{self, Next};
use crate::tournament::{Format, Pairing, Status};

/// How the games of a withdrawn entrant end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Forfeits {
    /// Lost as they were played: rated games rated. A player who leaves cannot leave their
    /// losing games unrated.
    Rated,
    /// Lost, unrated: the entrant was withdrawn for losing on time (the WTF's rule), and their
    /// opponents did not earn the games by play.
    Unrated,
}

impl Service {
    /// Called where a game's result is stored, in its transaction: when the game belongs to a
    /// running tournament, a player who has now lost on time too often is withdrawn, and when
    /// it was the last game of its round, the next round is paired (or the tournament ends).
    pub(in crate::service) async fn tournament_game_over(
        &self,
        conn: &mut AnyConnection,
        game: i64,
    ) -> Result<(), ServiceError> {
        let row = sqlx::query(
            "SELECT tournament_id, reason, result, attacker, defender FROM games WHERE id = $1",
        )
        .bind(game)
        .fetch_one(&mut *conn)
        .await?;
        let Some(tournament) = row.get::<Option<i64>, _>(0) else {
            return Ok(());
        };
        let running: Option<Status> =
            sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1")
                .bind(tournament)
                .fetch_optional(&mut *conn)
                .await?;
        if running != Some(Status::Running) {
            return Ok(());
        }
        let reason: Option<String> = row.get(1);
        let result: GameResult = row.get(2);
        if reason.as_deref() == Some(Reason::Timeout.as_str()) {
            if let Some(winner) = result.winner() {
                let late: i64 = row.get(if winner == Side::Attackers { 4 } else { 3 });
                let (lost_on_time, finished): (i64, i64) = sqlx::query_as(
                    "SELECT CAST(SUM(CASE WHEN reason = 'timeout'
                                     AND ((attacker = $2 AND result IN ('defenders_won', 'gold_won'))
                                       OR (defender = $2 AND result IN ('attackers_won', 'red_won')))
                                     THEN 1 ELSE 0 END) AS BIGINT),
                            COUNT(*)
                     FROM games WHERE tournament_id = $1 AND status = 'finished'
                       AND (attacker = $2 OR defender = $2)",
                )
                .bind(tournament)
                .bind(late)
                .fetch_one(&mut *conn)
                .await?;
                if lost_on_time >= TIMEOUTS_TO_WITHDRAW && 2 * lost_on_time > finished {
                    self.withdraw_entrant(conn, tournament, late, Forfeits::Unrated)
                        .await?;
                }
            }
        }
        self.advance(conn, tournament).await?;
        self.tournament_notice(conn, game, tournament).await
    }

    /// Withdraws `player`: marked so, and every game of theirs still going in the tournament is
    /// lost by forfeit, unrated. Says which games were forfeited.
    pub(super) async fn withdraw_entrant(
        &self,
        conn: &mut AnyConnection,
        tournament: i64,
        player: i64,
        forfeits: Forfeits,
    ) -> Result<Vec<i64>, ServiceError> {
        let now = self.now();
        sqlx::query(
            "UPDATE tournament_players SET withdrawn_at = $1
             WHERE tournament_id = $2 AND player = $3 AND withdrawn_at IS NULL",
        )
        .bind(now)
        .bind(tournament)
        .bind(player)
        .execute(&mut *conn)
        .await?;
        let games = sqlx::query(
            "SELECT id, attacker FROM games
             WHERE tournament_id = $1 AND status = 'active' AND (attacker = $2 OR defender = $3)",
        )
        .bind(tournament)
        .bind(player)
        .bind(player)
        .fetch_all(&mut *conn)
        .await?;
        let mut forfeited = Vec::with_capacity(games.len());
        for g in games {
            let id: i64 = g.get(0);
            forfeited.push(id);
            let attacker: i64 = g.get(1);
            let loser = if attacker == player {
                Side::Attackers
            } else {
                Side::Defenders
            };
            let mut loaded = self.load(&mut *conn, id).await?;
            let ending = Ending::Forfeit {
                loser,
                rated: forfeits == Forfeits::Rated,
            };
            // Boxed: a tournament's game over may withdraw a player, whose forfeits end games.
            Box::pin(self.finish(&mut *conn, &mut loaded, ending, Some(&News::Update))).await?;
        }
        Ok(forfeited)
    }

    /// Pairs the next round when the current one is over, or ends the tournament.
    pub(super) async fn advance(
        &self,
        conn: &mut AnyConnection,
        tournament: i64,
    ) -> Result<(), ServiceError> {
        // A round of byes alone has no game to end it: the next is paired at once. Each pass
        // moves the stage on, and the formats have a last stage, so this ends.
        while self.advance_once(conn, tournament).await? {}
        Ok(())
    }

    /// One step of [`Service::advance`]: true when it began a round with no games.
    async fn advance_once(
        &self,
        conn: &mut AnyConnection,
        tournament: i64,
    ) -> Result<bool, ServiceError> {
        let t: TournamentRow = sqlx::query_as(&format!("{TOURNAMENT_SELECT} WHERE id = $1"))
            .bind(tournament)
            .fetch_one(&mut *conn)
            .await?;
        if t.status != Status::Running {
            return Ok(false);
        }
        let going: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games g JOIN tournament_matches m
               ON g.id = m.game_one OR g.id = m.game_two
             WHERE m.tournament_id = $1 AND m.round = $2 AND g.status = 'active'",
        )
        .bind(t.id)
        .bind(t.stage)
        .fetch_one(&mut *conn)
        .await?;
        if going > 0 {
            return Ok(false);
        }
        let results = self.results(conn, t.id).await?;
        let seeds = &results.seeds;
        let (played, byes) = results.all();
        let (stage_played, stage_byes) = results.of_round(t.stage);
        let withdrawn: Vec<bool> = self.withdrawn(conn, t.id, seeds).await?;
        let last_round = match t.format {
            Format::Knockout => self.matches(conn, (t.id, seeds), t.stage).await?,
            _ => Vec::new(),
        };
        let field = progress::Field {
            format: t.format,
            stage: t.stage as usize,
            rounds: t.rounds.max(0) as usize,
            withdrawn: &withdrawn,
            played: &played,
            byes: &byes,
            stage_played: &stage_played,
            stage_byes: &stage_byes,
            last_round: &last_round,
        };
        match progress::next(&field) {
            Next::Round { round, pairings } => {
                let (games, _) = self
                    .begin_round(conn, &t, round as i64, seeds, &pairings)
                    .await?;
                return Ok(games.is_empty());
            }
            Next::Over { winner } => {
                sqlx::query(
                    "UPDATE tournaments SET status = 'finished', finished_at = $1, winner = $2
                     WHERE id = $3 AND status = 'running'",
                )
                .bind(self.now())
                .bind(winner.map(|s| seeds[s]))
                .bind(t.id)
                .execute(&mut *conn)
                .await?;
            }
        }
        Ok(false)
    }

    /// Begins round `round`'s matches (seeds into `players`' ids): a match's two games, each
    /// announced by a kept notice; a bye is a match without a second player.
    pub(super) async fn begin_round(
        &self,
        conn: &mut AnyConnection,
        t: &TournamentRow,
        round: i64,
        players: &[i64],
        pairings: &[(usize, Pairing)],
    ) -> Result<(Vec<i64>, Vec<Person>), ServiceError> {
        let mut games = Vec::new();
        let mut byes = Vec::new();
        for &(section, pairing) in pairings {
            let (first, second) = match pairing {
                Pairing::Match(p) => (players[p.first], Some(players[p.second])),
                Pairing::Bye(s) => (players[s], None),
            };
            let mut ids = [None, None];
            if let Some(second) = second {
                for (slot, (attacker, defender)) in
                    [(first, second), (second, first)].into_iter().enumerate()
                {
                    let id = self
                        .begin_game(
                            &mut *conn,
                            &NewGame {
                                guild: t.guild.as_deref(),
                                channel: t.channel.as_deref(),
                                rated: t.rated.0,
                                tournament: Some(t.id),
                                ..NewGame::new(t.variant.0, attacker, defender, t.days)
                            },
                        )
                        .await?;
                    self.notice(&mut *conn, id, &News::Started).await?;
                    ids[slot] = Some(id);
                    games.push(id);
                }
            } else {
                byes.push(self.person(conn, first).await?);
            }
            sqlx::query(
                "INSERT INTO tournament_matches (tournament_id, round, section, first, second,
                                                 game_one, game_two)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(t.id)
            .bind(round)
            .bind(section as i64)
            .bind(first)
            .bind(second)
            .bind(ids[0])
            .bind(ids[1])
            .execute(&mut *conn)
            .await?;
        }
        // Moved on once: the write that pairs a round is the one that finds the last over.
        let moved = sqlx::query("UPDATE tournaments SET stage = $1 WHERE id = $2 AND stage = $3")
            .bind(round)
            .bind(t.id)
            .bind(t.stage)
            .execute(&mut *conn)
            .await?;
        if moved.rows_affected() != 1 {
            return Err(ServiceError::Internal(format!(
                "tournament #{} was paired twice",
                t.id
            )));
        }
        Ok((games, byes))
    }
}

//! A tournament read back: the one a command means, its view, its seeded players, its matches
//! and its finished games as the tournament arithmetic reads them.

use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::{
    half_points, Crosstable, Entrant, GameOf, StandingLine, TournamentRow, TournamentView,
    TOURNAMENT_SELECT,
};
use crate::render::{crosstable, CrossRow};
use crate::rules::{Reason, Side};
use crate::service::rows::GameResult;
use crate::service::{Person, Service, ServiceError};
use crate::tournament::{standings, Outcome, Played, Seed, Status};

impl Service {
    /// The tournament's players' ids, by seed.
    pub(super) async fn seeded(
        &self,
        conn: &mut AnyConnection,
        id: i64,
    ) -> Result<Vec<i64>, ServiceError> {
        Ok(sqlx::query_scalar(
            "SELECT player FROM tournament_players
             WHERE tournament_id = $1 AND seed IS NOT NULL ORDER BY seed",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?)
    }

    pub(super) async fn withdrawn(
        &self,
        conn: &mut AnyConnection,
        id: i64,
        seeds: &[i64],
    ) -> Result<Vec<bool>, ServiceError> {
        let out: Vec<i64> = sqlx::query_scalar(
            "SELECT player FROM tournament_players
             WHERE tournament_id = $1 AND withdrawn_at IS NOT NULL",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        Ok(seeds.iter().map(|p| out.contains(p)).collect())
    }

    /// Round `round`'s matches as seeds, in the order they were paired (a knockout's bracket
    /// order); `players` are the tournament's player ids by seed.
    pub(super) async fn matches(
        &self,
        conn: &mut AnyConnection,
        (id, players): (i64, &[i64]),
        round: i64,
    ) -> Result<Vec<(Seed, Option<Seed>)>, ServiceError> {
        let seed_of: HashMap<i64, Seed> =
            players.iter().enumerate().map(|(s, p)| (*p, s)).collect();
        let rows: Vec<(i64, Option<i64>)> = sqlx::query_as(
            "SELECT first, second FROM tournament_matches
             WHERE tournament_id = $1 AND round = $2 ORDER BY id",
        )
        .bind(id)
        .bind(round)
        .fetch_all(&mut *conn)
        .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(f, s)| {
                Some((*seed_of.get(&f)?, s.and_then(|s| seed_of.get(&s).copied())))
            })
            .collect())
    }

    /// The players by seed, the finished games and the byes, each with its round, as the
    /// tournament's arithmetic reads them.
    pub(super) async fn results(
        &self,
        conn: &mut AnyConnection,
        id: i64,
    ) -> Result<Results, ServiceError> {
        let players = self.seeded(conn, id).await?;
        let seed_of: HashMap<i64, Seed> =
            players.iter().enumerate().map(|(s, p)| (*p, s)).collect();
        let rows = sqlx::query(
            "SELECT g.id, g.attacker, g.defender, g.status, g.result, g.reason, g.move_count,
                    m.round
             FROM games g JOIN tournament_matches m ON g.id = m.game_one OR g.id = m.game_two
             WHERE m.tournament_id = $1 ORDER BY g.id",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        let games = rows.iter().map(|r| {
            let g = GameOf {
                attacker: r.get(1),
                defender: r.get(2),
                finished: r.get::<String, _>(3) == "finished",
                result: r.get(4),
                reason: r.get(5),
                moves: r.get(6),
            };
            (r.get::<i64, _>(7), g)
        });
        let played = games
            .filter(|(_, g)| g.finished && g.result != GameResult::Aborted)
            .filter_map(|(round, g)| {
                let played = Played {
                    attacker: *seed_of.get(&g.attacker)?,
                    defender: *seed_of.get(&g.defender)?,
                    outcome: match g.result.winner() {
                        Some(Side::Attackers) => Outcome::AttackerWon,
                        Some(Side::Defenders) => Outcome::DefenderWon,
                        None => Outcome::Draw,
                    },
                    turns: g.moves.max(0) as u32,
                    forfeit: g.reason.as_deref() == Some(Reason::Forfeit.as_str()),
                };
                Some((round, played))
            })
            .collect();
        let byes: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT round, first FROM tournament_matches
             WHERE tournament_id = $1 AND second IS NULL",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        let byes = byes
            .iter()
            .filter_map(|(round, p)| Some((*round, seed_of.get(p).copied()?)))
            .collect();
        Ok(Results {
            seeds: players,
            played,
            byes,
        })
    }

    /// The tournament `id`, or the one of this server in one of `statuses` when `id` is none
    /// (the newest; several of them are named for the player to choose).
    pub(super) async fn tournament_here(
        &self,
        conn: &mut AnyConnection,
        id: Option<i64>,
        statuses: &[Status],
    ) -> Result<TournamentRow, ServiceError> {
        let guild = self.scope.guild().unwrap_or("").to_string();
        let row: TournamentRow = match id {
            Some(id) => sqlx::query_as(&format!("{TOURNAMENT_SELECT} WHERE id = $1"))
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?
                .ok_or(ServiceError::NoSuchTournament(Some(id)))?,
            None => {
                let rows: Vec<TournamentRow> = sqlx::query_as(&format!(
                    "{TOURNAMENT_SELECT} WHERE COALESCE(guild, '') = $1 ORDER BY id DESC"
                ))
                .bind(&guild)
                .fetch_all(&mut *conn)
                .await?;
                let fitting: Vec<TournamentRow> = rows
                    .into_iter()
                    .filter(|t| statuses.contains(&t.status))
                    .collect();
                match fitting.len() {
                    0 => return Err(ServiceError::NoSuchTournament(None)),
                    1 => fitting.into_iter().next().unwrap(),
                    _ => {
                        return Err(ServiceError::SeveralTournaments(
                            fitting.iter().map(|t| t.id).collect(),
                        ))
                    }
                }
            }
        };
        if !matches!(self.scope, crate::service::Scope::Everywhere)
            && row.guild.clone().unwrap_or_default() != guild
        {
            return Err(ServiceError::TournamentElsewhere(row.id));
        }
        Ok(row)
    }

    /// Refuses `who` unless they run the tournament: its creator, or a manager of the server.
    pub(super) async fn ensure_runs(
        &self,
        conn: &mut AnyConnection,
        t: &TournamentRow,
        who: &Person,
        manages: bool,
    ) -> Result<(), ServiceError> {
        let me = self.player_id(conn, who).await?;
        if me == t.creator || manages {
            Ok(())
        } else {
            Err(ServiceError::NotOrganiser(t.id))
        }
    }

    pub(super) async fn person(
        &self,
        conn: &mut AnyConnection,
        id: i64,
    ) -> Result<Person, ServiceError> {
        let (key, name): (String, String) =
            sqlx::query_as("SELECT key, name FROM players WHERE id = $1")
                .bind(id)
                .fetch_one(&mut *conn)
                .await?;
        Ok(Person::new(key, name))
    }

    pub(super) async fn tournament_view(
        &self,
        conn: &mut AnyConnection,
        id: i64,
    ) -> Result<TournamentView, ServiceError> {
        let t: TournamentRow = sqlx::query_as(&format!("{TOURNAMENT_SELECT} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or(ServiceError::NoSuchTournament(Some(id)))?;
        let rows = sqlx::query(
            "SELECT p.key, p.name, tp.seed, tp.withdrawn_at FROM tournament_players tp
             JOIN players p ON p.id = tp.player WHERE tp.tournament_id = $1
             ORDER BY COALESCE(tp.seed, 1000000), tp.joined_at, tp.player",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        let players = rows
            .iter()
            .map(|r| Entrant {
                person: Person::new(r.get::<String, _>(0), r.get::<String, _>(1)),
                seed: r.get(2),
                withdrawn: r.get::<Option<i64>, _>(3).is_some(),
            })
            .collect();
        let winner = match t.winner {
            Some(w) => Some(self.person(conn, w).await?),
            None => None,
        };
        Ok(TournamentView {
            id: t.id,
            name: t.name,
            variant: t.variant.0,
            format: t.format,
            status: t.status,
            days: t.days,
            rated: t.rated.0,
            rounds: t.rounds,
            max_players: t.max_players,
            creator: self.person(conn, t.creator).await?,
            players,
            stage: t.stage,
            winner,
            channel: t.channel,
            thread: t.thread,
        })
    }
}

impl Service {
    /// The tournaments of this server: open and running ones, then the last five finished.
    /// Only those are read: the cost does not grow with the tournaments a server ever made.
    pub async fn tournaments(&self) -> Result<Vec<TournamentView>, ServiceError> {
        const FINISHED_SHOWN: i64 = 5;
        let mut conn = self.pool.acquire().await?;
        let guild = self.scope.guild().unwrap_or("");
        let mut ids: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM tournaments
             WHERE COALESCE(guild, '') = $1 AND status IN ('running', 'open')
             ORDER BY CASE status WHEN 'running' THEN 0 ELSE 1 END, id DESC",
        )
        .bind(guild)
        .fetch_all(&mut *conn)
        .await?;
        let finished: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM tournaments
             WHERE COALESCE(guild, '') = $1 AND status NOT IN ('running', 'open')
             ORDER BY id DESC LIMIT $2",
        )
        .bind(guild)
        .bind(FINISHED_SHOWN)
        .fetch_all(&mut *conn)
        .await?;
        ids.extend(finished);
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.push(self.tournament_view(&mut conn, id).await?);
        }
        Ok(out)
    }

    /// A tournament as it stands (the one here when `id` is not given, the newest if several).
    pub async fn tournament(&self, id: Option<i64>) -> Result<TournamentView, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let t = self
            .tournament_here(
                &mut conn,
                id,
                &[Status::Open, Status::Running, Status::Finished],
            )
            .await?;
        self.tournament_view(&mut conn, t.id).await
    }

    /// The standings of a tournament, first place first, with what each player scored against
    /// each other one.
    pub async fn tournament_standings(&self, id: Option<i64>) -> Result<Crosstable, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let t = self
            .tournament_here(
                &mut conn,
                id,
                &[Status::Running, Status::Finished, Status::Open],
            )
            .await?;
        let view = self.tournament_view(&mut conn, t.id).await?;
        let results = self.results(&mut conn, t.id).await?;
        let (seeds, (played, byes)) = (&results.seeds, results.all());
        let table = standings::standings(seeds.len(), &played, &byes);
        let place_of: HashMap<Seed, usize> =
            table.iter().enumerate().map(|(i, l)| (l.seed, i)).collect();
        let mut scores = vec![vec![None; table.len()]; table.len()];
        for g in &played {
            let (Some(&a), Some(&d)) = (place_of.get(&g.attacker), place_of.get(&g.defender))
            else {
                continue;
            };
            for (me, them, seed) in [(a, d, g.attacker), (d, a, g.defender)] {
                let cell: &mut Option<u32> = &mut scores[me][them];
                *cell = Some(cell.unwrap_or(0) + g.half_points(seed).unwrap_or(0));
            }
        }
        let lines = table
            .into_iter()
            .map(|line| {
                let entrant = view
                    .players
                    .iter()
                    .find(|e| e.seed == Some(line.seed as i64))
                    .cloned();
                let (person, withdrawn) = entrant
                    .map(|e| (e.person, e.withdrawn))
                    .unwrap_or_else(|| (Person::new("", "?"), false));
                StandingLine {
                    person,
                    line,
                    withdrawn,
                }
            })
            .collect();
        Ok(Crosstable {
            view,
            lines,
            scores,
        })
    }

    /// The crosstable as a picture.
    pub async fn crosstable_picture(&self, table: &Crosstable) -> Result<Vec<u8>, ServiceError> {
        let title = format!("#{} {}", table.view.id, table.view.name);
        let rows: Vec<CrossRow> = table
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| CrossRow {
                name: l.person.name.clone(),
                withdrawn: l.withdrawn,
                cells: table.scores[i].iter().map(|c| c.map(half_points)).collect(),
                points: half_points(l.line.points),
                tie_break: format!("{:.2}", l.line.sonneborn_berger as f64 / 4.0),
            })
            .collect();
        let theme = {
            let mut conn = self.pool.acquire().await?;
            self.default_theme(&mut conn).await?
        };
        self.cpu(move |_| crosstable(&title, &rows, theme))
            .await?
            .ok_or_else(|| ServiceError::Internal("the crosstable could not be drawn".into()))
    }
}

/// A tournament's players by seed, with each finished game and each bye beside its round.
pub(super) struct Results {
    pub seeds: Vec<i64>,
    played: Vec<(i64, Played)>,
    byes: Vec<(i64, Seed)>,
}

impl Results {
    /// Every finished game and bye.
    pub fn all(&self) -> (Vec<Played>, Vec<Seed>) {
        self.only(|_| true)
    }

    /// The finished games and byes of round `round`.
    pub fn of_round(&self, round: i64) -> (Vec<Played>, Vec<Seed>) {
        self.only(|r| r == round)
    }

    fn only(&self, keep: impl Fn(i64) -> bool) -> (Vec<Played>, Vec<Seed>) {
        let played = self.played.iter().filter(|(r, _)| keep(*r));
        let byes = self.byes.iter().filter(|(r, _)| keep(*r));
        (
            played.map(|(_, p)| *p).collect(),
            byes.map(|(_, s)| *s).collect(),
        )
    }
}

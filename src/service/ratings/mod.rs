//! Ratings: the change a rated result makes (written in the transaction that writes the result),
//! a server's leaderboard, and a player's profile with the history its chart is drawn from.
//!
//! Ratings are kept per pool: each Discord server is its own community, and a rating there is
//! earned in its games only (the local mode has a pool of its own). One pair of players has at
//! most [`PAIR_RESULTS_PER_DAY`] rated results counted in a day; a result past that is played but
//! not rated, a player gains at most [`DAILY_GAIN`] points in a day, and climbs no higher than
//! the players it has beaten allow ([`rating::ceiling`]). The side advantage is
//! the variant's in each pool: it starts from a prior (see [`rating::prior_share`]) and learns
//! from the pool's rated games of [`REAL_LENGTH`] moves or more.

mod rate;

use sqlx::{AnyConnection, FromRow};

use super::rows::{Flag, GameResult, VariantId};
use super::{Person, Scope, Service, ServiceError};
use crate::rating::{self, Rating};
use crate::render::{rating_chart, Series};
use crate::rules::{Side, Variant};

/// The most rated results one pair of players has counted in a pool in any 24 hours.
pub const PAIR_RESULTS_PER_DAY: i64 = 3;
/// The most rating points a player gains, net, in a pool in any 24 hours, over all its variants
/// together: a ring of accounts feeding one of them wins cannot lift it faster than this, nor
/// lift it in seven variants at once (the audit's five alts put one account at 1750 in seven
/// variants in a day while the cap was per variant). It is above what a fresh player's first
/// win against an even opponent brings (about 240), so that an honest first game rates as
/// Glicko-2 says.
pub const DAILY_GAIN: f64 = 250.0;
/// Days an account must have existed to play rated games (a Discord id carries its creation
/// time); the front end that knows accounts says who is newer.
pub const RATED_ACCOUNT_DAYS: i64 = 7;
/// Days a member must have been in a server to play rated games there.
pub const RATED_MEMBER_DAYS: i64 = 3;
/// The fewest moves (played in the game, not continued from a record) a rated game needs to
/// count toward its variant's side advantage.
pub const REAL_LENGTH: i64 = 20;

/// Players per leaderboard page.
pub const LEADERBOARD_PAGE: usize = 15;
/// The most points of one variant's rating history a profile's chart draws (the latest).
pub const MAX_HISTORY: i64 = 500;

/// One line of a leaderboard.
#[derive(Clone, Debug)]
pub struct Ranked {
    pub rank: usize,
    pub player: Person,
    pub rating: Rating,
    pub games: i64,
}

/// A page of a server's leaderboard in one variant.
#[derive(Clone, Debug)]
pub struct Leaderboard {
    pub variant: &'static Variant,
    /// Pages are counted from 1.
    pub page: usize,
    pub pages: usize,
    pub players: usize,
    pub lines: Vec<Ranked>,
}

/// A player's standing in one variant.
#[derive(Clone, Debug)]
pub struct Standing {
    pub variant: &'static Variant,
    /// `None` until the player's first rated game in the variant.
    pub rating: Option<Rating>,
    /// Finished games (rated or not, the bot's included): won, drawn and lost, as attackers and
    /// as defenders.
    pub as_attackers: Tally,
    pub as_defenders: Tally,
    /// The rating over time, oldest first: (time, rating), from the rating before the first rated
    /// game (when it began) to the one after each.
    pub history: Vec<(i64, f64)>,
}

/// Results on one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub won: i64,
    pub drawn: i64,
    pub lost: i64,
}

impl Tally {
    pub fn games(&self) -> i64 {
        self.won + self.drawn + self.lost
    }
}

/// A player's profile.
#[derive(Clone, Debug)]
pub struct Profile {
    pub player: Person,
    /// Variants the player has played, most games first.
    pub standings: Vec<Standing>,
    /// Their games going on: id, variant, opponent.
    pub current: Vec<super::GameSummary>,
    /// Their puzzle rating, once they have tried a puzzle.
    pub puzzles: Option<super::PuzzleRecord>,
}

#[derive(FromRow)]
struct RatingRow {
    rating: f64,
    deviation: f64,
    volatility: f64,
    rated_at: i64,
}

impl RatingRow {
    fn rating(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

impl Service {
    /// The defenders' advantage in a variant in rating pool `pool`: its prior, moved by the
    /// pool's rated results of real length so far (`except` one game: the one being rated).
    ///
    /// Each pool learns its own: results in one server (a private one of a player's accounts,
    /// say) move nothing in another. A pool with few games stays near the prior, which counts
    /// as [`rating::PRIOR_GAMES`] games, so a small pool is not pushed about by a handful.
    pub(super) async fn advantage(
        &self,
        conn: &mut AnyConnection,
        variant: &Variant,
        pool: &str,
        except: Option<i64>,
    ) -> Result<f64, ServiceError> {
        // Counted in half points, integers on both engines (PostgreSQL sums decimals as NUMERIC,
        // which sqlx's `Any` driver does not read).
        let (games, half_points): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), CAST(SUM(CASE result WHEN 'defenders_won' THEN 2 WHEN 'gold_won' THEN 2
                                                   WHEN 'draw' THEN 1 ELSE 0 END) AS BIGINT)
             FROM games WHERE variant = $1 AND rated = 1 AND status = 'finished'
               AND result NOT IN ('aborted', 'ongoing') AND id != $2
               AND move_count - imported >= $3 AND COALESCE(guild, '') = $4",
        )
        .bind(variant.id)
        .bind(except.unwrap_or(-1))
        .bind(REAL_LENGTH)
        .bind(pool)
        .fetch_one(&mut *conn)
        .await?;
        Ok(rating::advantage(
            half_points.map_or(0.0, |h| h as f64 / 2.0),
            games as u64,
            rating::prior_share(variant),
        ))
    }

    /// The defenders' advantage in a variant now in this scope's pool, in rating points (for
    /// `/rules` and the tests); outside a server, the prior.
    pub async fn side_advantage(&self, v: &'static Variant) -> Result<f64, ServiceError> {
        let pool = self.rating_pool().unwrap_or_default();
        let mut conn = self.pool.acquire().await?;
        self.advantage(&mut conn, v, &pool, None).await
    }

    /// A player's rating in a variant in this scope's pool, if they have one.
    pub async fn rating(
        &self,
        who: &Person,
        v: &'static Variant,
    ) -> Result<Option<Rating>, ServiceError> {
        let pool = self.rating_pool()?;
        let rating: Option<RatingRow> = sqlx::query_as(
            "SELECT r.rating, r.deviation, r.volatility, r.rated_at
             FROM ratings r JOIN players p ON p.id = r.player
             WHERE r.pool = $1 AND p.key = $2 AND r.variant = $3",
        )
        .bind(pool)
        .bind(&who.key)
        .bind(v.id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(rating.map(|r| r.rating().after(self.now() - r.rated_at)))
    }

    /// A page (from 1) of the leaderboard of `variant` (or the variant with the most rated
    /// players here): the players of this server with a rating in it, best first.
    pub async fn leaderboard(
        &self,
        variant: Option<&'static Variant>,
        page: usize,
    ) -> Result<Leaderboard, ServiceError> {
        let pool = self.rating_pool()?;
        let mut conn = self.pool.acquire().await?;
        let variant = match variant {
            Some(v) => v,
            None => {
                let busiest: Option<VariantId> = sqlx::query_scalar(
                    "SELECT variant FROM ratings WHERE pool = $1
                     GROUP BY variant ORDER BY COUNT(*) DESC, variant LIMIT 1",
                )
                .bind(&pool)
                .fetch_optional(&mut *conn)
                .await?;
                match busiest {
                    Some(v) => v.0,
                    None => return Err(ServiceError::NoRatings(None)),
                }
            }
        };
        let players: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM ratings WHERE pool = $1 AND variant = $2")
                .bind(&pool)
                .bind(variant.id)
                .fetch_one(&mut *conn)
                .await?;
        if players == 0 {
            return Err(ServiceError::NoRatings(Some(variant)));
        }
        let players = players as usize;
        let pages = players.div_ceil(LEADERBOARD_PAGE);
        let page = page.clamp(1, pages);
        let offset = (page - 1) * LEADERBOARD_PAGE;
        let rows: Vec<(String, String, f64, f64, f64, i64, i64)> = sqlx::query_as(
            "SELECT p.key, p.name, r.rating, r.deviation, r.volatility, r.rated_at, r.games
             FROM ratings r JOIN players p ON p.id = r.player
             WHERE r.pool = $1 AND r.variant = $2 ORDER BY r.rating DESC, p.id LIMIT $3 OFFSET $4",
        )
        .bind(&pool)
        .bind(variant.id)
        .bind(LEADERBOARD_PAGE as i64)
        .bind(offset as i64)
        .fetch_all(&mut *conn)
        .await?;
        let now = self.now();
        let lines = rows
            .into_iter()
            .enumerate()
            .map(
                |(i, (key, name, rating, deviation, volatility, at, games))| Ranked {
                    rank: offset + i + 1,
                    player: Person::new(key, name),
                    rating: Rating {
                        rating,
                        deviation,
                        volatility,
                    }
                    .after(now - at),
                    games,
                },
            )
            .collect();
        Ok(Leaderboard {
            variant,
            page,
            pages,
            players,
            lines,
        })
    }

    /// A player's profile in this scope's pool (a server's own games and ratings): ratings and
    /// results per variant, with each rating's history, and their games going on.
    pub async fn profile(&self, who: &Person) -> Result<Profile, ServiceError> {
        let pool = self.rating_pool()?;
        let mut conn = self.pool.acquire().await?;
        let Some((id, name)): Option<(i64, String)> =
            sqlx::query_as("SELECT id, name FROM players WHERE key = $1")
                .bind(&who.key)
                .fetch_optional(&mut *conn)
                .await?
        else {
            return Ok(Profile {
                player: who.clone(),
                standings: Vec::new(),
                current: Vec::new(),
                puzzles: None,
            });
        };
        let player = Person::new(&who.key, name);
        // Results by variant, side and result, over the games of the pool.
        let results: Vec<(VariantId, Flag, GameResult, i64)> = sqlx::query_as(
            "SELECT variant, CASE WHEN attacker = $1 THEN 1 ELSE 0 END AS attacks, result, COUNT(*)
             FROM games
             WHERE (attacker = $1 OR defender = $1) AND status = 'finished'
               AND result NOT IN ('aborted', 'ongoing') AND COALESCE(guild, '') = $2
             GROUP BY variant, CASE WHEN attacker = $1 THEN 1 ELSE 0 END, result",
        )
        .bind(id)
        .bind(&pool)
        .fetch_all(&mut *conn)
        .await?;
        let mut standings = tallied(results);
        let ratings: Vec<(VariantId, f64, f64, f64, i64)> = sqlx::query_as(
            "SELECT variant, rating, deviation, volatility, rated_at FROM ratings
             WHERE pool = $1 AND player = $2",
        )
        .bind(&pool)
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        let now = self.now();
        for (variant, rating, deviation, volatility, at) in ratings {
            let s = standing(&mut standings, variant.0);
            s.rating = Some(
                Rating {
                    rating,
                    deviation,
                    volatility,
                }
                .after(now - at),
            );
            // The latest changes, oldest first, starting from the rating the first of them
            // began with, when its game began.
            let mut changes: Vec<(i64, f64, f64, i64)> = sqlx::query_as(
                "SELECT c.at, c.before, c.after, g.created_at FROM rating_changes c
                 JOIN games g ON g.id = c.game_id
                 WHERE c.pool = $1 AND c.player = $2 AND c.variant = $3
                 ORDER BY c.at DESC, c.game_id DESC LIMIT $4",
            )
            .bind(&pool)
            .bind(id)
            .bind(variant)
            .bind(MAX_HISTORY)
            .fetch_all(&mut *conn)
            .await?;
            changes.reverse();
            s.history = changes
                .first()
                .map(|&(at, before, _, began)| (began.min(at), before))
                .into_iter()
                .chain(changes.iter().map(|&(at, _, after, _)| (at, after)))
                .collect();
        }
        standings.sort_by_key(|s| {
            (
                std::cmp::Reverse(s.as_attackers.games() + s.as_defenders.games()),
                s.variant.id,
            )
        });
        let current = self
            .summaries(&mut conn, &player)
            .await?
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        drop(conn);
        let puzzles = self.puzzle_rating(&player).await?;
        Ok(Profile {
            player,
            standings,
            current,
            puzzles,
        })
    }

    /// The chart of a profile's ratings over time (the variants most played first), or `None`
    /// before the player's first rated game, in the theme of `viewer`. Drawn on the blocking
    /// pool.
    pub async fn rating_chart(
        &self,
        viewer: &Person,
        profile: &Profile,
    ) -> Result<Option<Vec<u8>>, ServiceError> {
        let title = format!("Ratings of {}", profile.player.name);
        let lines: Vec<(&'static str, Vec<(i64, f64)>)> = profile
            .standings
            .iter()
            .filter(|s| !s.history.is_empty())
            .map(|s| (s.variant.name, s.history.clone()))
            .collect();
        if lines.is_empty() {
            return Ok(None);
        }
        let theme = self.theme_for(viewer).await?;
        self.cpu(move |_| {
            let series: Vec<Series> = lines
                .iter()
                .map(|(label, points)| Series { label, points })
                .collect();
            rating_chart(&title, &series, theme)
        })
        .await
    }

    /// The pool of ratings this scope sees: a server's own, or the local mode's (`''`, where
    /// games with no server are rated). A direct message has none.
    fn rating_pool(&self) -> Result<String, ServiceError> {
        match &self.scope {
            Scope::Server(g) => Ok(g.clone()),
            Scope::Everywhere => Ok(String::new()),
            Scope::Direct => Err(ServiceError::NotInServer),
        }
    }
}

/// A variant's standing in `list`, added empty if it has none yet.
fn standing<'s>(list: &'s mut Vec<Standing>, v: &'static Variant) -> &'s mut Standing {
    if let Some(i) = list.iter().position(|s| std::ptr::eq(s.variant, v)) {
        return &mut list[i];
    }
    list.push(Standing {
        variant: v,
        rating: None,
        as_attackers: Tally::default(),
        as_defenders: Tally::default(),
        history: Vec::new(),
    });
    list.last_mut().expect("just pushed")
}

/// The standings made from a player's results (variant, whether they attacked, result, count):
/// each variant's wins, draws and losses by side, not yet rated.
fn tallied(results: Vec<(VariantId, Flag, GameResult, i64)>) -> Vec<Standing> {
    let mut standings: Vec<Standing> = Vec::new();
    for (variant, attacks, result, n) in results {
        let attacks = attacks.0;
        let s = standing(&mut standings, variant.0);
        let side = if attacks {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let tally = if attacks {
            &mut s.as_attackers
        } else {
            &mut s.as_defenders
        };
        match result.winner() {
            Some(w) if w == side => tally.won += n,
            Some(_) => tally.lost += n,
            None => tally.drawn += n,
        }
    }
    standings
}

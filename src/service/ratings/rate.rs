//! What a rated result changes: the pair's limit for the day, the Glicko-2 step with the
//! variant's side advantage, and the caps on a gain (the daily net gain and the ceiling the
//! players beaten set), written in the transaction that writes the result.

use sqlx::AnyConnection;

use super::{RatingRow, DAILY_GAIN, PAIR_RESULTS_PER_DAY};
use crate::rating::{self, Rating};
use crate::rules::{BySide, Side, Variant};
use crate::service::rows::{Flag, GameResult, GameRow};
use crate::service::{Service, ServiceError, DAY};

impl Service {
    /// Writes the rating change of a rated game that has just ended (its row already marked
    /// finished, on the caller's transaction), and puts it in `row`. Unrated games, games against
    /// the bot and games with no result change nothing. A result past the pair's limit for the
    /// day is marked unrated (and `pair_limited`) instead, and a gain is held to the caps of
    /// [`Service::held_gain`].
    pub(in crate::service) async fn rate(
        &self,
        conn: &mut AnyConnection,
        row: &mut GameRow,
        now: i64,
    ) -> Result<(), ServiceError> {
        if !row.rated.0 || row.bot().is_some() {
            return Ok(());
        }
        let winner = match row.result {
            GameResult::Ongoing | GameResult::Aborted => return Ok(()),
            GameResult::Draw => None,
            r => r.winner(),
        };
        let pool = row.guild.clone().unwrap_or_default();
        let ids = row.player_ids();
        let today: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rating_changes c
             JOIN rating_changes o ON o.game_id = c.game_id AND o.player = $2
             WHERE c.player = $1 AND c.pool = $3 AND c.at > $4",
        )
        .bind(ids.attackers)
        .bind(ids.defenders)
        .bind(&pool)
        .bind(now - DAY)
        .fetch_one(&mut *conn)
        .await?;
        if today >= PAIR_RESULTS_PER_DAY {
            sqlx::query("UPDATE games SET rated = 0, pair_limited = 1 WHERE id = $1")
                .bind(row.id)
                .execute(&mut *conn)
                .await?;
            row.rated = Flag(false);
            row.pair_limited = Flag(true);
            return Ok(());
        }
        let advantage = self
            .advantage(conn, row.variant.0, &pool, Some(row.id))
            .await?;
        let mut before = BySide::new(rating::START, rating::START);
        for side in Side::BOTH {
            before[side] = self
                .rating_of(conn, &pool, ids[side], row.variant.0)
                .await?
                .map_or(rating::START, |(r, at)| r.after(now - at));
        }
        let (a, d) = rating::rate(before.attackers, before.defenders, winner, advantage);
        let mut after = BySide::new(a, d);
        for side in Side::BOTH {
            if after[side].rating <= before[side].rating {
                continue;
            }
            let player = (ids[side], before[side].rating);
            let beaten =
                (winner == Some(side)).then(|| (ids[side.other()], before[side.other()].rating));
            let held = self
                .held_gain(conn, (&pool, row.variant.0), player, beaten, now)
                .await?;
            after[side].rating = after[side].rating.min(held);
        }
        let (a, d) = (after.attackers, after.defenders);
        for side in Side::BOTH {
            let change = (before[side], after[side]);
            write_rating(conn, (&pool, ids[side]), row, change, now).await?;
        }
        row.attacker_before = Some(before.attackers.rating);
        row.attacker_after = Some(a.rating);
        row.defender_before = Some(before.defenders.rating);
        row.defender_after = Some(d.rating);
        Ok(())
    }

    /// The highest rating a gain may bring `player` (id, rating before the game) in a pool and
    /// variant, `beaten` the opponent (id, rating before the game) when this game is a win: no
    /// more than [`DAILY_GAIN`] net over the pool's last 24 hours, and no higher than the ceiling
    /// that the players it has beaten there set ([`rating::ceiling`], this game's counted). A
    /// rating already above its ceiling keeps what it has.
    async fn held_gain(
        &self,
        conn: &mut AnyConnection,
        (pool, variant): (&str, &Variant),
        (player, rating): (i64, f64),
        beaten_now: Option<(i64, f64)>,
        now: i64,
    ) -> Result<f64, ServiceError> {
        let gained: f64 = sqlx::query_scalar(
            "SELECT COALESCE(SUM(after - before), 0.0) FROM rating_changes
             WHERE player = $1 AND pool = $2 AND at > $3",
        )
        .bind(player)
        .bind(pool)
        .bind(now - DAY)
        .fetch_one(&mut *conn)
        .await?;
        // Each player beaten here, once, at the best rating they had when beaten.
        let mut beaten: Vec<(i64, f64)> = sqlx::query_as(
            "SELECT o.player, MAX(o.before) FROM rating_changes c
             JOIN rating_changes o ON o.game_id = c.game_id AND o.player <> c.player
             JOIN games g ON g.id = c.game_id
             WHERE c.player = $1 AND c.pool = $2 AND c.variant = $3
               AND ((g.attacker = $1 AND g.result IN ($4, $5))
                 OR (g.defender = $1 AND g.result IN ($6, $7)))
             GROUP BY o.player ORDER BY MAX(o.before) DESC LIMIT $8",
        )
        .bind(player)
        .bind(pool)
        .bind(variant.id)
        .bind(GameResult::AttackersWon.as_str())
        .bind(GameResult::RedWon.as_str())
        .bind(GameResult::DefendersWon.as_str())
        .bind(GameResult::GoldWon.as_str())
        .bind(rating::CEILING_WINS as i64 + 1)
        .fetch_all(&mut *conn)
        .await?;
        if let Some((id, at)) = beaten_now {
            match beaten.iter_mut().find(|(one, _)| *one == id) {
                Some((_, best)) => *best = best.max(at),
                None => beaten.push((id, at)),
            }
        }
        let ratings: Vec<f64> = beaten.iter().map(|&(_, r)| r).collect();
        let daily = rating + (DAILY_GAIN - gained).max(0.0);
        Ok(daily.min(rating::ceiling(&ratings).max(rating)))
    }

    /// A player's stored rating in a pool and variant, and when it last changed.
    async fn rating_of(
        &self,
        conn: &mut AnyConnection,
        pool: &str,
        player: i64,
        variant: &Variant,
    ) -> Result<Option<(Rating, i64)>, ServiceError> {
        let row: Option<RatingRow> = sqlx::query_as(
            "SELECT rating, deviation, volatility, rated_at FROM ratings
             WHERE pool = $1 AND player = $2 AND variant = $3",
        )
        .bind(pool)
        .bind(player)
        .bind(variant.id)
        .fetch_optional(&mut *conn)
        .await?;
        Ok(row.map(|r| (r.rating(), r.rated_at)))
    }
}

/// Writes a player's new rating in a pool (`player` = (pool, id)) after `game`, and the change
/// from `old` beside it.
async fn write_rating(
    conn: &mut AnyConnection,
    (pool, id): (&str, i64),
    game: &GameRow,
    (old, new): (Rating, Rating),
    now: i64,
) -> Result<(), ServiceError> {
    sqlx::query(
        "INSERT INTO ratings (pool, player, variant, rating, deviation, volatility, games,
                              rated_at)
         VALUES ($7, $1, $2, $3, $4, $5, 1, $6)
         ON CONFLICT(pool, player, variant) DO UPDATE SET rating = $3, deviation = $4,
            volatility = $5, games = ratings.games + 1, rated_at = $6",
    )
    .bind(id)
    .bind(game.variant)
    .bind(new.rating)
    .bind(new.deviation)
    .bind(new.volatility)
    .bind(now)
    .bind(pool)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO rating_changes (game_id, player, variant, before, after, deviation, at,
                                     pool)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(game.id)
    .bind(id)
    .bind(game.variant)
    .bind(old.rating)
    .bind(new.rating)
    .bind(new.deviation)
    .bind(now)
    .bind(pool)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

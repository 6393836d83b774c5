//! Reviews of finished games: the engine's view of every turn, kept once made.
//!
//! A review is asked of a finished game only, by anyone who may see it (its players, and anyone
//! in the server it was played in). The engine's work is rationed as hints are (one at a time per
//! player, a capped queue) and runs on the blocking pool. The review is stored: asking again,
//! from any process, costs no engine time. Two processes making the same review at once store the
//! same thing, so the second write changes nothing.

use serde_json::{json, Value};

use super::thinking::Work;
use super::{GameView, Person, Service, ServiceError};
use crate::engine::review::{budget_for, review, Curve, Mark, Review, ReviewedTurn, MOST_TURNS};
use crate::engine::weights::fnv;
use crate::engine::{net, wide, Eval};
use crate::render::review_chart;
use crate::rules::{Side, Variant};

/// A game's review, with the game it is of.
#[derive(Clone, Debug)]
pub struct GameReview {
    pub game: Box<GameView>,
    pub review: Review,
    /// Whether it was made for this answer (rather than read back).
    pub fresh: bool,
}

/// What [`Service::stored_review`] found.
struct Stored {
    review: Option<Review>,
    /// A body was stored but did not read, was made another way (an older [`VERSION`]) or by
    /// other weights or another curve ([`judge`]), or was made before continued turns were left
    /// out.
    damaged: bool,
}

impl Service {
    /// The review of game `id` (or, without one, of the finished game whose thread `channel` is,
    /// or else `who`'s latest finished game). Refused for a game still going.
    pub async fn review(
        &self,
        who: &Person,
        id: Option<i64>,
        channel: Option<&str>,
    ) -> Result<GameReview, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let id = match id {
            Some(id) => id,
            None => self.latest_finished(&mut conn, who, channel).await?,
        };
        let loaded = self.load(&mut conn, id).await?;
        let view = Box::new(loaded.view());
        if view.outcome.is_none() && !view.aborted {
            return Err(ServiceError::ReviewOfLiveGame(id));
        }
        drop(conn);
        // The turns of a record the game was continued from were not its players': not reviewed.
        let first = loaded.imported_turns();
        // One review of a game is made at a time here: whoever asks while it is being made
        // waits for it and is given what it stored, and no engine time is spent twice. (A
        // stored review is read under the same hold, which nobody else holds then.)
        let _reviewing = self.thinking.review_of(id).await;
        let judge = judge(loaded.game.variant());
        let stored = self.stored_review(id, first, &judge).await?;
        if let Some(review) = stored.review {
            return Ok(GameReview {
                game: view,
                review,
                fresh: false,
            });
        }
        if stored.damaged {
            tracing::warn!(game = id, "a stored review could not be read, was made the old way, or did not leave out a continued game's record: made again");
        }
        let turns = loaded.game.turns().len() - first;
        if turns > MOST_TURNS {
            return Err(ServiceError::ReviewTooLong { id, turns });
        }
        let budget = budget_for(turns);
        let admitted =
            self.thinking
                .admit(&who.key, self.scope.guild(), self.now(), Work::Review)?;
        let game = loaded.game.clone();
        let made = self
            .thinking
            .admitted(&admitted, move || {
                review(&game, first, &Curve::of(game.variant()), budget)
            })
            .await?;
        admitted.pause(self.now());
        sqlx::query(
            "INSERT INTO reviews (game_id, body, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (game_id) DO UPDATE SET body = excluded.body",
        )
        .bind(id)
        .bind(to_json(&made, budget, &judge).to_string())
        .bind(self.now())
        .execute(&self.pool)
        .await?;
        Ok(GameReview {
            game: view,
            review: made,
            fresh: true,
        })
    }

    /// The review stored for game `id`, if it reads and leaves out the `first` turns that were
    /// continued from a record (a review stored before those were left out is made again).
    async fn stored_review(
        &self,
        id: i64,
        first: usize,
        judge: &str,
    ) -> Result<Stored, ServiceError> {
        let body: Option<String> =
            sqlx::query_scalar("SELECT body FROM reviews WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        let review = body
            .as_deref()
            .and_then(|b| from_json(b, judge))
            .filter(|r| r.first == first);
        Ok(Stored {
            damaged: body.is_some() && review.is_none(),
            review,
        })
    }

    /// The chart of a review: the defenders' chance over the game, the marked turns as dots.
    /// Drawn on the blocking pool, in the theme of `viewer`.
    pub async fn review_chart(
        &self,
        viewer: &Person,
        r: &GameReview,
    ) -> Result<Option<Vec<u8>>, ServiceError> {
        let title = format!(
            "Game #{}: the winning chance of {}",
            r.game.id,
            super::text::charted_side(r.game.variant)
        );
        let chances = r.review.defenders_chances();
        let marked: Vec<(usize, u8)> = r
            .review
            .turns
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((i + 1, t.mark? as u8)))
            .collect();
        let first = r.review.first;
        let theme = self.theme_for(viewer).await?;
        self.cpu(move |_| review_chart(&title, first, &chances, &marked, theme))
            .await
    }

    /// The finished game played in thread `channel`, or else `who`'s latest finished game, of
    /// the games this scope sees: the game a review or a rematch means when none is named.
    pub async fn finished_game(
        &self,
        who: &Person,
        channel: Option<&str>,
    ) -> Result<i64, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        self.latest_finished(&mut conn, who, channel).await
    }

    async fn latest_finished(
        &self,
        conn: &mut sqlx::AnyConnection,
        who: &Person,
        channel: Option<&str>,
    ) -> Result<i64, ServiceError> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT g.id FROM games g
             JOIN players pa ON pa.id = g.attacker JOIN players pd ON pd.id = g.defender
             WHERE g.status = 'finished'
               AND ((g.thread IS NOT NULL AND g.thread = $2) OR pa.key = $1 OR pd.key = $1)
               AND ($3 = '*' OR g.guild IS NULL OR g.guild = $3)
             ORDER BY CASE WHEN g.thread = $2 THEN 0 ELSE 1 END, g.id DESC LIMIT 1",
        )
        .bind(&who.key)
        .bind(channel.unwrap_or(""))
        .bind(self.scope.guild_param())
        .fetch_optional(&mut *conn)
        .await?;
        found.ok_or(ServiceError::NothingToReview)
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// What a variant's reviews are judged by: the taught row's weights (with the networks its
/// family's variants add) and the variant's curve, as a fingerprint stored with each review. A
/// review judged by other weights or another curve (a new taught set, a curve fitted again) is
/// made again, with no version to bump by hand.
fn judge(variant: &Variant) -> String {
    let family = variant.family;
    let curve = Curve::of(variant);
    let shape = [
        curve.slope,
        curve.intercept[Side::Attackers],
        curve.intercept[Side::Defenders],
    ];
    let curve = fnv(shape.iter().flat_map(|x| x.to_bits().to_le_bytes()));
    // The learned networks of the family's boards, small and wide (none gives nothing, so a
    // review stored before the wide networks is still the same judge's).
    let learned = |v: &'static Variant| {
        net::of(Eval::Taught, v).map_or(0, |n| n.fingerprint())
            ^ wide::of(Eval::Taught, v).map_or(0, |w| w.fingerprint())
    };
    let nets = Variant::all()
        .iter()
        .filter(|v| v.family == family)
        .map(learned)
        .fold(0, |hash, n| hash ^ n);
    let weights = Eval::Taught.weights(family).fingerprint() ^ nets;
    format!("{weights:016x}{curve:016x}")
}

/// The way reviews are made now, stored with each: one made another way is made again (a change
/// of weights or curve alone is caught by [`judge`]). 4: each position searched once, a turn's
/// chances those of the positions before and after it, a curve per variant; 3: as 2,
/// by the taught set whose Copenhagen row had a fifth round (and its curve); 2: each turn
/// weighed against the best in the same search, by the taught weights; 1: the positions before
/// and after each turn searched apart, by the classic weights.
const VERSION: i64 = 4;

/// A review as stored, made on `budget` nodes a position and judged by `judge`.
fn to_json(r: &Review, budget: u64, judge: &str) -> Value {
    let turns: Vec<Value> = r
        .turns
        .iter()
        .map(|t| {
            json!({
                "side": side_name(t.side),
                "played": t.played,
                "before": t.before,
                "after": t.after,
                "forced": t.forced,
                "mark": t.mark.map(Mark::name),
                "better": t.better,
            })
        })
        .collect();
    json!({
        "version": VERSION,
        "judge": judge,
        "budget": budget,
        "first": r.first,
        "start": r.start,
        "turns": turns,
    })
}

/// A stored review read back; `None` for one this taflbot cannot read, made another way or not
/// judged by `judge` (made again then).
fn from_json(text: &str, judge: &str) -> Option<Review> {
    let v: Value = serde_json::from_str(text).ok()?;
    if v["version"].as_i64() != Some(VERSION) || v["judge"].as_str() != Some(judge) {
        return None;
    }
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    let turns = v["turns"]
        .as_array()?
        .iter()
        .map(|t| {
            Some(ReviewedTurn {
                side: match t["side"].as_str()? {
                    "attackers" => Side::Attackers,
                    "defenders" => Side::Defenders,
                    _ => return None,
                },
                played: strings(&t["played"])?,
                before: t["before"].as_f64()?,
                after: t["after"].as_f64()?,
                forced: t["forced"].as_bool()?,
                mark: match &t["mark"] {
                    Value::Null => None,
                    m => Some(Mark::parse(m.as_str()?)?),
                },
                better: match &t["better"] {
                    Value::Null => None,
                    b => Some(strings(b)?),
                },
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let first = match &v["first"] {
        // Stored before continued games' records were left out: every turn was reviewed.
        Value::Null => 0,
        f => usize::try_from(f.as_u64()?).ok()?,
    };
    Some(Review {
        first,
        turns,
        start: v["start"].as_f64()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Family;

    #[test]
    fn a_review_reads_back_as_it_was_stored_and_a_damaged_one_is_refused() {
        let r = Review {
            first: 2,
            start: 0.55,
            turns: vec![
                ReviewedTurn {
                    side: Side::Attackers,
                    played: vec!["d1-d3".into()],
                    before: 0.45,
                    after: 0.2,
                    forced: false,
                    mark: Some(Mark::Blunder),
                    better: Some(vec!["a4-c4".into()]),
                },
                ReviewedTurn {
                    side: Side::Defenders,
                    played: vec!["e5-e2".into()],
                    before: 0.8,
                    after: 0.8,
                    forced: true,
                    mark: None,
                    better: None,
                },
            ],
        };
        let judge = judge(Variant::by_id("copenhagen").unwrap());
        let text = to_json(&r, 100_000, &judge).to_string();
        assert_eq!(from_json(&text, &judge), Some(r));
        assert_eq!(from_json(&text.replace("blunder", "howler"), &judge), None);
        assert_eq!(
            from_json(&format!("{{\"version\": {VERSION}}}"), &judge),
            None
        );
        // A whole review made an older way is made again.
        let now = format!("\"version\":{VERSION}");
        for older in 1..VERSION {
            let old = text.replace(&now, &format!("\"version\":{older}"));
            assert_ne!(old, text);
            assert_eq!(from_json(&old, &judge), None);
        }
        assert_eq!(from_json("not json", &judge), None);
        // One judged by other weights or another curve is made again too.
        let tyr = super::judge(Variant::by_id("tyr-11").unwrap());
        assert_ne!(
            tyr, judge,
            "Copenhagen's taught row and curve are not TYR's"
        );
        assert_eq!(from_json(&text, &tyr), None);
        let unjudged = text.replace(&format!("\"judge\":\"{judge}\","), "");
        assert_ne!(unjudged, text);
        assert_eq!(from_json(&unjudged, &judge), None);
    }

    #[test]
    fn a_fingerprint_tells_rows_apart_and_is_the_same_on_every_build() {
        // FNV-1a's published check values.
        assert_eq!(fnv(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(*b"a"), 0xaf63_dc4c_8601_ec8c);
        let row = Eval::Taught.weights(Family::Copenhagen);
        let mut other = row.clone();
        other.values[0] += 1;
        assert_ne!(row.fingerprint(), other.fingerprint());
        assert_eq!(row.fingerprint(), row.clone().fingerprint());
        // Copenhagen's taught set adds a network, and its reviews' judge takes that in too.
        assert!(net::of(Eval::Taught, Variant::by_id("copenhagen").unwrap()).is_some());
        let row_alone = format!("{:016x}", row.fingerprint());
        assert_ne!(
            judge(Variant::by_id("copenhagen").unwrap())[..16],
            row_alone
        );
        let tyr = Eval::Taught.weights(Family::Tyr).fingerprint();
        assert_eq!(
            judge(Variant::by_id("tyr-11").unwrap())[..16],
            format!("{tyr:016x}")
        );
    }
}

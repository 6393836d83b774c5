//! Ratings: Glicko-2 as the `skillratings` crate computes it, with lichess's settings (a new
//! player at 1500 with deviation 500 and volatility 0.09, tau 0.75, provisional while the
//! deviation is 110 or more, the deviation growing with time away), and a side advantage per
//! variant: tafl is not symmetric, so the side that wins more often is expected to.
//!
//! Pure arithmetic: the service reads and writes the numbers (`service/ratings.rs`).

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::rules::{Side, Variant};

/// Lichess's start: rating, deviation, volatility.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 500.0,
    volatility: 0.09,
};
/// Lichess's tau: how much the volatility may change.
pub const TAU: f64 = 0.75;
/// A rating is provisional while its deviation is at least this.
pub const PROVISIONAL: f64 = 110.0;
/// Bounds lichess keeps the numbers within.
pub const MIN_DEVIATION: f64 = 45.0;
pub const MAX_DEVIATION: f64 = 500.0;
pub const MAX_VOLATILITY: f64 = 0.1;
/// Rating periods per day of absence (lichess's figure): the deviation grows by the volatility
/// for each period, as Glicko-2's step for a period without games does.
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// The side advantage is estimated as if this many games had been played besides the real ones,
/// scored at the variant's prior share ([`prior_share`]), so a handful of games does not swing it.
pub const PRIOR_GAMES: f64 = 40.0;
/// The largest side advantage, in rating points.
pub const MAX_ADVANTAGE: f64 = 200.0;

/// One player's rating in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        START
    }
}

impl Rating {
    /// Whether the rating is still provisional (shown with a question mark).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL
    }

    /// The rating after `seconds` without a rated game: the deviation grows.
    pub fn after(&self, seconds: i64) -> Rating {
        let periods = seconds.max(0) as f64 / 86_400.0 * PERIODS_PER_DAY;
        // Glicko-2's step for periods without games, on its own scale (phi² + sigma² per period).
        let phi = self.deviation / GLICKO2_SCALE;
        let grown = (phi * phi + self.volatility * self.volatility * periods).sqrt();
        Rating {
            deviation: (grown * GLICKO2_SCALE).clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..*self
        }
    }

    fn glicko(&self, shift: f64) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating + shift,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating, shift: f64) -> Rating {
        Rating {
            rating: g.rating - shift,
            deviation: g.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: g.volatility.min(MAX_VOLATILITY),
        }
    }
}

/// The distinct players a rating must have beaten to climb past [`CEILING_MARGIN`] above the
/// weakest of them: see [`ceiling`].
pub const CEILING_WINS: usize = 3;
/// How far above the players it has beaten a rating may climb: see [`ceiling`]. It is the most an
/// honest first win between two fresh players brings (about 240), so that such a game rates as
/// Glicko-2 says.
pub const CEILING_MARGIN: f64 = 250.0;

/// The highest a rating may climb by a gain, given the ratings of the players it has beaten (each
/// distinct player once, at the best rating they had when beaten): [`CEILING_MARGIN`] above the
/// [`CEILING_WINS`]-th best of them, or above [`START`] where that is higher (a missing one
/// counts as [`START`]). A ring of accounts cannot lift one of its own above the players the ring
/// has beaten: accounts fed wins by others stay within the margin of the feeders, and the one
/// they feed within the margin of them. A loss is never held back by it.
pub fn ceiling(beaten: &[f64]) -> f64 {
    let mut best: Vec<f64> = beaten.to_vec();
    best.sort_by(|a, b| b.total_cmp(a));
    let third = best.get(CEILING_WINS - 1).copied().unwrap_or(START.rating);
    third.max(START.rating) + CEILING_MARGIN
}

/// Glicko-2's scale factor between its own scale and rating points.
const GLICKO2_SCALE: f64 = 173.7178;

/// The crate's settings with lichess's tau.
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// Rates one game: the attackers' and the defenders' ratings (each already grown for its time
/// away), the winner (`None`: a draw), and the defenders' advantage in rating points (negative
/// when the attackers' side is the stronger). The defenders play as if their rating were
/// `advantage` higher, so a win the side was expected to bring counts for less; the advantage is
/// taken off again afterwards. Returns the new ratings, attackers first.
pub fn rate(
    attackers: Rating,
    defenders: Rating,
    winner: Option<Side>,
    advantage: f64,
) -> (Rating, Rating) {
    let outcome = match winner {
        Some(Side::Attackers) => Outcomes::WIN,
        Some(Side::Defenders) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (a, d) = glicko2(
        &attackers.glicko(0.0),
        &defenders.glicko(advantage),
        &outcome,
        &config(),
    );
    (
        Rating::from_glicko(a, 0.0),
        Rating::from_glicko(d, advantage),
    )
}

/// Rates one contest between two ratings where one side won (a puzzle tried: the player against
/// the puzzle). Returns the new ratings, `a` first.
pub fn duel(a: Rating, b: Rating, a_won: bool) -> (Rating, Rating) {
    let outcome = if a_won { Outcomes::WIN } else { Outcomes::LOSS };
    let (a, b) = glicko2(&a.glicko(0.0), &b.glicko(0.0), &outcome, &config());
    (Rating::from_glicko(a, 0.0), Rating::from_glicko(b, 0.0))
}

/// The defenders' share of the points in a variant before any game here, where a large record of
/// play elsewhere shows it: Copenhagen 56 % (1,721 finished games from aagenielsen.dk: 960 won by
/// the defenders, 7 drawn, 754 lost) and Brandubh 60 % (518 games: 308 won, 2 drawn, 208 lost).
/// Other variants start even.
pub fn prior_share(variant: &Variant) -> f64 {
    match variant.id {
        "copenhagen" => 0.56,
        "brandubh" => 0.60,
        _ => 0.5,
    }
}

/// The defenders' advantage in rating points, from the points they scored (a win 1, a draw ½)
/// in `games` games: the rating difference that would make that score expected, as Glicko-2
/// (and Elo) expect scores, with [`PRIOR_GAMES`] games at the `prior` share added and at most
/// [`MAX_ADVANTAGE`] either way.
pub fn advantage(defender_points: f64, games: u64, prior: f64) -> f64 {
    let share = (defender_points + PRIOR_GAMES * prior) / (games as f64 + PRIOR_GAMES);
    let share = share.clamp(1e-6, 1.0 - 1e-6);
    (400.0 * (share / (1.0 - share)).log10()).clamp(-MAX_ADVANTAGE, MAX_ADVANTAGE)
}

/// A rating as players read it: rounded, with `?` while provisional.
pub fn shown(r: &Rating) -> String {
    format!(
        "{}{}",
        r.rating.round() as i64,
        if r.provisional() { "?" } else { "" }
    )
}

/// A change as players read it: `+12`, `-7`, `±0`.
pub fn change(before: f64, after: f64) -> String {
    let d = after.round() as i64 - before.round() as i64;
    match d {
        0 => "±0".to_string(),
        d if d > 0 => format!("+{d}"),
        d => d.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_climbs_past_the_margin_only_on_wins_over_three_players() {
        // Nobody beaten, or one strong player beaten: 250 above the start.
        assert_eq!(ceiling(&[]), 1750.0);
        assert_eq!(ceiling(&[2100.0]), 1750.0);
        assert_eq!(ceiling(&[2100.0, 1900.0]), 1750.0);
        // Three beaten: 250 above the third best, whatever the order.
        assert_eq!(ceiling(&[1800.0, 2100.0, 1900.0, 1600.0]), 2050.0);
        // Weak players beaten never bring the ceiling below the start's.
        assert_eq!(ceiling(&[1200.0, 1100.0, 1000.0]), 1750.0);
    }

    #[test]
    fn the_advantage_starts_from_its_prior_and_is_bounded() {
        assert_eq!(advantage(0.0, 0, 0.5), 0.0);
        // Even scores make no advantage from an even prior, whatever their number.
        assert!(advantage(50.0, 100, 0.5).abs() < 1e-9);
        // 56 % for the defenders: about 42 points, before any game or over many.
        let before = advantage(0.0, 0, 0.56);
        assert!((before - 41.9).abs() < 1.0, "{before}");
        let a = advantage(5_600.0, 10_000, 0.5);
        assert!((a - 41.9).abs() < 1.0, "{a}");
        // The prior keeps a short run from counting for much.
        assert!(advantage(3.0, 3, 0.5) < 60.0);
        assert!((advantage(0.0, 3, 0.56) - before).abs() < 30.0);
        assert_eq!(advantage(1e9, 1_000_000_000, 0.5), MAX_ADVANTAGE);
        assert_eq!(advantage(0.0, 1_000_000_000, 0.5), -MAX_ADVANTAGE);
    }

    #[test]
    fn priors_come_from_the_corpora_where_there_are_some() {
        let share = |id: &str| prior_share(Variant::by_id(id).unwrap());
        assert_eq!(share("copenhagen"), 0.56);
        assert_eq!(share("brandubh"), 0.60);
        assert_eq!(share("tablut"), 0.5);
    }

    #[test]
    fn deviation_grows_with_time_away_up_to_its_bound() {
        let r = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        assert!((r.after(0).deviation - 60.0).abs() < 1e-9);
        let year = r.after(365 * 86_400);
        assert!(year.deviation > 100.0 && year.deviation < 200.0, "{year:?}");
        assert_eq!(year.rating, 1800.0);
        assert_eq!(START.after(365 * 86_400).deviation, MAX_DEVIATION);
    }

    #[test]
    fn shown_marks_provisional_ratings() {
        assert_eq!(shown(&START), "1500?");
        let settled = Rating {
            deviation: 80.0,
            ..START
        };
        assert_eq!(shown(&settled), "1500");
        assert_eq!(change(1500.2, 1512.4), "+12");
        assert_eq!(change(1500.0, 1493.0), "-7");
        assert_eq!(change(1500.0, 1500.3), "±0");
    }
}

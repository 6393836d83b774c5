//! Sparring: two players meet in pairs of games with the sides swapped, from the start or from
//! varied openings, and the score is counted. Pure, and deterministic for given seeds.

use super::{steps, take, think, Eval, Settings, Step};
use crate::rules::random::Rng;
use crate::rules::{Game, Side, Variant};

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Uniformly random steps.
    Random,
    /// The biggest capture, else a random step.
    Greedy,
    /// The engine at a level, 1 to 5.
    Level(u8),
    /// The engine at a level, judging by a set of weights of its choice.
    LevelWith(u8, Eval),
    /// The engine with settings of its own.
    Engine(Settings),
}

impl Player {
    /// Chooses a whole turn and plays it.
    pub fn play_turn(&self, game: &mut Game, rng: &mut Rng) {
        let side = game.position().turn();
        match self {
            Player::Level(level) => {
                let settings = Settings::level(*level, rng.next_u64());
                self.engine_turn(game, &settings);
            }
            Player::LevelWith(level, eval) => {
                let settings = Settings {
                    eval: *eval,
                    ..Settings::level(*level, rng.next_u64())
                };
                self.engine_turn(game, &settings);
            }
            Player::Engine(settings) => self.engine_turn(game, settings),
            Player::Random | Player::Greedy => {
                while game.outcome().is_none() && game.position().turn() == side {
                    let options = steps(game);
                    let step = if *self == Player::Greedy {
                        greedy(game, &options, rng)
                    } else {
                        options[rng.below(options.len())]
                    };
                    take(game, step).expect("a listed step is legal");
                    if game.turns().last().is_some_and(|t| t.complete) {
                        break;
                    }
                }
            }
        }
    }

    fn engine_turn(&self, game: &mut Game, settings: &Settings) {
        let thought = think(game, settings).expect("the game is in play");
        for step in thought.turn {
            take(game, step).expect("the engine chose a legal step");
        }
    }
}

/// The step capturing most, ties and no capture broken at random.
fn greedy(game: &Game, options: &[Step], rng: &mut Rng) -> Step {
    let pos = game.position();
    let size = |s: &Step| match s {
        Step::Move(m) => pos.captures_of(*m).len(),
        Step::EndTurn => 0,
    };
    let most = options.iter().map(size).max().unwrap_or(0);
    let best: Vec<Step> = options
        .iter()
        .copied()
        .filter(|s| size(s) == most)
        .collect();
    best[rng.below(best.len())]
}

/// How one game ended, for the first-named player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Win,
    Draw,
    /// Not finished within the turns allowed: counted as a draw. `ahead`: the side that was far
    /// ahead then (by [`FAR_AHEAD`] or more in the evaluation), true for the first-named player:
    /// a win not converted rather than a real draw.
    Unfinished {
        ahead: Option<bool>,
    },
    Loss,
}

/// How far ahead in the evaluation (hundredths of a man) a side must be at the turn limit for an
/// unfinished game to count as a win it did not convert.
pub const FAR_AHEAD: i32 = 400;

/// The tally of a match, for the first-named player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Wins as attackers (or Red), counted among `wins`.
    pub wins_attacking: u32,
    /// Losses as attackers (or Red), counted among `losses`: with the wins, which side of the
    /// board a change of weights helps.
    pub losses_attacking: u32,
    /// Games unfinished within the turns allowed, counted among `draws`.
    pub unfinished: u32,
    /// Unfinished games where the first-named player, or the second, was far ahead: wins not
    /// converted, counted among `unfinished`.
    pub unconverted: [u32; 2],
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, a draw counting half: 0.0 to 1.0.
    pub fn score(&self) -> f64 {
        let games = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / games
    }

    /// Adds another tally's games to this one.
    pub fn merge(&mut self, other: &Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.wins_attacking += other.wins_attacking;
        self.losses_attacking += other.losses_attacking;
        self.unfinished += other.unfinished;
        self.unconverted[0] += other.unconverted[0];
        self.unconverted[1] += other.unconverted[1];
    }

    fn add(&mut self, result: Result, side: Side) {
        match result {
            Result::Win => {
                self.wins += 1;
                if side == Side::Attackers {
                    self.wins_attacking += 1;
                }
            }
            Result::Draw => self.draws += 1,
            Result::Unfinished { ahead } => {
                self.draws += 1;
                self.unfinished += 1;
                if let Some(first) = ahead {
                    self.unconverted[usize::from(!first)] += 1;
                }
            }
            Result::Loss => {
                self.losses += 1;
                if side == Side::Attackers {
                    self.losses_attacking += 1;
                }
            }
        }
    }
}

/// One game: `a` plays `a_side`, `b` the other, after the opening steps; unfinished after
/// `max_turns` turns it counts as a draw.
pub fn game(
    variant: &'static Variant,
    a: Player,
    b: Player,
    a_side: Side,
    opening: &[Step],
    max_turns: usize,
    seed: u64,
) -> Result {
    let mut game = Game::new(variant);
    for &step in opening {
        take(&mut game, step).expect("an opening of legal steps");
    }
    let mut rng = Rng::new(seed);
    for _ in 0..max_turns {
        if game.outcome().is_some() {
            break;
        }
        let player = if game.position().turn() == a_side {
            a
        } else {
            b
        };
        player.play_turn(&mut game, &mut rng);
    }
    match game.outcome().map(|o| o.winner) {
        Some(Some(w)) if w == a_side => Result::Win,
        Some(Some(_)) => Result::Loss,
        Some(None) => Result::Draw,
        None => {
            let pos = game.position();
            // Judged by the classic weights, the same for every match.
            let score = super::eval::Board::with(variant, Eval::Classic).evaluate(pos);
            let ahead = (score.abs() >= FAR_AHEAD).then(|| (score > 0) == (pos.turn() == a_side));
            Result::Unfinished { ahead }
        }
    }
}

/// An opening of `turns` random whole turns, drawn from `seed` (none when 0).
pub fn opening(variant: &'static Variant, turns: usize, seed: u64) -> Vec<Step> {
    opening_from(&Game::new(variant), turns, seed)
}

/// An opening of `turns` random whole turns from `start`, drawn from `seed`: shorter where the
/// random turns would end the game.
pub fn opening_from(start: &Game, turns: usize, seed: u64) -> Vec<Step> {
    let mut game = start.clone();
    let mut rng = Rng::new(seed);
    let mut played = Vec::new();
    for _ in 0..turns {
        let side = game.position().turn();
        while game.outcome().is_none() && game.position().turn() == side {
            let options = steps(&game);
            let step = options[rng.below(options.len())];
            take(&mut game, step).expect("a listed step is legal");
            played.push(step);
            if game.turns().last().is_some_and(|t| t.complete) {
                break;
            }
        }
    }
    if game.outcome().is_some() {
        // An opening must leave a game to play: shorter then.
        return opening_from(start, turns.saturating_sub(1), seed.wrapping_add(1));
    }
    played
}

/// `pairs` pairs of games, each pair from one opening with the sides swapped: the first pair from
/// the start, the others after two random turns.
pub fn run(
    variant: &'static Variant,
    a: Player,
    b: Player,
    pairs: u32,
    max_turns: usize,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    for pair in 0..pairs {
        tally.merge(&run_pair(variant, a, b, pair, max_turns, seed));
    }
    tally
}

/// The pair numbered `pair` (from 0) of a match: two games from one opening, the sides swapped.
/// Each pair depends only on its number and the match's seed, so pairs may be played in any
/// order, or at once on several threads, and add up to the same tally.
pub fn run_pair(
    variant: &'static Variant,
    a: Player,
    b: Player,
    pair: u32,
    max_turns: usize,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    let pair_seed = seed ^ (u64::from(pair) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let start = if pair == 0 {
        Vec::new()
    } else {
        opening(variant, 2, pair_seed)
    };
    for side in Side::BOTH {
        let result = game(
            variant,
            a,
            b,
            side,
            &start,
            max_turns,
            pair_seed ^ side.index() as u64,
        );
        tally.add(result, side);
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game stopped at the turn limit with one side far ahead is told apart from a real draw,
    /// for the side that was ahead.
    #[test]
    fn unfinished_games_with_a_side_far_ahead_are_counted_apart() {
        // Copenhagen: a lone king against many attackers, the attackers to move; random players
        // for one turn each cannot end it.
        let copenhagen = Variant::by_id("copenhagen").unwrap();
        let position = "2t2t2t2/3t5t1/t1t7t/1t9/3t7/8t1t/6t4/2t1t6/t6K1t1/1t6t2/2t5t2 a";
        let start = crate::rules::parse_position(copenhagen, position).unwrap();
        let score = super::super::eval::Board::of(copenhagen).evaluate(&start);
        assert!(score >= FAR_AHEAD, "{score}");
        let mut tally = Tally::default();
        tally.add(Result::Unfinished { ahead: Some(true) }, Side::Attackers);
        tally.add(Result::Unfinished { ahead: Some(false) }, Side::Defenders);
        tally.add(Result::Unfinished { ahead: None }, Side::Defenders);
        assert_eq!((tally.draws, tally.unfinished), (3, 3));
        assert_eq!(tally.unconverted, [1, 1]);
        let mut sum = Tally::default();
        sum.merge(&tally);
        sum.merge(&tally);
        assert_eq!(sum.unconverted, [2, 2]);
    }

    /// Wins and losses are each counted by the side the first-named player had.
    #[test]
    fn wins_and_losses_are_counted_by_side() {
        let mut tally = Tally::default();
        tally.add(Result::Win, Side::Attackers);
        tally.add(Result::Win, Side::Defenders);
        tally.add(Result::Loss, Side::Attackers);
        tally.add(Result::Loss, Side::Attackers);
        tally.add(Result::Loss, Side::Defenders);
        assert_eq!((tally.wins, tally.wins_attacking), (2, 1));
        assert_eq!((tally.losses, tally.losses_attacking), (3, 2));
        let mut sum = tally;
        sum.merge(&tally);
        assert_eq!((sum.losses, sum.losses_attacking), (6, 4));
    }
}

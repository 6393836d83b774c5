//! Puzzles cut from real games: a position where the side to move (the solver) wins by force in
//! one or two of its own moves, by one first move only.
//!
//! A game is looked at near its end, where its winner was to move: the final position (a game
//! that ended by resignation), then one and two of the winner's turns before it. The forced win
//! is proved by an exact search over every reply, not trusted to the engine's estimate; the
//! engine only checks that the best other first move is far behind (its winning chance more than
//! [`SECOND_BEST_GAP`] lower), as lichess asks. Only variants whose turns are a single move are
//! cut (berserk chains and Save the Standard's two slots are not).

use crate::rules::{Game, Move, Reason, Side};

use super::review::{Curve, CURVE};
use super::{scored_steps, Eval, Limits, Step};

/// How a solver's move in a puzzle went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// The solution's move (or another that wins at once, which solves it too) and more to
    /// find: the opponent answers with `reply`.
    Right { reply: Move },
    /// The last move to find, or a move that wins at once.
    Solved,
    /// Not the solution's move: the try is over.
    Failed,
}

/// Judges `played`, the solver's move number `step` (from 0) of a puzzle whose `solution` has
/// the solver's moves at even places and the opponent's replies between them; `after` is the
/// game once `played` is on the board, and `solver` the side solving.
pub fn judge(after: &Game, solver: Side, solution: &[Move], step: usize, played: Move) -> Judged {
    let wins_now = after.outcome().is_some_and(|o| o.winner == Some(solver));
    if wins_now {
        return Judged::Solved;
    }
    if solution.get(2 * step) != Some(&played) {
        return Judged::Failed;
    }
    match solution.get(2 * step + 1) {
        Some(&reply) => Judged::Right { reply },
        None => Judged::Solved,
    }
}

/// The most solver moves a puzzle asks for.
pub const MAX_SOLVER_MOVES: u32 = 2;
/// How far behind the solution the best other first move must be, in the solver's winning
/// chance.
pub const SECOND_BEST_GAP: f64 = 0.7;
/// How far the engine searches to score the other first moves and to choose the reply.
const LIMITS: Limits = Limits::nodes(20_000);

/// What a puzzle is about: how its solution wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    KingEscape,
    KingCapture,
    Encirclement,
    Material,
}

impl Theme {
    pub const ALL: [Theme; 4] = [
        Theme::KingEscape,
        Theme::KingCapture,
        Theme::Encirclement,
        Theme::Material,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theme::KingEscape => "king escape",
            Theme::KingCapture => "king capture",
            Theme::Encirclement => "encirclement",
            Theme::Material => "material",
        }
    }

    fn of(reason: Reason) -> Theme {
        match reason {
            Reason::KingEscaped | Reason::ExitFort | Reason::StandardSaved => Theme::KingEscape,
            Reason::KingCaptured | Reason::StandardCaptured => Theme::KingCapture,
            Reason::Encircled => Theme::Encirclement,
            _ => Theme::Material,
        }
    }
}

/// A puzzle: the game at its position (a game begun there, without the history before), the
/// solution's moves (solver, reply, solver, ...), and its theme.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub game: Game,
    pub solution: Vec<Move>,
    pub theme: Theme,
}

impl Puzzle {
    /// The solution in canonical text, each move as written in the position it is played in.
    pub fn written(&self) -> Vec<String> {
        super::written(
            &self.game,
            &self
                .solution
                .iter()
                .map(|&m| Step::Move(m))
                .collect::<Vec<_>>(),
        )
    }
}

/// `game` after `m`, when `m` is a whole turn (the other side to move, or the game over).
fn after(game: &Game, m: Move) -> Option<Game> {
    let side = game.position().turn();
    let mut g = game.clone();
    g.play(m).ok()?;
    (g.outcome().is_some() || g.position().turn() != side).then_some(g)
}

/// Whether the side to move wins by force within `moves` of its own moves, against every reply.
/// Positions where a turn is more than one move are never a forced win here.
pub fn wins_within(game: &Game, moves: u32) -> bool {
    winning_moves(game, moves).next().is_some()
}

/// The first moves that win by force within `moves` of the mover's moves, found as they are
/// asked for.
fn winning_moves(game: &Game, moves: u32) -> impl Iterator<Item = Move> + '_ {
    let side = game.position().turn();
    let mut next: Vec<(Move, Game)> = if moves == 0 || game.outcome().is_some() {
        Vec::new()
    } else {
        game.legal_moves()
            .into_iter()
            .filter_map(|m| Some((m, after(game, m)?)))
            .collect()
    };
    // The moves that end the game first: they answer most positions at once.
    next.sort_by_key(|(_, g)| g.outcome().is_none());
    next.into_iter().filter_map(move |(m, g)| {
        let wins = match g.outcome() {
            Some(o) => o.winner == Some(side),
            None if moves > 1 => {
                let replies = g.legal_moves();
                !replies.is_empty()
                    && replies.into_iter().all(|r| {
                        after(&g, r).is_some_and(|h| match h.outcome() {
                            Some(_) => false,
                            None => wins_within(&h, moves - 1),
                        })
                    })
            }
            None => false,
        };
        wins.then_some(m)
    })
}

/// The engine's best reply in `g`: the solution's line (the solver wins after every reply, so
/// after this one too).
fn best_reply(g: &Game) -> Option<Move> {
    scored_steps(g, LIMITS, Eval::Classic)
        .into_iter()
        .find_map(|(s, _)| match s {
            Step::Move(m) => Some(m),
            Step::EndTurn => None,
        })
}

/// A puzzle at this position, if it is one: a forced win in `moves` solver moves or fewer (the
/// shortest found), by one first move only, with every other first move far behind.
pub fn at(game: &Game, curve: &Curve) -> Option<Puzzle> {
    let side = game.position().turn();
    let length = (1..=MAX_SOLVER_MOVES).find(|&n| wins_within(game, n))?;
    let winners: Vec<Move> = winning_moves(game, length).take(2).collect();
    let [first] = winners[..] else {
        return None;
    };
    // No other first move wins at once, nor in as many moves: checked above. The engine's best
    // other first move must also be far behind.
    let second = scored_steps(game, LIMITS, Eval::Classic)
        .iter()
        .filter(|(s, _)| *s != Step::Move(first))
        .map(|&(_, score)| curve.chance(side, score))
        .fold(0.0f64, f64::max);
    if 1.0 - second <= SECOND_BEST_GAP {
        return None;
    }
    let mut solution = vec![first];
    let mut g = after(game, first)?;
    for left in (1..length).rev() {
        let reply = best_reply(&g)?;
        g = after(&g, reply)?;
        let answer = winning_moves(&g, left).next()?;
        solution.push(reply);
        solution.push(answer);
        g = after(&g, answer)?;
    }
    let outcome = g.outcome()?;
    (outcome.winner == Some(side)).then(|| Puzzle {
        game: game.clone(),
        solution,
        theme: Theme::of(outcome.reason),
    })
}

/// Why a puzzle read from elsewhere (an imported file, a stored row) is not sound.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsound {
    #[error("the game is over at the puzzle's position")]
    Over,
    #[error("a turn there is more than one move")]
    LongTurns,
    #[error("its solution has {0} moves: a puzzle has an odd number, at most {max}", max = 2 * MAX_SOLVER_MOVES - 1)]
    Length(usize),
    #[error("move {0} of the solution is not a whole legal turn")]
    Illegal(usize),
    #[error("the solution does not end in the solver's win")]
    NoWin,
    #[error("another first move wins as fast")]
    NotUnique,
    #[error("a reply escapes the forced win")]
    NotForced,
    #[error("the solver wins in fewer moves")]
    Shorter,
}

/// Checks a puzzle read from elsewhere: its solution is an odd number of whole turns, at most
/// [`MAX_SOLVER_MOVES`] of the solver's, that ends in the solver's win; the win is forced against
/// every reply; and no other first move wins as fast. Returns the theme its solution's win gives.
pub fn check(game: &Game, solution: &[Move]) -> Result<Theme, Unsound> {
    if game.outcome().is_some() {
        return Err(Unsound::Over);
    }
    let n = solution.len();
    if n.is_multiple_of(2) || n > 2 * MAX_SOLVER_MOVES as usize - 1 {
        return Err(Unsound::Length(n));
    }
    let side = game.position().turn();
    let mut g = game.clone();
    for (i, &m) in solution.iter().enumerate() {
        if g.outcome().is_some() {
            return Err(Unsound::Illegal(i + 1));
        }
        g = after(&g, m).ok_or(Unsound::Illegal(i + 1))?;
    }
    let outcome = g.outcome().filter(|o| o.winner == Some(side));
    let outcome = outcome.ok_or(Unsound::NoWin)?;
    let solver_moves = n.div_ceil(2) as u32;
    if game.legal_moves().iter().any(|&m| after(game, m).is_none()) {
        return Err(Unsound::LongTurns);
    }
    if solver_moves > 1 && wins_within(game, solver_moves - 1) {
        return Err(Unsound::Shorter);
    }
    let winners: Vec<Move> = winning_moves(game, solver_moves).collect();
    if !winners.contains(&solution[0]) {
        return Err(Unsound::NotForced);
    }
    if winners.len() > 1 {
        return Err(Unsound::NotUnique);
    }
    Ok(Theme::of(outcome.reason))
}

/// The puzzle cut from a finished game won by `winner`: the longest found among the positions
/// near its end where the winner was to move, or `None`.
pub fn cut(game: &Game, winner: Side) -> Option<Puzzle> {
    let turns = game.turns();
    if turns.iter().any(|t| t.moves.len() != 1) {
        return None;
    }
    // Each position stands alone, as a puzzle is stored and played: from its position, without
    // the game's history (which also keeps the many clones of the search cheap). Only the last
    // few are looked at.
    let first_looked_at = turns.len().saturating_sub(2 * MAX_SOLVER_MOVES as usize);
    let mut replay = Game::from_position(game.start().clone());
    let mut positions = Vec::new();
    for (i, t) in turns.iter().enumerate() {
        if i >= first_looked_at {
            positions.push(Game::from_position(replay.position().clone()));
        }
        replay.play(t.moves[0].mv).ok()?;
    }
    positions.push(Game::from_position(replay.position().clone()));
    let mut found: Option<Puzzle> = None;
    for p in positions.iter().rev() {
        if p.outcome().is_some() || p.position().turn() != winner {
            continue;
        }
        if let Some(puzzle) = at(p, &CURVE) {
            if found
                .as_ref()
                .is_none_or(|f| puzzle.solution.len() > f.solution.len())
            {
                found = Some(puzzle);
            }
        }
    }
    found
}

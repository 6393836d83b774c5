//! Importing a plain list of moves, the way aagenielsen.dk (and the Copenhagen corpus) writes a
//! game: `d1-d3 e5-e2 g1-g3 ... a8-b8xb7`. The moves come in order with no numbers; captures follow
//! as `x` and a square, repeated (a square may be named twice). The king's capture is not written.
//! A `timeout` in place of a move means the side to move ran out of time there.

use std::fmt;

use super::parse_move;
use crate::rules::{Game, Move, MoveKind, Side, Square, Variant};

/// Why a list of moves could not be imported: the move (counted from 1) and the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImportError {
    pub ply: usize,
    pub text: String,
    pub why: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}): {}",
            self.ply,
            super::quoted(&self.text),
            self.why
        )
    }
}

impl std::error::Error for ImportError {}

fn names(squares: &[Square]) -> String {
    if squares.is_empty() {
        return "nothing".to_string();
    }
    squares
        .iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The winner named by the result field of an aagenielsen.dk game list, as the Copenhagen corpus
/// writes it: `Black` (the attackers) or `White` (the defenders); a draw or an unfinished game
/// names none.
pub fn listed_winner(result: &str) -> Option<Side> {
    match result.trim() {
        "Black" => Some(Side::Attackers),
        "White" => Some(Side::Defenders),
        _ => None,
    }
}

/// A recorded game of a game list, one a line (`moves[,…,result]`, as the Copenhagen corpus
/// writes them), and its winner: by the moves when they end the game, otherwise by the result
/// field (a game that ended by resignation). `None` when the moves do not replay.
pub fn recorded_game(variant: &'static Variant, line: &str) -> Option<(Game, Option<Side>)> {
    let mut fields = line.split(',');
    let game = import_moves(variant, fields.next().unwrap_or_default()).ok()?;
    let winner = match game.outcome() {
        Some(o) => o.winner,
        None => fields.next_back().and_then(listed_winner),
    };
    Some((game, winner))
}

/// Replays a list of moves from the variant's start, checking every move and every capture the
/// list names. Move numbers (`12.`) are skipped.
pub fn import_moves(variant: &'static Variant, text: &str) -> Result<Game, ImportError> {
    let mut game = Game::new(variant);
    // A file saved by some editors begins with a byte-order mark.
    let text = text.trim_start_matches('\u{feff}');
    let words = text.split_whitespace().filter(|w| {
        !(w.ends_with('.') && w.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit()))
    });
    for (i, word) in words.enumerate() {
        let error = |why: String| ImportError {
            ply: i + 1,
            text: word.to_string(),
            why,
        };
        if word.eq_ignore_ascii_case("timeout") {
            let late = game.position().turn();
            game.lose_on_time(late).map_err(|e| error(e.to_string()))?;
            continue;
        }
        let parsed = parse_move(word).map_err(|e| error(e.to_string()))?;
        let mut written = parsed.claimed.unwrap_or_default();
        written.sort_by_key(|s| (s.file(), s.rank()));
        written.dedup();
        // The game checks the move as it plays it (one check, one copy of the board).
        let m = Move {
            from: parsed.from,
            to: parsed.to,
            kind: match parsed.corner {
                Some(corner) => MoveKind::Turn { corner },
                None if parsed.jump => MoveKind::Jump,
                None => MoveKind::Slide,
            },
        };
        let king = game.position().royal(Side::Defenders);
        let played = game.play(m).map_err(|e| error(e.to_string()))?;
        // The same squares, but for the king's, which the list does not write.
        let captures = &played.captures;
        let agree = written.iter().all(|sq| captures.contains(*sq))
            && captures
                .iter()
                .all(|sq| written.contains(&sq) || Some(sq) == king);
        if !agree {
            return Err(error(format!(
                "the list captures {} but the move captures {}",
                names(&written),
                names(&captures.sorted())
            )));
        }
    }
    Ok(game)
}

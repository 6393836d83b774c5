//! Games continued from elsewhere: a challenge may carry a game record (`[Variant "..."]` and its
//! moves) or an aagenielsen.dk move list; the game begins from the position after those moves,
//! which are stored as its first moves (the record shows them) and are never taken back.

use super::views::{MAX_IMPORT_BYTES, MAX_IMPORT_MOVES};
use super::ServiceError;
use crate::notation::{import_moves, read_record, write_move, ImportError};
use crate::rules::{Game, Side, Variant};

/// A game read for continuing: where it starts, and its steps as the moves table stores them
/// (a move in canonical text, `end` for a chain its player ended), each with its side.
pub(super) struct Continued {
    pub game: Game,
    pub steps: Vec<(Side, String)>,
}

/// Reads a record or a move list for a game of `variant`, and refuses what cannot be continued:
/// too long, not replaying, another variant's record, or a game already over. A move list is
/// measured before it is read, a record (whose turn numbers and tags are words too) once read.
pub(super) fn read(variant: &'static Variant, text: &str) -> Result<Continued, ServiceError> {
    let too_long = |moves| ServiceError::ImportTooLong {
        moves,
        max: MAX_IMPORT_MOVES,
    };
    let record = text.trim_start().starts_with('[');
    let words = text.split_whitespace().count();
    if text.len() > MAX_IMPORT_BYTES || (!record && words > MAX_IMPORT_MOVES) {
        return Err(too_long(words));
    }
    let game = if record {
        let record = read_record(text).map_err(|e| {
            ServiceError::BadImport(ImportError {
                ply: 0,
                text: "the record".into(),
                why: e.to_string(),
            })
        })?;
        if !std::ptr::eq(record.game.variant(), variant) {
            return Err(ServiceError::ContinuedVariant {
                record: record.game.variant(),
                asked: variant,
            });
        }
        record.game
    } else {
        import_moves(variant, text).map_err(ServiceError::BadImport)?
    };
    if game.move_count() > MAX_IMPORT_MOVES {
        return Err(too_long(game.move_count()));
    }
    if game.outcome().is_some() {
        return Err(ServiceError::ContinuedOver);
    }
    let steps = steps_of(&game)?;
    Ok(Continued { game, steps })
}

/// A game's steps as the moves table keeps them: replayed from its start, with `end` where a
/// player ended a chain that could have gone on.
pub(super) fn steps_of(game: &Game) -> Result<Vec<(Side, String)>, ServiceError> {
    let mut again = Game::from_position(game.start().clone());
    let mut steps = Vec::new();
    let broken = |e: crate::rules::IllegalMove| ServiceError::Internal(e.to_string());
    for turn in game.turns() {
        for p in &turn.moves {
            again.play(p.mv).map_err(broken)?;
            steps.push((turn.side, write_move(p.mv, &p.captures)));
        }
        if turn.complete && again.outcome().is_none() && again.position().turn() == turn.side {
            again.end_turn().map_err(broken)?;
            steps.push((turn.side, "end".to_string()));
        }
    }
    Ok(steps)
}

//! The rules of every variant: pure, with no I/O, no async and nothing of Discord.
//!
//! ```
//! use taflbot::rules::{Game, Variant};
//!
//! let variant = Variant::by_id("tablut").unwrap();
//! let mut game = Game::new(variant);
//! assert_eq!(game.legal_moves().len(), 80);
//! let first = game.legal_moves()[0];
//! game.play(first).unwrap();
//! assert!(game.outcome().is_none());
//! ```

mod by_side;
mod capture;
mod catalogue;
mod cell;
mod check;
mod ending;
mod error;
mod game;
mod generation;
mod moves;
mod perft;
mod piece;
mod position;
mod probe;
pub mod random;
mod setup;
mod square;
mod variant;
mod variant_id;

pub use by_side::BySide;
pub use error::{IllegalMove, SetupError};
pub use game::{Game, PlayedMove, Turn};
pub use moves::{canonical, write_move, Captures, Move, MoveKind, Outcome, Reason, Slot};
pub use perft::perft;
pub use piece::{Piece, Role, Side};
pub use position::{Placed, Position, Setup};
pub(crate) use probe::KingLines;
pub use setup::{parse_position, parse_setup, write_position};
pub(crate) use square::SquareSet;
pub use square::{fold, Dir, ParseSquareError, Square, FOLDED, FOLD_CAP, MAX_FILES, MAX_RANKS};
pub use variant::{
    Escape, Family, Jumps, KingCapture, Repetition, Rules, Terrain, Throne, Variant,
};
pub use variant_id::{closest, did_you_mean, UnknownVariant};

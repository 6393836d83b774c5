//! Why a move or a position is refused, in a player's words.

use std::fmt;

use super::moves::Slot;
use super::square::Square;

/// A move the rules refuse. `Display` gives the sentence a player reads.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    GameOver,
    OffBoard {
        at: Square,
    },
    NoPiece {
        at: Square,
    },
    /// The piece belongs to the side that is not to move.
    NotYourPiece {
        at: Square,
        turn: &'static str,
    },
    SameSquare,
    NotStraight,
    PathBlocked {
        at: Square,
    },
    Occupied {
        at: Square,
    },
    /// Cartier's throne: nobody stops on it or passes it.
    ThroneBarred {
        at: Square,
    },
    /// Only the king may stop on this square (Copenhagen's throne and corners).
    KingOnly {
        at: Square,
        square: &'static str,
    },
    Water {
        at: Square,
    },
    /// Standards and Cavalry never set foot on a bridge.
    RiverBarred {
        piece: &'static str,
    },
    /// Infantry passes over Hills and Havens but does not stop there.
    NoStopping {
        piece: &'static str,
        square: &'static str,
    },
    /// A berserk chain is open: only its piece may move on.
    ChainPiece {
        at: Square,
    },
    ContinuationMustCapture,
    WrongSlot {
        slot: Slot,
    },
    NotCavalry {
        at: Square,
        piece: String,
    },
    BadTurn,
    JumpOverKing,
    JumpOverCommander,
    JumpOverFriend,
    /// The player wrote captures that the move does not make.
    WrongCaptures {
        claimed: Vec<Square>,
        actual: Vec<Square>,
    },
    /// Cartier's rule: a move may not produce a position for the third time.
    Repetition,
    NoOpenChain,
    /// Written with `^`, but the move is no jump.
    NotAJump,
    /// A turn's text goes on after the turn passed to the other side.
    TurnOver,
    /// A Save-the-Standard turn's text stops before its attacking slot.
    TurnIncomplete,
}

fn squares(list: &[Square]) -> String {
    if list.is_empty() {
        return "nothing".to_string();
    }
    list.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        match self {
            GameOver => write!(f, "the game is over"),
            OffBoard { at } => write!(f, "{at} is not on this board"),
            NoPiece { at } => write!(f, "there is no piece on {at}"),
            NotYourPiece { at, turn } => {
                write!(f, "the piece on {at} is not yours: it is {turn}")
            }
            SameSquare => write!(f, "a move must go somewhere: the two squares are the same"),
            NotStraight => write!(f, "pieces move in a straight line along a rank or a file"),
            PathBlocked { at } => write!(f, "the path is blocked at {at}"),
            Occupied { at } => write!(f, "{at} is occupied"),
            ThroneBarred { at } => write!(f, "no piece may cross or stop on the throne ({at})"),
            KingOnly { at, square } => write!(f, "only the king may stop on the {square} ({at})"),
            Water { at } => write!(f, "{at} is water: no piece may enter the river"),
            RiverBarred { piece } => write!(f, "{piece} cannot cross the river"),
            NoStopping { piece, square } => write!(f, "{piece} may not stop on a {square}"),
            ChainPiece { at } => write!(
                f,
                "your berserk chain is open: only the piece on {at} may move on (or end your turn)"
            ),
            ContinuationMustCapture => write!(
                f,
                "a berserk continuation must capture (the king may instead run to the edge)"
            ),
            WrongSlot {
                slot: Slot::Defending,
            } => {
                write!(f, "this slot needs a piece in your own field")
            }
            WrongSlot {
                slot: Slot::Attacking,
            } => {
                write!(f, "this slot needs a piece in the enemy field")
            }
            NotCavalry { at, piece } => {
                write!(
                    f,
                    "only Cavalry may turn a corner, and the piece on {at} is {piece}"
                )
            }
            BadTurn => write!(
                f,
                "Cavalry turns with one step at right angles at the end of a straight move"
            ),
            JumpOverKing => write!(f, "a commander may not jump the king"),
            JumpOverCommander => write!(f, "a commander may not jump another commander"),
            JumpOverFriend => write!(f, "a commander may jump only an enemy piece"),
            WrongCaptures { claimed, actual } => write!(
                f,
                "that move captures {}, not {}",
                squares(actual),
                squares(claimed)
            ),
            Repetition => write!(f, "that move would repeat a position for the third time"),
            NoOpenChain => write!(f, "there is no berserk chain to end"),
            NotAJump => write!(
                f,
                "that is not a jump: ^ marks a commander's jump over one adjacent piece"
            ),
            TurnOver => write!(
                f,
                "the turn was already over: the next turn is a separate entry"
            ),
            TurnIncomplete => write!(
                f,
                "the turn is not over: the attacking slot still needs a move"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A position that cannot arise in the variant.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    Syntax(String),
    Size {
        files: usize,
        ranks: usize,
        want_files: u8,
        want_ranks: u8,
    },
    UnknownPiece(char),
    RoleNotInVariant {
        at: Square,
        piece: &'static str,
    },
    CannotStand {
        at: Square,
        piece: String,
        square: &'static str,
    },
    TwoRoyals {
        piece: &'static str,
    },
    WrongSideRoyal {
        at: Square,
    },
    UnknownSide(String),
    BadField(String),
    BadChain(Square),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SetupError::*;
        match self {
            Syntax(why) => write!(f, "{why}"),
            Size { files, ranks, want_files, want_ranks } => write!(
                f,
                "the position is {files}x{ranks}, but this variant's board is {want_files}x{want_ranks}"
            ),
            UnknownPiece(c) => write!(f, "'{c}' is not a piece letter"),
            RoleNotInVariant { at, piece } => write!(f, "this variant has no {piece} (on {at})"),
            CannotStand { at, piece, square } => {
                write!(f, "{piece} cannot stand on the {square} {at}")
            }
            TwoRoyals { piece } => write!(f, "a side may have only one {piece}"),
            WrongSideRoyal { at } => write!(f, "the king on {at} must be a defender (upper case K)"),
            UnknownSide(s) => write!(f, "\"{s}\" is not a side to move for this variant"),
            BadField(s) => write!(f, "\"{s}\" is not a field this position string understands"),
            BadChain(sq) => write!(f, "the berserk chain names {sq}, which holds no piece of the side to move"),
        }
    }
}

impl std::error::Error for SetupError {}

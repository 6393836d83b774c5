//! Moves, captures and outcomes: the values the position hands out.

use std::fmt;

use super::piece::Side;
use super::square::Square;

/// How a piece travels.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// In a straight line over empty squares (also a Standard taking Cavalry by replacement).
    Slide,
    /// A commander's short jump over one adjacent piece.
    Jump,
    /// Cavalry: a straight line to `corner`, then one step at right angles.
    Turn { corner: Square },
}

/// A move, as the rules core understands it. Its written form lives in `notation`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
}

impl Move {
    pub const fn slide(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Slide,
        }
    }

    pub const fn jump(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Jump,
        }
    }

    pub const fn turn(from: Square, corner: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Turn { corner },
        }
    }
}

/// The squares a move captured on (for a V-man: where it changed sides), in board order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Captures {
    squares: [Square; Captures::CAPACITY],
    len: u8,
}

impl Default for Captures {
    fn default() -> Captures {
        Captures {
            squares: [Square::from_index(0); Captures::CAPACITY],
            len: 0,
        }
    }
}

impl Captures {
    /// Four sandwiches, a replaced Cavalry and a shieldwall along a 17-square edge.
    pub const CAPACITY: usize = 24;

    pub fn new() -> Captures {
        Captures::default()
    }

    pub(crate) fn push(&mut self, sq: Square) {
        if (self.len as usize) < Self::CAPACITY {
            self.squares[self.len as usize] = sq;
            self.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, sq: Square) -> bool {
        self.iter().any(|s| s == sq)
    }

    /// The squares, sorted by file, then rank.
    pub fn sorted(&self) -> Vec<Square> {
        let mut v: Vec<Square> = self.iter().collect();
        v.sort_by_key(|s| (s.file(), s.rank()));
        v.dedup();
        v
    }

    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares[..self.len as usize].iter().copied()
    }
}

impl fmt::Debug for Captures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    KingCaptured,
    KingEscaped,
    Encircled,
    ExitFort,
    Repetition,
    NoMoves,
    StandardCaptured,
    StandardSaved,
    Agreement,
    Resignation,
    Timeout,
    /// The loser withdrew from the tournament the game was played in.
    Forfeit,
}

impl Reason {
    /// The machine-readable name (`king_captured`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::Encircled => "encircled",
            Reason::ExitFort => "exit_fort",
            Reason::Repetition => "repetition",
            Reason::NoMoves => "no_moves",
            Reason::StandardCaptured => "standard_captured",
            Reason::StandardSaved => "standard_saved",
            Reason::Agreement => "agreement",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::Forfeit => "forfeit",
        }
    }
    const ALL: [Reason; 12] = [
        Reason::KingCaptured,
        Reason::KingEscaped,
        Reason::Encircled,
        Reason::ExitFort,
        Reason::Repetition,
        Reason::NoMoves,
        Reason::StandardCaptured,
        Reason::StandardSaved,
        Reason::Agreement,
        Reason::Resignation,
        Reason::Timeout,
        Reason::Forfeit,
    ];
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads the machine-readable name back.
impl std::str::FromStr for Reason {
    type Err = ();

    fn from_str(s: &str) -> Result<Reason, ()> {
        Reason::ALL.into_iter().find(|r| r.as_str() == s).ok_or(())
    }
}

/// How a game ended: a winner, or a draw (`winner: None`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

impl Outcome {
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

/// Save the Standard's turn slots.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Slot {
    /// A piece in its own field (or on a bridge) moves.
    Defending,
    /// A piece in the enemy field (or on a bridge) moves.
    Attacking,
}

impl Slot {
    pub fn as_str(self) -> &'static str {
        match self {
            Slot::Defending => "defending",
            Slot::Attacking => "attacking",
        }
    }
}

/// The canonical written form: `e1-e5`, `d4^d6`, `c3-c7-d7`, then `x` and the captured squares
/// joined by `/` (in file order).
pub fn write_move(m: Move, captures: &Captures) -> String {
    let mut s = match m.kind {
        MoveKind::Slide => format!("{}-{}", m.from, m.to),
        MoveKind::Jump => format!("{}^{}", m.from, m.to),
        MoveKind::Turn { corner } => format!("{}-{}-{}", m.from, corner, m.to),
    };
    if !captures.is_empty() {
        s.push('x');
        let names: Vec<String> = captures.sorted().iter().map(|sq| sq.to_string()).collect();
        s.push_str(&names.join("/"));
    }
    s
}

/// The canonical form of a legal move in a position (captures included).
pub fn canonical(pos: &super::Position, m: Move) -> String {
    let mut after = pos.clone();
    let captures = after.play_unchecked(m);
    write_move(m, &captures)
}

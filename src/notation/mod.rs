//! Move text and game records (RULES.md §0). Depends on the rules; the rules know nothing of text
//! beyond position strings.

mod import;
mod record;

pub use crate::rules::{canonical, write_move};
pub use import::{import_moves, listed_winner, recorded_game, ImportError};
pub use record::{read_record, write_record, Record, RecordError};

use std::fmt;

use crate::rules::{Captures, Game, IllegalMove, Move, MoveKind, Position, Square, Turn};

/// A turn's number as the record writes it: one number covers a turn of the side that began and
/// the other side's reply, `1. d1-d3` then `1... d6-d4` (Save the Standard's turns likewise).
/// Every view of a game (reviews, pictures, votes, hints, notices, puzzles) numbers by it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TurnNumber {
    /// From 1.
    pub round: usize,
    /// The reply of the side that did not begin (written `N...`).
    pub reply: bool,
}

impl TurnNumber {
    /// The number of the turn at `index` (0 for the first). Sides take turns, so the index alone
    /// decides.
    pub fn of(index: usize) -> TurnNumber {
        TurnNumber {
            round: index / 2 + 1,
            reply: index % 2 == 1,
        }
    }

    /// The number of the last of `turns` turns played, `None` before the first.
    pub fn last_of(turns: usize) -> Option<TurnNumber> {
        turns.checked_sub(1).map(TurnNumber::of)
    }

    /// The number of the turn to be played next in `game` (the open one, where a chain may go
    /// on).
    pub fn next(game: &Game) -> TurnNumber {
        let open = game.turns().last().is_some_and(|t| !t.complete);
        TurnNumber::of(game.turns().len() - usize::from(open))
    }
}

impl fmt::Display for TurnNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.reply {
            write!(f, "{}...", self.round)
        } else {
            write!(f, "{}.", self.round)
        }
    }
}

/// A turn's moves in the record's form (`e1-e4xd4`, two moves joined by a space), ` ...` after a
/// chain left open.
pub fn write_turn(turn: &Turn) -> String {
    let moves: Vec<String> = turn
        .moves
        .iter()
        .map(|p| write_move(p.mv, &p.captures))
        .collect();
    let open = if turn.complete { "" } else { " ..." };
    format!("{}{open}", moves.join(" "))
}

/// The turn at `index` with its number, as the record writes it: `3. e1-e4xd4`.
pub fn numbered_turn(game: &Game, index: usize) -> Option<String> {
    let turn = game.turns().get(index)?;
    Some(format!("{} {}", TurnNumber::of(index), write_turn(turn)))
}

/// `text`, a move (or a turn's moves) of the last of `turns` turns played, after that turn's
/// number: `3... d6-d4`. A news line says it so.
pub fn numbered_last(turns: usize, text: &str) -> String {
    let number = TurnNumber::last_of(turns).unwrap_or(TurnNumber::of(0));
    format!("{number} {text}")
}

/// A move as a player wrote it, before the position is consulted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveText {
    pub from: Square,
    pub to: Square,
    /// Cavalry's corner square (`c3-c7-d7`).
    pub corner: Option<Square>,
    /// Written with `^`.
    pub jump: bool,
    /// The captures the player announced (`e5-e8xd8/e9`), if any.
    pub claimed: Option<Vec<Square>>,
}

/// Why a text is not a move at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseMoveError {
    Empty,
    NotASquare(String),
    MissingDestination(String),
    Unexpected(String),
    EmptyCaptures,
}

/// At most this much of what was typed is quoted back.
const QUOTED_CHARS: usize = 50;

/// What was typed, as quoted in a sentence: at most [`QUOTED_CHARS`] characters, a tab or line
/// break shown as a space and any other control character by its code point (`U+0000`), so that
/// it is seen and never acts on the reader's screen.
pub fn quoted(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(QUOTED_CHARS) {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            c if c.is_control() => out.push_str(&format!("U+{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    if text.chars().nth(QUOTED_CHARS).is_some() {
        out.push('…');
    }
    out
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "write a move like e1-e5"),
            ParseMoveError::Unexpected(rest) if rest.parse::<Square>().is_ok() => write!(
                f,
                "a move goes from one square to another; a Cavalry move with its corner is written with dashes, like c3-c7-d7"
            ),
            ParseMoveError::NotASquare(s) => {
                let s = quoted(s);
                write!(f, "\"{s}\" is not a square; write a move like e1-e5")
            }
            ParseMoveError::MissingDestination(s) => {
                let s = quoted(s);
                write!(
                    f,
                    "\"{s}\" names only one square; write where the piece goes, like e1-e5"
                )
            }
            ParseMoveError::EmptyCaptures => {
                write!(
                    f,
                    "an x must be followed by the captured squares, like e5-e8xe9"
                )
            }
            ParseMoveError::Unexpected(rest) => write!(
                f,
                "could not read \"{}\"; write a move like e1-e5, or e5-e8xe9 with its captures",
                quoted(rest)
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// A move that could not be read, or that the rules refuse.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    Parse(ParseMoveError),
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> MoveError {
        MoveError::Parse(e)
    }
}

impl From<IllegalMove> for MoveError {
    fn from(e: IllegalMove) -> MoveError {
        MoveError::Illegal(e)
    }
}

/// Reads a square at the start of `s`, skipping nothing.
fn square_prefix(s: &str) -> Result<(Square, &str), ParseMoveError> {
    match Square::parse_prefix(s) {
        Some((sq, used)) => Ok((sq, &s[used..])),
        None => {
            let word: String = s
                .chars()
                .take_while(|c| c.is_alphanumeric())
                .take(8)
                .collect();
            Err(ParseMoveError::NotASquare(if word.is_empty() {
                s.chars().take(8).collect()
            } else {
                word
            }))
        }
    }
}

/// Skips one separator between squares: `-`, `^`, spaces, or nothing. Returns whether it was `^`.
/// The dashes a keyboard may put between two squares: the hyphen-minus, and the hyphen, en
/// dash, em dash and minus sign that phones and autocorrect write instead.
pub const DASHES: [char; 7] = [
    '-', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}',
];

fn separator(s: &str) -> (bool, &str) {
    let t = s.trim_start();
    if let Some(rest) = t.strip_prefix(DASHES) {
        (false, rest.trim_start())
    } else if let Some(rest) = t.strip_prefix('^') {
        (true, rest.trim_start())
    } else {
        (false, t)
    }
}

/// Reads one move: `e1-e5`, `e1e5`, `e1 e5`, `E1-E5`, `d4^d6`, `c3-c7-d7`, with optional captures
/// `xe9`, `xd8/e9` or `xd8xe9`.
pub fn parse_move(text: &str) -> Result<MoveText, ParseMoveError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(ParseMoveError::Empty);
    }
    let (from, rest) = square_prefix(s)?;
    let (jump, rest) = separator(rest);
    if rest.is_empty() || rest.starts_with(['x', 'X']) {
        return Err(ParseMoveError::MissingDestination(s.to_string()));
    }
    let (mut to, mut rest) = square_prefix(rest)?;
    let mut corner = None;
    let (_, after) = separator(rest);
    if !after.is_empty() && !after.starts_with(['x', 'X']) && after.len() != rest.len() {
        let (third, r) = square_prefix(after)?;
        corner = Some(to);
        to = third;
        rest = r;
    }
    let mut claimed: Option<Vec<Square>> = None;
    let mut rest = rest.trim_start();
    while let Some(r) = rest.strip_prefix(['x', 'X']) {
        let list = claimed.get_or_insert_with(Vec::new);
        if r.trim().is_empty() {
            return Err(ParseMoveError::EmptyCaptures);
        }
        let (sq, r) = square_prefix(r.trim_start())?;
        list.push(sq);
        rest = r;
        while let Some(r) = rest.strip_prefix('/') {
            let (sq, r) = square_prefix(r)?;
            list.push(sq);
            rest = r;
        }
        rest = rest.trim_start();
    }
    if !rest.is_empty() {
        return Err(ParseMoveError::Unexpected(rest.chars().take(16).collect()));
    }
    Ok(MoveText {
        from,
        to,
        corner,
        jump,
        claimed,
    })
}

/// Finds the legal move a text describes, and checks any captures the player announced.
pub fn resolve(pos: &Position, text: &MoveText) -> Result<(Move, Captures), IllegalMove> {
    let kind = match text.corner {
        Some(corner) => MoveKind::Turn { corner },
        None if text.jump => MoveKind::Jump,
        None => MoveKind::Slide,
    };
    let m = pos.check(Move {
        from: text.from,
        to: text.to,
        kind,
    })?;
    let mut after = pos.clone();
    let captures = after.play_unchecked(m);
    if let Some(claimed) = &text.claimed {
        let mut claimed = claimed.clone();
        claimed.sort_by_key(|s| (s.file(), s.rank()));
        claimed.dedup();
        let actual = captures.sorted();
        if claimed != actual {
            return Err(IllegalMove::WrongCaptures { claimed, actual });
        }
    }
    Ok((m, captures))
}

/// Reads a move and finds it in the position.
pub fn read_move(pos: &Position, text: &str) -> Result<(Move, Captures), MoveError> {
    Ok(resolve(pos, &parse_move(text)?)?)
}

/// Splits a turn's text into move texts: whitespace separates moves, but a bare square joins the
/// next word (`e1 e5` is one move).
pub fn split_moves(turn: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    for word in turn.split_whitespace() {
        let bare = word.parse::<Square>().is_ok();
        match pending.take() {
            Some(p) => out.push(format!("{p} {word}")),
            // Announced captures written apart belong to the move before: `e5-e8 xe9`.
            None if word.starts_with(['x', 'X']) && !out.is_empty() => {
                let last = out.last_mut().expect("not empty");
                last.push(' ');
                last.push_str(word);
            }
            None if bare => pending = Some(word.to_string()),
            None => out.push(word.to_string()),
        }
    }
    out.extend(pending);
    out
}

/// Why a turn of a replay or a record could not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnError {
    /// The move's text.
    pub text: String,
    pub error: MoveError,
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.text, self.error)
    }
}

/// How the text of a turn must end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TurnEnd {
    /// The turn is whole: a berserk chain still open at the end is ended, and a Save-the-Standard
    /// turn must have had its attacking slot (unless nothing could be moved in it).
    Whole,
    /// The turn may stay open, waiting for a continuation or for its attacking slot.
    MayStayOpen,
}

/// Plays one turn written as moves separated by spaces. A berserk chain left open by the previous
/// turn ends first. The text is read in full before anything is played.
pub fn play_turn(game: &mut Game, text: &str, end: TurnEnd) -> Result<(), TurnError> {
    let fail = |text: &str, error: MoveError| TurnError {
        text: text.to_string(),
        error,
    };
    let words = split_moves(text);
    if words.is_empty() {
        return Err(fail(text, ParseMoveError::Empty.into()));
    }
    let mut moves = Vec::with_capacity(words.len());
    for word in &words {
        moves.push(parse_move(word).map_err(|e| fail(word, e.into()))?);
    }
    if game.position().chain().is_some() && game.outcome().is_none() {
        game.end_turn().map_err(|e| fail(text, e.into()))?;
    }
    let side = game.position().turn();
    for (i, (word, mt)) in words.iter().zip(&moves).enumerate() {
        if i > 0 && game.turns().last().is_none_or(|t| t.complete) {
            let e = match game.outcome() {
                Some(_) => IllegalMove::GameOver,
                None => IllegalMove::TurnOver,
            };
            return Err(fail(word, e.into()));
        }
        let (m, _) = resolve(game.position(), mt).map_err(|e| fail(word, e.into()))?;
        game.play(m).map_err(|e| fail(word, e.into()))?;
    }
    if end == TurnEnd::Whole && game.outcome().is_none() {
        if game.position().chain().is_some() {
            game.end_turn().map_err(|e| fail(text, e.into()))?;
        }
        if game.position().slot().is_some() && game.position().turn() == side {
            return Err(fail(text, IllegalMove::TurnIncomplete.into()));
        }
    }
    Ok(())
}

pub use record::status_name;

/// The board as text, rank 1 at the bottom: pieces by their letters, `.` empty, `+` a special
/// square (throne, corner, Hill, Haven), `~` water, `=` a bridge.
pub fn diagram(pos: &Position) -> String {
    use crate::rules::Terrain;
    let v = pos.variant();
    let mut out = String::new();
    for rank in (0..v.ranks).rev() {
        out.push_str(&format!("{:>2} |", rank + 1));
        for file in 0..v.files {
            let sq = Square::new(file, rank).expect("on the board");
            let c = match pos.piece_at(sq) {
                Some(p) => p.letter(),
                None => match v.terrain(sq) {
                    Terrain::Plain | Terrain::OffBoard => '.',
                    Terrain::Water => '~',
                    Terrain::Bridge => '=',
                    _ => '+',
                },
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..v.files {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::{parse_move, quoted, TurnNumber};

    #[test]
    fn a_move_written_with_any_dash_is_read() {
        let plain = parse_move("d1-d3").unwrap();
        for text in ["d1–d3", "d1—d3", "d1−d3", "d1‐d3", "D1 – D3"] {
            assert_eq!(parse_move(text), Ok(plain.clone()), "{text}");
        }
        assert!(parse_move("d1~d3").is_err());
    }

    #[test]
    fn turns_are_numbered_as_the_record_numbers_them() {
        let labels: Vec<String> = (0..5).map(|i| TurnNumber::of(i).to_string()).collect();
        assert_eq!(labels, ["1.", "1...", "2.", "2...", "3."]);
    }

    #[test]
    fn control_characters_are_quoted_by_their_code_points() {
        assert_eq!(quoted("d1\0-d3"), "d1U+0000-d3");
        assert_eq!(quoted("a\u{1b}[2J\tb\nc"), "aU+001B[2J b c");
        assert_eq!(quoted(&"x".repeat(60)).chars().count(), 51);
    }
}

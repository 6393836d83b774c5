//! The game record: tags, then one numbered line per turn.
//!
//! ```text
//! [Variant "tyr-11"]
//! [Attackers "alice"]
//! [Defenders "bob"]
//! [Result "attackers_won"]
//! [Reason "king_captured"]
//!
//! 1. d1-d3
//! 1... e5-e2
//! 2. g1-g3xg2 g3-e3xe2
//! ```
//!
//! `N.` opens the first mover's turn of round N and `N...` the other side's. A turn's moves (a
//! berserk chain, Save the Standard's two slots) share its line. A turn still in progress (a chain
//! that may go on, a Save-the-Standard turn before its attacking move) ends its line with `...`. A `Position` tag gives the start
//! when it is not the variant's. `Result` is `ongoing`, `draw` or `<side>_won`; `Reason` is one of
//! [`crate::rules::Reason`]'s names.

use std::fmt;

use super::{play_turn, write_turn, TurnEnd, TurnError, TurnNumber};
use crate::rules::{parse_position, write_position, Game, Outcome, Reason, Side, Variant};

/// A game read from a record, with its tags.
#[derive(Clone, Debug)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub game: Game,
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a record could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError {
    Syntax { line: usize, why: String },
    NoVariant,
    UnknownVariant(String),
    Position(String),
    Turn { line: usize, error: TurnError },
    ResultMismatch { record: String, moves: String },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, why } => write!(f, "line {line}: {why}"),
            RecordError::NoVariant => write!(f, "the record has no [Variant \"...\"] tag"),
            RecordError::UnknownVariant(v) => write!(f, "unknown variant \"{v}\""),
            RecordError::Position(why) => {
                write!(f, "the Position tag is not a legal position: {why}")
            }
            RecordError::Turn { line, error } => write!(f, "line {line}: {error}"),
            RecordError::ResultMismatch { record, moves } => {
                write!(
                    f,
                    "the record says the result is {record}, but its moves give {moves}"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// `ongoing`, `draw`, `attackers_won`, `gold_won`, ...
pub fn status_name(variant: &Variant, outcome: Option<Outcome>) -> String {
    match outcome {
        None => "ongoing".into(),
        Some(Outcome { winner: None, .. }) => "draw".into(),
        Some(Outcome {
            winner: Some(side), ..
        }) => {
            format!("{}_won", variant.side_name(side).to_ascii_lowercase())
        }
    }
}

fn quote(value: &str) -> String {
    let mut s = String::from("\"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Writes a game with extra tags (players, dates); `Variant`, `Result`, `Reason` and, when needed,
/// `Position` are written from the game itself.
pub fn write_record(game: &Game, tags: &[(&str, &str)]) -> String {
    let v = game.variant();
    let mut out = format!("[Variant {}]\n", quote(v.id));
    for (name, value) in tags {
        let reserved = ["variant", "result", "reason", "position"];
        if !reserved.contains(&name.to_ascii_lowercase().as_str()) && !name.is_empty() {
            let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            out.push_str(&format!("[{name} {}]\n", quote(value)));
        }
    }
    let outcome = game.outcome();
    out.push_str(&format!("[Result {}]\n", quote(&status_name(v, outcome))));
    if let Some(o) = outcome {
        out.push_str(&format!("[Reason {}]\n", quote(o.reason.as_str())));
    }
    let start = write_position(game.start());
    if start != v.setup {
        out.push_str(&format!("[Position {}]\n", quote(&start)));
    }
    out.push('\n');
    for (index, turn) in game.turns().iter().enumerate() {
        out.push_str(&format!("{} {}\n", TurnNumber::of(index), write_turn(turn)));
    }
    out
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut escaped = false;
    for c in body.chars() {
        if escaped {
            value.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// Reads a record and replays it, checking every move.
pub fn read_record(text: &str) -> Result<Record, RecordError> {
    let mut tags = Vec::new();
    let mut body: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if line.starts_with('[') {
            if !body.is_empty() {
                return Err(RecordError::Syntax {
                    line: i + 1,
                    why: "tags come before the moves".into(),
                });
            }
            let tag = parse_tag(line).ok_or_else(|| RecordError::Syntax {
                line: i + 1,
                why: format!("\"{line}\" is not a tag like [Name \"value\"]"),
            })?;
            tags.push(tag);
        } else {
            body.push((i + 1, line));
        }
    }
    let find = |name: &str| {
        tags.iter()
            .find(|(n, _): &&(String, String)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let id = find("Variant").ok_or(RecordError::NoVariant)?;
    let variant = Variant::by_id(&id).ok_or(RecordError::UnknownVariant(id))?;
    let mut game = match find("Position") {
        Some(p) => Game::from_position(
            parse_position(variant, &p).map_err(|e| RecordError::Position(e.to_string()))?,
        ),
        None => Game::new(variant),
    };
    let first = game.start().turn();
    for (line, text) in &body {
        let (number, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let digits = number.trim_end_matches('.');
        let dots = number.len() - digits.len();
        if !(dots == 1 || dots == 3)
            || digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(RecordError::Syntax {
                line: *line,
                why: format!(
                    "a turn starts with its number, like \"1.\" or \"1...\", not \"{number}\""
                ),
            });
        }
        let (rest, end) = match rest.trim_end().strip_suffix("...") {
            Some(moves) => (moves, TurnEnd::MayStayOpen),
            None => (rest, TurnEnd::Whole),
        };
        let mut side = game.position().turn();
        if game.position().chain().is_some() {
            side = side.other();
        }
        if game.outcome().is_none() && (dots == 1) != (side == first) {
            let marker = if side == first { "N." } else { "N..." };
            return Err(RecordError::Syntax {
                line: *line,
                why: format!(
                    "this is {}, so it is numbered {marker}",
                    variant.turn_phrase(side)
                ),
            });
        }
        play_turn(&mut game, rest, end)
            .map_err(|error| RecordError::Turn { line: *line, error })?;
    }
    if let Some(result) = find("Result") {
        let reason = find("Reason").and_then(|r| r.parse().ok());
        let moves = status_name(variant, game.outcome());
        if game.outcome().is_none() && result != "ongoing" {
            let applied = match (result.as_str(), reason) {
                ("draw", None | Some(Reason::Agreement)) => game.agree_draw().is_ok(),
                (r, Some(reason @ (Reason::Resignation | Reason::Timeout))) => match Side::BOTH
                    .into_iter()
                    .find(|s| status_name(variant, Some(Outcome::win(*s, reason))) == r)
                {
                    Some(winner) if reason == Reason::Resignation => {
                        game.resign(winner.other()).is_ok()
                    }
                    Some(winner) => game.lose_on_time(winner.other()).is_ok(),
                    None => false,
                },
                _ => false,
            };
            if !applied {
                return Err(RecordError::ResultMismatch {
                    record: result,
                    moves,
                });
            }
        } else if result != moves {
            return Err(RecordError::ResultMismatch {
                record: result,
                moves,
            });
        }
    }
    Ok(Record { tags, game })
}

//! Position strings (RULES.md §0): ranks from the top down separated by `/`, runs of empty squares
//! as decimal numbers, then the side to move. Two optional fields carry turn state:
//! `chain:SQUARE` names the piece of an open berserk chain, and `slot:defending` or
//! `slot:attacking` the Save-the-Standard slot due (written for every Save-the-Standard position).

use super::error::SetupError;
use super::moves::Slot;
use super::piece::{Piece, Side};
use super::position::{Position, Setup};
use super::square::{Square, MAX_FILES, MAX_RANKS};
use super::variant::{Family, Variant};

/// Reads a position string without a variant. The side letter `a`/`r` reads as
/// [`Side::Attackers`] (= Red) and `d`/`g` as [`Side::Defenders`] (= Gold).
pub fn parse_setup(text: &str) -> Result<Setup, SetupError> {
    let mut fields = text.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| SetupError::Syntax("the position string is empty".into()))?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() > MAX_RANKS as usize {
        return Err(SetupError::Syntax(format!(
            "the position has {} ranks; no board has more than {MAX_RANKS}",
            rows.len()
        )));
    }
    let ranks = rows.len() as u8;
    let mut pieces = Vec::new();
    let mut files = None;
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file: usize = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut run = d as usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run * 10 + d as usize;
                    chars.next();
                    if run > MAX_FILES as usize {
                        break;
                    }
                }
                if run == 0 {
                    return Err(SetupError::Syntax(format!(
                        "rank {} has an empty run of 0",
                        rank + 1
                    )));
                }
                file += run;
            } else {
                let piece = Piece::from_letter(c).ok_or(SetupError::UnknownPiece(c))?;
                let sq = Square::new(file.min(255) as u8, rank).ok_or_else(|| {
                    SetupError::Syntax(format!("rank {} is wider than any board", rank + 1))
                })?;
                pieces.push((sq, piece));
                file += 1;
            }
            if file > MAX_FILES as usize {
                return Err(SetupError::Syntax(format!(
                    "rank {} is wider than any board ({MAX_FILES} files at most)",
                    rank + 1
                )));
            }
        }
        match files {
            None => files = Some(file),
            Some(w) if w != file => {
                return Err(SetupError::Syntax(format!(
                    "rank {} has {file} squares but rank {} has {w}",
                    rank + 1,
                    ranks
                )))
            }
            _ => {}
        }
    }
    let files = files.unwrap_or(0);
    if files == 0 {
        return Err(SetupError::Syntax("the board has no squares".into()));
    }
    let turn = match fields.next() {
        Some("a") | Some("r") => Side::Attackers,
        Some("d") | Some("g") => Side::Defenders,
        Some(other) => return Err(SetupError::UnknownSide(other.to_string())),
        None => {
            return Err(SetupError::Syntax(
                "the side to move is missing (a, d, g or r after the board)".into(),
            ))
        }
    };
    let mut setup = Setup {
        files: files as u8,
        ranks,
        pieces,
        turn,
        chain: None,
        slot: None,
    };
    for field in fields {
        match field.split_once(':') {
            Some(("chain", sq)) if setup.chain.is_none() => {
                setup.chain = Some(
                    sq.parse()
                        .map_err(|_| SetupError::BadField(field.to_string()))?,
                );
            }
            Some(("slot", "defending")) if setup.slot.is_none() => {
                setup.slot = Some(Slot::Defending)
            }
            Some(("slot", "attacking")) if setup.slot.is_none() => {
                setup.slot = Some(Slot::Attacking)
            }
            _ => return Err(SetupError::BadField(field.to_string())),
        }
    }
    Ok(setup)
}

/// Reads a position string of a variant and checks it.
pub fn parse_position(variant: &'static Variant, text: &str) -> Result<Position, SetupError> {
    let setup = parse_setup(text)?;
    let letter = text.split_whitespace().nth(1).unwrap_or("");
    let fits = match variant.family {
        Family::SaveTheStandard => matches!(letter, "g" | "r"),
        _ => matches!(letter, "a" | "d"),
    };
    if !fits {
        return Err(SetupError::UnknownSide(letter.to_string()));
    }
    Position::from_setup(variant, &setup)
}

/// Writes a position string that [`parse_position`] reads back.
pub fn write_position(pos: &Position) -> String {
    let v = pos.variant();
    let mut out = String::new();
    for rank in (0..v.ranks).rev() {
        let mut empty = 0;
        for file in 0..v.files {
            match pos.piece_at(Square::new(file, rank).unwrap()) {
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(v.side_letter(pos.turn()));
    if let Some(sq) = pos.chain() {
        out.push_str(&format!(" chain:{sq}"));
    }
    if let Some(slot) = pos.slot() {
        out.push_str(&format!(" slot:{}", slot.as_str()));
    }
    out
}

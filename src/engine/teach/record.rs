//! Self-play games as compact bytes: a game is its start, its turns' moves and, for each turn
//! the engine chose, the search's score, about eight bytes a position where a line of text
//! takes a hundred and fifty. The positions are made again by playing the moves, so a file of
//! millions of positions stays small enough to keep. Pure: bytes in and out.
//!
//! A file is [`MAGIC`], then games one after another. A game: its variant's id (a length byte,
//! then the id), its result (0 the attackers won, 1 drawn, 2 the defenders won, 3 unfinished),
//! its start as a position string (two bytes of length, then the text; none for the variant's
//! own start), two bytes of the
//! number of turns, then each turn: a byte of its moves' number, each move as four bytes (from
//! file, from rank, to file, to rank) and a kind byte (0 a slide, 1 a jump, 2 a cavalry turn,
//! then the corner's file and rank), and the turn's score for the defenders, two bytes
//! ([`NOT_SEARCHED`] for an opening turn, [`NO_SCORE`] for a forced one). Numbers are
//! little-endian.

use super::Played;
use crate::rules::{
    parse_position, write_position, Game, Move, MoveKind, Position, Side, Square, Variant,
};

/// A games file's first bytes.
pub const MAGIC: &[u8] = b"taflbot games 1\n";

/// The score of a turn the engine did not choose (the random opening's).
pub const NOT_SEARCHED: i16 = i16::MIN;

/// The score of a turn the engine chose without a score (a forced line).
pub const NO_SCORE: i16 = i16::MIN + 1;

fn result_byte(result: Option<Option<Side>>) -> u8 {
    match result {
        Some(Some(Side::Attackers)) => 0,
        Some(None) => 1,
        Some(Some(Side::Defenders)) => 2,
        None => 3,
    }
}

/// Appends `played` to `out`.
pub fn write(played: &Played, out: &mut Vec<u8>) {
    let game = &played.game;
    let id = game.variant().id.as_bytes();
    out.push(id.len() as u8);
    out.extend_from_slice(id);
    out.push(result_byte(played.result()));
    // The variant's own start is written as nothing.
    let mut start = write_position(game.start());
    if start == write_position(&Position::start(game.variant())) {
        start.clear();
    }
    out.extend_from_slice(&(start.len() as u16).to_le_bytes());
    out.extend_from_slice(start.as_bytes());
    let turns = game.turns();
    out.extend_from_slice(&(turns.len() as u16).to_le_bytes());
    // The engine chose the last turns, one a sample.
    let opening = turns.len().saturating_sub(played.samples.len());
    for (i, turn) in turns.iter().enumerate() {
        out.push(turn.moves.len() as u8);
        for played in &turn.moves {
            let m = played.mv;
            out.extend_from_slice(&[m.from.file(), m.from.rank(), m.to.file(), m.to.rank()]);
            match m.kind {
                MoveKind::Slide => out.push(0),
                MoveKind::Jump => out.push(1),
                MoveKind::Turn { corner } => {
                    out.extend_from_slice(&[2, corner.file(), corner.rank()])
                }
            }
        }
        let score = match i.checked_sub(opening) {
            None => NOT_SEARCHED,
            Some(s) => played.samples[s].score.map_or(NO_SCORE, |s| {
                s.clamp(i32::from(NO_SCORE) + 1, i32::from(i16::MAX)) as i16
            }),
        };
        out.extend_from_slice(&score.to_le_bytes());
    }
}

/// A position of a game read back: the game's result for the defenders (1 won, ½ drawn, 0
/// lost; none when unfinished), the position before an engine turn, and the search's score.
pub struct Read<'a> {
    pub variant: &'static Variant,
    pub result: Option<f64>,
    pub position: &'a Position,
    pub score: Option<i32>,
}

/// Reads bytes one field at a time.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("the games file ends inside a game".into());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn word(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn square(&mut self) -> Result<Square, String> {
        let b = self.take(2)?;
        Square::new(b[0], b[1])
            .ok_or_else(|| format!("a square off the board ({}, {})", b[0], b[1]))
    }
}

/// Calls `each` with every position before an engine turn of every game in `bytes` (as
/// [`write`] wrote them, after [`MAGIC`]), replaying the games; returns how many games.
pub fn read(bytes: &[u8], mut each: impl FnMut(Read)) -> Result<usize, String> {
    let mut b = Bytes(
        bytes
            .strip_prefix(MAGIC)
            .ok_or("not a games file (its first line is not \"taflbot games 1\")")?,
    );
    let mut games = 0;
    while !b.0.is_empty() {
        games += 1;
        read_game(&mut b, &mut each).map_err(|e| format!("game {games}: {e}"))?;
    }
    Ok(games)
}

/// Reads the next game of `b`, calling `each` as [`read`] does.
fn read_game(b: &mut Bytes, each: &mut impl FnMut(Read)) -> Result<(), String> {
    let n = usize::from(b.byte()?);
    let id = std::str::from_utf8(b.take(n)?).map_err(|_| "a variant id that is not text")?;
    let variant = Variant::by_id(id).ok_or_else(|| format!("unknown variant \"{id}\""))?;
    let result = match b.byte()? {
        0 => Some(0.0),
        1 => Some(0.5),
        2 => Some(1.0),
        3 => None,
        other => return Err(format!("unknown result {other}")),
    };
    let n = usize::from(b.word()?);
    let start = std::str::from_utf8(b.take(n)?).map_err(|_| "a start that is not text")?;
    let start = if start.is_empty() {
        Position::start(variant)
    } else {
        parse_position(variant, start).map_err(|e| e.to_string())?
    };
    let mut game = Game::from_position(start);
    for _ in 0..b.word()? {
        let before = game.position().clone();
        for _ in 0..b.byte()? {
            let (from, to) = (b.square()?, b.square()?);
            let kind = match b.byte()? {
                0 => MoveKind::Slide,
                1 => MoveKind::Jump,
                2 => MoveKind::Turn {
                    corner: b.square()?,
                },
                other => return Err(format!("unknown kind of move {other}")),
            };
            game.play(Move { from, to, kind })
                .map_err(|e| format!("an illegal move: {e}"))?;
        }
        if game.outcome().is_none() && game.position().turn() == before.turn() {
            game.end_turn()
                .map_err(|e| format!("a turn that cannot end: {e}"))?;
        }
        let score = b.word()? as i16;
        if score != NOT_SEARCHED {
            let score = (score != NO_SCORE).then_some(i32::from(score));
            each(Read {
                variant,
                result,
                position: &before,
                score,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::teach::{self_play, self_play_settings, Start};
    use crate::engine::Eval;

    #[test]
    fn games_read_back_give_the_positions_and_scores_they_were_played_with() {
        let mut bytes = MAGIC.to_vec();
        let mut played = Vec::new();
        for (id, seed) in [
            ("brandubh", 1),
            ("copenhagen", 2),
            ("tyr-11", 3),
            ("standard-7", 4),
        ] {
            let v = Variant::by_id(id).unwrap();
            let settings = self_play_settings(300, Eval::Taught);
            let start = Start {
                opening: 3,
                spread: 4,
                thin: 2,
            };
            let game = self_play(v, &settings, start, seed, 40);
            write(&game, &mut bytes);
            played.push(game);
        }
        let wanted: Vec<(String, Option<f64>, Option<i32>)> = played
            .iter()
            .flat_map(|p| {
                let result = p.result().map(super::super::result_for_defenders);
                p.samples
                    .iter()
                    .map(move |s| (write_position(&s.position), result, s.score))
            })
            .collect();
        assert!(wanted.len() > 40, "{}", wanted.len());
        let mut got = Vec::new();
        let games = read(&bytes, |r| {
            got.push((write_position(r.position), r.result, r.score))
        })
        .unwrap();
        assert_eq!(games, 4);
        assert_eq!(got, wanted);
        // Far smaller than the positions' text.
        let text: usize = wanted.iter().map(|(p, ..)| p.len()).sum();
        assert!(
            bytes.len() * 5 < text,
            "{} bytes against {text}",
            bytes.len()
        );
        // Cut short, or not a games file.
        let short = read(&bytes[..bytes.len() - 1], |_| {}).unwrap_err();
        assert!(short.contains("ends inside a game"), "{short}");
        assert!(read(b"copenhagen\t...", |_| {})
            .unwrap_err()
            .contains("not a games file"));
    }
}

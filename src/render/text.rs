//! The board as text, for a terminal: coordinates on every side, the last turn's squares in
//! brackets, captures in braces, and the pieces as Unicode signs or as the position string's
//! letters where a terminal shows only ASCII.

use super::Scene;
use crate::rules::{Piece, Role, Side, Square, Terrain};

/// How pieces and squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyphs {
    /// Signs that most terminal fonts have: `●` attackers, `○` defenders, `♔` the king.
    Unicode,
    /// The position string's letters: `t` an attacker, `T` a defender, `K` the king.
    Ascii,
}

impl Glyphs {
    fn piece(self, p: Piece) -> char {
        if self == Glyphs::Ascii {
            return p.letter();
        }
        let ours = p.side == Side::Defenders;
        match (p.role, ours) {
            (Role::Man | Role::Infantry, false) => '●',
            (Role::Man | Role::Infantry, true) => '○',
            (Role::King, false) => '♚',
            (Role::King, true) => '♔',
            (Role::Commander, false) => '◆',
            (Role::Commander, true) => '◇',
            (Role::VMan, false) => '▼',
            (Role::VMan, true) => '▽',
            (Role::Standard, false) => '⚑',
            (Role::Standard, true) => '⚐',
            (Role::Cavalry, false) => '♞',
            (Role::Cavalry, true) => '♘',
        }
    }

    fn empty(self, terrain: Terrain) -> char {
        match (self, terrain) {
            (_, Terrain::OffBoard) => ' ',
            (Glyphs::Unicode, Terrain::Plain) => '·',
            (Glyphs::Unicode, Terrain::Throne | Terrain::Corner) => '▪',
            (Glyphs::Unicode, Terrain::Water) => '≈',
            (Glyphs::Unicode, Terrain::Bridge) => '═',
            (Glyphs::Unicode, Terrain::Hill) => '▲',
            (Glyphs::Unicode, Terrain::Haven) => '⌂',
            (Glyphs::Ascii, Terrain::Plain) => '.',
            (Glyphs::Ascii, Terrain::Throne | Terrain::Corner) => '#',
            (Glyphs::Ascii, Terrain::Water) => '~',
            (Glyphs::Ascii, Terrain::Bridge) => '=',
            (Glyphs::Ascii, Terrain::Hill) => '^',
            (Glyphs::Ascii, Terrain::Haven) => 'o',
        }
    }
}

/// The letter of a board's file, as squares are written (`a` …).
fn file_label(file: u8) -> char {
    (b'a' + file) as char
}

/// The board of `scene` as lines of text, the top rank first (the last rank at the bottom when
/// the scene is flipped), with a line of file letters above and below and a key to the marks.
pub fn board_text(scene: &Scene, glyphs: Glyphs) -> String {
    let v = scene.position.variant();
    let (files, ranks) = (v.files, v.ranks);
    let width = ranks.to_string().len();
    let file_order: Vec<u8> = if scene.flip {
        (0..files).rev().collect()
    } else {
        (0..files).collect()
    };
    let rank_order: Vec<u8> = if scene.flip {
        (0..ranks).collect()
    } else {
        (0..ranks).rev().collect()
    };
    let letters: String = file_order
        .iter()
        .map(|&f| format!("{:^3}", file_label(f)))
        .collect();
    let edge = format!("{:width$} {letters}", "");
    let mut out = vec![edge.trim_end().to_string()];
    for &rank in &rank_order {
        let mut line = format!("{:>width$} ", rank + 1);
        for &file in &file_order {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let sign = match scene.position.piece_at(sq) {
                Some(p) => glyphs.piece(p),
                None => glyphs.empty(v.terrain(sq)),
            };
            let (open, close) = if scene.moved.contains(&sq) {
                ('[', ']')
            } else if scene.captured.contains(&sq) {
                ('{', '}')
            } else {
                (' ', ' ')
            };
            line.extend([open, sign, close]);
        }
        line.push_str(&format!(" {}", rank + 1));
        out.push(line.trim_end().to_string());
    }
    out.push(edge.trim_end().to_string());
    let mut key = Vec::new();
    if !scene.moved.is_empty() {
        key.push("[ ] the last turn");
    }
    if !scene.captured.is_empty() {
        key.push("{ } captured");
    }
    if !key.is_empty() {
        out.push(format!("{:width$} {}", "", key.join(", ")));
    }
    out.join("\n")
}

//! Pictures of the board: a PNG after every move, a GIF of a whole game.
//!
//! Like a good image server, the work is split in two: `prepare.rs` makes, once per variant and
//! theme, the palette, the empty board with its coordinates and every square as it can look; a
//! picture then only copies prepared squares into an indexed image, writes the header, and encodes.
//! Indexed pixels keep the encoding cheap and the files small. `chart.rs` draws a player's ratings
//! over time in the same themes.

mod chart;
mod encode;
mod layout;
mod pieces;
mod prepare;
mod table;
mod text;
mod theme;
pub mod vision;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use chart::{rating_chart, review_chart, Series, CHART_SIZE, MAX_SERIES};
pub use encode::{
    description_of, png_with as encode_png_with, GifWriter, PngSettings, TooLarge, MAX_DESCRIPTION,
    PNG_SETTINGS,
};
pub use prepare::{Layout, Mark, Prepared, LETTERS_AT_PHONE, MAX_SIDE, PHONE_WIDTH};
pub use table::{crosstable, CrossRow, MAX_ROWS};
pub use text::{board_text, Glyphs};
pub use theme::{Colours, Rgb, Theme};

use crate::notation::numbered_turn;
use crate::rules::{Game, MoveKind, Outcome, Position, Side, Square, Variant};

/// What a picture shows.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    pub position: &'a Position,
    /// The squares the last turn's moves went through: from, corner, to of each move.
    pub moved: Vec<Square>,
    /// Each move of the last turn as the squares its line joins (from, corner, to), drawn where
    /// the turn has more than one move so that its moves read as one turn.
    pub paths: Vec<Vec<Square>>,
    /// Where pieces were captured (or V-men turned) in the last turn.
    pub captured: Vec<Square>,
    /// The number of turns played.
    pub turns: usize,
    /// The last turn as the record writes it, with its number: `3. e1-e4xd4`.
    pub last: Option<String>,
    /// Player names, attackers' (Red's) first.
    pub names: Option<[String; 2]>,
    pub outcome: Option<Outcome>,
    /// Seen from the other side: `a1` in the top right.
    pub flip: bool,
}

impl<'a> Scene<'a> {
    /// A position alone, with no last turn.
    pub fn position(position: &'a Position) -> Scene<'a> {
        Scene {
            position,
            moved: Vec::new(),
            paths: Vec::new(),
            captured: Vec::new(),
            turns: 0,
            last: None,
            names: None,
            outcome: position.outcome(),
            flip: false,
        }
    }

    /// A game as it stands, its last turn marked.
    pub fn game(game: &'a Game) -> Scene<'a> {
        let mut scene = Scene::position(game.position());
        scene.turns = game.turns().len();
        scene.outcome = game.outcome();
        scene.last = scene
            .turns
            .checked_sub(1)
            .and_then(|i| numbered_turn(game, i));
        if let Some(turn) = game.turns().last() {
            for played in &turn.moves {
                let mut path = vec![played.mv.from];
                if let MoveKind::Turn { corner } = played.mv.kind {
                    path.push(corner);
                }
                path.push(played.mv.to);
                scene.moved.extend(&path);
                scene.paths.push(path);
                scene.captured.extend(played.captures.iter());
            }
            if scene.paths.len() < 2 {
                scene.paths.clear();
            }
        }
        scene
    }

    pub fn flipped(mut self, flip: bool) -> Scene<'a> {
        self.flip = flip;
        self
    }

    pub fn named(mut self, names: Option<[String; 2]>) -> Scene<'a> {
        self.names = names;
        self
    }
}

/// An indexed picture and the palette it indexes.
pub struct Frame {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
    pub prepared: Arc<Prepared>,
}

impl Frame {
    /// The colour of a pixel.
    pub fn rgb(&self, x: u32, y: u32) -> Rgb {
        let i = self.pixels[(y * self.width + x) as usize];
        self.prepared.palette.colours()[i as usize]
    }
}

/// Draws pictures, keeping what it prepares for each variant and theme.
#[derive(Default)]
pub struct Renderer {
    prepared: Mutex<HashMap<(&'static str, Theme), Arc<Prepared>>>,
}

impl Renderer {
    pub fn new() -> Renderer {
        Renderer::default()
    }

    /// The prepared material for a variant and theme (made on first use).
    pub fn prepared(&self, variant: &'static Variant, theme: Theme) -> Arc<Prepared> {
        let mut cache = self.prepared.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry((variant.id, theme))
            .or_insert_with(|| Arc::new(Prepared::new(variant, theme)))
            .clone()
    }

    /// Composes a picture.
    pub fn frame(&self, scene: &Scene, theme: Theme) -> Frame {
        let prepared = self.prepared(scene.position.variant(), theme);
        let p = &*prepared;
        let v = p.variant;
        let mut pixels = p.background[usize::from(scene.flip)].clone();
        for sq in v.squares() {
            let piece = scene.position.piece_at(sq).map(|pc| (pc.side, pc.role));
            let mark = if scene.captured.contains(&sq) {
                Mark::Captured
            } else if scene.moved.contains(&sq) {
                Mark::Moved
            } else {
                Mark::None
            };
            if piece.is_none() && mark == Mark::None {
                continue;
            }
            let tile = &p.tiles[&(prepare::terrain_key(v, sq), piece, mark)];
            p.blit(&mut pixels, p.origin(sq, scene.flip), tile);
        }
        for path in &scene.paths {
            draw_path(p, &mut pixels, path, scene.flip);
        }
        let (first, second) = header(scene);
        let line = p.header / 2;
        draw_line(p, &mut pixels, &first, 4);
        draw_line(p, &mut pixels, &second, line as i32);
        Frame {
            width: p.width,
            height: p.height,
            pixels,
            prepared,
        }
    }

    /// A PNG of the scene.
    pub fn png(&self, scene: &Scene, theme: Theme) -> Vec<u8> {
        encode::png(&self.frame(scene, theme), &describe(scene))
    }

    /// An animated GIF of a whole game: the start, then one frame per turn. Each later frame
    /// carries only the pixels that changed.
    pub fn gif(
        &self,
        game: &Game,
        theme: Theme,
        flip: bool,
        names: Option<[String; 2]>,
    ) -> Vec<u8> {
        self.gif_within(game, theme, flip, names, usize::MAX)
            .expect("a GIF without a cap is never too large")
    }

    /// The whole game as an animated GIF, one picture per turn, or `TooLarge` as soon as the file
    /// passes `max_bytes`. The pictures are made and encoded one at a time: memory stays that of
    /// two pictures whatever the length of the game.
    pub fn gif_within(
        &self,
        game: &Game,
        theme: Theme,
        flip: bool,
        names: Option<[String; 2]>,
        max_bytes: usize,
    ) -> Result<Vec<u8>, TooLarge> {
        let turns = game.turns();
        let delay = |i: usize| if i == turns.len() { 400 } else { 80 };
        // The final picture shows how the game ended, resignations and agreements included.
        let picture = |replay: &Game, last: bool| {
            let mut scene = Scene::game(replay).flipped(flip).named(names.clone());
            if last {
                scene.outcome = game.outcome();
            }
            self.frame(&scene, theme)
        };
        let mut replay = Game::from_position(game.start().clone());
        let first = picture(&replay, turns.is_empty());
        let mut writer = GifWriter::new(first, delay(0), max_bytes)?;
        for (i, turn) in turns.iter().enumerate() {
            for played in &turn.moves {
                if replay.position().chain().is_some() && replay.position().turn() != turn.side {
                    let _ = replay.end_turn();
                }
                if replay.play(played.mv).is_err() {
                    break;
                }
            }
            if turn.complete && replay.position().chain().is_some() {
                let _ = replay.end_turn();
            }
            let frame = picture(&replay, i + 1 == turns.len());
            writer.push(frame, delay(i + 1))?;
        }
        writer.finish()
    }
}

/// The header: the variant and turn, then who is to move or how the game ended.
pub fn header(scene: &Scene) -> (String, String) {
    let v = scene.position.variant();
    let name = |side: Side| -> String {
        let role = v.side_name(side);
        match &scene.names {
            Some(names) => format!("{} ({role})", names[side as usize]),
            None => capitalise(role),
        }
    };
    let first = match &scene.last {
        Some(last) => format!("{}  ·  {last}", v.name),
        None => v.name.to_string(),
    };
    let second = match scene.outcome {
        None => {
            let mut s = format!("{} to move", name(scene.position.turn()));
            if let Some(slot) = scene.position.slot() {
                s.push_str(&format!(" ({} move)", slot.as_str()));
            }
            if scene.position.chain().is_some() {
                s.push_str(" (may go on capturing)");
            }
            s
        }
        Some(Outcome {
            winner: None,
            reason,
        }) => format!("Draw: {}", reason_text(reason)),
        Some(Outcome {
            winner: Some(side),
            reason,
        }) => format!("{} won: {}", name(side), reason_text(reason)),
    };
    (first, second)
}

/// The picture in words, for a screen reader (Discord's attachment description): the variant,
/// the last turn with its number and captures, who is to move or how the game ended, and what
/// stands on the board.
pub fn describe(scene: &Scene) -> String {
    let v = scene.position.variant();
    let mut out = match &scene.last {
        Some(last) => format!("{} board after {last}", v.name),
        None => format!("{} board", v.name),
    };
    if !scene.captured.is_empty() {
        let squares: Vec<String> = scene.captured.iter().map(|s| s.to_string()).collect();
        out.push_str(&format!(", capturing {}", join_and(&squares)));
    }
    out.push_str(&format!(". {}.", header(scene).1));
    let mut counts = [0usize; 2];
    let mut king = false;
    for sq in v.squares() {
        if let Some(piece) = scene.position.piece_at(sq) {
            if piece.role == crate::rules::Role::King {
                king = true;
            } else {
                counts[piece.side as usize] += 1;
            }
        }
    }
    let holder = if king && v.family == crate::rules::Family::SeaBattle {
        " and the ship"
    } else if king {
        " and the king"
    } else {
        ""
    };
    out.push_str(&format!(
        " Pieces: {} {}, {} {}{holder}.",
        v.side_name(Side::Attackers),
        counts[Side::Attackers as usize],
        v.side_name(Side::Defenders),
        counts[Side::Defenders as usize],
    ));
    out
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The text with its first letter a capital.
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// How a game ended, in a player's words.
pub fn reason_text(reason: crate::rules::Reason) -> &'static str {
    use crate::rules::Reason::*;
    match reason {
        KingCaptured => "the king was captured",
        KingEscaped => "the king escaped",
        Encircled => "the defenders are encircled",
        ExitFort => "the king built an exit fort",
        Repetition => "repetition",
        NoMoves => "no legal move left",
        StandardCaptured => "the Standard was captured",
        StandardSaved => "the Standard reached its Haven",
        Agreement => "agreed",
        Resignation => "resignation",
        Timeout => "time ran out",
        Forfeit => "forfeit",
    }
}

/// Writes a header line with its top at `y`, from the left margin. A line too long for the
/// picture is written smaller, down to three quarters of the size, and then cut.
fn draw_line(p: &Prepared, pixels: &mut [u8], text: &str, y: i32) {
    let left = p.margin as f32;
    let room = (p.width - 2 * p.margin) as f32;
    let advance = |ch: char| p.glyphs.get(&ch).map_or(p.font_px * 0.7, |g| g.advance);
    let wide: f32 = text.chars().map(advance).sum();
    let px = if wide > room {
        (p.font_px * room / wide).max(p.font_px * 0.75)
    } else {
        p.font_px
    };
    let mut x = left;
    for ch in text.chars() {
        let owned;
        let g = match p.glyphs.get(&ch) {
            Some(g) if px == p.font_px => g,
            _ => {
                owned = p.rasterize(ch, px);
                &owned
            }
        };
        if x + g.advance > left + room {
            break;
        }
        p.draw_glyph(pixels, g, x as i32, y);
        x += g.advance;
    }
}

/// A move's line over the floor of the squares it joins (never over a piece): the centres of
/// its from, corner and to squares, a tenth of a square wide.
fn draw_path(p: &Prepared, pixels: &mut [u8], path: &[Square], flip: bool) {
    let Some(ink) = p.palette.lookup(p.theme.colours().path) else {
        return;
    };
    let half = p.square as f32 / 2.0;
    let centre = |sq: Square| {
        let (x, y) = p.origin(sq, flip);
        (x as f32 + half, y as f32 + half)
    };
    let r = (p.square as i32 / 20).max(1);
    let w = p.width as i32;
    for pair in path.windows(2) {
        let ((x0, y0), (x1, y1)) = (centre(pair[0]), centre(pair[1]));
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).ceil() as i32;
        for k in 0..=steps {
            let t = k as f32 / steps.max(1) as f32;
            let (cx, cy) = ((x0 + (x1 - x0) * t) as i32, (y0 + (y1 - y0) * t) as i32);
            for y in cy - r..=cy + r {
                for x in cx - r..=cx + r {
                    let i = (y * w + x) as usize;
                    if p.floor[usize::from(pixels[i])] {
                        pixels[i] = ink;
                    }
                }
            }
        }
    }
}

//! What does not change between pictures of one variant in one theme, made once: the palette, the
//! empty board with its coordinates, and every square as it can look (terrain, highlight, piece),
//! each an indexed tile ready to copy.

use std::collections::HashMap;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgb as Pixel, RgbImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_line_segment_mut, draw_polygon_mut};
use imageproc::point::Point;
use imageproc::rect::Rect;

pub use super::layout::{Layout, LETTERS_AT_PHONE, PHONE_WIDTH};
use super::theme::{Colours, Rgb, Theme};
use crate::rules::{Piece, Role, Side, Square, Terrain, Variant};

/// The longest side of any picture.
pub const MAX_SIDE: u32 = 1200;

/// Palette index that no picture uses: the GIF's transparent colour.
pub const TRANSPARENT: u8 = 0;

/// How a square is marked for the last turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mark {
    None = 0,
    /// From, corner or to of a move of the last turn.
    Moved = 1,
    /// A piece was captured (or a V-man turned) here.
    Captured = 2,
}

/// A palette built up colour by colour.
#[derive(Clone, Default)]
pub struct Palette {
    colours: Vec<Rgb>,
    index: HashMap<Rgb, u8>,
}

impl Palette {
    fn new() -> Palette {
        let mut p = Palette::default();
        // Index 0 is kept free for the GIF's transparency.
        p.colours.push([255, 0, 255]);
        p
    }

    pub fn index(&mut self, rgb: Rgb) -> u8 {
        if let Some(i) = self.index.get(&rgb) {
            return *i;
        }
        assert!(
            self.colours.len() < 256,
            "a theme has fewer than 256 colours"
        );
        let i = self.colours.len() as u8;
        self.colours.push(rgb);
        self.index.insert(rgb, i);
        i
    }

    pub fn lookup(&self, rgb: Rgb) -> Option<u8> {
        self.index.get(&rgb).copied()
    }

    pub fn colours(&self) -> &[Rgb] {
        &self.colours
    }

    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }
}

/// Text shades: the text colour over the frame at four coverages.
pub const SHADES: usize = 4;

/// A glyph's coverage, in shade steps (0 = none).
pub struct Glyph {
    pub left: i32,
    pub top: i32,
    pub width: u32,
    pub height: u32,
    pub shade: Vec<u8>,
    pub advance: f32,
}

/// A square's look: its terrain key, the piece on it, and its mark.
pub type TileKey = (u8, Option<(Side, Role)>, Mark);

/// Everything a picture of this variant in this theme is made from.
pub struct Prepared {
    pub variant: &'static Variant,
    pub theme: Theme,
    pub square: u32,
    /// The coordinate margins' width, the header strip's height, and the size of the letters in
    /// the margins and in the header.
    pub margin: u32,
    pub header: u32,
    pub label_px: f32,
    pub width: u32,
    pub height: u32,
    /// The palette indices a move's line may be drawn over: the board's floor, never a piece.
    pub floor: [bool; 256],
    pub palette: Palette,
    /// The empty board, as seen from Gold's or the attackers' side and flipped.
    pub background: [Vec<u8>; 2],
    pub tiles: HashMap<TileKey, Vec<u8>>,
    /// Header glyphs for printable ASCII; other characters are drawn when needed.
    pub glyphs: HashMap<char, Glyph>,
    pub shades: [u8; SHADES],
    pub font: FontRef<'static>,
    pub font_px: f32,
}

pub static FONT: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf");

/// A key for a square's look: terrain and, for Hills and Havens, the field's owner.
pub fn terrain_key(variant: &Variant, sq: Square) -> u8 {
    let t = variant.terrain(sq) as u8;
    let owner = variant.field_owner(sq) == Some(Side::RED);
    t | (u8::from(owner) << 4)
}

/// The palette indices of the board's floor (terrain, marks, grid) that no piece is drawn in.
fn floor(palette: &Palette, c: &Colours) -> [bool; 256] {
    let mut floor = [false; 256];
    let ground = [
        c.square,
        c.throne,
        c.corner,
        c.special_edge,
        c.hill[0],
        c.hill[1],
        c.haven[0],
        c.haven[1],
        c.bridge,
        c.plank,
        c.moved,
        c.captured,
        c.grid,
    ];
    let pieces = [
        c.attacker,
        c.attacker_edge,
        c.defender,
        c.defender_edge,
        c.king,
        c.crown,
        c.ship,
        c.sail,
        c.star[0],
        c.star[1],
        c.vee[0],
        c.vee[1],
        c.red,
        c.red_edge,
        c.gold,
        c.gold_edge,
        c.flag[0],
        c.flag[1],
        c.horse[0],
        c.horse[1],
    ];
    for rgb in ground {
        if let (Some(i), false) = (palette.lookup(rgb), pieces.contains(&rgb)) {
            floor[usize::from(i)] = true;
        }
    }
    floor
}

impl Prepared {
    pub fn new(variant: &'static Variant, theme: Theme) -> Prepared {
        let colours = theme.colours();
        let layout = Layout::of(variant);
        let s = layout.square;
        let width = layout.width(variant);
        let height = layout.height(variant);
        let font = FontRef::try_from_slice(FONT).expect("the bundled font loads");
        let mut palette = Palette::new();
        let frame = palette.index(colours.frame);
        let mut shades = [frame; SHADES];
        for (k, shade) in shades.iter_mut().enumerate().skip(1) {
            let a = k as f32 / (SHADES - 1) as f32;
            let mix = |f: u8, t: u8| (f as f32 + (t as f32 - f as f32) * a).round() as u8;
            let c = [
                mix(colours.frame[0], colours.text[0]),
                mix(colours.frame[1], colours.text[1]),
                mix(colours.frame[2], colours.text[2]),
            ];
            *shade = palette.index(c);
        }
        // The moves' lines are drawn over the tiles, so their ink is added by hand.
        palette.index(colours.path);
        let mut prepared = Prepared {
            variant,
            theme,
            square: s,
            margin: layout.margin,
            header: layout.header,
            label_px: layout.label_px,
            width,
            height,
            floor: [false; 256],
            palette,
            background: [Vec::new(), Vec::new()],
            tiles: HashMap::new(),
            glyphs: HashMap::new(),
            shades,
            font,
            font_px: layout.label_px.max(22.0),
        };
        prepared.make_tiles(colours);
        prepared.floor = floor(&prepared.palette, colours);
        for c in ' '..='~' {
            let g = prepared.rasterize(c, prepared.font_px);
            prepared.glyphs.insert(c, g);
        }
        for flip in [false, true] {
            prepared.background[usize::from(flip)] = prepared.make_background(flip);
        }
        prepared
    }

    fn make_tiles(&mut self, colours: &Colours) {
        let v = self.variant;
        let mut keys: Vec<(u8, Terrain, Option<Side>)> = Vec::new();
        for sq in v.squares() {
            let key = terrain_key(v, sq);
            if !keys.iter().any(|k| k.0 == key) {
                keys.push((key, v.terrain(sq), v.field_owner(sq)));
            }
        }
        let mut pieces: Vec<Option<(Side, Role)>> = vec![None];
        for role in v.roles() {
            for side in Side::BOTH {
                if *role == Role::King && side == Side::Attackers {
                    continue;
                }
                pieces.push(Some((side, *role)));
            }
        }
        for (key, terrain, owner) in keys {
            for piece in &pieces {
                for mark in [Mark::None, Mark::Moved, Mark::Captured] {
                    let rgb = self.draw_tile(colours, terrain, owner, *piece, mark);
                    let indexed = rgb.pixels().map(|p| self.palette.index(p.0)).collect();
                    self.tiles.insert((key, *piece, mark), indexed);
                }
            }
        }
    }

    fn draw_tile(
        &self,
        c: &Colours,
        terrain: Terrain,
        owner: Option<Side>,
        piece: Option<(Side, Role)>,
        mark: Mark,
    ) -> RgbImage {
        let s = self.square;
        // The last turn's squares are filled, as lichess does: the mark is the whole square, not
        // a frame a phone shrinks to a hair.
        let ground = match mark {
            Mark::Moved => c.moved,
            _ => c.empty_centre(terrain, owner),
        };
        let mut img = RgbImage::from_pixel(s, s, Pixel(ground));
        let f = s as f32;
        // Special squares: a frame inside the square, and water or planks away from the centre.
        match terrain {
            Terrain::Plain | Terrain::OffBoard => {}
            Terrain::Water => {
                for y in [f * 0.2, f * 0.8] {
                    draw_line_segment_mut(&mut img, (f * 0.15, y), (f * 0.85, y), Pixel(c.wave));
                }
            }
            Terrain::Bridge => {
                for y in [f * 0.12, f * 0.88] {
                    draw_filled_rect_mut(
                        &mut img,
                        Rect::at(0, y as i32 - 1).of_size(s, 3),
                        Pixel(c.plank),
                    );
                }
            }
            _ => {
                let inset = (s / 10).max(3) as i32;
                let side = s - 2 * inset as u32;
                for k in 0..2 {
                    let r = Rect::at(inset + k, inset + k)
                        .of_size(side - 2 * k as u32, side - 2 * k as u32);
                    imageproc::drawing::draw_hollow_rect_mut(&mut img, r, Pixel(c.special_edge));
                }
            }
        }
        // The grid: a line along the top and left of every square.
        draw_filled_rect_mut(&mut img, Rect::at(0, 0).of_size(s, 1), Pixel(c.grid));
        draw_filled_rect_mut(&mut img, Rect::at(0, 0).of_size(1, s), Pixel(c.grid));
        match mark {
            Mark::None | Mark::Moved => {}
            Mark::Captured => {
                let t = (s / 3) as i32;
                let e = s as i32 - 1;
                for (x, y, dx, dy) in [(1, 1, 1, 1), (e, 1, -1, 1), (1, e, 1, -1), (e, e, -1, -1)] {
                    let tri = [
                        Point::new(x, y),
                        Point::new(x + dx * t, y),
                        Point::new(x, y + dy * t),
                    ];
                    draw_polygon_mut(&mut img, &tri, Pixel(c.captured));
                }
            }
        }
        if let Some((side, role)) = piece {
            self.draw_piece(&mut img, c, Piece::new(side, role));
        }
        img
    }

    fn draw_piece(&self, img: &mut RgbImage, c: &Colours, piece: Piece) {
        super::pieces::draw(img, c, self.variant, self.square, piece);
    }

    /// Coverage of one character, in shade steps.
    pub fn rasterize(&self, ch: char, px: f32) -> Glyph {
        let scaled = self.font.as_scaled(PxScale::from(px));
        let id = self.font.glyph_id(ch);
        let advance = scaled.h_advance(id);
        let glyph =
            id.with_scale_and_position(PxScale::from(px), ab_glyph::point(0.0, scaled.ascent()));
        let Some(outline) = self.font.outline_glyph(glyph) else {
            return Glyph {
                left: 0,
                top: 0,
                width: 0,
                height: 0,
                shade: Vec::new(),
                advance,
            };
        };
        let b = outline.px_bounds();
        let (w, h) = (b.width() as u32, b.height() as u32);
        let mut shade = vec![0u8; (w * h) as usize];
        outline.draw(|x, y, cov| {
            if x < w && y < h {
                shade[(y * w + x) as usize] =
                    (cov * (SHADES - 1) as f32).round().min((SHADES - 1) as f32) as u8;
            }
        });
        Glyph {
            left: b.min.x as i32,
            top: b.min.y as i32,
            width: w,
            height: h,
            shade,
            advance,
        }
    }

    fn make_background(&self, flip: bool) -> Vec<u8> {
        let v = self.variant;
        let mut pixels = vec![self.shades[0]; (self.width * self.height) as usize];
        for sq in v.squares() {
            let tile = &self.tiles[&(terrain_key(v, sq), None, Mark::None)];
            self.blit(&mut pixels, self.origin(sq, flip), tile);
        }
        // The grid's closing lines along the right and bottom of the board.
        let grid = self
            .palette
            .lookup(self.theme.colours().grid)
            .expect("grid in palette");
        let (margin, header) = (self.margin, self.header);
        let (x0, y0) = (margin, header + margin);
        let (x1, y1) = (
            x0 + v.files as u32 * self.square,
            y0 + v.ranks as u32 * self.square,
        );
        for y in y0..=y1.min(self.height - 1) {
            pixels[(y * self.width + x1.min(self.width - 1)) as usize] = grid;
        }
        for x in x0..=x1.min(self.width - 1) {
            pixels[(y1.min(self.height - 1) * self.width + x) as usize] = grid;
        }
        // Coordinates on all four margins.
        let small = self.label_px;
        for f in 0..v.files {
            let label = ((b'a' + f) as char).to_string();
            let col = if flip { v.files - 1 - f } else { f } as u32;
            let x = x0 + col * self.square + self.square / 2;
            for y in [header + margin / 2, y1 + margin / 2] {
                self.text_centred(&mut pixels, &label, small, x as i32, y as i32);
            }
        }
        for r in 0..v.ranks {
            let label = (r + 1).to_string();
            let row = if flip { r } else { v.ranks - 1 - r } as u32;
            let y = y0 + row * self.square + self.square / 2;
            for x in [margin / 2, x1 + margin / 2] {
                self.text_centred(&mut pixels, &label, small, x as i32, y as i32);
            }
        }
        pixels
    }

    /// The top-left pixel of a square.
    pub fn origin(&self, sq: Square, flip: bool) -> (u32, u32) {
        let v = self.variant;
        let (col, row) = if flip {
            (v.files - 1 - sq.file(), sq.rank())
        } else {
            (sq.file(), v.ranks - 1 - sq.rank())
        };
        (
            self.margin + col as u32 * self.square,
            self.header + self.margin + row as u32 * self.square,
        )
    }

    pub fn blit(&self, pixels: &mut [u8], (x, y): (u32, u32), tile: &[u8]) {
        let s = self.square as usize;
        for (row, line) in tile.chunks_exact(s).enumerate() {
            let start = (y as usize + row) * self.width as usize + x as usize;
            pixels[start..start + s].copy_from_slice(line);
        }
    }

    /// Draws text with its centre at (`cx`, `cy`).
    pub fn text_centred(&self, pixels: &mut [u8], text: &str, px: f32, cx: i32, cy: i32) {
        let glyphs: Vec<Glyph> = text.chars().map(|c| self.rasterize(c, px)).collect();
        let width: f32 = glyphs.iter().map(|g| g.advance).sum();
        let scaled = self.font.as_scaled(PxScale::from(px));
        let height = scaled.ascent() - scaled.descent();
        let mut x = cx as f32 - width / 2.0;
        let top = cy as f32 - height / 2.0;
        for g in &glyphs {
            self.draw_glyph(pixels, g, x as i32, top as i32);
            x += g.advance;
        }
    }

    /// Draws a glyph with its layout box's top-left corner at (`x`, `y`).
    pub fn draw_glyph(&self, pixels: &mut [u8], g: &Glyph, x: i32, y: i32) {
        for gy in 0..g.height as i32 {
            let py = y + g.top + gy;
            if py < 0 || py >= self.height as i32 {
                continue;
            }
            for gx in 0..g.width as i32 {
                let px = x + g.left + gx;
                let shade = g.shade[(gy * g.width as i32 + gx) as usize];
                if shade == 0 || px < 0 || px >= self.width as i32 {
                    continue;
                }
                pixels[(py * self.width as i32 + px) as usize] = self.shades[shade as usize];
            }
        }
    }
}

//! A board picture's measures: squares as large as the picture allows, and letters (coordinates
//! and header) that stay legible when a phone shows the picture small.

use ab_glyph::{Font, FontRef, PxScale};

use super::prepare::{FONT, MAX_SIDE};
use crate::rules::Variant;

/// The width a picture is shown at on a phone, and the height its coordinates and header letters
/// keep there at least (the capital height: digits, `A`), in pixels. Every layout is chosen so
/// that the letters stay this tall when the picture is scaled down to that width.
pub const PHONE_WIDTH: u32 = 380;
pub const LETTERS_AT_PHONE: f32 = 9.5;

/// The capital height of the font, as a share of its size.
fn cap_height(font: &FontRef) -> f32 {
    let px = 100.0;
    let glyph = font
        .glyph_id('H')
        .with_scale_and_position(PxScale::from(px), ab_glyph::point(0.0, 0.0));
    font.outline_glyph(glyph)
        .map_or(0.73, |o| o.px_bounds().height() / px)
}

/// A board's measures: the square, the margins, the header and the letters' size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub square: u32,
    pub margin: u32,
    pub header: u32,
    pub label_px: f32,
}

impl Layout {
    pub fn width(&self, v: &Variant) -> u32 {
        2 * self.margin + v.files as u32 * self.square
    }

    pub fn height(&self, v: &Variant) -> u32 {
        self.header + 2 * self.margin + v.ranks as u32 * self.square
    }

    /// The largest squares (at most 64 px) whose picture fits [`MAX_SIDE`] with letters that
    /// keep [`LETTERS_AT_PHONE`] at [`PHONE_WIDTH`]: the letters grow with the board, and the
    /// margins with them (two digits and room on each side).
    pub fn of(v: &Variant) -> Layout {
        let font = FontRef::try_from_slice(FONT).expect("the bundled font loads");
        let cap = cap_height(&font);
        let mut fallback = None;
        for square in (12..=64).rev() {
            let mut label_px = 16.0f32;
            let layout = loop {
                let margin = (label_px * 1.5).ceil() as u32 + 4;
                let header = (label_px.max(22.0) * 2.5).ceil() as u32 + 10;
                let layout = Layout {
                    square,
                    margin,
                    header,
                    label_px,
                };
                let at_phone = cap * label_px * PHONE_WIDTH as f32 / layout.width(v) as f32;
                if at_phone >= LETTERS_AT_PHONE || label_px > 64.0 {
                    break layout;
                }
                label_px += 0.5;
            };
            fallback = Some(layout);
            if layout.width(v).max(layout.height(v)) <= MAX_SIDE {
                return layout;
            }
        }
        fallback.expect("some layout")
    }
}

//! A tournament's crosstable: one row per player in the order of the standings, what they scored
//! against each other player (by place), their points and their Sonneborn-Berger, drawn by
//! `plotters` in a board theme's colours.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{register_font, rgb, rgb_png_with, FAMILY};
use super::theme::Theme;

/// One row of a crosstable.
#[derive(Clone, Debug)]
pub struct CrossRow {
    pub name: String,
    pub withdrawn: bool,
    /// Against each row, by place: the points taken, or none when they have not met.
    pub cells: Vec<Option<String>>,
    pub points: String,
    pub tie_break: String,
}

/// The most rows one picture draws (a tournament has at most 32 players).
pub const MAX_ROWS: usize = 40;
/// The most characters of a name drawn.
const NAME_CHARS: usize = 22;

const ROW: i32 = 28;
const CELL: i32 = 34;
const NAME: i32 = 220;
const PLACE: i32 = 34;
const POINTS: i32 = 56;
const TIE_BREAK: i32 = 64;
const MARGIN: i32 = 14;
const TITLE: i32 = 40;

/// A row's name as drawn: at most [`NAME_CHARS`] characters, and fewer where their width
/// (`width` measures it in pixels) would run into the results, cut with "…"; " (w)" for a
/// player who withdrew.
fn fitted(name: &str, withdrawn: bool, width: impl Fn(&str) -> u32) -> String {
    let chars: Vec<char> = name.chars().filter(|c| !c.is_control()).collect();
    let room = (NAME - 8) as u32;
    let suffix = if withdrawn { " (w)" } else { "" };
    let mut keep = chars.len().min(NAME_CHARS);
    loop {
        let mut shown: String = chars[..keep].iter().collect();
        if keep < chars.len() {
            shown.push('…');
        }
        shown.push_str(suffix);
        if keep == 0 || width(&shown) <= room {
            return shown;
        }
        keep -= 1;
    }
}

/// The crosstable in words: each player's place, points and tie-break.
fn described(title: &str, rows: &[CrossRow]) -> String {
    let places: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let gone = if r.withdrawn { ", withdrawn" } else { "" };
            format!(
                "{}. {}: {} points, tie-break {}{gone}",
                i + 1,
                r.name,
                r.points,
                r.tie_break
            )
        })
        .collect();
    format!("Crosstable of {title}. {}.", places.join("; "))
}

/// Draws the crosstable; `None` when it cannot be drawn.
pub fn crosstable(title: &str, rows: &[CrossRow], theme: Theme) -> Option<Vec<u8>> {
    let rows = &rows[..rows.len().min(MAX_ROWS)];
    let n = rows.len() as i32;
    let width = 2 * MARGIN + PLACE + NAME + n * CELL + POINTS + TIE_BREAK;
    let height = 2 * MARGIN + TITLE + (n + 1) * ROW;
    let (w, h) = (width as u32, height as u32);
    register_font();
    let colours = theme.colours();
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
        root.fill(&rgb(colours.frame))?;
        let text = rgb(colours.text);
        let muted = rgb(colours.grid);
        let left = |s: u32| {
            (FAMILY, s)
                .into_font()
                .color(&text)
                .pos(Pos::new(HPos::Left, VPos::Center))
        };
        let centre = |s: u32| {
            (FAMILY, s)
                .into_font()
                .color(&text)
                .pos(Pos::new(HPos::Center, VPos::Center))
        };
        let title: String = title.chars().take(60).collect();
        root.draw(&Text::new(
            title,
            (MARGIN, MARGIN + TITLE / 2 - 4),
            left(22),
        ))?;
        let top = MARGIN + TITLE;
        let cells_x = MARGIN + PLACE + NAME;
        let points_x = cells_x + n * CELL;
        // The header: each column numbered by place, then the totals.
        for c in 0..n {
            let x = cells_x + c * CELL + CELL / 2;
            root.draw(&Text::new(
                (c + 1).to_string(),
                (x, top + ROW / 2),
                centre(15),
            ))?;
        }
        root.draw(&Text::new(
            "Pts",
            (points_x + POINTS / 2, top + ROW / 2),
            centre(15),
        ))?;
        root.draw(&Text::new(
            "SB",
            (points_x + POINTS + TIE_BREAK / 2, top + ROW / 2),
            centre(15),
        ))?;
        let ink = Ink { text, muted };
        for (r, row) in rows.iter().enumerate() {
            draw_row(&root, row, r as i32, (n, width), ink)?;
        }
        root.present()?;
        Ok(())
    })();
    if let Err(e) = drawn {
        tracing::error!(error = %e, "a crosstable could not be drawn");
        return None;
    }
    // Smoothed text makes more than 256 colours; at 16 levels a channel, the few backgrounds and
    // text colours and the steps between them fit a palette (a third of the RGB file's size).
    let description = described(title, rows);
    Some(
        indexed_png(&pixels, w, h, &description).unwrap_or_else(|| {
            rgb_png_with(&pixels, w, h, png::Compression::Balanced, &description)
        }),
    )
}

/// The two colours of a crosstable's ink: its text, and what is muted (withdrawn players, the
/// cells of a player against themself).
#[derive(Clone, Copy)]
struct Ink {
    text: RGBColor,
    muted: RGBColor,
}

/// Draws place `r`'s row of a crosstable of `n` rows, `width` pixels wide.
fn draw_row(
    root: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    row: &CrossRow,
    r: i32,
    (n, width): (i32, i32),
    Ink { text, muted }: Ink,
) -> Result<(), Box<dyn std::error::Error>> {
    let font = |s: u32, colour: &RGBColor, h: HPos| {
        (FAMILY, s)
            .into_font()
            .color(colour)
            .pos(Pos::new(h, VPos::Center))
    };
    let centre = |s: u32| font(s, &text, HPos::Center);
    let top = MARGIN + TITLE;
    let cells_x = MARGIN + PLACE + NAME;
    let points_x = cells_x + n * CELL;
    let y = top + (r + 1) * ROW;
    // Every other row banded, faintly, so that a row is easy to follow across.
    if r % 2 == 0 {
        root.draw(&Rectangle::new(
            [(MARGIN, y), (width - MARGIN, y + ROW)],
            text.mix(0.08).filled(),
        ))?;
    }
    let mid = y + ROW / 2;
    root.draw(&Text::new(
        (r + 1).to_string(),
        (MARGIN + PLACE / 2, mid),
        centre(15),
    ))?;
    let style = font(15, if row.withdrawn { &muted } else { &text }, HPos::Left);
    let name = fitted(&row.name, row.withdrawn, |t| {
        root.estimate_text_size(t, &style)
            .map_or(u32::MAX, |(w, _)| w)
    });
    root.draw(&Text::new(name, (MARGIN + PLACE + 4, mid), style))?;
    for c in 0..n {
        let x = cells_x + c * CELL;
        if c == r {
            root.draw(&Rectangle::new(
                [(x + 2, y + 2), (x + CELL - 2, y + ROW - 2)],
                muted.filled(),
            ))?;
            continue;
        }
        if let Some(Some(score)) = row.cells.get(c as usize) {
            root.draw(&Text::new(score.clone(), (x + CELL / 2, mid), centre(15)))?;
        }
    }
    root.draw(&Text::new(
        row.points.clone(),
        (points_x + POINTS / 2, mid),
        centre(16),
    ))?;
    root.draw(&Text::new(
        row.tie_break.clone(),
        (points_x + POINTS + TIE_BREAK / 2, mid),
        centre(14),
    ))?;
    Ok(())
}

/// The picture as an indexed PNG of its colours at 16 levels a channel, when there are 256 of
/// them at most.
fn indexed_png(pixels: &[u8], w: u32, h: u32, description: &str) -> Option<Vec<u8>> {
    const NONE: u16 = u16::MAX;
    // Each colour's 12-bit key to its place in the palette.
    let mut place = vec![NONE; 4096];
    let mut palette: Vec<u8> = Vec::with_capacity(256 * 3);
    let mut indexed = Vec::with_capacity(pixels.len() / 3);
    for px in pixels.chunks_exact(3) {
        let key =
            usize::from(px[0] >> 4) << 8 | usize::from(px[1] >> 4) << 4 | usize::from(px[2] >> 4);
        if place[key] == NONE {
            let next = palette.len() / 3;
            if next == 256 {
                return None;
            }
            place[key] = next as u16;
            palette.extend(px.iter().map(|&c| (c & 0xF0) | (c >> 4)));
        }
        indexed.push(place[key] as u8);
    }
    let mut out = Vec::with_capacity(64 * 1024);
    let mut encoder = png::Encoder::new(&mut out, w, h);
    super::encode::describe(&mut encoder, description);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    encoder.set_compression(png::Compression::Balanced);
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(&indexed).ok()?;
    writer.finish().ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_name_is_cut_to_its_column_and_a_narrow_one_to_its_characters() {
        // Wide letters 12 pixels, others 6.
        let width = |t: &str| {
            t.chars()
                .map(|c| if c == 'W' { 12 } else { 6 })
                .sum::<u32>()
        };
        let wide = fitted(&"W".repeat(40), false, width);
        assert!(width(&wide) <= (NAME - 8) as u32, "{wide}");
        assert!(
            wide.ends_with('…') && wide.chars().count() < NAME_CHARS,
            "{wide}"
        );
        let narrow = fitted(&"i".repeat(40), true, width);
        assert_eq!(narrow, format!("{}… (w)", "i".repeat(NAME_CHARS)));
        assert_eq!(fitted("ann\u{7}", false, width), "ann");
    }
}

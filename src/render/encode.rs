//! Encoding: indexed PNG and GIF.
//!
//! The PNG is 8-bit indexed over the theme's palette (about forty colours), filtered with `Up` (a
//! square's rows repeat the row above, so most bytes become zeros) and deflated with the encoder's
//! fast setting. `benches/render.rs` compares the settings: this pair is both the quickest and, but
//! for the much slower adaptive and higher levels, the smallest.

use std::borrow::Cow;

use super::prepare::TRANSPARENT;
use super::Frame;

/// The PNG settings that `png` uses; public so that the benchmark can compare others.
#[derive(Clone, Copy, Debug)]
pub struct PngSettings {
    pub compression: png::Compression,
    pub filter: png::Filter,
}

pub const PNG_SETTINGS: PngSettings = PngSettings {
    compression: png::Compression::Fast,
    filter: png::Filter::Up,
};

/// The PNG keyword of a picture's description in words (its alt text).
const DESCRIPTION: &str = "Description";

/// A picture with its description in words, which travels inside the file (an `iTXt` chunk under
/// PNG's own `Description` keyword): every front end reads the alt text from the picture it was
/// given ([`description_of`]), so none can send a board without it.
pub fn png(frame: &Frame, description: &str) -> Vec<u8> {
    png_described(frame, PNG_SETTINGS, Some(description))
}

pub fn png_with(frame: &Frame, settings: PngSettings) -> Vec<u8> {
    png_described(frame, settings, None)
}

/// Adds a description to an encoder before its header is written.
pub(super) fn describe<W: std::io::Write>(encoder: &mut png::Encoder<W>, description: &str) {
    // A description is a few hundred characters; anything longer is cut at a character.
    let text: String = description.chars().take(MAX_DESCRIPTION).collect();
    encoder
        .add_itxt_chunk(DESCRIPTION.to_string(), text)
        .expect("a keyword of letters is valid");
}

/// Discord's limit on an attachment's description, and so the longest one a picture carries.
pub const MAX_DESCRIPTION: usize = 1024;

/// The description a picture of ours carries, if any (an uncompressed `iTXt` chunk under the
/// `Description` keyword); `None` for any other bytes.
pub fn description_of(png: &[u8]) -> Option<String> {
    let mut rest = png.strip_prefix(b"\x89PNG\r\n\x1a\n")?;
    while rest.len() >= 12 {
        let length = u32::from_be_bytes(rest[..4].try_into().ok()?) as usize;
        let kind = &rest[4..8];
        let data = rest.get(8..8 + length)?;
        if kind == b"IDAT" || kind == b"IEND" {
            return None;
        }
        if kind == b"iTXt" {
            let mut parts = data.splitn(2, |b| *b == 0);
            let keyword = parts.next()?;
            let after = parts.next()?;
            // Compression flag and method, then the language tag and translated keyword.
            if keyword == DESCRIPTION.as_bytes() && after.first() == Some(&0) {
                let mut fields = after.get(2..)?.splitn(3, |b| *b == 0);
                let (_, _, text) = (fields.next()?, fields.next()?, fields.next()?);
                return String::from_utf8(text.to_vec()).ok();
            }
        }
        rest = rest.get(12 + length..)?;
    }
    None
}

fn png_described(frame: &Frame, settings: PngSettings, description: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * 1024);
    let mut encoder = png::Encoder::new(&mut out, frame.width, frame.height);
    if let Some(text) = description {
        describe(&mut encoder, text);
    }
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(frame.prepared.palette.rgb_bytes());
    encoder.set_compression(settings.compression);
    encoder.set_filter(settings.filter);
    let mut writer = encoder
        .write_header()
        .expect("writing to memory cannot fail");
    writer
        .write_image_data(&frame.pixels)
        .expect("the frame's size matches its header");
    writer.finish().expect("writing to memory cannot fail");
    out
}

/// An animated GIF written as its frames come: the first frame whole; then for each turn only the
/// rectangles that changed (the header, and each changed square, neighbours merged), as frames that
/// follow one another within 20 ms, the last carrying the turn's delay. It keeps only the frame
/// before, so memory does not grow with the length of the game; the file itself is capped.
pub struct GifWriter {
    encoder: gif::Encoder<Vec<u8>>,
    previous: Frame,
    max_bytes: usize,
}

/// The GIF would be larger than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge;

impl GifWriter {
    /// Starts a GIF with its first frame, shown for `delay` hundredths of a second.
    pub fn new(first: Frame, delay: u16, max_bytes: usize) -> Result<GifWriter, TooLarge> {
        let palette = first.prepared.palette.rgb_bytes();
        let mut encoder = gif::Encoder::new(
            Vec::new(),
            first.width as u16,
            first.height as u16,
            &palette,
        )
        .expect("writing to memory cannot fail");
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .expect("writing to memory cannot fail");
        let whole = gif::Frame {
            width: first.width as u16,
            height: first.height as u16,
            buffer: Cow::Borrowed(&first.pixels),
            delay,
            ..gif::Frame::default()
        };
        encoder
            .write_frame(&whole)
            .expect("writing to memory cannot fail");
        let writer = GifWriter {
            encoder,
            previous: first,
            max_bytes,
        };
        writer.within_cap()?;
        Ok(writer)
    }

    fn within_cap(&self) -> Result<(), TooLarge> {
        if self.encoder.get_ref().len() > self.max_bytes {
            Err(TooLarge)
        } else {
            Ok(())
        }
    }

    /// Adds the next picture, shown for `delay` hundredths of a second.
    pub fn push(&mut self, frame: Frame, delay: u16) -> Result<(), TooLarge> {
        let rects = changed_rects(&self.previous, &frame);
        let count = rects.len().max(1);
        for k in 0..count {
            let rect = rects.get(k).copied().unwrap_or(Rect {
                x: 0,
                y: 0,
                w: 1,
                h: 1,
            });
            let d = if k + 1 == count { delay } else { 2 };
            let part = sub_frame(&self.previous, &frame, rect, d);
            self.encoder
                .write_frame(&part)
                .expect("writing to memory cannot fail");
        }
        self.previous = frame;
        self.within_cap()
    }

    /// The finished file.
    pub fn finish(self) -> Result<Vec<u8>, TooLarge> {
        let out = self
            .encoder
            .into_inner()
            .expect("writing to memory cannot fail");
        if out.len() > self.max_bytes {
            return Err(TooLarge);
        }
        Ok(out)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

impl Rect {
    fn union(self, o: Rect) -> Rect {
        let (x, y) = (self.x.min(o.x), self.y.min(o.y));
        let (x1, y1) = (
            (self.x + self.w).max(o.x + o.w),
            (self.y + self.h).max(o.y + o.h),
        );
        Rect {
            x,
            y,
            w: x1 - x,
            h: y1 - y,
        }
    }

    fn area(self) -> u32 {
        self.w * self.h
    }
}

/// The regions that differ: the header strip and each board square (margins never change).
fn changed_rects(prev: &Frame, next: &Frame) -> Vec<Rect> {
    let p = &next.prepared;
    let w = next.width;
    let differs = |r: Rect| {
        (r.y..r.y + r.h).any(|y| {
            let start = (y * w + r.x) as usize;
            prev.pixels[start..start + r.w as usize] != next.pixels[start..start + r.w as usize]
        })
    };
    let mut rects: Vec<Rect> = Vec::new();
    // The header: the box of changed pixels in each of its two lines.
    let half = p.header / 2;
    for (top, bottom) in [(0, half), (half, p.header)] {
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for y in top..bottom {
            let start = (y * w) as usize;
            let (a, b) = (
                &prev.pixels[start..start + w as usize],
                &next.pixels[start..start + w as usize],
            );
            if a == b {
                continue;
            }
            let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0) as u32;
            let last = w
                - 1
                - a.iter()
                    .rev()
                    .zip(b.iter().rev())
                    .position(|(p, q)| p != q)
                    .unwrap_or(0) as u32;
            (x0, x1, y0, y1) = (x0.min(first), x1.max(last), y0.min(y), y1.max(y));
        }
        if x0 != u32::MAX {
            rects.push(Rect {
                x: x0,
                y: y0,
                w: x1 - x0 + 1,
                h: y1 - y0 + 1,
            });
        }
    }
    // The board, a band of squares at a time: most bands did not change at all.
    let v = p.variant;
    let s = p.square;
    let (left, top) = (p.margin, p.header + p.margin);
    for band in 0..v.ranks as u32 {
        let y = top + band * s;
        let (from, to) = ((y * w) as usize, ((y + s) * w) as usize);
        if prev.pixels[from..to] == next.pixels[from..to] {
            continue;
        }
        for col in 0..v.files as u32 {
            let r = Rect {
                x: left + col * s,
                y,
                w: s,
                h: s,
            };
            if differs(r) {
                rects.push(r);
            }
        }
    }
    // Merge neighbours while the merged box costs little more than its parts.
    let mut merged = true;
    while merged {
        merged = false;
        'outer: for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                let u = rects[i].union(rects[j]);
                if u.area() * 2 <= (rects[i].area() + rects[j].area()) * 3 {
                    rects[i] = u;
                    rects.swap_remove(j);
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    rects
}

fn sub_frame<'a>(prev: &Frame, next: &Frame, r: Rect, delay: u16) -> gif::Frame<'a> {
    let w = next.width as usize;
    let mut buffer = Vec::with_capacity(r.area() as usize);
    for y in r.y as usize..(r.y + r.h) as usize {
        let start = y * w + r.x as usize;
        let (a, b) = (
            &prev.pixels[start..start + r.w as usize],
            &next.pixels[start..start + r.w as usize],
        );
        buffer.extend(
            a.iter()
                .zip(b)
                .map(|(p, q)| if p == q { TRANSPARENT } else { *q }),
        );
    }
    gif::Frame {
        left: r.x as u16,
        top: r.y as u16,
        width: r.w as u16,
        height: r.h as u16,
        buffer: Cow::Owned(buffer),
        transparent: Some(TRANSPARENT),
        delay,
        dispose: gif::DisposalMethod::Keep,
        ..gif::Frame::default()
    }
}

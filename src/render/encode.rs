//! Encoding: indexed PNG and GIF.
//!
//! The PNG is 8-bit indexed over the theme's palette (about forty colours), filtered with `Sub`
//! (flat runs of one colour become runs of zeros) and deflated with the encoder's fast setting; the
//! benchmark in `benches/render.rs` compares the settings.

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
    filter: png::Filter::Sub,
};

pub fn png(frame: &Frame) -> Vec<u8> {
    png_with(frame, PNG_SETTINGS)
}

pub fn png_with(frame: &Frame, settings: PngSettings) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * 1024);
    let mut encoder = png::Encoder::new(&mut out, frame.width, frame.height);
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

/// An animated GIF: the first frame whole, each later one as the box of pixels that changed, with
/// unchanged pixels inside it transparent.
pub fn gif(frames: &[Frame]) -> Vec<u8> {
    let mut out = Vec::new();
    let Some(first) = frames.first() else {
        return out;
    };
    let palette = first.prepared.palette.rgb_bytes();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, first.width as u16, first.height as u16, &palette)
                .expect("writing to memory cannot fail");
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .expect("writing to memory cannot fail");
        let mut previous: Option<&Frame> = None;
        for (i, frame) in frames.iter().enumerate() {
            let delay = if i + 1 == frames.len() { 400 } else { 80 };
            let gif_frame = match previous {
                None => gif::Frame {
                    width: frame.width as u16,
                    height: frame.height as u16,
                    buffer: Cow::Borrowed(&frame.pixels),
                    delay,
                    ..gif::Frame::default()
                },
                Some(prev) => changed(prev, frame, delay),
            };
            encoder
                .write_frame(&gif_frame)
                .expect("writing to memory cannot fail");
            previous = Some(frame);
        }
    }
    out
}

fn changed<'a>(prev: &Frame, next: &Frame, delay: u16) -> gif::Frame<'a> {
    let w = next.width as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (a, b)) in prev
        .pixels
        .chunks_exact(w)
        .zip(next.pixels.chunks_exact(w))
        .enumerate()
    {
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = w
            - 1
            - a.iter()
                .rev()
                .zip(b.iter().rev())
                .position(|(p, q)| p != q)
                .unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 == usize::MAX {
        // Nothing changed: one transparent pixel keeps the frame's time.
        return gif::Frame {
            width: 1,
            height: 1,
            buffer: Cow::Owned(vec![TRANSPARENT]),
            transparent: Some(TRANSPARENT),
            delay,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
    }
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut buffer = Vec::with_capacity(bw * bh);
    for y in y0..=y1 {
        let row = y * w;
        for x in x0..=x1 {
            let (p, q) = (prev.pixels[row + x], next.pixels[row + x]);
            buffer.push(if p == q { TRANSPARENT } else { q });
        }
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: bw as u16,
        height: bh as u16,
        buffer: Cow::Owned(buffer),
        transparent: Some(TRANSPARENT),
        delay,
        dispose: gif::DisposalMethod::Keep,
        ..gif::Frame::default()
    }
}

//! The chart of a player's ratings over time: one line per variant, in a board theme's colours,
//! drawn by `plotters` into a buffer of our own and written as a PNG.

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::theme::{Rgb, Theme};

/// The chart's size in pixels.
pub const CHART_SIZE: (u32, u32) = (800, 420);
/// The most lines one chart draws (the first ones given); more would not be told apart.
pub const MAX_SERIES: usize = 6;

/// One line: a label and its points, (Unix time, rating), oldest first.
pub struct Series<'a> {
    pub label: &'a str,
    pub points: &'a [(i64, f64)],
}

/// The font the charts write with, registered once with plotters under this name.
pub(super) const FAMILY: &str = "taflbot";

pub(super) fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if plotters::style::register_font(FAMILY, FontStyle::Normal, super::prepare::FONT).is_err()
        {
            tracing::error!("the charts' font does not load");
        }
    });
}

/// The line colours of a theme, one per series.
fn line_colours(theme: Theme) -> [Rgb; MAX_SERIES] {
    let c = theme.colours();
    [c.attacker, c.red, c.ship, c.moved, c.king, c.vee[1]]
}

pub(super) fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// The most points of the longest line for which the chart counts games rather than days: a
/// few games, or games played within two days, read better one step a game than as a stroke on
/// a calendar.
const BY_GAME: usize = 6;

/// Draws the chart; `None` when no series has a point. At most [`MAX_SERIES`] lines. A line's
/// first point is the rating its first game began with.
pub fn rating_chart(title: &str, series: &[Series], theme: Theme) -> Option<Vec<u8>> {
    let series: Vec<&Series> = series
        .iter()
        .filter(|s| !s.points.is_empty())
        .take(MAX_SERIES)
        .collect();
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (first, last) = all().fold((i64::MAX, i64::MIN), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    if first > last {
        return None;
    }
    let longest = series.iter().map(|s| s.points.len()).max().unwrap_or(0);
    let by_game = longest <= BY_GAME || last - first < 2 * 86_400;
    let lines = placed(&series, by_game);
    let (low, high) = all().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let (first, last, with_hours, labels) = x_axis(by_game, longest, first, last);
    // Room around the lines (a single rating still gets a span), and above them for the legend.
    let (low, high) = ((low - 50.0).floor(), (high + 50.0).ceil());
    let legend = (series.len() as f64 * 22.0 + 24.0) / 330.0;
    let high = high + (high - low) * legend / (1.0 - legend);
    register_font();
    let (w, h) = CHART_SIZE;
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    let colours = theme.colours();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = BitMapBackend::with_buffer(&mut pixels, CHART_SIZE).into_drawing_area();
        root.fill(&rgb(colours.frame))?;
        let text = rgb(colours.text);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FAMILY, 24).into_font().color(&text))
            .margin(14)
            .x_label_area_size(34)
            .y_label_area_size(56)
            .build_cartesian_2d(first..last, low..high)?;
        chart.plotting_area().fill(&rgb(colours.square))?;
        let x_label = |t: &i64| -> String {
            match (by_game, *t) {
                (false, t) => moment(t, with_hours),
                (true, 0) => "start".to_string(),
                (true, t) if t > 0 && t < longest as i64 => format!("game {t}"),
                _ => String::new(),
            }
        };
        chart
            .configure_mesh()
            .light_line_style(rgb(colours.square))
            .bold_line_style(rgb(colours.grid).mix(0.35))
            .axis_style(text)
            .label_style((FAMILY, 15).into_font().color(&text))
            .x_labels(labels)
            .y_labels(8)
            .x_label_formatter(&x_label)
            .y_label_formatter(&|r| format!("{r:.0}"))
            .draw()?;
        let palette = line_colours(theme);
        for ((s, points), colour) in series.iter().zip(&lines).zip(palette) {
            let colour = rgb(colour);
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    colour.stroke_width(3),
                ))?
                .label(s.label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))
                });
            chart.draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(rgb(colours.frame).mix(0.85))
            .border_style(text)
            .label_font((FAMILY, 15).into_font().color(&text))
            .draw()?;
        root.present()?;
        Ok(())
    })();
    if let Err(e) = drawn {
        tracing::error!(error = %e, "a rating chart could not be drawn");
        return None;
    }
    Some(rgb_png(&pixels, w, h, &rating_description(title, &series)))
}

/// The rating chart's time axis: its span (room around the lines, a single moment still
/// getting one), whether it shows hours, and how many labels it writes. By game it runs from one
/// before the start to one past the last game.
fn x_axis(by_game: bool, longest: usize, first: i64, last: i64) -> (i64, i64, bool, usize) {
    let (first, last) = if by_game {
        (-1, longest as i64)
    } else {
        (first - 43_200, last.max(first + 86_400) + 43_200)
    };
    // Days on the axis, or hours when the chart spans less than three days.
    let span_days = (last - first) / 86_400;
    let with_hours = span_days < 3;
    // No two labels on one day when they show only the day.
    let labels = if by_game {
        longest + 2
    } else if with_hours {
        5
    } else {
        span_days.min(6) as usize
    };
    (first, last, with_hours, labels)
}

/// Each line's points where the chart puts them: by game, at 0 (its start), 1 (after its first
/// game), ...; else at their moments.
fn placed(series: &[&Series], by_game: bool) -> Vec<Vec<(i64, f64)>> {
    series
        .iter()
        .map(|s| {
            if by_game {
                s.points
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (i as i64, p.1))
                    .collect()
            } else {
                s.points.to_vec()
            }
        })
        .collect()
}

/// The rating chart in words: each line's first and last rating and its games.
fn rating_description(title: &str, series: &[&Series]) -> String {
    let lines: Vec<String> = series
        .iter()
        .map(|s| {
            let (from, to) = (s.points[0].1, s.points[s.points.len() - 1].1);
            let games = s.points.len() - 1;
            let plural = if games == 1 { "game" } else { "games" };
            format!("{}: {from:.0} to {to:.0} over {games} {plural}", s.label)
        })
        .collect();
    format!("{title}. {}.", lines.join("; "))
}

/// A Unix time as a day, `2026-11-23`, or with the hour, `11-23 14:00` (UTC).
fn moment(t: i64, with_hours: bool) -> String {
    let format = if with_hours {
        "%m-%d %H:%M"
    } else {
        "%Y-%m-%d"
    };
    chrono::DateTime::from_timestamp(t, 0)
        .map(|d| d.format(format).to_string())
        .unwrap_or_default()
}

pub(super) fn rgb_png(pixels: &[u8], w: u32, h: u32, description: &str) -> Vec<u8> {
    rgb_png_with(pixels, w, h, png::Compression::Fast, description)
}

/// An RGB picture as a PNG, compressed as asked.
pub(super) fn rgb_png_with(
    pixels: &[u8],
    w: u32,
    h: u32,
    compression: png::Compression,
    description: &str,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * 1024);
    let mut encoder = png::Encoder::new(&mut out, w, h);
    super::encode::describe(&mut encoder, description);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(compression);
    let mut writer = encoder
        .write_header()
        .expect("writing to memory cannot fail");
    writer
        .write_image_data(pixels)
        .expect("the buffer's size matches its header");
    writer.finish().expect("writing to memory cannot fail");
    out
}

/// The chart of a reviewed game: the defenders' chance of winning (0 to 100 %) after turn `first`
/// (the start, for most games) and after each turn since, in the defenders' colour over the
/// attackers'. The axis counts turns as the record numbers them (one number for a turn and its
/// reply, so the point after `2...` stands on 2), with whole numbers only. The marked turns (by
/// their index in `chances`) are dots in the colours players know (`severity` 0 an inaccuracy,
/// yellow; 1 a mistake, orange; 2 a blunder, red), larger the worse, and a legend names them.
/// `None` when it cannot be drawn.
pub fn review_chart(
    title: &str,
    first: usize,
    chances: &[f64],
    marked: &[(usize, u8)],
    theme: Theme,
) -> Option<Vec<u8>> {
    if chances.is_empty() {
        return None;
    }
    register_font();
    let (w, h) = CHART_SIZE;
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    let colours = theme.colours();
    let at = |i: usize| (first + i) as f64 / 2.0;
    let from = at(0);
    let last = at(chances.len() - 1).max(from + 1.0);
    let points: Vec<(f64, f64)> = chances
        .iter()
        .enumerate()
        .map(|(i, c)| (at(i), (c * 100.0).clamp(0.0, 100.0)))
        .collect();
    let ticks = whole_turns(from, last);
    let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = BitMapBackend::with_buffer(&mut pixels, CHART_SIZE).into_drawing_area();
        root.fill(&rgb(colours.frame))?;
        let text = rgb(colours.text);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FAMILY, 22).into_font().color(&text))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(from..last, 0.0..100.0)?;
        chart.plotting_area().fill(&rgb(colours.attacker))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(rgb(colours.grid).mix(0.0))
            .bold_line_style(rgb(colours.grid).mix(0.35))
            .axis_style(text)
            .label_style((FAMILY, 15).into_font().color(&text))
            .x_desc("turn")
            .x_labels(0)
            .y_labels(5)
            .y_label_formatter(&|r| format!("{r:.0} %"))
            .draw()?;
        // The whole turns, written under the axis.
        for &t in &ticks {
            let (x, y) = chart.backend_coord(&(t, 0.0));
            let label = format!("{t:.0}");
            root.draw(&PathElement::new(vec![(x, y), (x, y + 5)], text))?;
            root.draw(&Text::new(
                label.clone(),
                (x - 4 * label.len() as i32, y + 8),
                (FAMILY, 15).into_font().color(&text),
            ))?;
        }
        chart
            .draw_series(AreaSeries::new(
                points.iter().copied(),
                0.0,
                rgb(colours.defender).filled(),
            ))?
            .label("the defenders' chance")
            .legend(move |(x, y)| {
                Rectangle::new(
                    [(x, y - 6), (x + 14, y + 6)],
                    rgb(colours.defender).filled(),
                )
            });
        chart.draw_series(LineSeries::new(
            [(from, 50.0), (last, 50.0)],
            rgb(colours.grid).stroke_width(1),
        ))?;
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            rgb(colours.defender_edge).stroke_width(2),
        ))?;
        draw_marks(&mut chart, &points, marked, colours)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(rgb(colours.frame).mix(0.85))
            .border_style(text)
            .label_font((FAMILY, 15).into_font().color(&text))
            .draw()?;
        root.present()?;
        Ok(())
    })();
    if let Err(e) = drawn {
        tracing::error!(error = %e, "a review chart could not be drawn");
        return None;
    }
    let description = review_description(title, chances, marked);
    Some(rgb_png(&pixels, w, h, &description))
}

/// The review chart in words: the chance at the start and the end, its range, the marks.
fn review_description(title: &str, chances: &[f64], marked: &[(usize, u8)]) -> String {
    let percent = |c: f64| (c * 100.0).round();
    let (start, end) = (chances[0], chances[chances.len() - 1]);
    let (high, low) = chances
        .iter()
        .fold((0.0f64, 1.0f64), |(h, l), c| (h.max(*c), l.min(*c)));
    let kinds = [
        ("inaccuracy", "inaccuracies"),
        ("mistake", "mistakes"),
        ("blunder", "blunders"),
    ];
    let counts: Vec<String> = kinds
        .iter()
        .enumerate()
        .filter_map(|(severity, (one, many))| {
            let n = marked
                .iter()
                .filter(|m| usize::from(m.1.min(2)) == severity)
                .count();
            (n > 0).then(|| format!("{n} {}", if n == 1 { one } else { many }))
        })
        .collect();
    let marks = if counts.is_empty() {
        "no turn marked".to_string()
    } else {
        counts.join(", ")
    };
    format!(
        "{title}: {} % at the start, {} % at the end, between {} % and {} %; {marks}.",
        percent(start),
        percent(end),
        percent(low),
        percent(high)
    )
}

/// The axis's ticks: whole turns only, at most about ten of them.
fn whole_turns(from: f64, last: f64) -> Vec<f64> {
    let span = (last.ceil() - from.floor()).max(1.0) as usize;
    let step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]
        .into_iter()
        .find(|s| span / s <= 10)
        .unwrap_or(1000);
    (from.ceil() as usize..=last.floor() as usize)
        .filter(|t| t % step == 0)
        .map(|t| t as f64)
        .collect()
}

/// The marked turns as dots, one legend entry for each kind of mark the review has.
fn draw_marks(
    chart: &mut ChartContext<
        '_,
        BitMapBackend<'_>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    points: &[(f64, f64)],
    marked: &[(usize, u8)],
    colours: &super::theme::Colours,
) -> Result<(), Box<dyn std::error::Error>> {
    let names = ["inaccuracy ?!", "mistake ?", "blunder ??"];
    for (severity, name) in names.iter().enumerate() {
        let dots: Vec<(f64, f64)> = marked
            .iter()
            .filter(|m| usize::from(m.1.min(2)) == severity)
            .filter_map(|&(i, _)| points.get(i).copied())
            .collect();
        if dots.is_empty() {
            continue;
        }
        let colour = rgb(colours.marks[severity]);
        let edge = rgb(colours.frame);
        let size = 5 + 2 * severity as i32;
        chart.draw_series(
            dots.iter()
                .map(|p| Circle::new(*p, size + 1, edge.filled())),
        )?;
        chart
            .draw_series(dots.iter().map(|p| Circle::new(*p, size, colour.filled())))?
            .label(*name)
            .legend(move |(x, y)| Circle::new((x + 7, y), size, colour.filled()));
    }
    Ok(())
}

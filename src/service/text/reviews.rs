//! The words of a review: each side's accuracy and marks, the marked turns with the better turn,
//! and every turn in a file of its own.

use super::{listed, Style};
use crate::engine::review::{Mark, Review, ReviewedTurn};
use crate::rules::{Side, Variant};
use crate::service::GameReview;

fn percent(chance: f64) -> String {
    format!("{:.0} %", chance * 100.0)
}

/// "2 inaccuracies, 1 mistake, no blunders".
fn marks(counts: [usize; 3]) -> String {
    let named = |n: usize, one: &str, many: &str| match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    };
    format!(
        "{}, {}, {}",
        named(counts[0], "inaccuracy", "inaccuracies"),
        named(counts[1], "mistake", "mistakes"),
        named(counts[2], "blunder", "blunders")
    )
}

/// One turn, numbered as the record numbers it (`index` from 0): "12... defenders d1-d3??
/// (defenders 48 % → 9 %), better f4-f8".
fn turn_line(index: usize, t: &ReviewedTurn, variant: &Variant) -> String {
    let number = crate::notation::TurnNumber::of(index);
    let mark = t.mark.map_or("", Mark::symbol);
    let defenders = |mover_chance: f64| match t.side {
        Side::Defenders => mover_chance,
        Side::Attackers => 1.0 - mover_chance,
    };
    let mut line = format!(
        "{number} {} {}{mark} ({} {} → {})",
        variant.side_name(t.side),
        t.played.join(" "),
        variant.side_name(Side::Defenders),
        percent(defenders(t.before)),
        percent(defenders(t.after)),
    );
    if t.forced {
        line.push_str(", forced");
    }
    if let Some(better) = &t.better {
        line.push_str(&format!(", better {}", better.join(" ")));
    }
    line
}

/// The answer to `/review`: each side's accuracy and marks, then the marked turns.
pub fn review(r: &GameReview, s: &dyn Style) -> String {
    let g = &r.game;
    let side_line = |side: Side| {
        let accuracy = r
            .review
            .accuracy(side)
            .map_or("no turn of choice".to_string(), |a| {
                format!("accuracy {a:.0} %")
            });
        format!(
            "{} ({}): {accuracy}; {}.",
            s.name(&g.players[side]),
            g.variant.side_name(side),
            marks(r.review.marks(side))
        )
    };
    let head = format!(
        "Review of game #{} ({}), every position searched on the same budget:\n{}{}\n{}",
        g.id,
        g.variant.name,
        continued(&r.review),
        side_line(Side::Attackers),
        side_line(Side::Defenders)
    );
    let marked: Vec<String> = r
        .review
        .turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.mark.is_some())
        .map(|(i, t)| s.code(&turn_line(r.review.first + i, t, g.variant)))
        .collect();
    if marked.is_empty() {
        return format!("{head}\nNo turn is marked: neither side gave much away.");
    }
    listed(
        format!("{head}\nMarked turns (?! inaccuracy, ? mistake, ?? blunder):"),
        marked.into_iter(),
    )
}

/// The side whose chance a review's chart and file show: "the defenders", or "Gold" in Save the
/// Standard.
pub fn charted_side(variant: &Variant) -> String {
    let name = variant.side_name(Side::Defenders);
    if name.starts_with(char::is_lowercase) {
        format!("the {name}")
    } else {
        name.to_string()
    }
}

/// Every turn of a review, one a line, for a file.
pub fn review_file(r: &GameReview) -> String {
    let g = &r.game;
    format!(
        "Review of game #{} ({}): the winning chance of {} before and after each turn.\n{}",
        g.id,
        g.variant.name,
        charted_side(g.variant),
        review_turns(&r.review, g.variant)
    )
}

/// For a game continued from a record, a line saying which turns were not reviewed.
fn continued(r: &Review) -> String {
    match r.first {
        0 => String::new(),
        1 => "Turn 1. came from the record the game continued from: not reviewed.\n".into(),
        n => format!(
            "Turns 1. to {} came from the record the game continued from: not reviewed.\n",
            crate::notation::TurnNumber::of(n - 1)
        ),
    }
}

/// Every turn of a review, one a line.
pub fn review_turn_lines(r: &Review, variant: &Variant) -> String {
    let mut out = continued(r);
    for (i, t) in r.turns.iter().enumerate() {
        out.push_str(&turn_line(r.first + i, t, variant));
        out.push('\n');
    }
    out
}

/// Every turn of a review, one a line, then each side's accuracy and marks.
pub fn review_turns(r: &Review, variant: &Variant) -> String {
    let mut out = review_turn_lines(r, variant);
    for side in [Side::Attackers, Side::Defenders] {
        let accuracy = r
            .accuracy(side)
            .map_or("no turn of choice".to_string(), |a| {
                format!("accuracy {a:.0} %")
            });
        out.push_str(&format!(
            "{}: {accuracy}; {}.\n",
            crate::render::capitalise(&variant.the_side(side)),
            marks(r.marks(side))
        ));
    }
    out
}

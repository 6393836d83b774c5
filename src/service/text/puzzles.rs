//! Puzzles: one opened or shown again, a move in it, the daily post and its setting.

use super::Style;
use crate::rating;
use crate::service::{DailyPuzzle, DailySetting, PuzzleShown, PuzzleView, SolveStep, Solving};

/// "Copenhagen, king escape: the attackers to move win in 2."
fn task(p: &PuzzleView) -> String {
    let moves = match p.solver_moves {
        1 => "in one move".to_string(),
        n => format!("in {n} moves"),
    };
    format!(
        "{}, {}: {} to move win {moves}",
        p.variant.name,
        p.theme.name(),
        p.variant.the_side(p.solver)
    )
}

/// How to answer, once or again.
fn how_to_answer(s: &dyn Style) -> String {
    format!(
        "Answer with {}; a wrong move ends the try.",
        s.code("/solve move:e1-e5")
    )
}

/// A puzzle opened (or shown again).
pub fn puzzle_shown(shown: &PuzzleShown, s: &dyn Style) -> String {
    let p = &shown.puzzle;
    let head = if shown.again {
        format!("You have puzzle #{} open. {}.", p.id, task(p))
    } else {
        format!("Puzzle #{}. {}.", p.id, task(p))
    };
    let found = if p.found > 0 {
        format!(
            " You have found {} of the {} moves; the board shows the last reply.",
            p.found, p.solver_moves
        )
    } else {
        String::new()
    };
    let rated = if p.rated {
        format!(" Rated: the puzzle is {}.", rating::shown(&p.rating))
    } else {
        " Not rated: asked for by number, or tried before.".to_string()
    };
    format!("{head}{found}{rated} {}", how_to_answer(s))
}

/// A move in a puzzle and how it went.
pub fn solve_step(step: &SolveStep, s: &dyn Style) -> String {
    let p = &step.puzzle;
    let played = s.code(&step.played);
    let mut out = match &step.how {
        Solving::Right { reply } => {
            let left = p.solver_moves - p.found;
            format!(
                "{played} is right. {} answer {}. {left} more {} to find. {}",
                crate::render::capitalise(&p.variant.the_side(p.solver.other())),
                s.code(reply),
                if left == 1 { "move" } else { "moves" },
                how_to_answer(s)
            )
        }
        Solving::Solved => format!("{played}: puzzle #{} solved!", p.id),
        Solving::Failed {
            solution: Some(solution),
        } => format!(
            "{played} is not it: puzzle #{} failed. The solution was {}.",
            p.id,
            s.code(&solution.join(" "))
        ),
        Solving::Failed { solution: None } => format!(
            "{played} is not it: puzzle #{} failed. Its solution is shown only at the end of a rated try (one taflbot chose for you), so that it cannot be passed to another account; you may try it again by its number in a day.",
            p.id
        ),
    };
    if let Some(change) = step.rating {
        out.push_str(&format!(
            " Your puzzle rating: {} → {} ({}).",
            change.before.round(),
            change.after.round(),
            rating::change(change.before, change.after)
        ));
    } else if !matches!(step.how, Solving::Right { .. }) && !p.rated {
        out.push_str(" Not rated.");
    }
    if !matches!(step.how, Solving::Right { .. }) {
        out.push_str(&format!(" {} opens another.", s.code("/puzzle")));
    }
    out
}

/// The daily puzzle's post.
pub fn daily_puzzle(d: &DailyPuzzle, s: &dyn Style) -> String {
    format!(
        "{} #{}. {}. Press Solve to try it (your moves are seen by you alone), or use {}.",
        s.strong("Daily puzzle"),
        d.puzzle.id,
        task(&d.puzzle),
        s.code(&format!("/puzzle number:{}", d.puzzle.id))
    )
}

/// Where a server's daily puzzle goes now.
pub fn daily_setting(d: &DailySetting, s: &dyn Style) -> String {
    match &d.channel {
        Some(channel) => format!(
            "A puzzle will be posted in {} every day (the first within minutes).",
            s.place(channel)
                .unwrap_or_else(|| "this channel".to_string())
        ),
        None => "The daily puzzle is stopped.".to_string(),
    }
}

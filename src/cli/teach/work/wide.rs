//! `taflbot wide`: trains a variant's wide network on the results of games, from positions files
//! (read a line at a time, so that files of millions of positions are never held whole) and
//! recorded games, and writes it.

use std::io::BufRead;
use std::path::PathBuf;

use crate::cli::CliError;
use crate::engine::eval::mopping_up;
use crate::engine::teach::{quiet, record, result_for_defenders};
use crate::engine::wide::train::{self, Samples, Training};
use crate::engine::wide::UNIT;
use crate::notation::recorded_game;
use crate::rules::{parse_position, Position, Variant};

/// What `taflbot wide` trains.
#[derive(Clone, Debug)]
pub struct WidePlan<'a> {
    pub variant: &'static Variant,
    pub positions: Vec<PathBuf>,
    pub games: Vec<(&'static Variant, PathBuf)>,
    /// Plies of each recorded game left out at its start.
    pub skip: usize,
    /// How much of each position's target is its game's result; the rest is the chance of the
    /// search's score for it where self-play wrote one, on the network's curve.
    pub lambda: f64,
    pub training: Training<'a>,
    /// What the training started from, as the file's header says it.
    pub from_name: String,
}

/// Whether a position is one to learn from: quiet, and not one the mopping-up row judges.
fn wanted(pos: &Position) -> bool {
    quiet(pos) && !mopping_up(pos)
}

/// A position's target: `lambda` of it the result, the rest the chance of the search's score
/// on the network's curve (all the result where there is no score).
fn target(plan: &WidePlan<'_>, result: f64, score: Option<f64>) -> f64 {
    match score {
        Some(score) => {
            let chance = 1.0 / (1.0 + (-score / f64::from(UNIT)).exp());
            plan.lambda * result + (1.0 - plan.lambda) * chance
        }
        None => result,
    }
}

/// The quiet positions of the plan's variant in a `.games` file, of finished games; how many
/// positions before an engine turn it holds (a positions file's lines).
fn from_games_file(
    plan: &WidePlan<'_>,
    path: &std::path::Path,
    samples: &mut Samples,
) -> Result<u64, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
    let mut count = 0;
    record::read(&bytes, |r| {
        count += 1;
        if let (true, Some(result)) = (std::ptr::eq(r.variant, plan.variant), r.result) {
            if wanted(r.position) {
                let score = r.score.map(f64::from);
                samples.push(r.position, result, target(plan, result, score));
            }
        }
    })
    .map_err(|e| CliError::message(format!("{}: {e}", path.display())))?;
    Ok(count)
}

/// The quiet positions of the plan's variant in its positions files, with their games' results
/// (unfinished games left out); how many lines were read.
fn from_positions(plan: &WidePlan<'_>, samples: &mut Samples) -> Result<u64, CliError> {
    let mut lines = 0;
    for path in &plan.positions {
        if path.extension().is_some_and(|e| e == "games") {
            lines += from_games_file(plan, path, samples)?;
            continue;
        }
        let at = |n: usize| format!("{}:{}", path.display(), n + 1);
        let file = std::fs::File::open(path)
            .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line =
                line.map_err(|e| CliError::message(format!("cannot read {}: {e}", at(n))))?;
            lines += 1;
            let fields: Vec<&str> = line.split('\t').collect();
            let [id, position, result, score] = fields[..] else {
                return Err(CliError::message(format!(
                    "{}: expected four fields",
                    at(n)
                )));
            };
            if id != plan.variant.id {
                continue;
            }
            let result = match result {
                "defenders" => 1.0,
                "attackers" => 0.0,
                "draw" => 0.5,
                "unfinished" => continue,
                other => {
                    return Err(CliError::message(format!(
                        "{}: unknown result \"{other}\"",
                        at(n)
                    )))
                }
            };
            let pos = parse_position(plan.variant, position)
                .map_err(|e| CliError::message(format!("{}: {e}", at(n))))?;
            if wanted(&pos) {
                samples.push(&pos, result, target(plan, result, score.parse().ok()));
            }
        }
    }
    Ok(lines)
}

/// The quiet positions of the plan's recorded games of its variant that ended, past the skip.
fn from_games(plan: &WidePlan<'_>, samples: &mut Samples) -> Result<(), CliError> {
    for (v, path) in plan
        .games
        .iter()
        .filter(|(v, _)| std::ptr::eq(*v, plan.variant))
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
        for line in text.lines() {
            let Some((game, winner)) = recorded_game(v, line) else {
                continue;
            };
            let end = line.trim_end();
            let ended = game.outcome().is_some()
                || ["Black", "White", "Draw"].iter().any(|r| end.ends_with(r));
            if !ended {
                continue;
            }
            let result = result_for_defenders(winner);
            let mut pos = Position::start(v);
            let moves = game.turns().iter().flat_map(|t| t.moves.iter());
            for (ply, m) in moves.enumerate() {
                if ply >= plan.skip && wanted(&pos) {
                    samples.push(&pos, result, result);
                }
                match pos.play(m.mv) {
                    Ok((next, _)) => pos = next,
                    Err(_) => break,
                }
            }
        }
    }
    Ok(())
}

/// Trains the network; returns its file's bytes and a report.
pub fn train_wide(plan: &WidePlan<'_>) -> Result<(Vec<u8>, String), CliError> {
    let v = plan.variant;
    let mut samples = Samples::default();
    let started = std::time::Instant::now();
    let lines = from_positions(plan, &mut samples)?;
    from_games(plan, &mut samples)?;
    if samples.is_empty() {
        return Err(CliError::message(format!(
            "no positions of {} to train on",
            v.id
        )));
    }
    let read = started.elapsed().as_secs_f64();
    let t = plan.training;
    let mut progress =
        crate::cli::progress::Progress::new(format!("{}: epochs", v.id), t.epochs as u64);
    let (net, r) = train::train(v, &samples, t, &mut || progress.step());
    progress.finish();
    let header = format!(
        "A wide network trained by `taflbot wide` for {} on {} quiet positions of finished games \
         ({} held out), {} passes from {}, seed {}, lambda {}.\n\
         The error of the chances on the held-out positions: even {:.5}, trained {:.5}, \
         in 16 bits {:.5}.\n\
         See docs/engine.md (\"The wide network\") for the command that made it.",
        v.id,
        r.trained,
        r.held,
        t.epochs,
        plan.from_name,
        t.seed,
        plan.lambda,
        r.even,
        r.float,
        r.quantised,
    );
    let errors = if r.held == 0 {
        "none held out (a block of 200 in 4,000 is)".to_string()
    } else {
        format!(
            "{} held out, their error: even {:.5}, trained {:.5}, in 16 bits {:.5}",
            r.held, r.even, r.float, r.quantised
        )
    };
    let report = format!(
        "{}: {lines} lines read, {} positions trained on, {errors} ({read:.0} s to read, {:.0} s \
         in all)\n",
        v.id,
        r.trained,
        started.elapsed().as_secs_f64(),
    );
    Ok((net.write(&header), report))
}

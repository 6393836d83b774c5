//! The command line's teaching: `taflbot selfplay` writes positions of games the engine plays
//! against itself, and `taflbot tune` fits a set of weights to them and to recorded games. The
//! games and the fit are the engine's ([`crate::engine::teach`]); this reads and writes the files.
//!
//! A positions file has one position a line, tab-separated: the variant's id, the position string,
//! how the game ended (`defenders`, `attackers`, `draw` or `unfinished`), and the search's score
//! for the defenders in hundredths of a man (`-` where there is none, as in a forced line). A
//! positions file named `.games` keeps the games themselves instead, as bytes
//! ([`crate::engine::teach::record`]), some twenty times smaller; `taflbot wide` reads both.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use crate::cli::CliError;
use crate::engine::eval::{mopping_up, Board};
use crate::engine::teach::{self, quiet, result_for_defenders, Example, Fit};
use crate::engine::weights::{self, family_name, Group, WeightSet, Weights, TERMS};
use crate::engine::Eval;
use crate::notation::recorded_game;
use crate::rules::{parse_position, write_position, Family, Side, Variant};

mod net;
mod wide;
pub use net::{tune_net, NetPlan};
pub use wide::{train_wide, WidePlan};

/// What `taflbot selfplay` plays.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub variants: Vec<&'static Variant>,
    /// Games a variant.
    pub games: u64,
    /// Nodes a turn.
    pub nodes: u64,
    /// How each game begins: random turns, and men taken off first.
    pub start: teach::Start,
    pub max_turns: usize,
    /// The first game's seed; game `i` has `seed + i`.
    pub seed: u64,
    pub threads: usize,
    pub eval: Eval,
}

fn result_name(result: Option<Option<Side>>) -> &'static str {
    match result {
        Some(Some(Side::Defenders)) => "defenders",
        Some(Some(Side::Attackers)) => "attackers",
        Some(None) => "draw",
        None => "unfinished",
    }
}

/// Plays the games and appends their positions to `out`; returns a summary a variant.
pub fn self_play(plan: &SelfPlay, out: &Path) -> Result<String, CliError> {
    let cannot =
        |e: std::io::Error| CliError::message(format!("cannot write {}: {e}", out.display()));
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(cannot)?;
    // A `.games` file keeps whole games as bytes (`engine::teach::record`), begun with its
    // magic line when new.
    let games_file = out.extension().is_some_and(|e| e == "games");
    if games_file && file.metadata().map_err(cannot)?.len() == 0 {
        file.write_all(teach::record::MAGIC).map_err(cannot)?;
    }
    let mut summary = String::new();
    let settings = teach::self_play_settings(plan.nodes, plan.eval);
    for &v in &plan.variants {
        let started = std::time::Instant::now();
        let next = AtomicU64::new(0);
        let (send, receive) = mpsc::channel();
        let mut tally = [0u64; 4];
        let mut positions = 0;
        std::thread::scope(|s| -> Result<(), CliError> {
            for _ in 0..plan.threads.max(1) {
                let (send, next) = (send.clone(), &next);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= plan.games {
                        break;
                    }
                    let seed = plan.seed.wrapping_add(i);
                    let played = teach::self_play(v, &settings, plan.start, seed, plan.max_turns);
                    if send.send((i, played)).is_err() {
                        break;
                    }
                });
            }
            drop(send);
            // The games are written in the order of their seeds, whatever order they finish in,
            // so that a file is the same for any number of threads.
            let mut waiting = std::collections::BTreeMap::new();
            let mut due = 0;
            let in_order = receive.into_iter().flat_map(|(i, played)| {
                waiting.insert(i, played);
                let mut ready = Vec::new();
                while let Some(played) = waiting.remove(&due) {
                    ready.push(played);
                    due += 1;
                }
                ready
            });
            let mut progress =
                crate::cli::progress::Progress::new(format!("{}: games", v.id), plan.games);
            for played in in_order {
                progress.step();
                let outcome = played.result();
                let result = result_name(outcome);
                tally[match outcome {
                    Some(Some(Side::Defenders)) => 0,
                    Some(Some(Side::Attackers)) => 1,
                    Some(None) => 2,
                    None => 3,
                }] += 1;
                positions += played.samples.len();
                if games_file {
                    let mut bytes = Vec::new();
                    teach::record::write(&played, &mut bytes);
                    file.write_all(&bytes).map_err(cannot)?;
                    continue;
                }
                let mut text = String::new();
                for s in &played.samples {
                    let score = s.score.map_or("-".to_string(), |s| s.to_string());
                    text += &format!(
                        "{}\t{}\t{result}\t{score}\n",
                        v.id,
                        write_position(&s.position)
                    );
                }
                file.write_all(text.as_bytes()).map_err(cannot)?;
            }
            progress.finish();
            Ok(())
        })?;
        summary += &format!(
            "{}: {} games (defenders {}, attackers {}, drawn {}, unfinished {}), {} positions, {:.0} s\n",
            v.id,
            plan.games,
            tally[0],
            tally[1],
            tally[2],
            tally[3],
            positions,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(summary)
}

/// What `taflbot tune` fits.
#[derive(Clone, Debug)]
pub struct Tune {
    /// Positions files from `taflbot selfplay`.
    pub positions: Vec<PathBuf>,
    /// Game lists (`moves,...,result` a line) and their variant.
    pub games: Vec<(&'static Variant, PathBuf)>,
    /// The families fitted; the others keep the starting set's weights.
    pub families: Vec<Family>,
    /// The set to start from.
    pub from: Eval,
    /// What the starting set was, as the written file's header says it: a set's name or a
    /// file's path.
    pub from_name: String,
    /// Of the target, the game's result; the rest is the search's chance.
    pub lambda: f64,
    pub epochs: usize,
    /// Plies of a recorded game left out at its start (openings are alike, and say little).
    pub skip: usize,
    /// Fit only the terms the starting row weighs (and the bias): a family whose data is thin
    /// or one-sided keeps the shape of its row and only its balance moves.
    pub used_only: bool,
    /// Read the search's scores as they are, not centred by the row's offset: the search's
    /// part of a target then leans to the side with more material at the start.
    pub raw_search: bool,
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))
}

/// Which terms a family's fit leaves alone: material that the family does not have, and the
/// groups the family's boards never count.
fn frozen(family: Family) -> [bool; TERMS] {
    let variants: Vec<&Variant> = Variant::all()
        .iter()
        .filter(|v| v.family == family)
        .collect();
    let mut frozen = [false; TERMS];
    let mut freeze = |g: Group| {
        frozen[g.at()..g.at() + g.width()].fill(true);
    };
    // The unit stays put: an attacker's man (or Infantry) weighs a hundred, so that the scores
    // keep their meaning for the search's margins and the curve's slope.
    let armies = variants.iter().any(|v| v.rules.armies);
    if armies {
        freeze(Group::Man);
        freeze(Group::Commander);
        freeze(Group::OpenRoad);
        freeze(Group::Infantry);
    } else {
        freeze(Group::Infantry);
        freeze(Group::Cavalry);
    }
    if !variants
        .iter()
        .any(|v| v.roles().contains(&crate::rules::Role::Commander))
    {
        freeze(Group::Commander);
    }
    if centred(family) {
        freeze(Group::Bias);
    }
    // The mop-up terms weigh rare endings the data hardly holds; they stay as set by hand.
    freeze(Group::MopUp);
    freeze(Group::CloseIn);
    if !armies {
        frozen[Group::Man.at() + Side::Attackers.index()] = true;
    }
    frozen
}

/// The terms a fit of `row` leaves alone: the family's [`frozen`] ones and, for `used_only`,
/// every term the row weighs at zero (the bias excepted: it follows the curve's offset).
fn frozen_in(family: Family, row: &Weights, used_only: bool) -> [bool; TERMS] {
    let mut frozen = frozen(family);
    if used_only {
        let bias = Group::Bias.at()..Group::Bias.at() + Group::Bias.width();
        for (i, f) in frozen.iter_mut().enumerate() {
            *f |= row.values[i] == 0 && !bias.contains(&i);
        }
    }
    frozen
}

/// Whether all the family's variants take the start off every score (those with draws): a bias
/// never counts there.
fn centred(family: Family) -> bool {
    Variant::all()
        .iter()
        .filter(|v| v.family == family)
        .all(|v| v.rules.repetition == crate::rules::Repetition::Draw || v.rules.no_move_draws)
}

/// Fits the families' weights and returns the new set's file text and a report.
pub fn tune(plan: &Tune) -> Result<(String, String), CliError> {
    let base = plan.from.set().clone();
    let mut rows = base.rows.clone();
    let mut report = String::new();
    // One step a pass over a family's positions: a family without positions passes at once.
    let mut progress = crate::cli::progress::Progress::new(
        "passes of the fit",
        (plan.families.len() * plan.epochs) as u64,
    );
    for &family in &plan.families {
        let row = &base.rows[weights::family_index(family)];
        let raw = examples_of(plan, family)?;
        if raw.is_empty() {
            let _ = std::fmt::Write::write_fmt(
                &mut report,
                format_args!("{}: no positions, weights kept\n", family_name(family)),
            );
            (0..plan.epochs).for_each(|_| progress.step());
        } else {
            let (fitted, said) = fit_family(plan, family, row, &raw, &mut || progress.step());
            report.push_str(&said);
            rows[weights::family_index(family)] = fitted;
        }
    }
    progress.finish();
    let set = WeightSet { rows };
    let families: Vec<&str> = plan.families.iter().map(|f| family_name(*f)).collect();
    let header = format!(
        "The taught weights: made by `taflbot tune` from {}, fitting {}.\n\
         See docs/engine.md (\"How the engine was taught\") for the command that made them.\n\
         Each line is a group of terms and its weights, in hundredths of a man\n\
         (src/engine/weights.rs says what each one counts).",
        plan.from_name,
        families.join(", ")
    );
    Ok((weights::write(&set, &header), report))
}

/// A family's training positions: (variant, position, the game's result for the defenders, the
/// search's score where self-play wrote one), from the positions files and the recorded games.
type Raw = (&'static Variant, crate::rules::Position, f64, Option<i32>);

/// The quiet positions of `family` in the plan's positions files and recorded games.
fn examples_of(plan: &Tune, family: Family) -> Result<Vec<Raw>, CliError> {
    // The examples, first without the search's scores (the slope is fitted to results).
    let mut raw: Vec<Raw> = Vec::new();
    for path in &plan.positions {
        if path.extension().is_some_and(|e| e == "games") {
            let bytes = std::fs::read(path)
                .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
            teach::record::read(&bytes, |r| {
                if r.variant.family == family && quiet(r.position) && !mopping_up(r.position) {
                    let result = r.result.unwrap_or(0.5);
                    raw.push((r.variant, r.position.clone(), result, r.score));
                }
            })
            .map_err(|e| CliError::message(format!("{}: {e}", path.display())))?;
            continue;
        }
        let text = read(path)?;
        for (n, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split('\t').collect();
            let [id, position, result, score] = fields[..] else {
                return Err(CliError::message(format!(
                    "{}:{}: expected four fields",
                    path.display(),
                    n + 1
                )));
            };
            let v: &'static Variant = crate::cli::variant(id)?;
            if v.family != family {
                continue;
            }
            let pos = parse_position(v, position)
                .map_err(|e| CliError::message(format!("{}:{}: {e}", path.display(), n + 1)))?;
            let result = match result {
                "defenders" => 1.0,
                "attackers" => 0.0,
                "draw" | "unfinished" => 0.5,
                other => {
                    return Err(CliError::message(format!(
                        "{}:{}: unknown result \"{other}\"",
                        path.display(),
                        n + 1
                    )))
                }
            };
            let score = score.parse::<i32>().ok();
            if quiet(&pos) && !mopping_up(&pos) {
                raw.push((v, pos, result, score));
            }
        }
    }
    for (v, path) in &plan.games {
        if v.family != family {
            continue;
        }
        for line in read(path)?.lines() {
            let Some((game, winner)) = recorded_game(v, line) else {
                continue;
            };
            let ended = game.outcome().is_some()
                || line.trim_end().ends_with("Black")
                || line.trim_end().ends_with("White")
                || line.trim_end().ends_with("Draw");
            if !ended {
                continue;
            }
            let result = result_for_defenders(winner);
            let mut pos = crate::rules::Position::start(v);
            let moves = game.turns().iter().flat_map(|t| t.moves.iter());
            for (ply, m) in moves.enumerate() {
                if ply >= plan.skip && quiet(&pos) && !mopping_up(&pos) {
                    raw.push((v, pos.clone(), result, None));
                }
                match pos.play(m.mv) {
                    Ok((next, _)) => pos = next,
                    Err(_) => break,
                }
            }
        }
    }
    Ok(raw)
}

/// The positions' examples fitted to results alone, one for each of `raw`.
fn on_results(plan: &Tune, raw: &[Raw]) -> Vec<Example> {
    raw.iter()
        .map(|(v, pos, r, _)| Example::new(Board::with(v, plan.from), pos, *r, None, 0.0, 1.0))
        .collect()
}

/// The positions as examples to fit, their terms taken from `results` (their examples on the
/// results alone): `plan.lambda` of each target is the game's result, the rest the search's
/// chance on the curve of slope `k`, its score moved by `centre` as the row's are (unless the
/// plan reads the search's scores raw).
fn blended(plan: &Tune, raw: &[Raw], results: &[Example], k: f64, centre: i32) -> Vec<Example> {
    assert_eq!(raw.len(), results.len(), "an example for each position");
    raw.iter()
        .zip(results)
        .map(|((_, _, r, s), example)| {
            let s = s.map(|s| if plan.raw_search { s } else { s + centre });
            example.retargeted(*r, s, k, plan.lambda)
        })
        .collect()
}

/// The slope of the curve fitted to `results` with the weights `w`, and how far the scores move
/// to stand centred: where the evaluation is not centred, a score carries the sides' material at
/// the start, and the curve's offset centres the row's scores and the search's scores (on the
/// same scale) alike, so that both parts of a blended target read the same ground.
fn curve(family: Family, results: &[Example], w: &[f64]) -> (f64, i32) {
    let (k, offset) = teach::best_curve(results, w);
    let centre = if centred(family) {
        0
    } else {
        offset.round() as i32
    };
    (k, centre)
}

/// Fits `row` (a family's weights) to its positions; the fitted row and a line on the fit.
fn fit_family(
    plan: &Tune,
    family: Family,
    row: &Weights,
    raw: &[Raw],
    epoch_done: &mut dyn FnMut(),
) -> (Weights, String) {
    let frozen = frozen_in(family, row, plan.used_only);
    let results = on_results(plan, raw);
    // The curve first: its slope is kept through the fit, its offset is where the bias
    // starts (the starting set may have none).
    let mut row = row.clone();
    let mut start: Vec<f64> = row.values.iter().map(|v| f64::from(*v)).collect();
    let (k, centre) = curve(family, &results, &start);
    row.values[Group::Bias.at()] += centre;
    start[Group::Bias.at()] = f64::from(row.values[Group::Bias.at()]);
    let row = &row;
    let examples = blended(plan, raw, &results, k, centre);
    let fit = Fit {
        k,
        epochs: plan.epochs,
        rate: 2.0,
        anchor: 1e-7,
    };
    let (fitted, before, after) = teach::fit(&examples, row, &frozen, fit, epoch_done);
    // The winning-chance curve of the fitted weights, from the results alone.
    let taught: Vec<f64> = fitted.values.iter().map(|v| f64::from(*v)).collect();
    let (slope, _) = teach::best_curve(&results, &taught);
    let said = format!(
        "{}: {} positions, slope {:.5}, error {:.5} -> {:.5}; the fitted weights' slope \
             {:.5}, error on results {:.5} -> {:.5}\n",
        family_name(family),
        examples.len(),
        k,
        before,
        after,
        slope,
        teach::error(&results, &start, k),
        teach::error(&results, &taught, slope),
    );
    (fitted, said)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a family whose evaluation is not centred (TYR), positions whose search scored exactly
    /// what the starting row scores: once the row takes the curve's offset as its bias, the
    /// search's chance of each is the row's own chance. Read raw, every one leans to the
    /// attackers.
    #[test]
    fn the_search_s_scores_are_centred_as_the_row_s_are() {
        use crate::rules::random::{playout, Rng};
        let v = Variant::by_id("tyr-11").unwrap();
        let board = Board::with(v, Eval::Classic);
        let row = Eval::Classic.weights(Family::Tyr);
        let mut raw: Vec<Raw> = Vec::new();
        for seed in 0..12u64 {
            let mut ply = 0;
            let start = crate::rules::Position::start(v);
            playout(&start, &mut Rng::new(seed), 40, |pos, _| {
                ply += 1;
                if ply % 3 == 0 {
                    let score: i32 = board
                        .row(pos)
                        .0
                        .iter()
                        .zip(&row.values)
                        .map(|(x, w)| x * w)
                        .sum();
                    raw.push((v, pos.clone(), 0.5, Some(score)));
                }
            });
        }
        let plan = Tune {
            positions: Vec::new(),
            games: Vec::new(),
            families: vec![Family::Tyr],
            from: Eval::Classic,
            from_name: "classic".into(),
            lambda: 0.0,
            epochs: 50,
            skip: 0,
            used_only: false,
            raw_search: false,
        };
        let (k, centre) = (0.002, 600);
        let mut start: Vec<f64> = row.values.iter().map(|w| f64::from(*w)).collect();
        start[Group::Bias.at()] += f64::from(centre);
        let results = on_results(&plan, &raw);
        let centred = blended(&plan, &raw, &results, k, centre);
        let leaning = blended(
            &Tune {
                raw_search: true,
                ..plan
            },
            &raw,
            &results,
            k,
            centre,
        );
        assert_eq!(centred.len(), raw.len());
        let mut lean = 0.0;
        for (c, l) in centred.iter().zip(&leaning) {
            let own = teach::chance(c.score(&start), k);
            assert!(
                (f64::from(c.target) - own).abs() < 1e-6,
                "{} against {own}",
                c.target
            );
            assert!(l.target < c.target, "{} against {}", l.target, c.target);
            lean += f64::from(c.target - l.target) / raw.len() as f64;
        }
        assert!(lean > 0.2, "{lean}");
    }

    #[test]
    fn a_used_only_fit_freezes_the_terms_its_row_leaves_at_zero() {
        let row = Eval::Classic.weights(Family::Tyr);
        let routes = Group::Routes.at();
        let defenders_man = Group::Man.at() + Side::Defenders.index();
        assert_eq!(row.values[routes], 0, "the classic TYR row has no routes");
        assert_ne!(row.values[defenders_man], 0);
        let all = frozen_in(Family::Tyr, row, false);
        let used = frozen_in(Family::Tyr, row, true);
        assert!(!all[routes], "a whole fit moves the routes");
        assert!(used[routes], "a used-only fit leaves them at zero");
        assert!(
            !used[defenders_man],
            "the defenders' men are weighed, so fitted"
        );
        assert!(!used[Group::Bias.at()], "the bias follows the curve");
        for i in 0..TERMS {
            assert!(
                !all[i] || used[i],
                "term {i}: what a whole fit freezes stays frozen"
            );
            if !used[i] {
                assert!(
                    row.values[i] != 0 || i == Group::Bias.at(),
                    "term {i} is fitted"
                );
            }
        }
    }
}

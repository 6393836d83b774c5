//! The command line. `args.rs` reads it (clap) and runs what it asks; `serve.rs` has the commands
//! that open a database (the bot, the local mode, puzzles, a copy); `teach.rs` the engine's
//! teaching. Here are the commands of the rules and the engine alone: `variants`, `moves`,
//! `replay`, `perft`, `import`, `ai`, `arena`'s games and `render`. Each returns the text to
//! print (or writes its file), or an error that says what was wrong and the exit status it
//! deserves. `render.rs` draws pictures; `docs.rs` writes the book's generated pages.

mod args;
pub mod docs;
pub mod progress;
mod render;
mod serve;
mod teach;

pub use render::render;

pub use args::{parse, run, Args, Command};
pub use teach::{trial_net, trial_weights};

use serde_json::{json, Value};

use crate::notation::{self, canonical, play_turn, status_name, write_move, TurnEnd};
use crate::rules::{parse_position, perft, write_position, Game, Position, Variant};

/// A failure with the exit status it deserves and the text to print.
#[derive(Debug)]
pub struct CliError {
    pub status: i32,
    /// Printed on standard output (JSON errors) or standard error (plain ones).
    pub text: String,
    pub json: bool,
}

impl CliError {
    /// A failure (a file that cannot be read, a run that went wrong): a plain message with exit
    /// status 1.
    pub fn message(text: impl Into<String>) -> CliError {
        CliError {
            status: 1,
            text: text.into(),
            json: false,
        }
    }

    /// A usage error (an argument's value that cannot be used): a plain message with exit status
    /// 2, as clap's own.
    pub fn usage(text: impl Into<String>) -> CliError {
        CliError::plain(text)
    }

    fn plain(text: impl Into<String>) -> CliError {
        CliError {
            status: 2,
            text: text.into(),
            json: false,
        }
    }
}

/// A variant by its id; the refusal names the variants.
pub fn variant(id: &str) -> Result<&'static Variant, CliError> {
    id.parse()
        .map_err(|e: crate::rules::UnknownVariant| CliError::plain(e.to_string()))
}

pub fn start_position(
    variant: &'static Variant,
    position: Option<&str>,
) -> Result<Position, CliError> {
    match position {
        None => Ok(Position::start(variant)),
        Some(text) => parse_position(variant, text).map_err(|e| {
            CliError::plain(format!("the position is not legal for {}: {e}", variant.id))
        }),
    }
}

pub fn variants(json: bool) -> String {
    if json {
        let list: Vec<Value> = Variant::all()
            .iter()
            .map(|v| {
                json!({
                    "id": v.id,
                    "name": v.name,
                    "files": v.files,
                    "ranks": v.ranks,
                    "first": v.side_name(v.first).to_ascii_lowercase(),
                    "setup": v.setup,
                    "summary": v.summary,
                })
            })
            .collect();
        return Value::Array(list).to_string() + "\n";
    }
    let mut out = String::new();
    for v in Variant::all() {
        out.push_str(&format!(
            "{:<18} {:<28} {}x{}\n",
            v.id, v.name, v.files, v.ranks
        ));
    }
    out
}

pub fn moves(variant: &'static Variant, position: Option<&str>) -> Result<String, CliError> {
    let pos = start_position(variant, position)?;
    let mut out = String::new();
    for m in pos.legal_moves() {
        out.push_str(&canonical(&pos, m));
        out.push('\n');
    }
    Ok(out)
}

pub fn perft_counts(
    variant: &'static Variant,
    position: Option<&str>,
    depth: u32,
) -> Result<String, CliError> {
    let pos = start_position(variant, position)?;
    let mut out = String::new();
    for d in 1..=depth {
        out.push_str(&format!("{d} {}\n", perft(&pos, d)));
    }
    Ok(out)
}

/// The game from `position` (or the start) after `turns`, each a whole turn but the last, which
/// may leave a chain or a slot open. A turn that cannot be played is an error with status 1.
fn replayed(
    variant: &'static Variant,
    position: Option<&str>,
    turns: &[String],
    json: bool,
) -> Result<Game, CliError> {
    let start = start_position(variant, position)?;
    let mut game = Game::from_position(start);
    for (i, turn) in turns.iter().enumerate() {
        let end = if i + 1 == turns.len() {
            TurnEnd::MayStayOpen
        } else {
            TurnEnd::Whole
        };
        if let Err(e) = play_turn(&mut game, turn, end) {
            let several = notation::split_moves(turn).len() > 1;
            let message = if several {
                e.to_string()
            } else {
                e.error.to_string()
            };
            return Err(if json {
                CliError {
                    status: 1,
                    text: json!({"error": {"turn": i + 1, "text": turn, "message": message}})
                        .to_string()
                        + "\n",
                    json: true,
                }
            } else {
                CliError {
                    status: 1,
                    text: format!("turn {} (\"{turn}\"): {message}", i + 1),
                    json: false,
                }
            });
        }
    }
    Ok(game)
}

pub fn replay(
    variant: &'static Variant,
    position: Option<&str>,
    turns: &[String],
    json: bool,
) -> Result<String, CliError> {
    let game = replayed(variant, position, turns, json)?;
    let pos = game.position();
    let outcome = game.outcome();
    let turn_list: Vec<Value> = game
        .turns()
        .iter()
        .map(|t| {
            let moves: Vec<String> = t
                .moves
                .iter()
                .map(|p| write_move(p.mv, &p.captures))
                .collect();
            let captures: Vec<String> = t
                .moves
                .iter()
                .flat_map(|p| p.captures.sorted())
                .map(|s| s.to_string())
                .collect();
            json!({"moves": moves, "captures": captures})
        })
        .collect();
    let to_move = variant.side_name(pos.turn()).to_ascii_lowercase();
    let status = status_name(variant, outcome);
    if json {
        let mut obj = json!({
            "variant": variant.id,
            "turns": turn_list,
            "position": write_position(pos),
            "to_move": to_move,
            "status": status,
            "reason": outcome.map(|o| o.reason.as_str()),
        });
        if let Some(slot) = pos.slot() {
            obj["slot"] = json!(slot.as_str());
        }
        return Ok(obj.to_string() + "\n");
    }
    let mut out = String::new();
    for (i, t) in turn_list.iter().enumerate() {
        let moves: Vec<&str> = t["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m.as_str())
            .collect();
        out.push_str(&format!("{:>3}. {}\n", i + 1, moves.join(" ")));
    }
    out.push_str(&notation::diagram(pos));
    out.push_str(&format!("position: {}\n", write_position(pos)));
    match outcome {
        None => {
            let slot = pos
                .slot()
                .map(|s| format!(" ({} slot)", s.as_str()))
                .unwrap_or_default();
            let chain = pos
                .chain()
                .map(|s| format!(" (berserk chain open on {s})"))
                .unwrap_or_default();
            out.push_str(&format!("{to_move} to move{slot}{chain}\n"));
        }
        Some(o) => out.push_str(&format!("{status} ({})\n", o.reason.as_str())),
    }
    Ok(out)
}

/// A plain list of moves (aagenielsen.dk's form) as a game record. Only the moves are read: a
/// corpus line's trailing `,captures,captures,result` fields are ignored.
pub fn import(variant: &'static Variant, text: &str) -> Result<String, CliError> {
    let moves = text.split(',').next().unwrap_or_default();
    let game =
        notation::import_moves(variant, moves).map_err(|e| CliError::message(e.to_string()))?;
    Ok(notation::write_record(&game, &[]))
}

/// `taflbot review`: the engine's review of the turns played from a position (or the start), on
/// the review's budget for a game of that length: each turn with the defenders' chance before
/// and after it, its mark and the better turn, then each side's accuracy; or the same as JSON.
pub fn review(
    variant: &'static Variant,
    position: Option<&str>,
    turns: &[String],
    json: bool,
) -> Result<String, CliError> {
    use crate::engine::review::{budget_for, review_told, Curve, Mark};
    let game = replayed(variant, position, turns, json)?;
    let budget = budget_for(game.turns().len());
    let mut progress = progress::Progress::new("turns reviewed", game.turns().len() as u64);
    let curve = Curve::of(game.variant());
    let r = review_told(&game, 0, &curve, budget, &mut || progress.step());
    progress.finish();
    if !json {
        return Ok(crate::service::text::review_turns(&r, variant));
    }
    let side = |s: crate::rules::Side| variant.side_name(s).to_lowercase();
    let listed: Vec<Value> = r
        .turns
        .iter()
        .map(|t| {
            json!({
                "side": side(t.side),
                "turn": t.played.join(" "),
                "before": t.before,
                "after": t.after,
                "forced": t.forced,
                "mark": t.mark.map(Mark::symbol),
                "better": t.better.as_ref().map(|b| b.join(" ")),
            })
        })
        .collect();
    let accuracy = |s| r.accuracy(s);
    Ok(json!({
        "variant": variant.id,
        "budget": budget,
        "turns": listed,
        "accuracy": {
            "attackers": accuracy(crate::rules::Side::Attackers),
            "defenders": accuracy(crate::rules::Side::Defenders),
        },
    })
    .to_string()
        + "\n")
}

/// `taflbot puzzles`: puzzles cut from recorded games, one a line (`moves[,…,result]`, as the
/// Copenhagen corpus writes them: the result `Black` or `White` for a game that ended by
/// resignation), at most `limit`; JSON lines with `--json`.
pub fn puzzles(
    variant: &'static Variant,
    text: &str,
    limit: usize,
    json: bool,
    mut out: impl std::io::Write,
) -> Result<(), CliError> {
    use crate::engine::puzzle::cut;
    let mut made = 0;
    for line in text.lines() {
        if made >= limit {
            break;
        }
        let Some((game, winner)) = notation::recorded_game(variant, line) else {
            continue;
        };
        let Some(puzzle) = winner.and_then(|w| cut(&game, w)) else {
            continue;
        };
        made += 1;
        let position = write_position(puzzle.game.position());
        let solution = puzzle.written();
        let written = if json {
            json!({
                "variant": variant.id,
                "position": position,
                "solution": solution,
                "theme": puzzle.theme.name(),
            })
            .to_string()
        } else {
            format!(
                "{position} | {} | {}",
                solution.join(" "),
                puzzle.theme.name()
            )
        };
        writeln!(out, "{written}").map_err(|e| CliError::message(format!("cannot write: {e}")))?;
    }
    Ok(())
}

/// How `taflbot ai` should think: a level, or limits of its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct AiOptions {
    pub level: Option<u8>,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub seed: u64,
}

impl AiOptions {
    fn settings(&self) -> Result<crate::engine::Settings, String> {
        use crate::engine::{Limits, Settings, LEVELS};
        let own = self.time_ms.is_some() || self.nodes.is_some() || self.depth.is_some();
        match self.level {
            Some(_) if own => {
                Err("give a level or limits (--time-ms, --nodes, --depth), not both".into())
            }
            Some(level) if !LEVELS.contains(&level) => Err(format!(
                "the level is {} to {}, not {level}",
                LEVELS.start(),
                LEVELS.end()
            )),
            Some(level) => Ok(Settings::level(level, self.seed)),
            None if own => Ok(Settings {
                limits: Limits {
                    depth: self.depth,
                    nodes: self.nodes,
                    time: self.time_ms.map(std::time::Duration::from_millis),
                },
                ..Settings::depth(1)
            }),
            None => Ok(Settings::level(crate::engine::DEFAULT_LEVEL, self.seed)),
        }
    }
}

/// The engine's turn in a position: the moves as `replay` takes them, the score, the depth, the
/// nodes searched and the line it expects.
pub fn ai(
    variant: &'static Variant,
    position: Option<&str>,
    turns: &[String],
    options: AiOptions,
    json: bool,
) -> Result<String, CliError> {
    use crate::engine::{think, written};
    let fail = |message: String| {
        if json {
            CliError {
                status: 1,
                text: json!({ "error": message }).to_string() + "\n",
                json: true,
            }
        } else {
            CliError {
                status: 1,
                text: message,
                json: false,
            }
        }
    };
    let settings = options.settings().map_err(CliError::plain)?;
    let game = match replayed(variant, position, turns, json) {
        Err(e) if json && !e.json => return Err(fail(e.text)),
        other => other?,
    };
    if let Some(o) = game.outcome() {
        return Err(fail(format!(
            "the game is over: {} ({})",
            status_name(variant, Some(o)),
            o.reason.as_str()
        )));
    }
    let thought = think(&game, &settings).map_err(|e| fail(e.to_string()))?;
    let turn = written(&game, &thought.turn);
    let pv = written(&game, &thought.pv);
    let mate_in = thought.mate_in();
    let score = thought.centipawns();
    if json {
        let obj = json!({
            "turn": turn,
            "score": score,
            "mate_in": mate_in,
            "depth": thought.depth,
            "nodes": thought.nodes,
            "nps": thought.nps(),
            "pv": pv,
        });
        return Ok(obj.to_string() + "\n");
    }
    let judged = match (score, mate_in) {
        (_, Some(n)) if n > 0 => format!("wins in {n}"),
        (_, Some(n)) => format!("loses in {}", -n),
        (Some(cp), None) => {
            let side = game.position().turn();
            let chance = crate::engine::review::Curve::of(game.variant()).chance(side, cp);
            format!(
                "score {cp:+} (hundredths of a man), {} for the {}",
                crate::service::text::a_chance(chance),
                game.variant().side_name(side)
            )
        }
        (None, None) => String::new(),
    };
    Ok(format!(
        "{}\n{judged}, depth {}, {} nodes, {} nodes/s\npv: {}\n",
        turn.join(" "),
        thought.depth,
        thought.nodes,
        thought.nps(),
        pv.join(" ")
    ))
}

/// A player of `taflbot arena`: `random`, `greedy` or a level (`3`, `level:3`).
pub fn arena_player(text: &str) -> Result<crate::engine::arena::Player, CliError> {
    use crate::engine::arena::Player;
    use crate::engine::{Eval, Limits, Settings, LEVELS};
    let t = text.trim().to_ascii_lowercase();
    let unknown = || {
        CliError::plain(format!(
            "unknown player \"{text}\"; players are random, greedy, a level 1 to 5, \
             time:MS (milliseconds a step) or nodes:N, each engine player optionally after \
             classic:, taught: or trial: (the weights it judges by; trial is the file given by \
             --trial)"
        ))
    };
    let (eval, spec) = match t.split_once(':') {
        Some((first, rest)) => match Eval::by_name(first) {
            Some(eval) => (Some(eval), rest),
            None => (None, t.as_str()),
        },
        None => (None, t.as_str()),
    };
    let limits = |limits: Limits| {
        Player::Engine(Settings {
            limits,
            eval: eval.unwrap_or_default(),
            ..Settings::depth(1)
        })
    };
    let number = |n: &str| n.parse::<u64>().ok().filter(|n| *n > 0);
    match spec {
        "random" if eval.is_none() => Ok(Player::Random),
        "greedy" if eval.is_none() => Ok(Player::Greedy),
        _ => {
            if let Some(ms) = spec.strip_prefix("time:").and_then(number) {
                return Ok(limits(Limits {
                    time: Some(std::time::Duration::from_millis(ms)),
                    ..Limits::default()
                }));
            }
            if let Some(nodes) = spec.strip_prefix("nodes:").and_then(number) {
                return Ok(limits(Limits::nodes(nodes)));
            }
            let level = spec
                .trim_start_matches("level:")
                .parse::<u8>()
                .ok()
                .filter(|l| LEVELS.contains(l))
                .ok_or_else(unknown)?;
            Ok(match eval {
                Some(eval) => Player::LevelWith(level, eval),
                None => Player::Level(level),
            })
        }
    }
}

/// A match of `taflbot arena`: who plays, how many pairs, and on how many threads.
#[derive(Clone, Copy, Debug)]
pub struct Match {
    pub a: crate::engine::arena::Player,
    pub b: crate::engine::arena::Player,
    pub pairs: u32,
    /// The number of the first pair played (from 0): a long match may be played in parts whose
    /// tallies add up to the whole, since each pair depends only on its number and the seed.
    pub first_pair: u32,
    pub max_turns: usize,
    pub seed: u64,
    /// Pairs played at once; the tally is the same for any number.
    pub threads: usize,
}

/// Pairs of games between two players in every variant named, with the score of the first.
pub fn arena(variants: &[&'static Variant], m: Match) -> String {
    use crate::engine::arena::{run_pair, Tally};
    use std::fmt::Write;
    let mut out = String::new();
    for &v in variants {
        let started = std::time::Instant::now();
        let next = std::sync::atomic::AtomicU32::new(m.first_pair);
        let end = m.first_pair.saturating_add(m.pairs);
        let tally = std::sync::Mutex::new(Tally::default());
        let progress = std::sync::Mutex::new(progress::Progress::new(
            format!("{}: pairs", v.id),
            u64::from(end - m.first_pair),
        ));
        std::thread::scope(|scope| {
            for _ in 0..m.threads.clamp(1, m.pairs.max(1) as usize) {
                scope.spawn(|| loop {
                    let pair = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if pair >= end {
                        break;
                    }
                    let t = run_pair(v, m.a, m.b, pair, m.max_turns, m.seed);
                    tally.lock().unwrap_or_else(|e| e.into_inner()).merge(&t);
                    progress.lock().unwrap_or_else(|e| e.into_inner()).step();
                });
            }
        });
        progress
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish();
        let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
        let part = if m.first_pair == 0 {
            String::new()
        } else {
            format!(" (pairs {} to {})", m.first_pair + 1, end)
        };
        let _ = writeln!(
            out,
            "{:<18} {:>3} games{part}: {:>3} won ({} attacking), {:>3} drawn ({} unfinished: {} with a far ahead, {} with b), {:>3} lost ({} attacking): {:>5.1} % in {:.1?}",
            v.id,
            t.games(),
            t.wins,
            t.wins_attacking,
            t.draws,
            t.unfinished,
            t.unconverted[0],
            t.unconverted[1],
            t.losses,
            t.losses_attacking,
            100.0 * t.score(),
            started.elapsed()
        );
    }
    out
}

/// The command line's declaration, as clap reads it (for its help and its tests).
pub fn command() -> clap::Command {
    <args::Args as clap::CommandFactory>::command()
}

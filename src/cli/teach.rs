//! The engine's teaching from the command line: self-play, tuning, and the arena that measures
//! a set of weights against another.

use super::CliError;
use crate::rules::Variant;

#[derive(clap::Args)]
pub struct ArenaArgs {
    /// Variant ids, or `all`.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub variant: Vec<String>,
    #[arg(long)]
    pub a: String,
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 50)]
    pub pairs: u32,
    /// Start at this pair (from 0), to play a long match in parts: the pairs' tallies add up
    /// to the whole match's.
    #[arg(long, default_value_t = 0)]
    pub first_pair: u32,
    /// A game unfinished after this many turns is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_turns: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pairs played at once, each on a thread of its own; the score is the same for any
    /// number.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A weights file (as `tune` writes) for the players named trial:, to measure a fit
    /// before it is compiled in.
    #[arg(long)]
    pub trial: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// Variant ids, or `all`.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub variant: Vec<String>,
    /// Games a variant.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Nodes the search visits a turn.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    /// Random turns before the engine plays.
    #[arg(long, default_value_t = 3)]
    pub opening: usize,
    /// A game unfinished after this many turns is written as unfinished.
    #[arg(long, default_value_t = 300)]
    pub max_turns: usize,
    /// The first game's seed; game i has seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The weights the engine judges by: classic, taught, or trial (the file of --trial).
    #[arg(long, default_value = "classic")]
    pub eval: String,
    /// A weights file (as `tune` writes) for --eval trial: the next round of teaching plays
    /// with the last round's fit.
    #[arg(long)]
    pub trial: Option<std::path::PathBuf>,
    /// The file the positions are appended to.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(clap::Args)]
pub struct TuneArgs {
    /// Positions files from `selfplay`.
    #[arg(long, value_delimiter = ',')]
    pub positions: Vec<std::path::PathBuf>,
    /// Game lists as VARIANT=FILE (`moves,...,result` a line, as the Copenhagen corpus).
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Families to fit (tyr, odin, sea-battle, tablut, copenhagen, brandubh, standard), or
    /// `all`.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub family: Vec<String>,
    /// The set to start from and to keep for the families not fitted: classic, taught, or
    /// a weights file (as `tune` writes), so that rounds of teaching can be chained.
    #[arg(long, default_value = "classic")]
    pub from: String,
    /// How much of each position's target is its game's result (the rest is the search's
    /// chance), 0 to 1.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Plies of each recorded game left out at its start.
    #[arg(long, default_value_t = 6)]
    pub skip: usize,
    /// Fit only the terms the starting set weighs (and the bias), leaving the others at zero:
    /// for a family whose positions are few or one-sided.
    #[arg(long)]
    pub used_only: bool,
    /// Read the search's chance from its scores as they are, not centred as the row's are: in a
    /// family whose evaluation is not centred, this leans the search's part of each target
    /// towards the side stronger in material at the start (Brandubh's taught row is fitted so).
    #[arg(long)]
    pub raw_search: bool,
    /// Where to write the weights (the taught set is src/engine/weights/taught.txt).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Variants by id, or every one for `all`.
fn variants_named(ids: &[String]) -> Result<Vec<&'static Variant>, CliError> {
    if ids.iter().any(|v| v == "all") {
        return Ok(Variant::all().iter().collect());
    }
    ids.iter().map(|id| super::variant(id)).collect()
}

/// Reads a weights file as the trial set.
fn trial_weights(path: &std::path::Path) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
    let set = crate::engine::weights::read(&text)
        .map_err(|e| CliError::message(format!("{}: {e}", path.display())))?;
    if !crate::engine::weights::set_trial(set) {
        return Err(CliError::message("the trial weights were given too late"));
    }
    Ok(())
}

/// A set of weights by name.
fn eval_named(name: &str) -> Result<crate::engine::Eval, CliError> {
    crate::engine::Eval::by_name(name).ok_or_else(|| {
        CliError::message(format!(
            "unknown weights \"{name}\"; they are classic, taught and trial"
        ))
    })
}

/// Pairs of games between two players, a line per variant as it is done (a whole run takes a
/// while).
pub fn arena(a: ArenaArgs) -> Result<String, CliError> {
    let variants = variants_named(&a.variant)?;
    if let Some(path) = &a.trial {
        trial_weights(path)?;
    }
    let m = super::Match {
        a: super::arena_player(&a.a)?,
        b: super::arena_player(&a.b)?,
        pairs: a.pairs,
        first_pair: a.first_pair,
        max_turns: a.max_turns,
        seed: a.seed,
        threads: a.threads,
    };
    for v in variants {
        print!("{}", super::arena(&[v], m));
        let _ = std::io::Write::flush(&mut std::io::stdout());
    }
    Ok(String::new())
}

/// Self-play games, their positions appended to a file.
pub fn selfplay(a: SelfplayArgs) -> Result<String, CliError> {
    if let Some(path) = &a.trial {
        trial_weights(path)?;
    }
    let plan = crate::teach::SelfPlay {
        variants: variants_named(&a.variant)?,
        games: a.games,
        nodes: a.nodes,
        opening: a.opening,
        max_turns: a.max_turns,
        seed: a.seed,
        threads: a.threads,
        eval: eval_named(&a.eval)?,
    };
    crate::teach::self_play(&plan, &a.out)
}

/// A fit of the weights, written to a file; what it says of the fit.
pub fn tune(a: TuneArgs) -> Result<String, CliError> {
    let families = if a.family.iter().any(|f| f == "all") {
        crate::engine::weights::FAMILIES.to_vec()
    } else {
        a.family
            .iter()
            .map(|f| {
                crate::engine::weights::family_by_name(f)
                    .ok_or_else(|| CliError::message(format!("unknown family \"{f}\"")))
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    let games = a
        .games
        .iter()
        .map(|g| {
            let (id, path) = g
                .split_once('=')
                .ok_or_else(|| CliError::message(format!("\"{g}\": give games as VARIANT=FILE")))?;
            Ok((super::variant(id)?, std::path::PathBuf::from(path)))
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let from = std::path::Path::new(&a.from);
    let plan = crate::teach::Tune {
        positions: a.positions,
        games,
        families,
        from: if from.is_file() {
            trial_weights(from)?;
            crate::engine::Eval::Trial
        } else {
            eval_named(&a.from)?
        },
        from_name: if from.is_file() {
            format!("the weights in {}", from.display())
        } else {
            format!("the `{}` set", a.from)
        },
        lambda: a.lambda.clamp(0.0, 1.0),
        epochs: a.epochs,
        skip: a.skip,
        used_only: a.used_only,
        raw_search: a.raw_search,
    };
    let (text, report) = crate::teach::tune(&plan)?;
    std::fs::write(&a.out, text)
        .map_err(|e| CliError::message(format!("cannot write {}: {e}", a.out.display())))?;
    Ok(report)
}

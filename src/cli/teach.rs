//! The engine's teaching from the command line: self-play, tuning, and the arena that measures
//! a set of weights against another.

use super::CliError;

mod work;
use crate::rules::Variant;

#[derive(clap::Args)]
pub struct ArenaArgs {
    /// Variant ids, or `all`.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    pub variant: Vec<String>,
    /// The first player: random, greedy, a level 1..5, time:MS, nodes:N, or weights before
    /// either (taught:nodes:400, classic:2).
    #[arg(long)]
    pub a: String,
    /// The second player, as --a.
    #[arg(long)]
    pub b: String,
    /// Pairs of games to play (each pair from one random opening, the sides swapped).
    #[arg(long, default_value_t = 50)]
    pub pairs: u32,
    /// Start at this pair (from 0), to play a long match in parts: the pairs' tallies add up
    /// to the whole match's.
    #[arg(long, default_value_t = 0)]
    pub first_pair: u32,
    /// A game unfinished after this many turns is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_turns: usize,
    /// The seed of the first pair's opening; pair i has seed + i.
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
    /// A network file the trial set adds for its variant (as `net` writes), or that is its
    /// whole evaluation there (as `wide` writes), or `none`: the trial row alone (by default
    /// the taught set's networks).
    #[arg(long)]
    pub trial_net: Option<String>,
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
    /// Up to this many random turns more (how many drawn from the game's seed): openings of
    /// many depths.
    #[arg(long, default_value_t = 0)]
    pub spread: usize,
    /// Take up to this many men of one side off the start first (how many, and whose, drawn
    /// from the game's seed): positions with a side far ahead, which games from the start
    /// seldom reach.
    #[arg(long, default_value_t = 0)]
    pub thin: usize,
    /// A game unfinished after this many turns is written as unfinished.
    #[arg(long, default_value_t = 300)]
    pub max_turns: usize,
    /// The first game's seed; game i has seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each on a thread of its own).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The weights the engine judges by: classic, taught, or trial (the file of --trial).
    #[arg(long, default_value = "classic")]
    pub eval: String,
    /// A weights file (as `tune` writes) for --eval trial: the next round of teaching plays
    /// with the last round's fit.
    #[arg(long)]
    pub trial: Option<std::path::PathBuf>,
    /// A network file (as `net` writes) for --eval trial, or `none` (by default the taught
    /// set's networks).
    #[arg(long)]
    pub trial_net: Option<String>,
    /// The file the positions are appended to: text, or the games as bytes where its name ends
    /// in `.games` (about a tenth of the size; `wide` reads both).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// What the engine is taught from: self-play and recorded games.
#[derive(clap::Args)]
pub struct Sources {
    /// Positions files from `selfplay`: text, or games as bytes (`.games`).
    #[arg(long, value_delimiter = ',')]
    pub positions: Vec<std::path::PathBuf>,
    /// Game lists as VARIANT=FILE (`moves,...,result` a line, as the Copenhagen corpus).
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Plies of each recorded game left out at its start.
    #[arg(long, default_value_t = 6)]
    pub skip: usize,
}

#[derive(clap::Args)]
pub struct TuneArgs {
    #[command(flatten)]
    pub sources: Sources,
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
    /// Passes over the positions.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
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

#[derive(clap::Args)]
pub struct NetArgs {
    #[command(flatten)]
    pub sources: Sources,
    /// The variant whose network is trained (beside its family's row).
    #[arg(long, default_value = "copenhagen")]
    pub variant: &'static Variant,
    /// The set whose row the network is trained beside: classic, taught, or a weights file.
    #[arg(long, default_value = "taught")]
    pub from: String,
    /// How much of each position's target is its game's result (the rest is the search's
    /// chance), 0 to 1.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Passes over the positions.
    #[arg(long, default_value_t = 12)]
    pub epochs: usize,
    /// The seed of the starting weights and of the order the positions are shown in.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The pull of the network's output towards zero: its square, in men, times this is added
    /// to each position's loss.
    #[arg(long, default_value_t = 0.003)]
    pub pull: f64,
    /// Where to write the network (the taught set's networks are src/engine/weights/VARIANT.net:
    /// copenhagen.net and odin-11.net).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(clap::Args)]
pub struct WideArgs {
    #[command(flatten)]
    pub sources: Sources,
    /// The variant whose network is trained.
    #[arg(long, default_value = "copenhagen")]
    pub variant: &'static Variant,
    /// A wide network to go on from (the last generation's), instead of random numbers.
    #[arg(long)]
    pub from: Option<std::path::PathBuf>,
    /// How much of each self-play position's target is its game's result, 0 to 1; the rest
    /// is the chance of the search's score.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Passes over the positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Adam's step (the last third of the passes take a tenth of it).
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// Positions a step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// The seed of the starting weights and of the order the positions are shown in.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads sharing each step's positions (the network is the same for a seed and a
    /// number of threads).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Where to write the network (a taught set's wide networks are
    /// src/engine/weights/VARIANT.wide).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Reads a network file (or `none`) as the trial set's network (`--trial-net`, and the engine
/// benchmark's `TAFLBOT_TRIAL_NET`).
pub fn trial_net(name: &str) -> Result<(), CliError> {
    use crate::engine::net::{self, Net, TrialNet};
    let given = if name == "none" {
        TrialNet::Without
    } else {
        let bytes = std::fs::read(name)
            .map_err(|e| CliError::message(format!("cannot read {name}: {e}")))?;
        let bad = |e: String| CliError::message(format!("{name}: {e}"));
        if crate::engine::wide::Wide::is_file(&bytes) {
            TrialNet::Wide(Box::new(
                crate::engine::wide::Wide::read(&bytes).map_err(bad)?,
            ))
        } else {
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("neither a small network's text nor a wide network".into()))?;
            TrialNet::Given(Box::new(Net::read(&text).map_err(bad)?))
        }
    };
    if !net::set_trial(given) {
        return Err(CliError::message("the trial network was given too late"));
    }
    Ok(())
}

/// The trial set's weights file and network (`--trial`, `--trial-net`), where given.
fn trial_given(weights: Option<&std::path::Path>, net: Option<&str>) -> Result<(), CliError> {
    if let Some(path) = weights {
        trial_weights(path)?;
    }
    if let Some(name) = net {
        trial_net(name)?;
    }
    Ok(())
}

/// Variants by id, or every one for `all`.
fn variants_named(ids: &[String]) -> Result<Vec<&'static Variant>, CliError> {
    if ids.iter().any(|v| v == "all") {
        return Ok(Variant::all().iter().collect());
    }
    ids.iter().map(|id| super::variant(id)).collect()
}

/// Reads a weights file as the trial set (`--trial`, and the engine benchmark's `TAFLBOT_TRIAL`).
pub fn trial_weights(path: &std::path::Path) -> Result<(), CliError> {
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
    trial_given(a.trial.as_deref(), a.trial_net.as_deref())?;
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
    trial_given(a.trial.as_deref(), a.trial_net.as_deref())?;
    let plan = work::SelfPlay {
        variants: variants_named(&a.variant)?,
        games: a.games,
        nodes: a.nodes,
        start: crate::engine::teach::Start {
            opening: a.opening,
            spread: a.spread,
            thin: a.thin,
        },
        max_turns: a.max_turns,
        seed: a.seed,
        threads: a.threads,
        eval: eval_named(&a.eval)?,
    };
    work::self_play(&plan, &a.out)
}

/// Families by name, or every one for `all`.
fn families_named(names: &[String]) -> Result<Vec<crate::rules::Family>, CliError> {
    if names.iter().any(|f| f == "all") {
        return Ok(crate::engine::weights::FAMILIES.to_vec());
    }
    names
        .iter()
        .map(|f| {
            crate::engine::weights::family_by_name(f)
                .ok_or_else(|| CliError::message(format!("unknown family \"{f}\"")))
        })
        .collect()
}

/// Game lists given as VARIANT=FILE.
fn games_named(games: &[String]) -> Result<Vec<(&'static Variant, std::path::PathBuf)>, CliError> {
    games
        .iter()
        .map(|g| {
            let (id, path) = g
                .split_once('=')
                .ok_or_else(|| CliError::message(format!("\"{g}\": give games as VARIANT=FILE")))?;
            Ok((super::variant(id)?, std::path::PathBuf::from(path)))
        })
        .collect()
}

/// The set to start from, by name or as a weights file (then the trial set), and how the
/// written file's header names it.
fn from_named(name: &str) -> Result<(crate::engine::Eval, String), CliError> {
    let from = std::path::Path::new(name);
    if from.is_file() {
        trial_weights(from)?;
        Ok((
            crate::engine::Eval::Trial,
            format!("the weights in {}", from.display()),
        ))
    } else {
        Ok((eval_named(name)?, format!("the `{name}` set")))
    }
}

fn write_out(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text)
        .map_err(|e| CliError::message(format!("cannot write {}: {e}", path.display())))
}

/// A fit of the weights, written to a file; what it says of the fit.
pub fn tune(a: TuneArgs) -> Result<String, CliError> {
    let (from, from_name) = from_named(&a.from)?;
    let plan = work::Tune {
        positions: a.sources.positions,
        games: games_named(&a.sources.games)?,
        families: families_named(&a.family)?,
        from,
        from_name,
        lambda: a.lambda.clamp(0.0, 1.0),
        epochs: a.epochs,
        skip: a.sources.skip,
        used_only: a.used_only,
        raw_search: a.raw_search,
    };
    let (text, report) = work::tune(&plan)?;
    write_out(&a.out, &text)?;
    Ok(report)
}

/// A family's network trained beside its row, written to a file; what it says of the training.
pub fn net(a: NetArgs) -> Result<String, CliError> {
    let family = a.variant.family;
    let (from, from_name) = from_named(&a.from)?;
    let plan = work::NetPlan {
        tune: work::Tune {
            positions: a.sources.positions,
            games: games_named(&a.sources.games)?,
            families: vec![family],
            from,
            from_name,
            lambda: a.lambda.clamp(0.0, 1.0),
            epochs: 0,
            skip: a.sources.skip,
            used_only: false,
            raw_search: false,
        },
        variant: a.variant,
        epochs: a.epochs,
        seed: a.seed,
        pull: a.pull.max(0.0),
    };
    let (text, report) = work::tune_net(&plan)?;
    write_out(&a.out, &text)?;
    Ok(report)
}

/// A variant's wide network trained on games' results, written to a file; what it says of the
/// training.
pub fn wide(a: WideArgs) -> Result<String, CliError> {
    let from = match &a.from {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
            let net = crate::engine::wide::Wide::read(&bytes)
                .map_err(|e| CliError::message(format!("{}: {e}", path.display())))?;
            if !std::ptr::eq(net.variant(), a.variant) {
                return Err(CliError::message(format!(
                    "{} is a network for {}, not {}",
                    path.display(),
                    net.variant().id,
                    a.variant.id
                )));
            }
            Some(net)
        }
        None => None,
    };
    let plan = work::WidePlan {
        variant: a.variant,
        positions: a.sources.positions,
        games: games_named(&a.sources.games)?,
        skip: a.sources.skip,
        lambda: a.lambda.clamp(0.0, 1.0),
        training: crate::engine::wide::train::Training {
            from: from.as_ref(),
            epochs: a.epochs,
            rate: a.rate,
            batch: a.batch.max(1),
            seed: a.seed,
            threads: a.threads.max(1),
        },
        from_name: a.from.as_ref().map_or("random numbers".into(), |p| {
            format!("the network in {}", p.display())
        }),
    };
    let (bytes, report) = work::train_wide(&plan)?;
    std::fs::write(&a.out, bytes)
        .map_err(|e| CliError::message(format!("cannot write {}: {e}", a.out.display())))?;
    Ok(report)
}

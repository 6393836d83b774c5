use std::process::ExitCode;

use clap::{Parser, Subcommand};

use taflbot::cli;
use taflbot::rules::Variant;

/// taflbot: tafl games by correspondence, and the rules behind them.
#[derive(Parser)]
#[command(name = "taflbot", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the variants.
    Variants {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print every legal move of a position, one per line, in canonical form.
    Moves {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
        #[arg(long)]
        position: Option<String>,
    },
    /// Play turns from a position and print the result.
    Replay {
        #[arg(long)]
        variant: &'static Variant,
        #[arg(long)]
        position: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// One argument per turn: a move, a berserk chain ("d4-d8 d8-b8"), or a Save-the-Standard
        /// turn of two moves.
        #[arg(allow_hyphen_values = true)]
        turns: Vec<String>,
    },
    /// Draw a position (or the end of replayed turns) as a PNG, or a whole game as a GIF.
    Render {
        #[arg(long)]
        variant: &'static Variant,
        #[arg(long)]
        position: Option<String>,
        /// Turns to play first, one argument each (as for `replay`).
        #[arg(long, num_args = 1..)]
        replay: Vec<String>,
        /// classic or contrast.
        #[arg(long, default_value = "classic")]
        theme: String,
        /// Show the board from the other side (a1 in the top right).
        #[arg(long)]
        flip: bool,
        /// Write an animated GIF of the whole game instead of a PNG.
        #[arg(long)]
        gif: bool,
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Play from the terminal, with the bot's commands: `<user> <command> [options]` per line.
    Local {
        /// The database: a SQLite path or `sqlite:` URL, or a `postgres://` URL (default: $DATABASE_URL, or taflbot.db).
        #[arg(long)]
        db: Option<String>,
        /// Where pictures are written.
        #[arg(long, default_value = "taflbot-images")]
        images: std::path::PathBuf,
    },
    /// Run the bot; with no DISCORD_TOKEN, the local mode.
    Run {
        #[arg(long, default_value = "taflbot-images")]
        images: std::path::PathBuf,
    },
    /// Read a game written as a plain list of moves, as aagenielsen.dk writes them
    /// ("d1-d3 e5-e2 ... a8-b8xb7"), check every move and capture, and print it as a game record.
    Import {
        #[arg(long, default_value = "copenhagen")]
        variant: &'static Variant,
        /// The file holding the moves (default: standard input).
        file: Option<std::path::PathBuf>,
    },
    /// Count the move tree to each depth from 1 to DEPTH.
    Perft {
        #[arg(long)]
        variant: &'static Variant,
        #[arg(long)]
        position: Option<String>,
        depth: u32,
    },
    /// Pairs of games between two players (random, greedy or a level 1..5), sides swapped.
    Arena {
        /// Variant ids, or `all`.
        #[arg(long, default_value = "all", value_delimiter = ',')]
        variant: Vec<String>,
        #[arg(long)]
        a: String,
        #[arg(long)]
        b: String,
        #[arg(long, default_value_t = 50)]
        pairs: u32,
        /// Start at this pair (from 0), to play a long match in parts: the pairs' tallies add up
        /// to the whole match's.
        #[arg(long, default_value_t = 0)]
        first_pair: u32,
        /// A game unfinished after this many turns is a draw.
        #[arg(long, default_value_t = 300)]
        max_turns: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Pairs played at once, each on a thread of its own; the score is the same for any
        /// number.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// A weights file (as `tune` writes) for the players named trial:, to measure a fit
        /// before it is compiled in.
        #[arg(long)]
        trial: Option<std::path::PathBuf>,
    },
    /// Games the engine plays against itself from random openings, for `tune`: their positions
    /// are appended to a file, one a line with the game's result and the search's score.
    Selfplay {
        /// Variant ids, or `all`.
        #[arg(long, default_value = "all", value_delimiter = ',')]
        variant: Vec<String>,
        /// Games a variant.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Nodes the search visits a turn.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        /// Random turns before the engine plays.
        #[arg(long, default_value_t = 3)]
        opening: usize,
        /// A game unfinished after this many turns is written as unfinished.
        #[arg(long, default_value_t = 300)]
        max_turns: usize,
        /// The first game's seed; game i has seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The weights the engine judges by: classic, taught, or trial (the file of --trial).
        #[arg(long, default_value = "classic")]
        eval: String,
        /// A weights file (as `tune` writes) for --eval trial: the next round of teaching plays
        /// with the last round's fit.
        #[arg(long)]
        trial: Option<std::path::PathBuf>,
        /// The file the positions are appended to.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the evaluation's weights to positions from `selfplay` and to recorded games, by
    /// logistic (Texel) tuning a family at a time, and write the set of weights.
    Tune {
        /// Positions files from `selfplay`.
        #[arg(long, value_delimiter = ',')]
        positions: Vec<std::path::PathBuf>,
        /// Game lists as VARIANT=FILE (`moves,...,result` a line, as the Copenhagen corpus).
        #[arg(long, value_delimiter = ',')]
        games: Vec<String>,
        /// Families to fit (tyr, odin, sea-battle, tablut, copenhagen, brandubh, standard), or
        /// `all`.
        #[arg(long, default_value = "all", value_delimiter = ',')]
        family: Vec<String>,
        /// The set to start from and to keep for the families not fitted: classic, taught, or
        /// a weights file (as `tune` writes), so that rounds of teaching can be chained.
        #[arg(long, default_value = "classic")]
        from: String,
        /// How much of each position's target is its game's result (the rest is the search's
        /// chance), 0 to 1.
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// Plies of each recorded game left out at its start.
        #[arg(long, default_value_t = 6)]
        skip: usize,
        /// Where to write the weights (the taught set is src/engine/weights/taught.txt).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// The engine's turn: from a position (or the start) after the given turns.
    Ai {
        #[arg(long)]
        variant: &'static Variant,
        #[arg(long)]
        position: Option<String>,
        /// Turns to play first, each as `replay` takes them.
        #[arg(long, num_args = 1.., allow_hyphen_values = true)]
        replay: Vec<String>,
        /// Strength, 1 (weakest) to 5; 3 unless limits are given.
        #[arg(long)]
        level: Option<u8>,
        /// Stop after this many milliseconds.
        #[arg(long)]
        time_ms: Option<u64>,
        /// Stop after this many positions.
        #[arg(long)]
        nodes: Option<u64>,
        /// Search this many plies deep.
        #[arg(long)]
        depth: Option<u32>,
        /// Seed for the weaker levels' chance.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The engine's review of a game: each turn's winning chances before and after, marked
    /// ?! (inaccuracy), ? (mistake) or ?? (blunder) with the better turn, and each side's accuracy.
    Review {
        #[arg(long)]
        variant: &'static Variant,
        #[arg(long)]
        position: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// One argument per turn, as for `replay`.
        #[arg(allow_hyphen_values = true)]
        turns: Vec<String>,
    },
    /// Puzzles cut from recorded games: positions where the side to move wins by force with one
    /// first move only. FILE has a game a line, as aagenielsen.dk writes moves (a last field
    /// `Black` or `White` names the winner of a game ended by resignation).
    Puzzles {
        #[arg(long, default_value = "copenhagen")]
        variant: &'static Variant,
        #[arg(long)]
        from: std::path::PathBuf,
        /// Stop after this many puzzles.
        #[arg(long, default_value_t = usize::MAX)]
        limit: usize,
        /// Print JSON lines: {"variant", "position", "solution", "theme"}.
        #[arg(long)]
        json: bool,
    },
    /// Store puzzles in the database: cut from recorded games (one a line, as the Copenhagen
    /// corpus writes them), or read from JSON lines as `puzzles --json` writes them (each checked
    /// again). Without --from, every puzzle of the Copenhagen corpus taflbot carries (as the bot
    /// does in the background on its first start; this takes several minutes).
    ImportPuzzles {
        /// The database: a SQLite path or `sqlite:` URL, or a `postgres://` URL (default: $DATABASE_URL, or taflbot.db).
        #[arg(long)]
        db: Option<String>,
        /// The variant of the games in the file (JSON lines name their own).
        #[arg(long, default_value = "copenhagen")]
        variant: &'static Variant,
        #[arg(long)]
        from: Option<std::path::PathBuf>,
        /// Stop after this many puzzles found in the file.
        #[arg(long, default_value_t = usize::MAX)]
        limit: usize,
    },
    /// Copy every table of one database into another that is empty: SQLite to PostgreSQL or
    /// back, in one transaction, with the row counts checked. Stop the bot first.
    CopyDb {
        /// The database to copy: a SQLite path or `sqlite:` URL, or a `postgres://` URL.
        #[arg(long)]
        from: String,
        /// The empty database to copy into (its schema is made if missing).
        #[arg(long)]
        to: String,
    },
}

fn run(args: Args) -> Result<String, cli::CliError> {
    match args.command {
        Command::Variants { json } => Ok(cli::variants(json)),
        Command::Moves { variant, position } => cli::moves(variant, position.as_deref()),
        Command::Replay {
            variant,
            position,
            json,
            turns,
        } => cli::replay(variant, position.as_deref(), &turns, json),
        Command::Render {
            variant,
            position,
            replay,
            theme,
            flip,
            gif,
            out,
        } => cli::render(
            variant,
            position.as_deref(),
            &replay,
            &theme,
            flip,
            gif,
            &out,
        ),
        Command::Puzzles {
            variant,
            from,
            limit,
            json,
        } => {
            let text = std::fs::read_to_string(&from).map_err(|e| {
                cli::CliError::message(format!("cannot read {}: {e}", from.display()))
            })?;
            // Each puzzle as it is found: a long file takes a while.
            cli::puzzles(variant, &text, limit, json, std::io::stdout().lock())?;
            Ok(String::new())
        }
        Command::Review {
            variant,
            position,
            json,
            turns,
        } => cli::review(variant, position.as_deref(), &turns, json),
        Command::Perft {
            variant,
            position,
            depth,
        } => cli::perft_counts(variant, position.as_deref(), depth),
        Command::Ai {
            variant,
            position,
            replay,
            level,
            time_ms,
            nodes,
            depth,
            seed,
            json,
        } => {
            let options = cli::AiOptions {
                level,
                time_ms,
                nodes,
                depth,
                seed,
            };
            cli::ai(variant, position.as_deref(), &replay, options, json)
        }
        Command::Arena {
            variant,
            a,
            b,
            pairs,
            first_pair,
            max_turns,
            seed,
            threads,
            trial,
        } => {
            let variants = variants_named(&variant)?;
            if let Some(path) = trial {
                trial_weights(&path)?;
            }
            let m = cli::Match {
                a: cli::arena_player(&a)?,
                b: cli::arena_player(&b)?,
                pairs,
                first_pair,
                max_turns,
                seed,
                threads,
            };
            // A line per variant as it is done: a whole run takes a while.
            for v in variants {
                print!("{}", cli::arena(&[v], m));
                let _ = std::io::Write::flush(&mut std::io::stdout());
            }
            Ok(String::new())
        }
        Command::Selfplay {
            variant,
            games,
            nodes,
            opening,
            max_turns,
            seed,
            threads,
            eval,
            trial,
            out,
        } => {
            if let Some(path) = trial {
                trial_weights(&path)?;
            }
            let plan = taflbot::teach::SelfPlay {
                variants: variants_named(&variant)?,
                games,
                nodes,
                opening,
                max_turns,
                seed,
                threads,
                eval: eval_named(&eval)?,
            };
            taflbot::teach::self_play(&plan, &out)
        }
        Command::Tune {
            positions,
            games,
            family,
            from,
            lambda,
            epochs,
            skip,
            out,
        } => {
            let families = if family.iter().any(|f| f == "all") {
                taflbot::engine::weights::FAMILIES.to_vec()
            } else {
                family
                    .iter()
                    .map(|f| {
                        taflbot::engine::weights::family_by_name(f).ok_or_else(|| {
                            cli::CliError::message(format!("unknown family \"{f}\""))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?
            };
            let games = games
                .iter()
                .map(|g| {
                    let (id, path) = g.split_once('=').ok_or_else(|| {
                        cli::CliError::message(format!("\"{g}\": give games as VARIANT=FILE"))
                    })?;
                    Ok((cli::variant(id)?, std::path::PathBuf::from(path)))
                })
                .collect::<Result<Vec<_>, cli::CliError>>()?;
            let plan = taflbot::teach::Tune {
                positions,
                games,
                families,
                from: if std::path::Path::new(&from).is_file() {
                    trial_weights(std::path::Path::new(&from))?;
                    taflbot::engine::Eval::Trial
                } else {
                    eval_named(&from)?
                },
                lambda: lambda.clamp(0.0, 1.0),
                epochs,
                skip,
            };
            let (text, report) = taflbot::teach::tune(&plan)?;
            std::fs::write(&out, text).map_err(|e| {
                cli::CliError::message(format!("cannot write {}: {e}", out.display()))
            })?;
            Ok(report)
        }
        Command::Import { variant, file } => {
            let text = match file {
                Some(path) => std::fs::read_to_string(&path).map_err(|e| {
                    cli::CliError::message(format!("cannot read {}: {e}", path.display()))
                })?,
                None => std::io::read_to_string(std::io::stdin())
                    .map_err(|e| cli::CliError::message(format!("cannot read the input: {e}")))?,
            };
            cli::import(variant, &text)
        }
        Command::Local { db, images } => local(db, &images),
        Command::CopyDb { from, to } => copy_db(&from, &to),
        Command::ImportPuzzles {
            db,
            variant,
            from,
            limit,
        } => import_puzzles(db, variant, from.as_deref(), limit),
        Command::Run { images } => match taflbot::discord::Config::from_env() {
            Ok(Some(config)) => bot(config),
            Ok(None) => {
                eprintln!("DISCORD_TOKEN is not set: starting the local mode (see the README).");
                local(None, &images)
            }
            Err(e) => Err(cli::CliError::message(e)),
        },
    }
}

fn database_url(db: Option<String>) -> String {
    db.or_else(|| std::env::var("DATABASE_URL").ok())
        .unwrap_or_else(|| taflbot::store::DEFAULT_DATABASE.to_string())
}

/// The runtime of the local mode and the bot.
fn runtime() -> Result<tokio::runtime::Runtime, cli::CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| cli::CliError::message(format!("cannot start: {e}")))
}

/// The local mode on the database, reading standard input.
fn local(db: Option<String>, images: &std::path::Path) -> Result<String, cli::CliError> {
    use std::io::IsTerminal;
    let runtime = runtime()?;
    runtime.block_on(async {
        let service = open_service(&database_url(db)).await?;
        let stdin = std::io::stdin();
        let interactive = stdin.is_terminal();
        // At a terminal, puzzles are made in the background as the bot makes them (a script's
        // short session leaves them be).
        let (_stop, stopped) = tokio::sync::watch::channel(false);
        if interactive {
            service.spawn_puzzle_maker(std::time::Duration::from_secs(60), true, stopped);
        }
        let mut out = std::io::stdout();
        taflbot::local::run(&service, stdin.lock(), &mut out, images, interactive)
            .await
            .map_err(|e| cli::CliError::message(format!("local mode stopped: {e}")))?;
        Ok(String::new())
    })
}

/// `taflbot import-puzzles`: a file's puzzles, or the corpus's batch after batch.
fn import_puzzles(
    db: Option<String>,
    variant: &'static Variant,
    from: Option<&std::path::Path>,
    limit: usize,
) -> Result<String, cli::CliError> {
    let runtime = runtime()?;
    runtime.block_on(async {
        let service = open_service(&database_url(db)).await?;
        let failed = |e: taflbot::service::ServiceError| {
            cli::CliError::message(format!("puzzles not stored: {e}"))
        };
        let Some(path) = from else {
            use taflbot::service::{Progress, CORPUS};
            let before = service.puzzle_count().await.map_err(failed)?;
            loop {
                match service.cut_corpus(CORPUS).await.map_err(failed)? {
                    Progress::Worked => {}
                    Progress::Done => break,
                    Progress::Busy => {
                        return Err(cli::CliError::message(
                            "another process is cutting the corpus now: it will finish it",
                        ))
                    }
                }
            }
            let after = service.puzzle_count().await.map_err(failed)?;
            return Ok(format!(
                "the corpus is cut: {} new puzzles, {after} in all\n",
                after - before
            ));
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| cli::CliError::message(format!("cannot read {}: {e}", path.display())))?;
        let (new, problems) = service
            .import_puzzles(variant, &text, limit)
            .await
            .map_err(failed)?;
        let mut out = format!("{new} new puzzles stored\n");
        for p in problems.iter().take(10) {
            out.push_str(&format!("not used: {p}\n"));
        }
        if problems.len() > 10 {
            out.push_str(&format!(
                "and {} more lines not used\n",
                problems.len() - 10
            ));
        }
        Ok(out)
    })
}

/// `taflbot copy-db`: opens both databases (bringing their schemas up to date) and copies.
fn copy_db(from: &str, to: &str) -> Result<String, cli::CliError> {
    use taflbot::store;
    let runtime = runtime()?;
    runtime.block_on(async {
        let source = store::open(from).await.map_err(|e| {
            cli::CliError::message(format!("cannot open {}: {e}", store::shown(from)))
        })?;
        let target = store::open(to).await.map_err(|e| {
            cli::CliError::message(format!("cannot open {}: {e}", store::shown(to)))
        })?;
        let copied = store::copy::copy(&source, &target).await.map_err(|e| {
            cli::CliError::message(format!(
                "nothing copied from {} to {}: {e}",
                store::shown(from),
                store::shown(to)
            ))
        })?;
        source.close().await;
        target.close().await;
        let rows: Vec<String> = copied.iter().map(|(t, n)| format!("{t} {n}")).collect();
        Ok(format!(
            "Copied {} to {}: {}.\n",
            store::shown(from),
            store::shown(to),
            rows.join(", ")
        ))
    })
}

/// Opens the database and builds the service on it.
async fn open_service(url: &str) -> Result<taflbot::service::Service, cli::CliError> {
    let pool = taflbot::store::open(url).await.map_err(|e| {
        cli::CliError::message(format!(
            "cannot open the database {}: {e}",
            taflbot::store::shown(url)
        ))
    })?;
    let service =
        taflbot::service::Service::new(pool, std::sync::Arc::new(taflbot::service::SystemClock));
    // How long claims on shared work last, and vacation days a year: from the environment, or
    // the defaults.
    let service = match number_from_env("TAFLBOT_LEASE_SECONDS", 1..=3600, "seconds")? {
        Some(seconds) => service.with_lease(seconds),
        None => service,
    };
    Ok(
        match number_from_env("TAFLBOT_VACATION_DAYS", 0..=366, "days")? {
            Some(days) => service.with_vacation_days(days as u32),
            None => service,
        },
    )
}

/// A whole number from the environment variable `name`, within `range` (of `unit`); `None` when
/// it is not set.
fn number_from_env(
    name: &str,
    range: std::ops::RangeInclusive<i64>,
    unit: &str,
) -> Result<Option<i64>, cli::CliError> {
    let Ok(text) = std::env::var(name) else {
        return Ok(None);
    };
    match text.trim().parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(Some(n)),
        _ => Err(cli::CliError::message(format!(
            "{name} must be a number of {unit} from {} to {}, not {text:?}",
            range.start(),
            range.end()
        ))),
    }
}

/// The Discord bot, until Ctrl-C or SIGTERM.
fn bot(config: taflbot::discord::Config) -> Result<String, cli::CliError> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,taflbot=info")),
        )
        .init();
    let runtime = runtime()?;
    runtime.block_on(async {
        let service = open_service(&database_url(None)).await?;
        let pool = service.pool().clone();
        let ran = taflbot::discord::run(config, service).await;
        pool.close().await;
        ran.map_err(|e| cli::CliError::message(e.to_string()))?;
        Ok(String::new())
    })
}

fn main() -> ExitCode {
    let result = run(Args::parse());
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            if e.json {
                print!("{}", e.text);
            } else {
                eprintln!("taflbot: {}", e.text);
            }
            ExitCode::from(e.status as u8)
        }
    }
}

/// Variants by id, or every one for `all`.
fn variants_named(ids: &[String]) -> Result<Vec<&'static Variant>, cli::CliError> {
    if ids.iter().any(|v| v == "all") {
        return Ok(Variant::all().iter().collect());
    }
    ids.iter().map(|id| cli::variant(id)).collect()
}

/// Reads a weights file as the trial set.
fn trial_weights(path: &std::path::Path) -> Result<(), cli::CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| cli::CliError::message(format!("cannot read {}: {e}", path.display())))?;
    let set = taflbot::engine::weights::read(&text)
        .map_err(|e| cli::CliError::message(format!("{}: {e}", path.display())))?;
    if !taflbot::engine::weights::set_trial(set) {
        return Err(cli::CliError::message(
            "the trial weights were given too late",
        ));
    }
    Ok(())
}

/// A set of weights by name.
fn eval_named(name: &str) -> Result<taflbot::engine::Eval, cli::CliError> {
    taflbot::engine::Eval::by_name(name).ok_or_else(|| {
        cli::CliError::message(format!(
            "unknown weights \"{name}\"; they are classic, taught and trial"
        ))
    })
}

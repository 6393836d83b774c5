//! The command line: every subcommand and its options (clap), and what runs each.

use clap::{Parser, Subcommand};

use super::serve::{copy_db, import_puzzles, local, serve};
use super::teach::{
    arena, net, selfplay, tune, wide, ArenaArgs, NetArgs, SelfplayArgs, TuneArgs, WideArgs,
};
use super::CliError;
use crate::rules::Variant;

/// taflbot: a self-hosted Discord bot for tafl by correspondence (Copenhagen and Fetlar, Tablut,
/// Brandubh, TYR, ODIN, Sea Battle and Save the Standard), its local mode, and the tools of its
/// rules and engine.
#[derive(Parser)]
#[command(
    name = "taflbot",
    version,
    about,
    long_about = None,
    after_help = "Example: taflbot run (the bot with DISCORD_TOKEN set; without it, the local mode). The book: docs/README.md."
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// The help of every `--db`.
const DB_HELP: &str = "The database: a SQLite path or `sqlite:` URL, or a `postgres://` URL (default: $DATABASE_URL, or taflbot.db)";

/// The environment `run` reads, shown in its help.
const RUN_ENVIRONMENT: &str = "Environment:
  DISCORD_TOKEN           the bot's token; without it, the local mode
  DATABASE_URL            a SQLite path or sqlite: URL (default taflbot.db), or a postgres:// URL
  TAFLBOT_SHARDS          FIRST-LAST/TOTAL: the shards this process runs (default: all)
  TAFLBOT_LEASE_SECONDS   how long a claim on shared work lasts (default 120)
  DISCORD_GUILD_ID        register the commands in this server only (for development)
  DISCORD_API_BASE        send REST calls through a proxy such as twilight-http-proxy
  TAFLBOT_VACATION_DAYS   vacation days per player and year (default 14)
  TAFLBOT_CORPUS_PUZZLES  off: leave the Copenhagen corpus uncut
  RUST_LOG                the log filter (default warn,taflbot=info); logs go to stderr
  NO_COLOR                no colour in logs (colour only at a terminal anyway)

Example: DISCORD_TOKEN=... taflbot run --db taflbot.db";

#[derive(Subcommand)]
pub enum Command {
    /// List the variants.
    #[command(after_help = "Example: taflbot variants --json")]
    Variants {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print every legal move of a position, one per line, in canonical form.
    #[command(after_help = "Example: taflbot moves --variant brandubh")]
    Moves {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
        #[arg(long)]
        position: Option<String>,
    },
    /// Play turns from a position and print the result.
    #[command(after_help = "Example: taflbot replay --variant copenhagen d1-d3 e5-e2")]
    Replay {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
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
    #[command(
        after_help = "Example: taflbot render --variant tyr-11 --replay d1-d3 --theme contrast --out board.png"
    )]
    Render {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
        #[arg(long)]
        position: Option<String>,
        /// Turns to play first, one argument each (as for `replay`).
        #[arg(long, num_args = 1..)]
        replay: Vec<String>,
        /// classic, contrast or colour-blind.
        #[arg(long, default_value = "classic")]
        theme: String,
        /// Show the board from the other side (a1 in the top right).
        #[arg(long)]
        flip: bool,
        /// Write an animated GIF of the whole game instead of a PNG.
        #[arg(long)]
        gif: bool,
        /// The file to write: a .png, or a .gif with --gif.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Play from the terminal, with the bot's commands: `<user> <command> [options]` per line.
    #[command(
        after_help = "Example: taflbot local --db game.db (then type: alice challenge @bob variant:brandubh)"
    )]
    Local {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Where pictures are written (each under a name of its own, never over another).
        #[arg(long, default_value = "taflbot-images")]
        images: std::path::PathBuf,
        /// Write boards with the position string's letters (t an attacker, T a defender, K the king) instead of Unicode signs (always so where the locale, LC_ALL, LC_CTYPE or LANG, is not UTF-8).
        #[arg(long)]
        ascii: bool,
    },
    /// Run the bot; with no DISCORD_TOKEN, the local mode.
    #[command(after_help = RUN_ENVIRONMENT)]
    Run {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Where the local mode writes pictures.
        #[arg(long, default_value = "taflbot-images")]
        images: std::path::PathBuf,
        /// The local mode: boards with letters instead of Unicode signs (always so where the locale is not UTF-8).
        #[arg(long)]
        ascii: bool,
    },
    /// Read a game written as a plain list of moves, as aagenielsen.dk writes them
    /// ("d1-d3 e5-e2 ... a8-b8xb7"), check every move and capture, and print it as a game record.
    #[command(after_help = "Example: taflbot import --variant copenhagen moves.txt")]
    Import {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long, default_value = "copenhagen")]
        variant: &'static Variant,
        /// The file holding the moves (default: standard input).
        file: Option<std::path::PathBuf>,
    },
    /// Write the book's generated pages (the command reference, the rules of each family with
    /// the start positions drawn) under a folder.
    #[command(after_help = "Example: taflbot docs --out docs")]
    Docs {
        /// The book's folder.
        #[arg(long, default_value = "docs")]
        out: std::path::PathBuf,
    },
    /// Count the move tree to each depth from 1 to DEPTH.
    #[command(after_help = "Example: taflbot perft --variant brandubh 3")]
    Perft {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
        #[arg(long)]
        position: Option<String>,
        /// The deepest ply to count to.
        depth: u32,
    },
    /// Pairs of games between two players (random, greedy or a level 1..5), sides swapped.
    #[command(
        after_help = "Example: taflbot arena --variant brandubh --a 2 --b greedy --pairs 10"
    )]
    Arena(ArenaArgs),
    /// Games the engine plays against itself from random openings, for `tune`: their positions
    /// are appended to a file, one a line with the game's result and the search's score.
    #[command(
        after_help = "Example: taflbot selfplay --variant brandubh --games 20 --out positions.tsv"
    )]
    Selfplay(SelfplayArgs),
    /// Fit the evaluation's weights to positions from `selfplay` and to recorded games, by
    /// logistic (Texel) tuning a family at a time, and write the set of weights.
    #[command(after_help = "Example: taflbot tune --positions positions.tsv --out weights.txt")]
    Tune(TuneArgs),
    /// Train a small network beside a family's row of weights, on the positions and games
    /// `tune` takes, and write it.
    #[command(
        after_help = "Example: taflbot net --variant copenhagen --positions positions.tsv --out copenhagen.net"
    )]
    Net(NetArgs),
    /// Train a wide network that is a variant's whole evaluation, on the results of the games
    /// of positions files from `selfplay` and of recorded games, and write it.
    #[command(
        after_help = "Example: taflbot wide --variant copenhagen --positions positions.tsv --out copenhagen.wide"
    )]
    Wide(WideArgs),
    /// The engine's turn: from a position (or the start) after the given turns.
    #[command(after_help = "Example: taflbot ai --variant brandubh --replay d2-c2 --level 3")]
    Ai {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
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
    #[command(after_help = "Example: taflbot review --variant brandubh d2-c2 e4-e6")]
    Review {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long)]
        variant: &'static Variant,
        /// Position string (default: the variant's start).
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
    #[command(
        after_help = "Example: taflbot puzzles --variant copenhagen --from games.txt --limit 5"
    )]
    Puzzles {
        /// Variant id, e.g. tyr-11 (see `taflbot variants`).
        #[arg(long, default_value = "copenhagen")]
        variant: &'static Variant,
        /// The file of recorded games, one a line.
        #[arg(long)]
        from: std::path::PathBuf,
        /// Stop after this many puzzles.
        #[arg(long)]
        limit: Option<usize>,
        /// Print JSON lines: {"variant", "position", "solution", "theme"}.
        #[arg(long)]
        json: bool,
    },
    /// Store puzzles in the database: cut from recorded games (one a line, as the Copenhagen
    /// corpus writes them), or read from JSON lines as `puzzles --json` writes them (each checked
    /// again). Without --from, every puzzle of the Copenhagen corpus taflbot carries (as the bot
    /// does in the background on its first start; this takes several minutes).
    #[command(after_help = "Example: taflbot import-puzzles --db taflbot.db")]
    ImportPuzzles {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// The variant of the games in the file (JSON lines name their own).
        #[arg(long, default_value = "copenhagen")]
        variant: &'static Variant,
        /// A file of recorded games, or of JSON lines as `puzzles --json` writes them.
        #[arg(long)]
        from: Option<std::path::PathBuf>,
        /// Stop after this many puzzles found in the file.
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Copy every table of one database into another that is empty: SQLite to PostgreSQL or
    /// back, in one transaction, with the row counts checked. Stop the bot first.
    #[command(
        after_help = "Example: taflbot copy-db --from taflbot.db --to postgres://taflbot@localhost/taflbot"
    )]
    CopyDb {
        /// The database to copy: a SQLite path or `sqlite:` URL, or a `postgres://` URL.
        #[arg(long)]
        from: String,
        /// The empty database to copy into (its schema is made if missing).
        #[arg(long)]
        to: String,
    },
}

/// The command line, read; a command that does not exist is answered with the nearest one (a
/// typo of at most two letters, by optimal string alignment) and the list of them, and any other
/// mistake as clap answers it. Exits on a mistake, and after `--help` and `--version`.
pub fn parse() -> Args {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use clap::CommandFactory;
    let error = match Args::try_parse() {
        Ok(args) => return args,
        Err(e) => e,
    };
    let typed = match error.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(typed)) if error.kind() == ErrorKind::InvalidSubcommand => typed,
        _ => error.exit(),
    };
    let cli = Args::command();
    let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    eprintln!("{}", unknown_subcommand(typed, &names));
    std::process::exit(2)
}

/// What `taflbot TYPED` says when no subcommand is called so.
fn unknown_subcommand(typed: &str, names: &[&str]) -> String {
    let near = crate::commands::nearest(typed, names.iter().copied())
        .map_or(String::new(), |name| format!("; did you mean `{name}`?"));
    let typed: String = typed
        .chars()
        .flat_map(char::escape_debug)
        .take(40)
        .collect();
    format!(
        "taflbot: there is no command `{typed}`{near}\nThe commands: {}. \
         `taflbot help COMMAND` says what one does.",
        names.join(", ")
    )
}

/// Runs a command line; what it prints, or why it failed.
pub fn run(args: Args) -> Result<String, CliError> {
    match args.command {
        Command::Variants { json } => Ok(super::variants(json)),
        Command::Moves { variant, position } => super::moves(variant, position.as_deref()),
        Command::Replay {
            variant,
            position,
            json,
            turns,
        } => super::replay(variant, position.as_deref(), &turns, json),
        Command::Render {
            variant,
            position,
            replay,
            theme,
            flip,
            gif,
            out,
        } => super::render(
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
        } => puzzles_from(variant, &from, limit.unwrap_or(usize::MAX), json),
        Command::Review {
            variant,
            position,
            json,
            turns,
        } => super::review(variant, position.as_deref(), &turns, json),
        Command::Perft {
            variant,
            position,
            depth,
        } => super::perft_counts(variant, position.as_deref(), depth),
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
            let options = super::AiOptions {
                level,
                time_ms,
                nodes,
                depth,
                seed,
            };
            super::ai(variant, position.as_deref(), &replay, options, json)
        }
        Command::Arena(a) => arena(a),
        Command::Selfplay(a) => selfplay(a),
        Command::Tune(a) => tune(a),
        Command::Net(a) => net(a),
        Command::Wide(a) => wide(a),
        Command::Import { variant, file } => {
            let text = match file {
                Some(path) => std::fs::read_to_string(&path).map_err(|e| {
                    CliError::message(format!("cannot read {}: {e}", path.display()))
                })?,
                None => std::io::read_to_string(std::io::stdin())
                    .map_err(|e| CliError::message(format!("cannot read the input: {e}")))?,
            };
            super::import(variant, &text)
        }
        Command::Docs { out } => super::docs::write(&out),
        Command::Local { db, images, ascii } => local(db, &images, ascii),
        Command::CopyDb { from, to } => copy_db(&from, &to),
        Command::ImportPuzzles {
            db,
            variant,
            from,
            limit,
        } => import_puzzles(db, variant, from.as_deref(), limit.unwrap_or(usize::MAX)),
        Command::Run { db, images, ascii } => {
            match crate::discord::Config::from_env() {
                Ok(Some(config)) => serve(config, db),
                Ok(None) => {
                    eprintln!("DISCORD_TOKEN is not set: starting the local mode (see docs/local-mode.md).");
                    local(db, &images, ascii)
                }
                Err(e) => Err(CliError::message(e)),
            }
        }
    }
}

/// Puzzles found in a file of games, each printed as it is found (a long file takes a while).
fn puzzles_from(
    variant: &'static Variant,
    from: &std::path::Path,
    limit: usize,
    json: bool,
) -> Result<String, CliError> {
    let text = std::fs::read_to_string(from)
        .map_err(|e| CliError::message(format!("cannot read {}: {e}", from.display())))?;
    super::puzzles(variant, &text, limit, json, std::io::stdout().lock())?;
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::unknown_subcommand;

    #[test]
    fn a_mistyped_command_is_answered_with_the_nearest_one_only() {
        let names = ["ai", "arena", "variants", "review", "render"];
        let said = unknown_subcommand("varients", &names);
        assert!(said.contains("did you mean `variants`?"), "{said}");
        assert!(said.contains("The commands: ai, arena, variants"), "{said}");
        assert!(unknown_subcommand("revew", &names).contains("did you mean `review`?"));
        // Nothing is near a word far from every command; the typed text is shown escaped.
        let far = unknown_subcommand("zzz\u{202e}zzzz", &names);
        assert!(!far.contains("did you mean"), "{far}");
        assert!(far.contains("`zzz\\u{202e}zzzz`"), "{far}");
    }
}

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use taflbot::cli;

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
        variant: String,
        /// Position string (default: the variant's start).
        #[arg(long)]
        position: Option<String>,
    },
    /// Play turns from a position and print the result.
    Replay {
        #[arg(long)]
        variant: String,
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
        variant: String,
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
    /// Count the move tree to each depth from 1 to DEPTH.
    Perft {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        position: Option<String>,
        depth: u32,
    },
}

fn run(args: Args) -> Result<String, cli::CliError> {
    match args.command {
        Command::Variants { json } => Ok(cli::variants(json)),
        Command::Moves { variant, position } => {
            cli::moves(cli::variant(&variant)?, position.as_deref())
        }
        Command::Replay {
            variant,
            position,
            json,
            turns,
        } => cli::replay(cli::variant(&variant)?, position.as_deref(), &turns, json),
        Command::Render {
            variant,
            position,
            replay,
            theme,
            flip,
            gif,
            out,
        } => cli::render(
            cli::variant(&variant)?,
            position.as_deref(),
            &replay,
            &theme,
            flip,
            gif,
            &out,
        ),
        Command::Perft {
            variant,
            position,
            depth,
        } => cli::perft_counts(cli::variant(&variant)?, position.as_deref(), depth),
    }
}

fn main() -> ExitCode {
    match run(Args::parse()) {
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

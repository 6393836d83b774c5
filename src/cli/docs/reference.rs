//! The command line's page, `docs/command-line.md`: a synopsis line and a table of options for
//! every subcommand, read from clap's own description of the command line, so that the page
//! names every option the binary takes; the prose between them is `command-line.md` beside this
//! file.

use clap::{Arg, Command, CommandFactory};

use crate::cli::args::Args;

/// The page: the synopsis, the guide, then every subcommand's options.
pub fn page() -> String {
    let mut cli = Args::command();
    // Built, clap fills in what it leaves to defaults (how many values each argument takes).
    cli.build();
    let subcommands: Vec<&Command> = cli
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .collect();
    let mut out = String::from(
        "<!-- Made by `taflbot docs` from the command line's own definition (src/cli/args.rs) and \
         src/cli/docs/command-line.md: edit those, not this page. -->\n\n# The command line\n\n\
         [The book](README.md) · [Hosting](hosting.md)\n\n\
         Every subcommand of `taflbot`, with what it does; `taflbot help COMMAND` (or `taflbot \
         COMMAND --help`) says the same at a terminal, and `cargo run --release -- COMMAND` runs it \
         from the source tree. Each one's options are [at the end](#every-option).\n\n\
         | command | what it does |\n| --- | --- |\n",
    );
    for c in &subcommands {
        out.push_str(&format!(
            "| [`{0}`](#taflbot-{0}) | {1} |\n",
            c.get_name(),
            sentence(first_sentence(&first_line(c.get_about()))).replace('|', "\\|")
        ));
    }
    out.push('\n');
    out.push_str(include_str!("command-line.md"));
    out.push_str("\n## Every option\n");
    for c in subcommands {
        out.push_str(&section(c));
    }
    out
}

/// A subcommand's heading, synopsis, options and example.
fn section(c: &Command) -> String {
    let args: Vec<&Arg> = c.get_arguments().filter(|a| shown(a)).collect();
    let mut out = format!(
        "\n### `taflbot {}`\n\n{}\n\n```text\n{}\n```\n",
        c.get_name(),
        sentence(first_line(c.get_about())),
        synopsis(c.get_name(), &args)
    );
    if !args.is_empty() {
        out.push_str("\n| option | what it is |\n| --- | --- |\n");
        for a in &args {
            let mut help = sentence(first_line(a.get_help()));
            let defaults: Vec<String> = a
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            if !defaults.is_empty() && takes_value(a) {
                help.push_str(&format!(" Default: `{}`.", defaults.join(",")));
            }
            out.push_str(&format!(
                "| `{}` | {} |\n",
                spelling(a),
                help.replace('|', "\\|")
            ));
        }
    }
    if let Some(after) = c.get_after_help() {
        let after = after.to_string();
        if let Some(example) = after.lines().find_map(|l| l.strip_prefix("Example: ")) {
            out.push_str(&format!("\nExample: `{example}`\n"));
        }
    }
    out
}

/// Whether an argument is one the page lists: not clap's own `--help` and `--version`.
fn shown(a: &Arg) -> bool {
    !matches!(a.get_id().as_str(), "help" | "version")
}

/// `taflbot NAME` with each option as it is typed: needed ones bare, the others in brackets.
fn synopsis(name: &str, args: &[&Arg]) -> String {
    let mut out = format!("taflbot {name}");
    for a in args {
        let word = spelling(a);
        if a.is_required_set() {
            out.push_str(&format!(" {word}"));
        } else {
            out.push_str(&format!(" [{word}]"));
        }
    }
    out
}

/// How an argument is typed: `--long VALUE`, `--flag`, or a positional `VALUE…`.
fn spelling(a: &Arg) -> String {
    let value = a
        .get_value_names()
        .and_then(|v| v.first())
        .map_or_else(|| a.get_id().as_str().to_uppercase(), |v| v.to_string());
    let many = a.get_num_args().is_some_and(|n| n.max_values() > 1);
    let dots = if many { "…" } else { "" };
    match a.get_long() {
        Some(long) if takes_value(a) => format!("--{long} {value}{dots}"),
        Some(long) => format!("--{long}"),
        None => format!("{value}{dots}"),
    }
}

/// The first line of a help text, or nothing.
fn first_line(text: Option<&clap::builder::StyledStr>) -> String {
    text.map(|t| {
        t.to_string()
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    })
    .unwrap_or_default()
}

/// Whether an argument takes a value (a flag does not).
fn takes_value(a: &Arg) -> bool {
    a.get_num_args().is_some_and(|n| n.takes_values())
}

/// The text up to its first full stop before a capital (a sentence's end), or all of it.
fn first_sentence(text: &str) -> String {
    let end = text
        .match_indices(". ")
        .find(|(i, _)| text[i + 2..].starts_with(|c: char| c.is_uppercase()))
        .map_or(text.len(), |(i, _)| i);
    text[..end].trim_end_matches('.').to_string()
}

/// A help text as a sentence: clap drops the full stop at the end of its first line.
fn sentence(text: String) -> String {
    if text.is_empty() || text.ends_with(['.', '?', '!']) {
        text
    } else {
        format!("{text}.")
    }
}

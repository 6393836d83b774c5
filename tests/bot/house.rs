//! The house's floors, read from the sources: each top-level module names only the modules below
//! it (`crate::x` in its code, its `use`s and its doc links alike), and the pure floors (the
//! rules, the engine, tournaments, ratings) touch no I/O, no async and no chat platform.

use std::path::{Path, PathBuf};

/// The floors, from the bottom up.
const FLOORS: &[&str] = &[
    "rules",
    "tournament",
    "rating",
    "engine",
    "notation",
    "render",
    "store",
    "service",
    "commands",
    "discord",
    "local",
    "cli",
];

/// The floors `floor` may name: the pure ones and the store nothing but the rules (the rules and
/// tournaments not even those), pictures the notation too, the service every floor below it,
/// the command table the service too, the front ends the command table too, the command line
/// everything.
fn below(floor: &str) -> &'static [&'static str] {
    let under = |top: &str| {
        let at = FLOORS.iter().position(|f| *f == top).unwrap();
        &FLOORS[..at]
    };
    match floor {
        "rules" | "tournament" | "store" => &[],
        "rating" | "engine" | "notation" => &["rules"],
        "render" => &["rules", "notation"],
        "discord" | "local" => under("discord"),
        other => under(other),
    }
}

/// The floors that stay pure, and what none of their sources may say.
const PURE: &[&str] = &["rules", "engine", "tournament", "rating"];
const IMPURE: &[&str] = &[
    "async fn", ".await", "tokio", "sqlx", "serenity", "poise", "std::fs", "std::net",
];

/// The Rust files of a floor: `src/NAME.rs` and everything under `src/NAME/`.
fn files_of(root: &Path, floor: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    let file = root.join(format!("src/{floor}.rs"));
    if file.exists() {
        out.push(file);
    }
    walk(&root.join(format!("src/{floor}")), &mut out);
    out
}

/// The top-level modules a source names as `crate::NAME` or in `use crate::{NAME, …}`.
fn named_floors(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(|part| ident(part.trim())));
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|name| !name.is_empty());
    out
}

#[test]
fn each_floor_names_only_the_floors_below_it_and_the_pure_ones_stay_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let floors = FLOORS;
    let mut wrong = Vec::new();
    let mut read = 0;
    for floor in FLOORS {
        let below = below(floor);
        for file in files_of(root, floor) {
            read += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            let shown = file.strip_prefix(root).unwrap().display().to_string();
            for name in named_floors(&text) {
                if name != *floor && floors.contains(&name.as_str()) && !below.contains(&&*name) {
                    wrong.push(format!("{shown} ({floor}) names crate::{name}"));
                }
            }
            if PURE.contains(floor) {
                for word in IMPURE.iter().filter(|w| text.contains(**w)) {
                    wrong.push(format!("{shown} ({floor}, pure) says `{word}`"));
                }
            }
        }
    }
    // Every top-level module is on a floor (a new one must be placed).
    for entry in std::fs::read_dir(root.join("src")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let module = name.trim_end_matches(".rs");
        if !["lib", "main"].contains(&module) && !floors.contains(&module) {
            wrong.push(format!("src/{name} is on no floor"));
        }
    }
    assert!(read > 100, "only {read} files read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_floor_reader_sees_paths_and_groups() {
    assert_eq!(
        named_floors("use crate::cli::CliError;\nlet x = crate::rules::canonical(p, m);"),
        ["cli", "rules"]
    );
    assert_eq!(
        named_floors("use crate::{engine::Eval, notation};"),
        ["engine", "notation"]
    );
    assert!(named_floors("use super::moves;").is_empty());
}

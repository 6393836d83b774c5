//! Every SQL string in the project, read from the sources: placeholders are numbered (`$1`, `$2`,
//! …), the same on SQLite and PostgreSQL, with none missing below the highest, and as many values
//! are bound as the highest asks for. SQLite takes a missing value as NULL without a word, and
//! PostgreSQL takes no `?`, so a slip in either would pass on one engine and fail on the other.

use std::path::{Path, PathBuf};

/// The Rust files under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a Rust source: (byte offset of the closing quote, contents).
fn literals(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // A line comment runs to the end of the line (doc comments quote freely).
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // A character literal such as '"' or '\'' (a lifetime has no closing quote near).
            b'\'' => {
                if bytes.get(i + 1) == Some(&b'\\') && bytes.get(i + 3) == Some(&b'\'') {
                    i += 4;
                } else if bytes.get(i + 2) == Some(&b'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                found.push((j, text[start..j.min(text.len())].to_string()));
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    found
}

fn is_sql(s: &str) -> bool {
    ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", " WHERE "]
        .iter()
        .any(|k| s.contains(k))
}

/// What is wrong with one SQL string and the code after it, if anything.
fn check(sql: &str, after: &str) -> Option<String> {
    let chars: Vec<char> = sql.chars().collect();
    let mut numbers = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let before = if i == 0 { ' ' } else { chars[i - 1] };
        let digits: String = chars[i + 1..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .collect();
        if c == '?' && (before.is_whitespace() || "(,=".contains(before)) {
            return Some(format!(
                "`?{digits}` is SQLite's own placeholder: write `$N`"
            ));
        }
        if c == '$' && !digits.is_empty() {
            numbers.push(digits.parse::<usize>().unwrap());
        }
    }
    let highest = numbers.iter().copied().max().unwrap_or(0);
    if let Some(gap) = (1..=highest).find(|n| !numbers.contains(n)) {
        return Some(format!("${gap} is missing below ${highest}"));
    }
    // The values bound: the `.bind(` calls up to where the query runs, when that is plain to see.
    let ends = [
        ".execute(",
        ".fetch_one(",
        ".fetch_all(",
        ".fetch_optional(",
    ];
    let end = ends.iter().filter_map(|e| after.find(e)).min()?;
    let chain = &after[..end];
    if chain.contains('"') || chain.contains(';') {
        return None;
    }
    let bound = chain.matches(".bind(").count();
    let values = if bound == 1 { "value is" } else { "values are" };
    (bound != highest).then(|| format!("{bound} {values} bound for ${highest}"))
}

#[test]
fn every_sql_string_numbers_its_placeholders_and_binds_each() {
    let mut strings = 0;
    let mut wrong = Vec::new();
    each_sql(&["src", "tests", "benches"], |shown, text, end, sql| {
        strings += 1;
        if let Some(why) = check(sql, &text[(end + 1).min(text.len())..]) {
            let line = text[..end].lines().count();
            wrong.push(format!("{shown}:{line}: {why}"));
        }
    });
    assert!(
        strings > 80,
        "only {strings} SQL strings found: is the reader broken?"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_checker_catches_each_slip() {
    let run = ".bind(1).bind(2).execute(&pool)";
    assert_eq!(check("SELECT a FROM t WHERE b = $1 AND c = $2", run), None);
    // A repeated number is one value.
    assert_eq!(
        check("SELECT a FROM t WHERE b = $1 OR c = $1 OR d = $2", run),
        None
    );
    assert!(check("SELECT a FROM t WHERE b = ?", run)
        .unwrap()
        .contains("`?`"));
    assert!(check("SELECT a FROM t WHERE b = ?1", run)
        .unwrap()
        .contains("`?1`"));
    assert!(check("SELECT a FROM t WHERE b = $1 AND c = $3", run)
        .unwrap()
        .contains("$2 is missing"));
    assert!(check("SELECT a FROM t WHERE b = $1", run)
        .unwrap()
        .contains("2 values are bound for $1"));
    assert!(check(
        "SELECT a FROM t WHERE b = $1 AND c = $2",
        ".bind(1).fetch_all(&p)"
    )
    .unwrap()
    .contains("1 value is bound for $2"));
    assert!(
        check("SELECT a FROM t WHERE b = $1 AND c = $2 AND d = $3", run)
            .unwrap()
            .contains("2 values are bound for $3")
    );
    // A `?` that is no placeholder (in a text) is left alone.
    assert_eq!(
        check(
            "SELECT 'who?' FROM t WHERE b = $1",
            ".bind(1).fetch_one(&p)"
        ),
        None
    );
}

/// Calls `seen` with every SQL string under `dirs` (but this file's own): the file (relative to
/// the crate), its text, where the string ends in it, and the string.
fn each_sql(dirs: &[&str], mut seen: impl FnMut(&str, &str, usize, &str)) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in dirs {
        sources(&root.join(dir), &mut files);
    }
    for file in files {
        if file.ends_with("tests/bot/sql.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (end, sql) in literals(&text) {
            if is_sql(&sql) {
                seen(&shown, &text, end, &sql);
            }
        }
    }
}

/// The SQL strings of `src/` that `matches`, by file (relative to the crate).
fn sql_in_src(matches: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    each_sql(&["src"], |shown, _, _, sql| {
        if matches(sql) {
            found.push(shown.to_string());
        }
    });
    found
}

#[test]
fn one_function_begins_every_game_and_one_ends_every_game() {
    let squeeze = |sql: &str| sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let begins = sql_in_src(|sql| squeeze(sql).contains("INSERT INTO games ("));
    assert_eq!(begins, ["src/service/begin.rs"], "games are created by");
    let ends = sql_in_src(|sql| {
        let sql = squeeze(sql);
        sql.contains("UPDATE games SET") && (sql.contains("result =") || sql.contains("'finished'"))
    });
    assert_eq!(ends, ["src/service/finish.rs"], "results are written by");
}

/// Functions allowed past 100 lines: tables and parsers, each a list of cases read one by one.
const LONG_BY_NATURE: [(&str, &str); 7] = [
    // The sentence of every refusal.
    ("src/service/text/refusal.rs", "refusal"),
    // A command read from its options, one arm per command.
    ("src/commands/apply.rs", "apply"),
    // Each kind of answer as Discord shows it, and as the local mode prints it.
    ("src/discord/commands/show.rs", "show"),
    ("src/local.rs", "show"),
    // Parsers: a game record, a setup string.
    ("src/notation/record.rs", "read_record"),
    ("src/rules/setup.rs", "parse_setup"),
    // A variant's board built from its row of the catalogue.
    ("src/rules/variant.rs", "build"),
];

#[test]
fn no_source_file_is_over_600_lines_nor_a_function_over_100() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > 600 {
            wrong.push(format!("{shown}: {} lines", lines.len()));
        }
        for (i, line) in lines.iter().enumerate() {
            let Some((indent, name)) = function_at(line) else {
                continue;
            };
            let close = format!("{indent}}}");
            let Some(end) = lines[i + 1..].iter().position(|l| *l == close) else {
                continue;
            };
            let long = end + 2 > 100;
            if long && !LONG_BY_NATURE.contains(&(shown.as_str(), name)) {
                wrong.push(format!("{shown}:{}: fn {name} is {} lines", i + 1, end + 2));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The indentation and name of a function declared on `line`, if one is.
fn function_at(line: &str) -> Option<(&str, &str)> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let mut words = body.split_whitespace().peekable();
    while let Some(w) = words.next() {
        match w {
            "pub" | "async" | "const" | "unsafe" => {}
            // `pub(crate)`, and `pub(in crate::service)` over two words.
            w if w.starts_with("pub(") => {
                if !w.ends_with(')') {
                    words.find(|w| w.ends_with(')'))?;
                }
            }
            "fn" => {
                let name = words.next()?;
                let end = name.find(['(', '<']).unwrap_or(name.len());
                return Some((indent, &name[..end]));
            }
            _ => return None,
        }
    }
    None
}

#[test]
fn the_size_reader_finds_functions() {
    assert_eq!(
        function_at("    pub(super) async fn rate("),
        Some(("    ", "rate"))
    );
    assert_eq!(
        function_at("    pub(in crate::service) async fn rate("),
        Some(("    ", "rate"))
    );
    assert_eq!(function_at("fn fitted<'a>(x: u8)"), Some(("", "fitted")));
    assert_eq!(function_at("    let f = fn_like();"), None);
}

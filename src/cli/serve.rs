//! The commands that open a database: the bot, the local mode, puzzles stored, a database
//! copied.

use super::CliError;
use crate::rules::Variant;

fn database_url(db: Option<String>) -> String {
    db.or_else(|| std::env::var("DATABASE_URL").ok())
        .unwrap_or_else(|| crate::store::DEFAULT_DATABASE.to_string())
}

/// The runtime of the local mode and the bot.
fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::message(format!("cannot start: {e}")))
}

/// Whether the locale's characters are UTF-8: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is
/// set says so (as the C library reads them); with none set, they are taken to be.
fn utf8_locale(var: impl Fn(&str) -> Option<String>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()))
        .is_none_or(|v| {
            let v = v.to_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// The local mode on the database, reading standard input: at a terminal through a line editor
/// with history (kept in the images folder), otherwise line by line as a script.
pub fn local(
    db: Option<String>,
    images: &std::path::Path,
    ascii: bool,
) -> Result<String, CliError> {
    use std::io::IsTerminal;
    let runtime = runtime()?;
    let session = crate::local::Session {
        images: images.to_path_buf(),
        glyphs: if ascii || !utf8_locale(|name| std::env::var(name).ok()) {
            crate::render::Glyphs::Ascii
        } else {
            crate::render::Glyphs::Unicode
        },
    };
    let stopped = |e: std::io::Error| CliError::message(format!("local mode stopped: {e}"));
    runtime.block_on(async {
        let service = open_service(&database_url(db)).await?;
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        if !stdin.is_terminal() {
            crate::local::run(&service, stdin.lock(), &mut out, &session)
                .await
                .map_err(stopped)?;
            return Ok(String::new());
        }
        // At a terminal, puzzles are made in the background as the bot makes them (a script's
        // short session leaves them be).
        let (_stop, stopped_flag) = tokio::sync::watch::channel(false);
        service.spawn_puzzle_maker(std::time::Duration::from_secs(60), true, stopped_flag);
        session.open().map_err(stopped)?;
        println!("{}", crate::local::GREETING);
        let mut editor = rustyline::DefaultEditor::new()
            .map_err(|e| CliError::message(format!("cannot read the terminal: {e}")))?;
        let history = session.images.join(".history");
        // No history yet is no error.
        let _ = editor.load_history(&history);
        loop {
            match editor.readline("> ") {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                        let _ = editor.save_history(&history);
                    }
                    crate::local::one_line(&service, &line, &mut out, &session)
                        .await
                        .map_err(stopped)?;
                }
                // Ctrl-C drops the line being typed; Ctrl-D ends the session.
                Err(rustyline::error::ReadlineError::Interrupted) => {}
                Err(rustyline::error::ReadlineError::Eof) => break,
                Err(e) => return Err(CliError::message(format!("cannot read the terminal: {e}"))),
            }
        }
        Ok(String::new())
    })
}

/// `taflbot import-puzzles`: a file's puzzles, or the corpus's batch after batch.
pub fn import_puzzles(
    db: Option<String>,
    variant: &'static Variant,
    from: Option<&std::path::Path>,
    limit: usize,
) -> Result<String, CliError> {
    let runtime = runtime()?;
    runtime.block_on(async {
        let service = open_service(&database_url(db)).await?;
        let failed =
            |e: crate::service::ServiceError| CliError::message(format!("puzzles not stored: {e}"));
        let Some(path) = from else {
            use crate::service::{Progress, CORPUS, CORPUS_BATCH};
            let before = service.puzzle_count().await.map_err(failed)?;
            // One step a batch of the corpus's games (a run that resumes counts from the start).
            let batches = CORPUS.lines().count().div_ceil(CORPUS_BATCH) as u64;
            let mut shown = super::progress::Progress::new("corpus batches", batches);
            loop {
                match service.cut_corpus(CORPUS).await.map_err(failed)? {
                    Progress::Worked => shown.step(),
                    Progress::Done => break,
                    Progress::Busy => {
                        return Err(CliError::message(
                            "another process is cutting the corpus now: it will finish it",
                        ))
                    }
                }
            }
            shown.finish();
            let after = service.puzzle_count().await.map_err(failed)?;
            return Ok(format!(
                "the corpus is cut: {} new puzzles, {after} in all\n",
                after - before
            ));
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::message(format!("cannot read {}: {e}", path.display())))?;
        // One step a line read: cutting a game's puzzles is the slow part.
        let shown = std::sync::Arc::new(std::sync::Mutex::new(super::progress::Progress::new(
            "lines read",
            text.lines().count() as u64,
        )));
        let stepped = shown.clone();
        let step = move || {
            if let Ok(mut p) = stepped.lock() {
                p.step();
            }
        };
        let read = service.import_puzzles(variant, &text, limit, step).await;
        if let Some(p) = std::sync::Arc::into_inner(shown).and_then(|m| m.into_inner().ok()) {
            p.finish();
        }
        let (new, problems) = read.map_err(failed)?;
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
pub fn copy_db(from: &str, to: &str) -> Result<String, CliError> {
    use crate::store;
    // Opening a SQLite file that is not there would make an empty one and copy it.
    if let Some(file) = store::sqlite_file(from).filter(|f| !f.exists()) {
        return Err(CliError::message(format!(
            "nothing copied: the source {} does not exist",
            file.display()
        )));
    }
    let runtime = runtime()?;
    runtime.block_on(async {
        let source = store::open(from)
            .await
            .map_err(|e| CliError::message(format!("cannot open {}: {e}", store::shown(from))))?;
        let target = store::open(to)
            .await
            .map_err(|e| CliError::message(format!("cannot open {}: {e}", store::shown(to))))?;
        let mut progress =
            super::progress::Progress::new("tables copied", store::copy::TABLES.len() as u64);
        let copied = store::copy::copy_told(&source, &target, || progress.step())
            .await
            .map_err(|e| {
                CliError::message(format!(
                    "nothing copied from {} to {}: {e}",
                    store::shown(from),
                    store::shown(to)
                ))
            })?;
        progress.finish();
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
async fn open_service(url: &str) -> Result<crate::service::Service, CliError> {
    let pool = crate::store::open(url).await.map_err(|e| {
        CliError::message(format!(
            "cannot open the database at {}: {e}",
            crate::store::shown(url)
        ))
    })?;
    let service =
        crate::service::Service::new(pool, std::sync::Arc::new(crate::service::SystemClock));
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
) -> Result<Option<i64>, CliError> {
    let Ok(text) = std::env::var(name) else {
        return Ok(None);
    };
    match text.trim().parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(Some(n)),
        _ => Err(CliError::message(format!(
            "{name} must be a number of {unit} from {} to {}, not {text:?}",
            range.start(),
            range.end()
        ))),
    }
}

/// The Discord bot, until Ctrl-C or SIGTERM.
pub fn serve(config: crate::discord::Config, db: Option<String>) -> Result<String, CliError> {
    use std::io::IsTerminal;
    // Logs go to standard error, in colour only at a terminal and never under NO_COLOR.
    let colour = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,taflbot=info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .init();
    let runtime = runtime()?;
    runtime.block_on(async {
        let service = open_service(&database_url(db)).await?;
        let pool = service.pool().clone();
        let ran = crate::discord::run(config, service).await;
        pool.close().await;
        ran.map_err(|e| CliError::message(e.to_string()))?;
        Ok(String::new())
    })
}

#[cfg(test)]
mod tests {
    use super::utf8_locale;

    #[test]
    fn boards_are_drawn_in_letters_where_the_locale_is_not_utf8() {
        let with = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(utf8_locale(with(&[])));
        assert!(utf8_locale(with(&[("LANG", "en_GB.UTF-8")])));
        assert!(utf8_locale(with(&[("LANG", "de_DE.utf8")])));
        assert!(!utf8_locale(with(&[("LANG", "C")])));
        // LC_ALL wins over LANG, an empty one is passed over.
        assert!(!utf8_locale(with(&[
            ("LC_ALL", "POSIX"),
            ("LANG", "en_US.UTF-8")
        ])));
        assert!(utf8_locale(with(&[("LC_ALL", ""), ("LANG", "C.UTF-8")])));
    }
}

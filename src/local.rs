//! The local mode: the game service driven from a terminal with the bot's commands. Each line is
//! `<user> <command> [words] [name:value ...]`, for example `alice challenge @bob variant:tyr-11
//! side:attackers`, `bob accept`, `alice move e1-e5`. A line is read by the one command table
//! (`commands/`), applied by [`commands::apply`] as Discord's commands are, and the answer shown
//! here as plain text with times in UTC. Each picture is written to the images folder and its path
//! printed. Typed at a prompt it is interactive; with piped input it runs as a script and stops
//! when the input ends.

use std::io::{BufRead, Write};
use std::path::Path;

use crate::commands::{self, Answer, Caller, Command, Kind, Value};
use crate::service::shown::Shown;
use crate::service::text::{self, Plain};
use crate::service::{News, Notice, Person, Service, ServiceError};

/// The local mode's help: the command table, then how a line is written.
pub fn help() -> String {
    format!(
        "{}\n\nEach line: <user> <command> [words] [name:value ...], e.g. `alice challenge @bob \
         variant:tyr-11`, `bob accept`, `alice move e1-e5`, `bob board game:1 flip`. Words fill the \
         options in order; a flag is its name.",
        commands::help(plain_usage)
    )
}

/// A usage as the local mode writes commands: without Discord's slash.
fn plain_usage(usage: &str) -> String {
    usage.trim_start_matches('/').to_string()
}

/// Who the bot is in the local mode: `@taflbot`.
fn taflbot() -> Person {
    person("taflbot")
}

fn person(name: &str) -> Person {
    let name = name.trim_start_matches('@');
    Person::new(format!("local:{}", name.to_ascii_lowercase()), name)
}

/// Reads `<user> <command> [words] [name:value ...]` into who and the command. A command may be
/// named by an alias of its row, of one word or two (`withdraw`, `decline draw`).
pub fn parse_line(line: &str) -> Result<(Person, Command), ServiceError> {
    let mut parts = line.split_whitespace();
    let user = parts.next().unwrap_or_default();
    let name = parts
        .next()
        .unwrap_or("help")
        .trim_start_matches('/')
        .to_ascii_lowercase();
    let mut words: Vec<&str> = parts.collect();
    let two = words
        .first()
        .map(|w| format!("{name} {}", w.to_ascii_lowercase()));
    let spec = match two.as_deref().and_then(commands::spec) {
        Some(spec) => {
            words.remove(0);
            spec
        }
        None => commands::spec(&name).ok_or_else(|| ServiceError::UnknownCommand(name.clone()))?,
    };
    let value = |kind: Kind, text: &str| match kind {
        Kind::User => Value::User(person(text)),
        // The local mode has no roles: a role is its name.
        Kind::Role => {
            let name = text.trim_start_matches('@');
            Value::Role(crate::service::TeamRole {
                id: name.to_ascii_lowercase(),
                name: name.to_string(),
            })
        }
        _ => Value::Text(text.to_string()),
    };
    let mut given: Vec<(String, Value)> = Vec::new();
    let mut free = Vec::new();
    for word in words {
        match word.split_once(':') {
            Some((option, v))
                if !option.is_empty() && option.chars().all(|c| c.is_ascii_alphabetic()) =>
            {
                let option = option.to_ascii_lowercase();
                let kind = spec
                    .options
                    .iter()
                    .find(|o| o.name == option)
                    .map_or(Kind::Text, |o| o.kind);
                given.push((option, value(kind, v)));
            }
            _ => match spec
                .options
                .iter()
                .find(|o| o.kind == Kind::Flag && o.name.eq_ignore_ascii_case(word))
            {
                Some(flag) => given.push((flag.name.to_string(), Value::Flag(true))),
                None => free.push(word),
            },
        }
    }
    // Free words fill the options not named, in order; free text takes the rest of the line.
    let mut free = free.into_iter().peekable();
    for o in spec.options.iter().filter(|o| o.kind != Kind::Flag) {
        if free.peek().is_none() {
            break;
        }
        if given.iter().any(|(n, _)| n == o.name) {
            continue;
        }
        let v = if matches!(o.kind, Kind::Text | Kind::Move) {
            free.by_ref().collect::<Vec<_>>().join(" ")
        } else {
            free.next().unwrap_or_default().to_string()
        };
        given.push((o.name.to_string(), value(o.kind, &v)));
    }
    if let Some(extra) = free.next() {
        return Err(ServiceError::BadOption {
            option: spec.name.to_string(),
            given: extra.to_string(),
            expected: format!("written as {}", commands::usage(spec)),
        });
    }
    Ok((person(user), Command::parse(spec.name, &given)?))
}

/// Runs lines from `input` until it ends, writing replies to `out`.
pub async fn run(
    service: &Service,
    input: impl BufRead,
    out: &mut impl Write,
    images: &Path,
    interactive: bool,
) -> std::io::Result<()> {
    std::fs::create_dir_all(images).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot make the images folder {}: {e}", images.display()),
        )
    })?;
    if interactive {
        writeln!(
            out,
            "taflbot local mode. Type `<user> help` for the commands; end with Ctrl-D."
        )?;
        write!(out, "> ")?;
        out.flush()?;
    }
    // Lines are read as bytes: one that is not UTF-8 is read as well as it can be, and the script
    // goes on.
    for line in input.split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            // The sweep writes its notices down; every notice not yet shown is shown, including
            // those of an earlier run that stopped before showing them.
            if let Err(e) = service.sweep().await {
                writeln!(out, "error: {e}")?;
            }
            notices(service, out, images).await?;
            let reply = match parse_line(trimmed) {
                Ok((who, command)) => execute(service, &who, command, images).await,
                Err(e) => Err(e),
            };
            match reply {
                Ok(text) => writeln!(out, "{text}")?,
                Err(e) => writeln!(out, "error: {e}")?,
            }
            // What the command left to be told (a tournament's games begun, its standings).
            notices(service, out, images).await?;
            bot_turns(service, out, images).await?;
        }
        if interactive {
            write!(out, "> ")?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Shows every kept notice not yet shown, oldest first.
async fn notices(service: &Service, out: &mut impl Write, images: &Path) -> std::io::Result<()> {
    for notice in service.claim_notices().await.unwrap_or_default() {
        writeln!(out, "{}", shown_notice(service, &notice, images).await)?;
        let _ = service.delivered(notice.id).await;
    }
    Ok(())
}

/// A kept notice as the local mode shows it, in the words Discord posts: a game's news with its
/// board saved, or a tournament's standings with its crosstable saved.
async fn shown_notice(service: &Service, notice: &Notice, images: &Path) -> String {
    let said = shown_text(service, notice, images).await;
    format!("[{}] {said}", notice.kind)
}

/// What a kept notice says, its picture saved.
async fn shown_text(service: &Service, notice: &Notice, images: &Path) -> String {
    match service.notice_shown(notice).await {
        Ok(Shown::Game(g)) => {
            let said = g.text(&Plain);
            match &g.board {
                Some(png) => {
                    let name = format!("game-{}-{}.png", g.view.id, g.view.turns);
                    format!("{said}\n{}", save(images, &name, png))
                }
                None => said,
            }
        }
        Ok(Shown::Tournament(t)) => {
            let said = t.text(&Plain);
            match &t.crosstable {
                Some(png) => {
                    let name = format!("tournament-{}-{}.png", t.table.view.id, notice.id);
                    format!("{said}\n{}", save(images, &name, png))
                }
                None => said,
            }
        }
        Err(e) => format!("notice #{}: {e}", notice.id),
    }
}

/// Plays the bot's turn in every game where it is to move, and shows each with its picture.
async fn bot_turns(service: &Service, out: &mut impl Write, images: &Path) -> std::io::Result<()> {
    for id in service.bot_games_due().await.unwrap_or_default() {
        match service.bot_turn(id).await {
            Ok(Some(moved)) => {
                for notice in std::iter::once(moved.notice).chain(moved.forecast) {
                    writeln!(out, "{}", shown_text(service, &notice, images).await)?;
                    let _ = service.delivered(notice.id).await;
                }
            }
            Ok(None) => {}
            Err(e) => writeln!(out, "error: taflbot could not move in game #{id}: {e}")?,
        }
    }
    Ok(())
}

/// Writes a picture (or a GIF, or a record) and says where it went; a file that cannot be written
/// is said, not an error (what the command did is already stored).
fn save(images: &Path, name: &str, bytes: &[u8]) -> String {
    let path = images.join(name);
    let what = if name.ends_with(".png") {
        "picture"
    } else {
        "file"
    };
    match std::fs::write(&path, bytes) {
        Ok(()) => format!("{what}: {}", path.display()),
        Err(e) => format!("{what} not saved ({}: {e})", path.display()),
    }
}

/// Runs one command for `me` and says what happened.
pub async fn execute(
    service: &Service,
    me: &Person,
    command: Command,
    images: &Path,
) -> Result<String, ServiceError> {
    let caller = Caller::local(me.clone(), taflbot());
    let answer = commands::apply(service, &caller, command).await?;
    Ok(show(me, answer, images))
}

/// An answer as plain text, its pictures and files saved in `images`.
fn show(me: &Person, answer: Answer, images: &Path) -> String {
    let s = &Plain;
    let mut lines: Vec<String> = Vec::new();
    match answer {
        Answer::News {
            view,
            news,
            png,
            forecast,
        } => {
            let last = forecast.len();
            let replies = forecast.into_iter().map(|p| (p.view, p.news, Some(p.png)));
            let posts = std::iter::once((view, news, png)).chain(replies);
            for (i, (view, news, png)) in posts.enumerate() {
                // Only the last post calls on whoever moves: a forecast answered the others.
                lines.push(if i == last {
                    text::post(&news, &view, s)
                } else {
                    text::news(&news, &view, s)
                });
                if let Some(png) = png {
                    let name = format!("game-{}-{}.png", view.id, view.turns);
                    lines.push(save(images, &name, &png));
                }
            }
        }
        Answer::Started {
            view,
            png,
            against_bot,
        } => {
            lines.push(if against_bot {
                text::bot_game_started(me, &view, s)
            } else {
                text::accepted(me, &view, s)
            });
            lines.push(text::post(&News::Started, &view, s));
            if let Some(png) = png {
                lines.push(save(images, &format!("game-{}-0.png", view.id), &png));
            }
        }
        Answer::Challenged(c) => lines.push(text::challenge_made(&c, s)),
        Answer::Declined(c) => lines.push(text::declined(me, &c, s)),
        Answer::Withdrawn(c) => lines.push(text::withdrawn(me, &c, s)),
        Answer::Board { view, png } => {
            lines.push(text::status_line(&view, s));
            lines.push(save(images, &format!("game-{}-board.png", view.id), &png));
        }
        Answer::Games { whose, yours, list } => lines.push(text::games(&whose, yours, &list, s)),
        Answer::Leaderboard(board) => lines.push(text::leaderboard(&board, s)),
        Answer::Profile { profile, chart, .. } => {
            lines.push(text::profile(&profile, s));
            if let Some(chart) = chart {
                lines.push(save(images, "profile.png", &chart));
            }
        }
        Answer::Rules { variant, png } => {
            lines.push(text::rules(variant, s));
            lines.push(save(images, &format!("rules-{}.png", variant.id), &png));
        }
        Answer::Variants => lines.push(text::variants(s)),
        Answer::Record(done) => {
            lines.push(done.record.trim_end().to_string());
            if let Some(gif) = done.gif {
                lines.push(save(images, &format!("game-{}.gif", done.view.id), &gif));
            }
        }
        Answer::Imported(game) => {
            lines.push(game.summary);
            lines.push(game.record.trim_end().to_string());
            lines.push(save(images, "import.png", &game.png));
        }
        Answer::Hint(hint) => lines.push(text::hint(&hint, s)),
        Answer::Review { review, chart } => {
            // The summary with the marked turns, then every turn (the file's lines, whose
            // accuracies the summary has given already).
            lines.push(text::review(&review, s));
            let every = text::review_turn_lines(&review.review, review.game.variant);
            lines.push(format!(
                "Every turn, with the winning chance of {} before and after:\n{}",
                text::charted_side(review.game.variant),
                every.trim_end()
            ));
            if let Some(chart) = chart {
                lines.push(save(
                    images,
                    &format!("review-{}.png", review.game.id),
                    &chart,
                ));
            }
        }
        Answer::Puzzle(shown) => {
            lines.push(text::puzzle_shown(&shown, s));
            let name = format!("puzzle-{}.png", shown.puzzle.id);
            lines.push(save(images, &name, &shown.png));
        }
        Answer::Solve(step) => {
            lines.push(text::solve_step(&step, s));
            let name = format!("puzzle-{}.png", step.puzzle.id);
            lines.push(save(images, &name, &step.png));
        }
        Answer::DailyPuzzle(setting) => lines.push(text::daily_setting(&setting, s)),
        Answer::Vacation {
            vacation,
            days_a_year,
        } => lines.push(text::vacation(&vacation, days_a_year, s)),
        Answer::Notify(hours) => lines.push(text::notify(&hours, s)),
        Answer::Theme(setting) => lines.push(text::theme(&setting, s)),
        Answer::Forecasts(list) => lines.push(text::forecasts(&list, s)),
        Answer::Note(note) => lines.push(text::note(&note, s)),
        Answer::Tournament { view, done } => lines.push(text::tournament_done(me, &view, done, s)),
        Answer::TournamentStarted(started) => lines.push(text::tournament_started(&started, s)),
        Answer::Standings { table, png } => {
            lines.push(text::standings(&table, s));
            if let Some(png) = png {
                let name = format!("tournament-{}.png", table.view.id);
                lines.push(save(images, &name, &png));
            }
        }
        Answer::Tournaments(list) => lines.push(text::tournaments(&list, s)),
        Answer::TeamStarted { view, png } => {
            lines.push(text::team_started(me, &view, s));
            lines.push(text::post(&News::Started, &view, s));
            if let Some(png) = png {
                lines.push(save(images, &format!("game-{}-0.png", view.id), &png));
            }
        }
        Answer::Voted(voted) => lines.push(text::voted(&voted, s)),
        // The window's notice is shown with the others kept, right after this line.
        Answer::WindowClosed(notice) => {
            lines.push(format!("The window of game #{} is closed.", notice.game_id))
        }
        Answer::TeamGames { games, record } => lines.push(text::team_games(&games, record, s)),
        // The local mode has one server: these are refused before they come here.
        Answer::TeamChallenged(ch) => lines.push(text::team_challenge_made(&ch, s)),
        Answer::TeamHome { home, ping } => {
            lines.push(text::team_home(home.as_deref(), ping.as_ref(), s))
        }
        Answer::TeamAnswered(crate::service::TeamAnswer::Accepted(view)) => {
            lines.push(text::team_challenge_accepted(&view, me, s))
        }
        Answer::TeamAnswered(crate::service::TeamAnswer::Declined(ch)) => {
            lines.push(text::team_challenge_declined(&ch, me, s))
        }
        Answer::Help(specs) => lines.push(match specs.as_slice() {
            [] => help(),
            [one] => commands::help_for(one, plain_usage),
            several => commands::help_list(several, plain_usage),
        }),
    }
    lines.join("\n")
}

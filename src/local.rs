//! The local mode: the game service driven from a terminal with the bot's commands. Each line is
//! `<user> <command> [words] [name:value ...]`, for example `alice challenge @bob variant:tyr-11
//! side:attackers`, `bob accept`, `alice move e1-e5`. A line is read by the one command table
//! (`commands/`), applied by [`commands::apply`] as Discord's commands are, and the answer shown
//! here as plain text with times in UTC. Each picture is written to the images folder and its path
//! printed. Typed at a prompt it is interactive; with piped input it runs as a script and stops
//! when the input ends.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::commands::{self, Answer, Caller, Command, Kind, Value};
use crate::render::{board_text, Glyphs, Scene};
use crate::service::shown::Shown;
use crate::service::text::{self, Plain};
use crate::service::{GameView, News, Notice, Person, Service, ServiceError};

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

/// A line without its comment: a `#` that begins a word ends the line (`alice move d1-d3 # the
/// first move`), as in a shell script; `#` inside a word (`#12`, `game:#3`) stays.
fn without_comment(line: &str) -> &str {
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        if c == '#' && previous.is_whitespace() {
            let rest = &line[i + 1..];
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                return line[..i].trim_end();
            }
        }
        previous = c;
    }
    line
}

/// The words of a line: runs of non-space, where double quotes keep spaces inside a word
/// (`text:"watch the corners"`) and are dropped.
fn words_of(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// Reads `<user> <command> [words] [name:value ...]` into who and the command. A command may be
/// named by an alias of its row, of one word or two (`withdraw`, `decline draw`). A text option
/// takes the words up to the next `name:` of the command (`note text:watch the corners`), or a
/// quoted run (`text:"a: b"`); a `#` word begins a comment.
pub fn parse_line(line: &str) -> Result<(Person, Command), ServiceError> {
    let all = words_of(without_comment(line));
    let mut parts = all.iter().map(String::as_str);
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
        None => commands::spec(&name).ok_or_else(|| commands::unknown_command(&name))?,
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
    // The text option being written: the words after it are its own, up to the next option.
    let mut writing: Option<usize> = None;
    for word in words {
        let named = word.split_once(':').filter(|(option, _)| {
            !option.is_empty() && option.chars().all(|c| c.is_ascii_alphabetic())
        });
        let known = named.and_then(|(option, _)| {
            spec.options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(option))
        });
        match (named, known, writing) {
            (_, None, Some(i)) => {
                if let Value::Text(text) = &mut given[i].1 {
                    text.push(' ');
                    text.push_str(word);
                }
            }
            (Some((option, v)), _, _) => {
                let option = option.to_ascii_lowercase();
                let kind = known.map_or(Kind::Text, |o| o.kind);
                given.push((option, value(kind, v)));
                writing = (kind == Kind::Text).then(|| given.len() - 1);
            }
            (None, _, _) => match spec
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

/// What a local session keeps: where pictures go, and how a board is written as text.
#[derive(Clone, Debug)]
pub struct Session {
    pub images: PathBuf,
    pub glyphs: Glyphs,
}

impl Session {
    /// A session whose pictures go to `images`, boards in Unicode signs.
    pub fn new(images: impl Into<PathBuf>) -> Session {
        Session {
            images: images.into(),
            glyphs: Glyphs::Unicode,
        }
    }

    /// Makes the images folder, naming it when it cannot be made.
    pub fn open(&self) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.images).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "cannot make the images folder {}: {e}",
                    self.images.display()
                ),
            )
        })
    }
}

/// The greeting at a terminal.
pub const GREETING: &str = "taflbot local mode. Type `<user> help` for the commands, e.g. `alice challenge @bob variant:brandubh`; end with Ctrl-D.";

/// Runs the lines of a script from `input` until it ends, writing replies to `out` (a terminal
/// is read by the line editor instead, a line at a time through [`one_line`]).
pub async fn run(
    service: &Service,
    input: impl BufRead,
    out: &mut impl Write,
    at: &Session,
) -> std::io::Result<()> {
    at.open()?;
    // Lines are read as bytes: one that is not UTF-8 is read as well as it can be, and the script
    // goes on.
    for line in input.split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        one_line(service, &line, out, at).await?;
    }
    Ok(())
}

/// Runs one line (nothing for an empty line or a comment), writing its reply and what it left
/// to be told to `out`.
pub async fn one_line(
    service: &Service,
    line: &str,
    out: &mut impl Write,
    at: &Session,
) -> std::io::Result<()> {
    let trimmed = without_comment(line.trim());
    if trimmed.is_empty() {
        return Ok(());
    }
    // The sweep writes its notices down; every notice not yet shown is shown, including those
    // of an earlier run that stopped before showing them.
    if let Err(e) = service.sweep().await {
        writeln!(out, "error: {e}")?;
    }
    notices(service, out, at).await?;
    let reply = match parse_line(trimmed) {
        Ok((who, command)) => execute(service, &who, command, at).await,
        Err(e) => Err(e),
    };
    match reply {
        Ok(text) => writeln!(out, "{text}")?,
        Err(e) => writeln!(out, "error: {e}")?,
    }
    // What the command left to be told (a tournament's games begun, its standings).
    notices(service, out, at).await?;
    bot_turns(service, out, at).await
}

/// Shows every kept notice not yet shown, oldest first.
async fn notices(service: &Service, out: &mut impl Write, at: &Session) -> std::io::Result<()> {
    for notice in service.claim_notices().await.unwrap_or_default() {
        writeln!(out, "{}", shown_text(service, &notice, at).await)?;
        let _ = service.delivered(notice.id).await;
    }
    Ok(())
}

/// The file a game's picture is saved in, named by the turn it follows as the record numbers it:
/// `game-1-start.png`, `game-1-after-3.png`, `game-1-after-3-reply.png` (after `3...`).
fn picture_name(view: &GameView) -> String {
    match crate::notation::TurnNumber::last_of(view.turns) {
        None => format!("game-{}-start.png", view.id),
        Some(n) if n.reply => format!("game-{}-after-{}-reply.png", view.id, n.round),
        Some(n) => format!("game-{}-after-{}.png", view.id, n.round),
    }
}

/// A kept notice as the local mode shows it, in the words Discord posts: a game's news with its
/// board drawn and saved, or a tournament's standings with its crosstable saved.
async fn shown_text(service: &Service, notice: &Notice, at: &Session) -> String {
    match service.notice_shown(notice).await {
        Ok(Shown::Game(g)) => {
            let said = g.text(&Plain);
            match &g.board {
                Some(png) => {
                    let name = picture_name(&g.view);
                    let board = board(at, &g.view);
                    format!("{said}\n{board}{}", save(at, &name, png))
                }
                None => said,
            }
        }
        Ok(Shown::Tournament(t)) => {
            let said = t.text(&Plain);
            match &t.crosstable {
                Some(png) => {
                    let name = format!("tournament-{}-{}.png", t.table.view.id, notice.id);
                    format!("{said}\n{}", save(at, &name, png))
                }
                None => said,
            }
        }
        Err(e) => format!("notice #{}: {e}", notice.id),
    }
}

/// Plays the bot's turn in every game where it is to move, and shows each with its picture; a
/// forecast reply played with a turn leaves taflbot to move again, and it does at once, as the
/// bot player does (a forecast line is as long as a few turns at most, so this ends).
async fn bot_turns(service: &Service, out: &mut impl Write, at: &Session) -> std::io::Result<()> {
    loop {
        let mut again = false;
        for id in service.bot_games_due().await.unwrap_or_default() {
            match service.bot_turn(id).await {
                Ok(Some(moved)) => {
                    again |= !moved.forecast.is_empty();
                    for notice in std::iter::once(moved.notice).chain(moved.forecast) {
                        writeln!(out, "{}", shown_text(service, &notice, at).await)?;
                        let _ = service.delivered(notice.id).await;
                    }
                }
                Ok(None) => {}
                Err(e) => writeln!(out, "error: taflbot could not move in game #{id}: {e}")?,
            }
        }
        if !again {
            return Ok(());
        }
    }
}

/// Writes a picture (or a GIF) and says where it went, never over an earlier file: a name taken
/// gets `-2`, `-3`, … before its extension. A file that cannot be written is said, not an error
/// (what the command did is already stored).
fn save(at: &Session, name: &str, bytes: &[u8]) -> String {
    let what = if name.ends_with(".png") {
        "picture"
    } else {
        "file"
    };
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
    let mut path = at.images.join(name);
    for n in 2.. {
        if !path.exists() {
            break;
        }
        path = at.images.join(format!("{stem}-{n}.{extension}"));
    }
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut file| file.write_all(bytes));
    match written {
        Ok(()) => format!("{what}: {}", path.display()),
        Err(e) => format!("{what} not saved ({}: {e})", path.display()),
    }
}

/// A game's board as text, with a line after it; nothing when its position does not read.
fn board(at: &Session, view: &GameView) -> String {
    let Ok(position) = crate::rules::parse_position(view.variant, &view.position) else {
        return String::new();
    };
    let mut scene = Scene::position(&position);
    for text in &view.last_turn {
        if let Ok(m) = crate::notation::parse_move(text) {
            scene.moved.push(m.from);
            scene.moved.extend(m.corner);
            scene.moved.push(m.to);
            scene.captured.extend(m.claimed.into_iter().flatten());
        }
    }
    scene.outcome = view.outcome;
    format!("{}\n", board_text(&scene, at.glyphs))
}

/// Runs one command for `me` and says what happened.
pub async fn execute(
    service: &Service,
    me: &Person,
    command: Command,
    at: &Session,
) -> Result<String, ServiceError> {
    let caller = Caller::local(me.clone(), taflbot());
    let answer = commands::apply(service, &caller, command).await?;
    Ok(show(me, answer, at))
}

/// An answer as plain text, its pictures and files saved in `images`.
fn show(me: &Person, answer: Answer, at: &Session) -> String {
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
                    let name = picture_name(&view);
                    lines.push(board(at, &view) + &save(at, &name, &png));
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
                let name = picture_name(&view);
                lines.push(board(at, &view) + &save(at, &name, &png));
            }
        }
        Answer::Challenged(c) => lines.push(text::challenge_made(&c, s)),
        Answer::Declined(c) => lines.push(text::declined(me, &c, s)),
        Answer::Withdrawn(c) => lines.push(text::withdrawn(me, &c, s)),
        Answer::Board { view, png } => {
            lines.push(text::status_line(&view, s));
            let name = format!("game-{}-board.png", view.id);
            lines.push(board(at, &view) + &save(at, &name, &png));
        }
        Answer::Games { whose, yours, list } => lines.push(text::games(&whose, yours, &list, s)),
        Answer::Leaderboard(board) => lines.push(text::leaderboard(&board, s)),
        Answer::Profile { profile, chart, .. } => {
            lines.push(text::profile(&profile, s));
            if let Some(chart) = chart {
                lines.push(save(at, "profile.png", &chart));
            }
        }
        Answer::Rules { variant, png } => {
            lines.push(text::rules(variant, s));
            lines.push(save(at, &format!("rules-{}.png", variant.id), &png));
        }
        Answer::Variants => lines.push(text::variants(s)),
        Answer::Record(done) => {
            lines.push(done.record.trim_end().to_string());
            if let Some(gif) = done.gif {
                lines.push(save(at, &format!("game-{}.gif", done.view.id), &gif));
            }
        }
        Answer::Imported(game) => {
            lines.push(game.summary);
            lines.push(game.record.trim_end().to_string());
            lines.push(save(at, "import.png", &game.png));
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
                lines.push(save(at, &format!("review-{}.png", review.game.id), &chart));
            }
        }
        Answer::Puzzle(shown) => {
            lines.push(text::puzzle_shown(&shown, s));
            let name = format!("puzzle-{}.png", shown.puzzle.id);
            lines.push(save(at, &name, &shown.png));
        }
        Answer::Solve(step) => {
            lines.push(text::solve_step(&step, s));
            let name = format!("puzzle-{}.png", step.puzzle.id);
            lines.push(save(at, &name, &step.png));
        }
        Answer::DailyPuzzle(setting) => lines.push(text::daily_setting(&setting, s)),
        Answer::Vacation {
            vacation,
            days_a_year,
        } => lines.push(text::vacation(&vacation, days_a_year, s)),
        Answer::Notify(hours) => lines.push(text::notify(&hours, s)),
        Answer::Theme(setting) => lines.push(text::theme(&setting, s)),
        Answer::Moves { game, from, moves } => {
            lines.push(text::moves(game, from.as_deref(), &moves, s))
        }
        Answer::Forecasts(list) => lines.push(text::forecasts(&list, s)),
        Answer::Note(note) => lines.push(text::note(&note, s)),
        Answer::Tournament { view, done } => lines.push(text::tournament_done(me, &view, done, s)),
        Answer::TournamentStarted(started) => lines.push(text::tournament_started(&started, s)),
        Answer::Standings { table, png } => {
            lines.push(text::standings(&table, s));
            if let Some(png) = png {
                let name = format!("tournament-{}.png", table.view.id);
                lines.push(save(at, &name, &png));
            }
        }
        Answer::Tournaments(list) => lines.push(text::tournaments(&list, s)),
        Answer::TeamStarted { view, png } => {
            lines.push(text::team_started(me, &view, s));
            lines.push(text::post(&News::Started, &view, s));
            if let Some(png) = png {
                let name = picture_name(&view);
                lines.push(board(at, &view) + &save(at, &name, &png));
            }
        }
        Answer::Voted(voted) => lines.push(text::voted(&voted, s)),
        // The window's notice is shown with the others kept, right after this line.
        Answer::WindowClosed(notice) => lines.push(text::window_closed(notice.game_id)),
        // The game's notice is shown with the others kept, right after this line.
        Answer::TeamCalledOff(notice) => lines.push(text::team_called_off(notice.game_id)),
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

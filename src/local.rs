//! The local mode: the game service driven from a terminal with the bot's commands. Each line is
//! `<user> <command> [words] [name:value ...]`, for example `alice challenge @bob variant:tyr-11
//! side:attackers`, `bob accept`, `alice move e1-e5`. Commands and their options come from the one
//! command table (`commands.rs`); the sentences from `service/text.rs`, in plain text with times in
//! UTC. Each picture is written to the images folder and its path printed. Typed at a prompt it is
//! interactive; with piped input it runs as a script and stops when the input ends.

use std::io::{BufRead, Write};
use std::path::Path;

use crate::commands::{self, Command, Kind, Value};
use crate::service::text::{self, Plain};
use crate::service::{News, Person, Service, ServiceError, Terms};

/// The local mode's help: the command table, then how a line is written.
pub fn help() -> String {
    format!(
        "{}\n\nEach line: <user> <command> [words] [name:value ...], e.g. `alice challenge @bob \
         variant:tyr-11`, `bob accept`, `alice move e1-e5`, `bob board game:1 flip`. Words fill the \
         options in order; a flag is its name.",
        commands::help(|usage| usage.trim_start_matches('/').to_string())
    )
}

/// Who the bot is in the local mode: `@taflbot`.
fn taflbot() -> Person {
    person("taflbot")
}

fn person(name: &str) -> Person {
    let name = name.trim_start_matches('@');
    Person::new(format!("local:{}", name.to_ascii_lowercase()), name)
}

/// Reads `<user> <command> [words] [name:value ...]` into who and the command.
pub fn parse_line(line: &str) -> Result<(Person, Command), ServiceError> {
    let mut parts = line.split_whitespace();
    let user = parts.next().unwrap_or_default();
    let mut name = parts
        .next()
        .unwrap_or("help")
        .trim_start_matches('/')
        .to_ascii_lowercase();
    let mut words: Vec<&str> = parts.collect();
    // Spoken forms of two commands.
    if name == "decline" && words.first() == Some(&"draw") {
        name = "declinedraw".into();
        words.remove(0);
    }
    if name == "withdraw" {
        name = "cancel".into();
    }
    let spec = commands::spec(&name).ok_or_else(|| ServiceError::UnknownCommand(name.clone()))?;
    let value = |kind: Kind, text: &str| match kind {
        Kind::User => Value::User(person(text)),
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
    std::fs::create_dir_all(images)?;
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
            for notice in service.pending_notices().await.unwrap_or_default() {
                if let Ok(view) = service.game(notice.game_id).await {
                    let said = text::notice(&notice, &view, &Plain);
                    writeln!(out, "[{}] {said}", notice.kind.as_str())?;
                }
                let _ = service.delivered(notice.id).await;
            }
            let reply = match parse_line(trimmed) {
                Ok((who, command)) => execute(service, &who, command, images).await,
                Err(e) => Err(e),
            };
            match reply {
                Ok(text) => writeln!(out, "{text}")?,
                Err(e) => writeln!(out, "error: {e}")?,
            }
            bot_turns(service, out, images).await?;
        }
        if interactive {
            write!(out, "> ")?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Plays the bot's turn in every game where it is to move, and shows each with its picture.
async fn bot_turns(service: &Service, out: &mut impl Write, images: &Path) -> std::io::Result<()> {
    for id in service.bot_games_due().await.unwrap_or_default() {
        match service.bot_turn(id).await {
            Ok(Some(notice)) => {
                if let Ok(view) = service.game(id).await {
                    writeln!(out, "{}", text::post(&notice.news(), &view, &Plain))?;
                    if let Ok(png) = service.game_picture(id).await {
                        let name = format!("game-{id}-{}.png", view.turns);
                        writeln!(out, "{}", save(images, &name, &png))?;
                    }
                }
                let _ = service.delivered(notice.id).await;
            }
            Ok(None) => {}
            Err(e) => writeln!(out, "error: taflbot could not move in game #{id}: {e}")?,
        }
    }
    Ok(())
}

/// Writes a picture and says where it went; a picture that cannot be written is said, not an
/// error (what the command did is already stored).
fn save(images: &Path, name: &str, png: &[u8]) -> String {
    let path = images.join(name);
    match std::fs::write(&path, png) {
        Ok(()) => format!("picture: {}", path.display()),
        Err(e) => format!("picture not saved ({}: {e})", path.display()),
    }
}

/// Runs one command for `me` and says what happened.
pub async fn execute(
    svc: &Service,
    me: &Person,
    command: Command,
    images: &Path,
) -> Result<String, ServiceError> {
    let s = &Plain;
    let ended = |news: News, view: crate::service::GameView| text::post(&news, &view, s);
    Ok(match command {
        Command::Help { command: None } => help(),
        Command::Help {
            command: Some(name),
        } => commands::help_for(&name, |usage| usage.trim_start_matches('/').to_string())
            .ok_or(ServiceError::UnknownCommand(name))?,
        Command::Challenge {
            opponent,
            variant,
            side,
            days,
            level,
            from,
            ..
        } if opponent.key == taflbot().key => {
            if from.is_some() {
                return Err(commands::from_for_bot());
            }
            let view = svc
                .play_bot(me, &taflbot(), &variant, side, days, level, None)
                .await?;
            let png = svc.game_picture(view.id).await?;
            format!(
                "{}\n{}\n{}",
                text::bot_game_started(me, &view, s),
                text::post(&News::Started, &view, s),
                save(images, &format!("game-{}-0.png", view.id), &png)
            )
        }
        Command::Challenge {
            level: Some(level), ..
        } => return Err(commands::level_for_people(level)),
        Command::Challenge {
            opponent,
            variant,
            side,
            days,
            level: None,
            rated,
            from,
        } => {
            let terms = Terms {
                variant: &variant,
                side,
                days,
                rated,
                from: from.as_deref(),
            };
            let c = svc.offer(me, &opponent, &terms, None).await?;
            text::challenge_made(&c, s)
        }
        Command::Accept { challenge } => {
            let view = svc.accept(me, challenge, None).await?;
            let (_, png) = svc.board(me, Some(view.id), None, false).await?;
            format!(
                "{}\n{}\n{}",
                text::accepted(me, &view, s),
                text::post(&News::Started, &view, s),
                save(images, &format!("game-{}-0.png", view.id), &png)
            )
        }
        Command::Decline { challenge } => {
            let c = svc.decline(me, challenge).await?;
            text::declined(me, &c, s)
        }
        Command::Cancel { challenge } => {
            let c = svc.withdraw(me, challenge).await?;
            text::withdrawn(me, &c, s)
        }
        Command::Move { mv, game } => {
            let played = svc.play(me, game, None, &mv).await?;
            played_reply(images, played)
        }
        Command::EndTurn { game } => played_reply(images, svc.end_turn(me, game, None).await?),
        Command::Board { game, flip } => {
            let (view, png) = svc.board(me, game, None, flip).await?;
            let name = format!("game-{}-board.png", view.id);
            format!(
                "{}\n{}",
                text::status_line(&view, s),
                save(images, &name, &png)
            )
        }
        Command::Games { player } => {
            let whose = player.unwrap_or_else(|| me.clone());
            let yours = whose.key == me.key;
            text::games(&whose, yours, &svc.games(&whose).await?, s)
        }
        Command::Takeback {
            game,
            decline: true,
        } => {
            let view = svc.decline_takeback(me, game, None).await?;
            text::news(&News::TakebackDeclined { by: me.clone() }, &view, s)
        }
        Command::Takeback {
            game,
            decline: false,
        } => match svc.takeback(me, game, None).await? {
            crate::service::Takeback::Asked { view, news } => text::post(&news, &view, s),
            crate::service::Takeback::TakenBack(played) => played_reply(images, played),
        },
        Command::AcceptTakeback { game } => {
            played_reply(images, svc.accept_takeback(me, game, None).await?)
        }
        Command::Notify { dm } => {
            svc.set_direct_messages(me, dm).await?;
            text::notify(dm, s)
        }
        Command::Vacation { set } => {
            let v = match set {
                Some(on) => svc.vacation(me, on).await?,
                None => svc.vacation_status(me).await?,
            };
            text::vacation(&v, svc.vacation_days(), s)
        }
        Command::Leaderboard { variant, page } => {
            let board = svc
                .leaderboard(variant.as_deref(), page.unwrap_or(1).max(1) as usize)
                .await?;
            text::leaderboard(&board, s)
        }
        Command::Profile { player } => {
            let whose = player.unwrap_or_else(|| me.clone());
            let profile = svc.profile(&whose).await?;
            match svc.rating_chart(&profile).await? {
                Some(chart) => format!(
                    "{}\n{}",
                    text::profile(&profile, s),
                    save(images, "profile.png", &chart)
                ),
                None => text::profile(&profile, s),
            }
        }
        Command::Resign { game } => {
            let view = svc.resign(me, game, None).await?;
            ended(News::Resigned { by: me.clone() }, view)
        }
        Command::Abort { game } => {
            let view = svc.abort(me, game, None).await?;
            ended(News::Aborted { by: me.clone() }, view)
        }
        Command::Draw { game } => {
            let (view, agreed) = svc.draw(me, game, None).await?;
            let by = me.clone();
            let news = if agreed {
                News::DrawAgreed { by }
            } else {
                News::DrawOffered { by }
            };
            text::post(&news, &view, s)
        }
        Command::AcceptDraw { game } => {
            let view = svc.accept_draw(me, game, None).await?;
            ended(News::DrawAgreed { by: me.clone() }, view)
        }
        Command::DeclineDraw { game } => {
            let view = svc.decline_draw(me, game, None).await?;
            ended(News::DrawDeclined { by: me.clone() }, view)
        }
        Command::Rules { variant } => {
            let v = crate::rules::Variant::by_id(&variant)
                .ok_or(ServiceError::UnknownVariant(variant))?;
            let png = svc.start_picture(v).await?;
            format!(
                "{}\n{}",
                text::rules(v, s),
                save(images, &format!("rules-{}.png", v.id), &png)
            )
        }
        Command::Record { game } => svc.record(me, game, None).await?,
        Command::Hint { game } => text::hint(&svc.hint(me, game, None).await?, s),
        Command::Import { moves, variant } => {
            let game = svc.import(&variant, &moves, usize::MAX).await?;
            format!(
                "{}\n{}\n{}",
                game.summary,
                game.record.trim_end(),
                save(images, "import.png", &game.png)
            )
        }
    })
}

/// The reply to a move: the news and where its picture went.
fn played_reply(images: &Path, played: crate::service::Played) -> String {
    let name = format!("game-{}-{}.png", played.view.id, played.view.turns);
    format!(
        "{}\n{}",
        text::post(&played.news, &played.view, &Plain),
        save(images, &name, &played.png)
    )
}

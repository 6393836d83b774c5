//! The local mode: the game service driven from a terminal with the bot's commands. Each line is
//! `<user> <command> [options]`, for example `alice challenge @bob variant:tyr-11 side:attackers
//! days:3`, `bob accept`, `alice move e1-e5`. Replies are printed, and each picture is written to
//! the images folder with its path printed. Typed at a prompt it is interactive; with piped input it
//! runs as a script and stops when the input ends.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use crate::render::{Scene, Theme};
use crate::rules::{Position, Variant};
use crate::service::{Person, Service, ServiceError, SideChoice};

pub const HELP: &str = "\
Commands (each line: <user> <command> [options]):
  challenge @user [variant:ID] [side:attackers|defenders|random] [days:1|2|3|5|7|10|14]
  accept [challenge]        decline [challenge]        cancel [challenge]
  decline draw [game:N]
  move <move> [game:N]      endturn [game:N]           board [game:N] [flip]
  games [player]            resign [game:N]            draw [game:N]   (offer, or accept an offer)
  abort [game:N]            record [game:N]            rules variant:ID
  help
Moves: e1-e5, e1e5, e1 e5; a jump d4^d6; Cavalry c3-c7-d7; captures may be announced: e5-e8xe9.";

/// A parsed line: who, what, the free words and the `name:value` options.
struct Line<'a> {
    user: &'a str,
    command: String,
    words: Vec<&'a str>,
    options: HashMap<String, &'a str>,
}

fn parse(line: &str) -> Option<Line<'_>> {
    let mut parts = line.split_whitespace();
    let user = parts.next()?;
    let command = parts
        .next()
        .unwrap_or("help")
        .trim_start_matches('/')
        .to_ascii_lowercase();
    let mut words = Vec::new();
    let mut options = HashMap::new();
    for part in parts {
        match part.split_once(':') {
            Some((name, value))
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic()) =>
            {
                options.insert(name.to_ascii_lowercase(), value);
            }
            _ => words.push(part),
        }
    }
    Some(Line {
        user,
        command,
        words,
        options,
    })
}

fn person(name: &str) -> Person {
    let name = name.trim_start_matches('@');
    Person::new(format!("local:{}", name.to_ascii_lowercase()), name)
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
    for line in input.lines() {
        let line = line?;
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            // The sweep writes its notices down; every notice not yet shown is shown, including
            // those of an earlier run that stopped before showing them.
            if let Err(e) = service.sweep().await {
                writeln!(out, "error: {e}")?;
            }
            for notice in service.pending_notices().await.unwrap_or_default() {
                writeln!(out, "[{}] {}", notice.kind, notice.text)?;
                let _ = service.delivered(notice.id).await;
            }
            let reply = match parse(trimmed) {
                Some(l) => execute(service, &l, images).await,
                None => Ok(HELP.to_string()),
            };
            match reply {
                Ok(text) => writeln!(out, "{text}")?,
                Err(e) => writeln!(out, "error: {e}")?,
            }
        }
        if interactive {
            write!(out, "> ")?;
            out.flush()?;
        }
    }
    Ok(())
}

fn game_option(l: &Line) -> Result<Option<i64>, ServiceError> {
    match l.options.get("game") {
        None => Ok(None),
        Some(v) => v.trim_start_matches('#').parse().map(Some).map_err(|_| {
            ServiceError::BadInput(format!("\"{v}\" is not a game number (write game:12)"))
        }),
    }
}

fn number(word: Option<&&str>) -> Option<i64> {
    word.and_then(|w| w.trim_start_matches('#').parse().ok())
}

fn save(images: &Path, name: &str, png: &[u8]) -> Result<PathBuf, ServiceError> {
    let path = images.join(name);
    std::fs::write(&path, png).map_err(|e| {
        ServiceError::BadInput(format!("cannot write the picture {}: {e}", path.display()))
    })?;
    Ok(path)
}

/// The reply to a move: the sentence and where its picture went.
fn played_reply(images: &Path, played: crate::service::Played) -> Result<String, ServiceError> {
    let name = format!("game-{}-{}.png", played.view.id, played.view.turns);
    let path = save(images, &name, &played.png)?;
    Ok(format!("{}\npicture: {}", played.text, path.display()))
}

async fn execute(svc: &Service, l: &Line<'_>, images: &Path) -> Result<String, ServiceError> {
    let me = person(l.user);
    let game = game_option(l)?;
    match l.command.as_str() {
        "help" => Ok(HELP.to_string()),
        "challenge" => {
            let Some(opponent) = l.words.first().or(l.options.get("opponent")) else {
                return Ok("challenge whom? e.g. alice challenge @bob variant:tyr-11".into());
            };
            let variant = l.options.get("variant").copied().unwrap_or("tyr-11");
            let side = match l.options.get("side") {
                Some(s) => SideChoice::parse(s).ok_or_else(|| {
                    ServiceError::BadInput(format!(
                        "\"{s}\" is not a side: attackers, defenders or random"
                    ))
                })?,
                None => SideChoice::Random,
            };
            let days = match l.options.get("days") {
                Some(d) => Some(d.parse().map_err(|_| {
                    ServiceError::BadInput(format!(
                        "\"{d}\" is not a number of days: 1, 2, 3, 5, 7, 10 or 14"
                    ))
                })?),
                None => None,
            };
            let c = svc
                .challenge(&me, &person(opponent), variant, side, days, None)
                .await?;
            Ok(format!(
                "Challenge #{}: {} challenges {} to {} ({} side for {}, {} days per move). {} may accept or decline.",
                c.id,
                c.challenger.name,
                c.challenged.name,
                c.variant.name,
                c.side.as_str(),
                c.challenger.name,
                c.days,
                c.challenged.name
            ))
        }
        "accept" => {
            let view = svc.accept(&me, number(l.words.first()), None).await?;
            let (_, png) = svc.board(&me, Some(view.id), None, false).await?;
            let path = save(images, &format!("game-{}-0.png", view.id), &png)?;
            Ok(format!(
                "Game #{} begins: {} ({}) against {} ({}). {}\npicture: {}",
                view.id,
                view.players[0].name,
                view.variant.side_name(crate::rules::Side::Attackers),
                view.players[1].name,
                view.variant.side_name(crate::rules::Side::Defenders),
                view.status_line(),
                path.display()
            ))
        }
        "decline" if l.words.first() == Some(&"draw") => {
            let view = svc.decline_draw(&me, game, None).await?;
            Ok(format!(
                "{} declined the draw offer in game #{}.",
                me.name, view.id
            ))
        }
        "decline" => {
            let c = svc.decline(&me, number(l.words.first())).await?;
            Ok(format!("{} declined challenge #{}.", me.name, c.id))
        }
        "cancel" | "withdraw" => {
            let c = svc.withdraw(&me, number(l.words.first())).await?;
            Ok(format!("{} withdrew challenge #{}.", me.name, c.id))
        }
        "move" => {
            if l.words.is_empty() {
                return Ok("which move? e.g. alice move e1-e5".into());
            }
            played_reply(images, svc.play(&me, game, None, &l.words.join(" ")).await?)
        }
        "endturn" => played_reply(images, svc.end_turn(&me, game, None).await?),
        "board" => {
            let flip =
                l.words.contains(&"flip") || l.options.get("flip").is_some_and(|v| *v == "true");
            let (view, png) = svc.board(&me, game, None, flip).await?;
            let path = save(images, &format!("game-{}-board.png", view.id), &png)?;
            Ok(format!(
                "{}\npicture: {}",
                view.status_line(),
                path.display()
            ))
        }
        "games" => {
            let who = l.words.first().map(|w| person(w)).unwrap_or(me);
            let games = svc.games(&who).await?;
            if games.is_empty() {
                return Ok(format!("{} has no game in progress.", who.name));
            }
            let lines: Vec<String> = games
                .iter()
                .map(|g| {
                    let mover = if g.your_turn {
                        &who.name
                    } else {
                        &g.opponent.name
                    };
                    format!(
                        "#{} {} against {}: {mover} to move, {}",
                        g.id,
                        g.variant.name,
                        g.opponent.name,
                        crate::service::deadline_text(g.deadline)
                    )
                })
                .collect();
            Ok(lines.join("\n"))
        }
        "resign" => {
            let view = svc.resign(&me, game, None).await?;
            Ok(view.status_line())
        }
        "draw" => {
            let (view, agreed) = svc.draw(&me, game, None).await?;
            Ok(if agreed {
                view.status_line()
            } else {
                format!("{} offers a draw in game #{}.", me.name, view.id)
            })
        }
        "abort" => Ok(svc.abort(&me, game, None).await?.status_line()),
        "record" => svc.record(&me, game, None).await,
        "rules" => {
            let id = l
                .options
                .get("variant")
                .or(l.words.first())
                .copied()
                .unwrap_or("tyr-11");
            let v =
                Variant::by_id(id).ok_or_else(|| ServiceError::UnknownVariant(id.to_string()))?;
            let png = svc
                .renderer()
                .png(&Scene::position(&Position::start(v)), Theme::Classic);
            let path = save(images, &format!("rules-{}.png", v.id), &png)?;
            Ok(format!(
                "{}: {}\nstart: {}\npicture: {}",
                v.name,
                v.summary,
                v.setup,
                path.display()
            ))
        }
        other => Ok(format!("unknown command \"{other}\".\n{HELP}")),
    }
}

//! The answers to commands: challenges, lists of games, leaderboards and profiles, the hint,
//! vacation and direct messages, rules, records and imports.

use super::{days, listed, Style};
use crate::render::reason_text;
use crate::rules::{Outcome, Side, Variant};
use crate::service::{Challenge, GameSummary, GameView, Person, DAY};

/// The challenge as posted to the challenged player.
pub fn challenge_made(c: &Challenge, s: &dyn Style) -> String {
    let v = c.variant;
    let sides = match c.side.side() {
        None => "sides drawn by lot".to_string(),
        Some(side) => format!("{} plays {}", s.name(&c.challenger), v.the_side(side)),
    };
    let sides = match c.continued {
        Some(n) => format!("continuing a game after its first {n} moves, {sides}"),
        None => sides,
    };
    format!(
        "{}, {} challenges you to {} {} ({}): {sides}, {} per move. Challenge #{} is open until {}.",
        s.mention(&c.challenged),
        s.mention(&c.challenger),
        if c.rated { "a rated game of" } else { "a friendly game of" },
        s.strong(v.name),
        v.id,
        days(c.days),
        c.id,
        s.time(c.expires_at),
    )
}

/// The answer to an acceptance: the game has begun, and where it is played.
pub fn accepted(who: &Person, view: &GameView, s: &dyn Style) -> String {
    let place = view
        .thread
        .as_deref()
        .or(view.channel.as_deref())
        .and_then(|p| s.place(p))
        .map(|p| format!(" It is played in {p}."))
        .unwrap_or_default();
    format!(
        "{} accepted: game #{} ({}) has begun.{place}",
        s.name(who),
        view.id,
        view.variant.name
    )
}

/// The answer to a challenge of the bot: the game has begun.
pub fn bot_game_started(who: &Person, view: &GameView, s: &dyn Style) -> String {
    let place = view
        .place()
        .and_then(|p| s.place(p))
        .map(|p| format!(" It is played in {p}."))
        .unwrap_or_default();
    let (bot_side, level) = view
        .bot
        .unwrap_or((view.to_move, crate::engine::DEFAULT_LEVEL));
    let human_side = view.variant.side_name(bot_side.other());
    let first = if view.to_move == bot_side {
        "taflbot moves first and will answer in a moment"
    } else {
        "you move first"
    };
    format!(
        "{} takes on taflbot: game #{} ({}) has begun, taflbot at level {level}. {} plays the {human_side}; {first}.{place}",
        s.name(who),
        view.id,
        view.variant.name,
        s.name(who),
    )
}

pub fn declined(who: &Person, c: &Challenge, s: &dyn Style) -> String {
    format!(
        "{} declined challenge #{} from {}.",
        s.name(who),
        c.id,
        s.mention(&c.challenger)
    )
}

pub fn withdrawn(who: &Person, c: &Challenge, s: &dyn Style) -> String {
    format!("{} withdrew challenge #{}.", s.name(who), c.id)
}

/// A player's games in progress, theirs to move first; `yours` when the reader asked for their own.
pub fn games(whose: &Person, yours: bool, list: &[GameSummary], s: &dyn Style) -> String {
    if list.is_empty() {
        return if yours {
            format!(
                "You have no game in progress. {} someone!",
                s.code("/challenge")
            )
        } else {
            format!("{} has no game in progress.", s.name(whose))
        };
    }
    let head = if yours {
        "Your games:".to_string()
    } else {
        format!("Games of {}:", s.name(whose))
    };
    listed(head, list.iter().map(|g| game_line(whose, yours, g, s)))
}

/// "#3 TYR 11x11 vs bob: your move, deadline ...".
pub fn game_line(whose: &Person, yours: bool, g: &GameSummary, s: &dyn Style) -> String {
    let whose_move = match (g.your_turn, yours) {
        (true, true) => "your move".to_string(),
        (true, false) => format!("{}'s move", s.name(whose)),
        (false, _) => format!("{}'s move", s.name(&g.opponent)),
    };
    let clock = if g.paused {
        "clock stopped (vacation)".to_string()
    } else {
        super::deadline(g.deadline, s)
    };
    format!(
        "#{} {} vs {}: {whose_move}, {clock}",
        g.id,
        g.variant.name,
        s.name(&g.opponent),
    )
}

/// A game in a short list of choices (autocomplete).
pub fn game_choice(g: &GameSummary) -> String {
    let whose = if g.your_turn {
        "your move"
    } else {
        "their move"
    };
    format!("#{} {} vs {}: {whose}", g.id, g.variant.id, g.opponent.name)
}

/// A page of a leaderboard: rank, name, rating (`?` while provisional) and rated games.
pub fn leaderboard(b: &crate::service::Leaderboard, s: &dyn Style) -> String {
    let head = format!(
        "{} ratings here, page {} of {} ({} {}):",
        s.strong(b.variant.name),
        b.page,
        b.pages,
        b.players,
        if b.players == 1 { "player" } else { "players" }
    );
    listed(
        head,
        b.lines.iter().map(|r| {
            format!(
                "{}. {} {} ({})",
                r.rank,
                s.name(&r.player),
                crate::rating::shown(&r.rating),
                games_count(r.games)
            )
        }),
    )
}

fn games_count(n: i64) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

/// A player's profile: per variant the rating and the results by side, then the games going on.
pub fn profile(p: &crate::service::Profile, s: &dyn Style) -> String {
    if p.standings.is_empty() && p.current.is_empty() && p.puzzles.is_none() {
        return format!("{} has not played here yet.", s.name(&p.player));
    }
    let tally = |t: &crate::service::Tally| format!("{}-{}-{}", t.won, t.drawn, t.lost);
    let mut lines: Vec<String> = p
        .standings
        .iter()
        .map(|st| {
            let rating = match &st.rating {
                Some(r) => format!("{} (±{})", crate::rating::shown(r), r.deviation.round()),
                None => "unrated".to_string(),
            };
            format!(
                "{}: {rating}; won-drawn-lost as {} {}, as {} {}",
                st.variant.name,
                st.variant.side_name(Side::Attackers),
                tally(&st.as_attackers),
                st.variant.side_name(Side::Defenders),
                tally(&st.as_defenders),
            )
        })
        .collect();
    if let Some(r) = &p.puzzles {
        lines.push(format!(
            "Puzzles: {} (±{}); {} solved of {} rated",
            crate::rating::shown(&r.rating),
            r.rating.deviation.round(),
            r.solves,
            r.tries
        ));
    }
    if !p.current.is_empty() {
        lines.push("Games in progress:".to_string());
        lines.extend(p.current.iter().map(|g| game_line(&p.player, false, g, s)));
    }
    listed(
        format!("Profile of {}:", s.name(&p.player)),
        lines.into_iter(),
    )
}

/// The engine's suggestion.
pub fn hint(h: &crate::service::Hint, s: &dyn Style) -> String {
    let side = h.variant.side_name(h.side);
    let when = if h.before_the_end {
        format!("Before the last turn of game #{}", h.game)
    } else if h.finished {
        format!("At the end of game #{}", h.game)
    } else {
        format!("In game #{}", h.game)
    };
    let judged = match (h.won_in, h.score) {
        (Some(n), _) if n > 0 => format!(", and the {side} win in {n}"),
        (Some(n), _) => format!(", though the {side} lose in {}", -n),
        (None, Some(cp)) => {
            let chance = crate::engine::review::Curve::of(h.variant).chance(h.side, cp);
            format!(
                " ({} for the {side}, as a review would judge it)",
                super::a_chance(chance)
            )
        }
        (None, None) => String::new(),
    };
    let mut line: Vec<&str> = h.line.iter().map(String::as_str).collect();
    line.truncate(12);
    format!(
        "{when} taflbot would play {} for the {side}{judged}. The line it expects: {} {}.",
        s.code(&format!("{} {}", h.number, h.turn.join(" "))),
        h.number,
        line.join(" ")
    )
}

/// The answer to `/notify`: where each setting stands.
pub fn notify(h: &crate::service::Hours, s: &dyn Style) -> String {
    let zone = h.zone.as_deref().unwrap_or("UTC");
    let dm = if h.dm {
        "Your turns and reminders come by direct message too (closed direct messages are said once in the game's thread, and they stop)."
    } else {
        "Your turns are told in the games' threads, not by direct message."
    };
    let digest = match h.digest {
        Some(hour) => format!(
            "A digest of the games waiting for you comes each day at {hour:02}:00 ({zone}), when one waits."
        ),
        None => "No daily digest.".to_string(),
    };
    let quiet = match h.quiet {
        Some((from, to)) => format!(
            "Quiet hours {from:02}:00 to {to:02}:00 ({zone}): no ping and no direct message then; what was held is told when they end, and a reminder that would fall in them comes before."
        ),
        None => "No quiet hours.".to_string(),
    };
    format!(
        "{dm}\n{digest}\n{quiet}\n{} changes them.",
        s.code("/notify dm: digest: hour: quiet: zone:")
    )
}

/// A player's legal moves in a game, or those of the piece on one square, as many as a message
/// holds.
pub fn moves(game: i64, from: Option<&str>, moves: &[String], s: &dyn Style) -> String {
    let whose = match from {
        Some(square) => format!("from {}", s.code(square.trim())),
        None => "in all".to_string(),
    };
    let head = format!(
        "Your moves in game #{game}, {whose}: {}.",
        super::counted(moves.len() as i64, "move", "moves")
    );
    let shown: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    format!(
        "{head}\n{}",
        super::joined_within(&shown, super::LIST_CHARS)
    )
}

/// Where the themes stand: the caller's, and the server's default.
pub fn theme(t: &crate::service::ThemeSetting, s: &dyn Style) -> String {
    use crate::render::Theme;
    let server = t.server.unwrap_or(Theme::Classic);
    let first = if t.set_server {
        format!(
            "This server's game threads are drawn in {} ({}) now, and so are the pictures of everyone who chose no theme.",
            s.strong(server.name()),
            server.about()
        )
    } else {
        let theirs = t.theirs();
        let why = match (t.mine, t.in_server) {
            (Some(_), _) => "your choice",
            (None, true) => "this server's default",
            (None, false) => "the default",
        };
        format!(
            "Your pictures are drawn in {} ({}), {why}.",
            s.strong(theirs.name()),
            theirs.about()
        )
    };
    let threads = if t.in_server && !t.set_server {
        format!(
            "\nThis server's game threads are drawn in {}.",
            s.strong(server.name())
        )
    } else {
        String::new()
    };
    format!(
        "{first}{threads}\n{} changes it.",
        s.code("/theme set:classic|contrast|colour-blind")
    )
}

/// The daily digest: the games waiting for the player, the least time left first.
pub fn digest(d: &crate::service::Digest, s: &dyn Style) -> String {
    let lines = d.games.iter().map(|(g, place)| {
        let line = game_line(&d.to, true, g, s);
        match place.as_deref().and_then(|p| s.place(p)) {
            Some(place) => format!("{line} {place}"),
            None => line,
        }
    });
    listed(
        format!(
            "{} game{} wait{} for your move:",
            d.games.len(),
            if d.games.len() == 1 { "" } else { "s" },
            if d.games.len() == 1 { "s" } else { "" }
        ),
        lines,
    )
}

/// What quiet hours held, told when they end.
pub fn held(h: &crate::service::Held, s: &dyn Style) -> String {
    let lines = h.games.iter().map(|(game, reminder, place)| {
        let what = if *reminder {
            "your move, and a reminder"
        } else {
            "your move"
        };
        match place.as_deref().and_then(|p| s.place(p)) {
            Some(place) => format!("Game #{game}: {what} {place}"),
            None => format!("Game #{game}: {what}"),
        }
    });
    listed(
        "Your quiet hours are over. While they ran:".to_string(),
        lines,
    )
}

/// Where a vacation stands, after `/vacation` (on, off, or asked).
pub fn vacation(v: &crate::service::Vacation, days_a_year: u32, s: &dyn Style) -> String {
    let left = days_and_hours(v.left);
    match (v.since, v.until) {
        (Some(_), Some(until)) => format!(
            "You are on vacation: your clocks are stopped in every game, and your opponents see \
             it. It ends when you say vacation off, or by itself {} when your days run out \
             ({left} left of {days_a_year} this year).",
            s.time_and_distance(until)
        ),
        _ => format!(
            "You are not on vacation; {left} of your {days_a_year} days this year are left. \
             vacation on stops your clocks in every game."
        ),
    }
}

/// "3 days 4 hours", "5 hours", "0 hours".
pub(super) fn days_and_hours(seconds: i64) -> String {
    let seconds = seconds.max(0);
    let (d, h) = (seconds / DAY, (seconds % DAY) / 3600);
    match (d, h) {
        (0, h) => format!("{h} {}", if h == 1 { "hour" } else { "hours" }),
        (d, 0) => days(d as u32),
        (d, h) => format!(
            "{} {h} {}",
            days(d as u32),
            if h == 1 { "hour" } else { "hours" }
        ),
    }
}

/// The variants, one a line: the id to type, and the name.
pub fn variants(s: &dyn Style) -> String {
    listed(
        format!(
            "The variants ({}), by the id to type:",
            Variant::all().len()
        ),
        Variant::all()
            .iter()
            .map(|v| format!("{}: {}", s.code(v.id), v.name)),
    )
}

/// A variant's rules.
pub fn rules(v: &Variant, s: &dyn Style) -> String {
    format!(
        "{} ({})\n{}\nStart: {}",
        s.strong(v.name),
        v.id,
        v.summary,
        s.code(v.setup)
    )
}

/// The answer to a record request; `gif_left_out` when the GIF would pass the upload limit.
pub fn record_of(game: i64, gif_left_out: Option<usize>) -> String {
    match gif_left_out {
        None => format!("The record of game #{game}."),
        Some(limit) => format!("The record of game #{game}. {}", gif_too_large(limit)),
    }
}

/// Why a GIF is not attached.
pub fn gif_too_large(limit: usize) -> String {
    format!(
        "The GIF of the whole game would pass the upload limit here ({:.1} MiB), so it is left out.",
        limit as f64 / (1024.0 * 1024.0)
    )
}

/// What an import found.
pub fn imported(v: &Variant, moves: usize, outcome: Option<Outcome>, to_move: Side) -> String {
    let state = match outcome {
        Some(o) => match o.winner {
            Some(side) => format!("{} won: {}", v.the_side(side), reason_text(o.reason)),
            None => format!("a draw: {}", reason_text(o.reason)),
        },
        None => format!("{} to move", v.the_side(to_move)),
    };
    format!(
        "{moves} moves of {} replayed, every move and capture checked; {state}.",
        v.name
    )
}

/// An option that could not be read, as Discord hands it over.
pub fn unreadable(input: Option<&str>, why: &str) -> String {
    match input {
        Some(input) => format!("I could not read \"{input}\": {why}."),
        None => format!("I could not read the command's options: {why}."),
    }
}

pub const STALE_COMMAND: &str = "I could not read this command's options: Discord may still show an older version of it. Try again in a minute.";

pub const UNKNOWN_COMMAND: &str = "taflbot has no such command now: Discord may still show an older list of its commands. Try again in a minute, or see /help.";

pub const STALE_BUTTON: &str = "This button is no longer in use.";

/// The answer to `/forecast`: what it did, then the caller's lines in the game.
pub fn forecasts(f: &crate::service::Forecasts, s: &dyn Style) -> String {
    use crate::service::ForecastDone;
    let done = match f.done {
        ForecastDone::Shown => String::new(),
        ForecastDone::Kept => "Kept. ".to_string(),
        ForecastDone::AlreadyKept => "That line is kept already. ".to_string(),
        ForecastDone::Cleared => format!("Your forecasts in game #{} are gone. ", f.game),
    };
    if f.lines.is_empty() {
        return format!(
            "{done}You keep no forecast in game #{}. {} answers their next move ahead.",
            f.game,
            s.code("/forecast line:their-move,your-answer")
        );
    }
    let lines: Vec<String> = f
        .lines
        .iter()
        .map(|line| {
            // Their moves, then each answer after an arrow: "e4-e6 → f1-f3, d1-d3 → …".
            let pairs: Vec<String> = line
                .chunks(2)
                .map(|pair| match pair {
                    [theirs, yours] => format!("{theirs} → {}", s.strong(yours)),
                    [theirs] => theirs.clone(),
                    _ => String::new(),
                })
                .collect();
            format!("- {}", pairs.join(", "))
        })
        .collect();
    format!(
        "{done}Your forecasts in game #{} (their move → your answer, played at once):\n{}",
        f.game,
        lines.join("\n")
    )
}

/// The answer to `/note`: what it did, then the note, which only its author sees.
pub fn note(n: &crate::service::Note, s: &dyn Style) -> String {
    use crate::service::NoteDone;
    let done = match n.done {
        NoteDone::Shown => "",
        NoteDone::Kept => "Kept, for you alone. ",
        NoteDone::Cleared => "Your note is gone. ",
    };
    match &n.text {
        Some(text) => format!("{done}Your note on game #{}:\n{}", n.game, s.quote(text)),
        None => format!(
            "{done}You keep no note on game #{}. {} keeps one, for you alone.",
            n.game,
            s.code("/note text:…")
        ),
    }
}

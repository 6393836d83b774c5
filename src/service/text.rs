//! Every sentence a player reads, in one place, made from data: names, game numbers, moves, times.
//! A front end chooses only how the pieces look through a [`Style`]: Discord escapes names, pings
//! by id and shows times as timestamps each reader sees in their own zone; the local mode prints
//! plain text in UTC. (Why a move is illegal is the rules core's sentence, `rules/error.rs`.)

use super::error::Ending;
use super::{Challenge, GameSummary, GameView, News, Notice, Person, ServiceError, DAY};
use crate::notation::quoted;
use crate::render::reason_text;
use crate::rules::{Outcome, Side, Variant};

/// How a front end shows the pieces of a sentence.
pub trait Style {
    /// A player's name, as text that shows as itself.
    fn name(&self, p: &Person) -> String;
    /// A player addressed: a ping where the front end has them, otherwise the name.
    fn mention(&self, p: &Person) -> String {
        self.name(p)
    }
    /// A moment (Unix seconds).
    fn time(&self, t: i64) -> String;
    /// A moment as a reader counts to it ("in 2 days"); plain text has only the moment.
    fn time_and_distance(&self, t: i64) -> String {
        self.time(t)
    }
    /// Emphasis.
    fn strong(&self, text: &str) -> String {
        text.to_string()
    }
    /// Text quoted as typed (a command, a position string).
    fn code(&self, text: &str) -> String {
        text.to_string()
    }
    /// A channel or thread, when the front end has them.
    fn place(&self, _id: &str) -> Option<String> {
        None
    }
}

/// Plain text, times in UTC: the local mode, logs and `Display`.
pub struct Plain;

impl Style for Plain {
    fn name(&self, p: &Person) -> String {
        p.name.clone()
    }

    fn time(&self, t: i64) -> String {
        utc(t)
    }
}

/// A Unix time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc(t: i64) -> String {
    match chrono::DateTime::from_timestamp(t, 0) {
        Some(at) => at.format("%Y-%m-%d %H:%M UTC").to_string(),
        None => format!("{t} seconds after 1970"),
    }
}

/// A sentence from a phrase: capital first letter, full stop.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

fn ids(list: &[i64]) -> String {
    list.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "1 day", "3 days".
pub fn days(n: u32) -> String {
    if n == 1 {
        "1 day".to_string()
    } else {
        format!("{n} days")
    }
}

/// "Ann (attackers) won: the king was captured", "a draw: agreed".
pub fn outcome(v: &Variant, players: &[Person; 2], o: Outcome, s: &dyn Style) -> String {
    let why = reason_text(o.reason);
    match o.winner {
        Some(side) => format!(
            "{} ({}) won: {why}",
            s.name(&players[side as usize]),
            v.side_name(side)
        ),
        None => format!("a draw: {why}"),
    }
}

/// "deadline 2026-11-25 14:00 UTC".
pub fn deadline(t: i64, s: &dyn Style) -> String {
    format!("deadline {}", s.time_and_distance(t))
}

/// One line on the state of a game: who is to move and by when, or how it ended.
pub fn status_line(view: &GameView, s: &dyn Style) -> String {
    if view.aborted {
        return format!("Game #{} was aborted.", view.id);
    }
    match view.outcome {
        None => {
            let who = &view.players[view.to_move as usize];
            let clock = if view.away[view.to_move as usize] {
                format!("clock stopped while {} is on vacation", s.name(who))
            } else {
                deadline(view.deadline, s)
            };
            format!(
                "Game #{}: {} ({}) to move, {clock}.",
                view.id,
                s.name(who),
                view.variant.side_name(view.to_move),
            )
        }
        Some(o) => format!(
            "Game #{} is over: {}.{}",
            view.id,
            outcome(view.variant, &view.players, o, s),
            rating_changes(view, s)
        ),
    }
}

/// " Ratings: Ann 1662 (+162), Bob 1338 (-162)." after a rated result; nothing otherwise.
fn rating_changes(view: &GameView, s: &dyn Style) -> String {
    let Some(changes) = view.ratings else {
        return String::new();
    };
    let each: Vec<String> = changes
        .iter()
        .zip(&view.players)
        .map(|(c, p)| {
            format!(
                "{} {} ({})",
                s.name(p),
                c.after.round() as i64,
                crate::rating::change(c.before, c.after)
            )
        })
        .collect();
    format!(" Ratings: {}.", each.join(", "))
}

/// What happened in a game, with where it stands now.
pub fn news(news: &News, view: &GameView, s: &dyn Style) -> String {
    let status = status_line(view, s);
    match news {
        News::Started => {
            let [a, d] = &view.players;
            format!(
                "Game #{}: {}. {} plays the {}, {} the {}. {}.",
                view.id,
                s.strong(view.variant.name),
                s.mention(a),
                view.variant.side_name(Side::Attackers),
                s.mention(d),
                view.variant.side_name(Side::Defenders),
                deadline(view.deadline, s)
            )
        }
        News::Moved { by, text } => {
            let again = if view.open_chain {
                format!(
                    " {} may capture again with the same piece, or end the turn.",
                    s.name(by)
                )
            } else {
                String::new()
            };
            format!("{} played {text}.{again} {status}", s.name(by))
        }
        News::TurnEnded { by } => format!("{} ended the turn. {status}", s.name(by)),
        News::Resigned { by } => format!("{} resigned. {status}", s.name(by)),
        News::Aborted { by } => format!("{} called the game off. {status}", s.name(by)),
        News::DrawAgreed { by } => format!("{} accepted the draw. {status}", s.name(by)),
        News::DrawOffered { by } => {
            let other = view.players.iter().find(|p| p.key != by.key).unwrap_or(by);
            format!(
                "{} offers a draw in game #{}. {}, do you accept?",
                s.name(by),
                view.id,
                s.mention(other)
            )
        }
        News::DrawDeclined { by } => {
            format!("{} declined the draw in game #{}.", s.name(by), view.id)
        }
        News::Reminder { to } => format!(
            "{}, game #{} is waiting for your move: {}.",
            s.mention(to),
            view.id,
            deadline(view.deadline, s)
        ),
        News::Timeout { late } => format!("{} ran out of time. {status}", s.name(late)),
        News::Update => status,
        News::TakebackAsked { by, turn } => {
            let other = view.opponent_of(by);
            format!(
                "{} asks to take back their last turn ({}) in game #{}. {}, do you agree?",
                s.name(by),
                s.code(turn),
                view.id,
                s.mention(other)
            )
        }
        News::TakebackAccepted { by } => {
            format!(
                "{} agreed: the last turn is taken back. {status}",
                s.name(by)
            )
        }
        News::TakebackDeclined { by } => format!(
            "{} declined to take back the last turn in game #{}.",
            s.name(by),
            view.id
        ),
    }
}

/// The sentence of a notice, from its data and its game as it is now.
pub fn notice(n: &Notice, view: &GameView, s: &dyn Style) -> String {
    news(&n.news(), view, s)
}

/// Who is addressed at the end of a post: the player to move, or both players at the end.
pub fn call_to_move(view: &GameView, s: &dyn Style) -> String {
    match &view.waiting_for {
        Some(next) if bot_to_move(view) => format!("{} is thinking.", s.name(next)),
        Some(next) => format!("{}, your move.", s.mention(next)),
        None => humans(view)
            .map(|p| s.mention(p))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Whether the bot is to move in a game against it.
fn bot_to_move(view: &GameView) -> bool {
    view.waiting_for.is_some() && view.bot.is_some_and(|(side, _)| side == view.to_move)
}

/// The players who are people: both, or the bot's opponent.
fn humans(view: &GameView) -> impl Iterator<Item = &Person> {
    let bot = view.bot.map(|(side, _)| side as usize);
    view.players
        .iter()
        .enumerate()
        .filter(move |(i, _)| Some(*i) != bot)
        .map(|(_, p)| p)
}

/// The challenge as posted to the challenged player.
pub fn challenge_made(c: &Challenge, s: &dyn Style) -> String {
    let v = c.variant;
    let sides = match c.side {
        super::SideChoice::Random => "sides drawn by lot".to_string(),
        side => format!("{} plays the {}", s.name(&c.challenger), side.as_str()),
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

/// The engine's suggestion.
pub fn hint(h: &crate::service::Hint, s: &dyn Style) -> String {
    let side = h.variant.side_name(h.side);
    let when = if h.before_the_end {
        format!("Before the last turn of game #{}", h.game)
    } else {
        format!("In game #{}", h.game)
    };
    let judged = match (h.won_in, h.score) {
        (Some(n), _) if n > 0 => format!(", and the {side} win in {n}"),
        (Some(n), _) => format!(", though the {side} lose in {}", -n),
        (None, Some(cp)) => format!(" (the {side} stand {cp:+} in hundredths of a man)"),
        (None, None) => String::new(),
    };
    let mut line: Vec<&str> = h.line.iter().map(String::as_str).collect();
    line.truncate(12);
    format!(
        "{when} taflbot would play {} for the {side}{judged}. The line it expects: {}.",
        s.code(&h.turn.join(" ")),
        line.join(" ")
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

/// The private note to a player whose command's news went to the game's thread.
pub fn posted_elsewhere(view: &GameView, s: &dyn Style) -> String {
    match view
        .thread
        .as_deref()
        .or(view.channel.as_deref())
        .and_then(|p| s.place(p))
    {
        Some(p) => format!(
            "Done. Game #{} is played in {p}; the news is posted there.",
            view.id
        ),
        None => format!("Done (game #{}).", view.id),
    }
}

/// The name of a game's thread.
pub fn thread_name(view: &GameView) -> String {
    let [a, d] = &view.players;
    format!(
        "#{} {} vs {} · {}",
        view.id, a.name, d.name, view.variant.id
    )
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

/// A heading and lines, one per row, cut to fit one message: the lines that do not fit are
/// counted in a last line.
pub fn listed(head: String, lines: impl ExactSizeIterator<Item = String>) -> String {
    let total = lines.len();
    let mut text = head;
    for (i, line) in lines.enumerate() {
        // Room is kept for the last line, which says how many are left out.
        if text.chars().count() + line.chars().count() + 40 > LIST_CHARS {
            text.push_str(&format!("\n…and {} more.", total - i));
            break;
        }
        text.push('\n');
        text.push_str(&line);
    }
    text
}

/// The most characters of a list in one message (Discord allows 2,000).
pub const LIST_CHARS: usize = 1900;

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
        deadline(g.deadline, s)
    };
    format!(
        "#{} {} vs {}: {whose_move}, {clock}",
        g.id,
        g.variant.name,
        s.name(&g.opponent),
    )
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
    if p.standings.is_empty() && p.current.is_empty() {
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
    if !p.current.is_empty() {
        lines.push("Games in progress:".to_string());
        lines.extend(p.current.iter().map(|g| game_line(&p.player, false, g, s)));
    }
    listed(
        format!("Profile of {}:", s.name(&p.player)),
        lines.into_iter(),
    )
}

/// The direct message that tells a player of their turn or a reminder, or nothing for news that
/// does not call on `to`.
pub fn direct_message(n: &News, view: &GameView, to: &Person, s: &dyn Style) -> Option<String> {
    let calls = match n {
        News::Reminder { to: reminded } => reminded.key == to.key,
        News::Started
        | News::Moved { .. }
        | News::TurnEnded { .. }
        | News::TakebackAccepted { .. } => {
            view.waiting_for.as_ref().is_some_and(|w| w.key == to.key)
        }
        _ => false,
    };
    if !calls {
        return None;
    }
    let place = view
        .place()
        .and_then(|p| s.place(p))
        .map(|p| format!(" in {p}"))
        .unwrap_or_default();
    let opponent = view.opponent_of(to);
    let what = match n {
        News::Reminder { .. } => "is still waiting for your move",
        _ => "is waiting for your move",
    };
    Some(format!(
        "Game #{} ({}) against {}{place} {what}: {}.",
        view.id,
        view.variant.name,
        s.name(opponent),
        deadline(view.deadline, s)
    ))
}

/// Said in the game's thread, once, when a player's direct messages are closed.
pub fn direct_messages_closed(to: &Person, s: &dyn Style) -> String {
    format!(
        "{}, taflbot cannot send you direct messages (they are closed), so your turns are told          here again. {} tries once more.",
        s.mention(to),
        s.code("/notify dm:on")
    )
}

/// The answer to `/notify`.
pub fn notify(on: bool, s: &dyn Style) -> String {
    if on {
        format!(
            "Your turns and reminders come by direct message too. If your direct messages are              closed, taflbot says so in the game's thread once and stops trying. {} stops them.",
            s.code("/notify dm:off")
        )
    } else {
        "No more direct messages: your turns are told in the games' threads.".to_string()
    }
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
fn days_and_hours(seconds: i64) -> String {
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

/// A game in a short list of choices (autocomplete).
pub fn game_choice(g: &GameSummary) -> String {
    let whose = if g.your_turn {
        "your move"
    } else {
        "their move"
    };
    format!("#{} {} vs {}: {whose}", g.id, g.variant.id, g.opponent.name)
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
            Some(side) => format!("the {} won: {}", v.side_name(side), reason_text(o.reason)),
            None => format!("a draw: {}", reason_text(o.reason)),
        },
        None => format!("the {} to move", v.side_name(to_move)),
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
pub const STALE_BUTTON: &str = "This button is no longer in use.";

/// Why a use case refused, as a phrase (see [`sentence`]).
pub fn refusal(e: &ServiceError, s: &dyn Style) -> String {
    use ServiceError::*;
    match e {
        UnknownVariant(v) => {
            let ids: Vec<&str> = Variant::all().iter().map(|v| v.id).collect();
            format!(
                "there is no variant \"{}\"; the variants are {}",
                quoted(v),
                ids.join(", ")
            )
        }
        SelfChallenge => "you cannot challenge yourself".into(),
        ChallengeOpen(id) => format!(
            "challenge #{id} between you two is still open: answer or withdraw it first"
        ),
        TooManyChallenges(max) => format!(
            "you have {max} open challenges, the most there may be: wait for answers or withdraw one"
        ),
        ChallengeCooldown(wait) => format!(
            "you challenged this player a moment ago: wait {wait} more seconds before challenging them again"
        ),
        NotAPerson => "bots do not play here: challenge a person".into(),
        BadLevel(l) => format!("the bot plays at levels 1 to 5, not {l}"),
        LevelForPeople => "a level is for games against taflbot; a challenge to a person has none".into(),
        TooManyBotGames(max) => format!(
            "you have {max} games against the bot going, the most there may be: finish one first"
        ),
        NoHintHere(id) => format!(
            "no hints in game #{id}: hints are for games against the bot and for finished games"
        ),
        BadDays(d) => {
            format!("{d} days per move is not offered: choose 1, 2, 3, 5, 7, 10 or 14")
        }
        NoSuchChallenge(Some(id)) => format!("there is no challenge #{id}"),
        NoSuchChallenge(None) => "you have no open challenge to answer".into(),
        SeveralChallenges(list) => {
            format!("you have several open challenges ({}): name one", ids(list))
        }
        NotYourChallenge => "this is not your challenge".into(),
        OwnChallenge => format!(
            "this is your own challenge: only the challenged player answers it ({} withdraws it)",
            s.code("/cancel")
        ),
        OutOfTime {
            game,
            yours: true,
            ..
        } => format!("your time in game #{game} ran out: the game is lost on time"),
        OutOfTime { game, late, .. } => format!(
            "{}'s time in game #{game} ran out: {} lost on time",
            s.name(late),
            s.name(late)
        ),
        BadOption {
            option,
            given,
            expected,
        } => format!(
            "\"{}\" is not {expected} (option {})",
            quoted(given),
            quoted(option)
        ),
        MissingOption { option, example } => {
            format!("the option {option} is needed, e.g. {}", s.code(example))
        }
        UnknownCommand(c) => format!("there is no command \"{}\"; help lists them", quoted(c)),
        BadImport(e) => format!("the move list does not replay: {e}"),
        ImportTooLong { moves, max } => format!(
            "the move list has {moves} moves; an import takes at most {max}"
        ),
        ChallengeClosed(id, status) => {
            format!("challenge #{id} is no longer open ({})", status.as_str())
        }
        NoSuchGame(id) => format!("there is no game #{id}"),
        OtherServer(id) => format!("game #{id} is played on another server, and is seen only there"),
        NoGames => "you have no game in progress".into(),
        OnVacation { until } => format!(
            "you are on vacation already, until {} at the latest; vacation off ends it",
            s.time_and_distance(*until)
        ),
        NotOnVacation => "you are not on vacation".into(),
        ContinuedVariant { record, asked } => format!(
            "the record is a game of {}, not {}: challenge with variant:{}",
            record.name, asked.name, record.id
        ),
        ContinuedOver => "that game is over already: only a game still going on can be continued".into(),
        TakebackAsked(g) => format!("you asked for a takeback in game #{g} already; your opponent has not answered"),
        NoTakeback(g) => format!("nobody asked you for a takeback in game #{g}"),
        NothingToTakeBack(g) => format!("you have no turn to take back in game #{g}"),
        NoVacationLeft { days } => format!(
            "your vacation days for this year are used up ({days} a year); they come again on 1 January"
        ),
        NotInServer => "leaderboards belong to servers: ask in a server's channel".into(),
        NoRatings(None) => "nobody here has a rating yet: rated games make them".into(),
        NoRatings(Some(v)) => format!("nobody here has a rating in {} yet", v.name),
        NoGameWaiting => "no game is waiting for your move".into(),
        SeveralGames(list) => format!(
            "several of your games match ({}): say which with game:",
            ids(list)
        ),
        NotAPlayer(id) => format!("you are not playing in game #{id}"),
        NotYourTurn { game, waiting_for } => format!(
            "it is not your turn in game #{game}: it is {}'s move",
            s.name(waiting_for)
        ),
        GameOver(id, None) => format!("game #{id} is over"),
        GameOver(id, Some(Ending::Aborted)) => format!("game #{id} is over: it was aborted"),
        GameOver(
            id,
            Some(Ending::Outcome {
                variant,
                players,
                outcome: o,
            }),
        ) => format!("game #{id} is over: {}", outcome(variant, players, *o, s)),
        Move(e) => e.to_string(),
        PositionChanged(id) => format!(
            "the position of game #{id} changed while you moved: look again and retry"
        ),
        CannotAbort(id) => format!("game #{id} has begun: resign instead of aborting"),
        NoDrawOffer(id) => format!("there is no draw offer to answer in game #{id}"),
        DrawAlreadyOffered(id) => format!("you have already offered a draw in game #{id}"),
        Broken(id) => format!(
            "game #{id} could not be loaded: its stored moves no longer replay. It has been set aside and reported"
        ),
        Corrupt(why) => format!("stored data is damaged: {why}"),
        Internal(why) => format!("taflbot failed at this ({why}); try again"),
        Database(why) => {
            format!("the database failed ({why}); nothing was changed, try again")
        }
    }
}

/// A game's news as posted: the sentence, then who is called to move (or both players, at the
/// end). [`pinged`] says whom the post may ping.
pub fn post(n: &News, view: &GameView, s: &dyn Style) -> String {
    let text = news(n, view, s);
    match n {
        News::Reminder { .. }
        | News::DrawOffered { .. }
        | News::DrawDeclined { .. }
        | News::TakebackAsked { .. }
        | News::TakebackDeclined { .. } => text,
        _ => format!("{text}\n{}", call_to_move(view, s)),
    }
}

/// The players a post of this news pings: the one addressed, never anyone named in other text.
pub fn pinged<'a>(n: &'a News, view: &'a GameView) -> Vec<&'a Person> {
    match n {
        News::Reminder { to } => vec![to],
        News::DrawOffered { by } => view.players.iter().filter(|p| p.key != by.key).collect(),
        News::TakebackAsked { by, .. } => view.players.iter().filter(|p| p.key != by.key).collect(),
        News::DrawDeclined { .. } | News::TakebackDeclined { .. } => Vec::new(),
        _ => match &view.waiting_for {
            Some(_) if bot_to_move(view) => Vec::new(),
            Some(next) => vec![next],
            None => humans(view).collect(),
        },
    }
}

//! What happened in a game: the news as posted in the game's thread, the status line, and the
//! direct message of a turn or reminder.

use super::Style;
use crate::render::reason_text;
use crate::rules::{BySide, Outcome, Side, Variant};
use crate::service::{GameView, News, Notice, Person};

/// "Ann (attackers) won: the king was captured", "a draw: agreed".
pub fn outcome(v: &Variant, players: &BySide<Person>, o: Outcome, s: &dyn Style) -> String {
    let why = reason_text(o.reason);
    match o.winner {
        Some(side) => format!(
            "{} ({}) won: {why}",
            s.name(&players[side]),
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
            let who = &view.players[view.to_move];
            let clock = if view.away[view.to_move] {
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

/// " Ratings: Ann 1662 (+162), Bob 1338 (-162)." after a rated result, and why not after one
/// past the pair's daily limit; nothing otherwise.
fn rating_changes(view: &GameView, s: &dyn Style) -> String {
    if view.pair_limited {
        return format!(
            " Not rated: {} rated results between the same two players count in a day, and these two have had theirs.",
            crate::service::PAIR_RESULTS_PER_DAY
        );
    }
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
            let BySide {
                attackers: a,
                defenders: d,
            } = &view.players;
            format!(
                "Game #{}: {}. {} plays {}, {} {}. {}.",
                view.id,
                s.strong(view.variant.name),
                s.mention(a),
                view.variant.the_side(Side::Attackers),
                s.mention(d),
                view.variant.the_side(Side::Defenders),
                crate::render::capitalise(&deadline(view.deadline, s))
            )
        }
        News::Moved { by, text } => {
            let again = match view.chain.filter(|_| view.open_chain) {
                Some(square) => format!(
                    " {} may capture again with the piece on {square}, or end the turn with {}.",
                    s.name(by),
                    s.code("/endturn")
                ),
                None => String::new(),
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
        News::TakebackAccepted { by, turns, turn } => {
            format!("{}. {status}", taken_back(view, by, *turns, turn, s))
        }
        News::TakebackDeclined { by } => format!(
            "{} declined to take back the last turn in game #{}.",
            s.name(by),
            view.id
        ),
        News::Forecast { by, text } => {
            format!("{} played {text}, as forecast. {status}", s.name(by))
        }
        News::Voted { by, tally } => voted(by, tally, view, &status, s),
        News::NoVotes { team, empty } => format!(
            "Nobody voted for {} in game #{}'s window ({} of {} in a row loses on time): it is open again until {}.",
            s.name(team),
            view.id,
            empty,
            crate::service::EMPTY_WINDOWS_LOSE,
            s.time_and_distance(view.deadline)
        ),
        News::MoreTime { by, days } => format!(
            "{} gave {} {} more on this move in game #{}: {}.",
            s.name(by),
            s.name(view.opponent_of(by)),
            super::days(*days),
            view.id,
            deadline(view.deadline, s)
        ),
    }
}

/// A window's turn played (numbered as the record numbers it: it is the game's last), with its
/// tally: the winner's votes, then up to four more turns'.
fn voted(
    by: &Person,
    tally: &crate::service::VoteTally,
    view: &GameView,
    status: &str,
    s: &dyn Style,
) -> String {
    let mut counts = tally.counts.iter();
    let Some((turn, n)) = counts.next() else {
        return status.to_string();
    };
    let mut rest: Vec<String> = counts.map(|(t, n)| format!("{} {n}", s.code(t))).collect();
    if tally.others() > 0 {
        rest.push(format!("others {}", tally.others()));
    }
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!("; {}", rest.join(", "))
    };
    let rule = if tally.resign_held_back() {
        " Resigning needs more than half of the votes."
    } else {
        ""
    };
    format!(
        "{} voted {} ({n} of {} {}{rest}).{rule} {status}",
        s.name(by),
        s.strong(&s.code(&crate::notation::numbered_last(view.turns, turn))),
        tally.voters,
        if tally.voters == 1 { "vote" } else { "votes" }
    )
}

/// The sentence of a notice, from its data and its game as it is now.
pub fn notice(n: &Notice, view: &GameView, s: &dyn Style) -> String {
    news(&n.news(), view, s)
}

/// A game's news as posted: the sentence, then who is called to move (or both players, at the
/// end). [`News::addressees`] says whom the post may ping.
pub fn post(n: &News, view: &GameView, s: &dyn Style) -> String {
    let text = news(n, view, s);
    match n {
        News::Reminder { .. }
        | News::DrawOffered { .. }
        | News::DrawDeclined { .. }
        | News::TakebackAsked { .. }
        | News::TakebackDeclined { .. } => text,
        _ => match call_to_move(view, s) {
            call if call.is_empty() => text,
            call => format!("{text}\n{call}"),
        },
    }
}

/// Who is addressed at the end of a post: the player to move, or both players at the end (a
/// bare line of their pings, so nothing where mentions do not ping).
pub fn call_to_move(view: &GameView, s: &dyn Style) -> String {
    match &view.waiting_for {
        Some(next) if view.bot_to_move() => format!("{} is thinking.", s.name(next)),
        // The other server's team, seen from this server's thread.
        Some(team) if view.seen_from.is_some_and(|side| side != view.to_move) => format!(
            "{} votes until {}.",
            s.name(team),
            s.time_and_distance(view.deadline)
        ),
        Some(team) if team.is_team() => format!(
            "{}, your vote: {} until {}.",
            s.name(team),
            s.code("/vote"),
            s.time_and_distance(view.deadline)
        ),
        Some(next) => format!("{}, your move.", s.mention(next)),
        None if !s.pings() => String::new(),
        None => view
            .people()
            .map(|p| s.mention(p))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The direct message that tells a player of their turn or a reminder, or nothing for news that
/// does not call on `to` ([`News::calls_on`]).
pub fn direct_message(n: &News, view: &GameView, to: &Person, s: &dyn Style) -> Option<String> {
    if !n.calls_on(view, to) {
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
        "{}, taflbot cannot send you direct messages (they are closed), so your turns are told \
         here again. {} tries once more.",
        s.mention(to),
        s.code("/notify dm:on")
    )
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
    let BySide {
        attackers: a,
        defenders: d,
    } = &view.players;
    format!(
        "#{} {} vs {} · {}",
        view.id, a.name, d.name, view.variant.id
    )
}

/// A takeback agreed: the turn taken back (numbered, where the notice names it), and the reply to
/// it when one had come.
fn taken_back(view: &GameView, by: &Person, turns: u8, turn: &str, s: &dyn Style) -> String {
    let named = if turn.is_empty() {
        String::new()
    } else {
        format!(" ({})", s.code(turn))
    };
    let what = if turns > 1 {
        let asker = view.opponent_of(by);
        format!(
            "{}'s last turn{named} and the reply to it are taken back (two turns)",
            s.name(asker)
        )
    } else {
        format!("the last turn{named} is taken back")
    };
    format!("{} agreed: {what}", s.name(by))
}

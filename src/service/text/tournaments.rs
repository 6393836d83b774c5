//! The sentences of tournaments: made, joined, left, started, called off, listed and stood, and
//! the news posted in a tournament's thread after each result.

use super::{counted, days, listed, Style};
use crate::service::{
    half_points, Crosstable, Person, Started, TournamentDone, TournamentStatus as Status,
    TournamentView, MIN_PLAYERS,
};

/// `#3 Brandubh round robin`: its name, typed by its creator, shown as itself as a player's is.
fn title(t: &TournamentView, s: &dyn Style) -> String {
    let name = s.name(&Person::new(String::new(), t.name.clone()));
    format!("#{} {}", t.id, s.strong(&name))
}

/// What it is: `a rated round robin of Brandubh, 3 days per move`.
fn terms(t: &TournamentView) -> String {
    let rated = if t.rated { "a rated" } else { "an unrated" };
    let rounds = if t.format == crate::service::Format::Swiss && t.rounds > 0 {
        format!(" of {}", counted(t.rounds, "round", "rounds"))
    } else {
        String::new()
    };
    format!(
        "{rated} {}{rounds} of {}, {} per move, two-game matches with the sides swapped",
        t.format.name(),
        t.variant.name,
        days(t.days as u32)
    )
}

fn entrants(t: &TournamentView, s: &dyn Style) -> String {
    let names: Vec<String> = t
        .players
        .iter()
        .filter(|e| !e.withdrawn)
        .map(|e| s.name(&e.person))
        .collect();
    format!(
        "players ({}/{}): {}",
        names.len(),
        t.max_players,
        if names.is_empty() {
            "none".into()
        } else {
            super::joined_within(&names, ENTRANTS_CHARS)
        }
    )
}

/// The most characters the list of a tournament's players takes in an answer, so that the
/// sentences around it always fit (32 names written in markup run past 2,000).
const ENTRANTS_CHARS: usize = 900;

/// The answer to a tournament made, joined, left or called off.
pub fn tournament_done(
    who: &Person,
    t: &TournamentView,
    done: TournamentDone,
    s: &dyn Style,
) -> String {
    match done {
        TournamentDone::Created => format!(
            "{} made tournament {}: {}. Join with {}; {} or a server manager starts it with {} once {} or more have joined (within {} days, or it lapses).\n{}.",
            s.name(who),
            title(t, s),
            terms(t),
            s.code(&format!("/tournament join tournament:{}", t.id)),
            s.name(&t.creator),
            s.code(&format!("/tournament start tournament:{}", t.id)),
            MIN_PLAYERS,
            super::super::tournaments::LAPSES_AFTER_DAYS,
            entrants(t, s)
        ),
        TournamentDone::Joined => format!(
            "{} joined tournament {}.\n{}.",
            s.name(who),
            title(t, s),
            entrants(t, s)
        ),
        TournamentDone::Left if t.status == Status::Open => format!(
            "{} left tournament {}.\n{}.",
            s.name(who),
            title(t, s),
            entrants(t, s)
        ),
        TournamentDone::Left => format!(
            "{} withdrew from tournament {}: their games still going are lost by forfeit{}.",
            s.name(who),
            title(t, s),
            if t.rated {
                ", rated as the tournament is"
            } else {
                " (the tournament is unrated)"
            }
        ),
        TournamentDone::Cancelled => format!(
            "Tournament {} is called off by {}: its games still going are played on as ordinary games.",
            title(t, s),
            s.name(who)
        ),
    }
}

/// Where a running tournament stands: `round 2 of 3`, or what is left.
fn round(t: &TournamentView) -> String {
    use crate::service::Format;
    match t.format {
        Format::Swiss => format!("round {} of {}", t.stage, t.rounds),
        Format::RoundRobin if t.stage >= 2 => "the final of the group winners".into(),
        Format::RoundRobin => "every match at once".into(),
        Format::Knockout => format!("round {}", t.stage),
    }
}

/// The answer to a tournament started: the games begun, the byes, and the seeds (each player
/// addressed: they are in).
pub fn tournament_started(started: &Started, s: &dyn Style) -> String {
    let t = &started.tournament;
    let mut head = format!(
        "Tournament {} has begun ({}): {} games begin now.",
        title(t, s),
        round(t),
        started.games.len()
    );
    if !started.byes.is_empty() {
        let byes: Vec<String> = started.byes.iter().map(|p| s.name(p)).collect();
        head.push_str(&format!(
            " A bye (a won match) this round: {}.",
            byes.join(", ")
        ));
    }
    head.push_str(" Seeds:");
    listed(
        head,
        t.players
            .iter()
            .map(|e| format!("{}. {}", e.seed.unwrap_or(0) + 1, s.mention(&e.person))),
    )
}

/// The standings, first place first: points, Sonneborn-Berger, wins.
pub fn standings(table: &Crosstable, s: &dyn Style) -> String {
    let t = &table.view;
    let state = match t.status {
        Status::Open => {
            return format!(
                "Tournament {} has not started. {}.",
                title(t, s),
                entrants(t, s)
            )
        }
        Status::Running => round(t),
        Status::Finished => match &t.winner {
            Some(w) => format!("finished: {} won", s.name(w)),
            None => "finished".into(),
        },
        Status::Cancelled => "called off".into(),
    };
    let head = format!("Tournament {} ({state}):", title(t, s));
    listed(
        head,
        table.lines.iter().enumerate().map(|(i, l)| {
            let withdrawn = if l.withdrawn { ", withdrawn" } else { "" };
            format!(
                "{}. {} {} (SB {:.2}, {} won{withdrawn})",
                i + 1,
                s.name(&l.person),
                half_points(l.line.points),
                l.line.sonneborn_berger as f64 / 4.0,
                l.line.wins
            )
        }),
    )
}

/// The news posted in a tournament's thread after a result: the standings, and the winner when
/// this result ended it (`ended`).
pub fn tournament_news(table: &Crosstable, ended: bool, s: &dyn Style) -> String {
    let t = &table.view;
    let mut out = standings(table, s);
    if ended && t.status == Status::Finished {
        if let Some(w) = &t.winner {
            out = format!("{} wins tournament {}!\n{out}", s.mention(w), title(t, s));
        }
    }
    out
}

/// The tournaments here.
pub fn tournaments(list: &[TournamentView], s: &dyn Style) -> String {
    if list.is_empty() {
        return format!(
            "No tournaments here yet: make one with {}.",
            s.code("/tournament create variant:brandubh")
        );
    }
    listed(
        "Tournaments here:".into(),
        list.iter().map(|t| {
            let state = match t.status {
                Status::Open => format!("open, {} joined", t.players.len()),
                Status::Running => format!("running, {}", round(t)),
                Status::Finished => match &t.winner {
                    Some(w) => format!("won by {}", s.name(w)),
                    None => "finished".into(),
                },
                Status::Cancelled => "called off".into(),
            };
            format!("{}: {}, {state}", title(t, s), t.variant.name)
        }),
    )
}

//! Team games: begun, a vote kept, and a server's games and record.

use super::Style;
use crate::rules::Side;
use crate::service::{
    GameView, Person, SideChoice, TeamChallenge, TeamGames, TeamLine, TeamRole, Voted,
};

/// A team and the side it plays, as a game's start names them.
fn team_side(view: &GameView, side: Side, s: &dyn Style) -> String {
    format!(
        "{} {}",
        s.name(&view.players[side]),
        view.variant.the_side(side)
    )
}

/// A team game begun, as its starter is answered.
pub fn team_started(who: &Person, view: &GameView, s: &dyn Style) -> String {
    let place = view
        .place()
        .and_then(|p| s.place(p))
        .map(|p| format!(" It is played in {p}."))
        .unwrap_or_default();
    let hours = view.vote_window.unwrap_or(0) / 3600;
    let sides = |side| team_side(view, side, s);
    let level = view
        .bot
        .map(|(_, level)| format!(", taflbot at level {level}"))
        .unwrap_or_default();
    format!(
        "{} started team game #{} ({}{level}): {} against {}. Each turn is a window of {hours} {}: vote with {}.{place}",
        s.name(who),
        view.id,
        view.variant.name,
        sides(Side::Attackers),
        sides(Side::Defenders),
        if hours == 1 { "hour" } else { "hours" },
        s.code("/vote"),
    )
}

/// A vote kept, as the voter is told (privately).
pub fn voted(v: &Voted, s: &dyn Style) -> String {
    let others = v.votes - 1;
    format!(
        "{} {} for turn {} of game #{}. {} voted so far; the window closes {}.",
        if v.changed {
            "Your vote is now"
        } else {
            "You voted"
        },
        s.code(&v.turn),
        v.turn_number,
        v.game,
        match others {
            0 => "Only you have".to_string(),
            1 => "You and 1 other have".to_string(),
            n => format!("You and {n} others have"),
        },
        s.time_and_distance(v.closes_at)
    )
}

/// How many have voted in a window, for the game's thread: the count, never the turns.
pub fn votes_so_far(game: i64, votes: i64, closes_at: i64, s: &dyn Style) -> String {
    format!(
        "Game #{game}: {} so far; the window closes {}.",
        match votes {
            1 => "1 vote".to_string(),
            n => format!("{n} votes"),
        },
        s.time_and_distance(closes_at)
    )
}

/// One team game in a list.
fn line(l: &TeamLine, s: &dyn Style) -> String {
    let vs = format!(
        "{} v {}",
        s.name(&l.players[Side::Attackers]),
        s.name(&l.players[Side::Defenders])
    );
    let state = match l.to_move {
        Some(side) => format!(
            "{} to move, window closes {}",
            s.name(&l.players[side]),
            s.time_and_distance(l.deadline)
        ),
        None => match l.result.winner() {
            Some(side) => format!("won by {}", s.name(&l.players[side])),
            None => "drawn".to_string(),
        },
    };
    format!("#{} {} — {vs}: {state}", l.id, l.variant.name)
}

/// The server's team games going on, or its record.
pub fn team_games(g: &TeamGames, record: bool, s: &dyn Style) -> String {
    let mut out = Vec::new();
    if record {
        out.push(format!(
            "{} in team games: {} won, {} drawn, {} lost{}.",
            s.strong("This server"),
            g.won,
            g.drawn,
            g.lost,
            match g.between_roles {
                0 => String::new(),
                n => format!(" ({n} more between its own roles)"),
            }
        ));
        out.extend(g.finished.iter().map(|l| line(l, s)));
    } else if g.going.is_empty() {
        out.push(format!(
            "No team game is going on here. Start one with {}.",
            s.code("/teamgame start")
        ));
    } else {
        out.push(format!("{}:", s.strong("Team games going on here")));
        out.extend(g.going.iter().map(|l| line(l, s)));
    }
    out.join("\n")
}

/// A challenge between servers: its terms, as both servers read them.
fn challenge_terms(c: &TeamChallenge, s: &dyn Style) -> String {
    let side = match c.side {
        SideChoice::Random => None,
        SideChoice::Attackers => Some(Side::Attackers),
        SideChoice::Defenders => Some(Side::Defenders),
    };
    let sides = match side {
        None => "sides drawn by lot".to_string(),
        Some(side) => format!("{} plays {}", s.name(&c.from), c.variant.the_side(side)),
    };
    format!(
        "a team game of {} ({sides}, each turn a window of {} {})",
        s.strong(c.variant.name),
        c.hours,
        if c.hours == 1 { "hour" } else { "hours" }
    )
}

/// A challenge between servers, as it is shown in the home of the server challenged, above
/// its buttons.
pub fn team_challenge_shown(c: &TeamChallenge, s: &dyn Style) -> String {
    format!(
        "{} challenges {} to {}. Team challenge #{}, made by {}: this server's managers accept or decline it below, until {}.",
        s.name(&c.from),
        s.name(&c.to),
        challenge_terms(c, s),
        c.id,
        s.name(&c.by),
        s.time(c.expires_at)
    )
}

/// A challenge between servers made, as its maker is told.
pub fn team_challenge_made(c: &TeamChallenge, s: &dyn Style) -> String {
    format!(
        "Team challenge #{} is shown in {}'s home: {}. Its managers accept or decline it there, until {}.",
        c.id,
        s.name(&c.to),
        challenge_terms(c, s),
        s.time(c.expires_at)
    )
}

/// A challenge between servers that could not be shown in the other server's home, withdrawn.
pub fn team_challenge_not_shown(c: &TeamChallenge, s: &dyn Style) -> String {
    format!(
        "Discord would not let taflbot post in {}'s home for team games, so team challenge #{} is withdrawn: one of its managers chooses a channel where taflbot may post, with {}.",
        s.name(&c.to),
        c.id,
        s.code("/teamgame home")
    )
}

/// A challenge between servers declined, as both servers are told.
pub fn team_challenge_declined(c: &TeamChallenge, by: &Person, s: &dyn Style) -> String {
    format!(
        "{} declined team challenge #{} from {} ({} answered).",
        s.name(&c.to),
        c.id,
        s.name(&c.from),
        s.name(by)
    )
}

/// A challenge between servers accepted: the game begun, each server in its own thread.
pub fn team_challenge_accepted(view: &GameView, by: &Person, s: &dyn Style) -> String {
    let sides = |side| team_side(view, side, s);
    format!(
        "{} accepted: team game #{} ({}) has begun, {} against {}. Each server votes for its side in its own thread, with {}.",
        s.name(by),
        view.id,
        view.variant.name,
        sides(Side::Attackers),
        sides(Side::Defenders),
        s.code("/vote")
    )
}

/// A team game's window closed early, for the one who closed it (the turn is told in the
/// game's thread).
pub fn window_closed(game: i64) -> String {
    format!("The window of game #{game} is closed.")
}

/// A team game called off, for the manager who did it (the threads are told).
pub fn team_called_off(game: i64) -> String {
    format!("Team game #{game} is called off.")
}

/// The server's home for team games set (with the role it pings), or taken away.
pub fn team_home(home: Option<&str>, ping: Option<&TeamRole>, s: &dyn Style) -> String {
    let Some(channel) = home else {
        return "This server has no home for team games now: no other server can challenge it, and \
                the challenges to it still open are withdrawn."
            .to_string();
    };
    let ping = match ping {
        Some(role) => format!(
            " The role {} is pinged before this server's windows close in those games.",
            s.name(&Person::new(format!("role:{}", role.id), &role.name))
        ),
        None => String::new(),
    };
    format!(
        "This server's home for team games is {}: challenges from other servers are shown here, and its thread of each game between servers is opened here.{ping}",
        s.place(channel).unwrap_or_else(|| "this channel".to_string())
    )
}

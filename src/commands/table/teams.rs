//! The team games' rows of the command table: the vote, and the `teamgame` group.

use super::super::{Command, Kind, Spec};
use super::{needed, opt, GAME, ROW};
use crate::service::SideChoice;

/// The team games' commands, in the order the help lists them.
pub(super) const ROWS: [Spec; 8] = [
    Spec {
        name: "vote",
        description: "Vote for your side's turn in a team game.",
        more: "Only your side's members vote, and only while its window is open; a new vote replaces yours. The thread sees how many voted, not for what, until the window closes. A vote for resign resigns the game for your side where it wins the window.",
        options: &[
            needed("move", "The turn, e.g. d3-d1, or resign (type to see the legal moves)", Kind::Move),
            GAME,
        ],
        read: |a| Ok(Command::Vote { mv: a.needed_text("move")?, game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "teamgame start",
        description: "Start a team game: this server against taflbot, or one role against another (for managers).",
        more: concat!(
            "Give opponent:@taflbot (every member votes; anyone may start one) or attackers:@role and defenders:@role (a member of both votes for neither; managers only, since its reminders may ping the roles). Each turn is a window of votes, ",
            window_hours!(),
            " hours (default 24); the most-voted turn is played, a tie going to the turn that reached its count first. Three windows in a row without a vote lose on time. Never rated."
        ),
        options: &[
            needed("variant", "The variant (type to search)", Kind::Variant),
            opt("opponent", "taflbot, to play the bot", Kind::User),
            opt("attackers", "The role that plays the attackers", Kind::Role),
            opt("defenders", "The role that plays the defenders", Kind::Role),
            opt("side", "Against taflbot: the server's side (default: random)", Kind::Side),
            opt(
                "level",
                concat!("Against taflbot: its level, ", levels!(), " (default ", default_level!(), ")"),
                Kind::Level,
            ),
            opt("hours", concat!("Hours of each window of votes: ", window_hours!(), " (default 24)"), Kind::Count),
            opt("ping", "Ping the role when its window is about to close (default: false)", Kind::Flag),
        ],
        read: |a| {
            Ok(Command::TeamStart {
                opponent: a.user("opponent")?,
                attackers: a.role("attackers")?,
                defenders: a.role("defenders")?,
                variant: a.needed_variant("variant")?,
                side: a.side("side")?.unwrap_or(SideChoice::Random),
                level: a.level("level")?,
                hours: a.count("hours")?,
                ping: a.flag_or("ping", false)?,
            })
        },
        ..ROW
    },
    Spec {
        name: "teamgame challenge",
        description: "Challenge another server to a team game (for managers).",
        more: concat!(
            "Name the server by its id (Copy Server ID). Its managers accept or decline in the channel it chose with /teamgame home; each server votes for its side in its own thread and sees the other's turns. Windows of ",
            window_hours!(),
            " hours (default 24)."
        ),
        options: &[
            needed("server", "The other server's id (Copy Server ID)", Kind::Text),
            needed("variant", "The variant (type to search)", Kind::Variant),
            opt("side", "This server's side (default: random)", Kind::Side),
            opt("hours", concat!("Hours of each window of votes: ", window_hours!(), " (default 24)"), Kind::Count),
        ],
        read: |a| {
            Ok(Command::TeamChallenge {
                server: a.needed_text("server")?,
                variant: a.needed_variant("variant")?,
                side: a.side("side")?.unwrap_or(SideChoice::Random),
                hours: a.count("hours")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "teamgame home",
        description: "Make this channel where other servers challenge this one (for managers).",
        more: "Challenges from other servers are shown here, and this server's thread of each game between servers is opened here. ping:@role pings that role before this server's windows close in those games. off:true takes the home away: no server can challenge this one then, and the challenges to it still open are withdrawn.",
        options: &[
            opt("ping", "A role to ping before this server's windows close (default: none)", Kind::Role),
            opt("off", "Take the home away (default: false)", Kind::Flag),
        ],
        read: |a| Ok(Command::TeamHome { ping: a.role("ping")?, off: a.flag_or("off", false)? }),
        ..ROW
    },
    Spec {
        name: "teamgame play",
        description: "Close your side's window now and play its most-voted turn.",
        more: "For the server's managers and the game's captain (who started it; between two roles, for the team of the role they hold).",
        options: &[GAME],
        read: |a| Ok(Command::TeamPlay { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "teamgame cancel",
        description: "Call a team game of this server off, with no result (for managers).",
        more: "At any move: a team game is never rated. In a game between servers, either server's managers may; both threads are told.",
        options: &[GAME],
        read: |a| Ok(Command::TeamCancel { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "teamgame list",
        description: "The team games going on in this server.",
        read: |_| Ok(Command::TeamList),
        ..ROW
    },
    Spec {
        name: "teamgame record",
        description: "This server's record in team games.",
        read: |_| Ok(Command::TeamRecord),
        ..ROW
    },
];

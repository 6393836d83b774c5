//! The tournaments' rows of the command table: the `tournament` group.

use super::super::{Command, Kind, Spec};
use super::{needed, opt, ROW, TOURNAMENT};

/// The tournaments' commands, in the order the help lists them.
pub(super) const ROWS: [Spec; 7] = [
    Spec {
        name: "tournament create",
        description: "Make a tournament here of two-game matches (sides swapped), and be its first player.",
        more: "Formats: round-robin (groups of at most 8, whose winners meet in a final), swiss (no rematches; a bye scores a won match) or knockout (byes for the top seeds; a drawn match goes to the shorter win, then the higher seed). A won game is 1 point, a draw ½. Ties are broken by head-to-head, Sonneborn-Berger, wins, then the shortest win. Players join with tournament join; you or a server manager start it with tournament start.",
        options: &[
            needed("variant", "The variant (type to search)", Kind::Variant),
            opt("format", "round-robin, swiss or knockout (default: round-robin)", Kind::Format),
            opt("name", "Its name (default: the variant and format)", Kind::Text),
            opt(
                "days",
                concat!("Days per move in its games: ", days_per_move!(), " (default ", default_days!(), ")"),
                Kind::Days,
            ),
            opt("rated", "Whether its games change ratings (default: true)", Kind::Flag),
            opt("rounds", "Swiss rounds (default: as many as the field needs)", Kind::Count),
            opt("players", "The most players it takes, 3 to 32 (default: 32)", Kind::Count),
        ],
        read: |a| {
            Ok(Command::TournamentCreate {
                variant: a.needed_variant("variant")?,
                format: a.format("format")?.unwrap_or(crate::service::Format::RoundRobin),
                name: a.text("name")?.filter(|t| !t.trim().is_empty()),
                days: a.days("days")?,
                rated: a.flag_or("rated", true)?,
                rounds: a.count("rounds")?,
                players: a.count("players")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "tournament join",
        description: "Join a tournament that has not started.",
        options: &[TOURNAMENT],
        read: |a| Ok(Command::TournamentJoin { tournament: a.number("tournament")? }),
        ..ROW
    },
    Spec {
        name: "tournament leave",
        description: "Leave a tournament; after its start, your games still going are forfeited.",
        options: &[TOURNAMENT],
        read: |a| Ok(Command::TournamentLeave { tournament: a.number("tournament")? }),
        ..ROW
    },
    Spec {
        name: "tournament start",
        description: "Start a tournament you made (or any here, if you manage the server).",
        more: "It needs 3 players at least. Players are seeded by their rating here, and the first round's games begin at once, each in its own thread.",
        options: &[TOURNAMENT],
        read: |a| Ok(Command::TournamentStart { tournament: a.number("tournament")? }),
        ..ROW
    },
    Spec {
        name: "tournament standings",
        description: "A tournament's standings, with its crosstable.",
        options: &[TOURNAMENT],
        read: |a| Ok(Command::TournamentStandings { tournament: a.number("tournament")? }),
        ..ROW
    },
    Spec {
        name: "tournament list",
        description: "The tournaments of this server: open, running and lately finished.",
        read: |_| Ok(Command::TournamentList),
        ..ROW
    },
    Spec {
        name: "tournament cancel",
        description: "Call off a tournament you made (or any here, if you manage the server).",
        more: "Its games still going are played on as ordinary games; no further round is paired.",
        options: &[TOURNAMENT],
        read: |a| Ok(Command::TournamentCancel { tournament: a.number("tournament")? }),
        ..ROW
    },
];

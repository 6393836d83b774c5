//! The command table: one row per command, each with its options, its help and its reader (the
//! function that turns the options given into a [`Command`]). Nothing else names the commands:
//! Discord's registration, the local mode's parser and both help texts are made from these rows.

use super::{Command, Kind, Opt, Spec};
use crate::service::SideChoice;

const fn opt(name: &'static str, description: &'static str, kind: Kind) -> Opt {
    Opt {
        name,
        description,
        kind,
        required: false,
    }
}

const fn needed(name: &'static str, description: &'static str, kind: Kind) -> Opt {
    Opt {
        name,
        description,
        kind,
        required: true,
    }
}

const GAME: Opt = opt(
    "game",
    "The game (needed only when several of yours are here)",
    Kind::Game,
);
const WAITING_GAME: Opt = opt(
    "game",
    "The game (needed only when several of yours wait here)",
    Kind::Game,
);
const TOURNAMENT: Opt = opt(
    "tournament",
    "The tournament number (needed only when several here could be meant)",
    Kind::Tournament,
);
const CHALLENGE: Opt = opt(
    "challenge",
    "The challenge number (needed only when you have several)",
    Kind::Challenge,
);

/// A row with the defaults of most rows: no aliases, no more help, only in a server. Every row
/// names its reader; one that did not would refuse its command (a test reads every row).
const ROW: Spec = Spec {
    name: "",
    aliases: &[],
    description: "",
    more: "",
    options: &[],
    guild_only: true,
    read: |a| Err(a.unread()),
};

/// The commands that hold subcommands (rows named in two words), with what they are for.
pub const GROUPS: &[(&str, &str)] = &[
    ("tournament", "Round robins, Swiss, knockouts."),
    ("teamgame", "The server as a team, by vote."),
];

/// The commands, in the order the help lists them: most, then the team games', then the help.
pub const COMMANDS: &[Spec] = &joined::<
    { ROWS.len() + tournaments::ROWS.len() },
    { teams::ROWS.len() },
    1,
    { ROWS.len() + tournaments::ROWS.len() + teams::ROWS.len() + 1 },
>(
    joined::<
        { ROWS.len() },
        { tournaments::ROWS.len() },
        0,
        { ROWS.len() + tournaments::ROWS.len() },
    >(ROWS, tournaments::ROWS, []),
    teams::ROWS,
    [HELP],
);

/// The table made of its parts, in order.
const fn joined<const A: usize, const B: usize, const C: usize, const N: usize>(
    a: [Spec; A],
    b: [Spec; B],
    c: [Spec; C],
) -> [Spec; N] {
    assert!(
        A + B + C == N,
        "the table's length is the sum of its parts'"
    );
    let mut out = [ROW; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < A {
            a[i]
        } else if i < A + B {
            b[i - A]
        } else {
            c[i - A - B]
        };
        i += 1;
    }
    out
}

/// Every command but the team games' and the help.
const ROWS: [Spec; 32] = [
    Spec {
        name: "challenge",
        description: "Challenge someone, or taflbot.",
        more: concat!(
            "They answer with the buttons, or accept and decline; cancel withdraws it. Days per move: ",
            days_per_move!(),
            " (default ",
            default_days!(),
            "); a challenge lapses after a week. Rated unless rated:false; a game continued with from: is not rated. taflbot plays at once, at level ",
            levels!(),
            " (default ",
            default_level!(),
            "), unrated."
        ),
        options: &[
            needed("opponent", "Who you challenge (taflbot itself to play the bot)", Kind::User),
            needed("variant", "The variant (type to search)", Kind::Variant),
            opt("side", "The side you play (default: random)", Kind::Side),
            opt(
                "days",
                concat!("Days per move: ", days_per_move!(), " (default ", default_days!(), ")"),
                Kind::Days,
            ),
            opt(
                "level",
                concat!("Against taflbot: its level, ", levels!(), " (default ", default_level!(), ")"),
                Kind::Level,
            ),
            opt("rated", "Whether the result changes ratings (default: true)", Kind::Flag),
            opt("from", "Continue a game: its record, or its moves as aagenielsen.dk writes them", Kind::Text),
        ],
        read: |a| {
            Ok(Command::Challenge {
                opponent: a.needed_user("opponent")?,
                variant: a.needed_variant("variant")?,
                side: a.side("side")?.unwrap_or(SideChoice::Random),
                days: a.days("days")?,
                level: a.level("level")?,
                rated: a.flag_or("rated", true)?,
                from: a.text("from")?.filter(|t| !t.trim().is_empty()),
            })
        },
        ..ROW
    },
    Spec {
        name: "accept",
        description: "Accept a challenge made to you.",
        options: &[CHALLENGE],
        read: |a| Ok(Command::Accept { challenge: a.number("challenge")? }),
        ..ROW
    },
    Spec {
        name: "decline",
        description: "Decline a challenge made to you.",
        options: &[CHALLENGE],
        read: |a| Ok(Command::Decline { challenge: a.number("challenge")? }),
        ..ROW
    },
    Spec {
        name: "cancel",
        aliases: &["withdraw"],
        description: "Withdraw a challenge you made.",
        options: &[CHALLENGE],
        read: |a| Ok(Command::Cancel { challenge: a.number("challenge")? }),
        ..ROW
    },
    Spec {
        name: "move",
        description: "Play a move, e.g. e1-e5.",
        more: "Type to see your legal moves. A jump is d4^d6, Cavalry in Save the Standard c3-c7-d7; captures may be announced: e5-e8xe9.",
        options: &[
            needed("move", "Your move, e.g. e1-e5 (type to see your legal moves)", Kind::Move),
            WAITING_GAME,
        ],
        read: |a| {
            Ok(Command::Move {
                mv: a.needed_text("move")?,
                game: a.number("game")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "endturn",
        description: "End a berserk chain.",
        more: "The End turn button does the same.",
        options: &[WAITING_GAME],
        read: |a| Ok(Command::EndTurn { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "board",
        description: "Show a game's board.",
        options: &[GAME, opt("flip", "Show the board from the other side", Kind::Flag)],
        read: |a| {
            Ok(Command::Board {
                game: a.number("game")?,
                flip: a.flag("flip")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "moves",
        description: "Your legal moves, or one piece's.",
        more: "Only when it is your move. from:d1 lists the moves of the piece on d1 alone.",
        options: &[opt("from", "A square: only the moves of the piece on it", Kind::Text), GAME],
        read: |a| {
            Ok(Command::Moves {
                from: a.text("from")?.filter(|t| !t.trim().is_empty()),
                game: a.number("game")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "games",
        description: "Games going on: yours or a player's.",
        more: "Yours to move first, with deadlines.",
        options: &[opt("player", "Whose games (default: yours)", Kind::User)],
        read: |a| Ok(Command::Games { player: a.user("player")? }),
        ..ROW
    },
    Spec {
        name: "leaderboard",
        description: "Players here by rating.",
        more: "A ? marks a provisional rating.",
        options: &[
            opt("variant", "The variant (default: the most played here)", Kind::Variant),
            opt("page", "The page (15 players each)", Kind::Page),
        ],
        read: |a| {
            Ok(Command::Leaderboard {
                variant: a.variant("variant")?,
                page: a.number("page")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "profile",
        description: "A player's ratings, results and games.",
        options: &[opt("player", "Whose profile (default: yours)", Kind::User)],
        read: |a| Ok(Command::Profile { player: a.user("player")? }),
        ..ROW
    },
    Spec {
        name: "resign",
        description: "Resign a game.",
        options: &[GAME],
        read: |a| Ok(Command::Resign { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "abort",
        description: "Call off a game not yet begun.",
        more: "It ends with no result.",
        options: &[GAME],
        read: |a| Ok(Command::Abort { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "draw",
        description: "Offer or accept a draw.",
        options: &[GAME],
        read: |a| Ok(Command::Draw { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "takeback",
        description: "Undo your last turn, or agree to theirs.",
        more: "Your opponent answers with the buttons (or takeback, or takeback decline:true); against taflbot it is taken back at once. Never after the game ended.",
        options: &[GAME, opt("decline", "Decline your opponent's request instead", Kind::Flag)],
        read: |a| {
            Ok(Command::Takeback {
                game: a.number("game")?,
                decline: a.flag("decline")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "rematch",
        description: "Play again, sides swapped.",
        more: "After a game has ended: the same variant and days per move, offered to your opponent as a challenge (against taflbot, begun at once). The Rematch button under a game's end does the same.",
        options: &[GAME],
        read: |a| Ok(Command::Rematch { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "declinedraw",
        aliases: &["decline draw"],
        description: "Decline a draw offer.",
        more: "The Decline draw button does the same.",
        options: &[GAME],
        read: |a| Ok(Command::DeclineDraw { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "vacation",
        description: "Stop your clocks while away.",
        more: "Days a year are limited (14 unless the server's taflbot says otherwise); opponents see that you are away. Without an option: where your vacation stands.",
        options: &[opt("set", "on to go away, off to come back", Kind::Switch)],
        guild_only: false,
        read: |a| Ok(Command::Vacation { set: a.switch("set")? }),
        ..ROW
    },
    Spec {
        name: "notify",
        description: "DMs, digest, quiet hours.",
        more: "dm:on sends your turns and reminders by direct message (closed DMs are said once in the game's thread, and they stop). digest:on sends one message a day at hour (your time) listing the games waiting for you, least time left first. quiet:22-07 holds pings and DMs during those hours and tells what was held in one message when they end; a reminder that would fall in them comes before they begin, and deadlines never move. zone is your time zone, such as Europe/Oslo (UTC when none). Without options: your settings.",
        options: &[
            opt("dm", "Turns and reminders by direct message: on or off", Kind::Switch),
            opt("digest", "A daily message listing the games waiting for you: on or off", Kind::Switch),
            opt("hour", "The digest's hour, 0 to 23, your time (default 8)", Kind::Hour),
            opt("quiet", "Hours with no ping and no DM, such as 22-07, or off", Kind::Text),
            opt("zone", "Your time zone, such as Europe/Oslo (default UTC)", Kind::Text),
        ],
        guild_only: false,
        read: |a| {
            Ok(Command::Notify(crate::service::HoursChange {
                dm: a.switch("dm")?,
                digest: a.switch("digest")?,
                hour: a.hour("hour")?,
                quiet: a.text("quiet")?.filter(|t| !t.trim().is_empty()),
                zone: a.text("zone")?.filter(|t| !t.trim().is_empty()),
            }))
        },
        ..ROW
    },
    Spec {
        name: "theme",
        description: "Your pictures' colours.",
        more: "classic is wood and ivory; contrast is black, white and strong colours, for small screens; colour-blind uses colours that every common kind of colour blindness tells apart. Your theme is used for the pictures made for you (a board you ask for, a review's chart, a record's GIF). A server's managers add server:true to make it the default of the server's game threads and of everyone who chose none. Without options: your theme and the server's.",
        options: &[
            opt("set", "classic, contrast or colour-blind", Kind::Theme),
            opt("server", "Managers: make it the default of this server's game threads", Kind::Flag),
        ],
        guild_only: false,
        read: |a| {
            let server = a.flag("server")?;
            let theme = a.theme("set")?;
            if server && theme.is_none() {
                return Err(a.missing("set"));
            }
            Ok(Command::Theme { theme, server })
        },
        ..ROW
    },
    Spec {
        name: "forecast",
        description: "If they play X, answer Y.",
        more: concat!(
            "A line begins with their next move and alternates, ending with your answer: line:e4-e6,f1-f3. Keep several lines for several moves (up to ",
            forecast_lines!(),
            ", of up to ",
            forecast_moves!(),
            " moves each). When they play a line's first move, its answer is played at once in your name and the rest of the line stays; any other move ends it. Without a line: your lines, shown to you alone."
        ),
        options: &[
            opt("line", "Moves separated by spaces or commas, their move first", Kind::Text),
            GAME,
            opt("clear", "Drop all your lines in the game", Kind::Flag),
        ],
        read: |a| {
            Ok(Command::Forecast {
                line: a.text("line")?.filter(|t| !t.trim().is_empty()),
                game: a.number("game")?,
                clear: a.flag("clear")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "note",
        description: "Your private note on a game.",
        more: concat!(
            "Up to ",
            note_chars!(),
            " characters, seen by you alone, here and in your own record of the game; it stays after the game. Without text: your note."
        ),
        options: &[
            opt("text", "The note (it replaces the one you kept)", Kind::Text),
            GAME,
            opt("clear", "Drop your note on the game", Kind::Flag),
        ],
        read: |a| {
            Ok(Command::Note {
                text: a.text("text")?.filter(|t| !t.trim().is_empty()),
                game: a.number("game")?,
                clear: a.flag("clear")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "moretime",
        description: "Give your opponent more days.",
        more: concat!(
            "From 1 to ",
            more_time_days!(),
            " days, once a move; the game's thread is told who gave them."
        ),
        options: &[
            needed("days", concat!("Days to give, 1 to ", more_time_days!()), Kind::Count),
            GAME,
        ],
        read: |a| {
            Ok(Command::MoreTime {
                days: a.count("days")?.ok_or_else(|| a.missing("days"))?,
                game: a.number("game")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "rules",
        description: "A variant's rules and setup.",
        options: &[needed("variant", "The variant (type to search)", Kind::Variant)],
        guild_only: false,
        read: |a| Ok(Command::Rules { variant: a.needed_variant("variant")? }),
        ..ROW
    },
    Spec {
        name: "variants",
        description: "The variants, with their ids.",
        more: "rules tells all about one.",
        guild_only: false,
        read: |_| Ok(Command::Variants),
        ..ROW
    },
    Spec {
        name: "record",
        description: "A game's record and GIF.",
        options: &[GAME],
        read: |a| Ok(Command::Record { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "hint",
        description: "The engine's move (vs taflbot, or after a game).",
        more: "For a finished game: before its last turn when the board ended it, otherwise where it stopped.",
        options: &[GAME],
        read: |a| Ok(Command::Hint { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "review",
        description: "A finished game's mistakes.",
        more: "Every turn is marked by the winning chance it gave away: ?! inaccuracy, ? mistake, ?? blunder, with the better turn. Without game: the game of this thread, or your latest.",
        options: &[GAME],
        read: |a| Ok(Command::Review { game: a.number("game")? }),
        ..ROW
    },
    Spec {
        name: "puzzle",
        description: "A puzzle from real games.",
        more: "One near your puzzle rating that you have not tried; one open is shown again. Only a first try is rated. Answer with solve.",
        options: &[
            opt("variant", "The variant (default: your last one)", Kind::Variant),
            opt("number", "A puzzle by its number, e.g. the daily one", Kind::Puzzle),
        ],
        guild_only: false,
        read: |a| {
            Ok(Command::Puzzle {
                variant: a.variant("variant")?,
                number: a.number("number")?,
            })
        },
        ..ROW
    },
    Spec {
        name: "solve",
        description: "Your move in your puzzle.",
        more: "A right move is answered by the other side's reply; a wrong one ends the try and shows the solution.",
        options: &[needed("move", "Your move, e.g. e1-e5", Kind::Text)],
        guild_only: false,
        read: |a| Ok(Command::Solve { mv: a.needed_text("move")? }),
        ..ROW
    },
    Spec {
        name: "dailypuzzle",
        description: "Managers: a daily puzzle here.",
        options: &[needed("set", "on: post here each day; off: stop", Kind::Switch)],
        read: |a| {
            Ok(Command::DailyPuzzle {
                on: a.switch("set")?.ok_or_else(|| a.missing("set"))?,
            })
        },
        ..ROW
    },
    Spec {
        name: "import",
        description: "Replay a move list (aagenielsen.dk's).",
        more: "Every move and capture is checked; the answer is its record, a GIF and the final board.",
        options: &[
            needed("moves", "The moves, space-separated, as aagenielsen.dk writes them", Kind::Text),
            opt("variant", "The variant (default: copenhagen)", Kind::Variant),
        ],
        guild_only: false,
        read: |a| {
            Ok(Command::Import {
                moves: a.needed_text("moves")?,
                variant: a.variant("variant")?.unwrap_or_else(super::args::copenhagen),
            })
        },
        ..ROW
    },
];

const HELP: Spec = Spec {
    name: "help",
    description: "How to play, or all about one command.",
    options: &[opt(
        "command",
        "A command to tell all about, e.g. challenge",
        Kind::Text,
    )],
    guild_only: false,
    read: |a| {
        Ok(Command::Help {
            command: a.text("command")?,
        })
    },
    ..ROW
};

mod teams;
mod tournaments;

#[cfg(test)]
mod tests;

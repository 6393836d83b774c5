//! Commands: what a player can ask of taflbot, read once and applied once, for both front ends.
//!
//! - `table.rs`: [`COMMANDS`], one row per command with its options, help and reader. Discord's
//!   registration, the local mode's parser and both help texts are made from it.
//! - `args.rs`: the options given, read into values ([`Days`], a `&'static Variant`, a level).
//! - `apply.rs`: [`apply`], the one place where a [`Command`] becomes use cases of the service.
//! - `answer.rs`: [`Answer`], what a command did, as data; each front end shows it its own way.
//!
//! A new command is its row (with its reader), its [`Command`] variant, one arm in [`apply`], its
//! use case and its sentences. A front end changes only for a new kind of [`Answer`].

// The facts that the help repeats are written once, here, as literals so that they can be part of
// the table's constant text (macros defined before `mod table` are seen in it). A test in
// `table.rs` holds them to the constants that the service and the engine check.

/// The days per move a game may have (`service::DAYS_PER_MOVE`).
macro_rules! days_per_move {
    () => {
        "1, 2, 3, 5, 7, 10 or 14"
    };
}
/// The days per move when none are asked for (`service::DEFAULT_DAYS`).
macro_rules! default_days {
    () => {
        "3"
    };
}
/// taflbot's levels (`engine::LEVELS`).
macro_rules! levels {
    () => {
        "1 (weakest) to 5"
    };
}
/// taflbot's level when none is asked for (`engine::DEFAULT_LEVEL`).
macro_rules! default_level {
    () => {
        "3"
    };
}

/// The most forecast lines a player keeps in a game (`service::MAX_FORECAST_LINES`).
macro_rules! forecast_lines {
    () => {
        "10"
    };
}
/// The most moves of a forecast line (`service::MAX_FORECAST_MOVES`).
macro_rules! forecast_moves {
    () => {
        "20"
    };
}
/// The most characters of a note (`service::MAX_NOTE_CHARS`).
macro_rules! note_chars {
    () => {
        "1000"
    };
}
/// The most days of more time at once (`service::MAX_MORE_TIME_DAYS`).
macro_rules! more_time_days {
    () => {
        "7"
    };
}

macro_rules! window_hours {
    () => {
        "1 to 72"
    };
}

mod answer;
mod apply;
mod args;
mod example;
mod help;
mod table;

pub use answer::Answer;
pub use apply::{apply, Caller, LOCAL_TEAM};
pub use args::{Args, Days};
pub use table::{COMMANDS, GROUPS};

use crate::rules::Variant;
use crate::service::{Format, Person, ServiceError, SideChoice};

/// What an option holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Free text.
    Text,
    /// A variant id (completed as it is typed).
    Variant,
    /// A move (completed from the player's legal moves).
    Move,
    /// A game number (completed from the player's games).
    Game,
    /// A challenge number.
    Challenge,
    /// Days per move, one of `service::DAYS_PER_MOVE`.
    Days,
    /// Attackers, defenders or random (a choice).
    Side,
    /// The bot's level, one of `engine::LEVELS`.
    Level,
    /// A page number, from 1.
    Page,
    /// On or off (a choice).
    Switch,
    /// True or false (a flag: in the local mode, its name alone).
    Flag,
    /// A person.
    User,
    /// A tournament's format (a choice).
    Format,
    /// A tournament number.
    Tournament,
    /// A count from 1 (rounds, players).
    Count,
    /// A puzzle number.
    Puzzle,
    /// An hour of the day, 0 to 23.
    Hour,
    /// A role of the server.
    Role,
    /// A picture theme: classic, contrast or colour-blind (a choice).
    Theme,
}

impl Kind {
    /// What a value of this kind looks like, for refusals.
    pub fn expected(self) -> &'static str {
        match self {
            Kind::Text | Kind::Move | Kind::Variant => "text",
            Kind::Game => "a game number (write game:12)",
            Kind::Challenge => "a challenge number",
            Kind::Days => concat!("a number of days: ", days_per_move!()),
            Kind::Side => "a side: attackers, defenders or random",
            Kind::Level => concat!("a level from ", levels!()),
            Kind::Page => "a page number",
            Kind::Switch => "on or off",
            Kind::Flag => "true or false",
            Kind::User => "a player",
            Kind::Format => "a format: round-robin, swiss or knockout",
            Kind::Tournament => "a tournament number (write tournament:3)",
            Kind::Count => "a whole number from 1",
            Kind::Puzzle => "a puzzle number (write number:12)",
            Kind::Hour => "an hour from 0 to 23",
            Kind::Role => "a role of this server",
            Kind::Theme => "a theme: classic, contrast or colour-blind",
        }
    }
}

/// The choices of a [`Kind::Side`] option, in the order Discord numbers them.
pub const SIDES: [SideChoice; 3] = [
    SideChoice::Attackers,
    SideChoice::Defenders,
    SideChoice::Random,
];

/// The choices of a [`Kind::Format`] option, in the order Discord numbers them.
pub const FORMATS: [Format; 3] = Format::ALL;

/// The choices of a [`Kind::Theme`] option, in the order Discord numbers them.
pub const THEMES: [crate::render::Theme; 3] = crate::render::Theme::ALL;

/// The choices of a [`Kind::Switch`] option, in the order Discord numbers them.
pub const SWITCH: [&str; 2] = ["on", "off"];

/// One option of a command.
#[derive(Debug)]
pub struct Opt {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: Kind,
    pub required: bool,
}

/// One command: a row of [`COMMANDS`].
#[derive(Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    /// Other names the local mode reads (`withdraw` for `cancel`, `decline draw`).
    pub aliases: &'static [&'static str],
    /// One line: the Discord description.
    pub description: &'static str,
    /// More for the help text, when one line is not enough.
    pub more: &'static str,
    pub options: &'static [Opt],
    /// Discord: only in a server (a game lives in a server's channel).
    pub guild_only: bool,
    /// Reads the options given into the command.
    pub read: fn(&Args) -> Result<Command, ServiceError>,
}

impl std::fmt::Debug for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Spec({})", self.name)
    }
}

/// The declaration of a command, by its name or one of its aliases.
pub fn spec(name: &str) -> Option<&'static Spec> {
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// An option's value as a front end read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Int(i64),
    Flag(bool),
    User(Person),
    Role(crate::service::TeamRole),
}

impl Value {
    /// The value as a refusal quotes it.
    fn shown(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            Value::Int(n) => n.to_string(),
            Value::Flag(b) => b.to_string(),
            Value::User(p) => p.name.clone(),
            Value::Role(r) => r.name.clone(),
        }
    }
}

/// A command read from either front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Person,
        variant: &'static Variant,
        side: SideChoice,
        days: Option<Days>,
        /// Against the bot: its level.
        level: Option<u8>,
        rated: bool,
        /// A record or move list to continue from.
        from: Option<String>,
    },
    Accept {
        challenge: Option<i64>,
    },
    Decline {
        challenge: Option<i64>,
    },
    Cancel {
        challenge: Option<i64>,
    },
    Move {
        mv: String,
        game: Option<i64>,
    },
    EndTurn {
        game: Option<i64>,
    },
    Board {
        game: Option<i64>,
        flip: bool,
    },
    Games {
        player: Option<Person>,
    },
    Leaderboard {
        variant: Option<&'static Variant>,
        page: Option<i64>,
    },
    Profile {
        player: Option<Person>,
    },
    Resign {
        game: Option<i64>,
    },
    Abort {
        game: Option<i64>,
    },
    Draw {
        game: Option<i64>,
    },
    /// Only from the Accept draw button: accepts the offer, never makes one.
    AcceptDraw {
        game: Option<i64>,
    },
    DeclineDraw {
        game: Option<i64>,
    },
    Takeback {
        game: Option<i64>,
        decline: bool,
    },
    /// Only from the Accept takeback button: agrees, never asks.
    AcceptTakeback {
        game: Option<i64>,
    },
    Vacation {
        /// On or off; nothing to ask where it stands.
        set: Option<bool>,
    },
    /// Changes what is given of the caller's settings for being told (none: shows them).
    Notify(crate::service::HoursChange),
    /// The caller's picture theme, or with `server` the server's default (none: shows them).
    Theme {
        theme: Option<crate::render::Theme>,
        server: bool,
    },
    /// The caller's legal moves in a game, or those from one square.
    Moves {
        from: Option<String>,
        game: Option<i64>,
    },
    /// Keep a line (`line`), clear the caller's lines, or show them.
    Forecast {
        line: Option<String>,
        game: Option<i64>,
        clear: bool,
    },
    /// Keep a note (`text`), clear it, or show it.
    Note {
        text: Option<String>,
        game: Option<i64>,
        clear: bool,
    },
    MoreTime {
        days: u32,
        game: Option<i64>,
    },
    Rules {
        variant: &'static Variant,
    },
    Variants,
    Record {
        game: Option<i64>,
    },
    Hint {
        game: Option<i64>,
    },
    Review {
        game: Option<i64>,
    },
    Puzzle {
        variant: Option<&'static Variant>,
        number: Option<i64>,
    },
    Solve {
        mv: String,
    },
    /// A daily puzzle in the channel given from, or none.
    DailyPuzzle {
        on: bool,
    },
    Import {
        moves: String,
        variant: &'static Variant,
    },
    Help {
        /// A command to tell all about.
        command: Option<String>,
    },
    /// The Rematch button under a game's end, or `/rematch`: the same terms, the sides swapped.
    Rematch {
        game: Option<i64>,
    },
    TournamentCreate {
        variant: &'static Variant,
        format: Format,
        name: Option<String>,
        days: Option<Days>,
        rated: bool,
        /// Swiss rounds (as many as the field needs when not given).
        rounds: Option<u32>,
        /// The most players it takes.
        players: Option<u32>,
    },
    TournamentJoin {
        tournament: Option<i64>,
    },
    TournamentLeave {
        tournament: Option<i64>,
    },
    TournamentStart {
        tournament: Option<i64>,
    },
    TournamentStandings {
        tournament: Option<i64>,
    },
    TournamentList,
    TournamentCancel {
        tournament: Option<i64>,
    },
    /// A team game of this server: against taflbot (`opponent`), or between two roles.
    TeamStart {
        opponent: Option<Person>,
        attackers: Option<crate::service::TeamRole>,
        defenders: Option<crate::service::TeamRole>,
        variant: &'static Variant,
        side: SideChoice,
        level: Option<u8>,
        hours: Option<u32>,
        ping: bool,
    },
    /// Challenge another server (its id) to a team game.
    TeamChallenge {
        server: String,
        variant: &'static Variant,
        side: SideChoice,
        hours: Option<u32>,
    },
    /// Make the channel given in this server's home for team games, or take it away.
    TeamHome {
        ping: Option<crate::service::TeamRole>,
        off: bool,
    },
    /// Answer a challenge from another server (its buttons).
    TeamAnswer {
        challenge: i64,
        accept: bool,
    },
    /// Close a team game's window now.
    TeamPlay {
        game: Option<i64>,
    },
    /// Call a team game off (a manager).
    TeamCancel {
        game: Option<i64>,
    },
    TeamList,
    TeamRecord,
    /// A vote for a turn in a team game's open window.
    Vote {
        mv: String,
        game: Option<i64>,
    },
}

impl Command {
    /// Reads a command from its name and the options given. Unknown options are refused, so a
    /// typo is not silently dropped.
    pub fn parse(name: &str, given: &[(String, Value)]) -> Result<Command, ServiceError> {
        let spec = spec(name).ok_or_else(|| unknown_command(name))?;
        if let Some((unknown, value)) = given
            .iter()
            .find(|(n, _)| !spec.options.iter().any(|o| o.name == n))
        {
            return Err(ServiceError::BadOption {
                option: unknown.clone(),
                given: value.shown(),
                expected: format!("an option of {} ({})", spec.name, option_names(spec)),
            });
        }
        (spec.read)(&Args { spec, given })
    }

    /// Whether a pressed button's answer to this command replaces the button's message (a
    /// challenge answered, a draw or takeback declined, another page), rather than coming as a
    /// message of its own.
    pub fn answers_in_place(&self) -> bool {
        matches!(
            self,
            Command::Accept { .. }
                | Command::Decline { .. }
                | Command::DeclineDraw { .. }
                | Command::Takeback { decline: true, .. }
                | Command::Leaderboard { .. }
                | Command::TeamAnswer { .. }
        )
    }
}

fn option_names(spec: &Spec) -> String {
    let names: Vec<&str> = spec.options.iter().map(|o| o.name).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

pub use example::{example, example_with, nearest, unknown_command};
pub use help::{group_description, help, help_for, help_list, help_specs, short_usage, usage};

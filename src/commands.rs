//! Every command, declared once: its name, what it does, its options and an example. The Discord
//! registration, the local mode's parser and both help texts are made from this table, and both
//! front ends read a command into the same [`Command`]. A new command is a row here, a variant of
//! [`Command`], and one arm in each front end (the compiler points at both).

use crate::service::{Person, ServiceError, SideChoice};

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
    /// Days per move: 1, 2, 3, 5, 7, 10 or 14.
    Days,
    /// Attackers, defenders or random (a choice).
    Side,
    /// The bot's level, 1 to 5.
    Level,
    /// A page number, from 1.
    Page,
    /// On or off (a choice).
    Switch,
    Flag,
    /// A person.
    User,
}

impl Kind {
    /// What a value of this kind looks like, for refusals.
    pub fn expected(self) -> &'static str {
        match self {
            Kind::Text | Kind::Move | Kind::Variant => "text",
            Kind::Game => "a game number (write game:12)",
            Kind::Challenge => "a challenge number",
            Kind::Days => "a number of days: 1, 2, 3, 5, 7, 10 or 14",
            Kind::Side => "a side: attackers, defenders or random",
            Kind::Level => "a level from 1 (weakest) to 5",
            Kind::Page => "a page number",
            Kind::Switch => "on or off",
            Kind::Flag => "true or false",
            Kind::User => "a player",
        }
    }
}

/// The choices of a [`Kind::Side`] option, in the order Discord numbers them.
pub const SIDES: [SideChoice; 3] = [
    SideChoice::Attackers,
    SideChoice::Defenders,
    SideChoice::Random,
];

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

/// One command.
#[derive(Debug)]
pub struct Spec {
    pub name: &'static str,
    /// One line: the Discord description.
    pub description: &'static str,
    /// More for the help text, when one line is not enough.
    pub more: &'static str,
    pub options: &'static [Opt],
    /// Discord: only in a server (a game lives in a server's channel).
    pub guild_only: bool,
}

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
const CHALLENGE: Opt = opt(
    "challenge",
    "The challenge number (needed only when you have several)",
    Kind::Challenge,
);

/// The commands, in the order the help lists them.
pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "challenge",
        description: "Challenge someone, or taflbot itself, to a game.",
        more: "They answer with the buttons, or accept and decline; cancel withdraws it. Days per move: 1, 2, 3, 5, 7, 10 or 14 (default 3); a challenge lapses after a week. Rated unless rated:false; a game continued with from: is not rated. taflbot plays at once, at level 1 to 5 (default 3), unrated.",
        options: &[
            needed("opponent", "Who you challenge (taflbot itself to play the bot)", Kind::User),
            needed("variant", "The variant (type to search)", Kind::Variant),
            opt("side", "The side you play (default: random)", Kind::Side),
            opt("days", "Days per move: 1, 2, 3, 5, 7, 10 or 14 (default 3)", Kind::Days),
            opt("level", "Against taflbot: its level, 1 (weakest) to 5 (default 3)", Kind::Level),
            opt("rated", "Whether the result changes ratings (default: true)", Kind::Flag),
            opt("from", "Continue a game: its record, or its moves as aagenielsen.dk writes them", Kind::Text),
        ],
        guild_only: true,
    },
    Spec {
        name: "accept",
        description: "Accept a challenge made to you.",
        more: "",
        options: &[CHALLENGE],
        guild_only: true,
    },
    Spec {
        name: "decline",
        description: "Decline a challenge made to you.",
        more: "",
        options: &[CHALLENGE],
        guild_only: true,
    },
    Spec {
        name: "cancel",
        description: "Withdraw a challenge you made.",
        more: "",
        options: &[CHALLENGE],
        guild_only: true,
    },
    Spec {
        name: "move",
        description: "Play a move, e.g. e1-e5.",
        more: "Type to see your legal moves. A jump is d4^d6, Cavalry in Save the Standard c3-c7-d7; captures may be announced: e5-e8xe9.",
        options: &[
            needed("move", "Your move, e.g. e1-e5 (type to see your legal moves)", Kind::Move),
            WAITING_GAME,
        ],
        guild_only: true,
    },
    Spec {
        name: "endturn",
        description: "End a berserk chain: the turn passes.",
        more: "The End turn button does the same.",
        options: &[WAITING_GAME],
        guild_only: true,
    },
    Spec {
        name: "board",
        description: "Show a game's board.",
        more: "",
        options: &[GAME, opt("flip", "Show the board from the other side", Kind::Flag)],
        guild_only: true,
    },
    Spec {
        name: "games",
        description: "List the games in progress: yours, or another player's.",
        more: "Yours to move first, with deadlines.",
        options: &[opt("player", "Whose games (default: yours)", Kind::User)],
        guild_only: true,
    },
    Spec {
        name: "leaderboard",
        description: "The server's players by rating in a variant.",
        more: "A ? marks a provisional rating.",
        options: &[
            opt("variant", "The variant (default: the most played here)", Kind::Variant),
            opt("page", "The page (15 players each)", Kind::Page),
        ],
        guild_only: true,
    },
    Spec {
        name: "profile",
        description: "A player's ratings, results and games, with a chart of the ratings.",
        more: "",
        options: &[opt("player", "Whose profile (default: yours)", Kind::User)],
        guild_only: true,
    },
    Spec {
        name: "resign",
        description: "Resign a game.",
        more: "",
        options: &[GAME],
        guild_only: true,
    },
    Spec {
        name: "abort",
        description: "Call off a game before its first move: it ends with no result.",
        more: "",
        options: &[GAME],
        guild_only: true,
    },
    Spec {
        name: "draw",
        description: "Offer a draw, or accept the one your opponent offered.",
        more: "",
        options: &[GAME],
        guild_only: true,
    },
    Spec {
        name: "takeback",
        description: "Ask to take back your last turn, or agree when your opponent asks.",
        more: "Your opponent answers with the buttons (or takeback, or takeback decline:true); against taflbot it is taken back at once. Never after the game ended.",
        options: &[GAME, opt("decline", "Decline your opponent's request instead", Kind::Flag)],
        guild_only: true,
    },
    Spec {
        name: "declinedraw",
        description: "Decline the draw your opponent offered.",
        more: "The Decline draw button does the same.",
        options: &[GAME],
        guild_only: true,
    },
    Spec {
        name: "vacation",
        description: "Stop your clocks in every game while you are away, or start them again.",
        more: "Days a year are limited (14 unless the server's taflbot says otherwise); opponents see that you are away. Without an option: where your vacation stands.",
        options: &[opt("set", "on to go away, off to come back", Kind::Switch)],
        guild_only: false,
    },
    Spec {
        name: "notify",
        description: "Be told of your turns and reminders by direct message, or not.",
        more: "Closed direct messages are said once in the game's thread, and the messages stop.",
        options: &[needed("dm", "on or off", Kind::Switch)],
        guild_only: false,
    },
    Spec {
        name: "rules",
        description: "A variant's rules and start position.",
        more: "",
        options: &[needed("variant", "The variant (type to search)", Kind::Variant)],
        guild_only: false,
    },
    Spec {
        name: "record",
        description: "Export a game: its record as text and the whole game as a GIF.",
        more: "",
        options: &[GAME],
        guild_only: true,
    },
    Spec {
        name: "hint",
        description: "The engine's suggestion, in a game against taflbot or a finished game.",
        more: "For a finished game: before its last turn.",
        options: &[GAME],
        guild_only: true,
    },
    Spec {
        name: "import",
        description: "Replay a game written as a move list from aagenielsen.dk (\"d1-d3 e5-e2 ... a8-b8xb7\").",
        more: "Every move and capture is checked; the answer is its record, a GIF and the final board.",
        options: &[
            needed("moves", "The moves, space-separated, as aagenielsen.dk writes them", Kind::Text),
            opt("variant", "The variant (default: copenhagen)", Kind::Variant),
        ],
        guild_only: false,
    },
    Spec {
        name: "help",
        description: "How to play, or all about one command.",
        more: "",
        options: &[opt("command", "A command to tell all about, e.g. challenge", Kind::Text)],
        guild_only: false,
    },
];

/// The declaration of a command.
pub fn spec(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// An option's value as a front end read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Int(i64),
    Flag(bool),
    User(Person),
}

/// A command read from either front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Person,
        variant: String,
        side: SideChoice,
        days: Option<u32>,
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
        variant: Option<String>,
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
    Notify {
        dm: bool,
    },
    Rules {
        variant: String,
    },
    Record {
        game: Option<i64>,
    },
    Hint {
        game: Option<i64>,
    },
    Import {
        moves: String,
        variant: String,
    },
    Help {
        /// A command to tell all about.
        command: Option<String>,
    },
}

/// The options given, checked against a command's declaration.
struct Args<'a> {
    spec: &'static Spec,
    given: &'a [(String, Value)],
}

impl Args<'_> {
    fn value(&self, name: &str) -> Option<&Value> {
        self.given.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    fn bad(name: &str, given: &Value, kind: Kind) -> ServiceError {
        let given = match given {
            Value::Text(t) => t.clone(),
            Value::Int(n) => n.to_string(),
            Value::Flag(b) => b.to_string(),
            Value::User(p) => p.name.clone(),
        };
        ServiceError::BadOption {
            option: name.to_string(),
            given,
            expected: kind.expected().to_string(),
        }
    }

    fn missing(&self, name: &str) -> ServiceError {
        ServiceError::MissingOption {
            option: name.to_string(),
            example: usage(self.spec),
        }
    }

    fn text(&self, name: &str) -> Result<Option<String>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Text(t)) => Ok(Some(t.clone())),
            Some(other) => Err(Self::bad(name, other, Kind::Text)),
        }
    }

    fn needed_text(&self, name: &str) -> Result<String, ServiceError> {
        self.text(name)?
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| self.missing(name))
    }

    /// A number: given as one, or as text (`12`, `#12`).
    fn number(&self, name: &str, kind: Kind) -> Result<Option<i64>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(v @ Value::Text(t)) => t
                .trim()
                .trim_start_matches('#')
                .parse()
                .map(Some)
                .map_err(|_| Self::bad(name, v, kind)),
            Some(other) => Err(Self::bad(name, other, kind)),
        }
    }

    fn flag(&self, name: &str) -> Result<bool, ServiceError> {
        self.flag_or(name, false)
    }

    /// A flag that is `default` when not given.
    fn flag_or(&self, name: &str, default: bool) -> Result<bool, ServiceError> {
        match self.value(name) {
            None => Ok(default),
            Some(Value::Flag(b)) => Ok(*b),
            Some(v @ Value::Text(t)) => match t.trim().to_ascii_lowercase().as_str() {
                "" | "true" | "yes" | "on" => Ok(true),
                "false" | "no" | "off" => Ok(false),
                _ => Err(Self::bad(name, v, Kind::Flag)),
            },
            Some(other) => Err(Self::bad(name, other, Kind::Flag)),
        }
    }

    fn user(&self, name: &str) -> Result<Option<Person>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::User(p)) => Ok(Some(p.clone())),
            Some(other) => Err(Self::bad(name, other, Kind::User)),
        }
    }

    fn side(&self, name: &str) -> Result<Option<SideChoice>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(v @ Value::Int(i)) => usize::try_from(*i)
                .ok()
                .and_then(|i| SIDES.get(i).copied())
                .map(Some)
                .ok_or_else(|| Self::bad(name, v, Kind::Side)),
            Some(v @ Value::Text(t)) => SideChoice::parse(t)
                .map(Some)
                .ok_or_else(|| Self::bad(name, v, Kind::Side)),
            Some(other) => Err(Self::bad(name, other, Kind::Side)),
        }
    }

    /// On (true) or off: a choice's number, or the words.
    fn switch(&self, name: &str) -> Result<Option<bool>, ServiceError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Int(0)) | Some(Value::Flag(true)) => Ok(Some(true)),
            Some(Value::Int(1)) | Some(Value::Flag(false)) => Ok(Some(false)),
            Some(v @ Value::Text(t)) => match t.trim().to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" => Ok(Some(true)),
                "off" | "false" | "no" => Ok(Some(false)),
                _ => Err(Self::bad(name, v, Kind::Switch)),
            },
            Some(other) => Err(Self::bad(name, other, Kind::Switch)),
        }
    }

    fn level(&self, name: &str) -> Result<Option<u8>, ServiceError> {
        let Some(n) = self.number(name, Kind::Level)? else {
            return Ok(None);
        };
        u8::try_from(n)
            .ok()
            .filter(|l| crate::engine::LEVELS.contains(l))
            .map(Some)
            .ok_or_else(|| Self::bad(name, &Value::Int(n), Kind::Level))
    }

    fn days(&self, name: &str) -> Result<Option<u32>, ServiceError> {
        let Some(n) = self.number(name, Kind::Days)? else {
            return Ok(None);
        };
        let given = || Value::Int(n);
        u32::try_from(n)
            .map(Some)
            .map_err(|_| Self::bad(name, &given(), Kind::Days))
    }
}

impl Command {
    /// Reads a command from its name and the options given. Unknown options are refused, so a
    /// typo is not silently dropped.
    pub fn parse(name: &str, given: &[(String, Value)]) -> Result<Command, ServiceError> {
        let spec = spec(name).ok_or_else(|| ServiceError::UnknownCommand(name.to_string()))?;
        if let Some((unknown, value)) = given
            .iter()
            .find(|(n, _)| !spec.options.iter().any(|o| o.name == n))
        {
            return Err(ServiceError::BadOption {
                option: unknown.clone(),
                given: match value {
                    Value::Text(t) => t.clone(),
                    other => format!("{other:?}"),
                },
                expected: format!("an option of {} ({})", spec.name, option_names(spec)),
            });
        }
        let a = Args { spec, given };
        Ok(match spec.name {
            "challenge" => Command::Challenge {
                opponent: a.user("opponent")?.ok_or_else(|| a.missing("opponent"))?,
                variant: a.needed_text("variant")?,
                side: a.side("side")?.unwrap_or(SideChoice::Random),
                days: a.days("days")?,
                level: a.level("level")?,
                rated: a.flag_or("rated", true)?,
                from: a.text("from")?.filter(|t| !t.trim().is_empty()),
            },
            "accept" => Command::Accept {
                challenge: a.number("challenge", Kind::Challenge)?,
            },
            "decline" => Command::Decline {
                challenge: a.number("challenge", Kind::Challenge)?,
            },
            "cancel" => Command::Cancel {
                challenge: a.number("challenge", Kind::Challenge)?,
            },
            "move" => Command::Move {
                mv: a.needed_text("move")?,
                game: a.number("game", Kind::Game)?,
            },
            "endturn" => Command::EndTurn {
                game: a.number("game", Kind::Game)?,
            },
            "board" => Command::Board {
                game: a.number("game", Kind::Game)?,
                flip: a.flag("flip")?,
            },
            "games" => Command::Games {
                player: a.user("player")?,
            },
            "leaderboard" => Command::Leaderboard {
                variant: a.text("variant")?,
                page: a.number("page", Kind::Page)?,
            },
            "profile" => Command::Profile {
                player: a.user("player")?,
            },
            "resign" => Command::Resign {
                game: a.number("game", Kind::Game)?,
            },
            "abort" => Command::Abort {
                game: a.number("game", Kind::Game)?,
            },
            "draw" => Command::Draw {
                game: a.number("game", Kind::Game)?,
            },
            "takeback" => Command::Takeback {
                game: a.number("game", Kind::Game)?,
                decline: a.flag("decline")?,
            },
            "declinedraw" => Command::DeclineDraw {
                game: a.number("game", Kind::Game)?,
            },
            "vacation" => Command::Vacation {
                set: a.switch("set")?,
            },
            "notify" => Command::Notify {
                dm: a.switch("dm")?.ok_or_else(|| a.missing("dm"))?,
            },
            "rules" => Command::Rules {
                variant: a.needed_text("variant")?,
            },
            "record" => Command::Record {
                game: a.number("game", Kind::Game)?,
            },
            "hint" => Command::Hint {
                game: a.number("game", Kind::Game)?,
            },
            "import" => Command::Import {
                moves: a.needed_text("moves")?,
                variant: a
                    .text("variant")?
                    .unwrap_or_else(|| "copenhagen".to_string()),
            },
            "help" => Command::Help {
                command: a.text("command")?,
            },
            other => unreachable!("the command {other} is declared but not read"),
        })
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

/// How a command is written, options in brackets when optional: `/move move [game]`.
pub fn usage(spec: &Spec) -> String {
    let mut out = format!("/{}", spec.name);
    for o in spec.options {
        if o.required {
            out.push_str(&format!(" {}", o.name));
        } else {
            out.push_str(&format!(" [{}]", o.name));
        }
    }
    out
}

/// The help text: every command with its usage and what it does in a line. `code` shows a
/// usage as the front end shows commands.
pub fn help(code: impl Fn(&str) -> String) -> String {
    let mut out = String::from(
        "taflbot: tafl games by correspondence. Challenge someone, then take turns with move; \
         the board is shown after every move.\n",
    );
    for c in COMMANDS {
        out.push('\n');
        out.push_str(&code(&usage(c)));
        out.push_str(": ");
        out.push_str(c.description);
    }
    out.push_str(&format!(
        "\n\ngame is needed only when several of your games could be meant here. A move not made \
         in time loses the game; a reminder comes a day before. {} tells all about one command.",
        code("/help command")
    ));
    out
}

/// All about one command: its usage, what it does, and each option. `None` for a name that is
/// no command.
pub fn help_for(name: &str, code: impl Fn(&str) -> String) -> Option<String> {
    let name = name.trim().trim_start_matches('/').to_ascii_lowercase();
    let c = spec(&name)?;
    let mut out = format!("{}: {}", code(&usage(c)), c.description);
    if !c.more.is_empty() {
        out.push(' ');
        out.push_str(c.more);
    }
    for o in c.options {
        let need = if o.required { "needed" } else { "optional" };
        out.push_str(&format!("\n{} ({need}): {}", code(o.name), o.description));
    }
    Some(out)
}

/// The refusal of a level in a challenge to a person: levels are the bot's.
pub fn level_for_people(_level: u8) -> ServiceError {
    ServiceError::LevelForPeople
}

/// The refusal of a game to continue in a challenge of the bot: its games begin at the start.
pub fn from_for_bot() -> ServiceError {
    ServiceError::BadOption {
        option: "from".to_string(),
        given: "a game to continue".to_string(),
        expected: "a challenge to a person: taflbot's own games begin at the start".to_string(),
    }
}

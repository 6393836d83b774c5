//! The rows the service reads, typed: statuses, results, sides and reasons are enums, and every
//! column is read by name through `sqlx::FromRow`.

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::Database;

use super::{Person, RatingChange, SecondPlace};
use crate::rules::{BySide, Family, Outcome, Reason, Side, Variant};

/// Where a game stands in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    Active,
    Finished,
    /// Its stored moves no longer replay: set aside and reported.
    Broken,
}

/// How a game ended, as stored (the names of the record's `Result` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Ongoing,
    AttackersWon,
    DefendersWon,
    GoldWon,
    RedWon,
    Draw,
    /// Called off before the first move: no result.
    Aborted,
}

impl GameStatus {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Broken => "broken",
        }
    }
}

impl GameResult {
    const ALL: [GameResult; 7] = [
        GameResult::Ongoing,
        GameResult::AttackersWon,
        GameResult::DefendersWon,
        GameResult::GoldWon,
        GameResult::RedWon,
        GameResult::Draw,
        GameResult::Aborted,
    ];

    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Ongoing => "ongoing",
            GameResult::AttackersWon => "attackers_won",
            GameResult::DefendersWon => "defenders_won",
            GameResult::GoldWon => "gold_won",
            GameResult::RedWon => "red_won",
            GameResult::Draw => "draw",
            GameResult::Aborted => "aborted",
        }
    }

    pub fn of(v: &Variant, outcome: Option<Outcome>) -> GameResult {
        let standard = v.family == Family::SaveTheStandard;
        match outcome {
            None => GameResult::Ongoing,
            Some(Outcome { winner: None, .. }) => GameResult::Draw,
            Some(Outcome {
                winner: Some(side), ..
            }) => match (standard, side) {
                (true, Side::GOLD) => GameResult::GoldWon,
                (true, _) => GameResult::RedWon,
                (false, Side::Attackers) => GameResult::AttackersWon,
                (false, Side::Defenders) => GameResult::DefendersWon,
            },
        }
    }

    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::AttackersWon | GameResult::RedWon => Some(Side::Attackers),
            GameResult::DefendersWon | GameResult::GoldWon => Some(Side::Defenders),
            _ => None,
        }
    }
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Withdrawn,
    Expired,
}

impl std::fmt::Display for ChallengeStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ChallengeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Withdrawn => "withdrawn",
            ChallengeStatus::Expired => "expired",
        }
    }
}

/// The side a challenger asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SideChoice {
    Attackers,
    Defenders,
    Random,
}

impl SideChoice {
    /// The side chosen; none for a draw by lot.
    pub fn side(self) -> Option<Side> {
        match self {
            SideChoice::Attackers => Some(Side::Attackers),
            SideChoice::Defenders => Some(Side::Defenders),
            SideChoice::Random => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SideChoice::Attackers => "attackers",
            SideChoice::Defenders => "defenders",
            SideChoice::Random => "random",
        }
    }
}

/// Reads `attackers`, `defenders`, `random` (and Save the Standard's `red`, `gold`).
impl std::str::FromStr for SideChoice {
    type Err = ();

    fn from_str(s: &str) -> Result<SideChoice, ()> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" | "red" => Ok(SideChoice::Attackers),
            "defenders" | "defender" | "d" | "gold" => Ok(SideChoice::Defenders),
            "random" | "any" | "r" => Ok(SideChoice::Random),
            _ => Err(()),
        }
    }
}

impl std::fmt::Display for SideChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Implements sqlx's column traits for a type stored as its text name.
/// A column of text read into a type of ours and written back, on any database whose text sqlx
/// reads and writes: `$write` gives the stored text, `$read` reads it (`None`: not one of ours,
/// which is an error naming the type).
macro_rules! text_column {
    ($ty:ty, $write:expr, $read:expr) => {
        impl<DB: Database> sqlx::Type<DB> for $ty
        where
            str: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <str as sqlx::Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <str as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'q, DB: Database> sqlx::Encode<'q, DB> for $ty
        where
            &'q str: sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut <DB as Database>::ArgumentBuffer<'q>,
            ) -> Result<IsNull, BoxDynError> {
                let write: fn(&$ty) -> &'static str = $write;
                <&str as sqlx::Encode<'q, DB>>::encode(write(self), buf)
            }
        }

        impl<'r, DB: Database> sqlx::Decode<'r, DB> for $ty
        where
            &'r str: sqlx::Decode<'r, DB>,
        {
            fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                let text = <&str as sqlx::Decode<'r, DB>>::decode(value)?;
                let read: fn(&str) -> Option<$ty> = $read;
                read(text).ok_or_else(|| {
                    format!("unknown {} {text:?}", stringify!($ty).to_ascii_lowercase()).into()
                })
            }
        }
    };
}

text_column!(GameStatus, |s| s.as_str(), |t| [
    GameStatus::Active,
    GameStatus::Finished,
    GameStatus::Broken
]
.into_iter()
.find(|s| s.as_str() == t));
text_column!(super::notices::NoticeKind, |k| k.as_str(), |t| {
    super::notices::NoticeKind::ALL
        .into_iter()
        .find(|k| k.as_str() == t)
});
text_column!(GameResult, |r| r.as_str(), |t| GameResult::ALL
    .into_iter()
    .find(|r| r.as_str() == t));
text_column!(ChallengeStatus, |s| s.as_str(), |t| [
    ChallengeStatus::Open,
    ChallengeStatus::Accepted,
    ChallengeStatus::Declined,
    ChallengeStatus::Withdrawn,
    ChallengeStatus::Expired
]
.into_iter()
.find(|s| s.as_str() == t));
text_column!(crate::tournament::Format, |f| f.as_str(), |t: &str| t
    .parse()
    .ok());
text_column!(crate::tournament::Status, |s| s.as_str(), |t| {
    crate::tournament::Status::ALL
        .into_iter()
        .find(|s| s.as_str() == t)
});
text_column!(SideChoice, |s| s.as_str(), |t| [
    SideChoice::Attackers,
    SideChoice::Defenders,
    SideChoice::Random
]
.into_iter()
.find(|s| s.as_str() == t));

/// A yes-or-no column, stored as an integer (0 or 1) on every database: SQLite has no other, and
/// an integer reads the same through each of sqlx's drivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<Flag> for bool {
    fn from(f: Flag) -> bool {
        f.0
    }
}

impl<DB: Database> sqlx::Type<DB> for Flag
where
    i64: sqlx::Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <i64 as sqlx::Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <i64 as sqlx::Type<DB>>::compatible(ty)
    }
}

impl<'r, DB: Database> sqlx::Decode<'r, DB> for Flag
where
    i64: sqlx::Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Flag(<i64 as sqlx::Decode<'r, DB>>::decode(value)? != 0))
    }
}

impl<'q, DB: Database> sqlx::Encode<'q, DB> for Flag
where
    i64: sqlx::Encode<'q, DB>,
{
    fn encode_by_ref(
        &self,
        buf: &mut <DB as Database>::ArgumentBuffer<'q>,
    ) -> Result<IsNull, BoxDynError> {
        <i64 as sqlx::Encode<'q, DB>>::encode(i64::from(self.0), buf)
    }
}

text_column!(Reason, |r| r.as_str(), |s: &str| s.parse().ok());

/// A variant, stored as its id.
#[derive(Clone, Copy, Debug)]
pub struct VariantId(pub &'static Variant);

text_column!(VariantId, |v| v.0.id, |id| Variant::by_id(id)
    .map(VariantId));

impl std::ops::Deref for VariantId {
    type Target = Variant;

    fn deref(&self) -> &Variant {
        self.0
    }
}

/// The columns of a game row with its two players, as [`GameRow`] reads them.
pub const GAME_SELECT: &str =
    "SELECT g.id, g.variant, g.start, g.days, g.guild, g.channel, g.thread, g.status,
        g.result, g.reason, g.position, g.move_count, g.draw_offer, g.deadline,
        g.attacker, pa.key AS attacker_key, pa.name AS attacker_name,
        g.defender, pd.key AS defender_key, pd.name AS defender_name, g.bot_level, g.bot_attacks,
        g.rated, g.pair_limited, g.takeback_by, g.takeback_declined_by, g.takeback_declined_at, g.imported, g.tournament_id, g.more_time_at, g.forecasting, g.remind_at, g.vote_window, pa.vacation_since AS attacker_away, pd.vacation_since AS defender_away,
        pa.zone AS attacker_zone, pa.quiet_from AS attacker_quiet_from, pa.quiet_to AS attacker_quiet_to,
        pd.zone AS defender_zone, pd.quiet_from AS defender_quiet_from, pd.quiet_to AS defender_quiet_to,
        (SELECT before FROM rating_changes WHERE game_id = g.id AND player = g.attacker) AS attacker_before,
        (SELECT after FROM rating_changes WHERE game_id = g.id AND player = g.attacker) AS attacker_after,
        (SELECT before FROM rating_changes WHERE game_id = g.id AND player = g.defender) AS defender_before,
        (SELECT after FROM rating_changes WHERE game_id = g.id AND player = g.defender) AS defender_after,
        t2.guild AS second_guild, t2.side AS second_side, t2.channel AS second_channel,
        t2.thread AS second_thread,
        (SELECT theme FROM server_settings WHERE guild = g.guild) AS thread_theme
     FROM games g JOIN players pa ON pa.id = g.attacker JOIN players pd ON pd.id = g.defender
     LEFT JOIN team_sides t2 ON t2.game_id = g.id AND t2.guild != g.guild";

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct GameRow {
    pub id: i64,
    pub variant: VariantId,
    /// The start position string.
    pub start: String,
    pub days: i64,
    /// The Discord server the game is played in.
    pub guild: Option<String>,
    pub channel: Option<String>,
    pub thread: Option<String>,
    pub status: GameStatus,
    pub result: GameResult,
    pub reason: Option<Reason>,
    /// The cached position after the stored moves.
    pub position: String,
    pub move_count: i64,
    /// The player who offered a draw that is still open.
    pub draw_offer: Option<i64>,
    pub deadline: i64,
    pub attacker: i64,
    pub attacker_key: String,
    pub attacker_name: String,
    pub defender: i64,
    pub defender_key: String,
    pub defender_name: String,
    /// The engine's level in a game against it.
    pub bot_level: Option<i64>,
    /// Whether the engine plays the attackers, in a game against it.
    pub bot_attacks: Option<Flag>,
    /// Whether the result changes the players' ratings.
    pub rated: Flag,
    /// The result would have been rated, but the pair had had as many rated results in a day
    /// as count.
    pub pair_limited: Flag,
    /// The player who asked to take back their last turn, until the opponent answers.
    pub takeback_by: Option<i64>,
    /// The player whose last takeback request was declined, and the moves the game had then.
    pub takeback_declined_by: Option<i64>,
    pub takeback_declined_at: Option<i64>,
    /// How many of the first moves came from an imported record.
    pub imported: i64,
    /// The tournament the game belongs to.
    pub tournament_id: Option<i64>,
    /// The move count when more time was last given (once a turn).
    pub more_time_at: Option<i64>,
    /// Whether any forecast is kept in the game.
    pub forecasting: Flag,
    /// In a team game: the length of each turn's window of votes, in seconds.
    pub vote_window: Option<i64>,
    /// When the player to move is reminded (before their quiet hours, if it falls in them).
    pub remind_at: i64,
    /// When each player's vacation began, while they are on one.
    pub attacker_away: Option<i64>,
    pub defender_away: Option<i64>,
    /// Each player's time zone and quiet hours.
    pub attacker_zone: Option<String>,
    pub attacker_quiet_from: Option<i64>,
    pub attacker_quiet_to: Option<i64>,
    pub defender_zone: Option<String>,
    pub defender_quiet_from: Option<i64>,
    pub defender_quiet_to: Option<i64>,
    /// The ratings before and after the result, once a rated game has ended.
    pub attacker_before: Option<f64>,
    pub attacker_after: Option<f64>,
    pub defender_before: Option<f64>,
    pub defender_after: Option<f64>,
    /// A game between two servers: the side of the server that did not begin it, and its
    /// channel and thread (the game's own are the other server's).
    pub second_guild: Option<String>,
    pub second_side: Option<String>,
    pub second_channel: Option<String>,
    pub second_thread: Option<String>,
    /// The default theme of the server the game is played in, for its thread's pictures.
    pub thread_theme: Option<String>,
}

impl GameRow {
    /// The theme of the pictures posted in the game's thread: its server's default, else
    /// classic.
    pub fn thread_theme(&self) -> crate::render::Theme {
        self.thread_theme
            .as_deref()
            .and_then(|t| t.parse().ok())
            .unwrap_or(crate::render::Theme::Classic)
    }

    /// A game between two servers: the second server's place.
    pub fn second(&self) -> Option<SecondPlace> {
        Some(SecondPlace {
            guild: self.second_guild.clone()?,
            side: if self.second_side.as_deref()? == "attackers" {
                Side::Attackers
            } else {
                Side::Defenders
            },
            channel: self.second_channel.clone(),
            thread: self.second_thread.clone(),
        })
    }

    /// Where the posts for the team playing `side` go (see [`super::GameView::place_of`]), read
    /// from the row alone.
    pub fn place_of(&self, side: Side) -> Option<String> {
        let first = self.thread.as_deref().or(self.channel.as_deref());
        super::SecondPlace::place_of(self.second().as_ref(), side, first).map(str::to_string)
    }

    /// In a game against the engine: the side it plays and its level.
    pub fn bot(&self) -> Option<(Side, u8)> {
        let level = self.bot_level?;
        let side = if self.bot_attacks?.0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        Some((side, level.clamp(1, 5) as u8))
    }

    /// The rating changes of a rated game that has ended, attackers first.
    pub fn rating_changes(&self) -> Option<BySide<RatingChange>> {
        Some(BySide::new(
            RatingChange {
                before: self.attacker_before?,
                after: self.attacker_after?,
            },
            RatingChange {
                before: self.defender_before?,
                after: self.defender_after?,
            },
        ))
    }

    /// Whether the player of `side` is on vacation (their clocks are stopped).
    pub fn away(&self, side: Side) -> bool {
        match side {
            Side::Attackers => self.attacker_away.is_some(),
            Side::Defenders => self.defender_away.is_some(),
        }
    }

    /// The quiet hours of the player of `side`, if they keep some.
    pub fn quiet(&self, side: Side) -> Option<super::quiet::Quiet> {
        let (zone, from, to) = match side {
            Side::Attackers => (
                &self.attacker_zone,
                self.attacker_quiet_from,
                self.attacker_quiet_to,
            ),
            Side::Defenders => (
                &self.defender_zone,
                self.defender_quiet_from,
                self.defender_quiet_to,
            ),
        };
        super::quiet::Quiet::stored(zone.as_deref(), from, to)
    }

    /// The players by side.
    pub fn players(&self) -> BySide<Person> {
        BySide::new(
            Person::new(&self.attacker_key, &self.attacker_name),
            Person::new(&self.defender_key, &self.defender_name),
        )
    }

    /// The players' database ids by side.
    pub fn player_ids(&self) -> BySide<i64> {
        BySide::new(self.attacker, self.defender)
    }

    /// The player of a side.
    pub fn player(&self, side: Side) -> Person {
        self.players()[side].clone()
    }

    /// The side `who` plays, if they play.
    pub fn seat(&self, who: &Person) -> Option<Side> {
        if self.attacker_key == who.key {
            Some(Side::Attackers)
        } else if self.defender_key == who.key {
            Some(Side::Defenders)
        } else {
            None
        }
    }

    pub fn days(&self) -> u32 {
        self.days as u32
    }

    /// How long a turn lasts: its days, or a team game's window of votes.
    pub fn turn_length(&self) -> i64 {
        self.vote_window.unwrap_or(self.days * super::DAY)
    }

    /// When the turn that ends at `deadline` is reminded of: a day before (half a day in one-day
    /// games), or a quarter of a team game's window before it closes.
    pub fn remind_at(&self, deadline: i64) -> i64 {
        super::deadlines::remind_at(deadline, self.days(), self.vote_window)
    }
}

/// The columns of a challenge row with its two players, as [`ChallengeRow`] reads them.
pub const CHALLENGE_SELECT: &str = "SELECT c.id, c.variant, c.side, c.challenger_attacks, c.days, c.guild, c.channel, c.expires_at, c.status, c.rated, c.from_moves,
        c.challenger, pa.key AS challenger_key, pa.name AS challenger_name,
        c.challenged, pb.key AS challenged_key, pb.name AS challenged_name
     FROM challenges c JOIN players pa ON pa.id = c.challenger JOIN players pb ON pb.id = c.challenged";

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ChallengeRow {
    pub id: i64,
    pub variant: VariantId,
    pub side: SideChoice,
    /// The side drawn for the challenger when the challenge was made.
    pub challenger_attacks: Option<Flag>,
    pub days: i64,
    pub guild: Option<String>,
    pub channel: Option<String>,
    pub expires_at: i64,
    pub status: ChallengeStatus,
    pub rated: Flag,
    /// The record or move list a game is to continue from.
    pub from_moves: Option<String>,
    pub challenger: i64,
    pub challenger_key: String,
    pub challenger_name: String,
    pub challenged: i64,
    pub challenged_key: String,
    pub challenged_name: String,
}

//! Why a use case refused, in a player's words.

use std::fmt;

use crate::notation::MoveError;
use crate::rules::IllegalMove;

#[derive(Debug)]
pub enum ServiceError {
    UnknownVariant(String),
    SelfChallenge,
    BadDays(u32),
    NoSuchChallenge(Option<i64>),
    SeveralChallenges(Vec<i64>),
    NotYourChallenge,
    OwnChallenge,
    /// The player ran out of time before moving.
    OutOfTime(i64),
    /// A command's option could not be read.
    BadInput(String),
    ChallengeClosed(i64, String),
    NoSuchGame(i64),
    NoGames,
    NoGameWaiting,
    SeveralGames(Vec<i64>),
    NotAPlayer(i64),
    NotYourTurn {
        game: i64,
        waiting_for: String,
    },
    /// The game has ended; the text says how.
    GameOver(i64, String),
    Move(MoveError),
    /// Another move reached the game first.
    PositionChanged(i64),
    CannotAbort(i64),
    NoDrawOffer(i64),
    DrawAlreadyOffered(i64),
    /// The stored game no longer replays; it was marked and reported.
    Broken(i64),
    Corrupt(String),
    Database(String),
}

fn ids(list: &[i64]) -> String {
    list.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ServiceError::*;
        match self {
            UnknownVariant(v) => {
                let ids: Vec<&str> = crate::rules::Variant::all().iter().map(|v| v.id).collect();
                write!(f, "there is no variant \"{v}\"; the variants are {}", ids.join(", "))
            }
            SelfChallenge => write!(f, "you cannot challenge yourself"),
            BadDays(d) => write!(f, "{d} days per move is not offered: choose 1, 2, 3, 5, 7, 10 or 14"),
            NoSuchChallenge(Some(id)) => write!(f, "there is no challenge #{id}"),
            NoSuchChallenge(None) => write!(f, "you have no open challenge to answer"),
            SeveralChallenges(list) => write!(f, "you have several open challenges ({}): name one", ids(list)),
            NotYourChallenge => write!(f, "this is not your challenge"),
            OwnChallenge => write!(f, "this is your own challenge: only the challenged player answers it (/cancel withdraws it)"),
            OutOfTime(id) => write!(f, "your time in game #{id} ran out before this move: the game is lost on time"),
            BadInput(why) => write!(f, "{why}"),
            ChallengeClosed(id, status) => write!(f, "challenge #{id} is no longer open ({status})"),
            NoSuchGame(id) => write!(f, "there is no game #{id}"),
            NoGames => write!(f, "you have no game in progress"),
            NoGameWaiting => write!(f, "no game is waiting for your move"),
            SeveralGames(list) => write!(f, "several of your games match ({}): say which with game:", ids(list)),
            NotAPlayer(id) => write!(f, "you are not playing in game #{id}"),
            NotYourTurn { game, waiting_for } => {
                write!(f, "it is not your turn in game #{game}: it is {waiting_for}'s move")
            }
            GameOver(id, how) if how.is_empty() => write!(f, "game #{id} is over"),
            GameOver(id, how) => write!(f, "game #{id} is over: {how}"),
            Move(e) => write!(f, "{e}"),
            PositionChanged(id) => write!(f, "the position of game #{id} changed while you moved: look again and retry"),
            CannotAbort(id) => write!(f, "game #{id} has begun: resign instead of aborting"),
            NoDrawOffer(id) => write!(f, "there is no draw offer to answer in game #{id}"),
            DrawAlreadyOffered(id) => write!(f, "you have already offered a draw in game #{id}"),
            Broken(id) => write!(
                f,
                "game #{id} could not be loaded: its stored moves no longer replay. It has been set aside and reported"
            ),
            Corrupt(why) => write!(f, "stored data is damaged: {why}"),
            Database(why) => write!(f, "the database failed ({why}); nothing was changed, try again"),
        }
    }
}

impl std::error::Error for ServiceError {}

impl From<sqlx::Error> for ServiceError {
    fn from(e: sqlx::Error) -> ServiceError {
        ServiceError::Database(e.to_string())
    }
}

impl From<MoveError> for ServiceError {
    fn from(e: MoveError) -> ServiceError {
        ServiceError::Move(e)
    }
}

impl From<IllegalMove> for ServiceError {
    fn from(e: IllegalMove) -> ServiceError {
        ServiceError::Move(MoveError::Illegal(e))
    }
}

//! Why a use case refused. The sentence a player reads is written in `text/refusal.rs`, which
//! also gives `Display` (plain text, for logs and the local mode).

use crate::notation::MoveError;
use crate::rules::IllegalMove;

use super::{ChallengeStatus, Person};

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    UnknownVariant(String),
    SelfChallenge,
    /// A challenge between the two is open already.
    ChallengeOpen(i64),
    /// The challenger has this many open already.
    TooManyChallenges(i64),
    /// Seconds to wait before challenging the same player again.
    ChallengeCooldown(i64),
    /// Bots cannot be challenged.
    NotAPerson,
    /// A rated challenge names someone too new here to play rated games.
    TooNewToRate(Person),
    BadDays(u32),
    /// The bot's levels are 1 to 5.
    BadLevel(u8),
    /// A level was given in a challenge to a person.
    LevelForPeople,
    /// A game to continue was given in a challenge to taflbot, whose games begin at the start.
    ContinuedForBot,
    /// The player has this many games against the bot going already.
    TooManyBotGames(i64),
    /// A hint is given in games against the bot and in finished games only.
    NoHintHere(i64),
    /// The game continues a record whose first position is still on the board of a game going
    /// on between people: (this game, that one).
    HintForLiveGame(i64, i64),
    /// The player's last hint is still being worked out.
    HintUnderway,
    /// Seconds before the player may ask for another hint.
    HintPause(i64),
    /// The engine has as many hints to work out as it takes at once.
    EngineBusy,
    NoSuchChallenge(Option<i64>),
    SeveralChallenges(Vec<i64>),
    NotYourChallenge,
    OwnChallenge,
    /// The player to move ran out of time before this command: the game is lost on time.
    OutOfTime {
        game: i64,
        late: Person,
        /// The late player is the one who gave the command.
        yours: bool,
    },
    /// A command's option could not be read: which option, what was given, what it takes.
    BadOption {
        option: String,
        given: String,
        expected: String,
    },
    /// A command needs an option that was not given; the example shows how to write it.
    MissingOption {
        option: String,
        example: String,
    },
    /// A command no row has: as typed, and the nearest command's name where one is close.
    UnknownCommand(String, Option<&'static str>),
    /// A move list longer than an import takes.
    ImportTooLong {
        moves: usize,
        max: usize,
    },
    /// A move list that does not replay.
    BadImport(#[source] crate::notation::ImportError),
    ChallengeClosed(i64, ChallengeStatus),
    NoSuchGame(i64),
    /// The game is played on another Discord server.
    OtherServer(i64),
    NoGames,
    /// The player is on vacation already, until then at the latest.
    OnVacation {
        until: i64,
    },
    NotOnVacation,
    /// This year's vacation days (so many a year) are used up.
    NoVacationLeft {
        days: u32,
    },
    /// A record to continue is of another variant than the challenge's.
    ContinuedVariant {
        record: &'static crate::rules::Variant,
        asked: &'static crate::rules::Variant,
    },
    /// A record to continue has ended already.
    ContinuedOver,
    /// A takeback is asked already in this game.
    TakebackAsked(i64),
    /// The player's takeback of this turn was declined: not asked again until a move.
    TakebackDeclined(i64),
    /// No takeback is asked of the player in this game.
    NoTakeback(i64),
    /// The player has no turn of their own to take back in this game.
    NothingToTakeBack(i64),
    /// Leaderboards are per server: none in a direct message.
    NotInServer,
    /// A time zone that is not an IANA name.
    UnknownZone(String),
    /// Quiet hours not written `HH-HH`.
    BadQuietHours(String),
    /// A game's command (named) given outside a server that installed taflbot.
    ServerOnly(String),
    /// Nobody here has a rating (in this variant).
    NoRatings(Option<&'static crate::rules::Variant>),
    NoGameWaiting,
    /// A tournament's players are 3 to 32.
    TournamentSize(i64),
    /// A Swiss of as many players as the tournament takes plays 1 to `most` rounds.
    SwissRounds {
        rounds: i64,
        most: i64,
    },
    /// So many tournaments are open or running here already.
    TooManyTournaments(i64),
    /// The caller made so many of the tournaments open or running here already.
    TooManyTournamentsOfYours(i64),
    NoSuchTournament(Option<i64>),
    SeveralTournaments(Vec<i64>),
    /// The tournament belongs to another server.
    TournamentElsewhere(i64),
    TournamentStarted(i64),
    TournamentOver(i64),
    AlreadyJoined(i64),
    NotJoined(i64),
    /// The tournament has as many players as it takes.
    TournamentFull(i64, i64),
    TooFewPlayers {
        have: i64,
        need: i64,
    },
    /// Only the tournament's creator, or someone who manages the server, may do this.
    NotOrganiser(i64),
    /// A tournament game cannot be called off.
    TournamentGame(i64),
    /// A rematch asked of a game still going.
    RematchOfLiveGame(i64),
    /// A review asked of a game still going.
    ReviewOfLiveGame(i64),
    /// A review asked of a game longer than any review takes.
    ReviewTooLong {
        id: i64,
        turns: usize,
    },
    /// A review asked with no game named, by a player with no finished game.
    NothingToReview,
    /// No puzzle (of this variant) is seen here yet.
    NoPuzzles(Option<&'static crate::rules::Variant>),
    /// The player has tried every puzzle of this variant seen here.
    AllPuzzlesTried(&'static crate::rules::Variant),
    /// No puzzle of this number is seen here.
    NoSuchPuzzle(i64),
    /// A move in a puzzle asked of a player with no puzzle open.
    NoPuzzleOpen,
    /// Puzzle `id` was failed less than a day ago; it opens again in `wait` seconds.
    PuzzleRetryTooSoon {
        id: i64,
        wait: i64,
    },
    /// A stored puzzle no longer reads or replays: its number, and why.
    BrokenPuzzle(i64, String),
    /// Only someone who manages the server may do this.
    NotManager,
    /// No legal move of the player starts on this square (or it is not a square).
    NoMovesFrom(String),
    SeveralGames(Vec<i64>),
    NotAPlayer(i64),
    NotYourTurn {
        game: i64,
        waiting_for: Person,
    },
    /// The game has ended; the sentence says how.
    GameOver(i64, Option<Ending>),
    Move(#[from] MoveError),
    /// Another move reached the game first.
    PositionChanged(i64),
    CannotAbort(i64),
    NoDrawOffer(i64),
    DrawAlreadyOffered(i64),
    /// A forecast is kept while the opponent is to move: it begins with their move.
    ForecastOnYourMove(i64),
    /// A forecast of more moves than a line may have.
    ForecastTooLong {
        max: usize,
    },
    /// A forecast of fewer than two moves (the opponent's and the answer).
    ForecastTooShort,
    /// A forecast whose last move is the opponent's: it would answer nothing.
    ForecastEndsOnTheirs,
    /// A forecast's move (the `at`th, from 1) that cannot be played there, and why.
    BadForecast {
        at: usize,
        mv: String,
        why: String,
    },
    /// A forecast that answers a move (after the moves `after`) otherwise than a line kept does.
    ForecastConflict {
        after: String,
        kept: String,
        new: String,
    },
    /// The player keeps as many lines in this game as there may be.
    TooManyForecasts(usize),
    /// A note longer than a note may be.
    NoteTooLong {
        chars: usize,
        max: usize,
    },
    /// More time is given to the opponent, on their move: it is the giver's own.
    MoreTimeOnYourMove(i64),
    /// More time was given on this move already.
    MoreTimeGiven(i64),
    /// More time is given in games between people.
    MoreTimeForBot(i64),
    /// A team game's window of votes must be 1 to 72 hours.
    BadWindow(u32),
    /// The two roles of a team game are one.
    SameRoles,
    /// A team game names its opponent as taflbot, or two roles: neither was given so.
    TeamOpponent,
    /// The server has this many team games going already.
    TooManyTeamGames(i64),
    /// The starter has started a team game that goes on.
    TeamGameOfYours,
    /// The game named is not a team game of this server.
    NotTeamGame(i64),
    /// No team game goes on here.
    NoTeamGame,
    /// Several team games go on here: the caller must say which.
    SeveralTeamGames(Vec<i64>),
    /// The member votes for neither side of the game.
    NotOnTeam(i64),
    /// The member holds the roles of both sides, so votes for neither.
    OnBothTeams(i64),
    /// The member's account, or their membership of the server, is too new to vote in team
    /// games (the rule of rated play).
    TooNewToVote(i64),
    /// The person has voted for the other side of this game (a member of both servers, or one
    /// whose roles changed): one person votes for one side of a game only.
    VotedForOtherSide(i64),
    /// The window open now is the other side's (or taflbot is to move).
    NotYourWindow {
        game: i64,
        waiting_for: Person,
    },
    /// The window's time is up: its turn is being played.
    WindowOver(i64),
    /// A vote names more moves than a turn may have.
    TurnTooLong(usize),
    /// A vote's moves go on past the end of the turn (the turn, as far as it went).
    TurnOver(String),
    /// A vote's moves leave the turn unfinished (a turn of two moves, one given).
    TurnUnfinished(String),
    /// Only the server's managers and the game's captain close a window early.
    NotCaptain(i64),
    /// Nobody has voted in the window yet: it cannot close early.
    NoVotesYet(i64),
    /// A challenge names a server by its id: digits, not this.
    BadServer(String),
    /// A server challenges itself: its roles play each other with `/teamgame start`.
    SameServer,
    /// taflbot is not in the server challenged (or Discord will not say).
    NotInThatServer(String),
    /// The server challenged has set no home for team games.
    NoTeamHome(Person),
    /// The local mode has one server: no other to challenge.
    OneServerHere,
    /// The server challenged declined this server's last challenge lately: not again until then.
    DeclinedLately(i64),
    /// A server has as many challenges to other servers open as it may (`received`: the server
    /// challenged has as many from others waiting for its answer).
    TooManyTeamChallenges {
        most: i64,
        received: bool,
    },
    /// A challenge between these servers is open already (its number).
    TeamChallengeOpen(i64),
    /// No open challenge of that number to this server.
    NoTeamChallenge(i64),
    /// The challenge was made to another server (its managers answer it), or by this one.
    NotYourTeamChallenge(i64),
    /// The stored game no longer replays; it was marked and reported.
    Broken(i64),
    Corrupt(String),
    Database(#[source] sqlx::Error),
    /// Work that failed inside taflbot (a task that panicked).
    Internal(String),
}

/// How a game that is over ended, for the refusal that says so.
#[derive(Clone, Debug)]
pub enum Ending {
    Aborted,
    Outcome {
        variant: &'static crate::rules::Variant,
        players: Box<crate::rules::BySide<Person>>,
        outcome: crate::rules::Outcome,
    },
}

impl ServiceError {
    /// Whether the fault is the bot's, not the player's: logged as an error.
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            ServiceError::Database(_)
                | ServiceError::Broken(_)
                | ServiceError::BrokenPuzzle(..)
                | ServiceError::Corrupt(_)
                | ServiceError::Internal(_)
        )
    }
}

impl From<sqlx::Error> for ServiceError {
    fn from(e: sqlx::Error) -> ServiceError {
        match e {
            // A column that does not read as its type (an unknown variant, status or reason).
            sqlx::Error::ColumnDecode { index, source } => {
                ServiceError::Corrupt(format!("column {index}: {source}"))
            }
            e => {
                if crate::store::lost_connection(&e) {
                    crate::store::suspect_connections();
                }
                ServiceError::Database(e)
            }
        }
    }
}

impl From<crate::rules::UnknownVariant> for ServiceError {
    fn from(e: crate::rules::UnknownVariant) -> ServiceError {
        ServiceError::UnknownVariant(e.0)
    }
}

impl From<IllegalMove> for ServiceError {
    fn from(e: IllegalMove) -> ServiceError {
        ServiceError::Move(MoveError::Illegal(e))
    }
}

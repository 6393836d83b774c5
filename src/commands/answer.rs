//! What a command did, as data. [`super::apply`] makes it; each front end shows it: Discord as
//! replies, posts, buttons and threads, the local mode as text and saved pictures.

use super::Spec;
use crate::rules::Variant;
use crate::service::Hours;
use crate::service::{
    Challenge, Crosstable, DailySetting, Exported, Forecasts, GameReview, GameSummary, GameView,
    Hint, Imported, Leaderboard, News, Note, Person, Played, Profile, PuzzleShown, SolveStep,
    Started, TournamentDone, TournamentView, Vacation,
};

/// What a command did.
pub enum Answer {
    /// Something happened in a game (a move, a turn ended, a resignation, a game called off, a
    /// draw or takeback offered, agreed or declined): the game after it, the news, and the board
    /// when a move changed it. Who hears of it is the news's to say (`News::addressees`).
    News {
        view: GameView,
        news: News,
        png: Option<Vec<u8>>,
        /// The replies that forecasts played at once after it, each with its game and board.
        forecast: Vec<Played>,
    },
    /// A game has begun: a challenge accepted, or a game against taflbot. `png` is the opening
    /// board (none when it could not be drawn; the game is stored all the same).
    Started {
        view: GameView,
        png: Option<Vec<u8>>,
        against_bot: bool,
    },
    /// A challenge is made, for the challenged player to answer.
    Challenged(Challenge),
    /// A challenge declined by the challenged player.
    Declined(Challenge),
    /// A challenge withdrawn by the challenger.
    Withdrawn(Challenge),
    /// A game's board as it stands.
    Board {
        view: GameView,
        png: Vec<u8>,
    },
    /// A player's games in progress; `yours` when the caller asked for their own.
    Games {
        whose: Person,
        yours: bool,
        list: Vec<GameSummary>,
    },
    Leaderboard(Leaderboard),
    /// A profile, with the chart of the ratings when there is one.
    /// `yours`: the caller's own (shown to the channel); anyone else's is shown to the caller
    /// only, since they did not ask to be talked about.
    Profile {
        profile: Profile,
        chart: Option<Vec<u8>>,
        yours: bool,
    },
    /// A variant's rules, with its start position.
    Rules {
        variant: &'static Variant,
        png: Vec<u8>,
    },
    /// The variants of the table, with their ids.
    Variants,
    /// A game's record, with its GIF when that fits the upload limit.
    Record(Exported),
    /// A move list replayed.
    Imported(Imported),
    /// The engine's suggestion, for the caller only.
    Hint(Hint),
    /// A finished game's review, with its chart.
    Review {
        review: GameReview,
        chart: Option<Vec<u8>>,
    },
    /// A puzzle opened for the caller (or shown again), for them alone.
    Puzzle(PuzzleShown),
    /// A move in the caller's puzzle, and how it went.
    Solve(SolveStep),
    /// Where the server's daily puzzle goes now.
    DailyPuzzle(DailySetting),
    /// Where the caller's vacation stands.
    Vacation {
        vacation: Vacation,
        days_a_year: u32,
    },
    /// The caller's settings for being told, after what `/notify` changed.
    Notify(Hours),
    /// The caller's legal moves in a game (those from `from` alone, when it is given).
    Moves {
        game: i64,
        from: Option<String>,
        moves: Vec<String>,
    },
    /// The caller's theme and the server's, after what `/theme` changed.
    Theme(crate::service::ThemeSetting),
    /// The caller's forecast lines in a game, after what `/forecast` did: for them alone.
    Forecasts(Forecasts),
    /// The caller's note on a game, after what `/note` did: for them alone.
    Note(Note),
    /// The help: all commands (none named), or all about the ones named (a command, or the
    /// commands of a group such as `tournament`).
    Help(Vec<&'static Spec>),
    /// A tournament made, joined, left or called off, as it stands now.
    Tournament {
        view: TournamentView,
        done: TournamentDone,
    },
    /// A tournament has started: its first round's games (each announced in its own thread by a
    /// kept notice) and byes.
    TournamentStarted(Started),
    /// A tournament's standings, with the crosstable picture (none when it could not be drawn).
    Standings {
        table: Crosstable,
        png: Option<Vec<u8>>,
    },
    /// The tournaments here.
    Tournaments(Vec<TournamentView>),
    /// A team game begun, with its opening board.
    TeamStarted {
        view: GameView,
        png: Option<Vec<u8>>,
    },
    /// A vote kept (told to the voter alone).
    Voted(crate::service::Voted),
    /// A window closed early: its notice is delivered as every notice is.
    WindowClosed(crate::service::Notice),
    /// A team game called off by a manager: its notice is delivered as every notice is.
    TeamCalledOff(crate::service::Notice),
    /// A challenge to another server made: shown there, in its home.
    TeamChallenged(crate::service::TeamChallenge),
    /// The server's home for team games now (none: taken away), and the role it pings.
    TeamHome {
        home: Option<String>,
        ping: Option<crate::service::TeamRole>,
    },
    /// A challenge from another server answered.
    TeamAnswered(crate::service::TeamAnswer),
    /// The server's team games (`record`: its record, else those going on).
    TeamGames {
        games: crate::service::TeamGames,
        record: bool,
    },
}

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let game = |view: &GameView| view.id;
        match self {
            Answer::News { view, news, .. } => write!(f, "News(#{}, {news:?})", game(view)),
            Answer::Started { view, .. } => write!(f, "Started(#{})", game(view)),
            Answer::Challenged(c) => write!(f, "Challenged(#{})", c.id),
            Answer::Declined(c) => write!(f, "Declined(#{})", c.id),
            Answer::Withdrawn(c) => write!(f, "Withdrawn(#{})", c.id),
            Answer::Board { view, .. } => write!(f, "Board(#{})", game(view)),
            Answer::Games { whose, list, .. } => {
                write!(f, "Games({}, {} games)", whose.name, list.len())
            }
            Answer::Leaderboard(b) => write!(f, "Leaderboard({}, page {})", b.variant, b.page),
            Answer::Profile { profile, .. } => write!(f, "Profile({})", profile.player.name),
            Answer::Rules { variant, .. } => write!(f, "Rules({variant})"),
            Answer::Variants => f.write_str("Variants"),
            Answer::Record(e) => write!(f, "Record(#{})", e.view.id),
            Answer::Imported(_) => f.write_str("Imported"),
            Answer::Hint(h) => write!(f, "Hint(#{})", h.game),
            Answer::Review { review, .. } => write!(f, "Review(#{})", review.game.id),
            Answer::Puzzle(p) => write!(f, "Puzzle(#{})", p.puzzle.id),
            Answer::Solve(step) => write!(f, "Solve(#{}, {:?})", step.puzzle.id, step.how),
            Answer::DailyPuzzle(d) => write!(f, "DailyPuzzle({:?})", d.channel),
            Answer::Vacation { .. } => f.write_str("Vacation"),
            Answer::TeamStarted { view, .. } => write!(f, "TeamStarted(#{})", game(view)),
            Answer::Voted(v) => write!(f, "Voted(#{}, {})", v.game, v.turn),
            Answer::WindowClosed(n) => write!(f, "WindowClosed(#{})", n.game_id),
            Answer::TeamCalledOff(n) => write!(f, "TeamCalledOff(#{})", n.game_id),
            Answer::TeamChallenged(c) => write!(f, "TeamChallenged(#{})", c.id),
            Answer::TeamHome { home, .. } => write!(f, "TeamHome({home:?})"),
            Answer::TeamAnswered(crate::service::TeamAnswer::Accepted(view)) => {
                write!(f, "TeamAccepted(#{})", game(view))
            }
            Answer::TeamAnswered(crate::service::TeamAnswer::Declined(c)) => {
                write!(f, "TeamDeclined(#{})", c.id)
            }
            Answer::TeamGames { games, record } => write!(
                f,
                "TeamGames({} going, {} finished, record: {record})",
                games.going.len(),
                games.finished.len()
            ),
            Answer::Notify(hours) => write!(f, "Notify({hours:?})"),
            Answer::Theme(setting) => write!(f, "Theme({setting:?})"),
            Answer::Moves { game, moves, .. } => write!(f, "Moves(#{game}, {})", moves.len()),
            Answer::Forecasts(list) => write!(f, "Forecasts(#{}, {:?})", list.game, list.done),
            Answer::Note(note) => write!(f, "Note(#{}, {:?})", note.game, note.done),
            Answer::Help(specs) => {
                let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
                write!(f, "Help({names:?})")
            }
            Answer::Tournament { view, done } => write!(f, "Tournament(#{}, {done:?})", view.id),
            Answer::TournamentStarted(s) => write!(f, "TournamentStarted(#{})", s.tournament.id),
            Answer::Standings { table, .. } => write!(f, "Standings(#{})", table.view.id),
            Answer::Tournaments(list) => write!(f, "Tournaments({})", list.len()),
        }
    }
}

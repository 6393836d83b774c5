//! Why a use case refused, as a player reads it; `Display` for [`ServiceError`] gives it in plain
//! text (for logs and the local mode).

use super::{ids, outcome, Plain, Style};
use crate::notation::quoted;
use crate::rules::Variant;
use crate::service::{Ending, ServiceError, DAYS_PER_MOVE, HINT_PAUSE};

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&refusal(self, &Plain))?;
        // Logs and the local mode's operator see the database's own words too.
        match self {
            ServiceError::Database(why) if !crate::store::lost_connection(why) => {
                write!(f, " [{why}]")
            }
            _ => Ok(()),
        }
    }
}

/// A list as a sentence says it: "1, 2 or 3".
fn either<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Why a use case refused, as a phrase (see [`sentence`]).
pub fn refusal(e: &ServiceError, s: &dyn Style) -> String {
    use ServiceError::*;
    match e {
        UnknownVariant(v) => {
            let ids: Vec<&str> = Variant::all().iter().map(|v| v.id).collect();
            format!(
                "there is no variant \"{}\"{}; the variants are {}",
                quoted(v),
                crate::rules::did_you_mean(v),
                ids.join(", ")
            )
        }
        SelfChallenge => "you cannot challenge yourself".into(),
        ChallengeOpen(id) => format!(
            "challenge #{id} between you two is still open: answer or withdraw it first"
        ),
        TooManyChallenges(max) => format!(
            "you have {max} open challenges, the most there may be: wait for answers or withdraw one"
        ),
        ChallengeCooldown(wait) => format!(
            "you challenged this player a moment ago: wait {wait} more seconds before challenging them again"
        ),
        NotAPerson => "bots do not play here: challenge a person".into(),
        TooNewToRate(who) => format!(
            "rated games here are for accounts at least {} days old that joined this server {} days ago or more, and {} is newer than that: challenge with rated:False, or join an unrated tournament, to play unrated",
            crate::service::RATED_ACCOUNT_DAYS,
            crate::service::RATED_MEMBER_DAYS,
            s.name(who)
        ),
        BadLevel(l) => {
            let levels = crate::engine::LEVELS;
            format!(
                "the bot plays at levels {} to {}, not {l}",
                levels.start(),
                levels.end()
            )
        }
        LevelForPeople => "a level is for games against taflbot; a challenge to a person has none".into(),
        ContinuedForBot => {
            "a game to continue is for a challenge to a person: taflbot's own games begin at the start".into()
        }
        TooManyBotGames(max) => format!(
            "you have {max} games against the bot going, the most there may be: finish one first"
        ),
        NoHintHere(id) => format!(
            "no hints in game #{id}: hints are for games against the bot and for finished games"
        ),
        HintForLiveGame(id, live) => format!(
            "no hints in game #{id}: it continues from a position of game #{live}, which is still being played"
        ),
        HintUnderway => "your last hint or review is still being worked out: wait for it before asking for another".into(),
        HintPause(wait) => format!(
            "one hint or review every {} seconds: ask again in {wait} {}",
            HINT_PAUSE,
            if *wait == 1 { "second" } else { "seconds" }
        ),
        EngineBusy => "taflbot's engine is busy with other players' hints and reviews: try again in a minute".into(),
        BadDays(d) => {
            format!(
                "{d} days per move is not offered: choose {}",
                either(DAYS_PER_MOVE)
            )
        }
        NoSuchChallenge(Some(id)) => format!("there is no challenge #{id}"),
        NoSuchChallenge(None) => "you have no open challenge to answer".into(),
        SeveralChallenges(list) => {
            format!("you have several open challenges ({}): name one", ids(list))
        }
        NotYourChallenge => "this is not your challenge".into(),
        OwnChallenge => format!(
            "this is your own challenge: only the challenged player answers it ({} withdraws it)",
            s.code("/cancel")
        ),
        OutOfTime {
            game,
            yours: true,
            ..
        } => format!("your time in game #{game} ran out: the game is lost on time"),
        OutOfTime { game, late, .. } => format!(
            "{}'s time in game #{game} ran out: {} lost on time",
            s.name(late),
            s.name(late)
        ),
        BadOption {
            option,
            given,
            expected,
        } => format!(
            "\"{}\" is not {expected} (option {})",
            quoted(given),
            quoted(option)
        ),
        MissingOption { option, example } => {
            format!("the option {option} is needed, e.g. {}", s.code(example))
        }
        UnknownCommand(c, None) => format!("there is no command \"{}\"; help lists them", quoted(c)),
        UnknownCommand(c, Some(near)) => format!(
            "there is no command \"{}\" (did you mean {near}?); help lists them",
            quoted(c)
        ),
        BadImport(e) => format!("the move list does not replay: {e}"),
        ImportTooLong { moves, max } => format!(
            "the move list has {moves} moves; an import takes at most {max}"
        ),
        ChallengeClosed(id, status) => {
            format!("challenge #{id} is no longer open ({})", status.as_str())
        }
        NoSuchGame(id) => format!("there is no game #{id}"),
        OtherServer(id) => format!("game #{id} is played on another server, and is seen only there"),
        NoGames => "you have no game in progress".into(),
        OnVacation { until } => format!(
            "you are on vacation already, until {} at the latest; vacation off ends it",
            s.time_and_distance(*until)
        ),
        NotOnVacation => "you are not on vacation".into(),
        ContinuedVariant { record, asked } => format!(
            "the record is a game of {}, not {}: challenge with variant:{}",
            record.name, asked.name, record.id
        ),
        ContinuedOver => "that game is over already: only a game still going on can be continued".into(),
        TakebackAsked(g) => format!("you asked for a takeback in game #{g} already; your opponent has not answered"),
        TakebackDeclined(g) => format!(
            "your takeback in game #{g} was declined: a turn is asked for once"
        ),
        NoTakeback(g) => format!("nobody asked you for a takeback in game #{g}"),
        NothingToTakeBack(g) => format!("you have no turn to take back in game #{g}"),
        NoVacationLeft { days } => format!(
            "your vacation days for this year are used up ({days} a year); they come again on 1 January"
        ),
        NotInServer => "leaderboards, tournaments, daily puzzles and a server's theme belong to servers: ask in a server's channel".into(),
        NoRatings(None) => "nobody here has a rating yet: rated games make them".into(),
        NoRatings(Some(v)) => format!("nobody here has a rating in {} yet", v.name),
        NoGameWaiting => "no game is waiting for your move".into(),
        TournamentSize(n) => format!(
            "a tournament takes {} to {} players, not {n}",
            super::super::MIN_PLAYERS,
            super::super::MAX_PLAYERS
        ),
        SwissRounds { rounds, most } => format!(
            "a Swiss of that many players plays 1 to {most} rounds (so that every round can be paired without a rematch), not {rounds}"
        ),
        TooManyTournaments(n) => format!(
            "this server has {n} tournaments open or running already: finish or cancel one first"
        ),
        TooManyTournamentsOfYours(n) => format!(
            "you have made {n} of this server's open or running tournaments already: start or cancel one of them first"
        ),
        NoSuchTournament(Some(id)) => format!("there is no tournament #{id}"),
        NoSuchTournament(None) => "there is no such tournament here: see /tournament list".into(),
        SeveralTournaments(list) => format!(
            "several tournaments here fit ({}): say which with tournament:",
            ids(list)
        ),
        TournamentElsewhere(id) => format!("tournament #{id} belongs to another server"),
        TournamentStarted(id) => format!("tournament #{id} has started: joining and starting are over"),
        TournamentOver(id) => format!("tournament #{id} is over"),
        AlreadyJoined(id) => format!("you are in tournament #{id} already"),
        NotJoined(id) => format!("you are not playing in tournament #{id}"),
        TournamentFull(id, n) => format!("tournament #{id} is full ({n} players)"),
        TooFewPlayers { have, need } => format!(
            "a tournament needs {need} players to start; it has {have}"
        ),
        NotOrganiser(id) => format!(
            "only the creator of tournament #{id}, or someone who manages this server, may do that"
        ),
        RematchOfLiveGame(id) => format!("game #{id} is still going: a rematch comes after it ends"),
        ReviewOfLiveGame(id) => format!(
            "game #{id} is still going: a review comes after it ends (a hint is the engine's help in a game against taflbot)"
        ),
        ReviewTooLong { id, turns } => format!(
            "game #{id} is too long to review: it has {turns} turns, and a review takes at most {}",
            crate::engine::review::MOST_TURNS
        ),
        NothingToReview => "you have no finished game here: name one with `game:`".to_string(),
        NoPuzzles(None) => "there are no puzzles here yet: they are cut from finished games, and from recorded Copenhagen games in the first minutes after taflbot starts (or at once with `taflbot import-puzzles`)".to_string(),
        NoPuzzles(Some(v)) => format!(
            "there are no {} puzzles here yet: they are cut from the finished games of a variant whose turns are one move",
            v.name
        ),
        AllPuzzlesTried(v) => format!(
            "you have tried every {} puzzle here: another variant, or a number (`puzzle number:12`), opens one again unrated",
            v.name
        ),
        NoSuchPuzzle(id) => format!("there is no puzzle #{id} here"),
        NoPuzzleOpen => "you have no puzzle open: /puzzle opens one".to_string(),
        PuzzleRetryTooSoon { id, wait } => format!(
            "you failed puzzle #{id} less than a day ago: it opens for you again in {}",
            super::answers::days_and_hours((wait + 3599) / 3600 * 3600)
        ),
        BrokenPuzzle(id, why) => format!("puzzle #{id} could not be read ({why}); it has been reported"),
        NotManager => "only someone who manages this server may do that".to_string(),
        NoMovesFrom(square) => format!(
            "no move of yours starts on {square}: name a square with one of your pieces that can move, such as from:d1, or leave from: out for all your moves"
        ),
        TournamentGame(id) => format!(
            "game #{id} is a tournament game and cannot be called off: resign instead, or leave the tournament"
        ),
        SeveralGames(list) => format!(
            "several of your games match ({}): say which with game:",
            ids(list)
        ),
        NotAPlayer(id) => format!("you are not playing in game #{id}"),
        NotYourTurn { game, waiting_for } => format!(
            "it is not your turn in game #{game}: it is {}'s move",
            s.name(waiting_for)
        ),
        GameOver(id, None) => format!("game #{id} is over"),
        GameOver(id, Some(Ending::Aborted)) => format!("game #{id} is over: it was aborted"),
        GameOver(
            id,
            Some(Ending::Outcome {
                variant,
                players,
                outcome: o,
            }),
        ) => format!("game #{id} is over: {}", outcome(variant, players, *o, s)),
        Move(e) => e.to_string(),
        BadWindow(hours) => format!(
            "a window of votes lasts {}–{} hours, not {hours}",
            crate::service::MIN_WINDOW_HOURS,
            crate::service::MAX_WINDOW_HOURS
        ),
        TeamOpponent => format!(
            "a team game is played against taflbot ({}) or between two roles ({})",
            s.code("opponent:@taflbot"),
            s.code("attackers:@role defenders:@role")
        ),
        SameRoles => "the attackers' role and the defenders' role must be two different roles"
            .to_string(),
        TooManyTeamGames(n) => format!(
            "this server has {n} team games going, as many as it may: finish one first"
        ),
        TeamGameOfYours => {
            "you started a team game that is still going: one at a time".to_string()
        }
        NotTeamGame(id) => format!(
            "game #{id} is not a team game of this server (in your own games, play with {})",
            s.code("/move")
        ),
        NoTeamGame => format!(
            "no team game is going on in this server: start one with {}",
            s.code("/teamgame start")
        ),
        SeveralTeamGames(ids) => format!(
            "several team games are going here ({}): say which with game:",
            ids.iter().map(|id| format!("#{id}")).collect::<Vec<_>>().join(", ")
        ),
        NotOnTeam(id) => format!("you do not vote for either side of game #{id}"),
        OnBothTeams(id) => format!(
            "you hold the roles of both sides of game #{id}, so you vote for neither"
        ),
        TooNewToVote(id) => format!(
            "votes in team games are for accounts at least {} days old that joined this server {} days ago or more, as rated games are, so your vote in game #{id} cannot be taken yet",
            crate::service::RATED_ACCOUNT_DAYS,
            crate::service::RATED_MEMBER_DAYS,
        ),
        VotedForOtherSide(id) => format!(
            "you have voted for the other side of game #{id}: one person votes for one side of a game only, the first they voted for"
        ),
        NotYourWindow { game, waiting_for } => format!(
            "the window open in game #{game} is not your side's: {} is to move",
            s.name(waiting_for)
        ),
        WindowOver(id) => format!(
            "the window of game #{id} has closed: its turn is being played, vote in the next one"
        ),
        TurnTooLong(max) => format!("a vote names one turn: at most {max} moves"),
        TurnOver(turn) => format!(
            "the turn is over after {}: vote for the moves of one turn",
            s.code(turn)
        ),
        TurnUnfinished(turn) => format!(
            "the turn is not over after {}: name all of its moves",
            s.code(turn)
        ),
        NotCaptain(id) => format!(
            "only the server's managers, and the captain of game #{id} for their own team, close its window early"
        ),
        NoVotesYet(id) => format!("nobody has voted in game #{id}'s window yet"),
        BadServer(text) => format!(
            "a server is named by its id, the digits Discord copies with Copy Server ID, not \"{}\"",
            quoted(text)
        ),
        SameServer => format!(
            "a server cannot challenge itself: two of its roles play with {}",
            s.code("/teamgame start attackers:@role defenders:@role")
        ),
        NotInThatServer(id) => {
            format!("server {id} has not added taflbot: one of its managers adds it first")
        }
        NoTeamHome(team) => format!(
            "{} has no home for team games: one of its managers chooses one with {}",
            s.name(team),
            s.code("/teamgame home")
        ),
        OneServerHere => {
            "the local mode has one server: a challenge to another server is made on Discord"
                .to_string()
        }
        DeclinedLately(until) => format!(
            "that server declined this server's last challenge: challenge it again from {}",
            s.time(*until)
        ),
        TooManyTeamChallenges {
            most,
            received: false,
        } => format!(
            "this server has {most} challenges to other servers waiting for their answers, as many as a server may: wait for one"
        ),
        TooManyTeamChallenges {
            most,
            received: true,
        } => format!(
            "that server has {most} challenges from other servers waiting for its answer, as many as it may: try again once it has answered one"
        ),
        TeamChallengeOpen(id) => format!(
            "team challenge #{id} between these servers is open already: wait for its answer"
        ),
        NoTeamChallenge(id) => format!("team challenge #{id} is not open any more"),
        NotYourTeamChallenge(id) => format!(
            "team challenge #{id} is answered by the managers of the server challenged"
        ),
        PositionChanged(id) => format!(
            "the position of game #{id} changed while you moved: look again and retry"
        ),
        CannotAbort(id) => format!("game #{id} has begun: resign instead of aborting"),
        NoDrawOffer(id) => format!("there is no draw offer to answer in game #{id}"),
        DrawAlreadyOffered(id) => format!("you have already offered a draw in game #{id}"),
        UnknownZone(name) => format!(
            "there is no time zone \"{}\": write one as the time-zone database names it, such as Europe/Oslo or America/New_York",
            quoted(name)
        ),
        BadQuietHours(text) => format!(
            "quiet hours are written from-to in whole hours, such as 22-07, not \"{}\" (off ends them)",
            quoted(text)
        ),
        ServerOnly(command) => format!(
            "{} works in a server that has taflbot: games are played in its channels, where taflbot posts every move, and it cannot post here",
            s.code(&format!("/{command}"))
        ),
        ForecastOnYourMove(id) => format!(
            "it is your move in game #{id}: a forecast begins with your opponent's next move, so make yours first"
        ),
        ForecastTooLong { max } => format!("a forecast line has at most {max} moves"),
        ForecastTooShort => "a forecast line is your opponent's move and your answer, at least: write them both, e.g. e4-e6, f1-f3".to_string(),
        ForecastEndsOnTheirs => "a forecast line ends with your own answer: leave out its last move, or answer it".to_string(),
        BadForecast { at, mv, why } => format!(
            "move {at} of the line, {}, cannot be played there: {why}",
            s.code(&quoted(mv))
        ),
        ForecastConflict { after, kept, new } => {
            let after = if after.is_empty() {
                String::new()
            } else {
                format!(" after {}", s.code(after))
            };
            format!(
                "you already answer{after} with {}, not {}: clear your forecasts first to change it",
                s.code(kept),
                s.code(new)
            )
        }
        TooManyForecasts(max) => format!(
            "you keep {max} forecast lines in this game, the most there may be: clear them to begin again"
        ),
        NoteTooLong { chars, max } => {
            format!("a note has at most {max} characters, and this one has {chars}")
        }
        MoreTimeOnYourMove(id) => format!(
            "it is your move in game #{id}: more time goes to your opponent, on their move"
        ),
        MoreTimeGiven(id) => format!("more time was given on this move of game #{id} already"),
        MoreTimeForBot(id) => format!(
            "taflbot moves at once in game #{id}: it needs no more time"
        ),
        Broken(id) => format!(
            "game #{id} could not be loaded: its stored moves no longer replay. It has been set aside and reported"
        ),
        Corrupt(why) => format!("stored data is damaged: {why}"),
        Internal(why) => format!("taflbot failed at this ({why}); try again"),
        Database(why) if crate::store::lost_connection(why) => {
            "the connection to the database was lost; nothing was changed, try again".to_string()
        }
        // No connection came free in time: the database is down, or every connection is busy.
        Database(sqlx::Error::PoolTimedOut) => {
            "the database did not answer in time; nothing was changed, try again".to_string()
        }
        // The database's own words are for the operator (the log has them), not the player.
        Database(_) => {
            "the database refused this (taflbot's log says why); nothing was changed, try again"
                .to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_never_reads_the_databases_own_words_but_the_log_does() {
        let timed_out = ServiceError::Database(sqlx::Error::PoolTimedOut);
        assert_eq!(
            refusal(&timed_out, &Plain),
            "the database did not answer in time; nothing was changed, try again"
        );
        let refused = ServiceError::Database(sqlx::Error::Protocol("x".into()));
        assert!(refusal(&refused, &Plain).starts_with("the connection to the database was lost"));
        let other = ServiceError::Database(sqlx::Error::RowNotFound);
        let said = refusal(&other, &Plain);
        assert_eq!(
            said,
            "the database refused this (taflbot's log says why); nothing was changed, try again"
        );
        assert!(other.to_string().starts_with(&said));
        assert!(other.to_string().contains("no rows returned"), "{other}");
    }
}

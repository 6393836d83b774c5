//! The one place where a command becomes use cases of the service. Both front ends call
//! [`apply`] and show the [`Answer`]; neither decides anything a command means.

use super::{help_specs, Answer, Command};
use crate::service::{
    GameNews, Member, Person, Played, Rematch, Service, ServiceError, Takeback, TeamOpponent,
    TeamTerms, Terms, TournamentDone, TournamentTerms,
};

/// Who gives a command, and from where.
#[derive(Clone, Debug)]
pub struct Caller {
    pub who: Person,
    /// The channel (or thread) the command was given in, where the front end has channels.
    pub channel: Option<String>,
    /// Where a game or tournament the command begins is placed (its thread opened there): the
    /// channel itself, or the parent channel of the thread the command was given in, since
    /// Discord opens no thread inside a thread.
    pub home: Option<String>,
    /// taflbot itself as the front end names it: a challenge to it is a game against the engine.
    pub taflbot: Person,
    /// The keys of the other bots the command names: they cannot be challenged.
    pub bots: Vec<String>,
    /// The most bytes of files an answer may carry.
    pub upload_limit: usize,
    /// The keys of the people this command names (the caller among them) who are too new here
    /// to play rated games: an account younger than [`crate::service::RATED_ACCOUNT_DAYS`]
    /// days, or a member of the server for less than [`crate::service::RATED_MEMBER_DAYS`] (a
    /// ring of fresh accounts cannot farm).
    pub newcomers: Vec<String>,
    /// Whether the caller manages the server (Discord's Manage Server): they run its
    /// tournaments as their creators do, and close its team games' windows.
    pub manages: bool,
    /// The roles the caller holds in this server: who they vote for in team games.
    pub roles: Vec<String>,
    /// The server's name: its team's, in team games.
    pub server: String,
}

impl Caller {
    /// A caller in the local mode: no channels, no limit on files.
    pub fn local(who: Person, taflbot: Person) -> Caller {
        Caller {
            who,
            channel: None,
            home: None,
            newcomers: Vec::new(),
            taflbot,
            bots: Vec::new(),
            upload_limit: usize::MAX,
            manages: false,
            roles: Vec::new(),
            server: LOCAL_TEAM.to_string(),
        }
    }

    /// The caller as a member of the server, for team games.
    fn member(&self) -> Member {
        Member {
            person: self.who.clone(),
            roles: self.roles.clone(),
            manages: self.manages,
            newcomer: self.is_newcomer(),
        }
    }

    /// Whether the caller is too new here for rated play (see [`Caller::newcomers`]).
    fn is_newcomer(&self) -> bool {
        self.newcomers.contains(&self.who.key)
    }
}

/// The local mode's team, every player a member.
pub const LOCAL_TEAM: &str = "The table";

/// The room a record's GIF leaves for the record itself.
const RECORD_ROOM: usize = 4096;
/// The room an import's GIF leaves for the record and the final board.
const IMPORT_ROOM: usize = 256 * 1024;

/// Runs `command` for `caller` and says what happened. Refusals come back as errors, in the
/// service's words; nothing has changed then.
pub async fn apply(
    service: &Service,
    caller: &Caller,
    command: Command,
) -> Result<Answer, ServiceError> {
    let svc = service;
    let me = &caller.who;
    let here = caller.channel.as_deref();
    let home = caller.home.as_deref();
    Ok(match command {
        Command::Challenge {
            opponent,
            variant,
            side,
            days,
            level,
            rated,
            from,
        } => {
            let terms = Terms {
                variant,
                side,
                days: days.map(|d| d.get()),
                rated,
                from: from.as_deref(),
            };
            if opponent.key == caller.taflbot.key {
                let view = svc
                    .play_bot(me, &caller.taflbot, &terms, level, home)
                    .await?;
                // The front end shows the game, then wakes the bot (`Service::wake_bot`), so
                // that its first move never comes before the game is shown.
                let png = opening(svc, view.id).await;
                return Ok(Answer::Started {
                    view,
                    png,
                    against_bot: true,
                });
            }
            if caller.bots.contains(&opponent.key) {
                return Err(ServiceError::NotAPerson);
            }
            if rated {
                if let Some(new) = [me, &opponent]
                    .into_iter()
                    .find(|p| caller.newcomers.contains(&p.key))
                {
                    return Err(ServiceError::TooNewToRate(new.clone()));
                }
            }
            if level.is_some() {
                return Err(ServiceError::LevelForPeople);
            }
            Answer::Challenged(svc.offer(me, &opponent, &terms, home).await?)
        }
        Command::Accept { challenge } => {
            let view = svc
                .accept_as(me, challenge, None, caller.is_newcomer())
                .await?;
            let png = opening(svc, view.id).await;
            Answer::Started {
                view,
                png,
                against_bot: false,
            }
        }
        Command::Decline { challenge } => Answer::Declined(svc.decline(me, challenge).await?),
        Command::Cancel { challenge } => Answer::Withdrawn(svc.withdraw(me, challenge).await?),
        Command::Move { mv, game } => played(svc.play(me, game, here, &mv).await?),
        Command::EndTurn { game } => played(svc.end_turn(me, game, here).await?),
        Command::Resign { game } => told(svc.resign(me, game, here).await?),
        Command::Abort { game } => told(svc.abort(me, game, here).await?),
        Command::Draw { game } => told(svc.draw(me, game, here).await?),
        Command::AcceptDraw { game } => told(svc.accept_draw(me, game, here).await?),
        Command::DeclineDraw { game } => told(svc.decline_draw(me, game, here).await?),
        Command::Takeback {
            game,
            decline: true,
        } => told(svc.decline_takeback(me, game, here).await?),
        Command::Takeback {
            game,
            decline: false,
        } => match svc.takeback(me, game, here).await? {
            Takeback::Asked(news) => told(news),
            Takeback::TakenBack(p) => played(p),
        },
        Command::AcceptTakeback { game } => played(svc.accept_takeback(me, game, here).await?),
        Command::Board { game, flip } => {
            let (view, png) = svc.board(me, game, here, flip).await?;
            Answer::Board { view, png }
        }
        Command::Games { player } => {
            let whose = player.unwrap_or_else(|| me.clone());
            let list = svc.games(&whose).await?;
            Answer::Games {
                yours: whose.key == me.key,
                whose,
                list,
            }
        }
        Command::Leaderboard { variant, page } => {
            let page = page.unwrap_or(1).clamp(1, i64::from(u32::MAX)) as usize;
            Answer::Leaderboard(svc.leaderboard(variant, page).await?)
        }
        Command::Profile { player } => {
            let whose = player.unwrap_or_else(|| me.clone());
            let profile = svc.profile(&whose).await?;
            let chart = svc.rating_chart(me, &profile).await?;
            Answer::Profile {
                yours: whose.key == me.key,
                profile,
                chart,
            }
        }
        Command::Rules { variant } => Answer::Rules {
            variant,
            png: svc.start_picture(me, variant).await?,
        },
        Command::Variants => Answer::Variants,
        Command::Vacation { set } => {
            let vacation = match set {
                Some(on) => svc.vacation(me, on).await?,
                None => svc.vacation_status(me).await?,
            };
            Answer::Vacation {
                vacation,
                days_a_year: svc.vacation_days(),
            }
        }
        Command::Notify(change) => Answer::Notify(svc.notify(me, &change).await?),
        Command::Moves { from, game } => {
            let (game, moves) = svc
                .legal_moves_from(me, game, here, from.as_deref())
                .await?;
            Answer::Moves { game, from, moves }
        }
        Command::Theme { theme, server } => {
            Answer::Theme(svc.set_theme(me, theme, server, caller.manages).await?)
        }
        Command::Forecast { line, game, clear } => {
            Answer::Forecasts(svc.forecast(me, game, here, line.as_deref(), clear).await?)
        }
        Command::Note { text, game, clear } => {
            Answer::Note(svc.note(me, game, here, text.as_deref(), clear).await?)
        }
        Command::MoreTime { days, game } => told(svc.more_time(me, game, here, days).await?),
        Command::Record { game } => {
            let room = caller.upload_limit.saturating_sub(RECORD_ROOM);
            Answer::Record(svc.export(me, game, here, room).await?)
        }
        Command::Hint { game } => Answer::Hint(svc.hint(me, game, here).await?),
        Command::Review { game } => {
            let review = svc.review(me, game, here).await?;
            let chart = svc.review_chart(me, &review).await?;
            Answer::Review { review, chart }
        }
        Command::Puzzle { variant, number } => Answer::Puzzle(
            svc.puzzle_as(me, variant, number, caller.is_newcomer())
                .await?,
        ),
        Command::Solve { mv } => Answer::Solve(svc.solve(me, &mv).await?),
        Command::DailyPuzzle { on } => {
            Answer::DailyPuzzle(svc.set_daily_puzzle(caller.manages, here, on).await?)
        }
        Command::Import { moves, variant } => {
            let room = caller.upload_limit.saturating_sub(IMPORT_ROOM);
            Answer::Imported(svc.import(me, variant, &moves, room).await?)
        }
        Command::Help { command } => Answer::Help(match command {
            None => Vec::new(),
            Some(name) => match help_specs(&name) {
                specs if specs.is_empty() => return Err(super::unknown_command(&name)),
                specs => specs,
            },
        }),
        Command::Rematch { game } => {
            let game = match game {
                Some(game) => game,
                None => svc.finished_game(me, here).await?,
            };
            rematch(svc, caller, game).await?
        }
        Command::TournamentCreate {
            variant,
            format,
            name,
            days,
            rated,
            rounds,
            players,
        } => {
            let terms = TournamentTerms {
                variant,
                format,
                name: name.as_deref(),
                days: days.map(|d| d.get()),
                rated,
                rounds,
                players,
            };
            let view = svc.create_tournament(me, &terms, home).await?;
            Answer::Tournament {
                view,
                done: TournamentDone::Created,
            }
        }
        Command::TournamentJoin { tournament } => Answer::Tournament {
            view: svc
                .join_tournament_as(me, tournament, caller.is_newcomer())
                .await?,
            done: TournamentDone::Joined,
        },
        Command::TournamentLeave { tournament } => Answer::Tournament {
            view: svc.leave_tournament(me, tournament).await?,
            done: TournamentDone::Left,
        },
        Command::TournamentCancel { tournament } => Answer::Tournament {
            view: svc
                .cancel_tournament(me, tournament, caller.manages)
                .await?,
            done: TournamentDone::Cancelled,
        },
        Command::TeamStart {
            opponent,
            attackers,
            defenders,
            variant,
            side,
            level,
            hours,
            ping,
        } => {
            let against = match (opponent, attackers, defenders) {
                (Some(o), None, None) if o.key == caller.taflbot.key => TeamOpponent::Taflbot {
                    bot: caller.taflbot.clone(),
                    level,
                },
                (None, Some(attackers), Some(defenders)) if level.is_none() => {
                    TeamOpponent::Roles {
                        attackers,
                        defenders,
                    }
                }
                (None, Some(_), Some(_)) => return Err(ServiceError::LevelForPeople),
                _ => return Err(ServiceError::TeamOpponent),
            };
            let terms = TeamTerms {
                variant,
                side,
                hours,
                ping,
            };
            let view = svc
                .start_team_game(&caller.member(), &caller.server, &against, &terms, home)
                .await?;
            let png = opening(svc, view.id).await;
            Answer::TeamStarted { view, png }
        }
        Command::TeamChallenge {
            server,
            variant,
            side,
            hours,
        } => {
            let terms = TeamTerms {
                variant,
                side,
                hours,
                ping: false,
            };
            Answer::TeamChallenged(
                svc.challenge_server(&caller.member(), &server, &terms, home)
                    .await?,
            )
        }
        Command::TeamHome { ping, off } => {
            let kept = svc
                .set_team_home(&caller.member(), home, ping.as_ref(), off)
                .await?;
            Answer::TeamHome {
                ping: ping.filter(|_| kept.is_some()),
                home: kept,
            }
        }
        Command::TeamAnswer { challenge, accept } => Answer::TeamAnswered(
            svc.answer_team_challenge(&caller.member(), challenge, accept)
                .await?,
        ),
        Command::Vote { mv, game } => {
            Answer::Voted(svc.vote(&caller.member(), game, here, &mv).await?)
        }
        Command::TeamPlay { game } => {
            Answer::WindowClosed(svc.close_window_early(&caller.member(), game, here).await?)
        }
        Command::TeamCancel { game } => {
            Answer::TeamCalledOff(svc.call_off_team_game(&caller.member(), game, here).await?)
        }
        Command::TeamList => Answer::TeamGames {
            games: svc.team_games().await?,
            record: false,
        },
        Command::TeamRecord => Answer::TeamGames {
            games: svc.team_games().await?,
            record: true,
        },
        Command::TournamentStart { tournament } => {
            Answer::TournamentStarted(svc.start_tournament(me, tournament, caller.manages).await?)
        }
        Command::TournamentStandings { tournament } => {
            let table = svc.tournament_standings(tournament).await?;
            let png = match svc.crosstable_picture(&table).await {
                Ok(png) => Some(png),
                Err(e) => {
                    tracing::warn!(tournament = table.view.id, error = %e, "no crosstable");
                    None
                }
            };
            Answer::Standings { table, png }
        }
        Command::TournamentList => Answer::Tournaments(svc.tournaments().await?),
    })
}

fn played(p: Played) -> Answer {
    Answer::News {
        view: p.view,
        news: p.news,
        png: Some(p.png),
        forecast: p.forecast,
    }
}

fn told(n: GameNews) -> Answer {
    Answer::News {
        view: n.view,
        news: n.news,
        png: None,
        forecast: Vec::new(),
    }
}

/// The opening board of a game that has just begun; none (and a word in the log) when it cannot
/// be drawn, since the game is stored already and goes on without it.
async fn opening(svc: &Service, game: i64) -> Option<Vec<u8>> {
    match svc.game_picture(game).await {
        Ok(png) => Some(png),
        Err(e) => {
            tracing::warn!(game, error = %e, "no opening picture");
            None
        }
    }
}

/// A rematch of game `game` asked by the caller: offered as a challenge, or begun against taflbot.
async fn rematch(svc: &Service, caller: &Caller, game: i64) -> Result<Answer, ServiceError> {
    let home = caller.home.as_deref();
    Ok(
        match svc
            .rematch(&caller.who, &caller.taflbot, game, home)
            .await?
        {
            Rematch::Offered(challenge) => Answer::Challenged(challenge),
            Rematch::AgainstBot(view) => {
                let png = opening(svc, view.id).await;
                Answer::Started {
                    view: *view,
                    png,
                    against_bot: true,
                }
            }
        },
    )
}

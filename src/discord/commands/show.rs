//! Showing an [`Answer`] on Discord: replies (public or private), posts in the game's thread,
//! buttons, files, and the thread a new game opens. Nothing here decides what a command means;
//! `commands::apply` has done that.

use super::{user_ids, Call, STYLE};
use crate::commands::Answer;
use crate::discord::button::Button;
use crate::discord::post::{self, Reply};
use crate::service::text::{self, Style};
use crate::service::{GameView, News, TeamAnswer, TeamChallenge, TournamentDone, TournamentStatus};
use poise::serenity_prelude::{self as serenity, ChannelId};

/// Shows what a command did.
pub(super) async fn show(c: &Call<'_>, answer: Answer) {
    let who = &c.caller.who;
    match answer {
        Answer::News {
            view,
            news,
            png,
            forecast,
        } if news.posted() => {
            // The move and then each reply forecast: only the last calls on anyone.
            let replied = !forecast.is_empty();
            c.publish(&view, news, png, !replied).await;
            for (i, p) in forecast.iter().enumerate() {
                let calls = i + 1 == forecast.len();
                c.publish_forecast(p, i, calls).await;
            }
            let last = forecast.last().map_or(&view, |p| &p.view);
            c.bot.settle_thread(c.http, last).await;
            if last.outcome.is_some() {
                // A tournament's standings, and its next round, go out at once.
                c.bot.deliver_due(c.http).await;
            }
        }
        Answer::News { view, news, .. } => {
            c.settle(Reply::text(text::news(&news, &view, STYLE))).await
        }
        Answer::Started {
            view,
            png,
            against_bot,
        } => {
            let begun = if against_bot {
                Begun::Bot
            } else {
                Begun::People
            };
            started(c, view, png, begun).await
        }
        Answer::TeamStarted { view, png } => started(c, view, png, Begun::Team).await,
        Answer::Voted(voted) => {
            c.answer(Reply::private(text::voted(&voted, STYLE))).await;
            c.bot.show_votes(c.http, &voted).await;
        }
        Answer::WindowClosed(notice) => {
            c.answer(Reply::private(text::window_closed(notice.game_id)))
                .await;
            // The turn played (or the window opened again) is told in the game's thread.
            c.bot.deliver_due(c.http).await;
        }
        Answer::TeamCalledOff(notice) => {
            c.answer(Reply::private(text::team_called_off(notice.game_id)))
                .await;
            // Each server's thread is told.
            c.bot.deliver_due(c.http).await;
        }
        Answer::TeamChallenged(ch) => team_challenged(c, ch).await,
        Answer::TeamHome { home, ping } => {
            let said = text::team_home(home.as_deref(), ping.as_ref(), STYLE);
            c.answer(Reply::text(said + &c.unnotified_note())).await
        }
        Answer::TeamAnswered(TeamAnswer::Accepted(view)) => {
            let said = text::team_challenge_accepted(&view, &c.caller.who, STYLE);
            c.answer(Reply::text(said)).await;
            // The opening is told in each server's thread, each opened as it is told.
            c.bot.deliver_due(c.http).await;
        }
        Answer::TeamAnswered(TeamAnswer::Declined(ch)) => {
            let said = text::team_challenge_declined(&ch, &c.caller.who, STYLE);
            c.answer(Reply::text(said.clone())).await;
            // The challenging server is told where the challenge was made.
            if let Some(channel) = ch.from_channel.as_deref().and_then(post::parse_id) {
                let nonce = format!("tcno{}", ch.id);
                let told = c
                    .bot
                    .poster
                    .post(c.http, ChannelId::new(channel), &Reply::text(said), &nonce)
                    .await;
                if let Err(e) = told {
                    tracing::warn!(challenge = ch.id, error = %e, "could not tell the challenger's server");
                }
            }
        }
        Answer::TeamGames { games, record } => {
            c.answer(Reply::private(text::team_games(&games, record, STYLE)))
                .await
        }
        Answer::Challenged(ch) => {
            let reply = Reply::text(text::challenge_made(&ch, STYLE))
                .mention(user_ids([&ch.challenged]))
                .button(Button::Accept(ch.id))
                .button(Button::Decline(ch.id));
            c.answer(reply).await
        }
        Answer::Declined(ch) => c.settle(Reply::text(text::declined(who, &ch, STYLE))).await,
        Answer::Withdrawn(ch) => {
            c.answer(Reply::text(text::withdrawn(who, &ch, STYLE)))
                .await
        }
        Answer::Board { view, png } => {
            c.answer(Reply::text(text::status_line(&view, STYLE)).board(png))
                .await
        }
        Answer::Games { whose, yours, list } => {
            let said = text::games(&whose, yours, &list, STYLE);
            c.answer(Reply::private(said)).await
        }
        Answer::Leaderboard(board) => {
            let mut reply = Reply::text(text::leaderboard(&board, STYLE));
            if board.page > 1 {
                reply = reply.button(Button::Page {
                    variant: board.variant,
                    page: board.page - 1,
                    forward: false,
                });
            }
            if board.page < board.pages {
                reply = reply.button(Button::Page {
                    variant: board.variant,
                    page: board.page + 1,
                    forward: true,
                });
            }
            c.settle(reply).await
        }
        Answer::Profile {
            profile,
            chart,
            yours,
        } => {
            let mut reply = Reply::text(text::profile(&profile, STYLE));
            reply.private = !yours;
            if let Some(chart) = chart {
                reply = reply.file("ratings.png", chart);
            }
            c.answer(reply).await
        }
        Answer::Rules { variant, png } => {
            c.answer(Reply::text(text::rules(variant, STYLE)).board(png))
                .await
        }
        Answer::Variants => c.answer(Reply::text(text::variants(STYLE))).await,
        Answer::Record(done) => {
            let id = done.view.id;
            let left_out = done.gif.is_none().then_some(c.caller.upload_limit);
            let mut reply = Reply::text(text::record_of(id, left_out))
                .file(&format!("game-{id}.txt"), done.record.into_bytes());
            // A record that carries the caller's note is theirs alone.
            reply.private = done.private;
            if let Some(gif) = done.gif {
                reply = reply.file(&format!("game-{id}.gif"), gif);
            }
            c.answer(reply).await
        }
        Answer::Imported(game) => {
            let mut said = game.summary;
            if game.gif.is_none() {
                said = format!("{said} {}", text::gif_too_large(c.caller.upload_limit));
            }
            let mut reply = Reply::text(said).file("game.txt", game.record.into_bytes());
            if let Some(gif) = game.gif {
                reply = reply.file("game.gif", gif);
            }
            c.answer(reply.board(game.png)).await
        }
        Answer::Hint(hint) => c.answer(Reply::private(text::hint(&hint, STYLE))).await,
        Answer::Review { review, chart } => {
            let id = review.game.id;
            let mut reply = Reply::text(text::review(&review, STYLE)).file(
                &format!("review-{id}.txt"),
                text::review_file(&review).into_bytes(),
            );
            if let Some(chart) = chart {
                reply = reply.file(&format!("review-{id}.png"), chart);
            }
            c.answer(reply).await
        }
        Answer::Puzzle(shown) => {
            let reply = Reply::private(text::puzzle_shown(&shown, STYLE));
            let name = format!("puzzle-{}.png", shown.puzzle.id);
            c.answer(reply.file(&name, shown.png)).await
        }
        Answer::Solve(step) => {
            let reply = Reply::private(text::solve_step(&step, STYLE));
            let name = format!("puzzle-{}.png", step.puzzle.id);
            c.answer(reply.file(&name, step.png)).await
        }
        Answer::DailyPuzzle(setting) => {
            c.answer(Reply::text(text::daily_setting(&setting, STYLE)))
                .await
        }
        Answer::Vacation {
            vacation,
            days_a_year,
        } => {
            let said = text::vacation(&vacation, days_a_year, STYLE);
            c.answer(Reply::private(said)).await
        }
        Answer::Notify(hours) => c.answer(Reply::private(text::notify(&hours, STYLE))).await,
        Answer::Moves { game, from, moves } => {
            let said = text::moves(game, from.as_deref(), &moves, STYLE);
            c.answer(Reply::private(said)).await
        }
        Answer::Theme(setting) => c.answer(Reply::private(text::theme(&setting, STYLE))).await,
        Answer::Forecasts(list) => {
            c.answer(Reply::private(text::forecasts(&list, STYLE)))
                .await
        }
        Answer::Note(note) => c.answer(Reply::private(text::note(&note, STYLE))).await,
        Answer::Tournament { view, done } => {
            let said = text::tournament_done(who, &view, done, STYLE);
            c.answer(Reply::text(said)).await;
            match done {
                // Its thread opens when it starts: one made and called off leaves none.
                TournamentDone::Cancelled => {
                    c.bot.archive_thread(c.http, view.thread.as_deref()).await
                }
                // Leaving after the start forfeits games and may pair the next round.
                TournamentDone::Left if view.status != TournamentStatus::Open => {
                    c.bot.deliver_due(c.http).await
                }
                _ => {}
            }
        }
        Answer::TournamentStarted(started) => {
            let said = text::tournament_started(&started, STYLE);
            let players = started.tournament.players.iter().map(|e| &e.person);
            c.answer(Reply::text(said).mention(user_ids(players))).await;
            c.bot
                .open_tournament_thread(c.http, &started.tournament)
                .await;
            // The first round's games are announced now, each in a thread of its own.
            c.bot.deliver_due(c.http).await;
        }
        Answer::Standings { table, png } => {
            let mut reply = Reply::text(text::standings(&table, STYLE));
            if let Some(png) = png {
                reply = reply.file("crosstable.png", png);
            }
            c.answer(reply).await
        }
        Answer::Tournaments(list) => {
            c.answer(Reply::private(text::tournaments(&list, STYLE)))
                .await
        }
        Answer::Help(specs) => {
            let code = |usage: &str| STYLE.code(usage);
            let said = match specs.as_slice() {
                [] => super::help_text(),
                [one] => crate::commands::help_for(one, code),
                several => crate::commands::help_list(several, code),
            };
            c.answer(Reply::private(said)).await
        }
    }
}

/// A game has begun: the answer at once, then the game's thread (which can take Discord a
/// while), named in the answer, then the opening board there. Against taflbot, the bot is woken
/// only then, so that its first move never comes before the game is shown.
async fn started(c: &Call<'_>, mut view: GameView, png: Option<Vec<u8>>, begun: Begun) {
    let who = &c.caller.who;
    let said = |view: &GameView| {
        Reply::text(match begun {
            Begun::Bot => text::bot_game_started(who, view, STYLE),
            Begun::People => text::accepted(who, view, STYLE),
            Begun::Team => text::team_started(who, view, STYLE) + &c.unnotified_note(),
        })
    };
    c.settle(said(&view)).await;
    if let Some(thread) = c.bot.open_game_thread(c.http, &view).await {
        view.thread = Some(thread);
        if let Err(e) = c.responder.revise(&said(&view)).await {
            tracing::warn!(game = view.id, error = %e, "could not name the thread in the answer");
        }
    }
    if let Some(opening) = png {
        let reply = news_reply(&News::Started, &view, Some(opening));
        let nonce = format!("start{}", view.id);
        c.bot
            .post_or_keep(c.http, &view, &News::Started, &reply, &nonce)
            .await;
    }
    // taflbot's first move, where it moves first (`wake_bot` looks).
    c.service.wake_bot(&view);
}

/// Shows a challenge to another server in that server's home, with its buttons; where Discord
/// will not take it there, the challenge is withdrawn and its maker told why.
async fn team_challenged(c: &Call<'_>, ch: TeamChallenge) {
    let shown = Reply::text(text::team_challenge_shown(&ch, STYLE))
        .button(Button::TeamAccept(ch.id))
        .button(Button::TeamDecline(ch.id));
    let posted = match post::parse_id(&ch.to_channel) {
        Some(home) => {
            let nonce = format!("tc{}", ch.id);
            c.bot
                .poster
                .post(c.http, ChannelId::new(home), &shown, &nonce)
                .await
        }
        None => Err(serenity::Error::Other("the home is not a Discord channel")),
    };
    match posted {
        Ok(()) => {
            c.answer(Reply::text(text::team_challenge_made(&ch, STYLE)))
                .await
        }
        Err(e) => {
            tracing::warn!(challenge = ch.id, error = %e, "a team challenge could not be shown");
            if let Err(e) = c.service.withdraw_team_challenge(ch.id).await {
                tracing::warn!(challenge = ch.id, error = %e, "could not withdraw a team challenge");
            }
            let said = text::team_challenge_not_shown(&ch, STYLE);
            c.answer(Reply::private(said)).await
        }
    }
}

/// How a game began.
#[derive(Clone, Copy)]
enum Begun {
    /// A challenge accepted.
    People,
    /// Against taflbot.
    Bot,
    /// A team game.
    Team,
}

/// A game's news as a message: the sentence, the board when there is one, the pings and the
/// buttons it calls for.
pub fn news_reply(news: &News, view: &GameView, png: Option<Vec<u8>>) -> Reply {
    let mut reply =
        Reply::text(text::post(news, view, STYLE)).mention(user_ids(news.addressees(view)));
    if let Some(png) = png.filter(|png| !png.is_empty()) {
        reply = reply.board(png);
    }
    match news {
        News::DrawOffered { .. } => reply
            .button(Button::AcceptDraw(view.id))
            .button(Button::DeclineDraw(view.id)),
        News::TakebackAsked { .. } => reply
            .button(Button::AcceptTakeback(view.id))
            .button(Button::DeclineTakeback(view.id)),
        _ if view.open_chain && view.waiting_for.is_some() => {
            reply.button(Button::EndTurn(view.id))
        }
        // The end of a game leads on: a rematch, the sides swapped.
        _ if view.outcome.is_some() && news.posted() => reply
            .button(Button::Review(view.id))
            .button(Button::Rematch(view.id)),
        _ => reply,
    }
}

impl Call<'_> {
    /// A sentence after an answer that names roles to ping which are not mentionable: that
    /// Discord will notify nobody of them, and how a manager changes it. Empty where none is.
    fn unnotified_note(&self) -> String {
        if self.unnotified.is_empty() {
            return String::new();
        }
        let names: Vec<String> = self
            .unnotified
            .iter()
            .map(|n| format!("@{}", crate::discord::style::escape(n)))
            .collect();
        let (roles, them) = if names.len() == 1 {
            ("the role is", "it")
        } else {
            ("the roles are", "each")
        };
        format!(
            " Discord will notify nobody when taflbot pings {}, as {roles} not mentionable. A manager can turn on \"Allow anyone to @mention this role\" for {them} in the server's settings, under Roles.",
            names.join(" and ")
        )
    }

    /// Sends an answer, logging a failure (the retries are over by then; the user sees Discord's
    /// own "did not respond").
    pub(super) async fn answer(&self, reply: Reply) {
        if let Err(e) = self.responder.send(&reply).await {
            tracing::warn!(error = %e, "could not answer an interaction");
        }
    }

    /// Answers a command with a message, or a pressed button by replacing its message.
    async fn settle(&self, reply: Reply) {
        if let Err(e) = self.responder.settle(&reply, self.pressed).await {
            tracing::warn!(error = %e, "could not answer an interaction");
        }
    }

    /// The nonce of a post made for this interaction: the same on every retry, unique to it.
    fn nonce(&self) -> String {
        format!("i{}", self.responder.interaction().get())
    }

    /// Shows a game's news: as the answer when the command was used in the game's thread,
    /// otherwise in the thread with a private note as the answer. A post that cannot be made now
    /// is left with the service and delivered later; the game itself is already stored.
    /// `calls`: whether the post pings and direct-messages whom the news calls on (not when a
    /// forecast has answered at once).
    async fn publish(&self, view: &GameView, news: News, png: Option<Vec<u8>>, calls: bool) {
        let mut reply = news_reply(&news, view, png);
        if !calls {
            // Answered at once by a forecast: the next post calls on whoever moves then.
            reply.text = text::news(&news, view, STYLE);
            reply.mention.clear();
        }
        if view.place().is_some() && view.place() == self.caller.channel.as_deref() {
            match self.responder.send(&reply).await {
                Ok(()) => {
                    if calls {
                        self.bot.direct_messages(self.http, view, &news).await;
                    }
                    return;
                }
                Err(e) => {
                    tracing::warn!(game = view.id, error = %e, "the answer failed; posting instead")
                }
            }
        } else {
            let note = text::posted_elsewhere(view, STYLE);
            self.answer(Reply::private(note)).await;
        }
        let nonce = self.nonce();
        self.bot
            .post_or_keep(self.http, view, &news, &reply, &nonce)
            .await;
        if calls {
            self.bot.direct_messages(self.http, view, &news).await;
        }
    }

    /// Posts the `i`th reply played from a forecast after the answered move, in the game's
    /// thread.
    async fn publish_forecast(&self, p: &crate::service::Played, i: usize, calls: bool) {
        let mut reply = news_reply(&p.news, &p.view, Some(p.png.clone()));
        if !calls {
            reply.mention.clear();
        }
        let nonce = format!("{}f{i}", self.nonce());
        self.bot
            .post_or_keep(self.http, &p.view, &p.news, &reply, &nonce)
            .await;
        if calls {
            self.bot.direct_messages(self.http, &p.view, &p.news).await;
        }
    }
}

//! What the bot posts of its own accord: a game's news (at once, or kept and delivered by the
//! sweeper), a game's or a tournament's thread, the daily puzzle, and the direct messages a
//! player asked for. What a notice says is decided by the service ([`Service::notice_shown`]).

use poise::serenity_prelude as serenity;
use serenity::Http;

use super::post::{self, Poster, Reply, Retry};
use super::{button, commands, style, Inflight};
use crate::service::shown::{KeptGameNews, Shown, TournamentNews};
use crate::service::{text, Delivery, News, Notice, Service, ServiceError};

/// What every command and button shares.
pub struct Bot {
    pub service: Service,
    /// taflbot itself, as its games name it.
    pub user: crate::service::Person,
    pub poster: Poster,
    pub answers: Retry,
    pub inflight: Inflight,
}

impl Bot {
    /// Posts a game's news in its thread; when Discord cannot take it now, the news is kept as a
    /// notice that the sweeper delivers later. The game itself is stored already.
    pub async fn post_or_keep(
        &self,
        http: &Http,
        view: &crate::service::GameView,
        news: &News,
        reply: &Reply,
        nonce: &str,
    ) {
        if let Err(e) = self
            .poster
            .post_to_game(http, &self.service, view, reply, nonce)
            .await
        {
            tracing::error!(game = view.id, error = %e, "could not post in the game's thread; kept for later");
            if let Err(e) = self.service.leave_notice(view.id, news).await {
                tracing::error!(game = view.id, error = %e, "could not keep the post for later");
            }
        }
    }

    /// Shows in a team game's thread how many have voted in the window open now: one post per
    /// window, edited as votes come (never which turns they are for). The post is edited until
    /// it shows the count as it stands after the edit, so that of two voters whose edits cross,
    /// the one who looks last puts the right count back.
    pub async fn show_votes(&self, http: &Http, voted: &crate::service::Voted) {
        let Some(place) = voted.place.as_deref().and_then(post::parse_id) else {
            return;
        };
        if !voted.count_to_show() {
            return;
        }
        let place = serenity::ChannelId::new(place);
        let said =
            |votes| text::votes_so_far(voted.game, votes, voted.closes_at, &style::DiscordStyle);
        let mut shown = None;
        if voted.count_post.is_none() {
            let message = serenity::CreateMessage::new()
                .content(said(voted.votes))
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            match place.send_message(http, message).await {
                Ok(posted) => match self
                    .service
                    .keep_count_post(voted, &posted.id.to_string())
                    .await
                {
                    Ok(true) => shown = Some(voted.votes),
                    // Another process showed this window's count first: one post is enough.
                    Ok(false) => {
                        let _ = posted.delete(http).await;
                    }
                    Err(e) => {
                        tracing::warn!(game = voted.game, error = %e, "could not keep the post of the count");
                        return;
                    }
                },
                Err(e) => {
                    tracing::warn!(game = voted.game, error = %e, "could not show the count of votes");
                    return;
                }
            }
        }
        for _ in 0..4 {
            let (votes, kept) = match self.service.count_now(voted).await {
                Ok(now) => now,
                Err(e) => {
                    tracing::warn!(game = voted.game, error = %e, "could not count the votes");
                    return;
                }
            };
            let Some(message) = kept.as_deref().and_then(post::parse_id) else {
                return;
            };
            if shown == Some(votes) {
                return;
            }
            let edit = serenity::EditMessage::new().content(said(votes));
            if let Err(e) = place
                .edit_message(http, serenity::MessageId::new(message), edit)
                .await
            {
                tracing::info!(game = voted.game, error = %e, "the count of votes could not be edited");
                return;
            }
            shown = Some(votes);
        }
    }

    /// Posts a server's daily puzzle in its channel, with the button that opens it; false when
    /// Discord would not take it.
    pub async fn post_daily_puzzle(
        &self,
        http: &Http,
        daily: &crate::service::DailyPuzzle,
    ) -> bool {
        let Some(channel) = post::parse_id(&daily.channel).map(serenity::ChannelId::new) else {
            tracing::warn!(guild = %daily.guild, "the daily puzzle's channel is not a Discord id");
            return false;
        };
        let reply = post::Reply::text(crate::service::text::daily_puzzle(
            daily,
            &style::DiscordStyle,
        ))
        .file(
            &format!("puzzle-{}.png", daily.puzzle.id),
            daily.png.clone(),
        )
        .button(button::Button::Puzzle(daily.puzzle.id));
        // Discord holds a nonce unique per author (the bot), not per channel: the day and the
        // server, in hex to fit its 25 characters.
        let guild: u64 = daily.guild.parse().unwrap_or_default();
        let nonce = format!("p{:x}g{guild:x}", daily.day);
        match self.poster.post(http, channel, &reply, &nonce).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(guild = %daily.guild, error = %e, "the daily puzzle was not posted");
                false
            }
        }
    }

    /// Opens a game's thread in its channel and stores it; none where Discord refuses.
    pub async fn open_game_thread(
        &self,
        http: &Http,
        view: &crate::service::GameView,
    ) -> Option<String> {
        let channel = view.channel.as_deref().and_then(post::parse_id)?;
        let thread = self
            .poster
            .open_thread(
                http,
                serenity::ChannelId::new(channel),
                &text::thread_name(view),
            )
            .await?
            .to_string();
        match self.service.set_thread_of(view, Some(&thread)).await {
            Ok(()) => Some(thread),
            Err(e) => {
                tracing::warn!(game = view.id, error = %e, "could not store the thread");
                None
            }
        }
    }

    /// Archives a game's thread once the game is over or called off, after its last post: the
    /// server's active threads are few (1,000), and a finished game's thread would hold one for
    /// Discord's week of quiet (one player resigning game after game against taflbot filled
    /// them all). A later post there (a review, a rematch's challenge) reopens it, as any post
    /// does.
    pub async fn settle_thread(&self, http: &Http, view: &crate::service::GameView) {
        if view.aborted || view.outcome.is_some() {
            self.archive_thread(http, view.thread.as_deref()).await;
        }
    }

    /// Archives a thread: a game's that is over, or a tournament's called off.
    pub async fn archive_thread(&self, http: &Http, thread: Option<&str>) {
        if let Some(thread) = thread.and_then(post::parse_id) {
            self.poster
                .archive(http, serenity::ChannelId::new(thread))
                .await;
        }
    }

    /// Opens a tournament's thread in its channel, where its news and crosstables are posted.
    pub async fn open_tournament_thread(&self, http: &Http, view: &crate::service::TournamentView) {
        let Some(channel) = view.channel.as_deref().and_then(post::parse_id) else {
            return;
        };
        let name = format!("Tournament #{} {}", view.id, view.name);
        let Some(thread) = self
            .poster
            .open_thread(http, serenity::ChannelId::new(channel), &name)
            .await
        else {
            return;
        };
        if let Err(e) = self
            .service
            .set_tournament_thread(view.id, Some(&thread.to_string()))
            .await
        {
            tracing::warn!(tournament = view.id, error = %e, "could not store the thread");
        }
    }

    /// Delivers the notices due now, claimed as the sweeper claims them: the games a command
    /// began, or a round it paired, are announced at once rather than at the next sweep.
    /// Each batch is small, so that its claim never runs out while its games' threads are being
    /// opened; the sweeper delivers whatever is left.
    pub async fn deliver_due(&self, http: &Http) {
        const BATCH: i64 = 5;
        const BATCHES: usize = 20;
        for _ in 0..BATCHES {
            let claimed = match self.service.claim_notices_up_to(BATCH).await {
                Ok(claimed) => claimed,
                Err(e) => {
                    tracing::warn!(error = %e, "could not claim notices; the sweeper will");
                    return;
                }
            };
            let full = claimed.len() as i64 == BATCH;
            for notice in claimed {
                let id = notice.id;
                let how = self.deliver(http, notice).await;
                if let Err(e) = self.service.tried(id, how).await {
                    tracing::warn!(notice = id, error = %e, "could not record a delivery");
                }
            }
            if !full {
                return;
            }
        }
    }

    /// Delivers a notice where its game is played, as the service made it ready to show:
    /// delivered, to be tried again, or given up (its game cannot be shown, or Discord refuses
    /// for good: the bot was removed, the channel is gone). A tournament's news goes to the
    /// tournament's thread; a game begun by a tournament gets its own thread first.
    pub async fn deliver(&self, http: &Http, notice: Notice) -> Delivery {
        match self.service.notice_shown(&notice).await {
            Ok(Shown::Game(news)) => self.deliver_game(http, notice.id, *news).await,
            Ok(Shown::Tournament(news)) => self.deliver_tournament(http, notice.id, *news).await,
            Err(ServiceError::Database(e)) => {
                tracing::warn!(notice = notice.id, error = %e, "notice not delivered yet");
                Delivery::Retry
            }
            Err(e) => {
                tracing::warn!(notice = notice.id, error = %e, "the notice cannot be shown; given up");
                Delivery::GiveUp
            }
        }
    }

    /// Posts a game's news in its thread, and in a game between two servers in each server's
    /// thread as that server sees it. Tried again where either place asks for it.
    async fn deliver_game(&self, http: &Http, notice: i64, shown: KeptGameNews) -> Delivery {
        let Some(first) = shown.view.first_side() else {
            return self.deliver_game_in(http, notice, shown, "").await;
        };
        let mut done = Vec::new();
        for (side, place) in [(first, ""), (first.other(), "s")] {
            if let Some(seen) = shown.seen_by(side) {
                done.push(self.deliver_game_in(http, notice, seen, place).await);
            }
        }
        if done.contains(&Delivery::Retry) {
            Delivery::Retry
        } else if done.contains(&Delivery::Delivered) || done.is_empty() {
            Delivery::Delivered
        } else {
            Delivery::GiveUp
        }
    }

    /// Posts a game's news in its thread (opened first where it has none), then the direct
    /// messages it brings. `place` tells the posts of one notice in two places apart.
    async fn deliver_game_in(
        &self,
        http: &Http,
        notice: i64,
        mut shown: KeptGameNews,
        place: &str,
    ) -> Delivery {
        if shown.wants_thread() {
            shown.view.thread = self.open_game_thread(http, &shown.view).await;
        }
        let mut reply = commands::news_reply(&shown.news, &shown.view, shown.board.take());
        if let News::Reminder { to } = &shown.news {
            // A team's window about to close pings its role, where the server chose so.
            if to.is_team() {
                match self.service.role_to_remind(shown.view.id).await {
                    Ok(Some(role)) => {
                        if let Some(role) = post::parse_id(&role) {
                            reply = reply.ping_role(serenity::RoleId::new(role));
                        }
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!(notice, error = %e, "no role to remind"),
                }
            }
        }
        let nonce = format!("n{notice}{place}");
        let view = &shown.view;
        match self
            .poster
            .post_to_game(http, &self.service, view, &reply, &nonce)
            .await
        {
            Ok(_) => {
                self.direct_messages(http, view, &shown.news).await;
                if matches!(shown.news, News::Voted { .. }) {
                    // A team's turn is shown: taflbot may answer it now.
                    self.service.wake_bot(view);
                }
                self.settle_thread(http, view).await;
                Delivery::Delivered
            }
            Err(e) => failed(notice, &e),
        }
    }

    /// Posts a tournament's news in its thread: the standings, the crosstable, and the winner
    /// at the end.
    async fn deliver_tournament(
        &self,
        http: &Http,
        notice: i64,
        shown: TournamentNews,
    ) -> Delivery {
        let mut reply = Reply::text(shown.text(&style::DiscordStyle)).mention(
            shown
                .pinged()
                .and_then(|w| post::parse_id(&w.key))
                .map(serenity::UserId::new),
        );
        if let Some(png) = shown.crosstable {
            reply = reply.file("crosstable.png", png);
        }
        let view = &shown.table.view;
        let place = |id: &Option<String>| {
            id.as_deref()
                .and_then(post::parse_id)
                .map(serenity::ChannelId::new)
        };
        let nonce = format!("n{notice}");
        match self
            .poster
            .post_in(
                http,
                (place(&view.thread), place(&view.channel)),
                &reply,
                &nonce,
                || async {
                    if let Err(e) = self.service.set_tournament_thread(view.id, None).await {
                        tracing::warn!(tournament = view.id, error = %e, "could not forget the thread");
                    }
                },
            )
            .await
        {
            Ok(()) => Delivery::Delivered,
            // A tournament with no channel to post in (made outside Discord) never will have one.
            Err(serenity::Error::Other(_)) => Delivery::GiveUp,
            Err(e) => failed(notice, &e),
        }
    }
}

/// What a failed post of a notice means: given up when Discord refuses it for good (the bot was
/// removed, the channel is gone), otherwise tried again later.
fn failed(notice: i64, e: &serenity::Error) -> Delivery {
    if post::refusal(e).is_some_and(|(status, _)| matches!(status, 403 | 404)) {
        tracing::warn!(notice, error = %e, "Discord refuses the notice for good; given up");
        Delivery::GiveUp
    } else {
        tracing::warn!(notice, error = %e, "notice not delivered yet");
        Delivery::Retry
    }
}

impl Bot {
    /// Tells the players who asked for direct messages of the turn or reminder this news brings
    /// them. A player whose direct messages are closed is told so in the game's thread, once:
    /// their direct messages are switched off.
    pub async fn direct_messages(&self, http: &Http, view: &crate::service::GameView, news: &News) {
        let style = &style::DiscordStyle;
        for to in &view.players {
            let Some(said) = text::direct_message(news, view, to, style) else {
                continue;
            };
            let Some(user) = post::parse_id(&to.key).map(serenity::UserId::new) else {
                continue;
            };
            if view.is_quiet(to) {
                // Neither pinged nor sent a message now: told when their quiet hours end.
                let reminder = matches!(news, News::Reminder { .. });
                if let Err(e) = self.service.hold(to, view.id, reminder).await {
                    tracing::warn!(game = view.id, error = %e, "could not keep what quiet hours held");
                }
                continue;
            }
            match self.service.wants_direct_messages(to).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read a player's settings");
                    continue;
                }
            }
            // Nobody but the addressee may be pinged, whatever the text holds.
            let sent = send_dm(http, user, said, [user]).await;
            let Err(e) = sent else {
                continue;
            };
            // 50007: the user takes no direct messages from the bot.
            if post::refusal(&e).is_some_and(|(status, code)| status == 403 || code == 50007) {
                if let Err(e) = self.service.set_direct_messages(to, false).await {
                    tracing::warn!(error = %e, "could not switch direct messages off");
                }
                let note = Reply::text(text::direct_messages_closed(to, style))
                    .mention(post::parse_id(&to.key).map(serenity::UserId::new));
                let nonce = format!("dm{}-{}", view.id, view.turns);
                if let Err(e) = self
                    .poster
                    .post_to_game(http, &self.service, view, &note, &nonce)
                    .await
                {
                    tracing::warn!(game = view.id, error = %e, "could not say that DMs are closed");
                }
            } else {
                tracing::warn!(game = view.id, error = %e, "a direct message failed");
            }
        }
    }
}

impl Bot {
    /// Sends the daily digests due and what quiet hours held from those whose hours are over,
    /// each by direct message (claimed first, so one process sends it).
    pub async fn send_letters(&self, http: &Http) {
        let style = &style::DiscordStyle;
        let digests = match self.service.due_digests().await {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(error = %e, "digests not claimed; trying again later");
                Vec::new()
            }
        };
        let held = match self.service.quiet_ended().await {
            Ok(h) => h,
            Err(e) => {
                tracing::warn!(error = %e, "held news not claimed; trying again later");
                Vec::new()
            }
        };
        let letters = digests
            .iter()
            .map(|d| (&d.to, text::digest(d, style)))
            .chain(held.iter().map(|h| (&h.to, text::held(h, style))));
        for (to, said) in letters {
            let Some(user) = post::parse_id(&to.key).map(serenity::UserId::new) else {
                continue;
            };
            if let Err(e) = send_dm(http, user, said, []).await {
                tracing::warn!(error = %e, "a letter could not be sent");
            }
        }
    }
}

/// Sends `user` a direct message `said`, which may ping only `pinged`.
async fn send_dm(
    http: &Http,
    user: serenity::UserId,
    said: String,
    pinged: impl IntoIterator<Item = serenity::UserId>,
) -> Result<(), serenity::Error> {
    let channel = user.create_dm_channel(http).await?;
    let message = serenity::CreateMessage::new()
        .content(said)
        .allowed_mentions(serenity::CreateAllowedMentions::new().users(pinged));
    channel.id.send_message(http, message).await.map(|_| ())
}

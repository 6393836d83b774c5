//! Talking to Discord without losing or repeating anything: answers to interactions, and posts in
//! a game's thread. Failed calls (5xx, 429, no answer in time, a dropped connection) are retried
//! with backoff. A repeated answer to an interaction is refused by Discord as "already
//! acknowledged", and a repeated channel post carries the same enforced nonce, so a retry of a call
//! that did in fact arrive never shows twice.

use std::future::Future;
use std::time::Duration;

use ::serenity::builder::Builder;
use poise::serenity_prelude as serenity;
use serenity::{
    AutoArchiveDuration, ChannelId, ChannelType, CreateAllowedMentions, CreateForumPost,
    CreateInteractionResponse, CreateInteractionResponseMessage, CreateMessage, CreateThread,
    EditThread, Http, InteractionId,
};

pub use super::reply::Reply;
use crate::service::{GameView, Service};

/// How often and how patiently a call is tried.
#[derive(Clone, Debug)]
pub struct Retry {
    /// Tries in all, the first included.
    pub attempts: u32,
    /// The wait after the first failure; it doubles after each further one, up to `max_wait`.
    pub first_wait: Duration,
    pub max_wait: Duration,
    /// How long one try may take.
    pub timeout: Duration,
}

impl Retry {
    /// For answers to interactions, which Discord accepts only within 3 seconds.
    pub fn answers() -> Retry {
        Retry {
            attempts: 4,
            first_wait: Duration::from_millis(150),
            max_wait: Duration::from_millis(600),
            timeout: Duration::from_millis(1500),
        }
    }

    /// For posts in channels and threads.
    pub fn posts() -> Retry {
        Retry {
            attempts: 6,
            first_wait: Duration::from_millis(500),
            max_wait: Duration::from_secs(8),
            timeout: Duration::from_secs(10),
        }
    }
}

/// Discord's error codes that the bot acts on.
pub mod code {
    pub const UNKNOWN_CHANNEL: isize = 10003;
    pub const UNKNOWN_INTERACTION: isize = 10062;
    pub const MISSING_ACCESS: isize = 50001;
    pub const MISSING_PERMISSIONS: isize = 50013;
    pub const ALREADY_ACKNOWLEDGED: isize = 40060;
    pub const THREAD_ARCHIVED: isize = 50083;
}

/// The HTTP status and Discord error code of a refused call.
pub fn refusal(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// Whether trying again may help: Discord failed or asked us to slow down, or did not answer.
fn transient(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            let status = r.status_code.as_u16();
            status == 429 || status >= 500
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) => true,
        serenity::Error::Other(TIMED_OUT) => true,
        _ => false,
    }
}

const TIMED_OUT: &str = "Discord did not answer in time";

/// Calls `call` until it succeeds, fails for good, or the tries are used up.
pub async fn retrying<T, F, Fut>(policy: &Retry, what: &str, mut call: F) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let mut wait = policy.first_wait;
    let mut attempt = 1;
    loop {
        let error = match tokio::time::timeout(policy.timeout, call()).await {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(e)) => e,
            Err(_) => serenity::Error::Other(TIMED_OUT),
        };
        if attempt >= policy.attempts || !transient(&error) {
            return Err(error);
        }
        tracing::warn!(%what, attempt, error = %error, "Discord call failed; trying again");
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(policy.max_wait);
        attempt += 1;
    }
}

/// Answers one interaction: first the response (or a deferral), then follow-ups. It is shared by
/// the command at work and the timer that defers the answer when the work runs long, so its state
/// sits behind a lock that each call holds until Discord has answered.
pub struct Responder<'a> {
    http: &'a Http,
    id: InteractionId,
    token: &'a str,
    retry: &'a Retry,
    state: tokio::sync::Mutex<Answered>,
    /// Every answer is private: the user may not post where they asked, and taflbot speaks
    /// there only through their own install, which Discord holds to their permissions.
    only_private: bool,
}

/// What has been sent for the interaction so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answered {
    Not,
    /// Deferred with a "thinking" note, public or private, that the answer replaces.
    DeferredMessage {
        private: bool,
    },
    /// A pressed button's message, deferred: an update edits it, a message follows it.
    DeferredUpdate,
    Done,
}

impl<'a> Responder<'a> {
    pub fn new(http: &'a Http, id: InteractionId, token: &'a str, retry: &'a Retry) -> Self {
        Responder {
            http,
            id,
            token,
            retry,
            state: tokio::sync::Mutex::new(Answered::Not),
            only_private: false,
        }
    }

    /// Makes every answer private (and the "thinking" note of a deferral too).
    pub fn only_private(&mut self) {
        self.only_private = true;
    }

    /// Sends the interaction's response, retrying; an "already acknowledged" refusal means an
    /// earlier try arrived.
    async fn respond(&self, response: CreateInteractionResponse) -> serenity::Result<()> {
        let (http, id, token) = (self.http, self.id, self.token);
        let bare = without_attachments(&response)?;
        let result = retrying(self.retry, "interaction response", || {
            let (response, bare) = (response.clone(), bare.clone());
            async move {
                match bare {
                    Some(body) => {
                        http.create_interaction_response(id, token, &body, Vec::new())
                            .await
                    }
                    None => response.execute(http, (id, token)).await,
                }
            }
        })
        .await;
        match result {
            Ok(()) => Ok(()),
            Err(e) if refusal(&e).is_some_and(|(_, c)| c == code::ALREADY_ACKNOWLEDGED) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Tells Discord an answer is coming (the work may take longer than its 3 seconds): for a
    /// pressed button whose message the answer replaces, a deferred update; otherwise a public
    /// "thinking" note.
    pub async fn defer(&self, update: bool) -> serenity::Result<()> {
        let mut state = self.state.lock().await;
        if *state != Answered::Not {
            return Ok(());
        }
        if update {
            self.respond(CreateInteractionResponse::Acknowledge).await?;
            *state = Answered::DeferredUpdate;
        } else {
            let private = self.only_private;
            self.respond(CreateInteractionResponse::Defer(
                CreateInteractionResponseMessage::new().ephemeral(private),
            ))
            .await?;
            *state = Answered::DeferredMessage { private };
        }
        Ok(())
    }

    async fn edit_original(&self, reply: &Reply) -> serenity::Result<()> {
        let (http, token) = (self.http, self.token);
        retrying(self.retry, "deferred answer", || {
            let edit = reply.as_edit();
            async move { edit.execute(http, token).await.map(|_| ()) }
        })
        .await
    }

    async fn follow_up(&self, reply: &Reply) -> serenity::Result<()> {
        let (http, token) = (self.http, self.token);
        retrying(self.retry, "follow-up", || {
            let followup = reply.as_followup();
            async move { followup.execute(http, (None, token)).await.map(|_| ()) }
        })
        .await
    }

    /// Sends a message: the response, the answer to a deferral, or a follow-up. An answer to a
    /// deferral is edited into the "thinking" note, except where that would lose something: a
    /// private answer after a public deferral (a refusal found late), which nobody else may see,
    /// and an answer that pings (the call to move), since an edit notifies nobody. Those take the
    /// note away and come as a new follow-up message.
    pub async fn send(&self, reply: &Reply) -> serenity::Result<()> {
        let private;
        let reply = if self.only_private && !reply.private {
            private = Reply {
                private: true,
                ..reply.clone()
            };
            &private
        } else {
            reply
        };
        let mut state = self.state.lock().await;
        match *state {
            Answered::Not => {
                self.respond(CreateInteractionResponse::Message(reply.as_response()))
                    .await?
            }
            Answered::DeferredMessage { private } if private == reply.private && !reply.pings() => {
                self.edit_original(reply).await?
            }
            Answered::DeferredMessage { .. } => {
                let (http, token) = (self.http, self.token);
                let deleted = retrying(self.retry, "withdraw the deferral", || async move {
                    http.delete_original_interaction_response(token).await
                })
                .await;
                if let Err(e) = deleted {
                    tracing::warn!(error = %e, "could not take a deferral's note away");
                }
                self.follow_up(reply).await?
            }
            Answered::DeferredUpdate | Answered::Done => self.follow_up(reply).await?,
        }
        *state = Answered::Done;
        Ok(())
    }

    /// Replaces the message the pressed button belongs to (or edits it, once deferred).
    pub async fn update(&self, reply: &Reply) -> serenity::Result<()> {
        let mut state = self.state.lock().await;
        match *state {
            Answered::Not => {
                self.respond(CreateInteractionResponse::UpdateMessage(
                    reply.as_response(),
                ))
                .await?
            }
            Answered::DeferredUpdate => self.edit_original(reply).await?,
            _ => {
                drop(state);
                return self.send(reply).await;
            }
        }
        *state = Answered::Done;
        Ok(())
    }

    /// Changes the answer already given (the response, or the message a pressed button updated).
    pub async fn revise(&self, reply: &Reply) -> serenity::Result<()> {
        let _state = self.state.lock().await;
        self.edit_original(reply).await
    }

    /// Answers a command with a message, or a button press by replacing its message.
    pub async fn settle(&self, reply: &Reply, pressed: bool) -> serenity::Result<()> {
        if pressed {
            self.update(reply).await
        } else {
            self.send(reply).await
        }
    }

    pub fn interaction(&self) -> InteractionId {
        self.id
    }
}

/// The body of a response that carries no files, without the empty `attachments` list serenity
/// writes into every one: on an update (type 7) that list means "keep none of the message's
/// files". `None` for a response with files, which goes through serenity's builder.
fn without_attachments(
    response: &CreateInteractionResponse,
) -> Result<Option<serde_json::Value>, serde_json::Error> {
    let mut body = serde_json::to_value(response)?;
    let Some(data) = body.get_mut("data").and_then(|d| d.as_object_mut()) else {
        return Ok(Some(body));
    };
    match data.get("attachments") {
        Some(serde_json::Value::Array(files)) if !files.is_empty() => Ok(None),
        _ => {
            data.remove("attachments");
            Ok(Some(body))
        }
    }
}

/// Posts in games' threads and channels.
#[derive(Clone)]
pub struct Poster {
    pub retry: Retry,
}

impl Poster {
    /// Posts in a channel, retrying under one nonce.
    pub async fn post(
        &self,
        http: &Http,
        channel: ChannelId,
        reply: &Reply,
        nonce: &str,
    ) -> serenity::Result<()> {
        retrying(&self.retry, "post", || {
            let message = reply.as_message(nonce);
            async move { channel.send_message(http, message).await.map(|_| ()) }
        })
        .await
    }

    /// Posts in the game's thread. An archived thread is reopened; a thread that cannot be
    /// reopened or is gone gives way to the game's channel (and a deleted one is forgotten).
    pub async fn post_to_game(
        &self,
        http: &Http,
        service: &Service,
        game: &GameView,
        reply: &Reply,
        nonce: &str,
    ) -> serenity::Result<()> {
        let place = |id: &Option<String>| id.as_deref().and_then(parse_id).map(ChannelId::new);
        let forget = || async move {
            if let Err(e) = service.set_thread_of(game, None).await {
                tracing::warn!(game = game.id, error = %e, "could not forget the game's thread");
            }
        };
        self.post_in(
            http,
            (place(&game.thread), place(&game.channel)),
            reply,
            nonce,
            forget,
        )
        .await
    }

    /// Posts in a thread, reopening it when it is archived; where it cannot be reopened or is
    /// gone, in its channel instead (`forget` is called first when the thread is gone for good).
    pub async fn post_in<F, Fut>(
        &self,
        http: &Http,
        (thread, channel): (Option<ChannelId>, Option<ChannelId>),
        reply: &Reply,
        nonce: &str,
        forget: F,
    ) -> serenity::Result<()>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = ()>,
    {
        let Some(thread) = thread else {
            let channel = channel.ok_or(serenity::Error::Other("no channel to post in"))?;
            return self.post(http, channel, reply, nonce).await;
        };
        let error = match self.post(http, thread, reply, nonce).await {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let refused = refusal(&error).map(|(_, c)| c);
        if refused == Some(code::THREAD_ARCHIVED) {
            let reopened = retrying(&self.retry, "reopen thread", || async move {
                thread
                    .edit_thread(http, EditThread::new().archived(false))
                    .await
            })
            .await;
            match reopened {
                Ok(_) => return self.post(http, thread, reply, nonce).await,
                Err(e) => tracing::warn!(error = %e, "could not reopen a thread"),
            }
        } else if !matches!(
            refused,
            Some(code::UNKNOWN_CHANNEL | code::MISSING_ACCESS | code::MISSING_PERMISSIONS)
        ) {
            return Err(error);
        }
        if refused == Some(code::UNKNOWN_CHANNEL) {
            forget().await;
        }
        let channel = channel.ok_or(error)?;
        self.post(http, channel, reply, nonce).await
    }

    /// Opens a public thread named `name` in `channel`; none where Discord refuses (no
    /// permission, or the server's limit of active threads reached). In a forum (or media)
    /// channel, where a thread is a post and needs a first message, the post is made with the
    /// name as its message.
    pub async fn open_thread(
        &self,
        http: &Http,
        channel: ChannelId,
        name: &str,
    ) -> Option<ChannelId> {
        let name: String = name.chars().take(100).collect();
        let made = retrying(&self.retry, "create thread", || {
            let builder = CreateThread::new(name.clone())
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(AutoArchiveDuration::OneWeek);
            async move { channel.create_thread(http, builder).await }
        })
        .await;
        let error = match made {
            Ok(thread) => return Some(thread.id),
            Err(e) => e,
        };
        // A forum refuses a thread without a message as a malformed request: ask what the
        // channel is only then, so that the usual case costs one call.
        if refusal(&error).is_some_and(|(status, _)| status == 400)
            && self.is_forum(http, channel).await
        {
            let post = retrying(&self.retry, "create forum post", || {
                let message = CreateMessage::new()
                    .content(super::style::escape_up_to(&name, 100))
                    .allowed_mentions(CreateAllowedMentions::new());
                let builder = CreateForumPost::new(name.clone(), message)
                    .auto_archive_duration(AutoArchiveDuration::OneWeek);
                async move { channel.create_forum_post(http, builder).await }
            })
            .await;
            match post {
                Ok(thread) => return Some(thread.id),
                Err(e) => tracing::info!(error = %e, "no forum post; posts go to the forum"),
            }
            return None;
        }
        tracing::info!(error = %error, "no thread; posts go to the channel");
        None
    }

    /// Archives a thread whose business is over before it began (a game aborted, a tournament
    /// called off), so that it no longer counts among the server's active threads. Discord
    /// reopens it if anyone posts there.
    pub async fn archive(&self, http: &Http, thread: ChannelId) {
        let done = retrying(&self.retry, "archive thread", || {
            thread.edit_thread(http, EditThread::new().archived(true))
        })
        .await;
        if let Err(e) = done {
            tracing::info!(error = %e, "could not archive a thread");
        }
    }

    /// Whether `channel` is a forum or media channel, where threads are posts.
    async fn is_forum(&self, http: &Http, channel: ChannelId) -> bool {
        match retrying(&self.retry, "get channel", || channel.to_channel(http)).await {
            Ok(serenity::Channel::Guild(c)) => {
                // A media channel (16) is a forum of pictures; serenity 0.12 has no name for it.
                matches!(c.kind, ChannelType::Forum | ChannelType::Unknown(16))
            }
            _ => false,
        }
    }
}

/// A Discord id (snowflake) from its text.
pub fn parse_id(text: &str) -> Option<u64> {
    text.parse::<u64>().ok().filter(|&id| id != 0)
}

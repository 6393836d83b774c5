//! Challenges: made by mention with Accept and Decline buttons, answered by button or command. An
//! accepted challenge opens a thread for the game and posts the opening board there.

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, ChannelType, CreateThread};

use super::{news_reply, user_ids, Call, STYLE};
use crate::discord::button::Button;
use crate::discord::post::{parse_id, retrying, Reply};
use crate::service::text;
use crate::service::{GameView, News, Person, ServiceError, Terms};

pub async fn challenge(
    c: &Call<'_>,
    opponent: Person,
    terms: Terms<'_>,
    level: Option<u8>,
) -> Result<(), ServiceError> {
    if opponent.key == c.bot.user.key {
        if terms.from.is_some() {
            return Err(crate::commands::from_for_bot());
        }
        return play_bot(c, terms, level).await;
    }
    if is_bot(c, &opponent) {
        return Err(ServiceError::NotAPerson);
    }
    if let Some(level) = level {
        return Err(crate::commands::level_for_people(level));
    }
    let channel = c.channel();
    let ch = c
        .service
        .offer(&c.who, &opponent, &terms, Some(&channel))
        .await?;
    let reply = Reply::text(text::challenge_made(&ch, STYLE))
        .mention(user_ids([&ch.challenged]))
        .button(Button::Accept(ch.id))
        .button(Button::Decline(ch.id));
    c.answer(reply).await;
    Ok(())
}

/// A game against taflbot: answers at once, then opens the game's thread, posts the opening
/// board there, and lets the bot move if it moves first. Games against the bot are not rated.
async fn play_bot(c: &Call<'_>, terms: Terms<'_>, level: Option<u8>) -> Result<(), ServiceError> {
    let _working = c.bot.inflight.enter();
    let channel = c.channel();
    let mut view = c
        .service
        .play_bot(
            &c.who,
            &c.bot.user,
            terms.variant,
            terms.side,
            terms.days,
            level,
            Some(&channel),
        )
        .await?;
    c.settle(Reply::text(text::bot_game_started(&c.who, &view, STYLE)))
        .await;
    if let Some(thread) = open_thread(c, &view).await {
        view.thread = Some(thread);
        let said = Reply::text(text::bot_game_started(&c.who, &view, STYLE));
        if let Err(e) = c.responder.revise(&said).await {
            tracing::warn!(game = view.id, error = %e, "could not name the thread in the answer");
        }
    }
    match c.service.game_picture(view.id).await {
        Ok(opening) => {
            let reply = news_reply(&News::Started, &view, Some(opening));
            let nonce = format!("start{}", view.id);
            c.bot
                .post_or_keep(c.http, &view, &News::Started, &reply, &nonce)
                .await;
        }
        Err(e) => tracing::warn!(game = view.id, error = %e, "no opening picture"),
    }
    c.service.wake_bot(&view);
    Ok(())
}

/// Whether the user an option named is a bot (Discord says so in the resolved user).
fn is_bot(c: &Call<'_>, p: &Person) -> bool {
    c.bots.iter().any(|id| id.to_string() == p.key)
}

/// Starts the game of an accepted challenge: answers at once, then opens a thread for the game
/// (which can take Discord a while), names it in the answer, and posts the opening board there.
pub async fn accept(c: &Call<'_>, id: Option<i64>) -> Result<(), ServiceError> {
    let _working = c.bot.inflight.enter();
    let mut view = c.service.accept(&c.who, id, None).await?;
    c.settle(Reply::text(text::accepted(&c.who, &view, STYLE)))
        .await;
    if let Some(thread) = open_thread(c, &view).await {
        view.thread = Some(thread);
        let said = Reply::text(text::accepted(&c.who, &view, STYLE));
        if let Err(e) = c.responder.revise(&said).await {
            tracing::warn!(game = view.id, error = %e, "could not name the thread in the answer");
        }
    }
    let opening = match c.service.board(&c.who, Some(view.id), None, false).await {
        Ok((_, png)) => png,
        Err(e) => {
            tracing::warn!(game = view.id, error = %e, "no opening picture");
            return Ok(());
        }
    };
    let reply = news_reply(&News::Started, &view, Some(opening));
    let nonce = format!("start{}", view.id);
    c.bot
        .post_or_keep(c.http, &view, &News::Started, &reply, &nonce)
        .await;
    Ok(())
}

/// Opens a public thread for a game in its channel and stores it; none where Discord refuses.
async fn open_thread(c: &Call<'_>, view: &GameView) -> Option<String> {
    let channel = view
        .channel
        .as_deref()
        .and_then(parse_id)
        .map(ChannelId::new)?;
    let name: String = text::thread_name(view).chars().take(100).collect();
    let http = c.http;
    let made = retrying(&c.bot.poster.retry, "create thread", || {
        let builder = CreateThread::new(name.clone())
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
        async move { channel.create_thread(http, builder).await }
    })
    .await;
    let thread = match made {
        Ok(thread) => thread.id.to_string(),
        Err(e) => {
            tracing::info!(game = view.id, error = %e, "no thread; the game is played in the channel");
            return None;
        }
    };
    match c.service.set_thread(view.id, Some(&thread)).await {
        Ok(()) => Some(thread),
        Err(e) => {
            tracing::warn!(game = view.id, error = %e, "could not store the thread");
            None
        }
    }
}

pub async fn decline(c: &Call<'_>, id: Option<i64>) -> Result<(), ServiceError> {
    let ch = c.service.decline(&c.who, id).await?;
    c.settle(Reply::text(text::declined(&c.who, &ch, STYLE)))
        .await;
    Ok(())
}

pub async fn cancel(c: &Call<'_>, id: Option<i64>) -> Result<(), ServiceError> {
    let ch = c.service.withdraw(&c.who, id).await?;
    c.answer(Reply::text(text::withdrawn(&c.who, &ch, STYLE)))
        .await;
    Ok(())
}

//! Playing: moves (with the legal moves offered as the player types), the end of a berserk chain,
//! and the endings the players choose: resignation, a draw, a game called off.

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};

use super::{AppContext, Call, STYLE};
use crate::discord::post::Reply;
use crate::service::text::{self, sentence};
use crate::service::{News, ServiceError, Takeback};

pub async fn play(c: &Call<'_>, mv: &str, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let service = c.service.clone();
    let who = c.who.clone();
    let played = service.play(&who, game, Some(&channel), mv).await?;
    c.publish(&played.view, played.news, Some(played.png)).await;
    Ok(())
}

pub async fn end_turn(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let played = c.service.end_turn(&c.who, game, Some(&channel)).await?;
    c.publish(&played.view, played.news, Some(played.png)).await;
    Ok(())
}

pub async fn resign(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let view = c.service.resign(&c.who, game, Some(&channel)).await?;
    let by = c.who.clone();
    c.publish(&view, News::Resigned { by }, None).await;
    Ok(())
}

pub async fn abort(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let view = c.service.abort(&c.who, game, Some(&channel)).await?;
    let by = c.who.clone();
    c.publish(&view, News::Aborted { by }, None).await;
    Ok(())
}

/// Offers a draw (with buttons to answer it), or accepts the one offered.
pub async fn draw(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let (view, agreed) = c.service.draw(&c.who, game, Some(&channel)).await?;
    let by = c.who.clone();
    let news = if agreed {
        News::DrawAgreed { by }
    } else {
        News::DrawOffered { by }
    };
    c.publish(&view, news, None).await;
    Ok(())
}

/// The Accept draw button: accepts the offer still open, never makes one.
pub async fn accept_draw(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let view = c.service.accept_draw(&c.who, game, Some(&channel)).await?;
    let by = c.who.clone();
    c.publish(&view, News::DrawAgreed { by }, None).await;
    Ok(())
}

pub async fn decline_draw(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let view = c.service.decline_draw(&c.who, game, Some(&channel)).await?;
    let by = c.who.clone();
    let said = text::news(&News::DrawDeclined { by }, &view, STYLE);
    c.settle(Reply::text(said)).await;
    Ok(())
}

/// Asks to take back one's last turn (with buttons to answer), agrees to the opponent's, or
/// declines it.
pub async fn takeback(c: &Call<'_>, game: Option<i64>, decline: bool) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    if decline {
        let view = c
            .service
            .decline_takeback(&c.who, game, Some(&channel))
            .await?;
        let by = c.who.clone();
        let said = text::news(&News::TakebackDeclined { by }, &view, STYLE);
        c.settle(Reply::text(said)).await;
        return Ok(());
    }
    match c.service.takeback(&c.who, game, Some(&channel)).await? {
        Takeback::Asked { view, news } => c.publish(&view, news, None).await,
        Takeback::TakenBack(played) => c.publish(&played.view, played.news, Some(played.png)).await,
    }
    Ok(())
}

/// The Take back button: agrees to the request still open, never asks.
pub async fn accept_takeback(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let _working = c.bot.inflight.enter();
    let played = c
        .service
        .accept_takeback(&c.who, game, Some(&channel))
        .await?;
    c.publish(&played.view, played.news, Some(played.png)).await;
    Ok(())
}

// ----- the legal moves, as the player types -----

/// The integer value of an option the user has already filled in.
fn option_int(ctx: AppContext<'_>, name: &str) -> Option<i64> {
    ctx.interaction
        .data
        .options
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match &o.value {
            serenity::CommandDataOptionValue::Integer(n) => Some(*n),
            serenity::CommandDataOptionValue::String(s) => {
                s.trim().trim_start_matches('#').parse().ok()
            }
            _ => None,
        })
}
/// Lowercase, without separators: `E1-e5` and `e1e5` match alike.
fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '-' | ' ' | ':'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The legal moves that start like what has been typed, at most 25. When more match, they are
/// taken in turn from each piece that can move, so that every piece shows before any shows twice.
pub fn matching_moves(moves: &[String], typed: &str) -> Vec<String> {
    const MAX: usize = 25;
    // With a dash typed, the squares are as written (`d1-` is not `d10-`); without one, `e1e5`
    // finds `e1-e5`.
    let exact = typed.contains(['-', '^']);
    let typed = if exact {
        typed.trim().to_ascii_lowercase()
    } else {
        squashed(typed)
    };
    let matching: Vec<&String> = moves
        .iter()
        .filter(|m| {
            if exact {
                m.to_ascii_lowercase().starts_with(&typed)
            } else {
                squashed(m).starts_with(&typed)
            }
        })
        .collect();
    if matching.len() <= MAX {
        return matching.into_iter().cloned().collect();
    }
    let mut pieces: Vec<(&str, std::collections::VecDeque<&String>)> = Vec::new();
    for m in matching {
        let from = m.split(['-', '^']).next().unwrap_or(m);
        match pieces.iter_mut().find(|(f, _)| *f == from) {
            Some((_, list)) => list.push_back(m),
            None => pieces.push((from, [m].into())),
        }
    }
    let mut out = Vec::with_capacity(MAX);
    while out.len() < MAX {
        for (_, list) in pieces.iter_mut() {
            if let Some(m) = list.pop_front() {
                if out.len() < MAX {
                    out.push(m.clone());
                }
            }
        }
    }
    out
}

pub async fn legal_moves(ctx: AppContext<'_>, partial: &str) -> CreateAutocompleteResponse {
    let service = super::scoped(ctx.data(), ctx.interaction.guild_id);
    let who = super::member_person(&ctx.interaction.user, ctx.interaction.member.as_deref());
    let game = option_int(ctx, "game");
    let channel = ctx.interaction.channel_id.to_string();
    let choices = match service.legal_moves(&who, game, Some(&channel)).await {
        Ok((_, moves)) => matching_moves(&moves, partial)
            .into_iter()
            .map(|m| AutocompleteChoice::new(m.clone(), m))
            .collect(),
        Err(e) => {
            // The reason shows where the moves would be; choosing it keeps what was typed.
            let name: String = sentence(&text::refusal(&e, &text::Plain))
                .chars()
                .take(100)
                .collect();
            // A choice's value is at most 100 characters.
            let value: String = if partial.trim().is_empty() {
                "?".to_string()
            } else {
                partial.chars().take(100).collect()
            };
            vec![AutocompleteChoice::new(name, value)]
        }
    };
    CreateAutocompleteResponse::new().set_choices(choices)
}

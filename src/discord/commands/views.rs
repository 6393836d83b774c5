//! Looking: the board, a player's games, a variant's rules, a game's record and GIF, a game from
//! aagenielsen.dk replayed; and the completions of variants and of a player's games.

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};

use super::{AppContext, Call, STYLE};
use crate::discord::button::Button;
use crate::discord::post::Reply;
use crate::rules::Variant;
use crate::service::text;
use crate::service::{Person, ServiceError};

pub async fn board(c: &Call<'_>, game: Option<i64>, flip: bool) -> Result<(), ServiceError> {
    let channel = c.channel();
    let service = c.service.clone();
    let who = c.who.clone();
    let (view, png) = service.board(&who, game, Some(&channel), flip).await?;
    c.answer(Reply::text(text::status_line(&view, STYLE)).board(png))
        .await;
    Ok(())
}

pub async fn games(c: &Call<'_>, player: Option<Person>) -> Result<(), ServiceError> {
    let whose = player.unwrap_or_else(|| c.who.clone());
    let yours = whose.key == c.who.key;
    let list = c.service.games(&whose).await?;
    let said = text::games(&whose, yours, &list, STYLE);
    c.answer(Reply::private(said)).await;
    Ok(())
}

pub async fn rules(c: &Call<'_>, variant: &str) -> Result<(), ServiceError> {
    let v = Variant::by_id(variant.trim())
        .ok_or_else(|| ServiceError::UnknownVariant(variant.to_string()))?;
    let png = c.service.start_picture(v).await?;
    c.answer(Reply::text(text::rules(v, STYLE)).board(png))
        .await;
    Ok(())
}

pub async fn record(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    // The files together must fit the upload limit of the place the answer goes.
    let room = c.upload_limit.saturating_sub(4096);
    let done = c.service.export(&c.who, game, Some(&channel), room).await?;
    let id = done.view.id;
    let left_out = done.gif.is_none().then_some(c.upload_limit);
    let mut reply = Reply::text(text::record_of(id, left_out))
        .file(&format!("game-{id}.txt"), done.record.into_bytes());
    if let Some(gif) = done.gif {
        reply = reply.file(&format!("game-{id}.gif"), gif);
    }
    c.answer(reply).await;
    Ok(())
}

/// The engine's suggestion, privately: in a game against taflbot or a finished game.
pub async fn hint(c: &Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let hint = c.service.hint(&c.who, game, Some(&channel)).await?;
    c.answer(Reply::private(text::hint(&hint, STYLE))).await;
    Ok(())
}

pub async fn import(c: &Call<'_>, moves: &str, variant: &str) -> Result<(), ServiceError> {
    let service = c.service.clone();
    // Room for the record and the final board beside the GIF.
    let room = c.upload_limit.saturating_sub(256 * 1024);
    let game = service.import(variant, moves, room).await?;
    let mut said = game.summary;
    if game.gif.is_none() {
        said = format!("{said} {}", text::gif_too_large(c.upload_limit));
    }
    let mut reply = Reply::text(said).file("game.txt", game.record.into_bytes());
    if let Some(gif) = game.gif {
        reply = reply.file("game.gif", gif);
    }
    let reply = reply.board(game.png);
    c.answer(reply).await;
    Ok(())
}

/// The variants whose id or name holds what has been typed.
pub async fn variants(_ctx: AppContext<'_>, partial: &str) -> CreateAutocompleteResponse {
    let typed = partial.trim().to_ascii_lowercase();
    let choices = Variant::all()
        .iter()
        .filter(|v| v.id.contains(&typed) || v.name.to_ascii_lowercase().contains(&typed))
        .take(25)
        .map(|v| AutocompleteChoice::new(format!("{} ({})", v.name, v.id), v.id))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// The caller's games whose number starts with what has been typed.
pub async fn my_games(ctx: AppContext<'_>, partial: &str) -> CreateAutocompleteResponse {
    let who = super::member_person(&ctx.interaction.user, ctx.interaction.member.as_deref());
    let typed = partial.trim().trim_start_matches('#');
    let service = super::scoped(ctx.data(), ctx.interaction.guild_id);
    let games = service.games(&who).await.unwrap_or_default();
    let choices = games
        .iter()
        .filter(|g| g.id.to_string().starts_with(typed))
        .take(25)
        .map(|g| {
            let name: String = text::game_choice(g).chars().take(100).collect();
            AutocompleteChoice::new(name, g.id)
        })
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// A page of the server's leaderboard, with buttons to the pages beside it.
pub async fn leaderboard(
    c: &Call<'_>,
    variant: Option<&str>,
    page: Option<i64>,
) -> Result<(), ServiceError> {
    let page = page.unwrap_or(1).clamp(1, i64::from(u32::MAX)) as usize;
    let board = c.service.leaderboard(variant, page).await?;
    let mut reply = Reply::text(text::leaderboard(&board, STYLE));
    let index = Variant::all()
        .iter()
        .position(|v| std::ptr::eq(v, board.variant))
        .unwrap_or(0);
    if board.page > 1 {
        reply = reply.button(Button::Page {
            variant: index,
            page: board.page - 1,
            forward: false,
        });
    }
    if board.page < board.pages {
        reply = reply.button(Button::Page {
            variant: index,
            page: board.page + 1,
            forward: true,
        });
    }
    c.settle(reply).await;
    Ok(())
}

/// A player's profile with the chart of their ratings.
pub async fn profile(c: &Call<'_>, player: Option<Person>) -> Result<(), ServiceError> {
    let whose = player.unwrap_or_else(|| c.who.clone());
    let profile = c.service.profile(&whose).await?;
    let mut reply = Reply::text(text::profile(&profile, STYLE));
    if let Some(chart) = c.service.rating_chart(&profile).await? {
        reply = reply.file("ratings.png", chart);
    }
    c.answer(reply).await;
    Ok(())
}

/// Goes on vacation, comes back, or says where the vacation stands; privately.
pub async fn vacation(c: &Call<'_>, set: Option<bool>) -> Result<(), ServiceError> {
    let v = match set {
        Some(on) => c.service.vacation(&c.who, on).await?,
        None => c.service.vacation_status(&c.who).await?,
    };
    let said = text::vacation(&v, c.service.vacation_days(), STYLE);
    c.answer(Reply::private(said)).await;
    Ok(())
}

/// Direct messages on or off, privately.
pub async fn notify(c: &Call<'_>, dm: bool) -> Result<(), ServiceError> {
    c.service.set_direct_messages(&c.who, dm).await?;
    c.answer(Reply::private(text::notify(dm, STYLE))).await;
    Ok(())
}

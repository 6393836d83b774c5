//! Looking: the board, a player's games, a variant's rules, a game's record and GIF, a game from
//! aagenielsen.dk replayed; and the completions of variants and of a player's games.

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};

use super::{AppContext, Call, STYLE};
use crate::discord::post::Reply;
use crate::rules::Variant;
use crate::service::text;
use crate::service::{Person, ServiceError};

pub async fn board(c: &mut Call<'_>, game: Option<i64>, flip: bool) -> Result<(), ServiceError> {
    let channel = c.channel();
    let service = c.bot.service.clone();
    let who = c.who.clone();
    let (view, png) = c
        .timely(service.board(&who, game, Some(&channel), flip))
        .await?;
    c.answer(Reply::text(text::status_line(&view, STYLE)).board(png))
        .await;
    Ok(())
}

pub async fn games(c: &mut Call<'_>, player: Option<Person>) -> Result<(), ServiceError> {
    let whose = player.unwrap_or_else(|| c.who.clone());
    let yours = whose.key == c.who.key;
    let list = c.bot.service.games(&whose).await?;
    let said = text::games(&whose, yours, &list, STYLE);
    c.answer(Reply::private(said)).await;
    Ok(())
}

pub async fn rules(c: &mut Call<'_>, variant: &str) -> Result<(), ServiceError> {
    let v = Variant::by_id(variant.trim())
        .ok_or_else(|| ServiceError::UnknownVariant(variant.to_string()))?;
    let png = c.bot.service.start_picture(v);
    c.answer(Reply::text(text::rules(v, STYLE)).board(png))
        .await;
    Ok(())
}

pub async fn record(c: &mut Call<'_>, game: Option<i64>) -> Result<(), ServiceError> {
    let channel = c.channel();
    let service = c.bot.service.clone();
    let who = c.who.clone();
    let (view, record, gif) = c
        .timely(async {
            let (view, _) = service.board(&who, game, Some(&channel), false).await?;
            let record = service.record(&who, Some(view.id), None).await?;
            let gif = service.gif(&who, Some(view.id), None).await?;
            Ok::<_, ServiceError>((view, record, gif))
        })
        .await?;
    let reply = Reply::text(text::record_of(view.id))
        .file(&format!("game-{}.txt", view.id), record.into_bytes())
        .file(&format!("game-{}.gif", view.id), gif);
    c.answer(reply).await;
    Ok(())
}

pub async fn import(c: &mut Call<'_>, moves: &str, variant: &str) -> Result<(), ServiceError> {
    let service = c.bot.service.clone();
    let game = c.timely(async { service.import(variant, moves) }).await?;
    let reply = Reply::text(game.summary)
        .file("game.txt", game.record.into_bytes())
        .file("game.gif", game.gif)
        .board(game.png);
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
    let games = ctx.data().service.games(&who).await.unwrap_or_default();
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

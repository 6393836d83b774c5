//! The completions offered as a player types: their legal moves, the variants, their games.

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};

use super::AppContext;
use crate::rules::Variant;
use crate::service::text::{self, sentence};

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
    let who = super::person(&ctx.interaction.user);
    let game = option_int(ctx, "game");
    let channel = ctx.interaction.channel_id.to_string();
    let listed = if ctx.command().qualified_name == "vote" {
        // A team game's moves, for a member of the side whose window is open.
        let member = crate::service::Member {
            person: who,
            roles: ctx
                .interaction
                .member
                .as_ref()
                .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
                .unwrap_or_default(),
            manages: false,
            newcomer: false,
        };
        service
            .team_legal_moves(&member, game, Some(&channel))
            .await
    } else {
        service.legal_moves(&who, game, Some(&channel)).await
    };
    let choices = match listed {
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
    let who = super::person(&ctx.interaction.user);
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

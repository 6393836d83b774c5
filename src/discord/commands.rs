//! The slash commands and buttons. Each one reads its options, calls one use case of the service,
//! and shows the result; the game logic is all in the service and the rules core.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{
    AutocompleteChoice, ButtonStyle, ChannelId, ChannelType, ComponentInteraction,
    CreateAutocompleteResponse, CreateThread, Http, Member, User, UserId,
};

use super::post::{parse_id, retrying, Reply, Responder};
use super::{Bot, Context, Error};
use crate::render::{Scene, Theme};
use crate::rules::{Game, Position, Variant};
use crate::service::{deadline_text, GameView, Person, Played, ServiceError, SideChoice};

/// Work that takes longer than this is deferred, so that Discord's 3 seconds are never missed.
const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The help text of `/help`.
pub const HELP: &str = "\
**taflbot**: tafl games by correspondence. Challenge someone, then take turns with `/move`; the \
board is posted after every move in the game's thread.

`/challenge opponent variant [side] [days]`: challenge someone (days per move: 1, 2, 3, 5, 7, 10 \
or 14; 3 by default). They answer with the buttons, or `/accept` and `/decline`; `/cancel` \
withdraws your challenge.
`/move move [game]`: play a move, e.g. `e1-e5`; type to see your legal moves. A jump is `d4^d6`, \
Cavalry in Save the Standard `c3-c7-d7`.
`/endturn [game]`: end a berserk chain (or press End turn).
`/board [game] [flip]`, `/games [player]`, `/record [game]` (the record and a GIF of the game).
`/resign [game]`, `/draw [game]` (offer a draw, or accept the one offered), `/abort [game]` (call a \
game off before its first move).
`/rules variant`: a variant's rules and start position.
`/import moves [variant]`: replay a game from aagenielsen.dk (`d1-d3 e5-e2 ... a8-b8xb7`) and get its \
record, a GIF and the final board.

`game` is needed only when several of your games could be meant here. A move not made in time \
loses the game; a reminder comes a day before.";

// ----- who and where -----

/// The person behind a Discord user: their id, and the name the server shows.
pub fn person(user: &User, member: Option<&Member>) -> Person {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    Person::new(user.id.to_string(), name)
}

fn user_id(p: &Person) -> Option<UserId> {
    parse_id(&p.key).map(UserId::new)
}

fn mention(p: &Person) -> String {
    match user_id(p) {
        Some(id) => format!("<@{id}>"),
        None => p.name.clone(),
    }
}

/// The channel or thread a game's posts go to.
fn place(view: &GameView) -> Option<&str> {
    view.thread.as_deref().or(view.channel.as_deref())
}

/// A refusal in a sentence: capital first letter, full stop.
pub fn sentence(e: &impl std::fmt::Display) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => return text,
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Runs `work`; if it is not done soon, defers the answer first.
async fn timely<T>(
    responder: &mut Responder<'_>,
    private: bool,
    work: impl Future<Output = T>,
) -> T {
    tokio::pin!(work);
    tokio::select! {
        out = &mut work => return out,
        _ = tokio::time::sleep(DEFER_AFTER) => {}
    }
    if let Err(e) = responder.defer(private).await {
        tracing::warn!(error = %e, "could not defer an answer");
    }
    work.await
}

/// Sends an answer, logging a failure (the retries are over by then; the user sees Discord's own
/// "did not respond").
async fn answer(responder: &mut Responder<'_>, reply: Reply) {
    if let Err(e) = responder.send(&reply).await {
        tracing::warn!(error = %e, "could not answer an interaction");
    }
}

async fn refuse(responder: &mut Responder<'_>, e: ServiceError) {
    if matches!(
        e,
        ServiceError::Database(_) | ServiceError::Broken(_) | ServiceError::Corrupt(_)
    ) {
        tracing::error!(error = %e, "a command failed");
    }
    answer(responder, Reply::private(sentence(&e))).await
}

/// The pieces of a slash command that the commands need.
struct Call<'a> {
    http: &'a Http,
    bot: &'a Bot,
    who: Person,
    channel: ChannelId,
    responder: Responder<'a>,
}

fn call<'a>(ctx: Context<'a>) -> Call<'a> {
    let (interaction, http, bot) = match ctx {
        poise::Context::Application(a) => (a.interaction, &*a.serenity_context().http, a.data()),
        poise::Context::Prefix(_) => unreachable!("taflbot registers slash commands only"),
    };
    Call {
        http,
        bot,
        who: person(&interaction.user, interaction.member.as_deref()),
        channel: interaction.channel_id,
        responder: Responder::new(http, interaction.id, &interaction.token, &bot.answers),
    }
}

// ----- posting a game's news -----

/// The public message after a move, or at the start: what happened, the board, who is next.
fn game_reply(text: String, view: &GameView, png: Vec<u8>) -> Reply {
    let mut reply = Reply::text(text).board(png);
    match &view.waiting_for {
        Some(next) => {
            reply
                .text
                .push_str(&format!("\n{}, your move.", mention(next)));
            reply = reply.mention(user_id(next));
            if view.open_chain {
                reply = reply.button(
                    format!("endturn:{}", view.id),
                    "End turn",
                    ButtonStyle::Secondary,
                );
            }
        }
        None => reply = ping_both(reply, view),
    }
    reply
}

/// Shows a game's news: as the answer when the command was used in the game's thread, otherwise in
/// the thread with a private note as the answer. A post that cannot be made now is left with the
/// service and delivered later; the game itself is already stored.
async fn publish(c: &mut Call<'_>, view: &GameView, reply: Reply, nonce: String) {
    let here = place(view) == Some(c.channel.to_string().as_str());
    if here {
        match c.responder.send(&reply).await {
            Ok(()) => return,
            Err(e) => {
                tracing::warn!(game = view.id, error = %e, "the answer failed; posting instead")
            }
        }
    } else {
        let note = match place(view) {
            Some(p) => format!(
                "Done. Game #{} is played in <#{p}>; the news is posted there.",
                view.id
            ),
            None => format!("Done (game #{}).", view.id),
        };
        answer(&mut c.responder, Reply::private(note)).await;
    }
    c.bot.post_or_keep(c.http, view, &reply, &nonce).await;
}

/// The nonce of a post made for an interaction: the same on every retry, unique to it.
fn nonce_of(c: &Call<'_>) -> String {
    format!("i{}", c.responder.interaction().get())
}

// ----- challenges -----

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SideArg {
    #[name = "attackers"]
    Attackers,
    #[name = "defenders"]
    Defenders,
    #[name = "random"]
    Random,
}

async fn variants(_ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let typed = partial.trim().to_ascii_lowercase();
    let choices = Variant::all()
        .iter()
        .filter(|v| v.id.contains(&typed) || v.name.to_ascii_lowercase().contains(&typed))
        .take(25)
        .map(|v| AutocompleteChoice::new(format!("{} ({})", v.name, v.id), v.id))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Challenge someone to a game.
#[poise::command(slash_command, guild_only)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who you challenge"] opponent: User,
    #[description = "The variant (type to search)"]
    #[autocomplete = "variants"]
    variant: String,
    #[description = "The side you play (default: random)"] side: Option<SideArg>,
    #[description = "Days per move: 1, 2, 3, 5, 7, 10 or 14 (default 3)"]
    #[min = 1]
    #[max = 14]
    days: Option<u32>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    if opponent.bot {
        answer(
            &mut c.responder,
            Reply::private("Bots do not play here: challenge a person."),
        )
        .await;
        return Ok(());
    }
    let side = match side.unwrap_or(SideArg::Random) {
        SideArg::Attackers => SideChoice::Attackers,
        SideArg::Defenders => SideChoice::Defenders,
        SideArg::Random => SideChoice::Random,
    };
    let to = person(&opponent, None);
    let channel = c.channel.to_string();
    let made = c
        .bot
        .service
        .challenge(&c.who, &to, &variant, side, days, Some(&channel))
        .await;
    let ch = match made {
        Ok(ch) => ch,
        Err(e) => {
            refuse(&mut c.responder, e).await;
            return Ok(());
        }
    };
    let v = ch.variant;
    let sides = match side {
        SideChoice::Random => "sides drawn by lot".to_string(),
        s => format!("{} plays the {}", c.who.name, s.as_str()),
    };
    let text = format!(
        "{}, {} challenges you to **{}** ({}): {sides}, {} days per move. Challenge #{} is open until {}.",
        mention(&to),
        mention(&c.who),
        v.name,
        v.id,
        ch.days,
        ch.id,
        crate::service::utc(ch.expires_at),
    );
    let reply = Reply::text(text)
        .mention(user_id(&to))
        .button(format!("accept:{}", ch.id), "Accept", ButtonStyle::Success)
        .button(format!("decline:{}", ch.id), "Decline", ButtonStyle::Danger);
    answer(&mut c.responder, reply).await;
    Ok(())
}

/// Accept a challenge made to you.
#[poise::command(slash_command, guild_only)]
pub async fn accept(
    ctx: Context<'_>,
    #[description = "The challenge number (needed only when you have several)"] challenge: Option<
        i64,
    >,
) -> Result<(), Error> {
    let mut c = call(ctx);
    accept_challenge(&mut c, challenge, false).await;
    Ok(())
}

/// Starts the game of an accepted challenge in a thread of its own.
async fn accept_challenge(c: &mut Call<'_>, id: Option<i64>, pressed: bool) {
    let _working = c.bot.inflight.enter();
    let view = match c.bot.service.accept(&c.who, id, None).await {
        Ok(view) => view,
        Err(e) => return refuse(&mut c.responder, e).await,
    };
    let mut view = view;
    let [a, d] = &view.players;
    if let Some(channel) = view
        .channel
        .as_deref()
        .and_then(parse_id)
        .map(ChannelId::new)
    {
        let name: String = format!(
            "#{} {} vs {} · {}",
            view.id, a.name, d.name, view.variant.id
        )
        .chars()
        .take(100)
        .collect();
        let http = c.http;
        let made = retrying(&c.bot.poster.retry, "create thread", || {
            let builder = CreateThread::new(name.clone())
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
            async move { channel.create_thread(http, builder).await }
        })
        .await;
        match made {
            Ok(thread) => {
                let thread = thread.id.to_string();
                match c.bot.service.set_thread(view.id, Some(&thread)).await {
                    Ok(()) => view.thread = Some(thread),
                    Err(e) => {
                        tracing::warn!(game = view.id, error = %e, "could not store the thread")
                    }
                }
            }
            Err(e) => {
                tracing::info!(game = view.id, error = %e, "no thread; the game is played in the channel")
            }
        }
    }
    let where_ = match place(&view) {
        Some(p) => format!(" It is played in <#{p}>."),
        None => String::new(),
    };
    let note = Reply::text(format!(
        "{} accepted: game #{} ({}) has begun.{where_}",
        c.who.name, view.id, view.variant.name
    ));
    let answered = c.responder.settle(&note, pressed).await;
    if let Err(e) = answered {
        tracing::warn!(game = view.id, error = %e, "could not answer the acceptance");
    }
    let opening = match c
        .bot
        .service
        .board(&c.who, Some(view.id), None, false)
        .await
    {
        Ok((_, png)) => png,
        Err(e) => return tracing::warn!(game = view.id, error = %e, "no opening picture"),
    };
    let text = format!(
        "Game #{}: **{}**. {} plays the {}, {} the {}. {}.",
        view.id,
        view.variant.name,
        mention(a),
        view.variant.side_name(crate::rules::Side::Attackers),
        mention(d),
        view.variant.side_name(crate::rules::Side::Defenders),
        deadline_text(view.deadline)
    );
    let reply = game_reply(text, &view, opening);
    let nonce = format!("start{}", view.id);
    c.bot.post_or_keep(c.http, &view, &reply, &nonce).await;
}

/// Decline a challenge made to you.
#[poise::command(slash_command, guild_only)]
pub async fn decline(
    ctx: Context<'_>,
    #[description = "The challenge number (needed only when you have several)"] challenge: Option<
        i64,
    >,
) -> Result<(), Error> {
    let mut c = call(ctx);
    decline_challenge(&mut c, challenge, false).await;
    Ok(())
}

async fn decline_challenge(c: &mut Call<'_>, id: Option<i64>, pressed: bool) {
    match c.bot.service.decline(&c.who, id).await {
        Ok(ch) => {
            let note = Reply::text(format!(
                "{} declined challenge #{} from {}.",
                c.who.name,
                ch.id,
                mention(&ch.challenger)
            ));
            let done = c.responder.settle(&note, pressed).await;
            if let Err(e) = done {
                tracing::warn!(error = %e, "could not answer a decline");
            }
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
}

/// Withdraw a challenge you made.
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "The challenge number (needed only when you have several)"] challenge: Option<
        i64,
    >,
) -> Result<(), Error> {
    let mut c = call(ctx);
    match c.bot.service.withdraw(&c.who, challenge).await {
        Ok(ch) => {
            let text = format!("{} withdrew challenge #{}.", c.who.name, ch.id);
            answer(&mut c.responder, Reply::text(text)).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
    Ok(())
}

// ----- moves -----

/// The integer value of an option the user has already filled in.
fn option_int(ctx: Context<'_>, name: &str) -> Option<i64> {
    let poise::Context::Application(a) = ctx else {
        return None;
    };
    a.interaction
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

async fn legal_moves(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let c = call(ctx);
    let game = option_int(ctx, "game");
    let channel = c.channel.to_string();
    let choices = match c
        .bot
        .service
        .legal_moves(&c.who, game, Some(&channel))
        .await
    {
        Ok((_, moves)) => matching_moves(&moves, partial)
            .into_iter()
            .map(|m| AutocompleteChoice::new(m.clone(), m))
            .collect(),
        Err(e) => {
            // The reason shows where the moves would be; choosing it keeps what was typed.
            let name: String = sentence(&e).chars().take(100).collect();
            let value = if partial.trim().is_empty() {
                "?"
            } else {
                partial
            };
            vec![AutocompleteChoice::new(name, value)]
        }
    };
    CreateAutocompleteResponse::new().set_choices(choices)
}

async fn my_games(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let c = call(ctx);
    let typed = partial.trim().trim_start_matches('#');
    let games = c.bot.service.games(&c.who).await.unwrap_or_default();
    let choices = games
        .iter()
        .filter(|g| g.id.to_string().starts_with(typed))
        .take(25)
        .map(|g| {
            let whose = if g.your_turn {
                "your move"
            } else {
                "their move"
            };
            let name = format!("#{} {} vs {}: {whose}", g.id, g.variant.id, g.opponent.name);
            AutocompleteChoice::new(name.chars().take(100).collect::<String>(), g.id)
        })
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Play a move, e.g. e1-e5.
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Your move, e.g. e1-e5 (type to see your legal moves)"]
    #[autocomplete = "legal_moves"]
    #[rename = "move"]
    mv: String,
    #[description = "The game (needed only when several of yours wait here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let channel = c.channel.to_string();
    let _working = c.bot.inflight.enter();
    let service = c.bot.service.clone();
    let played = timely(
        &mut c.responder,
        false,
        service.play(&c.who, game, Some(&channel), &mv),
    )
    .await;
    show_played(&mut c, played).await;
    Ok(())
}

async fn show_played(c: &mut Call<'_>, played: Result<Played, ServiceError>) {
    match played {
        Ok(p) => {
            let reply = game_reply(p.text, &p.view, p.png);
            let nonce = nonce_of(c);
            publish(c, &p.view, reply, nonce).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
}

/// End a berserk chain: the turn passes.
#[poise::command(slash_command, guild_only)]
pub async fn endturn(
    ctx: Context<'_>,
    #[description = "The game (needed only when several of yours wait here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    end_turn(&mut c, game).await;
    Ok(())
}

async fn end_turn(c: &mut Call<'_>, game: Option<i64>) {
    let channel = c.channel.to_string();
    let _working = c.bot.inflight.enter();
    let played = c.bot.service.end_turn(&c.who, game, Some(&channel)).await;
    show_played(c, played).await;
}

// ----- looking -----

/// Show a game's board.
#[poise::command(slash_command, guild_only)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "The game (needed only when several of yours are here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
    #[description = "Show the board from the other side"] flip: Option<bool>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let channel = c.channel.to_string();
    let service = c.bot.service.clone();
    let shown = timely(
        &mut c.responder,
        false,
        service.board(&c.who, game, Some(&channel), flip.unwrap_or(false)),
    )
    .await;
    match shown {
        Ok((view, png)) => {
            answer(&mut c.responder, Reply::text(view.status_line()).board(png)).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
    Ok(())
}

/// List the games in progress: yours, or another player's.
#[poise::command(slash_command, guild_only)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] player: Option<User>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let whose = match &player {
        Some(u) => person(u, None),
        None => c.who.clone(),
    };
    let yours = whose.key == c.who.key;
    match c.bot.service.games(&whose).await {
        Ok(list) if list.is_empty() => {
            let text = if yours {
                "You have no game in progress. `/challenge` someone!".to_string()
            } else {
                format!("{} has no game in progress.", whose.name)
            };
            answer(&mut c.responder, Reply::private(text)).await
        }
        Ok(list) => {
            let mut text = if yours {
                "Your games:".to_string()
            } else {
                format!("Games of {}:", whose.name)
            };
            for g in &list {
                let whose_move = match (g.your_turn, yours) {
                    (true, true) => "your move".to_string(),
                    (true, false) => format!("{}'s move", whose.name),
                    (false, _) => format!("{}'s move", g.opponent.name),
                };
                text.push_str(&format!(
                    "\n#{} {} vs {}: {whose_move}, {}",
                    g.id,
                    g.variant.name,
                    g.opponent.name,
                    deadline_text(g.deadline)
                ));
            }
            answer(&mut c.responder, Reply::private(text)).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
    Ok(())
}

/// A variant's rules and start position.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "The variant (type to search)"]
    #[autocomplete = "variants"]
    variant: String,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let Some(v) = Variant::by_id(variant.trim()) else {
        let e = ServiceError::UnknownVariant(variant);
        refuse(&mut c.responder, e).await;
        return Ok(());
    };
    let game = Game::from_position(Position::start(v));
    let png = c
        .bot
        .service
        .renderer()
        .png(&Scene::game(&game), Theme::Classic);
    let text = format!("**{}** ({})\n{}", v.name, v.id, v.summary);
    answer(&mut c.responder, Reply::text(text).board(png)).await;
    Ok(())
}

/// Export a game: its record as text and the whole game as a GIF.
#[poise::command(slash_command, guild_only)]
pub async fn record(
    ctx: Context<'_>,
    #[description = "The game (needed only when several of yours are here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let channel = c.channel.to_string();
    let service = c.bot.service.clone();
    let who = c.who.clone();
    let exported = timely(&mut c.responder, false, async {
        let (view, _) = service.board(&who, game, Some(&channel), false).await?;
        let text = service.record(&who, Some(view.id), None).await?;
        let gif = service.gif(&who, Some(view.id), None).await?;
        Ok::<_, ServiceError>((view, text, gif))
    })
    .await;
    match exported {
        Ok((view, text, gif)) => {
            let reply = Reply::text(format!("The record of game #{}.", view.id))
                .file(&format!("game-{}.txt", view.id), text.into_bytes())
                .file(&format!("game-{}.gif", view.id), gif);
            answer(&mut c.responder, reply).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
    Ok(())
}

// ----- endings -----

/// Resign a game.
#[poise::command(slash_command, guild_only)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "The game (needed only when several of yours are here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let channel = c.channel.to_string();
    let _working = c.bot.inflight.enter();
    let ended = c.bot.service.resign(&c.who, game, Some(&channel)).await;
    show_ending(&mut c, ended, "resigned").await;
    Ok(())
}

/// Call off a game before its first move: it ends with no result.
#[poise::command(slash_command, guild_only)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "The game (needed only when several of yours are here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let channel = c.channel.to_string();
    let _working = c.bot.inflight.enter();
    let ended = c.bot.service.abort(&c.who, game, Some(&channel)).await;
    show_ending(&mut c, ended, "called the game off").await;
    Ok(())
}

/// Announces a game that `c.who` ended ("alice resigned. Game #3 is over: ..."), or the refusal.
async fn show_ending(c: &mut Call<'_>, ended: Result<GameView, ServiceError>, what: &str) {
    match ended {
        Ok(view) => {
            let text = format!("{} {what}. {}", c.who.name, view.status_line());
            let reply = ending_reply(text, &view);
            let nonce = nonce_of(c);
            publish(c, &view, reply, nonce).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
}

fn ending_reply(text: String, view: &GameView) -> Reply {
    ping_both(Reply::text(text), view)
}

/// Adds a line that pings both players (the game is over).
fn ping_both(mut reply: Reply, view: &GameView) -> Reply {
    let both: Vec<String> = view.players.iter().map(mention).collect();
    reply.text.push_str(&format!("\n{}", both.join(" ")));
    reply.mention(view.players.iter().filter_map(user_id))
}

/// Offer a draw, or accept the one your opponent offered.
#[poise::command(slash_command, guild_only)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "The game (needed only when several of yours are here)"]
    #[autocomplete = "my_games"]
    game: Option<i64>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    offer_or_accept_draw(&mut c, game).await;
    Ok(())
}

async fn offer_or_accept_draw(c: &mut Call<'_>, game: Option<i64>) {
    let channel = c.channel.to_string();
    let _working = c.bot.inflight.enter();
    let (view, agreed) = match c.bot.service.draw(&c.who, game, Some(&channel)).await {
        Ok(done) => done,
        Err(e) => return refuse(&mut c.responder, e).await,
    };
    let reply = if agreed {
        ending_reply(
            format!("{} accepted the draw. {}", c.who.name, view.status_line()),
            &view,
        )
    } else {
        let other = view
            .players
            .iter()
            .find(|p| p.key != c.who.key)
            .cloned()
            .unwrap_or_else(|| c.who.clone());
        Reply::text(format!(
            "{} offers a draw in game #{}. {}, do you accept?",
            c.who.name,
            view.id,
            mention(&other)
        ))
        .mention(user_id(&other))
        .button(
            format!("drawyes:{}", view.id),
            "Accept draw",
            ButtonStyle::Success,
        )
        .button(
            format!("drawno:{}", view.id),
            "Decline draw",
            ButtonStyle::Danger,
        )
    };
    let nonce = nonce_of(c);
    publish(c, &view, reply, nonce).await
}

/// Replay a game written as a move list from aagenielsen.dk ("d1-d3 e5-e2 ... a8-b8xb7").
#[poise::command(slash_command)]
pub async fn import(
    ctx: Context<'_>,
    #[description = "The moves, space-separated, as aagenielsen.dk writes them"] moves: String,
    #[description = "The variant (default: copenhagen)"]
    #[autocomplete = "variants"]
    variant: Option<String>,
) -> Result<(), Error> {
    let mut c = call(ctx);
    let service = c.bot.service.clone();
    let variant = variant.unwrap_or_else(|| "copenhagen".to_string());
    let imported = timely(&mut c.responder, false, async {
        service.import(&variant, &moves)
    })
    .await;
    match imported {
        Ok(game) => {
            let reply = Reply::text(game.summary)
                .file("game.txt", game.record.into_bytes())
                .file("game.gif", game.gif)
                .board(game.png);
            answer(&mut c.responder, reply).await
        }
        Err(e) => refuse(&mut c.responder, e).await,
    }
    Ok(())
}

/// How to play.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let mut c = call(ctx);
    answer(&mut c.responder, Reply::private(HELP)).await;
    Ok(())
}

/// Every command, for registration.
pub fn all() -> Vec<poise::Command<std::sync::Arc<Bot>, Error>> {
    vec![
        challenge(),
        accept(),
        decline(),
        cancel(),
        play(),
        endturn(),
        board(),
        games(),
        resign(),
        abort(),
        draw(),
        rules(),
        record(),
        import(),
        help(),
    ]
}

// ----- buttons -----

/// A pressed button: `accept:ID`, `decline:ID`, `endturn:GAME`, `drawyes:GAME`, `drawno:GAME`.
pub async fn pressed(http: &Http, bot: &Bot, press: &ComponentInteraction) {
    let mut c = Call {
        http,
        bot,
        who: person(&press.user, press.member.as_ref()),
        channel: press.channel_id,
        responder: Responder::new(http, press.id, &press.token, &bot.answers),
    };
    let (action, id) = match press.data.custom_id.split_once(':') {
        Some((action, id)) => (action, id.parse::<i64>().ok()),
        None => (press.data.custom_id.as_str(), None),
    };
    match (action, id) {
        ("accept", Some(id)) => accept_challenge(&mut c, Some(id), true).await,
        ("decline", Some(id)) => decline_challenge(&mut c, Some(id), true).await,
        ("endturn", Some(id)) => end_turn(&mut c, Some(id)).await,
        ("drawyes", Some(id)) => offer_or_accept_draw(&mut c, Some(id)).await,
        ("drawno", Some(id)) => match c.bot.service.decline_draw(&c.who, Some(id), None).await {
            Ok(view) => {
                let note = Reply::text(format!(
                    "{} declined the draw in game #{}.",
                    c.who.name, view.id
                ));
                if let Err(e) = c.responder.update(&note).await {
                    tracing::warn!(error = %e, "could not answer a button");
                }
            }
            Err(e) => refuse(&mut c.responder, e).await,
        },
        _ => {
            tracing::warn!(custom_id = %press.data.custom_id, "an unknown button");
            answer(
                &mut c.responder,
                Reply::private("This button is no longer in use."),
            )
            .await
        }
    }
}

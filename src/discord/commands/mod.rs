//! The slash commands and buttons. The commands are registered from the one command table
//! (`crate::commands`); a slash command or a pressed button is read into a [`Command`] and run by
//! one function per command, grouped by topic: challenges, play, views and help. A handler calls
//! the service and shows the result; every refusal comes back through `?` to one place that
//! answers it privately in the service's words.

mod challenges;
mod help;
mod play;
mod views;

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, CommandOptionType, ComponentInteraction, CreateCommandOption, Http, Member, User,
};

use super::button::Button;
use super::post::{Reply, Responder};
use super::style::DiscordStyle;
use super::{Bot, Error};
use crate::commands::{Command, Kind, Spec, Value, COMMANDS, SIDES, SWITCH};
use crate::service::text::{self, sentence};
use crate::service::{GameView, News, Person, Scope, Service, ServiceError, Terms};

pub use help::{help_for, help_text};
pub use play::matching_moves;

type AppContext<'a> = poise::ApplicationContext<'a, Arc<Bot>, Error>;
type Framework<'a> = poise::FrameworkError<'a, Arc<Bot>, Error>;

/// Work that takes longer than this is deferred, so that Discord's 3 seconds are never missed.
const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The style every Discord message is written in.
const STYLE: &DiscordStyle = &DiscordStyle;

// ----- registration, from the command table -----

/// Every command, for registration.
pub fn all() -> Vec<poise::Command<Arc<Bot>, Error>> {
    COMMANDS.iter().map(slash_command).collect()
}

fn slash_command(spec: &'static Spec) -> poise::Command<Arc<Bot>, Error> {
    poise::Command {
        name: spec.name.into(),
        qualified_name: spec.name.into(),
        identifying_name: spec.name.into(),
        source_code_name: spec.name.into(),
        description: Some(spec.description.into()),
        guild_only: spec.guild_only,
        parameters: spec.options.iter().map(parameter).collect(),
        slash_action: Some(|ctx| Box::pin(slash(ctx))),
        ..Default::default()
    }
}

fn parameter(o: &'static crate::commands::Opt) -> poise::CommandParameter<Arc<Bot>, Error> {
    fn text(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::String)
    }
    fn integer(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer)
    }
    fn level(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer)
            .min_int_value(1)
            .max_int_value(5)
    }
    fn page(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer).min_int_value(1)
    }
    fn days(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer)
            .min_int_value(1)
            .max_int_value(14)
    }
    fn flag(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Boolean)
    }
    fn user(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::User)
    }
    let names: Vec<&'static str> = match o.kind {
        Kind::Side => SIDES.iter().map(|s| s.as_str()).collect(),
        Kind::Switch => SWITCH.to_vec(),
        _ => Vec::new(),
    };
    let choices: Vec<_> = names
        .into_iter()
        .map(|name| poise::CommandParameterChoice {
            name: name.into(),
            localizations: Default::default(),
            __non_exhaustive: (),
        })
        .collect();
    poise::CommandParameter {
        name: o.name.into(),
        name_localizations: Default::default(),
        description: Some(o.description.into()),
        description_localizations: Default::default(),
        required: o.required,
        channel_types: None,
        choices: choices.into(),
        type_setter: Some(match o.kind {
            Kind::Text | Kind::Variant | Kind::Move => text,
            Kind::Game | Kind::Challenge | Kind::Side | Kind::Switch => integer,
            Kind::Days => days,
            Kind::Level => level,
            Kind::Page => page,
            Kind::Flag => flag,
            Kind::User => user,
        }),
        autocomplete_callback: match o.kind {
            Kind::Variant => Some(|ctx, partial| Box::pin(views::variants(ctx, partial))),
            Kind::Move => Some(|ctx, partial| Box::pin(play::legal_moves(ctx, partial))),
            Kind::Game => Some(|ctx, partial| Box::pin(views::my_games(ctx, partial))),
            _ => None,
        },
        __non_exhaustive: (),
    }
}

// ----- who and where -----

/// The person behind a Discord user: their id, and the name the server shows.
pub fn person(user: &User, nick: Option<&str>) -> Person {
    let name = nick
        .map(str::to_string)
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    Person::new(user.id.to_string(), name)
}

fn member_person(user: &User, member: Option<&Member>) -> Person {
    person(user, member.and_then(|m| m.nick.as_deref()))
}

/// The service as seen from where an interaction comes from: its server's games only.
fn scoped(bot: &Bot, guild: Option<serenity::GuildId>) -> Service {
    bot.service.scoped(match guild {
        Some(g) => Scope::Server(g.to_string()),
        None => Scope::Direct,
    })
}

/// The upload limit Discord gives for an interaction (10 MiB when it gives none).
fn upload_limit(given: u32) -> usize {
    match given {
        0 => 10 * 1024 * 1024,
        n => n as usize,
    }
}

/// Discord ids of players.
fn user_ids<'a>(people: impl IntoIterator<Item = &'a Person>) -> Vec<serenity::UserId> {
    people
        .into_iter()
        .filter_map(|p| super::post::parse_id(&p.key))
        .map(serenity::UserId::new)
        .collect()
}

/// A slash command or a button press being answered.
pub struct Call<'a> {
    http: &'a Http,
    bot: &'a Bot,
    /// The service as seen from the server the interaction comes from.
    service: Service,
    who: Person,
    channel: ChannelId,
    responder: Responder<'a>,
    /// A button was pressed: answers replace its message.
    pressed: bool,
    /// The users named in the options who are bots.
    bots: Vec<serenity::UserId>,
    /// The most bytes of files an answer here may carry.
    upload_limit: usize,
}

impl<'a> Call<'a> {
    /// A call from `who` in `channel` of `guild`, answered through the interaction `id`/`token`.
    fn new(
        http: &'a Http,
        bot: &'a Bot,
        (who, channel, guild): (Person, ChannelId, Option<serenity::GuildId>),
        (id, token): (serenity::InteractionId, &'a str),
        upload_limit_given: u32,
    ) -> Call<'a> {
        Call {
            http,
            bot,
            service: scoped(bot, guild),
            who,
            channel,
            responder: Responder::new(http, id, token, &bot.answers),
            pressed: false,
            bots: Vec::new(),
            upload_limit: upload_limit(upload_limit_given),
        }
    }

    fn channel(&self) -> String {
        self.channel.to_string()
    }

    /// Sends an answer, logging a failure (the retries are over by then; the user sees Discord's
    /// own "did not respond").
    async fn answer(&self, reply: Reply) {
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
    async fn publish(&self, view: &GameView, news: News, png: Option<Vec<u8>>) {
        let reply = news_reply(&news, view, png);
        if view.place() == Some(self.channel().as_str()) {
            match self.responder.send(&reply).await {
                Ok(()) => {
                    self.bot.direct_messages(self.http, view, &news).await;
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
        self.bot.direct_messages(self.http, view, &news).await;
    }
}

/// A game's news as a message: the sentence, the board when there is one, the pings and the
/// buttons it calls for.
pub fn news_reply(news: &News, view: &GameView, png: Option<Vec<u8>>) -> Reply {
    let mut reply =
        Reply::text(text::post(news, view, STYLE)).mention(user_ids(text::pinged(news, view)));
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
        _ => reply,
    }
}

/// Answers a refusal privately, in the service's words.
async fn refuse(c: &Call<'_>, e: ServiceError) {
    if e.is_fault() {
        tracing::error!(error = %e, "a command failed");
    }
    c.answer(Reply::private(refusal(&e))).await
}

/// A refusal as a Discord message says it.
pub fn refusal(e: &ServiceError) -> String {
    sentence(&text::refusal(e, STYLE))
}

// ----- running a command -----

/// Runs a command for the caller, deferring the answer when the work is not done soon (Discord
/// waits 3 seconds); a refusal from anywhere in it is answered here.
async fn run(c: &Call<'_>, command: Command) {
    // A pressed button whose answer replaces its message defers as an update of that message.
    let update = c.pressed
        && matches!(
            command,
            Command::Accept { .. }
                | Command::Decline { .. }
                | Command::DeclineDraw { .. }
                | Command::Takeback { decline: true, .. }
                | Command::Leaderboard { .. }
        );
    let work = dispatch(c, command);
    // The timer runs beside the work (never instead of it: the work may hold the responder while
    // an answer is on its way, and the deferral waits for that).
    let defer_later = async {
        tokio::time::sleep(DEFER_AFTER).await;
        if let Err(e) = c.responder.defer(update).await {
            tracing::warn!(error = %e, "could not defer an answer");
        }
        std::future::pending::<std::convert::Infallible>().await
    };
    let done = tokio::select! {
        done = work => done,
        never = defer_later => match never {},
    };
    if let Err(e) = done {
        refuse(c, e).await
    }
}

/// The one function that runs each command.
async fn dispatch(c: &Call<'_>, command: Command) -> Result<(), ServiceError> {
    match command {
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
                variant: &variant,
                side,
                days,
                rated,
                from: from.as_deref(),
            };
            challenges::challenge(c, opponent, terms, level).await
        }
        Command::Accept { challenge } => challenges::accept(c, challenge).await,
        Command::Decline { challenge } => challenges::decline(c, challenge).await,
        Command::Cancel { challenge } => challenges::cancel(c, challenge).await,
        Command::Move { mv, game } => play::play(c, &mv, game).await,
        Command::EndTurn { game } => play::end_turn(c, game).await,
        Command::Resign { game } => play::resign(c, game).await,
        Command::Abort { game } => play::abort(c, game).await,
        Command::Draw { game } => play::draw(c, game).await,
        Command::AcceptDraw { game } => play::accept_draw(c, game).await,
        Command::DeclineDraw { game } => play::decline_draw(c, game).await,
        Command::Takeback { game, decline } => play::takeback(c, game, decline).await,
        Command::AcceptTakeback { game } => play::accept_takeback(c, game).await,
        Command::Board { game, flip } => views::board(c, game, flip).await,
        Command::Games { player } => views::games(c, player).await,
        Command::Leaderboard { variant, page } => {
            views::leaderboard(c, variant.as_deref(), page).await
        }
        Command::Profile { player } => views::profile(c, player).await,
        Command::Rules { variant } => views::rules(c, &variant).await,
        Command::Vacation { set } => views::vacation(c, set).await,
        Command::Notify { dm } => views::notify(c, dm).await,
        Command::Record { game } => views::record(c, game).await,
        Command::Hint { game } => views::hint(c, game).await,
        Command::Import { moves, variant } => views::import(c, &moves, &variant).await,
        Command::Help { command } => help::help(c, command.as_deref()).await,
    }
}

/// A slash command: its options read by the table, then run.
async fn slash(ctx: AppContext<'_>) -> Result<(), Framework<'_>> {
    let interaction = ctx.interaction;
    let http = &ctx.serenity_context().http;
    let bot = ctx.data().as_ref();
    let mut c = Call::new(
        http,
        bot,
        (
            member_person(&interaction.user, interaction.member.as_deref()),
            interaction.channel_id,
            interaction.guild_id,
        ),
        (interaction.id, &interaction.token),
        interaction.attachment_size_limit,
    );
    c.bots = ctx
        .args
        .iter()
        .filter_map(|a| match &a.value {
            serenity::ResolvedValue::User(u, _) if u.bot => Some(u.id),
            _ => None,
        })
        .collect();
    let name: &str = &ctx.command().name;
    let command = match options(name, ctx.args) {
        Ok(given) => Command::parse(name, &given),
        Err(unreadable) => {
            c.answer(Reply::private(unreadable)).await;
            return Ok(());
        }
    };
    match command {
        Ok(command) => run(&c, command).await,
        Err(e) => refuse(&c, e).await,
    }
    Ok(())
}

/// The options Discord sent, each of the type the table registered; a value of another type
/// (Discord still showing an older registration) is answered with what could not be read.
fn options(
    name: &str,
    args: &[serenity::ResolvedOption<'_>],
) -> Result<Vec<(String, Value)>, String> {
    use serenity::ResolvedValue as R;
    let spec = crate::commands::spec(name);
    let mut given = Vec::new();
    for arg in args {
        let kind = spec
            .and_then(|s| s.options.iter().find(|o| o.name == arg.name))
            .map(|o| o.kind);
        let value = match (&arg.value, kind) {
            (R::String(s), Some(Kind::Text | Kind::Variant | Kind::Move)) => {
                Value::Text(s.to_string())
            }
            (
                R::Integer(n),
                Some(
                    Kind::Game
                    | Kind::Challenge
                    | Kind::Side
                    | Kind::Days
                    | Kind::Level
                    | Kind::Page
                    | Kind::Switch,
                ),
            ) => Value::Int(*n),
            (R::Boolean(b), Some(Kind::Flag)) => Value::Flag(*b),
            (R::User(u, m), Some(Kind::User)) => {
                Value::User(person(u, m.and_then(|m| m.nick.as_deref())))
            }
            (R::String(s), _) => {
                let shown: String = s.chars().take(50).collect();
                return Err(text::unreadable(
                    Some(&shown),
                    "it is not of the option's type",
                ));
            }
            (_, None) => {
                return Err(text::STALE_COMMAND.to_string());
            }
            _ => return Err(text::unreadable(None, "an option is not of its type")),
        };
        given.push((arg.name.to_string(), value));
    }
    Ok(given)
}

/// A pressed button: the command it stands for, run for the presser.
pub async fn pressed(http: &Http, bot: &Bot, press: &ComponentInteraction) {
    let mut c = Call::new(
        http,
        bot,
        (
            member_person(&press.user, press.member.as_ref()),
            press.channel_id,
            press.guild_id,
        ),
        (press.id, &press.token),
        press.attachment_size_limit,
    );
    c.pressed = true;
    match Button::parse(&press.data.custom_id) {
        Some(button) => run(&c, button.command()).await,
        None => {
            tracing::warn!(custom_id = %press.data.custom_id, "an unknown button");
            c.answer(Reply::private(text::STALE_BUTTON)).await
        }
    }
}

//! The slash commands and buttons. The commands are registered from the one command table
//! (`crate::commands`); a slash command or a pressed button is read into a [`Command`], applied by
//! [`commands::apply`] under the shutdown guard, and its answer shown by `show.rs`. Every refusal
//! comes back to one place ([`refuse`]) that answers it privately in the service's words. The
//! completions offered while a player types are in `complete.rs`.

mod complete;
mod show;
mod surface;

use surface::{contexts, home, may_answer_publicly, newcomer, served_here, unnotified_roles};

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, CommandOptionType, ComponentInteraction, CreateCommandOption, Http, User,
};

use super::button::Button;
use super::post::{Reply, Responder};
use super::style::DiscordStyle;
use super::{Bot, Error};
use crate::commands::{
    self, Caller, Command, Kind, Spec, Value, COMMANDS, FORMATS, SIDES, SWITCH, THEMES,
};
use crate::service::text::{self, sentence, Style};
use crate::service::{Person, Scope, Service, ServiceError};

pub use complete::matching_moves;
pub use show::news_reply;

type AppContext<'a> = poise::ApplicationContext<'a, Arc<Bot>, Error>;
type Framework<'a> = poise::FrameworkError<'a, Arc<Bot>, Error>;

/// Work that takes longer than this is deferred, so that Discord's 3 seconds are never missed.
const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The style every Discord message is written in.
const STYLE: &DiscordStyle = &DiscordStyle;

// ----- registration, from the command table -----

/// Every command, for registration. A row named in two words (`tournament create`) is a
/// subcommand of the first word's command (`/tournament create`), made from the rows that share
/// it.
pub fn all() -> Vec<poise::Command<Arc<Bot>, Error>> {
    let mut out: Vec<poise::Command<Arc<Bot>, Error>> = Vec::new();
    for spec in COMMANDS {
        let Some((group, sub)) = spec.name.split_once(' ') else {
            out.push(slash_command(spec, spec.name));
            continue;
        };
        let at = match out.iter().position(|c| c.name == group) {
            Some(at) => at,
            None => {
                let (install_context, interaction_context) = contexts(true);
                out.push(poise::Command {
                    install_context,
                    interaction_context,
                    name: group.into(),
                    qualified_name: group.into(),
                    identifying_name: group.into(),
                    source_code_name: group.into(),
                    description: Some(commands::group_description(group).into()),
                    subcommand_required: true,
                    // Never run (a subcommand is required), but poise matches only commands
                    // that have one.
                    slash_action: Some(|ctx| Box::pin(slash(ctx))),
                    ..Default::default()
                });
                out.len() - 1
            }
        };
        out[at].subcommands.push(slash_command(spec, sub));
    }
    out
}

/// Commands that only a server's managers see in Discord's list (Manage Server): the server
/// still checks it when the command is given.
const FOR_MANAGERS: [&str; 1] = ["dailypuzzle"];

/// A row as a command named `name` (the row's own name, or its subcommand's word).
fn slash_command(spec: &'static Spec, name: &'static str) -> poise::Command<Arc<Bot>, Error> {
    let (install_context, interaction_context) = contexts(spec.guild_only);
    poise::Command {
        name: name.into(),
        qualified_name: spec.name.into(),
        identifying_name: spec.name.into(),
        source_code_name: spec.name.into(),
        description: Some(spec.description.chars().take(100).collect()),
        default_member_permissions: if FOR_MANAGERS.contains(&spec.name) {
            serenity::Permissions::MANAGE_GUILD
        } else {
            serenity::Permissions::empty()
        },
        install_context,
        interaction_context,
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
        let levels = crate::engine::LEVELS;
        b.kind(CommandOptionType::Integer)
            .min_int_value(u64::from(*levels.start()))
            .max_int_value(u64::from(*levels.end()))
    }
    fn page(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer).min_int_value(1)
    }
    fn count(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer)
            .min_int_value(1)
            .max_int_value(100)
    }
    fn hour(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Integer)
            .min_int_value(0)
            .max_int_value(23)
    }
    fn name(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::String).max_length(60)
    }
    fn days(b: CreateCommandOption) -> CreateCommandOption {
        let days = crate::service::DAYS_PER_MOVE;
        b.kind(CommandOptionType::Integer)
            .min_int_value(u64::from(days[0]))
            .max_int_value(u64::from(days[days.len() - 1]))
    }
    fn flag(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Boolean)
    }
    fn user(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::User)
    }
    fn role(b: CreateCommandOption) -> CreateCommandOption {
        b.kind(CommandOptionType::Role)
    }
    let names: Vec<&'static str> = match o.kind {
        Kind::Side => SIDES.iter().map(|s| s.as_str()).collect(),
        Kind::Switch => SWITCH.to_vec(),
        Kind::Format => FORMATS.iter().map(|f| f.typed()).collect(),
        Kind::Theme => THEMES.iter().map(|t| t.name()).collect(),
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
            Kind::Text if o.name == "name" => name,
            Kind::Text | Kind::Variant | Kind::Move => text,
            Kind::Game
            | Kind::Challenge
            | Kind::Side
            | Kind::Switch
            | Kind::Format
            | Kind::Theme => integer,
            Kind::Tournament | Kind::Puzzle => page,
            Kind::Count => count,
            Kind::Hour => hour,
            Kind::Days => days,
            Kind::Level => level,
            Kind::Page => page,
            Kind::Flag => flag,
            Kind::User => user,
            Kind::Role => role,
        }),
        autocomplete_callback: match o.kind {
            Kind::Variant => Some(|ctx, partial| Box::pin(complete::variants(ctx, partial))),
            Kind::Move => Some(|ctx, partial| Box::pin(complete::legal_moves(ctx, partial))),
            Kind::Game => Some(|ctx, partial| Box::pin(complete::my_games(ctx, partial))),
            _ => None,
        },
        __non_exhaustive: (),
    }
}

// ----- who and where -----

/// The person behind a Discord user: their id, and their name on Discord as a whole (the display
/// name they chose, or their username). A server nickname is not used: names are kept once per
/// player, and a nickname given in one server is not shown in another.
pub fn person(user: &User) -> Person {
    let name = user
        .global_name
        .clone()
        .unwrap_or_else(|| user.name.clone());
    Person::new(user.id.to_string(), name)
}

/// A server's name, asked of Discord, for its team in team games ("This server" where Discord
/// does not say).
async fn server_name(http: &serenity::Http, guild: Option<serenity::GuildId>) -> String {
    match guild {
        Some(g) => match super::roster::server_seen(http, g).await {
            crate::service::ServerSeen::In(name) => name,
            _ => "This server".to_string(),
        },
        None => "This server".to_string(),
    }
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
    /// Who asks, from where, and what the answer may carry.
    caller: Caller,
    responder: Responder<'a>,
    /// A button was pressed whose answer replaces its message.
    pressed: bool,
    /// The roles named to be pinged that are not mentionable: Discord notifies nobody of them.
    unnotified: Vec<String>,
}

impl<'a> Call<'a> {
    /// A call from `who` in `channel` of `guild` (`place` is what Discord says of the channel),
    /// answered through the interaction `id`/`token`.
    fn new(
        http: &'a Http,
        bot: &'a Bot,
        (who, channel, place, guild): (
            Person,
            ChannelId,
            Option<&serenity::PartialChannel>,
            Option<serenity::GuildId>,
        ),
        (id, token): (serenity::InteractionId, &'a str),
        upload_limit_given: u32,
    ) -> Call<'a> {
        Call {
            http,
            bot,
            service: scoped(bot, guild),
            caller: Caller {
                who,
                channel: Some(channel.to_string()),
                home: Some(home(channel, place).to_string()),
                newcomers: Vec::new(),
                taflbot: bot.user.clone(),
                bots: Vec::new(),
                upload_limit: upload_limit(upload_limit_given),
                manages: false,
                roles: Vec::new(),
                server: String::new(),
            },
            responder: Responder::new(http, id, token, &bot.answers),
            pressed: false,
            unnotified: Vec::new(),
        }
    }
}

impl Caller {
    /// What the caller is in the server: whether they manage it, and the roles they hold.
    fn as_member(&mut self, member: Option<&serenity::Member>) {
        self.manages = member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild());
        self.roles = member
            .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
            .unwrap_or_default();
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

/// The help text of `/help`, made from the command table.
pub fn help_text() -> String {
    commands::help(|usage| STYLE.code(usage))
}

/// The help text of one command (or of a group's commands), as Discord shows it.
pub fn help_for(name: &str) -> Result<String, ServiceError> {
    match commands::help_specs(name).as_slice() {
        [] => Err(commands::unknown_command(name)),
        [one] => Ok(commands::help_for(one, |usage| STYLE.code(usage))),
        several => Ok(commands::help_list(several, |usage| STYLE.code(usage))),
    }
}

// ----- running a command -----

/// Runs a command for the caller under the shutdown guard (a SIGTERM lets it finish and be
/// answered), deferring the answer when the work is not done soon (Discord waits 3 seconds); a
/// refusal from anywhere in it is answered here.
async fn run(c: &Call<'_>, command: Command) {
    let _working = c.bot.inflight.enter();
    // A pressed button whose answer replaces its message defers as an update of that message.
    let update = c.pressed;
    let work = async {
        let answer = commands::apply(&c.service, &c.caller, command).await?;
        show::show(c, answer).await;
        Ok::<(), ServiceError>(())
    };
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

/// A slash command: its options read by the table, then run.
async fn slash(ctx: AppContext<'_>) -> Result<(), Framework<'_>> {
    let interaction = ctx.interaction;
    let http = &ctx.serenity_context().http;
    let bot = ctx.data().as_ref();
    let mut c = Call::new(
        http,
        bot,
        (
            person(&interaction.user),
            interaction.channel_id,
            interaction.channel.as_ref(),
            interaction.guild_id,
        ),
        (interaction.id, &interaction.token),
        interaction.attachment_size_limit,
    );
    if !may_answer_publicly(interaction) {
        c.responder.only_private();
    }
    c.unnotified = unnotified_roles(ctx.args);
    c.caller.bots = ctx
        .args
        .iter()
        .filter_map(|a| match &a.value {
            serenity::ResolvedValue::User(u, _) if u.bot => Some(u.id.to_string()),
            _ => None,
        })
        .collect();
    c.caller.as_member(interaction.member.as_deref());
    if ctx.command().qualified_name == "teamgame start" {
        c.caller.server = server_name(ctx.http(), interaction.guild_id).await;
    }
    // Who is too new here for rated play: the caller and the people the options name.
    let now = c.service.now();
    let caller_joined = interaction.member.as_ref().and_then(|m| m.joined_at);
    let named = ctx.args.iter().filter_map(|a| match &a.value {
        serenity::ResolvedValue::User(u, member) => Some((*u, member.and_then(|m| m.joined_at))),
        _ => None,
    });
    c.caller.newcomers = std::iter::once((&interaction.user, caller_joined))
        .chain(named)
        .filter(|(user, joined)| newcomer(user.id, *joined, now))
        .map(|(user, _)| user.id.to_string())
        .collect();
    let name: &str = &ctx.command().qualified_name;
    if crate::commands::spec(name).is_some_and(|s| s.guild_only) && !served_here(interaction) {
        refuse(&c, ServiceError::ServerOnly(name.to_string())).await;
        return Ok(());
    }
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
                    | Kind::Switch
                    | Kind::Format
                    | Kind::Theme
                    | Kind::Tournament
                    | Kind::Puzzle
                    | Kind::Hour
                    | Kind::Count,
                ),
            ) => Value::Int(*n),
            (R::Boolean(b), Some(Kind::Flag)) => Value::Flag(*b),
            (R::User(u, _), Some(Kind::User)) => Value::User(person(u)),
            (R::Role(r), Some(Kind::Role)) => Value::Role(crate::service::TeamRole {
                id: r.id.to_string(),
                name: r.name.clone(),
            }),
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
            person(&press.user),
            press.channel_id,
            press.channel.as_ref(),
            press.guild_id,
        ),
        (press.id, &press.token),
        press.attachment_size_limit,
    );
    c.caller.as_member(press.member.as_ref());
    // Whether the presser is too new here for rated play (an Accept of a rated challenge).
    let joined = press.member.as_ref().and_then(|m| m.joined_at);
    if newcomer(press.user.id, joined, c.service.now()) {
        c.caller.newcomers = vec![press.user.id.to_string()];
    }
    match Button::parse(&press.data.custom_id) {
        Some(button) => {
            let command = button.command();
            // Most answers to a press replace its message (another page, a challenge
            // answered); a rematch's challenge or game comes as a message of its own.
            c.pressed = command.answers_in_place();
            run(&c, command).await
        }
        None => {
            tracing::warn!(custom_id = %press.data.custom_id, "an unknown button");
            c.answer(Reply::private(text::STALE_BUTTON)).await
        }
    }
}

//! Running the bot: the client and its shards, the sweeper and the daily puzzles beside it, and
//! a clean stop that lets the commands being answered finish.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ClientBuilder, GatewayIntents, Http, HttpBuilder, ShardManager};

use super::post::{self, Poster};
use super::{commands, Bot, Config, Error};
use crate::service::{text, Service};

/// Counts the commands at work, so that a shutdown can wait for the moves in flight.
#[derive(Default)]
pub struct Inflight {
    count: AtomicUsize,
    idle: tokio::sync::Notify,
}

pub struct Working<'a>(&'a Inflight);

impl Inflight {
    pub fn enter(&self) -> Working<'_> {
        self.count.fetch_add(1, Ordering::SeqCst);
        Working(self)
    }

    /// Waits until no command is at work, or `limit` has passed.
    pub async fn idle(&self, limit: Duration) {
        let wait = async {
            loop {
                let notified = self.idle.notified();
                if self.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(limit, wait).await;
    }
}

impl Drop for Working<'_> {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// Why the bot could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("Discord refused DISCORD_TOKEN: check the bot token in the Developer Portal")]
    Token,
    #[error("could not reach Discord: {0}")]
    Discord(#[source] serenity::Error),
}

/// A client of Discord's REST side, through the configured proxy where there is one.
fn http_client(config: &Config) -> serenity::Http {
    let mut http = HttpBuilder::new(&config.token);
    if let Some(base) = &config.api_base {
        // serenity's rate limiter would send its calls past the proxy; the proxy limits instead.
        http = http.proxy(base.as_str()).ratelimiter_disabled(true);
    }
    http.build()
}

/// A bot that is connected.
pub struct Running {
    client: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    shards: Arc<ShardManager>,
    stop: tokio::sync::watch::Sender<bool>,
    sweeper: tokio::task::JoinHandle<()>,
    /// Plays the bot's turns in games against it.
    player: tokio::task::JoinHandle<()>,
    /// Makes puzzles, posts the daily ones, and sends digests and what quiet hours held.
    puzzles: [tokio::task::JoinHandle<()>; 3],
    bot: Arc<Bot>,
}

/// Connects the bot: checks the token, registers the commands once the gateway is ready, and
/// starts the sweeper that posts reminders and timeouts and the task that plays the bot's turns.
pub async fn start(config: Config, service: Service) -> Result<Running, StartError> {
    let http = http_client(&config);
    // A closing window asks Discord whether its voters are still members.
    let roster = super::roster::DiscordRoster {
        http: Arc::new(http_client(&config)),
    };
    let service = service.with_roster(Arc::new(roster));
    let me = match post::retrying(&config.posts, "check token", || http.get_current_user()).await {
        Ok(me) => {
            tracing::info!(bot = %me.name, "connected to Discord");
            me
        }
        Err(e) if post::refusal(&e).is_some_and(|(status, _)| status == 401) => {
            return Err(StartError::Token)
        }
        Err(e) => return Err(StartError::Discord(e)),
    };
    let bot = Arc::new(Bot {
        service: service.clone(),
        user: crate::service::Person::new(me.id.to_string(), me.name.clone()),
        poster: Poster {
            retry: config.posts.clone(),
        },
        answers: config.answers.clone(),
        inflight: Inflight::default(),
    });
    let framework = framework(bot.clone(), &config);
    let client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .map_err(StartError::Discord)?;
    let shards = client.shard_manager.clone();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (deliverer, http) = (bot.clone(), client.http.clone());
    // At least once a lease: a notice left claimed by a process that died is delivered soon
    // after its claim runs out.
    let sweep_every = config
        .sweep_every
        .min(Duration::from_secs(service.lease().max(1) as u64));
    let sweeper = service.spawn_sweeper(sweep_every, stopped.clone(), {
        let (deliverer, http) = (deliverer.clone(), http.clone());
        move |notice| {
            let (bot, http) = (deliverer.clone(), http.clone());
            async move { bot.deliver(&http, notice).await }
        }
    });
    let puzzles = [
        service.spawn_puzzle_maker(sweep_every, config.corpus_puzzles, stopped.clone()),
        spawn_daily_puzzles(bot.clone(), http.clone(), sweep_every, stopped.clone()),
        spawn_letters(bot.clone(), http.clone(), sweep_every, stopped.clone()),
    ];
    let player = service.spawn_bot_player(stopped, move |notice| {
        let (bot, http) = (deliverer.clone(), http.clone());
        async move { bot.deliver(&http, notice).await }
    });
    let client = tokio::spawn(run_shards(client, config.shards));
    Ok(Running {
        client,
        shards,
        stop,
        sweeper,
        player,
        puzzles,
        bot,
    })
}

/// The commands and their handlers; the process that runs shard 0 (or the only one) registers
/// the commands, in one server when `DISCORD_GUILD_ID` says so.
fn framework(data: Arc<Bot>, config: &Config) -> poise::Framework<Arc<Bot>, Error> {
    let guild = config.guild_id;
    let registers = config.shards.is_none_or(|s| s.registers());
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            on_error: |error| Box::pin(on_error(error)),
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        // The builder's own switch wins over the options' one.
        .initialize_owners(false)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                if !registers {
                    tracing::info!("commands are registered by the process that runs shard 0");
                    return Ok(data);
                }
                let registered = match guild {
                    Some(g) => {
                        poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(g))
                            .await
                    }
                    None => poise::builtins::register_globally(ctx, commands).await,
                };
                match registered {
                    Ok(()) => tracing::info!(commands = commands.len(), "commands registered"),
                    Err(e) => tracing::error!(error = %e, "could not register the commands"),
                }
                Ok(data)
            })
        })
        .build()
}

/// Runs the client's shards: the range given, or as many as Discord recommends.
async fn run_shards(
    mut client: serenity::Client,
    shards: Option<super::Shards>,
) -> Result<(), serenity::Error> {
    match shards {
        // serenity reads the range's end as included: `first..last` starts `first` to `last`
        // (pinned by a test against the fake Discord).
        Some(s) => {
            tracing::info!(
                first = s.first,
                last = s.last,
                total = s.total,
                "starting shards"
            );
            client.start_shard_range(s.first..s.last, s.total).await
        }
        None => client.start_autosharded().await,
    }
}

/// Daily posts made in one round of [`spawn_daily_puzzles`] at most.
const DAILY_POSTS_A_ROUND: usize = 50;

/// Posts each server's daily puzzle once a day, claimed first so that one process posts it.
fn spawn_daily_puzzles(
    bot: Arc<Bot>,
    http: Arc<Http>,
    every: Duration,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut rest = Duration::ZERO;
        while crate::service::rest_or_stop(rest, &mut stop).await {
            rest = every;
            // One server at a time, each claimed just before its post, so that no claim runs
            // out while others are posted; a bound per round keeps the stop prompt.
            for _ in 0..DAILY_POSTS_A_ROUND {
                let daily = match bot.service.claim_daily_puzzle().await {
                    Ok(Some(daily)) => daily,
                    Ok(None) => break,
                    Err(e) => {
                        tracing::warn!(error = %e, "daily puzzles not claimed; trying again later");
                        break;
                    }
                };
                let posted = bot.post_daily_puzzle(&http, &daily).await;
                if let Err(e) = bot.service.daily_puzzle_posted(&daily, posted).await {
                    tracing::warn!(guild = %daily.guild, error = %e, "daily post not recorded");
                }
            }
        }
    })
}

/// Sends the daily digests and what quiet hours held, as they fall due.
fn spawn_letters(
    bot: Arc<Bot>,
    http: Arc<Http>,
    every: Duration,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut rest = Duration::ZERO;
        while crate::service::rest_or_stop(rest, &mut stop).await {
            rest = every;
            bot.send_letters(&http).await;
        }
    })
}

impl Running {
    /// Stops taking commands, lets those at work finish (their moves are stored), then stops the
    /// sweeper.
    pub async fn shutdown(self) {
        self.shards.shutdown_all().await;
        self.bot.inflight.idle(Duration::from_secs(30)).await;
        let _ = self.stop.send(true);
        let _ = self.sweeper.await;
        let _ = self.player.await;
        for task in self.puzzles {
            let _ = task.await;
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), self.client).await;
    }

    /// Runs until Ctrl-C or SIGTERM (then shuts down cleanly) or until the gateway gives up.
    pub async fn until_stopped(mut self) -> Result<(), Error> {
        tokio::select! {
            _ = stop_signal() => {
                tracing::info!("stopping: finishing the commands at work");
                self.shutdown().await;
                Ok(())
            }
            ended = &mut self.client => {
                let _ = self.stop.send(true);
                match ended {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(e)) => Err(format!("the connection to Discord ended: {e}").into()),
                    Err(e) => Err(format!("the Discord client failed: {e}").into()),
                }
            }
        }
    }
}

async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Runs the bot with `config` on `service` until stopped.
pub async fn run(config: Config, service: Service) -> Result<(), Error> {
    let running = start(config, service).await?;
    running.until_stopped().await
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Arc<Bot>, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        commands::pressed(&framework.serenity_context.http, framework.user_data, press).await;
    }
    Ok(())
}

async fn on_error(error: poise::FrameworkError<'_, Arc<Bot>, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().name, %error, "a command failed");
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            let shown: Option<String> = input.map(|i| i.chars().take(50).collect());
            let what = text::unreadable(shown.as_deref(), &error.to_string());
            let reply = poise::CreateReply::default().content(what).ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::warn!(error = %e, "could not report an unreadable option");
            }
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            // Discord still shows a command as it was registered before: say so, not nothing.
            tracing::warn!(command = %ctx.command().name, %description, "a command's options do not match");
            let reply = poise::CreateReply::default()
                .content(text::STALE_COMMAND)
                .ephemeral(true);
            if let Err(e) = poise::Context::Application(ctx).send(reply).await {
                tracing::warn!(error = %e, "could not report unreadable options");
            }
        }
        poise::FrameworkError::UnknownInteraction {
            framework,
            interaction,
            ..
        } => {
            // A command or subcommand this taflbot does not have: Discord still shows one
            // registered before. Answered, so that the player is not left with "did not respond".
            tracing::warn!(command = %interaction.data.name, "an interaction names a command taflbot does not know");
            let http = &framework.serenity_context.http;
            let response = if interaction.data.autocomplete().is_some() {
                serenity::CreateInteractionResponse::Autocomplete(
                    serenity::CreateAutocompleteResponse::new(),
                )
            } else {
                serenity::CreateInteractionResponse::Message(
                    serenity::CreateInteractionResponseMessage::new()
                        .content(text::UNKNOWN_COMMAND)
                        .ephemeral(true),
                )
            };
            if let Err(e) = interaction.create_response(http, response).await {
                tracing::warn!(error = %e, "could not answer an unknown command");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "could not report a command error");
            }
        }
    }
}

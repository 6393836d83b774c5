//! The Discord adapter: slash commands and buttons (poise over serenity) in front of the game
//! service, games in threads, and the notices of the sweeper posted where the games are.

pub mod button;
pub mod commands;
pub mod post;
pub mod style;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ClientBuilder, GatewayIntents, Http, HttpBuilder, ShardManager};

use crate::service::{text, Delivery, News, Notice, Service};
use post::{Poster, Reply, Retry};

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The bot's settings, from the environment.
#[derive(Clone)]
pub struct Config {
    pub token: String,
    /// A REST proxy to send every call through (`DISCORD_API_BASE`); serenity's own rate limiter is
    /// then off, as the proxy limits.
    pub api_base: Option<String>,
    /// Register the commands in this guild only (`DISCORD_GUILD_ID`): they appear at once.
    pub guild_id: Option<u64>,
    pub answers: Retry,
    pub posts: Retry,
    /// How often deadlines are checked and notices delivered.
    pub sweep_every: Duration,
    /// The shards this process runs (`TAFLBOT_SHARDS`); every shard Discord recommends when
    /// `None`.
    pub shards: Option<Shards>,
    /// Whether puzzles are cut from the Copenhagen corpus taflbot carries, a few games at a
    /// time in the background, until all are (once per database). Finished games here are cut
    /// either way.
    pub corpus_puzzles: bool,
}

/// A range of shards for one of several processes: `FIRST-LAST/TOTAL`, both ends included (`0-1/4`
/// runs shards 0 and 1 of 4). The process running shard 0 registers the commands; the others
/// leave them be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl Shards {
    /// Whether this process registers the commands: only the one that runs shard 0.
    pub fn registers(&self) -> bool {
        self.first == 0
    }

    /// The shard that carries a server's events, as Discord routes them.
    pub fn of_guild(guild: u64, total: u32) -> u32 {
        ((guild >> 22) % u64::from(total.max(1))) as u32
    }
}

impl std::str::FromStr for Shards {
    type Err = String;

    fn from_str(text: &str) -> Result<Shards, String> {
        let wrong = || {
            format!(
                "TAFLBOT_SHARDS must be FIRST-LAST/TOTAL with FIRST <= LAST < TOTAL (for example \
                 0-1/4), not {text:?}"
            )
        };
        let (range, total) = text.trim().split_once('/').ok_or_else(wrong)?;
        let (first, last) = range.split_once('-').unwrap_or((range, range));
        let number = |n: &str| n.trim().parse::<u32>().map_err(|_| wrong());
        let shards = Shards {
            first: number(first)?,
            last: number(last)?,
            total: number(total)?,
        };
        if shards.first > shards.last || shards.last >= shards.total {
            return Err(wrong());
        }
        Ok(shards)
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("token", &"(hidden)")
            .field("api_base", &self.api_base)
            .field("guild_id", &self.guild_id)
            .field("shards", &self.shards)
            .finish_non_exhaustive()
    }
}

impl Config {
    pub fn new(token: impl Into<String>) -> Config {
        let token = token.into();
        let token = token.trim();
        Config {
            token: token.strip_prefix("Bot ").unwrap_or(token).to_string(),
            api_base: None,
            guild_id: None,
            answers: Retry::answers(),
            posts: Retry::posts(),
            sweep_every: Duration::from_secs(60),
            shards: None,
            corpus_puzzles: true,
        }
    }

    /// Reads `DISCORD_TOKEN`, `DISCORD_API_BASE`, `DISCORD_GUILD_ID`, `TAFLBOT_SHARDS` and
    /// `TAFLBOT_CORPUS_PUZZLES` (`off` leaves the corpus uncut). `None` without a token.
    pub fn from_env() -> Result<Option<Config>, String> {
        let token = match std::env::var("DISCORD_TOKEN") {
            Ok(t) if !t.trim().is_empty() => t,
            _ => return Ok(None),
        };
        let mut config = Config::new(token);
        config.api_base = std::env::var("DISCORD_API_BASE")
            .ok()
            .map(|b| b.trim().trim_end_matches('/').to_string())
            .filter(|b| !b.is_empty());
        config.guild_id = match std::env::var("DISCORD_GUILD_ID") {
            Ok(g) if !g.trim().is_empty() => Some(
                post::parse_id(g.trim())
                    .ok_or_else(|| format!("DISCORD_GUILD_ID is not a Discord id: {g:?}"))?,
            ),
            _ => None,
        };
        config.corpus_puzzles = !matches!(
            std::env::var("TAFLBOT_CORPUS_PUZZLES")
                .as_deref()
                .map(str::trim),
            Ok("off" | "0" | "false" | "no")
        );
        config.shards = match std::env::var("TAFLBOT_SHARDS") {
            Ok(s) if !s.trim().is_empty() => Some(s.parse()?),
            _ => None,
        };
        Ok(Some(config))
    }
}

/// What every command and button shares.
pub struct Bot {
    pub service: Service,
    /// taflbot itself, as its games name it.
    pub user: crate::service::Person,
    pub poster: Poster,
    pub answers: Retry,
    pub inflight: Inflight,
}

impl Bot {
    /// Posts a game's news in its thread; when Discord cannot take it now, the news is kept as a
    /// notice that the sweeper delivers later. The game itself is stored already.
    pub async fn post_or_keep(
        &self,
        http: &Http,
        view: &crate::service::GameView,
        news: &News,
        reply: &Reply,
        nonce: &str,
    ) {
        if let Err(e) = self
            .poster
            .post_to_game(http, &self.service, view, reply, nonce)
            .await
        {
            tracing::error!(game = view.id, error = %e, "could not post in the game's thread; kept for later");
            if let Err(e) = self.service.leave_notice(view.id, news).await {
                tracing::error!(game = view.id, error = %e, "could not keep the post for later");
            }
        }
    }

    /// Posts a server's daily puzzle in its channel, with the button that opens it; false when
    /// Discord would not take it.
    pub async fn post_daily_puzzle(
        &self,
        http: &Http,
        daily: &crate::service::DailyPuzzle,
    ) -> bool {
        let Some(channel) = post::parse_id(&daily.channel).map(serenity::ChannelId::new) else {
            tracing::warn!(guild = %daily.guild, "the daily puzzle's channel is not a Discord id");
            return false;
        };
        let reply = post::Reply::text(crate::service::text::daily_puzzle(
            daily,
            &style::DiscordStyle,
        ))
        .file(
            &format!("puzzle-{}.png", daily.puzzle.id),
            daily.png.clone(),
        )
        .button(button::Button::Puzzle(daily.puzzle.id));
        // Discord holds a nonce unique per author (the bot), not per channel: the day and the
        // server, in hex to fit its 25 characters.
        let guild: u64 = daily.guild.parse().unwrap_or_default();
        let nonce = format!("p{:x}g{guild:x}", daily.day);
        match self.poster.post(http, channel, &reply, &nonce).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(guild = %daily.guild, error = %e, "the daily puzzle was not posted");
                false
            }
        }
    }

    /// Opens a game's thread in its channel and stores it; none where Discord refuses.
    pub async fn open_game_thread(
        &self,
        http: &Http,
        view: &crate::service::GameView,
    ) -> Option<String> {
        let channel = view.channel.as_deref().and_then(post::parse_id)?;
        let thread = self
            .poster
            .open_thread(
                http,
                serenity::ChannelId::new(channel),
                &text::thread_name(view),
            )
            .await?
            .to_string();
        match self.service.set_thread(view.id, Some(&thread)).await {
            Ok(()) => Some(thread),
            Err(e) => {
                tracing::warn!(game = view.id, error = %e, "could not store the thread");
                None
            }
        }
    }

    /// Archives the thread of a game called off, or of a tournament called off: the server's
    /// active threads are few (1,000), and a thread of nothing would hold one for a week.
    pub async fn archive_thread(&self, http: &Http, thread: Option<&str>) {
        if let Some(thread) = thread.and_then(post::parse_id) {
            self.poster
                .archive(http, serenity::ChannelId::new(thread))
                .await;
        }
    }

    /// Opens a tournament's thread in its channel, where its news and crosstables are posted.
    pub async fn open_tournament_thread(&self, http: &Http, view: &crate::service::TournamentView) {
        let Some(channel) = view.channel.as_deref().and_then(post::parse_id) else {
            return;
        };
        let name = format!("Tournament #{} {}", view.id, view.name);
        let Some(thread) = self
            .poster
            .open_thread(http, serenity::ChannelId::new(channel), &name)
            .await
        else {
            return;
        };
        if let Err(e) = self
            .service
            .set_tournament_thread(view.id, Some(&thread.to_string()))
            .await
        {
            tracing::warn!(tournament = view.id, error = %e, "could not store the thread");
        }
    }

    /// Delivers the notices due now, claimed as the sweeper claims them: the games a command
    /// began, or a round it paired, are announced at once rather than at the next sweep.
    /// Each batch is small, so that its claim never runs out while its games' threads are being
    /// opened; the sweeper delivers whatever is left.
    pub async fn deliver_due(&self, http: &Http) {
        const BATCH: i64 = 5;
        const BATCHES: usize = 20;
        for _ in 0..BATCHES {
            let claimed = match self.service.claim_notices_up_to(BATCH).await {
                Ok(claimed) => claimed,
                Err(e) => {
                    tracing::warn!(error = %e, "could not claim notices; the sweeper will");
                    return;
                }
            };
            let full = claimed.len() as i64 == BATCH;
            for notice in claimed {
                let id = notice.id;
                let how = self.deliver(http, notice).await;
                if let Err(e) = self.service.tried(id, how).await {
                    tracing::warn!(notice = id, error = %e, "could not record a delivery");
                }
            }
            if !full {
                return;
            }
        }
    }

    /// Posts a tournament's news in its thread: the standings, the crosstable, and the winner
    /// at the end.
    async fn deliver_tournament(
        &self,
        http: &Http,
        notice: i64,
        tournament: i64,
        ended: bool,
    ) -> Delivery {
        let table = match self.service.tournament_standings(Some(tournament)).await {
            Ok(table) => table,
            Err(crate::service::ServiceError::Database(e)) => {
                tracing::warn!(notice, error = %e, "notice not delivered yet");
                return Delivery::Retry;
            }
            Err(e) => {
                tracing::warn!(notice, error = %e, "the tournament cannot be shown; given up");
                return Delivery::GiveUp;
            }
        };
        // The winner is named and pinged once, by the news of the result that ended it.
        let winner = table.view.winner.as_ref().filter(|_| ended);
        let said = text::tournament_news(&table, ended, &style::DiscordStyle);
        let mut reply = Reply::text(said).mention(
            winner
                .and_then(|w| post::parse_id(&w.key))
                .map(serenity::UserId::new),
        );
        match self.service.crosstable_picture(&table).await {
            Ok(png) => reply = reply.file("crosstable.png", png),
            Err(e) => tracing::warn!(notice, error = %e, "tournament news without its crosstable"),
        }
        let place = |id: &Option<String>| {
            id.as_deref()
                .and_then(post::parse_id)
                .map(serenity::ChannelId::new)
        };
        let nonce = format!("n{notice}");
        match self
            .poster
            .post_in(
                http,
                (place(&table.view.thread), place(&table.view.channel)),
                &reply,
                &nonce,
                || async {
                    if let Err(e) = self.service.set_tournament_thread(tournament, None).await {
                        tracing::warn!(tournament, error = %e, "could not forget the thread");
                    }
                },
            )
            .await
        {
            Ok(()) => Delivery::Delivered,
            // A tournament with no channel to post in (made outside Discord) never will have one.
            Err(serenity::Error::Other(_)) => Delivery::GiveUp,
            Err(e) => failed(notice, &e),
        }
    }

    /// Delivers a notice where its game is played, written now from its data: delivered, to be
    /// tried again, or given up (its game cannot be shown, or Discord refuses for good: the bot
    /// was removed, the channel is gone). A tournament's news goes to the tournament's thread;
    /// a game begun by a tournament gets its own thread first.
    pub async fn deliver(&self, http: &Http, notice: Notice) -> Delivery {
        if let Some(tournament) = notice.tournament() {
            let ended = notice.ends_tournament();
            return self
                .deliver_tournament(http, notice.id, tournament, ended)
                .await;
        }
        let mut view = match self.service.game(notice.game_id).await {
            Ok(view) => view,
            Err(crate::service::ServiceError::Database(e)) => {
                tracing::warn!(notice = notice.id, error = %e, "notice not delivered yet");
                return Delivery::Retry;
            }
            Err(e) => {
                tracing::warn!(notice = notice.id, error = %e, "the notice's game cannot be shown; given up");
                return Delivery::GiveUp;
            }
        };
        // News of the board (a move, the start) is delivered with the board as it is now.
        let news = notice.news();
        if news == News::Started && view.thread.is_none() {
            view.thread = self.open_game_thread(http, &view).await;
        }
        let png = if news.shows_board() {
            match self.service.game_picture(view.id).await {
                Ok(png) => Some(png),
                Err(e) => {
                    tracing::warn!(notice = notice.id, error = %e, "a kept post without its picture");
                    None
                }
            }
        } else {
            None
        };
        let reply = commands::news_reply(&news, &view, png);
        let nonce = format!("n{}", notice.id);
        match self
            .poster
            .post_to_game(http, &self.service, &view, &reply, &nonce)
            .await
        {
            Ok(_) => {
                self.direct_messages(http, &view, &news).await;
                if view.aborted {
                    self.archive_thread(http, view.thread.as_deref()).await;
                }
                Delivery::Delivered
            }
            Err(e) => failed(notice.id, &e),
        }
    }
}

/// What a failed post of a notice means: given up when Discord refuses it for good (the bot was
/// removed, the channel is gone), otherwise tried again later.
fn failed(notice: i64, e: &serenity::Error) -> Delivery {
    if post::refusal(e).is_some_and(|(status, _)| matches!(status, 403 | 404)) {
        tracing::warn!(notice, error = %e, "Discord refuses the notice for good; given up");
        Delivery::GiveUp
    } else {
        tracing::warn!(notice, error = %e, "notice not delivered yet");
        Delivery::Retry
    }
}

impl Bot {
    /// Tells the players who asked for direct messages of the turn or reminder this news brings
    /// them. A player whose direct messages are closed is told so in the game's thread, once:
    /// their direct messages are switched off.
    pub async fn direct_messages(&self, http: &Http, view: &crate::service::GameView, news: &News) {
        let style = &style::DiscordStyle;
        for to in &view.players {
            let Some(said) = text::direct_message(news, view, to, style) else {
                continue;
            };
            let Some(user) = post::parse_id(&to.key).map(serenity::UserId::new) else {
                continue;
            };
            match self.service.wants_direct_messages(to).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read a player's settings");
                    continue;
                }
            }
            let sent = match user.create_dm_channel(http).await {
                Ok(channel) => channel
                    .id
                    .send_message(
                        http,
                        // Nobody but the addressee may be pinged, whatever the text holds.
                        serenity::CreateMessage::new()
                            .content(said)
                            .allowed_mentions(serenity::CreateAllowedMentions::new().users([user])),
                    )
                    .await
                    .map(|_| ()),
                Err(e) => Err(e),
            };
            let Err(e) = sent else {
                continue;
            };
            // 50007: the user takes no direct messages from the bot.
            if post::refusal(&e).is_some_and(|(status, code)| status == 403 || code == 50007) {
                if let Err(e) = self.service.set_direct_messages(to, false).await {
                    tracing::warn!(error = %e, "could not switch direct messages off");
                }
                let note = Reply::text(text::direct_messages_closed(to, style))
                    .mention(post::parse_id(&to.key).map(serenity::UserId::new));
                let nonce = format!("dm{}-{}", view.id, view.turns);
                if let Err(e) = self
                    .poster
                    .post_to_game(http, &self.service, view, &note, &nonce)
                    .await
                {
                    tracing::warn!(game = view.id, error = %e, "could not say that DMs are closed");
                }
            } else {
                tracing::warn!(game = view.id, error = %e, "a direct message failed");
            }
        }
    }
}

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

/// A bot that is connected.
pub struct Running {
    client: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    shards: Arc<ShardManager>,
    stop: tokio::sync::watch::Sender<bool>,
    sweeper: tokio::task::JoinHandle<()>,
    /// Plays the bot's turns in games against it.
    player: tokio::task::JoinHandle<()>,
    /// Makes puzzles, and posts the daily ones.
    puzzles: [tokio::task::JoinHandle<()>; 2],
    bot: Arc<Bot>,
}

/// Connects the bot: checks the token, registers the commands once the gateway is ready, and
/// starts the sweeper that posts reminders and timeouts and the task that plays the bot's turns.
pub async fn start(config: Config, service: Service) -> Result<Running, StartError> {
    let mut http = HttpBuilder::new(&config.token);
    if let Some(base) = &config.api_base {
        // serenity's rate limiter would send its calls past the proxy; the proxy limits instead.
        http = http.proxy(base.as_str()).ratelimiter_disabled(true);
    }
    let http = http.build();
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
    let data = bot.clone();
    let guild = config.guild_id;
    let registers = config.shards.is_none_or(|s| s.registers());
    let framework = poise::Framework::builder()
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
        .build();
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
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
    ];
    let player = service.spawn_bot_player(stopped, move |notice| {
        let (bot, http) = (deliverer.clone(), http.clone());
        async move { bot.deliver(&http, notice).await }
    });
    let shards_run = config.shards;
    let client = tokio::spawn(async move {
        match shards_run {
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
    });
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

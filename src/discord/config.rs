//! The bot's settings, read from the environment, and the shards a process runs.

use std::time::Duration;

use super::post::{self, Retry};

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

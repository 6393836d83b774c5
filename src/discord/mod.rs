//! The Discord adapter: slash commands and buttons (poise over serenity) in front of the game
//! service, games in threads, and the notices of the sweeper posted where the games are.
//!
//! - `config.rs`: the settings, from the environment, and the shards a process runs;
//! - `deliver.rs`: what the bot posts of its own accord (news, threads, the daily puzzle, DMs);
//! - `running.rs`: the client, the background tasks beside it, and a clean stop;
//! - `commands/`, `button.rs`: what a user asks; `post.rs`: how anything is sent, `reply.rs`:
//!   what a message is;
//! - `roster.rs`: whether a team game's voters are still members, asked when a window closes.

pub mod button;
pub mod commands;
mod config;
mod deliver;
pub mod post;
mod reply;
mod roster;
mod running;
pub mod style;

pub use config::{Config, Shards};
pub use deliver::Bot;
pub use running::{run, start, Inflight, Running, StartError, Working};

pub type Error = Box<dyn std::error::Error + Send + Sync>;

//! Everything above the rules core: the game service, the local mode, the command line, the
//! pictures, a crash test of the running program, and the Discord bot end to end against a fake
//! Discord on 127.0.0.1. One test binary, so the crate links once.
//!
//! A feature's file holds its tests at every layer: the service's, and the end-to-end ones on
//! Discord (`versus_bot.rs`, `ratings.rs`, `moves.rs`, ...). `discord/` holds only what the
//! Discord adapter itself promises; `support.rs` what the tests share.

#[path = "../common/mod.rs"]
mod common;
#[path = "../fake_discord/mod.rs"]
mod fake_discord;
#[path = "../throwaway_pg/mod.rs"]
mod throwaway_pg;

mod challenges;
mod cli;
mod commands;
mod continued;
mod correspondence;
mod crash;
mod deadlines;
mod discord;
mod docs;
mod endings;
mod house;
mod local;
mod lookups;
mod moves;
mod notify;
mod numbering;
mod postgres;
mod puzzles;
mod ratings;
mod render;
mod reviews;
mod server_teams;
mod servers;
mod service;
mod shared;
mod sql;
mod support;
mod takeback;
mod team_raids;
mod teams;
mod themes;
mod tournaments;
mod vacation;
mod versus_bot;

//! Everything above the rules core: the game service, the local mode, the command line, the
//! pictures, a crash test of the running program, and the Discord bot end to end against a fake
//! Discord on 127.0.0.1. One test binary, so the crate links once.

#[path = "../common/mod.rs"]
mod common;
#[path = "../fake_discord/mod.rs"]
mod fake_discord;

mod cli;
mod commands;
mod continued;
mod crash;
mod discord;
mod local;
mod ratings;
mod render;
mod service;
mod support;
mod takeback;
mod vacation;
mod versus_bot;

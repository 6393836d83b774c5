//! What the Discord adapter itself promises, end to end: the real serenity client and poise
//! framework connected to a fake Discord on 127.0.0.1, with the game service on SQLite. Each test
//! checks what the fake received, and what the database holds.
//!
//! Only the adapter's own promises are here: the commands as Discord sees them, faults and
//! retries, deferral, Discord's limits, the program's start and stop. A feature's end-to-end tests
//! are in that feature's file, beside its service tests (`versus_bot.rs`, `ratings.rs`, ...); the
//! harness they share is in `support.rs`.

mod deferral;
mod faults;
mod limits;
mod process;
mod registration;
mod shards;
mod teams;
mod threads;
mod tournaments;
mod two_processes;

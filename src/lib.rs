//! taflbot plays tafl games by correspondence: on Discord, in a terminal (the local mode), and
//! from the command line.
//!
//! # Layout
//!
//! Dependencies point one way, from the roof down; nothing imports from a floor above it.
//!
//! - [`rules`]: the pure rules core (no I/O, no async). The variant table, positions, move
//!   generation, captures, endings, position strings, perft.
//! - [`engine`]: the AI, pure like the rules core: search, the evaluation and its weights as data,
//!   teaching, arena.
//! - [`notation`]: move text, canonical forms, game records, aagenielsen.dk move lists.
//! - [`render`]: pictures of boards, GIFs of games, the rating chart.
//! - [`rating`]: Glicko-2 arithmetic and the side advantage (pure).
//! - [`tournament`]: pairings and standings of tournaments of two-game matches (pure).
//! - [`store`]: the database (SQLite or PostgreSQL) and its migrations, and `copy-db`.
//! - [`service`]: the use cases (challenges, moves, endings, deadlines, the bot's turns, ratings,
//!   vacations, takebacks...) and every sentence a player reads (`service::text`). Each change is
//!   checked by the rules core and stored in one transaction.
//! - [`commands`]: what a player can ask, decided once. The command table reads a command;
//!   [`commands::apply`] turns it into use cases and returns an [`commands::Answer`], data that
//!   says what happened.
//! - [`discord`] and [`local`]: the two front ends. Each reads a command through the table, calls
//!   `apply`, and shows the answer its own way (replies, posts, buttons and threads; or plain text
//!   and saved pictures).
//! - [`cli`]: the command line's subcommands (`variants`, `moves`, `replay`, `perft`, `import`,
//!   `ai`, `arena`, `render`, `selfplay`, `tune`, `net`, and what reads and runs a command line),
//!   used by `main.rs`.
//!
//! ```
//! use taflbot::rules::{Game, Variant};
//!
//! let brandubh: &Variant = "brandubh".parse().unwrap();
//! let game = Game::new(brandubh);
//! assert_eq!(game.legal_moves().len(), 40);
//! ```

pub mod cli;
pub mod commands;
pub mod discord;
pub mod engine;
pub mod local;
pub mod notation;
pub mod rating;
pub mod render;
pub mod rules;
pub mod service;
pub mod store;
pub mod tournament;

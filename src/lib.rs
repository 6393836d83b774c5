pub mod cli;
pub mod discord;
pub mod local;
pub mod notation;
pub mod render;
pub mod rules;
pub mod service;
pub mod store;

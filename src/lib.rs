pub mod cli;
pub mod notation;
pub mod rules;

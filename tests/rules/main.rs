//! The rules core and what sits on it without I/O: one test per rule, Save the Standard and
//! Copenhagen (with its corpus), property tests over random playouts, game records, and the
//! differential test against the `hnefatafl` crate. One test binary, so the crate links once.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/peer_rules.rs"]
mod peer_rules;

mod brandubh;
mod copenhagen;
mod differential;
mod endings;
mod engine;
mod escapes;
mod fetlar;
mod linnaeus;
mod properties;
mod puzzles;
mod records;
mod reviews;
mod rule_by_rule;
mod standard;
mod tournament;

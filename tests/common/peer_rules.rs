//! The `hnefatafl` crate's rulesets closest to ours, shared by the differential test and the
//! benchmarks.
#![allow(dead_code)]

use hnefatafl::collections::PieceSet;
use hnefatafl::pieces::{Side as HSide, BASIC_PIECES};
use hnefatafl::rules::{HostilityRules, KingAttack, KingStrength, OccupyRules, PassRules, Ruleset};

/// Cartier's Tablut (RULES.md §3) in hnefatafl's terms, repetition left out.
pub const CARTIER: Ruleset = Ruleset {
    pieces: BASIC_PIECES,
    edge_escape: true,
    // Four attackers on the throne, three beside it (the empty throne closing the fourth side),
    // two elsewhere.
    king_strength: KingStrength::StrongByThrone,
    king_attack: KingAttack::Armed,
    shieldwall: None,
    exit_fort: false,
    hostile_tiles: HostilityRules {
        throne: PieceSet::all(),
        corners: PieceSet::none(),
        edge: PieceSet::none(),
    },
    occupiable_tiles: OccupyRules {
        throne: PieceSet::none(),
        corners: PieceSet::all(),
    },
    passable_tiles: PassRules {
        throne: PieceSet::none(),
    },
    slow_pieces: PieceSet::none(),
    starting_side: HSide::Attacker,
    enclosure_win: None,
    repetition_rule: None,
    draw_on_no_plays: false,
    linnaean_capture: true,
};

/// Sea Battle (RULES.md §2) as closely as hnefatafl can say it: the cargo ship is `Hammer`
/// (never the anvil) because there is no unarmed setting; encirclement and repetition left out.
pub const SEA_BATTLE: Ruleset = Ruleset {
    pieces: BASIC_PIECES,
    edge_escape: true,
    king_strength: KingStrength::Strong,
    king_attack: KingAttack::Hammer,
    shieldwall: None,
    exit_fort: false,
    hostile_tiles: HostilityRules {
        throne: PieceSet::none(),
        corners: PieceSet::none(),
        edge: PieceSet::none(),
    },
    occupiable_tiles: OccupyRules {
        throne: PieceSet::all(),
        corners: PieceSet::all(),
    },
    passable_tiles: PassRules {
        throne: PieceSet::all(),
    },
    slow_pieces: PieceSet::none(),
    starting_side: HSide::Attacker,
    enclosure_win: None,
    repetition_rule: None,
    draw_on_no_plays: false,
    linnaean_capture: false,
};

/// Linnaeus' Tablut: hnefatafl's own preset, its repetition rule left out (positions are
/// compared without their history).
pub const LINNAEUS: Ruleset = Ruleset {
    repetition_rule: None,
    ..hnefatafl::preset::rules::TABLUT
};

/// Brandubh: hnefatafl's Federation Brandubh preset, its repetition rule left out.
pub const BRANDUBH: Ruleset = Ruleset {
    repetition_rule: None,
    ..hnefatafl::preset::rules::BRANDUBH
};

/// Copenhagen in hnefatafl's preset, its repetition rule left out.
pub const COPENHAGEN: Ruleset = Ruleset {
    repetition_rule: None,
    ..hnefatafl::preset::rules::COPENHAGEN
};

/// Fetlar: Copenhagen without shieldwall or exit fort.
pub const FETLAR: Ruleset = Ruleset {
    shieldwall: None,
    exit_fort: false,
    ..COPENHAGEN
};

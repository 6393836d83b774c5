//! The catalogue of variants: each one's rules, summary and setup, as RULES.md gives them. A
//! table: [`super::variant`] builds the boards from it.

use super::variant::{Escape, Family, Jumps, KingCapture, Repetition, Row, Rules, Throne};

const TAFL: Rules = Rules {
    king_armed: true,
    king_capture: KingCapture::Custodian,
    escape: Escape::Edge,
    berserk: false,
    jumps: None,
    throne: None,
    corners: false,
    encirclement: false,
    shieldwall: false,
    exit_fort: false,
    repetition: Repetition::DefendersLose,
    no_move_draws: false,
    armies: false,
};

const TYR: Rules = Rules {
    berserk: true,
    ..TAFL
};
const TYR_COMMANDERS: Rules = Rules {
    jumps: Some(Jumps::FriendOrFoe),
    ..TYR
};
const ODIN: Rules = Rules {
    jumps: Some(Jumps::EnemiesOnly),
    ..TYR
};
const SEA_BATTLE: Rules = Rules {
    king_armed: false,
    king_capture: KingCapture::FourSides,
    encirclement: true,
    ..TAFL
};
const TABLUT: Rules = Rules {
    king_capture: KingCapture::NearThrone,
    throne: Some(Throne::Cartier),
    repetition: Repetition::Illegal,
    ..TAFL
};
const STANDARD: Rules = Rules {
    king_armed: true,
    king_capture: KingCapture::FourSides,
    escape: Escape::None,
    repetition: Repetition::Draw,
    armies: true,
    ..TAFL
};

const COPENHAGEN: Rules = Rules {
    king_capture: KingCapture::Copenhagen,
    escape: Escape::Corner,
    throne: Some(Throne::Copenhagen),
    corners: true,
    encirclement: true,
    shieldwall: true,
    exit_fort: true,
    repetition: Repetition::Perpetual,
    ..TAFL
};

/// Tablut as Linnaeus' account is read by the `hnefatafl` crate: Cartier's board, moves and
/// captures, but games that cannot be won are drawn.
const LINNAEUS: Rules = Rules {
    repetition: Repetition::Draw,
    no_move_draws: true,
    ..TABLUT
};

/// Brandubh as the `hnefatafl` crate's Federation Brandubh preset plays it.
const BRANDUBH: Rules = Rules {
    king_capture: KingCapture::NearThrone,
    escape: Escape::Corner,
    throne: Some(Throne::Copenhagen),
    corners: true,
    encirclement: true,
    repetition: Repetition::PerpetualEitherSide,
    ..TAFL
};

/// Fetlar Hnefatafl (the Fetlar Hnefatafl Panel's rules): Copenhagen without shieldwalls or exit
/// forts, and repetition draws.
const FETLAR: Rules = Rules {
    shieldwall: false,
    exit_fort: false,
    repetition: Repetition::Draw,
    ..COPENHAGEN
};

const COPENHAGEN_SUMMARY: &str = "The rules of aagenielsen.dk and hnefatafl.org. Attackers move first. Only \
the king may stop on the throne f6 or a corner; any piece may pass the empty throne. Custodian capture; the \
king is armed. The corners are hostile to all, the throne to the attackers always and to the defenders when \
empty. Shieldwall: a row of two or more pieces along an edge, each faced by an enemy, is captured when the \
mover closes both ends (a corner may close one); a king in the row survives. The king is captured on four \
sides, or three and the throne, never on the edge. The defenders win when the king reaches a corner or \
builds an exit fort (on the edge, free to move, walled in by defenders that cannot be captured); the \
attackers win by capturing the king or by encirclement. Defenders who repeat the same pair of moves back \
and forth three times in a row lose.";

const TYR_SUMMARY: &str = "Attackers move first. No throne and no special squares. Custodian capture by any two \
pieces; the king is armed and weak (two attackers capture him). The king escapes on any edge square. Berserk: \
after a capture the same piece may move again while it keeps capturing, and the king may end such a chain with a \
run to the edge. A defenders' move that repeats a position for the third time loses.";
const TYR_COMMANDERS_SUMMARY: &str = "TYR with commanders: as TYR, and a commander may also jump over one \
adjacent piece (friend or foe, never the king or a commander) onto the empty square beyond; the jump captures \
from its landing square and may start or continue a berserk chain.";
const ODIN_SUMMARY: &str =
    "ODIN: TYR with commanders that jump only enemy pieces, and V-men that change sides \
instead of leaving the board when captured (a change of side counts as a capture for berserk).";
const SEA_BATTLE_SUMMARY: &str = "Attackers move first. No special squares. Custodian capture of every piece \
but the cargo ship, which is unarmed and is captured only by attackers on all four sides. The defenders win \
when the cargo ship reaches any edge square; the attackers win by capturing it, or by encirclement: no defender \
can reach the edge. A defenders' move that repeats a position for the third time loses.";
const TABLUT_SUMMARY: &str = "Cartier's rules. Muscovites (attackers) move first. No piece may stop on or pass \
the throne e5, not even the king once he has left it. The empty throne is hostile to both sides. The king is \
armed; he is captured by four attackers on the throne, three beside it, two elsewhere, and escapes on any edge \
square. A move that would repeat a position for the third time is illegal.";
const LINNAEUS_SUMMARY: &str = "Tablut as Linnaeus' account is most often read today. Board, moves and \
captures as in Cartier's `tablut`: attackers first, nobody stops on or passes the throne e5 (the king may not \
return), the empty throne is hostile to both sides, the king is armed and is captured by four attackers on the \
throne, three beside it, two elsewhere, and escapes on any edge square. Games that cannot be won are drawn: a \
position reached for the third time is a draw, and so is a side left with pieces but no move.";
const BRANDUBH_SUMMARY: &str = "The Irish 7x7 game: 8 attackers against 4 defenders and an armed king. \
Attackers move first. Only the king may stop on the throne d4 or a corner; any piece passes the empty throne. \
The corners are hostile to all, the king included; the throne to the attackers always and to the defenders when \
empty. The king is captured by four attackers on the throne, three beside it (the throne closing the fourth), \
two elsewhere (or one against a corner). The defenders win when the king reaches a corner; the attackers win by \
capturing him or by encirclement. A side that shuttles the same pair of moves back and forth three times in a \
row loses; so does a side with no move.";
const FETLAR_SUMMARY: &str = "The rules of the Fetlar Hnefatafl Panel (2007). Copenhagen's board and start; \
attackers move first. Only the king may stop on the throne f6 or a corner; any piece passes the empty throne. \
Custodian capture; the king is armed. The corners are hostile to all, the throne to the attackers always and \
to the defenders when empty. The king is captured on four sides, or three and the throne, never on the edge. \
The defenders win when the king reaches a corner; the attackers win by capturing him or by encircling every \
defender. No shieldwall and no exit fort. A position reached for the third time is a draw; a side with no move \
loses.";
const STANDARD_SUMMARY: &str = "Two armies, two home fields, a river with three bridges. Gold opens with one \
attacking move; then each turn is a defending move (a piece in its own field) and an attacking move (a piece in \
the enemy field). Only Infantry crosses bridges; Infantry may not stop on a Hill or Haven. Cavalry may end a \
rook move with one step at right angles. Capture by sandwich, Hills and Havens counting as the capturer's; a \
Standard needs enemies on all four sides, and may take Cavalry standing on a Hill or Haven by moving onto it. \
Win by capturing the enemy Standard or by bringing yours to one of your Havens. A third repetition is a draw.";

macro_rules! row {
    ($id:literal, $name:literal, $family:ident, $w:literal x $h:literal, $rules:ident, $summary:ident, $setup:literal) => {
        Row {
            id: $id,
            name: $name,
            family: Family::$family,
            files: $w,
            ranks: $h,
            setup: $setup,
            rules: $rules,
            summary: $summary,
        }
    };
}

/// The table. Setups are RULES.md's diagrams written as position strings.
pub const TABLE: &[Row] = &[
    row!("tyr-11", "TYR 11x11 (Simple Tyr)", Tyr, 11 x 11, TYR, TYR_SUMMARY,
        "t2t3t2t/11/2t2t2t2/t2t1T1t2t/4TTT4/2tTTKTTt2/4TTT4/t2t1T1t2t/2t2t2t2/11/t2t3t2t a"),
    row!("tyr-15", "TYR 15x15 (Simple Tyr)", Tyr, 15 x 15, TYR, TYR_SUMMARY,
        "t2t3t3t2t/15/2t2t3t2t2/t2t2t1t2t2t/4T2T2T4/2t3T1T3t2/3t1T1T1T1t3/t3T1TKT1T3t/3t1T1T1T1t3/2t3T1T3t2/4T2T2T4/t2t2t1t2t2t/2t2t3t2t2/15/t2t3t3t2t a"),
    row!("tyr-17", "TYR 17x17 (Simple Tyr)", Tyr, 17 x 17, TYR, TYR_SUMMARY,
        "t3t3t3t3t/17/2t3t1t1t3t2/3t3t1t3t3/t3t3T3t3t/5T2T2T5/2t4T1T4t2/3t2T1T1T2t3/t1t1TT1TKT1TT1t1t/3t2T1T1T2t3/2t4T1T4t2/5T2T2T5/t3t3T3t3t/3t3t1t3t3/2t3t1t1t3t2/17/t3t3t3t3t a"),
    row!("tyr-commanders-11", "TYR with commanders 11x11", Tyr, 11 x 11, TYR_COMMANDERS, TYR_COMMANDERS_SUMMARY,
        "t2t3t2t/11/2t2t2t2/t2c1T1c2t/4TTT4/2tTTKTTt2/4TTT4/t2c1T1c2t/2t2t2t2/11/t2t3t2t a"),
    row!("tyr-commanders-15", "TYR with commanders 15x15", Tyr, 15 x 15, TYR_COMMANDERS, TYR_COMMANDERS_SUMMARY,
        "t2t3t3t2t/15/2t2t3t2t2/t2c2t1t2c2t/4T2T2T4/2t3T1T3t2/3t1T1T1T1t3/t3T1TKT1T3t/3t1T1T1T1t3/2t3T1T3t2/4T2T2T4/t2c2t1t2c2t/2t2t3t2t2/15/t2t3t3t2t a"),
    row!("tyr-commanders-17", "TYR with commanders 17x17", Tyr, 17 x 17, TYR_COMMANDERS, TYR_COMMANDERS_SUMMARY,
        "t3t3t3t3t/17/2t3t1t1t3t2/3c3t1t3c3/t3t3T3t3t/5T2T2T5/2t4T1T4t2/3t2T1T1T2t3/t1t1TT1TKT1TT1t1t/3t2T1T1T2t3/2t4T1T4t2/5T2T2T5/t3t3T3t3t/3c3t1t3c3/2t3t1t1t3t2/17/t3t3t3t3t a"),
    row!("odin-11", "ODIN 11x11", Odin, 11 x 11, ODIN, ODIN_SUMMARY,
        "t2t3t2t/5c5/2t1vt2t2/t2t1CVt2t/3VTTT1v2/1ctCTKTCtc1/2v1TTTV3/t2tVC1t2t/2t2tv1t2/5c5/t2t3t2t a"),
    row!("odin-15", "ODIN 15x15", Odin, 15 x 15, ODIN, ODIN_SUMMARY,
        "t2t3t3t2t/7c7/2t2t1v1t2t2/t2t2t1t2t2t/4T2C2T4/2t3TVT3t2/3t1T1T1T1t3/tcv1CVTKTVC1vct/3t1T1T1T1t3/2t3TVT3t2/4T2C2T4/t2t2t1t2t2t/2t2t1v1t2t2/7c7/t2t3t3t2t a"),
    row!("odin-17", "ODIN 17x17", Odin, 17 x 17, ODIN, ODIN_SUMMARY,
        "t3t3t3t3t/8c8/2t1v1t1t1t3t2/3t3t1t3t3/t3t3C3t1v1t/5T2T2T5/2t4TVT4t2/3t2T1T1T2t3/tct1CTVTKTVTC1tct/3t2T1T1T2t3/2t4TVT4t2/5T2T2T5/t1v1t3C3t3t/3t3t1t3t3/2t3t1t1t1v1t2/8c8/t3t3t3t3t a"),
    row!("sea-battle-9", "Sea Battle 9x9", SeaBattle, 9 x 9, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "4t4/1t2t2t1/2t3t2/3TTT3/tt1TKT1tt/3TTT3/2t3t2/1t2t2t1/4t4 a"),
    row!("sea-battle-11", "Sea Battle 11x11", SeaBattle, 11 x 11, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "3ttttt3/5t5/5T5/t4T4t/t4T4t/ttTTTKTTTtt/t4T4t/t4T4t/5T5/5t5/3ttttt3 a"),
    row!("sea-battle-13", "Sea Battle 13x13", SeaBattle, 13 x 13, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4 a"),
    row!("sea-battle-15", "Sea Battle 15x15", SeaBattle, 15 x 15, SEA_BATTLE, SEA_BATTLE_SUMMARY,
        "5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5 a"),
    row!("tablut", "Tablut (Cartier)", Tablut, 9 x 9, TABLUT, TABLUT_SUMMARY,
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"),
    row!("tablut-linnaeus", "Tablut (Linnaeus)", Tablut, 9 x 9, LINNAEUS, LINNAEUS_SUMMARY,
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"),
    row!("brandubh", "Brandubh 7x7", Brandubh, 7 x 7, BRANDUBH, BRANDUBH_SUMMARY,
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a"),
    row!("copenhagen", "Copenhagen Hnefatafl 11x11", Copenhagen, 11 x 11, COPENHAGEN, COPENHAGEN_SUMMARY,
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a"),
    row!("fetlar", "Fetlar Hnefatafl 11x11", Copenhagen, 11 x 11, FETLAR, FETLAR_SUMMARY,
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a"),
    row!("standard-7", "Save the Standard 7", SaveTheStandard, 7 x 15, STANDARD, STANDARD_SUMMARY,
        "3H3/3i3/I2i2I/IIisiII/I2i2I/3i3/3H3/7/3h3/3I3/i2I2i/iiISIii/i2I2i/3I3/3h3 g slot:attacking"),
    row!("standard-13", "Save the Standard 13", SaveTheStandard, 13 x 27, STANDARD, STANDARD_SUMMARY,
        "5III5/6I6/6H6/6i6/6i6/I5i5I/IIHiiisiiiHII/I5i5I/6i6/6i6/6H6/6I6/5III5/13/5iii5/6i6/6h6/6I6/6I6/i5I5i/iihIIISIIIhii/i5I5i/6I6/6I6/6h6/6i6/5iii5 g slot:attacking"),
];

//! Copenhagen Hnefatafl: the corpus of 1,752 real games replayed move for move and capture for
//! capture, perft from the start, and one test per rule from position strings.

mod common;

use common::{play, pos, refusal};
use taflbot::notation::import_moves;
use taflbot::rules::{perft, Outcome, Position, Reason, Side, Variant};

fn copenhagen() -> &'static Variant {
    Variant::by_id("copenhagen").unwrap()
}

fn won(side: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(side, reason))
}

#[test]
fn every_game_of_the_corpus_replays_with_its_captures_and_its_result() {
    let corpus = include_str!("data/copenhagen.csv");
    let mut games = 0;
    let mut failures = Vec::new();
    let mut ended_by_rules = 0;
    for (line, row) in corpus.lines().enumerate() {
        let mut fields = row.rsplitn(4, ',');
        let result = fields.next().unwrap();
        let moves = fields.nth(2).unwrap();
        games += 1;
        // Every move legal, every written capture exactly the engine's (the king's capture is not
        // written), and no game ended by the rules before its last move.
        let game = match import_moves(copenhagen(), moves) {
            Ok(game) => game,
            Err(e) => {
                failures.push(format!("game {}: {e}", line + 1));
                continue;
            }
        };
        if let Some(outcome) = game.outcome() {
            ended_by_rules += 1;
            let winner = match result {
                "Black" => Some(Side::Attackers),
                "White" => Some(Side::Defenders),
                _ => None,
            };
            if outcome.winner != winner {
                failures.push(format!(
                    "game {}: the moves end it as {outcome:?}, the record says {result}",
                    line + 1
                ));
            }
        }
    }
    assert_eq!(games, 1752);
    assert!(
        failures.is_empty(),
        "{} of {games} games fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Most games end by resignation; many end by the rules, and those agree with the record.
    assert!(ended_by_rules > 300, "{ended_by_rules}");
}

#[test]
fn perft_from_the_start() {
    let start = Position::start(copenhagen());
    assert_eq!(perft(&start, 1), 116);
    assert_eq!(perft(&start, 2), 6_788);
    assert_eq!(perft(&start, 3), 806_344);
}

#[test]
#[ignore = "about a minute; run with --ignored"]
fn perft_depth_four() {
    assert_eq!(perft(&Position::start(copenhagen()), 4), 50_456_804);
}

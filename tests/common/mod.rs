//! Helpers shared by the rules tests: positions from a list of pieces, moves by their text.
#![allow(dead_code)]

use taflbot::notation::{canonical, read_move};
use taflbot::rules::{parse_position, Position, Square, Variant};

/// Writes the position string of a board with the given pieces ("Kf6 te5 Tg6": letter, square),
/// side letter and extra fields, then reads it as a position of the variant.
pub fn pos(variant: &str, side_and_fields: &str, pieces: &str) -> Position {
    let text = position_string(variant, side_and_fields, pieces);
    parse_position(Variant::by_id(variant).unwrap(), &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn position_string(variant: &str, side_and_fields: &str, pieces: &str) -> String {
    let v = Variant::by_id(variant).unwrap();
    let mut grid = vec![vec!['.'; v.files as usize]; v.ranks as usize];
    for word in pieces.split_whitespace() {
        let letter = word.chars().next().unwrap();
        let sq: Square = word[1..].parse().unwrap();
        grid[sq.rank() as usize][sq.file() as usize] = letter;
    }
    let mut rows = Vec::new();
    for rank in (0..v.ranks as usize).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for c in &grid[rank] {
            if *c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(*c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {side_and_fields}", rows.join("/"))
}

/// Plays a move written as text; returns the new position and the canonical text (with captures).
pub fn play(p: &Position, text: &str) -> (Position, String) {
    let (m, _) = read_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}\n{p:?}"));
    let written = canonical(p, m);
    let (next, _) = p.play(m).unwrap();
    (next, written)
}

/// The refusal of a move, as the player reads it.
pub fn refusal(p: &Position, text: &str) -> String {
    match read_move(p, text) {
        Ok((m, _)) => panic!("{text} was accepted as {m:?}"),
        Err(e) => e.to_string(),
    }
}

/// Plays moves written as text in a game, each of which must be legal.
pub fn shuffle(game: &mut taflbot::rules::Game, moves: &[&str]) {
    for text in moves {
        let (m, _) = read_move(game.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// A Copenhagen game of `turns` turns, none of them ending it: random quiet moves, seeded.
pub fn long_copenhagen_game(turns: usize) -> Vec<String> {
    let v = Variant::by_id("copenhagen").unwrap();
    let mut rng = taflbot::rules::random::Rng::new(800);
    let mut game = taflbot::rules::Game::new(v);
    let mut written = Vec::new();
    while written.len() < turns {
        let pos = game.position().clone();
        let moves = game.legal_moves();
        let quiet: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| {
                pos.play(*m)
                    .is_ok_and(|(next, caught)| next.outcome().is_none() && caught.is_empty())
            })
            .collect();
        assert!(!quiet.is_empty(), "a quiet move at turn {}", written.len());
        let m = quiet[rng.below(quiet.len())];
        written.push(taflbot::notation::canonical(&pos, m));
        game.play(m).unwrap();
        assert!(game.outcome().is_none(), "turn {}", written.len());
    }
    written
}

/// What replaying a set of recorded games found.
#[derive(Debug, Default)]
pub struct SetReplay {
    /// Rows that hold a game.
    pub games: usize,
    /// Games that ended within their moves (by the rules or a `timeout`).
    pub ended: usize,
    pub timeouts: usize,
    /// What went wrong, a line a game.
    pub failures: Vec<String>,
}

/// Replays every game of a set written as aagenielsen.dk writes them
/// (`moves,attacker_captures,defender_captures,result`): every move legal, every written capture
/// exactly the engine's (the king's is not written), and every game that ends within its moves
/// ending with the record's winner. Rows without a result hold no game and are skipped.
pub fn replay_set(variant: &str, set: &str) -> SetReplay {
    let variant = Variant::by_id(variant).unwrap();
    let mut out = SetReplay::default();
    for (line, row) in set.lines().enumerate() {
        let mut fields = row.rsplitn(4, ',');
        let result = fields.next().unwrap();
        let moves = fields.nth(2).unwrap();
        if result.is_empty() {
            continue;
        }
        out.games += 1;
        let game = match taflbot::notation::import_moves(variant, moves) {
            Ok(game) => game,
            Err(e) => {
                out.failures.push(format!("game {}: {e}", line + 1));
                continue;
            }
        };
        let Some(outcome) = game.outcome() else {
            continue;
        };
        out.ended += 1;
        out.timeouts += usize::from(outcome.reason == taflbot::rules::Reason::Timeout);
        let winner = taflbot::notation::listed_winner(result);
        if outcome.winner != winner {
            out.failures.push(format!(
                "game {}: the moves end it as {outcome:?}, the record says {result}",
                line + 1
            ));
        }
    }
    out
}

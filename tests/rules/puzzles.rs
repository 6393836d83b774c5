//! Puzzles cut from the Copenhagen corpus are sound: read back from the text `taflbot puzzles`
//! prints, the solution wins, it is forced against every reply, and its first move is the only
//! one that wins in as many moves. Checked here by a plain minimax of our own, apart from the
//! cutter's search.

use taflbot::engine::puzzle::{cut, MAX_SOLVER_MOVES};
use taflbot::notation::{import_moves, listed_winner, play_turn, TurnEnd};
use taflbot::rules::{parse_position, write_position, Game, Side, Variant};

/// Whether the side to move wins, whatever the other side does, within `moves` of its own moves.
fn forced(game: &Game, moves: u32) -> bool {
    let side = game.position().turn();
    moves > 0
        && game.legal_moves().into_iter().any(|m| {
            let mut g = game.clone();
            g.play(m).unwrap();
            match g.outcome() {
                Some(o) => o.winner == Some(side),
                None => holds(&g, side, moves - 1),
            }
        })
}

/// Whether `winner` still wins within `moves` of its moves after every reply in `game`.
fn holds(game: &Game, winner: Side, moves: u32) -> bool {
    let replies = game.legal_moves();
    moves > 0
        && !replies.is_empty()
        && replies.into_iter().all(|r| {
            let mut g = game.clone();
            g.play(r).unwrap();
            g.outcome().is_none() && g.position().turn() == winner && forced(&g, moves)
        })
}

#[test]
fn puzzles_cut_from_the_corpus_are_sound() {
    let copenhagen = Variant::by_id("copenhagen").unwrap();
    let mut puzzles = Vec::new();
    for row in include_str!("../../data/copenhagen.csv").lines() {
        if puzzles.len() == 6 {
            break;
        }
        let mut fields = row.split(',');
        let game = import_moves(copenhagen, fields.next().unwrap()).unwrap();
        let winner = match game.outcome() {
            Some(o) => o.winner,
            None => fields.next_back().and_then(listed_winner),
        };
        puzzles.extend(winner.and_then(|w| cut(&game, w)));
    }
    assert_eq!(puzzles.len(), 6);
    let mut themes = std::collections::HashSet::new();
    for p in &puzzles {
        // As stored and shown: the position's text and the solution's.
        let position = write_position(p.game.position());
        let start = Game::from_position(parse_position(copenhagen, &position).unwrap());
        let solution = p.written();
        assert_eq!(solution.len() % 2, 1, "{solution:?}");
        let solver = start.position().turn();
        let length = solution.len().div_ceil(2) as u32;
        assert!(length <= MAX_SOLVER_MOVES);

        // The solution wins.
        let mut g = start.clone();
        for (i, mv) in solution.iter().enumerate() {
            assert!(g.outcome().is_none(), "{position}: over before {mv}");
            play_turn(&mut g, mv, TurnEnd::Whole).unwrap();
            // Forced against every reply: after each solver move, whatever the reply.
            if i % 2 == 0 && g.outcome().is_none() {
                let left = length - (i as u32 / 2) - 1;
                assert!(holds(&g, solver, left), "{position}: {solution:?} at {mv}");
            }
        }
        assert_eq!(g.outcome().unwrap().winner, Some(solver), "{position}");

        // Its first move is the only one that wins in as many moves.
        let winning: Vec<String> = start
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut g = start.clone();
                g.play(m).unwrap();
                match g.outcome() {
                    Some(o) => o.winner == Some(solver),
                    None => holds(&g, solver, length - 1),
                }
            })
            .map(|m| taflbot::notation::canonical(start.position(), m))
            .collect();
        assert_eq!(winning, [solution[0].clone()], "{position}");
        // And the shortest: no win in fewer moves.
        assert!(!forced(&start, length - 1), "{position}");
        themes.insert(p.theme);
    }
    assert!(themes.len() >= 2, "{themes:?}");
}

#[test]
fn a_puzzle_move_is_judged_right_solved_or_failed() {
    use taflbot::engine::puzzle::{judge, Judged};
    let copenhagen = Variant::by_id("copenhagen").unwrap();
    let mut judged = 0;
    for row in include_str!("../../data/copenhagen.csv").lines() {
        let mut fields = row.split(',');
        let game = import_moves(copenhagen, fields.next().unwrap()).unwrap();
        let winner = match game.outcome() {
            Some(o) => o.winner,
            None => fields.next_back().and_then(listed_winner),
        };
        let Some(p) = winner.and_then(|w| cut(&game, w)) else {
            continue;
        };
        let solver = p.game.position().turn();
        // Every move of the solution, in turn: right until the last, which solves it.
        let mut g = p.game.clone();
        for step in 0..p.solution.len().div_ceil(2) {
            let m = p.solution[2 * step];
            g.play(m).unwrap();
            let verdict = judge(&g, solver, &p.solution, step, m);
            match p.solution.get(2 * step + 1) {
                Some(&reply) if g.outcome().is_none() => {
                    assert_eq!(verdict, Judged::Right { reply });
                    g.play(reply).unwrap();
                }
                _ => assert_eq!(verdict, Judged::Solved),
            }
        }
        // A first move that is not the solution's and does not win at once fails.
        let wrong = p
            .game
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut g = p.game.clone();
                g.play(m).unwrap();
                m != p.solution[0] && g.outcome().is_none()
            })
            .unwrap();
        let mut g = p.game.clone();
        g.play(wrong).unwrap();
        assert_eq!(judge(&g, solver, &p.solution, 0, wrong), Judged::Failed);
        judged += 1;
        if judged == 4 {
            break;
        }
    }
    assert_eq!(judged, 4);
}

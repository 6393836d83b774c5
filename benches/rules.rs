//! Rules-core speed: listing legal moves, playing a capturing move, and whole random games.
//! Positions come from seeded random playouts, so every run measures the same positions.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use taflbot::notation::import_moves;
use taflbot::rules::random::{playout, Rng, Step};
use taflbot::rules::{Move, Position, Variant};

mod common;
use common::midgame_positions;

const MIDGAME_VARIANTS: [&str; 6] = [
    "tyr-11",
    "tyr-17",
    "odin-15",
    "sea-battle-11",
    "tablut",
    "standard-13",
];

/// Capturing moves with the positions they are played in.
fn capturing_moves(id: &str, count: usize) -> Vec<(Position, Move)> {
    let v = Variant::by_id(id).unwrap();
    let start = Position::start(v);
    let mut out = Vec::new();
    let mut seed = 1000;
    while out.len() < count {
        let mut rng = Rng::new(seed);
        seed += 1;
        playout(&start, &mut rng, 200, |pos, step| {
            if let Step::Moved(m) = step {
                let mut after = pos.clone();
                if !after.play_unchecked(*m).is_empty() && out.len() < count {
                    out.push((pos.clone(), *m));
                }
            }
        });
    }
    out
}

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for id in MIDGAME_VARIANTS {
        let positions = midgame_positions(id, 64);
        let total: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
        group.throughput(Throughput::Elements(positions.len() as u64));
        let mut buf = Vec::with_capacity(512);
        group.bench_function(
            format!("{id} ({} moves per position)", total / positions.len()),
            |b| {
                b.iter(|| {
                    for p in &positions {
                        p.legal_moves_into(&mut buf);
                        black_box(buf.len());
                    }
                })
            },
        );
    }
    group.finish();
}

fn play(c: &mut Criterion) {
    let mut group = c.benchmark_group("play_capture");
    for id in ["tyr-11", "tyr-17", "odin-15", "sea-battle-11", "tablut"] {
        let cases = capturing_moves(id, 64);
        group.throughput(Throughput::Elements(cases.len() as u64));
        group.bench_function(id, |b| {
            b.iter(|| {
                for (p, m) in &cases {
                    let mut next = p.clone();
                    black_box(next.play_unchecked(*m));
                    black_box(next.outcome());
                }
            })
        });
        // The copy alone, to tell what the play costs beyond it.
        group.bench_function(format!("{id} (copy only)"), |b| {
            b.iter(|| {
                for (p, _) in &cases {
                    black_box(p.clone());
                }
            })
        });
    }
    group.finish();
}

fn random_game(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    for id in ["tyr-11", "tablut", "sea-battle-11"] {
        let start = Position::start(Variant::by_id(id).unwrap());
        let mut seed = 0u64;
        group.bench_function(id, |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    Rng::new(seed)
                },
                |mut rng| black_box(playout(&start, &mut rng, 10_000, |_, _| {})),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// The same positions in the `hnefatafl` crate (MIT), set to our rules as far as it can be: Cartier's
/// Tablut fully (bar repetition), Sea Battle with its closest king setting. The differential test
/// checks that both engines list the same moves for such positions.
#[path = "../tests/common/peer_rules.rs"]
mod peer_rules;

mod peer {
    use hnefatafl::aliases::MediumBasicBoardState;
    use hnefatafl::board::state::BoardState;
    use hnefatafl::game::logic::GameLogic;
    use hnefatafl::game::state::GameState;
    use hnefatafl::pieces::Side as HSide;
    use hnefatafl::play::Play;
    use taflbot::rules::{write_position, Position};

    pub type Board = MediumBasicBoardState;

    pub use super::peer_rules::{CARTIER, SEA_BATTLE};

    /// Both formats list the rows from the top with t, T and K.
    pub fn state(pos: &Position) -> GameState<Board> {
        let text = write_position(pos);
        let mut fields = text.split_whitespace();
        let board = fields.next().unwrap();
        let side = if fields.next() == Some("a") {
            HSide::Attacker
        } else {
            HSide::Defender
        };
        GameState::new(board, side).unwrap()
    }

    pub fn legal_moves(logic: &GameLogic<Board>, state: &GameState<Board>, out: &mut Vec<Play>) {
        out.clear();
        for tile in state.board.occupied_by_side(state.side_to_play) {
            out.extend(logic.iter_plays(tile, state).unwrap().map(|p| p.play));
        }
    }
}

fn peer_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("peer_legal_moves");
    for (id, rules, n) in [
        ("tablut", peer::CARTIER, 9),
        ("sea-battle-11", peer::SEA_BATTLE, 11),
    ] {
        let positions = midgame_positions(id, 64);
        let logic = hnefatafl::game::logic::GameLogic::<peer::Board>::new(rules, n);
        let states: Vec<_> = positions.iter().map(peer::state).collect();
        let mut buf = Vec::with_capacity(512);
        for (p, st) in positions.iter().zip(&states) {
            peer::legal_moves(&logic, st, &mut buf);
            assert_eq!(
                buf.len(),
                p.legal_moves().len(),
                "the peer lists as many moves"
            );
        }
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("hnefatafl {id}"), |b| {
            b.iter(|| {
                for st in &states {
                    peer::legal_moves(&logic, st, &mut buf);
                    black_box(buf.len());
                }
            })
        });
    }
    group.finish();
}

/// Mid-game positions from the Copenhagen corpus: after plies 20, 30, 40 and 50 of its games, while
/// the game goes on.
fn corpus_positions(count: usize) -> Vec<Position> {
    let v = Variant::by_id("copenhagen").unwrap();
    let mut out = Vec::new();
    for line in CORPUS.lines() {
        let moves: Vec<&str> = line.split(',').next().unwrap().split_whitespace().collect();
        for ply in [20, 30, 40, 50] {
            if ply < moves.len() && out.len() < count {
                let game = import_moves(v, &moves[..ply].join(" ")).unwrap();
                if game.outcome().is_none() {
                    out.push(game.position().clone());
                }
            }
        }
        if out.len() >= count {
            break;
        }
    }
    out
}

const CORPUS: &str = include_str!("../data/copenhagen.csv");

/// Copenhagen side by side with the `hnefatafl` crate's Copenhagen preset: legal moves of the start
/// and of corpus positions, and replaying the whole corpus with every move checked.
fn copenhagen(c: &mut Criterion) {
    use hnefatafl::game::Game as PeerGame;
    use hnefatafl::play::Play;
    use hnefatafl::preset::{boards, rules};
    let v = Variant::by_id("copenhagen").unwrap();
    let logic = hnefatafl::game::logic::GameLogic::<peer::Board>::new(rules::COPENHAGEN, 11);
    let mut group = c.benchmark_group("copenhagen");
    let mut buf = Vec::with_capacity(512);
    let mut peer_buf = Vec::with_capacity(512);
    for (name, positions) in [
        ("start", vec![Position::start(v)]),
        ("corpus mid-game", corpus_positions(64)),
    ] {
        let states: Vec<_> = positions.iter().map(peer::state).collect();
        for (p, st) in positions.iter().zip(&states) {
            peer::legal_moves(&logic, st, &mut peer_buf);
            assert_eq!(
                peer_buf.len(),
                p.legal_moves().len(),
                "the peer lists as many moves"
            );
        }
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("legal moves, {name}: taflbot"), |b| {
            b.iter(|| {
                for p in &positions {
                    p.legal_moves_into(&mut buf);
                    black_box(buf.len());
                }
            })
        });
        group.bench_function(format!("legal moves, {name}: hnefatafl"), |b| {
            b.iter(|| {
                for st in &states {
                    peer::legal_moves(&logic, st, &mut peer_buf);
                    black_box(peer_buf.len());
                }
            })
        });
    }
    // The whole corpus: taflbot checks every move and every written capture; the peer checks every
    // move (its plays are parsed beforehand, as ours are parsed inside the import).
    let lines: Vec<&str> = CORPUS
        .lines()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    let peer_games: Vec<Vec<Option<Play>>> = lines
        .iter()
        .map(|l| {
            l.split_whitespace()
                .map(|w| (w != "timeout").then(|| w.split('x').next().unwrap().parse().unwrap()))
                .collect()
        })
        .collect();
    group.sample_size(10);
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.bench_function("replay the corpus: taflbot", |b| {
        b.iter(|| {
            for l in &lines {
                black_box(import_moves(v, l).unwrap().move_count());
            }
        })
    });
    group.bench_function("replay the corpus: hnefatafl", |b| {
        b.iter(|| {
            for plays in &peer_games {
                let mut g: PeerGame<peer::Board> =
                    PeerGame::new(rules::COPENHAGEN, boards::COPENHAGEN).unwrap();
                for p in plays.iter().flatten() {
                    black_box(g.do_play(*p).unwrap());
                }
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    legal_moves,
    play,
    random_game,
    peer_legal_moves,
    copenhagen
);
criterion_main!(benches);

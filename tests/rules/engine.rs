//! The engine's tactics: positions cut from random games of every variant and from the
//! Copenhagen corpus where the side to move wins at once, and hand-made ones for a forced escape
//! in two, a king captured, a Standard brought home and a berserk chain of three captures. Each
//! is searched on a budget of a million positions, so that the result does not depend on how busy
//! the machine is (a one-second limit once let a loaded machine find a shorter chain).

use crate::common;

use common::{pos, position_string};
use taflbot::engine::{steps, take, think, Settings, Step, Thought};
use taflbot::notation::import_moves;
use taflbot::rules::random::{playout, Rng};
use taflbot::rules::{parse_position, Game, Outcome, Position, Reason, Side, Variant};

fn a_million_nodes() -> Settings {
    Settings::nodes(1_000_000)
}

fn think_in(position: &Position) -> Thought {
    let game = Game::from_position(position.clone());
    think(&game, &a_million_nodes()).expect("a game in play")
}

/// Whether `step` wins at once for the side to move in `game`.
fn wins_at_once(game: &Game, step: Step) -> bool {
    let side = game.position().turn();
    let mut after = game.clone();
    take(&mut after, step).is_ok() && after.outcome().is_some_and(|o| o.winner == Some(side))
}

/// Positions from seeded random games where the side to move has a winning step: the first
/// such position of each game, from as many games as it takes.
fn wins_in_one(variant: &'static Variant, wanted: usize) -> Vec<Position> {
    let mut found = Vec::new();
    for seed in 1..400 {
        if found.len() == wanted {
            break;
        }
        let mut first: Option<Position> = None;
        playout(
            &Position::start(variant),
            &mut Rng::new(seed),
            400,
            |pos, _| {
                if first.is_none() {
                    let game = Game::from_position(pos.clone());
                    if steps(&game).into_iter().any(|s| wins_at_once(&game, s)) {
                        first = Some(pos.clone());
                    }
                }
            },
        );
        found.extend(first);
    }
    found
}

#[test]
fn every_family_takes_a_win_in_one() {
    for variant in Variant::all() {
        let positions = wins_in_one(variant, 3);
        assert!(!positions.is_empty(), "{}: no position found", variant.id);
        for p in positions {
            let thought = think_in(&p);
            let game = Game::from_position(p.clone());
            assert!(
                wins_at_once(&game, thought.turn[0]),
                "{}: {:?} does not win at once in `{}`",
                variant.id,
                thought.turn[0],
                taflbot::rules::write_position(&p)
            );
            assert_eq!(thought.won_in, Some(1), "{}", variant.id);
        }
    }
}

#[test]
fn copenhagen_games_won_by_their_last_move_are_won_by_the_engine_too() {
    let corpus = include_str!("../../data/copenhagen.csv");
    let copenhagen = Variant::by_id("copenhagen").unwrap();
    let mut tried = 0;
    for row in corpus.lines() {
        let moves = row.rsplitn(4, ',').nth(3).unwrap();
        let list: Vec<&str> = moves.split_whitespace().collect();
        let Ok(whole) = import_moves(copenhagen, moves) else {
            continue;
        };
        let ended_by_a_move = whole
            .outcome()
            .is_some_and(|o| matches!(o.reason, Reason::KingEscaped | Reason::KingCaptured));
        if !ended_by_a_move || list.len() < 2 {
            continue;
        }
        let before = import_moves(copenhagen, &list[..list.len() - 1].join(" ")).unwrap();
        let thought = think(&before, &a_million_nodes()).unwrap();
        assert!(
            wins_at_once(&before, thought.turn[0]),
            "game `{}`: the engine played {:?}",
            row.chars().take(60).collect::<String>(),
            thought.turn
        );
        tried += 1;
        if tried == 40 {
            break;
        }
    }
    assert_eq!(tried, 40);
}

/// After the engine's first step, every reply leaves it a win at once.
fn assert_forced_in_two(position: &Position) {
    let thought = think_in(position);
    assert_eq!(thought.won_in, Some(3), "{:?}", thought);
    let mut game = Game::from_position(position.clone());
    take(&mut game, thought.turn[0]).unwrap();
    assert_eq!(game.outcome(), None);
    for reply in steps(&game) {
        let mut after = game.clone();
        take(&mut after, reply).unwrap();
        assert!(
            after.outcome().is_none() && steps(&after).into_iter().any(|s| wins_at_once(&after, s)),
            "{reply:?} holds the king"
        );
    }
}

#[test]
fn a_king_with_two_roads_open_escapes_in_two() {
    // Edge escape: from d4 the king reaches c4 or b4, where two files lie open to the edges.
    assert_forced_in_two(&pos("tablut", "d", "Kd4 Ta4 Td9 Td1 Ti4 ti9 th8"));
    assert_forced_in_two(&pos("tyr-11", "d", "Kd4 Ta4 Td11 Td1 Tk4 tk10 tj9"));
    assert_forced_in_two(&pos("sea-battle-11", "d", "Kd4 Ta4 Td11 Td1 Tk4 tk10 tj9"));
    // Corner escape: on c1 the king has a1 and k1 before him.
    assert_forced_in_two(&pos("copenhagen", "d", "Kc5 Tb5 Td5 tf11 th7"));
    assert_forced_in_two(&pos("fetlar", "d", "Kc5 Tb5 Td5 tf11 th7"));
    assert_forced_in_two(&pos("brandubh", "d", "Kc4 Tb4 tf6 tg5"));
}

#[test]
fn the_attackers_capture_the_king_when_they_can() {
    for (variant, pieces) in [
        ("copenhagen", "Ke5 te6 td5 tf5 th4 Tb2"),
        ("tablut", "Kc3 tb3 td6 Ti9"),
        ("brandubh", "Kc2 tb2 td6 Tg3"),
        ("tyr-11", "Kc3 tb3 td6 Tk9"),
    ] {
        let p = pos(variant, "a", pieces);
        let thought = think_in(&p);
        let game = Game::from_position(p.clone());
        assert!(
            wins_at_once(&game, thought.turn[0]),
            "{variant}: {thought:?}"
        );
    }
}

#[test]
fn the_standard_goes_home() {
    let text = position_string("standard-7", "g slot:defending", "Sa3 Ic2 sd12 ic13 ie12");
    let p = parse_position(Variant::by_id("standard-7").unwrap(), &text).unwrap();
    let thought = think_in(&p);
    assert_eq!(thought.won_in, Some(1));
    let game = Game::from_position(p);
    let mut after = game.clone();
    take(&mut after, thought.turn[0]).unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(Side::GOLD, Reason::StandardSaved))
    );
}

#[test]
fn a_berserk_chain_takes_three() {
    // a4-c4 takes c5, c4-f4 takes f5, f4-f2 takes g2. The king is boxed in by his own men, who
    // are held by attackers; the man on b10 is free to move.
    let p = pos(
        "tyr-11",
        "a",
        "ta4 tc6 tf6 th2 Tc5 Tf5 Tg2 Ki9 Th9 Tj9 Ti8 Ti10 tg9 th8 th10 tk9 tj8 tj10 ti7 ti11 Tb10",
    );
    let thought = think_in(&p);
    assert!(thought.won_in.is_none() && thought.score > 0, "{thought:?}");
    let mut game = Game::from_position(p.clone());
    let before = game.position().count(Side::Defenders);
    for &step in &thought.turn {
        take(&mut game, step).unwrap();
    }
    assert_eq!(
        before - game.position().count(Side::Defenders),
        3,
        "{:?}",
        thought.turn
    );
    assert_eq!(game.position().turn(), Side::Defenders, "the turn is whole");
}

#[test]
fn in_the_arena_level_3_beats_random_greedy_and_level_1_players() {
    use taflbot::engine::arena::{run, Player};
    for id in ["brandubh", "tablut", "sea-battle-9", "tyr-11", "standard-7"] {
        let v = Variant::by_id(id).unwrap();
        for b in [Player::Random, Player::Greedy, Player::Level(1)] {
            let t = run(v, Player::Level(3), b, 2, 300, 7);
            assert_eq!(t.games(), 4);
            assert!(t.score() >= 0.75, "{id}, level 3 against {b:?}: {t:?}");
        }
    }
}

#[test]
fn where_games_can_be_drawn_the_start_counts_as_even() {
    use taflbot::engine::eval::Board;
    let at_start = |id: &str| {
        let v = Variant::by_id(id).unwrap();
        Board::of(v).evaluate(&Position::start(v))
    };
    // Fetlar and Linnaeus' Tablut draw by repetition: a draw is weighed against an even start,
    // not against the attackers' greater number of men.
    assert_eq!(at_start("fetlar"), 0);
    assert_eq!(at_start("tablut-linnaeus"), 0);
    // Save the Standard's armies are alike.
    assert_eq!(at_start("standard-7"), 0);
    // Copenhagen cannot end drawn; its scores are the terms as they are: by the classic weights
    // the attackers' greater number of men, by the taught ones (with their bias) the defenders'
    // better chances.
    let classic = |id: &str| {
        let v = Variant::by_id(id).unwrap();
        Board::with(v, taflbot::engine::Eval::Classic).evaluate(&Position::start(v))
    };
    assert!(classic("copenhagen") > 0, "{}", classic("copenhagen"));
    assert_ne!(at_start("copenhagen"), 0);
}

#[test]
fn a_search_remembers_the_kings_room_only_where_attackers_and_king_stand_alike() {
    use taflbot::engine::eval::{Board, Rooms};
    // TYR and ODIN count the room; Copenhagen only once mopping up; Save the Standard remembers
    // its Standards' roads home the same way.
    for id in [
        "tyr-11",
        "tyr-17",
        "odin-15",
        "copenhagen",
        "standard-7",
        "standard-13",
    ] {
        let v = Variant::by_id(id).unwrap();
        let board = Board::of(v);
        let mut seen = std::collections::HashSet::new();
        // One slot, where every position meets the one before it, and the slots of a search.
        // (A ring with the king inside and outside: the test below.)
        for mut rooms in [Rooms::with_bits(board, 0), Rooms::for_board(board)] {
            for seed in 0..6 {
                // Each position twice: once as it comes, once after the rest of its game, with
                // the rooms of other positions (the king moved, an attacker moved) remembered
                // between.
                let mut game = Vec::new();
                playout(&Position::start(v), &mut Rng::new(seed), 200, |pos, _| {
                    game.push(pos.clone());
                });
                for pos in game.iter().chain(game.iter().rev()) {
                    let score = board.evaluate_with(pos, &mut rooms);
                    assert_eq!(score, board.evaluate(pos), "{id}\n{pos:?}");
                    seen.insert(score);
                }
            }
        }
        assert!(seen.len() > 30, "{id}: {}", seen.len());
    }
}

#[test]
fn a_corner_counts_a_few_guards_and_no_more() {
    use taflbot::engine::eval::Board;
    use taflbot::engine::weights::Group;
    use taflbot::engine::Eval;
    // The classic weights: the taught ones weigh each square besides.
    let weight = |v: &Variant, g: Group| Eval::Classic.weights(v.family).of(g)[0];
    for id in ["copenhagen", "fetlar"] {
        let v = Variant::by_id(id).unwrap();
        let score = |pieces: &str| Board::with(v, Eval::Classic).evaluate(&pos(id, "a", pieces));
        // Three attackers close a1; a fourth on its approaches adds nothing, while the same man
        // on k1's approaches counts as a guard there.
        let crowded = score("ta3 tb2 tc1 tb3 Kf6 Te7");
        let spread = score("ta3 tb2 tc1 tj2 Kf6 Te7");
        let three = score("ta3 tb2 tc1 th7 Kf6 Te7");
        assert_eq!(crowded, three, "{id}");
        assert_eq!(spread - crowded, weight(v, Group::Guard), "{id}");
    }
}

#[test]
fn a_closed_ring_cuts_the_kings_room_to_its_inside() {
    use taflbot::engine::eval::{Board, Rooms};
    use taflbot::engine::weights::Group;
    use taflbot::engine::Eval;
    let weight = |v: &Variant, g: Group| Eval::Classic.weights(v.family).of(g)[0];
    let board = |v: &'static Variant| Board::with(v, Eval::Classic);
    // Where the room counts: every TYR board, ODIN's from 15x15 (on 11x11 its sides lock).
    for (id, counted) in [("tyr-11", true), ("odin-11", false), ("odin-15", true)] {
        let v = Variant::by_id(id).unwrap();
        let (last_file, ranks) = ((b'a' + v.files - 1) as char, v.ranks);
        // Attackers on the border of the box c3..i9 and on the top left corner, the king in the
        // box's middle, a defender on d5.
        let mut ring: Vec<String> = Vec::new();
        for f in 'c'..='i' {
            for r in 3..=9 {
                if f == 'c' || f == 'i' || r == 3 || r == 9 {
                    ring.push(format!("t{f}{r}"));
                }
            }
        }
        let closed = ring.join(" ") + &format!(" ta{ranks} Kf6 Td5");
        // The man on c5 moved to the bottom right corner: the defender on d5 stands between the
        // gap and the king's lines, so only the room changes.
        let open = closed.replace("tc5", &format!("t{last_file}1"));
        let score = |pieces: &str| board(v).evaluate(&pos(id, "d", pieces));
        // Inside, the king has the box's 25 squares; through the gap, the board's squares less
        // the 25 attackers'.
        let through_gap = i32::from(v.files) * i32::from(v.ranks) - 25;
        // The king has one man left against 25 attackers: the room counts as well for the
        // mop-up, on every board.
        assert!(taflbot::engine::eval::mopping_up(&pos(id, "d", &closed)));
        let room = if counted { weight(v, Group::Room) } else { 0 } + weight(v, Group::MopUp);
        assert_eq!(
            score(&open) - score(&closed),
            room * (through_gap - 25),
            "{id}"
        );
        assert!(weight(v, Group::Room) > 0, "{id}");
        // With a single slot to remember rooms in, the king outside the same ring is not given
        // the room inside it, nor the king inside the room through the gap.
        let outside = closed.replace("Kf6", "Kb2");
        let mut rooms = Rooms::with_bits(board(v), 0);
        for pieces in [&closed, &outside, &open, &closed] {
            let p = pos(id, "d", pieces);
            let remembered = board(v).evaluate_with(&p, &mut rooms);
            assert_eq!(remembered, board(v).evaluate(&p), "{id}: {pieces}");
        }
    }
}

#[test]
fn the_kings_routes_and_forks_are_counted_square_by_square() {
    use taflbot::engine::eval::Board;
    use taflbot::engine::weights::Group;
    use taflbot::engine::Eval;
    let v = Variant::by_id("copenhagen").unwrap();
    let terms = |pieces: &str| {
        let row = Board::with(v, Eval::Taught)
            .row(&pos("copenhagen", "d", pieces))
            .0;
        (row[Group::Routes.at()], row[Group::Forks.at()])
    };
    // From c3 the king reaches a3, k3, c1 and c11, each on an edge with both ways to its corners
    // open: four routes, each a fork.
    assert_eq!(terms("Kc3 tf9"), (4, 4));
    // An attacker on j1 closes c1's way to k1: c1 keeps one line.
    assert_eq!(terms("Kc3 tf9 tj1"), (4, 3));
    // One on c2 stops him reaching c1 at all; one on b3 stops a3.
    assert_eq!(terms("Kc3 tf9 tc2 tb3"), (2, 2));
}

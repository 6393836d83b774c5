//! Properties over random playouts of every variant, perft from every start, and parsers fed
//! arbitrary text.

use proptest::prelude::*;
use taflbot::notation::{canonical, parse_move, read_move, read_record, write_record};
use taflbot::rules::random::{play_random, playout, Rng, Step};
use taflbot::rules::{
    fold, parse_position, parse_setup, perft, write_position, Escape, Game, Move, Placed, Position,
    Reason, Role, Side, Slot, Variant, FOLDED,
};

/// Perft from every start. Tablut's counts (both readings) are those of independent engines,
/// Brandubh's those two independent engines agree on, Copenhagen's those four agree on; the others
/// are this engine's own, kept so that any change to the move tree shows.
#[test]
fn perft_from_every_start() {
    let expected: &[(&str, [u64; 3])] = &[
        ("tablut", [80, 4_400, 353_200]),
        ("tablut-linnaeus", [80, 4_400, 353_200]),
        ("brandubh", [40, 960, 39_512]),
        ("fetlar", [116, 6_788, 806_344]),
        ("tyr-11", [152, 6_132, 935_392]),
        ("tyr-15", [308, 43_096, 13_320_040]),
        ("tyr-17", [428, 77_104, 33_007_100]),
        ("tyr-commanders-11", [152, 6_132, 938_208]),
        ("tyr-commanders-15", [308, 43_096, 13_331_296]),
        ("tyr-commanders-17", [428, 77_104, 33_021_628]),
        ("odin-11", [188, 3_868, 714_984]),
        ("odin-15", [348, 40_328, 13_990_776]),
        ("odin-17", [468, 76_684, 35_760_004]),
        ("sea-battle-9", [116, 3_164, 353_688]),
        ("sea-battle-11", [128, 12_992, 1_669_528]),
        ("sea-battle-13", [184, 23_436, 4_370_608]),
        ("sea-battle-15", [264, 35_584, 9_420_728]),
        ("standard-7", [56, 1_776, 96_876]),
        ("standard-13", [265, 39_086, 10_422_874]),
        ("copenhagen", [116, 6_788, 806_344]),
    ];
    assert_eq!(
        expected.len(),
        Variant::all().len(),
        "every variant has its perft"
    );
    for (id, counts) in expected {
        let start = Position::start(Variant::by_id(id).unwrap());
        let got: Vec<u64> = (1..=3).map(|d| perft(&start, d)).collect();
        assert_eq!(got, counts.to_vec(), "{id}");
    }
}

/// The deeper counts published for the small boards: Brandubh to depth 5 and Linnaeus' Tablut to
/// depth 4, exact-length counting (a finished game adds nothing past its own ply).
#[test]
fn perft_deeper_on_the_small_boards() {
    let counts = |id: &str, depth: u32| perft(&Position::start(Variant::by_id(id).unwrap()), depth);
    assert_eq!(counts("brandubh", 4), 1_007_392);
    assert_eq!(counts("brandubh", 5), 41_843_336);
    assert_eq!(counts("tablut-linnaeus", 4), 19_913_864);
    assert_eq!(counts("tablut", 4), 19_913_864);
}

/// The setups hold the piece counts that RULES.md states.
#[test]
fn setups_have_the_stated_pieces() {
    let count = |id: &str, side: Side, role: Role| {
        Position::start(Variant::by_id(id).unwrap())
            .pieces(side)
            .filter(|(_, p)| p.role == role)
            .count()
    };
    use Role::*;
    use Side::*;
    for (id, men) in [
        ("tyr-11", (24, 12)),
        ("tyr-15", (40, 20)),
        ("tyr-17", (48, 24)),
    ] {
        assert_eq!(
            (count(id, Attackers, Man), count(id, Defenders, Man)),
            men,
            "{id}"
        );
        assert_eq!(count(id, Defenders, King), 1);
        let commanders = id.replace("tyr", "tyr-commanders");
        assert_eq!(count(&commanders, Attackers, Commander), 4);
        assert_eq!(count(&commanders, Attackers, Man), men.0 - 4);
    }
    for (id, attackers, defenders) in [("odin-11", 24, 8), ("odin-15", 40, 16), ("odin-17", 48, 20)]
    {
        assert_eq!(count(id, Attackers, Man), attackers, "{id}");
        assert_eq!(count(id, Defenders, Man), defenders, "{id}");
        for side in [Attackers, Defenders] {
            assert_eq!(count(id, side, Commander), 4, "{id}");
            assert_eq!(count(id, side, VMan), 4, "{id}");
        }
    }
    for (id, attackers, defenders) in [
        ("tablut", 16, 8),
        ("tablut-linnaeus", 16, 8),
        ("brandubh", 8, 4),
        ("copenhagen", 24, 12),
        ("fetlar", 24, 12),
    ] {
        assert_eq!(count(id, Attackers, Man), attackers, "{id}");
        assert_eq!(count(id, Defenders, Man), defenders, "{id}");
        assert_eq!(count(id, Defenders, King), 1, "{id}");
    }
    for (id, field) in [("standard-7", 7), ("standard-13", 13)] {
        for side in [Side::GOLD, Side::RED] {
            assert_eq!(count(id, side, Standard), 1, "{id}");
            assert_eq!(
                count(id, side, Infantry),
                (field - 1) + if field == 7 { 8 } else { 16 },
                "{id}"
            );
            assert_eq!(
                count(id, side, Cavalry),
                if field == 7 { 2 } else { 4 },
                "{id}"
            );
        }
    }
}

/// The position's counts of pieces by class of square agree with its pieces counted afresh.
fn check_placed(pos: &Position) {
    let v = pos.variant();
    let mut want = [[0u8; FOLDED]; 3];
    for side in [Side::Attackers, Side::Defenders] {
        for (sq, piece) in pos.pieces(side) {
            let kind = match side {
                Side::Attackers => Placed::Attackers,
                _ if pos.royal(side) == Some(sq) => Placed::DefendersRoyal,
                _ => Placed::Defenders,
            };
            assert!(
                kind != Placed::DefendersRoyal || matches!(piece.role, Role::King | Role::Standard)
            );
            want[kind as usize][fold(sq.file(), sq.rank(), v.files, v.ranks)] += 1;
        }
    }
    for kind in [Placed::Attackers, Placed::Defenders, Placed::DefendersRoyal] {
        assert_eq!(
            pos.placed(kind),
            &want[kind as usize],
            "{kind:?}: {}",
            write_position(pos)
        );
    }
}

/// Checks one step of a playout.
fn check_step(before: &Position, step: &Step) {
    check_placed(before);
    let v = before.variant();
    let moves = before.legal_moves();
    match step {
        Step::EndedTurn => {
            assert!(before.chain().is_some());
            return;
        }
        Step::Moved(m) => assert!(moves.contains(m)),
    }
    // Every listed move is accepted by the checker as itself, and its written form reads back.
    for &m in &moves {
        assert_eq!(before.check(m), Ok(m), "{}: {m:?}", write_position(before));
        let text = canonical(before, m);
        let (read, _) = read_move(before, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(read, m, "{text}");
    }
    let Step::Moved(m) = *step else {
        unreachable!()
    };
    let mut after = before.clone();
    let captures = after.play_unchecked(m);
    // Pieces are conserved except by capture; a V-man changes sides instead.
    let mover = before.turn();
    let flips = captures
        .iter()
        .filter(|sq| after.piece_at(*sq).is_some_and(|p| p.role == Role::VMan))
        .count();
    let taken = captures.len() - flips;
    assert_eq!(
        after.count(mover),
        before.count(mover) + flips,
        "{}",
        write_position(before)
    );
    assert_eq!(
        after.count(mover.other()),
        before.count(mover.other()) - taken - flips,
        "{} {m:?}",
        write_position(before)
    );
    // Only a Standard captures on the square it moves to (Cavalry on a Hill or Haven).
    let replaces = before
        .piece_at(m.from)
        .is_some_and(|p| p.role == Role::Standard)
        && before
            .piece_at(m.to)
            .is_some_and(|p| p.role == Role::Cavalry)
        && matches!(
            v.terrain(m.to),
            taflbot::rules::Terrain::Hill | taflbot::rules::Terrain::Haven
        );
    assert!(
        captures.iter().all(|sq| sq != m.to) || replaces,
        "{} {m:?} {captures:?}",
        write_position(before)
    );
    // The position string reads back as the same position, with the same key.
    let text = write_position(&after);
    let back = parse_position(v, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, after, "{text}");
    assert_eq!(back.hash(), after.hash(), "{text}");
    assert_eq!(back.outcome(), after.outcome(), "{text}");
    // The counts kept by role agree with the board.
    for side in Side::BOTH {
        assert_eq!(after.count(side), after.pieces(side).count(), "{text}");
        for &role in v.roles() {
            let piece = taflbot::rules::Piece::new(side, role);
            let on_board = after.pieces(side).filter(|(_, p)| *p == piece).count();
            assert_eq!(after.count_of(piece) as usize, on_board, "{text} {piece:?}");
        }
    }
    // Outcomes agree with the board.
    match after.outcome() {
        None => assert!(!after.legal_moves().is_empty(), "{text}"),
        Some(o) => {
            assert!(after.legal_moves().is_empty());
            match o.reason {
                Reason::KingCaptured => assert_eq!(after.royal(Side::Defenders), None),
                Reason::KingEscaped => {
                    let king = after.royal(Side::Defenders).unwrap();
                    let on_edge = king.file() == 0
                        || king.rank() == 0
                        || king.file() == v.files - 1
                        || king.rank() == v.ranks - 1;
                    let corner = v.terrain(king) == taflbot::rules::Terrain::Corner;
                    match v.rules.escape {
                        Escape::Edge => assert!(on_edge, "{text}"),
                        Escape::Corner => assert!(corner, "{text}"),
                        Escape::None => panic!("{text}: no escape in this variant"),
                    }
                }
                Reason::ExitFort => {
                    let king = after.royal(Side::Defenders).unwrap();
                    assert!(v.rules.exit_fort && v.edge_contains(king), "{text}");
                    assert_eq!(after.turn(), Side::Attackers, "{text}");
                }
                Reason::StandardCaptured => {
                    assert_eq!(after.royal(o.winner.unwrap().other()), None)
                }
                Reason::StandardSaved => {
                    let s = after.royal(o.winner.unwrap()).unwrap();
                    assert_eq!(v.terrain(s), taflbot::rules::Terrain::Haven)
                }
                Reason::Encircled => {
                    assert!(v.rules.encirclement);
                    assert_eq!(after.turn(), Side::Defenders)
                }
                Reason::NoMoves => assert_eq!(o.winner, Some(after.turn().other())),
                other => panic!("a position cannot end by {other:?}"),
            }
        }
    }
    // Save the Standard's slots come in order: defending, attacking, then the other side.
    if let (Some(slot), Some(next_slot)) = (before.slot(), after.slot()) {
        if after.outcome().is_none() {
            let same_side = after.turn() == mover;
            match (slot, same_side) {
                (Slot::Defending, true) => assert_eq!(next_slot, Slot::Attacking),
                (Slot::Defending, false) | (Slot::Attacking, false) => {}
                (Slot::Attacking, true) => panic!("the attacking slot is the turn's last"),
            }
        }
    }
}

/// A variant's seed for random games, from its id: a new table row changes no other row's games.
fn seed_of(v: &Variant) -> u64 {
    v.id.bytes().fold(17, |h: u64, b| {
        h.wrapping_mul(31).wrapping_add(u64::from(b))
    }) % 1_000_003
}

#[test]
fn random_playouts_keep_every_rule() {
    for v in Variant::all() {
        let i = seed_of(v);
        let start = Position::start(v);
        for game in 0..12 {
            let mut rng = Rng::new(i * 1000 + game);
            playout(&start, &mut rng, 400, check_step);
        }
    }
}

#[test]
fn random_games_write_and_read_back_as_records() {
    for v in Variant::all() {
        let i = seed_of(v);
        for seed in 0..4 {
            let mut rng = Rng::new(seed * 77 + i);
            let mut game = Game::new(v);
            play_random(&mut game, &mut rng, 300);
            let text = write_record(&game, &[("Attackers", "alice"), ("Defenders", "bob")]);
            let record = read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(record.game.position(), game.position(), "{text}");
            assert_eq!(record.game.outcome(), game.outcome(), "{text}");
            assert_eq!(record.tag("Defenders"), Some("bob"));
            assert_eq!(
                write_record(
                    &record.game,
                    &[("Attackers", "alice"), ("Defenders", "bob")]
                ),
                text
            );
        }
    }
}

#[test]
fn games_of_every_variant_end_by_the_rules() {
    // Random games reach real endings: each variant's royal piece is both captured and brought
    // home within a bounded number of seeded games, so a rule that never fires shows.
    for v in Variant::all() {
        let wanted: &[Reason] = if v.rules.armies {
            &[Reason::StandardCaptured, Reason::StandardSaved]
        } else {
            &[Reason::KingCaptured, Reason::KingEscaped]
        };
        let mut seen = std::collections::HashSet::new();
        let mut games = 0;
        while games < 1000 && !wanted.iter().all(|r| seen.contains(r)) {
            let mut rng = Rng::new(games + 7919 * seed_of(v));
            let end = playout(&Position::start(v), &mut rng, 3000, |_, _| {});
            if let Some(o) = end.outcome() {
                seen.insert(o.reason);
            }
            games += 1;
        }
        for r in wanted {
            assert!(seen.contains(r), "{}: {r:?} in none of {games} games", v.id);
        }
    }
}

/// Text a user might type: square-like pieces glued with separators.
fn movey() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-qA-Z0-9 xX/^:\\-]{0,24}").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn move_text_never_panics(text in movey(), any in any::<String>(), v in any::<prop::sample::Index>()) {
        let variant = v.get(Variant::all());
        let pos = Position::start(variant);
        let _ = parse_move(&text);
        let _ = read_move(&pos, &text);
        let _ = read_move(&pos, &any);
    }

    #[test]
    fn position_text_never_panics(
        text in proptest::string::string_regex("[0-9tTkKcCvVsSiIhHq/ ]{0,60}( [adgrx]( chain:[a-q][0-9]{1,2}| slot:[a-z]{0,9})?)?").unwrap(),
        any in any::<String>(),
        v in any::<prop::sample::Index>(),
    ) {
        let variant = v.get(Variant::all());
        let _ = parse_setup(&text);
        let _ = parse_position(variant, &text);
        let _ = parse_position(variant, &any);
    }

    #[test]
    fn records_never_panic(body in proptest::string::string_regex("(\\[[A-Za-z]{0,8} \"[a-z0-9\\- ]{0,12}\"\\]\n){0,3}([0-9]{1,2}\\.{1,3} [a-k0-9 x\\-]{0,20}\n){0,4}").unwrap()) {
        let _ = read_record(&body);
        let _ = read_record(&format!("[Variant \"tyr-11\"]\n{body}"));
    }

    #[test]
    fn a_move_that_parses_is_legal_or_refused_with_a_reason(
        from in (0u8..11, 0u8..11), to in (0u8..11, 0u8..11), seed in 0u64..50
    ) {
        let v = Variant::by_id("odin-11").unwrap();
        let mut rng = Rng::new(seed);
        let pos = playout(&Position::start(v), &mut rng, 30, |_, _| {});
        let from = taflbot::rules::Square::new(from.0, from.1).unwrap();
        let to = taflbot::rules::Square::new(to.0, to.1).unwrap();
        let legal = pos.legal_moves();
        match pos.check(Move::slide(from, to)) {
            Ok(m) => prop_assert!(legal.contains(&m)),
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                prop_assert!(!legal.iter().any(|m| m.from == from && m.to == to));
            }
        }
    }
}

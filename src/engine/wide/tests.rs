use super::train::{train, Samples, Training};
use super::*;
use crate::engine::net::Sums;
use crate::rules::random::{playout, Rng};
use crate::rules::Side;

fn copenhagen() -> &'static Variant {
    Variant::by_id("copenhagen").unwrap()
}

/// A network of random numbers, of the sizes a trained one has.
fn random_net(v: &'static Variant, seed: u64) -> Wide {
    let mut rng = Rng::new(seed);
    let mut draw = |most: i32| (rng.below(2 * most as usize + 1) as i32 - most) as i16;
    let mut net = Wide::zero(v);
    net.w1.iter_mut().flatten().for_each(|w| *w = draw(505));
    net.b1.iter_mut().for_each(|w| *w = draw(505));
    net.w2.iter_mut().for_each(|w| *w = draw(127));
    net.b2 = i32::from(draw(20_000));
    net
}

#[test]
fn sums_carried_along_a_line_score_each_position_as_it_is_scored_alone() {
    let v = copenhagen();
    let net: &'static Wide = Box::leak(Box::new(random_net(v, 3)));
    for seed in 0..20 {
        let mut rng = Rng::new(seed);
        let mut line = vec![Position::start(v)];
        for _ in 0..40 {
            let last = line.last().unwrap();
            if last.outcome().is_some() {
                break;
            }
            line.push(playout(last, &mut rng, 1, |_, _| {}));
        }
        let mut sums = Sums::new(net, line.len());
        for (ply, pos) in line.iter().enumerate() {
            sums.enter(ply, pos);
        }
        // Scored deepest first, then from the start: both orders make the same sums.
        let deepest = line.len() - 1;
        assert_eq!(sums.score(deepest), net.score(&line[deepest]));
        for (ply, pos) in line.iter().enumerate() {
            assert_eq!(sums.score(ply), net.score(pos), "seed {seed}, ply {ply}");
        }
    }
}

#[test]
fn the_output_cuts_each_unit_at_zero_and_at_one() {
    let v = copenhagen();
    let mut net = Wide::zero(v);
    net.w2[0] = QB as i16; // an output weight of one
    let mut acc = Acc([0; WIDE]);
    acc.0[0] = QA as i16; // a unit at one: the output is one, UNIT hundredths
    assert_eq!(net.output(&acc), UNIT);
    acc.0[0] = 3 * QA as i16; // cut at one
    assert_eq!(net.output(&acc), UNIT);
    acc.0[0] = -QA as i16; // cut at zero
    assert_eq!(net.output(&acc), 0);
    acc.0[0] = QA as i16 / 2 + 1; // a half, 128/255 of it
    assert_eq!(net.output(&acc), (128 * UNIT + QA / 2) / QA);
    net.b2 = -QA * QB; // a bias of minus one
    assert_eq!(net.output(&Acc([0; WIDE])), -UNIT);
}

#[test]
fn a_network_is_read_back_as_written_and_a_wrong_file_is_told() {
    let v = copenhagen();
    let net = random_net(v, 9);
    let bytes = net.write("made in a test\nsecond line");
    assert!(
        bytes.starts_with(b"# made in a test\n# second line\ntaflbot wide network copenhagen 256")
    );
    assert!(Wide::is_file(&bytes));
    assert!(!Wide::is_file(b"# a small one\nnet copenhagen 32\n"));
    let back = Wide::read(&bytes).unwrap();
    assert_eq!(back.fingerprint(), net.fingerprint());
    assert_ne!(random_net(v, 10).fingerprint(), net.fingerprint());
    let pos = Position::start(v);
    assert_eq!(back.score(&pos), net.score(&pos));
    // Cut short, or for a width this build does not read.
    let short = Wide::read(&bytes[..bytes.len() - 2]).unwrap_err();
    assert!(short.contains("bytes of weights"), "{short}");
    let text = String::from_utf8_lossy(&bytes).replacen(" 256 ", " 512 ", 1);
    let other = Wide::read(text.as_bytes()).unwrap_err();
    assert!(other.contains("this build reads"), "{other}");
    let unknown = Wide::read(b"taflbot wide network chess 256 255 64 400\n").unwrap_err();
    assert!(unknown.contains("unknown variant"), "{unknown}");
}

/// Random positions of Copenhagen, each labelled won for the defenders when their king has
/// left his throne: a rule one hidden unit can learn, and the same in every symmetry of the
/// board (the training shows each position in one).
fn labelled(count: u64) -> Samples {
    let v = copenhagen();
    let start = Position::start(v);
    let mut samples = Samples::default();
    for seed in 0..count {
        let mut rng = Rng::new(seed);
        let length = 4 + rng.below(30);
        let pos = playout(&start, &mut rng, length, |_, _| {});
        let Some(king) = pos.royal(Side::Defenders) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        let throne = king.file() == 5 && king.rank() == 5;
        let won = if throne { 0.0 } else { 1.0 };
        samples.push(&pos, won, won);
    }
    samples
}

#[test]
fn training_learns_what_wins_and_its_16_bit_numbers_keep_it() {
    let samples = labelled(6000);
    assert!(samples.len() > 5000, "{}", samples.len());
    let t = Training {
        from: None,
        epochs: 12,
        rate: 0.003,
        batch: 256,
        seed: 5,
        threads: 2,
    };
    let (net, report) = train(copenhagen(), &samples, t, &mut || {});
    assert!(report.held > 100, "{report:?}");
    assert!((report.even - 0.25).abs() < 1e-6, "{report:?}");
    assert!(report.float < 0.05, "{report:?}");
    assert!((report.quantised - report.float).abs() < 0.01, "{report:?}");
    // The same seed and threads train the same network.
    let (again, _) = train(copenhagen(), &samples, t, &mut || {});
    assert_eq!(again.fingerprint(), net.fingerprint());
    // A network gone on from starts where it was: no passes leave it as it is.
    let none = Training {
        from: Some(&net),
        epochs: 0,
        ..t
    };
    let (same, kept) = train(copenhagen(), &samples, none, &mut || {});
    assert_eq!(same.fingerprint(), net.fingerprint());
    assert_eq!(kept.quantised, report.quantised);
}

#[test]
fn the_sides_wins_weigh_the_same_however_many_of_each() {
    let v = copenhagen();
    let pos = Position::start(v);
    let mut samples = Samples::default();
    for i in 0..400 {
        let won = if i % 4 == 0 { 0.0 } else { 1.0 };
        samples.push(&pos, won, won);
    }
    // One position, won three times in four: weighed evenly, the network learns ½ for it.
    let t = Training {
        from: None,
        epochs: 30,
        rate: 0.01,
        batch: 64,
        seed: 1,
        threads: 1,
    };
    let (net, _) = train(v, &samples, t, &mut || {});
    assert!(net.score(&pos).abs() < 40, "{}", net.score(&pos));
}

#[test]
fn a_board_with_a_wide_network_is_judged_by_it_alone_but_when_mopping_up() {
    let v = copenhagen();
    let wide: &'static Wide = Box::leak(Box::new(random_net(v, 21)));
    let board = crate::engine::eval::Board::with_wide(v, wide);
    let taught = crate::engine::eval::Board::with(v, crate::engine::Eval::Taught);
    let mut differ = 0;
    for seed in 0..30 {
        let mut rng = Rng::new(seed);
        let length = 1 + rng.below(40);
        let pos = playout(&Position::start(v), &mut rng, length, |_, _| {});
        if pos.outcome().is_some() {
            continue;
        }
        let mover = if pos.turn() == Side::Defenders { 1 } else { -1 };
        assert_eq!(
            board.evaluate(&pos),
            mover * wide.score(&pos),
            "seed {seed}"
        );
        differ += usize::from(taught.evaluate(&pos) != board.evaluate(&pos));
    }
    assert!(differ > 20, "{differ}");
    // The lone king against a full siege: the mopping-up row judges, as on the taught board.
    let mut setup = Position::start(v).to_setup();
    setup.pieces.retain(|(_, piece)| {
        piece.side == Side::Attackers || piece.role != crate::rules::Role::Man
    });
    let lone = Position::from_setup(v, &setup).unwrap();
    assert!(crate::engine::eval::mopping_up(&lone));
    assert_eq!(board.evaluate(&lone), taught.evaluate(&lone));
    assert_ne!(board.evaluate(&lone), -wide.score(&lone));
}

/// The first generation's network, kept so that the next goes on from it (`--from`), reads, and
/// judges the start and the positions after it as a tafl player would see them: closer to even
/// at the start than a corner all but reached.
#[test]
fn the_committed_first_generation_reads_and_judges_the_start() {
    let net = Wide::read(include_bytes!("../../../data/wide/copenhagen-gen1.wide")).unwrap();
    let v = copenhagen();
    assert!(std::ptr::eq(net.variant(), v));
    let start = net.score(&Position::start(v));
    assert!(start.abs() < 400, "the start, {start}");
    // The king one step from a corner with the way open, the defenders to move: won for them.
    let mut setup = Position::start(v).to_setup();
    let king = setup
        .pieces
        .iter()
        .position(|(_, p)| p.role == crate::rules::Role::King)
        .unwrap();
    setup.pieces[king].0 = crate::rules::Square::new(0, 2).unwrap();
    setup.turn = Side::Defenders;
    let near = Position::from_setup(v, &setup).unwrap();
    assert!(
        net.score(&near) > start + 200,
        "{} against {start}",
        net.score(&near)
    );
}

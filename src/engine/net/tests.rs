use super::train::{held_out, symmetries, train, Sample, Training};
use super::*;
use crate::rules::random::{playout, Rng};
use crate::rules::Variant;

/// Positions of random games of `v`, each after up to `plies` random plies.
fn positions(v: &'static Variant, count: u64, plies: usize) -> Vec<Position> {
    let start = Position::start(v);
    (0..count)
        .map(|seed| {
            let mut rng = Rng::new(seed);
            let length = rng.below(plies + 1);
            playout(&start, &mut rng, length, |_, _| {})
        })
        .collect()
}

fn lit(pos: &Position) -> Vec<usize> {
    let mut lit = Vec::new();
    features(pos, |i| lit.push(i));
    lit
}

#[test]
fn a_position_lights_an_input_for_each_piece_and_the_defenders_turn() {
    let v = Variant::by_id("copenhagen").unwrap();
    let start = Position::start(v);
    let cells = 121;
    let on = lit(&start);
    assert_eq!(
        on.len(),
        24 + 12 + 1,
        "the attackers move first: no turn input"
    );
    assert_eq!(on.iter().filter(|&&i| i < cells).count(), 24);
    // The king stands on f6: the third block, rank 5 (from 0), file 5.
    assert!(on.contains(&(2 * cells + 5 * 11 + 5)));
    assert_eq!(on.iter().filter(|&&i| i >= 2 * cells).count(), 1);
    let next = positions(v, 40, 1)
        .into_iter()
        .find(|p| p.turn() == Side::Defenders)
        .unwrap();
    assert!(lit(&next).contains(&(3 * cells)));
}

#[test]
fn every_symmetry_maps_the_symmetric_start_onto_itself_and_is_one_to_one() {
    for (id, count) in [("copenhagen", 8), ("brandubh", 8)] {
        let v = Variant::by_id(id).unwrap();
        let maps = symmetries(v.files, v.ranks);
        assert_eq!(maps.len(), count);
        let mut on = lit(&Position::start(v));
        on.sort_unstable();
        for map in &maps {
            let mut image: Vec<usize> = on.iter().map(|&i| usize::from(map[i])).collect();
            image.sort_unstable();
            assert_eq!(image, on, "{id}");
            let mut all: Vec<u16> = map.clone();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), inputs(v.files, v.ranks));
        }
        // A piece off the diagonals is moved by some symmetry.
        assert!(maps.iter().any(|m| usize::from(m[1]) != 1));
    }
}

#[test]
fn a_network_reads_back_as_it_was_written() {
    let v = Variant::by_id("brandubh").unwrap();
    let samples: Vec<Sample> = positions(v, 20, 10)
        .iter()
        .map(|p| Sample::new(p, 0, 0.5))
        .collect();
    let training = Training {
        epochs: 1,
        ..Training::default()
    };
    let (net, _) = train(v, &samples, training);
    let text = net.write("a test");
    let back = Net::read(&text).unwrap();
    assert_eq!(back.write("a test"), text);
    let pos = Position::start(v);
    assert_eq!(back.score(&pos), net.score(&pos));
    // The file keeps three decimals: read again, the same network to the bit.
    assert_eq!(Net::read(&text).unwrap().fingerprint(), back.fingerprint());
    let mut other = back.clone();
    other.b2 += 1;
    assert_ne!(other.fingerprint(), back.fingerprint());
    assert!(Net::read(&text.replace("net brandubh 32", "net brandubh 16")).is_err());
    assert!(Net::read(&text.replace("net brandubh", "net chess")).is_err());
    let short: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
    assert!(Net::read(&short).unwrap_err().contains("ends before"));
    assert!(Net::read(&format!("{text}w1 0\n")).is_err());
}

/// Each committed network reads, is the network of the variant it is filed under, and moves the
/// start's score by less than the reach allowed; a variant without a file has none.
#[test]
fn the_taught_sets_networks_read_each_for_its_variant() {
    for (id, _) in TAUGHT {
        let v = Variant::by_id(id).unwrap();
        let net = of(Eval::Taught, v).unwrap_or_else(|| panic!("{id} has its network"));
        assert!(std::ptr::eq(net.variant, v));
        assert!(net.score(&Position::start(v)).abs() < REACH);
        // The classic set never adds one.
        assert!(of(Eval::Classic, v).is_none());
    }
    for id in ["odin-15", "brandubh", "tablut"] {
        assert!(of(Eval::Taught, Variant::by_id(id).unwrap()).is_none());
    }
}

/// The targets say what the row (here scoring nothing) cannot see: a king off the central
/// square is the defenders' chance. The network learns it, also on positions held out.
#[test]
fn training_learns_what_the_row_leaves_out() {
    let v = Variant::by_id("brandubh").unwrap();
    let centre = crate::rules::Square::new(3, 3);
    let samples: Vec<Sample> = positions(v, 4000, 30)
        .iter()
        .map(|p| {
            let target = if p.royal(Side::Defenders) == centre {
                0.2
            } else {
                0.8
            };
            Sample::new(p, 0, target)
        })
        .collect();
    assert!((0..samples.len()).any(held_out));
    let training = Training {
        k: 0.01,
        epochs: 4,
        rate: 0.01,
        ..Training::default()
    };
    let (net, report) = train(v, &samples, training);
    assert!(report.held > 0 && report.trained > report.held);
    assert!((report.row_held - 0.09).abs() < 1e-6, "{report:?}");
    assert!(report.net_held < 0.01, "{report:?}");
    let moved = positions(v, 200, 30)
        .into_iter()
        .find(|p| p.royal(Side::Defenders) != centre && p.royal(Side::Defenders).is_some())
        .unwrap();
    assert!(net.score(&moved) > net.score(&Position::start(v)) + 100);
}

/// A network of random whole weights for `v`, large enough that every unit is sometimes cut.
fn random_net(v: &'static Variant, seed: u64) -> Net {
    let mut rng = Rng::new(seed);
    let mut weight = |reach: usize| rng.below(2 * reach + 1) as i32 - reach as i32;
    let mut net = Net::zero(v);
    for column in &mut net.w1 {
        column.iter_mut().for_each(|w| *w = weight(400));
    }
    net.b1.iter_mut().for_each(|w| *w = weight(2000));
    net.w2.iter_mut().for_each(|w| *w = weight(300));
    net.b2 = weight(500);
    net
}

/// Every position of a random game of `v` (its captures, berserk chains, flips and the
/// king's moves), in order.
fn line(v: &'static Variant, seed: u64, plies: usize) -> Vec<Position> {
    let mut seen = Vec::new();
    let last = playout(&Position::start(v), &mut Rng::new(seed), plies, |p, _| {
        seen.push(p.clone())
    });
    seen.push(last);
    seen
}

/// The sums carried from one position to the next, or across several, are the sums made from
/// nothing to the bit, in the variants with captures, commanders' jumps and flipping V-men.
#[test]
fn sums_carried_from_position_to_position_are_the_sums_made_afresh() {
    for (id, seed) in [
        ("copenhagen", 1),
        ("odin-11", 2),
        ("brandubh", 3),
        ("tyr-11", 4),
    ] {
        let v = Variant::by_id(id).unwrap();
        let net = random_net(v, seed);
        let mut captured = false;
        for game in 0..6 {
            let positions = line(v, seed * 100 + game, 150);
            let lights: Vec<Lights> = positions.iter().map(Lights::of).collect();
            let fresh: Vec<Hidden> = lights.iter().map(|l| net.hidden(l)).collect();
            for i in 1..positions.len() {
                captured |= positions[i].count(Side::Attackers)
                    + positions[i].count(Side::Defenders)
                    < positions[i - 1].count(Side::Attackers)
                        + positions[i - 1].count(Side::Defenders);
                let step = net.moved(&fresh[i - 1], &lights[i - 1], &lights[i]);
                assert_eq!(step, fresh[i], "{id}, game {game}, ply {i}");
                let from = i.saturating_sub(5);
                let leap = net.moved(&fresh[from], &lights[from], &lights[i]);
                assert_eq!(leap, fresh[i], "{id}, game {game}, plies {from} to {i}");
                assert_eq!(net.output(&fresh[i]), net.score(&positions[i]));
            }
        }
        assert!(captured, "{id}: the random games took nothing");
    }
}

/// A search's slots, entered and judged as a search does (down a line, back up to try a
/// sibling, judging some plies only), score each position as the network scores it alone.
#[test]
fn a_searchs_sums_score_each_position_as_the_network_alone() {
    let v = Variant::by_id("copenhagen").unwrap();
    let net: &'static Net = Box::leak(Box::new(random_net(v, 9)));
    let mut sums = Sums::new(net, 16);
    let mut rng = Rng::new(77);
    let mut judged = 0;
    for game in 0..20 {
        let positions = line(v, 500 + game, 60);
        // Walk the game as a line of plies 0..15 that goes back a few plies now and then and
        // comes down again through other positions of the game (a sibling's subtree).
        let mut ply = 0;
        for pos in &positions {
            sums.enter(ply, pos);
            if rng.below(3) > 0 {
                assert_eq!(sums.score(ply), net.score(pos), "game {game}, ply {ply}");
                // Asked again, the same.
                assert_eq!(sums.score(ply), net.score(pos));
                judged += 1;
            }
            ply = if ply == 15 || rng.below(4) == 0 {
                rng.below(ply + 1)
            } else {
                ply + 1
            };
        }
    }
    assert!(judged > 500, "{judged}");
}

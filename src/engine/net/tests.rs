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
    other.b2 += 0.001;
    assert_ne!(other.fingerprint(), back.fingerprint());
    assert!(Net::read(&text.replace("net brandubh 32", "net brandubh 16")).is_err());
    assert!(Net::read(&text.replace("net brandubh", "net chess")).is_err());
    let short: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
    assert!(Net::read(&short).unwrap_err().contains("ends before"));
    assert!(Net::read(&format!("{text}w1 0\n")).is_err());
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

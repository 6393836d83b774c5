use taflbot::rules::{perft, Position, Variant};

#[test]
fn tablut_perft() {
    let pos = Position::start(Variant::by_id("tablut").unwrap());
    let counts: Vec<u64> = (1..=3).map(|d| perft(&pos, d)).collect();
    assert_eq!(counts, vec![80, 4400, 353200]);
}

//! What the benchmarks share: the positions they measure on.

use taflbot::rules::random::{playout, Rng};
use taflbot::rules::{Position, Variant};

/// Mid-game positions (plies 20 to 60 of random games, not over, no open chain).
pub fn midgame_positions(id: &str, count: usize) -> Vec<Position> {
    let v = Variant::by_id(id).unwrap();
    let start = Position::start(v);
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        let mut rng = Rng::new(seed);
        seed += 1;
        let mut ply = 0;
        playout(&start, &mut rng, 60, |pos, _| {
            ply += 1;
            if ply >= 20
                && ply % 10 == 0
                && pos.chain().is_none()
                && !pos.is_over()
                && out.len() < count
            {
                out.push(pos.clone());
            }
        });
    }
    out
}

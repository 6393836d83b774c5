//! The pieces: each side's shape, and the bodies and marks of the pieces with a role.

use image::{Rgb as Pixel, RgbImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut, draw_polygon_mut};
use imageproc::point::Point;
use imageproc::rect::Rect;

use super::theme::{Colours, Rgb};
use crate::rules::{Piece, Role, Side, Variant};

/// A piece: the side's shape (a disc for attackers and Red, an octagon for defenders and Gold)
/// with an edge, and the role's mark across the centre. A piece with a role of its own is
/// larger and told by its body at phone size, not only by its mark: the king's body is gold,
/// the ship's blue, and commanders, V-men, Standards and Cavalry wear a broad ring in their
/// mark's colour.
pub fn draw(img: &mut RgbImage, c: &Colours, variant: &Variant, square: u32, piece: Piece) {
    let armies = variant.rules.armies;
    let sea = variant.family == crate::rules::Family::SeaBattle;
    let f = square as f32;
    let (cx, cy) = (f / 2.0, f / 2.0);
    let special = !matches!(piece.role, Role::Man | Role::Infantry);
    let (mut body, mut edge) = (c.body(piece.side, armies), c.edge(piece.side, armies));
    let mark = c.piece_centre(variant, piece);
    let ring = match piece.role {
        Role::King => {
            body = if sea { c.ship } else { c.king };
            edge = c.defender_edge;
            None
        }
        Role::Man | Role::Infantry => None,
        _ => Some(mark),
    };
    let r = f * if special { 0.45 } else { 0.40 };
    let at =
        |dx: f32, dy: f32| Point::new((cx + dx * f).round() as i32, (cy + dy * f).round() as i32);
    // Layers from the outside in: the edge, the ring (with an edge inside it), the body.
    let mut layers: Vec<(f32, Rgb)> = vec![(r, edge)];
    if let Some(ring) = ring {
        layers.push((r - f * 0.035, ring));
        layers.push((r - f * 0.155, edge));
        layers.push((r - f * 0.185, body));
    } else {
        layers.push((r - f * 0.055, body));
    }
    for (radius, colour) in layers {
        if piece.side == Side::Attackers {
            draw_filled_circle_mut(img, (cx as i32, cy as i32), radius as i32, Pixel(colour));
        } else {
            let octagon: Vec<Point<i32>> = (0..8)
                .map(|k| {
                    let a = std::f32::consts::PI / 8.0 + k as f32 * std::f32::consts::PI / 4.0;
                    at(radius * 1.04 * a.cos() / f, radius * 1.04 * a.sin() / f)
                })
                .collect();
            draw_polygon_mut(img, &octagon, Pixel(colour));
        }
    }
    let Some(shape) = mark_shape(img, piece.role, sea, &at, mark) else {
        return;
    };
    draw_polygon_mut(img, &shape, Pixel(mark));
    if piece.role == Role::Standard {
        // The pole's foot keeps the flag's colour at the very centre.
        let k = (f * 0.07).max(2.0) as i32;
        draw_filled_rect_mut(
            img,
            Rect::at(cx as i32 - k, cy as i32 - k).of_size(2 * k as u32 + 1, 2 * k as u32 + 1),
            Pixel(mark),
        );
    }
}

/// The mark across a piece with a role (the ship's jib drawn here too), as the points of its
/// outline; `None` for a plain man.
fn mark_shape(
    img: &mut RgbImage,
    role: Role,
    sea: bool,
    at: &dyn Fn(f32, f32) -> Point<i32>,
    mark: Rgb,
) -> Option<Vec<Point<i32>>> {
    let shape = match role {
        Role::Man | Role::Infantry => return None,
        // A crown: a band with three points.
        Role::King if !sea => vec![
            at(-0.24, 0.15),
            at(0.24, 0.15),
            at(0.24, -0.18),
            at(0.12, -0.02),
            at(0.0, -0.22),
            at(-0.12, -0.02),
            at(-0.24, -0.18),
        ],
        // Two sails on the blue hull.
        Role::King => {
            let jib = [at(-0.09, 0.16), at(-0.09, -0.16), at(-0.26, 0.16)];
            draw_polygon_mut(img, &jib, Pixel(mark));
            vec![at(-0.04, 0.16), at(-0.04, -0.28), at(0.24, 0.16)]
        }
        // A four-pointed star.
        Role::Commander => vec![
            at(0.0, -0.24),
            at(0.07, -0.07),
            at(0.24, 0.0),
            at(0.07, 0.07),
            at(0.0, 0.24),
            at(-0.07, 0.07),
            at(-0.24, 0.0),
            at(-0.07, -0.07),
        ],
        // A V.
        Role::VMan => vec![
            at(-0.22, -0.18),
            at(-0.1, -0.18),
            at(0.0, 0.02),
            at(0.1, -0.18),
            at(0.22, -0.18),
            at(0.06, 0.16),
            at(-0.06, 0.16),
        ],
        // A flag on its pole.
        Role::Standard => vec![
            at(-0.14, 0.22),
            at(-0.14, -0.22),
            at(0.2, -0.1),
            at(-0.06, 0.02),
            at(-0.06, 0.22),
        ],
        // An arrowhead.
        Role::Cavalry => vec![at(0.0, -0.22), at(0.2, 0.17), at(0.0, 0.07), at(-0.2, 0.17)],
    };
    Some(shape)
}

//! Decoding a board cell: terrain in bits 4..7, the piece's side in bit 3, its role in bits 0..2.

use super::piece::{Role, Side, ROLE_MASK, SIDE_BIT};
use super::variant::{Terrain, TERRAIN_SHIFT};

#[inline(always)]
pub(super) fn role_of(code: u8) -> Option<Role> {
    Role::from_bits(code & ROLE_MASK)
}

#[inline(always)]
pub(super) fn side_of(code: u8) -> Side {
    if code & SIDE_BIT != 0 {
        Side::Defenders
    } else {
        Side::Attackers
    }
}

#[inline(always)]
pub(super) fn terrain_of(code: u8) -> Terrain {
    Terrain::from_bits(code >> TERRAIN_SHIFT)
}

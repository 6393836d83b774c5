//! Sides, roles and pieces.

use std::fmt;

/// One of the two sides of a game.
///
/// Tafl variants have attackers and defenders (the defenders have the king). Save the Standard has Gold
/// and Red; they share the two values by letter case in position strings: Gold, written upper case like
/// the defenders, is [`Side::GOLD`], and Red is [`Side::RED`]. Messages name sides through
/// [`crate::rules::Variant::side_name`], never by these identifiers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    Attackers = 0,
    Defenders = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Attackers, Side::Defenders];
    /// Save the Standard's Gold army (upper case letters, home field at the bottom).
    pub const GOLD: Side = Side::Defenders;
    /// Save the Standard's Red army (lower case letters, home field at the top).
    pub const RED: Side = Side::Attackers;

    #[inline(always)]
    pub const fn other(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// What a piece is, independent of its side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// An ordinary tafl piece.
    Man = 1,
    /// The king; in Sea Battle, the cargo ship.
    King = 2,
    /// A commander: may also jump over one adjacent piece.
    Commander = 3,
    /// A V-man: changes sides instead of leaving the board when captured.
    VMan = 4,
    /// Save the Standard: the piece to protect.
    Standard = 5,
    Infantry = 6,
    /// Moves like a rook and may end with one step at right angles.
    Cavalry = 7,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::Man,
        Role::King,
        Role::Commander,
        Role::VMan,
        Role::Standard,
        Role::Infantry,
        Role::Cavalry,
    ];

    pub(crate) const fn from_bits(bits: u8) -> Option<Role> {
        Some(match bits {
            1 => Role::Man,
            2 => Role::King,
            3 => Role::Commander,
            4 => Role::VMan,
            5 => Role::Standard,
            6 => Role::Infantry,
            7 => Role::Cavalry,
            _ => return None,
        })
    }

    /// The lower-case letter of the position string.
    pub const fn letter(self) -> char {
        match self {
            Role::Man => 't',
            Role::King => 'k',
            Role::Commander => 'c',
            Role::VMan => 'v',
            Role::Standard => 's',
            Role::Infantry => 'i',
            Role::Cavalry => 'h',
        }
    }

    /// The piece's name in messages (tafl names; Sea Battle renames the king through its variant).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Man => "man",
            Role::King => "king",
            Role::Commander => "commander",
            Role::VMan => "V-man",
            Role::Standard => "Standard",
            Role::Infantry => "Infantry",
            Role::Cavalry => "Cavalry",
        }
    }
}

/// A piece: a role on a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

impl Piece {
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    /// The position-string letter: upper case for defenders and Gold, lower case for attackers and Red.
    pub fn letter(self) -> char {
        match self.side {
            Side::Defenders => self.role.letter().to_ascii_uppercase(),
            Side::Attackers => self.role.letter(),
        }
    }

    /// Reads a position-string letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let role = Role::ALL
            .into_iter()
            .find(|r| r.letter() == c.to_ascii_lowercase())?;
        let side = if c.is_ascii_uppercase() {
            Side::Defenders
        } else {
            Side::Attackers
        };
        Some(Piece { side, role })
    }

    /// The cell code: role in bits 0..3, side in bit 3.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.role as u8 | ((self.side as u8) << 3)
    }

    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        match Role::from_bits(code & ROLE_MASK) {
            Some(role) => Some(Piece {
                side: if code & SIDE_BIT != 0 {
                    Side::Defenders
                } else {
                    Side::Attackers
                },
                role,
            }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

pub(crate) const ROLE_MASK: u8 = 0b0111;
pub(crate) const SIDE_BIT: u8 = 0b1000;
pub(crate) const PIECE_MASK: u8 = 0b1111;

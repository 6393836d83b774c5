//! Tournaments, pure arithmetic (no I/O, no async): who meets whom, and who stands where. The
//! service stores a tournament and starts its games; this room only decides.
//!
//! The unit is a **match of two games with the sides swapped**, both begun at once: tafl is not
//! symmetric, so each player of a pair attacks once. Entrants are known by their **seed**, their
//! place in the tournament's list sorted by rating, highest first (seed 0 is the favourite).
//!
//! - [`round_robin`]: Berger tables, and groups of at most eight seeded by rating whose winners
//!   meet in a final.
//! - [`swiss`]: rounds of matches within score groups, never a rematch, a bye for an odd number.
//! - [`knockout`]: a seeded bracket with byes up to the next power of two.
//! - [`standings`]: points, then head-to-head, Sonneborn-Berger, wins and the shortest win.
//!
//! Scores are counted in half points, as integers: a game won is 2, drawn 1, lost 0, so a match
//! is worth 4.

pub mod knockout;
pub mod progress;
pub mod round_robin;
pub mod standings;
pub mod swiss;

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Swiss,
    Knockout,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::RoundRobin, Format::Swiss, Format::Knockout];

    /// As stored, and as typed (`round-robin` is read as well).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round_robin",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
        }
    }

    /// As a player types it, and as Discord offers it.
    pub fn typed(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
        }
    }

    /// As a player reads it.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round robin",
            Format::Swiss => "Swiss",
            Format::Knockout => "knockout",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = ();

    fn from_str(text: &str) -> Result<Format, ()> {
        let t = text.trim().to_lowercase().replace(['-', ' '], "_");
        Format::ALL.into_iter().find(|f| f.as_str() == t).ok_or(())
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Taking entrants.
    Open,
    /// Its rounds are being played.
    Running,
    Finished,
    /// Called off by its creator or a manager.
    Cancelled,
}

impl Status {
    pub const ALL: [Status; 4] = [
        Status::Open,
        Status::Running,
        Status::Finished,
        Status::Cancelled,
    ];

    /// As stored, and as a player reads it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }

    /// Whether it can still change (taking entrants or playing).
    pub fn is_going(self) -> bool {
        matches!(self, Status::Open | Status::Running)
    }
}

/// An entrant, by their place in the tournament's list (0 is the highest rated).
pub type Seed = usize;

/// A match: `first` attacks in its first game, `second` in its second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    pub first: Seed,
    pub second: Seed,
}

impl Pair {
    pub fn new(first: Seed, second: Seed) -> Pair {
        Pair { first, second }
    }

    /// Whether `seed` plays in this match.
    pub fn has(&self, seed: Seed) -> bool {
        self.first == seed || self.second == seed
    }

    /// The two games of the match, as (attacker, defender).
    pub fn games(&self) -> [(Seed, Seed); 2] {
        [(self.first, self.second), (self.second, self.first)]
    }

    /// The same two players in either order, for "have they met?".
    pub fn key(&self) -> (Seed, Seed) {
        (self.first.min(self.second), self.first.max(self.second))
    }
}

/// A place in a round: a match, or a bye for one entrant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    Match(Pair),
    Bye(Seed),
}

/// How a game of a tournament ended, for its standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    AttackerWon,
    DefenderWon,
    Draw,
}

/// A finished game of the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub attacker: Seed,
    pub defender: Seed,
    pub outcome: Outcome,
    /// The game's length in turns.
    pub turns: u32,
    /// Decided by a withdrawal rather than on the board (the loser left the tournament): it
    /// counts in the points, not among the wins or for the shortest win.
    pub forfeit: bool,
}

impl Played {
    /// The half points `seed` scored in this game (None when they did not play in it).
    pub fn half_points(&self, seed: Seed) -> Option<u32> {
        let attacked = if seed == self.attacker {
            true
        } else if seed == self.defender {
            false
        } else {
            return None;
        };
        Some(match (self.outcome, attacked) {
            (Outcome::Draw, _) => 1,
            (Outcome::AttackerWon, true) | (Outcome::DefenderWon, false) => 2,
            _ => 0,
        })
    }

    /// The winner, where there is one.
    pub fn winner(&self) -> Option<Seed> {
        match self.outcome {
            Outcome::AttackerWon => Some(self.attacker),
            Outcome::DefenderWon => Some(self.defender),
            Outcome::Draw => None,
        }
    }

    /// The other player of the game.
    pub fn opponent(&self, seed: Seed) -> Seed {
        if seed == self.attacker {
            self.defender
        } else {
            self.attacker
        }
    }
}

/// What a bye is worth, in half points: a drawn match (2 of 4). A full match's worth would carry
/// the lowest-placed entrant, who gets the bye, past players who earned their points; nothing
/// would be unkind to whoever happens to be left over.
pub const BYE_HALF_POINTS: u32 = 2;

/// The half points of a whole match.
pub const MATCH_HALF_POINTS: u32 = 4;

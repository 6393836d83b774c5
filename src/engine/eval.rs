//! The evaluation: a score for the side to move, in hundredths of a man. The terms are the same
//! for every variant; their weights are data, one row per family.

use crate::rules::{
    BySide, Escape, Family, Piece, Position, Repetition, Role, Side, Square, SquareSet, Terrain,
    Variant,
};

/// The weights of one family. Material is per piece; the king's and the Standard's terms are
/// counted for their owner.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man (or V-man), by side.
    pub man: BySide<i32>,
    /// A commander, by side.
    pub commander: BySide<i32>,
    /// Save the Standard: Infantry and Cavalry.
    pub infantry: i32,
    pub cavalry: i32,
    /// The king's (or Standard's) road home in the relaxed game where only he moves: the bonus
    /// when he needs one move, two, or more (but has some square to go to).
    pub road: [i32; 3],
    /// Per line the king could escape by in one move (beyond the first): two at once cannot
    /// both be closed.
    pub open_road: i32,
    /// Per enemy piece or hostile square next to the royal piece (a penalty for its owner).
    pub pressure: i32,
    /// Per attacker on the approaches of a corner (corner-escape variants), counting at most
    /// `guard_cap` attackers a corner: a corner is closed by a few, and the rest are wanted
    /// elsewhere.
    pub guard: i32,
    pub guard_cap: u32,
    /// Per defender with an open line to the edge (encirclement variants): what an
    /// encirclement has left to close.
    pub edge_lines: i32,
    /// Per square of the king's room (edge-escape variants): the squares he could reach through
    /// squares free of attackers. The attackers' plan against a king who stays among his men:
    /// close a ring, then tighten it. Counted on boards of `room_from_files` files or more.
    pub room: i32,
    pub room_from_files: u8,
    /// Once the defenders are down to their king and [`FEW_MEN`] men or fewer against
    /// [`MANY_ATTACKERS`] or more, the attackers' plan is to close a ring and tighten it until he
    /// is encircled, captured or cannot move (where he cannot be captured, as on a Copenhagen
    /// edge). Then each square cut off from the king's room counts `mop_up`, and each attacker
    /// `close_in` per step nearer to the king (than the board is wide): the ring is built near
    /// him, and tightened. Counted on every board.
    pub mop_up: i32,
    pub close_in: i32,
}

/// The defenders' men (besides the king) at most, and the attackers at least, for
/// [`Weights::mop_up`] to count.
pub const FEW_MEN: usize = 2;
pub const MANY_ATTACKERS: usize = 12;

const TAFL: Weights = Weights {
    man: BySide::new(100, 100),
    commander: BySide::new(150, 150),
    infantry: 0,
    cavalry: 0,
    road: [300, 90, 0],
    open_road: 400,
    pressure: 30,
    guard: 0,
    // No cap unless a family sets one.
    guard_cap: u32::MAX,
    edge_lines: 0,
    room: 0,
    room_from_files: 0,
    mop_up: 8,
    close_in: 0,
};

/// One row per family.
pub fn weights(family: Family) -> &'static Weights {
    const TYR: Weights = Weights {
        man: BySide::new(100, 150),
        pressure: 45,
        room: 2,
        ..TAFL
    };
    const ODIN: Weights = Weights {
        man: BySide::new(100, 130),
        commander: BySide::new(160, 170),
        pressure: 45,
        // On 11x11 the ring is soon closed and the sides lock, the defenders packed round their
        // king: tightening gains nothing there, and level 5 did worse with it (55 % against
        // 75 % over 10 pairs with level 3); on 15x15, 92.5 % against 50 %.
        room: 2,
        room_from_files: 15,
        ..TAFL
    };
    const SEA_BATTLE: Weights = Weights {
        man: BySide::new(100, 140),
        pressure: 35,
        edge_lines: 25,
        ..TAFL
    };
    const TABLUT: Weights = Weights {
        man: BySide::new(100, 170),
        pressure: 40,
        ..TAFL
    };
    const CORNERS: Weights = Weights {
        man: BySide::new(100, 170),
        road: [250, 110, 20],
        pressure: 25,
        guard: 30,
        guard_cap: 3,
        edge_lines: 15,
        close_in: 10,
        ..TAFL
    };
    const BRANDUBH: Weights = Weights {
        man: BySide::new(100, 150),
        road: [250, 100, 20],
        pressure: 40,
        guard: 35,
        ..TAFL
    };
    const STANDARD: Weights = Weights {
        man: BySide::new(0, 0),
        commander: BySide::new(0, 0),
        infantry: 100,
        cavalry: 160,
        road: [350, 120, 30],
        open_road: 0,
        pressure: 60,
        guard: 0,
        guard_cap: u32::MAX,
        edge_lines: 0,
        room: 0,
        room_from_files: 0,
        mop_up: 0,
        close_in: 0,
    };
    match family {
        Family::Tyr => &TYR,
        Family::Odin => &ODIN,
        Family::SeaBattle => &SEA_BATTLE,
        Family::Tablut => &TABLUT,
        Family::Copenhagen => &CORNERS,
        Family::Brandubh => &BRANDUBH,
        Family::SaveTheStandard => &STANDARD,
    }
}

/// What the evaluation needs of a board, worked out once per search.
pub struct Board {
    pub variant: &'static Variant,
    pub weights: &'static Weights,
    /// Where each side's royal piece wins (escape squares, Havens), by side index.
    goal: [SquareSet; 2],
    /// The approaches of each corner: squares within two steps of it, not next to it.
    guard: Vec<SquareSet>,
    /// Only men and a king: material is a count.
    plain: bool,
    /// In variants whose games can end drawn, what the terms give the defenders at the start,
    /// taken off every score: the start counts as even, so that a draw (scored near zero) is
    /// weighed against how a game stands compared with its beginning, not against the sides'
    /// unequal material. Elsewhere a repeated position only stands for a line that gets nowhere,
    /// and the side with more material keeps its reluctance to go round in circles.
    centre: i32,
    /// The weight of the king's room on this board.
    room: i32,
    /// The squares a piece may stand on: the king's room when it is the whole board.
    squares: i32,
}

impl Board {
    /// The board of a variant, worked out once.
    pub fn of(variant: &'static Variant) -> &'static Board {
        static BOARDS: std::sync::LazyLock<Vec<Board>> =
            std::sync::LazyLock::new(|| Variant::all().iter().map(Board::new).collect());
        BOARDS
            .iter()
            .find(|b| std::ptr::eq(b.variant, variant))
            .expect("every variant has its board")
    }

    fn new(variant: &'static Variant) -> Board {
        let start = Position::start(variant);
        let goal = [
            start.goal_squares(Side::Attackers),
            start.goal_squares(Side::Defenders),
        ];
        let mut guard = Vec::new();
        if variant.rules.escape == Escape::Corner {
            let corners = variant
                .squares()
                .filter(|c| variant.terrain(*c) == Terrain::Corner);
            for c in corners {
                let mut approaches = SquareSet::EMPTY;
                for sq in variant.squares() {
                    let (df, dr) = (c.file().abs_diff(sq.file()), c.rank().abs_diff(sq.rank()));
                    if df <= 2 && dr <= 2 && df + dr >= 2 && variant.terrain(sq) == Terrain::Plain {
                        approaches.insert(sq);
                    }
                }
                guard.push(approaches);
            }
        }
        let mut board = Board {
            variant,
            weights: weights(variant.family),
            goal,
            guard,
            plain: variant.roles() == [Role::Man, Role::King],
            centre: 0,
            room: 0,
            squares: variant.board.len() as i32,
        };
        if variant.files >= board.weights.room_from_files {
            board.room = board.weights.room;
        }
        let rules = &variant.rules;
        if rules.repetition == Repetition::Draw || rules.no_move_draws {
            board.centre = board.for_defenders(&start, &mut Rooms::none());
        }
        board
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_with(pos, &mut Rooms::none())
    }

    /// The score of `pos` for the side to move, the king's room looked up in `rooms` first.
    pub fn evaluate_with(&self, pos: &Position, rooms: &mut Rooms) -> i32 {
        let for_defenders = self.for_defenders(pos, rooms) - self.centre;
        if pos.turn() == Side::Defenders {
            for_defenders
        } else {
            -for_defenders
        }
    }

    /// The terms for the defenders less those for the attackers.
    fn for_defenders(&self, pos: &Position, rooms: &mut Rooms) -> i32 {
        let mut score =
            self.for_side(pos, Side::Defenders, rooms) - self.for_side(pos, Side::Attackers, rooms);
        let mop_up = self.weights.mop_up != 0 && mopping_up(pos);
        if self.room != 0 || mop_up {
            let room = rooms.king_room(pos) as i32;
            score += self.room * room;
            if mop_up {
                score -= self.weights.mop_up * (self.squares - room);
                score -= self.weights.close_in * self.closeness(pos);
            }
        }
        score
    }

    /// How close the attackers stand to the king: per attacker, how many steps (a king's steps,
    /// diagonals included) nearer than the board is wide.
    fn closeness(&self, pos: &Position) -> i32 {
        let Some(king) = pos.royal(Side::Defenders) else {
            return 0;
        };
        let width = i32::from(self.variant.files.max(self.variant.ranks));
        pos.squares_of(Side::Attackers)
            .iter()
            .map(|sq| {
                let steps = sq
                    .file()
                    .abs_diff(king.file())
                    .max(sq.rank().abs_diff(king.rank()));
                width - i32::from(steps)
            })
            .sum()
    }

    /// What a piece of `role` is worth to `side` (the royal pieces nothing: they are not
    /// material).
    #[inline]
    fn value(&self, role: Role, side: Side) -> i32 {
        let w = self.weights;
        match role {
            Role::Man | Role::VMan => w.man[side],
            Role::Commander => w.commander[side],
            Role::Infantry => w.infantry,
            Role::Cavalry => w.cavalry,
            Role::King | Role::Standard => 0,
        }
    }

    /// The terms that count for `side`.
    fn for_side(&self, pos: &Position, side: Side, rooms: &mut Rooms) -> i32 {
        let w = self.weights;
        let s = side.index();
        let own = pos.squares_of(side);
        let mut score = if self.plain {
            // Men and one king: the count says it all.
            let men = pos.count(side) as i32 - i32::from(pos.royal(side).is_some());
            men * w.man[side]
        } else {
            // Each role's count, kept by the position, times its value.
            self.variant
                .roles()
                .iter()
                .map(|&role| pos.count_of(Piece::new(side, role)) as i32 * self.value(role, side))
                .sum()
        };
        if w.guard != 0 && side == Side::Attackers {
            let guards: u32 = self
                .guard
                .iter()
                .map(|g| (own.and(g).len() as u32).min(w.guard_cap))
                .sum();
            score += w.guard * guards as i32;
        }
        if w.edge_lines != 0 && side == Side::Defenders {
            let open = own.iter().filter(|sq| pos.open_lines(*sq) > 0).count();
            score += w.edge_lines * open as i32;
        }
        if let Some(royal) = pos.royal(side) {
            if !self.goal[s].is_empty() {
                score += self.road(pos, royal, side, rooms);
            }
            score -= w.pressure * pos.pressure(royal, side) as i32;
        }
        score
    }

    /// The royal piece's road home.
    fn road(&self, pos: &Position, royal: Square, side: Side, rooms: &mut Rooms) -> i32 {
        let w = self.weights;
        if self.variant.rules.armies {
            return match rooms.standard_road(pos, royal, side, &self.goal[side.index()]) {
                1 => w.road[0],
                2 => w.road[1],
                _ => w.road[2],
            };
        }
        let escapes = pos.king_escapes() as i32;
        if escapes > 0 {
            w.road[0] + w.open_road * (escapes - 1)
        } else if pos.king_reaches_escape_line() {
            w.road[1]
        } else {
            w.road[2]
        }
    }
}

/// Whether the defenders are down to their king and a few men against many attackers.
#[inline]
pub fn mopping_up(pos: &Position) -> bool {
    pos.royal(Side::Defenders).is_some()
        && pos.count(Side::Defenders) <= FEW_MEN + 1
        && pos.count(Side::Attackers) >= MANY_ATTACKERS
}

/// The king's rooms met in a search, by where the attackers and the king stand: the room depends
/// on nothing else, and a move by one of the defenders' men (half the moves) leaves both as they
/// were. Each slot keeps its whole key, so a room found is the room.
///
/// In Save the Standard it remembers the Standards' roads home in the same way: a Standard never
/// leaves its field, so its road depends only on where it stands and on which squares of its
/// field are taken, and a move in the other field (half the moves) leaves it as it was.
pub struct Rooms {
    slots: Vec<Option<(SquareSet, Square, u32)>>,
    roads: Vec<Option<(SquareSet, Square, u32)>>,
}

impl Rooms {
    /// Slots for a search, as bits of the index: 1,024 slots of 80 bytes, small enough to stay
    /// in a core's cache. (16,384 slots hit more often, a third of the lookups on TYR's boards,
    /// but each lookup then missed the cache and searches ran no faster than without slots.)
    const BITS: u32 = 10;
    /// The most bits an index may have: the slot is read from the hash's top bits.
    const MAX_BITS: u32 = 24;

    /// Slots for a search on `board`; none where the room never counts.
    pub fn for_board(board: &Board) -> Rooms {
        Rooms::with_bits(board, Self::BITS)
    }

    /// `2^bits` slots (at most 2^24) for a search on `board`; none where the room never counts.
    pub fn with_bits(board: &Board, bits: u32) -> Rooms {
        let slots = 1 << bits.min(Self::MAX_BITS);
        let mut rooms = Rooms::none();
        if board.room != 0 || board.weights.mop_up != 0 {
            rooms.slots = vec![None; slots];
        }
        if board.variant.rules.armies {
            rooms.roads = vec![None; slots];
        }
        rooms
    }

    /// No slots: every room is counted afresh.
    pub fn none() -> Rooms {
        Rooms {
            slots: Vec::new(),
            roads: Vec::new(),
        }
    }

    /// The moves `side`'s Standard on `royal` needs to reach `goal` (its Havens) if nothing else
    /// moved: 1, 2, or 3 for more.
    fn standard_road(
        &mut self,
        pos: &Position,
        royal: Square,
        side: Side,
        goal: &SquareSet,
    ) -> u32 {
        let road = || pos.relaxed_distance(royal, goal, 2);
        if self.roads.is_empty() {
            return road();
        }
        let taken = pos
            .squares_of(Side::Attackers)
            .or(pos.squares_of(Side::Defenders))
            .and(&pos.variant().home[side]);
        recall(&mut self.roads, taken, royal, road)
    }

    fn king_room(&mut self, pos: &Position) -> u32 {
        let Some(king) = pos.royal(Side::Defenders) else {
            return 0;
        };
        if self.slots.is_empty() {
            return pos.king_room();
        }
        let attackers = *pos.squares_of(Side::Attackers);
        recall(&mut self.slots, attackers, king, || pos.king_room())
    }
}

/// The value remembered in `slots` for the key (`set`, `at`), or `count`'s, then remembered in
/// its slot (read from the key's hash's top bits) in place of what was there.
fn recall(
    slots: &mut [Option<(SquareSet, Square, u32)>],
    set: SquareSet,
    at: Square,
    count: impl FnOnce() -> u32,
) -> u32 {
    let hash = set.mix(at.index() as u64);
    let slot = (hash >> (64 - Rooms::MAX_BITS)) as usize & (slots.len() - 1);
    match &slots[slot] {
        Some((s, a, value)) if *a == at && *s == set => *value,
        _ => {
            let value = count();
            slots[slot] = Some((set, at, value));
            value
        }
    }
}

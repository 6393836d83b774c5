//! The evaluation: a score for the side to move, in hundredths of a man. The terms are the same
//! for every variant; their weights are data, one row per family ([`super::weights`]), and the
//! score is the terms' sum with them.

pub use super::memo::Evals;
use super::memo::Memo;
use super::net::Net;
use super::weights::{Eval, Group, Weights, TERMS};
use super::wide::Wide;
use crate::rules::{
    Escape, Family, KingLines, Piece, Placed, Position, Repetition, Role, Side, Square, SquareSet,
    Terrain, Variant,
};

/// The defenders' men (besides the king) at most, and the attackers at least, for
/// [`Group::MopUp`] to count.
pub const FEW_MEN: usize = 2;
pub const MANY_ATTACKERS: usize = 12;

/// What a family's terms need besides weights: how many attackers a corner counts for
/// [`Group::Guard`] (a corner is closed by a few, and the rest are wanted elsewhere), and from how
/// many files the king's room counts.
#[derive(Clone, Copy, Debug)]
struct Shape {
    guard_cap: u32,
    room_from_files: u8,
}

fn shape(family: Family) -> Shape {
    match family {
        Family::Copenhagen => Shape {
            guard_cap: 3,
            room_from_files: 0,
        },
        // On 11x11 the ring is soon closed and the sides lock, the defenders packed round their
        // king: tightening gains nothing there, and level 5 did worse with it (55 % against
        // 75 % over 10 pairs with level 3); on 15x15, 92.5 % against 50 %.
        Family::Odin => Shape {
            guard_cap: u32::MAX,
            room_from_files: 15,
        },
        _ => Shape {
            guard_cap: u32::MAX,
            room_from_files: 0,
        },
    }
}

/// Where the terms go: summed with weights (the evaluation), or kept one by one (the tuner).
pub trait Terms {
    /// Whether the group's terms are wanted (worth counting).
    fn wants(&self, group: Group) -> bool;
    /// Adds `value` to the term `index` of a row (for the defenders).
    fn add(&mut self, index: usize, value: i32);
}

/// The terms summed with weights.
struct Dot<'a> {
    weights: &'a Weights,
    uses: &'a [bool; Group::ALL.len()],
    sum: i32,
}

impl Terms for Dot<'_> {
    #[inline]
    fn wants(&self, group: Group) -> bool {
        self.uses[group as usize]
    }

    #[inline]
    fn add(&mut self, index: usize, value: i32) {
        self.sum += self.weights.values[index] * value;
    }
}

/// Every term, one by one: what the tuner fits weights to.
pub struct Row(pub [i32; TERMS]);

impl Terms for Row {
    fn wants(&self, _: Group) -> bool {
        true
    }

    fn add(&mut self, index: usize, value: i32) {
        self.0[index] += value;
    }
}

/// What the evaluation needs of a board, worked out once per variant and set of weights.
pub struct Board {
    pub variant: &'static Variant,
    pub eval: Eval,
    pub weights: &'static Weights,
    /// The groups whose weights are not all zero.
    uses: [bool; Group::ALL.len()],
    /// The weights (and groups used) once the defenders are down to a few men against many
    /// attackers, where they are not the classic ones already: that ending has a plan of its
    /// own, set by hand (close a ring and tighten it), and weights fitted to games still in the
    /// balance would pull the ring apart.
    ending: Option<(&'static Weights, [bool; Group::ALL.len()])>,
    shape: Shape,
    /// Where each side's royal piece wins (escape squares, Havens), by side index.
    goal: [SquareSet; 2],
    /// The approaches of each corner: squares within two steps of it, not next to it.
    guard: Vec<SquareSet>,
    /// The diagonal fence of each corner: the three squares two steps from it on a diagonal
    /// line between its two edges.
    fence: Vec<SquareSet>,
    /// Only men and a king: material is a count.
    plain: bool,
    /// In variants whose games can end drawn, what the terms give the defenders at the start,
    /// taken off every score: the start counts as even, so that a draw (scored near zero) is
    /// weighed against how a game stands compared with its beginning, not against the sides'
    /// unequal material. Elsewhere a repeated position only stands for a line that gets nowhere,
    /// and the side with more material keeps its reluctance to go round in circles.
    centre: i32,
    /// Whether the start is taken off (see `centre`).
    centred: bool,
    /// Whether the king's room counts on this board.
    room: bool,
    /// The squares a piece may stand on: the king's room when it is the whole board.
    squares: i32,
    /// The learned network added to the row's score, where the set has one for the variant.
    net: Option<&'static Net>,
    /// The wide network that is the whole evaluation, if any (then the row and `net` are not
    /// asked, but when mopping up).
    wide: Option<&'static Wide>,
}

impl Board {
    /// The board of a variant with the engine's weights, worked out once.
    pub fn of(variant: &'static Variant) -> &'static Board {
        Board::with(variant, Eval::default())
    }

    /// The board of a variant with a set of weights, worked out once.
    pub fn with(variant: &'static Variant, eval: Eval) -> &'static Board {
        static BOARDS: std::sync::LazyLock<Vec<Board>> = std::sync::LazyLock::new(|| {
            Eval::ALL
                .iter()
                .flat_map(|&e| Variant::all().iter().map(move |v| Board::new(v, e)))
                .collect()
        });
        BOARDS
            .iter()
            .find(|b| std::ptr::eq(b.variant, variant) && b.eval == eval)
            .expect("every variant has its board")
    }

    fn new(variant: &'static Variant, eval: Eval) -> Board {
        let start = Position::start(variant);
        let goal = [
            start.goal_squares(Side::Attackers),
            start.goal_squares(Side::Defenders),
        ];
        let (mut guard, mut fence) = (Vec::new(), Vec::new());
        if variant.rules.escape == Escape::Corner {
            let corners = variant
                .squares()
                .filter(|c| variant.terrain(*c) == Terrain::Corner);
            for c in corners {
                let (mut approaches, mut diagonal) = (SquareSet::EMPTY, SquareSet::EMPTY);
                for sq in variant.squares() {
                    let (df, dr) = (c.file().abs_diff(sq.file()), c.rank().abs_diff(sq.rank()));
                    if df <= 2 && dr <= 2 && df + dr >= 2 && variant.terrain(sq) == Terrain::Plain {
                        approaches.insert(sq);
                        if df + dr == 2 {
                            diagonal.insert(sq);
                        }
                    }
                }
                guard.push(approaches);
                fence.push(diagonal);
            }
        }
        let weights = eval.weights(variant.family);
        let shape = shape(variant.family);
        let rules = &variant.rules;
        let mut board = Board {
            variant,
            eval,
            weights,
            uses: Group::ALL.map(|g| weights.uses(g)),
            ending: (eval != Eval::Classic).then(|| {
                let classic = Eval::Classic.weights(variant.family);
                (classic, Group::ALL.map(|g| classic.uses(g)))
            }),
            shape,
            goal,
            guard,
            fence,
            plain: variant.roles() == [Role::Man, Role::King],
            centre: 0,
            centred: rules.repetition == Repetition::Draw || rules.no_move_draws,
            room: variant.files >= shape.room_from_files,
            squares: variant.board.len() as i32,
            net: super::net::of(eval, variant),
            wide: super::wide::of(eval, variant),
        };
        if board.centred {
            board.centre =
                board.for_defenders(&start, &mut Rooms::none(), || board.learned(&start));
        }
        board
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_with(pos, &mut Rooms::none())
    }

    /// The score of `pos` for the side to move, the king's room looked up in `rooms` first.
    pub fn evaluate_with(&self, pos: &Position, rooms: &mut Rooms) -> i32 {
        self.evaluate_by(pos, rooms, || self.learned(pos))
    }

    /// The learned part of the score of `pos` for the defenders: the wide network's (the whole
    /// score), else the small network's, else nothing.
    #[inline]
    pub fn learned(&self, pos: &Position) -> i32 {
        match (self.wide, self.net) {
            (Some(wide), _) => wide.score(pos),
            (None, Some(net)) => net.score(pos),
            (None, None) => 0,
        }
    }

    /// [`Board::evaluate_with`], the learned part (where the board has a network and it counts)
    /// given by `net_part`, which must give what [`Board::learned`] gives for `pos`: a search's
    /// sums carried along its line ([`super::net::Sums`]).
    #[inline]
    pub fn evaluate_by(
        &self,
        pos: &Position,
        rooms: &mut Rooms,
        net_part: impl FnOnce() -> i32,
    ) -> i32 {
        let for_defenders = self.for_defenders(pos, rooms, net_part) - self.centre;
        if pos.turn() == Side::Defenders {
            for_defenders
        } else {
            -for_defenders
        }
    }

    /// Every term of `pos` for the defenders, less the start's where the start is taken off: the
    /// row whose sum with the weights is the evaluation for the defenders.
    pub fn row(&self, pos: &Position) -> Row {
        let mut row = Row([0; TERMS]);
        self.terms(pos, &mut Rooms::none(), &mut row);
        if self.centred {
            let mut start = Row([0; TERMS]);
            self.terms(
                &Position::start(self.variant),
                &mut Rooms::none(),
                &mut start,
            );
            for (r, s) in row.0.iter_mut().zip(start.0) {
                *r -= s;
            }
        }
        row
    }

    /// The terms for the defenders less those for the attackers, summed with the weights, and
    /// the network's part (the classic weights alone once mopping up).
    fn for_defenders(
        &self,
        pos: &Position,
        rooms: &mut Rooms,
        net_part: impl FnOnce() -> i32,
    ) -> i32 {
        let (weights, uses, learned) = match &self.ending {
            Some((weights, uses)) if mopping_up(pos) => (*weights, uses, false),
            _ => (self.weights, &self.uses, true),
        };
        if learned && self.wide.is_some() {
            return net_part();
        }
        let mut dot = Dot {
            weights,
            uses,
            sum: 0,
        };
        self.terms(pos, rooms, &mut dot);
        dot.sum
            + if learned && self.net.is_some() {
                net_part()
            } else {
                0
            }
    }

    /// The learned network the board adds to its row, if any.
    pub fn net(&self) -> Option<&'static Net> {
        self.net
    }

    /// `variant`'s taught board judged by `wide` alone (but when mopping up), for tests.
    #[cfg(test)]
    pub(crate) fn with_wide(variant: &'static Variant, wide: &'static Wide) -> Board {
        let mut board = Board::new(variant, Eval::Taught);
        board.wide = Some(wide);
        board
    }

    /// The wide network that is the board's whole evaluation, if any.
    pub fn wide(&self) -> Option<&'static Wide> {
        self.wide
    }

    /// Whether the king's room is wanted: on boards where it counts, or when mopping up.
    fn wants_room(&self, terms: &impl Terms, mop_up: bool) -> bool {
        (self.room && terms.wants(Group::Room))
            || (mop_up && (terms.wants(Group::MopUp) || terms.wants(Group::CloseIn)))
    }

    /// The terms for the defenders less those for the attackers.
    pub fn terms(&self, pos: &Position, rooms: &mut Rooms, t: &mut impl Terms) {
        t.add(Group::Bias.at(), 1);
        // The king's reach, walked once for the road and the routes alike.
        let lines = if !self.variant.rules.armies
            && [Group::Road, Group::OpenRoad, Group::Routes, Group::Forks]
                .iter()
                .any(|g| t.wants(*g))
        {
            pos.king_lines()
        } else {
            KingLines::default()
        };
        self.for_side(pos, Side::Defenders, &lines, rooms, t);
        self.for_side(pos, Side::Attackers, &lines, rooms, t);
        let mop_up = mopping_up(pos);
        if self.wants_room(t, mop_up) {
            let room = rooms.king_room(pos) as i32;
            if self.room {
                t.add(Group::Room.at(), room);
            }
            if mop_up {
                t.add(Group::MopUp.at(), -(self.squares - room));
                t.add(Group::CloseIn.at(), -self.closeness(pos));
            }
        }
        if t.wants(Group::Routes) || t.wants(Group::Forks) {
            t.add(Group::Routes.at(), lines.routes as i32);
            t.add(Group::Forks.at(), lines.forks as i32);
        }
        if t.wants(Group::Fence) && !self.fence.is_empty() {
            let own = pos.squares_of(Side::Attackers);
            let fenced = self.fence.iter().filter(|f| own.and(f).len() >= 2).count();
            t.add(Group::Fence.at(), -(fenced as i32));
        }
        // The square tables, from the position's counts of pieces on each class of square.
        for (group, kind, sign) in [
            (Group::AttackerSquares, Placed::Attackers, -1),
            (Group::DefenderSquares, Placed::Defenders, 1),
            (Group::KingSquares, Placed::DefendersRoyal, 1),
        ] {
            if t.wants(group) {
                let at = group.at();
                for (class, &n) in pos.placed(kind).iter().enumerate() {
                    t.add(at + class, sign * i32::from(n));
                }
            }
        }
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

    /// The terms that count for `side`, with the sign they have for the defenders.
    fn for_side(
        &self,
        pos: &Position,
        side: Side,
        lines: &KingLines,
        rooms: &mut Rooms,
        t: &mut impl Terms,
    ) {
        let sign = if side == Side::Defenders { 1 } else { -1 };
        let s = side.index();
        let own = pos.squares_of(side);
        if self.plain {
            // Men and one king: the count says it all.
            let men = pos.count(side) as i32 - i32::from(pos.royal(side).is_some());
            t.add(Group::Man.at() + s, sign * men);
        } else {
            // Each role's count, kept by the position.
            for &role in self.variant.roles() {
                let index = match role {
                    Role::Man | Role::VMan => Group::Man.at() + s,
                    Role::Commander => Group::Commander.at() + s,
                    Role::Infantry => Group::Infantry.at(),
                    Role::Cavalry => Group::Cavalry.at(),
                    Role::King | Role::Standard => continue,
                };
                t.add(index, sign * pos.count_of(Piece::new(side, role)) as i32);
            }
        }
        if side == Side::Attackers && !self.guard.is_empty() && t.wants(Group::Guard) {
            let guards: u32 = self
                .guard
                .iter()
                .map(|g| (own.and(g).len() as u32).min(self.shape.guard_cap))
                .sum();
            t.add(Group::Guard.at(), -(guards as i32));
        }
        if side == Side::Defenders && t.wants(Group::EdgeLines) {
            t.add(Group::EdgeLines.at(), pos.open_to_edge(side) as i32);
        }
        if let Some(royal) = pos.royal(side) {
            if !self.goal[s].is_empty() && (t.wants(Group::Road) || t.wants(Group::OpenRoad)) {
                let (steps, more) = self.road(pos, royal, side, lines, rooms);
                t.add(Group::Road.at() + (steps - 1) as usize, sign);
                if more > 0 {
                    t.add(Group::OpenRoad.at(), sign * more as i32);
                }
            }
            if t.wants(Group::Pressure) {
                t.add(
                    Group::Pressure.at(),
                    -sign * pos.pressure(royal, side) as i32,
                );
            }
        }
    }

    /// The royal piece's road home: in how many moves it could win if nothing else moved (1, 2,
    /// or 3 for more), and how many more ways than one it has of winning at once.
    fn road(
        &self,
        pos: &Position,
        royal: Square,
        side: Side,
        lines: &KingLines,
        rooms: &mut Rooms,
    ) -> (u32, u32) {
        if self.variant.rules.armies {
            let steps = rooms.standard_road(pos, royal, side, &self.goal[side.index()]);
            (steps.clamp(1, 3), 0)
        } else if lines.escapes > 0 {
            (1, lines.escapes - 1)
        } else if lines.routes > 0 {
            (2, 0)
        } else {
            (3, 0)
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
    slots: Memo<(SquareSet, Square), u32>,
    roads: Memo<(SquareSet, Square), u32>,
}

impl Rooms {
    /// Slots for a search, as bits of the index: 1,024 slots of 80 bytes, small enough to stay
    /// in a core's cache. (16,384 slots hit more often, a third of the lookups on TYR's boards,
    /// but each lookup then missed the cache and searches ran no faster than without slots.)
    const BITS: u32 = 10;
    /// The most bits an index may have.
    const MAX_BITS: u32 = 24;

    /// Slots for a search on `board`; none where the room never counts.
    pub fn for_board(board: &Board) -> Rooms {
        Rooms::with_bits(board, Self::BITS)
    }

    /// `2^bits` slots (at most 2^24) for a search on `board`; none where the room never counts.
    pub fn with_bits(board: &Board, bits: u32) -> Rooms {
        let bits = bits.min(Self::MAX_BITS);
        let mut rooms = Rooms::none();
        if (board.room && board.weights.uses(Group::Room)) || board.weights.uses(Group::MopUp) {
            rooms.slots = Memo::new(bits);
        }
        if board.variant.rules.armies {
            rooms.roads = Memo::new(bits);
        }
        rooms
    }

    /// No slots: every room is counted afresh.
    pub fn none() -> Rooms {
        Rooms {
            slots: Memo::none(),
            roads: Memo::none(),
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
        if self.roads.is_none() {
            return road();
        }
        let taken = pos
            .squares_of(Side::Attackers)
            .or(pos.squares_of(Side::Defenders))
            .and(&pos.variant().home[side]);
        let hash = taken.mix(royal.index() as u64);
        self.roads.recall(hash, (taken, royal), road)
    }

    fn king_room(&mut self, pos: &Position) -> u32 {
        let Some(king) = pos.royal(Side::Defenders) else {
            return 0;
        };
        if self.slots.is_none() {
            return pos.king_room();
        }
        let attackers = *pos.squares_of(Side::Attackers);
        let hash = attackers.mix(king.index() as u64);
        self.slots
            .recall(hash, (attackers, king), || pos.king_room())
    }
}

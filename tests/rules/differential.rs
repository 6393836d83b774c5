//! Differential test of our rules core against the MIT crate `hnefatafl` 0.0.2 (a separate,
//! independently written tafl engine), for Tablut (Cartier's rules, RULES.md §3, and Linnaeus'
//! as hnefatafl's own preset), Brandubh (hnefatafl's Federation Brandubh preset), Copenhagen and
//! Fetlar (its Copenhagen preset, without shieldwall and exit fort for Fetlar) and Sea Battle
//! 9/11/13/15 (RULES.md §2). Perft from random mid-game positions is compared too, for every
//! variant but Sea Battle.
//!
//! Seeded random playouts run in our engine; every position on the way is written as a position
//! string, converted to hnefatafl's FEN and side to move, and checked square by square. In each
//! position the two engines must agree on the set of legal moves, and, for every legal move (not
//! only the one played), on the captured squares and on the outcome where both can state it (king
//! captured, king escaped, the side to move stuck). For the move played, the board hnefatafl makes
//! must also equal the next position. Hand-made positions cover throne and ship rules that random
//! play seldom reaches.
//!
//! Where the two engines' rules knowingly differ (and what the test does about it):
//! - Sea Battle's cargo ship is unarmed: it never captures and is never the far piece of a
//!   sandwich (RULES.md §2.3). hnefatafl's `KingAttack` has no "neither" setting; `Hammer` (never
//!   the anvil, but captures when it moves) is the closest. So when the cargo ship moves, ours must
//!   capture nothing, hnefatafl may only capture next to the landing square, and the captures,
//!   board and outcome of that move are compared only when hnefatafl also captured nothing.
//! - Encirclement (no defender can reach the edge): hnefatafl's enclosure win needs every
//!   defender inside the king's enclosed area and no attacker of its boundary capturable. For
//!   Sea Battle it is switched off, and where we declare an encirclement hnefatafl must report no
//!   result (or the defenders having no move). Brandubh, Copenhagen and Fetlar keep it on and the
//!   two must agree; no position of the runs has told the two readings apart.
//! - Repetition: we judge repeated positions (Tablut: a third repetition is an illegal move; Sea
//!   Battle: a defenders' third repetition loses); hnefatafl counts a side repeating its move of
//!   four plies before. Not compared: its rule is switched off and we compare bare positions,
//!   which carry no history.
//! - No legal move: Cartier's Tablut and Sea Battle both make the stuck side lose. hnefatafl's
//!   Tablut preset draws instead (and draws on repetition): our Cartier ruleset overrides both,
//!   and our `tablut-linnaeus` draws as it does.
//! - hnefatafl ends the game when a side has lost all its pieces (`AllCaptured`); we have no such
//!   reason: all defenders gone means the king was captured, all attackers gone means they have
//!   no move. The test maps its outcome to ours that way.
//! - hnefatafl's board always has a throne (centre) and four corners. In Sea Battle both are
//!   plain squares (anyone stops and passes, hostile to nobody); in Tablut the corners are plain.
//! - Notation only: hnefatafl's tile row 0 is the first FEN row (the top rank in our strings),
//!   which it names rank 1, so its square names are mirrored top to bottom; the test converts
//!   coordinates explicitly (our rank = n - 1 - row) and never uses its square names.
//!
//! Cartier's rule 5 (a defender beside the throne is captured against the king on his throne when
//! three attackers surround the throne) is what hnefatafl calls a Linnaean capture, so
//! `linnaean_capture` must be `true` to express it.

use std::collections::BTreeSet;
use std::time::Instant;

use hnefatafl::aliases::{LargeBasicBoardState, MediumBasicBoardState, SmallBasicBoardState};
use hnefatafl::board::state::BoardState;
use hnefatafl::collections::PieceMap;
use hnefatafl::game::logic::GameLogic;
use hnefatafl::game::state::GameState;
use hnefatafl::game::{DrawReason, GameOutcome, GameStatus, WinReason};
use hnefatafl::pieces::{PieceType, Side as HSide};
use hnefatafl::play::Play;
use hnefatafl::rules::Ruleset;
use hnefatafl::tiles::Tile;
use taflbot::notation::canonical;
use taflbot::rules::random::{playout, Rng};
use taflbot::rules::{
    parse_position, perft, write_position, Escape, Move, MoveKind, Outcome, Position, Reason, Role,
    Side, Square, Variant,
};

use crate::peer_rules;
use peer_rules::{BRANDUBH, CARTIER, COPENHAGEN, FETLAR, LINNAEUS, SEA_BATTLE};

/// An outcome in terms both engines can state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Norm {
    Ongoing,
    KingCaptured,
    KingEscaped,
    /// The side to move next has no move; the winner is given (None: a draw).
    NoMoves(Option<Side>),
    /// Ours only (Sea Battle).
    Encircled,
}

fn norm_ours(outcome: Option<Outcome>) -> Norm {
    match outcome {
        None => Norm::Ongoing,
        Some(o) => match (o.reason, o.winner) {
            (Reason::KingCaptured, Some(Side::Attackers)) => Norm::KingCaptured,
            (Reason::KingEscaped, Some(Side::Defenders)) => Norm::KingEscaped,
            (Reason::NoMoves, winner) => Norm::NoMoves(winner),
            (Reason::Encircled, Some(Side::Attackers)) => Norm::Encircled,
            _ => panic!("a position cannot end the game with {o:?}"),
        },
    }
}

fn our_side(s: HSide) -> Side {
    match s {
        HSide::Attacker => Side::Attackers,
        HSide::Defender => Side::Defenders,
    }
}

/// A legal move, our position after it, whether it captured, and hnefatafl's board after it
/// (None where the cargo ship's move is not compared).
type Checked<B> = (Move, Position, bool, Option<B>);

/// One variant in both engines.
struct Pair<B: BoardState> {
    variant: &'static Variant,
    logic: GameLogic<B>,
    n: u8,
    sea_battle: bool,
    /// Whether hnefatafl's enclosure win is switched on, to be compared with our encirclement.
    enclosure: bool,
}

/// What was checked, for the report.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    /// Games that ended before the ply limit.
    games_decided: usize,
    positions: usize,
    legal_moves: usize,
    moves_compared: usize,
    capturing_moves: usize,
    ship_moves_skipped: usize,
    encirclements_ours_only: usize,
    /// Encirclements both engines declared.
    encirclements: usize,
    king_captured: usize,
    king_escaped: usize,
    no_moves: usize,
}

/// "position `...`, move e1-e5 (ours: e1-e5xe6)", for assertion messages.
fn at(text: &str, pos: &Position, m: Move) -> String {
    format!(
        "position `{text}`, move {}-{} (ours: {})",
        m.from,
        m.to,
        canonical(pos, m)
    )
}

impl<B: BoardState> Pair<B> {
    fn new(id: &str, rules: Ruleset) -> Pair<B> {
        let variant = Variant::by_id(id).unwrap_or_else(|| panic!("no variant {id}"));
        assert_eq!(
            variant.files, variant.ranks,
            "{id}: hnefatafl boards are square"
        );
        let n = variant.files;
        Pair {
            variant,
            logic: GameLogic::new(rules, n),
            n,
            sea_battle: id.starts_with("sea-battle"),
            enclosure: rules.enclosure_win.is_some(),
        }
    }

    /// hnefatafl's tile for our square: its row 0 is the top rank.
    fn tile(&self, sq: Square) -> Tile {
        Tile::new(self.n - 1 - sq.rank(), sq.file())
    }

    fn square(&self, t: Tile) -> Square {
        Square::new(t.col, self.n - 1 - t.row).expect("tile on the board")
    }

    /// Whether the king escapes on `sq` in this variant.
    fn escapes_on(&self, sq: Square) -> bool {
        let last = self.n - 1;
        match self.variant.rules.escape {
            Escape::Edge => {
                sq.file() == 0 || sq.rank() == 0 || sq.file() == last || sq.rank() == last
            }
            Escape::Corner => {
                (sq.file() == 0 || sq.file() == last) && (sq.rank() == 0 || sq.rank() == last)
            }
            Escape::None => false,
        }
    }

    /// hnefatafl's state from our position string, checked square by square against `pos`.
    fn state(&self, text: &str, pos: &Position) -> GameState<B> {
        let mut fields = text.split_whitespace();
        let board = fields.next().expect("a board");
        let side = match fields.next() {
            Some("a") => HSide::Attacker,
            Some("d") => HSide::Defender,
            other => panic!("position `{text}`: side {other:?}"),
        };
        assert_eq!(
            fields.next(),
            None,
            "position `{text}`: no turn-state fields"
        );
        // Both formats list the rows from the top and use t/T/K: the board part carries over.
        assert!(
            board
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '/' | 't' | 'T' | 'K')),
            "position `{text}`: only t, T and K"
        );
        let state = GameState::<B>::new(board, side)
            .unwrap_or_else(|e| panic!("position `{text}`: hnefatafl cannot read it: {e:?}"));
        assert_eq!(state.board.side_len(), self.n, "position `{text}`");
        for sq in self.variant.squares() {
            let ours = pos.piece_at(sq).map(|p| (p.side, p.role == Role::King));
            let theirs = state
                .board
                .get_piece(self.tile(sq))
                .map(|p| (our_side(p.side), p.piece_type == PieceType::King));
            assert_eq!(ours, theirs, "position `{text}`: the piece on {sq}");
        }
        assert_eq!(
            our_side(state.side_to_play),
            pos.turn(),
            "position `{text}`"
        );
        state
    }

    /// hnefatafl's legal moves, as our squares.
    fn their_moves(&self, text: &str, state: &GameState<B>) -> BTreeSet<(Square, Square)> {
        let mut out = BTreeSet::new();
        for from in state.board.occupied_by_side(state.side_to_play) {
            for vp in self
                .logic
                .iter_plays(from, state)
                .expect("an occupied tile")
            {
                let added = out.insert((self.square(vp.play.from), self.square(vp.play.to())));
                assert!(
                    added,
                    "position `{text}`: hnefatafl listed {} twice",
                    vp.play
                );
            }
        }
        out
    }

    /// hnefatafl's outcome in our terms, or the outcome if its rules here should never give it.
    fn their_outcome(
        &self,
        outcome: Option<GameOutcome>,
        king_moved: bool,
        to: Square,
    ) -> Result<Norm, GameOutcome> {
        Ok(match outcome {
            None => Norm::Ongoing,
            Some(GameOutcome::Win(WinReason::KingCaptured, HSide::Attacker)) => Norm::KingCaptured,
            Some(GameOutcome::Win(WinReason::KingEscaped, HSide::Defender)) => Norm::KingEscaped,
            // All defenders gone: the king among them.
            Some(GameOutcome::Win(WinReason::AllCaptured, HSide::Attacker)) => Norm::KingCaptured,
            // All attackers gone: checked before the escape, and leaves them without a move.
            Some(GameOutcome::Win(WinReason::AllCaptured, HSide::Defender)) => {
                if king_moved && self.escapes_on(to) {
                    Norm::KingEscaped
                } else {
                    Norm::NoMoves(Some(Side::Defenders))
                }
            }
            Some(GameOutcome::Win(WinReason::NoPlays, s)) => Norm::NoMoves(Some(our_side(s))),
            Some(GameOutcome::Draw(DrawReason::NoPlays)) => Norm::NoMoves(None),
            Some(GameOutcome::Win(WinReason::Enclosed, HSide::Attacker)) if self.enclosure => {
                Norm::Encircled
            }
            Some(other) => return Err(other),
        })
    }

    /// Compares the legal move sets; returns our moves.
    fn compare_legal(&self, text: &str, pos: &Position, state: &GameState<B>) -> Vec<Move> {
        let moves = pos.legal_moves();
        let mut ours = BTreeSet::new();
        for m in &moves {
            assert_eq!(m.kind, MoveKind::Slide, "position `{text}`: {m:?}");
            assert!(
                ours.insert((m.from, m.to)),
                "position `{text}`: {m:?} twice"
            );
        }
        let theirs = self.their_moves(text, state);
        if ours != theirs {
            let names = |s: Vec<&(Square, Square)>| {
                s.iter()
                    .map(|(f, t)| format!("{f}-{t}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            panic!(
                "{}: legal moves differ in position `{text}`\n only ours: {}\n only hnefatafl's: {}",
                self.variant.id,
                names(ours.difference(&theirs).collect()),
                names(theirs.difference(&ours).collect()),
            );
        }
        moves
    }

    /// Plays `m` in both engines and compares the captures and the outcome. The board after it is
    /// compared by the caller, for the move it goes on with, from what this returns (see
    /// [`Checked`]).
    fn compare_move(
        &self,
        text: &str,
        pos: &Position,
        state: &GameState<B>,
        m: Move,
        stats: &mut Stats,
    ) -> (Position, bool, Option<B>) {
        let id = self.variant.id;
        let king_moved = pos.piece_at(m.from).is_some_and(|p| p.role == Role::King);
        let mut after = pos.clone();
        let ours: BTreeSet<Square> = after.play_unchecked(m).sorted().into_iter().collect();

        let play = Play::from_tiles(self.tile(m.from), self.tile(m.to)).expect("a straight move");
        let result = self
            .logic
            .do_play(play, *state)
            .unwrap_or_else(|e| panic!("{id}: hnefatafl refuses {e:?}: {}", at(text, pos, m)));
        let theirs: BTreeSet<Square> = result
            .record
            .effects
            .captures
            .occupied()
            .into_iter()
            .map(|t| self.square(t))
            .collect();
        stats.moves_compared += 1;

        if self.sea_battle && king_moved {
            // The cargo ship never captures (ours); hnefatafl's Hammer king captures like a man.
            assert!(
                ours.is_empty(),
                "{id}: the cargo ship captured: {}",
                at(text, pos, m)
            );
            for sq in &theirs {
                assert!(
                    sq.file().abs_diff(m.to.file()) + sq.rank().abs_diff(m.to.rank()) == 1,
                    "{id}: hnefatafl's king captured {sq}, not beside {}: {}",
                    m.to,
                    at(text, pos, m)
                );
            }
            if !theirs.is_empty() {
                stats.ship_moves_skipped += 1;
                return (after, false, None);
            }
        }
        assert_eq!(
            ours,
            theirs,
            "{id}: captures differ (left ours, right hnefatafl's): {}",
            at(text, pos, m)
        );
        if !ours.is_empty() {
            stats.capturing_moves += 1;
        }

        let our_outcome = norm_ours(after.outcome());
        let their_outcome = self
            .their_outcome(result.record.effects.game_outcome, king_moved, m.to)
            .unwrap_or_else(|o| {
                panic!(
                    "{id}: hnefatafl gave {o:?}, switched off here: {}",
                    at(text, pos, m)
                )
            });
        if our_outcome == Norm::Encircled && !self.enclosure {
            assert!(
                matches!(
                    their_outcome,
                    Norm::Ongoing | Norm::NoMoves(Some(Side::Attackers))
                ),
                "{id}: we see an encirclement, hnefatafl {their_outcome:?}: {}",
                at(text, pos, m)
            );
            stats.encirclements_ours_only += 1;
        } else {
            assert_eq!(
                our_outcome,
                their_outcome,
                "{id}: outcomes differ (left ours, right hnefatafl's): {}",
                at(text, pos, m)
            );
        }
        match our_outcome {
            Norm::KingCaptured => stats.king_captured += 1,
            Norm::KingEscaped => stats.king_escaped += 1,
            Norm::NoMoves(_) => stats.no_moves += 1,
            Norm::Encircled if self.enclosure => stats.encirclements += 1,
            _ => {}
        }
        if our_outcome == Norm::Ongoing {
            assert_eq!(
                our_side(result.new_state.side_to_play),
                after.turn(),
                "{id}: side to move after {}",
                at(text, pos, m)
            );
        }
        (after, !ours.is_empty(), Some(result.new_state.board))
    }

    /// Every comparison in one position: legal moves, and every legal move played in both.
    /// Returns what [`Pair::compare_move`] found for each legal move.
    fn check_position(&self, pos: &Position, stats: &mut Stats) -> Vec<Checked<B>> {
        let text = write_position(pos);
        let reread = parse_position(self.variant, &text)
            .unwrap_or_else(|e| panic!("position `{text}` does not read back: {e}"));
        assert!(reread == *pos, "position `{text}` reads back differently");
        let state = self.state(&text, pos);
        stats.positions += 1;
        let moves = self.compare_legal(&text, pos, &state);
        stats.legal_moves += moves.len();
        moves
            .into_iter()
            .map(|m| {
                let (after, captured, board) = self.compare_move(&text, pos, &state, m, stats);
                (m, after, captured, board)
            })
            .collect()
    }

    /// Seeded random playouts from the start, checking every position on the way. Half the moves
    /// are drawn from the capturing moves when there are any, to reach crowded endings.
    fn playouts(&self, games: u64, max_plies: usize, seed: u64) -> Stats {
        let mut stats = Stats::default();
        for g in 0..games {
            let mut rng = Rng::new(seed ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut pos = Position::start(self.variant);
            for _ in 0..max_plies {
                if pos.is_over() {
                    break;
                }
                let mut options = self.check_position(&pos, &mut stats);
                assert!(
                    !options.is_empty(),
                    "position `{}`: a game in play has a move",
                    write_position(&pos)
                );
                let capturing: Vec<usize> = (0..options.len()).filter(|&i| options[i].2).collect();
                let pick = if !capturing.is_empty() && rng.below(2) == 0 {
                    capturing[rng.below(capturing.len())]
                } else {
                    rng.below(options.len())
                };
                let (m, next, _, their_board) = options.swap_remove(pick);
                if let Some(board) = their_board {
                    // The board hnefatafl made is the board of our position string after it.
                    let next_text = write_position(&next);
                    let rebuilt = self.state(&next_text, &next).board;
                    assert!(
                        board == rebuilt,
                        "{}: boards differ after {}:\n hnefatafl's: {}",
                        self.variant.id,
                        at(&write_position(&pos), &pos, m),
                        board.to_fen()
                    );
                }
                pos = next;
            }
            stats.games += 1;
            stats.games_decided += usize::from(pos.is_over());
        }
        stats
    }
}

fn run<B: BoardState>(id: &str, rules: Ruleset, games: u64, max_plies: usize) {
    let start = Instant::now();
    let pair = Pair::<B>::new(id, rules);
    let seed = id
        .bytes()
        .fold(0x7a6f_6c01, |h: u64, b| h.rotate_left(7) ^ u64::from(b));
    let stats = pair.playouts(games, max_plies, seed);
    println!("{id}: {stats:?} in {:.2?}", start.elapsed());
    assert_eq!(stats.games as u64, games);
    assert!(
        stats.capturing_moves > 0,
        "{id}: no capture was ever compared"
    );
    assert!(stats.king_escaped > 0, "{id}: no escape was ever compared");
}

#[test]
fn tablut_matches_hnefatafl() {
    run::<MediumBasicBoardState>("tablut", CARTIER, 1000, 200);
}

#[test]
fn tablut_linnaeus_matches_hnefatafl() {
    run::<MediumBasicBoardState>("tablut-linnaeus", LINNAEUS, 1000, 200);
}

#[test]
fn brandubh_matches_hnefatafl() {
    run::<SmallBasicBoardState>("brandubh", BRANDUBH, 3000, 200);
}

#[test]
fn copenhagen_matches_hnefatafl() {
    run::<MediumBasicBoardState>("copenhagen", COPENHAGEN, 200, 300);
}

#[test]
fn fetlar_matches_hnefatafl() {
    run::<MediumBasicBoardState>("fetlar", FETLAR, 200, 300);
}

#[test]
fn sea_battle_9_matches_hnefatafl() {
    run::<MediumBasicBoardState>("sea-battle-9", SEA_BATTLE, 600, 200);
}

#[test]
fn sea_battle_11_matches_hnefatafl() {
    run::<MediumBasicBoardState>("sea-battle-11", SEA_BATTLE, 200, 200);
}

#[test]
fn sea_battle_13_matches_hnefatafl() {
    run::<LargeBasicBoardState>("sea-battle-13", SEA_BATTLE, 100, 200);
}

#[test]
fn sea_battle_15_matches_hnefatafl() {
    run::<LargeBasicBoardState>("sea-battle-15", SEA_BATTLE, 100, 200);
}

/// hnefatafl's perft, counted as ours is: sequences of exactly `depth` plies, a finished game
/// adding nothing past its own ply.
fn their_perft<B: BoardState>(logic: &GameLogic<B>, state: &GameState<B>, depth: u32) -> u64 {
    let mut total = 0;
    for from in state.board.occupied_by_side(state.side_to_play) {
        for vp in logic.iter_plays(from, state).expect("an occupied tile") {
            if depth == 1 {
                total += 1;
                continue;
            }
            let next = logic.do_valid_play(vp, *state).new_state;
            if next.status == GameStatus::Ongoing {
                total += their_perft(logic, &next, depth - 1);
            }
        }
    }
    total
}

/// Perft to `depth` from `positions` seeded random mid-game positions (8 to 47 plies from the
/// start, games still going) in both engines. Returns the number of move sequences compared.
fn perft_from_midgame<B: BoardState>(id: &str, rules: Ruleset, positions: u64, depth: u32) -> u64 {
    let pair = Pair::<B>::new(id, rules);
    let mut compared = 0;
    let (mut seed, mut found) = (id.bytes().map(u64::from).sum::<u64>() << 20, 0);
    while found < positions {
        seed += 1;
        let mut rng = Rng::new(seed);
        let plies = 8 + rng.below(40);
        let pos = playout(&Position::start(pair.variant), &mut rng, plies, |_, _| {});
        if pos.is_over() {
            continue;
        }
        found += 1;
        let text = write_position(&pos);
        let state = pair.state(&text, &pos);
        for d in 1..=depth {
            let ours = perft(&pos, d);
            let theirs = their_perft(&pair.logic, &state, d);
            assert_eq!(ours, theirs, "{id}: perft {d} of `{text}` (left ours)");
            compared += ours;
        }
    }
    compared
}

#[test]
fn perft_from_midgame_positions_matches_hnefatafl() {
    // Sea Battle is left out: hnefatafl cannot state its unarmed ship or its encirclement.
    let counted = [
        perft_from_midgame::<MediumBasicBoardState>("tablut", CARTIER, 12, 3),
        perft_from_midgame::<MediumBasicBoardState>("tablut-linnaeus", LINNAEUS, 12, 3),
        perft_from_midgame::<SmallBasicBoardState>("brandubh", BRANDUBH, 20, 4),
        perft_from_midgame::<MediumBasicBoardState>("copenhagen", COPENHAGEN, 6, 3),
        perft_from_midgame::<MediumBasicBoardState>("fetlar", FETLAR, 6, 3),
    ];
    println!("move sequences compared: {counted:?}");
    assert!(counted.iter().all(|&n| n > 10_000), "{counted:?}");
}

/// Checks one hand-made position in both engines (the legal moves, and every legal move played
/// in both), then returns our canonical form of `mv` in it, followed by the outcome if it ends the
/// game: "a3-e3xe4 KingCaptured".
fn fixed<B: BoardState>(id: &str, rules: Ruleset, text: &str, mv: &str) -> String {
    let pair = Pair::<B>::new(id, rules);
    let pos = parse_position(pair.variant, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    assert!(!pos.is_over(), "`{text}` is already decided");
    let mut stats = Stats::default();
    let options = pair.check_position(&pos, &mut stats);
    let (m, after, _, _) = options
        .into_iter()
        .find(|(m, ..)| format!("{}-{}", m.from, m.to) == mv)
        .unwrap_or_else(|| panic!("{mv} is not legal in `{text}`"));
    match norm_ours(after.outcome()) {
        Norm::Ongoing => canonical(&pos, m),
        outcome => format!("{} {outcome:?}", canonical(&pos, m)),
    }
}

/// Positions chosen to exercise the throne and king rules that random play seldom reaches.
#[test]
fn tablut_throne_cases_match_hnefatafl() {
    let t = |text: &str, mv: &str| fixed::<MediumBasicBoardState>("tablut", CARTIER, text, mv);
    // Rule 5: the king on his throne, attackers on d5 f5 e6: a3-e3 captures the defender on e4.
    assert_eq!(t("9/9/9/4t4/3tKt3/4T4/t8/9/9 a", "a3-e3"), "a3-e3xe4");
    // With two attackers beside the throne the occupied throne is not hostile to e4.
    assert_eq!(t("9/9/9/9/3tKt3/4T4/t8/9/9 a", "a3-e3"), "a3-e3");
    // The king is armed on his throne: i5-g5 captures the attacker on f5 against him.
    assert_eq!(t("8t/9/9/9/4Kt2T/9/9/9/9 d", "i5-g5"), "i5-g5xf5");
    // The empty throne is hostile to a defender beside it, to an attacker, and the king captures
    // against it.
    assert_eq!(t("9/9/9/9/3T5/9/9/1K7/2t6 a", "c1-c5"), "c1-c5xd5");
    assert_eq!(t("8t/9/9/9/3t5/9/9/1K7/2T6 d", "c1-c5"), "c1-c5xd5");
    assert_eq!(t("8t/9/9/9/3t5/2K6/9/9/9 d", "c4-c5"), "c4-c5xd5");
    // The king beside the throne: three attackers and the throne capture him; two do not, in line
    // or at right angles.
    assert_eq!(
        t("9/9/9/9/9/3tKt3/t8/9/9 a", "a3-e3"),
        "a3-e3xe4 KingCaptured"
    );
    assert_eq!(t("9/9/9/9/9/3tK4/t8/9/9 a", "a3-e3"), "a3-e3");
    assert_eq!(
        t("9/9/9/3t5/2tK5/t8/9/9/9 a", "a4-d4"),
        "a4-d4xd5 KingCaptured"
    );
    assert_eq!(t("9/9/9/3t5/3K5/t8/9/9/9 a", "a4-d4"), "a4-d4");
    // The king on the throne: four attackers capture him, three do not.
    assert_eq!(
        t("9/9/9/4t4/3tKt3/9/4t4/9/9 a", "e3-e4"),
        "e3-e4xe5 KingCaptured"
    );
    assert_eq!(t("9/9/9/9/3tKt3/9/4t4/9/9 a", "e3-e4"), "e3-e4");
    // Elsewhere two attackers on opposite sides capture him; two at right angles do not.
    assert_eq!(
        t("9/9/9/9/9/9/1tK6/9/3t5 a", "d1-d3"),
        "d1-d3xc3 KingCaptured"
    );
    assert_eq!(t("1t7/9/9/9/9/9/2K6/2t6/9 a", "b9-b3"), "b9-b3");
    // The king may not go back to the throne or pass it; corners are plain squares.
    assert_eq!(t("9/9/9/9/9/9/4K4/9/t8 d", "e3-e4"), "e3-e4");
    assert_eq!(t("9/T8/2t6/9/9/9/9/1K7/9 a", "c7-a7"), "c7-a7");
    // A side left without a move loses (hnefatafl's Tablut preset would call it a draw).
    assert_eq!(
        t("9/9/4t4/3tTt3/t2TKTt2/3tTt3/4t4/9/9 a", "a5-c5"),
        "a5-c5 NoMoves(Some(Attackers))"
    );
    // The king escapes on any edge square.
    assert_eq!(t("9/9/9/9/9/9/2K6/9/t8 d", "c3-c1"), "c3-c1 KingEscaped");
}

#[test]
fn sea_battle_ship_cases_match_hnefatafl() {
    let s =
        |text: &str, mv: &str| fixed::<MediumBasicBoardState>("sea-battle-9", SEA_BATTLE, text, mv);
    // Four attackers capture the cargo ship; three do not.
    assert_eq!(
        s("9/9/9/4t4/3tK3t/4t4/9/9/9 a", "i5-f5"),
        "i5-f5xe5 KingCaptured"
    );
    assert_eq!(s("9/9/9/4t4/3tK3t/9/9/9/9 a", "i5-f5"), "i5-f5");
    // The ship is never the anvil.
    assert_eq!(s("9/9/9/9/2Kt4T/9/9/9/9 d", "i5-e5"), "i5-e5");
    // The ship never captures (hnefatafl's king does: there the comparison skips the move).
    assert_eq!(s("9/9/9/9/1Tt4K1/9/9/9/9 d", "h5-d5"), "h5-d5");
    // The centre and the corners are plain squares.
    assert_eq!(s("9/9/9/9/5T2t/9/9/1K7/9 a", "i5-g5"), "i5-g5");
    assert_eq!(s("9/T8/2t6/9/9/9/9/1K7/9 a", "c7-a7"), "c7-a7");
    // Encirclement: ours only; hnefatafl must see the game go on.
    assert_eq!(
        s("9/9/4t4/3t1t3/2t1K1t2/3t1t3/9/9/4t4 a", "e1-e3"),
        "e1-e3 Encircled"
    );
    // The last attacker captured: hnefatafl says AllCaptured, we say the attackers cannot move.
    assert_eq!(
        s("9/1K7/9/9/9/9/1Tt4T1/9/9 d", "h3-d3"),
        "h3-d3xc3 NoMoves(Some(Defenders))"
    );
}

/// Brandubh's throne, corners, king and encirclement, in both engines.
#[test]
fn brandubh_cases_match_hnefatafl() {
    let b = |pieces: &str, side: &str, mv: &str| {
        let text = crate::common::position_string("brandubh", side, pieces);
        fixed::<SmallBasicBoardState>("brandubh", BRANDUBH, &text, mv)
    };
    // Away from the throne two attackers capture the king; this one passes the empty throne.
    assert_eq!(b("Kc2 tb2 td6", "a", "d6-d2"), "d6-d2xc2 KingCaptured");
    // A corner stands in for the second attacker, against the king too.
    assert_eq!(b("Kb1 tc3 Tf6", "a", "c3-c1"), "c3-c1xb1 KingCaptured");
    assert_eq!(b("Tb1 tc3 Kf6", "a", "c3-c1"), "c3-c1xb1");
    // Beside the throne: three attackers and the throne; two are not enough.
    assert_eq!(b("Kd5 tc5 te5 ta6", "a", "a6-d6"), "a6-d6xd5 KingCaptured");
    assert_eq!(b("Kd5 tc5 ta6 Tg3", "a", "a6-d6"), "a6-d6");
    // On the throne: four attackers; three are not enough.
    assert_eq!(
        b("Kd4 tc4 te4 td5 ta3", "a", "a3-d3"),
        "a3-d3xd4 KingCaptured"
    );
    assert_eq!(b("Kd4 tc4 te4 ta3", "a", "a3-d3"), "a3-d3");
    // The empty throne is hostile to a defender; the king's throne is not, and he is armed on it.
    assert_eq!(b("Td5 ta6 Kf2", "a", "a6-d6"), "a6-d6xd5");
    assert_eq!(b("Kd4 Td5 ta6", "a", "a6-d6"), "a6-d6");
    assert_eq!(b("Kd4 td5 Ta6 tg6", "d", "a6-d6"), "a6-d6xd5");
    // The king goes back to his throne, and escapes only to a corner.
    assert_eq!(b("Kd6 tb7 tg2", "d", "d6-d4"), "d6-d4");
    assert_eq!(b("Kb2 tb7 tg2", "d", "b2-b1"), "b2-b1");
    assert_eq!(b("Kb1 tb7 tg2", "d", "b1-a1"), "b1-a1 KingEscaped");
    // The attackers close a ring around every defender: an encirclement in both engines.
    assert_eq!(
        b("Kd4 Td5 Td3 tc3 tc4 tc5 te3 te4 te5 td6 ta2", "a", "a2-d2"),
        "a2-d2 Encircled"
    );
}

/// Linnaeus' Tablut ends games that cannot be won as draws, where Cartier's makes them losses.
#[test]
fn linnaeus_cases_match_hnefatafl() {
    let l = |text: &str, mv: &str| {
        fixed::<MediumBasicBoardState>("tablut-linnaeus", LINNAEUS, text, mv)
    };
    // The defenders, walled in, have no move after a5-c5: a draw.
    assert_eq!(
        l("9/9/4t4/3tTt3/t2TKTt2/3tTt3/4t4/9/9 a", "a5-c5"),
        "a5-c5 NoMoves(None)"
    );
    // A side that lost its last piece has lost, not drawn.
    assert_eq!(
        l("9/1K7/9/9/9/9/1Tt4T1/9/9 d", "h3-d3"),
        "h3-d3xc3 NoMoves(Some(Defenders))"
    );
}

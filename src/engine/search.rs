//! The search: iterative deepening, principal variation search with a transposition table, move
//! ordering by captures, king moves, killers and history, and a quiescence step that follows
//! captures and answers every threat of a king's escape.
//!
//! Scores are for the side to move. A move after which the same side moves again (a berserk
//! chain, the second slot of a Save the Standard turn) keeps the score's sign.

use std::time::Instant;

use super::eval::{Board, Evals, Rooms};
use super::net::LineSums;
use super::{Limits, Step};
use crate::rules::{Game, Move, Outcome, Position, Repetition, Side};
use table::{from_table, to_table, Bound, Entry, Table};

/// A won game, less the plies it takes.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
pub const WON: i32 = WIN - 10_000;
const INFINITE: i32 = WIN + 1;
const MAX_PLY: usize = 128;
/// Captures followed past the horizon, at most.
const QUIESCENCE_PLIES: u32 = 8;

/// What one search found.
pub struct Found {
    pub best: Step,
    pub score: i32,
    pub depth: u32,
    /// The best score of the depth before the last finished one (`None` at depth 1): a score
    /// leans to whichever side moves last in the search, so the mean of two depths leans to
    /// neither.
    pub shallower: Option<i32>,
    pub pv: Vec<Step>,
    /// Every root step with its score at the last finished depth (for the weaker levels).
    pub root: Vec<(Step, i32)>,
}

pub struct Search<'a> {
    board: &'a Board,
    game: &'a Game,
    limits: Limits,
    started: Instant,
    pub nodes: u64,
    /// Node count at which the limits are next checked.
    next_check: u64,
    stopped: bool,
    table: Table,
    killers: [[Option<Step>; 2]; MAX_PLY],
    history: Vec<u32>,
    /// Keys of the positions at the ends of turns along the current line.
    path: Vec<u64>,
    buffers: Vec<Vec<Move>>,
    /// The best line found below each ply, in the triangular way: `lines[ply]` starts with the
    /// step chosen at `ply`.
    lines: Vec<Vec<Step>>,
    /// Per ply: the ordered steps, and the quiescence step's captures (kept to spare allocations).
    ordered: Vec<Vec<(Step, i32)>>,
    captures: Vec<Vec<(Move, i32)>>,
    /// Score every root step exactly (a full window for each), for choosing among good ones.
    pub exact_root: bool,
    /// A root step scored exactly beside the best (a review's played step), the others bounded.
    pub exact_step: Option<Step>,
    /// The side the search chooses for: a draw costs it [`CONTEMPT`], so it plays on while it is
    /// not clearly behind instead of repeating into a draw.
    root_side: Side,
    /// The king's rooms already counted.
    rooms: Rooms,
    /// The evaluations already made.
    evals: Evals,
    /// The network's sums along the line, where the board has a network.
    sums: Option<LineSums>,
}

/// What a draw is worth less than an even position to the side searching, in hundredths of a
/// man: less than a man, so a side clearly behind still takes the draw.
pub const CONTEMPT: i32 = 40;

impl<'a> Search<'a> {
    pub fn new(board: &'a Board, game: &'a Game, limits: Limits, table_bits: u32) -> Search<'a> {
        Search {
            board,
            game,
            limits,
            started: Instant::now(),
            nodes: 0,
            next_check: 1024,
            stopped: false,
            table: Table::new(table_bits),
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 1 << 12],
            path: Vec::with_capacity(MAX_PLY),
            buffers: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            exact_root: false,
            exact_step: None,
            ordered: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            captures: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            lines: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            root_side: game.position().turn(),
            rooms: Rooms::for_board(board),
            evals: Evals::new(),
            sums: LineSums::of(board, MAX_PLY + 1),
        }
    }

    /// `pos` is the position at `ply` now: the network's sums of the ply are to be made again.
    #[inline]
    fn enter(&mut self, ply: usize, pos: &Position) {
        if let Some(sums) = &mut self.sums {
            sums.enter(ply, pos);
        }
    }

    /// A draw's score for `mover`.
    #[inline]
    fn draw(&self, mover: Side) -> i32 {
        if mover == self.root_side {
            -CONTEMPT
        } else {
            CONTEMPT
        }
    }

    /// The score of a finished game for the side to move in it, `ply` plies from the root.
    #[inline]
    fn terminal(&self, o: Outcome, to_move: Side, ply: usize) -> i32 {
        match o.winner {
            None => self.draw(to_move),
            Some(w) if w == to_move => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
        }
    }

    pub fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// Iterative deepening from the game's position over `steps` (the legal steps, in order).
    /// At least depth 1 is always finished.
    pub fn run(&mut self, steps: &[Step]) -> Found {
        let pos = self.game.position().clone();
        self.enter(0, &pos);
        let max_depth = self.limits.depth.unwrap_or(64).clamp(1, MAX_PLY as u32 - 8);
        let mut found: Option<Found> = None;
        let mut order: Vec<Step> = steps.to_vec();
        for depth in 1..=max_depth {
            let mut alpha = -INFINITE;
            let mut scored = Vec::with_capacity(order.len());
            let mut best = (order[0], -INFINITE);
            let mut best_line: Vec<Step> = Vec::new();
            for (i, &step) in order.iter().enumerate() {
                let Some(next) = apply(&pos, step) else {
                    continue;
                };
                let exact = self.exact_root || self.exact_step == Some(step);
                let full = i == 0 || depth == 1 || exact;
                let window = (if exact { -INFINITE } else { alpha }, INFINITE);
                let score = self.score_step(&pos, &next, depth as i32 - 1, 1, window, full);
                if self.stopped && depth > 1 {
                    break;
                }
                // At depth 1 every step gets its exact score (the weaker levels choose among them).
                scored.push((step, score));
                if score > best.1 {
                    best = (step, score);
                    let below = std::mem::take(&mut self.lines[1]);
                    best_line.clear();
                    best_line.push(step);
                    best_line.extend_from_slice(&below);
                    self.lines[1] = below;
                    if depth > 1 && !self.exact_root {
                        alpha = alpha.max(score);
                    }
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            // The next iteration tries the best step first, the others by this one's scores.
            scored.sort_by_key(|s| std::cmp::Reverse(s.1));
            order = scored.iter().map(|s| s.0).collect();
            self.table.put(Entry {
                key: pos.hash(),
                step: Some(best.0),
                score: best.1,
                depth: depth as i16,
                bound: Bound::Exact,
            });
            let pv = if best_line.first() == Some(&best.0) {
                best_line
            } else {
                vec![best.0]
            };
            let shallower = found.as_ref().map(|f| f.score);
            found = Some(Found {
                best: best.0,
                score: best.1,
                depth,
                shallower,
                pv,
                root: scored,
            });
            if best.1.abs() >= WON || self.out_of_budget() {
                break;
            }
        }
        found.expect("depth 1 always finishes")
    }

    /// Whether the search must stop now: checked every thousand nodes or so.
    fn out_of_budget(&self) -> bool {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        self.limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
    }

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            if self.out_of_budget() {
                self.stopped = true;
            }
        }
    }

    /// The score of `next` for the mover of the step that made it.
    #[inline]
    fn child(
        &mut self,
        next: &Position,
        same: bool,
        depth: i32,
        ply: usize,
        lo: i32,
        hi: i32,
    ) -> i32 {
        if same {
            self.search(next, depth, ply, lo, hi)
        } else {
            -self.search(next, depth, ply, -hi, -lo)
        }
    }

    /// The score of `next`, reached from `pos`, for the mover: by the repetition rule, or searched
    /// `depth` plies more at `ply`, with a null window first unless `full` (principal variation
    /// search: a step that proves better than `alpha` is searched again in full).
    fn score_step(
        &mut self,
        pos: &Position,
        next: &Position,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        full: bool,
    ) -> i32 {
        self.lines[ply].clear();
        if let Some(rep) = self.repeats(pos, next) {
            return rep;
        }
        let ends = next.turn() != pos.turn();
        if ends {
            self.path.push(next.hash());
        }
        let same = !ends;
        let score = if full {
            self.child(next, same, depth, ply, alpha, beta)
        } else {
            let probe = self.child(next, same, depth, ply, alpha, alpha + 1);
            if probe > alpha && probe < beta && !self.stopped {
                self.child(next, same, depth, ply, alpha, beta)
            } else {
                probe
            }
        };
        if ends {
            self.path.pop();
        }
        score
    }

    /// When `next` (reached from `pos`) ends a turn in a position already seen on this line or
    /// in the game: its score for the mover under the variant's repetition rule.
    fn repeats(&self, pos: &Position, next: &Position) -> Option<i32> {
        if next.turn() == pos.turn() || next.is_over() {
            return None;
        }
        let key = next.hash();
        if !self.path.contains(&key) && self.game.times_seen(key) == 0 {
            return None;
        }
        let mover = pos.turn();
        let loses = match self.board.variant.rules.repetition {
            Repetition::DefendersLose | Repetition::Perpetual => mover == Side::Defenders,
            Repetition::PerpetualEitherSide => true,
            Repetition::Draw | Repetition::Illegal => false,
        };
        // A repetition is scored at its second occurrence: what a third would bring.
        Some(if loses { -(WON - 1) } else { self.draw(mover) })
    }

    fn search(&mut self, pos: &Position, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.lines[ply].clear();
        if let Some(o) = pos.outcome() {
            self.nodes += 1;
            return self.terminal(o, pos.turn(), ply);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        self.enter(ply, pos);
        self.tick();
        if self.stopped {
            return 0;
        }
        let key = pos.hash();
        let mut table_step = None;
        if let Some(e) = self.table.get(key) {
            table_step = e.step;
            if e.depth as i32 >= depth {
                let score = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves_into(&mut moves);
        let mut steps = std::mem::take(&mut self.ordered[ply]);
        self.order(pos, &moves, table_step, ply, &mut steps);
        self.buffers[ply] = moves;
        if pos.chain().is_some() {
            steps.push((Step::EndTurn, 0));
        }
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_step = None;
        for (i, &(step, _)) in steps.iter().enumerate() {
            let Some(next) = apply(pos, step) else {
                continue;
            };
            let score = self.score_step(pos, &next, depth - 1, ply + 1, (alpha, beta), i == 0);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_step = Some(step);
                if score > alpha {
                    alpha = score;
                    let (here, below) = self.lines.split_at_mut(ply + 1);
                    let line = &mut here[ply];
                    line.clear();
                    line.push(step);
                    line.extend_from_slice(&below[0]);
                    if alpha >= beta {
                        if let Step::Move(m) = step {
                            if !pos.captures_anything(m) {
                                self.remember(ply, step, m, depth);
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.ordered[ply] = steps;
        self.table.put(Entry {
            key,
            step: best_step,
            score: to_table(best, ply),
            depth: depth as i16,
            bound,
        });
        best
    }

    /// A quiet move that refuted: a killer at this ply, and history.
    fn remember(&mut self, ply: usize, step: Step, m: Move, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(step) {
            k[1] = k[0];
            k[0] = Some(step);
        }
        let h = &mut self.history[history_index(m)];
        *h = h.saturating_add((depth * depth) as u32);
    }

    /// The moves in the order to try them: the table's, captures (more first), the king's, the
    /// killers, then by history.
    fn order(
        &self,
        pos: &Position,
        moves: &[Move],
        table: Option<Step>,
        ply: usize,
        steps: &mut Vec<(Step, i32)>,
    ) {
        let targets = pos.capture_targets();
        let king = pos.royal(Side::Defenders);
        let killers = self.killers[ply];
        steps.clear();
        steps.extend(moves.iter().map(|&m| {
            let step = Step::Move(m);
            let may_capture = targets.contains(m.to) || m.kind != crate::rules::MoveKind::Slide;
            let caught = if may_capture {
                pos.captures_of(m).len() as i32
            } else {
                0
            };
            let key = if Some(step) == table {
                i32::MAX
            } else if caught > 0 {
                1 << 28 | caught
            } else if Some(m.from) == king {
                1 << 26
            } else if killers[0] == Some(step) {
                1 << 25
            } else if killers[1] == Some(step) {
                1 << 24
            } else {
                self.history[history_index(m)] as i32 / 8
            };
            (step, key)
        }));
        steps.sort_unstable_by_key(|s| std::cmp::Reverse(s.1));
    }

    /// Past the horizon: captures only, unless the defenders threaten to escape, which every
    /// move may answer; the defenders with an escape at hand have won.
    fn quiesce(&mut self, pos: &Position, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.tick();
        self.enter(ply, pos);
        if let Some(o) = pos.outcome() {
            return self.terminal(o, pos.turn(), ply);
        }
        if self.stopped {
            return 0;
        }
        let side = pos.turn();
        let free = pos.chain().is_none();
        if side == Side::Defenders && free && pos.king_escapes() > 0 {
            return WIN - (ply as i32 + 1);
        }
        // The defenders threaten to escape: the attackers may not stand pat, and their answers
        // are the moves onto the escape paths (a block) and the captures (the king's, say).
        let (threats, paths) = if side == Side::Attackers && free {
            pos.king_escape_paths()
        } else {
            (0, crate::rules::SquareSet::EMPTY)
        };
        let threatened = threats > 0;
        let stand = match &mut self.sums {
            Some(sums) => self
                .evals
                .evaluate_by(self.board, pos, &mut self.rooms, || sums.score(ply)),
            None => self.evals.evaluate(self.board, pos, &mut self.rooms),
        };
        if !threatened {
            if stand >= beta || qply >= QUIESCENCE_PLIES || ply >= MAX_PLY - 1 {
                return stand;
            }
            alpha = alpha.max(stand);
        } else if qply >= QUIESCENCE_PLIES || ply >= MAX_PLY - 1 {
            return stand;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let targets = pos.capture_targets();
        if pos.moves_onto_suffice() {
            // Only the moves onto capture targets (and the escape paths) and the commanders' jumps
            // can be wanted here.
            let wanted = if threatened {
                targets.or(&paths)
            } else {
                targets
            };
            pos.moves_onto(&wanted, &mut moves);
        } else {
            pos.legal_moves_into(&mut moves);
        }
        let mut candidates = std::mem::take(&mut self.captures[ply]);
        candidates.clear();
        candidates.extend(moves.iter().filter_map(|&m| {
            let may_capture = targets.contains(m.to) || m.kind != crate::rules::MoveKind::Slide;
            let n = if may_capture {
                pos.captures_of(m).len() as i32
            } else {
                0
            };
            (n > 0 || (threatened && paths.contains(m.to))).then_some((m, n))
        }));
        self.buffers[ply] = moves;
        candidates.sort_unstable_by_key(|c| std::cmp::Reverse(c.1));
        // Threatened with nothing to block or take: the king escapes on the next ply.
        let mut best = if threatened {
            -(WIN - (ply as i32 + 2))
        } else {
            stand
        };
        for &(m, _) in &candidates {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let score = if next.turn() == side {
                self.quiesce(&next, ply + 1, alpha, beta, qply + 1)
            } else {
                -self.quiesce(&next, ply + 1, -beta, -alpha, qply + 1)
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.captures[ply] = candidates;
        best
    }
}

#[inline]
fn history_index(m: Move) -> usize {
    (m.from.index() * 37 + m.to.index()) & 0xfff
}

/// The position after a step, or None if the step cannot be taken.
pub fn apply(pos: &Position, step: Step) -> Option<Position> {
    match step {
        Step::Move(m) => {
            let mut next = pos.clone();
            next.play_unchecked(m);
            Some(next)
        }
        Step::EndTurn => pos.end_turn().ok(),
    }
}

mod table;
#[cfg(test)]
mod tests;

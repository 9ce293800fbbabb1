//! The stronger searcher for two-player chess on the usual 8x8 board (chess, Chess960, and
//! Adams' cylinder, whose moves come from the same [`Position`]): iterative-deepening negamax
//! with alpha-beta, principal variation search, aspiration windows, a quiescence search of
//! captures and queen promotions, a transposition table, killer and history move ordering,
//! null-move pruning, late move reductions, and an evaluation of material, piece placement,
//! mobility, king safety and pawn structure.
//!
//! A search spends a budget of nodes (every position it looks at, quiescence included), so
//! the same position, limits and seed always give the same result; the wall-clock cap in
//! [`Limits`] only guards against a machine far slower than expected, and
//! [`SearchResult::clock_stopped`] says when it cut a search short. The first iteration (depth
//! 1) always completes, so even a tiny budget answers with a searched move.
//!
//! ```
//! use engine::ai::alphabeta::{search, Limits};
//! use engine::chess::Position;
//!
//! let start = Position::startpos();
//! let result = search(&start, &Limits::EASY, 7).unwrap();
//! assert!(start.legal_moves().contains(&result.best));
//! ```

use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{mix, Level};
use crate::chess::{Move, MoveKind, NotationStyle, Position, Role, Seat};

// ---- limits and results ---------------------------------------------------------------------

/// What one search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Positions the search may look at, quiescence included. `u64::MAX` searches by time
    /// alone (see [`Limits::timed`]).
    pub nodes: u64,
    /// The deepest iteration, in plies (extensions and quiescence go further).
    pub max_depth: u32,
    /// The guard: a search still running after this long stops where it is.
    pub time_cap: Duration,
    /// A fallible player: the move is drawn (by the seed) among those the search scores
    /// within this many centipawns of the best. 0 always plays the best.
    pub margin_cp: i32,
}

impl Limits {
    /// `hard`: the issue's 2 s at most on a slow two-core machine. A search node copies the
    /// position, plays the move and evaluates: measured at about a million nodes a second on
    /// the project's two-core machine (`rookery uci`, `go nodes`), so a million nodes take
    /// about a second and reach 9-11 plies in the opening, leaving the guard its margin.
    pub const HARD: Limits = Limits {
        nodes: 1_000_000,
        max_depth: MAX_DEPTH,
        time_cap: Duration::from_millis(2_000),
        margin_cp: 0,
    };
    /// `medium`: the issue's 0.5 s, a quarter of `hard`'s nodes (about one ply less).
    pub const MEDIUM: Limits = Limits {
        nodes: 250_000,
        max_depth: MAX_DEPTH,
        time_cap: Duration::from_millis(500),
        margin_cp: 0,
    };
    /// `easy`: the issue's 0.1 s and deliberately fallible: at most four plies on a few
    /// thousand nodes (so deeper tactics are missed), and a move drawn among those within
    /// 60 centipawns of the best (so it sometimes plays a slightly worse one, never a
    /// hanging queen it sees).
    pub const EASY: Limits = Limits {
        nodes: 6_000,
        max_depth: 4,
        time_cap: Duration::from_millis(100),
        margin_cp: 60,
    };

    /// The limits of a level.
    pub fn for_level(level: Level) -> Limits {
        match level {
            Level::Easy => Limits::EASY,
            Level::Medium => Limits::MEDIUM,
            Level::Hard => Limits::HARD,
        }
    }

    /// A search by time alone (a UCI `movetime`, the arena's `--movetime`): as deep as
    /// `time` allows, no iteration started past half of it. Not repeatable.
    pub fn timed(time: Duration) -> Limits {
        Limits {
            nodes: u64::MAX,
            max_depth: MAX_DEPTH,
            time_cap: time,
            margin_cp: 0,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// Its score for the side to move, in centipawns; a mate is [`MATE`] less the plies to it
    /// (negative when the side to move is mated).
    pub score_cp: i32,
    /// The last iteration completed.
    pub depth: u32,
    /// Positions looked at.
    pub nodes: u64,
    /// The expected line, `best` first.
    pub pv: Vec<Move>,
    /// Whether the wall-clock guard (or, for [`Limits::timed`], the clock) ended the search,
    /// which makes the result depend on the machine.
    pub clock_stopped: bool,
}

impl SearchResult {
    /// Moves to a forced mate: positive when the side to move mates, negative when it is
    /// mated, `None` when the score is no mate.
    pub fn mate_in(&self) -> Option<i32> {
        let plies = MATE - self.score_cp.abs();
        if self.score_cp.abs() < MATE_BOUND {
            None
        } else if self.score_cp > 0 {
            Some((plies + 1) / 2)
        } else {
            Some(-(plies + 1) / 2)
        }
    }
}

/// The score of mating now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at least this far from 0 are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
const DRAW: i32 = 0;
/// The deepest iteration, kept well inside [`MAX_PLY`] for extensions and quiescence.
const MAX_DEPTH: u32 = 48;
/// The longest line searched; each ply holds a move list on the stack (about 5 KB), so this
/// also bounds the stack a search needs.
const MAX_PLY: usize = 64;
/// The half-width of the first aspiration window, in centipawns.
const ASPIRATION: i32 = 40;
/// The wall clock is read once per this many nodes.
const CLOCK_EVERY: u64 = 1024;
/// The stream of [`mix`] seeding the fallible player's draw.
const MARGIN_STREAM: u64 = 0x5eed_ab0e;

/// Whether the searcher plays `position`: two armies on the 8x8 board (the evaluation reads
/// squares as files and ranks).
pub fn supports(position: &Position) -> bool {
    let board = position.board();
    position.rules().seats() == 2 && board.len() == 64 && board.grid_size() == Some((8, 8))
}

/// A completed iteration at the root: its moves with their scores, best first, the best
/// score and the depth.
type Iteration = (Vec<(Move, i32)>, i32, u32);

/// Searches `position` within `limits`. `None` when the side to move has no legal move or
/// the board is not one [`supports`] accepts. The same position, limits and seed give the
/// same result unless the clock stops the search.
pub fn search(position: &Position, limits: &Limits, seed: u64) -> Option<SearchResult> {
    search_game(position, &[], limits, seed)
}

/// [`search`] in a game: `earlier` holds the [`position_key`]s of the positions before this
/// one, oldest first, so that a line repeating one of them is scored as the draw it is.
pub fn search_game(
    position: &Position,
    earlier: &[u64],
    limits: &Limits,
    seed: u64,
) -> Option<SearchResult> {
    if !supports(position) {
        return None;
    }
    let legal = position.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let mut searcher = Searcher::new(limits, earlier);
    let mut root: Vec<(Move, i32)> = legal
        .iter()
        .map(|&m| (m, searcher.order_score(position, m, None, 0)))
        .collect();
    root.sort_by_key(|r| std::cmp::Reverse(r.1));
    // The root moves with their scores, best first, the score and depth of the last
    // completed iteration.
    let mut done: Option<Iteration> = None;
    let timed = limits.nodes == u64::MAX;
    for depth in 1..=limits.max_depth.clamp(1, MAX_DEPTH) {
        let previous = done.as_ref().map(|d| d.1);
        let windowed =
            limits.margin_cp == 0 && depth >= 4 && previous.is_some_and(|s| s.abs() < MATE_BOUND);
        let (mut alpha, mut beta) = match previous {
            Some(s) if windowed => (s - ASPIRATION, s + ASPIRATION),
            _ => (-INF, INF),
        };
        let value = loop {
            let v = searcher.root(
                position,
                &mut root,
                depth as i32,
                alpha,
                beta,
                limits.margin_cp,
            );
            if searcher.stopped {
                break v;
            }
            // Outside the window the score is only a bound: search again with that side open.
            if v <= alpha && alpha > -INF {
                alpha = -INF;
            } else if v >= beta && beta < INF {
                beta = INF;
            } else {
                break v;
            }
        };
        if searcher.stopped {
            // An unfinished iteration is thrown away: its first moves were searched deeper
            // than the rest, and comparing them would be unfair.
            break;
        }
        root.sort_by_key(|r| std::cmp::Reverse(r.1));
        done = Some((root.clone(), value, depth));
        searcher.may_stop = true;
        if value.abs() >= MATE_BOUND && depth as i32 >= MATE - value.abs() {
            // A mate seen in full: deeper iterations cannot find a shorter one.
            break;
        }
        // The next iteration costs about as much as all before it, twice over: one that
        // cannot finish inside the budget is not started.
        if searcher.nodes.saturating_mul(20) > limits.nodes.saturating_mul(9) {
            break;
        }
        if timed && searcher.start.elapsed() * 2 > limits.time_cap {
            searcher.clock_stopped = true;
            break;
        }
    }
    let (scores, value, depth) = done.unwrap_or_else(|| (root.clone(), 0, 0));
    let mut best = scores[0].0;
    let mut score_cp = value;
    let top = scores[0].1;
    if limits.margin_cp > 0 && top.abs() < MATE_BOUND {
        let near: Vec<(Move, i32)> = scores
            .iter()
            .copied()
            .filter(|(_, s)| *s > top - limits.margin_cp)
            .collect();
        if near.len() > 1 {
            let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, MARGIN_STREAM));
            let (m, s) = near[rng.gen_range(0..near.len())];
            best = m;
            score_cp = s;
        }
    }
    let pv = searcher.principal_variation(position, best, depth as usize + 4);
    Some(SearchResult {
        best,
        score_cp,
        depth,
        nodes: searcher.nodes,
        pv,
        clock_stopped: searcher.clock_stopped,
    })
}

// ---- the search -----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a move was too good: the search was cut).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

/// One remembered position of the transposition table.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    best: Option<Move>,
    /// Mates are stored as distances from this position, not from the root.
    score: i32,
    /// -1: empty.
    depth: i16,
    bound: Bound,
}

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        best: None,
        score: 0,
        depth: -1,
        bound: Bound::Exact,
    };
}

/// Marks a null move on the search path: no repetition is counted across it.
const NULL_MOVE: u64 = 0;

// Move ordering: the hash move, then captures by most valuable victim and least valuable
// attacker, queen promotions, the killers, then quiet moves by their history.
const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = CAPTURE + 10_000;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;
const UNDER_PROMOTION: i32 = -(1 << 20);
/// History scores are halved when one passes this, staying below the killers.
const HISTORY_MAX: i32 = 1 << 24;

/// Rough piece values for ordering and pruning (not the evaluation's), indexed by role.
const VALUE: [i32; 7] = [0, 100, 320, 330, 500, 900, 20_000];

struct Searcher<'a> {
    limits: &'a Limits,
    start: Instant,
    nodes: u64,
    /// Set once the first iteration is complete: before that, nothing stops the search.
    may_stop: bool,
    stopped: bool,
    clock_stopped: bool,
    table: Vec<Entry>,
    mask: usize,
    killers: Vec<[Option<Move>; 2]>,
    /// By from-square * 64 + to-square.
    history: Vec<i32>,
    /// The keys of the positions before the one being searched, its parent last (the game's
    /// earlier positions first).
    path: Vec<u64>,
}

impl<'a> Searcher<'a> {
    fn new(limits: &'a Limits, earlier: &[u64]) -> Searcher<'a> {
        // About one entry per node searched, between 4 thousand and a million (24 MB).
        let entries = limits.nodes.clamp(1 << 12, 1 << 20).next_power_of_two() as usize;
        let mut path = Vec::with_capacity(earlier.len() + MAX_PLY + 1);
        path.extend_from_slice(earlier);
        Searcher {
            limits,
            start: Instant::now(),
            nodes: 0,
            may_stop: false,
            stopped: false,
            clock_stopped: false,
            table: vec![Entry::EMPTY; entries],
            mask: entries - 1,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 64 * 64],
            path,
        }
    }

    /// Whether the search must stop now (and then it stays stopped).
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.may_stop {
            return false;
        }
        if self.nodes >= self.limits.nodes {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CLOCK_EVERY)
            && self.start.elapsed() >= self.limits.time_cap
        {
            self.stopped = true;
            self.clock_stopped = true;
        }
        self.stopped
    }

    /// Searches every root move at `depth`. With a `margin`, each move is searched with alpha
    /// that far below the best so far, so every move within the margin gets its exact score
    /// for the fallible player to choose from. Stores each score beside its move.
    fn root(
        &mut self,
        pos: &Position,
        moves: &mut [(Move, i32)],
        depth: i32,
        alpha: i32,
        beta: i32,
        margin: i32,
    ) -> i32 {
        if self.out_of_budget() {
            return DRAW;
        }
        self.nodes += 1;
        let key = position_key(pos);
        self.path.push(key);
        let mut best_score = -INF;
        let mut best_move = moves[0].0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..moves.len() {
            // Indexed: each move's score is written back into the list as it is found.
            let m = moves[i].0;
            let floor = if margin > 0 {
                alpha.max(best_score - margin)
            } else {
                alpha.max(best_score)
            };
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -floor, 1, true)
            } else {
                let s = -self.negamax(&child, depth - 1, -floor - 1, -floor, 1, true);
                if s > floor && s < beta {
                    -self.negamax(&child, depth - 1, -beta, -floor, 1, true)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            moves[i].1 = score;
            if score > best_score {
                best_score = score;
                best_move = m;
            }
            if best_score >= beta {
                break;
            }
        }
        self.path.pop();
        if !self.stopped {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score <= alpha {
                Bound::Upper
            } else {
                Bound::Exact
            };
            self.store(key, depth, best_score, bound, Some(best_move), 0);
        }
        best_score
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        let in_check = pos.is_check();
        // A side in check searches one ply more: its replies are forced, and a mate must not
        // hide just below the horizon.
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        if self.out_of_budget() {
            return DRAW;
        }
        self.nodes += 1;
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let key = position_key(pos);
        if self.repeats(key, pos.halfmoves()) || dead_draw(pos) {
            return DRAW;
        }
        // No line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let mut hash_move = None;
        if let Some(entry) = self.probe(key) {
            hash_move = entry.best;
            if !pv_node && entry.depth as i32 >= depth {
                let score = from_table(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            let standing = evaluate(pos);
            // So far above beta that a few plies will not bring it back: cut at once.
            if depth <= 3 && standing - 110 * depth >= beta {
                return standing;
            }
            // Let the opponent move twice: if we still stand above beta, a real move would
            // too. Not with pawns alone, where passing may be the only way to lose.
            if allow_null && depth >= 3 && standing >= beta && has_pieces(pos) {
                let mut passed = pos.clone();
                passed.pass();
                self.path.push(NULL_MOVE);
                let reduction = 2 + depth / 4;
                let score = -self.negamax(
                    &passed,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                );
                self.path.pop();
                if self.stopped {
                    return DRAW;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        // Fifty moves without capture or pawn move (a mate on the last one still counts).
        if pos.halfmoves() >= 100 {
            return DRAW;
        }
        let mut order: Vec<i32> = moves
            .iter()
            .map(|&m| self.order_score(pos, m, hash_move, ply))
            .collect();
        let start_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            // Selection sort, one step at a time: a cut usually comes before the list is done.
            let mut top = i;
            for j in i + 1..moves.len() {
                if order[j] > order[top] {
                    top = j;
                }
            }
            moves.swap(i, top);
            order.swap(i, top);
            let m = moves[i];
            let quiet = is_quiet(pos, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.path.push(key);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                // Late quiet moves are rarely best: search them shallower first, and fully
                // only if they surprise.
                let reduction = if depth >= 3
                    && i >= 3
                    && quiet
                    && !in_check
                    && order[i] < KILLER_2
                    && !child.is_check()
                {
                    if i >= 8 && depth >= 5 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.path.pop();
            if self.stopped {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            self.remember_cutoff(m, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > start_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, depth, best_score, bound, best_move, ply);
        best_score
    }

    /// Captures and queen promotions only, until the position is quiet: the side to move may
    /// also stand pat on its evaluation. In check, every evasion is searched.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.out_of_budget() {
            return DRAW;
        }
        self.nodes += 1;
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let in_check = pos.is_check();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let standing = if in_check { -INF } else { evaluate(pos) };
        if standing >= beta {
            return standing;
        }
        if standing > alpha {
            alpha = standing;
        }
        let us = pos.turn();
        let mut list: Vec<(Move, i32)> = Vec::with_capacity(if in_check { moves.len() } else { 8 });
        for &m in moves.iter() {
            let taken = victim(pos, m);
            let promotion = m.promotion();
            if !in_check {
                if taken.is_none() && promotion != Some(Role::Queen) {
                    continue;
                }
                if promotion.is_some_and(|r| r != Role::Queen) {
                    continue;
                }
                let gain = taken.map_or(0, |v| VALUE[v as usize])
                    + promotion.map_or(0, |r| VALUE[r as usize] - VALUE[Role::Pawn as usize]);
                // Even winning this cleanly would not bring the score up to alpha.
                if standing + gain + 200 <= alpha {
                    continue;
                }
                // A bigger piece taking a smaller, defended one usually loses the difference.
                let mover = pos.piece_at(m.from).map_or(Role::Pawn, |p| p.role);
                if promotion.is_none()
                    && VALUE[mover as usize] > gain + 50
                    && pos.is_attacked(m.to, us)
                {
                    continue;
                }
            }
            list.push((m, self.order_score(pos, m, None, MAX_PLY)));
        }
        let mut best = standing;
        for i in 0..list.len() {
            let mut top = i;
            for j in i + 1..list.len() {
                if list[j].1 > list[top].1 {
                    top = j;
                }
            }
            list.swap(i, top);
            let mut child = pos.clone();
            child.play_unchecked(list[i].0);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return DRAW;
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
        best
    }

    /// Whether the position with `key` stood on the board before with the same side to move,
    /// since the last capture or pawn move: the line can be repeated, a draw.
    fn repeats(&self, key: u64, halfmoves: u32) -> bool {
        let n = self.path.len();
        let reach = (halfmoves as usize).min(n);
        for back in 1..=reach {
            let k = self.path[n - back];
            if k == NULL_MOVE {
                return false;
            }
            if back % 2 == 0 && k == key {
                return true;
            }
        }
        false
    }

    fn order_score(&self, pos: &Position, m: Move, hash_move: Option<Move>, ply: usize) -> i32 {
        if hash_move == Some(m) {
            return HASH_MOVE;
        }
        if let Some(taken) = victim(pos, m) {
            let mover = pos.piece_at(m.from).map_or(Role::Pawn, |p| p.role);
            let promotes = if m.promotion() == Some(Role::Queen) {
                VALUE[Role::Queen as usize]
            } else {
                0
            };
            return CAPTURE + 16 * VALUE[taken as usize] - VALUE[mover as usize] / 16 + promotes;
        }
        match m.promotion() {
            Some(Role::Queen) => return PROMOTION,
            Some(_) => return UNDER_PROMOTION,
            None => {}
        }
        if let Some(killers) = self.killers.get(ply) {
            if killers[0] == Some(m) {
                return KILLER_1;
            }
            if killers[1] == Some(m) {
                return KILLER_2;
            }
        }
        self.history[history_index(m)]
    }

    /// A quiet move refuted the opponent's last: try it early in sibling positions and rank
    /// it higher everywhere.
    fn remember_cutoff(&mut self, m: Move, depth: i32, ply: usize) {
        if let Some(killers) = self.killers.get_mut(ply) {
            if killers[0] != Some(m) {
                killers[1] = killers[0];
                killers[0] = Some(m);
            }
        }
        let slot = &mut self.history[history_index(m)];
        *slot += depth * depth;
        if *slot > HISTORY_MAX {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.table[key as usize & self.mask];
        (entry.key == key && entry.depth >= 0).then_some(entry)
    }

    fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<Move>,
        ply: usize,
    ) {
        let slot = &mut self.table[key as usize & self.mask];
        // Another position, or a deeper or exact search of this one, replaces what is there.
        if slot.key != key || depth >= slot.depth as i32 || bound == Bound::Exact {
            let best = best.or(if slot.key == key { slot.best } else { None });
            *slot = Entry {
                key,
                best,
                score: to_table(score, ply),
                depth: depth.clamp(0, i16::MAX as i32) as i16,
                bound,
            };
        }
    }

    /// The line the table expects after `first`, each move checked legal.
    fn principal_variation(&self, pos: &Position, first: Move, longest: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut at = pos.clone();
        at.play_unchecked(first);
        let mut seen = vec![position_key(pos)];
        while line.len() < longest {
            let key = position_key(&at);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let Some(m) = self.probe(key).and_then(|e| e.best) else {
                break;
            };
            if !at.legal_moves().contains(&m) {
                break;
            }
            line.push(m);
            at.play_unchecked(m);
        }
        line
    }
}

fn history_index(m: Move) -> usize {
    (m.from.index() % 64) * 64 + m.to.index() % 64
}

/// A mate score as a distance from the stored position, so it stays right wherever the
/// position is met again.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What `m` takes, en passant included; castling (the king onto its own rook) takes nothing.
fn victim(pos: &Position, m: Move) -> Option<Role> {
    match m.kind {
        MoveKind::Castle => None,
        MoveKind::EnPassant => Some(Role::Pawn),
        _ => pos.piece_at(m.to).map(|p| p.role),
    }
}

fn is_quiet(pos: &Position, m: Move) -> bool {
    victim(pos, m).is_none() && m.promotion().is_none()
}

/// Whether the side to move has a piece besides king and pawns.
fn has_pieces(pos: &Position) -> bool {
    pos.cells_of(pos.turn()).iter().any(|c| {
        pos.piece_at(c)
            .is_some_and(|p| !matches!(p.role, Role::Pawn | Role::King))
    })
}

/// Neither side can mate (checked only with few pieces left, where it is cheap).
fn dead_draw(pos: &Position) -> bool {
    pos.cells_of(Seat::WHITE).len() + pos.cells_of(Seat::BLACK).len() <= 4
        && pos.is_insufficient_material()
}

// ---- position keys ----------------------------------------------------------------------------

/// Random numbers for [`position_key`], made at compile time by SplitMix64 from a fixed seed,
/// so keys are the same in every run: 12 pieces x 64 squares, the side to move, a castling
/// rook per seat and square, an en passant square.
const KEY_COUNT: usize = 12 * 64 + 1 + 2 * 64 + 64;
const TURN_KEY: usize = 12 * 64;
const CASTLING_KEYS: usize = TURN_KEY + 1;
const EN_PASSANT_KEYS: usize = CASTLING_KEYS + 2 * 64;
static KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state: u64 = 0x726f_6f6b_6572_7921;
    let mut i = 0;
    while i < KEY_COUNT {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// A Zobrist key of a position on a board [`supports`] accepts: the pieces on their squares,
/// the side to move, the castling rooks and the square a pawn just skipped (whether or not
/// an en passant capture is possible; that only splits a few equal positions apart). Equal
/// positions have equal keys in every run.
pub fn position_key(pos: &Position) -> u64 {
    let mut key = 0u64;
    for side in 0..2u8 {
        let seat = Seat(side);
        for cell in pos.cells_of(seat).iter() {
            if let Some(piece) = pos.piece_at(cell) {
                let piece_index = side as usize * 6 + piece.role as usize - 1;
                key ^= KEYS[piece_index * 64 + cell.index() % 64];
            }
        }
        for rook in pos.castling_rooks(seat) {
            key ^= KEYS[CASTLING_KEYS + side as usize * 64 + rook.index() % 64];
        }
    }
    if pos.turn() == Seat::BLACK {
        key ^= KEYS[TURN_KEY];
    }
    if let Some(skipped) = pos.ep_target() {
        key ^= KEYS[EN_PASSANT_KEYS + skipped.index() % 64];
    }
    key
}

// ---- evaluation ---------------------------------------------------------------------------------

// Piece values in centipawns, middlegame and endgame, by role (pawn 1 ... king 6). A pawn is
// worth more when the board empties and it may run; a rook needs open lines, which the
// endgame brings.
const MG_VALUE: [i32; 7] = [0, 90, 320, 335, 470, 960, 0];
const EG_VALUE: [i32; 7] = [0, 115, 300, 320, 520, 950, 0];
/// How much each piece counts toward the middlegame: the full army sums to 24.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
const FULL_PHASE: i32 = 24;

// Square tables, written as White sees the board: the first row is the 8th rank, the last the
// 1st; Black reads them mirrored.

/// Pawns: central pawns advanced, the d- and e-pawns off their first squares, the flank pawns
/// before the castled king left home.
#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
     0,   0,   0,   0,   0,   0,   0,   0,
    60,  60,  60,  60,  60,  60,  60,  60,
    15,  15,  22,  30,  30,  22,  15,  15,
     5,   5,  12,  25,  25,  12,   5,   5,
     0,   0,   8,  20,  20,   8,   0,   0,
     4,  -2,  -4,   4,   4,  -4,  -2,   4,
     4,   8,   8, -18, -18,   8,   8,   4,
     0,   0,   0,   0,   0,   0,   0,   0,
];
/// Pawns in the endgame, by rank from their own side: the nearer promotion, the better.
const PAWN_EG_RANK: [i32; 8] = [0, 0, 5, 12, 25, 45, 80, 0];

/// Knights: strong in the centre, poor on the rim and in the corners.
#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
   -50, -35, -25, -20, -20, -25, -35, -50,
   -35, -15,   0,   5,   5,   0, -15, -35,
   -25,   5,  12,  16,  16,  12,   5, -25,
   -20,   5,  16,  22,  22,  16,   5, -20,
   -20,   0,  14,  20,  20,  14,   0, -20,
   -25,   2,  10,  12,  12,  10,   2, -25,
   -35, -15,   0,   4,   4,   0, -15, -35,
   -50, -30, -25, -20, -20, -25, -30, -50,
];

/// Bishops: long diagonals and out of the corners; a little for guarding the castled king.
#[rustfmt::skip]
const BISHOP: [i32; 64] = [
   -20, -10, -10, -10, -10, -10, -10, -20,
   -10,   0,   0,   0,   0,   0,   0, -10,
   -10,   0,   6,  10,  10,   6,   0, -10,
   -10,   5,   6,  12,  12,   6,   5, -10,
   -10,   2,  12,  12,  12,  12,   2, -10,
   -10,  10,  10,  10,  10,  10,  10, -10,
   -10,   8,   0,   2,   2,   0,   8, -10,
   -20, -10, -12, -10, -10, -12, -10, -20,
];

/// Rooks: the seventh rank, and the centre files of the first once castled.
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     0,   0,   0,   5,   5,   0,   0,   0,
    15,  20,  20,  20,  20,  20,  20,  15,
    -5,   0,   0,   0,   0,   0,   0,  -5,
    -5,   0,   0,   0,   0,   0,   0,  -5,
    -5,   0,   0,   0,   0,   0,   0,  -5,
    -5,   0,   0,   0,   0,   0,   0,  -5,
    -5,   0,   0,   0,   0,   0,   0,  -5,
     0,   0,   3,   8,   8,   5,   0,   0,
];

/// Queens: central squares a little better, edges and corners worse.
#[rustfmt::skip]
const QUEEN: [i32; 64] = [
   -20, -10, -10,  -5,  -5, -10, -10, -20,
   -10,   0,   0,   0,   0,   0,   0, -10,
   -10,   0,   5,   5,   5,   5,   0, -10,
    -5,   0,   5,   5,   5,   5,   0,  -5,
    -5,   0,   5,   5,   5,   5,   0,  -5,
   -10,   2,   5,   5,   5,   5,   0, -10,
   -10,   0,   2,   0,   0,   0,   0, -10,
   -20, -10, -10,  -5,  -5, -10, -10, -20,
];

/// The king while queens and rooks are about: at home, tucked away on the wing.
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
   -40, -45, -45, -50, -50, -45, -45, -40,
   -40, -45, -45, -50, -50, -45, -45, -40,
   -40, -45, -45, -50, -50, -45, -45, -40,
   -40, -45, -45, -50, -50, -45, -45, -40,
   -30, -35, -35, -45, -45, -35, -35, -30,
   -20, -25, -25, -30, -30, -25, -25, -20,
     5,   5, -10, -20, -20, -10,   5,   5,
    15,  25,  10, -10,   0,  -5,  28,  15,
];

/// The king in the endgame: a fighting piece, best in the centre.
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
   -50, -35, -25, -20, -20, -25, -35, -50,
   -30, -12,  -2,   4,   4,  -2, -12, -30,
   -25,  -2,  15,  22,  22,  15,  -2, -25,
   -22,   4,  22,  30,  30,  22,   4, -22,
   -22,   4,  22,  30,  30,  22,   4, -22,
   -25,  -2,  15,  22,  22,  15,  -2, -25,
   -30, -15,  -5,   0,   0,  -5, -15, -30,
   -50, -35, -28, -22, -22, -28, -35, -50,
];

/// A passed pawn's bonus by rank from its own side, middlegame and endgame.
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 28, 50, 80, 0];
const PASSED_EG: [i32; 8] = [0, 10, 18, 30, 50, 85, 130, 0];

// Mobility: per square a piece reaches (not held by its own side nor covered by an enemy
// pawn) beyond a usual number, middlegame and endgame, by role.
const MOBILITY_MG: [i32; 7] = [0, 0, 4, 5, 2, 1, 0];
const MOBILITY_EG: [i32; 7] = [0, 0, 4, 5, 4, 2, 0];
const MOBILITY_USUAL: [i32; 7] = [0, 0, 4, 6, 6, 12, 0];
/// How much a piece bearing on the squares around the enemy king threatens it, by role.
const KING_ATTACK_WEIGHT: [i32; 7] = [0, 0, 2, 2, 3, 5, 0];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
const ROOK_LINES: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_LINES: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

#[inline]
fn bit(square: usize) -> u64 {
    1u64 << square
}

#[inline]
fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

/// The squares one step of each of `steps` reaches from `square`.
fn leaps(square: usize, steps: &[(i32, i32)]) -> u64 {
    let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
    let mut out = 0;
    for &(df, dr) in steps {
        let (f, r) = (file + df, rank + dr);
        if on_board(f, r) {
            out |= bit((r * 8 + f) as usize);
        }
    }
    out
}

/// The squares a slider reaches from `square` along `lines`, each line ending on the first
/// square `occupied` holds (included).
fn slides(square: usize, lines: &[(i32, i32)], occupied: u64) -> u64 {
    let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
    let mut out = 0;
    for &(df, dr) in lines {
        let (mut f, mut r) = (file + df, rank + dr);
        while on_board(f, r) {
            let b = bit((r * 8 + f) as usize);
            out |= b;
            if occupied & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

fn distance(a: usize, b: usize) -> i32 {
    let (af, ar) = ((a % 8) as i32, (a / 8) as i32);
    let (bf, br) = ((b % 8) as i32, (b / 8) as i32);
    (af - bf).abs().max((ar - br).abs())
}

/// How far a square is from the four centre squares (0 there, 6 in a corner).
fn from_centre(square: usize) -> i32 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

fn neighbour_files(file: usize) -> u64 {
    let left = if file > 0 { file_mask(file - 1) } else { 0 };
    let right = if file < 7 { file_mask(file + 1) } else { 0 };
    left | right
}

/// The square tables' values for `role` of `side` (0 White, 1 Black) on `square`.
fn placement(role: Role, side: usize, square: usize) -> (i32, i32) {
    let (file, rank) = (square % 8, square / 8);
    let own_rank = if side == 0 { rank } else { 7 - rank };
    let t = (7 - own_rank) * 8 + file;
    match role {
        Role::Pawn => (PAWN_MG[t], PAWN_EG_RANK[own_rank]),
        Role::Knight => (KNIGHT[t], KNIGHT[t] * 3 / 4),
        Role::Bishop => (BISHOP[t], BISHOP[t] / 2),
        Role::Rook => (ROOK_MG[t], if own_rank == 6 { 12 } else { 0 }),
        Role::Queen => (QUEEN[t], QUEEN[t]),
        Role::King => (KING_MG[t], KING_EG[t]),
    }
}

/// The position's value in centipawns for the side to move, from general chess knowledge:
/// material and piece placement, blended from middlegame to endgame as pieces leave the
/// board; mobility; the pawns before a king and the pieces bearing on it; passed, doubled and
/// isolated pawns; rooks on open files; the bishop pair; and in won endgames, driving the
/// lone king to the edge.
pub fn evaluate(pos: &Position) -> i32 {
    let mut occupied = [0u64; 2];
    let mut pawns = [0u64; 2];
    let mut kings = [0usize; 2];
    // (side, role, square) of every piece but pawns and kings.
    let mut pieces: ArrayVec<(usize, Role, usize), 64> = ArrayVec::new();
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;
    let mut bishops = [0; 2];
    // Knights to queens, at endgame value: who has pieces to win with.
    let mut force = [0i32; 2];
    for side in 0..2usize {
        for cell in pos.cells_of(Seat(side as u8)).iter() {
            let Some(piece) = pos.piece_at(cell) else {
                continue;
            };
            let square = cell.index() % 64;
            let role = piece.role;
            occupied[side] |= bit(square);
            let (m, e) = placement(role, side, square);
            mg[side] += MG_VALUE[role as usize] + m;
            eg[side] += EG_VALUE[role as usize] + e;
            phase += PHASE_WEIGHT[role as usize];
            match role {
                Role::Pawn => pawns[side] |= bit(square),
                Role::King => kings[side] = square,
                _ => {
                    if role == Role::Bishop {
                        bishops[side] += 1;
                    }
                    force[side] += EG_VALUE[role as usize];
                    pieces.push((side, role, square));
                }
            }
        }
    }
    let all = occupied[0] | occupied[1];
    // The squares each side's pawns cover.
    let pawn_cover = [
        ((pawns[0] << 7) & !FILE_H) | ((pawns[0] << 9) & !FILE_A),
        ((pawns[1] >> 9) & !FILE_H) | ((pawns[1] >> 7) & !FILE_A),
    ];
    let king_zone = [
        leaps(kings[0], &KING_STEPS) | bit(kings[0]),
        leaps(kings[1], &KING_STEPS) | bit(kings[1]),
    ];

    // Mobility and the pieces bearing on the enemy king.
    let mut danger = [0i32; 2];
    let mut attackers = [0i32; 2];
    for &(side, role, square) in &pieces {
        let enemy = 1 - side;
        let reach = match role {
            Role::Knight => leaps(square, &KNIGHT_STEPS),
            Role::Bishop => slides(square, &BISHOP_LINES, all),
            Role::Rook => slides(square, &ROOK_LINES, all),
            _ => slides(square, &ROOK_LINES, all) | slides(square, &BISHOP_LINES, all),
        };
        let free = (reach & !occupied[side] & !pawn_cover[enemy]).count_ones() as i32;
        let r = role as usize;
        mg[side] += MOBILITY_MG[r] * (free - MOBILITY_USUAL[r]);
        eg[side] += MOBILITY_EG[r] * (free - MOBILITY_USUAL[r]);
        let near_king = (reach & king_zone[enemy]).count_ones() as i32;
        if near_king > 0 {
            attackers[enemy] += 1;
            danger[enemy] += KING_ATTACK_WEIGHT[r] + near_king - 1;
        }
        if role == Role::Rook {
            let file = file_mask(square % 8);
            if pawns[side] & file == 0 {
                mg[side] += 10;
                eg[side] += 6;
                if pawns[enemy] & file == 0 {
                    mg[side] += 10;
                }
            }
        }
    }

    for side in 0..2usize {
        let enemy = 1 - side;
        // Pawn structure.
        for file in 0..8 {
            let count = (pawns[side] & file_mask(file)).count_ones() as i32;
            if count > 1 {
                mg[side] -= 12 * (count - 1);
                eg[side] -= 20 * (count - 1);
            }
        }
        let mut own = pawns[side];
        while own != 0 {
            let square = own.trailing_zeros() as usize;
            own &= own - 1;
            let (file, rank) = (square % 8, square / 8);
            let own_rank = if side == 0 { rank } else { 7 - rank };
            if pawns[side] & neighbour_files(file) == 0 {
                mg[side] -= 12;
                eg[side] -= 15;
            }
            let ahead = if side == 0 {
                if rank >= 7 {
                    0
                } else {
                    !0u64 << ((rank + 1) * 8)
                }
            } else {
                (1u64 << (rank * 8)) - 1
            };
            let span = file_mask(file) | neighbour_files(file);
            if pawns[enemy] & span & ahead == 0 && own_rank < 7 {
                let stop = if side == 0 { square + 8 } else { square - 8 };
                let (mut m, mut e) = (PASSED_MG[own_rank], PASSED_EG[own_rank]);
                if occupied[enemy] & bit(stop) != 0 {
                    m /= 2;
                    e /= 2;
                }
                if own_rank >= 3 {
                    // In the endgame the kings' distances to its path decide a passed pawn.
                    let kings_say =
                        4 * distance(kings[enemy], stop) - 2 * distance(kings[side], stop);
                    e += kings_say * (own_rank as i32 - 2);
                }
                mg[side] += m;
                eg[side] += e;
            }
        }

        // The pawns before a king at home shelter it; open files beside it expose it.
        let king = kings[side];
        let (kf, kr) = (king % 8, king / 8);
        let king_rank = if side == 0 { kr } else { 7 - kr };
        if king_rank <= 1 {
            let absolute = |own_rank: usize| if side == 0 { own_rank } else { 7 - own_rank };
            for file in kf.saturating_sub(1)..=(kf + 1).min(7) {
                let one = bit(absolute(king_rank + 1) * 8 + file);
                let two = bit(absolute(king_rank + 2) * 8 + file);
                if pawns[side] & one != 0 {
                    mg[side] += 12;
                } else if pawns[side] & two != 0 {
                    mg[side] += 6;
                } else {
                    mg[side] -= 14;
                }
                if (pawns[0] | pawns[1]) & file_mask(file) == 0 {
                    mg[side] -= 10;
                }
            }
        } else {
            mg[side] -= 25;
        }
        // One piece near the king is a nuisance; several together are an attack.
        if attackers[side] >= 2 {
            mg[side] -= (danger[side] * danger[side] * 3 / 2).min(450);
        }

        if bishops[side] >= 2 {
            mg[side] += 30;
            eg[side] += 50;
        }
    }

    let us = if pos.turn() == Seat::WHITE { 0 } else { 1 };
    mg[us] += 10;

    let phase = phase.min(FULL_PHASE);
    let mut score = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (FULL_PHASE - phase)) / FULL_PHASE;

    // Endgames without pawns: a minor piece or less each cannot win; a small edge in pieces
    // alone (a rook against a minor) seldom does.
    let pawn_count = [pawns[0].count_ones(), pawns[1].count_ones()];
    if pawn_count[0] == 0 && pawn_count[1] == 0 && force[0] <= 330 && force[1] <= 330 {
        return DRAW;
    }
    let (strong, weak) = if score >= 0 { (0, 1) } else { (1, 0) };
    if pawn_count[strong] == 0 && force[strong] - force[weak] < 400 {
        score /= 4;
    } else if pawn_count[weak] == 0 && force[weak] <= 330 && force[strong] - force[weak] >= 400 {
        // Winning: drive the lone king to the edge and bring the own king near.
        let push = 10 * from_centre(kings[weak]) + 4 * (14 - manhattan(kings[0], kings[1]));
        score += if strong == 0 { push } else { -push };
    }
    if us == 0 {
        score
    } else {
        -score
    }
}

fn manhattan(a: usize, b: usize) -> i32 {
    ((a % 8) as i32 - (b % 8) as i32).abs() + ((a / 8) as i32 - (b / 8) as i32).abs()
}

// ---- UCI notation ---------------------------------------------------------------------------

/// A move as UCI writes it: `e2e4`, `e7e8q`; castling as the king's two-square move (`e1g1`)
/// in standard chess and as the king taking its own rook (`e1h1`) with `UCI_Chess960`.
pub fn uci_move(position: &Position, m: Move, chess960: bool) -> String {
    position.coordinate(m, style(chess960))
}

/// The legal move a UCI text names in `position`, if any. A castle written the other way
/// (`e1h1` in standard chess, the king's own move in Chess960) is understood too when no
/// other move reads so.
pub fn parse_uci_move(position: &Position, text: &str, chess960: bool) -> Option<Move> {
    let wanted = text.trim().to_ascii_lowercase();
    let legal = position.legal_moves();
    legal
        .iter()
        .copied()
        .find(|&m| position.coordinate(m, style(chess960)) == wanted)
        .or_else(|| {
            legal
                .iter()
                .copied()
                .find(|&m| m.is_castle() && position.coordinate(m, style(!chess960)) == wanted)
        })
}

fn style(chess960: bool) -> NotationStyle {
    if chess960 {
        NotationStyle::Chess960
    } else {
        NotationStyle::Standard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::chess()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `nodes` with a clock far beyond them, so a loaded test machine never cuts a search
    /// short and every result repeats.
    fn steady(nodes: u64) -> Limits {
        Limits {
            nodes,
            max_depth: MAX_DEPTH,
            time_cap: Duration::from_secs(120),
            margin_cp: 0,
        }
    }

    fn best_of(fen: &str, nodes: u64) -> (Position, SearchResult) {
        let p = pos(fen);
        let result = search(&p, &steady(nodes), 1).expect("a move to search");
        assert!(p.legal_moves().contains(&result.best), "{result:?}");
        (p, result)
    }

    #[test]
    fn it_mates_in_one() {
        let (p, r) = best_of("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 50_000);
        assert_eq!(r.best, p.parse_move("Ra8").unwrap(), "{r:?}");
        assert_eq!(r.score_cp, MATE - 1);
        assert_eq!(r.mate_in(), Some(1));
    }

    #[test]
    fn it_mates_in_two() {
        // The rooks' ladder: 1. Rb7 Kg8 2. Ra8# (or 1. Ra7 and 2. Rb8#); no check mates at once.
        let (p, r) = best_of("7k/8/R7/1R6/8/8/8/K7 w - - 0 1", 200_000);
        assert_eq!(r.score_cp, MATE - 3, "{r:?}");
        assert_eq!(r.mate_in(), Some(2));
        assert!(r.pv.len() >= 3, "{r:?}");
        let mut after = p.clone();
        for m in &r.pv[..3] {
            after.play(*m).unwrap();
        }
        assert!(after.is_checkmate(), "{r:?}");
    }

    #[test]
    fn it_wins_a_hanging_queen() {
        let (p, r) = best_of("6k1/5ppp/8/3q4/8/8/5PPP/3R2K1 w - - 0 1", 100_000);
        assert_eq!(r.best, p.parse_move("Rxd5").unwrap(), "{r:?}");
        assert!(r.score_cp > 300, "{r:?}");
    }

    #[test]
    fn it_does_not_give_its_queen_away() {
        // The queen on e4 is attacked by the d5 pawn; taking on d5 or e6 loses it to a pawn.
        let (p, r) = best_of("6k1/5ppp/4p3/3p4/4Q3/8/5PPP/6K1 w - - 0 1", 100_000);
        let e4 = p.board().cell("e4").unwrap();
        assert_eq!(r.best.from, e4, "the queen must move: {r:?}");
        for lost in ["d5", "e6"] {
            assert_ne!(r.best.to, p.board().cell(lost).unwrap(), "{r:?}");
        }
        assert!(r.score_cp > 300, "{r:?}");
    }

    #[test]
    fn a_lost_side_prefers_stalemate() {
        // Black's king has no move; 1... Rg1+ 2. Kxg1 (forced) leaves Black stalemated, where
        // anything else loses to the queen.
        let (p, r) = best_of("7k/5Q2/8/8/6r1/8/7P/7K b - - 0 1", 150_000);
        assert_eq!(r.best, p.parse_move("Rg1").unwrap(), "{r:?}");
        assert_eq!(r.score_cp, 0, "{r:?}");
    }

    #[test]
    fn the_winning_side_avoids_a_repetition_the_game_already_had() {
        // A queen up. If the position its favourite move leads to stood on the board just
        // before (Black to move there, as now after that move), playing it again repeats the
        // game: scored as a draw, it is not chosen, and the win is kept by another move.
        let p = pos("k7/8/2K5/8/8/8/8/7Q w - - 10 40");
        let plain = search(&p, &steady(60_000), 1).unwrap();
        assert!(plain.score_cp > 500, "{plain:?}");
        let mut after = p.clone();
        after.play(plain.best).unwrap();
        let earlier = [position_key(&after)];
        let r = search_game(&p, &earlier, &steady(60_000), 1).unwrap();
        assert!(r.score_cp > 500, "{r:?}");
        assert_ne!(r.best, plain.best, "{r:?}");
    }

    #[test]
    fn the_same_budget_gives_the_same_result() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let p = pos(kiwipete);
        let a = search(&p, &steady(40_000), 3).unwrap();
        let b = search(&p, &steady(40_000), 3).unwrap();
        assert_eq!(a, b);
        assert!(a.depth >= 2, "{a:?}");
        // The fallible player too, for the same seed.
        let easy = Limits {
            time_cap: Duration::from_secs(120),
            ..Limits::EASY
        };
        let c = search(&p, &easy, 11).unwrap();
        let d = search(&p, &easy, 11).unwrap();
        assert_eq!(c, d);
    }

    #[test]
    fn the_node_budget_is_kept() {
        let start = Position::startpos();
        let mut depths = Vec::new();
        for nodes in [20_000, 80_000] {
            let r = search(&start, &steady(nodes), 0).unwrap();
            assert!(r.nodes <= nodes, "{nodes}: {r:?}");
            assert!(!r.clock_stopped, "{r:?}");
            depths.push(r.depth);
        }
        assert!(depths[1] >= depths[0], "{depths:?}");
        assert!(depths[0] >= 3, "{depths:?}");
    }

    #[test]
    fn the_easy_player_sometimes_picks_another_move() {
        // From the start many moves score alike: the seed chooses among them.
        let start = Position::startpos();
        let easy = Limits {
            time_cap: Duration::from_secs(120),
            ..Limits::EASY
        };
        let picks: std::collections::BTreeSet<Move> = (0..12)
            .map(|seed| search(&start, &easy, seed).unwrap().best)
            .collect();
        assert!(picks.len() > 1, "{picks:?}");
    }

    #[test]
    fn no_move_no_result() {
        let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(search(&mated, &steady(1_000), 0), None);
    }

    #[test]
    fn evaluation_is_symmetric() {
        // The same position with colours swapped (and the board mirrored) scores the same for
        // the side to move.
        let white = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let black = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(evaluate(&white), evaluate(&black));
        assert!(evaluate(&Position::startpos()).abs() <= 20);
    }

    #[test]
    fn uci_moves_read_back() {
        let start = Position::startpos();
        let e4 = parse_uci_move(&start, "e2e4", false).unwrap();
        assert_eq!(e4, start.parse_move("e4").unwrap());
        assert_eq!(uci_move(&start, e4, false), "e2e4");
        assert_eq!(parse_uci_move(&start, "e2e5", false), None);

        let promoting = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        for (text, role) in [("b7b8q", Role::Queen), ("b7b8n", Role::Knight)] {
            let m = parse_uci_move(&promoting, text, false).unwrap();
            assert_eq!(m.promotion(), Some(role));
            assert_eq!(uci_move(&promoting, m, false), text);
        }

        // Standard castling: the king's two squares; with UCI_Chess960, the king takes its rook.
        let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let h1 = castles.board().cell("h1").unwrap();
        let a1 = castles.board().cell("a1").unwrap();
        let short = parse_uci_move(&castles, "e1g1", false).unwrap();
        assert!(short.is_castle() && short.to == h1, "{short:?}");
        assert_eq!(uci_move(&castles, short, false), "e1g1");
        assert_eq!(uci_move(&castles, short, true), "e1h1");
        assert_eq!(parse_uci_move(&castles, "e1h1", true), Some(short));
        let long = parse_uci_move(&castles, "e1c1", false).unwrap();
        assert!(long.is_castle() && long.to == a1, "{long:?}");
        assert_eq!(uci_move(&castles, long, true), "e1a1");

        // Chess960: the king on g1 castles short onto h1 (only the rook moves) and long onto
        // a1; both are written as the king taking its rook.
        let fischer = pos("rk5r/8/8/8/8/8/8/R5KR w HA - 0 1");
        let short = parse_uci_move(&fischer, "g1h1", true).unwrap();
        assert_eq!(short, fischer.parse_move("O-O").unwrap());
        assert_eq!(uci_move(&fischer, short, true), "g1h1");
        let long = parse_uci_move(&fischer, "g1a1", true).unwrap();
        assert_eq!(long, fischer.parse_move("O-O-O").unwrap());
        assert_eq!(uci_move(&fischer, long, true), "g1a1");
    }
}

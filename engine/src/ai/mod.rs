//! A computer player for every seat of every game in the registry, through [`AnyGame`].
//!
//! [`choose`] picks one of a seat's legal action texts by information-set Monte Carlo tree
//! search: every iteration starts from [`AnyGame::determinize`] of the state for the seat, so
//! the search never reads what the seat may not see; simultaneous phases are searched
//! decoupled; playouts are cut off by an evaluation from the outcome or the material. Each
//! [`Level`] is a budget of iterations, so the same state and seed always give the same
//! choice; a wall-clock cap only guards against a search running far over.
//!
//! Two-player chess on the 8x8 board (chess, Chess960) is played instead by the stronger
//! [`alphabeta`] searcher at every level, on a budget of nodes; so are its draw offers and
//! resignations. Chess Golf's holes are puzzles, solved by the game's own solver on a budget of
//! positions ([`GolfLimits`]).
//!
//! ```
//! use engine::ai::{choose, Level};
//! use engine::{registry, Seat};
//! use engine::game::Options;
//!
//! let chess = registry::variant("chess").unwrap();
//! let state = chess.setup(&Options::new(), 2, 1).unwrap();
//! let choice = choose(chess, &state, Seat::WHITE, Level::Easy, 7).unwrap();
//! assert!(chess.legal_texts(&state, Seat::WHITE).unwrap().contains(&choice.text));
//! ```

pub mod alphabeta;
mod eval;
pub use eval::teams;
mod golf;
pub use golf::GolfLimits;
mod search;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::chess::{Position, Seat};
use crate::game::{AnyGame, AnyState, GameError};
use crate::variants::chess::ChessState;
use crate::variants::golf::GolfState;
use search::{search, Arm, Report};

// ---- levels and budgets -------------------------------------------------------------------

/// How strongly the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The level's name as players type it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// What a search at this level may spend.
    pub fn budget(self) -> Budget {
        match self {
            Level::Easy => EASY,
            Level::Medium => MEDIUM,
            Level::Hard => HARD,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = GameError;

    /// ```
    /// use engine::ai::Level;
    /// assert_eq!(" Hard".parse::<Level>().unwrap(), Level::Hard);
    /// let err = "expert".parse::<Level>().unwrap_err().to_string();
    /// assert!(err.contains("easy, medium or hard"), "{err}");
    /// ```
    fn from_str(s: &str) -> Result<Level, GameError> {
        let wanted = s.trim();
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                GameError::BadOption(format!(
                    "unknown level '{wanted}': choose easy, medium or hard"
                ))
            })
    }
}

/// How the searched action is finally picked from the root's statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FinalPick {
    /// The most visited action (ties: the better mean, then the first tried): the usual,
    /// robust choice.
    MostVisited,
    /// At random, each action weighted by its visits to the power `1 / temperature`: a
    /// player that sometimes picks its second or third thought.
    Sampled { temperature: f64 },
}

/// What one search may spend: iterations, not time, so that a choice depends only on the state
/// and the seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Iterations of the search (each: a determinization, a walk down the tree, a playout).
    pub iterations: u32,
    /// Random actions in a playout before the evaluation cuts it off.
    pub playout_plies: u32,
    /// The guard: a search still running after this long stops where it is. Reaching it
    /// makes the choice depend on the machine; the budgets are set to stay well inside it.
    pub time_cap: Duration,
    /// UCB1's exploration constant, for rewards in [0, 1].
    pub exploration: f64,
    pub final_pick: FinalPick,
    /// What the alpha-beta searcher spends instead, in two-player chess.
    pub chess: alphabeta::Limits,
    /// What the solver spends instead, in Chess Golf.
    pub golf: GolfLimits,
}

/// `hard`: at most 2 s a move on a slow two-core machine (the issue's target). An iteration of
/// two-player chess (a determinization, a few tree plies written in SAN, a playout, a view) is
/// estimated at 1-2 ms there in an optimised build; 800 iterations fill most of the 2 s and
/// leave the guard for slower variants (three-player boards, Betza). Playouts are kept short,
/// since random moves say little past a dozen plies and the material then says more.
/// These figures are estimates to be calibrated with the per-family benchmark.
const HARD: Budget = Budget {
    iterations: 800,
    playout_plies: 12,
    time_cap: Duration::from_millis(2_000),
    exploration: 0.7,
    final_pick: FinalPick::MostVisited,
    chess: alphabeta::Limits::HARD,
    golf: GolfLimits::HARD,
};

/// `medium`: the issue's 0.5 s, a quarter of `hard`'s iterations with slightly shorter
/// playouts.
const MEDIUM: Budget = Budget {
    iterations: 220,
    playout_plies: 10,
    time_cap: Duration::from_millis(500),
    exploration: 0.7,
    final_pick: FinalPick::MostVisited,
    chess: alphabeta::Limits::MEDIUM,
    golf: GolfLimits::MEDIUM,
};

/// `easy`: the issue's 0.1 s and deliberately fallible: few iterations (a couple per legal
/// move in chess), short playouts, more exploration, and a final pick sampled by visits
/// squared, so that it sometimes plays a move it did not think best.
const EASY: Budget = Budget {
    iterations: 60,
    playout_plies: 6,
    time_cap: Duration::from_millis(100),
    exploration: 1.0,
    final_pick: FinalPick::Sampled { temperature: 0.5 },
    chess: alphabeta::Limits::EASY,
    golf: GolfLimits::EASY,
};

/// A draw offer is accepted when the seat's evaluation is below this: a little worse than
/// even (0.5), so that an even game goes on.
const DRAW_ACCEPT_BELOW: f64 = 0.45;
/// A seat resigns only when both its best action and all its searched iterations average
/// below this: checkmate found in every line, or a deficit of about twelve pawns (the
/// evaluation's logistic gives 0.018 for 12 pawns at chess' scale of 3).
const RESIGN_BELOW: f64 = 0.02;
/// ... and only after this many completed iterations, so that a clipped search never resigns.
const RESIGN_MIN_ITERATIONS: u32 = 200;

/// In chess, a draw offer is accepted when the alpha-beta score is below this (centipawns):
/// clearly worse, more than half a pawn down in effect.
const CHESS_DRAW_ACCEPT_BELOW_CP: i32 = -60;
/// In chess, a seat resigns when a forced mate against it is seen, or when it scores below
/// this (a queen down for nothing)...
const CHESS_RESIGN_BELOW_CP: i32 = -900;
/// ... by a search at least this deep, so that a short search never resigns.
const CHESS_RESIGN_MIN_DEPTH: u32 = 4;

/// The stream of [`mix`] seeding a sampled final pick and the fallback action.
const PICK_STREAM: u64 = 0x5eed_9c4e;

/// A seed for stream `stream` of `seed` (SplitMix64), so that each use of randomness in a
/// search has its own sequence, independent of the others and of the order they run in.
pub(crate) fn mix(seed: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// ---- choosing -----------------------------------------------------------------------------

/// What the search saw, for logs and benchmarks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations started (0: the action was the only one, or the search could not start).
    pub iterations: u32,
    /// Iterations that failed (a determinization or an action refused).
    pub failures: u32,
    /// The first failure's message.
    pub first_failure: Option<String>,
    /// Whether the wall-clock guard stopped the search before its budget.
    pub clock_stopped: bool,
    /// Visits of the chosen action at the root.
    pub visits: u32,
    /// The chosen action's mean reward (0 lost, 0.5 even, 1 won), if it was searched; in
    /// chess, the expected score its alpha-beta score stands for. `None` also when the
    /// seat had won on material and searched for the mate (its rewards then stretched).
    pub value: Option<f64>,
    /// Positions the alpha-beta searcher looked at (chess; 0 for the tree search).
    pub nodes: u64,
    /// The depth the alpha-beta searcher completed (chess; 0 for the tree search).
    pub depth: u32,
}

/// The computer's choice.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The canonical text of the action: one of [`AnyGame::legal_texts`] for the seat.
    pub text: String,
    pub stats: SearchStats,
    /// Why the search could not be used, when `text` is a fallback legal action instead (for
    /// the caller to log).
    pub fallback: Option<String>,
}

/// Picks `seat`'s action in `state` at `level`. The same state, seat, level and seed give the
/// same choice (unless the wall-clock guard cuts the search short, which
/// [`SearchStats::clock_stopped`] tells).
///
/// Never reads what `seat` may not see: the search runs only on [`AnyGame::determinize`]d
/// samples of `state` for `seat`; of the true state it reads only `seat`'s own legal actions.
/// A single legal action is returned at once. If the search fails, a legal action is returned
/// all the same, with the reason in [`Choice::fallback`]. An error only when `seat` has
/// nothing to do.
pub fn choose(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    level: Level,
    seed: u64,
) -> Result<Choice, GameError> {
    choose_with(game, state, seat, &level.budget(), seed)
}

/// [`choose`] with an explicit budget (tests, benchmarks, the arena).
pub fn choose_with(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    budget: &Budget,
    seed: u64,
) -> Result<Choice, GameError> {
    let texts = game.legal_texts(state, seat)?;
    match texts.len() {
        0 => {
            let name = game
                .seat_name(state, seat)
                .unwrap_or_else(|_| seat.colour_name());
            return Err(GameError::Refused(format!("{name} has nothing to do now")));
        }
        1 => {
            return Ok(Choice {
                text: texts[0].clone(),
                stats: SearchStats::default(),
                fallback: None,
            })
        }
        _ => {}
    }
    if let Some(chess) = chess_state(state) {
        if chess.position().turn() == seat {
            return Ok(choose_chess(chess, &texts, budget, seed));
        }
    }
    if state.downcast_ref::<GolfState>().is_some() {
        let solved = unpanicked(|| golf::choose(game, state, seat, &texts, budget.golf, seed));
        if let Ok(Some(text)) = solved {
            return Ok(Choice {
                text,
                stats: SearchStats::default(),
                fallback: None,
            });
        }
    }
    let legal: BTreeSet<String> = texts.iter().cloned().collect();
    let report = match guarded_search(game, state, seat, Some(&legal), budget, seed) {
        Ok(report) => report,
        Err(why) => return Ok(fallback(&texts, seed, why, SearchStats::default())),
    };
    let mut stats = SearchStats {
        iterations: report.iterations,
        failures: report.failures,
        first_failure: report.first_failure.clone(),
        clock_stopped: report.clock_stopped,
        visits: 0,
        value: None,
        nodes: 0,
        depth: 0,
    };
    match pick(&report.arms, Some(&legal), budget.final_pick, seed) {
        Some(arm) => {
            stats.visits = arm.visits;
            // A stretched mean says how near the mate is, not how the game stands.
            stats.value = (!report.stretched).then(|| arm.mean());
            Ok(Choice {
                text: arm.text.clone(),
                stats,
                fallback: None,
            })
        }
        None => {
            let why = report
                .first_failure
                .clone()
                .unwrap_or_else(|| "the search tried no action".into());
            Ok(fallback(&texts, seed, why, stats))
        }
    }
}

/// Whether `seat` accepts a draw offered in `state`: when its evaluation at `level` says it
/// stands worse than about even (0.45; in chess, the alpha-beta score below -60 centipawns).
/// Declines when the search fails.
pub fn offer_draw_answer(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    level: Level,
    seed: u64,
) -> bool {
    if let Some(chess) = chess_state(state) {
        return chess_score(game, state, chess, seat, &level.budget(), seed)
            .is_some_and(|s| s.score_cp < CHESS_DRAW_ACCEPT_BELOW_CP);
    }
    estimate(game, state, seat, &level.budget(), seed).is_some_and(|e| e.value < DRAW_ACCEPT_BELOW)
}

/// Whether `seat` should resign `state`: only when its evaluation calls the game lost beyond
/// doubt (its best action and all its searched lines average below 0.02 over
/// enough iterations; in chess, a forced mate against it, or a score below -900 centipawns
/// by a search of at least 4 plies). Never at `easy`, whose search is too short to
/// be sure, and never when the search fails.
pub fn should_resign(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    level: Level,
    seed: u64,
) -> bool {
    if level == Level::Easy {
        return false;
    }
    if let Some(chess) = chess_state(state) {
        return chess_score(game, state, chess, seat, &level.budget(), seed).is_some_and(|s| {
            s.score_cp <= -alphabeta::MATE_BOUND
                || (s.score_cp < CHESS_RESIGN_BELOW_CP && s.depth >= CHESS_RESIGN_MIN_DEPTH)
        });
    }
    estimate(game, state, seat, &level.budget(), seed).is_some_and(|e| {
        e.completed >= RESIGN_MIN_ITERATIONS && e.value < RESIGN_BELOW && e.overall < RESIGN_BELOW
    })
}

/// How a seat stands by a search.
struct Estimate {
    /// The mean reward of its most visited action at the root, or of all iterations when it
    /// is not the one to act.
    value: f64,
    /// The mean reward of all completed iterations.
    overall: f64,
    completed: u32,
}

fn estimate(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    budget: &Budget,
    seed: u64,
) -> Option<Estimate> {
    // Whether the game is over or the seat out is public.
    if game.outcome(state).ok()?.is_some() || game.is_out(state, seat).unwrap_or(true) {
        return None;
    }
    let report = guarded_search(game, state, seat, None, budget, seed).ok()?;
    if report.completed == 0 {
        return None;
    }
    let overall = report.root_reward / report.completed as f64;
    let best = pick(&report.arms, None, FinalPick::MostVisited, seed);
    Some(Estimate {
        value: best.map_or(overall, Arm::mean),
        overall,
        completed: report.completed,
    })
}

/// The search, with a panic in a variant turned into an error: a computer player must never be
/// the cause of a stuck game.
fn guarded_search(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    root_legal: Option<&BTreeSet<String>>,
    budget: &Budget,
    seed: u64,
) -> Result<Report, String> {
    match unpanicked(|| search(game, state, seat, root_legal, budget, seed)) {
        Ok(Ok(report)) => Ok(report),
        Ok(Err(e)) => Err(e.to_string()),
        Err(why) => Err(why),
    }
}

/// Runs `f`, with a panic turned into its message.
fn unpanicked<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".into());
        format!("the search panicked: {what}")
    })
}

// ---- two-player chess ---------------------------------------------------------------------

/// The state of a game the alpha-beta searcher plays: chess or Chess960 on the 8x8 board.
fn chess_state(state: &AnyState) -> Option<&ChessState> {
    state
        .downcast_ref::<ChessState>()
        .filter(|chess| alphabeta::supports(chess.position()))
}

/// The move of the seat to move in a game of chess, by the alpha-beta searcher, written as the
/// legal text that reads as it (never written here).
fn choose_chess(chess: &ChessState, texts: &[String], budget: &Budget, seed: u64) -> Choice {
    let position = chess.position();
    let earlier = chess_history(chess);
    let result =
        match unpanicked(|| alphabeta::search_game(position, &earlier, &budget.chess, seed)) {
            Ok(Some(result)) => result,
            Ok(None) => {
                let why = "the chess search found no move".to_string();
                return fallback(texts, seed, why, SearchStats::default());
            }
            Err(why) => return fallback(texts, seed, why, SearchStats::default()),
        };
    let stats = SearchStats {
        clock_stopped: result.clock_stopped,
        value: Some(expected_score(result.score_cp)),
        nodes: result.nodes,
        depth: result.depth,
        ..SearchStats::default()
    };
    let legal = position.legal_moves();
    match texts
        .iter()
        .find(|text| position.parse_move_among(text, &legal).ok() == Some(result.best))
    {
        Some(text) => Choice {
            text: text.clone(),
            stats,
            fallback: None,
        },
        None => {
            let why = format!(
                "no legal text reads as the searched move {}",
                position.san(result.best)
            );
            fallback(texts, seed, why, stats)
        }
    }
}

/// The alpha-beta's view of a game of chess for one seat.
struct ChessScore {
    /// Centipawns for `seat` (mates as [`alphabeta::MATE`] less the plies to them).
    score_cp: i32,
    depth: u32,
}

/// Searches a game of chess and scores it for `seat`, whether or not it is to move. `None`
/// when the game is over or the search fails.
fn chess_score(
    game: &dyn AnyGame,
    state: &AnyState,
    chess: &ChessState,
    seat: Seat,
    budget: &Budget,
    seed: u64,
) -> Option<ChessScore> {
    if game.outcome(state).ok()?.is_some() {
        return None;
    }
    let position = chess.position();
    let earlier = chess_history(chess);
    let result =
        unpanicked(|| alphabeta::search_game(position, &earlier, &budget.chess, seed)).ok()??;
    let score_cp = if position.turn() == seat {
        result.score_cp
    } else {
        -result.score_cp
    };
    Some(ChessScore {
        score_cp,
        depth: result.depth,
    })
}

/// The [`alphabeta::position_key`]s of the positions of a game of chess before the current
/// one, oldest first, replayed from its start (the state keeps its moves in SAN), so that the
/// search knows which lines repeat the game. Empty if a move does not replay.
pub fn chess_history(chess: &ChessState) -> Vec<u64> {
    let rules = chess.position().rules().clone();
    let Ok(mut pos) = Position::from_fen(chess.start_fen(), rules) else {
        return Vec::new();
    };
    let mut keys = Vec::with_capacity(chess.moves().len());
    for san in chess.moves() {
        keys.push(alphabeta::position_key(&pos));
        match pos.parse_move(san) {
            Ok(m) => pos.play_unchecked(m),
            Err(_) => return Vec::new(),
        }
    }
    keys
}

/// The expected score (0 lost, 1 won) a centipawn score stands for, by the usual logistic of
/// 400 points a factor of ten; what [`SearchStats::value`] holds for chess.
fn expected_score(score_cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-(score_cp as f64) / 400.0))
}

/// The action to play among the searched `arms` (only those in `legal`, if given).
fn pick<'r>(
    arms: &'r [Arm],
    legal: Option<&BTreeSet<String>>,
    how: FinalPick,
    seed: u64,
) -> Option<&'r Arm> {
    let tried: Vec<&Arm> = arms
        .iter()
        .filter(|a| a.visits > 0 && legal.is_none_or(|l| l.contains(&a.text)))
        .collect();
    match how {
        FinalPick::MostVisited => {
            let mut best: Option<&Arm> = None;
            for arm in tried {
                let better = match best {
                    None => true,
                    Some(b) => {
                        arm.visits > b.visits || (arm.visits == b.visits && arm.mean() > b.mean())
                    }
                };
                if better {
                    best = Some(arm);
                }
            }
            best
        }
        FinalPick::Sampled { temperature } => {
            let power = 1.0 / temperature.max(0.05);
            let weights: Vec<f64> = tried
                .iter()
                .map(|a| (a.visits as f64).powf(power))
                .collect();
            let total: f64 = weights.iter().sum();
            let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, PICK_STREAM));
            let mut left = rng.gen::<f64>() * total;
            for (arm, weight) in tried.iter().zip(&weights) {
                if left < *weight {
                    return Some(*arm);
                }
                left -= weight;
            }
            tried.last().copied()
        }
    }
}

/// A legal action chosen by the seed alone, when the search gave nothing.
fn fallback(texts: &[String], seed: u64, why: String, stats: SearchStats) -> Choice {
    let index = (mix(seed, PICK_STREAM) % texts.len() as u64) as usize;
    Choice {
        text: texts[index].clone(),
        stats,
        fallback: Some(why),
    }
}

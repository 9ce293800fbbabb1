//! Chess Golf's computer player. A hole is a puzzle that every player sees whole (the board and
//! the cards are public; only the counts are secret until all are in), and a tree search over
//! random moves almost never stumbles on a solution. So the seat solves the hole as a player
//! would, with the game's own solver on its level's budget:
//!
//! - counting, it submits the length of the shortest solution it finds, or impossible when it
//!   finds none within its budget;
//! - demonstrating, it plays the first move of the shortest solution from where the
//!   demonstration stands, and gives up only when none fits the moves its count leaves;
//! - dealing, it deals two cards: a two-card hole is the one its solver is surest to see
//!   through, which is what wins against players who solve less.
//!
//! It reads a [`AnyGame::determinize`]d sample of the state for its seat, never the state
//! itself, so another player's count is never seen (they are all public once revealed).

use crate::chess::Seat;
use crate::game::{AnyGame, AnyState};
use crate::variants::golf::{GolfState, MAX_COUNT};

/// What the golf solver may spend for one choice: the longest solution it looks for, and the
/// positions whose moves it may try (each costs about the same, so this bounds the time and
/// keeps a choice independent of the machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GolfLimits {
    pub max_moves: usize,
    pub positions: usize,
}

impl GolfLimits {
    /// `hard`: solutions of up to six moves on the book's boards (its hardest problems take
    /// six), seven or eight where the board allows few moves. Dealt holes mostly take one to
    /// five; sixty deals counted in at most 0.19 s with a quarter of this budget.
    pub const HARD: GolfLimits = GolfLimits {
        max_moves: 8,
        positions: 150_000,
    };
    /// `medium`: up to five moves.
    pub const MEDIUM: GolfLimits = GolfLimits {
        max_moves: 5,
        positions: 5_000,
    };
    /// `easy`: up to two moves, a beginner's eye that sees a capture and the move that makes
    /// it possible; longer holes (two in five of those dealt) it calls impossible.
    pub const EASY: GolfLimits = GolfLimits {
        max_moves: 2,
        positions: 1,
    };
}

/// `seat`'s action in a game of Chess Golf, one of `texts`; `None` where the solver has no
/// opinion (the search decides instead).
pub(super) fn choose(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    texts: &[String],
    limits: GolfLimits,
    seed: u64,
) -> Option<String> {
    let has = |t: &str| texts.iter().any(|x| x == t);
    if has("deal") {
        return Some("deal".into());
    }
    let sample = game.determinize(state, seat, seed).ok()?;
    let golf = sample.downcast_ref::<GolfState>()?;
    let (board, chosen, progress) = golf.puzzle()?;
    let text = if has("impossible") {
        let longest = limits.max_moves.min(usize::from(MAX_COUNT));
        match board.solve_from(&chosen, progress, longest, limits.positions) {
            Some(path) => path.len().to_string(),
            None => "impossible".into(),
        }
    } else {
        let left = golf.moves_left(seat);
        match board.solve_from(&chosen, progress, left, limits.positions) {
            Some(path) => path.first()?.to_string(),
            None => "give up".into(),
        }
    };
    has(&text).then_some(text)
}

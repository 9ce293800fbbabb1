//! Information-set Monte Carlo tree search (UCT) over any game through [`AnyGame`].
//!
//! Each iteration starts from a fresh determinization of the true state for the searching seat
//! ([`AnyGame::determinize`]): a state consistent with what that seat may know, hidden parts
//! resampled. The true state is never searched. One tree serves every determinization; a node
//! is reached by the action texts played on the way, and an action counts only where it is
//! legal in the iteration's determinization (each arm keeps how often it was available, the
//! UCB's "parent visits", as single-observer ISMCTS does).
//!
//! Where several seats are prompted at once (sealed, simultaneous moves) the node is decoupled:
//! each prompted seat chooses from its own statistics, without seeing the others' choices, and
//! the joint choice is played seat by seat. Every seat maximises its own reward, partners
//! sharing theirs (max^n). Below the tree, a playout of random legal actions, cut off after a
//! few plies by the evaluation of [`Sides::rewards`]. Once the searching seat has won a chess
//! game on material, its rewards are stretched over the decided range, and once every rival
//! still in is all but bare, the evaluation is read at once, without a playout
//! ([`Sides::stretch`]): the search then hunts the mate.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::eval::Sides;
use super::{mix, Budget};
use crate::chess::Seat;
use crate::game::{AnyGame, AnyState, GameError};

/// The stream of [`mix`] seeding the determinization that reads the table.
const SIDES_STREAM: u64 = 0x5eed_51de;
/// The stream seeding the search's own choices (untried actions, playouts).
const RNG_STREAM: u64 = 0x5eed_0a11;
/// The stream of the first iteration's determinization; iteration `i` uses this plus `i`.
const FIRST_ITERATION_STREAM: u64 = 0x1000;
/// A search stops early once this many iterations have failed and they are more than half of
/// all: a variant that cannot be determinized or played fails every time, and trying all the
/// budget would only waste the time the fallback needs.
const FAILURES_TO_GIVE_UP: u32 = 8;

/// One action of one seat at one node.
#[derive(Clone, Debug)]
pub(crate) struct Arm {
    pub(crate) text: String,
    pub(crate) visits: u32,
    /// The iterations in which this action was legal when its seat chose here.
    available: u32,
    /// The sum of the seat's rewards over the visits.
    reward: f64,
}

impl Arm {
    fn new(text: String) -> Arm {
        Arm {
            text,
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }

    /// The mean reward of its visits (0 before the first).
    pub(crate) fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f64
        }
    }
}

/// The statistics of one seat choosing at one node.
#[derive(Debug)]
struct SeatStats {
    seat: Seat,
    arms: Vec<Arm>,
    /// Each arm's index by its text, so that lookups do not scan the arms.
    by_text: BTreeMap<String, usize>,
}

#[derive(Debug, Default)]
struct Node {
    /// Each prompted seat and its legal texts, kept after the first visit where every visit
    /// must see the same (perfect information: determinizations are copies).
    decisions: Option<Vec<(Seat, Vec<String>)>>,
    /// The seats that chose here.
    seats: Vec<SeatStats>,
    /// The node after each joint choice (seat and text, in the order played).
    children: BTreeMap<Vec<(Seat, String)>, usize>,
}

impl Node {
    /// The index of `seat`'s statistics, made on its first choice here.
    fn slot(&mut self, seat: Seat) -> usize {
        match self.seats.iter().position(|s| s.seat == seat) {
            Some(i) => i,
            None => {
                self.seats.push(SeatStats {
                    seat,
                    arms: Vec::new(),
                    by_text: BTreeMap::new(),
                });
                self.seats.len() - 1
            }
        }
    }
}

/// What a search found.
#[derive(Debug, Default)]
pub(crate) struct Report {
    /// The searching seat's actions at the root (empty when it is not prompted there).
    pub(crate) arms: Vec<Arm>,
    /// Iterations started.
    pub(crate) iterations: u32,
    /// Iterations that ended with a reward.
    pub(crate) completed: u32,
    pub(crate) failures: u32,
    pub(crate) first_failure: Option<String>,
    /// Whether the wall-clock guard ended the search before its budget.
    pub(crate) clock_stopped: bool,
    /// The sum over completed iterations of the searching seat's reward.
    pub(crate) root_reward: f64,
    /// Whether the searching seat's rewards were stretched over a won game's range
    /// ([`Sides::stretch`]): its means are then no estimate of how the game stands.
    pub(crate) stretched: bool,
}

struct Search<'a> {
    game: &'a dyn AnyGame,
    /// The seat the search plays for; every determinization is from its point of view.
    seat: Seat,
    /// The searching seat's actions at the root in the true state (what it may choose among).
    root_legal: Option<&'a BTreeSet<String>>,
    sides: Sides,
    budget: &'a Budget,
    /// Whether a node's legal texts may be kept (see [`Node::decisions`]).
    perfect: bool,
    nodes: Vec<Node>,
    rng: ChaCha8Rng,
}

/// Searches `state` for `seat` within `budget`. Only determinizations of `state` for `seat` are
/// ever read; `root_legal` (from the true state, the seat's own options) limits its choices at
/// the root.
pub(crate) fn search(
    game: &dyn AnyGame,
    state: &AnyState,
    seat: Seat,
    root_legal: Option<&BTreeSet<String>>,
    budget: &Budget,
    seed: u64,
) -> Result<Report, GameError> {
    let started = Instant::now();
    let sample = game.determinize(state, seat, mix(seed, SIDES_STREAM))?;
    let mut sides = Sides::read(game, &sample, seat)?;
    if root_legal.is_some() {
        // Choosing a move (not estimating how the seat stands): a won position's moves are
        // told apart by stretching its rewards.
        sides.stretch(game, &sample)?;
    }
    drop(sample);
    let mut search = Search {
        game,
        seat,
        root_legal,
        sides,
        budget,
        perfect: !game.info().hidden_information,
        nodes: vec![Node::default()],
        rng: ChaCha8Rng::seed_from_u64(mix(seed, RNG_STREAM)),
    };
    let mut report = Report {
        stretched: search.sides.is_stretched(),
        ..Report::default()
    };
    for i in 0..budget.iterations {
        // The clock is only a guard: a search within its budget never looks at it twice the
        // same way, but one that would run far over (a slow variant, a loaded machine) stops.
        if i > 0 && started.elapsed() >= budget.time_cap {
            report.clock_stopped = true;
            break;
        }
        report.iterations += 1;
        let result = game
            .determinize(state, seat, mix(seed, FIRST_ITERATION_STREAM + i as u64))
            .and_then(|root| search.iterate(root));
        match result {
            Ok(rewards) => {
                report.completed += 1;
                report.root_reward += rewards.get(seat.index()).copied().unwrap_or(0.0);
            }
            Err(e) => {
                report.failures += 1;
                if report.first_failure.is_none() {
                    report.first_failure = Some(e.to_string());
                }
                if report.failures >= FAILURES_TO_GIVE_UP && report.failures * 2 > report.iterations
                {
                    break;
                }
            }
        }
    }
    let root = &mut search.nodes[0];
    if let Some(stats) = root.seats.iter_mut().find(|s| s.seat == seat) {
        report.arms = std::mem::take(&mut stats.arms);
    }
    Ok(report)
}

impl Search<'_> {
    /// One iteration from a determinized root: down the tree, one new node, a playout, and
    /// the rewards back up the path. Returns the rewards.
    fn iterate(&mut self, mut state: AnyState) -> Result<Vec<f64>, GameError> {
        // Each node on the path with the (seat slot, arm) of every choice made there.
        let mut path: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        let mut at = 0;
        let rewards = loop {
            if self.game.outcome(&state)?.is_some() {
                break self.sides.rewards(self.game, &state)?;
            }
            let decisions = self.decisions(at, &state)?;
            if decisions.is_empty() {
                break self.sides.rewards(self.game, &state)?;
            }
            let mut picks: Vec<(usize, usize)> = Vec::with_capacity(decisions.len());
            for (seat, texts) in &decisions {
                let node = &mut self.nodes[at];
                let slot = node.slot(*seat);
                let arm = select(
                    &mut node.seats[slot],
                    texts,
                    self.budget.exploration,
                    &mut self.rng,
                );
                picks.push((slot, arm));
            }
            let mut key: Vec<(Seat, String)> = Vec::with_capacity(picks.len());
            let mut played = 0;
            for &(slot, arm) in &picks {
                let stats = &self.nodes[at].seats[slot];
                let (seat, text) = (stats.seat, stats.arms[arm].text.clone());
                // A joint choice stops where the game ends.
                if played > 0 && self.game.outcome(&state)?.is_some() {
                    break;
                }
                if let Err(e) = self.game.play(&mut state, seat, &text) {
                    // Kept texts that do not play: determinizations differ after all, so
                    // nothing is kept from now on.
                    if self.nodes[at].decisions.is_some() {
                        self.nodes[at].decisions = None;
                        self.perfect = false;
                    }
                    return Err(e);
                }
                key.push((seat, text));
                played += 1;
            }
            picks.truncate(played);
            path.push((at, picks));
            match self.nodes[at].children.get(&key) {
                Some(&child) => at = child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(Node::default());
                    self.nodes[at].children.insert(key, child);
                    break self.playout(&mut state)?;
                }
            }
        };
        for (node, picks) in path {
            for (slot, arm) in picks {
                let stats = &mut self.nodes[node].seats[slot];
                let reward = rewards.get(stats.seat.index()).copied().unwrap_or(0.5);
                let arm = &mut stats.arms[arm];
                arm.visits += 1;
                arm.reward += reward;
            }
        }
        Ok(rewards)
    }

    /// The prompted seats at node `at` in `state` and each one's legal texts (only those
    /// with something to do).
    fn decisions(
        &mut self,
        at: usize,
        state: &AnyState,
    ) -> Result<Vec<(Seat, Vec<String>)>, GameError> {
        if let Some(kept) = &self.nodes[at].decisions {
            return Ok(kept.clone());
        }
        let mut seats: Vec<Seat> = Vec::new();
        for prompt in self.game.prompts(state)? {
            if !seats.contains(&prompt.seat) {
                seats.push(prompt.seat);
            }
        }
        let mut decisions = Vec::with_capacity(seats.len());
        for seat in seats {
            let mut texts = self.game.legal_texts(state, seat)?;
            if at == 0 && seat == self.seat {
                if let Some(legal) = self.root_legal {
                    texts.retain(|t| legal.contains(t));
                }
            }
            if !texts.is_empty() {
                decisions.push((seat, texts));
            }
        }
        if self.perfect {
            self.nodes[at].decisions = Some(decisions.clone());
        }
        Ok(decisions)
    }

    /// Random legal actions of random prompted seats for at most the budget's plies, then
    /// the rewards of where it stopped.
    fn playout(&mut self, state: &mut AnyState) -> Result<Vec<f64>, GameError> {
        // In a won game the evaluation (the beaten king's room, the winner's pieces around
        // it) says where the game is going; a random move of the winner would only blur it.
        let plies = if self.sides.read_at_once() {
            0
        } else {
            self.budget.playout_plies
        };
        for _ in 0..plies {
            let prompts = self.game.prompts(state)?;
            if prompts.is_empty() {
                break;
            }
            let seat = prompts[self.rng.gen_range(0..prompts.len())].seat;
            if !self
                .game
                .play_random_legal(state, seat, self.rng.gen::<u64>())?
            {
                break;
            }
        }
        let rewards = self.sides.rewards(self.game, state)?;
        debug_assert_eq!(rewards.len(), self.sides.seats());
        Ok(rewards)
    }
}

/// The arm `stats`' seat plays among `texts` (not empty): an action never tried here first, in
/// random order; then the best UCB1 score, counting each arm's availability for its parent.
fn select(
    stats: &mut SeatStats,
    texts: &[String],
    exploration: f64,
    rng: &mut ChaCha8Rng,
) -> usize {
    let mut offered: Vec<usize> = Vec::with_capacity(texts.len());
    let mut untried: Vec<usize> = Vec::new();
    for text in texts {
        let index = match stats.by_text.get(text) {
            Some(&i) => i,
            None => {
                stats.arms.push(Arm::new(text.clone()));
                stats.by_text.insert(text.clone(), stats.arms.len() - 1);
                stats.arms.len() - 1
            }
        };
        let arm = &mut stats.arms[index];
        arm.available += 1;
        if arm.visits == 0 {
            untried.push(index);
        }
        offered.push(index);
    }
    if !untried.is_empty() {
        return untried[rng.gen_range(0..untried.len())];
    }
    let mut best = offered[0];
    let mut best_score = f64::NEG_INFINITY;
    for &i in &offered {
        let arm = &stats.arms[i];
        let score =
            arm.mean() + exploration * ((arm.available as f64).ln() / arm.visits as f64).sqrt();
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

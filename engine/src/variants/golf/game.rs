//! Chess Golf as a game (Chess Kit, "Chess Golf": Setup, Play, Difficulty Level, Game End):
//! nine holes, each scored like golf.
//!
//! - Setup: the sixteen piece cards are shuffled and dealt onto the board by their gaps; a
//!   dealer is chosen at random.
//! - Each hole the dealer deals two cards, or by his choice three (then one chosen piece must
//!   take both others). Everyone works out a solution and submits a move count in secret (0:
//!   impossible, or none found). When all have submitted, the counts are shown and written
//!   down as the hole's scores.
//! - The lowest count but not zero demonstrates, move by move (ties: the first such player to
//!   the dealer's left). Failing, he scores the highest of the other players' counts plus one
//!   and the pieces are reset for the next lowest. When a demonstration succeeds, every player
//!   who said impossible scores the highest count plus one; the pieces stay where they ended,
//!   captured pieces come back on empty squares, and the demonstrator deals the next hole.
//! - If everyone said impossible, everyone scores zero and the same dealer deals again.
//! - After nine holes the lowest total wins.
//!
//! Interpretations (also in the rules text): the book's one-minute timer is the game's move
//! clock: a player whose time runs out while counting is taken to have found nothing (0), a
//! dealer's runs out deals two cards, and a demonstrator's is a failed demonstration; a
//! demonstration may not use more moves than its count, a move that is not allowed is refused
//! (nothing changes) and the demonstrator may give up; if every demonstration fails the hole
//! still counts (so a round always ends), the pieces go back and the same dealer deals, but
//! nobody may come out of it cheaply: everyone scores at least the highest count, and those who
//! failed at least the highest count plus one (the book's "other players' numbers" can be lower,
//! or none, playing alone); a hole everyone calls impossible is dealt again and not counted;
//! only rounds whose nine holes were all solved enter the best scores (a round with a hole
//! nobody solved has a score that could be had without solving anything); captured pieces come
//! back on empty squares drawn by the game's seeded RNG; a player who resigns leaves the game,
//! which ends, with the others ranked by their totals.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::cards::{redeal, shuffled, Card, Face, Pile, Visibility};
use crate::chess::{parse_setup, KingRule, MoveParseError, Position, Role, Rules, Seat};
use crate::game::{
    BestScores, EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind,
    Standing, VariantInfo,
};
use crate::view::{CardRow, View, Viewer};

use super::{parse_square, square_name, Chosen, GolfBoard, GolfPiece, Progress, Square};
use crate::variants::chess::board_view;

/// Chess Golf, the game.
pub struct Golf;

/// Holes in a round.
pub const HOLES: u32 = 9;
/// The highest move count a player may submit.
pub const MAX_COUNT: u8 = 30;

/// One thing a player does in Chess Golf.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GolfAction {
    /// The dealer deals two or three cards.
    Deal(u8),
    /// A move count submitted in secret (0: impossible).
    Count(u8),
    /// Moves of a demonstration, from and to.
    Moves(Vec<(Square, Square)>),
    /// The demonstrator gives up.
    GiveUp,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    Deal,
    Count,
    Demonstrate { seat: Seat },
    Over,
}

/// The state of a game of Chess Golf.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GolfState {
    players: u8,
    phase: Phase,
    /// The board as the hole started (a failed demonstration resets to it).
    start_fen: String,
    /// The demonstration so far, and the board and progress after it.
    path: Vec<(Square, Square)>,
    now_fen: String,
    progress: Progress,
    dealer: Seat,
    /// The cards still to deal, the top last; and those dealt before.
    deck: Vec<Card>,
    discard: Vec<Card>,
    /// This hole's chosen cards.
    chosen: Vec<Card>,
    /// This hole's counts, once submitted (secret until all are in).
    counts: Vec<Option<u8>>,
    /// Players who have failed to demonstrate this hole.
    failed: Vec<Seat>,
    /// Each finished hole's scores, a row per hole.
    card: Vec<Vec<u32>>,
    /// This hole's scores as they stand (penalties included), once the counts are shown.
    hole_scores: Vec<u32>,
    hole: u32,
    /// Holes a demonstration solved. `None` in rounds stored before they were counted, which
    /// cannot show that their score was earned by solving.
    #[serde(default)]
    solved_holes: Option<u32>,
    rng: u64,
    last_move: Vec<Square>,
    result: Option<Outcome>,
}

fn golf_card(card: Card) -> Option<GolfPiece> {
    match card.face {
        Face::Piece(role) if role != Role::Pawn => Some(GolfPiece {
            side: card.side,
            role,
        }),
        _ => None,
    }
}

/// The sixteen piece cards without pawns.
fn golf_deck() -> Vec<Card> {
    Card::deck()
        .into_iter()
        .filter(|c| golf_card(*c).is_some())
        .collect()
}

fn card_names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl GolfState {
    /// A new round: the board dealt from the shuffled cards, a dealer drawn.
    pub fn new(players: u8, seed: u64) -> GolfState {
        let layout = shuffled(golf_deck(), seed);
        let board = GolfBoard::deal(&layout);
        let mut state = GolfState {
            players,
            phase: Phase::Deal,
            start_fen: board.fen(),
            now_fen: board.fen(),
            progress: Progress {
                capturer: None,
                remaining: 0,
            },
            path: Vec::new(),
            dealer: Seat(0),
            deck: Vec::new(),
            discard: Vec::new(),
            chosen: Vec::new(),
            counts: vec![None; players as usize],
            failed: Vec::new(),
            card: Vec::new(),
            hole_scores: vec![0; players as usize],
            hole: 1,
            solved_holes: Some(0),
            rng: seed,
            last_move: Vec::new(),
            result: None,
        };
        state.dealer = Seat((state.next_random() % u64::from(players)) as u8);
        state.deck = shuffled(golf_deck(), state.next_random());
        state
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]). While the counts
    /// are secret, each other player's submitted count (that one is in is announced) is
    /// replaced by a plausible one: impossible one time in four, otherwise 2 to 8 moves (the
    /// book's holes take 2 to 6 at their shortest, and players miss the shortest). The deck,
    /// whose cards everyone knows (those not dealt yet), is shuffled afresh, and the random
    /// draws to come (where captured pieces come back) are seeded afresh. The seat's own count
    /// stays.
    fn determinized(&self, seat: Seat, seed: u64) -> GolfState {
        let mut sample = self.clone();
        let mut stream = seed;
        let mut rng = ChaCha8Rng::seed_from_u64(crate::cards::next_seed(&mut stream));
        if self.phase == Phase::Count {
            for (s, count) in sample.counts.iter_mut().enumerate() {
                if s != seat.index() && count.is_some() {
                    *count = Some(if rng.gen_ratio(1, 4) {
                        0
                    } else {
                        rng.gen_range(2..=8)
                    });
                }
            }
        }
        redeal(
            &mut [&mut sample.deck],
            crate::cards::next_seed(&mut stream),
            |_, _, _| 0,
        );
        sample.rng = crate::cards::next_seed(&mut stream);
        sample
    }

    fn next_random(&mut self) -> u64 {
        crate::cards::next_seed(&mut self.rng)
    }

    fn start_board(&self) -> GolfBoard {
        GolfBoard::from_fen(&self.start_fen).expect("the game writes its own boards")
    }

    fn chosen(&self) -> Chosen {
        Chosen(self.chosen.iter().filter_map(|&c| golf_card(c)).collect())
    }

    /// The board now: the hole's start with the demonstration so far.
    pub fn board(&self) -> GolfBoard {
        GolfBoard::from_fen(&self.now_fen).unwrap_or_else(|_| self.start_board())
    }

    /// Back to the hole's start (a new hole, or a failed demonstration).
    fn reset(&mut self) {
        self.path.clear();
        self.now_fen = self.start_fen.clone();
        self.progress = Progress::start(&self.chosen());
    }

    /// The hole as every player sees it while it is counted or demonstrated: the board now,
    /// the cards chosen and what is left to take (the computer player's puzzle).
    pub(crate) fn puzzle(&self) -> Option<(GolfBoard, Chosen, Progress)> {
        matches!(self.phase, Phase::Count | Phase::Demonstrate { .. })
            .then(|| (self.board(), self.chosen(), self.progress))
    }

    /// The moves `seat`'s count still allows it in its demonstration.
    pub(crate) fn moves_left(&self, seat: Seat) -> usize {
        self.remaining_moves(seat)
    }

    /// Each player's total so far.
    pub fn totals(&self) -> Vec<u32> {
        (0..self.players as usize)
            .map(|p| self.card.iter().map(|row| row[p]).sum())
            .collect()
    }

    fn to_act(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::Deal => vec![self.dealer],
            Phase::Count => (0..self.players)
                .map(Seat)
                .filter(|s| self.counts[s.index()].is_none())
                .collect(),
            Phase::Demonstrate { seat } => vec![*seat],
            Phase::Over => Vec::new(),
        }
    }

    fn remaining_moves(&self, seat: Seat) -> usize {
        let count = self.counts[seat.index()].unwrap_or(0) as usize;
        count.saturating_sub(self.path.len())
    }

    fn actions(&self, seat: Seat) -> Vec<GolfAction> {
        if !self.to_act().contains(&seat) {
            return Vec::new();
        }
        match &self.phase {
            Phase::Deal => vec![GolfAction::Deal(2), GolfAction::Deal(3)],
            Phase::Count => (0..=MAX_COUNT).map(GolfAction::Count).collect(),
            Phase::Demonstrate { .. } => self
                .board()
                .allowed_moves(&self.chosen(), self.progress)
                .into_iter()
                .map(|m| GolfAction::Moves(vec![(m.from, m.to)]))
                .chain(std::iter::once(GolfAction::GiveUp))
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    fn action_text(&self, action: &GolfAction) -> String {
        match action {
            GolfAction::Deal(3) => "deal three".into(),
            GolfAction::Deal(_) => "deal".into(),
            GolfAction::Count(0) => "impossible".into(),
            GolfAction::Count(n) => n.to_string(),
            GolfAction::Moves(path) => {
                let board = self.board();
                path.iter()
                    .map(|&(from, to)| {
                        let sep = if board.at(to).is_some() { 'x' } else { '-' };
                        format!("{}{sep}{}", square_name(from), square_name(to))
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            GolfAction::GiveUp => "give up".into(),
        }
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<GolfAction, GameError> {
        let refuse = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        };
        if !self.to_act().contains(&seat) {
            return Err(GameError::NotYourTurn(self.waiting_text(seat)));
        }
        let lower = text.trim().to_ascii_lowercase();
        match &self.phase {
            Phase::Deal => {
                let n = match lower.as_str() {
                    "deal" | "deal 2" | "deal two" | "2" | "two" => 2,
                    "deal 3" | "deal three" | "3" | "three" => 3,
                    _ => return Err(refuse(
                        "deal two cards (/move deal) or, for a harder hole, three (/move deal three)"
                            .into(),
                    )),
                };
                Ok(GolfAction::Deal(n))
            }
            Phase::Count => {
                if matches!(lower.as_str(), "impossible" | "0" | "none" | "pass") {
                    return Ok(GolfAction::Count(0));
                }
                match lower.parse::<u8>() {
                    Ok(n) if n <= MAX_COUNT => Ok(GolfAction::Count(n)),
                    _ => Err(refuse(format!(
                        "send the number of moves your solution takes (1 to {MAX_COUNT}), or \
                         impossible"
                    ))),
                }
            }
            Phase::Demonstrate { .. } => {
                if matches!(
                    lower.as_str(),
                    "give up" | "giveup" | "fail" | "resign hole"
                ) {
                    return Ok(GolfAction::GiveUp);
                }
                let mut path = Vec::new();
                for word in lower
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                {
                    let squares: String =
                        word.chars().filter(|c| !matches!(c, '-' | 'x')).collect();
                    let parsed = (squares.len() == 4 && squares.is_ascii())
                        .then(|| Some((parse_square(&squares[..2])?, parse_square(&squares[2..])?)))
                        .flatten();
                    path.push(parsed.ok_or_else(|| {
                        refuse(format!(
                            "'{word}' is not a move: write moves from square to square, like e5-g6 \
                             (several separated by spaces), or give up"
                        ))
                    })?);
                }
                if path.is_empty() {
                    return Err(refuse("name a move, like e5-g6, or give up".into()));
                }
                let left = self.remaining_moves(seat);
                if path.len() > left {
                    return Err(refuse(format!(
                        "your count leaves {left} move{} to make",
                        if left == 1 { "" } else { "s" }
                    )));
                }
                self.board()
                    .walk_from(&self.chosen(), self.progress, self.path.len(), &path)
                    .map_err(refuse)?;
                Ok(GolfAction::Moves(path))
            }
            Phase::Over => Err(GameError::NotYourTurn("the game is over".into())),
        }
    }

    fn waiting_text(&self, seat: Seat) -> String {
        match &self.phase {
            Phase::Deal => format!("Player {} deals", self.dealer.0 + 1),
            Phase::Count if self.counts.get(seat.index()).copied().flatten().is_some() => {
                "you have submitted your count; waiting for the others".into()
            }
            Phase::Count => "the players are counting".into(),
            Phase::Demonstrate { seat } => format!("Player {} is demonstrating", seat.0 + 1),
            Phase::Over => "the game is over".into(),
        }
    }

    fn apply(&mut self, seat: Seat, action: GolfAction) -> Result<Vec<Event>, GameError> {
        let allowed = match &action {
            GolfAction::Moves(path) => {
                self.to_act().contains(&seat)
                    && matches!(self.phase, Phase::Demonstrate { .. })
                    && path.len() <= self.remaining_moves(seat)
                    && self
                        .board()
                        .walk_from(&self.chosen(), self.progress, self.path.len(), path)
                        .is_ok()
            }
            other => self.actions(seat).contains(other),
        };
        if !allowed {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(&action),
                reason: "it is not a possible choice now".into(),
            }));
        }
        let mut said = Vec::new();
        match action {
            GolfAction::Deal(n) => self.deal(n, &mut said),
            GolfAction::Count(n) => {
                self.counts[seat.index()] = Some(n);
                said.push(format!("{} has submitted a count.", name(seat)));
                if self.counts.iter().all(|c| c.is_some()) {
                    self.reveal(&mut said);
                }
            }
            GolfAction::Moves(path) => self.demonstrate(seat, &path, &mut said),
            GolfAction::GiveUp => {
                said.push(format!("{} gives up the demonstration.", name(seat)));
                self.fail(seat, &mut said);
            }
        }
        let mut events: Vec<Event> = said.into_iter().map(Event::Public).collect();
        if let Some(o) = &self.result {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    fn deal(&mut self, n: u8, said: &mut Vec<String>) {
        if self.deck.len() < n as usize {
            let back = std::mem::take(&mut self.discard);
            self.deck.extend(back);
            self.deck = shuffled(std::mem::take(&mut self.deck), self.next_random());
            said.push("The discard pile is shuffled back into the deck.".into());
        }
        self.chosen = (0..n).filter_map(|_| self.deck.pop()).collect();
        let mut text = format!(
            "Hole {}: {} deals {}.",
            self.hole,
            name(self.dealer),
            card_names(&self.chosen)
        );
        if n == 3 {
            text.push_str(" Three cards: one chosen piece must take both of the others.");
        }
        text.push_str(" Send your move count with /secret (impossible if you find none).");
        said.push(text);
        self.counts = vec![None; self.players as usize];
        self.failed.clear();
        self.reset();
        self.phase = Phase::Count;
    }

    fn reveal(&mut self, said: &mut Vec<String>) {
        let shown: Vec<String> = (0..self.players)
            .map(Seat)
            .map(|s| match self.counts[s.index()] {
                Some(0) | None => format!("{} impossible", name(s)),
                Some(n) => format!("{} {n}", name(s)),
            })
            .collect();
        said.push(format!("Counts: {}.", shown.join(", ")));
        self.hole_scores = self
            .counts
            .iter()
            .map(|c| u32::from(c.unwrap_or(0)))
            .collect();
        if self.counts.iter().all(|c| *c == Some(0)) {
            said.push(format!(
                "Everyone says impossible: no scores, and {} deals again.",
                name(self.dealer)
            ));
            self.return_cards();
            self.phase = Phase::Deal;
            return;
        }
        self.next_demonstrator(said);
    }

    /// The lowest count not yet failed, ties broken from the dealer's left.
    fn next_demonstrator(&mut self, said: &mut Vec<String>) {
        let n = self.players;
        let order = (1..=n).map(|i| Seat((self.dealer.0 + i) % n));
        let next = order
            .filter(|s| !self.failed.contains(s))
            .filter_map(|s| match self.counts[s.index()] {
                Some(c) if c > 0 => Some((c, s)),
                _ => None,
            })
            .min_by_key(|&(c, _)| c);
        match next {
            Some((count, seat)) => {
                self.reset();
                self.phase = Phase::Demonstrate { seat };
                said.push(format!(
                    "{} demonstrates in {count} move{} (/move e5-g6, or several at once).",
                    name(seat),
                    if count == 1 { "" } else { "s" }
                ));
            }
            None => {
                // A hole nobody solves must not come cheap: the book's "other players'
                // numbers" may all be zero (or there are none, playing alone).
                let highest = u32::from(self.counts.iter().flatten().copied().max().unwrap_or(0));
                for s in 0..self.players as usize {
                    let least = if self.failed.contains(&Seat(s as u8)) {
                        highest + 1
                    } else {
                        highest
                    };
                    self.hole_scores[s] = self.hole_scores[s].max(least);
                }
                said.push(format!(
                    "No demonstration succeeded: nobody scores less than the highest count \
                     ({highest}), nor a failed demonstrator less than {}; the pieces stay where \
                     the hole began, and {} deals again.",
                    highest + 1,
                    name(self.dealer)
                ));
                self.end_hole(said);
            }
        }
    }

    fn demonstrate(&mut self, seat: Seat, path: &[(Square, Square)], said: &mut Vec<String>) {
        let board = self.board();
        let Ok((after, progress, played)) =
            board.walk_from(&self.chosen(), self.progress, self.path.len(), path)
        else {
            return;
        };
        self.path.extend(path);
        self.now_fen = after.fen();
        self.progress = progress;
        let mut board = board;
        let mut written = Vec::new();
        for pm in &played {
            let m = pm.played;
            let sep = if board.at(m.to).is_some() { 'x' } else { '-' };
            written.push(format!(
                "{}{sep}{} (as {})",
                square_name(m.from),
                square_name(m.to),
                m.borrowed.name()
            ));
            board = board_after(&board, m.from, m.to);
        }
        self.last_move = path.last().map(|&(f, t)| vec![f, t]).unwrap_or_default();
        said.push(format!("{}: {}", name(seat), written.join(", ")));
        if played.last().is_some_and(|m| m.solves) {
            self.succeed(seat, said);
        } else if self.remaining_moves(seat) == 0 {
            said.push(format!(
                "{}'s {} move{} did not solve the hole.",
                name(seat),
                self.path.len(),
                if self.path.len() == 1 { "" } else { "s" }
            ));
            self.fail(seat, said);
        }
    }

    /// The book: "If the player can't demonstrate their path, then they get the maximum of all
    /// the other players' numbers, plus a one-point penalty."
    fn fail(&mut self, seat: Seat, said: &mut Vec<String>) {
        let others = (0..self.players)
            .map(Seat)
            .filter(|&s| s != seat)
            .filter_map(|s| self.counts[s.index()])
            .max()
            .unwrap_or(0);
        let score = u32::from(others) + 1;
        self.hole_scores[seat.index()] = score;
        self.failed.push(seat);
        self.reset();
        self.last_move.clear();
        said.push(format!(
            "{} fails and scores {score} (the highest of the other counts plus one); the pieces \
             are reset.",
            name(seat)
        ));
        self.next_demonstrator(said);
    }

    fn succeed(&mut self, seat: Seat, said: &mut Vec<String>) {
        if let Some(solved) = &mut self.solved_holes {
            *solved += 1;
        }
        let highest = self.counts.iter().flatten().copied().max().unwrap_or(0);
        let mut text = format!("{} solves the hole.", name(seat));
        let wrong: Vec<Seat> = (0..self.players)
            .map(Seat)
            .filter(|s| self.counts[s.index()] == Some(0))
            .collect();
        for &s in &wrong {
            self.hole_scores[s.index()] = u32::from(highest) + 1;
        }
        if !wrong.is_empty() {
            let names: Vec<String> = wrong.iter().map(|&s| name(s)).collect();
            text.push_str(&format!(
                " {} said impossible and score{} {} (the highest count plus one).",
                names.join(" and "),
                if wrong.len() == 1 { "s" } else { "" },
                u32::from(highest) + 1
            ));
        }
        said.push(text);
        // The pieces stay; the captured ones come back on empty squares.
        let start = self.start_board();
        let mut board = self.board();
        let mut missing: Vec<GolfPiece> = (0..64u8).filter_map(|s| start.at(s)).collect();
        for s in 0..64u8 {
            if let Some(p) = board.at(s) {
                if let Some(i) = missing.iter().position(|&q| q == p) {
                    missing.remove(i);
                }
            }
        }
        let mut placed = Vec::new();
        for piece in missing {
            let empty: Vec<Square> = (0..64u8).filter(|&s| board.at(s).is_none()).collect();
            let at = empty[(self.next_random() % empty.len() as u64) as usize];
            board = board_with(&board, at, piece);
            placed.push(format!("{} on {}", piece_letter(piece), square_name(at)));
        }
        if !placed.is_empty() {
            said.push(format!("Captured pieces come back: {}.", placed.join(", ")));
        }
        self.start_fen = board.fen();
        self.reset();
        self.dealer = seat;
        self.end_hole(said);
    }

    /// Writes the hole's scores down and moves on to the next hole or the end.
    fn end_hole(&mut self, said: &mut Vec<String>) {
        self.reset();
        self.card.push(self.hole_scores.clone());
        self.return_cards();
        let totals = self.totals();
        let line: Vec<String> = (0..self.players)
            .map(|s| {
                format!(
                    "{} {} (total {})",
                    name(Seat(s)),
                    self.hole_scores[s as usize],
                    totals[s as usize]
                )
            })
            .collect();
        said.push(format!("Hole {} scores: {}.", self.hole, line.join(", ")));
        if self.hole >= HOLES {
            self.finish(None);
            return;
        }
        self.hole += 1;
        self.phase = Phase::Deal;
    }

    fn return_cards(&mut self) {
        let dealt = std::mem::take(&mut self.chosen);
        self.discard.extend(dealt);
    }

    /// The end: lowest total wins; a player who left (`leaver`) is ranked last and cannot win.
    fn finish(&mut self, leaver: Option<Seat>) {
        let totals = self.totals();
        let mut standings: Vec<Standing> = (0..self.players)
            .map(|s| Standing {
                seat: Seat(s),
                score: i64::from(totals[s as usize]),
            })
            .collect();
        standings.sort_by_key(|s| (Some(s.seat) == leaver, s.score, s.seat));
        let best = standings
            .iter()
            .find(|s| Some(s.seat) != leaver)
            .map(|s| s.score);
        let winners = standings
            .iter()
            .filter(|s| Some(s.seat) != leaver && Some(s.score) == best)
            .map(|s| s.seat)
            .collect();
        let reason = if leaver.is_some() {
            EndReason::Resignation
        } else {
            EndReason::FinalScore
        };
        self.result = Some(Outcome {
            winners,
            reason,
            standings,
            everyone_lost: false,
        });
        self.phase = Phase::Over;
    }

    fn prompts(&self) -> Vec<Prompt> {
        self.to_act()
            .into_iter()
            .map(|seat| match &self.phase {
                Phase::Deal => Prompt {
                    seat,
                    kind: PromptKind::Move,
                    text: format!(
                        "deal hole {}: /move deal (two cards) or /move deal three",
                        self.hole
                    ),
                },
                Phase::Count => Prompt {
                    seat,
                    kind: PromptKind::Secret,
                    text: format!(
                        "how many moves does your solution of hole {} ({}) take? Send the \
                         number, or impossible",
                        self.hole,
                        card_names(&self.chosen)
                    ),
                },
                _ => Prompt {
                    seat,
                    kind: PromptKind::Move,
                    text: format!(
                        "demonstrate: {} move{} left (/move e5-g6, or give up)",
                        self.remaining_moves(seat),
                        if self.remaining_moves(seat) == 1 {
                            ""
                        } else {
                            "s"
                        }
                    ),
                },
            })
            .collect()
    }

    fn status(&self, viewer: Viewer) -> String {
        if let Some(o) = &self.result {
            return o.describe(name);
        }
        // No full stop at the end: whoever shows the status adds it.
        let mine = match (viewer, &self.phase) {
            (Viewer::Seat(s), Phase::Count) => {
                match self.counts.get(s.index()).copied().flatten() {
                    Some(0) => ". You said impossible".to_string(),
                    Some(n) => format!(". Your count: {n}"),
                    None => String::new(),
                }
            }
            _ => String::new(),
        };
        let totals: Vec<String> = self
            .totals()
            .iter()
            .enumerate()
            .map(|(p, t)| format!("P{} {t}", p + 1))
            .collect();
        format!(
            "Hole {} of {HOLES}: {}. Totals: {}{mine}",
            self.hole,
            self.waiting_text(Seat(u8::MAX)),
            totals.join(", ")
        )
    }

    fn card_rows(&self, viewer: Viewer) -> Vec<CardRow> {
        let chosen = Pile::new(Visibility::FaceUp, self.chosen.clone());
        let deck = Pile::new(Visibility::FaceDown, self.deck.clone());
        vec![
            CardRow {
                title: "Chosen".into(),
                cards: chosen.seen_by(viewer),
            },
            CardRow {
                title: format!("Deck ({})", self.deck.len()),
                cards: deck.seen_by(viewer).into_iter().take(1).collect(),
            },
        ]
    }
}

fn name(seat: Seat) -> String {
    format!("Player {}", seat.0 + 1)
}

fn piece_letter(p: GolfPiece) -> String {
    Card::piece(p.side, p.role).to_string()
}

fn board_after(board: &GolfBoard, from: Square, to: Square) -> GolfBoard {
    let mut b = board.clone();
    b.squares[to as usize] = b.squares[from as usize].take();
    b
}

fn board_with(board: &GolfBoard, at: Square, piece: GolfPiece) -> GolfBoard {
    let mut b = board.clone();
    b.squares[at as usize] = Some(piece);
    b
}

/// The golf board as a chess position, for drawing (no pawns; kings may be missing or
/// attacked, as the game leaves them).
fn drawable(board: &GolfBoard) -> Option<Position> {
    let rules = Rules::chess();
    let setup = parse_setup(&format!("{} w - - 0 1", board.fen()), &rules).ok()?;
    Position::from_setup_with(setup, rules, KingRule::Stored).ok()
}

impl Game for Golf {
    type State = GolfState;
    type Action = GolfAction;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "golf",
            aliases: &["chess-golf", "chessgolf"],
            name: "Chess Golf",
            family: Family::Chess,
            seat_counts: &[2, 1, 3, 4, 5, 6, 7, 8],
            options: Vec::new(),
            hidden_information: true,
            simultaneous: true,
            rules: "Nine holes of puzzles, scored like golf (1 to 8 players). The sixteen piece \
                    cards (no pawns) are dealt onto the board by their gaps. Each hole the \
                    dealer deals two chosen types (/move deal) or three (/move deal three: one \
                    chosen piece must take both others). A piece moves only by borrowing the \
                    movement of a same-coloured neighbour; only chosen types capture, and only \
                    each other; when a colour has no two pieces side by side, its pieces may \
                    step like kings. Everyone sends, in secret, how many moves his solution \
                    takes (/secret 4, or impossible). When all have sent, the counts are shown \
                    and are the hole's scores; the lowest (ties: first from the dealer's left) \
                    demonstrates move by move (/move e5-g6, several at once, or give up). \
                    Failing scores the highest of the other counts plus one and the next lowest \
                    tries; success leaves the pieces where they ended (captured ones come back \
                    on empty squares), those who said impossible score the highest count plus \
                    one, and the demonstrator deals next. If all say impossible the hole is dealt \
                    again. Lowest total after nine holes wins; /scores golf keeps the server's \
                    best. Interpretations: the one-minute timer is the move clock (out of time \
                    counting: impossible; dealing: two cards; demonstrating: a failure); a \
                    demonstration may not use more moves than its count; a hole where every \
                    demonstration fails counts and is dealt again by the same dealer, and in it \
                    nobody scores less than the highest count, nor a failed demonstrator less \
                    than that plus one; /scores ranks only rounds whose nine holes were all \
                    solved; captured pieces return to empty squares drawn at random.",
            source: "Chess Kit, 'Chess Golf'",
        })
    }

    fn setup(&self, _options: &Options, seats: usize, seed: u64) -> Result<GolfState, GameError> {
        Ok(GolfState::new(seats.clamp(1, 8) as u8, seed))
    }

    fn prompts(&self, state: &GolfState) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &GolfState, seat: Seat) -> Vec<GolfAction> {
        state.actions(seat)
    }

    fn action_text(&self, state: &GolfState, action: &GolfAction) -> String {
        state.action_text(action)
    }

    fn parse(&self, state: &GolfState, seat: Seat, text: &str) -> Result<GolfAction, GameError> {
        state.parse(seat, text)
    }

    fn apply(
        &self,
        state: &mut GolfState,
        seat: Seat,
        action: GolfAction,
    ) -> Result<Vec<Event>, GameError> {
        state.apply(seat, action)
    }

    fn view(&self, state: &GolfState, viewer: Viewer) -> View {
        let board = state.board();
        let position = drawable(&board).unwrap_or_else(Position::startpos);
        let mut view = board_view(self.info().id, &position, Viewer::Spectator);
        view.viewer = viewer;
        view.bottom = Seat::WHITE;
        view.players = (0..state.players).map(|s| name(Seat(s))).collect();
        view.status = state.status(viewer);
        view.to_act = state.to_act();
        view.move_number = state.hole;
        view.last_move = state
            .last_move
            .iter()
            .map(|&s| crate::board::Cell(s.into()))
            .collect();
        view.cards = state.card_rows(viewer);
        view
    }

    fn outcome(&self, state: &GolfState) -> Option<Outcome> {
        state.result.clone()
    }

    fn best_scores(&self) -> Option<BestScores> {
        Some(BestScores::Lowest)
    }

    /// A hole nobody solves still counts, so its score could be had without solving anything
    /// (alone: "1", then give up, nine times): only rounds with every hole solved are ranked.
    fn ranked(&self, _options: &Options, state: &GolfState) -> bool {
        state
            .result
            .as_ref()
            .is_some_and(|o| o.reason == EndReason::FinalScore)
            && state.solved_holes == Some(HOLES)
    }

    fn ranking_rule(&self) -> Option<&'static str> {
        Some("only complete rounds whose nine holes were all solved are ranked")
    }

    fn seat_name(&self, _state: &GolfState, seat: Seat) -> String {
        name(seat)
    }

    fn concede(&self, state: &GolfState, seat: Seat, _seats: usize, _reason: EndReason) -> Outcome {
        let mut s = state.clone();
        s.finish(Some(seat));
        s.result
            .unwrap_or_else(|| Outcome::draw(EndReason::Aborted))
    }

    fn leave(
        &self,
        state: &mut GolfState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        if reason != EndReason::Timeout {
            return Ok(vec![Event::GameOver(
                self.concede(state, seat, seats, reason),
            )]);
        }
        // The timer ran out: the choice waited for is made for the player.
        if !state.to_act().contains(&seat) {
            return Ok(Vec::new());
        }
        let action = match state.phase {
            Phase::Deal => GolfAction::Deal(2),
            Phase::Count => GolfAction::Count(0),
            Phase::Demonstrate { .. } => GolfAction::GiveUp,
            Phase::Over => return Ok(Vec::new()),
        };
        let mut events = vec![Event::Public(format!(
            "{}'s time ran out: {}.",
            name(seat),
            match action {
                GolfAction::Deal(_) => "two cards are dealt",
                GolfAction::Count(_) => "counted as impossible",
                _ => "the demonstration fails",
            }
        ))];
        events.extend(state.apply(seat, action)?);
        Ok(events)
    }

    fn timeout_is_a_pass(&self) -> bool {
        true
    }

    fn determinize(&self, state: &GolfState, seat: Seat, seed: u64) -> GolfState {
        state.determinized(seat, seed)
    }

    fn secret_history(&self, state: &GolfState) -> Vec<String> {
        if state.phase != Phase::Count {
            return Vec::new();
        }
        (0..state.players)
            .filter_map(|s| {
                state.counts[s as usize].map(|c| format!("{} had counted {c}.", name(Seat(s))))
            })
            .collect()
    }

    fn waiting_reason(&self, state: &GolfState, seat: Seat) -> Option<String> {
        (!state.to_act().contains(&seat) && state.result.is_none())
            .then(|| state.waiting_text(seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(s: &mut GolfState, seat: Seat, text: &str) -> Vec<Event> {
        let a = Golf
            .parse(s, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        Golf.apply(s, seat, a).unwrap()
    }

    fn text(events: &[Event]) -> String {
        Event::public_texts(events).join("\n")
    }

    /// A two-player game at the book's introduction, the white king and a black bishop dealt.
    fn introduction() -> GolfState {
        introduction_for(2)
    }

    fn introduction_for(players: u8) -> GolfState {
        let mut s = GolfState::new(players, 5);
        s.start_fen = "2B3R1/5k2/1r1n1N2/1r2b3/R5q1/1B1n1N2/b6K/5Q2".into();
        s.dealer = Seat(1);
        s.deck.retain(|c| {
            *c != Card::piece(Seat::WHITE, Role::King)
                && *c != Card::piece(Seat::BLACK, Role::Bishop)
        });
        s.deck.push(Card::piece(Seat::BLACK, Role::Bishop));
        s.deck.push(Card::piece(Seat::WHITE, Role::King));
        s
    }

    /// The computer player solves the hole it is dealt: it deals two cards, counts the book's
    /// introduction at its shortest (three moves; easy sees only two, and calls it
    /// impossible), and demonstrates it move by move, whatever its rival submitted in secret.
    #[test]
    fn the_computer_counts_the_shortest_solution_and_demonstrates_it() {
        use crate::ai::{choose, Level};
        use crate::game::AnyState;
        let golf = crate::registry::variant("golf").unwrap();
        let pick = |s: &GolfState, seat: Seat, level: Level, seed: u64| {
            choose(golf, &AnyState::of(s.clone()), seat, level, seed)
                .unwrap()
                .text
        };
        let mut s = introduction();
        assert_eq!(pick(&s, Seat(1), Level::Hard, 1), "deal");
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(1), "2");
        for level in [Level::Medium, Level::Hard] {
            assert_eq!(pick(&s, Seat(0), level, 2), "3", "{level}");
        }
        assert_eq!(pick(&s, Seat(0), Level::Easy, 2), "impossible");
        act(&mut s, Seat(0), "3");
        // Player 2 said 2 and fails; then the computer shows its three moves.
        act(&mut s, Seat(1), "give up");
        assert_eq!(s.phase, Phase::Demonstrate { seat: Seat(0) });
        for seed in 3..6 {
            let text = pick(&s, Seat(0), Level::Hard, seed);
            act(&mut s, Seat(0), &text);
        }
        assert_eq!(s.phase, Phase::Deal);
        assert_eq!(s.totals(), [3, 4]);
    }

    #[test]
    fn the_lowest_count_demonstrates_and_impossible_is_penalised() {
        let mut s = introduction();
        let events = act(&mut s, Seat(1), "deal");
        assert!(text(&events).contains("deals K b"), "{}", text(&events));
        let events = act(&mut s, Seat(0), "3");
        assert_eq!(text(&events), "Player 1 has submitted a count.");
        // The count is secret until both are in.
        let seen = Golf.view(&s, Viewer::Seat(Seat(1)));
        assert!(!seen.status.contains("count: 3"), "{}", seen.status);
        let mine = Golf.view(&s, Viewer::Seat(Seat(0)));
        assert!(mine.status.contains("Your count: 3"), "{}", mine.status);
        let refused = Golf.parse(&s, Seat(1), "eleventy").unwrap_err().to_string();
        assert!(refused.contains("or impossible"), "{refused}");
        act(&mut s, Seat(1), "impossible");
        assert_eq!(s.phase, Phase::Demonstrate { seat: Seat(0) });
        // A move that is not allowed is refused and changes nothing.
        let refused = Golf.parse(&s, Seat(0), "e5xh2").unwrap_err().to_string();
        assert!(refused.contains("not allowed"), "{refused}");
        let refused = Golf
            .parse(&s, Seat(0), "e5g6 g6h5 h5h2 a1a2")
            .unwrap_err()
            .to_string();
        assert!(refused.contains("leaves 3 moves"), "{refused}");
        act(&mut s, Seat(0), "e5-g6");
        let events = act(&mut s, Seat(0), "g6h5 h5xh2");
        let said = text(&events);
        assert!(said.contains("Player 1 solves the hole"), "{said}");
        assert!(
            said.contains("Player 2 said impossible and scores 4"),
            "{said}"
        );
        assert!(said.contains("Captured pieces come back: K on"), "{said}");
        assert_eq!(s.card, vec![vec![3, 4]]);
        assert_eq!(s.dealer, Seat(0), "the demonstrator deals next");
        assert_eq!(s.hole, 2);
        assert_eq!(
            s.board().at(parse_square("h2").unwrap()).unwrap().role,
            Role::Bishop
        );
    }

    #[test]
    fn a_sample_replaces_the_others_secret_counts_and_keeps_ones_own() {
        // "Each player writes down ... in secret": Player 2 knows Player 1 has submitted a
        // count, not which.
        let mut three = introduction();
        act(&mut three, Seat(1), "deal");
        let mut five = three.clone();
        act(&mut three, Seat(0), "3");
        act(&mut five, Seat(0), "5");
        let mut counts = Vec::new();
        for seed in 0..40 {
            let a = Golf.determinize(&three, Seat(1), seed);
            let b = Golf.determinize(&five, Seat(1), seed);
            assert_eq!(a.counts, b.counts, "the true count makes no difference");
            assert_eq!(a.counts[1], None, "Player 2 has not counted yet");
            assert_eq!(a.deck, b.deck);
            counts.extend(a.counts[0]);
            let own = Golf.determinize(&three, Seat(0), seed);
            assert_eq!(own.counts, three.counts, "Player 1's own count stays");
            let mut deck = own.deck.clone();
            deck.sort();
            let mut true_deck = three.deck.clone();
            true_deck.sort();
            assert_eq!(deck, true_deck, "the deck holds the same cards, shuffled");
        }
        counts.sort_unstable();
        counts.dedup();
        assert!(counts.contains(&0) && counts.len() > 3, "{counts:?}");
    }

    #[test]
    fn a_failed_demonstration_scores_the_highest_plus_one_and_the_next_tries() {
        let mut s = introduction();
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "2");
        act(&mut s, Seat(1), "3");
        // Player 1 counted 2 and goes first; two moves cannot solve it.
        act(&mut s, Seat(0), "e5-g6");
        let events = act(&mut s, Seat(0), "g6-h5");
        let said = text(&events);
        assert!(said.contains("Player 1 fails and scores 4"), "{said}");
        assert!(said.contains("Player 2 demonstrates in 3 moves"), "{said}");
        assert_eq!(s.board().fen(), s.start_fen, "the pieces are reset");
        act(&mut s, Seat(1), "b3-c3");
        let events = act(&mut s, Seat(1), "give up");
        assert!(text(&events).contains("No demonstration succeeded"));
        assert_eq!(s.card, vec![vec![4, 4]]);
        assert_eq!(s.dealer, Seat(1), "the same dealer deals again");
    }

    #[test]
    fn everyone_impossible_deals_again_without_counting_the_hole() {
        let mut s = introduction();
        act(&mut s, Seat(1), "deal three");
        act(&mut s, Seat(0), "impossible");
        let events = act(&mut s, Seat(1), "0");
        assert!(text(&events).contains("Everyone says impossible"));
        assert_eq!(s.hole, 1);
        assert!(s.card.is_empty());
        assert_eq!(s.phase, Phase::Deal);
    }

    #[test]
    fn nine_holes_then_the_lowest_total_wins() {
        let mut s = introduction();
        s.card = vec![vec![5, 3]; 8];
        s.hole = 9;
        s.solved_holes = Some(8);
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "3");
        act(&mut s, Seat(1), "4");
        act(&mut s, Seat(0), "e5-g6 g6-h5");
        act(&mut s, Seat(0), "h5xh2");
        let outcome = Golf.outcome(&s).unwrap();
        assert_eq!(outcome.winners, vec![Seat(1)], "28 against 43");
        assert_eq!(outcome.standings[0].score, 28);
        assert_eq!(outcome.reason, EndReason::FinalScore);
        assert!(
            Golf.ranked(&Options::new(), &s),
            "all nine holes were solved"
        );
    }

    /// The book: "If the player can't demonstrate their path, then they get the maximum of all
    /// the other players' numbers, plus a one-point penalty." A hole nobody solves must still
    /// not come cheap, for those who said impossible either.
    #[test]
    fn a_failure_scores_the_other_counts_plus_one_and_an_unsolved_hole_is_not_cheap() {
        let mut s = introduction_for(3);
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "2");
        act(&mut s, Seat(1), "impossible");
        act(&mut s, Seat(2), "5");
        let said = text(&act(&mut s, Seat(0), "give up"));
        assert!(said.contains("Player 1 fails and scores 6"), "{said}");
        let said = text(&act(&mut s, Seat(2), "give up"));
        assert!(
            said.contains("Player 3 fails and scores 3 (the highest of the other counts"),
            "{said}"
        );
        assert!(said.contains("No demonstration succeeded"), "{said}");
        // Nobody showed it solvable, nor anyone a cheap way through it.
        assert_eq!(s.card, vec![vec![6, 5, 6]]);
    }

    /// Alone, "1" and giving up nine times used to top /scores golf with 18.
    #[test]
    fn a_round_with_a_hole_nobody_solved_is_not_ranked() {
        let mut s = GolfState::new(1, 3);
        for _ in 0..HOLES {
            act(&mut s, Seat(0), "deal");
            act(&mut s, Seat(0), "1");
            act(&mut s, Seat(0), "give up");
        }
        let outcome = Golf.outcome(&s).unwrap();
        assert_eq!(outcome.reason, EndReason::FinalScore);
        assert_eq!(
            outcome.standings[0].score, 18,
            "2 a hole: the count plus one"
        );
        assert!(!Golf.ranked(&Options::new(), &s));
    }

    #[test]
    fn a_refused_move_is_numbered_within_the_demonstration() {
        let mut s = introduction();
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "3");
        act(&mut s, Seat(1), "4");
        act(&mut s, Seat(0), "e5-g6");
        let refused = Golf.parse(&s, Seat(0), "h5xh2").unwrap_err().to_string();
        assert!(
            refused.contains("move 2 (h5-h2) is not allowed"),
            "{refused}"
        );
    }

    #[test]
    fn the_status_leaves_the_full_stop_to_whoever_shows_it() {
        let mut s = introduction();
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "3");
        for viewer in [Viewer::Spectator, Viewer::Seat(Seat(0))] {
            let status = Golf.view(&s, viewer).status;
            assert!(!status.ends_with('.'), "{status}");
        }
    }

    #[test]
    fn a_move_that_is_not_a_move_is_refused_without_panicking() {
        let mut s = introduction();
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "3");
        act(&mut s, Seat(1), "4");
        for text in ["aé1", "e5g", "", "e9e1", "zz"] {
            assert!(Golf.parse(&s, Seat(0), text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_count_out_of_time_is_impossible() {
        let mut s = introduction();
        act(&mut s, Seat(1), "deal");
        act(&mut s, Seat(0), "3");
        let events = Golf.leave(&mut s, Seat(1), 2, EndReason::Timeout).unwrap();
        assert!(text(&events).contains("counted as impossible"));
        assert_eq!(s.phase, Phase::Demonstrate { seat: Seat(0) });
    }
}

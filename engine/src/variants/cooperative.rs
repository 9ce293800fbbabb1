//! Cooperative Chess (Don Kirkby, Chess Kit, "Cooperative Chess"): the players team up against
//! the game, capturing as many pieces as a line of cards allows.
//!
//! - The 32 piece cards are shuffled; each player is dealt two and the rest are the draw pile.
//!   A king card drawn or dealt goes straight to the end of the face-up line, and another card
//!   is drawn in its place.
//! - White moves first, then the players alternate, each moving his own colour. A turn: play a
//!   card from your hand to the end of the line (away from the draw pile); you may make one
//!   non-capturing chess move; then you may make capturing moves, one after another, as long as
//!   the cards allow; then draw back up to two cards while the draw pile lasts.
//! - A capture is allowed only when a card like the capturing piece lies next to a card like
//!   the captured piece in the line; the captured piece's card then goes to the discard pile.
//! - Four or more cards of one colour in a row in the line are recycled at once: taken out,
//!   one of them put out of the game unseen, the rest shuffled into the draw pile.
//! - A pawn may reach the last rank only with its card in the line, and promotes to a type
//!   already captured: the pawn's card is discarded and the new piece's card comes from the
//!   discard pile to any place in the line.
//! - Chess moves, castling and en passant, but a king may move into check or stay in it.
//! - Capturing a king ends the game: a point a captured piece, and ten for each piece type gone
//!   from the board (both colours). Under 32 is a loss for everyone; over 50 is great. If the
//!   cards run out first, the captures score without bonus.
//! - Solitaire (one player): no hands; each turn starts by drawing a card to the line, and the
//!   player moves both colours in turn.
//!
//! Interpretations (also in the rules text): when a captured piece's card lies on both sides of
//! the capturer's card, the one nearer the end of the line is discarded, and when several pawn
//! cards could pay for a promotion, the one nearest the end; the promoted piece's card must be
//! of the pawn's colour; castling may start in, or pass through, check; with the draw pile
//! empty a player with no cards left passes, and the game ends when no one has a card (in
//! solitaire, when a turn finds the draw pile empty); losing both king cards out of the game
//! ends it at once as a loss for everyone.

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::cards::{redeal, shuffled, Card, Face, Pile, Visibility};
use crate::chess::{Move, MoveKind, MoveParseError, Piece, Position, Role, Seat};
use crate::game::{
    BestScores, EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind,
    Standing, VariantInfo,
};
use crate::view::{CardRow, View, Viewer};

use super::chess::{
    board_view, fen_option, start_from_options, stored_position, texts_among_moves, MaybeMove,
};

/// The start: the usual array, or the `fen` option's position, where (kings being free to
/// stand in check) the side not to move may be in check.
fn start(options: &Options) -> Result<Position, GameError> {
    let Some(fen) = options.get("fen") else {
        return start_from_options(options);
    };
    let rules = crate::chess::Rules::chess();
    let bad = |e: String| GameError::BadSetup(format!("invalid FEN \"{fen}\": {e}"));
    let setup = crate::chess::parse_setup(fen, &rules).map_err(|e| bad(e.to_string()))?;
    let position = Position::from_setup_with(setup, rules, crate::chess::KingRule::Stored)
        .map_err(|e| bad(e.to_string()))?;
    for seat in [Seat::WHITE, Seat::BLACK] {
        if position.king(seat).is_none() {
            return Err(bad(format!("{} has no king", seat.colour_name())));
        }
    }
    Ok(position)
}

/// Cooperative Chess.
pub struct Cooperative;

/// Cards each player holds after drawing.
pub const HAND: usize = 2;
/// The lowest score that is not a loss.
pub const WINNING_SCORE: u32 = 32;
/// Scores above this are great.
pub const GREAT_SCORE: u32 = 50;
/// Same-coloured cards in a row that are recycled.
pub const RUN: usize = 4;

/// One thing a player does in Cooperative Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoopAction {
    /// Play a card from the hand to the end of the line.
    PlayCard(Card),
    /// A chess move: the turn's non-capturing move, or a capture the line allows.
    Move(Move),
    /// Put the promoted piece's card into the line before position `n` (0: next to the draw
    /// pile; the line's length: at the end).
    Place(u8),
    /// End the turn's moves and draw.
    Done,
}

impl MaybeMove for CoopAction {
    fn chess_move(&self) -> Option<Move> {
        match self {
            CoopAction::Move(m) => Some(*m),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The player must play a card.
    PlayCard,
    /// Moves: `moved` once the non-capturing move is made, `captured` once a capture is.
    Move { moved: bool, captured: bool },
    /// A promoted piece's card waits to be placed in the line.
    Place { card: Card, captured: bool },
}

/// The state of a game of Cooperative Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CoopState {
    #[serde(with = "stored_position")]
    position: Position,
    /// One player (solitaire) or two.
    players: u8,
    phase: Phase,
    /// The face-up line, from the draw pile's end.
    line: Vec<Card>,
    /// The draw pile, its top last.
    draw: Vec<Card>,
    discard: Vec<Card>,
    /// Cards put out of the game unseen by recycling.
    removed: Vec<Card>,
    /// Each player's hand (empty in solitaire).
    hands: Vec<Vec<Card>>,
    /// Pieces captured so far.
    captures: u32,
    rng: u64,
    turn: u32,
    moves: Vec<String>,
    last_move: Vec<Cell>,
    result: Option<Outcome>,
    score: Option<u32>,
    /// What the set-up put in the line in the open (kings dealt, solitaire's first card), told
    /// as the game begins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    opening: Vec<String>,
}

fn card_text(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn describe(card: Card) -> String {
    format!(
        "{} {}",
        card.side.colour_name().to_ascii_lowercase(),
        match card.face {
            Face::Piece(r) => r.name(),
            Face::Checker => "checker",
        }
    )
}

/// The 32 piece cards (no checkers).
fn piece_cards() -> Vec<Card> {
    Card::deck()
        .into_iter()
        .filter(|c| c.face != Face::Checker)
        .collect()
}

impl CoopState {
    /// A new game from `position`, `players` 1 or 2, the deck shuffled by `seed`.
    pub fn new(position: Position, players: u8, seed: u64) -> CoopState {
        let mut state = CoopState {
            position,
            players,
            phase: Phase::PlayCard,
            line: Vec::new(),
            draw: shuffled(piece_cards(), seed),
            discard: Vec::new(),
            removed: Vec::new(),
            hands: vec![Vec::new(); players as usize],
            captures: 0,
            rng: seed ^ 0x5eed_c0de,
            turn: 1,
            moves: Vec::new(),
            last_move: Vec::new(),
            result: None,
            score: None,
            opening: Vec::new(),
        };
        let mut events = Vec::new();
        if players == 2 {
            for _ in 0..HAND {
                for seat in 0..2 {
                    state.draw_card(seat, &mut events);
                }
            }
        }
        state.start_turn(&mut events);
        state.opening = events;
        state
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The face-up line, from the draw pile's end.
    pub fn line(&self) -> &[Card] {
        &self.line
    }

    /// The game's score so far: captures, plus the bonus once a king has fallen.
    pub fn score(&self) -> u32 {
        self.score.unwrap_or(self.captures)
    }

    /// The colour moving now.
    fn colour(&self) -> Seat {
        self.position.turn()
    }

    /// The seat playing `colour`.
    fn seat_of(&self, colour: Seat) -> Seat {
        if self.players == 1 {
            Seat(0)
        } else {
            colour
        }
    }

    fn to_act(&self) -> Option<Seat> {
        self.result.is_none().then(|| self.seat_of(self.colour()))
    }

    fn next_seed(&mut self) -> u64 {
        crate::cards::next_seed(&mut self.rng)
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]): the cards it cannot
    /// see (the cards put out of the game unseen, its partner's hand, the draw pile) are dealt
    /// again among those places, each keeping its size, from the cards missing from its view;
    /// and the shuffles to come are seeded afresh. A card put out of the game keeps its colour,
    /// which was announced with its run; a king card is never held (it goes straight to the
    /// line), and while the game goes on at most one king card is out of it.
    fn determinized(&self, seat: Seat, seed: u64) -> CoopState {
        let mut sample = self.clone();
        let mut stream = seed;
        let deal = crate::cards::next_seed(&mut stream);
        sample.rng = crate::cards::next_seed(&mut stream);
        let colours: Vec<Seat> = self.removed.iter().map(|c| c.side).collect();
        let mut piles: Vec<&mut Vec<Card>> = vec![&mut sample.removed];
        piles.extend(
            sample
                .hands
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| *i != seat.index())
                .map(|(_, hand)| hand),
        );
        let draw = piles.len();
        piles.push(&mut sample.draw);
        let is_king = |c: Card| c.role() == Some(Role::King);
        redeal(&mut piles, deal, |pile, dealt, card| match pile {
            0 if card.side != colours[dealt.len()] => 2,
            0 => u8::from(is_king(card) && dealt.iter().any(|&c| is_king(c))),
            hand if hand < draw => u8::from(is_king(card)),
            _ => 0,
        });
        sample
    }

    /// Draws the top card for `seat`'s hand; a king goes to the line and another is drawn.
    fn draw_card(&mut self, seat: usize, events: &mut Vec<String>) {
        while let Some(card) = self.draw.pop() {
            if card.role() == Some(Role::King) {
                events.push(format!(
                    "A {} card is drawn and goes straight to the line.",
                    describe(card)
                ));
                self.add_to_line(card, events);
                continue;
            }
            self.hands[seat].push(card);
            return;
        }
    }

    /// Adds `card` to the end of the line and recycles any run it completes.
    fn add_to_line(&mut self, card: Card, events: &mut Vec<String>) {
        self.line.push(card);
        self.recycle(events);
    }

    /// Takes out every run of four or more cards of a colour: one card leaves the game unseen,
    /// the rest are shuffled into the draw pile.
    fn recycle(&mut self, events: &mut Vec<String>) {
        while let Some((start, len)) = self.first_run() {
            let group: Vec<Card> = self.line.drain(start..start + len).collect();
            let mut group = shuffled(group, self.next_seed());
            let out = group.pop().expect("a run has cards");
            self.removed.push(out);
            self.draw.extend(group);
            let pile = std::mem::take(&mut self.draw);
            self.draw = shuffled(pile, self.next_seed());
            events.push(format!(
                "{len} {} cards in a row are recycled: one leaves the game unseen, the rest are \
                 shuffled into the draw pile.",
                out.side.colour_name().to_ascii_lowercase()
            ));
        }
        if self.both_kings_out() && self.result.is_none() {
            events.push("Both king cards have left the game: no king can be captured.".into());
            self.finish(None);
        }
    }

    /// Whether both king cards have left the game unseen, so no king can be captured.
    fn both_kings_out(&self) -> bool {
        self.removed
            .iter()
            .filter(|c| c.role() == Some(Role::King))
            .count()
            == 2
    }

    fn first_run(&self) -> Option<(usize, usize)> {
        let mut start = 0;
        for i in 1..=self.line.len() {
            if i == self.line.len() || self.line[i].side != self.line[start].side {
                if i - start >= RUN {
                    return Some((start, i - start));
                }
                start = i;
            }
        }
        None
    }

    /// Begins the turn of the colour to move: in solitaire a card is drawn to the line; a
    /// player with no card passes, and with no cards anywhere the game ends.
    fn start_turn(&mut self, events: &mut Vec<String>) {
        if self.result.is_some() {
            return;
        }
        self.phase = Phase::PlayCard;
        if self.players == 1 {
            let Some(card) = self.next_for_line(events) else {
                events.push("The draw pile is empty: the game is over.".into());
                self.finish(None);
                return;
            };
            events.push(format!(
                "{} turn {}: {} is drawn to the line.",
                self.colour().colour_name(),
                self.turn,
                describe(card)
            ));
            self.add_to_line(card, events);
            if self.result.is_none() {
                self.phase = Phase::Move {
                    moved: false,
                    captured: false,
                };
            }
            return;
        }
        for _ in 0..2 {
            let seat = self.colour().index();
            // Cards recycled into an empty draw pile are drawn by an empty hand.
            while self.hands[seat].len() < HAND && !self.draw.is_empty() && self.result.is_none() {
                self.draw_card(seat, events);
            }
            if !self.hands[seat].is_empty() {
                return;
            }
            events.push(format!(
                "{} has no cards left and passes.",
                self.colour().colour_name()
            ));
            self.position.pass();
        }
        events.push("Nobody has a card left: the game is over.".into());
        self.finish(None);
    }

    /// In solitaire, the card drawn for the turn: kings go to the line and are replaced.
    fn next_for_line(&mut self, events: &mut Vec<String>) -> Option<Card> {
        loop {
            let card = self.draw.pop()?;
            if card.role() != Some(Role::King) {
                return Some(card);
            }
            events.push(format!(
                "A {} card is drawn and goes straight to the line.",
                describe(card)
            ));
            self.add_to_line(card, events);
            if self.result.is_some() {
                return None;
            }
        }
    }

    /// Ends the game: `king` captured (with the bonus) or not.
    fn finish(&mut self, king: Option<Seat>) {
        let mut score = self.captures;
        if king.is_some() {
            for role in Role::ALL {
                if !self.position.pieces().any(|(_, p)| p.role == role) {
                    score += 10;
                }
            }
        }
        self.score = Some(score);
        let reason = if king.is_some() {
            EndReason::KingCaptured
        } else {
            EndReason::FinalScore
        };
        let standings: Vec<Standing> = (0..self.players)
            .map(|s| Standing {
                seat: Seat(s),
                score: score as i64,
            })
            .collect();
        self.result = Some(if score < WINNING_SCORE || self.both_kings_out() {
            Outcome {
                standings,
                ..Outcome::everyone_loses(reason)
            }
        } else {
            Outcome::by_score(standings, reason)
        });
    }

    /// Whether the line lets `a` capture `b`: their cards lie side by side.
    fn beside(&self, a: Card, b: Card) -> Option<usize> {
        // The captured piece's card nearest the end of the line is the one discarded.
        (0..self.line.len()).rev().find(|&i| {
            self.line[i] == b
                && ((i > 0 && self.line[i - 1] == a)
                    || (i + 1 < self.line.len() && self.line[i + 1] == a))
        })
    }

    /// Why the line forbids move `m`, or `None` if it may be made now.
    fn forbidden(&self, m: Move, moved: bool) -> Option<String> {
        let colour = self.colour();
        let piece = self.position.piece_at(m.from)?;
        let capture = self.position.is_capture(m);
        // After a capture the phase also says `moved`: the capture is the reason to give.
        if !capture {
            if let Phase::Move { captured: true, .. } = self.phase {
                return Some("after a capture only more captures may follow".into());
            }
        }
        if !capture && moved {
            return Some(
                "you have made this turn's non-capturing move; only captures may follow".into(),
            );
        }
        if capture {
            let victim = self.captured_piece(m)?;
            let mover = Card::piece(colour, piece.role);
            let target = Card::piece(victim.seat, victim.role);
            if self.beside(mover, target).is_none() {
                return Some(format!(
                    "a {} may take a {} only when a {} card lies next to a {} card in the line",
                    piece.role.name(),
                    victim.role.name(),
                    describe(mover),
                    describe(target)
                ));
            }
        }
        if let Some(role) = m.promotion() {
            let pawn = Card::piece(colour, Role::Pawn);
            if !self.line.contains(&pawn) {
                return Some(format!(
                    "a pawn may reach the last rank only with a {} card in the line",
                    describe(pawn)
                ));
            }
            if !self.discard.contains(&Card::piece(colour, role)) {
                return Some(format!(
                    "a pawn promotes only to a type already captured, its {} card in the discard \
                     pile{}",
                    describe(Card::piece(colour, role)),
                    self.promotion_choices(colour)
                ));
            }
        }
        None
    }

    fn promotion_choices(&self, colour: Seat) -> String {
        let roles: Vec<&str> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
            .into_iter()
            .filter(|&r| self.discard.contains(&Card::piece(colour, r)))
            .map(|r| r.name())
            .collect();
        if roles.is_empty() {
            " (none of yours is there yet)".into()
        } else {
            format!(" (you may choose {})", roles.join(", "))
        }
    }

    /// The enemy piece move `m` captures.
    fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.kind == MoveKind::EnPassant {
            return Some(Piece {
                seat: Seat(1 - self.colour().0),
                role: Role::Pawn,
            });
        }
        self.position.piece_at(m.to)
    }

    /// Chess moves of the colour to move, kings free to stand in check.
    fn chess_moves(&self) -> Vec<Move> {
        self.position.pseudo_legal_moves().into_iter().collect()
    }

    fn allowed_moves(&self) -> Vec<Move> {
        let Phase::Move { moved, .. } = self.phase else {
            return Vec::new();
        };
        self.chess_moves()
            .into_iter()
            .filter(|&m| self.forbidden(m, moved).is_none())
            .collect()
    }

    fn actions(&self, seat: Seat) -> Vec<CoopAction> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::PlayCard => {
                let mut hand = self.hands[self.colour().index()].clone();
                hand.sort();
                hand.dedup();
                hand.into_iter().map(CoopAction::PlayCard).collect()
            }
            Phase::Move { .. } => self
                .allowed_moves()
                .into_iter()
                .map(CoopAction::Move)
                .chain(std::iter::once(CoopAction::Done))
                .collect(),
            Phase::Place { .. } => (0..=self.line.len() as u8).map(CoopAction::Place).collect(),
        }
    }

    fn action_text(&self, action: &CoopAction) -> String {
        match *action {
            CoopAction::PlayCard(card) => card.to_string(),
            CoopAction::Move(m) => self.position.san_plain_among(m, &self.allowed_moves()),
            CoopAction::Place(n) => format!("place {}", n + 1),
            CoopAction::Done => "done".into(),
        }
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<CoopAction, GameError> {
        let refuse = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        };
        if self.to_act() != Some(seat) {
            return Err(GameError::NotYourTurn(match self.result {
                Some(_) => "the game is over".into(),
                None => format!("{} is to play", self.colour().colour_name()),
            }));
        }
        let word = text.trim();
        match self.phase {
            Phase::PlayCard => {
                let hand = &self.hands[self.colour().index()];
                let mut chars = word.chars();
                let card = match (chars.next(), chars.next()) {
                    (Some(c), None) => Card::from_letter(c).filter(|c| c.face != Face::Checker),
                    _ => None,
                }
                .ok_or_else(|| {
                    refuse(format!(
                        "name a card of your hand by its letter ({}): upper case white, lower \
                         case black",
                        card_text(hand)
                    ))
                })?;
                if !hand.contains(&card) {
                    return Err(refuse(format!(
                        "you do not hold a {} card; your hand is {}",
                        describe(card),
                        card_text(hand)
                    )));
                }
                Ok(CoopAction::PlayCard(card))
            }
            Phase::Move { moved, .. } => {
                if matches!(
                    word.to_ascii_lowercase().as_str(),
                    "done" | "end" | "pass" | "draw"
                ) {
                    return Ok(CoopAction::Done);
                }
                let allowed = self.allowed_moves();
                match self.position.parse_move_among(word, &allowed) {
                    Ok(m) => Ok(CoopAction::Move(m)),
                    Err(e) => {
                        let chess = self.chess_moves();
                        match self.position.parse_move_among(word, &chess) {
                            Ok(m) => Err(refuse(
                                self.forbidden(m, moved)
                                    .unwrap_or_else(|| "it is not allowed now".into()),
                            )),
                            // No chess move either: chess's reason (with no move allowed now,
                            // the first reading would only say there is none).
                            Err(chess_error) => Err(GameError::Move(match e {
                                MoveParseError::NoMoves { .. } => chess_error,
                                e => e,
                            })),
                        }
                    }
                }
            }
            Phase::Place { .. } => {
                let lower = word.to_ascii_lowercase();
                let number = lower.strip_prefix("place").unwrap_or(&lower).trim();
                let len = self.line.len();
                match number.parse::<usize>() {
                    Ok(n) if (1..=len + 1).contains(&n) => Ok(CoopAction::Place((n - 1) as u8)),
                    _ => Err(refuse(format!(
                        "say where the card goes: place 1 (next to the draw pile) to place {} \
                         (the end of the line)",
                        len + 1
                    ))),
                }
            }
        }
    }

    fn apply(&mut self, seat: Seat, action: CoopAction) -> Result<Vec<Event>, GameError> {
        if !self.actions(seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(&action),
                reason: "it is not a possible choice now".into(),
            }));
        }
        let mut said = Vec::new();
        let colour = self.colour();
        match action {
            CoopAction::PlayCard(card) => {
                let hand = &mut self.hands[colour.index()];
                if let Some(i) = hand.iter().position(|&c| c == card) {
                    hand.remove(i);
                }
                said.push(format!(
                    "{} plays {} to the line.",
                    colour.colour_name(),
                    describe(card)
                ));
                self.add_to_line(card, &mut said);
                if self.result.is_none() {
                    self.phase = Phase::Move {
                        moved: false,
                        captured: false,
                    };
                }
            }
            CoopAction::Move(m) => self.play_move(m, &mut said),
            CoopAction::Place(n) => {
                if let Phase::Place { card, captured } = self.phase {
                    self.line.insert(n as usize, card);
                    said.push(format!(
                        "The {} card goes into the line at place {}.",
                        describe(card),
                        n + 1
                    ));
                    self.recycle(&mut said);
                    self.phase = Phase::Move {
                        moved: true,
                        captured,
                    };
                }
            }
            CoopAction::Done => self.end_turn(&mut said),
        }
        let mut events: Vec<Event> = said.into_iter().map(Event::Public).collect();
        if let Some(o) = &self.result {
            events.push(Event::Public(format!("Final score: {}.", self.score())));
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    fn play_move(&mut self, m: Move, said: &mut Vec<String>) {
        let colour = self.colour();
        let written = self.position.san_plain_among(m, &self.allowed_moves());
        let captured = self.position.is_capture(m);
        let victim = self.captured_piece(m);
        let mover = self.position.piece_at(m.from);
        if captured {
            if let (Some(v), Some(p)) = (victim, mover) {
                let target = Card::piece(v.seat, v.role);
                if let Some(i) = self.beside(Card::piece(colour, p.role), target) {
                    self.discard.push(self.line.remove(i));
                }
            }
            self.captures += 1;
        }
        // The move is made with the colour to move still on turn, for the next capture.
        let long_steps = self.own_long_steps(colour);
        self.position.play_unchecked(m);
        self.position.set_turn(colour);
        self.reopen(long_steps);
        self.last_move = vec![m.from, m.to];
        self.moves
            .push(format!("{}: {written}", colour.colour_name()));
        said.push(format!("{} plays {written}.", colour.colour_name()));
        if victim.is_some_and(|v| v.role == Role::King) && captured {
            let side = victim.map_or(colour, |v| v.seat);
            said.push(format!(
                "The {} king is captured.",
                side.colour_name().to_ascii_lowercase()
            ));
            self.finish(victim.map(|v| v.seat));
            return;
        }
        let was_captured = matches!(self.phase, Phase::Move { captured: true, .. }) || captured;
        if let Some(role) = m.promotion() {
            let pawn = Card::piece(colour, Role::Pawn);
            if let Some(i) = self.line.iter().rposition(|&c| c == pawn) {
                self.discard.push(self.line.remove(i));
            }
            let new = Card::piece(colour, role);
            if let Some(i) = self.discard.iter().position(|&c| c == new) {
                self.discard.remove(i);
            }
            said.push(format!(
                "The {} card goes to the discard pile; {} to place the {} card in the line \
                 (place 1 to {}).",
                describe(pawn),
                colour.colour_name(),
                describe(new),
                self.line.len() + 1
            ));
            self.phase = Phase::Place {
                card: new,
                captured: was_captured,
            };
            self.recycle(said);
            return;
        }
        self.recycle(said);
        self.phase = Phase::Move {
            moved: true,
            captured: was_captured,
        };
    }

    fn end_turn(&mut self, said: &mut Vec<String>) {
        let colour = self.colour();
        said.push(if self.players == 2 && !self.draw.is_empty() {
            format!("{} ends the turn and draws.", colour.colour_name())
        } else {
            format!("{} ends the turn.", colour.colour_name())
        });
        if self.players == 2 {
            while self.hands[colour.index()].len() < HAND && !self.draw.is_empty() {
                self.draw_card(colour.index(), said);
                if self.result.is_some() {
                    return;
                }
            }
        }
        // The turn's own long pawn step stays open to the other colour's next turn.
        let long_steps = self.own_long_steps(colour);
        self.position.set_turn(colour);
        self.position.pass();
        self.reopen(long_steps);
        if colour == Seat::BLACK {
            self.turn += 1;
        }
        self.start_turn(said);
    }

    /// The long pawn steps `colour` made this turn (a turn of several moves must not close
    /// them before the other colour has had its chance to take en passant).
    fn own_long_steps(&self, colour: Seat) -> Vec<crate::chess::EnPassant> {
        self.position
            .en_passant()
            .iter()
            .filter(|e| e.army == colour.0)
            .copied()
            .collect()
    }

    fn reopen(&mut self, steps: Vec<crate::chess::EnPassant>) {
        for step in steps {
            let still_there = self
                .position
                .piece_at(step.pawn)
                .is_some_and(|p| p.role == Role::Pawn && p.seat.0 == step.army);
            if still_there && !self.position.en_passant().contains(&step) {
                self.position.open_en_passant(step);
            }
        }
    }

    fn prompts(&self) -> Vec<Prompt> {
        let Some(seat) = self.to_act() else {
            return Vec::new();
        };
        let colour = self.colour().colour_name();
        let (kind, text) = match self.phase {
            Phase::PlayCard => (
                PromptKind::Secret,
                format!(
                    "play a card from your hand to the line ({colour} to move): {}",
                    card_text(&self.hands[self.colour().index()])
                ),
            ),
            Phase::Move { moved, captured } => (
                PromptKind::Move,
                if captured {
                    format!("{colour}: capture again if the line allows, or /move done")
                } else if moved {
                    format!("{colour}: capture if the line allows, or /move done")
                } else {
                    format!("{colour}: one non-capturing move, captures, or /move done")
                },
            ),
            Phase::Place { card, .. } => (
                PromptKind::Move,
                format!(
                    "place the {} card in the line: place 1 (next to the draw pile) to place {}",
                    describe(card),
                    self.line.len() + 1
                ),
            ),
        };
        vec![Prompt { seat, kind, text }]
    }

    fn card_rows(&self, viewer: Viewer) -> Vec<CardRow> {
        let mut rows = vec![CardRow {
            title: "Line".into(),
            cards: self.line.iter().map(|&c| Some(c)).collect(),
        }];
        if self.players == 2 {
            for seat in [Seat::WHITE, Seat::BLACK] {
                let hand = Pile::new(Visibility::Held(seat), self.hands[seat.index()].clone());
                rows.push(CardRow {
                    title: format!("{} hand", seat.colour_name()),
                    cards: hand.seen_by(viewer),
                });
            }
        }
        rows.push(CardRow {
            title: "Discard pile".into(),
            cards: self.discard.iter().map(|&c| Some(c)).collect(),
        });
        if !self.removed.is_empty() {
            let out = Pile::new(Visibility::FaceDown, self.removed.clone());
            rows.push(CardRow {
                title: "Out of the game".into(),
                cards: out.seen_by(viewer),
            });
        }
        rows
    }

    fn status(&self) -> String {
        if let Some(o) = &self.result {
            let verdict = match self.score() {
                s if o.everyone_lost => format!("score {s}: a loss for everyone"),
                s if s > GREAT_SCORE => format!("score {s}: great!"),
                s => format!("score {s}"),
            };
            return format!("Game over, {verdict}");
        }
        format!(
            "Turn {}, {} to play. Captured {}; draw pile {}; line: {}",
            self.turn,
            self.colour().colour_name(),
            self.captures,
            self.draw.len(),
            card_text(&self.line)
        )
    }
}

impl Game for Cooperative {
    type State = CoopState;
    type Action = CoopAction;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "cooperative",
            aliases: &["cooperative-chess", "coop", "solitaire"],
            name: "Cooperative Chess",
            family: Family::Chess,
            seat_counts: &[2, 1],
            options: vec![fen_option()],
            hidden_information: true,
            simultaneous: false,
            rules: "Two players (players=2) team up against the game, or one plays solitaire \
                    (players=1). Each holds two of the 32 piece cards. On your turn play a card \
                    to the end of the line (/secret P: upper case white, lower case black), \
                    then you may make one non-capturing move and any number of captures \
                    (/move), then /move done draws you back to two cards. A capture needs a \
                    card like the capturing piece next to a card like the captured piece in the \
                    line; the captured piece's card is discarded. Kings drawn go straight to \
                    the line. Four or more cards of a colour in a row are recycled: one leaves \
                    the game unseen, the rest go back into the draw pile. A pawn reaches the \
                    last rank only with its card in the line, promoting to a type already \
                    captured whose card goes anywhere in the line (/move place 2). Kings may \
                    stand in check. Capturing a king ends the game: a point a capture plus ten \
                    per piece type gone from the board; under 32 everyone loses, over 50 is \
                    great. Solitaire: no hands; each turn draws a card to the line and you move \
                    both colours. Interpretations: the captured card (or promotion's pawn card) \
                    nearest the end of the line is discarded; the promoted card is of the \
                    pawn's colour; castling ignores check; a player without cards passes and \
                    the game ends, without bonus, when no cards are left to play; losing both \
                    king cards out of the game is a loss.",
            source: "Chess Kit, 'Cooperative Chess'",
        })
    }

    fn setup(&self, options: &Options, seats: usize, seed: u64) -> Result<CoopState, GameError> {
        Ok(CoopState::new(
            start(options)?,
            seats.clamp(1, 2) as u8,
            seed,
        ))
    }

    fn prompts(&self, state: &CoopState) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &CoopState, seat: Seat) -> Vec<CoopAction> {
        state.actions(seat)
    }

    fn legal_texts(&self, state: &CoopState, seat: Seat) -> Vec<String> {
        texts_among_moves(&state.position, &state.actions(seat), |a| {
            state.action_text(a)
        })
    }

    fn action_text(&self, state: &CoopState, action: &CoopAction) -> String {
        state.action_text(action)
    }

    fn parse(&self, state: &CoopState, seat: Seat, text: &str) -> Result<CoopAction, GameError> {
        state.parse(seat, text)
    }

    fn apply(
        &self,
        state: &mut CoopState,
        seat: Seat,
        action: CoopAction,
    ) -> Result<Vec<Event>, GameError> {
        state.apply(seat, action)
    }

    fn view(&self, state: &CoopState, viewer: Viewer) -> View {
        let mut view = board_view(self.info().id, &state.position, viewer);
        if state.players == 1 {
            view.bottom = Seat::WHITE;
            view.players = vec!["Solitaire".into()];
        }
        view.status = state.status();
        view.last_move = state.last_move.clone();
        view.to_act = state.to_act().into_iter().collect();
        view.move_number = state.turn;
        view.cards = state.card_rows(viewer);
        view
    }

    fn outcome(&self, state: &CoopState) -> Option<Outcome> {
        state.result.clone()
    }

    fn concede(&self, state: &CoopState, _seat: Seat, _seats: usize, reason: EndReason) -> Outcome {
        // Leaving a cooperative game loses it for everyone.
        Outcome {
            standings: (0..state.players)
                .map(|s| Standing {
                    seat: Seat(s),
                    score: state.captures as i64,
                })
                .collect(),
            ..Outcome::everyone_loses(reason)
        }
    }

    fn best_scores(&self) -> Option<BestScores> {
        Some(BestScores::Highest)
    }

    /// Only the book's start is ranked: a custom position (a king and a queen alone) can score
    /// more than the whole army could.
    fn ranked(&self, options: &Options, _state: &CoopState) -> bool {
        options.get("fen").is_none()
            || start(options).is_ok_and(|p| p.fen() == Position::startpos().fen())
    }

    fn ranking_rule(&self) -> Option<&'static str> {
        Some("only games from the book's start are ranked")
    }

    fn opening(&self, state: &CoopState) -> Vec<String> {
        state.opening.clone()
    }

    fn seat_name(&self, state: &CoopState, seat: Seat) -> String {
        if state.players == 1 {
            "Solitaire".into()
        } else {
            seat.colour_name()
        }
    }

    fn determinize(&self, state: &CoopState, seat: Seat, seed: u64) -> CoopState {
        state.determinized(seat, seed)
    }

    fn waiting_reason(&self, state: &CoopState, seat: Seat) -> Option<String> {
        (state.result.is_none() && state.to_act() != Some(seat))
            .then(|| format!("{} is to play", state.colour().colour_name()))
    }
}

#[cfg(test)]
mod tests;

//! Two Move Chess (Don Kirkby, Chess Kit, "Two Move Chess").
//!
//! - Each player holds five chess cards of his colour: knight, bishop, rook, queen and king.
//!   Before the first turn White lays two of his cards face up (the book suggests king and
//!   rook for a first game).
//! - Each turn both players secretly choose two cards; a player with two cards face up from
//!   the turn before may not choose those. Both choices are revealed together.
//! - Matching cards cancel: two matches and nobody moves; one match and each player's other
//!   card makes two moves; none and every card makes one move.
//! - The cards left are played from least to most valuable (knight, bishop, rook, queen,
//!   king). A card moves a piece of its type or one of the player's least valuable movable
//!   type (usually a pawn), and it must move if either can; no pawn moves twice in a turn.
//! - Chess moves, but no check: castling (with the king card) ignores attacked squares, there
//!   is no en passant, pawns promote. Capturing the king wins.
//! - After the moves, the player with four cards face up takes them all back; the other's two
//!   stay face up.
//!
//! Interpretations (also in the rules text): a card with no move at all for either type is
//! played without a move; pawns that have moved this turn (and may not move again) do not count
//! as movable, so the least valuable movable type can then be the next one up; the book names no draw, so the game is drawn after fifty turns
//! without a capture or pawn move, or when only the two kings are left (neither can be made
//! to walk into the other).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::cards::{Card, Pile, Visibility};
use crate::chess::{Move, MoveKind, MoveParseError, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{CardRow, Panel, View, Viewer};

use super::chess::{
    board_view, fen_option, start_from_options, stored_position, texts_among_moves, MaybeMove,
};

/// Two Move Chess.
pub struct TwoMove;

/// The cards each player holds, from least to most valuable (the order they are played in).
pub const CARDS: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Turns without a capture or pawn move after which the game is drawn (an interpretation).
const QUIET_TURNS: u32 = 50;

/// One thing a player does in Two Move Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TwoMoveAction {
    /// White lays two cards face up before the first turn.
    LayFaceUp([Role; 2]),
    /// Two cards a player chose in secret for a turn.
    Choose(Seat, [Role; 2]),
    /// A move made with the card being played.
    Move(Move),
}

impl MaybeMove for TwoMoveAction {
    fn chess_move(&self) -> Option<Move> {
        match self {
            TwoMoveAction::Move(m) => Some(*m),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// White lays the first two cards face up.
    FaceUp,
    /// Both players choose two cards in secret.
    Choose,
    /// The cards left after cancelling are played, the first of `queue` now.
    Play,
}

/// A card still to be played this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct CardPlay {
    seat: Seat,
    card: Role,
    /// Moves it has left to make (two when its partner card was cancelled).
    moves_left: u8,
    /// Moves it makes in all.
    moves: u8,
}

/// The state of a game of Two Move Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TwoMoveState {
    #[serde(with = "stored_position")]
    position: Position,
    phase: Phase,
    /// Each player's cards lying face up (two or four, or none).
    face_up: [Vec<Role>; 2],
    /// Choices made but not yet revealed.
    sealed: [Option<[Role; 2]>; 2],
    /// The cards to play this turn, in order.
    queue: Vec<CardPlay>,
    /// Where each player's pawns that moved this turn now stand.
    moved_pawns: [Vec<Cell>; 2],
    turn: u32,
    quiet_turns: u32,
    /// Whether this turn so far has had no capture or pawn move.
    quiet: bool,
    moves: Vec<String>,
    last_move: Vec<Cell>,
    result: Option<Outcome>,
}

/// A card's letter as its owner's colour writes it (upper case White, lower case Black).
fn letter(seat: Seat, role: Role) -> String {
    Card::piece(seat, role).to_string()
}

fn names(roles: &[Role]) -> String {
    let names: Vec<&str> = roles.iter().map(|r| r.name()).collect();
    match names.as_slice() {
        [] => "none".into(),
        [one] => (*one).into(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl TwoMoveState {
    /// A game from `position`, with the cards lying face up before the next turn; `face_up`
    /// empty for both means White is yet to lay his first two.
    pub fn new(position: Position, face_up: [Vec<Role>; 2]) -> TwoMoveState {
        let phase = if face_up.iter().all(|f| f.is_empty()) {
            Phase::FaceUp
        } else {
            Phase::Choose
        };
        TwoMoveState {
            position,
            phase,
            face_up,
            sealed: [None, None],
            queue: Vec::new(),
            moved_pawns: [Vec::new(), Vec::new()],
            turn: 1,
            quiet_turns: 0,
            quiet: true,
            moves: Vec::new(),
            last_move: Vec::new(),
            result: None,
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The cards `seat` may choose this turn: those not lying face up.
    pub fn choosable(&self, seat: Seat) -> Vec<Role> {
        CARDS
            .into_iter()
            .filter(|r| !self.face_up[seat.index()].contains(r))
            .collect()
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]): two cards the
    /// opponent has chosen (that he has is announced) are replaced by a pair drawn among those
    /// he could choose, the cards not lying face up; `seat`'s own choice stays.
    fn determinized(&self, seat: Seat, seed: u64) -> TwoMoveState {
        let mut sample = self.clone();
        let them = seat.opponent();
        if self.sealed[them.index()].is_some() {
            let cards = self.choosable(them);
            let pairs: Vec<[Role; 2]> = cards
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| cards[i + 1..].iter().map(move |&b| [a, b]))
                .collect();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            sample.sealed[them.index()] = pairs.choose(&mut rng).copied();
        }
        sample
    }

    /// Who must act now.
    fn to_act(&self) -> Vec<Seat> {
        if self.result.is_some() {
            return Vec::new();
        }
        match self.phase {
            Phase::FaceUp => vec![Seat::WHITE],
            Phase::Choose => [Seat::WHITE, Seat::BLACK]
                .into_iter()
                .filter(|s| self.sealed[s.index()].is_none())
                .collect(),
            Phase::Play => self.queue.first().map(|p| p.seat).into_iter().collect(),
        }
    }

    /// The position with `seat` to move.
    fn as_mover(&self, seat: Seat) -> Position {
        let mut pos = self.position.clone();
        pos.set_turn(seat);
        pos
    }

    /// Every move `seat` could make with some card now: chess moves without check, castling
    /// through attacked squares allowed, no en passant, no pawn moving twice in a turn.
    fn moves_of(&self, seat: Seat) -> Vec<Move> {
        let pos = self.as_mover(seat);
        let moved = &self.moved_pawns[seat.index()];
        pos.pseudo_legal_moves()
            .into_iter()
            .filter(|m| m.kind != MoveKind::EnPassant)
            .filter(|m| {
                !(moved.contains(&m.from)
                    && pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn))
            })
            .collect()
    }

    /// The least valuable type of `seat`'s pieces that can move now.
    fn least_movable(&self, moves: &[Move]) -> Option<Role> {
        moves
            .iter()
            .filter_map(|m| self.position.piece_at(m.from).map(|p| p.role))
            .min_by_key(|r| *r as u8)
    }

    /// The moves `seat` may make with `card`: a piece of its type, or of the least valuable
    /// movable type.
    fn card_moves(&self, seat: Seat, card: Role) -> Vec<Move> {
        let moves = self.moves_of(seat);
        let least = self.least_movable(&moves);
        moves
            .into_iter()
            .filter(|m| {
                let role = self.position.piece_at(m.from).map(|p| p.role);
                role == Some(card) || role == least
            })
            .collect()
    }

    fn choice_text(seat: Seat, cards: [Role; 2]) -> String {
        format!("{} {}", letter(seat, cards[0]), letter(seat, cards[1]))
    }

    /// Everything `seat` may do now.
    fn actions(&self, seat: Seat) -> Vec<TwoMoveAction> {
        if !self.to_act().contains(&seat) {
            return Vec::new();
        }
        let pairs = |cards: &[Role]| {
            let mut out = Vec::new();
            for (i, &a) in cards.iter().enumerate() {
                for &b in &cards[i + 1..] {
                    out.push([a, b]);
                }
            }
            out
        };
        match self.phase {
            Phase::FaceUp => pairs(&CARDS)
                .into_iter()
                .map(TwoMoveAction::LayFaceUp)
                .collect(),
            Phase::Choose => pairs(&self.choosable(seat))
                .into_iter()
                .map(|pair| TwoMoveAction::Choose(seat, pair))
                .collect(),
            Phase::Play => {
                let card = self.queue[0].card;
                self.card_moves(seat, card)
                    .into_iter()
                    .map(TwoMoveAction::Move)
                    .collect()
            }
        }
    }

    fn action_text(&self, action: &TwoMoveAction) -> String {
        match *action {
            TwoMoveAction::LayFaceUp(cards) => TwoMoveState::choice_text(Seat::WHITE, cards),
            TwoMoveAction::Choose(seat, cards) => TwoMoveState::choice_text(seat, cards),
            TwoMoveAction::Move(m) => {
                let seat = self.queue.first().map_or(Seat::WHITE, |p| p.seat);
                let allowed =
                    self.card_moves(seat, self.queue.first().map_or(Role::King, |p| p.card));
                self.as_mover(seat).san_plain_among(m, &allowed)
            }
        }
    }

    /// Reads two cards: letters or names, apart or together (`B Q`, `bq`, `bishop+queen`).
    fn parse_cards(text: &str) -> Result<[Role; 2], String> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || matches!(c, '+' | ',' | '&' | '/'))
            .filter(|w| !w.is_empty())
            .collect();
        let mut roles = Vec::new();
        let mut read = |word: &str| -> Result<(), String> {
            let name = CARDS
                .iter()
                .chain(std::iter::once(&Role::Pawn))
                .find(|r| r.name().eq_ignore_ascii_case(word));
            if let Some(&r) = name {
                roles.push(r);
                return Ok(());
            }
            for c in word.chars() {
                roles.push(Role::from_char(c).ok_or_else(|| {
                    format!("'{word}' is not a card: the cards are N, B, R, Q and K")
                })?);
            }
            Ok(())
        };
        for w in &words {
            read(w)?;
        }
        if roles.contains(&Role::Pawn) {
            return Err(
                "there are no pawn cards in Two Move Chess: the cards are knight, bishop, rook, \
                 queen and king"
                    .into(),
            );
        }
        match roles.as_slice() {
            [a, b] if a == b => Err(format!(
                "choose two different cards, not the {} twice",
                a.name()
            )),
            [a, b] => {
                let mut pair = [*a, *b];
                pair.sort_by_key(|r| *r as u8);
                Ok(pair)
            }
            _ => Err(format!(
                "name exactly two cards, like 'B Q' (you named {})",
                roles.len()
            )),
        }
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<TwoMoveAction, GameError> {
        let refuse = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        };
        if !self.to_act().contains(&seat) {
            return Err(GameError::NotYourTurn(match self.phase {
                Phase::Choose => format!(
                    "you have chosen your cards; waiting for {}",
                    seat.opponent().colour_name()
                ),
                _ => self.waiting_text(),
            }));
        }
        match self.phase {
            Phase::FaceUp => Ok(TwoMoveAction::LayFaceUp(
                TwoMoveState::parse_cards(text).map_err(refuse)?,
            )),
            Phase::Choose => {
                let cards = TwoMoveState::parse_cards(text).map_err(refuse)?;
                let up = &self.face_up[seat.index()];
                let blocked: Vec<Role> = cards.into_iter().filter(|c| up.contains(c)).collect();
                if !blocked.is_empty() {
                    return Err(refuse(format!(
                        "your {} card{} face up from last turn and cannot be chosen: choose two \
                         of {}",
                        names(&blocked),
                        if blocked.len() == 1 { " lies" } else { "s lie" },
                        names(&self.choosable(seat))
                    )));
                }
                Ok(TwoMoveAction::Choose(seat, cards))
            }
            Phase::Play => {
                let play = self.queue[0];
                let allowed = self.card_moves(seat, play.card);
                let pos = self.as_mover(seat);
                match pos.parse_move_among(text.trim(), &allowed) {
                    Ok(m) => Ok(TwoMoveAction::Move(m)),
                    Err(e) => {
                        // A move some card allows (castling through attacked squares too): the
                        // card is the reason, whatever chess would say.
                        if pos
                            .parse_move_among(text.trim(), &self.moves_of(seat))
                            .is_ok()
                        {
                            return Err(refuse(self.card_rule(seat, play.card)));
                        }
                        // Moves Two Move Chess has not at all: en passant, a pawn's second move.
                        let Ok(m) = pos.parse_move_among(text.trim(), &pos.pseudo_legal_moves())
                        else {
                            return Err(GameError::Move(e));
                        };
                        let role = pos.piece_at(m.from).map(|p| p.role);
                        let reason = if m.kind == MoveKind::EnPassant {
                            "there is no en passant in Two Move Chess".to_string()
                        } else if role == Some(Role::Pawn)
                            && self.moved_pawns[seat.index()].contains(&m.from)
                        {
                            "that pawn has already moved this turn; no pawn moves twice in a turn"
                                .to_string()
                        } else {
                            self.card_rule(seat, play.card)
                        };
                        Err(refuse(reason))
                    }
                }
            }
        }
    }

    /// What the card being played may move, in words.
    fn card_rule(&self, seat: Seat, card: Role) -> String {
        let least = self.least_movable(&self.moves_of(seat));
        match least {
            Some(l) if l != card => format!(
                "your {} card moves a {} or a {} (your least valuable piece that can move)",
                card.name(),
                card.name(),
                l.name()
            ),
            _ => format!("your {} card moves a {}", card.name(), card.name()),
        }
    }

    fn waiting_text(&self) -> String {
        match self.phase {
            Phase::FaceUp => "White lays two cards face up first".into(),
            Phase::Choose => "both players are choosing cards".into(),
            Phase::Play => match self.queue.first() {
                Some(p) => format!(
                    "{} is moving with the {} card",
                    p.seat.colour_name(),
                    p.card.name()
                ),
                None => "the turn is ending".into(),
            },
        }
    }

    fn apply(&mut self, seat: Seat, action: TwoMoveAction) -> Result<Vec<Event>, GameError> {
        if !self.actions(seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(&action),
                reason: "it is not a possible choice now".into(),
            }));
        }
        let mut events = Vec::new();
        match action {
            TwoMoveAction::LayFaceUp(cards) => {
                self.face_up[0] = cards.to_vec();
                self.phase = Phase::Choose;
                events.push(Event::Public(format!(
                    "White lays {} face up: they cannot be chosen on the first turn.",
                    TwoMoveState::choice_text(Seat::WHITE, cards)
                )));
            }
            TwoMoveAction::Choose(_, cards) => {
                self.sealed[seat.index()] = Some(cards);
                if self.sealed.iter().any(|s| s.is_none()) {
                    events.push(Event::Public(format!(
                        "{} has chosen two cards.",
                        seat.colour_name()
                    )));
                    return Ok(events);
                }
                events.push(Event::Public(self.reveal()));
                self.phase = Phase::Play;
                events.extend(self.advance());
            }
            TwoMoveAction::Move(m) => {
                events.extend(self.play_move(seat, m));
                if self.result.is_none() {
                    events.extend(self.advance());
                }
            }
        }
        if let Some(o) = &self.result {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    /// Turns the sealed choices over, cancels matches and queues the cards left.
    fn reveal(&mut self) -> String {
        let chosen = [
            self.sealed[0]
                .take()
                .unwrap_or([Role::Knight, Role::Bishop]),
            self.sealed[1]
                .take()
                .unwrap_or([Role::Knight, Role::Bishop]),
        ];
        let matching: Vec<Role> = chosen[0]
            .into_iter()
            .filter(|r| chosen[1].contains(r))
            .collect();
        let each = if matching.len() == 1 { 2 } else { 1 };
        let mut queue: Vec<CardPlay> = Vec::new();
        for seat in [Seat::WHITE, Seat::BLACK] {
            self.face_up[seat.index()].extend(chosen[seat.index()]);
            for card in chosen[seat.index()] {
                if !matching.contains(&card) {
                    queue.push(CardPlay {
                        seat,
                        card,
                        moves_left: each,
                        moves: each,
                    });
                }
            }
        }
        queue.sort_by_key(|p| p.card as u8);
        self.queue = queue;
        let mut text = format!(
            "Turn {}: White plays {}, Black plays {}.",
            self.turn,
            TwoMoveState::choice_text(Seat::WHITE, chosen[0]),
            TwoMoveState::choice_text(Seat::BLACK, chosen[1])
        );
        match matching.as_slice() {
            [] => {}
            [one] => text.push_str(&format!(" The {}s cancel.", one.name())),
            _ => text.push_str(" Both pairs match: every card cancels and nobody moves."),
        }
        if !self.queue.is_empty() {
            let order: Vec<String> = self
                .queue
                .iter()
                .map(|p| {
                    let times = if p.moves == 2 { " (two moves)" } else { "" };
                    format!("{}{times}", letter(p.seat, p.card))
                })
                .collect();
            text.push_str(&format!(" Order: {}.", order.join(", ")));
        }
        text
    }

    /// Plays the queue's cards that have no move at all, then ends the turn if none is left.
    fn advance(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(&play) = self.queue.first() {
            if !self.card_moves(play.seat, play.card).is_empty() {
                return events;
            }
            events.push(Event::Public(format!(
                "{}'s {} card has no move to make.",
                play.seat.colour_name(),
                play.card.name()
            )));
            self.queue.remove(0);
        }
        self.end_turn();
        events
    }

    fn play_move(&mut self, seat: Seat, m: Move) -> Vec<Event> {
        let play = self.queue[0];
        let allowed = self.card_moves(seat, play.card);
        let pos = self.as_mover(seat);
        let written = pos.san_plain_among(m, &allowed);
        let piece = pos.piece_at(m.from);
        let captured = pos.is_capture(m);
        let mut after = pos;
        after.play_unchecked(m);
        self.position = after;
        if piece.is_some_and(|p| p.role == Role::Pawn) || captured {
            self.quiet = false;
        }
        let moved = &mut self.moved_pawns[seat.index()];
        moved.retain(|&c| c != m.from);
        if piece.is_some_and(|p| p.role == Role::Pawn) && m.promotion().is_none() {
            moved.push(m.to);
        }
        self.last_move = vec![m.from, m.to];
        let step = if play.moves == 2 {
            format!(" ({} of 2)", 3 - play.moves_left)
        } else {
            String::new()
        };
        let line = format!(
            "{} {}{step}: {written}",
            seat.colour_name(),
            letter(seat, play.card)
        );
        self.moves.push(line.clone());
        let mut events = vec![Event::Public(line)];
        if self.position.king(seat.opponent()).is_none() {
            self.result = Some(Outcome::win(vec![seat], EndReason::KingCaptured));
            return events;
        }
        if self.position.king(seat).is_none() {
            // Cannot happen by a move of one's own, but a damaged game should still end.
            self.result = Some(Outcome::win(vec![seat.opponent()], EndReason::KingCaptured));
            return events;
        }
        self.queue[0].moves_left -= 1;
        if self.queue[0].moves_left == 0 {
            self.queue.remove(0);
        } else if self.card_moves(seat, play.card).is_empty() {
            events.push(Event::Public(format!(
                "{}'s {} card has no second move to make.",
                seat.colour_name(),
                play.card.name()
            )));
            self.queue.remove(0);
        }
        events
    }

    fn end_turn(&mut self) {
        for up in &mut self.face_up {
            if up.len() >= 4 {
                up.clear();
            }
        }
        self.moved_pawns = [Vec::new(), Vec::new()];
        self.quiet_turns = if self.quiet { self.quiet_turns + 1 } else { 0 };
        self.quiet = true;
        self.turn += 1;
        self.phase = Phase::Choose;
        let only_kings = self.position.pieces().all(|(_, p)| p.role == Role::King);
        if only_kings {
            self.result = Some(Outcome::draw(EndReason::InsufficientMaterial));
        } else if self.quiet_turns >= QUIET_TURNS {
            self.result = Some(Outcome::draw(EndReason::FiftyMoveRule));
        }
    }

    fn prompts(&self) -> Vec<Prompt> {
        self.to_act()
            .into_iter()
            .map(|seat| match self.phase {
                Phase::FaceUp => Prompt {
                    seat,
                    kind: PromptKind::Move,
                    text: "lay two cards face up for the first turn (a first game: K R)".into(),
                },
                Phase::Choose => Prompt {
                    seat,
                    kind: PromptKind::Secret,
                    text: format!(
                        "choose two cards for turn {} from {}",
                        self.turn,
                        names(&self.choosable(seat))
                    ),
                },
                Phase::Play => {
                    let p = self.queue[0];
                    let which = if p.moves == 2 {
                        format!(", move {} of 2", 3 - p.moves_left)
                    } else {
                        String::new()
                    };
                    Prompt {
                        seat,
                        kind: PromptKind::Move,
                        text: format!(
                            "move with your {} card{which}: {}",
                            p.card.name(),
                            self.card_rule(seat, p.card)
                        ),
                    }
                }
            })
            .collect()
    }

    /// The cards as `viewer` sees them: each side's face-up cards, and a sealed choice's
    /// faces only to its owner.
    fn card_rows(&self, viewer: Viewer) -> Vec<CardRow> {
        let mut rows = Vec::new();
        for seat in [Seat::WHITE, Seat::BLACK] {
            let up = Pile::new(
                Visibility::FaceUp,
                self.face_up[seat.index()]
                    .iter()
                    .map(|&r| Card::piece(seat, r))
                    .collect(),
            );
            rows.push(CardRow {
                title: format!("{} face up", seat.colour_name()),
                cards: up.seen_by(viewer),
            });
            if let Some(chosen) = self.sealed[seat.index()] {
                let sealed = Pile::new(
                    Visibility::Held(seat),
                    chosen.iter().map(|&r| Card::piece(seat, r)).collect(),
                );
                rows.push(CardRow {
                    title: format!("{} has chosen", seat.colour_name()),
                    cards: sealed.seen_by(viewer),
                });
            }
        }
        rows
    }

    fn status(&self) -> String {
        if let Some(o) = &self.result {
            return o.to_string();
        }
        match self.phase {
            Phase::FaceUp => "White lays two cards face up".into(),
            Phase::Choose => format!("Turn {}: both choose two cards", self.turn),
            Phase::Play => {
                let order: Vec<String> = self
                    .queue
                    .iter()
                    .map(|p| format!("{}x{}", letter(p.seat, p.card), p.moves_left))
                    .collect();
                format!("Turn {}: cards to play {}", self.turn, order.join(" "))
            }
        }
    }
}

impl Game for TwoMove {
    type State = TwoMoveState;
    type Action = TwoMoveAction;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "two-move",
            aliases: &["two-move-chess", "twomove"],
            name: "Two Move Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![fen_option()],
            hidden_information: true,
            simultaneous: true,
            rules: "Each player holds five cards: knight, bishop, rook, queen and king. White \
                    first lays two face up (/move K R). Each turn both choose two cards in \
                    secret (/secret B Q); cards lying face up from the turn before cannot be \
                    chosen. Matching cards cancel: with one match each player's other card \
                    makes two moves, with two nobody moves. Cards are played from least to most \
                    valuable (N, B, R, Q, K): a card moves a piece of its type or one of your \
                    least valuable movable type (usually a pawn), and must move if it can. No \
                    pawn moves twice in a turn. No check: capture the king to win. Castling is \
                    with the king card and ignores attacked squares; no en passant; pawns \
                    promote. After the moves, whoever has four cards face up takes them back. \
                    Interpretations: a card with no move at all is played without one; pawns that \
                    moved this turn do not count as movable for the least valuable type; the \
                    game is drawn after fifty turns without a capture or pawn move, or with only the \
                    kings left.",
            source: "Chess Kit, 'Two Move Chess'",
        })
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<TwoMoveState, GameError> {
        let position = start_from_options(options)?;
        Ok(TwoMoveState::new(position, [Vec::new(), Vec::new()]))
    }

    fn prompts(&self, state: &TwoMoveState) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &TwoMoveState, seat: Seat) -> Vec<TwoMoveAction> {
        state.actions(seat)
    }

    fn legal_texts(&self, state: &TwoMoveState, seat: Seat) -> Vec<String> {
        texts_among_moves(&state.as_mover(seat), &state.actions(seat), |a| {
            state.action_text(a)
        })
    }

    fn action_text(&self, state: &TwoMoveState, action: &TwoMoveAction) -> String {
        state.action_text(action)
    }

    fn parse(
        &self,
        state: &TwoMoveState,
        seat: Seat,
        text: &str,
    ) -> Result<TwoMoveAction, GameError> {
        state.parse(seat, text)
    }

    fn apply(
        &self,
        state: &mut TwoMoveState,
        seat: Seat,
        action: TwoMoveAction,
    ) -> Result<Vec<Event>, GameError> {
        state.apply(seat, action)
    }

    fn view(&self, state: &TwoMoveState, viewer: Viewer) -> View {
        let mut view = board_view(self.info().id, &state.position, viewer);
        view.status = state.status();
        view.last_move = state.last_move.clone();
        view.to_act = state.to_act();
        view.move_number = state.turn;
        view.cards = state.card_rows(viewer);
        if let Viewer::Seat(s) = viewer {
            if let Some(chosen) = state.sealed[s.index()] {
                view.panel = Some(Panel {
                    title: "Two Move Chess: your chosen cards".into(),
                    columns: Vec::new(),
                    rows: Vec::new(),
                    notes: vec![format!(
                        "You chose {}; both choices are revealed when {} has chosen.",
                        TwoMoveState::choice_text(s, chosen),
                        s.opponent().colour_name()
                    )],
                });
            }
        }
        view
    }

    fn outcome(&self, state: &TwoMoveState) -> Option<Outcome> {
        state.result.clone()
    }

    fn determinize(&self, state: &TwoMoveState, seat: Seat, seed: u64) -> TwoMoveState {
        state.determinized(seat, seed)
    }

    fn secret_history(&self, state: &TwoMoveState) -> Vec<String> {
        [Seat::WHITE, Seat::BLACK]
            .into_iter()
            .filter_map(|s| {
                state.sealed[s.index()].map(|c| {
                    format!(
                        "{} had chosen {} when the game ended.",
                        s.colour_name(),
                        TwoMoveState::choice_text(s, c)
                    )
                })
            })
            .collect()
    }

    fn waiting_reason(&self, state: &TwoMoveState, seat: Seat) -> Option<String> {
        (state.phase == Phase::Choose && state.sealed[seat.index()].is_some()).then(|| {
            format!(
                "you have chosen your cards; waiting for {}",
                seat.opponent().colour_name()
            )
        })
    }
}

#[cfg(test)]
mod tests;

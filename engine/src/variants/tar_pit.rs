//! Tar Pit Chess (Don Kirkby, Chess Kit, "Tar Pit Chess"): checkers under chess pieces, played
//! by cards.
//!
//! - Each player has six checkers in front of him (the rest, up to twelve a colour, are the
//!   extra pile) and a hand of one card per checker in front of him, from a deck of a card per
//!   piece and two checker cards a colour.
//! - A turn: move a piece; if it carries your own checker you may throw it one king step to a
//!   neighbouring piece of either colour; you may play a card to add a checker; then draw up to
//!   one card per checker in front of you.
//! - Your piece on your checker carries tar and moves normally. Your piece on the opponent's
//!   checker is tarred: a pawn cannot move, other pieces move like pawns (no double step, en
//!   passant allowed). A tarred piece reaching the last rank returns the checker to its owner;
//!   a checker added to a piece already on its last rank is removed at once, with the piece's
//!   own checker.
//! - A card adds a checker of your colour to a piece matching the card (any of your pieces if
//!   none matches). Your own checker card takes a checker from the extra pile; the opponent's
//!   makes him return one (from in front of him or from the board, his choice) and discard down
//!   to his checkers.
//! - A capturer keeps the captured piece's checker. Two checkers on one piece: opposite colours
//!   cancel (both back to their owners), same colours repel (one back).
//! - No castling with a checker on the king or the rook, nor, as in chess, out of or through
//!   check. Checkmate wins.
//!
//! Interpretations (also in the rules text): "your back rank" for a tarred piece is the last
//! rank it can reach moving like a pawn (where pawns promote); throwing tar counts as adding a
//! checker for the last-rank rule; a player with no checker in front of him cannot play a piece
//! card; returned checkers go back in front of their owners; stalemate, fifty moves, threefold
//! repetition (the same pieces on the same checkers) and bare kings draw; check is judged with
//! pieces moving as tar lets them.

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::cards::{redeal, shuffled, Card, Face, Pile, Visibility};
use crate::chess::{Move, MoveKind, MoveParseError, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::view::{CardRow, Marker, View, Viewer};

use super::chess::{
    board_view, counting_draws_by, fen_option, start_from_options, stored_position,
    texts_among_moves, MaybeMove,
};

/// Tar Pit Chess.
pub struct TarPit;

/// Checkers of each colour in the set: those in front of a player, on the board, and the
/// extra pile.
pub const CHECKERS_PER_COLOUR: u8 = 12;

/// One thing a player does in Tar Pit Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TarAction {
    Move(Move),
    /// Throw (or pass) the carried checker onto the piece on this cell.
    Throw(Cell),
    NoThrow,
    /// Play a card; a piece card names the piece it adds a checker to.
    Card(Card, Option<Cell>),
    NoCard,
    /// Return a checker to the extra pile: from in front of you (`None`) or from the board.
    Return(Option<Cell>),
    /// Discard a card down to your checkers.
    Discard(Card),
}

impl MaybeMove for TarAction {
    fn chess_move(&self) -> Option<Move> {
        match self {
            TarAction::Move(m) => Some(*m),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    Move,
    Throw {
        from: Cell,
    },
    Card,
    /// The opponent returns a checker (after a checker card of his colour).
    Return,
    /// The opponent discards down to his checkers.
    Discard,
}

/// The state of a game of Tar Pit Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TarPitState {
    #[serde(with = "stored_position")]
    position: Position,
    /// The checker under each cell's piece, by owner.
    checkers: Vec<Option<Seat>>,
    /// Checkers in front of each player.
    supply: [u8; 2],
    hands: [Vec<Card>; 2],
    draw: Vec<Card>,
    discard: Vec<Card>,
    phase: Phase,
    /// The player whose turn it is (the position's turn passes only when the turn ends).
    mover: Seat,
    rng: u64,
    repetitions: Vec<u64>,
    moves: Vec<String>,
    last_move: Vec<Cell>,
    result: Option<Outcome>,
}

fn describe(card: Card) -> String {
    match card.face {
        Face::Piece(r) => format!("{} {}", card.side.colour_name().to_lowercase(), r.name()),
        Face::Checker => format!("{} checker", card.side.colour_name().to_lowercase()),
    }
}

fn cards_text(cards: &[Card]) -> String {
    let t: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    if t.is_empty() {
        "none".into()
    } else {
        t.join(" ")
    }
}

impl TarPitState {
    /// A new game from `position`, each player with `checkers` in front of him and
    /// `checker_cards` checker cards a colour in the deck.
    pub fn new(position: Position, checkers: [u8; 2], checker_cards: u8, seed: u64) -> Self {
        let mut deck: Vec<Card> = Card::deck()
            .into_iter()
            .filter(|c| c.face != Face::Checker)
            .collect();
        for side in [Seat::WHITE, Seat::BLACK] {
            for _ in 0..checker_cards {
                deck.push(Card {
                    side,
                    face: Face::Checker,
                });
            }
        }
        let len = position.board().len();
        let mut state = TarPitState {
            repetitions: Vec::new(),
            mover: position.turn(),
            position,
            checkers: vec![None; len],
            supply: checkers,
            hands: [Vec::new(), Vec::new()],
            draw: shuffled(deck, seed),
            discard: Vec::new(),
            phase: Phase::Move,
            rng: seed,
            moves: Vec::new(),
            last_move: Vec::new(),
            result: None,
        };
        for seat in [Seat::WHITE, Seat::BLACK] {
            state.draw_up(seat);
        }
        state.repetitions.push(state.repetition_key());
        state
    }

    /// A key equal for positions that count as the same for repetition: the chess position
    /// and the checker under each piece (tar changes how pieces move).
    fn repetition_key(&self) -> u64 {
        let mut key = self.position.repetition_key();
        for (i, c) in self.checkers.iter().enumerate() {
            if let Some(owner) = c {
                key = key.rotate_left(5)
                    ^ ((i as u64) << 8 | (1 + u64::from(owner.0)))
                        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
        }
        key
    }

    /// The checker under `cell`'s piece.
    pub fn checker(&self, cell: Cell) -> Option<Seat> {
        self.checkers.get(cell.index()).copied().flatten()
    }

    /// Checkers in front of each player.
    pub fn supply(&self) -> [u8; 2] {
        self.supply
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    fn next_seed(&mut self) -> u64 {
        crate::cards::next_seed(&mut self.rng)
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]): the opponent's hand
    /// and the draw pile, whose cards together are those missing from `seat`'s view (every
    /// card played or discarded is announced), are dealt again, each keeping its size, and
    /// the reshuffles to come are seeded afresh. The seat's own hand stays.
    fn determinized(&self, seat: Seat, seed: u64) -> TarPitState {
        let mut sample = self.clone();
        let mut stream = seed;
        let deal = crate::cards::next_seed(&mut stream);
        sample.rng = crate::cards::next_seed(&mut stream);
        let them = seat.opponent();
        redeal(
            &mut [&mut sample.hands[them.index()], &mut sample.draw],
            deal,
            |_, _, _| 0,
        );
        sample
    }

    /// Draws until `seat` holds a card per checker in front of him (reshuffling the discard
    /// pile when the draw pile runs out).
    fn draw_up(&mut self, seat: Seat) -> usize {
        let mut drawn = 0;
        while self.hands[seat.index()].len() < self.supply[seat.index()] as usize {
            if self.draw.is_empty() {
                if self.discard.is_empty() {
                    break;
                }
                let pile = std::mem::take(&mut self.discard);
                self.draw = shuffled(pile, self.next_seed());
            }
            if let Some(card) = self.draw.pop() {
                self.hands[seat.index()].push(card);
                drawn += 1;
            }
        }
        drawn
    }

    fn on_board(&self, seat: Seat) -> u8 {
        self.checkers.iter().filter(|c| **c == Some(seat)).count() as u8
    }

    fn extra(&self, seat: Seat) -> u8 {
        CHECKERS_PER_COLOUR
            .saturating_sub(self.supply[seat.index()])
            .saturating_sub(self.on_board(seat))
    }

    /// Whether the piece on `cell` is tarred (on its opponent's checker).
    fn tarred(&self, cell: Cell) -> bool {
        match (self.position.piece_at(cell), self.checker(cell)) {
            (Some(p), Some(c)) => p.seat != c,
            _ => false,
        }
    }

    /// The last rank for `seat`'s pieces moving forward.
    fn last_rank(&self, seat: Seat) -> i16 {
        if seat == Seat::WHITE {
            7
        } else {
            0
        }
    }

    fn rank(&self, cell: Cell) -> i16 {
        self.position.board().coord(cell).1
    }

    /// `seat`'s moves as tar lets them move, not yet judged for check.
    fn pseudo_moves(&self, seat: Seat) -> Vec<Move> {
        let mut pos = self.position.clone();
        pos.set_turn(seat);
        let mut out: Vec<Move> = pos
            .pseudo_legal_moves()
            .into_iter()
            .filter(|m| !self.tarred(m.from))
            .filter(|m| {
                // No castling with a checker on the king or the rook.
                !(m.kind == MoveKind::Castle
                    && (self.checker(m.from).is_some() || self.checker(m.to).is_some()))
            })
            .collect();
        let forward: i32 = if seat == Seat::WHITE { 1 } else { -1 };
        let board = self.position.board();
        for (cell, piece) in self.position.pieces() {
            if piece.seat != seat || !self.tarred(cell) || piece.role == Role::Pawn {
                continue;
            }
            let (f, r) = board.coord(cell);
            let at = |df: i32| board.at(i32::from(f) + df, i32::from(r) + forward);
            if let Some(to) = at(0).filter(|&t| self.position.piece_at(t).is_none()) {
                out.push(Move {
                    from: cell,
                    to,
                    kind: MoveKind::Normal,
                });
            }
            for df in [-1, 1] {
                let Some(to) = at(df) else { continue };
                match self.position.piece_at(to) {
                    Some(v) if v.seat != seat => out.push(Move {
                        from: cell,
                        to,
                        kind: MoveKind::Normal,
                    }),
                    None if self.ep_victim(seat, to).is_some() => out.push(Move {
                        from: cell,
                        to,
                        kind: MoveKind::EnPassant,
                    }),
                    _ => {}
                }
            }
        }
        out
    }

    /// The enemy pawn `seat` would take en passant by moving to `to`.
    fn ep_victim(&self, seat: Seat, to: Cell) -> Option<Cell> {
        self.position
            .en_passant()
            .iter()
            .find(|ep| {
                ep.army != seat.0
                    && ep.waiting >> seat.0 & 1 == 1
                    && (ep.skipped[0] == to || ep.skipped[1] == to)
            })
            .map(|ep| ep.pawn)
    }

    /// Whether `seat`'s king could be taken by the opponent now.
    fn in_check(&self, seat: Seat) -> bool {
        let Some(king) = self.position.king(seat) else {
            return true;
        };
        self.pseudo_moves(seat.opponent())
            .iter()
            .any(|m| m.to == king)
    }

    /// `seat`'s legal moves: those that leave his king safe.
    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        // Only the board matters to the trial moves: leave the cards and the history behind.
        let probe = TarPitState {
            position: self.position.clone(),
            checkers: self.checkers.clone(),
            hands: [Vec::new(), Vec::new()],
            draw: Vec::new(),
            discard: Vec::new(),
            repetitions: Vec::new(),
            moves: Vec::new(),
            last_move: Vec::new(),
            result: None,
            ..*self
        };
        self.pseudo_moves(seat)
            .into_iter()
            .filter(|&m| m.kind != MoveKind::Castle || probe.may_castle_past_attacks(seat, m))
            .filter(|&m| {
                let mut next = probe.clone();
                next.make_move(seat, m);
                !next.in_check(seat)
            })
            .collect()
    }

    /// "Win by checkmate, as in regular chess": castling follows chess, so the king may not
    /// castle out of check or across a square the opponent attacks (attacks as tar lets the
    /// opponent's pieces move). `m` is a castling move, written king takes rook.
    fn may_castle_past_attacks(&self, seat: Seat, m: Move) -> bool {
        if self.in_check(seat) {
            return false;
        }
        let board = self.position.board();
        let (king_file, rank) = board.coord(m.from);
        let rook_file = board.coord(m.to).0;
        let target_file: i16 = if rook_file > king_file { 6 } else { 2 };
        let step = (target_file - king_file).signum();
        let Some(king) = self.position.piece_at(m.from) else {
            return false;
        };
        let mut file = king_file + step;
        // The square the king lands on is judged with every other move.
        while file != target_file {
            let Some(cell) = board.at(i32::from(file), i32::from(rank)) else {
                return false;
            };
            let mut probe = self.clone();
            probe.position.set_piece(m.from, None);
            probe.position.set_piece(cell, Some(king));
            if probe.in_check(seat) {
                return false;
            }
            file += step;
        }
        true
    }

    /// Puts checker `c` under the piece on `cell`, combining with one already there: opposite
    /// colours cancel, the same colour repels one. Returned checkers go back to their owners;
    /// the players are told what came back.
    fn put_checker(&mut self, cell: Cell, c: Seat) -> Option<String> {
        match self.checker(cell) {
            None => {
                self.checkers[cell.index()] = Some(c);
                None
            }
            Some(there) if there == c => {
                self.supply[c.index()] += 1;
                Some(format!(
                    "two {} checkers on {} repel, one goes back to {}",
                    c.colour_name().to_lowercase(),
                    self.label(cell),
                    c.colour_name()
                ))
            }
            Some(there) => {
                self.checkers[cell.index()] = None;
                self.supply[c.index()] += 1;
                self.supply[there.index()] += 1;
                Some(format!(
                    "the white and the black checker on {} cancel, each goes back to its owner",
                    self.label(cell)
                ))
            }
        }
    }

    /// Adds checker `c` (thrown or played) to the piece on `cell`: on a piece already on its
    /// last rank it is removed at once, with the piece's own checker.
    fn add_checker(&mut self, cell: Cell, c: Seat) -> Option<String> {
        let piece = self.position.piece_at(cell)?;
        if piece.seat != c && self.rank(cell) == self.last_rank(piece.seat) {
            self.supply[c.index()] += 1;
            if self.checker(cell) == Some(piece.seat) {
                self.checkers[cell.index()] = None;
                self.supply[piece.seat.index()] += 1;
            }
            return Some(
                "the piece stands on its last rank, so the checker is removed at once".into(),
            );
        }
        self.put_checker(cell, c)
    }

    /// Makes move `m` for `seat` with its checkers: a moving piece brings its checker, a
    /// capturer keeps the captured piece's, a tarred piece on its last rank returns its tar.
    /// Returns what the players are told about checkers going back.
    fn make_move(&mut self, seat: Seat, m: Move) -> Vec<String> {
        let mover_checker = self.checker(m.from);
        let mut victim_cell = self.position.piece_at(m.to).map(|_| m.to);
        let ep = m.kind == MoveKind::EnPassant;
        if ep {
            victim_cell = self.ep_victim(seat, m.to);
        }
        let victim_checker = victim_cell.and_then(|c| self.checker(c));
        let moving_role = self.position.piece_at(m.from).map(|p| p.role);
        let mut pos = self.position.clone();
        pos.set_turn(seat);
        if ep && moving_role != Some(Role::Pawn) {
            // A tarred piece taking en passant: the pawn goes, the piece steps.
            let mut plain = m;
            plain.kind = MoveKind::Normal;
            pos.play_unchecked(plain);
            if let Some(v) = victim_cell {
                pos.set_piece(v, None);
            }
            // A capture all the same: the fifty-move count starts again.
            pos.set_counters(0, pos.fullmoves());
        } else {
            pos.play_unchecked(m);
        }
        self.position = pos;
        self.checkers[m.from.index()] = None;
        if let Some(v) = victim_cell {
            self.checkers[v.index()] = None;
        }
        let mut notes = Vec::new();
        if m.kind == MoveKind::Castle {
            return notes;
        }
        if let Some(c) = mover_checker {
            self.checkers[m.to.index()] = Some(c);
        }
        if let Some(c) = victim_checker {
            notes.extend(self.put_checker(m.to, c));
        }
        // A tarred piece that reached its last rank gives the tar back.
        if let Some(c) = self.checker(m.to) {
            if c != seat && self.rank(m.to) == self.last_rank(seat) {
                self.checkers[m.to.index()] = None;
                self.supply[c.index()] += 1;
                notes.push(format!(
                    "the {} on {} has reached its last rank, so the tar goes back to {}",
                    self.position
                        .piece_at(m.to)
                        .map_or("piece", |p| p.role.name()),
                    self.label(m.to),
                    c.colour_name()
                ));
            }
        }
        notes
    }

    fn to_act(&self) -> Option<Seat> {
        if self.result.is_some() {
            return None;
        }
        Some(match self.phase {
            Phase::Return | Phase::Discard => self.mover.opponent(),
            _ => self.mover,
        })
    }

    /// The cells a piece card lets `seat` add a checker to.
    fn card_targets(&self, seat: Seat, card: Card) -> Vec<Cell> {
        let Face::Piece(role) = card.face else {
            return Vec::new();
        };
        let matching: Vec<Cell> = self
            .position
            .pieces()
            .filter(|(_, p)| p.seat == card.side && p.role == role)
            .map(|(c, _)| c)
            .collect();
        if !matching.is_empty() {
            return matching;
        }
        // No piece left to match: any of the player's own pieces.
        self.position
            .pieces()
            .filter(|(_, p)| p.seat == seat)
            .map(|(c, _)| c)
            .collect()
    }

    fn actions(&self, seat: Seat) -> Vec<TarAction> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Move => self
                .legal_moves(seat)
                .into_iter()
                .map(TarAction::Move)
                .collect(),
            Phase::Throw { from } => self
                .throw_targets(from)
                .into_iter()
                .map(TarAction::Throw)
                .chain(std::iter::once(TarAction::NoThrow))
                .collect(),
            Phase::Card => {
                let mut hand = self.hands[seat.index()].clone();
                hand.sort();
                hand.dedup();
                let mut out = vec![TarAction::NoCard];
                for card in hand {
                    match card.face {
                        Face::Checker => out.push(TarAction::Card(card, None)),
                        Face::Piece(_) if self.supply[seat.index()] > 0 => out.extend(
                            self.card_targets(seat, card)
                                .into_iter()
                                .map(|c| TarAction::Card(card, Some(c))),
                        ),
                        Face::Piece(_) => {}
                    }
                }
                out
            }
            Phase::Return => {
                let mut out = Vec::new();
                if self.supply[seat.index()] > 0 {
                    out.push(TarAction::Return(None));
                }
                out.extend(
                    (0..self.checkers.len())
                        .filter(|&i| self.checkers[i] == Some(seat))
                        .map(|i| TarAction::Return(Some(Cell(i as u16)))),
                );
                out
            }
            Phase::Discard => {
                let mut hand = self.hands[seat.index()].clone();
                hand.sort();
                hand.dedup();
                hand.into_iter().map(TarAction::Discard).collect()
            }
        }
    }

    /// Neighbouring pieces a carried checker may be thrown to.
    fn throw_targets(&self, from: Cell) -> Vec<Cell> {
        let board = self.position.board();
        let (f, r) = board.coord(from);
        let mut out = Vec::new();
        for df in -1..=1 {
            for dr in -1..=1 {
                if (df, dr) == (0, 0) {
                    continue;
                }
                if let Some(c) = board.at(i32::from(f) + df, i32::from(r) + dr) {
                    if self.position.piece_at(c).is_some() {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    fn label(&self, cell: Cell) -> String {
        self.position.board().label(cell).to_string()
    }

    fn action_text(&self, action: &TarAction) -> String {
        match *action {
            TarAction::Move(m) => {
                let mut pos = self.position.clone();
                pos.set_turn(self.mover);
                pos.san_plain_among(m, &self.legal_moves(self.mover))
            }
            TarAction::Throw(c) => format!("throw {}", self.label(c)),
            TarAction::NoThrow => "no throw".into(),
            TarAction::Card(card, Some(c)) => format!("{card} {}", self.label(c)),
            TarAction::Card(card, None) => card.to_string(),
            TarAction::NoCard => "no card".into(),
            TarAction::Return(None) => "return supply".into(),
            TarAction::Return(Some(c)) => format!("return {}", self.label(c)),
            TarAction::Discard(card) => format!("discard {card}"),
        }
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<TarAction, GameError> {
        let refuse = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        };
        if self.to_act() != Some(seat) {
            return Err(GameError::NotYourTurn(self.waiting_text()));
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let lower = text.trim().to_ascii_lowercase();
        let cell = |w: &str| {
            self.position
                .board()
                .cell(&w.to_ascii_lowercase())
                .ok_or_else(|| refuse(format!("'{w}' is not a square")))
        };
        match self.phase {
            Phase::Move => {
                let moves = self.legal_moves(seat);
                let mut pos = self.position.clone();
                pos.set_turn(seat);
                match pos.parse_move_among(text.trim(), &moves) {
                    Ok(m) => Ok(TarAction::Move(m)),
                    Err(e) => {
                        // What chess alone would allow tells which Tar Pit rule refuses it.
                        // Castling is read among the moves that ignore attacks: with a checker
                        // on king or rook, attacked squares are not the reason.
                        let castle = pos
                            .parse_move_among(text.trim(), &pos.pseudo_legal_moves())
                            .ok()
                            .filter(|m| m.kind == MoveKind::Castle);
                        if let Some(m) = castle {
                            let carrying = [m.from, m.to]
                                .into_iter()
                                .find(|&c| self.checker(c).is_some());
                            if let Some(c) = carrying {
                                return Err(refuse(format!(
                                    "you may not castle while the king or the rook has a \
                                     checker, and the {} on {} has one",
                                    pos.piece_at(c).map_or("piece", |p| p.role.name()),
                                    self.label(c)
                                )));
                            }
                        }
                        let tarred = pos
                            .parse_move(text.trim())
                            .ok()
                            .filter(|m| self.tarred(m.from));
                        match tarred {
                            Some(m) => Err(refuse(format!(
                                "the {} on {} is tarred: {}",
                                pos.piece_at(m.from).map_or("piece", |p| p.role.name()),
                                self.label(m.from),
                                if pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn) {
                                    "a tarred pawn cannot move"
                                } else {
                                    "it moves like a pawn, one square forward or taking one \
                                     square diagonally forward"
                                }
                            ))),
                            None => Err(GameError::Move(e)),
                        }
                    }
                }
            }
            Phase::Throw { from } => {
                if matches!(lower.as_str(), "no throw" | "no" | "keep" | "pass") {
                    return Ok(TarAction::NoThrow);
                }
                let target = words.last().ok_or_else(|| refuse("name a square".into()))?;
                let c = cell(target)?;
                if !self.throw_targets(from).contains(&c) {
                    return Err(refuse(format!(
                        "tar is thrown one king step from {} onto a piece: {}",
                        self.label(from),
                        self.throw_targets(from)
                            .iter()
                            .map(|&c| self.label(c))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                Ok(TarAction::Throw(c))
            }
            Phase::Card => {
                if matches!(lower.as_str(), "no card" | "none" | "pass" | "no") {
                    return Ok(TarAction::NoCard);
                }
                let hand = &self.hands[seat.index()];
                let letter = words.first().and_then(|w| {
                    let mut cs = w.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => Card::from_letter(c),
                        _ => None,
                    }
                });
                let Some(card) = letter else {
                    return Err(refuse(format!(
                        "play a card by its letter and the square of the piece (N e4; C for a \
                         checker card), or no card; your hand: {}",
                        cards_text(hand)
                    )));
                };
                if !hand.contains(&card) {
                    return Err(refuse(format!(
                        "you do not hold a {} card; your hand: {}",
                        describe(card),
                        cards_text(hand)
                    )));
                }
                if card.face == Face::Checker {
                    return Ok(TarAction::Card(card, None));
                }
                if self.supply[seat.index()] == 0 {
                    return Err(refuse("you have no checker in front of you to add".into()));
                }
                let Some(target) = words.get(1) else {
                    return Err(refuse(format!(
                        "say which {} gets the checker, like {card} {}",
                        describe(card),
                        self.card_targets(seat, card)
                            .first()
                            .map_or("e4".into(), |&c| self.label(c))
                    )));
                };
                let c = cell(target)?;
                if !self.card_targets(seat, card).contains(&c) {
                    return Err(refuse(format!(
                        "the {} card adds a checker only to a {} (any of yours if none is left)",
                        describe(card),
                        describe(card)
                    )));
                }
                Ok(TarAction::Card(card, Some(c)))
            }
            Phase::Return => {
                let target = words.last().copied().unwrap_or("");
                if matches!(target, "supply" | "front" | "hand") || lower == "return" {
                    if self.supply[seat.index()] == 0 {
                        return Err(refuse(
                            "you have no checker in front of you: return one from the board".into(),
                        ));
                    }
                    return Ok(TarAction::Return(None));
                }
                let c = cell(target)?;
                if self.checker(c) != Some(seat) {
                    return Err(refuse(format!(
                        "there is no checker of yours on {}",
                        self.label(c)
                    )));
                }
                Ok(TarAction::Return(Some(c)))
            }
            Phase::Discard => {
                let word = words.last().copied().unwrap_or("");
                let mut cs = word.chars();
                let card = match (cs.next(), cs.next()) {
                    (Some(c), None) => Card::from_letter(c),
                    _ => None,
                }
                .filter(|c| self.hands[seat.index()].contains(c))
                .ok_or_else(|| {
                    refuse(format!(
                        "discard a card of your hand: {}",
                        cards_text(&self.hands[seat.index()])
                    ))
                })?;
                Ok(TarAction::Discard(card))
            }
        }
    }

    fn waiting_text(&self) -> String {
        match self.to_act() {
            None => "the game is over".into(),
            Some(s) => match self.phase {
                Phase::Return => format!("{} is returning a checker", s.colour_name()),
                Phase::Discard => format!("{} is discarding", s.colour_name()),
                _ => format!("{} is playing", s.colour_name()),
            },
        }
    }

    fn apply(&mut self, seat: Seat, action: TarAction) -> Result<Vec<Event>, GameError> {
        if !self.actions(seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(&action),
                reason: "it is not a possible choice now".into(),
            }));
        }
        let mut said = Vec::new();
        match action {
            TarAction::Move(m) => {
                let written = self.action_text(&action);
                let quiet = self.position.piece_at(m.from).map(|p| p.role) != Some(Role::Pawn)
                    && !self.position.is_capture(m)
                    && m.kind != MoveKind::EnPassant;
                let notes = self.make_move(seat, m);
                if !quiet {
                    self.repetitions.clear();
                }
                self.last_move = vec![m.from, m.to];
                self.moves.push(written.clone());
                let mut line = format!("{} plays {written}", seat.colour_name());
                let to = if m.kind == MoveKind::Castle {
                    None
                } else {
                    Some(m.to)
                };
                match to.and_then(|t| self.checker(t)) {
                    Some(c) if c == seat => line.push_str(" (carrying tar)"),
                    Some(_) => line.push_str(" (tarred)"),
                    None => {}
                }
                if !notes.is_empty() {
                    line.push_str(": ");
                    line.push_str(&notes.join("; "));
                }
                line.push('.');
                said.push(line);
                // A throw needs a neighbouring piece to land on; with none there is nothing to
                // ask.
                self.phase = match to {
                    Some(t)
                        if self.checker(t) == Some(seat) && !self.throw_targets(t).is_empty() =>
                    {
                        Phase::Throw { from: t }
                    }
                    _ => Phase::Card,
                };
            }
            TarAction::Throw(c) => {
                let Phase::Throw { from } = self.phase else {
                    unreachable!("throws are offered only after a carrying move");
                };
                self.checkers[from.index()] = None;
                let removed = self.add_checker(c, seat);
                said.push(format!(
                    "{} throws the tar from {} onto {}{}.",
                    seat.colour_name(),
                    self.label(from),
                    self.label(c),
                    removed.map_or(String::new(), |r| format!(": {r}"))
                ));
                self.phase = Phase::Card;
            }
            TarAction::NoThrow => {
                if let Phase::Throw { from } = self.phase {
                    said.push(format!(
                        "{} keeps the tar on {}.",
                        seat.colour_name(),
                        self.label(from)
                    ));
                }
                self.phase = Phase::Card;
            }
            TarAction::Card(card, target) => {
                if let Some(i) = self.hands[seat.index()].iter().position(|&c| c == card) {
                    self.hands[seat.index()].remove(i);
                }
                self.discard.push(card);
                match (card.face, target) {
                    (Face::Piece(_), Some(c)) => {
                        self.supply[seat.index()] -= 1;
                        let removed = self.add_checker(c, seat);
                        said.push(format!(
                            "{} plays the {} card: a checker on {}{}.",
                            seat.colour_name(),
                            describe(card),
                            self.label(c),
                            removed.map_or(String::new(), |r| format!(" ({r})"))
                        ));
                    }
                    _ if card.side == seat => {
                        if self.extra(seat) > 0 {
                            self.supply[seat.index()] += 1;
                        }
                        said.push(format!(
                            "{} plays the {} card and takes a checker.",
                            seat.colour_name(),
                            describe(card)
                        ));
                    }
                    _ => {
                        let opp = seat.opponent();
                        said.push(format!(
                            "{} plays the {} card: {} must return a checker.",
                            seat.colour_name(),
                            describe(card),
                            opp.colour_name()
                        ));
                        if self.supply[opp.index()] + self.on_board(opp) > 0 {
                            self.phase = Phase::Return;
                            return Ok(said.into_iter().map(Event::Public).collect());
                        }
                    }
                }
                self.end_turn(&mut said);
            }
            TarAction::NoCard => {
                said.push(format!("{}: no card.", seat.colour_name()));
                self.end_turn(&mut said);
            }
            TarAction::Return(from) => {
                match from {
                    None => self.supply[seat.index()] -= 1,
                    Some(c) => self.checkers[c.index()] = None,
                }
                said.push(format!(
                    "{} returns a checker {}.",
                    seat.colour_name(),
                    from.map_or("from in front of them".into(), |c| format!(
                        "from {}",
                        self.label(c)
                    ))
                ));
                self.discard_or_end(&mut said);
            }
            TarAction::Discard(card) => {
                if let Some(i) = self.hands[seat.index()].iter().position(|&c| c == card) {
                    self.hands[seat.index()].remove(i);
                }
                self.discard.push(card);
                said.push(format!(
                    "{} discards the {} card.",
                    seat.colour_name(),
                    describe(card)
                ));
                self.discard_or_end(&mut said);
            }
        }
        let mut events: Vec<Event> = said.into_iter().map(Event::Public).collect();
        if let Some(o) = &self.result {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    /// After a checker was returned: the opponent discards down to his checkers, then the turn
    /// ends.
    fn discard_or_end(&mut self, said: &mut Vec<String>) {
        let opp = self.mover.opponent();
        if self.hands[opp.index()].len() > self.supply[opp.index()] as usize {
            self.phase = Phase::Discard;
            return;
        }
        self.end_turn(said);
    }

    fn end_turn(&mut self, said: &mut Vec<String>) {
        let seat = self.mover;
        let drawn = self.draw_up(seat);
        if drawn > 0 {
            said.push(format!(
                "{} draws {drawn} card{}.",
                seat.colour_name(),
                if drawn == 1 { "" } else { "s" }
            ));
        }
        let next = seat.opponent();
        self.mover = next;
        // The move already passed the position's turn (and counted it): passing again would
        // wipe out the long step just made, which the opponent may take en passant now.
        self.position.set_turn(next);
        self.phase = Phase::Move;
        self.repetitions.push(self.repetition_key());
        if self.legal_moves(next).is_empty() {
            self.result = Some(if self.in_check(next) {
                Outcome::win(vec![seat], EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        } else if self.position.pieces().all(|(_, p)| p.role == Role::King) {
            self.result = Some(Outcome::draw(EndReason::InsufficientMaterial));
        } else if let Some(draw) = counting_draws_by(
            self.position.halfmoves(),
            100,
            self.repetition_key(),
            &self.repetitions,
        ) {
            self.result = Some(draw);
        }
    }

    fn prompts(&self) -> Vec<Prompt> {
        let Some(seat) = self.to_act() else {
            return Vec::new();
        };
        let text = match self.phase {
            Phase::Move => format!("{} to move", seat.colour_name()),
            Phase::Throw { from } => format!(
                "throw the tar from {} onto a neighbouring piece (/move throw f3), or /move no \
                 throw",
                self.label(from)
            ),
            Phase::Card => "play a card (/move N e4, /move C) or /move no card; your hand is \
                            in /board"
                .into(),
            Phase::Return => {
                "return one of your checkers: /move return supply, or /move return e4".into()
            }
            Phase::Discard => "discard down to your checkers: /move discard N".into(),
        };
        vec![Prompt {
            seat,
            kind: PromptKind::Move,
            text,
        }]
    }

    fn card_rows(&self, viewer: Viewer) -> Vec<CardRow> {
        let mut rows = Vec::new();
        for seat in [Seat::WHITE, Seat::BLACK] {
            let hand = Pile::new(Visibility::Held(seat), self.hands[seat.index()].clone());
            rows.push(CardRow {
                title: format!("{} hand", seat.colour_name()),
                cards: hand.seen_by(viewer),
            });
        }
        rows.push(CardRow {
            title: "Discarded".into(),
            cards: self.discard.last().map(|&c| Some(c)).into_iter().collect(),
        });
        rows
    }

    fn status(&self) -> String {
        if let Some(o) = &self.result {
            return o.to_string();
        }
        format!(
            "{}. Checkers in front: White {}, Black {}; draw pile {}",
            self.waiting_text(),
            self.supply[0],
            self.supply[1],
            self.draw.len()
        )
    }
}

/// A numeric option of the set-up (the book's variants: more or fewer checkers and checker
/// cards, handicaps).
fn checkers_option(
    key: &'static str,
    help: &'static str,
    default: Option<&'static str>,
    min: i64,
    max: i64,
) -> OptionSpec {
    OptionSpec {
        key,
        help,
        default,
        values: OptionValues::Number {
            min,
            max,
            words: &[],
        },
    }
}

impl Game for TarPit {
    type State = TarPitState;
    type Action = TarAction;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "tar-pit",
            aliases: &["tar-pit-chess", "tarpit"],
            name: "Tar Pit Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![
                fen_option(),
                checkers_option(
                    "checkers",
                    "checkers each player starts with in front of him (the book: 6)",
                    Some("6"),
                    1,
                    10,
                ),
                checkers_option(
                    "white_checkers",
                    "a handicap: White's own starting checkers (instead of checkers=)",
                    None,
                    1,
                    10,
                ),
                checkers_option(
                    "black_checkers",
                    "a handicap: Black's own starting checkers (instead of checkers=)",
                    None,
                    1,
                    10,
                ),
                checkers_option(
                    "checker_cards",
                    "checker cards of each colour in the deck (the book: 2)",
                    Some("2"),
                    0,
                    4,
                ),
            ],
            hidden_information: true,
            simultaneous: false,
            rules: "Each player has checkers in front of him (6) and a hand of one card per \
                    checker, from a deck of a card per piece and two checker cards a colour. A \
                    turn: move; if the moved piece carries your checker you may throw it one \
                    king step onto a neighbouring piece (/move throw f3, or /move no throw); you \
                    may play a card (/move N e4 adds your checker to a piece matching the card, \
                    any of yours if none is left; /move C plays a checker card; /move no card); \
                    then you draw up to one card per checker in front of you. Your piece on your \
                    checker carries tar and moves normally; on the opponent's it is tarred: a \
                    pawn cannot move, other pieces move like pawns (no double step, en passant \
                    allowed), and reaching the last rank gives the tar back. A checker added to \
                    a piece on its last rank is removed with the piece's own. Your checker card \
                    takes a checker from the extra pile; the opponent's makes him return one \
                    (/move return supply or /move return e4) and discard down to his checkers. \
                    A capturer keeps the captured piece's checker; opposite checkers cancel, \
                    same ones repel one. No castling with a checker on king or rook, nor (as in \
                    chess) out of or through check. Checkmate wins. Options: checkers=, \
                    white_checkers=, black_checkers= (handicaps), checker_cards=. Interpretations: the back rank of a tarred piece is its \
                    last rank; throwing counts as adding for the last-rank rule; no piece card \
                    without a checker in front of you; returned checkers go back in front of \
                    their owners; stalemate, fifty moves, repetition (the same pieces on the \
                    same checkers) and bare kings draw.",
            source: "Chess Kit, 'Tar Pit Chess'",
        })
    }

    fn setup(&self, options: &Options, _seats: usize, seed: u64) -> Result<TarPitState, GameError> {
        let position = start_from_options(options)?;
        let num = |key: &str| options.get(key).and_then(|v| v.parse::<u8>().ok());
        let base = num("checkers").unwrap_or(6);
        let checkers = [
            num("white_checkers").unwrap_or(base),
            num("black_checkers").unwrap_or(base),
        ];
        let cards = num("checker_cards").unwrap_or(2);
        Ok(TarPitState::new(position, checkers, cards, seed))
    }

    fn prompts(&self, state: &TarPitState) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &TarPitState, seat: Seat) -> Vec<TarAction> {
        state.actions(seat)
    }

    fn action_text(&self, state: &TarPitState, action: &TarAction) -> String {
        state.action_text(action)
    }

    fn legal_texts(&self, state: &TarPitState, seat: Seat) -> Vec<String> {
        let mut pos = state.position.clone();
        pos.set_turn(seat);
        texts_among_moves(&pos, &state.actions(seat), |a| state.action_text(a))
    }

    fn parse(&self, state: &TarPitState, seat: Seat, text: &str) -> Result<TarAction, GameError> {
        state.parse(seat, text)
    }

    fn apply(
        &self,
        state: &mut TarPitState,
        seat: Seat,
        action: TarAction,
    ) -> Result<Vec<Event>, GameError> {
        state.apply(seat, action)
    }

    fn view(&self, state: &TarPitState, viewer: Viewer) -> View {
        let mut view = board_view(self.info().id, &state.position, viewer);
        // Checkers drawn under the pieces.
        for placed in &mut view.figures {
            if let Some(owner) = state.checker(placed.cell) {
                placed.markers.push(Marker::Checker(owner));
            }
        }
        view.status = state.status();
        view.last_move = state.last_move.clone();
        view.to_act = state.to_act().into_iter().collect();
        view.checks = [Seat::WHITE, Seat::BLACK]
            .into_iter()
            .filter(|&s| state.result.is_none() && state.mover == s && state.in_check(s))
            .filter_map(|s| state.position.king(s))
            .collect();
        view.cards = state.card_rows(viewer);
        view
    }

    fn outcome(&self, state: &TarPitState) -> Option<Outcome> {
        state.result.clone()
    }

    fn determinize(&self, state: &TarPitState, seat: Seat, seed: u64) -> TarPitState {
        state.determinized(seat, seed)
    }

    fn secret_history(&self, state: &TarPitState) -> Vec<String> {
        [Seat::WHITE, Seat::BLACK]
            .into_iter()
            .map(|s| {
                format!(
                    "{}'s hand: {}.",
                    s.colour_name(),
                    cards_text(&state.hands[s.index()])
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;

//! Adrenaline Chess (Don Kirkby, *Chess Kit*).
//!
//! "All the regular chess rules apply, plus you must give an adrenaline rush after captures."
//! - If you captured one or more pieces, end your turn by placing a checker under one of your
//!   opponent's remaining pieces (one checker a turn, whatever was captured).
//! - A piece with checkers makes a regular move, bringing them along; then it may spend them
//!   one at a time on extra moves like a king, which may capture.
//! - A capturing piece keeps the captured piece's checkers and may use them at once.
//!
//! The passage cut from our copy (restored in RULES-NOTES): no castling if king or rook carries
//! checkers, and the king may not pass squares attackable with extra moves; en passant only
//! after a regular two-square pawn move, never by an extra move; a pawn reaching the last rank
//! promotes at once and may go on stepping; no move may expose your king even if an extra move
//! would then block; checkmate as in chess, counting threats made with extra moves.
//!
//! A turn is played as several actions, so that no list of choices explodes: the regular move,
//! then each extra step (`>d2`, `>xd2`, `>d8=Q`) or `stop`, then the placement (`@h7`).
//!
//! Interpretations: "check" is any way an enemy piece could reach the king in its next turn
//! (regular move, then extra steps with its own and any captured checkers); every action must
//! leave your king out of check, and an action is allowed only if the turn can still be ended
//! legally (so a capture is refused when every placement would expose your king); a checker
//! may go under any enemy piece, the king included; only two bare kings draw by material.

use serde::{Deserialize, Serialize};

use crate::board::{Cell, Dir};
use crate::chess::{Move, MoveKind, MoveParseError, Piece, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{Marker, View, Viewer};

use super::chess::{
    action_perft, board_view, counting_draws_by, fen_option, played_line, start_from_options,
};

/// Adrenaline Chess.
pub struct Adrenaline;

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// A regular chess move is next (a new turn).
    Move,
    /// The piece on `at` may spend its checkers on extra king steps; `captured` says whether
    /// the turn has captured anything yet.
    Steps {
        #[serde(with = "square")]
        at: Cell,
        captured: bool,
    },
    /// The turn captured: a checker goes under one of the opponent's pieces.
    Place,
}

/// One action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The regular move.
    Move(Move),
    /// An extra king step of the moved piece, promoting a pawn that reaches its last rank.
    Step { to: Cell, promotion: Option<Role> },
    /// No more extra steps.
    Stop,
    /// A checker under this enemy piece.
    Place(Cell),
}

/// A game of Adrenaline Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AdrenalineState {
    position: Position,
    /// Checkers under pieces, by square.
    #[serde(with = "charges")]
    adrenaline: Vec<u8>,
    stage: Stage,
    /// The turns played, each as its actions.
    moves: Vec<String>,
    /// The actions of the turn under way.
    turn_so_far: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    seed: u64,
    /// Pawns standing on their first row again after extra steps: they have moved, so they
    /// may not step two squares ("all the regular chess rules apply").
    #[serde(default, with = "squares", skip_serializing_if = "Vec::is_empty")]
    moved_pawns: Vec<Cell>,
}

fn chess_board() -> std::sync::Arc<crate::board::Board> {
    crate::chess::Rules::chess().board_arc().clone()
}

/// A square stored by its name.
mod square {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cell: &Cell, s: S) -> Result<S::Ok, S::Error> {
        chess_board().label(*cell).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let label = String::deserialize(d)?;
        chess_board()
            .cell(&label)
            .ok_or_else(|| serde::de::Error::custom(format!("no square {label}")))
    }
}

/// Squares stored by their names.
mod squares {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cells: &[Cell], s: S) -> Result<S::Ok, S::Error> {
        let board = chess_board();
        let labels: Vec<&str> = cells.iter().map(|c| board.label(*c)).collect();
        labels.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Cell>, D::Error> {
        let board = chess_board();
        let labels = Vec::<String>::deserialize(d)?;
        labels
            .iter()
            .map(|label| {
                board
                    .cell(label)
                    .ok_or_else(|| serde::de::Error::custom(format!("no square {label}")))
            })
            .collect()
    }
}

/// Checkers stored as `{"c1": 3}`.
mod charges {
    use super::*;
    use serde::{Deserializer, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(counts: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let board = chess_board();
        let map: BTreeMap<&str, u8> = counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| (board.label(Cell(i as u16)), *n))
            .collect();
        map.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let board = chess_board();
        let map = BTreeMap::<String, u8>::deserialize(d)?;
        let mut counts = vec![0; board.len()];
        for (label, n) in map {
            let cell = board
                .cell(&label)
                .ok_or_else(|| serde::de::Error::custom(format!("no square {label}")))?;
            counts[cell.index()] = n;
        }
        Ok(counts)
    }
}

/// The eight king steps.
fn neighbours(pos: &Position, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
    let board = pos.board();
    (0..board.dir_count()).filter_map(move |d| {
        let to = board.step(cell, Dir(d as u8))?;
        let (f, r) = board.coord(cell);
        let (tf, tr) = board.coord(to);
        ((f - tf).abs() <= 1 && (r - tr).abs() <= 1).then_some(to)
    })
}

fn distance(pos: &Position, a: Cell, b: Cell) -> u32 {
    let (af, ar) = pos.board().coord(a);
    let (bf, br) = pos.board().coord(b);
    (af - bf).unsigned_abs().max((ar - br).unsigned_abs()) as u32
}

/// Whether `seat`'s king could be taken by the other side's next turn: by a regular capture,
/// or by a regular move followed by extra king steps paid with the mover's checkers and those
/// of everything it captures on the way. `moved_pawns` stand on their first row but may not
/// step two.
pub(crate) fn king_threatened(
    pos: &Position,
    charges: &[u8],
    moved_pawns: &[Cell],
    seat: Seat,
) -> bool {
    let Some(king) = pos.king(seat) else {
        return false;
    };
    if pos.is_attacked(king, seat) {
        return true;
    }
    if charges.iter().all(|n| *n == 0) {
        return false;
    }
    let enemy = Seat(1 - seat.0);
    // Checkers the attacker could still pick up from the defender's pieces.
    let spoils: u32 = pos
        .cells_of(seat)
        .iter()
        .map(|c| charges[c.index()] as u32)
        .sum();
    let mut attacker = pos.clone();
    attacker.set_turn(enemy);
    let mut seen: Vec<(Cell, Cell)> = Vec::new();
    for m in attacker.pseudo_legal_moves() {
        if m.kind == MoveKind::Castle || seen.contains(&(m.from, m.to)) {
            continue;
        }
        if m.kind == MoveKind::DoubleStep && moved_pawns.contains(&m.from) {
            continue;
        }
        seen.push((m.from, m.to));
        let victim = capture_square(&attacker, m);
        let gained = victim.map_or(0, |v| charges[v.index()] as u32);
        let budget = charges[m.from.index()] as u32 + gained;
        if budget == 0 || distance(pos, m.to, king) > budget + spoils - gained.min(spoils) {
            continue;
        }
        // The board during the steps: the mover has left its square, its victim is gone.
        let mut board: Vec<Option<Piece>> = pos.board().cells().map(|c| pos.piece_at(c)).collect();
        board[m.from.index()] = None;
        if let Some(v) = victim {
            board[v.index()] = None;
        }
        board[m.to.index()] = None;
        let mut search = StepSearch {
            pos,
            charges,
            board,
            king,
            seat,
            seen: Default::default(),
        };
        if search.reaches(m.to, budget, spoils.saturating_sub(gained), 0) {
            return true;
        }
    }
    false
}

/// The square whose piece a move captures, if any.
fn capture_square(pos: &Position, m: Move) -> Option<Cell> {
    if m.kind == MoveKind::Castle {
        // `to` names the castling rook, which is not taken.
        return None;
    }
    if m.kind == MoveKind::EnPassant {
        // The victim stands beside the landing square, on the mover's starting rank.
        let board = pos.board();
        let (tf, _) = board.coord(m.to);
        let (_, fr) = board.coord(m.from);
        return board.at(tf as i32, fr as i32);
    }
    pos.piece_at(m.to).map(|_| m.to)
}

/// Depth-first search of extra king steps toward a king.
struct StepSearch<'a> {
    pos: &'a Position,
    charges: &'a [u8],
    /// The pieces still on the board (the stepping piece is not among them).
    board: Vec<Option<Piece>>,
    king: Cell,
    /// The defender.
    seat: Seat,
    /// The biggest budget each (square, pieces taken) was searched with.
    seen: std::collections::HashMap<(Cell, u64), u32>,
}

impl StepSearch<'_> {
    /// Whether a piece on `at` with `budget` steps (and up to `spoils` more checkers to pick
    /// up) reaches the king. `taken` marks the defender's pieces carrying checkers already
    /// taken on this path (their squares are empty now); a state already searched with as big
    /// a budget is not searched again, which keeps long stacks of checkers cheap.
    fn reaches(&mut self, at: Cell, budget: u32, spoils: u32, taken: u64) -> bool {
        if budget == 0 || distance(self.pos, at, self.king) > budget + spoils {
            return false;
        }
        match self.seen.get(&(at, taken)) {
            Some(&best) if best >= budget => return false,
            _ => {
                self.seen.insert((at, taken), budget);
            }
        }
        let steps: Vec<Cell> = neighbours(self.pos, at).collect();
        if steps.contains(&self.king) {
            return true;
        }
        for to in steps {
            match self.board[to.index()] {
                None => {
                    if self.reaches(to, budget - 1, spoils, taken) {
                        return true;
                    }
                }
                Some(p) if p.seat == self.seat => {
                    let gain = self.charges[to.index()] as u32;
                    let mark = if gain > 0 && to.index() < 64 {
                        1u64 << to.index()
                    } else {
                        0
                    };
                    self.board[to.index()] = None;
                    let found = self.reaches(
                        to,
                        budget - 1 + gain,
                        spoils - gain.min(spoils),
                        taken | mark,
                    );
                    self.board[to.index()] = Some(p);
                    if found {
                        return true;
                    }
                }
                Some(_) => {}
            }
        }
        false
    }
}

impl AdrenalineState {
    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// Checkers under the piece on `cell`.
    pub fn checkers_at(&self, cell: Cell) -> u8 {
        self.adrenaline[cell.index()]
    }
    /// Where the turn stands.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The side acting now.
    pub fn actor(&self) -> Seat {
        match self.stage {
            Stage::Move => self.position.turn(),
            _ => Seat(1 - self.position.turn().0),
        }
    }

    fn king_safe(&self, seat: Seat) -> bool {
        !king_threatened(&self.position, &self.adrenaline, &self.moved_pawns, seat)
    }

    /// The state after an action known to be well formed (legality is asked separately).
    fn after(&self, action: Action) -> AdrenalineState {
        // Without the game's record: copying it for every action tried would cost as much as
        // the game is long.
        let mut next = AdrenalineState {
            position: self.position.clone(),
            adrenaline: self.adrenaline.clone(),
            stage: self.stage,
            moves: Vec::new(),
            turn_so_far: Vec::new(),
            repetitions: Vec::new(),
            last_move: Vec::new(),
            seed: self.seed,
            moved_pawns: self.moved_pawns.clone(),
        };
        next.do_action(action);
        next
    }

    fn do_action(&mut self, action: Action) {
        match action {
            Action::Move(m) => {
                let victim = capture_square(&self.position, m);
                let carried = self.adrenaline[m.from.index()]
                    .saturating_add(victim.map_or(0, |v| self.adrenaline[v.index()]));
                self.adrenaline[m.from.index()] = 0;
                if let Some(v) = victim {
                    self.adrenaline[v.index()] = 0;
                }
                // A pawn back on its first row leaves it by this move, or is taken.
                self.moved_pawns
                    .retain(|&c| c != m.from && Some(c) != victim);
                let lands = match m.kind {
                    MoveKind::Castle => None,
                    _ => Some(m.to),
                };
                self.position.play_unchecked(m);
                let captured = victim.is_some();
                match lands {
                    Some(at) if carried > 0 => {
                        self.adrenaline[at.index()] = carried;
                        self.stage = Stage::Steps { at, captured };
                    }
                    _ if captured => self.stage = Stage::Place,
                    _ => self.stage = Stage::Move,
                }
            }
            Action::Step { to, promotion } => {
                let Stage::Steps { at, captured } = self.stage else {
                    return;
                };
                let mover = self.position.piece_at(at);
                let victim = self.position.piece_at(to);
                let left = self.adrenaline[at.index()]
                    .saturating_sub(1)
                    .saturating_add(self.adrenaline[to.index()]);
                self.adrenaline[at.index()] = 0;
                self.adrenaline[to.index()] = left;
                let landed = mover.map(|p| Piece {
                    seat: p.seat,
                    role: promotion.unwrap_or(p.role),
                });
                self.position.set_piece(at, None);
                self.position.set_piece(to, landed);
                self.moved_pawns.retain(|&c| c != at && c != to);
                if let Some(p) = mover.filter(|p| p.role == Role::Pawn && promotion.is_none()) {
                    if self
                        .position
                        .rules()
                        .double_step_cells(p.seat.index())
                        .contains(to)
                    {
                        self.moved_pawns.push(to);
                    }
                }
                if victim.is_some() || mover.is_some_and(|p| p.role == Role::Pawn) {
                    let full = self.position.fullmoves();
                    self.position.set_counters(0, full);
                }
                let captured = captured || victim.is_some();
                self.stage = if left > 0 {
                    Stage::Steps { at: to, captured }
                } else if captured {
                    Stage::Place
                } else {
                    Stage::Move
                };
            }
            Action::Stop => {
                if let Stage::Steps { captured, .. } = self.stage {
                    self.stage = if captured { Stage::Place } else { Stage::Move };
                }
            }
            Action::Place(cell) => {
                self.adrenaline[cell.index()] = self.adrenaline[cell.index()].saturating_add(1);
                self.stage = Stage::Move;
            }
        }
    }

    /// The well-formed actions of the stage, legal or not.
    fn candidates(&self) -> Vec<Action> {
        let pos = &self.position;
        let us = self.actor();
        match self.stage {
            Stage::Move => pos
                .pseudo_legal_moves()
                .into_iter()
                .map(Action::Move)
                .collect(),
            Stage::Steps { at, .. } => {
                let mut out = vec![Action::Stop];
                let pawn = pos.piece_at(at).is_some_and(|p| p.role == Role::Pawn);
                for to in neighbours(pos, at) {
                    match pos.piece_at(to) {
                        Some(p) if p.seat == us || p.role == Role::King => continue,
                        _ => {}
                    }
                    if pawn && pos.rules().promotion_zone(us.index()).contains(to) {
                        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            out.push(Action::Step {
                                to,
                                promotion: Some(role),
                            });
                        }
                    } else {
                        out.push(Action::Step {
                            to,
                            promotion: None,
                        });
                    }
                }
                out
            }
            Stage::Place => pos
                .cells_of(Seat(1 - us.0))
                .iter()
                .map(Action::Place)
                .collect(),
        }
    }

    /// Why an action of the stage is refused, or `None` if it is legal.
    fn refusal(&self, action: Action) -> Option<&'static str> {
        let us = self.actor();
        if let Action::Move(m) = action {
            if m.kind == MoveKind::DoubleStep && self.moved_pawns.contains(&m.from) {
                return Some(
                    "a pawn steps two squares only on its first move, and this one has moved (it \
                     came back to its first row by extra steps)",
                );
            }
            if m.kind == MoveKind::Castle {
                if self.adrenaline[m.from.index()] > 0 || self.adrenaline[m.to.index()] > 0 {
                    return Some("no castling while the king or that rook carries adrenaline");
                }
                if !self.king_safe(us) {
                    return Some("the king may not castle out of check");
                }
                let crossed = self.position.castle_path(m);
                let unsafe_path = crossed.iter().any(|&c| {
                    c != m.to
                        && self.position.check_if_king_stood(us, c, |p| {
                            king_threatened(p, &self.adrenaline, &self.moved_pawns, us)
                        })
                });
                if unsafe_path {
                    return Some(
                        "the king may not pass a square it could be taken on (counting extra \
                         king steps)",
                    );
                }
            }
        }
        let next = self.after(action);
        if !matches!(action, Action::Stop) && !next.king_safe(us) {
            return Some("it would leave your king in check (counting extra king steps)");
        }
        if !next.can_finish(us) {
            return Some(
                "the turn could not then end without leaving your king in check (wherever the \
                 adrenaline went)",
            );
        }
        None
    }

    /// Whether the turn under way can end with `us`'s king safe (the king is safe now).
    fn can_finish(&self, us: Seat) -> bool {
        match self.stage {
            Stage::Move => true,
            Stage::Steps { .. } | Stage::Place => self.candidates().into_iter().any(|a| {
                let next = self.after(a);
                (matches!(a, Action::Stop) || next.king_safe(us)) && next.can_finish(us)
            }),
        }
    }

    fn legal(&self) -> Vec<Action> {
        self.candidates()
            .into_iter()
            .filter(|a| self.refusal(*a).is_none())
            .collect()
    }

    fn repetition_key(&self) -> u64 {
        let mut key = self.position.repetition_key();
        for (i, n) in self.adrenaline.iter().enumerate() {
            if *n > 0 {
                key = key.rotate_left(5)
                    ^ ((i as u64) << 8 | *n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
        }
        // A pawn that may no longer step two makes a different position, as a lost castling
        // right does; XOR keeps the key independent of the list's order.
        for cell in &self.moved_pawns {
            key ^= (cell.index() as u64 + 0x100).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        }
        key
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.stage != Stage::Move {
            return None;
        }
        let turn = self.position.turn();
        if self.legal().is_empty() {
            return Some(if self.king_safe(turn) {
                Outcome::draw(EndReason::Stalemate)
            } else {
                Outcome::win(vec![Seat(1 - turn.0)], EndReason::Checkmate)
            });
        }
        if self.position.pieces().all(|(_, p)| p.role == Role::King) {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        counting_draws_by(
            self.position.halfmoves(),
            100,
            self.repetition_key(),
            &self.repetitions,
        )
    }

    fn regular_moves(&self, legal: &[Action]) -> Vec<Move> {
        legal
            .iter()
            .filter_map(|a| match a {
                Action::Move(m) => Some(*m),
                _ => None,
            })
            .collect()
    }

    fn text(&self, action: Action, legal: &[Action]) -> String {
        let board = self.position.board();
        let mut text = match action {
            Action::Move(m) => self.position.san_plain_among(m, &self.regular_moves(legal)),
            Action::Step { to, promotion } => {
                let x = if self.position.piece_at(to).is_some() {
                    "x"
                } else {
                    ""
                };
                let promotion = promotion
                    .map(|r| format!("={}", r.upper_char()))
                    .unwrap_or_default();
                format!(">{x}{}{promotion}", board.label(to))
            }
            Action::Stop => "stop".to_string(),
            Action::Place(cell) => format!("@{}", board.label(cell)),
        };
        let next = self.after(action);
        if next.stage == Stage::Move && !next.king_safe(next.position.turn()) {
            text.push(if next.legal().is_empty() { '#' } else { '+' });
        }
        text
    }

    fn parse(&self, text: &str) -> Result<Action, GameError> {
        let typed = text.trim();
        let illegal = |reason: &str| {
            GameError::Move(MoveParseError::Illegal {
                text: typed.to_string(),
                reason: reason.to_string(),
            })
        };
        let board = self.position.board();
        let cleaned: String = typed
            .trim_end_matches(['+', '#', '!', '?'])
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let action = match self.stage {
            Stage::Move => {
                if cleaned.starts_with('>') || cleaned.eq_ignore_ascii_case("stop") {
                    return Err(illegal(
                        "there are no extra steps to take now: extra king steps follow a \
                         regular move by a piece carrying adrenaline",
                    ));
                }
                if cleaned.starts_with('@') {
                    return Err(illegal(
                        "adrenaline is given only after a capture, at the end of that turn",
                    ));
                }
                // Read among the legal moves first (their notation is disambiguated among
                // them), then among all that move so, to say why one is refused.
                let legal = self.regular_moves(&self.legal());
                match self.position.parse_move_among(typed, &legal) {
                    Ok(m) => return Ok(Action::Move(m)),
                    Err(first) => {
                        let pseudo = self.position.pseudo_legal_moves();
                        match self.position.parse_move_among(typed, &pseudo) {
                            Ok(m) => Action::Move(m),
                            Err(_) => return Err(GameError::Move(first)),
                        }
                    }
                }
            }
            Stage::Steps { at, .. } => {
                if ["stop", "done", "end", "pass"]
                    .iter()
                    .any(|w| cleaned.eq_ignore_ascii_case(w))
                {
                    Action::Stop
                } else {
                    let body = cleaned
                        .trim_start_matches('>')
                        .trim_start_matches(['K', 'x'])
                        .trim_start_matches('x');
                    let (square, promotion) = match body.split_once('=') {
                        Some((s, r)) => {
                            let role = r.chars().next().and_then(Role::from_char);
                            match role {
                                Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => {
                                    (s, role)
                                }
                                _ => {
                                    return Err(illegal(
                                        "a pawn promotes to a queen, rook, bishop or knight \
                                         (=Q, =R, =B or =N)",
                                    ))
                                }
                            }
                        }
                        None => (body, None),
                    };
                    let Some(to) = board.cell(square) else {
                        return Err(illegal(&format!(
                            "write an extra step as >square (>{}), or stop",
                            neighbours(&self.position, at)
                                .next()
                                .map_or("d2", |c| board.label(c))
                        )));
                    };
                    if !neighbours(&self.position, at).any(|c| c == to) {
                        return Err(illegal(&format!(
                            "an extra move is one king step from {}",
                            board.label(at)
                        )));
                    }
                    match self.position.piece_at(to) {
                        Some(p) if p.seat == self.actor() => {
                            return Err(illegal("your own piece stands there"))
                        }
                        Some(p) if p.role == Role::King => {
                            return Err(illegal("a king is never taken: it is checkmated"))
                        }
                        _ => {}
                    }
                    let pawn = self
                        .position
                        .piece_at(at)
                        .is_some_and(|p| p.role == Role::Pawn);
                    let promotes = pawn
                        && self
                            .position
                            .rules()
                            .promotion_zone(self.actor().index())
                            .contains(to);
                    if promotes && promotion.is_none() {
                        return Err(illegal(
                            "a pawn reaching the last rank promotes: add =Q, =R, =B or =N",
                        ));
                    }
                    if !promotes && promotion.is_some() {
                        return Err(illegal("only a pawn reaching its last rank promotes"));
                    }
                    Action::Step {
                        to,
                        promotion: if promotes { promotion } else { None },
                    }
                }
            }
            Stage::Place => {
                let square = cleaned.trim_start_matches('@');
                let Some(cell) = board.cell(square) else {
                    return Err(illegal(
                        "you captured: give the adrenaline to one of your opponent's pieces, as \
                         @square",
                    ));
                };
                match self.position.piece_at(cell) {
                    Some(p) if p.seat != self.actor() => Action::Place(cell),
                    _ => {
                        return Err(illegal(&format!(
                            "the adrenaline goes under one of your opponent's pieces, and {} \
                             holds none",
                            board.label(cell)
                        )))
                    }
                }
            }
        };
        match self.refusal(action) {
            None => Ok(action),
            Some(reason) => Err(illegal(reason)),
        }
    }

    fn describe_stage(&self) -> String {
        let who = self.actor().colour_name();
        match self.stage {
            Stage::Move => format!("{who} to move"),
            Stage::Steps { at, .. } => {
                let piece = self
                    .position
                    .piece_at(at)
                    .map_or("piece", |p| p.role.name());
                format!(
                    "{who}: extra king steps with the {piece} on {} ({} left: >square), or stop",
                    self.position.board().label(at),
                    self.adrenaline[at.index()]
                )
            }
            Stage::Place => format!(
                "{who}: give adrenaline to one of {}'s pieces (@square)",
                Seat(1 - self.actor().0).colour_name()
            ),
        }
    }
}

impl Game for Adrenaline {
    type State = AdrenalineState;
    type Action = Action;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "adrenaline",
            aliases: &["adrenaline-chess"],
            name: "Adrenaline Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![fen_option()],
            hidden_information: false,
            simultaneous: false,
            rules: "Chess with adrenaline. After a turn that captured anything, end it by giving \
                    one checker to one of your opponent's pieces (@h7); pieces may carry \
                    several. A piece with checkers makes its regular move, then may spend them \
                    one at a time on extra moves like a king (>d2, >xd2), which may capture; a \
                    capturer keeps the captured piece's checkers and may use them at once; \
                    `stop` ends the steps early. Only one checker is given a turn. No castling \
                    if king or rook carries checkers, and the king may not pass a square where \
                    extra moves could take it; en passant only after a regular two-square pawn \
                    move, never by an extra move; a pawn reaching the last rank promotes at once \
                    and may go on stepping. No move may expose your king, even if an extra move \
                    would then block. Checkmate wins, counting threats made with extra moves; \
                    stalemate, fifty moves and threefold repetition draw.\n\
                    Interpretations: check is any way an enemy piece could reach your king in \
                    its next turn; every action (the regular move, each extra step, the \
                    placement) must leave your king out of check, and an action is refused if \
                    the turn could not then end with your king safe; the king may be given \
                    adrenaline too; the supply of checkers is not limited to the set's 24; a \
                    pawn back on its starting rank by extra steps has moved, so it may not step \
                    two again (the two-square step is a pawn's first move only); only two bare \
                    kings draw by material.",
            source: "Don Kirkby, Chess Kit (Adrenaline Chess)",
        })
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        seed: u64,
    ) -> Result<AdrenalineState, GameError> {
        let position = start_from_options(options)?;
        let mut state = AdrenalineState {
            adrenaline: vec![0; position.board().len()],
            position,
            stage: Stage::Move,
            moves: Vec::new(),
            turn_so_far: Vec::new(),
            repetitions: Vec::new(),
            last_move: Vec::new(),
            seed,
            moved_pawns: Vec::new(),
        };
        state.repetitions.push(state.repetition_key());
        Ok(state)
    }

    fn prompts(&self, state: &AdrenalineState) -> Vec<Prompt> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        vec![Prompt {
            seat: state.actor(),
            kind: PromptKind::Move,
            text: state.describe_stage(),
        }]
    }

    fn legal(&self, state: &AdrenalineState, seat: Seat) -> Vec<Action> {
        if seat != state.actor() || state.outcome().is_some() {
            return Vec::new();
        }
        state.legal()
    }

    fn action_text(&self, state: &AdrenalineState, action: &Action) -> String {
        state.text(*action, &state.legal())
    }

    fn legal_texts(&self, state: &AdrenalineState, seat: Seat) -> Vec<String> {
        let legal = self.legal(state, seat);
        legal.iter().map(|a| state.text(*a, &legal)).collect()
    }

    fn parse(&self, state: &AdrenalineState, seat: Seat, text: &str) -> Result<Action, GameError> {
        if seat != state.actor() {
            let step = text.trim().starts_with('>');
            if step && state.stage == Stage::Move && seat != state.position.turn() {
                return Err(GameError::Refused(
                    "your piece has no adrenaline left to spend: your turn is over".into(),
                ));
            }
            return Err(GameError::NotYourTurn(state.describe_stage()));
        }
        state.parse(text)
    }

    fn apply(
        &self,
        state: &mut AdrenalineState,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<Event>, GameError> {
        if seat != state.actor() {
            return Err(GameError::NotYourTurn(state.describe_stage()));
        }
        let legal = state.legal();
        if !legal.contains(&action) {
            return Err(GameError::Refused(
                "that is not legal in this position".into(),
            ));
        }
        let written = state.text(action, &legal);
        if state.turn_so_far.is_empty() {
            state.last_move.clear();
        }
        match action {
            Action::Move(m) => {
                let king_to = (m.kind == MoveKind::Castle)
                    .then(|| state.position.displacements(m).first().map(|d| d.1))
                    .flatten();
                state.last_move = vec![m.from, king_to.unwrap_or(m.to)];
            }
            Action::Step { to, .. } => state.last_move.push(to),
            _ => {}
        }
        state.do_action(action);
        state.turn_so_far.push(written.clone());
        let mut events = Vec::new();
        if state.stage == Stage::Move {
            let turn = state.turn_so_far.join(" ");
            state.turn_so_far.clear();
            if state.position.halfmoves() == 0 {
                state.repetitions.clear();
            }
            state.repetitions.push(state.repetition_key());
            // Black's regular move has already advanced the move number.
            let number = match seat {
                Seat::WHITE => state.position.fullmoves(),
                _ => state.position.fullmoves().saturating_sub(1).max(1),
            };
            events.push(Event::Public(played_line(seat, number, &turn)));
            state.moves.push(turn);
        } else {
            events.push(Event::Public(format!(
                "{} played {written}; {}",
                seat.colour_name(),
                state.describe_stage()
            )));
        }
        if let Some(outcome) = state.outcome() {
            events.push(Event::GameOver(outcome));
        }
        Ok(events)
    }

    fn view(&self, state: &AdrenalineState, viewer: Viewer) -> View {
        let pos = &state.position;
        let outcome = state.outcome();
        let mut view = board_view(self.info().id, pos, viewer);
        for placed in &mut view.figures {
            let n = state.adrenaline[placed.cell.index()];
            if n > 0 {
                placed.markers.push(Marker::Adrenaline(n));
            }
        }
        view.last_move = state.last_move.clone();
        let actor = state.actor();
        // Black's regular move has already advanced the move number; the caption keeps the
        // move under way until Black's turn ends, as the record does.
        if state.stage != Stage::Move && actor == Seat::BLACK {
            view.move_number = pos.fullmoves().saturating_sub(1).max(1);
        }
        let in_check = state.stage == Stage::Move && !state.king_safe(actor);
        if in_check {
            view.checks = pos.king(actor).into_iter().collect();
        }
        view.status = match &outcome {
            Some(o) => o.to_string(),
            None if in_check => format!("{}, in check", state.describe_stage()),
            None => state.describe_stage(),
        };
        if outcome.is_none() {
            view.to_act = vec![actor];
        }
        view
    }

    fn outcome(&self, state: &AdrenalineState) -> Option<Outcome> {
        state.outcome()
    }

    fn perft(&self, state: &AdrenalineState, depth: u32) -> Option<u64> {
        Some(perft(state, depth))
    }

    fn divide(&self, state: &AdrenalineState, depth: u32) -> Option<Vec<(String, u64)>> {
        let legal = state.legal();
        Some(
            legal
                .iter()
                .map(|&a| {
                    (
                        state.text(a, &legal),
                        perft(&state.after(a), depth.saturating_sub(1)),
                    )
                })
                .collect(),
        )
    }
}

/// Perft over actions: a regular move, each extra step, `stop` and each placement is a ply.
fn perft(state: &AdrenalineState, depth: u32) -> u64 {
    action_perft(
        state,
        depth,
        &AdrenalineState::legal,
        &AdrenalineState::after,
    )
}

#[cfg(test)]
mod tests;

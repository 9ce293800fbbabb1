//! Zombie Chess (Chess Kit, "Zombie Chess").
//!
//! - Chess, until a capture: the capturer secretly buries the captured piece under one of their
//!   own pieces, at most one under each ("I cannot bury this piece" when every piece already
//!   has one: it goes to the dust bin).
//! - When a piece leaves a square, the square is checked: a piece its mover buried there rises
//!   as a zombie (the opponent's piece, marked with a coin); if the mover buried nothing there
//!   they say "no zombie" and the square, or "no zombies anywhere" when they have nothing
//!   buried. A piece the *opponent* buried there (under a piece of theirs that the mover since
//!   captured) rises as the mover's own zombie.
//! - Zombies move like their kind. All of a player's zombies may move on their turn, each once,
//!   besides the ordinary move; those not moved are destroyed at the end of the turn.
//! - A move that would expose the mover's king by revealing a zombie is illegal. Castling is
//!   completed before any reveal. A pawn rising on its last row is promoted.
//! - The goal is checkmate.
//! - Reconstructed where the book is silent: a turn is one ordinary move plus each zombie's
//!   move in any order, ended with "done" (or by itself when nothing is left to move); a
//!   zombie that rises during its owner's turn first moves on the next; a captured zombie is
//!   buried again like any piece; a risen pawn on its last row is promoted by its owner before
//!   their next move; en passant is possible only when the double step ended the turn.

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{Move, MoveKind, MoveParseError, Piece, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{Marker, Panel, View, Viewer};

use super::chess::{board_view, counting_draws, stored_position};

/// Zombie Chess.
pub struct Zombie;

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A move of an ordinary piece or a zombie.
    Move(Move),
    /// Bury the captured piece under one's own piece on this cell (secret).
    Bury(Cell),
    /// Promote a risen pawn.
    Promote(Role),
    /// End the turn (unmoved zombies are destroyed).
    Done,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The player to move moves pieces.
    Move,
    /// The player to move must bury what they just captured.
    Bury { captured: Role },
    /// The player to move promotes a pawn that rose on its last row.
    Promote { cell: Cell },
}

/// The state of a game of Zombie Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ZombieState {
    #[serde(with = "stored_position")]
    position: Position,
    phase: Phase,
    /// `burials[s]`: where seat `s` has buried the opponent's pieces (cell, buried role).
    burials: [Vec<(Cell, Role)>; 2],
    /// Cells holding zombies (owned by the piece standing there).
    zombies: Vec<Cell>,
    /// Cells (where they now stand) of pieces that moved this turn.
    moved: Vec<Cell>,
    /// Zombies that rose during this turn for the player to move: they wait a turn.
    risen_this_turn: Vec<Cell>,
    /// Whether the ordinary (non-zombie) move of this turn is made.
    ordinary_done: bool,
    /// Whether a capture or pawn move happened this turn (fifty-move rule).
    progress_this_turn: bool,
    /// Pawns that rose on their last row, waiting for their owner to promote them.
    pending_promotions: Vec<Cell>,
    /// Destroyed pieces, by owner.
    dust: [Vec<Role>; 2],
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    /// Every burial, in order, told when the game ends.
    secret_log: Vec<String>,
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

fn describe(seat: Seat, role: Role) -> String {
    format!("{} {}", seat.colour_name().to_lowercase(), role.name())
}

impl ZombieState {
    fn new(position: Position) -> ZombieState {
        ZombieState {
            repetitions: vec![position.repetition_key()],
            position,
            phase: Phase::Move,
            burials: [Vec::new(), Vec::new()],
            zombies: Vec::new(),
            moved: Vec::new(),
            risen_this_turn: Vec::new(),
            ordinary_done: false,
            progress_this_turn: false,
            pending_promotions: Vec::new(),
            dust: [Vec::new(), Vec::new()],
            last_move: Vec::new(),
            secret_log: Vec::new(),
        }
    }

    fn label(&self, cell: Cell) -> String {
        self.position.board().label(cell).to_string()
    }

    fn buried_by(&self, seat: Seat, cell: Cell) -> Option<Role> {
        self.burials[seat.index()]
            .iter()
            .find(|(c, _)| *c == cell)
            .map(|(_, r)| *r)
    }

    /// The cells a move leaves empty (castling completes first: a square the king or rook
    /// lands on is not left).
    fn vacated(&self, m: Move) -> Vec<Cell> {
        let moves = self.position.displacements(m);
        moves
            .iter()
            .map(|d| d.0)
            .filter(|from| !moves.iter().any(|d| d.1 == *from))
            .collect()
    }

    /// The moves the player to move may make now.
    fn move_options(&self) -> Vec<Move> {
        if self.phase != Phase::Move {
            return Vec::new();
        }
        let us = self.position.turn();
        self.position
            .legal_moves()
            .into_iter()
            .filter(|m| !self.moved.contains(&m.from) && !self.risen_this_turn.contains(&m.from))
            .filter(|m| self.zombies.contains(&m.from) || !self.ordinary_done)
            .filter(|m| !self.reveal_exposes_king(*m, us))
            .collect()
    }

    /// Whether playing `m` would let a zombie rise that attacks the mover's king.
    fn reveal_exposes_king(&self, m: Move, us: Seat) -> bool {
        let mut after = self.position.clone();
        let vacated = self.vacated(m);
        after.play_unchecked(m);
        after.set_turn(us);
        for v in vacated {
            if let Some(role) = self.buried_by(us, v) {
                after.set_piece(
                    v,
                    Some(Piece {
                        seat: other(us),
                        role,
                    }),
                );
            }
        }
        after.seat_in_check(us)
    }

    /// "done" ends the turn once the ordinary move is made (or none is possible).
    fn may_end_turn(&self) -> bool {
        self.phase == Phase::Move
            && (self.ordinary_done
                || !self
                    .move_options()
                    .iter()
                    .any(|m| !self.zombies.contains(&m.from)))
    }

    fn own_zombies(&self, seat: Seat) -> Vec<Cell> {
        self.zombies
            .iter()
            .copied()
            .filter(|c| self.position.piece_at(*c).is_some_and(|p| p.seat == seat))
            .collect()
    }

    /// Plays a move of the player to move, with its reveals; returns what is said aloud.
    fn play_move(&mut self, m: Move) -> Vec<String> {
        let us = self.position.turn();
        let before = self.position.clone();
        let san = before.san_plain(m);
        let captured_at = match m.kind {
            MoveKind::EnPassant => {
                let (file, _) = before.board().coord(m.to);
                let (_, rank) = before.board().coord(m.from);
                before.board().at(file as i32, rank as i32)
            }
            MoveKind::Castle => None,
            _ => before.piece_at(m.to).filter(|p| p.seat != us).map(|_| m.to),
        };
        let captured = captured_at.and_then(|c| before.piece_at(c));
        let mover_was_zombie = self.zombies.contains(&m.from);
        let vacated = self.vacated(m);
        let landed: Vec<Cell> = before.displacements(m).iter().map(|d| d.1).collect();
        let number = before.fullmoves();
        self.position.play_unchecked(m);
        // A turn may hold several moves: the turn's end keeps the counters, not each move.
        self.position.set_turn(us);
        self.position
            .set_counters(before.halfmoves(), before.fullmoves());
        if let Some(c) = captured_at {
            self.zombies.retain(|z| *z != c);
        }
        if mover_was_zombie {
            self.zombies.retain(|z| *z != m.from);
            self.zombies.push(m.to);
        } else {
            self.ordinary_done = true;
        }
        self.moved.extend(landed.iter().copied());
        if captured.is_some()
            || before
                .piece_at(m.from)
                .is_some_and(|p| p.role == Role::Pawn)
        {
            self.progress_this_turn = true;
        }
        self.last_move = vacated.iter().chain(landed.iter()).copied().collect();
        let dots = if us == Seat::WHITE { "." } else { "..." };
        let who = if mover_was_zombie { " (zombie)" } else { "" };
        let reveals: Vec<String> = vacated.into_iter().map(|v| self.reveal(us, v)).collect();
        // The check sign counts the zombies the move raised. Whether it is mate is known only
        // when the turn ends (zombies may still move): `apply` makes it `#` then.
        let check = if self.position.seat_in_check(other(us)) {
            "+"
        } else {
            ""
        };
        let mut said = vec![format!(
            "{} played {number}{dots} {san}{check}{who}.",
            us.colour_name()
        )];
        said.extend(reveals);
        if let Some(piece) = captured {
            let free = self.burial_cells(us);
            if free.is_empty() {
                self.dust[piece.seat.index()].push(piece.role);
                said.push(format!(
                    "{} cannot bury this piece: the {} goes to the dust bin.",
                    us.colour_name(),
                    describe(piece.seat, piece.role)
                ));
            } else {
                self.phase = Phase::Bury {
                    captured: piece.role,
                };
                said.push(format!(
                    "{} buries the {} in secret.",
                    us.colour_name(),
                    describe(piece.seat, piece.role)
                ));
            }
        }
        said
    }

    /// The check of a vacated square: a buried piece rises, or "no zombie" is said.
    fn reveal(&mut self, mover: Seat, v: Cell) -> String {
        if self.position.piece_at(v).is_some() {
            return String::new();
        }
        let rising = match self.buried_by(mover, v) {
            Some(role) => Some((
                mover,
                Piece {
                    seat: other(mover),
                    role,
                },
            )),
            None => self
                .buried_by(other(mover), v)
                .map(|role| (other(mover), Piece { seat: mover, role })),
        };
        let Some((burier, piece)) = rising else {
            return if self.burials[mover.index()].is_empty() {
                format!("{}: no zombies anywhere.", mover.colour_name())
            } else {
                format!("{}: no zombie on {}.", mover.colour_name(), self.label(v))
            };
        };
        self.burials[burier.index()].retain(|(c, _)| *c != v);
        self.position.set_piece(v, Some(piece));
        self.zombies.push(v);
        if piece.seat == mover {
            self.risen_this_turn.push(v);
        }
        if piece.role == Role::Pawn
            && self
                .position
                .rules()
                .promotion_zone(piece.seat.index())
                .contains(v)
        {
            self.pending_promotions.push(v);
        }
        format!(
            "A {} rises from the grave on {}!",
            describe(piece.seat, piece.role),
            self.label(v)
        )
    }

    /// The cells of `seat`'s pieces with nothing of theirs buried under them.
    fn burial_cells(&self, seat: Seat) -> Vec<Cell> {
        self.position
            .cells_of(seat)
            .iter()
            .filter(|c| self.buried_by(seat, *c).is_none())
            .collect()
    }

    /// Ends the player's turn: unmoved zombies crumble, the move passes.
    fn end_turn(&mut self) -> Vec<String> {
        let us = self.position.turn();
        let mut said = Vec::new();
        for z in self.own_zombies(us) {
            if self.moved.contains(&z) || self.risen_this_turn.contains(&z) {
                continue;
            }
            let piece = self.position.piece_at(z).expect("a zombie stands there");
            self.position.set_piece(z, None);
            self.zombies.retain(|c| *c != z);
            self.pending_promotions.retain(|c| *c != z);
            self.dust[us.index()].push(piece.role);
            said.push(format!(
                "The {} zombie on {} was not moved and crumbles to dust.",
                describe(us, piece.role),
                self.label(z)
            ));
        }
        let half = if self.progress_this_turn {
            0
        } else {
            self.position.halfmoves() + 1
        };
        let full = self.position.fullmoves() + u32::from(us == Seat::BLACK);
        self.position.set_counters(half, full);
        self.position.set_turn(other(us));
        self.moved.clear();
        self.risen_this_turn.clear();
        self.ordinary_done = false;
        self.progress_this_turn = false;
        if half == 0 {
            self.repetitions.clear();
        }
        self.repetitions.push(self.position.repetition_key());
        self.phase = Phase::Move;
        self.next_promotion();
        said
    }

    fn next_promotion(&mut self) {
        let us = self.position.turn();
        if let Some(&cell) = self.pending_promotions.iter().find(|c| {
            self.position
                .piece_at(**c)
                .is_some_and(|p| p.seat == us && p.role == Role::Pawn)
        }) {
            self.phase = Phase::Promote { cell };
        }
    }

    /// After an action: end the turn by itself when nothing more can be done.
    fn settle(&mut self, said: &mut Vec<String>) {
        if self.phase == Phase::Move && self.ordinary_done && self.move_options().is_empty() {
            said.extend(self.end_turn());
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let fresh = self.phase == Phase::Move && self.moved.is_empty() && !self.ordinary_done;
        if fresh && self.move_options().is_empty() {
            let us = self.position.turn();
            return Some(if self.position.is_check() {
                Outcome::win(vec![other(us)], EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if !fresh {
            return None;
        }
        if self.position.is_insufficient_material() && self.burials.iter().all(Vec::is_empty) {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        counting_draws(&self.position, &self.repetitions)
    }

    fn panel(&self, seat: Seat) -> Panel {
        let board = self.position.board();
        let (files, ranks) = board.grid_size().unwrap_or((8, 8));
        // Laid out as the board is drawn for this seat: Black's is turned half round, with
        // rank 1 on top and the h-file on the left.
        let turned = seat == Seat::BLACK;
        let file_order: Vec<i32> = if turned {
            (0..files as i32).rev().collect()
        } else {
            (0..files as i32).collect()
        };
        let rank_order: Vec<i32> = if turned {
            (0..ranks as i32).collect()
        } else {
            (0..ranks as i32).rev().collect()
        };
        let rows = rank_order
            .iter()
            .map(|&r| {
                let cells = file_order
                    .iter()
                    .map(|&f| {
                        board
                            .at(f, r)
                            .and_then(|c| self.buried_by(seat, c))
                            .map(|role| role.upper_char().to_string())
                            .unwrap_or_default()
                    })
                    .collect();
                ((r + 1).to_string(), cells)
            })
            .collect();
        let count = self.burials[seat.index()].len();
        Panel {
            title: "Zombie Chess: your secret burial grid".into(),
            columns: file_order
                .iter()
                .map(|&f| ((b'a' + f as u8) as char).to_string())
                .collect(),
            rows,
            notes: vec![format!(
                "{count} of {}'s pieces buried by you; each rises when the piece above it leaves.",
                other(seat).colour_name()
            )],
        }
    }
}

impl Game for Zombie {
    type State = ZombieState;
    type Action = Action;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "zombie",
            aliases: &["zombie-chess", "zombies"],
            name: "Zombie Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: Vec::new(),
            hidden_information: true,
            simultaneous: false,
            rules:
                "Chess, but whatever you capture you secretly bury under one of your own pieces \
                    (/secret with its square; one per piece). When that piece leaves its square \
                    the buried piece rises there as its owner's zombie (a coin marks it); if not, \
                    you announce \"no zombie\" and the square. On your turn all your zombies may \
                    move, each once, besides your ordinary move; those you leave still crumble to \
                    dust (say 'done' to end your turn). You may not reveal a zombie that checks \
                    your own king. Checkmate wins.",
            source: "Chess Kit, 'Zombie Chess'",
        })
    }

    fn setup(
        &self,
        _options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<ZombieState, GameError> {
        Ok(ZombieState::new(Position::startpos()))
    }

    fn prompts(&self, state: &ZombieState) -> Vec<Prompt> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        let seat = state.position.turn();
        let (kind, text) = match &state.phase {
            Phase::Bury { captured } => (
                PromptKind::Secret,
                format!(
                    "bury the captured {} under one of your pieces: name its square",
                    describe(other(seat), *captured)
                ),
            ),
            Phase::Promote { cell } => (
                PromptKind::Move,
                format!(
                    "promote your risen pawn on {}: Q, R, B or N",
                    state.label(*cell)
                ),
            ),
            Phase::Move => {
                let zombies = state.own_zombies(seat).len();
                let text = if state.ordinary_done {
                    // The turn goes on only while a zombie can still move: say how to stop.
                    "your zombies may move now, each once; /move done ends your turn".to_string()
                } else if zombies > 0 {
                    format!(
                        "{} to move; your zombies may move too, each once, before or after your ordinary move",
                        seat.colour_name()
                    )
                } else {
                    format!("{} to move", seat.colour_name())
                };
                (PromptKind::Move, text)
            }
        };
        vec![Prompt { seat, kind, text }]
    }

    fn legal(&self, state: &ZombieState, seat: Seat) -> Vec<Action> {
        if !self.prompts(state).iter().any(|p| p.seat == seat) {
            return Vec::new();
        }
        match &state.phase {
            Phase::Bury { .. } => state
                .burial_cells(seat)
                .into_iter()
                .map(Action::Bury)
                .collect(),
            Phase::Promote { .. } => [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                .map(Action::Promote)
                .to_vec(),
            Phase::Move => {
                let mut out: Vec<Action> =
                    state.move_options().into_iter().map(Action::Move).collect();
                if state.may_end_turn() {
                    out.push(Action::Done);
                }
                out
            }
        }
    }

    fn action_text(&self, state: &ZombieState, action: &Action) -> String {
        match action {
            Action::Move(m) => state.position.san_plain(*m),
            Action::Bury(c) => state.label(*c),
            Action::Promote(r) => format!("={}", r.upper_char()),
            Action::Done => "done".into(),
        }
    }

    fn parse(&self, state: &ZombieState, seat: Seat, text: &str) -> Result<Action, GameError> {
        if seat != state.position.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.position.turn().colour_name()
            )));
        }
        let t = text.trim();
        let illegal = |reason: &str| {
            GameError::Move(MoveParseError::Illegal {
                text: t.into(),
                reason: reason.into(),
            })
        };
        match &state.phase {
            Phase::Bury { .. } => {
                let square = t
                    .trim_start_matches("bury")
                    .trim()
                    .trim_start_matches("under")
                    .trim();
                let cell = state
                    .position
                    .board()
                    .cell(square)
                    .ok_or_else(|| illegal("name the square of one of your pieces, like b2"))?;
                if state.position.piece_at(cell).is_none_or(|p| p.seat != seat) {
                    return Err(illegal("you can only bury under one of your own pieces"));
                }
                if state.buried_by(seat, cell).is_some() {
                    return Err(illegal(
                        "you have already buried a piece there; one per piece",
                    ));
                }
                Ok(Action::Bury(cell))
            }
            Phase::Promote { .. } => {
                let letter = t.trim_start_matches('=').chars().next().unwrap_or(' ');
                match Role::from_char(letter) {
                    Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => {
                        Ok(Action::Promote(r))
                    }
                    _ => Err(illegal("promote to Q, R, B or N")),
                }
            }
            Phase::Move => {
                if matches!(t.to_ascii_lowercase().as_str(), "done" | "end" | "pass") {
                    return if state.may_end_turn() {
                        Ok(Action::Done)
                    } else {
                        Err(illegal("make your ordinary move first"))
                    };
                }
                let options = state.move_options();
                match state.position.parse_move_among(t, &options) {
                    Ok(m) => Ok(Action::Move(m)),
                    Err(e) => {
                        let Ok(m) = state.position.parse_move(t) else {
                            return Err(GameError::Move(e));
                        };
                        let reason = if state.moved.contains(&m.from) {
                            "that piece has already moved this turn"
                        } else if state.risen_this_turn.contains(&m.from) {
                            "that zombie rose this turn; it may move on your next"
                        } else if state.ordinary_done && !state.zombies.contains(&m.from) {
                            "you have made your ordinary move; only zombies may still move ('done' ends the turn)"
                        } else {
                            "it would reveal a zombie that checks your own king"
                        };
                        Err(illegal(reason))
                    }
                }
            }
        }
    }

    fn apply(
        &self,
        state: &mut ZombieState,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<Event>, GameError> {
        if !Game::legal(self, state, seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(state, &action),
                reason: "it is not possible now".into(),
            }));
        }
        let mut said: Vec<String> = Vec::new();
        let mut private = Vec::new();
        let is_move = matches!(action, Action::Move(_));
        match action {
            Action::Move(m) => said.extend(state.play_move(m)),
            Action::Bury(cell) => {
                let Phase::Bury { captured } = state.phase else {
                    return Err(GameError::Corrupt("burial outside a burial".into()));
                };
                state.burials[seat.index()].push((cell, captured));
                let secret = format!(
                    "{} buried the {} under {} (move {}).",
                    seat.colour_name(),
                    describe(other(seat), captured),
                    state.label(cell),
                    state.position.fullmoves()
                );
                private.push(Event::Private {
                    seat,
                    text: format!(
                        "You buried the {} under {}.",
                        describe(other(seat), captured),
                        state.label(cell)
                    ),
                });
                state.secret_log.push(secret);
                said.push(format!(
                    "{} has buried the {}.",
                    seat.colour_name(),
                    describe(other(seat), captured)
                ));
                state.phase = Phase::Move;
            }
            Action::Promote(role) => {
                let Phase::Promote { cell } = state.phase else {
                    return Err(GameError::Corrupt("promotion outside a promotion".into()));
                };
                state.position.set_piece(cell, Some(Piece { seat, role }));
                state.pending_promotions.retain(|c| *c != cell);
                said.push(format!(
                    "{}'s risen pawn on {} becomes a {}.",
                    seat.colour_name(),
                    state.label(cell),
                    role.name()
                ));
                state.phase = Phase::Move;
                state.next_promotion();
            }
            Action::Done => said.extend(state.end_turn()),
        }
        state.settle(&mut said);
        said.retain(|s| !s.is_empty());
        let outcome = state.outcome();
        // A move that ends its turn in mate: its check sign (the first line) becomes a mate sign.
        if is_move
            && outcome
                .as_ref()
                .is_some_and(|o| o.reason == EndReason::Checkmate)
        {
            said[0] = said[0].replacen('+', "#", 1);
        }
        let mut events = vec![Event::Public(said.join(" "))];
        events.extend(private);
        if let Some(o) = outcome {
            events.push(Event::GameOver(o));
        }
        Ok(events)
    }

    fn view(&self, state: &ZombieState, viewer: Viewer) -> View {
        let pos = &state.position;
        let mut view = board_view(self.info().id, pos, viewer);
        view.status = match state.outcome() {
            Some(o) => o.to_string(),
            None => match &state.phase {
                Phase::Bury { .. } => {
                    format!("{} is burying a piece in secret", pos.turn().colour_name())
                }
                _ => format!("{} to move", pos.turn().colour_name()),
            },
        };
        for placed in &mut view.figures {
            if state.zombies.contains(&placed.cell) {
                placed.markers.push(Marker::ZombieCoin);
            }
        }
        view.last_move = state.last_move.clone();
        if pos.is_check() {
            view.checks = pos.king(pos.turn()).into_iter().collect();
        }
        view.to_act = self.prompts(state).iter().map(|p| p.seat).collect();
        if let Viewer::Seat(s) = viewer {
            view.panel = Some(state.panel(s));
        }
        view
    }

    fn outcome(&self, state: &ZombieState) -> Option<Outcome> {
        state.outcome()
    }

    fn secret_history(&self, state: &ZombieState) -> Vec<String> {
        state.secret_log.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::game::public_text;

    fn from(fen: &str) -> ZombieState {
        ZombieState::new(Position::from_fen(fen, Rules::chess()).unwrap())
    }

    fn act(s: &mut ZombieState, text: &str) -> String {
        let seat = s.position.turn();
        let (_, events) =
            Game::play(&Zombie, s, seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        public_text(&events)
    }

    fn at(s: &ZombieState, label: &str) -> Option<Piece> {
        s.position.piece_at(s.position.board().cell(label).unwrap())
    }

    fn placement(s: &ZombieState) -> String {
        s.position.fen().split(' ').next().unwrap().to_string()
    }

    #[test]
    fn the_books_example() {
        let mut s = Zombie.setup(&Options::new(), 2, 0).unwrap();
        for m in ["e4", "e5", "Nf3", "Nc6", "d4"] {
            act(&mut s, m);
        }
        act(&mut s, "exd4");
        act(&mut s, "c6"); // Black buries the white pawn under the knight on c6.
        assert_eq!(
            placement(&s),
            "r1bqkbnr/pppp1ppp/2n5/8/3pP3/5N2/PPP2PPP/RNBQKB1R"
        );
        let said = act(&mut s, "Nxd4");
        assert!(said.contains("White: no zombies anywhere."), "{said}");
        act(&mut s, "b2");
        let said = act(&mut s, "Nxd4");
        assert!(
            said.contains("A white pawn rises from the grave on c6!"),
            "{said}"
        );
        act(&mut s, "g7");
        assert_eq!(
            placement(&s),
            "r1bqkbnr/pppp1ppp/2P5/8/3nP3/8/PPP2PPP/RNBQKB1R"
        );
        assert_eq!(s.position.fullmoves(), 5);
        assert!(s.zombies.contains(&s.position.board().cell("c6").unwrap()));
        // Each player's grid holds only their own burial.
        let grid = |seat: Seat| {
            s.panel(seat)
                .rows
                .iter()
                .flat_map(|(_, c)| c.clone())
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
        };
        assert_eq!(grid(Seat::WHITE), ["P"]);
        assert_eq!(grid(Seat::BLACK), ["N"]);
        // Each grid is laid out as its owner sees the board: White's P under b2 and Black's N
        // under g7 both stand in the second column of the second row from the bottom.
        let corners = [(Seat::WHITE, "b", "2", "P"), (Seat::BLACK, "g", "7", "N")];
        for (seat, file, rank, role) in corners {
            let panel = s.panel(seat);
            assert_eq!(panel.columns[1], file);
            assert_eq!(panel.rows[6].0, rank);
            assert_eq!(panel.rows[6].1[1], role);
        }
        assert_eq!(Zombie.secret_history(&s).len(), 3);
    }

    #[test]
    fn the_zombie_that_is_not_moved_is_destroyed() {
        let mut s = from("4k3/8/2P5/8/8/8/8/4K3 w - - 0 1");
        s.zombies.push(s.position.board().cell("c6").unwrap());
        act(&mut s, "Kd2");
        let said = act(&mut s, "done");
        assert!(
            said.contains("The white pawn zombie on c6 was not moved and crumbles to dust."),
            "{said}"
        );
        assert_eq!(at(&s, "c6"), None);
        assert_eq!(s.dust[0], [Role::Pawn]);
        assert_eq!(s.position.turn(), Seat::BLACK);
    }

    #[test]
    fn a_horde_of_zombies_may_all_move_each_once() {
        let mut s = from("4k3/8/8/8/8/8/P6P/4K3 w - - 0 1");
        let (a2, h2) = (
            s.position.board().cell("a2").unwrap(),
            s.position.board().cell("h2").unwrap(),
        );
        s.zombies.extend([a2, h2]);
        act(&mut s, "a3");
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "a4").unwrap_err();
        assert!(err.to_string().contains("already moved this turn"), "{err}");
        act(&mut s, "h4");
        assert_eq!(
            s.position.turn(),
            Seat::WHITE,
            "the ordinary move is still to come"
        );
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "done").unwrap_err();
        assert!(err.to_string().contains("ordinary move first"), "{err}");
        act(&mut s, "Kd2");
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "nothing left to move: the turn ends by itself"
        );
        assert_eq!(s.zombies.len(), 2, "both zombies moved and survive");
    }

    #[test]
    fn checks_and_mates_carry_their_signs() {
        let mut s = from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let said = act(&mut s, "Ra8");
        assert!(said.contains("White played 1. Ra8+."), "{said}");
        let mut s = from("7k/6pp/8/8/8/8/8/R3K3 w - - 0 1");
        let said = act(&mut s, "Ra8");
        assert!(said.contains("White played 1. Ra8#."), "{said}");
        assert_eq!(
            Zombie.outcome(&s),
            Some(Outcome::win(vec![Seat::WHITE], EndReason::Checkmate))
        );
    }

    #[test]
    fn after_the_ordinary_move_the_prompt_says_the_zombies_may_move() {
        let mut s = from("4k3/8/2P5/8/8/8/8/4K3 w - - 0 1");
        s.zombies.push(s.position.board().cell("c6").unwrap());
        assert!(Zombie.prompts(&s)[0]
            .text
            .contains("your zombies may move too"));
        act(&mut s, "Kd2");
        let prompts = Zombie.prompts(&s);
        assert_eq!(prompts[0].seat, Seat::WHITE);
        assert_eq!(
            prompts[0].text,
            "your zombies may move now, each once; /move done ends your turn"
        );
    }

    #[test]
    fn a_buried_piece_survives_the_capture_of_the_piece_above_it() {
        // Black buried a white knight under the rook on a8; White takes the rook and later
        // leaves a8: White's own knight rises as White's zombie.
        let mut s = from("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        s.burials[1].push((s.position.board().cell("a8").unwrap(), Role::Knight));
        act(&mut s, "Rxa8+");
        act(&mut s, "e1"); // bury the rook under the king
        act(&mut s, "Kd7");
        let said = act(&mut s, "Rb8");
        assert!(
            said.contains("A white knight rises from the grave on a8!"),
            "{said}"
        );
        assert!(s.burials[1].is_empty());
        // It rose during White's own turn: it waits, and is not destroyed this turn.
        assert_eq!(
            at(&s, "a8"),
            Some(Piece {
                seat: Seat::WHITE,
                role: Role::Knight
            })
        );
        assert_eq!(s.position.turn(), Seat::BLACK);
    }

    #[test]
    fn a_capture_with_every_piece_already_covering_one_goes_to_the_dust_bin() {
        // White has buried pieces under e1 (its king) and under h8 (a square its captured
        // piece stood on, now held by Black). The rook takes on h8: both White pieces now
        // cover a burial, so the black rook cannot be buried.
        let mut s = from("4k2r/8/8/8/8/8/8/4K2R w - - 0 1");
        let cell = |l: &str| s.position.board().cell(l).unwrap();
        let (e1, h8) = (cell("e1"), cell("h8"));
        s.burials[0].extend([(e1, Role::Pawn), (h8, Role::Knight)]);
        let said = act(&mut s, "Rxh8+");
        assert!(said.contains("White: no zombie on h1."), "{said}");
        assert!(
            said.contains("White cannot bury this piece: the black rook goes to the dust bin."),
            "{said}"
        );
        assert_eq!(s.dust[1], [Role::Rook]);
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "no burial to make: the turn is over"
        );
    }

    #[test]
    fn revealing_a_zombie_that_checks_your_own_king_is_illegal() {
        // White buried a black rook under the knight on e2; the knight may not leave, since
        // the rook would rise on e2 next to... attacking White's own king on e1.
        let mut s = from("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1");
        s.burials[0].push((s.position.board().cell("e2").unwrap(), Role::Rook));
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "Nc3").unwrap_err();
        assert!(
            err.to_string()
                .contains("reveal a zombie that checks your own king"),
            "{err}"
        );
        act(&mut s, "Kd2");
    }

    #[test]
    fn castling_completes_before_the_reveal() {
        // A black piece is buried under h1: after O-O the rook has left h1 and the king is on
        // g1; the black rook rising on h1 checks White's king, so castling is illegal.
        let mut s = from("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        s.burials[0].push((s.position.board().cell("h1").unwrap(), Role::Rook));
        assert!(Game::play(&Zombie, &mut s, Seat::WHITE, "O-O").is_err());
        // A buried knight does not check g1 from h1: castling goes ahead and the knight rises.
        let mut s = from("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        s.burials[0].push((s.position.board().cell("h1").unwrap(), Role::Knight));
        let said = act(&mut s, "O-O");
        assert!(
            said.contains("A black knight rises from the grave on h1!"),
            "{said}"
        );
        assert_eq!(
            at(&s, "g1"),
            Some(Piece {
                seat: Seat::WHITE,
                role: Role::King
            })
        );
    }

    #[test]
    fn a_pawn_rising_on_its_last_row_is_promoted_by_its_owner() {
        // White buried a black pawn under the rook on a1 (Black's last row).
        let mut s = from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        s.burials[0].push((s.position.board().cell("a1").unwrap(), Role::Pawn));
        let said = act(&mut s, "Ra2");
        assert!(
            said.contains("A black pawn rises from the grave on a1!"),
            "{said}"
        );
        let prompts = Zombie.prompts(&s);
        assert_eq!(prompts[0].seat, Seat::BLACK);
        assert!(prompts[0].text.contains("promote your risen pawn on a1"));
        let said = act(&mut s, "Q");
        assert!(said.contains("becomes a queen"), "{said}");
        assert_eq!(
            at(&s, "a1"),
            Some(Piece {
                seat: Seat::BLACK,
                role: Role::Queen
            })
        );
        // The new queen is still a zombie and may move this turn.
        act(&mut s, "Qa2");
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "the ordinary move is still to come"
        );
    }

    #[test]
    fn burial_choices_are_checked() {
        let mut s = Zombie.setup(&Options::new(), 2, 0).unwrap();
        for m in ["e4", "d5", "exd5"] {
            act(&mut s, m);
        }
        assert_eq!(Zombie.prompts(&s)[0].kind, PromptKind::Secret);
        for (text, why) in [
            ("e7", "your own pieces"),
            ("e4", "your own pieces"),
            ("z9", "name the square"),
        ] {
            let err = Game::play(&Zombie, &mut s, Seat::WHITE, text).unwrap_err();
            assert!(err.to_string().contains(why), "{text}: {err}");
        }
        // Under the capturing pawn itself is fine.
        let said = act(&mut s, "d5");
        assert_eq!(said, "White has buried the black pawn.");
        assert_eq!(
            s.panel(Seat::WHITE).rows[3].1[3],
            "P",
            "d5 holds a P in White's grid"
        );
        assert!(s
            .panel(Seat::BLACK)
            .rows
            .iter()
            .all(|(_, cells)| cells.iter().all(String::is_empty)));
    }
}

//! Half Alice Chess (Don Kirkby, *Chess Kit*, after Vernon Parton's Alice Chess): one board, two
//! sides of a mirror. Pieces standing on a checker are on the far side.
//!
//! "Rules are as in orthodox chess, with these changes":
//! - the move must be legal under orthodox chess rules: it is generated among the pieces on the
//!   moving piece's side of the mirror only (the others are not there for it), and it may not
//!   leave its king, if on that side, in check there;
//! - the moved piece switches to the other side (castling: king and rook both);
//! - pieces cannot capture pieces on the other side of the mirror but can move through their
//!   squares (and cannot land on them: one square holds one piece);
//! - with 12 checkers each (`checkers=12`, the book's set) a piece crossing to the far side needs
//!   a free checker of its owner's colour; `checkers=16` is Alice Chess proper;
//! - a king may not evade check by switching sides: the move must be legal before the switch,
//!   and after it the king must not be in check from the pieces on its side.
//!
//! Interpretations (the book is silent): castling needs king and rook on the same side and both
//! cross; en passant needs the capturing pawn on the side the double-stepped pawn crossed to;
//! only two bare kings are a draw by material.

use serde::{Deserialize, Serialize};

use crate::board::{Cell, CellSet};
use crate::chess::{Move, MoveKind, MoveParseError, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    VariantInfo,
};
use crate::view::{Marker, View, Viewer};

use super::chess::{
    action_perft, board_view, counting_draws_by, move_events, move_prompt, start_from_options,
};

/// Half Alice Chess.
pub struct HalfAlice;

/// A game of Half Alice Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HalfAliceState {
    /// Every piece, whichever side of the mirror it stands on.
    position: Position,
    /// The pieces on the far side of the mirror (on a checker), by square.
    #[serde(with = "cell_labels")]
    mirror: CellSet,
    /// Checkers each player has: 12 (the book's set) or 16 (no limit).
    checkers: u8,
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    seed: u64,
}

/// Cells stored by their square names, so a saved game reads like the board.
mod cell_labels {
    use super::*;
    use serde::{Deserializer, Serializer};

    fn board() -> std::sync::Arc<crate::board::Board> {
        crate::chess::Rules::chess().board_arc().clone()
    }

    pub fn serialize<S: Serializer>(set: &CellSet, s: S) -> Result<S::Ok, S::Error> {
        let board = board();
        let labels: Vec<&str> = set.iter().map(|c| board.label(c)).collect();
        labels.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CellSet, D::Error> {
        use serde::de::Error;
        let board = board();
        let labels = Vec::<String>::deserialize(d)?;
        labels
            .iter()
            .map(|l| {
                board
                    .cell(l)
                    .ok_or_else(|| D::Error::custom(format!("no square {l}")))
            })
            .collect()
    }
}

/// Why a move that chess allows on its side of the mirror is still refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// Its square holds a piece on the other side.
    Occupied,
    /// No free checker to send it through.
    NoChecker,
    /// Its king would be in check before the crossing.
    CheckBefore,
    /// Its king would be in check after the crossing.
    CheckAfter,
}

impl Refusal {
    fn reason(self) -> &'static str {
        match self {
            Refusal::Occupied => {
                "a piece on the other side of the mirror stands there: pieces cannot capture \
                 across the mirror, nor share a square"
            }
            Refusal::NoChecker => {
                "you have no free checker to send a piece through the mirror (12 checkers each)"
            }
            Refusal::CheckBefore => {
                "your king would be in check before the piece crosses the mirror (the move \
                 must be legal in ordinary chess)"
            }
            Refusal::CheckAfter => "your king would be in check after the crossing",
        }
    }
}

impl HalfAliceState {
    /// The position, all pieces together.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The pieces on the far side of the mirror.
    pub fn mirror(&self) -> CellSet {
        self.mirror
    }

    /// The pieces on one side of the mirror only (`far`: the checkered side).
    fn side(&self, far: bool) -> Position {
        side_of(&self.position, self.mirror, far)
    }

    fn on_far_side(&self, cell: Cell) -> bool {
        self.mirror.contains(cell)
    }

    /// Every move chess allows on its side, each with what refuses it (if anything).
    fn candidates(&self) -> Vec<(Move, Option<Refusal>)> {
        let pos = &self.position;
        let us = pos.turn();
        let own_far = pos
            .cells_of(us)
            .iter()
            .filter(|c| self.mirror.contains(*c))
            .count();
        let mut out = Vec::new();
        for far in [false, true] {
            let side = self.side(far);
            if side.cells_of(us).is_empty() {
                continue;
            }
            let legal_there = side.legal_moves();
            for m in side.pseudo_legal_moves() {
                let refusal = self.refusal(&side, far, m, &legal_there, own_far);
                out.push((m, refusal));
            }
        }
        out
    }

    fn refusal(
        &self,
        side: &Position,
        far: bool,
        m: Move,
        legal_there: &[Move],
        own_far: usize,
    ) -> Option<Refusal> {
        let pos = &self.position;
        let us = pos.turn();
        // Where the moving pieces land, which must be free of the other side's pieces.
        let landing: Vec<Cell> = side.displacements(m).iter().map(|d| d.1).collect();
        let blocked = landing.iter().any(|&c| {
            pos.piece_at(c).is_some() && self.on_far_side(c) != far && !landing_is_mover(m, c)
        });
        if blocked {
            return Some(Refusal::Occupied);
        }
        if !far && self.checkers < 16 && own_far + landing.len() > self.checkers as usize {
            return Some(Refusal::NoChecker);
        }
        if !legal_there.contains(&m) {
            return Some(Refusal::CheckBefore);
        }
        let (after, mirror) = self.after(m);
        let king_far = after.king(us).is_some_and(|k| mirror.contains(k));
        if side_of(&after, mirror, king_far).seat_in_check(us) {
            return Some(Refusal::CheckAfter);
        }
        None
    }

    /// The whole position and mirror after `m` and the crossing.
    fn after(&self, m: Move) -> (Position, CellSet) {
        let pos = &self.position;
        let mut mirror = self.mirror;
        let far = self.on_far_side(m.from);
        let moved = pos.displacements(m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        for (from, _, _) in &moved {
            mirror.remove(*from);
        }
        // Whatever was taken (on the mover's side) leaves the mirror's record too.
        for cell in mirror.iter().collect::<Vec<_>>() {
            if after.piece_at(cell).is_none() {
                mirror.remove(cell);
            }
        }
        for (_, to, _) in &moved {
            if far {
                mirror.remove(*to);
            } else {
                mirror.insert(*to);
            }
        }
        (after, mirror)
    }

    /// The game after `m`, without its record (for perft and notation).
    fn successor(&self, m: Move) -> HalfAliceState {
        let (position, mirror) = self.after(m);
        HalfAliceState {
            position,
            mirror,
            checkers: self.checkers,
            moves: Vec::new(),
            repetitions: Vec::new(),
            last_move: Vec::new(),
            seed: self.seed,
        }
    }

    fn legal(&self) -> Vec<Move> {
        self.candidates()
            .into_iter()
            .filter(|(_, r)| r.is_none())
            .map(|(m, _)| m)
            .collect()
    }

    fn in_check(&self) -> bool {
        let us = self.position.turn();
        let far = self
            .position
            .king(us)
            .is_some_and(|k| self.mirror.contains(k));
        self.side(far).seat_in_check(us)
    }

    fn free_checkers(&self, seat: Seat) -> usize {
        let used = self
            .position
            .cells_of(seat)
            .iter()
            .filter(|c| self.mirror.contains(*c))
            .count();
        (self.checkers as usize).saturating_sub(used)
    }

    fn repetition_key(&self) -> u64 {
        let mut key = self.position.repetition_key();
        for c in self.mirror.iter() {
            key = key.rotate_left(7) ^ (c.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        key
    }

    fn outcome(&self) -> Option<Outcome> {
        let turn = self.position.turn();
        if self.legal().is_empty() {
            return Some(if self.in_check() {
                Outcome::win(vec![Seat(1 - turn.0)], EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
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

    fn text(&self, m: Move, legal: &[Move]) -> String {
        let mut text = self.position.san_plain_among(m, legal);
        let next = self.successor(m);
        if next.in_check() {
            text.push(if next.legal().is_empty() { '#' } else { '+' });
        }
        text
    }

    fn parse(&self, text: &str) -> Result<Move, GameError> {
        let candidates = self.candidates();
        let legal: Vec<Move> = candidates
            .iter()
            .filter(|(_, r)| r.is_none())
            .map(|(m, _)| *m)
            .collect();
        let first_error = match self.position.parse_move_among(text, &legal) {
            Ok(m) => return Ok(m),
            Err(e) => e,
        };
        let all: Vec<Move> = candidates.iter().map(|(m, _)| *m).collect();
        if let Ok(m) = self.position.parse_move_among(text, &all) {
            if let Some((_, Some(refusal))) = candidates.iter().find(|(c, _)| *c == m) {
                return Err(GameError::Move(MoveParseError::Illegal {
                    text: text.trim().to_string(),
                    reason: refusal.reason().to_string(),
                }));
            }
        }
        if let Some(reason) = self.capture_across_the_mirror(text) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: text.trim().to_string(),
                reason,
            }));
        }
        Err(GameError::Move(first_error))
    }

    /// Why a capture that chess would allow with every piece on one board is not even tried:
    /// its victim stands on the other side of the mirror, so on the mover's side the square is
    /// empty (and a pawn has no diagonal step there). The reader of the whole board would
    /// otherwise call it a move into check.
    fn capture_across_the_mirror(&self, text: &str) -> Option<String> {
        let pos = &self.position;
        // The square looks empty from the mover's side, so the player need not write `x`.
        let m = pos
            .parse_move_ignoring_capture_mark(text, &pos.pseudo_legal_moves())
            .ok()
            .filter(|m| m.kind != MoveKind::Castle)?;
        let board = pos.board();
        let victim = if m.kind == MoveKind::EnPassant {
            // The pawn taken stands beside the landing square, on the mover's starting rank.
            board.at(board.coord(m.to).0 as i32, board.coord(m.from).1 as i32)?
        } else {
            m.to
        };
        let piece = pos.piece_at(victim).filter(|p| p.seat != pos.turn())?;
        (self.on_far_side(victim) != self.on_far_side(m.from)).then(|| {
            format!(
                "the {} on {} is on the other side of the mirror: pieces cannot capture across \
                 the mirror",
                piece.role.name(),
                board.label(victim)
            )
        })
    }
}

/// Whether `cell`, a square a move lands on, is also one its own pieces leave (a castling king
/// landing where its rook stood).
fn landing_is_mover(m: Move, cell: Cell) -> bool {
    m.kind == MoveKind::Castle && (cell == m.from || cell == m.to)
}

/// The pieces of `pos` on one side of the mirror only.
fn side_of(pos: &Position, mirror: CellSet, far: bool) -> Position {
    let mut side = pos.clone();
    let gone: Vec<Cell> = side
        .pieces()
        .map(|(c, _)| c)
        .filter(|c| mirror.contains(*c) != far)
        .collect();
    for c in gone {
        side.set_piece(c, None);
    }
    side
}

impl Game for HalfAlice {
    type State = HalfAliceState;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "half-alice",
            aliases: &["alice", "halfalice"],
            name: "Half Alice Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![
                OptionSpec {
                    key: "checkers",
                    help: "checkers each player has to mark pieces beyond the mirror: 12 (the \
                           book's set: a piece crosses only with a free checker) or 16 (no limit)",
                    default: Some("12"),
                    values: OptionValues::Choice(&["12", "16"]),
                },
                OptionSpec {
                    key: "fen",
                    help: "start from this position (FEN); every piece starts on the near side",
                    default: None,
                    values: OptionValues::Text,
                },
            ],
            hidden_information: false,
            simultaneous: false,
            rules: "Alice Chess on one board: pieces on a checker stand on the other side of \
                    the mirror. A move must be legal in ordinary chess among the pieces on the \
                    moving piece's side (the others are not there for it: it passes through \
                    their squares, cannot take them and cannot land on them), and must not \
                    leave its king in check there; then the piece crosses to the other side. \
                    After the crossing your king must not be in check from the pieces on its \
                    own side, so a king cannot escape check by crossing. With checkers=12 a piece \
                    crosses to the far side only if its owner has a free checker. Checkmate \
                    wins; stalemate, fifty moves and threefold repetition draw.\n\
                    Interpretations (the book is silent): \"legal under orthodox rules\" is \
                    judged among the pieces on the moving piece's side, as in Alice Chess; \
                    castling only with king and rook on one side, both crossing (so with \
                    checkers=12 castling to the far side needs two free checkers); a captured \
                    piece's checker goes back to its owner; en passant only by a pawn on the \
                    side the double-stepping pawn crossed to; only two bare kings draw by \
                    material.",
            source: "Don Kirkby, Chess Kit (Half Alice Chess); Alice Chess by Vernon Parton",
        })
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        seed: u64,
    ) -> Result<HalfAliceState, GameError> {
        let position = start_from_options(options)?;
        let checkers = match options.get("checkers") {
            Some("16") => 16,
            _ => 12,
        };
        let mut state = HalfAliceState {
            position,
            mirror: CellSet::EMPTY,
            checkers,
            moves: Vec::new(),
            repetitions: Vec::new(),
            last_move: Vec::new(),
            seed,
        };
        state.repetitions.push(state.repetition_key());
        Ok(state)
    }

    fn prompts(&self, state: &HalfAliceState) -> Vec<Prompt> {
        move_prompt(state.position.turn(), state.outcome().is_some())
    }

    fn legal(&self, state: &HalfAliceState, seat: Seat) -> Vec<Move> {
        if seat != state.position.turn() || state.outcome().is_some() {
            return Vec::new();
        }
        state.legal()
    }

    fn action_text(&self, state: &HalfAliceState, action: &Move) -> String {
        state.text(*action, &state.legal())
    }

    fn legal_texts(&self, state: &HalfAliceState, seat: Seat) -> Vec<String> {
        let legal = self.legal(state, seat);
        legal.iter().map(|m| state.text(*m, &legal)).collect()
    }

    fn parse(&self, state: &HalfAliceState, seat: Seat, text: &str) -> Result<Move, GameError> {
        let turn = state.position.turn();
        if seat != turn {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                turn.colour_name()
            )));
        }
        state.parse(text)
    }

    fn apply(
        &self,
        state: &mut HalfAliceState,
        seat: Seat,
        action: Move,
    ) -> Result<Vec<Event>, GameError> {
        if seat != state.position.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.position.turn().colour_name()
            )));
        }
        let legal = state.legal();
        if !legal.contains(&action) {
            return Err(GameError::Refused(
                "that move is not legal in this position".into(),
            ));
        }
        let written = state.text(action, &legal);
        let number = state.position.fullmoves();
        let landing: Vec<Cell> = state
            .position
            .displacements(action)
            .iter()
            .map(|d| d.1)
            .collect();
        let (after, mirror) = state.after(action);
        state.position = after;
        state.mirror = mirror;
        if state.position.halfmoves() == 0 {
            state.repetitions.clear();
        }
        state.repetitions.push(state.repetition_key());
        state.last_move = vec![action.from];
        state.last_move.extend(landing.first());
        let events = move_events(seat, number, &written, state.outcome());
        state.moves.push(written);
        Ok(events)
    }

    fn view(&self, state: &HalfAliceState, viewer: Viewer) -> View {
        let pos = &state.position;
        let outcome = state.outcome();
        let mut view = board_view(self.info().id, pos, viewer);
        for placed in &mut view.figures {
            if state.mirror.contains(placed.cell) {
                placed.markers.push(Marker::MirrorSide);
            }
        }
        view.last_move = state.last_move.clone();
        let turn = pos.turn();
        let in_check = state.in_check();
        if in_check {
            view.checks = pos.king(turn).into_iter().collect();
        }
        let free = if state.checkers < 16 {
            format!(
                " (free checkers: White {}, Black {})",
                state.free_checkers(Seat::WHITE),
                state.free_checkers(Seat::BLACK)
            )
        } else {
            String::new()
        };
        view.status = match &outcome {
            Some(o) => o.to_string(),
            None if in_check => format!("{} to move, in check{free}", turn.colour_name()),
            None => format!("{} to move{free}", turn.colour_name()),
        };
        if outcome.is_none() {
            view.to_act = vec![turn];
        }
        view
    }

    fn outcome(&self, state: &HalfAliceState) -> Option<Outcome> {
        state.outcome()
    }

    fn perft(&self, state: &HalfAliceState, depth: u32) -> Option<u64> {
        Some(perft(state, depth))
    }

    fn divide(&self, state: &HalfAliceState, depth: u32) -> Option<Vec<(String, u64)>> {
        let legal = state.legal();
        Some(
            legal
                .iter()
                .map(|&m| {
                    let count = perft(&state.successor(m), depth.saturating_sub(1));
                    (state.text(m, &legal), count)
                })
                .collect(),
        )
    }
}

fn perft(state: &HalfAliceState, depth: u32) -> u64 {
    action_perft(
        state,
        depth,
        &HalfAliceState::legal,
        &HalfAliceState::successor,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;

    fn game(fen: &str, checkers: &str, far: &[&str]) -> HalfAliceState {
        let mut options = Options::new();
        options.set("fen", fen);
        options.set("checkers", checkers);
        let mut state = Game::setup(&HalfAlice, &options, 2, 0).unwrap();
        let board = state.position.rules().board_arc().clone();
        for square in far {
            state.mirror.insert(board.cell(square).unwrap());
        }
        state
    }

    fn texts(state: &HalfAliceState) -> Vec<String> {
        Game::legal_texts(&HalfAlice, state, state.position.turn())
    }

    #[test]
    fn the_books_example_only_ka7_is_legal() {
        // The rook on b6 stands on a checker: the far side.
        let state = game("1k1Q4/8/1R6/8/8/8/8/7K b - - 0 1", "12", &["b6"]);
        assert!(state.in_check());
        assert_eq!(texts(&state), ["Ka7"]);
        let err = Game::parse(&HalfAlice, &state, Seat::BLACK, "Ka8").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Ka8 is not legal: your king would be in check before the piece crosses the mirror \
             (the move must be legal in ordinary chess)"
        );
        let err = Game::parse(&HalfAlice, &state, Seat::BLACK, "Kb7").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Kb7 is not legal: your king would be in check after the crossing"
        );
    }

    #[test]
    fn a_piece_crosses_after_moving_and_captures_only_on_its_own_side() {
        let mut state = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "16",
            &[],
        );
        for text in ["e4", "d5"] {
            let seat = state.position.turn();
            Game::play(&HalfAlice, &mut state, seat, text).unwrap();
        }
        // Both pawns crossed: exd5 is a capture on the same (far) side.
        let e4 = state.position.board().cell("e4").unwrap();
        assert!(state.mirror.contains(e4));
        assert!(texts(&state).contains(&"exd5".to_string()));
        Game::play(&HalfAlice, &mut state, Seat::WHITE, "exd5").unwrap();
        let d5 = state.position.board().cell("d5").unwrap();
        assert!(
            !state.mirror.contains(d5),
            "the pawn came back to the near side"
        );
        // The queen on d8 (near side) slides through d5? No: d5 holds a near-side pawn now.
        // The black queen cannot take it from the far side... it is on the near side too, so
        // Qxd5 is an ordinary capture.
        assert!(texts(&state).contains(&"Qxd5".to_string()));
    }

    #[test]
    fn no_capture_across_the_mirror_and_no_free_checker_refused() {
        // White's rook on a1 (near) and Black's knight on a8 (far): the rook passes nothing,
        // but cannot take or land on a8.
        let state = game("n3k3/8/8/8/8/8/8/R3K3 w - - 0 1", "12", &["a8"]);
        assert!(!texts(&state).iter().any(|t| t.contains("a8")));
        let err = Game::parse(&HalfAlice, &state, Seat::WHITE, "Ra8").unwrap_err();
        assert!(
            err.to_string().contains("cannot capture across the mirror"),
            "{err}"
        );
        // A near-side piece may move through a far-side piece's square.
        let state = game("4k3/8/8/8/8/8/n7/R3K3 w - - 0 1", "12", &["a2"]);
        assert!(texts(&state).contains(&"Ra5".to_string()));
        // Twelve white pieces beyond the mirror: no free checker for a thirteenth.
        let far = [
            "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "b1", "c1", "d1", "f1",
        ];
        let state = game("4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "12", &far);
        let err = Game::parse(&HalfAlice, &state, Seat::WHITE, "Nh3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Nh3 is not legal: you have no free checker to send a piece through the mirror (12 \
             checkers each)"
        );
        // A far-side piece coming back frees nothing before it moves, but may move.
        assert!(texts(&state)
            .iter()
            .any(|t| t.starts_with('N') && t.ends_with("a3")));
        let mut any =
            AnyGame::setup(&HalfAlice, &Options::parse(["checkers=16"]).unwrap(), 2, 0).unwrap();
        let before = AnyGame::save(&HalfAlice, &any).unwrap();
        assert!(AnyGame::play(&HalfAlice, &mut any, Seat::WHITE, "e5").is_err());
        assert_eq!(AnyGame::save(&HalfAlice, &any).unwrap(), before);
        assert!(before.contains("\"mirror\":[]"), "{before}");
    }

    /// "Pieces cannot capture pieces on the other side of the mirror": a pawn's diagonal step
    /// onto a piece across the mirror is refused for that reason, not as a move into check.
    #[test]
    fn a_pawn_capture_across_the_mirror_is_refused_for_the_mirror() {
        // White's pawn on e4 stands beyond the mirror, Black's knight on d5 on the near side.
        let state = game("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "12", &["e4"]);
        let err = Game::parse(&HalfAlice, &state, Seat::WHITE, "exd5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "exd5 is not legal: the knight on d5 is on the other side of the mirror: pieces \
             cannot capture across the mirror"
        );
        // En passant across the mirror: the pawn that stepped two crossed it.
        let mut state = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "12", &[]);
        Game::play(&HalfAlice, &mut state, Seat::WHITE, "e4").unwrap();
        let err = Game::parse(&HalfAlice, &state, Seat::BLACK, "dxe3").unwrap_err();
        assert!(
            err.to_string()
                .contains("the pawn on e4 is on the other side of the mirror"),
            "{err}"
        );
    }
}

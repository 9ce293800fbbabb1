//! Trimens Chess (Wayne Caverly, 1982): chess for three on a board of 258 triangles.
//!
//! - "All standard chess rules apply, with the exception of en passant", and every move is
//!   read from the moving player's own viewpoint: in his frame the board is an ordinary
//!   chessboard (rows from his edge, positions along them), so a horizontal move for player 2
//!   looks diagonal to the others ([`crate::board::FrameBoard`]). Diagonals stay on their
//!   colour and are not blocked by the opposite-coloured triangles they cross; a diagonal never
//!   passes through the points of the triangles (the rule of diagonal movement).
//! - Armies, in each player's own frame: back row R N B . Q K . B N R, pawns on the second row
//!   except in front of the two gaps; triangle numbers as the book lists them (player 1: K-6,
//!   10, ...). Player 1 (White) moves first, then 2 (Black), then 3 (the book's Red,
//!   drawn orange).
//! - Pawns step one triangle, or two from their opening triangle; capture on the two
//!   diagonally-forward triangles; promote on a triangle with none ahead of it.
//! - Castling: the king three triangles toward the rook, the rook to its other side (king side
//!   K 6 -> 9, R 10 -> 8 of the row; queen side K -> 3, R 1 -> 4), with chess's conditions.
//! - Check and mate against either opponent. The rule of dead pieces: a player checkmated (or
//!   stalemated while three play) when his turn comes has his pieces left on the board as
//!   dead pieces: part of the board, never moved or captured, threatening nothing. A stalemate
//!   with two players left is a draw. The last player left wins.
//! - `play=designated` with `direction=right|left`: each must first checkmate the opponent on
//!   that side, and may not check the other before that (a move that would is illegal).
//! - Two players may play (`players=2`): players 1 and 2, on the same board.
//! - Notation: the book's (`1Q/21-129xR ch`, `2 O-O`); `198-15` is enough to type.
//! - *Interpretations*: a mate is found when the mated player's turn comes (so a third player
//!   moving in between may break it); fifty moves of each player still in without a capture or
//!   pawn move, or a threefold repetition, draw; in designated play a player whose only moves
//!   would check the wrong king counts as stalemated; which saw-tooth edge triangles exist is
//!   reconstructed (RULES-NOTES).

mod notation;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::board::{BoardSpec, Cell};
use crate::chess::{Move, MoveKind, MoveParseError, Piece, Position, Role, RulesSpec, Seat, Setup};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::table::{ArmyStatus, Table};
use crate::view::{Figure, Marker, Placed, View, Viewer};

/// Trimens Chess.
pub struct Trimens;

/// The players' names, by seat: the book's White, Black and Red (drawn orange).
const NAMES: [&str; 3] = ["White", "Black", "Red"];

/// Who must be mated first in designated play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Play {
    Open,
    /// Each must first mate the opponent on this side.
    Designated {
        right: bool,
    },
}

/// The state of a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrimensState {
    position: Position,
    play: Play,
    table: Table,
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    outcome: Option<Outcome>,
}

/// The back row of each army in its own frame, positions 1-10 (gaps at 4 and 7), and the
/// positions of its pawns on the second row.
const BACK_ROW: [(i16, Role); 8] = [
    (1, Role::Rook),
    (2, Role::Knight),
    (3, Role::Bishop),
    (5, Role::Queen),
    (6, Role::King),
    (8, Role::Bishop),
    (9, Role::Knight),
    (10, Role::Rook),
];
const PAWNS: [i16; 8] = [1, 2, 4, 5, 6, 7, 9, 10];

impl TrimensState {
    /// A new game for `seats` players (2 or 3).
    pub fn new(seats: usize, play: Play) -> TrimensState {
        let rules = RulesSpec::new(
            BoardSpec::Trimens { seats: seats as u8 },
            (0..seats as u8).collect(),
        )
        .build();
        let board = rules.board();
        let mut cells = vec![None; board.len()];
        let mut rooks = Vec::new();
        for s in 0..seats {
            let seat = Seat(s as u8);
            let mut put = |rank: i16, file: i16, role: Role| {
                let cell = board
                    .frame_cell(s, rank, file)
                    .expect("the armies stand on the board");
                cells[cell.index()] = Some(Piece { seat, role });
                if role == Role::Rook {
                    rooks.push(cell);
                }
            };
            for (file, role) in BACK_ROW {
                put(0, file, role);
            }
            for file in PAWNS {
                put(1, file, Role::Pawn);
            }
        }
        let setup = Setup {
            cells,
            turn: Seat(0),
            castling_rooks: rooks,
            ep_target: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        let position = Position::from_setup(setup, rules).expect("the start is a legal position");
        TrimensState {
            repetitions: vec![position.repetition_key()],
            position,
            play,
            table: Table::one_army_each(&NAMES[..seats], &(0..seats as u8).collect::<Vec<_>>()),
            moves: Vec::new(),
            last_move: Vec::new(),
            outcome: None,
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    fn seats(&self) -> usize {
        self.position.rules().seats()
    }

    fn name(&self, seat: Seat) -> &str {
        &self.table.army(seat.0).name
    }

    fn to_move(&self) -> Seat {
        self.position.turn()
    }

    fn is_dead(&self, seat: Seat) -> bool {
        self.table.status(seat.0) == ArmyStatus::Dead
    }

    fn alive(&self) -> Vec<Seat> {
        (0..self.seats() as u8)
            .map(Seat)
            .filter(|s| !self.is_dead(*s))
            .collect()
    }

    /// The opponent `seat` must mate first in designated play, while he lives.
    fn designated(&self, seat: Seat) -> Option<Seat> {
        let Play::Designated { right } = self.play else {
            return None;
        };
        let n = self.seats() as u8;
        // Player 1's right-hand opponent is player 3 (the book's diagram 14).
        let target = if right {
            Seat((seat.0 + n - 1) % n)
        } else {
            Seat((seat.0 + 1) % n)
        };
        (!self.is_dead(target)).then_some(target)
    }

    /// The legal moves of `seat` in `position`: chess's, less en passant (promoting or not),
    /// less taking a king (a king is never captured: a third player may have opened a line to
    /// it, but its owner gets his turn to answer the check), and in designated play less any
    /// move that puts the king of an opponent other than the designated one in check.
    fn moves_in(&self, position: &Position, seat: Seat) -> Vec<Move> {
        let mut pos = position.clone();
        pos.set_turn(seat);
        let target = self.designated(seat);
        let board = pos.board();
        let forward = pos.rules().forward(seat.index());
        let others: Vec<Seat> = match target {
            Some(target) => self
                .alive()
                .into_iter()
                .filter(|&o| o != seat && o != target)
                .collect(),
            None => Vec::new(),
        };
        // Kings already in check from this player (a third player opened the line): moving on
        // does not put them in check.
        let checked_before: Vec<bool> = others
            .iter()
            .map(|&o| pos.king(o).is_some_and(|k| pos.attacked_by(k, seat)))
            .collect();
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.kind != MoveKind::EnPassant)
            .filter(|m| {
                let pawn = pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn);
                let ahead = board.step(m.from, forward);
                let straight =
                    Some(m.to) == ahead || ahead.and_then(|a| board.step(a, forward)) == Some(m.to);
                !(pawn && !straight && pos.piece_at(m.to).is_none())
            })
            .filter(|m| {
                m.kind == MoveKind::Castle
                    || pos.piece_at(m.to).is_none_or(|p| p.role != Role::King)
            })
            .filter(|&m| {
                if others.is_empty() {
                    return true;
                }
                let mut after = pos.clone();
                if after.play(m).is_err() {
                    return false;
                }
                others.iter().zip(&checked_before).all(|(&o, &before)| {
                    before || after.king(o).is_none_or(|k| !after.attacked_by(k, seat))
                })
            })
            .collect()
    }

    fn legal(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.moves_in(&self.position, self.to_move())
    }

    /// Marks `seat`'s pieces dead: nobody's enemy from now on.
    fn kill(&mut self, seat: Seat) {
        self.table.set_status(seat.0, ArmyStatus::Dead);
        let mut spec = self.position.rules().spec().clone();
        spec.dead |= 1 << seat.0;
        self.position = self.position.with_rules(spec.build());
    }

    /// Hands the turn to the next living player after `mover`, finding the mated and the
    /// stalemated on the way: their pieces die, or a stalemate with two left draws. Returns
    /// what was announced.
    fn next_turn(&mut self, mover: Seat) -> Vec<String> {
        let mut said = Vec::new();
        let n = self.seats() as u8;
        let mut seat = mover;
        loop {
            let alive = self.alive();
            if alive.len() <= 1 {
                let winners = alive;
                self.outcome = Some(Outcome::win(winners, EndReason::Checkmate));
                return said;
            }
            seat = Seat((seat.0 + 1) % n);
            if self.is_dead(seat) {
                continue;
            }
            self.position.set_turn(seat);
            let turn = self.table.current().army;
            if turn != seat.0 {
                self.table.advance(|_, t| t.army == seat.0);
            }
            if !self.moves_in(&self.position, seat).is_empty() {
                return said;
            }
            if self.position.seat_in_check(seat) {
                said.push(format!(
                    "{} is checkmated: those pieces are dead and stay on the board.",
                    self.name(seat)
                ));
                self.kill(seat);
            } else if alive.len() >= 3 {
                said.push(format!(
                    "{} is stalemated and withdraws: those pieces are dead and stay on the board.",
                    self.name(seat)
                ));
                self.kill(seat);
            } else {
                self.outcome = Some(Outcome::draw(EndReason::Stalemate));
                return said;
            }
        }
    }

    /// The check marks a move earns: `ch` when the mover checks an opponent, `chmt` when that
    /// opponent has no move left (an announcement: the mate counts when his turn comes).
    fn check_mark(&self, mover: Seat) -> &'static str {
        let mut mark = "";
        for o in self.alive().into_iter().filter(|&o| o != mover) {
            let by_mover = self
                .position
                .king(o)
                .is_some_and(|k| self.position.attacked_by(k, mover));
            if by_mover {
                if self.moves_in(&self.position, o).is_empty() {
                    return " chmt";
                }
                mark = " ch";
            }
        }
        mark
    }

    /// The position's key, told apart by which armies are dead.
    fn repetition_key(&self) -> u64 {
        self.position.repetition_key() ^ (self.position.rules().spec().dead as u64) << 56
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        let players = self.alive().len() as u32;
        if self.position.halfmoves() >= 50 * players.max(2) {
            return Some(Outcome::draw(EndReason::FiftyMoveRule));
        }
        let now = self.repetition_key();
        (self.repetitions.iter().filter(|k| **k == now).count() >= 3)
            .then(|| Outcome::draw(EndReason::ThreefoldRepetition))
    }
}

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| VariantInfo {
    id: "trimens",
    aliases: &["trimens-chess", "three-player-chess"],
    name: "Trimens Chess",
    family: Family::Chess,
    seat_counts: &[3, 2],
    options: vec![
        OptionSpec {
            key: "play",
            help: "open (mate your opponents in any order) or designated (each mates one first)",
            default: Some("open"),
            values: OptionValues::Choice(&["open", "designated"]),
        },
        OptionSpec {
            key: "direction",
            help: "designated play: mate the opponent on your right first, or on your left",
            default: Some("right"),
            values: OptionValues::Choice(&["right", "left"]),
        },
    ],
    hidden_information: false,
    simultaneous: false,
    rules: RULES,
    source: "Wayne M. Caverly, Trimens Chess (1982)",
});

const RULES: &str = "\
Chess for three (or two) on 258 triangles, every move read from the mover's own side: in your \
frame the board is an ordinary chessboard, so a horizontal move for one player looks diagonal to \
the others. Rooks move along your rows and columns, bishops along your diagonals, which stay on \
their colour, are not blocked by the other-coloured triangles they cross and never pass through \
the points of triangles; queens and kings both ways; knights two and one. Pawns step one \
triangle, or two on their first move; capture diagonally forward; promote on a triangle with no \
triangle ahead. No en passant. Castling: king three triangles toward the rook, rook to its other \
side (O-O king side, O-O-O queen side). White (player 1) moves first, then Black (2), then Red \
(3, drawn orange). Check and mate either opponent. The rule of dead pieces: a player checkmated \
(or stalemated while three play) has his pieces left as dead pieces, part of the board, never \
moved or captured and threatening nothing; a stalemate with two left draws; the last player left \
wins. play=designated: each must first mate the opponent on his right (direction=right) or left, \
and may not check the other before that. Moves in the book's notation: 1Q/21-129xR, 2 O-O, or \
just 198-15. Our readings: a mate counts when the mated player's turn comes; fifty moves of each \
player still in without a capture or pawn move, or a threefold repetition, draw. The board's \
saw-tooth edges are reconstructed from the book's numbers.";

impl Game for Trimens {
    type State = TrimensState;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(
        &self,
        options: &Options,
        seats: usize,
        _seed: u64,
    ) -> Result<TrimensState, GameError> {
        if !(2..=3).contains(&seats) {
            return Err(GameError::BadOption(format!(
                "Trimens Chess is played by 3 players (or 2), not {seats}"
            )));
        }
        let right = match options.get("direction").unwrap_or("right") {
            "right" => true,
            "left" => false,
            other => {
                return Err(GameError::BadOption(format!(
                    "direction must be right or left, not '{other}'"
                )))
            }
        };
        let play = match options.get("play").unwrap_or("open") {
            "open" => Play::Open,
            "designated" if seats == 2 => {
                return Err(GameError::BadOption(
                    "designated play needs three players: with two, play=open".into(),
                ))
            }
            "designated" => Play::Designated { right },
            other => {
                return Err(GameError::BadOption(format!(
                    "play must be open or designated, not '{other}'"
                )))
            }
        };
        Ok(TrimensState::new(seats, play))
    }

    fn prompts(&self, state: &TrimensState) -> Vec<Prompt> {
        if state.outcome.is_some() {
            return Vec::new();
        }
        vec![Prompt {
            seat: state.to_move(),
            kind: PromptKind::Move,
            text: state.turn_text(),
        }]
    }

    fn king_room(&self, state: &TrimensState, army: Seat) -> Option<usize> {
        let king = state.position.king(army)?;
        if state.is_dead(army) || state.outcome.is_some() {
            return Some(0);
        }
        Some(
            state
                .moves_in(&state.position, army)
                .iter()
                .filter(|m| m.is_king_step(king))
                .count(),
        )
    }

    fn legal(&self, state: &TrimensState, seat: Seat) -> Vec<Move> {
        if seat != state.to_move() {
            return Vec::new();
        }
        state.legal()
    }

    fn action_text(&self, state: &TrimensState, action: &Move) -> String {
        notation::write(&state.position, *action)
    }

    fn parse(&self, state: &TrimensState, seat: Seat, text: &str) -> Result<Move, GameError> {
        if state.is_dead(seat) {
            return Err(GameError::Refused(format!(
                "{}'s pieces are dead: they stay on the board and never move again",
                state.name(seat)
            )));
        }
        if seat != state.to_move() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.name(state.to_move())
            )));
        }
        let illegal = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        };
        let legal = state.legal();
        let board = state.position.board();
        // A dead piece is named as such, on the triangle left or on the one reached ("Dead
        // pieces become a part of the playing board and cannot be displaced by either
        // remaining player"), rather than refused for a reason of the move's path.
        let numbers: Vec<&str> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .collect();
        let first = usize::from(notation::player_named(text).is_some());
        let named = || numbers.iter().skip(first).take(2);
        // A number that names no triangle is the first thing wrong with the text.
        if named().any(|n| board.cell(n).is_none()) {
            return notation::read(&state.position, &legal, text).map_err(illegal);
        }
        for (n, moved) in named().zip([true, false]) {
            let Some(cell) = board.cell(n) else { continue };
            if let Some(p) = state.position.piece_at(cell) {
                if p.seat != seat && state.is_dead(p.seat) {
                    return Err(illegal(format!(
                        "the {} on {} is dead: part of the board, never {}",
                        p.role.name(),
                        board.label(cell),
                        if moved {
                            "moved or captured"
                        } else {
                            "captured"
                        }
                    )));
                }
            }
        }
        notation::read(&state.position, &legal, text).map_err(illegal)
    }

    fn apply(
        &self,
        state: &mut TrimensState,
        seat: Seat,
        m: Move,
    ) -> Result<Vec<Event>, GameError> {
        if seat != state.to_move() || !state.legal().contains(&m) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: notation::write(&state.position, m),
                reason: "it is not a legal move now".into(),
            }));
        }
        let text = notation::write(&state.position, m);
        state
            .position
            .play(m)
            .map_err(|e| GameError::Corrupt(format!("a legal move failed: {e:?}")))?;
        let text = format!("{text}{}", state.check_mark(seat));
        state.last_move = vec![m.from, m.to];
        if state.position.halfmoves() == 0 {
            state.repetitions.clear();
        }
        state.moves.push(text.clone());
        let mut events = vec![Event::Public(format!("{} played {text}", state.name(seat)))];
        for line in state.next_turn(seat) {
            events.push(Event::Public(line));
        }
        state.repetitions.push(state.repetition_key());
        if state.outcome.is_none() {
            state.outcome = state.draw_by_rule();
        }
        if let Some(o) = &state.outcome {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    fn view(&self, state: &TrimensState, viewer: Viewer) -> View {
        let pos = &state.position;
        let board = pos.rules().board_arc().clone();
        let checks = state
            .alive()
            .into_iter()
            .filter(|&s| pos.seat_in_check(s))
            .filter_map(|s| pos.king(s))
            .collect();
        View {
            variant: self.info().id,
            board: board.clone(),
            viewer,
            bottom: match viewer {
                Viewer::Seat(s) => s,
                Viewer::Spectator => Seat(0),
            },
            // Dead pieces are "part of the playing board": drawn so, not like live ones.
            figures: pos
                .pieces()
                .map(|(cell, piece)| {
                    let mut placed = Placed::new(cell, piece.seat, Figure::Chess(piece.role));
                    if state.is_dead(piece.seat) {
                        placed.markers.push(Marker::Dead);
                    }
                    placed
                })
                .collect(),
            last_move: state.last_move.clone(),
            checks,
            to_act: if state.outcome.is_some() {
                Vec::new()
            } else {
                vec![state.to_move()]
            },
            players: NAMES[..state.seats()]
                .iter()
                .map(|n| n.to_string())
                .collect(),
            move_number: state.table.rounds() + 1,
            status: match &state.outcome {
                Some(o) => o.describe(|s| state.name(s).to_string()),
                None => state.turn_text(),
            },
            panel: None,
            // Moves are written in triangle numbers: every triangle shows its own.
            square_names: board
                .cells()
                .map(|c| (c, board.label(c).to_string()))
                .collect(),
            table: state.table.lines(),
            colours: Vec::new(),
            labels: Vec::new(),
            tinted: Vec::new(),
            cards: Vec::new(),
        }
    }

    fn outcome(&self, state: &TrimensState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn perft(&self, state: &TrimensState, depth: u32) -> Option<u64> {
        fn count(game: &Trimens, state: &TrimensState, depth: u32) -> u64 {
            let moves = state.legal();
            if depth <= 1 {
                return if depth == 0 { 1 } else { moves.len() as u64 };
            }
            let seat = state.to_move();
            moves
                .into_iter()
                .map(|m| {
                    let mut child = state.clone();
                    game.apply(&mut child, seat, m)
                        .expect("a legal move applies");
                    count(game, &child, depth - 1)
                })
                .sum()
        }
        Some(count(self, state, depth))
    }

    fn seat_name(&self, state: &TrimensState, seat: Seat) -> String {
        state.name(seat).to_string()
    }

    fn is_out(&self, state: &TrimensState, seat: Seat) -> bool {
        state.is_dead(seat)
    }

    fn waiting_reason(&self, state: &TrimensState, seat: Seat) -> Option<String> {
        state.is_dead(seat).then(|| {
            format!(
                "{}'s pieces are dead; {} to move",
                state.name(seat),
                state.name(state.to_move())
            )
        })
    }

    fn leave(
        &self,
        state: &mut TrimensState,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        if state.is_dead(seat) {
            return Err(GameError::Refused(
                "your pieces are already dead in this game".into(),
            ));
        }
        if state.alive().len() <= 2 {
            let others = state.alive().into_iter().filter(|&s| s != seat).collect();
            return Ok(vec![Event::GameOver(Outcome::win(others, reason))]);
        }
        // With three playing, the one who leaves has his pieces die and the others play on.
        state.kill(seat);
        let mut events = vec![Event::Public(format!(
            "{} leaves the game ({}): those pieces are dead and stay on the board.",
            state.name(seat),
            reason.describe()
        ))];
        // The player to move is judged again: the leaver's turn passes on, and someone whose
        // only moves took the leaver's pieces may be mated or stalemated now.
        let to_move = state.to_move();
        let n = state.seats() as u8;
        let before = Seat((to_move.0 + n - 1) % n);
        events.extend(state.next_turn(before).into_iter().map(Event::Public));
        if let Some(o) = &state.outcome {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }
}

impl TrimensState {
    /// Whose turn it is, and whether that player is in check.
    fn turn_text(&self) -> String {
        let seat = self.to_move();
        if self.position.seat_in_check(seat) {
            format!("{} to move, in check", self.name(seat))
        } else {
            format!("{} to move", self.name(seat))
        }
    }
}

//! Doubles Chess (Will Adams, *Variations on Chess and Checkers*, chess III): four players on a
//! 12x12 board, as two teams of partners or cut-throat, each for himself.
//!
//! The board and armies: each army on the middle eight squares of its edge, kings toward the
//! "friendly corners" (A1 for the Whites, L12 for the Blacks); the book's Figure 29 is lost and
//! the position is the one its text fixes (see `RULES-NOTES.md`). Two special moves make up for
//! the bigger board: a knight may add a second hop in the same direction to an empty square over
//! an empty one, never capturing; a pawn may go one, two or three squares on its first move, then
//! one or two until it crosses the centre, and any longer pawn move may be taken en passant on
//! every square it passed, at right angles too.
//!
//! Partners (W1 and W2 against B1 and B2, moving W1, B1, W2, B2) follow the book's seven rules
//! of check and mate; cut-throat (the corners' four squares off limits, moving clockwise from
//! White 1) its five. Interpretations, said also in `/rules`:
//! - a king attacked when an enemy who attacks it comes to move is lost: that enemy must take it
//!   (the book's rule 3, and rule 7's "treated as if it were checkmate"), unless his own king is
//!   in check; any of his pieces attacking the king may take it;
//! - en passant may be taken by each enemy on his next turn after the long step;
//! - cut-throat immunity: the players who "participated in the mate" are those whose pieces
//!   attacked the king or a square next to it when it was mated;
//! - a resigned or timed-out cut-throat player's pieces stay on the board, frozen;
//! - fifty moves each without a capture or pawn move, or a position seen three times, draws.

mod notation;

use serde::{Deserialize, Serialize};

use crate::board::{Cell, SquareBoard, Wrap};
use crate::chess::{
    CastlingRule, Move, MoveKind, MoveParseError, PawnRule, Piece, Position, Role, RulesSpec, Seat,
    Setup,
};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::table::{ArmyStatus, Table};

use super::chess::counting_draws_by;
use crate::view::{Figure, Placed, View, Viewer};

/// Doubles Chess.
pub struct Doubles;

/// Partners or each for himself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Partners,
    CutThroat,
}

/// The armies by index: White 1 at the bottom, Black 1 across at the top, White 2 at the left,
/// Black 2 at the right. Player `n` moves army `n`.
const NAMES: [&str; 4] = ["White 1", "Black 1", "White 2", "Black 2"];
/// Forward for each army in quarter turns from up the board.
const FACING: [u8; 4] = [0, 2, 1, 3];
/// Partners: W1, B1, W2, B2. Cut-throat: clockwise from White 1: bottom, left, top, right.
const PARTNERS_ORDER: [u8; 4] = [0, 1, 2, 3];
const CUT_THROAT_ORDER: [u8; 4] = [0, 2, 1, 3];

/// The starting army of each player, from its left as it sits (`RULES-NOTES.md`): rooks, knights
/// and bishops outside in; the king toward the friendly corner.
const ARMIES: [&str; 4] = [
    // White 1: c1..j1, pawns c2..j2.
    "Rc1 Nd1 Be1 Kf1 Qg1 Bh1 Ni1 Rj1 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2 Pi2 Pj2",
    // Black 1: c12..j12, pawns c11..j11.
    "Rc12 Nd12 Be12 Qf12 Kg12 Bh12 Ni12 Rj12 Pc11 Pd11 Pe11 Pf11 Pg11 Ph11 Pi11 Pj11",
    // White 2: a3..a10, pawns b3..b10.
    "Ra3 Na4 Ba5 Ka6 Qa7 Ba8 Na9 Ra10 Pb3 Pb4 Pb5 Pb6 Pb7 Pb8 Pb9 Pb10",
    // Black 2: l3..l10, pawns k3..k10.
    "Rl3 Nl4 Bl5 Ql6 Kl7 Bl8 Nl9 Rl10 Pk3 Pk4 Pk5 Pk6 Pk7 Pk8 Pk9 Pk10",
];

/// A piece that has just taken a king, safe from some armies for their next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Immunity {
    cell: Cell,
    /// The armies that may not take it, one bit each.
    from: u8,
}

/// A game of Doubles Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DoublesState {
    mode: Mode,
    position: Position,
    table: Table,
    immune: Vec<Immunity>,
    /// For each army mated in cut-throat, the other armies that took part in the mate.
    mate_helpers: [u8; 4],
    /// For each army mated now, the army whose move must take its king.
    #[serde(default)]
    mater: [Option<u8>; 4],
    /// Every move, as "White 1: Nf3".
    moves: Vec<String>,
    /// Repetition keys since the last capture or pawn move.
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    outcome: Option<Outcome>,
    seed: u64,
}

fn mode_of(options: &Options) -> Mode {
    match options.get("mode") {
        Some(m) if m.eq_ignore_ascii_case("cutthroat") || m.eq_ignore_ascii_case("cut-throat") => {
            Mode::CutThroat
        }
        _ => Mode::Partners,
    }
}

impl DoublesState {
    /// A new game in `mode`, on a flat board or a cylinder.
    pub fn new(mode: Mode, cylinder: bool, seed: u64) -> DoublesState {
        let corners = match mode {
            Mode::Partners => 0,
            Mode::CutThroat => crate::board::CUT_THROAT_CORNERS,
        };
        let board = SquareBoard::new(12, 12)
            .cut_corners(corners)
            .seats_facing(&FACING)
            .spec();
        let teams = match mode {
            Mode::Partners => vec![0, 1, 0, 1],
            Mode::CutThroat => vec![0, 1, 2, 3],
        };
        let mut spec = RulesSpec::new(board, teams.clone());
        spec.pawns = PawnRule::Doubles;
        spec.extended_knight = true;
        spec.castling = CastlingRule::KingTwoSquares;
        if cylinder {
            // Each pair of opposite players has its own left and right edges touching.
            spec.army_wrap = vec![Wrap::Files, Wrap::Files, Wrap::Ranks, Wrap::Ranks];
        }
        let rules = spec.build();
        let b = rules.board();
        let mut cells = vec![None; b.len()];
        let mut rooks = Vec::new();
        for (army, line) in ARMIES.iter().enumerate() {
            for word in line.split_whitespace() {
                let role = Role::from_char(word.chars().next().unwrap()).unwrap();
                let cell = b.cell(&word[1..]).expect("the armies stand on the board");
                cells[cell.index()] = Some(Piece {
                    seat: Seat(army as u8),
                    role,
                });
                if role == Role::Rook {
                    rooks.push(cell);
                }
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
        let order = match mode {
            Mode::Partners => PARTNERS_ORDER,
            Mode::CutThroat => CUT_THROAT_ORDER,
        };
        DoublesState {
            mode,
            repetitions: vec![position.repetition_key()],
            position,
            table: Table::with_order(&NAMES, &teams, &order),
            immune: Vec::new(),
            mate_helpers: [0; 4],
            mater: [None; 4],
            moves: Vec::new(),
            last_move: Vec::new(),
            outcome: None,
            seed,
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The table: armies, statuses, order.
    pub fn table(&self) -> &Table {
        &self.table
    }
    /// The moves played, each with its army.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    fn to_move(&self) -> u8 {
        self.table.current().army
    }

    /// The position with `army` to move.
    fn as_turn_of(&self, army: u8) -> Position {
        let mut pos = self.position.clone();
        pos.set_turn(Seat(army));
        pos
    }

    fn in_check(&self, army: u8) -> bool {
        self.position.seat_in_check(Seat(army))
    }

    /// Kings that can be taken and must be: of armies still in the game (a frozen one's too).
    fn live_king_at(&self, cell: Cell, army: u8) -> bool {
        self.position.piece_at(cell).is_some_and(|p| {
            p.role == Role::King
                && p.seat.0 != army
                && self.table.status(p.seat.0) != ArmyStatus::Eliminated
        })
    }

    /// The moves the chess rules allow `army`, less captures of a piece immune from it.
    fn chess_moves(&self, army: u8) -> Vec<Move> {
        let pos = self.as_turn_of(army);
        pos.legal_moves()
            .into_iter()
            .filter(|m| {
                !self
                    .immune
                    .iter()
                    .any(|i| i.cell == m.to && i.from & (1 << army) != 0)
            })
            .collect()
    }

    /// Whether `army` must take the king on `cell` now: the king of an army it mated (rule 3),
    /// or, in partners, a king left attacked with its owner still to move (rule 7).
    fn must_take(&self, army: u8, cell: Cell) -> bool {
        let Some(victim) = self.position.piece_at(cell).map(|p| p.seat.0) else {
            return false;
        };
        if !self.live_king_at(cell, army) {
            return false;
        }
        match self.table.status(victim) {
            ArmyStatus::Mated | ArmyStatus::Frozen => self.mater[victim as usize] == Some(army),
            _ => self.mode == Mode::Partners,
        }
    }

    /// Everything `army` may do on its turn: a king it must take is taken first, unless its own
    /// king is in check.
    fn moves_of(&self, army: u8) -> Vec<Move> {
        let moves = self.chess_moves(army);
        if self.in_check(army) {
            return moves;
        }
        let takes: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.kind != MoveKind::Castle && self.must_take(army, m.to))
            .collect();
        if takes.is_empty() {
            moves
        } else {
            takes
        }
    }

    fn checkmated(&self, army: u8) -> bool {
        self.position.king(Seat(army)).is_some()
            && self.in_check(army)
            && self.chess_moves(army).is_empty()
    }

    /// The armies other than `victim` and `mater` whose pieces attack the victim's king or a
    /// square next to it.
    fn helpers(&self, victim: u8, mater: u8) -> u8 {
        let Some(king) = self.position.king(Seat(victim)) else {
            return 0;
        };
        let board = self.position.board();
        let mut around = vec![king];
        for d in 0..board.dir_count() {
            around.extend(board.step(king, crate::board::Dir(d as u8)));
        }
        let mut mask = 0;
        for a in 0..4u8 {
            if a != victim
                && a != mater
                && around
                    .iter()
                    .any(|&c| self.position.attacked_by(c, Seat(a)))
            {
                mask |= 1 << a;
            }
        }
        mask
    }

    /// The move with `+` when it checks an enemy king and `#` when it mates one.
    fn notate(&self, m: Move) -> String {
        let army = self.to_move();
        let mut text = self.position.san_plain_among(m, &self.moves_of(army));
        let mut after = self.clone();
        after.moves.clear();
        after.repetitions.clear();
        after.position.play_unchecked(m);
        let enemies: Vec<u8> = (0..4u8)
            .filter(|&a| self.table.team(a) != self.table.team(army))
            .filter(|&a| !self.table.status(a).is_out())
            .collect();
        if enemies.iter().any(|&a| after.checkmated(a)) {
            text.push('#');
        } else if enemies.iter().any(|&a| after.in_check(a)) {
            text.push('+');
        }
        text
    }

    fn name(&self, army: u8) -> &str {
        &self.table.army(army).name
    }

    fn apply_move(&mut self, m: Move) -> Vec<Event> {
        let army = self.to_move();
        let text = self.notate(m);
        let number = self.table.rounds() + 1;
        let mut events = vec![Event::Public(format!(
            "{} played {number}. {text}",
            self.name(army)
        ))];
        self.moves.push(format!("{}: {text}", self.name(army)));
        let taken = match m.kind {
            MoveKind::Castle => None,
            MoveKind::EnPassant => None,
            _ => self.position.piece_at(m.to),
        };
        let helpers_now = match taken {
            Some(p) if p.role == Role::King => self.helpers(p.seat.0, army),
            _ => 0,
        };
        self.position.play_unchecked(m);
        self.last_move = match m.kind {
            MoveKind::Castle => {
                vec![m.from, self.position.king(Seat(army)).unwrap_or(m.to)]
            }
            _ => vec![m.from, m.to],
        };
        // Immunity lasts one move of each army it guards against; a piece taken or moved
        // loses it.
        self.immune.retain(|i| i.cell != m.to && i.cell != m.from);
        for i in &mut self.immune {
            i.from &= !(1 << army);
        }
        self.immune.retain(|i| i.from != 0);
        if let Some(victim) = taken.filter(|p| p.role == Role::King).map(|p| p.seat.0) {
            self.mater[victim as usize] = None;
            events.push(Event::Public(format!(
                "{} took {}'s king.",
                self.name(army),
                self.name(victim)
            )));
            let from = match self.mode {
                // Rule 5: immune from the victim, not from the partner, for one move.
                Mode::Partners => {
                    if self.table.status(victim) == ArmyStatus::Mated {
                        self.table.set_status(victim, ArmyStatus::Playing);
                    }
                    1 << victim
                }
                // Rule 3: immune from every player who took part in the mate.
                Mode::CutThroat => {
                    self.table.set_status(victim, ArmyStatus::Eliminated);
                    let helped = self.mate_helpers[victim as usize] | helpers_now;
                    helped & !(1 << army) & !(1 << victim)
                }
            };
            if from != 0 {
                self.immune.push(Immunity { cell: m.to, from });
            }
        }
        events.extend(self.mark_mates(army));
        if self.outcome.is_none() {
            events.extend(self.next_turn());
        }
        // The position is recorded with the army that really moves next.
        if self.position.halfmoves() == 0 {
            self.repetitions.clear();
        }
        self.repetitions.push(self.position.repetition_key());
        if self.outcome.is_none() {
            self.outcome = self.counting_draws();
        }
        events
    }

    /// After `mover`'s move: every army now checkmated is marked (mated in partners, frozen in
    /// cut-throat), a mate broken is lifted, and the game ends if a side has lost.
    fn mark_mates(&mut self, mover: u8) -> Vec<Event> {
        let mut events = Vec::new();
        for a in 0..4u8 {
            let status = self.table.status(a);
            if a == mover || status.is_out() {
                continue;
            }
            let mated = self.checkmated(a);
            if mated {
                self.note_mater(a, mover);
            }
            match (self.mode, mated, status) {
                (Mode::Partners, true, ArmyStatus::Playing | ArmyStatus::Stalemated) => {
                    self.table.set_status(a, ArmyStatus::Mated);
                    events.push(Event::Public(format!(
                        "{} is checkmated and misses turns until the king is taken or the mate broken.",
                        self.name(a)
                    )));
                }
                (Mode::Partners, false, ArmyStatus::Mated) => {
                    self.table.set_status(a, ArmyStatus::Playing);
                    self.mater[a as usize] = None;
                    if !self.in_check(a) {
                        events.push(Event::Public(format!(
                            "{}'s checkmate is broken.",
                            self.name(a)
                        )));
                    }
                }
                (Mode::CutThroat, true, _) => {
                    self.mate_helpers[a as usize] = self.helpers(a, mover);
                    self.table.set_status(a, ArmyStatus::Frozen);
                    events.push(Event::Public(format!(
                        "{} is checkmated: the army is frozen in place, and its king must be taken.",
                        self.name(a)
                    )));
                }
                _ => {}
            }
        }
        self.outcome = self.decided(mover);
        events
    }

    /// Records who must take `victim`'s king: the mover if his pieces attack it, else the
    /// attacker who comes to move first; a mater who no longer attacks it hands the duty on.
    fn note_mater(&mut self, victim: u8, mover: u8) {
        let Some(king) = self.position.king(Seat(victim)) else {
            return;
        };
        let attacks = |a: u8| {
            a != victim
                && self.table.team(a) != self.table.team(victim)
                && !self.table.status(a).is_out()
                && self.position.attacked_by(king, Seat(a))
        };
        if self.mater[victim as usize].is_some_and(attacks) {
            return;
        }
        self.mater[victim as usize] = if attacks(mover) {
            Some(mover)
        } else {
            self.table.upcoming().map(|t| t.army).find(|&a| attacks(a))
        };
    }

    /// Whether the game is won now, `mover` having just moved.
    fn decided(&self, mover: u8) -> Option<Outcome> {
        match self.mode {
            Mode::Partners => {
                // A team loses when both its kings are mated or gone.
                let lost = |team: u8| {
                    (0..4u8).filter(|&a| self.table.team(a) == team).all(|a| {
                        self.position.king(Seat(a)).is_none()
                            || self.table.status(a) == ArmyStatus::Mated
                    })
                };
                let ours = self.table.team(mover);
                for team in [1 - ours, ours] {
                    if lost(team) {
                        return Some(Outcome::win(
                            self.table.players_of_team(1 - team),
                            EndReason::Checkmate,
                        ));
                    }
                }
                None
            }
            Mode::CutThroat => self.last_standing(EndReason::Checkmate),
        }
    }

    /// Cut-throat: the last army in the game wins; two left of whom one is stalemated draw.
    fn last_standing(&self, reason: EndReason) -> Option<Outcome> {
        let alive: Vec<u8> = (0..4u8)
            .filter(|&a| !self.table.status(a).is_out())
            .collect();
        match alive.as_slice() {
            [] => Some(Outcome::draw(EndReason::Stalemate)),
            [a] => Some(Outcome::win(vec![self.table.controller(*a)], reason)),
            [_, _]
                if alive.iter().any(|&a| {
                    a != self.to_move()
                        && self.position.king(Seat(a)).is_some()
                        && !self.in_check(a)
                        && self.chess_moves(a).is_empty()
                }) =>
            {
                // Rule 5: a mate that leaves only the mater and a stalemated player draws.
                Some(Outcome::draw(EndReason::Stalemate))
            }
            _ => None,
        }
    }

    /// Hands the turn on, passing over the armies that miss it.
    fn next_turn(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..4 {
            self.table.advance(|_, _| true);
            let a = self.to_move();
            let status = self.table.status(a);
            if status.is_out() {
                self.position.skip_turn(Seat(a));
                continue;
            }
            if !self.moves_of(a).is_empty() {
                if status != ArmyStatus::Playing {
                    self.table.set_status(a, ArmyStatus::Playing);
                }
                self.position.set_turn(Seat(a));
                return events;
            }
            let has_king = self.position.king(Seat(a)).is_some();
            // A passed turn counts as the army's move for immunity ("for one move").
            for i in &mut self.immune {
                i.from &= !(1 << a);
            }
            self.immune.retain(|i| i.from != 0);
            if self.in_check(a) {
                let mover = self.last_mover();
                self.note_mater(a, mover);
                match self.mode {
                    Mode::Partners => {
                        self.table.set_status(a, ArmyStatus::Mated);
                        events.push(Event::Public(format!(
                            "{} is checkmated and misses the turn.",
                            self.name(a)
                        )));
                    }
                    Mode::CutThroat => {
                        self.table.set_status(a, ArmyStatus::Frozen);
                        events.push(Event::Public(format!(
                            "{} is checkmated: the army is frozen in place.",
                            self.name(a)
                        )));
                    }
                }
                self.outcome = self.decided(a);
            } else if has_king {
                let others = (0..4u8)
                    .filter(|&o| o != a && !self.table.status(o).is_out())
                    .count();
                if self.mode == Mode::Partners || others < 2 {
                    // Partners rule 6, cut-throat rule 5.
                    events.push(Event::Public(format!("{} is stalemated.", self.name(a))));
                    self.outcome = Some(Outcome::draw(EndReason::Stalemate));
                } else {
                    self.table.set_status(a, ArmyStatus::Stalemated);
                    events.push(Event::Public(format!(
                        "{} is stalemated and passes.",
                        self.name(a)
                    )));
                }
            } else {
                events.push(Event::Public(format!(
                    "{} has no move and passes.",
                    self.name(a)
                )));
            }
            if self.outcome.is_some() {
                return events;
            }
            self.position.skip_turn(Seat(a));
        }
        // Nobody can move.
        self.outcome = Some(Outcome::draw(EndReason::Stalemate));
        events
    }

    /// The army that made the last move (the one whose piece stands on the last move's end).
    fn last_mover(&self) -> u8 {
        self.last_move
            .last()
            .and_then(|&c| self.position.piece_at(c))
            .map_or(0, |p| p.seat.0)
    }

    fn counting_draws(&self) -> Option<Outcome> {
        // Fifty moves by each of four players.
        let pos = &self.position;
        let counted = counting_draws_by(
            pos.halfmoves(),
            200,
            pos.repetition_key(),
            &self.repetitions,
        );
        if counted.is_some() {
            return counted;
        }
        if self.position.pieces().all(|(_, p)| p.role == Role::King) {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        None
    }

    /// Why `army`'s move text was refused, when the chess rules alone would allow it.
    fn why_refused(&self, army: u8, m: Move) -> String {
        if let Some(i) = self.immune.iter().find(|i| i.cell == m.to) {
            if i.from & (1 << army) != 0 {
                return format!(
                    "the piece on {} has just taken a king and is immune from you for this move",
                    self.position.board().label(i.cell)
                );
            }
        }
        let kings: Vec<&str> = self
            .moves_of(army)
            .iter()
            .map(|k| self.position.board().label(k.to))
            .collect();
        format!(
            "you must take the king you attack first ({})",
            kings.join(" or ")
        )
    }

    fn parse_move(&self, army: u8, text: &str) -> Result<Move, GameError> {
        let text = &normalise(text);
        let allowed = self.moves_of(army);
        let pos = self.as_turn_of(army);
        let columns = notation::columns(army < 2);
        match pos.parse_move_among(text, &allowed) {
            Ok(m) => {
                // B, I and K are files on this board and names in the book's notation: when
                // the two readings are different legal moves, ask which.
                if let Some(Ok(other)) =
                    notation::read(&pos, army as usize, &columns, text, &allowed)
                {
                    if other != m {
                        return Err(GameError::Move(MoveParseError::Ambiguous {
                            text: text.trim().to_string(),
                            candidates: vec![
                                format!(
                                    "{} (the board's square)",
                                    pos.san_plain_among(m, &allowed)
                                ),
                                format!(
                                    "{} (your own notation)",
                                    pos.san_plain_among(other, &allowed)
                                ),
                            ],
                        }));
                    }
                }
                Ok(m)
            }
            Err(err) => {
                // A move the chess rules allow, refused by Doubles' own rules.
                if let Ok(m) = pos.parse_move(text) {
                    return Err(GameError::Move(MoveParseError::Illegal {
                        text: text.trim().to_string(),
                        reason: self.why_refused(army, m),
                    }));
                }
                if let Some(read) = notation::read(&pos, army as usize, &columns, text, &allowed) {
                    return read.map_err(GameError::Move);
                }
                if let Some(reason) = self.hop_problem(&pos, text) {
                    return Err(GameError::Move(MoveParseError::Illegal {
                        text: text.trim().to_string(),
                        reason,
                    }));
                }
                Err(GameError::Move(err))
            }
        }
    }

    /// A knight's double hop through an occupied square, explained.
    fn hop_problem(&self, pos: &Position, text: &str) -> Option<String> {
        if !text.is_ascii() {
            return None;
        }
        let board = pos.board();
        let cleaned: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        let lower = cleaned.to_ascii_lowercase();
        let lower = lower.trim_start_matches('n');
        let squares: Vec<Cell> = (1..lower.len())
            .find_map(|i| Some((board.cell(&lower[..i])?, board.cell(&lower[i..])?)))
            .map(|(a, b)| vec![a, b])
            .or_else(|| board.cell(lower).map(|c| vec![c]))?;
        let to = *squares.last()?;
        let army = pos.turn();
        for from in pos.cells_of(army).iter() {
            if pos.piece_at(from).map(|p| p.role) != Some(Role::Knight)
                || (squares.len() == 2 && squares[0] != from)
            {
                continue;
            }
            for &(mid, target) in pos.rules().board_of(army.index()).knight_hops(from) {
                if target != to {
                    continue;
                }
                if pos.piece_at(mid).is_some() {
                    return Some(format!(
                        "the knight's second hop needs the square between empty, and {} is occupied",
                        board.label(mid)
                    ));
                }
                if pos.piece_at(target).is_some() {
                    return Some(format!(
                        "a knight's second hop never captures, and {} is occupied",
                        board.label(target)
                    ));
                }
            }
        }
        None
    }
}

/// Move text as typed or copied from the book: typographic dashes and the multiplication sign
/// become `-` and `x`, and the book's "ch" (check) becomes `+`.
fn normalise(text: &str) -> String {
    let mut out: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{d7}' => 'x',
            c => c,
        })
        .collect();
    let lower = out.to_ascii_lowercase();
    if lower.ends_with("ch") && out.len() > 2 {
        out.truncate(out.len() - 2);
        out.push('+');
    }
    out
}

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| VariantInfo {
    id: "doubles",
    aliases: &["doubles-chess", "double-chess", "four-player-chess"],
    name: "Doubles Chess",
    family: Family::Chess,
    seat_counts: &[4],
    options: vec![
        OptionSpec {
            key: "mode",
            help: "partners (W1 and W2 against B1 and B2) or cutthroat (each for himself)",
            default: Some("partners"),
            values: OptionValues::Choice(&["partners", "cutthroat"]),
        },
        OptionSpec {
            key: "board",
            help:
                "flat, or cylinder (each pair of opposite players has its own side edges touching)",
            default: Some("flat"),
            values: OptionValues::Choice(&["flat", "cylinder"]),
        },
    ],
    hidden_information: false,
    simultaneous: false,
    rules: RULES,
    source: "Will Adams, Variations on Chess and Checkers, chess III (Doubles)",
});

const RULES: &str = "\
Four players on a 12x12 board, each army on the middle eight squares of its edge: White 1 at \
the bottom, Black 1 across, White 2 at the left, Black 2 at the right. Kings stand toward the \
dark 'friendly corners' (a1 for the Whites, l12 for the Blacks). The book's diagram is lost; \
this position is reconstructed from its text.\n\
Knights may add a second hop in the same direction to an empty square over an empty one, never \
capturing. Pawns go 1-3 squares on their first move, then 1-2 until past the centre, then 1; \
any longer pawn move may be taken en passant on each square it passed (at right angles too), by \
each enemy on its next turn (our reading), promoting if it lands on the far row. Castling (the \
book is silent; our house rule): the king goes two squares toward the rook, which lands on the \
square it crossed; O-O is the king's side (the half of the home row it stands in).\n\
Partners (mode=partners, all 144 squares, order W1, B1, W2, B2): you need not defend your \
partner's king. A mated player misses turns until the king is taken or the mate broken; the \
mater must take the king at once unless checked meanwhile (we let any of his pieces that attack \
it take it; if his pieces no longer attack it, the attacker who moves first must). The taker is immune from the victim, not the partner, for one move. A king attacked \
when an enemy who attacks it comes to move is lost the same way (discovery mate): that enemy \
must take it. A player \
without a king plays on and cannot be checked. Any stalemate draws the whole game, unless the \
stalemated player has lost the king. A team wins by mating both opposing kings.\n\
Cut-throat (mode=cutthroat): the four squares of each corner are off limits; play runs clockwise \
from White 1. A mated army is frozen in place (its pieces may be captured and still give check); \
the mater must take its king next move unless checked meanwhile; the taker is immune for one \
move from the players who took part in the mate (we count those attacking the king or a square \
next to it). A stalemated player passes while two others play; a stalemate with one other left \
draws. A king left attacked when another enemy comes to move may be taken by him (our reading; \
not forced). Last player standing wins; a resigning player's pieces stay, frozen.\n\
board=cylinder (reconstructed): White 1 and Black 1 have the a- and l-files touching; White 2 \
and Black 2 ranks 1 and 12.\n\
Moves: algebraic on files a-l and ranks 1-12 from White 1's side (Nj5, g5, Qxk7), or the book's \
own notation from the mover's side (P-Q5, B-II7, KN-QB3, Q x K). Fifty moves each without a \
capture or pawn move, or a threefold repetition, draws.";

impl Game for Doubles {
    type State = DoublesState;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        seed: u64,
    ) -> Result<DoublesState, GameError> {
        let cylinder = options
            .get("board")
            .is_some_and(|b| b.eq_ignore_ascii_case("cylinder"));
        Ok(DoublesState::new(mode_of(options), cylinder, seed))
    }

    fn prompts(&self, state: &DoublesState) -> Vec<Prompt> {
        if state.outcome.is_some() {
            return Vec::new();
        }
        let army = state.to_move();
        let mut text = format!("{} to move", state.name(army));
        let moves = state.moves_of(army);
        if !moves.is_empty()
            && moves.iter().all(|m| state.live_king_at(m.to, army))
            && !state.in_check(army)
        {
            let kings: Vec<&str> = moves
                .iter()
                .map(|m| state.position.board().label(m.to))
                .collect();
            text.push_str(&format!(
                ": you must take the king on {}",
                kings.join(" or ")
            ));
        }
        vec![Prompt {
            seat: state.table.controller(army),
            kind: PromptKind::Move,
            text,
        }]
    }

    fn legal(&self, state: &DoublesState, seat: Seat) -> Vec<Move> {
        let army = state.to_move();
        if state.outcome.is_some() || state.table.controller(army) != seat {
            return Vec::new();
        }
        state.moves_of(army)
    }

    fn action_text(&self, state: &DoublesState, action: &Move) -> String {
        state
            .position
            .san_plain_among(*action, &state.moves_of(state.to_move()))
    }

    fn legal_texts(&self, state: &DoublesState, seat: Seat) -> Vec<String> {
        let moves = Game::legal(self, state, seat);
        moves
            .iter()
            .map(|m| state.position.san_plain_among(*m, &moves))
            .collect()
    }

    fn parse(&self, state: &DoublesState, seat: Seat, text: &str) -> Result<Move, GameError> {
        let army = state.to_move();
        if state.table.controller(army) != seat {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.name(army)
            )));
        }
        state.parse_move(army, text)
    }

    fn apply(
        &self,
        state: &mut DoublesState,
        seat: Seat,
        action: Move,
    ) -> Result<Vec<Event>, GameError> {
        let army = state.to_move();
        if state.table.controller(army) != seat {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.name(army)
            )));
        }
        if !state.moves_of(army).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: state.position.san_plain(action),
                reason: "it is not a legal move now".into(),
            }));
        }
        Ok(state.apply_move(action))
    }

    fn view(&self, state: &DoublesState, viewer: Viewer) -> View {
        let pos = &state.position;
        let army = state.to_move();
        let checks: Vec<Cell> = (0..4u8)
            .filter(|&a| state.in_check(a))
            .filter_map(|a| pos.king(Seat(a)))
            .collect();
        let status = match &state.outcome {
            Some(o) => o.describe(|s| state.name(s.0).to_string()),
            None if state.in_check(army) => format!("{} to move, in check", state.name(army)),
            None => format!("{} to move", state.name(army)),
        };
        View {
            variant: self.info().id,
            board: pos.rules().board_arc().clone(),
            viewer,
            bottom: match viewer {
                Viewer::Seat(s) => Seat(state.table.armies_of(s).first().copied().unwrap_or(0)),
                Viewer::Spectator => Seat(0),
            },
            figures: pos
                .pieces()
                .map(|(cell, piece)| Placed::new(cell, piece.seat, Figure::Chess(piece.role)))
                .collect(),
            last_move: state.last_move.clone(),
            checks,
            to_act: if state.outcome.is_some() {
                Vec::new()
            } else {
                vec![state.table.controller(army)]
            },
            players: NAMES.iter().map(|n| n.to_string()).collect(),
            move_number: state.table.rounds() + 1,
            status,
            panel: None,
            square_names: Vec::new(),
            table: state.table.lines(),
        }
    }

    fn outcome(&self, state: &DoublesState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn seat_name(&self, state: &DoublesState, seat: Seat) -> String {
        state
            .table
            .armies_of(seat)
            .first()
            .map_or_else(|| seat.colour_name(), |&a| state.name(a).to_string())
    }

    fn concede(
        &self,
        state: &DoublesState,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Outcome {
        // Partners: the other team wins, never the leaver's partner.
        let team = state
            .table
            .armies_of(seat)
            .first()
            .map_or(0, |&a| state.table.team(a));
        let others: Vec<Seat> = (0..4u8)
            .filter(|&a| state.table.team(a) != team && !state.table.status(a).is_out())
            .map(|a| state.table.controller(a))
            .collect();
        Outcome::win(others, reason)
    }

    fn leave(
        &self,
        state: &mut DoublesState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        if state.mode == Mode::Partners {
            return Ok(vec![Event::GameOver(
                self.concede(state, seat, seats, reason),
            )]);
        }
        // Cut-throat: the player is out; the game goes on while two remain.
        let armies = state.table.armies_of(seat);
        if armies.iter().all(|&a| state.table.status(a).is_out()) {
            return Err(GameError::Refused(
                "you are already out of this game".into(),
            ));
        }
        let mut events = Vec::new();
        for army in state.table.armies_of(seat) {
            state.table.set_status(army, ArmyStatus::Eliminated);
            events.push(Event::Public(format!(
                "{} is out ({}); the army stays on the board, frozen.",
                state.name(army),
                reason.describe()
            )));
        }
        state.outcome = state.last_standing(reason);
        if state.outcome.is_none() && state.table.status(state.to_move()).is_out() {
            events.extend(state.next_turn());
        }
        if let Some(o) = &state.outcome {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    fn is_out(&self, state: &DoublesState, seat: Seat) -> bool {
        let armies = state.table.armies_of(seat);
        !armies.is_empty() && armies.iter().all(|&a| state.table.status(a).is_out())
    }

    fn waiting_reason(&self, state: &DoublesState, seat: Seat) -> Option<String> {
        let army = *state.table.armies_of(seat).first()?;
        let status = state.table.status(army);
        (status != ArmyStatus::Playing).then(|| {
            format!(
                "{} is {}; {} to move",
                state.name(army),
                status.describe(),
                state.name(state.to_move())
            )
        })
    }
}

#[cfg(test)]
mod tests;

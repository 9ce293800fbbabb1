//! The rules Adams gives for chess with several players, on whatever board: Doubles Chess's
//! four armies on 12x12 and Tri-Chess's two to six on the tri-boards. Teams of partners or each
//! for himself, the turn order as data ([`Table`]), checkmate and the king's capture, immunity,
//! frozen and stalemated armies, and the end of the game.
//!
//! Partners follow the book's seven rules of Doubles Chess: a mated player misses turns until
//! his king is taken or the mate broken; the mater must take the king at once unless checked
//! meanwhile; the taker is immune from the victim for one move; a king left attacked when an
//! enemy who attacks it comes to move is lost the same way; a team whose kings are all mated or
//! taken has lost (with three teams it leaves the game and the others play on); any stalemate
//! draws. Cut-throat follows its five: a mated army is frozen in place, its pieces capturable
//! and still giving check; the mater must take its king; the taker is immune from those who
//! took part in the mate (judged when the mate is given, not when the king is taken); a
//! stalemated player passes while two others play; the last player standing wins.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::{Board, Cell, Wrap};
use crate::chess::{Move, MoveKind, Position, Role, Seat};
use crate::game::{EndReason, Event, GameError, Outcome, Prompt, PromptKind};
use crate::table::{ArmyStatus, Table};
use crate::view::{Figure, Placed, View, Viewer};

use super::chess::counting_draws_by;

/// Partners or each for himself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Partners,
    CutThroat,
}

/// How moves are written in the game's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Writing {
    /// Algebraic on a square board (`Nj5`, `Qxk7`).
    #[default]
    Algebraic,
    /// Numbered cells (`N45-67`, `Qx80`), on the tri-boards.
    Numbered,
}

/// A piece that has just taken a king, safe from some armies for their next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Immunity {
    pub(crate) cell: Cell,
    /// The armies that may not take it, one bit each.
    pub(crate) from: u8,
}

/// A game of chess for several players under Adams' rules.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TeamChess {
    pub(crate) mode: Mode,
    pub(crate) position: Position,
    pub(crate) table: Table,
    pub(crate) immune: Vec<Immunity>,
    /// For each army mated in cut-throat, the other armies that took part in the mate, as they
    /// stood when it was given.
    pub(crate) mate_helpers: Vec<u8>,
    /// For each army mated now, the army whose move must take its king.
    #[serde(default)]
    pub(crate) mater: Vec<Option<u8>>,
    /// Every move, as "White 1: Nf3".
    pub(crate) moves: Vec<String>,
    /// Repetition keys since the last capture or pawn move.
    pub(crate) repetitions: Vec<u64>,
    pub(crate) last_move: Vec<Cell>,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) seed: u64,
    #[serde(default)]
    pub(crate) writing: Writing,
}

impl TeamChess {
    /// A game from `position` (with army 0 to move), the table giving names, teams and order.
    pub fn start(
        mode: Mode,
        position: Position,
        table: Table,
        writing: Writing,
        seed: u64,
    ) -> TeamChess {
        let armies = position.rules().seats();
        let mut state = TeamChess {
            mode,
            repetitions: vec![position.repetition_key()],
            position,
            immune: Vec::new(),
            mate_helpers: vec![0; armies],
            mater: vec![None; armies],
            moves: Vec::new(),
            last_move: Vec::new(),
            outcome: None,
            seed,
            writing,
            table,
        };
        let first = state.to_move();
        state.position.set_turn(Seat(first));
        state
    }

    /// Partners or cut-throat.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The number of armies.
    pub fn armies(&self) -> u8 {
        self.position.rules().seats() as u8
    }

    /// A move as the game records it, without check marks.
    pub(crate) fn write(&self, m: Move) -> String {
        match self.writing {
            Writing::Algebraic => self
                .position
                .san_plain_among(m, &self.moves_of(self.to_move())),
            Writing::Numbered => super::tri_chess::notation::write(&self.position, m),
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

    pub(crate) fn to_move(&self) -> u8 {
        self.table.current().army
    }

    /// The position with `army` to move.
    pub(crate) fn as_turn_of(&self, army: u8) -> Position {
        let mut pos = self.position.clone();
        pos.set_turn(Seat(army));
        pos
    }

    pub(crate) fn in_check(&self, army: u8) -> bool {
        self.position.seat_in_check(Seat(army))
    }

    /// Kings that can be taken and must be: of armies still in the game (a frozen one's too).
    pub(crate) fn live_king_at(&self, cell: Cell, army: u8) -> bool {
        self.position.piece_at(cell).is_some_and(|p| {
            p.role == Role::King
                && p.seat.0 != army
                && self.table.status(p.seat.0) != ArmyStatus::Eliminated
        })
    }

    /// The moves the chess rules allow `army`, less captures of a piece immune from it.
    pub(crate) fn chess_moves(&self, army: u8) -> Vec<Move> {
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

    /// The moves `army`'s king would have were it `army`'s turn (see
    /// [`crate::game::Game::king_room`]); `None` when the army has no king on the board.
    pub(crate) fn king_room(&self, army: u8) -> Option<usize> {
        let king = self.position.king(Seat(army))?;
        if self.outcome.is_some() {
            return Some(0);
        }
        Some(
            self.chess_moves(army)
                .iter()
                .filter(|m| m.is_king_step(king))
                .count(),
        )
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
    pub(crate) fn moves_of(&self, army: u8) -> Vec<Move> {
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

    /// The armies that take part in mating `victim` now: `mover`, whose move gave the mate,
    /// and every other army whose pieces attack the victim's king or a square next to it.
    fn helpers(&self, victim: u8, mover: u8) -> u8 {
        let Some(king) = self.position.king(Seat(victim)) else {
            return 0;
        };
        let board = self.position.board();
        let mut around = vec![king];
        for d in 0..board.dir_count() {
            around.extend(board.step(king, crate::board::Dir(d as u8)));
        }
        let mut mask = if mover == victim { 0 } else { 1 << mover };
        for a in 0..self.armies() {
            if a != victim
                && around
                    .iter()
                    .any(|&c| self.position.attacked_by(c, Seat(a)))
            {
                mask |= 1 << a;
            }
        }
        mask
    }

    /// The move with `+` when it checks an enemy king and `#` when that check mates, and the
    /// checks of other armies it uncovers, in words. Only what the move itself did is marked:
    /// a check by a piece of the mover's that did not attack the king before (the moved piece,
    /// or one it uncovered). A check another army gave earlier is not the mover's, and one the
    /// move uncovers is that army's, so it is told, not marked.
    fn notate(&self, m: Move) -> (String, Vec<String>) {
        let army = self.to_move();
        let mut text = self.write(m);
        let mut after = self.clone();
        after.moves.clear();
        after.repetitions.clear();
        after.position.play_unchecked(m);
        let (mut checks, mut mates) = (false, false);
        let mut uncovered = Vec::new();
        for a in 0..self.armies() {
            if a == army || self.table.status(a).is_out() {
                continue;
            }
            // The move cannot shift another army's king, only take it.
            let Some(king) = after.position.king(Seat(a)) else {
                continue;
            };
            let enemy_of_a = |b: u8| self.table.team(b) != self.table.team(a);
            if enemy_of_a(army) && after.position.attacked_by(king, Seat(army)) {
                // Attacked by the mover's pieces now and not before; or, rarely, already
                // attacked (a mated king waiting to be taken) and now by a piece that did not.
                let fresh = !self.position.attacked_by(king, Seat(army)) || {
                    let before: Vec<Cell> = self
                        .position
                        .attackers(king, Seat(army))
                        .into_iter()
                        .map(|(c, _)| c)
                        .collect();
                    after
                        .position
                        .attackers(king, Seat(army))
                        .iter()
                        .any(|(c, _)| !before.contains(c))
                };
                if fresh {
                    checks = true;
                    mates |= after.checkmated(a);
                }
            }
            for b in 0..self.armies() {
                if b != army
                    && b != a
                    && enemy_of_a(b)
                    && after.position.attacked_by(king, Seat(b))
                    && !self.position.attacked_by(king, Seat(b))
                {
                    uncovered.push(format!(
                        "{}'s move uncovers {}'s check on {}.",
                        self.name(army),
                        self.name(b),
                        self.name(a)
                    ));
                }
            }
        }
        if mates {
            text.push('#');
        } else if checks {
            text.push('+');
        }
        (text, uncovered)
    }

    pub(crate) fn name(&self, army: u8) -> &str {
        &self.table.army(army).name
    }

    pub(crate) fn apply_move(&mut self, m: Move) -> Vec<Event> {
        let army = self.to_move();
        let (text, uncovered) = self.notate(m);
        let number = self.table.rounds() + 1;
        let mut events = vec![Event::Public(format!(
            "{} played {number}. {text}",
            self.name(army)
        ))];
        events.extend(uncovered.into_iter().map(Event::Public));
        self.moves.push(format!("{}: {text}", self.name(army)));
        let taken = match m.kind {
            MoveKind::Castle => None,
            MoveKind::EnPassant => None,
            _ => self.position.piece_at(m.to),
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
                // Rule 3: immune from every player who took part in the mate, as recorded when
                // it was given; a player who came up afterwards did not take part.
                Mode::CutThroat => {
                    self.table.set_status(victim, ArmyStatus::Eliminated);
                    self.mate_helpers[victim as usize] & !(1 << army) & !(1 << victim)
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
        for a in 0..self.armies() {
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
        let (outcome, out) = self.decided(mover);
        self.outcome = outcome;
        events.extend(out);
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

    /// Whether the game is won now, `mover` having just moved. Partners: a team whose kings
    /// are all mated or gone has lost; with three teams its armies leave the game (their pieces
    /// stay, frozen) and the last team in play wins.
    fn decided(&mut self, mover: u8) -> (Option<Outcome>, Vec<Event>) {
        match self.mode {
            Mode::Partners => {
                let mut events = Vec::new();
                let lost = |s: &Self, team: u8| {
                    (0..s.armies())
                        .filter(|&a| s.table.team(a) == team)
                        .all(|a| {
                            s.position.king(Seat(a)).is_none()
                                || matches!(
                                    s.table.status(a),
                                    ArmyStatus::Mated | ArmyStatus::Eliminated
                                )
                        })
                };
                let ours = self.table.team(mover);
                let mut teams = self.table.teams_in_play();
                // The mover's own team is judged last: a move that mates both sides wins.
                teams.sort_by_key(|&t| t == ours);
                for team in teams {
                    let in_play = self.table.teams_in_play();
                    if in_play.len() < 2 || !in_play.contains(&team) || !lost(self, team) {
                        continue;
                    }
                    if in_play.len() == 2 {
                        let winner = in_play.into_iter().find(|&t| t != team).unwrap_or(ours);
                        return (
                            Some(Outcome::win(
                                self.table.players_of_team(winner),
                                EndReason::Checkmate,
                            )),
                            events,
                        );
                    }
                    for a in 0..self.armies() {
                        if self.table.team(a) == team {
                            self.table.set_status(a, ArmyStatus::Eliminated);
                        }
                    }
                    let names: Vec<&str> = (0..self.armies())
                        .filter(|&a| self.table.team(a) == team)
                        .map(|a| self.name(a))
                        .collect();
                    events.push(Event::Public(format!(
                        "{} are out: both kings are mated or taken. Their pieces stay on the board, frozen.",
                        names.join(" and ")
                    )));
                }
                (None, events)
            }
            Mode::CutThroat => (self.last_standing(EndReason::Checkmate), Vec::new()),
        }
    }

    /// Cut-throat: the last army in the game wins; two left of whom one is stalemated draw.
    pub(crate) fn last_standing(&self, reason: EndReason) -> Option<Outcome> {
        let alive: Vec<u8> = (0..self.armies())
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
    pub(crate) fn next_turn(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..self.armies() {
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
                        self.mate_helpers[a as usize] = self.helpers(a, mover);
                        self.table.set_status(a, ArmyStatus::Frozen);
                        events.push(Event::Public(format!(
                            "{} is checkmated: the army is frozen in place.",
                            self.name(a)
                        )));
                    }
                }
                let (outcome, out) = self.decided(a);
                self.outcome = outcome;
                events.extend(out);
            } else if has_king {
                let others = (0..self.armies())
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
        // Fifty moves by each player.
        let pos = &self.position;
        let counted = counting_draws_by(
            pos.halfmoves(),
            50 * u32::from(self.armies()),
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
    pub(crate) fn why_refused(&self, army: u8, m: Move) -> String {
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
}

/// The board to draw: the shared board, with every pair of edges that some army's own board
/// joins drawn as joined. Doubles on the cylinder joins the a- and l-files for White 1 and
/// Black 1 and ranks 1 and 12 for White 2 and Black 2; the shared board joins nothing, and the
/// picture would show no wrap marks.
fn drawn_board(pos: &Position) -> Arc<Board> {
    let rules = pos.rules();
    let wraps = &rules.spec().army_wrap;
    let files = wraps.iter().any(|w| w.files());
    let ranks = wraps.iter().any(|w| w.ranks());
    let wrap = match (files, ranks) {
        (false, false) => return rules.board_arc().clone(),
        (true, false) => Wrap::Files,
        (false, true) => Wrap::Ranks,
        (true, true) => Wrap::Both,
    };
    rules.board().spec().with_wrap(wrap).build()
}

// ---- what every game built on these rules answers the same way -------------------------------

impl TeamChess {
    /// The prompt for the army to move, naming a king it must take.
    pub(crate) fn prompts(&self) -> Vec<Prompt> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let army = self.to_move();
        let mut text = format!("{} to move", self.name(army));
        let moves = self.moves_of(army);
        if !moves.is_empty()
            && moves.iter().all(|m| self.live_king_at(m.to, army))
            && !self.in_check(army)
        {
            let mut kings: Vec<&str> = moves
                .iter()
                .map(|m| self.position.board().label(m.to))
                .collect();
            // Several pieces may take the same king: name it once.
            kings.sort_unstable();
            kings.dedup();
            text.push_str(&format!(
                ": you must take the king on {}",
                kings.join(" or ")
            ));
        }
        vec![Prompt {
            seat: self.table.controller(army),
            kind: PromptKind::Move,
            text,
        }]
    }

    /// The moves of `seat`, if its army is to move.
    pub(crate) fn legal_for(&self, seat: Seat) -> Vec<Move> {
        let army = self.to_move();
        if self.outcome.is_some() || self.table.controller(army) != seat {
            return Vec::new();
        }
        self.moves_of(army)
    }

    /// Refuses a player whose army is not to move.
    pub(crate) fn check_turn(&self, seat: Seat) -> Result<u8, GameError> {
        let army = self.to_move();
        if self.table.controller(army) != seat {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                self.name(army)
            )));
        }
        Ok(army)
    }

    /// Plays `action` for `seat` after checking it is allowed.
    pub(crate) fn apply_for(&mut self, seat: Seat, action: Move) -> Result<Vec<Event>, GameError> {
        let army = self.check_turn(seat)?;
        if !self.moves_of(army).contains(&action) {
            let board = self.position.board();
            return Err(GameError::Move(crate::chess::MoveParseError::Illegal {
                // Named by its triangles or squares alone: the move may start on an empty one.
                text: format!("{}-{}", board.label(action.from), board.label(action.to)),
                reason: "it is not a legal move now".into(),
            }));
        }
        Ok(self.apply_move(action))
    }

    /// The public picture of the game, every piece shown; `bottom` is the army drawn nearest
    /// the viewer.
    pub(crate) fn view(&self, variant: &'static str, viewer: Viewer) -> View {
        let pos = &self.position;
        let army = self.to_move();
        let checks: Vec<Cell> = (0..self.armies())
            .filter(|&a| self.in_check(a))
            .filter_map(|a| pos.king(Seat(a)))
            .collect();
        let status = match &self.outcome {
            Some(o) => o.describe(|s| self.seat_name(s)),
            None if self.in_check(army) => format!("{} to move, in check", self.name(army)),
            None => format!("{} to move", self.name(army)),
        };
        View {
            variant,
            board: drawn_board(pos),
            viewer,
            bottom: match viewer {
                Viewer::Seat(s) => Seat(self.table.armies_of(s).first().copied().unwrap_or(0)),
                Viewer::Spectator => Seat(0),
            },
            figures: pos
                .pieces()
                .map(|(cell, piece)| Placed::new(cell, piece.seat, Figure::Chess(piece.role)))
                .collect(),
            last_move: self.last_move.clone(),
            checks,
            to_act: if self.outcome.is_some() {
                Vec::new()
            } else {
                vec![self.table.controller(army)]
            },
            players: (0..self.armies())
                .map(|a| self.name(a).to_string())
                .collect(),
            move_number: self.table.rounds() + 1,
            status,
            panel: None,
            // Numbered triangles: every triangle shows its own number, as moves are typed.
            square_names: match self.writing {
                Writing::Algebraic => Vec::new(),
                Writing::Numbered => pos
                    .board()
                    .cells()
                    .map(|c| (c, pos.board().label(c).to_string()))
                    .collect(),
            },
            table: self.table.lines(),
            colours: Vec::new(),
            labels: Vec::new(),
            tinted: Vec::new(),
            cards: Vec::new(),
        }
    }

    /// The name of a player's (first) army.
    pub(crate) fn seat_name(&self, seat: Seat) -> String {
        self.table
            .armies_of(seat)
            .first()
            .map_or_else(|| seat.colour_name(), |&a| self.name(a).to_string())
    }

    /// The other teams win when a player leaves; never the leaver's partner.
    pub(crate) fn concede(&self, seat: Seat, reason: EndReason) -> Outcome {
        let team = self
            .table
            .armies_of(seat)
            .first()
            .map_or(0, |&a| self.table.team(a));
        let others: Vec<Seat> = (0..self.armies())
            .filter(|&a| self.table.team(a) != team && !self.table.status(a).is_out())
            .map(|a| self.table.controller(a))
            .collect();
        Outcome::win(others, reason)
    }

    /// A player resigns or times out. Cut-throat: he is out and the game goes on while two
    /// remain. Partners: his team is out with him; with two teams left that ends the game.
    pub(crate) fn leave(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<Event>, GameError> {
        let leaving: Vec<u8> = match self.mode {
            Mode::Partners => {
                let Some(&first) = self.table.armies_of(seat).first() else {
                    return Err(GameError::Refused(
                        "you are not playing in this game".into(),
                    ));
                };
                let team = self.table.team(first);
                if self.table.teams_in_play().len() <= 2 {
                    return Ok(vec![Event::GameOver(self.concede(seat, reason))]);
                }
                (0..self.armies())
                    .filter(|&a| self.table.team(a) == team)
                    .collect()
            }
            Mode::CutThroat => self.table.armies_of(seat),
        };
        if leaving.iter().all(|&a| self.table.status(a).is_out()) {
            return Err(GameError::Refused(
                "you are already out of this game".into(),
            ));
        }
        let mut events = Vec::new();
        for army in leaving {
            self.table.set_status(army, ArmyStatus::Eliminated);
            events.push(Event::Public(format!(
                "{} is out ({}); the army stays on the board, frozen.",
                self.name(army),
                reason.describe()
            )));
        }
        self.outcome = match self.mode {
            Mode::CutThroat => self.last_standing(reason),
            Mode::Partners => match self.table.teams_in_play().as_slice() {
                [team] => Some(Outcome::win(self.table.players_of_team(*team), reason)),
                _ => None,
            },
        };
        if self.outcome.is_none() && self.table.status(self.to_move()).is_out() {
            events.extend(self.next_turn());
        }
        if let Some(o) = &self.outcome {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    /// Perft through the game's own rules (kings to take, immunity, armies passed over), in
    /// its sequence of moves.
    pub(crate) fn perft(&self, depth: u32) -> u64 {
        if self.outcome.is_some() {
            return u64::from(depth == 0);
        }
        let moves = self.moves_of(self.to_move());
        match depth {
            0 => 1,
            1 => moves.len() as u64,
            _ => moves
                .into_iter()
                .map(|m| self.after(m).perft(depth - 1))
                .sum(),
        }
    }

    /// Perft split by the first move, each written as the game writes it.
    pub(crate) fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 || self.outcome.is_some() {
            return Vec::new();
        }
        self.moves_of(self.to_move())
            .into_iter()
            .map(|m| (self.write(m), self.after(m).perft(depth - 1)))
            .collect()
    }

    /// The game after a legal move, without its record (perft needs no history).
    fn after(&self, m: Move) -> TeamChess {
        let mut child = self.clone();
        child.moves.clear();
        child.apply_move(m);
        child
    }

    /// Whether all of a player's armies are out.
    pub(crate) fn is_out(&self, seat: Seat) -> bool {
        let armies = self.table.armies_of(seat);
        !armies.is_empty() && armies.iter().all(|&a| self.table.status(a).is_out())
    }

    /// Why a player is waiting: his army mated, frozen, stalemated or out.
    pub(crate) fn waiting_reason(&self, seat: Seat) -> Option<String> {
        let army = *self.table.armies_of(seat).first()?;
        let status = self.table.status(army);
        (status != ArmyStatus::Playing).then(|| {
            format!(
                "{} is {}; {} to move",
                self.name(army),
                status.describe(),
                self.name(self.to_move())
            )
        })
    }
}

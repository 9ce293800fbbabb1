//! Chess for Any Number of Players (Ralph Betza, about 1980, revised 1995).
//!
//! Rule 1: FIDE chess, except as follows. Rule 2: every player has half a chessboard and an army
//! on it; the half-boards are lettered A, B, C... in the order of play, and army A is White,
//! army B Black, then Orange, Blue, Green, Pink, Tan and Brown. Light armies (A, C, E, G) stand
//! as White does, king on e1; dark armies (B, D, F, H) as Black does, seen from their own side:
//! king on d1, queen on her colour on e1. Rule 3 (reconstructed): the armies move in that fixed
//! batting order, one turn each; the order belongs to the armies, not the players.
//!
//! Rule 4: every move pushes two half-boards together and is then any legal chess move on the
//! joined 8x8 board, even one played entirely on one of them ([`joined`]). Rule 6
//! (reconstructed): an army has one move for each half-board its pieces stand on when its turn
//! begins, each on a pair of boards not yet pushed together this turn; it never moves one piece
//! twice, never captures into one board from several boards, and never moves one piece onto a
//! board and another off it in one turn. With two players there is only one pair, so the game is
//! exactly FIDE chess.
//!
//! Rule 8 (reconstructed): check is judged on the two boards pushed together: a move may not
//! leave the mover's king in check there, and a king elsewhere does not count. Armies of one
//! player never check each other; other players' pieces, allies included, do. Rule 7
//! (reconstructed): when a move leaves a king in check on the joined boards with no legal answer
//! there, that army is checkmated and captured: it passes, with its place in the batting order,
//! to the player who made the move. Rule 9 (reconstructed): the last player still controlling an
//! army wins.
//!
//! Our readings, written in `/rules` too:
//! - the extra moves are optional: after the first, `done` ends the turn;
//! - an army's moves are counted when its turn begins;
//! - no move captures a king: a king left attacked (by a move on other boards) falls only by
//!   mate;
//! - an army with no legal move at all is checkmated if its king is in check on every pair its
//!   own board could be pushed into (it must push one, and cry), and otherwise passes (with two
//!   players, stalemate draws);
//! - a pawn's long step may be taken en passant by every other army on its next turn;
//! - the draws of chess count the whole table: a position repeated three times at the start of a
//!   turn, fifty turns of every army without a capture or pawn move, or material with which
//!   nobody can mate;
//! - a player who resigns with more than two at the table leaves, and his armies leave the
//!   boards.

mod joined;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::board::{BoardSpec, Cell, SquareBoard};
use crate::chess::{Move, MoveKind, MoveParseError, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::table::{ArmyStatus, Table};
use crate::view::{BoardLabel, Figure, Placed, SeatLine, View, Viewer};

use joined::{castle_landing, rook_home, turned_move};
pub use joined::{letter, Man, Pair, Spot, HALF};

/// The game.
pub struct Betza;

/// The armies' names, in batting order: each is drawn in the palette slot of its index.
pub const NAMES: [&str; 8] = [
    "White", "Black", "Orange", "Blue", "Green", "Pink", "Tan", "Brown",
];

/// The back rank of a light army on its own half-board, files a-h.
const BACK_RANK: [Role; 8] = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Queen,
    Role::King,
    Role::Bishop,
    Role::Knight,
    Role::Rook,
];

/// A long pawn step that other armies may take en passant on their next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Passage {
    pub pawn: Spot,
    pub skipped: Spot,
    pub army: u8,
    /// The armies that may still take it, one bit each.
    pub waiting: u8,
}

/// One move made in the turn under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Made {
    pair: Pair,
    from: Spot,
    to: Spot,
    capture: bool,
    pawn: bool,
}

/// The turn under way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct TurnSoFar {
    /// Moves the army may make this turn: the boards it stood on when the turn began.
    allowance: u8,
    made: Vec<Made>,
    /// Where the pieces moved this turn now stand.
    moved: Vec<Spot>,
}

/// What a player may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A chess move on two boards pushed together, read with the pair the army's natural way
    /// up ([`BetzaGame::natural_pair`]).
    Move { pair: Pair, mv: Move },
    /// End the turn before using every move.
    Done,
}

/// The state of a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BetzaGame {
    armies: u8,
    /// Every half-board's squares, board after board.
    #[serde(with = "compact_men")]
    men: Vec<Option<Man>>,
    /// Per army: may it still castle on the king's side, and on the queen's?
    castling: Vec<[bool; 2]>,
    passages: Vec<Passage>,
    table: Table,
    turn: TurnSoFar,
    /// Whole turns since a capture or a pawn move.
    quiet_turns: u32,
    /// The table's key at the start of every turn.
    repetitions: Vec<u64>,
    /// Per army, the player who captured it by mate, if one did.
    captured_by: Vec<Option<Seat>>,
    last_move: Vec<Spot>,
    moves: Vec<String>,
    outcome: Option<Outcome>,
}

impl BetzaGame {
    /// A new game for `players` (2-8), one army and one half-board each.
    pub fn new(players: usize) -> BetzaGame {
        let armies = players as u8;
        let mut men = vec![None; players * HALF];
        for army in 0..armies {
            for file in 0..8u8 {
                // Dark armies stand as Black does, seen from their own side: mirrored.
                let role = if joined::is_light(army) {
                    BACK_RANK[file as usize]
                } else {
                    BACK_RANK[7 - file as usize]
                };
                men[Spot::new(army, file, 0).index as usize + army as usize * HALF] =
                    Some(Man { army, role });
                men[Spot::new(army, file, 1).index as usize + army as usize * HALF] = Some(Man {
                    army,
                    role: Role::Pawn,
                });
            }
        }
        let names: Vec<&str> = NAMES[..players].to_vec();
        let teams: Vec<u8> = (0..armies).collect();
        let mut game = BetzaGame {
            armies,
            men,
            castling: vec![[true; 2]; players],
            passages: Vec::new(),
            table: Table::one_army_each(&names, &teams),
            turn: TurnSoFar::default(),
            quiet_turns: 0,
            repetitions: Vec::new(),
            captured_by: vec![None; players],
            last_move: Vec::new(),
            moves: Vec::new(),
            outcome: None,
        };
        game.begin_turn();
        game
    }

    /// A two-player game from a chess position: White's half on board A, Black's on board B.
    /// For tests that hold the game to chess.
    #[cfg(test)]
    pub(crate) fn from_chess(pos: &crate::chess::Position) -> BetzaGame {
        let mut game = BetzaGame::new(2);
        game.men.iter_mut().for_each(|m| *m = None);
        game.castling = vec![[false; 2]; 2];
        let pair = Pair { bottom: 0, top: 1 };
        for (cell, piece) in pos.pieces() {
            game.set(
                pair.spot(cell),
                Some(Man {
                    army: piece.seat.0,
                    role: piece.role,
                }),
            );
        }
        for seat in 0..2u8 {
            for rook in pos.castling_rooks(Seat(seat)) {
                let spot = pair.spot(rook);
                for side in 0..2 {
                    if spot.board == seat && spot.index == rook_home(seat, side) {
                        game.castling[seat as usize][side] = true;
                    }
                }
            }
        }
        if let Some(ep) = pos.ep_target() {
            let skipped = pair.spot(ep);
            let pawn = Spot::new(skipped.board, skipped.file(), 3);
            let army = 1 - pos.turn().0;
            game.passages.push(Passage {
                pawn,
                skipped,
                army,
                waiting: 1 << pos.turn().0,
            });
        }
        if pos.turn().0 == 1 {
            game.table.advance(|_, _| true);
        }
        game.repetitions.clear();
        game.begin_turn();
        game
    }

    // ---- the boards ----------------------------------------------------------------------

    /// What stands on a spot.
    pub fn man(&self, spot: Spot) -> Option<Man> {
        self.men[spot.board as usize * HALF + spot.index as usize]
    }

    fn set(&mut self, spot: Spot, man: Option<Man>) {
        self.men[spot.board as usize * HALF + spot.index as usize] = man;
    }

    fn spots(&self) -> impl Iterator<Item = (Spot, Man)> + '_ {
        self.men.iter().enumerate().filter_map(|(i, m)| {
            m.map(|m| {
                (
                    Spot {
                        board: (i / HALF) as u8,
                        index: (i % HALF) as u8,
                    },
                    m,
                )
            })
        })
    }

    /// The number of armies (and of half-boards).
    pub fn armies(&self) -> u8 {
        self.armies
    }
    /// The table: who controls which army.
    pub fn table(&self) -> &Table {
        &self.table
    }
    /// Every move so far.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }
    /// The army whose turn it is.
    pub fn current(&self) -> u8 {
        self.table.current().army
    }

    fn name(&self, army: u8) -> &'static str {
        NAMES[army as usize]
    }

    fn king_spot(&self, army: u8) -> Option<Spot> {
        self.spots()
            .find(|(_, m)| m.army == army && m.role == Role::King)
            .map(|(s, _)| s)
    }

    /// The boards an army's pieces stand on.
    fn boards_of(&self, army: u8) -> Vec<u8> {
        let mut boards: Vec<u8> = self
            .spots()
            .filter(|(_, m)| m.army == army)
            .map(|(s, _)| s.board)
            .collect();
        boards.dedup();
        boards
    }

    // ---- moves ---------------------------------------------------------------------------

    /// The pairs the army to move may still push together this turn, each its natural way up.
    fn open_pairs(&self) -> Vec<Pair> {
        let army = self.current();
        let boards = self.boards_of(army);
        let mut pairs = Vec::new();
        for a in 0..self.armies {
            for b in a + 1..self.armies {
                if !boards.contains(&a) && !boards.contains(&b) {
                    continue;
                }
                let pair = self.natural_pair(army, a, b);
                if !self.turn.made.iter().any(|m| m.pair.same_boards(pair)) {
                    pairs.push(pair);
                }
            }
        }
        pairs
    }

    /// The chess-legal moves on a pair for the army to move, before this turn's limits.
    fn chess_moves(&self, pair: Pair) -> Vec<Move> {
        self.join(self.current(), pair).moves()
    }

    /// Why this turn's limits refuse a move on `pair` that chess allows, if they do.
    fn limit(&self, pair: Pair, m: Move) -> Option<String> {
        let from = pair.spot(m.from);
        let to = pair.spot(m.to);
        if self.turn.moved.contains(&from) {
            let role = self.man(from).map_or("piece", |p| p.role.name());
            return Some(format!(
                "your {role} on {} has already moved this turn; each piece moves once",
                from.label()
            ));
        }
        let capture =
            m.kind == MoveKind::EnPassant || (m.kind != MoveKind::Castle && self.man(to).is_some());
        if capture {
            if let Some(earlier) = self
                .turn
                .made
                .iter()
                .find(|d| d.capture && d.to.board == to.board && d.from.board != from.board)
            {
                return Some(format!(
                    "this turn's capture into board {} came from board {}: you may not bombard \
                     one board from several",
                    letter(to.board),
                    letter(earlier.from.board)
                ));
            }
        }
        if from.board != to.board {
            if self
                .turn
                .made
                .iter()
                .any(|d| d.to.board == from.board && d.from.board != from.board)
            {
                return Some(format!(
                    "a piece came onto board {} this turn, so none may leave it",
                    letter(from.board)
                ));
            }
            if self
                .turn
                .made
                .iter()
                .any(|d| d.from.board == to.board && d.to.board != to.board)
            {
                return Some(format!(
                    "a piece left board {} this turn, so none may come onto it",
                    letter(to.board)
                ));
            }
        }
        None
    }

    /// Every move the army to move may make now.
    pub fn legal_moves(&self) -> Vec<(Pair, Move)> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.open_pairs()
            .into_iter()
            .flat_map(|pair| {
                self.chess_moves(pair)
                    .into_iter()
                    .filter(move |&m| self.limit(pair, m).is_none())
                    .map(move |m| (pair, m))
            })
            .collect()
    }

    /// Whether an action is legal now (looking only at its own pair).
    fn allows(&self, action: Action) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        match action {
            Action::Done => !self.turn.made.is_empty(),
            Action::Move { pair, mv } => {
                self.open_pairs().contains(&pair)
                    && self.chess_moves(pair).contains(&mv)
                    && self.limit(pair, mv).is_none()
            }
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut actions: Vec<Action> = self
            .legal_moves()
            .into_iter()
            .map(|(pair, mv)| Action::Move { pair, mv })
            .collect();
        if !self.turn.made.is_empty() && self.outcome.is_none() {
            actions.push(Action::Done);
        }
        actions
    }

    // ---- notation ------------------------------------------------------------------------

    /// A move as written: the pair, then the move in SAN on the joined board (`A+C: Nf3`),
    /// without a check sign (announcements add it).
    fn write_plain(&self, pair: Pair, m: Move) -> String {
        self.texts_on(pair, &[m]).pop().unwrap_or_default()
    }

    /// The texts of moves on one pair, disambiguated among the pair's chess moves, joining the
    /// boards once for all of them.
    fn texts_on(&self, pair: Pair, moves: &[Move]) -> Vec<String> {
        let joined = self.join(self.current(), pair);
        let allowed = joined.moves();
        let mut pos = joined.pos;
        moves
            .iter()
            .map(|&m| {
                if let Some(p) = pos.piece_at(m.from) {
                    pos.set_turn(p.seat);
                }
                format!("{}: {}", pair.name(), pos.san_plain_among(m, &allowed))
            })
            .collect()
    }

    /// The texts of everything the army to move may do, for autocomplete.
    fn legal_texts(&self) -> Vec<String> {
        let mut texts = Vec::new();
        for pair in self.open_pairs() {
            let moves: Vec<Move> = self
                .chess_moves(pair)
                .into_iter()
                .filter(|&m| self.limit(pair, m).is_none())
                .collect();
            texts.extend(self.texts_on(pair, &moves));
        }
        if !self.turn.made.is_empty() && self.outcome.is_none() {
            texts.push("done".into());
        }
        texts
    }

    /// The text of an action (moves without a check sign: see [`BetzaGame::write_plain`]).
    fn action_text(&self, action: Action) -> String {
        match action {
            Action::Done => "done".into(),
            Action::Move { pair, mv } => self.write_plain(pair, mv),
        }
    }
}

/// What a move did beyond moving pieces.
struct Report {
    /// Armies captured by mate.
    captured: Vec<u8>,
    /// Whether it left another player's king in check on the joined boards.
    check: bool,
}

impl Report {
    fn sign(&self) -> &'static str {
        if !self.captured.is_empty() {
            "#"
        } else if self.check {
            "+"
        } else {
            ""
        }
    }
}

impl BetzaGame {
    // ---- playing -------------------------------------------------------------------------

    /// Plays a move already known to be legal, and judges mates on the joined boards.
    fn play_move(&mut self, pair: Pair, m: Move) -> Report {
        let army = self.current();
        let player = self.table.controller(army);
        let from = pair.spot(m.from);
        let to = pair.spot(m.to);
        let man = self.man(from).expect("a move starts on a piece");
        let mut capture = false;
        let landed = match m.kind {
            MoveKind::Castle => {
                let side = usize::from(to.index != rook_home(army, 0));
                let (k, r) = castle_landing(army, side);
                let rook = self.man(to);
                self.set(from, None);
                self.set(to, None);
                let (king_to, rook_to) = (
                    Spot {
                        board: from.board,
                        index: k,
                    },
                    Spot {
                        board: from.board,
                        index: r,
                    },
                );
                self.set(king_to, Some(man));
                self.set(rook_to, rook);
                vec![king_to, rook_to]
            }
            MoveKind::EnPassant => {
                let victim = self
                    .passages
                    .iter()
                    .find(|p| p.skipped == to && p.army != army)
                    .map(|p| p.pawn);
                if let Some(pawn) = victim {
                    self.set(pawn, None);
                    capture = true;
                }
                self.set(from, None);
                self.set(to, Some(man));
                vec![to]
            }
            _ => {
                if let Some(victim) = self.man(to) {
                    capture = true;
                    if victim.role == Role::Rook {
                        self.lose_castling(victim.army, to);
                    }
                }
                let role = m.promotion().unwrap_or(man.role);
                self.set(from, None);
                self.set(to, Some(Man { army, role }));
                vec![to]
            }
        };
        match man.role {
            Role::King => self.castling[army as usize] = [false; 2],
            Role::Rook => self.lose_castling(army, from),
            _ => {}
        }
        if m.kind == MoveKind::DoubleStep {
            let others = ((1u16 << self.armies) - 1) as u8 & !(1 << army);
            self.passages.push(Passage {
                pawn: to,
                skipped: pair.spot(Cell((m.from.0 + m.to.0) / 2)),
                army,
                waiting: others,
            });
        }
        let men = self.men.clone();
        self.passages.retain(|p| {
            men[p.pawn.board as usize * HALF + p.pawn.index as usize]
                == Some(Man {
                    army: p.army,
                    role: Role::Pawn,
                })
        });
        self.turn.made.push(Made {
            pair,
            from,
            to: landed[0],
            capture,
            pawn: man.role == Role::Pawn,
        });
        self.turn.moved.extend(landed.iter().copied());
        self.last_move = vec![from, landed[0]];
        // Rule 8: mates are judged on the boards just pushed together.
        let mut report = Report {
            captured: Vec::new(),
            check: false,
        };
        for v in 0..self.armies {
            if self.table.controller(v) == player || self.table.status(v).is_out() {
                continue;
            }
            let Some(king) = self.king_spot(v) else {
                continue;
            };
            if !pair.holds(king.board) {
                continue;
            }
            let joined = self.join(v, self.natural_pair(v, pair.bottom, pair.top));
            if joined.in_check() {
                report.check = true;
                if joined.moves().is_empty() {
                    report.captured.push(v);
                }
            }
        }
        for &v in &report.captured {
            self.table.set_controller(v, player);
            self.captured_by[v as usize] = Some(player);
        }
        report
    }

    fn lose_castling(&mut self, army: u8, spot: Spot) {
        for side in 0..2 {
            if spot.board == army && spot.index == rook_home(army, side) {
                self.castling[army as usize][side] = false;
            }
        }
    }

    /// Applies a legal action.
    fn apply(&mut self, action: Action) -> Vec<Event> {
        let army = self.current();
        let mut events = Vec::new();
        match action {
            Action::Done => {
                events.push(Event::Public(format!("{} ends its turn.", self.name(army))));
                self.end_turn(&mut events);
            }
            Action::Move { pair, mv } => {
                let plain = self.write_plain(pair, mv);
                let report = self.play_move(pair, mv);
                let text = format!("{plain}{}", report.sign());
                events.push(Event::Public(format!("{} played {text}", self.name(army))));
                self.moves.push(format!("{} {text}", self.name(army)));
                for &v in &report.captured {
                    let holder = self.seat_name(self.table.controller(v));
                    events.push(Event::Public(format!(
                        "{} is checkmated on {} and is captured: {holder} plays it from now on.",
                        self.name(v),
                        pair.name()
                    )));
                }
                if let Some(outcome) = self.last_player(EndReason::Checkmate) {
                    self.outcome = Some(outcome);
                } else if self.turn.made.len() >= self.turn.allowance as usize
                    || self.legal_moves().is_empty()
                {
                    self.end_turn(&mut events);
                }
            }
        }
        events
    }

    /// Ends the turn under way and starts the next that can be played, passing armies with no
    /// move and capturing those mated where they stand.
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let mut passes = 0;
        loop {
            let army = self.current();
            let active = self.turn.made.iter().any(|m| m.capture || m.pawn);
            self.quiet_turns = if active { 0 } else { self.quiet_turns + 1 };
            for p in &mut self.passages {
                p.waiting &= !(1 << army);
            }
            self.passages.retain(|p| p.waiting != 0);
            self.table
                .advance(|t, turn| t.status(turn.army) != ArmyStatus::Eliminated);
            let moves = self.begin_turn();
            if let Some(outcome) = self.decided() {
                self.outcome = Some(outcome);
                return;
            }
            if !moves.is_empty() {
                return;
            }
            let stuck = self.current();
            if self.armies == 2 {
                self.outcome = Some(Outcome::draw(EndReason::Stalemate));
                return;
            }
            if let Some(by) = self.mated_where_it_stands(stuck) {
                self.table.set_controller(stuck, by);
                self.captured_by[stuck as usize] = Some(by);
                events.push(Event::Public(format!(
                    "{} has no move and its king is in check on every board it could be pushed \
                     against: it is checkmated and captured by {}.",
                    self.name(stuck),
                    self.seat_name(by)
                )));
                if let Some(outcome) = self.last_player(EndReason::Checkmate) {
                    self.outcome = Some(outcome);
                    return;
                }
            } else {
                events.push(Event::Public(format!(
                    "{} has no legal move and passes.",
                    self.name(stuck)
                )));
            }
            passes += 1;
            if passes >= self.armies {
                self.outcome = Some(Outcome::draw(EndReason::Stalemate));
                return;
            }
        }
    }

    /// Starts the current army's turn: counts its moves and records the table for repetition.
    /// Returns its legal moves.
    fn begin_turn(&mut self) -> Vec<(Pair, Move)> {
        let army = self.current();
        // One move per board stood on, but never more than there are pairs to push (with two
        // players there is one pair, and one move: chess).
        let pairs = self.armies * (self.armies - 1) / 2;
        self.turn = TurnSoFar {
            allowance: (self.boards_of(army).len() as u8).min(pairs),
            made: Vec::new(),
            moved: Vec::new(),
        };
        let moves = self.legal_moves();
        let en_passant = moves.iter().any(|(_, m)| m.kind == MoveKind::EnPassant);
        self.repetitions.push(self.key(en_passant));
        moves
    }

    /// A key equal for tables that count as the same position: every piece, the army to move,
    /// who controls what, castling rights, and en passant when it can be taken.
    fn key(&self, en_passant: bool) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h ^= v;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for (spot, man) in self.spots() {
            mix(u64::from(spot.board) << 16 | u64::from(spot.index) << 8 | man.army as u64);
            mix(man.role as u64);
        }
        mix(0x100 | u64::from(self.current()));
        for a in 0..self.armies {
            mix(0x200 | u64::from(self.table.controller(a).0));
            let [k, q] = self.castling[a as usize];
            mix(0x300 | u64::from(k) << 1 | u64::from(q));
        }
        if en_passant {
            for p in &self.passages {
                mix(0x400 | u64::from(p.skipped.board) << 8 | u64::from(p.skipped.index));
            }
        }
        h
    }

    /// The player who has captured every army still in the game, if one has.
    fn last_player(&self, reason: EndReason) -> Option<Outcome> {
        let mut holders: Vec<Seat> = (0..self.armies)
            .filter(|&a| !self.table.status(a).is_out())
            .map(|a| self.table.controller(a))
            .collect();
        holders.sort();
        holders.dedup();
        match holders.as_slice() {
            [one] => Some(Outcome::win(vec![*one], reason)),
            _ => None,
        }
    }

    /// The draws of chess, counted over the whole table.
    fn decided(&self) -> Option<Outcome> {
        if let Some(outcome) = self.last_player(EndReason::Checkmate) {
            return Some(outcome);
        }
        let now = *self.repetitions.last()?;
        if self.repetitions.iter().filter(|&&k| k == now).count() >= 3 {
            return Some(Outcome::draw(EndReason::ThreefoldRepetition));
        }
        let in_play = (0..self.armies)
            .filter(|&a| !self.table.status(a).is_out())
            .count() as u32;
        if self.quiet_turns >= 50 * in_play.max(2) {
            return Some(Outcome::draw(EndReason::FiftyMoveRule));
        }
        self.no_mating_material()
            .then(|| Outcome::draw(EndReason::InsufficientMaterial))
    }

    /// Bare kings, a single minor piece, or only bishops all on one colour (a half-board's
    /// colours survive joining, so this holds on every pair).
    fn no_mating_material(&self) -> bool {
        crate::chess::no_mating_material(
            self.spots()
                .map(|(s, m)| (m.role, (s.file() + s.rank()).is_multiple_of(2))),
        )
    }

    /// For an army with no legal move: the player who mates it, if its king stands in check on
    /// every pair its board could be pushed into (credited to the owner of a checking piece).
    fn mated_where_it_stands(&self, army: u8) -> Option<Seat> {
        let king = self.king_spot(army)?;
        let mut by = None;
        for other in (0..self.armies).filter(|&b| b != king.board) {
            let pair = self.natural_pair(army, king.board, other);
            let joined = self.join(army, pair);
            if !joined.in_check() {
                return None;
            }
            if by.is_none() {
                by = joined
                    .checkers()
                    .first()
                    .and_then(|&c| self.man(pair.spot(c)))
                    .map(|m| self.table.controller(m.army));
            }
        }
        by
    }

    // ---- reading moves -------------------------------------------------------------------

    fn parse(&self, text: &str) -> Result<Action, GameError> {
        let trimmed = text.trim();
        let word = trimmed.to_ascii_lowercase();
        if matches!(word.as_str(), "done" | "end" | "end turn" | "pass") {
            return if self.turn.made.is_empty() {
                Err(GameError::Refused(
                    "make at least one move before ending your turn".into(),
                ))
            } else {
                Ok(Action::Done)
            };
        }
        if word == "resign" {
            return Err(GameError::Refused(
                "resigning is not a move: use /resign".into(),
            ));
        }
        match split_pair(trimmed) {
            Some((a, b, rest)) => self.parse_on(a, b, rest, trimmed),
            None if looks_like_a_pair(trimmed) => {
                // A pair written wrongly (`A+1: e4`): say how to write one, rather than offer
                // to put another pair in front of it.
                let rest = trimmed
                    .split_once(':')
                    .map(|(_, rest)| rest.trim())
                    .filter(|rest| !rest.is_empty())
                    .unwrap_or("e4");
                let example = self.open_pairs().first().map_or("A+B".into(), |p| p.name());
                Err(GameError::Refused(format!(
                    "'{trimmed}' does not name two half-boards: write two board letters (A to \
                     {}) joined by +, then the move, for example {example}: {rest}",
                    letter(self.armies - 1)
                )))
            }
            None => self.parse_anywhere(trimmed),
        }
    }

    /// Reads a move written with its pair (`A+C: Nf3`): the first board at the bottom.
    fn parse_on(&self, a: char, b: char, rest: &str, shown: &str) -> Result<Action, GameError> {
        let army = self.current();
        let board = |c: char| -> Result<u8, GameError> {
            let i = c.to_ascii_uppercase() as u8 - b'A';
            if i < self.armies {
                Ok(i)
            } else {
                Err(GameError::Refused(format!(
                    "there is no board {}: this game has boards A to {}",
                    c.to_ascii_uppercase(),
                    letter(self.armies - 1)
                )))
            }
        };
        let (a, b) = (board(a)?, board(b)?);
        if a == b {
            return Err(GameError::Refused(format!(
                "push two different half-boards together: {} is named twice",
                letter(a)
            )));
        }
        let written = Pair { bottom: a, top: b };
        let natural = self.natural_pair(army, a, b);
        if self.turn.made.iter().any(|m| m.pair.same_boards(written)) {
            return Err(GameError::Refused(format!(
                "you have already pushed {} and {} together this turn",
                letter(a),
                letter(b)
            )));
        }
        let boards = self.boards_of(army);
        if !boards.contains(&a) && !boards.contains(&b) {
            return Err(GameError::Refused(format!(
                "{} has no piece on board {} or {}",
                self.name(army),
                letter(a),
                letter(b)
            )));
        }
        let allowed = self.chess_moves(natural);
        let castling = rest.trim().to_ascii_uppercase().replace('0', "O");
        let read = if written == natural || castling.starts_with("O-O") {
            let joined = self.join(army, natural);
            joined.pos.parse_move_among(rest, &allowed)
        } else {
            // Read the squares the way the player wrote the pair, then turn the move back.
            let joined = self.join(army, written);
            let turned: Vec<Move> = allowed.iter().map(|&m| turned_move(m)).collect();
            joined.pos.parse_move_among(rest, &turned).map(turned_move)
        };
        let mv = match read {
            Ok(mv) => mv,
            Err(e) => {
                return Err(self
                    .refuse_king_capture(written, rest)
                    .unwrap_or_else(|| self.explain(e, written, shown)))
            }
        };
        if let Some(reason) = self.limit(natural, mv) {
            return Err(GameError::Refused(format!(
                "{shown} is not allowed: {reason}"
            )));
        }
        Ok(Action::Move { pair: natural, mv })
    }

    /// Reads a move written without its pair: fine when only one pair can play it.
    fn parse_anywhere(&self, text: &str) -> Result<Action, GameError> {
        let pairs = self.open_pairs();
        if let [pair] = pairs.as_slice() {
            let (a, b) = (letter(pair.bottom), letter(pair.top));
            return self.parse_on(a, b, text, text);
        }
        let army = self.current();
        let mut found = Vec::new();
        for &pair in &pairs {
            let allowed: Vec<Move> = self
                .chess_moves(pair)
                .into_iter()
                .filter(|&m| self.limit(pair, m).is_none())
                .collect();
            if let Ok(mv) = self.join(army, pair).pos.parse_move_among(text, &allowed) {
                found.push((pair, mv));
            }
        }
        match found.as_slice() {
            [(pair, mv)] => Ok(Action::Move {
                pair: *pair,
                mv: *mv,
            }),
            [] => Err(GameError::Refused(format!(
                "'{text}' is no legal move on any two boards; say which half-boards you push \
                 together, for example {}: {text}",
                pairs.first().map_or("A+B".into(), |p| p.name())
            ))),
            several => {
                let texts: Vec<String> = several
                    .iter()
                    .map(|&(pair, mv)| self.write_plain(pair, mv))
                    .collect();
                Err(GameError::Refused(format!(
                    "'{text}' can be played on several pairs of boards: say which, as in {}",
                    texts.join(" or ")
                )))
            }
        }
    }

    /// The refusal of a move onto a king, written on `pair` the way the player wrote it: the
    /// chess reader would call it a move into check, which it is not.
    fn refuse_king_capture(&self, pair: Pair, text: &str) -> Option<GameError> {
        let joined = self.join(self.current(), pair);
        let captures = joined.king_captures();
        joined.pos.parse_move_among(text, &captures).ok()?;
        Some(GameError::Move(MoveParseError::Illegal {
            text: text.trim().to_string(),
            reason: "no move captures a king: a king in check with no answer on the two boards \
                     pushed together is checkmated instead"
                .into(),
        }))
    }

    fn explain(&self, error: MoveParseError, pair: Pair, shown: &str) -> GameError {
        match error {
            MoveParseError::NoMoves { .. } => GameError::Refused(format!(
                "{shown}: {} has no legal move on {}",
                self.name(self.current()),
                pair.name()
            )),
            other => GameError::Move(other),
        }
    }

    // ---- views ---------------------------------------------------------------------------

    fn to_move_text(&self) -> String {
        let army = self.current();
        let mut text = format!("{} (board {}) to move", self.name(army), letter(army));
        let (made, allowance) = (self.turn.made.len(), self.turn.allowance as usize);
        if allowance > 1 {
            text.push_str(&format!(
                ": move {} of up to {allowance} this turn",
                made + 1
            ));
            if made > 0 {
                text.push_str(", or done");
            }
        }
        text
    }

    fn prompts(&self) -> Vec<Prompt> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        vec![Prompt {
            seat: self.table.controller(self.current()),
            kind: PromptKind::Move,
            text: self.to_move_text(),
        }]
    }

    /// A player's name in messages: the army he started with.
    fn seat_name(&self, seat: Seat) -> String {
        NAMES
            .get(seat.index())
            .map_or_else(|| seat.colour_name(), |n| n.to_string())
    }

    fn lines(&self) -> Vec<SeatLine> {
        (0..self.armies)
            .map(|a| SeatLine {
                player: self.table.controller(a),
                army: Seat(a),
                side: format!("{} (board {})", self.name(a), letter(a)),
                status: if self.table.status(a).is_out() {
                    Some("out".into())
                } else {
                    self.captured_by[a as usize]
                        .map(|by| format!("captured by {}", self.seat_name(by)))
                },
            })
            .collect()
    }

    /// Where each spot is drawn, and the picture's board: a chessboard for two (A at the
    /// bottom, as the only pair joins them), else every half-board upright in two columns,
    /// with its letter and its own coordinates in the gaps.
    fn picture(&self) -> (std::sync::Arc<crate::board::Board>, Vec<BoardLabel>) {
        // Built once per number of boards: the grid is large and mostly holes.
        type Picture = (std::sync::Arc<crate::board::Board>, Vec<BoardLabel>);
        static PICTURES: [std::sync::OnceLock<Picture>; 9] =
            [const { std::sync::OnceLock::new() }; 9];
        PICTURES[self.armies as usize]
            .get_or_init(|| self.draw_picture())
            .clone()
    }

    fn draw_picture(&self) -> (std::sync::Arc<crate::board::Board>, Vec<BoardLabel>) {
        if self.armies == 2 {
            return (BoardSpec::chess().build(), Vec::new());
        }
        let rows = self.armies.div_ceil(2) as i16;
        let (width, height) = (19u8, (rows * 6 - 1) as u8);
        let mut squares = Vec::new();
        let mut labels = Vec::new();
        for b in 0..self.armies {
            let (x0, y0) = picture_origin(b, rows);
            for f in 0..8 {
                for r in 0..4 {
                    squares.push(((x0 + f) as u8, (y0 + r) as u8));
                }
                labels.push(BoardLabel {
                    at: (x0 + f, y0 - 1),
                    text: ((b'a' + f as u8) as char).to_string(),
                    strong: false,
                });
            }
            for r in 0..4 {
                labels.push(BoardLabel {
                    at: (x0 - 1, y0 + r),
                    text: (r + 1).to_string(),
                    strong: false,
                });
            }
            labels.push(BoardLabel {
                at: (x0 - 1, y0 - 1),
                text: letter(b).to_string(),
                strong: true,
            });
        }
        let holes = (0..width)
            .flat_map(|f| (0..height).map(move |r| (f, r)))
            .filter(|sq| !squares.contains(sq));
        let board = SquareBoard::new(width, height).holes(holes).spec().build();
        (board, labels)
    }

    fn picture_cell(&self, board: &crate::board::Board, spot: Spot) -> Option<Cell> {
        if self.armies == 2 {
            return Pair { bottom: 0, top: 1 }.cell(spot);
        }
        let (x0, y0) = picture_origin(spot.board, self.armies.div_ceil(2) as i16);
        board.at(
            i32::from(x0) + i32::from(spot.file()),
            i32::from(y0) + i32::from(spot.rank()),
        )
    }

    fn view(&self, variant: &'static str, viewer: Viewer) -> View {
        let (board, labels) = self.picture();
        let picture = board.clone();
        let cell = |spot: Spot| self.picture_cell(&picture, spot);
        let figures = self
            .spots()
            .filter_map(|(spot, man)| {
                Some(Placed::new(
                    cell(spot)?,
                    Seat(man.army),
                    Figure::Chess(man.role),
                ))
            })
            .collect();
        let checks = (0..self.armies)
            .filter(|&a| self.in_check_somewhere(a))
            .filter_map(|a| cell(self.king_spot(a)?))
            .collect();
        let bottom = match viewer {
            Viewer::Seat(Seat(1)) if self.armies == 2 => Seat(1),
            _ => Seat(0),
        };
        View {
            variant,
            board,
            viewer,
            bottom,
            figures,
            last_move: self.last_move.iter().filter_map(|&s| cell(s)).collect(),
            checks,
            to_act: self.prompts().iter().map(|p| p.seat).collect(),
            players: (0..self.armies).map(|p| self.seat_name(Seat(p))).collect(),
            move_number: self.table.rounds() + 1,
            status: match &self.outcome {
                Some(o) => o.describe(|s| self.seat_name(s)),
                None => self.to_move_text(),
            },
            panel: None,
            square_names: Vec::new(),
            table: if self.armies == 2 {
                Vec::new()
            } else {
                self.lines()
            },
            colours: Vec::new(),
            labels,
            tinted: Vec::new(),
            cards: Vec::new(),
        }
    }

    /// Whether an army's king is in check on any pair its board could be pushed into.
    fn in_check_somewhere(&self, army: u8) -> bool {
        let Some(king) = self.king_spot(army) else {
            return false;
        };
        (0..self.armies).filter(|&b| b != king.board).any(|b| {
            self.join(army, self.natural_pair(army, king.board, b))
                .in_check()
        })
    }

    // ---- leaving -------------------------------------------------------------------------

    fn is_out(&self, seat: Seat) -> bool {
        (0..self.armies).all(|a| self.table.controller(a) != seat || self.table.status(a).is_out())
    }

    fn leave(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<Event>, GameError> {
        let others: Vec<Seat> = (0..self.armies)
            .map(Seat)
            .filter(|&p| p != seat && !self.is_out(p))
            .collect();
        if self.armies == 2 || others.len() <= 1 {
            return Ok(vec![Event::GameOver(Outcome::win(others, reason))]);
        }
        let held: Vec<u8> = (0..self.armies)
            .filter(|&a| self.table.controller(a) == seat && !self.table.status(a).is_out())
            .collect();
        if held.is_empty() {
            return Err(GameError::Refused(
                "you are already out of this game".into(),
            ));
        }
        let mut events = Vec::new();
        for &a in &held {
            for i in 0..self.men.len() {
                if self.men[i].is_some_and(|m| m.army == a) {
                    self.men[i] = None;
                }
            }
            self.table.set_status(a, ArmyStatus::Eliminated);
            events.push(Event::Public(format!(
                "{} leaves the game ({}); its pieces leave the boards.",
                self.name(a),
                reason.describe()
            )));
        }
        self.passages.retain(|p| !held.contains(&p.army));
        if let Some(outcome) = self.last_player(reason) {
            self.outcome = Some(outcome.clone());
            events.push(Event::GameOver(outcome));
        } else if held.contains(&self.current()) {
            self.turn.made.clear();
            self.end_turn(&mut events);
            if let Some(o) = &self.outcome {
                events.push(Event::GameOver(o.clone()));
            }
        }
        Ok(events)
    }

    // ---- perft ---------------------------------------------------------------------------

    /// Perft through the game's own turns (every move and every `done` is a step).
    pub fn perft(&self, depth: u32) -> u64 {
        if self.outcome.is_some() {
            return u64::from(depth == 0);
        }
        let actions = self.legal_actions();
        match depth {
            0 => 1,
            1 => actions.len() as u64,
            _ => actions
                .into_iter()
                .map(|a| {
                    let mut child = self.clone();
                    child.apply(a);
                    child.perft(depth - 1)
                })
                .sum(),
        }
    }

    /// Perft split by the first action.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 || self.outcome.is_some() {
            return Vec::new();
        }
        self.legal_actions()
            .into_iter()
            .map(|a| {
                let mut child = self.clone();
                child.apply(a);
                (self.action_text(a), child.perft(depth - 1))
            })
            .collect()
    }
}

/// The half-boards stored compactly, one string per board: two characters a square, the
/// piece's letter and its army's number (`R0`), or `..` for an empty square.
mod compact_men {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use super::{Man, HALF};
    use crate::chess::Role;

    pub fn serialize<S: Serializer>(men: &[Option<Man>], s: S) -> Result<S::Ok, S::Error> {
        let boards: Vec<String> = men
            .chunks(HALF)
            .map(|board| {
                board
                    .iter()
                    .flat_map(|m| match m {
                        Some(m) => [m.role.upper_char(), (b'0' + m.army) as char],
                        None => ['.', '.'],
                    })
                    .collect()
            })
            .collect();
        s.collect_seq(boards)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Option<Man>>, D::Error> {
        let boards = Vec::<String>::deserialize(d)?;
        let mut men = Vec::with_capacity(boards.len() * HALF);
        for board in &boards {
            let chars: Vec<char> = board.chars().collect();
            if chars.len() != 2 * HALF {
                return Err(D::Error::custom("a half-board holds 32 squares"));
            }
            for pair in chars.chunks(2) {
                men.push(match (pair[0], pair[1]) {
                    ('.', '.') => None,
                    (role, army) => {
                        let role = Role::from_char(role)
                            .ok_or_else(|| D::Error::custom(format!("no piece '{role}'")))?;
                        let army = army
                            .to_digit(10)
                            .filter(|&a| (a as usize) < boards.len())
                            .ok_or_else(|| D::Error::custom(format!("no army '{army}'")))?;
                        Some(Man {
                            army: army as u8,
                            role,
                        })
                    }
                });
            }
        }
        Ok(men)
    }
}

/// The grid square of a half-board's a1 in the picture of three or more boards: two columns,
/// A and B in the top row; before each board a column for its ranks and a row for its files,
/// and a blank row and column between boards, so that every a1 falls on a dark square.
fn picture_origin(board: u8, rows: i16) -> (i16, i16) {
    let column = i16::from(board % 2);
    let row = i16::from(board / 2);
    (1 + column * 10, (rows - 1 - row) * 6 + 1)
}

/// Whether a text starts like a pair (a letter and `+`), though perhaps a malformed one: no
/// chess move has `+` as its second character.
fn looks_like_a_pair(text: &str) -> bool {
    let mut chars = text.chars().filter(|c| !c.is_whitespace());
    matches!((chars.next(), chars.next()), (Some(a), Some('+')) if a.is_ascii_alphabetic())
}

/// Splits `A+C: Nf3` (or `a+c nf3`) into the two board letters and the move.
fn split_pair(text: &str) -> Option<(char, char, &str)> {
    let mut chars = text.char_indices().filter(|(_, c)| !c.is_whitespace());
    let (_, a) = chars.next()?;
    let (_, plus) = chars.next()?;
    let (i, b) = chars.next()?;
    if !(a.is_ascii_alphabetic() && plus == '+' && b.is_ascii_alphabetic()) {
        return None;
    }
    let rest = text[i + 1..].trim_start();
    let rest = rest.strip_prefix(':').unwrap_or(rest).trim();
    Some((a, b, rest))
}

// ---- the game ------------------------------------------------------------------------------

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| VariantInfo {
    id: "betza",
    aliases: &["any-number", "chess-for-any-number", "betza-chess"],
    name: "Chess for Any Number of Players",
    family: Family::Chess,
    seat_counts: &[2, 3, 4, 5, 6, 7, 8],
    options: Vec::new(),
    hidden_information: false,
    simultaneous: false,
    rules: RULES,
    source: "Ralph Betza, Chess For Any Number of Players (about 1980, revised 1995)",
});

const RULES: &str = "\
Every player has half a chessboard (8 files, 4 ranks) with a whole army on it: board A is \
White's, B Black's, then C Orange, D Blue, E Green, F Pink, G Tan, H Brown, moving in that order \
(the order belongs to the armies, not the players). Light armies (A, C, E, G) stand as White \
does, king on e1; dark ones (B, D, F, H) as Black does, seen from their own side: king on d1.\n\
Each move pushes two half-boards together and is then any legal chess move on the joined board, \
even one made entirely on one of them. Write the pair first: A+C: Nf3. The first board named \
lies at the bottom as ranks 1-4 in its own coordinates; the second is turned round opposite it \
as ranks 5-8 (its own a1 is h8, its own e2 is d7). You may name the pair either way; moves are \
shown as the mover sees the pair (his own board at the bottom if light, on top if dark). Pawns \
walk away from home across the join, and toward the home edge of any other board, where they \
promote. With two players there is only one pair: the game is exactly chess.\n\
An army has one move for each half-board its pieces stand on when its turn begins, each on a \
pair not yet pushed this turn (write done to stop early). It never moves one piece twice, never \
captures into one board from several boards, and never moves one piece onto a board and another \
off it in the same turn.\n\
Check is judged on the two boards pushed together: a move may not leave your king in check \
there. Your other armies never check you; allies' pieces do. A move that leaves a king in check \
on the joined boards with no legal answer there checkmates it: its army is captured and its \
turns pass to the player who mated it. The last player still holding an army wins.\n\
Our readings of what the book leaves open: the extra moves are optional; no move captures a \
king; an army with no legal move at all is checkmated if its king is in check on every pair its \
board could be pushed into, and otherwise passes (with two players, stalemate draws); every \
other army may take a long pawn step en passant on its next turn; threefold repetition, fifty \
turns of every army without a capture or pawn move, and material nobody can mate with draw; a \
player who resigns with more than two at the table leaves, and his armies leave the boards.";

impl Game for Betza {
    type State = BetzaGame;
    type Action = Action;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(&self, _options: &Options, seats: usize, _seed: u64) -> Result<BetzaGame, GameError> {
        Ok(BetzaGame::new(seats))
    }

    fn prompts(&self, state: &BetzaGame) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &BetzaGame, seat: Seat) -> Vec<Action> {
        if state.outcome.is_some() || state.table.controller(state.current()) != seat {
            return Vec::new();
        }
        state.legal_actions()
    }

    fn action_text(&self, state: &BetzaGame, action: &Action) -> String {
        state.action_text(*action)
    }

    fn legal_texts(&self, state: &BetzaGame, seat: Seat) -> Vec<String> {
        if state.outcome.is_some() || state.table.controller(state.current()) != seat {
            return Vec::new();
        }
        state.legal_texts()
    }

    fn parse(&self, state: &BetzaGame, seat: Seat, text: &str) -> Result<Action, GameError> {
        if state.table.controller(state.current()) != seat {
            return Err(GameError::NotYourTurn(state.to_move_text()));
        }
        state.parse(text)
    }

    fn apply(
        &self,
        state: &mut BetzaGame,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<Event>, GameError> {
        if state.table.controller(state.current()) != seat {
            return Err(GameError::NotYourTurn(state.to_move_text()));
        }
        if !state.allows(action) {
            return Err(GameError::Refused("that is not a legal move now".into()));
        }
        Ok(state.apply(action))
    }

    fn view(&self, state: &BetzaGame, viewer: Viewer) -> View {
        state.view(self.info().id, viewer)
    }

    fn outcome(&self, state: &BetzaGame) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn seat_name(&self, state: &BetzaGame, seat: Seat) -> String {
        state.seat_name(seat)
    }

    fn leave(
        &self,
        state: &mut BetzaGame,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        state.leave(seat, reason)
    }

    fn concede(&self, state: &BetzaGame, seat: Seat, _seats: usize, reason: EndReason) -> Outcome {
        let others = (0..state.armies)
            .map(Seat)
            .filter(|&p| p != seat && !state.is_out(p))
            .collect();
        Outcome::win(others, reason)
    }

    fn is_out(&self, state: &BetzaGame, seat: Seat) -> bool {
        state.is_out(seat)
    }

    fn waiting_reason(&self, state: &BetzaGame, seat: Seat) -> Option<String> {
        (state.outcome.is_none() && state.is_out(seat))
            .then(|| format!("you hold no army any more; {}", state.to_move_text()))
    }

    fn perft(&self, state: &BetzaGame, depth: u32) -> Option<u64> {
        Some(state.perft(depth))
    }

    fn divide(&self, state: &BetzaGame, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(state.divide(depth))
    }
}

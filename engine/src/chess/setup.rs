//! Unchecked setups and their validation into a [`Position`].

use std::fmt;
use std::sync::Arc;

use crate::board::{Cell, CellSet, MAX_CELLS};

use super::{CastleSide, EnPassant, Piece, Position, Role, Rules, Seat, MAX_SEATS, NO_CELL};

/// A position as written down, not yet checked: what FEN parsing produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each cell, indexed by cell.
    pub cells: Vec<Option<Piece>>,
    /// The seat to move.
    pub turn: Seat,
    /// Rooks that keep the right to castle.
    pub castling_rooks: Vec<Cell>,
    /// The cell a pawn skipped with a double step on the last move.
    pub ep_target: Option<Cell>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number.
    pub fullmoves: u32,
}

/// What a position must have in the way of kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// Exactly one king per seat (chess).
    OnePerSeat,
    /// A position this engine wrote for a variant: kings may be missing (captured) or left
    /// attacked, and pawns may stand where a variant put them (a zombie pawn risen on its own
    /// back row).
    Stored,
    /// Like [`KingRule::Stored`], and a seat may hold several kings: a seat standing for
    /// several armies at once (Betza's joined half-boards put every enemy army in one seat).
    Several,
}

/// One reason a setup is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionProblem {
    /// The setup lists a different number of cells than the board has.
    WrongCellCount { expected: usize, found: usize },
    /// A piece belongs to a seat the game does not have.
    NoSuchSeat(Seat),
    /// The seat to move is not at the table.
    TurnOutOfRange(Seat),
    /// A seat has no king.
    MissingKing(Seat),
    /// A seat has more than one king.
    TooManyKings(Seat),
    /// A pawn stands on its own back row or on a row where it should have promoted.
    PawnOnBackRow(Cell),
    /// The seat that just moved left its king in check.
    OppositeCheck(Seat),
    /// A castling right names a square without a castling rook next to an unmoved king.
    BadCastlingRight(Cell),
    /// The en passant square does not follow a double step of the last mover.
    BadEnPassant(Cell),
}

/// A setup that could not become a position; hands the setup back with every problem found.
#[derive(Clone, PartialEq, Eq)]
pub struct PositionError {
    /// The setup that failed.
    pub setup: Setup,
    /// What is wrong with it.
    pub problems: Vec<PositionProblem>,
    labels: Vec<String>,
}

impl PositionError {
    fn describe(&self, p: &PositionProblem) -> String {
        let label = |c: &Cell| {
            self.labels
                .get(c.index())
                .cloned()
                .unwrap_or_else(|| format!("cell {}", c.0))
        };
        match p {
            PositionProblem::WrongCellCount { expected, found } => {
                format!("the board has {expected} squares but {found} were given")
            }
            PositionProblem::NoSuchSeat(s) => format!("a piece belongs to {}, who is not playing", s.colour_name()),
            PositionProblem::TurnOutOfRange(s) => format!("{} is to move but is not playing", s.colour_name()),
            PositionProblem::MissingKing(s) => format!("{} has no king", s.colour_name()),
            PositionProblem::TooManyKings(s) => format!("{} has more than one king", s.colour_name()),
            PositionProblem::PawnOnBackRow(c) => format!("the pawn on {} stands on a row no pawn can be on", label(c)),
            PositionProblem::OppositeCheck(s) => {
                format!("{} is in check but it is not their turn", s.colour_name())
            }
            PositionProblem::BadCastlingRight(c) => format!(
                "castling with {} is impossible: it needs an unmoved rook there and its king on the same back row",
                label(c)
            ),
            PositionProblem::BadEnPassant(c) => format!(
                "en passant on {} is impossible: no pawn just made a double step past it",
                label(c)
            ),
        }
    }
}

impl fmt::Debug for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionError")
            .field("problems", &self.problems)
            .field("message", &self.to_string())
            .finish_non_exhaustive()
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all: Vec<String> = self.problems.iter().map(|p| self.describe(p)).collect();
        write!(f, "{}", all.join("; "))
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// Validates a setup under some rules.
    ///
    /// ```
    /// use engine::chess::{Position, Rules, Setup, Seat, PositionProblem};
    ///
    /// let empty = Setup {
    ///     cells: vec![None; 64],
    ///     turn: Seat::WHITE,
    ///     castling_rooks: vec![],
    ///     ep_target: None,
    ///     halfmoves: 0,
    ///     fullmoves: 1,
    /// };
    /// let err = Position::from_setup(empty, Rules::chess()).unwrap_err();
    /// assert!(err.problems.contains(&PositionProblem::MissingKing(Seat::WHITE)));
    /// assert_eq!(err.setup.cells.len(), 64, "the setup comes back with the error");
    /// ```
    pub fn from_setup(setup: Setup, rules: Arc<Rules>) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, rules, KingRule::OnePerSeat)
    }

    /// Validates a setup, with a choice about kings: games where a king can be captured
    /// (Masquerade, Synchronous chess) store positions that lack one.
    pub fn from_setup_with(
        setup: Setup,
        rules: Arc<Rules>,
        kings: KingRule,
    ) -> Result<Position, PositionError> {
        let board = rules.board();
        let labels = || board.cells().map(|c| board.label(c).to_string()).collect();
        if setup.cells.len() != board.len() {
            return Err(PositionError {
                problems: vec![PositionProblem::WrongCellCount {
                    expected: board.len(),
                    found: setup.cells.len(),
                }],
                setup,
                labels: labels(),
            });
        }
        debug_assert!(board.len() <= MAX_CELLS);
        let seats = rules.seats();
        let mut problems = Vec::new();
        let mut pos = Position {
            rules: rules.clone(),
            squares: [0; MAX_CELLS],
            by_seat: [CellSet::EMPTY; MAX_SEATS],
            kings: [NO_CELL; MAX_SEATS],
            castling: [[None; 2]; MAX_SEATS],
            ep: super::EnPassantList::new(),
            turn: setup.turn.0,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
        };
        if setup.turn.index() >= seats {
            problems.push(PositionProblem::TurnOutOfRange(setup.turn));
        }
        let mut king_count = [0; MAX_SEATS];
        for (i, piece) in setup.cells.iter().enumerate() {
            let Some(piece) = piece else { continue };
            let cell = Cell(i as u16);
            if piece.seat.index() >= seats {
                if !problems.contains(&PositionProblem::NoSuchSeat(piece.seat)) {
                    problems.push(PositionProblem::NoSuchSeat(piece.seat));
                }
                continue;
            }
            let s = piece.seat.index();
            if piece.role == Role::King {
                king_count[s] += 1;
                pos.kings[s] = cell.0;
            }
            if piece.role == Role::Pawn
                && kings == KingRule::OnePerSeat
                && (rules.armies[s].pawn.promotion.contains(cell)
                    || rules.armies[s].home_row.contains(cell))
            {
                problems.push(PositionProblem::PawnOnBackRow(cell));
            }
            pos.put(cell, piece.pack());
            if let (Role::Pawn, Some(side)) = (piece.role, &rules.armies[s].side) {
                // Superchess: a pawn takes the course of the line it starts on; the point pawn,
                // on both, has yet to choose.
                let course = match (
                    rules.armies[s].pawn.double_step.contains(cell),
                    side.double_step.contains(cell),
                ) {
                    (true, true) => super::Course::Either,
                    (false, true) => super::Course::Side,
                    _ => super::Course::Forward,
                };
                pos.set_pawn_course(cell, course);
            }
        }
        for (s, &count) in king_count.iter().enumerate().take(seats) {
            match count {
                0 if kings != KingRule::OnePerSeat => {}
                0 => problems.push(PositionProblem::MissingKing(Seat(s as u8))),
                1 => {}
                _ if kings == KingRule::Several => {}
                _ => problems.push(PositionProblem::TooManyKings(Seat(s as u8))),
            }
        }
        if !problems.is_empty() {
            return Err(PositionError {
                setup,
                problems,
                labels: labels(),
            });
        }
        for &rook in &setup.castling_rooks {
            match pos.castling_side(rook) {
                Some((seat, side)) if pos.castling[seat][side as usize].is_none() => {
                    pos.castling[seat][side as usize] = Some(rook);
                }
                _ => problems.push(PositionProblem::BadCastlingRight(rook)),
            }
        }
        if let Some(target) = setup.ep_target {
            match pos.ep_from_target(target) {
                Some(ep) => pos.ep.push(ep),
                None => problems.push(PositionProblem::BadEnPassant(target)),
            }
        }
        let last_mover = (pos.turn as usize + seats - 1) % seats;
        if seats > 1 && kings == KingRule::OnePerSeat && pos.seat_in_check(Seat(last_mover as u8)) {
            problems.push(PositionProblem::OppositeCheck(Seat(last_mover as u8)));
        }
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError {
                setup,
                problems,
                labels: labels(),
            })
        }
    }

    /// The setup this position was made from (or would be written as).
    pub fn to_setup(&self) -> Setup {
        Setup {
            cells: self.board().cells().map(|c| self.piece_at(c)).collect(),
            turn: self.turn(),
            castling_rooks: self.castling.iter().flatten().flatten().copied().collect(),
            ep_target: self.legal_ep(),
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// For a rook cell: whose castling rook it could be, and on which side of its king.
    pub(crate) fn castling_side(&self, rook: Cell) -> Option<(usize, CastleSide)> {
        let piece = self.piece_at(rook)?;
        if piece.role != Role::Rook {
            return None;
        }
        let seat = piece.seat.index();
        let king = self.king(piece.seat)?;
        if self.rules.spec().castling == super::CastlingRule::Swap {
            return Some((seat, self.swap_side(seat, king, rook)?));
        }
        let line = &self.rules.armies[seat].home_line;
        let at = |c: Cell| line.iter().position(|&x| x == c);
        let side = match (at(king)?, at(rook)?) {
            (k, r) if r > k => CastleSide::High,
            (k, r) if r < k => CastleSide::Low,
            _ => return None,
        };
        self.castle_targets(king, side)?;
        Some((seat, side))
    }

    /// Which side a rook that castles by changing places with the king stands on: the king's
    /// right as its army faces is the high side (`O-O`).
    fn swap_side(&self, seat: usize, king: Cell, rook: Cell) -> Option<CastleSide> {
        let board = self.board();
        let ((kf, kr), (rf, rr)) = (board.coord(king), board.coord(rook));
        let (df, dr) = (rf - kf, rr - kr);
        // The army's forward and right as vectors, turned clockwise from up the board.
        let turn = |q: u8| match q % 4 {
            0 => (0, 1),
            1 => (1, 0),
            2 => (0, -1),
            _ => (-1, 0),
        };
        let q = board.frame(seat).quarter_turns();
        let (forward, right) = (turn(q), turn(q + 1));
        let ahead = df * forward.0 + dr * forward.1;
        let across = df * right.0 + dr * right.1;
        match across.cmp(&ahead) {
            std::cmp::Ordering::Greater => Some(CastleSide::High),
            std::cmp::Ordering::Less => Some(CastleSide::Low),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn ep_from_target(&self, target: Cell) -> Option<EnPassant> {
        let seats = self.rules.seats();
        let mover = (self.turn as usize + seats - 1) % seats;
        let board = self.board();
        let forward = self.rules.armies[mover].pawn.forward;
        let pawn = board.step(target, forward)?;
        let origin = board.step(target, board.opposite(forward))?;
        let is_their_pawn = self.piece_at(pawn)
            == Some(Piece {
                seat: Seat(mover as u8),
                role: Role::Pawn,
            });
        // The square the pawn left may be occupied again: in Zombie Chess a piece buried
        // there rises as the pawn leaves it, and the pawn may still be taken en passant.
        let ok = is_their_pawn
            && self.piece_at(target).is_none()
            && self.rules.armies[mover].pawn.double_step.contains(origin);
        ok.then_some(EnPassant {
            pawn,
            skipped: [target, target],
            army: mover as u8,
            waiting: self.rules.enemy_mask[mover],
        })
    }
}

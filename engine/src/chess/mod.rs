//! Chess machinery over any [`Board`]: pieces, legal move generation, check and mate, castling
//! (standard and Chess960), en passant, promotion, counters, notation and perft.
//!
//! Movement is read from each seat's [`Frame`](crate::board::Frame), so a pawn walks "forward"
//! whichever way its army faces, and wrapped or holed boards need no special code.
//!
//! ```
//! use engine::chess::Position;
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! let e4 = pos.parse_move("e4").unwrap();
//! pos.play(e4).unwrap();
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! ```

mod fen;
mod perft;
mod rules;
mod san;
mod setup;
mod shadow;
mod stored;

use std::fmt;
use std::sync::Arc;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::board::{Board, Cell, CellSet, Dir, Shade};

pub use fen::parse_setup;
pub use fen::{FenError, FenFlavor};
pub use perft::{divide, perft};
pub use rules::{CastlingRule, PawnRule, Rules, RulesSpec, MAX_SEATS};
use rules::{Geometry, Squares, Triangles};
pub use san::{MoveParseError, NotationStyle};
pub use setup::{KingRule, PositionError, PositionProblem, Setup};
pub use shadow::{ShadowMove, Shadows};

/// A piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Role {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The upper-case letter of the role in English notation.
    pub fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role for a letter in either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }

    /// The English name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    #[inline]
    fn from_u8(v: u8) -> Role {
        match v {
            1 => Role::Pawn,
            2 => Role::Knight,
            3 => Role::Bishop,
            4 => Role::Rook,
            5 => Role::Queen,
            _ => Role::King,
        }
    }

    #[inline]
    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A seat at the table: one army. In two-player chess seat 0 is White and seat 1 is Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// White in two-player chess.
    pub const WHITE: Seat = Seat(0);
    /// Black in two-player chess.
    pub const BLACK: Seat = Seat(1);

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other side of a two-sided game (White for Black, Black for White).
    #[inline]
    pub const fn opponent(self) -> Seat {
        Seat(1 - self.0)
    }

    /// "White", "Black", or "Seat 3".
    pub fn colour_name(self) -> String {
        match self.0 {
            0 => "White".into(),
            1 => "Black".into(),
            n => format!("Seat {}", n + 1),
        }
    }
}

/// Which way a pawn goes, where pawns go more than one way (Superchess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Course {
    /// Its army's forward.
    Forward,
    /// To the right of its army's forward.
    Side,
    /// Either, until its first move decides (Superchess's point pawns).
    Either,
}

impl Course {
    #[inline]
    const fn bits(self) -> u8 {
        (self as u8) << COURSE_SHIFT
    }
    #[inline]
    fn of(v: u8) -> Course {
        match v >> COURSE_SHIFT {
            0 => Course::Forward,
            1 => Course::Side,
            _ => Course::Either,
        }
    }
}

/// A cell's byte: the role in bits 0-2, the seat in bits 3-5, a pawn's [`Course`] in 6-7.
const COURSE_SHIFT: u8 = 6;
const PIECE_BITS: u8 = (1 << COURSE_SHIFT) - 1;

/// A piece: a role belonging to a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub seat: Seat,
    pub role: Role,
}

impl Piece {
    #[inline]
    fn pack(self) -> u8 {
        pack(self.seat.0, self.role)
    }

    #[inline]
    fn unpack(v: u8) -> Option<Piece> {
        (v != 0).then(|| Piece {
            seat: Seat((v & PIECE_BITS) >> 3),
            role: Role::from_u8(v & 7),
        })
    }

    /// The FEN letter of the piece for two-player boards (upper case for White).
    pub fn fen_char(self) -> char {
        let c = self.role.upper_char();
        if self.seat == Seat::WHITE {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }
}

#[inline]
const fn pack(seat: u8, role: Role) -> u8 {
    (seat << 3) | role as u8
}
#[inline]
fn seat_of(v: u8) -> usize {
    ((v & PIECE_BITS) >> 3) as usize
}
#[inline]
fn role_of(v: u8) -> Role {
    Role::from_u8(v & 7)
}

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MoveKind {
    /// Any move or capture without a special rule.
    Normal,
    /// A pawn's step of more than one square (two in chess; up to three in Doubles Chess),
    /// which may be taken en passant on any square it passed.
    DoubleStep,
    /// A pawn capturing en passant; `to` is the empty cell it moves to.
    EnPassant,
    /// A pawn reaching its last row and becoming another piece.
    Promotion(Role),
    /// A pawn promoting to a piece of a partner's army (Superchess).
    PromotionFor(Role, Seat),
    /// Castling: `from` is the king and `to` the rook it castles with (so 960 castles are
    /// never ambiguous).
    Castle,
}

/// A move: small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub kind: MoveKind,
}

impl Move {
    /// Whether this is a step of the king standing on `king` (castling aside): counted among
    /// an army's legal moves, the room its king has (see [`crate::game::Game::king_room`]).
    pub fn is_king_step(self, king: Cell) -> bool {
        self.from == king && self.kind != MoveKind::Castle
    }

    /// The promotion role, if this is a promotion.
    pub fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) | MoveKind::PromotionFor(r, _) => Some(r),
            _ => None,
        }
    }
    /// The army a promoted piece joins, for a move by `mover`'s pawn.
    pub fn promoted_army(self, mover: Seat) -> Seat {
        match self.kind {
            MoveKind::PromotionFor(_, army) => army,
            _ => mover,
        }
    }
    /// Whether this is castling.
    pub fn is_castle(self) -> bool {
        self.kind == MoveKind::Castle
    }
}

/// Enough room for the legal moves of any position on any board Rookery plays.
pub const MAX_MOVES: usize = 512;
/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A pawn's long step that enemy pawns may still take en passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The pawn that stepped.
    pub pawn: Cell,
    /// The squares it passed over (the second repeats the first after a two-square step).
    pub skipped: [Cell; 2],
    /// Its army.
    pub army: u8,
    /// The armies that may still take it, one bit each: every enemy, on its next turn only.
    pub waiting: u8,
}

impl EnPassant {
    #[inline]
    fn passed(&self, cell: Cell) -> bool {
        self.skipped[0] == cell || self.skipped[1] == cell
    }
}

/// The en passant chances open now: a fixed `Copy` array, so that copying a position stays a
/// plain memory copy (move generation copies positions all the time).
#[derive(Clone, Copy, Debug)]
struct EnPassantList {
    len: u8,
    items: [EnPassant; MAX_SEATS],
}

impl EnPassantList {
    const NONE: EnPassant = EnPassant {
        pawn: Cell(NO_CELL),
        skipped: [Cell(NO_CELL); 2],
        army: 0,
        waiting: 0,
    };

    fn new() -> EnPassantList {
        EnPassantList {
            len: 0,
            items: [Self::NONE; MAX_SEATS],
        }
    }
    fn is_full(&self) -> bool {
        self.len as usize == MAX_SEATS
    }
    fn push(&mut self, e: EnPassant) {
        self.items[self.len as usize] = e;
        self.len += 1;
    }
    fn retain(&mut self, mut keep: impl FnMut(&EnPassant) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            if keep(&self.items[i]) {
                self.items[kept] = self.items[i];
                kept += 1;
            }
        }
        for item in &mut self.items[kept..self.len as usize] {
            *item = Self::NONE;
        }
        self.len = kept as u8;
    }
    fn remove_first(&mut self) {
        let mut first = true;
        self.retain(|_| !std::mem::take(&mut first));
    }
}

impl std::ops::Deref for EnPassantList {
    type Target = [EnPassant];
    fn deref(&self) -> &[EnPassant] {
        &self.items[..self.len as usize]
    }
}

impl std::ops::DerefMut for EnPassantList {
    fn deref_mut(&mut self) -> &mut [EnPassant] {
        &mut self.items[..self.len as usize]
    }
}

/// Which side of the king a castling rook stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CastleSide {
    /// Toward the higher files (h-side, "king side", O-O).
    High = 0,
    /// Toward the lower files (a-side, "queen side", O-O-O).
    Low = 1,
}

const NO_CELL: u16 = u16::MAX;

/// A validated chess position on some board, with everything needed to go on playing.
#[derive(Clone)]
pub struct Position {
    rules: Arc<Rules>,
    squares: [u8; crate::board::MAX_CELLS],
    by_seat: [CellSet; MAX_SEATS],
    kings: [u16; MAX_SEATS],
    castling: [[Option<Cell>; 2]; MAX_SEATS],
    ep: EnPassantList,
    turn: u8,
    halfmoves: u32,
    fullmoves: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.try_fen(FenFlavor::XFen) {
            Some(fen) => write!(f, "Position({fen})"),
            None => write!(f, "Position(turn {})", self.turn),
        }
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.rules.spec() == other.rules.spec()
            && self.squares[..self.board().len()] == other.squares[..other.board().len()]
            && self.castling == other.castling
            && self.legal_ep() == other.legal_ep()
            && self.turn == other.turn
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

/// Reads cell contents: the position itself, or the position with a move patched in.
trait Occupancy {
    fn get(&self, cell: Cell) -> u8;
}

struct Plain<'a>(&'a [u8]);

impl Occupancy for Plain<'_> {
    #[inline]
    fn get(&self, cell: Cell) -> u8 {
        self.0[cell.index()]
    }
}

/// The position as it would be after a move, without copying it: up to two cells emptied and
/// two filled. Legality tests of the few moves that need one run on this.
struct Patch<'a> {
    squares: &'a [u8],
    vacated: [u16; 2],
    filled: [(u16, u8); 2],
}

impl Occupancy for Patch<'_> {
    #[inline]
    fn get(&self, cell: Cell) -> u8 {
        let c = cell.0;
        if self.filled[0].0 == c {
            self.filled[0].1
        } else if self.filled[1].0 == c {
            self.filled[1].1
        } else if self.vacated[0] == c || self.vacated[1] == c {
            0
        } else {
            self.squares[cell.index()]
        }
    }
}

impl Position {
    /// The standard chess starting position.
    pub fn startpos() -> Position {
        Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Rules::chess(),
        )
        .expect("the start position is valid")
    }

    /// The rules this position is played under.
    /// The same position under other rules for the same board and seats: in Trimens Chess a
    /// mated player's pieces die, which changes who is whose enemy.
    ///
    /// # Panics
    /// If the rules are for another board or number of seats.
    pub fn with_rules(&self, rules: Arc<Rules>) -> Position {
        assert!(
            rules.spec().board == self.rules.spec().board && rules.seats() == self.rules.seats(),
            "the same board and seats"
        );
        Position {
            rules,
            ..self.clone()
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    /// The board.
    pub fn board(&self) -> &Board {
        self.rules.board()
    }
    /// The seat to move.
    pub fn turn(&self) -> Seat {
        Seat(self.turn)
    }
    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        Piece::unpack(self.squares[cell.index()])
    }
    /// Every piece with its cell, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.board()
            .cells()
            .filter_map(|c| self.piece_at(c).map(|p| (c, p)))
    }
    /// The cells of one seat's pieces.
    pub fn cells_of(&self, seat: Seat) -> CellSet {
        self.by_seat[seat.index()]
    }
    /// The king of a seat, if it has one.
    pub fn king(&self, seat: Seat) -> Option<Cell> {
        let k = self.kings[seat.index()];
        (k != NO_CELL).then_some(Cell(k))
    }
    /// Moves since the last capture or pawn move, counted in single moves (plies).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    /// The move number, starting at 1 and increased after the last seat moves.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    /// The rook cells that still have castling rights, for one seat, high side first.
    pub fn castling_rooks(&self, seat: Seat) -> impl Iterator<Item = Cell> + '_ {
        self.castling[seat.index()].iter().flatten().copied()
    }
    /// The en passant target, only if an en passant capture is actually legal.
    pub fn legal_ep(&self) -> Option<Cell> {
        if self.ep.is_empty() {
            return None;
        }
        self.legal_moves()
            .iter()
            .find(|m| m.kind == MoveKind::EnPassant)
            .map(|m| m.to)
    }
    /// The en passant target left by the last long step, legal to use or not.
    pub fn ep_target(&self) -> Option<Cell> {
        self.ep.first().map(|ep| ep.skipped[0])
    }
    /// The long pawn steps enemies may still take en passant.
    pub fn en_passant(&self) -> &[EnPassant] {
        &self.ep
    }

    /// The pawn an en passant capture by `us`'s pawn on `from` onto `to` removes, if there is
    /// one.
    #[inline]
    fn ep_victim(&self, from: Cell, to: Cell, us: usize) -> Option<Cell> {
        self.ep
            .iter()
            .rev()
            .find(|e| {
                e.waiting & (1 << us) != 0
                    && e.passed(to)
                    && self.squares[e.pawn.index()] & PIECE_BITS == pack(e.army, Role::Pawn)
                    && (!self.rules.ep_beside || self.beside(from, e.pawn, us))
            })
            .map(|e| e.pawn)
    }

    /// Whether `from` is one rook step from `pawn`. For a pawn capturing onto the square
    /// `pawn` just passed, that is standing beside it on the next file: pawns at right angles
    /// can capture onto that square from a file further off (Superchess's point pawns).
    #[cold]
    fn beside(&self, from: Cell, pawn: Cell, us: usize) -> bool {
        let army = &self.rules.armies[us];
        army.lines_in_use(self.rules.triangles)
            .rook
            .iter()
            .any(|&d| army.board.step(from, d) == Some(pawn))
    }

    /// The pawn move `m` takes en passant, if it does: an en passant move, or a promotion made
    /// by taking en passant onto the far row (at right angles, on a board of four armies).
    #[inline]
    fn en_passant_victim(&self, m: Move, us: usize) -> Option<Cell> {
        match m.kind {
            MoveKind::EnPassant => self.ep_victim(m.from, m.to, us),
            MoveKind::Promotion(_) | MoveKind::PromotionFor(..)
                if !self.ep.is_empty() && self.squares[m.to.index()] == 0 =>
            {
                let army = &self.rules.armies[us];
                let straight = self
                    .courses(army, self.squares[m.from.index()])
                    .any(|way| army.board.step(m.from, way.forward) == Some(m.to));
                if straight {
                    None
                } else {
                    self.ep_victim(m.from, m.to, us)
                }
            }
            _ => None,
        }
    }

    /// Whether `m` takes something, en passant included.
    pub fn is_capture(&self, m: Move) -> bool {
        if m.kind == MoveKind::Castle {
            return false;
        }
        self.piece_at(m.to).is_some()
            || self
                .piece_at(m.from)
                .is_some_and(|p| self.en_passant_victim(m, p.seat.index()).is_some())
    }

    /// `us` has had its turn: its own long steps can no longer be taken, and it can no longer
    /// take anyone else's.
    #[inline]
    fn expire_ep(&mut self, us: usize) {
        if !self.ep.is_empty() {
            self.ep
                .retain(|e| e.army as usize != us && e.waiting & !(1 << us) != 0);
            for e in self.ep.iter_mut() {
                e.waiting &= !(1 << us);
            }
        }
    }

    #[inline]
    fn is_enemy(&self, v: u8, us: usize) -> bool {
        v != 0 && self.rules.enemy_mask[us] >> seat_of(v) & 1 == 1
    }

    // ---- attacks -------------------------------------------------------------------------

    /// Whether any enemy of `us` attacks `target`, reading the board through `occ`.
    #[inline]
    fn attacked<O: Occupancy>(&self, occ: &O, target: Cell, us: usize) -> bool {
        if self.rules.triangles {
            self.attacked_on_triangles(occ, target, us)
        } else {
            self.rules.enemies[us]
                .iter()
                .any(|&e| self.army_attacks_on::<O, Squares>(occ, target, e))
        }
    }

    /// Whether any enemy of `us` attacks `target` on a tri-board, walking each line once for
    /// all of them: there every army's pieces move along the same lines (only pawns differ),
    /// so with up to five enemies one walk replaces five.
    fn attacked_on_triangles<O: Occupancy>(&self, occ: &O, target: Cell, us: usize) -> bool {
        let mask = self.rules.enemy_mask[us];
        if mask == 0 {
            return false;
        }
        let enemy = |v: u8| v != 0 && mask >> seat_of(v) & 1 == 1;
        let army = &self.rules.armies[us];
        let board = &*army.board;
        for &t in board.leaps(target, army.knight) {
            let v = occ.get(t);
            if enemy(v) && role_of(v) == Role::Knight {
                return true;
            }
        }
        for &d in &army.king_only_from[..Triangles::KING_ONLY] {
            if let Some(t) = board.step(target, d) {
                let v = occ.get(t);
                if enemy(v) && role_of(v) == Role::King {
                    return true;
                }
            }
        }
        for &e in &self.rules.enemies[us] {
            let pawn = pack(e as u8, Role::Pawn);
            for &d in &self.rules.armies[e].pawn.attack_from {
                if board.step(target, d).is_some_and(|t| occ.get(t) == pawn) {
                    return true;
                }
            }
        }
        for (dirs, slider) in [
            (&army.rook_from[..Triangles::LINES], Role::Rook),
            (&army.bishop_from[..Triangles::LINES], Role::Bishop),
        ] {
            for &d in dirs {
                let mut c = target;
                let mut first = true;
                while let Some(t) = board.step(c, d) {
                    let v = occ.get(t);
                    if v != 0 {
                        if enemy(v) {
                            let role = role_of(v);
                            if role == slider
                                || role == Role::Queen
                                || (first && role == Role::King)
                            {
                                return true;
                            }
                        }
                        break;
                    }
                    first = false;
                    c = t;
                }
            }
        }
        false
    }

    /// Whether army `e` attacks `target`, reading the board through `occ`.
    #[inline(always)]
    fn army_attacks<O: Occupancy>(&self, occ: &O, target: Cell, e: usize) -> bool {
        if self.rules.triangles {
            self.army_attacks_on::<O, Triangles>(occ, target, e)
        } else {
            self.army_attacks_on::<O, Squares>(occ, target, e)
        }
    }

    #[inline(always)]
    fn army_attacks_on<O: Occupancy, G: Geometry>(&self, occ: &O, target: Cell, e: usize) -> bool {
        let army = &self.rules.armies[e];
        let board = &*army.board;
        let e = e as u8;
        let (pawn, knight, bishop, rook, queen, king) = (
            pack(e, Role::Pawn),
            pack(e, Role::Knight),
            pack(e, Role::Bishop),
            pack(e, Role::Rook),
            pack(e, Role::Queen),
            pack(e, Role::King),
        );
        for &t in board.leaps(target, army.knight) {
            if occ.get(t) == knight {
                return true;
            }
        }
        for &d in &army.pawn.attack_from {
            if let Some(t) = board.step(target, d) {
                if occ.get(t) == pawn {
                    return true;
                }
            }
        }
        if let Some(side) = &army.side {
            if self.side_pawn_attacks(occ, board, army, side, target, e) {
                return true;
            }
        }
        for &d in &army.king_only_from[..G::KING_ONLY] {
            if board.step(target, d).is_some_and(|t| occ.get(t) == king) {
                return true;
            }
        }
        for (dirs, slider) in [
            (&army.rook_from[..G::LINES], rook),
            (&army.bishop_from[..G::LINES], bishop),
        ] {
            for &d in dirs.iter() {
                let mut c = target;
                let mut first = true;
                while let Some(t) = board.step(c, d) {
                    if t == target {
                        break;
                    }
                    let v = occ.get(t);
                    if v != 0 {
                        if v == slider || v == queen || (first && v == king) {
                            return true;
                        }
                        break;
                    }
                    first = false;
                    c = t;
                }
            }
        }
        false
    }

    /// Whether a Superchess pawn of army `e` on its side course, or a point pawn yet to choose,
    /// attacks `target` (forward pawns were looked for already).
    #[cold]
    fn side_pawn_attacks<O: Occupancy>(
        &self,
        occ: &O,
        board: &Board,
        army: &rules::Army,
        side: &rules::PawnWay,
        target: Cell,
        e: u8,
    ) -> bool {
        let pawn = pack(e, Role::Pawn);
        let (on_side, either) = (pawn | Course::Side.bits(), pawn | Course::Either.bits());
        let attacks = |from: &[Dir; 2], wanted: u8| {
            from.iter()
                .any(|&d| board.step(target, d).is_some_and(|t| occ.get(t) == wanted))
        };
        attacks(&side.attack_from, on_side)
            || attacks(&side.attack_from, either)
            || attacks(&army.pawn.attack_from, either)
    }

    /// The courses a pawn (the cell byte `v`) may move on: its own, or both for a pawn yet to
    /// choose.
    #[inline]
    fn courses<'a>(
        &self,
        army: &'a rules::Army,
        v: u8,
    ) -> impl Iterator<Item = &'a rules::PawnWay> + 'a {
        let course = Course::of(v);
        let forward = (course != Course::Side).then_some(&army.pawn);
        let side = army.side.as_ref().filter(|_| course != Course::Forward);
        forward.into_iter().chain(side)
    }

    /// The course of the pawn on `cell`, if a pawn stands there.
    pub fn pawn_course(&self, cell: Cell) -> Option<Course> {
        let v = self.squares[cell.index()];
        (v != 0 && role_of(v) == Role::Pawn).then(|| Course::of(v))
    }

    /// Sets the course of the pawn on `cell` (a stored position read back; a setup whose pawns
    /// stand off their starting cells). Does nothing where no pawn stands.
    pub fn set_pawn_course(&mut self, cell: Cell, course: Course) {
        let v = self.squares[cell.index()];
        if v != 0 && role_of(v) == Role::Pawn {
            self.squares[cell.index()] = (v & PIECE_BITS) | course.bits();
        }
    }

    /// Whether a piece of `army` attacks `cell`, whoever stands there.
    pub fn attacked_by(&self, cell: Cell, army: Seat) -> bool {
        self.army_attacks(&Plain(&self.squares), cell, army.index())
    }

    /// `seat` passes its turn without moving (a skipped or missed turn in a game of several
    /// armies): its chance to take a pawn en passant lapses, as if it had moved.
    pub fn skip_turn(&mut self, seat: Seat) {
        self.expire_ep(seat.index());
    }

    /// Whether the seat to move is in check.
    pub fn is_check(&self) -> bool {
        self.seat_in_check(self.turn())
    }

    /// Whether a seat's king is attacked.
    pub fn seat_in_check(&self, seat: Seat) -> bool {
        match self.king(seat) {
            Some(k) => self.attacked(&Plain(&self.squares), k, seat.index()),
            None => false,
        }
    }

    /// Whether `cell` is attacked by any enemy of `seat`.
    pub fn is_attacked(&self, cell: Cell, seat: Seat) -> bool {
        self.attacked(&Plain(&self.squares), cell, seat.index())
    }

    /// Own pieces that may be pinned to the king: the first piece on a line from the king with
    /// an enemy slider for that line behind it. Moves of these pieces are tested one by one.
    fn pin_candidates(&self, king: Cell, us: usize) -> CellSet {
        let board = self.board();
        let mut pinned = CellSet::EMPTY;
        for d in 0..board.dir_count() {
            let d = Dir(d as u8);
            let mut c = king;
            let mut shield: Option<Cell> = None;
            while let Some(t) = board.step(c, d) {
                if t == king {
                    break;
                }
                c = t;
                let v = self.squares[t.index()];
                if v == 0 {
                    continue;
                }
                match shield {
                    None if self.is_enemy(v, us) => break,
                    None => shield = Some(t),
                    Some(s) => {
                        if self.is_enemy(v, us) {
                            let toward_king = board.opposite(d);
                            if self.rules.armies[seat_of(v)].slides(toward_king, role_of(v)) {
                                pinned.insert(s);
                            }
                        }
                        break;
                    }
                }
            }
        }
        pinned
    }

    // ---- move generation ---------------------------------------------------------------

    /// All legal moves of the seat to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves, true);
        moves
    }

    /// The moves of the seat to move that obey how pieces move but may leave the king in check.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves, false);
        moves
    }

    /// The number of legal moves (what perft counts at its last level).
    pub fn count_legal(&self) -> usize {
        self.legal_moves().len()
    }

    fn generate(&self, out: &mut MoveList, legal: bool) {
        if self.rules.triangles {
            self.generate_on::<Triangles>(out, legal)
        } else {
            self.generate_on::<Squares>(out, legal)
        }
    }

    fn generate_on<G: Geometry>(&self, out: &mut MoveList, legal: bool) {
        let us = self.turn as usize;
        let army = &self.rules.armies[us];
        let board = &*army.board;
        let king = self.king(self.turn());
        let wrapped = board.wrap() != crate::board::Wrap::None;
        let extended_knight = self.rules.spec().extended_knight;
        let own_boards = self.rules.own_boards;
        let (in_check, pins) = match (legal, king) {
            // Where armies move on boards of their own every move is tested, so pins are not
            // looked for.
            (true, Some(k)) if own_boards => {
                (self.attacked(&Plain(&self.squares), k, us), CellSet::EMPTY)
            }
            (true, Some(k)) => (
                self.attacked(&Plain(&self.squares), k, us),
                self.pin_candidates(k, us),
            ),
            _ => (false, CellSet::EMPTY),
        };
        for from in self.by_seat[us].iter() {
            let start = out.len();
            let role = role_of(self.squares[from.index()]);
            match role {
                Role::Pawn => {
                    let v = self.squares[from.index()];
                    if army.side.is_none() {
                        self.pawn_moves(board, &army.pawn, from, us, out);
                    } else {
                        for way in self.courses(army, v) {
                            self.pawn_moves(board, way, from, us, out);
                        }
                    }
                }
                Role::Knight => {
                    for &to in board.leaps(from, army.knight) {
                        self.push_step(from, to, us, out);
                    }
                    if extended_knight {
                        // The second hop never captures: both squares must be empty.
                        for &(mid, to) in board.knight_hops(from) {
                            if self.squares[mid.index()] == 0 && self.squares[to.index()] == 0 {
                                out.push(Move {
                                    from,
                                    to,
                                    kind: MoveKind::Normal,
                                });
                            }
                        }
                    }
                }
                Role::Bishop => self.slides(board, from, army.bishop_lines::<G>(), us, out),
                Role::Rook => self.slides(board, from, army.rook_lines::<G>(), us, out),
                Role::Queen => {
                    self.slides(board, from, army.rook_lines::<G>(), us, out);
                    self.slides(board, from, army.bishop_lines::<G>(), us, out);
                }
                Role::King => {
                    for &d in army.king_steps::<G>() {
                        if let Some(to) = board.step(from, d) {
                            self.push_step(from, to, us, out);
                        }
                    }
                }
            }
            if wrapped || (G::OVERLAPPING && matches!(role, Role::Rook | Role::Queen)) {
                // On a wrapped board two rays (east and west along a rank) can reach the same
                // cell, as can two lines of a tri-board through a triangle's side; a move is
                // only its start and end, so keep one of each.
                out[start..].sort_unstable();
                dedup_range(out, start);
            }
            if legal && king.is_some() {
                let test_all = in_check || role == Role::King || pins.contains(from) || own_boards;
                let mut keep = start;
                for i in start..out.len() {
                    let m = out[i];
                    let en_passant = m.kind == MoveKind::EnPassant
                        || (!self.ep.is_empty()
                            && matches!(
                                m.kind,
                                MoveKind::Promotion(_) | MoveKind::PromotionFor(..)
                            ));
                    if !(test_all || en_passant) || self.is_safe(m, us) {
                        out[keep] = m;
                        keep += 1;
                    }
                }
                out.truncate(keep);
            }
        }
        if !in_check {
            if let Some(k) = king {
                self.castles(k, us, legal, out);
            }
        }
    }

    #[inline]
    fn push_step(&self, from: Cell, to: Cell, us: usize, out: &mut MoveList) {
        let v = self.squares[to.index()];
        if v == 0 || self.is_enemy(v, us) {
            out.push(Move {
                from,
                to,
                kind: MoveKind::Normal,
            });
        }
    }

    #[inline]
    fn slides(&self, board: &Board, from: Cell, dirs: &[Dir], us: usize, out: &mut MoveList) {
        for &d in dirs {
            let mut c = from;
            while let Some(to) = board.step(c, d) {
                if to == from {
                    break;
                }
                let v = self.squares[to.index()];
                if v == 0 {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::Normal,
                    });
                    c = to;
                    continue;
                }
                if self.is_enemy(v, us) {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::Normal,
                    });
                }
                break;
            }
        }
    }

    fn pawn_moves(
        &self,
        board: &Board,
        army: &rules::PawnWay,
        from: Cell,
        us: usize,
        out: &mut MoveList,
    ) {
        let push = |to: Cell, kind: MoveKind, out: &mut MoveList| {
            if army.promotes(
                to,
                kind == MoveKind::EnPassant || self.squares[to.index()] != 0,
            ) {
                for &role in &self.rules.promotion_roles {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::Promotion(role),
                    });
                }
                if self.rules.promote_to_partners() {
                    self.partner_promotions(from, to, us, out);
                }
            } else {
                out.push(Move { from, to, kind });
            }
        };
        if let Some(one) = board.step(from, army.forward) {
            if self.squares[one.index()] == 0 {
                push(one, MoveKind::Normal, out);
                if army.double_step.contains(from) {
                    if let Some(two) = board.step(one, army.forward) {
                        if self.squares[two.index()] == 0 {
                            push(two, MoveKind::DoubleStep, out);
                            if army.triple_step.contains(from) {
                                if let Some(three) = board.step(two, army.forward) {
                                    if self.squares[three.index()] == 0 {
                                        push(three, MoveKind::DoubleStep, out);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for &d in &army.captures {
            if let Some(to) = board.step(from, d) {
                let v = self.squares[to.index()];
                if self.is_enemy(v, us) {
                    push(to, MoveKind::Normal, out);
                } else if v == 0 && !self.ep.is_empty() {
                    if let Some(pawn) = self.ep_victim(from, to, us) {
                        if self.is_enemy(self.squares[pawn.index()], us) {
                            push(to, MoveKind::EnPassant, out);
                        }
                    }
                }
            }
        }
    }

    /// Promotions of the pawn on `from` to the pieces of `us`'s partners.
    #[cold]
    fn partner_promotions(&self, from: Cell, to: Cell, us: usize, out: &mut MoveList) {
        for partner in 0..self.rules.seats {
            if partner as usize != us && self.rules.teams[partner as usize] == self.rules.teams[us]
            {
                for &role in &self.rules.promotion_roles {
                    out.push(Move {
                        from,
                        to,
                        kind: MoveKind::PromotionFor(role, Seat(partner)),
                    });
                }
            }
        }
    }

    /// Whether the mover's king is safe after `m` (a non-castling move).
    fn is_safe(&self, m: Move, us: usize) -> bool {
        let moving = self.squares[m.from.index()];
        let placed = match m.kind {
            MoveKind::Promotion(r) => pack(us as u8, r),
            MoveKind::PromotionFor(r, army) => pack(army.0, r),
            _ => moving,
        };
        let extra = self.en_passant_victim(m, us).map_or(NO_CELL, |c| c.0);
        let patch = Patch {
            squares: &self.squares,
            vacated: [m.from.0, extra],
            filled: [(m.to.0, placed), (NO_CELL, 0)],
        };
        let king = if role_of(moving) == Role::King {
            m.to
        } else {
            Cell(self.kings[us])
        };
        !self.attacked(&patch, king, us)
    }

    fn castles(&self, king: Cell, us: usize, legal: bool, out: &mut MoveList) {
        for side in [CastleSide::High, CastleSide::Low] {
            let Some(rook) = self.castling[us][side as usize] else {
                continue;
            };
            if self.castle_is_possible(king, rook, side, us, legal) {
                out.push(Move {
                    from: king,
                    to: rook,
                    kind: MoveKind::Castle,
                });
            }
        }
    }

    /// Where king and rook end up when `king` castles to `side`, by the rules' castling rule,
    /// read along the king's army's home row.
    fn castle_targets(&self, king: Cell, side: CastleSide) -> Option<(Cell, Cell)> {
        let us = seat_of(self.squares[king.index()]);
        if self.rules.spec().castling == CastlingRule::Swap {
            // The two change places.
            let rook = (*self.castling.get(us)?)[side as usize]?;
            return Some((rook, king));
        }
        let army = self.rules.armies.get(us)?;
        let line = &army.home_line;
        let k = army.line_at(king)?;
        let n = line.len();
        let (king_at, rook_at) = match (self.rules.spec().castling, side) {
            (CastlingRule::FixedFiles, CastleSide::High) => (n.checked_sub(2)?, n.checked_sub(3)?),
            (CastlingRule::FixedFiles, CastleSide::Low) => (2, 3),
            (CastlingRule::KingTwoSquares, CastleSide::High) => (k + 2, k + 1),
            (CastlingRule::KingTwoSquares, CastleSide::Low) => (k.checked_sub(2)?, k - 1),
            (CastlingRule::Swap, _) => unreachable!("swaps are answered above"),
        };
        Some((*line.get(king_at)?, *line.get(rook_at)?))
    }

    /// Which side a castling move goes to: toward the higher or lower end of the home row.
    pub(crate) fn castle_side_of(&self, m: Move) -> CastleSide {
        let us = seat_of(self.squares[m.from.index()]);
        if self.rules.spec().castling == CastlingRule::Swap {
            return match self.castling[us] {
                [Some(high), _] if high == m.to => CastleSide::High,
                _ => CastleSide::Low,
            };
        }
        let army = &self.rules.armies[us];
        if army.line_at(m.to) > army.line_at(m.from) {
            CastleSide::High
        } else {
            CastleSide::Low
        }
    }

    /// The side written `O-O` (`short`) or `O-O-O` for the seat to move: in chess the h-side
    /// and the a-side; where the king castles two squares toward either rook, the king's side
    /// (the half of the home row it stands in, where its nearer rook starts) and the other.
    pub(crate) fn castle_side_named(&self, short: bool) -> CastleSide {
        if let Some(&side) = self.rules.spec().short_castle.get(self.turn as usize) {
            return match (short, side) {
                (true, side) => side,
                (false, CastleSide::High) => CastleSide::Low,
                (false, CastleSide::Low) => CastleSide::High,
            };
        }
        let high_is_short = match self.rules.spec().castling {
            CastlingRule::FixedFiles | CastlingRule::Swap => true,
            CastlingRule::KingTwoSquares => {
                // The king's own side: the half of the home row it stands in (fixed for the
                // game, whichever rights are left).
                let army = &self.rules.armies[self.turn as usize];
                match self.king(self.turn()).and_then(|k| army.line_at(k)) {
                    Some(k) => 2 * k + 1 >= army.home_line.len(),
                    None => true,
                }
            }
        };
        if short == high_is_short {
            CastleSide::High
        } else {
            CastleSide::Low
        }
    }

    fn castle_is_possible(
        &self,
        king: Cell,
        rook: Cell,
        side: CastleSide,
        us: usize,
        legal: bool,
    ) -> bool {
        let Some((king_to, rook_to)) = self.castle_targets(king, side) else {
            return false;
        };
        if self.rules.spec().castling == CastlingRule::Swap {
            // Nothing between them matters, nor any square but the king's last.
            let patch = Patch {
                squares: &self.squares,
                vacated: [NO_CELL, NO_CELL],
                filled: [
                    (king_to.0, self.squares[king.index()]),
                    (rook_to.0, self.squares[rook.index()]),
                ],
            };
            // Not out of check, and not into it.
            return !legal
                || !(self.attacked(&Plain(&self.squares), king, us)
                    || self.attacked(&patch, king_to, us));
        }
        let army = &self.rules.armies[us];
        let line = &army.home_line;
        let at = |c: Cell| army.line_at(c);
        let (Some(k), Some(r), Some(kt), Some(rt)) = (at(king), at(rook), at(king_to), at(rook_to))
        else {
            return false;
        };
        let (lo, hi) = (k.min(r).min(kt).min(rt), k.max(r).max(kt).max(rt));
        for &c in &line[lo..=hi] {
            if c != king && c != rook && self.squares[c.index()] != 0 {
                return false;
            }
        }
        if !legal {
            return true;
        }
        // The king may not pass through an attacked square...
        let (from, to) = (k.min(kt), k.max(kt));
        for &c in &line[from..=to] {
            if c != king && c != king_to && self.attacked(&Plain(&self.squares), c, us) {
                return false;
            }
        }
        // ...nor end in check, judged with both pieces moved (in Chess960 the rook may have
        // been shielding the king's destination).
        let patch = Patch {
            squares: &self.squares,
            vacated: [king.0, rook.0],
            filled: [
                (king_to.0, self.squares[king.index()]),
                (rook_to.0, self.squares[rook.index()]),
            ],
        };
        !self.attacked(&patch, king_to, us)
    }

    // ---- playing moves ------------------------------------------------------------------

    /// Plays a move after checking that it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.legal_moves().contains(&m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove { mv: m })
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn as usize;
        let moving = self.squares[m.from.index()];
        let role = role_of(moving);
        let ep_victim = self.en_passant_victim(m, us);
        self.expire_ep(us);
        self.halfmoves += 1;
        if m.kind == MoveKind::Castle {
            let side = if self.castling[us][0] == Some(m.to) {
                CastleSide::High
            } else {
                CastleSide::Low
            };
            let rook = self.squares[m.to.index()];
            let (king_to, rook_to) = self
                .castle_targets(m.from, side)
                .expect("castling rights imply castling squares");
            self.take(m.from);
            self.take(m.to);
            self.put(king_to, moving);
            self.put(rook_to, rook);
            self.kings[us] = king_to.0;
            self.castling[us] = [None, None];
        } else {
            let captured = self.squares[m.to.index()];
            if captured != 0 {
                self.take(m.to);
                self.halfmoves = 0;
                if role_of(captured) == Role::Rook {
                    for right in &mut self.castling[seat_of(captured)] {
                        if *right == Some(m.to) {
                            *right = None;
                        }
                    }
                }
            }
            self.take(m.from);
            let placed = match m.kind {
                MoveKind::Promotion(r) => pack(us as u8, r),
                MoveKind::PromotionFor(r, army) => pack(army.0, r),
                // A pawn yet to choose its course keeps the one its first move took.
                _ if role == Role::Pawn && Course::of(moving) == Course::Either => {
                    let army = &self.rules.armies[us];
                    let forward = self.pawn_moved_forward(army, m);
                    let course = if forward {
                        Course::Forward
                    } else {
                        Course::Side
                    };
                    (moving & PIECE_BITS) | course.bits()
                }
                _ => moving,
            };
            self.put(m.to, placed);
            match role {
                Role::Pawn => {
                    self.halfmoves = 0;
                    if let Some(victim) = ep_victim {
                        self.take(victim);
                    } else if m.kind == MoveKind::DoubleStep {
                        self.record_long_step(m, us);
                    }
                }
                Role::King => {
                    self.kings[us] = m.to.0;
                    self.castling[us] = [None, None];
                }
                Role::Rook => {
                    for right in &mut self.castling[us] {
                        if *right == Some(m.from) {
                            *right = None;
                        }
                    }
                }
                _ => {}
            }
            // A pawn that could have been taken en passant and was taken otherwise (or moved,
            // in a game of several armies) can no longer be.
            if self.ep.len() > usize::from(m.kind == MoveKind::DoubleStep) {
                let squares = &self.squares;
                self.ep
                    .retain(|e| squares[e.pawn.index()] & PIECE_BITS == pack(e.army, Role::Pawn));
            }
        }
        self.turn = (self.turn + 1) % self.rules.seats;
        if self.turn == 0 {
            self.fullmoves += 1;
        }
    }

    /// Whether a pawn's move `m` (by a pawn yet to choose its course) goes on its army's forward
    /// course rather than the side one: a step straight ahead, or a capture toward the front.
    fn pawn_moved_forward(&self, army: &rules::Army, m: Move) -> bool {
        let board = &*army.board;
        let way = &army.pawn;
        let mut straight = board.step(m.from, way.forward);
        for _ in 0..3 {
            match straight {
                Some(c) if c == m.to => return true,
                Some(c) => straight = board.step(c, way.forward),
                None => break,
            }
        }
        way.captures
            .iter()
            .any(|&d| board.step(m.from, d) == Some(m.to))
    }

    /// Notes a pawn's long step, so each enemy may take it en passant on its next turn.
    fn record_long_step(&mut self, m: Move, us: usize) {
        let army = &self.rules.armies[us];
        let forward = match Course::of(self.squares[m.to.index()]) {
            Course::Side => army.side.as_ref().map_or(army.pawn.forward, |s| s.forward),
            _ => army.pawn.forward,
        };
        let first = army.board.step(m.from, forward).unwrap_or(m.to);
        let second = match army.board.step(first, forward) {
            Some(c) if c != m.to => c,
            _ => first,
        };
        if self.ep.is_full() {
            self.ep.remove_first();
        }
        self.ep.push(EnPassant {
            pawn: m.to,
            skipped: [first, second],
            army: us as u8,
            waiting: self.rules.enemy_mask[us],
        });
    }

    #[inline]
    fn take(&mut self, cell: Cell) {
        let v = self.squares[cell.index()];
        if v != 0 {
            self.by_seat[seat_of(v)].remove(cell);
            if role_of(v) == Role::King && self.kings[seat_of(v)] == cell.0 {
                self.kings[seat_of(v)] = NO_CELL;
                self.castling[seat_of(v)] = [None, None];
            }
            self.squares[cell.index()] = 0;
        }
    }

    #[inline]
    fn put(&mut self, cell: Cell, v: u8) {
        self.squares[cell.index()] = v;
        self.by_seat[seat_of(v)].insert(cell);
    }

    // ---- helpers for variants -------------------------------------------------------------

    /// The cells a piece of `role` belonging to `seat` would reach from `from` in this
    /// position: empty cells and enemy pieces along its moves (for a pawn, its two capture
    /// cells). Check is ignored. Variants use it to ask "could this piece capture like a
    /// rook?" (Masquerade) or "what attacks this square?" (Synchronous chess).
    pub fn reach(&self, from: Cell, role: Role, seat: Seat) -> Vec<Cell> {
        let us = seat.index();
        let army = &self.rules.armies[us];
        let board = &*army.board;
        let lines = army.lines_in_use(self.rules.triangles);
        let mut out = Vec::new();
        let take = |to: Cell, out: &mut Vec<Cell>| {
            let v = self.squares[to.index()];
            if v == 0 || self.is_enemy(v, us) {
                out.push(to);
            }
        };
        let slide = |dirs: &[Dir], out: &mut Vec<Cell>| {
            for &d in dirs {
                for to in board.ray(from, d) {
                    let v = self.squares[to.index()];
                    if v == 0 || self.is_enemy(v, us) {
                        out.push(to);
                    }
                    if v != 0 {
                        break;
                    }
                }
            }
        };
        match role {
            Role::Pawn => {
                for &d in &army.pawn.captures {
                    if let Some(to) = board.step(from, d) {
                        take(to, &mut out);
                    }
                }
            }
            Role::Knight => {
                for &to in board.leaps(from, army.knight) {
                    take(to, &mut out);
                }
            }
            Role::King => {
                for &d in lines.king {
                    if let Some(to) = board.step(from, d) {
                        take(to, &mut out);
                    }
                }
            }
            Role::Bishop => slide(lines.bishop, &mut out),
            Role::Rook => slide(lines.rook, &mut out),
            Role::Queen => {
                slide(lines.rook, &mut out);
                slide(lines.bishop, &mut out);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The pieces of `by` that could capture on `cell` (by the moves [`Position::reach`]
    /// gives, check ignored), whatever stands there now: what attacks a square.
    ///
    /// ```
    /// use engine::chess::{Position, Seat};
    /// let pos = Position::startpos();
    /// let f3 = pos.board().cell("f3").unwrap();
    /// let mut who: Vec<&str> = pos
    ///     .attackers(f3, Seat::WHITE)
    ///     .iter()
    ///     .map(|(c, _)| pos.board().label(*c))
    ///     .collect();
    /// who.sort();
    /// assert_eq!(who, ["e2", "g1", "g2"]);
    /// ```
    pub fn attackers(&self, cell: Cell, by: Seat) -> Vec<(Cell, Piece)> {
        let occupant = self.piece_at(cell);
        // Reach lists captures of enemies only: stand one in the square if need be.
        let probe;
        let pos = if occupant.is_some_and(|p| self.is_enemy(p.pack(), by.index())) {
            self
        } else {
            let enemy = (0..self.rules.seats())
                .find(|&s| self.rules.enemy_mask[by.index()] >> s & 1 == 1)
                .unwrap_or((by.index() + 1) % self.rules.seats());
            let mut p = self.clone();
            p.set_piece(
                cell,
                Some(Piece {
                    seat: Seat(enemy as u8),
                    role: Role::Pawn,
                }),
            );
            probe = p;
            &probe
        };
        self.cells_of(by)
            .iter()
            .filter(|&c| c != cell)
            .filter_map(|c| {
                let piece = self.piece_at(c)?;
                pos.reach(c, piece.role, by)
                    .contains(&cell)
                    .then_some((c, piece))
            })
            .collect()
    }

    /// Ends the turn without a move (a refused capture attempt in Masquerade): the en passant
    /// chance lapses and the counters run on.
    pub fn pass(&mut self) {
        self.expire_ep(self.turn as usize);
        self.halfmoves += 1;
        self.turn = (self.turn + 1) % self.rules.seats;
        if self.turn == 0 {
            self.fullmoves += 1;
        }
    }

    /// Where each piece a move carries goes: (from, to, the piece as it lands). Castling moves
    /// two pieces; a promotion lands as its new piece. An en passant capture's victim is not
    /// listed (it does not move).
    pub fn displacements(&self, m: Move) -> Vec<(Cell, Cell, Piece)> {
        let Some(piece) = self.piece_at(m.from) else {
            return Vec::new();
        };
        match m.kind {
            MoveKind::Castle => {
                let side = self.castle_side_of(m);
                let Some((king_to, rook_to)) = self.castle_targets(m.from, side) else {
                    return Vec::new();
                };
                let rook = self.piece_at(m.to).expect("castling needs its rook");
                vec![(m.from, king_to, piece), (m.to, rook_to, rook)]
            }
            MoveKind::Promotion(role) | MoveKind::PromotionFor(role, _) => vec![(
                m.from,
                m.to,
                Piece {
                    seat: m.promoted_army(piece.seat),
                    role,
                },
            )],
            _ => vec![(m.from, m.to, piece)],
        }
    }

    /// Sets the move counters (simultaneous games count a turn of both sides as one move).
    pub fn set_counters(&mut self, halfmoves: u32, fullmoves: u32) {
        self.halfmoves = halfmoves;
        self.fullmoves = fullmoves.max(1);
    }

    /// Opens an en passant chance by hand, for games that keep their own record of long steps
    /// and build positions afresh (Betza's half-boards, joined anew for every move). Ignored
    /// when the position already holds as many chances as it has room for.
    pub(crate) fn open_en_passant(&mut self, chance: EnPassant) {
        if !self.ep.is_full() {
            self.ep.push(chance);
        }
    }

    /// Hands the move to `seat` without changing anything else (simultaneous games let both
    /// sides choose from one position).
    pub fn set_turn(&mut self, seat: Seat) {
        self.turn = seat.0 % self.rules.seats;
    }

    /// Puts a piece on a cell, or empties it, keeping the position's bookkeeping right (a rook
    /// leaving loses its castling right). For variants where pieces appear or vanish outside
    /// moves: zombies rising, a blow in an exchange.
    pub fn set_piece(&mut self, cell: Cell, piece: Option<Piece>) {
        if let Some(old) = self.piece_at(cell) {
            if old.role == Role::Rook {
                for right in &mut self.castling[old.seat.index()] {
                    if *right == Some(cell) {
                        *right = None;
                    }
                }
            }
            self.take(cell);
        }
        if let Some(p) = piece {
            if p.role == Role::King {
                self.kings[p.seat.index()] = cell.0;
            }
            self.put(cell, p.pack());
        }
    }

    // ---- game state ---------------------------------------------------------------------

    /// Whether the seat to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// Whether the seat to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.legal_moves().is_empty()
    }

    /// Whether neither side can possibly checkmate: bare kings, a single minor piece, or only
    /// bishops all on one shade of square.
    pub fn is_insufficient_material(&self) -> bool {
        no_mating_material(
            self.pieces()
                .map(|(cell, piece)| (piece.role, self.board().shade(cell) == Shade::Dark)),
        )
    }

    /// A key equal for positions that count as the same for repetition: same pieces on the
    /// same cells, same seat to move, same castling rights and same legal en passant.
    pub fn repetition_key(&self) -> u64 {
        let mut h: u64 = 0x5175_6565_6e73_2121;
        let mix = |h: &mut u64, v: u64| {
            *h ^= splitmix(v.wrapping_add(*h));
        };
        for (cell, piece) in self.pieces() {
            mix(&mut h, (cell.0 as u64) << 8 | piece.pack() as u64);
        }
        mix(&mut h, 0x1_0000 | self.turn as u64);
        for (seat, rights) in self.castling.iter().enumerate() {
            for rook in rights.iter().flatten() {
                mix(&mut h, 0x2_0000 | (seat as u64) << 12 | rook.0 as u64);
            }
        }
        if let Some(ep) = self.legal_ep() {
            mix(&mut h, 0x3_0000 | ep.0 as u64);
        }
        h
    }
}

/// Whether pieces, given as (role, stands on a dark square), leave nobody able to mate: bare
/// kings, a single minor piece, or only bishops all on one shade.
pub(crate) fn no_mating_material(pieces: impl IntoIterator<Item = (Role, bool)>) -> bool {
    let (mut minors, mut knights) = (0, 0);
    let mut bishop_shades = [false; 2];
    for (role, dark) in pieces {
        match role {
            Role::King => {}
            Role::Pawn | Role::Rook | Role::Queen => return false,
            Role::Knight => {
                minors += 1;
                knights += 1;
            }
            Role::Bishop => {
                minors += 1;
                bishop_shades[dark as usize] = true;
            }
        }
    }
    minors <= 1 || (knights == 0 && !(bishop_shades[0] && bishop_shades[1]))
}

/// Removes repeated moves from `out[start..]`, which is sorted.
fn dedup_range(out: &mut MoveList, start: usize) {
    let mut keep = start;
    for i in start..out.len() {
        if keep == start || out[keep - 1] != out[i] {
            out[keep] = out[i];
            keep += 1;
        }
    }
    out.truncate(keep);
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv:?}")]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
}

#[cfg(test)]
mod tests;

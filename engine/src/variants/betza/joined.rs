//! Two half-boards pushed together: the 8x8 chess position one move of Betza's game is played
//! on, built afresh for each move and read with the chess machinery.
//!
//! The first board of a [`Pair`] lies at the bottom as ranks 1-4, in its owner's own
//! coordinates; the second is turned round opposite it as ranks 5-8, so its own a1 is h8 (a
//! half-turn keeps every square's colour, so bishops stay on their colour). A pawn walks toward
//! the far edge of the board it stands on when that board is its army's own, and toward the
//! near (home) edge of any other board: so it leaves home across the join and promotes on a
//! foreign board's back rank, as it would in chess.
//!
//! The chess position has five seats, each a direction and a relation to the mover: the
//! mover's pieces walking up or down, enemy pieces walking up or down, and friends (other
//! armies of the mover's player, which never check or get captured by him). Seats of one
//! direction share a frame, so pawns step and capture the right way without any new rule.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::board::{BoardSpec, Cell, Wrap};
use crate::chess::{
    EnPassant, KingRule, Move, MoveKind, Piece, Position, Role, Rules, RulesSpec, Seat, Setup,
};

use super::BetzaGame;

/// Squares on a half-board: eight files of four ranks.
pub const HALF: usize = 32;

/// A piece of some army, as it stands on a half-board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Man {
    pub army: u8,
    pub role: Role,
}

/// A square of the game: a half-board and a square on it, in the board owner's coordinates
/// (`index` = rank * 8 + file, ranks 0-3 from the owner's edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Spot {
    pub board: u8,
    pub index: u8,
}

impl Spot {
    pub fn new(board: u8, file: u8, rank: u8) -> Spot {
        Spot {
            board,
            index: rank * 8 + file,
        }
    }
    pub fn file(self) -> u8 {
        self.index % 8
    }
    pub fn rank(self) -> u8 {
        self.index / 8
    }
    /// The square in its owner's coordinates with the board's letter: `C:e2`.
    pub fn label(self) -> String {
        format!(
            "{}:{}{}",
            letter(self.board),
            (b'a' + self.file()) as char,
            self.rank() + 1
        )
    }
}

/// The letter of a half-board (`A` is the first army's).
pub fn letter(board: u8) -> char {
    (b'A' + board) as char
}

/// Two half-boards pushed together, `bottom` first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    pub bottom: u8,
    pub top: u8,
}

impl Pair {
    /// The spot a cell of the joined board is on.
    pub fn spot(self, cell: Cell) -> Spot {
        let i = cell.0 as u8;
        if i < HALF as u8 {
            Spot {
                board: self.bottom,
                index: i,
            }
        } else {
            Spot {
                board: self.top,
                index: 63 - i,
            }
        }
    }
    /// The cell of the joined board a spot is on, if it is on one of the two boards.
    pub fn cell(self, spot: Spot) -> Option<Cell> {
        if spot.board == self.bottom {
            Some(Cell(spot.index as u16))
        } else if spot.board == self.top {
            Some(Cell(63 - spot.index as u16))
        } else {
            None
        }
    }
    /// The same two boards the other way up.
    pub fn turned(self) -> Pair {
        Pair {
            bottom: self.top,
            top: self.bottom,
        }
    }
    pub fn holds(self, board: u8) -> bool {
        self.bottom == board || self.top == board
    }
    /// Whether two pairs push the same boards together, whichever way up.
    pub fn same_boards(self, other: Pair) -> bool {
        self == other || self == other.turned()
    }
    /// `A+C`.
    pub fn name(self) -> String {
        format!("{}+{}", letter(self.bottom), letter(self.top))
    }
}

/// A move read on the joined board the other way up.
pub fn turned_move(m: Move) -> Move {
    Move {
        from: Cell(63 - m.from.0),
        to: Cell(63 - m.to.0),
        kind: m.kind,
    }
}

/// The mover's pieces walking up the joined board (its king here when its own board is at the
/// bottom or not joined).
pub(crate) const UP: u8 = 0;
/// The mover's pieces walking down (its king here when its own board is on top).
pub(crate) const DOWN: u8 = 1;
const ENEMY_UP: u8 = 2;
const ENEMY_DOWN: u8 = 3;
const FRIEND: u8 = 4;

/// The rules every joined board is played under: see the module header.
fn joined_rules() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            let board = BoardSpec::Square {
                files: 8,
                ranks: 8,
                wrap: Wrap::None,
                holes: Vec::new(),
                facing: vec![0, 2, 0, 2, 0],
            };
            RulesSpec::new(board, vec![0, 0, 1, 1, 0]).build()
        })
        .clone()
}

/// Whether an army is a light one (A, C, E, G), standing as White does; the others stand as
/// Black does, seen from their own side.
pub fn is_light(army: u8) -> bool {
    army.is_multiple_of(2)
}

/// The castling rook of a side: 0 is the king's side (the rook three files from the king), 1
/// the queen's.
pub fn rook_home(army: u8, side: usize) -> u8 {
    let kings_side_rook = if is_light(army) { 7 } else { 0 };
    if side == 0 {
        kings_side_rook
    } else {
        7 - kings_side_rook
    }
}

/// Where king and rook land castling to `side`, in their own coordinates.
pub fn castle_landing(army: u8, side: usize) -> (u8, u8) {
    let (king, rook) = if side == 0 { (6, 5) } else { (2, 3) };
    if is_light(army) {
        (king, rook)
    } else {
        (7 - king, 7 - rook)
    }
}

/// One joined board as one army sees it.
#[derive(Clone)]
pub(crate) struct Joined {
    pub pos: Position,
    pub king_seat: u8,
}

impl Joined {
    /// The mover's legal moves here: any chess move that leaves its king, if it is on these
    /// boards, out of check. No move takes a king: kings fall by mate.
    pub fn moves(&self) -> Vec<Move> {
        let king = Seat(self.king_seat);
        let other = Seat(UP + DOWN - self.king_seat);
        let mut pos = self.pos.clone();
        pos.set_turn(king);
        let mut out: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| !self.takes_king(m))
            .collect();
        if !pos.cells_of(other).is_empty() {
            pos.set_turn(other);
            for m in pos.pseudo_legal_moves() {
                if self.takes_king(m) {
                    continue;
                }
                let mut after = pos.clone();
                after.play_unchecked(m);
                if !after.seat_in_check(king) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The moves the mover's pieces could make here onto a king, which no move may take: to
    /// say so when one is tried.
    pub fn king_captures(&self) -> Vec<Move> {
        let mut pos = self.pos.clone();
        let mut out = Vec::new();
        for seat in [UP, DOWN] {
            pos.set_turn(Seat(seat));
            out.extend(
                pos.pseudo_legal_moves()
                    .into_iter()
                    .filter(|&m| self.takes_king(m)),
            );
        }
        out
    }

    fn takes_king(&self, m: Move) -> bool {
        m.kind != MoveKind::Castle
            && self
                .pos
                .piece_at(m.to)
                .is_some_and(|p| p.role == Role::King)
    }

    /// Whether the mover's king is on these boards and attacked on them.
    pub fn in_check(&self) -> bool {
        self.pos.seat_in_check(Seat(self.king_seat))
    }

    /// The mover's king's cell, if it is on these boards.
    pub fn king(&self) -> Option<Cell> {
        self.pos.king(Seat(self.king_seat))
    }

    /// The enemy pieces giving check to the mover's king here.
    pub fn checkers(&self) -> Vec<Cell> {
        let Some(king) = self.king() else {
            return Vec::new();
        };
        [ENEMY_UP, ENEMY_DOWN]
            .into_iter()
            .flat_map(|s| self.pos.attackers(king, Seat(s)))
            .map(|(c, _)| c)
            .collect()
    }
}

impl BetzaGame {
    /// How `army` sees two boards pushed together: its own board at the bottom if it is a light
    /// army, on top if dark (as White and Black see a chessboard), else the earlier letter at the
    /// bottom.
    pub fn natural_pair(&self, army: u8, a: u8, b: u8) -> Pair {
        let own = if a == army {
            Some(b)
        } else if b == army {
            Some(a)
        } else {
            None
        };
        match own {
            Some(other) if is_light(army) => Pair {
                bottom: army,
                top: other,
            },
            Some(other) => Pair {
                bottom: other,
                top: army,
            },
            None => Pair {
                bottom: a.min(b),
                top: a.max(b),
            },
        }
    }

    /// The two boards of `pair` pushed together for `mover`, which way up the pair says.
    /// Castling is offered only when the mover's own board lies its natural way.
    pub(crate) fn join(&self, mover: u8, pair: Pair) -> Joined {
        let controller = self.table.controller(mover);
        let king_seat = if pair.top == mover { DOWN } else { UP };
        let mut cells = vec![None; 64];
        for i in 0..64u16 {
            let cell = Cell(i);
            let spot = pair.spot(cell);
            let Some(man) = self.man(spot) else { continue };
            // Own board: toward the join; any other: toward that board's own edge.
            let walks_up = (spot.board == pair.bottom) == (spot.board == man.army);
            let seat = if man.army == mover {
                match (man.role, walks_up) {
                    (Role::Pawn, true) => UP,
                    (Role::Pawn, false) => DOWN,
                    _ => king_seat,
                }
            } else if self.table.controller(man.army) == controller {
                FRIEND
            } else if walks_up {
                ENEMY_UP
            } else {
                ENEMY_DOWN
            };
            cells[i as usize] = Some(Piece {
                seat: Seat(seat),
                role: man.role,
            });
        }
        let natural = self.natural_pair(mover, pair.bottom, pair.top) == pair;
        let mut castling_rooks = Vec::new();
        if natural && pair.holds(mover) {
            for side in 0..2 {
                if self.castling[mover as usize][side] {
                    let rook = pair.cell(Spot {
                        board: mover,
                        index: rook_home(mover, side),
                    });
                    castling_rooks.extend(rook);
                }
            }
        }
        let setup = |castling_rooks: Vec<Cell>| Setup {
            cells: cells.clone(),
            turn: Seat(king_seat),
            castling_rooks,
            ep_target: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        let rules = joined_rules();
        let mut pos =
            Position::from_setup_with(setup(castling_rooks), rules.clone(), KingRule::Several)
                .or_else(|_| Position::from_setup_with(setup(Vec::new()), rules, KingRule::Several))
                .expect("a joined board with no castling is always a position");
        for p in &self.passages {
            if p.waiting & (1 << mover) == 0 {
                continue;
            }
            let (Some(pawn), Some(skipped)) = (pair.cell(p.pawn), pair.cell(p.skipped)) else {
                continue;
            };
            let Some(victim) = pos.piece_at(pawn) else {
                continue;
            };
            if victim.role == Role::Pawn && matches!(victim.seat.0, ENEMY_UP | ENEMY_DOWN) {
                pos.open_en_passant(EnPassant {
                    pawn,
                    skipped: [skipped, skipped],
                    army: victim.seat.0,
                    waiting: 1 << UP | 1 << DOWN,
                });
            }
        }
        Joined { pos, king_seat }
    }
}

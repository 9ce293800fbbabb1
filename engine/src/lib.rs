//! Rookery's rules engine: pure rules, no I/O.
//!
//! - [`board`]: geometry for any board (cells, steps, leaps, per-seat frames).
//! - [`chess`]: chess machinery over any board.

pub mod board;
pub mod chess;

pub use board::{Board, BoardSpec, Cell, CellSet, Dir, Heading, SquareBoard, Wrap};
pub use chess::{Move, MoveKind, Piece, Position, Role, Rules, Seat};

//! Rookery's rules engine: pure rules, no I/O, no async.
//!
//! - [`board`]: geometry for any board: cells, steps, leaps, per-seat frames.
//! - [`chess`]: chess machinery over any board.
//! - [`game`]: the [`Game`] trait every variant implements, and its dyn form [`AnyGame`].
//! - [`view`]: what one viewer may see, the only input of the renderer.
//! - [`variants`]: one module per game.
//! - [`registry`]: every variant by id.
//! - [`table`]: players, armies, teams, the order of turns and each army's standing.
//! - [`playout`]: random games to their end through the registry, for testing.
//! - [`record`]: a game's record as PGN, PDN or JSON, read back and replayed.
//! - [`ai`]: the computer player, for every seat of every variant.

pub mod ai;
pub mod board;
pub mod cards;
pub mod checkers;
pub mod chess;
pub mod game;
pub mod playout;
pub mod record;
pub mod registry;
pub mod table;
pub mod variants;
pub mod view;

pub use ai::{Choice, Level};
pub use board::{Board, BoardSpec, Cell, CellSet, Dir, Heading, SquareBoard, Wrap};
pub use chess::{Move, MoveKind, Piece, Position, Role, Rules, Seat};
pub use game::{
    AnyGame, AnyState, Event, Game, GameError, Options, Outcome, Prompt, Standing, VariantInfo,
};
pub use view::{View, Viewer};

//! What one viewer may see of a game: the only thing the renderer and the bot draw from.
//!
//! A spectator's view holds no secret; a seat's view holds only that seat's own.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::{Board, Cell};
use crate::chess::{Role, Seat};

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// A player, seeing their own secrets and the board from their side.
    Seat(Seat),
    /// Anyone else: public information only.
    Spectator,
}

/// What stands on a cell, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Figure {
    /// A chess piece.
    Chess(Role),
}

/// One figure on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub cell: Cell,
    /// The army (seat) it belongs to, which picks its colour.
    pub army: Seat,
    pub figure: Figure,
}

/// A board as one viewer sees it.
#[derive(Clone, Debug)]
pub struct View {
    /// The variant's id.
    pub variant: &'static str,
    /// The geometry to draw.
    pub board: Arc<Board>,
    /// Who this view is for.
    pub viewer: Viewer,
    /// The seat whose side is drawn at the bottom.
    pub bottom: Seat,
    /// Everything visible on the board.
    pub figures: Vec<Placed>,
    /// Cells of the last move, to highlight.
    pub last_move: Vec<Cell>,
    /// Kings in check, to highlight.
    pub checks: Vec<Cell>,
    /// The seats that must act now.
    pub to_act: Vec<Seat>,
    /// The move number.
    pub move_number: u32,
    /// One line on the state of play ("Black to move", "White wins by checkmate").
    pub status: String,
}

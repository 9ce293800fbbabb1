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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Figure {
    /// A chess piece.
    Chess(Role),
    /// A checkers man.
    Man,
    /// A crowned checkers king.
    CheckersKing,
    /// A stack of checkers, bottom first; the top one owns and moves the stack.
    Stack(Vec<Layer>),
}

/// One checker inside a stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layer {
    pub army: Seat,
    pub king: bool,
}

/// A small sign drawn on a cell beside its figure (Chess Kit games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Marker {
    /// A coin under a risen zombie (Zombie Chess).
    ZombieCoin,
    /// A checker under a piece, in its owner's colour (Tar Pit: on its owner's piece it
    /// carries tar, on the opponent's it tars it).
    Checker(Seat),
    /// Checkers carried by a piece, as a count (Adrenaline).
    Adrenaline(u8),
    /// A checker showing the piece stands on the other side of the mirror (Half Alice).
    MirrorSide,
    /// A piece that plays no more and stays as part of the board: drawn greyed (Trimens' dead
    /// pieces).
    Dead,
}

/// One figure on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub cell: Cell,
    /// The army (seat) it belongs to, which picks its colour.
    pub army: Seat,
    pub figure: Figure,
    /// A number printed on the figure (numbered checkers).
    pub number: Option<u8>,
    /// Signs drawn beside the figure.
    pub markers: Vec<Marker>,
}

impl Placed {
    /// A plain figure with no number or markers.
    pub fn new(cell: Cell, army: Seat, figure: Figure) -> Placed {
        Placed {
            cell,
            army,
            figure,
            number: None,
            markers: Vec::new(),
        }
    }
}

/// A private table shown to one seat under its board: what it alone knows (Masquerade's
/// capture table, Zombie Chess's burial grid).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Panel {
    pub title: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows: a heading and one short text per column.
    pub rows: Vec<(String, Vec<String>)>,
    /// Lines of text under the table.
    pub notes: Vec<String>,
}

impl Panel {
    /// The panel as plain text, for direct messages and the console.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.title);
        if !self.columns.is_empty() {
            out.push_str(&format!("    {}\n", self.columns.join("  ")));
        }
        for (label, cells) in &self.rows {
            let cells: Vec<String> = cells
                .iter()
                .map(|c| if c.is_empty() { ".".into() } else { c.clone() })
                .collect();
            out.push_str(&format!("{label:>3} {}\n", cells.join("  ")));
        }
        for note in &self.notes {
            out.push_str(note);
            out.push('\n');
        }
        out.trim_end().to_string()
    }
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
    /// The name shown for each seat ("White", or the player's name, filled in by the bot).
    pub players: Vec<String>,
    /// The move number.
    pub move_number: u32,
    /// One line on the state of play ("Black to move", "White wins by checkmate").
    pub status: String,
    /// The viewer's private table, if the game keeps one for them.
    pub panel: Option<Panel>,
    /// Names to print small in a corner of cells, for games whose notation names squares
    /// otherwise than by the board's labels (checkers' numbers 1-32); empty for most games.
    pub square_names: Vec<(Cell, String)>,
    /// Who sits where, for games of more than two plain sides (one line per player and army,
    /// with the army's standing); empty where player `n` simply plays army `n`.
    pub table: Vec<SeatLine>,
    /// The colour each army is drawn in, as a slot of the renderer's palette (Superchess's Tan
    /// and Brown); empty where army `n` takes slot `n`.
    pub colours: Vec<u8>,
    /// Words drawn on the picture in place of the file letters and rank numbers along its edges,
    /// for a board drawn as several boards (Betza's half-boards, each with its own coordinates
    /// and letter); empty: the edges are lettered and numbered as usual.
    pub labels: Vec<BoardLabel>,
    /// Cells shaded in an army's colour, asked for with `/board show:` (Shadow Chess's
    /// shadows); empty unless asked.
    pub tinted: Vec<(Cell, Seat)>,
    /// Rows of cards drawn beside the board (the Chess Kit's card games), each card as this
    /// viewer may see it; empty for games without cards.
    pub cards: Vec<CardRow>,
}

/// A row of cards drawn with the board: a title and each card's face, or `None` for a card
/// whose face this viewer may not see (its back is drawn).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardRow {
    pub title: String,
    pub cards: Vec<Option<crate::cards::Card>>,
}

impl CardRow {
    /// The row as text, for direct messages and the console: `White face up: N R`, backs as
    /// `#`.
    pub fn to_text(&self) -> String {
        let cards: Vec<String> = self
            .cards
            .iter()
            .map(|c| c.map_or("#".to_string(), |c| c.to_string()))
            .collect();
        if cards.is_empty() {
            format!("{}: none", self.title)
        } else {
            format!("{}: {}", self.title, cards.join(" "))
        }
    }
}

/// A word drawn centred on one square of the board's grid, usually a hole between boards.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardLabel {
    /// The grid square (file, rank), counted from 0 at the bottom left.
    pub at: (i16, i16),
    pub text: String,
    /// Drawn large and bright (a board's name) rather than as a coordinate.
    pub strong: bool,
}

impl View {
    /// The palette slot army `army` is drawn in.
    pub fn colour_of(&self, army: Seat) -> usize {
        self.colours
            .get(army.index())
            .map_or(army.index(), |&slot| slot as usize)
    }
}

/// One player at the table with the army they move, for captions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLine {
    /// The player (an index into [`View::players`]).
    pub player: Seat,
    /// The army they move, which picks the colour.
    pub army: Seat,
    /// The army's or the side's name ("White 2", "queen-side Black").
    pub side: String,
    /// How the army stands, when not simply playing ("checkmated: frozen").
    pub status: Option<String>,
}

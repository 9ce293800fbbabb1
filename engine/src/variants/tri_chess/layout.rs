//! Tri-Chess's starting positions, read from `engine/data/tri-chess.txt` (the book's figures
//! are lost; the file says how each was reconstructed).

use std::sync::LazyLock;

use crate::board::{Board, BoardSpec, Cell};
use crate::chess::{Piece, Role, Seat};

/// The layouts file.
const LAYOUTS: &str = include_str!("../../../data/tri-chess.txt");

/// One army's array in its own frame: its edge, and its first two rows from the files given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmyLayout {
    /// The board edge it sits at, counted clockwise from the bottom.
    pub edge: u8,
    /// For rank 0 and rank 1: the first file, and a letter per triangle ('.' empty).
    pub rows: [(i16, String); 2],
}

/// A starting position for a number of players, a team pattern and a choice of edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub players: usize,
    /// `cutthroat`, or a partner pattern like `ab-cd`.
    pub pattern: String,
    /// `nine-pawns` or `cut`.
    pub edges: String,
    pub side: u8,
    /// Corners cut out, each named by the edge whose outer row it ends on the left.
    pub cut_corners: Vec<u8>,
    /// Edges whose outer row is out of play, less every army's edge row and the part of its
    /// second row before it.
    pub cut_edges: Vec<u8>,
    pub armies: Vec<ArmyLayout>,
    /// The sequence of moves, as army indices.
    pub order: Vec<u8>,
}

/// Every layout in the file.
pub static ALL: LazyLock<Vec<Layout>> =
    LazyLock::new(|| parse(LAYOUTS).expect("the Tri-Chess layouts file reads"));

/// The layout for a game, if there is one.
pub fn find(players: usize, pattern: &str, edges: &str) -> Option<&'static Layout> {
    ALL.iter()
        .find(|l| l.players == players && l.pattern == pattern && l.edges == edges)
}

/// Reads the layouts file; an error names the line.
fn parse(text: &str) -> Result<Vec<Layout>, String> {
    let mut out: Vec<Layout> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("tri-chess.txt line {}: {raw}", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let numbers = |from: usize| -> Result<Vec<u8>, String> {
            words[from..]
                .iter()
                .map(|w| w.parse().map_err(|_| bad()))
                .collect()
        };
        if words[0] == "layout" {
            let [_, players, pattern, edges] = words[..] else {
                return Err(bad());
            };
            out.push(Layout {
                players: players.parse().map_err(|_| bad())?,
                pattern: pattern.to_string(),
                edges: edges.to_string(),
                side: 0,
                cut_corners: Vec::new(),
                cut_edges: Vec::new(),
                armies: Vec::new(),
                order: Vec::new(),
            });
            continue;
        }
        let layout = out.last_mut().ok_or_else(bad)?;
        let shared = shared_line(
            &words,
            &mut layout.side,
            &mut layout.cut_corners,
            &mut layout.order,
        );
        if let Some(read) = shared {
            read.map_err(|_| bad())?;
            continue;
        }
        match words[..] {
            ["cut", "edges", ..] => layout.cut_edges = numbers(2)?,
            ["army", edge, first, row0, "|", second, row1] => {
                let file = |w: &str| w.parse::<i16>().map_err(|_| bad());
                layout.armies.push(ArmyLayout {
                    edge: edge.trim_end_matches(':').parse().map_err(|_| bad())?,
                    rows: [
                        (file(first)?, row0.to_string()),
                        (file(second)?, row1.to_string()),
                    ],
                });
            }
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

/// Reads a line the tri-board layout files share (`side N`, `cut corners K ...`, `order A B
/// ...`) into a layout's fields: `None` when the line is none of them, `Some(Err(()))` when it
/// is one but does not read.
pub(crate) fn shared_line(
    words: &[&str],
    side: &mut u8,
    cut_corners: &mut Vec<u8>,
    order: &mut Vec<u8>,
) -> Option<Result<(), ()>> {
    let read = match words {
        ["side", n] => n.parse().map(|n| *side = n).map_err(|_| ()),
        ["cut", "corners", corners @ ..] => corners
            .iter()
            .map(|w| w.parse().map_err(|_| ()))
            .collect::<Result<_, _>>()
            .map(|corners| *cut_corners = corners),
        ["order", letters @ ..] => letters
            .iter()
            .map(|w| army_letter(w).ok_or(()))
            .collect::<Result<_, _>>()
            .map(|letters| *order = letters),
        _ => return None,
    };
    Some(read)
}

/// The army index of a letter A-F.
pub fn army_letter(word: &str) -> Option<u8> {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ 'A'..='F'), None) | (Some(c @ 'a'..='f'), None) => {
            Some(c.to_ascii_uppercase() as u8 - b'A')
        }
        _ => None,
    }
}

impl Layout {
    /// The triangles cut out, by number on the whole hexagon.
    pub fn cut(&self) -> Vec<u16> {
        let whole = BoardSpec::TriHex {
            side: self.side,
            facing: (0..6).collect(),
            cut: Vec::new(),
            extra: Vec::new(),
        }
        .build();
        let number = |c: Cell| -> u16 { whole.label(c).parse().expect("numbered triangles") };
        let mut cut = Vec::new();
        for &k in &self.cut_corners {
            cut.extend(crate::board::corner_numbers(self.side, k));
        }
        for &k in &self.cut_edges {
            for c in whole.cells() {
                let outer = whole.frame_rank(k as usize, c) == Some(0);
                // An army's edge row stays, and its second row where it lies before the first
                // (not the two triangles it reaches out beyond it).
                let kept =
                    self.armies
                        .iter()
                        .any(|a| match whole.frame_coord(a.edge as usize, c) {
                            Some((0, _)) => true,
                            Some((1, file)) => (0..=2 * self.side as i16).contains(&file),
                            _ => false,
                        });
                if outer && !kept {
                    cut.push(number(c));
                }
            }
        }
        cut.sort_unstable();
        cut.dedup();
        cut
    }

    /// The board this layout is played on, one frame per army.
    pub fn board(&self) -> BoardSpec {
        BoardSpec::TriHex {
            side: self.side,
            facing: self.armies.iter().map(|a| a.edge).collect(),
            cut: self.cut(),
            extra: Vec::new(),
        }
    }

    /// Every piece on `board` (built from [`Layout::board`]), by cell.
    pub fn pieces(&self, board: &Board) -> Vec<(Cell, Piece)> {
        let mut out = Vec::new();
        for (seat, army) in self.armies.iter().enumerate() {
            for (rank, (first, row)) in army.rows.iter().enumerate() {
                for (i, letter) in row.chars().enumerate() {
                    let Some(role) = Role::from_char(letter) else {
                        continue;
                    };
                    let cell = board
                        .frame_cell(seat, rank as i16, first + i as i16)
                        .expect("a layout's pieces stand on its board");
                    out.push((
                        cell,
                        Piece {
                            seat: Seat(seat as u8),
                            role,
                        },
                    ));
                }
            }
        }
        out
    }
}

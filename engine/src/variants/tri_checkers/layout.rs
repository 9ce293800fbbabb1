//! The starting positions of Tri-Chek, Tri-Stax and Tri-Queens, read from
//! `engine/data/tri-checkers.txt` (the book's figures are lost; the file says how each was
//! rebuilt).

use std::sync::LazyLock;

use crate::board::{corner_numbers, frame_to_board, hexagon_number, Board, BoardSpec, Cell, Shade};
use crate::variants::tri_chess::layout::shared_line;

/// The layouts file.
const LAYOUTS: &str = include_str!("../../../data/tri-checkers.txt");

/// Which games a layout serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Games {
    /// Tri-Chek and Tri-Stax: everyone on the dark triangles.
    Checkers,
    /// Tri-Queens: players on either colour.
    Queens,
}

/// One player's men: the edge he sits at, his colour of triangles, and the files of his men in
/// each row of his own frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLayout {
    pub edge: u8,
    pub shade: Shade,
    pub rows: Vec<Vec<i16>>,
}

/// A starting position for a game, a number of players and a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub games: Games,
    pub players: usize,
    /// `cutthroat`, or a partner pattern like `ab-cd`, lower case.
    pub pattern: String,
    /// The value of the `layout` option that picks it.
    pub name: String,
    pub side: u8,
    /// Corners cut out, each named by the edge whose outer row it ends on the left.
    pub cut_corners: Vec<u8>,
    /// The players in letter order.
    pub armies: Vec<PlayerLayout>,
    /// The sequence of moves, as letter indices.
    pub order: Vec<u8>,
}

/// Every layout in the file.
pub static ALL: LazyLock<Vec<Layout>> =
    LazyLock::new(|| parse(LAYOUTS).expect("the Tri-Chek layouts file reads"));

/// The layouts of a game for a number of players and a pattern, the default first.
pub fn choices(games: Games, players: usize, pattern: &str) -> Vec<&'static Layout> {
    ALL.iter()
        .filter(|l| l.games == games && l.players == players && l.pattern == pattern)
        .collect()
}

/// Reads the layouts file; an error names the line.
fn parse(text: &str) -> Result<Vec<Layout>, String> {
    let mut out: Vec<Layout> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("tri-checkers.txt line {}: {raw}", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "layout" {
            let [_, games, players, pattern, name] = words[..] else {
                return Err(bad());
            };
            out.push(Layout {
                games: match games {
                    "checkers" => Games::Checkers,
                    "queens" => Games::Queens,
                    _ => return Err(bad()),
                },
                players: players.parse().map_err(|_| bad())?,
                pattern: pattern.to_string(),
                name: name.to_string(),
                side: 0,
                cut_corners: Vec::new(),
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
            ["army", edge, shade, ..] => {
                let shade = match shade {
                    "dark:" => Shade::Dark,
                    "light:" => Shade::Light,
                    _ => return Err(bad()),
                };
                let rows = line
                    .split_once(':')
                    .ok_or_else(bad)?
                    .1
                    .split('|')
                    .map(|row| {
                        row.split_whitespace()
                            .map(|f| f.parse::<i16>().map_err(|_| bad()))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                layout.armies.push(PlayerLayout {
                    edge: edge.parse().map_err(|_| bad())?,
                    shade,
                    rows,
                });
            }
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

impl Layout {
    /// Every man's (edge, rank, file), player by player.
    fn men(&self) -> impl Iterator<Item = (usize, u8, i16, i16)> + '_ {
        self.armies.iter().enumerate().flat_map(|(seat, army)| {
            army.rows.iter().enumerate().flat_map(move |(rank, files)| {
                files
                    .iter()
                    .map(move |&file| (seat, army.edge, rank as i16, file))
            })
        })
    }

    /// The board this layout is played on, one frame per player: the hexagon less its cut-out
    /// corners, except those a man stands on, plus any triangle beyond it a man stands on.
    pub fn board(&self) -> BoardSpec {
        let mut cut: Vec<u16> = self
            .cut_corners
            .iter()
            .flat_map(|&k| corner_numbers(self.side, k))
            .collect();
        let mut extra = Vec::new();
        for (_, edge, rank, file) in self.men() {
            let at = frame_to_board(self.side, edge, rank, file);
            match hexagon_number(self.side, at) {
                Some(number) => cut.retain(|&c| c != number),
                None => extra.push(at),
            }
        }
        cut.sort_unstable();
        extra.sort_unstable();
        extra.dedup();
        BoardSpec::TriHex {
            side: self.side,
            facing: self.armies.iter().map(|a| a.edge).collect(),
            cut,
            extra,
        }
    }

    /// Each player's starting cells on `board` (built from [`Layout::board`]).
    pub fn cells(&self, board: &Board) -> Vec<Vec<Cell>> {
        let mut out = vec![Vec::new(); self.armies.len()];
        for (seat, _, rank, file) in self.men() {
            out[seat].push(
                board
                    .frame_cell(seat, rank, file)
                    .expect("a layout's men stand on its board"),
            );
        }
        out
    }
}

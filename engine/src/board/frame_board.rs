//! Boards given cell by cell, each seat reading them in its own coordinates.
//!
//! On Caverly's Trimens board (258 triangles, three players) every player sees an ordinary
//! chessboard in his own frame: rows from his own edge, positions along them. A rook moves
//! along a row or up a column of his frame, a bishop along its diagonals, a knight two and one;
//! another player's frame is the same board turned by 120 degrees, so the same triangle has
//! other coordinates for him and the lines through it differ. So each seat has its own eight
//! step directions and its own knight leaps, and a piece always moves by its owner's.
//!
//! The board's data (`engine/data/trimens-board.csv`, from `shared/testdata`) gives every
//! triangle's number, its (row, position) in each player's frame and its colour; the outline of
//! a triangle follows from its place in player 1's frame (triangles alternate pointing up and
//! down along a row).

use std::collections::HashMap;

use super::{
    Board, BoardSpec, Cell, CellInfo, Dir, Frame, HopTable, Leap, LeapTable, Shade, Wrap, COMPASS,
    KNIGHT, NO_CELL,
};

/// The Trimens board's data: number, row and position in player 1's frame, colour, then the
/// same triangle's row and position in player 2's and player 3's frames.
const TRIMENS_CSV: &str = include_str!("../../data/trimens-board.csv");

/// A board given cell by cell with every seat's own coordinates.
#[derive(Clone, Debug)]
pub struct FrameBoard {
    labels: Vec<String>,
    shades: Vec<Shade>,
    polygons: Vec<Vec<[f32; 2]>>,
    /// Per seat, per cell: (rank from the seat's own edge from 0, file along the rank).
    frames: Vec<Vec<(i16, i16)>>,
}

/// The outline of the triangle at (row, position) of a frame in which rows run left to right
/// and triangles alternate: one pointing up where row + position is even, else down. Sides are
/// one unit long.
pub(super) fn triangle(row: i16, position: i16) -> Vec<[f32; 2]> {
    let h = 3f32.sqrt() / 2.0;
    let x = position as f32 / 2.0;
    let (bottom, top) = ((row - 1) as f32 * h, row as f32 * h);
    if (row + position) % 2 == 0 {
        vec![[x - 0.5, bottom], [x + 0.5, bottom], [x, top]]
    } else {
        vec![[x + 0.5, top], [x - 0.5, top], [x, bottom]]
    }
}

impl FrameBoard {
    /// Caverly's Trimens board, for `seats` players (3, or 2 using players 1's and 2's sides).
    /// Triangles are named by their numbers, 1-258.
    pub fn trimens(seats: u8) -> FrameBoard {
        let mut board = FrameBoard {
            labels: Vec::new(),
            shades: Vec::new(),
            polygons: Vec::new(),
            frames: vec![Vec::new(); seats as usize],
        };
        for line in TRIMENS_CSV.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let number =
                |i: usize| -> i16 { fields[i].parse().expect("the board data is numeric") };
            board.labels.push(fields[0].to_string());
            board.shades.push(if fields[3] == "W" {
                Shade::Light
            } else {
                Shade::Dark
            });
            board.polygons.push(triangle(number(1), number(2)));
            for (seat, frame) in board.frames.iter_mut().enumerate() {
                let (r, p) = match seat {
                    0 => (number(1), number(2)),
                    1 => (number(4), number(5)),
                    _ => (number(6), number(7)),
                };
                frame.push((r - 1, p));
            }
        }
        board
    }

    /// Builds the board: for each seat the eight compass steps and the knight's leaps of its own
    /// frame.
    pub fn build(self, spec: BoardSpec) -> Board {
        let seats = self.frames.len();
        let n = self.labels.len();
        let index: Vec<HashMap<(i16, i16), u16>> = self
            .frames
            .iter()
            .map(|frame| {
                frame
                    .iter()
                    .enumerate()
                    .map(|(i, &rc)| (rc, i as u16))
                    .collect()
            })
            .collect();
        let at = |seat: usize, (r, f): (i16, i16), (df, dr): (i32, i32)| -> Option<u16> {
            index[seat].get(&(r + dr as i16, f + df as i16)).copied()
        };
        let dir_count = 8 * seats;
        let mut steps = vec![NO_CELL; n * dir_count];
        for cell in 0..n {
            for seat in 0..seats {
                let here = self.frames[seat][cell];
                for (h, &d) in COMPASS.iter().enumerate() {
                    if let Some(to) = at(seat, here, d) {
                        steps[cell * dir_count + 8 * seat + h] = to;
                    }
                }
            }
        }
        let leaps = (0..seats)
            .map(|seat| {
                let mut table = LeapTable {
                    starts: vec![0],
                    targets: Vec::new(),
                };
                for cell in 0..n {
                    let here = self.frames[seat][cell];
                    let mut targets: Vec<Cell> = KNIGHT
                        .iter()
                        .filter_map(|&d| at(seat, here, d).map(Cell))
                        .collect();
                    targets.sort_unstable();
                    table.targets.extend(targets);
                    table.starts.push(table.targets.len() as u32);
                }
                table
            })
            .collect();
        let cells = (0..n)
            .map(|i| CellInfo {
                label: self.labels[i].clone(),
                shade: self.shades[i],
                polygon: self.polygons[i].clone(),
                coord: (self.frames[0][i].1, self.frames[0][i].0),
            })
            .collect();
        let frames = (0..seats)
            .map(|seat| {
                let mut dirs = [Dir(0); 8];
                for (h, d) in dirs.iter_mut().enumerate() {
                    *d = Dir((8 * seat + h) as u8);
                }
                Frame::of_headings(dirs, Leap(seat as u8), 0)
            })
            .collect();
        Board {
            spec,
            cells,
            dir_count,
            steps,
            opposite: (0..dir_count)
                .map(|d| Dir((d - d % 8 + (d % 8 + 4) % 8) as u8))
                .collect(),
            leaps,
            // Adams' extended knight belongs to his square boards; none here.
            knight_hops: HopTable {
                starts: vec![0; n + 1],
                pairs: Vec::new(),
            },
            frames,
            grid: None,
            wrap: Wrap::None,
            frame_coords: self.frames,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Heading;

    fn shared_corners(a: &[[f32; 2]], b: &[[f32; 2]]) -> usize {
        a.iter()
            .filter(|p| {
                b.iter()
                    .any(|q| (p[0] - q[0]).abs() < 1e-4 && (p[1] - q[1]).abs() < 1e-4)
            })
            .count()
    }

    #[test]
    fn the_trimens_board_has_its_258_numbered_triangles() {
        let board = BoardSpec::Trimens { seats: 3 }.build();
        assert_eq!(board.len(), 258);
        assert_eq!(board.label(board.cell("1").unwrap()), "1");
        assert!(board.cell("259").is_none() && board.cell("0").is_none());
        // White triangles point up in player 1's frame, black ones down.
        for c in board.cells() {
            let poly = &board.info(c).polygon;
            let apex_up = poly[2][1] > poly[0][1];
            assert_eq!(
                apex_up,
                board.shade(c) == Shade::Light,
                "{}",
                board.label(c)
            );
        }
    }

    /// Every player's frame is the same board turned: in each frame, neighbours along a row
    /// share a side, neighbours up a column share a side or a corner by turns, and a diagonal
    /// step lands on a triangle of the same colour.
    #[test]
    fn every_frame_is_the_board_turned() {
        let board = BoardSpec::Trimens { seats: 3 }.build();
        for seat in 0..3 {
            let frame = board.frame(seat);
            let (mut rows, mut columns) = (0, 0);
            for c in board.cells() {
                let poly = &board.info(c).polygon;
                if let Some(r) = board.step(c, frame.dir(Heading::Right)) {
                    assert_eq!(shared_corners(poly, &board.info(r).polygon), 2);
                    rows += 1;
                }
                if let Some(f) = board.step(c, frame.dir(Heading::Forward)) {
                    // Up a column the triangles meet alternately along a side (a triangle
                    // pointing down, then one pointing up) and at a corner.
                    let shared = shared_corners(poly, &board.info(f).polygon);
                    let expected = if board.shade(c) == Shade::Dark { 2 } else { 1 };
                    assert_eq!(
                        shared,
                        expected,
                        "seat {seat}: {} to {}",
                        board.label(c),
                        board.label(f)
                    );
                    columns += 1;
                }
                if let Some(d) = board.step(c, frame.dir(Heading::ForwardRight)) {
                    assert_eq!(board.shade(c), board.shade(d));
                }
            }
            assert!(rows > 200 && columns > 200, "seat {seat}: {rows} {columns}");
            // Steps undo.
            for c in board.cells() {
                for h in Heading::ALL {
                    let d = frame.dir(h);
                    if let Some(n) = board.step(c, d) {
                        assert_eq!(board.step(n, board.opposite(d)), Some(c));
                    }
                }
            }
        }
    }
}

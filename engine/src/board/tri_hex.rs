//! Adams' tri-boards: regular hexagons of triangles (side 4 for two players, 5 for three or
//! four, 6 for five or six), the board of Tri-Chess and of Tri-Chek, Tri-Stax and Tri-Queens.
//!
//! Rows run parallel to the bottom edge, row r (from 1) holding positions
//! p = 1-s .. 2n-1+s with s = min(r, 2n+1-r); a triangle points up where r + p is even (the
//! Trimens convention). Triangles are numbered 1.. row by row from the bottom left.
//!
//! Directions are geometric, 18 of them:
//!
//! - 0-11, every 30 degrees counterclockwise from east. At the multiples of 60 degrees (the
//!   book's rook lines, parallel to an edge, "through sides") a step is the side neighbour 30
//!   degrees off, so the line zigzags along a row. At 30, 90, ... degrees (the bishop's lines,
//!   perpendicular to an edge, "alternately through sides and angles") a step is the side
//!   neighbour straight that way, or else the triangle across the corner straight that way.
//! - 12-17, every 60 degrees from east: the neighbour of the same colour touching at a corner
//!   (the checkers men's and kings' steps; with the others, the twelve cells round a king).
//!
//! Each seat's frame turns them to its edge: the seat at the bottom faces 90 degrees, the next
//! edge clockwise 30 degrees, and so on. See `docs/TRI-BOARD.md`.

use std::collections::HashMap;

use super::{
    Board, BoardSpec, Cell, CellInfo, Dir, Frame, HopTable, Leap, LeapTable, Lines, Shade, Wrap,
    NO_CELL,
};
use crate::board::frame_board::triangle;

/// The number of directions of a tri-board: twelve lines and six corner steps.
pub const TRI_DIRS: usize = 18;

fn centroid(poly: &[[f32; 2]]) -> (f32, f32) {
    let n = poly.len() as f32;
    (
        poly.iter().map(|p| p[0]).sum::<f32>() / n,
        poly.iter().map(|p| p[1]).sum::<f32>() / n,
    )
}

/// A point's key for finding the cell whose centre lies there.
fn key((x, y): (f32, f32)) -> (i32, i32) {
    ((x * 1000.0).round() as i32, (y * 1000.0).round() as i32)
}

/// Which way a knight turns after its two bishop steps.
const SIDES: [f32; 2] = [1.0, -1.0];

/// The tri-board of side `side` with one frame per entry of `facing` (edges counted clockwise
/// from the bottom, 0-5), without the triangles numbered in `cut`, with the triangles at the
/// (row, position)s of `extra` beyond it.
pub(super) fn build(
    side: u8,
    facing: &[u8],
    cut: &[u16],
    extra: &[(i16, i16)],
    spec: BoardSpec,
) -> Board {
    let n = side as i16;
    // The whole hexagon first: numbers, places and centres stay those of the uncut board, so a
    // triangle keeps its number whichever triangles a game cuts out.
    let mut whole = Vec::new();
    for r in 1..=2 * n {
        let s = r.min(2 * n + 1 - r);
        for p in (1 - s)..=(2 * n - 1 + s) {
            whole.push((r, p));
        }
    }
    for &rp in extra {
        if !whole.contains(&rp) {
            whole.push(rp);
        }
    }
    let kept: Vec<(u16, (i16, i16))> = whole
        .iter()
        .enumerate()
        .map(|(i, &rp)| (i as u16 + 1, rp))
        .filter(|(number, _)| !cut.contains(number))
        .collect();
    let cells: Vec<CellInfo> = kept
        .iter()
        .map(|&(number, (r, p))| CellInfo {
            label: number.to_string(),
            shade: if (r + p) % 2 == 0 {
                Shade::Light
            } else {
                Shade::Dark
            },
            polygon: triangle(r, p),
            coord: (p, r - 1),
        })
        .collect();
    let centres: Vec<(f32, f32)> = cells.iter().map(|c| centroid(&c.polygon)).collect();
    let at: HashMap<(i32, i32), u16> = centres
        .iter()
        .enumerate()
        .map(|(i, &c)| (key(c), i as u16))
        .collect();
    let find = |from: (f32, f32), angle_deg: f32, distance: f32| -> Option<u16> {
        at.get(&key(towards(from, angle_deg, distance))).copied()
    };
    let mut steps = vec![NO_CELL; cells.len() * TRI_DIRS];
    for (i, &c) in centres.iter().enumerate() {
        let row = &mut steps[i * TRI_DIRS..(i + 1) * TRI_DIRS];
        for (d, slot) in row.iter_mut().enumerate() {
            *slot = neighbour(c, d, find).unwrap_or(NO_CELL);
        }
    }
    let opposite = (0..TRI_DIRS)
        .map(|d| {
            Dir(if d < 12 {
                ((d + 6) % 12) as u8
            } else {
                (12 + (d - 12 + 3) % 6) as u8
            })
        })
        .collect();
    let frames = facing.iter().map(|&edge| frame(edge)).collect();
    // Each seat's coordinates: the board turned so that its edge is at the bottom, read as
    // (row from that edge, position along the row) of the uncut hexagon.
    let centre = (n as f32 / 2.0, n as f32 * 3f32.sqrt() / 2.0);
    let frame_coords = facing
        .iter()
        .map(|&edge| {
            centres
                .iter()
                .map(|&c| {
                    let (r, p) = row_and_position(turn(c, centre, 60.0 * edge as f32));
                    (r - 1, p)
                })
                .collect()
        })
        .collect();
    let (leaps, knight_hops) = knights(&centres, &at);
    Board {
        spec,
        cells,
        dir_count: TRI_DIRS,
        steps,
        opposite,
        leaps: vec![leaps],
        knight_hops,
        frames,
        grid: None,
        wrap: Wrap::None,
        frame_coords,
    }
}

/// The (row, position) on the board of the triangle at (rank, file) of the frame of the seat
/// at `edge` (rank 0 along that edge, files from its left end), on the hexagon of side `side`
/// or the lattice beyond it.
pub fn frame_to_board(side: u8, edge: u8, rank: i16, file: i16) -> (i16, i16) {
    let n = side as f32;
    let centre = (n / 2.0, n * 3f32.sqrt() / 2.0);
    let seen = centroid(&triangle(rank + 1, file));
    row_and_position(turn(seen, centre, -60.0 * edge as f32))
}

/// The numbers of the two triangles at the left end of edge `edge`'s outer row (a corner of
/// the hexagon, cut out on the five- and six-player board).
pub fn corner_numbers(side: u8, edge: u8) -> [u16; 2] {
    [0, 1].map(|file| {
        hexagon_number(side, frame_to_board(side, edge, 0, file)).expect("a corner is on the board")
    })
}

/// The number of triangle (row, position) of the hexagon of side `side`, if it is on it.
pub fn hexagon_number(side: u8, (r, p): (i16, i16)) -> Option<u16> {
    let n = side as i16;
    if !(1..=2 * n).contains(&r) {
        return None;
    }
    let s = r.min(2 * n + 1 - r);
    if !(1 - s..=2 * n - 1 + s).contains(&p) {
        return None;
    }
    let before: i16 = (1..r)
        .map(|row| 2 * n - 1 + 2 * row.min(2 * n + 1 - row))
        .sum();
    Some((before + p - (1 - s) + 1) as u16)
}

/// The point `distance` from `from` at `angle_deg` degrees.
fn towards(from: (f32, f32), angle_deg: f32, distance: f32) -> (f32, f32) {
    let (sin, cos) = angle_deg.to_radians().sin_cos();
    (from.0 + distance * cos, from.1 + distance * sin)
}

/// `point` turned counterclockwise by `degrees` about `centre`.
fn turn(point: (f32, f32), centre: (f32, f32), degrees: f32) -> (f32, f32) {
    let (sin, cos) = degrees.to_radians().sin_cos();
    let (dx, dy) = (point.0 - centre.0, point.1 - centre.1);
    (
        centre.0 + dx * cos - dy * sin,
        centre.1 + dx * sin + dy * cos,
    )
}

/// The neighbour of the triangle centred at `c` in direction `d` (see the module's
/// directions), found by `find(from, angle, distance)`.
fn neighbour<T>(
    c: (f32, f32),
    d: usize,
    find: impl Fn((f32, f32), f32, f32) -> Option<T>,
) -> Option<T> {
    let side_gap = 1.0 / 3f32.sqrt();
    if d >= 12 {
        return find(c, (d - 12) as f32 * 60.0, 1.0);
    }
    let angle = d as f32 * 30.0;
    if d.is_multiple_of(2) {
        // A rook line: the side neighbour 30 degrees to one side or the other.
        find(c, angle + 30.0, side_gap).or_else(|| find(c, angle - 30.0, side_gap))
    } else {
        find(c, angle, side_gap).or_else(|| find(c, angle, 2.0 * side_gap))
    }
}

/// The (row, position) of the triangle centred at `c` (the inverse of `triangle`'s placing:
/// rows are √3/2 high, position p is centred at x = p/2), for any triangle of the lattice.
fn row_and_position(c: (f32, f32)) -> (i16, i16) {
    let row = 3f32.sqrt() / 2.0;
    ((c.1 / row).floor() as i16 + 1, (2.0 * c.0).round() as i16)
}

/// Whether the triangle centred at `c` points up (its centre a third of the way up its row).
fn points_up(c: (f32, f32)) -> bool {
    let row = 3f32.sqrt() / 2.0;
    c.1.rem_euclid(row) < row / 2.0
}

/// The frame of the seat at `edge`: turned clockwise by 60 degrees per edge, so a line
/// direction loses two steps of 30 degrees and a corner step one step of 60.
fn frame(edge: u8) -> Frame {
    let line = |deg: i32| Dir(((deg / 30 - 2 * edge as i32).rem_euclid(12)) as u8);
    let corner = |deg: i32| Dir((12 + (deg / 60 - edge as i32).rem_euclid(6)) as u8);
    // Forward is 90 degrees for the seat at the bottom; the diagonal headings are its forward
    // corner steps (what checkers men use and pawns capture along), the sideways and back ones
    // likewise.
    let dirs = [
        line(90),    // Forward
        corner(60),  // ForwardRight
        corner(0),   // Right
        corner(300), // BackRight
        line(270),   // Back
        corner(240), // BackLeft
        corner(180), // Left
        corner(120), // ForwardLeft
    ];
    // Rooks along the six lines parallel to the edges, bishops along the six perpendicular to
    // them, kings to all twelve neighbours: the bishop's six steps (three across a side, three
    // across a corner) and the six corner steps.
    let lines = Lines {
        rook: (0..6).map(|k| line(60 * k)).collect(),
        bishop: (0..6).map(|k| line(30 + 60 * k)).collect(),
        king: (0..6)
            .map(|k| line(30 + 60 * k))
            .chain((0..6).map(|k| corner(60 * k)))
            .collect(),
    };
    Frame {
        dirs,
        knight: Leap(0),
        quarter_turns: 0,
        lines,
    }
}

/// The knight's move as offsets from a triangle's centre, for a triangle pointing up (`[0]`)
/// and down (`[1]`): for each bishop direction and each side, two bishop steps, then one step
/// across a side of the triangle reached, to that side of the line (a triangle's sides face
/// 120 degrees apart, so one of 60 and 120 degrees off the line is a side). Measured on an open
/// stretch of lattice, so a knight leaps whatever lies between, cut-out triangles included.
fn knight_offsets() -> [[[(f32, f32); 2]; 6]; 2] {
    let big = 12i16;
    let mut centres = HashMap::new();
    for r in 1..=2 * big {
        let s = r.min(2 * big + 1 - r);
        for p in (1 - s)..=(2 * big - 1 + s) {
            let c = centroid(&triangle(r, p));
            centres.insert(key(c), c);
        }
    }
    let find = |from, angle, distance| centres.get(&key(towards(from, angle, distance))).copied();
    let step = |c, d| neighbour(c, d, find).expect("the open lattice has every neighbour");
    let side_gap = 1.0 / 3f32.sqrt();
    let mut out = [[[(0.0, 0.0); 2]; 6]; 2];
    let up = centroid(&triangle(big, big));
    let down = step(up, 3);
    for (o, start) in [up, down].into_iter().enumerate() {
        for (k, offsets) in out[o].iter_mut().enumerate() {
            let d = 1 + 2 * k;
            let landing = step(step(start, d), d);
            let angle = d as f32 * 30.0;
            for (offset, turn_to) in offsets.iter_mut().zip(SIDES) {
                let target = [60.0, 120.0]
                    .iter()
                    .find_map(|off| find(landing, angle + turn_to * off, side_gap))
                    .expect("a knight's last step exists");
                *offset = (target.0 - start.0, target.1 - start.1);
            }
        }
    }
    out
}

/// The knight's leap table and its extended hops (Adams: a second knight's move the same way,
/// over the first's landing triangle).
fn knights(centres: &[(f32, f32)], at: &HashMap<(i32, i32), u16>) -> (LeapTable, HopTable) {
    let offsets = knight_offsets();
    let orientation = |c: (f32, f32)| usize::from(!points_up(c));
    let shift = |c: (f32, f32), o: (f32, f32)| at.get(&key((c.0 + o.0, c.1 + o.1))).copied();
    let mut leaps = LeapTable {
        starts: vec![0],
        targets: Vec::new(),
    };
    let mut hops = HopTable {
        starts: vec![0],
        pairs: Vec::new(),
    };
    for &c in centres {
        let o = orientation(c);
        let mut targets: Vec<u16> = Vec::new();
        // The second hop repeats the first's direction and side from the landing triangle,
        // which points the other way.
        for (here, there) in offsets[o]
            .iter()
            .flatten()
            .zip(offsets[1 - o].iter().flatten())
        {
            let Some(first) = shift(c, *here) else {
                continue;
            };
            targets.push(first);
            if let Some(second) = shift(centres[first as usize], *there) {
                hops.pairs.push((Cell(first), Cell(second)));
            }
        }
        targets.sort_unstable();
        targets.dedup();
        leaps.targets.extend(targets.into_iter().map(Cell));
        leaps.starts.push(leaps.targets.len() as u32);
        hops.starts.push(hops.pairs.len() as u32);
    }
    (leaps, hops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Heading};

    fn board(side: u8) -> std::sync::Arc<Board> {
        BoardSpec::TriHex {
            side,
            facing: (0..6).collect(),
            cut: Vec::new(),
            extra: Vec::new(),
        }
        .build()
    }

    fn shared_corners(b: &Board, x: Cell, y: Cell) -> usize {
        let (p, q) = (&b.info(x).polygon, &b.info(y).polygon);
        p.iter()
            .filter(|a| {
                q.iter()
                    .any(|c| (a[0] - c[0]).abs() < 1e-4 && (a[1] - c[1]).abs() < 1e-4)
            })
            .count()
    }

    /// The book's sizes: 96, 150 and 216 triangles; rows of 2n+1 .. 4n-1.
    #[test]
    fn the_hexagons_have_the_books_sizes_and_six_fold_symmetry() {
        for (side, cells) in [(4, 96), (5, 150), (6, 216)] {
            let b = board(side);
            assert_eq!(b.len(), cells);
            // Turned 60 degrees about the centre, every triangle lands on a triangle.
            let n = side as f32;
            let centre = (n / 2.0, n * 3f32.sqrt() / 2.0);
            let centres: Vec<(f32, f32)> =
                b.cells().map(|c| centroid(&b.info(c).polygon)).collect();
            let keys: std::collections::HashSet<_> = centres.iter().map(|&c| key(c)).collect();
            let (s, co) = 60f32.to_radians().sin_cos();
            for &(x, y) in &centres {
                let (dx, dy) = (x - centre.0, y - centre.1);
                let turned = (centre.0 + dx * co - dy * s, centre.1 + dx * s + dy * co);
                assert!(keys.contains(&key(turned)), "side {side}: ({x}, {y})");
            }
        }
    }

    /// Rook lines cross sides, bishop lines alternate corner and side, corner steps keep the
    /// colour, every step undoes, and a king has twelve neighbours away from the edge.
    #[test]
    fn lines_and_steps_follow_the_book() {
        let b = board(5);
        let mut inner = 0;
        for c in b.cells() {
            let mut around = std::collections::HashSet::new();
            for d in 0..TRI_DIRS {
                let Some(n) = b.step(c, Dir(d as u8)) else {
                    continue;
                };
                around.insert(n);
                assert_eq!(
                    b.step(n, b.opposite(Dir(d as u8))),
                    Some(c),
                    "{} d{d}",
                    b.label(c)
                );
                let shared = shared_corners(&b, c, n);
                match d {
                    d if d < 12 && d % 2 == 0 => assert_eq!(shared, 2, "rook steps cross a side"),
                    d if d < 12 => assert!(shared >= 1),
                    _ => {
                        assert_eq!(shared, 1, "corner steps touch at a corner");
                        assert_eq!(b.shade(c), b.shade(n));
                    }
                }
            }
            if around.len() == 12 {
                inner += 1;
            }
        }
        assert!(inner > 60, "{inner} triangles with twelve neighbours");
        // Two rook steps east go one unit along the row; two bishop steps north, one row pair.
        let c = b.cell("70").unwrap();
        let e = b.step(b.step(c, Dir(0)).unwrap(), Dir(0)).unwrap();
        let (a, z) = (centroid(&b.info(c).polygon), centroid(&b.info(e).polygon));
        assert!(((z.0 - a.0) - 1.0).abs() < 1e-4 && (z.1 - a.1).abs() < 1e-4);
        let up = b.step(b.step(c, Dir(3)).unwrap(), Dir(3)).unwrap();
        let u = centroid(&b.info(up).polygon);
        assert!((u.0 - a.0).abs() < 1e-4 && ((u.1 - a.1) - 3f32.sqrt()).abs() < 1e-3);
    }

    /// A frame's lines: six for the rook, six for the bishop, and a king step to each of the
    /// twelve neighbours.
    #[test]
    fn a_frame_has_six_rook_and_six_bishop_lines_and_twelve_king_steps() {
        let b = board(5);
        let c = b.cell("70").unwrap();
        for seat in 0..6 {
            let lines = b.frame(seat).lines();
            assert_eq!((lines.rook.len(), lines.bishop.len()), (6, 6));
            let around: std::collections::HashSet<Cell> =
                lines.king.iter().filter_map(|&d| b.step(c, d)).collect();
            assert_eq!(around.len(), 12, "seat {seat}");
        }
    }

    /// Each seat faces the board from its own edge: forward is 90 degrees for the seat at the
    /// bottom and 60 degrees less for each edge clockwise; its forward corner steps keep the
    /// colour and lead 30 degrees to either side of forward.
    #[test]
    fn each_seat_faces_the_board_from_its_edge() {
        let b = board(5);
        let c = b.cell("70").unwrap();
        let at = |x: Cell| centroid(&b.info(x).polygon);
        let angle = |x: Cell, y: Cell| {
            let (p, q) = (at(x), at(y));
            ((q.1 - p.1).atan2(q.0 - p.0).to_degrees() + 360.0) % 360.0
        };
        for seat in 0..6 {
            let frame = b.frame(seat);
            let forward = (90.0 - 60.0 * seat as f32 + 360.0) % 360.0;
            let f = b.step(c, frame.dir(Heading::Forward)).unwrap();
            assert!((angle(c, f) - forward).abs() < 0.01, "seat {seat}");
            for (h, turn) in [(Heading::ForwardLeft, 30.0), (Heading::ForwardRight, -30.0)] {
                let d = b.step(c, frame.dir(h)).unwrap();
                assert_eq!(b.shade(c), b.shade(d));
                let expected = (forward + turn + 360.0) % 360.0;
                assert!((angle(c, d) - expected).abs() < 0.01, "seat {seat} {h:?}");
            }
        }
    }

    /// The book's knight: twelve leaps from a triangle away from the edge, each returning; a
    /// leap that starts across a side a rook could also make, one that starts across a corner
    /// no rook or bishop could (Figure 34's asterisks and crosses).
    #[test]
    fn the_knight_leaps_as_the_book_draws_it() {
        let b = board(6);
        let centre = (3.0, 3.0 * 3f32.sqrt());
        let rays = |c: Cell, dirs: std::ops::Range<usize>, every: usize| {
            let mut out = std::collections::HashSet::new();
            for d in dirs.step_by(every) {
                out.extend(b.ray(c, Dir(d as u8)));
            }
            out
        };
        let mut inner = 0;
        for c in b.cells() {
            let leaps = b.leaps(c, Leap(0));
            for &t in leaps {
                assert!(b.leaps(t, Leap(0)).contains(&c), "leaps return");
                assert_ne!(b.shade(c), b.shade(t), "a knight changes colour");
            }
            let at = centroid(&b.info(c).polygon);
            if ((at.0 - centre.0).powi(2) + (at.1 - centre.1).powi(2)).sqrt() > 2.5 {
                continue;
            }
            inner += 1;
            assert_eq!(leaps.len(), 12);
            let rook = rays(c, 0..12, 2);
            let bishop = rays(c, 1..12, 2);
            let on_rook_lines = leaps.iter().filter(|t| rook.contains(t)).count();
            assert_eq!(on_rook_lines, 6, "{}", b.label(c));
            assert!(leaps.iter().all(|t| !bishop.contains(t)));
        }
        assert!(inner > 20);
    }

    /// Each seat reads the board from its edge: its first row has 2n+1 triangles, the
    /// second 2n+3; a cut-out triangle leaves a gap, and the others keep their numbers.
    #[test]
    fn seats_have_rows_from_their_edges_and_cut_triangles_keep_numbers() {
        let b = board(5);
        for seat in 0..6 {
            let row = |r: i16| {
                b.cells()
                    .filter(|&c| b.frame_rank(seat, c) == Some(r))
                    .count()
            };
            assert_eq!((row(0), row(1), row(9)), (11, 13, 11), "seat {seat}");
            assert_eq!(b.frame_depth(seat), Some(10));
            let c = b.frame_cell(seat, 0, 5).unwrap();
            // The middle of the edge row points inward on the side-5 board.
            let forward = b.frame(seat).dir(Heading::Forward);
            let ahead = b.step(c, forward).unwrap();
            assert_eq!(shared_corners(&b, c, ahead), 1, "through the apex");
        }
        let cut = BoardSpec::TriHex {
            side: 5,
            facing: vec![0],
            cut: vec![1, 2],
            extra: Vec::new(),
        }
        .build();
        assert_eq!(cut.len(), 148);
        assert!(cut.cell("1").is_none() && cut.cell("2").is_none());
        assert_eq!(cut.label(cut.cell("150").unwrap()), "150");
        assert_eq!(cut.frame_coord(0, cut.cell("3").unwrap()), Some((0, 2)));
    }
}

//! Where everything goes: board units to pixels, turned so the viewer's side is at the bottom.

use engine::board::{Board, Cell, Heading};
use engine::chess::Seat;

/// Room above the board for the caption.
pub(crate) const CAPTION_PX: f32 = 46.0;
/// Room around the board for coordinates.
pub(crate) const MARGIN_PX: f32 = 28.0;
/// The longest side of the board in pixels, before capping the cell size.
const BOARD_PX: f32 = 640.0;
/// Boards of triangles have many small cells: they get more room.
const TRIANGLE_BOARD_PX: f32 = 800.0;
/// Cells never get larger than this, so small boards stay compact.
const MAX_CELL_PX: f32 = 84.0;

/// The pixel geometry of one board seen from one seat.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Pixels per board unit (one square's side).
    pub scale: f32,
    cos: f32,
    sin: f32,
    min_x: f32,
    max_y: f32,
    centres: Vec<(f32, f32)>,
    /// Where each cell's figure stands, and where its name is written (pixels).
    figure_centres: Vec<(f32, f32)>,
    name_anchors: Vec<(f32, f32)>,
    /// The size figures are drawn at: a square's side, or what fits a triangle.
    pub figure_px: f32,
    /// Whether the cells are triangles (names inside the cell, not in its corner).
    pub triangles: bool,
    /// The board's pixel rectangle: left, top, right, bottom.
    pub board_rect: (f32, f32, f32, f32),
}

fn centroid(points: &[[f32; 2]]) -> [f32; 2] {
    let n = points.len().max(1) as f32;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
    [sx / n, sy / n]
}

impl Layout {
    /// The layout of `board` with `bottom`'s side of the board at the bottom of the image.
    pub fn new(board: &Board, bottom: Seat) -> Layout {
        let (cos, sin) = facing_rotation(board, bottom);
        let rotate = |p: [f32; 2]| (p[0] * cos - p[1] * sin, p[0] * sin + p[1] * cos);
        let (mut min_x, mut max_x, mut min_y, mut max_y) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for cell in board.cells() {
            for &p in &board.info(cell).polygon {
                let (x, y) = rotate(p);
                min_x = min_x.min(x);
                max_x = max_x.max(x);
                min_y = min_y.min(y);
                max_y = max_y.max(y);
            }
        }
        let (w, h) = ((max_x - min_x).max(1.0), (max_y - min_y).max(1.0));
        let triangles = board
            .cells()
            .next()
            .is_some_and(|c| board.info(c).polygon.len() == 3);
        let room = if triangles {
            TRIANGLE_BOARD_PX
        } else {
            BOARD_PX
        };
        let scale = (room / w.max(h)).min(MAX_CELL_PX).floor();
        let board_w = (w * scale).round();
        let board_h = (h * scale).round();
        let left = MARGIN_PX;
        let top = CAPTION_PX + MARGIN_PX * 0.5;
        let mut layout = Layout {
            width: (board_w + 2.0 * MARGIN_PX) as u32,
            height: (top + board_h + MARGIN_PX) as u32,
            scale,
            cos,
            sin,
            min_x,
            max_y,
            centres: Vec::new(),
            figure_centres: Vec::new(),
            name_anchors: Vec::new(),
            figure_px: if triangles { scale * 0.5 } else { scale },
            triangles,
            board_rect: (left, top, left + board_w, top + board_h),
        };
        layout.centres = board
            .cells()
            .map(|c| layout.to_px(centroid(&board.info(c).polygon)))
            .collect();
        if triangles {
            // A triangle's name sits just inside its base, its figure higher up toward the
            // apex, so that both show: on the line from the middle of the base through the
            // centroid to the apex, as the viewer sees the triangle. The unturned polygon's
            // base is a slanted side on a board turned by 60, 120, 240 or 300 degrees, which
            // put figures by a corner and names across the edge from their neighbours'.
            let along = |c: Cell, t: f32| {
                let poly = layout.polygon(board, c);
                // The apex faces the most nearly level side.
                let level = |k: usize| (poly[(k + 1) % 3].1 - poly[(k + 2) % 3].1).abs();
                let apex = (0..3)
                    .min_by(|&i, &j| level(i).total_cmp(&level(j)))
                    .unwrap_or(2);
                let (a, b) = (poly[(apex + 1) % 3], poly[(apex + 2) % 3]);
                let base = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                let top = poly[apex];
                (base.0 + (top.0 - base.0) * t, base.1 + (top.1 - base.1) * t)
            };
            let figures = board.cells().map(|c| along(c, 0.52)).collect();
            let names = board.cells().map(|c| along(c, 0.13)).collect();
            layout.figure_centres = figures;
            layout.name_anchors = names;
        } else {
            layout.figure_centres = layout.centres.clone();
        }
        layout
    }

    /// The same layout `dy` pixels lower in an image that much taller: room for a caption of
    /// several lines above the board.
    pub(crate) fn lowered(&self, dy: f32) -> Layout {
        let mut out = self.clone();
        out.height += dy as u32;
        out.board_rect.1 += dy;
        out.board_rect.3 += dy;
        for p in out
            .centres
            .iter_mut()
            .chain(out.figure_centres.iter_mut())
            .chain(out.name_anchors.iter_mut())
        {
            p.1 += dy;
        }
        out
    }

    /// Where a cell's figure is drawn (the centre of a square; higher in a triangle).
    pub fn figure_centre(&self, cell: Cell) -> (f32, f32) {
        self.figure_centres[cell.index()]
    }

    /// Where a triangle's name is written, centred (none for squares, named in a corner).
    pub fn name_anchor(&self, cell: Cell) -> Option<(f32, f32)> {
        self.name_anchors.get(cell.index()).copied()
    }

    /// A point in board units to pixels.
    pub fn to_px(&self, p: [f32; 2]) -> (f32, f32) {
        let x = p[0] * self.cos - p[1] * self.sin;
        let y = p[0] * self.sin + p[1] * self.cos;
        (
            self.board_rect.0 + (x - self.min_x) * self.scale,
            self.board_rect.1 + (self.max_y - y) * self.scale,
        )
    }

    /// The pixel centre of a cell.
    pub fn cell_centre(&self, cell: Cell) -> (f32, f32) {
        self.centres[cell.index()]
    }

    /// The cell's polygon in pixels.
    pub fn polygon(&self, board: &Board, cell: Cell) -> Vec<(f32, f32)> {
        board
            .info(cell)
            .polygon
            .iter()
            .map(|&p| self.to_px(p))
            .collect()
    }

    /// A board-space direction (dx, dy) as a pixel-space direction.
    pub(crate) fn direction(&self, d: [f32; 2]) -> (f32, f32) {
        let x = d[0] * self.cos - d[1] * self.sin;
        let y = d[0] * self.sin + d[1] * self.cos;
        (x, -y)
    }
}

/// The rotation (cos, sin) that makes `seat`'s forward point up the image.
fn facing_rotation(board: &Board, seat: Seat) -> (f32, f32) {
    let forward = board.frame(seat.index()).dir(Heading::Forward);
    let v = board.cells().find_map(|c| {
        let next = board.step(c, forward)?;
        let a = centroid(&board.info(c).polygon);
        let b = centroid(&board.info(next).polygon);
        let v = [b[0] - a[0], b[1] - a[1]];
        // A wrapped step jumps across the board; only a neighbour step shows the direction.
        (v[0].hypot(v[1]) < 1.5).then_some(v)
    });
    let Some(v) = v else { return (1.0, 0.0) };
    let angle = v[0].atan2(v[1]);
    let (sin, cos) = angle.sin_cos();
    // Snap to exact values for quarter turns so squares stay pixel-aligned.
    let snap = |x: f32| {
        if (x - x.round()).abs() < 1e-4 {
            x.round()
        } else {
            x
        }
    };
    (snap(cos), snap(sin))
}

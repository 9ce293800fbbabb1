//! Rookery's renderer: a [`View`] in, a PNG out. No rules.
//!
//! Drawing follows the board's own cell polygons, so any geometry renders without special
//! code. Everything that does not change between moves is prepared once and cached: each
//! board's background for each viewing side (cells, coordinates, square names, wrap hints),
//! piece sprites per army and size, and text glyphs. A render copies the background, tints the
//! highlighted cells, blits the sprites and writes the caption, noting where it drew; then it
//! turns the picture into palette indices with the palette of its scene (`scene`), looking up
//! only what was drawn over the background, and compresses them (reusing, for boards whose
//! rows do not repeat, the parse of the background made with the scene: `deflate`). A board
//! is drawn on a spare copy of its background, and only what was drawn is copied back.
//!
//! ```
//! use engine::registry;
//! use engine::game::Options;
//! use engine::view::Viewer;
//!
//! let chess = registry::variant("chess").unwrap();
//! let state = chess.setup(&Options::new(), 2, 0).unwrap();
//! let view = chess.view(&state, Viewer::Spectator).unwrap();
//! let png = render::render_png(&view).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

mod deflate;
pub mod gif;
mod indexed;
mod layout;
pub mod palette;
mod scene;
mod sprite;
mod text;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use engine::board::{Board, BoardSpec, Cell, Shade};
use engine::chess::Seat;
use engine::view::{BoardLabel, Figure, Marker, Placed, View};
use image::RgbImage;

pub use indexed::{encode, PNG_BUDGET};
pub use layout::Layout;
pub use palette::{army as army_colours, ArmyColours};

use palette::Rgb8;
use sprite::Kind;
use text::Ink;

/// The tint of the cells of the last move: toward gold, half way.
const LAST_MOVE_TINT: (Rgb8, f32) = (palette::LAST_MOVE, 0.5);
/// The last move's ring around a shaded cell (over the shade, so stronger).
const LAST_MOVE_RING: (Rgb8, f32) = (palette::LAST_MOVE, 0.75);
/// The tint of a king in check.
const CHECK_TINT: (Rgb8, f32) = (palette::CHECK, 0.65);
/// The tint of cells shaded on request (Shadow Chess's shadows).
const SHADE_TINT: (Rgb8, f32) = (palette::SHADED, 0.45);

/// Rendering failed (only possible for an image the encoder refuses).
#[derive(Debug, thiserror::Error)]
#[error("could not encode the board image: {0}")]
pub struct RenderError(String);

/// The board of `view` as PNG bytes.
pub fn render_png(view: &View) -> Result<Vec<u8>, RenderError> {
    let beside = !view.cards.is_empty() || view.panel.is_some();
    let (img, prepared, drawn) = compose(view, !beside);
    if beside {
        // Cards and panels are drawn beside the board: the picture's own shades choose.
        return encode(&img);
    }
    let scene = prepared.scene(view, drawn.caption_armies());
    let png = scene.png(&img, &prepared.background, &drawn, view.figures.len());
    prepared.give_back(img, &drawn);
    png
}

/// Forgets the figure boxes met on boards like `view`'s, so that a benchmark can time the
/// first board of a position, as a game meets it after each move.
#[doc(hidden)]
pub fn forget_figure_boxes(view: &View) {
    prepared(view).forget_figure_boxes();
}

/// The board of `view` as an RGB image.
pub fn render_image(view: &View) -> RgbImage {
    compose(view, false).0
}

/// The board of `view`, with the prepared board it was drawn over and where the picture was
/// drawn over it; drawn on the prepared board's spare canvas if `borrow` and it is free (to
/// be given back with [`Prepared::give_back`]), else on a copy of the background (on a taller
/// picture, under a caption of several lines).
fn compose(view: &View, borrow: bool) -> (RgbImage, Arc<Prepared>, scene::DrawnOver) {
    let prepared = prepared(view);
    let caption = plan_caption(view, prepared.layout.width);
    // A caption of several lines pushes the board down.
    let extra = caption.extra_px();
    let lowered;
    let (layout, mut img) = if extra == 0 {
        let spare = borrow.then(|| prepared.lock_canvas().take()).flatten();
        (
            &prepared.layout,
            spare.unwrap_or_else(|| prepared.background.clone()),
        )
    } else {
        lowered = prepared.layout.lowered(extra as f32);
        let mut img = RgbImage::from_pixel(
            lowered.width,
            lowered.height,
            palette::rgb(palette::BACKGROUND),
        );
        image::imageops::replace(&mut img, &prepared.background, 0, i64::from(extra));
        (&lowered, img)
    };
    let board = &*view.board;
    let caption_armies = caption
        .entries
        .iter()
        .map(|entry| view.colour_of(entry.1))
        .collect();
    let mut drawn = scene::DrawnOver::new(img.width(), img.height(), extra, caption_armies);
    // The caption, above the board.
    drawn.mark(0.0, 0.0, img.width() as f32, layout.board_rect.1);
    for &cell in view
        .tinted
        .iter()
        .map(|(c, _)| c)
        .chain(&view.last_move)
        .chain(&view.checks)
    {
        drawn.mark_polygon(&layout.polygon(board, cell));
    }
    // Tinted rather than repainted, so that a square's name stays on it.
    for &(cell, _) in &view.tinted {
        tint_polygon(&mut img, &layout.polygon(board, cell), SHADE_TINT);
    }
    for &cell in &view.last_move {
        let polygon = layout.polygon(board, cell);
        if view.tinted.iter().any(|(c, _)| *c == cell) {
            // A shaded square keeps its shade inside and the last move rings it, so that
            // neither hides the other (mixed, they looked like an ordinary dark square).
            for band in frame(&polygon, 0.22) {
                tint_polygon(&mut img, &band, LAST_MOVE_RING);
            }
        } else {
            tint_polygon(&mut img, &polygon, LAST_MOVE_TINT);
        }
    }
    for &cell in &view.checks {
        tint_polygon(&mut img, &layout.polygon(board, cell), CHECK_TINT);
    }
    for placed in &view.figures {
        let [left, top, right, bottom] = draw_figure(&mut img, layout, placed, view);
        drawn.mark_box(left, top, right, bottom);
    }
    draw_caption(&mut img, layout, view, &caption);
    if !view.cards.is_empty() {
        img = with_cards(img, view);
    }
    if let Some(panel) = &view.panel {
        img = with_panel(img, panel);
    }
    (img, prepared, drawn)
}

/// The board with its rows of cards under it (the Chess Kit's card games): each row's title,
/// then its cards, a face as a piece (or checker) on a white card, a hidden card as a back. A
/// row longer than the board is wide wraps onto more lines: every card shows (in Cooperative
/// Chess the newest cards of a long line are the ones that decide the captures).
fn with_cards(board: RgbImage, view: &View) -> RgbImage {
    const CARD_W: f32 = 34.0;
    const CARD_H: f32 = 46.0;
    const GAP: f32 = 6.0;
    const ROW_H: f32 = CARD_H + 12.0;
    const TITLE_W: f32 = 150.0;
    let (w, h) = (board.width(), board.height());
    let per_line = (((w as f32 - 12.0 - TITLE_W + GAP) / (CARD_W + GAP)).floor() as usize).max(1);
    let lines_of = |n: usize| n.div_ceil(per_line).max(1);
    let lines: usize = view.cards.iter().map(|row| lines_of(row.cards.len())).sum();
    let extra = ROW_H * lines as f32 + 8.0;
    let mut img = RgbImage::from_pixel(w, h + extra as u32, palette::rgb(palette::BACKGROUND));
    image::imageops::replace(&mut img, &board, 0, 0);
    let mut line = 0;
    for row in &view.cards {
        let top = h as f32 + 4.0 + ROW_H * line as f32;
        let mid = top + CARD_H / 2.0 + 4.0;
        text::draw(
            &mut img,
            &row.title,
            (12.0, mid + 5.0),
            Ink::new(14, true, palette::CAPTION),
            TITLE_W,
        );
        for (i, card) in row.cards.iter().enumerate() {
            let x0 = 12.0 + TITLE_W + (CARD_W + GAP) * (i % per_line) as f32;
            let y0 = top + 4.0 + ROW_H * (i / per_line) as f32;
            let rect = |inset: f32| {
                [
                    (x0 + inset, y0 + inset),
                    (x0 + CARD_W - inset, y0 + inset),
                    (x0 + CARD_W - inset, y0 + CARD_H - inset),
                    (x0 + inset, y0 + CARD_H - inset),
                ]
            };
            fill_polygon(&mut img, &rect(0.0), palette::INK);
            match card {
                Some(card) => {
                    fill_polygon(&mut img, &rect(1.5), palette::PAPER);
                    let army = view.colour_of(card.side);
                    let (cx, cy) = (x0 + CARD_W / 2.0, y0 + CARD_H / 2.0);
                    let size = (CARD_W * 0.9) as u32;
                    let kind = match card.face {
                        engine::cards::Face::Piece(role) => Kind::Chess(role),
                        engine::cards::Face::Checker => Kind::Man,
                    };
                    sprite::sprite(kind, army, size).draw_centred(&mut img, cx, cy);
                }
                None => {
                    fill_polygon(&mut img, &rect(1.5), palette::CARD_BACK);
                    fill_polygon(&mut img, &rect(5.0), palette::CARD_BACK_INNER);
                }
            }
        }
        line += lines_of(row.cards.len());
    }
    img
}

/// The board with a private table under it.
fn with_panel(board: RgbImage, panel: &engine::view::Panel) -> RgbImage {
    const CELL_W: f32 = 44.0;
    const CELL_H: f32 = 30.0;
    const LABEL_W: f32 = 44.0;
    let columns = panel.columns.len() as f32;
    let table_h = if panel.rows.is_empty() {
        0.0
    } else {
        CELL_H * (panel.rows.len() as f32 + 1.0)
    };
    let extra = 40.0 + table_h + 22.0 * panel.notes.len() as f32 + 10.0;
    let (w, h) = (board.width(), board.height());
    let mut img = RgbImage::from_pixel(w, h + extra as u32, palette::rgb(palette::BACKGROUND));
    image::imageops::replace(&mut img, &board, 0, 0);
    let max_x = w as f32 - 8.0;
    let mut y = h as f32 + 26.0;
    text::draw(
        &mut img,
        &panel.title,
        (12.0, y),
        Ink::new(16, true, palette::CAPTION),
        max_x,
    );
    y += 12.0;
    let left = ((w as f32 - LABEL_W - CELL_W * columns) / 2.0).max(8.0);
    if !panel.rows.is_empty() {
        let ink = Ink::new(15, true, palette::COORDINATE);
        for (i, c) in panel.columns.iter().enumerate() {
            let cx = left + LABEL_W + CELL_W * (i as f32 + 0.5);
            text::draw_centred(&mut img, c, (cx, y + CELL_H / 2.0), ink);
        }
        for (r, (label, cells)) in panel.rows.iter().enumerate() {
            let top = y + CELL_H * (r as f32 + 1.0);
            text::draw_centred(
                &mut img,
                label,
                (left + LABEL_W / 2.0, top + CELL_H / 2.0),
                ink,
            );
            for (i, cell) in cells.iter().enumerate() {
                let x0 = left + LABEL_W + CELL_W * i as f32;
                let shade = if (r + i) % 2 == 0 {
                    palette::LIGHT_CELL
                } else {
                    palette::DARK_CELL
                };
                let rect = [
                    (x0, top),
                    (x0 + CELL_W, top),
                    (x0 + CELL_W, top + CELL_H),
                    (x0, top + CELL_H),
                ];
                fill_polygon(&mut img, &rect, shade);
                let centre = (x0 + CELL_W / 2.0, top + CELL_H / 2.0);
                text::draw_centred(&mut img, cell, centre, Ink::new(16, true, palette::INK));
            }
        }
        y += table_h;
    }
    for note in &panel.notes {
        y += 22.0;
        text::draw(
            &mut img,
            note,
            (12.0, y),
            Ink::new(14, false, palette::CAPTION),
            max_x,
        );
    }
    img
}

/// The pixel layout `view` is drawn with (cell centres, board rectangle, image size).
pub fn layout(view: &View) -> Layout {
    let prepared = prepared(view);
    let extra = plan_caption(view, prepared.layout.width).extra_px();
    if extra == 0 {
        prepared.layout.clone()
    } else {
        prepared.layout.lowered(extra as f32)
    }
}

/// The colour a cell is painted.
fn cell_colour(board: &Board, cell: engine::board::Cell) -> Rgb8 {
    match board.shade(cell) {
        Shade::Light => palette::LIGHT_CELL,
        Shade::Dark => palette::DARK_CELL,
    }
}

struct Prepared {
    layout: Layout,
    background: RgbImage,
    /// The palettes of the sets of figures drawn over this background (`scene`).
    scenes: Mutex<Vec<Arc<scene::Scene>>>,
    /// A copy of the background to draw a board on, so that a board copies back only what
    /// was drawn over it rather than the whole background.
    canvas: Mutex<Option<RgbImage>>,
}

impl Prepared {
    fn lock_canvas(&self) -> std::sync::MutexGuard<'_, Option<RgbImage>> {
        self.canvas.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes back a board drawn on this background's spare canvas (or a copy of it): what
    /// `drawn` says was drawn over is copied back from the background, and the canvas is kept
    /// for the next board. A picture of another size (under a long caption) is dropped. So
    /// everything `compose` draws must be marked in `drawn`, which debug builds check here
    /// (and `every_board_is_indexed_as_its_colours_look_up` on every variant's boards).
    fn give_back(&self, mut img: RgbImage, drawn: &scene::DrawnOver) {
        if img.dimensions() != self.background.dimensions() {
            return;
        }
        drawn.restore(&mut img, &self.background);
        debug_assert!(img == self.background, "a board drew where it did not say");
        let mut canvas = self.lock_canvas();
        if canvas.is_none() {
            *canvas = Some(img);
        }
    }
}

fn prepared(view: &View) -> Arc<Prepared> {
    type Key = (BoardSpec, usize, Vec<(Cell, String)>, Vec<BoardLabel>);
    type Cache = Mutex<HashMap<Key, Arc<Prepared>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let board = &view.board;
    // Square names are part of the background: boards of one geometry named differently
    // (chess and checkers) are prepared apart.
    let key = (
        board.spec().clone(),
        view.bottom.index() % board.frame_count(),
        view.square_names.clone(),
        view.labels.clone(),
    );
    if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return p.clone();
    }
    let layout = Layout::new(board, view.bottom);
    let background = draw_background(board, &layout, &view.square_names, &view.labels);
    let p = Arc::new(Prepared {
        layout,
        background,
        scenes: Mutex::new(Vec::new()),
        canvas: Mutex::new(None),
    });
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, p.clone());
    p
}

fn draw_background(
    board: &Board,
    layout: &Layout,
    names: &[(Cell, String)],
    labels: &[BoardLabel],
) -> RgbImage {
    let mut img = RgbImage::from_pixel(
        layout.width,
        layout.height,
        palette::rgb(palette::BACKGROUND),
    );
    for cell in board.cells() {
        fill_polygon(
            &mut img,
            &layout.polygon(board, cell),
            cell_colour(board, cell),
        );
    }
    draw_square_names(&mut img, board, layout, names);
    if labels.is_empty() {
        draw_coordinates(&mut img, board, layout);
    } else {
        draw_labels(&mut img, layout, labels);
    }
    draw_wrap_hints(&mut img, board, layout);
    img
}

/// Fills a polygon (pixel coordinates) with one colour.
fn fill_polygon(img: &mut RgbImage, points: &[(f32, f32)], colour: Rgb8) {
    paint_polygon(img, points, |_| colour);
}

/// The band along a polygon's edges, `depth` of the way toward its centre, as one quad per
/// edge (the quads share their sides, so no pixel is painted twice).
fn frame(points: &[(f32, f32)], depth: f32) -> Vec<[(f32, f32); 4]> {
    let n = points.len().max(1) as f32;
    let (cx, cy) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let inner: Vec<(f32, f32)> = points
        .iter()
        .map(|p| (p.0 + (cx - p.0) * depth, p.1 + (cy - p.1) * depth))
        .collect();
    (0..points.len())
        .map(|i| {
            let j = (i + 1) % points.len();
            [points[i], points[j], inner[j], inner[i]]
        })
        .collect()
}

/// Moves every pixel of a polygon toward `colour` by `t`, keeping what is drawn there.
fn tint_polygon(img: &mut RgbImage, points: &[(f32, f32)], (colour, t): (Rgb8, f32)) {
    // A cell is mostly one colour: the last one mixed is mixed once.
    let mut last: Option<(Rgb8, Rgb8)> = None;
    paint_polygon(img, points, |p| match last {
        Some((from, to)) if from == p => to,
        _ => {
            let to = palette::mix(p, colour, t);
            last = Some((p, to));
            to
        }
    });
}

/// Repaints each pixel of a polygon (pixel coordinates) from its old colour, sampling pixel
/// centres so that neighbouring cells share edges without gaps or overlap.
fn paint_polygon(img: &mut RgbImage, points: &[(f32, f32)], mut paint: impl FnMut(Rgb8) -> Rgb8) {
    if points.len() < 3 {
        return;
    }
    let min_y = points
        .iter()
        .map(|p| p.1)
        .fold(f32::MAX, f32::min)
        .floor()
        .max(0.0) as i32;
    let max_y = points
        .iter()
        .map(|p| p.1)
        .fold(f32::MIN, f32::max)
        .ceil()
        .min(img.height() as f32) as i32;
    let mut xs: Vec<f32> = Vec::with_capacity(8);
    for y in min_y..max_y {
        let yc = y as f32 + 0.5;
        xs.clear();
        for i in 0..points.len() {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            if (a.1 <= yc && yc < b.1) || (b.1 <= yc && yc < a.1) {
                xs.push(a.0 + (yc - a.1) * (b.0 - a.0) / (b.1 - a.1));
            }
        }
        xs.sort_by(|a, b| a.total_cmp(b));
        for pair in xs.chunks_exact(2) {
            let x0 = (pair[0] - 0.5).ceil().max(0.0) as u32;
            let x1 = ((pair[1] - 0.5).ceil().max(0.0) as u32).min(img.width());
            for x in x0..x1 {
                let p = img.get_pixel_mut(x, y as u32);
                p.0 = paint(p.0);
            }
        }
    }
}

/// The text size of a triangle's name.
fn triangle_name_size(layout: &Layout) -> u32 {
    ((layout.scale * 0.18) as u32).max(9)
}

/// The box (left, top, right, bottom, in pixels) the ink of a triangle's name takes in `view`'s
/// picture; none for squares (named in a corner) or a cell the view does not name.
pub fn name_box(view: &View, cell: Cell) -> Option<(f32, f32, f32, f32)> {
    let layout = layout(view);
    let anchor = layout.name_anchor(cell)?;
    let (_, name) = view.square_names.iter().find(|(c, _)| *c == cell)?;
    let ink = Ink::new(triangle_name_size(&layout), false, palette::INK);
    Some(text::centred_ink_box(name, anchor, ink))
}

/// Square names (checkers' numbers), small and faint in the top left corner of their cells as
/// the viewer sees them: upright, whichever way the board is turned.
fn draw_square_names(img: &mut RgbImage, board: &Board, layout: &Layout, names: &[(Cell, String)]) {
    let size = (layout.scale * 0.18) as u32;
    let pad = layout.scale * 0.04;
    for (cell, name) in names {
        if let Some(anchor) = layout.name_anchor(*cell) {
            // Triangles: inside, just above the base, a little darker to read at its size.
            let ink = palette::mix(cell_colour(board, *cell), palette::INK, 0.55);
            text::draw_centred(
                img,
                name,
                anchor,
                Ink::new(triangle_name_size(layout), false, ink),
            );
            continue;
        }
        let (left, top) = layout
            .polygon(board, *cell)
            .into_iter()
            .fold((f32::MAX, f32::MAX), |(x, y), p| (x.min(p.0), y.min(p.1)));
        let faint = palette::mix(cell_colour(board, *cell), palette::INK, 0.4);
        let baseline = top + pad + size as f32 * 0.64;
        text::draw(
            img,
            name,
            (left + pad, baseline),
            Ink::new(size, false, faint),
            f32::MAX,
        );
    }
}

/// File letters and rank numbers along the board's edges, wherever the rotation put them.
fn draw_coordinates(img: &mut RgbImage, board: &Board, layout: &Layout) {
    let Some((files, ranks)) = board.grid_size() else {
        return;
    };
    let (left, top, right, bottom) = layout.board_rect;
    let size = 14;
    let files_across = layout.direction([1.0, 0.0]).0.abs() > 0.5;
    let mut label = |text: String, along: (f32, f32), across: bool| {
        let (x, y) = if across {
            (along.0, bottom + 14.0)
        } else {
            (left - 14.0, along.1)
        };
        let _ = (top, right);
        text::draw_centred(
            img,
            &text,
            (x, y),
            Ink::new(size, false, palette::COORDINATE),
        );
    };
    for f in 0..files {
        let at = layout.to_px([f as f32 + 0.5, 0.5]);
        label(((b'a' + f) as char).to_string(), at, files_across);
    }
    for r in 0..ranks {
        let at = layout.to_px([0.5, r as f32 + 0.5]);
        label((r as u32 + 1).to_string(), at, !files_across);
    }
}

/// A view's own words on the grid (Betza's board letters and per-board coordinates), centred
/// on their squares.
fn draw_labels(img: &mut RgbImage, layout: &Layout, labels: &[BoardLabel]) {
    for label in labels {
        let at = layout.to_px([label.at.0 as f32 + 0.5, label.at.1 as f32 + 0.5]);
        let (size, colour) = if label.strong {
            ((layout.scale * 0.6) as u32, palette::CAPTION)
        } else {
            ((layout.scale * 0.42) as u32, palette::COORDINATE)
        };
        text::draw_centred(
            img,
            &label.text,
            at,
            Ink::new(size.max(10), label.strong, colour),
        );
    }
}

/// Dashed bars with outward arrows along edges that wrap round to the opposite edge.
fn draw_wrap_hints(img: &mut RgbImage, board: &Board, layout: &Layout) {
    let Some((files, ranks)) = board.grid_size() else {
        return;
    };
    let (w, h) = (files as f32, ranks as f32);
    let mut edges: Vec<([f32; 2], [f32; 2], [f32; 2])> = Vec::new();
    if board.wrap().files() {
        edges.push(([0.0, 0.0], [0.0, h], [-1.0, 0.0]));
        edges.push(([w, 0.0], [w, h], [1.0, 0.0]));
    }
    // Ranks alone wrap too: the cylinder of the side players on a four-player board.
    if board.wrap().ranks() {
        edges.push(([0.0, 0.0], [w, 0.0], [0.0, -1.0]));
        edges.push(([0.0, h], [w, h], [0.0, 1.0]));
    }
    for (a, b, out) in edges {
        let (pa, pb) = (layout.to_px(a), layout.to_px(b));
        let (ox, oy) = layout.direction(out);
        let len = (pb.0 - pa.0).hypot(pb.1 - pa.1);
        let (ux, uy) = ((pb.0 - pa.0) / len, (pb.1 - pa.1) / len);
        // Dashes 4 px outside the edge.
        let mut t = 0.0;
        while t < len {
            let seg = (len - t).min(10.0);
            for k in 0..(seg as i32) {
                for thick in 3..7 {
                    let x = pa.0 + ux * (t + k as f32) + ox * thick as f32;
                    let y = pa.1 + uy * (t + k as f32) + oy * thick as f32;
                    if x >= 0.0 && y >= 0.0 && (x as u32) < img.width() && (y as u32) < img.height()
                    {
                        img.put_pixel(x as u32, y as u32, palette::rgb(palette::WRAP_HINT));
                    }
                }
            }
            t += 16.0;
        }
        // An arrowhead at the middle, pointing off the edge.
        let (mx, my) = (
            (pa.0 + pb.0) / 2.0 + ox * 9.0,
            (pa.1 + pb.1) / 2.0 + oy * 9.0,
        );
        let tip = imageproc::point::Point::new((mx + ox * 9.0) as i32, (my + oy * 9.0) as i32);
        let l = imageproc::point::Point::new((mx + ux * 7.0) as i32, (my + uy * 7.0) as i32);
        let r = imageproc::point::Point::new((mx - ux * 7.0) as i32, (my - uy * 7.0) as i32);
        if tip != l && l != r {
            imageproc::drawing::draw_polygon_mut(
                img,
                &[tip, l, r],
                palette::rgb(palette::WRAP_HINT),
            );
        }
    }
}

/// Draws a figure in its cell; gives the box its pixels cover (left, top, right, bottom).
fn draw_figure(img: &mut RgbImage, layout: &Layout, placed: &Placed, view: &View) -> [f32; 4] {
    let mut bounds = Bounds::default();
    let (cx, cy) = layout.figure_centre(placed.cell);
    let cell = layout.figure_px;
    let army = view.colour_of(placed.army);
    let mut top_colour = palette::army(army).fill;
    // Where a number is written (its centre and text size): the middle of the checker.
    let mut number_at = ((cx, cy), cell * 0.34);
    match &placed.figure {
        // A dead piece is greyed: it plays no more and is part of the board.
        Figure::Chess(role) if placed.markers.contains(&Marker::Dead) => bounds.add(
            sprite::sprite(Kind::Chess(*role), army, (cell * 0.9) as u32).draw_centred_faded(
                img,
                (cx, cy),
                palette::DEAD,
                0.6,
            ),
        ),
        Figure::Chess(role) => bounds.add(
            sprite::sprite(Kind::Chess(*role), army, (cell * 0.9) as u32).draw_centred(img, cx, cy),
        ),
        Figure::Man => bounds
            .add(sprite::sprite(Kind::Man, army, (cell * 0.84) as u32).draw_centred(img, cx, cy)),
        Figure::CheckersKing if placed.number.is_some() => {
            // The number keeps the middle clear of the crown: a smaller crown stands above it.
            bounds.add(
                sprite::sprite(Kind::Man, army, (cell * 0.84) as u32).draw_centred(img, cx, cy),
            );
            bounds.add(
                sprite::sprite(Kind::Crown, 0, (cell * 0.3) as u32).draw_centred(
                    img,
                    cx,
                    cy - cell * 0.17,
                ),
            );
            number_at = ((cx, cy + cell * 0.11), cell * 0.26);
        }
        Figure::CheckersKing => bounds
            .add(sprite::sprite(Kind::King, army, (cell * 0.84) as u32).draw_centred(img, cx, cy)),
        Figure::Stack(layers) => {
            let width = (cell * 0.78) as u32;
            let disc_h = sprite::disc_height(width) as f32;
            let n = layers.len().max(1) as f32;
            // Each checker shows its edge; tall stacks squeeze to stay inside the cell.
            let step = (disc_h * 0.42).min((cell * 0.8 - disc_h) / (n - 1.0).max(1.0));
            let height = disc_h + step * (n - 1.0);
            for (i, layer) in layers.iter().enumerate() {
                let y = cy + height / 2.0 - disc_h / 2.0 - step * i as f32;
                bounds.add(
                    sprite::sprite(
                        Kind::Disc { king: layer.king },
                        view.colour_of(layer.army),
                        width,
                    )
                    .draw_centred(img, cx, y),
                );
            }
            if let Some(top) = layers.last() {
                top_colour = palette::army(view.colour_of(top.army)).fill;
            }
            // A stack's number goes on its top checker's face, as large as the face allows.
            let (face_y, face_h) = sprite::disc_face(width);
            number_at = ((cx, cy - height / 2.0 + face_y), face_h * 1.25);
            if layers.len() > 1 {
                let badge = (cell * 0.3) as u32;
                let (bx, by) = (cx + cell * 0.3, cy + cell * 0.3);
                bounds.add(sprite::sprite(Kind::Tar, 0, badge).draw_centred(img, bx, by));
                bounds.add(text::draw_centred(
                    img,
                    &layers.len().to_string(),
                    (bx, by),
                    Ink::new(badge * 2 / 3, true, palette::PAPER),
                ));
            }
        }
    }
    if let Some(n) = placed.number {
        // Dark or light after the checker it is written on, ringed in the other.
        let ink = palette::ink_on(top_colour);
        let (at, size) = number_at;
        bounds.add(text::draw_centred_outlined(
            img,
            &n.to_string(),
            at,
            Ink::new(size as u32, true, ink),
            palette::ink_on(ink),
        ));
    }
    let marker = (cell * 0.32) as u32;
    let corner = cell * 0.33;
    for m in &placed.markers {
        match m {
            Marker::ZombieCoin => {
                bounds.add(sprite::sprite(Kind::ZombieCoin, 0, marker).draw_centred(
                    img,
                    cx - corner,
                    cy - corner,
                ))
            }
            Marker::Checker(owner) => bounds.add(
                sprite::sprite(Kind::Token, view.colour_of(*owner), marker).draw_centred(
                    img,
                    cx - corner,
                    cy + corner,
                ),
            ),
            Marker::MirrorSide => bounds.add(sprite::sprite(Kind::Mirror, 0, marker).draw_centred(
                img,
                cx + corner,
                cy + corner,
            )),
            // Drawn with the figure itself.
            Marker::Dead => {}
            Marker::Adrenaline(count) => {
                let (bx, by) = (cx + corner, cy - corner);
                bounds.add(sprite::sprite(Kind::Badge, 0, marker).draw_centred(img, bx, by));
                bounds.add(text::draw_centred(
                    img,
                    &count.to_string(),
                    (bx, by),
                    Ink::new(marker * 2 / 3, true, palette::PAPER),
                ));
            }
        }
    }
    bounds.0
}

/// The box (left, top, right, bottom) around boxes added to it; empty, it is inside out.
struct Bounds([f32; 4]);

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds([f32::MAX, f32::MAX, f32::MIN, f32::MIN])
    }
}

impl Bounds {
    fn add(&mut self, [left, top, right, bottom]: [f32; 4]) {
        if left < right && top < bottom {
            let b = &mut self.0;
            *b = [
                b[0].min(left),
                b[1].min(top),
                b[2].max(right),
                b[3].max(bottom),
            ];
        }
    }
}

/// One player's entry in the caption: the player, the army whose colour marks it, the name
/// and what follows the name (side and standing).
type Entry = (Seat, Seat, String, String);

/// Room each entry takes besides its text: the marker for the one to act, the army's man and
/// the gap after it.
const ENTRY_FIXED_PX: f32 = 42.0;
/// The widest a name is drawn; longer names are cut there, and still read.
const NAME_MAX_PX: f32 = 190.0;
/// The height of each further line of the caption's players.
const CAPTION_LINE_PX: u32 = 22;

/// How the caption is set: its entries, their text size, and which entries go on each line.
struct Caption {
    entries: Vec<Entry>,
    size: u32,
    lines: Vec<Vec<usize>>,
}

impl Caption {
    /// How much taller than one line of players the caption is.
    fn extra_px(&self) -> u32 {
        self.lines.len().saturating_sub(1) as u32 * CAPTION_LINE_PX
    }
}

/// Who sits where: one entry per player, or per player and army where the game says.
fn caption_entries(view: &View) -> Vec<Entry> {
    if view.table.is_empty() {
        (0..view.players.len())
            .map(|i| {
                (
                    Seat(i as u8),
                    Seat(i as u8),
                    view.players[i].clone(),
                    String::new(),
                )
            })
            .collect()
    } else {
        view.table
            .iter()
            .map(|line| {
                let name = view
                    .players
                    .get(line.player.index())
                    .cloned()
                    .unwrap_or_default();
                let suffix = match &line.status {
                    Some(status) => format!(" ({}, {status})", line.side),
                    None => format!(" ({})", line.side),
                };
                (line.player, line.army, name, suffix)
            })
            .collect()
    }
}

/// Sets the caption for an image `width` wide: every player on one line if they fit with
/// slightly smaller text; else over as many lines as it takes, so that every player keeps a
/// place and a readable name however many play.
fn plan_caption(view: &View, width: u32) -> Caption {
    let entries = caption_entries(view);
    let room = width as f32 - 18.0;
    let entry_width = |entry: &Entry, size: u32| {
        let bold = view.to_act.contains(&entry.0);
        ENTRY_FIXED_PX
            + text::width(&entry.2, size, bold).min(NAME_MAX_PX)
            + text::width(&entry.3, size, bold)
    };
    let one_line = |size: u32| entries.iter().map(|e| entry_width(e, size)).sum::<f32>() <= room;
    if let Some(size) = [15, 14, 13, 12].into_iter().find(|&s| one_line(s)) {
        let lines = vec![(0..entries.len()).collect()];
        return Caption {
            entries,
            size,
            lines,
        };
    }
    let size = 14;
    let mut lines: Vec<Vec<usize>> = Vec::new();
    let mut used = 0.0;
    for (i, entry) in entries.iter().enumerate() {
        let w = entry_width(entry, size);
        if lines.is_empty() || used + w > room {
            lines.push(Vec::new());
            used = 0.0;
        }
        used += w;
        if let Some(line) = lines.last_mut() {
            line.push(i);
        }
    }
    Caption {
        entries,
        size,
        lines,
    }
}

/// Players (each with their army's colour, the ones to act marked) and the state of play.
fn draw_caption(img: &mut RgbImage, layout: &Layout, view: &View, caption: &Caption) {
    let max_x = layout.width as f32 - 8.0;
    let size = caption.size;
    let mut baseline = 20.0;
    for (n, line) in caption.lines.iter().enumerate() {
        if n > 0 {
            baseline += CAPTION_LINE_PX as f32;
        }
        let mut x = 10.0;
        for &i in line {
            let (seat, army, name, suffix) = &caption.entries[i];
            let (seat, army) = (*seat, *army);
            let acting = view.to_act.contains(&seat);
            if acting {
                text::draw(
                    img,
                    "▶",
                    (x, baseline),
                    Ink::new(13, false, palette::GOLD),
                    max_x,
                );
            }
            x += 16.0;
            sprite::sprite(Kind::Man, view.colour_of(army), 16).draw_centred(
                img,
                x,
                baseline - 5.0,
            );
            x += 12.0;
            let ink = Ink::new(size, acting, palette::CAPTION);
            // A name too long to read whole is cut; the side after it never is, as it tells
            // two players of one colour apart.
            let name_end = (x + NAME_MAX_PX).min(max_x - text::width(suffix, size, acting));
            x = text::draw(img, name, (x, baseline), ink, name_end);
            x = text::draw(img, suffix, (x, baseline), ink, max_x) + 14.0;
        }
    }
    let status = format!("{}  ·  move {}", view.status, view.move_number);
    text::draw(
        img,
        &status,
        (10.0, baseline + 20.0),
        Ink::new(14, false, palette::COORDINATE),
        max_x,
    );
}

#[cfg(test)]
mod caption_tests {
    use super::*;

    /// Eight players' entries are set whole, each once, over lines that each fit the picture.
    #[test]
    fn eight_players_keep_their_whole_names_over_several_lines() {
        let betza = engine::registry::variant("betza").unwrap();
        let state = betza.setup(&engine::game::Options::new(), 8, 0).unwrap();
        let mut view = betza.view(&state, engine::view::Viewer::Spectator).unwrap();
        view.players = (1..=8).map(|i| format!("player number {i}")).collect();
        let width = prepared(&view).layout.width;
        let caption = plan_caption(&view, width);
        assert!(caption.lines.len() > 1, "{:?}", caption.lines);
        assert_eq!(caption.lines.concat(), (0..8).collect::<Vec<usize>>());
        for line in &caption.lines {
            let used: f32 = line
                .iter()
                .map(|&i| {
                    let (seat, _, name, suffix) = &caption.entries[i];
                    let bold = view.to_act.contains(seat);
                    let name = text::width(name, caption.size, bold);
                    assert!(name <= NAME_MAX_PX, "entry {i}'s name is cut");
                    ENTRY_FIXED_PX + name + text::width(suffix, caption.size, bold)
                })
                .sum();
            assert!(used <= width as f32 - 18.0, "{line:?} is {used} wide");
        }
    }
}

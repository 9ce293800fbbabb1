//! A palette fixed for every board drawn over one prepared background with one set of looks,
//! lila-gif's way: the palette is chosen once, the background is turned into palette indices
//! once, and a render only looks up the pixels drawn over the background.
//!
//! A scene's palette is chosen from every shade its boards can hold: the background's, the
//! background's under each tint (last move, check, shadow), each look of figure drawn over every
//! cell shade (plain and tinted) with each digit a number on it can show and with the scene's
//! markers, and text (the caption's, and counts on badges) at every coverage. A look leaves
//! out what changes move by move (the number on a checker, an Adrenaline count, the height of
//! a stack, which of an army's pieces are left), so a game keeps its scene; and the palette
//! depends only on the prepared board and the set of looks, never on which board of a game
//! was drawn first. A shade no scene foresaw (a few pixels where two glyphs meet) is drawn as
//! its nearest palette colour.
//!
//! A scene also parses its background's indices into back-references once (`deflate`), so
//! that a board whose rows do not repeat (triangles, hexagons) is compressed by saying those
//! again wherever nothing was drawn over them and searching only where something was. A board
//! of squares, whose rows mostly repeat, is compressed faster by zlib's fastest level with each
//! row stored against the row above, when that is foreseen within the budget.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use engine::chess::{Role, Seat};
use engine::view::{Figure, Layer, Marker, Placed, View};
use image::RgbImage;

use crate::deflate;
use crate::indexed::{self, packed, unpacked};
use crate::palette::{self, Rgb8};
use crate::sprite::{self, Kind};
use crate::{
    cell_colour, draw_figure, Prepared, CHECK_TINT, LAST_MOVE_RING, LAST_MOVE_TINT, SHADE_TINT,
};

/// The tints drawn over whole cells (`compose`).
const TINTS: [(Rgb8, f32); 3] = [LAST_MOVE_TINT, CHECK_TINT, SHADE_TINT];

/// What a board draws, as its scene foresees it. A look leaves out what changes move by move
/// (a number, a count, a stack's height, which of an army's pieces are still on the board), so
/// that a game keeps its scene.
#[derive(Clone, Debug, PartialEq)]
enum Look {
    /// A piece or checker (not a stack) in an army's colour, alive or greyed dead, and whether
    /// numbers are written on it. An army with one chess piece has the look of all six; one
    /// with a man or a crowned man, of both.
    Figure {
        colour: usize,
        figure: Figure,
        dead: bool,
        numbered: bool,
    },
    /// A marker beside figures, foreseen beside each of them.
    Marker(MarkerLook),
    /// A checker in a stack, crowned or not (both are foreseen): a scene foresees each two
    /// checkers one over the other, and numbers on top.
    Layer { colour: usize, numbered: bool },
    /// An army's marker in the caption.
    Army(usize),
}

/// A marker as drawn, its count left out.
#[derive(Clone, Copy, Debug, PartialEq)]
enum MarkerLook {
    ZombieCoin,
    Checker(usize),
    MirrorSide,
    Adrenaline,
}

/// The looks of a board: its figures', their markers' and its caption's, each once.
fn looks(view: &View, caption_armies: &[usize]) -> Vec<Look> {
    let mut looks: Vec<Look> = Vec::new();
    let mut add = |look: Look| {
        if !looks.contains(&look) {
            looks.push(look);
        }
    };
    for placed in &view.figures {
        let numbered = placed.number.is_some();
        let colour = view.colour_of(placed.army);
        match &placed.figure {
            Figure::Stack(layers) => {
                for layer in layers {
                    add(Look::Layer {
                        colour: view.colour_of(layer.army),
                        numbered,
                    });
                }
            }
            figure => {
                let dead = placed.markers.contains(&Marker::Dead);
                let kin: Vec<Figure> = match figure {
                    Figure::Chess(_) => Role::ALL.iter().map(|&r| Figure::Chess(r)).collect(),
                    Figure::Man | Figure::CheckersKing => {
                        vec![Figure::Man, Figure::CheckersKing]
                    }
                    other => vec![other.clone()],
                };
                for figure in kin {
                    add(Look::Figure {
                        colour,
                        figure,
                        dead,
                        numbered,
                    });
                }
            }
        }
        for marker in &placed.markers {
            let look = match *marker {
                Marker::ZombieCoin => MarkerLook::ZombieCoin,
                Marker::Checker(owner) => MarkerLook::Checker(view.colour_of(owner)),
                Marker::MirrorSide => MarkerLook::MirrorSide,
                Marker::Adrenaline(_) => MarkerLook::Adrenaline,
                Marker::Dead => continue,
            };
            add(Look::Marker(look));
        }
    }
    for &colour in caption_armies {
        add(Look::Army(colour));
    }
    // In one order whatever the view's, so that what a scene measures on a board full of
    // its figures never depends on the board that chose it.
    looks.sort_by_cached_key(|look| format!("{look:?}"));
    looks
}

fn same_set(a: &[Look], b: &[Look]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x))
}

/// The fixed palette of the boards drawn over one prepared background with one set of looks.
pub(crate) struct Scene {
    looks: Vec<Look>,
    colours: Vec<Rgb8>,
    table: ColourTable,
    /// The prepared background's indices as PNG scanlines (each row after its filter byte).
    scanlines: Vec<u8>,
    /// The background's scanlines parsed into back-references once, for every board drawn
    /// over it to reuse.
    hints: deflate::Hints,
    /// For a background whose rows mostly repeat the row above (a board of squares), what
    /// zlib's fastest level weighs with the rows stored against the row above: the background
    /// alone, and what each figure adds (measured on a board full of the scene's figures).
    /// Such a board is compressed that way when it is foreseen within the budget.
    repeating: Option<(usize, f32)>,
    /// A row of the colour around the board.
    backdrop_row: Backdrop,
    /// Boxes figures were drawn in, found by a hash of their colours, with their indices.
    figure_boxes: Mutex<FigureBoxes>,
}

/// How many scenes a prepared board keeps, the least recently used given up first.
const SCENES_KEPT: usize = 16;

impl Prepared {
    /// The scene of `view`'s looks (and its caption's armies) over this prepared board,
    /// chosen once. It is chosen outside the lock, so boards of known scenes never wait for it.
    pub(crate) fn scene(&self, view: &View, caption_armies: &[usize]) -> Arc<Scene> {
        let looks = looks(view, caption_armies);
        let find = |scenes: &mut Vec<Arc<Scene>>| {
            let at = scenes.iter().position(|s| same_set(&s.looks, &looks))?;
            // The most recently used last.
            let scene = scenes.remove(at);
            scenes.push(scene.clone());
            Some(scene)
        };
        if let Some(scene) = find(&mut self.lock_scenes()) {
            return scene;
        }
        let scene = Arc::new(Scene::new(self, view, looks.clone()));
        let mut scenes = self.lock_scenes();
        if let Some(known) = find(&mut scenes) {
            // Another board of the same looks chose it meanwhile: the same palette.
            return known;
        }
        if scenes.len() >= SCENES_KEPT {
            scenes.remove(0);
        }
        scenes.push(scene.clone());
        scene
    }

    /// Forgets the figure boxes every scene of this board met.
    pub(crate) fn forget_figure_boxes(&self) {
        for scene in self.lock_scenes().iter() {
            scene.lock_figure_boxes().forget();
        }
    }

    fn lock_scenes(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Scene>>> {
        self.scenes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Scene {
    fn new(prepared: &Prepared, view: &View, looks: Vec<Look>) -> Scene {
        // Drawn in a copy of the view whose armies are their colours, so that each look is
        // drawn by its colour alone.
        let mut canon = view.clone();
        canon.colours.clear();
        let shades = foreseen_shades(prepared, &canon, &looks);
        let (colours, index_of) = indexed::choose(&shades);
        let mut table = ColourTable::with_capacity(shades.len());
        for (&(colour, _), &index) in shades.iter().zip(&index_of) {
            table.insert(packed(&colour), index);
        }
        let mut misses = HashMap::new();
        let mut index = |colour: u32| lookup(&table, &colours, colour, &mut misses);
        let backdrop = index(packed(&palette::BACKGROUND));
        let (width, height) = prepared.background.dimensions();
        let mut scanlines = Vec::with_capacity((width as usize + 1) * height as usize);
        for row in prepared.background.rows() {
            scanlines.push(0);
            scanlines.extend(row.map(|p| index(packed(&p.0))));
        }
        let hints = deflate::Hints::of(&scanlines);
        let rows: Vec<&[u8]> = scanlines.chunks_exact(width as usize + 1).collect();
        let repeated = rows.windows(2).filter(|pair| pair[0] == pair[1]).count();
        let repeating = (2 * repeated >= rows.len()).then(|| {
            let weight = |scanlines: Vec<u8>| {
                indexed::fastest((width, height), scanlines, &colours)
                    .map_or(usize::MAX, |png| png.len())
            };
            let bare = weight(scanlines.clone());
            // A board with one of the scene's figures on every cell, in turn.
            let mut full = prepared.background.clone();
            let board = &canon.board;
            let figures: Vec<Placed> = looks
                .iter()
                .filter_map(|look| forms(look, &[], engine::board::Cell(0)).into_iter().next())
                .collect();
            for (cell, figure) in board.cells().zip(figures.iter().cycle()) {
                let placed = Placed {
                    cell,
                    ..figure.clone()
                };
                draw_figure(&mut full, &prepared.layout, &placed, &canon);
            }
            let mut full_scanlines = Vec::with_capacity(scanlines.len());
            for row in full.rows() {
                full_scanlines.push(0);
                full_scanlines.extend(row.map(|p| index(packed(&p.0))));
            }
            let cells = if figures.is_empty() { 0 } else { board.len() };
            let each = weight(full_scanlines).saturating_sub(bare) as f32 / cells.max(1) as f32;
            (bare, each)
        });
        Scene {
            looks,
            colours,
            table,
            scanlines,
            hints,
            repeating,
            backdrop_row: Backdrop {
                rgb: palette::BACKGROUND.repeat(width as usize),
                indices: vec![backdrop; width as usize],
            },
            figure_boxes: Mutex::new(FigureBoxes::default()),
        }
    }

    fn lock_figure_boxes(&self) -> std::sync::MutexGuard<'_, FigureBoxes> {
        self.figure_boxes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `img`, a board of this scene with `figures` figures drawn over `background` where
    /// `drawn` says, as a PNG, compressed the fastest way foreseen within the budget: a board
    /// of squares, whose rows mostly repeat, at zlib's fastest level with each row stored
    /// against the row above; any other reusing the parse of its background (`deflate`); a
    /// board too heavy for that (none of the registry's) by zlib at level 4, then 6.
    pub(crate) fn png(
        &self,
        img: &RgbImage,
        background: &RgbImage,
        drawn: &DrawnOver,
        figures: usize,
    ) -> Result<Vec<u8>, crate::RenderError> {
        let size = img.dimensions();
        if size.0 == 0 || size.1 == 0 {
            // No PNG has no pixels: zlib's writer says so.
            return indexed::encode_indices(size, &[], &self.colours, indexed::TIGHT);
        }
        if let Some((bare, each)) = self.repeating {
            // With a twentieth to spare: a way tried in vain costs its time as well.
            if bare as f32 + figures as f32 * each <= indexed::PNG_BUDGET as f32 * 0.95 {
                let scanlines = self.scanlines_of(img, background, drawn);
                let png = indexed::fastest(size, scanlines, &self.colours)?;
                if png.len() <= indexed::PNG_BUDGET {
                    return Ok(png);
                }
            }
        }
        let scanlines = self.scanlines_of(img, background, drawn);
        let png = self.reusing_png(size, &scanlines, drawn);
        if png.len() <= indexed::PNG_BUDGET {
            return Ok(png);
        }
        let indices: Vec<u8> = scanlines
            .chunks_exact(size.0 as usize + 1)
            .flat_map(|row| &row[1..])
            .copied()
            .collect();
        indexed::encode_indices(size, &indices, &self.colours, indexed::TIGHT)
    }

    /// The board, as PNG scanlines of palette indices, as a PNG compressed reusing the parse
    /// of the background, whatever it weighs.
    fn reusing_png(
        &self,
        (width, height): (u32, u32),
        scanlines: &[u8],
        drawn: &DrawnOver,
    ) -> Vec<u8> {
        let stride = width as usize + 1;
        debug_assert_eq!(scanlines.len(), stride * height as usize);
        let zlib = deflate::zlib(
            scanlines,
            stride,
            &self.scanlines,
            drawn.extra as usize * stride,
            &self.hints,
            &drawn.changed(),
        );
        indexed::png_of_scanlines((width, height), &self.colours, &zlib)
    }

    /// `img`, a board of this scene drawn over `background` where `drawn` says, as palette
    /// indices. Each pixel's index depends on its colour alone, so: where nothing was drawn,
    /// the background's indices are taken as they are; a box (a figure's, a tinted cell's)
    /// the same as one met before takes that box's indices; elsewhere a run of eight pixels
    /// the same as the background's takes the background's, and only the pixels drawn over
    /// are looked up.
    #[cfg(test)]
    pub(crate) fn indices(
        &self,
        img: &RgbImage,
        background: &RgbImage,
        drawn: &DrawnOver,
    ) -> Vec<u8> {
        self.indices_after(img, background, drawn, 0)
    }

    /// The same indices as PNG scanlines: each row after its filter byte (0, none).
    fn scanlines_of(&self, img: &RgbImage, background: &RgbImage, drawn: &DrawnOver) -> Vec<u8> {
        self.indices_after(img, background, drawn, 1)
    }

    /// The indices, each row after `lead` zero bytes.
    fn indices_after(
        &self,
        img: &RgbImage,
        background: &RgbImage,
        drawn: &DrawnOver,
        lead: usize,
    ) -> Vec<u8> {
        debug_assert_eq!(img.width(), background.width());
        debug_assert_eq!(img.height(), background.height() + drawn.extra);
        debug_assert_eq!(
            self.scanlines.len(),
            background.pixels().len() + background.height() as usize
        );
        let width = img.width() as usize;
        let line = width + lead;
        let mut out = vec![0u8; line * img.height() as usize];
        let mut mapper = Mapper {
            scene: self,
            misses: HashMap::new(),
            last: (u32::MAX, 0),
        };
        for (y, out_row) in out.chunks_exact_mut(line.max(1)).enumerate() {
            let out_row = &mut out_row[lead..];
            let under = self.background_row(background, drawn.extra, y);
            out_row.copy_from_slice(under.1);
            let (x0, x1) = drawn.spans[y];
            if x0 < x1 {
                mapper.map(img, under, y, x0 as usize..x1 as usize, out_row);
            }
        }
        // The boxes met before, found under the lock; compared and copied outside it.
        let stride = width * 3;
        let boxes: Vec<([usize; 4], u64)> = drawn
            .boxes
            .iter()
            .filter(|r| r[0] < r[2] && r[1] < r[3])
            .map(|r| {
                let r = r.map(|v| v as usize);
                (r, box_hash(box_rows(img, r), r[2] - r[0]))
            })
            .collect();
        let met: Vec<Option<Arc<FigureBox>>> = {
            let mut figure_boxes = self.lock_figure_boxes();
            let known = figure_boxes.current();
            boxes
                .iter()
                .map(|(_, key)| known.get(key).cloned())
                .collect()
        };
        let mut met_now = Vec::new();
        for ((rect, key), known) in boxes.into_iter().zip(met) {
            let [x0, y0, x1, y1] = rect;
            if let Some(known) = known {
                if known.width == x1 - x0
                    && known
                        .rgb
                        .chunks_exact(known.width * 3)
                        .eq(box_rows(img, rect))
                {
                    for (y, indices) in (y0..).zip(known.indices.chunks_exact(known.width)) {
                        out[y * line + lead + x0..y * line + lead + x1].copy_from_slice(indices);
                    }
                    continue;
                }
            }
            let mut figure_box = FigureBox {
                width: x1 - x0,
                rgb: Vec::with_capacity((x1 - x0) * (y1 - y0) * 3),
                indices: Vec::with_capacity((x1 - x0) * (y1 - y0)),
            };
            for y in y0..y1 {
                let out_row = &mut out[y * line + lead..(y + 1) * line];
                mapper.map(
                    img,
                    self.background_row(background, drawn.extra, y),
                    y,
                    x0..x1,
                    out_row,
                );
                figure_box
                    .rgb
                    .extend_from_slice(&img.as_raw()[y * stride + x0 * 3..y * stride + x1 * 3]);
                figure_box.indices.extend_from_slice(&out_row[x0..x1]);
            }
            met_now.push((key, Arc::new(figure_box)));
        }
        if !met_now.is_empty() {
            let mut figure_boxes = self.lock_figure_boxes();
            for (key, figure_box) in met_now {
                figure_boxes.insert(key, figure_box);
            }
        }
        out
    }

    /// Row `y` of the picture's background, as colours and as indices.
    fn background_row<'a>(
        &'a self,
        background: &'a RgbImage,
        extra: u32,
        y: usize,
    ) -> (&'a [u8], &'a [u8]) {
        let width = background.width() as usize;
        match (y as u32).checked_sub(extra) {
            Some(by) if by < background.height() => {
                let by = by as usize;
                (
                    &background.as_raw()[by * width * 3..(by + 1) * width * 3],
                    &self.scanlines[by * (width + 1) + 1..(by + 1) * (width + 1)],
                )
            }
            _ => (&self.backdrop_row.rgb, &self.backdrop_row.indices),
        }
    }
}

/// The palette index `colour` is drawn with: its own (or its nearest colour's, if the scene
/// foresaw it but found no place for it), from the table; for a shade the scene did not
/// foresee, its nearest colour's, found once per picture.
#[inline(always)]
fn lookup(table: &ColourTable, colours: &[Rgb8], colour: u32, misses: &mut HashMap<u32, u8>) -> u8 {
    match table.get(colour) {
        Some(index) => index,
        None => unforeseen(colours, colour, misses),
    }
}

#[cold]
fn unforeseen(colours: &[Rgb8], colour: u32, misses: &mut HashMap<u32, u8>) -> u8 {
    *misses
        .entry(colour)
        .or_insert_with(|| nearest(colours, unpacked(colour)))
}

/// A row of the colour around the board, for the rows a long caption adds above it.
struct Backdrop {
    rgb: Vec<u8>,
    indices: Vec<u8>,
}

/// How many bytes of figure boxes all scenes keep together (a few hundred boards' worth of
/// boxes); past that, a new round starts, and each scene forgets its boxes the next time it
/// is used.
const BOX_BYTES_KEPT: usize = 32 << 20;
/// The bytes of figure boxes kept, all scenes together.
static BOX_BYTES: AtomicUsize = AtomicUsize::new(0);
/// The round of figure boxes: a scene's boxes of an earlier round are forgotten.
static BOX_ROUND: AtomicUsize = AtomicUsize::new(0);

/// The figure boxes a scene met, by the hash of their colours.
#[derive(Default)]
struct FigureBoxes {
    boxes: HashMap<u64, Arc<FigureBox>>,
    bytes: usize,
    round: usize,
}

impl FigureBoxes {
    /// The boxes, forgotten first if a new round started.
    fn current(&mut self) -> &HashMap<u64, Arc<FigureBox>> {
        let round = BOX_ROUND.load(Ordering::Relaxed);
        if self.round != round {
            self.forget();
            self.round = round;
        }
        &self.boxes
    }

    fn forget(&mut self) {
        BOX_BYTES.fetch_sub(self.bytes, Ordering::Relaxed);
        self.boxes.clear();
        self.bytes = 0;
    }

    fn insert(&mut self, key: u64, figure_box: Arc<FigureBox>) {
        self.current();
        let bytes = figure_box.bytes();
        if BOX_BYTES.load(Ordering::Relaxed) + bytes > BOX_BYTES_KEPT {
            self.round = BOX_ROUND.fetch_add(1, Ordering::Relaxed) + 1;
            self.forget();
        }
        BOX_BYTES.fetch_add(bytes, Ordering::Relaxed);
        self.bytes += bytes;
        if let Some(old) = self.boxes.insert(key, figure_box) {
            BOX_BYTES.fetch_sub(old.bytes(), Ordering::Relaxed);
            self.bytes -= old.bytes();
        }
    }
}

impl Drop for FigureBoxes {
    fn drop(&mut self) {
        self.forget();
    }
}

/// The colours of a box a figure was drawn in, and their indices.
struct FigureBox {
    width: usize,
    rgb: Vec<u8>,
    indices: Vec<u8>,
}

impl FigureBox {
    fn bytes(&self) -> usize {
        self.rgb.len() + self.indices.len()
    }
}

/// The rows of colours of box `[left, top, right, bottom]` of `img`.
fn box_rows(img: &RgbImage, [x0, y0, x1, y1]: [usize; 4]) -> impl Iterator<Item = &[u8]> {
    let stride = img.width() as usize * 3;
    (y0..y1).map(move |y| &img.as_raw()[y * stride + x0 * 3..y * stride + x1 * 3])
}

/// A hash of a box's rows of colours, to find the same box again. Every other row is enough:
/// a box found is compared whole, and a box that differs only in the rows left out takes the
/// place of the one it was taken for. Four words are mixed at a time, each into its own lane.
fn box_hash<'a>(rows: impl Iterator<Item = &'a [u8]>, width: usize) -> u64 {
    const MIX: u64 = 0x517c_c1b7_2722_0a95;
    let mut lanes = [width as u64, 1, 2, 3];
    for row in rows.step_by(2) {
        let (quads, rest) = row.as_chunks::<32>();
        for quad in quads {
            let (words, _) = quad.as_chunks::<8>();
            for (lane, word) in lanes.iter_mut().zip(words) {
                *lane = (lane.rotate_left(5) ^ u64::from_le_bytes(*word)).wrapping_mul(MIX);
            }
        }
        for &b in rest {
            lanes[0] = (lanes[0].rotate_left(5) ^ u64::from(b)).wrapping_mul(MIX);
        }
    }
    lanes.iter().fold(0, |h: u64, &lane| {
        (h.rotate_left(5) ^ lane).wrapping_mul(MIX)
    })
}

/// Looks up the pixels drawn over, remembering the last colour and the unforeseen ones.
struct Mapper<'a> {
    scene: &'a Scene,
    misses: HashMap<u32, u8>,
    last: (u32, u8),
}

impl Mapper<'_> {
    /// The indices of the pixels `xs` of row `y` of `img`, over the background row given as
    /// colours and indices.
    fn map(
        &mut self,
        img: &RgbImage,
        (bg_rgb, bg_idx): (&[u8], &[u8]),
        y: usize,
        xs: std::ops::Range<usize>,
        out_row: &mut [u8],
    ) {
        let stride = img.width() as usize * 3;
        let row = &img.as_raw()[y * stride..(y + 1) * stride];
        let (x0, x1) = (xs.start, xs.end);
        let (runs, tail) = row[x0 * 3..x1 * 3].as_chunks::<24>();
        let (bg_runs, bg_tail) = bg_rgb[x0 * 3..x1 * 3].as_chunks::<24>();
        let (out_runs, out_tail) = out_row[x0..x1].as_chunks_mut::<8>();
        let (idx_runs, idx_tail) = bg_idx[x0..x1].as_chunks::<8>();
        for (((run, bg_run), out_run), idx_run) in
            runs.iter().zip(bg_runs).zip(out_runs).zip(idx_runs)
        {
            if run == bg_run {
                *out_run = *idx_run;
                continue;
            }
            if run[..21] == run[3..] {
                // Eight pixels of one colour (a tinted cell's inside): one index.
                let p = [run[0], run[1], run[2]];
                let bg = [bg_run[0], bg_run[1], bg_run[2]];
                *out_run = [self.pixel(p, bg, idx_run[0]); 8];
                continue;
            }
            for i in 0..8 {
                let p = [run[i * 3], run[i * 3 + 1], run[i * 3 + 2]];
                let bg = [bg_run[i * 3], bg_run[i * 3 + 1], bg_run[i * 3 + 2]];
                out_run[i] = self.pixel(p, bg, idx_run[i]);
            }
        }
        for (i, out) in out_tail.iter_mut().enumerate() {
            let p = [tail[i * 3], tail[i * 3 + 1], tail[i * 3 + 2]];
            let bg = [bg_tail[i * 3], bg_tail[i * 3 + 1], bg_tail[i * 3 + 2]];
            *out = self.pixel(p, bg, idx_tail[i]);
        }
    }

    #[inline(always)]
    fn pixel(&mut self, p: [u8; 3], bg: [u8; 3], bg_index: u8) -> u8 {
        if p == bg {
            return bg_index;
        }
        let colour = packed(&p);
        if colour != self.last.0 {
            self.last = (
                colour,
                lookup(
                    &self.scene.table,
                    &self.scene.colours,
                    colour,
                    &mut self.misses,
                ),
            );
        }
        self.last.1
    }
}

/// Where a picture was drawn over its prepared background: in each row, the columns from the
/// first to the last pixel that may differ from it.
pub(crate) struct DrawnOver {
    spans: Vec<(u32, u32)>,
    /// The boxes figures and tinted cells were drawn in (left, top, right, bottom), apart from
    /// the spans.
    boxes: Vec<[u32; 4]>,
    width: u32,
    /// How many rows lower than the prepared background the board is (under a caption of
    /// several lines); the rows above are the colour around the board.
    extra: u32,
    /// The colours of the armies the caption marks.
    caption_armies: Vec<usize>,
}

impl DrawnOver {
    pub(crate) fn new(
        width: u32,
        height: u32,
        extra: u32,
        caption_armies: Vec<usize>,
    ) -> DrawnOver {
        DrawnOver {
            spans: vec![(u32::MAX, 0); height as usize],
            boxes: Vec::new(),
            width,
            extra,
            caption_armies,
        }
    }

    pub(crate) fn caption_armies(&self) -> &[usize] {
        &self.caption_armies
    }

    /// Copies back from `background` every pixel of `img` this says was drawn over (for a
    /// picture as high as the background).
    pub(crate) fn restore(&self, img: &mut RgbImage, background: &RgbImage) {
        debug_assert_eq!((self.extra, img.dimensions()), (0, background.dimensions()));
        let stride = img.width() as usize * 3;
        let (to, from) = (&mut **img, background.as_raw());
        for (y, xs) in self.rows_drawn() {
            let range = y * stride + xs.start * 3..y * stride + xs.end * 3;
            to[range.clone()].copy_from_slice(&from[range]);
        }
    }

    /// Each row's columns drawn over: the spans, then each box's rows (boxes overlap where
    /// they overlap).
    fn rows_drawn(&self) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> + '_ {
        let spans = self
            .spans
            .iter()
            .enumerate()
            .map(|(y, &(x0, x1))| (y, x0, x1));
        let boxes = self
            .boxes
            .iter()
            .flat_map(|&[x0, y0, x1, y1]| (y0..y1).map(move |y| (y as usize, x0, x1)));
        spans
            .chain(boxes)
            .filter(|&(_, x0, x1)| x0 < x1)
            .map(|(y, x0, x1)| (y, x0 as usize..x1 as usize))
    }

    /// Where the picture's scanlines may differ from the background's: the rows above the
    /// background, the spans and the boxes ([`Scene::indices`] takes the background's
    /// indices everywhere else).
    fn changed(&self) -> deflate::Changed {
        let stride = self.width as usize + 1;
        let mut changed = deflate::Changed::new(stride * self.spans.len());
        changed.mark(0..self.extra as usize * stride);
        for (y, xs) in self.rows_drawn() {
            changed.mark(y * stride + 1 + xs.start..y * stride + 1 + xs.end);
        }
        changed
    }

    /// A rectangle (left, top, right, bottom) as whole pixels inside the picture.
    fn pixels(&self, left: f32, top: f32, right: f32, bottom: f32) -> [u32; 4] {
        let clamp = |v: f32, most: usize| (v.max(0.0) as usize).min(most) as u32;
        let (w, h) = (self.width as usize, self.spans.len());
        [
            clamp(left.floor(), w),
            clamp(top.floor(), h),
            clamp(right.ceil(), w),
            clamp(bottom.ceil(), h),
        ]
    }

    /// Marks the pixels of a box drawn in (left, top, right, bottom), a figure's or a tinted
    /// cell's: a box the same as one met before takes that box's indices.
    pub(crate) fn mark_box(&mut self, left: f32, top: f32, right: f32, bottom: f32) {
        let rect = self.pixels(left, top, right, bottom);
        self.boxes.push(rect);
    }

    /// Marks the pixels of a rectangle (left, top, right, bottom) as drawn over.
    pub(crate) fn mark(&mut self, left: f32, top: f32, right: f32, bottom: f32) {
        let [x0, y0, x1, y1] = self.pixels(left, top, right, bottom);
        for span in &mut self.spans[y0 as usize..y1.max(y0) as usize] {
            span.0 = span.0.min(x0);
            span.1 = span.1.max(x1);
        }
    }

    /// Marks the pixels of a polygon's bounding box (every pixel whose centre is inside it)
    /// as a box drawn in.
    pub(crate) fn mark_polygon(&mut self, points: &[(f32, f32)]) {
        let (mut left, mut top, mut right, mut bottom) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in points {
            (left, top, right, bottom) = (left.min(x), top.min(y), right.max(x), bottom.max(y));
        }
        self.mark_box(left - 0.5, top - 0.5, right + 0.5, bottom + 0.5);
    }
}

/// The index of the colour nearest `c` (the first of equally near ones).
fn nearest(colours: &[Rgb8], c: Rgb8) -> u8 {
    let distances: Vec<f32> = colours
        .iter()
        .map(|p| {
            (0..3)
                .map(|i| (f32::from(p[i]) - f32::from(c[i])).powi(2))
                .sum()
        })
        .collect();
    indexed::nearest_of(&distances).1 as u8
}

/// Every shade a board of the scene can hold, with a weight after how often it is seen
/// (`view`'s armies are their colours).
fn foreseen_shades(prepared: &Prepared, view: &View, looks: &[Look]) -> Vec<(Rgb8, u32)> {
    let mut counts: HashMap<Rgb8, u32> = HashMap::new();
    let background = &prepared.background;
    for p in background.pixels() {
        *counts.entry(p.0).or_default() += 1;
    }
    // The background under each tint, less often seen.
    let ring = |shade: Rgb8| {
        let shaded = palette::mix(shade, SHADE_TINT.0, SHADE_TINT.1);
        palette::mix(shaded, LAST_MOVE_RING.0, LAST_MOVE_RING.1)
    };
    let plain: Vec<(Rgb8, u32)> = counts.iter().map(|(&c, &n)| (c, n)).collect();
    for &(shade, n) in &plain {
        for (tint, t) in TINTS {
            *counts.entry(palette::mix(shade, tint, t)).or_default() += (n / 16).max(1);
        }
        *counts.entry(ring(shade)).or_default() += (n / 16).max(1);
    }
    // Every look of figure over every shade a cell can take.
    let board = &view.board;
    let mut unders = vec![palette::BACKGROUND];
    let mut cell_shades: Vec<Rgb8> = board.cells().map(|c| cell_colour(board, c)).collect();
    cell_shades.sort_unstable();
    cell_shades.dedup();
    for shade in cell_shades {
        unders.push(shade);
        unders.extend(TINTS.iter().map(|&(tint, t)| palette::mix(shade, tint, t)));
        unders.push(ring(shade));
    }
    if let Some(cell) = board.cells().next() {
        let layout = &prepared.layout;
        let (cx, cy) = layout.figure_centre(cell);
        let reach = layout.figure_px;
        let (w, h) = background.dimensions();
        let x0 = (cx - reach).max(0.0) as u32;
        let y0 = (cy - reach).max(0.0) as u32;
        let x1 = ((cx + reach).ceil() as u32).min(w);
        let y1 = ((cy + reach).ceil() as u32).min(h);
        for &under in &unders {
            let mut img = RgbImage::from_pixel(w, h, palette::rgb(under));
            for look in looks {
                // A look's forms (each digit, each checker under it) are counted as one: each
                // shade as often as the form that shows it most.
                let mut seen: HashMap<Rgb8, u32> = HashMap::new();
                for placed in forms(look, looks, cell) {
                    draw_figure(&mut img, layout, &placed, view);
                    let mut form: HashMap<Rgb8, u32> = HashMap::new();
                    for y in y0..y1 {
                        for x in x0..x1 {
                            let p = img.get_pixel_mut(x, y);
                            if p.0 != under {
                                *form.entry(p.0).or_default() += 1;
                                p.0 = under;
                            }
                        }
                    }
                    for (shade, n) in form {
                        let most = seen.entry(shade).or_default();
                        *most = (*most).max(n);
                    }
                }
                for (shade, n) in seen {
                    *counts.entry(shade).or_default() += n;
                }
            }
        }
    }
    // The caption: each army's marker and the text, over the backdrop.
    let mut marker = RgbImage::from_pixel(24, 24, palette::rgb(palette::BACKGROUND));
    for look in looks {
        if let Look::Army(colour) = *look {
            sprite::sprite(Kind::Man, colour, 16).draw_centred(&mut marker, 12.0, 12.0);
            for p in marker.pixels_mut() {
                if p.0 != palette::BACKGROUND {
                    *counts.entry(p.0).or_default() += 8;
                    p.0 = palette::BACKGROUND;
                }
            }
        }
    }
    // Text at every coverage: the caption's over the backdrop, and the counts of stacks and
    // of Adrenaline, whose numbers pass nine.
    let mut ramps = vec![
        (palette::BACKGROUND, palette::CAPTION),
        (palette::BACKGROUND, palette::GOLD),
        (palette::BACKGROUND, palette::COORDINATE),
    ];
    if looks.iter().any(|l| matches!(l, Look::Layer { .. })) {
        ramps.push((palette::TAR, palette::PAPER));
    }
    if looks.contains(&Look::Marker(MarkerLook::Adrenaline)) {
        ramps.push((palette::ADRENALINE, palette::PAPER));
    }
    for (under, ink) in ramps {
        for k in 0..=1024 {
            let shade = palette::mix(under, ink, k as f32 / 1024.0);
            *counts.entry(shade).or_default() += 1;
        }
    }
    let mut shades: Vec<(Rgb8, u32)> = counts.into_iter().collect();
    shades.sort_unstable();
    shades
}

/// The figures that show every shade of a look, on `cell` (armies standing for their
/// colours): its number as each digit, bare and with every marker of the scene beside it
/// (an Adrenaline count as each digit); a checker of a stack alone, crowned or not, and over
/// each checker of the scene's stacks.
fn forms(look: &Look, looks: &[Look], cell: engine::board::Cell) -> Vec<Placed> {
    let digits = |counted: bool| if counted { 0..=9 } else { 0..=0 };
    let markers: Vec<MarkerLook> = looks
        .iter()
        .filter_map(|look| match look {
            Look::Marker(marker) => Some(*marker),
            _ => None,
        })
        .collect();
    let layers: Vec<Layer> = looks
        .iter()
        .filter_map(|look| match *look {
            Look::Layer { colour, .. } => Some(Layer {
                army: Seat(colour as u8),
                king: false,
            }),
            _ => None,
        })
        .collect();
    match look {
        &Look::Figure {
            colour,
            ref figure,
            dead,
            numbered,
        } => {
            let counted = markers.contains(&MarkerLook::Adrenaline);
            let mut forms = Vec::new();
            for d in digits(numbered || counted) {
                for with_markers in [false, true] {
                    let mut drawn: Vec<Marker> = if with_markers {
                        markers
                            .iter()
                            .map(|m| match *m {
                                MarkerLook::ZombieCoin => Marker::ZombieCoin,
                                MarkerLook::Checker(c) => Marker::Checker(Seat(c as u8)),
                                MarkerLook::MirrorSide => Marker::MirrorSide,
                                MarkerLook::Adrenaline => Marker::Adrenaline(d),
                            })
                            .collect()
                    } else {
                        Vec::new()
                    };
                    if dead {
                        drawn.push(Marker::Dead);
                    }
                    forms.push(Placed {
                        cell,
                        army: Seat(colour as u8),
                        figure: figure.clone(),
                        number: numbered.then_some(d),
                        markers: drawn,
                    });
                }
            }
            forms
        }
        &Look::Layer { colour, numbered } => {
            let mut forms = Vec::new();
            for king in [false, true] {
                let top = Layer {
                    army: Seat(colour as u8),
                    king,
                };
                let stack = |layers: Vec<Layer>, number: Option<u8>| Placed {
                    cell,
                    army: top.army,
                    figure: Figure::Stack(layers),
                    number,
                    markers: Vec::new(),
                };
                forms.extend(digits(numbered).map(|d| stack(vec![top], numbered.then_some(d))));
                forms.extend(layers.iter().map(|&under| stack(vec![under, top], None)));
            }
            forms
        }
        Look::Marker(_) | Look::Army(_) => Vec::new(),
    }
}

/// Packed colours and their palette indices, in an open-addressing table built once: each
/// slot holds a colour above its index in one word.
struct ColourTable {
    slots: Vec<u32>,
    mask: usize,
    shift: u32,
    /// White's index, if it has one: white at index 255 would be the word that marks an empty
    /// slot.
    white: Option<u8>,
}

impl ColourTable {
    const EMPTY: u32 = u32::MAX;
    const WHITE: u32 = 0x00ff_ffff;

    fn with_capacity(n: usize) -> ColourTable {
        let size = (n * 2).next_power_of_two().max(16);
        ColourTable {
            slots: vec![ColourTable::EMPTY; size],
            mask: size - 1,
            shift: 32 - size.trailing_zeros(),
            white: None,
        }
    }

    #[inline(always)]
    fn home(&self, colour: u32) -> usize {
        // Fibonacci hashing: the top bits of the product, as many as the table has slots.
        (colour.wrapping_mul(0x9E37_79B9) >> self.shift) as usize
    }

    fn insert(&mut self, colour: u32, index: u8) {
        if colour == ColourTable::WHITE {
            self.white = Some(index);
            return;
        }
        let mut at = self.home(colour);
        while self.slots[at] != ColourTable::EMPTY {
            at = (at + 1) & self.mask;
        }
        self.slots[at] = colour << 8 | u32::from(index);
    }

    #[inline(always)]
    fn get(&self, colour: u32) -> Option<u8> {
        if colour == ColourTable::WHITE {
            return self.white;
        }
        let mut at = self.home(colour);
        loop {
            let slot = self.slots[at];
            if slot >> 8 == colour {
                return Some(slot as u8);
            }
            if slot == ColourTable::EMPTY {
                return None;
            }
            at = (at + 1) & self.mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::game::Options;
    use engine::registry;
    use engine::view::Viewer;

    fn start(variant: &str, seats: usize, viewer: Viewer) -> View {
        let game = registry::variant(variant).unwrap();
        let state = game.setup(&Options::new(), seats, 0).unwrap();
        game.view(&state, viewer).unwrap()
    }

    /// A scene chosen afresh (not taken from the cache) for `view`'s looks.
    fn scene_of(view: &View) -> Scene {
        let (_, prepared, drawn) = crate::compose(view, false);
        Scene::new(&prepared, view, looks(view, drawn.caption_armies()))
    }

    /// A scene's palette depends on its set of looks, not on where the figures stand nor in
    /// which order the view lists them: the start, and a later position with the same figures
    /// listed backwards, choose the same colours.
    #[test]
    fn the_palette_is_the_same_for_the_same_looks_wherever_they_stand() {
        let game = registry::variant("chess").unwrap();
        let mut state = game.setup(&Options::new(), 2, 0).unwrap();
        let before = game.view(&state, Viewer::Spectator).unwrap();
        for (seat, text) in [(0, "e4"), (1, "Nf6")] {
            game.play(&mut state, Seat(seat), text).unwrap();
        }
        let mut after = game.view(&state, Viewer::Spectator).unwrap();
        after.figures.reverse();
        assert_eq!(scene_of(&before).colours, scene_of(&after).colours);
    }

    /// The looks leave out what changes move by move: checkers numbered differently share
    /// a scene.
    #[test]
    fn numbers_on_figures_do_not_change_the_scene() {
        let mut view = start("chess", 2, Viewer::Spectator);
        for (n, placed) in view.figures.iter_mut().enumerate() {
            placed.number = Some(n as u8);
        }
        let mut renumbered = view.clone();
        for placed in &mut renumbered.figures {
            placed.number = placed.number.map(|n| n + 40);
        }
        assert!(same_set(&looks(&view, &[]), &looks(&renumbered, &[])));
        assert!(!same_set(
            &looks(&view, &[]),
            &looks(&start("chess", 2, Viewer::Spectator), &[])
        ));
    }

    /// The fast ways (the background's indices where nothing was drawn, runs the same as the
    /// background's, figure boxes met before) give each pixel exactly the index its colour
    /// looks up: every variant at every player count, at its start and forty random actions
    /// on, drawn twice (the second time from the boxes met the first).
    #[test]
    fn every_board_is_indexed_as_its_colours_look_up() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for game in registry::variants() {
            for &seats in game.info().seat_counts {
                let mut state = game.setup(&Options::new(), seats, 1).unwrap();
                for stage in 0..2 {
                    engine::playout::random_actions(*game, &mut state, 40 * stage, &mut rng)
                        .unwrap();
                    let view = game.view(&state, Viewer::Seat(Seat(0))).unwrap();
                    if !view.cards.is_empty() || view.panel.is_some() {
                        continue;
                    }
                    let (img, prepared, drawn) = crate::compose(&view, false);
                    let scene = prepared.scene(&view, drawn.caption_armies());
                    let mut misses = HashMap::new();
                    let expected: Vec<u8> = img
                        .pixels()
                        .map(|p| lookup(&scene.table, &scene.colours, packed(&p.0), &mut misses))
                        .collect();
                    for time in ["first", "second"] {
                        let indices = scene.indices(&img, &prepared.background, &drawn);
                        let wrong = indices
                            .iter()
                            .zip(&expected)
                            .filter(|(a, b)| a != b)
                            .count();
                        assert_eq!(
                            wrong,
                            0,
                            "{} {seats} stage {stage}, {time} time: {wrong} pixels",
                            game.info().id
                        );
                    }
                    // Compressed reusing the background's parse, every board within the
                    // budget and back exactly.
                    let indices = scene.indices(&img, &prepared.background, &drawn);
                    let scanlines = scene.scanlines_of(&img, &prepared.background, &drawn);
                    let png = scene.reusing_png(img.dimensions(), &scanlines, &drawn);
                    assert!(
                        png.len() <= indexed::PNG_BUDGET,
                        "{} {seats} stage {stage}: {} bytes",
                        game.info().id,
                        png.len()
                    );
                    assert_eq!(
                        decoded(png),
                        indices,
                        "{} {seats} stage {stage}",
                        game.info().id
                    );
                }
            }
        }
    }

    /// Every colour a scene's board is drawn with is its nearest palette colour.
    #[test]
    fn each_pixel_is_its_nearest_palette_colour() {
        let view = start("chess", 2, Viewer::Spectator);
        let (img, prepared, drawn) = crate::compose(&view, false);
        let scene = prepared.scene(&view, drawn.caption_armies());
        let indices = scene.indices(&img, &prepared.background, &drawn);
        let distance = |a: Rgb8, b: Rgb8| -> i32 {
            (0..3)
                .map(|i| (i32::from(a[i]) - i32::from(b[i])).pow(2))
                .sum()
        };
        for (p, &index) in img.pixels().zip(&indices) {
            let drawn_as = scene.colours[usize::from(index)];
            let best = scene
                .colours
                .iter()
                .map(|&c| distance(c, p.0))
                .min()
                .unwrap();
            assert_eq!(
                distance(drawn_as, p.0),
                best,
                "{:?} drawn as {drawn_as:?}",
                p.0
            );
        }
    }

    /// A PNG's palette indices.
    fn decoded(png: Vec<u8>) -> Vec<u8> {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut back = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut back).unwrap();
        back
    }
}

//! A palette fixed for every board drawn over one prepared background with one set of figures,
//! lila-gif's way: the palette is chosen once, the background is turned into palette indices
//! once, and a render only looks up the pixels drawn over the background.
//!
//! A scene's palette is chosen from every shade its boards can hold: the background's, the
//! background's under each tint (last move, check, shadow), each figure drawn over every cell
//! shade (plain and tinted), and the caption's text and army markers. So it depends only on the
//! prepared board and the set of figures, never on which board of a game was drawn first, and
//! a shade no scene foresaw is still drawn as its nearest palette colour.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use engine::chess::Seat;
use engine::view::{Placed, View};
use image::RgbImage;

use crate::indexed;
use crate::palette::{self, Rgb8};
use crate::sprite::{self, Kind};
use crate::{cell_colour, draw_figure, Prepared};

/// The tints drawn over cells (`compose`), each a colour and how far a pixel moves toward it.
const TINTS: [(Rgb8, f32); 3] = [
    (palette::LAST_MOVE, 0.5),
    (palette::CHECK, 0.65),
    (palette::SHADED, 0.45),
];
/// The last move's ring over a shaded cell.
const RING: (Rgb8, f32) = (palette::LAST_MOVE, 0.75);

/// How a figure looks, whatever cell it stands on: two figures that look alike share a scene.
struct Appearance {
    colour: usize,
    placed: Placed,
}

/// The fixed palette of the boards drawn over one prepared background with one set of figures.
pub(crate) struct Scene {
    figures: Vec<Appearance>,
    colours: Vec<Rgb8>,
    table: ColourTable,
    /// The prepared background, as indices.
    background: Vec<u8>,
    /// The index of the colour around the board (the rows a long caption adds are this).
    backdrop: u8,
    /// The background alone compressed each way of `indexed::ATTEMPTS`, in bytes.
    background_bytes: Vec<usize>,
    /// Boxes figures were drawn in, found by a hash of their colours, with their indices.
    tiles: Mutex<HashMap<u64, Tile>>,
}

/// How many scenes a prepared board keeps: a game changes its set of figures a few times (the
/// last of a kind taken, a promotion), and boards of other games share the cache.
const SCENES_KEPT: usize = 16;

impl Prepared {
    /// The scene of `view`'s figures over this prepared board, chosen once.
    pub(crate) fn scene(&self, view: &View) -> Arc<Scene> {
        // Each look once, as (colour, figure) pairs borrowed from the view.
        let mut looks: Vec<(usize, &Placed)> = Vec::new();
        for placed in &view.figures {
            let look = (view.colour_of(placed.army), placed);
            if !looks.iter().any(|&other| looks_alike(other, look)) {
                looks.push(look);
            }
        }
        let mut scenes = self.scenes.lock().unwrap_or_else(|e| e.into_inner());
        let known = scenes.iter().find(|s| {
            s.figures.len() == looks.len()
                && looks.iter().all(|&l| {
                    s.figures
                        .iter()
                        .any(|f| looks_alike((f.colour, &f.placed), l))
                })
        });
        if let Some(scene) = known {
            return scene.clone();
        }
        let scene = Arc::new(Scene::new(self, view, appearances(&looks)));
        if scenes.len() >= SCENES_KEPT {
            scenes.remove(0);
        }
        scenes.push(scene.clone());
        scene
    }
}

/// The looks of figures, kept apart from the view.
fn appearances(looks: &[(usize, &Placed)]) -> Vec<Appearance> {
    looks
        .iter()
        .map(|&(colour, placed)| Appearance {
            colour,
            placed: Placed {
                cell: engine::board::Cell(0),
                ..placed.clone()
            },
        })
        .collect()
}

/// Whether two figures are drawn alike (wherever they stand).
fn looks_alike((colour_a, a): (usize, &Placed), (colour_b, b): (usize, &Placed)) -> bool {
    colour_a == colour_b && a.figure == b.figure && a.number == b.number && a.markers == b.markers
}

impl Scene {
    fn new(prepared: &Prepared, view: &View, figures: Vec<Appearance>) -> Scene {
        let shades = foreseen_shades(prepared, view, &figures);
        let (colours, index_of) = indexed::choose(&shades);
        let mut table = ColourTable::with_capacity(shades.len());
        for (&(colour, _), &index) in shades.iter().zip(&index_of) {
            table.insert(packed(&colour), index);
        }
        let mut scene = Scene {
            figures,
            colours,
            table,
            background: Vec::new(),
            backdrop: 0,
            background_bytes: Vec::new(),
            tiles: Mutex::new(HashMap::new()),
        };
        scene.backdrop = scene.index_of(packed(&palette::BACKGROUND), &mut HashMap::new());
        let mut misses = HashMap::new();
        scene.background = prepared
            .background
            .pixels()
            .map(|p| scene.index_of(packed(&p.0), &mut misses))
            .collect();
        scene.background_bytes = indexed::sizes(
            prepared.background.dimensions(),
            &scene.background,
            &scene.colours,
        );
        scene
    }

    /// Forgets every figure box met.
    pub(crate) fn forget_figure_boxes(&self) {
        self.tiles.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The palette.
    pub(crate) fn colours(&self) -> &[Rgb8] {
        &self.colours
    }

    /// Which way of `indexed::ATTEMPTS` to try first for a board of `figures` figures of
    /// `figure_px` pixels: the first in which the background and that many figures are
    /// foreseen within the budget. Measured on the benchmark's boards, a figure adds about
    /// 0.15 bytes per pixel of its square at the fastest way, less at the tighter ones as the
    /// background does; trying a way bound to fail would be time lost.
    pub(crate) fn first_attempt(&self, figures: usize, figure_px: f32) -> usize {
        let fastest = self.background_bytes.first().copied().unwrap_or(1).max(1) as f32;
        let per_figure = figure_px * figure_px * 0.15;
        self.background_bytes
            .iter()
            .position(|&bytes| {
                let foreseen = bytes as f32 * (1.0 + figures as f32 * per_figure / fastest);
                foreseen <= indexed::PNG_BUDGET as f32
            })
            .unwrap_or(self.background_bytes.len().saturating_sub(1))
    }

    /// `img`, a board of this scene drawn over `background` where `drawn` says, as palette
    /// indices. Each pixel's index depends on its colour alone, so: where nothing was drawn,
    /// the background's indices are taken as they are; a figure's box the same as one met
    /// before takes that box's indices; elsewhere a run of eight pixels the same as the
    /// background's takes the background's, and only the pixels drawn over are looked up.
    pub(crate) fn indices(
        &self,
        img: &RgbImage,
        background: &RgbImage,
        drawn: &DrawnOver,
    ) -> Vec<u8> {
        let width = img.width() as usize;
        let mut out = vec![0u8; width * img.height() as usize];
        let backdrop = Backdrop {
            rgb: palette::BACKGROUND.repeat(width),
            indices: vec![self.backdrop; width],
        };
        let mut mapper = Mapper {
            scene: self,
            misses: HashMap::new(),
            last: (u32::MAX, 0),
        };
        for (y, out_row) in out.chunks_exact_mut(width.max(1)).enumerate() {
            let (_, bg_idx) = self.background_row(background, &backdrop, drawn.extra, y);
            out_row.copy_from_slice(bg_idx);
            let (x0, x1) = drawn.spans[y];
            if x0 < x1 {
                mapper.map(
                    img,
                    self.background_row(background, &backdrop, drawn.extra, y),
                    y,
                    x0 as usize..x1 as usize,
                    out_row,
                );
            }
        }
        let mut tiles = self.tiles.lock().unwrap_or_else(|e| e.into_inner());
        if tiles.len() > TILES_KEPT {
            tiles.clear();
        }
        for &[x0, y0, x1, y1] in &drawn.figures {
            let (x0, x1) = (x0 as usize, x1 as usize);
            let stride = width * 3;
            let box_rows = || {
                (y0 as usize..y1 as usize)
                    .map(|y| &img.as_raw()[y * stride + x0 * 3..y * stride + x1 * 3])
            };
            let key = box_hash(box_rows(), x1 - x0);
            if let Some(tile) = tiles.get(&key) {
                if tile.width == x1 - x0 && tile.rgb.chunks_exact(tile.width * 3).eq(box_rows()) {
                    for (y, indices) in (y0 as usize..).zip(tile.indices.chunks_exact(tile.width)) {
                        out[y * width + x0..y * width + x1].copy_from_slice(indices);
                    }
                    continue;
                }
            }
            let mut tile = Tile {
                width: x1 - x0,
                rgb: Vec::with_capacity((x1 - x0) * (y1 - y0) as usize * 3),
                indices: Vec::with_capacity((x1 - x0) * (y1 - y0) as usize),
            };
            for y in y0 as usize..y1 as usize {
                let out_row = &mut out[y * width..(y + 1) * width];
                mapper.map(
                    img,
                    self.background_row(background, &backdrop, drawn.extra, y),
                    y,
                    x0..x1,
                    out_row,
                );
                tile.rgb
                    .extend_from_slice(&img.as_raw()[y * stride + x0 * 3..y * stride + x1 * 3]);
                tile.indices.extend_from_slice(&out_row[x0..x1]);
            }
            tiles.insert(key, tile);
        }
        out
    }

    /// Row `y` of the picture's background, as colours and as indices.
    fn background_row<'a>(
        &'a self,
        background: &'a RgbImage,
        backdrop: &'a Backdrop,
        extra: u32,
        y: usize,
    ) -> (&'a [u8], &'a [u8]) {
        let width = background.width() as usize;
        match (y as u32).checked_sub(extra) {
            Some(by) if by < background.height() => {
                let by = by as usize;
                (
                    &background.as_raw()[by * width * 3..(by + 1) * width * 3],
                    &self.background[by * width..(by + 1) * width],
                )
            }
            _ => (&backdrop.rgb, &backdrop.indices),
        }
    }

    /// The palette index `colour` is drawn with: its own, or its nearest colour's.
    #[inline(always)]
    fn index_of(&self, colour: u32, misses: &mut HashMap<u32, u8>) -> u8 {
        match self.table.get(colour) {
            Some(index) => index,
            None => self.unforeseen(colour, misses),
        }
    }

    /// The index of a shade the scene did not foresee (a few pixels where two figures' edges
    /// or two glyphs meet): its nearest colour's, found once per picture.
    #[cold]
    fn unforeseen(&self, colour: u32, misses: &mut HashMap<u32, u8>) -> u8 {
        *misses
            .entry(colour)
            .or_insert_with(|| nearest(&self.colours, unpacked(colour)))
    }
}

/// A row of the colour around the board, for the rows a long caption adds above it.
struct Backdrop {
    rgb: Vec<u8>,
    indices: Vec<u8>,
}

/// How many figure boxes a scene keeps the indices of (a few games' worth of boards).
const TILES_KEPT: usize = 2048;

/// The colours of a box a figure was drawn in, and their indices.
struct Tile {
    width: usize,
    rgb: Vec<u8>,
    indices: Vec<u8>,
}

/// A hash of a box's rows of colours, to find the same box again (then compared whole).
fn box_hash<'a>(rows: impl Iterator<Item = &'a [u8]>, width: usize) -> u64 {
    let mut h = width as u64;
    for row in rows {
        let (words, rest) = row.as_chunks::<8>();
        for w in words {
            h = (h.rotate_left(5) ^ u64::from_le_bytes(*w)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        for &b in rest {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    h
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
            self.last = (colour, self.scene.index_of(colour, &mut self.misses));
        }
        self.last.1
    }
}

/// Where a picture was drawn over its prepared background: in each row, the columns from the
/// first to the last pixel that may differ from it.
pub(crate) struct DrawnOver {
    spans: Vec<(u32, u32)>,
    /// The boxes figures were drawn in (left, top, right, bottom), apart from the spans.
    figures: Vec<[u32; 4]>,
    width: u32,
    /// How many rows lower than the prepared background the board is (under a caption of
    /// several lines); the rows above are the colour around the board.
    pub extra: u32,
}

impl DrawnOver {
    pub(crate) fn new(width: u32, height: u32, extra: u32) -> DrawnOver {
        DrawnOver {
            spans: vec![(u32::MAX, 0); height as usize],
            figures: Vec::new(),
            width,
            extra,
        }
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

    /// Marks the pixels of the rectangle a figure was drawn in (left, top, right, bottom).
    pub(crate) fn mark_figure(&mut self, left: f32, top: f32, right: f32, bottom: f32) {
        let rect = self.pixels(left, top, right, bottom);
        self.figures.push(rect);
    }

    /// Marks the pixels of a rectangle (left, top, right, bottom) as drawn over.
    pub(crate) fn mark(&mut self, left: f32, top: f32, right: f32, bottom: f32) {
        let [x0, y0, x1, y1] = self.pixels(left, top, right, bottom);
        for span in &mut self.spans[y0 as usize..y1 as usize] {
            span.0 = span.0.min(x0);
            span.1 = span.1.max(x1);
        }
    }

    /// Marks the pixels of a polygon's bounding box as drawn over.
    pub(crate) fn mark_polygon(&mut self, points: &[(f32, f32)]) {
        let (mut left, mut top, mut right, mut bottom) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in points {
            (left, top, right, bottom) = (left.min(x), top.min(y), right.max(x), bottom.max(y));
        }
        self.mark(left - 1.0, top - 1.0, right + 1.0, bottom + 1.0);
    }
}

/// The index of the colour nearest `c` (the first of equally near ones).
fn nearest(colours: &[Rgb8], c: Rgb8) -> u8 {
    let distance = |p: &Rgb8| -> i32 {
        (0..3)
            .map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2))
            .sum()
    };
    let mut best = 0;
    for (i, p) in colours.iter().enumerate() {
        if distance(p) < distance(&colours[best]) {
            best = i;
        }
    }
    best as u8
}

/// Every shade a board of the scene can hold, with a weight after how often it is seen.
fn foreseen_shades(prepared: &Prepared, view: &View, figures: &[Appearance]) -> Vec<(Rgb8, u32)> {
    let mut counts: HashMap<Rgb8, u32> = HashMap::new();
    let background = &prepared.background;
    for p in background.pixels() {
        *counts.entry(p.0).or_default() += 1;
    }
    // The background under each tint, less often seen.
    let plain: Vec<(Rgb8, u32)> = counts.iter().map(|(&c, &n)| (c, n)).collect();
    for &(shade, n) in &plain {
        for (tint, t) in TINTS {
            *counts.entry(palette::mix(shade, tint, t)).or_default() += (n / 16).max(1);
        }
        let shaded = palette::mix(shade, palette::SHADED, 0.45);
        *counts
            .entry(palette::mix(shaded, RING.0, RING.1))
            .or_default() += (n / 16).max(1);
    }
    // Every figure over every shade a cell can take.
    let board = &view.board;
    let mut unders = vec![palette::BACKGROUND];
    let mut cell_shades: Vec<Rgb8> = board.cells().map(|c| cell_colour(board, c)).collect();
    cell_shades.sort_unstable();
    cell_shades.dedup();
    for shade in cell_shades {
        unders.push(shade);
        for (tint, t) in TINTS {
            unders.push(palette::mix(shade, tint, t));
        }
        let shaded = palette::mix(shade, palette::SHADED, 0.45);
        unders.push(palette::mix(shaded, RING.0, RING.1));
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
            for look in figures {
                let placed = Placed {
                    cell,
                    ..look.placed.clone()
                };
                draw_figure(&mut img, layout, &placed, view);
                for y in y0..y1 {
                    for x in x0..x1 {
                        let p = img.get_pixel_mut(x, y);
                        if p.0 != under {
                            *counts.entry(p.0).or_default() += 1;
                            p.0 = under;
                        }
                    }
                }
            }
        }
    }
    // The caption: each army's marker and the text, over the backdrop.
    let mut marker = RgbImage::from_pixel(24, 24, palette::rgb(palette::BACKGROUND));
    for army in 0..view.players.len() {
        let colour = view.colour_of(Seat(army as u8));
        sprite::sprite(Kind::Man, colour, 16).draw_centred(&mut marker, 12.0, 12.0);
        for p in marker.pixels_mut() {
            if p.0 != palette::BACKGROUND {
                *counts.entry(p.0).or_default() += 8;
                p.0 = palette::BACKGROUND;
            }
        }
    }
    for ink in [palette::CAPTION, palette::GOLD, palette::COORDINATE] {
        for k in 0..=1024 {
            let shade = palette::mix(palette::BACKGROUND, ink, k as f32 / 1024.0);
            *counts.entry(shade).or_default() += 1;
        }
    }
    let mut shades: Vec<(Rgb8, u32)> = counts.into_iter().collect();
    shades.sort_unstable();
    shades
}

#[inline]
fn packed(p: &[u8]) -> u32 {
    u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2])
}

#[inline]
fn unpacked(c: u32) -> Rgb8 {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// Packed colours and their palette indices, in an open-addressing table built once: each
/// slot holds a colour above its index in one word, small enough to stay in the nearest cache.
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

    fn scene_of(view: &View) -> Scene {
        let prepared = crate::prepared(view);
        let looks: Vec<(usize, &Placed)> = view
            .figures
            .iter()
            .map(|p| (view.colour_of(p.army), p))
            .collect();
        Scene::new(&prepared, view, appearances(&looks))
    }

    /// A scene's palette depends on its set of figures, not on where they stand: the start and
    /// a position after it (the same figures, moved) choose the same colours.
    #[test]
    fn the_palette_is_the_same_for_the_same_figures_wherever_they_stand() {
        let game = registry::variant("chess").unwrap();
        let mut state = game.setup(&Options::new(), 2, 0).unwrap();
        let before = game.view(&state, Viewer::Spectator).unwrap();
        for (seat, text) in [(0, "e4"), (1, "Nf6")] {
            game.play(&mut state, Seat(seat), text).unwrap();
        }
        let after = game.view(&state, Viewer::Spectator).unwrap();
        assert_eq!(scene_of(&before).colours, scene_of(&after).colours);
    }

    /// Every colour a scene's board is drawn with is its nearest palette colour.
    #[test]
    fn each_pixel_is_its_nearest_palette_colour() {
        let view = start("chess", 2, Viewer::Spectator);
        let (img, prepared, drawn) = crate::compose(&view);
        let scene = prepared.scene(&view);
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

    /// Six armies of seventeen pieces on Tri-Chess's triangles are foreseen too heavy for the
    /// fastest compression; an 8x8 chess board is not.
    #[test]
    fn a_crowded_board_starts_with_a_tighter_compression() {
        let tri = start("tri-chess", 6, Viewer::Seat(Seat(3)));
        let px = crate::prepared(&tri).layout.figure_px;
        assert!(scene_of(&tri).first_attempt(tri.figures.len(), px) > 0);
        let chess = start("chess", 2, Viewer::Spectator);
        let px = crate::prepared(&chess).layout.figure_px;
        assert_eq!(scene_of(&chess).first_attempt(chess.figures.len(), px), 0);
    }
}

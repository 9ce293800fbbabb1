//! Text: glyphs are rasterised once per character and size, then stamped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use image::RgbImage;

use crate::palette::{self, Rgb8};
use crate::sprite::{bold_font, font, rasterize, Coverage};

fn glyph(c: char, size: u32, bold: bool) -> Arc<Coverage> {
    type Cache = Mutex<HashMap<(char, u32, bool), Arc<Coverage>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(g) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(c, size, bold))
    {
        return g.clone();
    }
    let f = if bold { bold_font() } else { font() };
    let g = Arc::new(rasterize(f, c, size as f32));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert((c, size, bold), g.clone());
    g
}

/// The width of `text` in pixels.
pub fn width(text: &str, size: u32, bold: bool) -> f32 {
    text.chars().map(|c| glyph(c, size, bold).advance).sum()
}

/// How text is drawn: pixel size, weight and colour.
#[derive(Clone, Copy, Debug)]
pub struct Ink {
    pub size: u32,
    pub bold: bool,
    pub colour: Rgb8,
}

impl Ink {
    pub fn new(size: u32, bold: bool, colour: Rgb8) -> Ink {
        Ink { size, bold, colour }
    }
}

/// Draws `text` with its baseline starting at (x, baseline); returns the x after it.
/// Stops before `max_x`, ending with an ellipsis when the text does not fit.
pub fn draw(
    img: &mut RgbImage,
    text: &str,
    (x, baseline): (f32, f32),
    ink: Ink,
    max_x: f32,
) -> f32 {
    let Ink { size, bold, colour } = ink;
    let ellipsis = width("…", size, bold);
    let total = width(text, size, bold);
    let fits = x + total <= max_x;
    let mut pen = x;
    for c in text.chars() {
        let g = glyph(c, size, bold);
        if !fits && pen + g.advance + ellipsis > max_x {
            stamp(img, &glyph('…', size, bold), pen, baseline, colour);
            return pen + ellipsis;
        }
        stamp(img, &g, pen, baseline, colour);
        pen += g.advance;
    }
    pen
}

/// Draws `text` centred on (cx, cy); gives the box its ink covers (left, top, right, bottom).
pub fn draw_centred(img: &mut RgbImage, text: &str, at: (f32, f32), ink: Ink) -> [f32; 4] {
    write_centred(img, text, at, ink);
    let (left, top, right, bottom) = centred_ink_box(text, at, ink);
    [left, top, right, bottom]
}

/// Draws `text` centred on (cx, cy).
fn write_centred(img: &mut RgbImage, text: &str, (cx, cy): (f32, f32), ink: Ink) {
    let w = width(text, ink.size, ink.bold);
    let baseline = cy + ink.size as f32 * 0.36;
    draw(img, text, (cx - w / 2.0, baseline), ink, f32::MAX);
}

/// The box (left, top, right, bottom, in pixels) that the ink of `text` covers when
/// [`draw_centred`] writes it centred on (cx, cy).
pub fn centred_ink_box(text: &str, (cx, cy): (f32, f32), ink: Ink) -> (f32, f32, f32, f32) {
    let w = width(text, ink.size, ink.bold);
    let baseline = (cy + ink.size as f32 * 0.36).round() as i32;
    let mut pen = cx - w / 2.0;
    let (mut left, mut top, mut right, mut bottom) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for c in text.chars() {
        let g = glyph(c, ink.size, ink.bold);
        if g.width > 0 && g.height > 0 {
            // As `stamp` places it.
            let x0 = (pen.round() as i32 + g.left) as f32;
            let y0 = (baseline + g.top) as f32;
            left = left.min(x0);
            top = top.min(y0);
            right = right.max(x0 + g.width as f32);
            bottom = bottom.max(y0 + g.height as f32);
        }
        pen += g.advance;
    }
    (left, top, right, bottom)
}

/// Draws `text` centred on (cx, cy), ringed one pixel wide in `halo` so that it reads on any
/// colour, even where it spills over onto another. Gives the box its ink covers.
pub fn draw_centred_outlined(
    img: &mut RgbImage,
    text: &str,
    (cx, cy): (f32, f32),
    ink: Ink,
    halo: Rgb8,
) -> [f32; 4] {
    let ring = Ink {
        colour: halo,
        ..ink
    };
    for dy in -1..=1 {
        for dx in -1..=1 {
            if (dx, dy) != (0, 0) {
                write_centred(img, text, (cx + dx as f32, cy + dy as f32), ring);
            }
        }
    }
    let [left, top, right, bottom] = draw_centred(img, text, (cx, cy), ink);
    [left - 1.0, top - 1.0, right + 1.0, bottom + 1.0]
}

fn stamp(img: &mut RgbImage, g: &Coverage, pen: f32, baseline: f32, colour: Rgb8) {
    let x0 = pen.round() as i32 + g.left;
    let y0 = baseline.round() as i32 + g.top;
    let (w, h) = (img.width() as i32, img.height() as i32);
    for gy in 0..g.height as i32 {
        for gx in 0..g.width as i32 {
            let (x, y) = (x0 + gx, y0 + gy);
            if x < 0 || y < 0 || x >= w || y >= h {
                continue;
            }
            let c = g.values[(gy as u32 * g.width + gx as u32) as usize];
            if c > 0.0 {
                let p = img.get_pixel_mut(x as u32, y as u32);
                p.0 = palette::mix(p.0, colour, c);
            }
        }
    }
}

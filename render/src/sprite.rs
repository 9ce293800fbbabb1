//! Sprites: small RGBA images prepared once per kind, colour and size, then only blitted.
//! Glyphs come from DejaVu Sans (shipped by the `dejavu` crate): its chess symbols for the
//! pieces, its letters and digits for text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use engine::chess::Role;
use image::RgbImage;

use crate::palette::{self, Rgb8};

/// An RGBA image with straight alpha.
#[derive(Debug)]
pub struct Sprite {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[u8; 4]>,
}

impl Sprite {
    fn blank(width: u32, height: u32) -> Sprite {
        Sprite {
            width,
            height,
            pixels: vec![[0; 4]; (width * height) as usize],
        }
    }

    /// Draws the sprite centred on (cx, cy); gives the box it covers (left, top, right,
    /// bottom).
    pub fn draw_centred(&self, img: &mut RgbImage, cx: f32, cy: f32) -> [f32; 4] {
        let x0 = (cx - self.width as f32 / 2.0).round() as i32;
        let y0 = (cy - self.height as f32 / 2.0).round() as i32;
        self.draw_at(img, x0, y0);
        self.box_at(x0, y0)
    }

    fn box_at(&self, x0: i32, y0: i32) -> [f32; 4] {
        let (x0, y0) = (x0 as f32, y0 as f32);
        [x0, y0, x0 + self.width as f32, y0 + self.height as f32]
    }

    /// Draws the sprite centred on (cx, cy) with its colours moved toward `toward` by `t`: a
    /// figure greyed out. Gives the box it covers.
    pub fn draw_centred_faded(
        &self,
        img: &mut RgbImage,
        (cx, cy): (f32, f32),
        toward: Rgb8,
        t: f32,
    ) -> [f32; 4] {
        let x0 = (cx - self.width as f32 / 2.0).round() as i32;
        let y0 = (cy - self.height as f32 / 2.0).round() as i32;
        self.draw_recoloured(img, x0, y0, |c| palette::mix(c, toward, t));
        self.box_at(x0, y0)
    }

    /// Draws the sprite with its top-left corner at (x0, y0).
    pub fn draw_at(&self, img: &mut RgbImage, x0: i32, y0: i32) {
        self.draw_recoloured(img, x0, y0, |c| c);
    }

    /// Draws the sprite with its top-left corner at (x0, y0), each colour passed through
    /// `recolour`.
    fn draw_recoloured(
        &self,
        img: &mut RgbImage,
        x0: i32,
        y0: i32,
        recolour: impl Fn(Rgb8) -> Rgb8,
    ) {
        let (iw, ih) = (img.width() as i32, img.height() as i32);
        // The sprite's columns and rows inside the image.
        let sx0 = (-x0).max(0);
        let sx1 = (iw - x0).min(self.width as i32);
        let sy0 = (-y0).max(0);
        let sy1 = (ih - y0).min(self.height as i32);
        if sx0 >= sx1 || sy0 >= sy1 {
            return;
        }
        let stride = iw as usize * 3;
        let raw: &mut [u8] = img;
        for sy in sy0..sy1 {
            let from = (sy as u32 * self.width) as usize;
            let src = &self.pixels[from + sx0 as usize..from + sx1 as usize];
            let at = (y0 + sy) as usize * stride + (x0 + sx0) as usize * 3;
            let dst = &mut raw[at..at + src.len() * 3];
            for (&[r, g, b, a], dst) in src.iter().zip(dst.chunks_exact_mut(3)) {
                if a == 0 {
                    continue;
                }
                let colour = recolour([r, g, b]);
                if a == 255 {
                    dst.copy_from_slice(&colour);
                } else {
                    let t = a as f32 / 255.0;
                    let mixed = palette::mix([dst[0], dst[1], dst[2]], colour, t);
                    dst.copy_from_slice(&mixed);
                }
            }
        }
    }
}

pub(crate) fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(dejavu::sans::regular()).expect("DejaVu Sans loads")
    })
}

pub(crate) fn bold_font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(dejavu::sans::bold()).expect("DejaVu Sans Bold loads")
    })
}

/// Coverage (0..=1) of one glyph, cropped to its ink, with its placement.
pub(crate) struct Coverage {
    pub width: u32,
    pub height: u32,
    /// Offset of the ink from the pen position (left) and from the baseline (top, negative up).
    pub left: i32,
    pub top: i32,
    pub advance: f32,
    pub values: Vec<f32>,
}

pub(crate) fn rasterize(font: &FontRef<'static>, c: char, size: f32) -> Coverage {
    let scaled = font.as_scaled(PxScale::from(size));
    let id = font.glyph_id(c);
    let advance = scaled.h_advance(id);
    let glyph = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(0.0, 0.0));
    match font.outline_glyph(glyph) {
        Some(outlined) => {
            let b = outlined.px_bounds();
            let (w, h) = (b.width().ceil() as u32, b.height().ceil() as u32);
            let mut values = vec![0.0; (w * h) as usize];
            outlined.draw(|x, y, v| {
                if x < w && y < h {
                    values[(y * w + x) as usize] = v.clamp(0.0, 1.0);
                }
            });
            Coverage {
                width: w,
                height: h,
                left: b.min.x.floor() as i32,
                top: b.min.y.floor() as i32,
                advance,
                values,
            }
        }
        None => Coverage {
            width: 0,
            height: 0,
            left: 0,
            top: 0,
            advance,
            values: Vec::new(),
        },
    }
}

/// What a cached sprite shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Chess(Role),
    Man,
    King,
    /// One disc of a stack, seen from the side.
    Disc {
        king: bool,
    },
    ZombieCoin,
    Tar,
    /// A plain token in an army's colour (a checker under a piece).
    Token,
    Badge,
    Mirror,
    /// A king's crown on its own, to stand above the number of a numbered king.
    Crown,
}

/// Sprites are kept per kind, army colour and size.
pub(crate) fn sprite(kind: Kind, army: usize, size: u32) -> Arc<Sprite> {
    type Cache = Mutex<HashMap<(Kind, usize, u32), Arc<Sprite>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (kind, army, size);
    if let Some(s) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return s.clone();
    }
    let colours = palette::army(army);
    let made = Arc::new(match kind {
        Kind::Chess(role) => chess_piece(role, colours.fill, colours.stroke, size),
        Kind::Man => checker(colours.fill, size, false),
        Kind::King => checker(colours.fill, size, true),
        Kind::Disc { king } => disc(colours.fill, king, size),
        Kind::ZombieCoin => token(palette::GOLD, Some('Z'), size),
        Kind::Tar => token(palette::TAR, None, size),
        Kind::Token => token(colours.fill, None, size),
        Kind::Badge => token(palette::ADRENALINE, None, size),
        Kind::Mirror => mirror(size),
        // Crowns are gold badges on checkers kings, drawn solid at their own size: averaged
        // down, their gold would blend into the disc's colour.
        Kind::Crown => chess_piece_drawn(Role::Queen, palette::GOLD, palette::INK, size),
    });
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, made.clone());
    made
}

/// The font size at which the king's glyph is 88% of a sprite of `size` pixels tall; all
/// pieces use it, so their relative sizes stay as the font designed them.
fn chess_font_size(size: u32) -> f32 {
    const PROBE: f32 = 100.0;
    static KING_HEIGHT: OnceLock<f32> = OnceLock::new();
    let h = *KING_HEIGHT.get_or_init(|| rasterize(font(), '\u{2654}', PROBE).height.max(1) as f32);
    PROBE * size as f32 * 0.88 / h
}

/// Below this many pixels a chess piece is drawn four times as large and scaled down: drawn
/// directly, the filled queen's crown on a small triangle broke into grey spikes, because the
/// gaps between its points are too thin for the silhouette's fill to tell inside from outside.
const SUPERSAMPLE_BELOW: u32 = 40;

/// A chess piece: the outline glyph's strokes over its solid silhouette.
fn chess_piece(role: Role, fill: Rgb8, stroke: Rgb8, size: u32) -> Sprite {
    if size < SUPERSAMPLE_BELOW {
        shrink(&chess_piece_drawn(role, fill, stroke, size * 4), 4)
    } else {
        chess_piece_drawn(role, fill, stroke, size)
    }
}

/// A sprite `factor` times smaller, each pixel the average of the block it covers (colours
/// weighted by their opacity, so transparent pixels add no colour to the edges).
fn shrink(big: &Sprite, factor: u32) -> Sprite {
    let mut small = Sprite::blank(big.width / factor, big.height / factor);
    for y in 0..small.height {
        for x in 0..small.width {
            let mut sum = [0u32; 4];
            for by in 0..factor {
                for bx in 0..factor {
                    let p = big.pixels[((y * factor + by) * big.width + x * factor + bx) as usize];
                    let a = p[3] as u32;
                    for c in 0..3 {
                        sum[c] += p[c] as u32 * a;
                    }
                    sum[3] += a;
                }
            }
            let n = factor * factor;
            small.pixels[(y * small.width + x) as usize] = match std::num::NonZeroU32::new(sum[3]) {
                None => [0; 4],
                Some(weight) => [
                    (sum[0] / weight) as u8,
                    (sum[1] / weight) as u8,
                    (sum[2] / weight) as u8,
                    (sum[3] / n) as u8,
                ],
            };
        }
    }
    small
}

/// A chess piece drawn at its own size.
fn chess_piece_drawn(role: Role, fill: Rgb8, stroke: Rgb8, size: u32) -> Sprite {
    let glyph = match role {
        Role::King => '\u{2654}',
        Role::Queen => '\u{2655}',
        Role::Rook => '\u{2656}',
        Role::Bishop => '\u{2657}',
        Role::Knight => '\u{2658}',
        Role::Pawn => '\u{2659}',
    };
    let cov = rasterize(font(), glyph, chess_font_size(size));
    let mut s = Sprite::blank(size, size);
    let ox = (size as i32 - cov.width as i32) / 2;
    let oy = (size as i32 - cov.height as i32) / 2;
    let at = |x: i32, y: i32| -> f32 {
        let (gx, gy) = (x - ox, y - oy);
        if gx < 0 || gy < 0 || gx >= cov.width as i32 || gy >= cov.height as i32 {
            0.0
        } else {
            cov.values[(gy as u32 * cov.width + gx as u32) as usize]
        }
    };
    // Everything not reachable from the border without crossing ink is the body.
    let n = size as i32;
    let mut outside = vec![false; (size * size) as usize];
    let mut stack: Vec<(i32, i32)> = Vec::new();
    for i in 0..n {
        stack.extend([(i, 0), (i, n - 1), (0, i), (n - 1, i)]);
    }
    while let Some((x, y)) = stack.pop() {
        if x < 0 || y < 0 || x >= n || y >= n {
            continue;
        }
        let idx = (y * n + x) as usize;
        // Thin strokes at small sizes can leave a hairline gap; treating anything next to
        // solid ink as ink keeps the fill from leaking into the body.
        let ink = at(x, y) > 0.1
            || [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| at(x + dx, y + dy) > 0.5);
        if outside[idx] || ink {
            continue;
        }
        outside[idx] = true;
        stack.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
    }
    for y in 0..n {
        for x in 0..n {
            let c = at(x, y);
            let idx = (y * n + x) as usize;
            s.pixels[idx] = if !outside[idx] {
                let [r, g, b] = palette::mix(fill, stroke, c);
                [r, g, b, 255]
            } else if c > 0.0 {
                [stroke[0], stroke[1], stroke[2], (c * 255.0) as u8]
            } else {
                [0; 4]
            };
        }
    }
    s
}

/// Fills a sprite by sampling `shade(x, y)`, with x and y running from -1 to 1 across the
/// sprite's width and height, 4x4 times per pixel for smooth edges.
fn sample(size_w: u32, size_h: u32, shade: impl Fn(f32, f32) -> Option<Rgb8>) -> Sprite {
    let mut s = Sprite::blank(size_w, size_h);
    let (hw, hh) = (size_w as f32 / 2.0, size_h as f32 / 2.0);
    for y in 0..size_h {
        for x in 0..size_w {
            let (mut acc, mut hits) = ([0.0f32; 3], 0);
            for sy in 0..4 {
                for sx in 0..4 {
                    let px = (x as f32 + (sx as f32 + 0.5) / 4.0 - hw) / hw;
                    let py = (y as f32 + (sy as f32 + 0.5) / 4.0 - hh) / hh;
                    if let Some(c) = shade(px, py) {
                        for k in 0..3 {
                            acc[k] += c[k] as f32;
                        }
                        hits += 1;
                    }
                }
            }
            if hits > 0 {
                let n = hits as f32;
                s.pixels[(y * size_w + x) as usize] = [
                    (acc[0] / n) as u8,
                    (acc[1] / n) as u8,
                    (acc[2] / n) as u8,
                    (hits * 255 / 16) as u8,
                ];
            }
        }
    }
    s
}

/// A checkers man from above: a disc with a rim and an inner ring; a king wears a crown.
fn checker(fill: Rgb8, size: u32, king: bool) -> Sprite {
    let rim = palette::darker(fill);
    let ring = if palette::is_light(fill) {
        palette::mix(fill, [0, 0, 0], 0.2)
    } else {
        palette::mix(fill, [255, 255, 255], 0.25)
    };
    let mut s = sample(size, size, |x, y| {
        let r = x.hypot(y);
        if r > 0.92 {
            None
        } else if r > 0.80 {
            Some(rim)
        } else if (0.58..0.64).contains(&r) {
            Some(ring)
        } else {
            Some(fill)
        }
    });
    if king {
        let crown = chess_piece_drawn(Role::Queen, palette::GOLD, palette::INK, size * 11 / 20);
        overlay(&mut s, &crown);
    }
    s
}

/// Height of a stack disc sprite for a given width.
pub(crate) fn disc_height(width: u32) -> u32 {
    (width * 9 / 20).max(8)
}

/// The top face of a stack disc, in sprite units (-1..1 down the sprite): the centre of its
/// ellipse and its half-height.
const FACE_Y: f32 = -0.36;
const FACE_RY: f32 = 0.62;

/// The top face of a stack disc of a given width: how far its centre lies below the sprite's
/// top edge, and its height, in pixels.
pub(crate) fn disc_face(width: u32) -> (f32, f32) {
    let height = disc_height(width) as f32;
    ((1.0 + FACE_Y) / 2.0 * height, FACE_RY * height)
}

/// One checker of a stack seen from the side and a little above: its top face as an ellipse
/// over its edge. A king's edge is gold. A line rings the face and runs along the bottom, so
/// that checkers of one colour stacked together stay apart.
fn disc(fill: Rgb8, king: bool, width: u32) -> Sprite {
    let height = disc_height(width);
    let edge = if king {
        palette::GOLD
    } else {
        palette::darker(fill)
    };
    // Darker than a light edge, lighter than a dark one (a black edge hides a dark line).
    let outline = if palette::is_light(edge) {
        palette::mix(edge, [0, 0, 0], 0.45)
    } else {
        palette::mix(edge, [255, 255, 255], 0.4)
    };
    // In sprite units (-1..1 both ways): the top face is an ellipse centred at y = -0.35,
    // the edge runs down to an ellipse centred at y = +0.35.
    let (ry, top_c, bottom_c) = (FACE_RY, FACE_Y, -FACE_Y);
    sample(width, height, |x, y| {
        let in_top = x * x + ((y - top_c) / ry).powi(2) <= 1.0;
        let in_bottom = x * x + ((y - bottom_c) / ry).powi(2) <= 1.0;
        let in_side = x.abs() <= 1.0 && y >= top_c && y <= bottom_c;
        if !(in_top || in_bottom || in_side) {
            return None;
        }
        let top_rim = x * x + ((y - top_c) / ry).powi(2) > 0.8;
        let bottom_rim = y > bottom_c && x * x + ((y - bottom_c) / ry).powi(2) > 0.7;
        if in_top && !top_rim {
            Some(fill)
        } else if in_top || bottom_rim {
            Some(outline)
        } else {
            Some(edge)
        }
    })
}

/// A small round token, optionally with a letter.
fn token(colour: Rgb8, letter: Option<char>, size: u32) -> Sprite {
    let rim = palette::darker(colour);
    let mut s = sample(size, size, |x, y| {
        let r = x.hypot(y);
        if r > 0.95 {
            None
        } else if r > 0.78 {
            Some(rim)
        } else if colour == palette::TAR && (x + 0.3).hypot(y + 0.3) < 0.22 {
            Some([0x70, 0x70, 0x70])
        } else {
            Some(colour)
        }
    });
    if let Some(letter) = letter {
        let cov = rasterize(bold_font(), letter, size as f32 * 0.62);
        let ink = if palette::is_light(colour) {
            palette::INK
        } else {
            palette::PAPER
        };
        let ox = (size as i32 - cov.width as i32) / 2;
        let oy = (size as i32 - cov.height as i32) / 2;
        stamp(&mut s, &cov, ox, oy, ink);
    }
    s
}

/// A mirror-side marker: a silver checker crossed by a diagonal.
fn mirror(size: u32) -> Sprite {
    let rim = palette::darker(palette::MIRROR);
    sample(size, size, |x, y| {
        let r = x.hypot(y);
        if r > 0.95 {
            None
        } else if r > 0.78 || (x + y).abs() < 0.16 {
            Some(rim)
        } else {
            Some(palette::MIRROR)
        }
    })
}

/// Draws coverage onto a sprite in one colour.
pub(crate) fn stamp(s: &mut Sprite, cov: &Coverage, ox: i32, oy: i32, ink: Rgb8) {
    for gy in 0..cov.height as i32 {
        for gx in 0..cov.width as i32 {
            let (x, y) = (ox + gx, oy + gy);
            if x < 0 || y < 0 || x >= s.width as i32 || y >= s.height as i32 {
                continue;
            }
            let c = cov.values[(gy as u32 * cov.width + gx as u32) as usize];
            if c <= 0.0 {
                continue;
            }
            let p = &mut s.pixels[(y as u32 * s.width + x as u32) as usize];
            let base = [p[0], p[1], p[2]];
            let [r, g, b] = if p[3] == 0 {
                ink
            } else {
                palette::mix(base, ink, c)
            };
            let a = (p[3] as f32).max(c * 255.0) as u8;
            *p = [r, g, b, a];
        }
    }
}

/// Draws `top` centred over `base` (same or smaller size).
fn overlay(base: &mut Sprite, top: &Sprite) {
    let ox = (base.width - top.width) / 2;
    let oy = (base.height - top.height) / 2;
    for y in 0..top.height {
        for x in 0..top.width {
            let [r, g, b, a] = top.pixels[(y * top.width + x) as usize];
            if a == 0 {
                continue;
            }
            let p = &mut base.pixels[((y + oy) * base.width + x + ox) as usize];
            let mixed = palette::mix([p[0], p[1], p[2]], [r, g, b], a as f32 / 255.0);
            *p = [mixed[0], mixed[1], mixed[2], p[3].max(a)];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most separate opaque runs along any row of the sprite's upper third (a queen's
    /// crown shows its points as separate runs).
    fn crown_points(s: &Sprite) -> usize {
        (0..s.height / 3)
            .map(|y| {
                let mut runs = 0;
                let mut inside = false;
                for x in 0..s.width {
                    let opaque = s.pixels[(y * s.width + x) as usize][3] >= 128;
                    if opaque && !inside {
                        runs += 1;
                    }
                    inside = opaque;
                }
                runs
            })
            .max()
            .unwrap_or(0)
    }

    /// The tri-audit's D6: a filled queen about 20 pixels tall (a piece on a triangle) became
    /// a blot of grey spikes; drawn large and shrunk, its crown keeps its separate points.
    #[test]
    fn a_small_filled_queen_keeps_the_points_of_its_crown() {
        let black = palette::army(1);
        for size in [18, 20, 24] {
            // Drawn directly at these sizes the crown showed two to four points.
            let drawn = chess_piece(Role::Queen, black.fill, black.stroke, size);
            assert_eq!(
                crown_points(&drawn),
                5,
                "{size}px: the five points of the crown"
            );
        }
    }
}

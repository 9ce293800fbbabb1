//! A game as an animated GIF: one frame per position, drawn by [`render_image`].
//!
//! After lila-gif (lichess's GIF service): one global palette for every frame, built once
//! from the renderer's own colours plus a colour cube for whatever anti-aliasing mixes; the
//! first frame whole, then each frame only the bounding box of the pixels that changed, with
//! the unchanged pixels inside it transparent (so a move redraws two squares and the caption,
//! and LZW packs the runs of transparency into almost nothing). Frames are drawn and encoded
//! one at a time, so a long game never holds more than two images.
//!
//! ```
//! use engine::game::Options;
//! use engine::view::Viewer;
//! let chess = engine::registry::variant("chess").unwrap();
//! let mut state = chess.setup(&Options::new(), 2, 0).unwrap();
//! let mut views = vec![chess.view(&state, Viewer::Spectator).unwrap()];
//! chess.play(&mut state, engine::Seat(0), "e4").unwrap();
//! views.push(chess.view(&state, Viewer::Spectator).unwrap());
//! let gif = render::gif::render_gif(&views).unwrap();
//! assert!(gif.starts_with(b"GIF89a"));
//! ```

use std::borrow::Cow;
use std::sync::{Mutex, OnceLock};

use engine::view::View;
use image::RgbImage;

use crate::palette::{self, Rgb8};
use crate::{layout, render_image, RenderError};

/// How long each position shows, in hundredths of a second.
pub const MOVE_DELAY: u16 = 80;
/// How long the start shows.
pub const FIRST_DELAY: u16 = 150;
/// How long the final position shows before the replay starts again.
pub const LAST_DELAY: u16 = 400;

/// The palette index left for transparency: never the colour of a drawn pixel.
const TRANSPARENT: u8 = 255;
/// Bits kept of each channel to look a colour's palette index up.
const BITS: u32 = 6;
/// "Not looked up yet" in the quantizer's table.
const UNKNOWN: u16 = u16::MAX;

/// Every position of `views` (in order) as one looping animated GIF: the first frame held a
/// little, each move [`MOVE_DELAY`], the last [`LAST_DELAY`]. Frames of different sizes (a
/// caption that takes a second line, a row of cards) are drawn at the top left of the largest.
pub fn render_gif(views: &[View]) -> Result<Vec<u8>, RenderError> {
    if views.is_empty() {
        return Err(RenderError("a replay needs at least one position".into()));
    }
    let (width, height) = views
        .iter()
        .map(image_size)
        .fold((0, 0), |(w, h), (a, b)| (w.max(a), h.max(b)));
    if width > u32::from(u16::MAX) || height > u32::from(u16::MAX) {
        return Err(RenderError(format!(
            "a {width}x{height} picture is too large for a GIF"
        )));
    }
    let mut quantizer = quantizer().lock().unwrap_or_else(|e| e.into_inner());
    let mut out = Vec::with_capacity(256 * 1024);
    {
        let mut encoder = ::gif::Encoder::new(
            &mut out,
            width as u16,
            height as u16,
            &quantizer.palette_bytes,
        )
        .map_err(gif_error)?;
        encoder
            .set_repeat(::gif::Repeat::Infinite)
            .map_err(gif_error)?;
        let background = palette::rgb(palette::BACKGROUND);
        let mut previous: Option<RgbImage> = None;
        // A frame is written once the next is known, so that a position that does not change
        // the picture lengthens the frame before it instead of adding an empty one.
        let mut pending: Option<::gif::Frame<'static>> = None;
        for (i, view) in views.iter().enumerate() {
            let drawn = render_image(view);
            let canvas = if drawn.dimensions() == (width, height) {
                drawn
            } else {
                let mut canvas = RgbImage::from_pixel(width, height, background);
                image::imageops::replace(&mut canvas, &drawn, 0, 0);
                canvas
            };
            let delay = if i == 0 { FIRST_DELAY } else { MOVE_DELAY };
            let frame = match &previous {
                None => Some(whole_frame(&canvas, &mut quantizer, delay)),
                Some(before) => changed_frame(before, &canvas, &mut quantizer, delay),
            };
            match frame {
                Some(frame) => {
                    if let Some(done) = pending.replace(frame) {
                        encoder.write_frame(&done).map_err(gif_error)?;
                    }
                }
                None => {
                    if let Some(last) = pending.as_mut() {
                        last.delay = last.delay.saturating_add(delay);
                    }
                }
            }
            previous = Some(canvas);
        }
        if let Some(mut last) = pending {
            last.delay = last.delay.max(LAST_DELAY);
            encoder.write_frame(&last).map_err(gif_error)?;
        }
        // Dropping the encoder writes the GIF's trailer.
    }
    Ok(out)
}

fn gif_error(e: impl std::fmt::Display) -> RenderError {
    RenderError(format!("GIF: {e}"))
}

/// The size `view` is drawn at: from its layout, without drawing, unless cards or a panel are
/// added under the board (then it is drawn once to be measured).
fn image_size(view: &View) -> (u32, u32) {
    if view.cards.is_empty() && view.panel.is_none() {
        let l = layout(view);
        (l.width, l.height)
    } else {
        render_image(view).dimensions()
    }
}

/// The first frame: every pixel.
fn whole_frame(img: &RgbImage, quantizer: &mut Quantizer, delay: u16) -> ::gif::Frame<'static> {
    let indices: Vec<u8> = img.pixels().map(|p| quantizer.index(p.0)).collect();
    ::gif::Frame {
        delay,
        dispose: ::gif::DisposalMethod::Keep,
        transparent: Some(TRANSPARENT),
        left: 0,
        top: 0,
        width: img.width() as u16,
        height: img.height() as u16,
        buffer: Cow::Owned(indices),
        ..::gif::Frame::default()
    }
}

/// The pixels of `after` that differ from `before`, as the smallest rectangle holding them
/// with the unchanged ones transparent; `None` when nothing changed. Both are the same size.
fn changed_frame(
    before: &RgbImage,
    after: &RgbImage,
    quantizer: &mut Quantizer,
    delay: u16,
) -> Option<::gif::Frame<'static>> {
    let width = after.width() as usize;
    let row_bytes = width * 3;
    let (old, new) = (before.as_raw(), after.as_raw());
    let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
    for y in 0..after.height() as usize {
        let a = &old[y * row_bytes..(y + 1) * row_bytes];
        let b = &new[y * row_bytes..(y + 1) * row_bytes];
        if a == b {
            continue;
        }
        let first = (0..width).find(|&x| a[x * 3..x * 3 + 3] != b[x * 3..x * 3 + 3])?;
        let last = (0..width)
            .rev()
            .find(|&x| a[x * 3..x * 3 + 3] != b[x * 3..x * 3 + 3])?;
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y;
    }
    if y0 == usize::MAX {
        return None;
    }
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut indices = Vec::with_capacity(w * h);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let at = y * row_bytes + x * 3;
            let (a, b) = (&old[at..at + 3], &new[at..at + 3]);
            indices.push(if a == b {
                TRANSPARENT
            } else {
                quantizer.index([b[0], b[1], b[2]])
            });
        }
    }
    Some(::gif::Frame {
        delay,
        dispose: ::gif::DisposalMethod::Keep,
        transparent: Some(TRANSPARENT),
        left: x0 as u16,
        top: y0 as u16,
        width: w as u16,
        height: h as u16,
        buffer: Cow::Owned(indices),
        ..::gif::Frame::default()
    })
}

/// Maps colours to the shared palette: the nearest entry, looked up once for each colour cell
/// (the top [`BITS`] bits of each channel) and remembered, so that a frame costs one table
/// look-up per pixel.
struct Quantizer {
    colours: Vec<Rgb8>,
    palette_bytes: Vec<u8>,
    table: Vec<u16>,
}

/// The one quantizer, kept between replays (its table fills as colours are met).
fn quantizer() -> &'static Mutex<Quantizer> {
    static QUANTIZER: OnceLock<Mutex<Quantizer>> = OnceLock::new();
    QUANTIZER.get_or_init(|| Mutex::new(Quantizer::new(shared_palette())))
}

impl Quantizer {
    fn new(colours: Vec<Rgb8>) -> Quantizer {
        let mut palette_bytes: Vec<u8> = colours.iter().flatten().copied().collect();
        palette_bytes.resize(256 * 3, 0);
        Quantizer {
            colours,
            palette_bytes,
            table: vec![UNKNOWN; 1 << (3 * BITS)],
        }
    }

    fn index(&mut self, c: Rgb8) -> u8 {
        let shift = 8 - BITS;
        let key = (usize::from(c[0] >> shift) << (2 * BITS))
            | (usize::from(c[1] >> shift) << BITS)
            | usize::from(c[2] >> shift);
        let known = self.table[key];
        if known != UNKNOWN {
            return known as u8;
        }
        let nearest = nearest(&self.colours, c);
        self.table[key] = u16::from(nearest);
        nearest
    }
}

/// The palette entry closest to `c` (weighted for the eye: green counts most).
fn nearest(colours: &[Rgb8], c: Rgb8) -> u8 {
    let distance = |p: &Rgb8| {
        let d = |i: usize| i32::from(p[i]) - i32::from(c[i]);
        2 * d(0) * d(0) + 4 * d(1) * d(1) + 3 * d(2) * d(2)
    };
    colours
        .iter()
        .enumerate()
        .take(TRANSPARENT as usize)
        .min_by_key(|(_, p)| distance(p))
        .map_or(0, |(i, _)| i as u8)
}

/// The shared palette (at most 255 colours; the 256th is transparency): the renderer's own
/// colours exactly, the last-move, check and shade tints over both kinds of square, the
/// blends of the first armies' pieces with the squares (their anti-aliased edges), a grey ramp
/// for text, then a colour cube for everything else.
fn shared_palette() -> Vec<Rgb8> {
    let named = [
        palette::BACKGROUND,
        palette::LIGHT_CELL,
        palette::DARK_CELL,
        palette::SHADED,
        palette::LAST_MOVE,
        palette::CHECK,
        palette::COORDINATE,
        palette::CAPTION,
        palette::WRAP_HINT,
        palette::GOLD,
        palette::TAR,
        palette::ADRENALINE,
        palette::MIRROR,
        palette::DEAD,
        palette::INK,
        palette::PAPER,
        palette::CARD_BACK,
        palette::CARD_BACK_INNER,
    ];
    let mut colours: Vec<Rgb8> = named.to_vec();
    for slot in 0..8 {
        let army = palette::army(slot);
        colours.push(army.fill);
        colours.push(army.stroke);
        colours.push(palette::darker(army.fill));
    }
    let cells = [palette::LIGHT_CELL, palette::DARK_CELL];
    let mut squares = cells.to_vec();
    for cell in cells {
        let moved = palette::mix(cell, palette::LAST_MOVE, 0.5);
        squares.push(moved);
        colours.push(moved);
        colours.push(palette::mix(cell, palette::CHECK, 0.65));
        colours.push(palette::mix(cell, palette::SHADED, 0.45));
    }
    for slot in 0..2 {
        let army = palette::army(slot);
        for square in &squares {
            for t in [0.33, 0.67] {
                colours.push(palette::mix(army.fill, *square, t));
                colours.push(palette::mix(army.stroke, *square, t));
            }
        }
        colours.push(palette::mix(army.fill, army.stroke, 0.5));
    }
    for step in 0..16u8 {
        let v = step * 17;
        colours.push([v, v, v]);
    }
    for t in [0.25, 0.5, 0.75] {
        colours.push(palette::mix(palette::BACKGROUND, palette::CAPTION, t));
        colours.push(palette::mix(palette::BACKGROUND, palette::GOLD, t));
    }
    let levels = [0u8, 64, 128, 192, 255];
    for r in levels {
        for g in levels {
            for b in levels {
                colours.push([r, g, b]);
            }
        }
    }
    colours.dedup();
    colours.truncate(TRANSPARENT as usize);
    colours
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::game::Options;
    use engine::view::Viewer;

    #[test]
    fn the_palette_fits_with_room_for_transparency() {
        let colours = shared_palette();
        assert!(colours.len() <= 255, "{}", colours.len());
        assert!(colours.contains(&palette::LIGHT_CELL));
        // The board's own colours map to themselves.
        let mut q = Quantizer::new(colours.clone());
        for c in [palette::LIGHT_CELL, palette::DARK_CELL, palette::BACKGROUND] {
            assert_eq!(colours[q.index(c) as usize], c);
        }
    }

    /// After the first frame, a move sends only the rectangle that changed.
    #[test]
    fn later_frames_carry_only_what_changed() {
        let chess = engine::registry::variant("chess").unwrap();
        let mut state = chess.setup(&Options::new(), 2, 0).unwrap();
        let before = render_image(&chess.view(&state, Viewer::Spectator).unwrap());
        chess.play(&mut state, engine::Seat(0), "e4").unwrap();
        let after = render_image(&chess.view(&state, Viewer::Spectator).unwrap());
        let mut q = quantizer().lock().unwrap();
        let frame = changed_frame(&before, &after, &mut q, MOVE_DELAY).unwrap();
        assert!(
            u32::from(frame.width) * u32::from(frame.height) < after.width() * after.height(),
            "{}x{}",
            frame.width,
            frame.height
        );
        assert!(frame.buffer.contains(&TRANSPARENT));
        assert!(changed_frame(&after, &after, &mut q, MOVE_DELAY).is_none());
    }
}

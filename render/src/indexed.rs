//! Board images as indexed (palette) PNGs: a board PNG about a fifth of its RGB size, with
//! every colour the renderer paints on purpose kept exactly, within [`PNG_BUDGET`]
//! (`every_board_image_is_at_most_sixty_kilobytes` checks every variant). A board of a scene
//! is compressed as `scene` chooses (zlib's fastest way here, or `deflate`); a picture with
//! cards or a panel beside the board, by the fastest of a few zlib ways that keeps it within
//! the budget.

use image::RgbImage;

use crate::palette::{self, Rgb8};
use crate::RenderError;

/// What a board image may weigh: one is posted after every move.
pub const PNG_BUDGET: usize = 60 * 1024;

/// The most colours an indexed PNG holds.
const PALETTE_SIZE: usize = 256;
/// Of them, how many go to the commonest shades (the rest to the shades worst served).
const COMMON_SHADES: usize = 192;

/// The ways a picture is compressed by zlib, fastest first: at level 1 with each row stored
/// against the row above (a board's rows mostly repeat), then tighter for a busier picture.
const ATTEMPTS: [(png::DeflateCompression, png::Filter); 4] = [
    (png::DeflateCompression::Level(1), png::Filter::Up),
    (png::DeflateCompression::Level(2), png::Filter::NoFilter),
    (png::DeflateCompression::Level(4), png::Filter::NoFilter),
    (png::DeflateCompression::Level(6), png::Filter::NoFilter),
];

/// The first of [`ATTEMPTS`] for a board too heavy for the faster ways (zlib level 4).
pub(crate) const TIGHT: usize = 2;

/// The sizes of a picture (`width` by `height`, as `indices` into `colours`) compressed each
/// way of [`ATTEMPTS`], in bytes (a way that fails counts as over any budget).
#[cfg(test)]
fn sizes(size: (u32, u32), indices: &[u8], colours: &[Rgb8]) -> Vec<usize> {
    ATTEMPTS
        .iter()
        .map(|&(compression, filter)| {
            write_indexed(size, indices, colours, compression, filter)
                .map_or(usize::MAX, |png| png.len())
        })
        .collect()
}

/// A picture of `size` given as PNG `scanlines` of indices into `colours` (each row after its
/// filter byte, 0), compressed the fastest way, whatever it weighs: each row stored against
/// the row above (PNG's Up filter), then zlib-rs at level 1.
pub(crate) fn fastest(
    size: (u32, u32),
    mut scanlines: Vec<u8>,
    colours: &[Rgb8],
) -> Result<Vec<u8>, RenderError> {
    use std::io::Write;
    let stride = size.0 as usize + 1;
    // From the bottom row up, so that each row is stored against the row above as it was.
    for y in (1..size.1 as usize).rev() {
        let (above, row) = scanlines.split_at_mut(y * stride);
        let above = &above[(y - 1) * stride + 1..];
        let row = &mut row[..stride];
        row[0] = 2;
        for (byte, &up) in row[1..].iter_mut().zip(above) {
            *byte = byte.wrapping_sub(up);
        }
    }
    let mut zlib = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(PNG_BUDGET),
        flate2::Compression::new(1),
    );
    let error = |e: std::io::Error| RenderError(e.to_string());
    zlib.write_all(&scanlines).map_err(error)?;
    Ok(png_of_scanlines(
        size,
        colours,
        &zlib.finish().map_err(error)?,
    ))
}

/// PNG-encodes an image as an indexed PNG, the fastest way that keeps it within
/// [`PNG_BUDGET`] (the last way's, however heavy, if none does).
///
/// ```
/// let img = image::RgbImage::from_pixel(40, 30, image::Rgb([10, 200, 30]));
/// let png = render::encode(&img).unwrap();
/// let back = image::load_from_memory(&png).unwrap().to_rgb8();
/// assert_eq!(back, img);
/// ```
pub fn encode(img: &RgbImage) -> Result<Vec<u8>, RenderError> {
    let (indices, colours) = indexed(img);
    encode_indices(img.dimensions(), &indices, &colours, 0)
}

/// PNG-encodes an image of `size` given as palette indices, trying the ways of [`ATTEMPTS`]
/// from the `first` until one keeps it within [`PNG_BUDGET`].
pub(crate) fn encode_indices(
    size: (u32, u32),
    indices: &[u8],
    colours: &[Rgb8],
    first: usize,
) -> Result<Vec<u8>, RenderError> {
    let mut png = Vec::new();
    for &(compression, filter) in &ATTEMPTS[first.min(ATTEMPTS.len() - 1)..] {
        png = write_indexed(size, indices, colours, compression, filter)?;
        if png.len() <= PNG_BUDGET {
            break;
        }
    }
    Ok(png)
}

/// An indexed PNG of `size` from its palette indices.
fn write_indexed(
    (width, height): (u32, u32),
    indices: &[u8],
    colours: &[Rgb8],
    compression: png::DeflateCompression,
    filter: png::Filter,
) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(PNG_BUDGET);
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(colours.concat());
        encoder.set_deflate_compression(compression);
        encoder.set_filter(filter);
        let mut writer = encoder
            .write_header()
            .map_err(|e| RenderError(e.to_string()))?;
        writer
            .write_image_data(indices)
            .map_err(|e| RenderError(e.to_string()))?;
        writer.finish().map_err(|e| RenderError(e.to_string()))?;
    }
    Ok(out)
}

/// An indexed PNG of `width` by `height` whose scanlines are `zlib`, already compressed.
pub(crate) fn png_of_scanlines(
    (width, height): (u32, u32),
    colours: &[Rgb8],
    zlib: &[u8],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(zlib.len() + colours.len() * 3 + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut header = [0u8; 13];
    header[..4].copy_from_slice(&width.to_be_bytes());
    header[4..8].copy_from_slice(&height.to_be_bytes());
    // Eight bits a pixel, indexed colour, DEFLATE, adaptive filtering, no interlace.
    header[8..].copy_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"PLTE", &colours.concat());
    chunk(&mut out, b"IDAT", zlib);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Appends a PNG chunk: its length, type, data and CRC.
pub(crate) fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// `img` as palette indices, with its palette: every colour the renderer paints on purpose
/// keeps its exact value (`palette::painted`), the commonest of the remaining shades (the
/// anti-aliased edges between them) fill the palette up, and any other shade is drawn as its
/// nearest. A board holds one to five thousand shades, most of them a few pixels of an edge, so
/// the picture looks the same.
fn indexed(img: &RgbImage) -> (Vec<u8>, Vec<Rgb8>) {
    let width = img.width() as usize;
    let (counted, runs) = Shades::count(img);
    // Every shade with its number of pixels, sorted by colour, so that the palette never
    // depends on where in the picture a shade was met.
    let by_colour = counted.by_colour();
    let shades: Vec<(Rgb8, u32)> = by_colour
        .iter()
        .map(|&n| {
            (
                unpacked(counted.colours[n as usize]),
                counted.counts[n as usize],
            )
        })
        .collect();
    let (colours, index_of) = choose(&shades);
    let mut index_by_number = vec![0u8; by_colour.len()];
    for (&n, &index) in by_colour.iter().zip(&index_of) {
        index_by_number[n as usize] = index;
    }
    // Each pixel's index, run by run.
    let mut indices = vec![0u8; width * img.height() as usize];
    for (row, span) in indices.chunks_exact_mut(width.max(1)).zip(&runs.rows) {
        let mut at = 0;
        for &(n, length) in &runs.runs[span.clone()] {
            let end = at + length as usize;
            row[at..end].fill(index_by_number[n as usize]);
            at = end;
        }
    }
    (indices, colours)
}

/// The palette for the shades of a picture (sorted by colour, with their pixel counts), and
/// each shade's index in it: its own place, or its nearest colour's.
pub(crate) fn choose(shades: &[(Rgb8, u32)]) -> (Vec<Rgb8>, Vec<u8>) {
    let mut colours: Vec<Rgb8> = Vec::with_capacity(PALETTE_SIZE);
    // For a shade left out of the palette, the colour it is drawn as.
    let mut substitute: Vec<Option<Rgb8>> = vec![None; shades.len()];
    if shades.len() <= PALETTE_SIZE {
        colours.extend(shades.iter().map(|s| s.0));
    } else {
        let mut chosen = vec![false; shades.len()];
        let find = |colour: Rgb8| shades.binary_search_by_key(&colour, |s| s.0).ok();
        for c in palette::painted() {
            if let Some(i) = find(c) {
                if !chosen[i] {
                    chosen[i] = true;
                    colours.push(c);
                }
            }
        }
        // Commonest first; equal counts by colour, so the palette never depends on order.
        let mut rest: Vec<usize> = (0..shades.len()).filter(|&i| !chosen[i]).collect();
        rest.sort_unstable_by(|&x, &y| {
            shades[y]
                .1
                .cmp(&shades[x].1)
                .then(shades[x].0.cmp(&shades[y].0))
        });
        let common = COMMON_SHADES.saturating_sub(colours.len()).min(rest.len());
        for &i in &rest[..common] {
            chosen[i] = true;
            colours.push(shades[i].0);
        }
        // The last places go to the shades worst served so far, one at a time (the farthest
        // from every colour chosen): no rare edge is drawn far off its colour. The shades left
        // are kept as columns (red, green, blue, distance to the nearest colour chosen, that
        // colour packed), so that the distances are computed many at a time.
        let mut left = LeftShades::default();
        // In colour order, so that the first of equally near colours is the lowest.
        colours.sort_unstable();
        // As floats: every distance is a whole number below 2^18, exact in an f32, and floats
        // are multiplied many at a time on any x86-64.
        let chosen_columns: [Vec<f32>; 3] =
            std::array::from_fn(|c| colours.iter().map(|p| f32::from(p[c])).collect());
        let mut to_chosen = vec![0f32; colours.len()];
        for &i in &rest[common..] {
            let c = shades[i].0;
            let [r, g, b] = c.map(f32::from);
            for (((d, &cr), &cg), &cb) in to_chosen
                .iter_mut()
                .zip(&chosen_columns[0])
                .zip(&chosen_columns[1])
                .zip(&chosen_columns[2])
            {
                *d = (cr - r) * (cr - r) + (cg - g) * (cg - g) + (cb - b) * (cb - b);
            }
            // The nearest, the lowest colour among equally near ones.
            let (best, k) = nearest_of(&to_chosen);
            let nearest = colours.get(k).copied().unwrap_or(c);
            left.push(i, c, best as i32, nearest);
        }
        // The farthest, the first of equally far ones; found again while the distances are
        // brought down to the colour just picked.
        let farthest = |distance: &[i32]| {
            let mut at = 0;
            for (j, &d) in distance.iter().enumerate() {
                if d > distance[at] {
                    at = j;
                }
            }
            at
        };
        let mut at = farthest(&left.distance);
        while colours.len() < PALETTE_SIZE && !left.shade.is_empty() {
            let (_, picked) = left.swap_remove(at);
            colours.push(picked);
            let packed_pick = packed(&picked);
            let [pr, pg, pb] = picked.map(i32::from);
            at = 0;
            let mut far = i32::MIN;
            for j in 0..left.shade.len() {
                let (dr, dg, db) = (left.red[j] - pr, left.green[j] - pg, left.blue[j] - pb);
                let to_picked = dr * dr + dg * dg + db * db;
                if to_picked < left.distance[j] {
                    left.distance[j] = to_picked;
                    left.nearest[j] = packed_pick;
                }
                if left.distance[j] > far {
                    far = left.distance[j];
                    at = j;
                }
            }
        }
        // The shades left out are drawn as the colour found nearest on the way.
        for (&i, &p) in left.shade.iter().zip(&left.nearest) {
            substitute[i] = Some(unpacked(p));
        }
    }
    colours.sort_unstable();
    let index_of = shades
        .iter()
        .zip(&substitute)
        .map(|(&(shade, _), sub)| {
            let drawn = sub.unwrap_or(shade);
            let index = colours.binary_search(&drawn);
            debug_assert!(index.is_ok(), "a substitute is a palette colour");
            index.unwrap_or(0) as u8
        })
        .collect();
    (colours, index_of)
}

/// A colour packed into one word (`0x00RRGGBB`), the key shades are counted and found by.
#[inline]
pub(crate) fn packed(p: &[u8]) -> u32 {
    u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2])
}

#[inline]
pub(crate) fn unpacked(c: u32) -> Rgb8 {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// The shades not (yet) in the palette, as columns: each shade's number among the sorted
/// shades, its colour, its distance to the nearest colour chosen and that colour, packed.
#[derive(Default)]
struct LeftShades {
    shade: Vec<usize>,
    red: Vec<i32>,
    green: Vec<i32>,
    blue: Vec<i32>,
    distance: Vec<i32>,
    nearest: Vec<u32>,
}

impl LeftShades {
    fn push(&mut self, shade: usize, colour: Rgb8, distance: i32, nearest: Rgb8) {
        self.shade.push(shade);
        self.red.push(i32::from(colour[0]));
        self.green.push(i32::from(colour[1]));
        self.blue.push(i32::from(colour[2]));
        self.distance.push(distance);
        self.nearest.push(packed(&nearest));
    }

    /// Takes shade `at` out (the last one takes its place), giving its number and colour.
    fn swap_remove(&mut self, at: usize) -> (usize, Rgb8) {
        let colour = [
            self.red.swap_remove(at) as u8,
            self.green.swap_remove(at) as u8,
            self.blue.swap_remove(at) as u8,
        ];
        self.distance.swap_remove(at);
        self.nearest.swap_remove(at);
        (self.shade.swap_remove(at), colour)
    }
}

/// An image as runs of one shade (shade number, length), row by row; rows the same as the
/// row above share its runs.
struct ImageRuns {
    runs: Vec<(u32, u32)>,
    rows: Vec<std::ops::Range<usize>>,
}

/// The shades of one image in the order first met, each with its number of pixels, found by
/// packed colour in an open-addressing table. A board holds one to five thousand shades in half
/// a million pixels, mostly in long runs, so inside a run four pixels cost one comparison with
/// the four before them, and a probe comes only where the colour changes.
struct Shades {
    /// Each shade by hash slot, its packed colour above its number; `EMPTY` where none is.
    table: Vec<u64>,
    /// The table's size less one, and how far a hash is shifted to fit it.
    mask: usize,
    shift: u32,
    colours: Vec<u32>,
    counts: Vec<u32>,
}

impl Shades {
    const EMPTY: u64 = u64::MAX;

    /// Counts the shades of `img`, and gives each row as runs of one shade: a row the same
    /// as the row above (most rows of a board: inside a square, the same colours repeat row
    /// after row) is only compared, its runs shared with that row.
    fn count(img: &RgbImage) -> (Shades, ImageRuns) {
        let mut shades = Shades {
            table: vec![Shades::EMPTY; 4096],
            mask: 4095,
            shift: 64 - 12,
            colours: Vec::new(),
            counts: Vec::new(),
        };
        let stride = img.width() as usize * 3;
        let mut runs = ImageRuns {
            runs: Vec::new(),
            rows: Vec::with_capacity(img.height() as usize),
        };
        let mut above: Option<&[u8]> = None;
        for row in img.as_raw().chunks_exact(stride.max(1)) {
            if above == Some(row) {
                let same = runs.rows.last().cloned().unwrap_or(0..0);
                for &(n, length) in &runs.runs[same.clone()] {
                    shades.counts[n as usize] += length;
                }
                runs.rows.push(same);
                continue;
            }
            let first = runs.runs.len();
            let n = row.len() / 3;
            let mut i = 0;
            while i < n {
                let at = i * 3;
                let colour = packed(&row[at..at + 3]);
                // The run goes on while each byte is the one three before it: four pixels
                // compared at a time, then one.
                let mut j = i + 1;
                while j + 4 <= n && twelve(row, j * 3) == twelve(row, j * 3 - 3) {
                    j += 4;
                }
                while j < n && row[j * 3..j * 3 + 3] == row[at..at + 3] {
                    j += 1;
                }
                let number = shades.number(colour);
                let length = (j - i) as u32;
                runs.runs.push((number, length));
                shades.counts[number as usize] += length;
                i = j;
            }
            runs.rows.push(first..runs.runs.len());
            above = Some(row);
        }
        (shades, runs)
    }

    /// The number of shade `colour`, a new one if it was not met before.
    #[inline]
    fn number(&mut self, colour: u32) -> u32 {
        let mut at = self.home(colour);
        loop {
            let entry = self.table[at];
            if entry == Shades::EMPTY {
                break;
            }
            if (entry >> 32) as u32 == colour {
                return entry as u32;
            }
            at = (at + 1) & self.mask;
        }
        let n = self.colours.len() as u32;
        self.table[at] = u64::from(colour) << 32 | u64::from(n);
        self.colours.push(colour);
        self.counts.push(0);
        if self.colours.len() * 2 >= self.table.len() {
            self.grow();
        }
        n
    }

    /// Doubles the table once it is half full, so that probes stay short.
    #[cold]
    fn grow(&mut self) {
        let size = self.table.len() * 2;
        self.table = vec![Shades::EMPTY; size];
        self.mask = size - 1;
        self.shift = 64 - size.trailing_zeros();
        for n in 0..self.colours.len() {
            let colour = self.colours[n];
            let mut at = self.home(colour);
            while self.table[at] != Shades::EMPTY {
                at = (at + 1) & self.mask;
            }
            self.table[at] = u64::from(colour) << 32 | n as u64;
        }
    }

    /// The shade numbers in the order of their colours.
    fn by_colour(&self) -> Vec<u32> {
        let mut numbers: Vec<u32> = (0..self.colours.len() as u32).collect();
        numbers.sort_unstable_by_key(|&n| self.colours[n as usize]);
        numbers
    }

    #[inline]
    fn home(&self, colour: u32) -> usize {
        // Fibonacci hashing: the top bits of the product, as many as the table has slots.
        (u64::from(colour).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }
}

/// The least of `distances` and the first place it is at, eight lanes at a time (a scan
/// comparing one at a time was most of the time spent choosing a palette).
pub(crate) fn nearest_of(distances: &[f32]) -> (f32, usize) {
    const LANES: usize = 8;
    let mut least = [f32::MAX; LANES];
    let chunks = distances.chunks_exact(LANES);
    let tail = chunks.remainder();
    for chunk in chunks {
        for (m, &d) in least.iter_mut().zip(chunk) {
            *m = if d < *m { d } else { *m };
        }
    }
    let mut best = least
        .iter()
        .copied()
        .fold(f32::MAX, |a, b| if b < a { b } else { a });
    for &d in tail {
        best = if d < best { d } else { best };
    }
    let at = distances
        .chunks(LANES)
        .position(|chunk| chunk.iter().fold(false, |any, &d| any | (d == best)))
        .map_or(0, |c| {
            c * LANES
                + distances[c * LANES..]
                    .iter()
                    .position(|&d| d == best)
                    .unwrap_or(0)
        });
    (best, at)
}

/// Twelve bytes (four pixels) from `at`, as two words.
#[inline]
fn twelve(bytes: &[u8], at: usize) -> (u64, u32) {
    let head: [u8; 8] = bytes[at..at + 8].try_into().unwrap_or_default();
    let tail: [u8; 4] = bytes[at + 8..at + 12].try_into().unwrap_or_default();
    (u64::from_le_bytes(head), u32::from_le_bytes(tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_is_the_first_of_the_least() {
        let distances: Vec<f32> = (0..21).map(|i| ((i * 7) % 10) as f32 + 1.0).collect();
        // 1, 8, 5, 2, 9, 6, 3, 10, 7, 4, 1, ...: the least is 1, first at 0.
        assert_eq!(nearest_of(&distances), (1.0, 0));
        let mut later = distances.clone();
        later[0] = 50.0;
        later[10] = 50.0;
        later[20] = 0.5;
        assert_eq!(
            nearest_of(&later),
            (0.5, 20),
            "in the tail past the last lanes"
        );
        later[13] = 0.5;
        assert_eq!(nearest_of(&later), (0.5, 13));
    }

    /// On many random sets of shades, ties included: the palette keeps every painted colour,
    /// and every shade left out is drawn as a palette colour as near as any (of equally near
    /// ones, the first met on the way).
    #[test]
    fn every_shade_left_out_is_drawn_as_its_nearest() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        for round in 0..40 {
            let count = 200 + rng.gen_range(0..1200);
            // Coarse channels make many shades equally near one colour.
            let step = if round % 2 == 0 { 1 } else { 16 };
            let mut colours: Vec<Rgb8> = (0..count)
                .map(|_| std::array::from_fn(|_| (rng.gen_range(0..=255 / step) * step) as u8))
                .collect();
            colours.extend(palette::painted().into_iter().take(round % 12));
            colours.sort_unstable();
            colours.dedup();
            let shades: Vec<(Rgb8, u32)> = colours
                .iter()
                .map(|&c| (c, rng.gen_range(1..50) * rng.gen_range(1..50)))
                .collect();
            let (palette_colours, index_of) = choose(&shades);
            assert!(palette_colours.len() <= PALETTE_SIZE);
            assert!(
                palette_colours.windows(2).all(|w| w[0] < w[1]),
                "sorted, once each"
            );
            for painted in palette::painted() {
                if colours.binary_search(&painted).is_ok() {
                    assert!(palette_colours.contains(&painted), "{painted:?} kept");
                }
            }
            let distance = |a: Rgb8, b: Rgb8| -> i32 {
                (0..3)
                    .map(|i| (i32::from(a[i]) - i32::from(b[i])).pow(2))
                    .sum()
            };
            for (&(shade, _), &index) in shades.iter().zip(&index_of) {
                let drawn = palette_colours[usize::from(index)];
                let nearest = palette_colours
                    .iter()
                    .map(|&p| distance(p, shade))
                    .min()
                    .unwrap();
                assert_eq!(
                    distance(drawn, shade),
                    nearest,
                    "{shade:?} in round {round}"
                );
            }
        }
    }

    #[test]
    fn a_busy_picture_is_compressed_tighter_and_kept_exactly() {
        use image::Rgb;
        let quiet = RgbImage::from_pixel(300, 200, Rgb([40, 40, 40]));
        let (indices, colours) = indexed(&quiet);
        assert!(sizes(quiet.dimensions(), &indices, &colours)[0] < 1000);
        // Noise: every pixel one of 256 greys, nothing a fast compressor finds again.
        let mut seed = 12345u32;
        let busy = RgbImage::from_fn(300, 200, |_, _| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let v = (seed >> 16) as u8;
            Rgb([v, v, v])
        });
        let (indices, colours) = indexed(&busy);
        let sizes = sizes(busy.dimensions(), &indices, &colours);
        assert!(sizes[ATTEMPTS.len() - 1] < sizes[0], "{sizes:?}");
        let png = encode(&busy).unwrap();
        let back = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(back, busy, "256 shades or fewer are kept exactly");
    }
}

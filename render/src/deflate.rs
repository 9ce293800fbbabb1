//! Board images compressed the way lila-gif draws its frames: what never changes is worked out
//! once. A scene's background is parsed into back-references once, thoroughly ([`Hints::of`]);
//! a board drawn over it says again every one of them its drawing left alone, and searches
//! afresh only where it drew ([`zlib`]). The tokens are then written as one DEFLATE block
//! (RFC 1951) with Huffman codes made for the picture, inside a zlib stream (RFC 1950), as
//! PNG's IDAT wants it.
//!
//! The renderer says where it drew ([`Changed`], a superset of the bytes that differ from the
//! background). A back-reference of the background is said again unchecked only where
//! neither its bytes nor the bytes it copies were drawn over; anywhere else a copy is written
//! only after its bytes are compared with the bytes it copies. So any picture comes out
//! exactly, however much of it was drawn over (`every_picture_comes_back_exactly`).

/// DEFLATE's window: how far back a copy may reach.
const WINDOW: usize = 32 * 1024;
/// The shortest and longest copy DEFLATE can say.
const MIN_COPY: usize = 3;
const MAX_COPY: usize = 258;
/// The longest Huffman code of literals, lengths and distances, and of code lengths.
const MAX_CODE: u8 = 15;
const MAX_CODE_LENGTH_CODE: u8 = 7;
/// The literal/length symbol that ends a block.
const END_OF_BLOCK: usize = 256;
/// Bits of the hash of four bytes that finds earlier places with the same bytes.
const HASH_BITS: u32 = 13;
/// A copy short enough that the bytes it covers are still noted for later searches.
const FINDABLE_COPY: usize = 8;
/// A copy long enough that a drawn-over byte looks no further.
const GOOD_COPY: usize = 16;

/// A copy of `length` bytes from `distance` back, found at `at` in the background.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reference {
    at: u32,
    length: u16,
    distance: u16,
}

/// The background's copies, in order: the back-references a board drawn over it may reuse.
pub(crate) struct Hints {
    copies: Vec<Reference>,
}

impl Hints {
    /// Parses `background` (PNG scanlines) thoroughly: hash chains searched deep, with a
    /// one-step lazy look-ahead, as zlib's tightest levels do. Done once per scene, so its time
    /// is not a board's.
    pub(crate) fn of(background: &[u8]) -> Hints {
        const CHAIN: usize = 256;
        let n = background.len();
        let mut head = vec![u32::MAX; 1 << HASH_BITS];
        let mut previous = vec![u32::MAX; n];
        let insert = |at: usize, head: &mut Vec<u32>, previous: &mut Vec<u32>| {
            if at + 4 <= n {
                let h = hash4(background, at);
                previous[at] = head[h];
                head[h] = at as u32;
            }
        };
        let longest = |at: usize, head: &[u32], previous: &[u32]| -> (usize, usize) {
            let mut best = (0, 0);
            if at + 4 > n {
                return best;
            }
            let limit = MAX_COPY.min(n - at);
            let mut candidate = head[hash4(background, at)];
            let mut tries = CHAIN;
            while candidate != u32::MAX && tries > 0 {
                let from = candidate as usize;
                if at - from > WINDOW {
                    break;
                }
                // A longer copy must also match at the best one's last byte: a quick refusal.
                if background[from + best.0] == background[at + best.0] {
                    let length = common(background, from, at, limit);
                    if length > best.0 {
                        best = (length, at - from);
                        if length == limit {
                            break;
                        }
                    }
                }
                candidate = previous[from];
                tries -= 1;
            }
            best
        };
        let mut copies = Vec::new();
        let mut at = 0;
        let mut pending: Option<(usize, usize)> = None;
        while at < n {
            let found = longest(at, &head, &previous);
            insert(at, &mut head, &mut previous);
            match pending.take() {
                // The copy found one byte back is kept unless this one is longer.
                Some((length, distance)) if found.0 <= length => {
                    copies.push(Reference {
                        at: (at - 1) as u32,
                        length: length as u16,
                        distance: distance as u16,
                    });
                    for skipped in at + 1..at - 1 + length {
                        insert(skipped, &mut head, &mut previous);
                    }
                    at = at - 1 + length;
                    continue;
                }
                _ => {}
            }
            if found.0 >= 4 {
                pending = Some(found);
            }
            at += 1;
        }
        // A copy is never left pending at the end: none is found in the last three bytes.
        debug_assert!(pending.is_none());
        Hints { copies }
    }
}

/// Where a picture may differ from the background under it, by chunks of its scanlines: a
/// superset of the bytes that differ (the renderer marks where it drew).
pub(crate) struct Changed {
    chunks: Vec<u64>,
}

/// Bytes a chunk of [`Changed`], as a power of two.
const CHUNK_BITS: u32 = 4;

impl Changed {
    /// Nothing changed in `len` bytes of scanlines.
    pub(crate) fn new(len: usize) -> Changed {
        Changed {
            chunks: vec![0; (len >> CHUNK_BITS) / 64 + 1],
        }
    }

    /// Marks the bytes of `range` as changed.
    pub(crate) fn mark(&mut self, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        for chunk in range.start >> CHUNK_BITS..=(range.end - 1) >> CHUNK_BITS {
            self.chunks[chunk / 64] |= 1 << (chunk % 64);
        }
    }

    /// Whether byte `at` may have changed.
    #[inline(always)]
    fn at(&self, at: usize) -> bool {
        let chunk = at >> CHUNK_BITS;
        self.chunks[chunk / 64] & (1 << (chunk % 64)) != 0
    }

    /// The first byte from `at` on that has not changed (or `end`).
    #[inline(always)]
    fn unchanged_from(&self, at: usize, end: usize) -> usize {
        let chunk = at >> CHUNK_BITS;
        let mut word = chunk / 64;
        // The chunks of this word from `chunk` on that have not changed.
        let mut clean = !self.chunks[word] & (u64::MAX << (chunk % 64));
        while clean == 0 {
            word += 1;
            if word >= self.chunks.len() {
                return end;
            }
            clean = !self.chunks[word];
        }
        (((word * 64 + clean.trailing_zeros() as usize) << CHUNK_BITS).max(at)).min(end)
    }

    /// Whether any byte of `range` may have changed.
    #[inline(always)]
    fn any(&self, range: std::ops::Range<usize>) -> bool {
        if range.is_empty() {
            return false;
        }
        let (first, last) = (range.start >> CHUNK_BITS, (range.end - 1) >> CHUNK_BITS);
        (first / 64..=last / 64).any(|word| {
            let low = if word == first / 64 { first % 64 } else { 0 };
            let high = if word == last / 64 { last % 64 } else { 63 };
            let mask = (u64::MAX >> (63 - high)) & (u64::MAX << low);
            self.chunks[word] & mask != 0
        })
    }
}

/// `stream` (PNG scanlines of `stride` bytes a row) as a zlib stream. `background` is the
/// scanlines of the scene's background parsed into `hints`; the picture's byte `at` lies over
/// the background's byte `at - shift` (a caption of several lines pushes the board down by
/// `shift` bytes) and equals it unless `changed` says it may not.
pub(crate) fn zlib(
    stream: &[u8],
    stride: usize,
    background: &[u8],
    shift: usize,
    hints: &Hints,
    changed: &Changed,
) -> Vec<u8> {
    debug_assert!((0..stream.len()).all(|at| changed.any(at..at + 1)
        || at.checked_sub(shift).and_then(|b| background.get(b)) == Some(&stream[at])));
    let tokens = Tokens::parse(stream, stride, background, shift, hints, changed);
    let mut bits = Bits::with_capacity(64 * 1024);
    // zlib's header: DEFLATE with a 32 KB window, no dictionary, checked by FCHECK.
    bits.bytes(&[0x78, 0x9c]);
    tokens.write(&mut bits);
    let mut out = bits.finish();
    out.extend_from_slice(&simd_adler32::adler32(&stream).to_be_bytes());
    out
}

/// What a picture is said in: literals and copies, with how often each symbol is used.
struct Tokens {
    /// Each literal or copy by its symbols, as [`Tokens::write`] says them without asking which
    /// it is: its literal/length symbol (bits 0-8), the value of the length's extra bits
    /// (9-13), its distance symbol (14-18; [`NO_DISTANCE`] for a literal) and the value of the
    /// distance's extra bits (19-31).
    tokens: Vec<u32>,
    literal_lengths: [u32; 286],
    distances: [u32; 30],
}

/// The distance symbol of a literal: a code of no bits.
const NO_DISTANCE: usize = 30;

impl Tokens {
    /// Parses `stream`: the background's copies and literals where `changed` says the
    /// picture left them alone; elsewhere the longest of the background's copy (compared),
    /// the row above, a run and an earlier place with the same four bytes.
    fn parse(
        stream: &[u8],
        stride: usize,
        background: &[u8],
        shift: usize,
        hints: &Hints,
        changed: &Changed,
    ) -> Tokens {
        let mut tokens = Tokens {
            tokens: Vec::with_capacity(stream.len() / 16),
            literal_lengths: [0; 286],
            distances: [0; 30],
        };
        let n = stream.len();
        let mut recent = RECENT.with(|r| r.take());
        recent.resize(1 << HASH_BITS, u32::MAX);
        let copies = &hints.copies;
        let mut next_copy = 0;
        let mut at = 0;
        // The background's copy under byte `at`, if any: its distance and how much of it is
        // left from `at`.
        let mut under = |at: usize| -> Option<(usize, usize)> {
            let b = at.checked_sub(shift).filter(|&b| b < background.len())?;
            while copies
                .get(next_copy)
                .is_some_and(|c| (c.at as usize + c.length as usize) <= b)
            {
                next_copy += 1;
            }
            let copy = copies.get(next_copy).filter(|c| c.at as usize <= b)?;
            Some((
                copy.distance as usize,
                copy.at as usize + copy.length as usize - b,
            ))
        };
        while at < n {
            if !changed.at(at) {
                // Left alone: the background's copy, if nothing it copies was drawn over
                // either, or its literal.
                match under(at) {
                    Some((distance, left)) => {
                        if left >= MIN_COPY
                            && distance <= at
                            && !changed.any(at..at + left)
                            && !changed.any(at - distance..at - distance + left)
                        {
                            tokens.copy(left, distance);
                            at += left;
                            continue;
                        }
                        at = tokens.search(stream, at, stride, Some(distance), &mut recent);
                    }
                    None if at >= shift => {
                        tokens.literal(stream[at]);
                        at += 1;
                    }
                    None => at = tokens.search(stream, at, stride, None, &mut recent),
                }
                continue;
            }
            // Drawn over, up to the next byte left alone: searched afresh.
            let end = changed.unchanged_from(at, n);
            while at < end {
                let hinted = under(at).map(|(distance, _)| distance);
                at = tokens.search(stream, at, stride, hinted, &mut recent);
            }
        }
        RECENT.with(|r| r.replace(recent));
        tokens.literal_lengths[END_OF_BLOCK] += 1;
        tokens
    }

    /// Says the bytes from `at` as the longest copy of the background's (`hinted`), the row
    /// above, a run and, unless one of those is long already, the last place with the same
    /// four bytes; or as a literal. Returns where it stopped.
    #[inline(always)]
    fn search(
        &mut self,
        stream: &[u8],
        at: usize,
        stride: usize,
        hinted: Option<usize>,
        recent: &mut [u32],
    ) -> usize {
        let n = stream.len();
        let limit = MAX_COPY.min(n - at);
        let mut best = (0, 0);
        for distance in [hinted.unwrap_or(0), stride, 1] {
            consider(stream, at, distance, limit, &mut best);
        }
        if best.0 < GOOD_COPY && at + 4 <= n {
            let h = hash4(stream, at);
            let from = recent[h] as usize;
            recent[h] = at as u32;
            if from < at && at - from <= WINDOW {
                consider(stream, at, at - from, limit, &mut best);
            }
        }
        if best.0 >= MIN_COPY {
            self.copy(best.0, best.1);
            // The bytes of short copies are noted (figures repeat a few bytes apart).
            if best.0 < FINDABLE_COPY {
                for later in at + 1..(at + best.0).min(n.saturating_sub(3)) {
                    recent[hash4(stream, later)] = later as u32;
                }
            }
            at + best.0
        } else {
            self.literal(stream[at]);
            at + 1
        }
    }

    #[inline(always)]
    fn literal(&mut self, byte: u8) {
        self.tokens
            .push(u32::from(byte) | (NO_DISTANCE as u32) << 14);
        self.literal_lengths[usize::from(byte)] += 1;
    }

    #[inline(always)]
    fn copy(&mut self, length: usize, distance: usize) {
        debug_assert!((MIN_COPY..=MAX_COPY).contains(&length) && (1..=WINDOW).contains(&distance));
        let (length_symbol, _, length_extra) = length_symbol(length - MIN_COPY);
        let (distance_symbol, _, distance_extra) = distance_symbol(distance - 1);
        self.tokens.push(
            length_symbol as u32
                | length_extra << 9
                | (distance_symbol as u32) << 14
                | distance_extra << 19,
        );
        self.literal_lengths[length_symbol] += 1;
        self.distances[distance_symbol] += 1;
    }

    /// Writes the tokens as one final block with dynamic Huffman codes.
    fn write(&self, bits: &mut Bits) {
        let mut literal_lengths = code_lengths(&self.literal_lengths, MAX_CODE);
        let mut distances = code_lengths(&self.distances, MAX_CODE);
        at_least_two(&mut literal_lengths);
        at_least_two(&mut distances);
        let hlit = 257.max(last_used(&literal_lengths));
        let hdist = 1.max(last_used(&distances));
        let all: Vec<u8> = literal_lengths[..hlit]
            .iter()
            .chain(&distances[..hdist])
            .copied()
            .collect();
        let runs = run_lengths(&all);
        let mut run_frequencies = [0u32; 19];
        for &(symbol, _) in &runs {
            run_frequencies[usize::from(symbol)] += 1;
        }
        let mut run_lengths = code_lengths(&run_frequencies, MAX_CODE_LENGTH_CODE);
        at_least_two(&mut run_lengths);
        const ORDER: [usize; 19] = [
            16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
        ];
        let hclen = 4.max(
            ORDER
                .iter()
                .rposition(|&s| run_lengths[s] > 0)
                .map_or(0, |p| p + 1),
        );
        // BFINAL, then BTYPE 2 (dynamic codes).
        bits.put(1 | 2 << 1, 3);
        bits.put((hlit - 257) as u32, 5);
        bits.put((hdist - 1) as u32, 5);
        bits.put((hclen - 4) as u32, 4);
        for &symbol in &ORDER[..hclen] {
            bits.put(u32::from(run_lengths[symbol]), 3);
        }
        let run_codes = canonical(&run_lengths);
        for &(symbol, extra) in &runs {
            let (code, length) = run_codes[usize::from(symbol)];
            bits.put(code, length);
            match symbol {
                16 => bits.put(u32::from(extra), 2),
                17 => bits.put(u32::from(extra), 3),
                18 => bits.put(u32::from(extra), 7),
                _ => {}
            }
        }
        let literal_codes = canonical(&literal_lengths);
        let mut distance_codes = canonical(&distances);
        distance_codes.resize(NO_DISTANCE + 1, (0, 0));
        // Each symbol's code with its extra bits' count added to its length.
        let literal_codes: Vec<(u32, u32, u32)> = literal_codes
            .iter()
            .enumerate()
            .map(|(symbol, &(code, length))| {
                let extra = if symbol > END_OF_BLOCK {
                    length_symbol_extra(symbol)
                } else {
                    0
                };
                (code, length, extra)
            })
            .collect();
        let distance_codes: Vec<(u32, u32, u32)> = distance_codes
            .iter()
            .enumerate()
            .map(|(symbol, &(code, length))| {
                let extra = if symbol < NO_DISTANCE {
                    distance_symbol_extra(symbol)
                } else {
                    0
                };
                (code, length, extra)
            })
            .collect();
        // About what a board's tokens weigh; `put` makes more room if they weigh more.
        bits.reserve(self.tokens.len() * 2);
        for &token in &self.tokens {
            let (code, length, extra) = literal_codes[(token & 0x1ff) as usize];
            bits.put(code | ((token >> 9) & 0x1f) << length, length + extra);
            let (code, length, extra) = distance_codes[((token >> 14) & 0x1f) as usize];
            bits.put(code | (token >> 19) << length, length + extra);
        }
        let (code, length, _) = literal_codes[END_OF_BLOCK];
        bits.put(code, length);
    }
}

thread_local! {
    /// The last place each hash of four bytes was met, kept between pictures (a place left
    /// from another picture is compared like any other, so it can only miss).
    static RECENT: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes the copy from `distance` back at `at` the `best` (length, distance) if it is longer,
/// compared at length only if it agrees at the first byte and at the best length so far.
#[inline(always)]
fn consider(stream: &[u8], at: usize, distance: usize, limit: usize, best: &mut (usize, usize)) {
    if best.0 < limit
        && distance <= at
        && (1..=WINDOW).contains(&distance)
        && stream[at - distance] == stream[at]
        && stream[at - distance + best.0] == stream[at + best.0]
    {
        let length = common(stream, at - distance, at, limit);
        if length > best.0 {
            *best = (length, distance);
        }
    }
}

/// The hash of the four bytes at `at`.
#[inline(always)]
fn hash4(bytes: &[u8], at: usize) -> usize {
    let word = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (word.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// How many bytes from `at` equal those from `from` (`from < at`), up to `limit`; eight
/// compared at a time.
#[inline(always)]
fn common(bytes: &[u8], from: usize, at: usize, limit: usize) -> usize {
    let mut length = 0;
    while length + 8 <= limit {
        let a = u64::from_le_bytes(bytes[from + length..from + length + 8].try_into().unwrap());
        let b = u64::from_le_bytes(bytes[at + length..at + length + 8].try_into().unwrap());
        let differ = a ^ b;
        if differ != 0 {
            return length + (differ.trailing_zeros() / 8) as usize;
        }
        length += 8;
    }
    while length < limit && bytes[from + length] == bytes[at + length] {
        length += 1;
    }
    length
}

/// The literal/length symbol of a copy `length - 3` long, its extra bits and their value.
#[inline(always)]
fn length_symbol(less_three: usize) -> (usize, u32, u32) {
    match less_three {
        0..=7 => (257 + less_three, 0, 0),
        255 => (285, 0, 0),
        x => {
            let bits = usize::BITS - 1 - x.leading_zeros();
            let symbol = 257 + 4 * (bits as usize - 1) + ((x >> (bits - 2)) & 3);
            (symbol, bits - 2, (x & ((1 << (bits - 2)) - 1)) as u32)
        }
    }
}

/// The distance symbol of a copy from `distance - 1` back, its extra bits and their value.
#[inline(always)]
fn distance_symbol(less_one: usize) -> (usize, u32, u32) {
    match less_one {
        0..=3 => (less_one, 0, 0),
        x => {
            let bits = usize::BITS - 1 - x.leading_zeros();
            let symbol = 2 * bits as usize + ((x >> (bits - 1)) & 1);
            (symbol, bits - 1, (x & ((1 << (bits - 1)) - 1)) as u32)
        }
    }
}

/// Gives a code of fewer than two symbols a second (and a first) of one bit: a code of one
/// symbol is incomplete, which some inflaters refuse.
fn at_least_two(lengths: &mut [u8]) {
    let used: Vec<usize> = (0..lengths.len()).filter(|&s| lengths[s] > 0).collect();
    if used.len() < 2 {
        let first = used.first().copied().unwrap_or(0);
        let second = if first == 0 { 1 } else { 0 };
        lengths[first] = 1;
        lengths[second] = 1;
    }
}

/// The extra bits of length symbol `symbol` (257-285).
fn length_symbol_extra(symbol: usize) -> u32 {
    match symbol {
        257..=264 | 285 => 0,
        _ => (symbol as u32 - 261) / 4,
    }
}

/// The extra bits of distance symbol `symbol` (0-29).
fn distance_symbol_extra(symbol: usize) -> u32 {
    (symbol as u32 / 2).saturating_sub(1)
}

/// One past the last symbol with a code.
fn last_used(lengths: &[u8]) -> usize {
    lengths.iter().rposition(|&l| l > 0).map_or(0, |p| p + 1)
}

/// The code lengths said as DEFLATE says them: each length (0-15), a repeat of the previous
/// length three to six times (16), or a run of zeros of 3-10 (17) or 11-138 (18), each with
/// its extra bits' value.
fn run_lengths(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut runs = Vec::new();
    let mut at = 0;
    while at < lengths.len() {
        let length = lengths[at];
        let same = lengths[at..].iter().take_while(|&&l| l == length).count();
        if length == 0 && same >= 3 {
            let take = same.min(138);
            if take >= 11 {
                runs.push((18, (take - 11) as u8));
            } else {
                runs.push((17, (take - 3) as u8));
            }
            at += take;
        } else if length != 0 && same >= 4 {
            runs.push((length, 0));
            let take = (same - 1).min(6);
            runs.push((16, (take - 3) as u8));
            at += 1 + take;
        } else {
            runs.push((length, 0));
            at += 1;
        }
    }
    runs
}

/// The lengths of an optimal prefix code for `frequencies` with no code longer than `limit`
/// bits: Huffman's, unless it is too deep, then package-merge's. Unused symbols get no code; a
/// lone symbol gets one bit.
fn code_lengths(frequencies: &[u32], limit: u8) -> Vec<u8> {
    let mut lengths = vec![0u8; frequencies.len()];
    let mut leaves: Vec<(u64, usize)> = frequencies
        .iter()
        .enumerate()
        .filter(|(_, &f)| f > 0)
        .map(|(symbol, &f)| (u64::from(f), symbol))
        .collect();
    match leaves.len() {
        0 => return lengths,
        1 => {
            lengths[leaves[0].1] = 1;
            return lengths;
        }
        _ => {}
    }
    leaves.sort_unstable();
    // Huffman's tree by two queues: the leaves, lightest first, and the joined nodes, made
    // in order of weight. Nodes 0..n are the leaves, n.. the joined ones.
    let n = leaves.len();
    let mut weight: Vec<u64> = leaves.iter().map(|&(w, _)| w).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut next_leaf, mut next_joined) = (0, n);
    for _ in 0..n - 1 {
        let mut lightest = || {
            if next_leaf < n
                && (next_joined == weight.len() || weight[next_leaf] <= weight[next_joined])
            {
                next_leaf += 1;
                next_leaf - 1
            } else {
                next_joined += 1;
                next_joined - 1
            }
        };
        let (a, b) = (lightest(), lightest());
        parent[a] = weight.len();
        parent[b] = weight.len();
        weight.push(weight[a] + weight[b]);
    }
    let mut depth = vec![0u8; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    if depth[..n].iter().all(|&d| d <= limit) {
        for (&(_, symbol), &d) in leaves.iter().zip(&depth) {
            lengths[symbol] = d;
        }
        return lengths;
    }
    limited_lengths(&leaves, limit, lengths)
}

/// The lengths of the optimal code no longer than `limit` bits for `leaves` (weight and
/// symbol, lightest first, at least two), by package-merge, into `lengths`.
fn limited_lengths(leaves: &[(u64, usize)], limit: u8, mut lengths: Vec<u8>) -> Vec<u8> {
    // Nodes: a leaf (its symbol) or a package of two earlier nodes.
    enum Node {
        Leaf(usize),
        Package(usize, usize),
    }
    let mut nodes: Vec<Node> = leaves.iter().map(|&(_, s)| Node::Leaf(s)).collect();
    let leaf_items: Vec<(u64, usize)> = leaves
        .iter()
        .enumerate()
        .map(|(i, &(w, _))| (w, i))
        .collect();
    let mut list = leaf_items.clone();
    for _ in 1..limit {
        let packages: Vec<(u64, usize)> = list
            .chunks_exact(2)
            .map(|pair| {
                nodes.push(Node::Package(pair[0].1, pair[1].1));
                (pair[0].0 + pair[1].0, nodes.len() - 1)
            })
            .collect();
        let mut merged = Vec::with_capacity(leaf_items.len() + packages.len());
        let (mut i, mut j) = (0, 0);
        while i < leaf_items.len() || j < packages.len() {
            if j == packages.len() || (i < leaf_items.len() && leaf_items[i].0 <= packages[j].0) {
                merged.push(leaf_items[i]);
                i += 1;
            } else {
                merged.push(packages[j]);
                j += 1;
            }
        }
        list = merged;
    }
    let mut stack: Vec<usize> = list[..2 * leaves.len() - 2]
        .iter()
        .map(|&(_, n)| n)
        .collect();
    while let Some(node) = stack.pop() {
        match nodes[node] {
            Node::Leaf(symbol) => lengths[symbol] += 1,
            Node::Package(a, b) => {
                stack.push(a);
                stack.push(b);
            }
        }
    }
    lengths
}

/// Canonical Huffman codes for `lengths` (RFC 1951, 3.2.2), each bit-reversed, as DEFLATE
/// writes codes from their first bit, with its length.
fn canonical(lengths: &[u8]) -> Vec<(u32, u32)> {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return (0, 0);
            }
            let code = next[usize::from(l)];
            next[usize::from(l)] += 1;
            (code.reverse_bits() >> (32 - u32::from(l)), u32::from(l))
        })
        .collect()
}

/// Bits written from each byte's lowest bit up, as DEFLATE packs them. Whole bytes leave
/// the pending bits after every write, by arithmetic rather than a test, eight bytes stored
/// at a time into room kept ahead.
struct Bits {
    out: Vec<u8>,
    /// How many bytes of `out` are written.
    len: usize,
    pending: u64,
    count: u32,
}

impl Bits {
    fn with_capacity(bytes: usize) -> Bits {
        Bits {
            out: Vec::with_capacity(bytes),
            len: 0,
            pending: 0,
            count: 0,
        }
    }

    /// Appends whole bytes, such as a header.
    fn bytes(&mut self, bytes: &[u8]) {
        debug_assert_eq!(self.count, 0);
        self.out.truncate(self.len);
        self.out.extend_from_slice(bytes);
        self.len = self.out.len();
    }

    /// Keeps room for `bytes` more.
    fn reserve(&mut self, bytes: usize) {
        self.out.resize(self.len + bytes + 8, 0);
    }

    /// Writes the low `n` bits of `value` (`n` at most 28).
    #[inline(always)]
    fn put(&mut self, value: u32, n: u32) {
        debug_assert!(n <= 28 && u64::from(value) < 1 << n.max(1));
        self.pending |= u64::from(value) << self.count;
        self.count += n;
        if self.out.len() < self.len + 8 {
            self.reserve(64);
        }
        self.out[self.len..self.len + 8].copy_from_slice(&self.pending.to_le_bytes());
        let whole = self.count / 8;
        self.len += whole as usize;
        // At most 35 bits are pending, so the shift is below 64.
        self.pending >>= whole * 8;
        self.count -= whole * 8;
    }

    /// The bytes, the last one padded with zeros.
    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.put(0, 8 - self.count);
        }
        self.out.truncate(self.len);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inflates a zlib stream of scanlines `stride` bytes long with the `png` crate's decoder,
    /// as the grey PNG they make.
    fn png_of(stream: &[u8], stride: usize, zlib: &[u8]) -> Vec<u8> {
        let rows = stream.len() / stride;
        let mut png = Vec::new();
        png.extend_from_slice(b"\x89PNG\r\n\x1a\n");
        let mut header = Vec::new();
        header.extend_from_slice(&((stride - 1) as u32).to_be_bytes());
        header.extend_from_slice(&(rows as u32).to_be_bytes());
        header.extend_from_slice(&[8, 0, 0, 0, 0]);
        crate::indexed::chunk(&mut png, b"IHDR", &header);
        crate::indexed::chunk(&mut png, b"IDAT", zlib);
        crate::indexed::chunk(&mut png, b"IEND", &[]);
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::IDENTITY);
        let mut reader = decoder.read_info().unwrap();
        let mut out = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut out).unwrap();
        out
    }

    /// The length and distance of a copy's token (none for a literal's).
    fn copy_of(token: u32) -> Option<(usize, usize)> {
        let symbol = (token & 0x1ff) as usize;
        if symbol <= END_OF_BLOCK {
            return None;
        }
        let length = (3..=258)
            .find(|&l| {
                let (s, _, extra) = length_symbol(l - 3);
                s == symbol && extra == (token >> 9) & 0x1f
            })
            .unwrap();
        let distance_symbol = ((token >> 14) & 0x1f) as usize;
        let distance = (1..=WINDOW)
            .find(|&d| distance_symbol_of(d) == (distance_symbol, token >> 19))
            .unwrap();
        Some((length, distance))
    }

    fn distance_symbol_of(distance: usize) -> (usize, u32) {
        let (s, _, extra) = distance_symbol(distance - 1);
        (s, extra)
    }

    fn scanlines(rows: &[Vec<u8>]) -> Vec<u8> {
        rows.iter()
            .flat_map(|r| std::iter::once(0).chain(r.iter().copied()))
            .collect()
    }

    fn pixels(stream: &[u8], stride: usize) -> Vec<u8> {
        stream
            .chunks_exact(stride)
            .flat_map(|r| r[1..].to_vec())
            .collect()
    }

    /// A small random generator (xorshift), so the test needs no crate.
    fn noise(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    #[test]
    fn every_picture_comes_back_exactly() {
        let mut next = noise(7);
        for case in 0..200 {
            let width = 1 + (next() % 300) as usize;
            let height = 1 + (next() % 120) as usize;
            let colours = 1 + next() % [2, 5, 256][case % 3];
            // A background of stripes and blocks, and a picture with some of it drawn over.
            let background: Vec<Vec<u8>> = (0..height)
                .map(|y| {
                    (0..width)
                        .map(|x| ((x / 7 + y / 5) as u64 % colours) as u8)
                        .collect()
                })
                .collect();
            let mut picture = background.clone();
            for _ in 0..(next() % 40) {
                let (x0, y0) = ((next() as usize) % width, (next() as usize) % height);
                let (w, h) = (1 + next() as usize % 30, 1 + next() as usize % 30);
                let fill = next() % 4;
                for row in picture.iter_mut().skip(y0).take(h) {
                    for p in row.iter_mut().skip(x0).take(w) {
                        *p = if fill == 0 {
                            next() as u8
                        } else {
                            (fill * 40) as u8
                        };
                    }
                }
            }
            let stride = width + 1;
            let bg = scanlines(&background);
            let hints = Hints::of(&bg);
            for shift_rows in [0, 1 + case % 3] {
                let mut rows = vec![vec![9u8; width]; shift_rows];
                rows.extend(picture.iter().cloned());
                let stream = scanlines(&rows);
                // What differs, and a few places more (a renderer's boxes are generous).
                let shift = shift_rows * stride;
                let mut changed = Changed::new(stream.len());
                for at in 0..stream.len() {
                    if at < shift || stream[at] != bg[at - shift] || next().is_multiple_of(50) {
                        changed.mark(at..at + 1);
                    }
                }
                let z = zlib(&stream, stride, &bg, shift, &hints, &changed);
                assert_eq!(
                    png_of(&stream, stride, &z),
                    pixels(&stream, stride),
                    "case {case}, shifted {shift_rows} rows"
                );
            }
        }
    }

    #[test]
    fn the_background_itself_is_said_in_its_own_copies() {
        let width = 200;
        let rows: Vec<Vec<u8>> = (0..100)
            .map(|y| (0..width).map(|x| ((x + y) / 9 % 3) as u8).collect())
            .collect();
        let bg = scanlines(&rows);
        let hints = Hints::of(&bg);
        let unchanged = Changed::new(bg.len());
        let tokens = Tokens::parse(&bg, width + 1, &bg, 0, &hints, &unchanged);
        let copies: Vec<Reference> = tokens
            .tokens
            .iter()
            .scan(0, |at, &t| {
                let copy = copy_of(t).map(|(length, distance)| Reference {
                    at: *at as u32,
                    length: length as u16,
                    distance: distance as u16,
                });
                *at += copy.map_or(1, |c| usize::from(c.length));
                Some(copy)
            })
            .flatten()
            .collect();
        assert_eq!(copies, hints.copies);
        // Diagonal stripes: every row is the row above moved by one.
        assert!(zlib(&bg, width + 1, &bg, 0, &hints, &unchanged).len() < 400);
    }

    #[test]
    fn codes_are_no_longer_than_their_limit_and_complete() {
        // Fibonacci frequencies make the deepest unlimited Huffman tree.
        let mut frequencies = vec![1u32, 1];
        while frequencies.len() < 30 {
            let n = frequencies.len();
            frequencies.push(frequencies[n - 1] + frequencies[n - 2]);
        }
        for limit in [7, 15] {
            let lengths = code_lengths(&frequencies, limit);
            assert!(lengths.iter().all(|&l| (1..=limit).contains(&l)));
            let kraft: f64 = lengths.iter().map(|&l| 0.5f64.powi(i32::from(l))).sum();
            assert!((kraft - 1.0).abs() < 1e-12, "limit {limit}: {kraft}");
        }
    }

    #[test]
    fn huffman_and_package_merge_agree_on_the_cost() {
        assert_eq!(code_lengths(&[1, 1, 2, 4, 0], 15), vec![3, 3, 2, 1, 0]);
        let mut next = noise(3);
        for _ in 0..200 {
            let frequencies: Vec<u32> = (0..1 + next() % 286)
                .map(|_| {
                    if next().is_multiple_of(4) {
                        0
                    } else {
                        (next() % 5000) as u32
                    }
                })
                .collect();
            let huffman = code_lengths(&frequencies, 15);
            let mut leaves: Vec<(u64, usize)> = frequencies
                .iter()
                .enumerate()
                .filter(|(_, &f)| f > 0)
                .map(|(s, &f)| (u64::from(f), s))
                .collect();
            if leaves.len() < 2 {
                continue;
            }
            leaves.sort_unstable();
            let merged = limited_lengths(&leaves, 15, vec![0; frequencies.len()]);
            let cost = |lengths: &[u8]| -> u64 {
                lengths
                    .iter()
                    .zip(&frequencies)
                    .map(|(&l, &f)| u64::from(l) * u64::from(f))
                    .sum()
            };
            assert_eq!(cost(&huffman), cost(&merged));
        }
    }

    #[test]
    fn symbols_follow_rfc_1951() {
        // (length, symbol, extra bits) from RFC 1951's table, at each range's ends.
        for (length, symbol, extra) in [
            (3, 257, 0),
            (10, 264, 0),
            (11, 265, 1),
            (12, 265, 1),
            (13, 266, 1),
            (19, 269, 2),
            (34, 272, 2),
            (35, 273, 3),
            (67, 277, 4),
            (131, 281, 5),
            (257, 284, 5),
            (258, 285, 0),
        ] {
            let (s, e, _) = length_symbol(length - 3);
            assert_eq!((s, e), (symbol, extra), "length {length}");
        }
        for (distance, symbol, extra) in [
            (1, 0, 0),
            (4, 3, 0),
            (5, 4, 1),
            (7, 5, 1),
            (9, 6, 2),
            (25, 9, 3),
            (257, 16, 7),
            (24577, 29, 13),
            (32768, 29, 13),
        ] {
            let (s, e, _) = distance_symbol(distance - 1);
            assert_eq!((s, e), (symbol, extra), "distance {distance}");
        }
        // The writer's tables of extra bits agree with every length and distance.
        for length in 3..=258 {
            let (symbol, extra, value) = length_symbol(length - 3);
            assert_eq!(length_symbol_extra(symbol), extra);
            assert!(value < 1 << extra.max(1));
        }
        for distance in 1..=WINDOW {
            let (symbol, extra, value) = distance_symbol(distance - 1);
            assert_eq!(distance_symbol_extra(symbol), extra);
            assert!(value < 1 << extra.max(1));
        }
    }
}

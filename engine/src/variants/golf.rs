//! Chess Golf's rules and a solver for its holes (Don Kirkby, Chess Kit, "Chess Golf"; the
//! precise rules as RULES-NOTES restores them from the author's solver).
//!
//! - The sixteen piece cards (no pawns) are dealt onto an empty board from a1 along each rank
//!   to h8, leaving before each piece its card's gap (knight 1, bishop 2, rook 3, queen 5,
//!   king 6).
//! - A hole deals two (or three) cards: the chosen types, each a colour and a piece.
//! - A piece moves only by borrowing: its moves are the union of the moves of the pieces of its
//!   own colour on the eight squares around it (its own type gives it nothing).
//! - Special move: when a colour has no two pieces side by side or corner to corner, every
//!   piece of that colour may step like a king.
//! - Any piece may make moves that capture nothing. A capture is allowed only by a piece of a
//!   chosen type onto a piece of another chosen type, of either colour; in a three-card hole,
//!   once a capture has happened only the capturing piece may capture again.
//! - The hole is solved when one chosen piece has taken one of each other chosen type.
//!
//! Interpretation: the special move counts everywhere, also in the book's introduction, which
//! was written before it is explained: there the white king takes a black bishop in three moves
//! (b3-c3 breaks White's last pair, the queen steps f1-g1 as a king, then the king borrows the
//! queen's move: h2xe5), where the introduction says such solutions take at least four.
//!
//! ```
//! use engine::variants::golf::{GolfBoard, Chosen};
//!
//! // The book's introduction: the white king and the black bishops, three moves.
//! let board = GolfBoard::from_fen("2B3R1/5k2/1r1n1N2/1r2b3/R5q1/1B1n1N2/b6K/5Q2").unwrap();
//! let chosen = Chosen::parse("K,b").unwrap();
//! let path = board.solve(&chosen, 8).unwrap().unwrap();
//! assert_eq!(path.len(), 3);
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::board::{COMPASS, KNIGHT};
use crate::cards::{Card, Face};
use crate::chess::{Role, Seat};

/// A square, `a1` = 0 to `h8` = 63.
pub type Square = u8;

/// A golf piece: colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GolfPiece {
    pub side: Seat,
    pub role: Role,
}

impl GolfPiece {
    fn letter(self) -> char {
        let c = self.role.upper_char();
        if self.side == Seat::WHITE {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }
}

/// A square's name (`e5`).
pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1)
}

/// One move of a golf path: from, to, and the role whose movement it borrowed (`None` for the
/// special king step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GolfMove {
    pub from: Square,
    pub to: Square,
    pub capture: bool,
    /// The movement used, as the role lent it (a king step may be the special move).
    pub borrowed: Role,
}

impl fmt::Display for GolfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{}{sep}{}", square_name(self.from), square_name(self.to))
    }
}

/// A move of a demonstration as played: the move, and whether it completed the hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub played: GolfMove,
    pub solves: bool,
}

/// The chosen types of a hole (two or three cards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen(pub Vec<GolfPiece>);

impl Chosen {
    /// Reads `K,b` (upper case White): two or three piece letters, no pawns.
    pub fn parse(text: &str) -> Result<Chosen, String> {
        let mut chosen = Vec::new();
        for part in text.split([',', ' ', '+']).filter(|p| !p.is_empty()) {
            for c in part.chars() {
                let card = Card::from_letter(c).ok_or_else(|| {
                    format!("'{c}' is not a piece letter (K Q R B N, lower case for Black)")
                })?;
                match card.face {
                    Face::Piece(Role::Pawn) | Face::Checker => {
                        return Err("Chess Golf deals no pawn or checker cards".into())
                    }
                    Face::Piece(role) => chosen.push(GolfPiece {
                        side: card.side,
                        role,
                    }),
                }
            }
        }
        if !(2..=3).contains(&chosen.len()) {
            return Err(format!(
                "a hole chooses two or three types, not {}",
                chosen.len()
            ));
        }
        Ok(Chosen(chosen))
    }
}

/// A golf position: up to sixteen pieces on the 64 squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GolfBoard {
    squares: [Option<GolfPiece>; 64],
}

const KING_STEPS: [(i32, i32); 8] = COMPASS;
const KNIGHT_JUMPS: [(i32, i32); 8] = KNIGHT;

fn offset(s: Square, (df, dr): (i32, i32)) -> Option<Square> {
    let (f, r) = ((s % 8) as i32 + df, (s / 8) as i32 + dr);
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as Square)
}

/// A searched position, compactly (see [`GolfBoard::key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    occupied: u64,
    kinds: u128,
    progress: u16,
}

/// The nibbles of `kinds` below nibble `i`.
fn nibbles_below(kinds: u128, i: u32) -> u128 {
    kinds & 1u128.checked_shl(4 * i).map_or(u128::MAX, |b| b - 1)
}

impl Key {
    /// The key after move `m` (a capture replaces the piece on its target) with the hole's
    /// progress `now`: the mover's kind leaves its place in the square-ordered list and is put
    /// back at the target's place, without rebuilding the board.
    fn after(self, m: GolfMove, now: Progress) -> Key {
        let rank = |occupied: u64, s: Square| (occupied & ((1u64 << s) - 1)).count_ones();
        let remove = |kinds: u128, i: u32| -> (u128, u128) {
            let nibble = kinds.checked_shr(4 * i).unwrap_or(0) & 0xf;
            let above = kinds.checked_shr(4 * i + 4).unwrap_or(0);
            (
                nibbles_below(kinds, i) | above.checked_shl(4 * i).unwrap_or(0),
                nibble,
            )
        };
        let (mut occupied, mut kinds) = (self.occupied, self.kinds);
        let (rest, mover) = remove(kinds, rank(occupied, m.from));
        occupied &= !(1 << m.from);
        kinds = rest;
        if m.capture {
            kinds = remove(kinds, rank(occupied, m.to)).0;
            occupied &= !(1 << m.to);
        }
        let i = rank(occupied, m.to);
        let above = kinds.checked_shr(4 * i).unwrap_or(0);
        kinds = nibbles_below(kinds, i)
            | mover.checked_shl(4 * i).unwrap_or(0)
            | above.checked_shl(4 * i + 4).unwrap_or(0);
        occupied |= 1 << m.to;
        Key {
            occupied,
            kinds,
            progress: Progress::packed(now),
        }
    }
}

/// A quick hash for [`Key`]s (the search's own positions, nothing an outsider chooses):
/// the words mixed by multiplication.
#[derive(Clone, Copy, Default)]
struct KeyHasher;

impl std::hash::BuildHasher for KeyHasher {
    type Hasher = MixHasher;
    fn build_hasher(&self) -> MixHasher {
        MixHasher(0)
    }
}

struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
}

/// Whether a movement among `roles` could take a piece from `x` to `y` on an empty board (the
/// cheap test before the path is looked at).
fn lent_shape_reaches(x: Square, y: Square, roles: u8) -> bool {
    let df = ((y % 8) as i32 - (x % 8) as i32).abs();
    let dr = ((y / 8) as i32 - (x / 8) as i32).abs();
    let has = |r: Role| roles >> r as u8 & 1 == 1;
    (has(Role::King) && df <= 1 && dr <= 1)
        || (has(Role::Knight) && df * dr == 2)
        || ((df == 0 || dr == 0) && (has(Role::Rook) || has(Role::Queen)))
        || (df == dr && (has(Role::Bishop) || has(Role::Queen)))
}

/// Whether two of the squares in `mine` are neighbours: the king-step spread of the squares
/// meets them (a square is never its own neighbour).
fn pair_in(mine: u64) -> bool {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let east = (mine << 1) & NOT_A;
    let west = (mine >> 1) & NOT_H;
    let row = mine | east | west;
    let spread = east | west | row << 8 | row >> 8;
    spread & mine != 0
}

/// A solution found in a [`Pass`]: the frontier position it starts from and its last three
/// moves.
struct Found {
    parent: Key,
    moves: [GolfMove; 3],
}

/// One breadth-first pass: the children of a frontier, each new one looked at for a solution
/// two moves longer. The frontier is shared out among threads in turn; the solution kept is
/// the one from the earliest frontier position, so the answer does not depend on timing.
struct Pass {
    children: Vec<(Key, Key, GolfMove)>,
    found: Option<Found>,
}

impl Pass {
    fn run(
        frontier: &[Key],
        seen: &HashMap<Key, (Key, GolfMove), KeyHasher>,
        kinds: &[GolfPiece],
        threads: usize,
    ) -> Pass {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let earliest = AtomicUsize::new(usize::MAX);
        let work = |first: usize| {
            let mut children = Vec::new();
            let mut mine: std::collections::HashSet<Key, KeyHasher> = Default::default();
            let mut found = None;
            for i in (first..frontier.len()).step_by(threads) {
                if i > earliest.load(Ordering::Relaxed) {
                    break;
                }
                let key = frontier[i];
                let (board, progress) = GolfBoard::from_key(key);
                for (m, now) in board.successors(kinds, progress) {
                    let child = key.after(m, now);
                    if seen.contains_key(&child) || !mine.insert(child) {
                        continue;
                    }
                    children.push((child, key, m));
                    let mut after = board.clone();
                    after.play(m);
                    if let Some((m2, last)) = after.enabling_move(kinds, now) {
                        earliest.fetch_min(i, Ordering::Relaxed);
                        found = Some((
                            i,
                            Found {
                                parent: key,
                                moves: [m, m2, last],
                            },
                        ));
                        break;
                    }
                }
                if found.is_some() {
                    break;
                }
            }
            (children, found)
        };
        let results: Vec<_> = if threads <= 1 {
            vec![work(0)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || work(t))).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            })
        };
        let mut pass = Pass {
            children: Vec::new(),
            found: None,
        };
        let mut best = usize::MAX;
        for (children, found) in results {
            pass.children.extend(children);
            if let Some((i, f)) = found {
                if i < best {
                    best = i;
                    pass.found = Some(f);
                }
            }
        }
        pass
    }
}

/// Where a finishing capture could come from in a position, for [`GolfBoard::may_enable`].
struct Reach {
    /// Squares of pieces of a chosen type still in play (possible capturers and victims).
    chosen: u64,
    /// For each colour, the squares next to a possible capturer of that colour.
    beside_capturer: [u64; 2],
    /// Lone pieces between a possible capturer and a chosen piece on a line.
    between: u64,
    /// For each colour, its pairs of neighbours; for each square, the pairs it is in.
    pairs: [u32; 2],
    pair_degree: [u32; 64],
}

impl Reach {
    fn of(board: &GolfBoard, kinds: &[GolfPiece], progress: Progress) -> Reach {
        let wanted = |p: GolfPiece| {
            (0..kinds.len()).any(|i| progress.remaining >> i & 1 == 1 && kinds[i] == p)
        };
        let mut chosen = 0u64;
        let mut capturers = Vec::new();
        for s in 0..64u8 {
            let Some(p) = board.at(s) else { continue };
            if wanted(p) || progress.capturer == Some(s) {
                chosen |= 1 << s;
            }
            let may_capture = match progress.capturer {
                Some(c) => c == s,
                None => wanted(p),
            };
            if may_capture {
                capturers.push((s, p.side));
            }
        }
        let mut beside_capturer = [0u64; 2];
        let mut between = 0u64;
        for &(x, side) in &capturers {
            for n in KING_STEPS.iter().filter_map(|&d| offset(x, d)) {
                beside_capturer[side.index()] |= 1 << n;
            }
            // One move clears one square: only a lone piece between a possible capturer and
            // a chosen piece behind it can be in the way of a capture the move makes possible.
            for &d in &KING_STEPS {
                let mut first = None;
                let mut at = x;
                while let Some(next) = offset(at, d) {
                    at = next;
                    if board.at(next).is_none() {
                        continue;
                    }
                    match first {
                        None => first = Some(next),
                        Some(blocker) => {
                            if chosen >> next & 1 == 1 {
                                between |= 1u64 << blocker;
                            }
                            break;
                        }
                    }
                }
            }
        }
        let mut pairs = [0u32; 2];
        let mut pair_degree = [0u32; 64];
        for s in 0..64u8 {
            let Some(p) = board.at(s) else { continue };
            for n in KING_STEPS.iter().filter_map(|&d| offset(s, d)) {
                if n > s && board.at(n).is_some_and(|q| q.side == p.side) {
                    pairs[p.side.index()] += 1;
                    pair_degree[s as usize] += 1;
                    pair_degree[n as usize] += 1;
                }
            }
        }
        Reach {
            chosen,
            beside_capturer,
            between,
            pairs,
            pair_degree,
        }
    }
}

/// What is left to take in a hole, and by whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct Progress {
    /// The square of the piece that has captured, once one has.
    capturer: Option<Square>,
    /// Bits of the chosen types still to be taken (after the first capture).
    remaining: u8,
}

impl Progress {
    /// A hole not yet begun.
    pub(crate) fn start(chosen: &Chosen) -> Progress {
        Progress {
            capturer: None,
            remaining: (1u8 << chosen.0.len()) - 1,
        }
    }

    fn packed(self) -> u16 {
        u16::from(self.capturer.unwrap_or(64)) << 8 | u16::from(self.remaining)
    }
}

impl GolfBoard {
    /// Reads the board part of a FEN (no pawns).
    pub fn from_fen(fen: &str) -> Result<GolfBoard, String> {
        let placement = fen.split_whitespace().next().unwrap_or_default();
        let mut squares = [None; 64];
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("a FEN board has 8 ranks, not {}", ranks.len()));
        }
        for (i, rank) in ranks.iter().enumerate() {
            let r = 7 - i;
            let mut f = 0usize;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as usize;
                    continue;
                }
                let card = Card::from_letter(c).ok_or_else(|| format!("'{c}' is not a piece"))?;
                let role = match card.face {
                    Face::Piece(Role::Pawn) | Face::Checker => {
                        return Err("Chess Golf is played without pawns".into())
                    }
                    Face::Piece(role) => role,
                };
                if f >= 8 {
                    return Err(format!("rank {} is longer than 8 squares", r + 1));
                }
                squares[r * 8 + f] = Some(GolfPiece {
                    side: card.side,
                    role,
                });
                f += 1;
            }
            if f != 8 {
                return Err(format!("rank {} has {f} squares, not 8", r + 1));
            }
        }
        Ok(GolfBoard { squares })
    }

    /// Lays out cards as the book's setup does: from a1 along each rank, each piece after its
    /// card's gap of empty squares. Cards that would run past h8 are left off.
    pub fn deal(cards: &[Card]) -> GolfBoard {
        let mut squares = [None; 64];
        let mut at = 0usize;
        for card in cards {
            let (Face::Piece(role), Some(gap)) = (card.face, card.gap()) else {
                continue;
            };
            at += gap as usize;
            if at >= 64 {
                break;
            }
            squares[at] = Some(GolfPiece {
                side: card.side,
                role,
            });
            at += 1;
        }
        GolfBoard { squares }
    }

    /// The board part of a FEN.
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.squares[r * 8 + f] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The piece on `square`.
    pub fn at(&self, square: Square) -> Option<GolfPiece> {
        self.squares.get(square as usize).copied().flatten()
    }

    /// Whether `side` has two pieces next to each other (the special move is off while it
    /// has).
    fn has_pair(&self, side: Seat) -> bool {
        pair_in(self.side_mask(side))
    }

    /// The roles the piece on `s` may borrow (a bit per role), the special king step included.
    fn borrowed(&self, s: Square, special: [bool; 2]) -> u8 {
        let Some(p) = self.at(s) else { return 0 };
        let mut roles = 0u8;
        for n in KING_STEPS.iter().filter_map(|&d| offset(s, d)) {
            if let Some(q) = self.at(n).filter(|q| q.side == p.side) {
                roles |= 1 << q.role as u8;
            }
        }
        if special[p.side.index()] {
            roles |= 1 << Role::King as u8;
        }
        roles
    }

    /// Every move of the position, each destination once per piece (with the first role that
    /// reaches it), captures only where `may_capture` allows.
    fn moves(&self, may_capture: impl Fn(Square, Square) -> bool) -> Vec<GolfMove> {
        let special = [!self.has_pair(Seat::WHITE), !self.has_pair(Seat::BLACK)];
        let mut out = Vec::new();
        for from in 0..64u8 {
            let roles = self.borrowed(from, special);
            if roles == 0 {
                continue;
            }
            let mut seen = 0u64;
            let mut add = |to: Square, role: Role, out: &mut Vec<GolfMove>| {
                if seen >> to & 1 == 1 {
                    return;
                }
                let capture = self.at(to).is_some();
                if capture && !may_capture(from, to) {
                    return;
                }
                seen |= 1 << to;
                out.push(GolfMove {
                    from,
                    to,
                    capture,
                    borrowed: role,
                });
            };
            for role in [
                Role::King,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ] {
                if roles >> role as u8 & 1 == 0 {
                    continue;
                }
                match role {
                    Role::King => {
                        for to in KING_STEPS.iter().filter_map(|&d| offset(from, d)) {
                            add(to, role, &mut out);
                        }
                    }
                    Role::Knight => {
                        for to in KNIGHT_JUMPS.iter().filter_map(|&d| offset(from, d)) {
                            add(to, role, &mut out);
                        }
                    }
                    _ => {
                        let dirs: &[(i32, i32)] = match role {
                            Role::Bishop => &[(1, 1), (-1, 1), (-1, -1), (1, -1)],
                            Role::Rook => &[(1, 0), (0, 1), (-1, 0), (0, -1)],
                            _ => &KING_STEPS,
                        };
                        for &d in dirs {
                            let mut at = from;
                            while let Some(to) = offset(at, d) {
                                add(to, role, &mut out);
                                if self.at(to).is_some() {
                                    break;
                                }
                                at = to;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn play(&mut self, m: GolfMove) {
        self.squares[m.to as usize] = self.squares[m.from as usize].take();
    }

    /// A compact key of the position and the hole's progress: which squares are occupied, the
    /// kind on each in square order (four bits each: pieces of one kind are interchangeable),
    /// and the capturer's square and the types still to take.
    fn key(&self, progress: Progress) -> Key {
        let mut occupied = 0u64;
        let mut kinds = 0u128;
        let mut shift = 0;
        for s in 0..64u8 {
            if let Some(p) = self.at(s) {
                occupied |= 1 << s;
                kinds |= u128::from(p.side.0 * 8 + p.role as u8) << shift;
                shift += 4;
            }
        }
        let progress =
            u16::from(progress.capturer.unwrap_or(64)) << 8 | u16::from(progress.remaining);
        Key {
            occupied,
            kinds,
            progress,
        }
    }

    /// The board and progress a key stands for.
    fn from_key(key: Key) -> (GolfBoard, Progress) {
        let mut squares = [None; 64];
        let mut kinds = key.kinds;
        let mut occupied = key.occupied;
        while occupied != 0 {
            let s = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let kind = (kinds & 0xf) as u8;
            kinds >>= 4;
            squares[s] = Some(GolfPiece {
                side: Seat(kind / 8),
                role: Role::ALL[(kind % 8) as usize - 1],
            });
        }
        let capturer = (key.progress >> 8) as u8;
        let progress = Progress {
            capturer: (capturer < 64).then_some(capturer),
            remaining: key.progress as u8,
        };
        (GolfBoard { squares }, progress)
    }

    /// The shortest path that solves the hole for `chosen`, searching up to `max_moves`:
    /// `Ok(None)` when none is that short, an error for a hole that cannot be played (a chosen
    /// type missing from the board, or more than 32 pieces).
    pub fn solve(
        &self,
        chosen: &Chosen,
        max_moves: usize,
    ) -> Result<Option<Vec<GolfMove>>, String> {
        for piece in &chosen.0 {
            if !self.squares.contains(&Some(*piece)) {
                return Err(format!(
                    "no {} {} stands on the board",
                    piece.side.colour_name().to_lowercase(),
                    piece.role.name()
                ));
            }
        }
        if self.squares.iter().flatten().count() > 32 {
            return Err("a golf board holds at most 32 pieces".into());
        }
        Ok(self.solve_from(chosen, Progress::start(chosen), max_moves, usize::MAX))
    }

    /// The shortest path that finishes the hole from `start` (a demonstration under way) in
    /// at most `max_moves`, trying the moves of at most `max_positions` positions (the
    /// computer player's budget: each costs about the same, so the budget bounds the time,
    /// and a search that would need more gives up, `None`, as it does when no path is that
    /// short). The board must be one [`GolfBoard::solve`] accepts.
    pub(crate) fn solve_from(
        &self,
        chosen: &Chosen,
        start: Progress,
        max_moves: usize,
        max_positions: usize,
    ) -> Option<Vec<GolfMove>> {
        let kinds = &chosen.0;
        // Breadth first, each position once, remembering how it was reached. A hole ends with
        // a capture, and the move before it must have made that capture possible; so from the
        // positions `k` moves deep only the moves that can do so are tried, each followed by a
        // finishing capture, which finds every solution of `k + 2` moves without storing the
        // positions `k + 1` moves deep (twenty times as many as those `k` deep).
        let start_key = self.key(start);
        let mut parents: HashMap<Key, (Key, GolfMove), KeyHasher> = HashMap::default();
        if max_moves == 0 {
            return None;
        }
        let (board, progress) = GolfBoard::from_key(start_key);
        if let Some(m) = board.finishing_capture(kinds, progress) {
            return Some(vec![m]);
        }
        if max_moves < 2 {
            return None;
        }
        if let Some((m, last)) = board.enabling_move(kinds, progress) {
            return Some(vec![m, last]);
        }
        // Each pass makes the positions one move deeper and looks at once, from each new one,
        // for a solution two moves longer (so the first found is as short as any).
        let mut frontier = vec![start_key];
        let mut expanded = 0;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        for depth in 1.. {
            if depth + 2 > max_moves {
                break;
            }
            expanded += frontier.len();
            if expanded > max_positions {
                return None;
            }
            let pass = Pass::run(&frontier, &parents, kinds, threads);
            if let Some(found) = pass.found {
                let mut path = GolfBoard::path(&parents, start_key, found.parent);
                path.extend(found.moves);
                return Some(path);
            }
            let mut next = Vec::new();
            for (child, parent, m) in pass.children {
                if child == start_key || parents.contains_key(&child) {
                    continue;
                }
                parents.insert(child, (parent, m));
                next.push(child);
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }

    /// Every move with the hole's progress after it.
    fn successors(&self, kinds: &[GolfPiece], progress: Progress) -> Vec<(GolfMove, Progress)> {
        let may_capture =
            |from: Square, to: Square| self.capture_allowed(kinds, progress, from, to).is_some();
        self.moves(may_capture)
            .into_iter()
            .filter_map(|m| Some((m, self.progress_after(kinds, progress, m)?)))
            .collect()
    }

    fn progress_after(
        &self,
        kinds: &[GolfPiece],
        progress: Progress,
        m: GolfMove,
    ) -> Option<Progress> {
        if m.capture {
            return self.capture_allowed(kinds, progress, m.from, m.to);
        }
        let mut now = progress;
        if now.capturer == Some(m.from) {
            now.capturer = Some(m.to);
        }
        Some(now)
    }

    /// A capture that completes the hole now, if there is one.
    fn finishing_capture(&self, kinds: &[GolfPiece], progress: Progress) -> Option<GolfMove> {
        let special = [
            !pair_in(self.side_mask(Seat::WHITE)),
            !pair_in(self.side_mask(Seat::BLACK)),
        ];
        let chosen: Vec<Square> = (0..64u8)
            .filter(|&s| self.at(s).is_some_and(|p| kinds.contains(&p)))
            .collect();
        self.finishing_capture_among(kinds, progress, &chosen, special)
    }

    /// The finishing capture, given the squares of the chosen types' pieces and which colours
    /// have the special move: only possible capturers are looked at, and only toward chosen
    /// pieces.
    fn finishing_capture_among(
        &self,
        kinds: &[GolfPiece],
        progress: Progress,
        chosen: &[Square],
        special: [bool; 2],
    ) -> Option<GolfMove> {
        let wanted = |p: GolfPiece| {
            (0..kinds.len()).any(|i| progress.remaining >> i & 1 == 1 && kinds[i] == p)
        };
        for &x in chosen {
            let may_capture = match progress.capturer {
                Some(c) => c == x,
                None => self.at(x).is_some_and(wanted),
            };
            if !may_capture {
                continue;
            }
            let roles = self.borrowed(x, special);
            if roles == 0 {
                continue;
            }
            for &y in chosen {
                if y == x
                    || !lent_shape_reaches(x, y, roles)
                    || self
                        .capture_allowed(kinds, progress, x, y)
                        .is_none_or(|p| p.remaining != 0)
                {
                    continue;
                }
                if let Some(role) = self.lent_role_reaching(x, y, roles) {
                    return Some(GolfMove {
                        from: x,
                        to: y,
                        capture: true,
                        borrowed: role,
                    });
                }
            }
        }
        None
    }

    /// The squares of `side`'s pieces.
    fn side_mask(&self, side: Seat) -> u64 {
        let mut mine = 0u64;
        for (s, p) in self.squares.iter().enumerate() {
            if p.is_some_and(|p| p.side == side) {
                mine |= 1 << s;
            }
        }
        mine
    }

    /// A role among `roles` whose movement goes from `x` to `y` (over empty squares).
    fn lent_role_reaching(&self, x: Square, y: Square, roles: u8) -> Option<Role> {
        let (df, dr) = (
            (y % 8) as i32 - (x % 8) as i32,
            (y / 8) as i32 - (x / 8) as i32,
        );
        let has = |r: Role| roles >> r as u8 & 1 == 1;
        if has(Role::King) && df.abs() <= 1 && dr.abs() <= 1 {
            return Some(Role::King);
        }
        if has(Role::Knight) && df.abs() * dr.abs() == 2 {
            return Some(Role::Knight);
        }
        let straight = df == 0 || dr == 0;
        let diagonal = df.abs() == dr.abs();
        if !(straight || diagonal) {
            return None;
        }
        let step = (df.signum(), dr.signum());
        let mut at = offset(x, step)?;
        while at != y {
            if self.at(at).is_some() {
                return None;
            }
            at = offset(at, step)?;
        }
        if straight && has(Role::Rook) {
            Some(Role::Rook)
        } else if diagonal && has(Role::Bishop) {
            Some(Role::Bishop)
        } else if has(Role::Queen) {
            Some(Role::Queen)
        } else {
            None
        }
    }

    /// A move after which a capture completes the hole, with that capture. Only moves that can
    /// make a finishing capture possible are tried (see [`GolfBoard::may_enable`]).
    fn enabling_move(
        &self,
        kinds: &[GolfPiece],
        progress: Progress,
    ) -> Option<(GolfMove, GolfMove)> {
        let reach = Reach::of(self, kinds, progress);
        let masks = [self.side_mask(Seat::WHITE), self.side_mask(Seat::BLACK)];
        let chosen: Vec<Square> = (0..64u8)
            .filter(|&s| self.at(s).is_some_and(|p| kinds.contains(&p)))
            .collect();
        let mut chosen_after = Vec::with_capacity(chosen.len());
        for (m, now) in self.successors(kinds, progress) {
            if !self.may_enable(m, &reach) {
                continue;
            }
            // The position after `m`, updated rather than recomputed.
            let mut after = self.clone();
            let mut masks_after = masks;
            if m.capture {
                masks_after[0] &= !(1 << m.to);
                masks_after[1] &= !(1 << m.to);
            }
            let side = self.at(m.from).map_or(0, |p| p.side.index());
            masks_after[side] = masks_after[side] & !(1 << m.from) | 1 << m.to;
            chosen_after.clear();
            chosen_after.extend(
                chosen
                    .iter()
                    .filter(|&&c| !(m.capture && c == m.to))
                    .map(|&c| if c == m.from { m.to } else { c }),
            );
            after.play(m);
            let special = [!pair_in(masks_after[0]), !pair_in(masks_after[1])];
            if let Some(last) = after.finishing_capture_among(kinds, now, &chosen_after, special) {
                return Some((m, last));
            }
        }
        None
    }

    /// Whether move `m` can make a finishing capture possible that is not possible now. A
    /// capture X×Y needs X to be a chosen piece (the capturer, once one has captured), Y a
    /// chosen piece, and a neighbour of X's colour lending a movement that reaches Y on a clear
    /// path (or the special king step). So a move can help only by moving a chosen piece, by
    /// capturing (a first capture in a three-card hole), by bringing a lender next to a possible
    /// capturer, by clearing a square between a possible capturer and a possible victim, or by
    /// breaking its colour's last pair (the special move).
    fn may_enable(&self, m: GolfMove, reach: &Reach) -> bool {
        let Some(piece) = self.at(m.from) else {
            return false;
        };
        if m.capture
            || reach.chosen >> m.from & 1 == 1
            || reach.beside_capturer[piece.side.index()] >> m.to & 1 == 1
            || reach.between >> m.from & 1 == 1
        {
            return true;
        }
        // The special move: every pair of the colour touches `from`, and `to` has no
        // neighbour of its colour once the piece has left.
        let side = piece.side.index();
        reach.pairs[side] > 0
            && reach.pair_degree[m.from as usize] == reach.pairs[side]
            && !KING_STEPS
                .iter()
                .filter_map(|&d| offset(m.to, d))
                .any(|n| n != m.from && self.at(n).is_some_and(|q| q.side == piece.side))
    }

    /// The progress after the piece on `from` takes the one on `to`, if the hole allows it.
    fn capture_allowed(
        &self,
        kinds: &[GolfPiece],
        progress: Progress,
        from: Square,
        to: Square,
    ) -> Option<Progress> {
        let (mover, victim) = (self.at(from)?, self.at(to)?);
        let index_of = |p: GolfPiece, among: u8| {
            (0..kinds.len()).find(|&i| among >> i & 1 == 1 && kinds[i] == p)
        };
        match progress.capturer {
            None => {
                let i = index_of(mover, progress.remaining)?;
                let j = index_of(victim, progress.remaining & !(1 << i))?;
                Some(Progress {
                    capturer: Some(to),
                    remaining: progress.remaining & !(1 << i) & !(1 << j),
                })
            }
            Some(c) if c == from => {
                let j = index_of(victim, progress.remaining)?;
                Some(Progress {
                    capturer: Some(to),
                    remaining: progress.remaining & !(1 << j),
                })
            }
            Some(_) => None,
        }
    }

    fn path(
        parents: &HashMap<Key, (Key, GolfMove), KeyHasher>,
        start: Key,
        mut key: Key,
    ) -> Vec<GolfMove> {
        let mut moves = Vec::new();
        while key != start {
            let Some(&(parent, m)) = parents.get(&key) else {
                break;
            };
            moves.push(m);
            key = parent;
        }
        moves.reverse();
        moves
    }

    /// Checks a claimed path move by move: each move must be allowed where it is made, and the
    /// last must complete the hole. Returns the board after it, or why it fails.
    pub fn check_path(
        &self,
        chosen: &Chosen,
        path: &[(Square, Square)],
    ) -> Result<GolfBoard, String> {
        let (board, moves) = self.walk(chosen, path)?;
        if !moves.last().is_some_and(|m| m.solves) {
            return Err("the path ends before one chosen piece has taken the others".into());
        }
        Ok(board)
    }

    /// The moves allowed next in a hole with `progress` made.
    pub(crate) fn allowed_moves(&self, chosen: &Chosen, progress: Progress) -> Vec<GolfMove> {
        self.moves(|f, t| self.capture_allowed(&chosen.0, progress, f, t).is_some())
    }

    /// Plays a path move by move, each checked where it is made: the board after it and each
    /// move as played (whether it completed the hole), or why a move is not allowed.
    pub fn walk(
        &self,
        chosen: &Chosen,
        path: &[(Square, Square)],
    ) -> Result<(GolfBoard, Vec<PlayedMove>), String> {
        self.walk_from(chosen, Progress::start(chosen), 0, path)
            .map(|(board, _, played)| (board, played))
    }

    /// [`GolfBoard::walk`] from a hole already under way, also giving the progress after.
    /// `done` moves of the demonstration were made before: the messages number the moves
    /// within the whole demonstration, not within `path`.
    pub(crate) fn walk_from(
        &self,
        chosen: &Chosen,
        start: Progress,
        done: usize,
        path: &[(Square, Square)],
    ) -> Result<(GolfBoard, Progress, Vec<PlayedMove>), String> {
        let kinds = &chosen.0;
        let mut board = self.clone();
        let mut played = Vec::new();
        let mut progress = start;
        for (n, &(from, to)) in (done..).zip(path) {
            if progress.remaining == 0 {
                return Err(format!(
                    "the hole is already solved after move {n}; move {} is one too many",
                    n + 1
                ));
            }
            let moves = board.moves(|f, t| board.capture_allowed(kinds, progress, f, t).is_some());
            let Some(&m) = moves.iter().find(|m| m.from == from && m.to == to) else {
                return Err(format!(
                    "move {} ({}-{}) is not allowed: {}",
                    n + 1,
                    square_name(from),
                    square_name(to),
                    board.why_not(kinds, progress, from, to)
                ));
            };
            if m.capture {
                progress = board
                    .capture_allowed(kinds, progress, from, to)
                    .unwrap_or(progress);
            } else if progress.capturer == Some(from) {
                progress.capturer = Some(to);
            }
            board.play(m);
            played.push(PlayedMove {
                played: m,
                solves: progress.remaining == 0,
            });
        }
        Ok((board, progress, played))
    }

    fn why_not(&self, kinds: &[GolfPiece], progress: Progress, from: Square, to: Square) -> String {
        match (self.at(from), self.at(to)) {
            (None, _) => format!("no piece stands on {}", square_name(from)),
            (Some(_), Some(_)) if self.capture_allowed(kinds, progress, from, to).is_none() => {
                "only a chosen piece may take another chosen type (and in a three-card hole, \
                 only the piece that captured first)"
                    .into()
            }
            _ => "no neighbour of its colour lends it a movement that goes there".into(),
        }
    }
}

/// Reads a square name (`e5`).
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

mod game;
pub use game::{Golf, GolfAction, GolfState, MAX_COUNT};

#[cfg(test)]
mod tests;

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

fn square_name(s: Square) -> String {
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

/// What is left to take in a hole, and by whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Progress {
    /// The square of the piece that has captured, once one has.
    capturer: Option<Square>,
    /// Bits of the chosen types still to be taken (after the first capture).
    remaining: u8,
}

impl Progress {
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
        (0..64u8).any(|s| {
            self.at(s).is_some_and(|p| p.side == side)
                && KING_STEPS
                    .iter()
                    .filter_map(|&d| offset(s, d))
                    .any(|n| self.at(n).is_some_and(|q| q.side == side))
        })
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
        let kinds = &chosen.0;
        let start = Progress {
            capturer: None,
            remaining: (1u8 << kinds.len()) - 1,
        };
        // Breadth first, each position once, remembering how it was reached.
        let start_key = self.key(start);
        let mut parents: HashMap<Key, (Key, GolfMove), KeyHasher> = HashMap::default();
        let mut frontier = vec![start_key];
        for depth in 0..max_moves {
            // A hole ends with a capture: look for the finishing one from every position of
            // this depth before spreading to the next, so the last depth is never stored.
            for &key in &frontier {
                let (board, progress) = GolfBoard::from_key(key);
                let finishes = |from: Square, to: Square| {
                    board
                        .capture_allowed(kinds, progress, from, to)
                        .is_some_and(|p| p.remaining == 0)
                };
                if let Some(m) = board.moves(finishes).into_iter().find(|m| m.capture) {
                    let mut path = GolfBoard::path(&parents, start_key, key);
                    path.push(m);
                    return Ok(Some(path));
                }
            }
            if depth + 1 == max_moves {
                break;
            }
            let mut next = Vec::new();
            for &key in &frontier {
                let (board, progress) = GolfBoard::from_key(key);
                let may_capture = |from: Square, to: Square| {
                    board.capture_allowed(kinds, progress, from, to).is_some()
                };
                for m in board.moves(may_capture) {
                    let mut now = progress;
                    if m.capture {
                        let Some(p) = board.capture_allowed(kinds, progress, m.from, m.to) else {
                            continue;
                        };
                        now = p;
                    } else if now.capturer == Some(m.from) {
                        now.capturer = Some(m.to);
                    }
                    let new_key = key.after(m, now);
                    if new_key == start_key || parents.contains_key(&new_key) {
                        continue;
                    }
                    parents.insert(new_key, (key, m));
                    next.push(new_key);
                }
            }
            if next.is_empty() {
                return Ok(None);
            }
            frontier = next;
        }
        Ok(None)
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
        let kinds = &chosen.0;
        let mut board = self.clone();
        let mut progress = Progress {
            capturer: None,
            remaining: (1u8 << kinds.len()) - 1,
        };
        for (n, &(from, to)) in path.iter().enumerate() {
            let moves = board.moves(|f, t| board.capture_allowed(kinds, progress, f, t).is_some());
            let Some(&m) = moves.iter().find(|m| m.from == from && m.to == to) else {
                return Err(format!(
                    "move {} ({}-{}) is not allowed: {}",
                    n + 1,
                    square_name(from),
                    square_name(to),
                    board.why_not(from, to)
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
        }
        if progress.remaining != 0 {
            return Err("the path ends before one chosen piece has taken the others".into());
        }
        Ok(board)
    }

    fn why_not(&self, from: Square, to: Square) -> String {
        match (self.at(from), self.at(to)) {
            (None, _) => format!("no piece stands on {}", square_name(from)),
            (Some(_), Some(_)) => "only a chosen piece may take another chosen type (and in a \
                                   three-card hole, only the piece that captured first)"
                .into(),
            (Some(_), None) => "no neighbour of its colour lends it that movement".into(),
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

#[cfg(test)]
mod tests;

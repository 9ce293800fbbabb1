//! Board geometry for every Rookery game.
//!
//! A [`Board`] is a set of cells. Each cell has a label for notation (`"e4"`, `"c10"`), a
//! polygon to draw, a colour, and a neighbour in each of the board's directions (or none). Sliding
//! pieces repeat one step; leapers use precomputed [`Leap`] tables, because a knight may jump over a
//! hole in the board that a chain of single steps could not cross. Wrapped edges, holes and walls
//! are all expressed here, so the move generators never special-case a geometry.
//!
//! "Forward" is not a property of the board but of a seat: each seat has a [`Frame`] that maps
//! the eight [`Heading`]s a player thinks in (forward, right, ...) to the board's directions.
//!
//! ```
//! use engine::board::{Board, Heading, SquareBoard};
//!
//! let board = SquareBoard::new(8, 8).seats_facing(&[0, 2]).build();
//! let e2 = board.cell("e2").unwrap();
//! let white_forward = board.frame(0).dir(Heading::Forward);
//! assert_eq!(board.label(board.step(e2, white_forward).unwrap()), "e3");
//! let black_forward = board.frame(1).dir(Heading::Forward);
//! assert_eq!(board.label(board.step(e2, black_forward).unwrap()), "e1");
//! ```

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

mod frame_board;
mod tri_hex;
pub use frame_board::FrameBoard;
pub use tri_hex::{corner_numbers, frame_to_board, hexagon_number, TRI_DIRS};

/// The most cells any board may have (Trimens' 258 triangles fit with room to spare).
pub const MAX_CELLS: usize = 320;
const SET_WORDS: usize = MAX_CELLS / 64;

/// One cell of a board, an index into its cell list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cell(pub u16);

impl Cell {
    /// The index of this cell in its board's cell list.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// One of a board's step directions (the board decides how many it has and what they mean).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Dir(pub u8);

/// A direction as a player sees it from their own seat, clockwise from forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    Forward,
    ForwardRight,
    Right,
    BackRight,
    Back,
    BackLeft,
    Left,
    ForwardLeft,
}

impl Heading {
    /// All eight headings, clockwise from forward.
    pub const ALL: [Heading; 8] = [
        Heading::Forward,
        Heading::ForwardRight,
        Heading::Right,
        Heading::BackRight,
        Heading::Back,
        Heading::BackLeft,
        Heading::Left,
        Heading::ForwardLeft,
    ];
    /// Forward, right, back, left: the rook's lines.
    pub const ORTHOGONAL: [Heading; 4] = [
        Heading::Forward,
        Heading::Right,
        Heading::Back,
        Heading::Left,
    ];
    /// Every heading but straight forward and back: on a tri-board, the six triangles of a
    /// triangle's own colour touching it at a corner (a checkers king's steps).
    pub const ALL_BUT_STRAIGHT: [Heading; 6] = [
        Heading::ForwardRight,
        Heading::Right,
        Heading::BackRight,
        Heading::BackLeft,
        Heading::Left,
        Heading::ForwardLeft,
    ];
    /// The four diagonals: the bishop's lines.
    pub const DIAGONAL: [Heading; 4] = [
        Heading::ForwardRight,
        Heading::BackRight,
        Heading::BackLeft,
        Heading::ForwardLeft,
    ];
}

/// The light or dark colour of a cell, as printed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shade {
    Light,
    Dark,
}

/// A set of cells of one board, small and `Copy`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; SET_WORDS]);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; SET_WORDS]);

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell.index() / 64] |= 1 << (cell.index() % 64);
    }
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell.index() / 64] &= !(1 << (cell.index() % 64));
    }
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        self.0[cell.index() / 64] & (1 << (cell.index() % 64)) != 0
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The cells of the set in increasing order.
    #[inline]
    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.0,
            word: 0,
        }
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl std::ops::BitAnd for CellSet {
    type Output = CellSet;
    fn bitand(mut self, rhs: CellSet) -> CellSet {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a &= b;
        }
        self
    }
}

impl CellSet {
    /// The cells of `self` not in `other`.
    #[inline]
    pub fn without(mut self, other: CellSet) -> CellSet {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        self
    }
}

impl std::ops::BitOr for CellSet {
    type Output = CellSet;
    fn bitor(mut self, rhs: CellSet) -> CellSet {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a |= b;
        }
        self
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

/// Iterator over a [`CellSet`].
pub struct CellSetIter {
    words: [u64; SET_WORDS],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < SET_WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Cell((self.word * 64 + w.trailing_zeros() as usize) as u16));
            }
            self.word += 1;
        }
        None
    }
}

/// A leap table (for example the knight's), one list of targets per cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leap(pub u8);

/// How one seat sees the board: which board direction each [`Heading`] is, its leaps, and the
/// lines its pieces move along.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    dirs: [Dir; 8],
    knight: Leap,
    quarter_turns: u8,
    lines: Lines,
}

/// The lines a seat's pieces move along: a rook's, a bishop's (a queen has both) and a king's
/// steps. Four, four and eight on squares; six, six and twelve on Adams' tri-boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    pub rook: ArrayVec<Dir, 6>,
    pub bishop: ArrayVec<Dir, 6>,
    pub king: ArrayVec<Dir, 12>,
}

impl Lines {
    /// The lines of a board where a seat's eight headings are its eight directions: rooks
    /// forward, back and to the sides, bishops on the diagonals, kings all eight.
    fn of_headings(dirs: &[Dir; 8]) -> Lines {
        let dir = |h: &Heading| dirs[*h as usize];
        Lines {
            rook: Heading::ORTHOGONAL.iter().map(dir).collect(),
            bishop: Heading::DIAGONAL.iter().map(dir).collect(),
            king: Heading::ALL.iter().map(dir).collect(),
        }
    }
}

impl Frame {
    /// A frame whose pieces move along its eight headings.
    fn of_headings(dirs: [Dir; 8], knight: Leap, quarter_turns: u8) -> Frame {
        Frame {
            lines: Lines::of_headings(&dirs),
            dirs,
            knight,
            quarter_turns,
        }
    }
    /// The lines this seat's pieces move along.
    pub fn lines(&self) -> &Lines {
        &self.lines
    }
    /// The board direction this seat calls `heading`.
    #[inline]
    pub fn dir(&self, heading: Heading) -> Dir {
        self.dirs[heading as usize]
    }
    /// The board directions for a list of headings.
    pub fn dirs(&self, headings: &[Heading]) -> Vec<Dir> {
        headings.iter().map(|h| self.dir(*h)).collect()
    }
    /// This seat's knight leap table.
    #[inline]
    pub fn knight(&self) -> Leap {
        self.knight
    }
    /// How many quarter turns clockwise this seat's forward is from up the board.
    pub fn quarter_turns(&self) -> u8 {
        self.quarter_turns
    }
}

/// Which edges of a rectangle are joined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wrap {
    /// Ordinary edges.
    #[default]
    None,
    /// The left and right edges touch (a cylinder): files wrap.
    Files,
    /// Both pairs of edges touch (a torus): files and ranks wrap.
    Both,
    /// The top and bottom edges touch: ranks wrap (the cylinder of the players at the left and
    /// right sides of a four-player board).
    Ranks,
}

impl Wrap {
    /// Whether the left and right edges touch.
    pub fn files(self) -> bool {
        matches!(self, Wrap::Files | Wrap::Both)
    }
    /// Whether the top and bottom edges touch.
    pub fn ranks(self) -> bool {
        matches!(self, Wrap::Ranks | Wrap::Both)
    }
}

/// Everything needed to rebuild a board, small enough to store with a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoardSpec {
    /// A rectangle of `files` x `ranks` squares, optionally wrapped, with holes, and with one
    /// frame per seat turned by `facing[seat]` quarter turns (0: forward is up, 2: down).
    Square {
        files: u8,
        ranks: u8,
        wrap: Wrap,
        holes: Vec<(u8, u8)>,
        facing: Vec<u8>,
    },
    /// Caverly's Trimens board of 258 triangles for `seats` players (2 or 3), each reading it
    /// in his own frame.
    Trimens { seats: u8 },
    /// Adams' tri-board: a regular hexagon of triangles of side `side`, with one frame per
    /// entry of `facing` (edges counted clockwise from the bottom, 0-5), less the triangles
    /// numbered in `cut` (cut-out corners and edges); the others keep their numbers. `extra`
    /// adds triangles beyond the hexagon, as (row, position) of its coordinates, numbered after
    /// it (Adams' optional two-player Tri-Chek square borrows one from the larger board).
    TriHex {
        side: u8,
        facing: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cut: Vec<u16>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        extra: Vec<(i16, i16)>,
    },
}

impl BoardSpec {
    /// The ordinary 8x8 board for two players, White (seat 0) at the bottom.
    pub fn chess() -> BoardSpec {
        BoardSpec::Square {
            files: 8,
            ranks: 8,
            wrap: Wrap::None,
            holes: Vec::new(),
            facing: vec![0, 2],
        }
    }

    /// Which edges are joined.
    pub fn wrap(&self) -> Wrap {
        match self {
            BoardSpec::Square { wrap, .. } => *wrap,
            BoardSpec::Trimens { .. } | BoardSpec::TriHex { .. } => Wrap::None,
        }
    }

    /// The same board with other edges joined (a seat whose pieces move on a cylinder of its
    /// own: Adams' four-player boards).
    pub fn with_wrap(&self, wrap: Wrap) -> BoardSpec {
        match self {
            BoardSpec::Square {
                files,
                ranks,
                holes,
                facing,
                ..
            } => BoardSpec::Square {
                files: *files,
                ranks: *ranks,
                wrap,
                holes: holes.clone(),
                facing: facing.clone(),
            },
            other => other.clone(),
        }
    }

    /// The board for this spec, built once per process and shared.
    pub fn build(&self) -> Arc<Board> {
        static CACHE: OnceLock<Mutex<Vec<Arc<Board>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut boards = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(board) = boards.iter().find(|b| &b.spec == self) {
            return board.clone();
        }
        let board = Arc::new(match self {
            BoardSpec::Square {
                files,
                ranks,
                wrap,
                holes,
                facing,
            } => SquareBoard::new(*files, *ranks)
                .wrap(*wrap)
                .holes(holes.iter().copied())
                .seats_facing(facing)
                .build(),
            BoardSpec::Trimens { seats } => FrameBoard::trimens(*seats).build(self.clone()),
            BoardSpec::TriHex {
                side,
                facing,
                cut,
                extra,
            } => tri_hex::build(*side, facing, cut, extra, self.clone()),
        });
        boards.push(board.clone());
        board
    }
}

/// Per-cell drawing and notation data.
#[derive(Clone, Debug)]
pub struct CellInfo {
    /// The name of the cell in notation.
    pub label: String,
    /// Light or dark.
    pub shade: Shade,
    /// The outline to draw, in board units, y pointing up (toward the top of seat 0's view).
    pub polygon: Vec<[f32; 2]>,
    /// Grid coordinates (file, rank) from the bottom left, for boards built on a grid.
    pub coord: (i16, i16),
}

const NO_CELL: u16 = u16::MAX;

/// A board: cells, their neighbours in each direction, leap tables and the seats' frames.
#[derive(Debug)]
pub struct Board {
    spec: BoardSpec,
    cells: Vec<CellInfo>,
    dir_count: usize,
    steps: Vec<u16>,
    opposite: Vec<Dir>,
    leaps: Vec<LeapTable>,
    knight_hops: HopTable,
    frames: Vec<Frame>,
    grid: Option<Grid>,
    wrap: Wrap,
    /// Boards given cell by cell: per seat, per cell, (rank, file) in the seat's own frame.
    frame_coords: Vec<Vec<(i16, i16)>>,
}

#[derive(Debug)]
struct LeapTable {
    starts: Vec<u32>,
    targets: Vec<Cell>,
}

/// For each cell, the knight's second hops: (the square the first hop lands on, the square the
/// second hop in the same direction lands on).
#[derive(Debug, Default)]
struct HopTable {
    starts: Vec<u32>,
    pairs: Vec<(Cell, Cell)>,
}

#[derive(Debug)]
struct Grid {
    files: u8,
    ranks: u8,
    index: Vec<u16>,
}

impl Board {
    /// The spec this board was built from.
    pub fn spec(&self) -> &BoardSpec {
        &self.spec
    }
    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    /// Whether the board has no cells (never, for a built board).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    /// All cells in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cells.len() as u16).map(Cell)
    }
    /// Drawing and notation data of a cell.
    pub fn info(&self, cell: Cell) -> &CellInfo {
        &self.cells[cell.index()]
    }
    /// The label of a cell in notation.
    pub fn label(&self, cell: Cell) -> &str {
        &self.cells[cell.index()].label
    }
    /// The shade of a cell.
    pub fn shade(&self, cell: Cell) -> Shade {
        self.cells[cell.index()].shade
    }
    /// The cell with this label (case-insensitive), if any.
    pub fn cell(&self, label: &str) -> Option<Cell> {
        if let Some(grid) = &self.grid {
            let (file, rank) = parse_square_label(label)?;
            return grid.at(file as i32, rank as i32);
        }
        self.cells
            .iter()
            .position(|c| c.label.eq_ignore_ascii_case(label))
            .map(|i| Cell(i as u16))
    }
    /// Number of step directions.
    pub fn dir_count(&self) -> usize {
        self.dir_count
    }
    /// The neighbour of `cell` one step in `dir`, if the board has one.
    #[inline]
    pub fn step(&self, cell: Cell, dir: Dir) -> Option<Cell> {
        let s = self.steps[cell.index() * self.dir_count + dir.0 as usize];
        (s != NO_CELL).then_some(Cell(s))
    }
    /// The direction that undoes `dir`.
    #[inline]
    pub fn opposite(&self, dir: Dir) -> Dir {
        self.opposite[dir.0 as usize]
    }
    /// The cells reached from `cell` by repeating `dir`, stopping at the edge or when a wrapped
    /// line comes back to `cell`.
    pub fn ray(&self, cell: Cell, dir: Dir) -> Ray<'_> {
        Ray {
            board: self,
            origin: cell,
            at: cell,
            dir,
        }
    }
    /// The targets of a leap from `cell`.
    #[inline]
    pub fn leaps(&self, cell: Cell, leap: Leap) -> &[Cell] {
        let table = &self.leaps[leap.0 as usize];
        &table.targets[table.starts[cell.index()] as usize..table.starts[cell.index() + 1] as usize]
    }
    /// The knight's extended moves from `cell` (Adams' Doubles Chess): pairs of the square a
    /// first hop lands on and the square a second hop in the same direction lands on.
    #[inline]
    pub fn knight_hops(&self, cell: Cell) -> &[(Cell, Cell)] {
        let t = &self.knight_hops;
        if t.starts.is_empty() {
            return &[];
        }
        &t.pairs[t.starts[cell.index()] as usize..t.starts[cell.index() + 1] as usize]
    }
    /// How far `cell` is from `seat`'s own edge, counted in rows of that seat's frame from 0
    /// (rank 1 for White is 0, rank 8 is 7; for a seat at the left edge, the a-file is 0).
    /// `None` on boards not built on a grid.
    pub fn frame_rank(&self, seat: usize, cell: Cell) -> Option<i16> {
        if let Some(frame) = self.frame_coords.get(seat) {
            return Some(frame[cell.index()].0);
        }
        let (files, ranks) = self.grid_size()?;
        let (f, r) = self.coord(cell);
        Some(match self.frame(seat).quarter_turns % 4 {
            0 => r,
            1 => f,
            2 => ranks as i16 - 1 - r,
            _ => files as i16 - 1 - f,
        })
    }
    /// The number of rows from `seat`'s own edge to the far edge (8 on 8x8).
    pub fn frame_depth(&self, seat: usize) -> Option<i16> {
        if let Some(frame) = self.frame_coords.get(seat) {
            return frame.iter().map(|rc| rc.0 + 1).max();
        }
        let (files, ranks) = self.grid_size()?;
        Some(if self.frame(seat).quarter_turns.is_multiple_of(2) {
            ranks as i16
        } else {
            files as i16
        })
    }
    /// Where a cell lies in a seat's own coordinates on a board given cell by cell: (rank from
    /// the seat's own edge, from 0; file along the rank). None on grids, whose frames are
    /// quarter turns of one grid (see [`Board::frame_rank`]).
    pub fn frame_coord(&self, seat: usize, cell: Cell) -> Option<(i16, i16)> {
        Some(self.frame_coords.get(seat)?[cell.index()])
    }
    /// The cell at (rank, file) of a seat's own frame, on a board given cell by cell.
    pub fn frame_cell(&self, seat: usize, rank: i16, file: i16) -> Option<Cell> {
        let frame = self.frame_coords.get(seat)?;
        frame
            .iter()
            .position(|&rc| rc == (rank, file))
            .map(|i| Cell(i as u16))
    }
    /// The frame of a seat. Boards with fewer frames than seats repeat them in turn.
    #[inline]
    pub fn frame(&self, seat: usize) -> &Frame {
        &self.frames[seat % self.frames.len()]
    }
    /// Number of distinct seat frames.
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }
    /// Which edges wrap.
    pub fn wrap(&self) -> Wrap {
        self.wrap
    }
    /// Grid width and height, for boards built on a grid.
    pub fn grid_size(&self) -> Option<(u8, u8)> {
        self.grid.as_ref().map(|g| (g.files, g.ranks))
    }
    /// The cell at grid coordinates (file, rank), counted from 0 at the bottom left.
    pub fn at(&self, file: i32, rank: i32) -> Option<Cell> {
        self.grid.as_ref()?.at(file, rank)
    }
    /// Grid coordinates of a cell.
    pub fn coord(&self, cell: Cell) -> (i16, i16) {
        self.cells[cell.index()].coord
    }
}

impl Grid {
    fn at(&self, file: i32, rank: i32) -> Option<Cell> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let i = self.index[(rank * self.files as i32 + file) as usize];
        (i != NO_CELL).then_some(Cell(i))
    }
}

/// Iterator along one direction; see [`Board::ray`].
pub struct Ray<'a> {
    board: &'a Board,
    origin: Cell,
    at: Cell,
    dir: Dir,
}

impl Iterator for Ray<'_> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let next = self.board.step(self.at, self.dir)?;
        if next == self.origin {
            return None;
        }
        self.at = next;
        Some(next)
    }
}

/// The label of grid square (file, rank): files a-z, ranks from 1 (`"c10"`).
pub fn square_label(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank as u32 + 1)
}

/// Parses a square label like `"e4"` or `"C10"` into (file, rank) from 0.
pub fn parse_square_label(label: &str) -> Option<(u8, u8)> {
    let bytes = label.as_bytes();
    let (&f, digits) = bytes.split_first()?;
    let f = f.to_ascii_lowercase();
    if !f.is_ascii_lowercase() || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
        return None;
    }
    let rank: u8 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some((f - b'a', rank - 1))
}

/// The eight compass directions of square boards, clockwise from north (up for seat 0), as
/// (file, rank) steps.
pub const COMPASS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// The eight knight's leaps of square boards, as (file, rank) steps.
pub const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The side of the block cut from each corner of the 12x12 board in Adams' cut-throat Doubles
/// Chess: "The four spaces in each corner are off limits" (2x2). Partners and the 4-player
/// checkers games use all 144 squares.
pub const CUT_THROAT_CORNERS: u8 = 2;

/// Builder for boards made of squares: rectangles, holes and walls, cylinders and tori.
///
/// ```
/// use engine::board::{SquareBoard, CUT_THROAT_CORNERS};
///
/// // Adams' 12x12 board for four-player cut-throat chess: the four squares of each corner
/// // (2x2) are off limits.
/// let board = SquareBoard::new(12, 12).cut_corners(2).seats_facing(&[0, 1, 2, 3]).build();
/// assert_eq!(board.len(), 144 - 4 * 4);
/// assert!(board.cell("b2").is_none());
/// assert!(board.cell("c1").is_some());
/// // The same board, named.
/// assert_eq!(SquareBoard::doubles(CUT_THROAT_CORNERS).build().spec(), board.spec());
/// ```
#[derive(Clone, Debug)]
pub struct SquareBoard {
    files: u8,
    ranks: u8,
    wrap: Wrap,
    holes: Vec<(u8, u8)>,
    facing: Vec<u8>,
}

impl SquareBoard {
    /// A plain rectangle with one seat facing up.
    pub fn new(files: u8, ranks: u8) -> SquareBoard {
        assert!(
            files >= 1 && ranks >= 1,
            "a board needs at least one square"
        );
        assert!(files <= 26, "files are lettered a-z");
        SquareBoard {
            files,
            ranks,
            wrap: Wrap::None,
            holes: Vec::new(),
            facing: vec![0],
        }
    }
    /// The 12x12 board of Will Adams' four-player games (*Variations on Chess and Checkers*),
    /// with a `corner` x `corner` block cut away at each corner: 0 for Doubles Chess partners
    /// and the 4-player checkers games, which use all 144 squares, or [`CUT_THROAT_CORNERS`] for
    /// Doubles Chess cut-throat. One seat at each edge, in clockwise order from the bottom:
    /// forward is up, right, down and left.
    pub fn doubles(corner: u8) -> SquareBoard {
        SquareBoard::new(12, 12)
            .cut_corners(corner)
            .seats_facing(&[0, 1, 2, 3])
    }
    /// Join edges.
    pub fn wrap(mut self, wrap: Wrap) -> SquareBoard {
        self.wrap = wrap;
        self
    }
    /// Remove squares (holes or walls: no piece stands there, sliders stop before them).
    pub fn holes(mut self, holes: impl IntoIterator<Item = (u8, u8)>) -> SquareBoard {
        self.holes.extend(holes);
        self.holes.sort_unstable();
        self.holes.dedup();
        self
    }
    /// Remove an `n` x `n` block at each corner (none for `n` = 0).
    pub fn cut_corners(self, n: u8) -> SquareBoard {
        let (w, h) = (self.files, self.ranks);
        assert!(
            n as usize * 2 <= w.min(h) as usize,
            "{n}x{n} corners overlap on a {w}x{h} board"
        );
        let mut holes = Vec::new();
        for f in 0..n {
            for r in 0..n {
                holes.extend([
                    (f, r),
                    (w - 1 - f, r),
                    (f, h - 1 - r),
                    (w - 1 - f, h - 1 - r),
                ]);
            }
        }
        self.holes(holes)
    }
    /// One frame per seat, each turned clockwise by the given number of quarter turns
    /// (0: forward is up the board; 1: forward is to the right; 2: down; 3: left).
    pub fn seats_facing(mut self, quarter_turns: &[u8]) -> SquareBoard {
        assert!(!quarter_turns.is_empty(), "at least one seat");
        self.facing = quarter_turns.iter().map(|q| q % 4).collect();
        self
    }

    /// The spec that rebuilds this board.
    pub fn spec(&self) -> BoardSpec {
        BoardSpec::Square {
            files: self.files,
            ranks: self.ranks,
            wrap: self.wrap,
            holes: self.holes.clone(),
            facing: self.facing.clone(),
        }
    }

    fn wrapped(&self, file: i32, rank: i32) -> Option<(i32, i32)> {
        let (w, h) = (self.files as i32, self.ranks as i32);
        let file = if self.wrap.files() {
            file.rem_euclid(w)
        } else {
            file
        };
        let rank = if self.wrap.ranks() {
            rank.rem_euclid(h)
        } else {
            rank
        };
        (file >= 0 && file < w && rank >= 0 && rank < h).then_some((file, rank))
    }

    /// Builds the board.
    pub fn build(self) -> Board {
        let (w, h) = (self.files as usize, self.ranks as usize);
        let mut index = vec![NO_CELL; w * h];
        let mut cells = Vec::new();
        for rank in 0..h {
            for file in 0..w {
                if self.holes.contains(&(file as u8, rank as u8)) {
                    continue;
                }
                index[rank * w + file] = cells.len() as u16;
                let (x, y) = (file as f32, rank as f32);
                cells.push(CellInfo {
                    label: square_label(file as u8, rank as u8),
                    shade: if (file + rank) % 2 == 0 {
                        Shade::Dark
                    } else {
                        Shade::Light
                    },
                    polygon: vec![[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]],
                    coord: (file as i16, rank as i16),
                });
            }
        }
        // Holes are no cells: a large grid mostly of holes (a picture of separate boards) fits.
        assert!(cells.len() <= MAX_CELLS, "at most {MAX_CELLS} cells");
        let grid = Grid {
            files: self.files,
            ranks: self.ranks,
            index,
        };
        let lookup = |file: i32, rank: i32| -> Option<Cell> {
            let (f, r) = self.wrapped(file, rank)?;
            grid.at(f, r)
        };
        let mut steps = Vec::with_capacity(cells.len() * 8);
        for cell in &cells {
            let (f, r) = (cell.coord.0 as i32, cell.coord.1 as i32);
            for (df, dr) in COMPASS {
                steps.push(lookup(f + df, r + dr).map_or(NO_CELL, |c| c.0));
            }
        }
        let mut knight = LeapTable {
            starts: vec![0],
            targets: Vec::new(),
        };
        for (i, cell) in cells.iter().enumerate() {
            let (f, r) = (cell.coord.0 as i32, cell.coord.1 as i32);
            let mut targets: Vec<Cell> = KNIGHT
                .iter()
                .filter_map(|(df, dr)| lookup(f + df, r + dr))
                .filter(|t| t.index() != i)
                .collect();
            targets.sort_unstable();
            targets.dedup();
            knight.targets.extend(targets);
            knight.starts.push(knight.targets.len() as u32);
        }
        let mut knight_hops = HopTable {
            starts: vec![0],
            pairs: Vec::new(),
        };
        for (i, cell) in cells.iter().enumerate() {
            let (f, r) = (cell.coord.0 as i32, cell.coord.1 as i32);
            let mut pairs: Vec<(Cell, Cell)> = KNIGHT
                .iter()
                .filter_map(|(df, dr)| {
                    let mid = lookup(f + df, r + dr)?;
                    let to = lookup(f + 2 * df, r + 2 * dr)?;
                    (mid.index() != i && to.index() != i && mid != to).then_some((mid, to))
                })
                .collect();
            pairs.sort_unstable();
            pairs.dedup();
            knight_hops.pairs.extend(pairs);
            knight_hops.starts.push(knight_hops.pairs.len() as u32);
        }
        let frames = self
            .facing
            .iter()
            .map(|&q| {
                let mut dirs = [Dir(0); 8];
                for (h, d) in dirs.iter_mut().enumerate() {
                    *d = Dir(((h + 2 * q as usize) % 8) as u8);
                }
                Frame::of_headings(dirs, Leap(0), q)
            })
            .collect();
        Board {
            spec: self.spec(),
            cells,
            dir_count: 8,
            steps,
            opposite: (0..8).map(|d| Dir((d + 4) % 8)).collect(),
            leaps: vec![knight],
            knight_hops,
            frames,
            grid: Some(grid),
            wrap: self.wrap,
            frame_coords: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(board: &Board, from: &str, dir: Dir) -> Vec<String> {
        board
            .ray(board.cell(from).unwrap(), dir)
            .map(|c| board.label(c).to_string())
            .collect()
    }

    fn knight(board: &Board, from: &str) -> Vec<String> {
        let mut v: Vec<String> = board
            .leaps(board.cell(from).unwrap(), Leap(0))
            .iter()
            .map(|c| board.label(*c).to_string())
            .collect();
        v.sort();
        v
    }

    const N: Dir = Dir(0);
    const NE: Dir = Dir(1);
    const E: Dir = Dir(2);
    const W: Dir = Dir(6);

    #[test]
    fn rays_on_the_plain_board_stop_at_the_edge() {
        let board = SquareBoard::new(8, 8).build();
        assert_eq!(walk(&board, "e4", N), ["e5", "e6", "e7", "e8"]);
        assert_eq!(walk(&board, "a1", NE).len(), 7);
        assert_eq!(knight(&board, "a1"), ["b3", "c2"]);
        assert_eq!(knight(&board, "d4").len(), 8);
        assert_eq!(board.shade(board.cell("a1").unwrap()), Shade::Dark);
        assert_eq!(board.shade(board.cell("h1").unwrap()), Shade::Light);
    }

    #[test]
    fn doubles_cut_throat_puts_the_four_squares_of_each_corner_off_limits() {
        let board = SquareBoard::doubles(CUT_THROAT_CORNERS).build();
        assert_eq!(board.len(), 144 - 4 * 4);
        for hole in [
            "a1", "b2", "a2", "b1", "l12", "k11", "a12", "b11", "l1", "k2",
        ] {
            assert!(board.cell(hole).is_none(), "{hole} is off limits");
        }
        // Every square of the armies stays: White 1's rooks on c1 and j1, "W2's King rests on
        // square A6", "B2's QBP rests on K5", and the squares beside the corners.
        for square in [
            "c1", "j1", "c2", "b3", "c3", "a3", "a6", "a10", "k3", "k10", "j12", "l10",
        ] {
            assert!(board.cell(square).is_some(), "{square} is on the board");
        }
        // A rook on d1 runs up the d-file to d12; along rank 1 it stops before the corner.
        assert_eq!(walk(&board, "d1", N).len(), 11);
        assert_eq!(walk(&board, "d1", W), ["c1"]);
        assert_eq!(
            walk(&board, "d1", E),
            ["e1", "f1", "g1", "h1", "i1", "j1"],
            "rank 1 ends at j1, k1 and l1 are off limits"
        );
        // A bishop from c3 toward the lower left meets the corner at once.
        assert!(walk(&board, "c3", Dir(5)).is_empty());
        // A knight cannot land in the corner (b1 from d2, a2 from c3) but leaps past it.
        assert_eq!(knight(&board, "d2"), ["b3", "c4", "e4", "f1", "f3"]);
        assert_eq!(knight(&board, "c3"), ["a4", "b5", "d1", "d5", "e2", "e4"]);
        // Each seat's forward points away from its own edge, clockwise from the bottom.
        let d1 = board.cell("d1").unwrap();
        let forward = |seat: usize| board.frame(seat).dir(Heading::Forward);
        assert_eq!(board.label(board.step(d1, forward(0)).unwrap()), "d2");
        let a4 = board.cell("a4").unwrap();
        assert_eq!(board.label(board.step(a4, forward(1)).unwrap()), "b4");
        let d12 = board.cell("d12").unwrap();
        assert_eq!(board.label(board.step(d12, forward(2)).unwrap()), "d11");
        let l4 = board.cell("l4").unwrap();
        assert_eq!(board.label(board.step(l4, forward(3)).unwrap()), "k4");
    }

    #[test]
    fn doubles_partners_and_checkers_use_all_144_squares() {
        let board = SquareBoard::doubles(0).build();
        assert_eq!(board.len(), 144);
        // Partners: "B1 can move Q - IV12 into White's friendly corner", a1; the friendly
        // corners a1 and l12 are dark.
        for corner in ["a1", "l12"] {
            assert_eq!(board.shade(board.cell(corner).unwrap()), Shade::Dark);
        }
        // Doubles checkers: the left-hand partner's displaced checker goes "on the second
        // square in from the corner", b2.
        assert!(board.cell("b2").is_some());
        assert_eq!(walk(&board, "d1", W), ["c1", "b1", "a1"]);
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn corners_larger_than_half_the_board_are_refused() {
        SquareBoard::new(8, 8).cut_corners(5);
    }

    #[test]
    fn cylinder_wraps_files_only() {
        let board = SquareBoard::new(8, 8).wrap(Wrap::Files).build();
        assert_eq!(
            walk(&board, "g1", E),
            ["h1", "a1", "b1", "c1", "d1", "e1", "f1"],
            "the ray comes round and stops before its own square"
        );
        assert_eq!(walk(&board, "h3", NE), ["a4", "b5", "c6", "d7", "e8"]);
        assert_eq!(walk(&board, "e7", N), ["e8"]);
        assert_eq!(knight(&board, "a1"), ["b3", "c2", "g2", "h3"]);
        assert_eq!(knight(&board, "h8"), ["a6", "b7", "f7", "g6"]);
    }

    #[test]
    fn torus_wraps_both_ways() {
        let board = SquareBoard::new(8, 8).wrap(Wrap::Both).build();
        assert_eq!(walk(&board, "e8", N).first().unwrap(), "e1");
        assert_eq!(walk(&board, "e8", N).len(), 7);
        assert_eq!(knight(&board, "a1").len(), 8);
        assert!(knight(&board, "a1").contains(&"h7".to_string()));
        // every diagonal on an 8x8 torus is a closed loop of 8 squares
        assert_eq!(walk(&board, "c3", NE).len(), 7);
    }

    #[test]
    fn steps_are_undone_by_the_opposite_direction() {
        for wrap in [Wrap::None, Wrap::Files, Wrap::Both] {
            let board = SquareBoard::doubles(CUT_THROAT_CORNERS).wrap(wrap).build();
            for cell in board.cells() {
                for d in 0..board.dir_count() {
                    let dir = Dir(d as u8);
                    if let Some(next) = board.step(cell, dir) {
                        assert_eq!(board.step(next, board.opposite(dir)), Some(cell));
                    }
                }
                for &t in board.leaps(cell, Leap(0)) {
                    assert!(
                        board.leaps(t, Leap(0)).contains(&cell),
                        "leaps are symmetric"
                    );
                }
            }
        }
    }

    #[test]
    fn labels_parse_back() {
        let board = SquareBoard::new(12, 12).build();
        for cell in board.cells() {
            assert_eq!(board.cell(board.label(cell)), Some(cell));
        }
        assert_eq!(board.cell("C10"), board.cell("c10"));
        assert!(board.cell("m1").is_none());
        assert!(board.cell("a13").is_none());
        assert!(board.cell("a0").is_none());
        assert!(board.cell("").is_none());
        assert!(board.cell("4e").is_none());
    }

    #[test]
    fn specs_rebuild_shared_boards() {
        let a = BoardSpec::chess().build();
        let b = BoardSpec::chess().build();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.len(), 64);
    }
}

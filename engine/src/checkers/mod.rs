//! Checkers machinery over any board and any number of seats: men and kings, stacks (each cell
//! holds a stack whose top checker owns and moves it), numbered men, jump search with
//! compulsory captures and complete multi-jumps, crowning on each seat's own far edge, partners
//! who may not jump each other, turns passed over players with nothing to move, notation and
//! perft.
//!
//! ```
//! use engine::checkers::{perft, CheckersPosition};
//! let start = CheckersPosition::american();
//! assert_eq!(perft(&start, 4), 1469);
//! ```
//!
//! Four players on Adams' 12x12 board:
//!
//! ```
//! use engine::board::Wrap;
//! use engine::checkers::{CheckersPosition, CheckersRules, Colours, Kind, Mode, Seating};
//! let rules = CheckersRules::doubles(Kind::Stax, Mode::Partners(Seating::Adjacent), Colours::Same, Wrap::None, false);
//! let start = CheckersPosition::start(rules, 0);
//! assert_eq!(start.board().len(), 144);
//! assert_eq!(start.checkers_of(engine::Seat(3)), 12);
//! ```

use std::fmt;
use std::sync::Arc;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::board::{Board, BoardSpec, Cell, CellSet, Dir, Heading, SquareBoard, Wrap, TRI_DIRS};
use crate::chess::Seat;

mod layout;
pub use layout::{Colours, Mode, Seating};

/// The most seats a checkers game seats (Adams' triangle boards take six).
pub const MAX_SEATS: usize = 6;

/// One checker: its owner, whether it is crowned, and its number (Numbers variation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Checker {
    pub seat: Seat,
    pub king: bool,
    pub number: Option<u8>,
}

impl Checker {
    /// A plain man.
    pub fn man(seat: Seat) -> Checker {
        Checker {
            seat,
            king: false,
            number: None,
        }
    }
    /// A king.
    pub fn king(seat: Seat) -> Checker {
        Checker {
            seat,
            king: true,
            number: None,
        }
    }
}

/// The checkers on one cell, bottom first; the top one owns and moves the stack. Most stacks
/// are one or two high and live inline; a tall Stax tower (it can hold every checker in play)
/// moves to the heap.
pub type Stack = SmallVec<[Checker; 4]>;

/// The three games of Adams' checkers family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Jumped checkers leave the board.
    Checkers,
    /// Jumped checkers are carried underneath as prisoners.
    Stax,
    /// Stax on all 64 squares, with straight jumps (and kings jumping in eight directions).
    Queens,
}

/// One seat at a game of more than two: its team, the edges that touch for its checkers, and
/// the colour of squares its men start on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatPlan {
    /// Seats of one team are partners: they never move or jump each other's checkers.
    pub team: u8,
    /// The edges that touch for this seat's moves (Adams' cylinder differs per pair of seats).
    pub wrap: Wrap,
    /// Whether its men start on the light squares (Queens) rather than the dark.
    pub light: bool,
}

/// The rules a checkers position is played under.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckersRules {
    pub kind: Kind,
    /// The board as drawn and named; its frames (one per seat) say where each seat sits.
    pub board: BoardSpec,
    /// Men numbered 1-12: no man jumps a higher number, only a king jumps a king.
    pub numbers: bool,
    /// The seat that moves first.
    pub first: Seat,
    /// The seats of a game of more than two, by seat; empty for the classic White and Black.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeatPlan>,
    /// Cut-throat Stax and Queens: a player with nothing left to move when his turn comes has
    /// every checker of his removed from the stacks, and is out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub vanishing: bool,
    /// The sequence of turns when it is not the seats' own order (each of Adams' partner
    /// patterns on the tri-board has its own); `first` should be its first seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<Seat>,
}

impl CheckersRules {
    /// A game of the family on an 8x8 board, flat, cylindrical (`Wrap::Files`) or universal
    /// (`Wrap::Both`); White (seat 0) at the bottom, Black (seat 1) at the top and first to move.
    pub fn new(kind: Kind, wrap: Wrap, numbers: bool) -> CheckersRules {
        CheckersRules {
            kind,
            board: SquareBoard::new(8, 8)
                .wrap(wrap)
                .seats_facing(&[0, 2])
                .spec(),
            numbers,
            first: Seat::BLACK,
            seats: Vec::new(),
            vanishing: false,
            order: Vec::new(),
        }
    }

    /// American checkers: 8x8, played on the dark squares (men only ever move diagonally, so
    /// they never leave them).
    pub fn american() -> CheckersRules {
        CheckersRules::new(Kind::Checkers, Wrap::None, false)
    }

    /// How many seats play.
    pub fn seat_count(&self) -> usize {
        if self.seats.is_empty() {
            2
        } else {
            self.seats.len()
        }
    }

    /// Every seat's plan (the classic two included: White on the light squares in Queens).
    pub fn plans(&self) -> Vec<SeatPlan> {
        if !self.seats.is_empty() {
            return self.seats.clone();
        }
        let wrap = self.board.wrap();
        [Seat::WHITE, Seat::BLACK]
            .map(|s| SeatPlan {
                team: s.0,
                wrap,
                light: self.kind == Kind::Queens && s == Seat::WHITE,
            })
            .to_vec()
    }
}

/// A move: a step, or a chain of jumps.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckersMove {
    pub from: Cell,
    /// Where the moving stack lands, in order (one cell for a step).
    pub path: Cells,
    /// The cells jumped, in order (empty for a step).
    pub jumped: Cells,
}

/// A short list of cells, kept inline (move generation allocates nothing for steps and
/// short jumps).
pub type Cells = SmallVec<[Cell; 4]>;

impl CheckersMove {
    pub fn is_jump(&self) -> bool {
        !self.jumped.is_empty()
    }
    pub fn to(&self) -> Cell {
        *self.path.last().expect("a move lands somewhere")
    }
}

/// A checkers position.
#[derive(Clone)]
pub struct CheckersPosition {
    rules: CheckersRules,
    /// The board as drawn and named.
    board: Arc<Board>,
    /// What each seat's checkers do, worked out once from the rules.
    seats: Arc<[SeatData]>,
    /// The cells each seat owns (its checker on top), kept up to date for fast scans.
    owned: [CellSet; MAX_SEATS],
    /// The cells with a stack on them.
    occupied: CellSet,
    cells: Vec<Stack>,
    turn: Seat,
    /// Seats out of the game (vanished in cut-throat, or resigned), one bit each.
    out: u8,
    /// Who moved last (the winner's side when nobody else can move).
    last_mover: Option<Seat>,
    /// Moves (plies) since the last capture or move of an uncrowned checker.
    quiet: u32,
}

/// Positions are stored as their rules, stacks, side to move, seats out and quiet count.
#[derive(Serialize, Deserialize)]
struct StoredPosition {
    rules: CheckersRules,
    cells: Vec<Stack>,
    turn: Seat,
    quiet: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    out: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_mover: Option<Seat>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Serialize for CheckersPosition {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StoredPosition {
            rules: self.rules.clone(),
            cells: self.cells.clone(),
            turn: self.turn,
            quiet: self.quiet,
            out: self.out,
            last_mover: self.last_mover,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for CheckersPosition {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CheckersPosition, D::Error> {
        let stored = StoredPosition::deserialize(d)?;
        if stored.rules.seat_count() > MAX_SEATS || stored.turn.index() >= stored.rules.seat_count()
        {
            return Err(serde::de::Error::custom("the stored seats do not fit"));
        }
        let mut pos = CheckersPosition::empty(stored.rules);
        if stored.cells.len() != pos.board.len() {
            return Err(serde::de::Error::custom(
                "the stored stacks do not fit the board",
            ));
        }
        if stored
            .cells
            .iter()
            .flatten()
            .any(|c| c.seat.index() >= pos.seat_count())
        {
            return Err(serde::de::Error::custom("a stored checker has no seat"));
        }
        pos.cells = stored.cells;
        pos.turn = stored.turn;
        pos.quiet = stored.quiet;
        pos.out = stored.out;
        pos.last_mover = stored.last_mover;
        for i in 0..pos.cells.len() {
            pos.refresh(Cell(i as u16));
        }
        Ok(pos)
    }
}

impl fmt::Debug for CheckersPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.seat_count() == 2 && self.board.len() == 64 {
            return write!(f, "CheckersPosition({})", self.fen());
        }
        write!(f, "CheckersPosition(seat {} to move;", self.turn.0)?;
        for cell in self.board.cells() {
            let stack = self.stack(cell);
            if !stack.is_empty() {
                let checkers: String = stack
                    .iter()
                    .map(|c| format!("{}{}", c.seat.0, if c.king { "K" } else { "" }))
                    .collect::<Vec<_>>()
                    .join("/");
                write!(f, " {}={checkers}", self.board.label(cell))?;
            }
        }
        write!(f, ")")
    }
}

/// One stack's search for jump chains: where it started, what moves, and the cells it may
/// jump (its enemies' stacks).
struct Jumper<'a> {
    origin: Cell,
    mover: Checker,
    targets: CellSet,
    seat: &'a SeatData,
    dirs: &'a [Dir],
}

/// How one seat's checkers move and jump, as board directions (up to twelve: a Tri-Queens
/// king jumps across the six corners and along the six lines perpendicular to the edges).
#[derive(Clone, Debug)]
struct Steps {
    man_moves: ArrayVec<Dir, 12>,
    king_moves: ArrayVec<Dir, 12>,
    man_jumps: ArrayVec<Dir, 12>,
    king_jumps: ArrayVec<Dir, 12>,
}

/// Everything one seat's checkers need, worked out once.
#[derive(Debug)]
struct SeatData {
    steps: Steps,
    /// The board its checkers move on (its own edges touch on Adams' four-player cylinder).
    board: Arc<Board>,
    /// Where its men are crowned: the far edge as it faces the board.
    king_row: CellSet,
    /// Whether it plays on a universal board, whose ends only kings cross.
    universal: bool,
    /// Whether the ends of a universal board, which only kings cross, are the left and right
    /// edges for this seat (it sits at a side) rather than the top and bottom.
    ends_across_files: bool,
    /// The seats whose checkers it may jump, one bit each.
    enemies: u8,
    team: u8,
}

fn steps(board: &Board, seat: Seat, kind: Kind) -> Steps {
    let frame = board.frame(seat.index());
    let dirs = |hs: &[Heading]| {
        hs.iter()
            .map(|h| frame.dir(*h))
            .collect::<ArrayVec<Dir, 12>>()
    };
    let man_moves = dirs(&[Heading::ForwardLeft, Heading::ForwardRight]);
    if board.dir_count() == TRI_DIRS {
        // Adams' triangles: checkers stand on one colour and step to the six triangles of that
        // colour touching at a corner (the frame's headings other than straight forward and
        // back), men to the two ahead. Tri-Queens men also jump the three triangles of the
        // other colour ahead, and kings all six, along the lines perpendicular to the edges
        // (crossing one side and one angle); the frame's bishop lines are those, the first
        // three of them forward.
        let corners = dirs(&Heading::ALL_BUT_STRAIGHT);
        let across = &frame.lines().bishop;
        return match kind {
            Kind::Checkers | Kind::Stax => Steps {
                man_jumps: man_moves.clone(),
                king_jumps: corners.clone(),
                man_moves,
                king_moves: corners,
            },
            Kind::Queens => Steps {
                man_jumps: man_moves.iter().chain(&across[..3]).copied().collect(),
                king_jumps: corners.iter().chain(across.iter()).copied().collect(),
                man_moves,
                king_moves: corners,
            },
        };
    }
    let king_moves = dirs(&Heading::DIAGONAL);
    match kind {
        Kind::Checkers | Kind::Stax => Steps {
            man_jumps: man_moves.clone(),
            king_jumps: king_moves.clone(),
            man_moves,
            king_moves,
        },
        Kind::Queens => Steps {
            man_jumps: dirs(&[
                Heading::ForwardLeft,
                Heading::Forward,
                Heading::ForwardRight,
            ]),
            king_jumps: dirs(&Heading::ALL),
            man_moves,
            king_moves,
        },
    }
}

/// Where `seat`'s men are crowned: the far edge as it faces the board. On a tri-board that is
/// every triangle in the far half with neither forward step on the board (the far row, and
/// the last triangles before a cut-out corner), so a man never stands stuck uncrowned.
fn king_row(board: &Board, seat: usize) -> CellSet {
    let depth = board.frame_depth(seat).unwrap_or(8);
    if board.dir_count() == TRI_DIRS {
        let frame = board.frame(seat);
        let ahead = [
            frame.dir(Heading::ForwardLeft),
            frame.dir(Heading::ForwardRight),
        ];
        return board
            .cells()
            .filter(|&c| board.frame_rank(seat, c).is_some_and(|r| 2 * r >= depth))
            .filter(|&c| ahead.iter().all(|&d| board.step(c, d).is_none()))
            .collect();
    }
    board
        .cells()
        .filter(|&c| board.frame_rank(seat, c) == Some(depth - 1))
        .collect()
}

fn seat_data(rules: &CheckersRules, board: &Arc<Board>) -> Arc<[SeatData]> {
    let plans = rules.plans();
    plans
        .iter()
        .enumerate()
        .map(|(i, plan)| {
            let seat = Seat(i as u8);
            let moves_on = if board.wrap() == plan.wrap {
                board.clone()
            } else {
                rules.board.with_wrap(plan.wrap).build()
            };
            let king_row = king_row(board, i);
            let enemies = plans
                .iter()
                .enumerate()
                .filter(|(_, p)| p.team != plan.team)
                .fold(0u8, |mask, (e, _)| mask | 1 << e);
            SeatData {
                steps: steps(&moves_on, seat, rules.kind),
                universal: moves_on.wrap() == Wrap::Both,
                board: moves_on,
                king_row,
                ends_across_files: board.frame(i).quarter_turns() % 2 == 1,
                enemies,
                team: plan.team,
            }
        })
        .collect()
}

impl CheckersPosition {
    /// The American checkers start: Black's twelve men on 1-12, White's on 21-32, Black to move.
    pub fn american() -> CheckersPosition {
        CheckersPosition::from_fen(
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            CheckersRules::american(),
        )
        .expect("the start is valid")
    }

    /// The start of a game: each seat's twelve men on the three rows nearest it (the middle
    /// eight files of its edge), on its colour of squares, with Adams' provisions where two
    /// seats meet at a corner (see [`layout`](self::layout)). Numbered men are shuffled into
    /// their places by the game's seed.
    pub fn start(rules: CheckersRules, seed: u64) -> CheckersPosition {
        let mut pos = CheckersPosition::empty(rules);
        for (seat, cells) in layout::start_cells(&pos.rules, &pos.board)
            .into_iter()
            .enumerate()
        {
            pos.place_men(Seat(seat as u8), &cells, seed);
        }
        pos
    }

    /// Puts a man of `seat` on each of `cells`; with Numbers, the men are numbered 1 up and
    /// shuffled into their places by the game's seed.
    pub fn place_men(&mut self, seat: Seat, cells: &[Cell], seed: u64) {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut numbers: Vec<Option<u8>> = if self.rules.numbers {
            (1..=cells.len() as u8).map(Some).collect()
        } else {
            vec![None; cells.len()]
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (0x6e75_6d62 + seat.0 as u64));
        numbers.shuffle(&mut rng);
        for (&cell, number) in cells.iter().zip(numbers) {
            let mut stack = Stack::new();
            stack.push(Checker {
                seat,
                king: false,
                number,
            });
            self.set_stack(cell, stack);
        }
    }

    /// A key equal for positions that count as the same for repetition.
    pub fn repetition_key(&self) -> u64 {
        // FNV-1a over every checker and the side to move: stable across builds, so keys
        // stored with a game stay valid.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        for (i, stack) in self.cells.iter().enumerate() {
            if stack.is_empty() {
                continue;
            }
            eat(i as u8);
            if i > 255 {
                eat((i >> 8) as u8);
            }
            for c in stack {
                // Two seats keep the encoding stored games already use; further seats add a
                // byte naming the seat.
                eat((c.seat.0 & 1) | (c.king as u8) << 1 | c.number.unwrap_or(0) << 2);
                if c.seat.0 > 1 {
                    eat(0xf0 | c.seat.0);
                }
            }
            eat(0xff);
        }
        eat(self.turn.0);
        if self.out != 0 {
            eat(0xfe);
            eat(self.out);
        }
        h
    }

    /// An empty position under some rules.
    pub fn empty(rules: CheckersRules) -> CheckersPosition {
        let board = rules.board.build();
        CheckersPosition {
            seats: seat_data(&rules, &board),
            owned: [CellSet::EMPTY; MAX_SEATS],
            occupied: CellSet::EMPTY,
            cells: vec![Stack::new(); board.len()],
            turn: rules.first,
            board,
            rules,
            out: 0,
            last_mover: None,
            quiet: 0,
        }
    }

    pub fn rules(&self) -> &CheckersRules {
        &self.rules
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn board_arc(&self) -> &Arc<Board> {
        &self.board
    }
    pub fn turn(&self) -> Seat {
        self.turn
    }
    /// How many seats play.
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }
    /// Who moved last, if anyone has.
    pub fn last_mover(&self) -> Option<Seat> {
        self.last_mover
    }
    /// A seat's team (partners share one).
    pub fn team(&self, seat: Seat) -> u8 {
        self.seats[seat.index()].team
    }
    /// Whether `a` may jump `b`'s checkers (they are on different teams).
    pub fn are_enemies(&self, a: Seat, b: Seat) -> bool {
        self.seats[a.index()].enemies >> b.0 & 1 == 1
    }
    /// Whether a seat is out of the game (vanished in cut-throat, or resigned).
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out >> seat.0 & 1 == 1
    }
    /// Plies since the last capture or move of an uncrowned checker.
    pub fn quiet_moves(&self) -> u32 {
        self.quiet
    }
    /// The stack on a cell.
    pub fn stack(&self, cell: Cell) -> &Stack {
        &self.cells[cell.index()]
    }
    /// The checker on top of a cell, which owns it.
    pub fn top(&self, cell: Cell) -> Option<Checker> {
        self.cells[cell.index()].last().copied()
    }
    /// The stacks a seat owns (its checker on top).
    pub fn owned(&self, seat: Seat) -> CellSet {
        self.owned[seat.index()]
    }
    /// How many of a seat's checkers are on the board, on top or held as prisoners.
    pub fn checkers_of(&self, seat: Seat) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|c| c.seat == seat)
            .count()
    }
    /// Puts a stack on a cell (setting up positions).
    pub fn set_stack(&mut self, cell: Cell, stack: Stack) {
        self.cells[cell.index()] = stack;
        self.refresh(cell);
    }

    /// Records who owns `cell` now.
    #[inline]
    fn refresh(&mut self, cell: Cell) {
        for owned in &mut self.owned[..self.seats.len()] {
            owned.remove(cell);
        }
        if let Some(top) = self.cells[cell.index()].last() {
            self.owned[top.seat.index()].insert(cell);
            self.occupied.insert(cell);
        } else {
            self.occupied.remove(cell);
        }
    }
    /// Hands the move to a seat (setting up positions).
    pub fn set_turn(&mut self, seat: Seat) {
        self.turn = seat;
    }

    /// Whether a checker of `seat` standing on `cell` would be crowned there: the far edge of
    /// the board as that seat faces it (on a universal board too, where the ends touch).
    pub fn is_king_row(&self, cell: Cell, seat: Seat) -> bool {
        self.seats[seat.index()].king_row.contains(cell)
    }

    /// All legal moves of the side to move: jumps if any jump exists (jumping is compulsory),
    /// else steps.
    pub fn legal_moves(&self) -> Vec<CheckersMove> {
        self.moves_of(self.turn)
    }

    /// All legal moves `seat` would have if it were its turn.
    pub fn moves_of(&self, us: Seat) -> Vec<CheckersMove> {
        if self.is_out(us) {
            return Vec::new();
        }
        let targets = self.targets_of(us);
        let mut jumps = Vec::new();
        for from in self.owned[us.index()].iter() {
            if let Some(jumper) = self.jumper(from, targets) {
                let (mut path, mut jumped) = (Cells::new(), Cells::new());
                self.extend_jumps(&jumper, from, &mut path, &mut jumped, &mut jumps);
            }
        }
        if !jumps.is_empty() {
            return jumps;
        }
        let mut out = Vec::new();
        for from in self.owned[us.index()].iter() {
            self.for_each_step(from, |to| {
                out.push(CheckersMove {
                    from,
                    path: smallvec::smallvec![to],
                    jumped: Cells::new(),
                });
                true
            });
        }
        out
    }

    /// Whether `seat` has any move at all (found without building them).
    pub fn can_move(&self, us: Seat) -> bool {
        if self.is_out(us) {
            return false;
        }
        let targets = self.targets_of(us);
        self.owned[us.index()].iter().any(|from| {
            !self.for_each_step(from, |_| false)
                || self
                    .jumper(from, targets)
                    .is_some_and(|j| !self.jump_steps(&j, from, &[]).is_empty())
        })
    }

    /// The number of legal moves, found without building them (what perft counts last).
    pub fn count_legal(&self) -> usize {
        let us = self.turn;
        if self.is_out(us) {
            return 0;
        }
        let targets = self.targets_of(us);
        let mut jumps = 0;
        for from in self.owned[us.index()].iter() {
            if let Some(jumper) = self.jumper(from, targets) {
                let mut jumped: ArrayVec<Cell, 96> = ArrayVec::new();
                jumps += self.count_jumps(&jumper, from, &mut jumped);
            }
        }
        if jumps > 0 {
            return jumps;
        }
        let mut count = 0;
        for from in self.owned[us.index()].iter() {
            self.for_each_step(from, |_| {
                count += 1;
                true
            });
        }
        count
    }

    /// Calls `f` with each empty cell the stack on `from` can step to, while `f` says go on;
    /// returns false if `f` stopped it.
    #[inline]
    fn for_each_step(&self, from: Cell, mut f: impl FnMut(Cell) -> bool) -> bool {
        let Some(top) = self.top(from) else {
            return true;
        };
        let seat = &self.seats[top.seat.index()];
        let dirs: &[Dir] = if top.king {
            &seat.steps.king_moves
        } else {
            &seat.steps.man_moves
        };
        for &d in dirs {
            if let Some(to) = seat.board.step(from, d) {
                if !self.occupied.contains(to) && self.may_cross(top, from, to) && !f(to) {
                    return false;
                }
            }
        }
        true
    }

    /// The cells `seat` may jump: those its enemies own.
    #[inline]
    fn targets_of(&self, seat: Seat) -> CellSet {
        let enemies = self.seats[seat.index()].enemies;
        let mut targets = CellSet::EMPTY;
        for (e, owned) in self.owned[..self.seats.len()].iter().enumerate() {
            if enemies >> e & 1 == 1 {
                targets = targets | *owned;
            }
        }
        targets
    }

    /// The jump search of the stack on `from`.
    #[inline]
    fn jumper(&self, from: Cell, targets: CellSet) -> Option<Jumper<'_>> {
        let mover = self.top(from)?;
        let seat = &self.seats[mover.seat.index()];
        Some(Jumper {
            origin: from,
            mover,
            targets,
            seat,
            dirs: if mover.king {
                &seat.steps.king_jumps
            } else {
                &seat.steps.man_jumps
            },
        })
    }

    /// The single jumps open to the jumper standing on `at` during its chain: (cell jumped,
    /// cell landed on). The victim must be an enemy's stack it may jump (Numbers), not already
    /// jumped in this chain; the landing cell must be empty (the chain's own starting cell
    /// counts as empty); men do not cross the ends of a universal board.
    #[inline(always)]
    fn jump_steps(&self, j: &Jumper, at: Cell, jumped: &[Cell]) -> ArrayVec<(Cell, Cell), 12> {
        let mover = j.mover;
        let board = &*j.seat.board;
        let mut out = ArrayVec::new();
        for &d in j.dirs {
            let Some(over) = board.step(at, d) else {
                continue;
            };
            if !j.targets.contains(over) {
                continue;
            }
            let Some(land) = board.step(over, d) else {
                continue;
            };
            let free = land == j.origin || !self.occupied.contains(land);
            if free
                && (!j.seat.universal
                    || (self.may_cross(mover, at, over) && self.may_cross(mover, over, land)))
                && !jumped.contains(&over)
                && (!self.rules.numbers
                    || self.top(over).is_some_and(|victim| can_jump(mover, victim)))
            {
                out.push((over, land));
            }
        }
        out
    }

    /// The number of complete jump chains from `at` (0 if none starts there).
    fn count_jumps(&self, j: &Jumper, at: Cell, jumped: &mut ArrayVec<Cell, 96>) -> usize {
        let mut total = 0;
        let mut extended = false;
        for (over, land) in self.jump_steps(j, at, jumped) {
            extended = true;
            if !j.mover.king && j.seat.king_row.contains(land) {
                total += 1;
            } else {
                jumped.push(over);
                total += self.count_jumps(j, land, jumped);
                jumped.pop();
            }
        }
        if !extended && !jumped.is_empty() {
            return 1;
        }
        total
    }

    fn extend_jumps(
        &self,
        j: &Jumper,
        at: Cell,
        path: &mut Cells,
        jumped: &mut Cells,
        out: &mut Vec<CheckersMove>,
    ) {
        let mut extended = false;
        for (over, land) in self.jump_steps(j, at, jumped) {
            path.push(land);
            jumped.push(over);
            extended = true;
            if !j.mover.king && j.seat.king_row.contains(land) {
                // A man reaching the king row is crowned and the move ends there.
                out.push(CheckersMove {
                    from: j.origin,
                    path: path.clone(),
                    jumped: jumped.clone(),
                });
            } else {
                self.extend_jumps(j, land, path, jumped, out);
            }
            path.pop();
            jumped.pop();
        }
        if !extended && !path.is_empty() {
            out.push(CheckersMove {
                from: j.origin,
                path: path.clone(),
                jumped: jumped.clone(),
            });
        }
    }

    /// On the universal board only kings cross the ends (the edges before and behind a seat,
    /// as it faces the board); men may cross the sides of cylindrical and universal boards.
    #[inline]
    fn may_cross(&self, mover: Checker, a: Cell, b: Cell) -> bool {
        if mover.king {
            return true;
        }
        let seat = &self.seats[mover.seat.index()];
        if !seat.universal {
            return true;
        }
        let (fa, ra) = self.board.coord(a);
        let (fb, rb) = self.board.coord(b);
        if seat.ends_across_files {
            (fa - fb).abs() <= 1
        } else {
            (ra - rb).abs() <= 1
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: &CheckersMove) {
        self.play_undoable(m);
    }

    /// Plays a legal move and returns what [`CheckersPosition::undo`] needs to take it back.
    pub fn play_undoable(&mut self, m: &CheckersMove) -> Undo {
        let mut stack = std::mem::take(&mut self.cells[m.from.index()]);
        let mover = *stack.last().expect("a stack moves");
        let mut victims = SmallVec::new();
        let carry = self.rules.kind != Kind::Checkers;
        for &over in &m.jumped {
            // The jumped stack loses its top checker: off the board in Checkers, carried
            // underneath as a prisoner in Stax and Queens (which frees what it held).
            if let Some(victim) = self.cells[over.index()].pop() {
                victims.push((over, victim));
                if carry {
                    stack.insert(0, victim);
                }
            }
        }
        let to = m.to();
        let crowned = !mover.king && self.is_king_row(to, mover.seat);
        if crowned {
            if let Some(top) = stack.last_mut() {
                top.king = true;
            }
        }
        self.cells[to.index()] = stack;
        self.refresh(m.from);
        self.refresh(to);
        for &over in &m.jumped {
            self.refresh(over);
        }
        let quiet = self.quiet;
        self.quiet = if m.is_jump() || !mover.king {
            0
        } else {
            self.quiet + 1
        };
        let (turn, out, last_mover) = (self.turn, self.out, self.last_mover);
        self.last_mover = Some(mover.seat);
        let removed = self.pass_turn(mover.seat);
        Undo {
            crowned,
            victims,
            quiet,
            turn,
            out,
            last_mover,
            removed,
        }
    }

    /// Hands the turn on after `mover`. Two seats simply alternate (a player without a move
    /// has lost). With more, the turn goes round the table to the next seat that can move:
    /// a seat with nothing to move misses its turn, and in cut-throat Stax and Queens a seat
    /// that owns no stack when its turn comes vanishes: its prisoners are removed from every
    /// stack. When no enemy of the mover can move, the game is over: the turn rests with the
    /// first enemy, who has no move.
    fn pass_turn(&mut self, mover: Seat) -> Vec<Removed> {
        let n = self.seats.len();
        if n == 2 {
            self.turn = Seat(1 - mover.0);
            return Vec::new();
        }
        let enemies = self.seats[mover.index()].enemies;
        let sequence = self.sequence();
        let at = sequence.iter().position(|&s| s == mover).unwrap_or(0);
        let after = |k: usize| sequence[(at + k) % n];
        let is_enemy = |s: Seat| enemies >> s.0 & 1 == 1;
        let mut removed = Vec::new();
        if !(1..n).map(after).any(|s| is_enemy(s) && self.can_move(s)) {
            self.turn = (1..n)
                .map(after)
                .find(|&s| is_enemy(s) && !self.is_out(s))
                .or_else(|| (1..n).map(after).find(|&s| is_enemy(s)))
                .unwrap_or(mover);
            return removed;
        }
        for s in (1..=n).map(after) {
            if self.is_out(s) {
                continue;
            }
            if self.can_move(s) {
                self.turn = s;
                break;
            }
            if self.rules.vanishing && self.owned[s.index()].is_empty() {
                self.vanish(s, &mut removed);
            }
        }
        removed
    }

    /// The seats in their order of play.
    pub fn sequence(&self) -> ArrayVec<Seat, MAX_SEATS> {
        if self.rules.order.len() == self.seats.len() {
            self.rules.order.iter().copied().collect()
        } else {
            (0..self.seats.len() as u8).map(Seat).collect()
        }
    }

    /// Removes every checker of `seat` from the stacks (he is out), noting each for undo.
    fn vanish(&mut self, seat: Seat, removed: &mut Vec<Removed>) {
        for i in 0..self.cells.len() {
            let stack = &mut self.cells[i];
            for at in (0..stack.len()).rev() {
                if stack[at].seat == seat {
                    let checker = stack.remove(at);
                    removed.push((Cell(i as u16), at as u16, checker));
                }
            }
            self.refresh(Cell(i as u16));
        }
        self.out |= 1 << seat.0;
    }

    /// Takes a seat out of a game that goes on without it (a cut-throat player who resigned
    /// or ran out of time): every checker of his leaves the board, stacks he topped pass to
    /// the checker beneath, and if it was his turn (or the player to move is left with no
    /// move) the turn passes on.
    pub fn withdraw(&mut self, seat: Seat) {
        let mut removed = Vec::new();
        self.vanish(seat, &mut removed);
        // The player to move may have lost his only move with the leaver's checkers (a jump
        // over them): then he passes too.
        let to_move = self.turn;
        if to_move == seat || !self.can_move(to_move) {
            self.pass_turn(to_move);
        }
    }

    /// Takes back a move played with [`CheckersPosition::play_undoable`].
    pub fn undo(&mut self, m: &CheckersMove, undo: Undo) {
        for (cell, at, checker) in undo.removed.into_iter().rev() {
            self.cells[cell.index()].insert(at as usize, checker);
            self.refresh(cell);
        }
        self.turn = undo.turn;
        self.out = undo.out;
        self.last_mover = undo.last_mover;
        self.quiet = undo.quiet;
        let mut stack = std::mem::take(&mut self.cells[m.to().index()]);
        if undo.crowned {
            if let Some(top) = stack.last_mut() {
                top.king = false;
            }
        }
        if self.rules.kind != Kind::Checkers {
            // The prisoners carried underneath go back, last taken (lowest) first.
            stack.drain(0..undo.victims.len());
        }
        self.cells[m.from.index()] = stack;
        for (cell, victim) in undo.victims.into_iter().rev() {
            self.cells[cell.index()].push(victim);
            self.refresh(cell);
        }
        self.refresh(m.to());
        self.refresh(m.from);
    }

    /// The standard square number (1-32) of a dark square on 8x8, counted from Black's side
    /// (none in Queens, which uses every square, nor on the 12x12 board: both are written in
    /// coordinates).
    pub fn square_number(&self, cell: Cell) -> Option<u32> {
        let (files, ranks) = self.board.grid_size()?;
        if self.rules.kind == Kind::Queens || (files, ranks) != (8, 8) {
            return None;
        }
        let (f, r) = self.board.coord(cell);
        let row_from_top = ranks as i32 - 1 - r as i32;
        let per_row = files as i32 / 2;
        if (f as i32 + r as i32) % 2 != 0 {
            return None;
        }
        Some((row_from_top * per_row + f as i32 / 2 + 1) as u32)
    }

    /// The cell with standard square number `n`.
    pub fn cell_of_number(&self, n: u32) -> Option<Cell> {
        self.board
            .cells()
            .find(|c| self.square_number(*c) == Some(n))
    }

    /// A move in standard notation: `11-15`, `15x24x31`.
    pub fn move_text(&self, m: &CheckersMove) -> String {
        let name = |c: Cell| {
            self.square_number(c)
                .map_or_else(|| self.board.label(c).to_string(), |n| n.to_string())
        };
        let sep = if m.is_jump() { "x" } else { "-" };
        let mut s = name(m.from);
        for &c in &m.path {
            s.push_str(sep);
            s.push_str(&name(c));
        }
        s
    }

    /// Reads a move: square numbers (`11-15`, `15x24x31`, `15x31`) or coordinates (`c3-d4`,
    /// `c3xe5`), matched against the legal moves.
    pub fn parse_move(&self, text: &str) -> Result<CheckersMove, String> {
        let t = text.trim();
        let parts: Vec<&str> = t
            .split(['-', 'x', 'X', ':', ' '])
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() < 2 {
            return Err(format!("'{t}' is not a move: {}", self.notation_hint()));
        }
        let mut cells = Vec::new();
        for p in &parts {
            let cell = match p.parse::<u32>() {
                Ok(n) if self.has_square_numbers() => self.cell_of_number(n),
                // Boards drawn cell by cell (Adams' triangles) are named by number.
                Ok(_) if self.board.grid_size().is_none() => self.board.cell(p),
                Ok(_) => {
                    let why = if self.rules.kind == Kind::Queens {
                        "Queens has no square numbers"
                    } else {
                        "this board has no square numbers"
                    };
                    return Err(format!(
                        "'{t}' is not a move: {why}; {}",
                        self.notation_hint()
                    ));
                }
                Err(_) => self.board.cell(p),
            };
            cells.push(cell.ok_or_else(|| {
                if self.board.grid_size().is_none() {
                    format!("there is no triangle {p} on this board")
                } else {
                    format!("'{p}' is not a square of this board")
                }
            })?);
        }
        let legal = self.legal_moves();
        // The whole path written out names one move; otherwise the squares given must lie on
        // its path (`15x31` for `15x24x31`).
        if let Some(exact) = legal
            .iter()
            .find(|m| m.from == cells[0] && m.path[..] == cells[1..])
        {
            return Ok(exact.clone());
        }
        let matching: Vec<&CheckersMove> = legal
            .iter()
            .filter(|m| {
                m.from == cells[0]
                    && m.to() == *cells.last().unwrap()
                    && cells[1..cells.len() - 1].iter().all(|c| m.path.contains(c))
            })
            .collect();
        match matching.as_slice() {
            [one] => Ok((*one).clone()),
            [] => {
                // A jump written only part of the way: say how it must go on.
                let longer: Vec<String> = legal
                    .iter()
                    .filter(|m| {
                        m.from == cells[0] && m.is_jump() && m.path.starts_with(&cells[1..])
                    })
                    .map(|m| self.move_text(m))
                    .collect();
                if longer.is_empty() {
                    Err(self.why_not(&cells, &legal, t))
                } else {
                    Err(format!(
                        "{t} is not legal: a multi-jump must be completed: {}",
                        longer.join(" or ")
                    ))
                }
            }

            many => Err(format!(
                "{t} could be any of {}: give the squares between",
                many.iter()
                    .map(|m| self.move_text(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// How moves are written in this game. Queens uses every square, so it has no square
    /// numbers: its example is one of the moves legal now, which is sure to read back.
    /// Whether moves are written in square numbers (plain 8x8 checkers and Stax).
    pub fn has_square_numbers(&self) -> bool {
        self.rules.kind != Kind::Queens && self.board.grid_size() == Some((8, 8))
    }

    fn notation_hint(&self) -> String {
        if self.has_square_numbers() {
            return "write it like 11-15 or 15x24, or c3-d4".into();
        }
        if self.board.grid_size().is_none() {
            return match self.legal_moves().first() {
                Some(m) => format!("write it in triangle numbers, like {}", self.move_text(m)),
                None => "write it in triangle numbers, like 45-57".into(),
            };
        }
        match self.legal_moves().first() {
            Some(m) => format!("write it in coordinates, like {}", self.move_text(m)),
            None => "write it in coordinates, like c3-d4".into(),
        }
    }

    fn why_not(&self, cells: &[Cell], legal: &[CheckersMove], text: &str) -> String {
        let from = cells[0];
        let us = self.turn;
        let reason = match self.top(from) {
            None => format!("there is no piece on {}", self.move_text_square(from)),
            Some(c) if c.seat != us && !self.are_enemies(us, c.seat) => format!(
                "the piece on {} is your partner's, and partners may not move each other's checkers",
                self.move_text_square(from)
            ),
            Some(c) if c.seat != us => {
                format!("the piece on {} is not yours", self.move_text_square(from))
            }
            _ if legal.iter().any(|m| m.is_jump()) => {
                "a jump is available, and jumping is compulsory".into()
            }
            _ if cells.len() == 2 && !self.stack(cells[1]).is_empty() => {
                format!("{} is occupied", self.move_text_square(cells[1]))
            }
            _ => "that piece cannot move there".into(),
        };
        format!("{text} is not legal: {reason}")
    }

    fn move_text_square(&self, c: Cell) -> String {
        self.square_number(c)
            .map_or_else(|| self.board.label(c).to_string(), |n| n.to_string())
    }

    /// PDN FEN: `B:W21,22,K30:B1,2,K5` (turn, then each side's squares; K marks kings). It
    /// shows only the top of each stack and no numbers: use it for plain checkers.
    pub fn fen(&self) -> String {
        let mut out = String::from(if self.turn == Seat::BLACK { "B" } else { "W" });
        for (letter, seat) in [("W", Seat::WHITE), ("B", Seat::BLACK)] {
            let mut squares: Vec<(u32, bool)> = self
                .board
                .cells()
                .filter_map(|c| {
                    let top = self.top(c).filter(|t| t.seat == seat)?;
                    Some((self.square_number(c)?, top.king))
                })
                .collect();
            squares.sort();
            let list: Vec<String> = squares
                .iter()
                .map(|(n, k)| format!("{}{n}", if *k { "K" } else { "" }))
                .collect();
            out.push_str(&format!(":{letter}{}", list.join(",")));
        }
        out
    }

    /// Reads PDN FEN.
    pub fn from_fen(fen: &str, rules: CheckersRules) -> Result<CheckersPosition, String> {
        if rules.kind == Kind::Queens || rules.numbers {
            return Err(
                "PDN FEN describes plain checkers positions only (no stacks, numbers or Queens)"
                    .into(),
            );
        }
        let mut pos = CheckersPosition::empty(rules);
        let fields: Vec<&str> = fen.trim().trim_end_matches('.').split(':').collect();
        let bad = |why: String| format!("invalid checkers FEN \"{}\": {why}", fen.trim());
        pos.turn = match fields.first().map(|f| f.trim()) {
            Some("B") | Some("b") => Seat::BLACK,
            Some("W") | Some("w") => Seat::WHITE,
            other => {
                return Err(bad(format!(
                    "it must start with B or W for the side to move, not {other:?}"
                )))
            }
        };
        for field in &fields[1..] {
            let field = field.trim();
            let (seat, list) = match field.chars().next() {
                Some('W') | Some('w') => (Seat::WHITE, &field[1..]),
                Some('B') | Some('b') => (Seat::BLACK, &field[1..]),
                _ => {
                    return Err(bad(format!(
                        "each side's list starts with W or B, not '{field}'"
                    )))
                }
            };
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (king, n) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let n: u32 = n
                    .parse()
                    .map_err(|_| bad(format!("'{item}' is not a square number")))?;
                let cell = pos
                    .cell_of_number(n)
                    .ok_or_else(|| bad(format!("there is no square {n}")))?;
                if !pos.cells[cell.index()].is_empty() {
                    return Err(bad(format!("square {n} is listed twice")));
                }
                let mut stack = Stack::new();
                stack.push(Checker {
                    seat,
                    king,
                    number: None,
                });
                pos.set_stack(cell, stack);
            }
        }
        Ok(pos)
    }
}

/// A checker removed from a stack when its owner vanished: (cell, height in the stack, checker).
type Removed = (Cell, u16, Checker);

/// What a move changed, to take it back.
#[derive(Debug)]
pub struct Undo {
    crowned: bool,
    victims: SmallVec<[(Cell, Checker); 4]>,
    quiet: u32,
    turn: Seat,
    out: u8,
    last_mover: Option<Seat>,
    removed: Vec<Removed>,
}

/// Whether `mover` may jump `victim` (Numbers: no higher number; only kings jump kings).
fn can_jump(mover: Checker, victim: Checker) -> bool {
    if victim.king && !mover.king {
        // Only a king may jump a king when numbers are in play; in plain checkers anyone may.
        return mover.number.is_none() && victim.number.is_none();
    }
    match (mover.king, mover.number, victim.number) {
        (true, _, _) => true,
        (false, Some(a), Some(b)) => b <= a,
        _ => true,
    }
}

/// Leaf count of the legal move tree, counting the last level by its number of moves.
pub fn perft(pos: &CheckersPosition, depth: u32) -> u64 {
    let mut scratch = pos.clone();
    perft_in_place(&mut scratch, depth)
}

fn perft_in_place(pos: &mut CheckersPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut total = 0;
            for m in pos.legal_moves() {
                let undo = pos.play_undoable(&m);
                total += perft_in_place(pos, depth - 1);
                pos.undo(&m, undo);
            }
            total
        }
    }
}

/// Perft split by the first move.
pub fn divide(pos: &CheckersPosition, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play(m);
            (pos.move_text(m), perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(kind: Kind, wrap: Wrap, numbers: bool) -> CheckersRules {
        CheckersRules::new(kind, wrap, numbers)
    }

    /// A position from a list of (label, stack bottom-first) with `turn` to move.
    fn position(r: CheckersRules, turn: Seat, stacks: &[(&str, &[Checker])]) -> CheckersPosition {
        let mut p = CheckersPosition::empty(r);
        for (label, checkers) in stacks {
            let cell = p.board().cell(label).unwrap();
            p.set_stack(cell, checkers.iter().copied().collect());
        }
        p.set_turn(turn);
        p
    }

    const W: Checker = Checker {
        seat: Seat::WHITE,
        king: false,
        number: None,
    };
    const B: Checker = Checker {
        seat: Seat::BLACK,
        king: false,
        number: None,
    };
    const WK: Checker = Checker {
        seat: Seat::WHITE,
        king: true,
        number: None,
    };
    const BK: Checker = Checker {
        seat: Seat::BLACK,
        king: true,
        number: None,
    };

    fn at<'a>(p: &'a CheckersPosition, label: &str) -> &'a Stack {
        p.stack(p.board().cell(label).unwrap())
    }

    fn texts(p: &CheckersPosition) -> Vec<String> {
        let mut v: Vec<String> = p.legal_moves().iter().map(|m| p.move_text(m)).collect();
        v.sort();
        v
    }

    #[test]
    fn stax_carries_the_jumped_checker_underneath() {
        let r = rules(Kind::Stax, Wrap::None, false);
        let mut p = position(r, Seat::BLACK, &[("b6", &[B]), ("c5", &[W]), ("h2", &[W])]);
        let m = p.parse_move("b6xd4").unwrap();
        p.play(&m);
        assert!(at(&p, "c5").is_empty());
        assert_eq!(
            at(&p, "d4").as_slice(),
            [W, B],
            "the prisoner goes underneath"
        );
    }

    #[test]
    fn jumping_a_stack_takes_only_its_top_and_frees_the_rest() {
        // White's stack on d4 holds a black prisoner; Black jumps it from e5.
        let r = rules(Kind::Stax, Wrap::None, false);
        let mut p = position(
            r,
            Seat::BLACK,
            &[("e5", &[B]), ("d4", &[B, W]), ("h2", &[W])],
        );
        let m = p.parse_move("e5xc3").unwrap();
        p.play(&m);
        assert_eq!(
            at(&p, "d4").as_slice(),
            [B],
            "the freed black checker now owns d4"
        );
        assert_eq!(at(&p, "c3").as_slice(), [W, B]);
    }

    #[test]
    fn only_the_top_is_crowned_and_freed_kings_stay_kings() {
        // A white double piece reaches the king row: only its top is crowned.
        let r = rules(Kind::Stax, Wrap::None, false);
        let mut p = position(r.clone(), Seat::WHITE, &[("c7", &[B, W]), ("a1", &[B])]);
        p.play(&p.parse_move("c7-d8").unwrap());
        assert_eq!(at(&p, "d8").as_slice(), [B, WK]);
        // A king jumped off the top of a stack: a king held underneath is freed a king.
        let mut p = position(
            r,
            Seat::BLACK,
            &[("b6", &[B]), ("c5", &[WK, BK, W]), ("h2", &[W])],
        );
        p.play(&p.parse_move("b6xd4").unwrap());
        assert_eq!(
            at(&p, "c5").as_slice(),
            [WK, BK],
            "Black's freed king owns c5"
        );
        assert!(p.top(p.board().cell("c5").unwrap()).unwrap().king);
    }

    #[test]
    fn a_player_whose_checkers_are_all_prisoners_has_lost() {
        let r = rules(Kind::Stax, Wrap::None, false);
        let mut p = position(r, Seat::BLACK, &[("b6", &[B]), ("c5", &[W])]);
        p.play(&p.parse_move("b6xd4").unwrap());
        assert_eq!(p.turn(), Seat::WHITE);
        assert!(p.legal_moves().is_empty(), "White owns no stack");
    }

    #[test]
    fn queens_uses_both_colours_and_straight_jumps() {
        let r = rules(Kind::Queens, Wrap::None, false);
        let p = CheckersPosition::start(r.clone(), 0);
        let dark = |label: &str| {
            let (f, rk) = p.board().coord(p.board().cell(label).unwrap());
            (f + rk) % 2 == 0
        };
        for (cell, stack) in p.board().cells().map(|c| (c, p.stack(c))) {
            if let Some(top) = stack.last() {
                let label = p.board().label(cell).to_string();
                assert_eq!(dark(&label), top.seat == Seat::BLACK, "{label}");
            }
        }
        // A man jumps straight forward over an enemy on the other colour.
        let mut p = position(
            r.clone(),
            Seat::BLACK,
            &[("d6", &[B]), ("d5", &[W]), ("a1", &[W])],
        );
        assert_eq!(texts(&p), ["d6xd4"]);
        p.play(&p.parse_move("d6xd4").unwrap());
        assert_eq!(
            at(&p, "d4").as_slice(),
            [W, B],
            "Queens is Stax: a prisoner"
        );
        // A king jumps sideways and backward too.
        let p = position(
            r,
            Seat::BLACK,
            &[("d4", &[BK]), ("e4", &[W]), ("d5", &[W]), ("h8", &[W])],
        );
        assert_eq!(texts(&p), ["d4xd6", "d4xf4"]);
    }

    #[test]
    fn queens_hints_give_its_own_notation() {
        let p = CheckersPosition::start(rules(Kind::Queens, Wrap::None, false), 0);
        let example = p.move_text(&p.legal_moves()[0]);
        for text in ["e4", "11-15"] {
            let err = p.parse_move(text).unwrap_err();
            assert!(
                err.contains(&format!("write it in coordinates, like {example}")),
                "{text}: {err}"
            );
        }
        assert!(p.parse_move(&example).is_ok(), "the example reads back");
        let checkers = CheckersPosition::american();
        let err = checkers.parse_move("e4").unwrap_err();
        assert!(err.contains("write it like 11-15"), "{err}");
    }

    #[test]
    fn the_cylinder_joins_the_sides_for_moves_and_jumps() {
        let r = rules(Kind::Checkers, Wrap::Files, false);
        // A white man on a3 steps forward-left across the edge onto h4.
        let p = position(r.clone(), Seat::WHITE, &[("a3", &[W]), ("f8", &[B])]);
        assert_eq!(texts(&p), ["21-17", "21-20"]);
        assert!(p.parse_move("a3-h4").is_ok());
        // And jumps across it: a3 over h4 onto g5.
        let p = position(r, Seat::WHITE, &[("a3", &[W]), ("h4", &[B])]);
        assert_eq!(texts(&p), ["21x16"]);
        assert_eq!(p.board().label(p.parse_move("21x16").unwrap().to()), "g5");
    }

    #[test]
    fn on_the_universal_board_only_kings_cross_the_ends() {
        let r = rules(Kind::Checkers, Wrap::Both, false);
        // White's man on c7 may not jump the black man on d8 across the end onto e1.
        let p = position(r.clone(), Seat::WHITE, &[("c7", &[W]), ("d8", &[B])]);
        assert!(
            p.legal_moves().iter().all(|m| !m.is_jump()),
            "{:?}",
            texts(&p)
        );
        // A king may: from c7 over d8, across the end, onto e1.
        let p = position(r.clone(), Seat::WHITE, &[("c7", &[WK]), ("d8", &[B])]);
        assert_eq!(
            texts(&p),
            ["6x31"],
            "c7 (6) over d8, across the end, onto e1 (31)"
        );
        // A king on the far row steps across the end onto the near row.
        let p = position(r, Seat::WHITE, &[("d8", &[WK]), ("a1", &[B])]);
        assert!(p.parse_move("d8-c1").is_ok() && p.parse_move("d8-e1").is_ok());
    }

    #[test]
    fn numbered_men_are_shuffled_by_the_seed_and_jump_only_lower_numbers() {
        let r = rules(Kind::Checkers, Wrap::None, true);
        let a = CheckersPosition::start(r.clone(), 1);
        let b = CheckersPosition::start(r.clone(), 2);
        let numbers = |p: &CheckersPosition, seat: Seat| -> Vec<u8> {
            p.board()
                .cells()
                .filter_map(|c| p.top(c).filter(|t| t.seat == seat)?.number)
                .collect()
        };
        let mut sorted = numbers(&a, Seat::WHITE);
        sorted.sort();
        assert_eq!(sorted, (1..=12).collect::<Vec<_>>());
        assert_ne!(
            numbers(&a, Seat::WHITE),
            numbers(&b, Seat::WHITE),
            "the seed shuffles"
        );
        assert_eq!(
            numbers(&a, Seat::WHITE),
            numbers(&CheckersPosition::start(r.clone(), 1), Seat::WHITE)
        );
        let man = |seat, n| Checker {
            seat,
            king: false,
            number: Some(n),
        };
        // A 5 may jump a 5 or lower, not a 6.
        let p = position(
            r.clone(),
            Seat::BLACK,
            &[
                ("b6", &[man(Seat::BLACK, 5)]),
                ("c5", &[man(Seat::WHITE, 6)]),
            ],
        );
        assert!(p.legal_moves().iter().all(|m| !m.is_jump()));
        let p = position(
            r.clone(),
            Seat::BLACK,
            &[
                ("b6", &[man(Seat::BLACK, 5)]),
                ("c5", &[man(Seat::WHITE, 5)]),
            ],
        );
        assert!(p.legal_moves().iter().any(|m| m.is_jump()));
        // Only a king jumps a king; a king jumps anything.
        let king = |seat, n| Checker {
            seat,
            king: true,
            number: Some(n),
        };
        let p = position(
            r.clone(),
            Seat::BLACK,
            &[
                ("b6", &[man(Seat::BLACK, 12)]),
                ("c5", &[king(Seat::WHITE, 1)]),
            ],
        );
        assert!(p.legal_moves().iter().all(|m| !m.is_jump()));
        let p = position(
            r,
            Seat::BLACK,
            &[
                ("b6", &[king(Seat::BLACK, 1)]),
                ("c5", &[king(Seat::WHITE, 12)]),
            ],
        );
        assert!(p.legal_moves().iter().any(|m| m.is_jump()));
    }

    fn play_all(p: &mut CheckersPosition, moves: &str) {
        for text in moves.split_whitespace() {
            let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            p.play(&m);
        }
    }

    /// Figure 1, the standard Stax opening: A (Black) pushes into the fourth row, B offers a
    /// piece, A jumps, B re-jumps freeing the prisoner, A offers another to B's stack, B takes
    /// a second prisoner, A re-jumps and frees both: a double piece, not a king.
    #[test]
    fn figure_1_the_standard_stax_opening_builds_a_double() {
        let mut p = CheckersPosition::start(CheckersRules::new(Kind::Stax, Wrap::None, false), 0);
        play_all(&mut p, "11-15 22-18 15x22 26x17 10-14 17x10 6x15");
        assert_eq!(
            at(&p, "d6").as_slice(),
            [B, B],
            "square 10 holds a black double piece"
        );
        assert_eq!(
            at(&p, "e5").as_slice(),
            [W, B],
            "square 15: a white prisoner under Black"
        );
        assert_eq!(
            at(&p, "c3").as_slice(),
            [W],
            "square 22: the white checker B's re-jump freed"
        );
    }

    /// Figure 2: a double piece advanced into jeopardy from two checkers; one must jump, one
    /// checker remains and jumps the other. In Checkers nothing would remain.
    #[test]
    fn figure_2_a_double_piece_survives_a_jump_and_strikes_back() {
        for (kind, remains) in [(Kind::Stax, true), (Kind::Checkers, false)] {
            let r = rules(kind, Wrap::None, false);
            let stack: &[Checker] = if kind == Kind::Stax { &[B, B] } else { &[B] };
            let mut p = position(
                r,
                Seat::BLACK,
                &[("d6", stack), ("d4", &[W]), ("f4", &[W]), ("a1", &[W])],
            );
            play_all(&mut p, "10-15 19x10");
            assert_eq!(!at(&p, "e5").is_empty(), remains, "{kind:?}");
            if remains {
                assert_eq!(
                    texts(&p),
                    ["15x22"],
                    "the remaining checker jumps the other"
                );
            }
        }
    }

    /// Figure 3: a single piece carrying a prisoner is jumped; the prisoner is freed to its
    /// owner, and a neighbour of the first player recaptures it.
    #[test]
    fn figure_3_my_piece_becomes_yours_and_mine_again() {
        let r = rules(Kind::Stax, Wrap::None, false);
        let mut p = position(
            r,
            Seat::BLACK,
            &[("d6", &[W, B]), ("f6", &[B]), ("f4", &[W]), ("a1", &[W])],
        );
        play_all(&mut p, "10-15 19x10");
        assert_eq!(
            at(&p, "e5").as_slice(),
            [W],
            "the freed checker is White's now"
        );
        assert!(texts(&p).contains(&"11x18".to_string()), "{:?}", texts(&p));
    }

    /// Figure 4: the one-for-one exchange of Checkers fails in Stax: the jump leaves a checker
    /// behind that blocks the re-jump.
    #[test]
    fn figure_4_the_re_jump_is_blocked_in_stax() {
        for (kind, lead) in [(Kind::Checkers, vec![B]), (Kind::Stax, vec![B, B])] {
            let r = rules(kind, Wrap::None, false);
            let mut p = position(
                r,
                Seat::WHITE,
                &[("d4", &[W]), ("e5", &lead), ("g7", &[B]), ("h8", &[B])],
            );
            play_all(&mut p, "18x11");
            let rejump = texts(&p).contains(&"8x15".to_string());
            assert_eq!(rejump, kind == Kind::Checkers, "{kind:?}: {:?}", texts(&p));
        }
    }

    /// Figure 5: a single king holding prisoners is forced to jump a double piece toward its
    /// own back row; the checker left behind leap-frogs back over it and frees the prisoners.
    #[test]
    fn figure_5_the_leap_frog_rescues_the_prisoners() {
        let r = rules(Kind::Stax, Wrap::None, false);
        let mut p = position(
            r,
            Seat::WHITE,
            &[("f6", &[B, WK]), ("e5", &[B, B]), ("h8", &[B])],
        );
        play_all(&mut p, "11x18");
        assert_eq!(at(&p, "e5").as_slice(), [B]);
        play_all(&mut p, "15x22");
        assert_eq!(at(&p, "d4").as_slice(), [B, B], "both black checkers freed");
        assert_eq!(
            at(&p, "c3").as_slice(),
            [WK, B],
            "the white king is now a prisoner"
        );
    }

    /// Figure 6 and its text: in Queens, if B answers A's opening by offering an immediate jump,
    /// A double-jumps straight forward, taking two and landing crowned in the king row.
    #[test]
    fn figure_6_the_queens_opening_trap() {
        let mut p = CheckersPosition::start(CheckersRules::new(Kind::Queens, Wrap::None, false), 0);
        play_all(&mut p, "d6-c5 b3-c4");
        assert!(
            texts(&p).contains(&"c5xc3xc1".to_string()),
            "{:?}",
            texts(&p)
        );
        play_all(&mut p, "c5xc3xc1");
        let c1 = at(&p, "c1");
        assert_eq!(c1.len(), 3, "two prisoners underneath");
        assert!(c1.last().unwrap().king && c1.last().unwrap().seat == Seat::BLACK);
        // Nothing moves parallel to an edge except by jumping.
        let q = CheckersPosition::start(CheckersRules::new(Kind::Queens, Wrap::None, false), 0);
        for m in q.legal_moves() {
            let (a, b) = (q.board().coord(m.from), q.board().coord(m.to()));
            assert!(a.0 != b.0 && a.1 != b.1, "{}", q.move_text(&m));
        }
    }

    /// Figure 7: A moves off the left edge onto the right; B jumps it off the right edge back
    /// onto the left.
    #[test]
    fn figure_7_cylindrical_move_and_jump() {
        let r = rules(Kind::Checkers, Wrap::Files, false);
        let mut p = position(r, Seat::BLACK, &[("a5", &[B]), ("g3", &[W]), ("h8", &[B])]);
        play_all(&mut p, "13-20");
        assert_eq!(at(&p, "h4").as_slice(), [B]);
        play_all(&mut p, "24x13");
        assert_eq!(at(&p, "a5").as_slice(), [W], "landed back on the left edge");
        assert!(at(&p, "h4").is_empty());
    }

    /// Figure 8: corner play on the universal board: a king jumps across the corner, and so
    /// may a piece on the far corner in each of its directions.
    #[test]
    fn figure_8_corner_play_on_the_universal_board() {
        let r = rules(Kind::Checkers, Wrap::Both, false);
        // A white king on a1 jumps the black piece on h8, across the corner, landing on g7.
        let p = position(r.clone(), Seat::WHITE, &[("a1", &[WK]), ("h8", &[B])]);
        assert_eq!(texts(&p), ["29x8"]);
        // A black king on h8 may jump White's pieces on a1 (landing b2) or on g7 (landing f6).
        let p = position(r, Seat::BLACK, &[("h8", &[BK]), ("a1", &[W]), ("g7", &[W])]);
        assert_eq!(texts(&p), ["4x11", "4x25"]);
    }

    #[test]
    fn perft_holds_for_every_game_of_the_family() {
        // Every game of the 18 runs perft from its start without trouble; plain checkers is
        // checked against published counts in tests/data.
        for kind in [Kind::Checkers, Kind::Stax, Kind::Queens] {
            for wrap in [Wrap::None, Wrap::Files, Wrap::Both] {
                for numbers in [false, true] {
                    let p = CheckersPosition::start(CheckersRules::new(kind, wrap, numbers), 3);
                    let n3 = perft(&p, 3);
                    assert!(n3 > 0, "{kind:?} {wrap:?} {numbers}");
                    // Make/unmake leaves the position as it was.
                    let mut q = p.clone();
                    for m in p.legal_moves() {
                        let undo = q.play_undoable(&m);
                        q.undo(&m, undo);
                        assert_eq!(q.repetition_key(), p.repetition_key());
                    }
                }
            }
        }
    }
}

//! Checkers machinery over any board: men and kings, stacks (each cell holds a stack whose top
//! checker owns and moves it), numbered men, jump search with compulsory captures and complete
//! multi-jumps, crowning, notation and perft.
//!
//! ```
//! use engine::checkers::{perft, CheckersPosition};
//! let start = CheckersPosition::american();
//! assert_eq!(perft(&start, 4), 1469);
//! ```

use std::fmt;
use std::sync::Arc;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::board::{Board, BoardSpec, Cell, Dir, Heading, SquareBoard};
use crate::chess::Seat;

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

/// The checkers on one cell, bottom first; the top one owns and moves the stack.
pub type Stack = ArrayVec<Checker, 24>;

/// The rules a checkers position is played under.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckersRules {
    pub board: BoardSpec,
    /// The seat that moves first.
    pub first: Seat,
}

impl CheckersRules {
    /// American checkers: 8x8, played on the dark squares (men only ever move diagonally,
    /// so they never leave them); White (seat 0) at the bottom, Black (seat 1) at the top and
    /// moving first.
    pub fn american() -> CheckersRules {
        CheckersRules {
            board: SquareBoard::new(8, 8).seats_facing(&[0, 2]).spec(),
            first: Seat::BLACK,
        }
    }
}

/// A move: a step, or a chain of jumps.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckersMove {
    pub from: Cell,
    /// Where the moving stack lands, in order (one cell for a step).
    pub path: Vec<Cell>,
    /// The cells jumped, in order (empty for a step).
    pub jumped: Vec<Cell>,
}

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
    board: Arc<Board>,
    cells: Vec<Stack>,
    turn: Seat,
    /// Moves (plies) since the last capture or move of an uncrowned checker.
    quiet: u32,
}

impl fmt::Debug for CheckersPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CheckersPosition({})", self.fen())
    }
}

/// Directions of one seat: forward diagonals and all four diagonals.
struct Steps {
    forward: [Dir; 2],
    diagonal: [Dir; 4],
}

fn steps(board: &Board, seat: Seat) -> Steps {
    let frame = board.frame(seat.index());
    Steps {
        forward: [
            frame.dir(Heading::ForwardLeft),
            frame.dir(Heading::ForwardRight),
        ],
        diagonal: Heading::DIAGONAL.map(|h| frame.dir(h)),
    }
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

    /// An empty position under some rules.
    pub fn empty(rules: CheckersRules) -> CheckersPosition {
        let board = rules.board.build();
        CheckersPosition {
            cells: vec![Stack::new(); board.len()],
            turn: rules.first,
            board,
            rules,
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
    /// Puts a stack on a cell (setting up positions).
    pub fn set_stack(&mut self, cell: Cell, stack: Stack) {
        self.cells[cell.index()] = stack;
    }
    /// Hands the move to a seat (setting up positions).
    pub fn set_turn(&mut self, seat: Seat) {
        self.turn = seat;
    }

    /// Whether a checker of `seat` standing on `cell` would be crowned there: the far row of
    /// the board as that seat faces it (on a universal board too, where the ends touch).
    pub fn is_king_row(&self, cell: Cell, seat: Seat) -> bool {
        let (_, rank) = self.board.coord(cell);
        let (_, ranks) = self.board.grid_size().unwrap_or((8, 8));
        if self.board.frame(seat.index()).dir(Heading::Forward) == Dir(0) {
            rank as u8 == ranks - 1
        } else {
            rank == 0
        }
    }

    /// All legal moves: jumps if any jump exists (jumping is compulsory), else steps.
    pub fn legal_moves(&self) -> Vec<CheckersMove> {
        let mut jumps = Vec::new();
        let us = self.turn;
        for i in 0..self.cells.len() {
            let from = Cell(i as u16);
            if self.top(from).is_some_and(|c| c.seat == us) {
                self.jumps_from(from, &mut jumps);
            }
        }
        if !jumps.is_empty() {
            return jumps;
        }
        let st = steps(&self.board, us);
        let mut out = Vec::new();
        for i in 0..self.cells.len() {
            let from = Cell(i as u16);
            let Some(top) = self.top(from).filter(|c| c.seat == us) else {
                continue;
            };
            let dirs: &[Dir] = if top.king { &st.diagonal } else { &st.forward };
            for &d in dirs {
                if let Some(to) = self.board.step(from, d) {
                    if self.cells[to.index()].is_empty() {
                        out.push(CheckersMove {
                            from,
                            path: vec![to],
                            jumped: Vec::new(),
                        });
                    }
                }
            }
        }
        out
    }

    /// The number of legal moves, found without building them (what perft counts last).
    pub fn count_legal(&self) -> usize {
        let us = self.turn;
        let mut jumps = 0;
        for i in 0..self.cells.len() {
            let from = Cell(i as u16);
            if let Some(mover) = self.top(from).filter(|c| c.seat == us) {
                let mut jumped: ArrayVec<Cell, 24> = ArrayVec::new();
                jumps += self.count_jumps(from, from, mover, &mut jumped);
            }
        }
        if jumps > 0 {
            return jumps;
        }
        let st = steps(&self.board, us);
        let mut count = 0;
        for i in 0..self.cells.len() {
            let from = Cell(i as u16);
            let Some(top) = self.top(from).filter(|c| c.seat == us) else {
                continue;
            };
            let dirs: &[Dir] = if top.king { &st.diagonal } else { &st.forward };
            for &d in dirs {
                if self
                    .board
                    .step(from, d)
                    .is_some_and(|to| self.cells[to.index()].is_empty())
                {
                    count += 1;
                }
            }
        }
        count
    }

    /// The number of complete jump chains from `at` (0 if none starts there).
    fn count_jumps(
        &self,
        origin: Cell,
        at: Cell,
        mover: Checker,
        jumped: &mut ArrayVec<Cell, 24>,
    ) -> usize {
        let st = steps(&self.board, mover.seat);
        let dirs: &[Dir] = if mover.king {
            &st.diagonal
        } else {
            &st.forward
        };
        let mut total = 0;
        let mut extended = false;
        for &d in dirs {
            let Some(over) = self.board.step(at, d) else {
                continue;
            };
            let Some(land) = self.board.step(over, d) else {
                continue;
            };
            if jumped.contains(&over) {
                continue;
            }
            let Some(victim) = self.top(over) else {
                continue;
            };
            if victim.seat == mover.seat || !can_jump(mover, victim) {
                continue;
            }
            if !(self.cells[land.index()].is_empty() || land == origin) {
                continue;
            }
            extended = true;
            if !mover.king && self.is_king_row(land, mover.seat) {
                total += 1;
            } else {
                jumped.push(over);
                total += self.count_jumps(origin, land, mover, jumped);
                jumped.pop();
            }
        }
        if !extended && !jumped.is_empty() {
            return 1;
        }
        total
    }

    /// Every complete jump chain of the stack on `from`.
    fn jumps_from(&self, from: Cell, out: &mut Vec<CheckersMove>) {
        let mover = self.top(from).expect("a stack moves");
        let mut path = Vec::new();
        let mut jumped = Vec::new();
        self.extend_jumps(from, from, mover, &mut path, &mut jumped, out);
    }

    fn extend_jumps(
        &self,
        origin: Cell,
        at: Cell,
        mover: Checker,
        path: &mut Vec<Cell>,
        jumped: &mut Vec<Cell>,
        out: &mut Vec<CheckersMove>,
    ) {
        let st = steps(&self.board, mover.seat);
        let dirs: &[Dir] = if mover.king {
            &st.diagonal
        } else {
            &st.forward
        };
        let mut extended = false;
        for &d in dirs {
            let Some(over) = self.board.step(at, d) else {
                continue;
            };
            let Some(land) = self.board.step(over, d) else {
                continue;
            };
            if jumped.contains(&over) {
                continue;
            }
            let Some(victim) = self.top(over) else {
                continue;
            };
            if victim.seat == mover.seat || !can_jump(mover, victim) {
                continue;
            }
            // The landing cell must be empty; the mover's own starting cell counts as empty.
            if !(self.cells[land.index()].is_empty() || land == origin) {
                continue;
            }
            path.push(land);
            jumped.push(over);
            extended = true;
            if !mover.king && self.is_king_row(land, mover.seat) {
                // A man reaching the king row is crowned and the move ends there.
                out.push(CheckersMove {
                    from: origin,
                    path: path.clone(),
                    jumped: jumped.clone(),
                });
            } else {
                self.extend_jumps(origin, land, mover, path, jumped, out);
            }
            path.pop();
            jumped.pop();
        }
        if !extended && !path.is_empty() {
            out.push(CheckersMove {
                from: origin,
                path: path.clone(),
                jumped: jumped.clone(),
            });
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
        let mut victims = ArrayVec::new();
        for &over in &m.jumped {
            // Checkers: the jumped checker leaves the board.
            if let Some(victim) = self.cells[over.index()].pop() {
                victims.push((over, victim));
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
        let quiet = self.quiet;
        self.quiet = if m.is_jump() || !mover.king {
            0
        } else {
            self.quiet + 1
        };
        self.turn = Seat(1 - self.turn.0);
        Undo {
            crowned,
            victims,
            quiet,
        }
    }

    /// Takes back a move played with [`CheckersPosition::play_undoable`].
    pub fn undo(&mut self, m: &CheckersMove, undo: Undo) {
        self.turn = Seat(1 - self.turn.0);
        self.quiet = undo.quiet;
        let mut stack = std::mem::take(&mut self.cells[m.to().index()]);
        if undo.crowned {
            if let Some(top) = stack.last_mut() {
                top.king = false;
            }
        }
        self.cells[m.from.index()] = stack;
        for (cell, victim) in undo.victims.into_iter().rev() {
            self.cells[cell.index()].push(victim);
        }
    }

    /// The standard square number (1-32) of a dark square on 8x8, counted from Black's side.
    pub fn square_number(&self, cell: Cell) -> Option<u32> {
        let (files, ranks) = self.board.grid_size()?;
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
            return Err(format!(
                "'{t}' is not a move: write it like 11-15 or 15x24, or c3-d4"
            ));
        }
        let mut cells = Vec::new();
        for p in &parts {
            let cell = match p.parse::<u32>() {
                Ok(n) => self.cell_of_number(n),
                Err(_) => self.board.cell(p),
            };
            cells.push(cell.ok_or_else(|| format!("'{p}' is not a square of this board"))?);
        }
        let legal = self.legal_moves();
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
            [] => Err(self.why_not(&cells, &legal, t)),
            many => Err(format!(
                "{t} could be any of {}: give the squares between",
                many.iter()
                    .map(|m| self.move_text(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn why_not(&self, cells: &[Cell], legal: &[CheckersMove], text: &str) -> String {
        let from = cells[0];
        let us = self.turn;
        let reason = match self.top(from) {
            None => format!("there is no piece on {}", self.move_text_square(from)),
            Some(c) if c.seat != us => {
                format!("the piece on {} is not yours", self.move_text_square(from))
            }
            _ if legal.iter().any(|m| m.is_jump()) => {
                "a jump is available, and jumping is compulsory".into()
            }
            _ => "that piece cannot move there".into(),
        };
        format!("{text} is not legal: {reason}")
    }

    fn move_text_square(&self, c: Cell) -> String {
        self.square_number(c)
            .map_or_else(|| self.board.label(c).to_string(), |n| n.to_string())
    }

    /// PDN FEN: `B:W21,22,K30:B1,2,K5` (turn, then each side's squares; K marks kings).
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
                pos.cells[cell.index()] = stack;
            }
        }
        Ok(pos)
    }
}

/// What a move changed, to take it back.
#[derive(Debug)]
pub struct Undo {
    crowned: bool,
    victims: ArrayVec<(Cell, Checker), 24>,
    quiet: u32,
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

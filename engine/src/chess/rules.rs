//! The fixed rules a chess position is played under: the board, the seats and their teams, and
//! each army's movement read from its seat's frame. Built once and shared by every position.

use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::board::{Board, BoardSpec, Cell, CellSet, Dir, Heading, Leap, Wrap};

use super::Role;

/// The most armies one chess position may hold.
pub const MAX_SEATS: usize = 6;

/// What rebuilds a [`Rules`]: stored with games, compared cheaply.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RulesSpec {
    /// The board.
    pub board: BoardSpec,
    /// The team of each seat; seats of one team never capture or check each other.
    pub teams: Vec<u8>,
    /// How far pawns may step.
    #[serde(default)]
    pub pawns: PawnRule,
    /// Whether knights may add a second, non-capturing hop in the same direction (Adams'
    /// Doubles Chess).
    #[serde(default)]
    pub extended_knight: bool,
    /// Where king and rook land when castling.
    #[serde(default)]
    pub castling: CastlingRule,
    /// Per army, the edges that army's own moves wrap across, when armies see the board
    /// differently (cylindrical Doubles Chess: each pair of opposite players has its own left
    /// and right edges touching). Empty: every army moves on the board as built.
    #[serde(default)]
    pub army_wrap: Vec<Wrap>,
    /// Armies whose pieces are dead (Trimens Chess: a mated or stalemated player's pieces stay
    /// as part of the board), one bit per seat: nobody captures them or is checked by them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dead: u8,
    /// Per army, the side its `O-O` (the king's side) goes to, where the half of the home row
    /// the king stands in does not say (a king on the very centre of its row, as in closed
    /// four-player Tri-Chess). Empty: that rule alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_castle: Vec<super::CastleSide>,
    /// Whether a pawn may also promote to a piece of a partner's army (Superchess).
    #[serde(default, skip_serializing_if = "is_false")]
    pub promote_to_partners: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// How far a pawn may step forward.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PawnRule {
    /// One square, or two from the row next to its own edge.
    #[default]
    Orthodox,
    /// Adams' Doubles Chess: one, two or three squares on its first move, then one or two until
    /// it crosses the centre of the board, then one at a time.
    Doubles,
    /// Jacobson's Superchess, on its 14x14 board with an army in each 5x5 corner: each pawn
    /// keeps one course, forward or to the right of its army's frame (toward the enemy ahead or
    /// the one beside), and the point pawn on the corner of both chooses with its first move.
    /// A pawn steps one, or two from where it started; it promotes at the end of its line, or
    /// on a capture into the frontier beyond the enemy it faces.
    Superchess,
}

/// Where the king and rook land when castling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CastlingRule {
    /// The king on the g- or c-file and the rook beside it on the inside, counted along the
    /// army's home row from its ends (chess and Chess960).
    #[default]
    FixedFiles,
    /// The king two squares toward the rook, the rook on the square the king crossed (how
    /// castling reads on a wider board where the armies stand in the middle of their edge).
    KingTwoSquares,
    /// King and rook change places, whatever stands between (Superchess, where they start a
    /// knight's move apart). `O-O` is the rook on the king's right as its army faces.
    Swap,
}

impl RulesSpec {
    /// Ordinary two-player chess on 8x8.
    pub fn chess() -> RulesSpec {
        RulesSpec::new(BoardSpec::chess(), vec![0, 1])
    }

    /// Orthodox pieces on `board`, one army per entry of `teams`.
    pub fn new(board: BoardSpec, teams: Vec<u8>) -> RulesSpec {
        RulesSpec {
            board,
            teams,
            pawns: PawnRule::Orthodox,
            extended_knight: false,
            castling: CastlingRule::FixedFiles,
            army_wrap: Vec::new(),
            dead: 0,
            short_castle: Vec::new(),
            promote_to_partners: false,
        }
    }

    /// The rules for this spec, built once per process and shared.
    pub fn build(&self) -> Arc<Rules> {
        static CACHE: OnceLock<Mutex<Vec<Arc<Rules>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut all = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rules) = all.iter().find(|r| &r.spec == self) {
            return rules.clone();
        }
        let rules = Arc::new(Rules::new(self.clone()));
        all.push(rules.clone());
        rules
    }
}

/// How many lines each piece has on a kind of board, fixed at compile time so that the move
/// generator's loops over them are as tight on squares as if they were written for squares
/// alone; a tri-board's army is generated by a second copy of the same code.
pub(crate) trait Geometry {
    /// Lines of a rook, and of a bishop.
    const LINES: usize;
    /// King steps.
    const KING: usize;
    /// King steps that are no slider's first step.
    const KING_ONLY: usize;
    /// Whether two lines can make the same move (a tri-board's rook reaches each side
    /// neighbour along two lines), so moves must be deduplicated.
    const OVERLAPPING: bool;
}

/// Squares (and Trimens' frames): four rook lines, four bishop lines, eight king steps.
pub(crate) struct Squares;

impl Geometry for Squares {
    const LINES: usize = 4;
    const KING: usize = 8;
    const KING_ONLY: usize = 0;
    const OVERLAPPING: bool = false;
}

/// Adams' tri-boards: six rook lines, six bishop lines, twelve king steps.
pub(crate) struct Triangles;

impl Geometry for Triangles {
    const LINES: usize = 6;
    const KING: usize = 12;
    const KING_ONLY: usize = 6;
    const OVERLAPPING: bool = true;
}

/// An army's lines in use: see [`Army::lines_in_use`].
pub(crate) struct InUse<'a> {
    pub rook: &'a [Dir],
    pub bishop: &'a [Dir],
    pub king: &'a [Dir],
}

/// One course an army's pawns move on, in board directions.
#[derive(Debug)]
pub(crate) struct PawnWay {
    pub forward: Dir,
    pub captures: [Dir; 2],
    /// Directions from a target cell back toward a pawn on this course that attacks it.
    pub attack_from: [Dir; 2],
    /// Cells where these pawns promote.
    pub promotion: CellSet,
    /// Cells where these pawns promote when they capture onto them (Superchess's frontiers).
    pub capture_promotion: CellSet,
    /// Cells from which these pawns may step two squares.
    pub double_step: CellSet,
    /// Cells from which these pawns may step three squares.
    pub triple_step: CellSet,
}

impl PawnWay {
    fn new(board: &Board, forward: Dir, captures: [Dir; 2]) -> PawnWay {
        PawnWay {
            forward,
            captures,
            attack_from: captures.map(|d| board.opposite(d)),
            promotion: CellSet::EMPTY,
            capture_promotion: CellSet::EMPTY,
            double_step: CellSet::EMPTY,
            triple_step: CellSet::EMPTY,
        }
    }

    /// Whether a pawn on this course promotes arriving on `to`.
    #[inline]
    pub fn promotes(&self, to: Cell, capture: bool) -> bool {
        self.promotion.contains(to) || (capture && self.capture_promotion.contains(to))
    }
}

/// How one seat's pieces move, in board directions, precomputed from its frame.
#[derive(Debug)]
pub(crate) struct Army {
    /// The board as this army moves on it (the shared board unless the army wraps its own way).
    pub board: Arc<Board>,
    /// How the army's pawns move: those on its forward course (every pawn but in Superchess)...
    pub pawn: PawnWay,
    /// ...and, in Superchess, those on the course to its right.
    pub side: Option<PawnWay>,
    /// The lines and steps of the pieces, the first [`Geometry::LINES`] (and so on) in use:
    /// 4, 4 and 8 on squares and Trimens, 6, 6 and 12 on Adams' tri-boards.
    pub rook: [Dir; 6],
    pub bishop: [Dir; 6],
    pub king: [Dir; 12],
    /// Directions to walk from a target to find this army's rook (or queen) attacking it.
    pub rook_from: [Dir; 6],
    pub bishop_from: [Dir; 6],
    /// Directions from a target back to a king of this army attacking it by a step that is
    /// no slider's first step (the tri-board's six corner steps).
    pub king_only_from: [Dir; 6],
    pub knight: Leap,
    /// The army's home row in order along its line (toward higher files, or higher ranks for
    /// an army at a side edge), for castling.
    pub home_line: Vec<Cell>,
    /// For each cell, its index in `home_line` (`u8::MAX` off the line).
    pub line_index: Vec<u8>,
    /// Cells on this army's own edge (its back row).
    pub home_row: CellSet,
    /// For each board direction, the roles of this army that slide along it.
    slide_roles: Vec<u8>,
}

impl Army {
    /// The rook's lines in use.
    pub fn rook_lines<G: Geometry>(&self) -> &[Dir] {
        &self.rook[..G::LINES]
    }

    /// The bishop's lines in use.
    pub fn bishop_lines<G: Geometry>(&self) -> &[Dir] {
        &self.bishop[..G::LINES]
    }

    /// The king's steps in use.
    pub fn king_steps<G: Geometry>(&self) -> &[Dir] {
        &self.king[..G::KING]
    }

    /// The rook's and bishop's lines and the king's steps in use, on a tri-board or not (for
    /// code off the hot path).
    pub fn lines_in_use(&self, triangles: bool) -> InUse<'_> {
        fn of<G: Geometry>(army: &Army) -> InUse<'_> {
            InUse {
                rook: army.rook_lines::<G>(),
                bishop: army.bishop_lines::<G>(),
                king: army.king_steps::<G>(),
            }
        }
        if triangles {
            of::<Triangles>(self)
        } else {
            of::<Squares>(self)
        }
    }

    /// A cell's place on the home row, if it is on it.
    #[inline]
    pub fn line_at(&self, cell: Cell) -> Option<usize> {
        let i = self.line_index[cell.index()];
        (i != u8::MAX).then_some(i as usize)
    }

    #[inline]
    pub fn slides(&self, dir: Dir, role: Role) -> bool {
        self.slide_roles[dir.0 as usize] & role.bit() != 0
    }
}

/// The rules of a chess game: board, seats, teams and armies.
#[derive(Debug)]
pub struct Rules {
    spec: RulesSpec,
    board: Arc<Board>,
    pub(crate) seats: u8,
    pub(crate) teams: [u8; MAX_SEATS],
    pub(crate) enemies: Vec<Vec<usize>>,
    /// Each seat's enemies, one bit per seat.
    pub(crate) enemy_mask: [u8; MAX_SEATS],
    pub(crate) armies: Vec<Army>,
    pub(crate) promotion_roles: Vec<Role>,
    /// Whether armies move on boards of their own (so pins cannot be read off shared lines).
    pub(crate) own_boards: bool,
    /// Whether the pieces have a tri-board's six lines each ([`Triangles`]) rather than four.
    pub(crate) triangles: bool,
    /// Whether only a pawn standing beside a pawn that made a long step may take it en
    /// passant. Superchess: "an opponent's pawn situated on an adjoining square of an adjacent
    /// file may capture it". Elsewhere any pawn whose capture reaches a square the step passed
    /// may: in orthodox chess only a pawn beside it can, and Adams' Doubles Chess means it
    /// ("RP x P - N3" from behind the passed squares, at right angles).
    pub(crate) ep_beside: bool,
}

impl Rules {
    /// Ordinary chess: 8x8, White and Black.
    pub fn chess() -> Arc<Rules> {
        RulesSpec::chess().build()
    }

    fn new(spec: RulesSpec) -> Rules {
        let board = spec.board.build();
        let seats = spec.teams.len();
        assert!((1..=MAX_SEATS).contains(&seats), "1 to {MAX_SEATS} seats");
        let mut teams = [0; MAX_SEATS];
        teams[..seats].copy_from_slice(&spec.teams);
        // Dead armies are nobody's enemy, and have none.
        let alive = |s: usize| spec.dead >> s & 1 == 0;
        let enemy = |s: usize, e: usize| teams[e] != teams[s] && alive(s) && alive(e);
        let enemies = (0..seats)
            .map(|s| (0..seats).filter(|&e| enemy(s, e)).collect())
            .collect();
        let mut enemy_mask = [0u8; MAX_SEATS];
        for (s, mask) in enemy_mask.iter_mut().enumerate().take(seats) {
            for e in 0..seats {
                if enemy(s, e) {
                    *mask |= 1 << e;
                }
            }
        }
        let own_boards = !spec.army_wrap.is_empty();
        let triangles = board.frame(0).lines().rook.len() == Triangles::LINES;
        let ep_beside = spec.pawns == PawnRule::Superchess;
        let armies = (0..seats)
            .map(|s| {
                let moves_on = match spec.army_wrap.get(s) {
                    Some(&wrap) => spec.board.with_wrap(wrap).build(),
                    None => board.clone(),
                };
                army(&board, moves_on, s, spec.pawns)
            })
            .collect();
        Rules {
            spec,
            board,
            seats: seats as u8,
            teams,
            enemies,
            enemy_mask,
            armies,
            promotion_roles: vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
            own_boards,
            triangles,
            ep_beside,
        }
    }

    /// The spec that rebuilds these rules.
    pub fn spec(&self) -> &RulesSpec {
        &self.spec
    }
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The shared board.
    pub fn board_arc(&self) -> &Arc<Board> {
        &self.board
    }
    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }
    /// The team of a seat.
    pub fn team(&self, seat: usize) -> u8 {
        self.teams[seat]
    }
    /// Cells where a seat's pawns promote.
    pub fn promotion_zone(&self, seat: usize) -> CellSet {
        self.armies[seat].pawn.promotion
    }
    /// Cells from which a seat's pawns may step two squares (their first row).
    pub fn double_step_cells(&self, seat: usize) -> CellSet {
        self.armies[seat].pawn.double_step
    }
    /// A seat's own back row.
    pub fn home_row(&self, seat: usize) -> CellSet {
        self.armies[seat].home_row
    }
    /// The board as a seat's pieces move on it (the shared board unless that army's edges wrap
    /// in their own way).
    pub fn board_of(&self, seat: usize) -> &Board {
        &self.armies[seat].board
    }
    /// Whether knights have Adams' extended move.
    pub fn extended_knight(&self) -> bool {
        self.spec.extended_knight
    }
    /// A seat's direction forward.
    pub fn forward(&self, seat: usize) -> Dir {
        self.armies[seat].pawn.forward
    }
    /// Whether pawns may promote to partners' pieces.
    pub fn promote_to_partners(&self) -> bool {
        self.spec.promote_to_partners
    }
}

fn army(shared: &Board, moves_on: Arc<Board>, seat: usize, pawns: PawnRule) -> Army {
    let board = shared;
    let frame = shared.frame(seat);
    let lines = frame.lines();
    // Unused slots repeat the first line; they are never read.
    let fill = |from: &[Dir]| -> [Dir; 6] { std::array::from_fn(|i| from[i.min(from.len() - 1)]) };
    let rook = fill(&lines.rook);
    let bishop = fill(&lines.bishop);
    let king: [Dir; 12] = std::array::from_fn(|i| lines.king[i.min(lines.king.len() - 1)]);
    let first_steps: Vec<Dir> = lines.rook.iter().chain(&lines.bishop).copied().collect();
    let king_only: Vec<Dir> = lines
        .king
        .iter()
        .copied()
        .filter(|d| !first_steps.contains(d))
        .collect();
    let king_only_from: [Dir; 6] =
        std::array::from_fn(|i| king_only.get(i).map_or(Dir(0), |&d| board.opposite(d)));
    let forward = frame.dir(Heading::Forward);
    let back = frame.dir(Heading::Back);
    let pawn_captures = [
        frame.dir(Heading::ForwardLeft),
        frame.dir(Heading::ForwardRight),
    ];
    let mut slide_roles = vec![0u8; board.dir_count()];
    for &d in &lines.rook {
        slide_roles[d.0 as usize] |= Role::Rook.bit() | Role::Queen.bit();
    }
    for &d in &lines.bishop {
        slide_roles[d.0 as usize] |= Role::Bishop.bit() | Role::Queen.bit();
    }
    // A pawn promotes where it can go no further; it may step twice from the row next to
    // its own edge.
    // Rows are read on the shared board: an army whose sides wrap still has a back and a
    // far edge.
    let (promotion, home_row, double_step, triple_step) = match pawns {
        PawnRule::Orthodox if shared.frame_coord(seat, Cell(0)).is_some() => {
            // A board given cell by cell (Trimens, the tri-boards): the rows of the army's own
            // frame. A pawn promotes on a cell with no cell ahead of it.
            let row = |c: Cell| shared.frame_rank(seat, c).unwrap_or(0);
            let set = |r: i16| shared.cells().filter(|&c| row(c) == r).collect::<CellSet>();
            (
                far_edge(shared, seat, forward),
                set(0),
                set(1),
                CellSet::EMPTY,
            )
        }
        PawnRule::Orthodox => {
            let home_row: CellSet = shared
                .cells()
                .filter(|&c| shared.step(c, back).is_none())
                .collect();
            let promotion = shared
                .cells()
                .filter(|&c| shared.step(c, forward).is_none())
                .collect();
            let double_step = shared
                .cells()
                .filter(|&c| shared.step(c, back).is_some_and(|b| home_row.contains(b)))
                .filter(|c| !home_row.contains(*c))
                .collect();
            (promotion, home_row, double_step, CellSet::EMPTY)
        }
        PawnRule::Superchess => (
            CellSet::EMPTY,
            CellSet::EMPTY,
            CellSet::EMPTY,
            CellSet::EMPTY,
        ),
        PawnRule::Doubles => {
            // Rows counted from the army's own edge: the far row promotes (a pawn stopped by a
            // cut corner short of it does not); from the second row a pawn may go three; until
            // it crosses the centre, two.
            let depth = shared.frame_depth(seat).unwrap_or(8);
            let row = |c: Cell| shared.frame_rank(seat, c).unwrap_or(0);
            let set = |f: &dyn Fn(i16) -> bool| shared.cells().filter(|&c| f(row(c))).collect();
            let given_by_cell = shared.frame_coord(seat, Cell(0)).is_some();
            (
                if given_by_cell {
                    far_edge(shared, seat, forward)
                } else {
                    set(&|r| r == depth - 1)
                },
                set(&|r| r == 0),
                set(&|r| r >= 1 && r < depth / 2),
                set(&|r| r == 1),
            )
        }
    };
    let home_line = home_line(shared, seat, home_row);
    let mut line_index = vec![u8::MAX; shared.len()];
    for (i, c) in home_line.iter().enumerate() {
        line_index[c.index()] = i as u8;
    }
    let mut pawn = PawnWay::new(board, forward, pawn_captures);
    pawn.promotion = promotion;
    pawn.double_step = double_step;
    pawn.triple_step = triple_step;
    let side = (pawns == PawnRule::Superchess).then(|| {
        let [forward, side] = superchess_ways(board, seat);
        pawn = forward;
        side
    });
    Army {
        board: moves_on,
        pawn,
        side,
        rook,
        bishop,
        king,
        rook_from: rook.map(|d| board.opposite(d)),
        bishop_from: bishop.map(|d| board.opposite(d)),
        king_only_from,
        knight: frame.knight(),
        home_line,
        line_index,
        home_row,
        slide_roles,
    }
}

/// Superchess's two pawn courses for an army: forward and to the right of its frame, its
/// quadrant the 5x5 corner behind and left of it.
fn superchess_ways(board: &Board, seat: usize) -> [PawnWay; 2] {
    let frame = board.frame(seat);
    let q = frame.quarter_turns();
    let (files, ranks) = board.grid_size().unwrap_or((14, 14));
    let (w, h) = (files as i16 - 1, ranks as i16 - 1);
    // How far a cell is along a heading turned `q` quarter turns clockwise from up, counted
    // from the edge behind.
    let along = |q: u8, c: Cell| {
        let (f, r) = board.coord(c);
        match q % 4 {
            0 => r,
            1 => f,
            2 => h - r,
            _ => w - f,
        }
    };
    let ahead = |c: Cell| along(q, c);
    let right = |c: Cell| along(q + 1, c);
    let home = |c: Cell| ahead(c) < 5 && right(c) < 5;
    let course = |forward: Heading, captures: [Heading; 2], depth: &dyn Fn(Cell) -> i16| {
        let dir = frame.dir(forward);
        let mut way = PawnWay::new(board, dir, captures.map(|h| frame.dir(h)));
        for c in board.cells() {
            if board.step(c, dir).is_none() {
                way.promotion.insert(c);
            }
            if home(c) && depth(c) == 4 {
                way.double_step.insert(c);
            }
        }
        way
    };
    let mut forward = course(
        Heading::Forward,
        [Heading::ForwardLeft, Heading::ForwardRight],
        &ahead,
    );
    let mut side = course(
        Heading::Right,
        [Heading::ForwardRight, Heading::BackRight],
        &right,
    );
    // The frontier beyond the enemy each course faces.
    for c in board.cells() {
        if ahead(c) >= 9 && right(c) >= 5 {
            forward.capture_promotion.insert(c);
        }
        if right(c) >= 9 && ahead(c) >= 5 {
            side.capture_promotion.insert(c);
        }
    }
    [forward, side]
}

/// Where an army's pawns promote on a board given cell by cell: the cells with none ahead, in
/// the far half of its frame (a pawn stopped by a cut-out edge near its own side does not).
fn far_edge(board: &Board, seat: usize, forward: Dir) -> CellSet {
    let depth = board.frame_depth(seat).unwrap_or(0);
    board
        .cells()
        .filter(|&c| board.step(c, forward).is_none())
        .filter(|&c| 2 * board.frame_rank(seat, c).unwrap_or(0) >= depth)
        .collect()
}

/// The cells of an army's home row in order along the line castling is read on: toward higher
/// files for an army at the top or bottom edge, toward higher ranks for one at a side.
fn home_line(board: &Board, seat: usize, home_row: CellSet) -> Vec<Cell> {
    let mut line: Vec<Cell> = home_row.iter().collect();
    if board.frame_coord(seat, Cell(0)).is_some() {
        // Boards given cell by cell: along the row of the army's own frame, left to right.
        line.sort_by_key(|&c| board.frame_coord(seat, c).map(|rc| rc.1));
        return line;
    }
    let sideways = board.frame(seat).quarter_turns() % 2 == 1;
    line.sort_by_key(|&c| {
        let (f, r) = board.coord(c);
        if sideways {
            (r, f)
        } else {
            (f, r)
        }
    });
    line
}

//! The fixed rules a chess position is played under: the board, the seats and their teams, and
//! each army's movement read from its seat's frame. Built once and shared by every position.

use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::board::{Board, BoardSpec, CellSet, Dir, Heading, Leap};

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
}

impl RulesSpec {
    /// Ordinary two-player chess on 8x8.
    pub fn chess() -> RulesSpec {
        RulesSpec {
            board: BoardSpec::chess(),
            teams: vec![0, 1],
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

/// How one seat's pieces move, in board directions, precomputed from its frame.
#[derive(Debug)]
pub(crate) struct Army {
    pub forward: Dir,
    pub pawn_captures: [Dir; 2],
    /// Directions from a target cell back toward a pawn of this army that attacks it.
    pub pawn_attack_from: [Dir; 2],
    pub rook: [Dir; 4],
    pub bishop: [Dir; 4],
    pub king: [Dir; 8],
    /// Directions to walk from a target to find this army's rook (or queen) attacking it.
    pub rook_from: [Dir; 4],
    pub bishop_from: [Dir; 4],
    pub knight: Leap,
    /// Cells where this army's pawns promote.
    pub promotion: CellSet,
    /// Cells from which this army's pawns may make a double step.
    pub double_step: CellSet,
    /// Cells on this army's own edge (its back row).
    pub home_row: CellSet,
    /// For each board direction, the roles of this army that slide along it.
    slide_roles: Vec<u8>,
}

impl Army {
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
    pub(crate) armies: Vec<Army>,
    pub(crate) promotion_roles: Vec<Role>,
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
        let enemies = (0..seats)
            .map(|s| (0..seats).filter(|&e| teams[e] != teams[s]).collect())
            .collect();
        let armies = (0..seats).map(|s| army(&board, s)).collect();
        Rules {
            spec,
            board,
            seats: seats as u8,
            teams,
            enemies,
            armies,
            promotion_roles: vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
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
        self.armies[seat].promotion
    }
    /// A seat's own back row.
    pub fn home_row(&self, seat: usize) -> CellSet {
        self.armies[seat].home_row
    }
}

fn army(board: &Board, seat: usize) -> Army {
    let frame = board.frame(seat);
    let dirs = |hs: [Heading; 4]| hs.map(|h| frame.dir(h));
    let rook = dirs(Heading::ORTHOGONAL);
    let bishop = dirs(Heading::DIAGONAL);
    let king = Heading::ALL.map(|h| frame.dir(h));
    let forward = frame.dir(Heading::Forward);
    let back = frame.dir(Heading::Back);
    let pawn_captures = [
        frame.dir(Heading::ForwardLeft),
        frame.dir(Heading::ForwardRight),
    ];
    let mut slide_roles = vec![0u8; board.dir_count()];
    for d in rook {
        slide_roles[d.0 as usize] |= Role::Rook.bit() | Role::Queen.bit();
    }
    for d in bishop {
        slide_roles[d.0 as usize] |= Role::Bishop.bit() | Role::Queen.bit();
    }
    // A pawn promotes where it can go no further; it may step twice from the row next to
    // its own edge.
    let promotion = board
        .cells()
        .filter(|&c| board.step(c, forward).is_none())
        .collect();
    let home_row: CellSet = board
        .cells()
        .filter(|&c| board.step(c, back).is_none())
        .collect();
    let double_step = board
        .cells()
        .filter(|&c| board.step(c, back).is_some_and(|b| home_row.contains(b)))
        .filter(|c| !home_row.contains(*c))
        .collect();
    Army {
        forward,
        pawn_captures,
        pawn_attack_from: pawn_captures.map(|d| board.opposite(d)),
        rook,
        bishop,
        king,
        rook_from: rook.map(|d| board.opposite(d)),
        bishop_from: bishop.map(|d| board.opposite(d)),
        knight: frame.knight(),
        promotion,
        double_step,
        home_row,
        slide_roles,
    }
}

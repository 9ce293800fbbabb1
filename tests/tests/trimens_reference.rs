//! Trimens Chess's move generator against a plain reference written from the book's rules
//! alone: on random positions of the 258-triangle board both must list the same legal moves.
//! The reference knows only each triangle's (row, position) in each player's frame, reads every
//! move in the mover's frame as the book says (rows and columns, diagonals, knight's two and
//! one, pawns forward), and judges check by trying every enemy piece in its own frame; it uses
//! none of the engine's step tables, attack rays or pins.

use std::collections::HashMap;

use engine::board::{BoardSpec, Cell};
use engine::chess::{Piece, Position, Role, RulesSpec, Seat, Setup};
use proptest::prelude::*;
use rookery_tests::reference::{engine_moves, random_armies};

type Square = (i16, i16);

struct Frames {
    /// Per seat: cell -> (rank, file), and back.
    coords: Vec<Vec<Square>>,
    cells: Vec<HashMap<Square, Cell>>,
}

impl Frames {
    fn new(seats: usize) -> Frames {
        let board = BoardSpec::Trimens { seats: seats as u8 }.build();
        let coords: Vec<Vec<Square>> = (0..seats)
            .map(|s| {
                board
                    .cells()
                    .map(|c| board.frame_coord(s, c).unwrap())
                    .collect()
            })
            .collect();
        let cells = coords
            .iter()
            .map(|frame| {
                frame
                    .iter()
                    .enumerate()
                    .map(|(i, &rc)| (rc, Cell(i as u16)))
                    .collect()
            })
            .collect();
        Frames { coords, cells }
    }

    fn step(&self, seat: usize, from: Cell, (dr, df): (i16, i16), k: i16) -> Option<Cell> {
        let (r, f) = self.coords[seat][from.index()];
        self.cells[seat].get(&(r + dr * k, f + df * k)).copied()
    }
}

const ROOK: [(i16, i16); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i16, i16); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i16, i16); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

type Board = Vec<Option<Piece>>;

/// Whether a piece of `by` attacks `target`, each read in `by`'s own frame.
fn attacks(frames: &Frames, board: &Board, by: usize, target: Cell) -> bool {
    for (i, piece) in board.iter().enumerate() {
        let Some(p) = piece.filter(|p| p.seat.index() == by) else {
            continue;
        };
        let from = Cell(i as u16);
        let slide = |dirs: &[(i16, i16)], far: bool| {
            dirs.iter().any(|&d| {
                for k in 1.. {
                    let Some(c) = frames.step(by, from, d, k) else {
                        return false;
                    };
                    if c == target {
                        return true;
                    }
                    if board[c.index()].is_some() || !far {
                        return false;
                    }
                }
                false
            })
        };
        let hit = match p.role {
            Role::Rook => slide(&ROOK, true),
            Role::Bishop => slide(&BISHOP, true),
            Role::Queen => slide(&ROOK, true) || slide(&BISHOP, true),
            Role::King => slide(&ROOK, false) || slide(&BISHOP, false),
            Role::Knight => KNIGHT
                .iter()
                .any(|&d| frames.step(by, from, d, 1) == Some(target)),
            Role::Pawn => [(1, 1), (1, -1)]
                .iter()
                .any(|&d| frames.step(by, from, d, 1) == Some(target)),
        };
        if hit {
            return true;
        }
    }
    false
}

/// The legal moves of `us`, as (from, to, promotion).
fn reference_moves(
    frames: &Frames,
    board: &Board,
    us: usize,
    seats: usize,
) -> Vec<(Cell, Cell, Option<Role>)> {
    let mut pseudo = Vec::new();
    let own = |c: Cell| board[c.index()].is_some_and(|p| p.seat.index() == us);
    let enemy = |c: Cell| board[c.index()].is_some_and(|p| p.seat.index() != us);
    for (i, piece) in board.iter().enumerate() {
        let Some(p) = piece.filter(|p| p.seat.index() == us) else {
            continue;
        };
        let from = Cell(i as u16);
        let slide = |dirs: &[(i16, i16)], far: bool, out: &mut Vec<(Cell, Cell, Option<Role>)>| {
            for &d in dirs {
                for k in 1.. {
                    let Some(c) = frames.step(us, from, d, k) else {
                        break;
                    };
                    if own(c) {
                        break;
                    }
                    out.push((from, c, None));
                    if enemy(c) || !far {
                        break;
                    }
                }
            }
        };
        match p.role {
            Role::Rook => slide(&ROOK, true, &mut pseudo),
            Role::Bishop => slide(&BISHOP, true, &mut pseudo),
            Role::Queen => {
                slide(&ROOK, true, &mut pseudo);
                slide(&BISHOP, true, &mut pseudo);
            }
            Role::King => {
                slide(&ROOK, false, &mut pseudo);
                slide(&BISHOP, false, &mut pseudo);
            }
            Role::Knight => {
                for &d in &KNIGHT {
                    if let Some(c) = frames.step(us, from, d, 1).filter(|c| !own(*c)) {
                        pseudo.push((from, c, None));
                    }
                }
            }
            Role::Pawn => {
                let mut targets = Vec::new();
                if let Some(one) = frames.step(us, from, (1, 0), 1) {
                    if board[one.index()].is_none() {
                        targets.push(one);
                        let row = frames.coords[us][from.index()].0;
                        if row == 1 {
                            if let Some(two) = frames.step(us, from, (2, 0), 1) {
                                if board[two.index()].is_none() {
                                    targets.push(two);
                                }
                            }
                        }
                    }
                }
                for d in [(1, 1), (1, -1)] {
                    if let Some(c) = frames.step(us, from, d, 1).filter(|c| enemy(*c)) {
                        targets.push(c);
                    }
                }
                for to in targets {
                    // The last triangle: nothing ahead of it.
                    if frames.step(us, to, (1, 0), 1).is_none() {
                        for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            pseudo.push((from, to, Some(r)));
                        }
                    } else {
                        pseudo.push((from, to, None));
                    }
                }
            }
        }
    }
    let mut legal: Vec<_> = pseudo
        .into_iter()
        .filter(|&(from, to, promo)| {
            let mut after = board.clone();
            let mut p = after[from.index()].take().unwrap();
            if let Some(r) = promo {
                p.role = r;
            }
            after[to.index()] = Some(p);
            let king = after
                .iter()
                .position(|x| x.is_some_and(|x| x.seat.index() == us && x.role == Role::King))
                .map(|i| Cell(i as u16));
            king.is_none_or(|k| {
                (0..seats)
                    .filter(|&e| e != us)
                    .all(|e| !attacks(frames, &after, e, k))
            })
        })
        .collect();
    legal.sort();
    legal
}

/// A random position: each army's king and a random handful of pieces on random triangles.
fn random_position(seats: usize, seed: u64) -> Option<(Position, Board)> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let rules = RulesSpec::new(
        BoardSpec::Trimens { seats: seats as u8 },
        (0..seats as u8).collect(),
    )
    .build();
    let n = rules.board().len();
    let cells = random_armies(&mut rng, n, seats, 2..9);
    let setup = Setup {
        cells: cells.clone(),
        turn: Seat(rng.gen_range(0..seats as u8)),
        castling_rooks: Vec::new(),
        ep_target: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    // Positions the chess rules refuse (a pawn on its last triangle, say) are skipped.
    let pos = Position::from_setup(setup, rules).ok()?;
    Some((pos, cells))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_generator_agrees_with_the_reference(three in any::<bool>(), seed in any::<u64>()) {
        let seats = if three { 3 } else { 2 };
        let frames = Frames::new(seats);
        if let Some((pos, board)) = random_position(seats, seed) {
            let us = pos.turn().index();
            let engine = engine_moves(&pos);
            prop_assert_eq!(engine, reference_moves(&frames, &board, us, seats), "seed {}", seed);
        }
    }
}

/// The random positions are not all refused: at least 60 of 200 are compared (the chess rules
/// refuse the rest, a pawn on its last triangle or a player not to move left in check).
#[test]
fn most_random_positions_are_compared() {
    let frames = [Frames::new(2), Frames::new(3)];
    let mut compared = 0;
    for seed in 0..200u64 {
        let seats = 2 + (seed % 2) as usize;
        if let Some((pos, board)) = random_position(seats, seed) {
            let engine = engine_moves(&pos);
            let us = pos.turn().index();
            assert_eq!(
                engine,
                reference_moves(&frames[seats - 2], &board, us, seats),
                "seed {seed}"
            );
            compared += 1;
        }
    }
    assert!(
        compared >= 60,
        "only {compared} of 200 positions were compared"
    );
}

/// Perft from the start counted by the reference alone (its own moves, made on its own board,
/// the turn going round the table) equals the counts in `tests/data/trimens.perft`.
#[test]
fn the_reference_counts_the_starts_like_the_engine() {
    fn perft(frames: &Frames, board: &Board, us: usize, seats: usize, depth: u32) -> u64 {
        let moves = reference_moves(frames, board, us, seats);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|(from, to, promo)| {
                let mut after = board.clone();
                let mut p = after[from.index()].take().unwrap();
                if let Some(r) = promo {
                    p.role = r;
                }
                after[to.index()] = Some(p);
                perft(frames, &after, (us + 1) % seats, seats, depth - 1)
            })
            .sum()
    }
    for (seats, expected) in [(3, [22, 482, 10_560]), (2, [22, 482, 14_054])] {
        let game = engine::registry::variant("trimens").unwrap();
        let state = game.setup(&engine::game::Options::new(), seats, 0).unwrap();
        let view = game.view(&state, engine::Viewer::Spectator).unwrap();
        let mut board: Board = vec![None; view.board.len()];
        for f in &view.figures {
            if let engine::view::Figure::Chess(role) = f.figure {
                board[f.cell.index()] = Some(Piece { seat: f.army, role });
            }
        }
        let frames = Frames::new(seats);
        for (depth, n) in (1..=3).zip(expected) {
            assert_eq!(
                perft(&frames, &board, 0, seats, depth),
                n,
                "{seats} players, depth {depth}"
            );
        }
    }
}

//! What the reference generators' tests share: random positions (each army's king and a
//! handful of other pieces on random free cells) and the engine's moves in a plain form.

use engine::board::Cell;
use engine::chess::{MoveKind, Piece, Position, Role, Seat};
use rand::Rng;

/// `seats` armies on a board of `cells` cells: a king each, and a number of queens, rooks,
/// bishops, knights and pawns drawn from `others`.
pub fn random_armies<R: Rng>(
    rng: &mut R,
    cells: usize,
    seats: usize,
    others: std::ops::Range<usize>,
) -> Vec<Option<Piece>> {
    let roles = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    let mut board: Vec<Option<Piece>> = vec![None; cells];
    let free = |board: &[Option<Piece>], rng: &mut R| loop {
        let c = rng.gen_range(0..cells);
        if board[c].is_none() {
            return c;
        }
    };
    for s in 0..seats {
        let seat = Seat(s as u8);
        let king = free(&board, rng);
        board[king] = Some(Piece {
            seat,
            role: Role::King,
        });
        for _ in 0..rng.gen_range(others.clone()) {
            let c = free(&board, rng);
            let role = roles[rng.gen_range(0..roles.len())];
            board[c] = Some(Piece { seat, role });
        }
    }
    board
}

/// The engine's legal moves as (from, to, promotion), sorted, to compare with a reference.
pub fn engine_moves(pos: &Position) -> Vec<(Cell, Cell, Option<Role>)> {
    let mut moves: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let promo = match m.kind {
                MoveKind::Promotion(r) => Some(r),
                _ => None,
            };
            (m.from, m.to, promo)
        })
        .collect();
    moves.sort();
    moves
}

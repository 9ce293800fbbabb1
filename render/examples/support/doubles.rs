//! The four armies of Adams' Doubles Chess on the cut-throat 12x12 board, as the gallery and
//! the benchmark draw them (until the engine plays the game itself).

use engine::board::CUT_THROAT_CORNERS;
use engine::view::{Figure, Placed};
use engine::{Board, Role, Seat, SquareBoard};
use std::sync::Arc;

/// The back ranks in board order (rank 1 from a to l, file a from 1 to 12): the Whites' kings
/// and the Blacks' queens stand nearer the a1 corner (RULES-NOTES).
fn back_ranks() -> [(Role, Role); 8] {
    [
        (Role::Rook, Role::Rook),
        (Role::Knight, Role::Knight),
        (Role::Bishop, Role::Bishop),
        (Role::King, Role::Queen),
        (Role::Queen, Role::King),
        (Role::Bishop, Role::Bishop),
        (Role::Knight, Role::Knight),
        (Role::Rook, Role::Rook),
    ]
}

/// The cut-throat board and the four armies at their start, one on each edge.
pub fn board_and_armies() -> (Arc<Board>, Vec<Placed>) {
    let board = Arc::new(SquareBoard::doubles(CUT_THROAT_CORNERS).build());
    let cell = |label: &str| board.cell(label).unwrap();
    let mut figures = Vec::new();
    for (i, (white, black)) in back_ranks().into_iter().enumerate() {
        let f = (b'c' + i as u8) as char;
        let r = i + 3;
        for (back, front, seat, role) in [
            (format!("{f}1"), format!("{f}2"), 0, white),
            (format!("a{r}"), format!("b{r}"), 1, white),
            (format!("{f}12"), format!("{f}11"), 2, black),
            (format!("l{r}"), format!("k{r}"), 3, black),
        ] {
            figures.push(Placed::new(cell(&back), Seat(seat), Figure::Chess(role)));
            figures.push(Placed::new(
                cell(&front),
                Seat(seat),
                Figure::Chess(Role::Pawn),
            ));
        }
    }
    (board, figures)
}

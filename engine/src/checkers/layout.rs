//! Where the checkers start, on the classic 8x8 board and on Adams' 12x12 board for four.
//!
//! Adams' Figures 9-12 are lost; the text describes the positions in words, and these rules
//! follow it (RULES-NOTES, "Doubles checkers"):
//!
//! - Each seat puts twelve men on the three rows nearest it, on the middle eight files of its
//!   edge, on its colour of squares (the dark squares, except for the light seats of Queens).
//! - Where two seats meet at a corner, both may claim the square three in diagonally from the
//!   corner (the corner square of the inner 8x8 board). The seat that moves first keeps it
//!   ("the player with the first move gets the normal position"; in standard doubles that is
//!   the right-hand partner) and the other puts its displaced man on the second square in from
//!   the corner, diagonally behind.
//! - Queens: the book's provision against a long first-move jump. Where two enemies on
//!   different colours meet at a corner, the one whose colour the inner corner square has
//!   moves that man to the far end of its back row, at its other corner: five men in the back
//!   row, four in the middle, three in front. *Interpretation*: the book names the provision
//!   but its figures are lost; this reading gives its 5-4-3 and leaves no first-move sweep in
//!   any colour pattern on the flat board, nor on joined boards except for opposite partners
//!   on mixed colours, which the game refuses there.

use serde::{Deserialize, Serialize};

use super::{CheckersRules, Kind, SeatPlan};
use crate::board::{Board, Cell, SquareBoard, Wrap};
use crate::chess::Seat;

/// Where partners sit in a four-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seating {
    /// Standard doubles: partners at adjacent sides with a dark corner between them; the
    /// order is A, B (across from A), C (A's partner, on A's left), D.
    Adjacent,
    /// Partners across the board from each other; the turn goes clockwise.
    Opposite,
}

/// Partners or everyone for himself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    Partners(Seating),
    /// Four players each for himself, clockwise; the last one standing wins.
    CutThroat,
}

/// Double Queens: the colours of squares the four sets start on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colours {
    /// Both partners on one colour, both opponents on the other.
    Same,
    /// One of each pair of partners on each colour.
    Mixed,
}

/// The edge each seat (A, B, C, D, in order of play) sits at, as quarter turns from the
/// bottom: 0 bottom, 1 left, 2 top, 3 right. Clockwise round the board is bottom, left, top,
/// right.
fn edges(mode: Mode) -> [u8; 4] {
    match mode {
        // A bottom, B across at the top, C on A's left, D across at the right: the dark
        // corner a1 lies between A and C, and l12 between B and D.
        Mode::Partners(Seating::Adjacent) => [0, 2, 1, 3],
        Mode::Partners(Seating::Opposite) | Mode::CutThroat => [0, 1, 2, 3],
    }
}

/// Which seats start on the light squares in Queens (by seat, in order of play).
fn light_seats(mode: Mode, colours: Colours) -> [bool; 4] {
    match (mode, colours) {
        // Partners on one colour: A and C dark, B and D light (the book's dark and light
        // sets).
        (Mode::Partners(_), Colours::Same) => [false, true, false, true],
        // Adjacent partners on both colours, and adjacent opponents on one: A (bottom) and D
        // (right) dark, B (top) and C (left) light.
        (Mode::Partners(Seating::Adjacent), Colours::Mixed) => [false, true, true, false],
        // Opposite partners on both colours: A (bottom) and B (left) dark, C and D light.
        (Mode::Partners(Seating::Opposite), Colours::Mixed) => [false, false, true, true],
        // Cut-throat: each player's neighbours on the other colour, as in singles Queens.
        (Mode::CutThroat, _) => [false, true, false, true],
    }
}

impl CheckersRules {
    /// A game for four on Adams' 12x12 board: partners (adjacent or opposite) or cut-throat,
    /// flat, cylindrical (each pair of opposite seats has its own left and right edges
    /// touching) or universal, with or without numbers. `colours` matters in Queens only.
    pub fn doubles(
        kind: Kind,
        mode: Mode,
        colours: Colours,
        wrap: Wrap,
        numbers: bool,
    ) -> CheckersRules {
        let edges = edges(mode);
        let light = light_seats(mode, colours);
        let seats = (0..4)
            .map(|i| SeatPlan {
                team: match mode {
                    Mode::Partners(_) => (i % 2) as u8,
                    Mode::CutThroat => i as u8,
                },
                wrap: match wrap {
                    // Players sitting across from each other regard their own right and left
                    // edges as touching: files for the top and bottom, ranks for the sides.
                    Wrap::Files | Wrap::Ranks if edges[i].is_multiple_of(2) => Wrap::Files,
                    Wrap::Files | Wrap::Ranks => Wrap::Ranks,
                    other => other,
                },
                light: kind == Kind::Queens && light[i],
            })
            .collect();
        CheckersRules {
            kind,
            board: SquareBoard::new(12, 12)
                .wrap(if wrap == Wrap::Both {
                    Wrap::Both
                } else {
                    Wrap::None
                })
                .seats_facing(&edges)
                .spec(),
            numbers,
            first: Seat(0),
            seats,
            vanishing: mode == Mode::CutThroat,
            order: Vec::new(),
        }
    }
}

/// A square's colour: dark when file + rank is even (a1 is dark).
fn is_light(board: &Board, cell: Cell) -> bool {
    let (f, r) = board.coord(cell);
    (f + r) % 2 == 1
}

/// Where each seat's men start, by seat.
pub(super) fn start_cells(rules: &CheckersRules, board: &Board) -> Vec<Vec<Cell>> {
    let plans = rules.plans();
    let (files, ranks) = board.grid_size().expect("checkers boards are grids");
    let (files, ranks) = (files as i16, ranks as i16);
    // Each seat: its three nearest rows, on the middle eight files of its edge, its colour.
    let mut cells: Vec<Vec<Cell>> = plans
        .iter()
        .enumerate()
        .map(|(seat, plan)| {
            let across = if board.frame(seat).quarter_turns().is_multiple_of(2) {
                files
            } else {
                ranks
            };
            let middle = (across - 8) / 2..(across - 8) / 2 + 8;
            board
                .cells()
                .filter(|&c| board.frame_rank(seat, c).is_some_and(|r| r < 3))
                .filter(|&c| {
                    let (f, r) = board.coord(c);
                    let along = if board.frame(seat).quarter_turns().is_multiple_of(2) {
                        f
                    } else {
                        r
                    };
                    middle.contains(&along)
                })
                .filter(|&c| is_light(board, c) == plan.light)
                .collect()
        })
        .collect();
    if plans.len() == 2 {
        return cells;
    }
    // The corners, each with the two seats whose edges meet there and the inner corner
    // square (the third square in diagonally, c3 from a1).
    let edge_seat = |edge: u8| (0..plans.len()).find(|&s| board.frame(s).quarter_turns() == edge);
    let corners = [
        ((0, 0), 0u8, 1u8),
        ((files - 1, 0), 0, 3),
        ((0, ranks - 1), 1, 2),
        ((files - 1, ranks - 1), 2, 3),
    ];
    for ((cx, cy), edge_a, edge_b) in corners {
        let (Some(a), Some(b)) = (edge_seat(edge_a), edge_seat(edge_b)) else {
            continue;
        };
        let (sx, sy) = (if cx == 0 { 1 } else { -1 }, if cy == 0 { 1 } else { -1 });
        let inner = board
            .at((cx + 2 * sx) as i32, (cy + 2 * sy) as i32)
            .expect("12x12");
        let behind = board.at((cx + sx) as i32, (cy + sy) as i32).expect("12x12");
        let (first, second) = (a.min(b), a.max(b));
        let claims: Vec<bool> = cells.iter().map(|c| c.contains(&inner)).collect();
        if claims[first] && claims[second] {
            // Both claim it: the earlier in the order keeps it; the other's man steps
            // diagonally back toward the corner.
            replace(&mut cells[second], inner, behind);
        } else if plans[a].team != plans[b].team && plans[a].light != plans[b].light {
            // Enemies on different colours: the one holding the inner square moves that man
            // to the far end of its back row.
            for s in [a, b] {
                if claims[s] {
                    let far = far_end_of_back_row(board, s, plans[s].light, (cx, cy));
                    replace(&mut cells[s], inner, far);
                }
            }
        }
    }
    cells
}

fn replace(cells: &mut [Cell], from: Cell, to: Cell) {
    if let Some(c) = cells.iter_mut().find(|c| **c == from) {
        *c = to;
    }
}

/// The square of `seat`'s colour at the end of its back row away from the corner `(cx, cy)`:
/// one of the two corner files beyond its eight.
fn far_end_of_back_row(board: &Board, seat: usize, light: bool, corner: (i16, i16)) -> Cell {
    board
        .cells()
        .filter(|&c| board.frame_rank(seat, c) == Some(0))
        .filter(|&c| is_light(board, c) == light)
        .max_by_key(|&c| {
            let (f, r) = board.coord(c);
            (f - corner.0).abs() + (r - corner.1).abs()
        })
        .expect("a back row has squares of both colours")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::CheckersPosition;

    fn labels(pos: &CheckersPosition, seat: u8) -> Vec<String> {
        let mut v: Vec<String> = pos
            .board()
            .cells()
            .filter(|&c| pos.top(c).is_some_and(|t| t.seat == Seat(seat)))
            .map(|c| pos.board().label(c).to_string())
            .collect();
        v.sort();
        v
    }

    fn start(kind: Kind, mode: Mode, colours: Colours) -> CheckersPosition {
        start_on(kind, mode, colours, Wrap::None)
    }

    fn start_on(kind: Kind, mode: Mode, colours: Colours, wrap: Wrap) -> CheckersPosition {
        CheckersPosition::start(CheckersRules::doubles(kind, mode, colours, wrap, false), 0)
    }

    /// Standard doubles: the dark corner a1 between A (bottom) and C (left) stays empty, A
    /// keeps c3 and C's displaced man stands on b2, diagonally behind it; likewise B keeps j10
    /// and D's man goes to k11.
    #[test]
    fn standard_doubles_follows_the_books_words() {
        let p = start(
            Kind::Checkers,
            Mode::Partners(Seating::Adjacent),
            Colours::Same,
        );
        let cell = |l: &str| p.board().cell(l).unwrap();
        assert!(p.stack(cell("a1")).is_empty() && p.stack(cell("l12")).is_empty());
        assert_eq!(p.top(cell("c3")).unwrap().seat, Seat(0), "A keeps c3");
        assert_eq!(p.top(cell("b2")).unwrap().seat, Seat(2), "C's man behind");
        assert_eq!(p.top(cell("j10")).unwrap().seat, Seat(1), "B keeps j10");
        assert_eq!(p.top(cell("k11")).unwrap().seat, Seat(3), "D's man behind");
        for seat in 0..4 {
            assert_eq!(labels(&p, seat).len(), 12, "seat {seat}");
        }
        assert_eq!(
            labels(&p, 0),
            ["c1", "c3", "d2", "e1", "e3", "f2", "g1", "g3", "h2", "i1", "i3", "j2"]
        );
        // Every man on a dark square.
        for c in p.board().cells().filter(|&c| !p.stack(c).is_empty()) {
            assert!(!is_light(p.board(), c));
        }
    }

    /// Queens, partners on one colour: the light team moves its man in jeopardy to the far end
    /// of its back row (5-4-3); nobody has a jump at the start.
    #[test]
    fn double_queens_leaves_no_first_move_jump() {
        for mode in [
            Mode::Partners(Seating::Adjacent),
            Mode::Partners(Seating::Opposite),
            Mode::CutThroat,
        ] {
            for (colours, wrap) in [Colours::Same, Colours::Mixed]
                .into_iter()
                .flat_map(|c| [Wrap::None, Wrap::Files, Wrap::Both].map(|w| (c, w)))
            {
                // Opposite partners on mixed colours sweep across joined edges: the game
                // refuses that combination.
                if colours == Colours::Mixed
                    && mode == Mode::Partners(Seating::Opposite)
                    && wrap != Wrap::None
                {
                    continue;
                }
                let p = start_on(Kind::Queens, mode, colours, wrap);
                for seat in 0..4 {
                    assert_eq!(
                        labels(&p, seat).len(),
                        12,
                        "{mode:?} {colours:?} {wrap:?} {seat}"
                    );
                    let moves = p.moves_of(Seat(seat));
                    assert!(!moves.is_empty());
                    if seat == 0 {
                        assert!(
                            moves.iter().all(|m| !m.is_jump()),
                            "{mode:?} {colours:?} {wrap:?}"
                        );
                    }
                    assert!(
                        moves.iter().all(|m| m.jumped.len() <= 1),
                        "{mode:?} {colours:?} {wrap:?} seat {seat}: {:?}",
                        moves.iter().map(|m| p.move_text(m)).collect::<Vec<_>>()
                    );
                }
            }
        }
        let p = start(
            Kind::Queens,
            Mode::Partners(Seating::Adjacent),
            Colours::Same,
        );
        // B (top, light) moved c10 to k12; D (right, light) moved j3 to l11.
        assert!(labels(&p, 1).contains(&"k12".to_string()));
        assert!(!labels(&p, 1).contains(&"c10".to_string()));
        assert!(labels(&p, 3).contains(&"l11".to_string()));
        let back_row = labels(&p, 1).iter().filter(|l| l.ends_with("12")).count();
        assert_eq!(back_row, 5, "five in the back row");
    }
}

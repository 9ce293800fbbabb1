//! Rendering and encoding a board, as done after every move: an 8x8 chess middlegame and a
//! 12x12 board with Adams' four Doubles Chess armies.

use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::board::{SquareBoard, CUT_THROAT_CORNERS};
use engine::chess::{Role, Seat};
use engine::game::Options;
use engine::registry;
use engine::view::{Figure, Placed, View, Viewer};

fn chess_view() -> View {
    let chess = registry::variant("chess").unwrap();
    let mut options = Options::new();
    options.set(
        "fen",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 2 8",
    );
    let mut state = chess.setup(&options, 2, 0).unwrap();
    chess.play(&mut state, Seat::WHITE, "Bd3").unwrap();
    chess.view(&state, Viewer::Seat(Seat::BLACK)).unwrap()
}

/// The back ranks of Adams' Doubles Chess in board order (rank 1 from a to l, file a from 1
/// to 12): the Whites' kings and the Blacks' queens stand nearer the a1 corner (RULES-NOTES).
fn doubles_back_ranks() -> [(Role, Role); 8] {
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

fn four_army_view() -> View {
    let board = Arc::new(SquareBoard::doubles(CUT_THROAT_CORNERS).build());
    let cell = |label: &str| board.cell(label).unwrap();
    let mut figures = Vec::new();
    for (i, (white, black)) in doubles_back_ranks().into_iter().enumerate() {
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
    View {
        variant: "bench",
        last_move: vec![cell("e2"), cell("e4")],
        board,
        viewer: Viewer::Seat(Seat(2)),
        bottom: Seat(2),
        figures,
        checks: vec![],
        to_act: vec![Seat(2)],
        players: vec!["ann".into(), "ben".into(), "cat".into(), "dan".into()],
        move_number: 12,
        status: "Seat 3 to move".into(),
        panel: None,
        square_names: vec![],
    }
}

fn bench(c: &mut Criterion) {
    for (name, view) in [("8x8", chess_view()), ("12x12", four_army_view())] {
        // The first render prepares the background and sprites; measure the steady state.
        let png = render::render_png(&view).unwrap();
        eprintln!("{name}: {} bytes", png.len());
        c.bench_function(&format!("render_png/{name}"), |b| {
            b.iter(|| render::render_png(black_box(&view)).unwrap())
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

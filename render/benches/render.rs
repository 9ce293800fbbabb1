//! Rendering and encoding a board, as done after every move: an 8x8 chess middlegame and a
//! 12x12 board with Adams' four Doubles Chess armies.

use criterion::{black_box, criterion_group, criterion_main, Criterion};

#[path = "../examples/support/doubles.rs"]
mod doubles;
use engine::chess::Seat;
use engine::game::Options;
use engine::registry;
use engine::view::{View, Viewer};

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

fn bench(c: &mut Criterion) {
    for (name, view) in [("8x8", chess_view()), ("12x12", doubles::doubles_view())] {
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

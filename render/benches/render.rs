//! Rendering and encoding a board, as done after every move: an 8x8 chess middlegame, a
//! 12x12 board with Adams' four Doubles Chess armies, Caverly's Trimens board of 258
//! numbered triangles seen by the second player (turned 120 degrees), and six-army Tri-Chess;
//! each the same board again and again, and the positions of a game of the same board, each
//! drawn for the first time. Beside each, the bar the board images are held to: the same
//! picture drawn and written as an RGB PNG the way boards were before they had to fit 60 KB
//! (`rgb_png`).

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

/// The Trimens board with every triangle numbered and a piece of each army.
fn triangles_view() -> View {
    use engine::chess::Role;
    use engine::view::{Figure, Placed};
    let board = engine::board::BoardSpec::Trimens { seats: 3 }.build();
    let figures = ["1", "129", "243"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            Placed::new(
                board.cell(n).unwrap(),
                Seat(i as u8),
                Figure::Chess(Role::Queen),
            )
        })
        .collect();
    let mut view = doubles::doubles_view();
    view.board = board.clone();
    view.figures = figures;
    view.bottom = Seat(1);
    view.viewer = Viewer::Seat(Seat(1));
    view.last_move = Vec::new();
    view.checks = Vec::new();
    view.table = Vec::new();
    view.players = vec!["ann".into(), "ben".into(), "cy".into()];
    view.square_names = board
        .cells()
        .map(|c| (c, board.label(c).to_string()))
        .collect();
    view
}

/// Six-player Tri-Chess at its start, seen by the fourth player: 204 numbered triangles and 102
/// pieces of six colours, turned to that player's edge.
fn tri_chess_view() -> View {
    let game = registry::variant("tri-chess").unwrap();
    let state = game.setup(&engine::game::Options::new(), 6, 0).unwrap();
    game.view(&state, Viewer::Seat(Seat(3))).unwrap()
}

/// The positions of a game of `variant`, its actions chosen at random from a fixed seed, so
/// every run plays the same game.
fn game_views(variant: &str, seats: usize, plies: usize) -> Vec<View> {
    use rand::SeedableRng;
    let game = registry::variant(variant).unwrap();
    let mut state = game.setup(&Options::new(), seats, 0).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut views = vec![game.view(&state, Viewer::Spectator).unwrap()];
    for _ in 0..plies {
        if game.outcome(&state).unwrap().is_some() {
            break;
        }
        engine::playout::random_actions(game, &mut state, 1, &mut rng).unwrap();
        views.push(game.view(&state, Viewer::Spectator).unwrap());
    }
    views
}

/// The board of `view` as boards were written before the 60 KB budget: drawn in RGB and
/// written by `image`'s PNG encoder at its fast setting with each byte stored against the one
/// to its left. The bar for render time.
fn rgb_png(view: &View) -> Vec<u8> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::ImageEncoder;
    let img = render::render_image(view);
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Sub)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

fn bench(c: &mut Criterion) {
    // As a game meets them: each position drawn for the first time, right after the one
    // before it (whose figure boxes, the unmoved pieces', are met again).
    for (name, variant, seats) in [
        ("8x8", "chess", 2),
        ("12x12", "doubles", 4),
        ("triangles", "trimens", 3),
        ("tri-chess-6", "tri-chess", 6),
    ] {
        let views = game_views(variant, seats, 60);
        assert!(views.len() > 2, "{variant}: the game ended at once");
        let mut at = 0;
        c.bench_function(&format!("render_png/{name} after each move"), |b| {
            b.iter_batched(
                || {
                    at = (at + 1) % (views.len() - 1);
                    render::forget_figure_boxes(&views[at]);
                    render::render_png(&views[at]).unwrap();
                    &views[at + 1]
                },
                |view| render::render_png(black_box(view)).unwrap(),
                criterion::BatchSize::PerIteration,
            )
        });
        let mut at = 0;
        c.bench_function(&format!("rgb_png/{name} after each move"), |b| {
            b.iter_batched(
                || {
                    at = (at + 1) % (views.len() - 1);
                    rgb_png(&views[at]);
                    &views[at + 1]
                },
                |view| rgb_png(black_box(view)),
                criterion::BatchSize::PerIteration,
            )
        });
    }
    for (name, view) in [
        ("8x8", chess_view()),
        ("12x12", doubles::doubles_view()),
        ("triangles", triangles_view()),
        ("tri-chess-6", tri_chess_view()),
    ] {
        // The first render prepares the background, sprites and scene; then the same board
        // again, every figure box met before (the best case; see "after each move" above).
        let png = render::render_png(&view).unwrap();
        eprintln!("{name}: {} bytes", png.len());
        c.bench_function(&format!("render_png/{name}"), |b| {
            b.iter(|| render::render_png(black_box(&view)).unwrap())
        });
        c.bench_function(&format!("rgb_png/{name}"), |b| {
            b.iter(|| rgb_png(black_box(&view)))
        });
        // Composing the picture alone; and encoding it with a palette of its own shades, the
        // way boards with cards or panels (and `render::encode`) are.
        c.bench_function(&format!("render_image/{name}"), |b| {
            b.iter(|| render::render_image(black_box(&view)))
        });
        let image = render::render_image(&view);
        c.bench_function(&format!("encode/{name}"), |b| {
            b.iter(|| render::encode(black_box(&image)).unwrap())
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

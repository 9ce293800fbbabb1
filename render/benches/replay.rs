//! Animated replays (`/replay`, `rookery replay --gif`), as the README's targets measure them:
//! a 100-move chess game (200 plies: a hundred moves of each side) in at most 1 s and 2 MB,
//! and a 60-move game of Doubles Chess (sixty actions of its four players) in at most 2 s.
//! The time covers replaying the record through the engine, drawing every position and
//! encoding the GIF, as the bot does for `/replay`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::game::Options;
use engine::playout::{random_game, Settings};
use engine::record::{replay, Record};
use engine::view::Viewer;

/// A random game of `variant` with (up to) `actions` actions and no resignations.
fn record(variant: &str, actions: usize, seed: u64) -> Record {
    let game = engine::registry::variant(variant).unwrap();
    let seats = game.info().default_seats();
    // Try seeds until a game lasts the whole length (random games rarely end early).
    for s in seed..seed + 50 {
        let settings = Settings {
            seed: s,
            seats: Some(seats),
            max_actions: actions,
            concede_one_in: 0,
            ..Settings::default()
        };
        let playout = random_game(game, &Options::new(), &settings).unwrap();
        if playout.actions.len() == actions {
            return Record::from_playout(variant, &Options::new(), seats, s, &playout);
        }
    }
    panic!("no {variant} game of {actions} actions");
}

fn gif_of(record: &Record) -> Vec<u8> {
    let replayed = replay(record).unwrap();
    let views = replayed
        .frames(record, Viewer::Seat(engine::Seat(0)), true)
        .unwrap();
    render::gif::render_gif(&views).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay_gif");
    group.sample_size(10);
    for (name, variant, actions) in [
        ("chess-100-moves", "chess", 200),
        ("doubles-60-moves", "doubles", 60),
    ] {
        let record = record(variant, actions, 1);
        let gif = gif_of(&record);
        eprintln!("{name}: {} frames, {} bytes", actions + 1, gif.len());
        group.bench_function(name, |b| b.iter(|| gif_of(black_box(&record))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

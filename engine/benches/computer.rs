//! Time per move of the computer player at each level, one benchmark per family of games: the
//! chess searcher (chess and Chess960), and the information-set search on a two-player
//! checkers game, a four-player chess game, a three-player game on triangles, a game with
//! hidden information and a card game. Each level must stay within its time: easy 0.1 s,
//! medium 0.5 s, hard 2 s (`cargo bench -p engine --bench computer`).

use criterion::{criterion_group, criterion_main, Criterion};
use engine::ai::{self, Level};
use engine::game::Options;
use engine::registry;

fn bench(c: &mut Criterion) {
    let families: [(&str, &[&str], usize); 7] = [
        ("chess", &[], 2),
        ("chess960", &["start=300"], 2),
        ("checkers", &[], 2),
        ("doubles", &["mode=cutthroat"], 4),
        ("trimens", &[], 3),
        ("zombie", &[], 2),
        ("tar-pit", &[], 2),
    ];
    let mut group = c.benchmark_group("computer");
    group.sample_size(10);
    for (id, options, seats) in families {
        let game = registry::variant(id).unwrap();
        let options =
            Options::parse(options.iter().map(|o| o.to_string()).collect::<Vec<_>>()).unwrap();
        let state = game.setup(&options, seats, 1).unwrap();
        let seat = game.prompts(&state).unwrap()[0].seat;
        for level in Level::ALL {
            group.bench_function(format!("{id}/{level}"), |b| {
                b.iter(|| ai::choose(game, &state, seat, level, 7).unwrap().text)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

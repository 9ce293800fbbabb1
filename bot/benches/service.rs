//! One move through the service on SQLite: lock, load, apply, render, persist (with the outbox
//! row) and commit. Criterion reports the median; the 99th percentile is measured in a second
//! pass over 1,000 moves and printed, since it is the figure the bot must keep under 50 ms.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bot::model::{GameId, Place, User};
use bot::service::{ManualClock, Service};
use bot::store::Store;
use criterion::{criterion_group, criterion_main, Criterion};

/// Knight moves that reach the start position only twice (a third time would be a draw);
/// a new game begins after them.
const CYCLE: [(&str, &str); 6] = [
    ("Nf3", "Nf6"),
    ("Nc3", "Nc6"),
    ("Ng1", "Ng8"),
    ("Nb1", "Nb8"),
    ("Nh3", "Nh6"),
    ("Na3", "Na6"),
];

struct Bench {
    service: Service,
    white: User,
    black: User,
    place: Place,
    game: GameId,
    ply: usize,
    _dir: std::path::PathBuf,
}

impl Bench {
    async fn new() -> Bench {
        let dir = std::env::temp_dir().join(format!("rookery-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&dir.join("bench.db")).await.unwrap();
        let service = Service::with_seed(store, Arc::new(ManualClock::new(1_800_000_000)), 1);
        let mut b = Bench {
            service,
            white: User::new("white", "white"),
            black: User::new("black", "black"),
            place: Place::Channel("lobby".into()),
            game: GameId(0),
            ply: 0,
            _dir: dir,
        };
        b.new_game().await;
        b
    }

    async fn new_game(&mut self) {
        self.service
            .create(&self.white, &self.place, "chess", "order=joined", None)
            .await
            .unwrap();
        let id = self.service.store().games_of("white", true).await.unwrap()[0]
            .game
            .id;
        self.service
            .join(&self.black, &self.place, Some(id))
            .await
            .unwrap();
        self.game = id;
        self.ply = 0;
    }

    /// Plays the next move, starting a new game before the cycle could repeat a position.
    async fn one_move(&mut self) -> Duration {
        if self.ply == 2 * CYCLE.len() {
            self.service
                .resign(&self.white, &self.place, Some(self.game))
                .await
                .unwrap();
            self.new_game().await;
        }
        let (w, b) = CYCLE[self.ply / 2];
        let (user, text) = if self.ply.is_multiple_of(2) {
            (&self.white, w)
        } else {
            (&self.black, b)
        };
        let started = Instant::now();
        self.service
            .act(user, &self.place, Some(self.game), text)
            .await
            .unwrap();
        let took = started.elapsed();
        self.ply += 1;
        took
    }
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut b = runtime.block_on(Bench::new());
    let mut samples: Vec<Duration> = (0..1000).map(|_| runtime.block_on(b.one_move())).collect();
    samples.sort();
    let pct = |p: f64| samples[((samples.len() as f64 - 1.0) * p) as usize];
    eprintln!(
        "service move round trip over {} moves: median {:?}, p99 {:?}, max {:?}",
        samples.len(),
        pct(0.5),
        pct(0.99),
        samples.last().unwrap()
    );
    c.bench_function("service/move_round_trip", |bencher| {
        bencher.iter_custom(|iters| (0..iters).map(|_| runtime.block_on(b.one_move())).sum())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

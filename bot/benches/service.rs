//! One move through the service on SQLite: lock, load, apply, render, persist (with the outbox
//! row) and commit, in a two-player chess game and in a four-player Doubles Chess game (12x12,
//! four armies). Criterion reports the median; the 99th percentile is measured in a first pass
//! over 1,000 moves and printed, since it is the figure the bot must keep under 50 ms (chess) and
//! 30 ms (Doubles).

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

/// Doubles Chess partners, in turn W1, B1, W2, B2: knights out and back by two routes. The
/// start comes back twice; a new game begins before a third time.
const DOUBLES_CYCLE: [&str; 16] = [
    "Nc3", "Nc10", "Nc5", "Nj5", "Nd1", "Nd12", "Na4", "Nl4", //
    "Ne3", "Ne10", "Nc3", "Nj3", "Nd1", "Nd12", "Na4", "Nl4",
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

struct DoublesBench {
    service: Service,
    players: Vec<User>,
    place: Place,
    game: GameId,
    ply: usize,
    _dir: std::path::PathBuf,
}

async fn open_service(name: &str) -> (Service, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("rookery-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&dir.join("bench.db")).await.unwrap();
    let service = Service::with_seed(store, Arc::new(ManualClock::new(1_800_000_000)), 1);
    (service, dir)
}

impl DoublesBench {
    async fn new() -> DoublesBench {
        let (service, dir) = open_service("doubles").await;
        let mut b = DoublesBench {
            service,
            players: ["w1", "b1", "w2", "b2"]
                .iter()
                .map(|&n| User::new(n, n))
                .collect(),
            place: Place::channel("console", "lobby"),
            game: GameId(0),
            ply: 0,
            _dir: dir,
        };
        b.new_game().await;
        b
    }

    async fn new_game(&mut self) {
        self.service
            .create(
                &self.players[0],
                &self.place,
                "doubles",
                "order=joined",
                None,
            )
            .await
            .unwrap();
        let id = self.service.store().games_of("w1", true).await.unwrap()[0]
            .game
            .id;
        for p in &self.players[1..] {
            self.service.join(p, &self.place, Some(id)).await.unwrap();
        }
        self.game = id;
        self.ply = 0;
    }

    async fn one_move(&mut self) -> Duration {
        if self.ply == DOUBLES_CYCLE.len() - 1 {
            self.service
                .resign(&self.players[0], &self.place, Some(self.game))
                .await
                .unwrap();
            self.new_game().await;
        }
        let user = &self.players[self.ply % 4];
        let started = Instant::now();
        self.service
            .act(user, &self.place, Some(self.game), DOUBLES_CYCLE[self.ply])
            .await
            .unwrap();
        let took = started.elapsed();
        self.ply += 1;
        took
    }
}

fn report(what: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let pct = |p: f64| samples[((samples.len() as f64 - 1.0) * p) as usize];
    eprintln!(
        "{what} over {} moves: median {:?}, p99 {:?}, max {:?}",
        samples.len(),
        pct(0.5),
        pct(0.99),
        samples.last().unwrap()
    );
}

impl Bench {
    async fn new() -> Bench {
        let (service, dir) = open_service("chess").await;
        let mut b = Bench {
            service,
            white: User::new("white", "white"),
            black: User::new("black", "black"),
            place: Place::channel("console", "lobby"),
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
    let samples: Vec<Duration> = (0..1000).map(|_| runtime.block_on(b.one_move())).collect();
    report("service move round trip (chess)", samples);
    c.bench_function("service/move_round_trip", |bencher| {
        bencher.iter_custom(|iters| (0..iters).map(|_| runtime.block_on(b.one_move())).sum())
    });
    let mut d = runtime.block_on(DoublesBench::new());
    let samples: Vec<Duration> = (0..1000).map(|_| runtime.block_on(d.one_move())).collect();
    report(
        "service move round trip (Doubles Chess, 4 players)",
        samples,
    );
    c.bench_function("service/doubles_move_round_trip", |bencher| {
        bencher.iter_custom(|iters| (0..iters).map(|_| runtime.block_on(d.one_move())).sum())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Several processes on one PostgreSQL database (issue 31): each post is delivered by exactly
//! one of them and each clock fired by one, through leases; when the process holding a lease
//! dies, another takes the work over once the lease runs out. The "processes" are services on
//! the same database, as two `rookery` processes would be, sharing one scripted clock.

use std::sync::{Arc, Mutex};

use bot::model::{GameId, Pending, Place, User};
use bot::service::{Deliver, DeliveryError, ManualClock, Service};
use bot::store::Store;

/// A frontend that records which process delivered which post.
#[derive(Default)]
struct Recorder {
    delivered: Mutex<Vec<(&'static str, i64)>>,
}

struct Frontend<'a> {
    name: &'static str,
    recorder: &'a Recorder,
}

impl Deliver for Frontend<'_> {
    async fn deliver(&self, _: &Service, item: &Pending) -> Result<(), DeliveryError> {
        self.recorder
            .delivered
            .lock()
            .unwrap()
            .push((self.name, item.id));
        Ok(())
    }
}

fn lobby() -> Place {
    Place::channel("console", "lobby")
}

async fn process(url: &str, clock: &Arc<ManualClock>, seed: u64) -> Service {
    Service::with_seed(Store::connect(url).await.unwrap(), clock.clone(), seed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_post_and_clock_is_handled_by_one_process_and_taken_over_after_a_death() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    let url = server.fresh_database("leases");
    let clock = Arc::new(ManualClock::new(1_800_000_000));
    let first = process(&url, &clock, 1).await;
    let second = process(&url, &clock, 2).await;
    let recorder = Recorder::default();
    let (a, b) = (
        Frontend {
            name: "first",
            recorder: &recorder,
        },
        Frontend {
            name: "second",
            recorder: &recorder,
        },
    );
    let (alice, bob) = (User::new("alice", "alice"), User::new("bob", "bob"));

    // A game made through the first process, joined through the second.
    first
        .create(
            &alice,
            &lobby(),
            "chess",
            "order=joined days_per_move=1",
            None,
        )
        .await
        .unwrap();
    let id: GameId = first.store().games_of("alice", true).await.unwrap()[0]
        .game
        .id;
    second.join(&bob, &lobby(), Some(id)).await.unwrap();

    // Both flush at once: the posts go out once, all through whichever took the lease.
    let (x, y) = tokio::join!(first.flush_outbox(&a), second.flush_outbox(&b));
    let total = x.unwrap() + y.unwrap();
    assert!(total > 0);
    let holders: std::collections::HashSet<&str> = recorder
        .delivered
        .lock()
        .unwrap()
        .iter()
        .map(|(who, _)| *who)
        .collect();
    assert_eq!(holders.len(), 1, "one process delivers: {holders:?}");
    let holder_is_first = holders.contains("first");
    let (holder, other, holder_front, other_front) = if holder_is_first {
        (first, second, a, b)
    } else {
        (second, first, b, a)
    };

    // A move through the other process: its posts wait for the holder.
    other.act(&alice, &lobby(), Some(id), "e4").await.unwrap();
    assert_eq!(other.flush_outbox(&other_front).await.unwrap(), 0);
    assert!(holder.flush_outbox(&holder_front).await.unwrap() > 0);

    // The holder dies without a word. Its lease holds the work for two minutes...
    drop(holder);
    other.act(&bob, &lobby(), Some(id), "e5").await.unwrap();
    assert_eq!(other.flush_outbox(&other_front).await.unwrap(), 0);
    clock.advance(61);
    assert_eq!(other.flush_outbox(&other_front).await.unwrap(), 0);
    // ... then the survivor takes it over, and nothing waits any more.
    clock.advance(60);
    assert!(other.flush_outbox(&other_front).await.unwrap() > 0);
    assert!(other.store().pending(10).await.unwrap().is_empty());

    // Every post delivered exactly once.
    let delivered = recorder.delivered.lock().unwrap().clone();
    let mut ids: Vec<i64> = delivered.iter().map(|(_, id)| *id).collect();
    ids.sort();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "a post went out twice: {delivered:?}");

    // The clock: Alice's day runs out; the survivor, alone now, fires the timeout once.
    clock.advance(2 * 86_400);
    assert_eq!(other.tick().await.unwrap(), 1);
    assert_eq!(other.tick().await.unwrap(), 0);
    other.release_leases().await.unwrap();
    other.store().close().await;
}

/// Two processes ticking at once never fire a clock twice: the lease lets one tick, and the
/// game's row lock would stop a second anyway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_ticking_at_once_fire_each_timeout_once() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    let url = server.fresh_database("ticks");
    let clock = Arc::new(ManualClock::new(1_800_000_000));
    let first = process(&url, &clock, 3).await;
    let second = process(&url, &clock, 4).await;
    let (alice, bob) = (User::new("alice", "alice"), User::new("bob", "bob"));
    for _ in 0..5 {
        first
            .create(
                &alice,
                &lobby(),
                "chess",
                "order=joined days_per_move=1",
                None,
            )
            .await
            .unwrap();
    }
    for summary in first.store().games_of("alice", true).await.unwrap() {
        second
            .join(&bob, &lobby(), Some(summary.game.id))
            .await
            .unwrap();
    }
    clock.advance(2 * 86_400);
    let (x, y) = tokio::join!(first.tick(), second.tick());
    assert_eq!(
        x.unwrap() + y.unwrap(),
        5,
        "each of the five timeouts fired once"
    );
    let (x, y) = tokio::join!(first.tick(), second.tick());
    assert_eq!(x.unwrap() + y.unwrap(), 0);
}

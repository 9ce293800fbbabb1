//! Simultaneous submissions: the same move sent twice at once applies once, and hundreds of
//! games played at the same time on one SQLite file lose and double nothing.

use std::sync::Arc;

use bot::model::{GameId, Place, User};
use bot::service::{ManualClock, Service, ServiceError};
use bot::store::Store;
use rookery_tests::TempDir;

async fn service(dir: &TempDir) -> Arc<Service> {
    let store = Store::open(&dir.0.join("rookery.db")).await.unwrap();
    Arc::new(Service::with_seed(
        store,
        Arc::new(ManualClock::new(1_800_000_000)),
        11,
    ))
}

fn lobby() -> Place {
    Place::channel("console", "lobby")
}

/// Creates a two-player chess game between `a` and `b`, `a` playing White.
async fn new_game(s: &Service, a: &User, b: &User) -> GameId {
    s.create(a, &lobby(), "chess", "order=joined", None)
        .await
        .unwrap();
    let id = s.store().games_of(&a.id, true).await.unwrap()[0].game.id;
    s.join(b, &lobby(), Some(id)).await.unwrap();
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_same_move_sent_twice_at_once_applies_once() {
    let dir = TempDir::new("twice");
    let s = service(&dir).await;
    let (alice, bob) = (User::new("alice", "alice"), User::new("bob", "bob"));
    let id = new_game(&s, &alice, &bob).await;
    let mut played = Vec::new();
    let mut rng = 0x9e37_79b9_u64;
    for ply in 0..60u32 {
        let mover = if ply.is_multiple_of(2) { &alice } else { &bob };
        let legal = s.suggestions(mover, &lobby(), Some(id), "", 500).await;
        if legal.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let text = legal[(rng >> 33) as usize % legal.len()].clone();
        // Two copies of the same move race.
        let (a, b) = (s.clone(), s.clone());
        let (u1, u2) = (mover.clone(), mover.clone());
        let (t1, t2) = (text.clone(), text.clone());
        let first = tokio::spawn(async move { a.act(&u1, &lobby(), Some(id), &t1).await });
        let second = tokio::spawn(async move { b.act(&u2, &lobby(), Some(id), &t2).await });
        let results = [first.await.unwrap(), second.await.unwrap()];
        assert_eq!(
            results.iter().filter(|r| r.is_ok()).count(),
            1,
            "{results:?}"
        );
        assert!(
            results.iter().any(|r| matches!(r, Err(ServiceError::Refused(m)) if m.contains("not your turn") || m.contains("is over"))),
            "{results:?}"
        );
        played.push(text);
    }
    let log = s.store().actions(id).await.unwrap();
    let moves: Vec<String> = log
        .iter()
        .filter(|(_, k, _)| k == "move")
        .map(|(_, _, t)| t.clone())
        .collect();
    assert_eq!(moves, played, "every move is logged exactly once, in order");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hundreds_of_games_at_once_lose_and_double_nothing() {
    let dir = TempDir::new("many");
    let s = service(&dir).await;
    const GAMES: usize = 200;
    const ROUNDS: usize = 2;
    let mut ids = Vec::new();
    for i in 0..GAMES {
        let (a, b) = (
            User::new(format!("w{i}"), "w"),
            User::new(format!("b{i}"), "b"),
        );
        ids.push((new_game(&s, &a, &b).await, a, b));
    }
    // Every game plays the same opening at the same time as all the others; each move is also
    // sent a second time to try to double it.
    let mut tasks = Vec::new();
    for (id, white, black) in ids.clone() {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let opening = [["e4", "e5", "Nf3", "Nc6"], ["Bb5", "a6", "Ba4", "Nf6"]];
            for round in opening.iter().take(ROUNDS) {
                for (user, text) in [&white, &black, &white, &black].into_iter().zip(round) {
                    let (again, u, t) = (s.clone(), user.clone(), text.to_string());
                    let duplicate =
                        tokio::spawn(async move { again.act(&u, &lobby(), Some(id), &t).await });
                    let first = s.act(user, &lobby(), Some(id), text).await;
                    let second = duplicate.await.unwrap();
                    assert!(
                        first.is_ok() != second.is_ok(),
                        "exactly one copy applies: {first:?} {second:?}"
                    );
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    for (id, _, _) in &ids {
        let log = s.store().actions(*id).await.unwrap();
        let moves = log.iter().filter(|(_, k, _)| k == "move").count();
        assert_eq!(moves, ROUNDS * 4, "game {id}");
        let versions: Vec<i64> = log.iter().map(|(v, _, _)| *v).collect();
        let expected: Vec<i64> = (1..=versions.len() as i64).collect();
        assert_eq!(versions, expected, "game {id} has a gapless log");
        let row = s.store().game(*id).await.unwrap().unwrap();
        assert_eq!(row.version, versions.len() as i64);
    }
}

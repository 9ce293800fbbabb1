//! Crash safety of the real `rookery` binary against the fake Discord: games are played with
//! duplicated and concurrent presses while the process is killed with SIGKILL at random moments
//! and restarted on the same SQLite file. No accepted move may be lost or applied twice, and
//! every post must reach Discord exactly once.
//!
//! The binary is the one `cargo test --workspace` builds next to this test (target/debug).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bot::model::GameId;
use rand::{Rng, SeedableRng};
use rookery_tests::discord_story::rookery_binary;
use rookery_tests::fake_discord::{FakeDiscord, Person, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

/// Scholar's mate: White's and Black's moves alternate, the last one mates.
const SCRIPT: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
const GAMES: usize = 5;
const KILLS: usize = 20;

/// A running `rookery` process, killed when dropped so a failing test leaves none behind.
struct Bot(Child);

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Bot {
    /// Waits (at most 20 seconds) for the process to stop by itself; `log` explains a hang.
    async fn exit_status(&mut self, log: &std::path::Path) -> std::process::ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the bot did not stop: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn spawn_bot(fake: &FakeDiscord, db: &std::path::Path, log: &std::path::Path) -> Bot {
    spawn_bot_on(fake, &db.display().to_string(), log, &[])
}

/// A `rookery discord` process on database `db` (a file or a PostgreSQL URL), with `args`.
fn spawn_bot_on(fake: &FakeDiscord, db: &str, log: &std::path::Path, args: &[&str]) -> Bot {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    Command::new(rookery_binary())
        .arg("discord")
        .args(args)
        // A process killed with its leases must not hold the work for two minutes here.
        .env("ROOKERY_LEASE_SECONDS", "3")
        .env("DISCORD_TOKEN", "fake-token")
        .env("ROOKERY_DISCORD_API", fake.url())
        .env("ROOKERY_GUILD", GUILD.to_string())
        .env("ROOKERY_DB", db)
        // The default log filter, as an admin runs it: its lines are written from several
        // threads at once.
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .map(Bot)
        .unwrap()
}

/// The announcement of the `ply`-th move of the script (0-based) in a game's thread.
fn announcement(ply: usize) -> String {
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("played {number}. {}", SCRIPT[ply])
    } else {
        format!("played {number}... {}", SCRIPT[ply])
    }
}

struct Game {
    number: i64,
    white: Person,
    black: Person,
    lobby: rookery_tests::fake_discord::Posted,
}

/// Where the bots of a crash test run: one process on an SQLite file, or two processes sharing
/// a PostgreSQL database, each with one of two shards.
enum Deployment {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Deployment {
    fn db(&self) -> String {
        match self {
            Deployment::Sqlite(path) => path.display().to_string(),
            Deployment::Postgres(url) => url.clone(),
        }
    }

    /// Starts process `n` of the deployment.
    fn spawn(&self, fake: &FakeDiscord, log: &std::path::Path, n: usize) -> Bot {
        match self {
            Deployment::Sqlite(_) => spawn_bot_on(fake, &self.db(), log, &[]),
            Deployment::Postgres(_) => {
                let shard = n.to_string();
                spawn_bot_on(
                    fake,
                    &self.db(),
                    log,
                    &["--shards", &shard, "--shard-count", "2"],
                )
            }
        }
    }

    fn processes(&self) -> usize {
        match self {
            Deployment::Sqlite(_) => 1,
            Deployment::Postgres(_) => 2,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_random_moments_loses_and_doubles_nothing() {
    let dir = TempDir::new("discord-crash");
    crash_test(&dir, Deployment::Sqlite(dir.0.join("rookery.db"))).await;
}

/// Issue 31: two `rookery` processes on one PostgreSQL database, one shard each, games played
/// across them while either is killed with SIGKILL at random moments and started again: every
/// action applied once, every post delivered once (the outbox leased to one process at a time,
/// taken over when its holder dies).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_postgres_killed_at_random_lose_and_double_nothing() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    let dir = TempDir::new("discord-crash-postgres");
    crash_test(&dir, Deployment::Postgres(server.fresh_database("crash"))).await;
}

async fn crash_test(dir: &TempDir, deployment: Deployment) {
    let log = dir.0.join("bot.log");
    let fake = FakeDiscord::start().await;
    let mut children: Vec<Bot> = (0..deployment.processes())
        .map(|n| deployment.spawn(&fake, &log, n))
        .collect();
    fake.wait_ready().await;

    // Games are opened before the killing starts: a /play whose answer is lost to a crash
    // would rightly open a second game when the user tries again.
    let mut games = Vec::new();
    for n in 0..GAMES {
        let white = fake.person(200 + n as u64, &format!("white{n}"));
        let black = fake.person(300 + n as u64, &format!("black{n}"));
        let (number, lobby) = fake
            .play(&white, "chess", "order=joined days_per_move=none")
            .await;
        games.push(Game {
            number,
            white,
            black,
            lobby,
        });
    }

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut kills = 0;
    let mut next_kill = Instant::now() + Duration::from_millis(rng.gen_range(200..900));
    let started = Instant::now();
    let mut last_try = [Instant::now() - Duration::from_secs(10); GAMES];
    loop {
        if kills < KILLS && Instant::now() >= next_kill {
            // SIGKILL one of the processes, then a new one in its place on the same database.
            let n = rng.gen_range(0..children.len());
            let _ = children[n].0.kill();
            let _ = children[n].0.wait();
            children[n] = deployment.spawn(&fake, &log, n);
            kills += 1;
            next_kill = Instant::now() + Duration::from_millis(rng.gen_range(300..1200));
        }
        let mut finished = 0;
        for (n, game) in games.iter().enumerate() {
            let thread = game.lobby.id;
            let posts: Vec<String> = fake
                .messages_in(thread)
                .into_iter()
                .map(|m| m.content)
                .collect();
            if posts.iter().any(|p| p.contains("checkmate")) {
                finished += 1;
                continue;
            }
            if last_try[n].elapsed() < Duration::from_millis(400) {
                continue;
            }
            last_try[n] = Instant::now();
            if !posts.iter().any(|p| p.contains("begins")) {
                // The opponent presses Join 20 times at once.
                for _ in 0..20 {
                    fake.press(
                        &game.black,
                        &game.lobby,
                        &format!("rookery:join:{}", game.number),
                    );
                }
                continue;
            }
            let ply = (0..SCRIPT.len())
                .take_while(|&p| posts.iter().any(|c| c.contains(&announcement(p))))
                .count();
            let mover = if ply % 2 == 0 {
                &game.white
            } else {
                &game.black
            };
            // The same move, sent twice at once (a double click, a retry).
            for _ in 0..2 {
                fake.slash(mover, thread, "move", &[("move", json!(SCRIPT[ply]))]);
            }
        }
        if finished == GAMES && kills >= KILLS {
            break;
        }
        if started.elapsed() >= Duration::from_secs(90) {
            let threads: Vec<String> = games
                .iter()
                .map(|g| {
                    let posts = fake.messages_in(g.lobby.id);
                    format!(
                        "game {}: {} posts, last {:?}",
                        g.number,
                        posts.len(),
                        posts.last().map(|m| m.content.clone())
                    )
                })
                .collect();
            let store = match &deployment {
                Deployment::Sqlite(path) => bot::store::Store::open_shared(path).await.unwrap(),
                Deployment::Postgres(url) => bot::store::Store::connect(url).await.unwrap(),
            };
            let pending: Vec<String> = store
                .pending(100)
                .await
                .unwrap()
                .iter()
                .map(|p| {
                    format!(
                        "#{} attempts {} not_before {}",
                        p.id, p.attempts, p.not_before
                    )
                })
                .collect();
            let pending = format!("{pending:?} at {:?}", std::time::SystemTime::now());
            let actions = store.actions(GameId(games[0].number)).await.unwrap();
            let unanswered = fake
                .interactions()
                .iter()
                .filter(|i| i.callbacks.is_empty())
                .count();
            panic!(
                "the games did not finish ({pending} posts pending, {unanswered} interactions \
                 unanswered, game 1's actions {actions:?}):\n{}\n{}",
                threads.join("\n"),
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Let the last run deliver everything, then stop it and read the database.
    tokio::time::sleep(Duration::from_secs(1)).await;
    // The bots may still be delivering: read their database without claiming it.
    let store = match &deployment {
        Deployment::Sqlite(path) => bot::store::Store::open_shared(path).await.unwrap(),
        Deployment::Postgres(url) => bot::store::Store::connect(url).await.unwrap(),
    };
    for _ in 0..100 {
        if store.pending(1).await.unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        store.pending(1).await.unwrap().is_empty(),
        "posts left undelivered"
    );
    drop(children);

    assert_eq!(kills, KILLS);
    let threads = fake.threads_of(LOBBY);
    assert_eq!(threads.len(), GAMES, "one thread per game: {threads:?}");
    let mut nonces = std::collections::HashSet::new();
    for m in fake.messages() {
        assert!(
            nonces.insert(m.nonce.clone().unwrap()),
            "posted twice: {}",
            m.content
        );
    }
    for game in &games {
        let thread = game.lobby.id;
        assert!(threads.contains(&thread));
        let posts: Vec<String> = fake
            .messages_in(thread)
            .into_iter()
            .map(|m| m.content)
            .collect();
        let count = |needle: &str| posts.iter().filter(|p| p.contains(needle)).count();
        assert_eq!(count("begins"), 1, "game {}: {posts:#?}", game.number);
        for ply in 0..SCRIPT.len() {
            assert_eq!(
                count(&announcement(ply)),
                1,
                "game {} ply {ply}: {posts:#?}",
                game.number
            );
        }
        assert_eq!(count("checkmate"), 1, "game {}", game.number);
        let actions = store.actions(GameId(game.number)).await.unwrap();
        let kinds: Vec<&str> = actions.iter().map(|(_, kind, _)| kind.as_str()).collect();
        assert_eq!(
            kinds.iter().filter(|k| **k == "join").count(),
            1,
            "{kinds:?}"
        );
        let moves: Vec<&str> = actions
            .iter()
            .filter(|(_, kind, _)| kind == "move")
            .map(|(_, _, text)| text.as_str())
            .collect();
        assert_eq!(moves, SCRIPT, "game {}", game.number);
    }
    for i in fake.interactions() {
        assert!(
            i.callbacks.len() <= 1,
            "interaction {} answered {} times",
            i.id,
            i.callbacks.len()
        );
    }
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_says_why_and_exits_when_discord_refuses_its_commands() {
    let dir = TempDir::new("discord-refused");
    let fake = FakeDiscord::start().await;
    fake.fail_next(
        "PUT",
        "/applications/*/guilds/*/commands",
        rookery_tests::fake_discord::Fault::Invalid,
    );
    let log = dir.0.join("bot.log");
    let mut child = spawn_bot(&fake, &dir.0.join("rookery.db"), &log);
    let status = child.exit_status(&log).await;
    assert_eq!(status.code(), Some(2));
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(said.contains("could not register the commands"), "{said}");
    assert_eq!(fake.gateway_counts().0, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_binary_cleanly_with_the_games_in_the_database_file() {
    let dir = TempDir::new("discord-sigterm");
    let db = dir.0.join("rookery.db");
    let fake = FakeDiscord::start().await;
    let log = dir.0.join("bot.log");
    let mut child = spawn_bot(&fake, &db, &log);
    fake.wait_ready().await;
    let alice = fake.person(101, "alice");
    let answer = fake
        .answer(fake.slash(&alice, LOBBY, "play", &[("variant", json!("chess"))]))
        .await;
    assert!(answer.contains("created"), "{answer}");

    let status = Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.exit_status(&log).await;
    assert!(exit.success(), "{exit:?}");
    // The write-ahead log was folded into the file: the .db file alone holds the game.
    let wal = dir.0.join("rookery.db-wal");
    let wal_size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert_eq!(wal_size, 0, "the log still holds {wal_size} bytes");
    let copy = dir.0.join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let store = bot::store::Store::open(&copy).await.unwrap();
    assert!(store.game(GameId(1)).await.unwrap().is_some());
    store.close().await;
}

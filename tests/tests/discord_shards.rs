//! Discord shards across processes: a bot running shards 0-1 of 2 identifies once for each and
//! plays on the shard the server's events go to; `--shards auto` runs as many shards as GET
//! /gateway/bot recommends; two bots sharing one PostgreSQL database never run the same shard
//! (the second is refused with a sentence naming the first, before anything reaches Discord),
//! while a range of its own is accepted; a claim whose holder stopped renewing it is taken over;
//! and the `rookery` binary refuses a wrong range with exit status 2.
//!
//! serenity starts one shard every five seconds, hence the longer waits.

use std::process::Stdio;
use std::time::Duration;

use bot::shards::{Owner, ShardRange, Shards};
use bot::store::Store;
use rookery_tests::discord_story::rookery_binary;
use rookery_tests::fake_discord::{shard_of, FakeDiscord, Person, RunningBot, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);
/// Long enough for serenity to start four shards, five seconds apart.
const SHARDS_WAIT: Duration = Duration::from_secs(40);

fn sharded(first: u32, last: u32, count: u32) -> bot::discord::Settings {
    bot::discord::Settings {
        shards: Shards::Range(ShardRange { first, last, count }),
        ..RunningBot::settings(Some(GUILD))
    }
}

/// Waits until the fake has seen an IDENTIFY for each of `shards` (id, count).
async fn identified(fake: &FakeDiscord, shards: &[(u64, u64)]) {
    fake.wait_until("an IDENTIFY for each shard", SHARDS_WAIT, |f| {
        let seen = f.shard_identifies();
        shards.iter().all(|s| seen.contains(s)).then_some(())
    })
    .await;
}

/// A chess game between alice and bob with two moves played; checks each move's answer.
async fn play_two_moves(fake: &FakeDiscord, alice: &Person, bob: &Person) {
    let (number, lobby) = fake.play(alice, "chess", "order=joined").await;
    fake.answer(fake.press(bob, &lobby, &format!("rookery:join:{number}")))
        .await;
    fake.wait_until("White's first turn", WAIT, |f| {
        f.messages_in(lobby.id)
            .iter()
            .any(|m| m.content.contains("your move"))
            .then_some(())
    })
    .await;
    for (who, san) in [(alice, "e4"), (bob, "e5")] {
        let id = fake.slash(who, lobby.id, "move", &[("move", json!(san))]);
        let answer = fake.answer(id).await;
        assert!(answer.contains(san), "{answer}");
    }
}

/// How the refusal names a holder in this test process.
fn this_process() -> String {
    format!("{} pid {}", Owner::this_process().host, std::process::id())
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_running_two_shards_identifies_each_and_plays_on_the_servers_shard() {
    let dir = TempDir::new("shards-two");
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");
    let bob = fake.person(102, "bob");
    let db = dir.0.join("r.db");
    let store = Store::open(&db).await.unwrap();
    let bot = RunningBot::start_with(&fake, store, sharded(0, 1, 2)).await;
    identified(&fake, &[(0, 2), (1, 2)]).await;
    fake.wait_ready().await;
    let mut seen = fake.shard_identifies();
    seen.sort_unstable();
    assert_eq!(seen, vec![(0, 2), (1, 2)], "one IDENTIFY for each shard");
    assert_eq!(fake.gateway_counts().0, 2, "one connection for each shard");
    // The server's events go to shard (GUILD >> 22) % 2, which is shard 1: the game is played
    // on the second connection.
    assert_eq!(shard_of(GUILD, 2), 1);
    play_two_moves(&fake, &alice, &bob).await;

    // Both shards are claimed in the database by this process, and released on a clean stop.
    let claims = bot.service.store().shard_claims().await.unwrap();
    let shards: Vec<(i64, i64)> = claims.iter().map(|c| (c.shard_count, c.shard_id)).collect();
    assert_eq!(shards, vec![(2, 0), (2, 1)]);
    assert!(claims.iter().all(|c| c.owner == claims[0].owner));
    fake.assert_interactions_answered();
    bot.stop().await;
    let store = Store::open(&db).await.unwrap();
    assert!(store.shard_claims().await.unwrap().is_empty(), "released");
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shards_auto_runs_as_many_shards_as_discord_recommends() {
    let dir = TempDir::new("shards-auto");
    let fake = FakeDiscord::start().await;
    fake.set_recommended_shards(2);
    let alice = fake.person(101, "alice");
    let store = Store::open(&dir.0.join("r.db")).await.unwrap();
    let settings = bot::discord::Settings {
        shards: Shards::Auto,
        ..RunningBot::settings(Some(GUILD))
    };
    let bot = RunningBot::start_with(&fake, store, settings).await;
    identified(&fake, &[(0, 2), (1, 2)]).await;
    fake.wait_ready().await;
    assert_eq!(fake.shard_identifies().len(), 2);
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.method == "GET" && r.path == "/gateway/bot"),
        "the count came from GET /gateway/bot"
    );
    let help = fake.slash(&alice, LOBBY, "help", &[]);
    assert!(!fake.answer(help).await.is_empty());
    fake.assert_interactions_answered();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_on_one_postgres_never_run_the_same_shard() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    let url = server.fresh_database("shards_overlap");
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");

    let first =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(0, 1, 4)).await;
    identified(&fake, &[(0, 4), (1, 4)]).await;

    // Shards 1-2 overlap the first bot's shard 1: refused before any request reaches Discord
    // (a bot's first request reads its application).
    let application_reads = || {
        fake.requests()
            .iter()
            .filter(|r| r.path == "/oauth2/applications/@me")
            .count()
    };
    let reads = application_reads();
    let refused =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(1, 2, 4)).await;
    let why = refused.outcome(WAIT).await.unwrap_err();
    let expected_start = format!("shard 1 of 4 is already run by {} (seen ", this_process());
    assert!(why.starts_with(&expected_start), "{why}");
    assert!(
        why.ends_with("s ago); give each process its own range"),
        "{why}"
    );
    assert_eq!(application_reads(), reads, "nothing reached Discord");

    // The same bot sharded another way conflicts with every shard of the first.
    let refused =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(3, 3, 8)).await;
    let why = refused.outcome(WAIT).await.unwrap_err();
    assert!(
        why.starts_with("shards 0-1 of 4 are already run by"),
        "{why}"
    );
    assert!(why.contains("the same --shard-count"), "{why}");

    // Shards 2-3 are free: accepted, and the server's shard (3 of 4) is among them.
    let second =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(2, 3, 4)).await;
    identified(&fake, &[(2, 4), (3, 4)]).await;
    assert_eq!(shard_of(GUILD, 4), 3);
    fake.wait_ready().await;
    // It answers the server's commands. (How two processes share the posts and clocks of one
    // database is tests/tests/leases.rs.)
    let help = fake.slash(&alice, LOBBY, "help", &[]);
    assert!(!fake.answer(help).await.is_empty());
    let mut seen = fake.shard_identifies();
    seen.sort_unstable();
    assert_eq!(seen, vec![(0, 4), (1, 4), (2, 4), (3, 4)], "no shard twice");

    let claims = first.service.store().shard_claims().await.unwrap();
    let shards: Vec<(i64, i64)> = claims.iter().map(|c| (c.shard_count, c.shard_id)).collect();
    assert_eq!(shards, vec![(4, 0), (4, 1), (4, 2), (4, 3)]);
    assert_eq!(claims[0].owner, claims[1].owner);
    assert_eq!(claims[2].owner, claims[3].owner);
    assert_ne!(claims[0].owner, claims[2].owner);

    fake.assert_interactions_answered();
    second.stop().await;
    // Stopped cleanly, the second bot's shards are free again at once.
    let store = Store::connect(&url).await.unwrap();
    let left: Vec<i64> = store
        .shard_claims()
        .await
        .unwrap()
        .iter()
        .map(|c| c.shard_id)
        .collect();
    assert_eq!(left, vec![0, 1]);
    first.stop().await;
    assert!(store.shard_claims().await.unwrap().is_empty());
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_no_longer_renewed_is_taken_over() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    let url = server.fresh_database("shards_stale");
    let store = Store::connect(&url).await.unwrap();
    // A process on another machine claimed shards 0-1 of 2 ten seconds ago.
    let elsewhere = Owner {
        id: "0123456789abcdef".into(),
        host: "far-away".into(),
        pid: 4242,
        machine: "another-boot/pid:[1]".into(),
    }
    .encode();
    let nobody_gone = |_: &str| false;
    let conflicts = store
        .claim_shards(2, 0, 1, &elsewhere, now() - 10, 60, &nobody_gone)
        .await
        .unwrap();
    assert!(conflicts.is_empty());

    // While its lease runs, a bot asking for the same shards is refused.
    let fake = FakeDiscord::start().await;
    let refused =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(0, 1, 2)).await;
    let why = refused.outcome(WAIT).await.unwrap_err();
    assert!(
        why.starts_with("shards 0-1 of 2 are already run by far-away pid 4242 (seen 1"),
        "{why}"
    );
    assert_eq!(fake.gateway_counts().1, 0, "no IDENTIFY");

    // It stops renewing: its last renewal is now two minutes old, past the 60-second lease.
    let renewed = store
        .renew_shards(2, 0, 1, &elsewhere, now() - 120)
        .await
        .unwrap();
    assert_eq!(renewed, 2);
    let bot =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(0, 1, 2)).await;
    identified(&fake, &[(0, 2), (1, 2)]).await;
    let claims = store.shard_claims().await.unwrap();
    assert_eq!(claims.len(), 2);
    assert!(
        claims.iter().all(|c| c.owner != elsewhere),
        "taken over: {claims:?}"
    );
    // The process that stalled finds its claim gone when it next renews.
    assert_eq!(
        store
            .renew_shards(2, 0, 1, &elsewhere, now())
            .await
            .unwrap(),
        0
    );
    bot.stop().await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_of_this_process_that_ended_without_releasing_is_taken_over_at_once() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    if Owner::this_process().machine == "-" {
        // No /proc: a run that ended is left to the lease, like any other process.
        return;
    }
    let url = server.fresh_database("shards_dropped");
    let fake = FakeDiscord::start().await;
    let bot =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(0, 0, 1)).await;
    fake.wait_ready().await;
    // The bot's task is dropped, not stopped (as a crash would end it): its claim stays in the
    // database, but this process can see that run has ended.
    bot.abort().await;
    let store = Store::connect(&url).await.unwrap();
    assert_eq!(store.shard_claims().await.unwrap().len(), 1);
    let again =
        RunningBot::start_with(&fake, Store::connect(&url).await.unwrap(), sharded(0, 0, 1)).await;
    fake.wait_until("a second IDENTIFY", SHARDS_WAIT, |f| {
        (f.shard_identifies().len() >= 2).then_some(())
    })
    .await;
    assert!(!again.is_finished(), "not refused");
    again.stop().await;
    store.close().await;
}

/// The claims' rules at the store, on SQLite (where a bot takes over every claim, the file
/// serving one process; here no owner counts as gone, as on PostgreSQL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claims_conflict_lapse_and_release_as_the_rules_say() {
    let dir = TempDir::new("shards-store");
    let store = Store::open(&dir.0.join("r.db")).await.unwrap();
    let owner = |name: &str| format!("{name} host-{name} 1 -");
    let (a, b, c, d) = (owner("a"), owner("b"), owner("c"), owner("d"));
    let nobody_gone = |_: &str| false;
    let t = now();
    let claim = |who: &str, first: i64, last: i64, count: i64, at: i64| {
        let store = store.clone();
        let who = who.to_string();
        async move {
            store
                .claim_shards(count, first, last, &who, at, 60, &nobody_gone)
                .await
                .unwrap()
                .iter()
                .map(|c| (c.shard_count, c.shard_id, c.owner.clone()))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(claim(a.as_str(), 0, 1, 4, t).await, vec![]);
    // Overlapping: refused, naming the shard held.
    assert_eq!(claim(b.as_str(), 1, 2, 4, t).await, vec![(4, 1, a.clone())]);
    // Another count: every live claim conflicts.
    assert_eq!(
        claim(c.as_str(), 0, 0, 8, t).await,
        vec![(4, 0, a.clone()), (4, 1, a.clone())]
    );
    // Its own range: accepted; claiming again renews.
    assert_eq!(claim(d.as_str(), 2, 3, 4, t).await, vec![]);
    assert_eq!(claim(d.as_str(), 2, 3, 4, t + 1).await, vec![]);
    // a stops renewing: 100 seconds later only d's shard 2 stands in b's way.
    assert_eq!(store.renew_shards(4, 0, 1, &a, t - 100).await.unwrap(), 2);
    assert_eq!(claim(b.as_str(), 1, 2, 4, t).await, vec![(4, 2, d.clone())]);
    // d stops cleanly: b gets its range, a's stale claims are gone.
    assert_eq!(store.release_shards(&d).await.unwrap(), 2);
    assert_eq!(claim(b.as_str(), 1, 2, 4, t).await, vec![]);
    let held: Vec<(i64, i64, String)> = store
        .shard_claims()
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.shard_count, c.shard_id, c.owner))
        .collect();
    assert_eq!(held, vec![(4, 1, b.clone()), (4, 2, b.clone())]);
    assert_eq!(store.renew_shards(4, 1, 2, &b, t + 5).await.unwrap(), 2);
    assert_eq!(store.renew_shards(4, 0, 1, &a, t + 5).await.unwrap(), 0);
    store.close().await;
}

// ---- the binary -------------------------------------------------------------------------------

#[test]
fn the_binary_refuses_a_wrong_range_with_status_2_and_the_valid_form() {
    let dir = TempDir::new("shards-binary");
    let db = dir.0.join("r.db");
    for (args, needed) in [
        (
            &["--shards", "0-8", "--shard-count", "8"][..],
            "outside the 8 shards",
        ),
        (&["--shards", "0-3", "--shard-count", "0"][..], "at least 1"),
        (
            &["--shards", "0:3", "--shard-count", "8"][..],
            "is not a shard range",
        ),
    ] {
        let out = std::process::Command::new(rookery_binary())
            .arg("discord")
            .args(args)
            .env("DISCORD_TOKEN", "fake-token")
            .env("ROOKERY_DB", &db)
            .env_remove("ROOKERY_SHARDS")
            .env_remove("ROOKERY_SHARD_COUNT")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needed), "{needed:?} missing: {stderr}");
        assert!(
            stderr.contains("--shards FIRST-LAST --shard-count COUNT"),
            "{stderr}"
        );
        assert!(!db.exists(), "nothing was opened");
    }
}

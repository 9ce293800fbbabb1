//! The gateway as Discord runs it, against the real bot: Discord asking for a heartbeat (op 1),
//! heartbeats that are never acknowledged (a zombied connection), a `resume_gateway_url` in
//! READY that is not the first address, and the close codes that no reconnecting can mend (4004,
//! a wrong token; 4014, intents the application may not use), which stop the real `rookery`
//! binary with exit status 2 and a sentence saying what to do.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rookery_tests::discord_story::{connected, rookery_binary};
use rookery_tests::fake_discord::{
    FakeDiscord, Fault, Person, RunningBot, GATEWAY_PATH, GUILD, LOBBY, RESUME_GATEWAY_PATH,
};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

/// Longer than any test here: no regular heartbeat comes while one runs.
const LONG_INTERVAL: Duration = Duration::from_secs(60);

/// A chess game between alice (White, who opened it) and bob, waiting for White's first move;
/// returns its thread.
async fn game_in_play(fake: &FakeDiscord, alice: &Person, bob: &Person) -> u64 {
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
    lobby.id
}

/// Runs `/move` and returns the bot's private answer.
async fn play_move(fake: &FakeDiscord, who: &Person, thread: u64, san: &str) -> String {
    let id = fake.slash(who, thread, "move", &[("move", json!(san))]);
    fake.answer(id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heartbeat_discord_asks_for_is_sent_at_once() {
    let dir = TempDir::new("gateway-op1");
    let fake = FakeDiscord::start().await;
    fake.set_heartbeat_interval(LONG_INTERVAL);
    let alice = fake.person(101, "alice");
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;
    assert_eq!(
        fake.gateway_counts().3,
        0,
        "no heartbeat is due before the interval"
    );

    for asked in 1..=2 {
        let at = Instant::now();
        fake.ask_heartbeat();
        fake.wait_until("the heartbeat Discord asked for", WAIT, |f| {
            (f.gateway_counts().3 >= asked).then_some(())
        })
        .await;
        let took = at.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "op 1 answered after {took:?}, the interval being {LONG_INTERVAL:?}"
        );
        assert_eq!(
            fake.gateway_counts().3,
            asked,
            "one heartbeat for each op 1"
        );
    }

    // The connection goes on as before.
    let help = fake.slash(&alice, LOBBY, "help", &[]);
    assert!(!fake.answer(help).await.is_empty());
    assert_eq!(fake.gateway_counts().0, 1, "no reconnection");
    fake.assert_interactions_answered();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heartbeats_never_acknowledged_make_the_bot_connect_again_and_play_on() {
    let (_dir, fake, alice, bob, bot) = connected("gateway-zombie").await;
    let thread = game_in_play(&fake, &alice, &bob).await;
    assert_eq!(fake.gateway_counts().0, 1);

    // From now on the bot's heartbeats arrive but no ACK goes back. serenity sends its next
    // heartbeat within the interval (one second here); when the one after is due and the first
    // has had no ACK, it takes the connection for zombied and starts a new one. Its restart
    // waits five seconds for its own shard to shut down, hence the longer limit.
    fake.stop_acknowledging();
    fake.wait_until(
        "a new session after the missing ACK",
        Duration::from_secs(40),
        |f| {
            let (connections, identifies, resumes, _) = f.gateway_counts();
            (connections >= 2 && identifies + resumes >= 2).then_some(())
        },
    )
    .await;
    fake.wait_ready().await;
    let (connections, identifies, resumes, _) = fake.gateway_counts();
    assert_eq!(connections, 2);
    // serenity 0.12.5 restarts the shard on a missing ACK, and a restarted shard identifies
    // anew rather than resuming (Discord would have it resume). Should an upgrade resume
    // instead, this becomes (1, 1).
    assert_eq!((identifies, resumes), (2, 0));

    // The game goes on in the new session.
    let answer = play_move(&fake, &alice, thread, "e4").await;
    assert!(answer.contains("e4"), "{answer}");
    let answer = play_move(&fake, &bob, thread, "e5").await;
    assert!(answer.contains("e5"), "{answer}");

    // The new connection's heartbeats are acknowledged again: it is kept.
    let heartbeats = fake.gateway_counts().3;
    fake.wait_until("two more heartbeats", WAIT, |f| {
        (f.gateway_counts().3 >= heartbeats + 2).then_some(())
    })
    .await;
    assert_eq!(fake.gateway_counts().0, 2, "the new connection is kept");

    fake.assert_interactions_answered();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_session_is_resumed_at_the_resume_gateway_url_of_ready() {
    let (_dir, fake, alice, bob, bot) = connected("gateway-resume-url").await;
    let thread = game_in_play(&fake, &alice, &bob).await;

    // The connection drops; the move sent meanwhile is replayed on the RESUME, which goes to
    // the address READY gave, not the first one.
    fake.drop_connection();
    let answer = play_move(&fake, &alice, thread, "e4").await;
    assert!(answer.contains("e4"), "{answer}");
    assert_eq!(
        fake.gateway_paths(),
        (vec![GATEWAY_PATH], vec![RESUME_GATEWAY_PATH])
    );

    // Op 7 (reconnect): there again.
    fake.request_reconnect();
    fake.wait_until("a second resume", WAIT, |f| {
        (f.gateway_counts().2 >= 2).then_some(())
    })
    .await;
    let answer = play_move(&fake, &bob, thread, "e5").await;
    assert!(answer.contains("e5"), "{answer}");
    assert_eq!(
        fake.gateway_paths(),
        (
            vec![GATEWAY_PATH],
            vec![RESUME_GATEWAY_PATH, RESUME_GATEWAY_PATH]
        )
    );

    fake.assert_interactions_answered();
    bot.stop().await;
}

// ---- refusals that stop the binary ------------------------------------------------------------

/// Starts `rookery discord` against `fake`, as an admin runs it; killed if dropped.
fn start_binary(fake: &FakeDiscord, db: &Path) -> tokio::process::Child {
    tokio::process::Command::new(rookery_binary())
        .arg("discord")
        .env("DISCORD_TOKEN", "fake-token")
        .env("ROOKERY_DISCORD_API", fake.url())
        .env("ROOKERY_GUILD", GUILD.to_string())
        .env("ROOKERY_DB", db)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}

/// Waits for the binary to stop by itself; returns its exit status and the reason it gave (its
/// last `error: ` line on standard error).
async fn stopped(child: tokio::process::Child) -> (Option<i32>, String) {
    let output = tokio::time::timeout(WAIT, child.wait_with_output())
        .await
        .expect("the bot did not stop")
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let reason = stderr
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("error: "))
        .unwrap_or_else(|| panic!("the bot gave no reason:\n{stderr}"))
        .to_string();
    assert!(!reason.contains(". "), "one sentence: {reason}");
    (output.status.code(), reason)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_or_intents_stop_the_bot_with_status_2_and_what_to_do() {
    let dir = TempDir::new("gateway-refusals");

    // Close code 4004 after IDENTIFY: the token is wrong.
    let fake = FakeDiscord::start().await;
    fake.refuse_identify(4004);
    let (status, reason) = stopped(start_binary(&fake, &dir.0.join("a.db"))).await;
    assert_eq!(status, Some(2), "{reason}");
    for needed in ["4004", "token", "Developer Portal", "DISCORD_TOKEN"] {
        assert!(reason.contains(needed), "{needed:?} missing: {reason}");
    }
    assert_eq!(fake.gateway_counts().1, 1, "IDENTIFY is not tried again");

    // Close code 4014 after IDENTIFY: intents the application may not use. Rookery asks for no
    // privileged intent, so the sentence says so and names those it asks for.
    let fake = FakeDiscord::start().await;
    fake.refuse_identify(4014);
    let (status, reason) = stopped(start_binary(&fake, &dir.0.join("b.db"))).await;
    assert_eq!(status, Some(2), "{reason}");
    let asked = bot::discord::serenity::GatewayIntents::non_privileged();
    assert_eq!(fake.intents(), Some(asked.bits()));
    for needed in [
        "4014",
        "none of them is privileged",
        "GUILDS",
        "GUILD_MESSAGES",
        "Developer Portal",
        "Bot > Privileged Gateway Intents",
    ] {
        assert!(reason.contains(needed), "{needed:?} missing: {reason}");
    }

    // The token reset while the bot runs: Discord closes the session with 4004.
    let fake = FakeDiscord::start().await;
    let child = start_binary(&fake, &dir.0.join("c.db"));
    fake.wait_ready().await;
    fake.refuse_identify(4004);
    fake.close_connection(4004);
    let (status, reason) = stopped(child).await;
    assert_eq!(status, Some(2), "{reason}");
    assert!(reason.contains("DISCORD_TOKEN"), "{reason}");

    // A wrong token is usually refused before the gateway, by the first REST request (401).
    let fake = FakeDiscord::start().await;
    fake.fail_next("GET", "/oauth2/applications/@me", Fault::Unauthorized);
    let (status, reason) = stopped(start_binary(&fake, &dir.0.join("d.db"))).await;
    assert_eq!(status, Some(2), "{reason}");
    for needed in ["401", "Developer Portal", "DISCORD_TOKEN"] {
        assert!(reason.contains(needed), "{needed:?} missing: {reason}");
    }
    assert_eq!(fake.gateway_counts().0, 0, "no gateway connection");
}

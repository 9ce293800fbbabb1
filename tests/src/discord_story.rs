//! The steps the fake-Discord stories share: connect a bot to a fake server, run a slash
//! command, wait for a post, check nothing was posted twice, find the `rookery` binary.

use std::path::PathBuf;
use std::time::Duration;

use crate::fake_discord::{FakeDiscord, Person, Posted, RunningBot, GUILD, LOBBY};
use crate::TempDir;

/// How long a story waits for what the bot should do.
pub const WAIT: Duration = Duration::from_secs(30);

/// Waits for a message in `channel` whose text contains `needle`.
pub async fn message_with(fake: &FakeDiscord, channel: u64, needle: &str) -> Posted {
    fake.wait_until(&format!("a message with {needle:?}"), WAIT, |f| {
        f.messages_in(channel)
            .into_iter()
            .find(|m| m.content.contains(needle))
    })
    .await
}

/// A fake Discord with alice and bob in its server, and the bot connected to it on a new
/// database (kept while the returned folder lives).
pub async fn connected(tag: &str) -> (TempDir, FakeDiscord, Person, Person, RunningBot) {
    let dir = TempDir::new(tag);
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");
    let bob = fake.person(102, "bob");
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;
    (dir, fake, alice, bob, bot)
}

/// Runs a slash command and returns the bot's (first) private answer.
pub async fn slash(
    fake: &FakeDiscord,
    who: &Person,
    channel: u64,
    name: &str,
    options: &[(&str, serde_json::Value)],
) -> String {
    let id = fake.slash(who, channel, name, options);
    fake.answer(id).await
}

/// A chess game between alice (White) and bob, opened in the lobby; returns its thread once
/// White has been asked for a move.
pub async fn chess_game(fake: &FakeDiscord, alice: &Person, bob: &Person) -> u64 {
    let (_, lobby) = fake.play(alice, "chess", "order=joined").await;
    let thread = fake
        .wait_until("the game's thread", WAIT, |f| {
            f.threads_of(LOBBY).contains(&lobby.id).then_some(lobby.id)
        })
        .await;
    fake.answer(fake.press(bob, &lobby, "rookery:join:1")).await;
    message_with(fake, thread, "your move").await;
    thread
}

/// No post was delivered twice: every message carries its own outbox nonce.
pub fn assert_posted_once(fake: &FakeDiscord) {
    let mut seen = std::collections::HashSet::new();
    for m in fake.messages() {
        let nonce = m.nonce.clone().expect("every post carries a nonce");
        assert!(seen.insert(nonce), "posted twice: {}", m.content);
    }
}

/// Waits until the bot's outbox is empty.
pub async fn settled(bot: &RunningBot) {
    for _ in 0..200 {
        if bot.service.store().pending(1).await.unwrap().is_empty() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the outbox never emptied");
}

/// The `rookery` binary that `cargo test --workspace` builds beside the test running.
pub fn rookery_binary() -> PathBuf {
    let test = std::env::current_exe().unwrap();
    let target = test.parent().and_then(std::path::Path::parent).unwrap();
    let binary = target.join(format!("rookery{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: `cargo test --workspace` builds it (or `cargo build -p bot`)",
        binary.display()
    );
    binary
}

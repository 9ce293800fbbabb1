//! The Discord frontend end to end: the real bot code against the fake Discord in
//! `rookery_tests::fake_discord`, each test a whole user story. Every test ends by checking
//! that every interaction was answered exactly once within Discord's 3 seconds.

use std::time::Duration;

use rookery_tests::fake_discord::{FakeDiscord, Person, Posted, RunningBot, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// Waits for a message in `channel` whose text contains `needle`.
async fn message_with(fake: &FakeDiscord, channel: u64, needle: &str) -> Posted {
    fake.wait_until(&format!("a message with {needle:?}"), WAIT, |f| {
        f.messages_in(channel)
            .into_iter()
            .find(|m| m.content.contains(needle))
    })
    .await
}

/// No post was delivered twice: every message carries its own outbox nonce.
fn assert_posted_once(fake: &FakeDiscord) {
    let mut seen = std::collections::HashSet::new();
    for m in fake.messages() {
        let nonce = m.nonce.clone().expect("every post carries a nonce");
        assert!(seen.insert(nonce), "posted twice: {}", m.content);
    }
}

/// Runs a slash command and returns the bot's private answer.
async fn slash(
    fake: &FakeDiscord,
    who: &Person,
    channel: u64,
    name: &str,
    options: &[(&str, serde_json::Value)],
) -> String {
    let id = fake.slash(who, channel, name, options);
    fake.answer(id).await
}

/// Opens a game in the lobby and returns (lobby message, thread id).
async fn open_game(
    fake: &FakeDiscord,
    creator: &Person,
    variant: &str,
    options: &str,
) -> (Posted, u64) {
    let answer = slash(
        fake,
        creator,
        LOBBY,
        "play",
        &[("variant", json!(variant)), ("options", json!(options))],
    )
    .await;
    assert!(answer.contains("created"), "{answer}");
    let lobby = message_with(fake, LOBBY, "wants to play").await;
    let thread = fake
        .wait_until("the game's thread", WAIT, |f| {
            f.threads_of(LOBBY).contains(&lobby.id).then_some(lobby.id)
        })
        .await;
    (lobby, thread)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_chess_from_play_to_checkmate() {
    let dir = TempDir::new("discord-chess");
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");
    let bob = fake.person(102, "bob");
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;

    // Start-up registered the commands once, in the guild.
    let (global, guild, registrations) = fake.commands();
    assert!(global.is_empty());
    assert_eq!(registrations, 1);
    assert!(guild.iter().any(|c| c["name"] == "move"));

    let (lobby, thread) = open_game(&fake, &alice, "chess", "order=joined").await;
    assert!(lobby.custom_ids().contains(&"rookery:join:1".to_string()));
    let answer = fake
        .answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;
    assert!(
        answer.contains("joined") || answer.contains("You"),
        "{answer}"
    );
    let first = message_with(&fake, thread, "your move").await;
    assert!(first.content.contains("<@101>"), "{}", first.content);
    assert!(first.images.iter().any(|i| is_png(i)));

    for (who, mv) in [(&alice, "f3"), (&bob, "e5"), (&alice, "g4"), (&bob, "Qh4#")] {
        let answer = slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
        assert!(!answer.contains("not your turn"), "{mv}: {answer}");
    }
    let end = message_with(&fake, thread, "checkmate").await;
    assert!(end.content.contains("<@102>"), "{}", end.content);

    // One thread, and the lobby has the announcement and the start, once each.
    assert_eq!(fake.threads_of(LOBBY), vec![thread]);
    let lobby_posts: Vec<String> = fake
        .messages_in(LOBBY)
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(lobby_posts.len(), 2, "{lobby_posts:?}");
    assert!(
        lobby_posts[1].contains(&format!("<#{thread}>")),
        "{lobby_posts:?}"
    );
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

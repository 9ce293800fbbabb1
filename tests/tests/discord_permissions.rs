//! Discord's permissions against the fake Discord: where a moderator took from Rookery what it
//! needs, `/play` says privately which permissions are missing and starts nothing; a game whose
//! thread stops taking Rookery's posts goes on in its channel with a notice and loses nothing;
//! the binary logs at start-up what each channel lacks, in the words of Discord's settings, and
//! its invite link; and `rookery invite` prints that link without a token.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bot::discord::permissions::invite_url;
use bot::discord::serenity::Permissions;
use bot::model::GameId;
use rookery_tests::discord_story::{chess_game, connected, message_with, rookery_binary, slash};
use rookery_tests::fake_discord::{
    channel_name, FakeDiscord, Person, RunningBot, APPLICATION, GUILD, GUILD_NAME, LOBBY,
};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

/// The start of the line that opens each post of a game moved out of its thread.
const MOVED: &str =
    "I can no longer post in the game's thread (missing permission: Send Messages in Threads";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_where_rookery_lacks_permissions_names_them_privately_and_starts_nothing() {
    let dir = TempDir::new("discord-permissions-play");
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;

    // A moderator takes thread-making and files from Rookery in the lobby.
    fake.deny_permissions(
        LOBBY,
        Permissions::CREATE_PUBLIC_THREADS | Permissions::ATTACH_FILES,
    );
    let answer = slash(&fake, &alice, LOBBY, "play", &[("variant", json!("chess"))]).await;
    assert!(
        answer.contains("Create Public Threads, Attach Files."),
        "{answer}"
    );
    assert!(!answer.contains("Send Messages"), "{answer}");
    assert!(answer.contains("No game was started"), "{answer}");
    // Nothing was started: no game, no post, no thread, not even an attempt.
    assert!(bot.service.store().game(GameId(1)).await.unwrap().is_none());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(fake.messages_in(LOBBY).is_empty());
    assert!(fake.threads_of(LOBBY).is_empty());
    let posts: Vec<String> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/channels/"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(posts.is_empty(), "{posts:?}");

    // Only what is missing is named.
    fake.restore_permissions(LOBBY);
    fake.deny_permissions(LOBBY, Permissions::SEND_MESSAGES_IN_THREADS);
    let answer = slash(&fake, &alice, LOBBY, "play", &[("variant", json!("chess"))]).await;
    assert!(
        answer.contains("this permission here: Send Messages in Threads."),
        "{answer}"
    );

    // With everything given back, the same /play opens game 1.
    fake.restore_permissions(LOBBY);
    let (number, _) = fake.play(&alice, "chess", "order=joined").await;
    assert_eq!(number, 1);
    fake.wait_until("the game's thread", WAIT, |f| {
        (!f.threads_of(LOBBY).is_empty()).then_some(())
    })
    .await;
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// Alice and Bob at chess, with the bot connected and every permission given: the game's
/// thread, once it has asked White for a move.
async fn chess_in_its_thread(tag: &str) -> (TempDir, FakeDiscord, Person, Person, RunningBot, u64) {
    let (dir, fake, alice, bob, bot) = connected(tag).await;
    let thread = chess_game(&fake, &alice, &bob).await;
    (dir, fake, alice, bob, bot, thread)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_that_stops_taking_posts_moves_the_game_to_its_channel_with_a_notice() {
    let (_dir, fake, alice, bob, bot, thread) =
        chess_in_its_thread("discord-permissions-thread").await;

    // Mid-game a moderator takes Send Messages in Threads from Rookery in the lobby: Discord
    // refuses its posts in the game's thread (403, Missing Permissions).
    fake.deny_permissions(LOBBY, Permissions::SEND_MESSAGES_IN_THREADS);
    slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    let moved = message_with(&fake, LOBBY, "1. e4").await;
    assert!(moved.content.starts_with("Game 1: "), "{}", moved.content);
    assert!(moved.content.contains(MOVED), "{}", moved.content);
    assert!(
        moved.content.contains("the game goes on here"),
        "{}",
        moved.content
    );
    // Nothing of the post is lost: Bob is called, and the board comes along.
    assert!(moved.content.contains("<@102>"), "{}", moved.content);
    assert!(!moved.images.is_empty());
    let refused = fake
        .requests()
        .into_iter()
        .any(|r| r.method == "POST" && r.path == format!("/channels/{thread}/messages"));
    assert!(refused, "the thread was tried first");
    assert!(!fake
        .messages_in(thread)
        .iter()
        .any(|m| m.content.contains("1. e4")));

    // The game goes on in the lobby while the permission is missing...
    slash(&fake, &bob, thread, "move", &[("move", json!("e5"))]).await;
    let second = message_with(&fake, LOBBY, "1... e5").await;
    assert!(second.content.contains(MOVED), "{}", second.content);

    // ... and returns to its thread once it is given back.
    fake.restore_permissions(LOBBY);
    slash(&fake, &alice, thread, "move", &[("move", json!("Nf3"))]).await;
    let back = message_with(&fake, thread, "2. Nf3").await;
    assert!(!back.content.contains(MOVED), "{}", back.content);
    assert!(!fake
        .messages_in(LOBBY)
        .iter()
        .any(|m| m.content.contains("2. Nf3")));

    // Every post was delivered exactly once, wherever it went.
    let mut nonces = std::collections::HashSet::new();
    for m in fake.messages() {
        assert!(
            nonces.insert(m.nonce.clone().expect("every post carries a nonce")),
            "posted twice: {}",
            m.content
        );
    }
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// Review finding: Attach Files is taken from the whole channel, threads included, so the
/// channel refuses the board too; the post still arrives there, without the picture and saying
/// so, and nothing is lost or posted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_refused_everywhere_still_leaves_its_move_in_the_channel() {
    let (_dir, fake, alice, bob, bot, thread) =
        chess_in_its_thread("discord-permissions-attach").await;

    fake.deny_permissions(LOBBY, Permissions::ATTACH_FILES);
    slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    let moved = message_with(&fake, LOBBY, "1. e4").await;
    assert!(moved.content.contains(MOVED), "{}", moved.content);
    assert!(moved.content.contains("<@102>"), "{}", moved.content);
    assert!(moved.images.is_empty(), "the channel refuses files too");
    assert!(
        moved.content.contains("could not be attached"),
        "{}",
        moved.content
    );

    fake.restore_permissions(LOBBY);
    slash(&fake, &bob, thread, "move", &[("move", json!("e5"))]).await;
    let back = message_with(&fake, thread, "1... e5").await;
    assert!(!back.images.is_empty());
    let mut nonces = std::collections::HashSet::new();
    for m in fake.messages() {
        assert!(
            nonces.insert(m.nonce.clone().expect("every post carries a nonce")),
            "posted twice: {}",
            m.content
        );
    }
    fake.assert_interactions_answered();
    bot.stop().await;
}

// ---- the binary -------------------------------------------------------------------------------

/// A running `rookery` process, killed when dropped so a failing test leaves none behind.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until the log holds every one of `lines`; returns the whole log.
async fn log_with(log: &Path, lines: &[&str]) -> String {
    let started = Instant::now();
    loop {
        let said = std::fs::read_to_string(log).unwrap_or_default();
        if lines.iter().all(|line| said.contains(line)) {
            return said;
        }
        assert!(
            started.elapsed() < WAIT,
            "the log never said {lines:?}:\n{said}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_logs_what_rookery_lacks_in_each_channel_and_its_invite_link() {
    let dir = TempDir::new("discord-permissions-start");
    let fake = FakeDiscord::start().await;
    // Before Rookery connects, a moderator takes Attach Files from it in #games.
    fake.deny_permissions(LOBBY, Permissions::ATTACH_FILES);
    let log = dir.0.join("bot.log");
    let file = std::fs::File::create(&log).unwrap();
    let _bot = Command::new(rookery_binary())
        .env("DISCORD_TOKEN", "fake-token")
        .env("ROOKERY_DISCORD_API", fake.url())
        .env("ROOKERY_GUILD", GUILD.to_string())
        .env("ROOKERY_DB", dir.0.join("rookery.db"))
        // The default log filter, as an admin runs it.
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(file)
        .spawn()
        .map(Running)
        .unwrap();
    fake.wait_ready().await;

    let invite = invite_url(APPLICATION);
    let warning = format!(
        "In server {GUILD_NAME}, Rookery lacks Attach Files in #{}: boards cannot be posted there",
        channel_name(LOBBY)
    );
    let said = log_with(&log, &[&invite, &warning]).await;
    // Only what is missing is named.
    for fine in [
        "lacks Send Messages",
        "lacks Create Public Threads",
        "lacks Read Message History",
        "cannot see",
    ] {
        assert!(!said.contains(fine), "{fine}: {said}");
    }
}

#[test]
fn the_invite_command_prints_the_link_without_a_token() {
    let out = Command::new(rookery_binary())
        .args(["invite", "--client-id", &APPLICATION.to_string()])
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(printed.trim(), invite_url(APPLICATION));
    assert!(
        printed.contains("permissions=309237746688&scope=bot%20applications.commands"),
        "{printed}"
    );
}

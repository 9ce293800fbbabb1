//! Rematch and takeback through the fake Discord (issue 29): the game-over post's Rematch
//! button, and a takeback's Accept and Decline buttons, each with the presses that must be
//! refused (a non-player, a second press, an answer after the other side answered).

use std::time::Duration;

use rookery_tests::discord_story::{assert_posted_once, chess_game, message_with, settled, slash};
use rookery_tests::fake_discord::{FakeDiscord, Person, Posted, RunningBot, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

/// Waits for a message anywhere whose text contains `needle`.
async fn anywhere_with(fake: &FakeDiscord, needle: &str) -> Posted {
    fake.wait_until(&format!("a message with {needle:?}"), WAIT, |f| {
        f.messages()
            .into_iter()
            .find(|m| m.content.contains(needle))
    })
    .await
}

/// A fake Discord with alice, bob and carol in its server, and the bot connected to it.
async fn connected(tag: &str) -> (TempDir, FakeDiscord, [Person; 3], RunningBot) {
    let dir = TempDir::new(tag);
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");
    let bob = fake.person(102, "bob");
    let carol = fake.person(103, "carol");
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;
    (dir, fake, [alice, bob, carol], bot)
}

/// Presses `custom_id` on `message` as `who` and returns the private answer.
async fn press(fake: &FakeDiscord, who: &Person, message: &Posted, custom_id: &str) -> String {
    fake.answer(fake.press(who, message, custom_id)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_over_posts_rematch_button_starts_the_rematch_with_colours_swapped() {
    let (_dir, fake, [alice, bob, carol], bot) = connected("discord-rematch").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    for (who, mv) in [(&alice, "f3"), (&bob, "e5"), (&alice, "g4"), (&bob, "Qh4#")] {
        slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
    }
    let over = message_with(&fake, thread, "Game over").await;
    assert!(
        over.custom_ids().contains(&"rookery:rematch:1".to_string()),
        "{:?}",
        over.custom_ids()
    );

    let refused = press(&fake, &carol, &over, "rookery:rematch:1").await;
    assert!(refused.contains("did not play in game 1"), "{refused}");
    let asked = press(&fake, &alice, &over, "rookery:rematch:1").await;
    assert!(
        asked.contains("You asked for a rematch of game 1: game 2"),
        "{asked}"
    );
    let notice = message_with(&fake, thread, "asks for a rematch").await;
    assert!(notice.content.contains("<@102>"), "{}", notice.content);
    let twice = press(&fake, &alice, &over, "rookery:rematch:1").await;
    assert!(twice.contains("already asked"), "{twice}");

    // Bob answers from the button on the notice: the rematch starts, colours swapped.
    let started = press(&fake, &bob, &notice, "rookery:rematch:1").await;
    assert!(
        started.contains("Game 2, the rematch of game 1, has started"),
        "{started}"
    );
    let begins = anywhere_with(&fake, "Game 2 begins").await;
    assert!(
        begins
            .content
            .contains("<@102> plays White, <@101> plays Black"),
        "{}",
        begins.content
    );
    assert_ne!(
        begins.channel, thread,
        "the rematch has a thread of its own"
    );
    assert_eq!(fake.threads_of(LOBBY).len(), 2);
    message_with(&fake, thread, "The rematch of game 1 has begun").await;

    // Once made, it is named to a late press.
    let late = press(&fake, &bob, &over, "rookery:rematch:1").await;
    assert!(late.contains("already being played: game 2"), "{late}");
    let played = slash(
        &fake,
        &bob,
        begins.channel,
        "move",
        &[("move", json!("e4"))],
    )
    .await;
    assert!(played.contains("You played e4 in game 2"), "{played}");

    settled(&bot).await;
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_declined_and_one_accepted_with_the_buttons() {
    let (_dir, fake, [alice, bob, carol], bot) = connected("discord-takeback").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    slash(&fake, &bob, thread, "move", &[("move", json!("e5"))]).await;

    // Bob asks; alice declines with the button.
    let asked = slash(&fake, &bob, thread, "takeback", &[]).await;
    assert!(asked.contains("take back 1 move (e5)"), "{asked}");
    let request = message_with(&fake, thread, "asks to take back 1 move").await;
    let ids = request.custom_ids();
    assert!(
        ids.contains(&"rookery:takeback-yes:1".to_string())
            && ids.contains(&"rookery:takeback-no:1".to_string()),
        "{ids:?}"
    );
    let own = press(&fake, &bob, &request, "rookery:takeback-yes:1").await;
    assert!(own.contains("you asked for this takeback"), "{own}");
    let stranger = press(&fake, &carol, &request, "rookery:takeback-yes:1").await;
    assert!(stranger.contains("not playing in game 1"), "{stranger}");
    let declined = press(&fake, &alice, &request, "rookery:takeback-no:1").await;
    assert!(declined.contains("You declined"), "{declined}");
    message_with(&fake, thread, "declined the takeback").await;
    let again = press(&fake, &alice, &request, "rookery:takeback-yes:1").await;
    assert!(again.contains("already declined"), "{again}");
    let after = press(&fake, &bob, &request, "rookery:takeback-yes:1").await;
    assert!(after.contains("already declined by <@101>"), "{after}");

    // Alice asks to take back her e4 (and e5 after it); bob accepts with the button.
    let asked = slash(&fake, &alice, thread, "takeback", &[]).await;
    assert!(asked.contains("take back 2 moves (e4, e5)"), "{asked}");
    let request = message_with(&fake, thread, "asks to take back 2 moves").await;
    let accepted = press(&fake, &bob, &request, "rookery:takeback-yes:1").await;
    assert!(
        accepted.contains("Taken back in game 1: 2 moves (e4, e5)"),
        "{accepted}"
    );
    let board = message_with(&fake, thread, "takes back 2 moves").await;
    assert!(
        board.content.contains("<@101>, your move (White)"),
        "{}",
        board.content
    );
    assert!(!board.images.is_empty(), "the board is posted again");
    let twice = press(&fake, &bob, &request, "rookery:takeback-yes:1").await;
    assert!(twice.contains("already accepted"), "{twice}");
    // The position is the start again: e4 is White's to play once more.
    let played = slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    assert!(played.contains("You played e4 in game 1"), "{played}");

    settled(&bot).await;
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

//! Ratings through the fake Discord: a rated game's end posts each change in the thread;
//! `/rating` with a user option, `/leaderboard` and `/stats` answer privately; a casual game
//! changes nothing.

use std::time::Duration;

use rookery_tests::discord_story::{message_with, slash};
use rookery_tests::fake_discord::{FakeDiscord, Person, RunningBot, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

/// Opens game `number` of chess between alice (White) and bob; returns its thread.
async fn chess_game(fake: &FakeDiscord, alice: &Person, bob: &Person, options: &str) -> u64 {
    let (number, lobby) = fake
        .play(alice, "chess", &format!("order=joined {options}"))
        .await;
    let thread = fake
        .wait_until("the game's thread", WAIT, |f| {
            f.threads_of(LOBBY).contains(&lobby.id).then_some(lobby.id)
        })
        .await;
    fake.answer(fake.press(bob, &lobby, &format!("rookery:join:{number}")))
        .await;
    message_with(fake, thread, "your move").await;
    thread
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_posts_the_changes_and_the_commands_answer_privately() {
    let dir = TempDir::new("discord-ratings");
    let fake = FakeDiscord::start().await;
    let alice = fake.person(101, "alice");
    let bob = fake.person(102, "bob");
    let carol = fake.person(103, "carol");
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;

    // A casual game first: its end posts no rating.
    let casual = chess_game(&fake, &alice, &bob, "rated=no").await;
    for (who, mv) in [(&alice, "e4"), (&bob, "e5")] {
        slash(&fake, who, casual, "move", &[("move", json!(mv))]).await;
    }
    slash(&fake, &alice, casual, "resign", &[]).await;
    message_with(&fake, casual, "Game over").await;

    // Fool's mate, rated: the thread gives each player's change.
    let thread = chess_game(&fake, &alice, &bob, "").await;
    for (who, mv) in [(&alice, "f3"), (&bob, "e5"), (&alice, "g4"), (&bob, "Qh4#")] {
        let answer = slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
        assert!(answer.contains("You played"), "{mv}: {answer}");
    }
    let changes = message_with(&fake, thread, "Ratings (Chess):").await;
    assert_eq!(
        changes.content,
        "Ratings (Chess): alice 1500? → 1338? (-162), bob 1500? → 1662? (+162)."
    );
    assert!(
        fake.messages_in(casual)
            .iter()
            .all(|m| !m.content.contains("Ratings")),
        "a casual game rates nobody"
    );

    // /rating of another player, by Discord's user option, answered privately.
    let id = fake.slash_with_users(
        &carol,
        LOBBY,
        "rating",
        &[("variant", json!("chess"))],
        &[("user", &bob)],
    );
    let rating = fake.answer(id).await;
    assert!(
        rating.contains("Ratings of bob on this server:")
            && rating
                .contains("- Chess: 1662? (deviation 290; 1 rated game: 1 win, 0 draws, 0 losses)"),
        "{rating}"
    );
    let i = fake.interactions().last().cloned().unwrap();
    assert_eq!(i.callbacks[0].2["data"]["flags"], json!(64), "private");

    let board = slash(
        &fake,
        &carol,
        LOBBY,
        "leaderboard",
        &[("variant", json!("chess"))],
    )
    .await;
    assert!(
        board.contains("Leaderboard of Chess on this server:"),
        "{board}"
    );
    assert!(
        board.contains(
            "Provisional (deviation above 110): bob 1662? (1 game), alice 1338? (1 game)."
        ),
        "{board}"
    );
    let unknown = slash(
        &fake,
        &carol,
        LOBBY,
        "leaderboard",
        &[("variant", json!("chezz"))],
    )
    .await;
    assert!(unknown.contains("unknown variant 'chezz'"), "{unknown}");

    let id = fake.slash_with_users(&carol, LOBBY, "stats", &[], &[("user", &alice)]);
    let stats = fake.answer(id).await;
    assert!(
        stats.contains("- Chess: 2 games (0 wins, 0 draws, 2 losses); rating 1338?")
            && stats.contains("No game in progress."),
        "{stats}"
    );
    let nobody = slash(&fake, &carol, LOBBY, "rating", &[]).await;
    assert!(
        nobody.starts_with("carol has no rating on this server yet"),
        "{nobody}"
    );

    fake.assert_interactions_answered();
    bot.stop().await;
}

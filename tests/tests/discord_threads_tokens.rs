//! Discord behaviours the first fake did not model, each played end to end against the fake:
//! a game's thread that archived itself (reopened, the post arriving where it belongs) or that a
//! moderator locked (replaced, the game going on in the new one); interaction tokens that
//! expired before the answer was ready (the answer going to the channel, by direct message or
//! to `/inbox`, never lost and never a private text in public); and the longest texts the games
//! produce, inside every limit Discord states.

use std::time::Duration;

use rookery_tests::discord_story::{chess_game, connected, message_with, settled, slash};
use rookery_tests::fake_discord::{FakeDiscord, Fault, Person, RunningBot, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(30);

/// Every follow-up text of interaction `id`, once `done` holds of them joined.
async fn whole_answer(fake: &FakeDiscord, id: u64, done: impl Fn(&str) -> bool) -> Vec<String> {
    fake.wait_until("the whole answer", WAIT, |f| {
        let parts: Vec<String> = f
            .interaction(id)?
            .followups
            .into_iter()
            .map(|(text, _)| text)
            .collect();
        done(&parts.concat()).then_some(parts)
    })
    .await
}

// ---- archived and locked threads ------------------------------------------------------------

/// A game's thread archives itself after a week without messages. The next move reaches it
/// all the same: Discord refuses the post (50083), the bot unarchives the thread and posts
/// again, and the game goes on in the same thread. (A reminder and a timeout are posts of the
/// same outbox, delivered the same way.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_thread_is_reopened_and_the_move_posted_in_it() {
    let (_dir, fake, alice, bob, bot) = connected("discord-archived").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    settled(&bot).await;
    // The bot asks for Discord's longest wait, a week, before a quiet thread archives.
    assert_eq!(fake.auto_archive_duration(thread), Some(10080));

    fake.archive_thread(thread);
    let answer = slash(
        &fake,
        &alice,
        LOBBY,
        "move",
        &[("move", json!("e4")), ("game", json!(1))],
    )
    .await;
    assert!(!answer.contains("not your turn"), "{answer}");
    message_with(&fake, thread, "1. e4").await;
    assert_eq!(fake.thread_archived(thread), Some((false, false)));
    let reopened = fake.requests().into_iter().any(|r| {
        r.method == "PATCH"
            && r.path == format!("/channels/{thread}")
            && r.json
                .as_ref()
                .is_some_and(|j| j["archived"] == json!(false))
    });
    assert!(
        reopened,
        "the thread was unarchived with PATCH archived=false"
    );
    // No new thread: the game stays where its story is.
    assert_eq!(fake.threads_of(LOBBY), vec![thread]);
    slash(&fake, &bob, thread, "move", &[("move", json!("e5"))]).await;
    message_with(&fake, thread, "1... e5").await;

    fake.assert_interactions_answered();
    bot.stop().await;
}

/// A thread a moderator locked cannot be reopened by the bot (only Manage Threads may): like
/// a deleted thread it is replaced by a new one, and the game is played on there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_thread_is_replaced_and_the_game_goes_on_in_the_new_one() {
    let (_dir, fake, alice, bob, bot) = connected("discord-locked").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    settled(&bot).await;

    fake.lock_thread(thread);
    slash(
        &fake,
        &alice,
        LOBBY,
        "move",
        &[("move", json!("e4")), ("game", json!(1))],
    )
    .await;
    let renewed = fake
        .wait_until("a new thread", WAIT, |f| {
            f.threads_of(LOBBY).into_iter().find(|&t| t != thread)
        })
        .await;
    message_with(&fake, renewed, "1. e4").await;
    // The locked thread was left as the moderator left it.
    assert_eq!(fake.thread_archived(thread), Some((true, true)));
    assert!(!fake
        .messages_in(thread)
        .iter()
        .any(|m| m.content.contains("1. e4")));
    assert_eq!(fake.auto_archive_duration(renewed), Some(10080));

    // The game is played on in the new thread, found from it.
    slash(&fake, &bob, renewed, "move", &[("move", json!("e5"))]).await;
    message_with(&fake, renewed, "1... e5").await;

    fake.assert_interactions_answered();
    bot.stop().await;
}

// ---- interaction tokens that expired --------------------------------------------------------

/// A private answer whose token expired before it was ready comes by direct message, whole
/// (the rules of Doubles, longer than one message, in parts), and nothing of it in public. A
/// pressed button's answer does the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_answer_past_its_token_comes_by_direct_message() {
    let (_dir, fake, alice, bob, bot) = connected("discord-expired-private").await;
    let (_, lobby) = fake.play(&alice, "chess", "order=joined").await;

    fake.expire_tokens_after_callback(true);
    let id = fake.slash(&alice, LOBBY, "rules", &[("variant", json!("doubles"))]);
    let dms = fake
        .wait_until("the rules by direct message", WAIT, |f| {
            let dms = f.dms_to(alice.id);
            let whole: String = dms.iter().map(|m| m.content.as_str()).collect();
            (whole.contains("friendly corners") && whole.contains("repetition, draws"))
                .then_some(dms)
        })
        .await;
    assert!(dms.len() >= 2, "the rules come in parts");
    assert!(dms.iter().all(|m| m.content.chars().count() <= 2000));
    let whole: String = dms.iter().map(|m| m.content.as_str()).collect();
    assert!(!whole.contains('…'), "nothing cut off");
    let rules = fake.interaction(id).unwrap();
    assert!(rules.followups.is_empty());
    assert!(
        rules.expired_followups >= 1,
        "Discord refused the follow-up"
    );
    assert!(!fake
        .messages_in(LOBBY)
        .iter()
        .any(|m| m.content.contains("friendly corners")));

    // Bob joins by the button; its answer too finds the token expired and comes by DM.
    let press = fake.press(&bob, &lobby, "rookery:join:1");
    let answer = fake
        .wait_until("bob's answer by direct message", WAIT, |f| {
            f.dms_to(bob.id).into_iter().next()
        })
        .await;
    assert!(!answer.content.is_empty());
    assert!(fake.interaction(press).unwrap().followups.is_empty());
    assert!(!fake
        .messages_in(LOBBY)
        .iter()
        .any(|m| m.content == answer.content));

    fake.assert_interactions_answered();
    bot.stop().await;
}

/// A public answer whose token expired (a finished game's record, for everyone) is posted in
/// the thread where it was asked for, with its file; the private note that it was shared is
/// dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_answer_past_its_token_is_posted_in_the_channel() {
    let (_dir, fake, alice, bob, bot) = connected("discord-expired-public").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    for (who, mv) in [(&alice, "f3"), (&bob, "e5"), (&alice, "g4"), (&bob, "Qh4#")] {
        slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
    }
    message_with(&fake, thread, "checkmate").await;

    fake.expire_tokens_after_callback(true);
    let id = fake.slash(&bob, thread, "export", &[]);
    let shared = message_with(&fake, thread, "as PGN").await;
    let pgn = shared
        .images
        .iter()
        .find(|bytes| bytes.starts_with(b"[Event"))
        .map(|bytes| String::from_utf8_lossy(bytes).to_string())
        .expect("the record attached");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(fake.interaction(id).unwrap().followups.is_empty());
    assert!(
        fake.dms_to(bob.id).is_empty(),
        "nothing private to send: the note that it was shared is dropped"
    );

    fake.assert_interactions_answered();
    bot.stop().await;
}

/// A private answer past its token, to someone whose direct messages are closed, is kept for
/// `/inbox`; the channel is told only that it is there, never what it says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_answer_past_its_token_with_closed_dms_waits_in_the_inbox() {
    let (_dir, fake, alice, bob, bot) = connected("discord-expired-inbox").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    settled(&bot).await;

    fake.expire_tokens_after_callback(true);
    fake.fail_next_dm(alice.id, Fault::DirectMessagesClosed);
    fake.slash(&alice, thread, "moves", &[]);
    let notice = message_with(&fake, thread, bot::discord::EXPIRED_ANSWER_KEPT).await;
    assert!(notice.content.contains("<@101>"), "{}", notice.content);
    for post in fake.messages() {
        assert!(
            !post.content.contains("Your moves"),
            "the private answer reached a channel: {}",
            post.content
        );
    }

    fake.expire_tokens_after_callback(false);
    let inbox = slash(&fake, &alice, LOBBY, "inbox", &[]).await;
    assert!(inbox.contains("Your moves in game 1"), "{inbox}");
    assert!(inbox.contains("Nf3"), "{inbox}");

    fake.assert_interactions_answered();
    bot.stop().await;
}

// ---- the longest texts, inside Discord's limits ---------------------------------------------

/// The seat of a post's "<@id>, your move".
fn to_move(content: &str) -> Option<u64> {
    let before = &content[..content.find(", your move")?];
    let mention = &before[before.rfind("<@")? + 2..];
    mention.trim_end_matches('>').parse().ok()
}

/// Asserts every text the fake received fits: posts, follow-ups and callbacks (the fake
/// refuses what does not, so a text over a limit would also be missing).
fn assert_all_fit(fake: &FakeDiscord) {
    for m in fake.messages() {
        let n = m.content.chars().count();
        assert!(n <= 2000, "a post of {n} characters");
        assert!(!m.content.ends_with('…'), "a post cut off: {}", m.content);
        assert!(m.menu_options().len() <= 25, "a menu of too many options");
        assert!(m.images.len() <= 10, "too many files");
    }
    for i in fake.interactions() {
        for text in i.texts() {
            assert!(text.chars().count() <= 2000, "an answer too long");
        }
    }
}

/// Eight players with Discord's longest display names at Betza's chess for eight; a dozen
/// games more; then the longest texts Rookery builds: the eight-player captions, `/games`,
/// `/history` over two pages, the rules of Doubles. Every one fits a message or comes whole in
/// parts, nothing cut off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_longest_texts_fit_discords_limits() {
    let dir = TempDir::new("discord-longest");
    let fake = FakeDiscord::start().await;
    // 31 characters each, Discord allowing 32.
    let players: Vec<Person> = (0..8u64)
        .map(|n| fake.person(201 + n, &format!("player-with-a-very-long-name-{n:02}")))
        .collect();
    let bot = RunningBot::start(&fake, &dir.0.join("r.db"), Some(GUILD)).await;
    fake.wait_ready().await;

    // Betza for eight: seven join by the button, the game starts when the last seat is taken.
    let id = fake.slash(
        &players[0],
        LOBBY,
        "play",
        &[
            ("variant", json!("betza")),
            ("options", json!("order=joined")),
            ("players", json!(8)),
        ],
    );
    let created = fake.answer(id).await;
    assert!(created.starts_with("Game 1 "), "{created}");
    let lobby = message_with(&fake, LOBBY, "(game 1:").await;
    for p in &players[1..] {
        fake.answer(fake.press(p, &lobby, "rookery:join:1")).await;
    }
    let thread = lobby.id;
    message_with(&fake, thread, "your move").await;

    // A round of moves, each player taking the first move offered.
    let mut seen = 0;
    for _ in 0..8 {
        let (mover, count) = fake
            .wait_until("whose move it is", WAIT, |f| {
                let posts = f.messages_in(thread);
                let mover = posts[seen.min(posts.len())..]
                    .iter()
                    .rev()
                    .find_map(|m| to_move(&m.content))?;
                Some((mover, posts.len()))
            })
            .await;
        seen = count;
        let who = players.iter().find(|p| p.id == mover).expect("a player");
        let offered = fake
            .choices(fake.autocomplete(who, thread, "move", "move", "", &[]))
            .await;
        let first = offered.first().expect("a legal move").clone();
        let answer = slash(&fake, who, thread, "move", &[("move", json!(first))]).await;
        assert!(!answer.contains("not your turn"), "{answer}");
    }
    // Seven resign; the last one standing wins.
    for p in &players[1..] {
        slash(&fake, p, LOBBY, "resign", &[("game", json!(1))]).await;
    }
    message_with(&fake, thread, "Game over").await;

    // Twelve games of chess more for the first player, each resigned at once, and eight left
    // open: twenty-one games in all.
    let (first, second) = (&players[0], &players[1]);
    for n in 2..=13 {
        let (number, lobby) = fake.play(first, "chess", "order=joined").await;
        assert_eq!(number, n);
        fake.answer(fake.press(second, &lobby, &format!("rookery:join:{n}")))
            .await;
        slash(&fake, first, LOBBY, "resign", &[("game", json!(n))]).await;
    }
    for _ in 14..=21 {
        fake.play(first, "chess", "order=joined").await;
    }
    settled(&bot).await;

    // /games: twenty lines with long names, over one message: in parts, whole.
    let id = fake.slash(first, LOBBY, "games", &[]);
    let parts = whole_answer(&fake, id, |t| t.matches("- Game ").count() >= 20).await;
    assert!(parts.iter().all(|p| p.chars().count() <= 2000));
    assert!(!parts.concat().contains('…'));

    // /history over two pages: every finished game on one of them.
    let id = fake.slash(first, LOBBY, "history", &[]);
    let page1 = whole_answer(&fake, id, |t| t.contains("More with page:2.")).await;
    let id = fake.slash(first, LOBBY, "history", &[("page", json!(2))]);
    let page2 = whole_answer(&fake, id, |t| t.contains("page 2 of 2")).await;
    let both = format!("{}\n{}", page1.concat(), page2.concat());
    for n in 1..=13 {
        assert!(both.contains(&format!("- Game {n} ·")), "game {n}: {both}");
    }
    assert!(both.contains("Chess for Any Number of Players"), "{both}");
    assert!(page1
        .iter()
        .chain(&page2)
        .all(|p| p.chars().count() <= 2000));

    // The longest rules: whole, in parts.
    let id = fake.slash(first, LOBBY, "rules", &[("variant", json!("doubles"))]);
    let rules = whole_answer(&fake, id, |t| t.contains("repetition, draws")).await;
    assert!(rules.len() >= 2 && rules.iter().all(|p| p.chars().count() <= 2000));

    assert_all_fit(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// A secret choice offered as a select menu holds at most Discord's 25 options; with more (the
/// second turn of Synchronous Chess, over thirty moves) there is no menu, and the prompt says
/// to type `/secret`, where autocomplete offers the choices 25 at a time, filtered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_choice_of_more_than_25_options_is_typed_not_a_menu() {
    let (_dir, fake, alice, bob, bot) = connected("discord-menu-limit").await;
    let (_, lobby) = fake.play(&alice, "synchronous", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;

    for (who, choice) in [(&alice, "e4"), (&bob, "d5")] {
        let menu = fake
            .wait_until("a menu", WAIT, |f| {
                f.dms_to(who.id)
                    .into_iter()
                    .rev()
                    .find(|m| m.menu_options().iter().any(|o| o == choice))
            })
            .await;
        assert!(menu.menu_options().len() <= 25);
        let custom_id = menu
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("rookery:secret:"))
            .expect("a secret menu");
        let answer = fake
            .answer(fake.select(who, &menu, &custom_id, choice))
            .await;
        assert!(answer.contains("Noted in secret"), "{answer}");
    }
    let second = fake
        .wait_until("the second turn's prompt", WAIT, |f| {
            f.dms_to(alice.id)
                .into_iter()
                .find(|m| m.content.contains("turn 2"))
        })
        .await;
    assert!(
        second.menu_options().is_empty(),
        "no menu of over 25 options"
    );
    assert!(second.content.contains("/secret"), "{}", second.content);
    let dm = fake.dm_channel(alice.id).expect("a DM channel");
    let offered = fake
        .choices(fake.autocomplete(&alice, dm, "secret", "choice", "", &[]))
        .await;
    assert_eq!(offered.len(), 25, "{offered:?}");

    assert_all_fit(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

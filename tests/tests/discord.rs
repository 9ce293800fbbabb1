//! The Discord frontend end to end: the real bot code against the fake Discord in
//! `rookery_tests::fake_discord`, each test a whole user story. Every test ends by checking
//! that every interaction was answered exactly once within Discord's 3 seconds.

use std::time::Duration;

use rookery_tests::discord_story::{assert_posted_once, connected, message_with, settled, slash};
use rookery_tests::fake_discord::{FakeDiscord, Person, Posted, RunningBot, GUILD, LOBBY};
use rookery_tests::TempDir;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// Opens a game in the lobby and returns (lobby message, thread id).
async fn open_game(
    fake: &FakeDiscord,
    creator: &Person,
    variant: &str,
    options: &str,
) -> (Posted, u64) {
    let (_, lobby) = fake.play(creator, variant, options).await;
    let thread = fake
        .wait_until("the game's thread", WAIT, |f| {
            f.threads_of(LOBBY).contains(&lobby.id).then_some(lobby.id)
        })
        .await;
    (lobby, thread)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_chess_from_play_to_checkmate() {
    let (_dir, fake, alice, bob, bot) = connected("discord-chess").await;

    // No privileged intent (server members, presences, message content) is asked for.
    let privileged = (1 << 1) | (1 << 8) | (1 << 15);
    assert_eq!(fake.intents().expect("identified") & privileged, 0);

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

    // /play inside a game's thread is refused privately: threads cannot hold threads.
    let inside = slash(&fake, &bob, thread, "play", &[("variant", json!("chess"))]).await;
    assert!(inside.contains("not inside a thread"), "{inside}");

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

/// Waits for a DM to `who` offering `option` in its select menu.
async fn dm_menu_with(fake: &FakeDiscord, who: &Person, option: &str) -> Posted {
    fake.wait_until(&format!("a DM menu with {option}"), WAIT, |f| {
        f.dms_to(who.id)
            .into_iter()
            .rev()
            .find(|m| m.menu_options().iter().any(|o| o == option))
    })
    .await
}

/// Picks `choice` from the newest DM menu offering it.
async fn choose(fake: &FakeDiscord, who: &Person, choice: &str) -> String {
    let menu = dm_menu_with(fake, who, choice).await;
    let id = menu
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with("rookery:secret:"))
        .expect("a secret menu");
    fake.answer(fake.select(who, &menu, &id, choice)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zombie_chess_burials_from_the_direct_message_menu() {
    let (_dir, fake, alice, bob, bot) = connected("discord-zombie").await;
    let (lobby, thread) = open_game(&fake, &alice, "zombie", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;

    // The Chess Kit's example: each capture is buried in secret, chosen from the DM menu.
    for (who, mv) in [
        (&alice, "e4"),
        (&bob, "e5"),
        (&alice, "Nf3"),
        (&bob, "Nc6"),
        (&alice, "d4"),
        (&bob, "exd4"),
    ] {
        slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
    }
    let answer = choose(&fake, &bob, "c6").await;
    assert!(answer.contains("Noted in secret"), "{answer}");
    message_with(&fake, thread, "Black has buried the white pawn").await;
    slash(&fake, &alice, thread, "move", &[("move", json!("Nxd4"))]).await;
    choose(&fake, &alice, "b2").await;
    slash(&fake, &bob, thread, "move", &[("move", json!("Nxd4"))]).await;
    message_with(&fake, thread, "rises from the grave on c6").await;
    choose(&fake, &bob, "g7").await;

    // Each burier's private burial grid came to them as an image.
    assert!(fake
        .dms_to(bob.id)
        .iter()
        .any(|m| m.images.iter().any(|i| is_png(i))));

    // The menu's answer to a choice nobody asks for any more is a clear refusal.
    let stale = dm_menu_with(&fake, &bob, "c6").await;
    let again = fake
        .answer(fake.select(&bob, &stale, "rookery:secret:1", "c6"))
        .await;
    assert!(!again.contains("Noted"), "{again}");

    // No burial of Black's reached the thread, White's DMs or any answer White was given (nor
    // White's burial Black's); the squares are named only to their owner.
    let answers_to = |user: u64| -> Vec<String> {
        fake.interactions()
            .into_iter()
            .filter(|i| i.user == user)
            .flat_map(|i| i.texts())
            .collect()
    };
    let thread_posts: Vec<String> = fake
        .messages_in(thread)
        .into_iter()
        .map(|m| m.content)
        .collect();
    let seen_by = |user: u64| -> Vec<String> {
        fake.dms_to(user)
            .into_iter()
            .map(|m| m.content)
            .chain(answers_to(user))
            .chain(thread_posts.clone())
            .collect()
    };
    for text in seen_by(alice.id) {
        for secret in ["under c6", "under g7", ": c6", ": g7"] {
            assert!(!text.contains(secret), "leaked to White: {text}");
        }
    }
    for text in seen_by(bob.id) {
        for secret in ["under b2", ": b2"] {
            assert!(!text.contains(secret), "leaked to Black: {text}");
        }
    }

    // Alice resigns with the button on the latest board post; the secrets are told then.
    let board = fake
        .wait_until("a post with a Resign button", WAIT, |f| {
            f.messages_in(thread)
                .into_iter()
                .rev()
                .find(|m| m.custom_ids().contains(&"rookery:resign:1".to_string()))
        })
        .await;
    fake.answer(fake.press(&alice, &board, "rookery:resign:1"))
        .await;
    message_with(&fake, thread, "Black buried the white pawn under c6").await;

    // A button of the finished game answers privately instead of failing.
    let late = fake
        .answer(fake.press(&bob, &board, "rookery:draw:1"))
        .await;
    assert!(late.contains("over"), "{late}");
    let unknown = fake
        .answer(fake.press(&bob, &board, "someone-elses:button"))
        .await;
    assert!(unknown.contains("no longer in use"), "{unknown}");
    // A slash command left over from an older registration is answered too.
    let gone = slash(&fake, &bob, thread, "teleport", &[]).await;
    assert!(gone.contains("no such command"), "{gone}");

    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn synchronous_moves_sealed_from_the_menu_and_with_secret_autocomplete() {
    let (_dir, fake, alice, bob, bot) = connected("discord-sync").await;
    let (lobby, thread) = open_game(&fake, &alice, "synchronous", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;

    // Alice seals e4 from the menu in her DMs.
    let answer = choose(&fake, &alice, "e4").await;
    assert!(answer.contains("Noted in secret"), "{answer}");
    message_with(&fake, thread, "White has written down a choice").await;

    // Bob types /secret in his DMs: autocomplete offers his legal moves, filtered.
    let dm = fake.dm_channel(bob.id).expect("bob has a DM channel");
    let offered = fake
        .choices(fake.autocomplete(&bob, dm, "secret", "choice", "d", &[]))
        .await;
    assert!(offered.contains(&"d5".to_string()), "{offered:?}");
    assert!(
        offered.len() <= 25 && offered.iter().all(|c| c.contains('d')),
        "{offered:?}"
    );
    let answer = slash(&fake, &bob, dm, "secret", &[("choice", json!("d5"))]).await;
    assert!(answer.contains("Noted in secret"), "{answer}");
    let turn = message_with(&fake, thread, "Turn 1:").await;
    assert!(
        turn.content.contains("White e4, Black d5"),
        "{}",
        turn.content
    );

    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_autocomplete_lists_legal_moves_filtered_and_fast() {
    let (_dir, fake, alice, bob, bot) = connected("discord-autocomplete").await;
    let (lobby, thread) = open_game(&fake, &alice, "chess", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;
    message_with(&fake, thread, "your move").await;

    let all = fake
        .choices(fake.autocomplete(&alice, thread, "move", "move", "", &[]))
        .await;
    assert_eq!(all.len(), 20, "{all:?}");
    let knights = fake
        .choices(fake.autocomplete(&alice, thread, "move", "move", "N", &[]))
        .await;
    let mut knights_sorted = knights.clone();
    knights_sorted.sort();
    assert_eq!(knights_sorted, ["Na3", "Nc3", "Nf3", "Nh3"]);
    // Bob, not to move, is offered nothing to play.
    let none = fake
        .choices(fake.autocomplete(&bob, thread, "move", "move", "", &[]))
        .await;
    assert!(
        none.is_empty() || !none.contains(&"e4".to_string()),
        "{none:?}"
    );

    fake.assert_interactions_answered();
    bot.stop().await;
}

/// Starts a bot and a chess game between alice (White) and bob; returns the thread.
async fn chess_game(fake: &FakeDiscord, alice: &Person, bob: &Person) -> u64 {
    let (lobby, thread) = open_game(fake, alice, "chess", "order=joined").await;
    fake.answer(fake.press(bob, &lobby, "rookery:join:1")).await;
    message_with(fake, thread, "your move").await;
    thread
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_direct_messages_are_kept_for_the_inbox() {
    let (_dir, fake, alice, bob, bot) = connected("discord-dms").await;
    // Bob's DMs are closed when the game asks for his first sealed move.
    fake.fail_next_dm(
        bob.id,
        rookery_tests::fake_discord::Fault::DirectMessagesClosed,
    );
    let (lobby, thread) = open_game(&fake, &alice, "synchronous", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;

    let notice = message_with(&fake, thread, "could not send you a direct message").await;
    assert!(notice.content.contains("<@102>") && notice.content.contains("/inbox"));
    assert!(
        !notice.content.contains("write down"),
        "the thread must not get the content"
    );
    let inbox = slash(&fake, &bob, thread, "inbox", &[]).await;
    assert!(inbox.contains("write down your move"), "{inbox}");
    // The /inbox answer was private.
    let i = fake.interactions().last().cloned().unwrap();
    assert_eq!(i.callbacks[0].2["data"]["flags"], json!(64));

    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_refused_for_a_moment_are_retried_never_lost_or_doubled() {
    use rookery_tests::fake_discord::Fault;
    let (_dir, fake, alice, bob, bot) = connected("discord-retry").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    settled(&bot).await;

    fake.fail_next(
        "POST",
        "/channels/*/messages",
        Fault::RateLimited { retry_after: 1 },
    );
    fake.fail_next("POST", "/channels/*/messages", Fault::ServerError);
    fake.fail_next("POST", "/channels/*/messages", Fault::Hang);
    slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    let posted = fake
        .wait_until(
            "e4 announced after the failures",
            Duration::from_secs(30),
            |f| {
                f.messages_in(thread)
                    .into_iter()
                    .find(|m| m.content.contains("1. e4"))
            },
        )
        .await;
    assert!(posted.content.contains("White played"));
    // Three failed attempts, then the post; later posts waited their turn behind it.
    let attempts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{thread}/messages"))
        .filter(|r| {
            r.json
                .as_ref()
                .and_then(|j| j["content"].as_str())
                .is_some_and(|c| c.contains("1. e4"))
        })
        .count();
    assert_eq!(attempts, 4);
    slash(&fake, &bob, thread, "move", &[("move", json!("e5"))]).await;
    message_with(&fake, thread, "1... e5").await;

    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_resumes_after_a_drop_and_reidentifies_after_op_9() {
    let (_dir, fake, alice, bob, bot) = connected("discord-gateway").await;
    let thread = chess_game(&fake, &alice, &bob).await;

    // The connection drops; a command sent meanwhile is replayed on RESUME.
    fake.drop_connection();
    let answer = slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    assert!(answer.contains("e4"), "{answer}");
    let (_, identifies, resumes, _) = fake.gateway_counts();
    assert_eq!((identifies, resumes), (1, 1));

    // Op 7: reconnect and resume.
    fake.request_reconnect();
    fake.wait_until("a second resume", WAIT, |f| {
        (f.gateway_counts().2 >= 2).then_some(())
    })
    .await;
    slash(&fake, &bob, thread, "move", &[("move", json!("e5"))]).await;

    // A close frame with code 4000 (unknown error): reconnect and resume again.
    fake.close_connection(4000);
    fake.wait_until("a third resume", WAIT, |f| {
        (f.gateway_counts().2 >= 3).then_some(())
    })
    .await;

    // Op 9 (not resumable): a new IDENTIFY, and the commands are not registered again.
    fake.invalidate_session(false);
    fake.wait_until("a second IDENTIFY", WAIT, |f| {
        (f.gateway_counts().1 >= 2).then_some(())
    })
    .await;
    fake.wait_ready().await;
    let answer = slash(&fake, &alice, thread, "move", &[("move", json!("Nf3"))]).await;
    assert!(answer.contains("Nf3"), "{answer}");
    assert_eq!(fake.commands().2, 1, "commands registered once");
    // The connection is kept alive with heartbeats, each acknowledged.
    fake.wait_until("a heartbeat", WAIT, |f| {
        (f.gateway_counts().3 >= 1).then_some(())
    })
    .await;

    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_retries_a_passing_failure_and_stops_on_a_refusal() {
    use rookery_tests::fake_discord::Fault;
    let dir = TempDir::new("discord-startup");

    // Discord fails once: the registration is tried again and the bot connects.
    let fake = FakeDiscord::start().await;
    fake.fail_next("PUT", "/applications/*/commands", Fault::ServerError);
    let bot = RunningBot::start(&fake, &dir.0.join("a.db"), None).await;
    fake.wait_ready().await;
    let (global, _, registrations) = fake.commands();
    assert_eq!(registrations, 1);
    assert!(!global.is_empty());
    bot.stop().await;

    // Discord refuses the commands: the bot says why and stops instead of hanging.
    let fake = FakeDiscord::start().await;
    fake.fail_next("PUT", "/applications/*/guilds/*/commands", Fault::Invalid);
    let bot = RunningBot::start(&fake, &dir.0.join("b.db"), Some(GUILD)).await;
    let outcome = bot.outcome(Duration::from_secs(10)).await;
    let error = outcome.expect_err("start-up must fail");
    assert!(error.contains("register"), "{error}");
    assert_eq!(
        fake.gateway_counts().0,
        0,
        "no gateway connection without commands"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_whose_answer_was_lost_is_recognised_not_repeated() {
    use rookery_tests::fake_discord::Fault;
    let (_dir, fake, alice, bob, bot) = connected("discord-lost-answer").await;
    // Discord posts the announcement but the bot never hears so; then it makes the thread but
    // never hears that either. The retries must find both, not make them again.
    fake.fail_next("POST", "/channels/*/messages", Fault::AnswerLost);
    fake.fail_next("POST", "/channels/*/messages/*/threads", Fault::AnswerLost);
    let (lobby, thread) = open_game(&fake, &alice, "chess", "order=joined").await;
    message_with(&fake, thread, "waiting for 1 more player").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;
    message_with(&fake, thread, "your move").await;
    settled(&bot).await;

    let announcements = fake
        .messages_in(LOBBY)
        .iter()
        .filter(|m| m.content.contains("wants to play"))
        .count();
    assert_eq!(announcements, 1);
    assert_eq!(fake.threads_of(LOBBY), vec![thread]);
    let thread_attempts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/threads"))
        .count();
    assert!(thread_attempts >= 2, "the thread was asked for again");
    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_games_stuck_post_does_not_hold_up_another_game() {
    use rookery_tests::fake_discord::Fault;
    let (_dir, fake, alice, bob, bot) = connected("discord-two-games").await;
    let first = chess_game(&fake, &alice, &bob).await;
    let carol = fake.person(103, "carol");
    let dave = fake.person(104, "dave");
    let (lobby, second) = open_game(&fake, &carol, "chess", "order=joined").await;
    fake.answer(fake.press(&dave, &lobby, "rookery:join:2"))
        .await;
    message_with(&fake, second, "your move").await;
    settled(&bot).await;

    // Game 1's thread fails for a while; game 2 goes on meanwhile.
    for _ in 0..2 {
        fake.fail_next(
            "POST",
            &format!("/channels/{first}/messages"),
            Fault::ServerError,
        );
    }
    slash(&fake, &alice, first, "move", &[("move", json!("e4"))]).await;
    let answer = slash(&fake, &carol, second, "move", &[("move", json!("d4"))]).await;
    assert!(answer.contains("d4"), "{answer}");
    let went = fake
        .wait_until("game 2's move posted", WAIT, |f| {
            f.messages_in(second)
                .into_iter()
                .find(|m| m.content.contains("1. d4"))
        })
        .await;
    assert!(
        !fake
            .messages_in(first)
            .iter()
            .any(|m| m.content.contains("1. e4")),
        "game 1's post should still be waiting"
    );
    assert!(went.content.contains("<@103>"));
    // Game 1's post arrives in the end, once.
    fake.wait_until("game 1's move posted", Duration::from_secs(30), |f| {
        f.messages_in(first)
            .into_iter()
            .find(|m| m.content.contains("1. e4"))
    })
    .await;
    fake.assert_interactions_answered();
    assert_posted_once(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_is_made_again() {
    let (_dir, fake, alice, bob, bot) = connected("discord-deleted-thread").await;
    let thread = chess_game(&fake, &alice, &bob).await;
    settled(&bot).await;
    fake.delete_channel(thread);
    slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    let renewed = fake
        .wait_until("a new thread", WAIT, |f| {
            f.threads_of(LOBBY).into_iter().find(|&t| t != thread)
        })
        .await;
    message_with(&fake, renewed, "1. e4").await;
    // The game is played on in the new thread.
    slash(&fake, &bob, renewed, "move", &[("move", json!("e5"))]).await;
    message_with(&fake, renewed, "1... e5").await;
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// Four people play cut-throat Doubles Chess: joined by button, each called by name and army,
/// the wrong player and a move of another's army refused, the book's own notation read, and a
/// resignation that takes one player out while the other three play on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_at_cut_throat_doubles_chess() {
    let (_dir, fake, alice, bob, bot) = connected("discord-doubles").await;
    let carol = fake.person(103, "carol");
    let dave = fake.person(104, "dave");
    // The rules are longer than one Discord message: they arrive whole, in private parts.
    let id = fake.slash(&alice, LOBBY, "rules", &[("variant", json!("doubles"))]);
    let parts = fake
        .wait_until("the rules in two parts", WAIT, |f| {
            let i = f.interaction(id)?;
            (i.followups.len() >= 2).then(|| i.followups.clone())
        })
        .await;
    assert!(parts
        .iter()
        .all(|(t, ephemeral)| t.chars().count() <= 2000 && *ephemeral));
    let whole: String = parts.iter().map(|(t, _)| t.as_str()).collect();
    assert!(!whole.contains('…'), "nothing cut off");
    assert!(whole.contains("friendly corners") && whole.contains("repetition, draws"));
    let (lobby, thread) = open_game(&fake, &alice, "doubles", "order=joined mode=cutthroat").await;
    for who in [&bob, &carol, &dave] {
        fake.answer(fake.press(who, &lobby, "rookery:join:1")).await;
    }
    let start = message_with(&fake, thread, "begins").await;
    for side in [
        "<@101> plays White 1",
        "<@102> plays Black 1",
        "<@103> plays White 2",
        "<@104> plays Black 2",
    ] {
        assert!(start.content.contains(side), "{}", start.content);
    }
    assert!(start.content.contains("<@101>, your move (White 1)"));
    assert!(start.images.iter().any(|i| is_png(i)));

    // Cut-throat goes clockwise: White 1, White 2, Black 1, Black 2.
    let early = slash(&fake, &bob, thread, "move", &[("move", json!("g8"))]).await;
    assert!(early.contains("not your turn"), "{early}");
    let theirs = slash(&fake, &alice, thread, "move", &[("move", json!("b3c3"))]).await;
    assert!(theirs.contains("not yours"), "{theirs}");
    // The book's notation, from the mover's own side.
    let played = slash(&fake, &alice, thread, "move", &[("move", json!("P-Q5"))]).await;
    assert!(played.contains("You played g5"), "{played}");
    message_with(&fake, thread, "<@103>, your move (White 2)").await;
    slash(&fake, &carol, thread, "move", &[("move", json!("P-Q5"))]).await;
    message_with(&fake, thread, "<@102>, your move (Black 1)").await;

    // Bob resigns: he is out, the game goes on, and his turn passes to dave.
    let resigned = slash(&fake, &bob, thread, "resign", &[]).await;
    assert!(resigned.contains("You resigned"), "{resigned}");
    let after = message_with(&fake, thread, "<@102> resigned").await;
    assert!(
        after.content.contains("Black 1 is out"),
        "{}",
        after.content
    );
    assert!(!after.content.contains("Game over"), "{}", after.content);
    assert!(
        after.content.contains("<@104>, your move (Black 2)"),
        "{}",
        after.content
    );
    let again = slash(&fake, &bob, thread, "move", &[("move", json!("g8"))]).await;
    assert!(again.contains("out"), "{again}");

    // Two more resign: the last player standing wins.
    slash(&fake, &dave, thread, "resign", &[]).await;
    slash(&fake, &carol, thread, "resign", &[]).await;
    let end = message_with(&fake, thread, "Game over").await;
    assert!(end.content.contains("White 1 wins"), "{}", end.content);
    assert!(
        end.content.contains("Congratulations <@101>"),
        "{}",
        end.content
    );
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// Opens game 1 of `variant` with `options` by `creator`, has `others` join from the lobby, and
/// checks the start is posted with a board and `seated` among the seats. Returns the thread.
async fn seat_all(
    fake: &FakeDiscord,
    creator: &Person,
    others: &[&Person],
    (variant, options): (&str, &str),
    seated: &str,
) -> u64 {
    let (lobby, thread) = open_game(fake, creator, variant, options).await;
    for who in others {
        fake.answer(fake.press(who, &lobby, "rookery:join:1")).await;
    }
    let start = message_with(fake, thread, "begins").await;
    assert!(start.content.contains(seated), "{}", start.content);
    assert!(start.images.iter().any(|i| is_png(i)));
    thread
}

/// The moves autocomplete offers `who` for `typed`, sorted.
async fn offered(fake: &FakeDiscord, who: &Person, thread: u64, typed: &str) -> Vec<String> {
    let mut choices = fake
        .choices(fake.autocomplete(who, thread, "move", "move", typed, &[]))
        .await;
    choices.sort();
    choices
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_at_standard_doubles_stax() {
    let (_dir, fake, alice, bob, bot) = connected("discord-stax4").await;
    let carol = fake.person(103, "carol");
    let dave = fake.person(104, "dave");
    let thread = seat_all(
        &fake,
        &alice,
        &[&bob, &carol, &dave],
        ("stax", "players=4 order=joined"),
        "<@103> plays Orange",
    )
    .await;
    // Autocomplete offers White's moves on the 12x12 board, in coordinates.
    assert_eq!(
        offered(&fake, &alice, thread, "e3").await,
        ["e3-d4", "e3-f4"]
    );
    // Orange's checkers are White's partner's: refused, and nothing changes.
    let partners = slash(&fake, &alice, thread, "move", &[("move", json!("c5-d6"))]).await;
    assert!(partners.contains("your partner's"), "{partners}");
    let played = slash(&fake, &alice, thread, "move", &[("move", json!("e3-f4"))]).await;
    assert!(played.contains("You played e3-f4"), "{played}");
    // Standard doubles: Black, across from White, moves next.
    message_with(&fake, thread, "<@102>, your move (Black)").await;
    let early = slash(&fake, &carol, thread, "move", &[("move", json!("c5-d6"))]).await;
    assert!(early.contains("not your turn"), "{early}");

    // Blue resigns: his partner loses with him.
    slash(&fake, &dave, thread, "resign", &[]).await;
    let end = message_with(&fake, thread, "Game over").await;
    assert!(
        end.content.contains("White and Orange win by resignation"),
        "{}",
        end.content
    );
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_partners_at_tri_chess() {
    let (_dir, fake, alice, bob, bot) = connected("discord-trichess").await;
    let carol = fake.person(103, "carol");
    let dave = fake.person(104, "dave");
    let thread = seat_all(
        &fake,
        &alice,
        &[&bob, &carol, &dave],
        (
            "tri-chess",
            "players=4 mode=partners teams=AB-CD order=joined",
        ),
        "<@103> plays Orange",
    )
    .await;
    // Autocomplete offers White's moves by triangle number.
    assert_eq!(
        offered(&fake, &alice, thread, "N9").await,
        ["N9-32", "N9-34", "N9-36", "N9-38"]
    );
    let missing = slash(&fake, &alice, thread, "move", &[("move", json!("16-999"))]).await;
    assert!(missing.contains("there is no triangle 999"), "{missing}");
    let played = slash(&fake, &alice, thread, "move", &[("move", json!("16-46"))]).await;
    assert!(played.contains("You played 16-46"), "{played}");
    // AB against CD moves A, C, B, D: Orange is next, and Black must wait.
    message_with(&fake, thread, "<@103>, your move (Orange)").await;
    let early = slash(&fake, &bob, thread, "move", &[("move", json!("N9-32"))]).await;
    assert!(early.contains("not your turn"), "{early}");
    // With two teams, a partner resigning loses for his team.
    slash(&fake, &carol, thread, "resign", &[]).await;
    let end = message_with(&fake, thread, "Game over").await;
    assert!(end.content.contains("<@101>"), "{}", end.content);
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_players_at_trimens_chess() {
    let (_dir, fake, alice, bob, bot) = connected("discord-trimens").await;
    let carol = fake.person(103, "carol");
    let thread = seat_all(
        &fake,
        &alice,
        &[&bob, &carol],
        ("trimens", "order=joined"),
        "<@103> plays Red",
    )
    .await;
    // Autocomplete offers White's moves in the book's notation, by triangle number.
    assert_eq!(
        offered(&fake, &alice, thread, "1p/15").await,
        ["1p/15-26", "1p/15-38"]
    );
    let missing = slash(&fake, &alice, thread, "move", &[("move", json!("15-999"))]).await;
    assert!(missing.contains("there is no triangle 999"), "{missing}");
    let played = slash(&fake, &alice, thread, "move", &[("move", json!("15-26"))]).await;
    assert!(played.contains("You played 1p/15-26"), "{played}");
    message_with(&fake, thread, "<@102>, your move (Black)").await;
    // Bob resigns: his pieces die on the board and the other two play on.
    slash(&fake, &bob, thread, "resign", &[]).await;
    let after = message_with(&fake, thread, "Black leaves the game").await;
    assert!(!after.content.contains("Game over"), "{}", after.content);
    message_with(&fake, thread, "<@103>, your move (Red)").await;
    slash(&fake, &carol, thread, "resign", &[]).await;
    let end = message_with(&fake, thread, "Game over").await;
    assert!(end.content.contains("White wins"), "{}", end.content);
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// `/board show:` reaches the game: Shadow Chess shades a side's shadows, and a value it does
/// not offer is refused by name, privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_shows_shadow_chess_shadows_on_request() {
    let (_dir, fake, alice, bob, bot) = connected("discord-shadow").await;
    let (lobby, thread) = open_game(&fake, &alice, "shadow", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;
    message_with(&fake, thread, "your move").await;
    let shaded = slash(&fake, &bob, thread, "board", &[("show", json!("white"))]).await;
    assert!(shaded.contains("Game 1 (Shadow Chess)"), "{shaded}");
    let refused = slash(&fake, &bob, thread, "board", &[("show", json!("grey"))]).await;
    assert!(
        refused.contains("can show `white` or `black` shadows"),
        "{refused}"
    );
    let chess_thread = open_game(&fake, &alice, "chess", "order=joined").await;
    fake.answer(fake.press(&bob, &chess_thread.0, "rookery:join:2"))
        .await;
    message_with(&fake, chess_thread.1, "your move").await;
    let nothing = slash(
        &fake,
        &bob,
        chess_thread.1,
        "board",
        &[("show", json!("white"))],
    )
    .await;
    assert!(nothing.contains("nothing more to show"), "{nothing}");
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// Solitaire Cooperative Chess starts as soon as it is asked for, and the server keeps its
/// best scores: a finished game is listed by `/scores`, a game not played for points refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solitaire_starts_at_once_and_the_server_keeps_best_scores() {
    let (_dir, fake, alice, bob, bot) = connected("discord-scores").await;
    let (lobby, thread) = open_game(&fake, &alice, "cooperative", "players=1").await;
    assert!(lobby.content.contains("alone"), "{}", lobby.content);
    let start = message_with(&fake, thread, "begins").await;
    assert!(
        start.content.contains("<@101> plays Solitaire"),
        "{}",
        start.content
    );
    let played = slash(&fake, &alice, thread, "move", &[("move", json!("e4"))]).await;
    assert!(played.contains("You played e4"), "{played}");
    let intruder = slash(&fake, &bob, thread, "move", &[("move", json!("done"))]).await;
    assert!(intruder.contains("not"), "{intruder}");
    slash(&fake, &alice, thread, "resign", &[]).await;
    message_with(&fake, thread, "Everyone loses").await;
    let table = slash(
        &fake,
        &bob,
        LOBBY,
        "scores",
        &[("variant", json!("cooperative"))],
    )
    .await;
    assert!(
        table.contains("Best scores for Cooperative Chess on this server")
            && table.contains("1. 0: alice (game 1, lost)"),
        "{table}"
    );
    let refused = slash(&fake, &bob, LOBBY, "scores", &[("variant", json!("chess"))]).await;
    assert!(refused.contains("not played for points"), "{refused}");
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// A computer player through Discord: it takes its seat from /play's `bots` option, plays at
/// once, is named and never mentioned, and mates; the lobby's button seats more computers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_player_takes_a_seat_and_plays_to_checkmate() {
    let (_dir, fake, alice, _bob, bot) = connected("discord-computer").await;
    let id = fake.slash(
        &alice,
        LOBBY,
        "play",
        &[
            ("variant", json!("chess")),
            (
                "options",
                json!("fen=6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1 order=joined"),
            ),
            ("bots", json!(1)),
            // A choice is sent as its index: easy 0, medium 1, hard 2.
            ("level", json!(1)),
        ],
    );
    let answer = fake.answer(id).await;
    assert!(answer.contains("created and started"), "{answer}");
    let thread = fake
        .wait_until("the game's thread", WAIT, |f| {
            f.threads_of(LOBBY).first().copied()
        })
        .await;
    let mate = message_with(&fake, thread, "Ra1#").await;
    assert!(
        mate.content
            .contains("Rookery (medium): Black played 1... Ra1#"),
        "{}",
        mate.content
    );
    message_with(&fake, thread, "Black wins by checkmate").await;
    for m in fake.messages() {
        assert!(
            !m.content.contains("<@computer"),
            "a computer was mentioned: {}",
            m.content
        );
    }

    // Betza for three: the creator fills both open seats from the lobby's button.
    let (_, second) = open_game(&fake, &alice, "betza", "players=3 order=joined").await;
    let controls = message_with(&fake, second, "is waiting for 2 more players").await;
    assert!(controls
        .custom_ids()
        .contains(&"rookery:addbot:2".to_string()));
    for _ in 0..2 {
        let answer = fake
            .answer(fake.press(&alice, &controls, "rookery:addbot:2"))
            .await;
        assert!(answer.contains("takes a seat in game 2"), "{answer}");
    }
    let begins = message_with(&fake, second, "Game 2 begins").await;
    assert!(
        begins.content.contains("Rookery (medium) plays Black"),
        "{}",
        begins.content
    );

    settled(&bot).await;
    assert_posted_once(&fake);
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// A computer's sealed Synchronous move is told to nobody until both moves are in, and no
/// direct message is ever written to a computer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computers_secret_choice_stays_secret() {
    let (_dir, fake, alice, _bob, bot) = connected("discord-computer-secret").await;
    let (_, thread) = open_game(
        &fake,
        &alice,
        "synchronous",
        "bots=1 level=easy order=joined",
    )
    .await;
    message_with(&fake, thread, "Black has written down a choice").await;
    let before: Vec<String> = fake.messages().into_iter().map(|m| m.content).collect();
    let answer = choose(&fake, &alice, "e4").await;
    assert!(answer.contains("Noted in secret"), "{answer}");
    let turn = message_with(&fake, thread, "Turn 1:").await;
    let black = turn
        .content
        .split("Black ")
        .nth(1)
        .and_then(|rest| rest.split(['.', ',']).next())
        .expect("the computer's move is told")
        .to_string();
    for text in &before {
        assert!(
            !text.contains(&black),
            "{black} was told before the reveal: {text}"
        );
    }
    // Only alice has a direct-message channel.
    let dms: Vec<u64> = fake
        .messages()
        .iter()
        .map(|m| m.channel)
        .filter(|c| Some(*c) != fake.dm_channel(alice.id) && *c != thread && *c != LOBBY)
        .collect();
    assert!(dms.is_empty(), "messages went elsewhere: {dms:?}");
    settled(&bot).await;
    fake.assert_interactions_answered();
    bot.stop().await;
}

/// The files attached to the bot's answers to interaction `id`: (file name, bytes).
fn files_of(fake: &FakeDiscord, id: u64) -> Vec<(String, Vec<u8>)> {
    let Some(token) = fake.interaction(id).map(|i| i.token) else {
        return Vec::new();
    };
    fake.requests()
        .into_iter()
        .filter(|r| r.path.contains(&token))
        .flat_map(|r| r.parts)
        .filter_map(|p| Some((p.filename?, p.bytes)))
        .collect()
}

/// Waits for the file `name` attached to an answer to interaction `id`.
async fn file_of(fake: &FakeDiscord, id: u64, name: &str) -> Vec<u8> {
    fake.wait_until(&format!("the file {name}"), WAIT, |f| {
        files_of(f, id)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, bytes)| bytes)
    })
    .await
}

/// `/export` and `/replay` through Discord: while the game runs, a private answer carrying the
/// file (the PGN, the GIF); once it is over, the file posted for everyone in the thread, with
/// only a private note for the asker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_and_replay_come_as_attachments() {
    let (_dir, fake, alice, bob, bot) = connected("discord-export").await;
    let (lobby, thread) = open_game(&fake, &alice, "chess", "order=joined").await;
    fake.answer(fake.press(&bob, &lobby, "rookery:join:1"))
        .await;
    message_with(&fake, thread, "your move").await;
    for (who, mv) in [(&alice, "f3"), (&bob, "e5")] {
        slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
    }

    // While the game runs: private, with the record attached.
    let id = fake.slash(&alice, thread, "export", &[]);
    let answer = fake.answer(id).await;
    assert!(answer.contains("Game 1 (Chess) as PGN"), "{answer}");
    let pgn = String::from_utf8(file_of(&fake, id, "rookery-game-1.pgn").await).unwrap();
    assert!(pgn.starts_with("[Event \"Rookery game 1\"]"), "{pgn}");
    assert!(
        pgn.contains("[White \"alice\"]\n[Black \"bob\"]\n[Result \"*\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. f3 {[%clk "), "{pgn}");
    assert!(
        pgn.contains(&format!("/{thread}\"]")),
        "the Site names the thread: {pgn}"
    );
    let private = fake.interaction(id).unwrap();
    assert!(private.followups.iter().all(|(_, ephemeral)| *ephemeral));

    let id = fake.slash(&bob, thread, "replay", &[]);
    let answer = fake.answer(id).await;
    assert!(answer.contains("3 positions so far"), "{answer}");
    let gif = file_of(&fake, id, "rookery-game-1.gif").await;
    assert!(gif.starts_with(b"GIF89a"));
    assert!(fake
        .interaction(id)
        .unwrap()
        .followups
        .iter()
        .all(|(_, ephemeral)| *ephemeral));

    for (who, mv) in [(&alice, "g4"), (&bob, "Qh4#")] {
        slash(&fake, who, thread, "move", &[("move", json!(mv))]).await;
    }
    message_with(&fake, thread, "checkmate").await;

    // Over: the record for everyone, with its result; the asker is told where it went.
    let id = fake.slash(&bob, thread, "export", &[]);
    let shared_export = id;
    let note = fake.answer(id).await;
    assert_eq!(note, bot::discord::SHARED_HERE);
    let pgn = String::from_utf8(file_of(&fake, id, "rookery-game-1.pgn").await).unwrap();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(
        pgn.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("2... Qh4#"),
        "{pgn}"
    );
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
    let public = fake
        .wait_until("the public post", WAIT, |f| {
            let i = f.interaction(id)?;
            (i.followups.len() == 2).then_some(i)
        })
        .await;
    assert!(public.followups[0].1, "the note is private");
    assert!(!public.followups[1].1, "the record is public");
    assert!(
        public.followups[1].0.contains("as PGN"),
        "{:?}",
        public.followups
    );

    // What the file holds replays to the same end.
    let record = engine::record::read(&pgn).unwrap();
    let replayed = engine::record::replay(&record).unwrap();
    assert_eq!(
        replayed.outcome.map(|o| o.winners),
        Some(vec![engine::Seat(1)])
    );

    let id = fake.slash(&alice, thread, "replay", &[]);
    assert_eq!(fake.answer(id).await, bot::discord::SHARED_HERE);
    let gif = file_of(&fake, id, "rookery-game-1.gif").await;
    assert!(gif.starts_with(b"GIF89a"));

    fake.assert_interactions_answered_but_shared(&[shared_export, id]);
    bot.stop().await;
}

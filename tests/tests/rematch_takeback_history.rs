//! Rematches, takebacks and histories through the console harness (issue 29, items 2 to 4):
//! what each player sees, every refusal with its reason, and nothing changed by a refusal.

use bot::model::GameId;
use rookery_tests::Harness;

/// Asserts that `out` has a line containing `want`.
#[track_caller]
fn has(out: &str, want: &str) {
    assert!(
        out.lines().any(|l| l.contains(want)),
        "expected a line with {want:?} in:\n{out}"
    );
}

/// Plays Fool's Mate as game `n` between alice (White) and bob.
async fn fools_mate(h: &Harness, n: i64) -> String {
    h.line("@alice /play chess order=joined").await;
    h.line(&format!("@bob /join {n}")).await;
    let mut out = String::new();
    for line in [
        "@alice /move f3",
        "@bob /move e5",
        "@alice /move g4",
        "@bob /move Qh4",
    ] {
        out = h.line(&format!("{line} {n}")).await;
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_waits_for_both_players_and_swaps_colours() {
    let h = Harness::new().await;
    let end = fools_mate(&h, 1).await;
    has(
        &end,
        "**Game over: Black wins by checkmate.** Congratulations @bob! [Rematch]",
    );

    let out = h.line("@carol /rematch 1").await;
    has(
        &out,
        "EPHEMERAL carol: you did not play in game 1: a rematch is for its players",
    );
    assert!(!out.contains("PUBLIC"), "a refusal posts nothing:\n{out}");

    let out = h.line("@alice /rematch 1").await;
    has(
        &out,
        "EPHEMERAL alice: You asked for a rematch of game 1: game 2 begins when bob asks too, \
         or when you /start 2 with those who have.",
    );
    has(
        &out,
        "PUBLIC lobby: @alice asks for a rematch of game 1: **Chess** again, seats turned round \
         (game 2: 3 days per move); it is played in #game-2.",
    );
    has(
        &out,
        "PUBLIC game-1: @alice asks for a rematch: game 2. @bob: press Rematch or use /rematch 1 \
         to play again. [Rematch]",
    );
    has(
        &out,
        "PUBLIC game-2: Game 2: the rematch of game 1 (#game-1)",
    );

    // Asking twice, from the lobby or in the rematch's own name, changes nothing.
    let out = h.line("@alice /rematch").await;
    has(
        &out,
        "you have already asked for a rematch of game 1: game 2 waits for bob",
    );
    let out = h.line("@alice /rematch 2").await;
    has(&out, "you have already asked for a rematch of game 1");
    assert!(!out.contains("PUBLIC"), "{out}");

    // Nobody else takes a seat of the rematch, and /join in the lobby does not offer it.
    let out = h.line("@carol /join 2").await;
    has(
        &out,
        "game 2 is the rematch of game 1, for its players only: they take their seats with \
         /rematch 1 or the Rematch button",
    );
    let out = h.line("@carol /join").await;
    has(&out, "no game is waiting for players here");

    let out = h.line("@bob /rematch").await;
    has(
        &out,
        "EPHEMERAL bob: Game 2, the rematch of game 1, has started in #game-2.",
    );
    has(&out, "PUBLIC game-2: @bob asks for the rematch too (2/2).");
    has(
        &out,
        "PUBLIC game-2: Game 2 begins: @bob plays White, @alice plays Black.",
    );
    has(
        &out,
        "PUBLIC game-1: The rematch of game 1 has begun: game 2, in #game-2.",
    );

    // Once made, the rematch is named to whoever asks again.
    let out = h.line("@bob /rematch 1").await;
    has(
        &out,
        "game 1's rematch is already being played: game 2, in #game-2",
    );
    let out = h.line("@alice /rematch 2").await;
    has(
        &out,
        "game 2 is still being played: a rematch can be asked for once it is over",
    );
    let out = h.line("@bob /move e4 2").await;
    has(&out, "You played e4 in game 2.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_a_computer_starts_at_once_with_the_computer_kept() {
    let h = Harness::new().await;
    h.line("@alice /play chess bots=1 level=easy order=joined")
        .await;
    let out = h.line("@alice /resign").await;
    has(&out, "[Rematch]");
    let out = h.line("@alice /rematch").await;
    has(
        &out,
        "EPHEMERAL alice: Game 2, the rematch of game 1, has started in #game-2.",
    );
    has(
        &out,
        "Game 2 begins: Rookery (easy) plays White, @alice plays Black.",
    );
    // The computer, White now, plays its first move at once.
    has(&out, "Rookery (easy): White played 1.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_creator_starts_a_rematch_with_those_who_asked() {
    let h = Harness::new().await;
    h.line("@ann /play betza players=3 order=joined days_per_move=none")
        .await;
    h.line("@bob /join 1").await;
    h.line("@cat /join 1").await;
    let out = h.line("@ann /resign").await;
    assert!(!out.contains("Game over"), "three play on as two:\n{out}");
    // A takeback cannot bring back a player who left.
    let out = h.line("@bob /takeback").await;
    has(
        &out,
        "a player has left game 1 (resigned or ran out of time): a takeback cannot bring them back",
    );
    let out = h.line("@bob /resign").await;
    has(&out, "Congratulations @cat! [Rematch]");

    let out = h.line("@cat /rematch").await;
    has(
        &out,
        "You asked for a rematch of game 1: game 2 begins when ann and bob ask too, or when you \
         /start 2 with those who have.",
    );
    let out = h.line("@ann /start 2").await;
    has(&out, "only the player who created game 2 can start it");
    let out = h.line("@ann /rematch 1").await;
    has(
        &out,
        "EPHEMERAL ann: You take your seat in game 2, the rematch of game 1.",
    );
    has(
        &out,
        "PUBLIC game-2: @ann asks for the rematch too (2/3): waiting for @bob.",
    );
    // Seats turned round: cat (third) sits first, ann (first) second.
    let out = h.line("@cat /start 2").await;
    has(&out, "Game 2 has started.");
    has(&out, "Game 2 begins: @cat plays");
    let out = h.line("@bob /rematch 1").await;
    has(
        &out,
        "game 1's rematch is already being played: game 2, in #game-2",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_accepted_declined_and_lapsed() {
    let h = Harness::new().await;
    h.line("@alice /play chess order=joined").await;
    h.line("@bob /join 1").await;
    h.line("@alice /move e4").await;
    h.line("@bob /move e5").await;

    let out = h.line("@alice /takeback accept").await;
    has(&out, "nobody has asked for a takeback in game 1");

    let out = h.line("@bob /takeback").await;
    has(
        &out,
        "EPHEMERAL bob: You asked to take back 1 move (e5) in game 1.",
    );
    has(
        &out,
        "PUBLIC game-1: @bob asks to take back 1 move (e5). @alice: accept or decline with the \
         buttons, or /takeback accept or /takeback decline. [Accept takeback] [Decline takeback]",
    );
    // Refusals change nothing and post nothing.
    for (line, want) in [
        (
            "@bob /takeback",
            "a takeback is already asked for in game 1 (by bob): it has to be answered first",
        ),
        (
            "@bob /takeback accept",
            "you asked for this takeback in game 1: the other players answer it",
        ),
        ("@carol /takeback accept 1", "you are not playing in game 1"),
    ] {
        let out = h.line(line).await;
        has(&out, want);
        assert!(!out.contains("PUBLIC"), "{line}:\n{out}");
    }

    let out = h.line("@alice /takeback accept").await;
    has(&out, "EPHEMERAL alice: Taken back in game 1: 1 move (e5).");
    has(
        &out,
        "PUBLIC game-1: @alice accepted: @bob takes back 1 move (e5).",
    );
    has(&out, "PUBLIC game-1: @bob, your move (Black).");
    let out = h.line("@alice /takeback accept").await;
    has(
        &out,
        "the takeback asked for in game 1 was already accepted and carried out",
    );
    // Black's pawn is back on e7: e5 is Black's move again.
    let out = h.line("@bob /move e5").await;
    has(&out, "You played e5 in game 1.");

    // White's takeback undoes White's last move and everything after it; Black declines.
    let out = h.line("@alice /takeback").await;
    has(&out, "You asked to take back 2 moves (e4, e5) in game 1.");
    let out = h.line("@bob /takeback decline").await;
    has(&out, "EPHEMERAL bob: You declined the takeback.");
    has(
        &out,
        "PUBLIC game-1: @bob declined the takeback of 2 moves (e4, e5): the game goes on as it was.",
    );
    let out = h.line("@bob /takeback decline").await;
    has(
        &out,
        "you have already declined the takeback asked for in game 1",
    );
    let out = h.line("@alice /takeback accept").await;
    has(
        &out,
        "the takeback asked for in game 1 was already declined by @bob",
    );
    let out = h.line("@alice /move Nf3").await;
    has(&out, "You played Nf3 in game 1.");

    // A request lapses when the game goes on before it is answered.
    let out = h.line("@bob /takeback").await;
    has(&out, "You asked to take back 2 moves (e5, Nf3) in game 1.");
    let out = h.line("@bob /move Nc6").await;
    has(&out, "You played Nc6 in game 1.");
    let out = h.line("@alice /takeback accept").await;
    has(
        &out,
        "the takeback asked for in game 1 has lapsed: the game went on after it was asked",
    );

    // The log keeps what was taken back, marked; the game's summary counts it.
    let out = h.line("@alice /game 1").await;
    has(&out, "Moves: 4 (1 takeback).");
    let kinds: Vec<String> = h
        .service
        .store()
        .actions(GameId(1))
        .await
        .unwrap()
        .into_iter()
        .map(|(_, kind, _)| kind)
        .collect();
    for kind in ["takeback-ask", "takeback", "takeback-decline"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_refused_where_they_would_disturb_the_game() {
    let h = Harness::new().await;
    h.line("@dan /play zombie order=joined").await;
    h.line("@erin /join 1").await;
    h.line("@dan /move e4").await;
    let out = h.line("@dan /takeback").await;
    has(
        &out,
        "Zombie Chess hides information from its players (sealed, buried, dealt or predicted \
         choices): a takeback would reveal or disturb it",
    );

    h.line("@dan /play chess bots=1 level=easy order=joined")
        .await;
    let out = h.line("@dan /takeback 2").await;
    has(
        &out,
        "Rookery (easy) declines every takeback: takebacks are between people",
    );

    h.line("@dan /play chess order=joined").await;
    h.line("@erin /join 3").await;
    let out = h.line("@erin /takeback 3").await;
    has(
        &out,
        "you have made no move in game 3 that could be taken back",
    );
    let out = h.line("@erin /takeback 1").await;
    has(&out, "hides information");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_lists_finished_games_in_pages_and_game_sums_one_up() {
    let h = Harness::new().await;
    fools_mate(&h, 1).await;
    h.line("@alice /rematch 1").await;
    h.line("@bob /rematch 1").await;
    h.line("@bob /move e4 2").await;

    let out = h.line("@alice /history").await;
    has(
        &out,
        "EPHEMERAL alice: Finished games of alice on this server, page 1 of 1 (1 game):",
    );
    has(
        &out,
        "EPHEMERAL alice: - Game 1 · Chess · alice (White) vs bob (Black) · Black wins by \
         checkmate · 2027-01-15 · #game-1",
    );
    let out = h.line("@alice /history bob chess").await;
    has(&out, "Finished games of bob of Chess on this server");
    let out = h.line("@alice /history bob checkers").await;
    has(&out, "bob has no finished game of");
    let out = h.line("@alice /history zed").await;
    has(
        &out,
        "I know no player 'zed': nobody of that name has played a game with Rookery",
    );
    let out = h.line("@alice /history variant:nochess").await;
    has(&out, "unknown variant 'nochess'");
    let out = h.line("@alice /history page:2").await;
    has(
        &out,
        "alice has 1 finished game on this server: 1 page, not 2",
    );

    let out = h.line("@carol /game 1").await;
    for want in [
        "EPHEMERAL carol: Game 1: **Chess** (3 days per move).",
        "Players: alice (White), bob (Black).",
        "Status: over: Black wins by checkmate.",
        "Moves: 4.",
        "Created 2027-01-15, started 2027-01-15, ended 2027-01-15.",
        "Its rematch: game 2.",
        "Thread: #game-1",
    ] {
        has(&out, want);
    }
    let out = h.line("@carol /game 2").await;
    has(&out, "Players: bob (White), alice (Black).");
    has(&out, "Status: being played, waiting for Black.");
    has(&out, "The rematch of game 1.");
    let out = h.line("@carol /game 99").await;
    has(&out, "there is no game 99");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_pages_ten_games_at_a_time() {
    let h = Harness::new().await;
    for n in 1..=11 {
        h.line("@ann /play chess order=joined").await;
        h.line(&format!("@ben /join {n}")).await;
        h.line(&format!("@ann /resign {n}")).await;
    }
    let out = h.line("@ann /history").await;
    has(&out, "page 1 of 2 (11 games):");
    has(
        &out,
        "- Game 11 · Chess · ann (White) vs ben (Black) · Black wins by resignation",
    );
    has(&out, "More with page:2.");
    assert!(!out.contains("- Game 1 ·"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("- Game ")).count(), 10);
    let out = h.line("@ben /history ann page:2").await;
    has(
        &out,
        "Finished games of ann on this server, page 2 of 2 (11 games):",
    );
    has(&out, "- Game 1 · Chess");
    assert!(!out.contains("More with"), "{out}");
}

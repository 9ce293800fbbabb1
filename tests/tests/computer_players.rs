//! Computer players through the console harness: a game left to computers plays to its end,
//! and a computer's turn that was due when the process stopped is played once after it starts
//! again (even past its clock).

use rookery_tests::Harness;

/// "A game whose every remaining seat is a computer plays on by itself to its end, one move
/// at a time, posted like any other."
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_to_computers_plays_to_its_end() {
    let h = Harness::new().await;
    let out = h
        .line("@alice /play checkers players=4 mode=cutthroat bots=3 level=easy order=joined")
        .await;
    assert!(out.contains("Game 1 begins"), "{out}");
    let out = h.line("@alice /resign").await;
    assert!(out.contains("@alice resigned."), "{out}");
    let moves = out
        .lines()
        .filter(|l| l.contains(": Rookery (easy): "))
        .count();
    assert!(moves > 10, "the computers played on:\n{out}");
    assert!(out.contains("**Game over:"), "and finished:\n{out}");
    // Nothing is left for them to do.
    assert_eq!(h.service.play_computer_turns().await.unwrap(), 0);
}

/// The process dies after a person's move is committed and before the computer answers: the
/// computer's turn is found and played when Rookery starts again, exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_turn_due_at_a_crash_is_played_once_after_the_restart() {
    let mut h = Harness::new().await;
    h.line("@alice /play chess bots=1 level=easy order=joined")
        .await;
    let out = h.line_then_crash("@alice /move e4").await;
    assert!(out.contains("You played e4"), "{out}");
    assert!(
        !out.contains("Black played"),
        "nothing was delivered:\n{out}"
    );
    // Rookery stays down for four days, past the three days a move: the computer's turn
    // waits for it and is played, not lost on time.
    h.restart().await;
    let out = h.advance(4 * 86_400).await;
    assert!(!out.contains("ran out of time"), "{out}");
    let answers = out
        .lines()
        .filter(|l| l.contains("Rookery (easy): Black played 1..."))
        .count();
    assert_eq!(answers, 1, "{out}");
    h.restart().await;
    let out = h.advance(0).await;
    assert!(!out.contains("Black played"), "played once only:\n{out}");
    let out = h.line("@alice /moves").await;
    assert!(
        out.contains("Your moves in game 1"),
        "White is to move again:\n{out}"
    );
}

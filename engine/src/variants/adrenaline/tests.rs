//! The book's example turn and its example mate, and the restored passage's special cases.

use super::*;
use crate::game::AnyGame;

fn game(fen: &str, checkers: &[(&str, u8)]) -> AdrenalineState {
    let mut options = Options::new();
    options.set("fen", fen);
    let mut state = Game::setup(&Adrenaline, &options, 2, 0).unwrap();
    for (square, n) in checkers {
        let cell = state.position.board().cell(square).unwrap();
        state.adrenaline[cell.index()] = *n;
    }
    state
}

fn play(state: &mut AdrenalineState, texts: &str) {
    for text in texts.split_whitespace() {
        let seat = state.actor();
        Game::play(&Adrenaline, state, seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn texts(state: &AdrenalineState) -> Vec<String> {
    Game::legal_texts(&Adrenaline, state, state.actor())
}

fn cell(state: &AdrenalineState, square: &str) -> Cell {
    state.position.board().cell(square).unwrap()
}

#[test]
fn the_books_example_bishop_takes_and_gives_the_h7_pawn_adrenaline() {
    let mut state = game(
        "rnbqkbnr/1ppppppp/p7/8/8/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        &[],
    );
    play(&mut state, "Bxa6");
    assert_eq!(state.stage, Stage::Place);
    assert_eq!(
        state.actor(),
        Seat::WHITE,
        "White still has to give the adrenaline"
    );
    let choices = texts(&state);
    assert_eq!(choices.len(), 15, "one per black piece left: {choices:?}");
    play(&mut state, "@h7");
    let fen = state.position.fen();
    assert_eq!(
        fen.split(' ').next(),
        Some("rnbqkbnr/1ppppppp/B7/8/8/4P3/PPPP1PPP/RNBQK1NR")
    );
    assert_eq!(state.checkers_at(cell(&state, "h7")), 1);
    assert_eq!(state.moves, ["Bxa6 @h7"]);
    // Black's h-pawn now steps like a king after its move, spending the checker.
    play(&mut state, "h6");
    assert_eq!(
        state.stage,
        Stage::Steps {
            at: cell(&state, "h6"),
            captured: false
        }
    );
    play(&mut state, ">g5");
    assert_eq!(state.stage, Stage::Move);
    assert_eq!(state.checkers_at(cell(&state, "g5")), 0);
    assert_eq!(state.moves[1], "h6 >g5");
    // The checker is spent: a further step is refused with the reason.
    let err = Game::parse(&Adrenaline, &state, Seat::BLACK, ">f4").unwrap_err();
    assert_eq!(
        err.to_string(),
        "your piece has no adrenaline left to spend: your turn is over"
    );
    let err = Game::parse(&Adrenaline, &state, Seat::WHITE, ">e4").unwrap_err();
    assert_eq!(
        err.to_string(),
        ">e4 is not legal: there are no extra steps to take now: extra king steps follow a \
         regular move by a piece carrying adrenaline"
    );
}

#[test]
fn the_books_checkmate_counts_the_queens_extra_steps() {
    // After Black's Bg4xe2: three checkers under White's c1 bishop, one each under e5, e6, h5
    // and g7. The queen would take c1 and walk three king steps to f2.
    let state = game(
        "rn2k1nr/5pp1/4p3/4P2p/1pq5/P7/1P1PbKPP/R1B3Q1 w - - 0 20",
        &[("c1", 3), ("e5", 1), ("e6", 1), ("h5", 1), ("g7", 1)],
    );
    assert!(!state.position.is_check(), "no ordinary check");
    assert!(!state.king_safe(Seat::WHITE), "check by extra steps");
    assert_eq!(
        Game::outcome(&Adrenaline, &state),
        Some(Outcome::win(vec![Seat::BLACK], EndReason::Checkmate))
    );
    // g3 fails because the h5 pawn carries a checker: h4, then a step to g3.
    let mut without_h5 = state.clone();
    without_h5.adrenaline[cell(&state, "h5").index()] = 0;
    let escape = without_h5.refusal(Action::Move(without_h5.position.parse_move("Kg3").unwrap()));
    assert_eq!(escape, None, "without the h5 checker Kg3 escapes");
    assert!(Game::outcome(&Adrenaline, &without_h5).is_none());
}

#[test]
fn a_capturer_inherits_checkers_and_spends_them_at_once_capturing_on_the_way() {
    // The white rook takes the d5 knight carrying two checkers, then steps twice, taking e6.
    let mut state = game(
        "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1",
        &[("d5", 2), ("e6", 1)],
    );
    play(&mut state, "Rxd5");
    assert_eq!(state.checkers_at(cell(&state, "d5")), 2);
    play(&mut state, ">xe6");
    // One spent, one inherited from the pawn.
    assert_eq!(state.checkers_at(cell(&state, "e6")), 2);
    play(&mut state, "stop");
    assert_eq!(state.stage, Stage::Place);
    // Only one checker is given, though two pieces fell; the king may be given it.
    assert_eq!(texts(&state), ["@e8#"], "and the rook on e6 mates");
    play(&mut state, "@e8");
    assert_eq!(state.moves, ["Rxd5 >xe6 stop @e8#"]);
}

#[test]
fn no_castling_with_checkers_and_no_passing_a_square_extra_steps_reach() {
    let state = game("4k3/8/8/8/8/8/8/4K2R w K - 0 1", &[("h1", 1)]);
    let err = Game::parse(&Adrenaline, &state, Seat::WHITE, "O-O").unwrap_err();
    assert_eq!(
        err.to_string(),
        "O-O is not legal: no castling while the king or that rook carries adrenaline"
    );
    // Black's bishop on h3 carries a checker: it can take g2 and step to f1, so the king may
    // not pass f1, though nothing attacks f1 in the ordinary way.
    let state = game("4k3/8/8/8/8/7b/6P1/4K2R w K - 0 1", &[("h3", 1)]);
    assert!(state.king_safe(Seat::WHITE));
    assert!(!state.position.is_attacked(cell(&state, "f1"), Seat::WHITE));
    let err = Game::parse(&Adrenaline, &state, Seat::WHITE, "O-O").unwrap_err();
    assert_eq!(
        err.to_string(),
        "O-O is not legal: the king may not pass a square it could be taken on (counting extra \
         king steps)"
    );
    // Without the checker, castling is fine.
    let state = game("4k3/8/8/8/8/7b/6P1/4K2R w K - 0 1", &[]);
    assert!(texts(&state).contains(&"O-O".to_string()));
}

#[test]
fn a_pawn_promotes_on_an_extra_step_and_keeps_stepping() {
    let mut state = game("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", &[("b6", 3)]);
    play(&mut state, "b7");
    let err = Game::parse(&Adrenaline, &state, Seat::WHITE, ">b8").unwrap_err();
    assert!(err.to_string().contains("promotes"), "{err}");
    let err = Game::parse(&Adrenaline, &state, Seat::WHITE, ">b8=K").unwrap_err();
    assert!(
        err.to_string().contains("queen, rook, bishop or knight"),
        "{err}"
    );
    let err = Game::parse(&Adrenaline, &state, Seat::WHITE, ">c6=Q").unwrap_err();
    assert!(err.to_string().contains("only a pawn reaching"), "{err}");
    play(&mut state, ">a8=Q");
    assert_eq!(
        state.position.piece_at(cell(&state, "a8")).map(|p| p.role),
        Some(Role::Queen)
    );
    assert_eq!(state.checkers_at(cell(&state, "a8")), 2);
    assert!(matches!(state.stage, Stage::Steps { .. }));
    let any = AnyGame::load(&Adrenaline, &serde_json::to_string(&state).unwrap()).unwrap();
    let json = AnyGame::save(&Adrenaline, &any).unwrap();
    assert!(json.contains("\"a8\":2"), "{json}");
    assert!(json.contains("\"Steps\":{\"at\":\"a8\""), "{json}");
}

/// "All the regular chess rules apply": the two-square step is a pawn's first move, so a pawn
/// that came back to its first row by extra steps steps one square only, and cannot be taken
/// en passant for a step it may not make.
#[test]
fn a_pawn_back_on_its_first_row_by_extra_steps_may_not_step_two() {
    let mut state = game("4k3/4p3/8/5P2/8/8/n7/R3K3 w - - 0 1", &[]);
    play(&mut state, "Rxa2 @e7 e6 >e7 Ra3");
    assert_eq!(state.moved_pawns, [cell(&state, "e7")]);
    let choices = texts(&state);
    assert!(choices.contains(&"e6".to_string()), "{choices:?}");
    assert!(!choices.contains(&"e5".to_string()), "{choices:?}");
    let err = Game::parse(&Adrenaline, &state, Seat::BLACK, "e5").unwrap_err();
    assert!(err.to_string().contains("only on its first move"), "{err}");
    // Kept when saved and loaded.
    let any = AnyGame::load(&Adrenaline, &serde_json::to_string(&state).unwrap()).unwrap();
    let json = AnyGame::save(&Adrenaline, &any).unwrap();
    assert!(json.contains("\"moved_pawns\":[\"e7\"]"), "{json}");
    // Once it steps on, the pawn is no longer listed; an unmoved pawn steps two as ever.
    play(&mut state, "e6");
    assert!(state.moved_pawns.is_empty());
    let state = game("4k3/4p3/8/8/8/8/8/R3K3 b - - 0 1", &[]);
    assert!(texts(&state).contains(&"e5".to_string()));
}

/// The caption's move number stays on the move under way while Black finishes a turn.
#[test]
fn the_caption_keeps_blacks_move_number_until_the_turn_ends() {
    let mut state = game(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[],
    );
    play(&mut state, "e4 d5 exd5 @d8 Qxd5");
    assert!(matches!(state.stage, Stage::Steps { .. }));
    let view = Game::view(&Adrenaline, &state, Viewer::Spectator);
    assert_eq!(view.move_number, 2, "Black is still playing move 2");
    play(&mut state, "stop @a1");
    let view = Game::view(&Adrenaline, &state, Viewer::Spectator);
    assert_eq!(view.move_number, 3);
}

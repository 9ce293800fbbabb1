//! The book's own examples: Figure 24 (shadow capture) and Figure 25 (shadow check), whose
//! diagrams are lost, rebuilt from what the text says of them.

use super::*;
use crate::game::AnyGame;

fn game_from(fen: &str) -> ShadowState {
    let mut options = Options::new();
    options.set("fen", fen);
    Game::setup(&ShadowChess, &options, 2, 0).unwrap()
}

fn texts(state: &ShadowState) -> Vec<String> {
    let seat = state.position().turn();
    Game::legal_texts(&ShadowChess, state, seat)
}

/// The shadow captures that take the piece on `victim`, as (mover's square, landing square).
fn takers(state: &ShadowState, victim: &str) -> Vec<(String, String)> {
    let board = state.position().board();
    let v = board.cell(victim).unwrap();
    let mut out: Vec<(String, String)> = state
        .position()
        .shadow_moves()
        .into_iter()
        .filter(|sm| sm.victim == Some(v))
        .map(|sm| {
            (
                board.label(sm.mv.from).to_string(),
                board.label(sm.mv.to).to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Figure 24: Black's bishop on c8, White's knight on c5, pawn on e4 and bishop on g4.
const FIGURE_24: &str = "2b4k/8/8/2N5/4P1B1/8/8/4K3";

#[test]
fn figure_24_the_bishop_falls_on_four_knight_squares_or_to_the_pawn_but_not_the_bishop() {
    let state = game_from(&format!("{FIGURE_24} w - - 0 1"));
    assert_eq!(
        takers(&state, "c8"),
        pairs(&[
            ("c5", "a6"),
            ("c5", "b7"),
            ("c5", "d7"),
            ("c5", "e6"),
            ("e4", "f5")
        ]),
        "White's bishop on g4 already stands in the black bishop's shadow"
    );
    let all = texts(&state);
    assert!(all.contains(&"Bxc8".to_string()), "{all:?}");
    assert!(all.contains(&"Nc5-d7(xBc8)".to_string()), "{all:?}");
    assert!(all.contains(&"e4-f5(xBc8)".to_string()), "{all:?}");
    // The plain move into the shadow is still allowed: capturing is a choice.
    assert!(all.contains(&"Nd7".to_string()), "{all:?}");
    let mut any = AnyGame::setup(
        &ShadowChess,
        &Options::parse([&format!("fen={FIGURE_24} w - - 0 1")]).unwrap(),
        2,
        0,
    )
    .unwrap();
    let before = AnyGame::save(&ShadowChess, &any).unwrap();
    let err = AnyGame::play(&ShadowChess, &mut any, Seat::WHITE, "Bg4-f5(xBc8)").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Bg4-f5(xBc8) is not legal: the bishop on g4 already stands in the shadow of the bishop \
         on c8: moving within a shadow takes nothing"
    );
    assert_eq!(AnyGame::save(&ShadowChess, &any).unwrap(), before);
    let (written, _) = AnyGame::play(&ShadowChess, &mut any, Seat::WHITE, "Nc5-b7 (xc8)").unwrap();
    assert_eq!(written, "Nc5-b7(xBc8)");
    let view = AnyGame::view(&ShadowChess, &any, Viewer::Spectator).unwrap();
    assert_eq!(view.figures.len(), 5, "the bishop is gone");
}

#[test]
fn figure_24_a_pawn_advancing_into_the_shadow_takes_nothing() {
    let state = game_from("2b4k/8/8/2N1P3/6B1/8/8/4K3 w - - 0 1");
    assert!(takers(&state, "c8").iter().all(|(from, _)| from != "e5"));
    let err = Game::parse(&ShadowChess, &state, Seat::WHITE, "e5-e6(xBc8)").unwrap_err();
    assert_eq!(
        err.to_string(),
        "e5-e6(xBc8) is not legal: a pawn captures only with its diagonal step: advancing into \
         a shadow takes nothing"
    );
}

#[test]
fn figure_24_black_to_move_takes_the_knight_on_the_same_four_squares() {
    let state = game_from(&format!("{FIGURE_24} b - - 0 1"));
    assert_eq!(
        takers(&state, "c5"),
        pairs(&[("c8", "a6"), ("c8", "b7"), ("c8", "d7"), ("c8", "e6")])
    );
    // A rook on a7 takes the knight on b7 or d7, never the bishop on d7: the bishop's shadow
    // ends on e6, where it meets the knight's.
    let state = game_from("2b4k/r7/8/2N5/4P1B1/8/8/4K3 b - - 0 1");
    let rook: Vec<_> = takers(&state, "c5")
        .into_iter()
        .filter(|(from, to)| from == "a7" && to.ends_with('7'))
        .collect();
    assert_eq!(rook, pairs(&[("a7", "b7"), ("a7", "d7")]));
    assert!(takers(&state, "g4").iter().all(|(from, _)| from != "a7"));
    // From b6 the rook takes either on e6, but only one of them.
    let state = game_from("2b4k/8/1r6/2N5/4P1B1/8/8/4K3 b - - 0 1");
    assert!(takers(&state, "c5").contains(&("b6".into(), "e6".into())));
    assert!(takers(&state, "g4").contains(&("b6".into(), "e6".into())));
    let all = texts(&state);
    assert!(all.contains(&"Rb6-e6(xNc5)".to_string()), "{all:?}");
    assert!(all.contains(&"Rb6-e6(xBg4)".to_string()), "{all:?}");
    // From a6 it starts inside the knight's shadow: the bishop only.
    let state = game_from("2b4k/8/r7/2N5/4P1B1/8/8/4K3 b - - 0 1");
    assert!(takers(&state, "c5").iter().all(|(from, _)| from != "a6"));
    assert!(takers(&state, "g4").contains(&("a6".into(), "e6".into())));
}

/// Figure 25, rebuilt: Black's rook on b8 is trained on the white king's shadow (b1, b2); the
/// knight on d4 cuts the rook's own shadow short at b5 (so the interposing rook takes nothing)
/// and guards b3 and c2 (so the king cannot take a rook that comes to b2 by moving into its
/// shadow); Black's king cuts the rook's shadow along the eighth rank at e8.
const FIGURE_25: &str = "1r6/5k2/8/8/3n4/8/7R/K7 w - - 0 1";

#[test]
fn figure_25_the_only_answer_to_shadow_check_is_to_interpose() {
    let state = game_from(FIGURE_25);
    assert!(state.position().shadow_check(Seat::WHITE));
    assert!(
        !state.position().is_check(),
        "no piece attacks the king itself"
    );
    assert_eq!(texts(&state), ["Rb2"]);
    let view = Game::view(&ShadowChess, &state, Viewer::Spectator);
    assert_eq!(view.status, "White to move, in check");
    // Black takes the rook: mate, with nothing left to interpose.
    let mut state = state;
    for text in ["Rb2", "Rxb2"] {
        let seat = state.position().turn();
        Game::play(&ShadowChess, &mut state, seat, text).unwrap();
    }
    assert_eq!(
        Game::outcome(&ShadowChess, &state),
        Some(Outcome::win(vec![Seat::BLACK], EndReason::Checkmate))
    );
    assert_eq!(state.moves, ["Rb2", "Rxb2#"]);
}

#[test]
fn figure_25_without_the_knight_the_interposition_takes_the_rook() {
    let state = game_from("1r6/5k2/8/8/8/8/7R/K7 w - - 0 1");
    let all = texts(&state);
    assert!(all.contains(&"Rh2-b2(xRb8)".to_string()), "{all:?}");
    // So may the king, stepping from outside the rook's shadow into it.
    assert!(all.contains(&"Ka1-b1(xRb8)".to_string()), "{all:?}");
}

#[test]
fn shadows_shown_on_request_and_refused_names_listed() {
    let state = game_from(&format!("{FIGURE_24} w - - 0 1"));
    let view = Game::view_showing(&ShadowChess, &state, Viewer::Spectator, "black").unwrap();
    let board = state.position().board();
    let shaded: Vec<&str> = view.tinted.iter().map(|(c, _)| board.label(*c)).collect();
    for square in ["a6", "b7", "d7", "e6", "f5", "g4", "g8", "g7", "h7"] {
        assert!(shaded.contains(&square), "{square} in {shaded:?}");
    }
    assert!(Game::view(&ShadowChess, &state, Viewer::Spectator)
        .tinted
        .is_empty());
    let err = Game::view_showing(&ShadowChess, &state, Viewer::Spectator, "grey").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Shadow Chess can show `white` or `black` shadows (or `none`), not `grey`"
    );
}

#[test]
fn figure_26_on_the_cylinder_the_queen_takes_round_the_board() {
    let fen = "4k3/8/8/8/2Q1P1q1/8/8/4K3 w - - 0 1";
    let mut options = Options::new();
    options.set("fen", fen);
    let flat = Game::setup(&ShadowChess, &options, 2, 0).unwrap();
    assert!(!texts(&flat).iter().any(|t| t.starts_with("Qxg4")));
    options.set("board", "cylinder");
    let round = Game::setup(&ShadowChess, &options, 2, 0).unwrap();
    assert!(
        texts(&round).iter().any(|t| t.starts_with("Qxg4")),
        "{:?}",
        texts(&round)
    );
}

#[test]
fn odd_text_is_refused_not_a_panic() {
    let state = game_from(&format!("{FIGURE_24} w - - 0 1"));
    for text in [
        "aé1(xc8)",
        "(x",
        "Nc5-(xc8)",
        "e4-f5(x)",
        "Qz9-a1(xBc8)",
        "e4-f5=K(xBc8)",
    ] {
        assert!(
            Game::parse(&ShadowChess, &state, Seat::WHITE, text).is_err(),
            "{text}"
        );
    }
}

/// A piece letter in a shadow capture must name the piece that stands there: a typo is refused
/// with the reason and the nearest legal captures, never played as another piece's move.
#[test]
fn figure_24_wrong_piece_letters_in_a_shadow_capture_are_refused() {
    let state = game_from(&format!("{FIGURE_24} w - - 0 1"));
    let err = Game::parse(&ShadowChess, &state, Seat::WHITE, "Kc5-d7(xBc8)")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("Kc5-d7(xBc8) is not legal: the piece on c5 is a knight, not a king"),
        "{err}"
    );
    assert!(err.contains("you could play Nc5-d7(xBc8)"), "{err}");
    let err = Game::parse(&ShadowChess, &state, Seat::WHITE, "Nc5-d7(xQc8)")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("Nc5-d7(xQc8) is not legal: c8 holds a bishop, not a queen"),
        "{err}"
    );
    assert!(err.contains("Nc5-d7(xBc8)"), "{err}");
    // The right letters, or none, still play the capture.
    for text in ["Nc5-d7(xBc8)", "c5-d7(xc8)"] {
        let sm = Game::parse(&ShadowChess, &state, Seat::WHITE, text).unwrap();
        assert_eq!(Game::action_text(&ShadowChess, &state, &sm), "Nc5-d7(xBc8)");
    }
}

/// Each refused shadow capture gives its own reason: a promotion to a king, a promotion by a
/// piece that is no pawn, a pawn step it cannot make.
#[test]
fn shadow_captures_refused_for_the_real_reason() {
    let state = game_from("r5k1/3P4/8/8/8/8/8/4K3 w - - 0 1");
    let err = Game::parse(&ShadowChess, &state, Seat::WHITE, "d7-e8=K(xRa8)").unwrap_err();
    assert_eq!(
        err.to_string(),
        "d7-e8=K(xRa8) is not legal: a pawn promotes to a queen, rook, bishop or knight (=Q, \
         =R, =B or =N)"
    );
    let state = game_from(&format!("{FIGURE_24} w - - 0 1"));
    let err = Game::parse(&ShadowChess, &state, Seat::WHITE, "Nc5-d7=Q(xBc8)").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nc5-d7=Q(xBc8) is not legal: the knight on c5 is no pawn: only a pawn promotes"
    );
    let err = Game::parse(&ShadowChess, &state, Seat::WHITE, "e4-e6(xBc8)").unwrap_err();
    assert_eq!(
        err.to_string(),
        "e4-e6(xBc8) is not legal: the pawn on e4 cannot move from e4 to e6"
    );
}

//! The book's introduction puzzle, its setup example and its special-move example
//! (`RULES-NOTES.md`, "Chess Golf ...").

use super::*;

const INTRO: &str = "2B3R1/5k2/1r1n1N2/1r2b3/R5q1/1B1n1N2/b6K/5Q2";

fn sq(name: &str) -> Square {
    parse_square(name).unwrap()
}

fn path(text: &str) -> Vec<(Square, Square)> {
    text.split(", ")
        .map(|m| (sq(&m[..2]), sq(&m[m.len() - 2..])))
        .collect()
}

#[test]
fn the_introduction_takes_three_moves_and_both_of_the_books_paths_work() {
    let board = GolfBoard::from_fen(INTRO).unwrap();
    let chosen = Chosen::parse("K,b").unwrap();
    let best = board.solve(&chosen, 6).unwrap().unwrap();
    assert_eq!(best.len(), 3, "{best:?}");
    // The bishop as knight (from d6), as king (from f7), then as queen (from g4) takes h2.
    let end = board
        .check_path(&chosen, &path("e5-g6, g6-h5, h5xh2"))
        .unwrap();
    assert_eq!(end.at(sq("h2")).unwrap().role, Role::Bishop);
    // The white bishop steps aside as a rook, the black rook comes down, the a2 bishop takes.
    board
        .check_path(&chosen, &path("b3-c3, b5-b3, a2xh2"))
        .unwrap();
    // The e5 bishop cannot take the king directly: its own movement does not count.
    let why = board.check_path(&chosen, &path("e5xh2")).unwrap_err();
    assert!(why.contains("not allowed"), "{why}");
    // Nothing shorter exists.
    assert_eq!(board.solve(&chosen, 2).unwrap(), None);
}

#[test]
fn the_setup_deals_the_books_example() {
    let cards: Vec<Card> = "BRkrnNrbRqBnNbKQ"
        .chars()
        .map(|c| Card::from_letter(c).unwrap())
        .collect();
    let board = GolfBoard::deal(&cards);
    assert_eq!(board.fen(), "5Q2/b6K/1B1n1N2/R5q1/1r2b3/1r1n1N2/5k2/2B3R1");
}

#[test]
fn breaking_the_last_white_pair_lets_every_white_piece_step_like_a_king() {
    let board = GolfBoard::from_fen("5Q2/b6K/1B1n1N2/R5q1/1r2b3/1r1n1N2/5k2/2B3R1").unwrap();
    let chosen = Chosen::parse("q,N").unwrap();
    // Before: the f6 knight has no white neighbour and White still has a pair (a5-b6).
    let why = board.check_path(&chosen, &path("f6xg5")).unwrap_err();
    assert!(why.contains("not allowed"), "{why}");
    let end = board.check_path(&chosen, &path("b6-c6, f6xg5")).unwrap();
    assert_eq!(end.at(sq("g5")).unwrap().role, Role::Knight);
    assert_eq!(board.solve(&chosen, 4).unwrap().unwrap().len(), 2);
}

#[test]
fn in_a_three_card_hole_only_the_first_capturer_captures_again() {
    // Two white rooks either side of their king (which lends them king steps); the black
    // bishop and knight are the other chosen types.
    let board = GolfBoard::from_fen("8/8/8/8/8/8/b1n5/RKR5").unwrap();
    let chosen = Chosen::parse("R,b,n").unwrap();
    // The a1 rook takes the bishop; the c1 rook may not then take the knight.
    let why = board
        .check_path(&chosen, &path("a1xa2, c1xc2"))
        .unwrap_err();
    assert!(why.contains("only the piece that captured first"), "{why}");
    // The first capturer must take it: a2-b2 as a king (from b1), then b2xc2.
    board
        .check_path(&chosen, &path("a1xa2, a2-b2, b2xc2"))
        .unwrap();
    // One capture is not yet the hole.
    let why = board.check_path(&chosen, &path("a1xa2")).unwrap_err();
    assert!(why.contains("ends before"), "{why}");
    assert_eq!(board.solve(&chosen, 5).unwrap().unwrap().len(), 3);
    assert!(Chosen::parse("K,p").is_err());
    assert!(Chosen::parse("K").is_err());
}

#[test]
fn a_key_updated_by_a_move_is_the_key_of_the_board_after_it() {
    let progress = Progress {
        capturer: None,
        remaining: 0b11,
    };
    for fen in [
        INTRO,
        "5Q2/b6K/1B1n1N2/R5q1/1r2b3/1r1n1N2/5k2/2B3R1",
        "8/8/8/8/8/8/b1n5/RKR5",
    ] {
        let board = GolfBoard::from_fen(fen).unwrap();
        let key = board.key(progress);
        let moves = board.moves(|_, _| true);
        assert!(moves.iter().any(|m| m.capture));
        for m in moves {
            let mut after = board.clone();
            after.play(m);
            assert_eq!(key.after(m, progress), after.key(progress), "{m}");
            assert_eq!(GolfBoard::from_key(after.key(progress)).0, after);
        }
    }
}

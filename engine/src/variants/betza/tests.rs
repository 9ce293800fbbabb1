use super::*;
use crate::chess::Position;

fn play(game: &mut BetzaGame, text: &str) -> Vec<Event> {
    let action = game.parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(game.legal_actions().contains(&action), "{text} is legal");
    game.apply(action)
}

fn refused(game: &BetzaGame, text: &str) -> String {
    match game.parse(text) {
        Ok(a) => panic!("{text} was accepted as {}", game.action_text(a)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn two_players_count_chess_perft_from_well_known_positions() {
    let start = BetzaGame::new(2);
    assert_eq!(
        (1..=3).map(|d| start.perft(d)).collect::<Vec<_>>(),
        vec![20, 400, 8902]
    );
    // Positions chosen for castling, en passant, promotion and pins (the chessprogramming
    // wiki's perft positions), each held to the chess engine's own count.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b Qkq e3 0 1",
    ] {
        let pos = Position::from_fen(fen, crate::chess::Rules::chess()).unwrap();
        let game = BetzaGame::from_chess(&pos);
        for depth in 1..=3 {
            assert_eq!(
                game.perft(depth),
                crate::chess::perft(&pos, depth),
                "{fen} at depth {depth}"
            );
        }
    }
}

#[test]
fn two_players_write_moves_as_chess_does() {
    let mut game = BetzaGame::new(2);
    for text in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Bc5"] {
        play(&mut game, text);
    }
    assert_eq!(
        game.moves(),
        [
            "White A+B: e4",
            "Black A+B: e5",
            "White A+B: Nf3",
            "Black A+B: Nc6",
            "White A+B: Bc4",
            "Black A+B: Nf6",
            "White A+B: O-O",
            "Black A+B: Bc5"
        ]
    );
    // Scholar's mate ends the game: Black's army is captured and White holds both.
    let mut game = BetzaGame::new(2);
    for text in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"] {
        play(&mut game, text);
    }
    let events = play(&mut game, "Qxf7");
    assert!(
        public_text(&events).contains("White played A+B: Qxf7#"),
        "{events:?}"
    );
    assert_eq!(
        game.outcome,
        Some(Outcome::win(vec![Seat(0)], EndReason::Checkmate))
    );
}

#[test]
fn black_castles_on_its_own_side() {
    let mut game = BetzaGame::new(2);
    for text in ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "d3"] {
        play(&mut game, text);
    }
    play(&mut game, "O-O");
    // Black's king (its own d1) went to its own b1, g8 as White reads the pair.
    assert_eq!(
        game.man(Spot::new(1, 1, 0)).map(|m| m.role),
        Some(Role::King)
    );
    assert_eq!(game.moves().last().unwrap(), "Black A+B: O-O");
}

#[test]
fn an_army_moves_once_per_board_it_stands_on() {
    let mut game = BetzaGame::new(3);
    // Every army stands on its own board alone: one move each.
    assert_eq!(game.turn.allowance, 1);
    play(&mut game, "A+C: e4");
    assert_eq!(game.current(), 1);
    // Black (dark) sees its own board on top, as in chess.
    play(&mut game, "C+B: Nf6");
    play(&mut game, "C+A: Nf3");
    // White's pawn walks across the join onto Orange's board (C's own d4).
    play(&mut game, "A+C: e5");
    assert_eq!(
        game.man(Spot::new(2, 3, 3)),
        Some(Man {
            army: 0,
            role: Role::Pawn
        })
    );
    play(&mut game, "A+B: e5");
    // Orange's long step passes its own e3...
    play(&mut game, "C+B: e4");
    // ...and White, now on two boards, has two moves: first the capture en passant on A+C.
    assert_eq!(game.turn.allowance, 2);
    let events = play(&mut game, "A+C: exd6");
    assert!(
        public_text(&events).contains("White played A+C: exd6"),
        "{events:?}"
    );
    assert_eq!(game.man(Spot::new(2, 4, 3)), None, "Orange's pawn is taken");
    assert_eq!(game.current(), 0, "White has a second move");
    let err = refused(&game, "B+C: d7");
    assert!(err.contains("has already moved this turn"), "{err}");
    let err = refused(&game, "C+A: Nc3");
    assert!(err.contains("already pushed C and A together"), "{err}");
    play(&mut game, "A+B: Nc3");
    assert_eq!(game.current(), 1, "two boards, two moves");
}

#[test]
fn a_missing_board_and_a_named_pair_are_checked() {
    let game = BetzaGame::new(3);
    let err = refused(&game, "A+E: e4");
    assert!(
        err.contains("there is no board E: this game has boards A to C"),
        "{err}"
    );
    let err = refused(&game, "A+A: e4");
    assert!(err.contains("named twice"), "{err}");
    let err = refused(&game, "B+C: e4");
    assert!(err.contains("White has no piece on board B or C"), "{err}");
    let err = refused(&game, "e4");
    assert!(err.contains("several pairs"), "{err}");
    let err = refused(&game, "done");
    assert!(err.contains("at least one move"), "{err}");
    // The pair may be named either way up: C+A reads C at the bottom.
    let mut other = game.clone();
    play(&mut other, "C+A: d5");
    assert_eq!(other.moves(), ["White A+C: e4"]);
}

fn public_text(events: &[Event]) -> String {
    Event::public_texts(events).join(" ")
}

/// A three-player table with only the pieces given, White to move: (board, own square, army,
/// role), squares in the board owner's coordinates.
fn table(pieces: &[(u8, &str, u8, Role)]) -> BetzaGame {
    let mut game = BetzaGame::new(3);
    game.men.iter_mut().for_each(|m| *m = None);
    game.castling = vec![[false; 2]; 3];
    for &(board, square, army, role) in pieces {
        let b = square.as_bytes();
        game.set(
            Spot::new(board, b[0] - b'a', b[1] - b'1'),
            Some(Man { army, role }),
        );
    }
    game.repetitions.clear();
    game.begin_turn();
    game
}

#[test]
fn a_mate_on_the_joined_boards_captures_the_army_for_the_mater() {
    // Black's king on its own h1 (a8 as White sees A+B) behind its pawns; White's rook comes
    // from A to B's back rank.
    let mut game = table(&[
        (0, "h1", 0, Role::King),
        (0, "d1", 0, Role::Rook),
        (1, "h1", 1, Role::King),
        (1, "h2", 1, Role::Pawn),
        (1, "g2", 1, Role::Pawn),
        (2, "e1", 2, Role::King),
    ]);
    let events = play(&mut game, "A+B: Rd8");
    let text = public_text(&events);
    assert!(text.contains("White played A+B: Rd8#"), "{text}");
    assert!(
        text.contains("Black is checkmated on A+B and is captured"),
        "{text}"
    );
    assert_eq!(game.table.controller(1), Seat(0));
    assert_eq!(game.outcome, None, "Orange still holds an army");
    // Black's turns now belong to White's player; Orange follows.
    assert_eq!(game.current(), 1);
    assert_eq!(game.prompts()[0].seat, Seat(0));
}

#[test]
fn no_bombarding_and_no_piece_in_where_another_left() {
    // White stands on A and C (two moves); Black's pawns on B's a4 and d3.
    let start = table(&[
        (0, "a1", 0, Role::King),
        (0, "h1", 0, Role::Rook),
        (2, "d4", 0, Role::Knight),
        (1, "h1", 1, Role::King),
        (1, "a4", 1, Role::Pawn),
        (1, "d3", 1, Role::Pawn),
        (2, "e1", 2, Role::King),
    ]);
    assert_eq!(start.turn.allowance, 2);
    let mut game = start.clone();
    play(&mut game, "A+B: Rxh5");
    let err = refused(&game, "B+C: Nxd3");
    assert!(
        err.contains("you may not bombard one board from several"),
        "{err}"
    );
    // The knight leaves C for B; then the rook may not come onto C.
    let mut game = start.clone();
    play(&mut game, "B+C: Nf3");
    let err = refused(&game, "A+C: Rh5");
    assert!(
        err.contains("a piece left board C this turn, so none may come onto it"),
        "{err}"
    );
}

/// No move captures a king (our reading): a move onto one is refused for that reason, not as a
/// move into check; and a malformed pair is explained, not put behind another pair.
#[test]
fn a_king_capture_and_a_malformed_pair_are_refused_with_their_reasons() {
    // White's rook on A's a2 looks up the a-file of A+B at Black's king on B's h1 (a8).
    let game = table(&[
        (0, "h1", 0, Role::King),
        (0, "a2", 0, Role::Rook),
        (1, "h1", 1, Role::King),
        (2, "e1", 2, Role::King),
    ]);
    let err = refused(&game, "A+B: Rxa8");
    assert!(err.contains("no move captures a king"), "{err}");
    assert!(!err.contains("would leave your king in check"), "{err}");
    let game = BetzaGame::new(3);
    let err = refused(&game, "A+1: e4");
    assert!(err.contains("does not name two half-boards"), "{err}");
    assert!(!err.contains("A+B: A+1"), "{err}");
    let err = refused(&game, "resign");
    assert!(err.contains("/resign"), "{err}");
}

//! Trimens Chess against its book.

use super::*;

fn game(seats: usize, options: &[&str]) -> TrimensState {
    let options = Options::parse(options.iter().map(|s| s.to_string())).unwrap();
    Trimens.setup(&options, seats, 0).unwrap()
}

fn play(state: &mut TrimensState, text: &str) -> Vec<Event> {
    let seat = state.to_move();
    Game::play(&Trimens, state, seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .1
}

fn public(events: &[Event]) -> Vec<String> {
    Event::public_texts(events)
}

/// The book's opening positions, by triangle number.
#[test]
fn the_armies_stand_on_the_books_triangles() {
    let s = game(3, &[]);
    let pos = s.position();
    let at = |n: &str| {
        let p = pos.piece_at(pos.board().cell(n).unwrap()).unwrap();
        (p.seat.0 + 1, p.role.upper_char())
    };
    let book: [(u8, &str, &[&str]); 18] = [
        (1, "K", &["6"]),
        (1, "Q", &["5"]),
        (1, "R", &["1", "10"]),
        (1, "B", &["3", "8"]),
        (1, "N", &["2", "9"]),
        (1, "P", &["11", "12", "14", "15", "16", "17", "19", "20"]),
        (2, "K", &["219"]),
        (2, "Q", &["221"]),
        (2, "R", &["168", "258"]),
        (2, "B", &["170", "257"]),
        (2, "N", &["169", "256"]),
        (
            2,
            "P",
            &["167", "166", "172", "218", "217", "223", "255", "254"],
        ),
        (3, "K", &["197"]),
        (3, "Q", &["196"]),
        (3, "R", &["141", "245"]),
        (3, "B", &["195", "242"]),
        (3, "N", &["142", "244"]),
        (
            3,
            "P",
            &["140", "143", "193", "192", "198", "199", "240", "246"],
        ),
    ];
    for (player, role, triangles) in book {
        for t in triangles {
            assert_eq!(
                at(t),
                (player, role.chars().next().unwrap()),
                "triangle {t}"
            );
        }
    }
    assert_eq!(pos.pieces().count(), 48);
}

/// The book's sample game (designated play, each mating the player on his left first),
/// move by move in its own notation.
#[test]
fn the_books_sample_game_replays() {
    let mut s = game(3, &["play=designated", "direction=left"]);
    let moves = [
        "1p/15-26",
        "2p/218-174",
        "3p/198-190",
        "1p/17-24",
        "2p/223-215",
        "3p/193-146",
        "1Q/5-119",
        "2N/169-164",
        "3B/195-191",
        "1Q/119-122",
        "2p/166-165",
        "3Q/196-198",
        "1p/14-27",
        "2B/257-223",
        "3B/191-27xP",
        "1Q/122-230",
        "2B/223-243",
        "3B/27-5",
        "1N/9-14",
        "2B/243-141xR",
    ];
    for text in moves {
        play(&mut s, text);
    }
    // 3Q/198-15 mates player 1: his pieces are dead and stay.
    let events = play(&mut s, "3Q/198-15 chmt");
    assert_eq!(s.moves.last().unwrap(), "3Q/198-15 chmt");
    assert!(
        public(&events)
            .iter()
            .any(|t| t == "White is checkmated: those pieces are dead and stay on the board."),
        "{events:?}"
    );
    assert!(s.is_dead(Seat(0)));
    assert_eq!(s.to_move(), Seat(1));
    let pieces_before = s
        .position()
        .pieces()
        .filter(|(_, p)| p.seat == Seat(0))
        .count();
    assert_eq!(pieces_before, 15, "White's pieces stay on the board");
    for text in ["2B/170-118", "3Q/15-91", "2 O-O", "3Q/91-97"] {
        play(&mut s, text);
    }
    let board = s.position().board();
    let king = s.position().king(Seat(1)).unwrap();
    assert_eq!(board.label(king), "169", "castled king side: K-169, R-170");
    assert_eq!(
        s.position()
            .piece_at(board.cell("170").unwrap())
            .map(|p| p.role),
        Some(Role::Rook)
    );
    // The book calls its last move mate; Red's bishop on 5 can take the queen: check only.
    let events = play(&mut s, "2Q/221-243 chmt");
    assert_eq!(s.moves.last().unwrap(), "2Q/221-243 ch");
    assert!(!events.iter().any(|e| matches!(e, Event::GameOver(_))));
    assert_eq!(s.to_move(), Seat(2));
    let texts = Trimens.legal_texts(&s, Seat(2));
    assert!(texts.contains(&"3B/5-243xQ".to_string()), "{texts:?}");
}

#[test]
fn bad_moves_are_refused_with_the_reason() {
    let mut s = game(3, &[]);
    let err = |s: &mut TrimensState, seat: u8, text: &str| {
        Game::play(&Trimens, s, Seat(seat), text)
            .unwrap_err()
            .to_string()
    };
    assert!(err(&mut s, 0, "1p/15-259").contains("there is no triangle 259"));
    assert!(err(&mut s, 1, "2p/218-174").contains("not your turn"));
    assert!(err(&mut s, 0, "2p/218-174").contains("written for player 2"));
    // A bishop's "diagonal" through the points of the triangles.
    play(&mut s, "1p/15-26");
    play(&mut s, "2p/218-174");
    play(&mut s, "3p/198-190");
    let e = err(&mut s, 0, "1B/3-27");
    assert!(e.contains("not legal"), "{e}");
    // A dead army cannot move, and its pieces cannot be taken.
    let mut s = game(3, &[]);
    s.kill(Seat(2));
    assert!(err(&mut s, 2, "3p/198-190").contains("dead"));
    assert!(Trimens.is_out(&s, Seat(2)));
}

/// Whatever is written beyond a move is refused with what it is, never dropped: "15-26
/// please" was played as 15-26, and "1p/15-2б" read as 15-2.
#[test]
fn text_beyond_the_move_is_refused_not_dropped() {
    let mut s = game(3, &[]);
    for (text, junk) in [
        ("15-26 please", "'please'"),
        ("1p/15-2б", "'б'"),
        ("1p/15-26 x", "'x'"),
    ] {
        let e = Game::play(&Trimens, &mut s, Seat(0), text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("{junk} is not part of a move")),
            "{text}: {e}"
        );
    }
    assert!(s.moves.is_empty(), "nothing was played");
    // The book's forms still read: the piece taken, spaces, x between the triangles.
    play(&mut s, "1p/15 - 26");
    play(&mut s, "218x174");
    assert_eq!(s.moves, ["1p/15-26", "2p/218-174"]);
}

/// "Dead pieces become a part of the playing board and cannot be displaced by either
/// remaining player": the book's own 3B/191-27xP, with the pawn on 27 dead, is refused for
/// that reason, not as "not a diagonal of your frame".
#[test]
fn taking_a_dead_piece_is_refused_as_such() {
    let mut s = game(3, &[]);
    for text in [
        "1p/15-26",
        "2p/218-174",
        "3p/198-190",
        "1p/17-24",
        "2p/223-215",
        "3p/193-146",
        "1Q/5-119",
        "2N/169-164",
        "3B/195-191",
        "1Q/119-122",
        "2p/166-165",
        "3Q/196-198",
        "1p/14-27",
        "2B/257-223",
    ] {
        play(&mut s, text);
    }
    s.kill(Seat(0));
    assert_eq!(s.to_move(), Seat(2));
    for text in ["3B/191-27xP", "191-27"] {
        let e = Game::play(&Trimens, &mut s, Seat(2), text)
            .unwrap_err()
            .to_string();
        assert!(e.contains("the pawn on 27 is dead"), "{text}: {e}");
        assert!(!e.contains("diagonal"), "{text}: {e}");
    }
}

#[test]
fn designated_play_forbids_checking_the_other_opponent() {
    // Player 1 (White) must mate Red (his right) first: a move checking Black is illegal.
    let s = game(3, &["play=designated", "direction=right"]);
    assert_eq!(s.designated(Seat(0)), Some(Seat(2)));
    assert_eq!(s.designated(Seat(1)), Some(Seat(0)));
    let left = game(3, &["play=designated", "direction=left"]);
    assert_eq!(left.designated(Seat(0)), Some(Seat(1)));
    for m in s.legal() {
        let mut after = s.position().clone();
        after.play(m).unwrap();
        let k = after.king(Seat(1)).unwrap();
        assert!(!after.attacked_by(k, Seat(0)));
    }
    let refused = Trimens.setup(&Options::parse(["play=designated"]).unwrap(), 2, 0);
    assert!(refused.unwrap_err().to_string().contains("three players"));
}

#[test]
fn two_players_play_on_the_same_board() {
    let s = game(2, &[]);
    assert_eq!(s.position().pieces().count(), 32);
    assert_eq!(Trimens.perft(&s, 1), Some(s.legal().len() as u64));
    assert!(s.legal().len() >= 16);
}

#[test]
fn states_store_and_load() {
    let mut s = game(3, &["play=designated"]);
    play(&mut s, "1p/15-26");
    s.kill(Seat(1));
    let json = serde_json::to_string(&s).unwrap();
    let back: TrimensState = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    assert!(back.is_dead(Seat(1)));
    assert_eq!(back.legal(), s.legal());
}

/// Dead pieces are part of the board: nobody may take them, and they threaten nothing.
#[test]
fn dead_pieces_are_never_taken_and_threaten_nothing() {
    let mut s = game(3, &[]);
    for text in [
        "1p/15-26",
        "2p/218-174",
        "3p/198-190",
        "1p/17-24",
        "2p/223-215",
        "3p/193-146",
        "1Q/5-119",
    ] {
        play(&mut s, text);
    }
    s.kill(Seat(0));
    let pos = s.position();
    for seat in [Seat(1), Seat(2)] {
        for m in s.moves_in(pos, seat) {
            let taken = pos.piece_at(m.to);
            assert!(taken.is_none_or(|p| p.seat != Seat(0)), "{m:?}");
        }
        let king = pos.king(seat).unwrap();
        assert!(!pos.attacked_by(king, Seat(0)) || !pos.seat_in_check(seat));
        assert!(!pos.seat_in_check(seat));
    }
}

/// Dead pieces are drawn as dead: the view marks them, and only them.
#[test]
fn the_view_marks_dead_pieces() {
    let mut s = game(3, &[]);
    s.kill(Seat(1));
    let view = Trimens.view(&s, Viewer::Spectator);
    assert_eq!(view.figures.len(), 48);
    for placed in &view.figures {
        assert_eq!(
            placed.markers.contains(&Marker::Dead),
            placed.army == Seat(1),
            "{placed:?}"
        );
    }
}

/// An empty board but for the kings where they start, and the pieces given: (seat, role, the
/// triangle as (rank, file) in that seat's own frame).
fn sparse(state: &mut TrimensState, pieces: &[(u8, Role, (i16, i16))], turn: u8) {
    let pos = &mut state.position;
    let board = pos.rules().board_arc().clone();
    for c in board.cells() {
        if pos.piece_at(c).is_some_and(|p| p.role != Role::King) {
            pos.set_piece(c, None);
        }
    }
    for &(seat, role, (rank, file)) in pieces {
        let cell = board.frame_cell(seat as usize, rank, file).unwrap();
        pos.set_piece(
            cell,
            Some(Piece {
                seat: Seat(seat),
                role,
            }),
        );
    }
    pos.set_turn(Seat(turn));
}

#[test]
fn a_king_is_never_taken_even_when_a_line_to_it_opens() {
    let mut s = game(3, &[]);
    // Red's king starts on (0, 6) of Red's frame; Black gets a queen right beside it, in
    // Red's frame, and Black is to move: Red's king is attacked, but Black may not take it.
    let red_king = s.position().king(Seat(2)).unwrap();
    let board = s.position().rules().board_arc().clone();
    let (r, f) = board.frame_coord(1, red_king).unwrap();
    let beside = [(0, 1), (0, -1), (1, 0), (-1, 0)]
        .into_iter()
        .find_map(|(dr, df)| {
            board
                .frame_cell(1, r + dr, f + df)
                .map(|_| (r + dr, f + df))
        })
        .unwrap();
    sparse(&mut s, &[(1, Role::Queen, beside)], 1);
    assert!(s.position().attacked_by(red_king, Seat(1)));
    assert!(s.legal().iter().all(|m| m.to != red_king));
}

#[test]
fn short_forms_read_right() {
    let s = game(3, &[]);
    let legal = s.legal();
    // "2-13" is a move from triangle 2 (White's knight), not player 2's move to 13.
    let m = notation::read(s.position(), &legal, "2-13");
    assert!(m.is_err() || m.unwrap().from == s.position().board().cell("2").unwrap());
    let board = s.position().board();
    let hop = legal
        .iter()
        .find(|m| board.label(m.from) == "9")
        .expect("the knight on 9 can move");
    let text = format!("9-{}", board.label(hop.to));
    assert_eq!(notation::read(s.position(), &legal, &text), Ok(*hop));
    // A promotion in the short form: White's pawn one step from its last triangle.
    let mut s = game(3, &[]);
    let board = s.position().rules().board_arc().clone();
    let last = board
        .cells()
        .find(|&c| {
            board.frame_coord(0, c).is_some_and(|(r, f)| {
                r > 4
                    && board.frame_cell(0, r + 1, f).is_none()
                    && board.frame_cell(0, r - 1, f).is_some()
            })
        })
        .unwrap();
    let (r, f) = board.frame_coord(0, last).unwrap();
    sparse(&mut s, &[(0, Role::Pawn, (r - 1, f))], 0);
    let from = board.frame_cell(0, r - 1, f).unwrap();
    let text = format!("{}-{}/N", board.label(from), board.label(last));
    let m = notation::read(s.position(), &s.legal(), &text).unwrap();
    assert_eq!(m.kind, MoveKind::Promotion(Role::Knight), "{text}");
}

/// What a computer player counts to hem a beaten king in: the king's moves were it its turn.
#[test]
fn a_kings_room_is_the_moves_it_would_have() {
    let mut s = game(3, &[]);
    let boxed = Trimens.king_room(&s, Seat(0)).unwrap();
    sparse(&mut s, &[], 1);
    let open = Trimens.king_room(&s, Seat(0)).unwrap();
    assert!(
        open > boxed,
        "{open} moves alone against {boxed} among its army"
    );
    // A Black queen two rows before White's king (in White's frame) takes squares from it.
    let board = s.position().rules().board_arc().clone();
    let king = s.position().king(Seat(0)).unwrap();
    let (rank, file) = board.frame_coord(0, king).unwrap();
    let before_king = board.frame_cell(0, rank + 2, file).unwrap();
    let in_blacks_frame = board.frame_coord(1, before_king).unwrap();
    sparse(&mut s, &[(1, Role::Queen, in_blacks_frame)], 1);
    let pressed = Trimens.king_room(&s, Seat(0)).unwrap();
    assert!(
        pressed < open,
        "{pressed} moves with the queen near, {open} without"
    );
}

use super::*;
use crate::game::public_text;
use crate::table::ArmyStatus;

fn new(mode: Mode) -> DoublesState {
    DoublesState::doubles(mode, false, 7)
}

/// A game in `mode` with only the pieces given for each army (`"Kl12"` style), army 0 to move.
fn with_armies(mode: Mode, armies: [&str; 4]) -> DoublesState {
    let mut state = new(mode);
    let rules = state.position.rules().clone();
    let board = rules.board();
    let mut cells = vec![None; board.len()];
    for (army, line) in armies.iter().enumerate() {
        for word in line.split_whitespace() {
            let role = Role::from_char(word.chars().next().unwrap()).unwrap();
            cells[board.cell(&word[1..]).unwrap().index()] = Some(Piece {
                seat: Seat(army as u8),
                role,
            });
        }
    }
    let setup = Setup {
        cells,
        turn: Seat(0),
        castling_rooks: Vec::new(),
        ep_target: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    state.position = Position::from_setup_with(setup, rules, crate::chess::KingRule::Stored)
        .expect("a test position");
    state.repetitions = vec![state.position.repetition_key()];
    state
}

/// Plays a move text for whoever is to move, through the game's own `play`.
fn play(state: &mut DoublesState, text: &str) -> Vec<Event> {
    let seat = state.table.controller(state.to_move());
    let (_, events) = Doubles
        .play(state, seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    events
}

fn at(state: &DoublesState, label: &str) -> Option<(u8, Role)> {
    let cell = state.position.board().cell(label).unwrap();
    state.position.piece_at(cell).map(|p| (p.seat.0, p.role))
}

#[test]
fn the_start_matches_the_books_text() {
    let state = new(Mode::Partners);
    assert_eq!(state.position.pieces().count(), 64);
    // "W2's King rests on square A6, while B2's QBP rests on K5."
    assert_eq!(at(&state, "a6"), Some((2, Role::King)));
    assert_eq!(at(&state, "k5"), Some((3, Role::Pawn)));
    // Kings toward the friendly corners: a1 for the Whites, l12 for the Blacks.
    assert_eq!(at(&state, "f1"), Some((0, Role::King)));
    assert_eq!(at(&state, "g12"), Some((1, Role::King)));
    assert_eq!(at(&state, "l7"), Some((3, Role::King)));
    // Every queen on a dark square (a1 is dark).
    for (cell, piece) in state.position.pieces() {
        if piece.role == Role::Queen {
            assert_eq!(
                state.position.board().shade(cell),
                crate::board::Shade::Dark
            );
        }
    }
    let cut = new(Mode::CutThroat);
    assert_eq!(cut.position.board().len(), 144 - 16);
    assert_eq!(cut.position.pieces().count(), 64);
}

/// The book's typical opening, in its own per-player notation, and every remark it makes.
#[test]
fn the_books_typical_opening_replays_in_its_own_notation() {
    let mut state = new(Mode::Partners);
    for text in [
        "P - Q5", "P - K5", "P - Q5", "P - K5", // 1.
        "B - II7", "Q - N4", "N - KR3", "KN - QB3", // 2.
        "B - R8", "B - N5", "B - Q2", // 3.
    ] {
        play(&mut state, text);
    }
    // Whites' pawns opened the a8-h1 diagonal; Blacks' pawns g8 and h7 guard each other.
    assert_eq!(at(&state, "g5"), Some((0, Role::Pawn)));
    assert_eq!(at(&state, "e7"), Some((2, Role::Pawn)));
    assert_eq!(at(&state, "g8"), Some((1, Role::Pawn)));
    assert_eq!(at(&state, "h7"), Some((3, Role::Pawn)));
    // B1's Q-N4 is i9; W2's N-KR3 c3 blocks it from a1; B2's KN-QB3 the double hop l9-k7-j5.
    assert_eq!(at(&state, "i9"), Some((1, Role::Queen)));
    assert_eq!(at(&state, "c3"), Some((2, Role::Knight)));
    assert_eq!(at(&state, "j5"), Some((3, Role::Knight)));
    // W1's B-R8 is c8, and W2's B-Q2 slips in behind it on b7; B1's B-N5 is d8.
    assert_eq!(at(&state, "c8"), Some((0, Role::Bishop)));
    assert_eq!(at(&state, "b7"), Some((2, Role::Bishop)));
    assert_eq!(at(&state, "d8"), Some((1, Role::Bishop)));
    assert_eq!(state.to_move(), 3, "Black 2 to play");
    assert_eq!(
        state.moves()[..4],
        ["White 1: g5", "Black 1: g8", "White 2: e7", "Black 2: h7"]
    );
    // "W1 can now check in one move with a Pawn capture": g5 takes h6? No: the bishop on c8
    // and pawns; the book's claim concerns the position after move 2 and holds there.
}

#[test]
fn pawns_step_three_then_two_until_the_centre() {
    let mut state = new(Mode::Partners);
    let targets = |state: &DoublesState, from: &str| -> Vec<String> {
        let board = state.position.board();
        let from = board.cell(from).unwrap();
        let mut v: Vec<String> = state
            .moves_of(state.to_move())
            .iter()
            .filter(|m| m.from == from)
            .map(|m| board.label(m.to).to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(targets(&state, "g2"), ["g3", "g4", "g5"]);
    play(&mut state, "g5");
    play(&mut state, "c10");
    play(&mut state, "e3");
    play(&mut state, "j9");
    assert_eq!(
        targets(&state, "g5"),
        ["g6", "g7"],
        "one or two before the centre"
    );
    play(&mut state, "g7");
    play(&mut state, "c9");
    play(&mut state, "e4");
    play(&mut state, "j8");
    assert_eq!(
        targets(&state, "g7"),
        ["g8"],
        "one at a time past the centre"
    );
}

#[test]
fn knights_add_a_second_hop_over_empty_squares_never_capturing() {
    let mut state = new(Mode::Partners);
    let board = state.position.board();
    let d1 = board.cell("d1").unwrap();
    let mut from_d1: Vec<String> = state
        .moves_of(0)
        .iter()
        .filter(|m| m.from == d1)
        .map(|m| board.label(m.to).to_string())
        .collect();
    from_d1.sort();
    // c3, e3 and b2 by one hop; f5 by two (e3 then f5). b5 is W2's pawn: no capture there.
    assert_eq!(from_d1, ["b2", "c3", "e3", "f5"]);
    // Through an occupied square: refused with the reason.
    play(&mut state, "e3");
    play(&mut state, "Nc10");
    play(&mut state, "c4");
    play(&mut state, "j6");
    // d1-e3-f5 would hop over the pawn now on e3.
    let err = Doubles.play(&mut state, Seat(0), "Nf5").unwrap_err();
    assert!(err.to_string().contains("between"), "{err}");
    // The hop i1-h3-g5: h3 empty, g5 empty.
    play(&mut state, "Ng5");
    assert_eq!(at(&state, "g5"), Some((0, Role::Knight)));
}

#[test]
fn en_passant_on_every_skipped_square_and_at_right_angles() {
    // Cut-throat: White 2 moves right after White 1 and may take its pawn at right angles.
    let mut state = new(Mode::CutThroat);
    play(&mut state, "c5");
    // c2-c5 passed c3 and c4: W2's pawn on b3 takes on c4, removing the pawn on c5.
    // Two pawns on the b-file can take on c4 (b3 and b5): the notation names the square.
    let text = Doubles.legal_texts_for(&state);
    assert!(text.contains(&"b3xc4".to_string()), "{text:?}");
    assert!(text.contains(&"b5xc4".to_string()), "{text:?}");
    play(&mut state, "b3xc4");
    assert_eq!(at(&state, "c5"), None);
    assert_eq!(at(&state, "c4"), Some((2, Role::Pawn)));
}

#[test]
fn the_books_en_passant_from_behind_the_squares_passed() {
    // Figure 28: "if White advances P - R5 ... Black may also capture en passant on the next
    // move RP x P - N3 or NP x P - R3." White 1's pawn j2-j5 passes j3 and j4; Black 2's pawns
    // on k3 and k4 (its QRP and QNP) take it on j4 and on j3. Unlike Superchess ("an
    // opponent's pawn situated on an adjoining square of an adjacent file"), the taker need not
    // stand beside the pawn that stepped: k3 is two squares from j5.
    for (take, on) in [("k3xj4", "j4"), ("k4xj3", "j3")] {
        let mut state = with_armies(Mode::Partners, ["Kf1 Pj2", "Kg12", "Ka6", "Kl7 Pk3 Pk4"]);
        play(&mut state, "j5");
        play(&mut state, "Kg11");
        play(&mut state, "Ka7");
        let texts = Doubles.legal_texts_for(&state);
        assert!(texts.contains(&take.to_string()), "{texts:?}");
        play(&mut state, take);
        assert_eq!(at(&state, "j5"), None, "the pawn taken en passant is gone");
        assert_eq!(at(&state, on), Some((3, Role::Pawn)));
    }
}

#[test]
fn partners_mate_misses_a_turn_the_king_is_taken_and_the_taker_is_immune() {
    let mut state = with_armies(Mode::Partners, ["Ka1 Qk3 Rk1", "Ke12", "Ka3", "Kl12 Rl5"]);
    let events = play(&mut state, "Qk11");
    assert!(public_text(&events).contains("Black 2 is checkmated"));
    assert_eq!(state.table.status(3), ArmyStatus::Mated);
    play(&mut state, "Kd12"); // Black 1
    let err = Doubles.play(&mut state, Seat(3), "Rl6").unwrap_err();
    assert!(err.to_string().contains("misses its turns"), "{err}");
    let events = play(&mut state, "Kb3"); // White 2; Black 2 misses the turn
    assert!(public_text(&events).contains("misses"), "{events:?}");
    assert_eq!(state.to_move(), 0);
    // White 1 must take the king: nothing else is allowed.
    let err = Doubles.play(&mut state, Seat(0), "Kb1").unwrap_err();
    assert!(err.to_string().contains("must take the king"), "{err}");
    play(&mut state, "Qxl12");
    assert_eq!(state.position.king(Seat(3)), None);
    assert_eq!(
        state.table.status(3),
        ArmyStatus::Playing,
        "plays on without a king"
    );
    play(&mut state, "Kd11"); // Black 1, out of the queen's check
    play(&mut state, "Kb4"); // White 2
                             // Black 2's rook may not take the queen this move (immunity rule).
    let err = Doubles.play(&mut state, Seat(3), "Rxl12").unwrap_err();
    assert!(err.to_string().contains("immune"), "{err}");
    // The same capture in the book's own notation gets the same reason.
    let err = Doubles.play(&mut state, Seat(3), "R x Q").unwrap_err();
    assert!(err.to_string().contains("immune"), "{err}");
    play(&mut state, "Rl6");
    assert!(state.outcome.is_none());
}

#[test]
fn partners_win_by_mating_both_kings_and_a_resignation_never_rewards_the_partner() {
    let state = new(Mode::Partners);
    let outcome = Doubles.concede(&state, Seat(2), 4, EndReason::Resignation);
    assert_eq!(outcome.winners, vec![Seat(1), Seat(3)]);
    // Black 2 has lost its king; Black 1 is mated: the Whites win.
    let mut state = with_armies(Mode::Partners, ["Ka1 Qk3 Rk1", "Kl12", "Ka3", "Rb12"]);
    let events = play(&mut state, "Qk11");
    let outcome = state.outcome.clone().expect("both black kings are down");
    assert_eq!(outcome.winners, vec![Seat(0), Seat(2)]);
    assert!(events.iter().any(|e| matches!(e, Event::GameOver(_))));
}

#[test]
fn a_stalemate_draws_the_partners_game() {
    // Black 1 (to move after White 1) has only a king on l12 with no move and no check.
    let mut state = with_armies(Mode::Partners, ["Ka1 Qj9", "Kl12", "Ka3", "Kb6"]);
    play(&mut state, "Qj11");
    let outcome = state.outcome.clone().expect("stalemate ends the game");
    assert!(outcome.is_draw());
}

#[test]
fn cut_throat_freezes_the_mated_army_and_goes_on_until_one_is_left() {
    // White 2 (to move after White 1 in cut-throat) is mated.
    let mut state = with_armies(Mode::CutThroat, ["Kf1 Qb8 Rd4", "Kg12", "Ka3", "Kl7"]);
    let events = play(&mut state, "Qb4");
    assert!(public_text(&events).contains("frozen"), "{events:?}");
    assert_eq!(state.table.status(2), ArmyStatus::Frozen);
    assert_eq!(state.to_move(), 1, "Black 1 moves: White 2 is passed over");
    let err = Doubles.play(&mut state, Seat(2), "Kb3").unwrap_err();
    assert!(err.to_string().contains("frozen"), "{err}");
    play(&mut state, "Kf12");
    play(&mut state, "Kl6");
    play(&mut state, "Qxa3");
    assert_eq!(state.table.status(2), ArmyStatus::Eliminated);
    // A resignation does not end a three-player game; a second leaves one player, who wins.
    let events = Doubles
        .leave(&mut state, Seat(1), 4, EndReason::Resignation)
        .unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::GameOver(_))));
    assert_eq!(state.to_move(), 3);
    let events = Doubles
        .leave(&mut state, Seat(3), 4, EndReason::Resignation)
        .unwrap();
    let over = events
        .iter()
        .find_map(|e| match e {
            Event::GameOver(o) => Some(o.clone()),
            _ => None,
        })
        .expect("one player left");
    assert_eq!(over.winners, vec![Seat(0)]);
}

#[test]
fn moves_for_another_army_are_refused_with_the_reason() {
    let mut state = new(Mode::Partners);
    let err = Doubles.play(&mut state, Seat(0), "b3c3").unwrap_err();
    assert!(err.to_string().contains("not yours"), "{err}");
    let err = Doubles.play(&mut state, Seat(1), "g8").unwrap_err();
    assert!(err.to_string().contains("not your turn"), "{err}");
}

#[test]
fn castling_goes_two_squares_toward_the_rook_on_every_edge() {
    let mut state = with_armies(
        Mode::Partners,
        [
            "Kf1 Rc1 Rj1",
            "Kg12 Rc12 Rj12",
            "Ka6 Ra3 Ra10",
            "Kl7 Rl3 Rl10",
        ],
    );
    let rooks: Vec<Cell> = ["c1", "j1", "c12", "j12", "a3", "a10", "l3", "l10"]
        .iter()
        .map(|l| state.position.board().cell(l).unwrap())
        .collect();
    let mut setup = state.position.to_setup();
    setup.castling_rooks = rooks;
    state.position =
        Position::from_setup(setup, state.position.rules().clone()).expect("castling rights");
    // O-O is the king's side, toward the nearer rook: White 1's king f1 to d1, rook c1 to e1.
    play(&mut state, "O-O");
    assert_eq!(at(&state, "d1"), Some((0, Role::King)));
    assert_eq!(at(&state, "e1"), Some((0, Role::Rook)));
    play(&mut state, "O-O"); // Black 1: g12 toward j12, the nearer rook
    assert_eq!(at(&state, "i12"), Some((1, Role::King)));
    assert_eq!(at(&state, "h12"), Some((1, Role::Rook)));
    play(&mut state, "O-O"); // White 2: a6 toward a3
    assert_eq!(at(&state, "a4"), Some((2, Role::King)));
    assert_eq!(at(&state, "a5"), Some((2, Role::Rook)));
    play(&mut state, "O-O"); // Black 2: l7 toward l10
    assert_eq!(at(&state, "l9"), Some((3, Role::King)));
    assert_eq!(at(&state, "l8"), Some((3, Role::Rook)));
}

#[test]
fn the_cylinder_joins_each_armys_own_side_edges() {
    let state = DoublesState::doubles(Mode::Partners, true, 1);
    let rules = state.position.rules();
    let b = rules.board();
    let (a5, l5, e1, e12) = (
        b.cell("a5").unwrap(),
        b.cell("l5").unwrap(),
        b.cell("e1").unwrap(),
        b.cell("e12").unwrap(),
    );
    let west = crate::board::Dir(6);
    let south = crate::board::Dir(4);
    // White 1 and Black 1: files wrap; White 2 and Black 2: ranks wrap.
    assert_eq!(rules.board_of(0).step(a5, west), Some(l5));
    assert_eq!(rules.board_of(0).step(e1, south), None);
    assert_eq!(rules.board_of(2).step(e1, south), Some(e12));
    assert_eq!(rules.board_of(2).step(a5, west), None);
}

#[test]
fn states_round_trip_through_their_stored_form() {
    let mut state = new(Mode::CutThroat);
    play(&mut state, "c5");
    let json = serde_json::to_string(&state).unwrap();
    let back: DoublesState = serde_json::from_str(&json).unwrap();
    assert_eq!(back.position, state.position);
    assert_eq!(back.table, state.table);
    // The en passant chance survives the round trip.
    assert!(Doubles
        .legal_texts_for(&back)
        .contains(&"b3xc4".to_string()));
}

impl Doubles {
    fn legal_texts_for(&self, state: &DoublesState) -> Vec<String> {
        let seat = state.table.controller(state.to_move());
        Game::legal(self, state, seat)
            .iter()
            .map(|m| self.action_text(state, m))
            .collect()
    }
}

#[test]
fn en_passant_at_right_angles_onto_the_far_row_promotes() {
    // White 1's pawn a4-a6 passes a5; Black 2's pawn on b6 (moving toward the a-file) takes it
    // there, on its own last row.
    let mut state = with_armies(Mode::Partners, ["Kf1 Pa4", "Kg12", "Kd3", "Kl7 Pb6"]);
    play(&mut state, "a6");
    play(&mut state, "Kg11");
    play(&mut state, "Kd4");
    let texts = Doubles.legal_texts_for(&state);
    assert!(texts.contains(&"bxa5=Q".to_string()), "{texts:?}");
    play(&mut state, "bxa5=Q");
    assert_eq!(at(&state, "a5"), Some((3, Role::Queen)));
    assert_eq!(at(&state, "a6"), None, "the pawn taken en passant is gone");
}

#[test]
fn the_books_texts_as_copied_are_read_and_two_readings_are_asked_about() {
    let mut state = new(Mode::Partners);
    // An en dash, as the book prints it.
    play(&mut state, "P \u{2013} Q5");
    assert_eq!(at(&state, "g5"), Some((0, Role::Pawn)));
    assert_eq!(normalise("Q x Rch"), "Q x R+");
    assert_eq!(normalise("N\u{d7}e3"), "Nxe3");
    // "Q - K7": the board's k7, or White 1's own K7 (f7)? Both are legal: asked.
    let mut state = with_armies(Mode::Partners, ["Kf1 Qi7", "Kg12", "Ka6", "Kl3"]);
    let err = Doubles.play(&mut state, Seat(0), "Q - K7").unwrap_err();
    let text = err.to_string();
    assert!(text.contains("k7") && text.contains("f7"), "{text}");
    play(&mut state, "Qf7");
    // Nothing panics on text from anywhere.
    for odd in [
        "N\u{2013}\u{d7}",
        "\u{1f600}",
        "Q - IV99",
        "KN - QB",
        "x",
        "--",
        "e13",
    ] {
        let _ = Doubles.play(&mut state, Seat(1), odd);
    }
}

#[test]
fn discovery_mate_the_partner_gives_the_king_away() {
    // White 2's knight on h1 shields White 1's king on f1 from Black 2's rook on l1.
    let mut state = with_armies(
        Mode::Partners,
        ["Kf1 Pc2 Rf5", "Kg12", "Ka6 Nh1", "Kl7 Rl1"],
    );
    play(&mut state, "c3");
    play(&mut state, "Kg11");
    // White 2 withdraws: White 1's king is attacked, B2 moves next. The check is Black 2's,
    // uncovered by White 2: told in words, not marked on White 2's move.
    let events = play(&mut state, "Ng3");
    assert!(
        public_text(&events).contains("White 2's move uncovers Black 2's check on White 1."),
        "{events:?}"
    );
    assert_eq!(state.moves().last().unwrap(), "White 2: Ng3");
    let err = Doubles.play(&mut state, Seat(3), "Kl8").unwrap_err();
    assert!(err.to_string().contains("must take the king"), "{err}");
    play(&mut state, "Rxf1");
    // White 1 need not miss a move, and plays on without a king; the rook is immune from him.
    assert_eq!(state.to_move(), 0);
    assert_eq!(state.table.status(0), ArmyStatus::Playing);
    let err = Doubles.play(&mut state, Seat(0), "Rxf1").unwrap_err();
    assert!(err.to_string().contains("immune"), "{err}");
    play(&mut state, "c4");
    // One move later the immunity is spent.
    play(&mut state, "Kg10");
    play(&mut state, "Nh1");
    play(&mut state, "Kl8");
    play(&mut state, "Rxf1");
    assert_eq!(at(&state, "f1"), Some((0, Role::Rook)));
}

#[test]
fn castling_names_stay_with_the_kings_half_when_a_rook_loses_its_right() {
    let mut state = with_armies(Mode::Partners, ["Kf1 Rc1 Rj1", "Kg12", "Ka6", "Kl7"]);
    let rooks = ["c1", "j1"].map(|l| state.position.board().cell(l).unwrap());
    let mut setup = state.position.to_setup();
    setup.castling_rooks = rooks.to_vec();
    state.position =
        Position::from_setup(setup, state.position.rules().clone()).expect("castling rights");
    play(&mut state, "Rc2"); // the king's-side rook moves: only the j-side right is left
    play(&mut state, "Kg11");
    play(&mut state, "Ka7");
    play(&mut state, "Kl8");
    let err = Doubles.play(&mut state, Seat(0), "O-O").unwrap_err();
    assert!(err.to_string().contains("O-O"), "{err}");
    play(&mut state, "O-O-O");
    assert_eq!(at(&state, "h1"), Some((0, Role::King)));
    assert_eq!(at(&state, "g1"), Some((0, Role::Rook)));
}

/// The book writes en passant as `P x P e.p.`: it is read as an en passant capture (asked about
/// when two pawns could make it), and refused for the real reason when none is open, never as
/// "not a move".
#[test]
fn book_notation_with_e_p_is_read_as_en_passant() {
    let mut state = new(Mode::CutThroat);
    let seat = state.table.controller(state.to_move());
    let err = Doubles
        .play(&mut state, seat, "P x P e.p.")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no en passant capture is open to you now"),
        "{err}"
    );
    // c2-c5 passed c3 and c4: White 2's pawns on b3 and b5 may both take on c4.
    play(&mut state, "c5");
    let seat = state.table.controller(state.to_move());
    for text in ["P x P e.p.", "PxP ep"] {
        let err = Doubles
            .play(&mut state, seat, text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("could be any of"), "{text}: {err}");
    }
}

/// Cut-throat rule 3: "W1's capturing piece is immune from capture by any player who
/// participated in the mate for one move." Those who took part are judged when the mate is
/// given: White 2's queen, arriving on h7 after the mate, does not make White 2 a participant
/// (the audit's t17.txt); a queen whose line to the king the mating move opened does.
#[test]
fn cut_throat_immunity_guards_only_against_those_who_took_part_in_the_mate() {
    // White 1's rook k3 holds the k-file; Rj5-l5 mates Black 2 on l7 (its own pawn on l8).
    let mut state = with_armies(
        Mode::CutThroat,
        ["Kd1 Rk3 Rj5", "Kg12", "Ka6 Qe4", "Kl7 Pl8"],
    );
    let events = play(&mut state, "Rl5");
    assert!(
        public_text(&events).contains("Black 2 is checkmated"),
        "{events:?}"
    );
    play(&mut state, "Qh7"); // White 2 comes up after the mate
    play(&mut state, "Kf12"); // Black 1
    play(&mut state, "Rxl7"); // White 1 takes the king
    play(&mut state, "Qxl7"); // White 2 did not take part: the capture is allowed
    assert_eq!(at(&state, "l7"), Some((2, Role::Queen)));

    // White 2's queen on i4 stands behind the rook on j5: Rj5-l5 opens its line to l7, so
    // White 2 takes part in the mate, and the taker is immune from it.
    let mut state = with_armies(
        Mode::CutThroat,
        ["Kd1 Rk3 Rj5", "Kg12", "Ka6 Qi4", "Kl7 Pl8"],
    );
    let events = play(&mut state, "Rl5");
    assert!(
        public_text(&events).contains("White 1's move uncovers White 2's check on Black 2."),
        "{events:?}"
    );
    play(&mut state, "Kb6"); // White 2
    play(&mut state, "Kf12"); // Black 1
    play(&mut state, "Rxl7"); // White 1
    let err = Doubles.play(&mut state, Seat(2), "Qxl7").unwrap_err();
    assert!(err.to_string().contains("immune"), "{err}");
}

/// `+` marks the check the move gives, not one another player gave earlier (the audit's
/// t13.txt: White 2's c7 was printed "c7+" for White 1's standing check on Black 2).
#[test]
fn a_check_is_marked_on_the_move_that_gives_it_only() {
    let mut state = with_armies(Mode::Partners, ["Kd1 Rj5", "Kg12", "Ka6", "Kl7"]);
    play(&mut state, "Rl5"); // White 1 checks Black 2
    play(&mut state, "Kf12"); // Black 1
    play(&mut state, "Ka7"); // White 2: Black 2 is still in check, but not from this move
    assert_eq!(
        state.moves()[..],
        ["White 1: Rl5+", "Black 1: Kf12", "White 2: Ka7"]
    );
}

/// A bare square never plays a capture (the audit: White 1's `k3` played jxk3, taking Black
/// 2's pawn); the refusal names the capture.
#[test]
fn a_bare_square_is_not_read_as_a_capture() {
    let mut state = new(Mode::Partners);
    let err = Doubles
        .play(&mut state, Seat(0), "k3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("without x") && err.contains("jxk3"), "{err}");
    assert_eq!(at(&state, "k3"), Some((3, Role::Pawn)));
    play(&mut state, "jxk3");
    assert_eq!(at(&state, "k3"), Some((0, Role::Pawn)));
}

/// The perft hook counts through the game's own rules: White 1's 37 first moves (24 pawn
/// steps, jxk3, eight knight moves with the double hops, two for each rook along the edge).
#[test]
fn perft_counts_white_1s_first_moves() {
    let state = new(Mode::Partners);
    assert_eq!(Doubles.perft(&state, 1), Some(37));
    let divided = Doubles.divide(&state, 1).unwrap();
    assert_eq!(divided.len(), 37);
    assert!(divided.iter().any(|(text, n)| text == "jxk3" && *n == 1));
}

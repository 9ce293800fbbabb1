use super::*;
use crate::chess::Course;

fn game(players: usize, options: &[&str]) -> SuperchessGame {
    let options = Options::parse(options).unwrap();
    Superchess.setup(&options, players, 7).unwrap()
}

fn cell(g: &SuperchessGame, label: &str) -> Cell {
    g.position.board().cell(label).unwrap()
}

fn play(g: &mut SuperchessGame, text: &str) -> Vec<Event> {
    let seat = g.player();
    let action = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(action)
}

fn refusal(g: &SuperchessGame, text: &str) -> String {
    g.parse(g.player(), text)
        .expect_err("the move should be refused")
        .to_string()
}

fn put(g: &mut SuperchessGame, label: &str, army: u8, role: Role) {
    let c = cell(g, label);
    g.position.set_piece(
        c,
        Some(Piece {
            seat: Seat(army),
            role,
        }),
    );
}

#[test]
fn the_board_has_148_squares_and_the_armies_17_pieces_each() {
    let g = game(4, &[]);
    assert_eq!(g.position().board().len(), 148);
    for label in ["f6", "i9", "a14", "b12", "n1", "m3"] {
        assert!(
            g.position().board().cell(label).is_none(),
            "{label} is a wall"
        );
    }
    for label in ["c12", "l12", "c3", "l3", "e9", "j6"] {
        assert!(
            g.position().board().cell(label).is_some(),
            "{label} is a square"
        );
    }
    for army in 0..4 {
        assert_eq!(
            g.position().cells_of(Seat(army)).len(),
            17,
            "{}",
            NAMES[army as usize]
        );
    }
    // Each row of pawns faces one enemy; the point pawns may go either way.
    let courses = |label: &str| g.position().pawn_course(cell(&g, label));
    assert_eq!(courses("e12"), Some(Course::Forward));
    assert_eq!(courses("b10"), Some(Course::Side));
    for point in ["e10", "j10", "j5", "e5"] {
        assert_eq!(courses(point), Some(Course::Either), "{point}");
    }
}

#[test]
fn each_army_has_twenty_six_first_moves_two_of_them_castles() {
    let g = game(4, &[]);
    let moves = g.legal_moves();
    let texts: Vec<String> = moves.iter().map(|&m| g.write(m, &moves)).collect();
    assert_eq!(moves.len(), 26, "{texts:?}");
    for text in [
        "f10", "g10", "e9", "e8", "g14", "a8", "Nf14", "Nc9", "O-O", "O-O-O",
    ] {
        assert!(texts.contains(&text.to_string()), "{text} in {texts:?}");
    }
    // Two people move either of their two armies.
    assert_eq!(game(2, &[]).legal_moves().len(), 52);
}

#[test]
fn castling_swaps_king_and_rook_whatever_stands_between() {
    let mut g = game(4, &[]);
    // O-O is the rook on the king's right as White faces the centre: a11.
    play(&mut g, "O-O");
    let piece = |g: &SuperchessGame, l: &str| g.position.piece_at(cell(g, l)).map(|p| p.role);
    assert_eq!(piece(&g, "a11"), Some(Role::King));
    assert_eq!(piece(&g, "c12"), Some(Role::Rook));
    assert_eq!(g.moves().last().unwrap(), "White: O-O");
    // Black's O-O-O takes the rook on its left as it faces the centre: n11.
    play(&mut g, "O-O-O");
    assert_eq!(piece(&g, "n11"), Some(Role::King));
    assert_eq!(piece(&g, "l12"), Some(Role::Rook));
}

#[test]
fn a_point_pawn_chooses_its_course_and_never_turns_back() {
    let mut g = game(4, &[]);
    play(&mut g, "f10");
    assert_eq!(
        g.position().pawn_course(cell(&g, "f10")),
        Some(Course::Forward)
    );
    for text in ["Nl9", "Nl6", "Nf3"] {
        play(&mut g, text);
    }
    let why = refusal(&g, "f10-e10");
    assert!(why.contains("the pawn on f10 goes toward Black"), "{why}");
    assert!(why.contains("never turn back"), "{why}");
    // Black's point pawn, still free to choose, may not go back either.
    let mut g = game(4, &[]);
    play(&mut g, "f10");
    let why = refusal(&g, "j10-k10");
    assert!(
        why.contains("point pawn on j10 may go toward Tan or White"),
        "{why}"
    );
}

#[test]
fn a_partners_army_moves_only_on_its_own_turn() {
    // Four players: White's player may not move Tan's pieces.
    let g = game(4, &[]);
    let why = refusal(&g, "i4");
    assert!(why.contains("Tan is your partner's army"), "{why}");
    let why = refusal(&g, "Tan i4");
    assert!(why.contains("Tan is your partner's army"), "{why}");
    // Three players: the one with two armies moves them one at a time.
    let g = game(3, &[]);
    let why = refusal(&g, "i4");
    assert!(why.contains("it is White's turn, not Tan's"), "{why}");
    // ...while two people move either army, and the partner-moves variation allows it.
    assert!(game(2, &[]).parse(Seat(0), "i4").is_ok());
    assert!(game(4, &["partner-moves=always"])
        .parse(Seat(0), "i4")
        .is_ok());
    // Not the player's turn at all.
    let g = game(4, &[]);
    assert!(matches!(
        g.parse(Seat(1), "k9"),
        Err(GameError::NotYourTurn(_))
    ));
}

#[test]
fn a_pawn_promotes_to_its_own_or_its_partners_pieces() {
    let mut g = game(4, &[]);
    // A White pawn on its forward course one step from the end of rank 13.
    let knight = cell(&g, "k13");
    g.position.set_piece(knight, None);
    put(&mut g, "j13", 0, Role::Pawn);
    let moves = g.legal_moves();
    let promotions: Vec<String> = moves
        .iter()
        .filter(|m| m.to == knight)
        .map(|&m| g.write(m, &moves))
        .collect();
    assert_eq!(promotions.len(), 8, "{promotions:?}");
    assert!(
        promotions.contains(&"k13=Q(Tan)".to_string()),
        "{promotions:?}"
    );
    play(&mut g, "k13=Q(Tan)");
    assert_eq!(
        g.position.piece_at(knight),
        Some(Piece {
            seat: Seat(2),
            role: Role::Queen
        })
    );
    let why = Superchess
        .parse(&game(4, &[]), Seat(0), "e14=Q(Black)")
        .unwrap_err()
        .to_string();
    assert!(!why.is_empty());
}

#[test]
fn a_capture_into_the_frontier_beyond_the_enemy_promotes() {
    let mut g = game(4, &[]);
    // A White pawn on j10 (going east): taking on k11, in Black's quadrant, is a capture; on
    // k9, in the frontier beyond Black, it promotes.
    put(&mut g, "j10", 0, Role::Pawn);
    put(&mut g, "k9", 1, Role::Knight);
    let moves = g.legal_moves();
    let from = cell(&g, "j10");
    let to = |label: &str| -> Vec<Move> {
        let c = cell(&g, label);
        moves
            .iter()
            .copied()
            .filter(|m| m.from == from && m.to == c)
            .collect()
    };
    assert_eq!(to("k11").len(), 1);
    assert_eq!(to("k11")[0].promotion(), None);
    assert_eq!(to("k9").len(), 8);
    assert!(to("k9").iter().all(|m| m.promotion().is_some()));
}

#[test]
fn a_mated_king_leaves_the_board_and_its_army_plays_on() {
    let mut g = game(4, &[]);
    // Clear the board but for the kings, then mate White's king on a11.
    for c in g.position.board().cells().collect::<Vec<_>>() {
        if g.position.piece_at(c).is_some_and(|p| p.role != Role::King) {
            g.position.set_piece(c, None);
        }
    }
    let king = g.position.king(Seat(0)).unwrap();
    g.position.set_piece(king, None);
    put(&mut g, "a11", 0, Role::King);
    put(&mut g, "d14", 0, Role::Knight);
    put(&mut g, "c10", 1, Role::Queen);
    put(&mut g, "a4", 1, Role::Rook);
    let events = g.settle();
    let text = Event::public_texts(&events).join("\n");
    assert!(
        text.contains("White's king is checkmated by Black; its army plays on for Tan's king"),
        "{text}"
    );
    assert!(g.position.king(Seat(0)).is_none());
    assert_eq!(g.outcome, None);
    // Black moves next; the knight on d14 still moves for White later.
    assert_eq!(g.table.current().army, 1);
    assert!(g.position.piece_at(cell(&g, "d14")).is_some());
}

#[test]
fn two_mates_win_and_the_variations_change_what_a_mate_does() {
    // Both light kings gone: the dark side wins.
    let mut g = game(2, &[]);
    g.fall(0, FallKind::Mated, Some(1));
    assert!(g.outcome.is_none());
    g.fall(2, FallKind::Resigned, None);
    let outcome = g.outcome.clone().unwrap();
    assert_eq!(outcome.winners, vec![Seat(1)]);
    // First mate wins.
    let mut g = game(4, &["first-mate-wins=on"]);
    g.fall(3, FallKind::Mated, Some(0));
    assert_eq!(g.outcome.clone().unwrap().winners, vec![Seat(0), Seat(2)]);
    // Piece removal: the army leaves the board.
    let mut g = game(4, &["piece-removal=on"]);
    g.fall(1, FallKind::Mated, Some(0));
    assert!(g.position.cells_of(Seat(1)).is_empty());
    // New allegiance: the army goes over to the mater's player and side.
    let mut g = game(4, &["new-allegiance=on"]);
    g.fall(1, FallKind::Mated, Some(2));
    assert_eq!(g.table.controller(1), Seat(2));
    assert_eq!(g.table.team(1), 0);
    assert_eq!(g.position.rules().team(1), 0);
    // Free for all, last king: the others' pieces leave with their kings.
    let mut g = game(3, &["free-for-all=last-king"]);
    g.fall(1, FallKind::Mated, Some(0));
    assert!(g.outcome.is_none());
    g.fall(2, FallKind::Mated, Some(0));
    assert_eq!(g.outcome.clone().unwrap().winners, vec![Seat(0)]);
    // Free for all, first mate.
    let mut g = game(4, &["free-for-all=first-mate"]);
    g.fall(3, FallKind::Mated, Some(2));
    assert_eq!(g.outcome.clone().unwrap().winners, vec![Seat(2)]);
}

#[test]
fn resigning_a_king_is_a_move() {
    let mut g = game(2, &[]);
    assert!(refusal(&g, "resign").contains("say which king"));
    let why = refusal(&g, "resign Black");
    assert!(
        why.contains("only the king of the army you move now"),
        "{why}"
    );
    play(&mut g, "resign Tan");
    assert!(g.position.king(Seat(2)).is_none());
    assert_eq!(g.player(), Seat(1));
    assert_eq!(g.moves().last().unwrap(), "Tan: resigns the king");
}

#[test]
fn options_the_book_does_not_offer_together_are_refused_by_name() {
    let refused = |players: usize, options: &[&str], expect: &str| {
        let err = Superchess
            .setup(&Options::parse(options).unwrap(), players, 0)
            .err()
            .unwrap_or_else(|| panic!("{options:?} with {players} should be refused"));
        assert!(matches!(err, GameError::BadOption(_)), "{err}");
        assert!(err.to_string().contains(expect), "{err}");
    };
    refused(2, &["free-for-all=last-king"], "three or four players");
    refused(3, &["partner-moves=always"], "four-person");
    refused(4, &["turns=quadrant"], "two-person");
    refused(3, &["armies=2"], "two-person");
    refused(2, &["against=north"], "armies=2 only");
    refused(
        2,
        &["piece-removal=on", "new-allegiance=on"],
        "cannot both be on",
    );
    refused(
        4,
        &["free-for-all=first-mate", "first-mate-wins=on"],
        "for teams",
    );
}

#[test]
fn two_armies_on_the_big_board() {
    let g = game(2, &["armies=2", "against=north"]);
    assert_eq!(g.position.cells_of(Seat(1)).len(), 0);
    assert_eq!(g.position.cells_of(Seat(2)).len(), 17);
    assert_eq!(g.table.controller(2), Seat(1));
    // White and Tan are enemies here, so no promotion to each other's pieces.
    assert!(!g.position.rules().promote_to_partners());
    assert_eq!(g.legal_moves().len(), 26);
}

#[test]
fn stored_games_keep_each_pawns_course() {
    let mut g = game(4, &[]);
    play(&mut g, "e9");
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains("P>e9"), "{json}");
    assert!(json.contains("P^j10"), "{json}");
    let back: SuperchessGame = serde_json::from_str(&json).unwrap();
    assert_eq!(back.position, g.position);
    assert_eq!(
        back.position.pawn_course(cell(&back, "e9")),
        Some(Course::Side)
    );
    assert_eq!(back.legal_moves(), g.legal_moves());
}

#[test]
fn two_kings_in_check_that_no_move_frees_together_lose_the_one_left_in_check() {
    // Two people: one Black rook on e7 checks White's king on e14 and Tan's on e1 along the
    // open e-file. No single move frees both, so the light player frees White's king and Tan's,
    // left in check, is mated on the same turn.
    let mut g = game(2, &[]);
    for c in g.position.board().cells().collect::<Vec<_>>() {
        if g.position.piece_at(c).is_some_and(|p| p.role != Role::King) {
            g.position.set_piece(c, None);
        }
    }
    for army in [0, 2] {
        let king = g.position.king(Seat(army)).unwrap();
        g.position.set_piece(king, None);
    }
    put(&mut g, "e14", 0, Role::King);
    put(&mut g, "e1", 2, Role::King);
    put(&mut g, "e7", 1, Role::Rook);
    assert_eq!(g.player(), Seat(0));
    let events = play(&mut g, "Kd14");
    let text = Event::public_texts(&events).join("\n");
    assert!(text.contains("Tan's king is checkmated by Black"), "{text}");
    assert!(g.position.king(Seat(2)).is_none());
    assert!(g.position.king(Seat(0)).is_some());
    // One mate is not yet the game: the dark side needs White's king too.
    assert_eq!(g.outcome, None);
}

/// Clears the board but for the kings.
fn kings_only(g: &mut SuperchessGame) {
    for c in g.position.board().cells().collect::<Vec<_>>() {
        if g.position.piece_at(c).is_some_and(|p| p.role != Role::King) {
            g.position.set_piece(c, None);
        }
    }
}

#[test]
fn only_a_pawn_beside_the_double_step_takes_it_en_passant() {
    // The book: "when a pawn moves two squares on its initial move, an opponent's pawn
    // situated on an adjoining square of an adjacent file may capture it." White's d10-d8
    // passes d9. Black's west-going pawn on e10 captures onto d9, but stands a knight's move
    // from d8; Brown's pawn on c8 stands beside it.
    let mut g = game(4, &[]);
    for text in [
        "e8", "h10", "k6", "c7", "a9", "g10", "k7", "c8", "a8", "f10", "l6", "b6", "a7", "e10",
        "l7", "b7", "d8",
    ] {
        play(&mut g, text);
    }
    let (e10, d9, d8) = (cell(&g, "e10"), cell(&g, "d9"), cell(&g, "d8"));
    assert_eq!(g.player(), Seat(1));
    let moves = g.legal_moves();
    assert!(
        !moves.iter().any(|m| m.from == e10 && m.to == d9),
        "{:?}",
        moves
            .iter()
            .map(|&m| g.write(m, &moves))
            .collect::<Vec<_>>()
    );
    let why = refusal(&g, "exd9");
    assert!(why.contains("cannot move to d9"), "{why}");
    play(&mut g, "Nl9");
    play(&mut g, "Nl6");
    play(&mut g, "cxd9");
    assert_eq!(
        g.position.piece_at(d8),
        None,
        "the pawn taken en passant is gone"
    );
    assert_eq!(
        g.position.piece_at(d9),
        Some(Piece {
            seat: Seat(3),
            role: Role::Pawn
        })
    );
}

#[test]
fn with_partner_moves_a_partners_check_need_not_be_answered() {
    // "If your partner's King is put in check, you are obliged—but not required—to alleviate
    // the check on your move." Black's knight takes on e13 and checks White's king.
    let mut g = game(4, &["partner-moves=always"]);
    for text in [
        "c9", "Ni12", "k6", "f2", "c8", "Ng13", "k7", "g2", "d9", "Nf11", "k8", "f3", "d8", "Nxe13",
    ] {
        play(&mut g, text);
    }
    assert!(g.position.seat_in_check(Seat(0)));
    // Tan's player may leave it.
    assert_eq!(g.player(), Seat(2));
    play(&mut g, "k9");
    play(&mut g, "f4");
    // White's own player may not.
    assert_eq!(g.player(), Seat(0));
    let moves = g.legal_moves();
    let texts: Vec<String> = moves.iter().map(|&m| g.write(m, &moves)).collect();
    assert!(texts.contains(&"Bxe13".to_string()), "{texts:?}");
    assert!(!texts.contains(&"a9".to_string()), "{texts:?}");
    // No move of Tan's frees White's king here, so none is offered.
    assert!(moves.iter().all(|m| g.army_at(m.from) == 0), "{texts:?}");
}

#[test]
fn with_partner_moves_a_mated_king_leaves_on_its_own_players_turn() {
    // "Once checkmated, the King must be removed from the board by the checkmated player on
    // his turn": Black mates White, and Tan's player still has his move.
    let mut g = game(4, &["partner-moves=always"]);
    for text in [
        "a9", "Ni12", "k6", "f2", "a8", "Ng11", "k7", "g2", "a7", "Nf13", "k8", "f3", "b9",
    ] {
        play(&mut g, text);
    }
    let events = play(&mut g, "Nxd14");
    let text = Event::public_texts(&events).join("\n");
    assert_eq!(text, "Black played Nxd14+");
    assert_eq!(g.player(), Seat(2));
    play(&mut g, "k9");
    let events = play(&mut g, "f4");
    let text = Event::public_texts(&events).join("\n");
    assert!(
        text.contains("White's king is checkmated by Black; its army plays on for Tan's king"),
        "{text}"
    );
    assert!(g.position.king(Seat(0)).is_none());
    assert_eq!(g.player(), Seat(1));
}

#[test]
fn a_move_is_announced_with_its_check_or_mate_before_what_follows_from_it() {
    // Brown's rook mates White's king on a11, and White is next to move: "#".
    let mut g = game(4, &[]);
    kings_only(&mut g);
    let king = g.position.king(Seat(0)).unwrap();
    g.position.set_piece(king, None);
    put(&mut g, "a11", 0, Role::King);
    put(&mut g, "c10", 1, Role::Queen);
    put(&mut g, "b4", 3, Role::Rook);
    for _ in 0..3 {
        g.table.advance(|_, _| true);
    }
    g.position.set_turn(Seat(3));
    assert_eq!(g.player(), Seat(3));
    let events = play(&mut g, "Ra4");
    let texts = Event::public_texts(&events);
    assert_eq!(texts[0], "Brown played Ra4#");
    assert!(
        texts[1].starts_with("White's king is checkmated by Brown"),
        "{texts:?}"
    );
    assert_eq!(g.moves()[0], "Brown: Ra4#");
    // Two people: the light player's own king left in check is mated after his move is told.
    let mut g = game(2, &[]);
    kings_only(&mut g);
    for army in [0, 2] {
        let king = g.position.king(Seat(army)).unwrap();
        g.position.set_piece(king, None);
    }
    put(&mut g, "e14", 0, Role::King);
    put(&mut g, "e1", 2, Role::King);
    put(&mut g, "e7", 1, Role::Rook);
    let texts = Event::public_texts(&play(&mut g, "Kd14"));
    assert_eq!(texts[0], "White played Kd14");
    assert!(
        texts[1].starts_with("Tan's king is checkmated by Black"),
        "{texts:?}"
    );
}

#[test]
fn refusals_give_the_real_reason() {
    // Castling twice is refused for the castling, not as Tan's (who could castle).
    let mut g = game(4, &[]);
    for text in ["O-O", "i11", "k6", "f2"] {
        play(&mut g, text);
    }
    let why = refusal(&g, "O-O");
    assert!(why.contains("no right to castle"), "{why}");
    assert!(!why.contains("Tan"), "{why}");
    // A partner's promotion on a move that does not promote.
    let g = game(4, &[]);
    let why = refusal(&g, "f10=Q(Tan)");
    assert!(
        why.contains("your pawn on e10 does not promote on f10"),
        "{why}"
    );
    // A promotion asked of a knight.
    let why = refusal(&g, "Nc9=Q");
    assert!(
        why.contains("only a pawn can promote, not a knight"),
        "{why}"
    );
}

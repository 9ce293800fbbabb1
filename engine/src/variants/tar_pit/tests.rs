use super::*;

fn cell(s: &TarPitState, name: &str) -> Cell {
    s.position().board().cell(name).unwrap()
}

fn card(c: char) -> Card {
    Card::from_letter(c).unwrap()
}

fn act(s: &mut TarPitState, seat: Seat, text: &str) -> Vec<Event> {
    let a = TarPit
        .parse(s, seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    TarPit.apply(s, seat, a).unwrap()
}

fn refusal(s: &TarPitState, seat: Seat, text: &str) -> String {
    TarPit.parse(s, seat, text).unwrap_err().to_string()
}

/// The book's example turn (RULES-NOTES): White's checkers under the black pawns e7 and f5,
/// Black's under the white pawn e4; four checkers in front of White, five of Black; Black
/// holds r, b, p, n.
fn example() -> TarPitState {
    let mut options = Options::new();
    options.set(
        "fen",
        "rnbqkb1r/ppppp1pp/5n2/5p2/4P1P1/5P2/PPPP3P/RNBQKBNR b KQkq - 0 1",
    );
    let mut s = TarPit.setup(&options, 2, 1).unwrap();
    for (at, owner) in [
        ("e7", Seat::WHITE),
        ("f5", Seat::WHITE),
        ("e4", Seat::BLACK),
    ] {
        let c = cell(&s, at);
        s.checkers[c.index()] = Some(owner);
    }
    s.supply = [4, 5];
    s.hands[0].truncate(4);
    s.hands[1] = vec![card('r'), card('b'), card('p'), card('n')];
    s.draw.retain(|c| !s.hands[1].contains(c));
    s
}

#[test]
fn the_books_example_turn_moves_throws_adds_and_draws() {
    let mut s = example();
    act(&mut s, Seat::BLACK, "Nxe4");
    let e4 = cell(&s, "e4");
    assert_eq!(
        s.checker(e4),
        Some(Seat::BLACK),
        "the knight is carrying tar"
    );
    act(&mut s, Seat::BLACK, "throw f3");
    assert_eq!(s.checker(e4), None);
    assert_eq!(
        s.checker(cell(&s, "f3")),
        Some(Seat::BLACK),
        "the f3 pawn is tarred"
    );
    // The tarred pawn on f3 cannot take the knight.
    let events = act(&mut s, Seat::BLACK, "n e4");
    assert!(Event::public_texts(&events)
        .join(" ")
        .contains("draws 1 card"));
    assert_eq!(s.checker(e4), Some(Seat::BLACK));
    assert_eq!(s.supply(), [4, 4]);
    assert_eq!(
        s.hands[1].len(),
        4,
        "three cards and four checkers: one drawn"
    );
    assert!(!s
        .legal_moves(Seat::WHITE)
        .iter()
        .any(|m| m.from == cell(&s, "f3")));
}

#[test]
fn the_books_other_card_cancels_the_tar_on_f5() {
    let mut s = example();
    act(&mut s, Seat::BLACK, "Nxe4");
    act(&mut s, Seat::BLACK, "throw f3");
    act(&mut s, Seat::BLACK, "p f5");
    assert_eq!(s.checker(cell(&s, "f5")), None, "the two checkers cancel");
    assert_eq!(s.supply(), [5, 5]);
    assert_eq!(s.hands[1].len(), 5);
}

#[test]
fn a_tarred_piece_moves_like_a_pawn_and_a_tarred_pawn_not_at_all() {
    let mut options = Options::new();
    options.set("fen", "4k3/8/8/3p4/8/3N4/2P5/4K3 w - - 0 1");
    let mut s = TarPit.setup(&options, 2, 2).unwrap();
    let (d3, d2) = (cell(&s, "d3"), cell(&s, "c2"));
    s.checkers[d3.index()] = Some(Seat::BLACK);
    s.checkers[d2.index()] = Some(Seat::BLACK);
    let moves: Vec<String> = s
        .legal_moves(Seat::WHITE)
        .into_iter()
        .filter(|m| m.from == d3 || m.from == d2)
        .map(|m| s.label(m.to))
        .collect();
    assert_eq!(
        moves,
        vec!["d4".to_string()],
        "one step forward, no double step"
    );
    let why = refusal(&s, Seat::WHITE, "Nf4");
    assert!(why.contains("moves like a pawn"), "{why}");
    let why = refusal(&s, Seat::WHITE, "c3");
    assert!(why.contains("tarred pawn cannot move"), "{why}");
}

#[test]
fn a_tarred_piece_reaching_the_last_rank_gives_the_tar_back() {
    let mut options = Options::new();
    options.set("fen", "4k3/1N6/8/8/8/8/8/4K3 w - - 0 1");
    let mut s = TarPit.setup(&options, 2, 2).unwrap();
    let b7 = cell(&s, "b7");
    s.checkers[b7.index()] = Some(Seat::BLACK);
    s.supply = [6, 5];
    let events = act(&mut s, Seat::WHITE, "Nb8");
    assert_eq!(s.checker(cell(&s, "b8")), None);
    assert_eq!(s.supply(), [6, 6], "the checker goes back to Black");
    // Everyone is told, not only shown a checker gone from the image.
    let said = Event::public_texts(&events).join(" ");
    assert!(said.contains("the tar goes back to Black"), "{said}");
}

fn from_fen(fen: &str) -> TarPitState {
    let mut options = Options::new();
    options.set("fen", fen);
    TarPit.setup(&options, 2, 2).unwrap()
}

/// The book: "A tarred piece may capture an enemy pawn en passant", and otherwise chess rules
/// apply, so an ordinary pawn may too: the long step must still be there on the opponent's
/// turn.
#[test]
fn a_pawn_may_take_a_long_step_en_passant() {
    let mut s = from_fen("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1");
    act(&mut s, Seat::WHITE, "Kf1");
    act(&mut s, Seat::WHITE, "no card");
    act(&mut s, Seat::BLACK, "d5");
    act(&mut s, Seat::BLACK, "no card");
    assert!(s
        .legal_moves(Seat::WHITE)
        .iter()
        .any(|m| m.kind == MoveKind::EnPassant));
    act(&mut s, Seat::WHITE, "exd6");
    assert!(s.position().piece_at(cell(&s, "d5")).is_none());
    assert!(s.position().piece_at(cell(&s, "d6")).is_some());
}

#[test]
fn a_tarred_piece_may_capture_an_enemy_pawn_en_passant() {
    let mut s = from_fen("4k3/5p2/8/4N3/8/8/8/4K3 b - - 0 1");
    let e5 = cell(&s, "e5");
    s.checkers[e5.index()] = Some(Seat::BLACK);
    act(&mut s, Seat::BLACK, "f5");
    act(&mut s, Seat::BLACK, "no card");
    act(&mut s, Seat::WHITE, "Nxf6");
    assert!(
        s.position().piece_at(cell(&s, "f5")).is_none(),
        "the pawn is taken"
    );
    let f6 = cell(&s, "f6");
    assert_eq!(
        s.position().piece_at(f6).map(|p| p.role),
        Some(Role::Knight)
    );
    assert_eq!(s.checker(f6), Some(Seat::BLACK), "still tarred");
}

/// A position repeats only when the same pieces carry the same checkers: tar changes how they
/// move.
#[test]
fn repetition_counts_the_checkers_under_the_pieces() {
    let mut s = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let turn = |s: &mut TarPitState, white: &str, black: &str| {
        act(s, Seat::WHITE, white);
        act(s, Seat::WHITE, "no card");
        act(s, Seat::BLACK, black);
        act(s, Seat::BLACK, "no card");
    };
    turn(&mut s, "Ra2", "Kd8");
    turn(&mut s, "Ra1", "Ke8");
    // The start has been seen twice; now the rook carries White's checker.
    let a1 = cell(&s, "a1");
    s.checkers[a1.index()] = Some(Seat::WHITE);
    s.supply[0] -= 1;
    turn(&mut s, "Ra2", "Kd8");
    turn(&mut s, "Ra1", "Ke8");
    assert_eq!(s.checker(a1), Some(Seat::WHITE));
    assert!(s.result.is_none(), "{:?}", s.result);
}

#[test]
fn a_carrying_piece_with_no_neighbour_is_not_asked_to_throw() {
    let mut s = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let a1 = cell(&s, "a1");
    s.checkers[a1.index()] = Some(Seat::WHITE);
    s.supply[0] -= 1;
    act(&mut s, Seat::WHITE, "Ra4");
    assert_eq!(s.phase, Phase::Card, "nothing next to a4 to throw onto");
}

#[test]
fn keeping_the_tar_says_so() {
    let mut s = example();
    act(&mut s, Seat::BLACK, "Nxe4");
    let events = act(&mut s, Seat::BLACK, "no throw");
    assert_eq!(
        Event::public_texts(&events),
        vec!["Black keeps the tar on e4.".to_string()]
    );
}

/// The book: "You may not castle, if either the king or the rook have a checker." That is the
/// reason given, not attacked squares.
#[test]
fn castling_refused_for_a_checker_says_so() {
    let mut s = from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let h1 = cell(&s, "h1");
    s.checkers[h1.index()] = Some(Seat::WHITE);
    let why = refusal(&s, Seat::WHITE, "O-O");
    assert!(why.contains("the rook on h1 has one"), "{why}");
}

/// Checkers that meet are given back where everyone sees it: two of one colour repel one.
#[test]
fn a_repelled_checker_is_announced() {
    let mut s = from_fen("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
    let d2 = cell(&s, "d2");
    s.checkers[d2.index()] = Some(Seat::WHITE);
    s.supply[0] -= 1;
    s.hands[0] = vec![card('P')];
    act(&mut s, Seat::WHITE, "Kf1");
    let events = act(&mut s, Seat::WHITE, "P d2");
    let said = Event::public_texts(&events).join(" ");
    assert!(said.contains("repel, one goes back to White"), "{said}");
    assert_eq!(s.checker(d2), Some(Seat::WHITE));
}

#[test]
fn no_castling_with_a_checker_on_king_or_rook() {
    let mut options = Options::new();
    options.set("fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let mut s = TarPit.setup(&options, 2, 2).unwrap();
    assert!(s.legal_moves(Seat::WHITE).iter().any(|m| m.is_castle()));
    let h1 = cell(&s, "h1");
    s.checkers[h1.index()] = Some(Seat::WHITE);
    assert!(!s.legal_moves(Seat::WHITE).iter().any(|m| m.is_castle()));
}

#[test]
fn the_opponents_checker_card_makes_him_return_a_checker_and_discard() {
    let mut s = example();
    s.hands[1][0] = Card {
        side: Seat::WHITE,
        face: Face::Checker,
    };
    act(&mut s, Seat::BLACK, "Nxe4");
    act(&mut s, Seat::BLACK, "no throw");
    act(&mut s, Seat::BLACK, "C");
    assert_eq!(s.to_act(), Some(Seat::WHITE));
    let why = refusal(&s, Seat::WHITE, "return a1");
    assert!(why.contains("no checker of yours on a1"), "{why}");
    act(&mut s, Seat::WHITE, "return e7");
    assert_eq!(s.checker(cell(&s, "e7")), None);
    // White holds four cards and has four checkers in front: nothing to discard.
    assert_eq!(s.to_act(), Some(Seat::WHITE));
    assert_eq!(s.mover, Seat::WHITE, "Black's turn is over");
}

#[test]
fn a_hand_is_seen_only_by_its_holder() {
    let s = example();
    let rows = TarPit.view(&s, Viewer::Seat(Seat::WHITE)).cards;
    let black = rows.iter().find(|r| r.title == "Black hand").unwrap();
    assert!(black.cards.iter().all(|c| c.is_none()));
    let rows = TarPit.view(&s, Viewer::Seat(Seat::BLACK)).cards;
    let black = rows.iter().find(|r| r.title == "Black hand").unwrap();
    assert_eq!(black.to_text(), "Black hand: r b p n");
}

/// "Win by checkmate, as in regular chess": castling is chess castling, never out of check nor
/// across an attacked square (the cards audit found both allowed). A rook attacking f1 forbids
/// O-O; a tarred bishop, which moves like a pawn, attacks only the squares before it.
#[test]
fn castling_is_not_allowed_out_of_or_through_check() {
    let texts = |s: &TarPitState| -> Vec<String> { TarPit.legal_texts(s, Seat::WHITE) };
    let s = from_fen("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let legal = texts(&s);
    assert!(!legal.contains(&"O-O".to_string()), "through f1: {legal:?}");
    assert!(legal.contains(&"O-O-O".to_string()), "{legal:?}");
    let s = from_fen("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1");
    assert!(
        !texts(&s).contains(&"O-O-O".to_string()),
        "out of check: {:?}",
        texts(&s)
    );
    // A black bishop on h3, tarred by a white checker, moves like a pawn down the board and
    // attacks g2 only: f1 is safe again.
    let mut s = from_fen("4k3/8/8/8/8/7b/8/R3K2R w KQ - 0 1");
    assert!(!texts(&s).contains(&"O-O".to_string()));
    let h3 = cell(&s, "h3");
    s.checkers[h3.index()] = Some(Seat::WHITE);
    assert!(texts(&s).contains(&"O-O".to_string()), "{:?}", texts(&s));
}

#[test]
fn a_sample_deals_the_opponents_hand_again_from_the_unseen_cards() {
    // "A hand of one card per checker in front of him": White sees Black's card backs only.
    let s = example();
    let mut other = example();
    // Black holding another card from the draw pile: nothing White can see changes.
    let swapped = other.draw.pop().unwrap();
    let given = std::mem::replace(&mut other.hands[1][0], swapped);
    other.draw.insert(0, given);
    let mut unseen: Vec<Card> = s.hands[1].iter().chain(&s.draw).copied().collect();
    unseen.sort();
    let mut hands = Vec::new();
    for seed in 0..10 {
        let a = TarPit.determinize(&s, Seat::WHITE, seed);
        let b = TarPit.determinize(&other, Seat::WHITE, seed);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        assert_eq!(a.hands[0], s.hands[0], "White's own hand stays");
        assert_eq!(a.hands[1].len(), 4);
        let mut dealt: Vec<Card> = a.hands[1].iter().chain(&a.draw).copied().collect();
        dealt.sort();
        assert_eq!(dealt, unseen);
        hands.push(a.hands[1].clone());
    }
    hands.sort();
    hands.dedup();
    assert!(hands.len() > 5, "{hands:?}");
    let own = TarPit.determinize(&s, Seat::BLACK, 0);
    assert_eq!(own.hands[1], s.hands[1], "Black's own hand stays");
}

use super::*;

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|w| Card::from_letter(w.chars().next().unwrap()).unwrap())
        .collect()
}

/// A two-player game from `fen` with the line and the hands given (the draw pile as dealt).
fn game(fen: &str, line: &str, hands: [&str; 2]) -> CoopState {
    let mut options = Options::new();
    options.set("fen", fen);
    let mut s = Cooperative.setup(&options, 2, 3).unwrap();
    s.line = cards(line);
    s.hands = vec![cards(hands[0]), cards(hands[1])];
    s.draw = piece_cards()
        .into_iter()
        .filter(|c| c.role() != Some(Role::King))
        .collect();
    s
}

fn act(s: &mut CoopState, seat: Seat, text: &str) -> Vec<Event> {
    let action = Cooperative
        .parse(s, seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    Cooperative.apply(s, seat, action).unwrap()
}

fn refusal(s: &CoopState, seat: Seat, text: &str) -> String {
    Cooperative.parse(s, seat, text).unwrap_err().to_string()
}

fn placement(s: &CoopState) -> String {
    s.position().fen().split(' ').next().unwrap().to_string()
}

const EXAMPLE: &str = "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn the_books_example_bishop_takes_both_pawns_beside_its_card() {
    let mut s = game(EXAMPLE, "p P b", ["", "n P"]);
    act(&mut s, Seat::BLACK, "P");
    assert_eq!(card_text(s.line()), "p P b P");
    act(&mut s, Seat::BLACK, "Be6");
    act(&mut s, Seat::BLACK, "Bxd5");
    act(&mut s, Seat::BLACK, "Bxe4");
    assert_eq!(
        placement(&s),
        "rn1qkbnr/ppp1pppp/8/8/4b3/8/PP1P1PPP/RNBQKBNR"
    );
    assert_eq!(
        card_text(s.line()),
        "p b",
        "only the black pawn and bishop cards are left"
    );
    assert_eq!(card_text(&s.discard), "P P");
    // It could not go on to g2: the pawn card left is black.
    let why = refusal(&s, Seat::BLACK, "Bxg2");
    assert!(
        why.contains("black bishop card lies next to a white pawn card"),
        "{why}"
    );
    act(&mut s, Seat::BLACK, "done");
    assert_eq!(s.hands[1].len(), 2, "Black draws back up to two");
    assert_eq!(s.score(), 2);
}

#[test]
fn white_answers_with_a_pawn_card_and_takes_the_bishop() {
    let mut s = game(EXAMPLE, "p P b", ["P N", "n P"]);
    act(&mut s, Seat::BLACK, "P");
    act(&mut s, Seat::BLACK, "Be6");
    act(&mut s, Seat::BLACK, "Bxd5");
    act(&mut s, Seat::BLACK, "Bxe4");
    act(&mut s, Seat::BLACK, "done");
    act(&mut s, Seat::WHITE, "P");
    act(&mut s, Seat::WHITE, "d3");
    let why = refusal(&s, Seat::WHITE, "Nc3");
    assert!(why.contains("non-capturing move"), "{why}");
    act(&mut s, Seat::WHITE, "dxe4");
    assert_eq!(card_text(s.line()), "p P");
}

#[test]
fn refusals_name_the_hand_and_change_nothing() {
    let s = game(EXAMPLE, "p P b", ["P N", "n P"]);
    let why = refusal(&s, Seat::BLACK, "q");
    assert!(
        why.contains("you do not hold a black queen card; your hand is n P"),
        "{why}"
    );
    let why = refusal(&s, Seat::BLACK, "xyz");
    assert!(why.contains("by its letter"), "{why}");
    let why = refusal(&s, Seat::WHITE, "P");
    assert!(why.contains("Black is to play"), "{why}");
}

#[test]
fn a_king_card_drawn_goes_straight_to_the_line_and_is_replaced() {
    let mut s = game(EXAMPLE, "p", ["P N", "n P"]);
    s.draw = vec![
        Card::piece(Seat::WHITE, Role::Rook),
        Card::piece(Seat::BLACK, Role::King),
    ];
    act(&mut s, Seat::BLACK, "n");
    let events = act(&mut s, Seat::BLACK, "done");
    assert!(Event::public_texts(&events)
        .join(" ")
        .contains("black king card is drawn and goes straight to the line"));
    assert_eq!(card_text(s.line()), "p n k");
    assert_eq!(card_text(&s.hands[1]), "P R");
}

#[test]
fn four_of_a_colour_in_a_row_are_recycled_with_one_card_out_unseen() {
    let mut s = game(EXAMPLE, "p N B R", ["", "n P"]);
    let before = s.draw.len();
    let events = act(&mut s, Seat::BLACK, "P");
    assert!(Event::public_texts(&events)
        .join(" ")
        .contains("4 white cards in a row"));
    assert_eq!(card_text(s.line()), "p", "the line was p N B R P");
    assert_eq!(s.removed.len(), 1);
    assert_eq!(s.draw.len(), before + 3);
    // Nobody sees which card left the game.
    let rows = Cooperative.view(&s, Viewer::Seat(Seat::BLACK)).cards;
    let out = rows.iter().find(|r| r.title == "Out of the game").unwrap();
    assert_eq!(out.cards, vec![None]);
}

#[test]
fn a_pawn_promotes_through_the_line_to_a_captured_type() {
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let mut s = game(fen, "p P n", ["N B", "n b"]);
    let why = {
        let mut t = s.clone();
        act(&mut t, Seat::WHITE, "N");
        refusal(&t, Seat::WHITE, "a8=Q")
    };
    assert!(why.contains("only to a type already captured"), "{why}");
    s.discard = cards("Q");
    act(&mut s, Seat::WHITE, "B");
    act(&mut s, Seat::WHITE, "a8=Q");
    assert_eq!(card_text(s.line()), "p n B", "the pawn card is discarded");
    let why = refusal(&s, Seat::WHITE, "place 9");
    assert!(
        why.contains("place 1 (next to the draw pile) to place 4"),
        "{why}"
    );
    act(&mut s, Seat::WHITE, "place 1");
    assert_eq!(card_text(s.line()), "Q p n B");
    assert_eq!(card_text(&s.discard), "P");
    // Without the pawn card in the line no pawn reaches the last rank.
    let mut t = game(fen, "p n", ["N B", "n b"]);
    t.discard = cards("Q");
    act(&mut t, Seat::WHITE, "N");
    let why = refusal(&t, Seat::WHITE, "a8=Q");
    assert!(
        why.contains("only with a white pawn card in the line"),
        "{why}"
    );
}

#[test]
fn capturing_a_king_scores_the_captures_and_ten_per_type_gone() {
    // White's queen takes the black king beside its card; no bishops or knights are left.
    let fen = "4k3/pp6/8/7Q/8/8/PP6/R3K3 w - - 0 1";
    let mut s = game(fen, "r k", ["Q P", "n b"]);
    s.captures = 20;
    act(&mut s, Seat::WHITE, "Q");
    let events = act(&mut s, Seat::WHITE, "Qxe8");
    let outcome = Cooperative.outcome(&s).expect("the game is over");
    // 21 captures; bishops and knights gone: 41.
    assert_eq!(s.score(), 41, "{events:?}");
    assert!(!outcome.everyone_lost);
    assert_eq!(outcome.winners, vec![Seat::WHITE, Seat::BLACK]);
    assert_eq!(outcome.reason, EndReason::KingCaptured);
    // Kings may stand in check: a king may step next to the enemy queen.
    let fen = "8/8/8/3k4/8/8/3Q4/4K3 b - - 0 1";
    let mut s = game(fen, "p", ["P N", "n b"]);
    act(&mut s, Seat::BLACK, "n");
    act(&mut s, Seat::BLACK, "Kd4");
}

#[test]
fn a_low_score_is_a_loss_for_everyone() {
    let fen = "rnbqkbnr/ppppp1pp/8/7Q/8/8/PPPPPPPP/RNB1KBNR w - - 0 1";
    let mut s = game(fen, "Q k", ["P N", "n b"]);
    act(&mut s, Seat::WHITE, "N");
    act(&mut s, Seat::WHITE, "Qxe8");
    let outcome = Cooperative.outcome(&s).unwrap();
    assert!(outcome.everyone_lost);
    // One capture, and every type still on the board.
    assert_eq!(s.score(), 1);
}

#[test]
fn solitaire_draws_a_card_to_the_line_each_turn_and_moves_both_colours() {
    let s = Cooperative.setup(&Options::new(), 1, 9).unwrap();
    assert!(
        !s.line().is_empty(),
        "the first card is already in the line"
    );
    assert!(s.hands.iter().all(|h| h.is_empty()));
    let mut s = s;
    act(&mut s, Seat(0), "e4");
    let line = s.line().len();
    act(&mut s, Seat(0), "done");
    assert!(s.line().len() > line || !s.removed.is_empty() || s.result.is_some());
    act(&mut s, Seat(0), "e5");
    assert_eq!(
        s.position()
            .piece_at(s.position().board().cell("e5").unwrap())
            .map(|p| p.seat),
        Some(Seat::BLACK)
    );
}

#[test]
fn hands_are_backs_to_everyone_but_their_holder() {
    let s = game(EXAMPLE, "p P b", ["P N", "n P"]);
    let row = |viewer: Viewer, title: &str| {
        Cooperative
            .view(&s, viewer)
            .cards
            .into_iter()
            .find(|r| r.title == title)
            .unwrap()
            .to_text()
    };
    assert_eq!(
        row(Viewer::Seat(Seat::WHITE), "White hand"),
        "White hand: P N"
    );
    assert_eq!(
        row(Viewer::Seat(Seat::BLACK), "White hand"),
        "White hand: # #"
    );
    assert_eq!(row(Viewer::Spectator, "Black hand"), "Black hand: # #");
}

#[test]
fn a_long_pawn_step_may_be_taken_en_passant_on_the_next_turn() {
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let mut s = game(fen, "p P", ["N B", "n b"]);
    act(&mut s, Seat::WHITE, "N");
    act(&mut s, Seat::WHITE, "e4");
    act(&mut s, Seat::WHITE, "done");
    act(&mut s, Seat::BLACK, "n");
    act(&mut s, Seat::BLACK, "dxe3");
    assert!(s
        .position()
        .piece_at(s.position().board().cell("e4").unwrap())
        .is_none());
    assert_eq!(s.score(), 1);
}

/// After the turn's quiet move a text that is no chess move at all gets chess's reason, not
/// "there is no legal move in this position" (captures and /move done are still open).
#[test]
fn after_the_quiet_move_a_move_that_is_not_chess_says_why() {
    let mut s = Cooperative.setup(&Options::new(), 1, 9).unwrap();
    act(&mut s, Seat(0), "e4");
    let why = refusal(&s, Seat(0), "Ke3");
    assert!(!why.contains("no legal move"), "{why}");
    assert!(why.contains("king on e1 cannot move to e3"), "{why}");
}

/// The book: "you may make one non-capturing move; then you may make capturing moves". A
/// quiet move after a capture is refused for the capture, none having been made before it.
#[test]
fn after_a_capture_a_quiet_move_is_refused_for_the_capture() {
    let mut s = game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "p P", ["N B", "n b"]);
    act(&mut s, Seat::WHITE, "N");
    act(&mut s, Seat::WHITE, "exd5");
    let why = refusal(&s, Seat::WHITE, "Kd2");
    assert!(
        why.contains("after a capture only more captures may follow"),
        "{why}"
    );
}

#[test]
fn only_games_from_the_books_start_are_ranked() {
    let s = Cooperative.setup(&Options::new(), 1, 9).unwrap();
    assert!(Cooperative.ranked(&Options::new(), &s));
    let mut custom = Options::new();
    custom.set("fen", "8/8/8/8/8/8/6Qk/6K1 w - - 0 1");
    assert!(!Cooperative.ranked(&custom, &s));
    let mut written_out = Options::new();
    written_out.set(
        "fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(Cooperative.ranked(&written_out, &s));
}

/// Cards the set-up puts in the line are announced like those of later turns, and the line
/// is in the status (the text of /board), not only in the image.
#[test]
fn the_cards_the_set_up_puts_in_the_line_are_told() {
    let s = Cooperative.setup(&Options::new(), 1, 9).unwrap();
    let told = Cooperative.opening(&s).join(" ");
    assert!(told.contains("is drawn to the line"), "{told}");
    let status = Cooperative.view(&s, Viewer::Spectator).status;
    assert!(
        status.ends_with(&format!("line: {}", card_text(s.line()))),
        "{status}"
    );
}

#[test]
fn a_sample_deals_again_only_the_cards_the_player_cannot_see() {
    // "Each player is dealt two" and "the rest are the draw pile": White sees his own two,
    // the line and the discard pile, and only the backs of Black's hand and the draw pile.
    let s = Cooperative.setup(&Options::new(), 2, 3).unwrap();
    let unseen = |s: &CoopState| {
        let mut cards: Vec<Card> = s.hands[1]
            .iter()
            .chain(&s.draw)
            .chain(&s.removed)
            .copied()
            .collect();
        cards.sort();
        cards
    };
    let elsewhere = Cooperative.determinize(&s, Seat::WHITE, 99);
    for seed in 0..10 {
        let sample = Cooperative.determinize(&s, Seat::WHITE, seed);
        assert_eq!(sample.hands[0], s.hands[0], "White's own hand stays");
        assert_eq!(sample.line, s.line);
        assert_eq!(sample.hands[1].len(), s.hands[1].len());
        assert_eq!(sample.draw.len(), s.draw.len());
        assert_eq!(unseen(&sample), unseen(&s));
        assert!(
            sample.hands[1].iter().all(|c| c.role() != Some(Role::King)),
            "kings go straight to the line"
        );
        let again = Cooperative.determinize(&elsewhere, Seat::WHITE, seed);
        assert_eq!(
            serde_json::to_string(&sample).unwrap(),
            serde_json::to_string(&again).unwrap(),
            "where the unseen cards lay makes no difference"
        );
    }
}

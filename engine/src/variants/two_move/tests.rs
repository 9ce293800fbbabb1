//! The book's example turn and both quiz positions (`RULES-NOTES.md`), replayed, and the rare
//! cases of the rules.

use super::*;
use crate::chess::Rules;

fn game(fen: &str, white_up: &[Role], black_up: &[Role]) -> TwoMoveState {
    let pos = Position::from_fen(fen, Rules::chess()).unwrap();
    TwoMoveState::new(pos, [white_up.to_vec(), black_up.to_vec()])
}

fn act(s: &mut TwoMoveState, seat: Seat, text: &str) -> Vec<Event> {
    let action = s
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    s.apply(seat, action)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays the queue's next move, checking it is `seat`'s turn to move.
fn mv(s: &mut TwoMoveState, seat: Seat, text: &str) -> Vec<Event> {
    assert_eq!(s.to_act(), vec![seat], "{text} should be {seat:?}'s");
    act(s, seat, text)
}

fn refusal(s: &TwoMoveState, seat: Seat, text: &str) -> String {
    s.parse(seat, text)
        .expect_err("should be refused")
        .to_string()
}

fn placement(s: &TwoMoveState) -> String {
    s.position().fen().split(' ').next().unwrap().to_string()
}

fn text(events: &[Event]) -> String {
    crate::game::public_text(events)
}

const W: Seat = Seat::WHITE;
const B: Seat = Seat::BLACK;

#[test]
fn the_books_example_turn() {
    let mut s = game(
        "rn2kbnr/pbpp1ppp/1p3q2/3Np3/2B1P3/8/PPPP1PPP/R1BQK1NR w KQkq - 0 1",
        &[Role::Knight, Role::Rook],
        &[],
    );
    // White's knight and rook lie face up: White cannot choose the rook.
    let why = refusal(&s, W, "R Q");
    assert!(why.contains("rook card lies face up"), "{why}");
    act(&mut s, W, "B Q");
    let reveal = text(&act(&mut s, B, "b r"));
    assert!(reveal.contains("The bishops cancel"), "{reveal}");
    assert!(
        reveal.contains("Order: r (two moves), Q (two moves)"),
        "{reveal}"
    );
    // Black's rook card: first the pawn (least valuable), then the rook.
    mv(&mut s, B, "h5");
    mv(&mut s, B, "Rh6");
    mv(&mut s, W, "c3");
    mv(&mut s, W, "Qb3");
    assert_eq!(
        placement(&s),
        "rn2kbn1/pbpp1pp1/1p3q1r/3Np2p/2B1P3/1QP5/PP1P1PPP/R1B1K1NR"
    );
    // White had four cards face up and takes them back; Black's two stay.
    assert!(s.face_up[0].is_empty());
    assert_eq!(s.face_up[1], vec![Role::Bishop, Role::Rook]);
    assert_eq!(s.phase, Phase::Choose);
    assert!(refusal(&s, B, "b n").contains("bishop card lies face up"));
}

const QUIZ_1: &str = "5k2/1b2p3/p7/P7/1BB1P1q1/2P2P2/8/3n3K w - - 0 1";

#[test]
fn quiz_one_the_mistake_lets_white_take_the_king_with_bishops() {
    let mut s = game(QUIZ_1, &[Role::King, Role::Knight], &[]);
    act(&mut s, W, "Q R");
    let reveal = text(&act(&mut s, B, "q b"));
    assert!(reveal.contains("The queens cancel"), "{reveal}");
    mv(&mut s, B, "Bxe4");
    mv(&mut s, B, "Bxf3");
    // White's pawns are all blocked and he has no rook: his rook card moves a bishop.
    let moves = s.actions(W);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|a| match a {
        TwoMoveAction::Move(m) => s.position().piece_at(m.from).unwrap().role == Role::Bishop,
        _ => false,
    }));
    mv(&mut s, W, "Bxe7");
    let end = mv(&mut s, W, "Bxf8");
    assert!(end.iter().any(|e| matches!(e, Event::GameOver(_))));
    assert_eq!(placement(&s), "5B2/8/p7/P7/2B3q1/2P2b2/8/3n3K");
    let o = s.result.clone().unwrap();
    assert_eq!(o.winners, vec![W]);
    assert_eq!(o.reason, EndReason::KingCaptured);
}

#[test]
fn quiz_one_the_better_line_leaves_white_a_pawn_to_move() {
    let mut s = game(QUIZ_1, &[Role::King, Role::Knight], &[]);
    act(&mut s, W, "Q R");
    act(&mut s, B, "q b");
    mv(&mut s, B, "Bd5");
    mv(&mut s, B, "Be6");
    assert_eq!(placement(&s), "5k2/4p3/p3b3/P7/1BB1P1q1/2P2P2/8/3n3K");
    // The e-pawn can move, so the rook card must move a pawn: the bishops cannot.
    assert!(s.actions(W).iter().all(|a| match a {
        TwoMoveAction::Move(m) => s.position().piece_at(m.from).unwrap().role == Role::Pawn,
        _ => false,
    }));
    let why = refusal(&s, W, "Bxe7");
    assert!(why.contains("rook card moves a rook or a pawn"), "{why}");
}

#[test]
fn quiz_two_a_pawn_promotes_to_a_rook_that_takes_the_king() {
    let mut s = game(
        "5k2/7P/1p6/2p1b3/8/1P6/8/7K w - - 0 1",
        &[],
        &[Role::King, Role::Rook],
    );
    act(&mut s, W, "B R");
    let reveal = text(&act(&mut s, B, "q b"));
    assert!(
        reveal.contains("Order: R (two moves), q (two moves)"),
        "{reveal}"
    );
    mv(&mut s, W, "h8=R");
    mv(&mut s, W, "Rxf8");
    assert_eq!(placement(&s), "5R2/8/1p6/2p1b3/8/1P6/8/7K");
    assert_eq!(s.result.clone().unwrap().winners, vec![W]);
}

#[test]
fn two_matching_pairs_cancel_every_card() {
    let mut s = game(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        &[Role::King, Role::Rook],
        &[],
    );
    act(&mut s, W, "N B");
    let reveal = text(&act(&mut s, B, "b n"));
    assert!(reveal.contains("nobody moves"), "{reveal}");
    assert_eq!(s.phase, Phase::Choose);
    assert_eq!(s.turn, 2);
    assert!(s.face_up[0].is_empty(), "White's four came back");
    assert_eq!(s.face_up[1], vec![Role::Knight, Role::Bishop]);
}

#[test]
fn the_king_card_castles_through_attacked_squares_and_no_pawn_moves_twice() {
    let mut s = game(
        "4kr2/8/8/8/3p4/8/4P3/4K2R w K - 0 1",
        &[],
        &[Role::Knight, Role::Bishop],
    );
    act(&mut s, W, "N K");
    act(&mut s, B, "r q");
    // No match: N (White), r, q (Black), K (White), one move each. White has no knight, so
    // his knight card moves his least valuable piece, the pawn.
    mv(&mut s, W, "e4");
    // No en passant: d4xe3 is refused, with the reason.
    let why = refusal(&s, B, "dxe3");
    assert!(why.contains("no en passant"), "{why}");
    mv(&mut s, B, "d3");
    // The queen card: no queen, and the pawn that moved may not move again.
    let why = refusal(&s, B, "d2");
    assert!(why.contains("already moved this turn"), "{why}");
    mv(&mut s, B, "Rf7");
    // The rook on f7 attacks f1, which the king crosses: castling is allowed all the same.
    mv(&mut s, W, "O-O");
    assert_eq!(placement(&s), "4k3/5r2/8/8/4P3/3p4/8/5RK1");
}

/// The book: "When you castle, it doesn't matter if an opponent's piece is threatening". So
/// castling with another card is refused for the card, not for the attacked square.
#[test]
fn castling_with_the_wrong_card_is_refused_for_the_card() {
    let mut s = game(
        "4k3/5r2/8/8/8/8/P7/4K2R w K - 0 1",
        &[Role::Knight, Role::Bishop],
        &[],
    );
    act(&mut s, W, "Q K");
    act(&mut s, B, "n b");
    // Black has neither card's piece: his rook, the least valuable that can move, moves twice.
    mv(&mut s, B, "Rf6");
    mv(&mut s, B, "Rf5");
    // The rook on f5 attacks f1; White's queen card comes first.
    let why = refusal(&s, W, "O-O");
    assert!(
        why.contains("your queen card moves a queen or a pawn"),
        "{why}"
    );
    mv(&mut s, W, "a3");
    mv(&mut s, W, "O-O");
    assert_eq!(placement(&s), "4k3/8/8/5r2/8/P7/8/5RK1");
}

#[test]
fn a_chosen_pair_is_seen_only_by_its_owner_until_both_have_chosen() {
    let mut s = game(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[Role::King, Role::Rook],
        &[],
    );
    let events = act(&mut s, W, "B Q");
    assert_eq!(text(&events), "White has chosen two cards.");
    let shown = |viewer: Viewer| -> Vec<Option<Card>> {
        s.card_rows(viewer)
            .into_iter()
            .filter(|r| r.title == "White has chosen")
            .flat_map(|r| r.cards)
            .collect()
    };
    assert_eq!(shown(Viewer::Spectator), vec![None, None]);
    assert_eq!(shown(Viewer::Seat(B)), vec![None, None]);
    assert_eq!(
        shown(Viewer::Seat(W)),
        vec![
            Some(Card::piece(W, Role::Bishop)),
            Some(Card::piece(W, Role::Queen))
        ]
    );
    let why = refusal(&s, W, "N B");
    assert!(why.contains("waiting for Black"), "{why}");
}

#[test]
fn card_names_are_read_in_every_spelling_and_mistakes_are_named() {
    assert_eq!(
        TwoMoveState::parse_cards("bishop+queen"),
        Ok([Role::Bishop, Role::Queen])
    );
    assert_eq!(
        TwoMoveState::parse_cards("qb"),
        Ok([Role::Bishop, Role::Queen])
    );
    assert!(TwoMoveState::parse_cards("p q")
        .unwrap_err()
        .contains("no pawn cards"));
    assert!(TwoMoveState::parse_cards("q q")
        .unwrap_err()
        .contains("two different"));
    assert!(TwoMoveState::parse_cards("q")
        .unwrap_err()
        .contains("exactly two"));
    assert!(TwoMoveState::parse_cards("x y")
        .unwrap_err()
        .contains("not a card"));
}

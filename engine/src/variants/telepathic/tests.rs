use super::*;

const W1: Seat = Seat(0);
const B1: Seat = Seat(1);
const W2: Seat = Seat(2);
const B2: Seat = Seat(3);

fn start(fen: Option<&str>) -> TelepathicState {
    let mut options = Options::new();
    if let Some(f) = fen {
        options.set("fen", f);
    }
    Telepathic.setup(&options, 4, 1).unwrap()
}

fn act(state: &mut TelepathicState, seat: Seat, text: &str) -> Vec<Event> {
    let action = Telepathic
        .parse(state, seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    Telepathic.apply(state, seat, action).unwrap()
}

fn public(events: &[Event]) -> String {
    Event::public_texts(events).join("\n")
}

#[test]
fn a_matched_face_down_card_pulls_the_trophy_and_the_mover_keeps_the_face_up_card() {
    let mut s = start(None);
    assert_eq!(s.to_act(), Some(W2), "White 2 predicts first");
    act(&mut s, W2, "N");
    let events = act(&mut s, W1, "Nf3");
    assert_eq!(s.trophy(), Trophy(1), "{}", public(&events));
    // The pawn card that started face up is picked up; the knight stays face up.
    assert_eq!(s.face_up[0], Some(Face::Piece(Role::Knight)));
    // The roles swap: White 1 predicts White's next turn, White 2 moves.
    assert_eq!(s.mover[0], W2);
    assert_eq!(s.to_act(), Some(B2));
}

#[test]
fn matching_only_the_face_up_card_leaves_the_trophy_and_missing_both_pushes_it() {
    let mut s = start(None);
    act(&mut s, W2, "Q");
    act(&mut s, W1, "e4");
    assert_eq!(s.trophy(), Trophy(0));
    assert_eq!(s.face_up[0], Some(Face::Piece(Role::Queen)));
    act(&mut s, B2, "B");
    act(&mut s, B1, "Nf6");
    // Black pushed the trophy away from its side: toward White's.
    assert_eq!(s.trophy(), Trophy(1));
}

#[test]
fn the_checker_copies_the_face_up_card_and_is_picked_up_again() {
    let mut s = start(None);
    act(&mut s, W2, "C");
    act(&mut s, W1, "d4");
    assert_eq!(s.trophy(), Trophy(1), "the checker copies the face-up pawn");
    assert_eq!(s.face_up[0], Some(Face::Piece(Role::Pawn)));
    assert!(s.hand(Seat::WHITE).contains(&Face::Checker));
}

#[test]
fn pushed_past_a_side_the_beaten_team_removes_a_piece_chosen_by_its_next_mover() {
    let mut s = start(None);
    s.trophy = Trophy(-1);
    act(&mut s, W2, "Q");
    let events = act(&mut s, W1, "Nc3");
    let text = public(&events);
    assert!(text.contains("White must remove a piece"), "{text}");
    assert_eq!(
        s.to_act(),
        Some(W2),
        "White 2 moves next for White, so chooses"
    );
    let refused = Telepathic.parse(&s, W2, "e1").unwrap_err().to_string();
    assert!(refused.contains("king cannot be removed"), "{refused}");
    let refused = Telepathic.parse(&s, W2, "e7").unwrap_err().to_string();
    assert!(refused.contains("no White piece on e7"), "{refused}");
    act(&mut s, W2, "remove a2");
    assert_eq!(s.trophy(), Trophy(0));
    assert_eq!(s.lost(), [1, 0]);
    assert!(s
        .position()
        .piece_at(s.position().board().cell("a2").unwrap())
        .is_none());
    assert_eq!(s.to_act(), Some(B2), "Black's turn follows");
}

#[test]
fn a_removal_can_leave_a_king_open_to_capture() {
    // Black's bishop on e7 shields its king from the rook on e1; the trophy is beside
    // White's side, so a Black miss pushes it past and Black must remove a piece.
    let mut s = start(Some("4k3/p3b3/8/8/8/8/8/K3R3 b - - 0 1"));
    s.trophy = Trophy(1);
    s.face_up[1] = Some(Face::Piece(Role::Queen));
    act(&mut s, B2, "N");
    let events = act(&mut s, B1, "a6");
    assert!(public(&events).contains("Black must remove a piece"));
    act(&mut s, B2, "remove e7");
    act(&mut s, W2, "Q");
    let events = act(&mut s, W1, "Rxe8");
    assert_eq!(
        Telepathic.outcome(&s),
        Some(Outcome::win(vec![W1, W2], EndReason::KingCaptured)),
        "{}",
        public(&events)
    );
}

#[test]
fn after_a_king_capture_the_reveal_names_the_capturing_teams_predictor() {
    let mut s = start(Some("4k3/p3b3/8/8/8/8/8/K3R3 b - - 0 1"));
    s.trophy = Trophy(1);
    s.face_up[1] = Some(Face::Piece(Role::Queen));
    act(&mut s, B2, "N");
    act(&mut s, B1, "a6");
    act(&mut s, B2, "remove e7");
    act(&mut s, W2, "Q");
    act(&mut s, W1, "Rxe8");
    assert_eq!(
        Telepathic.secret_history(&s),
        vec!["White 2 had predicted queen when the game ended.".to_string()]
    );
}

#[test]
fn a_team_that_has_lost_eight_pieces_plays_without_a_face_up_card() {
    let mut s = start(None);
    s.lost = [8, 0];
    s.face_down = None;
    let events = s.start_turn(Seat::WHITE);
    assert!(public(&events).contains("without a face-up card"));
    assert_eq!(s.face_up[0], None);
    let refused = Telepathic.parse(&s, W2, "C").unwrap_err().to_string();
    assert!(refused.contains("no face-up card"), "{refused}");
    act(&mut s, W2, "P");
    act(&mut s, W1, "e4");
    assert_eq!(s.trophy(), Trophy(1));
    assert_eq!(s.face_up[0], None, "the mover picks up the only card");
    assert_eq!(s.hand(Seat::WHITE).len(), 7);
}

#[test]
fn the_face_down_card_is_seen_only_by_the_predictor_until_it_is_turned() {
    let mut s = start(None);
    act(&mut s, W2, "R");
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(W1),
        Viewer::Seat(B1),
        Viewer::Seat(B2),
    ] {
        let rows = Telepathic.view(&s, viewer).cards;
        let shown: Vec<String> = rows.iter().map(|r| r.to_text()).collect();
        assert!(
            !shown.iter().any(|r| r.contains('R')),
            "{viewer:?} sees {shown:?}"
        );
    }
    let rows = Telepathic.view(&s, Viewer::Seat(W2)).cards;
    assert!(rows
        .iter()
        .any(|r| r.to_text() == "White on the table: P R"));
    let text = Telepathic
        .prompts(&s)
        .iter()
        .map(|p| p.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!text.contains("rook"), "{text}");
}

#[test]
fn only_the_player_prompted_may_act() {
    let mut s = start(None);
    let refused = Telepathic.parse(&s, W1, "e4").unwrap_err().to_string();
    assert!(refused.contains("White 2 is predicting"), "{refused}");
    let refused = Telepathic.parse(&s, W2, "P").unwrap_err().to_string();
    assert!(refused.contains("lies face up"), "{refused}");
    let refused = Telepathic.parse(&s, W2, "X").unwrap_err().to_string();
    assert!(refused.contains("P, N, B, R, Q, K and C"), "{refused}");
    act(&mut s, W2, "N");
    let refused = Telepathic.parse(&s, W1, "e5").unwrap_err().to_string();
    assert!(!refused.is_empty());
}

#[test]
fn a_sample_draws_the_face_down_prediction_for_all_but_the_predictor() {
    // "The predictor plays a card face down": the mover, his partner, does not see it either.
    let mut s = start(None);
    act(&mut s, W2, "N");
    let mut other = start(None);
    act(&mut other, W2, "Q");
    let mut drawn = Vec::new();
    for seed in 0..20 {
        for seat in [W1, B1, B2] {
            let a = Telepathic.determinize(&s, seat, seed);
            let b = Telepathic.determinize(&other, seat, seed);
            assert_eq!(
                a.face_down, b.face_down,
                "the true card makes no difference"
            );
            let card = a.face_down.expect("a card still lies face down");
            assert_ne!(card, Face::Piece(Role::Pawn), "the pawn card lies face up");
            drawn.push(card);
        }
        let own = Telepathic.determinize(&s, W2, seed);
        assert_eq!(
            own.face_down,
            Some(Face::Piece(Role::Knight)),
            "the predictor's own"
        );
    }
    drawn.sort_unstable();
    drawn.dedup();
    assert!(drawn.len() > 3, "{drawn:?}");
}

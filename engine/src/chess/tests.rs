//! Rules tests: one position per rule, and the machinery on boards other than 8x8.

use super::*;
use crate::board::{SquareBoard, Wrap, CUT_THROAT_CORNERS};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, Rules::chess()).unwrap_or_else(|e| panic!("{e}"))
}

fn sans(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| p.san(*m)).collect();
    v.sort();
    v
}

fn play(p: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m = p
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e} in {}", p.fen()));
        p.play(m).unwrap();
    }
}

#[test]
fn start_position_counts() {
    let p = Position::startpos();
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 2), 400);
    assert_eq!(perft(&p, 3), 8902);
}

#[test]
fn kiwipete_shallow() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(perft(&p, 1), 48);
    assert_eq!(perft(&p, 2), 2039);
    assert_eq!(perft(&p, 3), 97862);
}

#[test]
fn checkmate_and_stalemate() {
    let mut p = Position::startpos();
    play(&mut p, "f3 e5 g4 Qh4");
    assert!(p.is_check() && p.is_checkmate());
    assert_eq!(
        p.fen(),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stale.is_stalemate() && !stale.is_check());
}

#[test]
fn castling_is_refused_through_check_out_of_check_and_into_check() {
    // f1 attacked by the bishop on c4: no O-O; the queen side is free.
    let p = pos("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
    let s = sans(&p);
    assert!(!s.contains(&"O-O".to_string()));
    assert!(s.contains(&"O-O-O".to_string()));
    let err = p.parse_move("O-O").unwrap_err().to_string();
    assert!(err.contains("attacked square"), "{err}");
    // In check: no castling at all.
    let p = pos("r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1");
    assert!(!sans(&p).iter().any(|s| s.starts_with("O-O")));
    assert_eq!(
        p.parse_move("0-0-0").unwrap_err().to_string(),
        "0-0-0 is not legal: you cannot castle out of check"
    );
    // b1 attacked does not stop O-O-O: only the king's path matters.
    let p = pos("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(sans(&p).contains(&"O-O-O".to_string()));
    // A piece between king and rook blocks.
    let p = pos("r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1");
    assert!(!sans(&p).contains(&"O-O-O".to_string()));
}

#[test]
fn castling_rights_are_lost_by_moving_or_losing_a_rook() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "Rxa8+");
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    play(&mut p, "Kf7 Kd2");
    assert_eq!(p.fen(), "R6r/5k2/8/8/8/8/3K4/7R b - - 2 2");
}

#[test]
fn chess960_castling_from_the_rules_notes() {
    // RULES-NOTES: from BNRQKBNR, White castles a-side: king c1, rook d1.
    let before = pos("bnrqkbnr/pppp2pp/5p2/4p3/4P3/8/PPPPQPPP/BNR1KBNR w KQkq - 0 1");
    let m = before.parse_move("O-O-O").unwrap();
    let mut after = before.clone();
    after.play(m).unwrap();
    assert!(after
        .fen()
        .starts_with("bnrqkbnr/pppp2pp/5p2/4p3/4P3/8/PPPPQPPP/BNKR1BNR b kq"));
    // The same castle typed as the king taking its rook, or moving to c1.
    assert_eq!(before.parse_move("e1c1").unwrap(), m);
    assert_eq!(before.parse_move("Kc1").unwrap(), m);
    assert_eq!(before.coordinate(m, NotationStyle::Chess960), "e1c1");
}

#[test]
fn chess960_castling_where_king_or_rook_already_stand_on_their_squares() {
    // King on g1 with the rook on h1: O-O only moves the rook to f1.
    let p = pos("rk5r/8/8/8/8/8/8/R5KR w HA - 0 1");
    let m = p.parse_move("O-O").unwrap();
    let mut q = p.clone();
    q.play(m).unwrap();
    assert!(
        q.fen().starts_with("rk5r/8/8/8/8/8/8/R4RK1 b"),
        "{}",
        q.fen()
    );
    // King already on c1: O-O-O only moves the b1 rook to d1.
    let p = pos("6k1/8/8/8/8/8/8/1RK4R w B - 0 1");
    let mut q = p.clone();
    q.play(p.parse_move("O-O-O").unwrap()).unwrap();
    assert!(
        q.fen().starts_with("6k1/8/8/8/8/8/8/2KR3R b - -"),
        "{}",
        q.fen()
    );
    // Rook already on d1: O-O-O only moves the king from e1 to c1.
    let p = pos("1k6/8/8/8/8/8/8/3RK3 w D - 0 1");
    let mut q = p.clone();
    q.play(p.parse_move("O-O-O").unwrap()).unwrap();
    assert!(
        q.fen().starts_with("1k6/8/8/8/8/8/8/2KR4 b - -"),
        "{}",
        q.fen()
    );
    // A rook shielding the king's destination from an enemy rook along the rank: the castle
    // would leave the king in check on c1 once the b1 rook moves to d1.
    let p = pos("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1");
    assert!(!sans(&p).contains(&"O-O-O".to_string()));
}

#[test]
fn x_fen_and_shredder_fen_name_rooks_correctly() {
    // An inner rook with the right while an outer rook stands beyond it needs its file letter.
    let fen = "4k3/8/8/8/8/8/8/4KR1R w F - 0 1";
    assert_eq!(pos(fen).fen(), fen);
    assert_eq!(pos(fen).fen_with(FenFlavor::Shredder), fen);
    let std = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(
        pos(std).fen_with(FenFlavor::Shredder),
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
    );
    assert_eq!(pos("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").fen(), std);
}

#[test]
fn en_passant_only_right_after_the_double_step() {
    let mut p = Position::startpos();
    play(&mut p, "e4 a6 e5 d5");
    assert!(sans(&p).contains(&"exd6".to_string()));
    assert_eq!(
        p.fen(),
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    play(&mut p, "h3 h6");
    assert!(
        !sans(&p).contains(&"exd6".to_string()),
        "the chance has passed"
    );
    // The FEN only shows an en passant square when the capture is possible.
    let mut q = Position::startpos();
    play(&mut q, "e4");
    assert_eq!(
        q.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // Taking en passant removes the pawn that passed.
    play(&mut p, "a3 d4 c4 dxc3");
    assert!(p.piece_at(p.board().cell("c4").unwrap()).is_none());
    assert!(p.piece_at(p.board().cell("c3").unwrap()).is_some());
}

#[test]
fn promotion_to_each_piece_and_its_notation() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let s = sans(&p);
    for want in ["e8=B", "e8=N", "e8=Q", "e8=R"] {
        assert!(s.contains(&want.to_string()), "{want} in {s:?}");
    }
    for text in ["e8Q", "e8=Q", "e7e8q", "e7-e8=Q", "e8(Q)", "e8"] {
        assert_eq!(
            p.parse_move(text).unwrap().promotion(),
            Some(Role::Queen),
            "{text}"
        );
    }
    assert_eq!(p.parse_move("e8n").unwrap().promotion(), Some(Role::Knight));
    assert_eq!(
        p.coordinate(p.parse_move("e8=R").unwrap(), NotationStyle::Standard),
        "e7e8r"
    );
}

#[test]
fn san_disambiguates_by_file_then_rank_then_square() {
    // Three queens reach e4: by file (Qee4), by rank (Q4e4) and by square (Qh1e4).
    let p = pos("1k6/8/8/8/7Q/8/1K6/4Q2Q w - - 0 1");
    let s = sans(&p);
    for want in ["Qee4", "Q4e4", "Qh1e4"] {
        assert!(s.contains(&want.to_string()), "{want} in {s:?}");
    }
    let p = pos("7k/8/8/8/8/R7/8/R3K3 w - - 0 1");
    assert!(sans(&p).contains(&"R1a2".to_string()));
    let p = pos("8/1k6/8/8/8/8/4K3/R6R w - - 0 1");
    assert!(sans(&p).contains(&"Rad1".to_string()));
    assert!(sans(&p).contains(&"Rhf1".to_string()));
    let err = p.parse_move("Rd1").unwrap_err();
    assert!(matches!(err, MoveParseError::Ambiguous { .. }), "{err}");
    assert!(
        err.to_string().contains("Rad1") && err.to_string().contains("Rhd1"),
        "{err}"
    );
}

#[test]
fn lenient_reading_of_move_texts() {
    let p = Position::startpos();
    let nf3 = p.parse_move("Nf3").unwrap();
    for text in [
        "nf3", "Ng1f3", "ng1f3", "g1-f3", "g1f3", "Ng1-f3", "Nf3!?", " Nf3+ ",
    ] {
        assert_eq!(p.parse_move(text).unwrap(), nf3, "{text}");
    }
    let mut q = Position::startpos();
    play(&mut q, "e4 d5 b3 a6");
    // lower-case b is the b-pawn before it is a bishop; Bb2 with the capital is the bishop
    assert_eq!(q.san(q.parse_move("Bb2").unwrap()), "Bb2");
    assert_eq!(q.san(q.parse_move("exd5").unwrap()), "exd5");
    assert_eq!(q.san(q.parse_move("ed5").unwrap()), "exd5");
    assert_eq!(q.san(q.parse_move("e4xd5").unwrap()), "exd5");
    let mut r = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in ["O-O", "0-0", "o-o", "OO", "e1g1", "e1h1", "Kg1"] {
        assert!(r.parse_move(text).unwrap().is_castle(), "{text}");
    }
    play(&mut r, "O-O-O");
    assert!(r.fen().starts_with("r3k2r/8/8/8/8/8/8/2KR3R b kq"));
}

/// Lenient reading never plays a move the text does not say (the audit: after 1. e4 d5,
/// `d5` played exd5). A bare destination never captures, a written `x` must, and a capital
/// piece letter names the piece; each refusal names the move the text comes near.
#[test]
fn lenient_reading_never_plays_an_unwritten_capture_or_piece() {
    let mut q = Position::startpos();
    play(&mut q, "e4 d5");
    let why = |p: &Position, t: &str| p.parse_move(t).unwrap_err().to_string();
    assert_eq!(
        why(&q, "d5"),
        "d5 is not legal: a move written without x captures nothing, and your only moves onto \
         d5 capture: exd5 (write it so if you mean it)"
    );
    // The capture as written, or with the pawn's file, still plays.
    for text in ["exd5", "ed5", "e4d5", "e4xd5"] {
        assert_eq!(q.san(q.parse_move(text).unwrap()), "exd5", "{text}");
    }
    // A written capture onto an empty square is refused, naming the plain move.
    assert_eq!(
        why(&q, "xe5"),
        "xe5 is not legal: there is nothing to capture on e5; did you mean e5?"
    );
    // A knight onto an enemy piece: `Nd5` alone is no capture.
    let n = pos("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1");
    assert!(why(&n, "Nd5").contains("Nxd5"), "{}", why(&n, "Nd5"));
    assert_eq!(n.san(n.parse_move("Nxd5").unwrap()), "Nxd5");
    // `Bc3` with no bishop to go there is not the b-pawn's capture bxc3.
    let b = pos("4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1");
    let e = why(&b, "Bc3");
    assert!(e.contains("bishop") && e.contains("bxc3"), "{e}");
    assert_eq!(b.san(b.parse_move("bxc3").unwrap()), "bxc3");
    assert_eq!(b.san(b.parse_move("bc3").unwrap()), "bxc3");
}

#[test]
fn refusals_say_why() {
    let p = Position::startpos();
    let why = |t: &str| p.parse_move(t).unwrap_err().to_string();
    assert_eq!(
        why("Bc4"),
        "Bc4 is not legal: your bishop on f1 is blocked by your pawn on e2"
    );
    assert_eq!(
        why("e5"),
        "e5 is not legal: none of your pawns can move to e5"
    );
    assert_eq!(
        why("e2e5"),
        "e2e5 is not legal: your pawn on e2 cannot move to e5"
    );
    assert_eq!(
        why("Qd3"),
        "Qd3 is not legal: your queen on d1 is blocked by your pawn on d2"
    );
    assert_eq!(why("e3e4"), "e3e4 is not legal: there is no piece on e3");
    assert_eq!(
        why("e7e5"),
        "e7e5 is not legal: the pawn on e7 is not yours"
    );
    assert_eq!(
        why("Nd2"),
        "Nd2 is not legal: d2 is occupied by your own pawn"
    );
    assert!(why("Ni9").contains("not on this board"));
    assert!(why("hello").contains("is not a move"));
    // Checkers notation is not taken for a move to a square "x17".
    for text in ["3x17", "23x14", "11-15"] {
        assert!(
            why(text).starts_with(&format!("'{text}' is not a move: write it like Nf3")),
            "{text}: {}",
            why(text)
        );
    }
    assert!(why("O-O").contains("needs the squares between king and rook empty"));
    let pinned = pos("4k3/8/8/8/8/4r3/4N3/4K3 w - - 0 1");
    let e = pinned.parse_move("Nc3").unwrap_err().to_string();
    assert_eq!(
        e,
        "Nc3 is not legal: moving your knight on e2 to c3 would leave your king in check"
    );
    let check = pos("4k3/8/8/8/8/4r3/8/1N2K3 w - - 0 1");
    let e = check.parse_move("Nc3").unwrap_err().to_string();
    assert!(e.contains("your king is in check"), "{e}");
    // A promotion asked of a move that cannot promote says so, not that the king is exposed
    // (Nf3 and e4 themselves are legal).
    assert_eq!(
        why("Nf3=Q"),
        "Nf3=Q is not legal: only a pawn can promote, not a knight"
    );
    assert_eq!(
        why("g1f3q"),
        "g1f3q is not legal: only a pawn can promote, not a knight"
    );
    assert_eq!(
        why("e4=Q"),
        "e4=Q is not legal: your pawn on e2 does not promote on e4 (a pawn promotes only on its \
         last row)"
    );
    // A pinned pawn's promotion is refused for the pin.
    let pinned = pos("7k/K2P3r/8/8/8/8/8/8 w - - 0 1");
    let e = pinned.parse_move("d8=Q").unwrap_err().to_string();
    assert!(e.contains("would leave your king in check"), "{e}");
}

#[test]
fn insufficient_material() {
    for (fen, dead) in [
        ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true),
        ("8/8/4k3/8/8/4K3/4N3/8 w - - 0 1", true),
        ("8/8/4k3/8/8/4K3/4B3/8 w - - 0 1", true),
        ("8/4b3/4k3/8/8/4K3/3B4/8 w - - 0 1", true),
        ("8/3b4/4k3/8/8/4K3/3B4/8 w - - 0 1", false),
        ("8/8/4k3/4n3/8/4K3/4N3/8 w - - 0 1", false),
        ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", false),
        ("8/8/4k3/8/8/4K3/3NN3/8 w - - 0 1", false),
    ] {
        assert_eq!(pos(fen).is_insufficient_material(), dead, "{fen}");
    }
}

#[test]
fn setup_errors_name_every_problem() {
    let err = Position::from_fen("k7/8/8/8/8/8/8/KK5P w - - 0 1", Rules::chess()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("White has more than one king"), "{text}");
    assert!(text.contains("the pawn on h1"), "{text}");
    let err = Position::from_fen("kQ6/8/8/8/8/8/8/K7 w - - 0 1", Rules::chess()).unwrap_err();
    assert!(
        err.to_string()
            .contains("Black is in check but it is not their turn"),
        "{err}"
    );
    let err = Position::from_fen("k7/8/8/8/8/8/8/K7 w - e3 0 1", Rules::chess()).unwrap_err();
    assert!(
        err.to_string().contains("en passant on e3 is impossible"),
        "{err}"
    );
    let err = Position::from_fen("k7/8/8/8/8/8/8/K7 w K - 0 1", Rules::chess()).unwrap_err();
    assert!(
        err.to_string()
            .contains("no rook beside its king toward the h-side"),
        "{err}"
    );
    let err = Position::from_fen("k7/8/8/8/8/8/8/K7 x - - 0 1", Rules::chess()).unwrap_err();
    assert!(
        err.to_string().contains("must be 'w' or 'b', not 'x'"),
        "{err}"
    );
    let err = Position::from_fen("k7/8/8/8/8/8/8/K8 w - - 0 1", Rules::chess()).unwrap_err();
    assert!(err.to_string().contains("rank 1 has 9 squares"), "{err}");
    let err = Position::from_fen("k7/8/8/8/8/8/8/K6X w - - 0 1", Rules::chess()).unwrap_err();
    assert!(
        err.to_string()
            .contains("'X' in rank 1 is not a piece letter"),
        "{err}"
    );
}

#[test]
fn counters_and_repetition_keys() {
    let mut p = Position::startpos();
    let start = p.repetition_key();
    play(&mut p, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(p.repetition_key(), start);
    assert_eq!(p.halfmoves(), 4);
    assert_eq!(p.fullmoves(), 3);
    play(&mut p, "e4");
    assert_eq!(p.halfmoves(), 0);
    assert_ne!(p.repetition_key(), start);
}

/// The same generator on a cylinder: files wrap for sliders, kings, knights and pawns.
#[test]
fn chess_on_a_cylinder() {
    let spec = RulesSpec::new(
        SquareBoard::new(8, 8)
            .wrap(Wrap::Files)
            .seats_facing(&[0, 2])
            .spec(),
        vec![0, 1],
    );
    let rules = spec.build();
    let p = Position::from_fen("R6k/8/8/8/8/8/8/4K3 b - - 0 1", rules.clone()).unwrap();
    assert!(p.is_check(), "the rook on a8 checks h8 across the seam");
    // The pawn on h2 captures onto a3 across the seam.
    let p = Position::from_fen("4k3/8/8/8/8/n7/7P/4K3 w - - 0 1", rules.clone()).unwrap();
    assert!(sans(&p).contains(&"hxa3".to_string()), "{:?}", sans(&p));
    // A knight on a1 reaches g2 and h3 across the seam.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", rules.clone()).unwrap();
    let s = sans(&p);
    assert!(
        s.contains(&"Ng2".to_string()) && s.contains(&"Nh3".to_string()),
        "{s:?}"
    );
    // A lone rook on an empty rank has seven squares to go to, not fourteen.
    let p = Position::from_fen("4k3/8/8/8/R7/8/8/4K3 w - - 0 1", rules).unwrap();
    let rook_moves = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == p.board().cell("a4").unwrap())
        .count();
    assert_eq!(rook_moves, 7 + 7);
}

/// Four armies on Adams' cut-throat 12x12 board (the four squares of each corner off limits):
/// each seat's pawns walk away from its own edge, and teams do not attack each other.
#[test]
fn four_armies_on_twelve_by_twelve() {
    let spec = RulesSpec::new(
        SquareBoard::doubles(CUT_THROAT_CORNERS).spec(),
        vec![0, 1, 0, 1],
    );
    let rules = spec.build();
    let board = rules.board();
    let cell = |l: &str| board.cell(l).unwrap();
    let mut cells = vec![None; board.len()];
    let mut put = |l: &str, seat: u8, role: Role| {
        cells[cell(l).index()] = Some(Piece {
            seat: Seat(seat),
            role,
        })
    };
    put("g1", 0, Role::King);
    put("c1", 0, Role::Rook);
    put("e2", 0, Role::Pawn);
    put("a7", 1, Role::King);
    put("b5", 1, Role::Pawn);
    put("f12", 2, Role::King);
    put("h11", 2, Role::Pawn);
    put("l6", 3, Role::King);
    put("k8", 3, Role::Pawn);
    let mut p = Position::from_setup(
        Setup {
            cells,
            turn: Seat(0),
            castling_rooks: vec![],
            ep_target: None,
            halfmoves: 0,
            fullmoves: 1,
        },
        rules.clone(),
    )
    .unwrap();
    let targets = |p: &Position, from: &str| -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| m.from == cell(from))
            .map(|m| board.label(m.to).to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(targets(&p, "e2"), ["e3", "e4"]);
    // White 1's rook on c1, beside the cut corner: up the c-file to c12, along rank 1 to its
    // king, never into b1.
    let rook = targets(&p, "c1");
    assert_eq!(rook.len(), 11 + 3, "{rook:?}");
    assert!(rook.contains(&"c12".to_string()) && !rook.contains(&"b1".to_string()));
    p.play(p.parse_move("e2e4").unwrap()).unwrap();
    assert_eq!(targets(&p, "b5"), ["c5", "d5"], "seat 1 faces right");
    p.play(p.parse_move("b5c5").unwrap()).unwrap();
    assert_eq!(targets(&p, "h11"), ["h10", "h9"], "seat 2 faces down");
    p.play(p.parse_move("h11h10").unwrap()).unwrap();
    assert_eq!(targets(&p, "k8"), ["i8", "j8"], "seat 3 faces left");
    p.play(p.parse_move("k8j8").unwrap()).unwrap();
    assert_eq!(p.turn(), Seat(0));
    assert_eq!(p.fullmoves(), 2);
}

/// Zombie Chess stored this position: Black's c7-c5 left c7, where a buried white bishop rose at
/// once. The en passant square behind the pawn stays valid with the square it left occupied.
#[test]
fn en_passant_survives_a_piece_on_the_square_the_pawn_left() {
    let p = pos("1rbqkbnr/p1Bpp3/n5pp/1Pp2p2/8/4P3/1PPP1PPP/RNB1QKNR w h c6 0 8");
    assert!(sans(&p).contains(&"bxc6".to_string()), "{:?}", sans(&p));
    let again = pos(&p.fen());
    assert_eq!(again.fen(), p.fen());
}

//! Properties of the chess machinery over random playouts from random starts: nothing panics,
//! every generated move reads back from its own notation, FEN round-trips, and the game layer
//! agrees with the position.

use engine::board::{SquareBoard, Wrap};
use engine::chess::{FenFlavor, NotationStyle, Position, Rules, RulesSpec};
use engine::game::Options;
use engine::registry;
use engine::view::Viewer;
use engine::Seat;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn start(number: u16) -> Position {
    Position::from_fen(
        &engine::variants::chess960::start_fen(number),
        Rules::chess(),
    )
    .unwrap()
}

fn check_position(pos: &Position) {
    let legal = pos.legal_moves();
    for &m in &legal {
        let san = pos.san(m);
        assert_eq!(pos.parse_move(&san), Ok(m), "SAN {san} in {}", pos.fen());
        // King-takes-rook coordinates are always unique; the standard king-move form of a 960
        // castle can coincide with an ordinary king step (king f1, castle to g1), and then
        // the ordinary step is meant.
        let coord = pos.coordinate(m, NotationStyle::Chess960);
        assert_eq!(
            pos.parse_move(&coord),
            Ok(m),
            "coordinates {coord} in {}",
            pos.fen()
        );
        let coord = pos.coordinate(m, NotationStyle::Standard);
        let same_text = legal
            .iter()
            .filter(|o| pos.coordinate(**o, NotationStyle::Standard) == coord)
            .count();
        if same_text == 1 {
            assert_eq!(
                pos.parse_move(&coord),
                Ok(m),
                "coordinates {coord} in {}",
                pos.fen()
            );
        }
        // Every legal move is among the pseudo-legal ones.
        assert!(pos.pseudo_legal_moves().contains(&m));
    }
    for flavor in [FenFlavor::XFen, FenFlavor::Shredder] {
        let fen = pos.fen_with(flavor);
        let back = Position::from_fen(&fen, Rules::chess()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&back, pos, "{fen}");
        assert_eq!(back.fen_with(flavor), fen);
        assert_eq!(back.legal_moves().len(), legal.len(), "{fen}");
    }
    assert_eq!(pos.is_checkmate(), legal.is_empty() && pos.is_check());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn playouts_on_wrapped_boards(wrap_both in any::<bool>(), seed in any::<u64>(), plies in 1usize..120) {
        let wrap = if wrap_both { Wrap::Both } else { Wrap::Files };
        let rules = RulesSpec::new(
            SquareBoard::new(8, 8).wrap(wrap).seats_facing(&[0, 2]).spec(),
            vec![0, 1],
        )
        .build();
        // On a torus rank 8 touches rank 1 and nothing is a back rank: keep the armies apart
        // and without castling rights.
        let start = if wrap_both {
            "8/rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1"
        } else {
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        };
        let mut pos = Position::from_fen(start, rules.clone()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            let mut unique = legal.to_vec();
            unique.sort();
            unique.dedup();
            prop_assert_eq!(unique.len(), legal.len(), "duplicate moves in {}", pos.fen());
            for &m in &legal {
                prop_assert_eq!(pos.parse_move(&pos.san(m)), Ok(m));
            }
            let back = Position::from_fen(&pos.fen(), rules.clone()).unwrap();
            prop_assert_eq!(&back, &pos);
            if legal.is_empty() {
                break;
            }
            pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
    }

    #[test]
    fn random_playouts_keep_every_invariant(number in 0u16..960, seed in any::<u64>(), plies in 1usize..160) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pos = start(number);
        for _ in 0..plies {
            check_position(&pos);
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.gen_range(0..legal.len())];
            pos.play(m).unwrap();
        }
        check_position(&pos);
    }

    #[test]
    fn the_game_layer_plays_whole_games_from_text(seed in any::<u64>(), chess960 in any::<bool>()) {
        let game = registry::variant(if chess960 { "chess960" } else { "chess" }).unwrap();
        let mut state = game.setup(&Options::new(), 2, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..300 {
            if game.outcome(&state).unwrap().is_some() {
                prop_assert!(game.prompts(&state).unwrap().is_empty());
                break;
            }
            let prompt = game.prompts(&state).unwrap();
            prop_assert_eq!(prompt.len(), 1);
            let seat = prompt[0].seat;
            let other = Seat(1 - seat.0);
            prop_assert!(game.legal_texts(&state, other).unwrap().is_empty());
            let texts = game.legal_texts(&state, seat).unwrap();
            let text = &texts[rng.gen_range(0..texts.len())];
            // Out of turn is refused and changes nothing.
            let before = game.save(&state).unwrap();
            prop_assert!(game.play(&mut state, other, text).is_err());
            prop_assert_eq!(&game.save(&state).unwrap(), &before);
            let (canonical, events) = game.play(&mut state, seat, text).unwrap();
            prop_assert_eq!(&canonical, text);
            prop_assert!(!events.is_empty());
            // Storage round-trips.
            let json = game.save(&state).unwrap();
            let loaded = game.load(&json).unwrap();
            prop_assert_eq!(game.save(&loaded).unwrap(), json);
            let view = game.view(&state, Viewer::Spectator).unwrap();
            prop_assert_eq!(view.last_move.len(), 2);
        }
    }
}

#[test]
fn garbage_never_panics() {
    let pos = Position::startpos();
    for text in [
        "", " ", "x", "O-O-O-O", "Nz9", "e9", "a0a1", "K", "=Q", "e8=", "e7e8k", "Bxx4", "1e4",
        "e2e4e6", "pe4", "Qh4#!!", "é4", "🙂", "0-0-0", "exd", "ee4", "a1a1", "b", "bb4",
    ] {
        let _ = pos.parse_move(text);
    }
    for fen in [
        "",
        "8",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x",
        "9/8/8/8/8/8/8/8 w",
        "k7/8/8/8/8/8/8/K7 w KQkq",
        "k7/8/8/8/8/8/8/K7 w - z9",
        "k7/8/8/8/8/8/8/K7 w - - x 1",
        "k7/8/8/8/8/8/8/K7 w - - 0 1 extra",
        "k7/8/8/8/8/8/8/KK6 w",
        "k7/8/8/8/8/8/8/K6P w",
        "kQ6/8/8/8/8/8/8/K7 w",
        "k7/8/8/8/8/8/8/K7 w - e3",
        "k7/8/8/8/8/8/8/K7 w - - 99999999999999999999 1",
        "0k7/8/8/8/8/8/8/K7 w",
    ] {
        let _ = Position::from_fen(fen, Rules::chess());
    }
}

use std::time::Duration;

use super::*;
use crate::game::Options;
use crate::registry;

/// `medium`'s search with `iterations` (and `medium`'s nodes for chess), guarded by a clock
/// far beyond them, so that a loaded test machine never cuts a search short and every result
/// repeats.
fn steady(iterations: u32) -> Budget {
    Budget {
        iterations,
        time_cap: Duration::from_secs(120),
        chess: alphabeta::Limits {
            time_cap: Duration::from_secs(120),
            ..alphabeta::Limits::MEDIUM
        },
        ..Level::Medium.budget()
    }
}

fn chess_from(fen: &str) -> (&'static dyn AnyGame, AnyState) {
    let chess = registry::variant("chess").unwrap();
    let options = Options::parse([format!("fen={fen}")]).unwrap();
    let state = chess.setup(&options, 2, 1).unwrap();
    (chess, state)
}

#[test]
fn levels_read_and_print_their_names() {
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>().unwrap(), level);
    }
    assert_eq!("MEDIUM".parse::<Level>().unwrap(), Level::Medium);
    let err = "grandmaster".parse::<Level>().unwrap_err().to_string();
    assert!(err.contains("easy, medium or hard"), "{err}");
    assert_eq!(serde_json::to_string(&Level::Hard).unwrap(), "\"hard\"");
    assert_eq!(
        serde_json::from_str::<Level>("\"easy\"").unwrap(),
        Level::Easy
    );
}

#[test]
fn the_same_seed_gives_the_same_choice_in_chess() {
    let chess = registry::variant("chess").unwrap();
    let mut state = chess.setup(&Options::new(), 2, 3).unwrap();
    chess.play(&mut state, Seat::WHITE, "e4").unwrap();
    let first = choose_with(chess, &state, Seat::BLACK, &steady(150), 42).unwrap();
    let again = choose_with(chess, &state, Seat::BLACK, &steady(150), 42).unwrap();
    assert_eq!(first, again);
    assert_eq!(first.fallback, None, "{first:?}");
    // Chess is played by the alpha-beta searcher, not the tree search.
    assert_eq!(first.stats.iterations, 0);
    assert!(first.stats.nodes > 0 && first.stats.depth >= 3, "{first:?}");
    assert!(!first.stats.clock_stopped, "{first:?}");
    let legal = chess.legal_texts(&state, Seat::BLACK).unwrap();
    assert!(legal.contains(&first.text), "{first:?}");
}

/// Chess960 goes through the alpha-beta searcher too, from a shuffled start and after moves
/// (its history replayed from the start), at every level.
#[test]
fn chess960_is_played_by_the_alpha_beta_searcher() {
    let game = registry::variant("chess960").unwrap();
    let mut state = game.setup(&Options::new(), 2, 9).unwrap();
    for _ in 0..4 {
        let seat = game.prompts(&state).unwrap()[0].seat;
        let choice = choose_with(game, &state, seat, &steady(10), 3).unwrap();
        assert_eq!(choice.fallback, None, "{choice:?}");
        assert!(choice.stats.nodes > 0, "{choice:?}");
        game.play(&mut state, seat, &choice.text).unwrap();
    }
    let seat = game.prompts(&state).unwrap()[0].seat;
    let legal = game.legal_texts(&state, seat).unwrap();
    for level in Level::ALL {
        let choice = choose(game, &state, seat, level, 5).unwrap();
        assert!(legal.contains(&choice.text), "{level}: {choice:?}");
        assert!(choice.stats.nodes > 0, "{level}: {choice:?}");
    }
}

/// The search knows the game's earlier positions (for repetitions): replayed from the start,
/// one key per position before the current one, equal keys for equal positions.
#[test]
fn a_chess_games_earlier_positions_are_replayed_for_the_search() {
    let chess = registry::variant("chess").unwrap();
    let mut state = chess.setup(&Options::new(), 2, 1).unwrap();
    for (seat, text) in [
        (Seat::WHITE, "Nf3"),
        (Seat::BLACK, "Nf6"),
        (Seat::WHITE, "Ng1"),
        (Seat::BLACK, "Ng8"),
    ] {
        chess.play(&mut state, seat, text).unwrap();
    }
    let game = state.downcast_ref::<ChessState>().unwrap();
    let keys = chess_history(game);
    assert_eq!(keys.len(), 4);
    // The knights are home again: the start stands on the board a second time.
    let now = alphabeta::position_key(game.position());
    assert_eq!(keys[0], now);
    assert!(keys[1..].iter().all(|k| *k != now), "{keys:?}");
}

#[test]
fn the_same_seed_gives_the_same_choice_for_four_players() {
    let doubles = registry::variant("doubles").unwrap();
    let state = doubles.setup(&Options::new(), 4, 5).unwrap();
    let seat = doubles.prompts(&state).unwrap()[0].seat;
    let first = choose_with(doubles, &state, seat, &steady(120), 9).unwrap();
    let again = choose_with(doubles, &state, seat, &steady(120), 9).unwrap();
    assert_eq!(first, again);
    assert_eq!(first.fallback, None, "{first:?}");
    let legal = doubles.legal_texts(&state, seat).unwrap();
    assert!(legal.contains(&first.text), "{first:?}");
}

#[test]
fn a_single_legal_action_is_played_without_a_search() {
    // The white king in check from an unguarded queen can only take it.
    let (chess, state) = chess_from("k7/8/8/8/8/8/1q6/K7 w - - 0 1");
    let choice = choose(chess, &state, Seat::WHITE, Level::Hard, 0).unwrap();
    assert_eq!(choice.text, "Kxb2");
    assert_eq!(choice.stats.iterations, 0);
}

#[test]
fn it_mates_in_one_at_medium() {
    let (chess, state) = chess_from("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let choice = choose(chess, &state, Seat::WHITE, Level::Medium, 1).unwrap();
    assert_eq!(choice.text, "Ra8#", "{choice:?}");
}

#[test]
fn it_takes_a_hanging_queen_at_medium() {
    let (chess, state) = chess_from("6k1/5ppp/8/3q4/8/8/5PPP/3R2K1 w - - 0 1");
    let choice = choose(chess, &state, Seat::WHITE, Level::Medium, 1).unwrap();
    assert_eq!(choice.text, "Rxd5", "{choice:?}");
}

#[test]
fn it_resigns_and_takes_draws_only_when_it_stands_badly() {
    // Black alone against a queen and a rook: lost beyond doubt, and worse than even.
    let (chess, lost) = chess_from("6k1/8/8/8/8/8/8/QR4K1 b - - 0 1");
    assert!(offer_draw_answer(
        chess,
        &lost,
        Seat::BLACK,
        Level::Medium,
        2
    ));
    assert!(!should_resign(chess, &lost, Seat::BLACK, Level::Easy, 2));
    // The winning side neither resigns nor takes a draw.
    let (chess, won) = chess_from("6k1/8/8/8/8/8/8/QR4K1 w - - 0 1");
    assert!(!offer_draw_answer(
        chess,
        &won,
        Seat::WHITE,
        Level::Medium,
        2
    ));
    assert!(!should_resign(chess, &won, Seat::WHITE, Level::Medium, 2));
    // Nobody resigns the opening.
    let start = chess.setup(&Options::new(), 2, 1).unwrap();
    assert!(!should_resign(chess, &start, Seat::WHITE, Level::Medium, 2));
}

/// The "never peeking": two Synchronous states that differ only in White's sealed
/// move give Black the same choice with the same seed.
#[test]
fn a_sealed_synchronous_move_does_not_change_the_choice() {
    let game = registry::variant("synchronous").unwrap();
    let start = game.setup(&Options::new(), 2, 4).unwrap();
    let white = game.legal_texts(&start, Seat::WHITE).unwrap();
    let sealed = |text: &str| {
        let mut state = start.clone();
        game.play(&mut state, Seat::WHITE, text).unwrap();
        state
    };
    let (one, other) = (
        sealed(white[0].as_str()),
        sealed(white[white.len() - 1].as_str()),
    );
    let a = choose_with(game, &one, Seat::BLACK, &steady(80), 17).unwrap();
    let b = choose_with(game, &other, Seat::BLACK, &steady(80), 17).unwrap();
    assert_eq!(a.fallback, None, "{a:?}");
    assert_eq!(a, b);
}

/// Every variant of the registry, with every number of seats it is played by (its default
/// options), gives every seat prompted at the start one of its legal actions, from a search
/// that works (no fallback). A tiny budget keeps it quick.
#[test]
fn every_variant_and_seat_count_gets_a_legal_choice_at_easy() {
    let tiny = Budget {
        iterations: 4,
        playout_plies: 3,
        time_cap: Duration::from_secs(60),
        ..Level::Easy.budget()
    };
    for game in registry::variants() {
        let info = game.info();
        let mut played = 0;
        for &seats in info.seat_counts {
            // Some counts need options (Trimens for two plays open): refused by name.
            let state = match game.setup(&Options::new(), seats, 11) {
                Ok(state) => state,
                Err(GameError::BadOption(_)) => continue,
                Err(e) => panic!("{} with {seats} seats: {e}", info.id),
            };
            played += 1;
            let prompts = game.prompts(&state).unwrap();
            assert!(
                !prompts.is_empty(),
                "{} with {seats}: nobody to act",
                info.id
            );
            for prompt in prompts {
                let legal = game.legal_texts(&state, prompt.seat).unwrap();
                let choice = choose_with(*game, &state, prompt.seat, &tiny, 5)
                    .unwrap_or_else(|e| panic!("{} with {seats}: {e}", info.id));
                assert!(
                    legal.contains(&choice.text),
                    "{} with {seats}: {choice:?} is not among {legal:?}",
                    info.id
                );
                assert_eq!(
                    choice.fallback, None,
                    "{} with {seats}: the search failed",
                    info.id
                );
            }
        }
        assert!(
            played > 0,
            "{}: no seat count with default options",
            info.id
        );
    }
}

//! Every one of the eighteen games of Adams' checkers family plays from start to finish
//! through the registry: random games, each move typed as its own notation, stored and
//! reloaded along the way.

use engine::game::Options;
use engine::registry;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn all_eighteen_games_play_to_the_end() {
    let mut finished = 0;
    for variant in ["checkers", "stax", "queens"] {
        for board in ["flat", "cylinder", "universal"] {
            for numbers in ["off", "on"] {
                let game = registry::variant(variant).unwrap();
                let options =
                    Options::parse([format!("board={board}"), format!("numbers={numbers}")])
                        .unwrap();
                for seed in 0..3u64 {
                    let mut state = game.setup(&options, 2, seed).unwrap();
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    for _ in 0..600 {
                        if game.outcome(&state).unwrap().is_some() {
                            finished += 1;
                            break;
                        }
                        let seat = game.prompts(&state).unwrap()[0].seat;
                        let texts = game.legal_texts(&state, seat).unwrap();
                        let mut unique = texts.clone();
                        unique.sort();
                        unique.dedup();
                        assert_eq!(unique.len(), texts.len(), "each move has its own text");
                        let text = texts[rng.gen_range(0..texts.len())].clone();
                        let (canonical, _) = game
                            .play(&mut state, seat, &text)
                            .unwrap_or_else(|e| panic!("{variant} {board} {numbers}: {text}: {e}"));
                        assert_eq!(canonical, text);
                        let json = game.save(&state).unwrap();
                        state = game.load(&json).unwrap();
                    }
                }
            }
        }
    }
    assert!(
        finished >= 27,
        "most random games reach an end within 600 moves ({finished} of 54)"
    );
}

/// The 36 games for four of the book's section IV (Checkers, Stax and Queens; partners and
/// cut-throat; flat, cylindrical and universal; with and without numbers), 100 random games of
/// each through `rookery playout`: every move read back from its text, the state stored and
/// reloaded after each, resignations and timeouts mixed in. Two threads share the work.
#[test]
fn a_hundred_games_of_each_of_the_thirty_six_games_for_four() {
    use engine::playout::Settings;
    let mut combinations = Vec::new();
    for variant in ["checkers", "stax", "queens"] {
        for mode in ["partners", "cutthroat"] {
            for board in ["flat", "cylinder", "universal"] {
                for numbers in ["off", "on"] {
                    combinations.push((
                        variant,
                        vec![
                            format!("mode={mode}"),
                            format!("board={board}"),
                            format!("numbers={numbers}"),
                        ],
                    ));
                }
            }
        }
    }
    assert_eq!(combinations.len(), 36);
    let play = |(variant, options): &(&str, Vec<String>)| -> String {
        let mut out = Vec::new();
        let settings = Settings {
            seats: Some(4),
            seed: 1_100,
            ..Settings::default()
        };
        let result = bot::cli::playout(variant, options, 100, settings, &mut out);
        let printed = String::from_utf8(out).unwrap();
        assert!(result.is_ok(), "{variant} {options:?}: {printed}");
        assert_eq!(
            printed.lines().last(),
            Some("100 games, 100 finished, 0 errors"),
            "{variant} {options:?}"
        );
        printed
    };
    let (first, second) = combinations.split_at(18);
    let printed: String = std::thread::scope(|scope| {
        let other = scope.spawn(|| second.iter().map(play).collect::<String>());
        let mine: String = first.iter().map(play).collect();
        mine + &other.join().expect("the other half played")
    });
    // Games are decided on the board, not only by resignations and draws.
    for ending in [
        "White and Orange win by capturing every piece",
        "Black and Blue win by leaving the opponent no move",
        "wins by being the last one left",
    ] {
        assert!(printed.contains(ending), "no game ended '{ending}'");
    }
}

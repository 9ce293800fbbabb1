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

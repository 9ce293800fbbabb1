//! Every variant in the registry, with every combination of its options, played to the end by
//! `rookery playout` (the same function the command runs): random games whose every action is
//! read back from its own text, with the state stored and reloaded after each, and random
//! resignations and timeouts mixed in.

use engine::playout::{option_combinations, Settings};
use engine::registry;

fn option_args(options: &engine::game::Options) -> Vec<String> {
    options.iter().map(|(k, v)| format!("{k}={v}")).collect()
}

#[test]
fn every_variant_and_option_plays_to_the_end() {
    let mut combinations = 0;
    for game in registry::variants() {
        let info = game.info();
        for options in option_combinations(*game) {
            for &seats in info.seat_counts {
                let mut out = Vec::new();
                let settings = Settings {
                    seats: Some(seats),
                    seed: 1_000,
                    ..Settings::default()
                };
                let result =
                    bot::cli::playout(info.id, &option_args(&options), 4, settings, &mut out);
                let printed = String::from_utf8(out).unwrap();
                assert!(result.is_ok(), "{} {:?}: {printed}", info.id, options);
                let last = printed.lines().last().unwrap_or("");
                assert_eq!(
                    last, "4 games, 4 finished, 0 errors",
                    "{} {options:?}:\n{printed}",
                    info.id
                );
                combinations += 1;
            }
        }
    }
    assert!(
        combinations >= 30,
        "only {combinations} combinations were played"
    );
}

/// Zombie Chess games that once could not be stored and reloaded: a pawn's double step raised
/// a zombie on the square it left, and the stored position's en passant square was refused.
#[test]
fn zombie_games_with_a_zombie_rising_behind_a_double_step_reload() {
    for seed in [26, 36, 52, 58, 79, 141, 170] {
        let mut out = Vec::new();
        // The command's own defaults, so the seed replays the game it found.
        let settings = Settings {
            seed,
            ..Settings::default()
        };
        let result = bot::cli::playout("zombie", &[], 1, settings, &mut out);
        assert!(result.is_ok(), "{}", String::from_utf8_lossy(&out));
    }
}

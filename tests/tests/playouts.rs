//! Every variant in the registry, with every combination of its options, played to the end by
//! `rookery playout` (the same function the command runs): random games whose every action is
//! read back from its own text, with the state stored and reloaded after each, and random
//! resignations and timeouts mixed in.

use engine::playout::{option_combinations, Settings};
use engine::registry;

fn option_args(options: &engine::game::Options) -> Vec<String> {
    options.iter().map(|(k, v)| format!("{k}={v}")).collect()
}

/// Combinations no player count takes, each for a reason the variant names: Queens'
/// `colours=mixed` is for partners (and not for opposite partners on a joined board),
/// cut-throat has no `seating`, and Tri-Chess's `teams` are for partners (its six-player
/// patterns without cut edges).
fn refused_everywhere(variant: &str, options: &engine::game::Options) -> bool {
    let cut_throat = options.get("mode") == Some("cutthroat");
    let mixed = options.get("colours") == Some("mixed");
    let opposite = options.get("seating") == Some("opposite");
    let checkers = matches!(variant, "checkers" | "stax" | "queens")
        && ((cut_throat && (mixed || opposite))
            || (mixed && opposite && options.get("board") != Some("flat")));
    // Tri-Chess's teams are for partners (cut-throat is played by its own test below), and
    // the six-player patterns have no cut edges.
    let six_teams = matches!(options.get("teams"), Some("AB-CD-EF" | "ABC-DEF"));
    let tri_chess = variant == "tri-chess"
        && ((cut_throat && options.get("teams").is_some())
            || (six_teams && options.get("edges") == Some("cut")));
    // The tri-board checkers games: teams are for partners, and each layout other than the
    // standard one belongs to certain patterns (Tri-Queens' six-player trios have no standard
    // layout at all).
    let tri_checkers = matches!(variant, "tri-checkers" | "tri-stax" | "tri-queens") && {
        let teams = options.get("teams");
        let layout = options.get("layout").unwrap_or("standard");
        let fits = match (variant, layout) {
            (_, "standard") => teams != Some("ACE-BDF"),
            ("tri-queens", "open" | "closed") => teams == Some("AC-BD"),
            ("tri-queens", "mixed" | "advanced") => teams == Some("ACE-BDF"),
            ("tri-queens", "corners") => teams == Some("ACE-BDF") || teams.is_none(),
            (_, "symmetric") => matches!(teams, None | Some("AB-CD-EF" | "AD-BE-CF")),
            _ => false,
        };
        (cut_throat && teams.is_some()) || !fits
    };
    // Superchess: armies=2, against=north and turns=quadrant are for two people,
    // partner-moves for four and free-for-all for three or four; some options exclude others.
    let superchess = variant == "superchess" && {
        let on = |key: &str| options.get(key) == Some("on");
        let two_armies = options.get("armies") == Some("2");
        let quadrant = options.get("turns") == Some("quadrant");
        let north = options.get("against") == Some("north");
        let partner_moves = options.get("partner-moves").is_some_and(|v| v != "never");
        let free_for_all = options.get("free-for-all").is_some_and(|v| v != "off");
        let two_only = two_armies || quadrant || north;
        (two_only && (partner_moves || free_for_all))
            || (north && !two_armies)
            || (two_armies && quadrant)
            || (partner_moves && free_for_all)
            || (free_for_all && on("first-mate-wins"))
            || (on("piece-removal") && on("new-allegiance"))
    };
    checkers || tri_chess || tri_checkers || superchess
}

#[test]
fn every_variant_and_option_plays_to_the_end() {
    let mut combinations = 0;
    for game in registry::variants() {
        let info = game.info();
        for options in option_combinations(*game) {
            let mut accepted = 0;
            for &seats in info.seat_counts {
                // Options for one player count only (mode=cutthroat is for four) are refused
                // with the others, by name; every combination fits at least one count.
                if let Err(e) = game.setup(&options, seats, 0) {
                    assert!(
                        matches!(e, engine::GameError::BadOption(_)),
                        "{} {options:?} with {seats}: {e}",
                        info.id
                    );
                    continue;
                }
                accepted += 1;
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
            assert!(
                accepted > 0 || refused_everywhere(info.id, &options),
                "{} {options:?} fits no player count",
                info.id
            );
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

/// The games for four players, 200 random games of each mode and board, as the issue that
/// brought them asks: partners and cut-throat Doubles Chess, flat and cylindrical, and Crowded
/// House.
#[test]
fn two_hundred_games_of_each_four_player_mode() {
    let runs: [(&str, &[&str]); 5] = [
        ("doubles", &["mode=partners", "board=flat"]),
        ("doubles", &["mode=partners", "board=cylinder"]),
        ("doubles", &["mode=cutthroat", "board=flat"]),
        ("doubles", &["mode=cutthroat", "board=cylinder"]),
        ("crowded-house", &[]),
    ];
    for (variant, options) in runs {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        let mut out = Vec::new();
        let settings = Settings {
            seats: Some(4),
            seed: 2_026,
            ..Settings::default()
        };
        let result = bot::cli::playout(variant, &options, 200, settings, &mut out);
        let printed = String::from_utf8(out).unwrap();
        assert!(result.is_ok(), "{variant} {options:?}: {printed}");
        assert_eq!(
            printed.lines().last(),
            Some("200 games, 200 finished, 0 errors"),
            "{variant} {options:?}"
        );
        // Games end in more ways than resignations: some are decided on the board.
        assert!(
            printed.contains("by checkmate"),
            "{variant} {options:?}: no game ended by checkmate"
        );
    }
}

/// A hundred random games of `variant` for each (players, options) run, half the runs on a
/// second thread; every game must finish without error. Returns everything printed.
fn a_hundred_games_each(variant: &str, runs: &[(usize, &[&str])], seed: u64) -> String {
    games_each(variant, runs, 100, seed)
}

/// `games` random games of `variant` for each (seats, options), on two threads.
fn games_each(variant: &str, runs: &[(usize, &[&str])], games: u64, seed: u64) -> String {
    let play = |(seats, options): &(usize, &[&str])| -> String {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        let mut out = Vec::new();
        // Six-player Stax can pass prisoners back and forth for thousands of moves before a
        // side is worn down.
        let settings = Settings {
            seats: Some(*seats),
            seed,
            max_actions: 30_000,
            ..Settings::default()
        };
        let result = bot::cli::playout(variant, &options, games, settings, &mut out);
        let printed = String::from_utf8(out).unwrap();
        assert!(result.is_ok(), "{variant} {seats} {options:?}: {printed}");
        assert_eq!(
            printed.lines().last(),
            Some(format!("{games} games, {games} finished, 0 errors").as_str()),
            "{variant} {seats} {options:?}"
        );
        printed
    };
    let (first, second) = runs.split_at(runs.len() / 2);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| second.iter().map(play).collect::<String>());
        let mine: String = first.iter().map(play).collect();
        mine + &other.join().expect("the other half played")
    })
}

/// Trimens Chess, 100 random games of each player count and way of play (three open, three
/// designated to the right and to the left, two players), on two threads. (Random play on 258
/// triangles almost never mates; the book's sample game, a unit test, does.)
#[test]
fn a_hundred_games_of_trimens_each_way() {
    let runs: [(usize, &[&str]); 4] = [
        (3, &["play=open"]),
        (3, &["play=designated", "direction=right"]),
        (3, &["play=designated", "direction=left"]),
        (2, &["play=open"]),
    ];
    a_hundred_games_each("trimens", &runs, 3_003);
}

/// Tri-Chess, 100 random games of each player count, mode and team pattern, with the book's
/// options spread among them, on two threads.
#[test]
fn a_hundred_games_of_tri_chess_each_way() {
    let runs: [(usize, &[&str]); 12] = [
        (2, &[]),
        (2, &["edges=cut"]),
        (3, &[]),
        (3, &["edges=cut", "knight=extended"]),
        (4, &["mode=cutthroat", "knight=extended"]),
        (4, &["mode=partners", "teams=AB-CD", "edges=cut"]),
        (4, &["mode=partners", "teams=AC-BD", "pawns=plain"]),
        (4, &["mode=partners", "teams=AD-BC"]),
        (5, &["knight=extended"]),
        (6, &[]),
        (6, &["mode=partners", "teams=AB-CD-EF"]),
        (6, &["mode=partners", "teams=ABC-DEF", "knight=extended"]),
    ];
    let printed = a_hundred_games_each("tri-chess", &runs, 4_004);
    // Some games are decided on the board, not only by resignations and timeouts.
    assert!(
        printed.contains("by checkmate"),
        "no game ended by checkmate"
    );
}

/// Tri-Chek, Tri-Stax and Tri-Queens: 100 random games of every player count, mode and team
/// pattern (and each layout option), on two threads.
#[test]
fn a_hundred_games_of_the_tri_checkers_games_each_way() {
    let partners = |teams: &'static str| -> Vec<&'static str> { vec!["mode=partners", teams] };
    let mut checkers: Vec<(usize, Vec<&str>)> = vec![
        (2, vec![]),
        (2, vec!["layout=symmetric", "numbers=on"]),
        (3, vec![]),
        (4, vec!["mode=cutthroat"]),
        (4, partners("teams=AC-BD")),
        (4, partners("teams=AB-CD")),
        (4, partners("teams=AD-BC")),
        (5, vec![]),
        (5, vec!["layout=symmetric"]),
        (6, vec![]),
        (
            6,
            vec!["mode=partners", "teams=AB-CD-EF", "layout=symmetric"],
        ),
        (6, partners("teams=AD-BE-CF")),
        (6, partners("teams=ABF-CDE")),
        (6, partners("teams=ABC-DEF")),
    ];
    for variant in ["tri-checkers", "tri-stax"] {
        let runs: Vec<(usize, &[&str])> = checkers.iter().map(|(n, o)| (*n, &o[..])).collect();
        let printed = a_hundred_games_each(variant, &runs, 5_005);
        assert!(
            printed.contains("by capturing every piece")
                || printed.contains("leaving the opponent no move"),
            "{variant}: no game was decided on the board"
        );
    }
    checkers.clear();
    let queens: Vec<(usize, Vec<&str>)> = vec![
        (2, vec![]),
        (4, vec!["mode=cutthroat"]),
        (4, partners("teams=AB-CD")),
        (4, partners("teams=AC-BD")),
        (4, partners("teams=AD-BC")),
        (4, vec!["mode=partners", "teams=AC-BD", "layout=open"]),
        (
            4,
            vec![
                "mode=partners",
                "teams=AC-BD",
                "layout=closed",
                "numbers=on",
            ],
        ),
        (5, vec![]),
        (6, vec![]),
        (6, partners("teams=AD-BE-CF")),
        (6, vec!["mode=partners", "teams=ACE-BDF", "layout=mixed"]),
        (6, vec!["mode=partners", "teams=ACE-BDF", "layout=advanced"]),
        (6, vec!["mode=partners", "teams=ACE-BDF", "layout=corners"]),
    ];
    let runs: Vec<(usize, &[&str])> = queens.iter().map(|(n, o)| (*n, &o[..])).collect();
    a_hundred_games_each("tri-queens", &runs, 6_006);
}

/// Superchess: 100 random games of every player count and of each of the book's variations,
/// on two threads.
#[test]
fn a_hundred_games_of_superchess_each_way() {
    let runs: [(usize, &[&str]); 21] = [
        (2, &[]),
        (2, &["turns=quadrant"]),
        (2, &["armies=2"]),
        (2, &["armies=2", "against=north"]),
        (2, &["first-mate-wins=on"]),
        (2, &["capture-king=on"]),
        (2, &["piece-removal=on"]),
        (2, &["new-allegiance=on"]),
        (3, &[]),
        (3, &["new-allegiance=on"]),
        (3, &["free-for-all=first-mate"]),
        (3, &["free-for-all=last-king"]),
        (4, &[]),
        (4, &["partner-moves=always"]),
        (4, &["partner-moves=after-first-mate"]),
        (4, &["first-mate-wins=on"]),
        (4, &["piece-removal=on"]),
        (4, &["new-allegiance=on"]),
        (4, &["capture-king=on"]),
        (4, &["free-for-all=first-mate"]),
        (4, &["free-for-all=last-king", "new-allegiance=on"]),
    ];
    let printed = a_hundred_games_each("superchess", &runs, 5_005);
    assert!(
        printed.contains("by checkmate"),
        "no game ended by checkmate"
    );
    assert!(
        printed.contains("by capturing the king"),
        "no king was captured"
    );
}

/// Betza's Chess for Any Number of Players: 100 random games of every player count from two to
/// eight, on two threads (the larger tables first, to share the work evenly).
#[test]
fn a_hundred_games_of_betza_for_every_count() {
    let runs: [(usize, &[&str]); 7] = [
        (8, &[]),
        (7, &[]),
        (2, &[]),
        (6, &[]),
        (5, &[]),
        (4, &[]),
        (3, &[]),
    ];
    let printed = a_hundred_games_each("betza", &runs, 6_006);
    assert!(
        printed.contains("by checkmate"),
        "no game ended by checkmate"
    );
}

/// Chess with a twist: Shadow and Cylindrical Chess (and both together), Half Alice with either
/// supply of checkers, and Adrenaline, 200 random games of each.
#[test]
fn two_hundred_games_of_each_chess_with_a_twist() {
    let runs: [(&str, &[&str]); 6] = [
        ("adrenaline", &[]),
        ("shadow", &[]),
        ("shadow", &["board=cylinder"]),
        ("chess", &["board=cylinder"]),
        ("half-alice", &["checkers=12"]),
        ("half-alice", &["checkers=16"]),
    ];
    let mut mates = Vec::new();
    for (variant, options) in runs {
        let printed = games_each(variant, &[(2, options)], 200, 15_015);
        mates.push((variant, printed.contains("by checkmate")));
    }
    assert!(mates.iter().all(|(_, mated)| *mated), "{mates:?}");
}

#[test]
fn two_hundred_games_of_two_move_chess() {
    let printed = games_each("two-move", &[(2, &[])], 200, 16_016);
    assert!(printed.contains("by capturing the king"), "{printed}");
}

#[test]
fn two_hundred_games_of_telepathic_chess() {
    let printed = games_each("telepathic", &[(4, &[])], 200, 17_017);
    assert!(printed.contains("by capturing the king"), "{printed}");
}

#[test]
fn two_hundred_games_of_cooperative_chess_for_two_and_solitaire() {
    let printed = games_each("cooperative", &[(2, &[]), (1, &[])], 200, 18_018);
    assert!(printed.contains("by capturing the king"), "{printed}");
}

#[test]
fn two_hundred_games_of_chess_golf_for_each_number_of_players() {
    let runs: [(usize, &[&str]); 8] = [
        (8, &[]),
        (1, &[]),
        (2, &[]),
        (3, &[]),
        (7, &[]),
        (4, &[]),
        (5, &[]),
        (6, &[]),
    ];
    let printed = games_each("golf", &runs, 200, 19_019);
    assert!(printed.contains("by the final score"), "{printed}");
}

#[test]
fn two_hundred_games_of_tar_pit_chess_and_its_handicaps() {
    let runs: [(usize, &[&str]); 4] = [
        (2, &[]),
        (2, &["white_checkers=3"]),
        (2, &["checkers=4", "checker_cards=0"]),
        (2, &["black_checkers=8", "checker_cards=4"]),
    ];
    let printed = games_each("tar-pit", &runs, 200, 20_020);
    assert!(printed.contains("by checkmate"), "{printed}");
}

/// Every variant at every player count with the computer player in every seat (a short search,
/// and the first 150 actions, so the test stays quick): each of its choices is legal, its
/// search never falls back, and the game is stored and reloaded after every action.
#[test]
fn every_variant_plays_with_a_computer_seat() {
    let budget = engine::ai::Budget {
        iterations: 12,
        playout_plies: 4,
        ..engine::ai::Level::Easy.budget()
    };
    let mut played = 0;
    for game in registry::variants() {
        let info = game.info();
        for &seats in info.seat_counts {
            let settings = Settings {
                seats: Some(seats),
                seed: 7,
                max_actions: 150,
                concede_one_in: 0,
                computer_seats: seats,
                computer_budget: budget,
            };
            let result =
                engine::playout::random_game(*game, &engine::game::Options::new(), &settings);
            assert!(
                result.is_ok(),
                "{} with {seats}: {:?}",
                info.id,
                result.err()
            );
            played += 1;
        }
    }
    assert!(played >= 50, "only {played} games were played");
}

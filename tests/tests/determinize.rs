//! Never peeking: a computer player searches samples of a state (`AnyGame::determinize`)
//! instead of the state itself, so each sample must depend only on what the player's seat may
//! see. For every variant with hidden information, every player count and several seeds, a
//! random game is stopped at a random point before its end and, for every seat, a second
//! state is made that differs from the first only in what that seat cannot see (a sample of
//! it): both must give the same sample for the same seed, byte for byte once stored. Every
//! sample must look to its seat exactly as the true state does, offer it the same actions,
//! survive storage and play on by random actions without an error.

use engine::game::{AnyGame, AnyState, Options};
use engine::registry;
use engine::view::{View, Viewer};
use engine::{GameError, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeds (random games) per variant and player count, fewer for the games of many players
/// (each seat is sampled and played on from).
const SEEDS: u64 = 8;
const SEATS_SAMPLED: u64 = 24;
/// At most this many random actions before the state is sampled.
const WALK: usize = 100;
/// Random actions played on from each sample (fewer if the game ends).
const PLAY_ON: usize = 120;

/// Everything a view shows but the board's geometry, which a sample never changes.
fn shown(view: &View) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        view.variant,
        view.viewer,
        view.bottom,
        view.figures,
        view.last_move,
        view.checks,
        view.to_act,
        view.players,
        view.move_number,
        view.status,
        view.panel,
        view.square_names,
        view.table,
        view.colours,
        view.labels,
        view.tinted,
        view.cards
    )
}

fn text(e: GameError) -> String {
    e.to_string()
}

/// One random action by a seat asked to act; `false` once the game is over.
fn step(game: &dyn AnyGame, state: &mut AnyState, rng: &mut ChaCha8Rng) -> Result<bool, String> {
    if game.outcome(state).map_err(text)?.is_some() {
        return Ok(false);
    }
    let prompts = game.prompts(state).map_err(text)?;
    if prompts.is_empty() {
        return Err("the game is not over but nobody is asked to act".into());
    }
    let seat = prompts[rng.gen_range(0..prompts.len())].seat;
    let texts = game.legal_texts(state, seat).map_err(text)?;
    if texts.is_empty() {
        return Err(format!("{seat:?} is asked to act but has nothing legal"));
    }
    let chosen = &texts[rng.gen_range(0..texts.len())];
    game.play(state, seat, chosen)
        .map_err(|e| format!("{chosen} was listed but refused: {e}"))?;
    Ok(true)
}

/// Checks the samples of one random game for every seat; returns how many samples differed
/// from the true state (a variant whose samples never do has forgotten to hide something).
fn check(game: &dyn AnyGame, seats: usize, seed: u64) -> Result<usize, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xd373_2a11);
    let mut state = game.setup(&Options::new(), seats, seed).map_err(text)?;
    // A game still going on, as a computer player finds it when asked to act.
    for _ in 0..rng.gen_range(0..WALK) {
        let mut next = state.clone();
        if !step(game, &mut next, &mut rng)? || game.outcome(&next).map_err(text)?.is_some() {
            break;
        }
        state = next;
    }
    let save = |s: &AnyState| game.save(s).map_err(text);
    let truth = save(&state)?;
    let mut differed = 0;
    for n in 0..seats as u8 {
        let seat = Seat(n);
        let viewer = Viewer::Seat(seat);
        let (x, k): (u64, u64) = (rng.gen(), rng.gen());
        // The same game but for what `seat` cannot see.
        let other = game.determinize(&state, seat, x).map_err(text)?;
        let sample = game.determinize(&state, seat, k).map_err(text)?;
        let again = game.determinize(&other, seat, k).map_err(text)?;
        let stored = save(&sample)?;
        if stored != save(&again)? {
            return Err(format!(
                "{seat:?}'s sample depends on what it cannot see:\n{stored}\n{}",
                save(&again)?
            ));
        }
        differed += usize::from(stored != truth);
        let seen = shown(&game.view(&state, viewer).map_err(text)?);
        let actions = game.legal_texts(&state, seat).map_err(text)?;
        for (what, s) in [("the sample", &sample), ("the other state", &other)] {
            if shown(&game.view(s, viewer).map_err(text)?) != seen {
                return Err(format!(
                    "{what} does not look to {seat:?} as the true state does:\n{}\n{seen}",
                    shown(&game.view(s, viewer).map_err(text)?)
                ));
            }
            if game.legal_texts(s, seat).map_err(text)? != actions {
                return Err(format!("{what} offers {seat:?} other actions"));
            }
        }
        let mut on = game
            .load(&stored)
            .map_err(|e| format!("{seat:?}'s sample does not load: {e}\n{stored}"))?;
        for _ in 0..PLAY_ON {
            let going = step(game, &mut on, &mut rng)
                .map_err(|e| format!("playing on from {seat:?}'s sample: {e}\n{stored}"))?;
            if !going {
                break;
            }
        }
    }
    Ok(differed)
}

#[test]
fn a_sample_depends_only_on_what_its_seat_sees_and_plays_on() {
    let hidden: Vec<&dyn AnyGame> = registry::variants()
        .iter()
        .copied()
        .filter(|g| g.info().hidden_information)
        .collect();
    let ids: Vec<&str> = hidden.iter().map(|g| g.info().id).collect();
    assert_eq!(
        ids,
        [
            "zombie",
            "masquerade",
            "synchronous",
            "two-move",
            "telepathic",
            "cooperative",
            "golf",
            "tar-pit"
        ],
        "the games with hidden information"
    );
    for game in hidden {
        let id = game.info().id;
        let mut differed = 0;
        for &seats in game.info().seat_counts {
            for seed in 0..SEEDS.min(SEATS_SAMPLED / seats as u64) {
                differed += check(game, seats, seed)
                    .unwrap_or_else(|e| panic!("{id}, {seats} seats, seed {seed}: {e}"));
            }
        }
        assert!(
            differed > 0,
            "{id}: no sample ever differed from the true state"
        );
    }
}

#[test]
fn a_sample_of_a_game_without_hidden_information_is_the_game() {
    for &game in registry::variants() {
        let info = game.info();
        if info.hidden_information {
            continue;
        }
        let state = game
            .setup(&Options::new(), info.default_seats(), 5)
            .unwrap_or_else(|e| panic!("{}: {e}", info.id));
        let sample = game.determinize(&state, Seat(0), 7).unwrap();
        assert_eq!(
            game.save(&sample).unwrap(),
            game.save(&state).unwrap(),
            "{}",
            info.id
        );
    }
}

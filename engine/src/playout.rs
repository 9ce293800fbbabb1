//! Random games played to their end through [`AnyGame`], as the bot plays them: every action
//! chosen among the legal ones, read back from its own text, and the state stored and reloaded
//! after each; now and then a seat resigns or runs out of time instead. Whatever a variant gets
//! wrong on the way (a seat asked to act with nothing to do, an action that does not read back,
//! a state that does not survive storage, a game that neither ends nor asks anyone) is an
//! error naming the game, the seed and the actions so far.
//!
//! ```
//! use engine::game::Options;
//! use engine::playout::{random_game, Settings};
//! let chess = engine::registry::variant("chess").unwrap();
//! let game = random_game(chess, &Options::new(), &Settings { seed: 3, ..Settings::default() }).unwrap();
//! assert!(!game.actions.is_empty());
//! ```

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{AnyGame, AnyState, EndReason, GameError, Options, Outcome};
use crate::view::Viewer;
use crate::Seat;

/// How random games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Seats at the table (`None`: the variant's smallest count).
    pub seats: Option<usize>,
    /// The seed of the game and of the random choices.
    pub seed: u64,
    /// Actions after which a game that has not ended is left unfinished.
    pub max_actions: usize,
    /// One action in this many is replaced by a resignation or a timeout (0: never).
    pub concede_one_in: u32,
    /// The first this many seats are played by the computer player (`crate::ai`) with
    /// `computer_budget`, the others at random.
    pub computer_seats: usize,
    /// What the computer's search may spend in a playout.
    pub computer_budget: crate::ai::Budget,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seats: None,
            seed: 0,
            max_actions: 3_000,
            concede_one_in: 400,
            computer_seats: 0,
            computer_budget: crate::ai::Level::Easy.budget(),
        }
    }
}

/// A game played out.
#[derive(Clone, Debug)]
pub struct Playout {
    /// Each action as (seat, canonical text), in order.
    pub actions: Vec<(Seat, String)>,
    /// How it ended; `None` if it was still going after `max_actions`.
    pub outcome: Option<Outcome>,
    /// What the game calls each seat ("White 1", "king-side Black").
    pub names: Vec<String>,
}

impl Playout {
    /// The outcome in words, seats named as the game names them.
    pub fn describe_outcome(&self) -> Option<String> {
        let name = |s: Seat| {
            self.names
                .get(s.index())
                .cloned()
                .unwrap_or_else(|| s.colour_name())
        };
        self.outcome.as_ref().map(|o| o.describe(name))
    }
}

/// Plays up to `actions` random legal actions on `state` (each by the first seat asked to
/// act), stopping where the game ends: a position some way into a game, for tests and
/// benchmarks.
///
/// ```
/// use engine::game::Options;
/// use rand::SeedableRng;
/// let chess = engine::registry::variant("chess").unwrap();
/// let mut state = chess.setup(&Options::new(), 2, 0).unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// engine::playout::random_actions(chess, &mut state, 10, &mut rng).unwrap();
/// assert!(chess.outcome(&state).unwrap().is_none());
/// ```
pub fn random_actions(
    game: &dyn AnyGame,
    state: &mut AnyState,
    actions: usize,
    rng: &mut impl Rng,
) -> Result<(), GameError> {
    for _ in 0..actions {
        if game.outcome(state)?.is_some() {
            break;
        }
        let Some(prompt) = game.prompts(state)?.into_iter().next() else {
            break;
        };
        let texts = game.legal_texts(state, prompt.seat)?;
        if texts.is_empty() {
            break;
        }
        let text = texts[rng.gen_range(0..texts.len())].clone();
        game.play(state, prompt.seat, &text)?;
    }
    Ok(())
}

/// Plays one random game of `game` with `options`.
pub fn random_game(
    game: &dyn AnyGame,
    options: &Options,
    settings: &Settings,
) -> Result<Playout, String> {
    let id = game.info().id;
    let seats = settings
        .seats
        .unwrap_or_else(|| game.info().seat_counts.first().copied().unwrap_or(2));
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed ^ 0x005e_ed0f_9a3e);
    let mut state = game
        .setup(options, seats, settings.seed)
        .map_err(|e| format!("{id}: setup: {e}"))?;
    let mut actions: Vec<(Seat, String)> = Vec::new();
    let mut left: Vec<Seat> = Vec::new();
    let names = |state: &crate::game::AnyState| -> Vec<String> {
        (0..seats as u8)
            .map(|s| {
                game.seat_name(state, Seat(s))
                    .unwrap_or_else(|_| Seat(s).colour_name())
            })
            .collect()
    };
    let fail = |actions: &[(Seat, String)], what: String| {
        let last: Vec<&str> = actions
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(|(_, t)| t.as_str())
            .collect();
        format!(
            "{id} (seed {}) after {} actions (… {}): {what}",
            settings.seed,
            actions.len(),
            last.join(" ")
        )
    };
    while actions.len() < settings.max_actions {
        if let Some(outcome) = game
            .outcome(&state)
            .map_err(|e| fail(&actions, e.to_string()))?
        {
            return Ok(Playout {
                actions,
                outcome: Some(outcome),
                names: names(&state),
            });
        }
        let prompts = game
            .prompts(&state)
            .map_err(|e| fail(&actions, e.to_string()))?;
        if prompts.is_empty() {
            return Err(fail(
                &actions,
                "the game is not over but nobody is asked to act".into(),
            ));
        }
        let seat = prompts[rng.gen_range(0..prompts.len())].seat;
        if settings.concede_one_in > 0 && rng.gen_range(0..settings.concede_one_in) == 0 {
            // Anyone still in the game may resign, not only the player to move.
            let still_in: Vec<Seat> = (0..seats as u8)
                .map(Seat)
                .filter(|s| !left.contains(s) && !game.is_out(&state, *s).unwrap_or(true))
                .collect();
            let reason = if rng.gen_bool(0.5) {
                EndReason::Resignation
            } else {
                EndReason::Timeout
            };
            // Where time running out only forfeits a choice (Chess Golf), only a seat asked to
            // act can run out, and it stays in the game.
            let passes = reason == EndReason::Timeout && game.timeout_is_a_pass();
            let seat = match still_in.as_slice() {
                _ if passes => seat,
                [] => seat,
                _ => still_in[rng.gen_range(0..still_in.len())],
            };
            let events = game
                .leave(&mut state, seat, seats, reason)
                .map_err(|e| fail(&actions, e.to_string()))?;
            let over = events.iter().find_map(|e| match e {
                crate::game::Event::GameOver(o) => Some(o.clone()),
                _ => None,
            });
            if let Some(outcome) = over {
                // A forfeited choice may end a game its player still wins on the scores.
                if outcome.winners.contains(&seat) && !passes {
                    return Err(fail(&actions, format!("{seat:?} conceded and won")));
                }
                // The concession that ended the game is part of it (a record replays it).
                actions.push((seat, format!("({})", reason.describe())));
                return Ok(Playout {
                    actions,
                    outcome: Some(outcome),
                    names: names(&state),
                });
            }
            // The game goes on without the player (cut-throat), or with him (a choice forfeit).
            if !passes {
                left.push(seat);
            }
            actions.push((seat, format!("({})", reason.describe())));
            state = round_trip(game, state, seats).map_err(|e| fail(&actions, e))?;
            continue;
        }
        if left.contains(&seat) {
            return Err(fail(
                &actions,
                format!("{seat:?} left the game but is asked to act"),
            ));
        }
        let texts = game
            .legal_texts(&state, seat)
            .map_err(|e| fail(&actions, e.to_string()))?;
        if texts.is_empty() {
            return Err(fail(
                &actions,
                format!(
                    "{} is asked to act but has nothing legal",
                    seat.colour_name()
                ),
            ));
        }
        let mut unique = texts.clone();
        unique.sort();
        unique.dedup();
        if unique.len() != texts.len() {
            return Err(fail(&actions, "two legal actions share a text".into()));
        }
        let text = if seat.index() < settings.computer_seats {
            let seed = settings.seed ^ (actions.len() as u64) << 20;
            let choice =
                crate::ai::choose_with(game, &state, seat, &settings.computer_budget, seed)
                    .map_err(|e| {
                        fail(&actions, format!("the computer found nothing to do: {e}"))
                    })?;
            if let Some(why) = &choice.fallback {
                return Err(fail(
                    &actions,
                    format!("the computer's search failed: {why}"),
                ));
            }
            if !texts.contains(&choice.text) {
                return Err(fail(
                    &actions,
                    format!("the computer chose {}, which is not legal", choice.text),
                ));
            }
            choice.text
        } else {
            texts[rng.gen_range(0..texts.len())].clone()
        };
        let (canonical, events) = game
            .play(&mut state, seat, &text)
            .map_err(|e| fail(&actions, format!("{text} was listed but refused: {e}")))?;
        let announced = events
            .iter()
            .any(|e| matches!(e, crate::game::Event::GameOver(_)));
        let ended = game
            .outcome(&state)
            .map_err(|e| fail(&actions, e.to_string()))?
            .is_some();
        if announced != ended {
            return Err(fail(
                &actions,
                format!("{text}: the game's end was announced {announced} but is {ended}"),
            ));
        }
        if canonical != text {
            return Err(fail(&actions, format!("{text} reads back as {canonical}")));
        }
        actions.push((seat, text));
        state = round_trip(game, state, seats).map_err(|e| fail(&actions, e))?;
    }
    Ok(Playout {
        actions,
        outcome: None,
        names: names(&state),
    })
}

/// Every combination of the values of a variant's options that take a fixed list of values
/// (numbers at both ends of their range; free text left out): what a test runs through
/// [`random_game`] so that every option is played.
pub fn option_combinations(game: &dyn AnyGame) -> Vec<Options> {
    use crate::game::OptionValues;
    let mut combinations = vec![Options::new()];
    for spec in &game.info().options {
        let values: Vec<String> = match &spec.values {
            OptionValues::Choice(list) => list.iter().map(|v| v.to_string()).collect(),
            OptionValues::Number { min, max, words } => words
                .iter()
                .map(|w| w.to_string())
                .chain([min.to_string(), max.to_string()])
                .collect(),
            OptionValues::Text => continue,
        };
        combinations = combinations
            .into_iter()
            .flat_map(|base| {
                values.iter().map(move |v| {
                    let mut o = base.clone();
                    o.set(spec.key, v);
                    o
                })
            })
            .collect();
    }
    combinations
}

/// Stores the state and loads it back, checks it reads the same, and builds every view.
fn round_trip(
    game: &dyn AnyGame,
    state: crate::game::AnyState,
    seats: usize,
) -> Result<crate::game::AnyState, String> {
    let json = game.save(&state).map_err(|e| e.to_string())?;
    let state = game
        .load(&json)
        .map_err(|e| format!("the stored state does not load: {e}\n{json}"))?;
    let again = game.save(&state).map_err(|e| e.to_string())?;
    if again != json {
        return Err("the state changes when stored and reloaded".into());
    }
    for viewer in (0..seats as u8)
        .map(|s| Viewer::Seat(Seat(s)))
        .chain([Viewer::Spectator])
    {
        game.view(&state, viewer).map_err(|e| e.to_string())?;
    }
    Ok(state)
}

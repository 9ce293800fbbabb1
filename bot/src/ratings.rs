//! Ratings: which games are rated together (pools) and the arithmetic of a rated game's end.
//! No SQL and no Discord here: the service (`service::ratings`) stores what this computes.
//!
//! - Two-player games: Glicko-2 as lichess plays it (`skillratings::glicko2`), every game its own
//!   rating period, so a rating moves after every game.
//! - Games of three to eight players, free-for-all or partners: Weng-Lin, the model behind
//!   OpenSkill (`skillratings::weng_lin`), fed with the places the engine's [`Outcome`] gives.
//!
//! Both run on one scale (a new player 1500 with a deviation of 350), so a variant played by two
//! or by more (Tri-Chess, Chess for Any Number of Players) keeps one rating per player: Weng-Lin
//! reads and writes the rating and deviation (its mu and sigma, scaled by 42 from its own 25 and
//! 25/3) and leaves Glicko-2's volatility as it was. A rating is provisional, shown with "?",
//! while its deviation is above 110, as on lichess.

use std::cmp::Ordering;

use engine::game::{AnyGame, AnyState, GameError, OptionValues, Options, Outcome, VariantInfo};
use engine::registry;
use engine::Seat;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation: Glicko-2's usual start.
pub const START_DEVIATION: f64 = 350.0;
/// A new player's Glicko-2 volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// Above this deviation a rating is provisional (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Glicko-2's tau, which bounds how fast the volatility changes: lichess's 0.75.
const GLICKO2_TAU: f64 = 0.75;
/// Weng-Lin's skill-class width on this scale: half the starting deviation, the ratio of the
/// crate's own defaults (25/6 to 25/3).
const WENG_LIN_BETA: f64 = START_DEVIATION / 2.0;

/// Between a variant's id and its mode in a pool's name: `doubles:partners`.
const SEPARATOR: char = ':';
/// The mode of the pools of partners games.
const PARTNERS: &str = "partners";
/// The mode of Superchess's pool of free-for-all games.
const FREE_FOR_ALL: &str = "free-for-all";

// ---- pools ------------------------------------------------------------------------------------

/// The pool a game is rated in: the variant's id, unless the variant's book makes the mode it
/// is played in a different game. The rule, read from the variants' own options:
///
/// - a variant with a `mode` option (Doubles Chess, the checkers family, Tri-Chess and the
///   tri-checkers) played as `partners` by four or more players rates in `<id>:partners`, apart
///   from its cut-throat games; the mode is the one given or the option's default (Doubles and
///   four-player checkers default to partners, the tri-* games to cut-throat), and a two-player
///   checkers game is each for himself whatever its mode says;
/// - Superchess played `free-for-all` (first-mate or last-king) rates in
///   `superchess:free-for-all`, apart from its partners game;
/// - everything else, whatever the number of players, board or other options, rates in `<id>`.
///
/// ```
/// use bot::ratings::rating_pool;
/// use engine::game::Options;
/// use engine::registry;
/// let pool = |id: &str, options: &[&str], seats: usize| {
///     let info = registry::variant(id).unwrap().info();
///     rating_pool(info, &Options::parse(options).unwrap(), seats)
/// };
/// assert_eq!(pool("doubles", &[], 4), "doubles:partners");
/// assert_eq!(pool("doubles", &["mode=cutthroat"], 4), "doubles");
/// assert_eq!(pool("checkers", &[], 2), "checkers");
/// assert_eq!(pool("checkers", &["board=cylinder"], 4), "checkers:partners");
/// assert_eq!(pool("tri-chess", &[], 4), "tri-chess");
/// assert_eq!(pool("tri-chess", &["mode=partners"], 4), "tri-chess:partners");
/// assert_eq!(pool("superchess", &["free-for-all=last-king"], 4), "superchess:free-for-all");
/// assert_eq!(pool("superchess", &[], 4), "superchess");
/// assert_eq!(pool("chess", &["board=cylinder"], 2), "chess");
/// ```
pub fn rating_pool(info: &VariantInfo, options: &Options, seats: usize) -> String {
    let chosen = |key: &str| -> Option<String> {
        let spec = info.options.iter().find(|s| s.key == key)?;
        options
            .get(key)
            .or(spec.default)
            .map(str::to_ascii_lowercase)
    };
    if seats >= 4 && chosen("mode").as_deref() == Some(PARTNERS) {
        return format!("{}{SEPARATOR}{PARTNERS}", info.id);
    }
    if chosen("free-for-all").is_some_and(|v| v != "off") {
        return format!("{}{SEPARATOR}{FREE_FOR_ALL}", info.id);
    }
    info.id.to_string()
}

/// Every pool a variant's games can be rated in, its main one first (see [`rating_pool`]).
pub fn pools_of(info: &VariantInfo) -> Vec<String> {
    let mut pools = vec![info.id.to_string()];
    let offers_partners = info.options.iter().any(|s| {
        s.key == "mode"
            && matches!(&s.values, OptionValues::Choice(list)
                if list.iter().any(|v| v.eq_ignore_ascii_case(PARTNERS)))
    });
    if offers_partners {
        pools.push(format!("{}{SEPARATOR}{PARTNERS}", info.id));
    }
    if info.options.iter().any(|s| s.key == FREE_FOR_ALL) {
        pools.push(format!("{}{SEPARATOR}{FREE_FOR_ALL}", info.id));
    }
    pools
}

/// A pool as players read it: "Chess", "Doubles Chess (partners)".
pub fn pool_title(pool: &str) -> String {
    let (id, mode) = match pool.split_once(SEPARATOR) {
        Some((id, mode)) => (id, Some(mode)),
        None => (pool, None),
    };
    let name = registry::variant(id).map_or_else(|_| id.to_string(), |g| g.info().name.to_string());
    match mode {
        Some(mode) => format!("{name} ({mode})"),
        None => name,
    }
}

/// The pools a player means: a variant (or a named game such as `cylindrical`) for all of its
/// pools, or a variant and a mode for one (`doubles partners`, `doubles:cutthroat`,
/// `superchess free-for-all`). The error names what was not found.
///
/// ```
/// use bot::ratings::pools_named;
/// assert_eq!(pools_named("doubles").unwrap().1, ["doubles", "doubles:partners"]);
/// assert_eq!(pools_named("Doubles partners").unwrap().1, ["doubles:partners"]);
/// assert_eq!(pools_named("doubles:cutthroat").unwrap().1, ["doubles"]);
/// assert_eq!(pools_named("cylindrical").unwrap().1, ["chess"]);
/// assert_eq!(pools_named("superchess partners").unwrap().1, ["superchess"]);
/// assert_eq!(pools_named("superchess cutthroat").unwrap().1, ["superchess:free-for-all"]);
/// assert!(pools_named("chezz").unwrap_err().contains("unknown variant 'chezz'"));
/// assert!(pools_named("chess partners").unwrap_err().contains("Chess has one rating"));
/// ```
pub fn pools_named(text: &str) -> Result<(&'static VariantInfo, Vec<String>), String> {
    let text = text.trim();
    let unknown = match registry::variant_or_preset(text) {
        Ok((game, _)) => return Ok((game.info(), pools_of(game.info()))),
        Err(e) => e.to_string(),
    };
    if let Some(i) = text.rfind([SEPARATOR, ' ']) {
        let (name, mode) = (text[..i].trim(), text[i + 1..].trim().to_ascii_lowercase());
        if let Ok((game, _)) = registry::variant_or_preset(name) {
            let info = game.info();
            let pools = pools_of(info);
            let partners = format!("{}{SEPARATOR}{PARTNERS}", info.id);
            let free_for_all = format!("{}{SEPARATOR}{FREE_FOR_ALL}", info.id);
            let has_partners = pools.contains(&partners);
            let has_free_for_all = pools.contains(&free_for_all);
            // Each variant's other mode is its main pool: cut-throat beside partners (Doubles),
            // partners beside free-for-all (Superchess).
            let wanted = match mode.as_str() {
                "partners" | "teams" if has_partners => Some(partners),
                "partners" | "teams" if has_free_for_all => Some(info.id.to_string()),
                "cutthroat" | "cut-throat" if has_partners => Some(info.id.to_string()),
                "cutthroat" | "cut-throat" | "free-for-all" | "ffa" if has_free_for_all => {
                    Some(free_for_all)
                }
                _ => None,
            };
            if let Some(pool) = wanted {
                return Ok((info, vec![pool]));
            }
            return Err(if pools.len() == 1 {
                format!(
                    "{} has one rating for all its games, not one for '{mode}': ask for {}",
                    info.name, info.id
                )
            } else {
                format!(
                    "{} has no '{mode}' rating; its ratings: {}",
                    info.name,
                    pools.join(", ")
                )
            });
        }
    }
    Err(unknown)
}

// ---- ratings ----------------------------------------------------------------------------------

/// A player's rating in one pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    /// Glicko-2's volatility; games of more than two players leave it as it is.
    pub volatility: f64,
}

impl Rating {
    /// A player's rating before their first rated game in a pool.
    pub const NEW: Rating = Rating {
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    };

    /// Whether the rating is still uncertain (shown with "?", listed apart on leaderboards).
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: a whole number, with "?" while provisional ("1512", "1500?").
    pub fn shown(&self) -> String {
        let mark = if self.is_provisional() { "?" } else { "" };
        format!("{}{mark}", self.rating.round() as i64)
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// One player's change as the game-over post gives it: "alice 1500? → 1662? (+162)". The
/// difference is that of the shown numbers, so the line adds up.
pub fn describe_change(name: &str, before: Rating, after: Rating) -> String {
    let change = after.rating.round() as i64 - before.rating.round() as i64;
    format!("{name} {} → {} ({change:+})", before.shown(), after.shown())
}

/// How a game ended for one seat, for the win, draw and loss counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

impl Verdict {
    /// The verdict for `seat`: among the winners, a draw, or otherwise a loss (everyone lost
    /// together included).
    pub fn of(outcome: &Outcome, seat: Seat) -> Verdict {
        if outcome.winners.contains(&seat) {
            Verdict::Win
        } else if outcome.is_draw() {
            Verdict::Draw
        } else {
            Verdict::Loss
        }
    }

    /// As stored: `win`, `draw` or `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }
}

/// Each seat's place at the end of a game of `seats` seats, 1 the best; equal places tie.
/// The winners come first; then, where the game keeps a score table, the others in its order
/// (best first), a tie where their scores are equal; everyone else shares the last place. A
/// draw, or a game everyone lost together, ties everyone. The engine's [`Outcome`] records no
/// order of elimination, so players knocked out of a cut-throat game share the place after the
/// winners.
///
/// ```
/// use bot::ratings::places;
/// use engine::game::{EndReason, Outcome, Standing};
/// use engine::Seat;
/// let resigned = Outcome::win(vec![Seat(1)], EndReason::Resignation);
/// assert_eq!(places(&resigned, 2), [2, 1]);
/// let scored = Outcome::by_score(
///     [5, 3, 3, 1].iter().enumerate()
///         .map(|(s, &score)| Standing { seat: Seat(s as u8), score })
///         .collect(),
///     EndReason::FinalScore,
/// );
/// assert_eq!(places(&scored, 4), [1, 2, 2, 3]);
/// assert_eq!(places(&Outcome::draw(EndReason::Agreement), 3), [1, 1, 1]);
/// ```
pub fn places(outcome: &Outcome, seats: usize) -> Vec<usize> {
    if outcome.is_draw() || outcome.everyone_lost {
        return vec![1; seats];
    }
    let mut places = vec![0usize; seats];
    for winner in &outcome.winners {
        if let Some(p) = places.get_mut(winner.index()) {
            *p = 1;
        }
    }
    let mut place = 1;
    let mut last_score = None;
    for standing in &outcome.standings {
        let i = standing.seat.index();
        if places.get(i) != Some(&0) {
            continue;
        }
        if last_score != Some(standing.score) {
            place += 1;
            last_score = Some(standing.score);
        }
        places[i] = place;
    }
    let last = place + 1;
    for p in places.iter_mut().filter(|p| **p == 0) {
        *p = last;
    }
    places
}

/// One side of a finished game: its seats (partners share a side) and its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub seats: Vec<Seat>,
    /// 1 for the first; sides that tie share a place.
    pub place: usize,
}

/// The sides of a game from each seat's place ([`places`]) and team ([`teams`]), in the order
/// of their first seats. A side takes the best place among its seats.
pub fn sides(places: &[usize], teams: &[u8]) -> Vec<Side> {
    let mut sides: Vec<(u8, Side)> = Vec::new();
    for (i, &place) in places.iter().enumerate() {
        let seat = Seat(i as u8);
        let team = teams.get(i).copied().unwrap_or(i as u8);
        match sides.iter_mut().find(|(t, _)| *t == team) {
            Some((_, side)) => {
                side.seats.push(seat);
                side.place = side.place.min(place);
            }
            None => sides.push((
                team,
                Side {
                    seats: vec![seat],
                    place,
                },
            )),
        }
    }
    sides.into_iter().map(|(_, side)| side).collect()
}

/// Each seat's team, numbered by its first seat, as the computer player reads the game's
/// table (two seats are partners when neither wins if the other resigns).
pub fn teams(game: &dyn AnyGame, state: &AnyState, seats: usize) -> Result<Vec<u8>, GameError> {
    engine::ai::teams(game, state, seats)
}

/// The Glicko-2 constants Rookery rates two-player games with.
pub fn glicko2_config() -> Glicko2Config {
    Glicko2Config {
        tau: GLICKO2_TAU,
        ..Glicko2Config::new()
    }
}

/// The Weng-Lin constants on Rookery's scale.
pub fn weng_lin_config() -> WengLinConfig {
    WengLinConfig {
        beta: WENG_LIN_BETA,
        ..WengLinConfig::new()
    }
}

/// Every seat's rating after a game, from `before` (one per seat) and the game's sides
/// ([`sides`]). Two sides of one player each: Glicko-2. Anything else (three to eight
/// players, partners): Weng-Lin over the sides and their places. Fewer than two sides change
/// nothing.
pub fn rate(before: &[Rating], sides: &[Side]) -> Vec<Rating> {
    rate_with(before, sides, &glicko2_config())
}

/// [`rate`] with the given Glicko-2 constants (the tests replay Glickman's example with his).
fn rate_with(before: &[Rating], sides: &[Side], glicko: &Glicko2Config) -> Vec<Rating> {
    let mut after = before.to_vec();
    let old = |seat: Seat| before.get(seat.index()).copied().unwrap_or_default();
    if sides.len() < 2 {
        return after;
    }
    if let [one, two] = sides {
        if let ([a], [b]) = (one.seats.as_slice(), two.seats.as_slice()) {
            let outcome = match one.place.cmp(&two.place) {
                Ordering::Less => Outcomes::WIN,
                Ordering::Equal => Outcomes::DRAW,
                Ordering::Greater => Outcomes::LOSS,
            };
            let (new_a, new_b) =
                glicko2(&to_glicko(old(*a)), &to_glicko(old(*b)), &outcome, glicko);
            for (seat, new) in [(a, new_a), (b, new_b)] {
                if let Some(slot) = after.get_mut(seat.index()) {
                    *slot = Rating {
                        rating: new.rating,
                        deviation: new.deviation,
                        volatility: new.volatility,
                    };
                }
            }
            return after;
        }
    }
    // Weng-Lin adds up the skills of a team's players. Centred on the start, a pair of new
    // players is as strong as one (Superchess for three: one player's two armies against two
    // partners), instead of twice as strong as on a scale from zero.
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|side| {
            side.seats
                .iter()
                .map(|&seat| WengLinRating {
                    rating: old(seat).rating - START_RATING,
                    uncertainty: old(seat).deviation,
                })
                .collect()
        })
        .collect();
    let game: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(sides)
        .map(|(team, side)| (team.as_slice(), MultiTeamOutcome::new(side.place)))
        .collect();
    let new = weng_lin_multi_team(&game, &weng_lin_config());
    for (side, ratings) in sides.iter().zip(new) {
        for (&seat, new) in side.seats.iter().zip(ratings) {
            if let Some(slot) = after.get_mut(seat.index()) {
                *slot = Rating {
                    rating: new.rating + START_RATING,
                    deviation: new.uncertainty,
                    volatility: old(seat).volatility,
                };
            }
        }
    }
    after
}

fn to_glicko(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::game::EndReason;
    use engine::game::Standing;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's example (glicko2.pdf): a 1500 player (deviation 200, volatility 0.06) beats a
    /// 1400 (30) and loses to a 1550 (100) and a 1700 (300). The reference values are
    /// skillratings' own for the paper's example.
    #[test]
    fn glickmans_example_gives_the_published_ratings() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let games = [
            (1400.0, 30.0, Outcomes::WIN),
            (1550.0, 100.0, Outcomes::LOSS),
            (1700.0, 300.0, Outcomes::LOSS),
        ];
        let opponent = |rating: f64, deviation: f64| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        // As the paper does it: one rating period of three games.
        let results: Vec<(Glicko2Rating, Outcomes)> =
            games.iter().map(|&(r, d, o)| (opponent(r, d), o)).collect();
        let period = glicko2_rating_period(&player, &results, &Glicko2Config::new());
        assert_eq!(period.rating.round(), 1464.0, "{period:?}");
        assert_eq!((period.deviation * 100.0).round(), 15152.0, "{period:?}");
        assert!((period.volatility - 0.059_995_984_286_488_495).abs() < 1e-12);

        // As Rookery does it: each game rated as it ends, through the path every game takes.
        let mut me = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        for (r, d, outcome) in games {
            let them = Rating {
                rating: r,
                deviation: d,
                volatility: 0.06,
            };
            let places = if outcome == Outcomes::WIN {
                [1, 2]
            } else {
                [2, 1]
            };
            me = rate_with(&[me, them], &sides(&places, &[0, 1]), &Glicko2Config::new())[0];
        }
        assert_eq!(me.rating.round(), 1464.0, "{me:?}");
        assert_eq!(me.deviation.round(), 152.0, "{me:?}");
        assert!(
            (me.volatility - 0.059_997_514_049_860_735).abs() < 1e-12,
            "{me:?}"
        );
    }

    #[test]
    fn a_two_player_draw_between_equals_changes_no_rating() {
        let after = rate(&[Rating::NEW, Rating::NEW], &sides(&[1, 1], &[0, 1]));
        assert!((after[0].rating - 1500.0).abs() < 1e-9, "{after:?}");
        assert!((after[1].rating - 1500.0).abs() < 1e-9, "{after:?}");
        assert!(after[0].deviation < START_DEVIATION);
        let won = rate(&[Rating::NEW, Rating::NEW], &sides(&[2, 1], &[0, 1]));
        assert!(won[1].rating > 1500.0 && won[0].rating < 1500.0, "{won:?}");
        assert_eq!(describe_change("bob", Rating::NEW, won[1]), {
            let gain = won[1].rating.round() as i64 - 1500;
            format!("bob 1500? → {}? (+{gain})", won[1].rating.round() as i64)
        });
    }

    /// Four players each for himself, scored 5, 3, 3 and 1: first, two tied second, last.
    /// Rookery's Weng-Lin is the crate's scaled by 42 (350 for its 25/3), offset to 1500.
    #[test]
    fn a_four_player_free_for_all_rates_by_its_places() {
        let outcome = Outcome::by_score(
            [5, 3, 3, 1]
                .iter()
                .enumerate()
                .map(|(s, &score)| Standing {
                    seat: Seat(s as u8),
                    score,
                })
                .collect(),
            EndReason::FinalScore,
        );
        let places = places(&outcome, 4);
        assert_eq!(places, [1, 2, 2, 3]);
        let sides = sides(&places, &[0, 1, 2, 3]);
        assert_eq!(sides.len(), 4);
        let after = rate(&[Rating::NEW; 4], &sides);

        let crate_teams: Vec<[WengLinRating; 1]> = (0..4).map(|_| [WengLinRating::new()]).collect();
        let game: Vec<(&[WengLinRating], MultiTeamOutcome)> = crate_teams
            .iter()
            .zip(&places)
            .map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p)))
            .collect();
        let reference = weng_lin_multi_team(&game, &WengLinConfig::new());
        let scale = START_DEVIATION / (25.0 / 3.0);
        for (mine, theirs) in after.iter().zip(&reference) {
            let theirs = theirs[0];
            assert!(
                (mine.rating - (START_RATING + (theirs.rating - 25.0) * scale)).abs() < 1e-6,
                "{mine:?} {theirs:?}"
            );
            assert!((mine.deviation - theirs.uncertainty * scale).abs() < 1e-6);
            assert_eq!(mine.volatility, START_VOLATILITY);
        }
        assert!(after[0].rating > after[1].rating && after[1].rating > after[3].rating);
        assert!(
            after[0].rating > 1500.0 && after[3].rating < 1500.0,
            "{after:?}"
        );
        assert!(
            (after[1].rating - after[2].rating).abs() < 1e-9,
            "a tie moves alike"
        );
        let total: f64 = after.iter().map(|r| r.rating - 1500.0).sum();
        assert!(total.abs() < 1e-6, "what one gains another loses: {total}");
    }

    #[test]
    fn partners_are_one_side() {
        let doubles = registry::variant("doubles").unwrap();
        let state = doubles.setup(&Options::new(), 4, 1).unwrap();
        let teams = teams(doubles, &state, 4).unwrap();
        let resigned = Outcome::win(
            (0..4u8)
                .map(Seat)
                .filter(|s| teams[s.index()] != teams[0])
                .collect(),
            EndReason::Resignation,
        );
        let sides = sides(&places(&resigned, 4), &teams);
        assert_eq!(sides.len(), 2, "{teams:?}");
        assert!(sides.iter().all(|s| s.seats.len() == 2));
        let after = rate(&[Rating::NEW; 4], &sides);
        for side in &sides {
            let [a, b] = [side.seats[0].index(), side.seats[1].index()];
            assert!(
                (after[a].rating - after[b].rating).abs() < 1e-9,
                "{after:?}"
            );
        }

        let cut_throat = doubles
            .setup(&Options::parse(["mode=cutthroat"]).unwrap(), 4, 1)
            .unwrap();
        assert_eq!(self::teams(doubles, &cut_throat, 4).unwrap(), [0, 1, 2, 3]);
        let cooperative = registry::variant("cooperative").unwrap();
        let together = cooperative.setup(&Options::new(), 2, 1).unwrap();
        assert_eq!(self::teams(cooperative, &together, 2).unwrap(), [0, 0]);
    }

    #[test]
    fn every_variant_has_its_pools_named() {
        for game in registry::variants() {
            let info = game.info();
            let pools = pools_of(info);
            assert_eq!(pools[0], info.id);
            assert_eq!(pools_named(info.id).unwrap().1, pools);
            for pool in &pools[1..] {
                assert!(pool_title(pool).starts_with(info.name), "{pool}");
                assert_eq!(
                    pools_named(pool).unwrap().1,
                    std::slice::from_ref(pool),
                    "{pool}"
                );
            }
            for &seats in info.seat_counts {
                let pool = rating_pool(info, &Options::new(), seats);
                assert!(pools.contains(&pool), "{} with {seats}: {pool}", info.id);
            }
        }
        assert_eq!(pool_title("doubles:partners"), "Doubles Chess (partners)");
        assert!(pools_named("doubles solo")
            .unwrap_err()
            .contains("Doubles Chess has no 'solo' rating"));
    }

    #[test]
    fn provisional_ratings_are_marked() {
        let settled = Rating {
            rating: 1612.4,
            deviation: 80.0,
            volatility: 0.06,
        };
        assert_eq!(settled.shown(), "1612");
        assert_eq!(Rating::NEW.shown(), "1500?");
        assert_eq!(
            describe_change(
                "alice",
                settled,
                Rating {
                    rating: 1600.6,
                    ..settled
                }
            ),
            "alice 1612 → 1601 (-11)"
        );
    }
}

//! Chess960 (Chess Kit, "Chess960"): chess from a shuffled back rank.
//!
//! - Pawns start as usual; the white pieces are shuffled with the bishops on opposite colours
//!   and the king between the rooks; Black mirrors White. That gives 960 starts, numbered here
//!   in the standard way (518 is the usual array).
//! - Castling ends with king and rook on the usual squares (king on g1 and rook on f1, or king
//!   on c1 and rook on d1) wherever they started; all squares either crosses must be empty but
//!   for the two, and the king may not start in, cross or land on an attacked square.
//!
//! Options: `start` = `random` (default, drawn from the game's seeded RNG) or 0-959; or `fen`
//! for any X-FEN or Shredder-FEN position.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::chess::{Position, Role, Rules};
use crate::game::{Family, GameError, OptionSpec, OptionValues, Options, VariantInfo};

use super::chess::{position_from_fen_option, ChessStart, ChessState};

/// Chess960.
pub struct Chess960;

/// The back rank of start number `n` (0-959) in the standard numbering, from the a-file.
///
/// ```
/// use engine::variants::chess960::back_rank;
/// use engine::chess::Role::*;
/// assert_eq!(back_rank(518), [Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook]);
/// assert_eq!(back_rank(0), [Bishop, Bishop, Queen, Knight, Knight, Rook, King, Rook]);
/// ```
pub fn back_rank(n: u16) -> [Role; 8] {
    assert!(n < 960, "Chess960 starts are numbered 0-959");
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    // The light-squared bishop goes on b, d, f or h; the dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    // The queen on the (n % 6)th empty square.
    let place = |rank: &mut [Option<Role>; 8], mut k: usize, role: Role| {
        for slot in rank.iter_mut() {
            if slot.is_none() {
                if k == 0 {
                    *slot = Some(role);
                    return;
                }
                k -= 1;
            }
        }
    };
    place(&mut rank, n % 6, Role::Queen);
    n /= 6;
    // The knights on one of the ten pairs of the five remaining squares.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    place(&mut rank, b, Role::Knight);
    place(&mut rank, a, Role::Knight);
    // Rook, king, rook on the last three.
    for role in [Role::Rook, Role::King, Role::Rook] {
        place(&mut rank, 0, role);
    }
    rank.map(|r| r.expect("every square is filled"))
}

/// The X-FEN of start number `n`.
pub fn start_fen(n: u16) -> String {
    let white: String = back_rank(n).iter().map(|r| r.upper_char()).collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    )
}

impl ChessStart for Chess960 {
    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "chess960",
            aliases: &["960", "fischer", "fischerrandom", "frc"],
            name: "Chess960",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![
                OptionSpec {
                    key: "start",
                    help: "the starting array: random, or its number 0-959 (518 is the usual one)",
                    default: Some("random"),
                    values: OptionValues::Number {
                        min: 0,
                        max: 959,
                        words: &["random"],
                    },
                },
                OptionSpec {
                    key: "fen",
                    help: "start from this position (X-FEN or Shredder-FEN)",
                    default: None,
                    values: OptionValues::Text,
                },
            ],
            hidden_information: false,
            simultaneous: false,
            rules: "Chess from a shuffled back rank: the bishops on opposite colours, the king \
                    between the rooks, Black mirroring White. Castling puts king and rook on \
                    their usual squares (O-O: king g-file, rook f-file; O-O-O: king c-file, \
                    rook d-file) from wherever they started; the squares they cross must be \
                    empty and the king may not start in, cross or land on an attacked square. \
                    Castle with O-O / O-O-O, or by moving the king onto its rook. All other \
                    rules are those of chess.",
            source: "Chess Kit, 'Chess960'",
        })
    }

    fn start(&self, options: &Options, seed: u64) -> Result<ChessState, GameError> {
        let position = match (options.get("fen"), options.get("start")) {
            (Some(_), Some(_)) => {
                return Err(GameError::BadOption(
                    "give either start or fen, not both".into(),
                ))
            }
            (Some(fen), None) => position_from_fen_option(fen)?,
            (None, start) => {
                let n = match start {
                    None => ChaCha8Rng::seed_from_u64(seed).gen_range(0..960),
                    Some(s) if s.eq_ignore_ascii_case("random") => {
                        ChaCha8Rng::seed_from_u64(seed).gen_range(0..960)
                    }
                    Some(s) => s.parse::<u16>().ok().filter(|n| *n < 960).ok_or_else(|| {
                        GameError::BadOption(format!(
                            "option 'start' must be random or a number from 0 to 959, not '{s}'"
                        ))
                    })?,
                };
                Position::from_fen(&start_fen(n), Rules::chess())
                    .expect("every numbered start is a valid position")
            }
        };
        Ok(ChessState::new(position, true, seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use std::collections::HashSet;

    #[test]
    fn all_960_starts_are_distinct_and_follow_the_rules() {
        let mut seen = HashSet::new();
        for n in 0..960 {
            let rank = back_rank(n);
            assert!(seen.insert(rank), "start {n} repeats another");
            let bishops: Vec<usize> = (0..8).filter(|&i| rank[i] == Role::Bishop).collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "bishops on opposite colours in {n}"
            );
            let rooks: Vec<usize> = (0..8).filter(|&i| rank[i] == Role::Rook).collect();
            let king = rank.iter().position(|r| *r == Role::King).unwrap();
            assert!(
                rooks[0] < king && king < rooks[1],
                "king between rooks in {n}"
            );
            Position::from_fen(&start_fen(n), Rules::chess()).unwrap();
        }
    }

    #[test]
    fn the_seed_chooses_the_start_and_replays_it() {
        let a = Chess960.setup(&Options::new(), 2, 7).unwrap();
        let b = Chess960.setup(&Options::new(), 2, 7).unwrap();
        assert_eq!(a.start_fen(), b.start_fen());
        let starts: HashSet<String> = (0..20)
            .map(|seed| {
                Chess960
                    .setup(&Options::new(), 2, seed)
                    .unwrap()
                    .start_fen()
                    .to_string()
            })
            .collect();
        assert!(starts.len() > 10, "different seeds give different starts");
    }
}

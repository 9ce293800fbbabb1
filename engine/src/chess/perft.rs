//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use super::{Move, Position};

/// The number of legal move sequences of length `depth` from `pos`.
///
/// The last level is counted by the number of legal moves rather than by playing them
/// ("bulk counting"), which gives the same number faster.
///
/// ```
/// use engine::chess::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 8902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by the first move: each legal move with the count below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

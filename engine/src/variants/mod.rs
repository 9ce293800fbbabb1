//! One module per game. A variant composes a board, an army setup and machinery, and adds
//! only its own twist.

pub mod adrenaline;
pub mod betza;
pub mod checkers;
pub mod chess;
pub mod chess960;
pub mod cooperative;
pub mod crowded_house;
pub mod doubles;
pub mod golf;
pub mod half_alice;
pub mod masquerade;
pub mod patterns;
pub mod shadow;
pub mod superchess;
pub mod synchronous;
pub mod tar_pit;
pub mod team_chess;
pub mod telepathic;
pub mod tri_checkers;
pub mod tri_chess;
pub mod trimens;
pub mod two_move;
pub mod zombie;

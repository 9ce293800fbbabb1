//! What a state is worth to each seat, for any variant: the outcome when the game is over, and
//! otherwise the material on the board as the seat's view draws it.
//!
//! Every reward is in `[0, 1]`, one per seat: a win 1, a draw 0.5, a loss 0. Partners share
//! their reward (max^n over teams): who plays with whom is read from [`AnyGame::concede`], which
//! every variant answers from its own table (the seats that win when one seat resigns are its
//! opponents; the others, its partners).

use std::collections::BTreeMap;

use crate::chess::{Role, Seat};
use crate::game::{AnyGame, AnyState, EndReason, Family, GameError, Outcome};
use crate::view::{Figure, Viewer};

/// A checkers man, in the same units as a chess pawn.
const MAN: f64 = 1.0;
/// A crowned checkers king: worth about one and a half men in the usual reckoning.
const CHECKERS_KING: f64 = 1.5;
/// A checker held prisoner under another army's stack (Stax): out of play until its stack is
/// taken, so it counts for its owner at this share of its value.
const PRISONER_SHARE: f64 = 0.5;
/// The material lead (chess pawns) at which the evaluation gives about 0.73 (the logistic
/// of 1): a minor piece up is a clear advantage, a queen up nearly a win (0.95).
const CHESS_SCALE: f64 = 3.0;
/// The same for checkers, where twelve men make an army and one man up is already serious.
const CHECKERS_SCALE: f64 = 1.5;

/// The standard value of a chess piece, in pawns; the king is beyond price and counts nothing
/// (losing it ends the game or the army, which the outcome or `is_out` says).
fn role_value(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight => 3.0,
        Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// Credits each army standing in `figure` (drawn for `army`) with its worth.
fn credit_figure(figure: &Figure, army: Seat, credit: &mut impl FnMut(Seat, f64)) {
    match figure {
        Figure::Chess(role) => credit(army, role_value(*role)),
        Figure::Man => credit(army, MAN),
        Figure::CheckersKing => credit(army, CHECKERS_KING),
        Figure::Stack(layers) => {
            // The top checker owns the stack; the others under it are prisoners.
            let owner = layers.last().map(|l| l.army);
            for layer in layers {
                let value = if layer.king { CHECKERS_KING } else { MAN };
                if Some(layer.army) == owner {
                    credit(layer.army, value);
                } else {
                    credit(layer.army, value * PRISONER_SHARE);
                }
            }
        }
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Who sits at the table and on which side, read once per search from a determinized state.
#[derive(Clone, Debug)]
pub(crate) struct Sides {
    /// The number of seats.
    seats: usize,
    /// Each seat's team: partners share a number.
    teams: Vec<u8>,
    /// Material lead that makes a clear advantage (see [`CHESS_SCALE`]).
    scale: f64,
    /// The seat the search plays for, whose view the evaluation reads.
    viewer: Seat,
}

impl Sides {
    /// Reads the seats and teams of the game `state` belongs to. `state` must be one the
    /// viewer may know (a determinization), never the true state of a hidden game.
    pub(crate) fn read(
        game: &dyn AnyGame,
        state: &AnyState,
        viewer: Seat,
    ) -> Result<Sides, GameError> {
        let view = game.view(state, Viewer::Seat(viewer))?;
        let prompted = game.prompts(state)?;
        // No method tells the number of seats; every view names its players, and tables
        // and prompts name the seats that act.
        let seats = view
            .players
            .len()
            .max(
                view.table
                    .iter()
                    .map(|l| l.player.index() + 1)
                    .max()
                    .unwrap_or(0),
            )
            .max(
                prompted
                    .iter()
                    .map(|p| p.seat.index() + 1)
                    .max()
                    .unwrap_or(0),
            )
            .max(viewer.index() + 1);
        let teams = teams(game, state, seats)?;
        let scale = match game.info().family {
            Family::Chess => CHESS_SCALE,
            Family::Checkers => CHECKERS_SCALE,
        };
        Ok(Sides {
            seats,
            teams,
            scale,
            viewer,
        })
    }

    /// The number of seats, the length of every reward vector.
    pub(crate) fn seats(&self) -> usize {
        self.seats
    }

    /// Each seat's reward in `state`: from the outcome if the game is over, else from the
    /// material.
    pub(crate) fn rewards(
        &self,
        game: &dyn AnyGame,
        state: &AnyState,
    ) -> Result<Vec<f64>, GameError> {
        match game.outcome(state)? {
            Some(outcome) => Ok(self.outcome_rewards(&outcome)),
            None => self.heuristic(game, state),
        }
    }

    /// Win 1, draw 0.5, loss 0 for each seat; the winners listed by the outcome include every
    /// partner of a winning team.
    pub(crate) fn outcome_rewards(&self, outcome: &Outcome) -> Vec<f64> {
        (0..self.seats)
            .map(|i| {
                if outcome.everyone_lost {
                    0.0
                } else if outcome.is_draw() {
                    0.5
                } else if outcome.winners.contains(&Seat(i as u8)) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Each team's material against the average of the rival teams still in the game (and
    /// of armies no seat plays), through a logistic: 0.5 when even, towards 1 when ahead. A
    /// team with every seat out scores 0.
    fn heuristic(&self, game: &dyn AnyGame, state: &AnyState) -> Result<Vec<f64>, GameError> {
        let view = game.view(state, Viewer::Seat(self.viewer))?;
        // The player of each army: the table's, or army n played by seat n.
        let team_of_army = |army: Seat| -> Option<u8> {
            let player = if view.table.is_empty() {
                Some(army)
            } else {
                view.table.iter().find(|l| l.army == army).map(|l| l.player)
            };
            player.and_then(|p| self.teams.get(p.index()).copied())
        };
        let mut by_team: BTreeMap<u8, f64> = BTreeMap::new();
        let mut unowned = 0.0;
        let mut credit = |army: Seat, value: f64| match team_of_army(army) {
            Some(team) => *by_team.entry(team).or_insert(0.0) += value,
            None => unowned += value,
        };
        for placed in &view.figures {
            credit_figure(&placed.figure, placed.army, &mut credit);
        }
        let mut out = Vec::with_capacity(self.seats);
        for i in 0..self.seats {
            out.push(game.is_out(state, Seat(i as u8))?);
        }
        let in_play = |team: u8| (0..self.seats).any(|i| self.teams[i] == team && !out[i]);
        let mut rewards = Vec::with_capacity(self.seats);
        for i in 0..self.seats {
            let team = self.teams[i];
            if !in_play(team) {
                rewards.push(0.0);
                continue;
            }
            let own = by_team.get(&team).copied().unwrap_or(0.0);
            let mut rivals: Vec<u8> = self
                .teams
                .iter()
                .copied()
                .filter(|&t| t != team && in_play(t))
                .collect();
            rivals.sort_unstable();
            rivals.dedup();
            let mut against: f64 = rivals
                .iter()
                .map(|t| by_team.get(t).copied().unwrap_or(0.0))
                .sum();
            let mut groups = rivals.len();
            if unowned > 0.0 {
                against += unowned;
                groups += 1;
            }
            rewards.push(if groups == 0 {
                // Nobody to measure against (solitaire): only the outcome tells.
                0.5
            } else {
                logistic((own - against / groups as f64) / self.scale)
            });
        }
        Ok(rewards)
    }
}

/// Each seat's team, numbered by its first seat: two seats are partners when neither wins if
/// the other resigns. A game everyone loses together when one leaves (Cooperative Chess) is
/// one team; a game that scores seat by seat (a score table) has no partners. Ask it of a
/// state fresh from `setup`: in a finished game the seats already out win by nobody's
/// resignation.
pub fn teams(game: &dyn AnyGame, state: &AnyState, seats: usize) -> Result<Vec<u8>, GameError> {
    let mut conceded: Vec<Outcome> = Vec::with_capacity(seats);
    for i in 0..seats {
        conceded.push(game.concede(state, Seat(i as u8), seats, EndReason::Resignation)?);
    }
    if conceded.iter().any(|o| o.everyone_lost) {
        return Ok(vec![0; seats]);
    }
    let team_like = |o: &Outcome| o.standings.is_empty() && !o.winners.is_empty();
    let partners = |i: usize, j: usize| {
        i == j
            || (team_like(&conceded[i])
                && team_like(&conceded[j])
                && !conceded[i].winners.contains(&Seat(j as u8))
                && !conceded[j].winners.contains(&Seat(i as u8)))
    };
    let mut teams: Vec<u8> = Vec::with_capacity(seats);
    for i in 0..seats {
        let team = match (0..i).find(|&j| partners(i, j)) {
            Some(j) => teams[j],
            None => i as u8,
        };
        teams.push(team);
    }
    Ok(teams)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Options;
    use crate::registry;

    fn sides(id: &str, options: &[&str], seats: usize) -> Sides {
        let game = registry::variant(id).unwrap();
        let state = game
            .setup(&Options::parse(options).unwrap(), seats, 1)
            .unwrap();
        Sides::read(game, &state, Seat(0)).unwrap()
    }

    #[test]
    fn partners_share_a_team_and_cut_throat_seats_do_not() {
        let partners = sides("doubles", &["mode=partners"], 4);
        assert_eq!(partners.teams, vec![0, 1, 0, 1]);
        let cut_throat = sides("doubles", &["mode=cutthroat"], 4);
        assert_eq!(cut_throat.teams, vec![0, 1, 2, 3]);
        let chess = sides("chess", &[], 2);
        assert_eq!((chess.seats, chess.teams), (2, vec![0, 1]));
    }

    #[test]
    fn the_start_is_even_and_a_queen_up_is_nearly_won() {
        let chess = registry::variant("chess").unwrap();
        let start = chess.setup(&Options::new(), 2, 1).unwrap();
        let sides = Sides::read(chess, &start, Seat(0)).unwrap();
        let even = sides.rewards(chess, &start).unwrap();
        assert!((even[0] - 0.5).abs() < 1e-9 && (even[1] - 0.5).abs() < 1e-9);
        let fen = "fen=rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let up = chess.setup(&Options::parse([fen]).unwrap(), 2, 1).unwrap();
        let rewards = sides.rewards(chess, &up).unwrap();
        assert!(rewards[0] > 0.9 && rewards[1] < 0.1, "{rewards:?}");
    }
}

//! The table: who plays which army, in what order, on which team, and how each army stands.
//!
//! Players and armies are apart. A player (a [`Seat`] of the game, one per person) controls one
//! or more armies, and control may pass during a game; an army has a name, a team and a status.
//! The order of turns is data: a list of (army, player) turns gone round in a circle, each turn
//! skipped or played by the game's own rule for skipping, which the game hands to
//! [`Table::advance`].
//!
//! ```
//! use engine::table::{ArmyStatus, Table};
//! use engine::Seat;
//!
//! // Doubles Chess partners: White 1, Black 1, White 2, Black 2, one army each.
//! let mut table = Table::one_army_each(&["White 1", "Black 1", "White 2", "Black 2"], &[0, 1, 0, 1]);
//! assert_eq!(table.current().army, 0);
//! table.set_status(1, ArmyStatus::Mated);
//! // Black 1 is mated and misses the turn: White 2 is next.
//! let skipped = table.advance(|t, turn| t.status(turn.army) != ArmyStatus::Mated);
//! assert_eq!(skipped.len(), 1);
//! assert_eq!(table.current().player, Seat(2));
//! assert_eq!(table.players_of_team(1), vec![Seat(1), Seat(3)]);
//! ```

use serde::{Deserialize, Serialize};

use crate::chess::Seat;

/// How an army stands in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArmyStatus {
    /// Takes its turns.
    Playing,
    /// Checkmated: misses its turns until the mate is broken or its king is taken.
    Mated,
    /// Frozen in place: never moves again; its pieces stay on the board and may be captured.
    Frozen,
    /// Stalemated: passes its turns while it has no move.
    Stalemated,
    /// Its pieces are dead: part of the board, never moved or captured.
    Dead,
    /// Out of the game (king taken, resigned, out of time); its pieces may remain.
    Eliminated,
    /// Has nothing it can move (checkers): misses its turns until something frees it.
    Idle,
}

impl ArmyStatus {
    /// Whether the army has left the game for good.
    pub fn is_out(self) -> bool {
        matches!(
            self,
            ArmyStatus::Frozen | ArmyStatus::Dead | ArmyStatus::Eliminated
        )
    }

    /// A few words for captions ("mated: misses its turns").
    pub fn describe(self) -> &'static str {
        match self {
            ArmyStatus::Playing => "playing",
            ArmyStatus::Mated => "checkmated: misses its turns",
            ArmyStatus::Frozen => "checkmated: frozen",
            ArmyStatus::Stalemated => "stalemated: passes",
            ArmyStatus::Dead => "dead",
            ArmyStatus::Eliminated => "out",
            ArmyStatus::Idle => "nothing to move: misses its turns",
        }
    }
}

/// One army at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableArmy {
    /// Its name in messages ("White 2").
    pub name: String,
    /// The player who moves it now.
    pub controller: Seat,
    /// Its team; armies of one team win and lose together.
    pub team: u8,
    pub status: ArmyStatus,
}

/// One turn in the order: an army and the player who moves it on this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    pub army: u8,
    pub player: Seat,
}

/// Players, armies, teams and the order of turns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    armies: Vec<TableArmy>,
    order: Vec<Turn>,
    /// The index in `order` of the turn being played.
    at: usize,
    /// Completed passes round the order.
    rounds: u32,
}

impl Table {
    /// A table where player `i` controls army `i` and turns follow the armies in index order.
    pub fn one_army_each(names: &[&str], teams: &[u8]) -> Table {
        let order: Vec<u8> = (0..names.len() as u8).collect();
        Table::with_order(names, teams, &order)
    }

    /// A table where player `i` controls army `i` and turns follow `order` (army indices).
    pub fn with_order(names: &[&str], teams: &[u8], order: &[u8]) -> Table {
        assert_eq!(names.len(), teams.len(), "one team per army");
        let armies = names
            .iter()
            .zip(teams)
            .enumerate()
            .map(|(i, (name, &team))| TableArmy {
                name: name.to_string(),
                controller: Seat(i as u8),
                team,
                status: ArmyStatus::Playing,
            })
            .collect();
        let order = order
            .iter()
            .map(|&a| Turn {
                army: a,
                player: Seat(a),
            })
            .collect();
        Table::new(armies, order)
    }

    /// A table from its armies and an explicit order of turns (an army may appear in several
    /// turns, moved by different players: Crowded House).
    pub fn new(armies: Vec<TableArmy>, order: Vec<Turn>) -> Table {
        assert!(!order.is_empty(), "someone has to move");
        assert!(
            order.iter().all(|t| (t.army as usize) < armies.len()),
            "turns name armies at the table"
        );
        Table {
            armies,
            order,
            at: 0,
            rounds: 0,
        }
    }

    /// The turn being played.
    pub fn current(&self) -> Turn {
        self.order[self.at]
    }
    /// The turn after the current one in the order, skipping nothing.
    pub fn following(&self) -> Turn {
        self.order[(self.at + 1) % self.order.len()]
    }
    /// The turns in order, starting after the current one and ending with it.
    pub fn upcoming(&self) -> impl Iterator<Item = Turn> + '_ {
        (1..=self.order.len()).map(move |i| self.order[(self.at + i) % self.order.len()])
    }
    /// Completed rounds of the order (the move number is one more).
    pub fn rounds(&self) -> u32 {
        self.rounds
    }
    /// The armies, by index.
    pub fn armies(&self) -> &[TableArmy] {
        &self.armies
    }
    /// One army.
    pub fn army(&self, army: u8) -> &TableArmy {
        &self.armies[army as usize]
    }
    /// An army's status.
    pub fn status(&self, army: u8) -> ArmyStatus {
        self.armies[army as usize].status
    }
    /// Sets an army's status.
    pub fn set_status(&mut self, army: u8, status: ArmyStatus) {
        self.armies[army as usize].status = status;
    }
    /// An army's team.
    pub fn team(&self, army: u8) -> u8 {
        self.armies[army as usize].team
    }
    /// The player controlling an army.
    pub fn controller(&self, army: u8) -> Seat {
        self.armies[army as usize].controller
    }
    /// Hands an army to another player, for its turns from now on.
    pub fn set_controller(&mut self, army: u8, player: Seat) {
        self.armies[army as usize].controller = player;
        for turn in &mut self.order {
            if turn.army == army {
                turn.player = player;
            }
        }
    }
    /// Hands an army to another player without changing whose turns are whose: for games whose
    /// turns belong to players rather than armies (two-person Superchess, where each player
    /// moves any army he holds on his turn).
    pub fn give(&mut self, army: u8, player: Seat) {
        self.armies[army as usize].controller = player;
    }
    /// Moves an army to another team (an army won over by checkmate).
    pub fn set_team(&mut self, army: u8, team: u8) {
        self.armies[army as usize].team = team;
    }
    /// The armies a player moves: those he controls, and any he has a turn for.
    pub fn armies_of(&self, player: Seat) -> Vec<u8> {
        (0..self.armies.len() as u8)
            .filter(|&a| {
                self.controller(a) == player
                    || self.order.iter().any(|t| t.army == a && t.player == player)
            })
            .collect()
    }
    /// The players who move a team's armies (its controllers, and anyone with a turn for
    /// one of them), in seat order.
    pub fn players_of_team(&self, team: u8) -> Vec<Seat> {
        let mut players: Vec<Seat> = self
            .armies
            .iter()
            .filter(|a| a.team == team)
            .map(|a| a.controller)
            .chain(
                self.order
                    .iter()
                    .filter(|t| self.team(t.army) == team)
                    .map(|t| t.player),
            )
            .collect();
        players.sort();
        players.dedup();
        players
    }
    /// The teams with an army still in the game.
    pub fn teams_in_play(&self) -> Vec<u8> {
        let mut teams: Vec<u8> = self
            .armies
            .iter()
            .filter(|a| !a.status.is_out())
            .map(|a| a.team)
            .collect();
        teams.sort();
        teams.dedup();
        teams
    }

    /// Moves to the next turn that `plays` accepts, going round the order at most once.
    /// Returns the turns passed over (each skipped). When no turn is accepted the table stays
    /// where it was (round count included) and every turn, the current one last, is returned.
    pub fn advance(&mut self, mut plays: impl FnMut(&Table, Turn) -> bool) -> Vec<Turn> {
        let (at, rounds) = (self.at, self.rounds);
        let mut skipped = Vec::new();
        for _ in 0..self.order.len() {
            self.at += 1;
            if self.at == self.order.len() {
                self.at = 0;
                self.rounds += 1;
            }
            let turn = self.current();
            if plays(self, turn) {
                return skipped;
            }
            skipped.push(turn);
        }
        (self.at, self.rounds) = (at, rounds);
        skipped
    }

    /// Who sits where, for views: one line per turn-taking player and army.
    pub fn lines(&self) -> Vec<crate::view::SeatLine> {
        let mut lines: Vec<crate::view::SeatLine> = Vec::new();
        for turn in &self.order {
            if lines
                .iter()
                .any(|l| l.player == turn.player && l.army == Seat(turn.army))
            {
                continue;
            }
            let army = self.army(turn.army);
            lines.push(crate::view::SeatLine {
                player: turn.player,
                army: Seat(turn.army),
                side: army.name.clone(),
                status: (army.status != ArmyStatus::Playing).then(|| army.status.describe().into()),
            });
        }
        lines.sort_by_key(|l| l.player);
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_passes_and_turns_follow_the_new_player() {
        // Two players, four armies: player 0 moves White and Tan, player 1 Black and Brown.
        let mut table = Table::one_army_each(&["White", "Black", "Tan", "Brown"], &[0, 1, 0, 1]);
        table.set_controller(2, Seat(0));
        table.set_controller(3, Seat(1));
        assert_eq!(table.armies_of(Seat(0)), vec![0, 2]);
        assert_eq!(table.players_of_team(1), vec![Seat(1)]);
        table.advance(|_, _| true);
        table.advance(|_, _| true);
        assert_eq!(
            table.current(),
            Turn {
                army: 2,
                player: Seat(0)
            }
        );
        // An army changes hands (a new allegiance): its turns go to the new player.
        table.set_controller(3, Seat(0));
        assert_eq!(
            table.following(),
            Turn {
                army: 3,
                player: Seat(0)
            }
        );
        assert_eq!(table.players_of_team(1), vec![Seat(0), Seat(1)]);
    }

    #[test]
    fn advance_skips_what_the_game_skips_and_counts_rounds() {
        let mut table = Table::with_order(&["A", "B", "C", "D"], &[0, 1, 2, 3], &[0, 2, 1, 3]);
        table.set_status(2, ArmyStatus::Frozen);
        let skipped = table.advance(|t, turn| !t.status(turn.army).is_out());
        assert_eq!(
            skipped,
            vec![Turn {
                army: 2,
                player: Seat(2)
            }]
        );
        assert_eq!(table.current().army, 1);
        table.advance(|_, _| true);
        table.advance(|_, _| true);
        assert_eq!((table.current().army, table.rounds()), (0, 1));
        assert_eq!(table.teams_in_play(), vec![0, 1, 3]);
        // Nobody can play: the table stays put and every turn is reported.
        let skipped = table.advance(|_, _| false);
        assert_eq!(skipped.len(), 4);
        assert_eq!((table.current().army, table.rounds()), (0, 1));
        let lines = table.lines();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[2].status.as_deref(), Some("checkmated: frozen"));
    }
}

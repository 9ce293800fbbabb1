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

/// The material lead, in units of the family's scale (nine pawns in chess), from which a
/// chess game counts as decided: the logistic is then 0.95 and would soon be flat.
const DECIDED_LEAD: f64 = 3.0;
/// The most a decided position is worth before the game actually ends (a win is 1).
const DECIDED_MAX: f64 = 0.995;
/// The lead beyond [`DECIDED_LEAD`] (in scale units) at which more material stops counting.
const DECIDED_SPAN: f64 = 5.0;
/// How far (king steps) from the beaten king the winner's pieces count as closing in.
const CLOSING_RADIUS: usize = 3;
/// The room (king moves or empty neighbours) at which a king counts as half hemmed in: each
/// square taken counts, the last ones most (a board's number of directions, 24 on Trimens'
/// triangles, would say little of a king with six moves).
const ROOM_HALF: f64 = 4.0;

/// The worth of a decided chess position (lead `lead`, in scale units, at least
/// [`DECIDED_LEAD`]): from the logistic at the threshold up to [`DECIDED_MAX`]. The rivals
/// already out (`beaten`, the share of the rival teams) count first: with one of two rivals
/// mated the game is at least half won, and always worth more than with both in at the same
/// material and pressure. The rest goes half to more material and half to `closing` (0 to 1,
/// see [`closing_in`]).
///
/// Far ahead, the logistic of the material is all but 1 whatever is played, and random
/// playouts almost never find a mate, so every quiet move looked alike and won games drifted
/// on for hundreds of moves (in three-player Trimens, into the fifty-move rule). Here hemming
/// the beaten king in and bringing pieces up is worth as much as the material, as for a player
/// mopping up, and mating one of two lone kings counts for itself (a lead measured against the
/// rivals left did not change when one was mated).
fn decided(lead: f64, closing: f64, beaten: f64) -> f64 {
    let floor = logistic(DECIDED_LEAD);
    let material = ((lead - DECIDED_LEAD) / DECIDED_SPAN).clamp(0.0, 1.0);
    let beaten = beaten.clamp(0.0, 1.0);
    let progress = beaten + (1.0 - beaten) * 0.5 * (material + closing.clamp(0.0, 1.0));
    floor + (DECIDED_MAX - floor) * progress
}

/// The most material (a minor piece's worth) a rival may keep for a won game to be searched
/// without playouts: a bare king, or nearly, threatens nothing a short tree does not see.
const BARE: f64 = 3.0;

/// Of a stretched reward's range, the share left below the decided line: a draw, a lost
/// piece that undoes the win, or a loss still score apart, a loss least.
const BELOW_DECIDED: f64 = 0.1;

/// A decided team's reward stretched over the decided range (see [`Sides::stretch`]): from
/// the line ([`logistic`] at [`DECIDED_LEAD`]) to a win becomes [`BELOW_DECIDED`] to 1, and
/// everything below the line is pressed into what is left.
fn stretched_reward(reward: f64) -> f64 {
    let line = logistic(DECIDED_LEAD);
    if reward >= line {
        BELOW_DECIDED + (1.0 - BELOW_DECIDED) * ((reward - line) / (1.0 - line)).min(1.0)
    } else {
        BELOW_DECIDED * (reward / line).max(0.0)
    }
}

/// How closely the `attacker` armies press a `defender` king, 0 to 1: half for the room left
/// to the king (its moves by `room`, or where the game cannot tell, its empty neighbours:
/// fewer is better, see [`ROOM_HALF`]), half for the attacker's pieces within
/// [`CLOSING_RADIUS`] steps of it, nearer counting more. A defender with several kings
/// (partners) counts their average: every one must be mated, and one already mated must not
/// hide the other. Any board: distances are king steps over the board's own neighbours.
fn closing_in(
    view: &crate::view::View,
    attacker: impl Fn(Seat) -> bool,
    defender: impl Fn(Seat) -> bool,
    room: impl Fn(Seat) -> Option<usize>,
) -> f64 {
    let board = &view.board;
    let mut occupied = vec![false; board.len()];
    for placed in &view.figures {
        occupied[placed.cell.index()] = true;
    }
    let dirs = board.dir_count();
    let neighbours = |cell: crate::board::Cell| {
        (0..dirs).filter_map(move |d| board.step(cell, crate::board::Dir(d as u8)))
    };
    let (mut sum, mut kings_counted) = (0.0, 0usize);
    let kings = view
        .figures
        .iter()
        .filter(|p| p.figure == Figure::Chess(Role::King) && defender(p.army));
    for king in kings {
        let free = room(king.army).unwrap_or_else(|| {
            neighbours(king.cell)
                .filter(|c| !occupied[c.index()])
                .count()
        });
        let hemmed = ROOM_HALF / (free as f64 + ROOM_HALF);
        // Steps from the king, breadth first, as far as the radius.
        let mut steps = vec![usize::MAX; board.len()];
        steps[king.cell.index()] = 0;
        let mut ring = vec![king.cell];
        for distance in 1..=CLOSING_RADIUS {
            let mut next = Vec::new();
            for &cell in &ring {
                for n in neighbours(cell) {
                    if steps[n.index()] == usize::MAX {
                        steps[n.index()] = distance;
                        next.push(n);
                    }
                }
            }
            ring = next;
        }
        let near: f64 = view
            .figures
            .iter()
            .filter(|p| attacker(p.army))
            .filter_map(|p| {
                let d = steps[p.cell.index()];
                (d != usize::MAX && d > 0).then(|| (CLOSING_RADIUS + 1 - d) as f64)
            })
            .sum();
        let pressed = (near / (2 * CLOSING_RADIUS) as f64).min(1.0);
        sum += 0.5 * (hemmed + pressed);
        kings_counted += 1;
    }
    sum / kings_counted.max(1) as f64
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
    family: Family,
    /// The seat the search plays for, whose view the evaluation reads.
    viewer: Seat,
    /// The team whose rewards are stretched over the decided range (see [`Sides::stretch`]).
    stretched: Option<u8>,
    /// Whether every rival still in is down to [`BARE`] or less, so that the evaluation is
    /// read without a playout (see [`Sides::stretch`]).
    rivals_bare: bool,
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
            family: game.info().family,
            viewer,
            stretched: None,
            rivals_bare: false,
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
        let mut rewards = match game.outcome(state)? {
            Some(outcome) => self.outcome_rewards(&outcome),
            None => self.heuristic(game, state)?,
        };
        if let Some(team) = self.stretched {
            for (reward, _) in rewards
                .iter_mut()
                .zip(&self.teams)
                .filter(|(_, &t)| t == team)
            {
                *reward = stretched_reward(*reward);
            }
        }
        Ok(rewards)
    }

    /// Whether the rewards are stretched (see [`Sides::stretch`]).
    pub(crate) fn is_stretched(&self) -> bool {
        self.stretched.is_some()
    }

    /// Whether the evaluation may be read at once, without a playout: the rewards are
    /// stretched and every rival still in is all but bare (see [`Sides::stretch`]).
    pub(crate) fn read_at_once(&self) -> bool {
        self.stretched.is_some() && self.rivals_bare
    }

    /// When the viewer's team stands decided in `state` (a chess game won on material, see
    /// [`decided`]), stretches its rewards from then on: the decided range (from the logistic
    /// at [`DECIDED_LEAD`] up to a win) becomes most of 0 to 1, and anything less (a draw, a
    /// loss) the little left below it (see [`stretched_reward`]). Unstretched, the rewards of
    /// every move of a won position lie within a few hundredths of each other, far below
    /// UCB's exploration term, so the search visited all moves alike and played one nearly at
    /// random: the mate was never driven home. Only for choosing a move: a stretched value is
    /// no estimate of the game (draw offers, resigning).
    ///
    /// When every rival still in is also down to [`BARE`] or less, the evaluation is read at
    /// once ([`Sides::read_at_once`]). Otherwise playouts go on: a player far ahead of one
    /// beaten rival but not of another must still see the other's threats (an arena game of
    /// three-player Trimens was lost to a mate two plies deep when it did not), and so must one
    /// whose rival keeps a rook for a double move.
    pub(crate) fn stretch(
        &mut self,
        game: &dyn AnyGame,
        state: &AnyState,
    ) -> Result<(), GameError> {
        let rewards = self.rewards(game, state)?;
        let viewer = self.viewer.index();
        let Some(&team) = self.teams.get(viewer) else {
            return Ok(());
        };
        if self.family != Family::Chess
            || !rewards
                .get(viewer)
                .is_some_and(|&r| r >= logistic(DECIDED_LEAD))
        {
            return Ok(());
        }
        self.stretched = Some(team);
        let view = game.view(state, Viewer::Seat(self.viewer))?;
        let (by_team, _) = self.material(&view);
        let mut rivals_in = Vec::new();
        for (i, &t) in self.teams.iter().enumerate() {
            if t != team && !game.is_out(state, Seat(i as u8))? {
                rivals_in.push(t);
            }
        }
        self.rivals_bare = rivals_in
            .iter()
            .all(|t| by_team.get(t).copied().unwrap_or(0.0) <= BARE);
        Ok(())
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

    /// The team playing `army` in `view`: the table's player of it, or seat n for army n.
    fn team_of_army(&self, view: &crate::view::View, army: Seat) -> Option<u8> {
        let player = if view.table.is_empty() {
            Some(army)
        } else {
            view.table.iter().find(|l| l.army == army).map(|l| l.player)
        };
        player.and_then(|p| self.teams.get(p.index()).copied())
    }

    /// Each team's material in `view`, and that of armies no seat plays.
    fn material(&self, view: &crate::view::View) -> (BTreeMap<u8, f64>, f64) {
        let mut by_team: BTreeMap<u8, f64> = BTreeMap::new();
        let mut unowned = 0.0;
        let mut credit = |army: Seat, value: f64| match self.team_of_army(view, army) {
            Some(team) => *by_team.entry(team).or_insert(0.0) += value,
            None => unowned += value,
        };
        for placed in &view.figures {
            credit_figure(&placed.figure, placed.army, &mut credit);
        }
        (by_team, unowned)
    }

    /// Each team's material against the average of the rival teams still in the game (and
    /// of armies no seat plays), through a logistic: 0.5 when even, towards 1 when ahead. A
    /// team with every seat out scores 0.
    fn heuristic(&self, game: &dyn AnyGame, state: &AnyState) -> Result<Vec<f64>, GameError> {
        let view = game.view(state, Viewer::Seat(self.viewer))?;
        let team_of_army = |army: Seat| self.team_of_army(&view, army);
        let (by_team, unowned) = self.material(&view);
        let mut out = Vec::with_capacity(self.seats);
        for i in 0..self.seats {
            out.push(game.is_out(state, Seat(i as u8))?);
        }
        let in_play = |team: u8| (0..self.seats).any(|i| self.teams[i] == team && !out[i]);
        // The share of `team`'s rival teams already out of the game.
        let beaten_share = |team: u8| {
            let mut rivals: Vec<u8> = self.teams.iter().copied().filter(|&t| t != team).collect();
            rivals.sort_unstable();
            rivals.dedup();
            let out = rivals.iter().filter(|&&t| !in_play(t)).count();
            out as f64 / rivals.len().max(1) as f64
        };
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
                let lead = (own - against / groups as f64) / self.scale;
                if self.family == Family::Chess && lead >= DECIDED_LEAD {
                    // Hunt the king of the rival with the least left.
                    let beaten = rivals.iter().copied().min_by(|a, b| {
                        let left = |t: &u8| by_team.get(t).copied().unwrap_or(0.0);
                        left(a).total_cmp(&left(b))
                    });
                    let closing = beaten.map_or(0.0, |rival| {
                        closing_in(
                            &view,
                            |army| team_of_army(army) == Some(team),
                            |army| team_of_army(army) == Some(rival),
                            |army| game.king_room(state, army).ok().flatten(),
                        )
                    });
                    decided(lead, closing, beaten_share(team))
                } else {
                    logistic(lead)
                }
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

    /// Mating one of two rivals is worth half the decided range, and more than the same
    /// material and pressure with both still in; a decided game is still worth less than a win.
    #[test]
    fn a_rival_beaten_counts_before_material_and_pressure() {
        let floor = logistic(DECIDED_LEAD);
        let half = floor + (DECIDED_MAX - floor) * 0.5;
        assert!((decided(DECIDED_LEAD, 0.0, 0.5) - half).abs() < 1e-12);
        for lead in [
            DECIDED_LEAD,
            DECIDED_LEAD + 2.0,
            DECIDED_LEAD + DECIDED_SPAN,
        ] {
            for closing in [0.0, 0.4, 0.9] {
                let before = decided(lead, closing, 0.0);
                let after = decided(lead, closing, 0.5);
                assert!(after > before, "{after} against {before}");
                assert!(before >= floor && after < 1.0);
            }
        }
    }

    /// Choosing in a won game, the winner's rewards are stretched over the decided range (a
    /// draw then scores little above a loss); in an undecided game nothing changes.
    #[test]
    fn a_won_game_stretches_the_winners_rewards_only() {
        let chess = registry::variant("chess").unwrap();
        let state = |fen: &str| {
            chess
                .setup(&Options::parse([format!("fen={fen}")]).unwrap(), 2, 1)
                .unwrap()
        };
        let won = state("7k/8/5QK1/8/8/8/8/8 b - - 0 1");
        let mut sides = Sides::read(chess, &won, Seat::WHITE).unwrap();
        let plain = sides.rewards(chess, &won).unwrap();
        sides.stretch(chess, &won).unwrap();
        assert!(sides.stretched.is_some() && sides.read_at_once());
        let stretched = sides.rewards(chess, &won).unwrap();
        assert!(
            stretched[0] < plain[0] && stretched[0] > 0.0,
            "{stretched:?}"
        );
        assert_eq!(stretched[1], plain[1], "the loser's rewards stay");
        // A loss below a draw below the decided line below a win, the line at BELOW_DECIDED.
        let line = logistic(DECIDED_LEAD);
        let (loss, draw) = (stretched_reward(0.0), stretched_reward(0.5));
        assert!(loss == 0.0 && draw > loss && draw < BELOW_DECIDED);
        assert!((stretched_reward(line) - BELOW_DECIDED).abs() < 1e-12);
        assert_eq!(stretched_reward(1.0), 1.0);
        let start = state("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut even = Sides::read(chess, &start, Seat::WHITE).unwrap();
        even.stretch(chess, &start).unwrap();
        assert!(even.stretched.is_none());
    }

    /// A decided chess game is worth more the closer the beaten king is pressed: a lone king
    /// hemmed in a corner by the queen and king beside it more than one free in the centre
    /// with the attackers far off; below a decisive lead only the material counts; and a
    /// decided position stays above every undecided one and below a win.
    #[test]
    fn a_decided_game_rewards_closing_in_on_the_beaten_king() {
        let chess = registry::variant("chess").unwrap();
        let state = |fen: &str| {
            chess
                .setup(&Options::parse([format!("fen={fen}")]).unwrap(), 2, 1)
                .unwrap()
        };
        let view = |fen: &str| chess.view(&state(fen), Viewer::Seat(Seat::WHITE)).unwrap();
        let white = |army: Seat| army == Seat::WHITE;
        let black = |army: Seat| army == Seat::BLACK;
        let cornered = "7k/8/5QK1/8/8/8/8/8 b - - 0 1";
        let free = "8/8/8/3k4/8/8/8/Q5K1 b - - 0 1";
        let pressed = closing_in(&view(cornered), white, black, |_| None);
        let loose = closing_in(&view(free), white, black, |_| None);
        assert!(
            pressed > loose + 0.3 && pressed <= 1.0,
            "{pressed} against {loose}"
        );
        let sides = Sides::read(
            chess,
            &chess.setup(&Options::new(), 2, 1).unwrap(),
            Seat::WHITE,
        )
        .unwrap();
        let reward = |fen: &str| sides.rewards(chess, &state(fen)).unwrap()[0];
        assert!(reward(cornered) > reward(free) + 0.005);
        assert!(reward(free) >= logistic(DECIDED_LEAD) && reward(cornered) < 1.0);
        // A rook for a queen is not decided: where the queen stands changes nothing.
        let near = reward("r6k/8/5QK1/8/8/8/8/8 b - - 0 1");
        let far = reward("r6k/8/8/8/8/8/8/Q5K1 b - - 0 1");
        assert_eq!(near, far);
        assert!(near < logistic(DECIDED_LEAD));
    }
}

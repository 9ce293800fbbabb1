//! Computer players' turns.
//!
//! A computer sits in a seat like a person (its level stored with the seat). Whenever a change
//! is committed, the worker looks for games where a computer must act and plays one action in
//! each per pass, through the same paths a person's commands take. The search runs on a
//! blocking thread, at most one per core (more wait their turn), and holds no game lock: its
//! choice is played only if the game has not changed meanwhile, and is otherwise made again.
//! The search sees only what the computer's seat may see (`engine::ai` searches samples of the
//! hidden parts, never the true state), and what it chooses in secret is told to nobody: its
//! direct messages are never written.

use std::sync::{Arc, OnceLock};

use engine::ai::{self, Level};
use engine::game::PromptKind;
use engine::Seat;
use tokio::sync::{Notify, Semaphore};

use super::{DrawChoice, Loaded, Service, ServiceError, COMPUTERS_LEASE, DEFAULT_LEVEL};
use crate::model::{GameId, Place, Status, User};
use crate::store::SeatRow;

/// A search whose best line scores below this is checked again for resignation (a second,
/// full search): most positions are far from lost and skip it.
const RESIGN_CHECK_BELOW: f64 = 0.05;

/// The seat of the `n`th computer player (counted from 1 in its game) at `level`, sitting at
/// `seat`.
pub fn computer_seat(level: Level, n: usize, seat: usize) -> SeatRow {
    let user = User::computer(level, n);
    SeatRow {
        seat: seat as u8,
        user_id: user.id,
        user_name: user.name,
        computer: Some(level),
    }
}

/// Searches run on blocking threads, one per core at most; the rest queue here.
fn searches() -> &'static Semaphore {
    static SEARCHES: OnceLock<Semaphore> = OnceLock::new();
    SEARCHES
        .get_or_init(|| Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get())))
}

/// The seed of a computer's choice: the game's own seed and how far the game has gone, so the
/// same game replayed gives the same choices.
fn choice_seed(g: &Loaded, seat: Seat) -> u64 {
    g.row.seed
        ^ (g.row.version as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (u64::from(seat.0) << 56)
}

fn user_of(seat: &SeatRow) -> User {
    User::new(seat.user_id.clone(), seat.user_name.clone())
}

impl Service {
    /// Told after every committed change: a computer may have a turn.
    pub fn computers_ready(&self) -> Arc<Notify> {
        self.computers_ready.clone()
    }

    /// Plays at most one computer action in each game where one is due, in game order, and
    /// returns how many were played. Callers repeat it until it returns 0: a game whose every
    /// remaining seat is a computer plays on to its end, one action at a time.
    pub async fn play_computer_turns(&self) -> Result<usize, ServiceError> {
        // With several processes on one database, one of them searches for the computers (a
        // search is seconds of CPU; the game's version check would stop a second move anyway).
        if !self.hold_lease(COMPUTERS_LEASE).await? {
            return Ok(0);
        }
        let mut played = 0;
        for id in self.store.active_games_with_computers().await? {
            match self.play_computer_turn(id).await {
                Ok(true) => played += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(game = %id, "computer player: {e}"),
            }
        }
        Ok(played)
    }

    /// One computer action in game `id`, if one is due: an answer to a draw offer, or the
    /// action a computer's prompt asks for (or its resignation of a lost game).
    async fn play_computer_turn(&self, id: GameId) -> Result<bool, ServiceError> {
        let mut tx = self.store.begin().await?;
        let g = self.load(&mut tx, id).await?;
        tx.rollback().await?;
        if g.row.status != Status::Active {
            return Ok(false);
        }
        let state = g.state()?.clone();
        let game = g.game;
        // A draw on the table: each computer still in play answers it before anything else.
        if !g.row.draw_agreed.is_empty() {
            let in_play = self.seats_in_play(&g)?;
            let undecided = g.seats.iter().find(|s| {
                s.computer.is_some()
                    && in_play.contains(&Seat(s.seat))
                    && !g.row.draw_agreed.contains(&s.seat)
            });
            if let Some(s) = undecided {
                let (seat, level) = (Seat(s.seat), s.computer.unwrap_or(DEFAULT_LEVEL));
                let seed = choice_seed(&g, seat);
                let accept = self
                    .search(move || ai::offer_draw_answer(game, &state, seat, level, seed))
                    .await?;
                let choice = if accept {
                    DrawChoice::Accept
                } else {
                    DrawChoice::Decline
                };
                self.draw(&user_of(s), &Place::DirectMessage, Some(id), choice)
                    .await?;
                return Ok(true);
            }
        }
        let prompts = game.prompts(&state)?;
        let due = prompts.iter().find_map(|p| {
            g.user_of(p.seat)
                .filter(|s| s.computer.is_some())
                .map(|s| (p.seat, p.kind.clone(), s.clone()))
        });
        let Some((seat, kind, s)) = due else {
            return Ok(false);
        };
        let level = s.computer.unwrap_or(DEFAULT_LEVEL);
        let seed = choice_seed(&g, seat);
        let searched = state.clone();
        let (choice, resign) = self
            .search(move || {
                let choice = ai::choose(game, &searched, seat, level, seed);
                let doubtful = matches!(&choice, Ok(c) if c.stats.value.is_some_and(|v| v < RESIGN_CHECK_BELOW));
                let resign = doubtful && ai::should_resign(game, &searched, seat, level, seed);
                (choice, resign)
            })
            .await?;
        let user = user_of(&s);
        if resign {
            self.resign(&user, &Place::DirectMessage, Some(id)).await?;
            return Ok(true);
        }
        let choice = choice?;
        if let Some(why) = &choice.fallback {
            // A secret prompt's failure is logged without its reason, which may name a choice.
            match kind {
                PromptKind::Move => {
                    tracing::warn!(game = %id, "computer search failed, a legal move was played: {why}")
                }
                PromptKind::Secret => {
                    tracing::warn!(game = %id, "computer search failed, a legal secret choice was made")
                }
            }
        }
        let version = Some(g.row.version);
        match self
            .perform(&user, id, &choice.text, kind.clone(), version)
            .await
        {
            Ok(_) => Ok(true),
            // The rules refused the search's choice (a fault of ours): the first legal action
            // instead, so that a computer never holds a game up.
            Err(ServiceError::Refused(why)) => {
                tracing::error!(game = %id, "a computer's choice was refused: {why}");
                let Some(first) = game.legal_texts(&state, seat)?.into_iter().next() else {
                    return Ok(false);
                };
                self.perform(&user, id, &first, kind, version).await?;
                Ok(true)
            }
            Err(e) => Err(e),
        }
    }

    /// Runs a search on a blocking thread once a core is free for it.
    async fn search<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let _permit = searches()
            .acquire()
            .await
            .map_err(|e| ServiceError::Internal(e.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ServiceError::Internal(format!("a computer's search stopped: {e}")))
    }
}

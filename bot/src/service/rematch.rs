//! Rematches: a finished game played again by the same players, with the same variant, options
//! and clock, its seats turned round by one (two players swap colours).
//!
//! The first player to ask makes the rematch: a new game, waiting for the old game's other
//! players, with the computer seats already in it. Each player takes their seat by asking
//! (`/rematch` or the Rematch button of the game-over post); the game starts once every person
//! has asked, or when its creator (the first to ask) starts it with those who have, where the
//! game allows that many (`/start` of the new game). Asks are recorded in `rematch_asks`, and
//! the new game names the old one in `games.rematch_of`.

use super::{refuse, Loaded, Seating, Service, ServiceError};
use crate::model::{Button, ButtonAction, GameId, Place, Post, Reply, Status, Target, User};
use crate::store::{SeatRow, Store};

impl Service {
    /// `/rematch` and the Rematch button: asks to play a finished game again.
    pub async fn rematch(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let mut id = self.resolve(user, place, named).await?;
        // Asked in (or of) a rematch still waiting for its players: the ask is for the game it
        // replays.
        if let Some(row) = self.store.game(id).await? {
            if row.status == Status::Open {
                if let Some(old) = self.store.rematch_source_of(id).await? {
                    id = old;
                }
            }
        }
        // The old game's lock is held throughout, so that two asks never make two rematches.
        let (_guard, mut tx, g) = self.locked(id).await?;
        if g.seat_of(&user.id).is_none() {
            return refuse(format!(
                "you did not play in game {id}: a rematch is for its players"
            ));
        }
        match g.row.status {
            Status::Finished => {}
            Status::Active => {
                return refuse(format!(
                    "game {id} is still being played: a rematch can be asked for once it is over"
                ))
            }
            Status::Open => {
                return refuse(format!(
                    "game {id} has not started: there is nothing to play again yet"
                ))
            }
            Status::Aborted => {
                return refuse(format!(
                    "game {id} was called off: there is nothing to play again"
                ))
            }
        }
        // A rematch called off (by its creator, or because everyone left it) may be made again.
        let made = match Store::rematch_made_of(&mut tx, id).await? {
            Some(rematch) => Store::load_game(&mut tx, rematch)
                .await?
                .filter(|r| r.status != Status::Aborted)
                .map(|r| (rematch, r.status)),
            None => None,
        };
        // The store has one writer: this read-only transaction ends before the one that writes.
        tx.rollback().await?;
        match made {
            None => self.make_rematch(user, &g).await,
            Some((rematch, Status::Open)) => self.take_rematch_seat(user, &g, rematch).await,
            Some((rematch, status)) => refuse(already_made(id, rematch, status)),
        }
    }

    /// The first ask: a new game with the asker and the computer seats in it, started at once
    /// when nobody else has to ask.
    async fn make_rematch(&self, user: &User, g: &Loaded) -> Result<Reply, ServiceError> {
        let id = g.row.id;
        let count = g.row.seat_count;
        let mut seats: Vec<SeatRow> = g
            .seats
            .iter()
            .filter(|s| s.computer.is_some())
            .cloned()
            .collect();
        seats.push(SeatRow {
            seat: 0,
            user_id: user.id.clone(),
            user_name: user.name.clone(),
            computer: None,
        });
        turn_round(&g.seats, count, &mut seats);
        let waiting = waiting_for(g, &seats);

        // Everything of the old game carries over (variant, options, clock, server, channel,
        // and whatever else a game row keeps) but its play.
        let mut row = g.row.clone();
        row.id = GameId(0);
        row.seating = Seating::Joined.as_str().to_string();
        row.status = Status::Open;
        row.state = None;
        row.version = 1;
        row.seed = self.next_seed();
        row.creator = user.id.clone();
        row.thread = None;
        row.deadline = None;
        row.reminded = false;
        row.draw_agreed.clear();
        row.result = None;
        // Set up once now, as /play does, so a start that cannot be made is refused here.
        g.game.setup(&row.options, count, row.seed)?;

        let now = self.now();
        let mut tx = self.store.begin().await?;
        // Another process may have made the rematch since the read above (the in-process lock
        // covers only this one): the old game's row, locked again, says for sure.
        Store::load_game_for_update(&mut tx, id).await?;
        if let Some(made) = Store::rematch_made_of(&mut tx, id).await? {
            let standing = Store::load_game(&mut tx, made).await?;
            if let Some(r) = standing.filter(|r| r.status != Status::Aborted) {
                tx.rollback().await?;
                return if r.status == Status::Open {
                    self.take_rematch_seat(user, g, made).await
                } else {
                    refuse(already_made(id, made, r.status))
                };
            }
        }
        let rematch = Store::insert_game(&mut tx, &row, now).await?;
        Store::set_rematch_of(&mut tx, rematch, id).await?;
        Store::set_seats(&mut tx, rematch, &seats).await?;
        let seat = seats.iter().find(|s| s.user_id == user.id).map(|s| s.seat);
        Store::log_action(
            &mut tx,
            rematch,
            1,
            Some(&user.id),
            seat,
            "create",
            &format!("rematch of game {id}"),
            now,
        )
        .await?;
        Store::add_rematch_ask(&mut tx, id, rematch, &user.id, now).await?;

        let name = g.name();
        let mut posts = vec![Post::new(
            Target::Channel(row.channel.clone()),
            format!(
                "{{@{}}} asks for a rematch of game {id}: **{name}** again, seats turned round \
                 (game {rematch}: {}); it is played in {{#{rematch}}}.",
                user.id,
                setting_text(&row.options, row.days_per_move)
            ),
        )
        .anchoring_thread()];
        if !waiting.is_empty() {
            posts.push(
                Post::new(
                    Target::GameThread(rematch),
                    format!(
                        "Game {rematch}: the rematch of game {id} ({{#{id}}}), seats turned round. \
                         Waiting for {}: they take their seats with /rematch {id} or the Rematch \
                         button in {{#{id}}}. {{@{}}} can /start with those who have asked.",
                        mentions(&waiting),
                        user.id
                    ),
                )
                .with_buttons(vec![Button {
                    action: ButtonAction::Start,
                    game: rematch,
                }]),
            );
        }
        for post in &posts {
            Store::push_post(&mut tx, Some(rematch), post, now).await?;
        }
        if !waiting.is_empty() {
            let notice = Post::new(
                Target::GameThread(id),
                format!(
                    "{{@{}}} asks for a rematch: game {rematch}. {}: press Rematch or use \
                     /rematch {id} to play again.",
                    user.id,
                    mentions(&waiting)
                ),
            )
            .with_buttons(vec![Button {
                action: ButtonAction::RematchAsk,
                game: id,
            }]);
            Store::push_post(&mut tx, Some(id), &notice, now).await?;
        }
        tx.commit().await?;
        self.outbox_ready.notify_one();

        if waiting.is_empty() {
            // Nobody else to wait for (the others are computers): it begins at once.
            self.begin_rematch(user, id, rematch).await?;
            return Ok(Reply::text(format!(
                "Game {rematch}, the rematch of game {id}, has started in {{#{rematch}}}."
            )));
        }
        let names: Vec<&str> = waiting.iter().map(|s| s.user_name.as_str()).collect();
        Ok(Reply::text(format!(
            "You asked for a rematch of game {id}: game {rematch} begins when {} {} too, or \
             when you /start {rematch} with those who have.",
            names.join(" and "),
            if names.len() == 1 { "asks" } else { "ask" }
        )))
    }

    /// A later ask: the asker takes their seat in the rematch, which begins once every person
    /// has asked.
    async fn take_rematch_seat(
        &self,
        user: &User,
        g: &Loaded,
        rematch: GameId,
    ) -> Result<Reply, ServiceError> {
        let id = g.row.id;
        let (_guard, mut tx, mut r) = self.locked(rematch).await?;
        // Started or called off since it was looked up.
        if r.row.status != Status::Open {
            return refuse(already_made(id, rematch, r.row.status));
        }
        if r.seat_of(&user.id).is_some() {
            let waiting = waiting_for(g, &r.seats);
            let names: Vec<&str> = waiting.iter().map(|s| s.user_name.as_str()).collect();
            return refuse(format!(
                "you have already asked for a rematch of game {id}: game {rematch} waits for {}",
                if names.is_empty() {
                    "its start".to_string()
                } else {
                    names.join(" and ")
                }
            ));
        }
        if r.seats.len() >= r.row.seat_count {
            return refuse(format!("game {rematch} is full"));
        }
        r.seats.push(SeatRow {
            seat: 0,
            user_id: user.id.clone(),
            user_name: user.name.clone(),
            computer: None,
        });
        turn_round(&g.seats, g.row.seat_count, &mut r.seats);
        let now = self.now();
        Store::add_rematch_ask(&mut tx, id, rematch, &user.id, now).await?;
        let waiting = waiting_for(g, &r.seats);
        let mut text = format!(
            "{{@{}}} asks for the rematch too ({}/{})",
            user.id,
            r.seats.len(),
            r.row.seat_count
        );
        if waiting.is_empty() {
            text.push('.');
        } else {
            text.push_str(&format!(": waiting for {}.", mentions(&waiting)));
        }
        let mut posts = vec![Post::new(Target::GameThread(rematch), text)];
        let started = waiting.is_empty();
        if started {
            posts.extend(self.begin_play(&mut r)?);
            Store::push_post(&mut tx, Some(id), &begun_notice(id, rematch), now).await?;
        }
        let seat = r.seat_of(&user.id);
        self.save(tx, &mut r, Some((user, seat)), "join", "rematch", posts)
            .await?;
        Ok(Reply::text(if started {
            format!("Game {rematch}, the rematch of game {id}, has started in {{#{rematch}}}.")
        } else {
            format!("You take your seat in game {rematch}, the rematch of game {id}.")
        }))
    }

    /// Starts a rematch whose every seat was taken when it was made.
    async fn begin_rematch(
        &self,
        user: &User,
        old: GameId,
        rematch: GameId,
    ) -> Result<(), ServiceError> {
        let (_guard, mut tx, mut r) = self.locked(rematch).await?;
        if r.row.status != Status::Open || r.seats.len() < r.row.seat_count {
            return Ok(());
        }
        let posts = self.begin_play(&mut r)?;
        Store::push_post(&mut tx, Some(old), &begun_notice(old, rematch), self.now()).await?;
        let seat = r.seat_of(&user.id);
        self.save(tx, &mut r, Some((user, seat)), "start", "", posts)
            .await
    }
}

/// Orders a rematch's seats as the old game's turned round by one: whoever sat at seat `s` of
/// `count` sits at `s + 1`, the last at the first, so two players swap colours. Seats not yet
/// taken are left out, and those taken are numbered in that order.
fn turn_round(old: &[SeatRow], count: usize, seats: &mut [SeatRow]) {
    let target = |s: &SeatRow| {
        old.iter()
            .find(|o| o.user_id == s.user_id)
            .map_or(usize::MAX, |o| (o.seat as usize + 1) % count.max(1))
    };
    seats.sort_by_key(target);
    for (i, s) in seats.iter_mut().enumerate() {
        s.seat = i as u8;
    }
}

/// The people of the old game `g` not yet seated in its rematch.
fn waiting_for(g: &Loaded, seated: &[SeatRow]) -> Vec<SeatRow> {
    g.seats
        .iter()
        .filter(|s| s.computer.is_none() && !seated.iter().any(|r| r.user_id == s.user_id))
        .cloned()
        .collect()
}

fn mentions(seats: &[SeatRow]) -> String {
    let all: Vec<String> = seats
        .iter()
        .map(|s| format!("{{@{}}}", s.user_id))
        .collect();
    all.join(", ")
}

/// The old game's thread is told where its rematch is played.
fn begun_notice(old: GameId, rematch: GameId) -> Post {
    Post::new(
        Target::GameThread(old),
        format!("The rematch of game {old} has begun: game {rematch}, in {{#{rematch}}}."),
    )
}

/// Why a rematch cannot be asked for once it was made: it names the rematch.
fn already_made(old: GameId, rematch: GameId, status: Status) -> String {
    match status {
        Status::Finished => {
            format!("game {old} was already played again: its rematch was game {rematch} ({{#{rematch}}})")
        }
        Status::Aborted => format!("game {old}'s rematch, game {rematch}, was called off"),
        Status::Open | Status::Active => format!(
            "game {old}'s rematch is already being played: game {rematch}, in {{#{rematch}}}"
        ),
    }
}

/// "3 days per move, fen=...": a game's clock and options as its announcements give them.
pub(super) fn setting_text(options: &engine::game::Options, days: Option<i64>) -> String {
    let mut parts = vec![match days {
        Some(d) => format!("{d} day{} per move", if d == 1 { "" } else { "s" }),
        None => "no clock".to_string(),
    }];
    parts.extend(options.iter().map(|(k, v)| format!("{k}={v}")));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(seat: u8, user: &str) -> SeatRow {
        SeatRow {
            seat,
            user_id: user.into(),
            user_name: user.into(),
            computer: None,
        }
    }

    fn order(seats: &[SeatRow]) -> Vec<(u8, &str)> {
        seats.iter().map(|s| (s.seat, s.user_id.as_str())).collect()
    }

    #[test]
    fn two_players_swap_colours() {
        let old = [seat(0, "alice"), seat(1, "bob")];
        let mut new = vec![seat(0, "alice"), seat(1, "bob")];
        turn_round(&old, 2, &mut new);
        assert_eq!(order(&new), [(0, "bob"), (1, "alice")]);
    }

    #[test]
    fn more_players_turn_round_by_one_seat() {
        let old = [seat(0, "a"), seat(1, "b"), seat(2, "c"), seat(3, "d")];
        let mut new = vec![seat(0, "b"), seat(1, "d"), seat(2, "a"), seat(3, "c")];
        turn_round(&old, 4, &mut new);
        assert_eq!(order(&new), [(0, "d"), (1, "a"), (2, "b"), (3, "c")]);
        // Seats taken so far keep that order among themselves.
        let mut some = vec![seat(0, "c"), seat(1, "a")];
        turn_round(&old, 4, &mut some);
        assert_eq!(order(&some), [(0, "a"), (1, "c")]);
    }

    #[test]
    fn settings_read_as_announced() {
        let options = engine::game::Options::parse(["start=518"]).unwrap();
        assert_eq!(setting_text(&options, Some(1)), "1 day per move, start=518");
        assert_eq!(
            setting_text(&engine::game::Options::new(), None),
            "no clock"
        );
    }
}

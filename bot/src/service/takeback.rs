//! Takebacks: a player asks to undo their last action and everything played after it; every
//! other player still in the game accepts or declines (buttons, or `/takeback accept|decline`).
//!
//! Once everyone has accepted, the game is replayed from its stored actions: the variant is set
//! up again from the game's seed, options and seat count, and the moves and secret choices
//! before the one taken back are played through the engine again. So nothing else changes:
//! the random generator kept in the state, a rated game's flags on its row, the seats. The
//! actions taken back stay in the log, marked `undone_at`, so the history stays truthful.
//!
//! Takebacks are refused, with the reason, where they would reveal or disturb hidden
//! information (every variant with hidden information: sealed, buried, dealt or predicted
//! choices), in games played for points (the score table would lose its meaning), where a
//! player has left the game (a takeback cannot bring them back), and in games with a computer
//! player: a computer declines every takeback, so it is refused up front rather than asked.
//! A request lapses when an action is played before everyone has answered.

use engine::game::AnyState;
use engine::Seat;

use super::{refuse, Loaded, Service, ServiceError};
use crate::model::{Button, ButtonAction, GameId, Place, Post, Reply, Target, User};
use crate::store::{LoggedAction, Store, TakebackRow, TakebackStatus, Tx};

/// What `/takeback` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackChoice {
    /// Ask to take back your last action and everything after it.
    Ask,
    /// Accept the takeback asked for.
    Accept,
    /// Decline the takeback asked for.
    Decline,
}

/// The log kinds that are played through the engine, and so replayed.
fn is_play(action: &LoggedAction) -> bool {
    action.kind == "move" || action.kind == "secret"
}

/// The log kinds after which a request no longer asks for what it did: an action played, or a
/// player leaving.
fn lapses(action: &LoggedAction) -> bool {
    is_play(action) || action.kind == "resign" || action.kind == "timeout"
}

/// Where a request stands, as the log tells it: a pending request after which something was
/// played has lapsed.
fn standing(t: &TakebackRow, log: &[LoggedAction]) -> TakebackStatus {
    if t.status == TakebackStatus::Pending
        && log.iter().any(|a| a.version > t.asked_version && lapses(a))
    {
        TakebackStatus::Lapsed
    } else {
        t.status
    }
}

/// "3 moves (e5, Nf3, Nc6)", "1 move (e4)".
fn moves_text(undone: &[&LoggedAction]) -> String {
    let texts: Vec<&str> = undone
        .iter()
        .map(|a| {
            if a.kind == "secret" {
                "a secret choice"
            } else {
                a.text.as_str()
            }
        })
        .collect();
    format!(
        "{} move{} ({})",
        undone.len(),
        if undone.len() == 1 { "" } else { "s" },
        texts.join(", ")
    )
}

impl Service {
    /// `/takeback`: asks to take back, or answers the request on the table.
    pub async fn takeback(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        choice: TakebackChoice,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        match choice {
            TakebackChoice::Ask => self.ask_takeback(user, id).await,
            TakebackChoice::Accept => self.answer_takeback(user, id, true).await,
            TakebackChoice::Decline => self.answer_takeback(user, id, false).await,
        }
    }

    /// Whether the game may have takebacks at all; the refusal says why not.
    fn takebacks_allowed(&self, g: &Loaded) -> Result<(), ServiceError> {
        let name = g.name();
        if g.game.info().hidden_information {
            return refuse(format!(
                "{name} hides information from its players (sealed, buried, dealt or predicted \
                 choices): a takeback would reveal or disturb it, so {name} has no takebacks"
            ));
        }
        if g.game.best_scores().is_some() {
            return refuse(format!(
                "{name} is played for points: a takeback would change what the score means, so \
                 {name} has no takebacks"
            ));
        }
        if let Some(computer) = g.seats.iter().find(|s| s.computer.is_some()) {
            return refuse(format!(
                "{} declines every takeback: takebacks are between people",
                computer.user_name
            ));
        }
        Ok(())
    }

    /// The state after replaying the game's standing moves before version `until`, from its
    /// set-up.
    fn replay_log(
        &self,
        g: &Loaded,
        log: &[LoggedAction],
        until: i64,
    ) -> Result<AnyState, ServiceError> {
        let id = g.row.id;
        let mut state = g
            .game
            .setup(&g.row.options, g.row.seat_count, g.row.seed)
            .map_err(|e| ServiceError::Internal(format!("setting game {id} up again: {e}")))?;
        for action in log
            .iter()
            .filter(|a| is_play(a) && a.undone_at.is_none() && a.version < until)
        {
            let seat = action.seat.ok_or_else(|| {
                ServiceError::Internal(format!(
                    "game {id}: the action at version {} has no seat",
                    action.version
                ))
            })?;
            g.game
                .play(&mut state, Seat(seat), &action.text)
                .map_err(|e| {
                    ServiceError::Internal(format!(
                        "game {id}: replaying the action at version {}: {e}",
                        action.version
                    ))
                })?;
        }
        Ok(state)
    }

    /// Whether replaying every standing action gives the state stored: the log is the game's
    /// whole story, so a replay to an earlier point is that point.
    fn replays_exactly(&self, g: &Loaded, log: &[LoggedAction]) -> Result<bool, ServiceError> {
        let replayed = g.game.save(&self.replay_log(g, log, i64::MAX)?)?;
        let stored = g.game.save(g.state()?)?;
        let value = |json: &str| serde_json::from_str::<serde_json::Value>(json).ok();
        Ok(value(&replayed).is_some() && value(&replayed) == value(&stored))
    }

    /// `/takeback` (ask): asks to take back the asker's last action and everything after it.
    async fn ask_takeback(&self, user: &User, id: GameId) -> Result<Reply, ServiceError> {
        let (_guard, mut tx, mut g) = self.locked(id).await?;
        let seat = self.seated_in_active(&g, user)?;
        self.takebacks_allowed(&g)?;
        let in_play = self.seats_in_play(&g)?;
        if !in_play.contains(&seat) {
            return refuse(format!(
                "you are out of game {id}: only the players still in it take moves back"
            ));
        }
        let log = Store::logged_actions(&mut tx, id).await?;
        if let Some(t) = Store::latest_takeback(&mut tx, id).await? {
            match standing(&t, &log) {
                TakebackStatus::Pending => {
                    return refuse(format!(
                        "a takeback is already asked for in game {id} (by {}): it has to be \
                         answered first",
                        g.seats
                            .iter()
                            .find(|s| s.user_id == t.asker)
                            .map_or("a player", |s| s.user_name.as_str())
                    ))
                }
                // The row still says pending: it is closed now, so the log of requests is true.
                TakebackStatus::Lapsed if t.status == TakebackStatus::Pending => {
                    let mut lapsed = t.clone();
                    lapsed.status = TakebackStatus::Lapsed;
                    Store::update_takeback(&mut tx, &lapsed, self.now()).await?;
                }
                _ => {}
            }
        }
        if log
            .iter()
            .any(|a| a.kind == "resign" || a.kind == "timeout")
        {
            return refuse(format!(
                "a player has left game {id} (resigned or ran out of time): a takeback cannot \
                 bring them back"
            ));
        }
        let Some(last) = log
            .iter()
            .rev()
            .find(|a| is_play(a) && a.undone_at.is_none() && a.seat == Some(seat.0))
        else {
            return refuse(format!(
                "you have made no move in game {id} that could be taken back"
            ));
        };
        let undone: Vec<&LoggedAction> = log
            .iter()
            .filter(|a| is_play(a) && a.undone_at.is_none() && a.version >= last.version)
            .collect();
        if undone.iter().any(|a| a.kind == "secret") {
            return refuse(format!(
                "a secret choice was made in game {id} since your last move: a takeback would \
                 reveal or disturb it"
            ));
        }
        if !self.replays_exactly(&g, &log)? {
            tracing::warn!(game = %id, "a takeback was refused: the log does not replay to the stored state");
            return refuse(format!(
                "game {id} cannot be rebuilt exactly from its record, so nothing can be taken back"
            ));
        }
        let others: Vec<Seat> = in_play.iter().copied().filter(|s| *s != seat).collect();
        let what = moves_text(&undone);
        let now = self.now();
        let mut request = TakebackRow {
            id: 0,
            game: id,
            asker: user.id.clone(),
            asker_seat: seat.0,
            undo_from: last.version,
            // save() below writes the game at the next version.
            asked_version: g.row.version + 1,
            accepted: Vec::new(),
            status: TakebackStatus::Pending,
            answered_by: None,
        };
        if others.is_empty() {
            // Nobody else is left to agree: taken back at once.
            request.status = TakebackStatus::Done;
            Store::insert_takeback(&mut tx, &request, now).await?;
            let text = format!("{{@{}}} took back {what}.", user.id);
            return self
                .undo(tx, &mut g, user, &log, &request, text, &what)
                .await;
        }
        Store::insert_takeback(&mut tx, &request, now).await?;
        let asked: Vec<String> = others.iter().map(|s| g.mention(*s)).collect();
        let post = Post::new(
            Target::GameThread(id),
            format!(
                "{{@{}}} asks to take back {what}. {}: accept or decline with the buttons, or \
                 /takeback accept or /takeback decline.",
                user.id,
                asked.join(", ")
            ),
        )
        .with_buttons(vec![
            Button {
                action: ButtonAction::TakebackAccept,
                game: id,
            },
            Button {
                action: ButtonAction::TakebackDecline,
                game: id,
            },
        ]);
        self.save(
            tx,
            &mut g,
            Some((user, Some(seat))),
            "takeback-ask",
            "",
            vec![post],
        )
        .await?;
        Ok(Reply::text(format!(
            "You asked to take back {what} in game {id}."
        )))
    }

    /// `/takeback accept|decline` and the buttons: answers the request on the table.
    async fn answer_takeback(
        &self,
        user: &User,
        id: GameId,
        accept: bool,
    ) -> Result<Reply, ServiceError> {
        let (_guard, mut tx, mut g) = self.locked(id).await?;
        let seat = self.seated_in_active(&g, user)?;
        let Some(mut t) = Store::latest_takeback(&mut tx, id).await? else {
            return refuse(format!("nobody has asked for a takeback in game {id}"));
        };
        let log = Store::logged_actions(&mut tx, id).await?;
        let by_you = t.answered_by.as_deref() == Some(user.id.as_str());
        match standing(&t, &log) {
            TakebackStatus::Pending => {}
            TakebackStatus::Done => {
                return refuse(format!(
                    "the takeback asked for in game {id} was already accepted and carried out"
                ))
            }
            TakebackStatus::Declined if by_you => {
                return refuse(format!(
                    "you have already declined the takeback asked for in game {id}"
                ))
            }
            TakebackStatus::Declined => {
                let who = t
                    .answered_by
                    .as_deref()
                    .map_or("a player".to_string(), |u| format!("{{@{u}}}"));
                return refuse(format!(
                    "the takeback asked for in game {id} was already declined by {who}"
                ));
            }
            TakebackStatus::Lapsed => {
                return refuse(format!(
                    "the takeback asked for in game {id} has lapsed: the game went on after it \
                     was asked"
                ))
            }
        }
        if t.asker == user.id {
            return refuse(format!(
                "you asked for this takeback in game {id}: the other players answer it"
            ));
        }
        let in_play = self.seats_in_play(&g)?;
        if !in_play.contains(&seat) {
            return refuse(format!(
                "you are out of game {id}: the players still in it answer the takeback"
            ));
        }
        if t.accepted.contains(&seat.0) {
            return refuse(format!(
                "you have already accepted the takeback asked for in game {id}"
            ));
        }
        let undone: Vec<&LoggedAction> = log
            .iter()
            .filter(|a| is_play(a) && a.undone_at.is_none() && a.version >= t.undo_from)
            .collect();
        let what = moves_text(&undone);
        let now = self.now();
        if !accept {
            t.status = TakebackStatus::Declined;
            t.answered_by = Some(user.id.clone());
            Store::update_takeback(&mut tx, &t, now).await?;
            let post = Post::new(
                Target::GameThread(id),
                format!(
                    "{{@{}}} declined the takeback of {what}: the game goes on as it was.",
                    user.id
                ),
            );
            self.save(
                tx,
                &mut g,
                Some((user, Some(seat))),
                "takeback-decline",
                "",
                vec![post],
            )
            .await?;
            return Ok(Reply::text("You declined the takeback."));
        }
        t.accepted.push(seat.0);
        let asker_seat = Seat(t.asker_seat);
        let waiting: Vec<Seat> = in_play
            .iter()
            .copied()
            .filter(|s| *s != asker_seat && !t.accepted.contains(&s.0))
            .collect();
        if waiting.is_empty() {
            t.status = TakebackStatus::Done;
            Store::update_takeback(&mut tx, &t, now).await?;
            let text = format!(
                "{{@{}}} accepted: {} takes back {what}.",
                user.id,
                g.mention(asker_seat)
            );
            return self.undo(tx, &mut g, user, &log, &t, text, &what).await;
        }
        Store::update_takeback(&mut tx, &t, now).await?;
        let still: Vec<String> = waiting.iter().map(|s| g.mention(*s)).collect();
        let post = Post::new(
            Target::GameThread(id),
            format!(
                "{{@{}}} accepts the takeback; waiting for {}.",
                user.id,
                still.join(", ")
            ),
        );
        self.save(
            tx,
            &mut g,
            Some((user, Some(seat))),
            "takeback-accept",
            "",
            vec![post],
        )
        .await?;
        Ok(Reply::text(
            "You accepted the takeback; it is made once the others accept too.",
        ))
    }

    /// Carries a request out: the game as it was before the asker's action, replayed from the
    /// log; the actions after it marked undone; the board posted with whose turn it is.
    #[allow(clippy::too_many_arguments)]
    async fn undo(
        &self,
        mut tx: Tx,
        g: &mut Loaded,
        user: &User,
        log: &[LoggedAction],
        t: &TakebackRow,
        text: String,
        what: &str,
    ) -> Result<Reply, ServiceError> {
        let id = g.row.id;
        let state = self.replay_log(g, log, t.undo_from)?;
        g.state = Some(state);
        // An offer made on the game as it was is no offer on the game as it is now.
        g.row.draw_agreed.clear();
        self.restart_clock(g);
        Store::mark_undone(&mut tx, id, t.undo_from, self.now()).await?;
        let mut text = text;
        text.push_str(&self.turn_line(g)?);
        let post = self.board_post(g, text)?;
        let seat = g.seat_of(&user.id);
        self.save(tx, g, Some((user, seat)), "takeback", what, vec![post])
            .await?;
        Ok(Reply::text(format!("Taken back in game {id}: {what}.")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(version: i64, kind: &str, seat: u8, text: &str) -> LoggedAction {
        LoggedAction {
            version,
            user_id: None,
            seat: Some(seat),
            kind: kind.into(),
            text: text.into(),
            created_at: 0,
            undone_at: None,
        }
    }

    fn request(asked_version: i64) -> TakebackRow {
        TakebackRow {
            id: 1,
            game: GameId(1),
            asker: "alice".into(),
            asker_seat: 0,
            undo_from: 3,
            asked_version,
            accepted: Vec::new(),
            status: TakebackStatus::Pending,
            answered_by: None,
        }
    }

    #[test]
    fn a_request_lapses_when_the_game_goes_on() {
        let mut log = vec![
            action(3, "move", 0, "e4"),
            action(4, "move", 1, "e5"),
            action(5, "takeback-ask", 0, ""),
            action(6, "draw-offer", 1, ""),
        ];
        assert_eq!(standing(&request(5), &log), TakebackStatus::Pending);
        log.push(action(7, "move", 0, "Nf3"));
        assert_eq!(standing(&request(5), &log), TakebackStatus::Lapsed);
        let mut declined = request(5);
        declined.status = TakebackStatus::Declined;
        assert_eq!(standing(&declined, &log), TakebackStatus::Declined);
    }

    #[test]
    fn the_moves_taken_back_are_named_but_no_secret() {
        let e4 = action(3, "move", 0, "e4");
        let e5 = action(4, "move", 1, "e5");
        assert_eq!(moves_text(&[&e4]), "1 move (e4)");
        assert_eq!(moves_text(&[&e4, &e5]), "2 moves (e4, e5)");
        let sealed = action(5, "secret", 1, "d5");
        assert_eq!(moves_text(&[&sealed]), "1 move (a secret choice)");
    }

    #[test]
    fn the_buttons_read_back_from_their_ids() {
        for action in [
            ButtonAction::RematchAsk,
            ButtonAction::TakebackAccept,
            ButtonAction::TakebackDecline,
        ] {
            let b = Button {
                action,
                game: GameId(7),
            };
            assert_eq!(Button::from_custom_id(&b.custom_id()), Some(b));
        }
    }
}

//! `/export` and `/replay`: a game's record as a file (PGN for chess and Chess960, PDN for
//! two-player checkers, Stax and Queens, Rookery's JSON record for the rest) and its animated
//! GIF, both made from the action log.
//!
//! While a game runs, each is for the asker alone and from their side: another player's
//! secret choices are left out of the record (marked hidden), the JSON record carries no seed
//! (it would tell the deal), and the replay shows the asker's own view. Once the game is over
//! they are posted for everyone, with every secret told.

use engine::record::{self, ActionKind, Format, Record, RecordedAction, SeatRecord};
use engine::view::Viewer;
use engine::Seat;

use super::{refuse, Loaded, Service, ServiceError, DAY};
use crate::model::{Attachment, GameId, Place, Reply, Status, User};

/// The largest file Discord takes from a bot in a server without boosts.
const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

impl Service {
    /// `/export`: the game's record as a file, privately and from the asker's side while the
    /// game runs, for everyone once it is over.
    pub async fn export(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let (id, g) = self.look(user, place, named).await?;
        let full = self.full_record(&g).await?;
        let finished = g.row.status == Status::Finished;
        let record = for_viewer(full, viewer_of(&g, user), finished);
        let (format, text) = record::write(&record)?;
        let hidden = record
            .actions
            .iter()
            .filter(|a| a.kind == ActionKind::Hidden)
            .count();
        let count = record.actions.len();
        let mut message = format!(
            "Game {id} ({}) as {}: {count} {}",
            g.name(),
            format.name(),
            if count == 1 { "action" } else { "actions" }
        );
        match (finished, hidden) {
            (true, _) => message.push_str(&format!(
                ", {}.",
                record.result.as_deref().unwrap_or("over")
            )),
            (false, 0) => message.push_str(", so far."),
            (false, n) => message.push_str(&format!(
                ", so far; {n} secret {} of other players left out until the game ends.",
                if n == 1 { "choice" } else { "choices" }
            )),
        }
        if format == Format::Json {
            message.push_str(" The record's format is described in Rookery's docs/EXPORT.md.");
        }
        Ok(Reply {
            text: message,
            file: Some(Attachment {
                name: format!("rookery-game-{id}.{}", format.extension()),
                bytes: text.into_bytes(),
            }),
            public: finished,
            ..Reply::default()
        })
    }

    /// `/replay`: every position of the game as an animated GIF, from the asker's side (a
    /// spectator's for others), each action as its caption; privately while the game runs,
    /// for everyone once it is over.
    pub async fn replay(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let (id, g) = self.look(user, place, named).await?;
        let record = self.full_record(&g).await?;
        let finished = g.row.status == Status::Finished;
        let replayed = record::replay(&record).map_err(|e| {
            ServiceError::Internal(format!("game {id} does not replay from its log: {e}"))
        })?;
        let views = replayed.frames(&record, viewer_of(&g, user), finished)?;
        let positions = views.len();
        // Drawing every position takes a while: off the async workers.
        let gif = tokio::task::spawn_blocking(move || render::gif::render_gif(&views))
            .await
            .map_err(|e| ServiceError::Internal(format!("replay of game {id}: {e}")))?
            .map_err(|e| ServiceError::Internal(format!("replay of game {id}: {e}")))?;
        if gif.len() > MAX_FILE_BYTES {
            return refuse(format!(
                "game {id}'s replay is {:.1} MB, more than Discord takes; /export gives its record",
                gif.len() as f64 / 1_048_576.0
            ));
        }
        let mut text = format!("Game {id} ({}) replayed: {positions} positions", g.name());
        text.push_str(if finished {
            "."
        } else {
            " so far, from your side."
        });
        Ok(Reply {
            text,
            file: Some(Attachment {
                name: format!("rookery-game-{id}.gif"),
                bytes: gif,
            }),
            public: finished,
            ..Reply::default()
        })
    }

    /// The whole record of a started game from its log: every action with its time (and the
    /// time its player had left, where a clock ran), secrets and seed included.
    async fn full_record(&self, g: &Loaded) -> Result<Record, ServiceError> {
        let id = g.row.id;
        match g.row.status {
            Status::Open => {
                return refuse(format!(
                    "game {id} has not started: it has no moves to export or replay yet"
                ))
            }
            Status::Aborted => {
                return refuse(format!(
                    "game {id} was called off before it started: it has no moves"
                ))
            }
            Status::Active | Status::Finished => {}
        }
        g.state()?;
        let seats = (0..g.row.seat_count as u8)
            .map(Seat)
            .map(|seat| SeatRecord {
                name: g
                    .user_of(seat)
                    .map_or_else(|| g.side(seat), |row| row.user_name.clone()),
                side: g.side(seat),
            })
            .collect();
        let mut record = Record::new(&g.row.variant, &g.row.options, seats);
        record.seed = Some(g.row.seed);
        record.game = Some(id.0);
        record.site = Some(site(&g.row.server, g.row.thread.as_deref(), id));
        record.days_per_move = g.row.days_per_move;
        // The clock restarts with every action that moves the game on (as the service's
        // restart_clock does): what a player had left is the allowance less the time since.
        let mut clock_from: Option<i64> = None;
        for entry in self.store.action_log(id).await? {
            let action = match entry.kind.as_str() {
                "move" => RecordedAction::play(ActionKind::Move, entry.seat, entry.text),
                "secret" => RecordedAction::play(ActionKind::Secret, entry.seat, entry.text),
                "resign" => RecordedAction::bare(ActionKind::Resign, entry.seat),
                // Time ran out for every seat asked to act, as the replay works out.
                "timeout" => RecordedAction::bare(ActionKind::Timeout, None),
                "draw-accept" => RecordedAction::bare(ActionKind::Draw, None),
                // Before the first action, the last of create, join, addbot and start is when
                // the game began and its first clock started.
                _ => {
                    if record.actions.is_empty() {
                        clock_from = Some(entry.created_at);
                    }
                    continue;
                }
            };
            let played = matches!(action.kind, ActionKind::Move | ActionKind::Secret);
            let clock = match (g.row.days_per_move, clock_from) {
                (Some(days), Some(from)) if played => Some(days * DAY - (entry.created_at - from)),
                _ => None,
            };
            if record.started.is_none() {
                record.started = clock_from.or(Some(entry.created_at));
            }
            clock_from = Some(entry.created_at);
            record.actions.push(RecordedAction {
                time: Some(entry.created_at),
                clock,
                ..action
            });
        }
        if record.started.is_none() {
            record.started = clock_from;
        }
        record.outcome = g
            .row
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str(r).ok());
        record.result = record.outcome.as_ref().map(|o| g.outcome_text(o));
        Ok(record)
    }
}

/// Whose side a user sees a game from: their seat's, or a spectator's.
fn viewer_of(g: &Loaded, user: &User) -> Viewer {
    g.seat_of(&user.id).map_or(Viewer::Spectator, Viewer::Seat)
}

/// The record as `viewer` may have it: all of it once the game is over; while it runs, only
/// the viewer's own secret choices (the others' marked hidden) and, in a JSON record, no seed,
/// which would let anyone work out a deal or a shuffle. (PGN and PDN games have no secrets;
/// their seed is not written, or only where it numbers the men on the board for all to see.)
fn for_viewer(mut record: Record, viewer: Viewer, finished: bool) -> Record {
    if finished {
        return record;
    }
    if Format::for_variant(&record.variant, record.seats.len()) == Format::Json {
        record.seed = None;
    }
    for action in &mut record.actions {
        let own = matches!(viewer, Viewer::Seat(s) if action.seat == Some(s.0));
        if action.kind == ActionKind::Secret && !own {
            *action = RecordedAction {
                time: action.time,
                ..RecordedAction::bare(ActionKind::Hidden, action.seat)
            };
        }
    }
    record
}

/// Where a game was played, for the record's `Site`: its thread on Discord (a link naming the
/// server and the thread), or the local console.
fn site(server: &str, thread: Option<&str>, id: GameId) -> String {
    match thread {
        Some(thread) if !server.is_empty() && server != crate::console::SERVER => {
            format!("https://discord.com/channels/{server}/{thread}")
        }
        _ if server == crate::console::SERVER => format!("Rookery console, game {id}"),
        _ => format!("Rookery, game {id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(name: &str) -> SeatRecord {
        SeatRecord {
            name: name.into(),
            side: name.into(),
        }
    }

    /// While a game runs, a player's export keeps their own secrets and hides the others'.
    #[test]
    fn a_running_game_keeps_only_the_viewer_s_secrets() {
        let mut record = Record::new(
            "zombie",
            &engine::game::Options::new(),
            vec![seat("a"), seat("b")],
        );
        record.seed = Some(9);
        record
            .actions
            .push(RecordedAction::play(ActionKind::Secret, Some(0), "a1"));
        record
            .actions
            .push(RecordedAction::play(ActionKind::Secret, Some(1), "h8"));
        let mine = for_viewer(record.clone(), Viewer::Seat(Seat(0)), false);
        assert_eq!(mine.seed, None);
        assert_eq!(mine.actions[0].text, "a1");
        assert_eq!(mine.actions[1].kind, ActionKind::Hidden);
        assert!(mine.actions[1].text.is_empty());
        let spectator = for_viewer(record.clone(), Viewer::Spectator, false);
        assert!(spectator
            .actions
            .iter()
            .all(|a| a.kind == ActionKind::Hidden));
        assert_eq!(for_viewer(record.clone(), Viewer::Spectator, true), record);
    }

    #[test]
    fn the_site_names_the_server_and_thread() {
        assert_eq!(
            site("12", Some("34"), GameId(5)),
            "https://discord.com/channels/12/34"
        );
        assert_eq!(
            site(crate::console::SERVER, None, GameId(5)),
            "Rookery console, game 5"
        );
    }
}

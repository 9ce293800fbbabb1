//! Looking back: `/history [user] [variant]`, a player's finished games ten to a page, and
//! `/game <id>`, one game summed up. Neither tells anything a spectator could not see: who
//! played which side, the result, how many moves, the dates and the thread.

use engine::game::{AnyGame, AnyState, Outcome};
use engine::{registry, Seat};

use super::{describe_status, outcome_text, refuse, seat_name, Service, ServiceError};
use crate::model::{GameId, Place, Reply, Status, User};
use crate::store::{GameRow, GameSummary, GameTimes, HistoryFilter, SeatRow};

/// Games a page of `/history` lists.
pub const HISTORY_PAGE: usize = 10;

impl Service {
    /// `/history`: the finished games of `who` (the asker by default), of `variant` if given,
    /// played on this server (everywhere, asked in direct messages), newest first, a page of
    /// ten at a time.
    pub async fn history(
        &self,
        user: &User,
        place: &Place,
        who: Option<&str>,
        variant: Option<&str>,
        page: Option<usize>,
    ) -> Result<Reply, ServiceError> {
        let (player, name) = match who.map(str::trim).filter(|w| !w.is_empty()) {
            None => (user.id.clone(), user.name.clone()),
            Some(w) => {
                // A Discord mention as typed (<@123>), a console @name, or a plain name.
                let w = w
                    .trim_start_matches("<@")
                    .trim_start_matches(['@', '!'])
                    .trim_end_matches('>');
                match self.store.player(w).await? {
                    Some(found) => found,
                    None if !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()) => {
                        return refuse(format!(
                            "{{@{w}}} has not played any game with Rookery"
                        ))
                    }
                    None => {
                        return refuse(format!(
                            "I know no player '{w}': nobody of that name has played a game with Rookery"
                        ))
                    }
                }
            }
        };
        let game = match variant.map(str::trim).filter(|v| !v.is_empty()) {
            // An unknown name is refused with the names there are.
            Some(v) => Some(registry::variant_or_preset(v)?.0),
            None => None,
        };
        let page = page.unwrap_or(1);
        if page == 0 {
            return refuse("pages are counted from 1");
        }
        let server = match place {
            Place::Channel { server, .. } => Some(server.as_str()),
            Place::DirectMessage => None,
        };
        let filter = HistoryFilter {
            user: &player,
            server,
            variant: game.map(|g| g.info().id),
        };
        let found = self
            .store
            .finished_games(
                filter,
                HISTORY_PAGE as i64,
                ((page - 1) * HISTORY_PAGE) as i64,
            )
            .await?;
        let of_variant = game.map_or(String::new(), |g| format!(" of {}", g.info().name));
        let where_ = if server.is_some() {
            " on this server"
        } else {
            ""
        };
        if found.total == 0 {
            return Ok(Reply::text(format!(
                "{name} has no finished game{of_variant}{where_} yet."
            )));
        }
        let total = found.total as usize;
        let pages = total.div_ceil(HISTORY_PAGE);
        if page > pages {
            return refuse(format!(
                "{name} has {total} finished game{}{of_variant}{where_}: {pages} page{}, not {page}",
                if total == 1 { "" } else { "s" },
                if pages == 1 { "" } else { "s" }
            ));
        }
        let mut lines = vec![format!(
            "Finished games of {name}{of_variant}{where_}, page {page} of {pages} ({total} game{}):",
            if total == 1 { "" } else { "s" }
        )];
        for (summary, times) in &found.games {
            lines.push(history_line(summary, times));
        }
        if page < pages {
            lines.push(format!("More with page:{}.", page + 1));
        }
        Ok(Reply::text(lines.join("\n")))
    }

    /// `/game <id>`: one game summed up, whoever asks.
    pub async fn game_info(&self, id: GameId) -> Result<Reply, ServiceError> {
        let Some((summary, times)) = self.store.game_summary(id).await? else {
            return refuse(format!("there is no game {id}"));
        };
        let g = &summary.game;
        let game = registry::variant(&g.variant).map_err(|_| {
            ServiceError::Internal(format!("game {id} has unknown variant {}", g.variant))
        })?;
        let state = loaded_state(game, g);
        let mut lines = vec![format!(
            "Game {id}: **{}** ({}).",
            game.info().name,
            super::rematch::setting_text(&g.options, g.days_per_move)
        )];
        lines.push(if summary.seats.is_empty() {
            "Players: nobody.".to_string()
        } else {
            format!(
                "Players: {}.",
                players(game, state.as_ref(), &summary.seats, ", ")
            )
        });
        let status = match g.status {
            Status::Finished => match outcome_of(g) {
                Some(o) => format!("over: {}", outcome_text(game, state.as_ref(), &o)),
                None => "over".to_string(),
            },
            Status::Active => {
                let waiting: Vec<String> = state
                    .as_ref()
                    .and_then(|s| game.prompts(s).ok())
                    .unwrap_or_default()
                    .iter()
                    .map(|p| seat_name(game, state.as_ref(), p.seat))
                    .collect();
                if waiting.is_empty() {
                    "being played".to_string()
                } else {
                    format!("being played, waiting for {}", waiting.join(" and "))
                }
            }
            Status::Open => format!(
                "waiting for players ({}/{})",
                summary.seats.len(),
                g.seat_count
            ),
            Status::Aborted => describe_status(Status::Aborted).to_string(),
        };
        lines.push(format!("Status: {status}."));
        let mut moves = format!("Moves: {}", times.moves);
        if times.takebacks > 0 {
            moves.push_str(&format!(
                " ({} takeback{})",
                times.takebacks,
                if times.takebacks == 1 { "" } else { "s" }
            ));
        }
        lines.push(format!("{moves}."));
        let mut dates = format!("Created {}", date_text(times.created_at));
        if let Some(started) = times.started_at {
            dates.push_str(&format!(", started {}", date_text(started)));
        }
        if matches!(g.status, Status::Finished | Status::Aborted) {
            dates.push_str(&format!(", ended {}", date_text(times.updated_at)));
        }
        lines.push(format!("{dates}."));
        if let Some(old) = self.store.rematch_source_of(id).await? {
            lines.push(format!("The rematch of game {old}."));
        }
        if let Some(rematch) = self.store.rematch_of_game(id).await? {
            lines.push(format!("Its rematch: game {rematch}."));
        }
        lines.push(format!("Thread: {{#{id}}}"));
        Ok(Reply::text(lines.join("\n")))
    }
}

/// "- Game 12 · Chess · alice (White) vs bob (Black) · Black wins by checkmate · 2027-01-15 ·
/// #game-12".
fn history_line(summary: &GameSummary, times: &GameTimes) -> String {
    let g = &summary.game;
    let Ok(game) = registry::variant(&g.variant) else {
        return format!("- Game {} · {} · {{#{}}}", g.id, g.variant, g.id);
    };
    let state = loaded_state(game, g);
    let separator = if summary.seats.len() == 2 {
        " vs "
    } else {
        ", "
    };
    let result = outcome_of(g).map_or("over".to_string(), |o| {
        outcome_text(game, state.as_ref(), &o)
    });
    format!(
        "- Game {} · {} · {} · {result} · {} · {{#{}}}",
        g.id,
        game.info().name,
        players(game, state.as_ref(), &summary.seats, separator),
        date_text(times.updated_at),
        g.id
    )
}

/// "alice (White) vs bob (Black)": each player with the side the game calls their seat.
fn players(
    game: &dyn AnyGame,
    state: Option<&AnyState>,
    seats: &[SeatRow],
    separator: &str,
) -> String {
    let named: Vec<String> = seats
        .iter()
        .map(|s| format!("{} ({})", s.user_name, seat_name(game, state, Seat(s.seat))))
        .collect();
    named.join(separator)
}

fn loaded_state(game: &dyn AnyGame, g: &GameRow) -> Option<AnyState> {
    g.state.as_deref().and_then(|json| game.load(json).ok())
}

fn outcome_of(g: &GameRow) -> Option<Outcome> {
    g.result
        .as_deref()
        .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
}

/// The date (UTC) of a Unix time: `2027-01-15`.
pub fn date_text(seconds: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm, on days since 1970-01-01.
    let z = seconds.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::date_text;

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(1_800_000_000), "2027-01-15");
        assert_eq!(date_text(951_782_400), "2000-02-29");
        assert_eq!(date_text(951_782_399), "2000-02-28");
        assert_eq!(date_text(-1), "1969-12-31");
    }
}

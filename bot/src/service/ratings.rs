//! Ratings in the service: a game that ends is rated in the transaction that ends it, and
//! `/rating`, `/leaderboard` and `/stats` read what was stored. The pools and the arithmetic
//! are `crate::ratings`; the SQL is the store's.
//!
//! A finished game is rated unless it is casual: made so at `/play` (`rated=no`), played with a
//! computer in a seat, started from a position of the players' own (`fen=`, a numbered
//! `start=`), or ended before every player had moved. A game of one side only (a game for one,
//! Cooperative Chess against the board) has nobody to be rated against.

use std::collections::BTreeMap;

use engine::game::{Options, Outcome};
use engine::registry;
use engine::Seat;

use super::{refuse, Loaded, Service, ServiceError};
use crate::model::{GameId, Place, Post, Reply, Status, Target, User, Who};
use crate::ratings::{self, Rating, Verdict, PROVISIONAL_DEVIATION};
use crate::store::{RatingChange, RatingRow, SeatRow, Store, Tx};

/// How many players a leaderboard lists: established ratings, then provisional ones apart.
const LEADERBOARD_SIZE: usize = 10;

/// Reads `/play`'s `rated=`: yes (the default) or no (a casual game).
pub(super) fn parse_rated(value: &str) -> Result<bool, ServiceError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" => Ok(true),
        "no" | "false" | "off" | "casual" => Ok(false),
        _ => refuse(format!(
            "rated must be yes or no (rated=no makes a casual game), not '{value}'"
        )),
    }
}

/// Whether a game starts from a position of the players' own: a `fen=`, or a `start=` that
/// names an array (Chess960's numbers) rather than drawing one at random.
fn custom_start(options: &Options) -> bool {
    options.get("fen").is_some()
        || options
            .get("start")
            .is_some_and(|s| !s.eq_ignore_ascii_case("random"))
}

/// The server a command was given in: ratings are kept per server.
fn server_of<'a>(place: &'a Place, what: &str) -> Result<&'a str, ServiceError> {
    match place {
        Place::Channel { server, .. } => Ok(server.as_str()),
        Place::DirectMessage => refuse(format!(
            "{what} are kept per server: ask in one of the server's channels"
        )),
    }
}

fn rating_of(row: &RatingRow) -> Rating {
    Rating {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    }
}

/// "1 game", "3 games".
fn count(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "1712 (deviation 45; 14 games: 8 wins, 2 draws, 4 losses)".
fn describe_row(row: &RatingRow) -> String {
    format!(
        "{} (deviation {}; {}: {}, {}, {})",
        rating_of(row).shown(),
        row.deviation.round() as i64,
        count(row.games, "rated game", "rated games"),
        count(row.wins, "win", "wins"),
        count(row.draws, "draw", "draws"),
        count(row.losses, "loss", "losses")
    )
}

/// Said under a list that shows a provisional rating.
fn provisional_note() -> String {
    format!(
        "A rating marked ? is provisional: its deviation is above {PROVISIONAL_DEVIATION}, \
         so a few more rated games will tell."
    )
}

impl Service {
    /// Rates a game that has just ended, in the transaction that ends it: each player's new
    /// rating and the change are written, and the post announcing the changes is returned
    /// ("alice 1500? → 1662? (+162)"). Casual games change nothing; a game ended before every
    /// player had moved says so.
    pub(super) async fn rate_finished(
        &self,
        tx: &mut Tx,
        g: &Loaded,
        now: i64,
    ) -> Result<Option<Post>, ServiceError> {
        let id = g.row.id;
        let Some(outcome) = g
            .row
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
        else {
            return Ok(None);
        };
        let seats = g.row.seat_count;
        let casual = !Store::is_rated(tx, id).await?
            || g.seats.iter().any(|s| s.computer.is_some())
            || custom_start(&g.row.options)
            || g.seats.len() != seats;
        if casual {
            return Ok(None);
        }
        // Partners are read from a fresh table: in the finished game the seats already out no
        // longer win by anyone's resignation. A game whose table cannot be read is left
        // unrated rather than its end refused.
        let teams = match g
            .game
            .setup(&g.row.options, seats, g.row.seed)
            .and_then(|state| ratings::teams(g.game, &state, seats))
        {
            Ok(teams) => teams,
            Err(e) => {
                tracing::error!(game = id.0, "ratings: the teams could not be read: {e}");
                return Ok(None);
            }
        };
        let sides = ratings::sides(&ratings::places(&outcome, seats), &teams);
        if sides.len() < 2 {
            return Ok(None);
        }
        let acted = Store::seats_that_acted(tx, id).await?;
        let idle: Vec<&str> = g
            .seats
            .iter()
            .filter(|s| !acted.contains(&s.seat))
            .map(|s| s.user_name.as_str())
            .collect();
        if !idle.is_empty() {
            return Ok(Some(Post::new(
                Target::GameThread(id),
                format!("Not rated: {} had not moved yet.", idle.join(" and ")),
            )));
        }

        let server = g.row.server.as_str();
        let pool = ratings::rating_pool(g.game.info(), &g.row.options, seats);
        let mut players = g.seats.clone();
        players.sort_by_key(|s| s.seat);
        let mut before = vec![Rating::NEW; seats];
        let mut stored: Vec<Option<RatingRow>> = vec![None; seats];
        // Read (and on PostgreSQL, locked until the game's end is stored) in the order of the
        // players' ids, so two games ending at once with the same players wait for each other
        // in one order and never deadlock.
        let mut by_id: Vec<&SeatRow> = players.iter().collect();
        by_id.sort_by(|a, b| a.user_id.cmp(&b.user_id));
        for s in by_id {
            let row = Store::rating_in(tx, server, &pool, &s.user_id).await?;
            let i = s.seat as usize;
            if let (Some(slot), Some(row)) = (before.get_mut(i), &row) {
                *slot = rating_of(row);
            }
            if let Some(slot) = stored.get_mut(i) {
                *slot = row;
            }
        }
        let after = ratings::rate(&before, &sides);
        let mut changes = Vec::with_capacity(seats);
        for s in &players {
            let i = s.seat as usize;
            let (Some(old), Some(new)) = (before.get(i).copied(), after.get(i).copied()) else {
                continue;
            };
            let verdict = Verdict::of(&outcome, Seat(s.seat));
            let tally = |r: &RatingRow| (r.games, r.wins, r.draws, r.losses);
            let (games, wins, draws, losses) = stored
                .get(i)
                .and_then(Option::as_ref)
                .map_or((0, 0, 0, 0), tally);
            Store::put_rating(
                tx,
                &RatingRow {
                    server: server.to_string(),
                    pool: pool.clone(),
                    user_id: s.user_id.clone(),
                    user_name: s.user_name.clone(),
                    rating: new.rating,
                    deviation: new.deviation,
                    volatility: new.volatility,
                    games: games + 1,
                    wins: wins + i64::from(verdict == Verdict::Win),
                    draws: draws + i64::from(verdict == Verdict::Draw),
                    losses: losses + i64::from(verdict == Verdict::Loss),
                    updated_at: now,
                },
            )
            .await?;
            Store::add_rating_change(
                tx,
                &RatingChange {
                    game: id,
                    user_id: s.user_id.clone(),
                    pool: pool.clone(),
                    rating_before: old.rating,
                    rating_after: new.rating,
                    deviation_before: old.deviation,
                    deviation_after: new.deviation,
                    verdict: verdict.as_str().to_string(),
                },
            )
            .await?;
            changes.push(ratings::describe_change(&s.user_name, old, new));
        }
        Ok(Some(Post::new(
            Target::GameThread(id),
            format!(
                "Ratings ({}): {}.",
                ratings::pool_title(&pool),
                changes.join(", ")
            ),
        )))
    }

    /// Who a command asks about: the asker, the user the frontend gave, or the player of this
    /// server with that name.
    async fn player(
        &self,
        server: &str,
        asker: &User,
        who: Option<Who>,
    ) -> Result<User, ServiceError> {
        match who {
            None => Ok(asker.clone()),
            Some(Who::User(user)) => Ok(user),
            Some(Who::Name(name)) => {
                let name = name.trim().trim_start_matches('@');
                match self.store.find_player(server, name).await? {
                    Some(found) => Ok(found),
                    None => refuse(format!(
                        "no player named '{name}' has played on this server"
                    )),
                }
            }
        }
    }

    /// `/rating [user] [variant]`: a player's ratings on this server, in every pool or in a
    /// variant's.
    pub async fn rating(
        &self,
        user: &User,
        place: &Place,
        who: Option<Who>,
        variant: Option<&str>,
    ) -> Result<Reply, ServiceError> {
        let server = server_of(place, "ratings")?;
        let player = self.player(server, user, who).await?;
        let wanted = match variant.map(str::trim).filter(|v| !v.is_empty()) {
            Some(v) => Some(ratings::pools_named(v).map_err(ServiceError::Refused)?),
            None => None,
        };
        let mut rows = self.store.ratings_of(server, &player.id).await?;
        if let Some((_, pools)) = &wanted {
            rows.retain(|r| pools.contains(&r.pool));
        }
        let name = rows
            .first()
            .map_or_else(|| player.name.clone(), |r| r.user_name.clone());
        if rows.is_empty() {
            return Ok(Reply::text(match &wanted {
                Some((info, _)) => {
                    format!("{name} has no rating in {} on this server yet.", info.name)
                }
                None => format!(
                    "{name} has no rating on this server yet: ratings come from the rated games \
                     finished here (a game against a computer, from a position of your own or \
                     made with rated=no is casual)."
                ),
            }));
        }
        let mut lines = vec![format!("Ratings of {name} on this server:")];
        for r in &rows {
            lines.push(format!(
                "- {}: {}",
                ratings::pool_title(&r.pool),
                describe_row(r)
            ));
        }
        if rows.iter().any(|r| rating_of(r).is_provisional()) {
            lines.push(provisional_note());
        }
        Ok(Reply::text(lines.join("\n")))
    }

    /// `/leaderboard <variant>`: the ten best established ratings of a variant (each of its
    /// pools) on this server, and the provisional ones apart.
    pub async fn leaderboard(&self, place: &Place, variant: &str) -> Result<Reply, ServiceError> {
        let server = server_of(place, "leaderboards")?;
        let (info, pools) = ratings::pools_named(variant).map_err(ServiceError::Refused)?;
        let mut sections = Vec::new();
        for pool in &pools {
            let rows = self.store.pool_ratings(server, pool).await?;
            if rows.is_empty() {
                continue;
            }
            let (settled, provisional): (Vec<&RatingRow>, Vec<&RatingRow>) =
                rows.iter().partition(|r| !rating_of(r).is_provisional());
            let mut lines = vec![format!(
                "Leaderboard of {} on this server:",
                ratings::pool_title(pool)
            )];
            if settled.is_empty() {
                lines.push("No established rating yet.".to_string());
            }
            for (i, r) in settled.iter().take(LEADERBOARD_SIZE).enumerate() {
                lines.push(format!(
                    "{}. {} {} ({})",
                    i + 1,
                    r.user_name,
                    rating_of(r).shown(),
                    count(r.games, "rated game", "rated games")
                ));
            }
            if !provisional.is_empty() {
                let names: Vec<String> = provisional
                    .iter()
                    .take(LEADERBOARD_SIZE)
                    .map(|r| {
                        format!(
                            "{} {} ({})",
                            r.user_name,
                            rating_of(r).shown(),
                            count(r.games, "game", "games")
                        )
                    })
                    .collect();
                lines.push(format!(
                    "Provisional (deviation above {PROVISIONAL_DEVIATION}): {}.",
                    names.join(", ")
                ));
            }
            sections.push(lines.join("\n"));
        }
        if sections.is_empty() {
            return Ok(Reply::text(format!(
                "No rated game of {} has been finished on this server yet.",
                info.name
            )));
        }
        Ok(Reply::text(sections.join("\n")))
    }

    /// `/stats [user]`: a player's finished games on this server per variant (rated and casual:
    /// games, wins, draws, losses) with their ratings, and their games in progress.
    pub async fn stats(
        &self,
        user: &User,
        place: &Place,
        who: Option<Who>,
    ) -> Result<Reply, ServiceError> {
        let server = server_of(place, "statistics")?;
        let player = self.player(server, user, who).await?;
        let played = self.store.played_in(server, &player.id).await?;
        let rated = self.store.ratings_of(server, &player.id).await?;
        // Per variant id: games, wins, draws, losses.
        let mut tally: BTreeMap<String, [i64; 4]> = BTreeMap::new();
        let mut live: Vec<GameId> = Vec::new();
        for p in &played {
            match p.status {
                Status::Finished => {
                    let Some(outcome) = p
                        .result
                        .as_deref()
                        .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
                    else {
                        continue;
                    };
                    let counts = tally.entry(p.variant.clone()).or_default();
                    counts[0] += 1;
                    match Verdict::of(&outcome, Seat(p.seat)) {
                        Verdict::Win => counts[1] += 1,
                        Verdict::Draw => counts[2] += 1,
                        Verdict::Loss => counts[3] += 1,
                    }
                }
                Status::Open | Status::Active => live.push(p.game),
                Status::Aborted => {}
            }
        }
        let name = rated
            .first()
            .map_or_else(|| player.name.clone(), |r| r.user_name.clone());
        if tally.is_empty() && live.is_empty() {
            return Ok(Reply::text(format!(
                "{name} has played no game on this server yet."
            )));
        }
        let mut lines = vec![format!("Statistics of {name} on this server:")];
        for game in registry::variants() {
            let info = game.info();
            let pools = ratings::pools_of(info);
            let mine: Vec<&RatingRow> = rated.iter().filter(|r| pools.contains(&r.pool)).collect();
            let counts = tally.get(info.id);
            if counts.is_none() && mine.is_empty() {
                continue;
            }
            let [games, wins, draws, losses] = counts.copied().unwrap_or_default();
            let mut line = format!(
                "- {}: {} ({}, {}, {})",
                info.name,
                count(games, "game", "games"),
                count(wins, "win", "wins"),
                count(draws, "draw", "draws"),
                count(losses, "loss", "losses")
            );
            match mine.as_slice() {
                [] => line.push_str("; no rating yet"),
                [one] if one.pool == info.id => {
                    line.push_str(&format!("; rating {}", rating_of(one).shown()))
                }
                several => {
                    let shown: Vec<String> = several
                        .iter()
                        .map(|r| {
                            format!("{} {}", ratings::pool_title(&r.pool), rating_of(r).shown())
                        })
                        .collect();
                    line.push_str(&format!("; ratings {}", shown.join(", ")));
                }
            }
            lines.push(line);
        }
        lines.push(match live.as_slice() {
            [] => "No game in progress.".to_string(),
            games => {
                let links: Vec<String> = games.iter().map(|g| format!("{{#{g}}}")).collect();
                format!(
                    "In progress: {} ({}).",
                    count(games.len() as i64, "game", "games"),
                    links.join(", ")
                )
            }
        });
        if rated.iter().any(|r| rating_of(r).is_provisional()) {
            lines.push(provisional_note());
        }
        Ok(Reply::text(lines.join("\n")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rated_reads_yes_or_no() {
        assert!(parse_rated("yes").unwrap());
        assert!(!parse_rated("No").unwrap());
        assert!(parse_rated("maybe")
            .unwrap_err()
            .to_string()
            .contains("rated must be yes or no"));
    }

    #[test]
    fn a_position_of_ones_own_is_a_custom_start() {
        let options = |pairs: &[&str]| Options::parse(pairs).unwrap();
        assert!(custom_start(&options(&[
            "fen=8/8/8/8/8/8/8/K1k5 w - - 0 1"
        ])));
        assert!(custom_start(&options(&["start=518"])));
        assert!(!custom_start(&options(&["start=random"])));
        assert!(!custom_start(&options(&["board=cylinder"])));
    }
}

//! The SQL of rematches, takebacks and game histories (migration 0006).

use sqlx::{AnyConnection, Row};

use super::{game_row, DbError, GameSummary, Store};
use crate::model::GameId;

/// One line of a game's action log, with what the replay of a takeback needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedAction {
    /// The game's version after the action.
    pub version: i64,
    pub user_id: Option<String>,
    pub seat: Option<u8>,
    /// `move`, `secret`, `resign`, `timeout`, `draw-offer`, `join`, ...
    pub kind: String,
    /// A move's or secret's canonical text.
    pub text: String,
    pub created_at: i64,
    /// When a takeback undid it; `None` while it stands.
    pub undone_at: Option<i64>,
}

/// A request to take moves back (one row of `takebacks`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakebackRow {
    pub id: i64,
    pub game: GameId,
    /// The asker's user id.
    pub asker: String,
    pub asker_seat: u8,
    /// The version of the first action taken back: the asker's last action.
    pub undo_from: i64,
    /// The game's version once the request was made; an action after it lapses the request.
    pub asked_version: i64,
    /// The seats that accepted so far.
    pub accepted: Vec<u8>,
    pub status: TakebackStatus,
    /// Who declined, once someone did.
    pub answered_by: Option<String>,
}

/// Where a takeback request stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackStatus {
    /// Waiting for answers.
    Pending,
    /// Accepted by everyone and carried out.
    Done,
    /// Someone declined.
    Declined,
    /// An action was played before everyone had answered.
    Lapsed,
}

impl TakebackStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TakebackStatus::Pending => "pending",
            TakebackStatus::Done => "done",
            TakebackStatus::Declined => "declined",
            TakebackStatus::Lapsed => "lapsed",
        }
    }
    pub fn parse(s: &str) -> TakebackStatus {
        match s {
            "pending" => TakebackStatus::Pending,
            "done" => TakebackStatus::Done,
            "declined" => TakebackStatus::Declined,
            _ => TakebackStatus::Lapsed,
        }
    }
}

/// When a game was made, started and last changed, and how many actions stand in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTimes {
    pub created_at: i64,
    /// The last change: for a finished game, when it ended.
    pub updated_at: i64,
    /// When the last seat was taken (or the creator started it); `None` before it started.
    pub started_at: Option<i64>,
    /// Moves and secret choices played and not taken back.
    pub moves: i64,
    /// Takebacks carried out.
    pub takebacks: i64,
}

/// A page of finished games, newest first, and how many there are in all.
#[derive(Clone, Debug)]
pub struct HistoryPage {
    pub games: Vec<(GameSummary, GameTimes)>,
    pub total: i64,
}

/// What a page of history is filtered by.
#[derive(Clone, Copy, Debug)]
pub struct HistoryFilter<'a> {
    /// Games this user sat in.
    pub user: &'a str,
    /// Games of this server only (`None`: every server).
    pub server: Option<&'a str>,
    /// Games of this variant only (its id).
    pub variant: Option<&'a str>,
}

impl Store {
    // ---- rematches ----------------------------------------------------------------------------

    /// The newest rematch made of `game`, if any.
    pub async fn rematch_made_of(
        conn: &mut AnyConnection,
        game: GameId,
    ) -> Result<Option<GameId>, DbError> {
        let row =
            sqlx::query("SELECT id FROM games WHERE rematch_of = $1 ORDER BY id DESC LIMIT 1")
                .bind(game.0)
                .fetch_optional(&mut *conn)
                .await?;
        Ok(row.map(|r| GameId(r.get(0))))
    }

    /// The game that `game` is a rematch of, if it is one.
    pub async fn rematch_source(
        conn: &mut AnyConnection,
        game: GameId,
    ) -> Result<Option<GameId>, DbError> {
        let row = sqlx::query("SELECT rematch_of FROM games WHERE id = $1")
            .bind(game.0)
            .fetch_optional(&mut *conn)
            .await?;
        Ok(row.and_then(|r| r.get::<Option<i64>, _>(0)).map(GameId))
    }

    /// [`Store::rematch_source`] outside a transaction.
    pub async fn rematch_source_of(&self, game: GameId) -> Result<Option<GameId>, DbError> {
        let mut conn = self.reader.acquire().await?;
        Store::rematch_source(&mut conn, game).await
    }

    /// [`Store::rematch_made_of`] outside a transaction.
    pub async fn rematch_of_game(&self, game: GameId) -> Result<Option<GameId>, DbError> {
        let mut conn = self.reader.acquire().await?;
        Store::rematch_made_of(&mut conn, game).await
    }

    /// Marks `rematch` as the rematch of `game`.
    pub async fn set_rematch_of(
        tx: &mut AnyConnection,
        rematch: GameId,
        game: GameId,
    ) -> Result<(), DbError> {
        sqlx::query("UPDATE games SET rematch_of = $1 WHERE id = $2")
            .bind(game.0)
            .bind(rematch.0)
            .execute(&mut *tx)
            .await?;
        Ok(())
    }

    /// Records that `user` asked for `rematch` of `game` (again, after leaving it: the time is
    /// renewed).
    pub async fn add_rematch_ask(
        tx: &mut AnyConnection,
        game: GameId,
        rematch: GameId,
        user: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO rematch_asks (game_id, rematch_id, user_id, created_at)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (rematch_id, user_id)
             DO UPDATE SET game_id = excluded.game_id, created_at = excluded.created_at",
        )
        .bind(game.0)
        .bind(rematch.0)
        .bind(user)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }

    /// The users who asked for `rematch`, in the order they asked.
    pub async fn rematch_askers(
        conn: &mut AnyConnection,
        rematch: GameId,
    ) -> Result<Vec<String>, DbError> {
        let rows = sqlx::query(
            "SELECT user_id FROM rematch_asks WHERE rematch_id = $1 ORDER BY created_at, user_id",
        )
        .bind(rematch.0)
        .fetch_all(&mut *conn)
        .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    // ---- takebacks ----------------------------------------------------------------------------

    /// A game's newest takeback request, whatever became of it.
    pub async fn latest_takeback(
        conn: &mut AnyConnection,
        game: GameId,
    ) -> Result<Option<TakebackRow>, DbError> {
        let row = sqlx::query(
            "SELECT id, game_id, asker, asker_seat, undo_from, asked_version, accepted, status,
                    answered_by
             FROM takebacks WHERE game_id = $1 ORDER BY id DESC LIMIT 1",
        )
        .bind(game.0)
        .fetch_optional(&mut *conn)
        .await?;
        Ok(row.map(|r| TakebackRow {
            id: r.get(0),
            game: GameId(r.get(1)),
            asker: r.get(2),
            asker_seat: r.get::<i64, _>(3) as u8,
            undo_from: r.get(4),
            asked_version: r.get(5),
            accepted: serde_json::from_str(&r.get::<String, _>(6)).unwrap_or_default(),
            status: TakebackStatus::parse(&r.get::<String, _>(7)),
            answered_by: r.get(8),
        }))
    }

    /// Records a new takeback request; returns its id.
    pub async fn insert_takeback(
        tx: &mut AnyConnection,
        t: &TakebackRow,
        now: i64,
    ) -> Result<i64, DbError> {
        let id = sqlx::query(
            "INSERT INTO takebacks (game_id, asker, asker_seat, undo_from, asked_version, accepted,
                                    status, answered_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             RETURNING id",
        )
        .bind(t.game.0)
        .bind(&t.asker)
        .bind(t.asker_seat as i64)
        .bind(t.undo_from)
        .bind(t.asked_version)
        .bind(serde_json::to_string(&t.accepted).unwrap_or_else(|_| "[]".into()))
        .bind(t.status.as_str())
        .bind(&t.answered_by)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        Ok(id)
    }

    /// Writes a request's answers and status.
    pub async fn update_takeback(
        tx: &mut AnyConnection,
        t: &TakebackRow,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE takebacks SET accepted = $1, status = $2, answered_by = $3, answered_at = $4
             WHERE id = $5",
        )
        .bind(serde_json::to_string(&t.accepted).unwrap_or_else(|_| "[]".into()))
        .bind(t.status.as_str())
        .bind(&t.answered_by)
        .bind(now)
        .bind(t.id)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }

    /// A game's whole log, oldest first, undone actions included.
    pub async fn logged_actions(
        conn: &mut AnyConnection,
        game: GameId,
    ) -> Result<Vec<LoggedAction>, DbError> {
        let rows = sqlx::query(
            "SELECT version, user_id, seat, kind, text, created_at, undone_at
             FROM actions WHERE game_id = $1 ORDER BY version",
        )
        .bind(game.0)
        .fetch_all(&mut *conn)
        .await?;
        Ok(rows
            .iter()
            .map(|r| LoggedAction {
                version: r.get(0),
                user_id: r.get(1),
                seat: r.get::<Option<i64>, _>(2).map(|s| s as u8),
                kind: r.get(3),
                text: r.get(4),
                created_at: r.get(5),
                undone_at: r.get(6),
            })
            .collect())
    }

    /// Marks the moves and secret choices from `from_version` on as taken back; returns how
    /// many were.
    pub async fn mark_undone(
        tx: &mut AnyConnection,
        game: GameId,
        from_version: i64,
        now: i64,
    ) -> Result<u64, DbError> {
        let done = sqlx::query(
            "UPDATE actions SET undone_at = $1
             WHERE game_id = $2 AND version >= $3 AND kind IN ('move', 'secret') AND undone_at IS NULL",
        )
        .bind(now)
        .bind(game.0)
        .bind(from_version)
        .execute(&mut *tx)
        .await?;
        Ok(done.rows_affected())
    }

    // ---- histories ----------------------------------------------------------------------------

    /// The id and latest name of a player known by id or, failing that, by name (any case).
    pub async fn player(&self, id_or_name: &str) -> Result<Option<(String, String)>, DbError> {
        let by_id = sqlx::query(
            "SELECT user_id, user_name FROM seats WHERE user_id = $1 ORDER BY game_id DESC LIMIT 1",
        )
        .bind(id_or_name)
        .fetch_optional(&self.reader)
        .await?;
        let row = match by_id {
            Some(row) => Some(row),
            None => {
                sqlx::query(
                    "SELECT user_id, user_name FROM seats WHERE lower(user_name) = lower($1)
                     AND computer IS NULL ORDER BY game_id DESC LIMIT 1",
                )
                .bind(id_or_name)
                .fetch_optional(&self.reader)
                .await?
            }
        };
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// A page of the finished games a user played, newest ending first, with their seats and
    /// times, and how many such games there are.
    pub async fn finished_games(
        &self,
        filter: HistoryFilter<'_>,
        limit: i64,
        offset: i64,
    ) -> Result<HistoryPage, DbError> {
        const WHERE: &str = "FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = $1 AND g.status = 'finished'
               AND (CAST($2 AS TEXT) IS NULL OR g.server = $2)
               AND (CAST($3 AS TEXT) IS NULL OR g.variant = $3)";
        let total: i64 = sqlx::query(&format!("SELECT COUNT(*) {WHERE}"))
            .bind(filter.user)
            .bind(filter.server)
            .bind(filter.variant)
            .fetch_one(&self.reader)
            .await?
            .get(0);
        let rows = sqlx::query(&format!(
            "SELECT g.* {WHERE} ORDER BY g.updated_at DESC, g.id DESC LIMIT $4 OFFSET $5"
        ))
        .bind(filter.user)
        .bind(filter.server)
        .bind(filter.variant)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.reader)
        .await?;
        let mut games = Vec::new();
        for summary in self.summaries(rows).await? {
            let times = self.game_times(summary.game.id).await?;
            games.push((summary, times));
        }
        Ok(HistoryPage { games, total })
    }

    /// A game with its seats and times, for `/game`.
    pub async fn game_summary(
        &self,
        id: GameId,
    ) -> Result<Option<(GameSummary, GameTimes)>, DbError> {
        let row = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.reader)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let game = game_row(&row)?;
        let seats = self.seats_of(id).await?;
        let times = self.game_times(id).await?;
        Ok(Some((GameSummary { game, seats }, times)))
    }

    /// When a game was made, started and last changed, and its count of moves.
    pub async fn game_times(&self, id: GameId) -> Result<GameTimes, DbError> {
        let row = sqlx::query(
            "SELECT g.created_at, g.updated_at,
                    (SELECT MAX(created_at) FROM actions
                      WHERE game_id = g.id AND kind IN ('join', 'addbot', 'start')),
                    (SELECT COUNT(*) FROM actions
                      WHERE game_id = g.id AND kind IN ('move', 'secret') AND undone_at IS NULL),
                    (SELECT COUNT(*) FROM actions WHERE game_id = g.id AND kind = 'takeback'),
                    g.status
             FROM games g WHERE g.id = $1",
        )
        .bind(id.0)
        .fetch_one(&self.reader)
        .await?;
        // A game still waiting for players (or called off before it began) has taken seats,
        // but has not started.
        let status: String = row.get(5);
        let started = status == "active" || status == "finished";
        let created_at: i64 = row.get(0);
        let last_seat: Option<i64> = row.get(2);
        Ok(GameTimes {
            created_at,
            updated_at: row.get(1),
            started_at: started.then_some(last_seat.unwrap_or(created_at)),
            moves: row.get(3),
            takebacks: row.get(4),
        })
    }
}

//! All SQL lives here, for two backends behind one interface: SQLite (the embedded default, a
//! file the bot creates) and PostgreSQL (for several processes sharing one database). Both run
//! the same runtime queries through sqlx's `Any` driver, written in the SQL the two share
//! (`$1` parameters, `RETURNING`, `ON CONFLICT`); each has its own migrations
//! (`migrations/` and `migrations/postgres/`), kept in step by a test that compares the two
//! schemas. With SQLite, writes go through a single-connection pool, so transactions never race
//! each other for its write lock, and reads use a separate pool.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use engine::ai::Level;
use engine::game::Options;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyConnection, AnyPool, Executor, Row};

use crate::model::{Button, GameId, Pending, Post, Status, Target, User};

mod history;
pub use history::{
    GameTimes, HistoryFilter, HistoryPage, LoggedAction, TakebackRow, TakebackStatus,
};
mod shards;
pub use shards::ShardClaim;

/// The lock file beside an SQLite database.
fn lock_path(db: &Path) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    name.into()
}

/// A database error: always an internal problem, never the user's.
pub type DbError = sqlx::Error;

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a `--db` value names: a `postgres://` (or `postgresql://`) URL, else an
    /// SQLite file's path (or an `sqlite:` URL).
    pub fn of(db: &str) -> Backend {
        if db.starts_with("postgres://") || db.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// Whether `db` is a URL of a database Rookery does not know (`mysql://`, `postgre://`):
    /// refused before anything is made, rather than taken for a file's name.
    pub fn unknown_scheme(db: &str) -> Option<&str> {
        let (scheme, _) = db.split_once("://")?;
        let known = ["postgres", "postgresql", "sqlite"];
        (!known.contains(&scheme)).then_some(scheme)
    }
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    writer: AnyPool,
    reader: AnyPool,
    backend: Backend,
    /// SQLite's file serves one process: a lock on `FILE.lock`, held until the store closes.
    owner: Option<Arc<std::sync::Mutex<Option<std::fs::File>>>>,
}

/// Another process holds an SQLite database (see [`Store::open`]).
#[derive(Debug)]
pub struct InUse(pub String);

impl std::fmt::Display for InUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "another Rookery process is using {}: an SQLite file serves one process (stop the \
             other one, or share a PostgreSQL database between processes)",
            self.0
        )
    }
}

impl std::error::Error for InUse {}

/// A write transaction.
pub type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// One row of `games`.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: GameId,
    pub variant: String,
    pub options: Options,
    pub seat_count: usize,
    /// `random` or `joined`: how players are seated when the game starts.
    pub seating: String,
    pub status: Status,
    pub state: Option<String>,
    pub version: i64,
    pub seed: u64,
    pub creator: String,
    /// The server (guild) the game was created in.
    pub server: String,
    pub channel: String,
    pub thread: Option<String>,
    pub days_per_move: Option<i64>,
    pub deadline: Option<i64>,
    pub reminded: bool,
    pub draw_agreed: Vec<u8>,
    pub result: Option<String>,
}

impl GameRow {
    /// When the player to move is reminded: a quarter of the time a move before the deadline;
    /// none for a game without a clock.
    pub fn reminder_at(&self) -> Option<i64> {
        Some(self.deadline? - self.days_per_move? * 86_400 / 4)
    }

    /// When the game's clock next needs attention: its reminder until that is sent, then its
    /// deadline; none for a game not being played or without a clock. Kept on the row
    /// (`next_clock_at`, indexed) so the clocks due are found directly.
    pub fn next_clock_at(&self) -> Option<i64> {
        if self.status != Status::Active {
            return None;
        }
        if self.reminded {
            self.reminder_at().and(self.deadline)
        } else {
            self.reminder_at()
        }
    }
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: u8,
    pub user_id: String,
    pub user_name: String,
    /// The level of a computer player's seat; `None` for a person.
    pub computer: Option<Level>,
}

/// A game with its seats, for listings.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub game: GameRow,
    pub seats: Vec<SeatRow>,
}

/// A game whose clock needs attention.
#[derive(Clone, Copy, Debug)]
pub struct ClockDue {
    pub game: GameId,
    pub deadline: i64,
    pub days_per_move: i64,
    pub reminded: bool,
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and brings its schema up to
    /// date. A second process on the same file is refused ([`InUse`]) rather than left to race
    /// the first.
    pub async fn open(path: &Path) -> Result<Store, DbError> {
        // Claimed before anything is read or migrated, so a second process changes nothing.
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(DbError::Io)?;
            }
        }
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_path(path))
            .map_err(DbError::Io)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(DbError::Configuration(Box::new(InUse(
                    path.display().to_string(),
                ))));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(DbError::Io(e)),
        }
        let mut store = Store::open_shared(path).await?;
        store.owner = Some(Arc::new(std::sync::Mutex::new(Some(lock))));
        Ok(store)
    }

    /// Opens an SQLite database without claiming it (migrations run as in [`Store::open`]): for
    /// tools that look into a database another process runs on (tests watching a running bot),
    /// never for a second bot, whose writes would race the first's.
    pub async fn open_shared(path: &Path) -> Result<Store, DbError> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(DbError::Io)?;
            }
        }
        sqlx::any::install_default_drivers();
        let url = format!("sqlite://{}", path.display());
        let writer = AnyPoolOptions::new()
            .max_connections(1)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    // Every commit reaches the disk: nothing a player did is lost, even on
                    // power loss.
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
                    )
                    .await?;
                    Ok(())
                })
            })
            .connect(&format!("{url}?mode=rwc"))
            .await?;
        sqlx::migrate!("../migrations").run(&writer).await?;
        let reader = AnyPoolOptions::new()
            .max_connections(4)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;")
                        .await?;
                    Ok(())
                })
            })
            .connect(&format!("{url}?mode=ro"))
            .await?;
        Ok(Store {
            writer,
            reader,
            backend: Backend::Sqlite,
            owner: None,
        })
    }

    /// Opens the database `db` names (see [`Backend::of`]) and brings its schema up to date.
    pub async fn connect(db: &str) -> Result<Store, DbError> {
        if let Some(scheme) = Backend::unknown_scheme(db) {
            return Err(DbError::Configuration(
                format!("`{scheme}://` is not a database Rookery knows").into(),
            ));
        }
        match Backend::of(db) {
            Backend::Sqlite => {
                let path = db
                    .strip_prefix("sqlite://")
                    .or_else(|| db.strip_prefix("sqlite:"))
                    .unwrap_or(db);
                Store::open(Path::new(path)).await
            }
            Backend::Postgres => {
                sqlx::any::install_default_drivers();
                // One pool for both: PostgreSQL runs concurrent writers itself, and a game's
                // row lock (taken when a game is loaded for a change) orders writes to it.
                let pool = AnyPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(db)
                    .await?;
                sqlx::migrate!("../migrations/postgres").run(&pool).await?;
                Ok(Store {
                    writer: pool.clone(),
                    reader: pool,
                    backend: Backend::Postgres,
                    owner: None,
                })
            }
        }
    }

    /// The database this store runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Starts a write transaction.
    pub async fn begin(&self) -> Result<Tx, DbError> {
        self.writer.begin().await
    }

    /// Checkpoints the log into the file, closes both pools and lets another process have the
    /// database.
    pub async fn close(&self) {
        if let Err(e) = self.checkpoint().await {
            tracing::warn!("checkpoint on close: {e}");
        }
        self.close_pools().await;
        if let Some(owner) = &self.owner {
            if let Ok(mut lock) = owner.lock() {
                // Dropping the file releases the lock.
                lock.take();
            }
        }
    }

    async fn close_pools(&self) {
        self.writer.close().await;
        self.reader.close().await;
    }

    // ---- games ------------------------------------------------------------------------------

    pub async fn insert_game(
        tx: &mut AnyConnection,
        g: &GameRow,
        now: i64,
    ) -> Result<GameId, DbError> {
        let id = sqlx::query(
            "INSERT INTO games (variant, options, seat_count, seating, status, state, version, seed, creator,
                server, channel, thread, days_per_move, deadline, reminded, draw_agreed, result, created_at,
                updated_at, next_clock_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
                $20)
             RETURNING id",
        )
        .bind(&g.variant)
        .bind(serde_json::to_string(&g.options).unwrap_or_else(|_| "{}".into()))
        .bind(g.seat_count as i64)
        .bind(&g.seating)
        .bind(g.status.as_str())
        .bind(&g.state)
        .bind(g.version)
        .bind(g.seed as i64)
        .bind(&g.creator)
        .bind(&g.server)
        .bind(&g.channel)
        .bind(&g.thread)
        .bind(g.days_per_move)
        .bind(g.deadline)
        .bind(i64::from(g.reminded))
        .bind(serde_json::to_string(&g.draw_agreed).unwrap_or_else(|_| "[]".into()))
        .bind(&g.result)
        .bind(now)
        .bind(now)
        .bind(g.next_clock_at())
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        Ok(GameId(id))
    }

    /// Writes a changed game if nobody else changed it since `expected_version`.
    /// Returns false (and writes nothing) on a conflict.
    pub async fn update_game(
        tx: &mut AnyConnection,
        g: &GameRow,
        expected_version: i64,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE games SET seat_count = $1, creator = $2, status = $3, state = $4, version = $5, thread = $6,
                deadline = $7, reminded = $8, draw_agreed = $9, result = $10, updated_at = $11,
                next_clock_at = $14
             WHERE id = $12 AND version = $13",
        )
        .bind(g.seat_count as i64)
        .bind(&g.creator)
        .bind(g.status.as_str())
        .bind(&g.state)
        .bind(g.version)
        .bind(&g.thread)
        .bind(g.deadline)
        .bind(i64::from(g.reminded))
        .bind(serde_json::to_string(&g.draw_agreed).unwrap_or_else(|_| "[]".into()))
        .bind(&g.result)
        .bind(now)
        .bind(g.id.0)
        .bind(expected_version)
        .bind(g.next_clock_at())
        .execute(&mut *tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Loads a game.
    pub async fn load_game(tx: &mut AnyConnection, id: GameId) -> Result<Option<GameRow>, DbError> {
        Store::load_game_as(tx, id, "SELECT * FROM games WHERE id = $1").await
    }

    /// Loads a game in a transaction that will change it. On PostgreSQL the row stays locked
    /// until the transaction ends, so a game's actions are serialised across processes by the
    /// database itself (SQLite has one writer, and one process on its file).
    pub async fn load_game_for_update(
        tx: &mut AnyConnection,
        id: GameId,
    ) -> Result<Option<GameRow>, DbError> {
        let sql = if tx.backend_name() == <sqlx::Postgres as sqlx::Database>::NAME {
            "SELECT * FROM games WHERE id = $1 FOR UPDATE"
        } else {
            "SELECT * FROM games WHERE id = $1"
        };
        Store::load_game_as(tx, id, sql).await
    }

    async fn load_game_as(
        tx: &mut AnyConnection,
        id: GameId,
        sql: &str,
    ) -> Result<Option<GameRow>, DbError> {
        let row = sqlx::query(sql).bind(id.0).fetch_optional(&mut *tx).await?;
        row.map(|r| game_row(&r)).transpose()
    }

    pub async fn game(&self, id: GameId) -> Result<Option<GameRow>, DbError> {
        let mut conn = self.reader.acquire().await?;
        Store::load_game(&mut conn, id).await
    }

    /// The game whose thread is `thread`.
    pub async fn game_by_thread(&self, thread: &str) -> Result<Option<GameId>, DbError> {
        let row = sqlx::query("SELECT id FROM games WHERE thread = $1")
            .bind(thread)
            .fetch_optional(&self.reader)
            .await?;
        Ok(row.map(|r| GameId(r.get(0))))
    }

    /// Games announced in `channel` that are still waiting for players, oldest first; a
    /// rematch waits for its own players only, so it is not among them.
    pub async fn open_games_in(&self, channel: &str) -> Result<Vec<GameId>, DbError> {
        let rows =
            sqlx::query("SELECT id FROM games WHERE channel = $1 AND status = 'open' AND rematch_of IS NULL ORDER BY id")
                .bind(channel)
                .fetch_all(&self.reader)
                .await?;
        Ok(rows.iter().map(|r| GameId(r.get(0))).collect())
    }

    /// Records the thread a frontend made for a game.
    /// Forgets a game's thread (it was deleted), so the next post makes a new one.
    pub async fn clear_thread(&self, id: GameId) -> Result<(), DbError> {
        sqlx::query("UPDATE games SET thread = NULL WHERE id = $1")
            .bind(id.0)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    pub async fn set_thread(&self, id: GameId, thread: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE games SET thread = $1 WHERE id = $2 AND thread IS NULL")
            .bind(thread)
            .bind(id.0)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Games a user sits in, newest first; `live_only` keeps open and active ones.
    pub async fn games_of(&self, user: &str, live_only: bool) -> Result<Vec<GameSummary>, DbError> {
        let sql = if live_only {
            "SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = $1 AND g.status IN ('open', 'active') ORDER BY g.id DESC LIMIT 50"
        } else {
            "SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = $1 ORDER BY g.id DESC LIMIT 50"
        };
        let rows = sqlx::query(sql).bind(user).fetch_all(&self.reader).await?;
        self.summaries(rows).await
    }

    /// Games being played with at least one computer seat, oldest first: where a computer
    /// may have a turn to play.
    pub async fn active_games_with_computers(&self) -> Result<Vec<GameId>, DbError> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id
             WHERE g.status = 'active' AND s.computer IS NOT NULL ORDER BY g.id",
        )
        .fetch_all(&self.reader)
        .await?;
        Ok(rows.iter().map(|r| GameId(r.get(0))).collect())
    }

    /// Game rows with their seats.
    async fn summaries(&self, rows: Vec<sqlx::any::AnyRow>) -> Result<Vec<GameSummary>, DbError> {
        let mut out = Vec::new();
        let mut conn = self.reader.acquire().await?;
        for r in rows {
            let game = game_row(&r)?;
            let seats = Store::seats(&mut conn, game.id).await?;
            out.push(GameSummary { game, seats });
        }
        Ok(out)
    }

    /// The finished games of `variant` played in `server`, newest first (at most `limit`), with
    /// their seats: what a server's table of best scores is made from.
    pub async fn finished_in_server(
        &self,
        server: &str,
        variant: &str,
        limit: i64,
    ) -> Result<Vec<GameSummary>, DbError> {
        let rows = sqlx::query(
            "SELECT * FROM games WHERE server = $1 AND variant = $2 AND status = 'finished'
             ORDER BY id DESC LIMIT $3",
        )
        .bind(server)
        .bind(variant)
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        self.summaries(rows).await
    }

    /// Active games whose reminder or deadline has come.
    pub async fn clocks_due(&self, now: i64) -> Result<Vec<ClockDue>, DbError> {
        let rows = sqlx::query(
            // next_clock_at is set only for active games with a clock, so it alone picks them
            // (and the planner takes its index, not the one on status).
            "SELECT id, deadline, days_per_move, reminded FROM games WHERE next_clock_at <= $1",
        )
        .bind(now)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .iter()
            .map(|r| ClockDue {
                game: GameId(r.get(0)),
                deadline: r.get(1),
                days_per_move: r.get(2),
                reminded: r.get::<i64, _>(3) != 0,
            })
            .collect())
    }

    /// The soonest moment a clock will need attention, if any clock runs.
    pub async fn next_clock_event(&self) -> Result<Option<i64>, DbError> {
        let row = sqlx::query("SELECT MIN(next_clock_at) FROM games")
            .fetch_one(&self.reader)
            .await?;
        Ok(row.get::<Option<i64>, _>(0))
    }

    // ---- seats ------------------------------------------------------------------------------

    pub async fn seats(conn: &mut AnyConnection, id: GameId) -> Result<Vec<SeatRow>, DbError> {
        let rows = sqlx::query(
            "SELECT seat, user_id, user_name, computer FROM seats WHERE game_id = $1 ORDER BY seat",
        )
        .bind(id.0)
        .fetch_all(&mut *conn)
        .await?;
        Ok(rows
            .iter()
            .map(|r| SeatRow {
                seat: r.get::<i64, _>(0) as u8,
                user_id: r.get(1),
                user_name: r.get(2),
                computer: r
                    .get::<Option<String>, _>(3)
                    .and_then(|level| level.parse().ok()),
            })
            .collect())
    }

    pub async fn seats_of(&self, id: GameId) -> Result<Vec<SeatRow>, DbError> {
        let mut conn = self.reader.acquire().await?;
        Store::seats(&mut conn, id).await
    }

    /// Replaces a game's seats (joins, leaves and the shuffle at the start).
    pub async fn set_seats(
        tx: &mut AnyConnection,
        id: GameId,
        seats: &[SeatRow],
    ) -> Result<(), DbError> {
        sqlx::query("DELETE FROM seats WHERE game_id = $1")
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        for s in seats {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, user_id, user_name, computer) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id.0)
            .bind(s.seat as i64)
            .bind(&s.user_id)
            .bind(&s.user_name)
            .bind(s.computer.map(|level| level.name()))
            .execute(&mut *tx)
            .await?;
        }
        Ok(())
    }

    // ---- the action log ----------------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    pub async fn log_action(
        tx: &mut AnyConnection,
        id: GameId,
        version: i64,
        user: Option<&str>,
        seat: Option<u8>,
        kind: &str,
        text: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO actions (game_id, version, user_id, seat, kind, text, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id.0)
        .bind(version)
        .bind(user)
        .bind(seat.map(|s| s as i64))
        .bind(kind)
        .bind(text)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }

    /// A game's log as (version, kind, text), oldest first.
    pub async fn actions(&self, id: GameId) -> Result<Vec<(i64, String, String)>, DbError> {
        let rows = sqlx::query(
            "SELECT version, kind, text FROM actions WHERE game_id = $1 ORDER BY version",
        )
        .bind(id.0)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    /// A game's log as it stands, oldest first, with who acted and when: what exports and
    /// replays are made from (actions a takeback undid are left out).
    pub async fn action_log(&self, id: GameId) -> Result<Vec<LoggedAction>, DbError> {
        let mut conn = self.reader.acquire().await?;
        let mut log = Store::logged_actions(&mut conn, id).await?;
        log.retain(|a| a.undone_at.is_none());
        Ok(log)
    }

    // ---- the outbox ---------------------------------------------------------------------------

    pub async fn push_post(
        tx: &mut AnyConnection,
        game: Option<GameId>,
        post: &Post,
        now: i64,
    ) -> Result<(), DbError> {
        let (kind, target) = match &post.target {
            Target::Channel(c) => ("channel", c.clone()),
            Target::GameThread(g) => ("thread", g.0.to_string()),
            Target::Direct(u) => ("dm", u.clone()),
        };
        sqlx::query(
            "INSERT INTO outbox (game_id, target_kind, target, body, image, buttons, choices,
                                 thread_anchor, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game.map(|g| g.0))
        .bind(kind)
        .bind(target)
        .bind(&post.text)
        .bind(&post.image)
        .bind(serde_json::to_string(&post.buttons).unwrap_or_else(|_| "[]".into()))
        .bind(serde_json::to_string(&post.choices).unwrap_or_else(|_| "[]".into()))
        .bind(i64::from(post.thread_anchor))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }

    /// Undelivered posts, oldest first, whether or not their time has come.
    pub async fn pending(&self, limit: i64) -> Result<Vec<Pending>, DbError> {
        let rows = sqlx::query(
            "SELECT id, game_id, target_kind, target, body, image, buttons, choices, thread_anchor,
                    not_before, attempts, sent_as
             FROM outbox WHERE delivered_at IS NULL ORDER BY id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let kind: String = r.get(2);
                let target: String = r.get(3);
                let target = match kind.as_str() {
                    "channel" => Target::Channel(target),
                    "thread" => Target::GameThread(GameId(target.parse().ok()?)),
                    _ => Target::Direct(target),
                };
                let buttons: Vec<Button> =
                    serde_json::from_str(&r.get::<String, _>(6)).unwrap_or_default();
                let choices: Vec<String> =
                    serde_json::from_str(&r.get::<String, _>(7)).unwrap_or_default();
                Some(Pending {
                    id: r.get(0),
                    game: r.get::<Option<i64>, _>(1).map(GameId),
                    post: Post {
                        target,
                        text: r.get(4),
                        image: r.get(5),
                        buttons,
                        choices,
                        thread_anchor: r.get::<i64, _>(8) != 0,
                    },
                    not_before: r.get(9),
                    attempts: r.get(10),
                    sent_as: r.get(11),
                })
            })
            .collect())
    }

    pub async fn mark_delivered(&self, id: i64, now: i64) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE outbox SET delivered_at = $1, image = NULL WHERE id = $2 AND delivered_at IS NULL",
        )
            .bind(now)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Counts a failed attempt and sets when the next may be made.
    pub async fn mark_attempt(&self, id: i64, not_before: i64) -> Result<i64, DbError> {
        let row = sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, not_before = $1 WHERE id = $2 RETURNING attempts",
        )
        .bind(not_before)
        .bind(id)
        .fetch_one(&self.writer)
        .await?;
        Ok(row.get(0))
    }

    /// Sets a post aside for good, keeping why it could not be delivered.
    pub async fn mark_failed(&self, id: i64, why: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE outbox SET delivered_at = $1, failure = $2 WHERE id = $3")
            .bind(now)
            .bind(why)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// The earliest time an undelivered post may next be tried (0: now), if any waits.
    pub async fn next_delivery(&self) -> Result<Option<i64>, DbError> {
        let row = sqlx::query("SELECT MIN(not_before) FROM outbox WHERE delivered_at IS NULL")
            .fetch_one(&self.reader)
            .await?;
        Ok(row.get(0))
    }

    /// Notes the frontend's id of the message a post became, before the rest of its delivery.
    pub async fn set_sent_as(&self, id: i64, message: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE outbox SET sent_as = $1 WHERE id = $2")
            .bind(message)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Folds the write-ahead log into the database file, so the `.db` file alone holds every
    /// game (an admin copying it copies everything) and the log does not grow without bound.
    pub async fn checkpoint(&self) -> Result<(), DbError> {
        if self.backend == Backend::Sqlite {
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&self.writer)
                .await?;
        }
        Ok(())
    }

    // ---- leases: work one process does at a time -------------------------------------------

    /// Takes or renews the lease `name` for `owner` until `until`, unless another owner holds
    /// it past `now`. Returns whether `owner` holds it. One statement, so two processes asking
    /// at once cannot both get it (PostgreSQL's row lock on the conflict, SQLite's one writer).
    pub async fn take_lease(
        &self,
        name: &str,
        owner: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO leases (name, owner, held_until) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, held_until = excluded.held_until
             WHERE leases.owner = excluded.owner OR leases.held_until < $4",
        )
        .bind(name)
        .bind(owner)
        .bind(until)
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives the lease `name` up, if `owner` holds it, so another process may take it at once.
    pub async fn release_lease(&self, name: &str, owner: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM leases WHERE name = $1 AND owner = $2")
            .bind(name)
            .bind(owner)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// The database's size in bytes as PostgreSQL counts it (`rookery loadtest`). `None` on
    /// SQLite, whose size is its files' on disk (the database file and its `-wal` log).
    pub async fn database_size(&self) -> Result<Option<i64>, DbError> {
        if self.backend != Backend::Postgres {
            return Ok(None);
        }
        let row = sqlx::query("SELECT pg_database_size(current_database())")
            .fetch_one(&self.reader)
            .await?;
        Ok(Some(row.try_get::<i64, _>(0)?))
    }

    // ---- the inbox of undeliverable direct messages -------------------------------------------

    pub async fn keep_in_inbox(
        &self,
        user: &str,
        game: Option<GameId>,
        post: &Post,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO inbox (user_id, game_id, body, image, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(user)
        .bind(game.map(|g| g.0))
        .bind(&post.text)
        .bind(&post.image)
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Unread kept messages of a user (oldest first), marking them read.
    pub async fn take_inbox(
        &self,
        user: &str,
        now: i64,
    ) -> Result<Vec<(Option<GameId>, String, Option<Vec<u8>>)>, DbError> {
        // One statement marks and returns them: a message kept meanwhile is either among them
        // or left for the next `/inbox`, and two processes never both hand one out.
        let rows = sqlx::query(
            "UPDATE inbox SET read_at = $1 WHERE user_id = $2 AND read_at IS NULL
             RETURNING id, game_id, body, image",
        )
        .bind(now)
        .bind(user)
        .fetch_all(&self.writer)
        .await?;
        // RETURNING gives no order; they are read oldest first.
        let mut rows: Vec<&sqlx::any::AnyRow> = rows.iter().collect();
        rows.sort_by_key(|r| r.get::<i64, _>(0));
        Ok(rows
            .into_iter()
            .map(|r| (r.get::<Option<i64>, _>(1).map(GameId), r.get(2), r.get(3)))
            .collect())
    }
}

fn game_row(r: &sqlx::any::AnyRow) -> Result<GameRow, DbError> {
    let options: String = r.try_get("options")?;
    let draw: String = r.try_get("draw_agreed")?;
    Ok(GameRow {
        id: GameId(r.try_get("id")?),
        variant: r.try_get("variant")?,
        options: serde_json::from_str(&options).unwrap_or_default(),
        seat_count: r.try_get::<i64, _>("seat_count")? as usize,
        seating: r.try_get("seating")?,
        status: Status::parse(&r.try_get::<String, _>("status")?),
        state: r.try_get("state")?,
        version: r.try_get("version")?,
        seed: r.try_get::<i64, _>("seed")? as u64,
        creator: r.try_get("creator")?,
        server: r.try_get("server")?,
        channel: r.try_get("channel")?,
        thread: r.try_get("thread")?,
        days_per_move: r.try_get("days_per_move")?,
        deadline: r.try_get("deadline")?,
        reminded: r.try_get::<i64, _>("reminded")? != 0,
        draw_agreed: serde_json::from_str(&draw).unwrap_or_default(),
        result: r.try_get("result")?,
    })
}

// ---- ratings ------------------------------------------------------------------------------------

/// One player's rating in one pool of one server (see `crate::ratings`).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub server: String,
    pub pool: String,
    pub user_id: String,
    /// The name at the player's latest rated game.
    pub user_name: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted in this rating, and how they ended for the player.
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub updated_at: i64,
}

/// One player's change of rating in one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub game: GameId,
    pub user_id: String,
    pub pool: String,
    pub rating_before: f64,
    pub rating_after: f64,
    pub deviation_before: f64,
    pub deviation_after: f64,
    /// `win`, `draw` or `loss`.
    pub verdict: String,
}

/// A game a player sat in, for their statistics.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub game: GameId,
    pub variant: String,
    pub status: Status,
    /// The outcome as JSON, once finished.
    pub result: Option<String>,
    /// The player's seat.
    pub seat: u8,
}

fn rating_row(r: &sqlx::any::AnyRow) -> Result<RatingRow, DbError> {
    Ok(RatingRow {
        server: r.try_get("server")?,
        pool: r.try_get("pool")?,
        user_id: r.try_get("user_id")?,
        user_name: r.try_get("user_name")?,
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
        wins: r.try_get("wins")?,
        draws: r.try_get("draws")?,
        losses: r.try_get("losses")?,
        updated_at: r.try_get("updated_at")?,
    })
}

impl Store {
    /// Whether a game counts for ratings as far as its creator said (`/play ... rated=no`
    /// makes it casual); the service checks the rest when it ends.
    pub async fn is_rated(tx: &mut AnyConnection, id: GameId) -> Result<bool, DbError> {
        let row = sqlx::query("SELECT rated FROM games WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await?;
        Ok(row.is_some_and(|r| r.get::<i64, _>(0) != 0))
    }

    /// Marks a game rated or casual.
    pub async fn set_rated(tx: &mut AnyConnection, id: GameId, rated: bool) -> Result<(), DbError> {
        sqlx::query("UPDATE games SET rated = $1 WHERE id = $2")
            .bind(i64::from(rated))
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        Ok(())
    }

    /// The seats that have made a move or a secret choice in a game, from its log.
    pub async fn seats_that_acted(tx: &mut AnyConnection, id: GameId) -> Result<Vec<u8>, DbError> {
        let rows = sqlx::query(
            "SELECT DISTINCT seat FROM actions
             WHERE game_id = $1 AND kind IN ('move', 'secret') AND seat IS NOT NULL ORDER BY seat",
        )
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?;
        Ok(rows.iter().map(|r| r.get::<i64, _>(0) as u8).collect())
    }

    /// A player's rating in a pool of a server, if they have one.
    pub async fn rating_in(
        tx: &mut AnyConnection,
        server: &str,
        pool: &str,
        user: &str,
    ) -> Result<Option<RatingRow>, DbError> {
        // Locked on PostgreSQL until the transaction that writes the new rating ends, so two
        // games ending at once both count (SQLite's one writer does the same by itself).
        let sql = if tx.backend_name() == <sqlx::Postgres as sqlx::Database>::NAME {
            "SELECT * FROM ratings WHERE server = $1 AND pool = $2 AND user_id = $3 FOR UPDATE"
        } else {
            "SELECT * FROM ratings WHERE server = $1 AND pool = $2 AND user_id = $3"
        };
        let row = sqlx::query(sql)
            .bind(server)
            .bind(pool)
            .bind(user)
            .fetch_optional(&mut *tx)
            .await?;
        row.map(|r| rating_row(&r)).transpose()
    }

    /// Writes a player's rating (new or changed) with its counts.
    pub async fn put_rating(tx: &mut AnyConnection, r: &RatingRow) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO ratings (server, pool, user_id, user_name, rating, deviation, volatility,
                games, wins, draws, losses, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (server, pool, user_id) DO UPDATE SET
                user_name = excluded.user_name, rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = excluded.games, wins = excluded.wins, draws = excluded.draws,
                losses = excluded.losses, updated_at = excluded.updated_at",
        )
        .bind(&r.server)
        .bind(&r.pool)
        .bind(&r.user_id)
        .bind(&r.user_name)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(r.games)
        .bind(r.wins)
        .bind(r.draws)
        .bind(r.losses)
        .bind(r.updated_at)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }

    /// Records one player's change in a rated game.
    pub async fn add_rating_change(
        tx: &mut AnyConnection,
        c: &RatingChange,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO rating_changes (game_id, user_id, pool, rating_before, rating_after,
                deviation_before, deviation_after, verdict)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(c.game.0)
        .bind(&c.user_id)
        .bind(&c.pool)
        .bind(c.rating_before)
        .bind(c.rating_after)
        .bind(c.deviation_before)
        .bind(c.deviation_after)
        .bind(&c.verdict)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }

    /// The rating changes a game made, by player id.
    pub async fn rating_changes(&self, game: GameId) -> Result<Vec<RatingChange>, DbError> {
        let rows = sqlx::query(
            "SELECT game_id, user_id, pool, rating_before, rating_after, deviation_before,
                    deviation_after, verdict
             FROM rating_changes WHERE game_id = $1 ORDER BY user_id",
        )
        .bind(game.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| -> Result<RatingChange, DbError> {
                Ok(RatingChange {
                    game: GameId(r.try_get("game_id")?),
                    user_id: r.try_get("user_id")?,
                    pool: r.try_get("pool")?,
                    rating_before: r.try_get("rating_before")?,
                    rating_after: r.try_get("rating_after")?,
                    deviation_before: r.try_get("deviation_before")?,
                    deviation_after: r.try_get("deviation_after")?,
                    verdict: r.try_get("verdict")?,
                })
            })
            .collect()
    }

    /// A player's ratings on a server, every pool, by pool.
    pub async fn ratings_of(&self, server: &str, user: &str) -> Result<Vec<RatingRow>, DbError> {
        let rows =
            sqlx::query("SELECT * FROM ratings WHERE server = $1 AND user_id = $2 ORDER BY pool")
                .bind(server)
                .bind(user)
                .fetch_all(&self.reader)
                .await?;
        rows.iter().map(rating_row).collect()
    }

    /// Every rating of a pool on a server, highest first (equal ratings by name).
    pub async fn pool_ratings(&self, server: &str, pool: &str) -> Result<Vec<RatingRow>, DbError> {
        let rows = sqlx::query(
            "SELECT * FROM ratings WHERE server = $1 AND pool = $2
             ORDER BY rating DESC, user_name, user_id",
        )
        .bind(server)
        .bind(pool)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// The person who played on a server under `name` (their id or their name, in any case),
    /// the latest seen if several: how the console names a user.
    pub async fn find_player(&self, server: &str, name: &str) -> Result<Option<User>, DbError> {
        let row = sqlx::query(
            "SELECT s.user_id, s.user_name FROM seats s JOIN games g ON g.id = s.game_id
             WHERE g.server = $1 AND s.computer IS NULL
               AND (s.user_id = $2 OR lower(s.user_name) = lower($3))
             ORDER BY (s.user_id = $4) DESC, g.id DESC LIMIT 1",
        )
        .bind(server)
        .bind(name)
        .bind(name)
        .bind(name)
        .fetch_optional(&self.reader)
        .await?;
        Ok(row.map(|r| User::new(r.get::<String, _>(0), r.get::<String, _>(1))))
    }

    /// The games a player sits in on a server (open, active or finished), oldest first.
    pub async fn played_in(&self, server: &str, user: &str) -> Result<Vec<PlayedGame>, DbError> {
        let rows = sqlx::query(
            "SELECT g.id, g.variant, g.status, g.result, s.seat FROM games g
             JOIN seats s ON s.game_id = g.id
             WHERE g.server = $1 AND s.user_id = $2 AND g.status IN ('open', 'active', 'finished')
             ORDER BY g.id",
        )
        .bind(server)
        .bind(user)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .iter()
            .map(|r| PlayedGame {
                game: GameId(r.get(0)),
                variant: r.get(1),
                status: Status::parse(&r.get::<String, _>(2)),
                result: r.get(3),
                seat: r.get::<i64, _>(4) as u8,
            })
            .collect())
    }
}

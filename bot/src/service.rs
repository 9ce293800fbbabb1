//! The game service: create, join, leave, start, play, resign, draw, abort, clocks.
//!
//! Every change follows one path: take the game's lock, begin a transaction, load, check the
//! actor, ask the engine, write the new state with a version check, log the action, queue the
//! posts that announce it, commit, then wake the delivery. A crash between commit and delivery
//! loses nothing: the posts are in the outbox and go out after the restart.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use engine::ai::Level;
use engine::game::{
    AnyGame, AnyState, BestScores, EndReason, Event, GameError, Options, Outcome, Prompt,
    PromptKind,
};
use engine::registry;
use engine::view::{Panel, View, Viewer};
use engine::Seat;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokio::sync::Notify;

use crate::model::{
    Button, ButtonAction, GameId, Pending, Place, Post, Reply, Status, Target, User,
};
use crate::store::{DbError, GameRow, SeatRow, Store, Tx};

mod computers;
mod export;
mod ratings;
pub use computers::computer_seat;
mod history;
mod rematch;
mod takeback;
pub use takeback::TakebackChoice;

/// The most options a select menu may offer.
const MENU_LIMIT: usize = 25;
/// The level of a computer player added without one.
pub const DEFAULT_LEVEL: Level = Level::Medium;

/// Seconds in a day.
const DAY: i64 = 86_400;
/// The clock used when `/play` does not set one.
pub const DEFAULT_DAYS_PER_MOVE: i64 = 3;
/// The most days a move may be given.
const MAX_DAYS_PER_MOVE: i64 = 30;
/// The newest finished games a best-score table is made from.
const BEST_SCORE_GAMES: i64 = 1000;
/// Lines a best-score table shows.
const BEST_SCORES_SHOWN: usize = 10;

/// Why the service refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The user asked for something the rules or the game's state do not allow; the message is
    /// for them.
    #[error("{0}")]
    Refused(String),
    /// Something broke on our side; logged, and the user gets an apology.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<DbError> for ServiceError {
    fn from(e: DbError) -> Self {
        ServiceError::Internal(format!("database: {e}"))
    }
}

impl From<GameError> for ServiceError {
    fn from(e: GameError) -> Self {
        match e {
            GameError::Corrupt(m) => ServiceError::Internal(m),
            other => ServiceError::Refused(other.to_string()),
        }
    }
}

fn refuse<T>(message: impl Into<String>) -> Result<T, ServiceError> {
    Err(ServiceError::Refused(message.into()))
}

/// The time, in Unix seconds. Swappable so tests can move it.
pub trait Clock: Send + Sync {
    fn now(&self) -> i64;
}

/// The real clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    }
}

/// A clock that only moves when told (tests, scripted consoles).
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start: i64) -> ManualClock {
        ManualClock(AtomicI64::new(start))
    }
    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// How a post could not be delivered.
#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    /// The user does not accept direct messages.
    #[error("direct messages closed")]
    DirectMessagesClosed,
    /// Worth trying again later, after a growing pause.
    #[error("{0}")]
    Retry(String),
    /// Refused for good (the channel is gone, the bot may not post there): set aside with the
    /// reason, so one dead channel cannot hold up other posts.
    #[error("{0}")]
    Rejected(String),
}

impl DeliveryError {
    /// A failure worth retrying after the usual pause.
    pub fn retry(why: impl Into<String>) -> DeliveryError {
        DeliveryError::Retry(why.into())
    }
}

/// The pause before the next attempt at a post that failed `attempts` times: 2, 4, 8 ...
/// seconds, at most 64, so a post that did arrive (its answer lost) is sent again while
/// Discord still recognises its nonce. A post is never given up for a passing failure.
fn backoff(attempts: i64) -> i64 {
    1i64 << attempts.clamp(1, 6)
}

/// A frontend's way of posting.
pub trait Deliver: Send + Sync {
    /// Posts one item; `service` is there for looking up threads and names.
    fn deliver(
        &self,
        service: &Service,
        item: &Pending,
    ) -> impl std::future::Future<Output = Result<(), DeliveryError>> + Send;
}

/// How players are seated when a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seating {
    /// In an order drawn from the game's seed (the default: nobody picks White).
    Random,
    /// In the order they joined: the creator takes the first seat.
    Joined,
}

impl Seating {
    fn as_str(self) -> &'static str {
        match self {
            Seating::Random => "random",
            Seating::Joined => "joined",
        }
    }
}

/// Answers to a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawChoice {
    /// Offer a draw, or accept the one on the table.
    OfferOrAccept,
    /// Accept the offer on the table; with none, nothing is offered in its place.
    Accept,
    /// Decline the offer on the table.
    Decline,
}

/// The game service.
pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    locks: Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<()>>>>,
    outbox_ready: Arc<Notify>,
    /// Told after every change, for the worker that plays computer players' turns.
    computers_ready: Arc<Notify>,
    /// Where new games' seeds come from: entropy normally, a fixed seed in tests.
    seeds: Mutex<ChaCha8Rng>,
    /// This process among those sharing a database: host, process id and a random tag.
    owner: String,
    /// The leases this process holds, with when each runs out.
    leases: Mutex<HashMap<&'static str, i64>>,
}

/// The lease of delivering the outbox.
const OUTBOX_LEASE: &str = "outbox";
/// The lease of firing the clocks.
const CLOCKS_LEASE: &str = "clocks";
/// The lease of playing the computer players' turns.
const COMPUTERS_LEASE: &str = "computers";
/// How long a lease lasts unless renewed: a process that died gives its work up after this.
/// It is renewed once half of it has passed, so the holder always has a minute in hand: more
/// than one delivery may take (its timeout is 30 seconds), so a holder slowed by a hung request
/// never finds its lease taken while it still works under it.
const LEASE_SECONDS: i64 = 120;

/// The lease's length: [`LEASE_SECONDS`], or `ROOKERY_LEASE_SECONDS` where a test of processes
/// killed and restarted cannot wait two minutes for each takeover.
fn lease_seconds() -> i64 {
    static SECONDS: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *SECONDS.get_or_init(|| {
        std::env::var("ROOKERY_LEASE_SECONDS")
            .ok()
            .and_then(|s| s.parse::<i64>().ok())
            .filter(|&s| s >= 2)
            .unwrap_or(LEASE_SECONDS)
    })
}

/// This process's name among the processes sharing a database.
fn process_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    format!(
        "{host} pid {} ({:08x})",
        std::process::id(),
        rand::random::<u32>()
    )
}

/// A game loaded under its lock, with everything needed to act on it.
struct Loaded {
    row: GameRow,
    seats: Vec<SeatRow>,
    game: &'static dyn AnyGame,
    state: Option<AnyState>,
    /// What each seat privately had before this change, to tell them only what is new.
    before: Private,
    /// The status before this change.
    was: Status,
}

/// Each seat's secret prompt and private panel.
#[derive(Default)]
struct Private {
    prompts: Vec<Option<Prompt>>,
    panels: Vec<Option<Panel>>,
}

impl Loaded {
    fn seat_of(&self, user: &str) -> Option<Seat> {
        self.seats
            .iter()
            .find(|s| s.user_id == user)
            .map(|s| Seat(s.seat))
    }
    fn user_of(&self, seat: Seat) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.seat == seat.0)
    }
    fn mention(&self, seat: Seat) -> String {
        match self.user_of(seat) {
            Some(s) => format!("{{@{}}}", s.user_id),
            None => self.side(seat),
        }
    }
    /// What the game calls a seat: "White", or the army it moves ("White 2").
    fn side(&self, seat: Seat) -> String {
        seat_name(self.game, self.state.as_ref(), seat)
    }
    /// The game's result as every message about it words it.
    fn outcome_text(&self, outcome: &Outcome) -> String {
        outcome_text(self.game, self.state.as_ref(), outcome)
    }
    fn state(&self) -> Result<&AnyState, ServiceError> {
        self.state
            .as_ref()
            .ok_or_else(|| ServiceError::Internal(format!("game {} has no state", self.row.id)))
    }
    fn name(&self) -> &'static str {
        self.game.info().name
    }
    /// The one answer every command gives about a game that has ended, whoever asks.
    fn ended(&self) -> Option<String> {
        let id = self.row.id;
        match self.row.status {
            Status::Finished => Some(format!("game {id} is over")),
            Status::Aborted => Some(format!("game {id} was called off")),
            Status::Open | Status::Active => None,
        }
    }
}

impl Service {
    /// A service on a store, with a clock.
    pub fn new(store: Store, clock: Arc<dyn Clock>) -> Service {
        Service::with_seed(store, clock, rand::random())
    }

    /// A service whose games get their seeds from `seed`, so runs repeat exactly (tests).
    pub fn with_seed(store: Store, clock: Arc<dyn Clock>, seed: u64) -> Service {
        Service {
            store,
            clock,
            locks: Mutex::new(HashMap::new()),
            outbox_ready: Arc::new(Notify::new()),
            computers_ready: Arc::new(Notify::new()),
            seeds: Mutex::new(ChaCha8Rng::seed_from_u64(seed)),
            owner: process_name(),
            leases: Mutex::new(HashMap::new()),
        }
    }

    fn next_seed(&self) -> u64 {
        use rand::Rng;
        self.seeds
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .gen::<u64>()
            >> 1
    }

    /// The store (frontends use it to record threads they make).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Notified whenever posts are waiting.
    pub fn outbox_ready(&self) -> Arc<Notify> {
        self.outbox_ready.clone()
    }

    /// The current time.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    async fn lock(&self, id: GameId) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(id).or_default().clone()
        };
        lock.lock_owned().await
    }

    /// Takes a game's lock, begins a transaction and loads the game: the start of every change.
    async fn locked(
        &self,
        id: GameId,
    ) -> Result<(tokio::sync::OwnedMutexGuard<()>, Tx, Loaded), ServiceError> {
        let guard = self.lock(id).await;
        let mut tx = self.store.begin().await?;
        let loaded = self.load_for_change(&mut tx, id).await?;
        Ok((guard, tx, loaded))
    }

    /// Loads a game to look at it.
    async fn load(&self, tx: &mut Tx, id: GameId) -> Result<Loaded, ServiceError> {
        self.load_as(tx, id, false).await
    }

    /// Loads a game to change it: on PostgreSQL its row stays locked until `tx` ends, so other
    /// processes wait for this change and then see it.
    async fn load_for_change(&self, tx: &mut Tx, id: GameId) -> Result<Loaded, ServiceError> {
        self.load_as(tx, id, true).await
    }

    async fn load_as(
        &self,
        tx: &mut Tx,
        id: GameId,
        for_update: bool,
    ) -> Result<Loaded, ServiceError> {
        let row = if for_update {
            Store::load_game_for_update(tx, id).await?
        } else {
            Store::load_game(tx, id).await?
        };
        let Some(row) = row else {
            return refuse(format!("there is no game {id}"));
        };
        let seats = Store::seats(tx, id).await?;
        let game = registry::variant(&row.variant).map_err(|_| {
            ServiceError::Internal(format!("game {id} has unknown variant {}", row.variant))
        })?;
        let state = match &row.state {
            Some(json) => Some(game.load(json)?),
            None => None,
        };
        let mut loaded = Loaded {
            was: row.status,
            row,
            seats,
            game,
            state,
            before: Private::default(),
        };
        loaded.before = private_of(&loaded)?;
        Ok(loaded)
    }

    /// Writes a changed game, its seats, a log line and its posts, then commits.
    async fn save(
        &self,
        mut tx: Tx,
        loaded: &mut Loaded,
        actor: Option<(&User, Option<Seat>)>,
        kind: &str,
        text: &str,
        mut posts: Vec<Post>,
    ) -> Result<(), ServiceError> {
        posts.extend(self.private_posts(loaded)?);
        // Nobody reads a computer's direct messages: what they would say stays unwritten.
        posts.retain(
            |p| !matches!(&p.target, Target::Direct(u) if User::computer_level(u).is_some()),
        );
        if loaded.row.status == Status::Finished && loaded.was != Status::Finished {
            if let Some(state) = &loaded.state {
                let secrets = loaded.game.secret_history(state)?;
                if !secrets.is_empty() {
                    let mut text = String::from("The game is over, so its secrets can be told:");
                    for line in secrets {
                        text.push_str("\n- ");
                        text.push_str(&line);
                    }
                    posts.push(Post::new(Target::GameThread(loaded.row.id), text));
                }
            }
        }
        let now = self.now();
        let expected = loaded.row.version;
        loaded.row.version += 1;
        if let Some(state) = &loaded.state {
            loaded.row.state = Some(loaded.game.save(state)?);
        }
        if !Store::update_game(&mut tx, &loaded.row, expected, now).await? {
            return Err(ServiceError::Internal(format!(
                "game {} changed underneath (version {expected})",
                loaded.row.id
            )));
        }
        Store::set_seats(&mut tx, loaded.row.id, &loaded.seats).await?;
        Store::log_action(
            &mut tx,
            loaded.row.id,
            loaded.row.version,
            actor.map(|(u, _)| u.id.as_str()),
            actor.and_then(|(_, s)| s.map(|s| s.0)),
            kind,
            text,
            now,
        )
        .await?;
        // A game is rated in the transaction that ends it: rated once, and never a game whose
        // end was not stored. After the log line, so the last move counts as the mover's.
        if loaded.row.status == Status::Finished && loaded.was != Status::Finished {
            posts.extend(self.rate_finished(&mut tx, loaded, now).await?);
        }
        for post in &posts {
            Store::push_post(&mut tx, Some(loaded.row.id), post, now).await?;
        }
        tx.commit().await?;
        if !posts.is_empty() {
            self.outbox_ready.notify_one();
        }
        // A computer may have a turn now.
        self.computers_ready.notify_one();
        Ok(())
    }

    /// Which game a command means: the one named, the one whose thread it was given in, or
    /// the user's only live game.
    async fn resolve(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<GameId, ServiceError> {
        if let Some(id) = named {
            return Ok(id);
        }
        if let Place::Channel { channel, .. } = place {
            if let Some(id) = self.store.game_by_thread(channel).await? {
                return Ok(id);
            }
        }
        let live = self.store.games_of(&user.id, true).await?;
        match live.as_slice() {
            // No live game: the latest one, so the answer can say it is over.
            [] => match self.store.games_of(&user.id, false).await?.first() {
                Some(latest) => Ok(latest.game.id),
                None => refuse("you are not in any game: start one with /play, or name the game"),
            },
            [one] => Ok(one.game.id),
            many => {
                let ids: Vec<String> = many.iter().map(|g| g.game.id.to_string()).collect();
                refuse(format!(
                    "you are in several games ({}); use this in the game's thread or name the game",
                    ids.join(", ")
                ))
            }
        }
    }

    // ---- creating and joining -----------------------------------------------------------------

    /// `/play`: opens a game with the creator in the first seat.
    pub async fn create(
        &self,
        user: &User,
        place: &Place,
        variant: &str,
        options_text: &str,
        players: Option<usize>,
    ) -> Result<Reply, ServiceError> {
        let Place::Channel { server, channel } = place else {
            return refuse("start games in a server channel, not in direct messages");
        };
        // A named game (`cylindrical`) is its variant with the options the name stands for.
        let (game, named_options) = registry::variant_or_preset(variant)?;
        let info = game.info();
        let mut days = Some(DEFAULT_DAYS_PER_MOVE);
        let mut players = players;
        let mut seating = Seating::Random;
        let mut bots: usize = 0;
        let mut level: Option<Level> = None;
        let mut rated = true;
        let mut pairs = Vec::new();
        for (key, value) in option_pairs(options_text)? {
            match key.as_str() {
                "days_per_move" | "days" => days = parse_days(&value)?,
                "order" => {
                    seating = match value.to_ascii_lowercase().as_str() {
                        "random" => Seating::Random,
                        "joined" => Seating::Joined,
                        _ => {
                            return refuse(format!("order must be random or joined, not '{value}'"))
                        }
                    }
                }
                "players" | "seats" => {
                    players = Some(value.parse().map_err(|_| {
                        ServiceError::Refused(format!("players must be a number, not '{value}'"))
                    })?)
                }
                "bots" | "computers" => {
                    bots = value.parse().map_err(|_| {
                        ServiceError::Refused(format!(
                            "bots must be a number of computer players, not '{value}'"
                        ))
                    })?
                }
                "level" => level = Some(value.parse::<Level>()?),
                "rated" => rated = ratings::parse_rated(&value)?,
                _ => pairs.push(format!("{key}={value}")),
            }
        }
        for named in named_options.iter().rev() {
            let key = named.split_once('=').map_or(*named, |(k, _)| k);
            if !pairs
                .iter()
                .any(|p| p.split_once('=').is_some_and(|(k, _)| k == key))
            {
                pairs.insert(0, named.to_string());
            }
        }
        let options = Options::parse(&pairs)?;
        let seat_count = players.unwrap_or_else(|| info.default_seats());
        info.check_seats(seat_count)?;
        info.check_options(&options)?;
        // The creator keeps a seat: a game on Discord always has a person in it.
        if bots >= seat_count {
            return refuse(format!(
                "bots={bots}: this game of {} has {seat_count} seat{}, one of them yours, so at \
                 most {} computer player{}",
                info.name,
                if seat_count == 1 { "" } else { "s" },
                seat_count - 1,
                if seat_count == 2 { "" } else { "s" }
            ));
        }
        if level.is_some() && bots == 0 {
            return refuse(
                "level= is for computer players: add some with bots=N (or /addbot in the lobby)",
            );
        }
        let level = level.unwrap_or(DEFAULT_LEVEL);
        let seed = self.next_seed();
        // Set the game up once now, so a bad FEN or option is refused at /play.
        game.setup(&options, seat_count, seed)?;

        let now = self.now();
        let mut tx = self.store.begin().await?;
        let row = GameRow {
            id: GameId(0),
            variant: info.id.to_string(),
            options: options.clone(),
            seat_count,
            seating: seating.as_str().to_string(),
            status: Status::Open,
            state: None,
            version: 1,
            seed,
            creator: user.id.clone(),
            server: server.clone(),
            channel: channel.clone(),
            thread: None,
            days_per_move: days,
            deadline: None,
            reminded: false,
            draw_agreed: Vec::new(),
            result: None,
        };
        let id = Store::insert_game(&mut tx, &row, now).await?;
        if !rated {
            Store::set_rated(&mut tx, id, false).await?;
        }
        let mut seats = vec![SeatRow {
            seat: 0,
            user_id: user.id.clone(),
            user_name: user.name.clone(),
            computer: None,
        }];
        for n in 1..=bots {
            seats.push(computer_seat(level, n, seats.len()));
        }
        Store::set_seats(&mut tx, id, &seats).await?;
        Store::log_action(
            &mut tx,
            id,
            1,
            Some(&user.id),
            Some(0),
            "create",
            options_text.trim(),
            now,
        )
        .await?;
        let clock = match days {
            Some(d) => format!("{d} day{} per move", if d == 1 { "" } else { "s" }),
            None => "no clock".into(),
        };
        let mut shown_options: Vec<String> =
            options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if !rated {
            shown_options.push("rated=no".to_string());
        }
        let options_line = if shown_options.is_empty() {
            String::new()
        } else {
            format!(", {}", shown_options.join(", "))
        };
        let waiting = seat_count - 1 - bots;
        let against = if bots == 0 {
            "alone".to_string()
        } else {
            let names: Vec<String> = seats[1..].iter().map(|s| s.user_name.clone()).collect();
            format!("against {}", names.join(", "))
        };
        let posts = if waiting == 0 {
            // A game for one (solitaire), or against computers only, starts at once.
            vec![Post::new(
                Target::Channel(channel.clone()),
                format!(
                    "{{@{}}} plays **{}** {against} (game {id}: {clock}{options_line}); follow it in {{#{id}}}.",
                    user.id, info.name
                ),
            )
            .anchoring_thread()]
        } else {
            vec![
            Post::new(
                Target::Channel(channel.clone()),
                format!(
                    "{{@{}}} wants to play **{}** (game {id}: {seat_count} players, {clock}{options_line}){}. \
                     {}: press Join or use /join {id}; the game is played in {{#{id}}}.",
                    user.id,
                    info.name,
                    if bots == 0 { String::new() } else { format!(", {against}") },
                    seats_left(waiting)
                ),
            )
            .with_buttons(vec![Button { action: ButtonAction::Join, game: id }])
            .anchoring_thread(),
            Post::new(
                Target::GameThread(id),
                format!(
                    "Game {id}: **{}** ({clock}{options_line}). {{@{}}} is waiting for {waiting} more player{}: \
                     /join {id} or the Join button. The creator can /start once enough have joined, \
                     or fill a seat with a computer player (/addbot).",
                    info.name,
                    user.id,
                    if waiting == 1 { "" } else { "s" }
                ),
            )
            .with_buttons(vec![
                Button { action: ButtonAction::Join, game: id },
                Button { action: ButtonAction::Start, game: id },
                Button { action: ButtonAction::AddComputer, game: id },
            ]),
        ]
        };
        for post in &posts {
            Store::push_post(&mut tx, Some(id), post, now).await?;
        }
        tx.commit().await?;
        self.outbox_ready.notify_one();
        if waiting == 0 {
            self.start(user, place, Some(id)).await?;
            return Ok(Reply::text(format!(
                "Game {id} created and started: {}.",
                info.name
            )));
        }
        Ok(Reply::text(format!(
            "Game {id} created: {}. Others join with /join {id} or the Join button.",
            info.name
        )))
    }

    /// `/join`: takes the next free seat; the game starts when every seat is taken.
    pub async fn join(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let id = match named {
            Some(id) => id,
            None => match place {
                Place::Channel { channel: c, .. } => match self.store.game_by_thread(c).await? {
                    Some(id) => id,
                    None => self.only_open_game_in(c).await?,
                },
                Place::DirectMessage => {
                    return refuse("say which game to join: /join <game number>")
                }
            },
        };
        let (_guard, mut tx, mut g) = self.locked(id).await?;
        if let Some(ended) = g.ended() {
            return refuse(ended);
        }
        if g.row.status != Status::Open {
            return refuse(format!(
                "game {id} is {}; only open games can be joined",
                describe_status(g.row.status)
            ));
        }
        // A rematch's seats are its old game's players', taken by asking (turned round).
        if let Some(old) = Store::rematch_source(&mut tx, id).await? {
            return refuse(format!(
                "game {id} is the rematch of game {old}, for its players only: they take their \
                 seats with /rematch {old} or the Rematch button"
            ));
        }
        if g.seat_of(&user.id).is_some() {
            return refuse(format!("you are already in game {id}"));
        }
        if g.seats.len() >= g.row.seat_count {
            return refuse(format!("game {id} is full"));
        }
        let seat = g.seats.len() as u8;
        g.seats.push(SeatRow {
            seat,
            user_id: user.id.clone(),
            user_name: user.name.clone(),
            computer: None,
        });
        let left = g.row.seat_count - g.seats.len();
        let mut posts = vec![Post::new(
            Target::GameThread(id),
            format!(
                "{{@{}}} joined game {id} ({}/{}){}.",
                user.id,
                g.seats.len(),
                g.row.seat_count,
                if left > 0 {
                    format!(": {}", seats_left(left))
                } else {
                    String::new()
                }
            ),
        )];
        if left == 0 {
            posts.extend(self.begin_play(&mut g)?);
        } else {
            // The channel where the game was announced is where others are looking for a seat.
            posts.push(
                Post::new(
                    Target::Channel(g.row.channel.clone()),
                    format!(
                        "{{@{}}} joined game {id} ({}). {}: press Join or use /join {id}.",
                        user.id,
                        g.name(),
                        seats_left(left)
                    ),
                )
                .with_buttons(vec![Button {
                    action: ButtonAction::Join,
                    game: id,
                }]),
            );
        }
        self.save(
            tx,
            &mut g,
            Some((user, Some(Seat(seat)))),
            "join",
            "",
            posts,
        )
        .await?;
        Ok(Reply::text(format!("You joined game {id}.")))
    }

    /// `/addbot`: the creator fills one open seat with a computer player; the game starts when
    /// every seat is taken.
    pub async fn add_computer(
        &self,
        user: &User,
        place: &Place,
        level: Option<&str>,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let level = match level.map(str::trim).filter(|l| !l.is_empty()) {
            Some(l) => l.parse::<Level>()?,
            None => DEFAULT_LEVEL,
        };
        let id = self.resolve(user, place, named).await?;
        let (_guard, tx, mut g) = self.locked(id).await?;
        if let Some(ended) = g.ended() {
            return refuse(ended);
        }
        if g.row.status != Status::Open {
            return refuse(format!(
                "game {id} is {}; computer players take seats only before a game starts",
                describe_status(g.row.status)
            ));
        }
        if g.row.creator != user.id {
            return refuse(format!(
                "only the player who created game {id} can add computer players"
            ));
        }
        if g.seats.len() >= g.row.seat_count {
            return refuse(format!("game {id} is full"));
        }
        let n = g.seats.iter().filter(|s| s.computer.is_some()).count() + 1;
        let seat = computer_seat(level, n, g.seats.len());
        let name = seat.user_name.clone();
        g.seats.push(seat);
        let left = g.row.seat_count - g.seats.len();
        let mut posts = vec![Post::new(
            Target::GameThread(id),
            format!(
                "{name} joined game {id} ({}/{}){}.",
                g.seats.len(),
                g.row.seat_count,
                if left > 0 {
                    format!(": {}", seats_left(left))
                } else {
                    String::new()
                }
            ),
        )];
        if left == 0 {
            posts.extend(self.begin_play(&mut g)?);
        }
        let seat = g.seat_of(&user.id);
        self.save(
            tx,
            &mut g,
            Some((user, seat)),
            "addbot",
            level.name(),
            posts,
        )
        .await?;
        Ok(Reply::text(format!("{name} takes a seat in game {id}.")))
    }

    /// The game waiting for players in `channel`, for a `/join` that names none: there must be
    /// exactly one, or the answer says which there are.
    async fn only_open_game_in(&self, channel: &str) -> Result<GameId, ServiceError> {
        match self.store.open_games_in(channel).await?.as_slice() {
            [one] => Ok(*one),
            [] => refuse(
                "no game is waiting for players here: start one with /play, or /join <game number>",
            ),
            many => {
                let ids: Vec<String> = many.iter().map(|g| g.to_string()).collect();
                refuse(format!(
                    "several games are waiting for players here ({}): say which with /join <game number>",
                    ids.join(", ")
                ))
            }
        }
    }

    /// `/leave`: gives up a seat in a game that has not started.
    pub async fn leave(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        let (_guard, tx, mut g) = self.locked(id).await?;
        if let Some(ended) = g.ended() {
            return refuse(ended);
        }
        let Some(seat) = g.seat_of(&user.id) else {
            return refuse(format!("you are not in game {id}"));
        };
        if g.row.status != Status::Open {
            return refuse(format!(
                "game {id} is {}: leaving is only for games that have not started (use /resign to give up)",
                describe_status(g.row.status)
            ));
        }
        g.seats.retain(|s| s.user_id != user.id);
        for (i, s) in g.seats.iter_mut().enumerate() {
            s.seat = i as u8;
        }
        // Computer players keep no game alive on their own, nor can they run it.
        let first_person = g.seats.iter().find(|s| s.computer.is_none()).cloned();
        let text = if let Some(person) = first_person.filter(|_| !g.seats.is_empty()) {
            if g.row.creator == user.id {
                g.row.creator = person.user_id.clone();
            }
            format!(
                "{{@{}}} left game {id} ({}/{}).",
                user.id,
                g.seats.len(),
                g.row.seat_count
            )
        } else {
            g.row.status = Status::Aborted;
            format!(
                "{{@{}}} left; nobody is left, so game {id} is called off.",
                user.id
            )
        };
        let posts = vec![Post::new(Target::GameThread(id), text)];
        self.save(tx, &mut g, Some((user, Some(seat))), "leave", "", posts)
            .await?;
        Ok(Reply::text(format!("You left game {id}.")))
    }

    /// `/abort`: the creator calls off a game that has not started.
    pub async fn abort(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        let (_guard, tx, mut g) = self.locked(id).await?;
        if let Some(ended) = g.ended() {
            return refuse(ended);
        }
        if g.row.creator != user.id {
            return refuse(format!(
                "only the player who created game {id} can call it off"
            ));
        }
        if g.row.status != Status::Open {
            return refuse(format!(
                "game {id} is {}; only games that have not started can be called off",
                describe_status(g.row.status)
            ));
        }
        g.row.status = Status::Aborted;
        let posts = vec![Post::new(
            Target::GameThread(id),
            format!("{{@{}}} called off game {id}.", user.id),
        )];
        let seat = g.seat_of(&user.id);
        self.save(tx, &mut g, Some((user, seat)), "abort", "", posts)
            .await?;
        Ok(Reply::text(format!("Game {id} is called off.")))
    }

    /// `/start`: the creator starts a game with fewer players than seats, where the game allows.
    pub async fn start(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        let (_guard, tx, mut g) = self.locked(id).await?;
        if let Some(ended) = g.ended() {
            return refuse(ended);
        }
        if g.row.status != Status::Open {
            return refuse(format!("game {id} is {}", describe_status(g.row.status)));
        }
        if g.row.creator != user.id {
            return refuse(format!(
                "only the player who created game {id} can start it"
            ));
        }
        let joined = g.seats.len();
        if g.game.info().check_seats(joined).is_err() {
            return refuse(format!(
                "{} is played by {} players; {joined} {} joined",
                g.name(),
                g.game.info().describe_seat_counts(),
                if joined == 1 { "has" } else { "have" }
            ));
        }
        g.row.seat_count = joined;
        let posts = self.begin_play(&mut g)?;
        let seat = g.seat_of(&user.id);
        self.save(tx, &mut g, Some((user, seat)), "start", "", posts)
            .await?;
        Ok(Reply::text(format!("Game {id} has started.")))
    }

    /// Seats the players in a random order (from the game's seed), sets the game up and
    /// returns the opening posts.
    fn begin_play(&self, g: &mut Loaded) -> Result<Vec<Post>, ServiceError> {
        if g.row.seating != Seating::Joined.as_str() {
            let mut rng = ChaCha8Rng::seed_from_u64(g.row.seed ^ 0x5eed_5eed);
            g.seats.shuffle(&mut rng);
        }
        for (i, s) in g.seats.iter_mut().enumerate() {
            s.seat = i as u8;
        }
        let state = g.game.setup(&g.row.options, g.row.seat_count, g.row.seed)?;
        g.state = Some(state);
        g.row.status = Status::Active;
        self.restart_clock(g);
        let id = g.row.id;
        let sides: Vec<String> = g
            .seats
            .iter()
            .map(|s| format!("{{@{}}} plays {}", s.user_id, g.side(Seat(s.seat))))
            .collect();
        let mut text = format!("Game {id} begins: {}.", sides.join(", "));
        // A game set up at a position already decided (a FEN at mate or stalemate) ends as it
        // begins, as if the last move had ended it: nobody would ever be asked to move.
        let decided = g.game.outcome(g.state()?)?;
        let started = match decided {
            Some(outcome) => {
                let result = outcome.describe(|s| g.side(s));
                text.push('\n');
                text.push_str(&self.finish(g, outcome)?);
                format!(
                    "Game {id} ({}) began in {{#{id}}} at a position already decided: {result}.",
                    g.name()
                )
            }
            None => {
                text.push_str(&self.turn_line(g)?);
                format!("Game {id} ({}) has started in {{#{id}}}.", g.name())
            }
        };
        let mut posts = vec![self.board_post(g, text)?];
        // What the set-up itself did in the open (cards dealt face up), for everyone.
        let opening = g.game.opening(g.state()?)?;
        if !opening.is_empty() {
            posts.push(Post::new(Target::GameThread(id), opening.join(" ")));
        }
        posts.push(Post::new(Target::Channel(g.row.channel.clone()), started));
        Ok(posts)
    }

    // ---- playing ------------------------------------------------------------------------------

    /// `/move`: plays a move (or any public action text the variant reads).
    pub async fn act(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        text: &str,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        self.perform(user, id, text, PromptKind::Move, None).await
    }

    /// `/secret`: a private choice (a burial square, a sealed move, an assignment).
    pub async fn secret(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        text: &str,
    ) -> Result<Reply, ServiceError> {
        let id = match named {
            Some(id) => id,
            None => self.resolve_secret(user, place).await?,
        };
        self.perform(user, id, text, PromptKind::Secret, None).await
    }

    /// The game in which a secret choice is asked of `user`, when they do not name one.
    async fn resolve_secret(&self, user: &User, place: &Place) -> Result<GameId, ServiceError> {
        if let Place::Channel { channel, .. } = place {
            if let Some(id) = self.store.game_by_thread(channel).await? {
                return Ok(id);
            }
        }
        let mut asked = Vec::new();
        for summary in self.store.games_of(&user.id, true).await? {
            let g = &summary.game;
            let (Ok(game), Some(json)) = (registry::variant(&g.variant), g.state.as_deref()) else {
                continue;
            };
            let Some(seat) = summary.seats.iter().find(|s| s.user_id == user.id) else {
                continue;
            };
            let state = game.load(json)?;
            if game
                .prompts(&state)?
                .iter()
                .any(|p| p.seat.0 == seat.seat && p.kind == PromptKind::Secret)
            {
                asked.push(g.id);
            }
        }
        match asked.as_slice() {
            // Nothing asked: with one live game, use it so the answer can say what it waits for;
            // with none, the latest game, so the answer is the same "is over" /move would give.
            [] => match self.store.games_of(&user.id, true).await?.as_slice() {
                [only] => Ok(only.game.id),
                [] => match self.store.games_of(&user.id, false).await?.first() {
                    Some(latest) => Ok(latest.game.id),
                    None => refuse("no secret choice is waiting for you"),
                },
                _ => refuse("no secret choice is waiting for you"),
            },

            [one] => Ok(*one),
            many => {
                let ids: Vec<String> = many.iter().map(|g| g.to_string()).collect();
                refuse(format!(
                    "secret choices wait for you in games {}: name the game",
                    ids.join(", ")
                ))
            }
        }
    }

    /// Plays an action of the kind the seat is prompted for.
    async fn perform(
        &self,
        user: &User,
        id: GameId,
        text: &str,
        kind: PromptKind,
        expected_version: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let (_guard, tx, mut g) = self.locked(id).await?;
        // A computer's choice was made on the game as it was; if it changed since, the choice
        // is not played (and is made again on the game as it is now).
        if expected_version.is_some_and(|v| v != g.row.version) {
            return Err(ServiceError::Internal(format!(
                "game {id} changed while its computer player was thinking"
            )));
        }
        let seat = self.playing_seat(&g, user)?;
        let asked = g
            .game
            .prompts(g.state()?)?
            .into_iter()
            .find(|p| p.seat == seat)
            .map(|p| p.kind);
        match (asked, &kind) {
            (Some(PromptKind::Secret), PromptKind::Move) => {
                return refuse(format!(
                    "in game {id} your next choice is secret: send it privately with /secret (in your direct messages with me)"
                ))
            }
            (Some(PromptKind::Move), PromptKind::Secret) => {
                return refuse(format!("in game {id} it is your move in public: use /move"))
            }
            _ => {}
        }
        if text.trim().is_empty() {
            // The example is one of this seat's own choices now, so it is written the way this
            // game writes them (11-15 in checkers, c3-d4 in Queens, Nf3 in chess).
            let (command, what) = match kind {
                PromptKind::Move => ("/move", "a move"),
                PromptKind::Secret => ("/secret", "your choice"),
            };
            return refuse(match g.game.legal_texts(g.state()?, seat)?.first() {
                Some(example) => {
                    format!("{command} needs {what}, for example {command} {example}")
                }
                None => format!("{command} needs {what}"),
            });
        }
        let mut state = g.state()?.clone();
        let (canonical, events) = g.game.play(&mut state, seat, text)?;
        g.state = Some(state);
        let mut lines: Vec<String> = Vec::new();
        let mut dms: Vec<Post> = Vec::new();
        let mut outcome = None;
        for event in events {
            match event {
                Event::Public(t) => lines.push(t),
                Event::Private { seat, text } => {
                    if let Some(s) = g.user_of(seat) {
                        dms.push(Post::new(
                            Target::Direct(s.user_id.clone()),
                            format!("Game {id}: {text}"),
                        ));
                    }
                }
                Event::GameOver(o) => outcome = Some(o),
            }
        }
        if !g.row.draw_agreed.is_empty() && !g.row.draw_agreed.contains(&seat.0) {
            g.row.draw_agreed.clear();
            lines.push("The draw offer lapses.".into());
        }
        let mut text_out = match kind {
            PromptKind::Move => format!("{{@{}}}: {}", user.id, lines.join("\n")),
            PromptKind::Secret => lines.join("\n"),
        };
        match outcome {
            Some(o) => {
                text_out.push('\n');
                text_out.push_str(&self.finish(&mut g, o)?);
            }
            None => {
                self.restart_clock(&mut g);
                text_out.push_str(&self.turn_line(&g)?);
            }
        }
        let mut posts = vec![self.board_post(&g, text_out)?];
        posts.extend(dms);
        // A secret choice's text is the secret itself: only its maker sees it.
        let (log_kind, reply) = match kind {
            PromptKind::Move => ("move", format!("You played {canonical} in game {id}.")),
            PromptKind::Secret => (
                "secret",
                format!("Noted in secret for game {id}: {canonical}."),
            ),
        };
        self.save(
            tx,
            &mut g,
            Some((user, Some(seat))),
            log_kind,
            &canonical,
            posts,
        )
        .await?;
        Ok(Reply::text(reply))
    }

    /// `/resign`.
    pub async fn resign(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        let (_guard, tx, mut g) = self.locked(id).await?;
        let seat = self.seated_in_active(&g, user)?;
        // The game's rules say what a resignation does: end the game, or (cut-throat) take
        // the player out while the others play on.
        let mut text = format!("{{@{}}} resigned.", user.id);
        text.push_str(&self.leave_game(&mut g, &[seat], EndReason::Resignation)?);
        let posts = vec![self.board_post(&g, text)?];
        self.save(tx, &mut g, Some((user, Some(seat))), "resign", "", posts)
            .await?;
        Ok(Reply::text(format!("You resigned game {id}.")))
    }

    /// `/draw`: offers a draw, accepts the one on the table, or declines it.
    pub async fn draw(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        choice: DrawChoice,
    ) -> Result<Reply, ServiceError> {
        let id = self.resolve(user, place, named).await?;
        let (_guard, tx, mut g) = self.locked(id).await?;
        let seat = self.seated_in_active(&g, user)?;
        let in_play = self.seats_in_play(&g)?;
        if !in_play.contains(&seat) {
            return refuse(format!(
                "you are out of game {id}; the players still in it decide on a draw"
            ));
        }
        let (text, reply, kind) = match choice {
            DrawChoice::Decline => {
                if g.row.draw_agreed.is_empty() || g.row.draw_agreed == [seat.0] {
                    return refuse("there is no draw offer to decline");
                }
                g.row.draw_agreed.clear();
                (
                    format!("{{@{}}} declined the draw offer.", user.id),
                    "You declined the draw.".to_string(),
                    "draw-decline",
                )
            }
            DrawChoice::OfferOrAccept | DrawChoice::Accept => {
                if g.row.draw_agreed.contains(&seat.0) {
                    return refuse("you have already offered a draw; the others have to accept it");
                }
                let accepting = !g.row.draw_agreed.is_empty();
                // "accept" with nothing on the table must not turn into an offer the player
                // did not mean to make.
                if choice == DrawChoice::Accept && !accepting {
                    return refuse("there is no draw offer to accept; /draw offer makes one");
                }
                g.row.draw_agreed.push(seat.0);
                if in_play.iter().all(|s| g.row.draw_agreed.contains(&s.0)) {
                    let end = self.finish(&mut g, Outcome::draw(EndReason::Agreement))?;
                    (
                        format!("{{@{}}} accepted the draw.\n{end}", user.id),
                        "You accepted the draw.".to_string(),
                        "draw-accept",
                    )
                } else {
                    let others: Vec<String> = in_play
                        .iter()
                        .copied()
                        .filter(|s| !g.row.draw_agreed.contains(&s.0))
                        .map(|s| g.mention(s))
                        .collect();
                    let verb = if accepting {
                        "also agrees to"
                    } else {
                        "offers"
                    };
                    // Accepting an offer some have still to agree to is no new offer.
                    let reply = if accepting {
                        "You agreed to the draw; it is drawn once the others agree too."
                    } else {
                        "You offered a draw."
                    };
                    (
                        format!(
                            "{{@{}}} {verb} a draw. {}: /draw to accept, /draw decline to refuse.",
                            user.id,
                            others.join(", ")
                        ),
                        reply.to_string(),
                        "draw-offer",
                    )
                }
            }
        };
        let posts = if g.row.status == Status::Finished {
            vec![self.board_post(&g, text)?]
        } else {
            vec![Post::new(Target::GameThread(id), text)]
        };
        self.save(tx, &mut g, Some((user, Some(seat))), kind, "", posts)
            .await?;
        Ok(Reply::text(reply))
    }

    /// A button press, routed to the command it stands for.
    pub async fn press(
        &self,
        user: &User,
        place: &Place,
        button: Button,
    ) -> Result<Reply, ServiceError> {
        let game = Some(button.game);
        match button.action {
            ButtonAction::Join => self.join(user, place, game).await,
            ButtonAction::Start => self.start(user, place, game).await,
            ButtonAction::Resign => self.resign(user, place, game).await,
            ButtonAction::Draw => {
                self.draw(user, place, game, DrawChoice::OfferOrAccept)
                    .await
            }
            ButtonAction::AddComputer => self.add_computer(user, place, None, game).await,
            ButtonAction::RematchAsk => self.rematch(user, place, game).await,
            ButtonAction::TakebackAccept => {
                self.takeback(user, place, game, TakebackChoice::Accept)
                    .await
            }
            ButtonAction::TakebackDecline => {
                self.takeback(user, place, game, TakebackChoice::Decline)
                    .await
            }
        }
    }

    fn seated_in_active(&self, g: &Loaded, user: &User) -> Result<Seat, ServiceError> {
        let id = g.row.id;
        if let Some(ended) = g.ended() {
            return refuse(ended);
        }
        let Some(seat) = g.seat_of(&user.id) else {
            return refuse(format!("you are not playing in game {id}"));
        };
        if g.row.status == Status::Open {
            return refuse(format!("game {id} has not started yet"));
        }
        Ok(seat)
    }

    fn playing_seat(&self, g: &Loaded, user: &User) -> Result<Seat, ServiceError> {
        let seat = self.seated_in_active(g, user)?;
        let prompts = g.game.prompts(g.state()?)?;
        if !prompts.iter().any(|p| p.seat == seat) {
            if let Some(reason) = g.game.waiting_reason(g.state()?, seat)? {
                return refuse(format!("you cannot move in game {}: {reason}", g.row.id));
            }
            let waiting: Vec<String> = prompts.iter().map(|p| g.side(p.seat)).collect();
            // Where seats choose in secret at the same time, a seat left out of such a round
            // has already sealed its choice: it is its turn all right, only not yet resolved.
            let sealed_round =
                !prompts.is_empty() && prompts.iter().all(|p| p.kind == PromptKind::Secret);
            if g.game.info().simultaneous && sealed_round {
                return refuse(format!(
                    "you have sealed your choice in game {}: waiting for {} to seal theirs",
                    g.row.id,
                    waiting.join(" and ")
                ));
            }
            return refuse(format!(
                "it is not your turn in game {}: waiting for {}",
                g.row.id,
                waiting.join(" and ")
            ));
        }
        Ok(seat)
    }

    /// `seats` leave the game (resigned or out of time), each by the game's own rules, in
    /// turn until the game ends. Returns the lines announcing what followed.
    fn leave_game(
        &self,
        g: &mut Loaded,
        seats: &[Seat],
        reason: EndReason,
    ) -> Result<String, ServiceError> {
        let mut out = String::new();
        let count = g.row.seat_count;
        let prompted = |g: &Loaded| -> Result<Vec<Seat>, ServiceError> {
            Ok(g.game.prompts(g.state()?)?.iter().map(|p| p.seat).collect())
        };
        let before = prompted(g)?;
        for &seat in seats {
            g.row.draw_agreed.retain(|s| *s != seat.0);
            let state = g
                .state
                .as_mut()
                .ok_or_else(|| ServiceError::Internal(format!("game {} has no state", g.row.id)))?;
            let events = g.game.leave(state, seat, count, reason)?;
            for event in events {
                match event {
                    Event::Public(line) => {
                        out.push('\n');
                        out.push_str(&line);
                    }
                    Event::GameOver(outcome) => {
                        out.push('\n');
                        out.push_str(&self.finish(g, outcome)?);
                        return Ok(out);
                    }
                    Event::Private { .. } => {}
                }
            }
        }
        // Someone else leaving gives the player to move no more time.
        if prompted(g)? != before {
            self.restart_clock(g);
        }
        out.push_str(&self.turn_line(g)?);
        Ok(out)
    }

    /// The seats still in a game (not out of a cut-throat game), which a draw needs.
    fn seats_in_play(&self, g: &Loaded) -> Result<Vec<Seat>, ServiceError> {
        let state = g.state()?;
        let mut seats = Vec::new();
        for s in (0..g.row.seat_count as u8).map(Seat) {
            if !g.game.is_out(state, s)? {
                seats.push(s);
            }
        }
        Ok(seats)
    }

    /// Ends the game with `outcome`; returns the line announcing it.
    fn finish(&self, g: &mut Loaded, outcome: Outcome) -> Result<String, ServiceError> {
        g.row.status = Status::Finished;
        g.row.deadline = None;
        g.row.draw_agreed.clear();
        g.row.result = Some(
            serde_json::to_string(&outcome).map_err(|e| ServiceError::Internal(e.to_string()))?,
        );
        let winners: Vec<String> = outcome.winners.iter().map(|s| g.mention(*s)).collect();
        let mut line = format!("**Game over: {}.**", g.outcome_text(&outcome));
        if !winners.is_empty() {
            line.push_str(&format!(" Congratulations {}!", winners.join(" and ")));
        }
        Ok(line)
    }

    /// Direct messages for what is new in private: a secret choice now asked of a seat (with
    /// its options as a menu when they fit), and a private panel that changed.
    fn private_posts(&self, g: &Loaded) -> Result<Vec<Post>, ServiceError> {
        let Some(state) = &g.state else {
            return Ok(Vec::new());
        };
        let now = private_of(g)?;
        let mut posts = Vec::new();
        let id = g.row.id;
        for s in &g.seats {
            let seat = s.seat as usize;
            let prompt = now.prompts.get(seat).cloned().flatten();
            let new_prompt =
                prompt.is_some() && prompt != g.before.prompts.get(seat).cloned().flatten();
            let panel = now.panels.get(seat).cloned().flatten();
            let new_panel =
                panel.is_some() && panel != g.before.panels.get(seat).cloned().flatten();
            if !new_prompt && !new_panel {
                continue;
            }
            let mut text = format!("Game {id} ({}), in {{#{id}}}:", g.name());
            let mut choices = Vec::new();
            if let Some(p) = prompt.filter(|_| new_prompt) {
                let options = g.game.legal_texts(state, Seat(s.seat))?;
                text.push_str(&format!("\n**Your secret choice:** {}.", p.text));
                if options.len() <= MENU_LIMIT {
                    text.push_str(&format!(
                        "\nChoose below, or send /secret <choice>. Choices: {}.",
                        options.join(", ")
                    ));
                    choices = options;
                } else {
                    text.push_str("\nSend /secret <choice>; start typing to see the choices.");
                }
            }
            let mut post = Post::new(Target::Direct(s.user_id.clone()), text).with_choices(choices);
            if let Some(panel) = panel.filter(|_| new_panel) {
                post.text
                    .push_str(&format!("\n```\n{}\n```", panel.to_text()));
                post = post.with_image(self.picture(g, Viewer::Seat(Seat(s.seat)))?);
            }
            posts.push(post);
        }
        Ok(posts)
    }

    /// "@bob, your move (Black)." for every seat that must act, with what the variant asks
    /// beyond a plain move ("your zombies may move now ...").
    fn turn_line(&self, g: &Loaded) -> Result<String, ServiceError> {
        let prompts = g.game.prompts(g.state()?)?;
        let mut out = String::new();
        for p in prompts {
            let computer = g.user_of(p.seat).is_some_and(|s| s.computer.is_some());
            let line = match p.kind {
                // A computer is not asked: it is told to be playing, and plays at once.
                PromptKind::Move if computer => {
                    format!("\n{} is thinking ({}).", g.mention(p.seat), g.side(p.seat))
                }
                PromptKind::Secret if computer => format!(
                    "\n{} is choosing in secret ({}).",
                    g.mention(p.seat),
                    g.side(p.seat)
                ),
                PromptKind::Move => format!(
                    "\n{}, your move ({}){}.",
                    g.mention(p.seat),
                    g.side(p.seat),
                    move_prompt_detail(&p, &g.side(p.seat))
                        .map_or(String::new(), |d| format!(": {d}"))
                ),
                PromptKind::Secret => format!(
                    "\n{}, you have a secret choice to make ({}): see your direct messages.",
                    g.mention(p.seat),
                    g.side(p.seat)
                ),
            };
            out.push_str(&line);
        }

        if let Some(deadline) = g.row.deadline {
            out.push_str(&format!(
                " Time left: {}.",
                describe_duration(deadline - self.now())
            ));
        }
        Ok(out)
    }

    fn restart_clock(&self, g: &mut Loaded) {
        g.row.deadline = g.row.days_per_move.map(|d| self.now() + d * DAY);
        g.row.reminded = false;
    }

    /// A post to the game's thread with the board as a spectator sees it: with Resign and Draw
    /// buttons while the game is played, and a Rematch button once it is over.
    fn board_post(&self, g: &Loaded, text: String) -> Result<Post, ServiceError> {
        let png = self.picture(g, Viewer::Spectator)?;
        let buttons = match g.row.status {
            Status::Active => vec![
                Button {
                    action: ButtonAction::Resign,
                    game: g.row.id,
                },
                Button {
                    action: ButtonAction::Draw,
                    game: g.row.id,
                },
            ],
            Status::Finished => vec![Button {
                action: ButtonAction::RematchAsk,
                game: g.row.id,
            }],
            Status::Open | Status::Aborted => Vec::new(),
        };
        Ok(Post::new(Target::GameThread(g.row.id), text)
            .with_image(png)
            .with_buttons(buttons))
    }

    fn picture(&self, g: &Loaded, viewer: Viewer) -> Result<Vec<u8>, ServiceError> {
        let view = g.game.view(g.state()?, viewer)?;
        self.render_view(g, view)
    }

    /// A view drawn with the players' names and, once the game is over, its result.
    fn render_view(&self, g: &Loaded, mut view: View) -> Result<Vec<u8>, ServiceError> {
        for s in &g.seats {
            if let Some(name) = view.players.get_mut(s.seat as usize) {
                *name = s.user_name.clone();
            }
        }
        if g.row.status == Status::Finished {
            view.to_act.clear();
            if let Some(outcome) = g
                .row
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
            {
                view.status = g.outcome_text(&outcome);
            }
        }
        render::render_png(&view).map_err(|e| ServiceError::Internal(e.to_string()))
    }

    // ---- looking ------------------------------------------------------------------------------

    /// The game `user` means, loaded to be looked at (nothing is changed, so no lock).
    async fn look(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<(GameId, Loaded), ServiceError> {
        let id = self.resolve(user, place, named).await?;
        let mut tx = self.store.begin().await?;
        let g = self.load(&mut tx, id).await?;
        tx.rollback().await?;
        Ok((id, g))
    }

    /// `/board`: the board from the user's own side (or a spectator's), with the game's state;
    /// `show` asks for more drawn on it where the game offers it (Shadow Chess's shadows).
    pub async fn board(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        show: Option<String>,
    ) -> Result<Reply, ServiceError> {
        let (id, g) = self.look(user, place, named).await?;
        if g.row.status == Status::Aborted {
            return Ok(Reply::text(format!(
                "Game {id} ({}) was called off.",
                g.name()
            )));
        }
        if g.state.is_none() {
            return Ok(Reply::text(format!(
                "Game {id} ({}) has not started: {}/{} players.",
                g.name(),
                g.seats.len(),
                g.row.seat_count
            )));
        }
        let viewer = g.seat_of(&user.id).map_or(Viewer::Spectator, Viewer::Seat);
        let mut text = format!("Game {id} ({}): ", g.name());
        match g
            .row
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
        {
            Some(o) => text.push_str(&format!("{}.", g.outcome_text(&o))),
            None => text.push_str(&format!("{}.", g.game.view(g.state()?, viewer)?.status)),
        }
        if let Some(deadline) = g.row.deadline.filter(|_| g.row.status == Status::Active) {
            text.push_str(&format!(
                " Time left for this move: {}.",
                describe_duration(deadline - self.now())
            ));
        }
        let image = match show.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => self.picture(&g, viewer)?,
            Some(show) => {
                let offered = g.game.showable();
                if offered.is_empty() {
                    return refuse(format!(
                        "{} has nothing more to show on its board",
                        g.name()
                    ));
                }
                let view = g.game.view_showing(g.state()?, viewer, show)?;
                self.render_view(&g, view)?
            }
        };
        Ok(Reply {
            text,
            image: Some(image),
            ..Reply::default()
        })
    }

    /// `/moves`: everything `user` may play now in the game meant, privately: the list the
    /// autocomplete of /move (or /secret) filters as they type.
    pub async fn moves(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
    ) -> Result<Reply, ServiceError> {
        let (id, g) = self.look(user, place, named).await?;
        // Not seated, not started, over, not their turn: the same answers /move gives.
        let seat = self.playing_seat(&g, user)?;
        let state = g.state()?;
        let secret = g
            .game
            .prompts(state)?
            .iter()
            .any(|p| p.seat == seat && p.kind == PromptKind::Secret);
        let choices = g.game.legal_texts(state, seat)?.join(", ");
        Ok(Reply::text(if secret {
            format!(
                "Your secret choices in game {id} ({}), to send with /secret: {choices}.",
                g.name()
            )
        } else {
            format!("Your moves in game {id} ({}): {choices}.", g.name())
        }))
    }

    /// The moves `user` may make now in the game meant, filtered by what they typed
    /// (for autocomplete; at most `limit`).
    pub async fn suggestions(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        self.suggest(user, place, named, typed, limit, false).await
    }

    /// Like [`Service::suggestions`], for the secret choice asked of `user`.
    pub async fn secret_suggestions(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        self.suggest(user, place, named, typed, limit, true).await
    }

    async fn suggest(
        &self,
        user: &User,
        place: &Place,
        named: Option<GameId>,
        typed: &str,
        limit: usize,
        secret: bool,
    ) -> Vec<String> {
        let id = match (named, secret) {
            (Some(id), _) => Ok(id),
            (None, true) => self.resolve_secret(user, place).await,
            (None, false) => self.resolve(user, place, None).await,
        };
        let Ok(id) = id else {
            return Vec::new();
        };

        let Ok(Some(row)) = self.store.game(id).await else {
            return Vec::new();
        };
        let (Ok(game), Some(json)) = (registry::variant(&row.variant), row.state.as_deref()) else {
            return Vec::new();
        };
        let Ok(seats) = self.store.seats_of(id).await else {
            return Vec::new();
        };
        let Some(seat) = seats
            .iter()
            .find(|s| s.user_id == user.id)
            .map(|s| Seat(s.seat))
        else {
            return Vec::new();
        };
        let Ok(state) = game.load(json) else {
            return Vec::new();
        };
        let typed = typed.trim().to_ascii_lowercase();
        let mut moves = game.legal_texts(&state, seat).unwrap_or_default();
        moves.retain(|m| m.to_ascii_lowercase().contains(&typed));
        moves.sort_by_key(|m| !m.to_ascii_lowercase().starts_with(&typed));
        moves.truncate(limit);
        moves
    }

    /// `/games`: the user's games, live ones first.
    /// `/scores`: the best scores of a game played for points on this server.
    pub async fn scores(&self, place: &Place, variant: &str) -> Result<Reply, ServiceError> {
        let Place::Channel { server, .. } = place else {
            return refuse("best scores are kept per server: ask in one of the server's channels");
        };
        let game = registry::variant(variant)?;
        let info = game.info();
        let Some(order) = game.best_scores() else {
            let scored: Vec<&str> = registry::variants()
                .iter()
                .filter(|v| v.best_scores().is_some())
                .map(|v| v.info().id)
                .collect();
            return refuse(format!(
                "{} is not played for points; best scores are kept for {}",
                info.name,
                scored.join(", ")
            ));
        };
        let games = self
            .store
            .finished_in_server(server, info.id, BEST_SCORE_GAMES)
            .await?;
        let mut table: Vec<(i64, String)> = Vec::new();
        for summary in &games {
            let g = &summary.game;
            let Some(outcome) = g
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
            else {
                continue;
            };
            // A round of a lowest-wins game stopped early has a total lower than it earned.
            if order == BestScores::Lowest && outcome.reason != EndReason::FinalScore {
                continue;
            }
            // The game leaves out scores that say nothing of the play (a custom start).
            let ranked = g
                .state
                .as_deref()
                .and_then(|json| game.load(json).ok())
                .is_some_and(|state| game.ranked(&g.options, &state).unwrap_or(false));
            if !ranked {
                continue;
            }
            let Some(score) = order.score_of(&outcome) else {
                continue;
            };
            // The players who made the score.
            let names: Vec<&str> = summary
                .seats
                .iter()
                .filter(|s| {
                    outcome
                        .standings
                        .iter()
                        .any(|st| st.seat.0 == s.seat && st.score == score)
                })
                .map(|s| s.user_name.as_str())
                .collect();
            let verdict = if outcome.everyone_lost { ", lost" } else { "" };
            table.push((
                score,
                format!("{} (game {}{verdict})", names.join(" and "), g.id),
            ));
        }
        let rule = game
            .ranking_rule()
            .map_or(String::new(), |r| format!(" ({r})"));
        if table.is_empty() {
            let ranked = if rule.is_empty() { "" } else { "ranked " };
            return Ok(Reply::text(format!(
                "No {ranked}game of {} has been finished on this server yet{rule}.",
                info.name
            )));
        }
        // Oldest first, so that the sort (which is stable) ranks an equal score reached later
        // below the first to reach it.
        table.reverse();
        table.sort_by(|a, b| {
            if order.better(a.0, b.0) {
                std::cmp::Ordering::Less
            } else if order.better(b.0, a.0) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        let mut lines = vec![format!(
            "Best scores for {} on this server{rule}:",
            info.name
        )];
        for (i, (score, who)) in table.iter().take(BEST_SCORES_SHOWN).enumerate() {
            lines.push(format!("{}. {score}: {who}", i + 1));
        }
        Ok(Reply::text(lines.join("\n")))
    }

    pub async fn games(&self, user: &User) -> Result<Reply, ServiceError> {
        let all = self.store.games_of(&user.id, false).await?;
        if all.is_empty() {
            return Ok(Reply::text("You have no games yet. Start one with /play."));
        }
        let mut lines = vec!["Your games:".to_string()];
        let mut sorted = all;
        sorted.sort_by_key(|g| {
            (
                g.game.status != Status::Active,
                g.game.status != Status::Open,
                -g.game.id.0,
            )
        });
        for summary in sorted.iter().take(20) {
            let g = &summary.game;
            let name = registry::variant(&g.variant)
                .map(|v| v.info().name)
                .unwrap_or("?");
            let others: Vec<&str> = summary
                .seats
                .iter()
                .filter(|s| s.user_id != user.id)
                .map(|s| s.user_name.as_str())
                .collect();
            // A game for one has no opponent to wait for.
            let opponents = if !others.is_empty() {
                format!("vs {}", others.join(", "))
            } else if g.seat_count == 1 {
                "alone".to_string()
            } else {
                "vs nobody yet".to_string()
            };
            let state = match g.status {
                Status::Active => {
                    let turn = self.whose_turn(g, &summary.seats);
                    if turn.contains(&user.id) {
                        "your move".to_string()
                    } else {
                        "waiting".to_string()
                    }
                }
                Status::Finished => g
                    .result
                    .as_deref()
                    .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
                    .map_or("over".into(), |o| self.describe_outcome(g, &o)),
                other => describe_status(other).to_string(),
            };
            lines.push(format!(
                "- Game {} · {name} · {opponents} · {state} · {{#{}}}",
                g.id, g.id
            ));
        }
        Ok(Reply::text(lines.join("\n")))
    }

    /// An ended game's result with its seats named as the game names them ("Black 1 and
    /// Black 2 win by checkmate").
    fn describe_outcome(&self, g: &GameRow, outcome: &Outcome) -> String {
        let Ok(game) = registry::variant(&g.variant) else {
            return outcome.to_string();
        };
        let state = g.state.as_deref().and_then(|s| game.load(s).ok());
        outcome_text(game, state.as_ref(), outcome)
    }

    fn whose_turn(&self, g: &GameRow, seats: &[SeatRow]) -> Vec<String> {
        let Ok(game) = registry::variant(&g.variant) else {
            return Vec::new();
        };
        let Some(state) = g.state.as_deref().and_then(|s| game.load(s).ok()) else {
            return Vec::new();
        };
        let prompts = game.prompts(&state).unwrap_or_default();
        seats
            .iter()
            .filter(|s| prompts.iter().any(|p| p.seat.0 == s.seat))
            .map(|s| s.user_id.clone())
            .collect()
    }

    /// `/inbox`: direct messages that could not be delivered.
    pub async fn inbox(&self, user: &User) -> Result<Reply, ServiceError> {
        let kept = self.store.take_inbox(&user.id, self.now()).await?;
        if kept.is_empty() {
            return Ok(Reply::text(
                "No kept messages: everything reached your direct messages.",
            ));
        }
        let mut text = String::from("Messages I could not send you directly:");
        let mut image = None;
        for (_, body, png) in kept {
            text.push_str("\n- ");
            text.push_str(&body);
            if png.is_some() {
                image = png;
            }
        }
        Ok(Reply {
            text,
            image,
            ..Reply::default()
        })
    }

    // ---- clocks ---------------------------------------------------------------------------------

    /// Sends due reminders and ends games whose time ran out. Returns how many games changed.
    /// A game whose clock cannot be handled is logged and passed over, so that one game never
    /// stops every other game's clock.
    pub async fn tick(&self) -> Result<usize, ServiceError> {
        let now = self.now();
        if !self.hold_lease(CLOCKS_LEASE).await? {
            // Another process fires the clocks (its row locks would keep this one from firing
            // any twice anyway; the lease spares the work).
            return Ok(0);
        }
        let mut changed = 0;
        for due in self.store.clocks_due(now).await? {
            match self.tick_game(due.game, now).await {
                Ok(true) => changed += 1,
                Ok(false) => {}
                Err(e) => tracing::error!(game = due.game.0, "clock: {e:?}"),
            }
        }
        Ok(changed)
    }

    /// One game's clock: a timeout or a reminder. Returns whether the game changed.
    async fn tick_game(&self, game: GameId, now: i64) -> Result<bool, ServiceError> {
        let _guard = self.lock(game).await;
        let mut tx = self.store.begin().await?;
        let mut g = self.load_for_change(&mut tx, game).await?;
        let (Some(deadline), Some(_)) = (g.row.deadline, g.row.days_per_move) else {
            return Ok(false);
        };
        if g.row.status != Status::Active {
            return Ok(false);
        }
        let id = g.row.id;
        let prompted: Vec<Seat> = g.game.prompts(g.state()?)?.iter().map(|p| p.seat).collect();
        // A computer never runs out of time: its turn waits for it (after a restart, say),
        // and nobody else's clock runs meanwhile.
        let computer = |s: &Seat| g.user_of(*s).is_some_and(|row| row.computer.is_some());
        if !prompted.is_empty() && prompted.iter().all(computer) {
            return Ok(false);
        }
        if deadline <= now {
            // The game's rules say what running out of time does. When several seats run
            // out together (sealed moves), only those who win whichever of them is counted
            // win; where one leaving does not end the game, each leaves in turn.
            let late: Vec<String> = prompted.iter().map(|s| g.mention(*s)).collect();
            let mut text = format!("{} ran out of time.", late.join(" and "));
            if prompted.len() == 1 || g.game.timeout_is_a_pass() {
                text.push_str(&self.leave_game(&mut g, &prompted, EndReason::Timeout)?);
            } else {
                // Nobody asked to act (a game whose end was not recorded) ends as the game
                // says, or drawn.
                let mut winners: Option<Vec<Seat>> = g
                    .game
                    .outcome(g.state()?)?
                    .filter(|_| prompted.is_empty())
                    .map(|o| o.winners);
                for seat in &prompted {
                    let outcome =
                        g.game
                            .concede(g.state()?, *seat, g.row.seat_count, EndReason::Timeout)?;
                    winners = Some(match winners {
                        None => outcome.winners,
                        Some(w) => w
                            .into_iter()
                            .filter(|s| outcome.winners.contains(s))
                            .collect(),
                    });
                }
                let outcome = Outcome::win(winners.unwrap_or_default(), EndReason::Timeout);
                text.push('\n');
                text.push_str(&self.finish(&mut g, outcome)?);
            }
            let posts = vec![self.board_post(&g, text)?];
            self.save(tx, &mut g, None, "timeout", "", posts).await?;
            Ok(true)
        } else if !g.row.reminded && g.row.reminder_at().is_some_and(|at| now >= at) {
            g.row.reminded = true;
            let left = describe_duration(deadline - now);
            let posts = prompted
                .iter()
                .filter_map(|s| g.user_of(*s))
                .map(|s| {
                    Post::new(
                        Target::Direct(s.user_id.clone()),
                        format!(
                            "Reminder: it is your move in game {id} ({}) in {{#{id}}}; {left} left.",
                            g.name()
                        ),
                    )
                })
                .collect();
            self.save(tx, &mut g, None, "reminder", "", posts).await?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// How long until the next clock event (for the scheduler's sleep).
    pub async fn next_clock_event(&self) -> Result<Option<i64>, ServiceError> {
        Ok(self
            .store
            .next_clock_event()
            .await?
            .map(|t| (t - self.now()).max(0)))
    }

    // ---- delivery -------------------------------------------------------------------------------

    /// Delivers every waiting post through `frontend`, oldest first. A direct message that
    /// cannot be delivered is kept for `/inbox` and the game's thread is told so (without its
    /// content). Returns how many posts went out.
    pub async fn flush_outbox(&self, frontend: &impl Deliver) -> Result<usize, ServiceError> {
        let mut sent = 0;
        // Keys whose oldest post waits: later posts with the same key wait behind it, others go.
        let mut waiting = std::collections::HashSet::new();
        loop {
            let batch = self.store.pending(500).await?;
            let mut progressed = false;
            for item in &batch {
                // Only the process holding the outbox's lease delivers, so each post goes out
                // once and in order; it renews the lease as it goes, and stops if it lost it.
                if !self.hold_lease(OUTBOX_LEASE).await? {
                    return Ok(sent);
                }
                let key = item.order_key();
                if waiting.contains(&key) {
                    continue;
                }
                if item.not_before > self.now() {
                    waiting.insert(key);
                    continue;
                }
                match frontend.deliver(self, item).await {
                    Ok(()) => {
                        self.store.mark_delivered(item.id, self.now()).await?;
                        sent += 1;
                    }
                    Err(DeliveryError::DirectMessagesClosed) => {
                        self.direct_messages_closed(item).await?;
                    }
                    Err(DeliveryError::Retry(why)) => {
                        let wait = backoff(item.attempts + 1);
                        let attempts = self.store.mark_attempt(item.id, self.now() + wait).await?;
                        tracing::warn!(post = item.id, attempts, wait, "delivery failed: {why}");
                        waiting.insert(key);
                        continue;
                    }
                    Err(DeliveryError::Rejected(why)) => {
                        tracing::error!(post = item.id, "post refused for good: {why}");
                        self.store.mark_failed(item.id, &why, self.now()).await?;
                    }
                }
                progressed = true;
            }
            if !progressed {
                return Ok(sent);
            }
        }
    }

    /// Whether this process holds the lease `name` (taking it if it is free or ran out, and
    /// renewing it when half of it has passed, so a busy process writes it seldom).
    pub(crate) async fn hold_lease(&self, name: &'static str) -> Result<bool, ServiceError> {
        // An SQLite file serves one process (it refuses a second), which has all the work.
        if self.store.backend() == crate::store::Backend::Sqlite {
            return Ok(true);
        }
        let now = self.now();
        let renew_from = {
            let held = self
                .leases
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            held.get(name).map(|until| until - lease_seconds() / 2)
        };
        if renew_from.is_some_and(|from| now < from) {
            return Ok(true);
        }
        let until = now + lease_seconds();
        let held = self.store.take_lease(name, &self.owner, now, until).await?;
        let mut leases = self
            .leases
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if held {
            leases.insert(name, until);
        } else {
            leases.remove(name);
        }
        Ok(held)
    }

    /// Whether other processes may share this database (PostgreSQL): work they leave in it
    /// wakes nothing here, so waits are kept short.
    pub fn shares_database(&self) -> bool {
        self.store.backend() == crate::store::Backend::Postgres
    }

    /// Gives up this process's leases (a clean stop), so another process takes over at once.
    pub async fn release_leases(&self) -> Result<(), ServiceError> {
        let names: Vec<&'static str> = {
            let mut leases = self
                .leases
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            leases.drain().map(|(name, _)| name).collect()
        };
        for name in names {
            self.store.release_lease(name, &self.owner).await?;
        }
        Ok(())
    }

    /// A direct message that cannot be delivered is kept for `/inbox`, and the game's thread is
    /// told so (without its content).
    async fn direct_messages_closed(&self, item: &Pending) -> Result<(), ServiceError> {
        if let Target::Direct(user) = &item.post.target {
            self.store
                .keep_in_inbox(user, item.game, &item.post, self.now())
                .await?;
            if let Some(game) = item.game {
                let notice = Post::new(
                    Target::GameThread(game),
                    format!(
                        "{{@{user}}}, I could not send you a direct message (are your DMs closed?). \
                         Use /inbox to read it privately."
                    ),
                );
                let mut tx = self.store.begin().await?;
                Store::push_post(&mut tx, Some(game), &notice, self.now()).await?;
                tx.commit().await?;
            }
        }
        self.store.mark_delivered(item.id, self.now()).await?;
        Ok(())
    }

    /// Seconds until the outbox has a post due (0: now), if any waits.
    pub async fn next_delivery_in(&self) -> Result<Option<i64>, ServiceError> {
        Ok(self
            .store
            .next_delivery()
            .await?
            .map(|at| (at - self.now()).max(0)))
    }
}

/// What a game calls a seat: "White", the army it moves ("White 2"), or the armies it holds
/// ("White and Tan"); the colour name where the game cannot say.
fn seat_name(game: &dyn AnyGame, state: Option<&AnyState>, seat: Seat) -> String {
    state
        .and_then(|state| game.seat_name(state, seat).ok())
        .unwrap_or_else(|| seat.colour_name())
}

/// An ended game's result with its seats named as the game names them ("White and Tan win by
/// resignation"): the one text the thread, /board, /games and the picture all give.
fn outcome_text(game: &dyn AnyGame, state: Option<&AnyState>, outcome: &Outcome) -> String {
    outcome.describe(|seat| seat_name(game, state, seat))
}

/// Each seat's secret prompt and private panel, as the game stands.
fn private_of(g: &Loaded) -> Result<Private, ServiceError> {
    let Some(state) = &g.state else {
        return Ok(Private::default());
    };
    let prompts = g.game.prompts(state)?;
    let mut private = Private::default();
    for seat in 0..g.row.seat_count as u8 {
        private.prompts.push(
            prompts
                .iter()
                .find(|p| p.seat.0 == seat && p.kind == PromptKind::Secret)
                .cloned(),
        );
        private
            .panels
            .push(g.game.view(state, Viewer::Seat(Seat(seat)))?.panel);
    }
    Ok(private)
}

fn parse_days(value: &str) -> Result<Option<i64>, ServiceError> {
    let v = value.trim().to_ascii_lowercase();
    // No clock is asked for in words; 0 is refused below like any number out of range, so a
    // typo cannot quietly switch the clock off.
    if matches!(v.as_str(), "none" | "off" | "no" | "unlimited") {
        return Ok(None);
    }
    match v.trim_end_matches('d').parse::<i64>() {
        Ok(n) if (1..=MAX_DAYS_PER_MOVE).contains(&n) => Ok(Some(n)),
        _ => refuse(format!(
            "days_per_move must be a number of days from 1 to {MAX_DAYS_PER_MOVE}, or none; not '{value}'"
        )),
    }
}

/// Reads `key=value` options (or `key:value`) separated by spaces or commas. A FEN holds
/// spaces, so words after `fen=` that are not themselves options belong to the FEN.
///
/// ```
/// # use bot::service::option_pairs;
/// let pairs = option_pairs("days=2 fen=8/8/8/8/8/8/8/K1k5 w - - 0 1, start:5").unwrap();
/// assert_eq!(pairs[0], ("days".into(), "2".into()));
/// assert_eq!(pairs[1], ("fen".into(), "8/8/8/8/8/8/8/K1k5 w - - 0 1".into()));
/// assert_eq!(pairs[2], ("start".into(), "5".into()));
/// assert!(option_pairs("fast").is_err());
/// ```
pub fn option_pairs(text: &str) -> Result<Vec<(String, String)>, ServiceError> {
    fn is_key(k: &str) -> bool {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (separator, word) in words_with_separators(text) {
        // A position runs on over spaces and commas (PDN writes `W21,22:BK1`) until the next
        // `key=value`, or `key:value` with a lower-case word for key (PDN's own `22:BK1` and
        // `K5:B1` are not).
        let starts_option = word.split_once('=').is_some_and(|(k, _)| is_key(k))
            || word.split_once(':').is_some_and(|(k, _)| {
                k.len() >= 2
                    && k.chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
            });
        if let Some((k, v)) = pairs.last_mut() {
            if k == "fen" && !starts_option {
                v.push(separator);
                v.push_str(word);
                continue;
            }
        }
        match word.split_once(['=', ':']).filter(|(k, _)| is_key(k)) {
            Some((k, v)) => pairs.push((k.to_ascii_lowercase(), v.to_string())),
            None => {
                return refuse(format!(
                    "'{word}' is not an option: write key=value, for example days_per_move=2"
                ))
            }
        }
    }
    Ok(pairs)
}

/// The words of `text` split at spaces, commas and semicolons, each with the separator that
/// came just before it.
fn words_with_separators(text: &str) -> Vec<(char, &str)> {
    let mut words = Vec::new();
    let mut separator = ' ';
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, ' ' | ',' | ';') {
            if i > start {
                words.push((separator, &text[start..i]));
            }
            if i > start || separator == ' ' {
                separator = c;
            }
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        words.push((separator, &text[start..]));
    }
    words
}

/// What a move prompt says beyond "White to move", if anything: a turn of several moves
/// (Zombie Chess), a blow that may be declined (Synchronous Chess), a promotion to choose.
fn move_prompt_detail<'a>(p: &'a Prompt, side: &str) -> Option<&'a str> {
    let plain = format!("{side} to move");
    let rest = p
        .text
        .strip_prefix(plain.as_str())
        .unwrap_or(p.text.as_str());
    let rest = rest.trim_start_matches([';', ':', ',']).trim();
    // "(White in check)" after "your move (White):" would be brackets in brackets.
    let rest = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .filter(|r| !r.contains(['(', ')']))
        .unwrap_or(rest);
    (!rest.is_empty()).then_some(rest)
}

fn describe_status(s: Status) -> &'static str {
    match s {
        Status::Open => "waiting for players",
        Status::Active => "being played",
        Status::Finished => "over",
        Status::Aborted => "called off",
    }
}

/// "1 seat left", "2 seats left".
fn seats_left(n: usize) -> String {
    format!("{n} seat{} left", if n == 1 { "" } else { "s" })
}

/// "2 days 3 hours", "5 hours", "12 minutes".
pub fn describe_duration(seconds: i64) -> String {
    let s = seconds.max(0);
    let (d, h, m) = (s / DAY, (s % DAY) / 3600, (s % 3600) / 60);
    let unit = |n: i64, u: &str| format!("{n} {u}{}", if n == 1 { "" } else { "s" });
    if d > 0 {
        if h > 0 {
            format!("{} {}", unit(d, "day"), unit(h, "hour"))
        } else {
            unit(d, "day")
        }
    } else if h > 0 {
        unit(h, "hour")
    } else {
        unit(m.max(1), "minute")
    }
}

#[cfg(test)]
mod option_tests {
    use super::option_pairs;

    #[test]
    fn positions_keep_their_commas_and_spaces() {
        let pairs = option_pairs("fen=B:W21,22:BK1 days_per_move=2").unwrap();
        assert_eq!(pairs[0], ("fen".into(), "B:W21,22:BK1".into()));
        assert_eq!(pairs[1], ("days_per_move".into(), "2".into()));
        let chess = option_pairs("fen=8/8/8/8/8/8/8/K1k5 w - - 0 1, order=joined").unwrap();
        assert_eq!(chess[0].1, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        assert_eq!(chess[1], ("order".into(), "joined".into()));
        let listed = option_pairs("board=cylinder,numbers=on; order:joined").unwrap();
        assert_eq!(listed.len(), 3);
        assert!(option_pairs("cylinder").is_err());
    }
}

#[cfg(test)]
mod prompt_tests {
    use super::*;

    #[test]
    fn a_detail_in_brackets_is_given_without_them() {
        let prompt = |text: &str| Prompt {
            seat: Seat(0),
            kind: PromptKind::Move,
            text: text.into(),
        };
        // "your move (White): White in check", not "(White): (White in check)".
        let checked = prompt("White to move (White in check)");
        assert_eq!(
            move_prompt_detail(&checked, "White"),
            Some("White in check")
        );
        let plain = prompt("White to move");
        assert_eq!(move_prompt_detail(&plain, "White"), None);
        let steps = prompt("White to move: in check");
        assert_eq!(move_prompt_detail(&steps, "White"), Some("in check"));
    }
}

//! A fake Discord on 127.0.0.1 that the real bot code talks to, unchanged: REST under
//! `/api/v10` on plain HTTP and the gateway websocket on the same port.
//!
//! It keeps what a test needs to judge the bot as a user would: the messages in every channel
//! (with their attachments and components), the threads, the DM channels, the commands
//! registered, and every interaction with its answers and how long each took. Every request is
//! recorded. A fault queue makes any endpoint answer 50007 (closed DMs), 429, 500 or hang, and
//! the gateway can drop the connection, ask for a reconnect (op 7) or invalidate the session
//! (op 9).
//!
//! The gateway takes several connections at once, one for each shard, and records the `shard`
//! array of every IDENTIFY; GET /gateway/bot recommends as many shards as a test sets (one by
//! default). As Discord does, the test server's events (its GUILD_CREATE, and every interaction
//! and event a test dispatches) go to shard `(GUILD >> 22) % count` only: shard 0 for a bot
//! that does not shard, and the only connection `dispatch`, `drop_connection` and the like act
//! on. The other shards get a READY without guilds and nothing else. Direct-message
//! interactions go there too (Discord sends them to shard 0; no test tells them apart).
//!
//! Everything the fake sends (gateway events and REST bodies) is first parsed with serenity's
//! own model types, so the fake cannot drift from the shapes serenity accepts from Discord.
//!
//! Modelled after Discord's documented behaviour: a message sent with `enforce_nonce` and a
//! nonce already used in that channel returns the first message instead of posting again; a
//! thread started from a message has the message's id, and a second one on the same message is
//! refused with 160004; each interaction accepts exactly one initial callback (40060 after).
//! A thread archives itself after its `auto_archive_duration` without messages (a test archives
//! or locks one at will): posting in it is refused with 50083, unarchiving it (PATCH
//! `archived: false`) is allowed unless it is locked (403, 50013: only Manage Threads reopens a
//! locked thread). An interaction's token lasts 15 minutes: a follow-up after that is refused
//! with 401, 50027 (a test ages tokens at will).

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use bot::discord::serenity;

use crate::discord_contract;
use serde_json::{json, Value};
use tokio::sync::{mpsc, Notify};

/// The bot's application and user id.
pub const APPLICATION: u64 = 900_000_000_000_000_001;
/// The test server.
pub const GUILD: u64 = 900_000_000_000_000_002;
/// The server's text channel where games are opened.
pub const LOBBY: u64 = 900_000_000_000_000_003;

/// How long the fake (like Discord, "a few minutes") recognises a message's nonce.
const NONCE_WINDOW: Duration = Duration::from_secs(180);

/// How long Discord waits for an interaction's first callback.
const CALLBACK_DEADLINE: Duration = Duration::from_secs(3);

/// The channel id given to follow-up messages (the fake does not keep them as channel posts).
const FOLLOWUP_CHANNEL: u64 = 1;

/// How long an interaction's token may be used for follow-ups.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// One request as the fake received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// The path below `/api/v10`, without the query.
    pub path: String,
    pub json: Option<Value>,
    /// Multipart parts: name, file name, bytes.
    pub parts: Vec<Part>,
    pub at: Instant,
}

/// A part of a multipart request.
#[derive(Clone, Debug)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub bytes: Vec<u8>,
}

/// A message posted in a channel.
#[derive(Clone, Debug)]
pub struct Posted {
    pub id: u64,
    pub channel: u64,
    pub content: String,
    pub nonce: Option<String>,
    /// PNG attachments' bytes.
    pub images: Vec<Vec<u8>>,
    /// The message's components as sent (action rows).
    pub components: Value,
}

impl Posted {
    /// The custom ids of every component.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        for row in self.components.as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                if let Some(id) = c["custom_id"].as_str() {
                    ids.push(id.to_string());
                }
            }
        }
        ids
    }
    /// The options offered by the message's select menu, if it has one.
    pub fn menu_options(&self) -> Vec<String> {
        let mut options = Vec::new();
        for row in self.components.as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                for o in c["options"].as_array().into_iter().flatten() {
                    if let Some(v) = o["value"].as_str() {
                        options.push(v.to_string());
                    }
                }
            }
        }
        options
    }
}

/// A kind of channel the fake knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    Text,
    Thread { parent: u64 },
    Direct { user: u64 },
}

/// An interaction the fake sent, and how the bot answered it.
#[derive(Clone, Debug)]
pub struct Interaction {
    pub id: u64,
    pub token: String,
    pub kind: u8,
    pub sent: Instant,
    /// Initial callbacks: the response type and when it came. Exactly one is right.
    pub callbacks: Vec<(u64, Instant, Value)>,
    /// Follow-up messages (content, ephemeral).
    pub followups: Vec<(String, bool)>,
    /// Callbacks that came after Discord's 3 seconds (refused with 10062).
    pub late_callbacks: usize,
    /// Who made it.
    pub user: u64,
    /// Time added to the token's age, as if it had been made that much earlier.
    pub aged: Duration,
    /// Follow-ups refused because the token had expired.
    pub expired_followups: usize,
}

impl Interaction {
    /// How old the interaction's token is.
    pub fn token_age(&self) -> Duration {
        self.sent.elapsed() + self.aged
    }

    /// Every text the user was shown: the callback's content and follow-ups.
    pub fn texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .callbacks
            .iter()
            .filter_map(|(_, _, d)| d["data"]["content"].as_str().map(str::to_string))
            .collect();
        texts.extend(self.followups.iter().map(|(t, _)| t.clone()));
        texts
    }
}

/// A way to fail a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// 403 with code 50007: "Cannot send messages to this user".
    DirectMessagesClosed,
    /// 429 with `retry-after`.
    RateLimited { retry_after: u64 },
    /// 500.
    ServerError,
    /// 400 with code 50035 (invalid form body).
    Invalid,
    /// Never answer (the bot's request times out or waits).
    Hang,
    /// Do what was asked, then answer 500 as if the answer were lost on the way back.
    AnswerLost,
    /// 401: the token is wrong (reset in the Developer Portal).
    Unauthorized,
}

/// Which requests a fault hits.
#[derive(Clone, Debug)]
enum FaultTarget {
    /// A method and a path below `/api/v10`, `*` matching one segment.
    Route(Method, String),
    /// A message posted in the DM channel with this user.
    DirectMessage(u64),
}

/// A user of the fake server.
#[derive(Clone, Debug)]
pub struct Person {
    pub id: u64,
    pub name: String,
}

/// What the gateway is told to do to the connected bot.
enum GatewayOrder {
    Send(Value),
    /// Close the TCP connection without a close frame.
    Drop,
    /// Close with this code.
    Close(u16),
}

struct Session {
    id: String,
    /// Every dispatch of this session, with its sequence number.
    log: Vec<(u64, Value)>,
}

#[derive(Default)]
struct World {
    requests: Vec<Recorded>,
    faults: Vec<(FaultTarget, Fault)>,
    next_id: u64,
    channels: HashMap<u64, ChannelKind>,
    messages: Vec<Posted>,
    /// Nonces of recent messages: Discord remembers them for a few minutes.
    nonces: HashMap<(u64, String), (u64, Instant)>,
    threaded_messages: HashSet<u64>,
    interactions: Vec<Interaction>,
    global_commands: Vec<Value>,
    guild_commands: Vec<Value>,
    registrations: usize,
    users: HashMap<u64, String>,
    session: Option<Session>,
    identifies: usize,
    resumes: usize,
    heartbeats: usize,
    connection: Option<mpsc::UnboundedSender<GatewayOrder>>,
    connections: usize,
    /// Events dispatched while no connection was up, for the next RESUME.
    buffered: Vec<Value>,
    /// The gateway intents of the last IDENTIFY.
    intents: Option<u64>,
    /// REST exchanges held to Discord's OpenAPI document, and what they broke.
    exchanges_checked: usize,
    mismatches: Vec<String>,
    // ---- the gateway's behaviours a test can ask for ----
    /// The HELLO interval for connections from now on, where a test set one.
    heartbeat_interval: Option<u64>,
    /// A zombied connection: its heartbeats arrive but are never acknowledged.
    unacknowledged: Option<mpsc::UnboundedSender<GatewayOrder>>,
    /// Every IDENTIFY is answered by closing with this code instead of READY.
    refuse_identify: Option<u16>,
    /// The path each IDENTIFY came in on, in order.
    identified_at: Vec<&'static str>,
    /// The path each RESUME came in on, in order.
    resumed_at: Vec<&'static str>,
    /// Every thread's name and archive state.
    thread_states: HashMap<u64, ThreadState>,
    /// Every interaction's token expires as soon as its first callback is taken (as if the
    /// bot's work after deferring took a quarter of an hour).
    tokens_expire_after_callback: bool,
    /// Permissions taken from the bot in a channel (bits), as a moderator's overwrite would.
    denied: HashMap<u64, u64>,
    // ---- shards ----
    /// The `shards` GET /gateway/bot recommends (1 unless a test set it).
    recommended_shards: Option<u32>,
    /// The `shard` array ([id, count]) of every IDENTIFY, in order ([0, 1] where none was sent).
    shard_identifies: Vec<(u64, u64)>,
    /// The connections of shards that do not carry the test server (its events go to shard
    /// `(GUILD >> 22) % count`, whose connection and session are `connection` and `session`).
    other_shards: HashMap<u64, OtherShard>,
}

/// A connected shard the test server's events do not go to: its READY lists no guild and
/// nothing is dispatched on it (it may still RESUME).
struct OtherShard {
    connection: mpsc::UnboundedSender<GatewayOrder>,
    session: String,
    /// Its last sequence number.
    seq: u64,
}

/// The shard Discord sends a guild's events to: `(guild_id >> 22) % count`.
pub fn shard_of(guild: u64, count: u64) -> u64 {
    (guild >> 22) % count.max(1)
}

/// A thread as Discord keeps it.
#[derive(Clone, Debug)]
struct ThreadState {
    name: String,
    /// Minutes without a message before Discord archives it.
    auto_archive_duration: u64,
    archived: bool,
    /// Only members with Manage Threads may unarchive it (and the bot has not).
    locked: bool,
}

struct Shared {
    world: Mutex<World>,
    changed: Notify,
    addr: SocketAddr,
    heartbeat_ms: u64,
}

/// The fake Discord server. Dropping it stops it.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    /// Stops the server, says how many exchanges were held to Discord's document, and fails
    /// the test that broke it.
    fn drop(&mut self) {
        self.server.abort();
        // A panic in the fake (poisoning its lock) must not hide what the exchanges broke.
        let (checked, mismatches) = {
            let world = self
                .shared
                .world
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (world.exchanges_checked, world.mismatches.clone())
        };
        static IN_THIS_BINARY: std::sync::atomic::AtomicUsize =
            std::sync::atomic::AtomicUsize::new(0);
        let total =
            IN_THIS_BINARY.fetch_add(checked, std::sync::atomic::Ordering::SeqCst) + checked;
        // Straight to the process's stderr, past the test harness's capture, so the suite's
        // output shows the count of every test and the running total of its binary.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "fake Discord: {checked} REST exchanges checked against Discord's OpenAPI document \
             ({total} in this test binary so far), {} mismatches",
            mismatches.len()
        );
        for mismatch in &mismatches {
            let _ = writeln!(std::io::stderr(), "  {mismatch}");
        }
        if !mismatches.is_empty() && !std::thread::panicking() {
            panic!(
                "the exchanges broke Discord's published contract:\n{}",
                mismatches.join("\n")
            );
        }
    }
}

/// Parses `value` as serenity's `T`, or panics naming what did not fit: the fake must only
/// send what serenity accepts from Discord.
fn checked<T: serde::de::DeserializeOwned>(what: &str, value: Value) -> Value {
    if let Err(e) = serde_json::from_value::<T>(value.clone()) {
        panic!("the fake built a {what} serenity cannot read: {e}\n{value:#}");
    }
    value
}

fn snowflake_time() -> String {
    "2026-11-23T12:00:00.000000+00:00".to_string()
}

fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(), "username": name, "global_name": name, "discriminator": "0",
        "avatar": null, "bot": bot, "public_flags": 0, "flags": 0, "primary_guild": null,
    })
}

/// `value` without its null fields, as Discord leaves out what is not set.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// A message's components as Discord answers them: each numbered (`id`), depth first from 1,
/// where the sender gave no number.
fn numbered_components(components: &Value) -> Value {
    fn number(component: &mut Value, next: &mut u64) {
        if component.get("id").is_none_or(Value::is_null) {
            component["id"] = json!(*next);
        }
        *next += 1;
        // A select menu is answered with its bounds, Discord's defaults where none were sent.
        if component["type"] == json!(3) {
            for bound in ["min_values", "max_values"] {
                if component.get(bound).is_none() {
                    component[bound] = json!(1);
                }
            }
        }
        if let Some(children) = component
            .get_mut("components")
            .and_then(Value::as_array_mut)
        {
            for child in children {
                number(child, next);
            }
        }
    }
    let mut out = without_nulls(components);
    let mut next = 1;
    for component in out.as_array_mut().into_iter().flatten() {
        number(component, &mut next);
    }
    out
}

impl FakeDiscord {
    /// Starts the fake on a free loopback port.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut world = World {
            next_id: 1_000_000_000_000_000_000,
            ..World::default()
        };
        world.channels.insert(LOBBY, ChannelKind::Text);
        let shared = Arc::new(Shared {
            world: Mutex::new(world),
            changed: Notify::new(),
            addr,
            heartbeat_ms: 1_000,
        });
        let app = Router::new()
            .route(GATEWAY_PATH, axum::routing::get(gateway))
            .route(RESUME_GATEWAY_PATH, axum::routing::get(resume_gateway))
            .fallback(rest)
            .with_state(shared.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeDiscord { shared, server }
    }

    /// The base URL for serenity's `HttpBuilder::proxy` (and `ROOKERY_DISCORD_API`).
    pub fn url(&self) -> String {
        format!("http://{}", self.shared.addr)
    }

    /// A member of the server.
    pub fn person(&self, id: u64, name: &str) -> Person {
        self.world().users.insert(id, name.to_string());
        Person {
            id,
            name: name.to_string(),
        }
    }

    fn world(&self) -> std::sync::MutexGuard<'_, World> {
        self.shared.world.lock().unwrap()
    }

    /// Makes the next request matching `method` and `path` (`*` matches one segment) fail.
    pub fn fail_next(&self, method: &str, path: &str, fault: Fault) {
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        self.world()
            .faults
            .push((FaultTarget::Route(method, path.to_string()), fault));
    }

    /// Makes the next message posted to `user` by DM fail.
    pub fn fail_next_dm(&self, user: u64, fault: Fault) {
        self.world()
            .faults
            .push((FaultTarget::DirectMessage(user), fault));
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.world().requests.clone()
    }

    /// Every message posted so far, in order.
    pub fn messages(&self) -> Vec<Posted> {
        self.world().messages.clone()
    }

    /// The messages of one channel.
    pub fn messages_in(&self, channel: u64) -> Vec<Posted> {
        self.messages()
            .into_iter()
            .filter(|m| m.channel == channel)
            .collect()
    }

    /// The kind of a channel, if the fake has it.
    pub fn channel(&self, id: u64) -> Option<ChannelKind> {
        self.world().channels.get(&id).copied()
    }

    /// A moderator deletes a channel or thread.
    pub fn delete_channel(&self, id: u64) {
        self.world().channels.remove(&id);
    }

    /// The thread archives itself, as Discord does after its `auto_archive_duration` (a week
    /// for a game's thread) without messages.
    pub fn archive_thread(&self, id: u64) {
        self.thread_state(id, |t| t.archived = true);
    }

    /// A moderator locks the thread and closes it: it is archived, and only Manage Threads may
    /// reopen it.
    pub fn lock_thread(&self, id: u64) {
        self.thread_state(id, |t| {
            t.archived = true;
            t.locked = true;
        });
    }

    fn thread_state(&self, id: u64, change: impl FnOnce(&mut ThreadState)) {
        let mut world = self.world();
        assert!(
            matches!(world.channels.get(&id), Some(ChannelKind::Thread { .. })),
            "{id} is not a thread"
        );
        change(
            world
                .thread_states
                .entry(id)
                .or_insert_with(|| ThreadState::new("thread", 10080)),
        );
    }

    /// A thread's (archived, locked) state.
    pub fn thread_archived(&self, id: u64) -> Option<(bool, bool)> {
        self.world()
            .thread_states
            .get(&id)
            .map(|t| (t.archived, t.locked))
    }

    /// How long a thread waits without messages before it archives itself, in minutes, as
    /// the bot asked when making it.
    pub fn auto_archive_duration(&self, id: u64) -> Option<u64> {
        self.world()
            .thread_states
            .get(&id)
            .map(|t| t.auto_archive_duration)
    }

    /// Every interaction's token ages by `by` (past [`TOKEN_LIFETIME`], its follow-ups are
    /// refused).
    pub fn age_tokens(&self, by: Duration) {
        for i in &mut self.world().interactions {
            i.aged += by;
        }
    }

    /// From now on (or no longer), each interaction's token expires as soon as its first
    /// callback is taken: the follow-ups of an answer that took over 15 minutes.
    pub fn expire_tokens_after_callback(&self, expire: bool) {
        self.world().tokens_expire_after_callback = expire;
    }

    /// Threads made in `parent`.
    pub fn threads_of(&self, parent: u64) -> Vec<u64> {
        let world = self.world();
        let mut threads: Vec<u64> = world
            .channels
            .iter()
            .filter(|(_, k)| **k == ChannelKind::Thread { parent })
            .map(|(id, _)| *id)
            .collect();
        threads.sort();
        threads
    }

    /// The DM channel with `user`, if the bot opened one.
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        self.world()
            .channels
            .iter()
            .find(|(_, k)| **k == ChannelKind::Direct { user })
            .map(|(id, _)| *id)
    }

    /// The messages sent to `user` by DM.
    pub fn dms_to(&self, user: u64) -> Vec<Posted> {
        match self.dm_channel(user) {
            Some(channel) => self.messages_in(channel),
            None => Vec::new(),
        }
    }

    /// Commands registered: (global, in the guild), and how many registration calls came.
    pub fn commands(&self) -> (Vec<Value>, Vec<Value>, usize) {
        let world = self.world();
        (
            world.global_commands.clone(),
            world.guild_commands.clone(),
            world.registrations,
        )
    }

    /// Gateway counts: (connections, IDENTIFYs, RESUMEs, heartbeats).
    pub fn gateway_counts(&self) -> (usize, usize, usize, usize) {
        let world = self.world();
        (
            world.connections,
            world.identifies,
            world.resumes,
            world.heartbeats,
        )
    }

    /// The gateway intents the bot identified with.
    pub fn intents(&self) -> Option<u64> {
        self.world().intents
    }

    /// Every interaction sent so far.
    pub fn interactions(&self) -> Vec<Interaction> {
        self.world().interactions.clone()
    }

    /// The interaction with this id.
    pub fn interaction(&self, id: u64) -> Option<Interaction> {
        self.world()
            .interactions
            .iter()
            .find(|i| i.id == id)
            .cloned()
    }

    /// Waits (up to `limit`) until `check` holds of the fake's state; panics with `what` if
    /// it never does.
    pub async fn wait_until<T>(
        &self,
        what: &str,
        limit: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + limit;
        loop {
            let changed = self.shared.changed.notified();
            if let Some(value) = check(self) {
                return value;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                panic!("timed out waiting for {what}");
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(200)), changed).await;
        }
    }

    /// Waits until the bot is connected and identified (READY sent).
    pub async fn wait_ready(&self) {
        self.wait_until("the bot to connect", Duration::from_secs(20), |f| {
            let w = f.world();
            (w.connection.is_some() && w.session.is_some()).then_some(())
        })
        .await;
    }

    fn next_id(&self) -> u64 {
        let mut world = self.world();
        world.next_id += 1;
        world.next_id
    }

    // ---- the gateway ------------------------------------------------------------------------

    /// Dispatches an event (`t`, `d`) to the bot, parsed with serenity's types first. Sent now
    /// if connected, otherwise kept for the next RESUME.
    pub fn dispatch(&self, kind: &str, data: Value) {
        let mut world = self.world();
        let Some(session) = world.session.as_mut() else {
            panic!("dispatch before the bot identified");
        };
        let seq = session.log.len() as u64 + 1;
        let event = json!({"op": 0, "t": kind, "s": seq, "d": data});
        let parsed: serenity::GatewayEvent = match serde_json::from_value(event.clone()) {
            Ok(parsed) => parsed,
            Err(e) => panic!("the fake built a {kind} serenity cannot read: {e}\n{event:#}"),
        };
        if let serenity::GatewayEvent::Dispatch(_, serenity::Event::Unknown(_)) = parsed {
            panic!("serenity does not know the event {kind}");
        }
        session.log.push((seq, event.clone()));
        let sent = world
            .connection
            .as_ref()
            .is_some_and(|c| c.send(GatewayOrder::Send(event.clone())).is_ok());
        if !sent {
            world.buffered.push(event);
        }
    }

    /// Drops the gateway connection without a close frame (a network failure).
    pub fn drop_connection(&self) {
        if let Some(c) = self.world().connection.take() {
            let _ = c.send(GatewayOrder::Drop);
        }
    }

    /// Closes the gateway connection with `code`.
    pub fn close_connection(&self, code: u16) {
        if let Some(c) = self.world().connection.take() {
            let _ = c.send(GatewayOrder::Close(code));
        }
    }

    /// Sends op 7: reconnect and resume.
    pub fn request_reconnect(&self) {
        self.send_op(json!({"op": 7, "d": null}));
    }

    /// Sends op 9: the session is invalid (`resumable` or not).
    pub fn invalidate_session(&self, resumable: bool) {
        if !resumable {
            self.world().session = None;
        }
        self.send_op(json!({"op": 9, "d": resumable}));
    }

    fn send_op(&self, payload: Value) {
        let _: serenity::GatewayEvent = serde_json::from_value(payload.clone()).unwrap();
        if let Some(c) = self.world().connection.as_ref() {
            let _ = c.send(GatewayOrder::Send(payload));
        }
    }

    /// Sets the heartbeat interval that HELLO gives the connections made from now on (one
    /// second unless set; Discord's is about 41 seconds).
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.world().heartbeat_interval =
            Some(u64::try_from(interval.as_millis()).unwrap_or(u64::MAX));
    }

    /// Sends op 1: Discord asks for a heartbeat now, without waiting for the interval.
    pub fn ask_heartbeat(&self) {
        self.send_op(json!({"op": 1, "d": null}));
    }

    /// Stops acknowledging the current connection's heartbeats: they arrive, but no op 11 goes
    /// back, as on a zombied connection. A new connection is acknowledged again.
    pub fn stop_acknowledging(&self) {
        let mut world = self.world();
        world.unacknowledged = world.connection.clone();
    }

    /// Answers every IDENTIFY from now on by closing the connection with `code` (4004: the
    /// token is wrong; 4014: an intent the application may not use).
    pub fn refuse_identify(&self, code: u16) {
        self.world().refuse_identify = Some(code);
    }

    /// Makes GET /gateway/bot recommend `count` shards (`--shards auto`).
    pub fn set_recommended_shards(&self, count: u32) {
        self.world().recommended_shards = Some(count);
    }

    /// The `shard` array, `(id, count)`, of every IDENTIFY so far, in order.
    pub fn shard_identifies(&self) -> Vec<(u64, u64)> {
        self.world().shard_identifies.clone()
    }

    /// The paths the IDENTIFYs and the RESUMEs came in on, each in order:
    /// [`GATEWAY_PATH`] or [`RESUME_GATEWAY_PATH`].
    pub fn gateway_paths(&self) -> (Vec<&'static str>, Vec<&'static str>) {
        let world = self.world();
        (world.identified_at.clone(), world.resumed_at.clone())
    }

    // ---- interactions a user makes ------------------------------------------------------------

    fn new_interaction(&self, kind: u8, who: &Person) -> (u64, String) {
        let id = self.next_id();
        let token = format!("token-{id}");
        self.world().interactions.push(Interaction {
            id,
            token: token.clone(),
            kind,
            sent: Instant::now(),
            callbacks: Vec::new(),
            followups: Vec::new(),
            late_callbacks: 0,
            user: who.id,
            aged: Duration::ZERO,
            expired_followups: 0,
        });
        (id, token)
    }

    /// Where an interaction happens: a guild channel (or thread) with a member, or a DM.
    fn place(&self, who: &Person, channel: u64) -> Value {
        let kind = self.channel(channel);
        match kind {
            Some(ChannelKind::Direct { .. }) => json!({
                "channel_id": channel.to_string(),
                "channel": {"id": channel.to_string(), "type": 1},
                "user": user_json(who.id, &who.name, false),
                "context": 1,
            }),
            _ => json!({
                "guild_id": GUILD.to_string(),
                "channel_id": channel.to_string(),
                "channel": {"id": channel.to_string(), "type": if matches!(kind, Some(ChannelKind::Thread { .. })) { 11 } else { 0 }},
                "member": {
                    "user": user_json(who.id, &who.name, false),
                    "roles": [], "joined_at": snowflake_time(), "deaf": false, "mute": false,
                    "flags": 0, "permissions": "2248473465835073",
                },
                "context": 0,
            }),
        }
    }

    fn interaction_json(&self, id: u64, token: &str, kind: u8, place: Value, data: Value) -> Value {
        let mut event = json!({
            "id": id.to_string(),
            "application_id": APPLICATION.to_string(),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": "en-GB",
            "guild_locale": "en-GB",
            "app_permissions": "2248473465835073",
            "entitlements": [],
            "attachment_size_limit": 10_485_760,
            "authorizing_integration_owners": {"0": GUILD.to_string()},
        });
        for (k, v) in place.as_object().unwrap() {
            event[k] = v.clone();
        }
        // Discord tells the bot its own permissions in the server channel of the interaction.
        if let (true, Some(channel)) = (
            event.get("guild_id").is_some(),
            event["channel_id"]
                .as_str()
                .and_then(|c| c.parse::<u64>().ok()),
        ) {
            event["app_permissions"] = json!(self.bot_permissions_in(channel).bits().to_string());
        }
        checked::<serenity::Interaction>("interaction", event)
    }

    /// `who` runs `/name` with `options` (name, value) in `channel`; returns the interaction id.
    pub fn slash(&self, who: &Person, channel: u64, name: &str, options: &[(&str, Value)]) -> u64 {
        let (id, token) = self.new_interaction(2, who);
        let data = json!({
            "id": self.command_id(name),
            "name": name,
            "type": 1,
            "options": options.iter().map(|(n, v)| json!({
                "name": n,
                "type": option_type(v),
                "value": v,
            })).collect::<Vec<_>>(),
        });
        let event = self.interaction_json(id, &token, 2, self.place(who, channel), data);
        self.dispatch("INTERACTION_CREATE", event);
        id
    }

    /// Like [`FakeDiscord::slash`], with user options besides: each (option name, person) is
    /// sent as Discord sends a user option, the person's id as its value and the person in the
    /// interaction's resolved users.
    pub fn slash_with_users(
        &self,
        who: &Person,
        channel: u64,
        name: &str,
        options: &[(&str, Value)],
        users: &[(&str, &Person)],
    ) -> u64 {
        let (id, token) = self.new_interaction(2, who);
        let mut sent: Vec<Value> = options
            .iter()
            .map(|(n, v)| json!({"name": n, "type": option_type(v), "value": v}))
            .collect();
        let mut resolved = serde_json::Map::new();
        for (option, person) in users {
            sent.push(json!({"name": option, "type": 6, "value": person.id.to_string()}));
            resolved.insert(
                person.id.to_string(),
                user_json(person.id, &person.name, false),
            );
        }
        let data = json!({
            "id": self.command_id(name),
            "name": name,
            "type": 1,
            "options": sent,
            "resolved": {"users": resolved},
        });
        let event = self.interaction_json(id, &token, 2, self.place(who, channel), data);
        self.dispatch("INTERACTION_CREATE", event);
        id
    }

    /// `who` types `partial` into option `focused` of `/name` (other options as given).
    pub fn autocomplete(
        &self,
        who: &Person,
        channel: u64,
        name: &str,
        focused: &str,
        partial: &str,
        others: &[(&str, Value)],
    ) -> u64 {
        let (id, token) = self.new_interaction(4, who);
        let mut options: Vec<Value> = others
            .iter()
            .map(|(n, v)| json!({"name": n, "type": option_type(v), "value": v}))
            .collect();
        options.push(json!({"name": focused, "type": 3, "value": partial, "focused": true}));
        let data =
            json!({"id": self.command_id(name), "name": name, "type": 1, "options": options});
        let event = self.interaction_json(id, &token, 4, self.place(who, channel), data);
        self.dispatch("INTERACTION_CREATE", event);
        id
    }

    /// `who` presses the button `custom_id` on `message`.
    pub fn press(&self, who: &Person, message: &Posted, custom_id: &str) -> u64 {
        self.component(
            who,
            message,
            json!({"custom_id": custom_id, "component_type": 2}),
        )
    }

    /// `who` picks `value` in the select menu `custom_id` on `message`.
    pub fn select(&self, who: &Person, message: &Posted, custom_id: &str, value: &str) -> u64 {
        self.component(
            who,
            message,
            json!({"custom_id": custom_id, "component_type": 3, "values": [value]}),
        )
    }

    fn component(&self, who: &Person, message: &Posted, data: Value) -> u64 {
        let (id, token) = self.new_interaction(3, who);
        let mut place = self.place(who, message.channel);
        place["message"] = self.message_json(message);
        let event = self.interaction_json(id, &token, 3, place, data);
        self.dispatch("INTERACTION_CREATE", event);
        id
    }

    fn command_id(&self, name: &str) -> String {
        let world = self.world();
        world
            .guild_commands
            .iter()
            .chain(world.global_commands.iter())
            .find(|c| c["name"] == name)
            .and_then(|c| c["id"].as_str().map(str::to_string))
            .unwrap_or_else(|| "1".to_string())
    }

    /// Waits for the bot's answer to an interaction: its first follow-up or response text.
    pub async fn answer(&self, interaction: u64) -> String {
        self.wait_until(
            &format!("an answer to interaction {interaction}"),
            Duration::from_secs(20),
            |f| {
                let i = f.interaction(interaction)?;
                i.followups.first().map(|(t, _)| t.clone()).or_else(|| {
                    i.callbacks
                        .iter()
                        .find_map(|(_, _, d)| d["data"]["content"].as_str().map(str::to_string))
                })
            },
        )
        .await
    }

    /// `who` opens a game with `/play variant options` in the lobby; waits for the bot's answer
    /// and the game's announcement, and returns the game's number and that announcement.
    pub async fn play(&self, who: &Person, variant: &str, options: &str) -> (i64, Posted) {
        let id = self.slash(
            who,
            LOBBY,
            "play",
            &[("variant", json!(variant)), ("options", json!(options))],
        );
        let answer = self.answer(id).await;
        // "Game 2 created: ..."
        let number: i64 = answer
            .strip_prefix("Game ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("/play was refused: {answer}"));
        let announcement = format!("(game {number}:");
        let lobby = self
            .wait_until("the game's announcement", Duration::from_secs(20), |f| {
                f.messages_in(LOBBY)
                    .into_iter()
                    .find(|m| m.content.contains(&announcement))
            })
            .await;
        (number, lobby)
    }

    /// Waits for the choices an autocomplete interaction was answered with.
    pub async fn choices(&self, interaction: u64) -> Vec<String> {
        self.wait_until("autocomplete choices", Duration::from_secs(20), |f| {
            let i = f.interaction(interaction)?;
            let (_, _, body) = i.callbacks.iter().find(|(t, _, _)| *t == 8)?;
            Some(
                body["data"]["choices"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c["value"].as_str().map(str::to_string))
                    .collect(),
            )
        })
        .await
    }

    /// Every interaction was answered by exactly one callback within Discord's 3 seconds, and
    /// every answer was private (Rookery answers each user only to them).
    pub fn assert_interactions_answered(&self) {
        self.assert_interactions_answered_but_shared(&[]);
    }

    /// As [`FakeDiscord::assert_interactions_answered`], but the interactions in `shared` may
    /// follow up in public too: a finished game's record or replay, shared with everyone.
    pub fn assert_interactions_answered_but_shared(&self, shared: &[u64]) {
        for i in self.interactions() {
            for (kind, _, body) in &i.callbacks {
                if matches!(kind, 4 | 5) {
                    let flags = body["data"]["flags"].as_u64().unwrap_or(0);
                    assert!(
                        flags & 64 != 0,
                        "interaction {} answered publicly: {body}",
                        i.id
                    );
                }
            }
            for (text, ephemeral) in &i.followups {
                assert!(
                    *ephemeral || shared.contains(&i.id),
                    "interaction {} followed up publicly: {text}",
                    i.id
                );
            }
            assert_eq!(
                i.callbacks.len(),
                1,
                "interaction {} (type {}) had {} callbacks ({} refused as too late)",
                i.id,
                i.kind,
                i.callbacks.len(),
                i.late_callbacks
            );
            let took = i.callbacks[0].1 - i.sent;
            assert!(
                took < Duration::from_secs(3),
                "interaction {} answered after {took:?}",
                i.id
            );
        }
    }

    fn message_json(&self, m: &Posted) -> Value {
        message_value(&self.shared, m)
    }
}

fn option_type(value: &Value) -> u8 {
    match value {
        Value::Number(n) if n.is_i64() => 4,
        Value::Number(_) => 10,
        Value::Bool(_) => 5,
        _ => 3,
    }
}

// ---- the gateway websocket ----------------------------------------------------------------------

/// Where the gateway is first reached: the URL `GET /gateway/bot` gives.
pub const GATEWAY_PATH: &str = "/gateway";
/// Where READY's `resume_gateway_url` points: like Discord, another address than the first,
/// where a dropped session is to be resumed.
pub const RESUME_GATEWAY_PATH: &str = "/gateway-resume";

async fn gateway(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| connection(shared, socket, GATEWAY_PATH))
}

async fn resume_gateway(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| connection(shared, socket, RESUME_GATEWAY_PATH))
}

/// One gateway connection, made at `path`.
async fn connection(shared: Arc<Shared>, mut socket: WebSocket, path: &'static str) {
    let (orders, mut next_order) = mpsc::unbounded_channel();
    let heartbeat_ms = shared
        .world
        .lock()
        .unwrap()
        .heartbeat_interval
        .unwrap_or(shared.heartbeat_ms);
    let hello = json!({"op": 10, "d": {"heartbeat_interval": heartbeat_ms}});
    if socket
        .send(WsMessage::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    {
        let mut world = shared.world.lock().unwrap();
        world.connections += 1;
    }
    shared.changed.notify_waiters();
    loop {
        tokio::select! {
            order = next_order.recv() => match order {
                Some(GatewayOrder::Send(v)) => {
                    if socket.send(WsMessage::Text(v.to_string().into())).await.is_err() {
                        break;
                    }
                }
                Some(GatewayOrder::Drop) | None => return,
                Some(GatewayOrder::Close(code)) => {
                    let frame = axum::extract::ws::CloseFrame { code, reason: "closed by the fake".into() };
                    let _ = socket.send(WsMessage::Close(Some(frame))).await;
                    break;
                }
            },
            message = socket.recv() => {
                let Some(Ok(message)) = message else { break };
                let text = match message {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Binary(b) => String::from_utf8_lossy(&b).to_string(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else { continue };
                let replies = on_gateway_payload(&shared, &payload, &orders, path);
                for reply in replies {
                    if socket.send(WsMessage::Text(reply.to_string().into())).await.is_err() {
                        return;
                    }
                }
                shared.changed.notify_waiters();
            }
        }
    }
}

/// Answers one payload from the bot on the connection made at `path`; returns what to send
/// back at once.
fn on_gateway_payload(
    shared: &Shared,
    payload: &Value,
    orders: &mpsc::UnboundedSender<GatewayOrder>,
    path: &'static str,
) -> Vec<Value> {
    let mut world = shared.world.lock().unwrap();
    match payload["op"].as_u64() {
        Some(1) => {
            world.heartbeats += 1;
            let zombied = world
                .unacknowledged
                .as_ref()
                .is_some_and(|z| z.same_channel(orders));
            if zombied {
                return Vec::new();
            }
            vec![json!({"op": 11})]
        }
        Some(2) => {
            world.identifies += 1;
            world.identified_at.push(path);
            world.intents = payload["d"]["intents"].as_u64();
            let (shard, count) = match payload["d"]["shard"].as_array().map(Vec::as_slice) {
                Some([id, count]) => (id.as_u64().unwrap_or(0), count.as_u64().unwrap_or(1).max(1)),
                _ => (0, 1),
            };
            world.shard_identifies.push((shard, count));
            if let Some(code) = world.refuse_identify {
                // Discord closes the connection instead of sending READY.
                let _ = orders.send(GatewayOrder::Close(code));
                return Vec::new();
            }
            let session = format!("session-{}", world.identifies);
            if shard != shard_of(GUILD, count) {
                // Not the test server's shard: READY with no guild, and nothing after it.
                let ready = ready_json(shared, &session, [shard, count], json!([]));
                let event = json!({"op": 0, "t": "READY", "s": 1, "d": ready});
                let _: serenity::GatewayEvent =
                    serde_json::from_value(event.clone()).expect("READY serenity can read");
                world.other_shards.insert(
                    shard,
                    OtherShard {
                        connection: orders.clone(),
                        session,
                        seq: 1,
                    },
                );
                return vec![event];
            }
            world.connection = Some(orders.clone());
            world.session = Some(Session {
                id: session.clone(),
                log: Vec::new(),
            });
            let ready = ready_json(
                shared,
                &session,
                [shard, count],
                json!([{"id": GUILD.to_string(), "unavailable": true}]),
            );
            let event = json!({"op": 0, "t": "READY", "s": 1, "d": ready});
            let _: serenity::GatewayEvent =
                serde_json::from_value(event.clone()).expect("READY serenity can read");
            let session = world.session.as_mut().unwrap();
            session.log.push((1, event.clone()));
            // Like Discord, a new session does not get what the old one missed.
            world.buffered.clear();
            // Then, as Discord does after READY, the server itself.
            let guild = guild_create(&mut world);
            vec![event, guild]
        }
        Some(6) => {
            world.resumes += 1;
            world.resumed_at.push(path);
            let asked = payload["d"]["session_id"].as_str().unwrap_or("");
            let from = payload["d"]["seq"].as_u64().unwrap_or(0);
            // A shard without the test server: nothing was dispatched on it to replay.
            if let Some(other) = world.other_shards.values_mut().find(|o| o.session == asked) {
                other.seq += 1;
                other.connection = orders.clone();
                return vec![json!({"op": 0, "t": "RESUMED", "s": other.seq, "d": {}})];
            }
            match world.session.as_ref() {
                Some(session) if session.id == asked => {
                    let mut out: Vec<Value> = session
                        .log
                        .iter()
                        .filter(|(seq, _)| *seq > from)
                        .map(|(_, e)| e.clone())
                        .collect();
                    let seq = session.log.len() as u64 + 1;
                    let resumed = json!({"op": 0, "t": "RESUMED", "s": seq, "d": {}});
                    world
                        .session
                        .as_mut()
                        .unwrap()
                        .log
                        .push((seq, resumed.clone()));
                    out.push(resumed);
                    world.buffered.clear();
                    world.connection = Some(orders.clone());
                    out
                }
                _ => vec![json!({"op": 9, "d": false})],
            }
        }
        _ => Vec::new(),
    }
}

/// READY for shard `[id, count]` of session `session`, with `guilds`.
fn ready_json(shared: &Shared, session: &str, shard: [u64; 2], guilds: Value) -> Value {
    json!({
        "v": 10,
        "user": {
            "id": APPLICATION.to_string(), "username": "Rookery", "discriminator": "0",
            "global_name": null, "avatar": null, "bot": true, "verified": true,
            "mfa_enabled": false, "flags": 0,
        },
        "guilds": guilds,
        "session_id": session,
        "resume_gateway_url": format!("ws://{}{RESUME_GATEWAY_PATH}", shared.addr),
        "shard": shard,
        "application": {"id": APPLICATION.to_string(), "flags": 0},
    })
}

// ---- REST ---------------------------------------------------------------------------------------

fn error(status: StatusCode, code: u32, message: &str) -> Response {
    (
        status,
        axum::Json(json!({"code": code, "message": message})),
    )
        .into_response()
}

fn path_matches(pattern: &str, path: &str) -> bool {
    let p: Vec<&str> = pattern.trim_matches('/').split('/').collect();
    let a: Vec<&str> = path.trim_matches('/').split('/').collect();
    p.len() == a.len() && p.iter().zip(&a).all(|(p, a)| *p == "*" || p == a)
}

async fn rest(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let method = request.method().clone();
    let full = request.uri().path().to_string();
    let Some(path) = full.strip_prefix("/api/v10") else {
        return error(StatusCode::NOT_FOUND, 0, "404: Not Found");
    };
    let path = path.to_string();
    let headers = request.headers().clone();
    let body = axum::body::to_bytes(request.into_body(), 64 << 20)
        .await
        .unwrap_or_default();
    let multipart = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let (json, parts) = read_body(&headers, body).await;
    let request_mismatches = discord_contract::contract().check_request(
        method.as_str(),
        &path,
        multipart,
        json.as_ref(),
    );
    let fault = {
        let mut world = shared.world.lock().unwrap();
        world.mismatches.extend(request_mismatches);
        world.requests.push(Recorded {
            method: method.to_string(),
            path: path.clone(),
            json: json.clone(),
            parts: parts.clone(),
            at: Instant::now(),
        });
        let found = world.faults.iter().position(|(target, _)| match target {
            FaultTarget::Route(m, p) => *m == method && path_matches(p, &path),
            FaultTarget::DirectMessage(user) => {
                method == Method::POST
                    && path_matches("/channels/*/messages", &path)
                    && path
                        .split('/')
                        .nth(2)
                        .and_then(|c| c.parse::<u64>().ok())
                        .and_then(|c| world.channels.get(&c))
                        == Some(&ChannelKind::Direct { user: *user })
            }
        });
        found.map(|n| world.faults.remove(n).1)
    };
    shared.changed.notify_waiters();
    if let Some(fault) = fault {
        // Discord failing (a server error, an answer that never comes) is not in its document.
        let outage = matches!(fault, Fault::ServerError | Fault::Hang | Fault::AnswerLost);
        let response = match fault {
            Fault::DirectMessagesClosed => error(
                StatusCode::FORBIDDEN,
                50007,
                "Cannot send messages to this user",
            ),
            Fault::RateLimited { retry_after } => {
                let mut response = (
                    StatusCode::TOO_MANY_REQUESTS,
                    axum::Json(json!({
                        "message": "You are being rate limited.",
                        "retry_after": retry_after as f64, "global": false,
                    })),
                )
                    .into_response();
                response
                    .headers_mut()
                    .insert("retry-after", retry_after.to_string().parse().unwrap());
                response
            }
            Fault::ServerError => error(
                StatusCode::INTERNAL_SERVER_ERROR,
                0,
                "500: Internal Server Error",
            ),
            Fault::Invalid => error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body"),
            Fault::Unauthorized => error(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized"),
            Fault::Hang => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                error(StatusCode::GATEWAY_TIMEOUT, 0, "hung")
            }
            Fault::AnswerLost => {
                let _ = route(&shared, &method, &path, json, parts);
                shared.changed.notify_waiters();
                error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    0,
                    "500: Internal Server Error",
                )
            }
        };
        return if outage {
            response
        } else {
            held_to_contract(&shared, &method, &path, response).await
        };
    }
    // What the bot may not do in the channel, as a moderator set it.
    let refusal = permission_refusal(&shared.world.lock().unwrap(), &method, &path, &parts);
    if let Some(response) = refusal {
        shared.changed.notify_waiters();
        return held_to_contract(&shared, &method, &path, response).await;
    }
    let response = route(&shared, &method, &path, json, parts);
    shared.changed.notify_waiters();
    held_to_contract(&shared, &method, &path, response).await
}

/// Checks an answer of the fake against Discord's document before it goes out.
async fn held_to_contract(
    shared: &Shared,
    method: &Method,
    path: &str,
    response: Response,
) -> Response {
    let (head, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 64 << 20)
        .await
        .unwrap_or_default();
    let json: Option<Value> = serde_json::from_slice(&bytes).ok();
    let found = discord_contract::contract().check_response(
        method.as_str(),
        path,
        head.status.as_u16(),
        json.as_ref(),
    );
    let mut world = shared.world.lock().unwrap();
    world.exchanges_checked += 1;
    world.mismatches.extend(found);
    drop(world);
    Response::from_parts(head, axum::body::Body::from(bytes))
}

async fn read_body(headers: &HeaderMap, body: Bytes) -> (Option<Value>, Vec<Part>) {
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if !content_type.starts_with("multipart/form-data") {
        return (serde_json::from_slice(&body).ok(), Vec::new());
    }
    let request = Request::builder()
        .header("content-type", content_type)
        .body(axum::body::Body::from(body))
        .expect("a request");
    let Ok(mut multipart) = axum::extract::Multipart::from_request(request, &()).await else {
        return (None, Vec::new());
    };
    let mut parts = Vec::new();
    let mut json = None;
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or("").to_string();
        let filename = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.unwrap_or_default().to_vec();
        if name == "payload_json" {
            json = serde_json::from_slice(&bytes).ok();
        }
        parts.push(Part {
            name,
            filename,
            bytes,
        });
    }
    (json, parts)
}

fn route(
    shared: &Shared,
    method: &Method,
    path: &str,
    json: Option<Value>,
    parts: Vec<Part>,
) -> Response {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let body = json.unwrap_or(Value::Null);
    let mut world = shared.world.lock().unwrap();
    match (method.as_str(), segments.as_slice()) {
        ("GET", ["gateway"]) => ok(json!({
            "url": format!("ws://{}/gateway", shared.addr),
        })),
        ("GET", ["gateway", "bot"]) => ok(json!({
            "url": format!("ws://{}/gateway", shared.addr),
            "shards": world.recommended_shards.unwrap_or(1),
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })),
        ("GET", ["oauth2", "applications", "@me"]) => {
            ok(checked::<serenity::CurrentApplicationInfo>(
                "application",
                json!({
                    "id": APPLICATION.to_string(), "name": "Rookery", "icon": null, "description": "",
                    "type": null, "bot_public": true, "bot_require_code_grant": false,
                    "verify_key": "0", "flags": 0, "flags_new": "0", "redirect_uris": [],
                    "interactions_endpoint_url": null, "role_connections_verification_url": null,
                    "owner": user_json(1, "owner", false), "approximate_guild_count": 1,
                    "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
                    "explicit_content_filter": 0, "team": null,
                    "eligible_oauth2_scopes": ["bot", "applications.commands"],
                }),
            ))
        }
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"])
            if commands_problem(&body).is_some() =>
        {
            error(
                StatusCode::BAD_REQUEST,
                50035,
                &commands_problem(&body).unwrap_or_default(),
            )
        }
        ("PUT", ["applications", _, "commands"]) => {
            world.registrations += 1;
            let registered = registered_commands(&mut world, &body, None);
            world.global_commands = registered.clone();
            ok(Value::Array(registered))
        }
        ("PUT", ["applications", _, "guilds", guild, "commands"]) => {
            world.registrations += 1;
            let guild = guild.to_string();
            let registered = registered_commands(&mut world, &body, Some(&guild));
            world.guild_commands = registered.clone();
            ok(Value::Array(registered))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            let id: u64 = id.parse().unwrap_or(0);
            let expire_now = world.tokens_expire_after_callback;
            let Some(i) = world
                .interactions
                .iter_mut()
                .find(|i| i.id == id && i.token == *token)
            else {
                return error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
            };
            if body["type"] == json!(8) {
                if let Some(problem) = autocomplete_problem(&body) {
                    return error(StatusCode::BAD_REQUEST, 50035, &problem);
                }
            }
            if let Some(problem) = message_problem(&body["data"]).or_else(|| files_problem(&parts))
            {
                return error(StatusCode::BAD_REQUEST, 50035, &problem);
            }
            if !i.callbacks.is_empty() {
                i.callbacks
                    .push((body["type"].as_u64().unwrap_or(0), Instant::now(), body));
                return error(
                    StatusCode::BAD_REQUEST,
                    40060,
                    "Interaction has already been acknowledged.",
                );
            }
            if i.sent.elapsed() > CALLBACK_DEADLINE {
                // Too late: the user has already been shown "This interaction failed".
                i.late_callbacks += 1;
                return error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
            }
            i.callbacks
                .push((body["type"].as_u64().unwrap_or(0), Instant::now(), body));
            if expire_now {
                i.aged += TOKEN_LIFETIME;
            }
            StatusCode::NO_CONTENT.into_response()
        }
        // An interaction's token is good for 15 minutes; Discord refuses a follow-up after.
        ("POST", ["webhooks", _, token])
        | ("PATCH", ["webhooks", _, token, "messages", "@original"])
            if token_expired(&world, token) =>
        {
            if let Some(i) = world.interactions.iter_mut().find(|i| i.token == *token) {
                i.expired_followups += 1;
            }
            error(StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token")
        }
        // An archived thread takes no message until it is unarchived.
        ("POST", ["channels", channel, "messages"]) if thread_is_archived(&world, channel) => {
            error(
                StatusCode::BAD_REQUEST,
                50083,
                "Operation cannot be performed on an archived thread",
            )
        }
        ("PATCH", ["channels", channel]) => {
            let Some((id, parent)) =
                channel
                    .parse::<u64>()
                    .ok()
                    .and_then(|id| match world.channels.get(&id) {
                        Some(ChannelKind::Thread { parent }) => Some((id, *parent)),
                        _ => None,
                    })
            else {
                // The bot edits nothing but its games' threads; anything else is gone for it.
                return error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            };
            if let Some(problem) = thread_edit_problem(&body) {
                return error(StatusCode::BAD_REQUEST, 50035, &problem);
            }
            let state = world
                .thread_states
                .entry(id)
                .or_insert_with(|| ThreadState::new("thread", 10080));
            // Locking, unlocking and reopening a locked thread take Manage Threads.
            let reopening_locked = state.locked && body["archived"] == json!(false);
            if reopening_locked || !body["locked"].is_null() {
                return error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
            }
            if let Some(archived) = body["archived"].as_bool() {
                state.archived = archived;
            }
            if let Some(name) = body["name"].as_str() {
                state.name = name.to_string();
            }
            if let Some(minutes) = body["auto_archive_duration"].as_u64() {
                state.auto_archive_duration = minutes;
            }
            let state = state.clone();
            ok(thread_state_value(id, parent, &state))
        }
        ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", "@original"])
        | ("POST", ["channels", _, "messages"])
            if message_problem(&body)
                .or_else(|| files_problem(&parts))
                .is_some() =>
        {
            error(
                StatusCode::BAD_REQUEST,
                50035,
                &message_problem(&body)
                    .or_else(|| files_problem(&parts))
                    .unwrap_or_default(),
            )
        }
        ("POST", ["channels", _, "threads"])
        | ("POST", ["channels", _, "messages", _, "threads"])
            if thread_problem(&body).is_some() =>
        {
            error(
                StatusCode::BAD_REQUEST,
                50035,
                &thread_problem(&body).unwrap_or_default(),
            )
        }
        ("POST", ["webhooks", _, token]) => {
            let Some(i) = world.interactions.iter_mut().find(|i| i.token == *token) else {
                return error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            let Some((kind, _, first)) = i.callbacks.first() else {
                // No callback yet: Discord has no webhook for this token.
                return error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            // After a deferred response, the first follow-up replaces the "thinking" message
            // and keeps the deferral's visibility, whatever flags it carries itself.
            let ephemeral = if *kind == 5 && i.followups.is_empty() {
                first["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
            } else {
                body["flags"].as_u64().unwrap_or(0) & 64 != 0
            };
            i.followups.push((
                body["content"].as_str().unwrap_or("").to_string(),
                ephemeral,
            ));
            let posted = new_message(&mut world, FOLLOWUP_CHANNEL, &body, &parts, false);
            ok(message_value(shared, &posted))
        }
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            let Some(i) = world.interactions.iter_mut().find(|i| i.token == *token) else {
                return error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            i.followups
                .push((body["content"].as_str().unwrap_or("").to_string(), true));
            let posted = new_message(&mut world, FOLLOWUP_CHANNEL, &body, &parts, false);
            ok(message_value(shared, &posted))
        }
        ("POST", ["channels", channel, "messages"]) => {
            let Ok(channel) = channel.parse::<u64>() else {
                return error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            };
            if !world.channels.contains_key(&channel) {
                return error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            }
            let nonce = body["nonce"].as_str().map(str::to_string);
            if let (Some(nonce), true) = (&nonce, body["enforce_nonce"] == json!(true)) {
                if let Some(&(existing, at)) = world.nonces.get(&(channel, nonce.clone())) {
                    if at.elapsed() < NONCE_WINDOW {
                        let m = world
                            .messages
                            .iter()
                            .find(|m| m.id == existing)
                            .cloned()
                            .unwrap();
                        return ok(message_value(shared, &m));
                    }
                }
            }
            let posted = new_message(&mut world, channel, &body, &parts, true);
            if let Some(nonce) = nonce {
                world
                    .nonces
                    .insert((channel, nonce), (posted.id, Instant::now()));
            }
            ok(message_value(shared, &posted))
        }
        ("POST", ["channels", channel, "threads"]) => {
            let Ok(parent) = channel.parse::<u64>() else {
                return error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            };
            world.next_id += 1;
            let id = world.next_id;
            world.channels.insert(id, ChannelKind::Thread { parent });
            world.thread_states.insert(id, ThreadState::made(&body));
            created(thread_value(id, parent, &body))
        }
        ("POST", ["channels", channel, "messages", message, "threads"]) => {
            let (Ok(parent), Ok(message)) = (channel.parse::<u64>(), message.parse::<u64>()) else {
                return error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            };
            if !world
                .messages
                .iter()
                .any(|m| m.id == message && m.channel == parent)
            {
                return error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            }
            if !world.threaded_messages.insert(message) {
                return error(
                    StatusCode::BAD_REQUEST,
                    160004,
                    "A thread has already been created for this message",
                );
            }
            world
                .channels
                .insert(message, ChannelKind::Thread { parent });
            world
                .thread_states
                .insert(message, ThreadState::made(&body));
            created(thread_value(message, parent, &body))
        }
        ("POST", ["users", "@me", "channels"]) => {
            let Some(user) = body["recipient_id"]
                .as_str()
                .and_then(|u| u.parse::<u64>().ok())
            else {
                return error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
            };
            let existing = world
                .channels
                .iter()
                .find(|(_, k)| **k == ChannelKind::Direct { user })
                .map(|(id, _)| *id);
            let id = existing.unwrap_or_else(|| {
                world.next_id += 1;
                let id = world.next_id;
                world.channels.insert(id, ChannelKind::Direct { user });
                id
            });
            let name = world
                .users
                .get(&user)
                .cloned()
                .unwrap_or_else(|| "someone".into());
            ok(checked::<serenity::PrivateChannel>(
                "DM channel",
                json!({"id": id.to_string(), "type": 1, "last_message_id": null, "flags": 0,
                       "recipients": [user_json(user, &name, false)]}),
            ))
        }
        _ => error(
            StatusCode::NOT_FOUND,
            0,
            &format!("the fake has no {method} {path}"),
        ),
    }
}

/// Discord's limits on a message, as its documentation and OpenAPI document state them:
/// content up to 2,000 characters (the document allows 4,000, which only Nitro users get); at
/// most 5 rows of components, each of 1-5 buttons or one select menu; custom ids of 1-100
/// characters; button labels up to 80; a select menu of 1-25 options, each label and value of
/// 1-100 characters and description up to 100, a placeholder up to 150 and min/max values up
/// to 25; at most 10 embeds (title 256, description 4,096, 25 fields of name 256 and value
/// 1,024, footer 2,048, author 256; 6,000 characters in all); at most 10 attachments; a nonce
/// up to 25 characters; allowed mentions of at most 100 users and 100 roles.
fn message_problem(body: &Value) -> Option<String> {
    let chars = |v: &Value| v.as_str().map_or(0, |t| t.chars().count());
    let content = chars(&body["content"]);
    if content > 2000 {
        return Some(format!("content has {content} characters"));
    }
    let rows = body["components"].as_array().cloned().unwrap_or_default();
    if rows.len() > 5 {
        return Some(format!("{} component rows", rows.len()));
    }
    for row in &rows {
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            return Some(format!("a row of {} components", items.len()));
        }
        for item in &items {
            let id = item["custom_id"].as_str().unwrap_or("");
            if id.is_empty() || id.chars().count() > 100 {
                return Some(format!("custom id {id:?}"));
            }
            if item["type"] == json!(2) && chars(&item["label"]) > 80 {
                return Some("a label over 80 characters".into());
            }
            if item["type"] != json!(3) {
                continue;
            }
            let options = item["options"].as_array().cloned().unwrap_or_default();
            if options.is_empty() || options.len() > 25 || items.len() > 1 {
                return Some(format!("a select menu of {} options", options.len()));
            }
            if chars(&item["placeholder"]) > 150 {
                return Some("a select menu placeholder over 150 characters".into());
            }
            for bound in ["min_values", "max_values"] {
                if item[bound].as_u64().is_some_and(|n| n > 25) {
                    return Some(format!("a select menu's {bound} over 25"));
                }
            }
            for option in &options {
                let (label, value) = (chars(&option["label"]), chars(&option["value"]));
                if !(1..=100).contains(&label) || !(1..=100).contains(&value) {
                    return Some(format!("select option {option}"));
                }
                if chars(&option["description"]) > 100 {
                    return Some(format!("select option description {option}"));
                }
            }
        }
    }
    let embeds = body["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > 10 {
        return Some(format!("{} embeds", embeds.len()));
    }
    let mut embed_total = 0;
    for embed in &embeds {
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        let texts = [
            ("title", chars(&embed["title"]), 256),
            ("description", chars(&embed["description"]), 4096),
            ("footer", chars(&embed["footer"]["text"]), 2048),
            ("author", chars(&embed["author"]["name"]), 256),
        ];
        for (what, length, limit) in texts {
            if length > limit {
                return Some(format!("an embed {what} of {length} characters"));
            }
            embed_total += length;
        }
        if fields.len() > 25 {
            return Some(format!("an embed of {} fields", fields.len()));
        }
        for field in &fields {
            let (name, value) = (chars(&field["name"]), chars(&field["value"]));
            if name > 256 || value > 1024 {
                return Some(format!("an embed field {field}"));
            }
            embed_total += name + value;
        }
    }
    if embed_total > 6000 {
        return Some(format!("embeds of {embed_total} characters in all"));
    }
    let attachments = body["attachments"].as_array().map_or(0, Vec::len);
    if attachments > 10 {
        return Some(format!("{attachments} attachments"));
    }
    if chars(&body["nonce"]) > 25 {
        return Some(format!("nonce {}", body["nonce"]));
    }
    for mentioned in ["users", "roles"] {
        let n = body["allowed_mentions"][mentioned]
            .as_array()
            .map_or(0, Vec::len);
        if n > 100 {
            return Some(format!("{n} allowed mentions of {mentioned}"));
        }
    }
    None
}

/// Discord's limit on the files of one message: 10.
fn files_problem(parts: &[Part]) -> Option<String> {
    let files = parts.iter().filter(|p| p.name.starts_with("files")).count();
    (files > 10).then(|| format!("{files} files"))
}

/// Discord's limits on a new thread: a name of 1-100 characters, an archive duration of 60,
/// 1440, 4320 or 10080 minutes.
fn thread_problem(body: &Value) -> Option<String> {
    let name = body["name"].as_str().map_or(0, |n| n.chars().count());
    if !(1..=100).contains(&name) {
        return Some(format!("a thread name of {name} characters"));
    }
    thread_edit_problem(body)
}

/// Discord's limits on slash commands: at most 100, names of 1-32 lower-case characters,
/// descriptions of 1-100, at most 25 options each, required options before optional ones.
fn commands_problem(body: &Value) -> Option<String> {
    let commands = body.as_array()?;
    if commands.len() > 100 {
        return Some(format!("{} commands", commands.len()));
    }
    let name_ok = |n: &str| {
        (1..=32).contains(&n.chars().count())
            && n.chars()
                .all(|c| c.is_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    };
    for c in commands {
        let name = c["name"].as_str().unwrap_or("");
        let description = c["description"].as_str().unwrap_or("");
        if !name_ok(name) || !(1..=100).contains(&description.chars().count()) {
            return Some(format!("command {name:?} / {description:?}"));
        }
        let options = c["options"].as_array().cloned().unwrap_or_default();
        if options.len() > 25 {
            return Some(format!("/{name} has {} options", options.len()));
        }
        let mut optional_seen = false;
        for o in &options {
            let required = o["required"] == json!(true);
            if required && optional_seen {
                return Some(format!("/{name}: a required option after an optional one"));
            }
            optional_seen |= !required;
            let oname = o["name"].as_str().unwrap_or("");
            let odesc = o["description"].as_str().unwrap_or("");
            if !name_ok(oname) || !(1..=100).contains(&odesc.chars().count()) {
                return Some(format!("/{name} option {oname:?} / {odesc:?}"));
            }
        }
    }
    None
}

/// Discord's limits on an autocomplete answer: at most 25 choices, names and values of 1-100
/// characters.
fn autocomplete_problem(body: &Value) -> Option<String> {
    let choices = body["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if choices.len() > 25 {
        return Some(format!("{} choices", choices.len()));
    }
    choices
        .iter()
        .find(|c| {
            let n = c["name"].as_str().map_or(0, |n| n.chars().count());
            let v = c["value"].as_str().map_or(1, |v| v.chars().count());
            !(1..=100).contains(&n) || !(1..=100).contains(&v)
        })
        .map(|c| format!("choice {c}"))
}

fn ok(body: Value) -> Response {
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// Discord's answer to a request that made something (a thread).
fn created(body: Value) -> Response {
    (StatusCode::CREATED, axum::Json(body)).into_response()
}

fn registered_commands(world: &mut World, body: &Value, guild: Option<&str>) -> Vec<Value> {
    let mut out = Vec::new();
    for command in body.as_array().into_iter().flatten() {
        world.next_id += 1;
        let mut c = command.clone();
        c["id"] = json!(world.next_id.to_string());
        c["application_id"] = json!(APPLICATION.to_string());
        c["version"] = json!("1");
        c["type"] = c.get("type").cloned().unwrap_or(json!(1));
        c["default_member_permissions"] = c
            .get("default_member_permissions")
            .cloned()
            .unwrap_or(Value::Null);
        if let Some(g) = guild {
            c["guild_id"] = json!(g);
        }
        // Discord leaves out unset fields, but always says who may use the command.
        let mut c = without_nulls(&c);
        if c.get("default_member_permissions").is_none() {
            c["default_member_permissions"] = Value::Null;
        }
        out.push(checked::<serenity::Command>("command", c));
    }
    out
}

fn new_message(
    world: &mut World,
    channel: u64,
    body: &Value,
    parts: &[Part],
    keep: bool,
) -> Posted {
    world.next_id += 1;
    let posted = Posted {
        id: world.next_id,
        channel,
        content: body["content"].as_str().unwrap_or("").to_string(),
        nonce: body["nonce"].as_str().map(str::to_string),
        images: parts
            .iter()
            .filter(|p| p.name.starts_with("files"))
            .map(|p| p.bytes.clone())
            .collect(),
        components: body.get("components").cloned().unwrap_or(json!([])),
    };
    if keep {
        world.messages.push(posted.clone());
    }
    posted
}

fn message_value(shared: &Shared, m: &Posted) -> Value {
    let attachments: Vec<Value> = m
        .images
        .iter()
        .enumerate()
        .map(|(n, png)| {
            json!({
                "id": (m.id + n as u64 + 1).to_string(), "filename": "board.png",
                "size": png.len(), "url": format!("http://{}/attachments/{}/{n}", shared.addr, m.id),
                "proxy_url": format!("http://{}/attachments/{}/{n}", shared.addr, m.id),
                "content_type": "image/png",
            })
        })
        .collect();
    checked::<serenity::Message>(
        "message",
        json!({
            "id": m.id.to_string(), "channel_id": m.channel.to_string(),
            "author": user_json(APPLICATION, "Rookery", true), "content": m.content,
            "timestamp": snowflake_time(), "edited_timestamp": null, "tts": false,
            "mention_everyone": false, "mentions": [], "mention_roles": [],
            "attachments": attachments, "embeds": [], "pinned": false, "type": 0, "flags": 0,
            "components": numbered_components(&m.components), "nonce": m.nonce,
        }),
    )
    .as_object()
    .map(|m| {
        // Discord leaves out a message's nonce when none was sent.
        let mut m = m.clone();
        m.retain(|k, v| k != "nonce" || !v.is_null());
        Value::Object(m)
    })
    .unwrap_or_default()
}

fn thread_value(id: u64, parent: u64, body: &Value) -> Value {
    checked::<serenity::GuildChannel>(
        "thread",
        json!({
            "id": id.to_string(), "type": 11, "guild_id": GUILD.to_string(),
            "parent_id": parent.to_string(), "name": body["name"].as_str().unwrap_or("thread"),
            "owner_id": APPLICATION.to_string(), "position": 0, "permission_overwrites": [],
            "flags": 0, "total_message_sent": 0,
            "nsfw": false, "rate_limit_per_user": 0, "last_message_id": null,
            "thread_metadata": {
                "archived": false, "auto_archive_duration": body["auto_archive_duration"].as_u64().unwrap_or(10080),
                "archive_timestamp": snowflake_time(), "locked": false,
            },
            "member_count": 1, "message_count": 0,
        }),
    )
}

// ---- archived threads and expired tokens ------------------------------------------------------

impl ThreadState {
    fn new(name: &str, auto_archive_duration: u64) -> ThreadState {
        ThreadState {
            name: name.to_string(),
            auto_archive_duration,
            archived: false,
            locked: false,
        }
    }

    /// A new thread as asked for: Discord's default is to archive after a day without messages.
    fn made(body: &Value) -> ThreadState {
        ThreadState::new(
            body["name"].as_str().unwrap_or("thread"),
            body["auto_archive_duration"].as_u64().unwrap_or(1440),
        )
    }
}

/// Whether `channel` is an archived thread.
fn thread_is_archived(world: &World, channel: &str) -> bool {
    channel
        .parse::<u64>()
        .ok()
        .and_then(|c| world.thread_states.get(&c))
        .is_some_and(|t| t.archived)
}

/// Whether the interaction whose token this is was made over 15 minutes ago.
fn token_expired(world: &World, token: &str) -> bool {
    world
        .interactions
        .iter()
        .any(|i| i.token == token && i.token_age() > TOKEN_LIFETIME)
}

/// Discord's limits on a thread's settings: a name of 1-100 characters, an archive duration of
/// 60, 1440, 4320 or 10080 minutes.
fn thread_edit_problem(body: &Value) -> Option<String> {
    if let Some(name) = body["name"].as_str() {
        if !(1..=100).contains(&name.chars().count()) {
            return Some(format!("thread name {name:?}"));
        }
    }
    match body["auto_archive_duration"].as_u64() {
        Some(60 | 1440 | 4320 | 10080) | None => None,
        Some(other) => Some(format!("auto_archive_duration {other}")),
    }
}

/// A thread's channel object as Discord answers an edit.
fn thread_state_value(id: u64, parent: u64, state: &ThreadState) -> Value {
    let mut thread = thread_value(
        id,
        parent,
        &json!({"name": state.name, "auto_archive_duration": state.auto_archive_duration}),
    );
    thread["thread_metadata"]["archived"] = json!(state.archived);
    thread["thread_metadata"]["locked"] = json!(state.locked);
    checked::<serenity::GuildChannel>("thread", thread)
}

// ---- the bot's permissions in the server ------------------------------------------------------

/// The bot's permissions in the test server where no one took any: those of a new server's
/// @everyone (which hold all Rookery needs), as the interactions' `app_permissions` say.
const DEFAULT_PERMISSIONS: u64 = 2_248_473_465_835_073;

/// The bot's own role in the test server, the one its invite made.
pub const BOT_ROLE: u64 = 900_000_000_000_000_004;

/// The test server's name.
pub const GUILD_NAME: &str = "Test server";

/// The name of a text channel of the test server: the lobby is `#games`.
pub fn channel_name(id: u64) -> String {
    if id == LOBBY {
        "games".to_string()
    } else {
        format!("channel-{id}")
    }
}

impl FakeDiscord {
    /// A moderator takes `permissions` from the bot in `channel` (an overwrite for the bot):
    /// from now on the interactions there say so in `app_permissions`, the requests that need
    /// them are refused as Discord refuses them (403 with 50001 Missing Access without View
    /// Channel, 50013 Missing Permissions otherwise), and the GUILD_CREATE of a later IDENTIFY
    /// carries the overwrite. Like Discord's, a thread has its parent channel's permissions.
    pub fn deny_permissions(&self, channel: u64, permissions: serenity::Permissions) {
        *self.world().denied.entry(channel).or_default() |= permissions.bits();
    }

    /// A moderator gives the bot back everything taken from it in `channel`.
    pub fn restore_permissions(&self, channel: u64) {
        self.world().denied.remove(&channel);
    }

    /// The bot's permissions in `channel`, as Discord computes them for `app_permissions`.
    pub fn bot_permissions_in(&self, channel: u64) -> serenity::Permissions {
        let denied = denied_in(&self.world(), channel);
        serenity::Permissions::from_bits_truncate(DEFAULT_PERMISSIONS & !denied)
    }
}

/// The permission bits taken from the bot in `channel`, with its parent channel's for a thread.
fn denied_in(world: &World, channel: u64) -> u64 {
    let own = world.denied.get(&channel).copied().unwrap_or(0);
    match world.channels.get(&channel) {
        Some(ChannelKind::Thread { parent }) => {
            own | world.denied.get(parent).copied().unwrap_or(0)
        }
        _ => own,
    }
}

/// Discord's refusal of a request that the bot's permissions in its channel do not allow:
/// posting (Send Messages, or Send Messages in Threads in a thread; Attach Files with a file)
/// and making threads (Create Public Threads); any of them without View Channel.
fn permission_refusal(
    world: &World,
    method: &Method,
    path: &str,
    parts: &[Part],
) -> Option<Response> {
    if *method != Method::POST {
        return None;
    }
    use serenity::Permissions as P;
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (channel, needed) = match segments.as_slice() {
        ["channels", channel, "messages"] => {
            let channel = channel.parse::<u64>().ok()?;
            let send = match world.channels.get(&channel)? {
                ChannelKind::Text => P::SEND_MESSAGES,
                ChannelKind::Thread { .. } => P::SEND_MESSAGES_IN_THREADS,
                ChannelKind::Direct { .. } => return None,
            };
            let file = parts.iter().any(|p| p.name.starts_with("files"));
            (channel, if file { send | P::ATTACH_FILES } else { send })
        }
        ["channels", channel, "threads"] | ["channels", channel, "messages", _, "threads"] => {
            (channel.parse::<u64>().ok()?, P::CREATE_PUBLIC_THREADS)
        }
        _ => return None,
    };
    let denied = P::from_bits_truncate(denied_in(world, channel));
    if denied.contains(P::VIEW_CHANNEL) {
        return Some(error(StatusCode::FORBIDDEN, 50001, "Missing Access"));
    }
    denied
        .intersects(needed)
        .then(|| error(StatusCode::FORBIDDEN, 50013, "Missing Permissions"))
}

/// The GUILD_CREATE Discord sends after READY, with the next sequence number of the session:
/// the server's roles (@everyone, and the bot's role with the permissions its invite asked
/// for), its text channels with an overwrite for the bot where permissions were taken from it,
/// and the bot's own membership. Parsed with serenity's types first.
fn guild_create(world: &mut World) -> Value {
    let role = |id: u64, name: &str, permissions: u64, position: u64, bot: bool| {
        let mut role = json!({
            "id": id.to_string(), "name": name, "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false, "icon": null, "unicode_emoji": null, "position": position,
            "permissions": permissions.to_string(), "managed": bot, "mentionable": false,
            "flags": 0,
        });
        if bot {
            role["tags"] = json!({"bot_id": APPLICATION.to_string()});
        }
        role
    };
    let invited = bot::discord::permissions::PLAY_PERMISSIONS.bits();
    let mut text_channels: Vec<u64> = world
        .channels
        .iter()
        .filter(|(_, kind)| **kind == ChannelKind::Text)
        .map(|(id, _)| *id)
        .collect();
    text_channels.sort();
    let channels: Vec<Value> = text_channels
        .iter()
        .enumerate()
        .map(|(position, &id)| {
            let denied = world.denied.get(&id).copied().unwrap_or(0);
            let overwrites = if denied == 0 {
                json!([])
            } else {
                json!([{"id": APPLICATION.to_string(), "type": 1, "allow": "0",
                        "deny": denied.to_string()}])
            };
            json!({
                "id": id.to_string(), "type": 0, "guild_id": GUILD.to_string(),
                "name": channel_name(id), "position": position, "parent_id": null,
                "permission_overwrites": overwrites, "topic": null, "nsfw": false,
                "rate_limit_per_user": 0, "last_message_id": null, "flags": 0,
            })
        })
        .collect();
    let guild = json!({
        "id": GUILD.to_string(), "name": GUILD_NAME, "icon": null, "icon_hash": null,
        "splash": null, "discovery_splash": null, "owner_id": "1",
        "afk_channel_id": null, "afk_timeout": 300, "widget_enabled": false,
        "widget_channel_id": null, "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0,
        "roles": [
            role(GUILD, "@everyone", DEFAULT_PERMISSIONS, 0, false),
            role(BOT_ROLE, "Rookery", invited, 1, true),
        ],
        "emojis": [], "features": [], "mfa_level": 0, "application_id": null,
        "system_channel_id": null, "system_channel_flags": 0, "rules_channel_id": null,
        "max_presences": null, "max_members": 500_000, "vanity_url_code": null,
        "description": null, "banner": null, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": "en-GB",
        "public_updates_channel_id": null, "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50, "nsfw_level": 0, "stickers": [],
        "premium_progress_bar_enabled": false, "safety_alerts_channel_id": null,
        "joined_at": snowflake_time(), "large": false, "unavailable": false,
        "member_count": world.users.len() + 1, "voice_states": [],
        "members": [{
            "user": user_json(APPLICATION, "Rookery", true), "nick": null, "avatar": null,
            "banner": null, "roles": [BOT_ROLE.to_string()], "joined_at": snowflake_time(),
            "premium_since": null, "deaf": false, "mute": false, "flags": 0, "pending": false,
            "communication_disabled_until": null,
        }],
        "channels": channels, "threads": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [],
    });
    let session = world.session.as_mut().expect("GUILD_CREATE follows READY");
    let seq = session.log.len() as u64 + 1;
    let event = json!({"op": 0, "t": "GUILD_CREATE", "s": seq, "d": guild});
    match serde_json::from_value::<serenity::GatewayEvent>(event.clone()) {
        Ok(serenity::GatewayEvent::Dispatch(_, serenity::Event::GuildCreate(_))) => {}
        Ok(_) => panic!("serenity read the fake's GUILD_CREATE as another event"),
        Err(e) => panic!("the fake built a GUILD_CREATE serenity cannot read: {e}\n{event:#}"),
    }
    session.log.push((seq, event.clone()));
    event
}

// ---- the real bot, in this process, against the fake -----------------------------------------

/// The real Discord frontend (`bot::discord::run_with`) running against a fake, on its own
/// SQLite file.
pub struct RunningBot {
    pub service: Arc<bot::service::Service>,
    task: tokio::task::JoinHandle<Result<(), String>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl RunningBot {
    /// Starts the bot on `db`, registering its commands in `guild` (or globally).
    pub async fn start(fake: &FakeDiscord, db: &std::path::Path, guild: Option<u64>) -> RunningBot {
        let store = bot::store::Store::open(db).await.expect("database");
        RunningBot::start_with(fake, store, RunningBot::settings(guild)).await
    }

    /// The settings [`RunningBot::start`] runs with: commands in `guild`, a two-second delivery
    /// timeout, one shard.
    pub fn settings(guild: Option<u64>) -> bot::discord::Settings {
        bot::discord::Settings {
            guild,
            delivery_timeout: Duration::from_secs(2),
            ..bot::discord::Settings::default()
        }
    }

    /// Starts the bot on `store` (SQLite or PostgreSQL) with `settings` (its shards, say).
    pub async fn start_with(
        fake: &FakeDiscord,
        store: bot::store::Store,
        settings: bot::discord::Settings,
    ) -> RunningBot {
        let service = Arc::new(bot::service::Service::with_seed(
            store,
            Arc::new(bot::service::SystemClock),
            7,
        ));
        let connection = bot::discord::Connection {
            token: "fake-token".into(),
            api: Some(fake.url()),
        };
        let http = bot::discord::http(&connection);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(bot::discord::run_with(
            service.clone(),
            http,
            settings,
            async move {
                let _ = stopped.await;
            },
        ));
        RunningBot {
            service,
            task,
            stop: Some(stop),
        }
    }

    /// Ends the bot's task at once, as a crash would: its shard claims are not released and
    /// its database is not closed (serenity's shard runners, tasks of their own, may linger
    /// until the test ends).
    pub async fn abort(mut self) {
        // Kept from firing: a dropped sender would stop the bot cleanly.
        if let Some(stop) = self.stop.take() {
            std::mem::forget(stop);
        }
        self.task.abort();
        let _ = (&mut self.task).await;
    }

    /// Whether the bot has stopped by itself.
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }

    /// Waits for the bot to stop by itself (start-up failures), at most `limit`.
    pub async fn outcome(mut self, limit: Duration) -> Result<(), String> {
        self.stop.take();
        match tokio::time::timeout(limit, &mut self.task).await {
            Ok(result) => result.expect("the bot task panicked"),
            Err(_) => panic!("the bot neither started nor stopped within {limit:?}"),
        }
    }

    /// Stops the bot as Ctrl-C would, and closes its database.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = (&mut self.task).await.expect("the bot task panicked");
        result.expect("the bot stopped with an error");
        self.service.store().close().await;
    }
}

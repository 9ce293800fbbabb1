//! `rookery loadtest`: many active games on one database, and a steady stream of actions
//! through the service, to measure what a player waits for at scale.
//!
//! 1. **Setup** (not timed with the actions): `--games` games of a fixed rotation of variants
//!    (see [`ROTATION`]), each started as players start one: `/play` with a clock of one day a
//!    move, then `/join` by every other player, the last join starting the game. A few tasks
//!    do it at once; progress is printed every 1,000 games and the setup time on its own line.
//! 2. **Load**: for `--seconds`, `--rate` actions a second on an open-loop schedule: action `k`
//!    is due at `start + k / rate`, runs in a task of its own, and its latency is counted from
//!    when it was due, so a slow action shows in the figures instead of holding the schedule
//!    back. Each is a legal action (a move, or the secret choice a game asks for) in a game
//!    picked at random, played through the same service call `/move` (or `/secret`) makes,
//!    which draws the board image for the game's post. A game that ends is replaced by a new
//!    one of its variant (not timed). The clocks' tick runs every second, timed on its own,
//!    and the outbox is delivered as a frontend would (to nowhere), so it does not grow.
//! 3. **Report**: setup time, actions done and errors (the first few with their reason),
//!    throughput, p50/p99/max latency per action, the tick's p99, posts delivered, and the
//!    database's size.
//!
//! Everything random (the games' seeds, which game acts, which action) comes from `--seed`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::game::{AnyGame, AnyState, PromptKind};
use engine::registry;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::time::Instant;

use crate::model::{GameId, Pending, Place, Status, User};
use crate::service::{Deliver, DeliveryError, Service, SystemClock};
use crate::store::{Backend, Store};

/// The variants the games rotate through: quick to play for people, each at its smallest
/// number of seats (two, but four in Doubles and three in Trimens).
pub const ROTATION: [&str; 8] = [
    "chess",
    "checkers",
    "shadow",
    "zombie",
    "synchronous",
    "chess960",
    "doubles",
    "trimens",
];

/// The server the games are played in.
const SERVER: &str = "loadtest";
/// Channels the games are announced in, in turn.
const CHANNELS: usize = 16;
/// Refused actions printed with their reason.
const ERRORS_SHOWN: usize = 5;
/// Games after which setup progress is printed.
const PROGRESS_EVERY: usize = 1_000;
/// How far past a busy game an action looks for one that is free.
const BUSY_LOOKAHEAD: usize = 64;

/// What to run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Active games to set up.
    pub games: usize,
    /// Actions a second.
    pub rate: f64,
    /// How long the load runs.
    pub seconds: f64,
    /// Seeds the games and every random choice.
    pub seed: u64,
    /// Concurrent tasks setting games up.
    pub setup_tasks: usize,
}

impl Settings {
    /// Refuses settings that cannot run, in words for the command line.
    pub fn check(&self) -> Result<(), String> {
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        let rate_ok = self.rate.is_finite() && self.rate > 0.0;
        if !rate_ok {
            return Err(format!(
                "--rate must be a number of actions a second above 0, not {}",
                self.rate
            ));
        }
        let seconds_ok = self.seconds.is_finite() && self.seconds > 0.0;
        if !seconds_ok {
            return Err(format!(
                "--seconds must be a number of seconds above 0, not {}",
                self.seconds
            ));
        }
        if self.setup_tasks == 0 {
            return Err("--setup-tasks must be at least 1".into());
        }
        Ok(())
    }

    /// How many actions the load makes.
    fn actions(&self) -> u64 {
        (self.rate * self.seconds).round().max(1.0) as u64
    }
}

/// The figures a run measured (also printed).
#[derive(Clone, Debug)]
pub struct Report {
    pub setup: Duration,
    pub actions: usize,
    pub errors: usize,
    /// Actions a second, from the start of the load to the end of its last action.
    pub throughput: f64,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
    pub tick_p99: Duration,
    /// Games that ended during the load and were replaced.
    pub replaced: usize,
    /// Posts delivered from the start of the load to its end.
    pub delivered: u64,
    /// The database's size in bytes (SQLite: the file and its log).
    pub database_bytes: u64,
}

/// One game the load plays in.
struct Slot {
    /// Its place in the rotation and in the users' names.
    index: usize,
    game: &'static dyn AnyGame,
    id: GameId,
    place: Place,
    /// The players, by seat.
    users: Vec<User>,
    /// The game as the database last had it.
    state: AnyState,
}

/// A frontend that delivers every post to nowhere, counting them.
#[derive(Default)]
struct Sink {
    delivered: AtomicU64,
    /// Posts that carried a board image (a PNG).
    images: AtomicU64,
}

impl Deliver for Sink {
    async fn deliver(&self, _service: &Service, item: &Pending) -> Result<(), DeliveryError> {
        self.delivered.fetch_add(1, Ordering::Relaxed);
        if item
            .post
            .image
            .as_deref()
            .is_some_and(|png| png.starts_with(b"\x89PNG"))
        {
            self.images.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// What one timed action came to.
struct Done {
    latency: Duration,
    /// When it finished, from the start of the load.
    finished: Duration,
    /// Why the action failed (a refusal included).
    error: Option<String>,
    /// The game ended and a new one took its place.
    replaced: bool,
    /// Bookkeeping after the action went wrong (reading the game back, replacing it).
    trouble: Option<String>,
}

/// The clock ticks of a run.
#[derive(Default)]
struct Ticks {
    times: Vec<Duration>,
    /// Games whose clock did something (a reminder, a timeout).
    changed: usize,
    errors: Vec<String>,
}

/// Shared by the actions' tasks.
struct Run {
    service: Arc<Service>,
    slots: Vec<Arc<tokio::sync::Mutex<Slot>>>,
}

impl Run {
    /// The game `pick`, or when another action is playing in it, the next free one after it
    /// (the schedule is not held up by one busy game); waits for `pick` only if all are busy.
    async fn claim(&self, pick: usize) -> tokio::sync::OwnedMutexGuard<Slot> {
        let n = self.slots.len();
        for step in 0..n.min(BUSY_LOOKAHEAD) {
            if let Ok(guard) = self.slots[(pick + step) % n].clone().try_lock_owned() {
                return guard;
            }
        }
        self.slots[pick].clone().lock_owned().await
    }
}

/// Runs the load test on `store` (opened from `db`, which says where an SQLite file lies),
/// printing as it goes. An error if any action failed, after everything is printed.
pub async fn run(
    store: Store,
    db: &str,
    settings: &Settings,
    out: &mut dyn Write,
) -> Result<Report, String> {
    settings.check()?;
    for id in ROTATION {
        registry::variant(id).map_err(|e| e.to_string())?;
    }
    let service = Arc::new(Service::with_seed(
        store,
        Arc::new(SystemClock),
        settings.seed,
    ));
    let sink = Arc::new(Sink::default());
    let stop = Arc::new(AtomicBool::new(false));
    let courier = tokio::spawn(deliver_until_stopped(
        service.clone(),
        sink.clone(),
        stop.clone(),
    ));
    let result = load(&service, &sink, settings, db, out).await;
    stop.store(true, Ordering::SeqCst);
    let delivery_errors = courier.await.unwrap_or_default();
    let result = result.and_then(|report| {
        let delivered = sink.delivered.load(Ordering::Relaxed);
        let images = sink.images.load(Ordering::Relaxed);
        say(
            out,
            format!("posts delivered in all: {delivered} ({images} with a board image)"),
        )?;
        for e in delivery_errors.iter().take(ERRORS_SHOWN) {
            say(out, format!("delivery error: {e}"))?;
        }
        if !delivery_errors.is_empty() {
            return Err(format!(
                "delivering the outbox failed {} times",
                delivery_errors.len()
            ));
        }
        Ok(report)
    });
    // Hands the outbox and the clocks back at once to other processes on the database.
    let _ = service.release_leases().await;
    service.store().close().await;
    let report = result?;
    if report.errors > 0 {
        return Err(format!(
            "{} of {} actions failed",
            report.errors, report.actions
        ));
    }
    Ok(report)
}

/// Setup, load and figures; the delivery runs beside it.
async fn load(
    service: &Arc<Service>,
    sink: &Sink,
    settings: &Settings,
    db: &str,
    out: &mut dyn Write,
) -> Result<Report, String> {
    // ---- setup ----
    say(
        out,
        format!(
            "setup: {} games of {} through /play and /join, {} at a time",
            settings.games,
            mix(settings.games),
            settings.setup_tasks
        ),
    )?;
    let began = std::time::Instant::now();
    let (sender, mut receiver) =
        tokio::sync::mpsc::unbounded_channel::<(usize, Result<Slot, String>)>();
    let tasks = settings.setup_tasks.min(settings.games);
    for first in 0..tasks {
        let service = service.clone();
        let sender = sender.clone();
        let (games, step) = (settings.games, tasks);
        tokio::spawn(async move {
            let mut index = first;
            while index < games {
                let made = start_game(&service, index).await;
                let failed = made.is_err();
                if sender.send((index, made)).is_err() || failed {
                    return;
                }
                index += step;
            }
        });
    }
    drop(sender);
    let mut made: Vec<Option<Slot>> = (0..settings.games).map(|_| None).collect();
    let mut count: usize = 0;
    while let Some((index, slot)) = receiver.recv().await {
        let slot = slot.map_err(|e| format!("setting up game {} of the load: {e}", index + 1))?;
        made[index] = Some(slot);
        count += 1;
        if count.is_multiple_of(PROGRESS_EVERY) && count < settings.games {
            say(
                out,
                format!(
                    "setup: {count}/{} games in {:.1} s",
                    settings.games,
                    began.elapsed().as_secs_f64()
                ),
            )?;
        }
    }
    let slots: Vec<Arc<tokio::sync::Mutex<Slot>>> = made
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.map(|s| Arc::new(tokio::sync::Mutex::new(s)))
                .ok_or_else(|| format!("game {} of the load was not set up", i + 1))
        })
        .collect::<Result<_, String>>()?;
    let setup = began.elapsed();
    say(
        out,
        format!(
            "setup time: {:.1} s for {} games ({:.0} games/s)",
            setup.as_secs_f64(),
            settings.games,
            settings.games as f64 / setup.as_secs_f64().max(1e-9)
        ),
    )?;
    // The posts the setup made go out before the load starts, so they do not weigh on it.
    let draining = std::time::Instant::now();
    wait_for_empty_outbox(service, sink).await?;
    say(
        out,
        format!(
            "outbox after setup: {} posts delivered, empty after {:.1} s more",
            sink.delivered.load(Ordering::Relaxed),
            draining.elapsed().as_secs_f64()
        ),
    )?;

    // ---- load ----
    let total = settings.actions();
    say(
        out,
        format!(
            "load: {} actions/s for {} s ({total} actions) over {} active games, clocks ticking \
             every second",
            settings.rate, settings.seconds, settings.games
        ),
    )?;
    let delivered_before = sink.delivered.load(Ordering::Relaxed);
    let images_before = sink.images.load(Ordering::Relaxed);
    let run = Arc::new(Run {
        service: service.clone(),
        slots,
    });
    let start = Instant::now();
    let ticker = tokio::spawn(tick_every_second(service.clone(), start, settings.seconds));
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed ^ 0x10ad_7e57);
    let mut actions = Vec::with_capacity(total as usize);
    for k in 0..total {
        let due = start + Duration::from_secs_f64(k as f64 / settings.rate);
        tokio::time::sleep_until(due).await;
        let pick = rng.gen_range(0..run.slots.len());
        let choice: u64 = rng.gen();
        actions.push(tokio::spawn(one_action(
            run.clone(),
            pick,
            choice,
            due,
            start,
        )));
    }
    let mut done = Vec::with_capacity(actions.len());
    for action in actions {
        done.push(
            action
                .await
                .map_err(|e| format!("an action's task failed: {e}"))?,
        );
    }
    let ticks = ticker
        .await
        .map_err(|e| format!("the clock's task failed: {e}"))?;
    // The load's own posts, delivered before the outbox is counted.
    wait_for_empty_outbox(service, sink).await?;

    // ---- figures ----
    let errors: Vec<&String> = done.iter().filter_map(|d| d.error.as_ref()).collect();
    let troubles: Vec<&String> = done.iter().filter_map(|d| d.trouble.as_ref()).collect();
    let replaced = done.iter().filter(|d| d.replaced).count();
    let busy = done
        .iter()
        .map(|d| d.finished)
        .max()
        .unwrap_or_default()
        .max(Duration::from_secs_f64(settings.seconds.min(1e9)));
    let throughput = done.len() as f64 / busy.as_secs_f64().max(1e-9);
    let mut latencies: Vec<Duration> = done.iter().map(|d| d.latency).collect();
    latencies.sort_unstable();
    let (p50, p99) = (percentile(&latencies, 50.0), percentile(&latencies, 99.0));
    let max = latencies.last().copied().unwrap_or_default();
    let mut tick_times = ticks.times.clone();
    tick_times.sort_unstable();
    let tick_p99 = percentile(&tick_times, 99.0);
    say(
        out,
        format!("actions: {} done, {} errors", done.len(), errors.len()),
    )?;
    for e in errors.iter().take(ERRORS_SHOWN) {
        say(out, format!("error: {e}"))?;
    }
    for t in troubles.iter().take(ERRORS_SHOWN) {
        say(out, format!("trouble: {t}"))?;
    }
    say(out, format!("throughput: {throughput:.1} actions/s"))?;
    say(
        out,
        format!(
            "latency per action: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            ms(p50),
            ms(p99),
            ms(max)
        ),
    )?;
    say(
        out,
        format!(
            "clock tick: {} ticks, p99 {:.1} ms, max {:.1} ms, {} games' clocks acted, {} errors",
            tick_times.len(),
            ms(tick_p99),
            ms(tick_times.last().copied().unwrap_or_default()),
            ticks.changed,
            ticks.errors.len()
        ),
    )?;
    for e in ticks.errors.iter().take(ERRORS_SHOWN) {
        say(out, format!("clock error: {e}"))?;
    }
    say(out, format!("games finished and replaced: {replaced}"))?;
    let delivered = sink.delivered.load(Ordering::Relaxed) - delivered_before;
    let images = sink.images.load(Ordering::Relaxed) - images_before;
    say(
        out,
        format!("posts delivered during the load: {delivered} ({images} with a board image)"),
    )?;
    let database_bytes = database_size(service.store(), db, out).await?;
    if !ticks.errors.is_empty() {
        return Err(format!(
            "the clock's tick failed {} times",
            ticks.errors.len()
        ));
    }
    if !troubles.is_empty() {
        return Err(format!(
            "keeping the games going failed {} times",
            troubles.len()
        ));
    }
    Ok(Report {
        setup,
        actions: done.len(),
        errors: errors.len(),
        throughput,
        p50,
        p99,
        max,
        tick_p99,
        replaced,
        delivered,
        database_bytes,
    })
}

/// The rotation's share of `games`: `chess 3, ..., doubles (4 players) 2, ...`.
fn mix(games: usize) -> String {
    let n = ROTATION.len();
    ROTATION
        .iter()
        .enumerate()
        .filter_map(|(i, id)| {
            let count = games / n + usize::from(i < games % n);
            let seats = registry::variant(id).ok()?.info().default_seats();
            (count > 0).then(|| {
                if seats == 2 {
                    format!("{id} {count}")
                } else {
                    format!("{id} ({seats} players) {count}")
                }
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Starts game `index` of the load as players would: `/play` with a clock, then a `/join`
/// for every other seat (the last one starts it); then reads it back.
async fn start_game(service: &Service, index: usize) -> Result<Slot, String> {
    let variant = ROTATION[index % ROTATION.len()];
    let game = registry::variant(variant).map_err(|e| e.to_string())?;
    let seats = game.info().default_seats();
    let users: Vec<User> = (0..seats)
        .map(|j| {
            let id = format!("lt{}p{}", index + 1, j + 1);
            User::new(id.clone(), id)
        })
        .collect();
    let place = Place::channel(SERVER, format!("channel-{}", index % CHANNELS + 1));
    let reply = service
        .create(&users[0], &place, variant, "days=1", Some(seats))
        .await
        .map_err(|e| format!("/play {variant}: {e}"))?;
    let id = created_id(&reply.text)
        .ok_or_else(|| format!("/play {variant} answered '{}'", reply.text))?;
    for user in &users[1..] {
        service
            .join(user, &place, Some(id))
            .await
            .map_err(|e| format!("/join {id} ({variant}): {e}"))?;
    }
    let row = service
        .store()
        .game(id)
        .await
        .map_err(|e| format!("reading game {id}: {e}"))?
        .ok_or_else(|| format!("game {id} is not in the database"))?;
    if row.status != Status::Active {
        return Err(format!(
            "game {id} ({variant}) is {} after every seat was taken",
            row.status.as_str()
        ));
    }
    let json = row
        .state
        .as_deref()
        .ok_or_else(|| format!("game {id} has no state"))?;
    let state = game.load(json).map_err(|e| format!("game {id}: {e}"))?;
    let mut seated = service
        .store()
        .seats_of(id)
        .await
        .map_err(|e| format!("reading game {id}'s seats: {e}"))?;
    seated.sort_by_key(|s| s.seat);
    let users = seated
        .into_iter()
        .map(|s| User::new(s.user_id, s.user_name))
        .collect();
    Ok(Slot {
        index,
        game,
        id,
        place,
        users,
        state,
    })
}

/// The game number in /play's answer ("Game 12 created: Chess. ...").
fn created_id(text: &str) -> Option<GameId> {
    let rest = text.strip_prefix("Game ")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok().map(GameId)
}

/// Reads the game back after an action; false when it is no longer being played.
async fn reload(service: &Service, slot: &mut Slot) -> Result<bool, String> {
    let id = slot.id;
    let row = service
        .store()
        .game(id)
        .await
        .map_err(|e| format!("reading game {id}: {e}"))?
        .ok_or_else(|| format!("game {id} is not in the database"))?;
    if row.status != Status::Active {
        return Ok(false);
    }
    let json = row
        .state
        .as_deref()
        .ok_or_else(|| format!("game {id} has no state"))?;
    slot.state = slot
        .game
        .load(json)
        .map_err(|e| format!("game {id}: {e}"))?;
    Ok(true)
}

/// One timed action, due at `due`: a legal action in game `pick` (or the next free one),
/// chosen with `choice`. After it, untimed, the game is read back, and replaced if it ended.
async fn one_action(run: Arc<Run>, pick: usize, choice: u64, due: Instant, start: Instant) -> Done {
    let mut slot = run.claim(pick).await;
    let played = play(&run.service, &slot, choice).await;
    let latency = due.elapsed();
    let finished = start.elapsed();
    let mut done = Done {
        latency,
        finished,
        error: played.err(),
        replaced: false,
        trouble: None,
    };
    match reload(&run.service, &mut slot).await {
        Ok(true) => {}
        Ok(false) => match start_game(&run.service, slot.index).await {
            Ok(new) => {
                *slot = new;
                done.replaced = true;
            }
            Err(e) => done.trouble = Some(format!("replacing game {}: {e}", slot.id)),
        },
        Err(e) => done.trouble = Some(e),
    }
    done
}

/// Chooses a legal action for a seat the game asks, and plays it through the service as
/// `/move` (or `/secret`, in direct messages, for a secret choice) would.
async fn play(service: &Service, slot: &Slot, choice: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(choice);
    let (game, id) = (slot.game, slot.id);
    let about = |what: String| format!("game {id} ({}): {what}", game.info().id);
    let prompts = game
        .prompts(&slot.state)
        .map_err(|e| about(e.to_string()))?;
    if prompts.is_empty() {
        return Err(about("nobody is asked to act".into()));
    }
    let prompt = &prompts[rng.gen_range(0..prompts.len())];
    let seat = prompt.seat;
    let secret = prompt.kind == PromptKind::Secret;
    let texts = game
        .legal_texts(&slot.state, seat)
        .map_err(|e| about(e.to_string()))?;
    if texts.is_empty() {
        return Err(about(format!(
            "{} is asked to act but has nothing legal",
            seat.colour_name()
        )));
    }
    let text = texts[rng.gen_range(0..texts.len())].clone();
    let user = slot
        .users
        .get(seat.index())
        .ok_or_else(|| about(format!("nobody sits in seat {}", seat.index() + 1)))?;
    let played = if secret {
        service
            .secret(user, &Place::DirectMessage, Some(id), &text)
            .await
    } else {
        service.act(user, &slot.place, Some(id), &text).await
    };
    played.map(|_| ()).map_err(|e| {
        let command = if secret { "/secret" } else { "/move" };
        about(format!("{} {command} {text}: {e}", user.id))
    })
}

/// The clocks' tick once a second from `start` for `seconds`, each timed.
async fn tick_every_second(service: Arc<Service>, start: Instant, seconds: f64) -> Ticks {
    let mut ticks = Ticks::default();
    let mut n: u64 = 0;
    while (n as f64) < seconds {
        tokio::time::sleep_until(start + Duration::from_secs(n)).await;
        let began = std::time::Instant::now();
        match service.tick().await {
            Ok(changed) => ticks.changed += changed,
            Err(e) => ticks.errors.push(e.to_string()),
        }
        ticks.times.push(began.elapsed());
        n += 1;
    }
    ticks
}

/// Delivers the outbox as a frontend's worker does (woken by new posts, else every 100 ms)
/// until `stop` is set and nothing is left. Returns the errors met.
async fn deliver_until_stopped(
    service: Arc<Service>,
    sink: Arc<Sink>,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    let ready = service.outbox_ready();
    let mut errors = Vec::new();
    loop {
        let stopping = stop.load(Ordering::SeqCst);
        match service.flush_outbox(&*sink).await {
            Ok(0) if stopping => break,
            Ok(_) => {}
            Err(e) => {
                errors.push(e.to_string());
                if stopping {
                    break;
                }
            }
        }
        let _ = tokio::time::timeout(Duration::from_millis(100), ready.notified()).await;
    }
    errors
}

/// Waits until no post is left to deliver; an error if delivery stops making progress.
async fn wait_for_empty_outbox(service: &Service, sink: &Sink) -> Result<(), String> {
    let mut last = sink.delivered.load(Ordering::Relaxed);
    let mut since = std::time::Instant::now();
    loop {
        match service.next_delivery_in().await {
            Ok(None) => return Ok(()),
            Ok(Some(_)) => {}
            Err(e) => return Err(format!("reading the outbox: {e}")),
        }
        let now = sink.delivered.load(Ordering::Relaxed);
        if now != last {
            last = now;
            since = std::time::Instant::now();
        } else if since.elapsed() > Duration::from_secs(60) {
            return Err("the outbox stopped draining: no post delivered for a minute".into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Prints and returns the database's size: an SQLite file with its write-ahead log, as the
/// files are on disk; PostgreSQL's as it counts it.
async fn database_size(store: &Store, db: &str, out: &mut dyn Write) -> Result<u64, String> {
    match store.backend() {
        Backend::Sqlite => {
            let path = sqlite_path(db);
            let mut wal = path.clone().into_os_string();
            wal.push("-wal");
            fn size(p: &std::path::Path) -> u64 {
                std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
            }
            let (file, log) = (size(path.as_path()), size(std::path::Path::new(&wal)));
            say(
                out,
                format!(
                    "database size: {:.1} MB (SQLite file {:.1} MB + WAL {:.1} MB)",
                    mb(file + log),
                    mb(file),
                    mb(log)
                ),
            )?;
            Ok(file + log)
        }
        Backend::Postgres => {
            let bytes = store
                .database_size()
                .await
                .map_err(|e| format!("reading the database's size: {e}"))?
                .unwrap_or(0)
                .max(0) as u64;
            say(
                out,
                format!("database size: {:.1} MB (PostgreSQL)", mb(bytes)),
            )?;
            Ok(bytes)
        }
    }
}

/// The file an SQLite `--db` names (a path, or an `sqlite:` URL), as the store reads it.
fn sqlite_path(db: &str) -> PathBuf {
    PathBuf::from(
        db.strip_prefix("sqlite://")
            .or_else(|| db.strip_prefix("sqlite:"))
            .unwrap_or(db),
    )
}

/// The nearest-rank percentile `p` (0-100) of sorted durations; zero for none.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1_000_000.0
}

/// Prints one line at once (progress shows while the run goes on).
fn say(out: &mut dyn Write, line: String) -> Result<(), String> {
    writeln!(out, "{line}")
        .and_then(|_| out.flush())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn percentiles_are_nearest_rank() {
        let d: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&d, 50.0), Duration::from_millis(50));
        assert_eq!(percentile(&d, 99.0), Duration::from_millis(99));
        assert_eq!(percentile(&d[..1], 99.0), Duration::from_millis(1));
        assert_eq!(percentile(&[], 50.0), Duration::ZERO);
        assert_eq!(
            created_id("Game 12 created: Chess. Others join"),
            Some(GameId(12))
        );
        assert_eq!(created_id("You joined"), None);
    }

    /// `rookery loadtest` on a temporary SQLite file: 20 games, 20 actions a second for two
    /// seconds, every figure printed and no action refused.
    #[test]
    fn a_short_load_test_prints_its_figures_and_no_errors() {
        let dir = std::env::temp_dir().join(format!("rookery-loadtest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("load.db");
        let cli = crate::cli::Cli::try_parse_from([
            "rookery",
            "--db",
            db.to_str().unwrap(),
            "loadtest",
            "--games",
            "20",
            "--rate",
            "20",
            "--seconds",
            "2",
            "--seed",
            "5",
        ])
        .unwrap();
        let mut out = Vec::new();
        let result = crate::cli::run(cli, &mut out, &mut Vec::new());
        let out = String::from_utf8(out).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = result {
            panic!("{e}\n{out}");
        }
        let line = |prefix: &str| -> String {
            out.lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no line '{prefix}...' in:\n{out}"))
                .to_string()
        };
        assert!(line("setup: 20 games of chess 3, checkers 3,").contains("doubles (4 players) 2"));
        assert!(line("setup time: ").contains(" s for 20 games ("), "{out}");
        assert_eq!(line("actions: "), "actions: 40 done, 0 errors", "{out}");
        assert!(!out.lines().any(|l| l.starts_with("error:")), "{out}");
        assert!(line("throughput: ").ends_with(" actions/s"), "{out}");
        let latency = line("latency per action: p50 ");
        let figures: Vec<f64> = latency
            .split(' ')
            .filter_map(|w| w.parse::<f64>().ok())
            .collect();
        assert_eq!(figures.len(), 3, "{latency}");
        assert!(
            figures[0] <= figures[1] && figures[1] <= figures[2],
            "{latency}"
        );
        assert!(
            line("clock tick: 2 ticks, p99 ").ends_with(", 0 errors"),
            "{out}"
        );
        line("games finished and replaced: ");
        // Every action posts the board: the service drew it, and the post carried it.
        let posts = line("posts delivered during the load: ");
        let numbers: Vec<u64> = posts
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(numbers.len() >= 2 && numbers[1] >= 40, "{posts}");
        let size = line("database size: ");
        let mb: f64 = size
            .trim_start_matches("database size: ")
            .split(' ')
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap();
        assert!(mb > 0.0, "{size}");
        assert!(size.contains("SQLite file"), "{size}");
    }
}

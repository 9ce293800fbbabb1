//! A harness that plays scenario transcripts through the console frontend against a real
//! SQLite file, with a clock the script moves and restarts and crashes it can cause.
//!
//! A transcript is a text file. Lines starting with `@` are input, exactly as typed into
//! `rookery local`. The lines after an input are what must appear in its output, in order (other
//! lines may come between); `[image]` stands for any image path, and `[file: NAME]` for an
//! attached file of that name saved in any folder. A line `NOT text` says no output line of
//! that input contains `text`; `NOT-PUBLIC text` looks only at public posts and
//! `NOT-TO bob text` only at what bob sees (his DMs and private replies). Directives:
//!
//! - `!advance 18h` (or `2d`, `30m`): moves the clock, then runs it and delivers;
//! - `!restart`: stops the service and starts a new one on the same database file;
//! - `!crash`: the next input is committed but the process "dies" before delivering anything;
//!   a restart follows and its posts must come out then;
//! - `!closed-dms alice`: alice's direct messages fail from now on.
//!
//! `#` starts a comment.
// The fake's GUILD_CREATE is one large `json!` literal.
#![recursion_limit = "256"]

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bot::commands;
use bot::console::{Console, Printer, LOBBY};
use bot::model::{Place, Reply};
use bot::service::{ManualClock, Service, ServiceError};
use bot::store::Store;

/// A folder removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "rookery-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Output captured in memory.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl Capture {
    /// Takes everything written since the last call.
    pub fn take(&self) -> String {
        let mut buf = self.0.lock().unwrap();
        let text = String::from_utf8_lossy(&buf).to_string();
        buf.clear();
        text
    }
}

impl Write for Capture {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A running Rookery on a temporary database, seen through the console.
pub struct Harness {
    pub dir: TempDir,
    pub clock: Arc<ManualClock>,
    pub service: Service,
    pub printer: Printer,
    pub capture: Capture,
    closed_dms: HashSet<String>,
    /// The database: the SQLite file in `dir`, or a PostgreSQL URL.
    database: String,
}

/// The seed every harness gives its service, so games repeat exactly.
pub const SEED: u64 = 7;

impl Harness {
    /// A harness on a new SQLite file.
    pub async fn new() -> Harness {
        Harness::on(None).await
    }

    /// A harness on `database` (a PostgreSQL URL), or on a new SQLite file.
    pub async fn on(database: Option<String>) -> Harness {
        let dir = TempDir::new("scenario");
        let database = database.unwrap_or_else(|| Harness::db(&dir.0).display().to_string());
        let clock = Arc::new(ManualClock::new(1_800_000_000));
        let capture = Capture::default();
        let service = Harness::open(&database, clock.clone()).await;
        let printer = Printer::new(
            Box::new(capture.clone()),
            dir.0.join("images"),
            HashSet::new(),
        );
        Harness {
            dir,
            clock,
            service,
            printer,
            capture,
            closed_dms: HashSet::new(),
            database,
        }
    }

    pub fn db(dir: &Path) -> PathBuf {
        dir.join("rookery.db")
    }

    async fn open(database: &str, clock: Arc<ManualClock>) -> Service {
        let store = Store::connect(database).await.unwrap();
        Service::with_seed(store, clock, SEED)
    }

    /// Stops this service and starts a fresh one on the same file (the clock keeps its time).
    pub async fn restart(&mut self) {
        // The same process again: what it held (on PostgreSQL, the outbox's and the clocks'
        // leases) is its own at once, as a crashed transaction leaves the process alive.
        let _ = self.service.release_leases().await;
        self.service.store().close().await;
        self.service = Harness::open(&self.database, self.clock.clone()).await;
        self.printer = Printer::new(
            Box::new(self.capture.clone()),
            self.dir.0.join("images"),
            self.closed_dms.clone(),
        );
    }

    /// Runs one console line and returns what it printed.
    pub async fn line(&self, line: &str) -> String {
        Console::new(&self.service, &self.printer)
            .handle(line)
            .await;
        self.capture.take()
    }

    /// Runs one console line but "crashes" after the commit: the reply is printed, nothing is
    /// delivered.
    pub async fn line_then_crash(&self, line: &str) -> String {
        let (user, rest) = line.trim_start_matches('@').split_once(' ').unwrap();
        let rest = rest.trim().trim_start_matches('/');
        let (name, args) = rest.split_once(' ').unwrap_or((rest, ""));
        let command = commands::parse_text(name, args).unwrap();
        let user = bot::model::User::new(user, user);
        let place = Place::channel("console", LOBBY);
        let reply = match commands::run(&self.service, &user, &place, command).await {
            Ok(r) => r,
            Err(ServiceError::Refused(m)) | Err(ServiceError::Internal(m)) => Reply::text(m),
        };
        self.printer.ephemeral(&user.id, &reply);
        self.capture.take()
    }

    /// Moves the clock, runs it and delivers.
    pub async fn advance(&self, seconds: i64) -> String {
        self.clock.advance(seconds);
        Console::new(&self.service, &self.printer).settle().await;
        self.capture.take()
    }

    /// Plays a transcript; returns a description of the first mismatch.
    pub async fn play_transcript(&mut self, script: &str) -> Result<(), String> {
        let mut output = String::new();
        let mut input = String::from("(start)");
        let mut cursor = 0usize;
        let mut crash_next = false;
        for (n, raw) in script.lines().enumerate() {
            let line = raw.trim();
            let at = n + 1;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix('!') {
                let (directive, arg) = rest.split_once(' ').unwrap_or((rest, ""));
                match directive {
                    "advance" => {
                        input = line.to_string();
                        output = self.advance(parse_duration(arg)).await;
                        cursor = 0;
                    }
                    "restart" => {
                        self.restart().await;
                        input = line.to_string();
                        output = self.advance(0).await;
                        cursor = 0;
                    }
                    "crash" => crash_next = true,
                    "closed-dms" => {
                        self.closed_dms.insert(arg.trim().to_string());
                        self.printer = Printer::new(
                            Box::new(self.capture.clone()),
                            self.dir.0.join("images"),
                            self.closed_dms.clone(),
                        );
                    }
                    other => return Err(format!("line {at}: unknown directive !{other}")),
                }
                continue;
            }
            if line.starts_with('@') {
                input = line.to_string();
                output = if crash_next {
                    crash_next = false;
                    let mut out = self.line_then_crash(line).await;
                    self.restart().await;
                    out.push_str(&self.advance(0).await);
                    out
                } else {
                    self.line(line).await
                };
                cursor = 0;
                continue;
            }
            let lines: Vec<String> = output.lines().map(normalise).collect();
            // `NOT-PUBLIC text`: no public post of this input contains `text`;
            // `NOT-TO bob text`: nothing bob sees (DM or private reply) contains `text`.
            let audience: Option<(Vec<String>, &str)> =
                if let Some(rest) = line.strip_prefix("NOT-PUBLIC ") {
                    Some((vec!["PUBLIC ".to_string()], rest))
                } else if let Some(rest) = line.strip_prefix("NOT-TO ") {
                    let (who, text) = rest.split_once(' ').unwrap_or((rest, ""));
                    Some((
                        vec![format!("DM {who}:"), format!("EPHEMERAL {who}:")],
                        text,
                    ))
                } else {
                    None
                };
            if let Some((prefixes, absent)) = audience {
                if let Some(found) = lines
                    .iter()
                    .filter(|l| prefixes.iter().any(|p| l.starts_with(p.as_str())))
                    .find(|l| l.contains(absent))
                {
                    return Err(format!("line {at}: after `{input}`, `{absent}` reached the wrong audience:\n{found}"));
                }
                continue;
            }
            if let Some(absent) = line.strip_prefix("NOT ") {
                if let Some(found) = lines.iter().find(|l| l.contains(absent)) {
                    return Err(format!("line {at}: after `{input}` no line should contain `{absent}`, but got:\n{found}\n\nall output:\n{output}"));
                }
                continue;
            }
            let want = normalise(line);
            match lines[cursor.min(lines.len())..].iter().position(|l| *l == want) {
                Some(i) => cursor += i + 1,
                None => {
                    return Err(format!(
                        "line {at}: after `{input}` expected\n{want}\nin the output (in order), which was:\n{}",
                        lines.join("\n")
                    ))
                }
            }
        }
        Ok(())
    }
}

/// Replaces image paths by `[image]`.
pub fn normalise(line: &str) -> String {
    let mut out = line.trim().to_string();
    while let Some(start) = out.find("[image: ") {
        let Some(end) = out[start..].find(']') else {
            break;
        };
        out.replace_range(start..start + end + 1, "[image]");
    }
    // An attached file keeps its own name, without the folder and the counter before it:
    // `[file: /tmp/x/images/0007-rookery-game-1.pgn]` reads `[file: rookery-game-1.pgn]`.
    let mut from = 0;
    while let Some(found) = out[from..].find("[file: ") {
        let start = from + found + "[file: ".len();
        let Some(end) = out[start..].find(']') else {
            break;
        };
        let path = out[start..start + end].to_string();
        let base = path.rsplit(['/', '\\']).next().unwrap_or(&path);
        let name = match base.split_once('-') {
            Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) => rest,
            _ => base,
        }
        .to_string();
        out.replace_range(start..start + end, &name);
        from = start + name.len();
    }
    out
}

/// `18h`, `2d`, `30m`, `45s`.
pub fn parse_duration(text: &str) -> i64 {
    let t = text.trim();
    let (n, unit) = t.split_at(t.len() - 1);
    let n: i64 = n.parse().unwrap_or_else(|_| panic!("bad duration {text}"));
    match unit {
        "d" => n * 86_400,
        "h" => n * 3_600,
        "m" => n * 60,
        "s" => n,
        _ => panic!("bad duration unit in {text}"),
    }
}

pub mod discord_contract;
pub mod discord_story;
pub mod fake_discord;
pub mod postgres;
pub mod reference;

//! The local console: the same service as Discord, driven by lines of text.
//!
//! Input lines look like `@alice /play chess960 start=518`: a user, a slash command and its
//! arguments in the slash command's order (`name:value` works too). Output is what each person
//! would see, one prefixed line per line of text:
//!
//! ```text
//! PUBLIC lobby: @alice wants to play **Chess** (game 1: ...)
//! PUBLIC game-1: @bob joined game 1 (2/2).
//! DM bob: Reminder: it is your move in game 1 ...
//! EPHEMERAL alice: You played e4 in game 1.
//! ```
//!
//! Images are written under the output folder and their path is printed on the post; files
//! attached to an answer (a game's record, a replay) likewise, as `[file: PATH]`.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::commands::{self, Command};
use crate::model::{self, Pending, Place, Reply, Target, User};
use crate::service::{Deliver, DeliveryError, Service, ServiceError};

/// The one channel of the console, where games are announced.
pub const LOBBY: &str = "lobby";
/// The one server the console plays in.
pub const SERVER: &str = "console";

/// Prints posts and replies as the console's lines.
pub struct Printer {
    out: Mutex<Box<dyn Write + Send>>,
    images: PathBuf,
    next_image: Mutex<u32>,
    /// Users whose direct messages are closed (to try the fallback).
    closed_dms: HashSet<String>,
}

impl Printer {
    /// A printer writing text to `out` and images under `images`.
    pub fn new(
        out: Box<dyn Write + Send>,
        images: PathBuf,
        closed_dms: HashSet<String>,
    ) -> Printer {
        Printer {
            out: Mutex::new(out),
            images,
            next_image: Mutex::new(0),
            closed_dms,
        }
    }

    fn line(&self, prefix: &str, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let text = expand(text);
        for line in text.lines() {
            let _ = writeln!(out, "{prefix}: {line}");
        }
        if text.is_empty() {
            let _ = writeln!(out, "{prefix}:");
        }
        let _ = out.flush();
    }

    /// Saves an image and returns its path. Images are numbered on from those already in the
    /// folder, so a later run never overwrites an earlier one's.
    fn save_image(&self, png: &[u8], name: &str) -> String {
        self.save(png, &format!("{name}.png"), "image")
    }

    /// Saves an attached file (a record, a replay) beside the images and returns its path.
    fn save_file(&self, bytes: &[u8], name: &str) -> String {
        self.save(bytes, name, "file")
    }

    /// Saves bytes under the output folder as `NNNN-name` and returns the path, or why not.
    fn save(&self, bytes: &[u8], name: &str, what: &str) -> String {
        if let Err(e) = std::fs::create_dir_all(&self.images) {
            return format!("({what} not saved: {e})");
        }
        let n = {
            let mut next = self.next_image.lock().unwrap_or_else(|e| e.into_inner());
            if *next == 0 {
                *next = std::fs::read_dir(&self.images)
                    .map(|d| d.count() as u32)
                    .unwrap_or(0);
            }
            *next += 1;
            *next
        };
        let path = self.images.join(format!("{n:04}-{name}"));
        match std::fs::write(&path, bytes) {
            Ok(()) => path.display().to_string(),
            Err(e) => format!("({what} not saved: {e})"),
        }
    }

    /// Prints a reply only `user` sees, or, when it is public, for everyone in the lobby
    /// (where console commands are given).
    pub fn ephemeral(&self, user: &str, reply: &Reply) {
        let prefix = if reply.public {
            format!("PUBLIC {LOBBY}")
        } else {
            format!("EPHEMERAL {user}")
        };
        let mut text = reply.text.clone();
        if let Some(png) = &reply.image {
            text.push_str(&format!(
                " [image: {}]",
                self.save_image(png, &format!("{user}-board"))
            ));
        }
        if let Some(file) = &reply.file {
            text.push_str(&format!(
                " [file: {}]",
                self.save_file(&file.bytes, &file.name)
            ));
        }
        self.line(&prefix, &text);
    }

    /// Prints a free-form error line.
    pub fn error(&self, text: &str) {
        self.line("ERROR", text);
    }

    /// Echoes an input line (when input is not a terminal).
    pub fn echo(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "> {line}");
    }
}

/// Mentions as `@name`, game threads as `#game-N`.
fn expand(text: &str) -> String {
    model::expand(
        text,
        |user| format!("@{user}"),
        |game| format!("#game-{game}"),
    )
}

impl Deliver for Printer {
    async fn deliver(&self, _service: &Service, item: &Pending) -> Result<(), DeliveryError> {
        let post = &item.post;
        let (prefix, image_name) = match &post.target {
            Target::Channel(c) => (format!("PUBLIC {c}"), c.clone()),
            Target::GameThread(g) => (format!("PUBLIC game-{g}"), format!("game-{g}")),
            Target::Direct(u) => {
                if self.closed_dms.contains(u) {
                    return Err(DeliveryError::DirectMessagesClosed);
                }
                (format!("DM {u}"), format!("dm-{u}"))
            }
        };
        let mut text = post.text.clone();
        if !post.buttons.is_empty() {
            let labels: Vec<String> = post
                .buttons
                .iter()
                .map(|b| format!("[{}]", b.action.label()))
                .collect();
            text.push_str(&format!(" {}", labels.join(" ")));
        }
        if let Some(png) = &post.image {
            text.push_str(&format!(" [image: {}]", self.save_image(png, &image_name)));
        }
        self.line(&prefix, &text);
        Ok(())
    }
}

/// Reads `@user /command args` and runs it.
pub struct Console<'a> {
    service: &'a Service,
    printer: &'a Printer,
}

impl<'a> Console<'a> {
    pub fn new(service: &'a Service, printer: &'a Printer) -> Console<'a> {
        Console { service, printer }
    }

    /// Runs one input line, then delivers everything it caused (and anything the clock did).
    pub async fn handle(&self, line: &str) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        match parse_line(line) {
            Err(message) => self.printer.error(&message),
            Ok((user, command)) => {
                let place = Place::channel(SERVER, LOBBY);
                let result = commands::run(self.service, &user, &place, command).await;
                match result {
                    Ok(reply) => self.printer.ephemeral(&user.id, &reply),
                    Err(ServiceError::Refused(message)) => {
                        self.printer.ephemeral(&user.id, &Reply::text(message))
                    }
                    Err(ServiceError::Internal(message)) => {
                        tracing::error!("{message}");
                        self.printer
                            .ephemeral(&user.id, &Reply::text(commands::SORRY));
                    }
                }
            }
        }
        self.settle().await;
    }

    /// Runs the clock, lets computer players take the turns that are theirs (each posted as it
    /// is played), and delivers all waiting posts.
    pub async fn settle(&self) {
        if let Err(e) = self.service.tick().await {
            tracing::error!("clock: {e}");
        }
        loop {
            if let Err(e) = self.service.flush_outbox(self.printer).await {
                tracing::error!("delivery: {e}");
            }
            match self.service.play_computer_turns().await {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!("computer players: {e}");
                    break;
                }
            }
        }
    }
}

/// Splits `@user /command args...` into a user and a command.
fn parse_line(line: &str) -> Result<(User, Command), String> {
    let usage = "lines look like: @alice /play chess";
    let rest = line
        .strip_prefix('@')
        .ok_or_else(|| format!("'{line}': {usage}"))?;
    let (name, rest) = rest
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("'{line}': {usage}"))?;
    if name.is_empty() {
        return Err(format!("'{line}': {usage}"));
    }
    // Names with a colon are kept for computer players (`computer:hard:1`).
    if name.contains(':') {
        return Err(format!(
            "'{name}': a user's name cannot hold ':' (such names are the computer players')"
        ));
    }
    let rest = rest.trim();
    let command_line = rest
        .strip_prefix('/')
        .ok_or_else(|| format!("'{line}': {usage}"))?;
    let (command, args) = command_line
        .split_once(char::is_whitespace)
        .unwrap_or((command_line, ""));
    let command = commands::parse_text(command, args.trim()).map_err(|e| e.to_string())?;
    Ok((User::new(name, name), command))
}

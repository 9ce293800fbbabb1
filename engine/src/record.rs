//! A game's record as text, and its replay through the rules.
//!
//! Three formats, chosen by the variant: PGN for chess and Chess960 (the PGN standard's export
//! format), PDN for the two-player checkers games (checkers, Stax and Queens), and for every
//! other variant Rookery's own JSON record, whose schema `docs/EXPORT.md` describes. Each is
//! read back by [`read`] into a [`Record`], and [`replay`] plays every action of a record
//! through the engine, saying where it disagrees: the first action refused, or read back as
//! another text.
//!
//! Everything here is pure text conversion: the bot fetches the game and writes the file.
//!
//! ```
//! use engine::game::Options;
//! use engine::playout::{random_game, Settings};
//! use engine::record::{self, Format, Record};
//!
//! let chess = engine::registry::variant("chess").unwrap();
//! let settings = Settings { seed: 5, max_actions: 60, ..Settings::default() };
//! let playout = random_game(chess, &Options::new(), &settings).unwrap();
//! let record = Record::from_playout("chess", &Options::new(), 2, 5, &playout);
//! let (format, text) = record::write(&record).unwrap();
//! assert_eq!(format, Format::Pgn);
//! assert!(text.starts_with("[Event "));
//! let back = record::read(&text).unwrap();
//! let replayed = record::replay(&back).unwrap();
//! assert_eq!(replayed.outcome, playout.outcome);
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::{AnyGame, AnyState, EndReason, Event, GameError, Options, Outcome};
use crate::playout::Playout;
use crate::registry;
use crate::view::{View, Viewer};
use crate::Seat;

/// The value of a JSON record's `format` field.
pub const FORMAT: &str = "rookery-record";
/// The JSON record's schema version.
pub const VERSION: u32 = 1;
/// The longest line of PGN and PDN movetext, as the PGN standard's export format asks.
pub const LINE_LIMIT: usize = 79;

/// What one recorded action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// A move made in public.
    Move,
    /// A choice made in private (a sealed move, a burial, a card).
    Secret,
    /// A player resigned.
    Resign,
    /// Time ran out for `seats`, or (none named) for every seat asked to act at that moment.
    Timeout,
    /// The players agreed to a draw.
    Draw,
    /// Another player's secret choice, left out of a record exported while the game runs.
    Hidden,
}

/// One action of a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    pub kind: ActionKind,
    /// Who acted; for a move read from PGN or PDN, `None`: whoever was to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// For a timeout: the seats whose time ran out (empty: every seat asked to act).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<u8>,
    /// The action's canonical text (moves and secrets).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// When it was done, in Unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<i64>,
    /// Seconds the player had left for this move when making it, where a clock ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<i64>,
}

impl RecordedAction {
    /// A move or a secret choice of `seat`.
    pub fn play(kind: ActionKind, seat: Option<u8>, text: impl Into<String>) -> RecordedAction {
        RecordedAction {
            kind,
            seat,
            seats: Vec::new(),
            text: text.into(),
            time: None,
            clock: None,
        }
    }

    /// An action with no text (a resignation, a timeout, a draw, a hidden secret).
    pub fn bare(kind: ActionKind, seat: Option<u8>) -> RecordedAction {
        RecordedAction::play(kind, seat, "")
    }
}

/// One seat of a record: the player's name and what the game calls the seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub name: String,
    pub side: String,
}

/// A game as a record: how it was set up, what everyone did, how it ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// The schema's version, [`VERSION`].
    pub version: u32,
    /// The variant's id (`chess960`).
    pub variant: String,
    /// The variant's options as chosen at `/play`.
    pub options: Options,
    /// The seats in order: seat 0 first.
    pub seats: Vec<SeatRecord>,
    /// The game's seed, needed to replay games with randomness (deals, shuffles); absent from a
    /// record exported while the game runs, where it would give its secrets away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The game's number on its server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<i64>,
    /// Where it was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// When it started, in Unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<i64>,
    /// Days allowed for each move, where a clock ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<i64>,
    pub actions: Vec<RecordedAction>,
    /// How it ended; `None` while it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The outcome in words, or a PGN or PDN result token read from a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

impl Record {
    /// An empty record of `variant` for `seats` seats.
    pub fn new(variant: &str, options: &Options, seats: Vec<SeatRecord>) -> Record {
        Record {
            format: FORMAT.into(),
            version: VERSION,
            variant: variant.into(),
            options: options.clone(),
            seats,
            seed: None,
            game: None,
            site: None,
            started: None,
            days_per_move: None,
            actions: Vec::new(),
            outcome: None,
            result: None,
        }
    }

    /// The record of a random game (for tests and benchmarks): its seats named after their
    /// sides, resignations and timeouts as such.
    pub fn from_playout(
        variant: &str,
        options: &Options,
        seats: usize,
        seed: u64,
        playout: &Playout,
    ) -> Record {
        let seat_records = (0..seats)
            .map(|i| {
                let side = playout
                    .names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| Seat(i as u8).colour_name());
                SeatRecord {
                    name: format!("player {}", i + 1),
                    side,
                }
            })
            .collect();
        let mut record = Record::new(variant, options, seat_records);
        record.seed = Some(seed);
        let resigned = format!("({})", EndReason::Resignation.describe());
        let timed_out = format!("({})", EndReason::Timeout.describe());
        for (seat, text) in &playout.actions {
            record.actions.push(if *text == resigned {
                RecordedAction::bare(ActionKind::Resign, Some(seat.0))
            } else if *text == timed_out {
                RecordedAction {
                    seats: vec![seat.0],
                    ..RecordedAction::bare(ActionKind::Timeout, None)
                }
            } else {
                RecordedAction::play(ActionKind::Move, Some(seat.0), text.clone())
            });
        }
        record.outcome = playout.outcome.clone();
        record.result = playout.describe_outcome();
        record
    }

    /// Whether some action is another player's hidden secret.
    pub fn has_hidden(&self) -> bool {
        self.actions.iter().any(|a| a.kind == ActionKind::Hidden)
    }
}

// ---- formats -------------------------------------------------------------------------------

/// The file formats a record is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Pdn,
    Json,
}

impl Format {
    /// The format a game of `variant` for `seats` seats is exported in.
    ///
    /// ```
    /// use engine::record::Format;
    /// assert_eq!(Format::for_variant("chess960", 2), Format::Pgn);
    /// assert_eq!(Format::for_variant("queens", 2), Format::Pdn);
    /// assert_eq!(Format::for_variant("queens", 4), Format::Json);
    /// assert_eq!(Format::for_variant("zombie", 2), Format::Json);
    /// ```
    pub fn for_variant(variant: &str, seats: usize) -> Format {
        match (variant, seats) {
            ("chess" | "chess960", 2) => Format::Pgn,
            ("checkers" | "stax" | "queens", 2) => Format::Pdn,
            _ => Format::Json,
        }
    }

    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Pdn => "pdn",
            Format::Json => "json",
        }
    }

    /// The format's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::Pdn => "PDN",
            Format::Json => "JSON",
        }
    }
}

/// The record as text in its variant's format.
pub fn write(record: &Record) -> Result<(Format, String), GameError> {
    let format = Format::for_variant(&record.variant, record.seats.len());
    let text = match format {
        Format::Pgn => write_pgn(record)?,
        Format::Pdn => write_pdn(record)?,
        Format::Json => write_json(record)?,
    };
    Ok((format, text))
}

/// A record read from PGN, PDN or JSON (told apart by their first characters and tags).
pub fn read(text: &str) -> Result<Record, String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        return read_json(trimmed);
    }
    let (tags, _) = split_tags(trimmed);
    let is_pdn = tags.iter().any(|(k, _)| k == "GameType")
        || tags.iter().any(|(k, v)| {
            k == "Variant" && ["checkers", "stax", "queens"].contains(&v.to_lowercase().as_str())
        });
    if is_pdn {
        read_pdn(trimmed)
    } else if trimmed.starts_with('[') || trimmed.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        read_pgn(trimmed)
    } else {
        Err("this is neither a JSON record nor PGN or PDN: it should start with '{' or a tag like [Event \"...\"]".into())
    }
}

// ---- JSON ------------------------------------------------------------------------------------

/// The record as Rookery's JSON (see `docs/EXPORT.md`).
pub fn write_json(record: &Record) -> Result<String, GameError> {
    serde_json::to_string_pretty(record).map_err(|e| GameError::Corrupt(e.to_string()))
}

/// Reads Rookery's JSON record.
pub fn read_json(text: &str) -> Result<Record, String> {
    let record: Record =
        serde_json::from_str(text).map_err(|e| format!("not a Rookery record: {e}"))?;
    if record.format != FORMAT {
        return Err(format!(
            "not a Rookery record: its format is '{}', not '{FORMAT}'",
            record.format
        ));
    }
    if record.version > VERSION {
        return Err(format!(
            "this record is of version {}, newer than this Rookery reads ({VERSION})",
            record.version
        ));
    }
    Ok(record)
}

// ---- PGN and PDN -----------------------------------------------------------------------------

/// A result token for a two-seat game: `pgn` style (`1-0`) or PDN 3.0 style (`2-0`), with seat
/// 0 (White) first.
fn result_token(outcome: Option<&Outcome>, pdn: bool) -> &'static str {
    match outcome {
        None => "*",
        Some(o) if o.is_draw() || o.everyone_lost => {
            if pdn {
                "1-1"
            } else {
                "1/2-1/2"
            }
        }
        Some(o) if o.winners == [Seat(0)] => {
            if pdn {
                "2-0"
            } else {
                "1-0"
            }
        }
        Some(o) if o.winners == [Seat(1)] => {
            if pdn {
                "0-2"
            } else {
                "0-1"
            }
        }
        Some(_) => "*",
    }
}

/// What a result token says: `Some(winners)` (empty for a draw), or `None` for `*`.
fn token_winners(token: &str) -> Option<Vec<Seat>> {
    match token {
        "1-0" | "2-0" => Some(vec![Seat(0)]),
        "0-1" | "0-2" => Some(vec![Seat(1)]),
        "1/2-1/2" | "1-1" | "½-½" => Some(Vec::new()),
        _ => None,
    }
}

fn is_result_token(token: &str) -> bool {
    token == "*" || token_winners(token).is_some()
}

/// A tag pair line, its value escaped as the PGN standard asks.
fn tag(name: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]")
}

/// `YYYY.MM.DD` of a Unix time (UTC), or `????.??.??` when unknown.
pub fn pgn_date(unix: Option<i64>) -> String {
    match unix {
        None => "????.??.??".into(),
        Some(t) => {
            let (y, m, d) = civil_date(t.div_euclid(86_400));
            format!("{y:04}.{m:02}.{d:02}")
        }
    }
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A clock comment: `{[%clk 71:59:58]}` (hours may run past 24: clocks count days).
fn clock_comment(seconds: i64) -> String {
    let s = seconds.max(0);
    format!("{{[%clk {}:{:02}:{:02}]}}", s / 3600, s / 60 % 60, s % 60)
}

/// Reads `h:mm:ss` back into seconds.
fn parse_clock(text: &str) -> Option<i64> {
    let mut total = 0i64;
    for part in text.trim().split(':') {
        let n: f64 = part.parse().ok()?;
        total = total * 60 + n as i64;
    }
    Some(total)
}

/// Movetext wrapped at [`LINE_LIMIT`]: tokens joined by spaces, a new line where the next one
/// would not fit.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = 0;
    for token in tokens {
        if line > 0 && line + 1 + token.chars().count() > LINE_LIMIT {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(token);
        line += token.chars().count();
    }
    out.push('\n');
    out
}

/// The movetext of a two-seat game: move numbers (each pair opened by `pair_first`), moves,
/// clock comments, and the result token.
fn movetext(
    record: &Record,
    pair_first: Seat,
    first_number: u32,
    first_mover: Seat,
) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut number = first_number;
    let mut need_number = true;
    let mut mover = first_mover;
    for action in &record.actions {
        if action.kind != ActionKind::Move && action.kind != ActionKind::Secret {
            continue;
        }
        let seat = action.seat.map_or(mover, Seat);
        if seat == pair_first {
            tokens.push(format!("{number}."));
        } else if need_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(action.text.clone());
        need_number = false;
        if let Some(clock) = action.clock {
            tokens.push(clock_comment(clock));
            need_number = true;
        }
        if seat != pair_first {
            number += 1;
        }
        mover = Seat(1 - seat.0.min(1));
    }
    tokens.push(result_token(record.outcome.as_ref(), false).to_string());
    tokens
}

/// How a game that did not end on the board ended, for the `Termination` tag.
fn termination(record: &Record) -> Option<&'static str> {
    record.outcome.as_ref()?;
    let last = record.actions.last().map(|a| a.kind);
    Some(if last == Some(ActionKind::Timeout) {
        "time forfeit"
    } else {
        "normal"
    })
}

/// The seven tags every PGN (and PDN) game opens with, in the standard's order.
fn seven_tags(record: &Record, token: &str) -> Vec<String> {
    let name = |i: usize| {
        record
            .seats
            .get(i)
            .map_or_else(|| "?".to_string(), |s| s.name.clone())
    };
    let event = match record.game {
        Some(id) => format!("Rookery game {id}"),
        None => "Rookery game".to_string(),
    };
    vec![
        tag("Event", &event),
        tag("Site", record.site.as_deref().unwrap_or("?")),
        tag("Date", &pgn_date(record.started)),
        tag("Round", "-"),
        tag("White", &name(0)),
        tag("Black", &name(1)),
        tag("Result", token),
    ]
}

/// Options other than those a format's own tags carry, as `key=value` words.
fn other_options(record: &Record, carried: &[&str]) -> String {
    record
        .options
        .iter()
        .filter(|(k, _)| !carried.contains(k))
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The record's game set up afresh.
fn setup(record: &Record) -> Result<(&'static dyn AnyGame, AnyState), GameError> {
    let game = registry::variant(&record.variant)?;
    let state = game.setup(
        &record.options,
        record.seats.len(),
        record.seed.unwrap_or(0),
    )?;
    Ok((game, state))
}

/// A chess or Chess960 game as PGN: the Seven Tag Roster in order, then `Variant`, `SetUp` and
/// `FEN` for a start other than the usual one, `Termination`, and the movetext with clock
/// comments where a clock ran, lines at most 79 characters.
pub fn write_pgn(record: &Record) -> Result<String, GameError> {
    let (_, state) = setup(record)?;
    let start_fen = state
        .downcast_ref::<crate::variants::chess::ChessState>()
        .map(|s| s.start_fen().to_string())
        .ok_or_else(|| GameError::Refused(format!("{} is not written as PGN", record.variant)))?;
    let cylinder = record
        .options
        .get("board")
        .is_some_and(|b| b.eq_ignore_ascii_case("cylinder"));
    let variant = match (record.variant.as_str(), cylinder) {
        ("chess960", _) => "Chess960",
        (_, true) => "Cylinder",
        _ => "Standard",
    };
    let custom_start = record.variant == "chess960" || record.options.get("fen").is_some();
    let token = result_token(record.outcome.as_ref(), false);
    let mut lines = seven_tags(record, token);
    lines.push(tag("Variant", variant));
    if custom_start {
        lines.push(tag("SetUp", "1"));
        lines.push(tag("FEN", &start_fen));
    }
    if let Some(t) = termination(record) {
        lines.push(tag("Termination", t));
    }
    let mut fields = start_fen.split_whitespace().skip(1);
    let first_mover = match fields.next() {
        Some("b") => Seat(1),
        _ => Seat(0),
    };
    let first_number = start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut out = lines.join("\n");
    out.push_str("\n\n");
    out.push_str(&wrap(&movetext(record, Seat(0), first_number, first_mover)));
    Ok(out)
}

/// A two-player checkers, Stax or Queens game as PDN: the seven tags, `GameType` 21 (English
/// draughts, whose board and notation all three share), `Variant` naming Rookery's game,
/// `Options` for the rest of its options, `SetUp`/`FEN` for a custom start, `Seed` where the
/// start is drawn at random (numbered men), then the movetext. Black moves first, so each
/// numbered pair opens with Black's move; results count White's points first (`2-0`).
pub fn write_pdn(record: &Record) -> Result<String, GameError> {
    let (game, _) = setup(record)?;
    let token = result_token(record.outcome.as_ref(), true);
    let mut lines = seven_tags(record, token);
    lines.push(tag("GameType", "21"));
    lines.push(tag("Variant", game.info().name));
    let options = other_options(record, &["fen"]);
    if !options.is_empty() {
        lines.push(tag("Options", &options));
    }
    let fen = record.options.get("fen");
    if let Some(fen) = fen {
        lines.push(tag("SetUp", "1"));
        lines.push(tag("FEN", fen));
    }
    let numbered = record
        .options
        .get("numbers")
        .is_some_and(|n| n.eq_ignore_ascii_case("on"));
    if let (true, Some(seed)) = (numbered, record.seed) {
        lines.push(tag("Seed", &seed.to_string()));
    }
    if let Some(t) = termination(record) {
        lines.push(tag("Termination", t));
    }
    let first_mover = match fen.map(|f| f.trim_start().chars().next()) {
        Some(Some('W' | 'w')) => Seat::WHITE,
        _ => Seat::BLACK,
    };
    let mut tokens = movetext(record, Seat::BLACK, 1, first_mover);
    // The result in PDN's own tokens.
    if let Some(last) = tokens.last_mut() {
        *last = token.to_string();
    }
    let mut out = lines.join("\n");
    out.push_str("\n\n");
    out.push_str(&wrap(&tokens));
    Ok(out)
}

/// The tag pairs at the head of a PGN or PDN text, and the rest (the movetext).
fn split_tags(text: &str) -> (Vec<(String, String)>, String) {
    let mut tags = Vec::new();
    let mut rest = String::new();
    let mut in_tags = true;
    for line in text.lines() {
        let t = line.trim();
        if in_tags && t.starts_with('[') && t.ends_with(']') {
            if let Some((name, value)) = parse_tag(&t[1..t.len() - 1]) {
                tags.push((name, value));
                continue;
            }
        }
        if in_tags && t.is_empty() {
            continue;
        }
        // A second game's tags end the first game.
        if !in_tags && t.starts_with("[Event ") {
            break;
        }
        in_tags = false;
        rest.push_str(line);
        rest.push('\n');
    }
    (tags, rest)
}

fn parse_tag(inner: &str) -> Option<(String, String)> {
    let (name, value) = inner.trim().split_once(char::is_whitespace)?;
    let value = value.trim();
    let value = value.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    Some((name.to_string(), out))
}

/// The moves of a movetext with each one's clock comment, and its result token: comments,
/// variations, numeric annotation glyphs and move numbers skipped.
fn parse_movetext(text: &str) -> (Vec<(String, Option<i64>)>, String) {
    let mut moves: Vec<(String, Option<i64>)> = Vec::new();
    let mut result = "*".to_string();
    let mut depth = 0usize;
    let mut word = String::new();
    let flush = |word: &mut String, moves: &mut Vec<(String, Option<i64>)>, result: &mut String| {
        let w = std::mem::take(word);
        if w.is_empty() || w.starts_with('$') {
            return;
        }
        if is_result_token(&w) {
            *result = w;
            return;
        }
        // A move number, alone (`12.`, `5...`) or run into its move (`12.Nf3`); checkers'
        // moves (`11-15`) have no dot and are kept whole.
        let rest = match w.find('.') {
            Some(dot) if dot > 0 && w[..dot].chars().all(|c| c.is_ascii_digit()) => {
                w[dot..].trim_start_matches('.').to_string()
            }
            _ => w,
        };
        if !rest.is_empty() {
            moves.push((rest, None));
        }
    };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                if depth == 0 {
                    flush(&mut word, &mut moves, &mut result);
                }
                let mut comment = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    comment.push(c);
                }
                if depth == 0 {
                    if let Some(at) = comment.find("[%clk") {
                        let value = comment[at + 5..].split(']').next().unwrap_or("");
                        if let (Some(last), Some(seconds)) = (moves.last_mut(), parse_clock(value))
                        {
                            last.1 = Some(seconds);
                        }
                    }
                }
            }
            ';' => {
                if depth == 0 {
                    flush(&mut word, &mut moves, &mut result);
                }
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                if depth == 0 {
                    flush(&mut word, &mut moves, &mut result);
                }
                depth += 1;
            }
            ')' => {
                word.clear();
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    flush(&mut word, &mut moves, &mut result);
                } else {
                    word.clear();
                }
            }
            c => word.push(c),
        }
    }
    if depth == 0 {
        flush(&mut word, &mut moves, &mut result);
    }
    (moves, result)
}

/// Finds a tag's value.
fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The common part of reading PGN and PDN: seats, site, moves and the ending.
fn read_tagged(
    text: &str,
    variant: &str,
    options: Options,
    seed: Option<u64>,
) -> Result<Record, String> {
    let (tags, movetext) = split_tags(text);
    let name = |tag: &str| tag_value(&tags, tag).unwrap_or("?").to_string();
    let seats = vec![
        SeatRecord {
            name: name("White"),
            side: "White".into(),
        },
        SeatRecord {
            name: name("Black"),
            side: "Black".into(),
        },
    ];
    let mut record = Record::new(variant, &options, seats);
    record.seed = seed;
    record.site = tag_value(&tags, "Site")
        .filter(|s| *s != "?")
        .map(str::to_string);
    let (moves, token) = parse_movetext(&movetext);
    let token = match tag_value(&tags, "Result") {
        Some(t) if is_result_token(t) && token == "*" => t.to_string(),
        _ => token,
    };
    for (text, clock) in moves {
        record.actions.push(RecordedAction {
            clock,
            ..RecordedAction::play(ActionKind::Move, None, text)
        });
    }
    record.result = Some(token.clone());
    let forfeit =
        tag_value(&tags, "Termination").is_some_and(|t| t.to_ascii_lowercase().contains("time"));
    settle_ending(&mut record, &token, forfeit);
    Ok(record)
}

/// Adds the action that ended a game off the board (a resignation, a timeout, a draw agreed),
/// which PGN and PDN tell only by their result: the one whose result is the token's.
fn settle_ending(record: &mut Record, token: &str, forfeit: bool) {
    let Some(winners) = token_winners(token) else {
        return;
    };
    // A record that does not replay is left for the replay to report.
    let Ok(replayed) = replay(record) else {
        return;
    };
    if replayed.outcome.is_some() {
        return;
    }
    let Some(state) = replayed.states.last() else {
        return;
    };
    let game = replayed.game;
    if winners.is_empty() && !forfeit {
        record
            .actions
            .push(RecordedAction::bare(ActionKind::Draw, None));
        return;
    }
    let reason = if forfeit {
        EndReason::Timeout
    } else {
        EndReason::Resignation
    };
    let seats = record.seats.len();
    let prompted: Vec<Seat> = game
        .prompts(state)
        .map(|p| p.into_iter().map(|p| p.seat).collect())
        .unwrap_or_default();
    let mut candidates = prompted;
    candidates.extend((0..seats as u8).map(Seat));
    for seat in candidates {
        let mut s = state.clone();
        let Ok(events) = game.leave(&mut s, seat, seats, reason) else {
            continue;
        };
        let ends_so = events.iter().any(|e| {
            matches!(e, Event::GameOver(o) if o.winners == winners && (!winners.is_empty() || o.is_draw()))
        });
        if ends_so {
            record.actions.push(match reason {
                EndReason::Timeout => RecordedAction {
                    seats: vec![seat.0],
                    ..RecordedAction::bare(ActionKind::Timeout, None)
                },
                _ => RecordedAction::bare(ActionKind::Resign, Some(seat.0)),
            });
            return;
        }
    }
}

/// Reads a PGN game (the first of a file): `Variant` Standard (or none), Chess960 or Cylinder;
/// `FEN` for the start.
pub fn read_pgn(text: &str) -> Result<Record, String> {
    let (tags, _) = split_tags(text);
    let variant_tag = tag_value(&tags, "Variant").unwrap_or("Standard");
    let mut options = Options::new();
    let variant = match variant_tag
        .to_ascii_lowercase()
        .replace([' ', '-'], "")
        .as_str()
    {
        "standard" | "chess" | "" => "chess",
        "chess960" | "fischerandom" | "fischerrandom" | "960" => "chess960",
        "cylinder" | "cylindrical" => {
            options.set("board", "cylinder");
            "chess"
        }
        other => return Err(format!("PGN variant '{other}' is not one Rookery plays")),
    };
    if let Some(fen) = tag_value(&tags, "FEN") {
        options.set("fen", fen);
    } else if variant == "chess960" {
        return Err("a Chess960 game in PGN needs its start as a FEN tag".into());
    }
    read_tagged(text, variant, options, None)
}

/// Reads a PDN game written by Rookery or another program (`GameType` 21; `Variant` naming
/// Stax or Queens, `Options`, `FEN` and `Seed` as [`write_pdn`] writes them).
pub fn read_pdn(text: &str) -> Result<Record, String> {
    let (tags, _) = split_tags(text);
    if let Some(kind) = tag_value(&tags, "GameType") {
        let number = kind.split(',').next().unwrap_or("").trim();
        if number != "21" {
            return Err(format!(
                "PDN GameType {number} is not English checkers (21), the board Rookery's checkers games share"
            ));
        }
    }
    let variant = match tag_value(&tags, "Variant") {
        None => "checkers",
        Some(v) => match registry::variant(v) {
            Ok(game) if ["checkers", "stax", "queens"].contains(&game.info().id) => game.info().id,
            _ => return Err(format!("PDN variant '{v}' is not one Rookery plays")),
        },
    };
    let mut options = match tag_value(&tags, "Options") {
        Some(words) => Options::parse(words.split_whitespace()).map_err(|e| e.to_string())?,
        None => Options::new(),
    };
    if let Some(fen) = tag_value(&tags, "FEN") {
        options.set("fen", fen);
    }
    let seed = match tag_value(&tags, "Seed") {
        Some(s) => Some(
            s.parse::<u64>()
                .map_err(|_| format!("the Seed tag must be a number, not '{s}'"))?,
        ),
        None => None,
    };
    read_tagged(text, variant, options, seed)
}

// ---- replay ----------------------------------------------------------------------------------

/// A record played through the engine.
pub struct Replay {
    pub game: &'static dyn AnyGame,
    /// The state at the start, then after each action.
    pub states: Vec<AnyState>,
    /// The canonical text of each action (empty for resignations, timeouts and draws).
    pub texts: Vec<String>,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
}

impl fmt::Debug for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replay")
            .field("game", &self.game.info().id)
            .field("actions", &self.texts.len())
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// Where a record and the rules part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The action (counted from 1), or `None` for the set-up or the ending.
    pub action: Option<usize>,
    pub message: String,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Some(n) => write!(f, "action {n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Disagreement {}

/// Plays every action of `record` through the engine from its set-up (its variant, options,
/// seats and seed): the first action refused, read back as another text, or hidden, or an
/// ending other than the record's, is a [`Disagreement`].
pub fn replay(record: &Record) -> Result<Replay, Disagreement> {
    let at_setup = |message: String| Disagreement {
        action: None,
        message,
    };
    let (game, state) = setup(record).map_err(|e| at_setup(format!("set-up: {e}")))?;
    let seats = record.seats.len();
    // A game set up at a position already decided (a FEN at mate) ends as it begins.
    let mut outcome: Option<Outcome> = game.outcome(&state).ok().flatten();
    let mut states = vec![state];
    let mut texts = Vec::new();
    for (i, action) in record.actions.iter().enumerate() {
        let n = i + 1;
        let fail = |message: String| Disagreement {
            action: Some(n),
            message,
        };
        let Some(current) = states.last() else {
            break;
        };
        let mut state = current.clone();
        if let Some(o) = &outcome {
            return Err(fail(format!(
                "the game was already over ({}), yet the record goes on",
                o.describe(|s| side_name(record, s))
            )));
        }
        let side = |seat: Option<u8>| seat.map_or("?".to_string(), |s| side_name(record, Seat(s)));
        let mut text = String::new();
        let mut events = Vec::new();
        match action.kind {
            ActionKind::Move | ActionKind::Secret => {
                let seat = match action.seat {
                    Some(s) => Seat(s),
                    None => {
                        let prompted = game.prompts(&state).map_err(|e| fail(e.to_string()))?;
                        match prompted.as_slice() {
                            [one] => one.seat,
                            [] => {
                                return Err(fail(format!("nobody is to move for {}", action.text)))
                            }
                            _ => {
                                return Err(fail(format!(
                                    "several seats are to act, and {} names none",
                                    action.text
                                )))
                            }
                        }
                    }
                };
                let (canonical, happened) =
                    game.play(&mut state, seat, &action.text).map_err(|e| {
                        fail(format!(
                            "{} {} is refused: {e}",
                            side_name(record, seat),
                            action.text
                        ))
                    })?;
                if !same_text(&canonical, &action.text) {
                    return Err(fail(format!(
                        "{} {} reads back as {canonical}",
                        side_name(record, seat),
                        action.text
                    )));
                }
                text = canonical;
                events = happened;
            }
            ActionKind::Resign => {
                let seat = action
                    .seat
                    .ok_or_else(|| fail("a resignation names no seat".into()))?;
                events = game
                    .leave(&mut state, Seat(seat), seats, EndReason::Resignation)
                    .map_err(|e| fail(format!("{} cannot resign: {e}", side(Some(seat)))))?;
            }
            ActionKind::Timeout => {
                events = time_out(game, &mut state, &action.seats, seats)
                    .map_err(|e| fail(format!("the timeout is refused: {e}")))?;
            }
            ActionKind::Draw => events.push(Event::GameOver(Outcome::draw(EndReason::Agreement))),
            ActionKind::Hidden => {
                return Err(fail(format!(
                    "a secret choice of {} is hidden: this record was exported during the game \
                     by one player, so it replays only as far as the others' secrets",
                    side(action.seat)
                )))
            }
        }
        for event in events {
            if let Event::GameOver(o) = event {
                outcome = Some(o);
            }
        }
        texts.push(text);
        states.push(state);
    }
    let n = record.actions.len();
    if let (Some(recorded), Some(played)) = (&record.outcome, &outcome) {
        if recorded != played {
            return Err(Disagreement {
                action: Some(n),
                message: format!(
                    "the record ends with {}, the replay with {}",
                    recorded.describe(|s| side_name(record, s)),
                    played.describe(|s| side_name(record, s))
                ),
            });
        }
    }
    if record.outcome.is_some() && outcome.is_none() {
        return Err(Disagreement {
            action: None,
            message: "the record says the game ended, but after its last action it goes on".into(),
        });
    }
    if let (Some(token), Some(played)) = (record.result.as_deref(), &outcome) {
        if let Some(winners) = token_winners(token) {
            if winners != played.winners {
                return Err(Disagreement {
                    action: None,
                    message: format!(
                        "the result {token} is not the replay's: {}",
                        played.describe(|s| side_name(record, s))
                    ),
                });
            }
        }
    }
    Ok(Replay {
        game,
        states,
        texts,
        outcome,
    })
}

/// Time runs out for `named` seats, or for every seat asked to act: as the service's clock
/// does it, one after another by the game's rules where one seat's time ran out (or running
/// out only forfeits a choice); several together (sealed moves) end the game, won by those
/// who win whichever of them is counted.
pub fn time_out(
    game: &dyn AnyGame,
    state: &mut AnyState,
    named: &[u8],
    seats: usize,
) -> Result<Vec<Event>, GameError> {
    let late: Vec<Seat> = if named.is_empty() {
        game.prompts(state)?.iter().map(|p| p.seat).collect()
    } else {
        named.iter().copied().map(Seat).collect()
    };
    if late.len() == 1 || game.timeout_is_a_pass() {
        let mut events = Vec::new();
        for seat in late {
            let happened = game.leave(state, seat, seats, EndReason::Timeout)?;
            let over = happened.iter().any(|e| matches!(e, Event::GameOver(_)));
            events.extend(happened);
            if over {
                break;
            }
        }
        return Ok(events);
    }
    let mut winners: Option<Vec<Seat>> = game
        .outcome(state)?
        .filter(|_| late.is_empty())
        .map(|o| o.winners);
    for seat in &late {
        let outcome = game.concede(state, *seat, seats, EndReason::Timeout)?;
        winners = Some(match winners {
            None => outcome.winners,
            Some(w) => w
                .into_iter()
                .filter(|s| outcome.winners.contains(s))
                .collect(),
        });
    }
    Ok(vec![Event::GameOver(Outcome::win(
        winners.unwrap_or_default(),
        EndReason::Timeout,
    ))])
}

/// Whether a recorded text is the engine's canonical one, check and annotation marks aside
/// (another program may write `Nf3` where Rookery writes `Nf3+`).
fn same_text(canonical: &str, recorded: &str) -> bool {
    let bare = |t: &str| t.trim().trim_end_matches(['+', '#', '!', '?']).to_string();
    canonical == recorded.trim() || bare(canonical) == bare(recorded)
}

/// What the record calls a seat: its side, or its colour.
fn side_name(record: &Record, seat: Seat) -> String {
    record
        .seats
        .get(seat.index())
        .map_or_else(|| seat.colour_name(), |s| s.side.clone())
}

impl Replay {
    /// The final position in a few lines: the variant, the actions replayed, the result or
    /// whose turn it is, and the position as FEN where the game has one.
    pub fn summary(&self, record: &Record) -> String {
        let info = self.game.info();
        let mut lines = vec![format!(
            "{} ({} seats): {} actions replayed, every one as recorded.",
            info.name,
            record.seats.len(),
            self.texts.len()
        )];
        if let Some(state) = self.states.last() {
            match &self.outcome {
                Some(o) => lines.push(format!("Result: {}.", o.describe(|s| side_name(record, s)))),
                None => {
                    if let Ok(view) = self.game.view(state, Viewer::Spectator) {
                        lines.push(format!("Still going: {}.", view.status));
                    }
                }
            }
            if let Some(chess) = state.downcast_ref::<crate::variants::chess::ChessState>() {
                lines.push(format!("FEN: {}", chess.position().fen()));
            }
        }
        lines.join("\n")
    }

    /// Every position of the game as `viewer` sees it, for an animated replay: the start, then
    /// the position after each action, the players named as in the record, the action that led
    /// to it as the caption (another seat's secret told only when `reveal`, after the end), and
    /// the result on the last.
    pub fn frames(
        &self,
        record: &Record,
        viewer: Viewer,
        reveal: bool,
    ) -> Result<Vec<View>, GameError> {
        let mut views = Vec::with_capacity(self.states.len());
        for (i, state) in self.states.iter().enumerate() {
            let mut view = self.game.view(state, viewer)?;
            for (n, seat) in record.seats.iter().enumerate() {
                if let Some(name) = view.players.get_mut(n) {
                    *name = seat.name.clone();
                }
            }
            view.status = match i.checked_sub(1) {
                None => "Start".to_string(),
                Some(a) => caption(record, a, self.texts.get(a), viewer, reveal),
            };
            if i + 1 == self.states.len() {
                if let Some(o) = &self.outcome {
                    view.to_act.clear();
                    view.status =
                        format!("{}: {}", view.status, o.describe(|s| side_name(record, s)));
                }
            }
            views.push(view);
        }
        Ok(views)
    }
}

/// The caption of the position after action `a`: who did what.
fn caption(
    record: &Record,
    a: usize,
    text: Option<&String>,
    viewer: Viewer,
    reveal: bool,
) -> String {
    let Some(action) = record.actions.get(a) else {
        return String::new();
    };
    let who = |seat: Option<u8>| seat.map_or_else(String::new, |s| side_name(record, Seat(s)));
    let text = text
        .filter(|t| !t.is_empty())
        .cloned()
        .unwrap_or_else(|| action.text.clone());
    match action.kind {
        ActionKind::Move => match action.seat {
            Some(s) => format!("{}: {text}", who(Some(s))),
            None => text,
        },
        ActionKind::Secret => {
            let own = action.seat.is_some_and(|s| viewer == Viewer::Seat(Seat(s)));
            if own || reveal {
                format!("{} (secret): {text}", who(action.seat))
            } else {
                format!("{} chose in secret", who(action.seat))
            }
        }
        ActionKind::Resign => format!("{} resigned", who(action.seat)),
        ActionKind::Timeout => "time ran out".to_string(),
        ActionKind::Draw => "draw agreed".to_string(),
        ActionKind::Hidden => format!("{} chose in secret", who(action.seat)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::{random_game, Settings};

    fn playout_record(id: &str, seed: u64, max_actions: usize) -> Record {
        let game = registry::variant(id).unwrap();
        let seats = game.info().default_seats();
        let settings = Settings {
            seed,
            seats: Some(seats),
            max_actions,
            ..Settings::default()
        };
        let playout = random_game(game, &Options::new(), &settings).unwrap();
        Record::from_playout(id, &Options::new(), seats, seed, &playout)
    }

    /// Every variant's random game, written in its format and read back, replays to the same
    /// end: the same outcome, the same action texts, the same final position (and, where the
    /// record keeps the seed, the same stored state).
    #[test]
    fn every_variant_round_trips_through_its_format() {
        for game in registry::variants() {
            let id = game.info().id;
            for seed in [1u64, 2] {
                let record = playout_record(id, seed, 300);
                let original = replay(&record).unwrap_or_else(|e| panic!("{id} {seed}: {e}"));
                let (format, text) = write(&record).unwrap();
                let back = read(&text).unwrap_or_else(|e| panic!("{id} {seed}: {e}\n{text}"));
                let again = replay(&back).unwrap_or_else(|e| panic!("{id} {seed}: {e}\n{text}"));
                assert_eq!(again.outcome, original.outcome, "{id} {seed}:\n{text}");
                let moves = |r: &Replay| -> Vec<String> {
                    r.texts.iter().filter(|t| !t.is_empty()).cloned().collect()
                };
                assert_eq!(moves(&again), moves(&original), "{id} {seed}");
                let last = |r: &Replay| {
                    let view = r
                        .game
                        .view(r.states.last().unwrap(), Viewer::Spectator)
                        .unwrap();
                    (view.figures, view.to_act)
                };
                assert_eq!(last(&again), last(&original), "{id} {seed}");
                if format == Format::Json {
                    let save = |r: &Replay| r.game.save(r.states.last().unwrap()).unwrap();
                    assert_eq!(save(&again), save(&original), "{id} {seed}");
                    assert_eq!(back, record, "{id} {seed}");
                }
            }
        }
    }

    /// The PGN follows the standard's export format: the Seven Tag Roster first and in order,
    /// no Annotator, lines of at most 79 characters, move numbers counting up (with `N...`
    /// for Black after a comment), the result token last and equal to the Result tag.
    #[test]
    fn pgn_follows_the_export_format() {
        let mut record = playout_record("chess", 7, 120);
        record.days_per_move = Some(3);
        record.started = Some(1_700_000_000);
        record.site = Some("Rookery, server 1, thread 2".into());
        for (i, action) in record.actions.iter_mut().enumerate() {
            action.time = Some(1_700_000_000 + 3_600 * i as i64);
            action.clock = Some(3 * 86_400 - 3_600);
        }
        let text = write_pgn(&record).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let names: Vec<&str> = lines
            .iter()
            .take_while(|l| l.starts_with('['))
            .map(|l| l[1..].split(' ').next().unwrap())
            .collect();
        assert_eq!(
            &names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
        assert_eq!(names[7], "Variant");
        assert!(!names.contains(&"Annotator"));
        assert!(text.contains("[Date \"2023.11.14\"]"), "{text}");
        for line in &lines {
            assert!(line.chars().count() <= LINE_LIMIT, "too long: {line}");
        }
        let movetext: Vec<&str> = text
            .split("\n\n")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        let result = tag_value(&split_tags(&text).0, "Result")
            .unwrap()
            .to_string();
        assert_eq!(*movetext.last().unwrap(), result);
        let numbers: Vec<&str> = movetext
            .iter()
            .copied()
            .filter(|t| t.ends_with('.') && t.chars().next().unwrap().is_ascii_digit())
            .collect();
        let white_moves = record
            .actions
            .iter()
            .filter(|a| a.kind == ActionKind::Move && a.seat == Some(0))
            .count();
        for (i, n) in numbers.iter().filter(|n| !n.ends_with("...")).enumerate() {
            assert_eq!(*n, format!("{}.", i + 1));
        }
        assert_eq!(
            numbers.iter().filter(|n| !n.ends_with("...")).count(),
            white_moves
        );
        // Every Black move follows a clock comment, so carries its number with an ellipsis.
        assert!(movetext.contains(&"1..."), "{text}");
        assert!(text.contains("{[%clk 71:00:00]}"), "{text}");
        assert_eq!(
            read(&text).unwrap().actions[0].clock,
            Some(3 * 86_400 - 3_600)
        );
    }

    /// A Chess960 game names its variant and start.
    #[test]
    fn chess960_pgn_has_its_start() {
        let record = playout_record("chess960", 3, 40);
        let text = write_pgn(&record).unwrap();
        assert!(
            text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \""),
            "{text}"
        );
        let back = read(&text).unwrap();
        assert_eq!(back.variant, "chess960");
        replay(&back).unwrap();
    }

    /// A move changed in the file is reported at its place.
    #[test]
    fn a_changed_move_is_reported_where_it_is() {
        let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
        let record = read(text).unwrap();
        let err = replay(&record).unwrap_err();
        assert_eq!(err.action, Some(3), "{err}");
        assert!(err.to_string().contains("Ke3 is refused"), "{err}");
    }

    /// A record with another player's secret left out says so where it stops.
    #[test]
    fn a_hidden_secret_stops_the_replay_with_the_reason() {
        let mut record = Record::new(
            "chess",
            &Options::new(),
            vec![
                SeatRecord {
                    name: "a".into(),
                    side: "White".into(),
                },
                SeatRecord {
                    name: "b".into(),
                    side: "Black".into(),
                },
            ],
        );
        record
            .actions
            .push(RecordedAction::play(ActionKind::Move, Some(0), "e4"));
        record
            .actions
            .push(RecordedAction::bare(ActionKind::Hidden, Some(1)));
        let text = write_json(&record).unwrap();
        let err = replay(&read(&text).unwrap()).unwrap_err();
        assert_eq!(err.action, Some(2));
        assert!(err.message.contains("hidden"), "{err}");
    }

    #[test]
    fn dates_are_the_calendar_s() {
        assert_eq!(pgn_date(Some(0)), "1970.01.01");
        assert_eq!(pgn_date(Some(951_782_400)), "2000.02.29");
        assert_eq!(pgn_date(None), "????.??.??");
    }
}

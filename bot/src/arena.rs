//! `rookery arena`: whole games between seats of different kinds, to measure how strongly the
//! computer plays: against random seats, against other levels, and against external UCI engines
//! such as Stockfish. Seats are rotated between games, so each contender plays every seat in
//! turn; in a game of partners by whole teams, so that contenders seated together stay
//! partners (two computers against two random seats stay two against two). Results are scored
//! win 1, draw 0.5 (a game left unfinished counts as a draw), and for two contenders the Elo
//! difference is estimated with its 95% interval.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use engine::ai::{self, Level};
use engine::game::{AnyGame, AnyState, Options};
use engine::variants::chess::ChessState;
use engine::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Contender {
    /// Rookery's computer player at a level.
    Computer(Level),
    /// A uniformly random legal action.
    Random,
    /// An external UCI engine: its program and the options set before each game.
    Uci {
        path: String,
        options: Vec<(String, String)>,
    },
}

impl FromStr for Contender {
    type Err = String;

    /// `ai:easy|medium|hard`, `random`, or `uci:PATH[,Name=Value...]`.
    ///
    /// ```
    /// use bot::arena::Contender;
    /// use engine::ai::Level;
    /// assert_eq!("ai:hard".parse::<Contender>(), Ok(Contender::Computer(Level::Hard)));
    /// let sf: Contender = "uci:/usr/games/stockfish,UCI_Elo=1350".parse().unwrap();
    /// assert_eq!(sf.to_string(), "uci:stockfish");
    /// assert!("ai:expert".parse::<Contender>().unwrap_err().contains("easy, medium or hard"));
    /// ```
    fn from_str(text: &str) -> Result<Contender, String> {
        let text = text.trim();
        if text == "random" {
            return Ok(Contender::Random);
        }
        if let Some(level) = text.strip_prefix("ai:") {
            return level
                .parse()
                .map(Contender::Computer)
                .map_err(|e: engine::GameError| e.to_string());
        }
        if let Some(rest) = text.strip_prefix("uci:") {
            let mut parts = rest.split(',');
            let path = parts.next().unwrap_or_default().trim().to_string();
            if path.is_empty() {
                return Err(
                    "uci: needs the engine's program, as in uci:/usr/games/stockfish".into(),
                );
            }
            let mut options = Vec::new();
            for part in parts {
                let (name, value) = part.split_once('=').ok_or_else(|| {
                    format!("'{part}': a UCI engine's option is written Name=Value")
                })?;
                options.push((name.trim().to_string(), value.trim().to_string()));
            }
            return Ok(Contender::Uci { path, options });
        }
        Err(format!(
            "'{text}' is not a seat: write ai:easy, ai:medium, ai:hard, random or uci:PATH[,Name=Value...]"
        ))
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Computer(level) => write!(f, "ai:{level}"),
            Contender::Random => f.write_str("random"),
            Contender::Uci { path, .. } => {
                let program = std::path::Path::new(path)
                    .file_name()
                    .map_or(path.clone(), |n| n.to_string_lossy().to_string());
                write!(f, "uci:{program}")
            }
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Arena {
    pub variant: String,
    /// The variant's options as `key=value` (`players=N` is taken from the seats).
    pub options: Vec<String>,
    pub seats: Vec<Contender>,
    pub games: u32,
    pub seed: u64,
    /// A UCI engine's time for each move.
    pub movetime: Duration,
    /// Actions after which a game is scored as a draw.
    pub max_actions: usize,
    /// Openings the games start from (none: the variant's start), each played with every
    /// rotation of the seats (by whole teams among partners) before the next.
    pub openings: Vec<Opening>,
    /// Print each game's actions after its result line.
    pub show_moves: bool,
}

/// An opening: actions played before the contenders take over, as players type them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub name: String,
    pub actions: Vec<String>,
}

impl Opening {
    /// Reads a list of openings, one a line: `Name | e4 e5 Nf3` or just `e4 e5 Nf3`; blank
    /// lines and lines starting with `#` are skipped.
    ///
    /// ```
    /// let list = bot::arena::Opening::parse_list("# mine\nRuy Lopez | e4 e5 Nf3 Nc6 Bb5\nd4 d5\n").unwrap();
    /// assert_eq!(list[0].name, "Ruy Lopez");
    /// assert_eq!(list[0].actions.len(), 5);
    /// assert_eq!(list[1].name, "d4 d5");
    /// assert!(bot::arena::Opening::parse_list("# nothing\n").is_err());
    /// ```
    pub fn parse_list(text: &str) -> Result<Vec<Opening>, String> {
        let mut list = Vec::new();
        for line in text.lines() {
            // Only whole lines are comments: a move may end in `#` (mate).
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, moves) = match line.split_once('|') {
                Some((name, moves)) => (name.trim().to_string(), moves.trim()),
                None => (line.to_string(), line),
            };
            list.push(Opening {
                name,
                actions: moves.split_whitespace().map(str::to_string).collect(),
            });
        }
        if list.is_empty() {
            return Err("the openings file lists no opening".into());
        }
        Ok(list)
    }
}

/// Each contender's total score, in the order of [`Arena::seats`].
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    pub names: Vec<String>,
    pub points: Vec<f64>,
    /// Each game's points for the first contender, for the Elo interval.
    pub first_per_game: Vec<f64>,
    pub games: u32,
}

/// Names contenders for the last line: the same kind twice is numbered in seat order
/// (`random`, `random#2`).
fn contender_names(seats: &[Contender]) -> Vec<String> {
    let mut names = Vec::new();
    for (i, c) in seats.iter().enumerate() {
        let base = c.to_string();
        let before = seats[..i].iter().filter(|o| o.to_string() == base).count();
        names.push(if before == 0 {
            base
        } else {
            format!("{base}#{}", before + 1)
        });
    }
    names
}

/// Plays the arena's games, printing one line per game and then the scores (and, for two
/// contenders, the Elo difference).
pub fn run(arena: &Arena, out: &mut dyn Write) -> Result<Scores, String> {
    let game = engine::registry::variant(&arena.variant).map_err(|e| e.to_string())?;
    let count = arena.seats.len();
    game.info()
        .check_seats(count)
        .map_err(|e| format!("{e} (one --seat for each)"))?;
    let options: Vec<String> = arena
        .options
        .iter()
        .filter(|o| !o.trim_start().starts_with("players="))
        .cloned()
        .collect();
    let options = Options::parse(&options).map_err(|e| e.to_string())?;
    game.info()
        .check_options(&options)
        .map_err(|e| e.to_string())?;
    if arena.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let names = contender_names(&arena.seats);
    let mut engines: Vec<Option<UciEngine>> = Vec::new();
    for c in &arena.seats {
        engines.push(match c {
            Contender::Uci { path, options } => {
                if !matches!(game.info().id, "chess" | "chess960") {
                    return Err(format!(
                        "UCI engines play chess and chess960 only, not {}",
                        game.info().id
                    ));
                }
                Some(UciEngine::start(
                    path,
                    options,
                    game.info().id == "chess960",
                )?)
            }
            _ => None,
        });
    }
    let mut points = vec![0.0; count];
    let mut first_per_game = Vec::new();
    // The teams as the game's table sets them, asked of a state fresh from setup.
    let fresh = game
        .setup(&options, count, arena.seed)
        .map_err(|e| e.to_string())?;
    let teams = ai::teams(game, &fresh, count).map_err(|e| e.to_string())?;
    let shift = team_shift(&teams);
    let rotations = count / gcd(shift, count);
    for n in 0..arena.games {
        // Game n seats contender i at seat (i + n * shift) mod count.
        let seat_of: Vec<usize> = (0..count)
            .map(|i| (i + n as usize * shift) % count)
            .collect();
        let seed = arena.seed.wrapping_add(u64::from(n));
        let opening = (!arena.openings.is_empty())
            .then(|| &arena.openings[(n as usize / rotations) % arena.openings.len()]);
        let played = play_one(game, &options, arena, &seat_of, &mut engines, seed, opening)
            .map_err(|e| format!("game {}: {e}", n + 1))?;
        let mut line = format!("game {}:", n + 1);
        if let Some(opening) = opening {
            line.push_str(&format!(" [{}]", opening.name));
        }
        for (i, name) in names.iter().enumerate() {
            let seat = Seat(seat_of[i] as u8);
            let side = played
                .seat_names
                .get(seat.index())
                .cloned()
                .unwrap_or_default();
            line.push_str(&format!(" {name} ({side}) {}", played.points[seat.index()]));
            points[i] += played.points[seat.index()];
            if i == 0 {
                first_per_game.push(played.points[seat.index()]);
            }
        }
        line.push_str(&format!(
            " | {} actions | {}",
            played.actions, played.result
        ));
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
        if arena.show_moves {
            writeln!(out, "  moves: {}", played.texts.join(" ")).map_err(|e| e.to_string())?;
        }
    }
    let totals: Vec<String> = names
        .iter()
        .zip(&points)
        .map(|(name, p)| format!("{name}={}/{}", score_text(*p), arena.games))
        .collect();
    writeln!(out, "{}", totals.join(" ")).map_err(|e| e.to_string())?;
    if count == 2 {
        writeln!(out, "{}", elo_line(&names[0], &names[1], &first_per_game))
            .map_err(|e| e.to_string())?;
    }
    Ok(Scores {
        names,
        points,
        first_per_game,
        games: arena.games,
    })
}

fn score_text(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// One game's result.
struct Played {
    /// Points by seat.
    points: Vec<f64>,
    /// The contenders' actions, in order (the opening's not included).
    texts: Vec<String>,
    seat_names: Vec<String>,
    actions: usize,
    result: String,
}

/// The smallest turn of the table (seat i to seat i + shift) that keeps partners together:
/// 1 where teams alternate (AC-BD) or every seat plays for itself, 3 for ABC-DEF, 2 for
/// AB-CD-EF. Rotating by 1 there would seat a computer and a random player as partners.
fn team_shift(teams: &[u8]) -> usize {
    let count = teams.len().max(1);
    (1..count)
        .find(|&shift| {
            (0..count).all(|a| {
                (0..count).all(|b| {
                    (teams[a] == teams[b])
                        == (teams[(a + shift) % count] == teams[(b + shift) % count])
                })
            })
        })
        .unwrap_or(1)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

fn play_one(
    game: &'static dyn AnyGame,
    options: &Options,
    arena: &Arena,
    seat_of: &[usize],
    engines: &mut [Option<UciEngine>],
    seed: u64,
    opening: Option<&Opening>,
) -> Result<Played, String> {
    let count = arena.seats.len();
    let mut state = game
        .setup(options, count, seed)
        .map_err(|e| e.to_string())?;
    // Asked of the state fresh from setup (see `ai::teams`).
    let teams = ai::teams(game, &state, count).map_err(|e| e.to_string())?;
    for (i, text) in opening
        .map_or(&[][..], |o| &o.actions[..])
        .iter()
        .enumerate()
    {
        let refused = |why: String| {
            let name = opening.map_or("", |o| o.name.as_str());
            format!("opening {name}, action {} ({text}): {why}", i + 1)
        };
        let prompts = game.prompts(&state).map_err(|e| refused(e.to_string()))?;
        let seat = prompts
            .first()
            .ok_or_else(|| refused("nobody is asked to act".into()))?
            .seat;
        game.play(&mut state, seat, text)
            .map_err(|e| refused(e.to_string()))?;
    }
    let contender_at =
        |seat: Seat| -> usize { seat_of.iter().position(|&s| s == seat.index()).unwrap_or(0) };
    for engine in engines.iter_mut().flatten() {
        engine.new_game()?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xa2e4_a000);
    let mut actions = 0;
    let mut texts = Vec::new();
    let seat_names = |state: &AnyState| -> Vec<String> {
        (0..count as u8)
            .map(|s| {
                game.seat_name(state, Seat(s))
                    .unwrap_or_else(|_| Seat(s).colour_name())
            })
            .collect()
    };
    while actions < arena.max_actions {
        if let Some(outcome) = game.outcome(&state).map_err(|e| e.to_string())? {
            let names = seat_names(&state);
            return Ok(Played {
                points: points_of(&outcome, &teams),
                texts,
                result: outcome.describe(|s| names[s.index()].clone()),
                seat_names: names,
                actions,
            });
        }
        let prompts = game.prompts(&state).map_err(|e| e.to_string())?;
        let Some(prompt) = prompts.first() else {
            return Err("nobody is asked to act".into());
        };
        let seat = prompt.seat;
        let who = contender_at(seat);
        let text = match &arena.seats[who] {
            Contender::Random => {
                let texts = game.legal_texts(&state, seat).map_err(|e| e.to_string())?;
                if texts.is_empty() {
                    return Err(format!("{seat:?} has nothing legal"));
                }
                texts[rng.gen_range(0..texts.len())].clone()
            }
            Contender::Computer(level) => {
                let choice =
                    ai::choose(game, &state, seat, *level, rng.gen()).map_err(|e| e.to_string())?;
                if let Some(why) = choice.fallback {
                    tracing::warn!("arena: the computer's search failed: {why}");
                }
                choice.text
            }
            Contender::Uci { .. } => {
                let engine = engines[who]
                    .as_mut()
                    .ok_or("the UCI engine is not running")?;
                let chess = state
                    .downcast_ref::<ChessState>()
                    .ok_or("a UCI engine needs a chess position")?;
                engine.best_move(&chess.position().fen(), arena.movetime)?
            }
        };
        game.play(&mut state, seat, &text)
            .map_err(|e| format!("{} played {text}, refused: {e}", arena.seats[who]))?;
        texts.push(text);
        actions += 1;
    }
    Ok(Played {
        points: vec![0.5; count],
        texts,
        seat_names: seat_names(&state),
        actions,
        result: format!("unfinished after {actions} actions, scored as a draw"),
    })
}

/// Each seat's points for a finished game, given each seat's team: a win is one point, shared
/// between rival winners (two players level on a score table have drawn), while partners who
/// win together each have it whole; a game nobody wins and nobody loses is a draw, half a
/// point each.
fn points_of(outcome: &engine::game::Outcome, teams: &[u8]) -> Vec<f64> {
    if outcome.winners.is_empty() {
        let draw = if outcome.everyone_lost { 0.0 } else { 0.5 };
        return vec![draw; teams.len()];
    }
    let mut winning_teams: Vec<u8> = outcome.winners.iter().map(|w| teams[w.index()]).collect();
    winning_teams.sort_unstable();
    winning_teams.dedup();
    let share = 1.0 / winning_teams.len() as f64;
    let mut points = vec![0.0; teams.len()];
    for w in &outcome.winners {
        points[w.index()] = share;
    }
    points
}

/// The Elo difference of the first contender over the second from its per-game scores, with
/// a 95% interval: the Wilson score interval of its score, which stays finite and useful when
/// one side won every game.
pub fn elo_line(first: &str, second: &str, per_game: &[f64]) -> String {
    let n = per_game.len() as f64;
    if n == 0.0 {
        return String::new();
    }
    let p = per_game.iter().sum::<f64>() / n;
    let z: f64 = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let shown = |p: f64| -> String {
        if p >= 1.0 {
            "+inf".into()
        } else if p <= 0.0 {
            "-inf".into()
        } else {
            // Adding zero turns -0 into 0.
            format!("{:+.0}", -400.0 * (1.0 / p - 1.0).log10() + 0.0)
        }
    };
    format!(
        "Elo {first} - {second}: {} (95% interval {} to {}; score {:.3} over {} games)",
        shown(p),
        shown(centre - half),
        shown(centre + half),
        p,
        per_game.len()
    )
}

/// A running UCI engine.
struct UciEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    name: String,
}

/// How long an engine may take to answer a command that is not a search.
const UCI_ANSWER: Duration = Duration::from_secs(20);

impl UciEngine {
    fn start(
        path: &str,
        options: &[(String, String)],
        chess960: bool,
    ) -> Result<UciEngine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not start the UCI engine {path}: {e}"))?;
        let input = child.stdin.take().ok_or("the engine has no input")?;
        let output = BufReader::new(child.stdout.take().ok_or("the engine has no output")?);
        let mut engine = UciEngine {
            child,
            input,
            output,
            name: path.to_string(),
        };
        engine.send("uci")?;
        engine.wait_for("uciok", UCI_ANSWER)?;
        if chess960 {
            engine.send("setoption name UCI_Chess960 value true")?;
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// Reads lines until one starts with `word`; returns it.
    fn wait_for(&mut self, word: &str, limit: Duration) -> Result<String, String> {
        let started = Instant::now();
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("{}: {e}", self.name))?;
            if read == 0 {
                return Err(format!("{} stopped before answering {word}", self.name));
            }
            if line.trim_start().starts_with(word) {
                return Ok(line.trim().to_string());
            }
            if started.elapsed() > limit {
                return Err(format!("{} did not answer {word} in time", self.name));
            }
        }
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", UCI_ANSWER).map(|_| ())
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's move in coordinates (e2e4, e7e8q; castling as the engine writes it).
    fn best_move(&mut self, fen: &str, movetime: Duration) -> Result<String, String> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go movetime {}", movetime.as_millis().max(1)))?;
        let line = self.wait_for("bestmove", movetime * 10 + UCI_ANSWER)?;
        line.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("{} answered '{line}'", self.name))
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elo_interval_is_finite_on_one_side_after_a_clean_sweep() {
        let line = elo_line("ai:hard", "random", &[1.0; 40]);
        assert!(
            line.starts_with("Elo ai:hard - random: +inf (95% interval +"),
            "{line}"
        );
        let even = elo_line("a", "b", &[1.0, 0.0, 0.5, 0.5]);
        assert!(even.contains(": +0 (95% interval -301 to +301"), "{even}");
    }

    /// Seats turn by whole teams, so partners stay partners: alternating teams and players
    /// on their own turn one seat a game, ABC-DEF three, AB-CD-EF two.
    #[test]
    fn seats_turn_by_whole_teams() {
        assert_eq!(team_shift(&[0, 1, 0, 1]), 1);
        assert_eq!(team_shift(&[0, 1, 2]), 1);
        assert_eq!(team_shift(&[0, 0, 0, 1, 1, 1]), 3);
        assert_eq!(team_shift(&[0, 0, 1, 1, 2, 2]), 2);
        assert_eq!(team_shift(&[0, 0]), 1);
        let tri_chess = engine::registry::variant("tri-chess").unwrap();
        let options = Options::parse(["mode=partners", "teams=ABC-DEF"]).unwrap();
        let state = tri_chess.setup(&options, 6, 1).unwrap();
        let teams = ai::teams(tri_chess, &state, 6).unwrap();
        let shift = team_shift(&teams);
        for n in 0..4 {
            let seat = |i: usize| (i + n * shift) % 6;
            // Contenders 0, 1 and 2 sit together, and so do 3, 4 and 5.
            assert!(teams[seat(0)] == teams[seat(1)] && teams[seat(1)] == teams[seat(2)]);
            assert!(teams[seat(3)] == teams[seat(4)] && teams[seat(0)] != teams[seat(3)]);
        }
    }

    /// Games start from the openings given, each with every rotation of the seats: after
    /// the opening of the Scholar's mate, the computer as White mates at once; an opening a
    /// variant refuses names itself, its action and the reason.
    #[test]
    fn games_start_from_the_openings_given() {
        let scholar = Opening::parse_list("Scholar | e4 e5 Bc4 Nc6 Qh5 Nf6").unwrap();
        let mut arena = Arena {
            variant: "chess".into(),
            options: Vec::new(),
            seats: vec![Contender::Computer(Level::Medium), Contender::Random],
            games: 2,
            seed: 3,
            movetime: Duration::from_millis(10),
            max_actions: 400,
            openings: scholar,
            show_moves: true,
        };
        let mut out = Vec::new();
        run(&arena, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let first = out.lines().next().unwrap();
        assert!(
            first.starts_with("game 1: [Scholar] ai:medium (White) 1 random (Black) 0 | 1 actions"),
            "{out}"
        );
        assert_eq!(out.lines().nth(1), Some("  moves: Qxf7#"), "{out}");
        assert!(
            out.lines()
                .nth(2)
                .is_some_and(|l| l.starts_with("game 2: [Scholar] ai:medium (Black)")),
            "{out}"
        );
        arena.openings = Opening::parse_list("Bad | e4 e4").unwrap();
        let err = run(&arena, &mut Vec::new()).unwrap_err();
        assert!(
            err.starts_with("game 1: opening Bad, action 2 (e4):"),
            "{err}"
        );
    }

    /// Rivals level at the top share the win (Chess Golf's tie is a draw for two); partners
    /// who win together each score it; a game everyone loses together scores nothing.
    #[test]
    fn a_win_is_shared_between_rivals_only() {
        let outcome = |winners: &[u8], everyone_lost: bool| engine::game::Outcome {
            winners: winners.iter().map(|&s| Seat(s)).collect(),
            reason: engine::game::EndReason::Resignation,
            standings: Vec::new(),
            everyone_lost,
        };
        assert_eq!(points_of(&outcome(&[0, 1], false), &[0, 1]), [0.5, 0.5]);
        assert_eq!(points_of(&outcome(&[1], false), &[0, 1]), [0.0, 1.0]);
        assert_eq!(
            points_of(&outcome(&[0, 2], false), &[0, 1, 0, 1]),
            [1.0, 0.0, 1.0, 0.0]
        );
        assert_eq!(
            points_of(&outcome(&[0, 1, 3], false), &[0, 1, 2, 3]),
            [1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0 / 3.0]
        );
        assert_eq!(points_of(&outcome(&[], false), &[0, 1]), [0.5, 0.5]);
        assert_eq!(points_of(&outcome(&[], true), &[0, 0]), [0.0, 0.0]);
    }

    #[test]
    fn contenders_of_one_kind_are_numbered() {
        let seats: Vec<Contender> = ["ai:hard", "random", "random"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(contender_names(&seats), ["ai:hard", "random", "random#2"]);
    }

    #[test]
    fn an_arena_plays_and_scores_every_game() {
        let arena = Arena {
            variant: "chess".into(),
            options: vec!["fen=6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1".into()],
            seats: vec![Contender::Random, Contender::Computer(Level::Medium)],
            games: 2,
            seed: 3,
            movetime: Duration::from_millis(10),
            max_actions: 200,
            openings: Vec::new(),
            show_moves: false,
        };
        let mut out = Vec::new();
        let scores = run(&arena, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.lines().count(), 4, "{out}");
        // In the first game the computer is Black, to move, and mates at once; in the
        // second it is White and the seats have turned.
        let first = out.lines().next().unwrap();
        assert!(
            first.contains("random (White) 0 ai:medium (Black) 1"),
            "{out}"
        );
        assert!(
            out.lines().nth(1).unwrap().contains("ai:medium (White)"),
            "{out}"
        );
        assert!(
            out.contains("random=") && out.contains("ai:medium="),
            "{out}"
        );
        assert_eq!(scores.games, 2);
    }
}

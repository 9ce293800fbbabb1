//! The contract between the rules of a game and everything else.
//!
//! A variant implements [`Game`] with its own typed state and actions, in the manner of
//! boardgame.io: `setup` from options, seats and a seed; `prompts` saying who must act;
//! `legal`, `parse` and `apply` for actions; a redacted `view` per viewer; and an `outcome`.
//! The bot reaches every variant through [`AnyGame`], which every `Game` implements for free,
//! with states kept as [`AnyState`] and stored as JSON.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::chess::{MoveParseError, Seat};
use crate::view::{View, Viewer};

// ---- options ------------------------------------------------------------------------------

/// The values an option accepts.
#[derive(Clone, Debug)]
pub enum OptionValues {
    /// One of a fixed list.
    Choice(&'static [&'static str]),
    /// A whole number in a range, or one of a few words (such as `random`).
    Number {
        min: i64,
        max: i64,
        words: &'static [&'static str],
    },
    /// Free text checked by the variant (a FEN, say).
    Text,
}

/// One option a variant offers at `/play`.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub key: &'static str,
    pub help: &'static str,
    /// The value used when the option is not given; `None` when absent means "not set".
    pub default: Option<&'static str>,
    pub values: OptionValues,
}

impl OptionSpec {
    fn describe_values(&self) -> String {
        match &self.values {
            OptionValues::Choice(list) => format!("one of {}", list.join(", ")),
            OptionValues::Number {
                min,
                max,
                words: [],
            } => {
                format!("a number from {min} to {max}")
            }
            OptionValues::Number { min, max, words } => {
                format!("{} or a number from {min} to {max}", words.join(", "))
            }
            OptionValues::Text => "text".into(),
        }
    }

    fn accepts(&self, value: &str) -> bool {
        match &self.values {
            OptionValues::Choice(list) => list.iter().any(|v| v.eq_ignore_ascii_case(value)),
            OptionValues::Number { min, max, words } => {
                words.iter().any(|w| w.eq_ignore_ascii_case(value))
                    || value
                        .parse::<i64>()
                        .is_ok_and(|n| (*min..=*max).contains(&n))
            }
            OptionValues::Text => !value.trim().is_empty(),
        }
    }
}

/// Options chosen for a game, `key -> value`, as given by the players.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// No options.
    pub fn new() -> Options {
        Options::default()
    }

    /// Reads `key=value` (or `key:value`) pairs.
    ///
    /// ```
    /// use engine::game::Options;
    /// let o = Options::parse(["start=518", "fen:8/8/8 w - -"]).unwrap();
    /// assert_eq!(o.get("start"), Some("518"));
    /// assert_eq!(o.get("fen"), Some("8/8/8 w - -"));
    /// assert!(Options::parse(["start"]).is_err());
    /// ```
    pub fn parse<I, S>(pairs: I) -> Result<Options, GameError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut out = Options::new();
        for pair in pairs {
            let pair = pair.as_ref();
            let split = pair.find(['=', ':']);
            let Some(i) = split else {
                return Err(GameError::BadOption(format!(
                    "'{pair}' is not an option: write key=value, for example start=518"
                )));
            };
            out.set(pair[..i].trim(), pair[i + 1..].trim());
        }
        Ok(out)
    }

    /// Sets one option.
    pub fn set(&mut self, key: &str, value: &str) {
        self.0.insert(key.to_ascii_lowercase(), value.to_string());
    }

    /// The value of an option, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// All options given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

// ---- metadata ----------------------------------------------------------------------------

/// Which machinery a variant stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Family {
    Chess,
    Checkers,
}

/// What the registry knows of a variant without starting one.
#[derive(Clone, Debug)]
pub struct VariantInfo {
    /// The id used in commands (`chess960`).
    pub id: &'static str,
    /// Other names players may type.
    pub aliases: &'static [&'static str],
    /// The display name.
    pub name: &'static str,
    pub family: Family,
    /// The numbers of seats the game can be played with.
    pub seat_counts: &'static [usize],
    /// The options offered at `/play`.
    pub options: Vec<OptionSpec>,
    /// Whether some information is hidden from some players.
    pub hidden_information: bool,
    /// Whether seats sometimes act at the same time.
    pub simultaneous: bool,
    /// The rules in our own words, for `/rules`.
    pub rules: &'static str,
    /// Where the rules come from.
    pub source: &'static str,
}

impl VariantInfo {
    /// Checks options against this variant's list, naming the valid ones on a mistake.
    ///
    /// ```
    /// use engine::registry;
    /// use engine::game::Options;
    /// let info = registry::variant("chess960").unwrap().info();
    /// let err = info.check_options(&Options::parse(["colour=red"]).unwrap()).unwrap_err();
    /// assert!(err.to_string().contains("valid options for Chess960: start, fen"), "{err}");
    /// ```
    pub fn check_options(&self, options: &Options) -> Result<(), GameError> {
        for (key, value) in options.iter() {
            let Some(spec) = self.options.iter().find(|s| s.key == key) else {
                let valid: Vec<&str> = self.options.iter().map(|s| s.key).collect();
                return Err(GameError::BadOption(if valid.is_empty() {
                    format!("{} has no options, but '{key}' was given", self.name)
                } else {
                    format!(
                        "unknown option '{key}'; valid options for {}: {}",
                        self.name,
                        valid.join(", ")
                    )
                }));
            };
            if !spec.accepts(value) {
                return Err(GameError::BadOption(format!(
                    "option '{key}' must be {}, not '{value}'",
                    spec.describe_values()
                )));
            }
        }
        Ok(())
    }

    /// Checks the number of seats.
    pub fn check_seats(&self, seats: usize) -> Result<(), GameError> {
        if self.seat_counts.contains(&seats) {
            Ok(())
        } else {
            Err(GameError::BadSeats(format!(
                "{} is played by {} players, not {seats}",
                self.name,
                self.describe_seat_counts()
            )))
        }
    }

    /// The numbers of players in words, smallest first, runs of four or more as ranges:
    /// "2", "2 or 3", "2, 4, 5 or 6", "1 to 8".
    ///
    /// ```
    /// use engine::registry;
    /// let words = |id: &str| registry::variant(id).unwrap().info().describe_seat_counts();
    /// assert_eq!(words("chess"), "2");
    /// assert_eq!(words("golf"), "1 to 8");
    /// assert_eq!(words("tri-queens"), "2, 4, 5 or 6");
    /// ```
    pub fn describe_seat_counts(&self) -> String {
        let mut counts = self.seat_counts.to_vec();
        counts.sort_unstable();
        counts.dedup();
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < counts.len() {
            let mut end = i;
            while end + 1 < counts.len() && counts[end + 1] == counts[end] + 1 {
                end += 1;
            }
            if end >= i + 3 {
                parts.push(format!("{} to {}", counts[i], counts[end]));
            } else {
                parts.extend(counts[i..=end].iter().map(|n| n.to_string()));
            }
            i = end + 1;
        }
        match parts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => parts.concat(),
        }
    }

    /// The fewest seats the game needs.
    pub fn min_seats(&self) -> usize {
        self.seat_counts.iter().copied().min().unwrap_or(2)
    }

    /// The number of seats a game gets when none is asked for: the first the variant lists
    /// (Trimens Chess is for three, though two may play).
    pub fn default_seats(&self) -> usize {
        self.seat_counts.first().copied().unwrap_or(2)
    }
}

// ---- prompts, events, outcomes --------------------------------------------------------------

/// How a prompted seat answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PromptKind {
    /// A move, made in public in the game's thread.
    Move,
    /// A choice made in private; the text says what is asked.
    Secret,
}

/// Who must act now, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub seat: Seat,
    pub kind: PromptKind,
    /// What is asked, for the player ("White to move").
    pub text: String,
}

/// Something that happened, to announce.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// For everyone in the game's thread.
    Public(String),
    /// For one seat only.
    Private { seat: Seat, text: String },
    /// The game is over.
    GameOver(Outcome),
}

impl Event {
    /// The texts of the public events among `events`, in order.
    pub fn public_texts(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Public(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    Checkmate,
    KingCaptured,
    /// Both kings mated or captured at the same moment (Synchronous chess).
    BothKingsFell,
    Stalemate,
    /// A player with pieces but no move (checkers).
    NoMoves,
    /// A player with no piece left (checkers: all captured, or all held prisoner).
    NoPieces,
    InsufficientMaterial,
    FiftyMoveRule,
    ThreefoldRepetition,
    Resignation,
    Agreement,
    Timeout,
    Aborted,
    /// The score at the end of a game played for points.
    FinalScore,
    /// Everyone else has left the game (cut-throat).
    LastStanding,
    /// Forty moves without a jump after the 40-move option was invoked: most pieces wins
    /// (Tri-Chek).
    FortyMoves,
    /// Forty moves of each player without a capture or a man's move (checkers' own count, not
    /// chess's fifty-move rule).
    NoProgress,
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::KingCaptured => "capturing the king",
            EndReason::BothKingsFell => "both kings falling at once",
            EndReason::Stalemate => "stalemate",
            EndReason::NoMoves => "leaving the opponent no move",
            EndReason::NoPieces => "capturing every piece",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::FiftyMoveRule => "the fifty-move rule",
            EndReason::ThreefoldRepetition => "threefold repetition",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "time out",
            EndReason::Aborted => "abort",
            EndReason::FinalScore => "the final score",
            EndReason::LastStanding => "being the last one left",
            EndReason::FortyMoves => {
                "having the most pieces after forty moves of each player without a jump"
            }
            EndReason::NoProgress => "forty moves of each player without a capture or a man's move",
        }
    }
}

/// How a game ended: the winning seats (none for a draw), why, and for games that keep one, a
/// score for every seat; or everyone lost (a cooperative game that failed).
///
/// ```
/// use engine::game::{EndReason, Outcome, Standing};
/// use engine::Seat;
///
/// let partners = Outcome::win(vec![Seat(0), Seat(2)], EndReason::Checkmate);
/// assert_eq!(partners.to_string(), "White and Seat 3 win by checkmate");
/// // One player who holds two armies is named by both, and the verb agrees.
/// let two_armies = Outcome::win(vec![Seat(0)], EndReason::Resignation);
/// assert_eq!(
///     two_armies.describe(|_| "White and Tan".to_string()),
///     "White and Tan win by resignation"
/// );
/// let scored = Outcome::by_score(
///     vec![Standing { seat: Seat(0), score: 3 }, Standing { seat: Seat(1), score: 5 },
///          Standing { seat: Seat(2), score: 5 }],
///     EndReason::FinalScore,
/// );
/// assert_eq!(scored.winners, vec![Seat(1), Seat(2)], "a tie at the top shares the win");
/// assert_eq!(scored.to_string(), "Black and Seat 3 win by the final score (Black 5, Seat 3 5, White 3)");
/// let lost = Outcome::everyone_loses(EndReason::NoMoves);
/// assert!(!lost.is_draw());
/// assert_eq!(lost.to_string(), "Everyone loses by leaving the opponent no move");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winners: Vec<Seat>,
    pub reason: EndReason,
    /// Each seat's score, best first, where the game ends with a score table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standings: Vec<Standing>,
    /// Nobody won and it is no draw: everyone lost together.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub everyone_lost: bool,
}

/// Which scores a table of best scores puts first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestScores {
    Highest,
    Lowest,
}

impl BestScores {
    /// A finished game's score for the table: its best seat's.
    pub fn score_of(self, outcome: &Outcome) -> Option<i64> {
        let scores = outcome.standings.iter().map(|s| s.score);
        match self {
            BestScores::Highest => scores.max(),
            BestScores::Lowest => scores.min(),
        }
    }

    /// Whether score `a` ranks before `b`.
    pub fn better(self, a: i64, b: i64) -> bool {
        match self {
            BestScores::Highest => a > b,
            BestScores::Lowest => a < b,
        }
    }
}

/// One seat's place in a score table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    pub score: i64,
}

impl Outcome {
    /// A win for some seats (one, a team, or partners).
    pub fn win(winners: Vec<Seat>, reason: EndReason) -> Outcome {
        Outcome {
            winners,
            reason,
            standings: Vec::new(),
            everyone_lost: false,
        }
    }
    /// A draw.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome::win(Vec::new(), reason)
    }
    /// The end of a game scored seat by seat: the highest score wins (ties share the win).
    pub fn by_score(mut standings: Vec<Standing>, reason: EndReason) -> Outcome {
        standings.sort_by_key(|s| (std::cmp::Reverse(s.score), s.seat));
        let top = standings.first().map(|s| s.score);
        let winners = standings
            .iter()
            .filter(|s| Some(s.score) == top)
            .map(|s| s.seat)
            .collect();
        Outcome {
            winners,
            reason,
            standings,
            everyone_lost: false,
        }
    }
    /// Everyone lost together.
    pub fn everyone_loses(reason: EndReason) -> Outcome {
        Outcome {
            everyone_lost: true,
            ..Outcome::draw(reason)
        }
    }
    /// Whether nobody won and nobody lost.
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty() && !self.everyone_lost
    }

    /// The result in words, naming each winning seat with `name` ("White 1 and White 2 win by
    /// checkmate"), with the score table if there is one.
    pub fn describe(&self, name: impl Fn(Seat) -> String) -> String {
        let mut text = if self.everyone_lost {
            format!("Everyone loses by {}", self.reason.describe())
        } else if self.is_draw() {
            format!("Draw by {}", self.reason.describe())
        } else {
            let names: Vec<String> = self.winners.iter().map(|s| name(*s)).collect();
            // One player named by two armies ("White and Tan") is plural too.
            let plural = names.len() > 1 || names.iter().any(|n| n.contains(" and "));
            format!(
                "{} {} by {}",
                names.join(" and "),
                if plural { "win" } else { "wins" },
                self.reason.describe()
            )
        };
        if !self.standings.is_empty() {
            let table: Vec<String> = self
                .standings
                .iter()
                .map(|s| format!("{} {}", name(s.seat), s.score))
                .collect();
            text.push_str(&format!(" ({})", table.join(", ")));
        }
        text
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(|s| s.colour_name()))
    }
}

/// The public announcements among `events`, joined (for tests that read what everyone saw).
#[cfg(test)]
pub(crate) fn public_text(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Public(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- errors -------------------------------------------------------------------------------

/// Anything a player did that the rules refuse, with a message for them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("{0}")]
    UnknownVariant(String),
    #[error("{0}")]
    BadOption(String),
    #[error("{0}")]
    BadSeats(String),
    #[error("{0}")]
    BadSetup(String),
    #[error("it is not your turn: {0}")]
    NotYourTurn(String),
    #[error("the game is over: {0}")]
    GameOver(String),
    #[error("{0}")]
    Move(#[from] MoveParseError),
    #[error("the stored game could not be read: {0}")]
    Corrupt(String),
    /// Anything else the rules refuse, with the reason ("you are already out of this game").
    #[error("{0}")]
    Refused(String),
}

// ---- the trait ----------------------------------------------------------------------------

/// The rules of one game.
pub trait Game: Send + Sync + 'static {
    /// Everything that changes during a game, seeded RNG included.
    type State: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// One thing a seat can do.
    type Action: Clone + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Metadata for the registry.
    fn info(&self) -> &VariantInfo;
    /// A new game from checked options, a seat count and a seed for its RNG.
    fn setup(&self, options: &Options, seats: usize, seed: u64) -> Result<Self::State, GameError>;
    /// Who must act now, and how. Empty when the game is over.
    fn prompts(&self, state: &Self::State) -> Vec<Prompt>;
    /// Everything `seat` may do now.
    fn legal(&self, state: &Self::State, seat: Seat) -> Vec<Self::Action>;
    /// The canonical text of an action (what autocomplete shows and the log stores).
    fn action_text(&self, state: &Self::State, action: &Self::Action) -> String;
    /// Reads what a player typed.
    fn parse(&self, state: &Self::State, seat: Seat, text: &str)
        -> Result<Self::Action, GameError>;
    /// Performs an action, reporting what happened.
    fn apply(
        &self,
        state: &mut Self::State,
        seat: Seat,
        action: Self::Action,
    ) -> Result<Vec<Event>, GameError>;
    /// What `viewer` may see.
    fn view(&self, state: &Self::State, viewer: Viewer) -> View;
    /// The result, once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// What `viewer` may see with something more shown on the board (`/board show:`), one of
    /// [`Game::showable`]: Shadow Chess shades a side's shadows.
    fn view_showing(
        &self,
        state: &Self::State,
        viewer: Viewer,
        show: &str,
    ) -> Result<View, GameError> {
        if show.trim().is_empty() || show.trim().eq_ignore_ascii_case("none") {
            return Ok(self.view(state, viewer));
        }
        Err(GameError::BadOption(format!(
            "{} has nothing more to show on its board",
            self.info().name
        )))
    }
    /// What `/board show:` may ask of this game; empty for most.
    fn showable(&self) -> &'static [&'static str] {
        &[]
    }

    /// Everything that was secret, in the order it happened, to make public when the game ends
    /// ("Alice buried the pawn under b2"). Empty for games without hidden information.
    fn secret_history(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// What the set-up itself did that everyone should be told as the game begins (cards
    /// dealt face up to Cooperative Chess's line). Empty for most games.
    fn opening(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// A state consistent with everything `seat` may know of `state`, with every part hidden
    /// from it drawn afresh from `seed`: what a computer player searches instead of the true
    /// state, so that it never sees what its seat may not (information-set sampling, or
    /// determinization).
    ///
    /// The result depends only on what `seat` may see of `state` (its view, the public history
    /// the state keeps, its own secrets, the public counts such as the size of a hand) and on
    /// `seed`: two states that differ only in what `seat` cannot see give the same result,
    /// byte for byte once stored. It is a state the game can go on from, agreeing with all that
    /// `seat` knows: the board and the seat's own secrets (its burials, its sealed choice, its
    /// hand) stay as they are, and each hidden part takes a value it could have (an opponent's
    /// hand dealt from the cards `seat` cannot see, a sealed move one of that opponent's
    /// possible moves). The game's own random generator is hidden too (the order of the draw
    /// pile, what later shuffles and draws bring), so it is seeded again from `seed`.
    ///
    /// The default, the state itself, is right for games of perfect information.
    fn determinize(&self, state: &Self::State, _seat: Seat, _seed: u64) -> Self::State {
        state.clone()
    }

    /// How many moves the king of `army` would have were it that army's turn now: what a
    /// computer player winning on material counts to hem a beaten king in (a mated king has
    /// none).
    /// `None` where the game cannot tell (no king, or not implemented); the evaluation then
    /// counts the empty squares around the king instead.
    fn king_room(&self, _state: &Self::State, _army: Seat) -> Option<usize> {
        None
    }

    /// Leaf count of the legal action tree, for games whose move generator is tested by perft.
    fn perft(&self, _state: &Self::State, _depth: u32) -> Option<u64> {
        None
    }
    /// Perft split by first action: each action's text with its count.
    fn divide(&self, _state: &Self::State, _depth: u32) -> Option<Vec<(String, u64)>> {
        None
    }

    /// The result when `seat` leaves a game of `seats` seats, by resigning or by running out
    /// of time (`reason`). In a game of two sides the other side wins, which is the default;
    /// games where one leaving does not end the game, or hands it to a team, decide otherwise.
    fn concede(
        &self,
        _state: &Self::State,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Outcome {
        let others = (0..seats as u8).map(Seat).filter(|s| *s != seat).collect();
        Outcome::win(others, reason)
    }

    /// Whether finished games are kept in a table of best scores per server, and which scores
    /// are best: Cooperative Chess's highest, Chess Golf's lowest. `None` for most games.
    fn best_scores(&self) -> Option<BestScores> {
        None
    }

    /// Whether a finished game enters the table of best scores (see [`Game::best_scores`]),
    /// given the options it was created with: a game may leave out scores that say nothing of
    /// the play (a custom start, a round with nothing solved). All enter by default.
    fn ranked(&self, _options: &Options, _state: &Self::State) -> bool {
        true
    }

    /// Which finished games the table of best scores keeps, said with the table when it does
    /// not keep them all.
    fn ranking_rule(&self) -> Option<&'static str> {
        None
    }

    /// Whether running out of time only forfeits the choice being waited for, the game going
    /// on (Chess Golf's timer), so that several seats out of time together each leave by
    /// [`Game::leave`] instead of the game ending.
    fn timeout_is_a_pass(&self) -> bool {
        false
    }

    /// What a seat is called in messages: "White", or the army a player moves in games of
    /// more than two sides ("White 2", "king-side Black").
    fn seat_name(&self, _state: &Self::State, seat: Seat) -> String {
        seat.colour_name()
    }

    /// The canonical texts of everything `seat` may do now. Games whose texts depend on the
    /// whole list (notation disambiguated among the moves allowed) compute it once here.
    fn legal_texts(&self, state: &Self::State, seat: Seat) -> Vec<String> {
        self.legal(state, seat)
            .iter()
            .map(|a| self.action_text(state, a))
            .collect()
    }

    /// Whether `seat` has left the game for good while it goes on (a cut-throat player who
    /// resigned or was mated): it no longer acts, offers or accepts draws.
    fn is_out(&self, _state: &Self::State, _seat: Seat) -> bool {
        false
    }

    /// Why `seat` cannot act now, when there is more to say than whose turn it is (its army
    /// is frozen, mated, out of the game).
    fn waiting_reason(&self, _state: &Self::State, _seat: Seat) -> Option<String> {
        None
    }

    /// `seat` leaves the game by resigning or running out of time (`reason`). Returns what
    /// happened; a [`Event::GameOver`] among the events ends the game. By default the game
    /// ends with [`Game::concede`]'s result; games that go on without the player (cut-throat)
    /// take the player's armies out of the state and say so.
    fn leave(
        &self,
        state: &mut Self::State,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        Ok(vec![Event::GameOver(
            self.concede(state, seat, seats, reason),
        )])
    }

    /// Parses and applies a typed action text, returning its canonical text and the events.
    fn play(
        &self,
        state: &mut Self::State,
        seat: Seat,
        text: &str,
    ) -> Result<(String, Vec<Event>), GameError> {
        if let Some(outcome) = self.outcome(state) {
            return Err(GameError::GameOver(outcome.to_string()));
        }
        let prompted = self.prompts(state);
        if !prompted.iter().any(|p| p.seat == seat) {
            if let Some(reason) = self.waiting_reason(state, seat) {
                return Err(GameError::NotYourTurn(reason));
            }
            let waiting: Vec<String> = prompted.iter().map(|p| p.text.clone()).collect();
            return Err(GameError::NotYourTurn(waiting.join("; ")));
        }
        let action = self.parse(state, seat, text)?;
        let canonical = self.action_text(state, &action);
        let mut events = self.apply(state, seat, action)?;
        // The outcome is checked after every action, so no variant can forget to end a game
        // whose end its own `outcome` sees.
        if !events.iter().any(|e| matches!(e, Event::GameOver(_))) {
            if let Some(outcome) = self.outcome(state) {
                events.push(Event::GameOver(outcome));
            }
        }
        Ok((canonical, events))
    }
}

/// A game state of any variant, as the bot holds it.
pub struct AnyState(Box<dyn StateObject>);

trait StateObject: Send + Sync {
    fn clone_box(&self) -> Box<dyn StateObject>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Clone + Send + Sync + 'static> StateObject for T {
    fn clone_box(&self) -> Box<dyn StateObject> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for AnyState {
    fn clone(&self) -> Self {
        AnyState(self.0.clone_box())
    }
}

impl AnyState {
    /// A variant's own state, type-erased (tests that set up a position by hand).
    #[cfg(test)]
    pub(crate) fn of<T: Clone + Send + Sync + 'static>(state: T) -> AnyState {
        AnyState(Box::new(state))
    }

    /// The state as its variant's own type, if it is one: for tools that speak a game's own
    /// language (a UCI engine needs a chess position).
    ///
    /// ```
    /// use engine::game::Options;
    /// use engine::variants::chess::ChessState;
    /// let chess = engine::registry::variant("chess").unwrap();
    /// let state = chess.setup(&Options::new(), 2, 0).unwrap();
    /// let position = state.downcast_ref::<ChessState>().unwrap().position();
    /// assert!(position.fen().starts_with("rnbqkbnr/pppppppp"));
    /// assert!(state.downcast_ref::<String>().is_none());
    /// ```
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }
}

impl fmt::Debug for AnyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AnyState(..)")
    }
}

/// Any [`Game`], without its types: what the registry hands out.
pub trait AnyGame: Send + Sync {
    fn info(&self) -> &VariantInfo;
    /// A new game; options are checked against [`VariantInfo::options`] first.
    fn setup(&self, options: &Options, seats: usize, seed: u64) -> Result<AnyState, GameError>;
    /// A state from its stored JSON.
    fn load(&self, json: &str) -> Result<AnyState, GameError>;
    /// A state as JSON for storage.
    fn save(&self, state: &AnyState) -> Result<String, GameError>;
    fn prompts(&self, state: &AnyState) -> Result<Vec<Prompt>, GameError>;
    /// The canonical texts of everything `seat` may do now.
    fn legal_texts(&self, state: &AnyState, seat: Seat) -> Result<Vec<String>, GameError>;
    /// Parses and applies what a player typed; returns the canonical text and events.
    fn play(
        &self,
        state: &mut AnyState,
        seat: Seat,
        text: &str,
    ) -> Result<(String, Vec<Event>), GameError>;
    fn view(&self, state: &AnyState, viewer: Viewer) -> Result<View, GameError>;
    /// The view with more shown (see [`Game::view_showing`]).
    fn view_showing(&self, state: &AnyState, viewer: Viewer, show: &str)
        -> Result<View, GameError>;
    /// What `/board show:` may ask (see [`Game::showable`]).
    fn showable(&self) -> &'static [&'static str];
    fn outcome(&self, state: &AnyState) -> Result<Option<Outcome>, GameError>;
    /// The result when `seat` resigns or runs out of time (see [`Game::concede`]).
    fn concede(
        &self,
        state: &AnyState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Outcome, GameError>;
    /// The secrets to reveal once the game is over.
    fn secret_history(&self, state: &AnyState) -> Result<Vec<String>, GameError>;
    /// What the set-up did, told as the game begins (see [`Game::opening`]).
    fn opening(&self, state: &AnyState) -> Result<Vec<String>, GameError>;
    /// What a seat is called in messages (see [`Game::seat_name`]).
    fn seat_name(&self, state: &AnyState, seat: Seat) -> Result<String, GameError>;
    /// Whether a seat has left a game that goes on (see [`Game::is_out`]).
    fn is_out(&self, state: &AnyState, seat: Seat) -> Result<bool, GameError>;
    /// Why a seat cannot act now, beyond whose turn it is (see [`Game::waiting_reason`]).
    fn waiting_reason(&self, state: &AnyState, seat: Seat) -> Result<Option<String>, GameError>;
    /// `seat` resigns or runs out of time; the state changes only if the game goes on without
    /// it (see [`Game::leave`]).
    fn leave(
        &self,
        state: &mut AnyState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError>;
    /// A state with everything `seat` cannot see drawn afresh from `seed`, for a computer
    /// player's search (see [`Game::determinize`]).
    fn determinize(&self, state: &AnyState, seat: Seat, seed: u64) -> Result<AnyState, GameError>;
    /// The moves an army's king would have on its turn (see [`Game::king_room`]).
    fn king_room(&self, state: &AnyState, army: Seat) -> Result<Option<usize>, GameError>;
    fn perft(&self, state: &AnyState, depth: u32) -> Result<Option<u64>, GameError>;
    fn divide(&self, state: &AnyState, depth: u32)
        -> Result<Option<Vec<(String, u64)>>, GameError>;
    /// Which scores are best, for games kept in a best-score table (see [`Game::best_scores`]).
    fn best_scores(&self) -> Option<BestScores>;
    /// Whether a finished game enters the best-score table (see [`Game::ranked`]).
    fn ranked(&self, options: &Options, state: &AnyState) -> Result<bool, GameError>;
    /// Which games the best-score table keeps, if not all (see [`Game::ranking_rule`]).
    fn ranking_rule(&self) -> Option<&'static str>;
    /// Whether running out of time only forfeits a choice (see [`Game::timeout_is_a_pass`]).
    fn timeout_is_a_pass(&self) -> bool;
    /// How many actions `seat` may take now (the length of [`Game::legal`]), without writing
    /// their texts.
    fn legal_count(&self, state: &AnyState, seat: Seat) -> Result<usize, GameError>;
    /// Applies action number `draw % n` of the `n` actions of [`Game::legal`] for `seat`,
    /// without writing or reading any text: the computer player's playouts, thousands of
    /// actions a move. Returns `false`, changing nothing, when `seat` has nothing legal. Unlike
    /// [`AnyGame::play`] it works on the state itself, not on a copy: after an error the state
    /// may be half changed and is only fit to be thrown away.
    fn play_random_legal(
        &self,
        state: &mut AnyState,
        seat: Seat,
        draw: u64,
    ) -> Result<bool, GameError>;
}

impl fmt::Debug for dyn AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyGame({})", self.info().id)
    }
}

fn typed<'a, G: Game>(game: &G, state: &'a AnyState) -> Result<&'a G::State, GameError> {
    state
        .0
        .as_any()
        .downcast_ref::<G::State>()
        .ok_or_else(|| GameError::Corrupt(format!("the state is not a {} game", game.info().name)))
}

fn typed_mut<'a, G: Game>(
    game: &G,
    state: &'a mut AnyState,
) -> Result<&'a mut G::State, GameError> {
    let name = game.info().name;
    state
        .0
        .as_any_mut()
        .downcast_mut::<G::State>()
        .ok_or_else(|| GameError::Corrupt(format!("the state is not a {name} game")))
}

/// Changes a state through `change` on a copy, kept only if the change succeeds: a refused
/// action or leave changes nothing.
fn on_copy<G: Game, T>(
    game: &G,
    state: &mut AnyState,
    change: impl FnOnce(&mut G::State) -> Result<T, GameError>,
) -> Result<T, GameError> {
    let s = typed_mut(game, state)?;
    let mut next = s.clone();
    let result = change(&mut next)?;
    *s = next;
    Ok(result)
}

impl<G: Game> AnyGame for G {
    fn info(&self) -> &VariantInfo {
        Game::info(self)
    }
    fn setup(&self, options: &Options, seats: usize, seed: u64) -> Result<AnyState, GameError> {
        let info = Game::info(self);
        info.check_options(options)?;
        info.check_seats(seats)?;
        Ok(AnyState(Box::new(Game::setup(self, options, seats, seed)?)))
    }
    fn load(&self, json: &str) -> Result<AnyState, GameError> {
        let state: G::State =
            serde_json::from_str(json).map_err(|e| GameError::Corrupt(e.to_string()))?;
        Ok(AnyState(Box::new(state)))
    }
    fn save(&self, state: &AnyState) -> Result<String, GameError> {
        serde_json::to_string(typed(self, state)?).map_err(|e| GameError::Corrupt(e.to_string()))
    }
    fn prompts(&self, state: &AnyState) -> Result<Vec<Prompt>, GameError> {
        Ok(Game::prompts(self, typed(self, state)?))
    }
    fn legal_texts(&self, state: &AnyState, seat: Seat) -> Result<Vec<String>, GameError> {
        Ok(Game::legal_texts(self, typed(self, state)?, seat))
    }
    fn play(
        &self,
        state: &mut AnyState,
        seat: Seat,
        text: &str,
    ) -> Result<(String, Vec<Event>), GameError> {
        on_copy(self, state, |s| Game::play(self, s, seat, text))
    }
    fn view(&self, state: &AnyState, viewer: Viewer) -> Result<View, GameError> {
        Ok(Game::view(self, typed(self, state)?, viewer))
    }
    fn view_showing(
        &self,
        state: &AnyState,
        viewer: Viewer,
        show: &str,
    ) -> Result<View, GameError> {
        Game::view_showing(self, typed(self, state)?, viewer, show)
    }
    fn showable(&self) -> &'static [&'static str] {
        Game::showable(self)
    }
    fn outcome(&self, state: &AnyState) -> Result<Option<Outcome>, GameError> {
        Ok(Game::outcome(self, typed(self, state)?))
    }
    fn concede(
        &self,
        state: &AnyState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Outcome, GameError> {
        Ok(Game::concede(
            self,
            typed(self, state)?,
            seat,
            seats,
            reason,
        ))
    }
    fn secret_history(&self, state: &AnyState) -> Result<Vec<String>, GameError> {
        Ok(Game::secret_history(self, typed(self, state)?))
    }
    fn opening(&self, state: &AnyState) -> Result<Vec<String>, GameError> {
        Ok(Game::opening(self, typed(self, state)?))
    }
    fn seat_name(&self, state: &AnyState, seat: Seat) -> Result<String, GameError> {
        Ok(Game::seat_name(self, typed(self, state)?, seat))
    }
    fn waiting_reason(&self, state: &AnyState, seat: Seat) -> Result<Option<String>, GameError> {
        Ok(Game::waiting_reason(self, typed(self, state)?, seat))
    }
    fn is_out(&self, state: &AnyState, seat: Seat) -> Result<bool, GameError> {
        Ok(Game::is_out(self, typed(self, state)?, seat))
    }
    fn leave(
        &self,
        state: &mut AnyState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        on_copy(self, state, |s| Game::leave(self, s, seat, seats, reason))
    }
    fn determinize(&self, state: &AnyState, seat: Seat, seed: u64) -> Result<AnyState, GameError> {
        let sample = Game::determinize(self, typed(self, state)?, seat, seed);
        Ok(AnyState(Box::new(sample)))
    }
    fn king_room(&self, state: &AnyState, army: Seat) -> Result<Option<usize>, GameError> {
        Ok(Game::king_room(self, typed(self, state)?, army))
    }
    fn perft(&self, state: &AnyState, depth: u32) -> Result<Option<u64>, GameError> {
        Ok(Game::perft(self, typed(self, state)?, depth))
    }
    fn best_scores(&self) -> Option<BestScores> {
        Game::best_scores(self)
    }
    fn ranked(&self, options: &Options, state: &AnyState) -> Result<bool, GameError> {
        Ok(Game::ranked(self, options, typed(self, state)?))
    }
    fn ranking_rule(&self) -> Option<&'static str> {
        Game::ranking_rule(self)
    }
    fn timeout_is_a_pass(&self) -> bool {
        Game::timeout_is_a_pass(self)
    }
    fn legal_count(&self, state: &AnyState, seat: Seat) -> Result<usize, GameError> {
        Ok(Game::legal(self, typed(self, state)?, seat).len())
    }
    fn play_random_legal(
        &self,
        state: &mut AnyState,
        seat: Seat,
        draw: u64,
    ) -> Result<bool, GameError> {
        let s = typed_mut(self, state)?;
        let mut legal = Game::legal(self, s, seat);
        if legal.is_empty() {
            return Ok(false);
        }
        let action = legal.swap_remove((draw % legal.len() as u64) as usize);
        Game::apply(self, s, seat, action)?;
        Ok(true)
    }
    fn divide(
        &self,
        state: &AnyState,
        depth: u32,
    ) -> Result<Option<Vec<(String, u64)>>, GameError> {
        Ok(Game::divide(self, typed(self, state)?, depth))
    }
}

//! The service's vocabulary, shared by storage and the frontends. No Discord types here.

use std::fmt;

use engine::ai::Level;
use serde::{Deserialize, Serialize};

/// A game's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Someone using Rookery: the frontend's id for them and the name to show.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct User {
    pub id: String,
    pub name: String,
}

impl User {
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> User {
        User {
            id: id.into(),
            name: name.into(),
        }
    }

    /// The computer player at `level` in a game's `n`th computer seat: `computer:hard:2`,
    /// named for its level ("Rookery (hard)") in every message.
    pub fn computer(level: Level, n: usize) -> User {
        User::new(
            format!("{COMPUTER_PREFIX}{}:{n}", level.name()),
            computer_name(level),
        )
    }

    /// The level of a computer player's id; `None` for a person.
    pub fn computer_level(id: &str) -> Option<Level> {
        let rest = id.strip_prefix(COMPUTER_PREFIX)?;
        rest.split(':').next()?.parse().ok()
    }
}

/// How the ids of computer players begin. No Discord id (a number) and no console name (the
/// console refuses names with a colon) can start so.
pub const COMPUTER_PREFIX: &str = "computer:";

/// What a computer player is called: "Rookery (hard)".
pub fn computer_name(level: Level) -> String {
    format!("Rookery ({})", level.name())
}

/// Where a command was given: a channel or thread of a server (by the frontend's ids), or a DM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Channel { server: String, channel: String },
    DirectMessage,
}

impl Place {
    /// A channel or thread of a server.
    pub fn channel(server: impl Into<String>, channel: impl Into<String>) -> Place {
        Place::Channel {
            server: server.into(),
            channel: channel.into(),
        }
    }
}

/// The life of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Waiting for players.
    Open,
    /// Being played.
    Active,
    /// Over, with a result.
    Finished,
    /// Called off before it started.
    Aborted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }
    pub fn parse(s: &str) -> Status {
        match s {
            "open" => Status::Open,
            "active" => Status::Active,
            "finished" => Status::Finished,
            _ => Status::Aborted,
        }
    }
}

/// What a button does; its custom id carries the game, so it works after a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ButtonAction {
    Join,
    Start,
    Resign,
    Draw,
    /// The creator fills an open seat with a computer player (at the game's level).
    AddComputer,
    /// A player of a finished game asks to play it again (its rematch).
    RematchAsk,
    /// A player accepts the takeback asked for in a game.
    TakebackAccept,
    /// A player declines the takeback asked for in a game.
    TakebackDecline,
}

impl ButtonAction {
    pub fn label(self) -> &'static str {
        match self {
            ButtonAction::Join => "Join",
            ButtonAction::Start => "Start",
            ButtonAction::Resign => "Resign",
            ButtonAction::Draw => "Offer / accept draw",
            ButtonAction::AddComputer => "Add a computer player",
            ButtonAction::RematchAsk => "Rematch",
            ButtonAction::TakebackAccept => "Accept takeback",
            ButtonAction::TakebackDecline => "Decline takeback",
        }
    }
    fn key(self) -> &'static str {
        match self {
            ButtonAction::Join => "join",
            ButtonAction::Start => "start",
            ButtonAction::Resign => "resign",
            ButtonAction::Draw => "draw",
            ButtonAction::AddComputer => "addbot",
            ButtonAction::RematchAsk => "rematch",
            ButtonAction::TakebackAccept => "takeback-yes",
            ButtonAction::TakebackDecline => "takeback-no",
        }
    }
}

/// A button on a post.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    pub action: ButtonAction,
    pub game: GameId,
}

impl Button {
    /// The custom id: `rookery:<action>:<game>`.
    pub fn custom_id(self) -> String {
        format!("rookery:{}:{}", self.action.key(), self.game)
    }

    /// Reads a custom id back.
    ///
    /// ```
    /// use bot::model::{Button, ButtonAction, GameId};
    /// let b = Button { action: ButtonAction::Resign, game: GameId(42) };
    /// assert_eq!(Button::from_custom_id(&b.custom_id()), Some(b));
    /// assert_eq!(Button::from_custom_id("rookery:dance:1"), None);
    /// ```
    pub fn from_custom_id(id: &str) -> Option<Button> {
        let mut parts = id.split(':');
        if parts.next()? != "rookery" {
            return None;
        }
        let action = match parts.next()? {
            "join" => ButtonAction::Join,
            "start" => ButtonAction::Start,
            "resign" => ButtonAction::Resign,
            "draw" => ButtonAction::Draw,
            "addbot" => ButtonAction::AddComputer,
            "rematch" => ButtonAction::RematchAsk,
            "takeback-yes" => ButtonAction::TakebackAccept,
            "takeback-no" => ButtonAction::TakebackDecline,
            _ => return None,
        };
        let game = GameId(parts.next()?.parse().ok()?);
        parts.next().is_none().then_some(Button { action, game })
    }
}

/// The custom id of the select menu for a game's private choice: `rookery:secret:<game>`.
pub fn secret_menu_id(game: GameId) -> String {
    format!("rookery:secret:{game}")
}

/// The game of a private-choice select menu's custom id.
pub fn game_of_secret_menu(id: &str) -> Option<GameId> {
    id.strip_prefix("rookery:secret:")?.parse().ok().map(GameId)
}

/// Where a post goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A channel, by the frontend's id (game announcements).
    Channel(String),
    /// A game's own thread (made by the frontend on first use).
    GameThread(GameId),
    /// A user's direct messages.
    Direct(String),
}

/// Something to post. Text may hold `{@user-id}` for a mention and `{#game-id}` for a link to a
/// game's thread; each frontend writes them its own way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Post {
    pub target: Target,
    pub text: String,
    pub image: Option<Vec<u8>>,
    pub buttons: Vec<Button>,
    /// The options of a private choice, offered as a select menu (at most 25).
    pub choices: Vec<String>,
    /// The game's thread is started from this post (its announcement in the channel), so a
    /// frontend that delivers it twice after a crash finds the same thread.
    pub thread_anchor: bool,
}

impl Post {
    pub fn new(target: Target, text: impl Into<String>) -> Post {
        Post {
            target,
            text: text.into(),
            image: None,
            buttons: Vec::new(),
            choices: Vec::new(),
            thread_anchor: false,
        }
    }
    pub fn anchoring_thread(mut self) -> Post {
        self.thread_anchor = true;
        self
    }
    pub fn with_image(mut self, png: Vec<u8>) -> Post {
        self.image = Some(png);
        self
    }
    pub fn with_buttons(mut self, buttons: Vec<Button>) -> Post {
        self.buttons = buttons;
        self
    }
    pub fn with_choices(mut self, choices: Vec<String>) -> Post {
        self.choices = choices;
        self
    }
}

/// A post waiting in the outbox.
#[derive(Clone, Debug)]
pub struct Pending {
    pub id: i64,
    pub game: Option<GameId>,
    pub post: Post,
    /// Not to be tried before this time (Unix seconds), after a failed attempt.
    pub not_before: i64,
    /// Failed attempts so far.
    pub attempts: i64,
    /// The frontend's id of the message this post already became, if an earlier attempt got
    /// that far.
    pub sent_as: Option<String>,
}

impl Pending {
    /// Posts with the same key go out in the order they were made; posts with different keys
    /// do not wait for each other. A game's posts share one key (its thread is made by its
    /// announcement, and its story must read in order); other posts are keyed by where they go.
    pub fn order_key(&self) -> String {
        match (self.game, &self.post.target) {
            (Some(game), _) => format!("game {game}"),
            (None, Target::Channel(c)) => format!("channel {c}"),
            (None, Target::GameThread(g)) => format!("game {g}"),
            (None, Target::Direct(u)) => format!("user {u}"),
        }
    }
}

/// The answer to whoever gave a command, shown only to them (unless it is `public`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    /// A board picture (PNG).
    pub image: Option<Vec<u8>>,
    /// A file sent with the answer: a game's record, a replay.
    pub file: Option<Attachment>,
    /// Posted for everyone in the channel where the command was given, not only for the asker
    /// (a finished game's record or replay, with everything its end revealed).
    pub public: bool,
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            ..Reply::default()
        }
    }
}

/// A file attached to an answer, by name (`rookery-game-3.pgn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Writes `{@id}` as a mention in `mention(id)` style and `{#game}` with `thread(game)`.
pub fn expand(
    text: &str,
    mention: impl Fn(&str) -> String,
    thread: impl Fn(GameId) -> String,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(end) = after.find('}') else {
            out.push_str(after);
            return out;
        };
        let inner = &after[1..end];
        match inner.as_bytes().first() {
            // A computer player is named, never mentioned: nobody is there to be pinged.
            Some(b'@') => match User::computer_level(&inner[1..]) {
                Some(level) => out.push_str(&computer_name(level)),
                None => out.push_str(&mention(&inner[1..])),
            },
            Some(b'#') => match inner[1..].parse() {
                Ok(n) => out.push_str(&thread(GameId(n))),
                Err(_) => out.push_str(&after[..=end]),
            },
            _ => out.push_str(&after[..=end]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Someone a command asks about (`/rating`, `/stats`): a user the frontend identified (a
/// Discord user option gives an id and a name), or a name to look up among the players of the
/// server (the console, where a user is named by their console name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    User(User),
    Name(String),
}

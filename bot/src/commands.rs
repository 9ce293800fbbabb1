//! The commands players give, independent of any frontend. The console reads them from text;
//! the Discord layer builds them from slash-command options; both hand them to [`run`].

use engine::registry;

use crate::model::{GameId, Place, Reply, User, Who};
use crate::ratings;
use crate::service::{DrawChoice, Service, ServiceError, TakebackChoice};

/// What a user sees when something broke on our side.
pub const SORRY: &str =
    "Sorry, something went wrong on Rookery's side. It has been logged; please try again.";

/// One command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Play {
        variant: String,
        options: String,
        players: Option<usize>,
    },
    Join {
        game: Option<GameId>,
    },
    Leave {
        game: Option<GameId>,
    },
    Start {
        game: Option<GameId>,
    },
    Abort {
        game: Option<GameId>,
    },
    /// The creator fills an open seat with a computer player.
    AddBot {
        level: Option<String>,
        game: Option<GameId>,
    },
    Move {
        text: String,
        game: Option<GameId>,
    },
    Secret {
        text: String,
        game: Option<GameId>,
    },
    /// The moves (or secret choices) the user may make now, as autocomplete offers them.
    Moves {
        game: Option<GameId>,
    },

    Board {
        game: Option<GameId>,
        /// Something more to draw, where the game offers it (Shadow Chess: `white` or `black`
        /// shadows).
        show: Option<String>,
    },
    Resign {
        game: Option<GameId>,
    },
    Draw {
        choice: DrawChoice,
        game: Option<GameId>,
    },
    /// Ask to take back your last move (and everything after it), or answer such a request.
    Takeback {
        choice: TakebackChoice,
        game: Option<GameId>,
    },
    /// Ask to play a finished game again, seats turned round.
    Rematch {
        game: Option<GameId>,
    },
    Games,
    /// A player's finished games (the asker's by default), ten to a page.
    History {
        /// A user id or a name.
        user: Option<String>,
        variant: Option<String>,
        page: Option<usize>,
    },
    /// One game summed up.
    GameInfo {
        game: GameId,
    },
    /// The game's record as a file: PGN, PDN or Rookery's JSON record.
    Export {
        game: Option<GameId>,
    },
    /// The game as an animated GIF.
    Replay {
        game: Option<GameId>,
    },
    /// The best scores of a game played for points on this server.
    Scores {
        variant: String,
    },
    /// A player's ratings on this server (the asker's by default), every variant or one.
    Rating {
        user: Option<Who>,
        variant: Option<String>,
    },
    /// The best ratings of a variant on this server.
    Leaderboard {
        variant: String,
    },
    /// A player's games, results and ratings per variant on this server, and games in progress.
    Stats {
        user: Option<Who>,
    },
    Variants,
    Rules {
        variant: String,
    },
    Inbox,
    Help,
}

/// Every command with its arguments and what it does, for /help and the Discord descriptions.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "play",
        "<variant> [options] [players]",
        "Start a new game in this channel; it gets its own thread",
    ),
    (
        "join",
        "[game]",
        "Take a seat in a game that is waiting for players",
    ),
    (
        "leave",
        "[game]",
        "Give up your seat before the game starts",
    ),
    (
        "start",
        "[game]",
        "Start your game with the players who have joined",
    ),
    ("abort", "[game]", "Call off your game before it starts"),
    (
        "addbot",
        "[level] [game]",
        "Fill an open seat of your game with a computer player (easy, medium or hard)",
    ),
    (
        "move",
        "<move> [game]",
        "Make your move (SAN like Nf3 or coordinates like g1f3)",
    ),
    (
        "moves",
        "[game]",
        "List the moves you may make now, privately",
    ),
    (
        "secret",
        "<choice> [game]",
        "Make a secret choice privately (in direct messages)",
    ),
    ("board", "[game]", "See the board from your side, privately"),
    ("resign", "[game]", "Resign the game"),
    (
        "draw",
        "[offer|accept|decline] [game]",
        "Offer a draw, accept one, or decline it",
    ),
    (
        "takeback",
        "[ask|accept|decline] [game]",
        "Ask to take back your last move, or accept or decline such a request",
    ),
    (
        "rematch",
        "[game]",
        "Ask to play a finished game again, seats turned round",
    ),
    ("games", "", "List your games"),
    (
        "history",
        "[user] [variant] [page]",
        "List finished games (yours, or another player's), ten to a page",
    ),
    (
        "game",
        "<game>",
        "Sum up one game: players, result, moves, dates",
    ),
    (
        "export",
        "[game]",
        "Download a game's record (PGN, PDN or JSON): yours privately while it runs, for all once it ends",
    ),
    (
        "replay",
        "[game]",
        "An animated GIF of a game, move by move: privately while it runs, for all once it ends",
    ),
    (
        "scores",
        "<variant>",
        "Best scores on this server of a game played for points",
    ),
    (
        "rating",
        "[user] [variant]",
        "A player's ratings on this server (yours by default), every variant or one",
    ),
    (
        "leaderboard",
        "<variant>",
        "The ten best ratings of a variant on this server, provisional ones apart",
    ),
    (
        "stats",
        "[user]",
        "A player's games, wins, draws, losses and ratings per variant, and games in progress",
    ),
    ("variants", "", "List the games Rookery plays"),
    ("rules", "<variant>", "Show the rules and options of a game"),
    (
        "inbox",
        "",
        "Read direct messages that could not be delivered",
    ),
    ("help", "", "How to play with Rookery"),
];

/// Runs a command for `user`, given in `place`.
pub async fn run(
    service: &Service,
    user: &User,
    place: &Place,
    command: Command,
) -> Result<Reply, ServiceError> {
    match command {
        Command::Play {
            variant,
            options,
            players,
        } => {
            service
                .create(user, place, &variant, &options, players)
                .await
        }
        Command::Join { game } => service.join(user, place, game).await,
        Command::Leave { game } => service.leave(user, place, game).await,
        Command::Start { game } => service.start(user, place, game).await,
        Command::Abort { game } => service.abort(user, place, game).await,
        Command::AddBot { level, game } => {
            service
                .add_computer(user, place, level.as_deref(), game)
                .await
        }
        Command::Move { text, game } => service.act(user, place, game, &text).await,
        Command::Secret { text, game } => service.secret(user, place, game, &text).await,
        Command::Moves { game } => service.moves(user, place, game).await,
        Command::Board { game, show } => service.board(user, place, game, show).await,
        Command::Resign { game } => service.resign(user, place, game).await,
        Command::Draw { choice, game } => service.draw(user, place, game, choice).await,
        Command::Takeback { choice, game } => service.takeback(user, place, game, choice).await,
        Command::Rematch { game } => service.rematch(user, place, game).await,
        Command::Games => service.games(user).await,
        Command::History {
            user: who,
            variant,
            page,
        } => {
            service
                .history(user, place, who.as_deref(), variant.as_deref(), page)
                .await
        }
        Command::GameInfo { game } => service.game_info(game).await,
        Command::Export { game } => service.export(user, place, game).await,
        Command::Replay { game } => service.replay(user, place, game).await,
        Command::Scores { variant } => service.scores(place, &variant).await,
        Command::Rating { user: who, variant } => {
            service.rating(user, place, who, variant.as_deref()).await
        }
        Command::Leaderboard { variant } => service.leaderboard(place, &variant).await,
        Command::Stats { user: who } => service.stats(user, place, who).await,
        Command::Variants => Ok(Reply::text(variants_text())),
        Command::Rules { variant } => rules_text(&variant).map(Reply::text),
        Command::Inbox => service.inbox(user).await,
        Command::Help => Ok(Reply::text(help_text())),
    }
}

/// `/help`.
pub fn help_text() -> String {
    let mut out = String::from(
        "**Rookery** plays chess and checkers variants, one thread per game, at your own pace.\n\
         Start with /play <variant>; others /join; moves are /move in the game's thread.\n",
    );
    for (name, args, what) in COMMANDS {
        let args = if args.is_empty() {
            String::new()
        } else {
            format!(" {args}")
        };
        out.push_str(&format!("/{name}{args}: {what}\n"));
    }
    out.push_str(
        "Options for /play are key=value, for example `days_per_move=2` (default 3; `none` for no clock), \
         `order=joined` (the creator takes the first seat; by default seats are drawn at random), \
         `bots=N` (computer players in the last N seats) with `level=easy|medium|hard` (default medium), \
         `rated=no` (a casual game, which changes no rating) \
         or the variant's own (see /rules <variant>).",
    );
    out
}

/// `/variants`.
pub fn variants_text() -> String {
    let mut out = String::from("Games you can /play:\n");
    for v in registry::variants() {
        let info = v.info();
        out.push_str(&format!(
            "- **{}** (`{}`), {} players\n",
            info.name,
            info.id,
            info.describe_seat_counts()
        ));
    }
    out.push_str("Use /rules <variant> for the rules and options.");
    out
}

/// `/rules <variant>`.
pub fn rules_text(variant: &str) -> Result<String, ServiceError> {
    let (game, named_options) =
        registry::variant_or_preset(variant).map_err(|e| ServiceError::Refused(e.to_string()))?;
    let info = game.info();
    let mut out = String::new();
    if !named_options.is_empty() {
        out.push_str(&format!(
            "'{}' is {} with {}: /play {} {}\n",
            variant.trim(),
            info.name,
            named_options.join(" "),
            info.id,
            named_options.join(" ")
        ));
    }
    out.push_str(&format!(
        "**{}**: {}\nSource: {}.",
        info.name, info.rules, info.source
    ));
    if !info.options.is_empty() {
        out.push_str("\nOptions:");
        for o in &info.options {
            let default = o
                .default
                .map(|d| format!(" (default {d})"))
                .unwrap_or_default();
            out.push_str(&format!("\n- `{}`: {}{default}", o.key, o.help));
        }
    }
    out.push_str("\n- `days_per_move`: days allowed for each move, or none (default 3)");
    out.push_str("\n- `order`: random (default) to draw who sits where, or joined to seat players as they joined");
    out.push_str("\n- `bots`: computer players in the last seats (you keep one), with `level`: easy, medium (default) or hard");
    out.push_str("\n- `rated`: yes (default), or no for a casual game that changes no rating");
    Ok(out)
}

/// Takes every positional word as one text (a move or a secret choice), but a last word that
/// is a game number when there are more words before it: `/move K R 1` and `/secret B Q 1`
/// play in game 1, as the slash command's `game` argument would.
fn words_before_game(pos: &mut Vec<String>, named: &[(String, String)]) -> String {
    let last_is_game = pos.len() > 1
        && pos.last().is_some_and(|g| parse_game(g).is_ok())
        && named.iter().all(|(k, _)| k != "game");
    let game_word = if last_is_game { pos.pop() } else { None };
    let text = std::mem::take(pos).join(" ");
    pos.extend(game_word);
    text
}

/// The words of `/rating`: a user's name and a variant, either left out. Words that together
/// name a variant (`doubles partners`) are the variant; otherwise the first word is the user
/// and the rest the variant. Words left over stay in `pos`, to be refused.
fn user_and_variant(
    pos: &mut Vec<String>,
    user: Option<String>,
    variant: Option<String>,
) -> (Option<String>, Option<String>) {
    let joined = |words: &[String]| (!words.is_empty()).then(|| words.join(" "));
    match (user, variant) {
        (Some(user), None) => {
            let variant = joined(pos.as_slice());
            pos.clear();
            (Some(user), variant)
        }
        (None, Some(variant)) if !pos.is_empty() => (Some(pos.remove(0)), Some(variant)),
        (None, None) if !pos.is_empty() => {
            if ratings::pools_named(&pos.join(" ")).is_ok() {
                let variant = joined(pos.as_slice());
                pos.clear();
                (None, variant)
            } else {
                let user = pos.remove(0);
                let variant = joined(pos.as_slice());
                pos.clear();
                (Some(user), variant)
            }
        }
        given => given,
    }
}

/// Reads a game reference: `12`, `#12`, `game-12`.
pub fn parse_game(text: &str) -> Result<GameId, String> {
    let t = text
        .trim()
        .trim_start_matches('#')
        .trim_start_matches("game-")
        .trim_start_matches("game");
    t.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .map(GameId)
        .ok_or_else(|| format!("'{text}' is not a game number"))
}

/// Reads a command written as text: the name and its arguments in the slash command's order,
/// or as `name:value`.
pub fn parse_text(name: &str, args: &str) -> Result<Command, String> {
    let mut positional: Vec<String> = Vec::new();
    let mut named: Vec<(String, String)> = Vec::new();
    const NAMES: [&str; 10] = [
        "game", "variant", "options", "move", "players", "decision", "choice", "show", "user",
        "page",
    ];
    for word in args.split_whitespace() {
        match word.split_once(':') {
            Some((k, v)) if NAMES.contains(&k.to_ascii_lowercase().as_str()) => {
                named.push((k.to_ascii_lowercase(), v.to_string()))
            }
            _ => positional.push(word.to_string()),
        }
    }
    let take = |key: &str, named: &mut Vec<(String, String)>| -> Option<String> {
        let i = named.iter().position(|(k, _)| k == key)?;
        Some(named.remove(i).1)
    };
    let game = |named: &mut Vec<(String, String)>,
                positional: &mut Vec<String>|
     -> Result<Option<GameId>, String> {
        if let Some(g) = take("game", named) {
            return parse_game(&g).map(Some);
        }
        match positional.first() {
            Some(p) => {
                let g = parse_game(p)?;
                positional.remove(0);
                Ok(Some(g))
            }
            None => Ok(None),
        }
    };
    let mut pos = positional;
    let command = match name.to_ascii_lowercase().as_str() {
        "play" => {
            let variant = match take("variant", &mut named) {
                Some(v) => v,
                None if !pos.is_empty() => {
                    // A name of two words (`Cylindrical Chess`, `american checkers`).
                    let first = pos.remove(0);
                    let two = pos.first().map(|second| format!("{first} {second}"));
                    match two {
                        Some(two) if registry::variant_or_preset(&two).is_ok() => {
                            pos.remove(0);
                            two
                        }
                        _ => first,
                    }
                }
                None => {
                    return Err(
                        "/play needs a variant, for example /play chess (see /variants)".into(),
                    )
                }
            };
            let players = match take("players", &mut named) {
                Some(p) => Some(
                    p.parse()
                        .map_err(|_| format!("players must be a number, not '{p}'"))?,
                ),
                None => None,
            };
            let mut options = take("options", &mut named).unwrap_or_default();
            for p in pos.drain(..) {
                if !options.is_empty() {
                    options.push(' ');
                }
                options.push_str(&p);
            }
            Command::Play {
                variant,
                options,
                players,
            }
        }
        "join" => Command::Join {
            game: game(&mut named, &mut pos)?,
        },
        "leave" => Command::Leave {
            game: game(&mut named, &mut pos)?,
        },
        "start" => Command::Start {
            game: game(&mut named, &mut pos)?,
        },
        "abort" => Command::Abort {
            game: game(&mut named, &mut pos)?,
        },
        "addbot" => {
            let level = take("level", &mut named).or_else(|| {
                let first = pos.first()?;
                parse_game(first).is_err().then(|| pos.remove(0))
            });
            Command::AddBot {
                level,
                game: game(&mut named, &mut pos)?,
            }
        }
        "board" => Command::Board {
            show: take("show", &mut named),
            game: game(&mut named, &mut pos)?,
        },
        "moves" => Command::Moves {
            game: game(&mut named, &mut pos)?,
        },
        "resign" => Command::Resign {
            game: game(&mut named, &mut pos)?,
        },
        "move" => {
            // Without a move the service answers, with an example in the game's own notation.
            // A move may hold spaces (Trimens' `2 O-O`, Doubles Chess's `Q x K`).
            let text =
                take("move", &mut named).unwrap_or_else(|| words_before_game(&mut pos, &named));
            Command::Move {
                text,
                game: game(&mut named, &mut pos)?,
            }
        }
        "secret" => {
            // A secret may hold spaces (an assignment like KR QK RN BB NQ, a pair of cards).
            let text =
                take("choice", &mut named).unwrap_or_else(|| words_before_game(&mut pos, &named));
            if text.is_empty() {
                return Err("/secret needs your choice, for example /secret b2".into());
            }
            Command::Secret {
                text,
                game: game(&mut named, &mut pos)?,
            }
        }
        "draw" => {
            let word = take("decision", &mut named)
                .or_else(|| take("choice", &mut named))
                .or_else(|| {
                    let first = pos.first()?.to_ascii_lowercase();
                    matches!(first.as_str(), "offer" | "accept" | "decline").then(|| pos.remove(0))
                });
            let choice = match word.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None | Some("offer") => DrawChoice::OfferOrAccept,
                Some("accept") => DrawChoice::Accept,
                Some("decline") => DrawChoice::Decline,
                Some(other) => {
                    return Err(format!(
                        "/draw takes offer, accept or decline, not '{other}'"
                    ))
                }
            };
            Command::Draw {
                choice,
                game: game(&mut named, &mut pos)?,
            }
        }
        "takeback" => {
            let word = take("decision", &mut named)
                .or_else(|| take("choice", &mut named))
                .or_else(|| {
                    let first = pos.first()?.to_ascii_lowercase();
                    matches!(first.as_str(), "ask" | "accept" | "decline").then(|| pos.remove(0))
                });
            let choice = match word.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None | Some("ask") => TakebackChoice::Ask,
                Some("accept") => TakebackChoice::Accept,
                Some("decline") => TakebackChoice::Decline,
                Some(other) => {
                    return Err(format!(
                        "/takeback takes ask, accept or decline, not '{other}'"
                    ))
                }
            };
            Command::Takeback {
                choice,
                game: game(&mut named, &mut pos)?,
            }
        }
        "rematch" => Command::Rematch {
            game: game(&mut named, &mut pos)?,
        },
        "history" => {
            let page = match take("page", &mut named) {
                Some(p) => Some(
                    p.parse::<usize>()
                        .map_err(|_| format!("page must be a number, not '{p}'"))?,
                ),
                None => None,
            };
            let mut user = take("user", &mut named);
            let mut variant = take("variant", &mut named);
            // Positional words: a game's name is the variant, anything else the player.
            for word in pos.drain(..) {
                if variant.is_none() && registry::variant_or_preset(&word).is_ok() {
                    variant = Some(word);
                } else if user.is_none() {
                    user = Some(word);
                } else {
                    return Err(format!("/history does not take '{word}'"));
                }
            }
            Command::History {
                user,
                variant,
                page,
            }
        }
        "game" => Command::GameInfo {
            game: game(&mut named, &mut pos)?
                .ok_or("/game needs a game number, for example /game 12")?,
        },
        "games" => Command::Games,
        "export" => Command::Export {
            game: game(&mut named, &mut pos)?,
        },
        "replay" => Command::Replay {
            game: game(&mut named, &mut pos)?,
        },
        "variants" => Command::Variants,
        "inbox" => Command::Inbox,
        "help" => Command::Help,
        "scores" => {
            let variant = take("variant", &mut named)
                .or_else(|| (!pos.is_empty()).then(|| pos.remove(0)))
                .ok_or("/scores needs a variant, for example /scores cooperative")?;
            Command::Scores { variant }
        }
        "rating" => {
            let user = take("user", &mut named);
            let variant = take("variant", &mut named);
            let (user, variant) = user_and_variant(&mut pos, user, variant);
            Command::Rating {
                user: user.map(Who::Name),
                variant,
            }
        }
        "leaderboard" => {
            let variant = take("variant", &mut named)
                .or_else(|| (!pos.is_empty()).then(|| std::mem::take(&mut pos).join(" ")))
                .ok_or("/leaderboard needs a variant, for example /leaderboard chess")?;
            Command::Leaderboard { variant }
        }
        "stats" => {
            let user =
                take("user", &mut named).or_else(|| (!pos.is_empty()).then(|| pos.remove(0)));
            Command::Stats {
                user: user.map(Who::Name),
            }
        }
        "rules" => {
            let variant = take("variant", &mut named)
                .or_else(|| (!pos.is_empty()).then(|| pos.remove(0)))
                .ok_or("/rules needs a variant, for example /rules chess960")?;
            Command::Rules { variant }
        }
        other => {
            let names: Vec<&str> = COMMANDS.iter().map(|c| c.0).collect();
            return Err(format!(
                "unknown command /{other}; commands: /{}",
                names.join(", /")
            ));
        }
    };
    if let Some(extra) = pos.first() {
        return Err(format!("/{name} does not take '{extra}'"));
    }
    if let Some((k, _)) = named.first() {
        return Err(format!("/{name} has no option '{k}'"));
    }
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_commands_read_like_slash_commands() {
        assert_eq!(
            parse_text("play", "chess960 start=518 days_per_move=none").unwrap(),
            Command::Play {
                variant: "chess960".into(),
                options: "start=518 days_per_move=none".into(),
                players: None
            }
        );
        assert_eq!(
            parse_text("play", "variant:chess options:days=2").unwrap(),
            Command::Play {
                variant: "chess".into(),
                options: "days=2".into(),
                players: None
            }
        );
        assert_eq!(
            parse_text("move", "e4").unwrap(),
            Command::Move {
                text: "e4".into(),
                game: None
            }
        );
        assert_eq!(
            parse_text("move", "e8=Q game:3").unwrap(),
            Command::Move {
                text: "e8=Q".into(),
                game: Some(GameId(3))
            }
        );
        assert_eq!(
            parse_text("move", "Nf3 #4").unwrap(),
            Command::Move {
                text: "Nf3".into(),
                game: Some(GameId(4))
            }
        );
        assert_eq!(
            parse_text("moves", "#3").unwrap(),
            Command::Moves {
                game: Some(GameId(3))
            }
        );
        assert_eq!(
            parse_text("join", "2").unwrap(),
            Command::Join {
                game: Some(GameId(2))
            }
        );
        assert_eq!(
            parse_text("draw", "decline").unwrap(),
            Command::Draw {
                choice: DrawChoice::Decline,
                game: None
            }
        );
        assert_eq!(
            parse_text("draw", "").unwrap(),
            Command::Draw {
                choice: DrawChoice::OfferOrAccept,
                game: None
            }
        );
        assert_eq!(
            parse_text("draw", "accept 2").unwrap(),
            Command::Draw {
                choice: DrawChoice::Accept,
                game: Some(GameId(2))
            }
        );
        assert!(parse_text("dance", "")
            .unwrap_err()
            .contains("unknown command /dance"));
        assert_eq!(
            parse_text("move", "game:3").unwrap(),
            Command::Move {
                text: String::new(),
                game: Some(GameId(3))
            }
        );
        assert!(parse_text("join", "x")
            .unwrap_err()
            .contains("not a game number"));
        assert_eq!(
            parse_text("export", "#3").unwrap(),
            Command::Export {
                game: Some(GameId(3))
            }
        );
        assert_eq!(
            parse_text("replay", "").unwrap(),
            Command::Replay { game: None }
        );
        assert!(parse_text("games", "extra")
            .unwrap_err()
            .contains("does not take"));
    }

    #[test]
    fn rematch_takeback_history_and_game_read_from_text() {
        assert_eq!(
            parse_text("rematch", "3").unwrap(),
            Command::Rematch {
                game: Some(GameId(3))
            }
        );
        assert_eq!(
            parse_text("takeback", "").unwrap(),
            Command::Takeback {
                choice: TakebackChoice::Ask,
                game: None
            }
        );
        assert_eq!(
            parse_text("takeback", "decline 2").unwrap(),
            Command::Takeback {
                choice: TakebackChoice::Decline,
                game: Some(GameId(2))
            }
        );
        assert!(parse_text("takeback", "maybe")
            .unwrap_err()
            .contains("not a game number"));
        assert_eq!(
            parse_text("history", "bob chess page:2").unwrap(),
            Command::History {
                user: Some("bob".into()),
                variant: Some("chess".into()),
                page: Some(2)
            }
        );
        assert_eq!(
            parse_text("history", "").unwrap(),
            Command::History {
                user: None,
                variant: None,
                page: None
            }
        );
        assert_eq!(
            parse_text("history", "user:chess").unwrap(),
            Command::History {
                user: Some("chess".into()),
                variant: None,
                page: None
            }
        );
        assert!(parse_text("history", "page:two")
            .unwrap_err()
            .contains("page must be a number"));
        assert_eq!(
            parse_text("game", "#12").unwrap(),
            Command::GameInfo { game: GameId(12) }
        );
        assert!(parse_text("game", "")
            .unwrap_err()
            .contains("needs a game number"));
    }

    #[test]
    fn rating_commands_tell_a_user_from_a_variant() {
        let rating = |args: &str| parse_text("rating", args).unwrap();
        let name = |n: &str| Some(Who::Name(n.into()));
        assert_eq!(
            rating(""),
            Command::Rating {
                user: None,
                variant: None
            }
        );
        assert_eq!(
            rating("chess"),
            Command::Rating {
                user: None,
                variant: Some("chess".into())
            }
        );
        assert_eq!(
            rating("doubles partners"),
            Command::Rating {
                user: None,
                variant: Some("doubles partners".into())
            }
        );
        assert_eq!(
            rating("bob"),
            Command::Rating {
                user: name("bob"),
                variant: None
            }
        );
        assert_eq!(
            rating("bob doubles partners"),
            Command::Rating {
                user: name("bob"),
                variant: Some("doubles partners".into())
            }
        );
        assert_eq!(
            rating("variant:chess user:bob"),
            Command::Rating {
                user: name("bob"),
                variant: Some("chess".into())
            }
        );
        assert_eq!(
            parse_text("leaderboard", "doubles cutthroat").unwrap(),
            Command::Leaderboard {
                variant: "doubles cutthroat".into()
            }
        );
        assert!(parse_text("leaderboard", "")
            .unwrap_err()
            .contains("needs a variant"));
        assert_eq!(
            parse_text("stats", "").unwrap(),
            Command::Stats { user: None }
        );
        assert_eq!(
            parse_text("stats", "carol").unwrap(),
            Command::Stats {
                user: name("carol")
            }
        );
        assert!(parse_text("stats", "carol dave")
            .unwrap_err()
            .contains("does not take"));
    }
}

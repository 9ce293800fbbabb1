//! Command-line parsing and the developer commands.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use tokio::io::AsyncBufReadExt;

use crate::console::{Console, Printer};
use crate::service::{Service, SystemClock};
use crate::store::Store;

use clap::{Parser, Subcommand};
use engine::game::Options;
use engine::registry;

/// Rookery: chess and checkers variants, played together on Discord.
///
/// Without a subcommand, Rookery runs as a Discord bot when DISCORD_TOKEN is set, and as the
/// local console otherwise.
#[derive(Debug, Parser)]
#[command(name = "rookery", version, about)]
pub struct Cli {
    /// The database: an SQLite file (created if missing), or a PostgreSQL URL
    /// (`postgres://user:password@host/database`) for several processes sharing one database.
    /// Without it, DATABASE_URL, else `rookery.db`.
    #[arg(long, env = "ROOKERY_DB", global = true)]
    pub db: Option<String>,
    /// The Discord bot token; without it Rookery runs the local console.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// A server (guild) id to register commands in instantly while developing.
    #[arg(long, env = "ROOKERY_GUILD")]
    pub guild: Option<u64>,
    /// Send Discord REST requests to this base URL (an API proxy that rate-limits, or a
    /// stand-in Discord for tests) instead of https://discord.com.
    #[arg(long, env = "ROOKERY_DISCORD_API")]
    pub api: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play locally: read `@user /command args` lines, print what everyone would see.
    Local {
        /// Where board images are written.
        #[arg(long, default_value = "rookery-images")]
        out: PathBuf,
        /// Users whose direct messages count as closed (to try the /inbox fallback).
        #[arg(long = "closed-dms", value_delimiter = ',')]
        closed_dms: Vec<String>,
        /// Draw the games' seats, deals and computer players' choices from this seed, so a run
        /// repeats exactly (for transcripts and tests).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Run the Discord bot (needs DISCORD_TOKEN).
    Discord {
        /// The Discord shards this process runs: `FIRST-LAST` (or one shard id) with
        /// --shard-count, as in `--shards 0-3 --shard-count 8`; or `auto` for every shard, as
        /// many as Discord recommends. Without it, one shard (a bot that does not shard).
        /// Processes sharing one database each take their own range: overlapping ones are
        /// refused.
        #[arg(long, env = "ROOKERY_SHARDS", value_name = "FIRST-LAST|auto")]
        shards: Option<String>,
        /// The bot's total number of shards, the same for every process of the bot (alone, this
        /// process runs all of them).
        #[arg(long, env = "ROOKERY_SHARD_COUNT", value_name = "COUNT")]
        shard_count: Option<u32>,
    },
    /// Print the link that adds Rookery to a Discord server with exactly the permissions it
    /// needs and its slash commands (no token needed).
    Invite {
        /// The bot's application id (Developer Portal, General Information).
        #[arg(long)]
        client_id: u64,
    },
    /// Count the leaves of the legal move tree of a variant (perft), to test its move generator.
    Perft {
        /// The variant id, as in /variants (chess, chess960, ...).
        #[arg(long)]
        variant: String,
        /// Start from this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// A variant option as key=value; repeat for several (`players=4` seats four).
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// How many moves deep to count.
        #[arg(long)]
        depth: u32,
        /// Print each first move with the count below it.
        #[arg(long)]
        divide: bool,
    },
    /// Play random games of a variant to their end through the registry, each action read back
    /// from its text and the state stored and reloaded after each, with random resignations
    /// and timeouts mixed in. One line per game, then `N games, N finished, N errors`; exits
    /// with an error if any game went wrong.
    Playout {
        /// The variant id, as in /variants.
        #[arg(long)]
        variant: String,
        /// A variant option as key=value; repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// How many games.
        #[arg(long, default_value_t = 10)]
        games: u64,
        /// The first game's seed; game n uses seed + n.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seats at the table (default: the variant's smallest count).
        #[arg(long)]
        players: Option<usize>,
        /// Actions after which a game is left unfinished.
        #[arg(long, default_value_t = 3_000)]
        max_actions: usize,
    },
    /// Solve a Chess Golf hole: print the shortest number of moves and one path.
    Golf {
        /// The board (FEN piece placement; no pawns).
        #[arg(long)]
        fen: String,
        /// The chosen types, two or three letters, upper case White: `K,b`.
        #[arg(long)]
        chosen: String,
        /// Give up after this many moves.
        #[arg(long, default_value_t = 12)]
        max_moves: usize,
    },
    /// Play whole games between seats (`ai:easy|medium|hard`, `random`, or an external UCI
    /// engine `uci:PATH[,Name=Value...]` for chess and chess960), rotating the seats between
    /// games. One line per game, then each seat's score (`ai:hard=37.5/40 random=2.5/40`) and,
    /// for two seats, the Elo difference with its 95% interval.
    Arena {
        /// The variant id, as in /variants.
        #[arg(long)]
        variant: String,
        /// A variant option as key=value; repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// One seat; repeat for each seat of the game, in seat order for the first game.
        #[arg(long = "seat", value_name = "SEAT", required = true)]
        seats: Vec<String>,
        /// How many games.
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// The first game's seed; game n uses seed + n.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A UCI engine's time for each move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Actions after which a game is scored as a draw.
        #[arg(long, default_value_t = 1000)]
        max_actions: usize,
        /// Start the games from these openings instead of the start position: a file with
        /// one opening a line, its actions as players type them (`e4 e5 Nf3 Nc6 Bb5`), after
        /// an optional `Name |`; lines starting with `#` are comments. Each opening is played
        /// once with every rotation of the seats (by whole teams among partners), then the next.
        #[arg(long, value_name = "FILE")]
        openings: Option<std::path::PathBuf>,
        /// Also print each game's actions, in order, on the line after its result.
        #[arg(long)]
        moves: bool,
    },
    /// Rookery's chess searcher as a UCI engine on standard input and output (standard chess,
    /// and Chess960 with the UCI_Chess960 option), for chess GUIs and engine matches.
    Uci,
    /// Load test on the database --db names: sets up N active games of mixed variants through
    /// the service (/play with a clock, /join), then plays R legal actions a second for S
    /// seconds in games picked at random (open loop: each action's latency counts from when it
    /// was due), board images drawn, clocks ticking every second and posts delivered. Prints
    /// the setup time, actions and errors, throughput, p50/p99/max latency per action, the
    /// clock tick's p99 and the database's size; exits 2 if any action failed.
    Loadtest {
        /// Active games to set up (a rotation of chess, checkers, shadow, zombie, synchronous,
        /// chess960, doubles for four and trimens for three).
        #[arg(long, value_name = "N")]
        games: usize,
        /// Actions a second.
        #[arg(long, value_name = "R")]
        rate: f64,
        /// How long the actions go on, in seconds.
        #[arg(long, value_name = "S")]
        seconds: f64,
        /// Seeds the games and the choice of games and actions, so runs repeat.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Concurrent tasks setting the games up.
        #[arg(long, default_value_t = 4)]
        setup_tasks: usize,
    },
    /// Read a game's record (PGN, PDN or Rookery's JSON record, as /export writes them), replay
    /// every action through the rules and report the first one that is refused or reads back
    /// differently; else print the final position. With --gif, write the game as an animated
    /// GIF.
    Replay {
        /// The record file.
        file: PathBuf,
        /// Write every position as an animated GIF here.
        #[arg(long)]
        gif: Option<PathBuf>,
        /// See the replay from this seat: 1 (White), 2 (Black), 3...; or white / black. Without
        /// it the board is drawn for a spectator, every secret in the record told.
        #[arg(long)]
        seat: Option<String>,
    },
    /// Draw a variant's board as a PNG, as a player or spectator would see it.
    Render {
        /// The variant id, as in /variants (chess, chess960, ...).
        #[arg(long)]
        variant: String,
        /// Show this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// A variant option as key=value; repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// See the board from this seat: 1 (White), 2 (Black), 3...; or white / black.
        /// Without it the board is drawn for a spectator.
        #[arg(long)]
        seat: Option<String>,
        /// Where to write the PNG.
        #[arg(short = 'o', long = "output")]
        output: std::path::PathBuf,
    },
}

/// Runs the binary: logs, then the chosen command.
pub fn main(cli: Cli) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,bot=info")),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a person at a terminal, never in a log file or a pipe.
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    // Unlocked handles: each write takes the lock briefly. Holding standard error's lock for
    // the whole run would block every log line written from another thread (the bot's
    // workers) for ever.
    run(cli, &mut std::io::stdout(), &mut std::io::stderr())
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))
}

async fn open_service(db: &str) -> Result<Service, String> {
    Ok(Service::new(open_store(db).await?, Arc::new(SystemClock)))
}

/// The database `--db` names, with a sentence saying why it could not be opened.
async fn open_store(db: &str) -> Result<Store, String> {
    Store::connect(db)
        .await
        .map_err(|e| database_error(&shown_db(db), &e))
}

/// Why a database could not be opened, in words an admin can act on (nothing was written).
fn database_error(db: &str, error: &crate::store::DbError) -> String {
    use crate::store::{DbError, InUse};
    use sqlx::migrate::MigrateError;
    match error {
        DbError::Configuration(e) if e.downcast_ref::<InUse>().is_some() => e.to_string(),
        DbError::Configuration(e) => format!(
            "{db} is not a database Rookery can use ({e}): give an SQLite file's path or a URL \
             like postgres://user:password@host:5432/database"
        ),
        DbError::Io(e) => format!("could not reach the database {db}: {e}"),
        DbError::PoolTimedOut => format!("could not reach the database {db}: it did not answer"),
        DbError::Migrate(m) => match &**m {
            MigrateError::VersionMissing(v) => format!(
                "the database {db} has been brought to schema version {v} by a newer Rookery \
                 than this one; nothing was changed: run the newer version"
            ),
            other => format!("could not bring the database {db} up to date: {other}"),
        },
        other => format!("could not open the database {db}: {other}"),
    }
}

/// A database's name fit to print: a URL's password left out.
fn shown_db(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &db[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &db[..scheme + 3], &db[at..]),
                None => db.to_string(),
            }
        }
        _ => db.to_string(),
    }
}

/// The database to use: `--db` or ROOKERY_DB, else DATABASE_URL, else `rookery.db`.
fn database(cli_db: Option<String>) -> String {
    cli_db
        .filter(|d| !d.trim().is_empty())
        .or_else(|| {
            std::env::var("DATABASE_URL")
                .ok()
                .filter(|d| !d.trim().is_empty())
        })
        .unwrap_or_else(|| "rookery.db".to_string())
}

/// The Discord bot, until Ctrl-C or SIGTERM.
fn discord(
    db: &str,
    token: String,
    guild: Option<u64>,
    api: Option<String>,
    shards: crate::shards::Shards,
) -> Result<(), String> {
    runtime()?.block_on(async {
        let service = Arc::new(open_service(db).await?);
        let connection = crate::discord::Connection { token, api };
        let settings = crate::discord::Settings {
            guild,
            shards,
            ..crate::discord::Settings::default()
        };
        let result = crate::discord::run(service.clone(), connection, settings).await;
        // A clean stop hands the outbox and clocks to the other processes at once.
        if let Err(e) = service.release_leases().await {
            tracing::warn!("giving up the leases: {e:?}");
        }
        service.store().close().await;
        result
    })
}

/// The local console on standard input and output.
fn local(db: &str, out: PathBuf, closed_dms: Vec<String>, seed: Option<u64>) -> Result<(), String> {
    runtime()?.block_on(async {
        let service = match seed {
            Some(seed) => Service::with_seed(open_store(db).await?, Arc::new(SystemClock), seed),
            None => open_service(db).await?,
        };
        let printer = Printer::new(
            Box::new(std::io::stdout()),
            out,
            closed_dms.into_iter().collect(),
        );
        let console = Console::new(&service, &printer);
        let interactive = std::io::stdin().is_terminal();
        if interactive {
            println!(
                "Rookery console on {}. Type lines like `@alice /play chess`, `@bob /join 1`, \
                 `@alice /move e4`; `@you /help` lists the commands; Ctrl-D quits.",
                shown_db(db)
            );
        }
        // Deliver anything left from an earlier run first.
        console.settle().await;
        let stdin = tokio::io::BufReader::new(tokio::io::stdin());
        run_lines(stdin, &console, &printer, !interactive).await?;
        let _ = service.release_leases().await;
        service.store().close().await;
        Ok(())
    })
}

/// Runs the console's input line by line, echoing each when `echo` (input from a file or pipe).
/// Lines are read as bytes: a line that is not UTF-8 is refused on its own and the console goes
/// on with the next.
async fn run_lines<R: tokio::io::AsyncBufRead + Unpin>(
    mut input: R,
    console: &Console<'_>,
    printer: &Printer,
    echo: bool,
) -> Result<(), String> {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = input
            .read_until(b'\n', &mut bytes)
            .await
            .map_err(|e| e.to_string())?;
        if read == 0 {
            return Ok(());
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            let shown = String::from_utf8_lossy(&bytes);
            if echo {
                printer.echo(shown.trim());
            }
            printer.error(&format!(
                "'{}': this line is not valid UTF-8 text; nothing was done",
                shown.trim()
            ));
            continue;
        };
        if echo && !line.trim().is_empty() {
            printer.echo(line.trim());
        }
        console.handle(line).await;
    }
}

/// Runs a parsed command line. Errors are messages for the user.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), String> {
    let db = database(cli.db.clone());
    // An empty DISCORD_TOKEN (`DISCORD_TOKEN= cargo run`) means no token: the console runs.
    let cli = Cli {
        token: cli.token.filter(|t| !t.trim().is_empty()),
        ..cli
    };
    match cli.command {
        Some(Command::Local {
            out,
            closed_dms,
            seed,
        }) => local(&db, out, closed_dms, seed),
        Some(Command::Discord {
            shards,
            shard_count,
        }) => {
            // Checked before anything is opened: a wrong range changes nothing.
            let shards = crate::shards::Shards::parse(shards.as_deref(), shard_count)?;
            let token = cli
                .token
                .ok_or("set DISCORD_TOKEN (or --token) to run the Discord bot")?;
            discord(&db, token, cli.guild, cli.api, shards)
        }
        None if cli.token.is_some() => {
            let token = cli.token.unwrap_or_default();
            discord(
                &db,
                token,
                cli.guild,
                cli.api,
                crate::shards::Shards::default(),
            )
        }
        None => local(&db, PathBuf::from("rookery-images"), Vec::new(), None),
        Some(Command::Invite { client_id }) => writeln!(
            out,
            "{}",
            crate::discord::permissions::invite_url(client_id)
        )
        .map_err(|e| e.to_string()),
        Some(Command::Perft {
            variant,
            fen,
            options,
            depth,
            divide,
        }) => perft(&variant, fen.as_deref(), &options, depth, divide, out, err),
        Some(Command::Playout {
            variant,
            options,
            games,
            seed,
            players,
            max_actions,
        }) => {
            let settings = engine::playout::Settings {
                seats: players,
                seed,
                max_actions,
                ..engine::playout::Settings::default()
            };
            playout(&variant, &options, games, settings, out)
        }
        Some(Command::Golf {
            fen,
            chosen,
            max_moves,
        }) => golf(&fen, &chosen, max_moves, out),
        Some(Command::Arena {
            variant,
            options,
            seats,
            games,
            seed,
            movetime,
            max_actions,
            openings,
            moves,
        }) => {
            let seats = seats
                .iter()
                .map(|s| s.parse())
                .collect::<Result<Vec<crate::arena::Contender>, String>>()?;
            let openings = match openings {
                Some(path) => {
                    let text = std::fs::read_to_string(&path).map_err(|e| {
                        format!("cannot read the openings file {}: {e}", path.display())
                    })?;
                    crate::arena::Opening::parse_list(&text)
                        .map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => Vec::new(),
            };
            let arena = crate::arena::Arena {
                variant,
                options,
                seats,
                games,
                seed,
                movetime: std::time::Duration::from_millis(movetime),
                max_actions,
                openings,
                show_moves: moves,
            };
            crate::arena::run(&arena, out).map(|_| ())
        }
        Some(Command::Uci) => crate::uci::run(&mut std::io::stdin().lock(), out),
        Some(Command::Loadtest {
            games,
            rate,
            seconds,
            seed,
            setup_tasks,
        }) => {
            let settings = crate::loadtest::Settings {
                games,
                rate,
                seconds,
                seed,
                setup_tasks,
            };
            settings.check()?;
            runtime()?.block_on(async {
                let store = open_store(&db).await?;
                crate::loadtest::run(store, &db, &settings, out)
                    .await
                    .map(|_| ())
            })
        }
        Some(Command::Replay { file, gif, seat }) => {
            replay(&file, gif.as_deref(), seat.as_deref(), out)
        }
        Some(Command::Render {
            variant,
            fen,
            options,
            seat,
            output,
        }) => render(
            &variant,
            fen.as_deref(),
            &options,
            seat.as_deref(),
            &output,
            out,
        ),
    }
}

/// `rookery golf`: the shortest solution of a Chess Golf hole, or that none is that short.
pub fn golf(fen: &str, chosen: &str, max_moves: usize, out: &mut dyn Write) -> Result<(), String> {
    use engine::variants::golf::{Chosen, GolfBoard};
    let board = GolfBoard::from_fen(fen)?;
    let chosen = Chosen::parse(chosen)?;
    let started = Instant::now();
    let solution = board.solve(&chosen, max_moves)?;
    let took = started.elapsed();
    match solution {
        Some(path) => {
            let moves: Vec<String> = path
                .iter()
                .map(|m| format!("{m} (as {})", m.borrowed.name()))
                .collect();
            writeln!(out, "{}: {}", count_moves(path.len()), moves.join(", "))
                .map_err(|e| e.to_string())?;
        }
        None => writeln!(out, "no solution in {} or fewer", count_moves(max_moves))
            .map_err(|e| e.to_string())?,
    }
    // Said also when nothing was found: the search is what took the time.
    writeln!(out, "searched in {} ms", took.as_millis()).map_err(|e| e.to_string())
}

/// "1 move", "3 moves".
fn count_moves(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// `rookery playout`: random games to their end; an error if any went wrong.
pub fn playout(
    variant: &str,
    options: &[String],
    games: u64,
    settings: engine::playout::Settings,
    out: &mut dyn Write,
) -> Result<(), String> {
    let game = registry::variant(variant).map_err(|e| e.to_string())?;
    // `--option players=N` seats N, as in `rookery perft` and /play; `--players` wins if both.
    let (seats, options) = seats_and_options(game, options)?;
    let settings = engine::playout::Settings {
        seats: settings.seats.or(seats),
        ..settings
    };
    if let Some(count) = settings.seats {
        game.info().check_seats(count).map_err(|e| e.to_string())?;
    }
    let options = Options::parse(&options).map_err(|e| e.to_string())?;
    game.info()
        .check_options(&options)
        .map_err(|e| e.to_string())?;
    let (mut finished, mut errors) = (0, 0);
    for n in 0..games {
        let settings = engine::playout::Settings {
            seed: settings.seed.wrapping_add(n),
            ..settings.clone()
        };
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine::playout::random_game(game, &options, &settings)
        }))
        .unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!(
                "{} (seed {}): panicked: {why}",
                game.info().id,
                settings.seed
            ))
        });
        let line = match played {
            Ok(p) => {
                let moves: Vec<&str> = p.actions.iter().map(|(_, t)| t.as_str()).collect();
                let end = match p.describe_outcome() {
                    Some(outcome) => {
                        finished += 1;
                        outcome
                    }
                    None => format!("unfinished after {} actions", p.actions.len()),
                };
                format!(
                    "game {} (seed {}): {} actions: {} | {end}",
                    n + 1,
                    settings.seed,
                    moves.len(),
                    moves.join(" ")
                )
            }
            Err(e) => {
                errors += 1;
                format!("game {} ERROR {e}", n + 1)
            }
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    writeln!(out, "{games} games, {finished} finished, {errors} errors")
        .map_err(|e| e.to_string())?;
    if errors > 0 {
        return Err(format!("{errors} of {games} games went wrong"));
    }
    Ok(())
}

/// Splits `players=N` (or `seats=N`) from the other options, as /play does: the number of
/// seats, checked against the variant's counts, and the options left.
fn seats_and_options(
    game: &dyn engine::game::AnyGame,
    options: &[String],
) -> Result<(Option<usize>, Vec<String>), String> {
    let mut seats = None;
    let mut rest = Vec::new();
    for option in options {
        match option.split_once('=') {
            Some((key, value)) if key.trim() == "players" || key.trim() == "seats" => {
                let count = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("players must be a number, not '{value}'"))?;
                game.info().check_seats(count).map_err(|e| e.to_string())?;
                seats = Some(count);
            }
            _ => rest.push(option.clone()),
        }
    }
    Ok((seats, rest))
}

/// A game of `variant` set up from the command line's options.
fn start_game(
    variant: &str,
    fen: Option<&str>,
    options: &[String],
) -> Result<(&'static dyn engine::game::AnyGame, engine::game::AnyState), String> {
    let game = registry::variant(variant).map_err(|e| e.to_string())?;
    let (seats, rest) = seats_and_options(game, options)?;
    let seats = seats.unwrap_or_else(|| game.info().default_seats());
    let mut opts = Options::parse(&rest).map_err(|e| e.to_string())?;
    if let Some(fen) = fen {
        opts.set("fen", fen);
    }
    let state = game.setup(&opts, seats, 0).map_err(|e| e.to_string())?;
    Ok((game, state))
}

/// Reads a seat given as a 1-based number or a colour name.
fn parse_seat(text: &str, seats: usize) -> Result<engine::Seat, String> {
    let wanted = text.trim().to_ascii_lowercase();
    let index = match wanted.as_str() {
        "white" => Some(0),
        "black" => Some(1),
        n => n.parse::<usize>().ok().filter(|n| *n >= 1).map(|n| n - 1),
    };
    match index {
        Some(i) if i < seats => Ok(engine::Seat(i as u8)),
        _ => Err(format!(
            "--seat must be a number from 1 to {seats} (or white / black), not '{text}'"
        )),
    }
}

/// `rookery replay`: replays a record and prints its final position, or where it disagrees
/// with the rules (an error); with `gif`, writes the animated replay and prints its path.
pub fn replay(
    file: &std::path::Path,
    gif: Option<&std::path::Path>,
    seat: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("could not read {}: {e}", file.display()))?;
    let record = engine::record::read(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let replayed = engine::record::replay(&record)
        .map_err(|e| format!("{}: the record and the rules disagree: {e}", file.display()))?;
    writeln!(out, "{}", replayed.summary(&record)).map_err(|e| e.to_string())?;
    if let Some(path) = gif {
        let viewer = match seat {
            Some(s) => engine::Viewer::Seat(parse_seat(s, record.seats.len())?),
            None => engine::Viewer::Spectator,
        };
        let views = replayed
            .frames(&record, viewer, true)
            .map_err(|e| e.to_string())?;
        let bytes = render::gif::render_gif(&views).map_err(|e| e.to_string())?;
        std::fs::write(path, bytes)
            .map_err(|e| format!("could not write {}: {e}", path.display()))?;
        writeln!(out, "{}", path.display()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `rookery render`: writes the board as a PNG and prints the file's path.
pub fn render(
    variant: &str,
    fen: Option<&str>,
    options: &[String],
    seat: Option<&str>,
    output: &std::path::Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    let (game, state) = start_game(variant, fen, options)?;
    let seats = game
        .view(&state, engine::Viewer::Spectator)
        .map_or(2, |v| v.players.len());
    let viewer = match seat {
        Some(s) => engine::Viewer::Seat(parse_seat(s, seats)?),
        None => engine::Viewer::Spectator,
    };
    let view = game.view(&state, viewer).map_err(|e| e.to_string())?;
    let png = render::render_png(&view).map_err(|e| e.to_string())?;
    std::fs::write(output, png)
        .map_err(|e| format!("could not write {}: {e}", output.display()))?;
    writeln!(out, "{}", output.display()).map_err(|e| e.to_string())
}

/// `rookery perft`: prints `move: count` lines with `--divide`, and always ends with the total.
pub fn perft(
    variant: &str,
    fen: Option<&str>,
    options: &[String],
    depth: u32,
    divide: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    let (game, state) = start_game(variant, fen, options)?;
    let no_perft = || format!("{} has no perft", game.info().name);
    let started = Instant::now();
    let total = if divide {
        let mut rows = game
            .divide(&state, depth)
            .map_err(|e| e.to_string())?
            .ok_or_else(no_perft)?;
        rows.sort();
        for (text, count) in &rows {
            writeln!(out, "{text}: {count}").map_err(|e| e.to_string())?;
        }
        if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        }
    } else {
        game.perft(&state, depth)
            .map_err(|e| e.to_string())?
            .ok_or_else(no_perft)?
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{total}").map_err(|e| e.to_string())?;
    let _ = writeln!(
        err,
        "perft({depth}) = {total} in {seconds:.3} s ({:.1} M nodes/s)",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_perft(args: &[&str]) -> Result<String, String> {
        let mut argv = vec!["rookery", "perft"];
        argv.extend_from_slice(args);
        let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err)?;
        Ok(String::from_utf8(out).unwrap())
    }

    /// Output shared between a printer and the test that reads it.
    #[derive(Clone, Default)]
    struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// `rookery replay` reads a PGN back, prints the final position and writes the GIF; a
    /// changed move is reported with its number.
    #[test]
    fn replay_reads_a_record_back_and_writes_its_gif() {
        let dir = std::env::temp_dir().join(format!("rookery-cli-replay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("mate.pgn");
        std::fs::write(
            &pgn,
            "[Event \"x\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
             [White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
        )
        .unwrap();
        let gif = dir.join("mate.gif");
        let cli = Cli::try_parse_from([
            "rookery",
            "replay",
            pgn.to_str().unwrap(),
            "--gif",
            gif.to_str().unwrap(),
        ])
        .unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("4 actions replayed"), "{out}");
        assert!(out.contains("Result: Black wins by checkmate."), "{out}");
        assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
        let bad = dir.join("bad.pgn");
        std::fs::write(&bad, "[Event \"x\"]\n\n1. f3 e5 2. Kf3 *\n").unwrap();
        let cli = Cli::try_parse_from(["rookery", "replay", bad.to_str().unwrap()]).unwrap();
        let e = run(cli, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(e.contains("action 3: White Kf3 is refused"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Newcomer report 5: one byte that is not UTF-8 ended the console and dropped the rest.
    #[test]
    fn a_line_that_is_not_utf8_is_refused_and_the_console_goes_on() {
        let dir = std::env::temp_dir().join(format!("rookery-cli-utf8-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let shared = Shared::default();
        runtime()
            .unwrap()
            .block_on(async {
                let service = open_service(&dir.join("u.db").display().to_string()).await?;
                let printer = Printer::new(
                    Box::new(shared.clone()),
                    dir.join("images"),
                    Default::default(),
                );
                let console = Console::new(&service, &printer);
                let input: &[u8] = b"@alice /play chess\n@alice /move \xff\xfe\n@bob /join 1\n";
                run_lines(input, &console, &printer, true).await?;
                service.store().close().await;
                Ok::<(), String>(())
            })
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let out = String::from_utf8(shared.0.lock().unwrap().clone()).unwrap();
        assert!(
            out.contains("ERROR: '@alice /move \u{fffd}\u{fffd}': this line is not valid UTF-8"),
            "{out}"
        );
        assert!(out.contains("EPHEMERAL bob: You joined game 1."), "{out}");
    }

    /// Issue 27 item 24: `--option players=N` seats N in playouts as in perft and /play.
    #[test]
    fn playout_takes_players_as_an_option() {
        let cli = Cli::try_parse_from([
            "rookery",
            "playout",
            "--variant",
            "betza",
            "--option",
            "players=5",
            "--games",
            "1",
            "--max-actions",
            "40",
        ])
        .unwrap();
        let mut out = Vec::new();
        run(cli, &mut out, &mut Vec::new()).unwrap();
        let out = String::from_utf8(out).unwrap();
        // The fifth board, E, is in play.
        assert!(out.contains(" E+"), "{out}");
        assert!(
            out.contains("1 games,") && out.ends_with(" 0 errors\n"),
            "{out}"
        );
        let cli = Cli::try_parse_from([
            "rookery",
            "playout",
            "--variant",
            "chess",
            "--option",
            "players=3",
        ])
        .unwrap();
        let err = run(cli, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(err.contains("Chess is played by 2 players, not 3"), "{err}");
    }

    /// `rookery discord --shards ... --shard-count ...` is checked before the token and the
    /// database: a wrong range is a sentence naming the valid form (exit status 2 in main).
    #[test]
    fn discord_shard_options_are_checked_first() {
        for (args, needed) in [
            (
                &["--shards", "0-8", "--shard-count", "8"][..],
                "outside the 8 shards",
            ),
            (&["--shards", "0-3", "--shard-count", "0"][..], "at least 1"),
            (&["--shards", "zero"][..], "is not a shard range"),
            (
                &["--shards", "auto", "--shard-count", "2"][..],
                "does not go with it",
            ),
        ] {
            let mut argv = vec![
                "rookery",
                "--token",
                "t",
                "--db",
                "/nonexistent/x.db",
                "discord",
            ];
            argv.extend_from_slice(args);
            let cli = Cli::try_parse_from(argv).unwrap();
            let err = run(cli, &mut Vec::new(), &mut Vec::new()).unwrap_err();
            assert!(err.contains(needed), "{needed:?} missing: {err}");
            assert!(
                err.contains("--shards FIRST-LAST --shard-count COUNT"),
                "{err}"
            );
        }
        assert!(!std::path::Path::new("/nonexistent/x.db").exists());
    }

    #[test]
    fn an_empty_token_is_no_token() {
        let cli = Cli::try_parse_from(["rookery", "--token", " ", "discord"]).unwrap();
        let err = run(cli, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(err.contains("set DISCORD_TOKEN"), "{err}");
    }

    /// `rookery invite` prints the invite link from the application id alone, without a token.
    #[test]
    fn invite_prints_the_link_with_rookerys_permissions() {
        let cli = Cli::try_parse_from(["rookery", "invite", "--client-id", "123"]).unwrap();
        let mut out = Vec::new();
        run(cli, &mut out, &mut Vec::new()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "https://discord.com/oauth2/authorize?client_id=123&permissions=309237746688\
             &scope=bot%20applications.commands\n"
        );
    }

    #[test]
    fn total_is_the_last_line() {
        let out = run_perft(&["--variant", "chess", "--depth", "3"]).unwrap();
        assert_eq!(out.lines().last(), Some("8902"));
    }

    #[test]
    fn divide_lists_each_root_move() {
        let out = run_perft(&["--variant", "chess", "--depth", "2", "--divide"]).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 21);
        assert!(lines.contains(&"e2e4: 20"));
        assert_eq!(lines.last(), Some(&"400"));
    }

    #[test]
    fn chess960_by_number_and_by_fen() {
        let by_number = run_perft(&[
            "--variant",
            "chess960",
            "--option",
            "start=518",
            "--depth",
            "3",
        ])
        .unwrap();
        assert_eq!(by_number.trim(), "8902");
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let by_fen = run_perft(&["--variant", "960", "--fen", fen, "--depth", "2"]).unwrap();
        assert_eq!(by_fen.trim(), "528");
    }

    #[test]
    fn render_writes_a_png_from_the_chosen_side() {
        let dir = std::env::temp_dir().join(format!("rookery-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("black.png");
        let cli = Cli::try_parse_from([
            "rookery",
            "render",
            "--variant",
            "chess960",
            "--option",
            "start=518",
            "--seat",
            "black",
            "-o",
            path.to_str().unwrap(),
        ])
        .unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err).unwrap();
        let png = std::fs::read(&path).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(String::from_utf8(out).unwrap().contains("black.png"));
        let bad = Cli::try_parse_from([
            "rookery",
            "render",
            "--variant",
            "chess",
            "--seat",
            "5",
            "-o",
            path.to_str().unwrap(),
        ])
        .unwrap();
        let e = run(bad, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(e.contains("--seat must be a number from 1 to 2"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn golf_says_one_move_in_the_singular() {
        let mut out = Vec::new();
        // The white king borrows the rook beside it and takes the black king along rank 1.
        golf("8/8/8/8/8/8/R7/K6k", "K,k", 4, &mut out).unwrap();
        let printed = String::from_utf8(out).unwrap();
        assert!(printed.starts_with("1 move: "), "{printed}");
    }

    #[test]
    fn bad_input_is_explained() {
        let e = run_perft(&["--variant", "chezz", "--depth", "1"]).unwrap_err();
        assert!(e.contains("unknown variant 'chezz'"), "{e}");
        let e =
            run_perft(&["--variant", "chess", "--fen", "8/8/8 w - -", "--depth", "1"]).unwrap_err();
        assert!(e.contains("found 3 ranks"), "{e}");
        let e = run_perft(&[
            "--variant",
            "chess960",
            "--option",
            "start=1000",
            "--depth",
            "1",
        ])
        .unwrap_err();
        assert!(e.contains("0 to 959"), "{e}");
        let e =
            run_perft(&["--variant", "chess", "--option", "speed", "--depth", "1"]).unwrap_err();
        assert!(e.contains("key=value"), "{e}");
    }
}

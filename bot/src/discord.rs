//! The Discord frontend (poise on serenity): the only module that knows Discord.
//!
//! Slash commands only turn their options into a [`Command`] and hand it to the service; the
//! answer comes back as an ephemeral reply. Public posts (boards, announcements, mentions) and
//! direct messages come from the service's outbox, delivered by a background task that makes
//! each game's thread on first use. Buttons carry their game in their custom id and are routed
//! by a global handler, so they work after a restart.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use engine::registry;
/// serenity, as poise re-exports it: the Discord model types the tests check their fakes with.
pub use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ChannelId, ChannelType, CreateActionRow, CreateAttachment, CreateButton,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateThread, UserId,
};

use crate::commands::{self, Command, SORRY};
use crate::model::{
    self, Button, ButtonAction, GameId, Pending, Place, Post, Reply, Target, User, Who,
};
use crate::service::{Deliver, DeliveryError, DrawChoice, Service, ServiceError, TakebackChoice};
use crate::shards::{Claim, ShardRange, Shards};

/// What every command can reach.
pub struct Data {
    pub service: Arc<Service>,
}

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// Discord's longest message.
const MESSAGE_LIMIT: usize = 2000;

/// Every slash command Rookery registers.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    vec![
        play(),
        join(),
        leave(),
        start(),
        abort(),
        addbot(),
        r#move(),
        moves(),
        secret(),
        board(),
        resign(),
        draw(),
        takeback(),
        rematch(),
        games(),
        history(),
        game_summary(),
        export(),
        replay(),
        scores(),
        rating(),
        leaderboard(),
        stats(),
        variants(),
        rules(),
        inbox(),
        help(),
    ]
}

/// How to reach Discord.
#[derive(Clone)]
pub struct Connection {
    /// The bot's token.
    pub token: String,
    /// Send REST requests to this base URL instead of `https://discord.com`, with serenity's own
    /// rate limiter off: for an API proxy that does the rate limiting (twilight-http-proxy) or a
    /// stand-in such as the test suite's fake Discord. The gateway is whatever URL it gives.
    pub api: Option<String>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token.
        f.debug_struct("Connection")
            .field("api", &self.api)
            .finish_non_exhaustive()
    }
}

/// The REST client for a connection.
pub fn http(connection: &Connection) -> serenity::Http {
    let builder = serenity::HttpBuilder::new(&connection.token);
    match &connection.api {
        Some(api) => builder.proxy(api.clone()).ratelimiter_disabled(true),
        None => builder,
    }
    .build()
}

/// Runs the bot until it is stopped (Ctrl-C or SIGTERM). The caller closes the store after,
/// which folds the database's log into its file.
pub async fn run(
    service: Arc<Service>,
    connection: Connection,
    settings: Settings,
) -> Result<(), String> {
    run_with(service, http(&connection), settings, stop_signal()).await
}

/// How the bot runs, beyond where it connects.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Register the commands in this server only (instant; for development).
    pub guild: Option<u64>,
    /// How long a post may take before it counts as failed and is tried again later (the
    /// nonce keeps a post that did arrive from being doubled). Without it one hung request
    /// would hold up every post behind it.
    pub delivery_timeout: Duration,
    /// The shards this process runs (one, unsharded, by default), claimed in the database
    /// before connecting so that no other process runs them too.
    pub shards: Shards,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            guild: None,
            delivery_timeout: Duration::from_secs(30),
            shards: Shards::Single,
        }
    }
}

/// Ctrl-C, or SIGTERM where there is one.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// How many times a start-up request is tried when Discord fails for a moment.
const START_ATTEMPTS: u32 = 5;

/// Runs the bot on `http` until `stop` completes or the gateway gives up.
///
/// Start-up first settles the shards this process runs (`--shards auto` asks Discord for its
/// recommended count) and claims them in the database: if another live process runs one of
/// them, this returns that refusal before anything reaches Discord. It then reads the
/// application and registers the slash commands (in `guild`, or globally) before connecting,
/// retrying passing failures a few times; if it still fails, or Discord refuses (a bad token,
/// invalid commands), this returns the reason at once rather than connecting a bot that cannot
/// answer. The outbox courier and the clock then run beside the gateway, so posts go out even
/// while the gateway reconnects; the claims are renewed beside them and released when the bot
/// stops. The caller closes the store when this returns.
pub async fn run_with(
    service: Arc<Service>,
    http: serenity::Http,
    settings: Settings,
    stop: impl std::future::Future<Output = ()> + Send,
) -> Result<(), String> {
    let range = match settings.shards {
        Shards::Single => ShardRange::all(1),
        Shards::Range(range) => range,
        Shards::Auto => {
            let gateway = at_start("read Discord's recommended number of shards", || {
                http.get_bot_gateway()
            })
            .await?;
            tracing::info!(
                shards = gateway.shards,
                "Discord recommends this many shards"
            );
            ShardRange::all(gateway.shards)
        }
    };
    let claim = Claim::take(service.store(), range).await?;
    // Renewed from the moment it is taken: start-up (reading the application, registering the
    // commands, with their retries) can outlast a claim that nobody renews.
    let result = tokio::select! {
        result = run_claimed(service, http, settings, &claim, stop) => result,
        lost = claim.keep() => {
            tracing::error!("{lost}");
            Err(lost)
        }
    };
    claim.release().await;
    result
}

/// Starts serenity's shard manager on the claimed shards and runs until the gateway gives up.
/// serenity's `start_shard_range` takes the range's end as the LAST shard it runs (its own
/// example, `4..7`, runs shards 4 to 7), hence `first..last`. For `--shards auto` this is what
/// serenity's `start_autosharded` does, with the count read once, so that the shards claimed
/// and the shards connected are the same.
async fn start_shards(client: &mut serenity::Client, range: ShardRange) -> serenity::Result<()> {
    if range.count == 1 {
        client.start().await
    } else {
        client
            .start_shard_range(range.first..range.last, range.count)
            .await
    }
}

/// [`run_with`] once the shards are claimed.
async fn run_claimed(
    service: Arc<Service>,
    http: serenity::Http,
    settings: Settings,
    claim: &Claim,
    stop: impl std::future::Future<Output = ()> + Send,
) -> Result<(), String> {
    let guild = settings.guild;
    let range = claim.range();
    let application = at_start("read the bot's application", || {
        http.get_current_application_info()
    })
    .await?;
    http.set_application_id(application.id);
    tracing::info!(
        "invite link (the permissions Rookery needs, and its commands): {}",
        permissions::invite_url(application.id.get())
    );
    let definitions = poise::builtins::create_application_commands(&commands());
    match guild {
        Some(g) => {
            let g = serenity::GuildId::new(g);
            at_start("register the commands in the server", || {
                http.create_guild_commands(g, &definitions)
            })
            .await?
        }
        None => {
            at_start("register the commands", || {
                http.create_global_commands(&definitions)
            })
            .await?
        }
    };
    tracing::info!(
        commands = definitions.len(),
        guild = guild.map(|g| g.to_string()),
        "commands registered"
    );

    let setup_service = service.clone();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands(),
            event_handler: |ctx, event, _framework, data| Box::pin(on_event(ctx, event, data)),
            on_error: |error| Box::pin(on_error(error)),
            // The application was read above; poise need not read it again on every READY.
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |_ctx, ready, _framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, "connected to Discord");
                Ok(Data {
                    service: setup_service,
                })
            })
        })
        .build();
    let intents = serenity::GatewayIntents::non_privileged();
    let resume_url = ResumeUrl::default();
    // Building the client asks Discord for the gateway's address; it must not hang either.
    let mut client = tokio::time::timeout(
        START_TIMEOUT,
        serenity::ClientBuilder::new_with_http(http, intents)
            .framework(framework)
            .event_handler(resume_url.clone()),
    )
    .await
    .map_err(|_| format!("Discord gave no gateway address within {START_TIMEOUT:?}"))?
    .map_err(|e| format!("could not start the Discord client: {e}"))?;
    // Set before the first connection, so the first READY already finds it.
    let _ = resume_url.gateway.set(client.ws_url.clone());
    let workers = Workers::spawn(
        service.clone(),
        client.http.clone(),
        settings.delivery_timeout,
    );
    let shards = client.shard_manager.clone();
    tracing::info!("connecting {range}");
    let result = tokio::select! {
        result = start_shards(&mut client, range) => result.map_err(|e| gateway_failure(&e, intents)),
        () = stop => {
            tracing::info!("stopping");
            shards.shutdown_all().await;
            Ok(())
        }
    };
    drop(workers);
    tracing::info!("gateway closed");
    result
}

/// Runs a start-up request, trying again after 1, 2, 4 ... seconds while Discord fails for a
/// moment (a 5xx, a rate limit, no connection). A refusal (a bad token, invalid commands)
/// fails at once.
async fn at_start<T, F, Fut>(what: &str, mut call: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = serenity::Result<T>>,
{
    let mut pause = Duration::from_secs(1);
    let mut attempt = 1;
    loop {
        let failure = match tokio::time::timeout(START_TIMEOUT, call()).await {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(e)) if unauthorised(&e) => {
                return Err(bad_token(&format!(
                    "401 Unauthorized when trying to {what}"
                )))
            }
            Ok(Err(e)) if !passing(&e) => return Err(format!("could not {what}: {e}")),
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!("no answer within {START_TIMEOUT:?}"),
        };
        if attempt == START_ATTEMPTS {
            return Err(format!("could not {what}: {failure}"));
        }
        tracing::warn!(attempt, "could not {what}, trying again: {failure}");
        tokio::time::sleep(pause).await;
        pause *= 2;
        attempt += 1;
    }
}

/// The longest a start-up request may take (serenity's own client waits for ever).
const START_TIMEOUT: Duration = Duration::from_secs(10);

// ---- the gateway: where to resume, and the refusals an admin must act on -----------------------

/// Points serenity's gateway address at READY's `resume_gateway_url`. Discord asks that a
/// dropped session be resumed there; serenity 0.12 keeps one address for every connection and
/// never reads that field, so without this every resume would go back to the first address.
#[derive(Clone, Default)]
struct ResumeUrl {
    /// The client's gateway address, shared with its shards; set once the client is built.
    gateway: Arc<std::sync::OnceLock<Arc<tokio::sync::Mutex<String>>>>,
}

#[serenity::async_trait]
impl serenity::EventHandler for ResumeUrl {
    async fn ready(&self, _ctx: serenity::Context, ready: serenity::Ready) {
        if let Some(gateway) = self.gateway.get() {
            tracing::debug!(url = %ready.resume_gateway_url, "resuming there after a drop");
            *gateway.lock().await = ready.resume_gateway_url;
        }
    }
}

/// Why the gateway stopped, in words the bot's admin can act on. Discord closes the connection
/// for a wrong token (4004) or intents the application may not use (4014, 4013); reconnecting
/// cannot help, so serenity gives up and Rookery stops (exit status 2) with what to do.
fn gateway_failure(error: &serenity::Error, intents: serenity::GatewayIntents) -> String {
    match error {
        serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication) => {
            bad_token("gateway close code 4004, authentication failed")
        }
        serenity::Error::Gateway(serenity::GatewayError::DisallowedGatewayIntents) => {
            disallowed_intents(intents)
        }
        serenity::Error::Gateway(serenity::GatewayError::InvalidGatewayIntents) => format!(
            "Discord does not know the gateway intents Rookery asks for (close code 4013, \
             invalid intents: {}); this is a fault in Rookery, not in the bot's settings: \
             please report it",
            intent_names(intents)
        ),
        other => format!("Discord client stopped: {other}"),
    }
}

/// What to do about a token Discord refuses (`sign` says how it refused).
fn bad_token(sign: &str) -> String {
    format!(
        "Discord refused the bot token ({sign}): reset the token on your application's Bot \
         page in the Discord Developer Portal, copy it, set DISCORD_TOKEN (or --token) to it \
         and start Rookery again"
    )
}

/// The Developer Portal's name for each privileged intent (Bot > Privileged Gateway Intents).
const PRIVILEGED_INTENTS: [(serenity::GatewayIntents, &str); 3] = [
    (serenity::GatewayIntents::GUILD_PRESENCES, "Presence Intent"),
    (
        serenity::GatewayIntents::GUILD_MEMBERS,
        "Server Members Intent",
    ),
    (
        serenity::GatewayIntents::MESSAGE_CONTENT,
        "Message Content Intent",
    ),
];

/// What to do when Discord refuses `intents` (close code 4014). Discord's close frame does not
/// say which intent it refused: the privileged ones asked for are named, or, if there are none
/// (Rookery asks for none today), every intent asked for.
fn disallowed_intents(intents: serenity::GatewayIntents) -> String {
    let privileged: Vec<&str> = PRIVILEGED_INTENTS
        .iter()
        .filter(|(intent, _)| intents.contains(*intent))
        .map(|(_, name)| *name)
        .collect();
    if privileged.is_empty() {
        format!(
            "Discord refused the gateway intents Rookery asks for (close code 4014, disallowed \
             intents), though none of them is privileged ({}): if Discord now counts one of \
             them as privileged, enable it in the Discord Developer Portal under your \
             application's Bot > Privileged Gateway Intents and start Rookery again",
            intent_names(intents)
        )
    } else {
        format!(
            "Discord refused the privileged gateway intents Rookery asks for (close code 4014, \
             disallowed intents): enable {} in the Discord Developer Portal under your \
             application's Bot > Privileged Gateway Intents and start Rookery again",
            privileged.join(" and ")
        )
    }
}

/// The names of `intents`, as Discord's documentation spells them.
fn intent_names(intents: serenity::GatewayIntents) -> String {
    intents
        .iter_names()
        .map(|(name, _)| name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether Discord refused a request's token (401): it was reset or copied wrongly.
fn unauthorised(error: &serenity::Error) -> bool {
    matches!(error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) if r.status_code.as_u16() == 401)
}

#[cfg(test)]
mod gateway_tests {
    use super::*;

    #[test]
    fn refusals_say_what_to_do() {
        let refused = |error| {
            gateway_failure(
                &serenity::Error::Gateway(error),
                serenity::GatewayIntents::non_privileged(),
            )
        };
        let token = refused(serenity::GatewayError::InvalidAuthentication);
        assert!(
            token.contains("4004") && token.contains("DISCORD_TOKEN"),
            "{token}"
        );
        assert!(token.contains("Developer Portal"), "{token}");

        // Rookery asks for no privileged intent: the message says so and lists what it asks.
        let intents = refused(serenity::GatewayError::DisallowedGatewayIntents);
        assert!(
            intents.contains("4014") && intents.contains("none of them is privileged"),
            "{intents}"
        );
        assert!(
            intents.contains("GUILD_MESSAGES") && !intents.contains("MESSAGE_CONTENT"),
            "{intents}"
        );
        assert!(
            intents.contains("Bot > Privileged Gateway Intents"),
            "{intents}"
        );

        // Were one asked for, it is named as the Developer Portal names it.
        let asked = serenity::GatewayIntents::non_privileged()
            | serenity::GatewayIntents::MESSAGE_CONTENT
            | serenity::GatewayIntents::GUILD_MEMBERS;
        let named = disallowed_intents(asked);
        assert!(
            named.contains("enable Server Members Intent and Message Content Intent in the Discord Developer Portal"),
            "{named}"
        );

        let other = refused(serenity::GatewayError::ReconnectFailure);
        assert!(other.starts_with("Discord client stopped"), "{other}");
    }
}

/// Whether a failed request may succeed if tried again: rate limits, Discord's own errors and
/// lost connections; not refusals.
fn passing(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            status == 429 || status >= 500
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) => true,
        serenity::Error::Http(_) => false,
        _ => true,
    }
}

/// Discord's error code for "cannot send messages to this user".
const DIRECT_MESSAGES_CLOSED: isize = 50007;
/// Discord's error code for "a thread has already been created for this message".
const THREAD_ALREADY_STARTED: isize = 160004;

/// Discord's error code for "unknown channel" (a game's thread that was deleted).
const UNKNOWN_CHANNEL: isize = 10003;

/// The Discord error code of a failed request, if Discord gave one.
fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            Some(response.error.code)
        }
        _ => None,
    }
}

/// What a failed post means for the outbox.
fn delivery_error(what: &str, error: serenity::Error) -> DeliveryError {
    if discord_code(&error) == Some(DIRECT_MESSAGES_CLOSED) {
        return DeliveryError::DirectMessagesClosed;
    }
    // A 401 means the token was reset: the posts wait for the bot to be fixed, not dropped.
    let unauthorised = matches!(&error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) if r.status_code.as_u16() == 401);
    // A thread archived again between reopening it and posting: the next attempt reopens it.
    let archived = discord_code(&error) == Some(THREAD_ARCHIVED);
    if passing(&error) || unauthorised || archived {
        DeliveryError::retry(format!("{what}: {error}"))
    } else {
        DeliveryError::Rejected(format!("{what}: {error}"))
    }
}

/// The outbox courier and the clock, running beside the gateway; stopped when dropped.
struct Workers(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Workers {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// How often the database's log is folded into its file while the bot runs.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

impl Workers {
    fn spawn(service: Arc<Service>, http: Arc<serenity::Http>, timeout: Duration) -> Workers {
        let courier = DiscordCourier { http, timeout };
        let s = service.clone();
        let outbox = tokio::spawn(async move {
            let ready = s.outbox_ready();
            loop {
                if let Err(e) = s.flush_outbox(&courier).await {
                    tracing::error!("outbox: {e}");
                }
                // With other processes on the database, their posts wake none of this one's
                // waits: look again every second (one cheap query) rather than every 30.
                let longest = if s.shares_database() { 1 } else { 30 };
                let wait = match s.next_delivery_in().await {
                    Ok(Some(seconds)) => Duration::from_secs(seconds.clamp(1, longest) as u64),
                    _ => Duration::from_secs(longest as u64),
                };
                tokio::select! {
                    _ = ready.notified() => {}
                    _ = tokio::time::sleep(wait) => {}
                }
            }
        });
        // Computer players' turns: a pass over the games whenever something changed, and
        // again while turns were played (a game of computers plays on by itself); now and then
        // besides, for a turn left due when the process stopped.
        let c = service.clone();
        let computers = tokio::spawn(async move {
            let ready = c.computers_ready();
            loop {
                match c.play_computer_turns().await {
                    Ok(n) if n > 0 => continue,
                    Ok(_) => {}
                    Err(e) => tracing::error!("computer players: {e}"),
                }
                tokio::select! {
                    _ = ready.notified() => {}
                    _ = tokio::time::sleep(Duration::from_secs(60)) => {}
                }
            }
        });
        let clock = tokio::spawn(async move {
            let mut last_checkpoint = tokio::time::Instant::now();
            loop {
                match service.tick().await {
                    Ok(n) if n > 0 => tracing::info!(games = n, "clocks handled"),
                    Ok(_) => {}
                    Err(e) => tracing::error!("clock: {e}"),
                }
                if last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
                    if let Err(e) = service.store().checkpoint().await {
                        tracing::warn!("checkpoint: {e}");
                    }
                    last_checkpoint = tokio::time::Instant::now();
                }
                let wait = service
                    .next_clock_event()
                    .await
                    .ok()
                    .flatten()
                    .unwrap_or(60)
                    .clamp(1, 60);
                tokio::time::sleep(Duration::from_secs(wait as u64)).await;
            }
        });
        Workers(vec![outbox, clock, computers])
    }
}

fn user_of(author: &serenity::User) -> User {
    User::new(
        author.id.to_string(),
        author
            .global_name
            .clone()
            .unwrap_or_else(|| author.name.clone()),
    )
}

/// A text in messages Discord accepts, `{@id}` written as a mention and `{#game}` as a link to
/// the game's thread: split between lines (a long `/rules` text arrives whole, in parts), a
/// line longer than a message split where it must be.
async fn discord_parts(service: &Service, text: &str) -> Vec<String> {
    split_message(&expanded(service, text).await)
}

fn split_message(text: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        let mut line = line;
        while !line.is_empty() {
            let room = MESSAGE_LIMIT - current.chars().count();
            if line.chars().count() <= room {
                current.push_str(line);
                break;
            }
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            let cut = line
                .char_indices()
                .nth(MESSAGE_LIMIT)
                .map_or(line.len(), |(i, _)| i);
            parts.push(line[..cut].to_string());
            line = &line[cut..];
        }
    }
    if !current.is_empty() || parts.is_empty() {
        parts.push(current);
    }
    parts
}

/// `{@id}` and `{#game}` written for Discord, at any length.
async fn expanded(service: &Service, text: &str) -> String {
    let mut threads: HashMap<i64, String> = HashMap::new();
    for part in text.split("{#").skip(1) {
        if let Some(n) = part.split('}').next().and_then(|n| n.parse::<i64>().ok()) {
            if let Ok(Some(g)) = service.store().game(GameId(n)).await {
                if let Some(t) = g.thread {
                    threads.insert(n, t);
                }
            }
        }
    }
    model::expand(
        text,
        |user| format!("<@{user}>"),
        |game| {
            threads
                .get(&game.0)
                .map_or(format!("game {game}"), |t| format!("<#{t}>"))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_answers_are_split_between_lines_and_keep_every_character() {
        let line = "x".repeat(300);
        let text = [line.as_str(); 10].join("\n");
        let parts = split_message(&text);
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|p| p.chars().count() <= MESSAGE_LIMIT));
        assert_eq!(parts.concat(), text);
        let long = "é".repeat(4500);
        let parts = split_message(&long);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts.concat(), long);
        assert_eq!(split_message(""), vec![String::new()]);
    }
}

/// Defers (so slow work never hits the 3-second limit), runs the command, replies privately.
/// Follow-ups that find the interaction's token expired go another way (see [`follow_up`]).
async fn respond(ctx: Context<'_>, command: Command) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let user = user_of(ctx.author());
    let place = match ctx.guild_id() {
        Some(server) => Place::channel(server.to_string(), ctx.channel_id().to_string()),
        None => Place::DirectMessage,
    };
    let service = &ctx.data().service;
    let reply = answer(commands::run(service, &user, &place, command).await);
    let parts = discord_parts(service, &reply.text).await;
    let followups = if reply.public {
        // The deferred answer stays private whatever it says, so the asker is told where it
        // went, and the post for everyone follows it.
        let mut followups = vec![Followup::note(SHARED_HERE)];
        followups.extend(Followup::parts(parts, false, reply.image, reply.file));
        followups
    } else {
        Followup::parts(parts, true, reply.image, reply.file)
    };
    follow_up(Answering::Command(ctx), service, followups).await?;
    Ok(())
}

/// The private answer to a command whose answer is posted for everyone in the channel.
pub const SHARED_HERE: &str = "Posted in this channel for everyone.";

/// A refusal is shown as it is; an internal error is logged and apologised for.
fn answer(result: Result<Reply, ServiceError>) -> Reply {
    match result {
        Ok(reply) => reply,
        Err(ServiceError::Refused(message)) => Reply::text(message),
        Err(ServiceError::Internal(message)) => {
            tracing::error!("{message}");
            Reply::text(SORRY)
        }
    }
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().name, "{error}");
            let _ = ctx
                .send(poise::CreateReply::default().content(SORRY).ephemeral(true))
                .await;
        }
        poise::FrameworkError::UnknownInteraction {
            ctx, interaction, ..
        } => {
            // A command Discord still shows from an older registration: say so, privately,
            // rather than leave the user with "The application did not respond".
            let answer = CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new()
                    .content(UNKNOWN_COMMAND)
                    .ephemeral(true),
            );
            if let Err(e) = interaction.create_response(ctx, answer).await {
                tracing::warn!("answering an unknown command: {e}");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!("while handling an error: {e}");
            }
        }
    }
}

/// What a pressed button or a chosen menu option stands for.
enum Control {
    Button(Button),
    /// A private choice from a game's select menu.
    Secret {
        game: GameId,
        choice: String,
    },
    /// A control this bot does not (or no longer) knows.
    Unknown,
}

fn control_of(data: &serenity::ComponentInteractionData) -> Control {
    if let Some(button) = Button::from_custom_id(&data.custom_id) {
        return Control::Button(button);
    }
    if let (Some(game), serenity::ComponentInteractionDataKind::StringSelect { values }) =
        (model::game_of_secret_menu(&data.custom_id), &data.kind)
    {
        if let Some(choice) = values.first() {
            return Control::Secret {
                game,
                choice: choice.clone(),
            };
        }
    }
    Control::Unknown
}

/// What a command Rookery does not (or no longer) has is told.
pub const UNKNOWN_COMMAND: &str =
    "Rookery has no such command (any more). /help lists the ones it has.";

/// What a press of an unknown control is told.
pub const UNKNOWN_CONTROL: &str =
    "That control is no longer in use. /games lists your games and /help what you can do.";

/// Button presses and menu choices, wherever and whenever their message was posted. Each is
/// acknowledged at once (privately), then answered by a private follow-up.
async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    if let serenity::FullEvent::GuildCreate { guild, .. } = event {
        // The start-up check: Discord has just said what the server holds and who Rookery is.
        let me = ctx.cache.current_user().id;
        permissions::check_server(me, guild);
        return Ok(());
    }
    let serenity::FullEvent::InteractionCreate { interaction } = event else {
        return Ok(());
    };
    let Some(component) = interaction.as_message_component() else {
        return Ok(());
    };
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    component.create_response(ctx, defer).await?;
    let user = user_of(&component.user);
    let place = match component.guild_id {
        Some(server) => Place::channel(server.to_string(), component.channel_id.to_string()),
        None => Place::DirectMessage,
    };
    let reply = match control_of(&component.data) {
        Control::Button(button) => answer(data.service.press(&user, &place, button).await),
        Control::Secret { game, choice } => answer(
            data.service
                .secret(&user, &place, Some(game), &choice)
                .await,
        ),
        Control::Unknown => Reply::text(UNKNOWN_CONTROL),
    };
    let parts = discord_parts(&data.service, &reply.text).await;
    let followups = Followup::parts(parts, true, reply.image, reply.file);
    follow_up(
        Answering::Component(ctx, component),
        &data.service,
        followups,
    )
    .await?;
    Ok(())
}

/// Posts outbox items to Discord.
struct DiscordCourier {
    http: Arc<serenity::Http>,
    /// The longest one delivery may take.
    timeout: Duration,
}

impl DiscordCourier {
    /// The game's thread: the one started from its announcement, or (for a game whose
    /// announcement could not be posted) one made on its own in the game's channel.
    /// The game's thread, made if it has none; `None` where Discord refuses the bot a new
    /// thread for a missing permission.
    async fn thread(
        &self,
        service: &Service,
        game: GameId,
    ) -> Result<Option<ChannelId>, DeliveryError> {
        let row = game_row(service, game).await?;
        if let Some(id) = row.thread.as_deref().and_then(|t| t.parse::<u64>().ok()) {
            return Ok(Some(ChannelId::new(id)));
        }
        let channel = discord_channel(&row.channel)?;
        let made = channel
            .create_thread(
                &self.http,
                thread_builder(game, &row.variant).kind(ChannelType::PublicThread),
            )
            .await;
        let thread = match made {
            Ok(thread) => thread,
            Err(e) if permissions::refused_permission(&e, false).is_some() => {
                tracing::warn!(%game, "Discord refused a new thread for game {game}: {e}");
                return Ok(None);
            }
            Err(e) => {
                return Err(delivery_error(
                    &format!("making the thread of game {game}"),
                    e,
                ))
            }
        };
        remember_thread(service, game, thread.id).await?;
        Ok(Some(thread.id))
    }

    /// Starts the game's thread from its announcement `message`. Delivered again after a crash,
    /// the announcement is the same message (its nonce), Discord refuses a second thread on it,
    /// and the thread it already has shares the message's id.
    async fn start_thread(
        &self,
        service: &Service,
        game: GameId,
        channel: ChannelId,
        message: serenity::MessageId,
    ) -> Result<(), DeliveryError> {
        let row = game_row(service, game).await?;
        if row.thread.is_some() {
            return Ok(());
        }
        let thread = match channel
            .create_thread_from_message(&self.http, message, thread_builder(game, &row.variant))
            .await
        {
            Ok(thread) => thread.id,
            Err(e) if discord_code(&e) == Some(THREAD_ALREADY_STARTED) => {
                ChannelId::new(message.get())
            }
            Err(e) => {
                return Err(delivery_error(
                    &format!("starting the thread of game {game}"),
                    e,
                ))
            }
        };
        remember_thread(service, game, thread).await
    }
}

async fn game_row(service: &Service, game: GameId) -> Result<crate::store::GameRow, DeliveryError> {
    service
        .store()
        .game(game)
        .await
        .map_err(|e| DeliveryError::retry(e.to_string()))?
        .ok_or_else(|| DeliveryError::Rejected(format!("game {game} is gone")))
}

fn discord_channel(id: &str) -> Result<ChannelId, DeliveryError> {
    id.parse::<u64>()
        .ok()
        .filter(|&n| n != 0)
        .map(ChannelId::new)
        .ok_or_else(|| DeliveryError::Rejected(format!("'{id}' is not a Discord channel")))
}

fn thread_builder(game: GameId, variant: &str) -> CreateThread<'static> {
    let name = format!(
        "Game {game} · {}",
        registry::variant(variant)
            .map(|v| v.info().name)
            .unwrap_or("game")
    );
    CreateThread::new(name).auto_archive_duration(serenity::AutoArchiveDuration::OneWeek)
}

async fn remember_thread(
    service: &Service,
    game: GameId,
    thread: ChannelId,
) -> Result<(), DeliveryError> {
    service
        .store()
        .set_thread(game, &thread.to_string())
        .await
        .map_err(|e| DeliveryError::retry(e.to_string()))
}

impl Deliver for DiscordCourier {
    async fn deliver(&self, service: &Service, item: &Pending) -> Result<(), DeliveryError> {
        match tokio::time::timeout(self.timeout, self.deliver_now(service, item)).await {
            Ok(result) => result,
            Err(_) => Err(DeliveryError::retry(format!(
                "Discord did not answer within {:?}",
                self.timeout
            ))),
        }
    }
}

impl DiscordCourier {
    async fn deliver_now(&self, service: &Service, item: &Pending) -> Result<(), DeliveryError> {
        let post = &item.post;
        let channel = match &post.target {
            Target::Channel(c) => discord_channel(c)?,
            Target::GameThread(g) => match self.thread(service, *g).await? {
                Some(thread) => thread,
                None => {
                    // The bot may no longer make threads there: the game goes on in its
                    // channel until it may again.
                    self.post_in_game_channel(service, item, *g, "Create Public Threads")
                        .await?;
                    return Ok(());
                }
            },
            Target::Direct(u) => self.direct_channel(u).await?,
        };
        let Some(game) = item.game.filter(|_| post.thread_anchor) else {
            // Nothing follows the message: posting it is the whole delivery.
            self.post(service, item, channel).await?;
            return Ok(());
        };
        let message = match item.sent_as.as_deref().and_then(|m| m.parse::<u64>().ok()) {
            // An earlier attempt posted it; only starting the thread is left to do.
            Some(id) => serenity::MessageId::new(id),
            None => {
                let id = self.post(service, item, channel).await?;
                service
                    .store()
                    .set_sent_as(item.id, &id.to_string())
                    .await
                    .map_err(|e| DeliveryError::retry(e.to_string()))?;
                id
            }
        };
        self.start_thread(service, game, channel, message).await
    }

    /// The DM channel with a user.
    async fn direct_channel(&self, user: &str) -> Result<ChannelId, DeliveryError> {
        let user = user
            .parse::<u64>()
            .ok()
            .filter(|&n| n != 0)
            .map(UserId::new)
            .ok_or_else(|| DeliveryError::Rejected(format!("'{user}' is not a Discord user")))?;
        user.create_dm_channel(&self.http)
            .await
            .map(|dm| dm.id)
            .map_err(|e| direct(delivery_error("opening a direct message", e)))
    }

    /// Posts the item's message in `channel`. A text longer than one message goes out in
    /// parts split between lines, the picture and the controls with the last part (the one
    /// returned, from which a game's thread is started); nothing is cut off.
    async fn post(
        &self,
        service: &Service,
        item: &Pending,
        channel: ChannelId,
    ) -> Result<serenity::MessageId, DeliveryError> {
        let post = &item.post;
        let parts = discord_parts(service, &post.text).await;
        let last = parts.len() - 1;
        let mut posted = None;
        for (n, part) in parts.into_iter().enumerate() {
            // The nonce makes a repeated delivery (after a crash between posting and noting
            // it) return the message already posted instead of posting it twice; each part
            // has its own.
            let nonce = if n == last {
                format!("rookery-{}", item.id)
            } else {
                format!("rookery-{}-{n}", item.id)
            };
            let mut message = CreateMessage::new()
                .content(part)
                .nonce(serenity::Nonce::String(nonce))
                .enforce_nonce(true);
            if n == last {
                if let Some(png) = &post.image {
                    message = message.add_file(CreateAttachment::bytes(png.clone(), "board.png"));
                }
                let rows = components(item);
                if !rows.is_empty() {
                    message = message.components(rows);
                }
            }
            match self.send_reopening(post, channel, message).await {
                Ok(Sent::Posted(id)) => posted = Some(id),
                Ok(Sent::ThreadLost(game)) => {
                    // Locked (only a moderator may reopen it) or gone: like a deleted thread,
                    // it is replaced by a new one on the game's next attempt.
                    remember_no_thread(service, game).await?;
                    return Err(DeliveryError::retry(format!(
                        "the thread of game {game} cannot be reopened; a new one will be made"
                    )));
                }
                Err(e) => {
                    if let (Target::GameThread(game), Some(permission)) = (
                        &post.target,
                        permissions::refused_permission(&e, post.image.is_some()),
                    ) {
                        // The bot lost a permission in the thread: the game goes on in its
                        // channel.
                        return self
                            .post_in_game_channel(service, item, *game, permission)
                            .await;
                    }
                    if let (Target::GameThread(game), Some(UNKNOWN_CHANNEL)) =
                        (&post.target, discord_code(&e))
                    {
                        // The thread was deleted: the game's next attempt makes a new one.
                        remember_no_thread(service, *game).await?;
                        return Err(DeliveryError::retry(format!(
                            "the thread of game {game} is gone; a new one will be made"
                        )));
                    }
                    let error = delivery_error("posting", e);
                    return Err(match post.target {
                        Target::Direct(_) => direct(error),
                        _ => error,
                    });
                }
            }
        }
        posted.ok_or_else(|| DeliveryError::Rejected("a post with nothing to send".into()))
    }
}

/// A direct message Discord refuses for good goes the way of closed DMs: kept for `/inbox`,
/// with a word in the game's thread, so a secret prompt is never lost.
fn direct(error: DeliveryError) -> DeliveryError {
    match error {
        DeliveryError::Rejected(_) => DeliveryError::DirectMessagesClosed,
        other => other,
    }
}

async fn remember_no_thread(service: &Service, game: GameId) -> Result<(), DeliveryError> {
    service
        .store()
        .clear_thread(game)
        .await
        .map_err(|e| DeliveryError::retry(e.to_string()))
}

/// A post's select menu (a private choice) and buttons.
fn components(item: &Pending) -> Vec<CreateActionRow> {
    let post = &item.post;
    let mut rows = Vec::new();
    if let (false, Some(game)) = (post.choices.is_empty(), item.game) {
        let options = post
            .choices
            .iter()
            // Discord takes labels and values of at most 100 characters; a longer choice (none
            // of today's games has one) is left to `/secret`, whose text has no such limit.
            .filter(|c| c.chars().count() <= 100)
            .take(25)
            .map(|c| serenity::CreateSelectMenuOption::new(c.clone(), c.clone()))
            .collect();
        let menu = serenity::CreateSelectMenu::new(
            model::secret_menu_id(game),
            serenity::CreateSelectMenuKind::String { options },
        )
        .placeholder("Make your secret choice");
        rows.push(CreateActionRow::SelectMenu(menu));
    }
    if !post.buttons.is_empty() {
        let buttons = post
            .buttons
            .iter()
            .map(|b| {
                let style = match b.action {
                    ButtonAction::Join | ButtonAction::Start | ButtonAction::RematchAsk => {
                        ButtonStyle::Primary
                    }
                    ButtonAction::Resign => ButtonStyle::Danger,
                    ButtonAction::TakebackAccept => ButtonStyle::Success,
                    ButtonAction::Draw
                    | ButtonAction::AddComputer
                    | ButtonAction::TakebackDecline => ButtonStyle::Secondary,
                };
                CreateButton::new(b.custom_id())
                    .label(b.action.label())
                    .style(style)
            })
            .collect();
        rows.push(CreateActionRow::Buttons(buttons));
    }
    rows
}

// ---- archived and locked game threads ----------------------------------------------------------

/// Discord's error code for "operation cannot be performed on an archived thread": a game's
/// thread that archived itself after a week without messages, or that a moderator closed.
const THREAD_ARCHIVED: isize = 50083;

/// What became of one message the courier sent.
enum Sent {
    Posted(serenity::MessageId),
    /// The game's thread is archived and the bot may not reopen it (a locked thread: only
    /// Manage Threads reopens one, and Rookery does not ask for it), or it vanished meanwhile.
    ThreadLost(GameId),
}

/// Whether a refused unarchive means the thread cannot be used again: Discord refuses a locked
/// thread (403, missing permissions or access) or no longer has it (404). Anything else (a
/// rate limit, Discord's own error) passes and is tried again.
fn cannot_reopen(error: &serenity::Error) -> bool {
    matches!(error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if matches!(r.status_code.as_u16(), 403 | 404))
}

impl DiscordCourier {
    /// Sends one message to `channel`. A game's thread that Discord finds archived is
    /// unarchived (any member who may post in a thread may reopen it, unless it is locked) and
    /// the message sent again, so a move, a reminder or a timeout reaches the thread it
    /// belongs in, after a week of silence too.
    async fn send_reopening(
        &self,
        post: &Post,
        channel: ChannelId,
        message: CreateMessage,
    ) -> Result<Sent, serenity::Error> {
        let Target::GameThread(game) = post.target else {
            let sent = channel.send_message(&self.http, message).await?;
            return Ok(Sent::Posted(sent.id));
        };
        match channel.send_message(&self.http, message.clone()).await {
            Ok(sent) => return Ok(Sent::Posted(sent.id)),
            Err(e) if discord_code(&e) == Some(THREAD_ARCHIVED) => {}
            Err(e) => return Err(e),
        }
        tracing::info!(%game, "the thread of game {game} is archived; reopening it");
        let reopen = serenity::EditThread::new().archived(false);
        match channel.edit_thread(&self.http, reopen).await {
            Ok(_) => {}
            Err(e) if cannot_reopen(&e) => {
                tracing::warn!(%game, "the thread of game {game} cannot be reopened: {e}");
                return Ok(Sent::ThreadLost(game));
            }
            Err(e) => return Err(e),
        }
        let sent = channel.send_message(&self.http, message).await?;
        Ok(Sent::Posted(sent.id))
    }
}

// ---- answers after the interaction's token expired ----------------------------------------------

/// Discord's error code for "invalid webhook token": a follow-up sent with an interaction's
/// token after its 15 minutes.
const INVALID_WEBHOOK_TOKEN: isize = 50027;

/// Whether a follow-up failed because the interaction's token expired (Discord answers 401,
/// "Invalid Webhook Token").
fn token_expired(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.error.code == INVALID_WEBHOOK_TOKEN
                || (r.status_code.as_u16() == 401 && r.url.contains("/webhooks/"))
        }
        _ => false,
    }
}

/// One follow-up message of an answer, kept in Rookery's terms so that it can go another way
/// when the interaction's token has expired.
struct Followup {
    text: String,
    /// Shown only to the asker.
    ephemeral: bool,
    /// Attached files by name: the board picture, a game's record, a replay.
    files: Vec<(String, Vec<u8>)>,
    /// A note that only means something as the answer itself ("posted in this channel"),
    /// dropped when the answer can no longer be given.
    note: bool,
}

impl Followup {
    fn note(text: &str) -> Followup {
        Followup {
            text: text.to_string(),
            ephemeral: true,
            files: Vec::new(),
            note: true,
        }
    }

    /// An answer's parts (each fitting a message), the files with the first.
    fn parts(
        parts: Vec<String>,
        ephemeral: bool,
        image: Option<Vec<u8>>,
        file: Option<model::Attachment>,
    ) -> Vec<Followup> {
        let mut files = Vec::new();
        if let Some(png) = image {
            files.push(("board.png".to_string(), png));
        }
        if let Some(file) = file {
            files.push((file.name, file.bytes));
        }
        parts
            .into_iter()
            .map(|text| Followup {
                text,
                ephemeral,
                files: std::mem::take(&mut files),
                note: false,
            })
            .collect()
    }

    fn attachments(&self) -> Vec<CreateAttachment> {
        self.files
            .iter()
            .map(|(name, bytes)| CreateAttachment::bytes(bytes.clone(), name.clone()))
            .collect()
    }

    fn reply(&self) -> poise::CreateReply {
        let mut reply = poise::CreateReply::default()
            .content(self.text.clone())
            .ephemeral(self.ephemeral);
        for attachment in self.attachments() {
            reply = reply.attachment(attachment);
        }
        reply
    }

    fn followup(&self) -> CreateInteractionResponseFollowup {
        CreateInteractionResponseFollowup::new()
            .content(self.text.clone())
            .ephemeral(self.ephemeral)
            .add_files(self.attachments())
    }

    fn message(&self) -> CreateMessage {
        CreateMessage::new()
            .content(self.text.clone())
            .add_files(self.attachments())
    }
}

/// The interaction being answered: a slash command or a pressed control.
enum Answering<'a> {
    Command(Context<'a>),
    Component(&'a serenity::Context, &'a serenity::ComponentInteraction),
}

impl Answering<'_> {
    async fn send(&self, followup: &Followup) -> Result<(), serenity::Error> {
        match self {
            Answering::Command(ctx) => ctx.send(followup.reply()).await.map(|_| ()),
            Answering::Component(ctx, component) => component
                .create_followup(*ctx, followup.followup())
                .await
                .map(|_| ()),
        }
    }

    fn http(&self) -> &serenity::Http {
        match self {
            Answering::Command(ctx) => ctx.http(),
            Answering::Component(ctx, _) => &ctx.http,
        }
    }

    fn user(&self) -> &serenity::User {
        match self {
            Answering::Command(ctx) => ctx.author(),
            Answering::Component(_, component) => &component.user,
        }
    }

    fn channel(&self) -> ChannelId {
        match self {
            Answering::Command(ctx) => ctx.channel_id(),
            Answering::Component(_, component) => component.channel_id,
        }
    }
}

/// Sends an answer's follow-ups in order. Discord takes follow-ups only for 15 minutes after
/// the interaction; past that (a slow answer, Discord's queue) what is left goes another way
/// rather than being lost: a public part to the channel or thread where the command was given,
/// a private part by direct message, and if the asker's direct messages are closed it is kept
/// for `/inbox` with only a word in the channel that it is there, never the private text.
async fn follow_up(
    answering: Answering<'_>,
    service: &Service,
    followups: Vec<Followup>,
) -> Result<(), serenity::Error> {
    let mut left = followups.into_iter();
    while let Some(followup) = left.next() {
        match answering.send(&followup).await {
            Ok(()) => {}
            Err(e) if token_expired(&e) => {
                tracing::warn!("the interaction's token expired; answering another way");
                let rest: Vec<Followup> = std::iter::once(followup).chain(left).collect();
                return answer_after_expiry(&answering, service, rest).await;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// What is said in the channel when a private answer came too late and the asker's direct
/// messages are closed: that it is kept, never what it says.
pub const EXPIRED_ANSWER_KEPT: &str = "your answer came after Discord's 15 minutes for answers \
     and I could not send it by direct message (are your DMs closed?). It is kept for you: use \
     /inbox to read it.";

async fn answer_after_expiry(
    answering: &Answering<'_>,
    service: &Service,
    followups: Vec<Followup>,
) -> Result<(), serenity::Error> {
    let http = answering.http();
    let mut private = Vec::new();
    for followup in followups {
        if followup.note {
            continue;
        }
        if followup.ephemeral {
            private.push(followup);
        } else if let Err(e) = answering
            .channel()
            .send_message(http, followup.message())
            .await
        {
            // Kept for the asker like a private one rather than lost.
            tracing::warn!("posting a late public answer: {e}");
            private.push(followup);
        }
    }
    if private.is_empty() {
        return Ok(());
    }
    let user = answering.user();
    let dm = match user.id.create_dm_channel(http).await {
        Ok(dm) => Some(dm.id),
        Err(e) => {
            tracing::warn!("opening a direct message for a late answer: {e}");
            None
        }
    };
    let mut undelivered = private.into_iter().peekable();
    if let Some(dm) = dm {
        while let Some(followup) = undelivered.peek() {
            match dm.send_message(http, followup.message()).await {
                Ok(_) => {
                    undelivered.next();
                }
                // Whether Discord fails for a moment or for good, the rest is kept for
                // /inbox: this answer has no later attempt.
                Err(e) => {
                    tracing::warn!("sending a late answer by direct message: {e}");
                    break;
                }
            }
        }
    }
    let undelivered: Vec<Followup> = undelivered.collect();
    if undelivered.is_empty() {
        return Ok(());
    }
    // Like a direct message that could not be delivered: kept for /inbox.
    let mut text = undelivered
        .iter()
        .map(|f| f.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let image = undelivered
        .iter()
        .flat_map(|f| &f.files)
        .find(|(name, _)| name == "board.png")
        .map(|(_, png)| png.clone());
    for (name, _) in undelivered.iter().flat_map(|f| &f.files) {
        if name != "board.png" {
            text.push_str(&format!(
                "\n(The file {name} could not be kept: ask for it again.)"
            ));
        }
    }
    let mut kept = Post::new(Target::Direct(user.id.to_string()), text);
    kept.image = image;
    if let Err(e) = service
        .store()
        .keep_in_inbox(&user.id.to_string(), None, &kept, service.now())
        .await
    {
        // Nothing is said in the channel about an answer that was not kept.
        tracing::error!("keeping a late answer for /inbox: {e}");
        return Ok(());
    }
    answering
        .channel()
        .send_message(
            http,
            CreateMessage::new().content(format!("<@{}>, {EXPIRED_ANSWER_KEPT}", user.id)),
        )
        .await?;
    Ok(())
}

// ---- the slash commands: options in, a Command out ---------------------------------------------

async fn autocomplete_variant(_ctx: Context<'_>, partial: &str) -> Vec<String> {
    let partial = partial.to_ascii_lowercase();
    registry::variants()
        .iter()
        .map(|v| v.info().id.to_string())
        .chain(registry::PRESETS.iter().map(|p| p.name.to_string()))
        .filter(|id| id.contains(&partial))
        .take(25)
        .collect()
}

async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let user = user_of(ctx.author());
    let place = Place::channel(
        ctx.guild_id().map(|g| g.to_string()).unwrap_or_default(),
        ctx.channel_id().to_string(),
    );
    ctx.data()
        .service
        .suggestions(&user, &place, None, partial, 25)
        .await
}

fn game_id(game: Option<i64>) -> Option<GameId> {
    game.map(GameId)
}

/// The answer to `/play` inside a thread.
pub const PLAY_IN_A_CHANNEL: &str =
    "Start games in a text channel, not inside a thread: each game gets a thread of its own.";

/// Whether the command was given inside a thread (as Discord says in the interaction).
fn in_thread(ctx: Context<'_>) -> bool {
    let poise::Context::Application(application) = ctx else {
        return false;
    };
    application.interaction.channel.as_ref().is_some_and(|c| {
        matches!(
            c.kind,
            ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
        )
    })
}

/// Start a new game in this channel; it gets its own thread
#[poise::command(slash_command, guild_only)]
async fn play(
    ctx: Context<'_>,
    #[description = "The game to play (see /variants)"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
    #[description = "Options as key=value, for example days_per_move=2 start=518"] options: Option<
        String,
    >,
    #[description = "How many players (when the game allows several counts)"]
    #[min = 1]
    #[max = 8]
    players: Option<u8>,
    #[description = "Computer players in the last seats (you keep one)"]
    #[min = 1]
    #[max = 7]
    bots: Option<u8>,
    #[description = "How strongly the computer players play (default medium)"] level: Option<
        ComputerLevel,
    >,
) -> Result<(), Error> {
    if in_thread(ctx) {
        // A thread cannot hold threads, and every game gets one of its own.
        ctx.send(
            poise::CreateReply::default()
                .content(PLAY_IN_A_CHANNEL)
                .ephemeral(true),
        )
        .await?;
        return Ok(());
    }
    let missing = permissions::missing_here(ctx);
    if !missing.is_empty() {
        // A game that could not be announced, threaded or drawn here is not started at all.
        ctx.send(
            poise::CreateReply::default()
                .content(permissions::missing_answer(&missing))
                .ephemeral(true),
        )
        .await?;
        return Ok(());
    }
    let mut options = options.unwrap_or_default();
    if let Some(bots) = bots {
        options.push_str(&format!(" bots={bots}"));
    }
    if let Some(level) = level {
        options.push_str(&format!(" level={}", level.name()));
    }
    respond(
        ctx,
        Command::Play {
            variant,
            options,
            players: players.map(usize::from),
        },
    )
    .await
}

/// Take a seat in a game that is waiting for players
#[poise::command(slash_command)]
async fn join(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game, or the one open in this channel)"]
    game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Join {
            game: game_id(game),
        },
    )
    .await
}

/// Give up your seat before the game starts
#[poise::command(slash_command)]
async fn leave(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Leave {
            game: game_id(game),
        },
    )
    .await
}

/// Start your game with the players who have joined
#[poise::command(slash_command)]
async fn start(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Start {
            game: game_id(game),
        },
    )
    .await
}

/// Call off your game before it starts
#[poise::command(slash_command)]
async fn abort(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Abort {
            game: game_id(game),
        },
    )
    .await
}

/// How strongly a computer player plays.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
enum ComputerLevel {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

impl ComputerLevel {
    fn name(self) -> &'static str {
        match self {
            ComputerLevel::Easy => "easy",
            ComputerLevel::Medium => "medium",
            ComputerLevel::Hard => "hard",
        }
    }
}

/// Fill an open seat of your game with a computer player
#[poise::command(slash_command)]
async fn addbot(
    ctx: Context<'_>,
    #[description = "How strongly it plays (default medium)"] level: Option<ComputerLevel>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::AddBot {
            level: level.map(|l| l.name().to_string()),
            game: game_id(game),
        },
    )
    .await
}

/// Make your move (SAN like Nf3, or coordinates like g1f3)
#[poise::command(slash_command, rename = "move")]
async fn r#move(
    ctx: Context<'_>,
    #[description = "Your move; start typing to see the legal ones"]
    #[autocomplete = "autocomplete_move"]
    #[rename = "move"]
    text: String,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Move {
            text,
            game: game_id(game),
        },
    )
    .await
}

/// List the moves you may make now, privately
#[poise::command(slash_command)]
async fn moves(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Moves {
            game: game_id(game),
        },
    )
    .await
}

async fn autocomplete_secret(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let user = user_of(ctx.author());
    let place = match ctx.guild_id() {
        Some(server) => Place::channel(server.to_string(), ctx.channel_id().to_string()),
        None => Place::DirectMessage,
    };
    ctx.data()
        .service
        .secret_suggestions(&user, &place, None, partial, 25)
        .await
}

/// Make a secret choice privately (in direct messages)
#[poise::command(slash_command)]
async fn secret(
    ctx: Context<'_>,
    #[description = "Your choice; start typing to see them"]
    #[autocomplete = "autocomplete_secret"]
    choice: String,
    #[description = "The game's number (default: the one waiting for you)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Secret {
            text: choice,
            game: game_id(game),
        },
    )
    .await
}

/// See the board from your side, privately
#[poise::command(slash_command)]
async fn board(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
    #[description = "Something more to draw, where the game offers it (Shadow Chess: white or black shadows)"]
    show: Option<String>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Board {
            game: game_id(game),
            show,
        },
    )
    .await
}

/// Resign the game
#[poise::command(slash_command)]
async fn resign(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Resign {
            game: game_id(game),
        },
    )
    .await
}

/// What to do about a draw.
#[derive(Debug, poise::ChoiceParameter)]
enum DrawDecision {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// Offer a draw, accept one, or decline it
#[poise::command(slash_command)]
async fn draw(
    ctx: Context<'_>,
    #[description = "offer or accept (the default), or decline"] decision: Option<DrawDecision>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    let choice = match decision {
        Some(DrawDecision::Accept) => DrawChoice::Accept,
        Some(DrawDecision::Decline) => DrawChoice::Decline,
        Some(DrawDecision::Offer) | None => DrawChoice::OfferOrAccept,
    };
    respond(
        ctx,
        Command::Draw {
            choice,
            game: game_id(game),
        },
    )
    .await
}

/// What to do about a takeback.
#[derive(Debug, poise::ChoiceParameter)]
enum TakebackDecision {
    #[name = "ask"]
    Ask,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// Ask to take back your last move, or accept or decline such a request
#[poise::command(slash_command)]
async fn takeback(
    ctx: Context<'_>,
    #[description = "ask (the default), accept or decline"] decision: Option<TakebackDecision>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    let choice = match decision {
        Some(TakebackDecision::Accept) => TakebackChoice::Accept,
        Some(TakebackDecision::Decline) => TakebackChoice::Decline,
        Some(TakebackDecision::Ask) | None => TakebackChoice::Ask,
    };
    respond(
        ctx,
        Command::Takeback {
            choice,
            game: game_id(game),
        },
    )
    .await
}

/// Ask to play a finished game again, seats turned round
#[poise::command(slash_command)]
async fn rematch(
    ctx: Context<'_>,
    #[description = "The finished game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Rematch {
            game: game_id(game),
        },
    )
    .await
}

/// List your games
#[poise::command(slash_command)]
async fn games(ctx: Context<'_>) -> Result<(), Error> {
    respond(ctx, Command::Games).await
}

/// List finished games (yours, or another player's), ten to a page
#[poise::command(slash_command)]
async fn history(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
    #[description = "Only games of this variant"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Which page of ten (default 1)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::History {
            user: user.map(|u| u.id.to_string()),
            variant,
            page: page.map(|p| p as usize),
        },
    )
    .await
}

/// Download a game's record (PGN, PDN or JSON): yours privately while it runs, for all once it ends
#[poise::command(slash_command)]
async fn export(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Export {
            game: game_id(game),
        },
    )
    .await
}

/// Sum up one game: players, result, moves, dates and thread
#[poise::command(slash_command, rename = "game")]
async fn game_summary(
    ctx: Context<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: i64,
) -> Result<(), Error> {
    respond(ctx, Command::GameInfo { game: GameId(game) }).await
}

/// An animated GIF of a game, move by move: privately while it runs, for all once it ends
#[poise::command(slash_command)]
async fn replay(
    ctx: Context<'_>,
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Replay {
            game: game_id(game),
        },
    )
    .await
}

/// Best scores on this server of a game played for points
#[poise::command(slash_command)]
async fn scores(
    ctx: Context<'_>,
    #[description = "The game (cooperative, golf)"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
) -> Result<(), Error> {
    respond(ctx, Command::Scores { variant }).await
}

/// A player's ratings on this server (yours by default)
#[poise::command(slash_command)]
async fn rating(
    ctx: Context<'_>,
    #[description = "The player (default: you)"] user: Option<serenity::User>,
    #[description = "The game (default: every game); add partners or cutthroat for one mode"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Rating {
            user: user.map(|u| Who::User(user_of(&u))),
            variant,
        },
    )
    .await
}

/// The ten best ratings of a game on this server
#[poise::command(slash_command)]
async fn leaderboard(
    ctx: Context<'_>,
    #[description = "The game; add partners or cutthroat for one mode (doubles partners)"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
) -> Result<(), Error> {
    respond(ctx, Command::Leaderboard { variant }).await
}

/// A player's games, results and ratings per game on this server
#[poise::command(slash_command)]
async fn stats(
    ctx: Context<'_>,
    #[description = "The player (default: you)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Stats {
            user: user.map(|u| Who::User(user_of(&u))),
        },
    )
    .await
}

/// List the games Rookery plays
#[poise::command(slash_command)]
async fn variants(ctx: Context<'_>) -> Result<(), Error> {
    respond(ctx, Command::Variants).await
}

/// Show the rules and options of a game
#[poise::command(slash_command)]
async fn rules(
    ctx: Context<'_>,
    #[description = "The game (see /variants)"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
) -> Result<(), Error> {
    respond(ctx, Command::Rules { variant }).await
}

/// Read direct messages that could not be delivered
#[poise::command(slash_command)]
async fn inbox(ctx: Context<'_>) -> Result<(), Error> {
    respond(ctx, Command::Inbox).await
}

/// How to play with Rookery
#[poise::command(slash_command)]
async fn help(ctx: Context<'_>) -> Result<(), Error> {
    respond(ctx, Command::Help).await
}

// ---- permissions: what Rookery needs, what it lacks where, and the invite that grants it -------

/// What Rookery needs of Discord's permissions where games are played, and what it does where
/// they are missing: `/play` refuses privately, naming them; a game whose thread refuses a post
/// goes on in its channel; start-up logs what each server lacks; and the invite link asks for
/// them. All of these use the one set [`PLAY_PERMISSIONS`].
pub mod permissions {
    use super::serenity::{
        GuildId, PermissionOverwrite, PermissionOverwriteType, Permissions, RoleId,
    };
    use super::*;

    /// Each permission Rookery needs where games are played, in the order Discord's channel
    /// settings list them: its name there, and what goes wrong without it.
    const NEEDED: [(Permissions, &str, &str); 6] = [
        (
            Permissions::VIEW_CHANNEL,
            "View Channel",
            "Rookery cannot see the channel",
        ),
        (
            Permissions::SEND_MESSAGES,
            "Send Messages",
            "games cannot be announced there",
        ),
        (
            Permissions::SEND_MESSAGES_IN_THREADS,
            "Send Messages in Threads",
            "moves and boards cannot be posted in the games' threads",
        ),
        (
            Permissions::CREATE_PUBLIC_THREADS,
            "Create Public Threads",
            "games cannot get their threads",
        ),
        (
            Permissions::ATTACH_FILES,
            "Attach Files",
            "boards cannot be posted there",
        ),
        (
            Permissions::READ_MESSAGE_HISTORY,
            "Read Message History",
            "game threads cannot be started from their announcements",
        ),
    ];

    /// Every permission Rookery needs, and nothing more: what its invite asks for and what
    /// `/play` and the start-up check look for.
    pub const PLAY_PERMISSIONS: Permissions = Permissions::from_bits_truncate(
        Permissions::VIEW_CHANNEL.bits()
            | Permissions::SEND_MESSAGES.bits()
            | Permissions::SEND_MESSAGES_IN_THREADS.bits()
            | Permissions::CREATE_PUBLIC_THREADS.bits()
            | Permissions::ATTACH_FILES.bits()
            | Permissions::READ_MESSAGE_HISTORY.bits(),
    );

    /// The link that adds Rookery (application `client_id`) to a server with exactly
    /// [`PLAY_PERMISSIONS`] and its slash commands.
    pub fn invite_url(client_id: u64) -> String {
        format!(
            "https://discord.com/oauth2/authorize?client_id={client_id}&permissions={}\
             &scope=bot%20applications.commands",
            PLAY_PERMISSIONS.bits()
        )
    }

    /// The names of the permissions Rookery needs that `granted` lacks, as Discord's settings
    /// name them, in their order there; none for an administrator.
    pub fn missing_for_play(granted: Permissions) -> Vec<&'static str> {
        if granted.contains(Permissions::ADMINISTRATOR) {
            return Vec::new();
        }
        NEEDED
            .iter()
            .filter(|(permission, _, _)| !granted.contains(*permission))
            .map(|(_, name, _)| *name)
            .collect()
    }

    /// What Rookery lacks for play in the channel of a command, from the bot's permissions
    /// there as Discord computed them for the interaction (`app_permissions`).
    pub(super) fn missing_here(ctx: Context<'_>) -> Vec<&'static str> {
        let poise::Context::Application(application) = ctx else {
            return Vec::new();
        };
        application
            .interaction
            .app_permissions
            .map(missing_for_play)
            .unwrap_or_default()
    }

    /// `/play`'s private answer where Rookery lacks `missing` in the channel: what to grant, and
    /// where an admin grants it.
    pub fn missing_answer(missing: &[&str]) -> String {
        let (these, them) = if missing.len() == 1 {
            ("this permission", "it")
        } else {
            ("these permissions", "them")
        };
        format!(
            "I cannot run games in this channel: I lack {these} here: {}. A server admin can \
             grant {them} to Rookery in the channel's settings (Edit Channel → Permissions) or \
             to its role (Server Settings → Roles). No game was started.",
            missing.join(", ")
        )
    }

    /// The bot's permissions in a server before any channel's overwrites, by Discord's
    /// documented algorithm: everything for the server's owner; otherwise what @everyone and
    /// the bot's roles grant together, and everything with Administrator.
    pub fn base_permissions(
        everyone: Permissions,
        roles: &[Permissions],
        owner: bool,
    ) -> Permissions {
        if owner {
            return Permissions::all();
        }
        let base = roles.iter().fold(everyone, |all, role| all | *role);
        if base.contains(Permissions::ADMINISTRATOR) {
            Permissions::all()
        } else {
            base
        }
    }

    /// The bot (user `me`, with `roles`) in a channel of server `guild`, from its `base`
    /// permissions and the channel's overwrites, in Discord's documented order: the @everyone
    /// overwrite, then the overwrites of the bot's roles taken together, then the bot's own as
    /// a member; each removes its denials, then adds its allowances. An administrator is not
    /// bound by overwrites.
    pub fn channel_permissions(
        base: Permissions,
        guild: GuildId,
        me: UserId,
        roles: &[RoleId],
        overwrites: &[PermissionOverwrite],
    ) -> Permissions {
        if base.contains(Permissions::ADMINISTRATOR) {
            return Permissions::all();
        }
        let none = (Permissions::empty(), Permissions::empty());
        let (mut everyone, mut role, mut member) = (none, none, none);
        for overwrite in overwrites {
            let (allow, deny) = (overwrite.allow, overwrite.deny);
            match overwrite.kind {
                PermissionOverwriteType::Role(id) if id.get() == guild.get() => {
                    everyone = (allow, deny)
                }
                PermissionOverwriteType::Role(id) if roles.contains(&id) => {
                    role = (role.0 | allow, role.1 | deny)
                }
                PermissionOverwriteType::Member(id) if id == me => member = (allow, deny),
                _ => {}
            }
        }
        [everyone, role, member]
            .into_iter()
            .fold(base, |permissions, (allow, deny)| {
                (permissions & !deny) | allow
            })
    }

    /// The start-up check's findings in one server, in words an admin can act on: for each
    /// permission Rookery needs, the text channels (`#name`, permissions) it can see yet lacks
    /// it in, and what goes wrong there. Channels hidden from Rookery (no View Channel) are
    /// taken to be meant so: games are played elsewhere.
    pub fn play_warnings(server: &str, channels: &[(String, Permissions)]) -> Vec<String> {
        let visible: Vec<&(String, Permissions)> = channels
            .iter()
            .filter(|(_, granted)| granted.contains(Permissions::VIEW_CHANNEL))
            .collect();
        if visible.is_empty() {
            if channels.is_empty() {
                return Vec::new();
            }
            return vec![format!(
                "In server {server}, Rookery cannot see any text channel: grant it View Channel \
                 where games are to be played"
            )];
        }
        NEEDED
            .iter()
            .filter(|(permission, _, _)| *permission != Permissions::VIEW_CHANNEL)
            .filter_map(|(permission, name, consequence)| {
                let lacking: Vec<String> = visible
                    .iter()
                    .filter(|(_, granted)| !granted.contains(*permission))
                    .map(|(channel, _)| format!("#{channel}"))
                    .collect();
                (!lacking.is_empty()).then(|| {
                    format!(
                        "In server {server}, Rookery lacks {name} in {}: {consequence}",
                        channel_list(&lacking)
                    )
                })
            })
            .collect()
    }

    /// Channels named in a log line: the first ten, then how many more.
    fn channel_list(channels: &[String]) -> String {
        const SHOWN: usize = 10;
        if channels.len() <= SHOWN {
            channels.join(", ")
        } else {
            format!(
                "{} and {} more",
                channels[..SHOWN].join(", "),
                channels.len() - SHOWN
            )
        }
    }

    /// The start-up check of one server Rookery (user `me`) is in, from the GUILD_CREATE
    /// Discord sends after READY (the server's roles, its channels with their overwrites, and
    /// Rookery's own membership): logs what is missing for play, or that nothing is.
    pub(super) fn check_server(me: UserId, guild: &serenity::Guild) {
        let Some(member) = guild.members.get(&me) else {
            tracing::warn!(
                "In server {}, Rookery could not check its permissions: Discord did not say \
                 which roles it has there",
                guild.name
            );
            return;
        };
        let role_permissions = |id: &RoleId| guild.roles.get(id).map(|role| role.permissions);
        let everyone = role_permissions(&guild.id.everyone_role()).unwrap_or_default();
        let roles: Vec<Permissions> = member.roles.iter().filter_map(role_permissions).collect();
        let base = base_permissions(everyone, &roles, guild.owner_id == me);
        let mut channels: Vec<(String, Permissions)> = guild
            .channels
            .values()
            .filter(|c| matches!(c.kind, ChannelType::Text | ChannelType::News))
            .map(|c| {
                let granted = channel_permissions(
                    base,
                    guild.id,
                    me,
                    &member.roles,
                    &c.permission_overwrites,
                );
                (c.name.clone(), granted)
            })
            .collect();
        channels.sort_by(|(a, _), (b, _)| a.cmp(b));
        let warnings = play_warnings(&guild.name, &channels);
        if warnings.is_empty() {
            tracing::info!(
                server = %guild.name,
                channels = channels.len(),
                "Rookery has every permission it needs in the server's text channels"
            );
        }
        for warning in warnings {
            tracing::warn!("{warning}");
        }
    }

    /// Discord's error code for a request refused because the bot cannot see the channel.
    const MISSING_ACCESS: isize = 50001;
    /// Discord's error code for a request refused for a permission the bot lacks.
    const MISSING_PERMISSIONS: isize = 50013;

    /// The permission a post in a game's thread was refused for, named as Discord's settings
    /// name it, if it was refused for one. Discord does not say which one is missing: a post
    /// with a file may lack either.
    pub(super) fn refused_permission(
        error: &serenity::Error,
        with_file: bool,
    ) -> Option<&'static str> {
        match discord_code(error)? {
            MISSING_ACCESS => Some("View Channel"),
            MISSING_PERMISSIONS if with_file => Some("Send Messages in Threads or Attach Files"),
            MISSING_PERMISSIONS => Some("Send Messages in Threads"),
            _ => None,
        }
    }

    /// A post the game's channel refuses too, for a permission: kept and tried again later
    /// (an admin giving the permission back lets it through), never dropped.
    fn refused_for_now(game: GameId, error: serenity::Error) -> DeliveryError {
        if refused_permission(&error, false).is_some() {
            DeliveryError::retry(format!(
                "game {game}: the thread and the channel both refuse its posts ({error}); \
                 kept until a permission is given back"
            ))
        } else {
            delivery_error("posting in the game's channel", error)
        }
    }

    /// The line that opens each post of a game moved from its thread to its channel.
    pub fn thread_refused_notice(game: GameId, permission: &str) -> String {
        format!(
            "Game {game}: I can no longer post in the game's thread (missing permission: \
             {permission}); the game goes on here."
        )
    }

    impl DiscordCourier {
        /// Posts an item its game's thread refused, for a permission the bot lost there, in
        /// the game's own channel, opened by a notice that says why: the game goes on there and
        /// nothing is lost. The next post tries the thread first again, so the game returns to
        /// its thread once the permission is given back.
        pub(super) async fn post_in_game_channel(
            &self,
            service: &Service,
            item: &Pending,
            game: GameId,
            permission: &str,
        ) -> Result<serenity::MessageId, DeliveryError> {
            let row = game_row(service, game).await?;
            let channel = discord_channel(&row.channel)?;
            tracing::warn!(
                "the thread of game {game} refused a post (missing permission: {permission}); \
                 posting in the game's channel"
            );
            let post = &item.post;
            let text = format!(
                "{}\n{}",
                thread_refused_notice(game, permission),
                expanded(service, &post.text).await
            );
            match self
                .send_parts(channel, item, &text, post.image.as_deref(), 'c')
                .await
            {
                Ok(id) => Ok(id),
                // The channel refuses the picture too (Attach Files is taken from the whole
                // channel, threads included): the text goes without it, saying so.
                Err(e) if post.image.is_some() && refused_permission(&e, true).is_some() => {
                    let text = format!(
                        "{text}\n(The board could not be attached: I am missing Attach Files \
                         here. `/board` shows it once the permission is back.)"
                    );
                    self.send_parts(channel, item, &text, None, 'n')
                        .await
                        .map_err(|e| refused_for_now(game, e))
                }
                Err(e) => Err(refused_for_now(game, e)),
            }
        }

        /// Posts `text` in parts where it is long (each part with its own nonce, tagged with
        /// `tag` so that the same post sent elsewhere is never taken for this one; the picture
        /// and buttons with the last part), giving the last part's id.
        async fn send_parts(
            &self,
            channel: ChannelId,
            item: &Pending,
            text: &str,
            image: Option<&[u8]>,
            tag: char,
        ) -> Result<serenity::MessageId, serenity::Error> {
            let parts = split_message(text);
            let last = parts.len().saturating_sub(1);
            let mut posted = None;
            for (n, part) in parts.into_iter().enumerate() {
                let nonce = if n == last {
                    format!("rookery-{}{tag}", item.id)
                } else {
                    format!("rookery-{}-{n}{tag}", item.id)
                };
                let mut message = CreateMessage::new()
                    .content(part)
                    .nonce(serenity::Nonce::String(nonce))
                    .enforce_nonce(true);
                if n == last {
                    if let Some(png) = image {
                        message =
                            message.add_file(CreateAttachment::bytes(png.to_vec(), "board.png"));
                    }
                    let rows = components(item);
                    if !rows.is_empty() {
                        message = message.components(rows);
                    }
                }
                posted = Some(channel.send_message(&self.http, message).await?.id);
            }
            // `split_message` gives at least one part, even for an empty text.
            posted.ok_or(serenity::Error::Other("a post with nothing to send"))
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The invite asks for exactly the permissions the checks look for, and for the number
        /// the README gives (1024 + 2048 + 32768 + 65536 + 2^35 + 2^38).
        #[test]
        fn the_invite_asks_for_exactly_what_the_checks_need() {
            let checked = NEEDED
                .iter()
                .fold(Permissions::empty(), |all, (permission, _, _)| {
                    all | *permission
                });
            assert_eq!(checked, PLAY_PERMISSIONS);
            assert_eq!(PLAY_PERMISSIONS.bits(), 309_237_746_688);
            assert_eq!(
                invite_url(42),
                "https://discord.com/oauth2/authorize?client_id=42&permissions=309237746688\
                 &scope=bot%20applications.commands"
            );
            // Everything named is missing from nothing, and nothing from everything.
            assert_eq!(missing_for_play(PLAY_PERMISSIONS), Vec::<&str>::new());
            assert_eq!(missing_for_play(Permissions::all()), Vec::<&str>::new());
        }

        #[test]
        fn missing_permissions_are_named_as_discord_names_them() {
            let granted =
                PLAY_PERMISSIONS - Permissions::CREATE_PUBLIC_THREADS - Permissions::ATTACH_FILES;
            assert_eq!(
                missing_for_play(granted),
                vec!["Create Public Threads", "Attach Files"]
            );
            assert_eq!(
                missing_for_play(Permissions::empty()),
                vec![
                    "View Channel",
                    "Send Messages",
                    "Send Messages in Threads",
                    "Create Public Threads",
                    "Attach Files",
                    "Read Message History"
                ]
            );
            // An administrator has every permission, whatever the bits say.
            assert!(missing_for_play(Permissions::ADMINISTRATOR).is_empty());
            let answer = missing_answer(&["Attach Files"]);
            assert!(
                answer.contains("this permission here: Attach Files."),
                "{answer}"
            );
            assert!(answer.contains("No game was started"), "{answer}");
        }

        #[test]
        fn base_permissions_follow_discords_algorithm() {
            let everyone = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES;
            let role = Permissions::ATTACH_FILES;
            assert_eq!(base_permissions(everyone, &[role], false), everyone | role);
            assert_eq!(base_permissions(everyone, &[], false), everyone);
            // The owner, and a role with Administrator, have everything.
            assert_eq!(
                base_permissions(Permissions::empty(), &[], true),
                Permissions::all()
            );
            assert_eq!(
                base_permissions(everyone, &[Permissions::ADMINISTRATOR], false),
                Permissions::all()
            );
        }

        fn overwrite(
            kind: PermissionOverwriteType,
            allow: Permissions,
            deny: Permissions,
        ) -> PermissionOverwrite {
            PermissionOverwrite { allow, deny, kind }
        }

        #[test]
        fn channel_overwrites_apply_in_discords_order() {
            let guild = GuildId::new(10);
            let me = UserId::new(20);
            let mine = RoleId::new(30);
            let other = RoleId::new(31);
            let everyone_role = PermissionOverwriteType::Role(RoleId::new(10));
            let none = Permissions::empty();
            let base = PLAY_PERMISSIONS;

            // No overwrites: the base.
            assert_eq!(channel_permissions(base, guild, me, &[mine], &[]), base);
            // @everyone's denial takes a permission away.
            let deny_files = [overwrite(everyone_role, none, Permissions::ATTACH_FILES)];
            assert_eq!(
                channel_permissions(base, guild, me, &[mine], &deny_files),
                base - Permissions::ATTACH_FILES
            );
            // A role of the bot's allows it again; a role it does not have does nothing.
            let mut allowed_again = deny_files.to_vec();
            allowed_again.push(overwrite(
                PermissionOverwriteType::Role(mine),
                Permissions::ATTACH_FILES,
                none,
            ));
            assert_eq!(
                channel_permissions(base, guild, me, &[mine], &allowed_again),
                base
            );
            assert_eq!(
                channel_permissions(base, guild, me, &[other], &allowed_again),
                base - Permissions::ATTACH_FILES
            );
            // Among the bot's roles, an allowance wins over another role's denial.
            let roles_disagree = [
                overwrite(
                    PermissionOverwriteType::Role(mine),
                    none,
                    Permissions::SEND_MESSAGES,
                ),
                overwrite(
                    PermissionOverwriteType::Role(other),
                    Permissions::SEND_MESSAGES,
                    none,
                ),
            ];
            assert_eq!(
                channel_permissions(base, guild, me, &[mine, other], &roles_disagree),
                base
            );
            // The bot's own overwrite comes last: it denies over a role's allowance.
            let member_denies = [
                overwrite(
                    PermissionOverwriteType::Role(mine),
                    Permissions::CREATE_PUBLIC_THREADS,
                    none,
                ),
                overwrite(
                    PermissionOverwriteType::Member(me),
                    none,
                    Permissions::CREATE_PUBLIC_THREADS,
                ),
                overwrite(
                    PermissionOverwriteType::Member(UserId::new(21)),
                    none,
                    Permissions::SEND_MESSAGES,
                ),
            ];
            assert_eq!(
                channel_permissions(base, guild, me, &[mine], &member_denies),
                base - Permissions::CREATE_PUBLIC_THREADS
            );
            // An administrator is bound by no overwrite.
            assert_eq!(
                channel_permissions(Permissions::all(), guild, me, &[mine], &member_denies),
                Permissions::all()
            );
        }

        #[test]
        fn start_up_warnings_name_the_permission_the_channels_and_the_consequence() {
            let all = PLAY_PERMISSIONS;
            let channels = vec![
                ("games".to_string(), all - Permissions::ATTACH_FILES),
                ("chess".to_string(), all - Permissions::ATTACH_FILES),
                ("general".to_string(), all),
                // Hidden from Rookery on purpose: not reported.
                ("staff".to_string(), Permissions::empty()),
            ];
            assert_eq!(
                play_warnings("Chess Club", &channels),
                vec![
                    "In server Chess Club, Rookery lacks Attach Files in #games, #chess: boards \
                     cannot be posted there"
                ]
            );
            let threads = vec![(
                "games".to_string(),
                all - Permissions::CREATE_PUBLIC_THREADS - Permissions::SEND_MESSAGES_IN_THREADS,
            )];
            assert_eq!(
                play_warnings("Chess Club", &threads),
                vec![
                    "In server Chess Club, Rookery lacks Send Messages in Threads in #games: \
                     moves and boards cannot be posted in the games' threads",
                    "In server Chess Club, Rookery lacks Create Public Threads in #games: games \
                     cannot get their threads",
                ]
            );
            assert!(play_warnings("Chess Club", &[("games".to_string(), all)]).is_empty());
            assert!(play_warnings("Chess Club", &[]).is_empty());
            let hidden =
                play_warnings("Chess Club", &[("games".to_string(), Permissions::empty())]);
            assert_eq!(hidden.len(), 1);
            assert!(
                hidden[0].contains("cannot see any text channel"),
                "{hidden:?}"
            );
            let many: Vec<(String, Permissions)> = (0..12)
                .map(|n| (format!("c{n:02}"), all - Permissions::SEND_MESSAGES))
                .collect();
            let warnings = play_warnings("Chess Club", &many);
            let warning = &warnings[0];
            assert!(
                warning.contains("#c09 and 2 more: games cannot be announced there"),
                "{warning}"
            );
        }

        #[test]
        fn a_moved_post_says_why() {
            assert_eq!(
                thread_refused_notice(GameId(3), "Send Messages in Threads"),
                "Game 3: I can no longer post in the game's thread (missing permission: Send \
                 Messages in Threads); the game goes on here."
            );
        }
    }
}

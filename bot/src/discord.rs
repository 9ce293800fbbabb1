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
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ChannelId, ChannelType, CreateActionRow, CreateAttachment, CreateButton,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateThread, UserId,
};

use crate::commands::{self, Command, SORRY};
use crate::model::{self, Button, ButtonAction, GameId, Pending, Place, Reply, Target, User};
use crate::service::{Deliver, DeliveryError, DrawChoice, Service, ServiceError};

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
        r#move(),
        secret(),
        board(),
        resign(),
        draw(),
        games(),
        variants(),
        rules(),
        inbox(),
        help(),
    ]
}

/// Runs the bot until it is stopped.
pub async fn run(service: Arc<Service>, token: String, guild: Option<u64>) -> Result<(), String> {
    let intents = serenity::GatewayIntents::non_privileged();
    let framework_service = service.clone();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands(),
            event_handler: |ctx, event, _framework, data| Box::pin(on_event(ctx, event, data)),
            on_error: |error| Box::pin(on_error(error)),
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                match guild {
                    Some(g) => {
                        poise::builtins::register_in_guild(ctx, &framework.options().commands, serenity::GuildId::new(g))
                            .await?
                    }
                    None => poise::builtins::register_globally(ctx, &framework.options().commands).await?,
                }
                tracing::info!(user = %ready.user.name, "connected to Discord; commands registered");
                spawn_workers(framework_service.clone(), ctx.http.clone());
                Ok(Data { service: framework_service })
            })
        })
        .build();
    let mut client = serenity::ClientBuilder::new(token, intents)
        .framework(framework)
        .await
        .map_err(|e| format!("could not start the Discord client: {e}"))?;
    client
        .start()
        .await
        .map_err(|e| format!("Discord client stopped: {e}"))
}

/// The outbox courier and the clock, both running for the life of the bot.
fn spawn_workers(service: Arc<Service>, http: Arc<serenity::Http>) {
    let courier = DiscordCourier { http };
    let s = service.clone();
    tokio::spawn(async move {
        let ready = s.outbox_ready();
        loop {
            if let Err(e) = s.flush_outbox(&courier).await {
                tracing::error!("outbox: {e}");
            }
            tokio::select! {
                _ = ready.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(30)) => {}
            }
        }
    });
    tokio::spawn(async move {
        loop {
            match service.tick().await {
                Ok(n) if n > 0 => tracing::info!(games = n, "clocks handled"),
                Ok(_) => {}
                Err(e) => tracing::error!("clock: {e}"),
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

/// Writes `{@id}` as a Discord mention and `{#game}` as a link to the game's thread.
async fn discord_text(service: &Service, text: &str) -> String {
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
    let text = model::expand(
        text,
        |user| format!("<@{user}>"),
        |game| {
            threads
                .get(&game.0)
                .map_or(format!("game {game}"), |t| format!("<#{t}>"))
        },
    );
    truncate(text)
}

fn truncate(mut text: String) -> String {
    if text.chars().count() > MESSAGE_LIMIT {
        text = text.chars().take(MESSAGE_LIMIT - 1).collect();
        text.push('…');
    }
    text
}

/// Defers (so slow work never hits the 3-second limit), runs the command, replies privately.
async fn respond(ctx: Context<'_>, command: Command) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let user = user_of(ctx.author());
    let place = match ctx.guild_id() {
        Some(_) => Place::Channel(ctx.channel_id().to_string()),
        None => Place::DirectMessage,
    };
    let service = &ctx.data().service;
    let reply = answer(commands::run(service, &user, &place, command).await);
    let mut message = poise::CreateReply::default()
        .content(discord_text(service, &reply.text).await)
        .ephemeral(true);
    if let Some(png) = reply.image {
        message = message.attachment(CreateAttachment::bytes(png, "board.png"));
    }
    ctx.send(message).await?;
    Ok(())
}

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
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!("while handling an error: {e}");
            }
        }
    }
}

/// Button presses, wherever and whenever their message was posted.
async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    let serenity::FullEvent::InteractionCreate { interaction } = event else {
        return Ok(());
    };
    let Some(component) = interaction.as_message_component() else {
        return Ok(());
    };
    let Some(button) = Button::from_custom_id(&component.data.custom_id) else {
        return Ok(());
    };
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    component.create_response(ctx, defer).await?;
    let user = user_of(&component.user);
    let place = Place::Channel(component.channel_id.to_string());
    let reply = answer(data.service.press(&user, &place, button).await);
    let mut followup = CreateInteractionResponseFollowup::new()
        .content(discord_text(&data.service, &reply.text).await)
        .ephemeral(true);
    if let Some(png) = reply.image {
        followup = followup.add_file(CreateAttachment::bytes(png, "board.png"));
    }
    component.create_followup(ctx, followup).await?;
    Ok(())
}

/// Posts outbox items to Discord.
struct DiscordCourier {
    http: Arc<serenity::Http>,
}

impl DiscordCourier {
    /// The game's thread, made in its channel the first time something is posted there.
    async fn thread(&self, service: &Service, game: GameId) -> Result<ChannelId, DeliveryError> {
        let row = service
            .store()
            .game(game)
            .await
            .map_err(|e| DeliveryError::Retry(e.to_string()))?
            .ok_or_else(|| DeliveryError::Retry(format!("game {game} is gone")))?;
        if let Some(id) = row.thread.as_deref().and_then(|t| t.parse::<u64>().ok()) {
            return Ok(ChannelId::new(id));
        }
        let channel = row
            .channel
            .parse::<u64>()
            .map(ChannelId::new)
            .map_err(|_| DeliveryError::Retry(format!("game {game} has no Discord channel")))?;
        let name = format!(
            "Game {game} · {}",
            registry::variant(&row.variant)
                .map(|v| v.info().name)
                .unwrap_or("game")
        );
        let thread = channel
            .create_thread(
                &self.http,
                CreateThread::new(name)
                    .kind(ChannelType::PublicThread)
                    .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
            )
            .await
            .map_err(|e| {
                DeliveryError::Retry(format!("could not make the thread of game {game}: {e}"))
            })?;
        service
            .store()
            .set_thread(game, &thread.id.to_string())
            .await
            .map_err(|e| DeliveryError::Retry(e.to_string()))?;
        Ok(thread.id)
    }
}

impl Deliver for DiscordCourier {
    async fn deliver(&self, service: &Service, item: &Pending) -> Result<(), DeliveryError> {
        let post = &item.post;
        let channel =
            match &post.target {
                Target::Channel(c) => ChannelId::new(c.parse().map_err(|_| {
                    DeliveryError::Retry(format!("'{c}' is not a Discord channel"))
                })?),
                Target::GameThread(g) => self.thread(service, *g).await?,
                Target::Direct(u) => {
                    let user = UserId::new(u.parse().map_err(|_| {
                        DeliveryError::Retry(format!("'{u}' is not a Discord user"))
                    })?);
                    user.create_dm_channel(&self.http)
                        .await
                        .map_err(|_| DeliveryError::DirectMessagesClosed)?
                        .id
                }
            };
        let mut message = CreateMessage::new().content(discord_text(service, &post.text).await);
        if let Some(png) = &post.image {
            message = message.add_file(CreateAttachment::bytes(png.clone(), "board.png"));
        }
        let mut rows = Vec::new();
        if let (false, Some(game)) = (post.choices.is_empty(), item.game) {
            let options = post
                .choices
                .iter()
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
                        ButtonAction::Join | ButtonAction::Start => ButtonStyle::Primary,
                        ButtonAction::Resign => ButtonStyle::Danger,
                        ButtonAction::Draw => ButtonStyle::Secondary,
                    };
                    CreateButton::new(b.custom_id())
                        .label(b.action.label())
                        .style(style)
                })
                .collect();
            rows.push(CreateActionRow::Buttons(buttons));
        }
        if !rows.is_empty() {
            message = message.components(rows);
        }
        match channel.send_message(&self.http, message).await {
            Ok(_) => Ok(()),
            Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)))
                if response.error.code == 50007 =>
            {
                Err(DeliveryError::DirectMessagesClosed)
            }
            Err(e) => Err(DeliveryError::Retry(e.to_string())),
        }
    }
}

// ---- the slash commands: options in, a Command out ---------------------------------------------

async fn autocomplete_variant(_ctx: Context<'_>, partial: &str) -> Vec<String> {
    let partial = partial.to_ascii_lowercase();
    registry::variants()
        .iter()
        .map(|v| v.info().id.to_string())
        .filter(|id| id.contains(&partial))
        .take(25)
        .collect()
}

async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let user = user_of(ctx.author());
    let place = Place::Channel(ctx.channel_id().to_string());
    ctx.data()
        .service
        .suggestions(&user, &place, None, partial, 25)
        .await
}

fn game_id(game: Option<i64>) -> Option<GameId> {
    game.map(GameId)
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
) -> Result<(), Error> {
    let options = options.unwrap_or_default();
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
    #[description = "The game's number (default: this thread's game)"] game: Option<i64>,
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

async fn autocomplete_secret(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let user = user_of(ctx.author());
    let place = match ctx.guild_id() {
        Some(_) => Place::Channel(ctx.channel_id().to_string()),
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
) -> Result<(), Error> {
    respond(
        ctx,
        Command::Board {
            game: game_id(game),
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
        Some(DrawDecision::Decline) => DrawChoice::Decline,
        _ => DrawChoice::OfferOrAccept,
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

/// List your games
#[poise::command(slash_command)]
async fn games(ctx: Context<'_>) -> Result<(), Error> {
    respond(ctx, Command::Games).await
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

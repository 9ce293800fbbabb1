-- Rookery's tables. Times are Unix seconds; ids of users, channels and threads are the
-- frontend's own (Discord snowflakes as text, or console names).

CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    variant       TEXT    NOT NULL,
    options       TEXT    NOT NULL,            -- JSON object of the variant's options
    seat_count    INTEGER NOT NULL,            -- seats the game is played with
    seating       TEXT    NOT NULL DEFAULT 'random', -- random | joined: how seats are given
    status        TEXT    NOT NULL,            -- open | active | finished | aborted
    state         TEXT,                        -- the variant's state as JSON, once started
    version       INTEGER NOT NULL DEFAULT 0,  -- bumped by every change, checked on write
    seed          INTEGER NOT NULL,            -- seed of the game's RNG
    creator       TEXT    NOT NULL,
    channel       TEXT    NOT NULL,            -- where the game was created
    thread        TEXT,                        -- the game's own thread, once made
    days_per_move INTEGER,                     -- NULL: no clock
    deadline      INTEGER,                     -- when the current turn runs out
    reminded      INTEGER NOT NULL DEFAULT 0,  -- whether this turn's reminder went out
    draw_agreed   TEXT    NOT NULL DEFAULT '[]', -- JSON list of seats agreeing to a draw
    result        TEXT,                        -- JSON outcome once finished
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX games_by_thread ON games (thread);
CREATE INDEX games_by_deadline ON games (status, deadline);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    user_id   TEXT    NOT NULL,
    user_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- Everything anyone did to a game, in order.
CREATE TABLE actions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    version    INTEGER NOT NULL,               -- the game's version after the action
    user_id    TEXT,
    seat       INTEGER,
    kind       TEXT    NOT NULL,               -- create, join, leave, start, move, resign, ...
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (game_id, version)
);

-- Posts still to be delivered, written in the same transaction as the change they announce.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER,
    target_kind  TEXT    NOT NULL,             -- channel | thread | dm
    target       TEXT    NOT NULL,             -- channel id, game id or user id
    body         TEXT    NOT NULL,
    image        BLOB,
    buttons      TEXT    NOT NULL DEFAULT '[]',
    choices      TEXT    NOT NULL DEFAULT '[]', -- a private choice's options, for a select menu
    created_at   INTEGER NOT NULL,
    delivered_at INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX outbox_pending ON outbox (delivered_at, id);

-- Direct messages that could not be delivered, kept for the user to read with /inbox.
CREATE TABLE inbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT    NOT NULL,
    game_id    INTEGER,
    body       TEXT    NOT NULL,
    image      BLOB,
    created_at INTEGER NOT NULL,
    read_at    INTEGER
);
CREATE INDEX inbox_by_user ON inbox (user_id, read_at);

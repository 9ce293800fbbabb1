-- Rematches and takebacks.
--
-- A rematch is a new game (same variant, options and clock, seats rotated) that names the
-- finished game it replays in `rematch_of`. It waits for the old game's players: each takes
-- their seat by asking (recorded in rematch_asks), computer seats sit from the start.
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
CREATE INDEX games_by_rematch_of ON games (rematch_of);

CREATE TABLE rematch_asks (
    game_id    INTEGER NOT NULL REFERENCES games (id), -- the finished game
    rematch_id INTEGER NOT NULL REFERENCES games (id), -- the rematch asked for
    user_id    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (rematch_id, user_id)
);
CREATE INDEX rematch_asks_by_game ON rematch_asks (game_id);

-- A request to take back the asker's last action and everything after it. Every other player
-- still in the game answers; the request lapses when an action is played after it.
CREATE TABLE takebacks (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER NOT NULL REFERENCES games (id),
    asker         TEXT    NOT NULL,               -- the asker's user id
    asker_seat    INTEGER NOT NULL,
    undo_from     INTEGER NOT NULL,               -- version of the first action taken back
    asked_version INTEGER NOT NULL,               -- the game's version the request was made at
    accepted      TEXT    NOT NULL DEFAULT '[]',  -- JSON list of seats that accepted
    status        TEXT    NOT NULL,               -- pending | done | declined | lapsed
    answered_by   TEXT,                           -- who declined (user id)
    created_at    INTEGER NOT NULL,
    answered_at   INTEGER
);
CREATE INDEX takebacks_by_game ON takebacks (game_id, status);

-- Actions taken back stay in the log, marked with when they were undone, so the history of a
-- game stays truthful and a replay of it skips them.
ALTER TABLE actions ADD COLUMN undone_at INTEGER;

-- Ratings per server and pool (a variant, or one of its modes the book makes a different game:
-- Doubles partners and cut-throat). One design holds both systems on one scale: two-player
-- games update rating, deviation and volatility by Glicko-2; games of three to eight players
-- update rating and deviation by Weng-Lin (its mu and sigma on Glicko's scale) and leave the
-- volatility as it was. A rating is provisional while its deviation is above 110.
CREATE TABLE ratings (
    server     TEXT    NOT NULL,
    pool       TEXT    NOT NULL,               -- `chess`, `doubles:partners`, ...
    user_id    TEXT    NOT NULL,
    user_name  TEXT    NOT NULL,               -- the name at the player's latest rated game
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,     -- rated games counted in this rating
    wins       INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (server, pool, user_id)
);
CREATE INDEX ratings_by_user ON ratings (server, user_id);

-- Each player's change in each rated game, written in the transaction that ends the game.
CREATE TABLE rating_changes (
    game_id          INTEGER NOT NULL REFERENCES games (id),
    user_id          TEXT    NOT NULL,
    pool             TEXT    NOT NULL,
    rating_before    REAL    NOT NULL,
    rating_after     REAL    NOT NULL,
    deviation_before REAL    NOT NULL,
    deviation_after  REAL    NOT NULL,
    verdict          TEXT    NOT NULL,         -- win | draw | loss
    PRIMARY KEY (game_id, user_id)
);

-- `/play ... rated=no` makes a game casual: it changes nobody's rating.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;

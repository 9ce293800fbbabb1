-- PostgreSQL twin of ../0005_ratings.sql (see there for the rating systems): ratings per server
-- and pool, each player's change in each rated game, and casual (unrated) games.
CREATE TABLE ratings (
    server     TEXT             NOT NULL,
    pool       TEXT             NOT NULL,      -- `chess`, `doubles:partners`, ...
    user_id    TEXT             NOT NULL,
    user_name  TEXT             NOT NULL,      -- the name at the player's latest rated game
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT           NOT NULL DEFAULT 0, -- rated games counted in this rating
    wins       BIGINT           NOT NULL DEFAULT 0,
    draws      BIGINT           NOT NULL DEFAULT 0,
    losses     BIGINT           NOT NULL DEFAULT 0,
    updated_at BIGINT           NOT NULL,
    PRIMARY KEY (server, pool, user_id)
);
CREATE INDEX ratings_by_user ON ratings (server, user_id);

-- Each player's change in each rated game, written in the transaction that ends the game.
CREATE TABLE rating_changes (
    game_id          BIGINT           NOT NULL REFERENCES games (id),
    user_id          TEXT             NOT NULL,
    pool             TEXT             NOT NULL,
    rating_before    DOUBLE PRECISION NOT NULL,
    rating_after     DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    deviation_after  DOUBLE PRECISION NOT NULL,
    verdict          TEXT             NOT NULL, -- win | draw | loss
    PRIMARY KEY (game_id, user_id)
);

-- `/play ... rated=no` makes a game casual: it changes nobody's rating.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;

-- The server (Discord guild) a game was created in, for what is kept per server: the best
-- scores of the games played for points. Games from before this column count as one unnamed
-- server.
ALTER TABLE games ADD COLUMN server TEXT NOT NULL DEFAULT '';
CREATE INDEX games_by_server ON games (server, variant, status);

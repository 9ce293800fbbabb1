-- PostgreSQL twin of ../0003_server.sql: the server (Discord guild) a game was created in.
ALTER TABLE games ADD COLUMN server TEXT NOT NULL DEFAULT '';
CREATE INDEX games_by_server ON games (server, variant, status);

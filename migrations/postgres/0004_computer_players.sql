-- PostgreSQL twin of ../0004_computer_players.sql: a computer seat names its level (easy, medium
-- or hard); a person's seat leaves it NULL.
ALTER TABLE seats ADD COLUMN computer TEXT;

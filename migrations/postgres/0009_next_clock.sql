-- PostgreSQL twin of ../0009_next_clock.sql (INTEGER -> BIGINT); keep the two the same.
-- When a game's clock next needs attention (its reminder, then its deadline), kept on the row
-- and indexed, so finding the clocks due reads only those games instead of every active one:
-- the cost of a clock tick does not grow with the number of games.
ALTER TABLE games ADD COLUMN next_clock_at BIGINT;
UPDATE games SET next_clock_at =
    CASE WHEN status = 'active' AND deadline IS NOT NULL AND days_per_move IS NOT NULL
         THEN CASE WHEN reminded = 0 THEN deadline - days_per_move * 86400 / 4 ELSE deadline END
    END;
CREATE INDEX games_by_next_clock ON games (next_clock_at);

-- Delivery that survives a flaky or rate-limited Discord: a post that could not go out waits
-- (not_before) instead of being dropped; one Discord refuses for good keeps the reason (failure).
-- A game's thread is started from its announcement (thread_anchor), so a repeated delivery after
-- a crash finds the thread it already made instead of making a second one. Once the frontend has
-- posted a message it notes the message's id (sent_as), so a later step of the same delivery
-- that fails (starting the thread) is retried without posting the message again.
ALTER TABLE outbox ADD COLUMN not_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN failure TEXT;
ALTER TABLE outbox ADD COLUMN thread_anchor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN sent_as TEXT;

-- PostgreSQL twin of ../0002_delivery.sql (see there): outbox delivery that survives a flaky or
-- rate-limited Discord (not_before, failure), threads started from their announcement
-- (thread_anchor), and the id of a message already posted (sent_as).
ALTER TABLE outbox ADD COLUMN not_before BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN failure TEXT;
ALTER TABLE outbox ADD COLUMN thread_anchor BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN sent_as TEXT;

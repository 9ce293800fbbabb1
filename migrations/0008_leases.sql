-- Work that exactly one process may do at a time when several share a database (PostgreSQL):
-- delivering the outbox and firing the clocks. A process holds a lease until `held_until` (Unix
-- seconds) and renews it while it works; when it dies, the lease runs out and another process
-- takes the work over. (Version 0007 is the shard claims.)
CREATE TABLE leases (
    name  TEXT    PRIMARY KEY,            -- outbox | clocks
    owner TEXT    NOT NULL,               -- the holding process (host, pid and a random tag)
    held_until INTEGER NOT NULL
);

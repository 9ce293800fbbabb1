-- Discord shards claimed by running processes, so that two processes sharing one database never
-- run the same shard (bot/src/shards.rs). A process claims its range before it connects,
-- renews its claims every 20 seconds and deletes them when it stops; a claim not renewed for
-- 60 seconds (the lease) belongs to a process that died and is taken over. A claim under
-- another shard_count by a live process conflicts with every shard: the bot is being sharded
-- two ways at once.
CREATE TABLE shard_claims (
    shard_count  INTEGER NOT NULL,
    shard_id     INTEGER NOT NULL,
    owner        TEXT    NOT NULL, -- "RANDOM-ID HOST PID MACHINE" of the claiming process
    heartbeat_at INTEGER NOT NULL, -- unix seconds of the last renewal
    PRIMARY KEY (shard_count, shard_id)
);

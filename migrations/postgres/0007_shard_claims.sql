-- PostgreSQL twin of ../0007_shard_claims.sql (see there): the Discord shards each running
-- process has claimed, with the last time it renewed them.
CREATE TABLE shard_claims (
    shard_count  BIGINT NOT NULL,
    shard_id     BIGINT NOT NULL,
    owner        TEXT   NOT NULL, -- "RANDOM-ID HOST PID MACHINE" of the claiming process
    heartbeat_at BIGINT NOT NULL, -- unix seconds of the last renewal
    PRIMARY KEY (shard_count, shard_id)
);

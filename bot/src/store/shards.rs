//! The SQL of Discord shard claims (migration 0007): which process runs which shards, so that
//! two processes sharing one database never run the same shard. The rules around it (the
//! lease, which owners count as gone, the refusal's words) are in [`crate::shards`].

use sqlx::{Executor, Row};

use super::{Backend, DbError, Store};

/// One row of `shard_claims`: a shard a running process holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardClaim {
    /// The bot's total number of shards the claimant runs under.
    pub shard_count: i64,
    pub shard_id: i64,
    /// The claiming process, as `crate::shards::Owner` writes it.
    pub owner: String,
    /// Unix seconds of the claimant's last renewal.
    pub heartbeat_at: i64,
}

fn claim_row(row: &sqlx::any::AnyRow) -> Result<ShardClaim, DbError> {
    Ok(ShardClaim {
        shard_count: row.try_get(0)?,
        shard_id: row.try_get(1)?,
        owner: row.try_get(2)?,
        heartbeat_at: row.try_get(3)?,
    })
}

impl Store {
    /// Claims shards `first..=last` of `count` for `owner` at `now`, in one transaction:
    /// claims not renewed since `now - lease` are deleted, and so are those of owners `gone`
    /// says have stopped; then, if another owner holds one of these shards, or any shard under
    /// another count (the same bot sharded two ways), nothing is claimed and those claims are
    /// returned. Otherwise every shard of the range is claimed (or its claim renewed, for the
    /// same owner) and the list is empty.
    ///
    /// On PostgreSQL the table is locked for the transaction (plain reads go on), so a second
    /// process claiming at the same moment waits and then sees the first one's claims: row
    /// locks could not cover rows not inserted yet. On SQLite the single writer orders claims
    /// anyway (and one process runs on a file).
    #[allow(clippy::too_many_arguments)]
    pub async fn claim_shards(
        &self,
        count: i64,
        first: i64,
        last: i64,
        owner: &str,
        now: i64,
        lease: i64,
        gone: &(dyn Fn(&str) -> bool + Sync),
    ) -> Result<Vec<ShardClaim>, DbError> {
        let expiry = now - lease;
        let mut tx = self.begin().await?;
        if self.backend() == Backend::Postgres {
            (&mut *tx)
                .execute("LOCK TABLE shard_claims IN EXCLUSIVE MODE")
                .await?;
        }
        sqlx::query("DELETE FROM shard_claims WHERE heartbeat_at < $1")
            .bind(expiry)
            .execute(&mut *tx)
            .await?;
        let rows = sqlx::query(
            "SELECT shard_count, shard_id, owner, heartbeat_at FROM shard_claims
             WHERE owner <> $1 ORDER BY owner, shard_count, shard_id",
        )
        .bind(owner)
        .fetch_all(&mut *tx)
        .await?;
        let mut gone_owners: Vec<String> = Vec::new();
        let mut conflicts = Vec::new();
        for row in &rows {
            let claim = claim_row(row)?;
            if gone_owners.contains(&claim.owner) {
                continue;
            }
            if gone(&claim.owner) {
                gone_owners.push(claim.owner.clone());
                continue;
            }
            if claim.shard_count != count || (first..=last).contains(&claim.shard_id) {
                conflicts.push(claim);
            }
        }
        if !conflicts.is_empty() {
            tx.rollback().await?;
            return Ok(conflicts);
        }
        for stopped in &gone_owners {
            sqlx::query("DELETE FROM shard_claims WHERE owner = $1")
                .bind(stopped)
                .execute(&mut *tx)
                .await?;
        }
        // This owner's own claims under another count (a process re-claiming differently)
        // would otherwise linger until it stops.
        sqlx::query("DELETE FROM shard_claims WHERE owner = $1 AND shard_count <> $2")
            .bind(owner)
            .bind(count)
            .execute(&mut *tx)
            .await?;
        for shard in first..=last {
            // The WHERE holds for every row left (the others were refused above); it keeps the
            // upsert from ever taking a live claim should the checks above be bypassed.
            let done = sqlx::query(
                "INSERT INTO shard_claims (shard_count, shard_id, owner, heartbeat_at)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (shard_count, shard_id) DO UPDATE
                 SET owner = excluded.owner, heartbeat_at = excluded.heartbeat_at
                 WHERE shard_claims.owner = excluded.owner OR shard_claims.heartbeat_at < $5",
            )
            .bind(count)
            .bind(shard)
            .bind(owner)
            .bind(now)
            .bind(expiry)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                let holder = sqlx::query(
                    "SELECT shard_count, shard_id, owner, heartbeat_at FROM shard_claims
                     WHERE shard_count = $1 AND shard_id = $2",
                )
                .bind(count)
                .bind(shard)
                .fetch_all(&mut *tx)
                .await?;
                let holders = holder
                    .iter()
                    .map(claim_row)
                    .collect::<Result<Vec<_>, _>>()?;
                tx.rollback().await?;
                return Ok(holders);
            }
        }
        tx.commit().await?;
        Ok(Vec::new())
    }

    /// Renews `owner`'s claims on shards `first..=last` of `count` at `now`; returns how many
    /// of them it still held (fewer than the range: a claim was lost, its lease having lapsed
    /// and another process having taken it).
    pub async fn renew_shards(
        &self,
        count: i64,
        first: i64,
        last: i64,
        owner: &str,
        now: i64,
    ) -> Result<u64, DbError> {
        let done = sqlx::query(
            "UPDATE shard_claims SET heartbeat_at = $1
             WHERE owner = $2 AND shard_count = $3 AND shard_id >= $4 AND shard_id <= $5",
        )
        .bind(now)
        .bind(owner)
        .bind(count)
        .bind(first)
        .bind(last)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected())
    }

    /// Deletes every claim of `owner` (a clean stop); returns how many there were.
    pub async fn release_shards(&self, owner: &str) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM shard_claims WHERE owner = $1")
            .bind(owner)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected())
    }

    /// Every claim, by count and shard.
    pub async fn shard_claims(&self) -> Result<Vec<ShardClaim>, DbError> {
        let rows = sqlx::query(
            "SELECT shard_count, shard_id, owner, heartbeat_at FROM shard_claims
             ORDER BY shard_count, shard_id",
        )
        .fetch_all(&self.writer)
        .await?;
        rows.iter().map(claim_row).collect()
    }
}

//! Discord shards: which of them a process runs (`rookery discord --shards 0-3 --shard-count 8`,
//! or `--shards auto`), and the claims in the database that keep two processes sharing it from
//! running the same shard.
//!
//! Before it connects, a process claims its shards in one transaction (see
//! [`Store::claim_shards`]): claims not renewed for [`LEASE`] are deleted first, then a shard of
//! its range held by another live process, or any shard held under another shard count (the
//! same bot sharded two ways), refuses the start with a sentence naming the holder. While it
//! runs it renews its claims every [`RENEW_EVERY`]; a clean stop deletes them. A process that
//! died holds its shards until its lease runs out, except where Rookery can see it is gone: on
//! SQLite (the file's lock already proves the previous process stopped), and for a process of
//! the same machine whose pid no longer runs (a restart after a crash need not wait).
//!
//! Nothing here knows Discord's types (that is [`crate::discord`]) or SQL (that is
//! [`crate::store`]).

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::store::{Backend, ShardClaim, Store};

/// A claim not renewed for this long belongs to a process that stopped without releasing it,
/// and is taken over.
pub const LEASE: Duration = Duration::from_secs(60);

/// How often a running process renews its claims.
pub const RENEW_EVERY: Duration = Duration::from_secs(20);

/// The most shards a bot may be split into (Discord's largest bots run a few thousand).
pub const MAX_SHARDS: u32 = 65_536;

/// The valid forms, for every message about a wrong `--shards` or `--shard-count`.
const FORM: &str = "--shards FIRST-LAST --shard-count COUNT (as in --shards 0-3 --shard-count 8, \
                    shard ids running from 0 to COUNT - 1), or --shards auto for one process \
                    running as many shards as Discord recommends";

/// Which shards a process runs, as the command line asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shards {
    /// Shard 0 of 1: a bot that does not shard (without the options).
    #[default]
    Single,
    /// These shards of a bot split into `count`.
    Range(ShardRange),
    /// Every shard, as many as Discord recommends (`GET /gateway/bot`).
    Auto,
}

/// Shards `first..=last` of a bot split into `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub count: u32,
}

impl ShardRange {
    /// Every shard of `count` (at least one).
    pub fn all(count: u32) -> ShardRange {
        let count = count.clamp(1, MAX_SHARDS);
        ShardRange {
            first: 0,
            last: count - 1,
            count,
        }
    }

    /// How many shards the range holds.
    pub fn len(&self) -> u32 {
        self.last - self.first + 1
    }

    /// Never: a range holds at least one shard.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn contains(&self, shard: u32) -> bool {
        (self.first..=self.last).contains(&shard)
    }
}

impl std::fmt::Display for ShardRange {
    /// `shards 0-3 of 8`, `shard 2 of 8`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.last {
            write!(f, "shard {} of {}", self.first, self.count)
        } else {
            write!(f, "shards {}-{} of {}", self.first, self.last, self.count)
        }
    }
}

impl Shards {
    /// Reads `--shards` and `--shard-count`. Without either, one shard as a bot that does not
    /// shard; `--shard-count` alone runs every shard of that count; `--shards auto` takes
    /// Discord's count and no `--shard-count`. A range outside `0..count`, a count of 0 or a
    /// malformed range is refused with the valid forms.
    pub fn parse(shards: Option<&str>, count: Option<u32>) -> Result<Shards, String> {
        match count {
            Some(0) => {
                return Err(format!(
                    "--shard-count 0 runs no shard: the count is at least 1; give {FORM}"
                ))
            }
            Some(c) if c > MAX_SHARDS => {
                return Err(format!(
                    "--shard-count {c} is more shards than Rookery runs (at most {MAX_SHARDS}); \
                     give {FORM}"
                ))
            }
            _ => {}
        }
        let Some(text) = shards.map(str::trim) else {
            return Ok(match count {
                None => Shards::Single,
                Some(count) => Shards::Range(ShardRange::all(count)),
            });
        };
        if text.eq_ignore_ascii_case("auto") {
            return match count {
                None => Ok(Shards::Auto),
                Some(c) => Err(format!(
                    "--shards auto takes Discord's recommended shard count, so --shard-count {c} \
                     does not go with it; give {FORM}"
                )),
            };
        }
        let Some((first, last)) = parse_range(text) else {
            return Err(format!(
                "--shards '{text}' is not a shard range; give {FORM}"
            ));
        };
        let Some(count) = count else {
            return Err(format!(
                "--shards {text} needs --shard-count, the bot's total number of shards; give \
                 {FORM}"
            ));
        };
        if first > last {
            return Err(format!(
                "--shards {text} runs backwards (the first shard comes first); give {FORM}"
            ));
        }
        if last >= count {
            return Err(format!(
                "--shards {text} is outside the {count} shards of --shard-count {count}, \
                 numbered 0 to {}; give {FORM}",
                count - 1
            ));
        }
        Ok(Shards::Range(ShardRange { first, last, count }))
    }
}

/// `3-5` or `4` (digits only).
fn parse_range(text: &str) -> Option<(u32, u32)> {
    let number = |s: &str| {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse::<u32>().ok()
    };
    match text.split_once('-') {
        Some((first, last)) => Some((number(first)?, number(last)?)),
        None => number(text).map(|n| (n, n)),
    }
}

// ---- who holds a claim ----------------------------------------------------------------------

/// A process that claims shards: a random id made at start (two runs of one binary, even in one
/// process, never share it), its host and pid for the refusal's sentence, and a key of its
/// machine and pid namespace (Linux boot id and `/proc/self/ns/pid`) under which a pid can be
/// looked up. Written into `shard_claims.owner` as `ID HOST PID MACHINE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub id: String,
    pub host: String,
    pub pid: u32,
    /// `-` where it cannot be known (then the pid is never looked up).
    pub machine: String,
}

impl Owner {
    /// This process, with a new random id.
    pub fn this_process() -> Owner {
        Owner {
            id: format!("{:016x}", rand::random::<u64>()),
            host: hostname(),
            pid: std::process::id(),
            machine: machine(),
        }
    }

    /// `ID HOST PID MACHINE`.
    pub fn encode(&self) -> String {
        format!("{} {} {} {}", self.id, self.host, self.pid, self.machine)
    }

    /// Reads [`Owner::encode`]'s text back; `None` for anything else.
    pub fn decode(text: &str) -> Option<Owner> {
        let mut parts = text.splitn(4, ' ');
        let id = parts.next()?.to_string();
        let host = parts.next()?.to_string();
        let pid = parts.next()?.parse().ok()?;
        let machine = parts.next().unwrap_or("-").to_string();
        Some(Owner {
            id,
            host,
            pid,
            machine,
        })
    }

    /// Whether the process that wrote `other` has certainly stopped, as seen from this one: it
    /// ran on this machine (in this pid namespace) and its pid no longer runs (or is a zombie),
    /// or it was this very process and that run of the bot has ended. Anything else (another
    /// machine, a text that is not an owner) is left to the lease.
    pub fn sees_gone(&self, other: &str) -> bool {
        let Some(other) = Owner::decode(other) else {
            return false;
        };
        if self.machine == "-" || other.machine != self.machine {
            return false;
        }
        if other.pid == self.pid {
            return !LIVE
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains(&other.id);
        }
        !process_runs(other.pid)
    }
}

/// The ids of the claims this process holds now: a run of the bot that ended without
/// releasing its claims (its task dropped) is gone from here at once.
static LIVE: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// An id in [`LIVE`] for as long as this lives.
struct Live(String);

impl Live {
    fn new(id: &str) -> Live {
        LIVE.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.to_string());
        Live(id.to_string())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.0);
    }
}

/// The machine's name, one word.
fn hostname() -> String {
    let name = ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .map(|n| n.trim().replace(char::is_whitespace, "-"))
        .unwrap_or_default();
    if name.is_empty() {
        "unnamed-host".to_string()
    } else {
        name
    }
}

/// This boot of this machine and this pid namespace, where Linux tells them; else `-`.
fn machine() -> String {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id");
    let namespace = std::fs::read_link("/proc/self/ns/pid");
    match (boot, namespace) {
        (Ok(boot), Ok(namespace)) => {
            let key = format!("{}/{}", boot.trim(), namespace.to_string_lossy());
            key.replace(char::is_whitespace, "")
        }
        _ => "-".to_string(),
    }
}

/// Whether `pid` runs in this pid namespace (a zombie, killed but not yet reaped, does not).
fn process_runs(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // `PID (COMMAND) STATE ...`; the command may hold spaces and parentheses.
    let state = stat
        .rfind(')')
        .and_then(|end| stat[end + 1..].trim_start().chars().next());
    !matches!(state, Some('Z' | 'X' | 'x'))
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

// ---- claims ---------------------------------------------------------------------------------

/// Shards this process has claimed in the database; [`Claim::release`] on a clean stop.
pub struct Claim {
    store: Store,
    owner: Owner,
    range: ShardRange,
    _live: Live,
}

impl Claim {
    /// Claims `range` for this process, or refuses with a sentence naming who holds what (see
    /// [`refusal`]).
    pub async fn take(store: &Store, range: ShardRange) -> Result<Claim, String> {
        let owner = Owner::this_process();
        let live = Live::new(&owner.id);
        let claim = Claim {
            store: store.clone(),
            owner,
            range,
            _live: live,
        };
        claim.claim().await?;
        tracing::info!(
            owner = %claim.owner.encode(),
            "claimed {range} in the database"
        );
        Ok(claim)
    }

    /// The shards claimed.
    pub fn range(&self) -> ShardRange {
        self.range
    }

    /// This process as the claims name it.
    pub fn owner(&self) -> &Owner {
        &self.owner
    }

    async fn claim(&self) -> Result<(), String> {
        let now = unix_now();
        let sqlite = self.store.backend() == Backend::Sqlite;
        let owner = &self.owner;
        // An SQLite file serves one process (its lock proves any other claimant stopped).
        let gone = move |other: &str| sqlite || owner.sees_gone(other);
        let conflicts = self
            .store
            .claim_shards(
                i64::from(self.range.count),
                i64::from(self.range.first),
                i64::from(self.range.last),
                &owner.encode(),
                now,
                LEASE.as_secs() as i64,
                &gone,
            )
            .await
            .map_err(|e| format!("could not claim {} in the database: {e}", self.range))?;
        if conflicts.is_empty() {
            Ok(())
        } else {
            Err(refusal(&conflicts, &self.range, now))
        }
    }

    /// Renews the claims every [`RENEW_EVERY`] while the bot runs. Returns only when they are
    /// lost, with why: another process took them over (this one was stalled past its lease), or
    /// the database could not be reached for nearly a lease, after which another process may.
    pub async fn keep(&self) -> String {
        let mut failing_since: Option<Instant> = None;
        loop {
            tokio::time::sleep(RENEW_EVERY).await;
            let renewed = self
                .store
                .renew_shards(
                    i64::from(self.range.count),
                    i64::from(self.range.first),
                    i64::from(self.range.last),
                    &self.owner.encode(),
                    unix_now(),
                )
                .await;
            match renewed {
                Ok(held) if held == u64::from(self.range.len()) => failing_since = None,
                Ok(held) => {
                    // Some claims are gone (deleted as stale while this process stalled):
                    // claim them again, unless another process has them now.
                    tracing::warn!(
                        held,
                        "the claim on {} lapsed; claiming it again",
                        self.range
                    );
                    if let Err(why) = self.claim().await {
                        return format!(
                            "this process lost its claim on {} while it ran: {why}",
                            self.range
                        );
                    }
                    failing_since = None;
                }
                Err(e) => {
                    tracing::warn!("could not renew the claim on {}: {e}", self.range);
                    let since = *failing_since.get_or_insert_with(Instant::now);
                    if since.elapsed() + RENEW_EVERY >= LEASE {
                        return format!(
                            "could not renew the claim on {} in the database for {} s ({e}), \
                             so another process may take these shards over: this one stops",
                            self.range,
                            since.elapsed().as_secs()
                        );
                    }
                }
            }
        }
    }

    /// Deletes the claims (a clean stop), so another process may take the shards at once.
    pub async fn release(&self) {
        match self.store.release_shards(&self.owner.encode()).await {
            Ok(_) => tracing::info!("released {}", self.range),
            Err(e) => tracing::warn!(
                "could not release the claim on {} (it lapses in {} s): {e}",
                self.range,
                LEASE.as_secs()
            ),
        }
    }
}

/// Why a process may not run the shards it asked for: `shards 2-3 of 8 are already run by HOST
/// pid N (seen 12 s ago); give each process its own range`, one clause for each other process,
/// and a word on the count where one runs under another.
pub fn refusal(conflicts: &[ShardClaim], mine: &ShardRange, now: i64) -> String {
    // (owner, count) -> (shard ids, last renewal), in the order first met.
    let mut groups: Vec<(&str, i64, Vec<i64>, i64)> = Vec::new();
    for claim in conflicts {
        match groups
            .iter_mut()
            .find(|g| g.0 == claim.owner && g.1 == claim.shard_count)
        {
            Some(group) => {
                group.2.push(claim.shard_id);
                group.3 = group.3.max(claim.heartbeat_at);
            }
            None => groups.push((
                claim.owner.as_str(),
                claim.shard_count,
                vec![claim.shard_id],
                claim.heartbeat_at,
            )),
        }
    }
    let clauses: Vec<String> = groups
        .iter()
        .map(|(owner, count, ids, seen)| {
            let who = match Owner::decode(owner) {
                Some(o) => format!("{} pid {}", o.host, o.pid),
                None => format!("the process '{owner}'"),
            };
            let (shards, verb) = shard_list(ids);
            format!(
                "{shards} of {count} {verb} already run by {who} (seen {} s ago)",
                (now - seen).max(0)
            )
        })
        .collect();
    let mut sentence = clauses.join("; ");
    if groups.iter().any(|g| g.1 != i64::from(mine.count)) {
        sentence.push_str(&format!(
            ", while this process asked for {mine}: every process of one bot must use the same \
             --shard-count"
        ));
    }
    sentence.push_str("; give each process its own range");
    sentence
}

/// `shards 0-1, 5` / `shard 3`, and the verb that goes with it.
fn shard_list(ids: &[i64]) -> (String, &'static str) {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for &id in &ids {
        if let Some(run) = runs.last_mut() {
            if run.1 + 1 == id {
                run.1 = id;
                continue;
            }
        }
        runs.push((id, id));
    }
    let text = runs
        .iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() == 1 {
        (format!("shard {text}"), "is")
    } else {
        (format!("shards {text}"), "are")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(first: u32, last: u32, count: u32) -> Shards {
        Shards::Range(ShardRange { first, last, count })
    }

    #[test]
    fn ranges_counts_and_auto_are_read() {
        assert_eq!(Shards::parse(None, None), Ok(Shards::Single));
        assert_eq!(Shards::parse(Some("0-3"), Some(8)), Ok(range(0, 3, 8)));
        assert_eq!(Shards::parse(Some(" 4 - 7 "), Some(8)), Ok(range(4, 7, 8)));
        assert_eq!(Shards::parse(Some("5"), Some(8)), Ok(range(5, 5, 8)));
        assert_eq!(Shards::parse(Some("0-0"), Some(1)), Ok(range(0, 0, 1)));
        assert_eq!(Shards::parse(None, Some(4)), Ok(range(0, 3, 4)));
        assert_eq!(Shards::parse(Some("auto"), None), Ok(Shards::Auto));
        assert_eq!(Shards::parse(Some("AUTO"), None), Ok(Shards::Auto));
    }

    #[test]
    fn bad_ranges_are_refused_with_the_valid_form() {
        let refused = |shards: Option<&str>, count: Option<u32>, needed: &str| {
            let e = Shards::parse(shards, count).unwrap_err();
            assert!(e.contains(needed), "{needed:?} missing: {e}");
            assert!(
                e.contains("--shards FIRST-LAST --shard-count COUNT") && e.contains("auto"),
                "the valid form is named: {e}"
            );
            assert!(!e.contains(". "), "one sentence: {e}");
        };
        refused(Some("0-8"), Some(8), "outside the 8 shards");
        refused(Some("8"), Some(8), "numbered 0 to 7");
        refused(Some("3-1"), Some(8), "backwards");
        refused(Some("0-3"), Some(0), "--shard-count 0");
        refused(None, Some(0), "at least 1");
        refused(Some("0-3"), None, "needs --shard-count");
        refused(Some("auto"), Some(4), "--shard-count 4 does not go with it");
        for malformed in [
            "",
            "x",
            "0-",
            "-3",
            "1-2-3",
            "0..3",
            "+1",
            "1.5",
            "0-99999999999",
        ] {
            refused(Some(malformed), Some(8), "is not a shard range");
        }
        refused(
            Some("0-1"),
            Some(MAX_SHARDS + 1),
            "more shards than Rookery runs",
        );
    }

    #[test]
    fn ranges_are_named_as_the_refusal_names_them() {
        assert_eq!(ShardRange::all(8).to_string(), "shards 0-7 of 8");
        assert_eq!(ShardRange::all(0), ShardRange::all(1));
        assert_eq!(
            ShardRange {
                first: 2,
                last: 2,
                count: 8
            }
            .to_string(),
            "shard 2 of 8"
        );
        assert_eq!(ShardRange::all(8).len(), 8);
        assert!(ShardRange::all(8).contains(7) && !ShardRange::all(8).contains(8));
    }

    fn claim(owner: &Owner, count: i64, id: i64, at: i64) -> ShardClaim {
        ShardClaim {
            shard_count: count,
            shard_id: id,
            owner: owner.encode(),
            heartbeat_at: at,
        }
    }

    #[test]
    fn the_refusal_names_the_holder_its_shards_and_how_long_ago_it_was_seen() {
        let other = Owner {
            id: "abc".into(),
            host: "host-b".into(),
            pid: 4242,
            machine: "-".into(),
        };
        let mine = ShardRange {
            first: 2,
            last: 5,
            count: 8,
        };
        let both = [claim(&other, 8, 3, 88), claim(&other, 8, 2, 90)];
        assert_eq!(
            refusal(&both, &mine, 102),
            "shards 2-3 of 8 are already run by host-b pid 4242 (seen 12 s ago); give each \
             process its own range"
        );
        let one = [claim(&other, 8, 5, 100)];
        assert_eq!(
            refusal(&one, &mine, 100),
            "shard 5 of 8 is already run by host-b pid 4242 (seen 0 s ago); give each process \
             its own range"
        );
        let other_count = [claim(&other, 4, 0, 100), claim(&other, 4, 1, 100)];
        let said = refusal(&other_count, &mine, 101);
        assert!(
            said.starts_with("shards 0-1 of 4 are already run by host-b pid 4242"),
            "{said}"
        );
        assert!(said.contains("the same --shard-count"), "{said}");
        assert!(!said.contains(". "), "one sentence: {said}");
        assert_eq!(shard_list(&[7, 1, 2, 3, 9]).0, "shards 1-3, 7, 9");
    }

    #[test]
    fn an_owner_reads_back_and_a_stopped_run_of_this_process_is_seen_gone() {
        let me = Owner::this_process();
        assert_eq!(Owner::decode(&me.encode()), Some(me.clone()));
        assert_eq!(Owner::decode("not an owner"), None);
        let _live = Live::new(&me.id);
        // Another run of the bot in this process: gone unless it is live.
        let earlier = Owner {
            id: "0123".into(),
            ..me.clone()
        };
        if me.machine != "-" {
            assert!(me.sees_gone(&earlier.encode()));
            let held = Live::new(&earlier.id);
            assert!(!me.sees_gone(&earlier.encode()));
            drop(held);
            assert!(me.sees_gone(&earlier.encode()));
            // A process of this machine that runs (the parent of this one, say) is not gone.
            let init = Owner {
                id: "x".into(),
                pid: 1,
                ..me.clone()
            };
            assert!(!me.sees_gone(&init.encode()));
        }
        // Another machine's processes are left to the lease.
        let elsewhere = Owner {
            machine: "another-boot/pid:[1]".into(),
            ..earlier
        };
        assert!(!me.sees_gone(&elsewhere.encode()));
        assert!(!me.sees_gone("some text"));
    }
}

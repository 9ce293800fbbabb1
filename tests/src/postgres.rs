//! A PostgreSQL server for tests, one per test process.
//!
//! [`server`] uses the server named by `ROOKERY_TEST_POSTGRES` (a URL whose user may create
//! databases) when it is set; otherwise it starts a throw-away cluster with
//! `scripts/postgres-cluster` and stops it (removing its directory) when the test process exits.
//! Each test takes its own empty database with [`Server::fresh_database`].
//!
//! Where PostgreSQL is not installed, [`server`] prints why and returns `None` so the test can
//! skip, unless `ROOKERY_REQUIRE_POSTGRES` is set (CI sets it): then it panics, and the test fails.
//!
//! ```ignore
//! let Some(pg) = rookery_tests::postgres::server() else { return };
//! let url = pg.fresh_database("crash");
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The variable naming an existing server to test against instead of starting one.
pub const URL_VAR: &str = "ROOKERY_TEST_POSTGRES";
/// The variable that turns "PostgreSQL is not installed" from a skip into a failure.
pub const REQUIRE_VAR: &str = "ROOKERY_REQUIRE_POSTGRES";

/// A PostgreSQL server the tests may create databases on.
#[derive(Debug)]
pub struct Server {
    /// A URL of the server as a superuser (or a user that may create databases).
    url: String,
    /// The cluster's directory when this process started it (`scripts/postgres-cluster stop`).
    cluster: Option<PathBuf>,
}

/// Why there is no server.
enum Missing {
    /// PostgreSQL is not installed: a skip, unless it is required.
    NotInstalled(String),
    /// It is installed but could not be started: always a failure.
    Failed(String),
}

/// The test server, started on the first call in this process.
///
/// `None` (with the reason printed) only when PostgreSQL is not installed and
/// `ROOKERY_REQUIRE_POSTGRES` is not set.
///
/// # Panics
///
/// When PostgreSQL is not installed and `ROOKERY_REQUIRE_POSTGRES` is set, or when it is
/// installed but the cluster does not start.
pub fn server() -> Option<&'static Server> {
    static SERVER: OnceLock<Result<Server, Missing>> = OnceLock::new();
    match SERVER.get_or_init(start) {
        Ok(server) => Some(server),
        Err(Missing::NotInstalled(reason)) if required() => {
            panic!("{REQUIRE_VAR} is set but there is no PostgreSQL to test against: {reason}")
        }
        Err(Missing::NotInstalled(reason)) => {
            eprintln!(
                "skipping the PostgreSQL part of this test: {reason} \
                 (install PostgreSQL, or set {URL_VAR} to a server's URL; \
                 set {REQUIRE_VAR}=1 to make this a failure)"
            );
            None
        }
        Err(Missing::Failed(reason)) => panic!("PostgreSQL for the tests: {reason}"),
    }
}

/// Whether not finding PostgreSQL fails the tests (CI) instead of skipping them.
pub fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

impl Server {
    /// The server's URL (its `postgres` database, or whatever `ROOKERY_TEST_POSTGRES` names).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Where the cluster this process started lives; `None` for a server from
    /// `ROOKERY_TEST_POSTGRES`.
    pub fn cluster_dir(&self) -> Option<&Path> {
        self.cluster.as_deref()
    }

    /// Creates a new, empty database with a name no other test uses (made from `name_hint`, the
    /// process id and a counter) and returns its URL.
    ///
    /// # Panics
    ///
    /// When the server refuses.
    pub fn fresh_database(&self, name_hint: &str) -> String {
        static N: AtomicU32 = AtomicU32::new(0);
        let hint: String = name_hint
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(30)
            .collect();
        let mut last_error = String::new();
        for _ in 0..20 {
            // Names are at most 63 bytes: "rookery_" 8 + hint 30 + pid 10 + counter 10 + 2 "_".
            let name = format!(
                "rookery_{hint}_{}_{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            );
            match create_database(&self.url, &name) {
                Ok(()) => return with_database(&self.url, &name),
                // Left over from an earlier run with the same process id, on a shared server.
                Err(e) if e.contains("already exists") => last_error = e,
                Err(e) => panic!("creating database {name} on {}: {e}", self.url),
            }
        }
        panic!("creating a fresh database on {}: {last_error}", self.url)
    }
}

/// Creates database `name` (a plain identifier) through the server at `admin_url`.
///
/// sqlx is async and this is called from inside the tests' runtimes, so it runs on a thread
/// of its own with a runtime of its own.
fn create_database(admin_url: &str, name: &str) -> Result<(), String> {
    let admin_url = admin_url.to_owned();
    let sql = format!("CREATE DATABASE \"{name}\"");
    std::thread::spawn(move || -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            use sqlx::Connection;
            let mut conn = sqlx::PgConnection::connect(&admin_url)
                .await
                .map_err(|e| format!("connecting: {e}"))?;
            // CREATE DATABASE cannot run in a transaction: the simple query protocol.
            let result = sqlx::raw_sql(&sql)
                .execute(&mut conn)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string());
            let _ = conn.close().await;
            result
        })
    })
    .join()
    .map_err(|_| "the thread creating the database panicked".to_string())?
}

/// `url` with its database replaced by `name` (user, password, host, port and parameters kept).
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.find('?') {
        Some(at) => url.split_at(at),
        None => (url, ""),
    };
    let authority_start = base.find("://").map_or(0, |at| at + 3);
    let path_start = base[authority_start..]
        .find('/')
        .map_or(base.len(), |at| authority_start + at);
    format!("{}/{name}{query}", &base[..path_start])
}

/// The repository's `scripts/postgres-cluster`.
fn cluster_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scripts")
        .join("postgres-cluster")
}

fn start() -> Result<Server, Missing> {
    if let Some(url) = std::env::var(URL_VAR).ok().filter(|url| !url.is_empty()) {
        return Ok(Server { url, cluster: None });
    }
    let script = cluster_script();
    let output = Command::new("bash")
        .arg(&script)
        .arg("start")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            Missing::NotInstalled(format!("could not run bash {}: {e}", script.display()))
        })?;
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    if output.status.code() == Some(3) {
        return Err(Missing::NotInstalled(stderr));
    }
    if !output.status.success() {
        return Err(Missing::Failed(format!(
            "{} failed ({}): {stderr}",
            script.display(),
            output.status
        )));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let url = stdout
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("postgres://"))
        .ok_or_else(|| Missing::Failed(format!("{} printed no URL: {stdout}", script.display())))?
        .to_string();
    let dir = stderr
        .lines()
        .find_map(|line| line.strip_prefix("postgres-cluster: running in "))
        .map(|dir| PathBuf::from(dir.trim()))
        .ok_or_else(|| {
            Missing::Failed(format!(
                "{} did not say where the cluster is: {stderr}",
                script.display()
            ))
        })?;
    watch(&script, &dir);
    Ok(Server {
        url,
        cluster: Some(dir),
    })
}

/// Stops the cluster in `dir` once this process is gone. Statics are never dropped, so a small
/// shell in a process group of its own (a Ctrl-C to the tests does not reach it) waits for this
/// process's id to disappear, then runs `scripts/postgres-cluster stop DIR`. It works however
/// the tests end, SIGKILL included.
fn watch(script: &Path, dir: &Path) {
    use std::os::unix::process::CommandExt;
    let spawned = Command::new("sh")
        .arg("-c")
        .arg(r#"while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec bash "$2" stop "$3""#)
        .arg("postgres-cluster-watchdog")
        .arg(std::process::id().to_string())
        .arg(script)
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    if let Err(e) = spawned {
        eprintln!(
            "could not start the watchdog that stops the PostgreSQL cluster in {} ({e}); \
             stop it with: {} stop {}",
            dir.display(),
            script.display(),
            dir.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn database_replaced_in_urls() {
        assert_eq!(
            with_database("postgres://rookery@127.0.0.1:5432/postgres", "x"),
            "postgres://rookery@127.0.0.1:5432/x"
        );
        assert_eq!(
            with_database("postgres://u:p@h:1/db?sslmode=disable", "x"),
            "postgres://u:p@h:1/x?sslmode=disable"
        );
        assert_eq!(with_database("postgres://u@h", "x"), "postgres://u@h/x");
        assert_eq!(
            with_database("postgresql://h:1/?a=b", "x"),
            "postgresql://h:1/x?a=b"
        );
    }
}

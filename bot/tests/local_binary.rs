//! The `rookery` binary as a user meets it: `rookery local` with input piped in echoes each
//! line, prints what everyone sees, writes images, and a second run continues the same games.

use std::io::Write;
use std::process::{Command, Stdio};

fn run_local(db: &std::path::Path, images: &std::path::Path, input: &str) -> String {
    run_local_with(db, images, input, &[])
}

fn run_local_with(
    db: &std::path::Path,
    images: &std::path::Path,
    input: &str,
    extra: &[&str],
) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args([
            "--db",
            db.to_str().unwrap(),
            "local",
            "--out",
            images.to_str().unwrap(),
        ])
        .args(extra)
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_console_plays_and_continues_across_runs() {
    let dir = std::env::temp_dir().join(format!("rookery-local-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (db, images) = (dir.join("games.db"), dir.join("images"));

    let first = run_local(
        &db,
        &images,
        "@alice /play chess order=joined\n@bob /join 1\n@alice /move e4\n",
    );
    assert!(
        first.contains("> @alice /play chess order=joined\n"),
        "{first}"
    );
    assert!(
        first.contains("EPHEMERAL alice: You played e4 in game 1."),
        "{first}"
    );
    assert!(
        first.contains("PUBLIC game-1: @alice: White played 1. e4"),
        "{first}"
    );
    let image = first
        .lines()
        .find_map(|l| l.split("[image: ").nth(1))
        .map(|p| p.trim_end_matches(']').to_string())
        .expect("an image path is printed");
    assert_eq!(&std::fs::read(&image).unwrap()[1..4], b"PNG");

    let second = run_local(&db, &images, "@bob /move e5\n@alice /board\n");
    assert!(
        second.contains("PUBLIC game-1: @bob: Black played 1... e5"),
        "{second}"
    );
    assert!(
        second.contains("EPHEMERAL alice: Game 1 (Chess): White to move."),
        "{second}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 28: "two `rookery local --seed S` runs where the person's sealed Synchronous move
/// differs give the computer's identical sealed move": the computer never sees a move sealed
/// from it, and with the seed fixed everything else repeats.
#[test]
fn a_computers_sealed_move_does_not_depend_on_the_persons() {
    let dir = std::env::temp_dir().join(format!("rookery-seeded-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let blacks: Vec<String> = ["e4", "d4", "Nf3"]
        .iter()
        .map(|white| {
            let db = dir.join(format!("{white}.db"));
            let out = run_local_with(
                &db,
                &dir.join("images"),
                &format!(
                    "@alice /play synchronous bots=1 level=medium order=joined\n@alice /secret {white}\n"
                ),
                &["--seed", "7"],
            );
            let turn = out
                .lines()
                .find(|l| l.contains("Turn 1: White"))
                .unwrap_or_else(|| panic!("{out}"))
                .to_string();
            assert!(turn.contains(&format!("White {white},")), "{turn}");
            turn.split("Black ").nth(1).unwrap().to_string()
        })
        .collect();
    assert!(blacks.iter().all(|b| *b == blacks[0]), "{blacks:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many games the SQLite file `db` holds.
async fn games_in(db: &std::path::Path) -> i64 {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    sqlx::query("SELECT COUNT(*) FROM games")
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0)
}

/// Runs `rookery --db DB local` on empty input, expecting a refusal: its exit status and what it
/// printed on stderr.
fn refused(db: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(["--db", db, "local"])
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 31's bad input: a second process on an SQLite file, a malformed database URL and a
/// database at a newer migration than the binary are each refused with one sentence and exit
/// status 2, and nothing is written.
#[test]
fn a_database_rookery_cannot_use_is_refused_with_status_2() {
    let dir = std::env::temp_dir().join(format!("rookery-refused-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");

    // A console holds the file while its input stays open.
    let mut first = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(["--db", db.to_str().unwrap(), "local", "--out"])
        .arg(dir.join("images"))
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = first.stdin.take().unwrap();
    input.write_all(b"@alice /play chess\n").unwrap();
    input.flush().unwrap();
    // Once it has echoed the line it has the file (it opens the database before reading).
    let mut output = std::io::BufReader::new(first.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("/play chess") {
        line.clear();
        assert!(
            std::io::BufRead::read_line(&mut output, &mut line).unwrap() > 0,
            "the first console stopped"
        );
    }
    let (status, said) = refused(db.to_str().unwrap());
    assert_eq!(status, Some(2), "{said}");
    assert!(said.contains("another Rookery process is using"), "{said}");
    drop(input);
    assert!(first.wait().unwrap().success());

    let (status, said) = refused("postgres://not a url");
    assert_eq!(status, Some(2), "{said}");
    assert!(said.contains("is not a database Rookery can use"), "{said}");
    // A URL of a database Rookery does not know is refused, not taken for a file's name.
    let (status, said) = refused("mysql://rookery@localhost/rookery");
    assert_eq!(status, Some(2), "{said}");
    assert!(
        said.contains("`mysql://` is not a database Rookery knows"),
        "{said}"
    );
    assert!(!std::path::Path::new("mysql:").exists());

    // A newer Rookery brought the file to a migration this binary does not know.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
             VALUES (9999, 'from the future', 1, x'00', 0)",
        )
        .execute(&mut conn)
        .await
        .unwrap();
    });
    let before = runtime.block_on(games_in(&db));
    let (status, said) = refused(db.to_str().unwrap());
    assert_eq!(status, Some(2), "{said}");
    assert!(said.contains("newer Rookery"), "{said}");
    let after = runtime.block_on(games_in(&db));
    assert_eq!(before, after, "nothing was written");
    let _ = std::fs::remove_dir_all(&dir);
}

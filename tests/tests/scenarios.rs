//! Plays every transcript in `tests/scenarios/*.txt` through the console on a real SQLite file,
//! and again on a real PostgreSQL database: the same service over either backend, down to the
//! restarts and crashes the transcripts cause.

use rookery_tests::Harness;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_transcript_plays_as_written() {
    play_every_transcript(|_| None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_transcript_plays_as_written_on_postgres() {
    let Some(server) = rookery_tests::postgres::server() else {
        return;
    };
    play_every_transcript(|name| Some(server.fresh_database(name))).await;
}

/// Plays each transcript on a database of its own: `database` gives a URL for the
/// transcript's name, or `None` for a new SQLite file.
async fn play_every_transcript(database: impl Fn(&str) -> Option<String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the scenarios are missing");
    let mut failures = Vec::new();
    for file in &files {
        let script = std::fs::read_to_string(file).unwrap();
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let mut harness = Harness::on(database(&name)).await;
        if let Err(e) = harness.play_transcript(&script).await {
            failures.push(format!(
                "{}: {e}",
                file.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

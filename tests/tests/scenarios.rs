//! Plays every transcript in `tests/scenarios/*.txt` through the console on a real SQLite file.

use rookery_tests::Harness;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_transcript_plays_as_written() {
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
        let mut harness = Harness::new().await;
        if let Err(e) = harness.play_transcript(&script).await {
            failures.push(format!(
                "{}: {e}",
                file.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

//! One generic test for every perft reference file in `tests/data/*.perft`.
//!
//! Each file sets `variant = ID` (and optionally `option = KEY=VALUE` and `players = N`) and
//! then lists positions as `FEN ;D1 n ;D2 n ...`, where `start` stands for the variant's own
//! starting position under those options. Every position is loaded through the registry (so the variant's
//! own FEN option and setup are exercised) and counted at every listed depth whose count is at
//! most `ROOKERY_PERFT_NODES` (default 3,000,000); set it higher to verify the deep counts.

use std::path::{Path, PathBuf};

use engine::game::Options;
use engine::registry;

struct Case {
    file: String,
    line: usize,
    variant: String,
    options: Vec<String>,
    players: Option<usize>,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let mut variant = None;
    let mut options = Vec::new();
    let mut players = None;
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(v) = line.strip_prefix("variant =") {
            variant = Some(v.trim().to_string());
            options.clear();
            players = None;
            continue;
        }
        if let Some(n) = line.strip_prefix("players =") {
            players = Some(n.trim().parse().unwrap());
            continue;
        }
        if let Some(o) = line.strip_prefix("option =") {
            options.push(o.trim().to_string());
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim().to_string();
        let counts = fields
            .map(|f| {
                let (d, n) = f
                    .trim()
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{file}:{}: bad field {f:?}", i + 1));
                let d: u32 = d.trim_start_matches('D').parse().unwrap();
                (d, n.trim().parse().unwrap())
            })
            .collect();
        cases.push(Case {
            file: file.clone(),
            line: i + 1,
            variant: variant
                .clone()
                .unwrap_or_else(|| panic!("{file}: no 'variant =' line before the first position")),
            options: options.clone(),
            players,
            fen,
            counts,
        });
    }
    cases
}

#[test]
fn perft_matches_every_published_count() {
    let budget: u64 = std::env::var("ROOKERY_PERFT_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000_000);
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "the reference files are missing");
    let (mut checked, mut failures) = (0, Vec::new());
    for path in &files {
        for case in read_cases(path) {
            let game = registry::variant(&case.variant).unwrap();
            let mut options = Options::parse(&case.options).unwrap();
            if case.fen != "start" {
                options.set("fen", &case.fen);
            }
            let seats = case.players.unwrap_or_else(|| game.info().default_seats());
            let state = game
                .setup(&options, seats, 0)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", case.file, case.line));
            for &(depth, expected) in &case.counts {
                if expected > budget {
                    continue;
                }
                let got = game
                    .perft(&state, depth)
                    .unwrap()
                    .expect("variant has perft");
                checked += 1;
                if got != expected {
                    failures.push(format!(
                        "{}:{} {} depth {depth}: expected {expected}, got {got}",
                        case.file, case.line, case.fen
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    assert!(checked > 100, "only {checked} counts were checked");
}

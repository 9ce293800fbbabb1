//! Records a transcript for `tests/scenarios/`: plays console input (a file of `@user /command`
//! lines, as fed to `rookery local`) through the scenario harness, with its fixed seed and
//! clock, and prints each input line followed by everything it printed, image paths written
//! as `[image]`. Comments and `!` directives are copied and obeyed.
//!
//! ```text
//! cargo run -p rookery-tests --example record -- INPUT > tests/scenarios/NN-name.txt
//! ```
//!
//! Read what it recorded before keeping it: a transcript states what the game must do.

use rookery_tests::{normalise, parse_duration, Harness};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: record INPUT (a file of console lines)");
    let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut harness = Harness::new().await;
    for raw in String::from_utf8_lossy(&input).lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            println!("{line}");
            continue;
        }
        let output = if let Some(rest) = line.strip_prefix('!') {
            let (directive, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            match directive {
                "advance" => harness.advance(parse_duration(arg)).await,
                "restart" => {
                    harness.restart().await;
                    harness.advance(0).await
                }
                other => panic!("the recorder does not know !{other}"),
            }
        } else if line.starts_with('@') {
            harness.line(line).await
        } else {
            // Expected output in the input (a transcript given again): recorded afresh.
            continue;
        };
        println!("{line}");
        for out in output.lines() {
            println!("{}", normalise(out));
        }
    }
}

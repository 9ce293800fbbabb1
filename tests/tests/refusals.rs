//! Every refusal gives the real reason (issue 27, item 19): one table of cases,
//! `tests/data/refusals.txt`, each a variant, its options and seats, the actions played first,
//! and an action that must be refused with a message containing the expected fragment. A refused
//! action must also change nothing: the stored state is the same before and after.
//!
//! A line of the table:
//!
//! ```text
//! variant | options (key=value; ...) | players | actions played first (; between) | refused action | fragment
//! ```
//!
//! Each action is played by the first seat prompted; `3: text` plays it as the third seat.

use std::path::PathBuf;

use engine::game::{AnyGame, AnyState, Options};
use engine::{registry, Seat};

struct Case {
    line: usize,
    variant: String,
    options: Vec<String>,
    players: Option<usize>,
    before: Vec<String>,
    refused: String,
    fragment: String,
}

fn cases() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/refusals.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            6,
            "line {}: six fields expected: {line}",
            n + 1
        );
        let list = |f: &str| -> Vec<String> {
            f.split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        };
        cases.push(Case {
            line: n + 1,
            variant: fields[0].to_string(),
            options: list(fields[1]),
            players: (!fields[2].is_empty()).then(|| fields[2].parse().unwrap()),
            before: list(fields[3]),
            refused: fields[4].to_string(),
            fragment: fields[5].to_string(),
        });
    }
    cases
}

/// The seat to play `text` (written `3: text` for the third seat) and the action's text.
fn seat_and_text(game: &dyn AnyGame, state: &AnyState, text: &str) -> (Seat, String) {
    if let Some((seat, rest)) = text.split_once(": ") {
        if let Ok(n) = seat.trim().parse::<u8>() {
            return (Seat(n - 1), rest.to_string());
        }
    }
    let prompts = game.prompts(state).unwrap();
    let seat = prompts.first().map_or(Seat(0), |p| p.seat);
    (seat, text.to_string())
}

#[test]
fn every_refusal_gives_the_real_reason_and_changes_nothing() {
    let cases = cases();
    assert!(cases.len() >= 10, "the refusal table is missing");
    let mut failures = Vec::new();
    for case in &cases {
        let game = registry::variant(&case.variant).unwrap();
        let options = Options::parse(&case.options).unwrap();
        let seats = case.players.unwrap_or_else(|| game.info().default_seats());
        let mut state = game.setup(&options, seats, 1).unwrap();
        for text in &case.before {
            let (seat, text) = seat_and_text(game, &state, text);
            if let Err(e) = game.play(&mut state, seat, &text) {
                failures.push(format!("line {}: {text} was refused: {e}", case.line));
            }
        }
        let saved = game.save(&state).unwrap();
        let (seat, text) = seat_and_text(game, &state, &case.refused);
        match game.play(&mut state, seat, &text) {
            Ok((played, _)) => failures.push(format!(
                "line {}: {text} was played (as {played}), expected a refusal with '{}'",
                case.line, case.fragment
            )),
            Err(e) => {
                let message = e.to_string();
                if !message.contains(&case.fragment) {
                    failures.push(format!(
                        "line {}: {text} refused with\n  {message}\nexpected it to contain\n  {}",
                        case.line, case.fragment
                    ));
                }
                if game.save(&state).unwrap() != saved {
                    failures.push(format!(
                        "line {}: refusing {text} changed the game",
                        case.line
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! `rookery uci`: Rookery's chess searcher as a UCI engine, for any chess GUI and for matches
//! against other engines (standard chess, and Chess960 through `UCI_Chess960`).
//!
//! Positions are set up through the registry's `chess` and `chess960` games, so they are read
//! by the same rules players meet; the move is found by `engine::ai::alphabeta`.

use std::io::{BufRead, Write};
use std::time::Duration;

use engine::ai::{self, alphabeta, Level};
use engine::game::{AnyState, Options};
use engine::variants::chess::ChessState;
use engine::Seat;

/// The engine's settings and the position it was given.
struct Session {
    chess960: bool,
    level: Level,
    state: Option<AnyState>,
    seed: u64,
}

/// Runs the UCI protocol on `input` and `output` until `quit` or the end of the input.
pub fn run(input: &mut dyn BufRead, output: &mut dyn Write) -> Result<(), String> {
    let mut session = Session {
        chess960: false,
        level: Level::Hard,
        state: None,
        seed: 0,
    };
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Ok(());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let say = |output: &mut dyn Write, text: &str| -> Result<(), String> {
            writeln!(output, "{text}")
                .and_then(|_| output.flush())
                .map_err(|e| e.to_string())
        };
        match words.first().copied() {
            Some("uci") => {
                say(output, "id name Rookery")?;
                say(output, "id author the Rookery developers")?;
                say(output, "option name UCI_Chess960 type check default false")?;
                say(
                    output,
                    "option name Level type combo default hard var easy var medium var hard",
                )?;
                say(output, "uciok")?;
            }
            Some("isready") => say(output, "readyok")?,
            Some("setoption") => {
                let text = words.join(" ");
                let (name, value) = match text.split_once(" value ") {
                    Some((n, v)) => (n.trim_start_matches("setoption name ").trim(), v.trim()),
                    None => (text.trim_start_matches("setoption name ").trim(), ""),
                };
                match name {
                    "UCI_Chess960" => session.chess960 = value.eq_ignore_ascii_case("true"),
                    "Level" => match value.parse() {
                        Ok(level) => session.level = level,
                        Err(e) => say(output, &format!("info string {e}"))?,
                    },
                    _ => say(output, &format!("info string unknown option {name}"))?,
                }
            }
            Some("ucinewgame") => {
                session.state = None;
                session.seed = session.seed.wrapping_add(1);
            }
            Some("position") => match set_position(&session, &words[1..]) {
                Ok(state) => session.state = Some(state),
                Err(e) => say(output, &format!("info string {e}"))?,
            },
            Some("go") => {
                let state = match session.state.take() {
                    Some(s) => s,
                    None => set_position(&session, &["startpos"])?,
                };
                let answer = best_move(&session, &state, &words[1..]);
                session.state = Some(state);
                match answer {
                    Ok((info, best)) => {
                        say(output, &info)?;
                        say(output, &format!("bestmove {best}"))?;
                    }
                    Err(e) => {
                        say(output, &format!("info string {e}"))?;
                        say(output, "bestmove 0000")?;
                    }
                }
            }
            Some("quit") => return Ok(()),
            // `stop`, `ponderhit` and the rest: searches here finish before the answer.
            _ => {}
        }
    }
}

/// `position startpos|fen FEN [moves ...]`, played through the registry's game.
fn set_position(session: &Session, words: &[&str]) -> Result<AnyState, String> {
    let variant = if session.chess960 {
        "chess960"
    } else {
        "chess"
    };
    let game = engine::registry::variant(variant).map_err(|e| e.to_string())?;
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut options = Options::new();
    match setup.first().copied() {
        Some("startpos") => {
            if session.chess960 {
                options.set("start", "518");
            }
        }
        Some("fen") => options.set("fen", &setup[1..].join(" ")),
        _ => return Err("position needs startpos or fen".into()),
    }
    let mut state = game.setup(&options, 2, 0).map_err(|e| e.to_string())?;
    for text in moves {
        let seat = to_move(&state)?;
        game.play(&mut state, seat, text)
            .map_err(|e| format!("move {text}: {e}"))?;
    }
    Ok(state)
}

fn to_move(state: &AnyState) -> Result<Seat, String> {
    let chess = state
        .downcast_ref::<ChessState>()
        .ok_or("not a chess position")?;
    Ok(chess.position().turn())
}

/// Searches for `go`'s time: `movetime`, else a share of the clock, else the level's budget.
fn best_move(session: &Session, state: &AnyState, go: &[&str]) -> Result<(String, String), String> {
    let chess = state
        .downcast_ref::<ChessState>()
        .ok_or("not a chess position")?;
    let position = chess.position();
    let number = |key: &str| -> Option<u64> {
        let i = go.iter().position(|w| *w == key)?;
        go.get(i + 1)?.parse().ok()
    };
    let white = position.turn() == Seat::WHITE;
    let (time, increment) = if white {
        (number("wtime"), number("winc"))
    } else {
        (number("btime"), number("binc"))
    };
    let mut limits = match (number("movetime"), time) {
        (Some(ms), _) => alphabeta::Limits::timed(Duration::from_millis(ms)),
        // A fortieth of the time left and most of the increment, kept well inside the clock.
        (None, Some(left)) => {
            let share = left / 40 + increment.unwrap_or(0) * 3 / 4;
            alphabeta::Limits::timed(Duration::from_millis(share.clamp(10, left / 2 + 1)))
        }
        (None, None) => alphabeta::Limits::for_level(session.level),
    };
    if let Some(depth) = number("depth") {
        limits.max_depth = depth as u32;
    }
    if let Some(nodes) = number("nodes") {
        limits.nodes = nodes;
    }
    let earlier = ai::chess_history(chess);
    let result =
        alphabeta::search_game(position, &earlier, &limits, session.seed).ok_or("no legal move")?;
    let score = match result.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", result.score_cp),
    };
    let pv: Vec<String> = pv_text(position, &result.pv, session.chess960);
    let info = format!(
        "info depth {} score {score} nodes {} pv {}",
        result.depth,
        result.nodes,
        pv.join(" ")
    );
    Ok((
        info,
        alphabeta::uci_move(position, result.best, session.chess960),
    ))
}

/// A line of moves in UCI coordinates, each written in the position it is played from.
fn pv_text(
    position: &engine::chess::Position,
    pv: &[engine::chess::Move],
    chess960: bool,
) -> Vec<String> {
    let mut pos = position.clone();
    let mut out = Vec::new();
    for &m in pv {
        out.push(alphabeta::uci_move(&pos, m, chess960));
        if pos.play(m).is_err() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(input: &str) -> String {
        let mut out = Vec::new();
        run(&mut input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn it_introduces_itself_and_answers_ready() {
        let out = talk("uci\nisready\nquit\n");
        assert!(out.contains("id name Rookery"), "{out}");
        assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
    }

    #[test]
    fn it_mates_in_one_from_a_fen_and_from_moves() {
        let out = talk("position fen 6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1\ngo nodes 20000\n");
        assert!(out.contains("bestmove a2a1"), "{out}");
        assert!(out.contains("score mate 1"), "{out}");
        // Fool's mate: after f3 e5 g4, Qh4 mates.
        let out = talk("position startpos moves f2f3 e7e5 g2g4\ngo depth 2\n");
        assert!(out.contains("bestmove d8h4"), "{out}");
    }

    #[test]
    fn chess960_castles_king_takes_rook() {
        // White to move with both castlings open; the move is written king-takes-rook.
        let out = talk(
            "setoption name UCI_Chess960 value true\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1 moves e1h1\ngo nodes 2000\n",
        );
        assert!(out.contains("bestmove "), "{out}");
        assert!(!out.contains("info string"), "{out}");
    }

    #[test]
    fn a_bad_position_is_answered_not_fatal() {
        let out = talk("position fen nonsense\nposition startpos moves e2e5\nisready\n");
        assert!(out.contains("info string"), "{out}");
        assert!(out.contains("readyok"), "{out}");
    }
}

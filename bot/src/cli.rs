//! Command-line parsing and the developer commands.

use std::io::Write;
use std::time::Instant;

use clap::{Parser, Subcommand};
use engine::game::Options;
use engine::registry;

/// Rookery: chess and checkers variants, played together on Discord.
#[derive(Debug, Parser)]
#[command(name = "rookery", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the legal move tree of a variant (perft), to test its move generator.
    Perft {
        /// The variant id, as in /variants (chess, chess960, ...).
        #[arg(long)]
        variant: String,
        /// Start from this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// A variant option as key=value; repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// How many moves deep to count.
        #[arg(long)]
        depth: u32,
        /// Print each first move with the count below it.
        #[arg(long)]
        divide: bool,
    },
    /// Draw a variant's board as a PNG, as a player or spectator would see it.
    Render {
        /// The variant id, as in /variants (chess, chess960, ...).
        #[arg(long)]
        variant: String,
        /// Show this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// A variant option as key=value; repeat for several.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// See the board from this seat: 1 (White), 2 (Black), 3...; or white / black.
        /// Without it the board is drawn for a spectator.
        #[arg(long)]
        seat: Option<String>,
        /// Where to write the PNG.
        #[arg(short = 'o', long = "output")]
        output: std::path::PathBuf,
    },
}

/// Runs a parsed command line. Errors are messages for the user.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), String> {
    match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            options,
            depth,
            divide,
        }) => perft(&variant, fen.as_deref(), &options, depth, divide, out, err),
        Some(Command::Render {
            variant,
            fen,
            options,
            seat,
            output,
        }) => render(&variant, fen.as_deref(), &options, seat.as_deref(), &output, out),
        None => {
            writeln!(
                out,
                "Rookery's Discord bot and local console are not built yet.\n\
                 Available now: rookery perft --variant <id> --depth <n> [--fen <FEN>] [--option k=v]... [--divide]\n\
                 and: rookery render --variant <id> [--fen <FEN>] [--option k=v]... [--seat N] -o <file.png>\n\
                 Variants: {}",
                registry::variants()
                    .iter()
                    .map(|v| v.info().id)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
            .map_err(|e| e.to_string())
        }
    }
}

/// A game of `variant` set up from the command line's options.
fn start_game(
    variant: &str,
    fen: Option<&str>,
    options: &[String],
) -> Result<(&'static dyn engine::game::AnyGame, engine::game::AnyState), String> {
    let game = registry::variant(variant).map_err(|e| e.to_string())?;
    let mut opts = Options::parse(options).map_err(|e| e.to_string())?;
    if let Some(fen) = fen {
        opts.set("fen", fen);
    }
    let state = game
        .setup(&opts, game.info().min_seats(), 0)
        .map_err(|e| e.to_string())?;
    Ok((game, state))
}

/// Reads a seat given as a 1-based number or a colour name.
fn parse_seat(text: &str, seats: usize) -> Result<engine::Seat, String> {
    let wanted = text.trim().to_ascii_lowercase();
    let index = match wanted.as_str() {
        "white" => Some(0),
        "black" => Some(1),
        n => n.parse::<usize>().ok().filter(|n| *n >= 1).map(|n| n - 1),
    };
    match index {
        Some(i) if i < seats => Ok(engine::Seat(i as u8)),
        _ => Err(format!(
            "--seat must be a number from 1 to {seats} (or white / black), not '{text}'"
        )),
    }
}

/// `rookery render`: writes the board as a PNG and prints the file's path.
pub fn render(
    variant: &str,
    fen: Option<&str>,
    options: &[String],
    seat: Option<&str>,
    output: &std::path::Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    let (game, state) = start_game(variant, fen, options)?;
    let viewer = match seat {
        Some(s) => engine::Viewer::Seat(parse_seat(s, game.info().min_seats())?),
        None => engine::Viewer::Spectator,
    };
    let view = game.view(&state, viewer).map_err(|e| e.to_string())?;
    let png = render::render_png(&view).map_err(|e| e.to_string())?;
    std::fs::write(output, png)
        .map_err(|e| format!("could not write {}: {e}", output.display()))?;
    writeln!(out, "{}", output.display()).map_err(|e| e.to_string())
}

/// `rookery perft`: prints `move: count` lines with `--divide`, and always ends with the total.
pub fn perft(
    variant: &str,
    fen: Option<&str>,
    options: &[String],
    depth: u32,
    divide: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    let (game, state) = start_game(variant, fen, options)?;
    let no_perft = || format!("{} has no perft", game.info().name);
    let started = Instant::now();
    let total = if divide {
        let mut rows = game
            .divide(&state, depth)
            .map_err(|e| e.to_string())?
            .ok_or_else(no_perft)?;
        rows.sort();
        for (text, count) in &rows {
            writeln!(out, "{text}: {count}").map_err(|e| e.to_string())?;
        }
        if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        }
    } else {
        game.perft(&state, depth)
            .map_err(|e| e.to_string())?
            .ok_or_else(no_perft)?
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{total}").map_err(|e| e.to_string())?;
    let _ = writeln!(
        err,
        "perft({depth}) = {total} in {seconds:.3} s ({:.1} M nodes/s)",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_perft(args: &[&str]) -> Result<String, String> {
        let mut argv = vec!["rookery", "perft"];
        argv.extend_from_slice(args);
        let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn total_is_the_last_line() {
        let out = run_perft(&["--variant", "chess", "--depth", "3"]).unwrap();
        assert_eq!(out.lines().last(), Some("8902"));
    }

    #[test]
    fn divide_lists_each_root_move() {
        let out = run_perft(&["--variant", "chess", "--depth", "2", "--divide"]).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 21);
        assert!(lines.contains(&"e2e4: 20"));
        assert_eq!(lines.last(), Some(&"400"));
    }

    #[test]
    fn chess960_by_number_and_by_fen() {
        let by_number = run_perft(&[
            "--variant",
            "chess960",
            "--option",
            "start=518",
            "--depth",
            "3",
        ])
        .unwrap();
        assert_eq!(by_number.trim(), "8902");
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let by_fen = run_perft(&["--variant", "960", "--fen", fen, "--depth", "2"]).unwrap();
        assert_eq!(by_fen.trim(), "528");
    }

    #[test]
    fn render_writes_a_png_from_the_chosen_side() {
        let dir = std::env::temp_dir().join(format!("rookery-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("black.png");
        let cli = Cli::try_parse_from([
            "rookery",
            "render",
            "--variant",
            "chess960",
            "--option",
            "start=518",
            "--seat",
            "black",
            "-o",
            path.to_str().unwrap(),
        ])
        .unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err).unwrap();
        let png = std::fs::read(&path).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(String::from_utf8(out).unwrap().contains("black.png"));
        let bad = Cli::try_parse_from([
            "rookery",
            "render",
            "--variant",
            "chess",
            "--seat",
            "5",
            "-o",
            path.to_str().unwrap(),
        ])
        .unwrap();
        let e = run(bad, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(e.contains("--seat must be a number from 1 to 2"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn bad_input_is_explained() {
        let e = run_perft(&["--variant", "chezz", "--depth", "1"]).unwrap_err();
        assert!(e.contains("unknown variant 'chezz'"), "{e}");
        let e =
            run_perft(&["--variant", "chess", "--fen", "8/8/8 w - -", "--depth", "1"]).unwrap_err();
        assert!(e.contains("found 3 ranks"), "{e}");
        let e = run_perft(&[
            "--variant",
            "chess960",
            "--option",
            "start=1000",
            "--depth",
            "1",
        ])
        .unwrap_err();
        assert!(e.contains("0 to 959"), "{e}");
        let e =
            run_perft(&["--variant", "chess", "--option", "speed", "--depth", "1"]).unwrap_err();
        assert!(e.contains("key=value"), "{e}");
    }
}

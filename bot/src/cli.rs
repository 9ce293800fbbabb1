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
        None => {
            writeln!(
                out,
                "Rookery's Discord bot and local console are not built yet.\n\
                 Available now: rookery perft --variant <id> --depth <n> [--fen <FEN>] [--option k=v]... [--divide]\n\
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
    let game = registry::variant(variant).map_err(|e| e.to_string())?;
    let mut opts = Options::parse(options).map_err(|e| e.to_string())?;
    if let Some(fen) = fen {
        opts.set("fen", fen);
    }
    let state = game
        .setup(&opts, game.info().min_seats(), 0)
        .map_err(|e| e.to_string())?;
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

//! The `rookery` binary.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    match cli::run(args, &mut stdout.lock(), &mut stderr.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

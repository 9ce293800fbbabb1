//! The `rookery` binary: see `bot::cli`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = bot::cli::Cli::parse();
    match bot::cli::main(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

//! The `nqueens` binary: parse the command line, run the subcommand, map errors to exit codes
//! (0 success, 1 failed run or verification, 2 bad usage; a broken pipe ends quietly with 0).

mod cli;
mod cmd;
mod progress;
mod signals;

use std::io;
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

fn main() -> ExitCode {
    let opts = match cli::Opts::try_parse() {
        Ok(opts) => opts,
        Err(err) => {
            return match err.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    // Help on stdout, coloured only on a terminal; a closed pipe
                    // (`nqueens --help | head -1`) is no error.
                    let _ = err.print();
                    ExitCode::SUCCESS
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    // `nqueens` alone: the help, as it is, on stderr; still a usage error.
                    let _ = err.print();
                    ExitCode::from(cmd::EXIT_USAGE)
                }
                _ => {
                    eprintln!("nqueens: {}", cli::one_line(&err));
                    ExitCode::from(cmd::EXIT_USAGE)
                }
            };
        }
    };
    match cmd::run(opts) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("nqueens: error: {err:#}");
            if err.downcast_ref::<cmd::UsageError>().is_some() {
                ExitCode::from(cmd::EXIT_USAGE)
            } else {
                ExitCode::from(cmd::EXIT_FAILED)
            }
        }
    }
}

/// Returns true if and only if the error comes from writing to a closed pipe
/// (`nqueens count 1..20 | head -3`), which ends the program quietly, as ripgrep does.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe))
}

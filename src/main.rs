//! The `nqueens` binary: parse the command line, run the subcommand, map errors to exit codes
//! (0 success, 1 failed run or verification, 2 bad usage; a broken pipe ends quietly with 0).

mod cli;
mod cmd;
mod progress;
mod signals;

use std::io;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};

fn main() -> ExitCode {
    // The long version (commit, CPU features) is known only at run time.
    let parsed = cli::Opts::command()
        .long_version(cli::long_version())
        .try_get_matches()
        .and_then(|m| cli::Opts::from_arg_matches(&m));
    let opts = match parsed {
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
                    match cli::subcommand_hint(&err) {
                        Some(message) => eprintln!("nqueens: {message}"),
                        None => eprintln!("nqueens: {}", cli::one_line(&err)),
                    }
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

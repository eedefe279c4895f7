//! The subcommands, each a plain function from parsed options to an exit code.

pub mod check;
pub mod count;
pub mod long;
pub mod merge;
pub mod plan;
pub mod solve;

use std::process::ExitCode;

use crate::cli::{Command, Opts};

/// Exit code of a run that finished but failed (a verification mismatch).
pub const EXIT_FAILED: u8 = 1;
/// Exit code of bad usage (the same as clap's).
pub const EXIT_USAGE: u8 = 2;

/// A usage error found after parsing: printed on one line, exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Writes one line to standard error, ignoring a failed write: a closed or full stderr must not
/// panic, as `eprintln!` does (`nqueens count 99 2>/dev/full`).
pub fn warn(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Returns the refusal of `--sequence unique` (fundamental solutions) for `algorithm`, which
/// does not count them.
pub fn unique_needs_classes(algorithm: nqueens::Algorithm) -> UsageError {
    UsageError(format!(
        "--sequence unique needs fundamental solutions, which --algorithm {algorithm} does not count: use auto, d4 or join"
    ))
}

/// Runs the chosen subcommand.
///
/// # Errors
/// Whatever the subcommand fails with; `main` turns it into a message and an exit code.
pub fn run(opts: Opts) -> anyhow::Result<ExitCode> {
    match opts.command {
        Command::Count(args) => count::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Check(args) => check::run(args),
    }
}

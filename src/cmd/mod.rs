//! The subcommands, each a plain function from parsed options to an exit code.

pub mod check;
pub mod count;
pub mod docs;
pub mod long;
pub mod merge;
pub mod plan;
pub mod solve;

use std::process::ExitCode;

use nqueens::output::Sequence;

use crate::cli::{Command, Opts};

/// Exit code of a run that finished but failed (a verification mismatch).
pub const EXIT_FAILED: u8 = 1;
/// Exit code of bad usage (the same as clap's).
pub const EXIT_USAGE: u8 = 2;

/// A usage error found after parsing: printed on one line, exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Returns the library error `e` as the command line reports it: a thread pool that cannot
/// start is a failed run (exit 1); every other library error is bad usage (exit 2), worded with
/// the flag that asked for it where the library's message names none.
pub fn from_library(e: nqueens::Error) -> anyhow::Error {
    use nqueens::Error;
    match e {
        Error::ThreadPool { .. } => anyhow::Error::new(e),
        Error::JoinTooLarge {
            n,
            needed_mib,
            table_mib,
            threads,
            per_thread_mib,
            address_space_limit_mib,
            available_mib,
            max,
        } => {
            let reason = if n > max {
                format!("the join supports n <= {max}")
            } else {
                let limit = address_space_limit_mib.map_or(String::new(), |l| {
                    format!(", under an address-space limit (ulimit -v) of {l} MiB")
                });
                format!(
                    "it needs about {needed_mib} MiB (quarter table {table_mib} MiB + {threads} thread(s) × \
                     {per_thread_mib} MiB of buffers) but {available_mib} MiB are available to this process{limit}, \
                     of which the join uses at most 3/4 (it supports n <= {max})"
                )
            };
            UsageError(format!(
                "board size {n} is too large for --algorithm join here: {reason}; use --algorithm d4, \
                 fewer threads (-j) or a machine or job with more memory"
            ))
            .into()
        }
        Error::UnsupportedSearch { search, feature } => UsageError(format!(
            "--d4-search {search} needs {feature}, which this processor lacks: use auto, avx2 or recursive"
        ))
        .into(),
        e => UsageError(e.to_string()).into(),
    }
}

/// Writes one line to standard error, ignoring a failed write: a closed or full stderr must not
/// panic, as `eprintln!` does (`nqueens count 99 2>/dev/full`).
pub fn warn(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Returns the refusal of a `--sequence` that follows from the symmetry classes (`unique`,
/// `rot180`, `rot90`) for `algorithm`, which does not count them.
pub fn sequence_needs_classes(sequence: Sequence, algorithm: nqueens::Algorithm) -> UsageError {
    let what = match sequence {
        Sequence::Unique => "fundamental solutions",
        _ => "the symmetry classes",
    };
    UsageError(format!(
        "--sequence {} needs {what}, which --algorithm {algorithm} does not count: use auto, d4 or join",
        sequence.name()
    ))
}

/// Refuses a b-file of a sequence with offset 1 (A002562, A032522, A033148) when every size
/// asked for is n = 0, which has no term: the b-file would be empty. A range such as 0..12 just
/// skips n = 0.
///
/// # Errors
/// [`UsageError`] naming the sequence and its offset.
pub fn check_offset(
    format: nqueens::output::Format,
    sequence: Sequence,
    mut sizes: impl Iterator<Item = u32>,
) -> Result<(), UsageError> {
    if format != nqueens::output::Format::Bfile || sequence == Sequence::Solutions || sizes.any(|n| n >= 1) {
        return Ok(());
    }
    let oeis = match sequence {
        Sequence::Unique => "A002562",
        Sequence::Rot180 => "A032522",
        _ => "A033148",
    };
    Err(UsageError(format!(
        "--sequence {} starts at n = 1 (OEIS {oeis}'s offset): n = 0 has no term",
        sequence.name()
    )))
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
        Command::Completions(args) => docs::completions(args),
        Command::Man => docs::man(),
    }
}

//! `nqueens solve`: lists the solutions of one board size, in order, as the search runs.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::enumerate::{SolveOptions, Stream};

use crate::cli::SolveArgs;

/// Writes the solutions `args` ask for to stdout.
///
/// # Errors
/// Bad options as a [`super::UsageError`], worker threads that cannot start as a failed run; a
/// failed write (a broken pipe is
/// treated as the normal end by `main`).
pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let options = SolveOptions {
        threads: args.threads.unwrap_or_else(num_cpus::get),
        format: args.format,
        limit: args.limit,
        unique: args.unique,
        split_depth: None,
    };
    let stream = Stream::new(args.n, &options).map_err(super::from_library)?;
    // The stream hands over chunks of 64 KiB; the buffer gathers the small header and footer.
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    stream.write_to(&mut out).context("writing the solutions")?;
    out.flush().context("writing the solutions")?;
    Ok(ExitCode::SUCCESS)
}

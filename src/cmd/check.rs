//! `nqueens check`: reads a list of boards and reports what is wrong with it.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::check::{CheckOptions, check};

use super::{EXIT_FAILED, UsageError};
use crate::cli::CheckArgs;

/// Checks the list `args` name and writes one line per problem and a summary to stdout.
///
/// # Errors
/// A [`UsageError`] (exit 2) when the input cannot be read: a missing file, text that is not
/// UTF-8, an undetectable format, invalid JSON; a failed write.
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = CheckOptions { format: args.format, size: args.size, unique: args.unique };
    let report = if args.file.as_os_str() == "-" {
        check(io::stdin().lock(), &options)
    } else {
        let file = File::open(&args.file)
            .map_err(|e| UsageError(format!("cannot open {}: {e}", args.file.display())))?;
        check(BufReader::with_capacity(256 * 1024, file), &options)
    };
    let name = if args.file.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        args.file.display().to_string()
    };
    let report = report.map_err(|e| UsageError(format!("{name}: {e}")))?;
    let mut out = BufWriter::new(io::stdout().lock());
    for problem in &report.problems {
        writeln!(out, "{problem}").context("writing the report")?;
    }
    if report.problem_count > report.problems.len() {
        writeln!(out, "... and {} more problems", report.problem_count - report.problems.len())
            .context("writing the report")?;
    }
    writeln!(out, "{}", report.summary()).context("writing the report")?;
    out.flush().context("writing the report")?;
    let ok = if args.partial { report.ok_partial() } else { report.ok() };
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(EXIT_FAILED) })
}

//! `nqueens check`: reads a list of boards and reports what is wrong with it.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::check::check;

use super::{EXIT_FAILED, UsageError};
use crate::config::CheckConfig;

/// Checks the list `config` names and writes one line per problem and a summary to stdout.
///
/// # Errors
/// A [`UsageError`] (exit 2) when the input cannot be read: a missing file, text that is not
/// UTF-8, an undetectable format, invalid JSON; a failed write.
pub fn run(config: CheckConfig) -> anyhow::Result<ExitCode> {
    // Nothing to save: a signal ends the command at once, with one line (exit 130 or 143).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    let options = &config.options;
    let (report, name) = match &config.file {
        None => (check(io::stdin().lock(), options), "standard input".to_string()),
        Some(path) => {
            // A file name is shown with its control characters escaped, as what the list holds.
            let name = nqueens::boards::escape_controls(&path.display().to_string());
            let file = File::open(path).map_err(|e| UsageError(format!("cannot open {name}: {e}")))?;
            (check(BufReader::with_capacity(256 * 1024, file), options), name)
        }
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
    // The library cannot name the flag that gives the size of a list that does not tell it.
    let hint = if report.n.is_none() { " (give --size N)" } else { "" };
    writeln!(out, "{}{hint}", report.summary()).context("writing the report")?;
    out.flush().context("writing the report")?;
    let ok = if config.partial { report.ok_partial() } else { report.ok() };
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(EXIT_FAILED) })
}

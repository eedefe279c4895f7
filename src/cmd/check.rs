//! `nqueens check`: reads a list of boards and reports what is wrong with it.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::check::check;

use super::{EXIT_FAILED, UsageError};
use crate::config::CheckConfig;
use crate::output::PlanFormat;

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
    let ok = if config.partial { report.ok_partial() } else { report.ok() };
    let code = if ok { ExitCode::SUCCESS } else { ExitCode::from(EXIT_FAILED) };
    let mut out = BufWriter::new(io::stdout().lock());
    if config.report == PlanFormat::Json {
        writeln!(out, "{}", json(&report, ok)).context("writing the report")?;
        out.flush().context("writing the report")?;
        return Ok(code);
    }
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
    Ok(code)
}

/// Returns the report as one JSON object (`--report json`): the list's format and side, the
/// boards read, valid and distinct, the problems (their number, and the first
/// [`nqueens::check::MAX_PROBLEMS_KEPT`] as the text report words them), whether the list is
/// complete (`null` where that is unknown: no side, or beyond the OEIS table) against what
/// count and sequence, and whether the check passed (`ok`, as the exit code says).
fn json(report: &nqueens::check::Report, ok: bool) -> serde_json::Value {
    serde_json::json!({
        "format": report.format.to_string(),
        "n": report.n,
        "read": report.boards,
        "valid": report.valid,
        "distinct": report.distinct,
        "problems": report.problem_count,
        "complete": report.expected.map(|_| report.complete()),
        "expected": report.expected.and_then(|(want, _)| u64::try_from(want).ok()),
        "sequence": report.expected.map(|(_, seq)| seq),
        "unique": report.unique,
        "ok": ok,
        "problem_list": report.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

//! `nqueens merge FILES...`: reads shard results, checks them ([`nqueens_runs::merge::merge`]) and
//! writes the total as `nqueens count` would.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use crate::output::Record;
use anyhow::Context;
use nqueens::boards::escape_controls;
use nqueens::{Count, CountOptions, Counter, oeis};
use nqueens_runs::audit::audit;
use nqueens_runs::merge::{ShardResult, merge};

use super::{EXIT_FAILED, UsageError};
use crate::config::{self, MergeConfig, Report};

/// The largest shard result file `merge` reads: 8 MiB. A format 2 result is a few hundred
/// bytes; one of format 1 lists its subproblem ids (55,000 at n = 21, K = 16: 330 KB), and 8 MiB
/// holds a million. A larger file is refused after reading at most this much, whatever its
/// size claims (a 59 MB file of 7.5 million ids took 587 MB to refuse when read whole).
const MAX_SHARD_FILE: u64 = 8 << 20;

/// Merges the shard results of `config.files` and writes the total; with an audit, first
/// recounts a sample of every shard's subproblems ([`nqueens_runs::audit`]) and exits 1, naming each
/// disagreement, if any differs (with `partial` it only audits).
///
/// # Errors
/// [`UsageError`] for a file that cannot be read or is not a shard result; a plain error (exit
/// 1) listing every missing, duplicated or mismatched shard.
pub fn run(config: MergeConfig) -> anyhow::Result<ExitCode> {
    // Nothing to save: a signal ends the merge at once, with one line (exit 130 or 143).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    let mut results = Vec::new();
    for path in &config.files {
        // A file name is shown with its control characters escaped, as the fields of a result.
        let name = escape_controls(&path.display().to_string());
        // A shard result is a few kilobytes: refuse anything that is not a plain file of sane
        // size rather than reading a device or a huge file without end.
        let meta = std::fs::metadata(path)
            .map_err(|e| UsageError(format!("cannot read shard result {name}: {e}")))?;
        if !meta.is_file() || meta.len() > MAX_SHARD_FILE {
            return Err(UsageError(format!(
                "{name} is not a shard result of `nqueens count --shard`: not a regular file of at most {MAX_SHARD_FILE} bytes"
            ))
            .into());
        }
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| io::Read::read_to_string(&mut io::Read::take(f, MAX_SHARD_FILE + 1), &mut text))
            .map_err(|e| UsageError(format!("cannot read shard result {name}: {e}")))?;
        if text.len() as u64 > MAX_SHARD_FILE {
            return Err(UsageError(format!(
                "{name} is not a shard result of `nqueens count --shard`: it is larger than {MAX_SHARD_FILE} bytes"
            ))
            .into());
        }
        // A UTF-8 byte order mark (an editor's) is no part of the JSON: skipped.
        let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let result: ShardResult = serde_json::from_str(json).map_err(|e| {
            UsageError(format!("{name} is not a shard result of `nqueens count --shard`: {e}"))
        })?;
        results.push((name, result));
    }
    // The cheap checks first (every file, the set complete, the invariants of the total): an
    // audit recounts, and a set that cannot merge is refused before that work.
    let merged = match &config.audit {
        Some(a) if a.partial => None,
        _ => Some(merge(&results)?),
    };
    if let Some(a) = &config.audit {
        let (fraction, threads) = (a.fraction, a.threads);
        let seed = a.seed.unwrap_or_else(clock_seed);
        super::warn(format_args!(
            "nqueens: audit of {} shard result(s) at fraction {fraction}, seed {seed} (--seed {seed} repeats it)",
            results.len()
        ));
        let options = CountOptions { threads, ..CountOptions::default() };
        let counter = Counter::new(&options).map_err(super::from_library)?;
        let report = audit(&results, fraction, seed, &counter);
        for line in &report.disagreements {
            super::warn(format_args!("nqueens: audit: {line}"));
        }
        let verdict = match report.disagreements.len() {
            0 => "all agree".to_string(),
            1 => "1 disagreement".to_string(),
            d => format!("{d} disagreements"),
        };
        super::warn(format_args!(
            "nqueens: audit: {} of {} subproblems in {} shard(s) recounted: {verdict}",
            report.recounted, report.subproblems, report.shards
        ));
        if !report.disagreements.is_empty() {
            return Ok(ExitCode::from(EXIT_FAILED));
        }
        if a.partial {
            return Ok(ExitCode::SUCCESS);
        }
    }
    let Some(merged) = merged else { return Ok(ExitCode::SUCCESS) };
    let count = merged.count();
    config::check_offset(config.report.format, config.report.sequence, std::iter::once(count.n))?;
    report(&count, &config.report)
}

/// Returns a seed for an audit from the clock and the process id (printed, so that the audit
/// can be repeated with `--seed`).
fn clock_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    // Fold in the process id so that two audits started in one nanosecond still differ; keep
    // the seed short to type (below 10^9).
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000_000
}

/// Writes `count` on stdout as `report` says, checks it against OEIS A000170 when
/// `report.verify` is set and returns exit code 1 on a mismatch.
///
/// # Errors
/// [`UsageError`] for a sequence that needs classes the count lacks; a failed write.
pub fn report(count: &Count, report: &Report) -> anyhow::Result<ExitCode> {
    config::check_classes(report, count)?;
    let stdout = BufWriter::new(io::stdout().lock());
    let mut sink = report.format.sink_for(Box::new(stdout), report.verify, report.sequence);
    let record = Record::new(count);
    sink.record(&record).context("writing the result")?;
    if report.verify && record.verified == Some(false) {
        for line in oeis::check(count).1 {
            super::warn(format_args!("nqueens: verification failed for n = {}: {line}", count.n));
        }
        return Ok(ExitCode::from(EXIT_FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

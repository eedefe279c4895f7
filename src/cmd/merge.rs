//! `nqueens merge FILES...`: reads shard results, checks them ([`nqueens::merge::merge`]) and
//! writes the total as `nqueens count` would.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::merge::{ShardResult, merge};
use nqueens::output::Record;
use nqueens::{Count, oeis};

use super::{EXIT_FAILED, UsageError};
use crate::config::{self, MergeConfig, Report};

/// The largest shard result file `merge` reads: 8 MiB. A format 2 result is a few hundred
/// bytes; one of format 1 lists its subproblem ids (55,000 at n = 21, K = 16: 330 KB), and 8 MiB
/// holds a million. A larger file is refused after reading at most this much, whatever its
/// size claims (a 59 MB file of 7.5 million ids took 587 MB to refuse when read whole).
const MAX_SHARD_FILE: u64 = 8 << 20;

/// Merges the shard results of `config.files` and writes the total.
///
/// # Errors
/// [`UsageError`] for a file that cannot be read or is not a shard result; a plain error (exit
/// 1) listing every missing, duplicated or mismatched shard.
pub fn run(config: MergeConfig) -> anyhow::Result<ExitCode> {
    let mut results = Vec::new();
    for path in &config.files {
        let name = path.display().to_string();
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
        let result: ShardResult = serde_json::from_str(&text).map_err(|e| {
            UsageError(format!("{name} is not a shard result of `nqueens count --shard`: {e}"))
        })?;
        results.push((name, result));
    }
    let merged = merge(&results)?;
    let count = merged.count();
    config::check_offset(config.report.format, config.report.sequence, std::iter::once(count.n))?;
    report(&count, &config.report)
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

//! `nqueens merge FILES...`: reads shard results one at a time (files, folders of them, a list
//! of them), checks them ([`nqueens_runs::merge::Merger`]) and writes the total as `nqueens count`
//! would.

use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::output::Record;
use anyhow::Context;
use nqueens::boards::escape_controls;
use nqueens::{Count, CountOptions, Counter, oeis};
use nqueens_runs::audit::Auditor;
use nqueens_runs::merge::{Merger, ShardResult};

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
    let files = shard_files(&config)?;
    let audit = config.audit.as_ref().map(|a| (a, a.seed.unwrap_or_else(clock_seed)));
    // One pass over the files, each read, checked, added up and dropped: the merge's memory
    // grows with the number of files, not with what they hold (10^5 files: see
    // results/2026-12-02-shards/). The cheap checks of the merge (every file, the set
    // complete, the invariants of the total) come before the audit's recount, so that a set
    // that cannot merge is refused before that work.
    let mut merger = Merger::new();
    let mut auditor = audit.map(|(a, seed)| Auditor::new(a.fraction, seed));
    let partial = config.audit.as_ref().is_some_and(|a| a.partial);
    let mut adopted = false;
    for path in &files {
        // A file name is shown with its control characters escaped, as the fields of a result.
        let name = escape_controls(&path.display().to_string());
        let result = read_result(path, &name)?;
        if !partial {
            merger.add(&name, &result);
        }
        if let Some(a) = &mut auditor {
            // One copy of the shard plan for both (the join's table is gigabytes from n = 26).
            if !adopted && let Some((first, dealt)) = merger.plan() {
                a.adopt(first, dealt);
                adopted = true;
            }
            a.add(&name, &result);
        }
    }
    let merged = if partial { None } else { Some(merger.finish()?) };
    if let (Some((a, seed)), Some(auditor)) = (audit, auditor) {
        let (fraction, threads) = (a.fraction, a.threads);
        super::warn(format_args!(
            "nqueens: audit of {} shard result(s) at fraction {fraction}, seed {seed} (--seed {seed} repeats it)",
            files.len()
        ));
        let options = CountOptions { threads, ..CountOptions::default() };
        let counter = Counter::new(&options).map_err(super::from_library)?;
        let report = auditor.finish(&counter);
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

/// Returns the shard result files of `config`: each file given, every `*.json` file of each
/// folder given (in name order), then those `--files-from` lists (its folders expanded too).
///
/// # Errors
/// [`UsageError`] for a list or folder that cannot be read, or a list that names nothing.
fn shard_files(config: &MergeConfig) -> anyhow::Result<Vec<PathBuf>> {
    let mut named: Vec<PathBuf> = config.files.clone();
    if let Some(list) = &config.files_from {
        let shown = escape_controls(&list.display().to_string());
        let text = if list.as_os_str() == "-" {
            let mut text = String::new();
            io::Read::read_to_string(&mut io::stdin().lock(), &mut text).map_err(|e| {
                UsageError(format!("cannot read the list of shard results from standard input: {e}"))
            })?;
            text
        } else {
            std::fs::read_to_string(list)
                .map_err(|e| UsageError(format!("cannot read the list of shard results {shown}: {e}")))?
        };
        let before = named.len();
        named.extend(
            text.lines()
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .filter(|l| !l.is_empty())
                .map(PathBuf::from),
        );
        if named.len() == before {
            return Err(UsageError(format!("the list of shard results {shown} names no file")).into());
        }
    }
    let mut files = Vec::with_capacity(named.len());
    for path in named {
        if !path.is_dir() {
            files.push(path);
            continue;
        }
        let shown = escape_controls(&path.display().to_string());
        let entries = std::fs::read_dir(&path)
            .map_err(|e| UsageError(format!("cannot read the folder of shard results {shown}: {e}")))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry
                .map_err(|e| UsageError(format!("cannot read the folder of shard results {shown}: {e}")))?;
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "json") {
                found.push(p);
            }
        }
        if found.is_empty() {
            return Err(
                UsageError(format!("the folder {shown} holds no shard result (no *.json file)")).into()
            );
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// Reads and parses the shard result at `path` (shown as `name`).
///
/// # Errors
/// [`UsageError`] for a file that cannot be read, is not a regular file of at most
/// [`MAX_SHARD_FILE`] bytes, or is not a shard result.
fn read_result(path: &Path, name: &str) -> anyhow::Result<ShardResult> {
    // A shard result is a few kilobytes: refuse anything that is not a plain file of sane
    // size rather than reading a device or a huge file without end.
    let meta =
        std::fs::metadata(path).map_err(|e| UsageError(format!("cannot read shard result {name}: {e}")))?;
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
    serde_json::from_str(json).map_err(|e| {
        UsageError(format!("{name} is not a shard result of `nqueens count --shard`: {e}")).into()
    })
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

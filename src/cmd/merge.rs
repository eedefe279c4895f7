//! `nqueens merge FILES...`: reads shard results one at a time (files, folders of them, a list
//! of them), checks them ([`nqueens_runs::merge::Merger`]) and writes the total as `nqueens count`
//! would.

use std::io::{self, BufRead, BufWriter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::output::Record;
use anyhow::Context;
use nqueens::boards::escape_controls;
use nqueens::{Count, CountOptions, Counter};
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
        let (fraction, threads) = (shown_fraction(a.fraction), a.threads);
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

/// The longest line of a `--files-from` list: `PATH_MAX` (4,096 bytes, with its newline), the
/// longest path Linux opens. A list is read a line at a time, never more than this beyond what it
/// names, so that `/dev/zero` is refused after 4 KiB (it took 1.05 GB to refuse when read whole).
const MAX_LIST_LINE: usize = 4096;

/// The most bytes of names a `--files-from` list holds: 256 MiB, a million names of 268 bytes
/// each (a path like `/scratch/u/run/n27/shard-0999999.json` is 40). With [`MAX_LIST_LINE`]
/// and [`MAX_SHARD_FILES`] it bounds what a list can make the merge hold, about 300 MiB: 100
/// million names took 3.49 GB and an abort to fail.
const MAX_LIST_BYTES: usize = 256 << 20;

/// The most shard result files one merge takes: K is at most
/// [`nqueens_runs::shard::MAX_SHARDS`], one file a shard, so more can never merge.
const MAX_SHARD_FILES: usize = nqueens_runs::shard::MAX_SHARDS;

/// Returns the shard result files of `config`: each file given, every `*.json` file of each
/// folder given (in name order), then those `--files-from` lists (its folders expanded too).
///
/// # Errors
/// [`UsageError`] for a list or folder that cannot be read, a list that names nothing, a list
/// line longer than [`MAX_LIST_LINE`], a list of more than [`MAX_LIST_BYTES`], more than
/// [`MAX_SHARD_FILES`] files in all, or a file named twice.
fn shard_files(config: &MergeConfig) -> anyhow::Result<Vec<PathBuf>> {
    let mut named: Vec<PathBuf> = config.files.clone();
    if let Some(list) = &config.files_from {
        let shown = escape_controls(&list.display().to_string());
        let before = named.len();
        if list.as_os_str() == "-" {
            read_list(io::stdin().lock(), "from standard input", &mut named, MAX_SHARD_FILES)?;
        } else {
            let file = std::fs::File::open(list)
                .map_err(|e| UsageError(format!("cannot read the list of shard results {shown}: {e}")))?;
            read_list(io::BufReader::new(file), &shown, &mut named, MAX_SHARD_FILES)?;
        }
        if named.len() == before {
            return Err(UsageError(format!("the list of shard results {shown} names no file")).into());
        }
    }
    let mut files = Vec::with_capacity(named.len());
    for path in named {
        if !path.is_dir() {
            files.push(path);
            too_many(files.len(), MAX_SHARD_FILES)?;
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
                too_many(files.len() + found.len(), MAX_SHARD_FILES)?;
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
    refuse_repeats(&files)?;
    Ok(files)
}

/// Returns a [`UsageError`] if `count` files are more than `max`, the most one merge takes.
fn too_many(count: usize, max: usize) -> Result<(), UsageError> {
    if count > max {
        return Err(UsageError(format!(
            "more than {max} shard result files are named: a merge takes at most one per shard, and K <= {max}"
        )));
    }
    Ok(())
}

/// Appends the names of the list `reader` (shown as `shown`), one a line, to `named`: a line
/// at a time, so that what it holds is bounded whatever the list (`--files-from /dev/zero`, or
/// 100 million names from `yes`); a `\r` before the newline is dropped and empty lines skipped.
///
/// # Errors
/// [`UsageError`] for a list that cannot be read, a line longer than [`MAX_LIST_LINE`] bytes,
/// more than [`MAX_LIST_BYTES`] of names, or more than `max` names in `named`; each refused after
/// reading at most one line more.
fn read_list(
    mut reader: impl io::BufRead,
    shown: &str,
    named: &mut Vec<PathBuf>,
    max: usize,
) -> anyhow::Result<()> {
    let mut line = Vec::new();
    let (mut number, mut bytes) = (0u64, 0usize);
    loop {
        line.clear();
        number += 1;
        let read = io::Read::take(&mut reader, MAX_LIST_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| UsageError(format!("cannot read the list of shard results {shown}: {e}")))?;
        if read == 0 {
            return Ok(());
        }
        if line.len() > MAX_LIST_LINE || (line.len() == MAX_LIST_LINE && line.last() != Some(&b'\n')) {
            return Err(UsageError(format!(
                "line {number} of the list of shard results {shown} is longer than {} bytes: give one path a \
                 line, each at most PATH_MAX ({MAX_LIST_LINE} bytes with its newline)",
                MAX_LIST_LINE - 1
            ))
            .into());
        }
        let name = line.strip_suffix(b"\n").unwrap_or(&line);
        let name = name.strip_suffix(b"\r").unwrap_or(name);
        if name.is_empty() {
            continue;
        }
        bytes += name.len();
        if bytes > MAX_LIST_BYTES {
            return Err(UsageError(format!(
                "the list of shard results {shown} holds more than {MAX_LIST_BYTES} bytes of names (at line \
                 {number}): a merge takes at most {max} files"
            ))
            .into());
        }
        named.push(path_of(name, shown, number)?);
        too_many(named.len(), max)?;
    }
}

/// Returns the path named by the bytes `name`, line `number` of the list `shown`.
///
/// # Errors
/// [`UsageError`] on a system whose paths are not bytes (Windows) if `name` is not UTF-8.
fn path_of(name: &[u8], shown: &str, number: u64) -> Result<PathBuf, UsageError> {
    #[cfg(unix)]
    {
        let _ = (shown, number);
        Ok(PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(name).map(PathBuf::from).map_err(|_| {
            UsageError(format!("line {number} of the list of shard results {shown} is not UTF-8"))
        })
    }
}

/// Returns a [`UsageError`] naming the first path that `files` holds twice: a shard result
/// given twice can never merge (found by sorting indices, 4 bytes a file, not copies).
fn refuse_repeats(files: &[PathBuf]) -> Result<(), UsageError> {
    let mut order: Vec<u32> = (0..files.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| files[a as usize].cmp(&files[b as usize]).then(a.cmp(&b)));
    let repeat =
        order.windows(2).filter(|w| files[w[0] as usize] == files[w[1] as usize]).map(|w| w[1]).min();
    match repeat {
        None => Ok(()),
        Some(i) => {
            let name = escape_controls(&files[i as usize].display().to_string());
            Err(UsageError(format!("the shard result {name} is named twice: give each shard's result once")))
        }
    }
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
        for line in count.check_known().1 {
            super::warn(format_args!("nqueens: verification failed for n = {}: {line}", count.n));
        }
        return Ok(ExitCode::from(EXIT_FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns `fraction` (0 to 1) as the audit's line shows it: as given from 10^-4 up (0.01,
/// 0.125), in scientific notation below (1e-300 was 300 digits: issue 40).
fn shown_fraction(fraction: f64) -> String {
    if fraction == 0.0 || fraction >= 1e-4 { format!("{fraction}") } else { format!("{fraction:e}") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fractions_are_shown_short() {
        let shown: Vec<String> =
            [0.0, 1.0, 0.01, 0.125, 1e-4, 1e-300, 2.5e-7].map(super::shown_fraction).into();
        assert_eq!(shown, ["0", "1", "0.01", "0.125", "0.0001", "1e-300", "2.5e-7"]);
    }
}

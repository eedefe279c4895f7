//! `nqueens count N` with `--checkpoint`, `--shard` or `--breakdown`: the library's long run
//! ([`nqueens::run`]) with the command line around it: signals (a graceful stop when there is a
//! journal to keep), the notices on stderr, and the results written (the shard result and the
//! breakdown through a temporary file and a rename).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use nqueens::run::{Counted, Finished};

use crate::config::{self, LongConfig};
use crate::signals::{self, Stop};

/// Counts one board as `config` says: resumes from and appends to the checkpoint journal,
/// counts one shard, writes the breakdown; stops on a signal.
///
/// # Errors
/// A journal that cannot be used, a count that does not add up (exit 2); a failed count or
/// write (exit 1); see [`super::exit_code`].
pub fn run(config: LongConfig) -> anyhow::Result<ExitCode> {
    let LongConfig { run, options, report, output, breakdown, tracker } = config;
    // Signals, before any work: a graceful stop when there is a journal to keep (a signal that
    // comes while the plan is built ends the command at once: nothing is to be saved yet), else
    // an immediate exit.
    let stop = if run.checkpoint.is_some() {
        Some(Stop::install().context("installing signal handlers")?)
    } else {
        signals::exit_at_once().context("installing signal handlers")?;
        None
    };
    if let Some(stop) = &stop {
        stop.watch(tracker, shell_command());
    }
    let session = run.open(&options).map_err(super::from_run)?;
    let journal = run.checkpoint.as_deref().map_or_else(String::new, |p| p.display().to_string());
    if let Some(torn) = session.torn() {
        super::warn(format_args!("nqueens: warning: checkpoint {journal}: {torn}"));
    }
    // Said when the run goes on from the journal; a journal that holds every subproblem is only
    // checked and added up (an error then stays the one line it is).
    let recorded = session.recorded();
    if run.checkpoint.is_some() && recorded > 0 && recorded < session.subproblems() {
        super::warn(format_args!(
            "nqueens: resumed {} of {} subproblems from {journal}",
            grouped(recorded),
            grouped(session.subproblems()),
        ));
    }
    let never = AtomicBool::new(false);
    let stop_flag: &AtomicBool = stop.as_ref().map_or(&never, |s| &s.flag);
    let done = match session.run(stop_flag).map_err(super::from_run)? {
        Finished::Stopped { recorded, subproblems } => {
            stop.as_ref().inspect(|s| s.settle());
            let signal = stop.as_ref().and_then(Stop::signal).unwrap_or(signal_hook::consts::SIGTERM);
            super::warn(format_args!(
                "nqueens: stopped by {}: {recorded} of {subproblems} subproblems are recorded in {journal}; run the same command again to resume: {}",
                signals::name(signal),
                shell_command()
            ));
            return Ok(ExitCode::from(signals::exit_code(signal)));
        }
        Finished::Complete(done) => done,
    };
    if let (Some(path), Some(rows)) = (&breakdown, &done.breakdown) {
        let mut csv = Vec::new();
        rows.write_csv(&mut csv)
            .and_then(|()| write_atomically(path, &csv))
            .with_context(|| format!("writing breakdown {}", path.display()))?;
    }
    match done.result().map_err(super::from_run)? {
        Counted::Shard(result) => {
            let mut text = serde_json::to_string(&result).context("encoding the shard result")?;
            text.push('\n');
            match &output {
                Some(path) => write_atomically(path, text.as_bytes())
                    .with_context(|| format!("writing shard result {}", path.display()))?,
                None => io::stdout().lock().write_all(text.as_bytes()).context("writing the shard result")?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Counted::Whole(count) => super::merge::report(&count, &report),
    }
}

/// Returns `n` with a comma between groups of three digits: 4922 as "4,922".
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so that
/// `path` never holds a half-written result.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // Write through a symbolic link to its target, and into a device or a pipe in place
    // (`--output /dev/stdout`): renaming over those would replace them with a plain file.
    let path = &config::output_target(path);
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let mut f = fs::OpenOptions::new().write(true).open(path)?;
        f.write_all(bytes)?;
        return f.flush();
    }
    // A temporary file of this process alone (a unique name beside the target: six processes
    // writing one --output never share one), renamed over the target, so the target is always
    // one whole result; dropped (removed) on every error path, a full disk included.
    let dir = config::output_folder(path);
    let name = path.file_name().map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(&dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Returns this process's command line, quoted for a POSIX shell.
fn shell_command() -> String {
    let quote = |a: String| {
        if !a.is_empty() && a.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b)) {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    std::env::args().map(quote).collect::<Vec<_>>().join(" ")
}

//! `nqueens count N` with `--checkpoint`, `--shard` or `--breakdown`: the library's long run
//! ([`nqueens_runs::run`]) with the command line around it: signals (a graceful stop when there is a
//! journal to keep), the notices on stderr, and the results written (the shard result and the
//! breakdown through a temporary file and a rename).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use nqueens_runs::run::{Counted, Finished};

use nqueens_runs::journal;

use super::UsageError;
use crate::config::{self, LongConfig};
use crate::signals::{self, Stop};

/// Counts one board as `config` says: resumes from and appends to the checkpoint journal,
/// counts one shard, writes the breakdown; stops on a signal.
///
/// # Errors
/// A journal that cannot be used, a count that does not add up (exit 2); a failed count or
/// write (exit 1); see [`super::exit_code`].
pub fn run(config: LongConfig) -> anyhow::Result<ExitCode> {
    let LongConfig {
        run,
        mut options,
        devices,
        report,
        output,
        breakdown,
        tracker,
        repair,
        algorithm_given,
        algorithm_from_journal,
    } = config;
    if repair {
        signals::exit_at_once().context("installing signal handlers")?;
        return write_repaired(&run, &options);
    }
    // The devices first, before the signal handlers and the journal: a device that is not
    // there is refused with nothing written, and a driver that installs handlers of its own
    // when it starts (pocl took SIGUSR1) does not replace ours. A signal while they open is
    // held, and reaches our handlers once they are installed: the stop of a plan being built.
    let held = signals::hold();
    match super::open_devices(&devices) {
        Ok(opened) => options.devices = opened,
        Err(e) => return held.pending().map(signals::stopped_before_work).ok_or(e),
    }
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
    drop(held);
    let journal = run.checkpoint.as_deref().map_or_else(String::new, journal::shown);
    let session = run.open(&options).map_err(|e| worded(e, &journal, algorithm_from_journal))?;
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
    let done = match session.run(stop_flag).map_err(|e| worded(e, &journal, algorithm_from_journal))? {
        Finished::Stopped { recorded, subproblems } => {
            stop.as_ref().inspect(|s| s.settle());
            let signal = stop.as_ref().and_then(Stop::signal).unwrap_or(signal_hook::consts::SIGTERM);
            // The journal fixes the algorithm: a command that let `auto` choose is given it, so
            // that the resume does not depend on the memory free then. The line says exactly
            // what to run ("run the same command" showed one with a flag added: issue 40).
            let (what, fixed) = if algorithm_given {
                ("the same command", String::new())
            } else {
                (
                    "this (the journal fixes the algorithm auto chose)",
                    format!(" --algorithm {}", options.algorithm),
                )
            };
            super::warn(format_args!(
                "nqueens: stopped by {}: {recorded} of {subproblems} subproblems are recorded in {journal}; to resume, run {what}: {}{fixed}",
                signals::name(signal),
                shell_command()
            ));
            return Ok(ExitCode::from(signals::exit_code(signal)));
        }
        Finished::Complete(done) => done,
    };
    // The result first (a count that does not add up is refused before anything is written),
    // then the files; a finished count survives a failed write.
    let counted = done.result().map_err(|e| worded(e, &journal, algorithm_from_journal))?;
    let mut failed = false;
    if let (Some(path), Some(rows)) = (&breakdown, &done.breakdown) {
        let mut csv = Vec::new();
        if let Err(e) = rows.write_csv(&mut csv).and_then(|()| write_atomically(path, &csv)) {
            // Not lost (it may stand for hours of counting): on standard error, since standard
            // output carries the count (issue 40: it was only said to be lost).
            super::warn(format_args!(
                "nqueens: error: writing breakdown {}: {e}; the count is still written, and the breakdown \
                 follows on standard error ({} lines): save them as its file",
                journal::shown(path),
                csv.iter().filter(|&&b| b == b'\n').count()
            ));
            let _ = io::stderr().lock().write_all(&csv);
            failed = true;
        }
    }
    let code = match counted {
        Counted::Shard(result) => {
            let mut text = serde_json::to_string(&result).context("encoding the shard result")?;
            text.push('\n');
            write_shard_result(output.as_deref(), &text)
        }
        Counted::Whole(count) => super::merge::report(&count, &report)?,
    };
    Ok(if failed { ExitCode::from(super::EXIT_FAILED) } else { code })
}

/// Writes the shard result `text` to `output` (stdout when `None`). If that fails (a full disk,
/// a file size limit), the finished result is not lost: it goes to standard output instead, or
/// to standard error when standard output fails too, with one line saying so; exit 1.
fn write_shard_result(output: Option<&Path>, text: &str) -> ExitCode {
    let to_stdout = || -> io::Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()
    };
    let first = match output {
        Some(path) => match write_atomically(path, text.as_bytes()) {
            Ok(()) => return ExitCode::SUCCESS,
            Err(e) => format!("writing shard result {}: {e}", journal::shown(path)),
        },
        None => match to_stdout() {
            Ok(()) => return ExitCode::SUCCESS,
            Err(e) => format!("writing the shard result to standard output: {e}"),
        },
    };
    if output.is_some() && to_stdout().is_ok() {
        super::warn(format_args!(
            "nqueens: error: {first}; the result is on standard output instead: save it as the shard's file"
        ));
    } else {
        super::warn(format_args!(
            "nqueens: error: {first}; the result follows on standard error: save its last line as the shard's file"
        ));
        let _ = io::stderr().lock().write_all(text.as_bytes());
    }
    ExitCode::from(super::EXIT_FAILED)
}

/// Returns the error of a long run as the command line reports it ([`super::from_run`]), with
/// what to do added: a corrupt or inconsistent journal names `--repair`; a join that does not
/// fit where the journal fixed the algorithm says so (the journal cannot change algorithm).
fn worded(e: nqueens_runs::run::RunError, journal: &str, algorithm_from_journal: bool) -> anyhow::Error {
    use nqueens_runs::run::RunError;
    let repair = |e: &RunError| {
        UsageError(format!(
            "{e}: `--repair` writes the lines that pass every check (recounting them if need be) to {journal}.repaired"
        ))
        .into()
    };
    match e {
        RunError::Journal(nqueens_runs::journal::JournalError::Corrupt { .. }) => repair(&e),
        RunError::Inconsistent { journal: Some(_), .. } => repair(&e),
        RunError::Library(nqueens::Error::JoinTooLarge { needed_mib, available_mib, .. }) if algorithm_from_journal => {
            UsageError(format!(
                "checkpoint {journal} was written by the join algorithm (its lines are join units), which does not fit here: it needs about {needed_mib} MiB but {available_mib} MiB are available to this process, of which the join uses at most 3/4; resume it with more memory or fewer threads (-j), or count into a new journal"
            ))
            .into()
        }
        e => super::from_run(e),
    }
}

/// `--repair`: reads the journal leniently ([`nqueens_runs::run::LongRun::repair`]), names each
/// dropped line on stderr, and writes the lines kept to `JOURNAL.repaired` (never over the
/// journal itself); exit 0, or 2 when the journal has no readable header or is another run's.
fn write_repaired(
    run: &nqueens_runs::run::LongRun,
    options: &nqueens::CountOptions,
) -> anyhow::Result<ExitCode> {
    let path = run.checkpoint.as_deref().expect("--repair requires --checkpoint");
    let name = journal::shown(path);
    let found = run.repair(options).map_err(super::from_run)?;
    if let Some(reason) = &found.inconsistency {
        super::warn(format_args!(
            "nqueens: checkpoint {name}: its lines cover every subproblem but add up to an impossible count ({reason}): recounted its {} subproblems",
            found.recounted.unwrap_or(0)
        ));
    }
    let dropped = &found.repaired.dropped;
    for (line, why) in dropped.iter().take(MAX_DROPPED_SHOWN) {
        super::warn(format_args!("nqueens: checkpoint {name} line {line} dropped: {why}"));
    }
    if dropped.len() > MAX_DROPPED_SHOWN {
        super::warn(format_args!(
            "nqueens: ... and {} more lines dropped",
            dropped.len() - MAX_DROPPED_SHOWN
        ));
    }
    let crlf = found.repaired.carriage_returns;
    if dropped.is_empty() && crlf == 0 {
        super::warn(format_args!(
            "nqueens: checkpoint {name}: all {} lines pass every check; nothing to repair (no file written)",
            found.lines
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut target = path.as_os_str().to_owned();
    target.push(".repaired");
    let target = std::path::PathBuf::from(target);
    write_atomically(&target, found.repaired.text().as_bytes())
        .with_context(|| format!("writing {}", journal::shown(&target)))?;
    let target = journal::shown(&target);
    let crlf = if crlf > 0 {
        format!(" ({crlf} lines, the header included, without the \\r of CRLF line ends)")
    } else {
        String::new()
    };
    super::warn(format_args!(
        "nqueens: checkpoint {name}: kept {} of {} lines in {target}{crlf}, dropped {}; {name} itself is unchanged: move {target} over it to resume from the kept lines",
        found.repaired.kept.len(),
        found.lines,
        dropped.len()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The dropped lines `--repair` names one by one; the rest are counted.
const MAX_DROPPED_SHOWN: usize = 100;

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
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Read-write for all under the umask, as a file `>` creates (tempfile's own default is 0600).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(&dir)?;
    // Through the file itself: its errors do not name the temporary file (removed again).
    tmp.as_file_mut().write_all(bytes)?;
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

//! The subcommands, each a plain function from its configuration ([`crate::config`]) to an exit
//! code, and the one mapping from errors to exit codes ([`exit_code`]).

pub mod check;
pub mod count;
pub mod devices;
pub mod docs;
pub mod long;
pub mod merge;
pub mod plan;
pub mod solve;

use std::process::ExitCode;

use nqueens_runs::run::RunError;

use crate::config::Config;
pub use crate::term::warn;

/// Exit code of a run that finished but failed (a verification mismatch), or could not finish.
pub const EXIT_FAILED: u8 = 1;
/// Exit code of bad usage (the same as clap's).
pub const EXIT_USAGE: u8 = 2;

pub use crate::config::UsageError;

/// A library error worded for the command line, with the flag that asked for it: printed as
/// `message`, its exit code that of `error`'s kind.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Worded {
    /// The library's error.
    pub error: nqueens::Error,
    /// What the command line says.
    pub message: String,
}

/// Returns the exit code of a command that failed with `err`, from the kind of error it is:
/// bad usage (2) for the command line's own [`UsageError`] and the library errors that refuse
/// a request (a board too large, a journal that is corrupt or of another run, a count that does
/// not add up); a failed run (1) for everything else, threads that cannot start and failed
/// reads and writes included. The one place that decides.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    /// The exit code of a library error: only threads that cannot start are a failed run.
    fn library(e: &nqueens::Error) -> u8 {
        match e {
            nqueens::Error::ThreadPool { .. } | nqueens::Error::DeviceFailed { .. } => EXIT_FAILED,
            _ => EXIT_USAGE,
        }
    }
    if err.downcast_ref::<UsageError>().is_some() {
        EXIT_USAGE
    } else if let Some(w) = err.downcast_ref::<Worded>() {
        library(&w.error)
    } else if let Some(e) = err.downcast_ref::<nqueens::Error>() {
        library(e)
    } else if let Some(e) = err.downcast_ref::<RunError>() {
        match e {
            RunError::Library(e) => library(e),
            RunError::Journal(_) | RunError::Overflow { .. } | RunError::Inconsistent { .. } => EXIT_USAGE,
            _ => EXIT_FAILED,
        }
    } else {
        EXIT_FAILED
    }
}

/// Returns the library error `e` as the command line reports it: worded with the flag that
/// asked for it where the library's message names none (the exit code follows from `e`, see
/// [`exit_code`]).
pub fn from_library(e: nqueens::Error) -> anyhow::Error {
    use nqueens::Error;
    let message = match &e {
        &Error::JoinTooLarge {
            n,
            needed_mib,
            table_mib,
            threads,
            per_thread_mib,
            address_space_limit_mib,
            available_mib,
            max,
        } => {
            let reason = if n > max {
                format!("the join supports n <= {max}; use --algorithm d4")
            } else {
                let limit = address_space_limit_mib.map_or(String::new(), |l| {
                    format!(", under an address-space limit (ulimit -v) of {l} MiB")
                });
                format!(
                    "it needs about {needed_mib} MiB (quarter table {table_mib} MiB + {threads} thread(s) × \
                     {per_thread_mib} MiB of buffers) but {available_mib} MiB are available to this process{limit}, \
                     of which the join uses at most 3/4 (it supports n <= {max}); use --algorithm d4, fewer \
                     threads (-j) or a machine or job with more memory"
                )
            };
            format!("board size {n} is too large for --algorithm join here: {reason}")
        }
        Error::UnsupportedIsa { isa, needs, best } => {
            format!("--isa {isa} needs {needs}, which this processor lacks: use --isa {best} or lower")
        }
        _ => return anyhow::Error::new(e),
    };
    Worded { error: e, message }.into()
}

/// Opens the devices `spec` names beside the CPU threads (none for `--device cpu`).
///
/// # Errors
/// A device asked for that is not there or cannot be opened: one line naming what was looked
/// for and what to install (exit 2).
pub fn open_devices(
    spec: &nqueens_gpu::DeviceSpec,
) -> anyhow::Result<Vec<std::sync::Arc<dyn nqueens::plan::Device>>> {
    nqueens_gpu::open(spec).map_err(|e| {
        let message = format!("--device: {e}");
        Worded { error: e, message }.into()
    })
}

/// Returns the error of a long run as the command line reports it: a library error worded as
/// [`from_library`] does, the others as they are.
pub fn from_run(e: RunError) -> anyhow::Error {
    match e {
        RunError::Library(e) => from_library(e),
        e => anyhow::Error::new(e),
    }
}

/// Runs the configured subcommand.
///
/// # Errors
/// Whatever the subcommand fails with; `main` turns it into a message and an exit code.
pub fn run(config: Config) -> anyhow::Result<ExitCode> {
    match config {
        Config::Count(config) => count::run(config),
        Config::LongCount(config) => long::run(config),
        Config::Merge(config) => merge::run(config),
        Config::Plan(config) => plan::run(config),
        Config::Solve(config) => solve::run(config),
        Config::Check(config) => check::run(config),
        Config::Devices(format) => devices::run(format),
        Config::Completions(shell) => docs::completions(shell),
        Config::Man(args) => docs::man(args),
    }
}

/// The most worker threads per logical CPU a count, a listing or an audit starts
/// ([`useful_threads`]).
const THREADS_PER_CPU: usize = 4;

/// Returns the worker threads to start for `threads` asked for on `cpus` logical CPUs, and the
/// note that says so when they are fewer: at most [`THREADS_PER_CPU`] per CPU. Threads beyond
/// the CPUs only wait, and rayon's work stealing among thousands of them spends the time
/// (measured on 2 CPUs: `count 1 -j 4096` 41–78 s, `count 16 -j 4096` 52 s against 0.09 s with
/// `-j 2`, `count 12 --algorithm mirror -j 4096` over 20 s, 90% of it in crossbeam's epoch and
/// steals; issue 40). The counts are the same for any number of threads.
pub fn useful_threads(threads: usize, cpus: usize) -> (usize, Option<String>) {
    let most = THREADS_PER_CPU * cpus.max(1);
    if threads <= most {
        return (threads, None);
    }
    let note = format!(
        "nqueens: note: -j {threads} is more than {THREADS_PER_CPU} threads per logical CPU ({cpus} here): \
         starting {most} (threads beyond the CPUs only wait and steal work; the counts are the same)"
    );
    (most, Some(note))
}

/// Caps the `-j` of `count`, `solve` and `merge --audit` in `opts` at the threads this machine
/// can use ([`useful_threads`]), and returns the note that says so with the threads it keeps.
/// `plan`'s `-j` is left as given: it sizes shards for other machines.
pub fn cap_threads(opts: &mut crate::cli::Opts) -> Option<(String, usize)> {
    use crate::cli::Command;
    let threads = match &mut opts.command {
        Command::Count(args) => &mut args.threads,
        Command::Solve(args) => &mut args.threads,
        Command::Merge(args) => &mut args.threads,
        _ => return None,
    };
    let (capped, note) = useful_threads((*threads)?, nqueens::plan::available_threads());
    *threads = Some(capped);
    note.map(|note| (note, capped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    #[test]
    fn threads_past_4_per_cpu_are_capped_and_said() {
        assert_eq!(useful_threads(8, 2), (8, None));
        assert_eq!(useful_threads(1, 0), (1, None));
        assert_eq!(
            useful_threads(4096, 2),
            (
                8,
                Some(
                    "nqueens: note: -j 4096 is more than 4 threads per logical CPU (2 here): starting 8 (threads \
                     beyond the CPUs only wait and steal work; the counts are the same)"
                        .to_string()
                )
            )
        );
    }
    use std::path::PathBuf;

    #[test]
    fn exit_codes_follow_from_error_kinds() {
        let code = |e: anyhow::Error| exit_code(&e);
        let pool = || nqueens::Error::ThreadPool { threads: 9, reason: "no".into() };
        assert_eq!(code(UsageError("bad".into()).into()), EXIT_USAGE);
        assert_eq!(code(anyhow::Error::new(UsageError("bad".into())).context("while parsing")), EXIT_USAGE);
        assert_eq!(code(from_library(nqueens::Error::BoardTooLarge { n: 64 })), EXIT_USAGE);
        let isa = nqueens::Error::UnsupportedIsa { isa: "neon", needs: "aarch64", best: "avx2" };
        let worded = from_library(isa);
        assert_eq!(
            worded.to_string(),
            "--isa neon needs aarch64, which this processor lacks: use --isa avx2 or lower"
        );
        assert_eq!(code(worded), EXIT_USAGE);
        assert_eq!(code(from_library(pool())), EXIT_FAILED);
        assert_eq!(code(from_run(RunError::Library(pool()))), EXIT_FAILED);
        assert_eq!(code(from_run(RunError::Overflow { path: PathBuf::from("j") })), EXIT_USAGE);
        let append = RunError::Append { path: PathBuf::from("j"), source: io::Error::other("disk full") };
        let append = from_run(append);
        assert_eq!(
            format!("{append:#}"),
            "writing checkpoint j; the journal keeps what was written: disk full"
        );
        assert_eq!(code(append), EXIT_FAILED);
        assert_eq!(
            code(anyhow::Error::new(io::Error::other("x")).context("writing the result")),
            EXIT_FAILED
        );
    }
}

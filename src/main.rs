//! The `nqueens` binary: parse the command line, turn it into a plain configuration (every rule
//! between flags, [`config`]), run the subcommand, map errors to exit codes ([`cmd::exit_code`]:
//! 0 success, 1 failed run or verification, 2 bad usage; a broken pipe ends quietly with 0).

mod cli;
mod cmd;
mod config;
mod output;
mod progress;
mod signals;
mod sys;
mod term;

use std::io;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};

fn main() -> ExitCode {
    let stdout_closed = stdout_was_closed();
    // A write beyond the file size limit (`ulimit -f`) fails with EFBIG instead of killing the
    // process (SIGXFSZ's default action), so a finished result is written elsewhere and no
    // temporary file is left behind.
    sys::ignore_file_size_signal();
    // The long version (commit, CPU features) is known only at run time.
    let parsed = cli::Opts::command()
        .long_version(cli::long_version())
        .try_get_matches()
        .and_then(|m| cli::Opts::from_arg_matches(&m));
    let opts = match parsed {
        Ok(opts) => opts,
        Err(err) => {
            return match err.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    // Help on stdout, coloured only on a terminal; a closed pipe
                    // (`nqueens --help | head -1`) is no error, a full or closed stdout is.
                    match err.print() {
                        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                            let e = if stdout_closed {
                                "standard output is closed".to_string()
                            } else {
                                e.to_string()
                            };
                            let what =
                                if err.kind() == ErrorKind::DisplayVersion { "version" } else { "help" };
                            term::warn(format_args!("nqueens: error: writing the {what}: {e}"));
                            ExitCode::from(cmd::EXIT_FAILED)
                        }
                        _ => ExitCode::SUCCESS,
                    }
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    // `nqueens` alone: the help, as it is, on stderr; still a usage error.
                    let _ = err.print();
                    ExitCode::from(cmd::EXIT_USAGE)
                }
                _ => {
                    match cli::subcommand_hint(&err) {
                        Some(message) => term::warn(format_args!("nqueens: {message}")),
                        None => term::warn(format_args!("nqueens: {}", cli::one_line(&err))),
                    }
                    ExitCode::from(cmd::EXIT_USAGE)
                }
            };
        }
    };
    let mut opts = opts;
    // (Not when the threads will be refused for memory: that refusal stays the one line.)
    if let Some((note, threads)) = cmd::cap_threads(&mut opts)
        && nqueens::Counter::check_threads(threads).is_ok()
    {
        term::warn(format_args!("{note}"));
    }
    match config::Config::new(opts).map_err(anyhow::Error::new).and_then(cmd::run) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            if stdout_closed && is_stdout_full(&err) {
                term::warn(format_args!("nqueens: error: {err}: standard output is closed"));
            } else {
                term::warn(format_args!("nqueens: error: {err:#}"));
            }
            ExitCode::from(cmd::exit_code(&err))
        }
    }
}

/// Returns true if and only if the error comes from writing to a closed pipe
/// (`nqueens count 1..20 | head -3`), which ends the program quietly, as ripgrep does.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe))
}

/// Returns true if and only if the error comes from a write that found no space: what writing to
/// a closed standard output gives once [`stdout_was_closed`] has put `/dev/full` there.
fn is_stdout_full(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.downcast_ref::<io::Error>().is_some_and(|io| io.raw_os_error() == Some(sys::ENOSPC)))
}

/// Whether file descriptor 1 was closed when the process started, recorded before the Rust
/// runtime puts `/dev/null` on every closed standard descriptor (which would make `nqueens count 8
/// >&-` lose its result and exit 0).
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs from `.init_array`, before the Rust runtime's start-up: records whether stdout is closed.
#[cfg(target_os = "linux")]
extern "C" fn record_closed_stdout() {
    if sys::descriptor_closed(1) {
        STDOUT_CLOSED_AT_START.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_CLOSED_STDOUT: extern "C" fn() = record_closed_stdout;

/// Returns true if and only if standard output was closed when the process started (`>&-`);
/// then puts `/dev/full` on it, so that writing a result fails (exit 1, one line) instead of
/// vanishing into the runtime's `/dev/null`, while commands that write only files still work.
fn stdout_was_closed() -> bool {
    #[cfg(target_os = "linux")]
    if STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) {
        sys::put_dev_full_on_stdout();
        return true;
    }
    false
}

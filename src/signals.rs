//! Signals: SIGINT (Ctrl-C), SIGTERM (kill, schedulers) and SIGUSR1 (Slurm's warning before a
//! time limit, `--signal=USR1@120`).
//!
//! A run that saves nothing erases its progress bar and ends at once with 128 + the signal's number, the shell's convention:
//! 130 for SIGINT, 143 for SIGTERM, and 143 for SIGUSR1 too (our choice: a scheduler's warning
//! means "stop now", and one code for "stopped on request" keeps job scripts simple).
//!
//! A checkpointed run stops gracefully: the first signal sets a flag that the parallel runner
//! reads between subproblems, so no new subproblem starts, running ones finish and are
//! journaled, the journal is fsync'd and the command says how to resume. A second signal ends
//! the process at once (every solved subproblem is already written; only the last fsync is
//! skipped).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM, SIGUSR1};

/// The signals that stop a run.
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGUSR1];

/// Returns the exit code for a run stopped by `signal`: 130 for SIGINT, 143 otherwise.
pub fn exit_code(signal: i32) -> u8 {
    if signal == SIGINT { 130 } else { 143 }
}

/// Returns the signal's name as `kill -l` spells it, with the SIG prefix.
pub fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGUSR1 => "SIGUSR1",
        _ => "a signal",
    }
}

/// Makes each stop signal end the process at once with its exit code.
///
/// # Errors
/// If a handler cannot be installed.
pub fn exit_at_once() -> io::Result<()> {
    for signal in STOP_SIGNALS {
        let code = exit_code(signal) as i32;
        // SAFETY: the action erases the progress bar's line (an atomic load and `write(2)`) and
        // calls `_exit`, all async-signal-safe.
        unsafe {
            signal_hook::low_level::register(signal, move || {
                crate::progress::clear_in_signal_handler();
                signal_hook::low_level::exit(code)
            })
        }?;
    }
    Ok(())
}

/// The stop request of a graceful run: a flag for the runner and the signal that set it.
pub struct Stop {
    /// Set by the first stop signal; read by the runner between subproblems.
    pub flag: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Stop {
    /// Installs the graceful handlers (see the module docs).
    ///
    /// # Errors
    /// If a handler cannot be installed.
    pub fn install() -> io::Result<Stop> {
        let flag = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        for sig in STOP_SIGNALS {
            // Registered first, so it sees the flag as the previous signal left it: the second
            // signal exits at once.
            signal_hook::flag::register_conditional_shutdown(sig, exit_code(sig) as i32, Arc::clone(&flag))?;
            signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)?;
            signal_hook::flag::register(sig, Arc::clone(&flag))?;
        }
        Ok(Stop { flag, signal })
    }

    /// Returns the signal that asked the run to stop, if one did.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s as i32),
        }
    }
}

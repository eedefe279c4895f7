//! Signals: SIGINT (Ctrl-C), SIGTERM (kill, schedulers) and SIGUSR1 (Slurm's warning before a
//! time limit, `--signal=USR1@120`).
//!
//! A run that saves nothing erases its progress bar and ends at once with 128 + the signal's number, the shell's convention:
//! 130 for SIGINT, 143 for SIGTERM, and 143 for SIGUSR1 too (our choice: a scheduler's warning
//! means "stop now", and one code for "stopped on request" keeps job scripts simple).
//!
//! A checkpointed run stops gracefully: the first signal sets a flag that the parallel runner
//! reads between subproblems and between the steps of a running one, so no new subproblem
//! starts, running subproblems stop at their next step (within about a second for mirror and
//! d4 at any n and for the join to n = 27; a join unit of n = 28 spends 5–40 s on its setup
//! before its first step; their partial counts are dropped and they run again on resume), the
//! journal is fsync'd and the command says how to resume. stderr says at once what the stop waits for; a signal that comes while the plan is
//! still being built (the join's table takes minutes from n = 26) ends the command at once,
//! since nothing is to be saved yet. A second signal ends the process at once (every solved
//! subproblem is already written; only the last fsync is skipped).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[cfg(unix)]
use signal_hook::consts::SIGUSR1;
use signal_hook::consts::{SIGINT, SIGTERM};

use crate::progress::{StopState, Tracker};

/// How often [`Stop::watch`] looks at the stop flag.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(10);

/// The signals that stop a run.
#[cfg(unix)]
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGUSR1];
/// The signals that stop a run: Windows has no SIGUSR1 (Slurm's warning is a Unix affair).
#[cfg(not(unix))]
const STOP_SIGNALS: [i32; 2] = [SIGINT, SIGTERM];

/// Returns the exit code for a run stopped by `signal`: 130 for SIGINT, 143 otherwise.
pub fn exit_code(signal: i32) -> u8 {
    if signal == SIGINT { 130 } else { 143 }
}

/// Returns the signal's name as `kill -l` spells it, with the SIG prefix.
pub fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        #[cfg(unix)]
        SIGUSR1 => "SIGUSR1",
        _ => "a signal",
    }
}

/// Returns the line [`exit_at_once`] writes for `signal`: "nqueens: stopped by SIGINT".
fn stopped_line(signal: i32) -> &'static [u8] {
    match signal {
        SIGINT => b"nqueens: stopped by SIGINT\n",
        SIGTERM => b"nqueens: stopped by SIGTERM\n",
        #[cfg(unix)]
        SIGUSR1 => b"nqueens: stopped by SIGUSR1\n",
        _ => b"nqueens: stopped by a signal\n",
    }
}

/// Puts every stop signal back to its default action before ours are installed, so that no
/// handler a library installed before (LLVM's, which pocl's kernel compiler registers to remove
/// its temporary files, and which re-raises the signal with the default action) is chained
/// behind ours: a SIGINT on a `--device opencl` run killed the process instead of stopping it
/// (found by a test). A library that installs its handlers later puts ours back before it
/// re-raises, so those reach ours as they should.
fn take_over_stop_signals() {
    #[cfg(unix)]
    for signal in STOP_SIGNALS {
        crate::sys::default_action(signal);
    }
}

/// Makes each stop signal end the process at once with its exit code (130 or 143) and one
/// line on stderr naming it, instead of the signal's default action (which SIGUSR1's is too:
/// a shell would see 138).
///
/// # Errors
/// If a handler cannot be installed.
pub fn exit_at_once() -> io::Result<()> {
    take_over_stop_signals();
    for signal in STOP_SIGNALS {
        let code = exit_code(signal) as i32;
        let line = stopped_line(signal);
        // SAFETY: the action erases the progress bar's line (an atomic load and `write(2)`),
        // writes a static line with `write(2)` and calls `_exit`, all async-signal-safe.
        unsafe {
            signal_hook::low_level::register(signal, move || {
                crate::progress::clear_in_signal_handler();
                crate::sys::write_stderr(line);
                signal_hook::low_level::exit(code)
            })
        }?;
    }
    Ok(())
}

/// The stop signals held back (blocked) while the devices open, from [`hold`] until dropped.
///
/// A GPU driver's start (0.1–0.2 s on pocl, with its kernel cache) came before our handlers,
/// which a driver that starts would replace: a SIGINT then was lost where the shell had it
/// ignored (a background job: the run went on to exit 0), killed the kernel compile through
/// LLVM's handler (exit 2, "the kernel does not compile"), or killed the process (issue 40).
/// Held, a signal stays pending (the driver's threads start with it blocked too) and reaches
/// the handlers installed before the drop: the same stop, exit code and line as at any other
/// moment before the first subproblem.
pub struct Held {
    #[cfg(unix)]
    old: crate::sys::SignalMask,
}

/// Blocks the stop signals in this thread and the threads it starts until the [`Held`] is
/// dropped (no-op where there are no signal masks).
pub fn hold() -> Held {
    Held {
        #[cfg(unix)]
        old: crate::sys::block_signals(&STOP_SIGNALS),
    }
}

impl Held {
    /// Returns the stop signal that came while held, if any: a device that failed to open then
    /// was stopped, not broken (a Ctrl-C reaches the compiler's child processes too).
    pub fn pending(&self) -> Option<i32> {
        #[cfg(unix)]
        return crate::sys::pending_signal(&STOP_SIGNALS);
        #[cfg(not(unix))]
        None
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        #[cfg(unix)]
        crate::sys::restore_signal_mask(&self.old);
    }
}

/// Says that `signal` stopped the command before any work ("nqueens: stopped by SIGINT") and
/// returns its exit code.
pub fn stopped_before_work(signal: i32) -> std::process::ExitCode {
    crate::sys::write_stderr(stopped_line(signal));
    std::process::ExitCode::from(exit_code(signal))
}

/// The stop request of a graceful run: a flag for the runner and the signal that set it.
pub struct Stop {
    /// Set by the first stop signal; read by the runner between subproblems.
    pub flag: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
    /// Set once a watcher has said what the stop waits for.
    said: Arc<AtomicBool>,
}

impl Stop {
    /// Installs the graceful handlers (see the module docs).
    ///
    /// # Errors
    /// If a handler cannot be installed.
    pub fn install() -> io::Result<Stop> {
        let flag = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        take_over_stop_signals();
        for sig in STOP_SIGNALS {
            // Registered first, so it sees the flag as the previous signal left it: the second
            // signal exits at once.
            signal_hook::flag::register_conditional_shutdown(sig, exit_code(sig) as i32, Arc::clone(&flag))?;
            signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)?;
            signal_hook::flag::register(sig, Arc::clone(&flag))?;
        }
        Ok(Stop { flag, signal, said: Arc::new(AtomicBool::new(false)) })
    }

    /// Spawns a thread that waits for the first stop signal and then says on stderr what the
    /// stop waits for ([`Tracker::stop_state_at`]); while the plan is still being built there is
    /// nothing to save, so it ends the process at once (with the signal's exit code), saying
    /// so and how to go on (`command`, this process's command line). A signal that comes once
    /// the run has ended changes nothing: the results are written.
    pub fn watch(&self, tracker: Arc<Tracker>, command: String) {
        // The phase at the first signal, kept by the handler itself (one atomic load and one
        // compare-and-swap, async-signal-safe), so what the watcher says does not depend on
        // how soon it wakes: a fast stop may be over by then.
        let seen = Arc::new(AtomicUsize::new(usize::MAX));
        for sig in STOP_SIGNALS {
            let (tracker, seen) = (Arc::clone(&tracker), Arc::clone(&seen));
            // SAFETY: the action only loads and swaps atomics.
            let registered = unsafe {
                signal_hook::low_level::register(sig, move || {
                    let phase = tracker.phase_now() as usize;
                    let _ = seen.compare_exchange(usize::MAX, phase, Ordering::SeqCst, Ordering::SeqCst);
                })
            };
            if registered.is_err() {
                return;
            }
        }
        let (flag, signal, said) = (Arc::clone(&self.flag), Arc::clone(&self.signal), Arc::clone(&self.said));
        let _ = std::thread::Builder::new().name("stop".into()).spawn(move || {
            while !flag.load(Ordering::SeqCst) || seen.load(Ordering::SeqCst) == usize::MAX {
                std::thread::sleep(WATCH_EVERY);
            }
            let sig = match signal.load(Ordering::SeqCst) {
                0 => SIGTERM,
                s => s as i32,
            };
            let state = tracker.stop_state_at(seen.load(Ordering::SeqCst) as u8);
            match state {
                StopState::Planning if tracker.end_planning() => {
                    crate::term::warn(format_args!(
                        "nqueens: stopped by {} while building the plan: nothing new to record; run the same command again to go on: {command}",
                        name(sig)
                    ));
                    crate::progress::clear_in_signal_handler();
                    // `_exit`, not `exit`: nothing is to be saved, and a GPU driver's threads
                    // may still be running, whose libraries' exit handlers freed their memory
                    // under them ("double free or corruption" after a SIGTERM during a
                    // `--device opencl` start, found by a break-it round).
                    crate::sys::exit_now(i32::from(exit_code(sig)))
                }
                // The plan got built meanwhile: the run stops before its first subproblem.
                StopState::Planning => {}
                StopState::Waiting(what) => crate::term::warn(format_args!(
                    "nqueens: {}: stopping: waiting for {what}; a second signal ends at once (what is recorded stays)",
                    name(sig)
                )),
                StopState::Finishing => {}
            }
            said.store(true, Ordering::SeqCst);
        });
    }

    /// Waits (up to a second) until a watcher ([`Stop::watch`]) has said what the stop waited
    /// for, so that its line comes before the command's last one.
    pub fn settle(&self) {
        let start = std::time::Instant::now();
        while self.flag.load(Ordering::SeqCst)
            && !self.said.load(Ordering::SeqCst)
            && start.elapsed() < std::time::Duration::from_secs(1)
        {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    /// Returns the signal that asked the run to stop, if one did.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s as i32),
        }
    }
}

//! The binary's calls into the C library, each behind a safe function: signal dispositions,
//! `_exit`, `write(2)` for signal handlers, and the descriptor juggling that keeps a closed
//! standard output closed. Every `unsafe` block that calls libc is here; the rest calls these.

/// The error number of a write that found no space (`ENOSPC`).
pub const ENOSPC: i32 = libc::ENOSPC;

/// Ignores SIGXFSZ, so that a write beyond the file size limit (`ulimit -f`) fails with EFBIG
/// instead of killing the process; a no-op where there is no such signal.
pub fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler of ours; the caller
    // does it before any thread starts.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Puts `signal` back to its default action (`SIG_DFL`), dropping whatever handler was there.
#[cfg(unix)]
pub fn default_action(signal: i32) {
    // SAFETY: setting a disposition to SIG_DFL installs no handler; the caller does it before
    // its own handlers are registered.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
    }
}

/// The signal mask of a thread, as [`block_signals`] found it (to put back with
/// [`restore_signal_mask`]).
#[cfg(unix)]
pub struct SignalMask(libc::sigset_t);

/// Returns the set of `signals`.
#[cfg(unix)]
fn signal_set(signals: &[i32]) -> libc::sigset_t {
    // SAFETY: sigemptyset and sigaddset write the set they are given, a local.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for &s in signals {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Blocks `signals` in the calling thread, and so in every thread it starts from now on (a
/// driver's threads too); returns the mask before. A blocked signal stays pending, even one
/// whose action is to ignore it, until it is unblocked.
#[cfg(unix)]
pub fn block_signals(signals: &[i32]) -> SignalMask {
    let set = signal_set(signals);
    // SAFETY: pthread_sigmask reads `set` and writes the old mask into a local.
    unsafe {
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        SignalMask(old)
    }
}

/// Puts back the calling thread's signal mask; a pending signal it unblocks is delivered now.
#[cfg(unix)]
pub fn restore_signal_mask(mask: &SignalMask) {
    // SAFETY: pthread_sigmask reads the mask it is given.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &mask.0, std::ptr::null_mut());
    }
}

/// Returns the first of `signals` that is pending for the calling thread or the process.
#[cfg(unix)]
pub fn pending_signal(signals: &[i32]) -> Option<i32> {
    // SAFETY: sigpending writes the set into a local; sigismember reads it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut set);
        signals.iter().copied().find(|&s| libc::sigismember(&set, s) == 1)
    }
}

/// Ends the process at once with `code` (`_exit`: no exit handlers, no flushing).
pub fn exit_now(code: i32) -> ! {
    // SAFETY: `_exit` ends the process at once; stderr is unbuffered.
    unsafe { libc::_exit(code) }
}

/// Writes `bytes` to file descriptor 2 with `write(2)` (async-signal-safe: no lock, no
/// allocation), ignoring a failed or short write: for signal handlers.
pub fn write_stderr(bytes: &[u8]) {
    // SAFETY: writes a buffer that lives for the call to fd 2; a failed write changes nothing.
    #[cfg(unix)]
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
    }
    // SAFETY: as above; the C runtime's `_write` takes an unsigned count.
    #[cfg(not(unix))]
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len() as libc::c_uint);
    }
}

/// Returns true if and only if file descriptor `fd` is closed (`fcntl(F_GETFD)` fails). Safe to
/// call before the Rust runtime has started (from `.init_array`).
#[cfg(target_os = "linux")]
pub fn descriptor_closed(fd: i32) -> bool {
    // SAFETY: F_GETFD only reads the flags of the descriptor, or fails with EBADF if it is closed.
    unsafe { libc::fcntl(fd, libc::F_GETFD) == -1 }
}

/// Puts `/dev/full` on standard output (descriptor 1), if it can be opened, so that writing to
/// it fails with [`ENOSPC`].
#[cfg(target_os = "linux")]
pub fn put_dev_full_on_stdout() {
    // SAFETY: opening a device and duplicating the new descriptor onto 1, which the runtime
    // holds open on /dev/null; no Rust handle owns descriptor 1's file.
    unsafe {
        let full = libc::open(c"/dev/full".as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if full >= 0 {
            libc::dup2(full, 1);
            libc::close(full);
        }
    }
}

//! The crate's calls into the C library, each behind a safe function: the free space of a file
//! system (`statvfs`), an advisory lock (`flock`), the host name (`gethostname`) and the thread's
//! and the process's CPU clocks (`clock_gettime`), and the machine's busy time (`/proc/stat`).
//! Every `unsafe` block of the crate is here; the rest calls these.
//! On systems without them each says so (`None`, no lock, the wall clock) as the callers expect.

use std::fs::File;
use std::io;
use std::path::Path;

/// Returns the bytes an unprivileged process may still write on the file system holding `path`
/// (`statvfs`), if the system tells.
pub(crate) fn free_bytes(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
        // SAFETY: `statvfs` is plain data (integers), for which all zeroes is a valid value.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: statvfs reads a NUL-terminated path and writes the plain-data struct it is given.
        if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
            return None;
        }
        Some(st.f_bavail as u64 * st.f_frsize as u64)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Takes an exclusive advisory lock (`flock`) on `file` without waiting; returns false if and only
/// if another open file description holds it.
#[cfg(unix)]
pub(crate) fn try_lock(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a valid, open descriptor; no memory is passed.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let err = io::Error::last_os_error();
    if err.kind() == io::ErrorKind::WouldBlock { Ok(false) } else { Err(err) }
}

/// Without `flock`, no lock is taken.
#[cfg(not(unix))]
pub(crate) fn try_lock(_: &File) -> io::Result<bool> {
    Ok(true)
}

/// Returns this machine's host name (`gethostname` on Unix, `COMPUTERNAME` elsewhere), if the
/// system tells.
pub(crate) fn host_name() -> Option<String> {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most `buf.len()` bytes into the buffer it is given.
        if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
            return None;
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        let name = String::from_utf8_lossy(&buf[..end]).into_owned();
        (!name.is_empty()).then_some(name)
    }
    #[cfg(not(unix))]
    {
        std::env::var("COMPUTERNAME").ok().filter(|name| !name.is_empty())
    }
}

/// Returns the CPU seconds this thread has run by its CPU clock (`CLOCK_THREAD_CPUTIME_ID`),
/// or `None` where that clock is missing (other systems than Unix, or a failed call).
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    return cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID);
    #[cfg(not(unix))]
    None
}

/// Returns the CPU seconds this process has run, over all its threads, by its CPU clock
/// (`CLOCK_PROCESS_CPUTIME_ID`), or `None` where that clock is missing.
pub(crate) fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    return cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID);
    #[cfg(not(unix))]
    None
}

/// Returns the seconds of CPU clock `id` (`clock_gettime`), if the call succeeds.
#[cfg(unix)]
fn cpu_clock(id: libc::clockid_t) -> Option<f64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    if unsafe { libc::clock_gettime(id, &mut ts) } == 0 {
        return Some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9);
    }
    None
}

/// Returns the CPU seconds every CPU of the machine has been busy since boot (Linux
/// `/proc/stat`: user, nice, system, irq, softirq and steal time, at 100 ticks a second), or
/// `None` where the system does not tell.
pub(crate) fn machine_busy_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = cpu.split_whitespace().filter_map(|t| t.parse().ok()).collect();
    // user nice system idle iowait irq softirq steal ...
    let busy = [0, 1, 2, 5, 6, 7].iter().filter_map(|&i| ticks.get(i)).sum::<u64>();
    Some(busy as f64 / 100.0)
}

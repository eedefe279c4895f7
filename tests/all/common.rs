//! Helpers shared by the integration tests.
#![allow(dead_code)]

use assert_cmd::Command;

/// Returns a command running the `nqueens` binary with `args`.
pub fn nqueens(args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("nqueens").expect("the binary is built");
    cmd.args(args);
    cmd
}

#[path = "../../crates/core/tests/common/bfiles.rs"]
mod bfiles;
#[allow(unused_imports)] // tests/memory/ includes this file and reads no table
pub use bfiles::{bfile, bfile_columns};

/// Replaces every `"seconds":<number>` in JSON Lines by `"seconds":0` so outputs compare exactly.
pub fn zero_json_seconds(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\"seconds\":") {
        let (head, tail) = rest.split_at(i + "\"seconds\":".len());
        out.push_str(head);
        out.push('0');
        let end = tail.find([',', '}']).unwrap_or(tail.len());
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Runs `args`, expecting a usage error: exit code 2, nothing on stdout, and one line on stderr
/// that contains `message`.
pub fn usage_error(args: &[&str], message: &str) {
    assert_usage_error(&mut nqueens(args), message);
}

/// Asserts that `cmd` fails as bad usage: exit code 2, nothing on stdout, and one line on stderr
/// that contains `message` and no panic.
pub fn assert_usage_error(cmd: &mut Command, message: &str) {
    let out = cmd.assert().code(2).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(message), "{err:?} lacks {message:?}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Returns a command running the binary under an address-space limit of `bytes` (`RLIMIT_AS`,
/// as `prlimit --as` sets it), set in the child before it starts.
pub fn limited(bytes: u64) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"));
    // SAFETY: setrlimit is async-signal-safe and touches nothing of the parent.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    cmd
}

/// Runs the binary under an address-space limit of `bytes` (`RLIMIT_AS`, as `prlimit --as`
/// sets it), set in the child before it starts; returns (exit code, stdout, stderr, seconds).
pub fn under_address_limit(bytes: u64, args: &[&str]) -> (Option<i32>, String, String, f64) {
    let mut cmd = limited(bytes);
    cmd.args(args);
    let start = std::time::Instant::now();
    let out = cmd.output().unwrap();
    let seconds = start.elapsed().as_secs_f64();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
        seconds,
    )
}

/// What writes a measured run's standard input ([`measure`]).
pub type Feed = Box<dyn FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + Send>;

/// What a measured run of the binary left ([`measure`]).
pub struct Measured {
    /// The exit code (128 + the signal's number if a signal ended it).
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// The child's own peak resident memory, in bytes.
    pub peak: u64,
}

/// Returns this process's `VmHWM` (peak resident bytes) or that of `pid`, from /proc.
fn high_water(pid: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = text.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok().map(|k| k * 1024)
}

/// The one peak-memory helper of the tests: runs the binary with `args`, its standard input
/// written by `feed` through a pipe (generated on the fly, never held whole) or null, for at most
/// `seconds` (then SIGINT: a count without a journal ends at once), and measures the child's own
/// peak resident memory.
///
/// The peak is `wait4`'s `ru_maxrss` where that is above this process's own high-water mark:
/// Linux records in a child's `ru_maxrss` the address space it shared with its parent before
/// `exec`, so a large test process shows in it (37 MiB in the full suite against the binary's
/// 6.5, issue 32). Where it is not above, the peak is the highest `VmHWM` of the child read from
/// /proc every 5 ms while it ran (a lower bound: the last 5 ms are not seen). `tests/memory/`
/// keeps its process small so that `ru_maxrss` applies.
// The child is reaped by wait4 (for its rusage), which clippy does not see.
#[allow(clippy::zombie_processes)]
pub fn measure(args: &[&str], seconds: f64, feed: Option<Feed>) -> Measured {
    use std::io::Read;
    use std::process::Stdio;
    let own = high_water("self").unwrap_or(u64::MAX);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdin(if feed.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    // The feeder may find the pipe closed (a checker that stops early): that is fine.
    let feeder = feed.map(|feed| {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = feed(&mut stdin);
        })
    });
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            r.read_to_end(&mut s).unwrap();
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let (mut status, mut polled) = (0, 0u64);
    // SAFETY: `rusage` is plain data, valid when zeroed.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        polled = polled.max(high_water(&pid.to_string()).unwrap_or(0));
        // SAFETY: wait4 on this test's own child, with pointers to live locals.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            break;
        }
        assert_eq!(got, 0, "wait4: {}", std::io::Error::last_os_error());
        if start.elapsed().as_secs_f64() > seconds {
            // SAFETY: a signal to this test's own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGINT) };
            // SAFETY: as above.
            assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    if let Some(f) = feeder {
        f.join().unwrap();
    }
    let ru = usage.ru_maxrss as u64 * 1024;
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    Measured {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        peak: if ru > own { ru } else { polled },
    }
}

/// Runs the binary with `args` (stdin null, stdout discarded) to its end and returns (exit
/// code, stderr, peak resident bytes), as [`measure`] measures it.
pub fn peak_rss(args: &[&str]) -> (i32, String, u64) {
    peak_rss_within(f64::INFINITY, args)
}

/// [`peak_rss`] for at most `seconds`, then SIGINT.
pub fn peak_rss_within(seconds: f64, args: &[&str]) -> (i32, String, u64) {
    let m = measure(args, seconds, None);
    (m.code, m.stderr, m.peak)
}

/// Reads a shard result file.
pub fn read_shard(path: &std::path::Path) -> nqueens_runs::merge::ShardResult {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Writes a shard result file.
pub fn write_shard(path: &std::path::Path, r: &nqueens_runs::merge::ShardResult) {
    std::fs::write(path, serde_json::to_string(r).unwrap()).unwrap();
}

/// Decodes the subtotals of `r` (d4 when `classifies`).
pub fn shard_subtotals(r: &nqueens_runs::merge::ShardResult, classifies: bool) -> Vec<nqueens::plan::Tally> {
    nqueens_runs::subtotals::decode(r.subtotals.as_deref().unwrap(), classifies)
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Returns the CRC-32 and length of the file at `path`, read in pieces (the files here are
/// hundreds of MB).
pub fn fingerprint(path: &std::path::Path) -> (u32, u64) {
    let mut f = std::fs::File::open(path).unwrap();
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0;
    loop {
        let got = std::io::Read::read(&mut f, &mut buf).unwrap();
        if got == 0 {
            return (hasher.finalize(), len);
        }
        hasher.update(&buf[..got]);
        len += got as u64;
    }
}

/// A small tmpfs mounted on a temporary folder for the length of a test (unmounted on drop), to
/// fill a disk for real; `None` where this process may not mount (not root).
pub struct SmallDisk {
    pub dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `kib` KiB.
    pub fn mount(kib: u64) -> Option<SmallDisk> {
        SmallDisk::mount_with(&format!("size={kib}k"))
    }

    /// Mounts a tmpfs with the mount options `options` (`size=64k`, `ro,size=64k`).
    pub fn mount_with(options: &str) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs", dir.path().to_str().unwrap()])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallDisk { dir })
    }

    /// Mounts a tmpfs of 64 KiB and fills it: a full disk.
    pub fn full() -> Option<SmallDisk> {
        let disk = SmallDisk::mount(64)?;
        let mut fill = std::fs::File::create(disk.dir.path().join("filler")).unwrap();
        let _ = std::io::Write::write_all(&mut fill, &vec![0u8; 80 << 10]);
        Some(disk)
    }

    pub fn resize(&self, kib: u64) {
        let ok = std::process::Command::new("mount")
            .args(["-o", &format!("remount,size={kib}k"), self.dir.path().to_str().unwrap()])
            .status()
            .unwrap();
        assert!(ok.success());
    }

    pub fn path(&self) -> &std::path::Path {
        self.dir.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Returns `p` as a `&str` (the tests' paths are UTF-8).
pub fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// Returns a fresh scratch folder for a test named `name` in the temporary folder (its former
/// contents removed).
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-long-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts the binary with `args`, stdout and stderr piped.
pub fn spawn(args: &[&str]) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs the binary with `args`; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = nqueens(args).output().unwrap();
    (
        out.status.code().expect("an exit code, not a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The complete lines of the journal at `journal` after its header.
pub fn entries(journal: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    text.split_inclusive('\n').filter(|l| l.ends_with('\n')).skip(1).map(str::to_string).collect()
}

/// Rewrites line `line` (1-based) of the journal at `path` with `edit`, resealing its CRC.
pub fn forge_journal_line(path: &std::path::Path, line: usize, edit: impl FnOnce(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let body = edit(lines[line - 1].rsplit_once(" crc32=").unwrap().0);
    lines[line - 1] = format!("{body} crc32={:08x}", crc32fast::hash(body.as_bytes()));
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// The files' bytes, to show that nothing changed them.
pub fn bytes(files: &[std::path::PathBuf]) -> Vec<Vec<u8>> {
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// Counts `n` in `k` shards (`count N --shard I/K -j 2 --output DIR/PREFIXI.json EXTRA...`) and
/// returns the result files.
pub fn shard_files(
    dir: &std::path::Path,
    prefix: &str,
    n: u32,
    k: usize,
    extra: &[&str],
) -> Vec<std::path::PathBuf> {
    (0..k)
        .map(|i| {
            let f = dir.join(format!("{prefix}{i}.json"));
            let (n, shard) = (n.to_string(), format!("{i}/{k}"));
            let mut args = vec!["count", &n, "--shard", &shard, "--output", s(&f), "-j", "2"];
            args.extend(extra);
            nqueens(&args).assert().success();
            f
        })
        .collect()
}

/// Q(n) from OEIS A000170 (tests/data/b000170.txt).
pub fn q(n: u32) -> u128 {
    known("b000170.txt", n)
}

/// a(n) of the b-file `name` of tests/data/.
pub fn known(name: &str, n: u32) -> u128 {
    bfile(name).into_iter().find(|r| r.0 == n).unwrap_or_else(|| panic!("{name} lacks n = {n}")).1
}

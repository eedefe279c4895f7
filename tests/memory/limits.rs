//! Memory that does not grow with the input, and allocations checked against the memory the
//! process may use (issue 15): journals are read line by line, and boards or thread counts that
//! would not fit are refused with one line and exit 2, never an abort.

use crate::common;

use std::io::Write;
use std::path::Path;

use crate::common::{fingerprint, nqueens, peak_rss};

/// The command every journal test here resumes, and the first two lines of its journal.
fn journal_start(dir: &Path) -> (Vec<String>, String, String) {
    let j = dir.join("q10.journal");
    let args: Vec<String> = ["count", "10", "--algorithm", "mirror", "--split-depth", "3", "--checkpoint"]
        .iter()
        .map(|s| s.to_string())
        .chain([j.to_str().unwrap().to_string()])
        .collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    nqueens(&refs).assert().success();
    let text = std::fs::read_to_string(&j).unwrap();
    let mut lines = text.split_inclusive('\n');
    let (header, entry) = (lines.next().unwrap().to_string(), lines.next().unwrap().to_string());
    (args, header, entry)
}

/// Issue 15: the journal reader read the whole file before looking at it; a 256 MB journal of
/// one endless line, or of 4 million lines repeating one entry, took its size in memory. Both
/// are refused at the first line that shows the damage, in a few MiB, the file untouched.
#[test]
fn a_huge_journal_is_refused_with_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (args, header, entry) = journal_start(dir.path());
    let journal = Path::new(args.last().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // One endless line after the header.
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(journal).unwrap());
        w.write_all(header.as_bytes()).unwrap();
        let block = vec![b'7'; 1 << 20];
        for _ in 0..256 {
            w.write_all(&block).unwrap();
        }
    }
    let before = fingerprint(journal);
    assert!(before.1 > 256 << 20);
    let (code, err, peak) = peak_rss(&args);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 2 is corrupt: it is longer than 1024 bytes, which no journal line is; the file was left untouched"),
        "{err}"
    );
    assert!(peak < 32 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(fingerprint(journal), before);
    // Four million copies of one entry line.
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(journal).unwrap());
        w.write_all(header.as_bytes()).unwrap();
        for _ in 0..4_000_000 {
            w.write_all(entry.as_bytes()).unwrap();
        }
    }
    let before = fingerprint(journal);
    assert!(before.1 > 150 << 20, "{}", before.1);
    let (code, err, peak) = peak_rss(&args);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("line 3 is corrupt: subproblem id ") && err.contains(" is recorded twice"), "{err}");
    assert!(peak < 32 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(fingerprint(journal), before);
    // A file of one endless line that is no journal at all (say --checkpoint names a disk image).
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(journal).unwrap());
        let block = vec![0u8; 1 << 20];
        for _ in 0..64 {
            w.write_all(&block).unwrap();
        }
    }
    let before = fingerprint(journal);
    let (code, err, peak) = peak_rss(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1 is corrupt: it is longer than 1024 bytes"), "{err}");
    assert!(peak < 32 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(fingerprint(journal), before);
}

/// Runs the binary under an address-space limit of `bytes` for at most `seconds`: returns its
/// exit code and stderr, or `None` if it was still running then (and was killed): the board
/// fitted and the count went on.
fn limited_for(bytes: u64, seconds: f64, args: &[&str]) -> Option<(i32, String)> {
    let mut cmd = common::limited(bytes);
    cmd.args(args).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            // A signal (SIGABRT of a failed allocation) has no code: report it as 128 + signal.
            let code = status
                .code()
                .unwrap_or_else(|| 128 + std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0));
            return Some((code, err));
        }
        if start.elapsed().as_secs_f64() > seconds {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Issue 15: under `prlimit --as=300000000..700000000`, `count 63 --algorithm d4` aborted
/// (SIGABRT, exit 134: "memory allocation of 637534208 bytes failed" while building the start
/// constellations; with --shard, later in the subproblem list and the shard assignment).
#[test]
fn d4_plans_under_an_address_space_limit_are_refused_not_aborted() {
    let (code, stdout, stderr, seconds) =
        common::under_address_limit(300_000_000, &["count", "63", "--algorithm", "d4", "-j", "1"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "nqueens: error: the d4 plan of n = 63 (up to 1973097 start constellations) would need about 573 MiB but "
        ),
        "{stderr}"
    );
    assert!(stderr.contains("under an address-space limit, ulimit -v, of 286 MiB"), "{stderr}");
    assert!(seconds < 2.0, "refused after {seconds} s");
    // Every limit either refuses with one line and exit 2 or lets the plan be built and the
    // count start; none aborts.
    // (Here 40–80 MiB refuse at the constellations, 100 MiB at the subproblem list, 120–200
    // MiB at the worker thread, and 400 MiB counts.)
    let (mut refused, mut fitted) = (0, 0);
    for mib in [40u64, 60, 80, 100, 120, 140, 160, 200, 400] {
        let args = ["count", "40", "--algorithm", "d4", "--shard", "0/4096", "-j", "1"];
        match limited_for(mib << 20, 8.0, &args) {
            None => fitted += 1,
            Some((code, err)) => {
                assert_eq!(code, 2, "{mib} MiB: {err}");
                assert_eq!(err.lines().count(), 1, "{mib} MiB: {err}");
                assert!(err.contains(" would need about ") && err.contains(" MiB are available"), "{err}");
                refused += 1;
            }
        }
    }
    assert!(refused >= 3 && fitted >= 1, "{refused} refused, {fitted} fitted");
}

/// Thread stacks and allocator arenas count against the address-space limit: `-j 300` under
/// 600 MB was "cannot start 300 worker threads" (exit 1), `solve 16 -j 64` under 250 MB
/// aborted (exit 134) once the threads' arenas had taken the room. (Since issue 40 `-j` starts
/// at most 4 threads per logical CPU, so 100 MB, where not even one thread fits, refuses them.)
#[test]
fn threads_that_do_not_fit_the_address_space_are_refused_with_exit_2() {
    let capped = |j: usize| j.min(4 * nqueens::plan::available_threads()).to_string();
    let message = |j| {
        format!(
            "{} worker thread(s) (a 2 MiB stack each and an allocator arena, as address space) would need about ",
            capped(j)
        )
    };
    for (bytes, args, message) in [
        (100_000_000u64, vec!["count", "12", "-j", "300"], message(300)),
        (100_000_000, vec!["solve", "16", "--format", "cols", "-j", "64"], message(64)),
    ] {
        let (code, stdout, stderr, _) = common::under_address_limit(bytes, &args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stdout, "");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&message), "{stderr}");
    }
    // What fits still runs: Q(12) = 14,200 (A000170) on 2 threads and as a listing.
    let (code, stdout, stderr, _) =
        common::under_address_limit(250_000_000, &["count", "12", "-j", "2", "--format", "bfile"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "12 14200\n"), "{stderr}");
    let (code, stdout, stderr, _) =
        common::under_address_limit(250_000_000, &["solve", "10", "--format", "cols", "-j", "4"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.lines().count(), 724);
}

/// `auto` chose the join when its table fitted one thread's buffers, so `-j 64` was refused
/// (or, without --algorithm join, counted into an abort): it now counts every thread's buffers
/// and falls back to d4. `plan` shows the choice: join for one thread, d4 for 64.
#[test]
fn auto_counts_every_threads_join_buffers() {
    for (threads, want) in [("64", "d4"), ("1", "join")] {
        let (code, stdout, stderr, _) = common::under_address_limit(
            1_300_000_000,
            &["plan", "22", "--shards", "64", "-j", threads, "--sample-seconds", "0", "--format", "json"],
        );
        assert_eq!(code, Some(0), "-j {threads}: {stderr}");
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["algorithm"], want, "-j {threads}: {stdout}");
    }
}

/// Issue 23: `plan`'s memory per process was below the peak of the count it plans (d4 n = 63:
/// 160 MiB for 549 measured; mirror n = 30 at K = 4,096: 78 MiB for 207). Now an upper bound,
/// for each algorithm: runs that end (a shard of n = 18–20) and runs stopped once their plan
/// is built (d4 n = 40 at K = 4,096, d4 n = 63).
#[test]
fn plan_memory_is_an_upper_bound_of_the_peak() {
    for (algorithm, n, k, seconds) in [
        ("mirror", "18", "4096", 30.0),
        ("d4", "20", "4096", 30.0),
        ("join", "20", "64", 30.0),
        ("mirror", "30", "4096", 3.0),
        ("d4", "40", "4096", 4.0),
        ("d4", "63", "1", 6.0),
    ] {
        let out = common::nqueens(&[
            "plan",
            n,
            "--algorithm",
            algorithm,
            "--shards",
            k,
            "-j",
            "1",
            "--sample-seconds",
            "0",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
        let plan: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let mib = plan["memory_mib"].as_u64().unwrap();
        let shard = format!("0/{k}");
        let mut args = vec!["count", n, "--algorithm", algorithm, "-j", "1", "--progress", "never"];
        if k != "1" {
            args.extend(["--shard", &shard]);
        }
        let (code, err, peak) = common::peak_rss_within(seconds, &args);
        eprintln!("{algorithm} n = {n}, K = {k}: plan {mib} MiB, peak {} MiB", peak >> 20);
        assert!(code == 0 || code == 130, "{algorithm} {n}: exit {code}: {err}");
        assert!(
            peak <= mib << 20,
            "{algorithm} n = {n}, K = {k}: plan says {mib} MiB, the count peaked at {} MiB",
            peak >> 20
        );
    }
}

/// Issue 23: `prlimit --as=300000000 count 63 --algorithm mirror --shard 0/4096` aborted
/// ("memory allocation of 383778816 bytes failed" in the automatic split depth), and so did
/// `plan 40 --algorithm mirror --shards 4096` under 100 and 200 MB: the depths are counted,
/// not built, and the plan's list is checked before it is reserved.
#[test]
fn mirror_plans_under_an_address_space_limit_count_and_never_abort() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.json");
    let args = [
        "count",
        "63",
        "--algorithm",
        "mirror",
        "--shard",
        "0/4096",
        "-j",
        "1",
        "--output",
        out.to_str().unwrap(),
    ];
    assert_eq!(limited_for(300_000_000, 4.0, &args), None, "it fitted and counted");
    for bytes in [100_000_000u64, 200_000_000] {
        let (code, stdout, stderr, _) = common::under_address_limit(
            bytes,
            &["plan", "40", "--algorithm", "mirror", "--shards", "4096", "--sample-seconds", "0"],
        );
        assert_eq!(code, Some(0), "{bytes}: {stderr}");
        assert!(stdout.contains("subproblems:  804940 (about 197 per shard), split depth 4"), "{stdout}");
    }
}

/// Issue 23: `check` of the n = 15 list aborted under 60 MB (in the duplicate table), and
/// `solve 16 --format cols | check -` peaked at 1.6 GB. A list in the order `solve` writes
/// needs no table now; one out of order that does not fit is refused with one line, exit 2.
#[test]
fn check_of_an_ordered_list_needs_no_table() {
    // The lists go from one child to a file (this parent must stay small: its memory would
    // count in the peaks of the children other tests start meanwhile).
    let dir = tempfile::tempdir().unwrap();
    let to_file = |cmd: &mut std::process::Command, path: &std::path::Path| {
        assert!(cmd.stdout(std::fs::File::create(path).unwrap()).status().unwrap().success());
    };
    let list = dir.path().join("l15.txt");
    let mut solve = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"));
    to_file(solve.args(["solve", "15", "--format", "cols"]), &list);
    let (code, stdout, stderr, _) =
        common::under_address_limit(60_000_000, &["check", list.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        "15×15 boards (cols format): 2279184 read, 2279184 valid, 2279184 distinct, 0 problems; complete: all 2279184 solutions of n = 15 (OEIS A000170)\n"
    );
    let (code, _, peak) = common::peak_rss(&["check", list.to_str().unwrap()]);
    assert_eq!(code, 0);
    eprintln!("check of the n = 15 list in order: peak {} KiB", peak >> 10);
    assert!(peak < 16 << 20, "peak {} MiB", peak >> 20);
    // Reversed: every board out of order, a table of 2.3 million that 60 MB cannot hold.
    let reversed = dir.path().join("reversed.txt");
    to_file(std::process::Command::new("tac").arg(&list), &reversed);
    let (code, stdout, stderr, _) =
        common::under_address_limit(60_000_000, &["check", reversed.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(": the duplicate table of ")
            && stderr.contains(" boards would need about ")
            && stderr.ends_with(" MiB, which this process cannot allocate\n"),
        "{stderr}"
    );
}

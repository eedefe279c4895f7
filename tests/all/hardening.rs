//! Issue 23 ("nothing accepted that cannot be true"): each finding of the second break-it round
//! on its exact input, the forged files made here. Every test asserts the message, the exit code
//! and what became of the files.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::nqueens;
use crate::common::{read_shard as read, shard_subtotals as subtotals, write_shard as write};
use nqueens::{oeis, plan::Tally};
use nqueens_runs::merge::ShardResult;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the binary with `args`; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = nqueens(args).output().unwrap();
    (
        out.status.code().expect("an exit code, not a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Counts `n` with `algorithm` in `k` shards into `dir`; returns the files.
fn shards(dir: &Path, prefix: &str, n: u32, algorithm: &str, k: usize) -> Vec<PathBuf> {
    (0..k)
        .map(|i| {
            let f = dir.join(format!("{prefix}{i}.json"));
            let (n, shard) = (n.to_string(), format!("{i}/{k}"));
            nqueens(&[
                "count",
                &n,
                "--algorithm",
                algorithm,
                "--shard",
                &shard,
                "-j",
                "2",
                "--output",
                s(&f),
            ])
            .assert()
            .success();
            f
        })
        .collect()
}

/// Changes the first subtotal of the result at `path` by `edit`, and its total the same way,
/// with the checksum recomputed: the forgeries.
fn forge_first_subtotal(path: &Path, classifies: bool, edit: impl Fn(&mut Tally)) {
    let mut r = read(path);
    let mut subs = subtotals(&r, classifies);
    edit(&mut subs[0]);
    let sum = subs.iter().fold(Tally::default(), |a, t| a + *t);
    (r.solutions, r.classes) = (sum.solutions, sum.classes);
    r.subtotals = nqueens_runs::subtotals::encode(classifies, &subs);
    r.checksum = r.compute_checksum();
    write(path, &r);
}

/// The files' bytes, to show that nothing changed them.
fn bytes(files: &[PathBuf]) -> Vec<Vec<u8>> {
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// Runs `merge` on `files` expecting exit 1, nothing on stdout, one line on stderr containing
/// every one of `messages`, and no file changed; returns the line.
fn merge_refused(files: &[PathBuf], messages: &[&str]) -> String {
    let before = bytes(files);
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| s(f)));
    let (code, stdout, stderr) = run(&args);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for m in messages {
        assert!(stderr.contains(m), "{stderr:?} lacks {m:?}");
    }
    assert!(bytes(files) == before, "a shard result was changed");
    stderr
}

/// Rewrites line `line` (1-based) of the journal at `path` with `edit`, resealing its CRC.
fn forge_journal_line(path: &Path, line: usize, edit: impl FnOnce(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let body = edit(lines[line - 1].rsplit_once(" crc32=").unwrap().0);
    lines[line - 1] = format!("{body} crc32={:08x}", crc32fast::hash(body.as_bytes()));
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// Returns the 1-based number of the first journal line whose solutions are not 0.
fn first_nonzero_line(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().position(|l| l.starts_with("id=") && !l.contains(" solutions=0 ")).unwrap() + 1
}

/// Adds `d` to the solutions of a journal line's body.
fn more_solutions(body: &str, d: u128) -> String {
    let (head, rest) = body.split_once(" solutions=").unwrap();
    let (v, tail) = rest.split_once(' ').unwrap();
    format!("{head} solutions={} {tail}", v.parse::<u128>().unwrap() + d)
}

#[test]
fn finding_1_impossible_totals_are_refused_at_merge() {
    let dir = tempfile::tempdir().unwrap();
    let host = nqueens_runs::merge::host_name().unwrap();
    // A mirror shard at n = 12, one subtotal + 1 (merged to 14,201, exit 0): every mirror
    // subproblem is a multiple of 2.
    let m = shards(dir.path(), "m", 12, "mirror", 2);
    forge_first_subtotal(&m[0], false, |t| t.solutions += 1);
    merge_refused(
        &m,
        &[
            &format!("cannot merge: {} (shard 0/2, host {host}): the subtotal of subproblem ", s(&m[0])),
            " is impossible: its ",
            " solutions are not a multiple of 2, the weight of every solution it counts: the file was forged or damaged",
        ],
    );
    // d4 at n = 10, orbit1 + 1 (725 / 93) and orbit2 + 1 (726), subtotal and total.
    let d = shards(dir.path(), "d", 10, "d4", 2);
    let pristine = bytes(&d);
    for (orbit, solutions) in [(1, 1), (2, 2)] {
        forge_first_subtotal(&d[0], true, |t| {
            t.solutions += solutions;
            if orbit == 1 { t.classes.orbit1 += 1 } else { t.classes.orbit2 += 1 }
        });
        merge_refused(
            &d,
            &[
                &format!("{} (shard 0/2, host {host}): the subtotal of subproblem ", s(&d[0])),
                " is impossible: ",
            ],
        );
        std::fs::write(&d[0], &pristine[0]).unwrap();
    }
    // Without subtotals to give it away (format 2), the totals alone: orbit1 + 1 is odd; a
    // class of 8 more is consistent, but not Q(10) = 724 (issue 23: "verified": false, exit 0).
    let old = |edit: &dyn Fn(&mut ShardResult)| {
        let mut r: ShardResult = serde_json::from_slice(&pristine[0]).unwrap();
        (r.format_version, r.subtotals, r.host) = (2, None, None);
        edit(&mut r);
        r.checksum = r.compute_checksum();
        write(&d[0], &r);
    };
    old(&|r| {
        r.classes.orbit1 += 1;
        r.solutions += 1;
    });
    merge_refused(
        &d,
        &["(shard 0/2): its ", " solutions are not a multiple of ", ", as every subproblem's it covers is"],
    );
    old(&|r| {
        r.classes.orbit8 += 1;
        r.solutions += 8;
    });
    merge_refused(
        &d,
        &["the shards' sum is inconsistent: 732 solutions of n = 10, but Q(10) = 724 (OEIS A000170)"],
    );
    // A format-3 shard with its subtotals removed and + 8 forged (merged to 732).
    let mut r: ShardResult = serde_json::from_slice(&pristine[0]).unwrap();
    (r.format_version, r.subtotals) = (3, None);
    r.classes.orbit8 += 1;
    r.solutions += 8;
    r.checksum = r.compute_checksum();
    write(&d[0], &r);
    merge_refused(
        &d,
        &[&format!(
            "{} (shard 0/2, host {host}): it has no subtotals, which format 3 always carries when they fit in 4194304 bytes, as those of its 48 subproblems do: the file was forged or damaged",
            s(&d[0])
        )],
    );
    // The honest shards, format 3 as an older nqueens wrote them, still merge.
    std::fs::write(&d[0], &pristine[0]).unwrap();
    for f in &d {
        let mut r = read(f);
        r.format_version = 3;
        r.checksum = r.compute_checksum();
        write(f, &r);
    }
    let (code, stdout, stderr) = run(&["merge", "--format", "bfile", s(&d[0]), s(&d[1])]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "10 724\n", ""));
}

#[test]
fn finding_1_impossible_journal_lines_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("t.j");
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]).assert().success();
    // A CRC-valid line with + 1 (14,201 printed, exit 0).
    let line = first_nonzero_line(&j);
    forge_journal_line(&j, line, |b| more_solutions(b, 1));
    let before = std::fs::read(&j).unwrap();
    let (code, stdout, stderr) = run(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "nqueens: error: checkpoint {} line {line} is corrupt: subproblem ",
            s(&j)
        )),
        "{stderr}"
    );
    assert!(stderr.contains(" solutions are not a multiple of 2, the weight of every solution it counts; the file was left untouched: `--repair` writes the lines that pass every check"), "{stderr}");
    assert_eq!(std::fs::read(&j).unwrap(), before);
    // + 2 passes the line's checks; the whole count is then not Q(12): refused, untouched.
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j), "--repair"]).assert().success();
    std::fs::rename(dir.path().join("t.j.repaired"), &j).unwrap();
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]).assert().success();
    let line = first_nonzero_line(&j);
    forge_journal_line(&j, line, |b| more_solutions(b, 2));
    let before = std::fs::read(&j).unwrap();
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the count is inconsistent: 14202 solutions of n = 12, but Q(12) = 14200 (OEIS A000170); a line of the journal was forged or damaged (each passes every check one line allows); the file was left untouched"), "{stderr}");
    assert_eq!(std::fs::read(&j).unwrap(), before);
}

#[test]
fn finding_2_a_forged_line_is_named_before_anything_is_appended_and_repair_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.j");
    nqueens(&["count", "12", "--algorithm", "join", "--checkpoint", s(&full)]).assert().success();
    let header = std::fs::read_to_string(&full).unwrap().lines().next().unwrap().to_string();
    // The journal: the header and one CRC-valid forged line (471 lines appended, then
    // "left untouched", exit 2, every rerun the same).
    let f = dir.path().join("f.j");
    let body = "id=5 solutions=1 classes=0,0,0,0 nodes=-";
    let text = format!("{header}\n{body} crc32={:08x}\n", crc32fast::hash(body.as_bytes()));
    std::fs::write(&f, &text).unwrap();
    for _ in 0..2 {
        let (code, stdout, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&f)]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "nqueens: error: checkpoint {0} line 2 is corrupt: subproblem 5: its 1 solutions are not a multiple of 4, the weight of every solution it counts; the file was left untouched: `--repair` writes the lines that pass every check (recounting them if need be) to {0}.repaired\n",
                s(&f)
            )
        );
        assert_eq!(std::fs::read_to_string(&f).unwrap(), text, "nothing appended");
    }
    // --repair writes the good lines (none here) next to it, and names the bad one.
    let (code, stdout, stderr) =
        run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&f), "--repair"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let repaired = dir.path().join("f.j.repaired");
    assert_eq!(
        stderr,
        format!(
            "nqueens: checkpoint {0} line 2 dropped: subproblem 5: its 1 solutions are not a multiple of 4, the weight of every solution it counts\n\
             nqueens: checkpoint {0}: kept 0 of 1 lines in {1}, dropped 1; {0} itself is unchanged: move {1} over it to resume from the kept lines\n",
            s(&f),
            s(&repaired)
        )
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
    assert_eq!(std::fs::read_to_string(&repaired).unwrap(), format!("{header}\n"));
    // A line that passes its own checks (+ 8) in a journal of 100 lines:
    // the run appends the rest, then says which lines are to blame; --repair recounts and
    // drops that one; the resume gives Q(12).
    let partial = dir.path().join("p.j");
    let full_text = std::fs::read_to_string(&full).unwrap();
    let kept: Vec<&str> = full_text.lines().take(101).collect();
    std::fs::write(&partial, kept.join("\n") + "\n").unwrap();
    let line = first_nonzero_line(&partial);
    // + 8: a multiple of every unit's weight, and a whole number of classes by Burnside.
    forge_journal_line(&partial, line, |b| more_solutions(b, 8));
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&partial)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("; one of the 100 lines it held before this run (lines 2 to 101) was forged or damaged (each passes every check one line allows); this run appended 372 lines, counted here: `--repair`"),
        "{stderr}"
    );
    let (code, _, stderr) =
        run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&partial), "--repair"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("its lines cover every subproblem but add up to an impossible count (14208 solutions of n = 12, but Q(12) = 14200 (OEIS A000170)): recounted its 472 subproblems"), "{stderr}");
    assert!(
        stderr.contains(&format!("line {line} dropped: subproblem ")) && stderr.contains(" recounts to "),
        "{stderr}"
    );
    assert!(stderr.contains("kept 471 of 472 lines"), "{stderr}");
    std::fs::rename(dir.path().join("p.j.repaired"), &partial).unwrap();
    let (code, stdout, stderr) =
        run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&partial), "--format", "bfile"]);
    assert_eq!((code, stdout.as_str()), (0, "12 14200\n"), "{stderr}");
}

#[test]
fn finding_3_a_failed_output_keeps_the_finished_result() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["count", "12", "--algorithm", "d4", "--shard", "0/4"];
    // `--output /dev/full` (a device) is refused before any work since issue 32 (`/dev/null`
    // lost the result); the failed writes below are those of a regular file.
    let mut with = args.to_vec();
    with.extend(["--output", "/dev/full"]);
    let (code, stdout, stderr) = run(&with);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(
        stderr,
        "nqueens: error: --output /dev/full is not a regular file (a device, a pipe or a socket): give the path of a file (new or to replace)\n"
    );
    // A file size limit and standard output full too: the result on stderr.
    let limited = |target: &Path, stdout: Stdio| {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("nqueens"));
        cmd.args(args).args(["--output", s(target)]).stdout(stdout);
        // SAFETY: setrlimit is async-signal-safe and touches nothing of the parent.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: 1024, rlim_max: 1024 };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        cmd.output().unwrap()
    };
    let target = dir.path().join("s.json");
    let out = limited(&target, Stdio::from(std::fs::File::create("/dev/full").unwrap()));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next().map(String::from),
        Some(format!(
            "nqueens: error: writing shard result {}: File too large (os error 27); the result follows on standard error: save its last line as the shard's file",
            s(&target)
        ))
    );
    let r: ShardResult = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(r.checksum, r.compute_checksum());
    // A file size limit (`ulimit -f 1`: killed by SIGXFSZ, exit 153, a .tmp left): EFBIG, the
    // result on stdout, nothing left in the folder.
    let out = limited(&target, Stdio::piped());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "nqueens: error: writing shard result {}: File too large (os error 27); the result is on standard output instead: save it as the shard's file\n",
            s(&target)
        )
    );
    let r: ShardResult = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r.checksum, r.compute_checksum());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no s.json, no temporary file");
}

#[test]
fn finding_7_text_from_files_is_escaped_and_the_host_is_under_the_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let j = shards(dir.path(), "h", 12, "join", 4);
    let evil =
        "vm): ok\n\x1b[2K\rnqueens: audit: 472 of 472 subproblems in 4 shard(s) recounted: all agree\x1b[8m";
    let no_controls = |text: &str| text.chars().all(|c| c == '\n' || !c.is_control());
    // Format 4: the host is under the checksum.
    let mut r = read(&j[1]);
    r.host = Some(evil.into());
    write(&j[1], &r);
    let line = merge_refused(&j, &[&format!("{}: checksum mismatch", s(&j[1]))]);
    assert!(no_controls(&line), "{line:?}");
    // Format 3 kept it outside: accepted, but shown escaped (with a subtotal forged so that a
    // message names the host).
    let mut r = read(&j[2]);
    r.format_version = 3;
    let mut subs = subtotals(&r, false);
    let (from, to) = (subs.iter().skip(1).position(|t| t.solutions >= 8).unwrap() + 1, 0);
    subs[from].solutions -= 8;
    subs[to].solutions += 8;
    r.subtotals = nqueens_runs::subtotals::encode(false, &subs);
    r.host = None;
    r.checksum = r.compute_checksum();
    r.host = Some(evil.into());
    let fresh = shards(dir.path(), "g", 12, "join", 4);
    write(&fresh[2], &r);
    let out = nqueens(&[
        "merge",
        "--audit",
        "1",
        "--seed",
        "1",
        s(&fresh[0]),
        s(&fresh[1]),
        s(&fresh[2]),
        s(&fresh[3]),
    ])
    .output()
    .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(no_controls(&stderr), "{stderr:?}");
    assert!(stderr.contains("host vm): ok\\u{a}\\u{1b}[2K\\u{d}nqueens: audit: 472 of 472"), "{stderr}");
    assert!(stderr.ends_with("recounted: 2 disagreements\n"), "{stderr}");
    // A file name, a version and a journal header's version with escapes.
    let name = dir.path().join("s\x1b[31mred.json");
    std::fs::write(&name, "{}").unwrap();
    let (code, _, stderr) = run(&["merge", s(&name)]);
    assert_eq!(code, 2);
    assert!(
        no_controls(&stderr) && stderr.contains("s\\u{1b}[31mred.json is not a shard result"),
        "{stderr:?}"
    );
    let (code, _, stderr) = run(&["check", s(&dir.path().join("x\x1b[31m"))]);
    assert_eq!(code, 2);
    assert!(
        no_controls(&stderr) && stderr.contains("cannot open ") && stderr.contains("x\\u{1b}[31m"),
        "{stderr:?}"
    );
    let mut v = read(&fresh[3]);
    v.version = "0.1.0\x1b[8m".into();
    v.checksum = v.compute_checksum();
    write(&fresh[3], &v);
    let line = merge_refused(&[fresh[0].clone(), fresh[3].clone()], &["has version 0.1.0\\u{1b}[8m but "]);
    assert!(no_controls(&line));
    let journal = dir.path().join("v.j");
    nqueens(&["count", "10", "--algorithm", "join", "--checkpoint", s(&journal)]).assert().success();
    forge_journal_line(&journal, 1, |b| b.replace("version=0.1.0", "version=0.1.0\x1b[8m"));
    let (code, _, stderr) = run(&["count", "10", "--algorithm", "join", "--checkpoint", s(&journal)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        no_controls(&stderr) && stderr.contains("program version 0.1.0\\u{1b}[8m in the journal"),
        "{stderr:?}"
    );
}

#[test]
fn finding_8_the_journal_fixes_the_algorithm() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("au.j");
    // `auto` took the join; stopped, the hint names it.
    let child = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["count", "18", "--checkpoint", s(&j), "-j", "1", "--progress", "never"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&j).map_or(0, |t| t.lines().count()) < 3 {
        assert!(start.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: a plain system call on this test's own child or process, with pointers to live locals.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr
            .trim_end()
            .ends_with(&format!("--checkpoint {} -j 1 --progress never --algorithm join", s(&j))),
        "{stderr}"
    );
    // Issue 40: it said "run the same command again", then showed one with a flag added.
    assert!(
        stderr.contains("; to resume, run this (the journal fixes the algorithm auto chose): ")
            && !stderr.contains("the same command"),
        "{stderr}"
    );
    // Under a Slurm limit where `auto` would take d4, the journal's join is kept: refused (it
    // does not fit), naming the journal, the file untouched.
    let before = std::fs::read(&j).unwrap();
    let out = nqueens(&["count", "18", "--checkpoint", s(&j), "-j", "1"])
        .env("SLURM_MEM_PER_NODE", "12")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.starts_with(&format!("nqueens: error: checkpoint {} was written by the join algorithm (its lines are join units), which does not fit here: it needs about ", s(&j))), "{stderr}");
    assert_eq!(std::fs::read(&j).unwrap(), before);
    // Where it fits, the same command resumes to Q(18).
    let (code, stdout, stderr) = run(&["count", "18", "--checkpoint", s(&j), "-j", "2", "--format", "bfile"]);
    assert_eq!((code, stdout), (0, format!("18 {}\n", oeis::A000170.get(18).unwrap())), "{stderr}");
    // A d4 journal resumed with `auto` (which would take the join) keeps d4.
    let d4 = dir.path().join("d4.j");
    std::fs::write(&d4, "").unwrap();
    nqueens(&["count", "13", "--algorithm", "d4", "--checkpoint", s(&d4)]).assert().success();
    let (code, stdout, stderr) = run(&["count", "13", "--checkpoint", s(&d4), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"solutions\":73712") && stdout.contains("\"algorithm\":\"d4\""), "{stdout}");
}

#[test]
fn finding_9_cheap_checks_come_before_the_audit_and_missing_shards_are_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let g = shards(dir.path(), "g", 12, "join", 4);
    let (code, stdout, stderr) = run(&["merge", "--audit", "1", s(&g[0]), s(&g[1]), s(&g[2])]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(stderr, "nqueens: error: cannot merge: missing shard(s) 3/4\n", "no audit ran first");
    let k0 = dir.path().join("k0.json");
    nqueens(&["count", "12", "--shard", "0/4096", "--output", s(&k0)]).assert().success();
    let (code, _, stderr) = run(&["merge", s(&k0)]);
    assert_eq!(code, 1);
    assert_eq!(stderr, "nqueens: error: cannot merge: missing shard(s) 1-4095/4096 (4095 of 4096)\n");
}

/// Issue 23, finding 12: a CRLF journal was refused with two equal CRCs shown; the \r is named
/// now, and --repair converts it.
#[test]
fn a_crlf_journal_is_named_and_repair_converts_it() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("crlf.j");
    nqueens(&["count", "12", "--algorithm", "join", "--checkpoint", s(&j)]).assert().success();
    let lf = std::fs::read_to_string(&j).unwrap();
    std::fs::write(&j, lf.replace('\n', "\r\n")).unwrap();
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&j)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("line 1 is corrupt: bad header: it ends in a carriage return (\\r): the journal was converted to CRLF line ends"),
        "{stderr}"
    );
    assert!(!stderr.contains('\r'));
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&j), "--repair"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("kept 472 of 472 lines in ")
            && stderr
                .contains("(473 lines, the header included, without the \\r of CRLF line ends), dropped 0"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("crlf.j.repaired")).unwrap(), lf);
}

/// Issue 23, finding 12: the empty board of n = 0 in the cols format was "incomplete: 0 of the 1".
#[test]
fn the_empty_board_of_n_0_is_the_complete_list() {
    let empty = nqueens(&["solve", "0", "--format", "cols"]).output().unwrap().stdout;
    nqueens(&["check", "--size", "0"]).write_stdin(empty).assert().success().stdout(
        "0×0 boards (cols format): 1 read, 1 valid, 1 distinct, 0 problems; complete: all 1 solutions of n = 0 (OEIS A000170)\n",
    );
}

/// Issue 23, finding 12: a merge under a Slurm limit of 1 MiB talked about --algorithm; a shard
/// with a UTF-8 byte order mark was "expected value at line 1 column 1".
#[test]
fn a_merge_under_a_slurm_limit_names_the_merge_and_a_bom_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let g = shards(dir.path(), "g", 12, "join", 2);
    let out = nqueens(&["merge", s(&g[0]), s(&g[1])]).env("SLURM_MEM_PER_NODE", "1").output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: the shard plan of its n = 12, join with K = 2 cannot be rebuilt here to check the shards: the join's quarter table and one thread's buffers need about ", s(&g[0])))
            && stderr.contains(" MiB, and the join takes at most 3/4 of the 1 MiB available to this process: merge where more memory is free"),
        "{stderr}"
    );
    // A shard with a UTF-8 byte order mark ("expected value at line 1 column 1") merges.
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend(std::fs::read(&g[0]).unwrap());
    std::fs::write(&g[0], bom).unwrap();
    let (code, stdout, stderr) = run(&["merge", "--format", "bfile", s(&g[0]), s(&g[1])]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "12 14200\n", ""));
}

/// Issue 23, finding 12: merge, solve and plan died by SIGINT, SIGTERM and SIGUSR1 (a shell saw
/// 138 for SIGUSR1); they exit 130 or 143 with one line now.
#[test]
fn merge_solve_and_plan_stop_on_a_signal_with_130_or_143_and_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let big = shards(dir.path(), "big", 16, "mirror", 2);
    let commands: [Vec<&str>; 3] = [
        vec!["merge", "--audit", "1", s(&big[0]), s(&big[1])],
        vec!["solve", "18", "--format", "cols"],
        vec!["plan", "17", "--sample-seconds", "30"],
    ];
    for args in &commands {
        for (signal, name, code) in
            [(libc::SIGINT, "SIGINT", 130), (libc::SIGTERM, "SIGTERM", 143), (libc::SIGUSR1, "SIGUSR1", 143)]
        {
            let child = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            std::thread::sleep(Duration::from_millis(500));
            // SAFETY: a plain system call on this test's own child or process, with pointers to live locals.
            unsafe { libc::kill(child.id() as i32, signal) };
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(code), "{args:?} {name}: {stderr}");
            assert_eq!(
                stderr.lines().last(),
                Some(format!("nqueens: stopped by {name}").as_str()),
                "{args:?}: {stderr}"
            );
        }
    }
}

#[test]
fn finding_6_plan_honours_its_time_budget_at_any_n() {
    // Issue 23: `plan 28/30/34 --sample-seconds 1` printed nothing for 40 s (at least 8 whole
    // d4 subproblems, of minutes each, were counted). Now each is counted for its share of the
    // budget and extrapolated, and the plan says how little it measured.
    for n in ["28", "34"] {
        let start = std::time::Instant::now();
        // d4's subproblems stop midway; the join (which auto picks at n = 28 where 16 GiB are
        // free) cannot, and is checked below.
        let (code, stdout, stderr) =
            run(&["plan", n, "--algorithm", "d4", "--sample-seconds", "0.5", "-j", "1", "--seed", "5"]);
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(code, 0, "{stderr}");
        assert!(seconds < 10.0, "n = {n}: {seconds} s");
        let cpu = stdout.lines().find(|l| l.starts_with("CPU time:")).unwrap();
        // At least 8, each stopped after 1/128 of the budget.
        let sampled: usize = cpu.split("from ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(
            sampled >= 8
                && cpu.contains(" subproblems sampled")
                && cpu.contains(", each counted for its share of --sample-seconds only: ")
                && cpu.ends_with(" of their work on average (their first steps), so a rough estimate"),
            "{cpu}"
        );
        let (_, json, _) = run(&[
            "plan",
            n,
            "--algorithm",
            "d4",
            "--sample-seconds",
            "0.5",
            "-j",
            "1",
            "--seed",
            "5",
            "--format",
            "json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let share = v["sampled_share_counted"].as_f64().unwrap();
        assert!(share > 0.0 && share < 0.01, "n = {n}: {share}");
        assert!(v["cpu_seconds"].as_f64().unwrap() > 1e9, "n = {n}: {json}");
    }
    // The join at n = 28: no sample (its units take minutes), said at once; or, where 16 GiB
    // are not free, refused with one line and exit 2.
    let start = std::time::Instant::now();
    let (code, stdout, stderr) =
        run(&["plan", "28", "--algorithm", "join", "--sample-seconds", "0.5", "-j", "1"]);
    assert!(start.elapsed().as_secs_f64() < 10.0);
    if code == 0 {
        let cpu = stdout.lines().find(|l| l.starts_with("CPU time:")).unwrap();
        assert!(cpu.contains("not estimated: a join unit of n = 28 takes minutes"), "{cpu}");
    } else {
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("board size 28 is too large for --algorithm join here"), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
    // A sample that counts whole subproblems says nothing of the kind.
    let (code, stdout, _) = run(&["plan", "12", "--sample-seconds", "0.2", "--seed", "5"]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("rough estimate"), "{stdout}");
}

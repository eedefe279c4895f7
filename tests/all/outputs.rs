//! The files a count writes besides standard output: `--output` (a shard's result),
//! `--breakdown` (each subproblem's counts) and `--checkpoint` (the journal) as paths: what is
//! refused before any work, and what happens to a finished result that cannot be written.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{SmallDisk, nqueens, run, s, scratch, under_address_limit, usage_error};
use nqueens_runs::merge::ShardResult;
use predicates::prelude::*;
use std::os::unix::fs::FileTypeExt;

/// Runs the binary with `args`, standard output (`fd` 1, as `> file`) or standard error (2, as
/// `2> file`) redirected to the file `file`; returns (exit code, what the other stream printed).
fn run_into_fd(fd: u8, file: &Path, args: &[&str]) -> (i32, String) {
    let to = std::fs::File::create(file).unwrap();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"));
    cmd.args(args);
    if fd == 1 {
        cmd.stdout(to)
    } else {
        cmd.stderr(to)
    };
    let got = cmd.output().unwrap();
    let other = if fd == 1 { got.stderr } else { got.stdout };
    (got.status.code().unwrap(), String::from_utf8(other).unwrap())
}

/// [`run_into_fd`] with standard output into `out` (as `> out`); returns (exit code, stderr).
fn run_into(out: &Path, args: &[&str]) -> (i32, String) {
    run_into_fd(1, out, args)
}

/// Issue 40: `count 10 --checkpoint /dev/stderr 2> err.txt` exited 0 with the journal written
/// among the messages of err.txt. Standard error's file is refused as a journal or a result,
/// as standard output's is, before any work.
#[test]
fn standard_errors_file_is_refused_as_a_journal_or_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let (code, stdout) = run_into_fd(2, &err, &["count", "10", "--checkpoint", "/dev/stderr"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        std::fs::read_to_string(&err).unwrap(),
        "nqueens: error: checkpoint /dev/stderr is the file standard error writes to: the journal would be \
         written among the messages; give the journal a file of its own\n"
    );
    for flag in ["--output", "--breakdown"] {
        let (code, _) = run_into_fd(2, &err, &["count", "10", "--shard", "0/2", flag, "/dev/stderr"]);
        assert_eq!(code, 2);
        assert_eq!(
            std::fs::read_to_string(&err).unwrap(),
            format!(
                "nqueens: error: {flag} /dev/stderr is the file standard error writes to: give the result a file of its own\n"
            )
        );
    }
    // Standard error on a terminal or a pipe is no file: refused as before.
    nqueens(&["count", "10", "--checkpoint", "/dev/stderr"])
        .assert()
        .code(2)
        .stderr("nqueens: error: checkpoint /dev/stderr is not a regular file: give the path of a journal file (new or to resume)\n");
}

/// Issue 40: a breakdown that did not fit on the disk was lost, with one line saying so. It
/// follows on standard error now (standard output carries the count), whole, after that line;
/// exit 1, the count written.
#[test]
fn a_breakdown_that_does_not_fit_on_the_disk_goes_to_standard_error() {
    let Some(disk) = SmallDisk::full() else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let csv = disk.path().join("b.csv");
    let args = ["count", "10", "--algorithm", "mirror", "--format", "bfile"];
    let out = nqueens(&[&args[..], &["--breakdown", csv.to_str().unwrap()]].concat()).assert().code(1);
    let out = out.get_output();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "10 724\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (first, rest) = stderr.split_once('\n').unwrap();
    assert_eq!(
        first,
        format!(
            "nqueens: error: writing breakdown {}: No space left on device (os error 28); the count is still \
             written, and the breakdown follows on standard error (2399 lines): save them as its file",
            csv.display()
        )
    );
    assert!(!csv.exists());
    // What follows is the breakdown a disk with room gets, byte for byte.
    let dir = tempfile::tempdir().unwrap();
    let roomy = dir.path().join("b.csv");
    nqueens(&[&args[..], &["--breakdown", roomy.to_str().unwrap()]].concat()).assert().success();
    assert_eq!(rest, std::fs::read_to_string(&roomy).unwrap());
    assert!(rest.starts_with("id,prefix,solutions,orbit8,orbit4,orbit2,orbit1,nodes\n"));
}

/// Issue 40: a file given where a folder belongs was said not to exist (`--output afile/x.json`),
/// or gave the system's words alone (`--checkpoint afile/j`: "Not a directory").
#[test]
fn a_file_where_a_folder_belongs_is_named_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, "hi\n").unwrap();
    let inside = file.join("x");
    let (f, x) = (file.to_str().unwrap(), inside.to_str().unwrap());
    for (args, what) in [
        (vec!["count", "12", "--shard", "0/2", "--output", x], format!("--output {x}")),
        (vec!["count", "12", "--breakdown", x], format!("--breakdown {x}")),
        (vec!["count", "12", "--checkpoint", x], format!("checkpoint {x}")),
    ] {
        nqueens(&args).assert().code(2).stdout("").stderr(format!(
            "nqueens: error: {what}: {f} is a file, not a folder: give a path in an existing folder\n"
        ));
    }
    let missing = dir.path().join("nodir").join("j");
    nqueens(&["count", "12", "--checkpoint", missing.to_str().unwrap()]).assert().code(2).stderr(format!(
        "nqueens: error: checkpoint {}: the folder {} does not exist: give a path in an existing folder\n",
        missing.display(),
        dir.path().join("nodir").display()
    ));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hi\n");
}

#[test]
fn a_checkpoint_or_shard_result_must_be_a_regular_file() {
    usage_error(&["count", "10", "--checkpoint", "/dev/zero"], "checkpoint /dev/zero is not a regular file");
    usage_error(&["merge", "/dev/zero"], "/dev/zero is not a shard result of `nqueens count --shard`");
    let dir = tempfile::tempdir().unwrap();
    usage_error(&["merge", dir.path().to_str().unwrap()], "holds no shard result (no *.json file)");
    // A list of shard results that cannot be read, names nothing, or names a folder without any.
    let missing = dir.path().join("nolist");
    usage_error(
        &["merge", "--files-from", missing.to_str().unwrap()],
        "cannot read the list of shard results",
    );
    let empty = dir.path().join("empty.list");
    std::fs::write(&empty, "\n\n").unwrap();
    usage_error(&["merge", "--files-from", empty.to_str().unwrap()], "names no file");
    let list = dir.path().join("dirs.list");
    std::fs::write(&list, format!("{}\n", dir.path().display())).unwrap();
    // The folder holds the lists, but no *.json file.
    usage_error(&["merge", "--files-from", list.to_str().unwrap()], "holds no shard result (no *.json file)");
    usage_error(&["merge"], "the following required arguments were not provided");
}

/// Found by a newcomer: `count 19 --shard 0/4 --output /nonexist/x.json` ran the whole shard and
/// lost it when writing; a result's folder is checked before any work (the count would take
/// minutes here: a refusal in under a second shows no work was done).
#[test]
fn an_output_folder_that_cannot_be_written_is_refused_before_any_work() {
    for flag in ["--output", "--breakdown"] {
        let start = std::time::Instant::now();
        usage_error(
            &["count", "19", "--shard", "0/4", flag, "/nonexist/x.json"],
            &format!(
                "{flag} /nonexist/x.json: the folder /nonexist does not exist: give a path in an existing folder"
            ),
        );
        // Not even root may create a file in /proc.
        usage_error(
            &["count", "19", "--shard", "0/4", flag, "/proc/x.json"],
            &format!("{flag} /proc/x.json: cannot create a file in /proc ("),
        );
        // A folder (a second tester: the count ran, then "Is a directory").
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        usage_error(
            &["count", "19", "--shard", "0/4", flag, d],
            &format!("{flag} {d} is a folder: give the path of a file (new or to replace)"),
        );
        // A symbolic link is written through to its target: the target's folder is checked.
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("missing/x.json", &link).unwrap();
        usage_error(
            &["count", "19", "--shard", "0/4", flag, link.to_str().unwrap()],
            &format!("the folder {d}/missing does not exist: give a path in an existing folder"),
        );
        std::fs::remove_file(&link).unwrap();
        assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
    }
    // A device or a pipe is refused since issue 32 (`--output /dev/null` lost the result):
    // `--output /dev/stdout` on a pipe, here; on a file, an_output_that_is_no_file_of_its_own_is_refused.
    usage_error(
        &["count", "8", "--shard", "0/2", "--output", "/dev/stdout"],
        "--output /dev/stdout is not a regular file (a device, a pipe or a socket): give the path of a file",
    );
}

/// `-` is no file name these flags take: a file named `-` appeared where standard output was
/// meant; `./-` still names one.
#[test]
fn a_dash_for_an_output_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--output", "--checkpoint", "--breakdown"] {
        let mut args = vec!["count", "8", "--shard", "0/1", flag, "-"];
        if flag != "--output" {
            args.truncate(2);
            args.extend([flag, "-"]);
        }
        let mut cmd = nqueens(&args);
        cmd.current_dir(dir.path());
        crate::common::assert_usage_error(
            &mut cmd,
            &format!("{flag} -: this flag writes a file, not standard output"),
        );
    }
    assert!(!dir.path().join("-").exists(), "no file named -");
    nqueens(&["count", "8", "--breakdown", "./-"]).current_dir(dir.path()).assert().success();
    assert!(dir.path().join("-").exists(), "./- names a file");
}

#[test]
fn one_path_for_two_outputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x");
    let p = p.to_str().unwrap();
    usage_error(
        &["count", "10", "--shard", "0/2", "--checkpoint", p, "--output", p],
        "--checkpoint and --output name the same file",
    );
    usage_error(
        &["count", "10", "--checkpoint", p, "--breakdown", p],
        "--checkpoint and --breakdown name the same file",
    );
    assert!(!dir.path().join("x").exists(), "nothing was written");
}

/// A result or breakdown aimed by a slip at another run's checkpoint journal is refused before
/// any work, and the journal is left as it was (such a slip once replaced the journal).
#[test]
fn a_result_over_a_checkpoint_journal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("run.journal");
    let j = s(&journal);
    nqueens(&["count", "10", "--checkpoint", j]).assert().success();
    let before = std::fs::read(&journal).unwrap();
    usage_error(
        &["count", "12", "--shard", "1/2", "--output", j],
        &format!("--output {j} is a checkpoint journal: the result would be written over its counts"),
    );
    usage_error(&["count", "12", "--breakdown", j], &format!("--breakdown {j} is a checkpoint journal"));
    assert_eq!(std::fs::read(&journal).unwrap(), before, "the journal is untouched");
    // Any other existing file is replaced, as before.
    let other = dir.path().join("old.csv");
    std::fs::write(&other, "stale").unwrap();
    nqueens(&["count", "8", "--breakdown", s(&other)]).assert().success();
    assert_ne!(std::fs::read_to_string(&other).unwrap(), "stale");
}

#[test]
fn outputs_write_through_links_and_refuse_devices() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.json");
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    nqueens(&["count", "10", "--shard", "0/2", "--output", link.to_str().unwrap()]).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(std::fs::read_to_string(&target).unwrap().contains("\"shard\""));
    // A device is refused before any work, and stays a device (as root, a rename would have
    // replaced /dev/null by a file; written in place, the result was lost: issue 32).
    usage_error(
        &["count", "10", "--shard", "1/2", "--output", "/dev/null"],
        "--output /dev/null is not a regular file (a device, a pipe or a socket)",
    );
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

/// Returns the names in `dir` that look like temporary files.
fn temp_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn six_concurrent_writers_to_one_output_leave_one_whole_result() {
    // Issue 15: six concurrent `count 15 --shard i/3 --output same.json` shared same.json.tmp;
    // in 2 of ~410 rounds the file ended as invalid JSON while all exited 0.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("same.json");
    let o = out.to_str().unwrap();
    for round in 0..20 {
        let children: Vec<std::process::Child> = (0..6)
            .map(|i| {
                std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
                    .args(["count", "11", "--shard", &format!("{}/3", i % 3), "-j", "1", "--output", o])
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success(), "round {round}");
        }
        let text = std::fs::read_to_string(&out).unwrap();
        let r: nqueens_runs::merge::ShardResult =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("round {round}: {e}: {text}"));
        assert_eq!(r.checksum, r.compute_checksum(), "round {round}");
        assert_eq!(temp_files(dir.path()), Vec::<String>::new(), "round {round}");
    }
}

#[test]
fn output_and_checkpoint_through_a_link_to_one_file_are_refused() {
    // Issue 15: `--checkpoint a.j --output link.j` with link.j -> a.j (not yet existing) let the
    // shard JSON overwrite the journal.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.j");
    let link = dir.path().join("link.j");
    std::os::unix::fs::symlink("a.j", &link).unwrap();
    usage_error(
        &[
            "count",
            "10",
            "--shard",
            "0/2",
            "--checkpoint",
            a.to_str().unwrap(),
            "--output",
            link.to_str().unwrap(),
        ],
        "--checkpoint and --output name the same file",
    );
    assert!(!a.exists(), "nothing was written");
    // The same with the journal there already: refused, the journal untouched.
    nqueens(&["count", "10", "--shard", "0/2", "--checkpoint", a.to_str().unwrap()]).assert().success();
    let before = std::fs::read(&a).unwrap();
    usage_error(
        &[
            "count",
            "10",
            "--shard",
            "0/2",
            "--output",
            link.to_str().unwrap(),
            "--checkpoint",
            a.to_str().unwrap(),
        ],
        "--checkpoint and --output name the same file",
    );
    // A hard link too.
    let hard = dir.path().join("hard.j");
    std::fs::hard_link(&a, &hard).unwrap();
    usage_error(
        &[
            "count",
            "10",
            "--shard",
            "0/2",
            "--checkpoint",
            a.to_str().unwrap(),
            "--output",
            hard.to_str().unwrap(),
        ],
        "--checkpoint and --output name the same file",
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);
}

#[test]
fn a_full_disk_leaves_no_temporary_file_and_no_torn_line() {
    let Some(disk) = SmallDisk::mount(64) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let d = disk.dir.path();
    // A shard result that does not fit: exit 1, one line, the old result and no temporary file.
    let out = d.join("out.json");
    std::fs::write(&out, "old\n").unwrap();
    let filler = d.join("filler");
    let mut fill = std::fs::File::create(&filler).unwrap();
    let _ = std::io::Write::write_all(&mut fill, &vec![0u8; 80 << 10]);
    drop(fill);
    let run = nqueens(&["count", "10", "--shard", "0/2", "--output", out.to_str().unwrap()])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(err.contains("writing shard result") && err.contains("No space left on device"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(temp_files(d), Vec::<String>::new());
    std::fs::remove_file(&filler).unwrap();

    // A journal that fills the disk: exit 1, the journal ends with a whole line; with room
    // again, the run resumes without a torn-line warning and gives the exact count.
    let journal = d.join("q.journal");
    let j = journal.to_str().unwrap();
    let run = nqueens(&["count", "12", "--algorithm", "d4", "--split-depth", "3", "--checkpoint", j])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(err.contains("No space left on device"), "{err}");
    let text = std::fs::read(&journal).unwrap();
    assert!(text.len() > 1000 && text.ends_with(b"\n"), "{} bytes", text.len());
    disk.resize(2048);
    nqueens(&[
        "count",
        "12",
        "--algorithm",
        "d4",
        "--split-depth",
        "3",
        "--checkpoint",
        j,
        "--format",
        "bfile",
    ])
    .assert()
    .success()
    .stdout("12 14200\n")
    .stderr(
        // One line: "nqueens: resumed N of M subproblems from …q.journal".
        predicate::function(|s: &str| {
            let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == ',');
            let Some(rest) = s.strip_prefix("nqueens: resumed ") else { return false };
            let words: Vec<&str> = rest.splitn(5, ' ').collect();
            matches!(words.as_slice(), [a, "of", b, "subproblems", from]
                if number(a) && number(b) && from.starts_with("from ") && from.ends_with("q.journal\n")
                    && from.matches('\n').count() == 1)
        }),
    );

    // Issue 15: a torn line left on a full disk was blamed on "a crash".
    std::fs::remove_file(&journal).unwrap();
    disk.resize(64);
    let run = nqueens(&["count", "12", "--algorithm", "d4", "--split-depth", "3", "--checkpoint", j])
        .assert()
        .code(1);
    drop(run);
    // Room for the torn tail first: the full disk may have left none, when the journal ended on
    // a page's end, and then no torn line was written at all (a CI run failed so). The filler
    // then fills the disk again.
    disk.resize(128);
    let mut f = std::fs::OpenOptions::new().append(true).open(&journal).unwrap();
    std::io::Write::write_all(&mut f, b"id=7 solut").unwrap();
    drop(f);
    let mut fill = std::fs::File::create(&filler).unwrap();
    let _ = std::io::Write::write_all(&mut fill, &vec![0u8; 128 << 10]);
    drop(fill);
    let run = nqueens(&["count", "12", "--algorithm", "d4", "--split-depth", "3", "--checkpoint", j])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(
        err.contains("dropped a torn last line (")
            && err.contains(" bytes, a write cut short by a full disk: "),
        "{err}"
    );
    assert!(std::fs::read(&journal).unwrap().ends_with(b"\n"));
}

#[test]
fn a_failed_output_keeps_the_finished_result() {
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

/// Finding 4: `count 12 --checkpoint /dev/stdout > o2.txt` exited 0 with the results table
/// written over the journal's header (the resume then failed: "line 1 is corrupt"). Refused
/// now, before any work: o2.txt stays empty.
#[test]
fn a_journal_on_standard_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o2 = dir.path().join("o2.txt");
    let (code, stderr) = run_into(&o2, &["count", "12", "--checkpoint", "/dev/stdout"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        "nqueens: error: checkpoint /dev/stdout is the file standard output writes to: the results would be \
         written over the journal; give the journal a file of its own\n"
    );
    assert_eq!(std::fs::read(&o2).unwrap(), b"");
    // The same file by its own name, and through a link.
    let (code, stderr) = run_into(&o2, &["count", "12", "--checkpoint", s(&o2)]);
    assert_eq!((code, stderr.contains("is the file standard output writes to")), (2, true), "{stderr}");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&o2, &link).unwrap();
    let (code, stderr) = run_into(&o2, &["count", "12", "--checkpoint", s(&link)]);
    assert_eq!((code, stderr.contains("is the file standard output writes to")), (2, true), "{stderr}");
    assert_eq!(std::fs::read(&o2).unwrap(), b"");
    // A journal of its own still runs, and resumes.
    let j = dir.path().join("j");
    let (code, stderr) = run_into(&o2, &["count", "12", "--checkpoint", s(&j), "--format", "bfile"]);
    assert_eq!((code, std::fs::read_to_string(&o2).unwrap()), (0, "12 14200\n".to_string()), "{stderr}");
    assert!(std::fs::read_to_string(&j).unwrap().starts_with("nqueens-journal"));
}

/// Finding 4: `--output /dev/null` exited 0 and the shard's result was gone; `--output
/// /dev/stdout` into a file was refused with a message naming `/proc/self/fd/.nqueens-probe.*`.
#[test]
fn an_output_that_is_no_file_of_its_own_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr, _) =
        under_address_limit(u64::MAX, &["count", "12", "--shard", "0/2", "--output", "/dev/null"]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        "nqueens: error: --output /dev/null is not a regular file (a device, a pipe or a socket): give the path \
         of a file (new or to replace)\n"
    );
    let o = dir.path().join("o.txt");
    for flag in ["--output", "--breakdown"] {
        let (code, stderr) = run_into(&o, &["count", "12", "--shard", "0/2", flag, "/dev/stdout"]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "nqueens: error: {flag} /dev/stdout is the file standard output writes to: give the result a file of its own\n"
            )
        );
        assert!(!stderr.contains("nqueens-probe"));
        let (code, stderr) = run_into(&o, &["count", "12", "--shard", "0/2", flag, s(&o)]);
        assert_eq!((code, stderr.contains("is the file standard output writes to")), (2, true), "{stderr}");
    }
    assert_eq!(std::fs::read(&o).unwrap(), b"");
    // A result file of its own is written.
    let r = dir.path().join("r.json");
    let (code, stderr) = run_into(&o, &["count", "12", "--shard", "0/2", "--output", s(&r)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(std::fs::read_to_string(&r).unwrap().contains("\"shard\":0"));
}

#[test]
fn breakdown_lists_every_subproblem_with_its_prefix_and_counts() {
    let dir = scratch("breakdown");
    let csv = dir.join("q8.csv");
    nqueens(&[
        "count",
        "8",
        "--algorithm",
        "mirror",
        "--split-depth",
        "1",
        "--breakdown",
        s(&csv),
        "--format",
        "bfile",
    ])
    .assert()
    .success()
    .stdout("8 92\n");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["id", "prefix", "solutions", "orbit8", "orbit4", "orbit2", "orbit1", "nodes"]);
    // Solutions of n = 8 with the row-0 queen in columns 0..3: 4, 8, 16, 18, doubled by the mirror.
    let counted: Vec<(&str, &str, &str)> = rows[1..].iter().map(|r| (r[0], r[1], r[2])).collect();
    assert_eq!(counted, [("0", "0", "8"), ("1", "1", "16"), ("2", "2", "32"), ("3", "3", "36")]);
    assert!(rows[1..].iter().all(|r| r[7].parse::<u64>().unwrap() > 0), "nodes are counted");
    // Issue 14: the mirror computes no symmetry classes: its orbit cells are empty, not 0.
    assert!(rows[1..].iter().all(|r| r[3..7] == ["", "", "", ""]), "{text}");
    // Nor does the join per subproblem (its classes come from Burnside for a whole count).
    let join_csv = dir.join("q10-join.csv");
    nqueens(&["count", "10", "--algorithm", "join", "--breakdown", s(&join_csv), "--format", "bfile"])
        .assert()
        .success()
        .stdout("10 724\n");
    let text = std::fs::read_to_string(&join_csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert!(!rows.is_empty() && rows.iter().all(|r| r.len() == 8 && r[3..7] == ["", "", "", ""]), "{text}");
    let total: u64 = rows.iter().map(|r| r[2].parse::<u64>().unwrap()).sum();
    assert_eq!(total, 724);
    // A shard's breakdown covers the shard's subproblems; the journal's too after a resume.
    let journal = dir.join("q11.journal");
    let shard_csv = dir.join("q11-s1.csv");
    for _ in 0..2 {
        nqueens(&[
            "count",
            "11",
            "--algorithm",
            "d4",
            "--shard",
            "1/2",
            "--checkpoint",
            s(&journal),
            "--breakdown",
            s(&shard_csv),
        ])
        .assert()
        .success();
    }
    let shard: serde_json::Value = serde_json::from_slice(
        &nqueens(&["count", "11", "--algorithm", "d4", "--shard", "1/2"])
            .assert()
            .success()
            .get_output()
            .stdout,
    )
    .unwrap();
    let text = std::fs::read_to_string(&shard_csv).unwrap();
    let ids: Vec<u64> = text.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
    // The shard result names its subproblems by count and CRC; the plan gives the ids.
    let plan = nqueens_runs::shard::shard_spec(nqueens::Algorithm::D4, 11, 2).build().unwrap();
    let want = nqueens_runs::shard::assign(plan.as_ref(), 2).swap_remove(1);
    let covers = nqueens_runs::merge::Covers::of(&want);
    assert_eq!(shard["covers"]["count"].as_u64(), Some(covers.count as u64));
    assert_eq!(shard["covers"]["ids_crc32"].as_str(), Some(covers.ids_crc32.as_str()));
    assert_eq!(ids, want.iter().map(|&i| i as u64).collect::<Vec<_>>());
    let total: u64 = text.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, shard["solutions"].as_u64().unwrap());
    // d4 classifies each subproblem's solutions: its orbit cells are numbers.
    let orbits: u64 = text
        .lines()
        .skip(1)
        .flat_map(|l| l.split(',').skip(3).take(4).map(|c| c.parse::<u64>().unwrap()).collect::<Vec<_>>())
        .sum();
    assert!(orbits > 0, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

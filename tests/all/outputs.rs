//! The files a count writes besides standard output: `--output` (a shard's result),
//! `--breakdown` (each subproblem's counts) and `--checkpoint` (the journal) as paths: what is
//! refused before any work, and what happens to a finished result that cannot be written.

use std::path::Path;

use crate::common::{SmallDisk, nqueens};

/// Runs the binary with `args`, standard error redirected to the file `err` (as `2> err`);
/// returns (exit code, stdout).
fn run_with_stderr_into(err: &Path, args: &[&str]) -> (i32, String) {
    let file = std::fs::File::create(err).unwrap();
    let got = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stderr(file)
        .output()
        .unwrap();
    (got.status.code().unwrap(), String::from_utf8(got.stdout).unwrap())
}

/// Issue 40: `count 10 --checkpoint /dev/stderr 2> err.txt` exited 0 with the journal written
/// among the messages of err.txt. Standard error's file is refused as a journal or a result,
/// as standard output's is, before any work.
#[test]
fn standard_errors_file_is_refused_as_a_journal_or_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let (code, stdout) = run_with_stderr_into(&err, &["count", "10", "--checkpoint", "/dev/stderr"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        std::fs::read_to_string(&err).unwrap(),
        "nqueens: error: checkpoint /dev/stderr is the file standard error writes to: the journal would be \
         written among the messages; give the journal a file of its own\n"
    );
    for flag in ["--output", "--breakdown"] {
        let (code, _) = run_with_stderr_into(&err, &["count", "10", "--shard", "0/2", flag, "/dev/stderr"]);
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

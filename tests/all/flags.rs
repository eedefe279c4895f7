//! The flags themselves: what each accepts, the one-line message and exit code 2 of each
//! refusal, and the notes a flag draws.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{self, nqueens, s, usage_error};
use predicates::prelude::*;
/// Issue 40: `count 1 -j 4096` took 41–48 s (78 s on a busy machine): 4,096 threads on 2 CPUs
/// spend their time stealing work. `-j` starts at most 4 threads per logical CPU now, and a note
/// says so; the count and its output are the same, with the threads really started.
#[test]
fn threads_past_4_per_logical_cpu_are_capped_with_a_note() {
    let cpus = nqueens::plan::available_threads();
    let most = 4 * cpus;
    let note = format!(
        "nqueens: note: -j 4096 is more than 4 threads per logical CPU ({cpus} here): starting {most} (threads \
         beyond the CPUs only wait and steal work; the counts are the same)\n"
    );
    let out =
        nqueens(&["count", "1", "-j", "4096", "--format", "json"]).assert().success().stderr(note.clone());
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((v["solutions"].as_u64(), v["threads"].as_u64()), (Some(1), Some(most as u64)));
    nqueens(&["solve", "6", "-j", "4096", "--format", "cols"])
        .assert()
        .success()
        .stderr(note)
        .stdout("2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n5 3 1 6 4 2\n");
    // Up to the cap, no note and the threads asked for.
    let out =
        nqueens(&["count", "8", "-j", &most.to_string(), "--format", "json"]).assert().success().stderr("");
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((v["solutions"].as_u64(), v["threads"].as_u64()), (Some(92), Some(most as u64)));
}

#[test]
fn thread_counts_are_bounded() {
    usage_error(&["count", "8", "-j", "100000"], "thread count 100000 is too large: use 1..=4096");
    usage_error(&["count", "8", "-j", "18446744073709551616"], "is too large: use 1..=4096");
    usage_error(&["solve", "8", "-j", "5000"], "thread count 5000 is too large: use 1..=4096");
}

#[test]
fn shard_counts_are_bounded() {
    usage_error(&["count", "10", "--shard", "0/1000001"], "has too many shards: use I/K with K <= 1000000");
    usage_error(&["count", "10", "--shard", "1000000/1000000"], "is out of range: use I/K with 0 <= I < K");
    usage_error(&["count", "10", "--shard", "5/0"], "has K = 0 shards");
    usage_error(&["count", "10", "--shard", "5"], "is not of the form I/K");
    usage_error(&["count", "10", "--shard", "0/18446744073709551615"], "has too many shards");
}

/// Found by a newcomer: a negative shard was "unexpected argument '-1' found", a bad seed
/// "invalid digit found in string", neither saying what is accepted.
#[test]
fn a_negative_shard_or_a_bad_seed_says_what_is_accepted() {
    usage_error(
        &["count", "12", "--shard", "-1/3"],
        "shard '-1/3' is not of the form I/K: use e.g. 0/16 (0 <= I < K)",
    );
    let accepted = "is not a whole number 0..=18446744073709551615";
    usage_error(&["plan", "12", "--seed", "-5"], &format!("seed '-5' {accepted}"));
    usage_error(
        &["plan", "12", "--seed", "18446744073709551616"],
        &format!("seed '18446744073709551616' {accepted}"),
    );
    usage_error(&["merge", "x.json", "--audit", "0.1", "--seed", "abc"], &format!("seed 'abc' {accepted}"));
}

#[test]
fn no_arguments_prints_the_help_and_exits_2() {
    let out = nqueens(&[]).assert().code(2).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Usage: nqueens <COMMAND>") && err.contains("count"), "{err}");
}

#[test]
fn conventions_of_fd_and_ripgrep() {
    // A board size where a subcommand belongs: the count command it probably meant.
    usage_error(
        &["8"],
        "unrecognized subcommand '8': to count the solutions of board size 8, use 'nqueens count 8'",
    );
    usage_error(&["1..5"], "use 'nqueens count 1..5'");
    usage_error(&["completions", "tcsh"], "invalid value 'tcsh' for '<SHELL>'");
    // Completions name every subcommand and option.
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        nqueens(&["completions", shell]).assert().success().stdout(
            predicate::str::contains("count")
                .and(predicate::str::contains("checkpoint"))
                .and(predicate::str::contains("completions")),
        );
    }
    // -V is the short version; --version adds the commit and the instruction-set levels this
    // processor runs, best first.
    nqueens(&["-V"]).assert().success().stdout("nqueens 0.1.0\n");
    let best = nqueens::arch::Level::best().isa().name();
    nqueens(&["--version"]).assert().success().stdout(
        predicate::str::starts_with("nqueens 0.1.0 (commit ")
            .and(predicate::str::contains(format!(
                "Instruction-set levels this processor runs, best first (--isa):\n  {best} "
            )))
            .and(predicate::str::contains("\n  portable  nothing beyond the target's baseline")),
    );
    // Help is wrapped to the terminal (100 columns when it is no terminal).
    let help = nqueens(&["--help"]).assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(help).unwrap().lines().all(|l| l.chars().count() <= 100), "help lines wrap");
}

/// Runs `script` under bash with `$0` the nqueens binary; returns (exit code, stdout, stderr).
fn bash(script: &str) -> (i32, String, String) {
    let out = std::process::Command::new("bash")
        .args(["-c", script, env!("CARGO_BIN_EXE_nqueens")])
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[test]
fn a_closed_or_full_stream_is_an_error_not_a_panic() {
    // Issue 15: `count 99 2>/dev/full` panicked (exit 101): the usage error still exits 2.
    let (code, out, _) = bash(r#""$0" count 99 2>/dev/full"#);
    assert_eq!((code, out.as_str()), (2, ""));
    let (code, _, _) = bash(r#""$0" count 8 --checkpoint /dev/zero 2>/dev/full"#);
    assert_eq!(code, 2);
    // Issue 15: `--help >/dev/full` and `count 8 >&-` exited 0 with the output lost.
    let (code, _, err) = bash(r#""$0" --help >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the help: No space left on device (os error 28)\n")
    );
    let (code, _, err) = bash(r#""$0" --version >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the version: No space left on device (os error 28)\n")
    );
    let (code, _, err) = bash(r#""$0" count 8 >&-"#);
    assert_eq!((code, err.as_str()), (1, "nqueens: error: writing the result: standard output is closed\n"));
    let (code, _, err) = bash(r#""$0" --help >&-"#);
    assert_eq!((code, err.as_str()), (1, "nqueens: error: writing the help: standard output is closed\n"));
    let (code, _, err) = bash(r#""$0" count 8 >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the result: No space left on device (os error 28)\n")
    );
    let (code, _, err) = bash(r#""$0" plan 12 --sample-seconds 0 >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the plan: No space left on device (os error 28)\n")
    );
    // The completions and the manual page too (clap_complete's generate panicked, exit 101).
    for (args, what) in [("completions bash", "the completions"), ("man", "the manual page")] {
        let (code, _, err) = bash(&format!(r#""$0" {args} >/dev/full"#));
        assert_eq!(
            (code, err.as_str()),
            (1, format!("nqueens: error: writing {what}: No space left on device (os error 28)\n").as_str())
        );
        let (code, out, err) = bash(&format!(r#"set -o pipefail; "$0" {args} | head -c 1"#));
        assert_eq!((code, out.len(), err.as_str()), (0, 1, ""), "{args}");
    }
    // A command that writes only files does not need stdout.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s.json");
    let (code, _, err) = bash(&format!(r#""$0" count 10 --shard 0/2 --output {} >&-"#, f.display()));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(std::fs::read_to_string(&f).unwrap().contains("nqueens-shard"));
    // A broken pipe still ends quietly with 0 (ripgrep).
    let (code, out, err) = bash(r#"set -o pipefail; "$0" --help | head -c 1; "$0" count 1..30 | head -c 1"#);
    assert_eq!((code, out.len(), err.as_str()), (0, 2, ""));
}

#[test]
fn bad_long_run_options() {
    usage_error(
        &["count", "12", "--algorithm", "d4", "--shard", "3/3"],
        "shard '3/3' is out of range: use I/K with 0 <= I < K",
    );
    usage_error(
        &["count", "12", "--algorithm", "d4", "--shard", "x"],
        "shard 'x' is not of the form I/K: use e.g. 0/16",
    );
    usage_error(
        &["count", "12", "--algorithm", "d4", "--shard", "1/0"],
        "shard '1/0' has K = 0 shards: use I/K with K >= 1",
    );
    usage_error(&["count", "12", "--algorithm", "d4", "--shard=-1/4"], "shard '-1/4' is not of the form I/K");
    usage_error(
        &["count", "10..12", "--algorithm", "d4", "--checkpoint", "j"],
        "--checkpoint, --shard and --breakdown count one board size, not '10..12': run one command per n",
    );
    usage_error(
        &["count", "10", "--algorithm", "d4", "11", "--shard", "0/2"],
        "count one board size, not '10 11'",
    );
    usage_error(
        &["count", "10", "--algorithm", "d4", "--output", "o.json"],
        "the following required arguments were not provided: --shard",
    );
    for long in
        [["--shard", "0/2"], ["--checkpoint", "never-made.journal"], ["--breakdown", "never-made.csv"]]
    {
        let args = ["count", "10", "--algorithm", "d4", "--stats", long[0], long[1]];
        usage_error(&args, "--stats describes one whole run, not --checkpoint, --shard or --breakdown");
        assert!(!Path::new(long[1]).exists(), "{} was written", long[1]);
    }
    usage_error(
        &["count", "10", "--algorithm", "d4", "--shard", "0/2", "--verify"],
        "--verify checks a whole count, not one shard",
    );
    usage_error(&["merge"], "the following required arguments were not provided: <FILES>...");
    usage_error(&["merge", "x.json", "--format", "xml"], "unknown format 'xml'");
}

/// Issue 23, finding 12: merge, solve and plan died by SIGINT, SIGTERM and SIGUSR1 (a shell saw
/// 138 for SIGUSR1); they exit 130 or 143 with one line now.
#[test]
fn merge_solve_and_plan_stop_on_a_signal_with_130_or_143_and_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let big = common::shard_files(dir.path(), "big", 16, 2, &["--algorithm", "mirror"]);
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

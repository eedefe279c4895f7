//! Bad and extreme inputs found by trying to break the CLI: each gets a one-line message and exit
//! code 2, and no file that is not ours is replaced.

mod common;

use common::{nqueens, usage_error};
use predicates::prelude::*;
use std::os::unix::fs::FileTypeExt;

#[test]
fn thread_counts_are_bounded() {
    usage_error(&["count", "8", "-j", "100000"], "thread count 100000 is too large: use 1..=4096");
    usage_error(&["count", "8", "-j", "18446744073709551616"], "is too large: use 1..=4096");
    usage_error(&["solve", "8", "-j", "5000"], "thread count 5000 is too large: use 1..=4096");
}

#[test]
fn shard_counts_are_bounded() {
    usage_error(&["count", "10", "--shard", "0/100000"], "has too many shards: use I/K with K <= 4096");
    usage_error(&["count", "10", "--shard", "0/18446744073709551615"], "has too many shards");
}

#[test]
fn a_checkpoint_or_shard_result_must_be_a_regular_file() {
    usage_error(&["count", "10", "--checkpoint", "/dev/zero"], "checkpoint /dev/zero is not a regular file");
    usage_error(&["merge", "/dev/zero"], "/dev/zero is not a shard result of `nqueens count --shard`");
    let dir = tempfile::tempdir().unwrap();
    usage_error(&["merge", dir.path().to_str().unwrap()], "is not a shard result");
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

#[test]
fn outputs_write_through_links_and_into_devices() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.json");
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    nqueens(&["count", "10", "--shard", "0/2", "--output", link.to_str().unwrap()]).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(std::fs::read_to_string(&target).unwrap().contains("\"shard\""));
    // A device stays a device (as root, a rename would have replaced /dev/null by a file).
    nqueens(&["count", "10", "--shard", "1/2", "--output", "/dev/null"]).assert().success();
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

#[test]
fn no_arguments_prints_the_help_and_exits_2() {
    let out = nqueens(&[]).assert().code(2).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Usage: nqueens <COMMAND>") && err.contains("count"), "{err}");
}

#[test]
fn large_boards_start_counting_without_a_panic() {
    // n = 36..=63 once overflowed d4's per-row event table; merge of such a shard must not panic
    // either. Counting n = 40 cannot finish in a test: check that the plan builds (the library).
    for n in [36u32, 40, 63] {
        let plan = nqueens::make_plan(nqueens::Algorithm::D4, n, Some(1), 2).unwrap();
        assert!(!plan.is_empty(), "n = {n}");
    }
}

#[test]
fn a_split_depth_that_makes_too_many_subproblems_is_refused() {
    usage_error(
        &["count", "20", "--algorithm", "mirror", "--split-depth", "8"],
        "split depth 8 makes more than 4194304 subproblems at n = 20: use a smaller depth (or none)",
    );
    usage_error(
        &["count", "40", "--algorithm", "d4", "--split-depth", "16"],
        "split depth 16 makes more than 4194304 subproblems at n = 40",
    );
    usage_error(
        &[
            "count",
            "20",
            "--algorithm",
            "mirror",
            "--split-depth",
            "8",
            "--checkpoint",
            "/tmp/nqueens-never-written.journal",
        ],
        "makes more than 4194304 subproblems",
    );
}

#[test]
fn check_stops_reading_an_endless_line() {
    usage_error(&["check", "/dev/zero"], "line 1 is longer than 268435456 bytes: not a list of boards");
}

#[test]
fn join_shards_and_checkpoints_keep_the_fundamental_solutions() {
    // The join's subproblems do not classify; the whole count gets its classes by Burnside.
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..3 {
        let f = dir.path().join(format!("s{i}.json"));
        nqueens(&[
            "count",
            "13",
            "--algorithm",
            "join",
            "--shard",
            &format!("{i}/3"),
            "--output",
            f.to_str().unwrap(),
        ])
        .assert()
        .success();
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--verify", "--format", "bfile", "--sequence", "unique"];
    args.extend(files.iter().map(String::as_str));
    nqueens(&args).assert().success().stdout("13 9233\n");
    let journal = dir.path().join("q.journal");
    nqueens(&["count", "14", "--checkpoint", journal.to_str().unwrap(), "--verify", "--format", "json"])
        .assert()
        .success()
        .stdout(
            predicates::str::contains(r#""unique":45752"#)
                .and(predicates::str::contains(r#""algorithm":"join""#)),
        );
}

#[test]
fn merge_of_mirror_shards_refuses_the_unique_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m0.json");
    nqueens(&["count", "10", "--algorithm", "mirror", "--shard", "0/1", "--output", f.to_str().unwrap()])
        .assert()
        .success();
    usage_error(
        &["merge", f.to_str().unwrap(), "--format", "bfile", "--sequence", "unique"],
        "--sequence unique needs fundamental solutions, which --algorithm mirror does not count: use auto, d4 or join",
    );
    nqueens(&["merge", f.to_str().unwrap(), "--format", "bfile"]).assert().success().stdout("10 724\n");
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
    // The committed manual page is the one the binary writes (regenerate: nqueens man > doc/nqueens.1).
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/doc/nqueens.1")).unwrap();
    let out = nqueens(&["man"]).assert().success().get_output().stdout.clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        committed,
        "doc/nqueens.1 is stale: nqueens man > doc/nqueens.1"
    );
    // -V is the short version; --version adds the commit and the CPU features used here.
    nqueens(&["-V"]).assert().success().stdout("nqueens 0.1.0\n");
    nqueens(&["--version"]).assert().success().stdout(
        predicate::str::starts_with("nqueens 0.1.0 (commit ")
            .and(predicate::str::contains("CPU features used on this processor:\n  ")),
    );
    // Help is wrapped to the terminal (100 columns when it is no terminal).
    let help = nqueens(&["--help"]).assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(help).unwrap().lines().all(|l| l.chars().count() <= 100), "help lines wrap");
}

//! `nqueens count` end to end: exact output of each format, --verify, and every bad input with its
//! one-line message and exit code 2.

mod common;

use common::{nqueens, usage_error, zero_json_seconds};
use predicates::prelude::*;

#[test]
fn done_when_command_prints_15_verified_values() {
    let out =
        nqueens(&["count", "0..14", "--verify", "--format", "json"]).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 15);
    for ((n, q), line) in common::bfile("b000170.txt").into_iter().zip(&lines) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["n"], n);
        assert_eq!(v["solutions"].as_u64().unwrap() as u128, q);
        assert_eq!(v["verified"], true);
    }
}

#[test]
fn json_format_exact() {
    let out =
        nqueens(&["count", "4..6", "-j", "2", "--format", "json"]).assert().success().get_output().clone();
    let text = zero_json_seconds(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(
        text,
        r#"{"n":4,"solutions":2,"seconds":0,"threads":2,"algorithm":"mirror","subproblems":1,"split_depth":4,"verified":true}
{"n":5,"solutions":10,"seconds":0,"threads":2,"algorithm":"mirror","subproblems":5,"split_depth":5,"verified":true}
{"n":6,"solutions":4,"seconds":0,"threads":2,"algorithm":"mirror","subproblems":2,"split_depth":6,"verified":true}
"#
    );
}

#[test]
fn bfile_format_exact() {
    nqueens(&["count", "0..=9", "--format", "bfile"])
        .assert()
        .success()
        .stdout("0 1\n1 1\n2 0\n3 0\n4 2\n5 10\n6 4\n7 40\n8 92\n9 352\n");
}

#[test]
fn csv_format_exact() {
    let out = nqueens(&["count", "8", "-j", "1", "--format", "csv"]).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("n,solutions,seconds,threads,algorithm,subproblems,split_depth,verified"));
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!((row[0], row[1], row[3], row[4], row[7]), ("8", "92", "1", "mirror", "true"));
    assert!(row[2].parse::<f64>().is_ok());
    assert_eq!(lines.next(), None);
}

#[test]
fn text_format_exact() {
    let out = nqueens(&["count", "7", "8", "-j", "3"]).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "  n                solutions    seconds threads");
    assert!(lines[1].starts_with("  7                       40 "), "{}", lines[1]);
    assert!(lines[1].ends_with("       3"));
    assert!(lines[2].starts_with("  8                       92 "));
    assert_eq!(lines.len(), 3);
}

#[test]
fn verify_reports_unknown_beyond_the_table_without_failing() {
    // Nothing beyond n = 27 can be counted in a test, so the unknown path is checked on the
    // library (Record::new) and here the text column for known values.
    nqueens(&["count", "8", "--verify"]).assert().success().stdout(predicate::str::contains("yes"));
}

#[test]
fn stdout_carries_results_only() {
    nqueens(&["count", "10", "--progress", "always", "--format", "bfile"])
        .assert()
        .success()
        .stdout("10 724\n");
}

#[test]
fn broken_pipe_is_quiet() {
    // `head -1` closes the pipe after the first line; the program must end with 0 and print
    // nothing on stderr.
    let script = format!(
        "'{}' count 0..13 --format bfile | head -1",
        assert_cmd::cargo::cargo_bin("nqueens").display()
    );
    let out = std::process::Command::new("bash").args(["-o", "pipefail", "-c", &script]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0 1\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
}

#[test]
fn bad_sizes() {
    usage_error(&["count", "-3"], "board size -3 is negative: use an integer 0..=63 or a range A..B");
    usage_error(
        &["count", "abc"],
        "board size 'abc' is not an integer: use an integer 0..=63 or a range A..B",
    );
    usage_error(&["count", "64"], "board size 64 is too large: the u64 masks allow n <= 63");
    usage_error(&["count", "1..64"], "board size 64 is too large: the u64 masks allow n <= 63");
    usage_error(&["count", "99999999999999999999999"], "is too large: the u64 masks allow n <= 63");
    usage_error(&["count", "9..3"], "range 9..3 is reversed (empty): use A..B with A <= B");
    usage_error(&["count", "3.."], "range '3..' is incomplete: use A..B with both ends");
    usage_error(&["count", ""], "board size is empty: use an integer 0..=63 or a range A..B");
    usage_error(&["count"], "the following required arguments were not provided: <N>...");
}

#[test]
fn bad_options() {
    usage_error(&["count", "8", "--threads", "0"], "thread count 0 is not allowed: use 1 or more");
    usage_error(&["count", "8", "-j", "x"], "thread count 'x' is not an integer: use 1 or more");
    usage_error(
        &["count", "8", "--format", "xml"],
        "unknown format 'xml': use one of text, json, csv, bfile",
    );
    usage_error(
        &["count", "8", "--progress", "maybe"],
        "unknown progress mode 'maybe': use auto, always or never",
    );
    usage_error(&["count", "8", "--algorithm", "magic"], "unknown algorithm 'magic': use one of mirror");
    usage_error(&["count", "8", "--split-depth", "0"], "split depth '0' is out of range: use 1..=16");
    usage_error(&["count", "8", "--bogus"], "unexpected argument '--bogus'");
    usage_error(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
}

#[test]
fn help_shows_examples() {
    nqueens(&["count", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:").and(predicate::str::contains("nqueens count 1..18")));
}

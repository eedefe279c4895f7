//! `nqueens solve` end to end: every board of n = 1..=10 valid, distinct, in the reference
//! backtracker's order and as many as OEIS A000170 (A002562 with --unique); exact output of each
//! format; the same bytes for 1, 2 and 3 threads; --limit; a closed pipe; every bad input.

use crate::common;

use crate::common::nqueens;
use predicates::prelude::*;

fn stdout(args: &[&str]) -> String {
    let out = nqueens(args).assert().success().stderr("").get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

/// Returns the boards of a cols listing as 0-based columns, checking each independently: n
/// columns per line, each in 1..=n, no two queens on a column, diagonal or anti-diagonal.
fn valid_boards(text: &str, n: usize) -> Vec<Vec<usize>> {
    text.lines()
        .map(|line| {
            let q: Vec<usize> = line.split(' ').map(|t| t.parse::<usize>().unwrap() - 1).collect();
            assert_eq!(q.len(), n, "{line}");
            for b in 0..n {
                assert!(q[b] < n, "{line}");
                for a in 0..b {
                    assert!(q[a] != q[b] && q[a].abs_diff(q[b]) != b - a, "attack in {line}");
                }
            }
            q
        })
        .collect()
}

#[test]
fn every_board_of_n_1_to_10_is_valid_distinct_ordered_and_counted() {
    let a000170 = common::bfile("b000170.txt");
    let a002562 = common::bfile("b002562.txt");
    for n in 1..=10u32 {
        let text = stdout(&["solve", &n.to_string(), "--format", "cols", "-j", "2"]);
        let boards = valid_boards(&text, n as usize);
        let mut want = Vec::new();
        nqueens::reference::backtrack_each(n, |q| want.push(q.to_vec()));
        assert_eq!(boards, want, "n = {n}: the reference backtracker's boards in its order");
        let mut distinct = boards.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), boards.len(), "n = {n}: duplicates");
        let q = a000170.iter().find(|(k, _)| *k == n).unwrap().1;
        assert_eq!(boards.len() as u128, q, "n = {n}: A000170");

        let text = stdout(&["solve", &n.to_string(), "--format", "cols", "--unique"]);
        let unique = valid_boards(&text, n as usize);
        let classes = a002562.iter().find(|(k, _)| *k == n).unwrap().1;
        assert_eq!(unique.len() as u128, classes, "n = {n}: A002562");
        // Each is the smallest of its class: one per class, classes covering every solution.
        let mut covered: Vec<Vec<u8>> = Vec::new();
        for q in &unique {
            let q: Vec<u8> = q.iter().map(|&c| c as u8).collect();
            assert_eq!(nqueens::symmetry::canonical(&q).as_ref(), Ok(&q), "n = {n}");
            covered.extend(nqueens::symmetry::Symmetry::ALL.iter().map(|s| s.apply(&q).unwrap()));
        }
        covered.sort();
        covered.dedup();
        assert_eq!(covered.len() as u128, q, "n = {n}: the classes cover every solution");
    }
}

#[test]
fn four_queens_exact_in_every_format() {
    assert_eq!(stdout(&["solve", "4"]), ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n");
    assert_eq!(stdout(&["solve", "4", "--format", "board"]), stdout(&["solve", "4"]));
    assert_eq!(
        stdout(&["solve", "4", "--format", "leetcode"]),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
    );
    assert_eq!(stdout(&["solve", "4", "--format", "cols"]), "2 4 1 3\n3 1 4 2\n");
    assert_eq!(stdout(&["solve", "4", "--unique", "--format", "cols"]), "2 4 1 3\n");
}

#[test]
fn one_queen_exact_in_every_format() {
    assert_eq!(stdout(&["solve", "1"]), "Q\n");
    assert_eq!(stdout(&["solve", "1", "--format", "leetcode"]), "[[\"Q\"]]\n");
    assert_eq!(stdout(&["solve", "1", "--format", "cols"]), "1\n");
    assert_eq!(stdout(&["solve", "1", "--unique", "--format", "cols"]), "1\n");
}

#[test]
fn two_and_three_queens_have_no_boards() {
    for n in ["2", "3"] {
        assert_eq!(stdout(&["solve", n]), "");
        assert_eq!(stdout(&["solve", n, "--format", "cols"]), "");
        assert_eq!(stdout(&["solve", n, "--format", "leetcode"]), "[]\n");
        assert_eq!(stdout(&["solve", n, "--unique", "--format", "leetcode"]), "[]\n");
    }
}

#[test]
fn zero_queens_list_the_empty_board() {
    assert_eq!(stdout(&["solve", "0", "--format", "cols"]), "\n");
    assert_eq!(stdout(&["solve", "0", "--format", "leetcode"]), "[[]]\n");
}

#[test]
fn same_bytes_for_one_two_and_three_threads() {
    for format in ["board", "leetcode", "cols"] {
        let one = stdout(&["solve", "10", "--format", format, "-j", "1"]);
        assert_eq!(one.matches('Q').count(), if format == "cols" { 0 } else { 724 * 10 });
        for threads in ["2", "3"] {
            assert!(
                one == stdout(&["solve", "10", "--format", format, "-j", threads]),
                "{format}, -j {threads}"
            );
        }
    }
    // Also with a limit and --unique.
    let one = stdout(&["solve", "11", "--format", "cols", "--unique", "--limit", "100", "-j", "1"]);
    assert_eq!(one.lines().count(), 100);
    assert_eq!(one, stdout(&["solve", "11", "--format", "cols", "--unique", "--limit", "100", "-j", "3"]));
}

#[test]
fn limit_takes_the_first_boards() {
    let all = stdout(&["solve", "8", "--format", "cols"]);
    let first3: String = all.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(stdout(&["solve", "8", "--format", "cols", "--limit", "3"]), first3);
    assert_eq!(stdout(&["solve", "8", "--format", "cols", "--limit", "1000"]), all);
    assert_eq!(stdout(&["solve", "8", "--limit", "0"]), "");
    assert_eq!(stdout(&["solve", "8", "--format", "leetcode", "--limit", "0"]), "[]\n");
    assert_eq!(
        stdout(&["solve", "5", "--limit", "2"]),
        "Q....\n..Q..\n....Q\n.Q...\n...Q.\n\nQ....\n...Q.\n.Q...\n....Q\n..Q..\n"
    );
    // The search stops: the first boards of a board far too large to list.
    assert_eq!(
        stdout(&["solve", "28", "--format", "cols", "--limit", "1"]),
        "1 3 5 2 4 9 11 13 15 17 23 25 22 28 26 24 27 7 12 16 18 8 10 14 20 6 21 19\n"
    );
}

fn pipe(script: &str) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let script = script.replace("nqueens", &format!("'{}'", bin.display()));
    std::process::Command::new("bash").args(["-o", "pipefail", "-c", &script]).output().unwrap()
}

#[test]
fn broken_pipe_stops_the_search_quietly() {
    let out = pipe("nqueens solve 12 | head -3");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Q...........\n..Q.........\n....Q.......\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
    // n = 20 has 39,029,188,884 boards: only a search that stops ends in time.
    let out = pipe("timeout 60 nqueens solve 20 --format cols | head -1");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1 3 5 2 4 13 15 12 18 20 17 9 16 19 8 10 7 14 6 11\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
}

fn usage_error(args: &[&str], message: &str) {
    common::assert_usage_error(&mut nqueens(args), message);
}

#[test]
fn bad_input() {
    usage_error(
        &["solve", "64"],
        "board size 64 is too large: the u64 masks allow n <= 63 (--any writes one solution of any size)",
    );
    usage_error(
        &["solve", "4294967296", "--any"],
        "board size 4294967296 is too large: use an integer 0..=63, or 0..=4294967295 with --any",
    );
    usage_error(
        &["solve", "70", "--any", "--limit", "2"],
        "the argument '--any' cannot be used with '--limit <K>'",
    );
    usage_error(&["solve", "8", "--any", "--unique"], "the argument '--any' cannot be used with '--unique'");
    usage_error(
        &["solve", "-3"],
        "board size -3 is negative: use an integer 0..=63, or 0..=4294967295 with --any",
    );
    // Issue 40: with --any too (it named 0..=63 alone).
    usage_error(
        &["solve", "-1", "--any"],
        "error: invalid value '-1' for '<N>': board size -1 is negative: use an integer 0..=63, or 0..=4294967295 with --any",
    );
    usage_error(&["solve", "abc"], "board size 'abc' is not an integer: use an integer 0..=63");
    usage_error(&["solve", "4..8"], "'4..8' is a range: use a single board size 0..=63");
    usage_error(&["solve", ""], "board size is empty: use an integer 0..=63");
    usage_error(&["solve"], "the following required arguments were not provided: <N>");
    usage_error(&["solve", "4", "5"], "unexpected argument '5'");
    usage_error(
        &["solve", "8", "--format", "json"],
        "unknown format 'json': use one of board, leetcode, cols",
    );
    // Issue 40: it said "not an integer".
    usage_error(
        &["solve", "12", "--limit", "-1"],
        "limit '-1' is out of range: use 0..=18446744073709551615",
    );
    usage_error(&["solve", "8", "--limit", "x"], "limit 'x' is not an integer: use 0 or more");
    usage_error(&["solve", "8", "--limit", "many"], "limit 'many' is not an integer: use 0 or more");
    usage_error(&["solve", "8", "-j", "0"], "thread count 0 is not allowed: use 1 or more");
    usage_error(&["solve", "8", "--threads", "x"], "thread count 'x' is not an integer: use 1 or more");
    usage_error(&["solve", "8", "--unique=yes"], "unexpected value 'yes' for '--unique'");
}

#[test]
fn help_warns_about_large_boards() {
    nqueens(&["solve", "--help"]).assert().success().stdout(
        predicate::str::contains("astronomically long: use --limit")
            .and(predicate::str::contains("nqueens solve 8 --unique"))
            .and(predicate::str::contains("Stop after K solutions (the search stops too)")),
    );
}

#[test]
fn any_writes_one_valid_solution_of_any_size_at_once() {
    // Far beyond the 63 columns of the search, in every format; checked independently.
    for n in [4usize, 5, 8, 9, 14, 15, 40, 46, 50, 63, 64, 1000, 2000] {
        let text = stdout(&["solve", &n.to_string(), "--any", "--format", "cols"]);
        assert_eq!(valid_boards(&text, n).len(), 1, "n = {n}");
    }
    let board = stdout(&["solve", "200", "--any"]);
    assert_eq!(board.lines().count(), 200);
    assert!(board.lines().all(|l| l.len() == 200 && l.matches('Q').count() == 1));
    assert_eq!(
        stdout(&["solve", "4", "--any", "--format", "leetcode"]),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]\n"
    );
    // n = 2 and 3 have none: the same output as their full listings, and (issue 23: exit 0 and
    // nothing said) one line and exit 1, as grep finds nothing.
    for n in ["2", "3"] {
        for format in ["board", "leetcode", "cols"] {
            let out =
                nqueens(&["solve", n, "--any", "--format", format]).assert().code(1).get_output().clone();
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                stdout(&["solve", n, "--format", format]),
                "n = {n}, {format}"
            );
            assert_eq!(
                String::from_utf8(out.stderr).unwrap(),
                format!(
                    "nqueens: n = {n} has no solution (OEIS A000170: Q(2) = Q(3) = 0): --any writes one board for n = 0, 1 and every n >= 4\n"
                )
            );
        }
    }
    // What --any writes, check accepts (issue 23: n = 63 was the most): every format, boards
    // beyond the masks and their --size.
    for n in ["63", "64", "100", "1000"] {
        for format in ["board", "leetcode", "cols"] {
            let text = stdout(&["solve", n, "--any", "--format", format]);
            nqueens(&["check", "--format", format, "--size", n, "--partial"])
                .write_stdin(text)
                .assert()
                .success()
                .stdout(format!(
                    "{n}×{n} boards ({format} format): 1 read, 1 valid, 1 distinct, 0 problems; completeness unknown: the number of solutions of n = {n} is not tabulated\n"
                ));
        }
    }
}

#[test]
fn a_search_that_cannot_answer_in_time_warns_and_points_to_any() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // n = 46: the first board in lexicographic order takes hours. The warning comes first; the
    // search is then stopped.
    let mut child = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["solve", "46", "--limit", "1", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        line,
        "nqueens: warning: the first solutions of n = 46 in lexicographic order can take hours to find; \
         --any writes one solution at once\n"
    );
}

/// Found by a tester: `--any` in the board and leetcode formats held a row of n bytes, so
/// `solve 300000000 --any` aborted under a 200 MB address-space limit (exit 134) and n = 2^32 - 1
/// took 4 GB. Rows are written in pieces: the first bytes come at once, within the limit.
#[test]
fn any_writes_rows_in_pieces_under_a_memory_limit() {
    for (format, start) in [("board", ".Q...."), ("leetcode", "[[\".Q...."), ("cols", "2 4 6 8 ")] {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(r#"set -o pipefail; ulimit -v 200000; "$0" solve 300000000 --any --format "$1" | head -c 100"#)
            .arg(env!("CARGO_BIN_EXE_nqueens"))
            .arg(format)
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{format}: {stderr}");
        assert!(stdout.len() == 100 && stdout.starts_with(start), "{format}: {stdout}");
        assert_eq!(stderr, "", "{format}");
    }
}

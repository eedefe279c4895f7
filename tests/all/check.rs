//! `nqueens check` end to end: `solve | check` round trips, a list with one attacking pair, one
//! duplicate, one missing board and a malformed line, and every unreadable input (exit 2).

use std::io::Write;

use crate::common::{self, nqueens, s, usage_error};
use predicates::prelude::*;
fn solve(args: &[&str]) -> Vec<u8> {
    nqueens(args).assert().success().get_output().stdout.clone()
}

#[test]
fn solve_then_check_round_trips_for_n_8_in_each_format() {
    for format in ["board", "leetcode", "cols"] {
        let list = solve(&["solve", "8", "--format", format]);
        nqueens(&["check"]).write_stdin(list.clone()).assert().success().stdout(format!(
            "8×8 boards ({format} format): 92 read, 92 valid, 92 distinct, 0 problems; \
             complete: all 92 solutions of n = 8 (OEIS A000170)\n"
        ));
        // The same from a file, with the format given.
        let dir = std::env::temp_dir().join(format!("nqueens-check-{}-{format}", std::process::id()));
        std::fs::write(&dir, &list).unwrap();
        nqueens(&["check", dir.to_str().unwrap(), "--format", format]).assert().success();
        std::fs::remove_file(&dir).unwrap();

        let unique = solve(&["solve", "8", "--unique", "--format", format]);
        nqueens(&["check", "-", "--unique"]).write_stdin(unique.clone()).assert().success().stdout(format!(
            "8×8 boards ({format} format): 12 read, 12 valid, 12 distinct, 0 problems; \
             complete: all 12 fundamental solutions of n = 8 (OEIS A002562)\n"
        ));
        // Fundamental solutions alone are not the complete list of solutions.
        nqueens(&["check"]).write_stdin(unique).assert().code(1);
    }
}

#[test]
fn empty_lists_of_two_and_three_queens_are_complete_with_their_size() {
    for n in ["2", "3"] {
        for format in ["board", "leetcode", "cols"] {
            let list = solve(&["solve", n, "--format", format]);
            nqueens(&["check", "--size", n]).write_stdin(list).assert().success();
        }
    }
    nqueens(&["check"]).write_stdin("").assert().code(1).stdout(
        "no boards (cols format): 0 read, 0 valid, 0 distinct, 0 problems; \
         completeness unknown: an empty list does not tell its size (give --size N)\n",
    );
}

#[test]
fn a_list_with_an_attack_a_duplicate_a_missing_board_and_a_malformed_line() {
    // The 4 solutions of 6 queens are 2 4 6 1 3 5, 3 6 2 5 1 4, 4 1 5 2 6 3, 5 3 1 6 4 2.
    // Here the last one is missing, 1 3 5 2 4 6 has an attacking pair, the first board comes
    // twice and a line has a word for a column.
    let list = "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n1 3 5 2 4 6\n2 4 6 1 3 5\n4 1 5 2 six 3\n";
    nqueens(&["check"]).write_stdin(list).assert().code(1).stdout(
        "line 4: board 4: the queens at row 1, column 1 and row 6, column 6 share a diagonal\n\
         line 5: board 5: repeats board 1 (line 1)\n\
         line 6: board 6: malformed: 'six' is not a column number (cols format: 1-based columns separated by spaces)\n\
         6×6 boards (cols format): 6 read, 4 valid, 3 distinct, 3 problems; \
         incomplete: 3 of the 4 solutions of n = 6 (OEIS A000170)\n",
    );
    // Each fault alone fails the check: the attack (with the list otherwise complete), the
    // duplicate, the missing board, the malformed line.
    let complete = "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n5 3 1 6 4 2\n";
    nqueens(&["check"]).write_stdin(complete).assert().success();
    for extra in ["1 3 5 2 4 6\n", "5 3 1 6 4 2\n", "4 1 5 2 six 3\n"] {
        nqueens(&["check"]).write_stdin(format!("{complete}{extra}")).assert().code(1);
    }
    nqueens(&["check"]).write_stdin(&complete[..36]).assert().code(1);
    // The same faults in the board format, with a row of two queens.
    let list = ".Q..\n...Q\nQ...\n..Q.\n\n.Q..\n...Q\nQ...\n..Q.\n\nQ.Q.\n...Q\n....\n.Q..\n\n.Q..\n...Q\nQ..x\n..Q.\n";
    nqueens(&["check"]).write_stdin(list).assert().code(1).stdout(
        "line 6: board 2: repeats board 1 (line 1)\n\
         line 11: board 3: row 1 has 2 queens, not 1\n\
         line 18: board 4: malformed: 'x' in row 'Q..x' (a board row is Q and . only)\n\
         4×4 boards (board format): 4 read, 2 valid, 1 distinct, 3 problems; \
         incomplete: 1 of the 2 solutions of n = 4 (OEIS A000170)\n",
    );
    // Mixed sizes in the leetcode format.
    nqueens(&["check"])
        .write_stdin(r#"[[".Q..","...Q","Q...","..Q."],["Q"],["..Q.","Q...","...Q",".Q.."]]"#)
        .assert()
        .code(1)
        .stdout(
            "board 2: the board is 1×1 but the list is of 4×4 boards\n\
             4×4 boards (leetcode format): 3 read, 2 valid, 2 distinct, 1 problem; \
             complete: all 2 solutions of n = 4 (OEIS A000170)\n",
        );
    // A list of the wrong size for --size.
    nqueens(&["check", "--size", "5"]).write_stdin("2 4 1 3\n").assert().code(1);
}

fn unreadable(args: &[&str], stdin: &str, message: &str) {
    common::assert_usage_error(nqueens(args).write_stdin(stdin), message);
}

#[test]
fn unreadable_input_and_bad_options() {
    unreadable(
        &["check", "/nonexistent/boards.txt"],
        "",
        "cannot open /nonexistent/boards.txt: No such file",
    );
    unreadable(
        &["check"],
        "\nhello\n",
        "standard input: line 2: cannot tell the format from 'hello': expected rows of Q and . (board), \
         1-based columns (cols) or a JSON array (leetcode)",
    );
    unreadable(
        &["check"],
        "[[\".Q..\", 7]]",
        "standard input: line 1, column 11: not a leetcode list (a JSON array of arrays of strings): \
         expected a string (a board row), found '7'",
    );
    unreadable(&["check", "--format", "raw"], "", "unknown format 'raw': use one of board, leetcode, cols");
    unreadable(
        &["check", "--size", "4294967296"],
        "",
        "board size '4294967296' is not an integer 0..=4294967295: use one (the side of the list's boards)",
    );
    unreadable(
        &["check", "--size", "x"],
        "",
        "board size 'x' is not an integer 0..=4294967295: use one (the side of the list's boards)",
    );
    unreadable(&["check", "a", "b"], "", "unexpected argument 'b'");
    let out = nqueens(&["check"]).write_stdin(b"1 2\n\xff\n".to_vec()).assert().code(2).get_output().clone();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "nqueens: error: standard input: line 2: not UTF-8 text\n"
    );
}

#[test]
fn partial_checks_validity_and_duplicates_only() {
    // One correct board: a valid partial list (exit 0), an incomplete full one (exit 1).
    let summary = "8×8 boards (cols format): 1 read, 1 valid, 1 distinct, 0 problems; \
                   incomplete: 1 of the 92 solutions of n = 8 (OEIS A000170)\n";
    nqueens(&["check", "--partial"]).write_stdin("1 5 8 6 3 7 2 4\n").assert().success().stdout(summary);
    nqueens(&["check"]).write_stdin("1 5 8 6 3 7 2 4\n").assert().code(1).stdout(summary);
    // An attack or a repeat still fails it.
    nqueens(&["check", "--partial"]).write_stdin("1 5 8 6 3 7 2 4\n1 5 8 6 3 7 2 4\n").assert().code(1);
    nqueens(&["check", "--partial"]).write_stdin("1 2 3 4 5 6 7 8\n").assert().code(1);
    // With --unique a board that is not its class's smallest fails too.
    nqueens(&["check", "--partial", "--unique"]).write_stdin("8 4 1 3 6 2 7 5\n").assert().code(1);
    nqueens(&["check", "--partial", "--unique"]).write_stdin("1 5 8 6 3 7 2 4\n").assert().success();
}

#[test]
fn a_short_or_long_line_says_its_number_of_columns() {
    // Issue 14: `3 1 4` among 4×4 boards was "row 3: column 4 is outside 1..=3".
    let list = "2 4 1 3\n3 1 4\n3 1 4 2\n2 4 1 3 5\n";
    nqueens(&["check"]).write_stdin(list).assert().code(1).stdout(
        "line 2: board 2: the line has 3 columns where the list's boards have 4\n\
         line 4: board 4: the line has 5 columns where the list's boards have 4\n\
         4×4 boards (cols format): 4 read, 2 valid, 2 distinct, 2 problems; \
         complete: all 2 solutions of n = 4 (OEIS A000170)\n",
    );
    // With --size the list's side is known from the start; --partial reports the same.
    nqueens(&["check", "--size", "4", "--partial"]).write_stdin("3 1 4\n2 4 1 3\n").assert().code(1).stdout(
        predicate::str::starts_with(
            "line 1: board 1: the line has 3 columns where the list's boards have 4\n",
        ),
    );
    // A column beyond a line of the list's length is still named as such.
    nqueens(&["check"])
        .write_stdin("2 4 1 3\n5 1 2 3\n")
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("line 2: board 2: row 1: column 5 is outside 1..=4\n"));
}

#[test]
fn a_bad_first_line_does_not_size_the_list() {
    // Issue 15: a 70-column first line made 92 good 8×8 boards "0 valid, 93 problems".
    let cols: Vec<String> = (1..=70).map(|c| c.to_string()).collect();
    let mut list = format!("{}\n", cols.join(" ")).into_bytes();
    list.extend(solve(&["solve", "8", "--format", "cols"]));
    nqueens(&["check"]).write_stdin(list).assert().code(1).stdout(
        "line 1: board 1: the queens at row 1, column 1 and row 2, column 2 share a diagonal\n\
         8×8 boards (cols format): 93 read, 92 valid, 92 distinct, 1 problem; \
         complete: all 92 solutions of n = 8 (OEIS A000170)\n",
    );
}

#[test]
fn control_bytes_are_escaped_a_bom_is_accepted_and_an_all_malformed_list_says_so() {
    // Issue 15: `ESC]0;…BEL` (a terminal title change) was echoed raw into the report.
    let out =
        nqueens(&["check"]).write_stdin("2 4 \x1b]0;pwned\x07 3\n").assert().code(1).get_output().clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.bytes().any(|b| b == 0x1b || b == 0x07), "{stdout:?}");
    assert!(
        stdout.starts_with("line 1: board 1: malformed: '\\u{1b}]0;pwned\\u{7}' is not a column number"),
        "{stdout}"
    );
    common::assert_usage_error(
        nqueens(&["check"]).write_stdin("\x1b]0;pwned\x07\n"),
        "cannot tell the format from '\\u{1b}]0;pwned\\u{7}'",
    );
    // Issue 15: a UTF-8 byte order mark gave "cannot tell the format".
    for format in ["board", "leetcode", "cols"] {
        let mut list = b"\xef\xbb\xbf".to_vec();
        list.extend(solve(&["solve", "8", "--format", format]));
        nqueens(&["check"]).write_stdin(list).assert().success();
    }
    // Issue 15: an all-malformed input said "no boards … 92 read".
    let list: String = (0..92).map(|i| format!("{i} x\n")).collect();
    let out = nqueens(&["check"]).write_stdin(list).assert().code(1).get_output().clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.ends_with(
            "no valid board (cols format): 92 read, 0 valid, 0 distinct, 92 problems; \
         completeness unknown: no valid board gives the list's size (give --size N)\n"
        ),
        "{stdout}"
    );
    // Checking a file leaves it as it was.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("list.txt");
    std::fs::write(&path, b"\xef\xbb\xbf2 4 1 3\n\x1b[2J\n").unwrap();
    let before = std::fs::read(&path).unwrap();
    let out = nqueens(&["check", path.to_str().unwrap()]).assert().code(1).get_output().clone();
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("line 2: board 2: malformed: '\\u{1b}[2J'"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// Issue 40 (High): with a full `TMPDIR`, `check --partial` called two copies of `solve 50 --any`
/// "2 distinct, 0 problems" and exited 0: the spill file's failed write was ignored. Boards
/// past a rank are now kept whole up to `SPILL_AFTER_BYTES` (4 MiB), so a short list never
/// touches the temporary folder: full, missing or read-only, the repeat is found.
#[test]
fn a_repeat_of_a_large_board_is_found_whatever_the_temporary_folder() {
    let dir = tempfile::tempdir().unwrap();
    let any = solve(&["solve", "50", "--any"]);
    let list = dir.path().join("dup50.txt");
    std::fs::write(&list, [&any[..], b"\n", &any[..]].concat()).unwrap();
    let expected = "line 52: board 2: repeats board 1 (line 1)\n50×50 boards (board format): 2 read, 2 valid, 1 \
                    distinct, 1 problem; completeness unknown: the number of solutions of n = 50 is not tabulated\n";
    let missing = dir.path().join("no-such-folder");
    let (full, read_only) = (common::SmallDisk::full(), common::SmallDisk::mount_with("ro,size=64k"));
    let mut folders = vec![("missing", missing.clone())];
    match (&full, &read_only) {
        (Some(full), Some(ro)) => {
            folders.push(("full", full.path().to_path_buf()));
            folders.push(("read-only", ro.path().to_path_buf()));
        }
        _ => eprintln!("full and read-only TMPDIR skipped: cannot mount a tmpfs here (needs root)"),
    }
    for (what, tmp) in folders {
        let out =
            nqueens(&["check", "--partial", list.to_str().unwrap()]).env("TMPDIR", &tmp).assert().code(1);
        assert_eq!(String::from_utf8_lossy(&out.get_output().stdout), expected, "{what} TMPDIR");
    }
}

/// Writes `boards` distinct solutions of n = 1009 (q[r] = (a·r + b) mod n, n prime), then the
/// first again, in the cols format: past the 4 MiB kept whole, so the check spills.
fn large_list_with_a_repeat(path: &std::path::Path, boards: u32) {
    let n = 1009u32;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for k in (0..boards).chain([0]) {
        let (a, b) = (2 + k / n, k % n);
        let line: Vec<String> = (0..n).map(|r| ((a * r + b) % n + 1).to_string()).collect();
        std::io::Write::write_all(&mut out, (line.join(" ") + "\n").as_bytes()).unwrap();
    }
}

/// Issue 40 (High): past the 4 MiB kept whole, a spill file the temporary folder cannot make,
/// write or read back stops the check with one line naming the folder, exit 2, and no verdict
/// (it said "distinct" before); a writable folder finds the repeat.
#[test]
fn a_temporary_folder_that_cannot_hold_the_spill_file_stops_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("big.txt");
    large_list_with_a_repeat(&list, 1200);
    let out =
        nqueens(&["check", "--partial", list.to_str().unwrap()]).env("TMPDIR", dir.path()).assert().code(1);
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "line 1201: board 1201: repeats board 1 (line 1)\n1009×1009 boards (cols format): 1201 read, 1201 \
         valid, 1200 distinct, 1 problem; completeness unknown: the number of solutions of n = 1009 is not \
         tabulated\n"
    );
    let missing = dir.path().join("no-such-folder");
    let (full, read_only) = (common::SmallDisk::full(), common::SmallDisk::mount_with("ro,size=64k"));
    let mut folders = vec![("missing", missing, "No such file or directory", 1040)];
    match (&full, &read_only) {
        (Some(full), Some(ro)) => {
            // The full disk shows when the first 64 KiB of spilled boards are written.
            folders.push(("full", full.path().to_path_buf(), "No space left on device", 1056));
            folders.push(("read-only", ro.path().to_path_buf(), "Read-only file system", 1040));
        }
        _ => eprintln!("full and read-only TMPDIR skipped: cannot mount a tmpfs here (needs root)"),
    }
    for (what, tmp, error, line) in folders {
        let out =
            nqueens(&["check", "--partial", list.to_str().unwrap()]).env("TMPDIR", &tmp).assert().code(2);
        assert_eq!(out.get_output().stdout, b"", "{what} TMPDIR: no verdict");
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert_eq!(
            stderr,
            format!(
                "nqueens: error: {}: line {line}: the duplicate check keeps the boards past its first 4 MiB in a \
                 file in the temporary folder {}, which failed: {error} (os error {}): set TMPDIR to a folder \
                 with room (4 bytes a row of each board)\n",
                list.display(),
                tmp.display(),
                match what {
                    "missing" => 2,
                    "full" => 28,
                    _ => 30,
                }
            ),
            "{what} TMPDIR"
        );
    }
}

/// Issue 40 (first hour 8): a machine-readable report, `--report json` (`--format` names the
/// list's format): the counts, the problems, whether the list is complete (null when unknown),
/// and `ok` as the exit code says.
#[test]
fn the_report_in_json_for_scripts() {
    let list = solve(&["solve", "6", "--format", "cols"]);
    let out = nqueens(&["check", "--report", "json"]).write_stdin(list).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"format": "cols", "n": 6, "read": 4, "valid": 4, "distinct": 4, "problems": 0,
            "complete": true, "expected": 4, "sequence": "A000170", "unique": false, "ok": true,
            "problem_list": []})
    );
    let out = nqueens(&["check", "--report", "json"]).write_stdin("2 4 1 3\n2 4 1 3\n").assert().code(1);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (v["distinct"].as_u64(), v["problems"].as_u64(), v["complete"].as_bool()),
        (Some(1), Some(1), Some(false))
    );
    assert_eq!(v["problem_list"], serde_json::json!(["line 2: board 2: repeats board 1 (line 1)"]));
    // --partial passes the same list of one board; completeness unknown is null.
    let out =
        nqueens(&["check", "--report", "json", "--partial"]).write_stdin("2 4 1 3\n").assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((v["ok"].as_bool(), v["complete"].as_bool()), (Some(true), Some(false)));
    let any = solve(&["solve", "40", "--any", "--format", "cols"]);
    let out = nqueens(&["check", "--report", "json", "--partial"]).write_stdin(any).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (v["complete"].clone(), v["expected"].clone(), v["n"].as_u64()),
        (serde_json::Value::Null, serde_json::Value::Null, Some(40))
    );
    common::usage_error(&["check", "--report", "xml"], "unknown format 'xml': use text or json");
}

#[test]
fn check_stops_reading_an_endless_line() {
    usage_error(&["check", "/dev/zero"], "line 1: cannot tell the format from '\\u{0}\\u{0}");
}

/// Finding 5: 20,000 distinct boards of n = 1009 (78.8 MB, cols) took 84 MB, about 4·n bytes a
/// board; a board past a 128-bit rank is remembered by a digest now (its columns spilled to
/// disk): 6.5 MB measured, the same as for a short list.
#[test]
fn check_memory_does_not_grow_with_large_boards() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("big.txt");
    let n = 1009u32;
    // Written a board at a time: this process's memory would count in the child's peak (the
    // child starts as a copy of it).
    let mut out = std::io::BufWriter::new(std::fs::File::create(&list).unwrap());
    let mut line = String::new();
    // q[r] = (a·r + b) mod n solves a prime n for 2 <= a <= n − 2: 20,000 distinct boards.
    for k in 0..20_000u32 {
        let (a, b) = (2 + k / n, k % n);
        line.clear();
        for r in 0..n {
            line.push_str(&((a * r + b) % n + 1).to_string());
            line.push(if r + 1 == n { '\n' } else { ' ' });
        }
        out.write_all(line.as_bytes()).unwrap();
    }
    drop(out);
    let last = line;
    assert_eq!(std::fs::metadata(&list).unwrap().len(), 78_760_000);
    let (code, stderr, peak) = crate::common::peak_rss(&["check", "--partial", s(&list)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(peak < 16 << 20, "peak {} MiB for 20,000 boards of n = 1009 (84 before)", peak >> 20);
    assert!(peak > 1 << 20, "a peak was read: {peak}");
    let out = nqueens(&["check", "--partial", s(&list)]).assert().success().get_output().stdout.clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "1009×1009 boards (cols format): 20000 read, 20000 valid, 20000 distinct, 0 problems; completeness \
         unknown: the number of solutions of n = 1009 is not tabulated\n"
    );
    std::fs::OpenOptions::new().append(true).open(&list).unwrap().write_all(last.as_bytes()).unwrap();
    let out = nqueens(&["check", "--partial", s(&list)]).assert().code(1).get_output().stdout.clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("line 20001: board 20001: repeats board 20000 (line 20000)\n"), "{out}");
    assert!(out.contains("20001 read, 20001 valid, 20000 distinct, 1 problem"), "{out}");
    // Nothing is left in the temporary folder: the spill file had no name once made.
    let temp = std::env::temp_dir();
    let leftover = std::fs::read_dir(&temp)
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().starts_with(".nqueens-check-"));
    assert!(!leftover, "a spill file was left in {}", temp.display());
}

/// Issue 23, finding 12: the empty board of n = 0 in the cols format was "incomplete: 0 of the 1".
#[test]
fn the_empty_board_of_n_0_is_the_complete_list() {
    let empty = nqueens(&["solve", "0", "--format", "cols"]).output().unwrap().stdout;
    nqueens(&["check", "--size", "0"]).write_stdin(empty).assert().success().stdout(
        "0×0 boards (cols format): 1 read, 1 valid, 1 distinct, 0 problems; complete: all 1 solutions of n = 0 (OEIS A000170)\n",
    );
}

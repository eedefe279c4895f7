//! `nqueens check` end to end: `solve | check` round trips, a list with one attacking pair, one
//! duplicate, one missing board and a malformed line, and every unreadable input (exit 2).

mod common;

use common::nqueens;

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
         completeness unknown: give --size N for an empty list\n",
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
         invalid type: integer `7`, expected a string",
    );
    unreadable(&["check", "--format", "raw"], "", "unknown format 'raw': use one of board, leetcode, cols");
    unreadable(&["check", "--size", "64"], "", "board size 64 is too large: the u64 masks allow n <= 63");
    unreadable(&["check", "--size", "x"], "", "board size 'x' is not an integer: use an integer 0..=63");
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

use super::order::*;
use super::*;

#[test]
fn is_solution_accepts_exactly_the_solutions() {
    // Every board of n rows with a column per row (n^n of them): the solutions are exactly
    // the Q(n) boards of the independent backtracker (OEIS A000170).
    for n in 0..=6usize {
        let mut want = std::collections::HashSet::new();
        crate::reference::backtrack_each(n as u32, |q| {
            want.insert(q.iter().map(|&c| c as u8).collect::<Vec<u8>>());
        });
        let mut found = std::collections::HashSet::new();
        let mut board = vec![0u8; n];
        for code in 0..n.pow(n as u32) {
            let mut x = code;
            for c in board.iter_mut() {
                *c = (x % n) as u8;
                x /= n;
            }
            if is_solution(&board) {
                found.insert(board.clone());
            }
        }
        assert_eq!(found, want, "n = {n}");
        assert_eq!(found.len() as u128, oeis::A000170.get(n as u32).unwrap(), "n = {n}");
    }
    assert!(!is_solution(&[0, 4]));
    assert!(!is_solution(&[0; 65]));
}
use crate::enumerate::{SolveOptions, write_solutions};

fn run(text: &str, options: &CheckOptions) -> Report {
    check(text.as_bytes(), options).unwrap()
}

fn faults(report: &Report) -> Vec<String> {
    report.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn every_listing_of_small_boards_checks_out_in_every_format() {
    for n in 1..=8 {
        for format in BoardFormat::ALL {
            for unique in [false, true] {
                let mut out = Vec::new();
                let options = SolveOptions { threads: 2, format, unique, ..Default::default() };
                write_solutions(n, &options, &mut out).unwrap();
                let text = String::from_utf8(out).unwrap();
                let opts = CheckOptions { size: Some(n), unique, ..Default::default() };
                let report = run(&text, &opts);
                assert!(report.ok(), "n = {n}, {format}, unique = {unique}: {}", report.summary());
                if n >= 4 {
                    assert_eq!(report.format, format);
                    let report = run(&text, &CheckOptions { unique, ..Default::default() });
                    assert!(report.ok(), "n = {n}, {format}: {}", report.summary());
                }
            }
        }
    }
}

#[test]
fn empty_lists() {
    assert!(run("", &CheckOptions { size: Some(2), ..Default::default() }).ok());
    assert!(run("[]\n", &CheckOptions { size: Some(3), ..Default::default() }).ok());
    let report = run("", &CheckOptions::default());
    assert!(!report.ok());
    assert!(report.summary().contains("an empty list does not tell its size"), "{}", report.summary());
    assert!(!run("", &CheckOptions { size: Some(4), ..Default::default() }).ok());
}

#[test]
fn faults_are_named() {
    let report =
        run("2 4 1 3\n2 4 1 3\n1 3 x 2\n1 2 3 4\n2 2 4 1\n4 2 3 1\n5 1 2 3\n", &CheckOptions::default());
    assert_eq!(
        faults(&report),
        vec![
            "line 2: board 2: repeats board 1 (line 1)",
            "line 3: board 3: malformed: 'x' is not a column number (cols format: 1-based columns separated by spaces)",
            "line 4: board 4: the queens at row 1, column 1 and row 2, column 2 share a diagonal",
            "line 5: board 5: the queens at row 1, column 2 and row 2, column 2 share a column",
            "line 6: board 6: the queens at row 2, column 2 and row 3, column 3 share a diagonal",
            "line 7: board 7: row 1: column 5 is outside 1..=4",
        ]
    );
    assert_eq!(
        report.summary(),
        "4×4 boards (cols format): 7 read, 2 valid, 1 distinct, 6 problems; incomplete: 1 of the 2 solutions of n = 4 (OEIS A000170)"
    );
    let report = run("1 2 3\n", &CheckOptions::default());
    assert_eq!(
        faults(&report),
        ["line 1: board 1: the queens at row 1, column 1 and row 2, column 2 share a diagonal"]
    );
    let report = run("3 2 1\n", &CheckOptions::default());
    assert_eq!(
        faults(&report),
        ["line 1: board 1: the queens at row 1, column 3 and row 2, column 2 share an anti-diagonal"]
    );
}

#[test]
fn board_format_faults() {
    let text = ".Q..\n...Q\nQ...\n..Q.\n\nQQ..\n...Q\nQ...\n..Q.\n\n.Q..\n...Q\nQ...\n\n.Q.\n...Q\nQ...\n..Q.\n\n\n.Q..\n..xQ\n";
    let report = run(text, &CheckOptions::default());
    assert_eq!(
        faults(&report),
        vec![
            "line 6: board 2: row 1 has 2 queens, not 1",
            "line 11: board 3: row 1 has 4 squares but the board has 3 rows",
            "line 15: board 4: row 1 has 3 squares but the board has 4 rows",
            "line 22: board 5: malformed: 'x' in row '..xQ' (a board row is Q and . only)",
        ]
    );
    let report = run("Q\n\n.Q..\n...Q\nQ...\n..Q.\n", &CheckOptions::default());
    assert_eq!(faults(&report), ["line 3: board 2: the board is 4×4 but the list is of 1×1 boards"]);
}

#[test]
fn leetcode_faults_and_unreadable_input() {
    let report = run(
        r#"[[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."],["Q"]]"#,
        &CheckOptions::default(),
    );
    assert_eq!(faults(&report), ["board 3: the board is 1×1 but the list is of 4×4 boards"]);
    let err = check(&b"[[\".Q..\"],"[..], &CheckOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 10: not a leetcode list (a JSON array of arrays of strings): expected a board (an array of strings), found the end of the input"
    );
    let err = check(&b"[\n[1, 2]]"[..], &CheckOptions::default()).unwrap_err();
    assert!(err.to_string().starts_with("line 2, column 2: not a leetcode list"), "{err}");
    let err = check(&b"\n\nhello\n"[..], &CheckOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 3: cannot tell the format from 'hello': expected rows of Q and . (board), 1-based columns (cols) or a JSON array (leetcode)"
    );
    let err = check(&b"1 2\n\xff\xfe\n"[..], &CheckOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "line 2: not UTF-8 text");
    let forced = CheckOptions { format: Some(BoardFormat::Board), ..Default::default() };
    assert!(run("2 4 1 3\n", &forced).problems[0].to_string().contains("'2' in row '2 4 1 3'"));
}

#[test]
fn the_list_is_sized_by_its_first_valid_board() {
    // A 70-column first line (issue 15) does not make 92 good boards of 8 "mixed size".
    let mut out = Vec::new();
    let options = SolveOptions { threads: 1, format: BoardFormat::Cols, ..Default::default() };
    write_solutions(8, &options, &mut out).unwrap();
    let first: Vec<String> = (1..=70).map(|c| c.to_string()).collect();
    let text = format!("{}\n{}", first.join(" "), String::from_utf8(out).unwrap());
    let report = run(&text, &CheckOptions::default());
    assert_eq!(
        report.summary(),
        "8×8 boards (cols format): 93 read, 92 valid, 92 distinct, 1 problem; complete: all 92 solutions of n = 8 (OEIS A000170)"
    );
    assert_eq!(
        faults(&report),
        ["line 1: board 1: the queens at row 1, column 1 and row 2, column 2 share a diagonal"]
    );
    // A board with an attack first does not size the list either.
    let report = run("1 2 3\n2 4 1 3\n3 1 4 2\n", &CheckOptions::default());
    assert_eq!(report.n, Some(4));
    assert_eq!(report.valid, 2);
}

#[test]
fn an_input_of_only_malformed_boards_says_so() {
    let report = run("1 x\n1 y\n", &CheckOptions::default());
    assert_eq!(
        report.summary(),
        "no valid board (cols format): 2 read, 0 valid, 0 distinct, 2 problems; completeness unknown: no valid board gives the list's size"
    );
}

#[test]
fn control_characters_are_escaped_and_a_bom_is_skipped() {
    let report = run("2 4 \u{1b}]0;owned\u{7} 3\n", &CheckOptions::default());
    let text = faults(&report).join("\n");
    assert!(!text.chars().any(|c| c.is_control()), "{text:?}");
    assert!(text.contains("'\\u{1b}]0;owned\\u{7}' is not a column number"), "{text}");
    let report = run(".Q\u{1b}[2J\n", &CheckOptions::default());
    assert!(faults(&report)[0].contains("'\\u{1b}' in row '.Q\\u{1b}[2J'"), "{:?}", faults(&report));
    let report = run("[[\"Q\\u001b\"]]", &CheckOptions::default());
    assert!(faults(&report)[0].contains("'\\u{1b}' in row 'Q\\u{1b}'"), "{:?}", faults(&report));
    let err = check("\u{1b}]0;x\u{7}\n".as_bytes(), &CheckOptions::default()).unwrap_err().to_string();
    assert!(err.contains("from '\\u{1b}]0;x\\u{7}'"), "{err}");
    for text in ["\u{feff}2 4 1 3\n3 1 4 2\n", "\u{feff}\n.Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"]
    {
        let report = run(text, &CheckOptions::default());
        assert!(report.ok(), "{}", report.summary());
    }
    let report = run(
        "\u{feff}[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]",
        &CheckOptions::default(),
    );
    assert!(report.ok(), "{}", report.summary());
}

#[test]
fn memory_is_bounded_by_the_board_not_the_input() {
    // A block of more rows than its first row has squares (63 at least) is one malformed
    // board.
    let text = "QQ\n".repeat(1000);
    let report = run(&text, &CheckOptions::default());
    assert_eq!(
        faults(&report),
        [
            "line 1: board 1: malformed: more than 63 rows without a blank line, where its first row has 2 squares (is a blank line missing between boards?)"
        ]
    );
    // A cols line of any length is a board (issue 23: 1,024 bytes were the most); one of
    // garbage stops being kept at its first two queens on a line.
    let long = format!("{}\n", "1 ".repeat(100_000));
    assert_eq!(
        faults(&run(&long, &CheckOptions::default())),
        ["line 1: board 1: the queens at row 1, column 1 and row 2, column 1 share a column"]
    );
    let ok = format!("{:<1024}\n", "2 4 1 3");
    assert!(run(&ok, &CheckOptions::default()).valid == 1);
    // A leetcode row of any length streams: counted, not kept.
    let text = format!("[[\"{}\"],[\"Q\"]]", ".".repeat(100_000));
    let report = run(&text, &CheckOptions::default());
    assert_eq!(faults(&report)[0], "board 1: row 1 has 100000 squares but the board has 1 rows");
    let text = format!("[[{}]]", vec!["\"Q\""; 64].join(","));
    assert!(faults(&run(&text, &CheckOptions::default()))[0].contains("more than 63 rows"));
    // Errors in the leetcode stream name line and column.
    let err = check(&b"[[\"Q\"]] x"[..], &CheckOptions::default()).unwrap_err().to_string();
    assert!(err.starts_with("line 1, column 9: ") && err.ends_with("trailing 'x' after the list"), "{err}");
    let err = check(&b"[[\"Q\" \"Q\"]]"[..], &CheckOptions::default()).unwrap_err().to_string();
    assert!(err.ends_with("expected ',' or ']', found '\"'"), "{err}");
    let err = check(&b"[[\"Q\xff\"]]"[..], &CheckOptions::default()).unwrap_err().to_string();
    assert_eq!(err, "line 1: not UTF-8 text");
    let report = run("[[\"\\u0051\"], [\"\u{e9}\"]]", &CheckOptions::default());
    assert_eq!(
        faults(&report),
        ["board 2: malformed: '\u{e9}' in row '\u{e9}' (a board row is Q and . only)"]
    );
}

/// Issue 23: `solve 100 --any | check` said "more than 63 rows", `--size 100` was refused,
/// and `is_solution` of the n = 1000 board of `construct` (converted to bytes) was false.
#[test]
fn boards_of_any_side_are_checked() {
    for n in [64u64, 65, 100, 1000, 4099] {
        let board = crate::construct::any_solution(n).unwrap().unwrap();
        assert!(is_solution(&board), "n = {n}");
        let wide: Vec<u32> = board.iter().map(|&c| c as u32).collect();
        assert!(is_solution(&wide), "n = {n}");
        for format in BoardFormat::ALL {
            let mut out = Vec::new();
            crate::construct::write_any(n, format, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let report = run(&text, &CheckOptions { size: Some(n as u32), ..Default::default() });
            assert_eq!(
                report.summary(),
                format!(
                    "{n}×{n} boards ({format} format): 1 read, 1 valid, 1 distinct, 0 problems; completeness unknown: the number of solutions of n = {n} is not tabulated"
                )
            );
            assert!(report.ok_partial());
        }
        // Two rows swapped: the pair that attacks is named, however far apart.
        let mut bad = board.clone();
        bad.swap(0, 1);
        assert!(!is_solution(&bad));
        let line: Vec<String> = bad.iter().map(|c| (c + 1).to_string()).collect();
        let report = run(&line.join(" "), &CheckOptions::default());
        assert_eq!(report.problem_count, 1, "n = {n}");
        assert!(
            faults(&report)[0].starts_with("line 1: board 1: the queens at row "),
            "{:?}",
            faults(&report)
        );
        // A column beyond the board.
        let mut off = board.clone();
        off[n as usize - 1] = n;
        assert!(!is_solution(&off));
    }
    // Negative columns (signed types) are off every board.
    assert!(!is_solution(&[-1i32, 1]));
    assert!(is_solution::<i64>(&[]));
}

/// Issue 23: a complete list in lexicographic order is checked without a table; a board out
/// of that order repeats one of them or starts the table.
#[test]
fn an_ordered_list_needs_no_table() {
    let list = |n: u32, unique: bool| {
        let mut out = Vec::new();
        let options = SolveOptions { threads: 2, format: BoardFormat::Cols, unique, ..Default::default() };
        write_solutions(n, &options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    for n in 0..=10 {
        let size = Some(n);
        let report = run(&list(n, false), &CheckOptions { size, ..Default::default() });
        assert!(report.ok(), "n = {n}: {}", report.summary());
        let report = run(&list(n, true), &CheckOptions { size, unique: true, ..Default::default() });
        // A002562 starts at n = 1.
        assert_eq!(report.ok(), n > 0, "n = {n} unique: {}", report.summary());
    }
    let eight = list(8, false);
    let lines: Vec<&str> = eight.lines().collect();
    // The last board again: one of the 92 before it.
    let again = format!("{eight}{}\n", lines[91]);
    assert_eq!(
        faults(&run(&again, &CheckOptions::default())),
        ["line 93: board 93: repeats board 92 (line 92)"]
    );
    // Reversed: a table from the second board on, every board distinct and the list complete.
    let reversed: String = lines.iter().rev().map(|l| format!("{l}\n")).collect();
    assert!(run(&reversed, &CheckOptions::default()).ok());
    // A gap, then a board from before the gap: a repeat found in the table or the order.
    let gap = format!("{}\n{}\n{}\n{}\n", lines[0], lines[2], lines[1], lines[2]);
    assert_eq!(faults(&run(&gap, &CheckOptions::default())), ["line 4: board 4: repeats board 2 (line 2)"]);
    let gap = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[0]);
    assert_eq!(faults(&run(&gap, &CheckOptions::default())), ["line 3: board 3: repeats board 1 (line 1)"]);
    assert_eq!(next_solution(3, None), None);
    assert_eq!(next_solution(4, Some(&[1, 3, 0, 2])), Some(vec![2, 0, 3, 1]));
    assert_eq!(next_solution(4, Some(&[2, 0, 3, 1])), None);
    assert_eq!(lehmer_rank(&[0, 1, 2]), Some(0));
    assert_eq!(lehmer_rank(&[2, 1, 0]), Some(5));
    // The rank among the solutions is the place in the list.
    for (k, l) in lines.iter().enumerate() {
        let q: Vec<u32> = l.split(' ').map(|c| c.parse::<u32>().unwrap() - 1).collect();
        assert_eq!(solutions_below(&q), k as u128);
    }
    // With --unique the place of a repeat is not counted: the range is named.
    let unique = list(8, true);
    let again = format!("{unique}{}\n", unique.lines().nth(3).unwrap());
    assert_eq!(
        faults(&run(&again, &CheckOptions { unique: true, ..Default::default() })),
        [
            "line 13: board 13: repeats one of the 12 boards in lexicographic order up to board 12 (line 12), which were every solution up to there"
        ]
    );
}

#[test]
fn unique_lists_need_canonical_boards() {
    let opts = CheckOptions { unique: true, ..Default::default() };
    let report = run("2 4 1 3\n", &opts);
    assert!(report.ok(), "{}", report.summary());
    let report = run("3 1 4 2\n", &opts);
    assert_eq!(
        faults(&report),
        ["line 1: board 1: not the lexicographically smallest board of its symmetry class"]
    );
}

/// The linear solution q[r] = (a·r + b) mod n of a prime n > 3 (a, a − 1 and a + 1 prime to
/// n): many distinct boards of one large side.
fn linear(n: u32, a: u32, b: u32) -> Vec<u32> {
    (0..n).map(|r| (a * r + b) % n).collect()
}

/// Issue 32, finding 5: boards past a 128-bit rank (n > 34) are remembered by digest, not
/// whole; repeats are still found, with where they were first seen.
#[test]
fn large_boards_are_remembered_by_digest() {
    let mut seen = Seen::new(false);
    seen.digests.spill_after = Some(0);
    let boards: Vec<Vec<u32>> = (0..50).map(|b| linear(37, 2 + b % 5, b)).collect();
    for (i, q) in boards.iter().enumerate() {
        assert!(crate::check::is_solution(q));
        assert!(matches!(seen.insert(q, (i as u64 + 1, 0)), Ok(None)), "board {i}");
    }
    assert_eq!((seen.len(), seen.digests.table.len(), seen.digests.whole.len()), (50, 50, 0));
    for (i, q) in boards.iter().enumerate().rev() {
        let Ok(Some(Earlier::At(at))) = seen.insert(q, (99, 0)) else { panic!("board {i} not found again") };
        assert_eq!(at, (i as u64 + 1, 0));
    }
    assert_eq!(seen.len(), 50);
}

/// Issue 32, finding 5: two boards whose digests agree are told apart by the spill file; a
/// digest that matches every board (forced here) still finds exactly the repeats.
#[test]
fn agreeing_digests_are_rechecked_against_the_spill_file() {
    let mut seen = Seen::new(false);
    seen.digests.collide_all = true;
    seen.digests.spill_after = Some(0);
    let (a, b, c) = (linear(37, 2, 0), linear(37, 2, 1), linear(41, 3, 5));
    assert!(matches!(seen.insert(&a, (1, 1)), Ok(None)));
    assert!(matches!(seen.insert(&b, (2, 2)), Ok(None)));
    assert!(matches!(seen.insert(&c, (3, 3)), Ok(None)));
    assert_eq!((seen.digests.table.len(), seen.digests.whole.len()), (1, 2));
    assert!(matches!(seen.insert(&a, (4, 4)), Ok(Some(Earlier::At((1, 1))))));
    assert!(matches!(seen.insert(&b, (5, 5)), Ok(Some(Earlier::At((2, 2))))));
    assert!(matches!(seen.insert(&c, (6, 6)), Ok(Some(Earlier::At((3, 3))))));
    assert_eq!(seen.len(), 3);
    // The spill file holds a's columns, 4 bytes each, and is read back as written.
    let spill = seen.digests.spill.as_mut().unwrap();
    assert_eq!(spill.end, 4 * 37);
    assert!(spill.holds(0, &a).unwrap() && !spill.holds(0, &b).unwrap());
}

/// Issue 40: the first boards past a rank, up to `SPILL_AFTER_BYTES` of columns, are kept whole
/// and make no spill file (a full `TMPDIR` made repeats of `solve 50 --any` distinct); past the
/// budget they go by digest to the spill file, and repeats of both kinds are still found.
#[test]
fn large_boards_are_kept_whole_up_to_the_budget_then_spilled() {
    let mut seen = Seen::new(false);
    seen.digests.spill_after = Some(4 * 37 * 3);
    let boards: Vec<Vec<u32>> = (0..5).map(|b| linear(37, 2, b)).collect();
    for (i, q) in boards.iter().enumerate() {
        assert!(matches!(seen.insert(q, (i as u64 + 1, 0)), Ok(None)), "board {i}");
        let spilled = seen.digests.spill.is_some();
        assert_eq!(spilled, i >= 3, "board {i}");
    }
    assert_eq!((seen.digests.whole.len(), seen.digests.table.len()), (3, 2));
    for (i, q) in boards.iter().enumerate() {
        let Ok(Some(Earlier::At(at))) = seen.insert(q, (99, 0)) else { panic!("board {i} not found again") };
        assert_eq!(at, (i as u64 + 1, 0));
    }
    assert_eq!(seen.len(), 5);
    // The default budget: 4 MiB, no spill file for 1,000 boards of n = 1009.
    assert_eq!(SPILL_AFTER_BYTES, 4 << 20);
    let mut seen = Seen::new(false);
    for b in 0..1000 {
        assert!(matches!(seen.insert(&linear(1009, 2 + b / 1009, b % 1009), (1, 0)), Ok(None)));
    }
    assert!(seen.digests.spill.is_none());
}

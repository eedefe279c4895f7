//! The join counter (`Algorithm::Join`) against the mirror backtracker, the plain reference
//! backtracker and the OEIS b-files (A000170, A002562, the class breakdown), on several thread
//! counts; and its refusal of boards whose table would not fit. (The command line's join tests
//! are in the CLI's `tests/all/count.rs` and `merge.rs`.)

mod common;

use common::bfile;
use nqueens::reference::backtrack_count;
use nqueens::{Algorithm, Classes, CountOptions, Counter};

fn counter(threads: usize, algorithm: Algorithm) -> Counter {
    Counter::new(&CountOptions { threads, algorithm, ..CountOptions::default() }).unwrap()
}

/// The class breakdown (orbits of 8, 4, 2, 1 boards) from tests/data/symmetry-classes.txt.
fn known_classes(n: u32) -> Classes {
    let path = common::data_dir().join("symmetry-classes.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let line = text
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .find(|l| l.split_whitespace().next() == Some(&n.to_string()))
        .unwrap_or_else(|| panic!("no class row for n = {n}"));
    let v: Vec<u128> = line.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect();
    Classes { orbit8: v[0], orbit4: v[1], orbit2: v[2], orbit1: (n == 1) as u128 }
}

fn known(name: &str, n: u32) -> u128 {
    bfile(name).into_iter().find(|r| r.0 == n).unwrap_or_else(|| panic!("{name} lacks n = {n}")).1
}

#[test]
fn join_equals_backtracking_and_a002562_from_1_to_14() {
    let join = counter(2, Algorithm::Join);
    let mirror = counter(2, Algorithm::Mirror);
    for n in 1..=14 {
        let got = join.count(n).unwrap();
        assert_eq!(got.solutions, mirror.count(n).unwrap().solutions, "n = {n}");
        if n <= 11 {
            assert_eq!(got.solutions, backtrack_count(n) as u128, "n = {n}");
        }
        assert_eq!(got.unique, Some(known("b002562.txt", n)), "unique n = {n}");
        assert_eq!(got.classes, Some(known_classes(n)), "classes n = {n}");
        let want_algorithm = if n < nqueens::algo::join::MIN_N { Algorithm::Mirror } else { Algorithm::Join };
        assert_eq!(got.algorithm, want_algorithm, "n = {n}");
    }
}

#[test]
fn join_equals_the_b_files_for_15_and_16() {
    let join = counter(2, Algorithm::Join);
    for n in [15, 16] {
        let got = join.count(n).unwrap();
        assert_eq!(got.solutions, known("b000170.txt", n), "n = {n}");
        assert_eq!(got.unique, Some(known("b002562.txt", n)), "n = {n}");
        assert_eq!(got.classes, Some(known_classes(n)), "n = {n}");
    }
}

#[test]
fn join_totals_do_not_depend_on_the_thread_count() {
    for n in [0, 2, 4, 9, 12, 13] {
        let want = counter(1, Algorithm::Join).count(n).unwrap();
        for threads in [2, 3, 8] {
            let got = counter(threads, Algorithm::Join).count(n).unwrap();
            assert_eq!((got.solutions, got.unique, got.classes), (want.solutions, want.unique, want.classes));
            assert_eq!(got.threads, threads);
        }
    }
}

#[test]
fn join_refuses_boards_whose_table_would_not_fit() {
    let err = counter(1, Algorithm::Join).count(40).unwrap_err();
    assert!(matches!(err, nqueens::Error::JoinTooLarge { n: 40, .. }), "{err:?}");
    assert!(err.to_string().contains("board size 40 is too large for the join algorithm"), "{err}");
    // Past the join's largest board the reason is the board, not the memory (break-it round of
    // 2026-12-03: "needs about 16512 MiB and 23073 MiB are available" was the reason given).
    assert!(err.to_string().ends_with("it supports n <= 29; use the d4 algorithm"), "{err}");
    assert!(!err.to_string().contains("MiB"), "{err}");
}

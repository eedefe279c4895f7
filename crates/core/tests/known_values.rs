//! Library counts against OEIS A000170 and the independent backtracker, for every algorithm,
//! thread count and split depth.

mod common;

use nqueens::reference::backtrack_count;
use nqueens::{Algorithm, CountOptions, Counter};

fn counter(threads: usize, algorithm: Algorithm, split_depth: Option<u32>) -> Counter {
    Counter::new(&CountOptions { threads, algorithm, split_depth, ..CountOptions::default() }).unwrap()
}

#[test]
fn counts_equal_a000170_up_to_14() {
    for algorithm in Algorithm::ALL {
        let c = counter(2, algorithm, None);
        for (n, q) in common::bfile("b000170.txt").into_iter().filter(|&(n, _)| n <= 14) {
            assert_eq!(c.count(n).unwrap().solutions, q, "{algorithm} n = {n}");
        }
    }
}

#[test]
fn counts_equal_a000170_for_15_and_16() {
    // The test profile is optimised (opt-level 3), so these take a few seconds.
    let known = common::bfile("b000170.txt");
    for algorithm in Algorithm::ALL {
        let c = counter(2, algorithm, None);
        for n in [15, 16] {
            assert_eq!(Some(c.count(n).unwrap().solutions), known.iter().find(|r| r.0 == n).map(|r| r.1));
        }
    }
}

#[test]
fn the_plain_backtracker_agrees_up_to_10() {
    for algorithm in Algorithm::ALL {
        let c = counter(2, algorithm, None);
        for n in 0..=10 {
            assert_eq!(c.count(n).unwrap().solutions, backtrack_count(n) as u128, "{algorithm} n = {n}");
        }
    }
}

#[test]
fn thread_counts_and_split_depths_agree() {
    for algorithm in Algorithm::ALL {
        for n in [0, 1, 2, 3, 5, 8, 11, 12] {
            let want = backtrack_count(n) as u128;
            for threads in [1, 2, 3, 8] {
                for depth in (1..=n.max(1)).map(Some).chain([None]) {
                    let got = counter(threads, algorithm, depth).count(n).unwrap();
                    assert_eq!(
                        got.solutions, want,
                        "{algorithm} n = {n} threads = {threads} depth = {depth:?}"
                    );
                    assert_eq!(got.threads, threads);
                }
            }
        }
    }
}

#[test]
fn d4_counts_equal_a002562_and_the_classes_up_to_14() {
    let classes = common::bfile_columns("symmetry-classes.txt");
    let unique = common::bfile("b002562.txt");
    let c = counter(2, Algorithm::D4, None);
    for n in 1..=14 {
        let got = c.count(n).unwrap();
        let want_unique = unique.iter().find(|r| r.0 == n).unwrap().1;
        let row = classes.iter().find(|r| r[0] == n as u128).unwrap();
        let k = got.classes.expect("d4 classifies");
        assert_eq!(got.unique, Some(want_unique), "n = {n}");
        let c1 = (n == 1) as u128;
        assert_eq!([k.orbit8, k.orbit4, k.orbit2, k.orbit1], [row[1], row[2], row[3], c1], "n = {n}");
    }
}

#[test]
fn d4_counts_15_and_16() {
    let c = counter(2, Algorithm::D4, None);
    for (n, unique, [c8, c4, c2]) in [(15, 285_053, [284_743, 310, 0]), (16, 1_846_955, [1_846_189, 734, 32])]
    {
        let got = c.count(n).unwrap();
        assert_eq!(got.unique, Some(unique), "n = {n}");
        let k = got.classes.unwrap();
        assert_eq!([k.orbit8, k.orbit4, k.orbit2, k.orbit1], [c8, c4, c2, 0], "n = {n}");
        assert_eq!(Some(got.solutions), nqueens::oeis::A000170.get(n));
    }
}

#[test]
fn small_boards_exactly() {
    let c = counter(1, Algorithm::D4, None);
    let r = c.count(0).unwrap();
    assert_eq!((r.solutions, r.unique, r.classes), (1, None, None));
    let r = c.count(1).unwrap();
    let one = nqueens::Classes { orbit8: 0, orbit4: 0, orbit2: 0, orbit1: 1 };
    assert_eq!((r.solutions, r.unique, r.classes), (1, Some(1), Some(one)));
    for n in [2, 3] {
        let r = c.count(n).unwrap();
        assert_eq!((r.solutions, r.unique, r.classes), (0, Some(0), Some(nqueens::Classes::default())));
    }
    // Mirror halving does not classify.
    let r = counter(1, Algorithm::Mirror, None).count(8).unwrap();
    assert_eq!((r.solutions, r.unique, r.classes), (92, None, None));
}

#[test]
fn d4_and_mirror_agree_up_to_13_on_every_thread_count() {
    for threads in [1, 2, 3] {
        let d4 = counter(threads, Algorithm::D4, None);
        let mirror = counter(threads, Algorithm::Mirror, None);
        for n in 0..=13 {
            let (a, b) = (d4.count(n).unwrap(), mirror.count(n).unwrap());
            assert_eq!(a.solutions, b.solutions, "n = {n} threads = {threads}");
            let k = a.classes.unwrap_or_default();
            assert_eq!(k.solutions() + (n == 0) as u128, a.solutions, "classes add up, n = {n}");
        }
    }
}

#[test]
fn d4_classes_agree_at_every_split_depth() {
    for n in [5, 8, 10, 12] {
        let want = counter(1, Algorithm::D4, Some(1)).count(n).unwrap();
        for threads in [1, 2, 8] {
            for depth in 1..=n.min(16) {
                let got = counter(threads, Algorithm::D4, Some(depth)).count(n).unwrap();
                assert_eq!(
                    (got.solutions, got.classes),
                    (want.solutions, want.classes),
                    "n = {n} depth = {depth}"
                );
            }
        }
    }
}

#[test]
fn library_errors() {
    assert_eq!(nqueens::count(64).unwrap_err(), nqueens::Error::BoardTooLarge { n: 64 });
    assert_eq!(
        nqueens::count(64).unwrap_err().to_string(),
        "board size 64 is too large: the u64 masks allow n <= 63"
    );
    let zero = Counter::new(&CountOptions { threads: 0, ..CountOptions::default() });
    assert_eq!(zero.err(), Some(nqueens::Error::ZeroThreads));
    let deep = Counter::new(&CountOptions { split_depth: Some(17), ..CountOptions::default() });
    assert_eq!(deep.err(), Some(nqueens::Error::BadSplitDepth { depth: 17 }));
}

#[test]
fn counts_are_exact_in_u128() {
    // The sum is u128 all the way: Q(29) and beyond would overflow u64.
    let r = counter(1, Algorithm::Mirror, None).count(12).unwrap();
    let as_u128: u128 = r.solutions;
    assert_eq!(as_u128, 14_200);
}

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

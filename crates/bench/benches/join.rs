//! Join counter benchmarks: whole counts (`par`, every CPU) against the mirror backtracker, and
//! the bit-sliced matcher alone. Answers are checked outside the timed loop.
//!
//! `cargo bench -p nqueens-bench --bench join` (about a minute). Figures and machine: results/2026-11-29-join/.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::algo::join::matcher::{Matcher, Query, naive_count};
use nqueens::arch::Level;
use nqueens::{Algorithm, CountOptions, Counter, oeis};

fn counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("join_count");
    group.sample_size(10);
    for algorithm in [Algorithm::Join, Algorithm::Mirror] {
        let counter = Counter::new(&CountOptions { algorithm, ..CountOptions::default() }).unwrap();
        for n in [12, 14, 16] {
            assert_eq!(Some(counter.count(n).unwrap().solutions), oeis::A000170.get(n));
            group.bench_with_input(BenchmarkId::new(format!("par/{algorithm}"), n), &n, |b, &n| {
                b.iter(|| counter.count(n).unwrap().solutions)
            });
        }
    }
    group.finish();
}

fn matcher(c: &mut Criterion) {
    let mut group = c.benchmark_group("join_matcher");
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // 34-bit masks with about a quarter of the bits set, as window masks at n = 18.
    let stored: Vec<u64> = (0..4096).map(|_| next() & next() & ((1 << 34) - 1)).collect();
    let queries: Vec<Query> = (0..4096).map(|_| (next() & next() & ((1 << 34) - 1), 1)).collect();
    let want = naive_count(&[(&stored, 1)], &queries);
    for level in Level::available() {
        let mut m = Matcher::new();
        assert_eq!(m.count(level, &[(&stored, 1)], &queries), want);
        group.bench_function(BenchmarkId::new(level.to_string(), "4096x4096"), |b| {
            b.iter(|| m.count(level, &[(&stored, 1)], &queries))
        });
    }
    group.finish();
}

criterion_group!(benches, counts, matcher);
criterion_main!(benches);

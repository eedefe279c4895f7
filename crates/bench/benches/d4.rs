//! The D4 (start constellation) counter against mirror halving, one thread and all threads; and
//! its searches (`--d4-search`) at every instruction-set level (`--isa`) this processor runs,
//! one thread.
//!
//! `cargo bench -p nqueens-bench --bench d4`; each count is checked against OEIS A000170 and A002562 before it is
//! timed. Figures and machine notes go to `results/`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::arch::Level;
use nqueens::{Algorithm, CountOptions, Counter, oeis, plan::D4Search};

fn counter(threads: usize, algorithm: Algorithm) -> Counter {
    Counter::new(&CountOptions { threads, algorithm, ..CountOptions::default() }).expect("a thread pool")
}

fn d4(c: &mut Criterion) {
    let mut group = c.benchmark_group("d4");
    group.sample_size(10);
    let threads = nqueens::plan::available_threads();
    for n in [12u32, 13, 14] {
        let seq = counter(1, Algorithm::D4);
        let par = counter(threads, Algorithm::D4);
        let mirror = counter(1, Algorithm::Mirror);
        // Known values, checked outside the timed loop.
        let got = seq.count(n).unwrap();
        assert_eq!(Some(got.solutions), oeis::A000170.get(n));
        assert_eq!(got.unique, oeis::A002562.get(n));
        assert_eq!(par.count(n).unwrap().unique, oeis::A002562.get(n));
        assert_eq!(Some(mirror.count(n).unwrap().solutions), oeis::A000170.get(n));
        group.bench_with_input(BenchmarkId::new("d4", n), &n, |b, &n| {
            b.iter(|| seq.count(n).unwrap().solutions)
        });
        group.bench_with_input(BenchmarkId::new("d4-par", n), &n, |b, &n| {
            b.iter(|| par.count(n).unwrap().solutions)
        });
        group.bench_with_input(BenchmarkId::new("mirror", n), &n, |b, &n| {
            b.iter(|| mirror.count(n).unwrap().solutions)
        });
    }
    group.finish();
}

/// The searches of d4 at every instruction-set level this processor runs, on one thread
/// (`d4-search/batched-avx2/14`, …).
fn d4_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("d4-search");
    group.sample_size(10);
    for level in Level::available() {
        for search in [D4Search::Batched, D4Search::Recursive] {
            let options = CountOptions {
                threads: 1,
                algorithm: Algorithm::D4,
                d4_search: search,
                level,
                ..CountOptions::default()
            };
            let counter = Counter::new(&options).expect("threads start");
            for n in [13u32, 14] {
                assert_eq!(counter.count(n).unwrap().unique, oeis::A002562.get(n));
                let id = BenchmarkId::new(format!("{}-{level}", search.name()), n);
                group.bench_with_input(id, &n, |b, &n| b.iter(|| counter.count(n).unwrap().solutions));
            }
        }
    }
    group.finish();
}

criterion_group!(benches, d4, d4_search);
criterion_main!(benches);

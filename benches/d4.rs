//! The D4 (start constellation) counter against mirror halving, one thread and all threads; and
//! the copies of its search (`--d4-search`) that this processor runs, one thread.
//!
//! `cargo bench --bench d4`; each count is checked against OEIS A000170 and A002562 before it is
//! timed. Figures and machine notes go to `results/`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::{Algorithm, CountOptions, Counter, D4Search, oeis};

fn counter(threads: usize, algorithm: Algorithm) -> Counter {
    Counter::new(&CountOptions { threads, algorithm, ..CountOptions::default() }).expect("a thread pool")
}

fn d4(c: &mut Criterion) {
    let mut group = c.benchmark_group("d4");
    group.sample_size(10);
    let threads = num_cpus::get();
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

/// The copies of the d4 search on one thread (`d4-search/avx512/14`, …); copies this processor
/// does not run are left out.
fn d4_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("d4-search");
    group.sample_size(10);
    for search in D4Search::ALL.into_iter().filter(|s| *s != D4Search::Auto && s.copy().is_ok()) {
        let options = CountOptions {
            threads: 1,
            algorithm: Algorithm::D4,
            d4_search: search,
            ..CountOptions::default()
        };
        let counter = Counter::new(&options).expect("a supported copy");
        for n in [13u32, 14] {
            assert_eq!(counter.count(n).unwrap().unique, oeis::A002562.get(n));
            group.bench_with_input(BenchmarkId::new(search.name(), n), &n, |b, &n| {
                b.iter(|| counter.count(n).unwrap().solutions)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, d4, d4_search);
criterion_main!(benches);

//! Criterion benches of the count engine: the sequential kernel per n, and the parallel mirror
//! count per n and thread count. Each bench asserts the known count (OEIS A000170) once, outside
//! the timed loop.
//!
//! Run: `cargo bench -p nqueens-bench --bench count` (about two minutes on a 2-core machine).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::arch::Level;
use nqueens::kernel::{board_mask, count_completions};
use nqueens::oeis::A000170;
use nqueens::{Algorithm, CountOptions, Counter};

fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group.sample_size(10);
    for n in [10u32, 12, 13] {
        let q = count_completions::<false>(Level::best(), board_mask(n).unwrap(), 0, 0, 0, &mut 0);
        assert_eq!(Some(q as u128), A000170.get(n));
        group.bench_with_input(BenchmarkId::new("seq", n), &n, |b, &n| {
            let full = board_mask(n).unwrap();
            b.iter(|| count_completions::<false>(Level::best(), full, 0, 0, 0, &mut 0))
        });
        group.bench_with_input(BenchmarkId::new("seq-nodes", n), &n, |b, &n| {
            let full = board_mask(n).unwrap();
            b.iter(|| count_completions::<true>(Level::best(), full, 0, 0, 0, &mut 0))
        });
    }
    group.finish();
}

fn parallel(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    for algorithm in Algorithm::ALL {
        for threads in [1usize, 2] {
            let counter =
                Counter::new(&CountOptions { threads, algorithm, ..CountOptions::default() }).unwrap();
            for n in [12u32, 14] {
                assert_eq!(Some(counter.count(n).unwrap().solutions), A000170.get(n));
                let id = BenchmarkId::new(format!("{algorithm}-par-{threads}t"), n);
                group.bench_with_input(id, &n, |b, &n| b.iter(|| counter.count(n).unwrap().solutions));
            }
        }
    }
    group.finish();
}

criterion_group!(benches, kernel, parallel);
criterion_main!(benches);

//! Criterion benches of the listing (`nqueens solve`): the sequential enumeration, and the
//! ordered parallel stream written to a sink in `cols` format, per n and thread count. Each bench
//! asserts the known number of boards (OEIS A000170) once, outside the timed loop.
//!
//! Run: `cargo bench -p nqueens-bench --bench enumerate`.

use std::io::{self, Write};
use std::ops::ControlFlow;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::boards::BoardFormat;
use nqueens::enumerate::{SolveOptions, for_each_solution, write_solutions};
use nqueens::oeis::A000170;

/// A sink that counts lines and throws the bytes away.
struct Lines(u64);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn sequential(n: u32) -> u64 {
    let mut boards = 0;
    for_each_solution(n, |_| {
        boards += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    boards
}

fn stream(n: u32, threads: usize) -> u64 {
    let options = SolveOptions { threads, format: BoardFormat::Cols, ..SolveOptions::default() };
    let mut sink = Lines(0);
    write_solutions(n, &options, &mut sink).unwrap();
    sink.0
}

fn enumerate(c: &mut Criterion) {
    let mut group = c.benchmark_group("enumerate");
    group.sample_size(10);
    for n in [10u32, 12] {
        assert_eq!(Some(sequential(n) as u128), A000170.get(n));
        group.bench_with_input(BenchmarkId::new("seq", n), &n, |b, &n| b.iter(|| sequential(n)));
        for threads in [1usize, 2] {
            assert_eq!(Some(stream(n, threads) as u128), A000170.get(n));
            let id = BenchmarkId::new(format!("cols-par-{threads}t"), n);
            group.bench_with_input(id, &n, |b, &n| b.iter(|| stream(n, threads)));
        }
    }
    group.finish();
}

criterion_group!(benches, enumerate);
criterion_main!(benches);

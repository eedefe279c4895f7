//! Times the matcher alone on random masks: the block loop's cost per (block, query) pair,
//! without half-boards or a sieve, for one chunk width. A quick check of the kernel on a new
//! machine (the figures in the matcher's docs came from it):
//! `cargo run --release --example matcher_kernel -- STORED QUERIES BITS CHUNK_BITS [REPS]`,
//! e.g. `-- 40960 20000 32 6` (80 blocks, 20,000 queries, 32-bit masks about a quarter set).
//! Prints nanoseconds per block and query (wall-clock, building included) and the count.

use std::time::Instant;

use nqueens::algo::join::matcher::Matcher;
use nqueens::arch::Level;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("STORED QUERIES BITS CHUNK_BITS [REPS]: integers"))
        .collect();
    assert!(args.len() >= 4, "usage: matcher_kernel STORED QUERIES BITS CHUNK_BITS [REPS]");
    let (stored, queries, bits, chunk_bits) = (args[0], args[1], args[2] as u32, args[3] as u32);
    let reps = args.get(4).copied().unwrap_or(20);
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let m = (1u64 << bits) - 1;
    let s: Vec<u64> = (0..stored).map(|_| next() & next() & m).collect();
    let q: Vec<u64> = (0..queries).map(|_| next() & next() & m).collect();
    // The level from NQUEENS_ISA (as `--isa` takes it), else the best this processor runs.
    let level: Level =
        std::env::var("NQUEENS_ISA").map_or(Ok(Level::best()), |s| s.parse()).unwrap_or_else(|e| {
            eprintln!("NQUEENS_ISA: {e}");
            std::process::exit(2)
        });
    let mut matcher = Matcher::new();
    matcher.chunk_bits = Some(chunk_bits);
    matcher.sieve_from = Some(usize::MAX);
    let t = Instant::now();
    let mut total = 0;
    for _ in 0..reps {
        total += matcher.count_coded(level, &[(&s, 1)], &q, [1; 4]);
    }
    let pairs = stored.div_ceil(512) as f64 * queries as f64 * reps as f64;
    println!(
        "{level}, chunk bits {chunk_bits}: {:.3} ns per block and query, count {total}",
        t.elapsed().as_secs_f64() / pairs * 1e9
    );
}

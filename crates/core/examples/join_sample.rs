//! Times a sample of the join's units (every STEP-th) for one board, with the matcher's sieve
//! considered from a given stored-set size: a quick way to see what the sieve gains on a board
//! without a full count. `cargo run --release --example join_sample -- N STEP SIEVE_FROM`
//! (SIEVE_FROM = 0 considers the sieve for every stored set, a huge value never does; NQUEENS_ISA
//! sets the instruction-set level, as --isa does). Which cut
//! bits, and how many, is then the matcher's choice (see
//! [`nqueens::algo::join::matcher::SIEVE_FROM`] and `MAX_CUTS`); SIEVE_FROM only gates it.

use std::time::Instant;

use nqueens::algo::join::JoinPlan;
use nqueens::arch::Level;
use nqueens::plan::Plan;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let int = |i: usize| args[i].parse::<usize>().expect("integers");
    let (n, step) = (int(0) as u32, int(1));
    let from = args.get(2).filter(|a| *a != "-").map(|_| int(2));
    let mut plan = JoinPlan::new(n).expect("the table fits");
    // The level from NQUEENS_ISA (as `--isa` takes it), else the best this processor runs.
    let level: Level =
        std::env::var("NQUEENS_ISA").map_or(Ok(Level::best()), |s| s.parse()).unwrap_or_else(|e| {
            eprintln!("NQUEENS_ISA: {e}");
            std::process::exit(2)
        });
    plan.set_level(level);
    if let Some(from) = from {
        plan.set_sieve_from(from);
    }
    if let Some(bits) = std::env::var("CHUNK_BITS").ok().and_then(|b| b.parse().ok()) {
        plan.set_chunk_bits(bits);
    }
    if let Some(cuts) = std::env::var("CUTS").ok().and_then(|b| b.parse().ok()) {
        plan.set_cuts(cuts);
    }
    let t0 = Instant::now();
    let sum: u128 = (0..plan.len()).step_by(step).map(|i| plan.solve(i, false).solutions).sum();
    println!(
        "n={n} isa={level} step={step} sieve_from={from:?} units={} sum={sum} seconds={:.3}",
        plan.len().div_ceil(step),
        t0.elapsed().as_secs_f64()
    );
}

//! Checks whether a random share of a join unit's codes costs the matcher what the same share
//! of a count's batches costs: for each of UNITS random units of board N (row sets, as from
//! n = 28), matches its two sides ([`Matcher::count_coded`], the default batches of at most 2^24
//! codes) with the codes in the order they were enumerated (`whole`), shuffled (`shuffled`),
//! and sorted by value (`sorted`); then, for each SHARE q, a random q of them, each code kept
//! by a hash of its place (`random`), and the first q of the shuffled codes (`shuffled`).
//! Prints per run the codes matched, the seconds and the seconds over q, the matcher's sort,
//! build and match seconds, its blocks and (block, mask) visits, and the count over q against
//! the whole, as CSV (wall-clock seconds of one thread). The question behind it: does a sample
//! that enumerates or sorts a random share of a unit's codes stand for the unit's time
//! (results/2026-12-05-plan-batches/)? `cargo run --release --features nqueens/internals
//! --example join_code_order -- N UNITS SEED SHARE...` (ONLY=i,j,...: these units instead).

#[path = "common/args.rs"]
mod args;
#[path = "common/picks.rs"]
mod picks;

use std::time::Instant;

use nqueens::algo::join::bits::uniform;
use nqueens::algo::join::matcher::Matcher;
use nqueens::algo::join::{JoinPlan, Quarters};
use nqueens::arch::Level;
use nqueens::plan::Plan;

fn main() {
    let (n, units, seed, shares) = args::board_units_seed_shares("join_code_order N UNITS SEED SHARE...", 3);
    let plan = JoinPlan::with_options(n, true, Quarters::RowSets).expect("the join fits");
    let level = Level::best();
    println!("unit,order,q,codes,seconds,over_q,sort_s,build_s,match_s,blocks,visits,count_ratio");
    for i in picks::picks(plan.len(), units, seed) {
        plan.prepare(i);
        let sides = plan.unit_sides(i);
        let classes = sides.stored_classes();
        // Fisher–Yates by the hash of each place.
        let mut shuffled = sides.codes.clone();
        for k in (1..shuffled.len()).rev() {
            shuffled.swap(k, (mix(seed, k as u64) % (k as u64 + 1)) as usize);
        }
        let mut sorted = sides.codes.clone();
        sorted.sort_unstable();
        let mut whole = 0;
        let mut run = |order: &str, q: f64, codes: &[u64]| {
            let mut m = Matcher::default();
            let t0 = Instant::now();
            let count = m.count_coded(level, &classes, codes, sides.weights);
            let seconds = t0.elapsed().as_secs_f64();
            if order == "whole" {
                whole = count;
            }
            let s = m.stats;
            println!(
                "{i},{order},{q},{},{seconds:.4},{:.4},{:.4},{:.4},{:.4},{},{},{:.4}",
                codes.len(),
                seconds / q,
                s.sort_s,
                s.build_s,
                s.match_s,
                s.blocks,
                s.block_codes,
                count as f64 / q / whole.max(1) as f64
            );
        };
        run("whole", 1.0, &sides.codes);
        run("shuffled", 1.0, &shuffled);
        run("sorted", 1.0, &sorted);
        for &q in &shares {
            let limit = (q * u64::MAX as f64) as u64;
            let kept: Vec<u64> = sides
                .codes
                .iter()
                .enumerate()
                .filter(|&(k, _)| mix(seed.rotate_left(17), k as u64) <= limit)
                .map(|(_, &c)| c)
                .collect();
            run("random", q, &kept);
            run("shuffled", q, &shuffled[..(q * shuffled.len() as f64) as usize]);
        }
    }
}

/// A hash of `x`, uniform over `u64` (the top 53 bits of [`uniform`] of (`seed`, `x`)).
fn mix(seed: u64, x: u64) -> u64 {
    (uniform(seed, x) * (1u64 << 53) as f64) as u64 * (1 << 11)
}

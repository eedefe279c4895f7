//! Checks whether the matcher's time scales with the share of a unit's codes it meets, the
//! whole unit's cut bits, chunk width and batches held: for each of UNITS random units of board
//! N (row sets, as from n = 28), matches its two sides whole ([`Matcher::count_coded`]: the
//! sorts and the block loop), then, for each SHARE q, a random q of its codes (each code kept
//! by a hash of its place and the seed) with the whole count's number of cut bits and chunk
//! width and batches of q · 2^24 codes, and prints per share the seconds over q and the count
//! over q against the whole, and the seconds of the sorts (both sides, with the cut bits'
//! choice and each batch's sizing walk: what a sampled unit pays before its share), as CSV
//! (wall-clock seconds of one thread). A time over q that
//! grows as q shrinks has a cost the codes' share does not scale (the stored side's sort and
//! blocks). The question behind it: could a sampled unit enumerate and sort only a share of
//! its larger side (results/2026-12-04-plan-coverage/)?
//! `cargo run --release --features nqueens/internals --example join_code_share -- N UNITS SEED
//! SHARE...` (ONLY=i,j,...: these units instead).

#[path = "common/args.rs"]
mod args;
#[path = "common/picks.rs"]
mod picks;

use std::time::Instant;

use nqueens::algo::join::matcher::{CODE_BATCH, Matcher};
use nqueens::algo::join::{JoinPlan, Quarters};
use nqueens::arch::Level;
use nqueens::plan::Plan;

fn main() {
    let (n, units, seed, shares) = args::board_units_seed_shares("join_code_share N UNITS SEED SHARE...", 4);
    let plan = JoinPlan::with_options(n, true, Quarters::RowSets).expect("the join fits");
    let level = Level::best();
    println!(
        "n,unit,stored,codes,cuts,chunk_bits,share,kept,seconds,whole_s,time_ratio,count_ratio,sort_s,whole_sort_s"
    );
    for i in picks::picks(plan.len(), units, seed) {
        plan.prepare(i);
        let sides = plan.unit_sides(i);
        if sides.codes.is_empty() || sides.stored.is_empty() {
            continue;
        }
        let classes = sides.stored_classes();
        let mut matcher = Matcher::default();
        let t0 = Instant::now();
        let whole = matcher.count_coded(level, &classes, &sides.codes, sides.weights);
        let whole_s = t0.elapsed().as_secs_f64();
        let stats = matcher.stats;
        let cuts = (stats.cuts / stats.builds.max(1)) as u32;
        let chunk_bits = (stats.chunk_bits / stats.builds.max(1)) as u32;
        for &q in &shares {
            let limit = (q * u64::MAX as f64) as u64;
            let kept: Vec<u64> = sides
                .codes
                .iter()
                .enumerate()
                .filter(|&(k, _)| mix(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) <= limit)
                .map(|(_, &c)| c)
                .collect();
            let mut m = Matcher::default();
            m.cuts = Some(cuts);
            m.chunk_bits = Some(chunk_bits);
            m.code_batch = Some(((q * CODE_BATCH as f64) as usize).max(1));
            let t0 = Instant::now();
            let count = m.count_coded(level, &classes, &kept, sides.weights);
            let seconds = t0.elapsed().as_secs_f64();
            println!(
                "{n},{i},{},{},{cuts},{chunk_bits},{q},{},{seconds:.4},{whole_s:.4},{:.4},{:.4},{:.4},{:.4}",
                sides.stored.len(),
                sides.codes.len(),
                kept.len(),
                seconds / q / whole_s,
                count as f64 / q / whole.max(1) as f64,
                m.stats.sort_s,
                stats.sort_s
            );
        }
    }
}

/// SplitMix64's finalizer (S. Vigna): a hash of `x`, uniform over `u64`.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

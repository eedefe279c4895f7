//! Lists the quarter-list pair counts (P_E, P_W) of a random sample of the join's units of one
//! board, largest first, as CSV: a unit enumerates about a third of its pairs as half-boards, so
//! this finds the units whose half-boards take the most memory without enumerating them (about
//! 0.1 s a unit at n = 28, the row sets' walks).
//!
//! `cargo run --release --features nqueens/internals --example join_sizes -- N UNITS SEED` (ONLY=i,j,...:
//! these units instead)

use nqueens::algo::join::JoinPlan;
use nqueens::plan::Plan;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: join_sizes N UNITS SEED");
        std::process::exit(2);
    }
    let n: u32 = args[0].parse().expect("N");
    let units: usize = args[1].parse().expect("UNITS");
    let mut seed: u64 = args[2].parse().expect("SEED");
    let plan = JoinPlan::new(n).expect("the join fits");
    // ONLY=i,j,...: these units instead of a random sample.
    let only: Option<Vec<usize>> = std::env::var("ONLY")
        .ok()
        .map(|s| s.split(',').map(|i| i.trim().parse().expect("ONLY: unit indices")).collect());
    let picks: Vec<usize> = only.unwrap_or_else(|| {
        (0..units)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) % plan.len() as u64) as usize
            })
            .collect()
    });
    let mut rows = Vec::with_capacity(picks.len());
    for index in picks {
        let (east, west) = plan.unit_pairs(index);
        rows.push((east + west, index, east, west));
    }
    rows.sort_unstable_by(|a, b| b.cmp(a));
    println!("n,unit,pairs_east,pairs_west,pairs");
    for (pairs, index, east, west) in rows {
        println!("{n},{index},{east},{west},{pairs}");
    }
}

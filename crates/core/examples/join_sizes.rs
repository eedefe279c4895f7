//! Lists the quarter-list pair counts (P_E, P_W) of a random sample of the join's units of one
//! board, largest first, as CSV: a unit enumerates about a third of its pairs as half-boards, so
//! this finds the units whose half-boards take the most memory without enumerating them (about
//! 0.1 s a unit at n = 28, the row sets' walks).
//!
//! `cargo run --release --features nqueens/internals --example join_sizes -- N UNITS SEED` (ONLY=i,j,...:
//! these units instead; TIME=1: each unit also counted whole, its seconds (wall-clock, one
//! thread) and solutions in two more columns, to fit the plan's sample predictor against;
//! PER=k: also the unit's estimated half-boards, k placements of each list drawn
//! (`JoinPlan::unit_halves`), and the seconds the estimate took; KEEP=q: each row-set walk of
//! that estimate thinned to q, 1 by default)

#[path = "common/picks.rs"]
mod picks;

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
    let seed: u64 = args[2].parse().expect("SEED");
    let plan = JoinPlan::new(n).expect("the join fits");
    let picks = picks::picks(plan.len(), units, seed);
    let timed = std::env::var("TIME").is_ok_and(|t| t == "1");
    if let (true, Some(&first)) = (timed, picks.first()) {
        // Untimed, so that the thread's buffers have grown before the first timed unit.
        plan.solve(first, false);
    }
    let per: Option<usize> = std::env::var("PER").ok().map(|p| p.parse().expect("PER"));
    let keep: f64 = std::env::var("KEEP").map_or(1.0, |k| k.parse().expect("KEEP"));
    let mut rows = Vec::with_capacity(picks.len());
    for index in picks {
        let (east, west) = plan.unit_pairs(index);
        let estimate = per.map(|per| {
            let t = std::time::Instant::now();
            let halves = plan.unit_halves(index, per, keep);
            (halves, t.elapsed().as_secs_f64())
        });
        let counted = timed.then(|| {
            let t = std::time::Instant::now();
            let solutions = plan.solve(index, false).solutions;
            (t.elapsed().as_secs_f64(), solutions)
        });
        rows.push((east + west, index, east, west, estimate, counted));
    }
    rows.sort_unstable_by_key(|r| std::cmp::Reverse((r.0, r.1)));
    let header = format!(
        "n,unit,pairs_east,pairs_west,pairs{}{}",
        if per.is_some() { ",halves_east,halves_west,estimate_seconds" } else { "" },
        if timed { ",seconds,solutions" } else { "" }
    );
    println!("{header}");
    for (pairs, index, east, west, estimate, counted) in rows {
        let halves = estimate.map_or(String::new(), |((e, w), s)| format!(",{e:.0},{w:.0},{s:.4}"));
        let more = counted.map_or(String::new(), |(s, q)| format!(",{s:.4},{q}"));
        println!("{n},{index},{east},{west},{pairs}{halves}{more}");
    }
}

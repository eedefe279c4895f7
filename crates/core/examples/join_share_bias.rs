//! Checks the time a random share of a join unit stands for against the share's size: for each
//! of UNITS random units of board N, counts it in each of the SHARES ([`Plan::solve_share`], as
//! `nqueens plan`'s sample does) and prints, per share, the seconds it spent and the unit's time
//! so estimated (each stretch of the work times the weight the plan gave it: the time outside
//! the pieces counted plus the time in them over their share, wall-clock seconds of one
//! thread) and its solutions over the share, as CSV. An estimate that grows as the share
//! shrinks has a cost the share does not scale. `cargo run --release --features nqueens/internals --example join_share_bias -- N UNITS
//! SEED SHARE...` (ONLY=i,j,...: these units instead; a share of 1 counts the unit whole).

#[path = "common/picks.rs"]
mod picks;

use std::time::Instant;

use nqueens::algo::join::JoinPlan;
use nqueens::plan::Plan;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: join_share_bias N UNITS SEED SHARE...");
        std::process::exit(2);
    }
    let n: u32 = args[0].parse().expect("N");
    let units: usize = args[1].parse().expect("UNITS");
    let seed: u64 = args[2].parse().expect("SEED");
    let shares: Vec<f64> = args[3..].iter().map(|s| s.parse().expect("SHARE")).collect();
    let plan = JoinPlan::new(n).expect("the join fits");
    let picks = picks::picks(plan.len(), units, seed);
    println!("n,unit,share,spent_s,estimate_s,solutions_over_share");
    for (k, &i) in picks.iter().enumerate() {
        // Warm-up: the first unit's buffers grow (untimed).
        if k == 0 {
            plan.prepare(i);
            plan.solve_share(i, shares[0], 1, &mut |_| {});
        }
        for (j, &share) in shares.iter().enumerate() {
            plan.prepare(i);
            let t0 = Instant::now();
            // Seconds weighed so far, and the weight and start of the open stretch.
            let (mut weighed, mut weight, mut since) = (0.0, 1.0, 0.0);
            let tally = plan.solve_share(i, share, 7 + j as u64, &mut |w| {
                let now = t0.elapsed().as_secs_f64();
                weighed += weight * (now - since);
                (weight, since) = (w, now);
            });
            let spent = t0.elapsed().as_secs_f64();
            let estimate = weighed + weight * (spent - since);
            let solutions = tally.map_or(f64::NAN, |t| t.solutions as f64 / share);
            println!("{n},{i},{share},{spent:.4},{estimate:.3},{solutions:.4e}");
        }
    }
}

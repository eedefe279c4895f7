//! Checks the time a random share of a join unit stands for against the share's size: for each
//! of UNITS random units of board N, counts it in each of the SHARES ([`Plan::solve_share`], as
//! `nqueens plan`'s sample does) and prints, per share, the unit's time so estimated (the time
//! outside the pieces counted plus the time in them over the share, wall-clock seconds of one
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
    println!("n,unit,share,whole_s,pieces_s,estimate_s,solutions_over_share");
    for (k, &i) in picks.iter().enumerate() {
        // Warm-up: the first unit's buffers grow (untimed).
        if k == 0 {
            plan.prepare(i);
            plan.solve_share(i, shares[0], 1, &mut |_| {});
        }
        for (j, &share) in shares.iter().enumerate() {
            plan.prepare(i);
            let t0 = Instant::now();
            let (mut pieces, mut began) = (0.0, 0.0);
            let tally = plan.solve_share(i, share, 7 + j as u64, &mut |begins| {
                let now = t0.elapsed().as_secs_f64();
                if begins {
                    began = now;
                } else {
                    pieces += now - began;
                }
            });
            let spent = t0.elapsed().as_secs_f64();
            let solutions = tally.map_or(f64::NAN, |t| t.solutions as f64 / share);
            println!(
                "{n},{i},{share},{:.4},{pieces:.4},{:.3},{solutions:.4e}",
                spent - pieces,
                spent - pieces + pieces / share
            );
        }
    }
}

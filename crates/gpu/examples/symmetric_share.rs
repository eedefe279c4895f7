//! How much of a d4 count the host classifies itself on a GPU run: the subproblems of start
//! constellations with a symmetry of their own, which the GPU kernel does not classify, timed
//! against the rest on one CPU thread (the CPU's d4 search for both).
//!
//! `cargo run --release -p nqueens-gpu --example symmetric_share -- 16 17 18`

use std::time::Instant;

use nqueens::plan::D4Plan;
use nqueens::plan::Plan;

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    println!("n,constellations,symmetric,symmetric_cpu_s,other_cpu_s,symmetric_share");
    for n in if sizes.is_empty() { vec![14, 15, 16] } else { sizes } {
        let plan = D4Plan::new(n, 1).expect("a d4 plan");
        let (mut sym, mut other, mut count) = (0.0, 0.0, 0);
        for (i, sub) in plan.subproblems().iter().enumerate() {
            let symmetric = plan.constellations()[sub.constellation as usize].stabilizer() != 0;
            let t0 = Instant::now();
            std::hint::black_box(plan.solve(i, false));
            let s = t0.elapsed().as_secs_f64();
            if symmetric {
                sym += s;
                count += 1;
            } else {
                other += s;
            }
        }
        let share = sym / (sym + other);
        println!("{n},{},{count},{sym:.3},{other:.3},{share:.4}", plan.constellations().len());
    }
}

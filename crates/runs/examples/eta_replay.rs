//! Replays a count to measure its ETA without the machine's noise: times every subproblem of a
//! plan on one thread (its CPU clock), then runs the runner's schedule on T simulated threads
//! (each takes the next subproblem in the runner's order, `nqueens::parallel::shuffled`, as the
//! real runner does) and compares the ETA the bar would show (time so far × work left / work
//! done, by the plan's weights) with the time really left, at every 1% of the run from 50% to
//! 95%. The same for index order and for unit weights, to show what each part contributes.
//!
//! ```text
//! cargo run --release --example eta_replay -- ALGORITHM N [THREADS]
//! ```
//!
//! Prints one CSV row per variant:
//! `algorithm,n,threads,subproblems,cpu_seconds,order,weights,max_abs_rel_error,median_abs_rel_error`.
//! Counting is on one thread, so the cost is the one-thread time of the board.

use std::collections::BinaryHeap;

use nqueens::parallel::shuffled;
use nqueens::{Algorithm, plan::PlanSpec};
use nqueens_runs::estimate::thread_cpu_seconds;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: eta_replay ALGORITHM N [THREADS]";
    let (Some(algorithm), Some(n)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let algorithm: Algorithm = algorithm.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let n: u32 = n.parse().unwrap_or_else(|_| {
        eprintln!("{usage}: N '{n}' is not a board size");
        std::process::exit(2)
    });
    let threads: usize = args.get(2).map_or(2, |t| t.parse().unwrap_or(2)).max(1);
    // The plan the command line would run on `threads` threads.
    let plan = PlanSpec { threads, ..PlanSpec::new(algorithm, n) }.build().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let len = plan.len();
    let weights: Vec<f64> = (0..len).map(|i| plan.weight(i)).collect();
    let times: Vec<f64> = (0..len)
        .map(|i| {
            let t0 = thread_cpu_seconds();
            std::hint::black_box(plan.solve(i, false));
            thread_cpu_seconds() - t0
        })
        .collect();
    let cpu: f64 = times.iter().sum();
    println!(
        "algorithm,n,threads,subproblems,cpu_seconds,order,weights,max_abs_rel_error,median_abs_rel_error"
    );
    let ones = vec![1.0; len];
    let shuffled: Vec<usize> = shuffled(len).into_iter().map(|p| p as usize).collect();
    let index: Vec<usize> = (0..len).collect();
    for (order_name, order) in [("shuffled", &shuffled), ("index", &index)] {
        for (weights_name, w) in [("plan", &weights), ("one", &ones)] {
            let (max, median) = replay(&times, w, order, threads);
            println!(
                "{},{n},{threads},{len},{cpu:.3},{order_name},{weights_name},{max:.4},{median:.4}",
                plan.algorithm()
            );
        }
    }
}

/// Returns the worst and the median |ETA − time left| / time left at 50%, 51%, …, 95% of the
/// simulated run of `times` in `order` on `threads` threads, weighed by `weights`.
fn replay(times: &[f64], weights: &[f64], order: &[usize], threads: usize) -> (f64, f64) {
    // (end time, weight) of each subproblem: each thread takes the next one when it is free.
    let mut free: BinaryHeap<std::cmp::Reverse<(u64, usize)>> =
        (0..threads).map(|t| std::cmp::Reverse((0, t))).collect();
    let mut ends: Vec<(f64, f64)> = Vec::with_capacity(order.len());
    for &i in order {
        let std::cmp::Reverse((at, t)) = free.pop().expect("threads > 0");
        let end = f64::from_bits(at) + times[i];
        ends.push((end, weights[i]));
        free.push(std::cmp::Reverse((end.to_bits(), t)));
    }
    ends.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total = ends.last().map_or(0.0, |e| e.0);
    let work: f64 = weights.iter().sum();
    let mut errors = Vec::new();
    let (mut k, mut done) = (0, 0.0);
    for percent in 50..=95 {
        let now = total * f64::from(percent) / 100.0;
        while k < ends.len() && ends[k].0 <= now {
            done += ends[k].1;
            k += 1;
        }
        let left = total - now;
        let eta = if done > 0.0 { now * (work - done) / done } else { f64::INFINITY };
        errors.push(((eta - left) / left).abs());
    }
    errors.sort_by(f64::total_cmp);
    (errors.last().copied().unwrap_or(0.0), errors[errors.len() / 2])
}

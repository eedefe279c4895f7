//! Checks how well a join unit's first part predicts its whole time, as the plan's sample uses
//! it: for COUNT random units of the board (xorshift, seeded), solves each in steps until the
//! first part's share (the setup and one part of the matcher, [`nqueens::plan::Plan::solve_in_steps`]),
//! then solves it whole, both timed by the thread's CPU clock (the partial run once untimed
//! before, so that both find the thread's buffers grown, unless an argument `cold` follows;
//! `partial` last: the partial runs only, for boards whose units take minutes). `cargo run --release --example
//! join_steps -- N COUNT [SEED]` prints a line per unit: index, the pair counts of the cost model
//! (P_E + P_W), the CPU seconds to the first share and that share, the prediction (seconds /
//! share) and the whole unit's CPU seconds; then the median ratio prediction / whole and the
//! share of the whole time the partial runs took.

use std::ops::ControlFlow;

use nqueens::algo::join::cost;
use nqueens::{algo::join::JoinPlan, plan::Plan};
use nqueens_runs::estimate::thread_cpu_seconds;

fn main() {
    let usage = "usage: join_steps N COUNT [SEED] [cold] [partial]";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let only_partial = args.last().is_some_and(|a| a == "partial");
    if only_partial {
        args.pop();
    }
    let warm = args.last().is_none_or(|a| a != "cold");
    if !warm {
        args.pop();
    }
    let args: Vec<u64> = args.iter().map(|a| a.parse().expect(usage)).collect();
    let (n, count, mut rng) = match args[..] {
        [n, c] => (n as u32, c as usize, 1u64),
        [n, c, s] => (n as u32, c as usize, s | 1),
        _ => panic!("{usage}"),
    };
    let plan = JoinPlan::new(n).expect("the table fits");
    let (mut ratios, mut partial, mut whole_sum, mut predicted_sum) = (Vec::new(), 0.0, 0.0, 0.0);
    for _ in 0..count {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let index = (rng % plan.len() as u64) as usize;
        let pairs = if plan.table().is_row_sets() {
            0
        } else {
            let (e, w) = cost::pair_counts(&plan, index);
            e + w
        };
        // Once untimed, so that the thread's buffers have grown to the unit's size (as they
        // have in a run, where a thread solves one unit after another), then timed.
        let mut share = 0.0;
        let mut run_partial = || {
            let t0 = thread_cpu_seconds();
            let _ = plan.solve_in_steps(index, false, &mut |s| {
                share = s;
                if s > 0.0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            thread_cpu_seconds() - t0
        };
        if warm {
            run_partial();
        }
        let first = run_partial();
        let t1 = thread_cpu_seconds();
        if !only_partial {
            std::hint::black_box(plan.solve(index, false));
        }
        let whole = thread_cpu_seconds() - t1;
        let predicted = if share > 0.0 { first / share } else { first };
        println!(
            "unit={index} pairs={pairs} first_seconds={first:.4} share={share:.4} predicted={predicted:.4} whole={whole:.4}"
        );
        if whole > 0.05 {
            ratios.push(predicted / whole);
        }
        partial += first;
        predicted_sum += predicted;
        whole_sum += whole;
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN);
    println!(
        "n={n} units={count} median_predicted_over_whole={median:.3} (of {} units over 0.05 s; range {:.3}..{:.3}) sum_predicted_over_sum_whole={:.3} partial_share_of_time={:.4}",
        ratios.len(),
        ratios.first().copied().unwrap_or(f64::NAN),
        ratios.last().copied().unwrap_or(f64::NAN),
        predicted_sum / whole_sum,
        partial / whole_sum
    );
}

//! Estimates of a long run before it starts: the CPU time of a whole plan from a random sample
//! of its subproblems counted on this machine, and the memory one process needs.
//!
//! # CPU time
//! Subproblems are drawn uniformly at random without replacement and each is counted on the
//! calling thread, timed by the thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`, so other load on
//! a shared machine barely matters), until the time budget is spent (at least
//! [`MIN_SAMPLE`] subproblems, at most all). The total is the ratio estimator against the shard
//! planner's cost probe ([`crate::shard::estimate`], known for every subproblem in
//! microseconds): T = (Σ sampled seconds / Σ sampled probes) × Σ all probes, which cancels most
//! of the 10× spread between subproblems of row-prefix plans; for plans without prefixes (the
//! join) every probe is 1 and it is the plain mean × count. Its standard error is the usual
//! first-order one (Cochran, *Sampling Techniques*, 3rd ed., §6.3):
//! N·√((1 − m/N)·s²/m), with s² the sample variance of the residuals tᵢ − R·xᵢ; the estimate is
//! exact (error 0) when every subproblem was counted.
//!
//! A subproblem of a plan that can stop one midway ([`Plan::stops_midway`]: mirror and d4,
//! whose subproblems take minutes from n ≈ 28) is counted for at most its share of the budget
//! (budget / [`MIN_SAMPLE`]), in its steps ([`Plan::solve_in_steps`]), and its time is the time
//! spent over the share of its work the finished steps stand for: the budget is honoured at
//! any n, and [`CpuEstimate::counted_share`] says how little was measured (the first steps in
//! lexicographic order, not a random part: a rough estimate).

use std::time::{Duration, Instant};

use crate::shard::estimate as probe;
use nqueens::Plan;

/// The fewest subproblems a sample counts, whatever the budget.
pub const MIN_SAMPLE: usize = 8;

/// An estimate of the CPU time of counting every subproblem of a plan on one core.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuEstimate {
    /// The plan's number of subproblems N.
    pub subproblems: usize,
    /// How many were counted, m (1 ≤ m ≤ N; 0 only for an empty plan).
    pub sampled: usize,
    /// The estimated CPU seconds of all N subproblems on one core of this machine.
    pub cpu_seconds: f64,
    /// Its standard error in CPU seconds (0 when m = N).
    pub std_error: f64,
    /// The CPU seconds the sample itself took.
    pub sample_seconds: f64,
    /// The mean share of its work that each sampled subproblem was counted for: 1 when every
    /// one ran to its end, less when some were stopped at their share of the budget and
    /// extrapolated (see the module docs).
    pub counted_share: f64,
}

/// Returns the CPU seconds this thread has run, by its CPU clock (`CLOCK_THREAD_CPUTIME_ID`,
/// Unix); wall-clock seconds since an arbitrary start where that clock is missing (other
/// systems: the estimate then counts other load on the machine too).
pub fn thread_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Returns the estimated CPU time of counting all of `plan` on one core (see the module docs):
/// counts random subproblems (drawn with the xorshift generator seeded by `seed`) on this thread
/// until `budget` CPU seconds are spent, at least [`MIN_SAMPLE`] of them (or all).
pub fn cpu_time(plan: &dyn Plan, budget: Duration, seed: u64) -> CpuEstimate {
    let n = plan.len();
    let probes: Vec<f64> = (0..n).map(|i| probe(plan, i) as f64).collect();
    let all_probes: f64 = probes.iter().sum();
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = seed | 1;
    let mut next = || {
        // xorshift64 (Marsaglia, 2003): enough to draw a sample, the same for the same seed.
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let start = thread_cpu_seconds();
    // Each subproblem's share of the budget, in CPU seconds (at least a millisecond).
    let cap = (budget.as_secs_f64() / MIN_SAMPLE as f64).max(1e-3);
    let (mut times, mut shares) = (Vec::new(), 0.0);
    let mut sample_seconds = 0.0;
    for m in 0..n {
        // Partial Fisher–Yates shuffle: order[m] is a uniform draw among those not yet taken.
        let pick = m + (next() % (n - m) as u64) as usize;
        order.swap(m, pick);
        let t0 = thread_cpu_seconds();
        let share = if plan.stops_midway() {
            // Stopped at its share of the budget, once a step has finished.
            let mut done = 0.0;
            let whole = plan.solve_in_steps(order[m], false, &mut |step| {
                done += step;
                if done > 0.0 && thread_cpu_seconds() - t0 >= cap {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
            if whole.is_some() { 1.0 } else { f64::min(done, 1.0) }
        } else {
            std::hint::black_box(plan.solve(order[m], false));
            1.0
        };
        let spent = thread_cpu_seconds() - t0;
        sample_seconds += spent;
        times.push(spent / share);
        shares += share;
        if times.len() >= MIN_SAMPLE && thread_cpu_seconds() - start >= budget.as_secs_f64() {
            break;
        }
    }
    let m = times.len();
    if m == 0 {
        return CpuEstimate {
            subproblems: n,
            sampled: 0,
            cpu_seconds: 0.0,
            std_error: 0.0,
            sample_seconds,
            counted_share: 1.0,
        };
    }
    let counted_share = shares / m as f64;
    let x: Vec<f64> = order[..m].iter().map(|&i| probes[i]).collect();
    let ratio = times.iter().sum::<f64>() / x.iter().sum::<f64>();
    let cpu_seconds = ratio * all_probes;
    let std_error = if (m >= n && counted_share >= 1.0) || m < 2 {
        0.0
    } else {
        let s2 = times.iter().zip(&x).map(|(t, x)| (t - ratio * x).powi(2)).sum::<f64>() / (m - 1) as f64;
        n as f64 * ((1.0 - m as f64 / n as f64) * s2 / m as f64).sqrt()
    };
    CpuEstimate { subproblems: n, sampled: m, cpu_seconds, std_error, sample_seconds, counted_share }
}

/// Bytes a counting process needs besides its tables: the program, thread stacks, the plan's
/// subproblem list and the shard planner's costs (measured peak RSS of `count 18 --shard 0/16`
/// is about 14 MiB; this leaves room).
pub const BASE_BYTES: u64 = 64 << 20;

/// Bytes per subproblem besides the plan's own list: the shard planner's costs and
/// assignment, the runner's order and weights, the run's id lists and a shard's subtotals
/// (measured: 80–90 bytes a subproblem in all with the list, mirror n = 18 and d4 n = 20 at
/// K = 4,096, 1.1–1.2 M subproblems).
pub const PER_SUBPROBLEM_BYTES: u64 = 64;

/// Returns the bytes one process counting `plan` on `threads` worker threads needs (an
/// estimate to request from a batch system, an upper bound of the peak measured, rounded up): what
/// the plan's searches need ([`Plan::search_bytes`]: the join's quarter table and every thread's
/// working buffers, d4's room for every start constellation, reserved whole: 573 MiB at n = 63);
/// [`BASE_BYTES`]; and each subproblem's entry in the plan's list ([`Plan::subproblem_bytes`])
/// plus [`PER_SUBPROBLEM_BYTES`]. At n = 24, join `--shard 0/4096` peaked at 1.01 GiB on 1 thread
/// and 1.30 GiB on 2 (results/2026-12-01-join-final/); this gives 1.17 and 1.52 GiB. d4
/// `count 63 -j 1` peaked at 549 MiB (this gives 816), mirror n = 18 at K = 4,096 at 93 MiB (this
/// gives 193; results/2026-12-02-hardening.md).
pub fn memory_bytes(plan: &dyn Plan, threads: usize) -> u64 {
    let per_subproblem = PER_SUBPROBLEM_BYTES + plan.subproblem_bytes() as u64;
    plan.search_bytes(threads)
        .saturating_add(BASE_BYTES)
        .saturating_add(per_subproblem.saturating_mul(plan.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::MirrorPlan;

    #[test]
    fn a_full_sample_is_exact_and_a_partial_one_has_an_error() {
        let plan = MirrorPlan::new(9, 2).unwrap();
        let all = cpu_time(&plan, Duration::from_secs(3600), 7);
        assert_eq!((all.sampled, all.subproblems, all.std_error), (plan.len(), plan.len(), 0.0));
        assert!((all.cpu_seconds - all.sample_seconds).abs() <= 1e-9 * all.sample_seconds.max(1.0));
        let part = cpu_time(&MirrorPlan::new(12, 3).unwrap(), Duration::ZERO, 7);
        assert_eq!(part.sampled, MIN_SAMPLE);
        assert!(part.cpu_seconds > 0.0 && part.std_error > 0.0, "{part:?}");
        // The same seed draws the same subproblems.
        let again = cpu_time(&MirrorPlan::new(12, 3).unwrap(), Duration::ZERO, 7);
        assert_eq!(again.sampled, part.sampled);
    }

    #[test]
    fn memory_counts_the_plan_its_searches_and_threads() {
        let d4 = nqueens::D4Plan::new(20, 1).unwrap();
        let entry = PER_SUBPROBLEM_BYTES + d4.subproblem_bytes() as u64;
        assert_eq!(memory_bytes(&d4, 8), BASE_BYTES + d4.search_bytes(8) + d4.len() as u64 * entry);
        let join = nqueens::JoinPlan::new(16).unwrap();
        let one = memory_bytes(&join, 1);
        assert!(one > BASE_BYTES && memory_bytes(&join, 3) > one);
        let mirror = MirrorPlan::new(12, 3).unwrap();
        assert_eq!(memory_bytes(&mirror, 4), memory_bytes(&mirror, 1));
    }
}

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

use crate::algo::join;
use crate::shard::estimate as probe;
use crate::{Algorithm, Plan};

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

/// Returns the CPU seconds this thread has run, by its CPU clock; wall-clock seconds since an
/// arbitrary start where that clock is missing.
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64()
    }
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

/// Random root-to-leaf paths per subproblem that the mirror and d4 plans' weights
/// ([`crate::Plan::weight`]) average: with 128 paths the estimate's logarithm correlated 0.92–0.95
/// with the subproblem's CPU time (mirror n = 16–17 at depth 4, d4 n = 16–18 at depth 1, every
/// subproblem timed); 64 halve the cost (about 5 µs a subproblem at n = 18).
pub const WEIGHT_PATHS: u32 = 64;

/// The power of the estimated tree size that the mirror and d4 weights take: a subproblem's CPU
/// time grew as the 0.85–0.86th power of its [`tree_size`] (log–log least squares over every
/// subproblem of mirror n = 16–17 and d4 n = 16–18); bigger trees are pruned more by the
/// look-ahead. In a replay of those runs' measured times it cut the ETA's worst error from 50%
/// to 95% of the run from 9.3% to 7.2% (d4 n = 18) and from 1.4% to 0.8% (mirror n = 17).
pub const WEIGHT_POWER: f64 = 0.86;

/// Returns the weight of a subproblem whose search tree is estimated at `tree_size` nodes:
/// its [`WEIGHT_POWER`]th power.
pub fn weight_of_tree(tree_size: f64) -> f64 {
    tree_size.powf(WEIGHT_POWER)
}

/// Random paths a plan's weights may take in all (about 0.6 s of one core at ~30 rows a path):
/// a plan of more than 65,536 subproblems takes fewer per subproblem ([`weight_paths`]).
pub const WEIGHT_BUDGET: usize = 1 << 22;

/// The smallest board whose plans weigh their subproblems ([`crate::Plan::weight`]): below it
/// a count takes seconds at most, and weighing cost more than it gave (1.5% of the CPU time of
/// mirror n = 16, 6% of d4's, 3% of the join's, one thread; about 7 times less per step of n),
/// while every weight 1 in the runner's shuffled order keeps the ETA within 10% anyway.
pub const WEIGHTS_FROM: u32 = 17;

/// Returns the random paths per subproblem of the weights of a plan of `subproblems`
/// subproblems of the `n`×`n` board: [`WEIGHT_PATHS`], fewer where [`WEIGHT_BUDGET`] would be
/// exceeded, and 0 (every weight 1) below [`WEIGHTS_FROM`] or where the budget would leave
/// fewer than 16: the estimate's heavy tail would then add more noise than it takes away, and
/// plans that large (d4 from n = 23: 281,098 subproblems) are sampled evenly enough by the
/// runner's shuffled order alone.
pub fn weight_paths(n: u32, subproblems: usize) -> u32 {
    let paths = (WEIGHT_BUDGET / subproblems.max(1)).min(WEIGHT_PATHS as usize) as u32;
    if paths < 16 || n < WEIGHTS_FROM { 0 } else { paths }
}

/// Returns an unbiased estimate of the number of nodes of the search tree below `root` (the
/// root included), by D. E. Knuth's random probing ("Estimating the efficiency of backtrack
/// programs", Math. Comp. 29, 1975): along a path that takes a uniformly random child at each
/// node, the products d₀, d₀d₁, d₀d₁d₂, … of the numbers of children add up to an unbiased
/// estimate of the tree's size; `paths` such paths are averaged. The random choices come from
/// xorshift64 seeded by `seed`, so the estimate is a pure function of its arguments.
///
/// `children(node)` returns the node's children as the set bits of a mask (0 for a leaf);
/// `child(node, bit)` returns the child of that bit.
pub fn tree_size<S>(
    root: S,
    paths: u32,
    seed: u64,
    mut children: impl FnMut(&S) -> u64,
    mut child: impl FnMut(&S, u64) -> S,
) -> f64
where
    S: Copy,
{
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut total = 0.0;
    for _ in 0..paths {
        let (mut node, mut product, mut sum) = (root, 1.0f64, 1.0f64);
        loop {
            let mut free = children(&node);
            if free == 0 {
                break;
            }
            let degree = free.count_ones();
            product *= f64::from(degree);
            sum += product;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            for _ in 0..rng % u64::from(degree) {
                free &= free - 1;
            }
            node = child(&node, free & free.wrapping_neg());
        }
        total += sum;
    }
    total / f64::from(paths.max(1))
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

/// Returns the bytes one process counting `algorithm` on the `n`×`n` board with `subproblems`
/// subproblems on `threads` worker threads needs (an estimate to request from a batch system,
/// an upper bound of the peak measured, rounded up): where the join applies, its quarter table
/// ([`join::quarter::estimated_bytes`]) and every thread's working buffers
/// ([`join::per_thread_bytes`]); for d4, room for every start constellation
/// ([`crate::algo::d4::constellation::max_constellations`], reserved whole: 573 MiB at
/// n = 63); [`BASE_BYTES`]; and each subproblem's entry in the plan's list plus
/// [`PER_SUBPROBLEM_BYTES`]. At n = 24, join `--shard 0/4096` peaked at 1.01 GiB on 1 thread
/// and 1.30 GiB on 2 (results/2026-12-01-join-final/); this gives 1.17 and 1.52 GiB. d4
/// `count 63 -j 1` peaked at 549 MiB (this gives 816), mirror n = 18 at K = 4,096 at 93 MiB (this
/// gives 193; results/2026-12-02-hardening.md).
pub fn memory_bytes(algorithm: Algorithm, n: u32, subproblems: usize, threads: usize) -> u64 {
    use crate::algo::d4::constellation::{Constellation, D4Subproblem, max_constellations};
    let (tables, entry) = match algorithm {
        Algorithm::Join if n >= join::MIN_N => (
            join::quarter::estimated_bytes(n / 2)
                .saturating_add(join::per_thread_bytes(n / 2).saturating_mul(threads.max(1) as u64)),
            std::mem::size_of::<u64>(),
        ),
        Algorithm::D4 if n >= 2 => (
            (max_constellations(n) as u64).saturating_mul(std::mem::size_of::<Constellation>() as u64),
            std::mem::size_of::<D4Subproblem>(),
        ),
        _ => (0, std::mem::size_of::<crate::split::Subproblem>()),
    };
    let per_subproblem = PER_SUBPROBLEM_BYTES + entry as u64;
    tables.saturating_add(BASE_BYTES).saturating_add(per_subproblem.saturating_mul(subproblems as u64))
}

/// Returns Spearman's rank correlation of `pairs` (x, y), ties broken by position: for tests
/// of how well an estimate orders what it estimates.
#[cfg(test)]
pub(crate) fn rank_correlation(pairs: &[(f64, f64)]) -> f64 {
    let ranks = |key: &dyn Fn(&(f64, f64)) -> f64| {
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by(|&a, &b| key(&pairs[a]).total_cmp(&key(&pairs[b])));
        let mut rank = vec![0.0; pairs.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r as f64;
        }
        rank
    };
    let (rx, ry) = (ranks(&|p| p.0), ranks(&|p| p.1));
    let m = pairs.len() as f64;
    let d2: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - b).powi(2)).sum();
    1.0 - 6.0 * d2 / (m * (m * m - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MirrorPlan;

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
    fn tree_sizes_are_exact_on_uniform_trees_and_close_on_queens() {
        // A tree where every node at depth d < 3 has 4 children: 1 + 4 + 16 + 64 = 85 nodes,
        // whatever path is taken.
        let uniform = tree_size(0u32, 5, 1, |&d| if d < 3 { 0b1111 } else { 0 }, |&d, _| d + 1);
        assert_eq!(uniform, 85.0);
        // The unpruned 8-queens tree has 2,057 nodes (the empty board and every partial
        // placement); 20,000 paths land within 5%, and the same seed gives the same estimate.
        let full = crate::kernel::full_mask(8);
        let free = |&(c, l, r): &(u64, u64, u64)| full & !(c | l | r);
        let place = |&(c, l, r): &(u64, u64, u64), b: u64| (c | b, (l | b) << 1, (r | b) >> 1);
        let mut exact = 0u64;
        fn nodes(full: u64, c: u64, l: u64, r: u64, count: &mut u64) {
            *count += 1;
            let mut f = full & !(c | l | r);
            while f != 0 {
                let b = f & f.wrapping_neg();
                f ^= b;
                nodes(full, c | b, (l | b) << 1, (r | b) >> 1, count);
            }
        }
        nodes(full, 0, 0, 0, &mut exact);
        assert_eq!(exact, 2057);
        let estimate = tree_size((0, 0, 0), 20_000, 7, free, place);
        assert!((estimate / exact as f64 - 1.0).abs() < 0.05, "{estimate}");
        assert_eq!(estimate, tree_size((0, 0, 0), 20_000, 7, free, place));
    }

    #[test]
    fn memory_counts_the_join_table_its_threads_and_the_plan() {
        use crate::algo::d4::constellation::{Constellation, D4Subproblem, max_constellations};
        let constellations = (max_constellations(20) * std::mem::size_of::<Constellation>()) as u64;
        assert_eq!(memory_bytes(Algorithm::D4, 20, 0, 8), BASE_BYTES + constellations);
        let entry = (PER_SUBPROBLEM_BYTES as usize + std::mem::size_of::<D4Subproblem>()) as u64;
        assert_eq!(memory_bytes(Algorithm::D4, 20, 1000, 1), BASE_BYTES + constellations + 1000 * entry);
        // d4 at n = 63 reserves room for 1,973,097 constellations: 573 MiB of the 816.
        assert!(memory_bytes(Algorithm::D4, 63, 1_569_630, 1) >> 20 >= 800);
        let join = memory_bytes(Algorithm::Join, 20, 0, 1);
        assert_eq!(join, BASE_BYTES + join::quarter::estimated_bytes(10) + join::per_thread_bytes(10));
        assert_eq!(memory_bytes(Algorithm::Join, 20, 0, 3), join + 2 * join::per_thread_bytes(10));
        assert!(memory_bytes(Algorithm::Join, 24, 0, 1) > join);
    }
}

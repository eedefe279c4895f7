//! Estimates of a long run before it starts: the plan to sample ([`sample_plan`]), the CPU time
//! of a whole plan from a random sample of its subproblems counted on this machine, and the
//! memory one process needs.
//!
//! # CPU time
//! Double sampling for stratification (Cochran, *Sampling Techniques*, 3rd ed., §12.2), with a
//! ratio estimator within each stratum (§6.10):
//!
//! 1. **Weighed:** up to [`WEIGHED`] subproblems drawn uniformly at random without replacement
//!    (all of them in smaller plans) get a cheap predictor x of their cost: the shard planner's
//!    probe for row-prefix plans ([`crate::shard::estimate`]), else [`Plan::sample_weight`]
//!    (the join's pair counts, the search-tree estimate of mirror and d4), microseconds each,
//!    for at most a tenth of the budget. They are sorted by x into up to [`MAX_STRATA`] strata
//!    of equal size, so each stratum's share W_h of the plan is known.
//! 2. **Counted:** subproblems are taken in the weighed sample's random order within their
//!    stratum, the stratum each time the one furthest behind its Neyman target
//!    n_h ∝ W_h·√x̄_h (spread ∝ x̄_h and cost ∝ x̄_h; at least 2 each first), and counted on
//!    `threads` threads, each timed by its thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`, so
//!    other load on a shared machine barely matters), until every thread has spent the budget
//!    less the weighing's time (at least [`MIN_SAMPLE`] subproblems, at most all). Each thread
//!    first counts the weighed subproblem of the largest predictor to its share, untimed
//!    (but within its budget), so that its buffers have grown as they have in a run; a short
//!    subproblem is counted after its neighbour, untimed ([`SHORT`]), so that it finds the
//!    caches as in a run.
//! 3. **Estimate:** the mean CPU time per subproblem is Σ_h W_h·ȳ_h with ȳ_h = (Σt/Σx)_h · x̄_h
//!    (x̄_h over the weighed ones), times the plan's N subproblems; its variance
//!    Σ_h W_h²·s_dh²·(1/n_h − 1/m_h) + (1/m − 1/N)·Σ_h W_h·(S_yh² + (ȳ_h − ȳ)²), with s_dh² the
//!    variance of the residuals t − R_h·x, S_yh² that of the times, m_h and m the weighed
//!    counts (strata with fewer than 2 counted are merged with a neighbour first). The
//!    estimate is exact (error 0) when every subproblem was counted. The interval is sampling
//!    error only: the machine's own speed drifting during the sample is not in it (two seeds of
//!    `plan 27` differed by 2.3 of their combined standard errors; at n = 18–21, where thousands
//!    of units are counted, the estimates landed within −6% to +10% of the whole count while
//!    the interval said under 1%, results/2026-12-02-plan/).
//!
//! A subproblem of a plan that can stop one midway ([`Plan::stops_midway`]: mirror and d4, whose
//! subproblems take minutes from n ≈ 28, and the join, whose units take seconds from n = 24) is
//! counted for at most [`UNIT_SHARE`] of the budget (at least [`MIN_UNIT_SECONDS`], or
//! 1/[`MIN_SAMPLE`] of a shorter budget) once a step has finished, in its steps
//! ([`Plan::solve_in_steps`]), and its time is the time spent over the share of its work the
//! finished steps stand for: the budget is honoured at any n, and
//! [`CpuEstimate::counted_share`] says how much was measured. The join's steps are parts of its
//! matcher's blocks dealt round robin (each part meets every kind of block) after the unit's
//! setup, so one part stands for the whole unit well (within 10–15% of a unit's time at
//! n = 24–26, results/2026-12-02-plan/); mirror's and d4's are the first steps in
//! lexicographic order, not a random part: a rough estimate.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::shard::{estimate as probe, shard_spec};
use nqueens::arch::Level;
use nqueens::plan::{Plan, PlanSpec};
use nqueens::{Algorithm, Error};

/// The fewest subproblems a sample counts, whatever the budget.
pub const MIN_SAMPLE: usize = 8;

/// The most subproblems the sample weighs (step 1 of the module docs).
pub const WEIGHED: usize = 1 << 16;

/// The most strata (step 1 of the module docs).
pub const MAX_STRATA: usize = 8;

/// The share of the budget after which a subproblem that has finished a step is stopped and
/// extrapolated (see the module docs).
pub const UNIT_SHARE: f64 = 1.0 / 128.0;

/// The least CPU seconds a sampled subproblem runs before it may be stopped (whole if shorter):
/// a join unit of n = 24 (0.1–0.6 s) stopped after its first part, its setup a fifth to a half
/// of it, overestimated its time by 7–12% (median) with a wide spread, so that 5 s samples of
/// n = 24 ranged 4.2–5.5 CPU-days against about 4.0 (found by a review); at n = 26–27 a unit's
/// first part is a twentieth of it and stands for it within a few percent.
pub const MIN_UNIT_SECONDS: f64 = 0.25;

/// Subproblems shorter than this many CPU seconds are counted after their neighbour (index − 1),
/// untimed, where the thread's last one ran whole and was that short: the runner takes neighbours in blocks
/// of up to 64 (they share quarter lists and prefixes, so a unit finds them in cache), and
/// short units counted alone, cold, took 11–17% longer than in a whole count at n = 18–19
/// (results/2026-12-02-plan/accuracy-197242a.csv: estimate / count 1.11–1.17 at n = 18, 1.12–1.16
/// at 19, with a stated error under 1%). Longer units barely notice.
pub const SHORT: f64 = 0.01;

/// An estimate of the CPU time of counting every subproblem of a plan on one core.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuEstimate {
    /// The plan's number of subproblems N.
    pub subproblems: usize,
    /// How many were counted, m (1 ≤ m ≤ N; 0 only for an empty plan).
    pub sampled: usize,
    /// How many were weighed (step 1 of the module docs).
    pub weighed: usize,
    /// The strata the estimate used (after merging those counted fewer than twice).
    pub strata: usize,
    /// The estimated CPU seconds of all N subproblems on one core of this machine.
    pub cpu_seconds: f64,
    /// Its standard error in CPU seconds (0 when m = N).
    pub std_error: f64,
    /// The CPU seconds the sample itself took, over every thread.
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
    if let Some(seconds) = crate::sys::thread_cpu_seconds() {
        return seconds;
    }
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
}

/// Returns [`cpu_time_on`] on one thread (the calling one's pool of one).
///
/// # Panics
/// If the thread cannot be started.
pub fn cpu_time(plan: &dyn Plan, budget: Duration, seed: u64) -> CpuEstimate {
    cpu_time_on(plan, budget, seed, 1).expect("one thread starts")
}

/// Returns the estimated CPU time of counting all of `plan` on one core (see the module docs):
/// weighs and counts random subproblems (drawn with the xorshift generator seeded by `seed`)
/// on `threads` threads until each has spent `budget` CPU seconds, at least [`MIN_SAMPLE`]
/// subproblems (or all).
///
/// # Errors
/// [`nqueens::Error`] if the threads cannot be started ([`nqueens::parallel::pool`]).
pub fn cpu_time_on(
    plan: &dyn Plan,
    budget: Duration,
    seed: u64,
    threads: usize,
) -> Result<CpuEstimate, nqueens::Error> {
    let n = plan.len();
    let budget = budget.as_secs_f64();
    let mut next = xorshift(seed);
    // Step 1: the weighed sample, in random order, with its predictors.
    let start = thread_cpu_seconds();
    let drawn = draw(n, WEIGHED.min(n), &mut next);
    let prefixes = n > 0 && plan.prefix(0).is_some();
    let mut weighed: Vec<(usize, f64)> = Vec::with_capacity(drawn.len());
    for &i in &drawn {
        let x = if prefixes { probe(plan, i) as f64 } else { plan.sample_weight(i) };
        weighed.push((i, x.max(f64::MIN_POSITIVE)));
        if weighed.len() >= 4 * MAX_STRATA && thread_cpu_seconds() - start >= budget / 10.0 {
            break;
        }
    }
    let strata = stratify(&weighed);
    // What the weighing took comes off each thread's counting budget, so the whole sample
    // spends about `budget` of wall-clock time.
    let counting = (budget - (thread_cpu_seconds() - start)).max(0.0);
    // Step 2: the counted sample.
    let shared = Mutex::new(Sampler::new(&strata));
    // At least MIN_UNIT_SECONDS, unless the fewest the sample counts would not fit the budget.
    let cap = (budget * UNIT_SHARE).max(MIN_UNIT_SECONDS.min(budget / MIN_SAMPLE as f64)).max(1e-3);
    // The subproblem of the largest predictor, counted once untimed on each thread before the
    // sample (to its share of the budget), so that the thread's buffers have grown as in a run, where a
    // thread solves one subproblem after another: a cold first unit of the join at n = 26 took
    // 3.5 s to its first step against 0.45 s warm.
    let warm_up = weighed.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|u| u.0);
    nqueens::parallel::on_threads(threads, "nqueens-plan", |_| {
        let begun = thread_cpu_seconds();
        // Whether the last subproblem this thread counted ran whole and short (see SHORT).
        let mut short = false;
        // Counts subproblem i on this thread and returns the share of its work counted: stopped
        // at its share of the budget (`cap`), once a step has finished, where it can stop.
        let count = |i: usize| {
            // What a count with the whole table never does (a sample's units loading their
            // own quarter lists, Plan::prepare) is left out of every clock.
            plan.prepare(i);
            if !plan.stops_midway() {
                std::hint::black_box(plan.solve(i, false));
                return 1.0;
            }
            let t0 = thread_cpu_seconds();
            let mut done = 0.0;
            let whole = plan.solve_in_steps(i, false, &mut |step| {
                done += step;
                if done > 0.0 && thread_cpu_seconds() - t0 >= cap {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
            if whole.is_some() { 1.0 } else { f64::min(done, 1.0) }
        };
        if let Some(i) = warm_up.filter(|_| plan.stops_midway() && n > MIN_SAMPLE) {
            count(i);
        }
        loop {
            let Some((h, i, x)) = shared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(|taken| taken < MIN_SAMPLE || thread_cpu_seconds() - begun < counting)
            else {
                break;
            };
            if short && i > 0 {
                // Its neighbour first, untimed, as the runner's order has it (see SHORT); held
                // to the same share of the budget.
                count(i - 1);
            }
            plan.prepare(i);
            let t0 = thread_cpu_seconds();
            let share = count(i);
            let spent = thread_cpu_seconds() - t0;
            short = share >= 1.0 && spent < SHORT;
            shared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .record(h, Counted { x, t: spent / share, share, spent });
        }
    })?;
    let sampler = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(sampler.estimate(n, weighed.len()))
}

/// Returns the xorshift64 generator (G. Marsaglia, 2003) seeded by `seed`: enough to draw a
/// sample, the same for the same seed.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = seed | 1;
    move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    }
}

/// Returns `m` distinct indices below `n` in uniformly random order.
fn draw(n: usize, m: usize, next: &mut impl FnMut() -> u64) -> Vec<usize> {
    if m.saturating_mul(4) >= n {
        // Partial Fisher–Yates shuffle of every index.
        let mut all: Vec<usize> = (0..n).collect();
        for k in 0..m {
            let pick = k + (next() % (n - k) as u64) as usize;
            all.swap(k, pick);
        }
        all.truncate(m);
        return all;
    }
    // Few of many: rejection of repeats.
    let mut seen = HashSet::with_capacity(m);
    let mut out = Vec::with_capacity(m);
    while out.len() < m {
        let i = (next() % n as u64) as usize;
        if seen.insert(i) {
            out.push(i);
        }
    }
    out
}

/// One stratum of the weighed sample: its subproblems (index, predictor) in the sample's random
/// order.
#[derive(Clone, Debug, Default)]
struct Stratum {
    units: Vec<(usize, f64)>,
    mean_x: f64,
}

/// Returns the weighed sample in up to [`MAX_STRATA`] strata of equal size by predictor (one
/// where every predictor is the same), each in the sample's order.
fn stratify(weighed: &[(usize, f64)]) -> Vec<Stratum> {
    let m = weighed.len();
    let uniform = weighed.windows(2).all(|w| w[0].1 == w[1].1);
    let count = if uniform { 1 } else { MAX_STRATA.min(m / 4).max(1) };
    // Rank of each weighed subproblem by predictor (ties by sample order).
    let mut by_x: Vec<usize> = (0..m).collect();
    by_x.sort_by(|&a, &b| weighed[a].1.total_cmp(&weighed[b].1).then(a.cmp(&b)));
    let mut stratum_of = vec![0; m];
    for (rank, &k) in by_x.iter().enumerate() {
        stratum_of[k] = rank * count / m.max(1);
    }
    let mut strata = vec![Stratum::default(); count];
    for (k, &unit) in weighed.iter().enumerate() {
        strata[stratum_of[k]].units.push(unit);
    }
    for s in &mut strata {
        s.mean_x = s.units.iter().map(|u| u.1).sum::<f64>() / s.units.len().max(1) as f64;
    }
    strata
}

/// A counted subproblem: its predictor, its estimated whole CPU seconds, the share of its work
/// counted and the CPU seconds spent.
#[derive(Clone, Copy, Debug)]
struct Counted {
    x: f64,
    t: f64,
    share: f64,
    spent: f64,
}

/// The counted sample being drawn from the strata (step 2 of the module docs).
struct Sampler {
    strata: Vec<Stratum>,
    /// Neyman targets, in proportion.
    target: Vec<f64>,
    /// Subproblems handed out per stratum.
    taken: Vec<usize>,
    counted: Vec<Vec<Counted>>,
}

impl Sampler {
    fn new(strata: &[Stratum]) -> Sampler {
        let total: usize = strata.iter().map(|s| s.units.len()).sum();
        let target =
            strata.iter().map(|s| s.units.len() as f64 / total.max(1) as f64 * s.mean_x.sqrt()).collect();
        Sampler {
            strata: strata.to_vec(),
            target,
            taken: vec![0; strata.len()],
            counted: vec![Vec::new(); strata.len()],
        }
    }

    /// Returns the next subproblem to count (stratum, index, predictor), if `go(taken so far)`
    /// says to go on and any is left: 2 from each stratum first, then from the stratum furthest
    /// behind its target.
    fn take(&mut self, go: impl FnOnce(usize) -> bool) -> Option<(usize, usize, f64)> {
        let taken: usize = self.taken.iter().sum();
        if !go(taken) {
            return None;
        }
        let open = |h: &usize| self.taken[*h] < self.strata[*h].units.len();
        let h = (0..self.strata.len()).filter(open).min_by(|&a, &b| {
            let key = |h: usize| {
                if self.taken[h] < 2 {
                    (0, self.taken[h] as f64)
                } else {
                    (1, self.taken[h] as f64 / self.target[h])
                }
            };
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })?;
        let (i, x) = self.strata[h].units[self.taken[h]];
        self.taken[h] += 1;
        Some((h, i, x))
    }

    fn record(&mut self, h: usize, c: Counted) {
        self.counted[h].push(c);
    }

    /// The estimate over `n` subproblems of which `m` were weighed (step 3 of the module docs).
    fn estimate(self, n: usize, m: usize) -> CpuEstimate {
        let all: Vec<&Counted> = self.counted.iter().flatten().collect();
        let sampled = all.len();
        let sample_seconds = all.iter().map(|c| c.spent).sum();
        let counted_share = all.iter().map(|c| c.share).sum::<f64>() / sampled.max(1) as f64;
        let empty = CpuEstimate {
            subproblems: n,
            sampled,
            weighed: m,
            strata: 0,
            cpu_seconds: 0.0,
            std_error: 0.0,
            sample_seconds,
            counted_share: if sampled == 0 { 1.0 } else { counted_share },
        };
        if sampled == 0 {
            return empty;
        }
        // Merge each stratum counted fewer than twice into its neighbour (by predictor).
        // (the weighed subproblems, the counted ones) of each group of strata.
        type Group = (Vec<(usize, f64)>, Vec<Counted>);
        let mut groups: Vec<Group> = Vec::new();
        for (s, c) in self.strata.into_iter().zip(self.counted) {
            match groups.last_mut() {
                Some(last) if last.1.len() < 2 => {
                    last.0.extend(s.units);
                    last.1.extend(c);
                }
                _ => groups.push((s.units, c)),
            }
        }
        if groups.len() > 1 && groups.last().is_some_and(|g| g.1.len() < 2) {
            let last = groups.pop().expect("two groups");
            let before = groups.last_mut().expect("one group");
            before.0.extend(last.0);
            before.1.extend(last.1);
        }
        // Per group: W_h, ȳ_h (ratio to the weighed mean predictor), the residual variance.
        let mut parts = Vec::new();
        for (units, counted) in &groups {
            let w = units.len() as f64 / m as f64;
            let mean_x = units.iter().map(|u| u.1).sum::<f64>() / units.len() as f64;
            let ratio = counted.iter().map(|c| c.t).sum::<f64>() / counted.iter().map(|c| c.x).sum::<f64>();
            let k = counted.len();
            let s2 = if k < 2 {
                0.0
            } else {
                counted.iter().map(|c| (c.t - ratio * c.x).powi(2)).sum::<f64>() / (k - 1) as f64
            };
            // The variance of the times themselves, for the weighed sample's own error.
            let mean_t = counted.iter().map(|c| c.t).sum::<f64>() / k as f64;
            let sy2 = if k < 2 {
                0.0
            } else {
                counted.iter().map(|c| (c.t - mean_t).powi(2)).sum::<f64>() / (k - 1) as f64
            };
            parts.push((w, ratio * mean_x, s2, sy2, k as f64, units.len() as f64));
        }
        let mean: f64 = parts.iter().map(|p| p.0 * p.1).sum();
        let whole = sampled >= n && counted_share >= 1.0;
        let var = if whole {
            0.0
        } else {
            // Two phases (Cochran §12.2, with the ratio residuals for the second): the counted
            // within the weighed, w_h²·s_dh²·(1/n_h − 1/m_h); the weighed within the plan,
            // (1/m − 1/N)·(Σ w_h·S_yh² + Σ w_h·(ȳ_h − ȳ)²), which is all that is left when every
            // weighed subproblem was counted.
            let second: f64 =
                parts.iter().map(|&(w, _, s2, _, k, mh)| w * w * s2 * (1.0 / k - 1.0 / mh).max(0.0)).sum();
            let spread: f64 = parts.iter().map(|&(w, y, _, sy2, ..)| w * (sy2 + (y - mean).powi(2))).sum();
            second + (1.0 / m as f64 - 1.0 / n as f64).max(0.0) * spread
        };
        CpuEstimate {
            strata: groups.len(),
            cpu_seconds: mean * n as f64,
            std_error: n as f64 * var.sqrt(),
            ..empty
        }
    }
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
/// gives 193; results/2026-12-02-hardening/).
pub fn memory_bytes(plan: &dyn Plan, threads: usize) -> u64 {
    let per_subproblem = PER_SUBPROBLEM_BYTES + plan.subproblem_bytes() as u64;
    plan.search_bytes(threads)
        .saturating_add(BASE_BYTES)
        .saturating_add(per_subproblem.saturating_mul(plan.len() as u64))
}

/// The plan a run's estimate describes and samples ([`sample_plan`]), and the seconds its setup
/// takes on this machine.
pub struct SamplePlan {
    /// The plan: the one `count --shard I/K` builds ([`shard_spec`]), or for the join at
    /// n = 26–27 one whose units load their own row sets (see [`sample_plan`]).
    pub plan: Box<dyn Plan>,
    /// The seconds a count's setup takes here: the building of this plan, plus the estimated
    /// seconds of writing the table entries it did not write ([`SamplePlan::unwritten_bytes`]).
    pub setup_seconds: f64,
    /// The bytes of quarter-table entries a count writes that building this plan did not (0
    /// but for the join at n = 26–27).
    pub unwritten_bytes: u64,
}

/// Returns the plan to describe and sample for `shards` shards of `algorithm` (concrete) on the
/// `n`×`n` board at the instruction-set `level`, and its setup time: the plan `count --shard
/// I/K` builds ([`shard_spec`]), but for the join at n = 26–27, whose quarter table (6.9
/// GB) a sample of a few units does not need: there a plan whose units load their own row
/// sets, untimed, and whose list lengths (268 MB) weigh them as the table would (`plan 27`
/// peaked at 9.8 GB; issue 32). Its setup, the walk that finds the lengths, takes the table's
/// build but the writing of its entries: a count also writes them, 6.6 GB faulted in (15 of
/// the 28 s of the h = 13 build on the 2-core VM, as system time), which is timed on a smaller
/// buffer (`fault_in_seconds`) and added. Its memory figure ([`memory_bytes`]) is still that
/// of a count with the table.
///
/// # Errors
/// As [`PlanSpec::build`]; [`Error::OutOfMemory`] if the join's list lengths do not fit.
pub fn sample_plan(algorithm: Algorithm, n: u32, shards: usize, level: Level) -> Result<SamplePlan, Error> {
    let built = Instant::now();
    let (plan, unwritten_bytes) =
        nqueens::algo::sampling_plan(&PlanSpec { level, ..shard_spec(algorithm, n, shards) })?;
    let setup_seconds = built.elapsed().as_secs_f64() + fault_in_seconds(unwritten_bytes);
    Ok(SamplePlan { plan, setup_seconds, unwritten_bytes })
}

/// Returns the seconds this process takes to write `bytes` of memory it has not touched yet
/// (the page faults and the zeroing of a table's entries): a 64 MiB buffer written, timed and
/// scaled. 0 for 0 bytes.
fn fault_in_seconds(bytes: u64) -> f64 {
    const SAMPLE: usize = 64 << 20;
    if bytes == 0 {
        return 0.0;
    }
    let t0 = Instant::now();
    let mut buffer = vec![0u8; SAMPLE];
    buffer.fill(1);
    std::hint::black_box(&buffer);
    let seconds = t0.elapsed().as_secs_f64();
    drop(buffer);
    seconds * bytes as f64 / SAMPLE as f64
}

/// The most groups of equal size a device sample counts once its size is found
/// ([`device_time`]); it stops after the second once the budget is spent.
pub const DEVICE_GROUPS: usize = 8;

/// An estimate of the wall-clock time of counting every subproblem of a plan on a
/// [`nqueens::Counter`]'s devices (and CPU threads, if it has any), from [`device_time`].
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceEstimate {
    /// The plan's number of subproblems N.
    pub subproblems: usize,
    /// How many were counted, calibration included.
    pub sampled: usize,
    /// The subproblems of each group (0 when every subproblem was counted in the calibration).
    pub group_size: usize,
    /// The groups counted at that size: 2 to [`DEVICE_GROUPS`] (0 when every subproblem was
    /// counted in the calibration).
    pub groups: usize,
    /// The estimated wall-clock seconds of all N subproblems on the counter.
    pub seconds: f64,
    /// Its standard error (0 when every subproblem was counted).
    pub std_error: f64,
    /// The wall-clock seconds the sample took.
    pub sample_seconds: f64,
}

/// Returns the estimated wall-clock time of counting all of `plan` on `counter` (its devices,
/// such as GPUs, and its CPU threads), from random subproblems (drawn with the xorshift
/// generator seeded by `seed`, without replacement) counted on it for about `budget`.
///
/// A device counts many subproblems at once and times none of them alone, so the sample is
/// counted in groups, each one run of the counter timed by the wall clock: first groups of 1,
/// 4, 16, … subproblems until one takes 1/16 of the budget (a group too small to fill the
/// device would say a subproblem costs more than it does in a whole count; these groups are
/// not used, but the last, which is the first group of its size), then up to
/// [`DEVICE_GROUPS`] groups of that size, each of which estimates the whole as its time × N /
/// its size, stopping after the second once `budget` is spent (issue 40: where one subproblem
/// takes longer than the budget, 8 of them at n = 22 on pocl took 170 s for 2). The estimate is
/// their mean, its standard error their spread over √g (sampling error and the device's own
/// variation between groups; ramp-up of each launch series is in every group). A plan that the
/// calibration counts whole is timed as counted.
///
/// # Errors
/// The counter's device errors ([`nqueens::plan::Outcome::failure`]).
pub fn device_time(
    plan: &dyn Plan,
    counter: &nqueens::Counter,
    budget: Duration,
    seed: u64,
) -> Result<DeviceEstimate, nqueens::Error> {
    let n = plan.len();
    let budget = budget.as_secs_f64();
    let mut next = xorshift(seed);
    // A random order of up to 2^22 subproblems (more than any sample counts at n <= 30).
    let order = draw(n, n.min(1 << 22), &mut next);
    let start = std::time::Instant::now();
    let run = |ids: &[usize]| -> Result<f64, nqueens::Error> {
        let t0 = std::time::Instant::now();
        let out = counter.run(plan, nqueens::plan::Job { only: Some(ids), ..nqueens::plan::Job::default() });
        match out.failure {
            Some(e) => Err(e),
            None => Ok(t0.elapsed().as_secs_f64()),
        }
    };
    let (mut pos, mut size, mut spent) = (0usize, 1usize, 0.0);
    // The last calibration group, when it is of the groups' size: (its seconds, its size).
    let mut calibrated = None;
    loop {
        if pos + size * (DEVICE_GROUPS + 1) > order.len() {
            if order.len() < n {
                break; // the groups at this size still fit N, drawn or not: go on at `size`
            }
            // Every subproblem fits the sample: counted (in pieces), and timed as counted.
            spent += run(&order[pos..])?;
            let sample_seconds = start.elapsed().as_secs_f64();
            return Ok(DeviceEstimate {
                subproblems: n,
                sampled: n,
                group_size: 0,
                groups: 0,
                seconds: spent,
                std_error: 0.0,
                sample_seconds,
            });
        }
        let t = run(&order[pos..pos + size])?;
        (pos, spent) = (pos + size, spent + t);
        if t >= budget / (2.0 * DEVICE_GROUPS as f64) {
            calibrated = Some((t, size));
            break;
        }
        size *= 4;
    }
    let size = size.min((order.len() - pos) / DEVICE_GROUPS).max(1);
    let mut estimates = Vec::with_capacity(DEVICE_GROUPS);
    if let Some((t, _)) = calibrated.filter(|&(_, s)| s == size) {
        estimates.push(t * n as f64 / size as f64);
    }
    while estimates.len() < DEVICE_GROUPS && pos < order.len() {
        if estimates.len() >= 2 && start.elapsed().as_secs_f64() >= budget {
            break;
        }
        let ids = &order[pos..(pos + size).min(order.len())];
        let t = run(ids)?;
        estimates.push(t * n as f64 / ids.len() as f64);
        pos += ids.len();
    }
    let g = estimates.len() as f64;
    let mean = estimates.iter().sum::<f64>() / g;
    let var = estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (g - 1.0).max(1.0);
    Ok(DeviceEstimate {
        subproblems: n,
        sampled: pos,
        group_size: size,
        groups: estimates.len(),
        seconds: mean,
        std_error: (var / g).sqrt(),
        sample_seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::algo::MirrorPlan;

    /// On a counter without devices (the runner's CPU threads stand in for one): a plan the
    /// calibration covers is counted whole and timed as counted; a larger one gives 8 groups of
    /// one size, each a random part of the plan, and an estimate with a spread. (How close the
    /// estimate comes is for the plan command's figures, results/2026-12-03-gpu/: a timed test
    /// on a shared machine said 16 s for 0.11 s once, from groups of 4 subproblems.)
    #[test]
    fn a_device_sample_counts_groups_or_everything() {
        let counter =
            nqueens::Counter::new(&nqueens::CountOptions { threads: 1, ..Default::default() }).unwrap();
        let small = MirrorPlan::new(8, 2).unwrap();
        let e = device_time(&small, &counter, Duration::from_secs(60), 3).unwrap();
        assert_eq!((e.sampled, e.group_size, e.std_error), (small.len(), 0, 0.0), "{e:?}");
        assert!(e.seconds > 0.0 && e.seconds <= e.sample_seconds, "{e:?}");
        let plan = nqueens::algo::D4Plan::new(15, 3).unwrap();
        let e = device_time(&plan, &counter, Duration::from_millis(20), 3).unwrap();
        assert!(e.group_size > 0 && e.sampled < plan.len(), "{e:?}");
        assert!(e.sampled >= e.groups * e.group_size && (2..=DEVICE_GROUPS).contains(&e.groups), "{e:?}");
        assert!(e.seconds.is_finite() && e.seconds > 0.0 && e.std_error.is_finite(), "{e:?}");
    }

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

    /// Draws are distinct and in range, all of a small plan, few of a large one.
    #[test]
    fn draws_are_distinct_indices() {
        let mut rng = 9u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for (n, m) in [(10, 10), (100, 30), (1_000_000, 500)] {
            let mut got = draw(n, m, &mut next);
            assert_eq!(got.len(), m);
            assert!(got.iter().all(|&i| i < n));
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), m, "n = {n}: repeats");
        }
    }

    /// Strata split the weighed sample by predictor into equal parts (one when every predictor is
    /// equal), each in the sample's order.
    #[test]
    fn strata_split_by_predictor() {
        let weighed: Vec<(usize, f64)> = (0..64).map(|i| (i, ((i * 37) % 64) as f64)).collect();
        let strata = stratify(&weighed);
        assert_eq!(strata.len(), MAX_STRATA);
        for (h, s) in strata.iter().enumerate() {
            assert_eq!(s.units.len(), 8);
            assert!(s.units.iter().all(|u| (u.1 as usize) / 8 == h), "{h}: {:?}", s.units);
            assert!(s.units.windows(2).all(|w| w[0].0 < w[1].0), "sample order");
        }
        let flat: Vec<(usize, f64)> = (0..64).map(|i| (i, 1.0)).collect();
        assert_eq!(stratify(&flat).len(), 1);
    }

    /// The estimator on made-up times: t = 3x exactly gives 3·Σx over the weighed sample scaled
    /// to N with no within-stratum error; a stratum counted once is merged with a neighbour;
    /// every subproblem counted whole is exact.
    #[test]
    fn the_stratified_ratio_estimator_on_known_times() {
        let weighed: Vec<(usize, f64)> = (0..80).map(|i| (i, 1.0 + (i % 40) as f64)).collect();
        let strata = stratify(&weighed);
        let mut sampler = Sampler::new(&strata);
        // Every stratum twice first, then the largest predictors more often.
        let mut taken = Vec::new();
        while let Some((h, _, x)) = sampler.take(|t| t < 40) {
            taken.push(h);
            sampler.record(h, Counted { x, t: 3.0 * x, share: 1.0, spent: 3.0 * x });
        }
        assert_eq!(&taken[..16], &[0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]);
        let last = taken.iter().filter(|&&h| h == 7).count();
        let first = taken.iter().filter(|&&h| h == 0).count();
        assert!(last > first, "Neyman: {taken:?}");
        let mean_x = weighed.iter().map(|u| u.1).sum::<f64>() / 80.0;
        let e = sampler.estimate(8000, 80);
        assert!((e.cpu_seconds - 8000.0 * 3.0 * mean_x).abs() < 1e-6 * e.cpu_seconds, "{e:?}");
        // Between strata: the weighed sample's own spread, (1 − m/N)/m · Σ W_h (ȳ_h − ȳ)².
        assert!(e.std_error > 0.0 && e.strata == 8 && e.sampled == 40, "{e:?}");
        // One counted in the top stratum: merged into the one below.
        let mut one = Sampler::new(&strata);
        for (h, stratum) in strata.iter().enumerate() {
            for &(_, x) in &stratum.units[..if h == 7 { 1 } else { 2 }] {
                one.record(h, Counted { x, t: x, share: 1.0, spent: x });
            }
        }
        assert_eq!(one.estimate(8000, 80).strata, 7);
        // All of a plan of 80, counted whole: exact.
        let mut all = Sampler::new(&strata);
        while let Some((h, _, x)) = all.take(|_| true) {
            all.record(h, Counted { x, t: 2.0, share: 1.0, spent: 2.0 });
        }
        let e = all.estimate(80, 80);
        assert!((e.cpu_seconds - 160.0).abs() < 1e-9 && e.std_error == 0.0 && e.sampled == 80, "{e:?}");
    }

    #[test]
    fn memory_counts_the_plan_its_searches_and_threads() {
        let d4 = nqueens::plan::D4Plan::new(20, 1).unwrap();
        let entry = PER_SUBPROBLEM_BYTES + d4.subproblem_bytes() as u64;
        assert_eq!(memory_bytes(&d4, 8), BASE_BYTES + d4.search_bytes(8) + d4.len() as u64 * entry);
        let join = nqueens::algo::join::JoinPlan::new(16).unwrap();
        let one = memory_bytes(&join, 1);
        assert!(one > BASE_BYTES && memory_bytes(&join, 3) > one);
        let mirror = MirrorPlan::new(12, 3).unwrap();
        assert_eq!(memory_bytes(&mirror, 4), memory_bytes(&mirror, 1));
    }

    /// Below n = 26 the sample plan is the shard plan, with nothing left unwritten; its setup
    /// is timed. (The join's list-length plan of n = 26–27 takes 30 s and 3.5 GB: the ignored
    /// test `break_it_3::finding_6` of tests/all runs `plan 27`.)
    #[test]
    fn the_sample_plan_is_the_shard_plan_below_n_26() {
        for (algorithm, n, k) in
            [(Algorithm::Join, 14, 16), (Algorithm::D4, 16, 4), (Algorithm::Mirror, 12, 1)]
        {
            let sampled = sample_plan(algorithm, n, k, Level::portable()).unwrap();
            let shard = PlanSpec { level: Level::portable(), ..shard_spec(algorithm, n, k) }.build().unwrap();
            assert_eq!((sampled.plan.len(), sampled.plan.split_depth()), (shard.len(), shard.split_depth()));
            assert_eq!(sampled.plan.algorithm(), algorithm);
            assert_eq!(sampled.unwritten_bytes, 0);
            assert!(sampled.setup_seconds >= 0.0);
        }
        assert_eq!(fault_in_seconds(0), 0.0);
        // The shard plan's refusals, as they were.
        let refused = sample_plan(Algorithm::D4, 64, 1, Level::portable());
        assert!(matches!(refused, Err(Error::BoardTooLarge { n: 64 })));
    }
}

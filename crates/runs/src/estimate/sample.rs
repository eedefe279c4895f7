//! The CPU sample of a plan (steps 0–2 of [`super`]'s docs): the calibration that sizes the
//! groups, the weighing, and the counted draws on the sample's threads; then the estimates
//! ([`super::stats`]).

use std::collections::HashMap;
use std::ops::{ControlFlow, Range};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use nqueens::plan::Plan;

use super::stats::{self, Obs, Weighed};
use super::{CpuEstimate, SolutionsEstimate, thread_cpu_seconds};
use crate::shard::estimate as probe;

/// The fewest groups a sample times, whatever the budget.
pub const MIN_SAMPLE: usize = 8;

/// The most groups the sample weighs (step 1 of [`super`]'s docs).
pub const WEIGHED: usize = 1 << 16;

/// The most of the budget the weighing takes (step 1 of [`super`]'s docs), on the first thread
/// while the others wait: 15%. The variance of a sample is least where the weighing's share of
/// the budget is √(A·c₁) / (√(A·c₁) + √(B·c₂)) (Cochran §12.3), with A the weighed units' own
/// relative variance (1.2 at n = 28), c₁ the cost of weighing one (0.018 s with the thinned walks
/// of the join's predictor), B a draw's relative variance within its stratum (about 0.22) and c₂
/// the cost of a draw (about 2.9 s): 15% at n = 28 (results/2026-12-05-plan-allocation/). It was
/// a fifth while the weighing cost 0.07 s a unit, and a tenth before that.
pub const WEIGH_SHARE: f64 = 0.15;

/// The most strata (step 1 of [`super`]'s docs).
pub const MAX_STRATA: usize = 8;

/// The share of the budget after which a subproblem that has finished a step is stopped and
/// extrapolated (see [`super`]'s docs).
pub const UNIT_SHARE: f64 = 1.0 / 128.0;

/// The least CPU seconds a sampled subproblem runs before it may be stopped (whole if shorter;
/// at most half the budget): a join unit of n = 24 (0.1–0.6 s, a few longer) stopped after its
/// first part, its setup a fifth to a half of it, overestimated its time by 7–12% (median) with
/// a wide spread, and a unit stopped midway gives no solutions, so units of n ≤ 24 run whole at
/// the default budget of 5 s.
pub const MIN_UNIT_SECONDS: f64 = 2.0;

/// The most CPU seconds of its work after the setup a subproblem counted in a random share aims
/// at ([`Plan::solve_share`]): its share is this (or the cap, if smaller) over its predicted
/// time. A share-counted unit of the join at n = 28 spends 2–11 s on its setup (the half-boards
/// enumerated, both sides sorted: `join_profile 28 10 7`, results/2026-12-04-plan-spells/)
/// whatever its share, while the spread between units (a relative standard deviation near 0.7
/// after stratification) outweighs a share's own error by far, so a short share buys more units
/// in the budget: 0.5 s instead of the cap's 2.3 s at 300 s.
pub const SHARE_SECONDS: f64 = 0.5;

/// The CPU seconds a group of consecutive subproblems is made to last at least, where the
/// runner's blocks allow (step 0 of [`super`]'s docs): a thread's CPU clock costs 0.7 µs a
/// reading in a VM (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, a system call), a tenth of a
/// subproblem of n = 16 (15 µs), a thousandth of a group of 2 ms.
pub const GROUP_SECONDS: f64 = 0.002;

/// A sample stops once it has timed this many groups per group of the plan (each once before any
/// twice, so about this many counts of the whole plan), if its budget has not run out first.
/// A small plan is sampled for its whole budget, not one count's worth: a machine's speed
/// changes in spells of about a second (a plain bitmask count of n = 13 in a loop took 27 ms a
/// pass for 2 s, then 30–32 ms for 0.7 s, on the shared 2-core VM), and counts of n = 17
/// seconds apart took 0.55 to 0.88 CPU s on it idle, so a sample as short as one count (0.1 s
/// at n = 16) saw one spell and gave intervals of ±1% that 9 to 11 of 20 counts fell outside
/// (results/2026-12-04-plan-spells/). Later passes find some caches warm (four passes made
/// n = 17 3–6% faster than its count, within the interval's width); the spread of the
/// sample's time-ordered parts across the whole budget holds the spells.
pub const PASSES: usize = 100;

/// The time-ordered parts of the sample whose spread replaces the analytic variance of the
/// draws where it is wider (parts of [`SPEED_PART_DRAWS`] draws or more) or wider past an F
/// test's bar (fewer): step 3 of [`super`]'s docs.
pub const CHUNKS: usize = 10;

/// The least relative standard deviation of the machine's speed the CPU interval allows for
/// (in place of [`CpuEstimate::speed_spread`] where that is smaller): what a sample of seconds
/// cannot see, a count minutes later on the same machine running at another speed. Three counts
/// of one board minutes apart on the idle shared 2-core VM spread by 1–5% (n = 18–20), and a
/// sample whose ten parts ran at one speed gave intervals of ±0.5–5% that 1–3 of 20 such
/// counts fell outside at each n = 18–20, 8–9% away (results/2026-12-04-plan-spells/).
pub const MACHINE_SPREAD: f64 = 0.05;

/// The power a of a stratum's mean predictor in its share of the draws, n_h ∝ W_h · x̄_h^a (step 2
/// of [`super`]'s docs), for plans of many short subproblems: a group's time is a sum of many
/// subtrees', whose spread grows as the square root of their cost.
pub const SPREAD_POWER: f64 = 0.5;

/// [`SPREAD_POWER`] for plans of long subproblems ([`Plan::long_subproblems`], the join from
/// n = 28): a unit's spread grows with its cost. Over the 101 units `plan 28 --seed 3` drew, the
/// spread within each of 8 strata over its mean predictor stayed 0.66–1.43 times their mean
/// with no trend from the smallest stratum to the largest, and n_h ∝ W_h · x̄_h gave a relative
/// variance of 0.306 a draw against 0.350 with the square root (predictor (H_E · H_W)^1.8 from
/// near-exact half-boards; 0.290 with the strata's own spreads, Neyman's optimum, which the
/// draws do not know beforehand: results/2026-12-05-plan-allocation/).
pub const LONG_SPREAD_POWER: f64 = 1.0;

/// The fewest draws a part of the sample holds for the spread of the parts beyond their sampling
/// error to be taken as the machine's speed changing ([`CpuEstimate::speed_spread`]): with
/// fewer, that excess is mostly the draws' own spread measured twice. At n = 28, 55 units of
/// 10 s to 13 min in ten parts of 5 or 6 "varied by 34%" and widened a standard error of 20%
/// to an interval of ±85% (results/2026-12-04-plan-spells/). With fewer, the parts' spread
/// replaces the analytic variance of the draws only past the bar of an F test at 5% (step 3 of
/// [`super`]'s docs).
pub const SPEED_PART_DRAWS: usize = 20;

/// Returns true if and only if `timed` draws fill the [`CHUNKS`] parts with
/// [`SPEED_PART_DRAWS`] each ([`CpuEstimate::sees_speed`]).
pub(super) fn sees_speed(timed: usize) -> bool {
    timed >= CHUNKS * SPEED_PART_DRAWS
}

/// Returns the xorshift64 generator (G. Marsaglia, 2003) seeded by `seed`: enough to draw a
/// sample, the same for the same seed.
pub(super) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = seed | 1;
    move || next(&mut rng)
}

fn next(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

/// Returns `m` distinct indices below `n` in uniformly random order.
pub(super) fn draw(n: usize, m: usize, next: &mut impl FnMut() -> u64) -> Vec<usize> {
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
    let mut seen = std::collections::HashSet::with_capacity(m);
    let mut out = Vec::with_capacity(m);
    while out.len() < m {
        let i = (next() % n as u64) as usize;
        if seen.insert(i) {
            out.push(i);
        }
    }
    out
}

/// The plan's subproblems in groups of `len` consecutive ones within the runner's blocks
/// ([`nqueens::plan::order_block`]: blocks of up to 64 neighbours, which a run counts one after
/// the other), so that a group finds the caches as a run does: block b's piece j is the
/// subproblems from b·block + j·len, at most `len` of them and not past the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Groups {
    n: usize,
    block: usize,
    len: usize,
    pieces: usize,
    /// The number of groups.
    pub count: usize,
}

impl Groups {
    pub(super) fn new(n: usize, len: usize) -> Groups {
        let block = nqueens::plan::order_block(n);
        let len = len.clamp(1, block);
        let pieces = block.div_ceil(len);
        let count = n / block * pieces + (n % block).div_ceil(len);
        Groups { n, block, len, pieces, count }
    }

    /// Returns the subproblems of group `g` (`0..count`).
    pub(super) fn units(&self, g: usize) -> Range<usize> {
        let (b, j) = (g / self.pieces, g % self.pieces);
        let start = b * self.block + j * self.len;
        start..(start + self.len).min((b + 1) * self.block).min(self.n)
    }
}

/// One stratum of the weighed sample: its groups (index, predictor) and their mean predictor.
#[derive(Clone, Debug, Default)]
pub(super) struct Stratum {
    pub units: Vec<(usize, f64)>,
    pub mean_x: f64,
}

/// Returns the weighed sample in up to [`MAX_STRATA`] strata of equal size by predictor (one
/// where every predictor is the same).
pub(super) fn stratify(weighed: &[(usize, f64)]) -> Vec<Stratum> {
    let m = weighed.len();
    let uniform = weighed.windows(2).all(|w| w[0].1 == w[1].1);
    let count = if uniform { 1 } else { MAX_STRATA.min(m / 4).max(1) };
    // Rank of each weighed group by predictor (ties by sample order).
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

/// What counting a group gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Counted {
    /// Its estimated CPU seconds, whole.
    pub t: f64,
    /// The CPU seconds spent.
    pub spent: f64,
    /// The share of its work counted: 1 when whole.
    pub share: f64,
    /// Its solutions: exact when whole (`exact` too), a random share's over the share, `None`
    /// when stopped midway.
    pub solutions: Option<f64>,
    /// Its solutions, when counted whole.
    pub exact: Option<u128>,
}

/// How the sample counts: the groups, how a group is counted, and the calibration's figures.
struct Setup {
    groups: Groups,
    strata: Vec<Stratum>,
    /// The groups weighed.
    weighed: usize,
    /// Whether single subproblems are counted in steps, to stop them at `cap` (where the
    /// calibration met subproblems of a quarter of `cap` or more).
    stepwise: bool,
    /// The mean CPU seconds of a subproblem in the calibration.
    mean_unit: f64,
    /// The CPU seconds of one reading of the thread's clock, taken off each group's time.
    clock: f64,
    /// The CPU seconds the calibration and the weighing took.
    seconds: f64,
}

/// Returns the CPU seconds of one reading of this thread's CPU clock (the mean of 64).
fn clock_cost() -> f64 {
    let t0 = thread_cpu_seconds();
    for _ in 0..63 {
        std::hint::black_box(thread_cpu_seconds());
    }
    (thread_cpu_seconds() - t0) / 64.0
}

/// Counts subproblem `i` alone (see [`Counted`]), stopped once `cap` CPU seconds are spent
/// and a step has finished where `stepwise` (the cap read on the wall clock, which costs
/// nothing, at each step), or a random share of it where the plan counts shares: the share
/// is what `predicted` seconds allow of `cap` or [`SHARE_SECONDS`], whichever is smaller.
/// Where the plan counts shares, a subproblem with a prediction (`predicted` > 0) is never
/// stopped midway, which would give no solutions and so take the estimate of Q(n) from the
/// whole sample: predicted past a quarter of the cap it is counted in a share (a share of 1
/// where the prediction is under [`SHARE_SECONDS`]), within a quarter of it whole (four times
/// its prediction still fits the cap). At n = 28 with `--sample-seconds 1200` (a cap of 9.4 s)
/// the smallest units, about 9–16 s whole, were predicted under the cap, counted in steps,
/// and one was stopped: the plan printed no Q(28). Counted whole instead, they took the units a
/// sample held from 203 to 118 (results/2026-12-04-plan-budget/). `predicted` = 0 (the
/// calibration, the warm-up: nothing to predict by) keeps the stop.
pub(super) fn count_unit(
    plan: &dyn Plan,
    i: usize,
    cap: f64,
    stepwise: bool,
    predicted: f64,
    seed: u64,
) -> Counted {
    plan.prepare(i);
    let t0 = thread_cpu_seconds();
    if stepwise && plan.counts_shares() && predicted > cap / 4.0 {
        let share = (cap.min(SHARE_SECONDS) / predicted).clamp(1e-6, 1.0);
        // The CPU seconds weighed so far, and the weight and start of the open stretch.
        let (mut weighed, mut weight, mut since) = (0.0, 1.0, t0);
        let tally = plan.solve_share(i, share, seed, &mut |w| {
            let now = thread_cpu_seconds();
            weighed += weight * (now - since);
            (weight, since) = (w, now);
        });
        let end = thread_cpu_seconds();
        let spent = end - t0;
        if let Some(tally) = tally {
            return Counted {
                t: weighed + weight * (end - since),
                spent,
                share,
                solutions: Some(tally.solutions as f64 / share),
                exact: None,
            };
        }
    }
    if !stepwise || (plan.counts_shares() && predicted > 0.0) {
        let tally = plan.solve(i, false);
        let spent = thread_cpu_seconds() - t0;
        let exact = Some(tally.solutions);
        return Counted { t: spent, spent, share: 1.0, solutions: Some(tally.solutions as f64), exact };
    }
    let wall = Instant::now();
    let mut done = 0.0;
    let whole = plan.solve_in_steps(i, false, &mut |step| {
        done += step;
        if done > 0.0 && wall.elapsed().as_secs_f64() >= cap {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let spent = thread_cpu_seconds() - t0;
    match whole {
        Some(tally) => Counted {
            t: spent,
            spent,
            share: 1.0,
            solutions: Some(tally.solutions as f64),
            exact: Some(tally.solutions),
        },
        None => {
            let share = done.clamp(f64::MIN_POSITIVE, 1.0);
            Counted { t: spent / share, spent, share, solutions: None, exact: None }
        }
    }
}

/// Counts group `g` of `setup` (see [`Counted`]): several subproblems one after the other,
/// timed as one, or one alone ([`count_unit`]).
fn count_group(plan: &dyn Plan, setup: &Setup, g: usize, cap: f64, predicted: f64, seed: u64) -> Counted {
    let units = setup.groups.units(g);
    if units.len() == 1 {
        let mut c = count_unit(plan, units.start, cap, setup.stepwise, predicted, seed);
        c.t = (c.t - setup.clock).max(0.0);
        return c;
    }
    let t0 = thread_cpu_seconds();
    let mut solutions = 0u128;
    for i in units {
        solutions += plan.solve(i, false).solutions;
    }
    let spent = (thread_cpu_seconds() - t0 - setup.clock).max(0.0);
    Counted { t: spent, spent, share: 1.0, solutions: Some(solutions as f64), exact: Some(solutions) }
}

/// Steps 0 and 1 of [`super`]'s docs, on the first thread of the sample while the others wait:
/// the calibration (random subproblems counted alone, for at most a twentieth of the budget,
/// a quarter of a second or 64 of them; their times are not used), then the weighing of up to
/// [`WEIGHED`] random groups (all of a smaller plan) for at most [`WEIGH_SHARE`] of the budget.
fn prepare(plan: &dyn Plan, budget: f64, cap: f64, seed: u64) -> Setup {
    let start = thread_cpu_seconds();
    let n = plan.len();
    let mut next = xorshift(seed ^ 0x5851_f42d_4c95_7f2d);
    let clock = clock_cost();
    let limit = (budget / 20.0).min(0.25);
    let (mut units, mut total, mut longest) = (0usize, 0.0f64, 0.0f64);
    loop {
        let i = (next() % n as u64) as usize;
        let c = count_unit(plan, i, cap, plan.stops_midway(), 0.0, seed);
        (units, total, longest) = (units + 1, total + c.t, longest.max(c.t));
        if units >= 64 || thread_cpu_seconds() - start >= limit {
            break;
        }
    }
    let mean_unit = total / units as f64;
    let stepwise = plan.stops_midway() && longest >= cap / 4.0;
    // Units that take no measurable time: one group a block.
    let len = if mean_unit > 0.0 {
        (GROUP_SECONDS / mean_unit).ceil() as usize
    } else {
        nqueens::plan::order_block(n)
    };
    let groups = Groups::new(n, if stepwise { 1 } else { len });
    // The weighed sample, in random order, with its predictors.
    let drawn = draw(groups.count, WEIGHED.min(groups.count), &mut next);
    let prefixes = !plan.is_empty() && plan.prefix(0).is_some();
    let weigh_start = thread_cpu_seconds();
    let mut weighed: Vec<(usize, f64)> = Vec::with_capacity(drawn.len());
    for &g in &drawn {
        let x: f64 = groups
            .units(g)
            .map(|i| if prefixes { probe(plan, i) as f64 } else { plan.sample_weight(i) })
            .sum();
        weighed.push((g, x.max(f64::MIN_POSITIVE)));
        if weighed.len() >= 4 * MAX_STRATA && thread_cpu_seconds() - weigh_start >= budget * WEIGH_SHARE {
            break;
        }
    }
    let strata = stratify(&weighed);
    Setup {
        groups,
        strata,
        weighed: weighed.len(),
        stepwise,
        mean_unit,
        clock,
        seconds: thread_cpu_seconds() - start,
    }
}

/// A timed draw: its stratum, group and predictor, and what counting it gave.
#[derive(Clone, Copy, Debug)]
pub(super) struct Draw {
    pub h: usize,
    pub g: usize,
    pub x: f64,
    pub c: Counted,
}

/// The draws being taken from the strata, each group once before any twice (step 2 of
/// [`super`]'s docs).
pub(super) struct Sampler {
    target: Vec<f64>,
    taken: Vec<usize>,
    /// Per stratum, its groups in the order they are taken, and the next one's place.
    order: Vec<Vec<(usize, f64)>>,
    cursor: Vec<usize>,
    rng: u64,
    /// Per stratum, the CPU seconds and the predictors of the draws recorded.
    sums: Vec<(f64, f64)>,
    /// The draws in the order they were recorded.
    pub draws: Vec<Draw>,
}

impl Sampler {
    /// Returns the sampler of `strata`, drawn by `seed`, each stratum's target share of the
    /// draws W_h · x̄_h^`power` ([`SPREAD_POWER`], [`LONG_SPREAD_POWER`]).
    pub(super) fn new(strata: &[Stratum], seed: u64, power: f64) -> Sampler {
        let total: usize = strata.iter().map(|s| s.units.len()).sum();
        let target = strata
            .iter()
            .map(|s| s.units.len() as f64 / total.max(1) as f64 * s.mean_x.powf(power))
            .collect();
        Sampler {
            target,
            taken: vec![0; strata.len()],
            order: strata.iter().map(|s| s.units.clone()).collect(),
            cursor: vec![0; strata.len()],
            rng: seed | 1,
            sums: vec![(0.0, 0.0); strata.len()],
            draws: Vec::new(),
        }
    }

    /// Returns the next group to count (stratum, group, predictor), if `go(taken so far)` says
    /// to go on: from each non-empty stratum twice first, then from the one furthest behind its
    /// Neyman target among those with groups not yet taken (among all once every group was:
    /// a small plan is counted whole first); within it, the next of its weighed groups in the
    /// sample's random order, and once all were taken, again in a new random order.
    pub(super) fn take(
        &mut self,
        strata: &[Stratum],
        go: impl FnOnce(usize) -> bool,
    ) -> Option<(usize, usize, f64)> {
        let taken: usize = self.taken.iter().sum();
        if !go(taken) {
            return None;
        }
        let h = (0..strata.len()).filter(|&h| !strata[h].units.is_empty()).min_by(|&a, &b| {
            let key = |h: usize| match self.taken[h] {
                t if t < 2 => (0, t as f64),
                t if t < strata[h].units.len() => (1, t as f64 / self.target[h]),
                t => (2, t as f64 / self.target[h]),
            };
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })?;
        // In the stratum's random order, each group once, then again in a new order.
        let units = &mut self.order[h];
        if self.cursor[h] == units.len() {
            for k in (1..units.len()).rev() {
                units.swap(k, (next(&mut self.rng) % (k as u64 + 1)) as usize);
            }
            self.cursor[h] = 0;
        }
        let (g, x) = units[self.cursor[h]];
        self.cursor[h] += 1;
        self.taken[h] += 1;
        Some((h, g, x))
    }

    /// Returns the CPU seconds a group of predictor `x` in stratum `h` is expected to take, by
    /// the ratio of what was counted there so far or in the whole sample, whichever is larger;
    /// `fallback` before anything was. The larger: a stratum's first draws can be far below its
    /// units (a unit of n = 28 counted in a share that drew none of its pieces stands for its
    /// setup alone), and a unit predicted below the cap is counted in steps and stopped at the
    /// cap, which leaves the sample without solutions.
    fn predicted(&self, h: usize, x: f64, fallback: f64) -> f64 {
        let (t, sx) = self.sums[h];
        let (all_t, all_x) = self.sums.iter().fold((0.0, 0.0), |(a, b), s| (a + s.0, b + s.1));
        if sx > 0.0 { (t / sx).max(all_t / all_x) * x } else { fallback }
    }

    /// Records a timed draw.
    pub(super) fn record(&mut self, d: Draw) {
        self.sums[d.h].0 += d.c.t;
        self.sums[d.h].1 += d.x;
        self.draws.push(d);
    }
}

/// Returns the estimated CPU time of counting every subproblem of `plan` on one core (see
/// [`super`]'s docs): `budget` CPU seconds on each of `threads` threads, drawn by `seed`.
///
/// # Errors
/// [`nqueens::Error`] if the threads cannot be started ([`nqueens::plan::on_threads`]).
pub(super) fn cpu_time_on(
    plan: &dyn Plan,
    budget: f64,
    seed: u64,
    threads: usize,
) -> Result<CpuEstimate, nqueens::Error> {
    let n = plan.len();
    if n == 0 {
        return Ok(CpuEstimate::empty());
    }
    // At least MIN_UNIT_SECONDS, unless that is more than half the budget.
    let cap = (budget * UNIT_SHARE).max(MIN_UNIT_SECONDS.min(budget / 2.0)).max(1e-3);
    let once: OnceLock<Setup> = OnceLock::new();
    let shared: Mutex<Option<Sampler>> = Mutex::new(None);
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    nqueens::plan::on_threads(threads, "nqueens-plan", |thread| {
        let begun = thread_cpu_seconds();
        let mut first = false;
        let setup = once.get_or_init(|| {
            first = true;
            prepare(plan, budget, cap, seed)
        });
        let power = if plan.long_subproblems() { LONG_SPREAD_POWER } else { SPREAD_POWER };
        lock().get_or_insert_with(|| Sampler::new(&setup.strata, seed, power));
        // The threads that waited for the setup spend the rest of the budget, so that the
        // whole sample lasts about `budget` of wall-clock time; each warms up first on the
        // heaviest weighed group (untimed, within its budget), so that its buffers have grown
        // as in a run (a cold first unit of the join at n = 26 took 3.5 s to its first step
        // against 0.45 s warm). The first thread warmed up in the calibration.
        let budget = if first { budget } else { budget - setup.seconds };
        if !first {
            let heaviest = setup.strata.iter().flat_map(|s| &s.units).max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some(&(g, _)) = heaviest {
                count_group(plan, setup, g, cap, 0.0, seed);
            }
        }
        let most = PASSES.saturating_mul(setup.groups.count).max(MIN_SAMPLE);
        let mut k = thread as u64;
        loop {
            let taken = lock().as_mut().and_then(|s| {
                let go =
                    |taken| taken < MIN_SAMPLE || (thread_cpu_seconds() - begun < budget && taken < most);
                let (h, g, x) = s.take(&setup.strata, go)?;
                Some((h, g, x, s.predicted(h, x, setup.mean_unit)))
            });
            let Some((h, g, x, predicted)) = taken else { break };
            k += threads as u64;
            let c = count_group(plan, setup, g, cap, predicted, seed.wrapping_add(k));
            if let Some(s) = lock().as_mut() {
                s.record(Draw { h, g, x, c });
            }
        }
    })?;
    let setup = once.into_inner().expect("the first thread prepared the sample");
    let sampler = shared.into_inner().unwrap_or_else(|e| e.into_inner()).expect("a sampler");
    Ok(estimate(&setup.strata, setup.groups, setup.weighed, &sampler.draws))
}

/// Step 3 of [`super`]'s docs: the estimates from the draws.
pub(super) fn estimate(strata: &[Stratum], groups: Groups, weighed: usize, draws: &[Draw]) -> CpuEstimate {
    let w: Vec<Weighed> = strata.iter().map(|s| Weighed { count: s.units.len(), mean_x: s.mean_x }).collect();
    let mut by_stratum = vec![Vec::new(); strata.len()];
    for d in draws {
        by_stratum[d.h].push(Obs { x: d.x, y: d.c.t });
    }
    let time = stats::total(&w, &by_stratum, groups.count, false);
    // The spread of the sample's time-ordered parts, each weighed as the estimate weighs its
    // strata: over CHUNKS, the variance of the second phase of the estimate, to be taken where
    // it is wider than the analytic one (with the first phase's, which every part shares);
    // beyond the sampling error it would give a part (CHUNKS times the second phase's relative
    // variance), the machine's speed changing, which a count meets too (step 3 of the module
    // docs).
    let fitted: Vec<(f64, f64)> = draws
        .iter()
        .map(|d| (time.weights[d.h] * d.c.t, time.weights[d.h] * time.ratios[d.h] * d.x))
        .collect();
    let square = (time.value * time.value).max(f64::MIN_POSITIVE);
    let relative = time.second_variance / square;
    let parts = stats::chunk_variance(&fitted, CHUNKS);
    // Parts of SPEED_PART_DRAWS draws or more are taken where wider; parts of fewer, only past
    // the bar of an F test at 5% (their variance on CHUNKS − 1 degrees of freedom beyond the
    // analytic one's, not the spread of a few draws' own; conservative, as the analytic
    // variance holds the parts' spread too).
    let bar = if sees_speed(draws.len()) { 1.0 } else { stats::f95(CHUNKS - 1, time.df) };
    let (variance, df) = match parts {
        Some(v) if v / CHUNKS as f64 > bar * relative => {
            (v / CHUNKS as f64 * square + time.first_variance, CHUNKS - 1)
        }
        _ => (time.variance, time.df),
    };
    let speed_spread = match parts {
        Some(v) if sees_speed(draws.len()) => (v - CHUNKS as f64 * relative).max(0.0).sqrt(),
        _ => 0.0,
    };
    let std_error = variance.sqrt();
    let df = if speed_spread > 0.0 { df.min(CHUNKS - 1) } else { df };
    let speed = speed_spread.max(MACHINE_SPREAD);
    let half = stats::t975(df) * (variance + (speed * time.value).powi(2)).sqrt();
    // The solutions: each group's once (a sample without replacement), if every draw has them.
    let mut distinct: HashMap<usize, &Draw> = HashMap::new();
    for d in draws {
        distinct.entry(d.g).or_insert(d);
    }
    let sampled: usize = distinct.keys().map(|&g| groups.units(g).len()).sum();
    let solutions = draws.iter().all(|d| d.c.solutions.is_some()).then(|| {
        let mut by_stratum = vec![Vec::new(); strata.len()];
        for d in distinct.values() {
            by_stratum[d.h].push(Obs { x: d.x, y: d.c.solutions.unwrap_or(0.0) });
        }
        let every = distinct.len() == groups.count;
        let exact = every.then(|| distinct.values().map(|d| d.c.exact).sum::<Option<u128>>()).flatten();
        // Without replacement where each group's solutions are exact; a group counted in a
        // random share has an error of its own, which only the spread with replacement holds.
        let whole = draws.iter().all(|d| d.c.exact.is_some());
        let q = stats::total(&w, &by_stratum, groups.count, whole);
        let (value, variance) = match exact {
            Some(e) => (e as f64, 0.0),
            None => (q.value, q.variance),
        };
        let se = variance.sqrt();
        let half = stats::t975(q.df) * se;
        SolutionsEstimate {
            solutions: value,
            std_error: se,
            low: (value - half).max(0.0),
            high: value + half,
            exact,
        }
    });
    let spent: f64 = draws.iter().map(|d| d.c.spent).sum();
    let share = draws.iter().map(|d| d.c.share).sum::<f64>() / draws.len().max(1) as f64;
    CpuEstimate {
        subproblems: groups.n,
        sampled,
        timed: draws.len(),
        group_size: groups.len,
        weighed,
        strata: time.strata,
        cpu_seconds: time.value,
        std_error,
        df,
        sampling_std_error: time.variance.sqrt(),
        low: (time.value - half).max(0.0),
        high: time.value + half,
        setup_seconds: 0.0,
        sample_seconds: spent,
        counted_share: if draws.is_empty() { 1.0 } else { share },
        speed_spread,
        solutions,
        other_load: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups tile the plan within the runner's blocks, every subproblem in exactly one.
    #[test]
    fn groups_tile_the_plan_within_blocks() {
        for (n, len) in [(10, 4), (6470, 5), (6470, 100), (100_000, 7), (100_000, 1), (1, 3), (513, 2)] {
            let groups = Groups::new(n, len);
            let block = nqueens::plan::order_block(n);
            let mut seen = vec![0u8; n];
            for g in 0..groups.count {
                let units = groups.units(g);
                assert!(!units.is_empty() && units.len() <= len.min(block), "n = {n}, group {g}: {units:?}");
                assert_eq!(
                    units.start / block,
                    (units.end - 1) / block,
                    "n = {n}: {units:?} crosses a block"
                );
                units.for_each(|i| seen[i] += 1);
            }
            assert!(seen.iter().all(|&s| s == 1), "n = {n}, len {len}");
        }
    }

    /// Draws are distinct and in range, all of a small plan, few of a large one.
    #[test]
    fn draws_are_distinct_indices() {
        let mut next = xorshift(9);
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

    /// Draws go to every stratum twice first, then to those of larger predictors more often
    /// (Neyman), each group of a stratum once before any twice: a small stratum is drawn past
    /// its size.
    #[test]
    fn draws_follow_neyman_with_replacement() {
        let weighed: Vec<(usize, f64)> = (0..80).map(|i| (i, 1.0 + (i % 40) as f64)).collect();
        let strata = stratify(&weighed);
        let mut sampler = Sampler::new(&strata, 5, SPREAD_POWER);
        let mut taken = Vec::new();
        let mut first = vec![Vec::new(); strata.len()];
        while let Some((h, g, x)) = sampler.take(&strata, |t| t < 400) {
            assert!(strata[h].units.contains(&(g, x)));
            if first[h].len() < strata[h].units.len() {
                assert!(!first[h].contains(&g), "stratum {h}: group {g} again before the others");
                first[h].push(g);
            }
            taken.push(h);
        }
        assert_eq!(&taken[..16], &[0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]);
        let count = |h| taken.iter().filter(|&&t| t == h).count();
        assert!(count(7) > count(0) && count(7) > strata[7].units.len(), "{taken:?}");
        let mut seen: Vec<usize> = sampler.order[7].iter().map(|u| u.0).collect();
        seen.sort_unstable();
        assert_eq!(
            seen,
            strata[7].units.iter().map(|u| u.0).collect::<Vec<_>>(),
            "a new order of the same groups"
        );
    }

    /// A plan of long subproblems gives its strata of larger predictors more of the draws: in
    /// proportion to x̄_h, not to its square root.
    #[test]
    fn long_subproblems_draw_in_proportion_to_the_predictor() {
        let weighed: Vec<(usize, f64)> = (0..80).map(|i| (i, 1.0 + (i % 40) as f64)).collect();
        let strata = stratify(&weighed);
        let counts = |power| {
            let mut sampler = Sampler::new(&strata, 5, power);
            let mut taken = vec![0usize; strata.len()];
            while let Some((h, _, _)) = sampler.take(&strata, |t| t < 4000) {
                taken[h] += 1;
            }
            taken
        };
        let (short, long) = (counts(SPREAD_POWER), counts(LONG_SPREAD_POWER));
        let ratio = |t: &[usize]| t[7] as f64 / t[0] as f64;
        let x = |h: usize| strata[h].mean_x;
        // The draws follow the targets within a draw or two a stratum.
        assert!((ratio(&short) / (x(7) / x(0)).sqrt() - 1.0).abs() < 0.05, "{short:?}");
        assert!((ratio(&long) / (x(7) / x(0)) - 1.0).abs() < 0.05, "{long:?}");
    }

    fn draw_of(h: usize, g: usize, x: f64, t: f64, solutions: Option<u128>) -> Draw {
        let c = Counted {
            t,
            spent: t,
            share: if solutions.is_some() { 1.0 } else { 0.5 },
            solutions: solutions.map(|s| s as f64),
            exact: solutions,
        };
        Draw { h, g, x, c }
    }

    /// The spread of the sample's ten parts, on made-up draws of one stratum (1,000 of 10,000
    /// groups weighed, so the weighing has an error of its own): times 1 + δ_c ± 0.3,
    /// δ_c = ±δ by part, so each part's factor is 1 ± δ exactly. At δ = 0.1 the parts' variance
    /// is about 1.1 times the analytic one: with 100 draws (parts of 10) that is within an F
    /// test's bar, so the analytic variance stands with its degrees of freedom; with 200
    /// (parts of 20, SPEED_PART_DRAWS) the parts are taken, and their excess is the machine's
    /// speed. At δ = 0.2 (about 3.4 times) the parts of 10 are taken too, with t for 9 degrees
    /// of freedom and the weighing's variance added. Then two strata of equal weight, one
    /// drawn 9 times a part with the same noise, the other once a part exactly: weighed as
    /// the estimate weighs them, the parts spread as the analytic variance says (each part's
    /// noisy stratum counts for half of it); unweighted, they would spread 3.2 times as much
    /// and be taken.
    #[test]
    fn parts_of_few_draws_are_taken_only_past_an_f_test() {
        let groups = Groups::new(10_000, 1);
        let noise = |k: usize, per: usize, delta: f64| {
            let (c, j) = (k / per, k % per);
            (if c % 2 == 0 { delta } else { -delta }) + if j % 2 == 0 { 0.3 } else { -0.3 }
        };
        let one = stratify(&(0..1000).map(|g| (g, 1.0)).collect::<Vec<_>>());
        let sample = |draws: usize, delta: f64| {
            let per = draws / CHUNKS;
            let d: Vec<Draw> =
                (0..draws).map(|k| draw_of(0, k, 1.0, 1.0 + noise(k, per, delta), None)).collect();
            estimate(&one, groups, 1000, &d)
        };
        let near = sample(100, 0.1);
        assert_eq!(
            (near.df, near.std_error, near.speed_spread),
            (99, near.sampling_std_error, 0.0),
            "{near:?}"
        );
        let (delta, far) = (0.2, sample(100, 0.2));
        assert_eq!((far.df, far.speed_spread), (CHUNKS - 1, 0.0), "{far:?}");
        // The parts' factors are 1 ± δ (variance δ²·10/9, over CHUNKS δ²/9 of the estimate
        // 10,000 squared); the weighing's, (1/1000 − 1/10000) · 10,000² · S_y², with S_y² the
        // draws' variance: (δ² + 0.09) · 100/99.
        let first = (1e-3 - 1e-4) * 1e8 * (delta * delta + 0.09) * 100.0 / 99.0;
        let expected = delta * delta / 9.0 * 1e8 + first;
        assert!((far.cpu_seconds - 1e4).abs() < 1e-6, "{far:?}");
        assert!((far.std_error.powi(2) / expected - 1.0).abs() < 1e-9, "{far:?} against {expected}");
        let seen = sample(200, 0.1);
        assert_eq!(seen.df, CHUNKS - 1, "{seen:?}");
        assert!(seen.std_error > seen.sampling_std_error && seen.speed_spread > 0.0, "{seen:?}");
        // Two strata of 500 weighed groups each, x = 1: per part, 9 noisy draws of the first,
        // then one exact draw of the second.
        let units = |from: usize| (from..from + 500).map(|g| (g, 1.0)).collect::<Vec<_>>();
        let two = vec![Stratum { units: units(0), mean_x: 1.0 }, Stratum { units: units(500), mean_x: 1.0 }];
        let d: Vec<Draw> = (0..100)
            .map(|k| match k % 10 {
                9 => draw_of(1, 500 + k, 1.0, 1.0, None),
                j => draw_of(0, k, 1.0, 1.0 + noise(k / 10 * 9 + j, 9, 0.1), None),
            })
            .collect();
        let mixed = estimate(&two, groups, 1000, &d);
        assert_eq!((mixed.df, mixed.std_error), (98, mixed.sampling_std_error), "{mixed:?}");
    }

    /// The estimates on made-up draws: times t = 3x give 3·Σx over the plan; every group counted
    /// gives the exact solutions; a group stopped midway leaves them unestimated.
    #[test]
    fn estimates_on_known_draws() {
        let groups = Groups::new(8, 1);
        let weighed: Vec<(usize, f64)> = (0..8).map(|g| (g, 1.0 + g as f64)).collect();
        let strata = stratify(&weighed);
        let draws: Vec<Draw> = (0..16)
            .map(|k| {
                let g = k % 8;
                let h = strata.iter().position(|s| s.units.iter().any(|u| u.0 == g)).unwrap();
                draw_of(h, g, 1.0 + g as f64, 3.0 * (1.0 + g as f64), Some(10 + g as u128))
            })
            .collect();
        let e = estimate(&strata, groups, 8, &draws);
        assert!((e.cpu_seconds - 3.0 * 36.0).abs() < 1e-9, "{e:?}");
        assert!(e.low <= e.cpu_seconds && e.cpu_seconds <= e.high);
        let q = e.solutions.unwrap();
        assert_eq!((q.exact, q.solutions, q.std_error), (Some(108), 108.0, 0.0));
        assert_eq!((e.sampled, e.timed, e.subproblems), (8, 16, 8));
        let mut part = draws.clone();
        part[3] = draw_of(part[3].h, 3, 4.0, 12.0, None);
        let e = estimate(&strata, groups, 8, &part);
        assert!(e.solutions.is_none() && e.counted_share < 1.0, "{e:?}");
    }
}

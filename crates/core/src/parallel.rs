//! The one place that decides how subproblems run: a rayon pool sums [`Plan::solve`] over every
//! subproblem, and tells a [`Progress`] observer how the work advances (the `nqueens` binary
//! draws its progress bar from that; the library draws nothing).
//!
//! # Order
//! Every worker takes the next subproblem from one shared list (an atomic cursor), so threads
//! never wait for each other; the list is the subproblems in a fixed pseudo-random order
//! ([`shuffled`]: blocks of up to 64 neighbours, shuffled). Subproblem costs follow their indices
//! (d4's constellations and the join's row sets in index order grow or shrink 100-fold along
//! the list), so running them in index order made the ETA 40–75% wrong over the second half
//! of the run; in shuffled order the work done at any moment is a random sample of the whole,
//! and the ETA's error from 50% to 95% of the run stayed within 7% in a replay of every
//! subproblem's measured time on 2 threads (mirror n = 16–17, d4 n = 16–18, join n = 16–18,
//! four seeds; 17% with every weight 1; `scripts/eta-error.sh` measures real runs). The order changes nothing else: the plan,
//! its indices, the journal and the shards are those of the plan; the sum is exact (`u128`) and
//! does not depend on the order.
//!
//! # Progress
//! With an observer, the runner weighs each subproblem by its estimated cost
//! ([`Plan::weight`]) and solves it in steps ([`Plan::solve_in_steps`]), telling the observer of
//! every step's share of the work, so the progress bar moves within about a second at any n.
//! Without one it pays one branch per subproblem.
//!
//! # Stops
//! Long runs ([`run_with`]) also choose which subproblems to solve (those a checkpoint journal
//! lacks, or one shard's), hear of each solved subproblem (to journal it), and stop when a flag
//! is set (by a signal handler): no new subproblem starts, and a running one whose plan
//! [stops midway](Plan::stops_midway) stops at its next step (its counts are dropped, and it is
//! solved again on resume); the flag is read between subproblems and between steps, never in
//! the kernel.
//!
//! # Devices
//! A count may also run on [`Device`]s beside the CPU (GPUs: the `nqueens-gpu` crate). Each
//! device gets one worker thread of the same pool, and pulls subproblems from the same shared
//! list as the CPU workers ([`Queue`]), as many at a time as it wants for one launch: no static
//! split between devices, so a fast device takes more and none waits for another. Its results
//! go through the same callback and observer as the CPU's, so journals, shards and audits do
//! not know where a subproblem was solved. A device checks the stop flag between its launches
//! (the `nqueens-gpu` launches are bounded to about a second).

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::{Error, Plan, Tally};

/// What a run is about to do, as [`Observer::start`] hears it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The board side n.
    pub n: u32,
    /// The subproblems to solve.
    pub subproblems: u64,
    /// Their estimated cost, the sum of their [`Plan::weight`]s: [`Observer::advance`] and
    /// [`Observer::solved`] report work in the same units.
    pub work: f64,
    /// The worker threads.
    pub threads: usize,
    /// How many of them drive a device each ([`Device`]); the others count on the CPU.
    pub devices: usize,
    /// Whether a running subproblem stops at its next step when the run is asked to stop
    /// ([`Plan::stops_midway`]); else it runs to its end.
    pub stops_midway: bool,
}

/// Told by the runner how a count advances: its start, each step of a subproblem, each solved
/// subproblem, its end. The `nqueens` binary draws its progress bar from these calls; a library
/// user may log them.
///
/// Methods are called from the worker threads (hence `Sync`), between subproblems or steps,
/// never inside the search. A [`crate::Counter`] that counts several boards calls `planning`,
/// `planned` and `start` once per board.
pub trait Observer: Send + Sync {
    /// The plan of the `n`×`n` board is being built (before [`Observer::start`]; building the
    /// join's quarter table takes minutes from n = 26).
    fn planning(&self, n: u32) {
        let _ = n;
    }
    /// The plan is built (after [`Observer::planning`]); a long run opens its journal next.
    fn planned(&self) {}
    /// A run begins.
    fn start(&self, run: &Run);
    /// A step of a running subproblem has ended: `work` more of [`Run::work`] is done.
    fn advance(&self, work: f64) {
        let _ = work;
    }
    /// One more subproblem is solved; `work` is what its steps had not yet reported of its
    /// weight.
    fn solved(&self, work: f64);
    /// The run has ended (complete or stopped).
    fn finish(&self);
}

/// Whether and to whom the runner reports progress.
#[derive(Clone, Default)]
pub enum Progress {
    /// Nobody (the default): the runner pays one branch per subproblem.
    #[default]
    Never,
    /// This observer.
    To(Arc<dyn Observer>),
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::Never => f.write_str("Never"),
            Progress::To(_) => f.write_str("To(..)"),
        }
    }
}

impl Progress {
    /// Returns the observer, if there is one.
    pub fn observer(&self) -> Option<&dyn Observer> {
        match self {
            Progress::Never => None,
            Progress::To(o) => Some(o.as_ref()),
        }
    }
}

/// What `run` returns: the summed counts and the time the workers spent in subproblems.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The exact sum of the counts of every subproblem that was solved.
    pub tally: Tally,
    /// Seconds the workers spent solving subproblems, summed over threads (wall-clock per
    /// subproblem; CPU time when the machine is not oversubscribed).
    pub busy_seconds: f64,
    /// The number of subproblems solved (fewer than asked for if and only if the run was stopped).
    pub solved: usize,
    /// True if and only if the stop flag was seen set and some subproblems were left unsolved.
    pub stopped: bool,
    /// The first error a [`Device`] returned: the run then stopped as if its flag were set
    /// (`stopped` is true), every subproblem solved until then reported and counted.
    pub failure: Option<Error>,
}

/// A device beside the CPU threads that solves subproblems of a plan in batches, such as a GPU
/// (the `nqueens-gpu` crate implements it for CUDA and OpenCL). The runner calls
/// [`Device::solve`] once per run, on a worker thread of its own pool given to this device
/// alone; the device takes subproblems from the run's shared list through the [`Queue`] and
/// reports each solved one there. Implementations never start threads of their own for the
/// search.
pub trait Device: Send + Sync + fmt::Debug {
    /// Returns the device's name as the outputs print it: its API, index and model, e.g.
    /// `opencl:0 (pocl: cpu-haswell)`.
    fn name(&self) -> String;

    /// Returns why this device cannot count `plan` (an algorithm or board it has no search
    /// for), or `None` if it can. Asked before a run starts, so that a count it cannot do is
    /// refused before anything is solved.
    fn refuses(&self, plan: &dyn Plan) -> Option<String>;

    /// Solves subproblems of `plan` taken from `queue` until [`Queue::next`] returns `None`,
    /// reporting each one through [`Queue::solved`] as soon as its counts are known (the
    /// solutions, and the fundamental solutions where the plan classifies; nodes when `stats`
    /// is true, counted by the device's own search). A subproblem taken but not yet reported
    /// when the queue says stop ([`Queue::stopping`], checked at least about once a second)
    /// may be dropped: it is solved again on resume, as on the CPU.
    ///
    /// # Errors
    /// [`Error::DeviceFailed`] if the device fails ([`Error::Device`] if it refuses the plan);
    /// the run then stops, and what was reported stays counted.
    fn solve(&self, plan: &dyn Plan, stats: bool, queue: &mut dyn Queue) -> Result<(), Error>;
}

/// What a [`Device`] sees of a run: the shared list of subproblems, where it reports results,
/// and whether to stop.
pub trait Queue {
    /// Returns the index of the next subproblem to solve (in `0..plan.len()`, each handed out
    /// once to one worker), or `None` when none is left or the run is stopping.
    fn next(&mut self) -> Option<usize>;
    /// Records the counts of subproblem `index`, which [`Queue::next`] handed to this device.
    fn solved(&mut self, index: usize, tally: &Tally);
    /// Returns true if and only if the run is asked to stop: no new launch should start.
    fn stopping(&self) -> bool;
}

/// A callback told of each solved subproblem: its index and counts.
pub type OnSolved<'a> = dyn Fn(usize, &Tally) + Sync + 'a;

/// What a run ([`crate::Counter::run`]) does beyond the plain count: which subproblems, what to tell of each, and
/// when to stop. `Job::default()` is the plain count of every subproblem.
#[derive(Clone, Copy, Default)]
pub struct Job<'a> {
    /// The subproblem indices to solve (each in `0..plan.len()`, each once); `None` solves all.
    /// A resumed run passes the ones its journal lacks, a shard passes its own.
    pub only: Option<&'a [usize]>,
    /// Called on the worker thread with the index and counts of each solved subproblem, as soon
    /// as it is solved, in no particular order (a checkpoint journal appends a line here).
    pub on_solved: Option<&'a OnSolved<'a>>,
    /// Checked before each subproblem starts and between the steps of a running one (never
    /// inside the kernel): once it is true, no new subproblem starts, running ones that
    /// [stop midway](Plan::stops_midway) stop at their next step and are not counted, and the
    /// others finish (a signal handler sets it).
    pub stop: Option<&'a AtomicBool>,
}

/// Returns a pool of `threads` worker threads named `{name}-0`, `{name}-1`, …: the one place the
/// library starts threads ([`crate::Counter`] for counts, [`crate::enumerate::Stream`] for
/// listings).
///
/// # Errors
/// [`Error::ZeroThreads`] if `threads` is 0; [`Error::ThreadPool`] if they are more than rayon
/// starts in one pool (`rayon::max_num_threads()`, 65,535 on 64-bit targets: it would start
/// that many and say nothing) or if the operating system refuses to start them;
/// [`Error::OutOfMemory`] if their stacks would not fit under the address-space limit
/// ([`crate::memory::check_threads`]).
pub fn pool(threads: usize, name: &'static str) -> Result<rayon::ThreadPool, Error> {
    if threads == 0 {
        return Err(Error::ZeroThreads);
    }
    let most = rayon::max_num_threads();
    if threads > most {
        return Err(Error::ThreadPool { threads, reason: format!("a pool holds at most {most} threads") });
    }
    crate::memory::check_threads(threads)?;
    // Before the first worker starts: under an address-space limit, the workers share one
    // allocator arena instead of reserving one each (what `check_threads` counted).
    crate::memory::limit_arenas();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("{name}-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool { threads, reason: e.to_string() })
}

/// Runs `work(i)` once on each of `threads` threads of a fresh pool named `name` (threads
/// `{name}-0`, `{name}-1`, …; i = 0, 1, …) and returns what each returned, in thread order: for
/// work that is not a count, such as the plan command's timed sample, which shares its state
/// between the threads itself. The threads are started where every thread of the library is.
///
/// # Errors
/// [`Error::ZeroThreads`] if `threads` is 0; [`Error::ThreadPool`] if they are more than one
/// pool holds or the operating system refuses to start them; [`Error::OutOfMemory`] if their
/// stacks would not fit under the address-space limit.
///
/// # Examples
/// ```
/// let squares = nqueens::plan::on_threads(3, "example", |i| i * i).unwrap();
/// assert_eq!(squares, vec![0, 1, 4]);
/// ```
pub fn on_threads<R: Send>(
    threads: usize,
    name: &'static str,
    work: impl Fn(usize) -> R + Sync,
) -> Result<Vec<R>, Error> {
    Ok(pool(threads, name)?.broadcast(|ctx| work(ctx.index())))
}

/// Solves every subproblem of `plan` on `pool` and returns the exact sum, telling `progress` of
/// each; counts nodes when `stats` is true.
#[cfg(any(test, feature = "internals"))]
pub fn run(plan: &dyn Plan, pool: &rayon::ThreadPool, progress: Progress, stats: bool) -> Outcome {
    run_with(plan, pool, progress, stats, Job::default())
}

/// Solves the subproblems of `plan` that `job` selects on `pool`, in the shuffled order of the
/// module docs, calls `job.on_solved` for each and stops once `job.stop` is set; returns the
/// exact sum of those solved.
///
/// The plain count ([`run`]) takes the same path: an unset `only` is the range `0..len`, and an
/// unset callback or flag costs one branch per subproblem.
///
/// # Panics
/// If an index of `job.only` is not below `plan.len()`.
#[cfg(any(test, feature = "internals"))]
pub fn run_with(
    plan: &dyn Plan,
    pool: &rayon::ThreadPool,
    progress: Progress,
    stats: bool,
    job: Job<'_>,
) -> Outcome {
    run_on(plan, pool, &[], progress, stats, job)
}

/// [`run_with`] with `devices` beside the CPU: the first `devices.len()` threads of `pool` each
/// drive one device ([`Device::solve`]), the others solve subproblems on the CPU, all from the
/// one shared list (see the module docs). A pool of exactly `devices.len()` threads counts on
/// the devices alone.
///
/// # Panics
/// If an index of `job.only` is not below `plan.len()`, or if `pool` has fewer threads than
/// there are devices.
pub fn run_on(
    plan: &dyn Plan,
    pool: &rayon::ThreadPool,
    devices: &[Arc<dyn Device>],
    progress: Progress,
    stats: bool,
    job: Job<'_>,
) -> Outcome {
    assert!(pool.current_num_threads() >= devices.len(), "one worker thread per device");
    let total = job.only.map_or(plan.len(), <[usize]>::len);
    if let Some((d, why)) = devices.iter().find_map(|d| d.refuses(plan).map(|why| (d, why))) {
        let failure = Some(Error::Device { device: d.name(), reason: why });
        return Outcome { stopped: total > 0, failure, ..Outcome::default() };
    }
    let index = |k: usize| job.only.map_or(k, |only| only[k]);
    let observer = progress.observer();
    // Weights only for the observer (a plain count does not spend their estimate), and only
    // where their list can be allocated (else every weight is 1): no allocation here aborts.
    let mut weights: Vec<f64> = Vec::new();
    if observer.is_some() && weights.try_reserve_exact(total).is_ok() {
        pool.install(|| weights.par_extend((0..total).into_par_iter().map(|k| plan.weight(index(k)))));
    }
    if let Some(o) = observer {
        let threads = pool.current_num_threads();
        let work = weights.iter().sum();
        let stops_midway = plan.stops_midway();
        let devices = devices.len();
        o.start(&Run { n: plan.n(), subproblems: total as u64, work, threads, devices, stops_midway });
    }
    // The shuffled order where it can be allocated, else index order.
    let order = try_shuffled(total);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let failure: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);
    let stopping = || failed.load(Ordering::Relaxed) || job.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let stepwise = observer.is_some() || job.stop.is_some();
    let worker = |ctx: rayon::BroadcastContext<'_>| {
        if let Some(device) = devices.get(ctx.index()) {
            let mut queue = RunQueue {
                next: &next,
                total,
                order: order.as_deref(),
                index: &index,
                weights: &weights,
                stopping: &stopping,
                on_solved: job.on_solved,
                observer,
                taken: std::collections::HashMap::new(),
                tally: Tally::default(),
                solved: 0,
            };
            let t0 = Instant::now();
            if let Err(e) = device.solve(plan, stats, &mut queue) {
                failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                failed.store(true, Ordering::Relaxed);
            }
            return (queue.tally, t0.elapsed(), queue.solved);
        }
        let (mut tally, mut busy, mut solved) = (Tally::default(), Duration::ZERO, 0usize);
        while !stopping() {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= total {
                break;
            }
            let position = order.as_ref().map_or(k, |o| o[k] as usize);
            let i = index(position);
            let weight = weights.get(position).copied().unwrap_or(1.0);
            let t0 = Instant::now();
            let mut reported = 0.0;
            let result = if stepwise {
                plan.solve_in_steps(i, stats, &mut |share| {
                    if let Some(o) = observer.filter(|_| share > 0.0) {
                        let work = share * weight;
                        reported += work;
                        o.advance(work);
                    }
                    if stopping() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                })
            } else {
                Some(plan.solve(i, stats))
            };
            busy += t0.elapsed();
            // None: stopped midway; its counts are dropped and it is solved again on resume.
            let Some(t) = result else { break };
            if let Some(f) = job.on_solved {
                f(i, &t);
            }
            if let Some(o) = observer {
                o.solved((weight - reported).max(0.0));
            }
            tally += t;
            solved += 1;
        }
        (tally, busy, solved)
    };
    let parts = if total == 0 { Vec::new() } else { pool.broadcast(worker) };
    let (tally, busy, solved) = parts
        .into_iter()
        .fold((Tally::default(), Duration::ZERO, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    if let Some(o) = observer {
        o.finish();
    }
    let failure = failure.into_inner().unwrap_or_else(|e| e.into_inner());
    Outcome { tally, busy_seconds: busy.as_secs_f64(), solved, stopped: solved < total, failure }
}

/// The [`Queue`] a device's worker thread sees: the runner's shared cursor, and the callback,
/// observer and sums of that thread.
struct RunQueue<'r, 'j> {
    next: &'r AtomicUsize,
    total: usize,
    order: Option<&'r [u32]>,
    index: &'r (dyn Fn(usize) -> usize + Sync),
    weights: &'r [f64],
    stopping: &'r (dyn Fn() -> bool + Sync),
    on_solved: Option<&'j OnSolved<'j>>,
    observer: Option<&'r dyn Observer>,
    /// The subproblems handed out and not yet reported: (index, weight).
    taken: std::collections::HashMap<usize, f64>,
    tally: Tally,
    solved: usize,
}

impl Queue for RunQueue<'_, '_> {
    fn next(&mut self) -> Option<usize> {
        if (self.stopping)() {
            return None;
        }
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        if k >= self.total {
            return None;
        }
        let position = self.order.map_or(k, |o| o[k] as usize);
        let i = (self.index)(position);
        self.taken.insert(i, self.weights.get(position).copied().unwrap_or(1.0));
        Some(i)
    }

    fn solved(&mut self, index: usize, tally: &Tally) {
        let Some(weight) = self.taken.remove(&index) else {
            debug_assert!(false, "subproblem {index} was not handed to this device");
            return;
        };
        if let Some(f) = self.on_solved {
            f(index, tally);
        }
        if let Some(o) = self.observer {
            o.solved(weight);
        }
        self.tally += *tally;
        self.solved += 1;
    }

    fn stopping(&self) -> bool {
        (self.stopping)()
    }
}

/// The most consecutive subproblems the runner's order keeps together: the join's neighbours
/// in index order read the same stretches of the quarter table, and a shuffle of single units
/// made n = 18 about 6% slower on one thread (3.28 against 3.12 user s, medians of 8
/// alternating runs) where blocks of 64 cost nothing measurable.
pub const ORDER_BLOCK: usize = 64;

/// The fewest blocks the runner's order shuffles, so that the work done at any moment is a
/// sample of many places of the plan (blocks are smaller in plans under 32,768 subproblems).
pub const ORDER_BLOCKS: usize = 512;

/// Returns the number of consecutive subproblems the runner's order keeps together in a plan
/// of `len` subproblems (see the module docs): 64 (`ORDER_BLOCK`), or fewer in plans under
/// 32,768 subproblems so that there are at least 512 blocks to shuffle (`ORDER_BLOCKS`); at
/// least 1. A
/// sample that should find the caches as a run does (`nqueens plan`'s) times pieces of blocks
/// of this length.
///
/// # Examples
/// ```
/// use nqueens::plan::order_block;
/// assert_eq!(order_block(1_000_000), 64);
/// assert_eq!(order_block(5_120), 10);
/// assert_eq!(order_block(7), 1);
/// ```
pub fn order_block(len: usize) -> usize {
    (len / ORDER_BLOCKS).clamp(1, ORDER_BLOCK)
}

/// Returns the positions `0..len` in the runner's fixed pseudo-random order (see the module
/// docs): blocks of [`order_block`]`(len)` consecutive positions in the order of a
/// Fisher–Yates shuffle driven by xorshift64 (G. Marsaglia, 2003) seeded by `len`, the same on
/// every machine. For the tests and the examples; the runner calls [`try_shuffled`].
///
/// # Panics
/// If `len` does not fit a `u32` (plans hold at most [`crate::split::MAX_SUBPROBLEMS`]), or if
/// the order cannot be allocated ([`try_shuffled`] returns `None` instead).
#[cfg(any(test, feature = "internals"))]
pub fn shuffled(len: usize) -> Vec<u32> {
    try_shuffled(len).unwrap_or_else(|| panic!("cannot allocate the order of {len} subproblems"))
}

/// Returns the positions `0..len` in the runner's fixed pseudo-random order (see `shuffled`),
/// or `None` if its memory (6 bytes per subproblem at most) cannot be allocated.
///
/// # Panics
/// If `len` does not fit a `u32`.
pub fn try_shuffled(len: usize) -> Option<Vec<u32>> {
    assert!(u32::try_from(len).is_ok(), "{len} subproblems are beyond the runner's order");
    let block = order_block(len);
    let blocks = len.div_ceil(block);
    let mut shuffled: Vec<u32> = Vec::new();
    shuffled.try_reserve_exact(blocks).ok()?;
    shuffled.extend(0..blocks as u32);
    let mut rng = (len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for i in (1..blocks).rev() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        shuffled.swap(i, (rng % (i as u64 + 1)) as usize);
    }
    let mut order: Vec<u32> = Vec::new();
    order.try_reserve_exact(len).ok()?;
    let block = block as u32;
    order.extend(shuffled.into_iter().flat_map(|b| b * block..((b + 1) * block).min(len as u32)));
    Some(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::MirrorPlan;
    use std::sync::Mutex;

    #[test]
    fn thread_counts_agree() {
        let plan = MirrorPlan::new(11, 3).unwrap();
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let out = run(&plan, &pool, Progress::Never, true);
            assert_eq!(out.tally.solutions, 2680, "threads = {threads}");
            assert!(out.tally.nodes > 0);
        }
    }

    #[test]
    fn the_order_is_a_fixed_permutation_of_shuffled_blocks() {
        for len in [0, 1, 7, 512, 5000, 100_000] {
            let order = shuffled(len);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..len as u32).collect::<Vec<_>>(), "len = {len}");
            assert_eq!(order, shuffled(len), "len = {len}");
        }
        // 102,400 positions: 1,600 blocks of 64 neighbours each, the first not the first 64.
        let order = shuffled(102_400);
        assert!(order.chunks(64).all(|b| b[0] % 64 == 0 && b.windows(2).all(|w| w[1] == w[0] + 1)));
        assert_ne!(order[0], 0);
        // 5,000 positions: blocks of 9, so that there are at least 512.
        assert_eq!(shuffled(5000)[0] % 9, 0);
    }

    /// An observer that adds up what it hears.
    #[derive(Default)]
    struct Heard {
        run: Mutex<Option<Run>>,
        work: Mutex<f64>,
        steps: AtomicUsize,
        solved: AtomicUsize,
        finished: AtomicBool,
    }

    impl Observer for Heard {
        fn start(&self, run: &Run) {
            *self.run.lock().unwrap() = Some(*run);
        }
        fn advance(&self, work: f64) {
            *self.work.lock().unwrap() += work;
            self.steps.fetch_add(1, Ordering::Relaxed);
        }
        fn solved(&self, work: f64) {
            *self.work.lock().unwrap() += work;
            self.solved.fetch_add(1, Ordering::Relaxed);
        }
        fn finish(&self) {
            self.finished.store(true, Ordering::Relaxed);
        }
    }

    #[test]
    fn the_observer_hears_every_step_and_the_whole_weight() {
        // n = 12 at depth 2 with steps of 6 free rows: many steps per subproblem.
        let plan = MirrorPlan::new(12, 2).unwrap().with_step_rows(6);
        let pool = pool(2, "test").unwrap();
        let heard = Arc::new(Heard::default());
        let out = run(&plan, &pool, Progress::To(heard.clone()), false);
        assert_eq!(out.tally.solutions, 14_200);
        let run = heard.run.lock().unwrap().unwrap();
        let want: f64 = (0..plan.len()).map(|i| plan.weight(i)).sum();
        assert_eq!((run.n, run.subproblems, run.threads, run.stops_midway), (12, plan.len() as u64, 2, true));
        assert_eq!(run.devices, 0);
        assert!((run.work - want).abs() <= 1e-9 * want);
        assert!((*heard.work.lock().unwrap() - want).abs() <= 1e-6 * want, "{}", heard.work.lock().unwrap());
        assert_eq!(heard.solved.load(Ordering::Relaxed), plan.len());
        assert!(heard.steps.load(Ordering::Relaxed) > plan.len());
        assert!(heard.finished.load(Ordering::Relaxed));
    }

    #[test]
    fn a_stop_ends_running_subproblems_at_their_next_step() {
        // One subproblem of n = 15 in steps of 4 free rows: the callback stops the run after
        // 10 steps, and the subproblem is dropped, not counted.
        let plan = MirrorPlan::new(15, 1).unwrap().with_step_rows(4);
        let pool = pool(1, "test").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let heard = Arc::new(Heard::default());
        let only = [3usize];
        /// Passes on what it hears and sets the flag after ten steps.
        struct StopAfter(Arc<Heard>, Arc<AtomicBool>);
        impl Observer for StopAfter {
            fn start(&self, run: &Run) {
                self.0.start(run)
            }
            fn advance(&self, work: f64) {
                self.0.advance(work);
                if self.0.steps.load(Ordering::Relaxed) == 10 {
                    self.1.store(true, Ordering::Relaxed);
                }
            }
            fn solved(&self, work: f64) {
                self.0.solved(work)
            }
            fn finish(&self) {
                self.0.finish()
            }
        }
        let observer = Arc::new(StopAfter(heard.clone(), stop.clone()));
        let job = Job { only: Some(&only), stop: Some(&*stop), ..Job::default() };
        let out = run_with(&plan, &pool, Progress::To(observer), false, job);
        assert_eq!((out.solved, out.stopped, out.tally), (0, true, Tally::default()));
        assert_eq!(heard.steps.load(Ordering::Relaxed), 10);
        assert_eq!(heard.solved.load(Ordering::Relaxed), 0);
    }

    /// A device that solves on the host, `chunk` subproblems per "launch", and fails after
    /// `fail_after` reported ones (never if `None`), or refuses every plan.
    #[derive(Debug)]
    struct HostDevice {
        name: &'static str,
        chunk: usize,
        fail_after: Option<usize>,
        refuse: bool,
        taken: AtomicUsize,
    }

    impl HostDevice {
        fn new(name: &'static str, chunk: usize) -> HostDevice {
            HostDevice { name, chunk, fail_after: None, refuse: false, taken: AtomicUsize::new(0) }
        }
    }

    impl Device for HostDevice {
        fn name(&self) -> String {
            self.name.to_string()
        }
        fn refuses(&self, plan: &dyn Plan) -> Option<String> {
            self.refuse.then(|| format!("no search for {} plans", plan.algorithm()))
        }
        fn solve(&self, plan: &dyn Plan, stats: bool, queue: &mut dyn Queue) -> Result<(), Error> {
            let mut reported = 0;
            loop {
                let batch: Vec<usize> = (0..self.chunk).map_while(|_| queue.next()).collect();
                if batch.is_empty() {
                    return Ok(());
                }
                self.taken.fetch_add(batch.len(), Ordering::Relaxed);
                for i in batch {
                    if self.fail_after == Some(reported) {
                        return Err(Error::DeviceFailed { device: self.name(), reason: "lost".into() });
                    }
                    queue.solved(i, &plan.solve(i, stats));
                    reported += 1;
                }
            }
        }
    }

    /// Break-it round of 2026-12-03, finding 2: `usize::MAX` threads beside a device wrapped
    /// to 0 threads ("thread count 0 is not allowed", a value nobody passed; a panic in debug
    /// builds); and rayon starts at most `max_num_threads()` threads in a pool, silently: more
    /// are refused, naming the count.
    #[test]
    fn thread_counts_past_rayon_s_limit_are_refused_by_name() {
        let most = rayon::max_num_threads();
        let err = pool(most + 1, "t").err().unwrap();
        assert_eq!(err.to_string(), format!("cannot start {} worker threads: a pool holds at most {most} threads", most + 1));
        let device: Arc<dyn Device> = Arc::new(HostDevice::new("gpu", 4));
        let options = crate::CountOptions { threads: usize::MAX, devices: vec![device], ..Default::default() };
        match crate::Counter::new(&options) {
            Err(Error::ThreadPool { threads, .. }) => assert_eq!(threads, usize::MAX),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }

    #[test]
    fn devices_and_cpu_threads_pull_from_one_list() {
        let plan = MirrorPlan::new(12, 3).unwrap();
        let heard = Mutex::new(Vec::new());
        let on_solved = |i: usize, _: &Tally| heard.lock().unwrap().push(i);
        for cpu in [0, 2] {
            heard.lock().unwrap().clear();
            let (a, b) = (Arc::new(HostDevice::new("a", 3)), Arc::new(HostDevice::new("b", 7)));
            let devices: Vec<Arc<dyn Device>> = vec![a.clone(), b.clone()];
            let pool = pool(2 + cpu, "test").unwrap();
            let observer = Arc::new(Heard::default());
            let job = Job { on_solved: Some(&on_solved), ..Job::default() };
            let out = run_on(&plan, &pool, &devices, Progress::To(observer.clone()), true, job);
            assert_eq!(
                (out.tally.solutions, out.solved, out.stopped),
                (14_200, plan.len(), false),
                "cpu {cpu}"
            );
            assert!(out.failure.is_none());
            let mut ids = heard.lock().unwrap().clone();
            ids.sort_unstable();
            assert_eq!(ids, (0..plan.len()).collect::<Vec<_>>(), "each subproblem once");
            assert_eq!(observer.solved.load(Ordering::Relaxed), plan.len());
            // Without CPU threads the devices take every subproblem; beside two, how many they
            // take is a race (on a loaded machine the threads took them all), so only the
            // list's each-once is checked there.
            let taken = a.taken.load(Ordering::Relaxed) + b.taken.load(Ordering::Relaxed);
            assert!(cpu > 0 || taken == plan.len(), "cpu {cpu}: devices took {taken}");
        }
    }

    #[test]
    fn a_failed_device_stops_the_run_and_keeps_what_it_reported() {
        let plan = MirrorPlan::new(11, 3).unwrap();
        let device = HostDevice { fail_after: Some(4), ..HostDevice::new("gpu:0", 2) };
        let devices: Vec<Arc<dyn Device>> = vec![Arc::new(device)];
        let heard = Mutex::new(Tally::default());
        let on_solved = |_: usize, t: &Tally| *heard.lock().unwrap() += *t;
        let job = Job { on_solved: Some(&on_solved), ..Job::default() };
        let out = run_on(&plan, &pool(1, "test").unwrap(), &devices, Progress::Never, false, job);
        assert_eq!((out.solved, out.stopped), (4, true));
        assert_eq!(out.tally, *heard.lock().unwrap());
        assert_eq!(out.failure, Some(Error::DeviceFailed { device: "gpu:0".into(), reason: "lost".into() }));
        // One that refuses the plan fails before anything is solved.
        let device = HostDevice { refuse: true, ..HostDevice::new("gpu:1", 2) };
        let devices: Vec<Arc<dyn Device>> = vec![Arc::new(device)];
        let out = run_on(&plan, &pool(2, "test").unwrap(), &devices, Progress::Never, false, Job::default());
        assert_eq!((out.solved, out.stopped, out.tally), (0, true, Tally::default()));
        let reason = "no search for mirror plans".to_string();
        assert_eq!(out.failure, Some(Error::Device { device: "gpu:1".into(), reason }));
    }

    #[test]
    fn subsets_callbacks_and_stops() {
        let plan = MirrorPlan::new(10, 3).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let all: Vec<Tally> = (0..plan.len()).map(|i| plan.solve(i, false)).collect();
        // A subset: the callback hears each index once, and the sum is theirs alone.
        let only: Vec<usize> = (0..plan.len()).filter(|i| i % 3 != 1).collect();
        let heard = Mutex::new(Vec::new());
        let on_solved = |i: usize, t: &Tally| heard.lock().unwrap().push((i, *t));
        let job = Job { only: Some(&only), on_solved: Some(&on_solved), stop: None };
        let out = run_with(&plan, &pool, Progress::Never, false, job);
        let want = only.iter().fold(Tally::default(), |t, &i| t + all[i]);
        assert_eq!((out.tally, out.solved, out.stopped), (want, only.len(), false));
        let mut heard = heard.into_inner().unwrap();
        heard.sort_by_key(|h| h.0);
        assert_eq!(heard, only.iter().map(|&i| (i, all[i])).collect::<Vec<_>>());
        // The rest adds up to Q(10) = 724 with the subset.
        let rest: Vec<usize> = (0..plan.len()).filter(|i| i % 3 == 1).collect();
        let job = Job { only: Some(&rest), ..Job::default() };
        assert_eq!(run_with(&plan, &pool, Progress::Never, false, job).tally.solutions + want.solutions, 724);
        // A stop flag set before the start: nothing runs.
        let stop = AtomicBool::new(true);
        let job = Job { stop: Some(&stop), ..Job::default() };
        let out = run_with(&plan, &pool, Progress::Never, false, job);
        assert_eq!((out.solved, out.stopped, out.tally), (0, true, Tally::default()));
        // A stop set by the callback after 5 subproblems: the run stops early, and what it
        // returns is exactly the sum of what it reported.
        let count = std::sync::atomic::AtomicUsize::new(0);
        let sum = Mutex::new(Tally::default());
        let stop = AtomicBool::new(false);
        let on_solved = |_: usize, t: &Tally| {
            *sum.lock().unwrap() += *t;
            if count.fetch_add(1, Ordering::Relaxed) + 1 == 5 {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let job = Job { only: None, on_solved: Some(&on_solved), stop: Some(&stop) };
        let out = run_with(&plan, &pool, Progress::Never, false, job);
        assert!(out.stopped && out.solved >= 5 && out.solved < plan.len(), "{out:?}");
        assert_eq!(out.tally, *sum.lock().unwrap());
    }
}

//! The one place that decides how subproblems run: a rayon pool sums [`Plan::solve`] over every
//! subproblem, and tells a [`Progress`] observer of each one solved (the `nqueens` binary draws
//! its progress bar from that; the library draws nothing).
//!
//! Work stealing does the load balancing: the subproblem list is long (see
//! [`crate::split::auto_split_depth`]), and rayon splits the index range between idle workers
//! as they run dry. The sum is exact (`u128`) and its value does not depend on the order, so the
//! count is the same for every thread count. The observer hears of each subproblem once, outside
//! the kernel.
//!
//! Long runs ([`run_with`]) also choose which subproblems to solve (those a checkpoint journal
//! lacks, or one shard's), hear of each solved subproblem (to journal it), and stop taking new
//! subproblems when a flag is set (by a signal handler); the flag is read between subproblems,
//! never in the kernel.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::{Error, Plan, Tally};

/// Told by the runner how a count advances: its start, each solved subproblem, its end. The
/// `nqueens` binary draws its progress bar from these calls; a library user may log them.
///
/// Methods are called from the worker threads (hence `Sync`), between subproblems, never inside
/// the search. A [`crate::Counter`] that counts several boards calls `start` once per board.
pub trait Observer: Send + Sync {
    /// A run of the `n`×`n` board begins, with `subproblems` to solve.
    fn start(&self, n: u32, subproblems: u64);
    /// One more subproblem is solved.
    fn solved(&self);
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
    fn observer(&self) -> Option<&dyn Observer> {
        match self {
            Progress::Never => None,
            Progress::To(o) => Some(o.as_ref()),
        }
    }
}

/// What [`run`] returns: the summed counts and the time the workers spent in subproblems.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
}

/// A callback told of each solved subproblem: its index and counts.
pub type OnSolved<'a> = dyn Fn(usize, &Tally) + Sync + 'a;

/// What [`run_with`] runs beyond the plain count: which subproblems, what to tell of each, and
/// when to stop. `Job::default()` is the plain count of every subproblem.
#[derive(Clone, Copy, Default)]
pub struct Job<'a> {
    /// The subproblem indices to solve (each in `0..plan.len()`, each once); `None` solves all.
    /// A resumed run passes the ones its journal lacks, a shard passes its own.
    pub only: Option<&'a [usize]>,
    /// Called on the worker thread with the index and counts of each solved subproblem, as soon
    /// as it is solved, in no particular order (a checkpoint journal appends a line here).
    pub on_solved: Option<&'a OnSolved<'a>>,
    /// Checked before each subproblem starts (never inside the kernel): once it is true, no new
    /// subproblem starts and those already running finish (a signal handler sets it).
    pub stop: Option<&'a AtomicBool>,
}

/// Returns a pool of `threads` worker threads named `{name}-0`, `{name}-1`, …: the one place the
/// library starts threads ([`crate::Counter`] for counts, [`crate::enumerate::Stream`] for
/// listings).
///
/// # Errors
/// [`Error::ZeroThreads`] if `threads` is 0; [`Error::OutOfMemory`] if their stacks would not fit
/// under the address-space limit ([`crate::memory::check_threads`]); [`Error::ThreadPool`] if the
/// operating system refuses to start them.
pub fn pool(threads: usize, name: &'static str) -> Result<rayon::ThreadPool, Error> {
    if threads == 0 {
        return Err(Error::ZeroThreads);
    }
    crate::memory::check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("{name}-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool { threads, reason: e.to_string() })
}

/// Solves every subproblem of `plan` on `pool` and returns the exact sum, telling `progress` of
/// each; counts nodes when `stats` is true.
pub fn run(plan: &dyn Plan, pool: &rayon::ThreadPool, progress: Progress, stats: bool) -> Outcome {
    run_with(plan, pool, progress, stats, Job::default())
}

/// Solves the subproblems of `plan` that `job` selects on `pool`, calls `job.on_solved` for each
/// and stops taking new ones once `job.stop` is set; returns the exact sum of those solved.
///
/// The plain count ([`run`]) takes the same path: an unset `only` is the range `0..len`, and an
/// unset callback or flag costs one branch per subproblem.
///
/// # Panics
/// If an index of `job.only` is not below `plan.len()`.
pub fn run_with(
    plan: &dyn Plan,
    pool: &rayon::ThreadPool,
    progress: Progress,
    stats: bool,
    job: Job<'_>,
) -> Outcome {
    let total = job.only.map_or(plan.len(), <[usize]>::len);
    let observer = progress.observer();
    if let Some(o) = observer {
        o.start(plan.n(), total as u64);
    }
    let solve = |i: usize| -> (Tally, Duration, usize) {
        if job.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return (Tally::default(), Duration::ZERO, 0);
        }
        let t0 = Instant::now();
        let tally = plan.solve(i, stats);
        let busy = t0.elapsed();
        if let Some(f) = job.on_solved {
            f(i, &tally);
        }
        if let Some(o) = observer {
            o.solved();
        }
        (tally, busy, 1)
    };
    let zero = || (Tally::default(), Duration::ZERO, 0usize);
    let sum = |a: (Tally, Duration, usize), b: (Tally, Duration, usize)| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
    let (tally, busy, solved) = pool.install(|| match job.only {
        None => (0..plan.len()).into_par_iter().map(solve).reduce(zero, sum),
        Some(only) => only.par_iter().map(|&i| solve(i)).reduce(zero, sum),
    });
    if let Some(o) = observer {
        o.finish();
    }
    Outcome { tally, busy_seconds: busy.as_secs_f64(), solved, stopped: solved < total }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MirrorPlan;

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
    fn subsets_callbacks_and_stops() {
        use std::sync::Mutex;
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

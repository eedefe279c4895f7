//! Counting one board: the exact sums ([`Tally`], [`Classes`]), the options, the result
//! ([`Count`]) and the [`Counter`] that owns the only thread pool.

use std::sync::Arc;
use std::time::Instant;

use crate::algo::{D4Search, PlanSpec};
use crate::arch::{Isa, Level};
use crate::limits::available_threads;
use crate::parallel::{self, Device, Job, Outcome, Progress};
use crate::vocabulary::{Algorithm, Classes, Plan, Tally};
use crate::{Error, split};

/// How to count: threads, devices, algorithm, split depth, progress bar, statistics.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// CPU worker threads (at least 1 without devices; 0 counts on the devices alone).
    /// Default: every logical CPU ([`crate::plan::available_threads`]).
    pub threads: usize,
    /// Devices beside the CPU threads (GPUs, from the `nqueens-gpu` crate), each driven by a
    /// worker thread of its own that pulls subproblems from the same list as the CPU threads
    /// (see `crate::parallel`). Default: none, the CPU alone.
    pub devices: Vec<Arc<dyn Device>>,
    /// The search algorithm. Default: [`Algorithm::Auto`] (join from n = 8 while its table fits,
    /// else d4).
    pub algorithm: Algorithm,
    /// Rows fixed per subproblem; `None` lets `split::auto_split_depth` choose.
    pub split_depth: Option<u32>,
    /// Whom the runner tells of each solved subproblem (the `nqueens` binary draws its progress
    /// bar from it). Default: [`Progress::Never`].
    pub progress: Progress,
    /// Whether to count search-tree nodes (slightly slower). Default: false.
    pub stats: bool,
    /// The search that counts d4 subproblems. Default: [`D4Search::Auto`].
    pub d4_search: D4Search,
    /// The instruction-set level every search runs at. Default: [`Level::best`].
    pub level: Level,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            threads: available_threads(),
            devices: Vec::new(),
            algorithm: Algorithm::default(),
            split_depth: None,
            progress: Progress::Never,
            stats: false,
            d4_search: D4Search::Auto,
            level: Level::best(),
        }
    }
}

/// The result of counting one board. Serializes with serde (field names as below; `u128`
/// counts as numbers).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Count {
    /// The board side.
    pub n: u32,
    /// Q(n), the number of solutions (OEIS A000170), exact.
    pub solutions: u128,
    /// The number of fundamental solutions (OEIS A002562), when the algorithm classifies
    /// solutions by symmetry and n ≥ 1 (A002562 does not define n = 0).
    pub unique: Option<u128>,
    /// The fundamental solutions by orbit size, when `unique` is known.
    pub classes: Option<Classes>,
    /// The algorithm that counted.
    pub algorithm: Algorithm,
    /// The instruction-set level the searches ran at (serialized as its name); `None` for a
    /// count merged from shards, which may have run on different machines.
    pub isa: Option<Isa>,
    /// Wall-clock seconds of the count (planning included).
    pub seconds: f64,
    /// CPU worker threads used (0 for a count on devices alone).
    pub threads: usize,
    /// What counted, as [`Count::device_names`] words it: the names of the devices
    /// ([`Device::name`], e.g. `opencl:0`) and `cpu` where CPU threads took part; empty for a
    /// count merged from shards.
    pub devices: Vec<String>,
    /// Number of subproblems the board was split into.
    pub subproblems: usize,
    /// Rows fixed per subproblem.
    pub split_depth: u32,
    /// Queen placements made by the search, if statistics were asked for.
    pub nodes: Option<u128>,
    /// Seconds of CPU time (user + system, all threads) the process spent during the count, if
    /// statistics were asked for. Parallel efficiency is `cpu_seconds / (seconds × threads)`.
    pub cpu_seconds: Option<f64>,
}

impl Count {
    /// Checks every count of `count` against the OEIS tables ([`crate::oeis`]): solutions against A000170, and, when the
    /// count carries them, fundamental solutions against A002562 and the classes against
    /// [`crate::oeis::CLASSES`].
    ///
    /// Returns `Some(false)` if any known value differs, `Some(true)` if all that are known agree
    /// and the solutions are known, `None` (unverified) if n is beyond A000170; and one line per
    /// mismatch, e.g. `A002562: counted 13, known 12`.
    pub fn check_known(&self) -> (Option<bool>, Vec<String>) {
        let count = self;
        let n = count.n;
        let mut mismatches = Vec::new();
        let solutions = crate::oeis::A000170.verify(n, count.solutions);
        if solutions == Some(false) {
            let known = crate::oeis::A000170.get(n).expect("a mismatch implies a known value");
            mismatches.push(format!("A000170: counted {}, known {known}", count.solutions));
        }
        if let Some(unique) = count.unique
            && let Some(known) = crate::oeis::A002562.get(n).filter(|&k| k != unique)
        {
            mismatches.push(format!("A002562: counted {unique}, known {known}"));
        }
        if let Some(classes) = count.classes
            && let Some(known) = crate::oeis::known_classes(n).filter(|&k| k != classes)
        {
            let show = |c: crate::Classes| format!("{}/{}/{}/{}", c.orbit8, c.orbit4, c.orbit2, c.orbit1);
            mismatches.push(format!("classes 8/4/2/1: counted {}, known {}", show(classes), show(known)));
        }
        let verified = if !mismatches.is_empty() { Some(false) } else { solutions };
        (verified, mismatches)
    }

    /// Returns the count of the `n`×`n` board: `solutions` and the fundamental solutions
    /// `classes`, counted with `algorithm`; the other fields empty (no instruction-set level, no
    /// time, no threads, subproblems or nodes). For counts assembled elsewhere, such as shards
    /// merged: set the public fields that apply.
    pub fn new(n: u32, solutions: u128, classes: Option<Classes>, algorithm: Algorithm) -> Count {
        Count {
            n,
            solutions,
            unique: classes.map(|c| c.total()),
            classes,
            algorithm,
            isa: None,
            seconds: 0.0,
            threads: 0,
            devices: Vec::new(),
            subproblems: 0,
            split_depth: 0,
            nodes: None,
            cpu_seconds: None,
        }
    }

    /// Returns the count of the board of `plan` from `total`, the sum of the tallies of every
    /// one of its subproblems, counted with `algorithm` (concrete) in `seconds` on `threads`
    /// threads, with `nodes` where they were counted; the fundamental solutions are
    /// [`Plan::fundamental`]'s. For runs assembled from parts, such as a resumed checkpoint;
    /// [`Counter::count`] builds its result with it too.
    pub fn of_plan(
        plan: &dyn Plan,
        total: &Tally,
        algorithm: Algorithm,
        seconds: f64,
        threads: usize,
        nodes: Option<u128>,
    ) -> Count {
        let classes = plan.fundamental(total);
        Count {
            n: plan.n(),
            solutions: total.solutions,
            unique: classes.map(|c| c.total()),
            classes,
            algorithm,
            isa: Some(plan.level().isa()),
            seconds,
            threads,
            devices: vec!["cpu".to_string()],
            subproblems: plan.len(),
            split_depth: plan.split_depth(),
            nodes,
            cpu_seconds: None,
        }
    }

    /// Returns what counted in one word list: `cpu`, or the devices' names joined by `,` with
    /// `cpu` last where CPU threads took part (`opencl:0,opencl:1,cpu`); `-` for a count merged
    /// from shards.
    pub fn device_names(&self) -> String {
        if self.devices.is_empty() { "-".to_string() } else { self.devices.join(",") }
    }
}

/// Returns the names a [`Count`] records for a count on `devices` with `threads` CPU worker
/// threads beside them ([`Count::devices`]).
pub fn device_list(devices: &[Arc<dyn Device>], threads: usize) -> Vec<String> {
    let mut names: Vec<String> = devices.iter().map(|d| d.name()).collect();
    if threads > 0 {
        names.push("cpu".to_string());
    }
    names
}

/// A reusable counter: a thread pool and the options it counts with.
pub struct Counter {
    options: CountOptions,
    pool: rayon::ThreadPool,
}

impl Counter {
    /// Returns a counter with its own pool of `options.threads` CPU worker threads and one
    /// thread per device.
    ///
    /// # Errors
    /// [`Error::ZeroThreads`] if `options.threads` is 0 and there is no device;
    /// [`Error::BadSplitDepth`] if `options.split_depth` is `Some(0)` or too deep;
    /// [`Error::ThreadPool`] if the threads cannot be started.
    pub fn new(options: &CountOptions) -> Result<Counter, Error> {
        if options.threads == 0 && options.devices.is_empty() {
            return Err(Error::ZeroThreads);
        }
        options.split_depth.map(split::check_depth).transpose()?;
        // Saturating: usize::MAX threads and a device are refused as usize::MAX threads, not as 0.
        let pool = parallel::pool(options.threads.saturating_add(options.devices.len()), "nqueens")?;
        Ok(Counter { options: options.clone(), pool })
    }

    /// Returns `Ok(())` if `threads` worker threads can be started under the process's
    /// address-space limit (`RLIMIT_AS`, as `ulimit -v` sets it): their stacks (2 MiB each) and
    /// the allocator arena they share are reserved address space before they do any work. This
    /// is the check [`Counter::new`] and [`crate::enumerate::Stream::new`] make before they start
    /// their threads, for a caller that wants the answer first (the command line warns of too
    /// many threads only when they would start). Always `Ok(())` without a limit; `threads` = 0
    /// fits.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] naming the threads, the MiB they need and the room left.
    ///
    /// # Examples
    /// ```
    /// // Without an address-space limit (`ulimit -v unlimited`), any number fits.
    /// assert!(nqueens::Counter::check_threads(1).is_ok());
    /// ```
    pub fn check_threads(threads: usize) -> Result<(), Error> {
        crate::memory::check_threads(threads)
    }

    /// Returns the options this counter was made with.
    pub fn options(&self) -> &CountOptions {
        &self.options
    }

    /// Solves the subproblems of `plan` that `job` selects on this counter's pool, telling its
    /// progress observer and counting nodes as its options say, and returns their exact sum:
    /// the runner (`crate::parallel`) behind [`Counter::count`], open to runs that choose
    /// their subproblems, hear of each solved one or stop early (a checkpoint journal, a shard).
    ///
    /// The outcome's [`Outcome::failure`] holds [`Error::BadJob`], with nothing solved, when an
    /// index of `job.only` is not below `plan.len()` or is given twice (it panicked, and a
    /// repeated index was counted twice: issue 40); with devices, the first device error (a
    /// device that refuses the plan, [`Device::refuses`], fails before anything is solved).
    pub fn run(&self, plan: &dyn Plan, job: Job<'_>) -> Outcome {
        if let Some(only) = job.only
            && let Err(e) = check_only(only, plan.len())
        {
            return Outcome { failure: Some(e), ..Outcome::default() };
        }
        let o = &self.options;
        parallel::run_on(plan, &self.pool, &o.devices, o.progress.clone(), o.stats, job)
    }

    /// Counts the solutions of the `n`×`n` board.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::JoinTooLarge`] if the join's table
    /// would not fit in memory; [`Error::Device`] if a device refuses the plan or fails.
    pub fn count(&self, n: u32) -> Result<Count, Error> {
        let start = Instant::now();
        let cpu_start = process_cpu_seconds();
        let (depth, threads) = (self.options.split_depth, self.options.threads);
        let algorithm = self.options.algorithm.resolve_for(n, threads);
        if let Some(o) = self.options.progress.observer() {
            o.planning(n);
        }
        let (d4_search, level) = (self.options.d4_search, self.options.level);
        let plan = PlanSpec { algorithm, n, split_depth: depth, threads, d4_search, level }.build()?;
        if let Some(o) = self.options.progress.observer() {
            o.planned();
        }
        let outcome = self.run(plan.as_ref(), Job::default());
        if let Some(e) = outcome.failure {
            return Err(e);
        }
        let stats = self.options.stats;
        let nodes = stats.then_some(outcome.tally.nodes + plan.prefix_nodes());
        let seconds = start.elapsed().as_secs_f64();
        let mut count =
            Count::of_plan(plan.as_ref(), &outcome.tally, algorithm, seconds, self.options.threads, nodes);
        // A join plan of a board below join::MIN_N is a mirror plan: the result names it.
        count.algorithm = plan.algorithm();
        count.devices = device_list(&self.options.devices, self.options.threads);
        count.cpu_seconds = stats.then(|| match (cpu_start, process_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => outcome.busy_seconds,
        });
        Ok(count)
    }
}

/// Returns `Ok(())` if and only if every index of `only` is below `len` and none is repeated
/// (one bit a subproblem: 512 KiB for the most a plan holds, 2^22).
///
/// # Errors
/// [`Error::BadJob`] naming the first index out of range, or the first repeated one.
fn check_only(only: &[usize], len: usize) -> Result<(), Error> {
    let mut seen = vec![0u64; len.div_ceil(64)];
    for &index in only {
        if index >= len {
            return Err(Error::BadJob { index, len, repeated: false });
        }
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        if seen[word] & bit != 0 {
            return Err(Error::BadJob { index, len, repeated: true });
        }
        seen[word] |= bit;
    }
    Ok(())
}

/// Returns the CPU seconds (user + system, every thread) this process has used, where the
/// operating system tells (`getrusage`, POSIX).
fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: `getrusage` only writes the `rusage` struct it is given, which is plain data
        // and valid when zeroed.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: RUSAGE_SELF with a valid pointer to a `rusage` is the documented call.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        Some(secs(usage.ru_utime) + secs(usage.ru_stime))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn a_count_serializes_with_its_field_names() {
        let options = CountOptions { threads: 2, algorithm: Algorithm::D4, ..CountOptions::default() };
        let count = Counter::new(&options).unwrap().count(8).unwrap();
        let json = serde_json::to_value(&count).unwrap();
        assert_eq!(json["n"], 8);
        assert_eq!(json["solutions"], 92);
        assert_eq!(json["unique"], 12);
        assert_eq!(json["classes"]["8"], 11);
        assert_eq!(json["classes"]["4"], 1);
        assert_eq!(json["algorithm"], "d4");
        assert_eq!(json["threads"], 2);
    }
}

#[cfg(test)]
mod run_tests {
    use super::*;
    use crate::algo::MirrorPlan;

    /// Issue 40: a run's subproblem list with a repeated index counted it twice, and one past
    /// the plan panicked; both are refused now, with nothing solved.
    #[test]
    fn a_run_refuses_a_repeated_or_foreign_subproblem() {
        let counter = Counter::new(&CountOptions { threads: 2, ..CountOptions::default() }).unwrap();
        let plan = MirrorPlan::new(10, 3).unwrap();
        let len = plan.len();
        for (only, index, repeated) in [(vec![0, 5, 0], 0, true), (vec![1, len], len, false)] {
            let out = counter.run(&plan, Job { only: Some(&only), ..Job::default() });
            assert_eq!(out.failure, Some(Error::BadJob { index, len, repeated }), "{only:?}");
            assert_eq!((out.solved, out.tally), (0, Tally::default()));
        }
        assert_eq!(
            Error::BadJob { index: 0, len, repeated: true }.to_string(),
            format!("subproblem 0 is listed twice in the run's subproblems (0..{len}): list each once")
        );
        // Each once: the whole count, Q(10) = 724.
        let all: Vec<usize> = (0..len).rev().collect();
        assert_eq!(counter.run(&plan, Job { only: Some(&all), ..Job::default() }).tally.solutions, 724);
    }
}

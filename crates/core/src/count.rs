//! Counting one board: the exact sums ([`Tally`], [`Classes`]), the options, the result
//! ([`Count`]) and the [`Counter`] that owns the only thread pool.

use std::ops::{Add, AddAssign};
use std::time::Instant;

use crate::algo::{Algorithm, D4Search, Plan, join, make_plan_with};
use crate::arch::{Isa, Level};
use crate::parallel::{self, Job, Outcome, Progress};
use crate::{Error, split};

/// The exact counts of one subproblem or of a sum of them.
///
/// `classes` holds the fundamental solutions (symmetry classes under D4) by orbit size, for
/// algorithms that classify solutions per subproblem; zero otherwise.
/// `nodes` is the number of queen placements the search made, when statistics were asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Solutions of the whole board that the counted subproblems stand for (weights applied).
    pub solutions: u128,
    /// Fundamental solutions by orbit size 1, 2, 4, 8.
    pub classes: Classes,
    /// Queen placements made by the search (search-tree nodes below the subproblems' prefixes).
    pub nodes: u128,
}

impl Tally {
    /// Returns the fundamental solutions of this tally by orbit size, if and only if `algorithm`
    /// classifies solutions (see [`Algorithm::classifies`]) and n ≥ 1: A002562 starts at n = 1,
    /// and the empty board has no fundamental count.
    ///
    /// For the join (whose subproblems do not classify), the classes of a whole count come from
    /// [`join::burnside_classes`] instead; this is what `merge` and a completed checkpointed run
    /// use.
    pub fn fundamental(&self, algorithm: Algorithm, n: u32) -> Option<Classes> {
        if algorithm.resolve(n) == Algorithm::Join {
            return join::burnside_classes(n, self.solutions).ok().flatten();
        }
        (algorithm.classifies() && n >= 1).then_some(self.classes)
    }
}

impl Tally {
    /// Returns the sum of `self` and `rhs`, or `None` if any count overflows 128 bits (a forged
    /// or damaged shard result or journal line; no real count comes near).
    pub fn checked_add(&self, rhs: &Tally) -> Option<Tally> {
        Some(Tally {
            solutions: self.solutions.checked_add(rhs.solutions)?,
            classes: self.classes.checked_add(&rhs.classes)?,
            nodes: self.nodes.checked_add(rhs.nodes)?,
        })
    }
}

impl Add for Tally {
    type Output = Tally;

    fn add(mut self, rhs: Tally) -> Tally {
        self += rhs;
        self
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, rhs: Tally) {
        self.solutions += rhs.solutions;
        self.classes += rhs.classes;
        self.nodes += rhs.nodes;
    }
}

/// How to count: threads, algorithm, split depth, progress bar, statistics.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// Worker threads (at least 1). Default: every logical CPU (`num_cpus::get()`).
    pub threads: usize,
    /// The search algorithm. Default: [`Algorithm::Auto`] (join from n = 8 while its table fits,
    /// else d4).
    pub algorithm: Algorithm,
    /// Rows fixed per subproblem; `None` lets [`split::auto_split_depth`] choose.
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
            threads: num_cpus::get(),
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
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
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
    /// Worker threads used.
    pub threads: usize,
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
    /// Returns the count of the board of `plan` from `total`, the sum of the tallies of every
    /// one of its subproblems, counted with `algorithm` (concrete) in `seconds` on `threads`
    /// threads, with `nodes` where they were counted; the fundamental solutions are those of
    /// `fundamental` of [`Plan`]. For runs assembled from parts, such as a resumed checkpoint;
    /// [`Counter::count`] builds its result with it too.
    pub fn of_plan(
        plan: &dyn Plan,
        total: &Tally,
        algorithm: Algorithm,
        seconds: f64,
        threads: usize,
        nodes: Option<u128>,
    ) -> Count {
        let classes = plan.fundamental(total, algorithm);
        Count {
            n: plan.n(),
            solutions: total.solutions,
            unique: classes.map(|c| c.total()),
            classes,
            algorithm,
            isa: Some(plan.level().isa()),
            seconds,
            threads,
            subproblems: plan.len(),
            split_depth: plan.split_depth(),
            nodes,
            cpu_seconds: None,
        }
    }
}

/// The fundamental solutions of a board by the number of boards in their D4 orbit (the 8
/// rotations and reflections of the square): solutions = 8·orbit8 + 4·orbit4 + 2·orbit2 +
/// orbit1 and fundamental solutions = orbit8 + orbit4 + orbit2 + orbit1. Only n = 1 has an orbit
/// of 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Classes {
    /// Symmetry classes of 8 boards (no symmetry).
    #[serde(rename = "8")]
    pub orbit8: u128,
    /// Symmetry classes of 4 boards (symmetric under the 180° rotation only).
    #[serde(rename = "4")]
    pub orbit4: u128,
    /// Symmetry classes of 2 boards (symmetric under the 90° rotation).
    #[serde(rename = "2")]
    pub orbit2: u128,
    /// Symmetry classes of 1 board (n = 1 alone).
    #[serde(rename = "1")]
    pub orbit1: u128,
}

impl Classes {
    /// Returns the number of fundamental solutions (symmetry classes), OEIS A002562.
    pub fn total(&self) -> u128 {
        self.orbit8 + self.orbit4 + self.orbit2 + self.orbit1
    }

    /// Returns the number of solutions the classes stand for: 8·orbit8 + 4·orbit4 + 2·orbit2 +
    /// orbit1 (OEIS A000170).
    pub fn solutions(&self) -> u128 {
        8 * self.orbit8 + 4 * self.orbit4 + 2 * self.orbit2 + self.orbit1
    }

    /// Returns 8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 as [`Classes::solutions`] does, or `None`
    /// if it overflows 128 bits.
    pub fn checked_solutions(&self) -> Option<u128> {
        self.orbit8
            .checked_mul(8)?
            .checked_add(self.orbit4.checked_mul(4)?)?
            .checked_add(self.orbit2.checked_mul(2)?)?
            .checked_add(self.orbit1)
    }

    /// Returns the sum of `self` and `rhs` orbit by orbit, or `None` if one overflows 128 bits.
    pub fn checked_add(&self, rhs: &Classes) -> Option<Classes> {
        Some(Classes {
            orbit8: self.orbit8.checked_add(rhs.orbit8)?,
            orbit4: self.orbit4.checked_add(rhs.orbit4)?,
            orbit2: self.orbit2.checked_add(rhs.orbit2)?,
            orbit1: self.orbit1.checked_add(rhs.orbit1)?,
        })
    }

    /// Adds `count` symmetry classes whose orbit has `boards` boards.
    ///
    /// # Panics
    /// If `boards` is not 1, 2, 4 or 8 (the orbit sizes under D4).
    pub fn add(&mut self, boards: u32, count: u128) {
        match boards {
            8 => self.orbit8 += count,
            4 => self.orbit4 += count,
            2 => self.orbit2 += count,
            1 => self.orbit1 += count,
            _ => panic!("an orbit under D4 has 1, 2, 4 or 8 boards, not {boards}"),
        }
    }
}

impl AddAssign for Classes {
    fn add_assign(&mut self, rhs: Classes) {
        self.orbit8 += rhs.orbit8;
        self.orbit4 += rhs.orbit4;
        self.orbit2 += rhs.orbit2;
        self.orbit1 += rhs.orbit1;
    }
}

/// A reusable counter: a thread pool and the options it counts with.
pub struct Counter {
    options: CountOptions,
    pool: rayon::ThreadPool,
}

impl Counter {
    /// Returns a counter with its own pool of `options.threads` worker threads.
    ///
    /// # Errors
    /// [`Error::ZeroThreads`] if `options.threads` is 0; [`Error::BadSplitDepth`] if
    /// `options.split_depth` is `Some(0)` or too deep; [`Error::ThreadPool`] if the threads
    /// cannot be started.
    pub fn new(options: &CountOptions) -> Result<Counter, Error> {
        if options.threads == 0 {
            return Err(Error::ZeroThreads);
        }
        options.split_depth.map(split::check_depth).transpose()?;
        let pool = parallel::pool(options.threads, "nqueens")?;
        Ok(Counter { options: options.clone(), pool })
    }

    /// Returns the options this counter was made with.
    pub fn options(&self) -> &CountOptions {
        &self.options
    }

    /// Solves the subproblems of `plan` that `job` selects on this counter's pool, telling its
    /// progress observer and counting nodes as its options say, and returns their exact sum:
    /// the runner ([`crate::parallel`]) behind [`Counter::count`], open to runs that choose
    /// their subproblems, hear of each solved one or stop early (a checkpoint journal, a shard).
    ///
    /// # Panics
    /// If an index of `job.only` is not below `plan.len()`.
    pub fn run(&self, plan: &dyn Plan, job: Job<'_>) -> Outcome {
        parallel::run_with(plan, &self.pool, self.options.progress.clone(), self.options.stats, job)
    }

    /// Counts the solutions of the `n`×`n` board.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::JoinTooLarge`] if the join's table
    /// would not fit in memory.
    pub fn count(&self, n: u32) -> Result<Count, Error> {
        let start = Instant::now();
        let cpu_start = process_cpu_seconds();
        let (depth, threads) = (self.options.split_depth, self.options.threads);
        let algorithm = self.options.algorithm.resolve_for(n, threads);
        if let Some(o) = self.options.progress.observer() {
            o.planning(n);
        }
        let plan = make_plan_with(algorithm, n, depth, threads, self.options.d4_search, self.options.level)?;
        if let Some(o) = self.options.progress.observer() {
            o.planned();
        }
        let outcome = self.run(plan.as_ref(), Job::default());
        let stats = self.options.stats;
        let nodes = stats.then_some(outcome.tally.nodes + plan.prefix_nodes());
        let seconds = start.elapsed().as_secs_f64();
        let mut count =
            Count::of_plan(plan.as_ref(), &outcome.tally, algorithm, seconds, self.options.threads, nodes);
        // A join plan of a board below join::MIN_N is a mirror plan: the result names it.
        count.algorithm = plan.algorithm();
        count.cpu_seconds = stats.then(|| match (cpu_start, process_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => outcome.busy_seconds,
        });
        Ok(count)
    }
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

#[cfg(test)]
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

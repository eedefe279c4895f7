//! nqueens counts the solutions of the n-queens problem — n queens on an n×n board, no two sharing
//! a row, column, diagonal or anti-diagonal — exactly and on every core.
//!
//! Q(n), the number of solutions, is OEIS A000170; the number of fundamental solutions (one per
//! symmetry class under the 8 rotations and reflections of the square) is OEIS A002562. The
//! default algorithm ([`Algorithm::D4`], [`d4`]) searches one start constellation of border
//! queens per symmetry class ([`constellation`], [`kernel_d4`]) and counts both, with each
//! class's orbit size; mirror halving ([`Algorithm::Mirror`]) fixes the first rows of the board
//! ([`split`]) and skips mirror images. Either way the subproblems are counted by
//! allocation-free bitmask recursions ([`kernel`]) on a rayon thread pool ([`parallel`]), and
//! the weighted counts are summed exactly in `u128`.
//!
//! ```
//! assert_eq!(nqueens::count(8).unwrap(), 92);
//! ```
//!
//! With options (threads, algorithm, split depth, progress bar, statistics):
//! ```
//! use nqueens::{CountOptions, Counter};
//! let counter = Counter::new(&CountOptions { threads: 2, ..CountOptions::default() }).unwrap();
//! let result = counter.count(10).unwrap();
//! assert_eq!(result.solutions, 724);
//! assert_eq!(result.unique, Some(92)); // OEIS A002562
//! assert_eq!(result.threads, 2);
//! ```
#![deny(missing_docs)]

pub mod check;
pub mod constellation;
pub mod d4;
pub mod enumerate;
pub mod estimate;
pub mod join;
pub mod journal;
pub mod kernel;
pub mod kernel_d4;
pub mod kernel_d4_simd;
pub mod memory;
pub mod merge;
pub mod oeis;
pub mod output;
pub mod parallel;
pub mod reference;
pub mod shard;
pub mod split;
pub mod symmetry;

use std::fmt;
use std::ops::{Add, AddAssign};
use std::str::FromStr;
use std::time::Instant;

pub use d4::D4Plan;
pub use kernel::MAX_N;
pub use parallel::Progress;

/// The errors the library returns.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The board side is larger than the `u64` masks allow.
    #[error("board size {n} is too large: the u64 masks allow n <= {max}", max = MAX_N)]
    BoardTooLarge {
        /// The rejected board side.
        n: u32,
    },
    /// A thread count of zero was asked for.
    #[error("thread count 0 is not allowed: use 1 or more")]
    ZeroThreads,
    /// The split depth is outside what the splitter can fix.
    #[error("split depth {depth} is out of range: use 1..={max}", max = split::MAX_SPLIT_DEPTH)]
    BadSplitDepth {
        /// The rejected depth.
        depth: u32,
    },
    /// The join algorithm's quarter table would not fit in memory (or n is beyond the join's
    /// largest board).
    #[error(
        "board size {n} is too large for --algorithm join: its quarter table needs about {needed_mib} MiB \
         and {available_mib} MiB are available (the join supports n <= {max}); use --algorithm d4"
    )]
    JoinTooLarge {
        /// The rejected board side.
        n: u32,
        /// The table's estimated size in MiB.
        needed_mib: u64,
        /// The memory available in MiB (0 if unknown).
        available_mib: u64,
        /// The largest board the join supports at all.
        max: u32,
    },
    /// The split depth would make more subproblems than [`split::MAX_SUBPROBLEMS`].
    #[error("split depth {depth} makes more than {max} subproblems at n = {n}: use a smaller depth (or none)", max = split::MAX_SUBPROBLEMS)]
    TooManySubproblems {
        /// The board side.
        n: u32,
        /// The rejected depth.
        depth: u32,
    },
    /// A copy of the batched d4 search was asked for that this processor does not run.
    #[error("--d4-search {search} needs {feature}, which this processor lacks: use auto, avx2 or recursive")]
    UnsupportedSearch {
        /// The copy asked for (its `--d4-search` name).
        search: &'static str,
        /// The instruction set it needs.
        feature: &'static str,
    },
    /// The operating system refused to start the worker threads.
    #[error("cannot start {threads} worker threads: {reason}")]
    ThreadPool {
        /// The thread count asked for.
        threads: usize,
        /// The operating system's reason.
        reason: String,
    },
}

/// The search algorithm behind a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Algorithm {
    /// Mirror halving: the row-0 queen in the left half, counted twice (see [`split`]). Visits
    /// half of the search tree. Gives solutions (A000170) only.
    Mirror,
    /// Full D4 symmetry by start constellations (see [`constellation`]): one border
    /// configuration per symmetry class, weighted by its orbit. Gives solutions (A000170),
    /// fundamental solutions (A002562) and their orbit sizes.
    D4,
    /// Quadrant join (see [`join`]): joins half-boards built from quarter-board placements and
    /// counts disjoint pairs bit-sliced; no backtracking over whole boards. Gives solutions,
    /// fundamental solutions and classes (by Burnside). Boards below [`join::MIN_N`] fall back
    /// to `mirror`.
    Join,
    /// The fastest for each n (the default): [`Algorithm::Join`] from
    /// [`Algorithm::JOIN_FROM`] while its quarter table fits in memory, [`Algorithm::D4`]
    /// otherwise. See [`Algorithm::resolve`].
    #[default]
    Auto,
}

impl Algorithm {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [Algorithm; 3] = [Algorithm::D4, Algorithm::Mirror, Algorithm::Join];

    /// The smallest n for which [`Algorithm::Auto`] picks the join: measured side by side with
    /// d4 on one thread (results/2026-11-29-vm/README.md).
    pub const JOIN_FROM: u32 = 8;

    /// Returns the concrete algorithm that counts an `n`×`n` board: `self`, or for
    /// [`Algorithm::Auto`] the join from [`Algorithm::JOIN_FROM`] when its table fits in memory
    /// ([`join::check_memory`]), else d4.
    pub fn resolve(self, n: u32) -> Algorithm {
        match self {
            Algorithm::Auto if n >= Algorithm::JOIN_FROM && join::check_memory(n).is_ok() => Algorithm::Join,
            Algorithm::Auto => Algorithm::D4,
            concrete => concrete,
        }
    }

    /// Returns true if and only if the algorithm's subproblem tallies carry the fundamental
    /// solutions ([`Tally::classes`]): d4 does; the join gets them for a whole count by
    /// Burnside ([`Plan::classes`], [`join::burnside_classes`]), so its tallies do not.
    pub fn classifies(self) -> bool {
        matches!(self, Algorithm::D4)
    }

    /// Returns the algorithm's name as the CLI and the output formats spell it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Mirror => "mirror",
            Algorithm::D4 => "d4",
            Algorithm::Join => "join",
            Algorithm::Auto => "auto",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let every = [Algorithm::Auto, Algorithm::D4, Algorithm::Mirror, Algorithm::Join];
        every.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<&str> = every.iter().map(|a| a.name()).collect();
            format!("unknown algorithm '{s}': use one of {}", names.join(", "))
        })
    }
}

/// Which search counts the subproblems of the d4 algorithm. Every choice makes the same queen
/// placements and gives the same counts (tested); they differ only in speed, so this is for
/// studies and benchmarks of one machine's copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum D4Search {
    /// The fastest copy this processor runs (the default): AVX-512, else AVX2, else recursive.
    #[default]
    Auto,
    /// The batched search, eight boards per step (needs AVX-512F; see [`kernel_d4_simd`]).
    Avx512,
    /// The batched search, four boards per step (needs AVX2).
    Avx2,
    /// The recursive search of [`kernel_d4`] (every processor).
    Recursive,
}

impl D4Search {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [D4Search; 4] = [D4Search::Auto, D4Search::Avx512, D4Search::Avx2, D4Search::Recursive];

    /// Returns the `--d4-search` name.
    pub fn name(self) -> &'static str {
        match self {
            D4Search::Auto => "auto",
            D4Search::Avx512 => "avx512",
            D4Search::Avx2 => "avx2",
            D4Search::Recursive => "recursive",
        }
    }

    /// Returns the copy of the batched search to use (None: the recursive search) for boards
    /// up to [`kernel_d4_simd::MAX_N`]; larger boards always use the recursive search.
    ///
    /// # Errors
    /// [`Error::UnsupportedSearch`] if a batched copy is asked for that this processor does not
    /// run ([`kernel_d4_simd::Isa::is_supported`]).
    pub fn copy(self) -> Result<Option<kernel_d4_simd::Isa>, Error> {
        use kernel_d4_simd::Isa;
        let (isa, feature) = match self {
            D4Search::Auto => return Ok(kernel_d4_simd::isa()),
            D4Search::Recursive => return Ok(None),
            D4Search::Avx512 => (Isa::Avx512, "AVX-512F and POPCNT"),
            D4Search::Avx2 => (Isa::Avx2, "AVX2 and POPCNT"),
        };
        if isa.is_supported() {
            Ok(Some(isa))
        } else {
            Err(Error::UnsupportedSearch { search: self.name(), feature })
        }
    }
}

impl FromStr for D4Search {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        D4Search::ALL.into_iter().find(|d| d.name() == s).ok_or_else(|| {
            let names: Vec<&str> = D4Search::ALL.iter().map(|d| d.name()).collect();
            format!("unknown d4 search '{s}': use one of {}", names.join(", "))
        })
    }
}

/// The exact counts of one subproblem or of a sum of them.
///
/// `classes[k]` is the number of fundamental solutions (symmetry classes under D4) whose orbit
/// has `1 << k` boards (1, 2, 4, 8), for algorithms that classify solutions; zero otherwise.
/// `nodes` is the number of queen placements the search made, when statistics were asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Solutions of the whole board that the counted subproblems stand for (weights applied).
    pub solutions: u128,
    /// Fundamental solutions by orbit size 1, 2, 4, 8.
    pub classes: [u128; 4],
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
        (algorithm.classifies() && n >= 1).then(|| {
            let [c1, c2, c4, c8] = self.classes;
            Classes { orbit8: c8, orbit4: c4, orbit2: c2, orbit1: c1 }
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
        for (a, b) in self.classes.iter_mut().zip(rhs.classes) {
            *a += b;
        }
        self.nodes += rhs.nodes;
    }
}

/// A list of independent subproblems that together count one board: what the parallel runner
/// ([`parallel::run`]) consumes, whatever the algorithm.
pub trait Plan: Sync {
    /// Returns the board side n.
    fn n(&self) -> u32;
    /// Returns the number of subproblems.
    fn len(&self) -> usize;
    /// Returns true if and only if the plan has no subproblem.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Returns the number of rows each subproblem fixes (at least; symmetry seeds may fix more).
    fn split_depth(&self) -> u32;
    /// Returns the weighted counts of subproblem `index` (`0..len()`); counts nodes too when
    /// `stats` is true.
    fn solve(&self, index: usize, stats: bool) -> Tally;
    /// Returns the queen placements made while building the subproblems (the prefix tree), so
    /// that with the nodes of every subproblem they add up to the nodes of the whole search,
    /// whatever the split depth.
    fn prefix_nodes(&self) -> u128 {
        0
    }
    /// Returns the algorithm that really counts this plan (a join plan of a board below
    /// [`join::MIN_N`] is a mirror plan).
    fn algorithm(&self) -> Algorithm;
    /// Returns the fundamental solutions of the whole board by orbit size, given the sum of
    /// every subproblem's tally, for plans that get them from the total rather than per
    /// subproblem (the join, by Burnside over its own quarter table); `None` otherwise, and then
    /// [`Tally::fundamental`] applies.
    fn classes(&self, total: &Tally) -> Option<Classes> {
        let _ = total;
        None
    }
    /// Returns the queens subproblem `index` fixes, as the columns of rows 0, 1, …, for plans
    /// whose subproblems are row prefixes; `None` for plans whose subproblems are not (the
    /// breakdown then leaves the prefix empty and the shard planner counts such a subproblem's
    /// cost as 1).
    fn prefix(&self, index: usize) -> Option<split::Prefix> {
        let _ = index;
        None
    }
}

impl dyn Plan + '_ {
    /// Returns the fundamental solutions of the whole board from the sum `total` of its
    /// subproblems' tallies, counted with `algorithm`: [`Plan::classes`] where the plan gives
    /// them, else [`Tally::fundamental`].
    pub fn fundamental(&self, total: &Tally, algorithm: Algorithm) -> Option<Classes> {
        self.classes(total).or_else(|| total.fundamental(algorithm, self.n()))
    }
}

/// Returns the plan of `algorithm` for the `n`×`n` board with `split_depth` rows fixed, or the
/// depth the algorithm picks for `threads` worker threads when `split_depth` is `None`.
///
/// The plan is a pure function of (algorithm, n, split depth): building it again, on any
/// machine, gives the same subproblems under the same indices, which is what a checkpoint
/// journal and a shard plan rely on.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`MAX_N`]; [`Error::BadSplitDepth`] if the depth is 0 or
/// more than [`split::MAX_SPLIT_DEPTH`].
pub fn make_plan(
    algorithm: Algorithm,
    n: u32,
    split_depth: Option<u32>,
    threads: usize,
) -> Result<Box<dyn Plan>, Error> {
    make_plan_with(algorithm, n, split_depth, threads, D4Search::Auto)
}

/// [`make_plan`] with the search that counts d4 subproblems (see [`D4Search`]; other
/// algorithms ignore it).
///
/// # Errors
/// Those of [`make_plan`], and [`Error::UnsupportedSearch`] (see [`D4Search::copy`]).
pub fn make_plan_with(
    algorithm: Algorithm,
    n: u32,
    split_depth: Option<u32>,
    threads: usize,
    d4_search: D4Search,
) -> Result<Box<dyn Plan>, Error> {
    Ok(match algorithm.resolve(n) {
        Algorithm::Mirror => Box::new(match split_depth {
            Some(depth) => MirrorPlan::new(n, depth)?,
            None => MirrorPlan::auto(n, threads)?,
        }),
        Algorithm::D4 => Box::new(
            match split_depth {
                Some(depth) => D4Plan::new(n, depth)?,
                None => D4Plan::auto(n, threads)?,
            }
            .with_search(d4_search)?,
        ),
        // The join's units are not row prefixes: the split depth does not apply.
        Algorithm::Join if n >= join::MIN_N => Box::new(join::JoinPlan::new(n)?),
        Algorithm::Join => Box::new(MirrorPlan::auto(n, threads)?),
        Algorithm::Auto => unreachable!("resolve() returns a concrete algorithm"),
    })
}

/// The mirror-halving plan (see [`split`]): subproblems with `split_depth` rows fixed.
#[derive(Clone, Debug)]
pub struct MirrorPlan {
    n: u32,
    depth: u32,
    subproblems: Vec<split::Subproblem>,
    prefix_nodes: u64,
}

impl MirrorPlan {
    /// Returns the plan for an `n`×`n` board with `depth` rows fixed.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`MAX_N`]; [`Error::BadSplitDepth`] if `depth` is 0 or
    /// more than [`split::MAX_SPLIT_DEPTH`].
    pub fn new(n: u32, depth: u32) -> Result<MirrorPlan, Error> {
        check_n(n)?;
        if depth == 0 || depth > split::MAX_SPLIT_DEPTH {
            return Err(Error::BadSplitDepth { depth });
        }
        let (subproblems, prefix_nodes) = split::mirror_subproblems_counting(n, depth);
        if subproblems.len() >= split::MAX_SUBPROBLEMS {
            return Err(Error::TooManySubproblems { n, depth });
        }
        Ok(MirrorPlan { n, depth, subproblems, prefix_nodes })
    }

    /// Returns the plan with the split depth [`split::auto_split_depth`] picks for `threads`.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`MAX_N`].
    pub fn auto(n: u32, threads: usize) -> Result<MirrorPlan, Error> {
        check_n(n)?;
        let depth = split::auto_split_depth(n, threads, |d| split::mirror_subproblems(n, d).len());
        MirrorPlan::new(n, depth)
    }

    /// Returns the subproblems, in their fixed order.
    pub fn subproblems(&self) -> &[split::Subproblem] {
        &self.subproblems
    }
}

impl Plan for MirrorPlan {
    fn n(&self) -> u32 {
        self.n
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Mirror
    }

    fn len(&self) -> usize {
        self.subproblems.len()
    }

    fn split_depth(&self) -> u32 {
        self.depth
    }

    fn prefix_nodes(&self) -> u128 {
        self.prefix_nodes as u128
    }

    fn solve(&self, index: usize, stats: bool) -> Tally {
        let sub = &self.subproblems[index];
        let mut nodes = 0u64;
        let completions = if stats {
            sub.count::<true>(self.n, &mut nodes)
        } else {
            sub.count::<false>(self.n, &mut nodes)
        };
        Tally {
            solutions: sub.weight as u128 * completions as u128,
            nodes: nodes as u128,
            ..Tally::default()
        }
    }

    fn prefix(&self, index: usize) -> Option<split::Prefix> {
        Some(self.subproblems[index].prefix)
    }
}

/// Returns `Ok(())` if and only if an `n`×`n` board fits the masks.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`MAX_N`].
pub fn check_n(n: u32) -> Result<(), Error> {
    if n > MAX_N { Err(Error::BoardTooLarge { n }) } else { Ok(()) }
}

/// How to count: threads, algorithm, split depth, progress bar, statistics.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// Worker threads (at least 1). Default: every logical CPU (`num_cpus::get()`).
    pub threads: usize,
    /// The search algorithm. Default: [`Algorithm::D4`].
    pub algorithm: Algorithm,
    /// Rows fixed per subproblem; `None` lets [`split::auto_split_depth`] choose.
    pub split_depth: Option<u32>,
    /// Whether to draw a progress bar on stderr. Default: [`Progress::Never`].
    pub progress: Progress,
    /// Whether to count search-tree nodes (slightly slower). Default: false.
    pub stats: bool,
    /// The search that counts d4 subproblems. Default: [`D4Search::Auto`].
    pub d4_search: D4Search,
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
        }
    }
}

/// The result of counting one board.
#[derive(Clone, Debug, PartialEq)]
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
        if let Some(depth) = options.split_depth
            && (depth == 0 || depth > split::MAX_SPLIT_DEPTH)
        {
            return Err(Error::BadSplitDepth { depth });
        }
        options.d4_search.copy()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .thread_name(|i| format!("nqueens-{i}"))
            .build()
            .map_err(|e| Error::ThreadPool { threads: options.threads, reason: e.to_string() })?;
        Ok(Counter { options: options.clone(), pool })
    }

    /// Returns the options this counter was made with.
    pub fn options(&self) -> &CountOptions {
        &self.options
    }

    /// Counts the solutions of the `n`×`n` board.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`MAX_N`]; [`Error::JoinTooLarge`] if the join's table
    /// would not fit in memory.
    pub fn count(&self, n: u32) -> Result<Count, Error> {
        let start = Instant::now();
        let cpu_start = process_cpu_seconds();
        let algorithm = self.options.algorithm.resolve(n);
        let (depth, threads) = (self.options.split_depth, self.options.threads);
        let plan = make_plan_with(algorithm, n, depth, threads, self.options.d4_search)?;
        let outcome = parallel::run(plan.as_ref(), &self.pool, self.options.progress, self.options.stats);
        let stats = self.options.stats;
        let classes = plan.fundamental(&outcome.tally, algorithm);
        Ok(Count {
            n,
            solutions: outcome.tally.solutions,
            unique: classes.map(|c| c.total()),
            classes,
            algorithm: plan.algorithm(),
            seconds: start.elapsed().as_secs_f64(),
            threads: self.options.threads,
            subproblems: plan.len(),
            split_depth: plan.split_depth(),
            nodes: stats.then_some(outcome.tally.nodes + plan.prefix_nodes()),
            cpu_seconds: stats.then(|| match (cpu_start, process_cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => outcome.busy_seconds,
            }),
        })
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

/// Returns Q(n), the number of solutions of the `n`×`n` board (OEIS A000170), counted on every
/// logical CPU with the default algorithm.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`MAX_N`]; [`Error::ThreadPool`] if the threads cannot be
/// started.
///
/// # Examples
/// ```
/// assert_eq!(nqueens::count(0).unwrap(), 1);
/// assert_eq!(nqueens::count(6).unwrap(), 4);
/// ```
pub fn count(n: u32) -> Result<u128, Error> {
    check_n(n)?;
    Ok(Counter::new(&CountOptions::default())?.count(n)?.solutions)
}

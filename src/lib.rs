//! nqueens counts the solutions of the n-queens problem — n queens on an n×n board, no two sharing
//! a row, column, diagonal or anti-diagonal — exactly and on every core.
//!
//! Q(n), the number of solutions, is OEIS A000170. The search is split into subproblems by fixing
//! the first rows of the board ([`split`]), using the board's symmetry to skip mirror images; each
//! subproblem is counted by an allocation-free bitmask recursion ([`kernel`]) on a rayon thread pool
//! ([`parallel`]), and the weighted counts are summed exactly in `u128`.
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
//! assert_eq!(result.threads, 2);
//! ```
#![deny(missing_docs)]

pub mod join;
pub mod kernel;
pub mod oeis;
pub mod output;
pub mod parallel;
pub mod reference;
pub mod split;
pub mod symmetry;

use std::fmt;
use std::ops::{Add, AddAssign};
use std::str::FromStr;
use std::time::Instant;

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
         and {available_mib} MiB are available (the join supports n <= {max}); use --algorithm mirror"
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
    #[default]
    Mirror,
    /// Quadrant join (see [`join`]): joins half-boards built from quarter-board placements and
    /// counts disjoint pairs bit-sliced; no backtracking over whole boards. Gives solutions,
    /// fundamental solutions and classes (by Burnside). Boards below [`join::MIN_N`] fall back
    /// to `mirror`.
    Join,
}

impl Algorithm {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [Algorithm; 2] = [Algorithm::Mirror, Algorithm::Join];

    /// Returns the algorithm's name as the CLI and the output formats spell it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Mirror => "mirror",
            Algorithm::Join => "join",
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
        Algorithm::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            format!("unknown algorithm '{s}': use one of {}", names.join(", "))
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
}

/// The mirror-halving plan (see [`split`]): subproblems with `split_depth` rows fixed.
#[derive(Clone, Debug)]
pub struct MirrorPlan {
    n: u32,
    depth: u32,
    subproblems: Vec<split::Subproblem>,
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
        Ok(MirrorPlan { n, depth, subproblems: split::mirror_subproblems(n, depth) })
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

    fn len(&self) -> usize {
        self.subproblems.len()
    }

    fn split_depth(&self) -> u32 {
        self.depth
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
    /// The search algorithm. Default: [`Algorithm::Mirror`].
    pub algorithm: Algorithm,
    /// Rows fixed per subproblem; `None` lets [`split::auto_split_depth`] choose.
    pub split_depth: Option<u32>,
    /// Whether to draw a progress bar on stderr. Default: [`Progress::Never`].
    pub progress: Progress,
    /// Whether to count search-tree nodes (slightly slower). Default: false.
    pub stats: bool,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            threads: num_cpus::get(),
            algorithm: Algorithm::Mirror,
            split_depth: None,
            progress: Progress::Never,
            stats: false,
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
    /// Seconds of CPU time the workers spent in subproblems (summed over threads), if statistics
    /// were asked for.
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
        let plan = match self.options.algorithm {
            Algorithm::Mirror => match self.options.split_depth {
                Some(depth) => MirrorPlan::new(n, depth)?,
                None => MirrorPlan::auto(n, self.options.threads)?,
            },
            // The join has its own units (no split depth) and fills the symmetry fields.
            Algorithm::Join => return join::count(n, &self.pool, &self.options),
        };
        let outcome = parallel::run(&plan, &self.pool, self.options.progress, self.options.stats);
        let stats = self.options.stats;
        Ok(Count {
            n,
            solutions: outcome.tally.solutions,
            unique: None,
            classes: None,
            algorithm: self.options.algorithm,
            seconds: start.elapsed().as_secs_f64(),
            threads: self.options.threads,
            subproblems: plan.len(),
            split_depth: plan.split_depth(),
            nodes: stats.then_some(outcome.tally.nodes),
            cpu_seconds: stats.then_some(outcome.busy_seconds),
        })
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

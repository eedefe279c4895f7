//! Counts, lists and checks the solutions of the n-queens problem — n queens on an n×n board, no
//! two sharing a row, column, diagonal or anti-diagonal — exactly and on every core.
//!
//! Q(n), the number of solutions, is OEIS A000170; the number of fundamental solutions (one per
//! symmetry class under the 8 rotations and reflections of the square) is OEIS A002562.
//!
//! # Counting
//! [`count()`] returns Q(n) with the defaults; a [`Counter`] counts with [`CountOptions`]
//! (threads, [`Algorithm`], split depth, statistics, a [`Progress`] observer) and returns a
//! [`Count`]: solutions, fundamental solutions and their orbit sizes ([`Classes`]), time and
//! search statistics. A [`Count`] is `serde::Serialize`.
//!
//! ```
//! assert_eq!(nqueens::count(8).unwrap(), 92);
//!
//! use nqueens::{CountOptions, Counter};
//! let counter = Counter::new(&CountOptions { threads: 2, ..CountOptions::default() }).unwrap();
//! let result = counter.count(10).unwrap();
//! assert_eq!(result.solutions, 724);
//! assert_eq!(result.unique, Some(92)); // OEIS A002562
//! assert_eq!(result.threads, 2);
//! ```
//!
//! The default algorithm is [`Algorithm::Auto`]: the quadrant join ([`Algorithm::Join`]) from
//! n = 8 while its quarter table fits in memory, else [`Algorithm::D4`] (one start constellation
//! of border queens per symmetry class, batched AVX-512/AVX2 search). [`Algorithm::Mirror`]
//! (mirror halving, solutions only) is there for cross-checks. Every algorithm splits the board
//! into independent subproblems (a [`Plan`]); one rayon pool per [`Counter`] solves them, and the
//! weighted counts are summed exactly in `u128`.
//!
//! # Listing
//! [`enumerate`] writes or visits the solutions of one board in lexicographic order, in parallel,
//! the same bytes for any thread count, as columns or text in a [`BoardFormat`] ([`boards`]:
//! board, leetcode, cols):
//!
//! ```
//! let boards: Vec<Vec<u8>> = nqueens::enumerate::solutions(6).unwrap().collect();
//! assert_eq!(boards, vec![vec![1, 3, 5, 0, 2, 4], vec![2, 5, 1, 4, 0, 3],
//!                         vec![3, 0, 4, 1, 5, 2], vec![4, 2, 0, 5, 3, 1]]);
//! ```
//!
//! [`construct`] gives one solution of any size at once, by a formula instead of a search.
//!
//! # Checking
//! [`is_solution`] checks one board held in memory (the 0-based column of each row's queen);
//! [`check::check`] reads a whole list as `nqueens solve` writes it (decoded by [`boards`]) and
//! reports invalid, duplicate and missing boards. [`symmetry`] maps boards under the dihedral
//! group D4.
//!
//! ```
//! assert!(nqueens::is_solution(&[1, 3, 0, 2]));
//! assert!(!nqueens::is_solution(&[0, 2, 1, 3])); // rows 1 and 2 attack along a diagonal
//! ```
//!
//! # Features
//! `cli` (default) builds the `nqueens` command line (clap, indicatif, signal-hook, anyhow);
//! `plot` (default) builds `nqueens-plot`, which draws the scaling studies of `scripts/`
//! (plotters). A library user who only counts, lists and checks turns both off:
//! `nqueens = { version = "0.1", default-features = false }`.
#![deny(missing_docs)]

// The public API: the items re-exported below and the modules `boards`, `check`, `construct`,
// `enumerate`, `oeis`, `output`, `reference` and `symmetry`. The hidden modules are what the
// `nqueens` binary, the benches, the examples and the integration tests reach into (searches,
// tables, the runner, long runs, the checkpoint journal, shard plans and merges): not part of the
// API, they may change in any release.
#[doc(hidden)]
pub mod algo;
pub mod arch;
#[doc(hidden)]
pub mod audit;
pub mod boards;
pub mod check;
pub mod construct;
mod count;
pub mod enumerate;
mod error;
#[doc(hidden)]
pub mod estimate;
#[doc(hidden)]
pub mod journal;
#[doc(hidden)]
pub mod kernel;
#[doc(hidden)]
pub mod memory;
#[doc(hidden)]
pub mod merge;
pub mod oeis;
pub mod output;
#[doc(hidden)]
pub mod parallel;
pub mod reference;
#[doc(hidden)]
pub mod run;
#[doc(hidden)]
pub mod shard;
#[doc(hidden)]
pub mod split;
#[doc(hidden)]
pub mod subtotals;
pub mod symmetry;

#[cfg(test)] // The join's tests name it `crate::join`, its path before `algo/`.
use algo::join;
pub use algo::join::JoinPlan;
pub use algo::{Algorithm, D4Plan, D4Search, MirrorPlan, Plan, make_plan, make_plan_with};
pub use boards::BoardFormat;
pub use check::is_solution;
pub use count::{Classes, Count, CountOptions, Counter, Tally};
pub use error::{Error, check_n};
pub use kernel::MAX_N;
pub use parallel::{Job, Observer, Outcome, Progress};

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

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

pub mod algo;
pub mod check;
pub mod construct;
mod count;
pub mod cpu;
pub mod enumerate;
mod error;
pub mod estimate;
pub mod journal;
pub mod kernel;
pub mod memory;
pub mod merge;
pub mod oeis;
pub mod output;
pub mod parallel;
pub mod reference;
pub mod shard;
pub mod split;
pub mod symmetry;

pub use algo::{Algorithm, D4Plan, D4Search, MirrorPlan, Plan, join, make_plan, make_plan_with};
pub use count::{Classes, Count, CountOptions, Counter, Tally};
pub use error::{Error, check_n};
pub use kernel::MAX_N;
pub use parallel::{Observer, Progress};

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

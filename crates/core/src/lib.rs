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
//! # Layers
//! Each module uses only the modules of the rows below its own; the modules of one row are
//! independent of each other; and no files form a circle (tests aside). `tests/layers.rs` reads
//! every production file's paths, through re-exports, and checks this table:
//!
//! | layer | modules |
//! | --- | --- |
//! | the whole count | `count` ([`Counter`], [`count()`]), [`enumerate`], [`check`] |
//! | known values | [`oeis`] (A000170, A002562, the classes) |
//! | the runner | [`parallel`]: a rayon pool solves a [`Plan`]'s subproblems |
//! | the algorithms' choice | [`algo`]: [`make_plan`], `Algorithm::resolve` |
//! | the algorithms | [`algo::mirror`], [`algo::d4`], [`algo::join`]: their plans and searches |
//! | the subproblems' weights | [`algo::weight`] |
//! | shared vocabulary | [`plan`]: [`Plan`], [`Tally`], [`Classes`], [`Algorithm`] |
//! | prefixes and boards | [`split`] (row prefixes), [`construct`] |
//! | the sequential search and the boards | [`kernel`], [`boards`], [`symmetry`], [`reference`](mod@reference) |
//! | attacks | [`attack`] (lines and who attacks whom) |
//! | memory | [`memory`] |
//! | the SIMD layer | [`arch`]: instruction-set [`Level`](arch::Level)s and the traits the kernels are written against |
//! | errors | [`error`] ([`Error`]) |
//! | limits | [`limits`] ([`MAX_N`]) |
//!
//! Long runs (checkpoint journal, shards, merge, audit, estimates) are the `nqueens-runs` crate;
//! the command line is `nqueens-cli`.
//!
//! # Features
//! `serde`: `Serialize` for [`Count`], [`Classes`] (also `Deserialize`), [`Algorithm`] and the
//! instruction-set [`Isa`](arch::Isa). Off by default: the library needs only rayon, num_cpus and
//! libc.
#![deny(missing_docs)]

pub mod algo;
pub mod arch;
pub mod attack;
pub mod boards;
pub mod check;
pub mod construct;
mod count;
pub mod enumerate;
pub mod error;
pub mod kernel;
pub mod limits;
pub mod memory;
pub mod oeis;
pub mod parallel;
pub mod plan;
pub mod reference;
pub mod split;
pub mod symmetry;

#[cfg(test)] // The join's tests name it `crate::join`, its path before `algo/`.
use algo::join;
pub use algo::join::JoinPlan;
pub use algo::{D4Plan, D4Search, MirrorPlan, make_plan, make_plan_with};
pub use boards::BoardFormat;
pub use check::is_solution;
pub use count::{Count, CountOptions, Counter, device_list};
pub use error::{Error, check_n};
pub use limits::MAX_N;
pub use parallel::{Device, Job, Observer, Outcome, Progress, Queue};
pub use plan::{Algorithm, Classes, Plan, Tally};

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

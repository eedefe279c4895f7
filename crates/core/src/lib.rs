//! Counts, lists and checks the solutions of the n-queens problem — n queens on an n×n board, no
//! two sharing a row, column, diagonal or anti-diagonal — exactly and on every core.
//!
//! Q(n), the number of solutions, is OEIS A000170; the number of fundamental solutions (one per
//! symmetry class under the 8 rotations and reflections of the square) is OEIS A002562.
//!
//! # Using it
//! The crate is not published on crates.io (a crate there named `nqueens` is another project):
//! depend on the repository, or on a checkout by path, with the `serde` feature if counts are to
//! be serialized:
//!
//! ```toml
//! [dependencies]
//! nqueens = { git = "https://github.com/OWNER/nqueens" }                    # or { path = "../nqueens/crates/core" }
//! nqueens = { git = "https://github.com/OWNER/nqueens", features = ["serde"] }  # Count: Serialize
//! ```
//!
//! It pulls in rayon, num_cpus and libc (9 crates in all); no clap, serde or plotters unless
//! asked for. The examples of `crates/core/examples/` run as `cargo run --release --example
//! count_with_progress -- 16` (also `list_boards`, `check_list`).
//!
//! # Counting
//! [`count()`] returns Q(n) with the defaults; a [`Counter`] counts with [`CountOptions`]
//! (threads, [`Algorithm`], split depth, statistics, a [`Progress`] observer) and returns a
//! [`Count`]: solutions, fundamental solutions and their orbit sizes ([`Classes`]), time and
//! search statistics. Boards go up to [`MAX_N`] = 63; counts are exact (`u128`).
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
//! of border queens per symmetry class). [`Algorithm::Mirror`] (mirror halving, solutions only)
//! is there for cross-checks. Every algorithm splits the board into independent subproblems;
//! one rayon pool per [`Counter`] solves them. A [`Progress`] observer ([`Observer`]) hears of
//! every step, for a progress bar; [`Counter::run`] counts a chosen part of a
//! [`plan`](plan::PlanSpec) (what long runs and shards use).
//!
//! # Listing
//! [`enumerate`] writes or visits the solutions of one board in lexicographic order, in parallel,
//! the same bytes for any thread count, as columns or text in a
//! [`BoardFormat`](boards::BoardFormat) (board, leetcode, cols):
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
//! [`is_solution`](check::is_solution) checks one board held in memory (the 0-based column of
//! each row's queen); [`check::check`] reads a whole list as `nqueens solve` writes it and
//! reports invalid, duplicate and missing boards. [`symmetry`] maps boards under the dihedral
//! group D4.
//!
//! ```
//! assert!(nqueens::check::is_solution(&[1, 3, 0, 2]));
//! assert!(!nqueens::check::is_solution(&[0, 2, 1, 3])); // rows 1 and 2 attack along an anti-diagonal
//! ```
//!
//! # Errors
//! Every function that can fail returns an [`Error`]: a board too large, a thread count of 0, a
//! table or list that does not fit in the memory available to the process (refused before it
//! is allocated, never an abort), a device that is not there. The messages name the bad value and
//! what is accepted, and no flag of the command line.
//!
//! # Features
//! - `serde`: `Serialize` for [`Count`] (what `nqueens count --format json` writes),
//!   [`Classes`] (also `Deserialize`), [`Algorithm`] and the instruction-set
//!   [`Isa`](arch::Isa). Off by default.
//! - `internals`: the building blocks and tuning knobs (hidden from these docs), for the
//!   tests, the benches and some examples; not a stable API. (The `nqueens-runs` and
//!   `nqueens-gpu` crates use the public API alone: what long runs need is in [`plan`].)
//!
//! # Around it
//! Long runs (checkpoint journal, shards, merge, audit, run estimates) are the `nqueens-runs`
//! crate, the GPU backend `nqueens-gpu`, the command line `nqueens-cli`; how the library is built
//! inside (its layers, the runner, the kernels) is `doc/architecture.md` in the repository.
#![deny(missing_docs)]
// No crate-wide `allow(dead_code)`: an item that only the tests, the benches and the examples
// call (the reference backtracker, the join's tuning knobs and profiles, `naive_count`) is
// compiled under `#[cfg(any(test, feature = "internals"))]`, so that a build without
// `internals` warns of anything else left unused.

/// Declares modules that are public only with the `internals` feature (hidden from the docs:
/// for the tests, the benches and the examples, which use the tuning knobs and the building
/// blocks) and private to the crate without it.
macro_rules! internal_modules {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

// The public modules: what a library user needs.
pub mod arch;
pub mod boards;
pub mod check;
pub mod construct;
pub mod enumerate;
pub mod oeis;
pub mod symmetry;

mod count;
mod vocabulary;
internal_modules!(algo, attack, error, kernel, limits, memory, parallel, reference, split);

/// What a plan is and what runs one: the [`Plan`] trait every algorithm's plan implements, the
/// [`Tally`] of a subproblem, a [`Job`](plan::Job) and its [`Outcome`](plan::Outcome), the
/// [`Device`](plan::Device)s besides the CPU threads and the [`Queue`](plan::Queue) they take
/// subproblems from, and the d4 plan's parts that a device backend (`nqueens-gpu`) counts:
/// [`D4Plan`](plan::D4Plan), its start [`Constellation`](plan::Constellation)s
/// ([`Border`](plan::Border) queens) and its [`D4Subproblem`](plan::D4Subproblem)s (a
/// [`Prefix`](plan::Prefix) of rows below them).
///
/// A plan is built from a [`PlanSpec`](plan::PlanSpec) (algorithm, board, split depth of
/// 1..=[`MAX_SPLIT_DEPTH`](crate::plan::MAX_SPLIT_DEPTH) rows or the threads it is chosen for,
/// d4 search, instruction-set level); a [`crate::Counter`] runs it.
/// [`available_threads`](plan::available_threads) is the machine's logical CPUs, every default
/// thread count.
///
/// What long runs and their estimates (the `nqueens-runs` crate) take besides: threads for
/// work that is not a count ([`on_threads`](plan::on_threads), started where every thread of
/// the library is), the runner's order ([`order_block`](plan::order_block)), lists refused
/// before they are allocated ([`reserve`](plan::reserve),
/// [`available_memory`](plan::available_memory)), the placements below a prefix
/// ([`Prefix::extensions`](plan::Prefix::extensions)), by which shards are balanced, and the
/// plan a timed sample needs ([`PlanSpec::build_for_sample`](plan::PlanSpec::build_for_sample)).
pub mod plan {
    pub use crate::algo::d4::constellation::{Border, Constellation, D4Subproblem};
    pub use crate::algo::{D4Plan, D4Search, PlanSpec};
    pub use crate::count::device_list;
    pub use crate::limits::MAX_SPLIT_DEPTH;
    pub use crate::limits::available_threads;
    pub use crate::memory::available as available_memory;
    pub use crate::memory::reserve;
    pub use crate::parallel::{Device, Job, OnSolved, Outcome, Queue, on_threads, order_block};
    pub use crate::split::Prefix;
    // The sealed part of `Plan`, nameable with `internals` alone: for test doubles of a plan.
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub use crate::vocabulary::Sealed;
    pub use crate::vocabulary::{Plan, Tally};
}

#[cfg(test)] // The join's tests name it `crate::join`, its path before `algo/`.
use algo::join;
pub use count::{Count, CountOptions, Counter};
pub use error::Error;
pub use limits::MAX_N;
pub use parallel::{Observer, Progress, Run};
pub use vocabulary::{Algorithm, Classes};
// The crate's own short paths (not public: each item has one public path, above or in a module).
pub(crate) use error::check_n;
pub(crate) use vocabulary::{Plan, Tally};

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

//! Long runs of one n-queens board, on top of the [`nqueens`] library: counted so that nothing is
//! lost and so that the pieces can be spread over machines and checked.
//!
//! - [`run`]: one board counted through a [`nqueens::Counter`] with a checkpoint journal to
//!   resume from, as one shard of a partition, or with a breakdown of every subproblem's counts.
//! - [`journal`]: the append-only checkpoint journal.
//! - [`shard`]: deterministic partitions of a plan's subproblems into K shards of about equal
//!   estimated cost.
//! - [`merge`]: shard results and their verified merge; [`subtotals`]: the per-subproblem
//!   subtotals a shard result carries; [`audit`]: recounting a random sample of them.
//! - [`estimate`]: the CPU time and memory of a run before it starts.
//!
//! This is what `nqueens count N --checkpoint/--shard/--breakdown`, `nqueens merge` and
//! `nqueens plan` run; a Rust program that drives a cluster can call it directly. Nothing here
//! prints or names a command-line flag: errors say what went wrong and the caller words the rest.
//!
//! ```
//! use nqueens::Algorithm;
//! use nqueens_runs::shard::shard_spec;
//!
//! // The mirror plan of n = 12 dealt into 4 shards: every subproblem in exactly one of them.
//! let plan = shard_spec(Algorithm::Mirror, 12, 4).build().unwrap();
//! let shards = nqueens_runs::shard::assign(plan.as_ref(), 4);
//! assert_eq!(shards.iter().map(Vec::len).sum::<usize>(), plan.len());
//! ```
#![deny(missing_docs)]

pub mod audit;
mod breakdown;
pub mod estimate;
pub mod journal;
pub mod merge;
pub mod run;
pub mod shard;
mod shard_result;
pub mod subtotals;
mod sys;
mod verify;

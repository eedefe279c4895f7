//! The integration tests of the command line but those that measure peak memory
//! (`tests/memory/`), in one binary, a module per subject (two test binaries link instead of one
//! per file; results/2026-12-01-test-time/). `cargo test --release --test all MODULE::` runs one
//! of them, e.g. `cargo test --release --test all journal::`. The library's own integration tests
//! (known values, the join, the layers) are in `crates/core/tests/`.

mod common;

mod audit;
mod check;
mod count;
mod docs;
mod flags;
mod gpu;
mod journal;
mod merge;
mod outputs;
mod plan;
mod recipe;
mod recipes;
mod results_index;
mod scripts;
mod slurm;
mod solve;
mod structure;

//! The integration tests but those that measure peak memory (`tests/memory/`), in one binary:
//! each module is what used to be a file of its own under `tests/` (two test binaries link
//! with the release profile's LTO instead of 13; results/2026-12-01-test-time/). `cargo test --release --test all MODULE::` runs
//! one of them, e.g. `cargo test --release --test all slurm::`.

mod common;

mod audit;
mod break_it_3;
mod cli_check;
mod cli_count;
mod cli_robustness;
mod cli_solve;
mod docs;
mod flags;
mod gpu;
mod hardening;
mod join;
mod known_values;
mod long_runs;
mod outputs;
mod plan;
mod results_index;
mod scripts;
mod slurm;
mod structure;

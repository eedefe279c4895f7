//! The integration tests that measure a child's peak resident set (`ru_maxrss` of `wait4`), in
//! a test binary of their own: Linux counts the address space a spawned child shared with its
//! parent before `exec` in the child's peak, so the parent must stay small, and the tests of
//! `tests/all/` (tables, counts in process) would make it large. `cargo test --release --test
//! memory`.

#[path = "../all/common.rs"]
mod common;

mod input;
mod limits;

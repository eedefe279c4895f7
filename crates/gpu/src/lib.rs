//! The GPU backend of nqueens: the d4 algorithm's subproblems counted by one kernel on NVIDIA,
//! AMD and Intel GPUs (and on pocl's CPU device, for tests), through CUDA or OpenCL.
//!
//! # What runs where
//! - The kernels are one source, `kernel.cl` (embedded with `include_str!`, [`SOURCE`]):
//!   OpenCL C 1.2, and CUDA C under NVRTC behind a short prelude of macros. See its comment for
//!   the search.
//! - Two launchers move buffers and start it: `opencl.rs` (`opencl3`, libOpenCL loaded at run
//!   time) and `cuda.rs` (`cudarc`, libcuda and libnvrtc loaded at run time). Neither needs a
//!   GPU SDK to build; both implement the calls of `launcher.rs`, which is all the scheduler
//!   sees of them.
//! - The host side (`tasks.rs`, and the scheduler behind [`GpuDevice`], `scheduler.rs`) splits
//!   each d4 subproblem of start constellations deeper into tasks, orders each launch by the
//!   tasks' estimated work, bounds it to about half a second and adds the tasks' counts up to
//!   their subproblems ([`task_census`] counts the tasks of a plan). A [`GpuDevice`] is an
//!   [`nqueens::plan::Device`]: the library's runner gives it a thread of its pool and the
//!   shared list of subproblems, so journals, shards, merges and audits work on GPU runs
//!   unchanged.
//! - Subproblems of constellations with a symmetry of their own (5–13% of the CPU's d4 time at
//!   n = 14–17, `examples/symmetric_share.rs`) go to a second kernel, `nq_classify`, which
//!   classifies every completed board as the CPU's d4 search does, so each subproblem's counts
//!   (solutions and classes by orbit) are the CPU's exactly and `merge --audit` compares them
//!   as they are.
//!
//! # Choosing devices
//! [`DeviceSpec`] parses `cpu`, `gpu`, `cuda`, `opencl`, each optionally with indices
//! (`opencl:0,1`), joined by commas (`cpu,gpu`); [`open`] returns the devices it names, and
//! [`list`] every device found. What goes wrong is a [`GpuError`] (inside the library's
//! [`nqueens::Error::Device`] once a device is named).
//!
//! ```no_run
//! use nqueens::{CountOptions, Counter};
//! let spec: nqueens_gpu::DeviceSpec = "gpu".parse().unwrap();
//! let devices = nqueens_gpu::open(&spec).unwrap();
//! let options = CountOptions { threads: 0, devices, algorithm: nqueens::Algorithm::D4, ..CountOptions::default() };
//! assert_eq!(Counter::new(&options).unwrap().count(16).unwrap().solutions, 14_772_512);
//! ```
//!
//! # Files
//! `lib.rs` this page; `spec.rs` the device list; `devices.rs` listing and opening;
//! `launcher.rs` what the launchers implement; `cuda.rs`, `opencl.rs` the launchers;
//! `scheduler.rs` a device's launches; `tasks.rs` the host's tables and tasks; `error.rs`.
#![deny(missing_docs)]

mod cuda;
mod devices;
mod error;
mod launcher;
mod opencl;
mod scheduler;
mod spec;
mod tasks;

pub use cuda::{
    INSTALL as CUDA_INSTALL, compile as compile_cuda, compile_log as compile_cuda_log, nvrtc_present,
    present as cuda_present,
};
pub use devices::{Found, list, open};
pub use error::GpuError;
pub use launcher::{DeviceInfo, SOURCE};
pub use scheduler::{DEEP_TASK_ROWS, GpuDevice, LAUNCH_SECONDS, MAX_TASKS, MIN_TASKS, task_rows};
pub use spec::{Api, DeviceSpec};
pub use tasks::{MAX_N, MAX_TASK_ROWS, TaskCensus, task_census};

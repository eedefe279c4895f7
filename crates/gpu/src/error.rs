//! Why a GPU API, a device or a launch cannot be had: [`GpuError`], in the words a user reads
//! after `device NAME:` ([`nqueens::Error::Device`], opening) or `device NAME failed:`
//! ([`nqueens::Error::DeviceFailed`], counting).

use crate::tasks::MAX_TASK_ROWS;

/// What went wrong with a GPU API, a device or a launch. Its message is one line, without the
/// device's name (the library's [`nqueens::Error`] puts that in front).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// An API's library cannot be loaded (libcuda, libnvrtc, libOpenCL), it has no platform, or
    /// it lacks a function this build calls: the message says what to install or update.
    #[error("{0}")]
    Unavailable(String),
    /// The kernel does not compile: NVRTC's or the OpenCL compiler's error and log.
    #[error("{0}")]
    Compile(String),
    /// A call into the device's API failed (a context, a queue, a buffer, a copy, a launch, a
    /// read back), or the launcher was called out of order: what was being done, and the API's
    /// own error where it gave one.
    #[error("{0}")]
    Driver(String),
    /// Not even the smallest launch fits in half the memory available to the process
    /// (`scheduler::launch_cap`).
    #[error(
        "its launches need at least {needed_mib} MiB ({tasks} tasks of {task_bytes} bytes, twice over) but \
         {available_mib} MiB are available to this process: raise the limit or give the job more memory"
    )]
    LaunchMemory {
        /// The MiB the smallest launch needs, twice over (rounded up).
        needed_mib: u64,
        /// The tasks of the smallest launch ([`crate::MIN_TASKS`]).
        tasks: usize,
        /// The bytes one task of a launch takes.
        task_bytes: u64,
        /// The MiB available to the process (rounded down).
        available_mib: u64,
    },
    /// `NQUEENS_GPU_TASK_ROWS` is set to a value that is not a whole number
    /// 0..=[`MAX_TASK_ROWS`](crate::MAX_TASK_ROWS) (the kernel's stack holds no more).
    #[error(
        "NQUEENS_GPU_TASK_ROWS '{value}' is not a whole number 0..={max} (the free rows a GPU task keeps; \
         unset it for the default)",
        max = MAX_TASK_ROWS
    )]
    TaskRows {
        /// The variable's value, as set.
        value: String,
    },
}

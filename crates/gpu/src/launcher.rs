//! What the scheduler ([`crate::scheduler`]) and the two launchers ([`crate::cuda`],
//! [`crate::opencl`]) share: the kernel source, which kernel a launch runs, the [`Launcher`]
//! calls, and the [`DeviceInfo`] a launcher lists its devices with. A leaf of the crate: the
//! launchers implement it, the scheduler drives it, neither knows the other.

use std::fmt;

use crate::GpuError;
use crate::tasks::{Tables, Task};

/// The kernel's source: OpenCL C, and CUDA C behind its prelude (see the file's comment).
pub const SOURCE: &str = include_str!("kernel.cl");

/// Which kernel a launch runs (see `kernel.cl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// `nq_count`: completions of constellations without a symmetry of their own.
    Count,
    /// `nq_classify`: completions classified under the constellation's stabiliser.
    Classify,
}

impl Kernel {
    /// Returns the kernel's function name in `kernel.cl`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kernel::Count => "nq_count",
            Kernel::Classify => "nq_classify",
        }
    }

    /// Returns the numbers the kernel writes per task: 2 (completions, placements) or 5
    /// (completions, representatives of orbit 8, 4, 2, placements).
    pub(crate) fn width(self) -> usize {
        match self {
            Kernel::Count => 2,
            Kernel::Classify => 5,
        }
    }
}

/// What a launcher does: upload a plan's tables, run a kernel over tasks, hand back counts.
pub(crate) trait Launcher: Send {
    /// Uploads the constellation tables of the plan about to be counted.
    fn upload(&mut self, tables: &Tables) -> Result<(), GpuError>;
    /// Starts `kernel` over `tasks` (uploaded first, with `boards`, [`crate::tasks::MAX_ROWS`]
    /// bytes a task, for [`Kernel::Classify`]; empty otherwise), counting placements if
    /// `nodes`; returns once the launch is queued, before it ends.
    fn start(&mut self, kernel: Kernel, tasks: &[Task], boards: &[u8], nodes: bool) -> Result<(), GpuError>;
    /// Waits for the launch [`Launcher::start`] queued and writes its [`Kernel::width`] numbers
    /// per task into `out`, in task order.
    fn finish(&mut self, out: &mut Vec<u64>) -> Result<(), GpuError>;
}

/// One device found: its API, index within the API, model and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `cuda` or `opencl`.
    pub api: &'static str,
    /// The index `cuda:INDEX` or `opencl:INDEX` names it by (OpenCL: over every platform, in
    /// platform order).
    pub index: usize,
    /// The model, as the driver names it (`NVIDIA H200`, `cpu-haswell-...`).
    pub name: String,
    /// The OpenCL platform (`Portable Computing Language`), or `CUDA, compute capability X.Y`.
    pub platform: String,
    /// Global memory in bytes.
    pub memory_bytes: u64,
    /// Compute units (OpenCL) or multiprocessors (CUDA).
    pub compute_units: u32,
    /// True for a GPU, false for a CPU or other accelerator (pocl's CPU device).
    pub gpu: bool,
}

impl DeviceInfo {
    /// Returns `api:index`, the name counts and shard files record.
    pub fn id(&self) -> String {
        format!("{}:{}", self.api, self.index)
    }
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} ({}; {}, {:.1} GiB, {} compute units)",
            self.id(),
            self.name,
            self.platform,
            if self.gpu { "GPU" } else { "not a GPU" },
            self.memory_bytes as f64 / (1u64 << 30) as f64,
            self.compute_units
        )
    }
}

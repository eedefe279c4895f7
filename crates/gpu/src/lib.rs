//! The GPU backend of nqueens: the d4 algorithm's subproblems counted by one kernel on NVIDIA,
//! AMD and Intel GPUs (and on pocl's CPU device, for tests), through CUDA or OpenCL.
//!
//! # What runs where
//! - The kernels are one source, `kernel.cl` (embedded with `include_str!`, [`SOURCE`]):
//!   OpenCL C 1.2, and CUDA C under NVRTC behind a short prelude of macros. See its comment for
//!   the search.
//! - Two launchers move buffers and start it: [`opencl`] (`opencl3`, libOpenCL loaded at run
//!   time) and [`cuda`] (`cudarc`, libcuda and libnvrtc loaded at run time). Neither needs a GPU
//!   SDK to build.
//! - The host side ([`tasks`], and the driver behind [`GpuDevice`]) splits each d4 subproblem
//!   of start constellations deeper into tasks, orders each launch by the tasks' estimated
//!   work, bounds it to about half a second and adds the tasks' counts up to their
//!   subproblems. A [`GpuDevice`] is an [`nqueens::plan::Device`]: the library's runner gives it a
//!   thread of its pool and the shared list of subproblems, so journals, shards, merges and
//!   audits work on GPU runs unchanged.
//! - Subproblems of constellations with a symmetry of their own (5–13% of the CPU's d4 time at
//!   n = 14–17, `examples/symmetric_share.rs`) go to a second kernel, `nq_classify`, which
//!   classifies every completed board as the CPU's d4 search does, so each subproblem's counts
//!   (solutions and classes by orbit) are the CPU's exactly and `merge --audit` compares them
//!   as they are.
//!
//! # Choosing devices
//! [`DeviceSpec`] parses `cpu`, `gpu`, `cuda`, `opencl`, each optionally with indices
//! (`opencl:0,1`), joined by commas (`cpu,gpu`); [`open`] returns the devices it names, and
//! [`list`] every device found.
//!
//! ```no_run
//! use nqueens::{CountOptions, Counter};
//! let spec: nqueens_gpu::DeviceSpec = "gpu".parse().unwrap();
//! let devices = nqueens_gpu::open(&spec).unwrap();
//! let options = CountOptions { threads: 0, devices, algorithm: nqueens::Algorithm::D4, ..CountOptions::default() };
//! assert_eq!(Counter::new(&options).unwrap().count(16).unwrap().solutions, 14_772_512);
//! ```
#![deny(missing_docs)]

pub mod cuda;
mod driver;
pub mod opencl;
pub mod tasks;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use nqueens::{Error, plan::Device};

pub use driver::{GpuDevice, LAUNCH_SECONDS, MAX_TASKS, MIN_TASKS, task_rows};
pub use tasks::MAX_N;

/// The kernel's source: OpenCL C, and CUDA C behind its prelude (see the file's comment).
pub const SOURCE: &str = include_str!("kernel.cl");

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

/// The devices found by each API, or why that API has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// CUDA's devices, or why there are none to be had (no libcuda, …).
    pub cuda: Result<Vec<DeviceInfo>, String>,
    /// OpenCL's devices, or why there are none to be had (no libOpenCL, no platform).
    pub opencl: Result<Vec<DeviceInfo>, String>,
}

/// Returns every device CUDA and OpenCL find on this machine (opening nothing for a count).
pub fn list() -> Found {
    Found {
        cuda: cuda::list(),
        opencl: opencl::list().map(|v| v.into_iter().map(|(info, _)| info).collect()),
    }
}

/// An API a device is asked for by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    /// Every GPU: CUDA's devices where the driver is there, and OpenCL's GPUs on other
    /// platforms (NVIDIA's OpenCL platform is skipped when CUDA has its GPUs).
    Gpu,
    /// CUDA's devices.
    Cuda,
    /// OpenCL's devices of every kind, pocl's CPU device included.
    OpenCl,
}

impl Api {
    /// Returns its name as a device list spells it.
    pub fn name(self) -> &'static str {
        match self {
            Api::Gpu => "gpu",
            Api::Cuda => "cuda",
            Api::OpenCl => "opencl",
        }
    }
}

/// Which devices a count runs on: the CPU threads or not, and devices by API and index. Parsed
/// from `cpu`, `gpu`, `cuda`, `opencl`, each of the last three optionally followed by
/// `:INDEX[,INDEX…]`, joined by commas: `gpu`, `cuda:0,1`, `opencl:1`, `cpu,gpu`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DeviceSpec {
    /// Whether the CPU threads count beside the devices (`cpu` in the list).
    pub cpu: bool,
    /// The devices asked for: an API and the indices within it (`None`: all of them).
    pub devices: Vec<(Api, Option<Vec<usize>>)>,
}

impl DeviceSpec {
    /// Returns true if and only if the spec names no device beside the CPU.
    pub fn cpu_only(&self) -> bool {
        self.devices.is_empty()
    }
}

impl FromStr for DeviceSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let accepted = "use cpu, gpu, cuda or opencl, the last two optionally with :INDEX[,INDEX...], joined by commas (cpu,gpu)";
        let mut spec = DeviceSpec::default();
        // Whether the token before was an API with indices or one of its indices: only there
        // does a bare number continue the list (`opencl:0,1`, not `opencl:0,cpu,1`).
        let mut indices_open = false;
        for part in s.split(',').map(str::trim) {
            let (api, index) = match part.split_once(':') {
                Some((api, index)) => (api.trim(), Some(index.trim())),
                None => (part, None),
            };
            let parse_index = |i: &str| -> Result<usize, String> {
                i.parse::<usize>().map_err(|_| {
                    format!("device index '{i}' in '{s}' is not a whole number 0 or more: {accepted}")
                })
            };
            if index.is_none() && !api.is_empty() && api.bytes().all(|b| b.is_ascii_digit()) {
                let Some((previous, Some(indices))) = spec.devices.last_mut().filter(|_| indices_open) else {
                    return Err(format!(
                        "device index '{api}' in '{s}' follows no API with indices: {accepted}"
                    ));
                };
                let i = parse_index(api)?;
                if indices.contains(&i) {
                    return Err(format!(
                        "device {}:{i} is named twice in '{s}': {accepted}",
                        previous.name()
                    ));
                }
                indices.push(i);
                continue;
            }
            indices_open = index.is_some();
            let api = match api {
                "cpu" if index.is_some() => {
                    return Err(format!("device 'cpu' in '{s}' takes no index: {accepted}"));
                }
                "cpu" if spec.cpu => return Err(format!("device 'cpu' is named twice in '{s}': {accepted}")),
                "cpu" => {
                    spec.cpu = true;
                    continue;
                }
                "gpu" if index.is_some() => {
                    return Err(format!(
                        "device 'gpu' in '{s}' takes no index (it is every GPU): name one by cuda:INDEX or opencl:INDEX"
                    ));
                }
                "gpu" => Api::Gpu,
                "cuda" => Api::Cuda,
                "opencl" => Api::OpenCl,
                other => return Err(format!("unknown device '{other}' in '{s}': {accepted}")),
            };
            let indices = index.map(|i| parse_index(i).map(|i| vec![i])).transpose()?;
            if spec.devices.iter().any(|(a, _)| *a == api) {
                return Err(format!("device '{}' is named twice in '{s}': {accepted}", api.name()));
            }
            if spec.devices.iter().any(|(a, _)| (*a == Api::Gpu) != (api == Api::Gpu)) {
                return Err(format!(
                    "'{s}' names gpu, which is every GPU, beside cuda or opencl devices: name either gpu or the devices"
                ));
            }
            spec.devices.push((api, indices));
        }
        Ok(spec)
    }
}

/// Returns the device `info`, driven by `launcher` with `lanes` threads resident at once, its
/// launches capped by the memory available to the process ([`driver::launch_cap`]; with
/// `host_buffers`, its buffers are host memory too).
///
/// # Errors
/// [`Error::Device`] when not even the smallest launch fits.
fn device(
    info: &DeviceInfo,
    launcher: Box<dyn driver::Launcher>,
    lanes: usize,
    host_buffers: bool,
) -> Result<Arc<dyn Device>, Error> {
    let cap = driver::launch_cap(nqueens::plan::available_memory(), host_buffers)
        .map_err(|reason| Error::Device { device: info.id(), reason })?;
    Ok(Arc::new(GpuDevice::new(info.id(), info.to_string(), launcher, lanes, cap)))
}

/// Opens the devices `spec` names (the CPU aside) for counting: contexts made and the kernel
/// compiled on each.
///
/// # Errors
/// [`Error::Device`] naming what was looked for and how to install it, if an API or an index
/// asked for is not there, or a device cannot be opened.
pub fn open(spec: &DeviceSpec) -> Result<Vec<Arc<dyn Device>>, Error> {
    let mut out: Vec<Arc<dyn Device>> = Vec::new();
    let error = |device: &str, reason: String| Error::Device { device: device.to_string(), reason };
    if !spec.devices.is_empty()
        && let Some(Err(why)) = driver::task_rows_override()
    {
        return Err(error(spec.devices[0].0.name(), why));
    }
    for (api, indices) in &spec.devices {
        let wanted = |i: usize| indices.as_ref().is_none_or(|v| v.contains(&i));
        let missing = |found: usize| indices.as_ref().and_then(|v| v.iter().find(|&&i| i >= found).copied());
        let mut cuda_opened = false;
        if matches!(api, Api::Cuda | Api::Gpu) {
            match cuda::list() {
                Ok(found) if !found.is_empty() => {
                    if *api == Api::Cuda
                        && let Some(i) = missing(found.len())
                    {
                        return Err(error(
                            &format!("cuda:{i}"),
                            format!(
                                "no such device: CUDA has {} device(s), cuda:0 to cuda:{}",
                                found.len(),
                                found.len() - 1
                            ),
                        ));
                    }
                    for info in found.into_iter().filter(|d| *api == Api::Gpu || wanted(d.index)) {
                        let launcher = cuda::Cuda::open(&info).map_err(|why| error(&info.id(), why))?;
                        let lanes = launcher.lanes();
                        out.push(device(&info, Box::new(launcher), lanes, false)?);
                        cuda_opened = true;
                    }
                }
                Ok(_) if *api == Api::Cuda => {
                    return Err(error(
                        "cuda",
                        format!("the CUDA driver is loaded but finds no device: {}", cuda::INSTALL),
                    ));
                }
                Err(why) if *api == Api::Cuda => return Err(error("cuda", why)),
                _ => {}
            }
        }
        if matches!(api, Api::OpenCl | Api::Gpu) {
            let found = match opencl::list() {
                Ok(found) => found,
                Err(why) if *api == Api::OpenCl || !cuda_opened => {
                    let what = if *api == Api::Gpu { "gpu" } else { "opencl" };
                    let why = if *api == Api::Gpu {
                        format!("no GPU was found (CUDA: {}; OpenCL: {why})", cuda_reason())
                    } else {
                        why
                    };
                    return Err(error(what, why));
                }
                Err(_) => continue,
            };
            if *api == Api::OpenCl
                && let Some(i) = missing(found.len())
            {
                let range = if found.is_empty() {
                    "none".to_string()
                } else {
                    format!("opencl:0 to opencl:{}", found.len() - 1)
                };
                return Err(error(
                    &format!("opencl:{i}"),
                    format!("no such device: OpenCL has {} device(s), {range}", found.len()),
                ));
            }
            let mut any = false;
            let none_at_all = found.is_empty();
            for (info, id) in found {
                let take = match api {
                    // GPUs only, and not NVIDIA's through OpenCL when CUDA has them.
                    Api::Gpu => info.gpu && !(cuda_opened && info.platform.to_lowercase().contains("nvidia")),
                    _ => wanted(info.index),
                };
                if !take {
                    continue;
                }
                let launcher = opencl::OpenCl::open(&info, id).map_err(|why| error(&info.id(), why))?;
                let lanes = launcher.lanes();
                // A CPU device's buffers (pocl's) are host memory.
                out.push(device(&info, Box::new(launcher), lanes, !info.gpu)?);
                any = true;
            }
            if *api == Api::OpenCl && none_at_all {
                return Err(error(
                    "opencl",
                    format!(
                        "OpenCL has a platform but no device (POCL_DEVICES, or a driver without hardware?): {}",
                        opencl::INSTALL
                    ),
                ));
            }
            if *api == Api::Gpu && !any && !cuda_opened {
                let opencl_has = if none_at_all {
                    "no device"
                } else {
                    "only devices that are not GPUs, which opencl:INDEX names"
                };
                return Err(error(
                    "gpu",
                    format!(
                        "no GPU was found (CUDA: {}; OpenCL: {opencl_has}): a GPU needs its vendor's driver, the NVIDIA driver for CUDA or an OpenCL ICD (mesa-opencl-icd, intel-opencl-icd, ROCm)",
                        cuda_reason(),
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Returns why CUDA has no device here, in a few words.
fn cuda_reason() -> String {
    match cuda::list() {
        Ok(v) if v.is_empty() => "the driver finds no device".to_string(),
        Ok(_) => "has devices".to_string(),
        Err(_) if !cuda::present() => "no libcuda".to_string(),
        Err(why) => why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_lists_parse() {
        let spec: DeviceSpec = "cpu,gpu".parse().unwrap();
        assert_eq!(spec, DeviceSpec { cpu: true, devices: vec![(Api::Gpu, None)] });
        let spec: DeviceSpec = "opencl:0,1,cpu".parse().unwrap();
        assert_eq!(spec, DeviceSpec { cpu: true, devices: vec![(Api::OpenCl, Some(vec![0, 1]))] });
        let spec: DeviceSpec = "cuda:1".parse().unwrap();
        assert_eq!(spec.devices, vec![(Api::Cuda, Some(vec![1]))]);
        assert!("cpu".parse::<DeviceSpec>().unwrap().cpu_only());
        let spec: DeviceSpec = " opencl : 0 , 1 ".parse().unwrap();
        assert_eq!(spec.devices, vec![(Api::OpenCl, Some(vec![0, 1]))]);
        for (bad, says) in [
            ("tpu", "unknown device 'tpu' in 'tpu': use cpu, gpu"),
            ("cpu:0", "device 'cpu' in 'cpu:0' takes no index: use"),
            ("opencl:x", "device index 'x' in 'opencl:x' is not a whole number 0 or more: use"),
            ("gpu,1", "device index '1' in 'gpu,1' follows no API with indices: use"),
            ("opencl:0,cpu,1", "device index '1' in 'opencl:0,cpu,1' follows no API with indices"),
            ("gpu,gpu", "device 'gpu' is named twice in 'gpu,gpu': use"),
            ("cpu,cpu", "device 'cpu' is named twice in 'cpu,cpu': use"),
            ("opencl:0,0", "device opencl:0 is named twice in 'opencl:0,0': use"),
            ("gpu:1", "device 'gpu' in 'gpu:1' takes no index (it is every GPU)"),
            ("gpu,cuda", "'gpu,cuda' names gpu, which is every GPU, beside cuda or opencl devices"),
            ("opencl,gpu", "'opencl,gpu' names gpu"),
            ("", "unknown device '' in '': use"),
        ] {
            let err = bad.parse::<DeviceSpec>().unwrap_err();
            assert!(err.starts_with(says), "{bad}: {err}");
        }
    }
}

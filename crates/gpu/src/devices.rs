//! The devices of this machine: [`list`] finds what CUDA and OpenCL have, [`open`] opens the
//! devices a [`DeviceSpec`] names for counting (each a [`GpuDevice`] over its launcher).

use std::fmt::Display;
use std::sync::Arc;

use nqueens::{Error, plan::Device};

use crate::launcher::{DeviceInfo, Launcher};
use crate::scheduler::{self, GpuDevice};
use crate::spec::{Api, DeviceSpec};
use crate::{GpuError, cuda, opencl};

/// The devices found by each API, or why that API has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// CUDA's devices, or why there are none to be had (no libcuda, …).
    pub cuda: Result<Vec<DeviceInfo>, GpuError>,
    /// OpenCL's devices, or why there are none to be had (no libOpenCL, no platform).
    pub opencl: Result<Vec<DeviceInfo>, GpuError>,
}

/// Returns every device CUDA and OpenCL find on this machine (opening nothing for a count).
pub fn list() -> Found {
    Found {
        cuda: cuda::list(),
        opencl: opencl::list().map(|v| v.into_iter().map(|(info, _)| info).collect()),
    }
}

/// Returns the error of opening `device`: [`Error::Device`] with `reason`.
fn error(device: &str, reason: impl Display) -> Error {
    Error::Device { device: device.to_string(), reason: reason.to_string() }
}

/// Returns the device `info`, driven by `launcher` with `lanes` threads resident at once, its
/// launches capped by the memory available to the process ([`scheduler::launch_cap`]; with
/// `host_buffers`, its buffers are host memory too).
///
/// # Errors
/// [`Error::Device`] when not even the smallest launch fits.
fn device(
    info: &DeviceInfo,
    launcher: Box<dyn Launcher>,
    lanes: usize,
    host_buffers: bool,
) -> Result<Arc<dyn Device>, Error> {
    let cap = scheduler::launch_cap(nqueens::plan::available_memory(), host_buffers)
        .map_err(|reason| error(&info.id(), reason))?;
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
    if !spec.devices.is_empty()
        && let Some(Err(why)) = scheduler::task_rows_override()
    {
        return Err(error(spec.devices[0].0.name(), why));
    }
    for (api, indices) in &spec.devices {
        let indices = indices.as_deref();
        let cuda_opened = matches!(api, Api::Cuda | Api::Gpu) && open_cuda(*api, indices, &mut out)?;
        if matches!(api, Api::OpenCl | Api::Gpu) {
            open_opencl(*api, indices, cuda_opened, &mut out)?;
        }
    }
    Ok(out)
}

/// Returns true if and only if device `i` of an API is among `indices` (`None`: all of them).
fn wanted(indices: Option<&[usize]>, i: usize) -> bool {
    indices.is_none_or(|v| v.contains(&i))
}

/// Returns the first of `indices` that an API with `found` devices does not have.
fn missing(indices: Option<&[usize]>, found: usize) -> Option<usize> {
    indices.and_then(|v| v.iter().find(|&&i| i >= found).copied())
}

/// Opens CUDA's devices for `api` ([`Api::Cuda`] with `indices`, or every one for
/// [`Api::Gpu`]) into `out`; returns true if and only if it opened any.
///
/// # Errors
/// For [`Api::Cuda`], a CUDA without the driver, without devices or without an index asked
/// for; for either, a device that cannot be opened.
fn open_cuda(api: Api, indices: Option<&[usize]>, out: &mut Vec<Arc<dyn Device>>) -> Result<bool, Error> {
    match cuda::list() {
        Ok(found) if !found.is_empty() => {
            if api == Api::Cuda
                && let Some(i) = missing(indices, found.len())
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
            let mut opened = false;
            for info in found.into_iter().filter(|d| api == Api::Gpu || wanted(indices, d.index)) {
                let launcher = cuda::Cuda::open(&info).map_err(|why| error(&info.id(), why))?;
                let lanes = launcher.lanes();
                out.push(device(&info, Box::new(launcher), lanes, false)?);
                opened = true;
            }
            Ok(opened)
        }
        Ok(_) if api == Api::Cuda => {
            Err(error("cuda", format!("the CUDA driver is loaded but finds no device: {}", cuda::INSTALL)))
        }
        Err(why) if api == Api::Cuda => Err(error("cuda", why)),
        _ => Ok(false),
    }
}

/// Opens OpenCL's devices for `api` ([`Api::OpenCl`] with `indices`, or for [`Api::Gpu`] its
/// GPUs, but NVIDIA's when CUDA opened its own: `cuda_opened`) into `out`.
///
/// # Errors
/// For [`Api::OpenCl`], an OpenCL without a platform, without devices or without an index
/// asked for; for [`Api::Gpu`], no GPU by either API; for either, a device that cannot be
/// opened.
fn open_opencl(
    api: Api,
    indices: Option<&[usize]>,
    cuda_opened: bool,
    out: &mut Vec<Arc<dyn Device>>,
) -> Result<(), Error> {
    let found = match opencl::list() {
        Ok(found) => found,
        Err(why) if api == Api::OpenCl => return Err(error("opencl", why)),
        Err(why) if !cuda_opened => {
            return Err(error("gpu", format!("no GPU was found (CUDA: {}; OpenCL: {why})", cuda_reason())));
        }
        Err(_) => return Ok(()),
    };
    if api == Api::OpenCl
        && let Some(i) = missing(indices, found.len())
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
            _ => wanted(indices, info.index),
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
    if api == Api::OpenCl && none_at_all {
        return Err(error(
            "opencl",
            format!(
                "OpenCL has a platform but no device (POCL_DEVICES, or a driver without hardware?): {}",
                opencl::INSTALL
            ),
        ));
    }
    if api == Api::Gpu && !any && !cuda_opened {
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
    Ok(())
}

/// Returns why CUDA has no device here, in a few words.
fn cuda_reason() -> String {
    match cuda::list() {
        Ok(v) if v.is_empty() => "the driver finds no device".to_string(),
        Ok(_) => "has devices".to_string(),
        Err(_) if !cuda::present() => "no libcuda".to_string(),
        Err(why) => why.to_string(),
    }
}

//! `nqueens devices`: what CUDA and OpenCL find here, as `count --device` names it.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use nqueens_gpu::{DeviceInfo, Found, GpuError};

use crate::output::PlanFormat;

/// Lists every device found, and for each API without one, why; exit 0 either way (a machine
/// without GPUs is no error here).
///
/// # Errors
/// A failed write.
pub fn run(format: PlanFormat) -> anyhow::Result<ExitCode> {
    let found = nqueens_gpu::list();
    let mut out = io::stdout().lock();
    match format {
        PlanFormat::Text => out.write_all(text(&found).as_bytes()),
        PlanFormat::Json => writeln!(out, "{}", json(&found)),
    }
    .context("writing the device list")?;
    Ok(ExitCode::SUCCESS)
}

/// One line per device, and one per API without any.
fn text(found: &Found) -> String {
    let mut s = String::new();
    for (api, list) in [("cuda", &found.cuda), ("opencl", &found.opencl)] {
        match list {
            Ok(v) if v.is_empty() => s.push_str(&format!("{api}: no device\n")),
            Ok(v) => v.iter().for_each(|d| s.push_str(&format!("{d}\n"))),
            Err(why) => s.push_str(&format!("{api}: none ({why})\n")),
        }
    }
    s
}

/// `{"cuda": {"devices": [...], "error": null}, "opencl": {...}}`.
fn json(found: &Found) -> serde_json::Value {
    let one = |d: &DeviceInfo| {
        serde_json::json!({
            "id": d.id(),
            "api": d.api,
            "index": d.index,
            "name": d.name,
            "platform": d.platform,
            "memory_bytes": d.memory_bytes,
            "compute_units": d.compute_units,
            "gpu": d.gpu,
        })
    };
    let api = |list: &Result<Vec<DeviceInfo>, GpuError>| match list {
        Ok(v) => serde_json::json!({ "devices": v.iter().map(one).collect::<Vec<_>>(), "error": null }),
        Err(why) => serde_json::json!({ "devices": [], "error": why.to_string() }),
    };
    serde_json::json!({ "cuda": api(&found.cuda), "opencl": api(&found.opencl) })
}

//! Which devices a count runs on: [`DeviceSpec`], parsed from the list `--device` takes
//! (`cpu`, `gpu`, `cuda`, `opencl`, the last two with indices, joined by commas), and the
//! [`Api`] each device is asked for by.

use std::str::FromStr;

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

//! The kernel run for real through the OpenCL launcher, on whatever OpenCL device is here (pocl's
//! CPU device in CI, which `.ci/run` installs); skipped with a message where OpenCL has none.

use std::sync::Arc;

use nqueens::oeis::{A000170, A002562};
use nqueens::{Algorithm, CountOptions, Counter, Device};
use nqueens_gpu::DeviceSpec;

/// The OpenCL devices, or `None` (with a message) where there are none.
fn opencl() -> Option<Vec<Arc<dyn Device>>> {
    let spec: DeviceSpec = "opencl:0".parse().unwrap();
    match nqueens_gpu::open(&spec) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("skipped: no OpenCL device here ({e})");
            None
        }
    }
}

fn counter(devices: Vec<Arc<dyn Device>>, threads: usize, depth: Option<u32>) -> Counter {
    let options = CountOptions {
        threads,
        devices,
        algorithm: Algorithm::D4,
        split_depth: depth,
        ..CountOptions::default()
    };
    Counter::new(&options).unwrap()
}

#[test]
fn opencl_counts_equal_oeis_a000170_and_a002562() {
    let Some(devices) = opencl() else { return };
    let c = counter(devices, 0, None);
    for n in 0..=14 {
        let count = c.count(n).unwrap();
        assert_eq!(Some(count.solutions), A000170.get(n), "n = {n}");
        if n >= 1 {
            assert_eq!(count.unique, A002562.get(n), "n = {n}");
        }
        assert_eq!(count.devices, vec!["opencl:0".to_string()]);
    }
}

//! The CUDA launcher run for real where there is an NVIDIA driver and NVRTC; skipped with a
//! message elsewhere (CI has neither: there the launcher is compiled, and `--device cuda` is
//! tested to exit 2 with one line, tests/all/gpu.rs).

use nqueens::oeis::{A000170, A002562};
use nqueens::{Algorithm, CountOptions, Counter};
use nqueens_gpu::DeviceSpec;

#[test]
fn cuda_counts_equal_oeis_a000170_and_a002562() {
    if !nqueens_gpu::cuda_present() {
        eprintln!("skipped: no libcuda here (the NVIDIA driver); {}", nqueens_gpu::CUDA_INSTALL);
        return;
    }
    let spec: DeviceSpec = "cuda:0".parse().unwrap();
    let devices = match nqueens_gpu::open(&spec) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipped: CUDA is here but cannot count ({e})");
            return;
        }
    };
    let options = CountOptions { threads: 0, devices, algorithm: Algorithm::D4, ..CountOptions::default() };
    let counter = Counter::new(&options).unwrap();
    for n in 0..=16 {
        let count = counter.count(n).unwrap();
        assert_eq!(Some(count.solutions), A000170.get(n), "n = {n}");
        if n >= 1 {
            assert_eq!(count.unique, A002562.get(n), "n = {n}");
        }
    }
}

#[test]
fn without_libcuda_opening_cuda_is_an_error_naming_what_to_install() {
    if nqueens_gpu::cuda_present() {
        eprintln!("skipped: libcuda is here");
        return;
    }
    let spec: DeviceSpec = "cuda".parse().unwrap();
    let err = nqueens_gpu::open(&spec).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "device cuda: no CUDA driver could be loaded: install the NVIDIA driver (libcuda.so)"
        ),
        "{err}"
    );
    assert!(nqueens_gpu::list().cuda.is_err());
}

/// NVRTC compiles both kernels, with and without the placement count, for the architectures of
/// the A100 (sm_80), the H100 and H200 (sm_90) and Blackwell (sm_100, sm_120), where libnvrtc is
/// here (`.ci/run` installs pip's nvidia-cuda-nvrtc for this check; no GPU is needed).
#[test]
fn nvrtc_compiles_the_kernels_for_every_recent_architecture() {
    if !nqueens_gpu::nvrtc_present() {
        eprintln!("skipped: no libnvrtc on the library path ({})", nqueens_gpu::CUDA_INSTALL);
        return;
    }
    for arch in ["sm_80", "sm_90", "sm_100", "sm_120"] {
        for nodes in [false, true] {
            let cubin = nqueens_gpu::compile_cuda(arch, nodes).unwrap_or_else(|e| panic!("{arch}: {e}"));
            // An ELF image (a CUBIN), not PTX text.
            assert_eq!(&cubin[..4], b"\x7fELF", "{arch}");
        }
    }
    assert!(nqueens_gpu::compile_cuda("sm_1", false).unwrap_err().to_string().contains("NVRTC"));
}

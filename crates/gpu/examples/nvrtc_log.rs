//! NVRTC's report on the kernels for one architecture: registers, shared memory, spills
//! (`--ptxas-options=-v`), where libnvrtc is on the library path; no GPU needed.
//!
//! `LD_LIBRARY_PATH=.../nvidia/cu13/lib cargo run --release -p nqueens-gpu --example nvrtc_log -- sm_90`

fn main() {
    let arch = std::env::args().nth(1).unwrap_or_else(|| "sm_90".into());
    for nodes in [false, true] {
        match nqueens_gpu::compile_cuda_log(&arch, nodes) {
            Ok(log) => println!("{arch}, nodes {nodes}:\n{log}"),
            Err(e) => {
                eprintln!("nvrtc_log: {e}");
                std::process::exit(1);
            }
        }
    }
}

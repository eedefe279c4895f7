//! The kernel run for real through the OpenCL launcher, on whatever OpenCL device is here (pocl's
//! CPU device in CI, which `.ci/run` installs); skipped with a message where OpenCL has none.

use std::sync::Arc;

use nqueens::oeis::{A000170, A002562};
use nqueens::{Algorithm, CountOptions, Counter, plan::Device};
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

/// Every subproblem's counts from the device (its solutions, classes by orbit and nothing
/// else) are those of the CPU's d4 search, subproblem by subproblem: what a shard's subtotals
/// and `merge --audit` rely on. n = 10..=13 at split depths 1, 2 and 4 (the last leaves
/// complete boards to the host at n = 10).
#[test]
fn every_subproblem_counts_as_on_the_cpu() {
    use nqueens::plan::{Job, Plan, Tally};
    use std::sync::Mutex;
    let Some(devices) = opencl() else { return };
    for n in 10..=13 {
        for depth in [1, 2, 4] {
            let c = counter(devices.clone(), 0, Some(depth));
            let plan = nqueens::plan::D4Plan::new(n, depth).unwrap();
            let got: Mutex<Vec<(usize, Tally)>> = Mutex::new(Vec::new());
            let on_solved = |i: usize, t: &Tally| got.lock().unwrap().push((i, *t));
            let out = c.run(&plan, Job { on_solved: Some(&on_solved), ..Job::default() });
            assert!(out.failure.is_none() && !out.stopped, "{out:?}");
            let mut got = got.into_inner().unwrap();
            got.sort_by_key(|g| g.0);
            assert_eq!(got.len(), plan.len(), "n = {n}, depth {depth}");
            for (i, t) in got {
                let want = plan.solve(i, false);
                assert_eq!(
                    (t.solutions, t.classes),
                    (want.solutions, want.classes),
                    "n = {n}, depth {depth}, {i}"
                );
                assert_eq!(plan.impossible(i, &t), None);
            }
        }
    }
}

/// Two devices (pocl's one CPU device opened twice: two contexts, two queues) and a CPU thread
/// count one board from one queue, each taking what it can.
#[test]
fn two_devices_and_a_cpu_thread_share_one_queue() {
    let (Some(mut a), Some(b)) = (opencl(), opencl()) else { return };
    a.extend(b);
    assert_eq!(a.len(), 2);
    for (n, depth) in [(13, 3), (14, 2)] {
        let count = counter(a.clone(), 1, Some(depth)).count(n).unwrap();
        assert_eq!(Some(count.solutions), A000170.get(n), "n = {n}");
        assert_eq!(count.unique, A002562.get(n), "n = {n}");
        assert_eq!(count.devices, vec!["opencl:0", "opencl:0", "cpu"]);
    }
}

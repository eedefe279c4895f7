//! Runs a sample of the join's units (every STEP-th, from the first) for one board on THREADS
//! threads and reports the memory they take beside the quarter table: the peak resident set
//! after the plan is built and at the end (Linux `VmHWM`), so their difference is what the
//! threads' working buffers added. `cargo run --release --example join_units -- N STEP THREADS`
//! prints one line: n, threads, table bytes, the plan's units, those run, their sum, seconds for the plan and for the
//! units (wall-clock), and both peaks in MiB.

use std::time::Instant;

use nqueens::arch::Level;
use nqueens::parallel::{self, Job, Progress};
use nqueens::{JoinPlan, Plan};

/// Returns the peak resident set of this process so far, in MiB (`VmHWM`; `None` off Linux).
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

fn main() {
    let args: Vec<usize> =
        std::env::args().skip(1).map(|a| a.parse().expect("usage: join_units N STEP THREADS")).collect();
    let [n, step, threads] = args[..] else { panic!("usage: join_units N STEP THREADS") };
    let t0 = Instant::now();
    let mut plan = JoinPlan::new(n as u32).expect("the table fits");
    // The level from NQUEENS_ISA (as `--isa` takes it), else the best this processor runs.
    let level: Level =
        std::env::var("NQUEENS_ISA").map_or(Ok(Level::best()), |s| s.parse()).unwrap_or_else(|e| {
            eprintln!("NQUEENS_ISA: {e}");
            std::process::exit(2)
        });
    plan.set_level(level);
    let plan_seconds = t0.elapsed().as_secs_f64();
    let table_peak = peak_mib();
    let only: Vec<usize> = (0..plan.len()).step_by(step).collect();
    let pool = parallel::pool(threads, "units").expect("a pool");
    let t1 = Instant::now();
    let job = Job { only: Some(&only), ..Job::default() };
    let outcome = parallel::run_with(&plan, &pool, Progress::Never, false, job);
    let unit_seconds = t1.elapsed().as_secs_f64();
    let show = |p: Option<u64>| p.map_or("unknown".to_string(), |p| p.to_string());
    println!(
        "n={n} threads={threads} table_bytes={} plan_units={} units={} sum={} plan_seconds={plan_seconds:.2} \
         unit_seconds={unit_seconds:.2} peak_after_plan_mib={} peak_mib={}",
        plan.table().bytes(),
        plan.len(),
        only.len(),
        outcome.tally.solutions,
        show(table_peak),
        show(peak_mib())
    );
}

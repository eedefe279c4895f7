//! Runs a sample of the join's units (every STEP-th, from the first) for one board on THREADS
//! threads and reports the memory they take beside the quarter table: the peak resident set
//! after the plan is built and at the end (Linux `VmHWM`), so their difference is what the
//! threads' working buffers added. `cargo run --release --example join_units -- N STEP THREADS
//! [table|rows|both]` (where the units read the quarter lists: the whole table, or each unit its
//! own row sets; default: the join's choice for N; both: each unit both ways, alternately, with a
//! line per unit of the CPU seconds of each) prints one line: n, threads, table bytes, the plan's units, those run, their sum, seconds for the plan and for the
//! units (wall-clock), and both peaks in MiB.

use std::time::Instant;

use nqueens::algo::join::Quarters;
use nqueens::arch::Level;
use nqueens::parallel::{self, Job, Progress};
use nqueens::{algo::join::JoinPlan, plan::Plan};

/// Returns the peak resident set of this process so far, in MiB (`VmHWM`; `None` off Linux).
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

fn main() {
    let usage = "usage: join_units N STEP THREADS [table|rows]";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let both = args.get(3).is_some_and(|a| a == "both");
    let quarters = match args.get(3).map(String::as_str) {
        Some("table") | Some("both") => Some(Quarters::Table),
        Some("rows") => Some(Quarters::RowSets),
        Some(other) => panic!("{usage} (got '{other}')"),
        None => None,
    };
    args.truncate(3);
    let args: Vec<usize> = args.iter().map(|a| a.parse().expect(usage)).collect();
    let [n, step, threads] = args[..] else { panic!("{usage}") };
    let t0 = Instant::now();
    let quarters = quarters.unwrap_or(Quarters::for_board(n as u32));
    let mut plan = JoinPlan::with_options(n as u32, true, quarters).expect("the table fits");
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
    let t1 = Instant::now();
    let mut sum = 0u128;
    // Unit `index` of `plan` on this thread, with the thread's CPU seconds it took.
    let timed = |plan: &JoinPlan, index: usize| {
        let t = nqueens_runs::estimate::thread_cpu_seconds();
        let tally = plan.solve(index, true);
        (tally, nqueens_runs::estimate::thread_cpu_seconds() - t)
    };
    if both {
        // Each unit from the table and from row sets, alternately on this thread: CPU seconds
        // of each and whether the counts agree.
        let rows = JoinPlan::with_options(n as u32, true, Quarters::RowSets).expect("row sets fit");
        for &index in &only {
            let (a, table_s) = timed(&plan, index);
            let (b, rows_s) = timed(&rows, index);
            assert_eq!(a, b, "unit {index}: the table and row sets disagree");
            eprintln!(
                "unit={index} table_seconds={table_s:.3} rows_seconds={rows_s:.3} halves={} solutions={}",
                a.nodes, a.solutions
            );
            sum += a.solutions;
        }
    } else if threads == 1 {
        // One thread: each unit on this thread, a line per unit on stderr (index, CPU seconds,
        // half-boards, solutions, peak so far).
        for &index in &only {
            let (tally, cpu) = timed(&plan, index);
            eprintln!(
                "unit={index} cpu_seconds={cpu:.2} halves={} solutions={} peak_mib={}",
                tally.nodes,
                tally.solutions,
                peak_mib().unwrap_or(0)
            );
            sum += tally.solutions;
        }
    } else {
        let pool = parallel::pool(threads, "units").expect("a pool");
        let job = Job { only: Some(&only), ..Job::default() };
        sum = parallel::run_with(&plan, &pool, Progress::Never, false, job).tally.solutions;
    }
    let unit_seconds = t1.elapsed().as_secs_f64();
    let show = |p: Option<u64>| p.map_or("unknown".to_string(), |p| p.to_string());
    println!(
        "n={n} threads={threads} quarters={quarters:?} table_bytes={} plan_units={} units={} sum={} plan_seconds={plan_seconds:.2} \
         unit_seconds={unit_seconds:.2} peak_after_plan_mib={} peak_mib={}",
        plan.table().bytes(),
        plan.len(),
        only.len(),
        sum,
        show(table_peak),
        show(peak_mib())
    );
}

//! Shard balance: how evenly `--shard I/K` spreads the work, measured in search-tree nodes
//! (deterministic, unlike times on a shared machine).
//!
//! `cargo bench -p nqueens-bench --bench shard_balance -- N K [ROWS...]` builds the shard plan of n = N for K
//! shards, solves every subproblem once with node counting, and prints one CSV row per
//! partition: by the cost estimate probing ROWS rows (default 1 2 3; 2 is what `--shard` uses)
//! and, for comparison, by equal counts (round robin): the slowest shard's nodes over the mean.
//! Takes as long as one count of N with statistics (n = 17: ~20 s on 2 cores; n = 18: ~2-3 min).

use std::sync::Mutex;

use nqueens::parallel::{self, Job};
use nqueens::{Algorithm, Progress, plan::Tally};
use nqueens_runs::shard::{estimate_rows, partition, shard_spec};

fn main() {
    // `cargo bench` passes `--bench`; keep only our numbers.
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (n, k) = match args.as_slice() {
        [n, k, ..] => (*n, *k as usize),
        _ => (16, 16),
    };
    let rows: Vec<u32> = if args.len() > 2 { args[2..].to_vec() } else { vec![1, 2, 3] };
    let plan = shard_spec(Algorithm::Mirror, n, k).build().expect("a valid plan");
    let nodes = Mutex::new(vec![0u128; plan.len()]);
    let on_solved = |i: usize, t: &Tally| nodes.lock().unwrap()[i] = t.nodes;
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let pool = parallel::pool(threads, "shard-balance").expect("a thread pool");
    let start = std::time::Instant::now();
    let job = Job { on_solved: Some(&on_solved), ..Job::default() };
    let outcome = parallel::run_with(plan.as_ref(), &pool, Progress::Never, true, job);
    let seconds = start.elapsed().as_secs_f64();
    let known = nqueens::oeis::A000170.get(n);
    assert!(known.is_none_or(|q| q == outcome.tally.solutions), "the count of n = {n} is wrong");
    let nodes = nodes.into_inner().unwrap();
    println!("n,k,split_depth,subproblems,partition,max_over_mean,min_over_mean,total_nodes,seconds");
    let report = |name: &str, shards: Vec<Vec<usize>>| {
        let loads: Vec<f64> = shards.iter().map(|s| s.iter().map(|&i| nodes[i] as f64).sum()).collect();
        let mean = loads.iter().sum::<f64>() / k as f64;
        let max = loads.iter().cloned().fold(0.0, f64::max);
        let min = loads.iter().cloned().fold(f64::INFINITY, f64::min);
        println!(
            "{n},{k},{},{},{name},{:.4},{:.4},{},{seconds:.1}",
            plan.split_depth(),
            plan.len(),
            max / mean,
            min / mean,
            outcome.tally.nodes
        );
    };
    for &r in &rows {
        let costs: Vec<u64> = (0..plan.len()).map(|i| estimate_rows(plan.as_ref(), i, r)).collect();
        report(&format!("estimate-{r}-rows"), partition(&costs, k));
    }
    report("equal-counts", partition(&vec![1; plan.len()], k));
    // The ideal: the partition by the true node counts (what no estimate can beat with LPT).
    let exact: Vec<u64> = nodes.iter().map(|&v| v as u64).collect();
    report("true-nodes", partition(&exact, k));
}

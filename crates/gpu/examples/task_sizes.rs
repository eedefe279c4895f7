//! How many tasks the host splits a d4 count into, and how large they are, for each number of
//! free rows left to a task (`task_rows`): the numbers behind [`nqueens_gpu::task_rows`].
//! With `--nodes`, also searches every task on the host (the kernel's search) for its queen
//! placements: slow past n = 17.
//!
//! `cargo run --release -p nqueens-gpu --example task_sizes -- 16 [--nodes]`

use nqueens::plan::D4Plan;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes = args.iter().any(|a| a == "--nodes");
    let n: u32 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(16);
    let plan = D4Plan::new(n, 1).expect("a d4 plan");
    println!("n,task_rows,tasks,host_boards,placements,placements_per_task");
    // From n - 10 free rows a task (fewer make billions of tasks from n = 20).
    for rows in (n.saturating_sub(10).max(2)..=n.saturating_sub(4)).step_by(2) {
        let census = nqueens_gpu::task_census(&plan, rows, nodes);
        let (count, host, placed) = (census.tasks, census.host_boards, census.placements);
        let per = if count > 0 { placed as f64 / count as f64 } else { 0.0 };
        println!("{n},{rows},{count},{host},{placed},{per:.0}");
    }
}

//! Writes the K shard results of `nqueens count N --shard I/K` for I in FIRST..LAST into DIR
//! (`shard-I.json`), through the same library path as the command (`nqueens_runs::run::LongRun`,
//! one session per shard: the shard plan built and dealt, its subproblems counted, the result
//! checksummed), in one process: 10^5 processes of `count 12 --shard I/100000` took about 30
//! per second on 2 loaded cores, this writes thousands per second. For measuring `merge` on
//! many shards (results/2026-12-02-shards/).
//!
//! `cargo run --release --example shard_files -- N K DIR [FIRST [LAST]]`
//!
//! With `ONE_PLAN=ALGORITHM` (d4, join or mirror) it builds the shard plan once and writes
//! each shard's result from the counts of its subproblems (`Plan::solve`), the fields as
//! `count --shard` fills them: for plans whose build takes a second (d4 at n = 16), which a
//! session per shard would repeat 10^5 times.

use std::sync::atomic::AtomicBool;

use nqueens::{Algorithm, CountOptions, plan::Tally};
use nqueens_runs::merge::{Covers, SHARD_FORMAT, SHARD_FORMAT_VERSION, ShardResult};
use nqueens_runs::run::{Counted, Finished, LongRun};
use nqueens_runs::shard::ShardId;

/// Writes shards `first..last` of `k` from one shard plan of `algorithm` (see the module docs).
fn one_plan(algorithm: Algorithm, n: u32, k: usize, dir: &str, first: usize, last: usize) {
    let plan = nqueens_runs::shard::shard_spec(algorithm, n, k).build().expect("the shard plan builds");
    let dealt = nqueens_runs::shard::try_assign(plan.as_ref(), k).expect("the plan deals");
    let algorithm = plan.algorithm();
    for (index, ids) in dealt.iter().enumerate().take(last).skip(first) {
        let start = std::time::Instant::now();
        let tallies: Vec<Tally> = ids.iter().map(|&id| Tally { nodes: 0, ..plan.solve(id, false) }).collect();
        let total = tallies.iter().fold(Tally::default(), |t, s| t.checked_add(s).expect("no overflow"));
        let mut r = ShardResult {
            format: SHARD_FORMAT.into(),
            format_version: SHARD_FORMAT_VERSION,
            n,
            algorithm: algorithm.name().into(),
            split_depth: plan.split_depth(),
            subproblems: plan.len(),
            shard: index,
            shards: k,
            covers: Some(Covers::of(ids)),
            ids: None,
            solutions: total.solutions,
            classes: total.classes,
            nodes: None,
            seconds: (start.elapsed().as_secs_f64() * 1e6).round() / 1e6,
            threads: 1,
            devices: None,
            version: env!("CARGO_PKG_VERSION").into(),
            subtotals: nqueens_runs::subtotals::encode(algorithm.classifies(), &tallies),
            host: nqueens_runs::merge::host_name(),
            checksum: String::new(),
        };
        r.checksum = r.compute_checksum();
        let text = serde_json::to_string(&r).expect("a result serializes");
        std::fs::write(format!("{dir}/shard-{index}.json"), text + "\n").expect("the result is written");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: shard_files N K DIR [FIRST [LAST]]";
    let (n, k, dir) = match &args[..] {
        [n, k, dir, ..] => (n.parse::<u32>().expect(usage), k.parse::<usize>().expect(usage), dir),
        _ => panic!("{usage}"),
    };
    let first = args.get(3).map_or(0, |a| a.parse::<usize>().expect(usage));
    let last = args.get(4).map_or(k, |a| a.parse::<usize>().expect(usage)).min(k);
    std::fs::create_dir_all(dir).expect("DIR can be created");
    if let Ok(algorithm) = std::env::var("ONE_PLAN") {
        let algorithm: Algorithm = algorithm.parse().expect("ONE_PLAN is d4, join or mirror");
        return one_plan(algorithm, n, k, dir, first, last);
    }
    // One thread and the algorithm auto picks at this n, as `count N --shard I/K -j 1` does.
    let options = CountOptions { threads: 1, algorithm: Algorithm::Auto, ..CountOptions::default() };
    let stop = AtomicBool::new(false);
    for index in first..last {
        let run = LongRun { n, shard: Some(ShardId { index, count: k }), checkpoint: None, breakdown: false };
        let session = run.open(&options).expect("the shard plan builds");
        let Finished::Complete(done) = session.run(&stop).expect("the shard counts") else {
            unreachable!("nothing stops it")
        };
        let Counted::Shard(result) = done.result().expect("a shard result") else { unreachable!("a shard") };
        let text = serde_json::to_string(&result).expect("a result serializes");
        std::fs::write(format!("{dir}/shard-{index}.json"), text + "\n").expect("the result is written");
    }
}

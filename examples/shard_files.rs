//! Writes the K shard results of `nqueens count N --shard I/K` for I in FIRST..LAST into DIR
//! (`shard-I.json`), through the same library path as the command (`nqueens::run::LongRun`,
//! one session per shard: the shard plan built and dealt, its subproblems counted, the result
//! checksummed), in one process: 10^5 processes of `count 12 --shard I/100000` took about 30
//! per second on 2 loaded cores, this writes thousands per second. For measuring `merge` on
//! many shards (results/2026-12-02-shards/).
//!
//! `cargo run --release --example shard_files -- N K DIR [FIRST [LAST]]`

use std::sync::atomic::AtomicBool;

use nqueens::run::{Counted, Finished, LongRun};
use nqueens::shard::ShardId;
use nqueens::{Algorithm, CountOptions};

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

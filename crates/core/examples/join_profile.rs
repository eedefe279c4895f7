//! Profiles a random sample of the join's units for one board: per unit its setup (row sets and
//! half-boards), the matcher's builds, sorts and block loop, with the sizes and pair counts
//! behind them, as one CSV row (header first). Large units can be cut short: the matcher stops
//! once its parts done stand for SHARE of its work, and the row says which share ran.
//!
//! `cargo run --release --features nqueens/internals --example join_profile -- N UNITS SEED [SHARE]`
//!
//! Environment: NQUEENS_ISA (the level, as `--isa` takes it), QUARTERS=table|rows (where units
//! read their quarter lists; default: row sets from n = 24, so no whole table is built), CUTS
//! (force the cut bits), ONLY=i,j,... (these units, not a sample), CHUNK_BITS (force the bits per chunk), MAX_STORED (the most stored masks whose blocks are held at once; 0 = unbounded).

#[path = "common/picks.rs"]
mod picks;

use nqueens::algo::join::{JoinPlan, Quarters};
use nqueens::arch::Level;
use nqueens::plan::Plan;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: join_profile N UNITS SEED [SHARE]");
        std::process::exit(2);
    }
    let n: u32 = args[0].parse().expect("N");
    let units: usize = args[1].parse().expect("UNITS");
    let seed: u64 = args[2].parse().expect("SEED");
    let max_share: f64 = args.get(3).map_or(1.0, |s| s.parse().expect("SHARE"));
    let env = |k: &str| std::env::var(k).ok();
    let quarters = match env("QUARTERS").as_deref() {
        Some("table") => Quarters::Table,
        Some("rows") => Quarters::RowSets,
        _ if n >= 24 => Quarters::RowSets,
        _ => Quarters::Table,
    };
    let mut plan = JoinPlan::with_options(n, true, quarters).expect("the join fits");
    let level: Level = env("NQUEENS_ISA").map_or(Level::best(), |s| s.parse().expect("NQUEENS_ISA"));
    plan.set_level(level);
    if let Some(c) = env("CUTS").and_then(|c| c.parse().ok()) {
        plan.set_cuts(c);
    }
    if let Some(c) = env("CHUNK_BITS").and_then(|c| c.parse().ok()) {
        plan.set_chunk_bits(c);
    }
    let cap = |v: usize| (v > 0).then_some(v);
    if let Some(m) = env("MAX_STORED").and_then(|c| c.parse().ok()) {
        plan.set_max_stored(cap(m));
    }
    println!(
        "n,isa,unit,east,west,builds,stored,queries,cuts_mean,chunks_mean,chunk_bits_mean,blocks,table_mib,setup_s,build_s,sort_s,\
         match_s,share,block_codes,bucket_pairs,disjoint,solutions,seconds,est_unit_s,rss_mib,peak_rss_mib"
    );
    let picks = picks::picks(plan.len(), units, seed);
    for index in picks {
        plan.prepare(index);
        let p = plan.profile_unit(index, max_share);
        let m = &p.matcher;
        // The unit's whole time: setup, then the matcher's time over the share that ran.
        let matching = m.build_s + m.sort_s + m.match_s;
        let est = p.setup_s + if p.share > 0.0 { matching / p.share } else { matching };
        println!(
            "{n},{level},{},{},{},{},{},{},{:.2},{:.2},{:.2},{},{:.1},{:.4},{:.4},{:.4},{:.4},{:.4},{},{},{},{},{:.4},{:.3},{},{}",
            p.index,
            p.east,
            p.west,
            m.builds,
            m.stored,
            m.queries,
            m.cuts as f64 / m.builds.max(1) as f64,
            m.chunks as f64 / m.builds.max(1) as f64,
            m.chunk_bits as f64 / m.builds.max(1) as f64,
            m.blocks,
            m.table_bytes as f64 / f64::from(1 << 20),
            p.setup_s,
            m.build_s,
            m.sort_s,
            m.match_s,
            p.share,
            m.block_codes,
            m.bucket_pairs,
            m.disjoint,
            p.solutions.map_or(String::from("-"), |s| s.to_string()),
            p.seconds,
            est,
            rss_mib("VmRSS:"),
            rss_mib("VmHWM:"),
        );
    }
}

/// Returns the resident set of this process in MiB as `/proc/self/status` gives it on the
/// line starting with `key` (VmRSS: now, VmHWM: its peak), or 0 where /proc has none.
fn rss_mib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

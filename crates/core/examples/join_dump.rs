//! Writes the two sides of a few random units of the join, as the matcher meets them, to files
//! for experiments with the matcher outside the crate: per unit `DIR/n{N}-u{INDEX}.stored` and
//! `.codes` (little-endian u64s) and `.json` (classes, weights, outer weight, count).
//!
//! `cargo run --release --features nqueens/internals --example join_dump -- N UNITS SEED DIR`

use std::io::Write;

use nqueens::algo::join::{JoinPlan, Quarters};
use nqueens::plan::Plan;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: join_dump N UNITS SEED DIR");
        std::process::exit(2);
    }
    let n: u32 = args[0].parse().expect("N");
    let units: usize = args[1].parse().expect("UNITS");
    let mut seed: u64 = args[2].parse().expect("SEED");
    let dir = std::path::Path::new(&args[3]);
    std::fs::create_dir_all(dir).expect("the folder");
    let quarters = if n >= 24 { Quarters::RowSets } else { Quarters::Table };
    let plan = JoinPlan::with_options(n, true, quarters).expect("the join fits");
    for _ in 0..units {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let index = (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) % plan.len() as u64) as usize;
        plan.prepare(index);
        let sides = plan.unit_sides(index);
        let solutions = plan.solve(index, false).solutions;
        let stem = dir.join(format!("n{n}-u{index}"));
        for (ext, values) in [("stored", &sides.stored), ("codes", &sides.codes)] {
            let mut f =
                std::io::BufWriter::new(std::fs::File::create(stem.with_extension(ext)).expect("a file"));
            for v in values.iter() {
                f.write_all(&v.to_le_bytes()).expect("written");
            }
        }
        let classes: Vec<String> = sides.classes.iter().map(|c| format!("[{}, {}]", c.0, c.1)).collect();
        std::fs::write(
            stem.with_extension("json"),
            format!(
                "{{\"n\": {n}, \"unit\": {index}, \"classes\": [{}], \"weights\": {:?}, \"outer\": {}, \"solutions\": {solutions}}}\n",
                classes.join(", "),
                sides.weights,
                sides.outer
            ),
        )
        .expect("written");
        println!("{}", stem.display());
    }
}

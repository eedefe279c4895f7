//! In-process side-by-side timing of `join` and `mirror` for small boards, alternating, to find
//! where the join starts to win. `cargo run --release --example crossover -- FIRST LAST REPS THREADS`
//! prints one CSV row per board: n, reps, median join seconds, median mirror seconds, ratio.

use std::time::Instant;

use nqueens::{Algorithm, CountOptions, Counter};

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().expect("integers")).collect();
    let (first, last, reps, threads) = (args[0], args[1], args[2] as usize, args[3] as usize);
    let make =
        |algorithm| Counter::new(&CountOptions { threads, algorithm, ..CountOptions::default() }).unwrap();
    let (join, mirror) = (make(Algorithm::Join), make(Algorithm::Mirror));
    println!("n,reps,join_seconds,mirror_seconds,join_over_mirror");
    for n in first..=last {
        let (mut tj, mut tm) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            let t = Instant::now();
            let a = join.count(n).unwrap().solutions;
            tj.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let b = mirror.count(n).unwrap().solutions;
            tm.push(t.elapsed().as_secs_f64());
            assert_eq!(a, b, "n = {n}");
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (j, m) = (median(&mut tj), median(&mut tm));
        println!("{n},{reps},{j:.6},{m:.6},{:.3}", j / m);
    }
}

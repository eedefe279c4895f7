//! In-process side-by-side timing of `join` and another algorithm (`mirror`, or `d4` when a fifth
//! argument says so) for small boards, alternating, to find where the join starts to win.
//! `cargo run --release --example crossover -- FIRST LAST REPS THREADS [d4|mirror]` prints one CSV
//! row per board: n, reps, median join seconds, median seconds of the other, ratio.

use std::time::Instant;

use nqueens::{Algorithm, CountOptions, Counter};

fn main() {
    let other = match std::env::args().nth(5).as_deref() {
        Some("d4") => Algorithm::D4,
        _ => Algorithm::Mirror,
    };
    let args: Vec<u32> = std::env::args().skip(1).take(4).map(|a| a.parse().expect("integers")).collect();
    let (first, last, reps, threads) = (args[0], args[1], args[2] as usize, args[3] as usize);
    let make =
        |algorithm| Counter::new(&CountOptions { threads, algorithm, ..CountOptions::default() }).unwrap();
    let (join, mirror) = (make(Algorithm::Join), make(other));
    println!("n,reps,join_seconds,{0}_seconds,join_over_{0}", other.name());
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

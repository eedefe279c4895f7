//! Counting with a progress observer: the library draws nothing, it tells an [`Observer`] how
//! the work advances, and this one prints a line at every tenth of it.
//!
//! `cargo run --release --example count_with_progress -- 16` prints
//! `n = 16: 10% … 100%` and then `Q(16) = 14772512 (1846955 fundamental) in 0.3 s on 2 threads`.

use std::sync::Arc;
use std::sync::Mutex;

use nqueens::Run;
use nqueens::{CountOptions, Counter, Observer, Progress};

/// Prints the share of the work done each time it passes another tenth.
#[derive(Default)]
struct Tenths {
    /// The run's whole work and the work done so far, in the runner's units.
    state: Mutex<(f64, f64, u32)>,
}

impl Tenths {
    fn add(&self, work: f64) {
        let mut state = self.state.lock().unwrap();
        let (whole, done, shown) = &mut *state;
        *done += work;
        let tenths = (*done / whole.max(f64::MIN_POSITIVE) * 10.0).floor() as u32;
        if tenths > *shown {
            *shown = tenths.min(10);
            print!(" {}%", *shown * 10);
        }
    }
}

impl Observer for Tenths {
    fn start(&self, run: &Run) {
        *self.state.lock().unwrap() = (run.work, 0.0, 0);
        print!("n = {}:", run.n);
    }
    // Called for each step of a long subproblem (plans whose subproblems stop midway).
    fn advance(&self, work: f64) {
        self.add(work);
    }
    fn solved(&self, work: f64) {
        self.add(work);
    }
    fn finish(&self) {
        println!();
    }
}

fn main() -> Result<(), nqueens::Error> {
    let n = std::env::args().nth(1).map_or(14, |a| a.parse().expect("a board size, 0..=63"));
    let progress = Progress::To(Arc::new(Tenths::default()));
    let counter = Counter::new(&CountOptions { progress, ..CountOptions::default() })?;
    let count = counter.count(n)?;
    let unique = count.unique.map_or(String::new(), |u| format!(" ({u} fundamental)"));
    println!(
        "Q({n}) = {}{unique} in {:.1} s on {} threads ({} algorithm)",
        count.solutions, count.seconds, count.threads, count.algorithm
    );
    assert_eq!(Some(count.solutions), nqueens::oeis::A000170.get(n), "OEIS A000170");
    Ok(())
}

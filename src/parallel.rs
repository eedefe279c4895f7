//! The one place that decides how subproblems run: a rayon pool sums [`Plan::solve`] over every
//! subproblem, and an indicatif progress bar on stderr counts them.
//!
//! Work stealing does the load balancing: the subproblem list is long (see
//! [`crate::split::auto_split_depth`]), and rayon splits the index range between idle workers
//! as they run dry. The sum is exact (`u128`) and its value does not depend on the order, so the
//! count is the same for every thread count. The progress bar is updated once per subproblem,
//! outside the kernel.

use std::io::{IsTerminal, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use rayon::prelude::*;

use crate::{Plan, Tally};

/// When to draw the progress bar on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Progress {
    /// When stderr is a terminal and the run has lasted [`SHOW_AFTER`]: short runs stay quiet.
    Auto,
    /// From the start, also when stderr is not a terminal (then one plain line per second).
    Always,
    /// Never.
    #[default]
    Never,
}

impl FromStr for Progress {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Progress::Auto),
            "always" => Ok(Progress::Always),
            "never" => Ok(Progress::Never),
            _ => Err(format!("unknown progress mode '{s}': use auto, always or never")),
        }
    }
}

/// How long a run lasts before [`Progress::Auto`] shows its bar.
pub const SHOW_AFTER: Duration = Duration::from_millis(800);

/// What [`run`] returns: the summed counts and the time the workers spent in subproblems.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The exact sum of every subproblem's counts.
    pub tally: Tally,
    /// Seconds the workers spent solving subproblems, summed over threads (wall-clock per
    /// subproblem; CPU time when the machine is not oversubscribed).
    pub busy_seconds: f64,
}

/// Solves every subproblem of `plan` on `pool` and returns the exact sum, drawing a progress bar
/// on stderr as `progress` says; counts nodes when `stats` is true.
pub fn run(plan: &dyn Plan, pool: &rayon::ThreadPool, progress: Progress, stats: bool) -> Outcome {
    let bar = Bar::new(plan.len() as u64, plan.n(), progress);
    let (tally, busy) = pool.install(|| {
        (0..plan.len())
            .into_par_iter()
            .map(|i| {
                let t0 = Instant::now();
                let tally = plan.solve(i, stats);
                let busy = t0.elapsed();
                bar.tick();
                (tally, busy)
            })
            .reduce(|| (Tally::default(), Duration::ZERO), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    bar.finish();
    Outcome { tally, busy_seconds: busy.as_secs_f64() }
}

/// The progress bar, hidden until it is worth showing.
struct Bar {
    bar: ProgressBar,
    start: Instant,
    shown: AtomicBool,
}

impl Bar {
    fn new(len: u64, n: u32, mode: Progress) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            "n={prefix} {bar:30} {pos}/{len} subproblems, {elapsed_precise} elapsed, ETA {eta_precise}",
        )
        .expect("the template is valid");
        bar.set_style(style);
        bar.set_prefix(n.to_string());
        let stderr_is_terminal = std::io::stderr().is_terminal();
        let shown = match mode {
            Progress::Never => true,
            Progress::Auto => !stderr_is_terminal,
            Progress::Always => false,
        };
        let bar = Bar { bar, start: Instant::now(), shown: AtomicBool::new(shown) };
        if mode == Progress::Always {
            bar.show();
        }
        bar
    }

    /// Counts one finished subproblem, and shows the bar once the run has lasted long enough.
    fn tick(&self) {
        self.bar.inc(1);
        if !self.shown.load(Ordering::Relaxed) && self.start.elapsed() >= SHOW_AFTER {
            self.show();
        }
    }

    fn show(&self) {
        if self.shown.swap(true, Ordering::Relaxed) {
            return;
        }
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::term_like_with_hz(Box::new(PlainLines), 1)
        };
        self.bar.set_draw_target(target);
    }

    fn finish(&self) {
        if !self.bar.is_hidden() {
            self.bar.finish_and_clear();
        }
    }
}

/// A draw target for a stderr that is not a terminal: each redraw is one plain line.
#[derive(Debug)]
struct PlainLines;

impl TermLike for PlainLines {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        if s.trim().is_empty() { Ok(()) } else { writeln!(std::io::stderr(), "{s}") }
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.write_line(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MirrorPlan;

    #[test]
    fn thread_counts_agree() {
        let plan = MirrorPlan::new(11, 3).unwrap();
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let out = run(&plan, &pool, Progress::Never, true);
            assert_eq!(out.tally.solutions, 2680, "threads = {threads}");
            assert!(out.tally.nodes > 0);
        }
    }

    #[test]
    fn progress_modes_parse() {
        assert_eq!("auto".parse(), Ok(Progress::Auto));
        assert_eq!("always".parse(), Ok(Progress::Always));
        assert_eq!("never".parse(), Ok(Progress::Never));
        assert!("sometimes".parse::<Progress>().unwrap_err().contains("auto, always or never"));
    }
}

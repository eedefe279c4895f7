//! The one place that decides how subproblems run: a rayon pool sums [`Plan::solve`] over every
//! subproblem, and an indicatif progress bar on stderr counts them.
//!
//! Work stealing does the load balancing: the subproblem list is long (see
//! [`crate::split::auto_split_depth`]), and rayon splits the index range between idle workers
//! as they run dry. The sum is exact (`u128`) and its value does not depend on the order, so the
//! count is the same for every thread count. The progress bar is updated once per subproblem,
//! outside the kernel.
//!
//! Long runs ([`run_with`]) also choose which subproblems to solve (those a checkpoint journal
//! lacks, or one shard's), hear of each solved subproblem (to journal it), and stop taking new
//! subproblems when a flag is set (by a signal handler); the flag is read between subproblems,
//! never in the kernel.

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
    /// The exact sum of the counts of every subproblem that was solved.
    pub tally: Tally,
    /// Seconds the workers spent solving subproblems, summed over threads (wall-clock per
    /// subproblem; CPU time when the machine is not oversubscribed).
    pub busy_seconds: f64,
    /// The number of subproblems solved (fewer than asked for if and only if the run was stopped).
    pub solved: usize,
    /// True if and only if the stop flag was seen set and some subproblems were left unsolved.
    pub stopped: bool,
}

/// A callback told of each solved subproblem: its index and counts.
pub type OnSolved<'a> = dyn Fn(usize, &Tally) + Sync + 'a;

/// What [`run_with`] runs beyond the plain count: which subproblems, what to tell of each, and
/// when to stop. `Job::default()` is the plain count of every subproblem.
#[derive(Clone, Copy, Default)]
pub struct Job<'a> {
    /// The subproblem indices to solve (each in `0..plan.len()`, each once); `None` solves all.
    /// A resumed run passes the ones its journal lacks, a shard passes its own.
    pub only: Option<&'a [usize]>,
    /// Called on the worker thread with the index and counts of each solved subproblem, as soon
    /// as it is solved, in no particular order (a checkpoint journal appends a line here).
    pub on_solved: Option<&'a OnSolved<'a>>,
    /// Checked before each subproblem starts (never inside the kernel): once it is true, no new
    /// subproblem starts and those already running finish (a signal handler sets it).
    pub stop: Option<&'a AtomicBool>,
}

/// Solves every subproblem of `plan` on `pool` and returns the exact sum, drawing a progress bar
/// on stderr as `progress` says; counts nodes when `stats` is true.
pub fn run(plan: &dyn Plan, pool: &rayon::ThreadPool, progress: Progress, stats: bool) -> Outcome {
    run_with(plan, pool, progress, stats, Job::default())
}

/// Solves the subproblems of `plan` that `job` selects on `pool`, calls `job.on_solved` for each
/// and stops taking new ones once `job.stop` is set; returns the exact sum of those solved.
///
/// The plain count ([`run`]) takes the same path: an unset `only` is the range `0..len`, and an
/// unset callback or flag costs one branch per subproblem.
///
/// # Panics
/// If an index of `job.only` is not below `plan.len()`.
pub fn run_with(
    plan: &dyn Plan,
    pool: &rayon::ThreadPool,
    progress: Progress,
    stats: bool,
    job: Job<'_>,
) -> Outcome {
    let total = job.only.map_or(plan.len(), <[usize]>::len);
    let bar = Bar::new(total as u64, plan.n(), progress);
    let solve = |i: usize| -> (Tally, Duration, usize) {
        if job.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return (Tally::default(), Duration::ZERO, 0);
        }
        let t0 = Instant::now();
        let tally = plan.solve(i, stats);
        let busy = t0.elapsed();
        if let Some(f) = job.on_solved {
            f(i, &tally);
        }
        bar.tick();
        (tally, busy, 1)
    };
    let zero = || (Tally::default(), Duration::ZERO, 0usize);
    let sum = |a: (Tally, Duration, usize), b: (Tally, Duration, usize)| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
    let (tally, busy, solved) = pool.install(|| match job.only {
        None => (0..plan.len()).into_par_iter().map(solve).reduce(zero, sum),
        Some(only) => only.par_iter().map(|&i| solve(i)).reduce(zero, sum),
    });
    bar.finish();
    Outcome { tally, busy_seconds: busy.as_secs_f64(), solved, stopped: solved < total }
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
    fn subsets_callbacks_and_stops() {
        use std::sync::Mutex;
        let plan = MirrorPlan::new(10, 3).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let all: Vec<Tally> = (0..plan.len()).map(|i| plan.solve(i, false)).collect();
        // A subset: the callback hears each index once, and the sum is theirs alone.
        let only: Vec<usize> = (0..plan.len()).filter(|i| i % 3 != 1).collect();
        let heard = Mutex::new(Vec::new());
        let on_solved = |i: usize, t: &Tally| heard.lock().unwrap().push((i, *t));
        let job = Job { only: Some(&only), on_solved: Some(&on_solved), stop: None };
        let out = run_with(&plan, &pool, Progress::Never, false, job);
        let want = only.iter().fold(Tally::default(), |t, &i| t + all[i]);
        assert_eq!((out.tally, out.solved, out.stopped), (want, only.len(), false));
        let mut heard = heard.into_inner().unwrap();
        heard.sort_by_key(|h| h.0);
        assert_eq!(heard, only.iter().map(|&i| (i, all[i])).collect::<Vec<_>>());
        // The rest adds up to Q(10) = 724 with the subset.
        let rest: Vec<usize> = (0..plan.len()).filter(|i| i % 3 == 1).collect();
        let job = Job { only: Some(&rest), ..Job::default() };
        assert_eq!(run_with(&plan, &pool, Progress::Never, false, job).tally.solutions + want.solutions, 724);
        // A stop flag set before the start: nothing runs.
        let stop = AtomicBool::new(true);
        let job = Job { stop: Some(&stop), ..Job::default() };
        let out = run_with(&plan, &pool, Progress::Never, false, job);
        assert_eq!((out.solved, out.stopped, out.tally), (0, true, Tally::default()));
        // A stop set by the callback after 5 subproblems: the run stops early, and what it
        // returns is exactly the sum of what it reported.
        let count = std::sync::atomic::AtomicUsize::new(0);
        let sum = Mutex::new(Tally::default());
        let stop = AtomicBool::new(false);
        let on_solved = |_: usize, t: &Tally| {
            *sum.lock().unwrap() += *t;
            if count.fetch_add(1, Ordering::Relaxed) + 1 == 5 {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let job = Job { only: None, on_solved: Some(&on_solved), stop: Some(&stop) };
        let out = run_with(&plan, &pool, Progress::Never, false, job);
        assert!(out.stopped && out.solved >= 5 && out.solved < plan.len(), "{out:?}");
        assert_eq!(out.tally, *sum.lock().unwrap());
    }

    #[test]
    fn progress_modes_parse() {
        assert_eq!("auto".parse(), Ok(Progress::Auto));
        assert_eq!("always".parse(), Ok(Progress::Always));
        assert_eq!("never".parse(), Ok(Progress::Never));
        assert!("sometimes".parse::<Progress>().unwrap_err().contains("auto, always or never"));
    }
}

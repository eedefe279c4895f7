//! The progress bar of `nqueens count` on stderr, drawn with indicatif from what the library's
//! runner reports ([`nqueens::Observer`]): the library itself draws nothing.
//!
//! The bar shows the work done weighted by each subproblem's estimated cost
//! ([`nqueens::Plan::weight`]), with the steps of running subproblems counted as they end, so it
//! moves within about a second at any n; the ETA is the time so far scaled by the work left
//! over the work done. While the plan is built (minutes for the join's table from n = 26) it
//! shows a spinner. A run estimated at a minute or more says its estimate once, on one stderr
//! line, about [`ESTIMATE_AFTER`] into it (also when the bar is not drawn, except with
//! `--progress never`).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::parallel::Run;
use nqueens::{Observer, Progress};

pub use crate::term::When;
use crate::term::warn;

impl When {
    /// Returns what the library's runner reports to: nobody for [`When::Never`], else a
    /// [`Tracker`] that draws the bar.
    pub fn progress(self) -> Progress {
        match self {
            When::Never => Progress::Never,
            mode => Progress::To(Tracker::new(mode)),
        }
    }

    /// Returns a [`Tracker`] in this mode: one that draws for [`When::Auto`] and
    /// [`When::Always`], and for [`When::Never`] one that only keeps track (for what a stop
    /// waits for).
    pub fn tracker(self) -> Arc<Tracker> {
        Tracker::new(self)
    }
}

/// How long a run lasts before [`When::Auto`] shows its bar (building the plan included).
pub const SHOW_AFTER: Duration = Duration::from_millis(800);

/// How long a run's subproblems have run when the tracker estimates the whole run (once, at the
/// first tick after this with some work done).
pub const ESTIMATE_AFTER: Duration = Duration::from_secs(2);

/// Runs estimated to take at least this many seconds say their estimate on stderr at start.
pub const SAY_ESTIMATE_FROM: f64 = 60.0;

/// How often the bar is redrawn (and the estimate looked at): the bar moves even while no
/// subproblem ends.
const TICK: Duration = Duration::from_millis(200);

/// Positions of the drawn bar: its resolution.
const BAR_LENGTH: u64 = 1_000_000;

/// Where a board's count is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Phase {
    /// No board yet.
    Idle,
    /// Building the plan.
    Planning,
    /// The plan is built; the run has not begun ([`Observer::planned`]).
    Built,
    /// Subproblems are running.
    Running,
    /// The run has ended (complete or stopped): what is left is writing it down.
    Done,
    /// A stop came while the plan was being built: the process is ending.
    Exiting,
}

/// What a graceful stop requested now would wait for ([`Tracker::stop_state_at`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopState {
    /// The plan is not built yet: nothing to save, the command may end at once.
    Planning,
    /// The run goes on until this happens (in words: "the 2 running subproblems to reach
    /// their next step (within about a second)").
    Waiting(String),
    /// The run has ended; its results are being written.
    Finishing,
}

/// The observer of the runner, one per command: for each board the phase, the work done and
/// the bar (hidden until it is worth showing), redrawn by a ticker thread every [`TICK`] from
/// atomics that the workers' calls update (they never draw nor wait for a lock).
pub struct Tracker {
    mode: When,
    me: Weak<Tracker>,
    phase: AtomicU8,
    n: AtomicU32,
    /// Since when the phase has lasted (planning, then running).
    since: Mutex<Instant>,
    /// The run's [`Run`], once it began.
    run: Mutex<Option<Run>>,
    /// Work done, an `f64` as bits.
    done: AtomicU64,
    solved: AtomicU64,
    bar: Mutex<Option<ProgressBar>>,
    shown: AtomicBool,
    /// The phase whose style the bar has, as a number (`u8::MAX`: none yet).
    styled: AtomicU8,
    /// Ticks since the board began: plain lines are written on every fifth (once a second),
    /// a terminal's bar is redrawn on each.
    ticks: AtomicU32,
    /// Whether the bar is written as plain lines (stderr is not a terminal, `--progress
    /// always`): `n=20 41.2% 1685/4922 00:01:05 ETA 00:01:33`.
    plain: AtomicBool,
    estimated: AtomicBool,
    ticking: AtomicBool,
}

impl Tracker {
    fn new(mode: When) -> Arc<Tracker> {
        Arc::new_cyclic(|me| Tracker {
            mode,
            me: me.clone(),
            phase: AtomicU8::new(Phase::Idle as u8),
            n: AtomicU32::new(0),
            since: Mutex::new(Instant::now()),
            run: Mutex::new(None),
            done: AtomicU64::new(0),
            solved: AtomicU64::new(0),
            bar: Mutex::new(None),
            shown: AtomicBool::new(false),
            styled: AtomicU8::new(u8::MAX),
            ticks: AtomicU32::new(0),
            plain: AtomicBool::new(false),
            estimated: AtomicBool::new(false),
            ticking: AtomicBool::new(false),
        })
    }

    fn phase(&self) -> Phase {
        Tracker::phase_of(self.phase_now())
    }

    /// Returns the phase as a number: one atomic load, so a signal handler may call it
    /// (async-signal-safe); [`Tracker::stop_state_at`] reads it.
    pub fn phase_now(&self) -> u8 {
        self.phase.load(Ordering::SeqCst)
    }

    fn phase_of(phase: u8) -> Phase {
        match phase {
            1 => Phase::Planning,
            2 => Phase::Built,
            3 => Phase::Running,
            4 => Phase::Done,
            5 => Phase::Exiting,
            _ => Phase::Idle,
        }
    }

    /// Marks the plan as built: from now on a stop has something to wait for (the journal is
    /// opened next), and [`Tracker::stop_state_at`] says what.
    ///
    /// If a stop has already ended the planning ([`Tracker::end_planning`]), this never
    /// returns: the process is exiting.
    fn plan_built(&self) {
        let built = self.phase.compare_exchange(
            Phase::Planning as u8,
            Phase::Built as u8,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        while built == Err(Phase::Exiting as u8) {
            std::thread::park();
        }
    }

    /// Returns true if and only if the plan was still being built (or not begun), and marks
    /// the process as ending: from then on [`Observer::planned`] never returns, so nothing is
    /// opened or written after a stop that ends the command at once.
    pub fn end_planning(&self) -> bool {
        [Phase::Idle, Phase::Planning].into_iter().any(|from| {
            self.phase
                .compare_exchange(from as u8, Phase::Exiting as u8, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    /// Returns what a graceful stop requested now waits for (see [`StopState`]).
    #[cfg(test)]
    fn stop_state(&self) -> StopState {
        self.stop_state_at(self.phase_now())
    }

    /// Returns what a graceful stop requested in `phase` (of [`Tracker::phase_now`], such as
    /// a signal handler saw it) waits for, with the run's numbers as they are now.
    pub fn stop_state_at(&self, phase: u8) -> StopState {
        let running = match Tracker::phase_of(phase) {
            Phase::Idle | Phase::Planning => return StopState::Planning,
            Phase::Done | Phase::Exiting => return StopState::Finishing,
            Phase::Built => return StopState::Waiting("the set-up to end (no subproblem will start)".into()),
            Phase::Running => *lock(&self.run),
        };
        let Some(run) = running else { return StopState::Finishing };
        let solved = self.solved.load(Ordering::Relaxed);
        let running = (run.subproblems.saturating_sub(solved)).min(run.threads as u64);
        let which = if running == 1 {
            "the running subproblem".to_string()
        } else {
            format!("the {running} running subproblems")
        };
        if run.devices > 0 {
            // A device's launch ends within about a second; what it had not finished is
            // counted again on resume, as a CPU thread's unfinished subproblem is.
            let cpu = if run.threads > run.devices {
                " and the CPU threads' subproblems to reach their next step"
            } else {
                ""
            };
            return StopState::Waiting(format!("the devices' launches to end{cpu} (within about a second)"));
        }
        if run.stops_midway {
            let their = if running == 1 { "its" } else { "their" };
            // A join unit of n = 28–29 (the join's largest boards) spends 5–40 s on its setup
            // before its first step.
            let within = if (28..=29).contains(&run.n) {
                "within about a second; a join unit spends up to a minute on its setup first"
            } else {
                "within about a second"
            };
            return StopState::Waiting(format!("{which} to reach {their} next step ({within})"));
        }
        let elapsed = lock(&self.since).elapsed().as_secs_f64();
        StopState::Waiting(match solved {
            0 => format!("{which} to finish (none has finished in the {} so far)", human(elapsed)),
            _ => {
                let each = elapsed * run.threads as f64 / solved as f64;
                if each < 1.0 {
                    format!("{which} to finish (under a second each, on average so far)")
                } else {
                    format!("{which} to finish (about {} each, on average so far)", human(each))
                }
            }
        })
    }

    /// Begins a board: a fresh bar in the given phase, and the ticker if this mode draws.
    fn begin(&self, n: u32, phase: Phase) {
        self.n.store(n, Ordering::SeqCst);
        *lock(&self.since) = Instant::now();
        self.done.store(0f64.to_bits(), Ordering::SeqCst);
        self.solved.store(0, Ordering::SeqCst);
        self.estimated.store(false, Ordering::SeqCst);
        self.ticks.store(0, Ordering::SeqCst);
        self.phase.store(phase as u8, Ordering::SeqCst);
        if self.mode == When::Never {
            return;
        }
        let mut bar = lock(&self.bar);
        if bar.is_none() {
            let new = ProgressBar::with_draw_target(Some(BAR_LENGTH), ProgressDrawTarget::hidden());
            new.set_prefix(n.to_string());
            *bar = Some(new);
            self.shown.store(false, Ordering::SeqCst);
            self.styled.store(u8::MAX, Ordering::SeqCst);
        }
        drop(bar);
        if !self.ticking.swap(true, Ordering::SeqCst) {
            let me = self.me.clone();
            // The ticker ends with the tracker (the process, in the binary).
            let _ = std::thread::Builder::new().name("progress".into()).spawn(move || {
                while let Some(tracker) = {
                    std::thread::sleep(TICK);
                    me.upgrade()
                } {
                    tracker.tick();
                }
            });
        }
        self.tick();
    }

    /// Redraws the bar, shows it once it is worth showing, and says the estimate once.
    fn tick(&self) {
        let bar = lock(&self.bar);
        let Some(bar) = bar.as_ref() else { return };
        let phase = self.phase();
        let elapsed = lock(&self.since).elapsed();
        if !self.shown.load(Ordering::SeqCst) {
            let show = match self.mode {
                When::Always => true,
                When::Auto => std::io::stderr().is_terminal() && elapsed >= SHOW_AFTER,
                When::Never => false,
            };
            if show {
                self.shown.store(true, Ordering::SeqCst);
                if std::io::stderr().is_terminal() {
                    ON_TERMINAL.store(true, Ordering::SeqCst);
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                } else {
                    // A log, not a terminal: one plain line a second, written here.
                    self.plain.store(true, Ordering::SeqCst);
                }
            }
        }
        let tick = self.ticks.fetch_add(1, Ordering::SeqCst);
        let redraw = !self.plain.load(Ordering::SeqCst) || tick.is_multiple_of(5);
        if self.styled.swap(phase as u8, Ordering::SeqCst) != phase as u8 {
            bar.set_style(if phase == Phase::Running { style() } else { planning_style() });
        }
        let plain = self.plain.load(Ordering::SeqCst);
        let n = self.n.load(Ordering::SeqCst);
        let draw = |message: String| {
            if plain {
                warn(format_args!("n={n} {message}"));
            } else {
                bar.set_message(message);
            }
        };
        match phase {
            Phase::Idle | Phase::Done | Phase::Exiting => {}
            Phase::Planning | Phase::Built if redraw => {
                draw(format!("building the plan {}", clock(elapsed.as_secs_f64())));
                bar.tick();
            }
            Phase::Planning | Phase::Built => {}
            Phase::Running => {
                let Some(run) = *lock(&self.run) else { return };
                let fraction = self.fraction(&run);
                let solved = self.solved.load(Ordering::Relaxed);
                if redraw {
                    bar.set_position((fraction * BAR_LENGTH as f64) as u64);
                    draw(line(fraction, solved, run.subproblems, elapsed.as_secs_f64()));
                }
                if elapsed >= ESTIMATE_AFTER && fraction > 0.0 && !self.estimated.swap(true, Ordering::SeqCst)
                {
                    self.say_estimate(bar, &run, elapsed.as_secs_f64() / fraction, elapsed.as_secs_f64());
                }
            }
        }
    }

    /// Says the run's estimated `total` seconds on one stderr line (after `elapsed` seconds of
    /// it) if it is at least [`SAY_ESTIMATE_FROM`].
    fn say_estimate(&self, bar: &ProgressBar, run: &Run, total: f64, elapsed: f64) {
        if total < SAY_ESTIMATE_FROM {
            return;
        }
        let plural = |k: usize, what: &str| if k == 1 { format!("1 {what}") } else { format!("{k} {what}s") };
        let cpu = run.threads - run.devices.min(run.threads);
        let threads = match (run.devices, cpu) {
            (0, t) => plural(t, "thread"),
            (d, 0) => plural(d, "device"),
            (d, t) => format!("{} and {}", plural(d, "device"), plural(t, "CPU thread")),
        };
        bar.suspend(|| {
            warn(format_args!(
                "nqueens: n = {} will take about {} on {threads} (estimated from its first {})",
                run.n,
                human(total),
                human(elapsed)
            ))
        });
    }

    /// Returns the fraction of `run`'s work done, in [0, 1].
    fn fraction(&self, run: &Run) -> f64 {
        let done = f64::from_bits(self.done.load(Ordering::Relaxed));
        if run.work > 0.0 {
            (done / run.work).clamp(0.0, 1.0)
        } else {
            self.solved.load(Ordering::Relaxed) as f64 / run.subproblems.max(1) as f64
        }
    }

    fn add(&self, work: f64) {
        let mut old = self.done.load(Ordering::Relaxed);
        loop {
            let new = (f64::from_bits(old) + work).to_bits();
            match self.done.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return,
                Err(now) => old = now,
            }
        }
    }
}

impl Observer for Tracker {
    fn planning(&self, n: u32) {
        *lock(&self.run) = None;
        self.begin(n, Phase::Planning);
    }

    fn planned(&self) {
        self.plan_built();
    }

    fn start(&self, run: &Run) {
        *lock(&self.run) = Some(*run);
        self.begin(run.n, Phase::Running);
    }

    fn advance(&self, work: f64) {
        self.add(work);
    }

    fn solved(&self, work: f64) {
        self.add(work);
        self.solved.fetch_add(1, Ordering::Relaxed);
    }

    fn finish(&self) {
        self.phase.store(Phase::Done as u8, Ordering::SeqCst);
        if let Some(bar) = lock(&self.bar).take()
            && !bar.is_hidden()
        {
            bar.finish_and_clear();
        }
        ON_TERMINAL.store(false, Ordering::SeqCst);
    }
}

/// Locks `m`, also after a panic elsewhere (the state stays usable: it is only drawn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The bar's line: the bar takes what the terminal's width leaves, so that the line fits a
/// 60-column terminal (about 45 columns of text for n = 27 and 123,456 subproblems).
const TEMPLATE: &str = "n={prefix} {wide_bar} {msg}";

fn style() -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE).expect("the template is valid")
}

fn planning_style() -> ProgressStyle {
    ProgressStyle::with_template("n={prefix} {spinner} {msg}").expect("the template is valid")
}

/// Returns the text after the bar: the work done (by estimated cost), the subproblems solved,
/// the time so far and the time left at the rate so far. The time so far is cut to whole
/// seconds, the time left rounded to the nearest: cut, it read half a second short on
/// average, rounded up half a second long, and in a run's last ten seconds either alone was
/// 10–60% off (results/2026-12-01-eta/).
fn line(fraction: f64, solved: u64, subproblems: u64, elapsed: f64) -> String {
    let eta =
        if fraction > 0.0 { clock((elapsed * (1.0 - fraction) / fraction).round()) } else { "?".to_string() };
    format!("{} {solved}/{subproblems} {} ETA {eta}", percent(fraction), clock(elapsed))
}

/// Returns `fraction` as a percentage with the digits that move: "41.2%", "0.123%", "2.1e-9%".
fn percent(fraction: f64) -> String {
    let p = 100.0 * fraction;
    if p >= 1.0 || p == 0.0 {
        format!("{p:.1}%")
    } else if p >= 0.001 {
        format!("{p:.3}%")
    } else {
        format!("{p:.1e}%")
    }
}

/// Returns `seconds` as the bar shows time: HH:MM:SS up to 100 hours, then days, then years
/// ("12.5 d", "3.1 y", "2.4e52 y").
fn clock(seconds: f64) -> String {
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    if !seconds.is_finite() {
        return "?".into();
    }
    let s = seconds.max(0.0);
    if s < 100.0 * 3600.0 {
        let t = s as u64;
        format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
    } else if s < 1000.0 * DAY {
        format!("{:.1} d", s / DAY)
    } else if s < 1e4 * YEAR {
        format!("{:.1} y", s / YEAR)
    } else {
        format!("{:.1e} y", s / YEAR)
    }
}

/// Returns `seconds` in words for a message: "45 s", "3 min 20 s", "2 h 05 min", "12 days",
/// "3.1 years", "2.4e52 years".
fn human(seconds: f64) -> String {
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    let s = seconds.max(0.0);
    if !s.is_finite() {
        "an unknown time".into()
    } else if s < 60.0 {
        format!("{:.0} s", s.max(1.0))
    } else if s < 3600.0 {
        let t = s.round() as u64;
        format!("{} min {:02} s", t / 60, t % 60)
    } else if s < 2.0 * DAY {
        let t = (s / 60.0).round() as u64;
        format!("{} h {:02} min", t / 60, t % 60)
    } else if s < YEAR {
        format!("{:.0} days", s / DAY)
    } else if s < 1e4 * YEAR {
        format!("{:.1} years", s / YEAR)
    } else {
        format!("{:.1e} years", s / YEAR)
    }
}

/// Whether a bar is drawn on a terminal now: what [`clear_in_signal_handler`] reads.
static ON_TERMINAL: AtomicBool = AtomicBool::new(false);

/// Erases the bar's line from the terminal, if a bar is drawn there: for a signal handler that
/// ends the process at once (Ctrl-C without a checkpoint). Only an atomic load and `write(2)`,
/// both async-signal-safe.
pub fn clear_in_signal_handler() {
    if ON_TERMINAL.load(Ordering::SeqCst) {
        const CLEAR: &[u8] = b"\r\x1b[2K";
        crate::sys::write_stderr(CLEAR);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::TermLike;

    #[test]
    fn progress_modes_parse() {
        assert_eq!("auto".parse(), Ok(When::Auto));
        assert_eq!("always".parse(), Ok(When::Always));
        assert_eq!("never".parse(), Ok(When::Never));
        assert!("sometimes".parse::<When>().unwrap_err().contains("auto, always or never"));
    }

    /// A terminal of a given width that keeps what is drawn on it.
    #[derive(Debug)]
    struct Screen {
        width: u16,
        lines: std::sync::Mutex<Vec<String>>,
    }

    /// What the bar draws to: a handle on a [`Screen`] the test keeps too.
    #[derive(Debug)]
    struct Shared(Arc<Screen>);

    impl TermLike for Shared {
        fn width(&self) -> u16 {
            self.0.width
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
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.is_empty() {
                self.0.lines.lock().unwrap().push(s.to_string());
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Issue 14: the bar wrapped onto two lines in a 60-column terminal; the longest texts
    /// (a large plan, a tiny fraction done, an ETA in years) fit too.
    #[test]
    fn the_bar_fits_a_60_column_terminal() {
        let cases = [
            (20, 4_922, 1_685, 0.342, 65.0),
            (27, 123_456, 98_765, 0.8, 360_000.0),
            (8, 7, 0, 0.0, 0.0),
            (63, 2_097_152, 0, 2.5e-40, 5.0),
            (30, 1_234_567, 12, 3e-9, 7.5),
        ];
        for (n, len, solved, fraction, elapsed) in cases {
            let screen = Arc::new(Screen { width: 60, lines: Default::default() });
            let target = ProgressDrawTarget::term_like(Box::new(Shared(Arc::clone(&screen))));
            let bar = ProgressBar::with_draw_target(Some(BAR_LENGTH), target);
            bar.set_style(style());
            bar.set_prefix(n.to_string());
            bar.set_position((fraction * BAR_LENGTH as f64) as u64);
            bar.set_message(line(fraction, solved, len, elapsed));
            bar.abandon();
            let lines = screen.lines.lock().unwrap();
            let last = lines.last().expect("the bar was drawn");
            assert!(
                last.starts_with(&format!("n={n} ")) && last.contains(&format!(" {solved}/{len} ")),
                "{last}"
            );
            assert!(last.contains(" ETA "), "{last}");
            for line in lines.iter() {
                assert!(line.chars().count() <= 60, "{} columns: {line}", line.chars().count());
            }
        }
    }

    #[test]
    fn times_and_fractions_read_as_the_bar_and_the_messages_write_them() {
        assert_eq!(line(0.25, 10, 40, 30.0), "25.0% 10/40 00:00:30 ETA 00:01:30");
        assert_eq!(line(0.0, 0, 40, 3.0), "0.0% 0/40 00:00:03 ETA ?");
        // 3.9 s so far, 2.6 s left at this rate (2.4 s at 62%): the time left is rounded.
        assert_eq!(line(0.6, 6, 10, 3.9), "60.0% 6/10 00:00:03 ETA 00:00:03");
        assert_eq!(line(0.62, 6, 10, 3.9), "62.0% 6/10 00:00:03 ETA 00:00:02");
        assert_eq!(
            (percent(0.00123), percent(2.1e-11), percent(1.0)),
            ("0.123%".into(), "2.1e-9%".into(), "100.0%".into())
        );
        assert_eq!(clock(3725.0), "01:02:05");
        assert_eq!(clock(200.0 * 3600.0), "8.3 d");
        assert_eq!(clock(3.0 * 365.25 * 86_400.0), "3.0 y");
        assert_eq!(clock(2.4e60), "7.6e52 y");
        assert_eq!(
            (human(0.2), human(45.4), human(200.0)),
            ("1 s".into(), "45 s".into(), "3 min 20 s".into())
        );
        assert_eq!((human(7500.0), human(10.0 * 86_400.0)), ("2 h 05 min".into(), "10 days".into()));
        assert_eq!(human(2.4e60), "7.6e52 years");
    }

    /// What a stop waits for, from the tracker's state: nothing while the plan is built, the
    /// next step where the plan stops midway, whole subproblems otherwise.
    #[test]
    fn a_stop_says_what_it_waits_for() {
        let tracker = When::Never.tracker();
        assert_eq!(tracker.stop_state(), StopState::Planning);
        tracker.planning(30);
        assert_eq!(tracker.stop_state(), StopState::Planning);
        tracker.planned();
        let waiting = |t: &Tracker| match t.stop_state() {
            StopState::Waiting(what) => what,
            other => panic!("{other:?}"),
        };
        assert_eq!(waiting(&tracker), "the set-up to end (no subproblem will start)");
        let run = Run { n: 30, subproblems: 10, work: 20.0, threads: 2, devices: 0, stops_midway: true };
        tracker.start(&run);
        assert_eq!(
            waiting(&tracker),
            "the 2 running subproblems to reach their next step (within about a second)"
        );
        // At n = 28–29 a join unit's setup comes before its first step.
        tracker.start(&Run { n: 28, ..run });
        assert_eq!(
            waiting(&tracker),
            "the 2 running subproblems to reach their next step (within about a second; a join unit spends up to a minute on its setup first)"
        );
        tracker.start(&Run { stops_midway: false, ..run });
        assert!(
            waiting(&tracker).starts_with("the 2 running subproblems to finish (none has finished in the ")
        );
        tracker.advance(1.0);
        for _ in 0..9 {
            tracker.solved(1.0);
        }
        // Nine solved at once: not "about 1 s each" (a newcomer saw that of 0.2 ms subproblems).
        assert_eq!(
            waiting(&tracker),
            "the running subproblem to finish (under a second each, on average so far)"
        );
        assert_eq!(tracker.fraction(&run), 0.5);
        // The state a signal saw is told as it was, with the numbers of now.
        let seen = tracker.phase_now();
        tracker.finish();
        assert_eq!(tracker.stop_state(), StopState::Finishing);
        assert!(matches!(tracker.stop_state_at(seen), StopState::Waiting(_)));
        // A stop while planning ends it: the plan is never reported built.
        let tracker = When::Never.tracker();
        tracker.planning(30);
        assert!(tracker.end_planning());
        assert_eq!(tracker.stop_state(), StopState::Finishing);
        let tracker = When::Never.tracker();
        tracker.planning(30);
        tracker.planned();
        assert!(!tracker.end_planning());
    }
}

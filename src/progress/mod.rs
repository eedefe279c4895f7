//! The progress bar of `nqueens count` on stderr, drawn with indicatif from what the library's
//! runner reports ([`nqueens::Observer`]): the library itself draws nothing.
//!
//! The bar shows the work done weighted by each subproblem's estimated cost
//! ([`nqueens::plan::Plan::weight`]), with the steps of running subproblems counted as they end, so it
//! moves within about a second at any n; the ETA is the time so far scaled by the work left
//! over the work done, shown once that work is a basis ([`estimable`]: [`BASIS_SOLVED`]
//! subproblems a thread, or [`BASIS_FRACTION`] of the work), "?" before. While the plan is
//! built (minutes for the join's table from n = 26) it shows a spinner. A run estimated at a
//! minute or more says its estimate on one stderr line, about [`ESTIMATE_AFTER`] into it (also
//! when the bar is not drawn, except with `--progress never`): as a first guess where its work
//! done is no basis yet, and then once more when it is. (`count 28` on 2 threads said "about
//! 298 years" from the first parts of two units 13 s in, and its bar 180–220 years for two
//! minutes, against 37 years from `nqueens plan 28`'s sample: one unit of n = 28 takes 10 s to
//! 13 minutes.) Off a terminal (a log) the bar is plain lines of its text: once a
//! minute from the first minute with `auto` ([`LOG_EVERY`]), once a second with `always`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget};
use nqueens::Run;
use nqueens::{Observer, Progress};

mod phase;
mod text;

pub use crate::term::When;
use crate::term::warn;
use phase::Phase;
pub use phase::StopState;
use text::{clock, human, line, planning_style, style};

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

/// How long a run lasts before [`When::Auto`] writes its first plain line to a log (stderr not
/// a terminal), and how often it writes one from then on: a long run's log gets a line a
/// minute, a short run's none (issue 40: the README promised lines off a terminal, the binary
/// wrote none without `--progress always`, which writes one a second).
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// The subproblems solved a thread from which the time so far stands for the rest of a run
/// ([`estimable`]).
pub const BASIS_SOLVED: u64 = 8;

/// The share of a run's work done from which the time so far stands for the rest of it
/// ([`estimable`]), whatever was solved.
pub const BASIS_FRACTION: f64 = 0.02;

/// Returns true if and only if the work done (`fraction`, `solved` subproblems on `threads`)
/// is a basis for the time left: [`BASIS_SOLVED`] subproblems a thread, or [`BASIS_FRACTION`]
/// of the work (a run of fewer, long subproblems).
pub fn estimable(fraction: f64, solved: u64, threads: usize) -> bool {
    solved_enough(solved, threads) || fraction >= BASIS_FRACTION
}

/// Returns true if and only if `solved` subproblems on `threads` are [`BASIS_SOLVED`] a thread.
fn solved_enough(solved: u64, threads: usize) -> bool {
    solved >= BASIS_SOLVED.saturating_mul(threads.max(1) as u64)
}

/// Returns "1 `what`" or "`k` `what`s".
fn plural(k: usize, what: &str) -> String {
    if k == 1 { format!("1 {what}") } else { format!("{k} {what}s") }
}

/// Runs estimated to take at least this many seconds say their estimate on stderr at start.
pub const SAY_ESTIMATE_FROM: f64 = 60.0;

/// How often the bar is redrawn (and the estimate looked at): the bar moves even while no
/// subproblem ends.
const TICK: Duration = Duration::from_millis(200);

/// Positions of the drawn bar: its resolution.
const BAR_LENGTH: u64 = 1_000_000;

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
    /// The milliseconds since the board began at which the next plain line is due: once a
    /// second with `--progress always`, every [`LOG_EVERY`] with `auto`, the first as soon as
    /// the bar shows (counted in ticks, the first line of a log came at 2 minutes, not 1, where
    /// ticks ran ahead of the clock); a terminal's bar is redrawn on each tick.
    next_plain_ms: AtomicU64,
    /// Whether the bar is written as plain lines (stderr is not a terminal, `--progress
    /// always`): `n=20 41.2% 1685/4922 00:01:05 ETA 00:01:33`.
    plain: AtomicBool,
    /// Whether the estimate was said as a first guess (no basis yet), and as an estimate.
    guessed: AtomicBool,
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
            next_plain_ms: AtomicU64::new(0),
            plain: AtomicBool::new(false),
            guessed: AtomicBool::new(false),
            estimated: AtomicBool::new(false),
            ticking: AtomicBool::new(false),
        })
    }

    /// Begins a board: a fresh bar in the given phase, and the ticker if this mode draws.
    fn begin(&self, n: u32, phase: Phase) {
        self.n.store(n, Ordering::SeqCst);
        *lock(&self.since) = Instant::now();
        self.done.store(0f64.to_bits(), Ordering::SeqCst);
        self.solved.store(0, Ordering::SeqCst);
        self.guessed.store(false, Ordering::SeqCst);
        self.estimated.store(false, Ordering::SeqCst);
        self.next_plain_ms.store(0, Ordering::SeqCst);
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
            let show = shows(self.mode, std::io::stderr().is_terminal(), elapsed);
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
        // Plain lines: once a second (`always`), or once every LOG_EVERY (`auto`, a log), by the
        // clock.
        let every_ms = u64::from(plain_every(self.mode)) * TICK.as_millis() as u64;
        let redraw = !self.plain.load(Ordering::SeqCst) || {
            let now = elapsed.as_millis() as u64;
            let due = self.next_plain_ms.load(Ordering::SeqCst);
            now >= due && {
                self.next_plain_ms.store(now + every_ms, Ordering::SeqCst);
                true
            }
        };
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
                let basis = estimable(fraction, solved, run.threads);
                if redraw {
                    bar.set_position((fraction * BAR_LENGTH as f64) as u64);
                    let shown = if basis { fraction } else { 0.0 };
                    draw(line(fraction, shown, solved, run.subproblems, elapsed.as_secs_f64()));
                }
                // A first guess once (without a basis), the estimate once (with one).
                let said = if basis { &self.estimated } else { &self.guessed };
                if elapsed >= ESTIMATE_AFTER
                    && fraction > 0.0
                    && !self.estimated.load(Ordering::SeqCst)
                    && !said.swap(true, Ordering::SeqCst)
                {
                    let elapsed = elapsed.as_secs_f64();
                    let done = basis.then(|| {
                        if solved_enough(solved, run.threads) {
                            plural(solved as usize, "subproblem")
                        } else {
                            format!("{} of its work", text::percent(fraction))
                        }
                    });
                    self.say_estimate(bar, &run, elapsed / fraction, elapsed, done);
                }
            }
        }
    }

    /// Says the run's estimated `total` seconds on one stderr line (after `elapsed` seconds of
    /// it and the work `done`, in words, where that is a basis; else as a first guess) if it is
    /// at least [`SAY_ESTIMATE_FROM`].
    fn say_estimate(&self, bar: &ProgressBar, run: &Run, total: f64, elapsed: f64, done: Option<String>) {
        if total < SAY_ESTIMATE_FROM {
            return;
        }
        let cpu = run.threads - run.devices.min(run.threads);
        let threads = match (run.devices, cpu) {
            (0, t) => plural(t, "thread"),
            (d, 0) => plural(d, "device"),
            (d, t) => format!("{} and {}", plural(d, "device"), plural(t, "CPU thread")),
        };
        let basis = match done {
            Some(done) => format!("estimated from its first {} and {done}", human(elapsed)),
            None => format!(
                "a first guess from its first {}, before {} subproblems a thread finished: `nqueens plan {}` estimates it with an interval",
                human(elapsed),
                BASIS_SOLVED,
                run.n
            ),
        };
        bar.suspend(|| {
            warn(format_args!(
                "nqueens: n = {} will take about {} on {threads} ({basis})",
                run.n,
                human(total)
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

/// Returns true if and only if a bar in `mode` is shown once its phase has lasted `elapsed`, on
/// a `terminal` or in a log: `always` at once; `auto` after [`SHOW_AFTER`] on a terminal, after
/// [`LOG_EVERY`] in a log; `never` not at all.
fn shows(mode: When, terminal: bool, elapsed: Duration) -> bool {
    match mode {
        When::Always => true,
        When::Auto if terminal => elapsed >= SHOW_AFTER,
        When::Auto => elapsed >= LOG_EVERY,
        When::Never => false,
    }
}

/// Returns every how many ticks a bar in `mode` writes a plain line to a log: 5 (a second) for
/// `always`, [`LOG_EVERY`] for `auto`.
fn plain_every(mode: When) -> u32 {
    match mode {
        When::Always => 5,
        _ => (LOG_EVERY.as_millis() / TICK.as_millis()) as u32,
    }
}

/// Locks `m`, also after a panic elsewhere (the state stays usable: it is only drawn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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
mod tests;

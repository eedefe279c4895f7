//! The progress bar of `nqueens count` on stderr, drawn with indicatif from what the library's
//! runner reports ([`nqueens::Observer`]): the library itself draws nothing.

use std::io::{IsTerminal, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use nqueens::{Observer, Progress};

/// When to draw the progress bar on stderr (`--progress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum When {
    /// When stderr is a terminal and the run has lasted [`SHOW_AFTER`]: short runs stay quiet.
    #[default]
    Auto,
    /// From the start, also when stderr is not a terminal (then one plain line per second).
    Always,
    /// Never.
    Never,
}

impl FromStr for When {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(When::Auto),
            "always" => Ok(When::Always),
            "never" => Ok(When::Never),
            _ => Err(format!("unknown progress mode '{s}': use auto, always or never")),
        }
    }
}

impl When {
    /// Returns what the library's runner reports to: nobody for [`When::Never`], else a bar.
    pub fn progress(self) -> Progress {
        match self {
            When::Never => Progress::Never,
            mode => Progress::To(Arc::new(Bars { mode, bar: RwLock::new(None) })),
        }
    }
}

/// How long a run lasts before [`When::Auto`] shows its bar.
pub const SHOW_AFTER: Duration = Duration::from_millis(800);

/// The observer: a new bar for each run (each board size).
struct Bars {
    mode: When,
    bar: RwLock<Option<Bar>>,
}

impl Observer for Bars {
    fn start(&self, n: u32, subproblems: u64) {
        *self.bar.write().unwrap_or_else(|e| e.into_inner()) = Some(Bar::new(subproblems, n, self.mode));
    }

    fn solved(&self) {
        if let Some(bar) = &*self.bar.read().unwrap_or_else(|e| e.into_inner()) {
            bar.tick();
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.write().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish();
        }
    }
}

/// The bar's line: the bar takes what the terminal's width leaves, so that the line fits a
/// 60-column terminal (about 41 columns of text for n = 27 and 123,456 subproblems).
const TEMPLATE: &str = "n={prefix} {wide_bar} {pos}/{len} {elapsed_precise} ETA {eta_precise}";

fn style() -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE).expect("the template is valid")
}

/// Whether a bar is drawn on a terminal now: what [`clear_in_signal_handler`] reads.
static ON_TERMINAL: AtomicBool = AtomicBool::new(false);

/// Erases the bar's line from the terminal, if a bar is drawn there: for a signal handler that
/// ends the process at once (Ctrl-C without a checkpoint). Only an atomic load and `write(2)`,
/// both async-signal-safe.
pub fn clear_in_signal_handler() {
    if ON_TERMINAL.load(Ordering::SeqCst) {
        const CLEAR: &[u8] = b"\r\x1b[2K";
        // SAFETY: writes a static buffer to fd 2; a failed write leaves the line as it is.
        unsafe { libc::write(2, CLEAR.as_ptr().cast(), CLEAR.len()) };
    }
}

/// The progress bar, hidden until it is worth showing.
struct Bar {
    bar: ProgressBar,
    start: Instant,
    shown: AtomicBool,
}

impl Bar {
    fn new(len: u64, n: u32, mode: When) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        bar.set_style(style());
        bar.set_prefix(n.to_string());
        let stderr_is_terminal = std::io::stderr().is_terminal();
        let shown = match mode {
            When::Never => true,
            When::Auto => !stderr_is_terminal,
            When::Always => false,
        };
        let bar = Bar { bar, start: Instant::now(), shown: AtomicBool::new(shown) };
        if mode == When::Always {
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
            ON_TERMINAL.store(true, Ordering::SeqCst);
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
        ON_TERMINAL.store(false, Ordering::SeqCst);
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

    /// Issue 14: the bar wrapped onto two lines in a 60-column terminal.
    #[test]
    fn the_bar_fits_a_60_column_terminal() {
        for (n, len, pos) in [(20, 4_922, 1_685), (27, 123_456, 98_765), (8, 7, 0)] {
            let screen = Arc::new(Screen { width: 60, lines: Default::default() });
            let target = ProgressDrawTarget::term_like(Box::new(Shared(Arc::clone(&screen))));
            let bar = ProgressBar::with_draw_target(Some(len), target);
            bar.set_style(style());
            bar.set_prefix(n.to_string());
            bar.set_position(pos);
            bar.abandon();
            let lines = screen.lines.lock().unwrap();
            let last = lines.last().expect("the bar was drawn");
            assert!(
                last.starts_with(&format!("n={n} ")) && last.contains(&format!(" {pos}/{len} ")),
                "{last}"
            );
            assert!(last.contains(" ETA "), "{last}");
            for line in lines.iter() {
                assert!(line.chars().count() <= 60, "{} columns: {line}", line.chars().count());
            }
        }
    }
}

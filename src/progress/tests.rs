use super::*;
use indicatif::TermLike;
use text::percent;

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
        bar.set_message(line(fraction, fraction, solved, len, elapsed));
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
    assert_eq!(line(0.25, 0.25, 10, 40, 30.0), "25.0% 10/40 00:00:30 ETA 00:01:30");
    assert_eq!(line(0.0, 0.0, 0, 40, 3.0), "0.0% 0/40 00:00:03 ETA ?");
    // 3.9 s so far, 2.6 s left at this rate (2.4 s at 62%): the time left is rounded.
    assert_eq!(line(0.6, 0.6, 6, 10, 3.9), "60.0% 6/10 00:00:03 ETA 00:00:03");
    assert_eq!(line(0.62, 0.62, 6, 10, 3.9), "62.0% 6/10 00:00:03 ETA 00:00:02");
    // Work done that is no basis yet: the fraction shown, no ETA.
    assert_eq!(line(2e-8, 0.0, 0, 20_060_016, 139.0), "2.0e-6% 0/20060016 00:02:19 ETA ?");
    // A basis: 8 subproblems a thread, or 2% of the work.
    assert!(
        !estimable(2e-8, 15, 2) && estimable(2e-8, 16, 2) && estimable(0.02, 0, 2) && !estimable(0.019, 7, 1)
    );
    assert_eq!(
        (percent(0.00123), percent(2.1e-11), percent(1.0)),
        ("0.123%".into(), "2.1e-9%".into(), "100.0%".into())
    );
    assert_eq!(clock(3725.0), "01:02:05");
    assert_eq!(clock(200.0 * 3600.0), "8.3 d");
    assert_eq!(clock(3.0 * 365.25 * 86_400.0), "3.0 y");
    assert_eq!(clock(2.4e60), "7.6e52 y");
    assert_eq!((human(0.2), human(45.4), human(200.0)), ("1 s".into(), "45 s".into(), "3 min 20 s".into()));
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
    assert!(waiting(&tracker).starts_with("the 2 running subproblems to finish (none has finished in the "));
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

/// Issue 40: off a terminal `auto` wrote nothing, where the README promised plain lines. A log
/// gets one a minute once the run has lasted a minute; `always` one a second from the start; a
/// terminal's bar shows after SHOW_AFTER.
#[test]
fn a_log_gets_a_line_a_minute_with_auto_and_a_second_with_always() {
    let s = Duration::from_secs;
    assert!(!shows(When::Auto, false, s(59)) && shows(When::Auto, false, s(60)));
    assert!(!shows(When::Auto, true, Duration::from_millis(700)) && shows(When::Auto, true, s(1)));
    assert!(shows(When::Always, false, s(0)) && shows(When::Always, true, s(0)));
    assert!(!shows(When::Never, false, s(3600)) && !shows(When::Never, true, s(3600)));
    assert_eq!(u64::from(plain_every(When::Always)) * TICK.as_millis() as u64, 1000);
    assert_eq!(u64::from(plain_every(When::Auto)) * TICK.as_millis() as u64, 60_000);
}

//! The text the progress bar and its messages show: the bar's styles, the line after the bar,
//! percentages, the clock and durations in words.

use indicatif::ProgressStyle;

/// The bar's line: the bar takes what the terminal's width leaves, so that the line fits a
/// 60-column terminal (about 45 columns of text for n = 27 and 123,456 subproblems).
pub(super) const TEMPLATE: &str = "n={prefix} {wide_bar} {msg}";

pub(super) fn style() -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE).expect("the template is valid")
}

pub(super) fn planning_style() -> ProgressStyle {
    ProgressStyle::with_template("n={prefix} {spinner} {msg}").expect("the template is valid")
}

/// Returns the text after the bar: the work done (`fraction`, by estimated cost), the
/// subproblems solved, the time so far and the time left at the rate of the work done so far
/// (`basis`: the fraction the ETA is taken from, 0 for none: "?"). The time so far is cut to
/// whole seconds, the time left rounded to the nearest: cut, it read half a second short on
/// average, rounded up half a second long, and in a run's last ten seconds either alone was
/// 10–60% off (results/2026-12-01-eta/).
pub(super) fn line(fraction: f64, basis: f64, solved: u64, subproblems: u64, elapsed: f64) -> String {
    let eta = if basis > 0.0 { clock((elapsed * (1.0 - basis) / basis).round()) } else { "?".to_string() };
    format!("{} {solved}/{subproblems} {} ETA {eta}", percent(fraction), clock(elapsed))
}

/// Returns `fraction` as a percentage with the digits that move: "41.2%", "0.123%", "2.1e-9%".
pub(super) fn percent(fraction: f64) -> String {
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
pub(super) fn clock(seconds: f64) -> String {
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
pub(super) fn human(seconds: f64) -> String {
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

//! The terminal, at the bottom of the binary's modules: one line to stderr ([`warn`]) and when to
//! draw on it ([`When`]). The command line (`cli.rs`), the commands, the progress bar and the
//! signal handlers all use them; this module uses none of them.

use std::str::FromStr;

/// Writes one line to standard error, ignoring a failed write: a closed or full stderr must not
/// panic, as `eprintln!` does (`nqueens count 99 2>/dev/full`).
pub fn warn(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// When to draw the progress bar on stderr (`--progress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum When {
    /// When stderr is a terminal and the run has lasted a moment (`progress::SHOW_AFTER`):
    /// short runs stay quiet. Off a terminal (a log), one plain line a minute once the run has
    /// lasted a minute (`progress::LOG_EVERY`).
    #[default]
    Auto,
    /// From the start, also when stderr is not a terminal (then one plain line a second, the
    /// bar's text without the bar).
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

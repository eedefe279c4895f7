//! The command line: clap-derive options (their doc comments are the `--help` text), parsed into
//! plain values before any work starts. The library never sees clap.

use clap::{Args, Parser, Subcommand};

use nqueens::output::Format;
use nqueens::{Algorithm, MAX_N, Progress};

const COUNT_EXAMPLES: &str = "\
Examples:
  nqueens count 16                     Q(16) on every core
  nqueens count 1..18 -j 2             n = 1 to 18 inclusive, on 2 threads
  nqueens count 0..14 --verify --format json
                                       JSON Lines, each count checked against OEIS A000170
  nqueens count 8 10 12 --format bfile OEIS b-file lines `n a(n)`";

/// Counts the solutions of the n-queens problem (OEIS A000170) on every core.
#[derive(Debug, Parser)]
#[command(name = "nqueens", version, about, propagate_version = true)]
pub struct Opts {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the solutions of the n-queens problem for each board size n.
    #[command(after_help = COUNT_EXAMPLES)]
    Count(CountArgs),
}

/// Options of `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Board sizes: integers 0..=63 or inclusive ranges A..B (also written A..=B).
    #[arg(value_name = "N", required = true, num_args = 1.., allow_negative_numbers = true, value_parser = parse_sizes)]
    pub sizes: Vec<Sizes>,

    /// Worker threads [default: every logical CPU].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// Output format: text (aligned table), json (JSON Lines), csv, bfile (OEIS `n a(n)` lines).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_format)]
    pub format: Format,

    /// Check each count against OEIS A000170 (known for n <= 27); exit 1 on a mismatch.
    /// Counts beyond the table are reported as unverified, not as errors.
    #[arg(long)]
    pub verify: bool,

    /// Progress bar on stderr: auto (on a terminal, once a run lasts about a second), always,
    /// never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = parse_progress)]
    pub progress: Progress,

    /// Search algorithm: mirror (mirror halving) or join (quadrant join for 4 <= n <= 25; smaller boards use mirror).
    #[arg(long, value_name = "NAME", default_value = "mirror", value_parser = parse_algorithm)]
    pub algorithm: Algorithm,

    /// Rows fixed per subproblem, 1..=16 [default: the smallest depth with at least 32
    /// subproblems per thread and 2048 in all].
    #[arg(long, value_name = "D", value_parser = parse_split_depth)]
    pub split_depth: Option<u32>,
}

/// An inclusive range of board sizes, `first..=last`; a single size has `first == last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// The first board side.
    pub first: u32,
    /// The last board side (inclusive).
    pub last: u32,
}

impl Sizes {
    /// Returns the board sides in order.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        self.first..=self.last
    }
}

const SIZES_ACCEPTED: &str = "use an integer 0..=63 or a range A..B";

/// Parses one board size or an inclusive range `A..B` / `A..=B`.
pub fn parse_sizes(s: &str) -> Result<Sizes, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err(format!("board size is empty: {SIZES_ACCEPTED}"));
    }
    let Some((a, b)) = s.split_once("..") else {
        let n = parse_n(s)?;
        return Ok(Sizes { first: n, last: n });
    };
    let b = b.strip_prefix('=').unwrap_or(b);
    if a.trim().is_empty() || b.trim().is_empty() {
        return Err(format!("range '{s}' is incomplete: use A..B with both ends, e.g. 1..18"));
    }
    let (first, last) = (parse_n(a)?, parse_n(b)?);
    if first > last {
        return Err(format!("range {s} is reversed (empty): use A..B with A <= B"));
    }
    Ok(Sizes { first, last })
}

fn parse_n(s: &str) -> Result<u32, String> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!("board size {s} is negative: {SIZES_ACCEPTED}"));
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("board size '{s}' is not an integer: {SIZES_ACCEPTED}"));
    }
    match s.parse::<u32>() {
        Ok(n) if n <= MAX_N => Ok(n),
        _ => Err(format!("board size {s} is too large: the u64 masks allow n <= {MAX_N}")),
    }
}

/// Parses a thread count, at least 1.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("thread count 0 is not allowed: use 1 or more".to_string()),
        Ok(t) => Ok(t),
        Err(_) => Err(format!("thread count '{s}' is not an integer: use 1 or more")),
    }
}

/// Parses a split depth, 1..=16.
pub fn parse_split_depth(s: &str) -> Result<u32, String> {
    let max = nqueens::split::MAX_SPLIT_DEPTH;
    match s.trim().parse::<u32>() {
        Ok(d) if (1..=max).contains(&d) => Ok(d),
        _ => Err(format!("split depth '{s}' is out of range: use 1..={max}")),
    }
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
}

fn parse_progress(s: &str) -> Result<Progress, String> {
    s.parse()
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    s.parse()
}

/// Renders a clap error as one line (clap's own message spans several): its lines joined, the
/// "For more information" hint dropped.
pub fn one_line(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_definition_is_consistent() {
        Opts::command().debug_assert();
    }

    #[test]
    fn sizes_and_ranges() {
        assert_eq!(parse_sizes("7"), Ok(Sizes { first: 7, last: 7 }));
        assert_eq!(parse_sizes("1..18"), Ok(Sizes { first: 1, last: 18 }));
        assert_eq!(parse_sizes("1..=18"), Ok(Sizes { first: 1, last: 18 }));
        assert_eq!(parse_sizes("0..0"), Ok(Sizes { first: 0, last: 0 }));
        assert_eq!(parse_sizes("63"), Ok(Sizes { first: 63, last: 63 }));
        assert!(parse_sizes("64").unwrap_err().contains("n <= 63"));
        assert!(parse_sizes("99999999999999999999").unwrap_err().contains("too large"));
        assert!(parse_sizes("-3").unwrap_err().contains("negative"));
        assert!(parse_sizes("x").unwrap_err().contains("'x' is not an integer"));
        assert!(parse_sizes("5..3").unwrap_err().contains("reversed"));
        assert!(parse_sizes("5..").unwrap_err().contains("incomplete"));
        assert!(parse_sizes("").unwrap_err().contains("empty"));
        assert!(parse_sizes("1..x").unwrap_err().contains("'x'"));
    }

    #[test]
    fn threads_and_depths() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("0").unwrap_err().contains("0 is not allowed"));
        assert!(parse_threads("two").unwrap_err().contains("'two'"));
        assert_eq!(parse_split_depth("16"), Ok(16));
        assert!(parse_split_depth("17").is_err());
        assert!(parse_split_depth("0").is_err());
    }
}

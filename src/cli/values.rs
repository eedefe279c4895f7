//! The value parsers of the command line's flags: each takes the text of one value and returns
//! it, or the one-line reason it is refused (clap adds the flag), so that every refusal names
//! the bad value and what is accepted.

use crate::output::{Format, PlanFormat, Sequence};
use crate::term::When;
use nqueens::arch::Level;
use nqueens::construct::MAX_ANY_N;
use nqueens::{Algorithm, MAX_N, boards::BoardFormat, plan::D4Search};
use nqueens_runs::shard::ShardId;

pub fn parse_plan_format(s: &str) -> Result<PlanFormat, String> {
    match s {
        "text" => Ok(PlanFormat::Text),
        "json" => Ok(PlanFormat::Json),
        _ => Err(format!("unknown format '{s}': use text or json")),
    }
}

/// Parses a shard count K, 1..=[`nqueens_runs::shard::MAX_SHARDS`].
pub fn parse_shard_count(s: &str) -> Result<usize, String> {
    let max = nqueens_runs::shard::MAX_SHARDS;
    let t = s.trim();
    match t.parse::<usize>() {
        Ok(k) if (1..=max).contains(&k) => Ok(k),
        _ if is_integer(t) => Err(format!("shard count '{s}' is out of range: use 1..={max}")),
        _ => Err(format!("shard count '{s}' is not an integer: use 1..={max}")),
    }
}

/// Returns true if `t` is written as an integer (an optional sign, then digits), of any size:
/// such a value that a parser refuses is out of range, anything else is not an integer.
pub fn is_integer(t: &str) -> bool {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Parses a random seed, a whole number 0..=2^64 - 1.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| format!("seed '{s}' is not a whole number 0..={}", u64::MAX))
}

/// The most `--sample-seconds` of `plan` (a day).
pub const MAX_SAMPLE_SECONDS: f64 = 86400.0;

/// The least sample budget in seconds other than 0: a nanosecond, the clock's unit (a budget
/// below it would be read as 0 and said to be "--sample-seconds 0").
pub const MIN_SAMPLE_SECONDS: f64 = 1e-9;

/// Parses a sample budget in seconds: 0 (no sample), or a number from [`MIN_SAMPLE_SECONDS`]
/// to [`MAX_SAMPLE_SECONDS`].
pub fn parse_sample_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v == 0.0 || (MIN_SAMPLE_SECONDS..=MAX_SAMPLE_SECONDS).contains(&v) => Ok(v.abs()),
        _ => Err(format!(
            "sample seconds '{s}' is not a number of seconds: use 0 (no sample) or {MIN_SAMPLE_SECONDS} to {MAX_SAMPLE_SECONDS}"
        )),
    }
}

/// Parses a precision in percent, 0.1 to 99.9 (one `%` after it allowed), into a fraction
/// (15 → 0.15).
pub fn parse_precision(s: &str) -> Result<f64, String> {
    let t = s.trim();
    match t.strip_suffix('%').unwrap_or(t).trim().parse::<f64>() {
        Ok(v) if (0.1..=99.9).contains(&v) => Ok(v / 100.0),
        _ => Err(format!("precision '{s}' is not a percentage from 0.1 to 99.9")),
    }
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

pub const SIZES_ACCEPTED: &str = "use an integer 0..=63 or a range A..B";

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

/// Parses a single board size 0..=63 (no ranges).
pub fn parse_size(s: &str) -> Result<u32, String> {
    if s.contains("..") {
        return Err(format!("'{s}' is a range: use a single board size 0..=63"));
    }
    if s.trim().is_empty() {
        return Err("board size is empty: use an integer 0..=63".to_string());
    }
    parse_n(s).map_err(|e| e.replace(SIZES_ACCEPTED, "use an integer 0..=63"))
}

/// Parses the board size of `solve`: what [`parse_size`] accepts, and larger integers up to
/// [`nqueens::construct::MAX_ANY_N`] for `--any` (the command refuses them without it).
pub fn parse_solve_size(s: &str) -> Result<u64, String> {
    // Each refusal names both ranges (the parser does not know whether --any is given: `solve
    // -1 --any` was told 0..=63; issue 40).
    let both = format!("use an integer 0..={MAX_N}, or 0..={MAX_ANY_N} with --any");
    parse_size(s).map(u64::from).or_else(|e| {
        let t = s.trim();
        match t.parse::<u64>() {
            Ok(n) if n <= MAX_ANY_N => Ok(n),
            _ if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                Err(format!("board size {t} is too large: {both}"))
            }
            _ => Err(e.replace("use an integer 0..=63", &both)),
        }
    })
}

/// Parses the board size of `check`: any side `solve --any` writes, 0..=2^32 − 1.
pub fn parse_check_size(s: &str) -> Result<u32, String> {
    let t = s.trim();
    match t.parse::<u64>() {
        Ok(n) if n <= MAX_ANY_N => Ok(n as u32),
        _ if s.contains("..") => Err(format!("'{s}' is a range: use a single board size 0..={MAX_ANY_N}")),
        _ => Err(format!(
            "board size '{s}' is not an integer 0..={MAX_ANY_N}: use one (the side of the list's boards)"
        )),
    }
}

/// Parses a solution limit, an integer 0 or more.
pub fn parse_limit(s: &str) -> Result<u64, String> {
    let t = s.trim();
    t.parse::<u64>().map_err(|_| {
        // A negative or huge integer is one, but not a limit (`--limit -1` was "not an
        // integer": issue 40).
        if is_integer(t) {
            format!("limit '{s}' is out of range: use 0..={}", u64::MAX)
        } else {
            format!("limit '{s}' is not an integer: use 0 or more")
        }
    })
}

pub fn parse_board_format(s: &str) -> Result<BoardFormat, String> {
    s.parse()
}

pub fn parse_n(s: &str) -> Result<u32, String> {
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
    let t = s.trim();
    match t.parse::<usize>() {
        Ok(0) => Err("thread count 0 is not allowed: use 1 or more".to_string()),
        Ok(t) if t <= MAX_THREADS => Ok(t),
        _ if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("thread count {t} is too large: use 1..={MAX_THREADS}"))
        }
        // A negative integer is one, but not a thread count.
        _ if is_integer(t) => Err(format!("thread count '{s}' is out of range: use 1..={MAX_THREADS}")),
        _ => Err(format!("thread count '{s}' is not an integer: use 1 or more")),
    }
}

/// The most worker threads `-j` accepts: starting a thread takes milliseconds, so far more
/// threads than cores only costs time.
pub const MAX_THREADS: usize = 4096;

/// Parses a split depth, 1..=16.
pub fn parse_split_depth(s: &str) -> Result<u32, String> {
    let max = nqueens::plan::MAX_SPLIT_DEPTH;
    let t = s.trim();
    match t.parse::<u32>() {
        Ok(d) if (1..=max).contains(&d) => Ok(d),
        _ if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("split depth '{s}' is out of range: use 1..={max}"))
        }
        _ => Err(format!("split depth '{s}' is not an integer: use 1..={max}")),
    }
}

/// Parses a shard `I/K`, 0 <= I < K.
pub fn parse_shard(s: &str) -> Result<ShardId, String> {
    s.parse()
}

pub fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
}

pub fn parse_sequence(s: &str) -> Result<Sequence, String> {
    s.parse()
}

pub fn parse_progress(s: &str) -> Result<When, String> {
    s.parse()
}

pub fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    s.parse()
}

pub fn parse_d4_search(s: &str) -> Result<D4Search, String> {
    match s {
        "avx512" | "avx2" => {
            Err(format!("'{s}' is no longer a d4 search: use batched, and --isa {s} for the level"))
        }
        _ => s.parse(),
    }
}

/// Parses an instruction-set level and checks it against this processor: a level it lacks is
/// refused here, so that the error is a usage error (exit 2) before any work. An empty value
/// is the best level this processor runs, the default: `NQUEENS_ISA=` set empty (a script's
/// `NQUEENS_ISA=$LEVEL` with LEVEL unset) was refused as "invalid value '' for '--isa'", a
/// flag the user never gave.
pub fn parse_isa(s: &str) -> Result<Level, String> {
    if s.trim().is_empty() {
        return Ok(Level::best());
    }
    s.parse()
}

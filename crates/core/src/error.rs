//! The errors of the library: one enum, each variant naming the bad value and what is accepted.

use std::fmt;

use crate::limits::{MAX_N, MAX_SPLIT_DEPTH, MAX_SUBPROBLEMS};

/// The errors the library returns. Messages name the bad value and what is accepted, never a
/// command-line flag (the `nqueens` binary words its own).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The board side is larger than the `u64` masks allow.
    BoardTooLarge {
        /// The rejected board side.
        n: u32,
    },
    /// A board side above [`crate::construct::MAX_ANY_N`] given to
    /// [`crate::construct::any_solution`].
    AnyTooLarge {
        /// The rejected board side.
        n: u64,
        /// The largest side taken.
        max: u64,
    },
    /// A border that is not a start constellation of the board
    /// ([`crate::plan::Border::new`], [`crate::plan::Constellation::new`]).
    BadBorder {
        /// The board side.
        n: u32,
        /// The border: top, bottom, left, right.
        border: [u32; 4],
    },
    /// A run's subproblem list (`Job::only` of [`crate::Counter::run`]) names an index that
    /// is not below the plan's length, or names one twice.
    BadJob {
        /// The index.
        index: usize,
        /// The plan's number of subproblems.
        len: usize,
        /// True if the index is in range but given twice.
        repeated: bool,
    },
    /// A thread count of zero was asked for.
    ZeroThreads,
    /// The split depth is outside what the splitter can fix.
    BadSplitDepth {
        /// The rejected depth.
        depth: u32,
    },
    /// The join algorithm's quarter table would not fit in memory (or n is beyond the join's
    /// largest board).
    JoinTooLarge {
        /// The rejected board side.
        n: u32,
        /// The estimated memory in MiB: the table and every thread's working buffers.
        needed_mib: u64,
        /// The quarter table's estimated size in MiB.
        table_mib: u64,
        /// The worker threads the estimate counts buffers for.
        threads: usize,
        /// One thread's working buffers, estimated, in MiB.
        per_thread_mib: u64,
        /// The process's address-space limit (`RLIMIT_AS`) in MiB, if one is set.
        address_space_limit_mib: Option<u64>,
        /// The memory available in MiB (0 if unknown).
        available_mib: u64,
        /// The largest board the join supports at all.
        max: u32,
    },
    /// The split depth would make more subproblems than `MAX_SUBPROBLEMS`.
    TooManySubproblems {
        /// The board side.
        n: u32,
        /// The rejected depth.
        depth: u32,
    },
    /// A column is off the board: at or past its side `n` (for a prefix or a row of masks,
    /// whose board is not known, `n` is [`MAX_N`]).
    BadColumn {
        /// The rejected column (0-based).
        col: u64,
        /// The board side, or [`MAX_N`] where the board is not known.
        n: u32,
    },
    /// A board handed to a function of [`crate::symmetry`] is not a permutation of `0..n`: a
    /// row's column is off the board or taken by an earlier row.
    NotAPermutation {
        /// The board's side, its length.
        n: usize,
        /// The first row (0-based) whose column is off the board or taken.
        row: usize,
        /// That row's column.
        col: u8,
    },
    /// An output buffer is shorter than the board written into it.
    BufferTooShort {
        /// The buffer's length.
        len: usize,
        /// The length needed: the board's.
        needed: usize,
    },
    /// An orbit size other than those of the dihedral group D4 (1, 2, 4 and 8).
    BadOrbit {
        /// The rejected orbit size.
        boards: u32,
    },
    /// A sum of counts would overflow its 128 bits (no real count comes near: the operands were
    /// forged or damaged).
    Overflow {
        /// What was being added up, e.g. "the symmetry classes of orbit 8".
        what: &'static str,
    },
    /// An instruction-set level was asked for that this processor does not run.
    UnsupportedIsa {
        /// The level asked for (its [`crate::arch::Isa::name`]).
        isa: &'static str,
        /// What the level needs ([`crate::arch::Isa::needs`]).
        needs: &'static str,
        /// The best level this processor runs ([`crate::arch::Level::best`]).
        best: &'static str,
    },
    /// An allocation that grows with the board or the thread count would not fit in the memory
    /// available to the process (`crate::memory::available`): refused before it is made, or
    /// when a fallible reservation fails, never an abort.
    OutOfMemory {
        /// What needs the memory, e.g. "the d4 plan of n = 63 (1,969,120 start constellations at most)".
        what: String,
        /// The memory it needs, in MiB.
        needed_mib: u64,
        /// The memory available to the process in MiB, if known.
        available_mib: Option<u64>,
        /// The process's address-space limit (`RLIMIT_AS`) in MiB, if one is set.
        address_space_limit_mib: Option<u64>,
    },
    /// A device beside the CPU (a GPU, through [`crate::plan::Device`]) is not there, or
    /// cannot count this plan: refused before anything is counted.
    Device {
        /// The device, as [`crate::parallel::Device::name`] names it.
        device: String,
        /// What went wrong, in the device API's words where it gave any.
        reason: String,
    },
    /// A device failed while counting: the subproblems it finished were reported (and
    /// journaled), the rest were not.
    DeviceFailed {
        /// The device, as [`crate::parallel::Device::name`] names it.
        device: String,
        /// What went wrong, in the device API's words where it gave any.
        reason: String,
    },
    /// The operating system refused to start the worker threads.
    ThreadPool {
        /// The thread count asked for.
        threads: usize,
        /// Why: the operating system's reason, or rayon's limit on a pool's threads.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BoardTooLarge { n } => {
                write!(f, "board size {n} is too large: the u64 masks allow n <= {MAX_N}")
            }
            Error::AnyTooLarge { n, max } => {
                write!(f, "board size {n} is too large to construct a solution of: use n <= {max}")
            }
            Error::BadBorder { n, border: [t, b, l, r] } => write!(
                f,
                "border (top {t}, bottom {b}, left {l}, right {r}) is not a start constellation of the {n}×{n} \
                 board: it takes 2 <= n <= {MAX_N}, every queen within 0..n, a corner queen on both its lines \
                 and no two queens attacking"
            ),
            Error::BadJob { index, len, repeated: true } => {
                write!(f, "subproblem {index} is listed twice in the run's subproblems (0..{len}): list each once")
            }
            Error::BadJob { index, len, .. } => write!(
                f,
                "subproblem {index} is not one of the plan's: it has {len} subproblems, 0..{len}"
            ),
            Error::ZeroThreads => f.write_str("thread count 0 is not allowed: use 1 or more"),
            Error::BadSplitDepth { depth } => {
                write!(f, "split depth {depth} is out of range: use 1..={MAX_SPLIT_DEPTH}")
            }
            Error::JoinTooLarge { n, max, .. } if n > max => write!(
                f,
                "board size {n} is too large for the join algorithm: it supports n <= {max}; use the d4 algorithm"
            ),
            Error::JoinTooLarge { n, needed_mib, available_mib, max, .. } => write!(
                f,
                "board size {n} is too large for the join algorithm: its quarter table needs about \
                 {needed_mib} MiB and {available_mib} MiB are available (the join supports n <= {max}); \
                 use the d4 algorithm"
            ),
            Error::TooManySubproblems { n, depth } => write!(
                f,
                "split depth {depth} makes more than {MAX_SUBPROBLEMS} subproblems at n = {n}: use a smaller \
                 depth (or none)"
            ),
            Error::BadColumn { col, n } => {
                write!(f, "column {col} is off the board: a board of side {n} has columns 0..{n}")
            }
            Error::NotAPermutation { n, row, col } => write!(
                f,
                "row {row} of a board of side {n} has column {col}, which is off the board or taken by an \
                 earlier row: a board is a permutation of 0..{n}"
            ),
            Error::BufferTooShort { len, needed } => {
                write!(
                    f,
                    "an output buffer of length {len} cannot hold a board of {needed} rows: give {needed} or more"
                )
            }
            Error::BadOrbit { boards } => {
                write!(
                    f,
                    "an orbit of {boards} boards is impossible: an orbit under D4 has 1, 2, 4 or 8 boards"
                )
            }
            Error::Overflow { what } => write!(
                f,
                "{what} overflow 128 bits: no real count comes near 2^128, so an operand was forged or damaged"
            ),
            Error::UnsupportedIsa { isa, needs, best } => write!(
                f,
                "instruction-set level {isa} needs {needs}, which this processor lacks (its best level is {best})"
            ),
            Error::OutOfMemory { what, needed_mib, available_mib, address_space_limit_mib } => write!(
                f,
                "{what} would need about {needed_mib} MiB but {} {}",
                available(*available_mib),
                limit(*address_space_limit_mib)
            ),
            Error::Device { device, reason } => write!(f, "device {device}: {reason}"),
            Error::DeviceFailed { device, reason } => write!(f, "device {device} failed: {reason}"),
            Error::ThreadPool { threads, reason } => {
                write!(f, "cannot start {threads} worker threads: {reason}")
            }
        }
    }
}

impl std::error::Error for Error {}

/// Words the memory available for [`Error::OutOfMemory`].
fn available(mib: Option<u64>) -> String {
    match mib {
        Some(m) => format!("{m} MiB are available to this process"),
        None => "the allocation failed".to_string(),
    }
}

/// Words the address-space limit for [`Error::OutOfMemory`], and what to do.
fn limit(mib: Option<u64>) -> String {
    match mib {
        Some(l) => format!(
            "(under an address-space limit, ulimit -v, of {l} MiB): raise the limit or give the job more memory"
        ),
        None => {
            "(the least of free memory, the cgroup's and the Slurm job's limits): give the job more memory"
                .to_string()
        }
    }
}

/// Returns `Ok(())` if and only if an `n`×`n` board fits the masks.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`MAX_N`].
pub fn check_n(n: u32) -> Result<(), Error> {
    if n > MAX_N { Err(Error::BoardTooLarge { n }) } else { Ok(()) }
}

/// Returns the value of `all` whose `name` is `s`, or the one-line refusal "unknown {what}
/// '{s}': use one of …" listing every name: how each named choice (algorithm, d4 search, board
/// format) is parsed.
pub(crate) fn parse_name<T: Copy>(
    s: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    what: &str,
) -> Result<T, String> {
    all.iter().copied().find(|&v| name(v) == s).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
        format!("unknown {what} '{s}': use one of {}", names.join(", "))
    })
}

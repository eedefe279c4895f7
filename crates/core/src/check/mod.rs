//! Checking lists of boards: the library side of `nqueens check`.
//!
//! A list is read in one of the three formats `nqueens solve` writes ([`BoardFormat::Board`],
//! [`BoardFormat::Leetcode`], [`BoardFormat::Cols`]), detected from its first non-blank
//! character (`[` leetcode, a digit cols, `Q` or `.` board) unless given, by the decoder the
//! listing's formats share ([`crate::boards`]). Each board is checked:
//! one queen per row, a square board, the same size as the first valid board, no two queens on a
//! column, diagonal or anti-diagonal (the attacking pair is named, rows and columns 1-based);
//! then duplicates are found, and the list is *complete* when its valid distinct boards number
//! Q(n) (OEIS A000170; A002562 with `unique`, where every board must also be the canonical one of
//! its symmetry class, see [`crate::symmetry`]). Completeness is known for n ≤ 27 (the OEIS
//! tables); a list of a larger board cannot be complete in practice and is reported as unknown.
//!
//! Boards of any side are checked (what `nqueens solve --any` writes goes up to 2^32 − 1): one
//! pass over the rows, with masks up to n = 64 and a few bits a row beyond (`attack::Occupancy`).
//!
//! Every format is read as it streams in, byte by byte (see [`crate::boards`]): memory grows
//! with the side of the board being read, never with the input's bytes. The duplicate check
//! stores nothing while the list is every solution in lexicographic order, as `nqueens solve`
//! writes it (n ≤ 27: each board is compared with the next solution, found by a search from
//! the one before), and a table of the boards out of that order from the first board that is
//! not: about 90 bytes a board with the table's growth up to n = 34 (its rank), and for larger
//! boards their columns whole up to [`SPILL_AFTER_BYTES`] (4 MiB), then a 128-bit digest each,
//! their columns spilled to an unnamed file in the temporary folder (`TMPDIR`), 4·n bytes of
//! disk, read back only when two digests agree. A table that cannot grow, or a spill file that
//! cannot be made, written or read back, is an error ([`ReadError::OutOfMemory`],
//! [`ReadError::Spill`]), never an abort nor a verdict. What the
//! report echoes of the input has its control characters escaped
//! ([`crate::boards::escape_controls`]).

//!
//! Files: this one judges each board ([`check`], [`is_solution`]); `report.rs` holds what is
//! found ([`Report`], [`Problem`], [`Fault`]); `order.rs` the duplicate check (the solutions in
//! order, then a table of ranks and digests).

mod order;
mod report;

use std::io::BufRead;

pub use crate::attack::Line;
use crate::attack::Occupancy;
use crate::attack::first_attacker;
use crate::boards::decode::{self, Board, ColsLine, RawBoard, Row};
use crate::boards::{BoardFormat, ReadError};
use crate::oeis;
pub use order::SPILL_AFTER_BYTES;
use order::{Earlier, Seen, SeenError, canonical};
pub use report::{Fault, MAX_PROBLEMS_KEPT, Problem, Report};

/// Why a list could not be read at all (exit code 2 on the command line): the decoder's error.
pub type CheckError = ReadError;

/// What to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// The input format; `None` detects it from the first non-blank character.
    pub format: Option<BoardFormat>,
    /// The board side the list must have; `None` takes the first valid board's size (needed to
    /// judge an empty list complete, as for n = 2 and 3).
    pub size: Option<u32>,
    /// Whether the list should hold one canonical board per symmetry class (OEIS A002562)
    /// instead of every solution (A000170).
    pub unique: bool,
}

/// A column number [`is_solution`] takes: the unsigned integer types (what
/// [`crate::enumerate::solutions`] gives, `u8`, and what [`crate::construct::any_solution`]
/// gives, `u64`) and the signed ones, a negative column being off every board.
pub trait Column: Copy {
    /// Returns the column as a `u64`, or `None` if it is negative.
    fn column(self) -> Option<u64>;
}

macro_rules! unsigned_column {
    ($($t:ty),*) => {$(
        impl Column for $t {
            fn column(self) -> Option<u64> {
                Some(self as u64)
            }
        }
    )*};
}
unsigned_column!(u8, u16, u32, u64, usize);

macro_rules! signed_column {
    ($($t:ty),*) => {$(
        impl Column for $t {
            fn column(self) -> Option<u64> {
                u64::try_from(self).ok()
            }
        }
    )*};
}
signed_column!(i8, i16, i32, i64, isize);

/// Returns true if and only if `board` is a solution of the n-queens problem on the n×n board,
/// n = `board.len()`: `board[r]` is the 0-based column of the queen in row `r`, every column is
/// below n, and no two queens share a column, diagonal or anti-diagonal. The empty board (n = 0)
/// is the one solution of n = 0 (OEIS A000170). Any n: one pass over the rows, with `u64`/`u128`
/// masks up to n = 64 (no allocation) and 5 bits a row beyond (`attack::Occupancy`), so the boards of
/// [`crate::construct::any_solution`] (`Vec<u64>`) are checked as they are.
///
/// # Examples
/// ```
/// assert!(nqueens::check::is_solution(&[1, 3, 0, 2]));
/// assert!(!nqueens::check::is_solution(&[0, 2, 1, 3])); // (1, 2) and (2, 1) share an anti-diagonal
/// assert!(!nqueens::check::is_solution(&[0, 4])); // column 4 is off a 2×2 board
/// let board = nqueens::construct::any_solution(1000).unwrap().unwrap();
/// assert!(nqueens::check::is_solution(&board));
/// ```
pub fn is_solution<C: Column>(board: &[C]) -> bool {
    let n = board.len() as u64;
    if !board.iter().all(|&c| c.column().is_some_and(|c| c < n)) {
        return false;
    }
    let cols = board.iter().map(|&c| c.column().unwrap_or(u64::MAX) as usize);
    if n <= 64 {
        return attack_free(cols, n as usize);
    }
    let mut occupancy = Occupancy::default();
    cols.enumerate().all(|(r, c)| matches!(occupancy.place(r as u64, c as u64), Ok(None)))
}

/// Returns true if and only if no two of the queens `cols` (the column of each row, each below
/// `size` ≤ 64) share a column, diagonal or anti-diagonal: one pass with `u64`/`u128` masks.
fn attack_free(cols: impl Iterator<Item = usize>, size: usize) -> bool {
    let (mut taken, mut diag, mut anti) = (0u64, 0u128, 0u128);
    for (r, c) in cols.enumerate() {
        let (cb, db, ab) = (1u64 << c, 1u128 << (r + size - c), 1u128 << (r + c));
        if taken & cb != 0 || diag & db != 0 || anti & ab != 0 {
            return false;
        }
        taken |= cb;
        diag |= db;
        anti |= ab;
    }
    true
}

/// Reads and checks a list of boards.
///
/// The list is read as [`crate::boards`] decodes it, boards of any side (memory grows with the
/// side of the board being read, never with the input's bytes); the duplicate check needs no
/// table while the list is every solution in lexicographic order, as `nqueens solve` writes it
/// (each board is compared with the next solution, found by a search from the one before: n ≤
/// 27), and a table of the other boards once it is not (see the [module](self) docs: boards
/// past [`SPILL_AFTER_BYTES`] of columns are spilled to the temporary folder). A UTF-8 byte
/// order mark at the start is skipped.
///
/// # Errors
/// [`CheckError`] when the input cannot be read at all: an I/O error, text that is not UTF-8, a
/// format that cannot be detected, a leetcode list that is not valid JSON of the right shape,
/// [`BoardFormat::Raw`] given as the format, memory that cannot be allocated (a board's
/// columns, the duplicate table), or a spill file the temporary folder cannot hold
/// ([`ReadError::Spill`]). Malformed lines of a readable list are problems in the
/// [`Report`], with their line numbers, not errors.
///
/// # Examples
/// ```
/// use nqueens::check::{CheckOptions, check};
/// let report = check("2 4 1 3\n3 1 4 2\n".as_bytes(), &CheckOptions::default()).unwrap();
/// assert!(report.ok());
/// let report = check("2 4 1 3\n1 2 3 4\n".as_bytes(), &CheckOptions::default()).unwrap();
/// assert!(!report.ok());
/// assert_eq!(
///     report.problems[0].to_string(),
///     "line 2: board 2: the queens at row 1, column 1 and row 2, column 2 share a diagonal"
/// );
/// ```
pub fn check(input: impl BufRead, options: &CheckOptions) -> Result<Report, CheckError> {
    let mut checker = Checker::new(options);
    let format = decode::read(input, options.format, &mut checker)?;
    checker.format = format;
    Ok(checker.finish())
}

struct Checker {
    options: CheckOptions,
    format: BoardFormat,
    n: Option<usize>,
    boards: usize,
    valid: usize,
    seen: Seen,
    problems: Vec<Problem>,
    problem_count: usize,
}

impl decode::Sink for Checker {
    fn board(&mut self, line: Option<usize>, board: RawBoard) -> Result<(), ReadError> {
        self.add(line, board)
    }

    fn side(&self) -> Option<usize> {
        self.n
    }
}

impl Checker {
    fn new(options: &CheckOptions) -> Checker {
        Checker {
            options: *options,
            format: BoardFormat::Cols,
            n: options.size.map(|n| n as usize),
            boards: 0,
            valid: 0,
            seen: Seen::new(options.unique),
            problems: Vec::new(),
            problem_count: 0,
        }
    }

    fn problem(&mut self, line: Option<usize>, fault: Fault) {
        self.problem_count += 1;
        if self.problems.len() < MAX_PROBLEMS_KEPT {
            self.problems.push(Problem { board: self.boards, line, fault });
        }
    }

    /// Checks one board as read; `line` is its first line.
    ///
    /// # Errors
    /// [`ReadError::OutOfMemory`] if the duplicate table cannot grow, [`ReadError::Spill`] if its
    /// spill file fails.
    fn add(&mut self, line: Option<usize>, raw: RawBoard) -> Result<(), ReadError> {
        self.boards += 1;
        let q = match raw.map_err(|reason| Fault::Malformed { reason }).and_then(|board| self.validate(board))
        {
            Ok(q) => q,
            Err(fault) => {
                self.problem(line, fault);
                return Ok(());
            }
        };
        if self.options.unique && !canonical(&q) {
            self.problem(line, Fault::NotCanonical);
            return Ok(());
        }
        self.valid += 1;
        let first = (self.boards as u64, line.unwrap_or(0) as u64);
        let earlier = self.seen.insert(&q, first).map_err(|e| match e {
            SeenError::Memory(bytes) => ReadError::OutOfMemory {
                line: line.unwrap_or(0),
                what: format!("the duplicate table of {} boards", self.seen.len() + 1),
                mib: bytes.div_ceil(1 << 20),
            },
            SeenError::Spill(s) => ReadError::Spill {
                line: line.unwrap_or(0),
                budget_mib: SPILL_AFTER_BYTES >> 20,
                dir: s.dir,
                error: s.error,
            },
        })?;
        match earlier {
            None => {}
            Some(Earlier::At((of, first_line))) => {
                let line_of = (first_line > 0).then_some(first_line as usize);
                self.problem(line, Fault::Duplicate { of: of as usize, line: line_of });
            }
            Some(Earlier::Ordered(boards, last)) => {
                self.problem(line, Fault::RepeatsOrdered { boards, last })
            }
        }
        Ok(())
    }

    /// Turns a board as read into a solution (0-based column per row), or the first fault.
    fn validate(&mut self, board: Board) -> Result<Vec<u32>, Fault> {
        let q: Vec<u32> = match board {
            Board::Cols(ColsLine { cols, count: n, stop }) => {
                // A short or long line among boards of a known side: its length is what is
                // wrong, not a column beyond it.
                if let Some(expected) = self.n.filter(|&e| e != n) {
                    return Err(Fault::ColumnCount { columns: n, expected });
                }
                if let Some(r) = cols.iter().position(|&c| c as usize > n) {
                    return Err(Fault::OffBoard { row: r + 1, col: u64::from(cols[r]), n });
                }
                if let Some(decode::ColsStop { row, col, attacker }) = stop {
                    return Err(match attacker {
                        Some((a, ca, line)) if col >= 1 && col <= n as u64 => {
                            Fault::Attack { a: (a, ca as usize), b: (row, col as usize), line }
                        }
                        _ => Fault::OffBoard { row, col, n },
                    });
                }
                cols.into_iter().map(|c| c - 1).collect()
            }
            Board::Rows(rows) => {
                let size = rows.len();
                let mut q = Vec::with_capacity(size);
                for (r, &Row { queens, col, len }) in rows.iter().enumerate() {
                    if len != size {
                        return Err(Fault::NotSquare { row: r + 1, len, rows: size });
                    }
                    if queens != 1 {
                        return Err(Fault::RowQueens { row: r + 1, queens });
                    }
                    q.push(col as u32);
                }
                q
            }
        };
        let size = q.len();
        // The list's size is that of its first valid board (or the given one): a bad first
        // board must not condemn the good ones after it.
        if let Some(expected) = self.n
            && size != expected
        {
            return Err(Fault::MixedSize { size, expected });
        }
        // One pass with masks (or bits beyond n = 64); only a failing board looks for the pair.
        if !is_solution(&q) {
            let mut occupancy = Occupancy::default();
            for (b, &cb) in q.iter().enumerate() {
                if !matches!(occupancy.place(b as u64, u64::from(cb)), Ok(None)) {
                    let one_based: Vec<u32> = q[..b].iter().map(|&c| c + 1).collect();
                    let (a, line) = first_attacker(&one_based, b, cb);
                    return Err(Fault::Attack {
                        a: (a + 1, q[a] as usize + 1),
                        b: (b + 1, cb as usize + 1),
                        line,
                    });
                }
            }
        }
        self.n.get_or_insert(size);
        Ok(q)
    }

    fn finish(self) -> Report {
        let n = self.n;
        let expected = n.and_then(|n| {
            let table = if self.options.unique { oeis::A002562 } else { oeis::A000170 };
            u32::try_from(n).ok().and_then(|n| table.get(n)).map(|v| (v, table.name))
        });
        Report {
            format: self.format,
            n,
            boards: self.boards,
            valid: self.valid,
            distinct: self.seen.len(),
            problems: self.problems,
            problem_count: self.problem_count,
            expected,
            unique: self.options.unique,
        }
    }
}

#[cfg(test)]
mod tests;

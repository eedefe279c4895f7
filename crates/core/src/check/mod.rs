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
//! pass over the rows, with masks up to n = 64 and a few bits a row beyond ([`Occupancy`]).
//!
//! Every format is read as it streams in, byte by byte (see [`crate::boards`]): memory grows
//! with the side of the board being read, never with the input's bytes. The duplicate check
//! stores nothing while the list is every solution in lexicographic order, as `nqueens solve`
//! writes it (n ≤ 27: each board is compared with the next solution, found by a search from
//! the one before), and a table of the boards out of that order (about 90 bytes each with the
//! table's growth, whatever the side: a board of more than 34 rows is remembered by a 128-bit
//! digest, its columns spilled to an unnamed file in the temporary folder, 4·n bytes of disk,
//! and read back only when two digests agree) from the first board that is not; a table that
//! cannot grow is an error, not an abort. What the
//! report echoes of the input has its control characters escaped
//! ([`crate::boards::escape_controls`]).

use std::collections::HashMap;
use std::fmt;
use std::io::BufRead;

use crate::attack::first_attacker;
pub use crate::attack::{Line, Occupancy};
use crate::boards::decode::{self, Board, ColsLine, RawBoard, Row};
use crate::boards::{BoardFormat, ReadError};
use crate::oeis;
use crate::symmetry::is_canonical_permutation;

/// Why a list could not be read at all (exit code 2 on the command line): the decoder's error.
pub type CheckError = ReadError;

/// The most problems a [`Report`] keeps word for word; the rest are only counted.
pub const MAX_PROBLEMS_KEPT: usize = 1000;

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

/// What is wrong with one board (rows and columns 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A line that is not part of a board in this format.
    Malformed {
        /// What was wrong with it.
        reason: String,
    },
    /// A row without exactly one queen.
    RowQueens {
        /// The 1-based row.
        row: usize,
        /// How many queens it has.
        queens: usize,
    },
    /// A row of a different length than the board has rows.
    NotSquare {
        /// The 1-based row.
        row: usize,
        /// Its length.
        len: usize,
        /// The number of rows.
        rows: usize,
    },
    /// A column outside the board (cols format).
    OffBoard {
        /// The 1-based row.
        row: usize,
        /// The column given.
        col: u64,
        /// The board side.
        n: usize,
    },
    /// A line of the cols format with another number of columns than the list's boards have
    /// (rows), told before its column numbers are judged against its own length.
    ColumnCount {
        /// The line's number of columns.
        columns: usize,
        /// The side of the list's boards.
        expected: usize,
    },
    /// A board of another size than the list's.
    MixedSize {
        /// Its side.
        size: usize,
        /// The list's side.
        expected: usize,
    },
    /// Two queens that attack each other.
    Attack {
        /// The first queen (row, column), 1-based.
        a: (usize, usize),
        /// The second queen (row, column), 1-based, in a later row.
        b: (usize, usize),
        /// How they attack.
        line: Line,
    },
    /// A board that is not the canonical (lexicographically smallest) one of its symmetry class
    /// (only with `unique`).
    NotCanonical,
    /// A board that repeats one of the boards the list began with, which were every solution
    /// in lexicographic order (checked without a table, so which one is not known unless there
    /// was one).
    RepeatsOrdered {
        /// How many boards the list began with in that order.
        boards: u64,
        /// The last of them: its 1-based number and first line (0 when unknown).
        last: (u64, u64),
    },
    /// A board that repeats an earlier one.
    Duplicate {
        /// The earlier board's 1-based number.
        of: usize,
        /// The earlier board's first line, if known.
        line: Option<usize>,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Malformed { reason } => write!(f, "malformed: {reason}"),
            Fault::RowQueens { row, queens } => write!(f, "row {row} has {queens} queens, not 1"),
            Fault::NotSquare { row, len, rows } => {
                write!(f, "row {row} has {len} squares but the board has {rows} rows")
            }
            Fault::OffBoard { row, col, n } => write!(f, "row {row}: column {col} is outside 1..={n}"),
            Fault::ColumnCount { columns, expected } => {
                write!(f, "the line has {columns} columns where the list's boards have {expected}")
            }
            Fault::MixedSize { size, expected } => {
                write!(f, "the board is {size}×{size} but the list is of {expected}×{expected} boards")
            }
            Fault::Attack { a, b, line } => write!(
                f,
                "the queens at row {}, column {} and row {}, column {} share {} {line}",
                a.0,
                a.1,
                b.0,
                b.1,
                if *line == Line::AntiDiagonal { "an" } else { "a" }
            ),
            Fault::NotCanonical => {
                write!(f, "not the lexicographically smallest board of its symmetry class")
            }
            Fault::RepeatsOrdered { boards: 1, last: (board, 0) } => write!(f, "repeats board {board}"),
            Fault::RepeatsOrdered { boards: 1, last: (board, line) } => {
                write!(f, "repeats board {board} (line {line})")
            }
            Fault::RepeatsOrdered { boards, last: (board, line) } => {
                let at = if *line > 0 { format!(" (line {line})") } else { String::new() };
                write!(
                    f,
                    "repeats one of the {boards} boards in lexicographic order up to board {board}{at}, which were every solution up to there"
                )
            }
            Fault::Duplicate { of, line: Some(line) } => write!(f, "repeats board {of} (line {line})"),
            Fault::Duplicate { of, line: None } => write!(f, "repeats board {of}"),
        }
    }
}

/// One problem found: which board (1-based, in input order), its first line, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The 1-based number of the board in the list.
    pub board: usize,
    /// The board's first line (1-based), or the malformed line; `None` in the leetcode format.
    pub line: Option<usize>,
    /// What is wrong.
    pub fault: Fault,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: board {}: {}", self.board, self.fault),
            None => write!(f, "board {}: {}", self.board, self.fault),
        }
    }
}

/// What [`check`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The format read.
    pub format: BoardFormat,
    /// The board side of the list (the given size, else the first valid board's), if known.
    pub n: Option<usize>,
    /// Boards read, valid or not.
    pub boards: usize,
    /// Valid boards (duplicates included).
    pub valid: usize,
    /// Valid boards not seen before.
    pub distinct: usize,
    /// The first [`MAX_PROBLEMS_KEPT`] problems, in input order.
    pub problems: Vec<Problem>,
    /// The number of problems found (also those not kept).
    pub problem_count: usize,
    /// The number a complete list has, with its OEIS sequence: Q(n) (A000170), or the
    /// fundamental solutions (A002562) with `unique`; `None` when n is unknown or beyond the table.
    pub expected: Option<(u128, &'static str)>,
    /// Whether the list was checked for symmetry classes.
    pub unique: bool,
}

impl Report {
    /// Returns true if and only if the list is complete: its distinct valid boards number the
    /// expected count.
    pub fn complete(&self) -> bool {
        self.expected.is_some_and(|(want, _)| want == self.distinct as u128)
    }

    /// Returns true if and only if every board is valid and distinct and the list is complete.
    pub fn ok(&self) -> bool {
        self.problem_count == 0 && self.complete()
    }

    /// Returns true if and only if every board read is a solution and none repeats (with
    /// `unique`, also canonical), however few there are: what `check --partial` asks.
    pub fn ok_partial(&self) -> bool {
        self.problem_count == 0
    }

    /// Returns the one-line summary: sizes, counts and completeness. Without a list size
    /// ([`Report::n`] `None`), completeness is unknown: a caller may say how to give one
    /// ([`CheckOptions::size`]).
    pub fn summary(&self) -> String {
        let what = if self.unique { "fundamental solutions" } else { "solutions" };
        let size = match self.n {
            Some(n) => format!("{n}×{n} boards"),
            None if self.boards > 0 => "no valid board".to_string(),
            None => "no boards".to_string(),
        };
        let head = format!(
            "{size} ({} format): {} read, {} valid, {} distinct, {} problem{}",
            self.format,
            self.boards,
            self.valid,
            self.distinct,
            self.problem_count,
            if self.problem_count == 1 { "" } else { "s" }
        );
        let tail = match (self.n, self.expected) {
            (None, _) if self.boards > 0 => {
                "completeness unknown: no valid board gives the list's size".to_string()
            }
            (None, _) => "completeness unknown: an empty list does not tell its size".to_string(),
            (Some(n), None) => {
                format!("completeness unknown: the number of {what} of n = {n} is not tabulated")
            }
            (Some(n), Some((want, seq))) if self.complete() => {
                format!("complete: all {want} {what} of n = {n} (OEIS {seq})")
            }
            (Some(n), Some((want, seq))) => {
                format!("incomplete: {} of the {want} {what} of n = {n} (OEIS {seq})", self.distinct)
            }
        };
        format!("{head}; {tail}")
    }
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
/// masks up to n = 64 (no allocation) and 5 bits a row beyond ([`Occupancy`]), so the boards of
/// [`crate::construct::any_solution`] (`Vec<u64>`) are checked as they are.
///
/// # Examples
/// ```
/// assert!(nqueens::is_solution(&[1, 3, 0, 2]));
/// assert!(!nqueens::is_solution(&[0, 2, 1, 3])); // (1, 2) and (2, 1) share an anti-diagonal
/// assert!(!nqueens::is_solution(&[0, 4])); // column 4 is off a 2×2 board
/// let board = nqueens::construct::any_solution(1000).unwrap();
/// assert!(nqueens::is_solution(&board));
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
/// 27), and a table of the other boards (about 40 bytes each) once it is not. A UTF-8 byte order
/// mark at the start is skipped.
///
/// # Errors
/// [`CheckError`] when the input cannot be read at all: an I/O error, text that is not UTF-8, a
/// format that cannot be detected, a leetcode list that is not valid JSON of the right shape,
/// [`BoardFormat::Raw`] given as the format, or memory that cannot be allocated (a board's
/// columns, the duplicate table). Malformed lines of a readable list are problems in the
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

/// Where a board was first seen: its 1-based number and first line (0 when unknown).
type First = (u64, u64);

/// The largest board a list is compared with the solutions in order for (every n with a known
/// count: the first solutions come in milliseconds; from n ≈ 40 they take hours).
const ORDERED_MAX_N: usize = 27;

/// The distinct boards so far, for the duplicate check. While the list's valid boards are
/// exactly the solutions (canonical ones with `unique`) in lexicographic order from the first,
/// nothing is stored: each board is compared with the next solution after the last
/// ([`next_solution`]). From the first board out of that order, the boards not among those
/// first `ordered` solutions go into a table keyed by their rank among the permutations (n ≤ 34,
/// 16 bytes) or by a 128-bit digest of their columns ([`Digests`]: the columns themselves go to
/// a spill file, read back only when two digests agree), grown fallibly.
#[derive(Default)]
struct Seen {
    unique: bool,
    /// Whether every valid board so far was the next solution in order.
    in_order: bool,
    /// How many valid boards came in that order: the first `ordered` solutions.
    ordered: u64,
    /// The last of them, if any, and where it was.
    last: Option<Vec<u32>>,
    last_at: First,
    /// Where the first of them was, and whether they came one after another at one line step
    /// (`step`), so that the place of a repeated one follows from its rank.
    first_at: First,
    step: u64,
    contiguous: bool,
    ranks: HashMap<u128, First>,
    digests: Digests,
}

/// The boards of more than 34 rows the duplicate check remembers, in memory by a 128-bit
/// digest (two SipHash-1-3 with keys drawn per process, so that no list can be forged to make
/// them agree) and on disk whole, in an unnamed spill file in the temporary folder: a board's
/// memory is that of a rank's, about 90 bytes with the table's growth, whatever its side (its
/// columns kept in memory took 4·n bytes: 84 MB for 20,000 boards of n = 1009, issue 32). Two
/// boards whose digests agree are compared column by column against the spill file; a board
/// that differs from its digest's first one (a collision, about 2^-128 a pair) is kept whole in
/// `collided`, as is every board when no spill file can be made or written.
#[derive(Default)]
struct Digests {
    /// Digest → where the board was first seen and where its columns are in the spill file.
    table: HashMap<u128, (First, u64)>,
    /// The boards kept whole: those that collided, or every one without a spill file.
    collided: HashMap<Box<[u32]>, First>,
    keys: (std::hash::RandomState, std::hash::RandomState),
    spill: Option<Spill>,
    /// Whether the spill file could not be made or written (the boards are then kept whole).
    no_spill: bool,
    /// Tests: every digest the same, so that each board collides.
    #[cfg(test)]
    collide_all: bool,
}

/// The spill file of [`Digests`]: each board's columns as 4-byte little-endian numbers, one
/// board after another; removed from its folder as soon as it is made (Unix), else when dropped.
struct Spill {
    out: std::io::BufWriter<std::fs::File>,
    /// The bytes written so far: where the next board goes.
    end: u64,
    #[cfg(not(unix))]
    path: std::path::PathBuf,
}

impl Spill {
    /// Makes the spill file in the temporary folder, or `None` if it cannot be made.
    fn new() -> Option<Spill> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(".nqueens-check-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path).ok()?;
        #[cfg(unix)]
        let _ = std::fs::remove_file(&path);
        Some(Spill {
            out: std::io::BufWriter::with_capacity(1 << 16, file),
            end: 0,
            #[cfg(not(unix))]
            path,
        })
    }

    /// Appends `q`'s columns; returns where they start.
    fn push(&mut self, q: &[u32]) -> std::io::Result<u64> {
        use std::io::Write;
        let at = self.end;
        for &c in q {
            self.out.write_all(&c.to_le_bytes())?;
        }
        self.end += 4 * q.len() as u64;
        Ok(at)
    }

    /// Returns true if and only if the board written at `at` is `q`.
    fn holds(&mut self, at: u64, q: &[u32]) -> std::io::Result<bool> {
        use std::io::{Read, Seek, SeekFrom, Write};
        self.out.flush()?;
        let mut file = self.out.get_ref();
        file.seek(SeekFrom::Start(at))?;
        let mut reader = std::io::BufReader::with_capacity(1 << 16, file).take(4 * q.len() as u64);
        let mut same = true;
        let mut word = [0u8; 4];
        for &c in q {
            reader.read_exact(&mut word)?;
            same &= u32::from_le_bytes(word) == c;
        }
        drop(reader);
        file.seek(SeekFrom::End(0))?;
        Ok(same)
    }
}

#[cfg(not(unix))]
impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Digests {
    /// Returns the digest of `q`.
    fn digest(&self, q: &[u32]) -> u128 {
        use std::hash::BuildHasher;
        #[cfg(test)]
        if self.collide_all {
            return 7;
        }
        (u128::from(self.keys.0.hash_one(q)) << 64) | u128::from(self.keys.1.hash_one(q))
    }

    /// Records `q` first seen as `first`, or returns where it was seen before.
    ///
    /// # Errors
    /// The bytes asked for, if the table cannot grow.
    fn insert(
        &mut self,
        q: &[u32],
        first: First,
        bytes: impl Fn(usize) -> u64,
    ) -> Result<Option<First>, u64> {
        if let Some(&at) = self.collided.get(q) {
            return Ok(Some(at));
        }
        let digest = self.digest(q);
        if let Some(&(at, offset)) = self.table.get(&digest) {
            // Agreeing digests: the columns decide (the spill file holds the first board).
            match self.spill.as_mut().map(|s| s.holds(offset, q)) {
                Some(Ok(true)) => return Ok(Some(at)),
                Some(Ok(false)) => return self.keep_whole(q, first, &bytes).map(|()| None),
                // Unreadable: the board is kept whole, and every one after it.
                Some(Err(_)) | None => {
                    self.no_spill = true;
                    return self.keep_whole(q, first, &bytes).map(|()| None);
                }
            }
        }
        if self.spill.is_none() && !self.no_spill {
            self.spill = Spill::new();
            self.no_spill = self.spill.is_none();
        }
        let offset = match self.spill.as_mut().map(|s| s.push(q)) {
            Some(Ok(offset)) if !self.no_spill => offset,
            _ => {
                self.no_spill = true;
                return self.keep_whole(q, first, &bytes).map(|()| None);
            }
        };
        self.table.try_reserve(1).map_err(|_| bytes(self.table.len()))?;
        self.table.insert(digest, (first, offset));
        Ok(None)
    }

    /// Keeps `q` whole in memory.
    fn keep_whole(&mut self, q: &[u32], first: First, bytes: &impl Fn(usize) -> u64) -> Result<(), u64> {
        self.collided.try_reserve(1).map_err(|_| bytes(self.collided.len()) + 4 * q.len() as u64)?;
        self.collided.insert(q.into(), first);
        Ok(())
    }

    fn len(&self) -> usize {
        self.table.len() + self.collided.len()
    }
}

/// Where a repeated board was seen first.
enum Earlier {
    /// At this board number and line.
    At(First),
    /// Among the first `ordered` boards, which came as the solutions in order, the last of them
    /// at the place given (where, exactly, is not kept).
    Ordered(u64, First),
}

impl Seen {
    fn new(unique: bool) -> Seen {
        Seen { unique, in_order: true, ..Seen::default() }
    }

    /// Records `q` (a valid board, canonical with `unique`) first seen as `first`, or returns
    /// where it was seen before.
    ///
    /// # Errors
    /// The bytes asked for, if the table cannot grow.
    fn insert(&mut self, q: &[u32], first: First) -> Result<Option<Earlier>, u64> {
        if self.in_order && q.len() <= ORDERED_MAX_N {
            let mut expected = next_solution(q.len(), self.last.as_deref());
            while self.unique && expected.as_ref().is_some_and(|e| !canonical(e)) {
                expected = next_solution(q.len(), expected.as_deref());
            }
            if expected.as_deref() == Some(q) {
                match self.ordered {
                    0 => (self.first_at, self.contiguous) = (first, true),
                    1 => {
                        self.step = first.1.wrapping_sub(self.last_at.1);
                        self.contiguous = first.0 == self.last_at.0 + 1;
                    }
                    _ => {
                        self.contiguous &= first.0 == self.last_at.0 + 1
                            && first.1.wrapping_sub(self.last_at.1) == self.step;
                    }
                }
                self.ordered += 1;
                self.last = expected;
                self.last_at = first;
                return Ok(None);
            }
        }
        self.in_order = false;
        // Every solution up to the last one in order was listed. Where exactly follows from its
        // rank among them, counted when that is cheap (a million boards or fewer).
        if self.last.as_deref().is_some_and(|last| q <= last) {
            if self.contiguous && !self.unique && self.ordered <= ORDERED_RANKED {
                let rank = solutions_below(q) as u64;
                let line = if self.first_at.1 > 0 { self.first_at.1 + rank * self.step } else { 0 };
                return Ok(Some(Earlier::At((self.first_at.0 + rank, line))));
            }
            return Ok(Some(Earlier::Ordered(self.ordered, self.last_at)));
        }
        // A table that grows doubles: the buckets of twice the boards, 33 bytes each.
        let bytes = |len: usize| 33 * (2 * len as u64 + 2).next_power_of_two();
        if let Some(rank) = lehmer_rank(q) {
            if let Some(&at) = self.ranks.get(&rank) {
                return Ok(Some(Earlier::At(at)));
            }
            self.ranks.try_reserve(1).map_err(|_| bytes(self.ranks.len()))?;
            self.ranks.insert(rank, first);
        } else if let Some(at) = self.digests.insert(q, first, bytes)? {
            return Ok(Some(Earlier::At(at)));
        }
        Ok(None)
    }

    fn len(&self) -> usize {
        self.ordered as usize + self.ranks.len() + self.digests.len()
    }
}

/// The most boards in order a repeated one is placed among by its rank ([`solutions_below`]:
/// a count of up to this many solutions, milliseconds).
const ORDERED_RANKED: u64 = 1 << 20;

/// Returns the number of solutions of the `q.len()`×`q.len()` board (n ≤ 63) that come before
/// the solution `q` in lexicographic order: the completions of every prefix of `q` with a
/// smaller column in its last row, counted by the kernel.
fn solutions_below(q: &[u32]) -> u128 {
    let n = q.len() as u32;
    let full = crate::kernel::full_mask(n);
    let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
    let mut below = 0u128;
    for &c in q {
        let mut free = full & !(cols | ld | rd) & ((1u64 << c) - 1);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            below += u128::from(crate::kernel::count_completions::<false>(
                crate::arch::Level::best(),
                full,
                cols | bit,
                (ld | bit) << 1,
                (rd | bit) >> 1,
                &mut 0,
            ));
        }
        let bit = 1u64 << c;
        (cols, ld, rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    below
}

/// Returns the rank of the permutation `q` among the permutations of its length in
/// lexicographic order (its Lehmer code read as a factorial-base number), if it fits 128 bits
/// (n ≤ 34) and `q` is a permutation of `0..n`.
fn lehmer_rank(q: &[u32]) -> Option<u128> {
    let n = q.len();
    if n > 34 {
        return None;
    }
    let mut unused = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut rank = 0u128;
    for (i, &c) in q.iter().enumerate() {
        let below = (unused & ((1u64 << c) - 1)).count_ones() as u128;
        rank = rank * (n - i) as u128 + below;
        unused &= !(1u64 << c);
    }
    Some(rank)
}

/// Returns the smallest solution of the `n`×`n` board (n ≤ 64) greater than `after` in
/// lexicographic order, or the smallest of all when `after` is `None`; `None` when there is
/// none. A backtracking search from `after`'s rows: over a whole list, as much work as listing
/// the solutions on one thread.
fn next_solution(n: usize, after: Option<&[u32]>) -> Option<Vec<u32>> {
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut out = vec![0u32; n];
    /// Fills rows `r..` with the smallest completion of the masks, if any.
    fn complete(r: usize, full: u64, cols: u64, ld: u64, rd: u64, out: &mut [u32]) -> bool {
        if r == out.len() {
            return true;
        }
        let mut free = full & !(cols | ld | rd);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out[r] = bit.trailing_zeros();
            if complete(r + 1, full, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, out) {
                return true;
            }
        }
        false
    }
    let Some(after) = after else {
        return complete(0, full, 0, 0, 0, &mut out).then_some(out);
    };
    // The masks before each row of `after`.
    let mut masks = Vec::with_capacity(n);
    let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
    for &c in after {
        masks.push((cols, ld, rd));
        let bit = 1u64 << c;
        (cols, ld, rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    out.copy_from_slice(after);
    for r in (0..n).rev() {
        let (cols, ld, rd) = masks[r];
        let above = !((2u64 << after[r]).wrapping_sub(1)) & if after[r] >= 63 { 0 } else { u64::MAX };
        let mut free = full & !(cols | ld | rd) & above;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out[r] = bit.trailing_zeros();
            if complete(r + 1, full, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, &mut out) {
                return Some(out);
            }
        }
    }
    None
}

/// Returns true if and only if `q` is the lexicographically smallest board of its symmetry
/// class ([`crate::symmetry`]), for a board of any side.
fn canonical(q: &[u32]) -> bool {
    let n = q.len();
    if n <= 255 {
        let board: Vec<u8> = q.iter().map(|&c| c as u8).collect();
        return is_canonical_permutation(&board);
    }
    let mut image = vec![0u32; n];
    crate::symmetry::Symmetry::ALL[1..].iter().all(|s| {
        for (r, &c) in q.iter().enumerate() {
            let (r2, c2) = s.map(n, r, c as usize);
            image[r2] = c2 as u32;
        }
        q <= &image[..]
    })
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
    /// [`ReadError::OutOfMemory`] if the duplicate table cannot grow.
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
        let earlier = self.seen.insert(&q, first).map_err(|bytes| ReadError::OutOfMemory {
            line: line.unwrap_or(0),
            what: format!("the duplicate table of {} boards", self.seen.len() + 1),
            mib: bytes.div_ceil(1 << 20),
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
mod tests {
    use super::*;

    #[test]
    fn is_solution_accepts_exactly_the_solutions() {
        // Every board of n rows with a column per row (n^n of them): the solutions are exactly
        // the Q(n) boards of the independent backtracker (OEIS A000170).
        for n in 0..=6usize {
            let mut want = std::collections::HashSet::new();
            crate::reference::backtrack_each(n as u32, |q| {
                want.insert(q.iter().map(|&c| c as u8).collect::<Vec<u8>>());
            });
            let mut found = std::collections::HashSet::new();
            let mut board = vec![0u8; n];
            for code in 0..n.pow(n as u32) {
                let mut x = code;
                for c in board.iter_mut() {
                    *c = (x % n) as u8;
                    x /= n;
                }
                if is_solution(&board) {
                    found.insert(board.clone());
                }
            }
            assert_eq!(found, want, "n = {n}");
            assert_eq!(found.len() as u128, oeis::A000170.get(n as u32).unwrap(), "n = {n}");
        }
        assert!(!is_solution(&[0, 4]));
        assert!(!is_solution(&[0; 65]));
    }
    use crate::enumerate::{SolveOptions, write_solutions};

    fn run(text: &str, options: &CheckOptions) -> Report {
        check(text.as_bytes(), options).unwrap()
    }

    fn faults(report: &Report) -> Vec<String> {
        report.problems.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn every_listing_of_small_boards_checks_out_in_every_format() {
        for n in 1..=8 {
            for format in BoardFormat::ALL {
                for unique in [false, true] {
                    let mut out = Vec::new();
                    let options = SolveOptions { threads: 2, format, unique, ..Default::default() };
                    write_solutions(n, &options, &mut out).unwrap();
                    let text = String::from_utf8(out).unwrap();
                    let opts = CheckOptions { size: Some(n), unique, ..Default::default() };
                    let report = run(&text, &opts);
                    assert!(report.ok(), "n = {n}, {format}, unique = {unique}: {}", report.summary());
                    if n >= 4 {
                        assert_eq!(report.format, format);
                        let report = run(&text, &CheckOptions { unique, ..Default::default() });
                        assert!(report.ok(), "n = {n}, {format}: {}", report.summary());
                    }
                }
            }
        }
    }

    #[test]
    fn empty_lists() {
        assert!(run("", &CheckOptions { size: Some(2), ..Default::default() }).ok());
        assert!(run("[]\n", &CheckOptions { size: Some(3), ..Default::default() }).ok());
        let report = run("", &CheckOptions::default());
        assert!(!report.ok());
        assert!(report.summary().contains("an empty list does not tell its size"), "{}", report.summary());
        assert!(!run("", &CheckOptions { size: Some(4), ..Default::default() }).ok());
    }

    #[test]
    fn faults_are_named() {
        let report =
            run("2 4 1 3\n2 4 1 3\n1 3 x 2\n1 2 3 4\n2 2 4 1\n4 2 3 1\n5 1 2 3\n", &CheckOptions::default());
        assert_eq!(
            faults(&report),
            vec![
                "line 2: board 2: repeats board 1 (line 1)",
                "line 3: board 3: malformed: 'x' is not a column number (cols format: 1-based columns separated by spaces)",
                "line 4: board 4: the queens at row 1, column 1 and row 2, column 2 share a diagonal",
                "line 5: board 5: the queens at row 1, column 2 and row 2, column 2 share a column",
                "line 6: board 6: the queens at row 2, column 2 and row 3, column 3 share a diagonal",
                "line 7: board 7: row 1: column 5 is outside 1..=4",
            ]
        );
        assert_eq!(
            report.summary(),
            "4×4 boards (cols format): 7 read, 2 valid, 1 distinct, 6 problems; incomplete: 1 of the 2 solutions of n = 4 (OEIS A000170)"
        );
        let report = run("1 2 3\n", &CheckOptions::default());
        assert_eq!(
            faults(&report),
            ["line 1: board 1: the queens at row 1, column 1 and row 2, column 2 share a diagonal"]
        );
        let report = run("3 2 1\n", &CheckOptions::default());
        assert_eq!(
            faults(&report),
            ["line 1: board 1: the queens at row 1, column 3 and row 2, column 2 share an anti-diagonal"]
        );
    }

    #[test]
    fn board_format_faults() {
        let text = ".Q..\n...Q\nQ...\n..Q.\n\nQQ..\n...Q\nQ...\n..Q.\n\n.Q..\n...Q\nQ...\n\n.Q.\n...Q\nQ...\n..Q.\n\n\n.Q..\n..xQ\n";
        let report = run(text, &CheckOptions::default());
        assert_eq!(
            faults(&report),
            vec![
                "line 6: board 2: row 1 has 2 queens, not 1",
                "line 11: board 3: row 1 has 4 squares but the board has 3 rows",
                "line 15: board 4: row 1 has 3 squares but the board has 4 rows",
                "line 22: board 5: malformed: 'x' in row '..xQ' (a board row is Q and . only)",
            ]
        );
        let report = run("Q\n\n.Q..\n...Q\nQ...\n..Q.\n", &CheckOptions::default());
        assert_eq!(faults(&report), ["line 3: board 2: the board is 4×4 but the list is of 1×1 boards"]);
    }

    #[test]
    fn leetcode_faults_and_unreadable_input() {
        let report = run(
            r#"[[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."],["Q"]]"#,
            &CheckOptions::default(),
        );
        assert_eq!(faults(&report), ["board 3: the board is 1×1 but the list is of 4×4 boards"]);
        let err = check(&b"[[\".Q..\"],"[..], &CheckOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 10: not a leetcode list (a JSON array of arrays of strings): expected a board (an array of strings), found the end of the input"
        );
        let err = check(&b"[\n[1, 2]]"[..], &CheckOptions::default()).unwrap_err();
        assert!(err.to_string().starts_with("line 2, column 2: not a leetcode list"), "{err}");
        let err = check(&b"\n\nhello\n"[..], &CheckOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: cannot tell the format from 'hello': expected rows of Q and . (board), 1-based columns (cols) or a JSON array (leetcode)"
        );
        let err = check(&b"1 2\n\xff\xfe\n"[..], &CheckOptions::default()).unwrap_err();
        assert_eq!(err.to_string(), "line 2: not UTF-8 text");
        let forced = CheckOptions { format: Some(BoardFormat::Board), ..Default::default() };
        assert!(run("2 4 1 3\n", &forced).problems[0].to_string().contains("'2' in row '2 4 1 3'"));
    }

    #[test]
    fn the_list_is_sized_by_its_first_valid_board() {
        // A 70-column first line (issue 15) does not make 92 good boards of 8 "mixed size".
        let mut out = Vec::new();
        let options = SolveOptions { threads: 1, format: BoardFormat::Cols, ..Default::default() };
        write_solutions(8, &options, &mut out).unwrap();
        let first: Vec<String> = (1..=70).map(|c| c.to_string()).collect();
        let text = format!("{}\n{}", first.join(" "), String::from_utf8(out).unwrap());
        let report = run(&text, &CheckOptions::default());
        assert_eq!(
            report.summary(),
            "8×8 boards (cols format): 93 read, 92 valid, 92 distinct, 1 problem; complete: all 92 solutions of n = 8 (OEIS A000170)"
        );
        assert_eq!(
            faults(&report),
            ["line 1: board 1: the queens at row 1, column 1 and row 2, column 2 share a diagonal"]
        );
        // A board with an attack first does not size the list either.
        let report = run("1 2 3\n2 4 1 3\n3 1 4 2\n", &CheckOptions::default());
        assert_eq!(report.n, Some(4));
        assert_eq!(report.valid, 2);
    }

    #[test]
    fn an_input_of_only_malformed_boards_says_so() {
        let report = run("1 x\n1 y\n", &CheckOptions::default());
        assert_eq!(
            report.summary(),
            "no valid board (cols format): 2 read, 0 valid, 0 distinct, 2 problems; completeness unknown: no valid board gives the list's size"
        );
    }

    #[test]
    fn control_characters_are_escaped_and_a_bom_is_skipped() {
        let report = run("2 4 \u{1b}]0;owned\u{7} 3\n", &CheckOptions::default());
        let text = faults(&report).join("\n");
        assert!(!text.chars().any(|c| c.is_control()), "{text:?}");
        assert!(text.contains("'\\u{1b}]0;owned\\u{7}' is not a column number"), "{text}");
        let report = run(".Q\u{1b}[2J\n", &CheckOptions::default());
        assert!(faults(&report)[0].contains("'\\u{1b}' in row '.Q\\u{1b}[2J'"), "{:?}", faults(&report));
        let report = run("[[\"Q\\u001b\"]]", &CheckOptions::default());
        assert!(faults(&report)[0].contains("'\\u{1b}' in row 'Q\\u{1b}'"), "{:?}", faults(&report));
        let err = check("\u{1b}]0;x\u{7}\n".as_bytes(), &CheckOptions::default()).unwrap_err().to_string();
        assert!(err.contains("from '\\u{1b}]0;x\\u{7}'"), "{err}");
        for text in
            ["\u{feff}2 4 1 3\n3 1 4 2\n", "\u{feff}\n.Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"]
        {
            let report = run(text, &CheckOptions::default());
            assert!(report.ok(), "{}", report.summary());
        }
        let report = run(
            "\u{feff}[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]",
            &CheckOptions::default(),
        );
        assert!(report.ok(), "{}", report.summary());
    }

    #[test]
    fn memory_is_bounded_by_the_board_not_the_input() {
        // A block of more rows than its first row has squares (63 at least) is one malformed
        // board.
        let text = "QQ\n".repeat(1000);
        let report = run(&text, &CheckOptions::default());
        assert_eq!(
            faults(&report),
            [
                "line 1: board 1: malformed: more than 63 rows without a blank line, where its first row has 2 squares (is a blank line missing between boards?)"
            ]
        );
        // A cols line of any length is a board (issue 23: 1,024 bytes were the most); one of
        // garbage stops being kept at its first two queens on a line.
        let long = format!("{}\n", "1 ".repeat(100_000));
        assert_eq!(
            faults(&run(&long, &CheckOptions::default())),
            ["line 1: board 1: the queens at row 1, column 1 and row 2, column 1 share a column"]
        );
        let ok = format!("{:<1024}\n", "2 4 1 3");
        assert!(run(&ok, &CheckOptions::default()).valid == 1);
        // A leetcode row of any length streams: counted, not kept.
        let text = format!("[[\"{}\"],[\"Q\"]]", ".".repeat(100_000));
        let report = run(&text, &CheckOptions::default());
        assert_eq!(faults(&report)[0], "board 1: row 1 has 100000 squares but the board has 1 rows");
        let text = format!("[[{}]]", vec!["\"Q\""; 64].join(","));
        assert!(faults(&run(&text, &CheckOptions::default()))[0].contains("more than 63 rows"));
        // Errors in the leetcode stream name line and column.
        let err = check(&b"[[\"Q\"]] x"[..], &CheckOptions::default()).unwrap_err().to_string();
        assert!(
            err.starts_with("line 1, column 9: ") && err.ends_with("trailing 'x' after the list"),
            "{err}"
        );
        let err = check(&b"[[\"Q\" \"Q\"]]"[..], &CheckOptions::default()).unwrap_err().to_string();
        assert!(err.ends_with("expected ',' or ']', found '\"'"), "{err}");
        let err = check(&b"[[\"Q\xff\"]]"[..], &CheckOptions::default()).unwrap_err().to_string();
        assert_eq!(err, "line 1: not UTF-8 text");
        let report = run("[[\"\\u0051\"], [\"\u{e9}\"]]", &CheckOptions::default());
        assert_eq!(
            faults(&report),
            ["board 2: malformed: '\u{e9}' in row '\u{e9}' (a board row is Q and . only)"]
        );
    }

    /// Issue 23: `solve 100 --any | check` said "more than 63 rows", `--size 100` was refused,
    /// and `is_solution` of the n = 1000 board of `construct` (converted to bytes) was false.
    #[test]
    fn boards_of_any_side_are_checked() {
        for n in [64u64, 65, 100, 1000, 4099] {
            let board = crate::construct::any_solution(n).unwrap();
            assert!(is_solution(&board), "n = {n}");
            let wide: Vec<u32> = board.iter().map(|&c| c as u32).collect();
            assert!(is_solution(&wide), "n = {n}");
            for format in BoardFormat::ALL {
                let mut out = Vec::new();
                crate::construct::write_any(n, format, &mut out).unwrap();
                let text = String::from_utf8(out).unwrap();
                let report = run(&text, &CheckOptions { size: Some(n as u32), ..Default::default() });
                assert_eq!(
                    report.summary(),
                    format!(
                        "{n}×{n} boards ({format} format): 1 read, 1 valid, 1 distinct, 0 problems; completeness unknown: the number of solutions of n = {n} is not tabulated"
                    )
                );
                assert!(report.ok_partial());
            }
            // Two rows swapped: the pair that attacks is named, however far apart.
            let mut bad = board.clone();
            bad.swap(0, 1);
            assert!(!is_solution(&bad));
            let line: Vec<String> = bad.iter().map(|c| (c + 1).to_string()).collect();
            let report = run(&line.join(" "), &CheckOptions::default());
            assert_eq!(report.problem_count, 1, "n = {n}");
            assert!(
                faults(&report)[0].starts_with("line 1: board 1: the queens at row "),
                "{:?}",
                faults(&report)
            );
            // A column beyond the board.
            let mut off = board.clone();
            off[n as usize - 1] = n;
            assert!(!is_solution(&off));
        }
        // Negative columns (signed types) are off every board.
        assert!(!is_solution(&[-1i32, 1]));
        assert!(is_solution::<i64>(&[]));
    }

    /// Issue 23: a complete list in lexicographic order is checked without a table; a board out
    /// of that order repeats one of them or starts the table.
    #[test]
    fn an_ordered_list_needs_no_table() {
        let list = |n: u32, unique: bool| {
            let mut out = Vec::new();
            let options =
                SolveOptions { threads: 2, format: BoardFormat::Cols, unique, ..Default::default() };
            write_solutions(n, &options, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        for n in 0..=10 {
            let size = Some(n);
            let report = run(&list(n, false), &CheckOptions { size, ..Default::default() });
            assert!(report.ok(), "n = {n}: {}", report.summary());
            let report = run(&list(n, true), &CheckOptions { size, unique: true, ..Default::default() });
            // A002562 starts at n = 1.
            assert_eq!(report.ok(), n > 0, "n = {n} unique: {}", report.summary());
        }
        let eight = list(8, false);
        let lines: Vec<&str> = eight.lines().collect();
        // The last board again: one of the 92 before it.
        let again = format!("{eight}{}\n", lines[91]);
        assert_eq!(
            faults(&run(&again, &CheckOptions::default())),
            ["line 93: board 93: repeats board 92 (line 92)"]
        );
        // Reversed: a table from the second board on, every board distinct and the list complete.
        let reversed: String = lines.iter().rev().map(|l| format!("{l}\n")).collect();
        assert!(run(&reversed, &CheckOptions::default()).ok());
        // A gap, then a board from before the gap: a repeat found in the table or the order.
        let gap = format!("{}\n{}\n{}\n{}\n", lines[0], lines[2], lines[1], lines[2]);
        assert_eq!(
            faults(&run(&gap, &CheckOptions::default())),
            ["line 4: board 4: repeats board 2 (line 2)"]
        );
        let gap = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[0]);
        assert_eq!(
            faults(&run(&gap, &CheckOptions::default())),
            ["line 3: board 3: repeats board 1 (line 1)"]
        );
        assert_eq!(next_solution(3, None), None);
        assert_eq!(next_solution(4, Some(&[1, 3, 0, 2])), Some(vec![2, 0, 3, 1]));
        assert_eq!(next_solution(4, Some(&[2, 0, 3, 1])), None);
        assert_eq!(lehmer_rank(&[0, 1, 2]), Some(0));
        assert_eq!(lehmer_rank(&[2, 1, 0]), Some(5));
        // The rank among the solutions is the place in the list.
        for (k, l) in lines.iter().enumerate() {
            let q: Vec<u32> = l.split(' ').map(|c| c.parse::<u32>().unwrap() - 1).collect();
            assert_eq!(solutions_below(&q), k as u128);
        }
        // With --unique the place of a repeat is not counted: the range is named.
        let unique = list(8, true);
        let again = format!("{unique}{}\n", unique.lines().nth(3).unwrap());
        assert_eq!(
            faults(&run(&again, &CheckOptions { unique: true, ..Default::default() })),
            [
                "line 13: board 13: repeats one of the 12 boards in lexicographic order up to board 12 (line 12), which were every solution up to there"
            ]
        );
    }

    #[test]
    fn unique_lists_need_canonical_boards() {
        let opts = CheckOptions { unique: true, ..Default::default() };
        let report = run("2 4 1 3\n", &opts);
        assert!(report.ok(), "{}", report.summary());
        let report = run("3 1 4 2\n", &opts);
        assert_eq!(
            faults(&report),
            ["line 1: board 1: not the lexicographically smallest board of its symmetry class"]
        );
    }

    /// The linear solution q[r] = (a·r + b) mod n of a prime n > 3 (a, a − 1 and a + 1 prime to
    /// n): many distinct boards of one large side.
    fn linear(n: u32, a: u32, b: u32) -> Vec<u32> {
        (0..n).map(|r| (a * r + b) % n).collect()
    }

    /// Issue 32, finding 5: boards past a 128-bit rank (n > 34) are remembered by digest, not
    /// whole; repeats are still found, with where they were first seen.
    #[test]
    fn large_boards_are_remembered_by_digest() {
        let mut seen = Seen::new(false);
        let boards: Vec<Vec<u32>> = (0..50).map(|b| linear(37, 2 + b % 5, b)).collect();
        for (i, q) in boards.iter().enumerate() {
            assert!(crate::is_solution(q));
            assert!(matches!(seen.insert(q, (i as u64 + 1, 0)), Ok(None)), "board {i}");
        }
        assert_eq!((seen.len(), seen.digests.table.len(), seen.digests.collided.len()), (50, 50, 0));
        for (i, q) in boards.iter().enumerate().rev() {
            let Ok(Some(Earlier::At(at))) = seen.insert(q, (99, 0)) else {
                panic!("board {i} not found again")
            };
            assert_eq!(at, (i as u64 + 1, 0));
        }
        assert_eq!(seen.len(), 50);
    }

    /// Issue 32, finding 5: two boards whose digests agree are told apart by the spill file; a
    /// digest that matches every board (forced here) still finds exactly the repeats.
    #[test]
    fn agreeing_digests_are_rechecked_against_the_spill_file() {
        let mut seen = Seen::new(false);
        seen.digests.collide_all = true;
        let (a, b, c) = (linear(37, 2, 0), linear(37, 2, 1), linear(41, 3, 5));
        assert!(matches!(seen.insert(&a, (1, 1)), Ok(None)));
        assert!(matches!(seen.insert(&b, (2, 2)), Ok(None)));
        assert!(matches!(seen.insert(&c, (3, 3)), Ok(None)));
        assert_eq!((seen.digests.table.len(), seen.digests.collided.len()), (1, 2));
        assert!(matches!(seen.insert(&a, (4, 4)), Ok(Some(Earlier::At((1, 1))))));
        assert!(matches!(seen.insert(&b, (5, 5)), Ok(Some(Earlier::At((2, 2))))));
        assert!(matches!(seen.insert(&c, (6, 6)), Ok(Some(Earlier::At((3, 3))))));
        assert_eq!(seen.len(), 3);
        // The spill file holds a's columns, 4 bytes each, and is read back as written.
        let spill = seen.digests.spill.as_mut().unwrap();
        assert_eq!(spill.end, 4 * 37);
        assert!(spill.holds(0, &a).unwrap() && !spill.holds(0, &b).unwrap());
    }
}

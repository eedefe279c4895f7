//! What [`check`](fn@super::check) finds: each board's [`Fault`], the [`Problem`]s of a list and
//! its [`Report`].

use std::fmt;

use crate::attack::Line;
use crate::boards::BoardFormat;

/// The most problems a [`Report`] keeps word for word; the rest are only counted.
pub const MAX_PROBLEMS_KEPT: usize = 1000;

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

/// What [`check`](fn@super::check) found.
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
    /// ([`CheckOptions::size`](super::CheckOptions::size)).
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

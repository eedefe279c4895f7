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
//! Every format is read as it streams in (lines of at most [`crate::boards::MAX_LINE`] bytes,
//! boards of at most [`crate::MAX_N`] rows kept, a leetcode array parsed byte by byte), so memory
//! grows with the number of distinct valid boards (about 40–70 bytes each for n ≤ 21, for the
//! duplicate check), never with the input's bytes. What the report echoes of the input has its
//! control characters escaped ([`crate::boards::escape_controls`]).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::io::BufRead;

use crate::boards::decode::{self, Board, RawBoard, Row};
use crate::boards::{BoardFormat, ReadError};
use crate::oeis;
use crate::symmetry::is_canonical;

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

/// The way two queens attack each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// The same column.
    Column,
    /// The same diagonal (row − column equal).
    Diagonal,
    /// The same anti-diagonal (row + column equal).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        })
    }
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

    /// Returns the one-line summary: sizes, counts and completeness.
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
                "completeness unknown: no valid board gives the list's size (give --size N)".to_string()
            }
            (None, _) => "completeness unknown: give --size N for an empty list".to_string(),
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

/// Returns true if and only if `board` is a solution of the n-queens problem on the n×n board,
/// n = `board.len()`: `board[r]` is the 0-based column of the queen in row `r`, every column is
/// below n, and no two queens share a column, diagonal or anti-diagonal. The empty board (n = 0)
/// is the one solution of n = 0 (OEIS A000170); boards of more than 64 rows are not solutions
/// this crate can hold and return false. No allocation.
///
/// # Examples
/// ```
/// assert!(nqueens::is_solution(&[1, 3, 0, 2]));
/// assert!(!nqueens::is_solution(&[0, 2, 1, 3])); // (1, 2) and (2, 1) share an anti-diagonal
/// assert!(!nqueens::is_solution(&[0, 4])); // column 4 is off a 2×2 board
/// ```
pub fn is_solution(board: &[u8]) -> bool {
    let n = board.len();
    n <= 64
        && board.iter().all(|&c| usize::from(c) < n)
        && attack_free(board.iter().map(|&c| usize::from(c)), n)
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
/// The list is read as [`crate::boards`] decodes it, with flat memory whatever the input (see
/// [`crate::boards::MAX_LINE`]); only the duplicate check grows, with the number of distinct
/// valid boards. A UTF-8 byte order mark at the start is skipped.
///
/// # Errors
/// [`CheckError`] when the input cannot be read at all: an I/O error, text that is not UTF-8, a
/// format that cannot be detected, a line longer than [`crate::boards::MAX_LINE`] in the board
/// or cols format, a leetcode list that is not valid JSON of the right shape, or
/// [`BoardFormat::Raw`] given as the format. Malformed lines of a readable list are problems in the [`Report`], with their
/// line numbers, not errors.
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
    let format = decode::read(input, options.format, &mut |line, board| checker.add(line, board))?;
    checker.format = format;
    Ok(checker.finish())
}

/// Where a board was first seen: its 1-based number and first line (0 when unknown), as `u64`
/// so that an entry of [`Seen::packed`] takes 32 bytes.
type First = (u64, u64);

/// The distinct boards so far, for the duplicate check. Boards of n ≤ 21 are keyed by their
/// columns packed 6 bits each into a `u128` (with a leading 1 bit), about 40–70 bytes per
/// distinct board with the hash table's slack.
#[derive(Default)]
struct Seen {
    packed: HashMap<u128, First>,
    long: HashMap<Box<[u8]>, First>,
}

impl Seen {
    /// Records `q` first seen as `first`, or returns where it was first seen.
    fn insert(&mut self, q: &[u8], first: First) -> Option<First> {
        if q.len() <= 21 {
            match self.packed.entry(q.iter().fold(1u128, |k, &c| (k << 6) | c as u128)) {
                Entry::Occupied(e) => Some(*e.get()),
                Entry::Vacant(e) => {
                    e.insert(first);
                    None
                }
            }
        } else {
            match self.long.entry(q.into()) {
                Entry::Occupied(e) => Some(*e.get()),
                Entry::Vacant(e) => {
                    e.insert(first);
                    None
                }
            }
        }
    }

    fn len(&self) -> usize {
        self.packed.len() + self.long.len()
    }
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

impl Checker {
    fn new(options: &CheckOptions) -> Checker {
        Checker {
            options: *options,
            format: BoardFormat::Cols,
            n: options.size.map(|n| n as usize),
            boards: 0,
            valid: 0,
            seen: Seen::default(),
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
    fn add(&mut self, line: Option<usize>, raw: RawBoard) {
        self.boards += 1;
        let q = match raw.map_err(|reason| Fault::Malformed { reason }).and_then(|board| self.validate(board))
        {
            Ok(q) => q,
            Err(fault) => return self.problem(line, fault),
        };
        if self.options.unique && !is_canonical(&q) {
            return self.problem(line, Fault::NotCanonical);
        }
        self.valid += 1;
        let first = (self.boards as u64, line.unwrap_or(0) as u64);
        if let Some((of, first_line)) = self.seen.insert(&q, first) {
            let line_of = (first_line > 0).then_some(first_line as usize);
            self.problem(line, Fault::Duplicate { of: of as usize, line: line_of });
        }
    }

    /// Turns a board as read into a solution (0-based column per row), or the first fault.
    fn validate(&mut self, board: Board) -> Result<Vec<u8>, Fault> {
        let q: Vec<usize> = match board {
            Board::Cols(cols) => {
                let n = cols.len();
                // A short or long line among boards of a known side: its length is what is
                // wrong, not a column beyond it.
                if let Some(expected) = self.n.filter(|&e| e != n) {
                    return Err(Fault::ColumnCount { columns: n, expected });
                }
                let on_board = |(r, &col): (usize, &u64)| {
                    if col == 0 || col > n as u64 {
                        Err(Fault::OffBoard { row: r + 1, col, n })
                    } else {
                        Ok(col as usize - 1)
                    }
                };
                cols.iter().enumerate().map(on_board).collect::<Result<_, _>>()?
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
                    q.push(col);
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
        if size > crate::MAX_N as usize {
            return Err(Fault::Malformed {
                reason: format!(
                    "a board of side {size} is larger than the {} this program handles",
                    crate::MAX_N
                ),
            });
        }
        // One pass with the kernel's masks; only a failing board looks for the attacking pair.
        if !attack_free(q.iter().copied(), size) {
            for b in 1..size {
                for a in 0..b {
                    let line = if q[a] == q[b] {
                        Line::Column
                    } else if b - a == q[b].abs_diff(q[a]) {
                        if q[b] > q[a] { Line::Diagonal } else { Line::AntiDiagonal }
                    } else {
                        continue;
                    };
                    return Err(Fault::Attack { a: (a + 1, q[a] + 1), b: (b + 1, q[b] + 1), line });
                }
            }
        }
        self.n.get_or_insert(size);
        Ok(q.into_iter().map(|c| c as u8).collect())
    }

    fn finish(self) -> Report {
        let n = self.n;
        let expected = n.and_then(|n| {
            let table = if self.options.unique { oeis::A002562 } else { oeis::A000170 };
            table.get(n as u32).map(|v| (v, table.name))
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
    use crate::boards::MAX_LINE;

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
        assert!(report.summary().contains("give --size N"), "{}", report.summary());
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
            ["line 1: board 1: malformed: a board of side 70 is larger than the 63 this program handles"]
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
            "no valid board (cols format): 2 read, 0 valid, 0 distinct, 2 problems; completeness unknown: no valid board gives the list's size (give --size N)"
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
        // A block of more rows than any board has is one malformed board.
        let text = "QQ\n".repeat(1000);
        let report = run(&text, &CheckOptions::default());
        assert_eq!(
            faults(&report),
            [
                "line 1: board 1: malformed: more than 63 rows without a blank line: a board has at most 63 rows (is a blank line missing between boards?)"
            ]
        );
        // A line longer than any board needs is refused, in the board and cols formats.
        let long = format!("{}\n", "1 ".repeat(MAX_LINE));
        let err = check(long.as_bytes(), &CheckOptions::default()).unwrap_err();
        assert_eq!(err.to_string(), "line 1 is longer than 1024 bytes: not a list of boards");
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
}

//! What every format's reader shares: why a list cannot be read ([`ReadError`]), the boards as
//! read ([`Board`]) and the [`Sink`] they go to, and line-by-line reading without holding a line.

use std::fmt;
use std::io::{self, BufRead};

use crate::attack::Line;

/// Why a list of boards could not be read at all (`nqueens check` exits 2).
#[derive(Debug)]
pub enum ReadError {
    /// The input could not be read.
    Io(io::Error),
    /// A line is not UTF-8 text.
    NotText {
        /// The 1-based line number.
        line: usize,
    },
    /// The format could not be told from the first non-blank line.
    UnknownFormat {
        /// The 1-based line number.
        line: usize,
        /// The start of that line.
        start: String,
    },
    /// A leetcode list is not a JSON array of arrays of strings.
    Json {
        /// The 1-based line of the error.
        line: usize,
        /// The 1-based column of the error.
        column: usize,
        /// serde_json's description.
        reason: String,
    },
    /// The format was given as raw, which has no text form.
    RawFormat,
    /// What checking the list needs does not fit in the memory available to the process.
    OutOfMemory {
        /// The 1-based line where it was needed.
        line: usize,
        /// What needs the memory: "the board's 100000000 columns", "the duplicate table".
        what: String,
        /// The memory asked for, in MiB.
        mib: u64,
    },
    /// The duplicate check's spill file (the boards past its budget in memory,
    /// `check::SPILL_AFTER_BYTES`) could not be made, written or read back in the temporary
    /// folder: a full, missing or read-only `TMPDIR`. No verdict is given, since a board whose
    /// columns were lost could not be told from a later one.
    Spill {
        /// The 1-based line where it failed.
        line: usize,
        /// The duplicate check's budget in memory, in MiB.
        budget_mib: u64,
        /// The temporary folder (`std::env::temp_dir()`, `TMPDIR` on Unix).
        dir: std::path::PathBuf,
        /// The I/O error.
        error: io::Error,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the input: {e}"),
            ReadError::NotText { line } => write!(f, "line {line}: not UTF-8 text"),
            ReadError::UnknownFormat { line, start } => write!(
                f,
                "line {line}: cannot tell the format from '{start}': expected rows of Q and . (board), \
                 1-based columns (cols) or a JSON array (leetcode)"
            ),
            ReadError::Json { line, column, reason } => write!(
                f,
                "line {line}, column {column}: not a leetcode list (a JSON array of arrays of strings): {reason}"
            ),
            ReadError::RawFormat => {
                f.write_str("the raw format cannot be checked: use board, leetcode or cols")
            }
            ReadError::OutOfMemory { line, what, mib } => {
                write!(
                    f,
                    "line {line}: {what} would need about {mib} MiB, which this process cannot allocate"
                )
            }
            ReadError::Spill { line, budget_mib, dir, error } => write!(
                f,
                "line {line}: the duplicate check keeps the boards past its first {budget_mib} MiB in a file in \
                 the temporary folder {}, which failed: {error}: set TMPDIR to a folder with room (4 bytes a \
                 row of each board)",
                crate::boards::escape_controls(&dir.display().to_string()),
            ),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) | ReadError::Spill { error: e, .. } => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// One row of the board and leetcode formats as read: its queens, the 0-based column of the
/// first, its squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// The number of `Q`s.
    pub queens: usize,
    /// The 0-based column of the first `Q` (0 when there is none).
    pub col: usize,
    /// The number of squares (characters).
    pub len: usize,
}

/// A line of the cols format as read: its columns as written (1-based), kept up to the first one
/// that shows the board invalid whatever its side ([`ColsLine::stop`]), and how many there are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColsLine {
    /// The columns kept, 1-based as written, row 0 first.
    pub cols: Vec<u32>,
    /// The number of columns on the line (the board's side), all counted.
    pub count: usize,
    /// The column where keeping stopped, if it did. `None` also when the line only ran past the
    /// list's side: then `cols` holds the columns up to there.
    pub stop: Option<ColsStop>,
}

/// Where a cols line stopped being kept: a column that shows the board invalid whatever its
/// side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColsStop {
    /// Its 1-based row.
    pub row: usize,
    /// Its value as written (0 or beyond 2^32 − 1: off every board).
    pub col: u64,
    /// The earlier queen it attacks: 1-based row, 1-based column, and how.
    pub attacker: Option<(usize, u32, Line)>,
}

/// One board as read, before it is judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// A line of the cols format.
    Cols(ColsLine),
    /// A board of the board or leetcode format: its rows.
    Rows(Vec<Row>),
}

/// A board as read, or the reason its text is not a board of its format.
pub type RawBoard = Result<Board, String>;

/// What the boards of a list are told to as they are read.
pub trait Sink {
    /// Takes one board as read, with its first line (1-based; `None` in the leetcode format).
    ///
    /// # Errors
    /// A [`ReadError`] that ends the reading (memory that cannot be allocated).
    fn board(&mut self, line: Option<usize>, board: RawBoard) -> Result<(), ReadError>;

    /// Returns the side of the list's boards, if known: a cols line is not kept past it. A side
    /// of 0 makes a blank cols line the empty board (`solve 0 --format cols` writes one).
    fn side(&self) -> Option<usize>;
}

/// Returns the next byte of `input`, or `None` at its end.
pub(super) fn next_byte(input: &mut impl BufRead) -> Result<Option<u8>, ReadError> {
    loop {
        match input.fill_buf() {
            Ok([]) => return Ok(None),
            Ok(buf) => {
                let b = buf[0];
                input.consume(1);
                return Ok(Some(b));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
}

/// Returns `text` with its control characters (and the Unicode controls of text direction)
/// escaped as `\u{1b}`, so that a report never sends a terminal escape sequence of the input
/// to the terminal.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || bidi {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Line-by-line reading, one character at a time (no line is held), with the 1-based number of
/// the last line read.
pub(super) struct Lines<'a, R: BufRead> {
    pub(super) input: &'a mut R,
    pub(super) number: usize,
}

impl<R: BufRead> Lines<'_, R> {
    /// Hands the characters of the next line to `each` (without its `\n`, nor a `\r` before
    /// it) and returns whether the line is blank (whitespace only), or `None` at the end of
    /// the input.
    pub(super) fn line(&mut self, each: &mut impl FnMut(char)) -> Result<Option<bool>, ReadError> {
        let mut any = false;
        let mut blank = true;
        let mut cr = false;
        // A character of several bytes, possibly split between two reads.
        let (mut utf8, mut have, mut need) = ([0u8; 4], 0usize, 0usize);
        self.number += 1;
        let not_text = |line| ReadError::NotText { line };
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError::Io(e)),
            };
            if buf.is_empty() {
                if need > 0 {
                    return Err(not_text(self.number));
                }
                if cr {
                    each('\r');
                    blank = false;
                }
                return Ok(any.then_some(blank));
            }
            any = true;
            let mut used = 0;
            let mut end = false;
            for &b in buf {
                used += 1;
                if need > 0 {
                    if b & 0xC0 != 0x80 {
                        return Err(not_text(self.number));
                    }
                    utf8[have] = b;
                    have += 1;
                    if have == need {
                        let c = std::str::from_utf8(&utf8[..need])
                            .ok()
                            .and_then(|s| s.chars().next())
                            .ok_or_else(|| not_text(self.number))?;
                        blank &= c.is_whitespace();
                        each(c);
                        need = 0;
                    }
                    continue;
                }
                if cr {
                    cr = false;
                    if b == b'\n' {
                        end = true;
                        break;
                    }
                    blank = false;
                    each('\r');
                }
                match b {
                    b'\n' => {
                        end = true;
                        break;
                    }
                    b'\r' => cr = true,
                    0..0x80 => {
                        blank &= b.is_ascii_whitespace() || b == b'\x0b';
                        each(b as char);
                    }
                    _ => {
                        need = match b {
                            0xC2..=0xDF => 2,
                            0xE0..=0xEF => 3,
                            0xF0..=0xF4 => 4,
                            _ => return Err(not_text(self.number)),
                        };
                        utf8[0] = b;
                        have = 1;
                    }
                }
            }
            self.input.consume(used);
            if end {
                if need > 0 {
                    return Err(not_text(self.number));
                }
                return Ok(Some(blank));
            }
        }
    }
}

//! Decoding lists of boards as they stream in: the board, leetcode and cols formats (see
//! [`super`]), read byte by byte without holding a line, and told board by board, each as
//! written ([`Board`]: its columns or its rows), for the checker ([`crate::check`]) to judge.
//!
//! A board of any side is read (what `nqueens solve --any` writes goes up to 2^32 − 1): memory
//! grows with the side of the board being read, never with the bytes of the input. A cols line
//! keeps its columns (4 bytes each) until one of them shows the board invalid whatever its side
//! (a column of 0 or beyond 2^32 − 1, or two queens on one line among the first columns read,
//! found with a few bits a row: [`crate::attack::Occupancy`]), or until it has more columns than
//! the list's boards ([`Sink::side`]); the rest of the line is only counted. A block of the
//! board format (a board of the leetcode format) keeps at most as many rows as its first row
//! has squares, and 63 at least; a longer block is one malformed board, read to its end without
//! being kept.

use std::fmt;
use std::io::{self, BufRead};

use super::BoardFormat;
use crate::attack::{Line, Occupancy};

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
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
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

/// The fewest rows a block of the board format (a board of the leetcode format) keeps, whatever
/// its first row: more than this many rows of a shorter first row are said to be too many.
pub const MIN_ROWS_KEPT: usize = 63;

/// Reads a list of boards in `format` (detected from its first non-blank character when
/// `None`: `[` leetcode, a digit cols, `Q` or `.` board) as it streams in, and hands each board
/// to `sink` as read, with its first line (1-based; `None` in the leetcode format), or the
/// reason its text is not a board of the format. Returns the format read (cols for an empty
/// input without one).
///
/// Memory grows with the side of the board being read, never with the input's bytes (see the
/// module docs). A UTF-8 byte order mark at the start is skipped.
///
/// # Errors
/// [`ReadError`] when the input cannot be read at all: an I/O error, text that is not UTF-8, a
/// format that cannot be detected, a leetcode list that is not valid JSON of the right shape,
/// [`BoardFormat::Raw`] given as the format, memory for a board that cannot be allocated, or
/// what `sink` returns. Malformed boards of a readable list go to `sink`, not here.
pub fn read(
    mut input: impl BufRead,
    format: Option<BoardFormat>,
    sink: &mut dyn Sink,
) -> Result<BoardFormat, ReadError> {
    if format == Some(BoardFormat::Raw) {
        return Err(ReadError::RawFormat);
    }
    // The first non-blank byte decides the format; the blank lines before it are counted, not
    // kept (a UTF-8 byte order mark first is skipped).
    let mut skipped_lines = 0;
    let mut at_start = true;
    let first = loop {
        let Some(b) = next_byte(&mut input)? else { break None };
        if at_start && b == 0xEF {
            let (b2, b3) = (next_byte(&mut input)?, next_byte(&mut input)?);
            if (b2, b3) == (Some(0xBB), Some(0xBF)) {
                at_start = false;
                continue;
            }
            break Some([Some(b), b2, b3]);
        }
        at_start = false;
        match b {
            b'\n' => {
                skipped_lines += 1;
                // A blank cols line is the empty board of a list of n = 0.
                if sink.side() == Some(0) && format.is_none_or(|f| f == BoardFormat::Cols) {
                    sink.board(Some(skipped_lines), Ok(Board::Cols(ColsLine::default())))?;
                }
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {}
            _ => break Some([Some(b), None, None]),
        }
    };
    let Some(first) = first else {
        return Ok(format.unwrap_or(BoardFormat::Cols));
    };
    // The bytes read ahead, then the rest of the input.
    let head: Vec<u8> = first.iter().flatten().copied().collect();
    let mut input = io::Read::chain(io::Cursor::new(head), input);
    let line_no = skipped_lines + 1;
    let format = match format {
        Some(f) => f,
        None => match BoardFormat::detect(&String::from_utf8_lossy(&[first[0].unwrap_or_default()])) {
            Some(f) => f,
            None => {
                // Up to 80 bytes of the line, to show what it starts with.
                let mut start = Vec::new();
                io::Read::take(&mut input, 80).read_until(b'\n', &mut start)?;
                let start = String::from_utf8_lossy(&start);
                return Err(ReadError::UnknownFormat {
                    line: line_no,
                    start: escape_controls(&start.trim().chars().take(20).collect::<String>()),
                });
            }
        },
    };
    let mut lines = Lines { input: &mut input, number: skipped_lines };
    match format {
        BoardFormat::Cols => {
            let mut scan = ColsScan::default();
            loop {
                scan.start(sink.side());
                let Some(blank) = lines.line(&mut |c| scan.push(c))? else { break };
                let line = lines.number;
                if !blank {
                    let raw = scan.finish(line)?;
                    sink.board(Some(line), raw)?;
                } else if sink.side() == Some(0) {
                    sink.board(Some(line), Ok(Board::Cols(ColsLine::default())))?;
                }
            }
        }
        BoardFormat::Board => {
            // Blocks of non-blank lines are boards; a block keeps the rows a board can have.
            let mut block = Block::default();
            let mut start = 0;
            loop {
                let mut row = RowScan::trimmed();
                let Some(blank) = lines.line(&mut |c| row.push(c))? else { break };
                if blank {
                    if let Some(raw) = block.take() {
                        sink.board(Some(start), raw)?;
                    }
                    continue;
                }
                if block.is_empty() {
                    start = lines.number;
                }
                // A bad row is where its board's problem is.
                if block.add(row.finish()).map_err(|bytes| rows_out_of_memory(lines.number, bytes))? {
                    start = lines.number;
                }
            }
            if let Some(raw) = block.take() {
                sink.board(Some(start), raw)?;
            }
        }
        BoardFormat::Leetcode => {
            let mut json = Json { input: lines.input, line: line_no, column: 0 };
            json.list(sink)?;
        }
        BoardFormat::Raw => unreachable!("rejected above"),
    }
    Ok(format)
}

/// The reason a block of more rows than `kept` is malformed, where its first row has `first`
/// squares.
fn too_many_rows(kept: usize, first: usize) -> String {
    format!(
        "more than {kept} rows without a blank line, where its first row has {first} squares (is a blank line missing between boards?)"
    )
}

/// The [`ReadError::OutOfMemory`] of a board's rows at line `line`.
fn rows_out_of_memory(line: usize, bytes: u64) -> ReadError {
    ReadError::OutOfMemory { line, what: "the board's rows".into(), mib: bytes.div_ceil(1 << 20) }
}

/// The rows of one board of the board or leetcode format as they come: kept up to what a board
/// can have ([`MIN_ROWS_KEPT`], or as many as its first row has squares), then only counted.
#[derive(Default)]
struct Block {
    rows: Vec<Row>,
    /// The first fault, if any: the block is malformed, its rows no longer kept.
    fault: Option<String>,
    /// Whether a row was read since the last [`Block::take`].
    seen: bool,
}

impl Block {
    fn is_empty(&self) -> bool {
        !self.seen
    }

    /// Adds one row as read (or why its text is no row); returns true if and only if it is
    /// this row that makes the block malformed.
    ///
    /// # Errors
    /// The bytes asked for, if the rows cannot be kept in memory.
    fn add(&mut self, row: Result<Row, String>) -> Result<bool, u64> {
        self.seen = true;
        if self.fault.is_some() {
            return Ok(false);
        }
        let row = match row {
            Ok(row) => row,
            Err(reason) => {
                self.fault = Some(reason);
                self.rows = Vec::new();
                return Ok(true);
            }
        };
        let kept = self.rows.first().map_or(MIN_ROWS_KEPT, |r| r.len.max(MIN_ROWS_KEPT));
        if self.rows.len() == kept {
            self.fault = Some(too_many_rows(kept, self.rows[0].len));
            self.rows = Vec::new();
            return Ok(false);
        }
        crate::memory::try_push(&mut self.rows, row)?;
        Ok(false)
    }

    /// Returns the block as a board (or its fault) and empties it; `None` if it is empty.
    fn take(&mut self) -> Option<RawBoard> {
        if !std::mem::take(&mut self.seen) {
            return None;
        }
        Some(match self.fault.take() {
            Some(f) => Err(f),
            None => Ok(Board::Rows(std::mem::take(&mut self.rows))),
        })
    }
}

/// Returns the next byte of `input`, or `None` at its end.
fn next_byte(input: &mut impl BufRead) -> Result<Option<u8>, ReadError> {
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
struct Lines<'a, R: BufRead> {
    input: &'a mut R,
    number: usize,
}

impl<R: BufRead> Lines<'_, R> {
    /// Hands the characters of the next line to `each` (without its `\n`, nor a `\r` before
    /// it) and returns whether the line is blank (whitespace only), or `None` at the end of
    /// the input.
    fn line(&mut self, each: &mut impl FnMut(char)) -> Result<Option<bool>, ReadError> {
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

/// A line of the cols format read one character at a time: its numbers parsed as they come,
/// kept while they can make a board (see [`ColsLine`]).
#[derive(Default)]
struct ColsScan {
    line: ColsLine,
    /// The list's side, if known: columns past it are not kept.
    side: Option<usize>,
    /// The characters of the number being read (the first 40 of them).
    token: String,
    /// The number of characters of that number.
    token_len: usize,
    /// The first token that is not a number, with its (escaped, cut) text.
    bad: Option<String>,
    /// Whether the line could not be kept in memory (its columns' bytes).
    no_memory: Option<u64>,
    /// Early detection of two queens on a line, once a line is long (see [`ColsScan::keep`]).
    early: Occupancy,
}

/// The columns a cols line keeps before it looks for queens on one line as it reads (shorter
/// lines are checked whole when they end, without any allocation but their own).
const EARLY_FROM: usize = 64;

impl ColsScan {
    /// Starts a new line, for a list of boards of side `side` if known.
    fn start(&mut self, side: Option<usize>) {
        self.line = ColsLine::default();
        self.side = side;
        self.token.clear();
        self.token_len = 0;
        self.bad = None;
        self.no_memory = None;
    }

    fn push(&mut self, c: char) {
        if c.is_whitespace() {
            self.end_token();
        } else {
            if self.token_len < 40 {
                self.token.push(c);
            }
            self.token_len += 1;
        }
    }

    /// Ends the number being read, if any: parsed, counted, kept.
    fn end_token(&mut self) {
        if self.token_len == 0 {
            return;
        }
        let parsed = if self.token_len <= 20 && self.token.bytes().all(|b| b.is_ascii_digit()) {
            self.token.parse::<u64>().ok()
        } else {
            None
        };
        match parsed {
            Some(v) if self.bad.is_none() => self.keep(v),
            Some(_) => {}
            None => {
                if self.bad.is_none() {
                    let shown =
                        if self.token_len > 40 { format!("{}…", self.token) } else { self.token.clone() };
                    self.bad = Some(escape_controls(&shown));
                }
            }
        }
        self.token.clear();
        self.token_len = 0;
    }

    /// Counts the column `v` (1-based, as written) of the next row and keeps it while the line
    /// can still be a board.
    fn keep(&mut self, v: u64) {
        let line = &mut self.line;
        let row = line.count;
        line.count += 1;
        if line.stop.is_some() || self.no_memory.is_some() || self.side.is_some_and(|s| line.count > s) {
            return;
        }
        if v == 0 || v > u64::from(u32::MAX) {
            line.stop = Some(ColsStop { row: row + 1, col: v, attacker: None });
            return;
        }
        if let Err(bytes) = crate::memory::try_push(&mut line.cols, v as u32) {
            self.no_memory = Some(bytes);
            return;
        }
        if line.count == EARLY_FROM + 1 {
            // A long line: from here two queens on a line are looked for as the columns come,
            // for the columns up to twice the rows read (larger ones wait for the line's end).
            self.early.clear();
            for r in 0..line.cols.len() {
                if self.place_early(r).is_break() {
                    return;
                }
            }
        } else if line.count > EARLY_FROM {
            let _ = self.place_early(row);
        }
    }

    /// Places the kept column of row `r` (0-based) in the early detection if it is small
    /// enough; at a queen on another's line, stops keeping there ([`ColsLine::stop`]).
    fn place_early(&mut self, r: usize) -> std::ops::ControlFlow<()> {
        let line = &mut self.line;
        let v = line.cols[r];
        if u64::from(v) > 2 * line.count as u64 {
            return std::ops::ControlFlow::Continue(());
        }
        match self.early.place(r as u64, u64::from(v) - 1) {
            Ok(None) => std::ops::ControlFlow::Continue(()),
            Ok(Some(_)) => {
                let (a, how) = crate::attack::first_attacker(&line.cols[..r], r, v - 1);
                let attacker = Some((a + 1, line.cols[a], how));
                line.stop = Some(ColsStop { row: r + 1, col: u64::from(v), attacker });
                line.cols.truncate(r);
                std::ops::ControlFlow::Break(())
            }
            Err(bytes) => {
                self.no_memory = Some(bytes);
                std::ops::ControlFlow::Break(())
            }
        }
    }

    /// Returns the line read as a board, or why it is not one.
    ///
    /// # Errors
    /// [`ReadError::OutOfMemory`] if its columns could not be kept.
    fn finish(&mut self, line: usize) -> Result<RawBoard, ReadError> {
        self.end_token();
        if let Some(bad) = self.bad.take() {
            return Ok(Err(format!(
                "'{bad}' is not a column number (cols format: 1-based columns separated by spaces)"
            )));
        }
        if let Some(bytes) = self.no_memory {
            return Err(ReadError::OutOfMemory {
                line,
                what: format!("the board's {} columns", self.line.count),
                mib: bytes.div_ceil(1 << 20),
            });
        }
        Ok(Ok(Board::Cols(std::mem::take(&mut self.line))))
    }
}

/// A leetcode list (a JSON array of arrays of strings) parsed as it streams in, with the 1-based
/// line and column of the last byte read for errors.
struct Json<'a, R: BufRead> {
    input: &'a mut R,
    line: usize,
    column: usize,
}

impl<R: BufRead> Json<'_, R> {
    fn error(&self, reason: impl Into<String>) -> ReadError {
        ReadError::Json { line: self.line, column: self.column.max(1), reason: reason.into() }
    }

    /// Returns the next byte, or `None` at the end of the input.
    fn bump(&mut self) -> Result<Option<u8>, ReadError> {
        let b = next_byte(self.input)?;
        match b {
            Some(b'\n') => {
                self.line += 1;
                self.column = 0;
            }
            Some(_) => self.column += 1,
            None => {}
        }
        Ok(b)
    }

    /// Returns the next byte that is not JSON whitespace.
    fn token(&mut self) -> Result<Option<u8>, ReadError> {
        loop {
            match self.bump()? {
                Some(b' ' | b'\t' | b'\r' | b'\n') => {}
                b => return Ok(b),
            }
        }
    }

    /// Names what was found where something else was expected.
    fn found(&self, b: Option<u8>) -> String {
        match b {
            None => "the end of the input".into(),
            Some(b) if b.is_ascii_graphic() => format!("'{}'", b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        }
    }

    /// Parses the whole list, handing each board to `sink`.
    fn list(&mut self, sink: &mut dyn Sink) -> Result<(), ReadError> {
        match self.token()? {
            Some(b'[') => {}
            b => return Err(self.error(format!("expected '[', found {}", self.found(b)))),
        }
        let mut b = self.token()?;
        if b != Some(b']') {
            loop {
                if b != Some(b'[') {
                    return Err(self
                        .error(format!("expected a board (an array of strings), found {}", self.found(b))));
                }
                let board = self.board()?;
                sink.board(None, board)?;
                match self.token()? {
                    Some(b',') => b = self.token()?,
                    Some(b']') => break,
                    b => {
                        return Err(self.error(format!("expected ',' or ']', found {}", self.found(b))));
                    }
                }
            }
        }
        match self.token()? {
            None => Ok(()),
            b => Err(self.error(format!("trailing {} after the list", self.found(b)))),
        }
    }

    /// Parses one board after its '[': its rows kept as a [`Block`] keeps them.
    fn board(&mut self) -> Result<RawBoard, ReadError> {
        let mut block = Block::default();
        let mut b = self.token()?;
        if b == Some(b']') {
            return Ok(Ok(Board::Rows(Vec::new())));
        }
        loop {
            if b != Some(b'"') {
                return Err(self.error(format!("expected a string (a board row), found {}", self.found(b))));
            }
            let row = self.row()?;
            block.add(row).map_err(|bytes| rows_out_of_memory(self.line, bytes))?;
            match self.token()? {
                Some(b',') => b = self.token()?,
                Some(b']') => break,
                b => return Err(self.error(format!("expected ',' or ']', found {}", self.found(b)))),
            }
        }
        Ok(block.take().unwrap_or(Ok(Board::Rows(Vec::new()))))
    }

    /// Parses one row after its '"', counting its squares and queens as they stream (only the
    /// first 70 characters are kept, for the message of a bad character).
    fn row(&mut self) -> Result<Result<Row, String>, ReadError> {
        let mut scan = RowScan::default();
        loop {
            let c = match self.bump()? {
                None => return Err(self.error("the input ends inside a string")),
                Some(b'"') => break,
                Some(b'\\') => self.escape()?,
                Some(b) if b < 0x20 => {
                    return Err(self.error(format!("control character 0x{b:02x} in a string")));
                }
                Some(b) if b < 0x80 => b as char,
                Some(b) => self.utf8(b)?,
            };
            scan.push(c);
        }
        Ok(scan.finish())
    }

    /// Decodes an escape after its '\'.
    fn escape(&mut self) -> Result<char, ReadError> {
        Ok(match self.bump()? {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let high = self.hex4()?;
                if (0xD800..0xDC00).contains(&high) {
                    if self.bump()? != Some(b'\\') || self.bump()? != Some(b'u') {
                        return Err(self.error("a lone surrogate in a \\u escape"));
                    }
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(self.error("a lone surrogate in a \\u escape"));
                    }
                    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                        .ok_or_else(|| self.error("an invalid \\u escape"))?
                } else {
                    char::from_u32(high).ok_or_else(|| self.error("a lone surrogate in a \\u escape"))?
                }
            }
            b => return Err(self.error(format!("invalid escape '\\' then {}", self.found(b)))),
        })
    }

    /// Reads the four hex digits of a `\u` escape.
    fn hex4(&mut self) -> Result<u32, ReadError> {
        let mut v = 0;
        for _ in 0..4 {
            let b = self.bump()?;
            let d = b.and_then(|b| (b as char).to_digit(16));
            v = v * 16
                + d.ok_or_else(|| self.error(format!("expected a hex digit, found {}", self.found(b))))?;
        }
        Ok(v)
    }

    /// Decodes the UTF-8 character that starts with byte `lead` (≥ 0x80).
    fn utf8(&mut self, lead: u8) -> Result<char, ReadError> {
        let not_text = |json: &Self| ReadError::NotText { line: json.line };
        let extra = match lead {
            0xC2..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF4 => 3,
            _ => return Err(not_text(self)),
        };
        let mut bytes = [lead, 0, 0, 0];
        for slot in bytes.iter_mut().skip(1).take(extra) {
            match self.bump()? {
                Some(b) if b & 0xC0 == 0x80 => *slot = b,
                _ => return Err(not_text(self)),
            }
        }
        std::str::from_utf8(&bytes[..=extra])
            .ok()
            .and_then(|s| s.chars().next())
            .ok_or_else(|| not_text(self))
    }
}

/// A row of the board and leetcode formats read one character at a time: its queens, its
/// length, its first character other than `Q` and `.`, and its first 70 characters for the
/// message (a row of any length costs no more). A row of the board format is trimmed: its
/// leading whitespace is skipped and its trailing whitespace dropped.
#[derive(Default)]
struct RowScan {
    row: Row,
    len: usize,
    head: String,
    bad: Option<char>,
    /// Whether whitespace at either end is dropped (the board format).
    trim: bool,
    /// Whitespace seen since the last other character, not yet counted: how much, and the
    /// first of it (kept for the message).
    pending: (usize, Option<char>),
}

impl RowScan {
    /// A scan of a board-format row (trimmed).
    fn trimmed() -> RowScan {
        RowScan { trim: true, ..RowScan::default() }
    }

    fn push(&mut self, c: char) {
        if self.trim && c.is_whitespace() {
            // Leading whitespace is skipped; inner whitespace waits for what follows it.
            if self.len > 0 {
                self.pending.0 += 1;
                self.pending.1.get_or_insert(c);
            }
            return;
        }
        if self.pending.0 > 0 {
            let (count, first) = std::mem::take(&mut self.pending);
            for _ in 0..count {
                self.add(first.unwrap_or(' '));
            }
        }
        self.add(c);
    }

    fn add(&mut self, c: char) {
        match c {
            'Q' => {
                if self.row.queens == 0 {
                    self.row.col = self.len;
                }
                self.row.queens += 1;
            }
            '.' => {}
            _ => {
                self.bad.get_or_insert(c);
            }
        }
        if self.len < 70 {
            self.head.push(c);
        }
        self.len += 1;
    }

    fn finish(self) -> Result<Row, String> {
        match self.bad {
            None => Ok(Row { len: self.len, ..self.row }),
            Some(ch) => Err(format!(
                "'{}' in row '{}' (a board row is Q and . only)",
                escape_controls(&ch.to_string()),
                escape_controls(&self.head)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps what it is told.
    #[derive(Default)]
    struct Kept(Vec<(Option<usize>, RawBoard)>, Option<usize>);

    impl Sink for Kept {
        fn board(&mut self, line: Option<usize>, board: RawBoard) -> Result<(), ReadError> {
            self.0.push((line, board));
            Ok(())
        }
        fn side(&self) -> Option<usize> {
            self.1
        }
    }

    fn boards(text: &str, format: Option<BoardFormat>) -> (BoardFormat, Vec<(Option<usize>, RawBoard)>) {
        let mut got = Kept::default();
        let format = read(text.as_bytes(), format, &mut got).unwrap();
        (format, got.0)
    }

    fn cols(cols: &[u32]) -> Board {
        Board::Cols(ColsLine { cols: cols.to_vec(), count: cols.len(), stop: None })
    }

    #[test]
    fn each_board_is_told_as_written() {
        let row = |queens, col, len| Row { queens, col, len };
        // Cols: the numbers as written, off the board or not; the line of each.
        let (format, got) = boards("\n2 4 1 3\n\n9 0\nx 1\n", None);
        assert_eq!(format, BoardFormat::Cols);
        assert_eq!(got[0], (Some(2), Ok(cols(&[2, 4, 1, 3]))));
        assert_eq!(
            got[1],
            (
                Some(4),
                Ok(Board::Cols(ColsLine {
                    cols: vec![9],
                    count: 2,
                    stop: Some(ColsStop { row: 2, col: 0, attacker: None })
                }))
            )
        );
        assert!(got[2].1.as_ref().unwrap_err().starts_with("'x' is not a column number"), "{got:?}");
        // Board: each row's queens, first queen and squares; a block per board.
        let (format, got) = boards(".Q\nQQ.\n\n\n..\n", None);
        assert_eq!(format, BoardFormat::Board);
        assert_eq!(got[0], (Some(1), Ok(Board::Rows(vec![row(1, 1, 2), row(2, 0, 3)]))));
        assert_eq!(got[1], (Some(5), Ok(Board::Rows(vec![row(0, 0, 2)]))));
        // Leetcode: the same rows, without lines.
        let (format, got) = boards("[[\".Q\",\"Q.\"],[]]", None);
        assert_eq!(format, BoardFormat::Leetcode);
        assert_eq!(
            got,
            [(None, Ok(Board::Rows(vec![row(1, 1, 2), row(1, 0, 2)]))), (None, Ok(Board::Rows(vec![])))]
        );
        // An empty input has no board, in the format given or cols.
        assert_eq!(boards("", Some(BoardFormat::Board)), (BoardFormat::Board, vec![]));
        assert_eq!(boards(" \n", None), (BoardFormat::Cols, vec![]));
        assert!(matches!(
            read("1\n".as_bytes(), Some(BoardFormat::Raw), &mut Kept::default()),
            Err(ReadError::RawFormat)
        ));
        // CRLF line ends and trailing spaces are no part of a row; inner ones are.
        let (_, got) = boards("  .Q  \r\nQ.\r\n", None);
        assert_eq!(got[0], (Some(1), Ok(Board::Rows(vec![row(1, 1, 2), row(1, 0, 2)]))));
        let (_, got) = boards(".Q .\n", None);
        assert!(got[0].1.as_ref().unwrap_err().starts_with("' ' in row '.Q .'"), "{got:?}");
    }

    #[test]
    fn long_lines_are_read_as_boards_and_garbage_stops_being_kept() {
        // A cols line of any length is one board.
        let big: Vec<String> = (1..=1000).map(|c| c.to_string()).collect();
        let (_, got) = boards(&big.join(" "), None);
        let Ok(Board::Cols(line)) = &got[0].1 else { panic!("{got:?}") };
        assert_eq!(line.count, 1000);
        // 1 2 3 …: rows 1 and 2 share a diagonal; found once the line is long, the rest only
        // counted.
        assert_eq!(line.stop, Some(ColsStop { row: 2, col: 2, attacker: Some((1, 1, Line::Diagonal)) }));
        assert_eq!(line.cols, [1]);
        let (_, got) = boards(&"1 ".repeat(10_000), None);
        let Ok(Board::Cols(line)) = &got[0].1 else { panic!() };
        assert_eq!((line.count, line.cols.len()), (10_000, 1));
        assert_eq!(line.stop, Some(ColsStop { row: 2, col: 1, attacker: Some((1, 1, Line::Column)) }));
        // A short line is kept whole and judged by the checker.
        let (_, got) = boards("1 1 1\n", None);
        assert_eq!(got[0].1, Ok(cols(&[1, 1, 1])));
        // Past the list's side, nothing more is kept.
        let mut kept = Kept(Vec::new(), Some(4));
        read("1 3 5 7 9 11\n".as_bytes(), None, &mut kept).unwrap();
        let Ok(Board::Cols(line)) = &kept.0[0].1 else { panic!() };
        assert_eq!((line.count, line.cols.len()), (6, 4));
        // A blank line is the empty board of a list of n = 0.
        let mut kept = Kept(Vec::new(), Some(0));
        read("\n".as_bytes(), None, &mut kept).unwrap();
        assert_eq!(kept.0, [(Some(1), Ok(Board::Cols(ColsLine::default())))]);
        // A block keeps as many rows as its first row is long (63 at least).
        let text = format!("{}\n", ".".repeat(100)).repeat(101);
        let (_, got) = boards(&text, None);
        assert_eq!(
            got[0].1,
            Err("more than 100 rows without a blank line, where its first row has 100 squares (is a blank line missing between boards?)".into())
        );
        let (_, got) = boards(&"QQ\n".repeat(100), None);
        assert!(
            got[0]
                .1
                .as_ref()
                .unwrap_err()
                .starts_with("more than 63 rows without a blank line, where its first row has 2 squares")
        );
    }

    #[test]
    fn controls_are_escaped() {
        assert_eq!(escape_controls("a\u{202e}b\tc"), "a\\u{202e}b\\u{9}c");
    }
}

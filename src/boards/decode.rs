//! Decoding lists of boards as they stream in: the board, leetcode and cols formats (see
//! [`super`]), read with flat memory and told board by board, each as written ([`Board`]: its
//! columns or its rows), for the checker ([`crate::check`]) to judge.

use std::io::{self, BufRead};

use super::BoardFormat;

/// Why a list of boards could not be read at all (`nqueens check` exits 2).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be read.
    #[error("cannot read the input: {0}")]
    Io(#[from] io::Error),
    /// A line is longer than [`MAX_LINE`] bytes (a board list has short lines; a leetcode
    /// array of every solution of n ≤ 14 fits).
    #[error("line {line} is longer than {MAX_LINE} bytes: not a list of boards")]
    LineTooLong {
        /// The 1-based line number.
        line: usize,
    },
    /// A line is not UTF-8 text.
    #[error("line {line}: not UTF-8 text")]
    NotText {
        /// The 1-based line number.
        line: usize,
    },
    /// The format could not be told from the first non-blank line.
    #[error(
        "line {line}: cannot tell the format from '{start}': expected rows of Q and . (board), \
         1-based columns (cols) or a JSON array (leetcode)"
    )]
    UnknownFormat {
        /// The 1-based line number.
        line: usize,
        /// The start of that line.
        start: String,
    },
    /// A leetcode list is not a JSON array of arrays of strings.
    #[error(
        "line {line}, column {column}: not a leetcode list (a JSON array of arrays of strings): {reason}"
    )]
    Json {
        /// The 1-based line of the error.
        line: usize,
        /// The 1-based column of the error.
        column: usize,
        /// serde_json's description.
        reason: String,
    },
    /// The format was given as raw, which has no text form.
    #[error("the raw format cannot be checked: use board, leetcode or cols")]
    RawFormat,
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

/// One board as read, before it is judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// A line of the cols format: its numbers as written (1-based columns, maybe off the board).
    Cols(Vec<u64>),
    /// A board of the board or leetcode format: its rows.
    Rows(Vec<Row>),
}

/// A board as read, or the reason its text is not a board of its format.
pub type RawBoard = Result<Board, String>;

/// Reads a list of boards in `format` (detected from its first non-blank character when
/// `None`: `[` leetcode, a digit cols, `Q` or `.` board) as it streams in, and hands each board
/// to `each` as read, with its first line (1-based; `None` in the leetcode format), or the
/// reason its text is not a board of the format. Returns the format read (cols for an empty
/// input without one).
///
/// Memory stays flat whatever the input: lines are read up to [`MAX_LINE`] bytes, a board keeps
/// at most [`crate::MAX_N`] rows (a longer block is one malformed board, read to its end without
/// being kept), a leetcode list is parsed as it streams in (a row of any length is counted, not
/// kept). A UTF-8 byte order mark at the start is skipped.
///
/// # Errors
/// [`ReadError`] when the input cannot be read at all: an I/O error, text that is not UTF-8, a
/// format that cannot be detected, a line longer than [`MAX_LINE`] in the board or cols format,
/// a leetcode list that is not valid JSON of the right shape, or [`BoardFormat::Raw`] given as
/// the format. Malformed boards of a readable list go to `each`, not here.
pub fn read(
    mut input: impl BufRead,
    format: Option<BoardFormat>,
    each: &mut dyn FnMut(Option<usize>, RawBoard),
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
            b'\n' => skipped_lines += 1,
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
    match format {
        BoardFormat::Cols => {
            let mut lines = Lines { input: &mut input, number: skipped_lines, buf: Vec::new() };
            while let Some(text) = lines.next()? {
                if !text.trim().is_empty() {
                    let raw = read_cols(text);
                    each(Some(lines.number), raw);
                }
            }
        }
        BoardFormat::Board => {
            // Blocks of non-blank lines are boards; a block keeps at most MAX_N rows.
            let mut lines = Lines { input: &mut input, number: skipped_lines, buf: Vec::new() };
            let mut block: Vec<Row> = Vec::new();
            let mut fault: Option<String> = None;
            let mut start = 0;
            loop {
                let number = lines.number + 1;
                let line = lines.next()?;
                let blank = line.is_none_or(|l| l.trim().is_empty());
                if blank && (!block.is_empty() || fault.is_some()) {
                    let raw = match fault.take() {
                        Some(f) => Err(f),
                        None => Ok(Board::Rows(std::mem::take(&mut block))),
                    };
                    block.clear();
                    each(Some(start), raw);
                }
                let Some(text) = line else { break };
                if blank {
                    continue;
                }
                if block.is_empty() && fault.is_none() {
                    start = number;
                }
                if fault.is_some() {
                    continue;
                }
                if block.len() == crate::MAX_N as usize {
                    fault = Some(too_many_rows());
                    block.clear();
                    continue;
                }
                match read_board_row(text.trim()) {
                    Ok(row) => block.push(row),
                    Err(reason) => {
                        start = number;
                        fault = Some(reason);
                        block.clear();
                    }
                }
            }
        }
        BoardFormat::Leetcode => {
            let mut json = Json { input: &mut input, line: line_no, column: 0 };
            json.list(each)?;
        }
        BoardFormat::Raw => unreachable!("rejected above"),
    }
    Ok(format)
}

/// The reason a block of more than [`crate::MAX_N`] rows is malformed.
fn too_many_rows() -> String {
    format!(
        "more than {max} rows without a blank line: a board has at most {max} rows (is a blank line missing between boards?)",
        max = crate::MAX_N
    )
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

/// The longest line `check` reads in the board and cols formats: 1,024 bytes. The longest line
/// any board of n ≤ 63 needs is a cols line of 63 two-digit columns, 189 bytes, and a board row
/// has 63; the rest is room for spaces. A longer line is not a list of boards, and reading stops
/// there rather than filling memory (`nqueens check /dev/zero`, a line of 60 MB). A leetcode list
/// is parsed as it streams, without a line limit.
pub const MAX_LINE: usize = 1024;

/// Line-by-line reading with the 1-based number of the last line read.
struct Lines<'a, R: BufRead> {
    input: &'a mut R,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<'_, R> {
    fn next(&mut self) -> Result<Option<&str>, ReadError> {
        self.buf.clear();
        self.number += 1;
        match io::Read::take(&mut *self.input, MAX_LINE as u64 + 2).read_until(b'\n', &mut self.buf) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > MAX_LINE {
            return Err(ReadError::LineTooLong { line: self.number });
        }
        std::str::from_utf8(&self.buf).map(Some).map_err(|_| ReadError::NotText { line: self.number })
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

    /// Parses the whole list, handing each board to `each`.
    fn list(&mut self, each: &mut dyn FnMut(Option<usize>, RawBoard)) -> Result<(), ReadError> {
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
                each(None, board);
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

    /// Parses one board after its '[': at most MAX_N rows are kept.
    fn board(&mut self) -> Result<RawBoard, ReadError> {
        let mut rows = Vec::new();
        let mut fault = None;
        let mut b = self.token()?;
        if b == Some(b']') {
            return Ok(Ok(Board::Rows(rows)));
        }
        loop {
            if b != Some(b'"') {
                return Err(self.error(format!("expected a string (a board row), found {}", self.found(b))));
            }
            let row = self.row()?;
            if fault.is_none() {
                if rows.len() == crate::MAX_N as usize {
                    fault = Some(too_many_rows());
                    rows = Vec::new();
                } else {
                    match row {
                        Ok(row) => rows.push(row),
                        Err(reason) => fault = Some(reason),
                    }
                }
            }
            match self.token()? {
                Some(b',') => b = self.token()?,
                Some(b']') => break,
                b => return Err(self.error(format!("expected ',' or ']', found {}", self.found(b)))),
            }
        }
        Ok(match fault {
            Some(f) => Err(f),
            None => Ok(Board::Rows(rows)),
        })
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

/// Reads one line of the cols format: numbers separated by whitespace (the 1-based columns,
/// judged by the checker against the line's length and the list's boards).
fn read_cols(text: &str) -> RawBoard {
    let mut cols = Vec::new();
    for token in text.split_whitespace() {
        let col: u64 = token.parse().map_err(|_| {
            format!(
                "'{}' is not a column number (cols format: 1-based columns separated by spaces)",
                escape_controls(token)
            )
        })?;
        cols.push(col);
    }
    Ok(Board::Cols(cols))
}

/// Reads one row of the board and leetcode formats: its `Q`s and its length.
fn read_board_row(text: &str) -> Result<Row, String> {
    let mut scan = RowScan::default();
    text.chars().for_each(|c| scan.push(c));
    scan.finish()
}

/// A row of the board and leetcode formats read one character at a time: its queens, its
/// length, its first character other than `Q` and `.`, and its first 70 characters for the
/// message (a row of any length costs no more).
#[derive(Default)]
struct RowScan {
    row: Row,
    len: usize,
    head: String,
    bad: Option<char>,
}

impl RowScan {
    fn push(&mut self, c: char) {
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

    fn boards(text: &str, format: Option<BoardFormat>) -> (BoardFormat, Vec<(Option<usize>, RawBoard)>) {
        let mut got = Vec::new();
        let format = read(text.as_bytes(), format, &mut |line, board| got.push((line, board))).unwrap();
        (format, got)
    }

    #[test]
    fn each_board_is_told_as_written() {
        let row = |queens, col, len| Row { queens, col, len };
        // Cols: the numbers as written, off the board or not; the line of each.
        let (format, got) = boards("\n2 4 1 3\n\n9 0\nx 1\n", None);
        assert_eq!(format, BoardFormat::Cols);
        assert_eq!(got[0], (Some(2), Ok(Board::Cols(vec![2, 4, 1, 3]))));
        assert_eq!(got[1], (Some(4), Ok(Board::Cols(vec![9, 0]))));
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
            read("1\n".as_bytes(), Some(BoardFormat::Raw), &mut |_, _| {}),
            Err(ReadError::RawFormat)
        ));
    }

    #[test]
    fn controls_are_escaped() {
        assert_eq!(escape_controls("a\u{202e}b\tc"), "a\\u{202e}b\\u{9}c");
    }
}

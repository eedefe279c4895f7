//! The leetcode format: one JSON array of boards, each an array of row strings.

use std::io::BufRead;

use super::board::{Block, RowScan, rows_out_of_memory};
use super::reader::{Board, RawBoard, ReadError, Row, Sink, next_byte};

/// Reads the boards of a leetcode list from `input` into `sink`, the list starting on line
/// `line_no`.
pub(super) fn read(input: &mut impl BufRead, line_no: usize, sink: &mut dyn Sink) -> Result<(), ReadError> {
    let mut json = Json { input, line: line_no, column: 0 };
    json.list(sink)?;
    Ok(())
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

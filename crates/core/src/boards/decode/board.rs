//! The board format (blocks of `Q` and `.` rows, a blank line between boards), and the rows of
//! one board that it shares with the leetcode format ([`Block`], [`RowScan`]).

use std::io::BufRead;

use super::reader::{Board, Lines, RawBoard, ReadError, Row, Sink, escape_controls};

/// The fewest rows a block of the board format (a board of the leetcode format) keeps, whatever
/// its first row: more than this many rows of a shorter first row are said to be too many.
pub const MIN_ROWS_KEPT: usize = 63;

/// Reads the boards of the board format, blocks of rows between blank lines, from `lines` into
/// `sink`.
pub(super) fn read(lines: &mut Lines<'_, impl BufRead>, sink: &mut dyn Sink) -> Result<(), ReadError> {
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
    Ok(())
}

/// The reason a block of more rows than `kept` is malformed, where its first row has `first`
/// squares.
fn too_many_rows(kept: usize, first: usize) -> String {
    format!(
        "more than {kept} rows without a blank line, where its first row has {first} squares (is a blank line missing between boards?)"
    )
}

/// The [`ReadError::OutOfMemory`] of a board's rows at line `line`.
pub(super) fn rows_out_of_memory(line: usize, bytes: u64) -> ReadError {
    ReadError::OutOfMemory { line, what: "the board's rows".into(), mib: bytes.div_ceil(1 << 20) }
}

/// The rows of one board of the board or leetcode format as they come: kept up to what a board
/// can have ([`MIN_ROWS_KEPT`], or as many as its first row has squares), then only counted.
#[derive(Default)]
pub(super) struct Block {
    rows: Vec<Row>,
    /// The first fault, if any: the block is malformed, its rows no longer kept.
    fault: Option<String>,
    /// Whether a row was read since the last [`Block::take`].
    seen: bool,
}

impl Block {
    pub(super) fn is_empty(&self) -> bool {
        !self.seen
    }

    /// Adds one row as read (or why its text is no row); returns true if and only if it is
    /// this row that makes the block malformed.
    ///
    /// # Errors
    /// The bytes asked for, if the rows cannot be kept in memory.
    pub(super) fn add(&mut self, row: Result<Row, String>) -> Result<bool, u64> {
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
    pub(super) fn take(&mut self) -> Option<RawBoard> {
        if !std::mem::take(&mut self.seen) {
            return None;
        }
        Some(match self.fault.take() {
            Some(f) => Err(f),
            None => Ok(Board::Rows(std::mem::take(&mut self.rows))),
        })
    }
}

/// length, its first character other than `Q` and `.`, and its first 70 characters for the
/// message (a row of any length costs no more). A row of the board format is trimmed: its
/// leading whitespace is skipped and its trailing whitespace dropped.
#[derive(Default)]
pub(super) struct RowScan {
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
    pub(super) fn trimmed() -> RowScan {
        RowScan { trim: true, ..RowScan::default() }
    }

    pub(super) fn push(&mut self, c: char) {
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

    pub(super) fn finish(self) -> Result<Row, String> {
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

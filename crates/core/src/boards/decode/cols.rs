//! The cols format: one board a line, its 1-based columns separated by spaces.

use std::io::BufRead;

use super::reader::{Board, ColsLine, ColsStop, Lines, RawBoard, ReadError, Sink, escape_controls};
use crate::attack::Occupancy;

/// Reads the boards of the cols format, one a line, from `lines` into `sink`.
pub(super) fn read(lines: &mut Lines<'_, impl BufRead>, sink: &mut dyn Sink) -> Result<(), ReadError> {
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
    Ok(())
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

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

//!
//! Files: this one detects the format and hands the input to its reader, one file per format
//! (`board.rs`, `cols.rs`, `leetcode.rs`); `reader.rs` holds what they share: the boards as
//! read, the [`Sink`] they go to, [`ReadError`] and line-by-line reading.

mod board;
mod cols;
mod leetcode;
mod reader;

use std::io::{self, BufRead};

use super::BoardFormat;
pub use reader::{Board, ColsLine, ColsStop, RawBoard, ReadError, Row, Sink, escape_controls};
use reader::{Lines, next_byte};

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
        BoardFormat::Cols => cols::read(&mut lines, sink)?,
        BoardFormat::Board => board::read(&mut lines, sink)?,
        BoardFormat::Leetcode => leetcode::read(lines.input, line_no, sink)?,
        BoardFormat::Raw => unreachable!("rejected above"),
    }
    Ok(format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attack::Line;

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

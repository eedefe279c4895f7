//! Boards as text: the formats a solution is written in and read from, in one place for both
//! directions. Listing ([`crate::enumerate`], [`crate::construct`]) encodes with them,
//! checking ([`crate::check`]) decodes with them.
//!
//! A board is the 0-based column of the queen in each row, row 0 first. The formats:
//! - [`BoardFormat::Board`]: n lines of `Q` and `.` per board, a blank line between boards;
//! - [`BoardFormat::Leetcode`]: one JSON array of boards, each an array of n strings of `Q` and
//!   `.` (the LeetCode "N-Queens" answer), then a newline;
//! - [`BoardFormat::Cols`]: one line per board, the 1-based column of each row's queen;
//! - [`BoardFormat::Raw`]: n bytes per board, the 0-based columns (for [`crate::enumerate::Solutions`];
//!   no text form, so it is neither offered on the command line nor read).
//!
//! `encode` formats boards from precomputed rows for the ordered listing; `decode` reads a
//! list as it streams in, boards of any side, with memory that grows with the side of the board
//! being read and never with the input's bytes, telling each board's rows and queens as written
//! (the checker judges them).

pub(crate) mod decode;
pub(crate) mod encode;

use std::fmt;
use std::str::FromStr;

pub use decode::{ReadError, escape_controls};

/// How each solution is written (and read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BoardFormat {
    /// Each solution as n lines of `Q` and `.` (row 0 first), solutions separated by a blank line.
    #[default]
    Board,
    /// One JSON array of solutions, each an array of n strings of `Q` and `.`: the expected
    /// output of the LeetCode "N-Queens" exercise (`[["Q"]]` for n = 1, `[]` for n = 2), then a
    /// newline.
    Leetcode,
    /// One solution per line: the 1-based column of the queen in each row, space separated.
    Cols,
    /// n bytes per solution, the 0-based column of each row's queen, nothing between solutions
    /// (what [`crate::enumerate::Solutions`] reads; not offered on the command line).
    Raw,
}

impl BoardFormat {
    /// The formats offered on the command line, in the order `--help` lists them.
    pub const ALL: [BoardFormat; 3] = [BoardFormat::Board, BoardFormat::Leetcode, BoardFormat::Cols];

    /// Returns the format's name as the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            BoardFormat::Board => "board",
            BoardFormat::Leetcode => "leetcode",
            BoardFormat::Cols => "cols",
            BoardFormat::Raw => "raw",
        }
    }

    /// Returns what is written before the first solution.
    pub(crate) fn header(self) -> &'static [u8] {
        if self == BoardFormat::Leetcode { b"[" } else { b"" }
    }

    /// Returns what is written after the last solution.
    pub(crate) fn footer(self) -> &'static [u8] {
        if self == BoardFormat::Leetcode { b"]\n" } else { b"" }
    }

    /// Returns what is written between two solutions (each encoded solution starts with it; the
    /// writer drops it from the first).
    pub(crate) fn separator(self) -> &'static [u8] {
        match self {
            BoardFormat::Board => b"\n",
            BoardFormat::Leetcode => b",",
            BoardFormat::Cols | BoardFormat::Raw => b"",
        }
    }

    /// Returns about how many bytes one board of side `n` takes in this format (exact for board
    /// and leetcode, 3 bytes a row for cols, an upper bound up to n = 99), saturating at
    /// `usize::MAX`.
    pub fn bytes_per_board(self, n: usize) -> usize {
        match self {
            BoardFormat::Board => n.saturating_mul(n.saturating_add(1)).saturating_add(1),
            BoardFormat::Leetcode => n.saturating_mul(n.saturating_add(3)).saturating_add(3),
            BoardFormat::Cols => n.max(1).saturating_mul(3),
            BoardFormat::Raw => n.max(1),
        }
    }

    /// Returns the format of a list from its first non-blank character (`[` leetcode, a digit
    /// cols, `Q` or `.` board), or `None`.
    pub fn detect(first_line: &str) -> Option<BoardFormat> {
        match first_line.trim_start().chars().next()? {
            '[' => Some(BoardFormat::Leetcode),
            '0'..='9' => Some(BoardFormat::Cols),
            'Q' | '.' => Some(BoardFormat::Board),
            _ => None,
        }
    }
}

impl fmt::Display for BoardFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::error::parse_name(s, &BoardFormat::ALL, BoardFormat::name, "format")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_parse() {
        assert_eq!("leetcode".parse(), Ok(BoardFormat::Leetcode));
        assert_eq!(
            "raw".parse::<BoardFormat>().unwrap_err(),
            "unknown format 'raw': use one of board, leetcode, cols"
        );
    }
}

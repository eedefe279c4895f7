//! One solution of any size at once, by an explicit construction instead of a search.
//!
//! A search for the *first* solution in lexicographic order can take hours from about n = 40 (its
//! subtree of dead ends grows without bound), but a solution exists for every n ≥ 4 and one is given
//! by a closed formula. Write the 1-based columns as the even numbers 2, 4, … followed by the odd
//! numbers 1, 3, …, and repair the two residues where that fails:
//!
//! - n mod 6 = 2: in the odd list swap 1 and 3 and move 5 to the end (n = 8: `2 4 6 8 3 1 7 5`);
//! - n mod 6 = 3: move 2 to the end of the even list and 1, 3 to the end of the odd list
//!   (n = 9: `4 6 8 2 5 7 9 1 3`);
//! - otherwise the plain list is a solution (n = 6: `2 4 6 1 3 5`).
//!
//! Row i (from the top) holds its queen in the i-th column of the list. Source: E. J. Hoffman,
//! J. C. Loessi and R. C. Moore, "Constructions for the solution of the m queens problem",
//! Mathematics Magazine 42 (1969) 66–72, in the form given by Wikipedia's "Eight queens puzzle"
//! (section "Existence of solutions"). The unit tests check the board for every n up to 3,000
//! and at n = 10^6 + k for k = 0..6 (every residue mod 6).
//!
//! Each column follows from (n, row) in constant time, so the board is never stored:
//! [`any_column`] serves any row of any n that fits a `u64`, and [`write_any`] writes the board
//! in the formats of `nqueens solve` one row at a time.

use std::io::{self, Write};

use crate::Error;
use crate::boards::{BoardFormat, encode};

/// Returns the 0-based column of the queen in `row` (0-based, `row < n`) of the constructed
/// solution of the n×n board, or `None` when there is none: n = 2 and n = 3 have no solution, and
/// `row >= n` is off the board. For n = 1 the one queen stands in column 0.
///
/// Constant time and no allocation; the construction and its source are in the module docs.
/// The columns of rows 0..n are a permutation of 0..n with no two queens on a diagonal or an
/// anti-diagonal.
///
/// # Examples
/// ```
/// let cols: Vec<u64> = (0..8).map(|r| nqueens::construct::any_column(8, r).unwrap()).collect();
/// assert_eq!(cols, [1, 3, 5, 7, 2, 0, 6, 4]);
/// assert_eq!(nqueens::construct::any_column(3, 0), None);
/// ```
pub fn any_column(n: u64, row: u64) -> Option<u64> {
    if row >= n || n == 2 || n == 3 {
        return None;
    }
    let evens = n / 2; // 2, 4, …, 2·evens
    let odds = n - evens; // 1, 3, …, 2·odds − 1
    let residue = n % 6;
    let one_based = if row < evens {
        let k = row;
        match residue {
            3 if k == evens - 1 => 2,
            3 => 2 * k + 4,
            _ => 2 * k + 2,
        }
    } else {
        let k = row - evens;
        match residue {
            2 if k == 0 => 3,
            2 if k == 1 => 1,
            2 if k == odds - 1 => 5,
            2 => 2 * k + 3,
            3 if k == odds - 2 => 1,
            3 if k == odds - 1 => 3,
            3 => 2 * k + 5,
            _ => 2 * k + 1,
        }
    };
    Some(one_based - 1)
}

/// The largest board side [`write_any`] takes: 2^32 − 1 (the `cols` line of that board is
/// about 45 GB; the board format would be 1.8 × 10^19 bytes).
pub const MAX_ANY_N: u64 = u32::MAX as u64;

/// Writes the constructed solution of the n×n board to `out` in `format`, exactly as a listing
/// of that one solution would look: `board` n lines of `Q` and `.`; `leetcode` one JSON array
/// holding it (`[]` when there is none); `cols` one line of 1-based columns. n = 2 and n = 3
/// write no board (`[]` in leetcode). Memory: one row (n bytes) at a time, whatever n.
///
/// Returns the boards written: 1, or 0 for n = 2 and n = 3.
///
/// # Errors
/// An error of `out`, and `InvalidInput` for n above [`MAX_ANY_N`] or the `raw` format (which
/// holds columns in single bytes).
pub fn write_any(n: u64, format: BoardFormat, out: &mut dyn Write) -> io::Result<u64> {
    if n > MAX_ANY_N || (format == BoardFormat::Raw && n > 256) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("board size {n} is too large")));
    }
    let exists = n != 2 && n != 3;
    out.write_all(format.header())?;
    if exists {
        let column = |r| any_column(n, r).expect("a board exists for n other than 2 and 3");
        encode::write_rows(format, n, column, out)?;
    }
    out.write_all(format.footer())?;
    Ok(u64::from(exists))
}

/// Returns the columns (0-based, row 0 first) of the constructed solution of the n×n board, or
/// `None` for n = 2 and n = 3, which have none. n = 0 gives the empty board. Memory: 8 bytes a
/// row, checked before it is allocated; [`any_column`] gives one row without storing the board,
/// [`write_any`] writes it without storing it.
///
/// # Errors
/// [`Error::AnyTooLarge`] for n above [`MAX_ANY_N`] (2^32 − 1, the board 32 GiB); an
/// [`Error::OutOfMemory`] when the board's 8·n bytes do not fit in the memory available to the
/// process (`any_solution(u64::MAX)` aborted on its allocation before, issue 40).
///
/// # Examples
/// ```
/// use nqueens::construct::{MAX_ANY_N, any_solution};
/// assert_eq!(any_solution(8).unwrap(), Some(vec![1, 3, 5, 7, 2, 0, 6, 4]));
/// assert_eq!(any_solution(3).unwrap(), None);
/// assert_eq!(
///     any_solution(u64::MAX).unwrap_err().to_string(),
///     "board size 18446744073709551615 is too large to construct a solution of: use n <= 4294967295"
/// );
/// assert!(any_solution(MAX_ANY_N + 1).is_err());
/// ```
pub fn any_solution(n: u64) -> Result<Option<Vec<u64>>, Error> {
    if n > MAX_ANY_N {
        return Err(Error::AnyTooLarge { n, max: MAX_ANY_N });
    }
    if n == 2 || n == 3 {
        return Ok(None);
    }
    let what = || format!("the constructed board of n = {n} (8 bytes a row)");
    let mut board: Vec<u64> = crate::memory::reserve(what, n as usize, n.saturating_mul(8))?;
    board.extend((0..n).map(|row| any_column(n, row).expect("a board exists for n other than 2 and 3")));
    Ok(Some(board))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Returns true if and only if `cols` places one queen per row and column with no two on a
    /// diagonal or anti-diagonal (checked independently of the construction, with occupancy
    /// arrays).
    fn is_solution(cols: &[u64]) -> bool {
        let n = cols.len();
        let mut column = vec![false; n];
        let mut diagonal = vec![false; 2 * n];
        let mut anti = vec![false; 2 * n];
        for (row, &c) in cols.iter().enumerate() {
            let c = c as usize;
            if c >= n || column[c] || diagonal[c + n - row] || anti[c + row] {
                return false;
            }
            column[c] = true;
            diagonal[c + n - row] = true;
            anti[c + row] = true;
        }
        true
    }

    #[test]
    fn every_board_up_to_3000_is_a_solution() {
        for n in (0..=3000).filter(|&n| n != 2 && n != 3) {
            let cols = any_solution(n).unwrap().unwrap_or_else(|| panic!("no board for n = {n}"));
            assert_eq!(cols.len() as u64, n);
            assert!(is_solution(&cols), "n = {n}: {cols:?}");
        }
    }

    #[test]
    fn every_residue_at_a_million() {
        for n in 1_000_000..1_000_006 {
            assert!(is_solution(&any_solution(n).unwrap().unwrap()), "n = {n}");
        }
    }

    #[test]
    fn no_board_for_two_and_three_and_off_the_board() {
        assert_eq!(any_solution(2).unwrap(), None);
        assert_eq!(any_solution(3).unwrap(), None);
        assert_eq!(any_column(8, 8), None);
        // 2^64 − 1 ≡ 3 (mod 6): the odd list ends with 1, 3; no overflow at the top of the range.
        assert_eq!(any_column(u64::MAX, 0), Some(3));
        assert_eq!(any_column(u64::MAX, u64::MAX - 1), Some(2));
        assert_eq!(any_column(u64::MAX, u64::MAX - 3), Some(u64::MAX - 1));
        assert_eq!(any_solution(1).unwrap(), Some(vec![0]));
        assert_eq!(any_solution(0).unwrap(), Some(vec![]));
    }

    /// Returns what [`write_any`] writes, as text.
    fn written(n: u64, format: BoardFormat) -> String {
        let mut out = Vec::new();
        write_any(n, format, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn written_in_the_formats_of_a_listing() {
        assert_eq!(written(4, BoardFormat::Cols), "2 4 1 3\n");
        assert_eq!(written(4, BoardFormat::Board), ".Q..\n...Q\nQ...\n..Q.\n");
        assert_eq!(written(4, BoardFormat::Leetcode), "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]\n");
        assert_eq!(written(3, BoardFormat::Leetcode), "[]\n");
        assert_eq!(written(3, BoardFormat::Cols), "");
        assert_eq!(written(1, BoardFormat::Leetcode), "[[\"Q\"]]\n");
        // The same bytes as the listing of a board with exactly this solution would hold.
        let mut raw = Vec::new();
        write_any(9, BoardFormat::Raw, &mut raw).unwrap();
        assert_eq!(raw, [3, 5, 7, 1, 4, 6, 8, 0, 2]);
        let err = write_any(MAX_ANY_N + 1, BoardFormat::Cols, &mut Vec::new()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn the_small_boards_of_the_module_docs() {
        let one_based = |n| any_solution(n).unwrap().unwrap().iter().map(|c| c + 1).collect::<Vec<_>>();
        assert_eq!(one_based(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(one_based(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(one_based(6), [2, 4, 6, 1, 3, 5]);
        assert_eq!(one_based(4), [2, 4, 1, 3]);
    }
}

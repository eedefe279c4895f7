//! Whether queens attack each other, for boards of any side: the [`Line`] two queens share and
//! the lines taken so far ([`Occupancy`]). Below both the decoder of board lists
//! ([`crate::boards`], which stops keeping a long line of garbage early) and the checker
//! ([`crate::check`], which re-exports them), so that neither imports the other for them.

use std::fmt;

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

/// The lines taken by queens placed one row at a time, for boards of any side: a bit per
/// column, per anti-diagonal (row + column) and per diagonal (row − column, zigzag-coded), grown
/// as needed: about 5 bits a row. What [`crate::check::is_solution`] and the checker use beyond the masks
/// (n > 64), and what the decoder uses to stop keeping a long line of garbage early.
#[derive(Clone, Debug, Default)]
pub struct Occupancy {
    cols: Vec<u64>,
    sums: Vec<u64>,
    diffs: Vec<u64>,
}

impl Occupancy {
    /// Forgets every queen, keeping the memory.
    pub fn clear(&mut self) {
        for bits in [&mut self.cols, &mut self.sums, &mut self.diffs] {
            bits.iter_mut().for_each(|w| *w = 0);
        }
    }

    /// Places a queen at (`row`, `col`), 0-based, and returns the line it shares with a queen
    /// placed before (column first, then diagonal, then anti-diagonal), if any; the queen is
    /// placed either way.
    ///
    /// # Errors
    /// The bytes asked for, if the bits cannot grow.
    pub fn place(&mut self, row: u64, col: u64) -> Result<Option<Line>, u64> {
        let diff = if row >= col { 2 * (row - col) } else { 2 * (col - row) - 1 };
        let mut found = None;
        for (bits, at, line) in [
            (&mut self.cols, col, Line::Column),
            (&mut self.diffs, diff, Line::Diagonal),
            (&mut self.sums, row + col, Line::AntiDiagonal),
        ] {
            let word = (at / 64) as usize;
            if word >= bits.len() {
                let len = (word + 1).max(2 * bits.len());
                bits.try_reserve_exact(len - bits.len()).map_err(|_| 8 * len as u64)?;
                bits.resize(len, 0);
            }
            let bit = 1u64 << (at % 64);
            if bits[word] & bit != 0 && found.is_none() {
                found = Some(line);
            }
            bits[word] |= bit;
        }
        Ok(found)
    }
}

/// Returns the first row `a` < `b` whose queen (`cols[a]`, 1-based) attacks a queen in row `b`
/// at the 0-based column `cb`, and how: the pair a message names. There must be one.
pub(crate) fn first_attacker(cols: &[u32], b: usize, cb: u32) -> (usize, Line) {
    let cb = u64::from(cb);
    for (a, &ca) in cols.iter().enumerate().take(b) {
        let ca = u64::from(ca) - 1;
        if ca == cb {
            return (a, Line::Column);
        }
        if (b - a) as u64 == ca.abs_diff(cb) {
            return (a, if cb > ca { Line::Diagonal } else { Line::AntiDiagonal });
        }
    }
    unreachable!("the caller found an attacker")
}

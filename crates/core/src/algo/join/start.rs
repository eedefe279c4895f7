//! Start configurations: what is fixed before the two halves are joined.
//!
//! - Even n: nothing; the east rows S are any h of the n rows.
//! - Odd n, centre: one queen at the centre (h, h) fills the middle row and column; S is any h
//!   of the n−1 other rows, and both halves avoid the two long diagonals.
//! - Odd n, axis (a, b): a queen at (h, h+a) in the middle row and one at (h+b, h) in the
//!   middle column, 0 < a < b ≤ h. D4 acts freely on the pairs (a, b) with a, b ≠ 0 and
//!   |a| ≠ |b| (equal distances share a diagonal), and these h(h−1)/2 are one per orbit, so
//!   each counts 8 times. The west half loses column h+a and has h−1 queens; S is any h of the
//!   n−2 free rows.

use super::bits::low_mask;
use super::half::Geometry;

/// A start configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Even n: nothing pre-placed.
    Even,
    /// Odd n: the centre queen.
    Centre,
    /// Odd n: queens at (h, h+a) and (h+b, h), 0 < a < b ≤ h.
    Axis {
        /// Column offset of the middle-row queen from the centre.
        a: u32,
        /// Row offset of the middle-column queen from the centre.
        b: u32,
    },
}

impl Start {
    /// Returns every start configuration of the `n`×`n` board, in the fixed unit order:
    /// `Even`, or `Centre` then `Axis` by a, then b.
    #[cfg(any(test, feature = "internals"))]
    pub fn all(n: u32) -> Vec<Start> {
        let h = n / 2;
        if n.is_multiple_of(2) {
            return vec![Start::Even];
        }
        let mut starts = vec![Start::Centre];
        for a in 1..h {
            for b in a + 1..=h {
                starts.push(Start::Axis { a, b });
            }
        }
        starts
    }

    /// Returns the rows the two halves share out (a mask over the board's rows).
    pub fn free_rows(self, g: &Geometry) -> u64 {
        let all = low_mask(g.n);
        match self {
            Start::Even => all,
            Start::Centre => all & !(1 << g.h),
            Start::Axis { b, .. } => all & !(1 << g.h) & !(1 << (g.h + b)),
        }
    }

    /// Returns the west half's local columns (an h-bit mask).
    pub fn west_cols(self, g: &Geometry) -> u32 {
        let all = low_mask(g.h) as u32;
        match self {
            Start::Axis { a, .. } => all & !(1 << (a - 1)),
            _ => all,
        }
    }

    /// Returns the global diagonals (u, v) of the pre-placed queens, which both halves avoid.
    pub fn taken(self, g: &Geometry) -> (u64, u64) {
        let (n, h) = (g.n, g.h);
        match self {
            Start::Even => (0, 0),
            Start::Centre => (1 << (n - 1), 1 << (n - 1)),
            Start::Axis { a, b } => {
                ((1 << (2 * h + a)) | (1 << (2 * h + b)), (1 << (n - 1 + a)) | (1 << (n - 1 - b)))
            }
        }
    }

    /// Returns the times each solution of this configuration stands for (8 for an axis pair).
    #[cfg(any(test, feature = "internals"))]
    pub fn weight(self) -> u32 {
        match self {
            Start::Axis { .. } => 8,
            _ => 1,
        }
    }
}

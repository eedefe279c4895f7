//! A row set's placements counted by column set with a few of each list drawn at random
//! ([`QuarterTable::row_sample`]), for the estimate of a unit's half-boards
//! ([`JoinPlan::unit_halves`](crate::algo::join::JoinPlan::unit_halves)).

use super::{MAX_H, QuarterTable, place, row_list};

impl QuarterTable {
    /// Returns the placements on exactly the local rows `rows` of the h×h square counted by
    /// column set, as the table's lists hold them, with up to `per` of each
    /// column set's drawn uniformly without replacement (reservoir sampling, J. S. Vitter's
    /// algorithm R, 1985) by an xorshift generator seeded with `seed`: the same walk, for the
    /// estimate of a unit's half-boards ([`JoinPlan::unit_halves`](crate::algo::join::JoinPlan::unit_halves)).
    ///
    /// # Panics
    /// If `h` > [`MAX_H`], `rows` has bits at or above h, or `per` is 0.
    pub fn row_sample(h: u32, rows: u32, per: usize, seed: u64) -> RowSample {
        assert!(h <= MAX_H && rows >> h == 0 && per > 0, "row set {rows:#b} on side {h}, {per} a list");
        let mut counts = vec![0u32; 1 << h];
        let mut drawn = vec![0u64; per << h];
        let mut order = [0u32; MAX_H as usize];
        let order = row_list(rows, &mut order);
        let mut state = seed | 1;
        place(h, order, 0, 0, 0, &|_| u32::MAX, &mut |cols, entry| {
            let c = cols as usize;
            let seen = counts[c] as usize;
            counts[c] += 1;
            let slot = if seen < per {
                seen
            } else {
                // xorshift64 (G. Marsaglia, 2003), taken to 0..=seen by a multiply instead of
                // a division (D. Lemire, 2019): slot `seen` of the list replaces a drawn one
                // with probability per / (seen + 1).
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                ((u128::from(state) * (seen as u128 + 1)) >> 64) as usize
            };
            if slot < per {
                drawn[c * per + slot] = entry;
            }
        });
        RowSample { counts, drawn, per }
    }
}

/// The placements on one row set of a quarter counted by column set, with up to `per` of each
/// column set's drawn at random ([`QuarterTable::row_sample`]).
#[derive(Clone, Debug)]
pub struct RowSample {
    /// |L(rows, C)| at index C (an h-bit column mask).
    counts: Vec<u32>,
    /// The placements drawn (u | v << 32, as the lists hold them): column set C's at
    /// `per` · C, the first min(|L(rows, C)|, `per`) of those `per` slots.
    drawn: Vec<u64>,
    per: usize,
}

impl RowSample {
    /// Returns |L(rows, `cols`)| and the placements drawn from that list.
    pub fn at(&self, cols: u32) -> (u64, &[u64]) {
        let c = cols as usize;
        let len = self.counts[c];
        (u64::from(len), &self.drawn[c * self.per..c * self.per + (len as usize).min(self.per)])
    }
}

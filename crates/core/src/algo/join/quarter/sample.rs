//! A row set's placements counted by column set with a few of each list drawn at random
//! ([`QuarterTable::row_sample`]), for the estimate of a unit's half-boards
//! ([`JoinPlan::unit_halves`](crate::algo::join::JoinPlan::unit_halves)).

use super::{MAX_H, QuarterTable, place, row_list};
use crate::algo::join::bits::mix;

impl QuarterTable {
    /// Returns the placements on exactly the local rows `rows` of the h×h square counted by
    /// column set, as the table's lists hold them, with up to `per` of each column set's drawn
    /// uniformly without replacement (reservoir sampling, J. S. Vitter's algorithm R, 1985) by an
    /// xorshift generator seeded with `seed`: the same walk, for the estimate of a unit's
    /// half-boards ([`JoinPlan::unit_halves`](crate::algo::join::JoinPlan::unit_halves)).
    ///
    /// With `keep` below 1, on four rows or more, the walk is thinned: each placement on all
    /// rows but the last two is extended to them with probability `keep` (drawn by the same
    /// generator), and the counts stand for 1/`keep` placements each, so each list's length is
    /// estimated without bias and the draws are uniform among the placements kept. Most of a
    /// walk's work is on its last two rows (on 7 of 14 rows: 0.8–2.5 million placements under
    /// 0.24–0.5 million on 6 rows and 54,000–77,000 on 5), so a walk kept at an eighth costs about
    /// a third of a whole one with its draws (results/2026-12-05-plan-allocation/).
    ///
    /// # Panics
    /// If `h` > [`MAX_H`], `rows` has bits at or above h, `per` is 0, or `keep` is not in
    /// (0, 1].
    pub fn row_sample(h: u32, rows: u32, per: usize, keep: f64, seed: u64) -> RowSample {
        assert!(h <= MAX_H && rows >> h == 0 && per > 0, "row set {rows:#b} on side {h}, {per} a list");
        assert!(keep > 0.0 && keep <= 1.0, "a walk kept at {keep}: in (0, 1]");
        let mut counts = vec![0u32; 1 << h];
        let mut drawn = vec![0u64; per << h];
        let mut order = [0u32; MAX_H as usize];
        let order = row_list(rows, &mut order);
        let thinned = keep < 1.0 && order.len() >= 4;
        // xorshift64 (G. Marsaglia, 2003), seeded through a hash, so that nearby seeds do not
        // start with nearby, small draws.
        let mut state = mix(seed, 1) | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut record = |cols: u32, entry: u64, next: &mut dyn FnMut() -> u64| {
            let c = cols as usize;
            let seen = counts[c] as usize;
            counts[c] += 1;
            // Slot `seen` of the list replaces a drawn one with probability per / (seen + 1),
            // taken to 0..=seen by a multiply instead of a division (D. Lemire, 2019).
            let slot = if seen < per { seen } else { ((u128::from(next()) * (seen as u128 + 1)) >> 64) as usize };
            if slot < per {
                drawn[c * per + slot] = entry;
            }
        };
        let all = &|_: u32| u32::MAX;
        if thinned {
            // Kept with probability `keep`: a draw below it among 2^64.
            let below = (keep * 2f64.powi(64)).min(u64::MAX as f64) as u64;
            let (upper, lower) = order.split_at(order.len() - 2);
            place(h, upper, 0, 0, 0, all, &mut |cols, entry| {
                if next() < below {
                    // The entry holds the diagonals taken, u | v << 32.
                    let (u, v) = (entry & 0xffff_ffff, entry >> 32);
                    place(h, lower, cols, u, v, all, &mut |cols, entry| record(cols, entry, &mut next));
                }
            });
        } else {
            place(h, order, 0, 0, 0, all, &mut |cols, entry| record(cols, entry, &mut next));
        }
        RowSample { counts, drawn, per, scale: if thinned { 1.0 / keep } else { 1.0 } }
    }
}

/// The placements on one row set of a quarter counted by column set, with up to `per` of each
/// column set's drawn at random ([`QuarterTable::row_sample`]).
#[derive(Clone, Debug)]
pub struct RowSample {
    /// The placements of column set C the walk counted, at index C (an h-bit column mask).
    counts: Vec<u32>,
    /// The placements drawn (u | v << 32, as the lists hold them): column set C's at
    /// `per` · C, the first min(counted, `per`) of those `per` slots.
    drawn: Vec<u64>,
    per: usize,
    /// The placements each one counted stands for: 1 / the walk's `keep` where thinned, else 1.
    scale: f64,
}

impl RowSample {
    /// Returns |L(rows, `cols`)| (exact where the walk was not thinned, else an unbiased
    /// estimate) and the placements drawn from that list.
    pub fn at(&self, cols: u32) -> (f64, &[u64]) {
        let c = cols as usize;
        let len = self.counts[c];
        (f64::from(len) * self.scale, &self.drawn[c * self.per..c * self.per + (len as usize).min(self.per)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole walk counts each list exactly and draws placements of that list; a thinned one
    /// estimates each length without bias (over 400 seeds, every list's mean within five of its
    /// standard errors, and the total within 2%) and draws only placements of the list.
    #[test]
    fn thinned_walks_estimate_the_lists_without_bias() {
        let h = 8;
        for rows in [0b0101_1011u32, 0b1111_0000, 0b0011_1110] {
            let exact = QuarterTable::row_lengths(h, rows);
            let whole = QuarterTable::row_sample(h, rows, 4, 1.0, 7);
            let mut table = QuarterTable::rows_only(h);
            table.load_rows(&[rows]);
            for cols in 0..1u32 << h {
                let (len, drawn) = whole.at(cols);
                assert_eq!(len, f64::from(exact[cols as usize]), "rows {rows:#b} cols {cols:#b}");
                assert_eq!(drawn.len(), (exact[cols as usize] as usize).min(4));
                let list = table.cells(rows, cols).0;
                assert!(drawn.iter().all(|d| list.contains(d)), "rows {rows:#b} cols {cols:#b}");
            }
            let seeds = 400;
            let (keep, mut sum, mut sq) = (0.25, vec![0.0; 1 << h], vec![0.0; 1 << h]);
            for seed in 0..seeds {
                let thinned = QuarterTable::row_sample(h, rows, 4, keep, seed);
                for cols in 0..1u32 << h {
                    let (len, drawn) = thinned.at(cols);
                    sum[cols as usize] += len;
                    sq[cols as usize] += len * len;
                    let list = table.cells(rows, cols).0;
                    assert!(drawn.iter().all(|d| list.contains(d)), "rows {rows:#b} cols {cols:#b}");
                }
            }
            let n = seeds as f64;
            for cols in 0..1usize << h {
                let mean = sum[cols] / n;
                let se = ((sq[cols] / n - mean * mean).max(0.0) / n).sqrt();
                let truth = f64::from(exact[cols]);
                assert!((mean - truth).abs() <= 5.0 * se + 1e-9, "rows {rows:#b} cols {cols:#b}: {mean} ± {se} against {truth}");
            }
            let (total, truth) = (sum.iter().sum::<f64>() / n, exact.iter().map(|&e| f64::from(e)).sum::<f64>());
            assert!((total / truth - 1.0).abs() < 0.02, "rows {rows:#b}: {total} against {truth}");
        }
    }
}

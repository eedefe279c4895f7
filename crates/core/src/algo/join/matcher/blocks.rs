//! The block loop: one block's tables against runs of masks of the other side, one table row
//! ANDed per chunk and the ones counted ([`count_runs`]), in one copy per chunk count and width
//! a board reaches.

use super::types::{Matcher, Run, WEIGHTS};
use crate::arch::{Level, Row, Simd, Tally, multiversion};

/// Returns the weighted count of block `block` of the tables of `m` against the `runs` of
/// `values` (squeezed like the block's masks): Σ over the runs of the run's weight × the block's
/// masks disjoint from each of its masks, each weighed by its word's weight; and the disjoint
/// pairs unweighted. In the copies of
/// `level`.
pub(super) fn count_runs(level: Level, m: &Matcher, block: usize, runs: &[Run], values: &[u64]) -> (u64, u64) {
    // One copy per (chunks, width) a board can reach: at most 2(2h − 1) = 54 mask bits
    // (h ≤ 14), so 11 chunks of 5 bits, 9 of 6, 8 of 7, 7 of 8, each a function of its own
    // per level (inlined into one function they ran 5–10% slower at AVX-512, n = 20). Other
    // shapes (widths under 5 are forced by tests only) take the loop with variable shifts.
    macro_rules! dispatch {
        ($($c:literal: $($k:literal)*;)*) => {
            match (m.chunks, m.bits_per_chunk) {
                $($(($k, $c) => runs_fixed::<$k, $c>(level, m, block, runs, values),)*)*
                _ => runs_any(level, m, block, runs, values),
            }
        };
    }
    dispatch!(
        5: 1 2 3 4 5 6 7 8 9 10 11;
        6: 1 2 3 4 5 6 7 8 9;
        7: 1 2 3 4 5 6 7 8;
        8: 1 2 3 4 5 6 7;
    )
}

multiversion! {
    /// The block loop for `K` chunks of `C` bits ([`runs_body`]).
    fn runs_fixed[const K: usize, const C: u32](m: &Matcher, block: usize, runs: &[Run], values: &[u64]) -> (u64, u64) => runs_fixed_body[K, C];
}

multiversion! {
    /// The block loop for any shape (variable shifts).
    fn runs_any(m: &Matcher, block: usize, runs: &[Run], values: &[u64]) -> (u64, u64) => runs_any_body;
}

/// The block loop for `K` chunks of `C` bits: the chunk loop unrolls with constant shifts and
/// offsets.
#[inline(always)]
unsafe fn runs_fixed_body<S: Simd, const K: usize, const C: u32>(
    m: &Matcher,
    block: usize,
    runs: &[Run],
    values: &[u64],
) -> (u64, u64) {
    debug_assert_eq!((m.chunks, m.bits_per_chunk), (K, C));
    // SAFETY: this runs with `S`'s features.
    unsafe { runs_body::<S>(m, block, runs, values, K, C) }
}

/// [`runs_fixed_body`] for any shape (variable shifts).
#[inline(always)]
unsafe fn runs_any_body<S: Simd>(m: &Matcher, block: usize, runs: &[Run], values: &[u64]) -> (u64, u64) {
    // SAFETY: this runs with `S`'s features.
    unsafe { runs_body::<S>(m, block, runs, values, m.chunks, m.bits_per_chunk) }
}

/// The loop of [`runs_fixed_body`]: per run (its masks of one weight, so the ones add up in one
/// [`Tally`] and are weighed once), each mask ANDs one row per chunk and the tally counts the
/// ones; constant `chunks` and `c` when inlined from there. (Row offsets precomputed per mask
/// with `pdep`, one `u16` load per chunk instead of a shift and a mask, ran 6% slower on
/// AVX-512.)
#[inline(always)]
unsafe fn runs_body<S: Simd>(
    m: &Matcher,
    block: usize,
    runs: &[Run],
    values: &[u64],
    chunks: usize,
    c: u32,
) -> (u64, u64) {
    let rows = 1usize << c;
    let mask = rows as u64 - 1;
    let tables = &m.tables[block * m.block_rows..(block + 1) * m.block_rows];
    let groups = &m.block_groups[block];
    let (mut total, mut all_ones) = (0u64, 0u64);
    for run in runs {
        // The ones of the run, by group of the block's words of one weight.
        let mut ones = [0u64; WEIGHTS];
        for part in values[run.start..run.end].chunks(S::Tally::BATCH) {
            // SAFETY: (the loop) this runs with `S`'s features; chunk k's row (q >> k·c) & mask
            // is below `rows`, so row k·rows + it lies inside this block's rows (the last
            // chunk's only up to its own bits, which the squeezed mask does not exceed).
            unsafe {
                let mut tally = S::Tally::new();
                for &q in part {
                    let mut acc = S::Row::load(tables.get_unchecked((q & mask) as usize));
                    for k in 1..chunks {
                        let row = k * rows + ((q >> (k as u32 * c)) & mask) as usize;
                        acc = acc.and(S::Row::load(tables.get_unchecked(row)));
                    }
                    tally.add(acc);
                }
                for (o, &(words, _)) in ones.iter_mut().zip(groups) {
                    if words != 0 {
                        *o += tally.sum(words);
                    }
                }
            }
        }
        let weighted: u64 = ones.iter().zip(groups).map(|(&o, &(_, weight))| o * u64::from(weight)).sum();
        total += weighted * u64::from(run.weight);
        all_ones += ones.iter().sum::<u64>();
    }
    (total, all_ones)
}

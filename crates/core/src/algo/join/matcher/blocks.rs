//! The block loop: per stored block, per run of queries of one compatible bucket and one
//! weight, one table row ANDed per chunk and the ones counted ([`block_loop`]), in one copy per
//! chunk count and width a board reaches; and the raw tails, tested mask by mask.

use super::types::{CLASSES, Matcher, WORDS};
use crate::arch::{Level, Row, Simd, Tally, multiversion};

/// Returns the weighted count of part `part` of `parts` of the stored blocks and raw tails of
/// `m` against `queries` (squeezed and sorted into runs by bucket and slot), in the copies of
/// `level`: the blocks and the raw tail runs `part`, `part + parts`, … (each once over the parts);
/// and the disjoint pairs unweighted.
pub(super) fn count_sorted(
    level: Level,
    m: &Matcher,
    queries: &[u64],
    part: usize,
    parts: usize,
) -> (u64, u64) {
    // One copy per (chunks, width) a board can reach: at most 2(2h − 1) = 50 mask bits
    // (h ≤ 13), so 10 chunks of 5 bits, 9 of 6, 8 of 7, 7 of 8, each a function of its own
    // per level (inlined into one function they ran 5–10% slower at AVX-512, n = 20). Other
    // shapes (widths under 5 are forced by tests only) take the loop with variable shifts.
    macro_rules! dispatch {
        ($($c:literal: $($k:literal)*;)*) => {
            match (m.chunks, m.bits_per_chunk) {
                $($(($k, $c) => blocks::<$k, $c>(level, m, queries, part, parts),)*)*
                _ => blocks_any(level, m, queries, part, parts),
            }
        };
    }
    let (tail, tail_ones) = tail_sum(m, queries, part, parts);
    let (blocks, ones) = dispatch!(
            5: 1 2 3 4 5 6 7 8 9 10;
            6: 1 2 3 4 5 6 7 8 9;
            7: 1 2 3 4 5 6 7 8;
            8: 1 2 3 4 5 6 7;
        );
    (tail + blocks, tail_ones + ones)
}

multiversion! {
    /// The block loop for `K` chunks of `C` bits ([`blocks_body`]).
    fn blocks[const K: usize, const C: u32](m: &Matcher, queries: &[u64], part: usize, parts: usize) -> (u64, u64) => blocks_body[K, C];
}

multiversion! {
    /// The block loop for any shape (variable shifts).
    fn blocks_any(m: &Matcher, queries: &[u64], part: usize, parts: usize) -> (u64, u64) => blocks_any_body;
}

/// The block loop for `K` chunks of `C` bits: per block, per run of queries of one bucket and
/// weight (so each run's ones add up in one [`Tally`] and are weighed once), each query ANDs
/// one row per chunk and the tally counts the ones. The chunk loop unrolls with constant
/// shifts and offsets. (Row offsets precomputed per query with `pdep`, one `u16` load per
/// chunk instead of a shift and a mask, ran 6% slower on AVX-512.)
#[inline(always)]
unsafe fn blocks_body<S: Simd, const K: usize, const C: u32>(
    m: &Matcher,
    queries: &[u64],
    part: usize,
    parts: usize,
) -> (u64, u64) {
    debug_assert_eq!((m.chunks, m.bits_per_chunk), (K, C));
    // SAFETY: this runs with `S`'s features.
    unsafe { block_loop::<S>(m, queries, K, C, part, parts) }
}

/// [`blocks_body`] for any shape (variable shifts).
#[inline(always)]
unsafe fn blocks_any_body<S: Simd>(m: &Matcher, queries: &[u64], part: usize, parts: usize) -> (u64, u64) {
    // SAFETY: this runs with `S`'s features.
    unsafe { block_loop::<S>(m, queries, m.chunks, m.bits_per_chunk, part, parts) }
}

/// The loop of [`blocks_body`] over the blocks `part`, `part + parts`, …: constant `chunks` and
/// `c` when inlined from there. (Plain loops over buckets and slots: the iterator of [`runs`]
/// was not inlined here and cost 5%.)
#[inline(always)]
unsafe fn block_loop<S: Simd>(
    m: &Matcher,
    queries: &[u64],
    chunks: usize,
    c: u32,
    part: usize,
    parts: usize,
) -> (u64, u64) {
    let rows = 1usize << c;
    let mask = rows as u64 - 1;
    let (mut total, mut all_ones) = (0u64, 0u64);
    for b in (part..m.block_weights.len()).step_by(parts.max(1)) {
        let (block_weight, bucket) = (m.block_weights[b], m.block_buckets[b]);
        let tables = &m.tables[b * m.block_rows..(b + 1) * m.block_rows];
        let mut sum = 0u64;
        // The query buckets disjoint from the block's: the submasks of its complement.
        let free = !bucket & (m.query_buckets() as u32 - 1);
        let mut qb = free;
        loop {
            let words = word_mask(m, b, qb);
            let first = qb as usize * CLASSES;
            for (slot, &weight) in m.run_weights.iter().enumerate() {
                let run = &queries[m.query_starts[first + slot]..m.query_starts[first + slot + 1]];
                if run.is_empty() || weight == 0 {
                    continue;
                }
                let mut ones = 0;
                for part in run.chunks(S::Tally::BATCH) {
                    // SAFETY: (the loop) this runs with `S`'s features; chunk k's row
                    // (q >> k·c) & mask is below `rows`, so row k·rows + it lies inside this
                    // block's rows (the last chunk's only up to its own bits, which the
                    // squeezed query does not exceed).
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
                        ones += tally.sum(words);
                    }
                }
                sum += ones * weight as u64;
                all_ones += ones;
            }
            if qb == 0 {
                break;
            }
            qb = (qb - 1) & free;
        }
        total += sum * block_weight as u64;
    }
    (total, all_ones)
}

/// Returns the words of block `b` that queries of bucket `qb` meet (bit w: word w), for a
/// query bucket disjoint from the block's bucket: all eight for a block of one bucket.
#[inline(always)]
fn word_mask(m: &Matcher, b: usize, qb: u32) -> u8 {
    match m.block_words[b] {
        u32::MAX => 0xff,
        i => {
            let buckets = &m.word_buckets[i as usize];
            (0..WORDS).fold(0u8, |mask, w| mask | (((buckets[w] & qb == 0) as u8) << w))
        }
    }
}

/// Returns the weighted count of the raw tail runs `part`, `part + parts`, … against the
/// compatible (squeezed, sorted) queries, and the disjoint pairs unweighted.
#[inline(always)]
fn tail_sum(m: &Matcher, queries: &[u64], part: usize, parts: usize) -> (u64, u64) {
    let (mut total, mut ones) = (0, 0);
    for run in m.tail_runs.iter().skip(part).step_by(parts.max(1)) {
        let masks = &m.tail[run.start as usize..run.end as usize];
        let mut sum = 0u64;
        let free = !run.bucket as usize & (m.query_buckets() - 1);
        for qb in (0..m.query_buckets()).filter(|&qb| qb & !free == 0) {
            for (slot, &weight) in m.run_weights.iter().enumerate().filter(|(_, w)| **w != 0) {
                let range = m.query_starts[qb * CLASSES + slot]..m.query_starts[qb * CLASSES + slot + 1];
                for &q in &queries[range] {
                    let free = masks.iter().filter(|&&t| t & q == 0).count() as u64;
                    sum += free * weight as u64;
                    ones += free;
                }
            }
        }
        total += sum * run.weight as u64;
    }
    (total, ones)
}

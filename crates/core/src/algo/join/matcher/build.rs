//! Both sides prepared for the passes ([`Matcher::prepare`]): the cut bits chosen, each stored
//! class and the codes sorted in place by bucket (the codes by weight slot within it) and
//! squeezed; and the blocks of one bucket's masks bit-sliced into tables ([`Matcher::fill`],
//! [`fill_block`], from 64×64 bit transposes).

use super::codes::{sort_in_place, squeeze_all};
use super::types::{Matcher, Run, WEIGHTS, WORDS};
use crate::algo::join::bits::low_mask;
use crate::arch::{Bits512, Level, Simd, multiversion};

impl Matcher {
    /// Prepares the stored side `stored` — its `classes` one after the other, each (masks,
    /// weight) — for the passes against the `codes`: chooses the cut bits
    /// ([`Matcher::choose_cut`]) and the bits to match (those both sides use, but the cut
    /// bits), sorts each stored class in place by bucket and squeezes it. (The codes are sorted
    /// batch by batch: [`Matcher::code_starts`], [`Matcher::sort_codes`].)
    pub(super) fn prepare(&mut self, level: Level, stored: &mut [u64], classes: &[(usize, u32)], codes: &[u64]) {
        let all = stored.iter().fold(0, |a, &m| a | m);
        let cut = self.choose_cut(level, stored, codes, all);
        self.cut = cut;
        let queried = codes.iter().fold(0, |a, &m| a | m) & low_mask(62);
        self.occupied = all & queried & !cut;
        let buckets = 1usize << cut.count_ones();
        let low = (buckets - 1) as u16;
        self.class_starts.clear();
        self.class_weights.clear();
        let mut index = std::mem::take(&mut self.stored_index);
        let mut offset = 0;
        for &(len, weight) in classes {
            let masks = &mut stored[offset..offset + len];
            // The bucket starts of the class, absolute in `stored`.
            let first = self.class_starts.len();
            self.class_starts.resize(first + buckets + 1, 0);
            let starts = &mut self.class_starts[first..];
            if cut == 0 {
                starts[1] = len;
            } else {
                let index = &mut index[offset..offset + len];
                for &b in index.iter() {
                    starts[(b & low) as usize + 1] += 1;
                }
                for i in 1..=buckets {
                    starts[i] += starts[i - 1];
                }
                sort_in_place(masks, index, starts, &mut self.sorts, move |b, _| (b & low) as usize);
            }
            starts.iter_mut().for_each(|s| *s += offset);
            squeeze_all(level, masks, self.occupied, 0);
            self.class_weights.push(weight);
            offset += len;
        }
        self.stored_index = index;
    }

    /// Chooses the chunk width for blocks each met by about `visits` masks, sets the chunks and
    /// rows a block has, and empties the tables: per block, building costs a row per table row
    /// and matching a row per chunk per mask met, wider chunks having fewer chunks but more,
    /// and slower, rows ([`Costs`]).
    pub(super) fn set_width(&mut self, level: Level, visits: f64) {
        let bits = self.occupied.count_ones();
        let costs = Costs::of(level);
        let cost = |c: u32| {
            let chunks = bits.div_ceil(c).max(1);
            let rows = rows_of(bits, c);
            rows as f64 * costs.per_row as f64 + visits * (chunks as u64 * costs.row(c) + costs.per_query) as f64
        };
        let c = self.widths().min_by(|&a, &b| cost(a).total_cmp(&cost(b))).unwrap_or(super::CHUNK);
        self.bits_per_chunk = c;
        self.chunks = (bits.div_ceil(c) as usize).max(1);
        self.block_rows = rows_of(bits, c);
        self.tables.clear();
    }

    /// Replaces the tables with those of the blocks `blocks` of the 64-lane `words` of `values`
    /// (block b: words 8b to 8b + 7, each a run of squeezed masks of one weight, at most 64);
    /// records each block's words by weight in `block_groups`.
    pub(super) fn fill(&mut self, level: Level, values: &[u64], words: &[Run], blocks: std::ops::Range<usize>) {
        let (chunks, c, bits) = (self.chunks, self.bits_per_chunk, self.occupied.count_ones());
        self.tables.clear();
        self.block_groups.clear();
        self.tables.reserve(blocks.len() * self.block_rows);
        for b in blocks {
            let block = &words[b * WORDS..((b + 1) * WORDS).min(words.len())];
            let slices: [&[u64]; WORDS] =
                std::array::from_fn(|w| block.get(w).map_or(&[][..], |r| &values[r.start..r.end]));
            fill_block(level, &slices, &mut self.tables, chunks, c, bits);
            let mut groups = [(0u8, 0u32); WEIGHTS];
            for (w, r) in block.iter().enumerate() {
                let g = groups.iter().position(|g| g.0 == 0 || g.1 == r.weight).expect("at most four weights");
                groups[g] = (groups[g].0 | 1 << w, r.weight);
            }
            self.block_groups.push(groups);
        }
    }
}

/// Returns the blocks the runs of `lens` masks take, packed as [`Matcher::fill`] packs them.
pub(super) fn blocks_of(lens: impl Iterator<Item = usize>) -> u64 {
    (lens.map(|n| n.div_ceil(64)).sum::<usize>().div_ceil(WORDS)) as u64
}

/// Returns the table rows of a block over `bits` mask bits in chunks of `c` bits: 2^c a chunk,
/// 2^(its bits) for a last, narrower one.
fn rows_of(bits: u32, c: u32) -> usize {
    let chunks = bits.div_ceil(c).max(1) as usize;
    (chunks - 1) * (1 << c) + (1 << (bits - (chunks as u32 - 1) * c).min(c))
}

/// The matcher's costs for one instruction-set level, in tenths of one row AND of the block
/// loop at chunks of up to 6 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Costs {
    /// One row load and AND for chunks of 5, 6, 7 and 8 bits: a block's tables fit L1 up to
    /// 6 bits per chunk (4 KiB a chunk); at 7 and 8 bits (8 and 16 KiB a chunk) some loads go
    /// to L2.
    pub(super) rows: [u64; 4],
    /// Per mask met besides its rows: counting the ones, the loop.
    pub(super) per_query: u64,
    /// Building one table row: two loads, one AND, one store.
    pub(super) per_row: u64,
}

impl Costs {
    /// Returns the constants of `level`. AVX-512 (measured on Zen 4 at n = 18–22,
    /// results/2026-12-01-join-scale/ and results/2026-12-01-join-final/: 8-bit chunks, 4
    /// loads for 32 bits, matched 1.15× faster than 6-bit ones, 6 loads).
    pub(super) fn of(level: Level) -> Costs {
        let _ = level;
        Costs { rows: [10, 10, 11, 12], per_query: 40, per_row: 20 }
    }

    /// Returns the cost of one row for chunks of `c` bits.
    pub(super) fn row(&self, c: u32) -> u64 {
        self.rows[(c.clamp(super::CHUNK, super::MAX_CHUNK) - super::CHUNK) as usize]
    }
}

multiversion! {
    /// Appends one block's chunk tables to `tables` for the masks of its eight 64-lane `words`
    /// (squeezed, at most 64 each) over `bits` mask bits in `chunks` chunks of `c` bits: row
    /// s of chunk k has bit i set if and only if stored mask i exists and leaves every bit of
    /// s (shifted to the chunk) free.
    fn fill_block(words: &[&[u64]; WORDS], tables: &mut Vec<Bits512>, chunks: usize, c: u32, bits: u32)
        => fill_block_body;
}

/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled (every `*_body` of the matcher
/// alike).
#[inline(always)]
unsafe fn fill_block_body<S: Simd>(
    words: &[&[u64]; WORDS],
    tables: &mut Vec<Bits512>,
    chunks: usize,
    c: u32,
    bits: u32,
) {
    // free[j] has bit i set if and only if stored mask i leaves bit j free: 64×64 bit
    // transposes of the complemented masks.
    let mut free = [[0u64; WORDS]; 64];
    let mut valid = Bits512::default();
    for (w, &group) in words.iter().enumerate() {
        if group.is_empty() {
            continue;
        }
        let mut m = [0u64; 64];
        for (i, &x) in group.iter().enumerate() {
            m[i] = !x & low_mask(bits);
        }
        // SAFETY: this runs with `S`'s features.
        unsafe { S::transpose64(&mut m) };
        for j in 0..bits as usize {
            free[j][w] = m[j];
        }
        valid.0[w] = low_mask(group.len() as u32);
    }
    for k in 0..chunks {
        // Every chunk but the last has 2^c rows, so chunk k starts at k · 2^c.
        let rows = 1usize << (bits - k as u32 * c).min(c);
        let first = tables.len();
        tables.push(valid);
        for s in 1..rows {
            let prev = tables[first + (s & (s - 1))];
            let f = &free[k * c as usize + s.trailing_zeros() as usize];
            tables.push(Bits512(std::array::from_fn(|w| prev.0[w] & f[w])));
        }
    }
}

//! The build of the stored side: masks sorted by sieve bucket, squeezed, and packed into blocks
//! of [`BLOCK`] masks (a bucket's whole blocks, its remainder in 64-lane words shared with
//! its siblings' remainders, or a short raw tail), and each block's chunk tables filled
//! ([`fill_block`]) from 64×64 bit transposes.

use super::codes::{scatter, squeeze_all};
use super::sieve::{Costs, SIBLINGS, SIEVE_FROM, SIEVE_PAIRS, sieve_cost};
use super::types::{BLOCK, CHUNK, Matcher, TAIL, TailRun, WORDS};
use crate::algo::join::bits::low_mask;
use crate::arch::{Bits512, Level, Simd, multiversion};

impl Matcher {
    /// Stores `classes`: masks with the weight each counts for.
    pub fn build(&mut self, level: Level, classes: &[(&[u64], u32)], queries: &[u64]) {
        let all = classes.iter().flat_map(|c| c.0.iter()).fold(0, |a, &m| a | m);
        let stored: usize = classes.iter().map(|c| c.0.len()).sum();
        let small = match self.sieve_from {
            Some(from) => stored < from,
            None => stored < SIEVE_FROM || (stored as u64).saturating_mul(queries.len() as u64) < SIEVE_PAIRS,
        };
        let (cut, c) = if small && self.cuts.is_none() {
            // One bucket: only the chunk width to choose.
            let bits = all.count_ones();
            let sizes = [stored as u32];
            let compat = [queries.len() as u64];
            let c = self
                .widths()
                .min_by_key(|&c| sieve_cost(&Costs::of(level), [&sizes[..]].into_iter(), &compat, bits, c))
                .unwrap_or(CHUNK);
            (0, c)
        } else {
            self.choose_cut(level, classes, queries, all)
        };
        self.cut = cut;
        let occupied = all & !cut;
        self.occupied = occupied;
        let bits = occupied.count_ones();
        let chunks = (bits.div_ceil(c) as usize).max(1);
        self.chunks = chunks;
        self.bits_per_chunk = c;
        // Chunk k has 2^c rows, the last one only 2^(its bits).
        let block_rows = (chunks - 1) * (1 << c) + (1 << (bits - (chunks as u32 - 1) * c).min(c));
        self.block_rows = block_rows;
        let buckets = 1usize << cut.count_ones();
        self.block_weights.clear();
        self.block_buckets.clear();
        self.block_words.clear();
        self.word_buckets.clear();
        self.tail.clear();
        self.tail_runs.clear();
        self.tables.clear();
        let low = (buckets - 1) as u16;
        let mut offset = 0;
        for (class, &(masks, weight)) in classes.iter().enumerate() {
            let index = if cut == 0 { &[][..] } else { &self.stored_index[offset..offset + masks.len()] };
            offset += masks.len();
            if masks.is_empty() || weight == 0 {
                continue;
            }
            let k = cut.count_ones() as usize;
            // Counting sort by cut-bit bucket (the greedy-order indices of `choose_cut`).
            let mut starts = std::mem::take(&mut self.next);
            starts.clear();
            starts.resize(buckets + 1, 0);
            if cut == 0 {
                starts[1] = masks.len();
                self.sorted.clear();
                self.sorted.extend_from_slice(masks);
            } else {
                if self.sizes_valid {
                    for (s, &n) in
                        starts[1..].iter_mut().zip(&self.sizes[class * buckets..(class + 1) * buckets])
                    {
                        *s = n as usize;
                    }
                } else {
                    for &b in index {
                        starts[(b & low) as usize + 1] += 1;
                    }
                }
                for i in 1..=buckets {
                    starts[i] += starts[i - 1];
                }
                // Every entry is written by the scatter: no need to clear first.
                self.sorted.resize(masks.len(), 0);
                scatter(index, low, masks, &mut starts, &mut self.sorted);
                // `starts[b]` is now the end of bucket b: shift back to starts.
                starts.copy_within(0..buckets, 1);
                starts[0] = 0;
            }
            // Whole blocks of each bucket; remainders of TAIL masks or more go into 64-lane
            // words, packed eight to a block among the 2^SIBLINGS buckets that differ only in
            // the last (least separating) cut bits; shorter ones stay raw.
            let group_bits = k.saturating_sub(SIBLINGS);
            self.remainders.clear();
            for group in 0..1usize << group_bits {
                for t in 0..1usize << (k - group_bits) {
                    let bucket = group | (t << group_bits);
                    let (lo, hi) = (starts[bucket], starts[bucket + 1]);
                    let len = hi - lo;
                    if len == 0 {
                        continue;
                    }
                    self.squeezed.clear();
                    self.squeezed.extend_from_slice(&self.sorted[lo..hi]);
                    squeeze_all(level, &mut self.squeezed, occupied, 0);
                    // Back in place: the blocks and words below read them there.
                    self.sorted[lo..hi].copy_from_slice(&self.squeezed);
                    let whole = len / BLOCK * BLOCK;
                    for b in (lo..lo + whole).step_by(BLOCK) {
                        self.push_block(level, b, bucket as u32, weight, chunks, c, bits);
                    }
                    let rest = len - whole;
                    if rest == 0 {
                        continue;
                    }
                    if rest < TAIL {
                        let start = self.tail.len() as u32;
                        self.tail.extend_from_slice(&self.sorted[lo + whole..hi]);
                        let end = self.tail.len() as u32;
                        self.tail_runs.push(TailRun { bucket: bucket as u32, weight, start, end });
                        continue;
                    }
                    for w in (lo + whole..hi).step_by(64) {
                        self.remainders.push((bucket as u32, w as u32, (w + 64).min(hi) as u32));
                    }
                }
                // The group's words, eight to a block.
                let words = std::mem::take(&mut self.remainders);
                for block in words.chunks(WORDS) {
                    self.push_shared(level, block, weight, chunks, c, bits);
                }
                self.remainders = words;
                self.remainders.clear();
            }
            self.next = starts;
        }
    }

    /// Adds the block of the 512 squeezed masks `sorted[start..start + BLOCK]`, all of
    /// `bucket`.
    #[allow(clippy::too_many_arguments)]
    fn push_block(
        &mut self,
        level: Level,
        start: usize,
        bucket: u32,
        weight: u32,
        chunks: usize,
        c: u32,
        bits: u32,
    ) {
        let words: [&[u64]; WORDS] =
            std::array::from_fn(|w| &self.sorted[start + 64 * w..start + 64 * (w + 1)]);
        self.block_weights.push(weight);
        self.block_buckets.push(bucket);
        self.block_words.push(u32::MAX);
        self.tables.reserve(self.block_rows);
        fill_block(level, &words, &mut self.tables, chunks, c, bits);
    }

    /// Adds a block of up to eight words (bucket, start, end in `sorted`), of one bucket or of
    /// sibling buckets.
    fn push_shared(
        &mut self,
        level: Level,
        block: &[(u32, u32, u32)],
        weight: u32,
        chunks: usize,
        c: u32,
        bits: u32,
    ) {
        let empty: &[u64] = &[];
        let words: [&[u64]; WORDS] = std::array::from_fn(|w| {
            block.get(w).map_or(empty, |&(_, lo, hi)| &self.sorted[lo as usize..hi as usize])
        });
        let buckets: [u32; WORDS] = std::array::from_fn(|w| block.get(w).map_or(u32::MAX, |r| r.0));
        let and = block.iter().fold(u32::MAX, |a, r| a & r.0);
        // Unused words hold no valid lane, so a block of one bucket needs no word buckets.
        let uniform = block.iter().all(|r| r.0 == and);
        self.block_weights.push(weight);
        self.block_buckets.push(and);
        if uniform {
            self.block_words.push(u32::MAX);
        } else {
            self.block_words.push(self.word_buckets.len() as u32);
            self.word_buckets.push(buckets);
        }
        self.tables.reserve(self.block_rows);
        fill_block(level, &words, &mut self.tables, chunks, c, bits);
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

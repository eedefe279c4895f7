//! The build of the stored side: the sieve chosen over the whole stored side, each class sorted
//! in place by sieve bucket and squeezed ([`Matcher::prepare_stored`]); then piece by piece
//! ([`Matcher::pieces`]: whole groups of sibling buckets, at most [`Matcher::max_stored`] masks
//! a piece unless one group is larger) the masks packed into blocks of [`BLOCK`] (a bucket's
//! whole blocks, its remainder in 64-lane words shared with its siblings' remainders, or a short
//! raw tail), and each block's chunk tables filled ([`fill_block`]) from 64×64 bit transposes
//! ([`Matcher::build_piece`]).

use super::codes::{sort_in_place, squeeze_all};
use super::sieve::{Costs, SIBLINGS, SIEVE_FROM, SIEVE_PAIRS, sieve_cost};
use super::types::{BLOCK, CHUNK, Matcher, Piece, TAIL, TailRun, WORDS};
use crate::algo::join::bits::low_mask;
use crate::arch::{Bits512, Level, Simd, multiversion};

impl Matcher {
    /// Chooses the sieve (cut bits and chunk width) for the stored side `stored` — its
    /// `classes` one after the other, each (masks, weight) — against `queries`; sorts each
    /// class in place by bucket and squeezes its masks (the cut bits and the bits no stored mask
    /// has taken out); keeps each class's bucket starts for [`Matcher::build_piece`].
    pub(super) fn prepare_stored(
        &mut self,
        level: Level,
        stored: &mut [u64],
        classes: &[(usize, u32)],
        queries: &[u64],
    ) {
        let all = stored.iter().fold(0, |a, &m| a | m);
        let small = match self.sieve_from {
            Some(from) => stored.len() < from,
            None => {
                stored.len() < SIEVE_FROM
                    || (stored.len() as u64).saturating_mul(queries.len() as u64) < SIEVE_PAIRS
            }
        };
        let (cut, c) = if small && self.cuts.is_none() {
            // One bucket: only the chunk width to choose.
            let bits = all.count_ones();
            let sizes = [stored.len() as u32];
            let compat = [queries.len() as u64];
            let c = self
                .widths()
                .min_by_key(|&c| sieve_cost(&Costs::of(level), [&sizes[..]].into_iter(), &compat, bits, c))
                .unwrap_or(CHUNK);
            (0, c)
        } else {
            let mut views = Vec::with_capacity(classes.len());
            let mut offset = 0;
            for &(len, weight) in classes {
                views.push((&stored[offset..offset + len], weight));
                offset += len;
            }
            self.choose_cut(level, &views, queries, all)
        };
        self.cut = cut;
        let occupied = all & !cut;
        self.occupied = occupied;
        let bits = occupied.count_ones();
        let chunks = (bits.div_ceil(c) as usize).max(1);
        self.chunks = chunks;
        self.bits_per_chunk = c;
        // Chunk k has 2^c rows, the last one only 2^(its bits).
        self.block_rows = (chunks - 1) * (1 << c) + (1 << (bits - (chunks as u32 - 1) * c).min(c));
        let buckets = 1usize << cut.count_ones();
        let low = (buckets - 1) as u16;
        self.class_starts.clear();
        self.class_weights.clear();
        let mut index = std::mem::take(&mut self.stored_index);
        let mut offset = 0;
        for (class, &(len, weight)) in classes.iter().enumerate() {
            let masks = &mut stored[offset..offset + len];
            // The bucket starts of the class, absolute in `stored`.
            let first = self.class_starts.len();
            self.class_starts.resize(first + buckets + 1, offset);
            let starts = &mut self.class_starts[first..];
            if cut == 0 {
                starts[1] = offset + len;
            } else {
                let index = &mut index[offset..offset + len];
                if self.sizes_valid {
                    for (s, &size) in
                        starts[1..].iter_mut().zip(&self.sizes[class * buckets..(class + 1) * buckets])
                    {
                        *s = size as usize;
                    }
                } else {
                    starts[1..].fill(0);
                    for &b in index.iter() {
                        starts[(b & low) as usize + 1] += 1;
                    }
                }
                starts[0] = 0;
                for i in 1..=buckets {
                    starts[i] += starts[i - 1];
                }
                sort_in_place(masks, index, starts, &mut self.next, &mut self.buffer, |b, _| (b & low) as usize);
                starts.iter_mut().for_each(|s| *s += offset);
            }
            squeeze_all(level, masks, occupied, 0);
            self.class_weights.push(weight);
            offset += len;
        }
        self.stored_index = index;
    }

    /// Returns the pieces the prepared stored side is built in: runs of whole groups of sibling
    /// buckets (those that differ only in the last [`SIBLINGS`] cut bits, whose remainders share
    /// blocks), class after class, of at most [`Matcher::max_stored`] masks a piece, or one group
    /// if it alone holds more; classes of weight 0 are left out.
    pub(super) fn pieces(&self) -> Vec<Piece> {
        let k = self.cut.count_ones() as usize;
        let buckets = 1usize << k;
        let group_bits = k.saturating_sub(SIBLINGS);
        let cap = self.max_stored.unwrap_or(usize::MAX).max(1);
        let mut pieces = Vec::new();
        let mut piece = Piece::default();
        for (class, &weight) in self.class_weights.iter().enumerate() {
            if weight == 0 {
                continue;
            }
            let starts = &self.class_starts[class * (buckets + 1)..(class + 1) * (buckets + 1)];
            for group in 0..1usize << group_bits {
                let masks: usize = (0..1usize << (k - group_bits))
                    .map(|t| group | (t << group_bits))
                    .map(|b| starts[b + 1] - starts[b])
                    .sum();
                if masks == 0 {
                    continue;
                }
                if piece.masks > 0 && piece.masks + masks > cap {
                    pieces.push(std::mem::take(&mut piece));
                }
                match piece.runs.last_mut() {
                    Some(run) if run.0 == class && run.2 == group => run.2 = group + 1,
                    _ => piece.runs.push((class, group, group + 1)),
                }
                piece.masks += masks;
            }
        }
        if piece.masks > 0 {
            pieces.push(piece);
        }
        pieces
    }

    /// Builds the blocks and raw tails of `piece` of the prepared (sorted, squeezed) `stored`
    /// side, replacing the last piece's: a bucket's whole blocks; remainders of [`TAIL`] masks or
    /// more in 64-lane words, packed eight to a block within each group of sibling buckets;
    /// shorter ones raw.
    pub(super) fn build_piece(&mut self, level: Level, stored: &[u64], piece: &Piece) {
        let k = self.cut.count_ones() as usize;
        let buckets = 1usize << k;
        let group_bits = k.saturating_sub(SIBLINGS);
        let (chunks, c, bits) = (self.chunks, self.bits_per_chunk, self.occupied.count_ones());
        self.block_weights.clear();
        self.block_buckets.clear();
        self.block_words.clear();
        self.word_buckets.clear();
        self.tail.clear();
        self.tail_runs.clear();
        self.tables.clear();
        for &(class, from, to) in &piece.runs {
            let weight = self.class_weights[class];
            let first = class * (buckets + 1);
            for group in from..to {
                self.remainders.clear();
                for t in 0..1usize << (k - group_bits) {
                    let bucket = group | (t << group_bits);
                    let (lo, hi) = (self.class_starts[first + bucket], self.class_starts[first + bucket + 1]);
                    let len = hi - lo;
                    if len == 0 {
                        continue;
                    }
                    let whole = len / BLOCK * BLOCK;
                    for b in (lo..lo + whole).step_by(BLOCK) {
                        self.push_block(level, stored, b, bucket as u32, weight, chunks, c, bits);
                    }
                    let rest = len - whole;
                    if rest == 0 {
                        continue;
                    }
                    if rest < TAIL {
                        let start = self.tail.len() as u32;
                        self.tail.extend_from_slice(&stored[lo + whole..hi]);
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
                    self.push_shared(level, stored, block, weight, chunks, c, bits);
                }
                self.remainders = words;
            }
        }
    }

    /// Adds the block of the 512 squeezed masks `stored[start..start + BLOCK]`, all of
    /// `bucket`.
    #[allow(clippy::too_many_arguments)]
    fn push_block(
        &mut self,
        level: Level,
        stored: &[u64],
        start: usize,
        bucket: u32,
        weight: u32,
        chunks: usize,
        c: u32,
        bits: u32,
    ) {
        let words: [&[u64]; WORDS] = std::array::from_fn(|w| &stored[start + 64 * w..start + 64 * (w + 1)]);
        self.block_weights.push(weight);
        self.block_buckets.push(bucket);
        self.block_words.push(u32::MAX);
        self.tables.reserve(self.block_rows);
        fill_block(level, &words, &mut self.tables, chunks, c, bits);
    }

    /// Adds a block of up to eight words (bucket, start, end in `stored`), of one bucket or of
    /// sibling buckets.
    #[allow(clippy::too_many_arguments)]
    fn push_shared(
        &mut self,
        level: Level,
        stored: &[u64],
        block: &[(u32, u32, u32)],
        weight: u32,
        chunks: usize,
        c: u32,
        bits: u32,
    ) {
        let empty: &[u64] = &[];
        let words: [&[u64]; WORDS] = std::array::from_fn(|w| {
            block.get(w).map_or(empty, |&(_, lo, hi)| &stored[lo as usize..hi as usize])
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

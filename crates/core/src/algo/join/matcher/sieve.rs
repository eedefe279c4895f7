//! The sieve: which mask bits cut the stored masks and the queries into buckets, and with how
//! many cut bits and what chunk width matching is cheapest ([`Matcher::choose_cut`]).
//!
//! The cut bits come in a greedy order from a sample of stored × query pairs, each one's bucket
//! index over all of them from one `pext` per mask ([`index_all`]); the cost model
//! ([`sieve_cost`], [`Costs`]) then picks the prefix and the chunk width from the exact bucket
//! sizes, which the build's and the queries' counting sorts reuse.

use super::types::{BLOCK, CHUNK, MAX_CHUNK, Matcher, TAIL, WORDS};
use crate::algo::join::bits::low_mask;
use crate::arch::scalar::Squeeze;
use crate::arch::{Level, Simd, multiversion};

impl Matcher {
    /// Returns the cut bits for the stored `classes` (whose masks' OR is `all`) against
    /// `queries`, and the chunk width: a greedy order of up to [`MAX_CUTS`] bits
    /// ([`greedy_order`]), then the prefix of it the cost model ([`sieve_cost`]) finds cheapest
    /// ([`Matcher::cuts`] forces its length). Leaves the greedy-order bucket index of every
    /// stored mask and query in `stored_index` and `query_index`, and, when the model chose,
    /// the chosen prefix's bucket sizes in `sizes`.
    pub(super) fn choose_cut(
        &mut self,
        level: Level,
        classes: &[(&[u64], u32)],
        queries: &[u64],
        all: u64,
    ) -> (u64, u32) {
        self.sizes_valid = false;
        let max = self.cuts.unwrap_or(MAX_CUTS).min(MAX_CUTS).min(all.count_ones());
        let fallback = self.chunk_bits.unwrap_or(CHUNK).clamp(1, MAX_CHUNK);
        if max == 0 || queries.is_empty() {
            return (0, fallback);
        }
        let pairs = self.sample_pairs(classes, queries, all);
        let (order, chosen) = greedy_order(level, &self.sample, pairs, all, max as usize);
        if chosen == 0 {
            return (0, fallback);
        }
        let order = &order[..chosen];
        let prefix = |k: usize| order[..k].iter().fold(0, |a, &b| a | b);
        self.index_buckets(level, classes, queries, order);
        if let Some(forced) = self.cuts {
            return (prefix((forced as usize).min(chosen)), fallback);
        }
        let mut hist = self.histograms(classes, chosen);
        let (k, c) =
            self.cheapest_prefix(level, classes.len(), &mut hist, chosen, all.count_ones(), fallback);
        self.hist = hist;
        self.keep_sizes(classes.len() + 1, chosen, k);
        (prefix(k), c)
    }

    /// Fills `sample` with the pairs of the greedy order (stored mask i·stride_s with query
    /// i·stride_q, mod lengths, skipping empty classes: `mask & query & all`) and returns how
    /// many.
    fn sample_pairs(&mut self, classes: &[(&[u64], u32)], queries: &[u64], all: u64) -> usize {
        let stored: usize = classes.iter().map(|c| c.0.len()).sum();
        let pairs = SAMPLE.min(stored.max(queries.len()));
        let sample = &mut self.sample;
        sample.clear();
        let (step_s, step_q) = (stored.div_ceil(pairs).max(1), 7919 % queries.len().max(1) + 1);
        let mut class = 0;
        let mut offset = 0;
        for i in 0..pairs {
            let index = (i * step_s) % stored;
            // Map a global index into the classes (classes are few: at most three).
            while index < offset || index >= offset + classes[class].0.len() {
                offset += classes[class].0.len();
                class += 1;
                if class == classes.len() {
                    class = 0;
                    offset = 0;
                }
            }
            let e = classes[class].0[index - offset];
            let q = queries[(i * step_q) % queries.len()];
            sample.push(e & q & all);
        }
        pairs
    }

    /// Writes the greedy-order index of every stored mask and query over all the cut bits of
    /// `order` (index bit i: the mask has cut bit `order[i]`) to `stored_index` (class after
    /// class) and `query_index`: a prefix of k cut bits numbers its buckets by the low k index
    /// bits, so the build's and the queries' counting sorts take them as they are, and each
    /// shorter prefix's histogram folds the top half in.
    fn index_buckets(&mut self, level: Level, classes: &[(&[u64], u32)], queries: &[u64], order: &[u64]) {
        let full = order.iter().fold(0, |a, &b| a | b);
        let bins = 1usize << order.len();
        // greedy[p]: the greedy-order index of the p-th (from bit 0) set bit of `full`.
        let mut greedy = std::mem::take(&mut self.greedy);
        greedy.clear();
        greedy.resize(bins, 0);
        let mut position = [0u32; 64];
        for (p, j) in (0..64).filter(|&j| full >> j & 1 == 1).enumerate() {
            position[p] = order.iter().position(|&b| b == 1 << j).expect("chosen bit") as u32;
        }
        for i in 1..bins {
            greedy[i] = greedy[i & (i - 1)] | 1 << position[i.trailing_zeros() as usize];
        }
        self.stored_index.clear();
        for &(masks, _) in classes {
            index_all(level, masks, full, &greedy, &mut self.stored_index);
        }
        self.query_index.clear();
        index_all(level, queries, full, &greedy, &mut self.query_index);
        self.greedy = greedy;
    }

    /// Returns the histograms of the stored masks (per class) and of the queries over all
    /// `chosen` cut bits, one after the other (2^chosen bins each), in the `hist` buffer; keeps
    /// a copy in `sizes`.
    fn histograms(&mut self, classes: &[(&[u64], u32)], chosen: usize) -> Vec<u32> {
        let bins = 1usize << chosen;
        let sets = classes.len() + 1;
        let mut hist = std::mem::take(&mut self.hist);
        hist.clear();
        hist.resize(bins * sets, 0);
        let mut offset = 0;
        for (c, &(masks, _)) in classes.iter().enumerate() {
            histogram(&self.stored_index[offset..offset + masks.len()], &mut hist[c * bins..(c + 1) * bins]);
            offset += masks.len();
        }
        histogram(&self.query_index, &mut hist[classes.len() * bins..]);
        self.sizes.clear();
        self.sizes.extend_from_slice(&hist);
        hist
    }

    /// Returns the number of cut bits k (a prefix of the `chosen` in greedy order) and the chunk
    /// width that the cost model finds cheapest for `bits` mask bits, from the histograms
    /// `hist` of [`Matcher::histograms`] (`classes` stored ones, then the queries'), which it
    /// folds down to one bin on the way; `fallback` is the width where nothing is cheaper than
    /// the first estimate.
    fn cheapest_prefix(
        &mut self,
        level: Level,
        classes: usize,
        hist: &mut [u32],
        chosen: usize,
        bits: u32,
        fallback: u32,
    ) -> (usize, u32) {
        let bins = 1usize << chosen;
        let sets = classes + 1;
        let costs = Costs::of(level);
        let mut best = (u64::MAX, 0, fallback);
        let mut compat = std::mem::take(&mut self.compat);
        for k in (0..=chosen).rev() {
            let buckets = 1usize << k;
            if k < chosen {
                // Fold the histograms from k + 1 bits to k.
                for c in 0..sets {
                    let h = &mut hist[c * bins..];
                    for i in 0..buckets {
                        h[i] += h[i + buckets];
                    }
                }
            }
            let queries = &hist[classes * bins..classes * bins + buckets];
            // compat[t]: the queries whose bucket is a subset of t (sum over subsets).
            compat.clear();
            compat.extend(queries.iter().map(|&q| q as u64));
            subset_sums(&mut compat, k as u32);
            for c in self.widths() {
                let stored = (0..classes).map(|c| &hist[c * bins..c * bins + buckets]);
                let cost = sieve_cost(&costs, stored, &compat, bits - k as u32, c);
                if cost <= best.0 {
                    best = (cost, k, c);
                }
            }
        }
        self.compat = compat;
        (best.1, best.2)
    }

    /// Folds the bucket sizes of every set (`sets` of them, over `chosen` cut bits, from
    /// [`Matcher::histograms`]) down to the chosen prefix of `k` bits and packs them, 2^k a
    /// set: the counting sorts of the build and of the queries take them as their bucket sizes.
    fn keep_sizes(&mut self, sets: usize, chosen: usize, k: usize) {
        let bins = 1usize << chosen;
        let sizes = &mut self.sizes;
        for c in 0..sets {
            let h = &mut sizes[c * bins..(c + 1) * bins];
            for j in (k..chosen).rev() {
                let half = 1usize << j;
                for i in 0..half {
                    h[i] += h[i + half];
                }
            }
        }
        let buckets = 1usize << k;
        for c in 0..sets {
            sizes.copy_within(c * bins..c * bins + buckets, c * buckets);
        }
        sizes.truncate(sets * buckets);
        self.sizes_valid = true;
    }
}

/// Returns up to `max` cut bits of `all`, one bit each, in greedy order, and how many, from the
/// first `pairs` sampled pairs of `sample` (see [`Matcher::sample_pairs`]): each step takes the
/// bit on which the most sampled pairs not yet separated clash (a query skips every stored
/// bucket that shares one of its cut bits, so that is the bit that skips the most pair tests;
/// taking the clashes on the earlier bits out first is what accounts for correlated
/// diagonals). Stops early when no bit separates another pair.
fn greedy_order(
    level: Level,
    sample: &[u64],
    pairs: usize,
    all: u64,
    max: usize,
) -> ([u64; MAX_CUTS as usize], usize) {
    // The sample transposed: columns[j] has bit i set if and only if sampled pair i clashes
    // on bit j, so each greedy step is 64 popcounts of the pairs still alive.
    let words = pairs.div_ceil(64);
    let mut columns = [[0u64; SAMPLE / 64]; 64];
    for (w, group) in sample.chunks(64).enumerate() {
        let mut m = [0u64; 64];
        m[..group.len()].copy_from_slice(group);
        transpose(level, &mut m);
        for j in 0..64 {
            columns[j][w] = m[j];
        }
    }
    let mut alive = [0u64; SAMPLE / 64];
    for (w, a) in alive.iter_mut().enumerate().take(words) {
        *a = low_mask((pairs - 64 * w).min(64) as u32);
    }
    let mut order = [0u64; MAX_CUTS as usize];
    let mut chosen = 0;
    let mut cut = 0u64;
    while chosen < max {
        let freq = |j: usize| -> u32 { (0..words).map(|w| (columns[j][w] & alive[w]).count_ones()).sum() };
        let best = (0..64).filter(|&j| cut >> j & 1 == 0 && all >> j & 1 == 1).map(|j| (freq(j), j)).max();
        let Some((f, j)) = best else { break };
        if f == 0 {
            break;
        }
        order[chosen] = 1 << j;
        chosen += 1;
        cut |= 1 << j;
        // Keep only the pairs the cut bits so far do not separate.
        for w in 0..words {
            alive[w] &= !columns[j][w];
        }
    }
    (order, chosen)
}

/// Remainders share blocks among the 2^SIBLINGS buckets that differ only in the last cut bits
/// (measured at n = 20–22: 2 is best, 1 and 3 cost 2–5% more).
pub const SIBLINGS: usize = 2;

/// Pairs sampled to order the cut bits.
const SAMPLE: usize = 1024;

/// Returns the estimated cost (in the units of [`Costs`]) of matching with the sieve whose
/// stored buckets (per class) have the sizes `stored` and whose stored bucket s meets
/// `compat[!s]` queries, with `bits` mask bits left to match in chunks of `c` bits.
///
/// Per block (a bucket's whole blocks, and the blocks of sibling buckets' remainders, which
/// meet the queries disjoint from the AND of their buckets): per compatible query one row
/// load per chunk ([`Costs::row`]) and [`Costs::per_query`], and [`Costs::per_row`] per table
/// row to build; a raw tail costs [`Costs::per_raw`] per mask and query.
pub(super) fn sieve_cost<'a>(
    costs: &Costs,
    stored: impl Iterator<Item = &'a [u32]>,
    compat: &[u64],
    bits: u32,
    c: u32,
) -> u64 {
    let chunks = bits.div_ceil(c).max(1);
    let rows = (chunks as u64 - 1) * (1 << c) + (1 << (bits - (chunks - 1) * c).min(c));
    let per_query = chunks as u64 * costs.row(c) + costs.per_query;
    let all = compat.len() - 1;
    let k = all.count_ones() as usize;
    let group_bits = k.saturating_sub(SIBLINGS);
    // One block met by `queries` queries.
    let block = |queries: u64| per_query * queries + costs.per_row * rows;
    let mut cost = 0u64;
    for sizes in stored {
        // As the build packs them: whole blocks per bucket, remainder words eight to a block
        // within each group of sibling buckets, short remainders raw.
        for group in 0..1usize << group_bits {
            let (mut words, mut and) = (0, usize::MAX);
            for t in 0..1usize << (k - group_bits) {
                let s = group | (t << group_bits);
                let len = sizes[s] as u64;
                if len == 0 {
                    continue;
                }
                cost += len / BLOCK as u64 * block(compat[!s & all]);
                let rest = len % BLOCK as u64;
                if rest == 0 {
                    continue;
                }
                if rest < TAIL as u64 {
                    cost += rest * compat[!s & all] * costs.per_raw;
                    continue;
                }
                for _ in 0..rest.div_ceil(64) {
                    and &= s;
                    words += 1;
                    if words == WORDS {
                        cost += block(compat[!and & all]);
                        (words, and) = (0, usize::MAX);
                    }
                }
            }
            if words > 0 {
                cost += block(compat[!and & all]);
            }
        }
    }
    cost
}

/// The cost model's constants for one instruction-set level, in tenths of one row AND of the
/// block loop at chunks of up to 6 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Costs {
    /// One row load and AND for chunks of 5, 6, 7 and 8 bits: a block's tables fit L1 up to
    /// 6 bits per chunk (4 KiB a chunk); at 7 and 8 bits (8 and 16 KiB a chunk) some loads go
    /// to L2.
    pub(super) rows: [u64; 4],
    /// Per query and block besides its rows: counting the ones, the loop.
    pub(super) per_query: u64,
    /// Building one table row: two loads, one AND, one store.
    pub(super) per_row: u64,
    /// One raw tail mask against one query.
    pub(super) per_raw: u64,
}

impl Costs {
    /// Returns the constants of `level`. AVX-512 (measured on Zen 4 at n = 18–22,
    /// results/2026-12-01-join-scale/ and results/2026-12-01-join-final/: 8-bit chunks, 4
    /// loads for 32 bits, matched 1.15× faster than 6-bit ones, 6 loads).
    pub(super) fn of(level: Level) -> Costs {
        let _ = level;
        Costs { rows: [10, 10, 11, 12], per_query: 40, per_row: 20, per_raw: 20 }
    }

    /// Returns the cost of one row for chunks of `c` bits.
    pub(super) fn row(&self, c: u32) -> u64 {
        self.rows[(c.clamp(CHUNK, MAX_CHUNK) - CHUNK) as usize]
    }
}

/// The most cut bits the sieve uses (65,536 buckets; bucket indices are `u16`).
pub const MAX_CUTS: u32 = 16;
/// Stored masks from which the sieve is considered (the cost model then chooses, possibly no
/// cut at all): at n = 22 a stored set of 2,649 masks against 589,784 queries runs about 10%
/// faster with 6 cut bits than with none.
pub const SIEVE_FROM: usize = 2 * BLOCK;
/// Stored × query pairs from which the sieve is considered: below, choosing the cut bits
/// (sampling and histograms, tens of µs) would cost more than it saves (odd n runs many
/// rounds of a few µs).
pub(super) const SIEVE_PAIRS: u64 = 1 << 24;

/// Adds the number of times each bucket occurs in `index` to `bins[bucket]` (every index below
/// `bins.len()`). Four partial histograms, summed at the end: runs of one bucket (the common
/// case, sorted-ish input) would otherwise wait on each other's increments through memory
/// (measured: 3% of a count at n = 20 in one histogram loop).
fn histogram(index: &[u16], bins: &mut [u32]) {
    let mut parts = vec![0u32; 4 * bins.len()];
    let len = bins.len();
    let mut quads = index.chunks_exact(4);
    for q in &mut quads {
        parts[q[0] as usize] += 1;
        parts[len + q[1] as usize] += 1;
        parts[2 * len + q[2] as usize] += 1;
        parts[3 * len + q[3] as usize] += 1;
    }
    for &b in quads.remainder() {
        parts[b as usize] += 1;
    }
    for (i, bin) in bins.iter_mut().enumerate() {
        *bin += parts[i] + parts[len + i] + parts[2 * len + i] + parts[3 * len + i];
    }
}

/// Appends `table[pext(x, mask)]` for every x of `src` to `out` (`mask` of at most [`MAX_CUTS`] bits); with
/// `pext` where `level` has a fast one.
fn index_all(level: Level, src: &[u64], mask: u64, table: &[u16], out: &mut Vec<u16>) {
    if level.fast_pext() {
        index_with::<true>(level, src, mask, table, out)
    } else {
        index_with::<false>(level, src, mask, table, out)
    }
}

multiversion! {
    /// [`index_all`], with `pext` if `PEXT` (and the level has it), else [`Squeeze`].
    fn index_with[const PEXT: bool](src: &[u64], mask: u64, table: &[u16], out: &mut Vec<u16>)
        => index_body[PEXT];
}

#[inline(always)]
unsafe fn index_body<S: Simd, const PEXT: bool>(
    src: &[u64],
    mask: u64,
    table: &[u16],
    out: &mut Vec<u16>,
) {
    if PEXT && S::PEXT {
        // SAFETY: as in `squeeze_body`.
        out.extend(src.iter().map(|&x| table[unsafe { S::pext(x, mask) } as usize]));
    } else {
        let squeeze = Squeeze::new(mask);
        out.extend(src.iter().map(|&x| table[squeeze.apply(x) as usize]));
    }
}

/// Returns the subset sums of `counts` over `k` bits, in place: afterwards `counts[t]` is the
/// sum of the old `counts[s]` over every s whose bits are a subset of t's (`counts` has 2^k
/// entries at least).
pub(super) fn subset_sums(counts: &mut [u64], k: u32) {
    let buckets = 1usize << k;
    for bit in 0..k {
        for t in 0..buckets {
            if t >> bit & 1 == 1 {
                counts[t] += counts[t ^ (1 << bit)];
            }
        }
    }
}

/// Transposes a 64×64 bit matrix in place (see `crate::arch::scalar::transpose64`), in the
/// copy of `level`.
pub fn transpose64(level: Level, a: &mut [u64; 64]) {
    transpose(level, a)
}

multiversion! {
    pub(super) fn transpose(a: &mut [u64; 64]) => transpose_body;
}

/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled.
#[inline(always)]
unsafe fn transpose_body<S: Simd>(a: &mut [u64; 64]) {
    // SAFETY: the caller runs with `S`'s features (this fn's condition).
    unsafe { S::transpose64(a) }
}

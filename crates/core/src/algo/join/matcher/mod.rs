//! The bit-sliced matcher: counts, for each query mask, the stored masks disjoint from it.
//!
//! Stored masks go in blocks of [`BLOCK`] = 512. Per block, each mask bit j gets a 512-bit
//! vector F_j of "stored masks that leave bit j free"; the bits are grouped into chunks of c
//! bits ([`CHUNK`]..=[`MAX_CHUNK`], chosen per stored set), and for each chunk the AND of the
//! F_j over all 2^c subsets of its bits is tabulated. A query ANDs one table row per chunk
//! (chosen by its own bits in that chunk) and counts the ones: at n = 18 (32 window bits after
//! squeezing out the bits no stored mask uses) 4 rows of 8-bit chunks instead of 7 of 5-bit
//! ones. Loads are what limits the loop (one 64-byte row per chunk, query and block), so
//! wider chunks pay while their tables (16 KiB a chunk at 8 bits) are cheap to build against
//! the queries that meet the block; the cost model weighs both. A short remainder (under
//! [`TAIL`] masks) stays raw and is scanned with a scalar test. Memory: 2^c rows of 64 B per
//! chunk per block. Method: E. Kluev's N-Queens-Count-Sol (doc/join-algorithm.md
//! §4); chunk widths, query codes and shared remainder blocks are this crate's.
//!
//! Queries are `u64` codes whose bits 62 and 63 name one of four weights
//! ([`Matcher::count_coded`]), so a query is 8 bytes. They are sorted by sieve bucket and,
//! within a bucket, into weight slots (classes of one weight share a slot; weight 0 is
//! dropped), so the block loop adds popcounts and weighs each run once.
//!
//! The sieve: with k cut bits, stored masks and queries go into 2^k buckets by those bits
//! (squeezed out of the matched word by `pext`), and a block meets only the query buckets
//! disjoint from its own. The cut bits and k (0..=[`MAX_CUTS`]) are chosen per stored set: a
//! greedy order of bits from a sample of stored × query pairs (each step the bit the most
//! not-yet-separated pairs clash on, by 64 popcounts over the sample transposed), then the
//! prefix (and chunk width) a cost model finds cheapest from the exact bucket sizes. One
//! `pext` per mask and query gives its greedy-order bucket index for every prefix, so the
//! cost model's histograms are also the counting sorts' bucket sizes. A bucket's whole blocks
//! are its own; its remainder goes into 64-lane words that share blocks with the remainders
//! of its [`SIBLINGS`]' buckets (those that differ only in the last cut bits): a shared block
//! meets the queries disjoint from the AND of its words' buckets, and each query bucket counts
//! only the words it may meet (a masked popcount), so the padding of 2^k partial blocks
//! mostly disappears. At n = 22 the model picks about 7 cut bits (Kluev's build: a fixed 6).
//!
//! The kernels (the block loop, the table fill, the partition, the squeezes and the transposes)
//! are written once over the traits of [`crate::arch`] and compiled for every instruction-set
//! level; the [`Level`] passed in picks the copy. The block loop has one copy per chunk count
//! and width a board reaches, so its shifts and offsets are constants.
//!
//! One concern a file: this one holds the types and the counting passes; `build.rs` the stored
//! blocks and their tables, `sieve.rs` the choice of cut bits and the cost model, `codes.rs`
//! the query codes and their sorting, `blocks.rs` the block loop and the raw tails.

mod blocks;
mod build;
mod codes;
mod sieve;

use std::ops::ControlFlow;

use blocks::{TailRun, count_sorted};
pub use build::transpose64;
use codes::CLASSES;
use sieve::Costs;
pub use sieve::{MAX_CUTS, SIBLINGS, SIEVE_FROM};

use crate::arch::{Bits512, Level};
/// Stored masks per block: one 512-bit row, 8 `u64` words (one AVX-512 register).
pub const BLOCK: usize = 512;
/// The fewest mask bits per chunk the cost model considers (32 table rows of 64 B per chunk,
/// 2 KiB), and the width of a forced cut without a cost model.
pub const CHUNK: u32 = 5;
/// The most mask bits per chunk (256 rows, 16 KiB per chunk and block).
pub const MAX_CHUNK: u32 = 8;
/// Tails shorter than this are scanned raw; a padded block costs about as much as 40 scalar
/// tests per query.
pub const TAIL: usize = 12;

const WORDS: usize = BLOCK / 64;

/// The fewest blocks a part of [`Matcher::count_coded_in_parts`] matches (a stored set of fewer
/// is one part).
pub const MIN_PART_BLOCKS: usize = 16;

/// How far [`Matcher::count_coded_in_parts`] has come: `done` parts of `total` (over every
/// stored piece), standing for `share` of the matching's work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parts {
    /// Parts matched so far.
    pub done: usize,
    /// Parts in all: pieces × parts per piece.
    pub total: usize,
    /// The share of the work of matching every piece that the parts done stand for (0 to 1):
    /// within a piece by the cost model (each block's and raw tail's compatible queries, see
    /// `sieve_cost`), each piece 1/pieces. Parts differ: a block of the sieve's bucket 0
    /// meets every query.
    pub share: f64,
}

/// A query: a mask and the weight its count is multiplied by.
pub type Query = (u64, u32);

/// The stored side of a round, rebuilt for each unit (buffers are reused: no allocation
/// once warm). Stored masks come in classes of equal weight; each block holds one class.
#[derive(Debug, Default)]
pub struct Matcher {
    /// The bits the blocks match on: the OR of the stored masks (bits outside it never clash)
    /// minus the cut bits; squeezed out of every mask.
    occupied: u64,
    /// Cut bits (the sieve): stored masks and queries go into 2^k buckets by these bits, and a
    /// block is only matched against query buckets disjoint from its own.
    cut: u64,
    chunks: usize,
    /// Mask bits per chunk ([`CHUNK`] unless [`Matcher::chunk_bits`] or the build chose
    /// otherwise): each chunk has 2^bits rows.
    bits_per_chunk: u32,
    /// Rows per block: 2^bits_per_chunk per chunk, fewer for a last chunk of fewer bits.
    block_rows: usize,
    /// Forces the mask bits per chunk (for tests and tuning; 1..=[`MAX_CHUNK`]).
    pub chunk_bits: Option<u32>,
    /// Weight of each block.
    block_weights: Vec<u32>,
    /// Stored masks from which the sieve is considered ([`SIEVE_FROM`] and at least
    /// `SIEVE_PAIRS` stored × query pairs unless set).
    pub sieve_from: Option<usize>,
    /// Cut-bit bucket of each block: the AND of its words' buckets, so that every query that
    /// can meet one of its words meets the block.
    block_buckets: Vec<u32>,
    /// The bucket of each 64-lane word of a block that holds several buckets' remainders
    /// (index into `word_buckets`), or `u32::MAX` for a block of one bucket.
    block_words: Vec<u32>,
    /// Word buckets of the shared blocks, eight per block (`u32::MAX` for an unused word).
    word_buckets: Vec<[u32; WORDS]>,
    /// Remainders being packed: (bucket, start, end) in `sorted` (scratch).
    remainders: Vec<(u32, u32, u32)>,
    /// Start of each run of one query bucket and weight slot in `queries`
    /// (4 · 2^k + 1 entries: bucket b, slot s at 4b + s; see [`codes::slots`]).
    query_starts: Vec<usize>,
    sorted: Vec<u64>,
    /// The weight of each slot of the sorted queries (see [`codes::slots`]).
    run_weights: [u32; CLASSES],
    /// The codes sorted by bucket only, when their classes have different weights (scratch).
    by_bucket: Vec<u64>,
    /// `blocks × chunks × 2^bits_per_chunk` rows.
    tables: Vec<Bits512>,
    /// Tail masks (squeezed like the blocks' masks), bucket by bucket.
    tail: Vec<u64>,
    /// The runs of `tail`: one per class and bucket with a short tail.
    tail_runs: Vec<TailRun>,
    squeezed: Vec<u64>,
    /// The codes being matched, squeezed and sorted by bucket (scratch).
    queries: Vec<u64>,
    /// Bucket starts (scratch).
    next: Vec<usize>,
    /// Sampled pairs for the choice of cut bits (scratch).
    sample: Vec<u64>,
    /// Greedy-order cut-bit index of every stored mask and of every query (see
    /// `choose_cut`; valid while the cut is non-zero).
    stored_index: Vec<u16>,
    query_index: Vec<u16>,
    /// Bucket sizes of the chosen cut, per stored class then of the queries (2^k each),
    /// if `sizes_valid`.
    sizes: Vec<u32>,
    sizes_valid: bool,
    /// Bucket histograms for the cost model (scratch).
    hist: Vec<u32>,
    /// Queries per set of cut bits (scratch).
    compat: Vec<u64>,
    /// Forces the number of cut bits (for tests and tuning; at most [`MAX_CUTS`], fewer when
    /// fewer bits separate pairs): `None` lets the cost model choose.
    pub cuts: Option<u32>,
    /// The most masks stored at once: [`Matcher::count_coded`] stores a larger side in pieces of
    /// this many, matching every code against each piece (its bit-sliced tables take about
    /// 100–250 B a stored mask, the most memory a unit of n = 28 needs). `None`: all at once.
    pub max_stored: Option<usize>,
    /// The most codes matched at once: [`Matcher::count_coded`] matches more in batches of this
    /// many, each against every stored piece (the sorted copies of the codes, about 18 B a
    /// code, the most memory after the half-boards themselves at n = 28). `None`: all at once.
    pub max_queries: Option<usize>,
}

impl Matcher {
    /// Returns an empty matcher.
    pub fn new() -> Matcher {
        Matcher::default()
    }

    /// Returns the number of cut bits the last [`Matcher::build`] chose (the sieve has 2^k
    /// buckets).
    pub fn cut_bits(&self) -> u32 {
        self.cut.count_ones()
    }

    /// Returns the number of stored masks (tail included).
    pub fn stored(&self) -> usize {
        self.block_weights.len() * BLOCK + self.tail.len()
    }

    /// Stores `classes` (masks and the weight of each, replacing what was stored) and returns
    /// the sum over `queries` of query weight × Σ stored weight over the stored masks m with
    /// m & query == 0, exactly. (Queries of up to four distinct weights at a time go through
    /// [`Matcher::count_coded`]; masks must leave bits 62 and 63 clear.)
    pub fn count(&mut self, level: Level, classes: &[(&[u64], u32)], queries: &[Query]) -> u64 {
        let mut weights: Vec<u32> = queries.iter().map(|q| q.1).collect();
        weights.sort_unstable();
        weights.dedup();
        let mut total = 0;
        let mut codes = Vec::with_capacity(queries.len());
        for group in weights.chunks(4) {
            let table: [u32; 4] = std::array::from_fn(|i| group.get(i).copied().unwrap_or(0));
            codes.clear();
            for &(q, w) in queries {
                if let Some(class) = group.iter().position(|&g| g == w) {
                    codes.push(q | (class as u64) << 62);
                }
            }
            total += self.count_coded(level, classes, &codes, table);
        }
        total
    }

    /// Stores `classes` and returns the sum over the `codes` of `weights[code >> 62]` × Σ
    /// stored weight over the stored masks m with m & code == 0 (bits 62 and 63 of a code
    /// name its weight class and are not matched), exactly.
    pub fn count_coded(
        &mut self,
        level: Level,
        classes: &[(&[u64], u32)],
        codes: &[u64],
        weights: [u32; 4],
    ) -> u64 {
        self.count_coded_in_parts(level, classes, codes, weights, 1, &mut |_| ControlFlow::Continue(()))
            .expect("nothing stops the count")
    }

    /// Returns what [`Matcher::count_coded`] returns, matching each stored piece (see
    /// [`Matcher::max_stored`], and each batch of codes, see [`Matcher::max_queries`]) in up to
    /// `max_parts` parts of about equal work (its blocks
    /// dealt round robin, so each part meets every kind of block; at least
    /// [`MIN_PART_BLOCKS`] blocks a part): calls `after` with [`Parts`] once the first
    /// piece is stored and its codes sorted (`done` = 0), then after every part, and returns
    /// `None` as soon as `after` returns [`ControlFlow::Break`]. The parts add no work: every
    /// block is matched once, as in one part.
    pub fn count_coded_in_parts(
        &mut self,
        level: Level,
        classes: &[(&[u64], u32)],
        codes: &[u64],
        weights: [u32; 4],
        max_parts: usize,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        if codes.is_empty() || classes.iter().all(|c| c.0.is_empty()) {
            return Some(0);
        }
        let stored: usize = classes.iter().map(|c| c.0.len()).sum();
        // One piece unless the stored side exceeds `max_stored`: then pieces of that many, each
        // matched against every code (a pass over the codes per piece), in the memory of one
        // piece's tables.
        let cap = match self.max_stored {
            Some(cap) if stored > cap.max(1) => cap.max(1),
            _ => usize::MAX,
        };
        let pieces: usize =
            if cap == usize::MAX { 1 } else { classes.iter().map(|c| c.0.len().div_ceil(cap)).sum() };
        // The codes likewise in batches of at most `max_queries`, each piece built again per
        // batch (building costs about 20–40 queries a stored mask, against a batch's millions),
        // so the sorted copies of the codes take the memory of one batch.
        let batch = self.max_queries.map_or(usize::MAX, |b| b.max(1));
        let batches = codes.len().div_ceil(batch.min(codes.len()));
        let largest = stored.min(cap);
        let parts = (largest / BLOCK / MIN_PART_BLOCKS).clamp(1, max_parts.max(1));
        let mut progress = Parts { done: 0, total: pieces * batches * parts, share: 0.0 };
        let share = |codes_batch: &[u64]| codes_batch.len() as f64 / codes.len() as f64;
        let mut total = 0;
        if pieces == 1 {
            for codes_batch in codes.chunks(batch) {
                self.build(level, classes, codes_batch);
                let scale = share(codes_batch);
                total +=
                    self.count_stored(level, codes_batch, weights, parts, scale, &mut progress, after)?;
            }
            return Some(total);
        }
        for &(masks, weight) in classes {
            for piece in masks.chunks(cap) {
                for codes_batch in codes.chunks(batch) {
                    self.build(level, &[(piece, weight)], codes_batch);
                    // This pair's share of the matching: its stored × its codes.
                    let scale = piece.len() as f64 / stored as f64 * share(codes_batch);
                    total +=
                        self.count_stored(level, codes_batch, weights, parts, scale, &mut progress, after)?;
                }
            }
        }
        Some(total)
    }

    /// Returns the sum [`Matcher::count_coded`] returns, against the masks stored by the last
    /// [`Matcher::build`], in `parts` parts (see [`Matcher::count_coded_in_parts`]; `progress`
    /// counts the parts done over every piece).
    #[allow(clippy::too_many_arguments)]
    fn count_stored(
        &mut self,
        level: Level,
        codes: &[u64],
        weights: [u32; 4],
        parts: usize,
        scale: f64,
        progress: &mut Parts,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        if codes.is_empty() || (self.block_weights.is_empty() && self.tail.is_empty()) {
            progress.done += parts;
            progress.share = (progress.share + scale).min(1.0);
            return Some(0);
        }
        let mut prepared = std::mem::take(&mut self.queries);
        self.sort_codes(level, codes, weights, &mut prepared);
        let work = if parts > 1 { self.part_work(level, parts) } else { vec![1.0] };
        let mut total = 0;
        let mut stopped = progress.done == 0 && after(*progress).is_break();
        for (part, w) in work.iter().enumerate() {
            if stopped {
                break;
            }
            total += count_sorted(level, self, &prepared, part, parts);
            progress.done += 1;
            progress.share = (progress.share + w * scale).min(1.0);
            stopped = after(*progress).is_break();
        }
        self.queries = prepared;
        (!stopped).then_some(total)
    }

    /// Returns the modelled share of the matching's work in each of `parts` parts of the stored
    /// blocks and tails against the sorted queries, adding up to one: a block meets the queries
    /// whose bucket is disjoint from its own (the AND of its words' buckets), at one row per
    /// chunk and [`Costs::per_query`] each; a raw tail mask costs [`Costs::per_raw`] per query.
    fn part_work(&self, level: Level, parts: usize) -> Vec<f64> {
        let k = self.cut.count_ones();
        let buckets = 1usize << k;
        let all = buckets - 1;
        // compat[t]: the counted queries (weight slots not 0) whose bucket is a subset of t.
        let mut compat: Vec<u64> = (0..buckets)
            .map(|b| {
                (0..CLASSES)
                    .filter(|&slot| self.run_weights[slot] != 0)
                    .map(|slot| {
                        (self.query_starts[b * CLASSES + slot + 1] - self.query_starts[b * CLASSES + slot])
                            as u64
                    })
                    .sum()
            })
            .collect();
        subset_sums(&mut compat, k);
        let costs = Costs::of(level);
        let per_query = (self.chunks as u64 * costs.row(self.bits_per_chunk) + costs.per_query) as f64;
        let mut work = vec![0.0; parts];
        for (b, &bucket) in self.block_buckets.iter().enumerate() {
            work[b % parts] += compat[!(bucket as usize) & all] as f64 * per_query;
        }
        for (i, run) in self.tail_runs.iter().enumerate() {
            let len = f64::from(run.end - run.start);
            work[i % parts] += len * compat[!(run.bucket as usize) & all] as f64 * costs.per_raw as f64;
        }
        let sum: f64 = work.iter().sum();
        if sum > 0.0 {
            work.iter_mut().for_each(|w| *w /= sum);
        } else {
            work.fill(1.0 / parts as f64);
        }
        work
    }

    /// Returns the number of query buckets (2^k for k cut bits).
    #[inline(always)]
    fn query_buckets(&self) -> usize {
        (self.query_starts.len() - 1) / CLASSES
    }

    /// Returns the chunk widths the cost model may choose from: [`Matcher::chunk_bits`] if
    /// set, else [`CHUNK`]..=[`MAX_CHUNK`].
    fn widths(&self) -> std::ops::RangeInclusive<u32> {
        match self.chunk_bits {
            Some(c) => {
                let c = c.clamp(1, MAX_CHUNK);
                c..=c
            }
            None => CHUNK..=MAX_CHUNK,
        }
    }
}

/// Returns the subset sums of `counts` over `k` bits, in place: afterwards `counts[t]` is the
/// sum of the old `counts[s]` over every s whose bits are a subset of t's (`counts` has 2^k
/// entries at least).
fn subset_sums(counts: &mut [u64], k: u32) {
    let buckets = 1usize << k;
    for bit in 0..k {
        for t in 0..buckets {
            if t >> bit & 1 == 1 {
                counts[t] += counts[t ^ (1 << bit)];
            }
        }
    }
}

/// Returns the same sum as [`Matcher::count`] by testing every pair (for tests).
pub fn naive_count(classes: &[(&[u64], u32)], queries: &[Query]) -> u64 {
    let mut total = 0;
    for &(masks, mw) in classes {
        for &(q, w) in queries {
            total += masks.iter().filter(|&&m| m & q == 0).count() as u64 * w as u64 * mw as u64;
        }
    }
    total
}

#[cfg(test)]
mod tests;

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
//! One concern a file: this one holds the counting passes; `types.rs` the [`Matcher`] itself,
//! its sizes and what its siblings share; `build.rs` the stored blocks and their tables,
//! `sieve.rs` the choice of cut bits, the cost model and the transpose of its sample, `codes.rs`
//! the query codes and their sorting, `blocks.rs` the block loop and the raw tails.

mod blocks;
mod build;
mod codes;
mod sieve;
mod types;

use std::ops::ControlFlow;
use std::time::Instant;

use blocks::count_sorted;
use sieve::{Costs, subset_sums};
pub use sieve::{MAX_CUTS, SIBLINGS, SIEVE_FROM, transpose64};
use types::CLASSES;
pub use types::{BLOCK, CHUNK, MAX_CHUNK, MatchStats, Matcher, TAIL};

use crate::arch::Level;

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

impl Matcher {
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
                self.build_timed(level, classes, codes_batch);
                let scale = share(codes_batch);
                total +=
                    self.count_stored(level, codes_batch, weights, parts, scale, &mut progress, after)?;
            }
            return Some(total);
        }
        for &(masks, weight) in classes {
            for piece in masks.chunks(cap) {
                for codes_batch in codes.chunks(batch) {
                    self.build_timed(level, &[(piece, weight)], codes_batch);
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
        let t0 = Instant::now();
        let mut prepared = std::mem::take(&mut self.queries);
        self.sort_codes(level, codes, weights, &mut prepared);
        self.stats.sort_s += t0.elapsed().as_secs_f64();
        self.stats.queries += codes.len() as u64;
        let (work, visits) = self.part_work(level, parts);
        let mut total = 0;
        let mut stopped = progress.done == 0 && after(*progress).is_break();
        for (part, (w, &(blocks, raw))) in work.iter().zip(&visits).enumerate() {
            if stopped {
                break;
            }
            let t0 = Instant::now();
            let (sum, ones) = count_sorted(level, self, &prepared, part, parts);
            self.stats.match_s += t0.elapsed().as_secs_f64();
            (self.stats.block_codes, self.stats.raw_pairs) =
                (self.stats.block_codes + blocks as u128, self.stats.raw_pairs + raw as u128);
            self.stats.disjoint += ones as u128;
            total += sum;
            progress.done += 1;
            progress.share = (progress.share + w * scale).min(1.0);
            stopped = after(*progress).is_break();
        }
        self.queries = prepared;
        (!stopped).then_some(total)
    }

    /// Stores `classes` as [`Matcher::build`] does, counting its time and sizes in the stats.
    fn build_timed(&mut self, level: Level, classes: &[(&[u64], u32)], queries: &[u64]) {
        let t0 = Instant::now();
        self.build(level, classes, queries);
        let stats = &mut self.stats;
        stats.build_s += t0.elapsed().as_secs_f64();
        stats.builds += 1;
        stats.stored += classes.iter().map(|c| c.0.len() as u64).sum::<u64>();
        stats.cuts += u64::from(self.cut.count_ones());
        stats.blocks += self.block_weights.len() as u64;
        stats.chunks += self.chunks as u64;
        stats.chunk_bits += u64::from(self.bits_per_chunk);
        stats.table_bytes = stats.table_bytes.max(std::mem::size_of_val(&self.tables[..]) as u64);
    }

    /// Returns the modelled share of the matching's work in each of `parts` parts of the stored
    /// blocks and tails against the sorted queries, adding up to one: a block meets the queries
    /// whose bucket is disjoint from its own (the AND of its words' buckets), at one row per
    /// chunk and [`Costs::per_query`] each; a raw tail mask costs [`Costs::per_raw`] per query.
    /// Also returns each part's (block, code) visits and raw (tail mask, code) tests.
    fn part_work(&self, level: Level, parts: usize) -> (Vec<f64>, Vec<(u64, u64)>) {
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
        let mut visits = vec![(0, 0); parts];
        for (b, &bucket) in self.block_buckets.iter().enumerate() {
            let met = compat[!(bucket as usize) & all];
            work[b % parts] += met as f64 * per_query;
            visits[b % parts].0 += met;
        }
        for (i, run) in self.tail_runs.iter().enumerate() {
            let len = u64::from(run.end - run.start);
            let met = compat[!(run.bucket as usize) & all];
            work[i % parts] += (len * met) as f64 * costs.per_raw as f64;
            visits[i % parts].1 += len * met;
        }
        let sum: f64 = work.iter().sum();
        if sum > 0.0 {
            work.iter_mut().for_each(|w| *w /= sum);
        } else {
            work.fill(1.0 / parts as f64);
        }
        (work, visits)
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

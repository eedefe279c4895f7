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
use types::{CLASSES, Piece};
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
    /// name its weight class and are not matched), exactly. (Copies both sides, then
    /// [`Matcher::count_in_place`].)
    pub fn count_coded(
        &mut self,
        level: Level,
        classes: &[(&[u64], u32)],
        codes: &[u64],
        weights: [u32; 4],
    ) -> u64 {
        let mut stored: Vec<u64> = classes.iter().flat_map(|c| c.0.iter().copied()).collect();
        let lens: Vec<(usize, u32)> = classes.iter().map(|c| (c.0.len(), c.1)).collect();
        let mut codes = codes.to_vec();
        self.count_in_place(level, &mut stored, &lens, &mut codes, weights, 1, &mut |_| ControlFlow::Continue(()))
            .expect("nothing stops the count")
    }

    /// Returns what [`Matcher::count_coded`] returns for the stored side `stored` — its
    /// `classes` one after the other, each (number of masks, weight) — against `codes`,
    /// reordering and squeezing both in place (no copy of either: a unit of n = 28 holds 10^8
    /// half-boards a side). The sieve is chosen over the whole stored side; its blocks are built
    /// in pieces ([`Matcher::max_stored`]), each matched in up to `max_parts` parts of about equal
    /// work (its blocks dealt round robin, so each part meets every kind of block; at least
    /// [`MIN_PART_BLOCKS`] blocks a part): calls `after` with [`Parts`] once the codes are
    /// sorted and the first piece built (`done` = 0), then after every part, and returns `None`
    /// as soon as `after` returns [`ControlFlow::Break`]. Neither pieces nor parts add matching
    /// work: every block meets the codes of the buckets disjoint from its own, once.
    ///
    /// # Panics
    /// If the classes' lengths do not add up to `stored.len()`.
    #[allow(clippy::too_many_arguments)]
    pub fn count_in_place(
        &mut self,
        level: Level,
        stored: &mut [u64],
        classes: &[(usize, u32)],
        codes: &mut [u64],
        weights: [u32; 4],
        max_parts: usize,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        assert_eq!(classes.iter().map(|c| c.0).sum::<usize>(), stored.len(), "the classes' lengths");
        if codes.is_empty() || stored.is_empty() {
            return Some(0);
        }
        let t0 = Instant::now();
        self.prepare_stored(level, stored, classes, codes);
        self.stats.build_s += t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        self.sort_codes(level, codes, weights);
        self.stats.sort_s += t0.elapsed().as_secs_f64();
        self.stats.queries += codes.len() as u64;
        let pieces = self.pieces();
        let parts: Vec<usize> =
            pieces.iter().map(|p| (p.masks / BLOCK / MIN_PART_BLOCKS).clamp(1, max_parts.max(1))).collect();
        let work = self.piece_work(&pieces);
        let mut progress = Parts { done: 0, total: parts.iter().sum(), share: 0.0 };
        let mut total = 0;
        for (i, piece) in pieces.iter().enumerate() {
            self.build_timed(level, stored, piece);
            total += self.count_stored(level, codes, parts[i], work[i], &mut progress, after)?;
        }
        Some(total)
    }

    /// Returns each piece's modelled share of the matching (adding up to one): a bucket's
    /// blocks, whole or shared, each meet the codes of the buckets disjoint from its own.
    fn piece_work(&self, pieces: &[Piece]) -> Vec<f64> {
        let k = self.cut.count_ones();
        let buckets = 1usize << k;
        let compat = self.compatible_codes();
        let group_bits = (k as usize).saturating_sub(SIBLINGS);
        let mut work: Vec<f64> = pieces
            .iter()
            .map(|p| {
                let mut w = 0.0;
                for &(class, from, to) in &p.runs {
                    let starts = &self.class_starts[class * (buckets + 1)..];
                    for g in from..to {
                        for t in 0..1usize << (k as usize - group_bits) {
                            let b = g | (t << group_bits);
                            let blocks = (starts[b + 1] - starts[b]).div_ceil(BLOCK);
                            w += blocks as f64 * compat[!b & (buckets - 1)] as f64;
                        }
                    }
                }
                w
            })
            .collect();
        let sum: f64 = work.iter().sum();
        if sum > 0.0 {
            work.iter_mut().for_each(|w| *w /= sum);
        } else {
            work.fill(1.0 / pieces.len().max(1) as f64);
        }
        work
    }

    /// Returns, for every set t of cut bits, the counted codes (weight slots not 0) whose bucket
    /// is a subset of t: the codes a stored bucket s meets are those of `!s`.
    fn compatible_codes(&self) -> Vec<u64> {
        let k = self.cut.count_ones();
        let mut compat: Vec<u64> = (0..1usize << k)
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
        compat
    }

    /// Returns the sum [`Matcher::count_coded`] returns, against the blocks of the piece built
    /// last, in `parts` parts (see [`Matcher::count_in_place`]; `progress` counts the parts done
    /// over every piece, and this piece stands for `scale` of the work).
    fn count_stored(
        &mut self,
        level: Level,
        codes: &[u64],
        parts: usize,
        scale: f64,
        progress: &mut Parts,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        let (work, visits) = self.part_work(level, parts);
        let mut total = 0;
        let mut stopped = progress.done == 0 && after(*progress).is_break();
        for (part, (w, &(blocks, raw))) in work.iter().zip(&visits).enumerate() {
            if stopped {
                break;
            }
            let t0 = Instant::now();
            let (sum, ones) = count_sorted(level, self, codes, part, parts);
            self.stats.match_s += t0.elapsed().as_secs_f64();
            (self.stats.block_codes, self.stats.raw_pairs) =
                (self.stats.block_codes + blocks as u128, self.stats.raw_pairs + raw as u128);
            self.stats.disjoint += ones as u128;
            total += sum;
            progress.done += 1;
            progress.share = (progress.share + w * scale).min(1.0);
            stopped = after(*progress).is_break();
        }
        (!stopped).then_some(total)
    }

    /// Builds `piece` of the prepared `stored` side ([`Matcher::build_piece`]), counting its
    /// time and sizes in the stats.
    fn build_timed(&mut self, level: Level, stored: &[u64], piece: &Piece) {
        let t0 = Instant::now();
        self.build_piece(level, stored, piece);
        let stats = &mut self.stats;
        stats.build_s += t0.elapsed().as_secs_f64();
        stats.builds += 1;
        stats.stored += piece.masks as u64;
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
        let all = (1usize << self.cut.count_ones()) - 1;
        // compat[t]: the counted queries whose bucket is a subset of t.
        let compat = self.compatible_codes();
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

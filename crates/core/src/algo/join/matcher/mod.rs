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

use std::ops::ControlFlow;

use super::bits::low_mask;
use crate::arch::portable::Squeeze;
use crate::arch::{Bits512, Lanes, Level, Row, Simd, Tally, multiversion};

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
    /// (4 · 2^k + 1 entries: bucket b, slot s at 4b + s; see [`slots`]).
    query_starts: Vec<usize>,
    sorted: Vec<u64>,
    /// The weight of each slot of the sorted queries (see [`slots`]).
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
        let (occupied, cut) = (self.occupied, self.cut);
        let mut starts = std::mem::take(&mut self.query_starts);
        // The codes sorted by cut-bit bucket and, within a bucket, by weight into slots (the
        // classes of one weight share a slot), so the block loops run over queries of one
        // weight at a time (no multiply per query). Codes of weight 0 are dropped.
        let buckets = 1usize << cut.count_ones();
        let (sets, run_weights) = slots(weights);
        self.run_weights = run_weights;
        let uniform = sets[0] == 0b1111;
        starts.clear();
        starts.resize(CLASSES * buckets + 1, 0);
        // Room for the partition's whole-register stores; every entry below codes.len() is
        // written before it is read, so the buffer is not cleared.
        prepared.resize(codes.len() + WORDS, 0);
        if cut != 0 {
            // Bucket starts for the counting sort by cut-bit bucket (the greedy-order indices
            // the build computed for these codes, and its bucket sizes when it has them).
            let low = buckets as u16 - 1;
            assert_eq!(self.query_index.len(), codes.len(), "the codes the matcher was built for");
            let next = &mut self.next;
            next.clear();
            next.resize(buckets + 1, 0);
            if self.sizes_valid {
                let q = self.sizes.len() - buckets;
                for (s, &n) in next[1..].iter_mut().zip(&self.sizes[q..]) {
                    *s = n as usize;
                }
            } else {
                for &b in &self.query_index {
                    next[(b & low) as usize + 1] += 1;
                }
            }
            for i in 1..=buckets {
                next[i] += next[i - 1];
            }
            for b in 0..buckets {
                starts[b * CLASSES] = next[b];
            }
        }
        starts[CLASSES * buckets] = codes.len();
        let low = buckets as u16 - 1;
        if uniform {
            // One slot: the bucket sort writes the runs themselves.
            if cut == 0 {
                prepared[..codes.len()].copy_from_slice(codes);
            } else {
                scatter(&self.query_index, low, codes, &mut self.next, &mut prepared);
            }
            for b in 0..buckets {
                let hi = starts[(b + 1) * CLASSES];
                starts[b * CLASSES + 1..(b + 1) * CLASSES].fill(hi);
            }
        } else {
            // Sorted by bucket into `by_bucket`, then each bucket partitioned into slots.
            let mut by_bucket = std::mem::take(&mut self.by_bucket);
            let bucketed: &[u64] = if cut == 0 {
                codes
            } else {
                by_bucket.resize(codes.len(), 0);
                scatter(&self.query_index, low, codes, &mut self.next, &mut by_bucket);
                &by_bucket
            };
            for b in 0..buckets {
                let (lo, hi) = (starts[b * CLASSES], starts[(b + 1) * CLASSES]);
                // Slot 3's run ends at the next bucket: the entries past the written ones are
                // stale, and slot 3 is empty or has weight 0 (never counted).
                let ends = partition_classes(level, &bucketed[lo..hi], &mut prepared[lo..hi + WORDS], sets);
                for (c, end) in ends.into_iter().take(CLASSES - 1).enumerate() {
                    starts[b * CLASSES + c + 1] = lo + end;
                }
            }
            self.by_bucket = by_bucket;
        }
        prepared.truncate(codes.len());
        squeeze_all(level, &mut prepared, occupied, CLASS);
        self.query_starts = starts;
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
        for bit in 0..k {
            for t in 0..buckets {
                if t >> bit & 1 == 1 {
                    compat[t] += compat[t ^ (1 << bit)];
                }
            }
        }
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
        let low = buckets as u16 - 1;
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

    /// Returns the cut bits for the stored `classes` (whose masks' OR is `all`) against
    /// `queries`: a greedy order of up to [`MAX_CUTS`] bits, then the prefix of it the cost
    /// model ([`sieve_cost`]) finds cheapest ([`Matcher::cuts`] forces its length).
    ///
    /// The order comes from a sample of stored × query pairs: each step takes the bit on which
    /// the most sampled pairs not yet separated clash (a query skips every stored bucket that
    /// shares one of its cut bits, so that is the bit that skips the most pair tests; taking
    /// the clashes on the earlier bits out first is what accounts for correlated diagonals).
    fn choose_cut(
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
        // Sample pairs: stored mask i·stride_s with query i·stride_q (mod lengths), skipping
        // empty classes.
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
        while chosen < max as usize {
            let freq =
                |j: usize| -> u32 { (0..words).map(|w| (columns[j][w] & alive[w]).count_ones()).sum() };
            let best =
                (0..64).filter(|&j| cut >> j & 1 == 0 && all >> j & 1 == 1).map(|j| (freq(j), j)).max();
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
        if chosen == 0 {
            return (0, fallback);
        }
        // The greedy-order index of every stored mask and query over all the chosen bits
        // (index bit i: the mask has cut bit order[i]): a prefix of k cut bits numbers its
        // buckets by the low k index bits, so the build's and the queries' counting sorts
        // take them as they are, and each shorter prefix's histogram folds the top half in.
        let full = cut;
        let bins = 1usize << chosen;
        // greedy[p]: the greedy-order index of the p-th (from bit 0) set bit of `full`.
        let mut greedy = [0u16; 1 << MAX_CUTS];
        let mut position = [0u32; 64];
        for (p, j) in (0..64).filter(|&j| full >> j & 1 == 1).enumerate() {
            position[p] = order[..chosen].iter().position(|&b| b == 1 << j).expect("chosen bit") as u32;
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
        if let Some(forced) = self.cuts {
            return (order[..(forced as usize).min(chosen)].iter().fold(0, |a, &b| a | b), fallback);
        }
        // Histograms of stored masks (per class) and of queries over all the chosen bits.
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
        let bits = all.count_ones();
        let costs = Costs::of(level);
        let mut best = (u64::MAX, 0, fallback);
        let mut compat = std::mem::take(&mut self.compat);
        self.sizes.clear();
        self.sizes.extend_from_slice(&hist);
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
            let queries = &hist[classes.len() * bins..classes.len() * bins + buckets];
            // compat[t]: the queries whose bucket is a subset of t (sum over subsets).
            compat.clear();
            compat.extend(queries.iter().map(|&q| q as u64));
            for bit in 0..k {
                for t in 0..buckets {
                    if t >> bit & 1 == 1 {
                        compat[t] += compat[t ^ (1 << bit)];
                    }
                }
            }
            for c in self.widths() {
                let stored = (0..classes.len()).map(|c| &hist[c * bins..c * bins + buckets]);
                let cost = sieve_cost(&costs, stored, &compat, bits - k as u32, c);
                if cost <= best.0 {
                    best = (cost, k, c);
                }
            }
        }
        self.compat = compat;
        self.hist = hist;
        // Keep every set's bucket sizes for the chosen prefix: the counting sorts need them.
        let (sizes, k) = (&mut self.sizes, best.1);
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
        (order[..best.1].iter().fold(0, |a, &b| a | b), best.2)
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
fn sieve_cost<'a>(
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
struct Costs {
    /// One row load and AND for chunks of 5, 6, 7 and 8 bits: a block's tables fit L1 up to
    /// 6 bits per chunk (4 KiB a chunk); at 7 and 8 bits (8 and 16 KiB a chunk) some loads go
    /// to L2.
    rows: [u64; 4],
    /// Per query and block besides its rows: counting the ones, the loop.
    per_query: u64,
    /// Building one table row: two loads, one AND, one store.
    per_row: u64,
    /// One raw tail mask against one query.
    per_raw: u64,
}

impl Costs {
    /// Returns the constants of `level`. AVX-512 (measured on Zen 4 at n = 18–22,
    /// results/2026-12-01-join-scale/ and results/2026-12-01-join-final/: 8-bit chunks, 4
    /// loads for 32 bits, matched 1.15× faster than 6-bit ones, 6 loads).
    fn of(level: Level) -> Costs {
        let _ = level;
        Costs { rows: [10, 10, 11, 12], per_query: 40, per_row: 20, per_raw: 20 }
    }

    /// Returns the cost of one row for chunks of `c` bits.
    fn row(&self, c: u32) -> u64 {
        self.rows[(c.clamp(CHUNK, MAX_CHUNK) - CHUNK) as usize]
    }
}

/// The most cut bits the sieve uses (1024 buckets).
pub const MAX_CUTS: u32 = 10;
/// Stored masks from which the sieve is considered (the cost model then chooses, possibly no
/// cut at all): at n = 22 a stored set of 2,649 masks against 589,784 queries runs about 10%
/// faster with 6 cut bits than with none.
pub const SIEVE_FROM: usize = 2 * BLOCK;
/// Stored × query pairs from which the sieve is considered: below, choosing the cut bits
/// (sampling and histograms, tens of µs) would cost more than it saves (odd n runs many
/// rounds of a few µs).
const SIEVE_PAIRS: u64 = 1 << 24;

/// Transposes a 64×64 bit matrix in place (see [`crate::arch::portable::transpose64`]), in the
/// copy of `level`.
pub fn transpose64(level: Level, a: &mut [u64; 64]) {
    transpose(level, a)
}

multiversion! {
    fn transpose(a: &mut [u64; 64]) => transpose_body;
}

/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled (every `*_body` below alike).
#[inline(always)]
unsafe fn transpose_body<S: Simd>(a: &mut [u64; 64]) {
    unsafe { S::transpose64(a) }
}

multiversion! {
    /// Appends one block's chunk tables to `tables` for the masks of its eight 64-lane `words`
    /// (squeezed, at most 64 each) over `bits` mask bits in `chunks` chunks of `c` bits: row
    /// s of chunk k has bit i set if and only if stored mask i exists and leaves every bit of
    /// s (shifted to the chunk) free.
    fn fill_block(words: &[&[u64]; WORDS], tables: &mut Vec<Bits512>, chunks: usize, c: u32, bits: u32)
        => fill_block_body;
}

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

/// The scatter of a stable counting sort: for each `src[i]`, with bucket b = `index[i] & low`,
/// writes it to `out[next[b]]` and advances `next[b]`. (A function of its own, so the
/// compiler knows `next` and `out` do not alias and keeps their pointers in registers.)
#[inline(never)]
fn scatter(index: &[u16], low: u16, src: &[u64], next: &mut [usize], out: &mut [u64]) {
    for (&b, &x) in index.iter().zip(src) {
        let b = (b & low) as usize;
        let at = next[b];
        out[at] = x;
        next[b] = at + 1;
    }
}

/// Bits 62 and 63 of a code: its weight class.
const CLASS: u64 = 3 << 62;
/// Weight classes of a code.
const CLASSES: usize = 4;

/// Returns the slots of a weight table: `sets[s]` holds the classes (bit c: class c) whose
/// codes go to slot s and `weights[s]` their weight. Classes of one weight share a slot;
/// classes of weight 0 belong to no slot, and slot 3 is then empty with weight 0 (the
/// partition leaves stale entries there, which no loop counts). One weight for every class
/// gives the single set `0b1111`.
fn slots(weights: [u32; CLASSES]) -> ([u8; CLASSES], [u32; CLASSES]) {
    let (mut sets, mut slot_weights, mut used) = ([0u8; CLASSES], [0u32; CLASSES], 0);
    for (c, &w) in weights.iter().enumerate() {
        if w == 0 {
            continue;
        }
        let s = match slot_weights[..used].iter().position(|&x| x == w) {
            Some(s) => s,
            None => {
                used += 1;
                used - 1
            }
        };
        slot_weights[s] = w;
        sets[s] |= 1 << c;
    }
    (sets, slot_weights)
}

multiversion! {
    /// Writes the codes of each slot's classes (`sets`, see [`slots`]) to `out`, slot after
    /// slot, and returns the end of each slot in `out`; codes of no slot are dropped. `out`
    /// holds [`WORDS`] more entries than `codes` (scratch for whole-register stores).
    fn partition_classes(codes: &[u64], out: &mut [u64], sets: [u8; CLASSES]) -> [usize; CLASSES]
        => partition_body;
}

#[inline(always)]
unsafe fn partition_body<S: Simd>(codes: &[u64], out: &mut [u64], sets: [u8; CLASSES]) -> [usize; CLASSES] {
    assert!(out.len() >= codes.len() + WORDS && S::Lanes::WIDTH <= WORDS);
    let mut ends = [0; CLASSES];
    let mut at = 0;
    for (&set, end) in sets.iter().zip(&mut ends) {
        if set != 0 {
            let mut i = 0;
            while i < codes.len() {
                // SAFETY: this runs with `S`'s features; the store writes WIDTH ≤ WORDS lanes
                // at `at` ≤ i < codes.len(), inside `out` (asserted above).
                unsafe {
                    let v = S::Lanes::load(codes, i);
                    // Bit (class) of the set, per lane; lanes past the end are not kept.
                    let class = v.shr(62);
                    let member = S::Lanes::splat(set as u64).shrv(class).and(S::Lanes::splat(1));
                    let keep = member.nonzero() & S::Lanes::first(codes.len() - i);
                    at += S::Lanes::compress_store(out.as_mut_ptr().add(at), keep, v);
                }
                i += S::Lanes::WIDTH;
            }
        }
        *end = at;
    }
    ends
}

/// Squeezes every mask of `xs` by `mask` in place (the bits under `mask` packed into the low
/// bits), keeping the bits of `keep` where they are (`keep` disjoint from what the squeeze can
/// reach: the weight class of a code); with `pext` where `level` has a fast one.
fn squeeze_all(level: Level, xs: &mut [u64], mask: u64, keep: u64) {
    if level.fast_pext() {
        squeeze_with::<true>(level, xs, mask, keep)
    } else {
        squeeze_with::<false>(level, xs, mask, keep)
    }
}

multiversion! {
    /// [`squeeze_all`], with `pext` if `PEXT` (and the level has it), else [`Squeeze`].
    fn squeeze_with[const PEXT: bool](xs: &mut [u64], mask: u64, keep: u64) => squeeze_body[PEXT];
}

#[inline(always)]
unsafe fn squeeze_body<S: Simd, const PEXT: bool>(xs: &mut [u64], mask: u64, keep: u64) {
    if PEXT && S::PEXT {
        for x in xs {
            // SAFETY: this runs with `S`'s features, which have `pext` (`S::PEXT`).
            *x = unsafe { S::pext(*x, mask) } | (*x & keep);
        }
    } else {
        let squeeze = Squeeze::new(mask);
        for x in xs {
            *x = squeeze.apply(*x) | (*x & keep);
        }
    }
}

/// Appends `table[pext(x, mask)]` for every x of `src` to `out` (`mask` of at most 10 bits); with
/// `pext` where `level` has a fast one.
fn index_all(level: Level, src: &[u64], mask: u64, table: &[u16; 1 << MAX_CUTS], out: &mut Vec<u16>) {
    if level.fast_pext() {
        index_with::<true>(level, src, mask, table, out)
    } else {
        index_with::<false>(level, src, mask, table, out)
    }
}

multiversion! {
    /// [`index_all`], with `pext` if `PEXT` (and the level has it), else [`Squeeze`].
    fn index_with[const PEXT: bool](src: &[u64], mask: u64, table: &[u16; 1 << MAX_CUTS], out: &mut Vec<u16>)
        => index_body[PEXT];
}

#[inline(always)]
unsafe fn index_body<S: Simd, const PEXT: bool>(
    src: &[u64],
    mask: u64,
    table: &[u16; 1 << MAX_CUTS],
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

/// Returns the weighted count of part `part` of `parts` of the stored blocks and raw tails of
/// `m` against `queries` (squeezed and sorted into runs by bucket and slot), in the copies of
/// `level`: the blocks and the raw tail runs `part`, `part + parts`, … (each once over the parts).
fn count_sorted(level: Level, m: &Matcher, queries: &[u64], part: usize, parts: usize) -> u64 {
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
    tail_sum(m, queries, part, parts)
        + dispatch!(
            5: 1 2 3 4 5 6 7 8 9 10;
            6: 1 2 3 4 5 6 7 8 9;
            7: 1 2 3 4 5 6 7 8;
            8: 1 2 3 4 5 6 7;
        )
}

multiversion! {
    /// The block loop for `K` chunks of `C` bits ([`blocks_body`]).
    fn blocks[const K: usize, const C: u32](m: &Matcher, queries: &[u64], part: usize, parts: usize) -> u64 => blocks_body[K, C];
}

multiversion! {
    /// The block loop for any shape (variable shifts).
    fn blocks_any(m: &Matcher, queries: &[u64], part: usize, parts: usize) -> u64 => blocks_any_body;
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
) -> u64 {
    debug_assert_eq!((m.chunks, m.bits_per_chunk), (K, C));
    // SAFETY: this runs with `S`'s features.
    unsafe { block_loop::<S>(m, queries, K, C, part, parts) }
}

/// [`blocks_body`] for any shape (variable shifts).
#[inline(always)]
unsafe fn blocks_any_body<S: Simd>(m: &Matcher, queries: &[u64], part: usize, parts: usize) -> u64 {
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
) -> u64 {
    let rows = 1usize << c;
    let mask = rows as u64 - 1;
    let mut total = 0u64;
    for b in (part..m.block_weights.len()).step_by(parts.max(1)) {
        let (block_weight, bucket) = (m.block_weights[b], m.block_buckets[b]);
        let tables = &m.tables[b * m.block_rows..(b + 1) * m.block_rows];
        let mut sum = 0u64;
        for qb in 0..m.query_buckets() {
            if qb as u32 & bucket != 0 {
                continue;
            }
            let words = word_mask(m, b, qb as u32);
            for (slot, &weight) in m.run_weights.iter().enumerate() {
                let run =
                    &queries[m.query_starts[qb * CLASSES + slot]..m.query_starts[qb * CLASSES + slot + 1]];
                if run.is_empty() || weight == 0 {
                    continue;
                }
                let mut ones = 0;
                for part in run.chunks(S::Tally::BATCH) {
                    // SAFETY (the loop): this runs with `S`'s features; chunk k's row
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
            }
        }
        total += sum * block_weight as u64;
    }
    total
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

/// A bucket's short tail of one class: `tail[start..end]`, matched raw.
#[derive(Clone, Copy, Debug)]
struct TailRun {
    bucket: u32,
    weight: u32,
    start: u32,
    end: u32,
}

/// Returns the weighted count of the raw tail runs `part`, `part + parts`, … against the
/// compatible (squeezed, sorted) queries.
#[inline(always)]
fn tail_sum(m: &Matcher, queries: &[u64], part: usize, parts: usize) -> u64 {
    let mut total = 0;
    for run in m.tail_runs.iter().skip(part).step_by(parts.max(1)) {
        let masks = &m.tail[run.start as usize..run.end as usize];
        let mut sum = 0u64;
        for qb in (0..m.query_buckets()).filter(|&qb| qb as u32 & run.bucket == 0) {
            for (slot, &weight) in m.run_weights.iter().enumerate().filter(|(_, w)| **w != 0) {
                let range = m.query_starts[qb * CLASSES + slot]..m.query_starts[qb * CLASSES + slot + 1];
                for &q in &queries[range] {
                    let free = masks.iter().filter(|&&t| t & q == 0).count() as u64;
                    sum += free * weight as u64;
                }
            }
        }
        total += sum * run.weight as u64;
    }
    total
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
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        /// A sparse mask over `bits` bits (about a quarter set, as window masks are).
        fn mask(&mut self, bits: u32, holes: u64) -> u64 {
            (self.next() & self.next()) & low_mask(bits) & !holes
        }
    }

    #[test]
    fn bit_sliced_counts_equal_naive_counts() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for (level, chunk_bits) in Level::available()
            .into_iter()
            .flat_map(|l| [None, Some(3), Some(6), Some(7), Some(MAX_CHUNK)].map(|c| (l, c)))
        {
            let mut m = Matcher::new();
            m.chunk_bits = chunk_bits;
            for bits in [6, 17, 34, 42] {
                for holes in [0u64, 0b1001_0000_0100, (1 << (bits / 2)) | 1] {
                    for len in [
                        0,
                        1,
                        TAIL - 1,
                        TAIL,
                        BLOCK - 1,
                        BLOCK,
                        BLOCK + 1,
                        2 * BLOCK + TAIL + 3,
                        SIEVE_FROM + 777,
                    ] {
                        let masks: Vec<u64> = (0..len).map(|_| rng.mask(bits, holes)).collect();
                        let more: Vec<u64> = (0..len / 3).map(|_| rng.mask(bits, holes)).collect();
                        let queries: Vec<Query> =
                            (0..50).map(|i| (rng.mask(bits, 0), 1 + (i % 4) as u32)).collect();
                        assert_eq!(
                            m.count(level, &[(&masks, 1)], &queries),
                            naive_count(&[(&masks, 1)], &queries),
                            "{level:?} {chunk_bits:?} bits = {bits} holes = {holes:b} len = {len}"
                        );
                        let classes: [(&[u64], u32); 3] = [(&masks, 2), (&more, 4), (&masks[..len / 2], 1)];
                        assert_eq!(
                            m.count(level, &classes, &queries),
                            naive_count(&classes, &queries),
                            "{level:?} bits = {bits} holes = {holes:b} len = {len}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_sieve_counts_like_the_naive_test() {
        let mut rng = Rng(99);
        let mut m = Matcher::new();
        for level in Level::available() {
            for bits in [20, 38, 42] {
                let masks: Vec<u64> = (0..3 * SIEVE_FROM + 5).map(|_| rng.mask(bits, 0b100)).collect();
                let queries: Vec<Query> = (0..300).map(|i| (rng.mask(bits, 0), 1 + i % 3)).collect();
                let classes: [(&[u64], u32); 2] =
                    [(&masks[..SIEVE_FROM + 100], 2), (&masks[SIEVE_FROM + 100..], 1)];
                let want = naive_count(&classes, &queries);
                for cuts in (0..=MAX_CUTS).map(Some).chain([None]) {
                    m.cuts = cuts;
                    m.chunk_bits = Some(4 + cuts.unwrap_or(0) % 5);
                    assert_eq!(m.count(level, &classes, &queries), want, "{level:?} {bits} {cuts:?}");
                    if let Some(k) = cuts {
                        assert_eq!(m.cut_bits(), k, "{bits} bits: every forced cut bit separates pairs");
                    }
                }
                m.cuts = None;
            }
        }
    }

    /// Matching in parts (and in stored pieces) adds up to the one-part count at every level,
    /// with and without the sieve; the callback sees every part once, in order, and a break
    /// stops the count at once.
    #[test]
    fn parts_and_pieces_count_like_one_pass() {
        let mut rng = Rng(7);
        let mut m = Matcher::new();
        // 40 blocks and a remainder: 2 parts of 16 blocks or more; two classes.
        let masks: Vec<u64> = (0..40 * BLOCK + 300).map(|_| rng.mask(36, 0b1000)).collect();
        let codes: Vec<u64> = (0..2000).map(|i| rng.mask(36, 0) | (i % 3) << 62).collect();
        let classes: [(&[u64], u32); 2] = [(&masks[..30 * BLOCK], 1), (&masks[30 * BLOCK..], 3)];
        let weights = [1, 2, 5, 0];
        for level in Level::available() {
            for (cuts, pieces) in [(Some(0), None), (None, None), (None, Some(9 * BLOCK + 17))] {
                (m.cuts, m.max_stored, m.max_queries) = (cuts, pieces, None);
                let want = m.count_coded(level, &classes, &codes, weights);
                for max_parts in [1, 2, 64] {
                    let mut seen = Vec::new();
                    let got = m.count_coded_in_parts(level, &classes, &codes, weights, max_parts, &mut |p| {
                        seen.push(p);
                        ControlFlow::Continue(())
                    });
                    assert_eq!(got, Some(want), "{level:?} {cuts:?} {pieces:?} {max_parts}");
                    // One piece of 40 blocks and more: 2 parts of 16 blocks or more; pieces of
                    // 9 blocks (4 of the first class, 2 of the second): one part each.
                    let total = seen[0].total;
                    assert_eq!(total, if pieces.is_some() { 6 } else { max_parts.min(2) }, "{seen:?}");
                    // Once with 0 when the first piece is stored, then 1..=total.
                    let done: Vec<usize> = seen.iter().map(|p| p.done).collect();
                    assert_eq!(done, (0..=total).collect::<Vec<_>>(), "{level:?} {max_parts}");
                    // The modelled shares rise from 0 to 1.
                    assert!(seen.windows(2).all(|w| w[0].share <= w[1].share), "{seen:?}");
                    assert!(seen[0].share == 0.0 && (seen[total].share - 1.0).abs() < 1e-9, "{seen:?}");
                }
                // 64 parts at most, 16 blocks at least: 40 blocks make 2 parts per piece.
                let mut last = Parts { done: 0, total: 0, share: 0.0 };
                let stopped = m.count_coded_in_parts(level, &classes, &codes, weights, 64, &mut |p| {
                    last = p;
                    if p.done == 1 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                });
                assert_eq!((stopped, last.done), (None, 1));
                // Codes in batches too: 3 batches of 700, 700 and 600.
                m.max_queries = Some(700);
                let mut seen = Vec::new();
                let got = m.count_coded_in_parts(level, &classes, &codes, weights, 64, &mut |p| {
                    seen.push(p);
                    ControlFlow::Continue(())
                });
                assert_eq!(got, Some(want), "{level:?} {cuts:?} {pieces:?} in batches");
                let total = seen[0].total;
                assert_eq!(total, if pieces.is_some() { 18 } else { 6 }, "{seen:?}");
                assert!((seen[total].share - 1.0).abs() < 1e-9, "{seen:?}");
            }
        }
    }

    /// Bucket sizes at the edges: empty buckets, single masks, tails just under and at the
    /// raw-tail threshold, a whole block, a block and one: every forced number of cut bits
    /// against the naive count.
    #[test]
    fn sieve_buckets_of_edge_sizes_count_like_the_naive_test() {
        let mut rng = Rng(4242);
        let bits = 30;
        let mut m = Matcher::new();
        for level in Level::available() {
            for sizes in [
                [0, 1, TAIL - 1, TAIL],
                [BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + TAIL],
                [1, 0, 0, 3 * BLOCK],
            ] {
                // Masks of bucket i (of the two top bits) carry bucket i's pattern there, so
                // the greedy cut tends to pick those bits and the buckets get these sizes.
                let mut masks = Vec::new();
                for (i, &size) in sizes.iter().enumerate() {
                    let top = (i as u64) << (bits - 2);
                    masks.extend((0..size).map(|_| rng.mask(bits - 2, 0) | top));
                }
                let queries: Vec<Query> = (0..400).map(|i| (rng.mask(bits, 0), 1 << (i % 3))).collect();
                let classes: [(&[u64], u32); 2] = [(&masks, 1), (&masks[..masks.len() / 3], 8)];
                let want = naive_count(&classes, &queries);
                m.sieve_from = Some(0);
                for cuts in (0..=MAX_CUTS).map(Some).chain([None]) {
                    m.cuts = cuts;
                    assert_eq!(m.count(level, &classes, &queries), want, "{level:?} {sizes:?} {cuts:?}");
                }
            }
        }
    }

    #[test]
    fn the_cost_model_sieves_large_sets_and_not_small_ones() {
        let mut rng = Rng(5);
        let mut m = Matcher::new();
        let level = Level::best();
        // Window-like masks at n = 22: 40 bits, dense.
        let masks: Vec<u64> = (0..40_000).map(|_| rng.next() & low_mask(40)).collect();
        let queries: Vec<u64> = (0..40_000).map(|_| rng.next() & low_mask(40)).collect();
        m.build(level, &[(&masks, 1)], &queries);
        assert!(m.cut_bits() >= 4, "{} cut bits for 40,000 × 40,000 pairs", m.cut_bits());
        m.build(level, &[(&masks[..100], 1)], &queries[..100]);
        assert_eq!(m.cut_bits(), 0);
    }

    /// Codes of four weight classes against weight tables with shared weights and weight 0
    /// (the even-n west halves: [plain, 2, 2, 4] with plain = 0 drops a class), with and
    /// without the sieve, at every level and several chunk widths: the slots and the dropped
    /// class against a naive weighted count.
    #[test]
    fn weight_classes_in_slots_count_like_the_naive_test() {
        let mut rng = Rng(31337);
        let bits = 34;
        let masks: Vec<u64> = (0..2 * SIEVE_FROM + 333).map(|_| rng.mask(bits, 0)).collect();
        let codes: Vec<u64> = (0..3000).map(|i| rng.mask(bits, 0) | ((i % 7 % 4) as u64) << 62).collect();
        let tables: [[u32; 4]; 6] =
            [[0, 2, 2, 4], [1, 2, 2, 4], [3, 3, 3, 3], [0, 0, 0, 5], [1, 2, 3, 4], [0, 0, 0, 0]];
        for level in Level::available() {
            for weights in tables {
                let want: u64 = codes
                    .iter()
                    .map(|&q| {
                        let free = masks.iter().filter(|&&m| m & q & !CLASS == 0).count() as u64;
                        free * 3 * weights[(q >> 62) as usize] as u64
                    })
                    .sum();
                for (sieve_from, chunk_bits) in
                    [(usize::MAX, None), (0, None), (0, Some(6)), (usize::MAX, Some(3))]
                {
                    let mut m = Matcher::new();
                    m.sieve_from = Some(sieve_from);
                    m.chunk_bits = chunk_bits;
                    let classes: [(&[u64], u32); 1] = [(&masks, 3)];
                    for _ in 0..2 {
                        // Twice: stale entries of the first count stay in the scratch buffers.
                        assert_eq!(
                            m.count_coded(level, &classes, &codes, weights),
                            want,
                            "{level:?} {weights:?} sieve from {sieve_from} chunk {chunk_bits:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn empty_masks_match_everything() {
        let mut m = Matcher::new();
        let masks = vec![0u64; 700];
        assert_eq!(m.count(Level::best(), &[(&masks, 1)], &[(0b111, 3), (0, 1)]), 2800);
    }

    #[test]
    fn every_level_transposes_like_the_portable_copy() {
        let mut rng = Rng(77);
        for _ in 0..20 {
            let a: [u64; 64] = std::array::from_fn(|_| rng.next());
            let mut want = a;
            crate::arch::portable::transpose64(&mut want);
            for level in Level::available() {
                let mut t = a;
                transpose64(level, &mut t);
                assert_eq!(t, want, "{level}");
            }
        }
    }

    #[test]
    fn every_level_partitions_and_squeezes_like_the_portable_copy() {
        let mut rng = Rng(4321);
        for len in [0, 1, 3, 4, 5, 8, 9, 17, 100] {
            let codes: Vec<u64> = (0..len).map(|_| rng.next()).collect();
            let mask = rng.next() & rng.next() & !CLASS;
            for sets in [[0b1111, 0, 0, 0], [0b0001, 0b0110, 0b1000, 0], [0b0010, 0, 0b0101, 0]] {
                let mut want = vec![0; len + WORDS];
                let want_ends = partition_classes(Level::portable(), &codes, &mut want, sets);
                for level in Level::available() {
                    let mut out = vec![0; len + WORDS];
                    let ends = partition_classes(level, &codes, &mut out, sets);
                    assert_eq!(ends, want_ends, "{level} {len} {sets:?}");
                    assert_eq!(out[..ends[3]], want[..want_ends[3]], "{level} {len} {sets:?}");
                }
            }
            let mut want = codes.clone();
            for x in &mut want {
                *x = crate::arch::portable::pext(*x, mask) | (*x & CLASS);
            }
            for level in Level::available() {
                let mut got = codes.clone();
                squeeze_all(level, &mut got, mask, CLASS);
                assert_eq!(got, want, "{level}");
                // Both ways at every level, whatever this processor's `pext` speed.
                for pext in [false, true] {
                    let mut got = codes.clone();
                    if pext {
                        squeeze_with::<true>(level, &mut got, mask, CLASS);
                    } else {
                        squeeze_with::<false>(level, &mut got, mask, CLASS);
                    }
                    assert_eq!(got, want, "{level} pext {pext}");
                }
            }
        }
    }
}

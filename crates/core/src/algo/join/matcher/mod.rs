//! The bit-sliced matcher: counts, for each query mask, the stored masks disjoint from it.
//!
//! Masks go in blocks of [`BLOCK`] = 512. Per block, each mask bit j gets a 512-bit vector F_j
//! of "masks that leave bit j free"; the bits are grouped into chunks of c bits
//! ([`CHUNK`]..=[`MAX_CHUNK`], chosen per unit), and for each chunk the AND of the F_j over all
//! 2^c subsets of its bits is tabulated. A mask of the other side ANDs one table row per chunk
//! (chosen by its own bits in that chunk) and counts the ones. Loads are what limits the loop
//! (one 64-byte row per chunk, mask and block), so wider chunks pay while their tables (16 KiB
//! a chunk at 8 bits) are cheap to build against the masks that meet the block. Method: E.
//! Kluev's N-Queens-Count-Sol (doc/join-algorithm.md §4); chunk widths, query codes, the
//! sizes of the sieve and the slicing of either side are this crate's.
//!
//! Queries are `u64` codes whose bits 62 and 63 name one of four weights
//! ([`Matcher::count_coded`]), so a query is 8 bytes. They are sorted by sieve bucket and,
//! within a bucket, into weight slots (classes of one weight share a slot; weight 0 is
//! dropped), so the block loop adds popcounts and weighs each run once.
//!
//! The sieve: with k cut bits, both sides go into 2^k buckets by those bits (squeezed out of
//! the matched word by `pext`), and a stored bucket meets only the code buckets disjoint from
//! it. The cut bits come in a greedy order from a sample of stored × code pairs (each step the
//! bit the most not-yet-separated pairs clash on, by 64 popcounts over the sample transposed);
//! k (0..=[`MAX_CUTS`]) grows with the sides' sizes. Each pair of compatible buckets is matched
//! with the side that visits fewer (block, mask) pairs sliced into blocks and the other streamed
//! against it, so small buckets cost no padding and k can grow with the sides: at n = 26 about
//! 16 cut bits, against the 10 that a sieve slicing only the stored side could use (its
//! buckets' remainders filled blocks with padding). Both sides are sorted in place, and only
//! one bucket's tables are held at a time.
//!
//! The kernels (the block loop, the table fill, the squeezes and the transposes) are written
//! once over the traits of [`crate::arch`] and compiled for every instruction-set level; the
//! [`Level`] passed in picks the copy. The block loop has one copy per chunk count and width a
//! board reaches, so its shifts and offsets are constants.
//!
//! One concern a file: this one holds the entry points; `types.rs` the [`Matcher`] itself, its
//! sizes and what its siblings share; `sieve.rs` the choice of cut bits and the transpose of its
//! sample; `codes.rs` the query codes and the in-place sorts; `build.rs` the preparation of both
//! sides and the blocks' tables; `pairs.rs` the two passes over pairs of buckets; `blocks.rs`
//! the block loop.

mod blocks;
mod build;
mod codes;
mod pairs;
mod sieve;
mod types;

use std::ops::ControlFlow;
use std::time::Instant;

// The tuning knobs and building blocks the benches and examples reach (with `internals`).
#[cfg(any(test, feature = "internals"))]
pub use pairs::CODE_BATCH;
#[cfg(any(test, feature = "internals"))]
pub use sieve::{MAX_CUTS, SIEVE_FROM, transpose64};
#[cfg(any(test, feature = "internals"))]
pub use types::{BLOCK, MIN_PART_BLOCKS, MatchStats, PIECE_VISITS};
pub use types::{CHUNK, MAX_CHUNK, Matcher, Parts, Sampling};

use crate::arch::Level;

/// A query: a mask and the weight its count is multiplied by.
#[cfg(any(test, feature = "internals"))]
pub type Query = (u64, u32);

/// What [`Matcher::count_in_place`] counts: the stored side and its classes, the codes and their
/// weights.
#[derive(Debug)]
pub struct Sides<'a> {
    /// The stored masks, its classes one after the other (bits 62 and 63 clear).
    pub stored: &'a mut [u64],
    /// The stored classes: (number of masks, weight), in order.
    pub classes: &'a [(usize, u32)],
    /// The codes: masks with their weight class in bits 62 and 63.
    pub codes: &'a mut [u64],
    /// The weight of each class of code.
    pub weights: [u32; 4],
}

impl Matcher {
    /// Stores `classes` (masks and the weight of each, replacing what was stored) and returns
    /// the sum over `queries` of query weight × Σ stored weight over the stored masks m with
    /// m & query == 0, exactly. (Queries of up to four distinct weights at a time go through
    /// [`Matcher::count_coded`]; masks must leave bits 62 and 63 clear.)
    #[cfg(any(test, feature = "internals"))]
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
    #[cfg(any(test, feature = "internals"))]
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
        let sides = Sides { stored: &mut stored, classes: &lens, codes: &mut codes, weights };
        self.count_in_place(level, sides, 1, &mut |_| ControlFlow::Continue(())).expect("nothing stops the count")
    }

    /// Returns what [`Matcher::count_coded`] returns for `sides`, reordering and squeezing both
    /// sides in place (no copy of either: a unit of n = 28 holds 10^8 half-boards a side).
    /// Reports its progress to `after` in up to `max_parts` parts of about equal work (each at
    /// least [`MIN_PART_BLOCKS`] blocks): once both sides are sorted (`done` = 0), then after
    /// every part; returns `None` as soon as `after` returns [`ControlFlow::Break`]. The parts
    /// add no work.
    ///
    /// # Panics
    /// If the classes' lengths do not add up to the stored side's.
    pub fn count_in_place(
        &mut self,
        level: Level,
        sides: Sides<'_>,
        max_parts: usize,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        let Sides { stored, classes, codes, weights } = sides;
        assert_eq!(classes.iter().map(|c| c.0).sum::<usize>(), stored.len(), "the classes' lengths");
        if codes.is_empty() || stored.is_empty() {
            return Some(0);
        }
        let t0 = Instant::now();
        self.prepare(level, stored, classes, codes);
        self.stats.sort_s += t0.elapsed().as_secs_f64();
        self.stats.builds += 1;
        self.stats.stored += stored.len() as u64;
        self.stats.queries += codes.len() as u64;
        self.stats.cuts += u64::from(self.cut.count_ones());
        let total = self.count_pairs(level, stored, codes, weights, max_parts, after);
        self.stats.chunks += self.chunks as u64;
        self.stats.chunk_bits += u64::from(self.bits_per_chunk);
        total
    }
}

/// Returns the same sum as [`Matcher::count`] by testing every pair (for tests).
#[cfg(any(test, feature = "internals"))]
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

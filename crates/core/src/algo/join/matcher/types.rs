//! The matcher's types: [`Matcher`], its tables and scratch buffers; its sizes ([`BLOCK`],
//! [`CHUNK`]..=[`MAX_CHUNK`]); the weight classes of a code ([`CLASSES`]), a run of masks
//! streamed against a block ([`Run`]) and what the matcher did ([`MatchStats`]). The passes over
//! a `Matcher` are its siblings': `sieve.rs` (the cut bits), `codes.rs` (the sorts),
//! `build.rs` (the blocks' tables), `pairs.rs` (which side of each pair of buckets is sliced,
//! and the passes), `blocks.rs` (the block loop), and the entry points in `mod.rs`.

use crate::arch::Bits512;

/// Masks per block: one 512-bit row, 8 `u64` words (one AVX-512 register).
pub const BLOCK: usize = 512;
/// The fewest mask bits per chunk the matcher considers (32 table rows of 64 B per chunk,
/// 2 KiB), and the width when a forced cut leaves no choice.
pub const CHUNK: u32 = 5;
/// The most mask bits per chunk (256 rows, 16 KiB per chunk and block).
pub const MAX_CHUNK: u32 = 8;

/// `u64` words per block row.
pub(super) const WORDS: usize = BLOCK / 64;
/// Weight classes of a code.
pub(super) const CLASSES: usize = 4;
/// The most distinct weights among a block's words (a side's classes or slots).
pub(super) const WEIGHTS: usize = 4;

/// The longest run of values `codes::sort_in_place` sorts through second buffers (2^25 values: 256
/// MiB, and 256 MiB of keys): a scatter keeps many loads in flight, where the cycles of swaps of
/// the in-place sort wait on each other (measured: 20–25 ns a value in place, 3–8 through the
/// buffers, on 15 million values). Every side up to n = 27 fits; a side of n = 28–29 (up to
/// 2 · 10^8 masks) is sorted in place, a few seconds in units of minutes.
pub(super) const SCATTER_MAX: usize = 1 << 25;

/// The scratch of the sorts (`codes::sort_in_place`).
#[derive(Debug)]
pub(super) struct SortScratch {
    /// The longest run sorted through the buffers ([`SCATTER_MAX`]; less in tests).
    pub(super) scatter_max: usize,
    /// The next free place of each key.
    pub(super) next: Vec<usize>,
    /// The second buffer of the values.
    pub(super) buffer: Vec<u64>,
    /// The keys of the values, and their second buffer.
    pub(super) keys: Vec<u32>,
    pub(super) keys2: Vec<u32>,
}

impl Default for SortScratch {
    fn default() -> SortScratch {
        SortScratch { scatter_max: SCATTER_MAX, next: Vec::new(), buffer: Vec::new(), keys: Vec::new(), keys2: Vec::new() }
    }
}


/// The fewest blocks a part of `Matcher::count_in_place` stands for (a unit of fewer blocks
/// is one part).
pub const MIN_PART_BLOCKS: usize = 16;

/// How far `Matcher::count_in_place` has come: `done` parts of `total`, standing for `share`
/// of the matching's (block, mask) visits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parts {
    /// Parts matched so far.
    pub done: usize,
    /// Parts in all.
    pub total: usize,
    /// The share of the matching's (block, mask) visits done (0 to 1); each part is about
    /// 1/`total` of them (a block's visits are not split).
    pub share: f64,
    /// `None` for a report of the parts; when sampling ([`Matcher::sampling`]), `Some(w)` where
    /// the weight of the time from then on changes to `w`: the time a count of the whole unit
    /// spends in the work from there to the next change, over the time this one spends, in
    /// expectation (1 / ([`Sampling::windows`] · [`Sampling::codes`]) as a drawn window of tasks
    /// begins, 1 / [`Sampling::codes`] as it ends and while the codes are sorted, 1 once the
    /// matching is over), so that the caller can weigh the time of each part of the work by
    /// what it stands for.
    pub piece: Option<f64>,
}

/// A run of masks of one weight streamed against a block: `values[start..end]` of the side
/// that is not sliced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    /// Its first mask.
    pub(super) start: usize,
    /// Its end.
    pub(super) end: usize,
    /// The weight of its masks.
    pub(super) weight: u32,
}

/// The counting side of a join unit, rebuilt for each unit (buffers are reused: no allocation
/// once warm). Both sides are sorted into the buckets of the cut bits; each pair of compatible
/// buckets is matched with one of its two sides bit-sliced into blocks (see `pairs.rs`).
#[derive(Debug, Default)]
pub struct Matcher {
    /// The bits the blocks match on: the bits both sides use (outside it nothing clashes)
    /// minus the cut bits; squeezed out of every mask.
    pub(super) occupied: u64,
    /// Cut bits (the sieve): both sides go into 2^k buckets by these bits, and a bucket meets
    /// only the other side's buckets disjoint from it.
    pub(super) cut: u64,
    pub(super) chunks: usize,
    /// Mask bits per chunk: each chunk has 2^bits rows.
    pub(super) bits_per_chunk: u32,
    /// Rows per block: 2^bits_per_chunk per chunk, fewer for a last chunk of fewer bits.
    pub(super) block_rows: usize,
    /// Forces the mask bits per chunk (for tests and tuning; 1..=[`MAX_CHUNK`]).
    pub chunk_bits: Option<u32>,
    /// Stored masks from which the sieve is considered ([`SIEVE_FROM`](super::SIEVE_FROM) and at
    /// least `SIEVE_PAIRS` stored × query pairs unless set).
    pub sieve_from: Option<usize>,
    /// Forces the number of cut bits (for tests and tuning; at most [`MAX_CUTS`](super::MAX_CUTS),
    /// fewer when fewer bits separate pairs): `None` lets the matcher choose.
    pub cuts: Option<u32>,
    /// The most masks of one bucket whose blocks are held at once (their tables take about
    /// 30–160 B a mask); a larger bucket is sliced in pieces of this many, each matched
    /// against the same runs, which adds no matching work. `None`: no bound.
    pub max_stored: Option<usize>,
    /// The most codes sorted and matched at once (`None`: [`CODE_BATCH`](super::CODE_BATCH)).
    pub code_batch: Option<usize>,
    /// The visits a window of tasks holds at least when sampling (`None`: [`PIECE_VISITS`]).
    pub piece_visits: Option<u64>,
    /// Match only a random share of the batches of codes and windows of tasks ([`Sampling`];
    /// for a sample of a unit that cannot be counted whole); `None`: everything.
    pub sampling: Option<Sampling>,
    /// What the matcher did since the caller last reset it (for profiles).
    pub stats: MatchStats,
    /// The tables of the blocks being matched: `block_rows` rows a block.
    pub(super) tables: Vec<Bits512>,
    /// Start of each run of one query bucket and weight slot in the sorted codes
    /// (4 · 2^k + 1 entries: bucket b, slot s at 4b + s; see [`codes::slots`](super::codes::slots)).
    pub(super) query_starts: Vec<usize>,
    /// The weight of each slot of the sorted codes (see [`codes::slots`](super::codes::slots)).
    pub(super) run_weights: [u32; CLASSES],
    /// The slot of each class of code.
    pub(super) slot_of: [usize; CLASSES],
    /// Where each stored class's buckets start in the stored side (2^k + 1 entries a class, the
    /// last its end), once sorted.
    pub(super) class_starts: Vec<usize>,
    /// The weight of each stored class.
    pub(super) class_weights: Vec<u32>,
    /// Per bucket: the stored masks of weight other than 0 and their blocks, the codes of
    /// weight other than 0 and their blocks (scratch of `pairs.rs`).
    pub(super) sizes: Vec<[u64; 4]>,
    /// The runs streamed against the blocks being matched (scratch).
    pub(super) runs: Vec<Run>,
    /// The runs of the side being sliced (scratch).
    pub(super) segments: Vec<Run>,
    /// Each batch's `query_starts` (scratch).
    pub(super) batch_starts: Vec<Vec<usize>>,
    /// Each batch's work (scratch of `Matcher::count_pairs`).
    pub(super) batch_work: Vec<Work>,
    /// Each batch's tasks' visits when sampling (scratch: see `Matcher::work`).
    pub(super) task_visits: Vec<u64>,
    /// The words of the blocks being built (scratch of `fill`).
    pub(super) words: Vec<Run>,
    /// Each block's words grouped by weight: (words, weight), unused groups (0, 0).
    pub(super) block_groups: Vec<[(u8, u32); WEIGHTS]>,
    /// The scratch of the sorts (see `codes::sort_in_place`).
    pub(super) sorts: SortScratch,
    /// The greedy-order index of each squeezed set of cut bits (scratch of `index_buckets`).
    pub(super) greedy: Vec<u16>,
    /// Sampled pairs for the choice of cut bits (scratch).
    pub(super) sample: Vec<u64>,
    /// Greedy-order cut-bit index of every stored mask and of every code of the batch being
    /// sorted (see `choose_cut`; valid while the cut is non-zero).
    pub(super) stored_index: Vec<u16>,
    pub(super) query_index: Vec<u16>,
}

/// A random share of a count's matching ([`Matcher::sampling`]): the tasks (a pass, a batch and
/// the bucket it slices), in the order a count takes them, go in windows of consecutive tasks of
/// about [`PIECE_VISITS`] (block, mask) visits or one task, and each window is matched with
/// probability [`Sampling::windows`], drawn by a hash of (`seed`, its number); where the codes
/// come in several batches and the share is at most one over their number, only one batch,
/// drawn at random, is sorted and matched ([`Sampling::codes`]). So the count over `share` is
/// unbiased for the whole count, and the time of each part of the work, weighed through
/// [`Parts::piece`], for the time a count spends in it. The stored side is sorted whole, as in
/// a count. Windows of tasks rather than single blocks or tasks: a block drawn alone meets
/// its codes cold where a count's block finds them in cache from the blocks and tasks before,
/// and 0.4% of a unit of n = 28 drawn block by block stood for 2 to 3 times its time, tasks drawn
/// one by one 1.3 to 1.6 times (`join_share_bias`, results/2026-12-04-plan-spells/).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// The share of the unit's work counted, in (0, 1]: [`Sampling::codes`] times the
    /// probability each window of tasks is matched.
    pub share: f64,
    /// The seed of the draws.
    pub seed: u64,
    /// The probability each code is in the batches matched: one over the batches where one
    /// batch of several is drawn, else 1 (the matcher sets it as it draws the batch).
    pub codes: f64,
}

impl Sampling {
    /// Returns the probability each window of tasks is matched: `share` over `codes`, at
    /// most 1.
    pub fn windows(&self) -> f64 {
        (self.share / self.codes).min(1.0)
    }
}

/// The (block, mask) visits a window of tasks of a sampled count holds at least ([`Sampling`]):
/// 2^23, about 25 ms of matching at n = 28, so that the cache a task finds warm from the tasks
/// before it in a count is warm in a window too but for its first tasks, and a unit of n = 28
/// (10^10 to 10^11 visits) has thousands of windows to draw from. Windows of 2^21 visits stood
/// for 9% more than their time (a unit of 16.5 s, share 0.1, six seeds), of 2^23 and 2^25
/// within 2% (`join_share_bias`, results/2026-12-04-plan-spells/).
pub const PIECE_VISITS: u64 = 1 << 23;

/// What a [`Matcher`] did: a few counters per unit, bucket and block, none per query (so
/// they are always kept). Seconds are wall-clock; counts are exact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Units matched.
    pub builds: u64,
    /// Stored masks, summed over the units.
    pub stored: u64,
    /// Codes, summed over the units.
    pub queries: u64,
    /// Cut bits, summed over the units (divide by `builds` for the mean).
    pub cuts: u64,
    /// Blocks built, of either side.
    pub blocks: u64,
    /// Chunks per block, summed over the units.
    pub chunks: u64,
    /// Bits per chunk, summed over the units.
    pub chunk_bits: u64,
    /// The most bytes of bit-sliced tables held at once.
    pub table_bytes: u64,
    /// Seconds choosing the cut bits and sorting and squeezing both sides.
    pub sort_s: f64,
    /// Seconds filling the blocks' tables.
    pub build_s: f64,
    /// Seconds in the block loop.
    pub match_s: f64,
    /// (Block, streamed mask) pairs the block loop visited: each tests 512 lanes at once.
    pub block_codes: u128,
    /// (Stored mask, code) pairs found disjoint, unweighted.
    pub disjoint: u128,
    /// Pairs of compatible non-empty buckets matched.
    pub bucket_pairs: u64,
}

impl MatchStats {
    /// Adds `other`'s counts and seconds to these (the larger of the two table sizes).
    #[cfg(any(test, feature = "internals"))]
    pub fn add(&mut self, other: &MatchStats) {
        self.builds += other.builds;
        self.stored += other.stored;
        self.queries += other.queries;
        self.cuts += other.cuts;
        self.blocks += other.blocks;
        self.chunks += other.chunks;
        self.chunk_bits += other.chunk_bits;
        self.table_bytes = self.table_bytes.max(other.table_bytes);
        self.sort_s += other.sort_s;
        self.build_s += other.build_s;
        self.match_s += other.match_s;
        self.block_codes += other.block_codes;
        self.disjoint += other.disjoint;
        self.bucket_pairs += other.bucket_pairs;
    }
}

impl Matcher {
    /// Returns an empty matcher.
    #[cfg(any(test, feature = "internals"))]
    pub fn new() -> Matcher {
        Matcher::default()
    }

    /// Returns the bytes its large buffers hold (their capacity): the sorts' buffers, the
    /// buckets' indices, the blocks' tables and a sample's task visits.
    pub(crate) fn held_bytes(&self) -> usize {
        let o = &self.sorts;
        8 * (o.next.capacity() + o.buffer.capacity() + self.task_visits.capacity())
            + 4 * (o.keys.capacity() + o.keys2.capacity())
            + 2 * (self.stored_index.capacity() + self.query_index.capacity())
            + std::mem::size_of::<Bits512>() * self.tables.capacity()
    }

    /// Frees the buffers [`Matcher::held_bytes`] counts (the next count allocates them again).
    pub(crate) fn release(&mut self) {
        let o = &mut self.sorts;
        (o.next, o.buffer, o.keys, o.keys2) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        (self.stored_index, self.query_index, self.tables) = (Vec::new(), Vec::new(), Vec::new());
        self.task_visits = Vec::new();
    }

    /// Returns the number of cut bits the last count chose (2^k buckets a side).
    #[cfg(any(test, feature = "internals"))]
    pub fn cut_bits(&self) -> u32 {
        self.cut.count_ones()
    }

    /// Returns the chunk widths the matcher may choose from: [`Matcher::chunk_bits`] if set,
    /// else [`CHUNK`]..=[`MAX_CHUNK`].
    pub(super) fn widths(&self) -> std::ops::RangeInclusive<u32> {
        match self.chunk_bits {
            Some(c) => {
                let c = c.clamp(1, MAX_CHUNK);
                c..=c
            }
            None => CHUNK..=MAX_CHUNK,
        }
    }
}

/// The work of a batch's passes, from the buckets' sizes alone (`Matcher::work`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Work {
    /// (Block, mask) visits in all.
    pub(super) visits: u64,
    /// Blocks built in all.
    pub(super) blocks: u64,
    /// Pairs of non-empty buckets.
    pub(super) pairs: u64,
}

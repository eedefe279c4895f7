//! The matcher's types: [`Matcher`], the stored side with its tables and scratch buffers; its
//! sizes ([`BLOCK`], [`CHUNK`]..=[`MAX_CHUNK`], [`TAIL`]); the weight classes of a code
//! ([`CLASSES`]) and a raw tail's run ([`TailRun`]). The passes over a `Matcher` are its
//! siblings': `build.rs`, `sieve.rs`, `codes.rs`, `blocks.rs`, and the counting in `mod.rs`.

use crate::arch::Bits512;

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

/// `u64` words per block row.
pub(super) const WORDS: usize = BLOCK / 64;
/// Weight classes of a code.
pub(super) const CLASSES: usize = 4;

/// A bucket's short tail of one class: `tail[start..end]`, matched raw.
#[derive(Clone, Copy, Debug)]
pub(super) struct TailRun {
    /// The bucket of its masks.
    pub(super) bucket: u32,
    /// The weight of its class.
    pub(super) weight: u32,
    /// Its start in `tail`.
    pub(super) start: u32,
    /// Its end in `tail`.
    pub(super) end: u32,
}

/// A piece of the stored side, whose blocks are built and matched at once: runs of groups of
/// sibling buckets, each (class, first group, end group), `masks` masks in all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Piece {
    /// The runs of groups.
    pub(super) runs: Vec<(usize, usize, usize)>,
    /// Its masks.
    pub(super) masks: usize,
}

/// The stored side of a round, rebuilt for each unit (buffers are reused: no allocation
/// once warm). Stored masks come in classes of equal weight; each block holds one class.
#[derive(Debug, Default)]
pub struct Matcher {
    /// The bits the blocks match on: the OR of the stored masks (bits outside it never clash)
    /// minus the cut bits; squeezed out of every mask.
    pub(super) occupied: u64,
    /// Cut bits (the sieve): stored masks and queries go into 2^k buckets by these bits, and a
    /// block is only matched against query buckets disjoint from its own.
    pub(super) cut: u64,
    pub(super) chunks: usize,
    /// Mask bits per chunk ([`CHUNK`] unless [`Matcher::chunk_bits`] or the build chose
    /// otherwise): each chunk has 2^bits rows.
    pub(super) bits_per_chunk: u32,
    /// Rows per block: 2^bits_per_chunk per chunk, fewer for a last chunk of fewer bits.
    pub(super) block_rows: usize,
    /// Forces the mask bits per chunk (for tests and tuning; 1..=[`MAX_CHUNK`]).
    pub chunk_bits: Option<u32>,
    /// Weight of each block.
    pub(super) block_weights: Vec<u32>,
    /// Stored masks from which the sieve is considered ([`SIEVE_FROM`](super::SIEVE_FROM) and at least
    /// `SIEVE_PAIRS` stored × query pairs unless set).
    pub sieve_from: Option<usize>,
    /// Cut-bit bucket of each block: the AND of its words' buckets, so that every query that
    /// can meet one of its words meets the block.
    pub(super) block_buckets: Vec<u32>,
    /// The bucket of each 64-lane word of a block that holds several buckets' remainders
    /// (index into `word_buckets`), or `u32::MAX` for a block of one bucket.
    pub(super) block_words: Vec<u32>,
    /// Word buckets of the shared blocks, eight per block (`u32::MAX` for an unused word).
    pub(super) word_buckets: Vec<[u32; WORDS]>,
    /// Remainders being packed: (bucket, start, end) in `sorted` (scratch).
    pub(super) remainders: Vec<(u32, u32, u32)>,
    /// Start of each run of one query bucket and weight slot in the sorted codes
    /// (4 · 2^k + 1 entries: bucket b, slot s at 4b + s; see [`codes::slots`](super::codes::slots)).
    pub(super) query_starts: Vec<usize>,
    /// The weight of each slot of the sorted queries (see [`codes::slots`](super::codes::slots)).
    pub(super) run_weights: [u32; CLASSES],
    /// Where each stored class's buckets start in the stored side (2^k + 1 entries a class, the
    /// last its end), once sorted by [`Matcher::prepare_stored`].
    pub(super) class_starts: Vec<usize>,
    /// The weight of each stored class.
    pub(super) class_weights: Vec<u32>,
    /// `blocks × chunks × 2^bits_per_chunk` rows.
    pub(super) tables: Vec<Bits512>,
    /// Tail masks (squeezed like the blocks' masks), bucket by bucket.
    pub(super) tail: Vec<u64>,
    /// The runs of `tail`: one per class and bucket with a short tail.
    pub(super) tail_runs: Vec<TailRun>,
    /// The second buffer of the sorts of short sides (scratch, see `codes::sort_in_place`).
    pub(super) buffer: Vec<u64>,
    /// Bucket starts (scratch).
    pub(super) next: Vec<usize>,
    /// The greedy-order index of each squeezed set of cut bits (scratch of `index_buckets`).
    pub(super) greedy: Vec<u16>,
    /// Sampled pairs for the choice of cut bits (scratch).
    pub(super) sample: Vec<u64>,
    /// Greedy-order cut-bit index of every stored mask and of every query (see
    /// `choose_cut`; valid while the cut is non-zero).
    pub(super) stored_index: Vec<u16>,
    pub(super) query_index: Vec<u16>,
    /// Bucket sizes of the chosen cut, per stored class then of the queries (2^k each),
    /// if `sizes_valid`.
    pub(super) sizes: Vec<u32>,
    pub(super) sizes_valid: bool,
    /// Bucket histograms for the cost model (scratch).
    pub(super) hist: Vec<u32>,
    /// Queries per set of cut bits (scratch).
    pub(super) compat: Vec<u64>,
    /// Forces the number of cut bits (for tests and tuning; at most [`MAX_CUTS`](super::MAX_CUTS), fewer when
    /// fewer bits separate pairs): `None` lets the cost model choose.
    pub cuts: Option<u32>,
    /// The most stored masks whose blocks are held at once: [`Matcher::count_coded`] builds a
    /// larger stored side in pieces of whole groups of sibling buckets of about this many (one
    /// group may hold more), each matched against the codes of the buckets it may meet; the
    /// pieces add no matching work, only the block tables' memory is bounded (about 30–160 B a
    /// stored mask). `None`: all at once.
    pub max_stored: Option<usize>,
    /// What the matcher did since the caller last reset it (for profiles).
    pub stats: MatchStats,
}

/// What a [`Matcher`] did: a few counters per build, sort and part of the block loop, none per
/// query (so they are always kept). Seconds are wall-clock; counts are exact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Stored sets built (pieces × batches of codes).
    pub builds: u64,
    /// Masks stored, summed over the builds.
    pub stored: u64,
    /// Codes sorted for the block loop, summed over the builds.
    pub queries: u64,
    /// Cut bits, summed over the builds (divide by `builds` for the mean).
    pub cuts: u64,
    /// Blocks built, summed over the builds.
    pub blocks: u64,
    /// Chunks per block, summed over the builds.
    pub chunks: u64,
    /// Bits per chunk, summed over the builds.
    pub chunk_bits: u64,
    /// The most bytes of bit-sliced tables one build held.
    pub table_bytes: u64,
    /// Seconds building the stored side (cut choice, sort, tables).
    pub build_s: f64,
    /// Seconds sorting and squeezing the codes.
    pub sort_s: f64,
    /// Seconds in the block loop and the raw tails.
    pub match_s: f64,
    /// (Block, code) pairs the block loop visited: each tests 512 lanes at once.
    pub block_codes: u128,
    /// (Raw tail mask, code) pairs tested one by one.
    pub raw_pairs: u128,
    /// (Stored mask, code) pairs found disjoint, unweighted.
    pub disjoint: u128,
}

impl MatchStats {
    /// Adds `other`'s counts and seconds to these (the larger of the two table sizes).
    pub fn add(&mut self, other: &MatchStats) {
        self.builds += other.builds;
        self.stored += other.stored;
        self.queries += other.queries;
        self.cuts += other.cuts;
        self.blocks += other.blocks;
        self.chunks += other.chunks;
        self.chunk_bits += other.chunk_bits;
        self.table_bytes = self.table_bytes.max(other.table_bytes);
        self.build_s += other.build_s;
        self.sort_s += other.sort_s;
        self.match_s += other.match_s;
        self.block_codes += other.block_codes;
        self.raw_pairs += other.raw_pairs;
        self.disjoint += other.disjoint;
    }
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

    /// Returns the number of query buckets (2^k for k cut bits).
    #[inline(always)]
    pub(super) fn query_buckets(&self) -> usize {
        (self.query_starts.len() - 1) / CLASSES
    }

    /// Returns the chunk widths the cost model may choose from: [`Matcher::chunk_bits`] if
    /// set, else [`CHUNK`]..=[`MAX_CHUNK`].
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

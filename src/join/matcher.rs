//! The bit-sliced matcher: counts, for each query mask, the stored masks disjoint from it.
//!
//! Stored masks go in blocks of [`BLOCK`] = 512. Per block, each mask bit j gets a 512-bit
//! vector F_j of "stored masks that leave bit j free"; the bits are grouped into chunks of
//! [`CHUNK`] = 5, and for each chunk the AND of the F_j over all 32 subsets of its bits is
//! tabulated. A query ANDs one table row per chunk (chosen by its own bits in that chunk) and
//! counts the ones: about 7 ANDs of 512 bits and one popcount per 512 candidate pairs at
//! n = 18 (34 window bits, fewer after squeezing out the bits no stored mask uses). A short
//! tail (under [`TAIL`] masks) stays raw and is scanned with a scalar test; a longer tail is a
//! padded block. Memory: 32 rows of 64 B per chunk per block, about 28 B per stored mask.
//! Method: E. Kluev's N-Queens-Count-Sol (shared/design/join-algorithm.md §4).
//!
//! The inner loops are plain `[u64; 8]` loops; [`Level`] picks a copy compiled for AVX-512
//! (with VPOPCNTDQ), AVX2 or the baseline, detected at run time.

use super::bits::{low_mask, pext_soft};

/// Stored masks per block: one 512-bit row, 8 `u64` words (one AVX-512 register).
pub const BLOCK: usize = 512;
/// Mask bits per chunk: 32 table rows of 64 B per chunk (2 KiB), so a block's tables stay
/// in L1 for up to 7 chunks (14 KiB).
pub const CHUNK: u32 = 5;
/// Tails shorter than this are scanned raw; a padded block costs about as much as 40 scalar
/// tests per query.
pub const TAIL: usize = 40;

const WORDS: usize = BLOCK / 64;
const ROWS: usize = 1 << CHUNK;

/// One 512-bit row.
type Row = [u64; WORDS];

/// Which compiled copy of the inner loops to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Plain x86-64 (or another architecture): scalar popcount.
    Baseline,
    /// AVX2, POPCNT and BMI2 (`pext`).
    Avx2,
    /// AVX-512 F/BW/VL with VPOPCNTDQ, POPCNT and BMI2.
    Avx512,
}

impl Level {
    /// Returns the best level this CPU supports (checked at run time).
    pub fn detect() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            let avx2 = is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi2");
            if avx2
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512vpopcntdq")
            {
                return Level::Avx512;
            }
            if avx2 {
                return Level::Avx2;
            }
        }
        Level::Baseline
    }

    /// Returns the levels this CPU can run, best last (for tests and benches).
    pub fn available() -> Vec<Level> {
        let best = Level::detect();
        [Level::Baseline, Level::Avx2, Level::Avx512].into_iter().filter(|&l| l <= best).collect()
    }
}

impl PartialOrd for Level {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Level {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

/// A query: a mask and the weight its count is multiplied by.
pub type Query = (u64, u32);

/// The stored side of a round, rebuilt for each unit (buffers are reused: no allocation
/// once warm).
#[derive(Debug, Default)]
pub struct Matcher {
    /// OR of the stored masks: bits outside it never clash and are squeezed out.
    occupied: u64,
    chunks: usize,
    blocks: usize,
    /// `blocks × chunks × 32` rows.
    tables: Vec<Row>,
    /// Raw tail masks, squeezed.
    tail: Vec<u64>,
    squeezed: Vec<u64>,
    free: Vec<Row>,
    queries: Vec<Query>,
}

impl Matcher {
    /// Returns an empty matcher.
    pub fn new() -> Matcher {
        Matcher::default()
    }

    /// Stores `masks` (replacing what was stored) and returns the sum over `queries` of
    /// weight × (number of stored masks m with m & query == 0), exactly.
    pub fn count(&mut self, level: Level, masks: &[u64], queries: &[Query]) -> u64 {
        if masks.is_empty() || queries.is_empty() {
            return 0;
        }
        self.build(level, masks);
        self.queries.clear();
        let occupied = self.occupied;
        self.queries.extend(queries.iter().map(|&(q, w)| (squeeze(level, q, occupied), w)));
        let queries = std::mem::take(&mut self.queries);
        let total = match level {
            // SAFETY: `Level::detect` returned this level only after `is_x86_feature_detected!`
            // confirmed every feature the function enables.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { count_avx512(self, &queries) },
            // SAFETY: as above, for the AVX2 features.
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { count_avx2(self, &queries) },
            _ => count_generic(self, &queries),
        };
        self.queries = queries;
        total
    }

    fn build(&mut self, level: Level, masks: &[u64]) {
        let occupied = masks.iter().fold(0, |a, &m| a | m);
        self.occupied = occupied;
        let bits = occupied.count_ones();
        self.chunks = (bits.div_ceil(CHUNK) as usize).max(1);
        self.squeezed.clear();
        self.squeezed.extend(masks.iter().map(|&m| squeeze(level, m, occupied)));
        let len = masks.len();
        let rest = len % BLOCK;
        let (blocks, tail) = if rest < TAIL { (len / BLOCK, rest) } else { (len.div_ceil(BLOCK), 0) };
        self.blocks = blocks;
        self.tail.clear();
        self.tail.extend_from_slice(&self.squeezed[len - tail..]);
        let chunks = self.chunks;
        let width = chunks as u32 * CHUNK;
        self.tables.clear();
        self.tables.resize(blocks * chunks * ROWS, [0; WORDS]);
        self.free.resize(width as usize, [0; WORDS]);
        for b in 0..blocks {
            let stored = &self.squeezed[b * BLOCK..((b + 1) * BLOCK).min(len - tail)];
            // Transpose: free[j] has bit i set if and only if stored mask i leaves bit j free.
            let mut valid: Row = [0; WORDS];
            for f in self.free.iter_mut() {
                *f = [0; WORDS];
            }
            for (i, &m) in stored.iter().enumerate() {
                let (w, bit) = (i / 64, 1u64 << (i % 64));
                valid[w] |= bit;
                let mut free = !m & low_mask(width);
                while free != 0 {
                    let j = free.trailing_zeros() as usize;
                    self.free[j][w] |= bit;
                    free &= free - 1;
                }
            }
            let tables = &mut self.tables[b * chunks * ROWS..(b + 1) * chunks * ROWS];
            for k in 0..chunks {
                let t = &mut tables[k * ROWS..(k + 1) * ROWS];
                t[0] = valid;
                for s in 1..ROWS {
                    let prev = t[s & (s - 1)];
                    let f = &self.free[k * CHUNK as usize + s.trailing_zeros() as usize];
                    t[s] = std::array::from_fn(|w| prev[w] & f[w]);
                }
            }
        }
    }
}

/// Returns the bits of `x` at the set bits of `mask`, packed low (`pext`).
#[inline]
fn squeeze(level: Level, x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if level != Level::Baseline {
        // SAFETY: levels above the baseline are only detected with BMI2 present.
        return unsafe { pext_bmi2(x, mask) };
    }
    let _ = level;
    pext_soft(x, mask)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn pext_bmi2(x: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(x, mask)
}

#[inline(always)]
fn count_body(m: &Matcher, queries: &[Query]) -> u64 {
    let chunks = m.chunks;
    let mut total = 0u64;
    for b in 0..m.blocks {
        let tables = &m.tables[b * chunks * ROWS..(b + 1) * chunks * ROWS];
        for &(q, weight) in queries {
            let mut acc = tables[(q & (ROWS as u64 - 1)) as usize];
            for k in 1..chunks {
                let row = &tables[k * ROWS + ((q >> (k as u32 * CHUNK)) & (ROWS as u64 - 1)) as usize];
                for w in 0..WORDS {
                    acc[w] &= row[w];
                }
            }
            let ones: u64 = acc.iter().map(|w| w.count_ones() as u64).sum();
            total += ones * weight as u64;
        }
    }
    if !m.tail.is_empty() {
        for &(q, weight) in queries {
            let free = m.tail.iter().filter(|&&t| t & q == 0).count() as u64;
            total += free * weight as u64;
        }
    }
    total
}

fn count_generic(m: &Matcher, queries: &[Query]) -> u64 {
    count_body(m, queries)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi2")]
fn count_avx2(m: &Matcher, queries: &[Query]) -> u64 {
    count_body(m, queries)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,popcnt,bmi2")]
fn count_avx512(m: &Matcher, queries: &[Query]) -> u64 {
    count_body(m, queries)
}

/// Returns the same sum as [`Matcher::count`] by testing every pair (for tests).
pub fn naive_count(masks: &[u64], queries: &[Query]) -> u64 {
    queries.iter().map(|&(q, w)| masks.iter().filter(|&&m| m & q == 0).count() as u64 * w as u64).sum()
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
        for level in Level::available() {
            let mut m = Matcher::new();
            for bits in [6, 17, 34, 42] {
                for holes in [0u64, 0b1001_0000_0100, (1 << (bits / 2)) | 1] {
                    for len in [0, 1, TAIL - 1, TAIL, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + TAIL + 3] {
                        let masks: Vec<u64> = (0..len).map(|_| rng.mask(bits, holes)).collect();
                        let queries: Vec<Query> =
                            (0..50).map(|i| (rng.mask(bits, 0), 1 + (i % 4) as u32)).collect();
                        assert_eq!(
                            m.count(level, &masks, &queries),
                            naive_count(&masks, &queries),
                            "{level:?} bits = {bits} holes = {holes:b} len = {len}"
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
        assert_eq!(m.count(Level::detect(), &masks, &[(0b111, 3), (0, 1)]), 2800);
    }
}

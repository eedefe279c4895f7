//! The sieve: which mask bits cut both sides into buckets ([`Matcher::choose_cut`]). The cut
//! bits come in a greedy order from a sample of stored × query pairs ([`greedy_order`]); how
//! many of them is a function of the sides' sizes ([`cut_count`]); every mask's bucket comes
//! from one `pext` ([`index_all`]).

use super::types::{BLOCK, Matcher};
use crate::algo::join::bits::low_mask;
use crate::arch::scalar::Squeeze;
use crate::arch::{Level, Simd, multiversion};

impl Matcher {
    /// Returns the cut bits for the `stored` masks (whose OR is `all`) against the `codes`: a
    /// greedy order of up to [`MAX_CUTS`] bits ([`greedy_order`]), of which the first
    /// [`cut_count`] (or [`Matcher::cuts`], when forced); no cut bits for small sides (below
    /// [`SIEVE_FROM`] stored masks or `SIEVE_PAIRS` pairs, unless [`Matcher::sieve_from`] says
    /// otherwise). Leaves the bucket of every stored mask in `stored_index` when the cut is not
    /// empty (and what numbers the codes' buckets alike, see [`Matcher::index_codes`]).
    pub(super) fn choose_cut(&mut self, level: Level, stored: &[u64], codes: &[u64], all: u64) -> u64 {
        let small = match self.sieve_from {
            Some(from) => stored.len() < from,
            None => {
                stored.len() < SIEVE_FROM
                    || (stored.len() as u64).saturating_mul(codes.len() as u64) < SIEVE_PAIRS
            }
        };
        let max = self.cuts.unwrap_or(MAX_CUTS).min(MAX_CUTS).min(all.count_ones());
        if max == 0 || codes.is_empty() || (small && self.cuts.is_none()) {
            return 0;
        }
        let want = self.cuts.unwrap_or_else(|| cut_count(stored.len(), codes.len())).min(max);
        let pairs = self.sample_pairs(stored, codes, all, sample_size(want));
        let (order, chosen) = greedy_order(level, &self.sample, pairs, all, want as usize);
        let order = &order[..chosen];
        if chosen > 0 {
            self.index_buckets(level, stored, order);
        }
        order.iter().fold(0, |a, &b| a | b)
    }

    /// Fills `sample` with up to `size` pairs of the greedy order (stored mask i·stride_s with
    /// code i·stride_q, mod lengths: `mask & code & all`) and returns how many.
    fn sample_pairs(&mut self, stored: &[u64], codes: &[u64], all: u64, size: usize) -> usize {
        let pairs = size.min(stored.len().max(codes.len()));
        let sample = &mut self.sample;
        sample.clear();
        // Each stride is at most its side's length, so one subtraction keeps a place in range
        // (a division per pair was a third of a small unit's time, results/2026-12-04-frontier).
        let (step_s, step_q) = (stored.len().div_ceil(pairs).max(1), 7919 % codes.len().max(1) + 1);
        let (mut s, mut q) = (0, 0);
        for _ in 0..pairs {
            sample.push(stored[s] & codes[q] & all);
            s += step_s;
            if s >= stored.len() {
                s -= stored.len();
            }
            q += step_q;
            if q >= codes.len() {
                q -= codes.len();
            }
        }
        pairs
    }

    /// Writes the greedy-order index of every stored mask over the cut bits of `order` (index
    /// bit i: the mask has cut bit `order[i]`) to `stored_index`, the bucket numbers its sort
    /// takes; keeps the table that maps squeezed cut bits to them for the codes
    /// ([`Matcher::index_codes`]).
    fn index_buckets(&mut self, level: Level, stored: &[u64], order: &[u64]) {
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
        index_all(level, stored, full, &greedy, &mut self.stored_index);
        self.greedy = greedy;
    }

    /// Writes the bucket of every code of `codes` (one batch) to `query_index`, as
    /// [`Matcher::index_buckets`] numbered the stored masks'; nothing without a cut.
    pub(super) fn index_codes(&mut self, level: Level, codes: &[u64]) {
        self.query_index.clear();
        if self.cut != 0 {
            index_all(level, codes, self.cut, &self.greedy, &mut self.query_index);
        }
    }
}

/// Returns the number of cut bits for `stored` masks against `codes`: about log2 of their
/// geometric mean over 2^8, so that a mean bucket holds about 256 masks a side. Both sides are sliced where it pays (`pairs.rs`), so small
/// buckets cost no padding, and each bit more keeps about 3/4 of the pairs until the per-pair
/// overhead and the blocks' padding catch up: a model of real units of n = 24 and 26
/// (results/2026-12-04-frontier/) found the least work there (13–14 bits at n = 24, 16–18 at
/// n = 26).
pub(super) fn cut_count(stored: usize, codes: usize) -> u32 {
    let mean = ((stored as f64) * (codes as f64)).sqrt();
    let bits = (mean / (BLOCK as f64 / 2.0)).max(1.0).log2().round();
    (bits as u32).min(MAX_CUTS)
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
    // columns[j * words + w]: word w of bit j's column.
    let mut columns = vec![0u64; 64 * words];
    for (w, group) in sample.chunks(64).enumerate() {
        let mut m = [0u64; 64];
        m[..group.len()].copy_from_slice(group);
        transpose(level, &mut m);
        for j in 0..64 {
            columns[j * words + w] = m[j];
        }
    }
    let mut alive = vec![0u64; words];
    for (w, a) in alive.iter_mut().enumerate().take(words) {
        *a = low_mask((pairs - 64 * w).min(64) as u32);
    }
    let mut order = [0u64; MAX_CUTS as usize];
    let mut chosen = 0;
    let mut cut = 0u64;
    while chosen < max {
        let freq = |j: usize| -> u32 { (0..words).map(|w| (columns[j * words + w] & alive[w]).count_ones()).sum() };
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
            alive[w] &= !columns[j * words + w];
        }
    }
    (order, chosen)
}

/// Pairs sampled to order 16 cut bits: enough that the 16th bit is still chosen from some
/// hundreds of pairs not yet separated (each bit separates about a third of them).
const SAMPLE: usize = 1 << 16;

/// Returns the pairs sampled to order `bits` cut bits: [`SAMPLE`] × (3/2)^(bits − 16), at
/// least 2,048, so that the last bit is chosen from as many pairs not yet separated as at 16
/// bits, and a small unit (few cut bits) does not pay for a large sample.
fn sample_size(bits: u32) -> usize {
    let size = SAMPLE as f64 * 1.5f64.powi(bits.min(MAX_CUTS) as i32 - MAX_CUTS as i32);
    (size as usize).clamp(2048, SAMPLE)
}

/// The most cut bits the sieve uses (65,536 buckets a side; bucket indices are `u16`).
pub const MAX_CUTS: u32 = 16;
/// Stored masks from which the sieve is considered: below, one bucket a side.
pub const SIEVE_FROM: usize = 2 * BLOCK;
/// Stored × query pairs from which the sieve is considered: below, choosing the cut bits
/// (sampling and indexing, tens of µs) would cost more than it saves (odd n runs many rounds
/// of a few µs).
pub(super) const SIEVE_PAIRS: u64 = 1 << 24;

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


/// Transposes a 64×64 bit matrix in place (see `crate::arch::scalar::transpose64`), in the
/// copy of `level`.
#[cfg(any(test, feature = "internals"))]
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

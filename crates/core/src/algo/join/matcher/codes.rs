//! Query codes: a mask with its weight class in bits 62 and 63 ([`CLASS`]), and how the matcher
//! sorts them for the block loop: in place by sieve bucket and, within a bucket, by weight slot
//! ([`slots`]) in one counting sort ([`sort_in_place`], which the stored side's sort uses too),
//! then squeezed like the stored masks ([`squeeze_all`]).

use super::types::{CLASSES, Matcher, SortScratch, WORDS};
use crate::arch::scalar::Squeeze;
use crate::arch::{Lanes, Level, Simd, multiversion};

impl Matcher {
    /// Sets `run_weights` to the slots of `weights` (see [`slots`]) and `query_starts` to where
    /// the runs of each bucket and slot of the batch `codes` will start once sorted (codes of
    /// weight 0 in a last slot of weight 0, which no loop counts): a histogram of their keys,
    /// except with one bucket, whose starts [`Matcher::sort_codes`] writes from its partition.
    /// Indexes the batch first ([`Matcher::index_codes`]).
    pub(super) fn code_starts(&mut self, level: Level, codes: &[u64], weights: [u32; 4]) {
        self.index_codes(level, codes);
        let (sets, run_weights) = slots(weights);
        self.run_weights = run_weights;
        // The slot of each class: classes of weight 0 belong to none and go to slot 3, which has
        // weight 0 whenever some class has weight 0 (at most three weights are then left).
        let mut slot_of = [CLASSES - 1; CLASSES];
        for (slot, &set) in sets.iter().enumerate() {
            for (class, s) in slot_of.iter_mut().enumerate() {
                if set >> class & 1 == 1 {
                    *s = slot;
                }
            }
        }
        self.slot_of = slot_of;
        let buckets = 1usize << self.cut.count_ones();
        let key = code_key(buckets, slot_of);
        let mut starts = std::mem::take(&mut self.query_starts);
        starts.clear();
        starts.resize(CLASSES * buckets + 1, 0);
        // One bucket: its runs' starts come from the partition that sorts it (`sort_codes`).
        if self.cut != 0 {
            for (&b, &code) in self.query_index.iter().zip(codes) {
                starts[key(b, code) + 1] += 1;
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        self.query_starts = starts;
    }

    /// Sorts the batch `codes` (after [`Matcher::code_starts`]) by bucket and slot, and squeezes
    /// them like the stored masks (their class bits cleared); with one bucket, writes the
    /// slots' starts to `query_starts` too.
    pub(super) fn sort_codes(&mut self, level: Level, codes: &mut [u64]) {
        if self.cut == 0 {
            // One bucket: a partition by slot, SIMD compress-stores a slot at a time (a scatter
            // into four places bumped in memory took 1.4 ns a code; this about a third).
            let mut sets = [0u8; CLASSES];
            for (class, &slot) in self.slot_of.iter().enumerate() {
                sets[slot] |= 1 << class;
            }
            let buffer = &mut self.sorts.buffer;
            buffer.resize(codes.len() + WORDS, 0);
            let ends = partition_classes(level, codes, buffer, sets);
            debug_assert_eq!(ends[CLASSES - 1], codes.len());
            self.query_starts[1..=CLASSES].copy_from_slice(&ends);
            codes.copy_from_slice(&buffer[..codes.len()]);
            squeeze_all(level, codes, self.occupied, 0);
            return;
        }
        let key = code_key(1 << self.cut.count_ones(), self.slot_of);
        let mut index = std::mem::take(&mut self.query_index);
        sort_in_place(codes, &mut index, &self.query_starts, &mut self.sorts, key);
        squeeze_all(level, codes, self.occupied, 0);
        self.query_index = index;
    }
}

/// Returns the sort key of a code of bucket index `b` (its low bits) among `buckets`: its bucket
/// and, within it, its class's slot (`slot_of`).
fn code_key(buckets: usize, slot_of: [usize; CLASSES]) -> impl Fn(u16, u64) -> usize + Copy {
    let low = (buckets - 1) as u16;
    move |b: u16, code: u64| ((b & low) as usize) * CLASSES + slot_of[(code >> 62) as usize]
}

/// Sorts `values` by `key(index[i], values[i])` (`index[i]` is 0 when `index` is empty), given
/// where each key's run starts (`starts`: keys + 1 entries, the last the length; keys below
/// 2^18). Up to [`SCATTER_MAX`] values through a second buffer (`index` is then left as it
/// was): one scatter of a counting sort for up to 2^[`FLAG_BITS`] keys, else two (by the low
/// half of the key's bits, then by the high half: a scatter into many more places at once
/// missed the caches at every store). Beyond, in place, with `index` permuted along: an
/// American flag sort by the key's high bits (each value displaced from a run carried to the
/// next free place of its own key's run until the value that belongs at the start is found),
/// then each run of those by the rest, so no buffer of the whole is needed (a side of n = 28
/// holds 10^8 masks). Linear time.
pub(super) fn sort_in_place(
    values: &mut [u64],
    index: &mut [u16],
    starts: &[usize],
    scratch: &mut SortScratch,
    key: impl Fn(u16, u64) -> usize + Copy,
) {
    let keys = starts.len() - 1;
    debug_assert_eq!(starts[keys], values.len());
    if values.len() <= scratch.scatter_max {
        sort_buffered(values, index, starts, scratch, key);
        return;
    }
    let bits = usize::BITS - (keys.max(2) - 1).leading_zeros();
    let shift = bits.saturating_sub(FLAG_BITS);
    if shift == 0 {
        flag_pass(values, index, starts, &mut scratch.next, key);
        return;
    }
    // First by the high bits of the key (the runs of one value of them are runs of keys),
    // then each such run by the rest.
    let groups = ((keys - 1) >> shift) + 1;
    let group_starts: Vec<usize> = (0..=groups).map(|g| starts[(g << shift).min(keys)]).collect();
    flag_pass(values, index, &group_starts, &mut scratch.next, move |b, v| key(b, v) >> shift);
    let indexed = !index.is_empty();
    let mut sub = Vec::with_capacity((1 << shift) + 1);
    for g in 0..groups {
        let (lo, hi) = (g << shift, ((g + 1) << shift).min(keys));
        let (from, to) = (starts[lo], starts[hi]);
        sub.clear();
        sub.extend(starts[lo..=hi].iter().map(|s| s - from));
        let index = if indexed { &mut index[from..to] } else { &mut [][..] };
        let key = move |b, v| key(b, v) - lo;
        // At most 2^FLAG_BITS keys a run (keys below 2^18).
        if to - from <= scratch.scatter_max {
            sort_buffered(&mut values[from..to], index, &sub, scratch, key);
        } else {
            flag_pass(&mut values[from..to], index, &sub, &mut scratch.next, key);
        }
    }
}

/// [`sort_in_place`] through a second buffer: one scatter for up to 2^[`FLAG_BITS`] keys, else
/// a least-significant-digit radix sort in two scatters over the keys computed once.
fn sort_buffered(
    values: &mut [u64],
    index: &[u16],
    starts: &[usize],
    scratch: &mut SortScratch,
    key: impl Fn(u16, u64) -> usize,
) {
    let keys = starts.len() - 1;
    let bits = usize::BITS - (keys.max(2) - 1).leading_zeros();
    let SortScratch { next, buffer, keys: k1, keys2: k2, .. } = scratch;
    buffer.resize(values.len(), 0);
    if bits <= FLAG_BITS {
        next.clear();
        next.extend_from_slice(&starts[..keys]);
        scatter(values, index, next, buffer, key);
        values.copy_from_slice(buffer);
        return;
    }
    let low = bits / 2;
    let low_mask = (1u32 << low) - 1;
    k1.clear();
    if index.is_empty() {
        k1.extend(values.iter().map(|&v| key(0, v) as u32));
    } else {
        k1.extend(index.iter().zip(values.iter()).map(|(&b, &v)| key(b, v) as u32));
    }
    k2.resize(values.len(), 0);
    // By the low digit into the buffers (stable)...
    next.clear();
    next.resize(1 << low, 0);
    for &k in k1.iter() {
        next[(k & low_mask) as usize] += 1;
    }
    let mut sum = 0;
    for n in next.iter_mut() {
        (*n, sum) = (sum, sum + *n);
    }
    for (&k, &v) in k1.iter().zip(values.iter()) {
        let at = &mut next[(k & low_mask) as usize];
        buffer[*at] = v;
        k2[*at] = k;
        *at += 1;
    }
    // ...then by the high digit back (stable): sorted by the whole key.
    next.clear();
    next.extend((0..=((keys - 1) >> low)).map(|h| starts[h << low]));
    for (&k, &v) in k2.iter().zip(buffer.iter()) {
        let at = &mut next[(k >> low) as usize];
        values[*at] = v;
        *at += 1;
    }
}

/// The most key bits one pass of a sort takes (512 keys).
const FLAG_BITS: u32 = 9;

/// One pass of the in-place sort of [`sort_in_place`]: `key` below `starts.len() − 1`.
fn flag_pass(
    values: &mut [u64],
    index: &mut [u16],
    starts: &[usize],
    next: &mut Vec<usize>,
    key: impl Fn(u16, u64) -> usize,
) {
    let keys = starts.len() - 1;
    let indexed = !index.is_empty();
    next.clear();
    next.extend_from_slice(&starts[..keys]);
    for k in 0..keys {
        let end = starts[k + 1];
        while next[k] < end {
            let i = next[k];
            let mut v = values[i];
            let mut b = if indexed { index[i] } else { 0 };
            let mut t = key(b, v);
            while t != k {
                let j = next[t];
                next[t] = j + 1;
                std::mem::swap(&mut v, &mut values[j]);
                if indexed {
                    std::mem::swap(&mut b, &mut index[j]);
                }
                t = key(b, v);
            }
            values[i] = v;
            if indexed {
                index[i] = b;
            }
            next[k] = i + 1;
        }
    }
}

/// The scatter of a stable counting sort: writes each `values[i]` to `out[next[k]]` and
/// advances `next[k]`, for k = `key(index[i], values[i])` (`index[i]` 0 when `index` is empty).
/// (A function of its own, so the compiler knows `next` and `out` do not alias and keeps their
/// pointers in registers.)
#[inline(never)]
fn scatter(values: &[u64], index: &[u16], next: &mut [usize], out: &mut [u64], key: impl Fn(u16, u64) -> usize) {
    if index.is_empty() {
        for &v in values {
            let k = key(0, v);
            out[next[k]] = v;
            next[k] += 1;
        }
    } else {
        for (&b, &v) in index.iter().zip(values) {
            let k = key(b, v);
            out[next[k]] = v;
            next[k] += 1;
        }
    }
}

/// Bits 62 and 63 of a code: its weight class.
#[cfg(test)]
pub(super) const CLASS: u64 = 3 << 62;

/// Returns the slots of a weight table: `sets[s]` holds the classes (bit c: class c) whose
/// codes go to slot s and `weights[s]` their weight. Classes of one weight share a slot;
/// classes of weight 0 belong to no slot, and slot 3 is then empty with weight 0 (the
/// partition leaves stale entries there, which no loop counts). One weight for every class
/// gives the single set `0b1111`.
pub(super) fn slots(weights: [u32; CLASSES]) -> ([u8; CLASSES], [u32; CLASSES]) {
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
    /// Writes the codes of each slot's classes (`sets`: bit c of `sets[s]` for class c in slot
    /// s) to `out`, slot after slot, and returns the end of each slot in `out`; codes of no slot
    /// are dropped. `out` holds [`WORDS`] more entries than `codes` (scratch for whole-register
    /// stores).
    fn partition_classes(codes: &[u64], out: &mut [u64], sets: [u8; CLASSES]) -> [usize; CLASSES]
        => partition_body;
}

/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled.
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
                    let member = S::Lanes::splat(u64::from(set)).shrv(class).and(S::Lanes::splat(1));
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
pub(super) fn squeeze_all(level: Level, xs: &mut [u64], mask: u64, keep: u64) {
    if level.fast_pext() {
        squeeze_with::<true>(level, xs, mask, keep)
    } else {
        squeeze_with::<false>(level, xs, mask, keep)
    }
}

multiversion! {
    /// [`squeeze_all`], with `pext` if `PEXT` (and the level has it), else [`Squeeze`].
    pub(super) fn squeeze_with[const PEXT: bool](xs: &mut [u64], mask: u64, keep: u64) => squeeze_body[PEXT];
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

//! Query codes: a mask with its weight class in bits 62 and 63 ([`CLASS`]), and how the matcher
//! sorts them for the block loop: by sieve bucket (a stable counting sort, [`scatter`]) and,
//! within a bucket, into weight slots ([`slots`], [`partition_classes`]), then squeezed like
//! the stored masks ([`squeeze_all`]).

use super::types::{CLASSES, Matcher, WORDS};
use crate::arch::scalar::Squeeze;
use crate::arch::{Lanes, Level, Simd, multiversion};

impl Matcher {
    /// Sorts `codes` into `prepared` for the block loop, against the masks stored by the last
    /// [`Matcher::build`]: by cut-bit bucket and, within a bucket, into the weight slots of
    /// `weights` (codes of weight 0 dropped), squeezed like the stored masks; sets
    /// `query_starts` and `run_weights` to the runs.
    pub(super) fn sort_codes(
        &mut self,
        level: Level,
        codes: &[u64],
        weights: [u32; 4],
        prepared: &mut Vec<u64>,
    ) {
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
            let low = (buckets - 1) as u16;
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
        let low = (buckets - 1) as u16;
        if uniform {
            // One slot: the bucket sort writes the runs themselves.
            if cut == 0 {
                prepared[..codes.len()].copy_from_slice(codes);
            } else {
                scatter(&self.query_index, low, codes, &mut self.next, prepared);
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
        squeeze_all(level, prepared, occupied, CLASS);
        self.query_starts = starts;
    }
}

/// The scatter of a stable counting sort: for each `src[i]`, with bucket b = `index[i] & low`,
/// writes it to `out[next[b]]` and advances `next[b]`. (A function of its own, so the
/// compiler knows `next` and `out` do not alias and keeps their pointers in registers.)
#[inline(never)]
pub(super) fn scatter(index: &[u16], low: u16, src: &[u64], next: &mut [usize], out: &mut [u64]) {
    for (&b, &x) in index.iter().zip(src) {
        let b = (b & low) as usize;
        let at = next[b];
        out[at] = x;
        next[b] = at + 1;
    }
}

/// Bits 62 and 63 of a code: its weight class.
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
    /// Writes the codes of each slot's classes (`sets`, see [`slots`]) to `out`, slot after
    /// slot, and returns the end of each slot in `out`; codes of no slot are dropped. `out`
    /// holds [`WORDS`] more entries than `codes` (scratch for whole-register stores).
    pub(super) fn partition_classes(codes: &[u64], out: &mut [u64], sets: [u8; CLASSES]) -> [usize; CLASSES]
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

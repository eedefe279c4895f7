use super::codes::{CLASS, sort_in_place, squeeze_all, squeeze_with};
use super::types::SortScratch;
use super::sieve::cut_count;
use super::*;
use crate::algo::join::bits::low_mask;

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
                for len in [0, 1, 11, 64, 65, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 15, SIEVE_FROM + 777] {
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
                    // Up to 10 bits every forced cut bit separates sampled pairs; past that the
                    // sample of the sparse 20-bit masks may run out of pairs to separate.
                    let got = m.cut_bits();
                    assert!(got == k || (k > 10 && got >= 10 && got < k), "{bits} bits: {got} of {k} cut bits");
                }
            }
            m.cuts = None;
        }
    }
}

/// Matching in parts (and in pieces of huge buckets) adds up to the one-part count at every
/// level, with and without the sieve; the callback sees every part once, in order, with shares
/// rising to 1, and a break stops the count at once.
#[test]
fn parts_and_pieces_count_like_one_pass() {
    let mut rng = Rng(7);
    let mut m = Matcher::new();
    // 40 blocks and a remainder; two classes.
    let masks: Vec<u64> = (0..40 * BLOCK + 300).map(|_| rng.mask(36, 0b1000)).collect();
    let codes: Vec<u64> = (0..20_000).map(|i| rng.mask(36, 0) | (i % 3) << 62).collect();
    let classes: [(&[u64], u32); 2] = [(&masks[..30 * BLOCK], 1), (&masks[30 * BLOCK..], 3)];
    let lens = [(30 * BLOCK, 1), (10 * BLOCK + 300, 3)];
    let weights = [1, 2, 5, 0];
    let want = naive_count(&classes, &decode(&codes, weights));
    for level in Level::available() {
        for (cuts, pieces, batch) in [
            (Some(0), None, None),
            (None, None, Some(7777)),
            (Some(4), Some(3 * BLOCK + 17), Some(3 * BLOCK + 17)),
            (None, Some(1), None),
        ] {
            (m.cuts, m.max_stored, m.code_batch) = (cuts, pieces, batch);
            assert_eq!(m.count_coded(level, &classes, &codes, weights), want, "{level:?} {cuts:?} {pieces:?}");
            for max_parts in [1, 2, 64] {
                let mut seen = Vec::new();
                let (mut stored, mut queries) = (masks.clone(), codes.clone());
                let sides = Sides { stored: &mut stored, classes: &lens, codes: &mut queries, weights };
                let got = m.count_in_place(level, sides, max_parts, &mut |p| {
                    seen.push(p);
                    ControlFlow::Continue(())
                });
                assert_eq!(got, Some(want), "{level:?} {cuts:?} {pieces:?} {max_parts}");
                let total = seen[0].total;
                assert!(total >= 1 && total <= max_parts, "{seen:?}");
                if max_parts == 2 {
                    assert_eq!(total, 2, "40 blocks and more make two parts of 16: {seen:?}");
                }
                // Once with 0 when both sides are sorted, then 1..=total.
                let done: Vec<usize> = seen.iter().map(|p| p.done).collect();
                assert_eq!(done, (0..=total).collect::<Vec<_>>(), "{level:?} {max_parts}");
                // The shares rise from 0 to 1, each part near its 1/total.
                assert!(seen.windows(2).all(|w| w[0].share <= w[1].share), "{seen:?}");
                assert!(seen[0].share == 0.0 && (seen[total].share - 1.0).abs() < 1e-9, "{seen:?}");
                for p in &seen[1..total] {
                    assert!(p.share >= p.done as f64 / total as f64, "{seen:?}");
                }
            }
            // A break after the first part stops the count.
            let mut last = Parts { done: 0, total: 0, share: 0.0, piece: None };
            let (mut stored, mut queries) = (masks.clone(), codes.clone());
            let sides = Sides { stored: &mut stored, classes: &lens, codes: &mut queries, weights };
            let stopped = m.count_in_place(level, sides, 64, &mut |p| {
                last = p;
                if p.done == 1 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            assert_eq!((stopped, last.done), (None, 1));
        }
    }
}

/// The (mask, weight) queries of `codes` under the weight table `weights` (weight 0 dropped).
fn decode(codes: &[u64], weights: [u32; 4]) -> Vec<Query> {
    codes.iter().map(|&c| (c & !CLASS, weights[(c >> 62) as usize])).filter(|q| q.1 != 0).collect()
}

/// The sort puts every value in its key's run and keeps the multiset, for keys from the index
/// (here a function of the value, since the index is not kept in order) and from the value,
/// with empty runs and one run; through the buffer in one scatter and in two, and in place past
/// SCATTER_MAX; the buffered sorts are stable.
#[test]
fn the_sort_sorts_by_key() {
    let mut rng = Rng(2024);
    // In place past 3,000 values (SCATTER_MAX in a count), and through the buffers for the
    // runs of the high bits' keys up to that.
    let mut scratch = SortScratch { scatter_max: 3000, ..SortScratch::default() };
    let big = scratch.scatter_max;
    for (len, keys) in [
        (0, 1),
        (1, 1),
        (100, 1),
        (1000, 7),
        (5000, 64),
        (300, 1024),
        (5000, 1 << 16),
        (big + 3, 1000),
        (big + 9, 300),
        (big + 1, 1 << 16),
        (200_000, 1 << 16),
        (200_000, 1 << 18),
    ] {
        let values: Vec<u64> = (0..len).map(|_| rng.next()).collect();
        let bucket = |v: u64| (v.rotate_left(17) % keys as u64) as u16;
        let index: Vec<u16> = values.iter().map(|&v| bucket(v)).collect();
        for by_index in [true, false] {
            let key = move |b: u16, v: u64| if by_index { b as usize } else { (v % keys as u64) as usize };
            let of = |v: u64| key(bucket(v), v);
            let mut starts = vec![0usize; keys + 1];
            for &v in &values {
                starts[of(v) + 1] += 1;
            }
            for k in 1..=keys {
                starts[k] += starts[k - 1];
            }
            let (mut v, mut x) = (values.clone(), if by_index { index.clone() } else { Vec::new() });
            sort_in_place(&mut v, &mut x, &starts, &mut scratch, key);
            for k in 0..keys {
                for &x in &v[starts[k]..starts[k + 1]] {
                    assert_eq!(of(x), k, "{len} {keys} {by_index}");
                }
            }
            let mut want = values.clone();
            if len <= big {
                want.sort_by_key(|&v| of(v));
                assert_eq!(v, want, "{len} {keys} {by_index}: stable");
            } else {
                want.sort_unstable();
                v.sort_unstable();
                assert_eq!(v, want, "{len} {keys} {by_index}");
            }
        }
    }
}

/// Bucket sizes at the edges: empty buckets, single masks, a word and one, a whole block, a
/// block and one: every forced number of cut bits against the naive count.
#[test]
fn sieve_buckets_of_edge_sizes_count_like_the_naive_test() {
    let mut rng = Rng(4242);
    let bits = 30;
    let mut m = Matcher::new();
    for level in Level::available() {
        for sizes in
            [[0, 1, 11, 65], [BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 12], [1, 0, 0, 3 * BLOCK]]
        {
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
fn the_sieve_cuts_large_sides_and_not_small_ones() {
    let mut rng = Rng(5);
    let mut m = Matcher::new();
    let level = Level::best();
    // Window-like masks at n = 22: 40 bits, dense.
    let masks: Vec<u64> = (0..40_000).map(|_| rng.next() & low_mask(40)).collect();
    let queries: Vec<u64> = (0..40_000).map(|_| rng.next() & low_mask(40)).collect();
    m.prepare(level, &mut masks.clone(), &[(masks.len(), 1)], &queries);
    assert_eq!(m.cut_bits(), cut_count(40_000, 40_000), "40,000 × 40,000 pairs");
    assert!(m.cut_bits() >= 6, "{} cut bits for 40,000 × 40,000 pairs", m.cut_bits());
    m.prepare(level, &mut masks[..100].to_vec(), &[(100, 1)], &queries[..100]);
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
        crate::arch::scalar::transpose64(&mut want);
        for level in Level::available() {
            let mut t = a;
            transpose64(level, &mut t);
            assert_eq!(t, want, "{level}");
        }
    }
}

#[test]
fn every_level_squeezes_like_the_portable_copy() {
    let mut rng = Rng(4321);
    for len in [0, 1, 3, 4, 5, 8, 9, 17, 100] {
        let codes: Vec<u64> = (0..len).map(|_| rng.next()).collect();
        let mask = rng.next() & rng.next() & !CLASS;
        let mut want = codes.clone();
        for x in &mut want {
            *x = crate::arch::scalar::pext(*x, mask) | (*x & CLASS);
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

/// Codes go in the fewest batches of at most the most a batch allows, all of one size but the
/// last, which is at most B − 1 codes shorter: a sampled count weighs the batch it draws B
/// times, so no batch may be a sliver of the others.
#[test]
fn code_batches_are_the_fewest_and_of_one_size() {
    for most in [1usize, 2, 3, 7, 1000, 1 << 24] {
        for len in [1usize, 2, 5, 999, 1000, 1001, 2001, 16_777_217, 117_838_270, 288_764_354] {
            let (batches, batch) = super::pairs::batching(len, most);
            assert!(batch <= most && batch >= 1, "{len} codes, at most {most}: {batch}");
            assert_eq!(batches, len.div_ceil(most), "{len} codes, at most {most}");
            assert_eq!(batches, len.div_ceil(batch), "{len} codes, at most {most}");
            let last = len - (batches - 1) * batch;
            assert!(last >= 1 && last + (batches - 1) >= batch, "{len} codes, at most {most}: last {last} of {batch}");
        }
    }
}

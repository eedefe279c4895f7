//! Bit helpers for the join counter: k-subsets in colex order, bit reversal over a width, and
//! `pdep` as a portable loop (`pext` is `crate::arch::scalar::pext`).

/// Returns the mask of the low `bits` bits (`bits` ≤ 64).
#[inline]
pub fn low_mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// Returns `x` with bit i moved to bit `width − 1 − i`, for the low `width` bits (1 ≤ `width`
/// ≤ 64); higher bits of `x` are ignored.
#[inline]
pub fn reverse(x: u64, width: u32) -> u64 {
    (x & low_mask(width)).reverse_bits() >> (64 - width)
}

/// Returns every `k`-subset of the low `m` bits as a mask, in colex order (the order of the
/// masks as integers), by Gosper's successor (add the lowest set bit, refill the low block).
/// C(m, k) masks; none when k > m.
pub fn colex(m: u32, k: u32) -> impl Iterator<Item = u64> {
    let first = if k > m { None } else { Some(low_mask(k)) };
    let limit = low_mask(m);
    std::iter::successors(first, move |&x| {
        if x == 0 {
            return None;
        }
        let low = x & x.wrapping_neg();
        let ripple = x + low;
        let next = (((ripple ^ x) >> 2) / low) | ripple;
        (next <= limit && ripple != 0).then_some(next)
    })
}

/// Returns the `rank`-th (from 0) `k`-subset of `m` bits in the order of [`colex`] (increasing
/// as integers): the largest c with C(c, i) ≤ rank is the i-th bit, for i = k down to 1 (the
/// combinatorial number system), so a list of subsets need not be stored.
///
/// # Panics
/// If `rank` is not below C(`m`, `k`) or `m` > 63.
pub fn unrank_colex(m: u32, k: u32, mut rank: u64) -> u64 {
    assert!(m <= 63 && rank < binomial(m, k), "subset {rank} of C({m}, {k})");
    let mut x = 0;
    let mut c = m;
    for i in (1..=k).rev() {
        c -= 1;
        while binomial(c, i) > rank {
            c -= 1;
        }
        x |= 1 << c;
        rank -= binomial(c, i);
    }
    x
}

/// Returns C(`n`, `k`) (0 if k > n), exact for n ≤ 63 (a table: the unranking of units looks
/// them up a few dozen times a unit).
///
/// # Panics
/// If `n` > 63.
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n { 0 } else { PASCAL[n as usize][k as usize] }
}

/// Pascal's triangle to row 63: C(63, 31) < 2^63.
static PASCAL: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Returns a 64-bit hash of (`seed`, `i`): splitmix64's finalizer over `seed` ^ `i` · 2^64/φ,
/// so that nearby seeds give unrelated values. Source: S. Vigna, splitmix64.c (public domain).
pub fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Returns a number in [0, 1) drawn by a hash of (`seed`, `i`) (the top 53 bits of
/// [`mix`]): independent draws for a sample's pieces of work, the same for the same pair.
pub fn uniform(seed: u64, i: u64) -> f64 {
    (mix(seed, i) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Places the low bits of `x` at the set bits of `mask`, in order (the BMI2 `pdep`
/// instruction), by a loop.
#[inline]
pub fn pdep_soft(mut x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask ^= low;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unranking_gives_the_colex_order() {
        for (m, k) in [(0, 0), (5, 0), (5, 5), (10, 4), (13, 6), (20, 3)] {
            for (rank, x) in colex(m, k).enumerate() {
                assert_eq!(unrank_colex(m, k, rank as u64), x, "C({m}, {k}) rank {rank}");
            }
            assert_eq!(colex(m, k).count() as u64, binomial(m, k), "C({m}, {k})");
        }
        // The largest ranks of the boards the join counts: 28 free rows, 14 east.
        let last = binomial(28, 14) - 1;
        assert_eq!(unrank_colex(28, 14, last), low_mask(28) & !low_mask(14));
    }

    #[test]
    fn colex_lists_every_subset_once_in_increasing_order() {
        for m in 0..=12 {
            for k in 0..=m + 1 {
                let all: Vec<u64> = colex(m, k).collect();
                let want = binomial(m, k);
                assert_eq!(all.len() as u64, want, "m = {m} k = {k}");
                assert!(all.windows(2).all(|w| w[0] < w[1]));
                assert!(all.iter().all(|&x| x.count_ones() == k && x <= low_mask(m)));
            }
        }
    }

    #[test]
    fn reverse_and_pext_agree_with_definitions() {
        assert_eq!(reverse(0b0011, 5), 0b11000);
        assert_eq!(reverse(1, 1), 1);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mask = x.rotate_left(17) & x.rotate_left(5);
            let packed = crate::arch::scalar::pext(x, mask);
            assert_eq!(packed.count_ones(), (x & mask).count_ones());
            assert_eq!(pdep_soft(packed, mask), x & mask);
            for w in [1, 7, 33, 64] {
                assert_eq!(reverse(reverse(x, w), w), x & low_mask(w));
            }
        }
    }
}

//! The portable level: plain Rust on `u64` words, for any processor (what aarch64 ran before its
//! NEON copy, and what an x86-64 processor without AVX2 runs). The scalar helpers every level
//! shares (`pext` as a loop, `Squeeze`, the portable transpose) are in `scalar.rs`.
//!
//! Its `Tally` counts ones without a population-count instruction (the x86-64 baseline has
//! none, and `count_ones` there is a dozen operations per word): rows are added into bit-sliced
//! counters with carry-save adders (Harley and Seal, as in W. Muła, N. Kurz and D. Lemire,
//! "Faster population counts using AVX2 instructions", 2018, §2), so a word's ones are counted
//! once per 16 rows instead of once per row.

use super::{Bits512, Isa, Lanes, Row, Simd, Tally};

/// The portable level's `Simd` implementation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

// SAFETY: every method below is plain Rust, valid on any processor.
unsafe impl Simd for Portable {
    const ISA: Isa = Isa::Portable;
    const PEXT: bool = false;
    type Lanes = Lane;
    type Row = Words8;
    type Tally = CarrySave;
}

/// `W` `u64` lanes as plain words.
#[derive(Clone, Copy, Debug)]
pub struct Words<const W: usize>([u64; W]);

/// The portable lanes: one. The list transforms and the pair loop of the join are then plain
/// branch-free scalar loops, which ran fewer instructions than four lanes of plain words (n = 16
/// at the portable level, callgrind: 0.82 against 0.99 G instructions in the half-boards); the
/// batched d4 search, one board a step, is slower than the recursive one there and is not
/// chosen by default.
pub type Lane = Words<1>;

impl<const W: usize> Words<W> {
    #[inline(always)]
    fn map(self, o: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Words(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }

    #[inline(always)]
    fn mask(self, f: impl Fn(u64) -> bool) -> u32 {
        (0..W).fold(0, |m, i| m | (f(self.0[i]) as u32) << i)
    }
}

// SAFETY: plain Rust.
unsafe impl<const W: usize> Lanes for Words<W> {
    const WIDTH: usize = W;
    #[inline(always)]
    unsafe fn load(v: &[u64], i: usize) -> Self {
        Words(std::array::from_fn(|k| v.get(i + k).copied().unwrap_or(0)))
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Words([x; W])
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        self.map(o, |a, b| a & b)
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        self.map(o, |a, b| a | b)
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        self.map(o, |a, b| a ^ b)
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        self.map(o, |a, b| !a & b)
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        self.map(o, u64::wrapping_sub)
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        self.map(o, u64::wrapping_add)
    }
    #[inline(always)]
    unsafe fn shlv(self, s: Self) -> Self {
        self.map(s, |a, k| a << (k & 63))
    }
    #[inline(always)]
    unsafe fn shrv(self, s: Self) -> Self {
        self.map(s, |a, k| a >> (k & 63))
    }
    #[inline(always)]
    unsafe fn shl(self, k: u32) -> Self {
        Words(self.0.map(|a| a << (k & 63)))
    }
    #[inline(always)]
    unsafe fn shr(self, k: u32) -> Self {
        Words(self.0.map(|a| a >> (k & 63)))
    }
    #[inline(always)]
    unsafe fn nonzero(self) -> u32 {
        self.mask(|a| a != 0)
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> u32 {
        (0..W).fold(0, |m, i| m | ((self.0[i] == o.0[i]) as u32) << i)
    }
    #[inline(always)]
    unsafe fn compress_store(dst: *mut u64, keep: u32, x: Self) -> usize {
        // Branch-free: every lane is written, and the end advances only past the kept ones.
        let mut j = 0;
        for (i, &v) in x.0.iter().enumerate() {
            // SAFETY: j ≤ i < W, and the caller gives room for W values.
            unsafe { dst.add(j).write(v) };
            j += (keep >> i & 1) as usize;
        }
        j
    }
}

/// A row as eight plain words.
#[derive(Clone, Copy, Debug, Default)]
pub struct Words8([u64; 8]);

// SAFETY: plain Rust.
unsafe impl Row for Words8 {
    #[inline(always)]
    unsafe fn load(row: &Bits512) -> Self {
        Words8(row.0)
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        Words8(std::array::from_fn(|w| self.0[w] & o.0[w]))
    }
}

/// Bit-sliced counters fed by carry-save adders (Harley–Seal): `ones`, `twos`, `fours` and
/// `eights` hold bit 0, 1, 2 and 3 of the count of each bit position, so 16 rows cost 15
/// carry-save additions (5 operations per word each) and one population count per word instead
/// of 16. Rows come in pairs; the partial sums of weight 2, 4 and 8 wait in `twos_a`, `fours_a`
/// and `eights_a` for their partner.
#[derive(Clone, Copy, Debug)]
pub struct CarrySave {
    ones: [u64; 8],
    twos: [u64; 8],
    fours: [u64; 8],
    eights: [u64; 8],
    twos_a: [u64; 8],
    fours_a: [u64; 8],
    eights_a: [u64; 8],
    /// The ones carried out at weight 16, counted, per word.
    counted: [u64; 8],
    /// A row waiting for its partner (if `rows` is odd).
    held: [u64; 8],
    /// Rows added.
    rows: u64,
}

/// Returns the carry-save sum of `a`, `b` and `c` word by word: (sum, carry), with a + b + c =
/// sum + 2 carry in every bit position.
#[inline(always)]
fn csa(a: [u64; 8], b: [u64; 8], c: [u64; 8]) -> ([u64; 8], [u64; 8]) {
    let mut sum = [0; 8];
    let mut carry = [0; 8];
    for w in 0..8 {
        let u = a[w] ^ b[w];
        sum[w] = u ^ c[w];
        carry[w] = (a[w] & b[w]) | (u & c[w]);
    }
    (sum, carry)
}

#[inline(always)]
fn popcounts(x: [u64; 8]) -> [u64; 8] {
    x.map(|w| w.count_ones() as u64)
}

// SAFETY: plain Rust.
unsafe impl Tally<Words8> for CarrySave {
    const BATCH: usize = usize::MAX;
    #[inline(always)]
    unsafe fn new() -> Self {
        CarrySave {
            ones: [0; 8],
            twos: [0; 8],
            fours: [0; 8],
            eights: [0; 8],
            twos_a: [0; 8],
            fours_a: [0; 8],
            eights_a: [0; 8],
            counted: [0; 8],
            held: [0; 8],
            rows: 0,
        }
    }
    #[inline(always)]
    unsafe fn add(&mut self, r: Words8) {
        self.rows += 1;
        if self.rows & 1 == 1 {
            self.held = r.0;
            return;
        }
        // Pair p = rows / 2 − 1: the tree of Harley–Seal over 16 rows, one pair at a time.
        let p = (self.rows >> 1) - 1;
        let twos;
        (self.ones, twos) = csa(self.ones, self.held, r.0);
        if p & 1 == 0 {
            self.twos_a = twos;
            return;
        }
        let fours;
        (self.twos, fours) = csa(self.twos, self.twos_a, twos);
        if p & 2 == 0 {
            self.fours_a = fours;
            return;
        }
        let eights;
        (self.fours, eights) = csa(self.fours, self.fours_a, fours);
        if p & 4 == 0 {
            self.eights_a = eights;
            return;
        }
        let sixteens;
        (self.eights, sixteens) = csa(self.eights, self.eights_a, eights);
        for (counted, c) in self.counted.iter_mut().zip(popcounts(sixteens)) {
            *counted += 16 * c;
        }
    }
    #[inline(always)]
    unsafe fn sum(self, words: u8) -> u64 {
        // Pairs done: p; the partial sums still waiting belong to the unfinished subtrees.
        let pairs = self.rows >> 1;
        let none = [0; 8];
        let (held, t, f, e) = (
            if self.rows & 1 == 1 { self.held } else { none },
            if pairs & 1 == 1 { self.twos_a } else { none },
            if pairs & 2 == 2 { self.fours_a } else { none },
            if pairs & 4 == 4 { self.eights_a } else { none },
        );
        let weighed = [
            (self.ones, 1),
            (held, 1),
            (self.twos, 2),
            (t, 2),
            (self.fours, 4),
            (f, 4),
            (self.eights, 8),
            (e, 8),
        ];
        let mut total = 0;
        for w in (0..8).filter(|&w| words >> w & 1 == 1) {
            total += self.counted[w];
            for (x, weight) in weighed {
                total += weight * x[w].count_ones() as u64;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::scalar::tests::Rng;

    #[test]
    fn carry_save_tally_counts_every_bit() {
        let mut rng = Rng(12345);
        for rows in [0usize, 1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 1000] {
            let data: Vec<[u64; 8]> = (0..rows).map(|_| std::array::from_fn(|_| rng.next())).collect();
            for words in [0xffu8, 0x01, 0x80, 0x5a, 0] {
                let want: u64 = data
                    .iter()
                    .map(|r| {
                        (0..8).filter(|w| words >> w & 1 == 1).map(|w| r[w].count_ones() as u64).sum::<u64>()
                    })
                    .sum();
                // SAFETY: the portable level runs anywhere.
                let got = unsafe {
                    let mut t = CarrySave::new();
                    for r in &data {
                        t.add(Words8(*r));
                    }
                    t.sum(words)
                };
                assert_eq!(got, want, "{rows} rows, words {words:#x}");
            }
        }
    }
}

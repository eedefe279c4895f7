//! The scalar helpers every level shares: [`pext`] as a loop over the mask's bits, [`Squeeze`]
//! (`pext` under one fixed mask, without branches) and [`transpose64`], the portable 64×64 bit
//! transpose (the x86-64 levels have faster copies).

/// Returns the bits of `x` selected by `mask`, packed into the low bits in order (the BMI2
/// `pext` instruction), by a loop over the set bits of `mask`. For many words under one mask,
/// [`Squeeze`] is faster.
#[inline]
pub fn pext(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask ^= low;
    }
    out
}

/// `pext` under one fixed mask in 25 operations without branches: the mask's six move masks
/// precomputed, each stage moves the selected bits right by 1, 2, 4, … 32 places ("compress",
/// H. S. Warren, "Hacker's Delight", 2nd ed., §7-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squeeze {
    mask: u64,
    moves: [u64; 6],
}

impl Squeeze {
    /// Returns the compress by `mask`.
    pub fn new(mask: u64) -> Squeeze {
        let mut m = mask;
        let mut mk = !m << 1;
        let mut moves = [0; 6];
        for (i, mv) in moves.iter_mut().enumerate() {
            let mut mp = mk ^ (mk << 1);
            for s in [2, 4, 8, 16, 32] {
                mp ^= mp << s;
            }
            *mv = mp & m;
            m = (m ^ *mv) | (*mv >> (1 << i));
            mk &= !mp;
        }
        Squeeze { mask, moves }
    }

    /// Returns the bits of `x` under the mask, packed into the low bits in order.
    #[inline(always)]
    pub fn apply(&self, x: u64) -> u64 {
        let mut x = x & self.mask;
        for (i, &mv) in self.moves.iter().enumerate() {
            let t = x & mv;
            x = (x ^ t) | (t >> (1 << i));
        }
        x
    }
}

/// Transposes a 64×64 bit matrix in place: afterwards bit i of `a[j]` is what bit j of `a[i]`
/// was (H. S. Warren, "Hacker's Delight", §7-3, least significant bit first).
#[inline]
pub fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_ffff_ffff;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(crate) struct Rng(pub u64);
    impl Rng {
        pub fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn squeeze_is_pext() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut masks = vec![0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001, 0xf0f0, 0x5555_5555_5555_5555];
        masks.extend((0..200).map(|_| rng.next() & rng.next()));
        for mask in masks {
            let s = Squeeze::new(mask);
            for _ in 0..50 {
                let x = rng.next();
                assert_eq!(s.apply(x), pext(x, mask), "{x:#x} under {mask:#x}");
            }
        }
    }

    #[test]
    fn transpose_moves_bit_j_of_row_i_to_bit_i_of_row_j() {
        let mut rng = Rng(77);
        for _ in 0..20 {
            let a: [u64; 64] = std::array::from_fn(|_| rng.next());
            let mut t = a;
            transpose64(&mut t);
            for (i, row) in a.iter().enumerate() {
                for (j, col) in t.iter().enumerate() {
                    assert_eq!(col >> i & 1, row >> j & 1);
                }
            }
        }
    }
}

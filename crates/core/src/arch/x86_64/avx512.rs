//! The AVX-512 level (F, BW, VL and VPOPCNTDQ, with everything of the AVX2 level): eight `u64`
//! lanes, or one 512-bit row, in a register; `vpopcntq` counts a row's words and `vpcompressq`
//! compresses lanes.

use std::arch::x86_64::*;

use crate::arch::{Bits512, Isa, Lanes, Row, Simd, Tally};

/// The AVX-512 level's `Simd` implementation.
#[derive(Clone, Copy, Debug)]
pub struct Avx512;

// SAFETY: every method below executes instructions of the features of `Isa::Avx512` at most.
unsafe impl Simd for Avx512 {
    const ISA: Isa = Isa::Avx512;
    const PEXT: bool = true;
    type Lanes = V512;
    type Row = Row512;
    type Tally = PopcntTally;

    #[inline(always)]
    unsafe fn pext(x: u64, mask: u64) -> u64 {
        // SAFETY: BMI2 is a feature of this level.
        unsafe { _pext_u64(x, mask) }
    }

    #[inline(always)]
    unsafe fn transpose64(a: &mut [u64; 64]) {
        // SAFETY: AVX-512F is a feature of this level.
        unsafe { transpose64(a) }
    }
}

/// Eight `u64` lanes in one 512-bit register.
#[derive(Clone, Copy)]
pub struct V512(__m512i);

// SAFETY: AVX-512F instructions only.
unsafe impl Lanes for V512 {
    const WIDTH: usize = 8;
    #[inline(always)]
    unsafe fn load(v: &[u64], i: usize) -> Self {
        let lanes = (v.len() - i).min(8);
        // SAFETY: (every method) the caller runs with AVX-512F (the trait's condition); `i <=
        // v.len()` (`load`'s condition), so the mask covers `v[i..i + lanes]` only, and
        // masked-off lanes are not read.
        unsafe { V512(_mm512_maskz_loadu_epi64(((1u32 << lanes) - 1) as u8, v.as_ptr().add(i).cast())) }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_set1_epi64(x as i64)) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_and_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_or_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_xor_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_andnot_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_sub_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn shlv(self, s: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_sllv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shrv(self, s: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_srlv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shl(self, k: u32) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_sll_epi64(self.0, _mm_cvtsi64_si128(i64::from(k)))) }
    }
    #[inline(always)]
    unsafe fn shr(self, k: u32) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { V512(_mm512_srl_epi64(self.0, _mm_cvtsi64_si128(i64::from(k)))) }
    }
    #[inline(always)]
    unsafe fn nonzero(self) -> u32 {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { u32::from(_mm512_test_epi64_mask(self.0, self.0)) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> u32 {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { u32::from(_mm512_cmpeq_epi64_mask(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn compress_store(dst: *mut u64, keep: u32, x: Self) -> usize {
        // The register form of VPCOMPRESSQ and a full store: the memory form is slow on AMD
        // Zen 4. SAFETY: the caller gives room for eight values at `dst`.
        unsafe { _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi64(keep as u8, x.0)) };
        (keep & 0xff).count_ones() as usize
    }
}

/// A 512-bit row in one register.
#[derive(Clone, Copy)]
pub struct Row512(__m512i);

// SAFETY: AVX-512F instructions only.
unsafe impl Row for Row512 {
    #[inline(always)]
    unsafe fn load(row: &Bits512) -> Self {
        // SAFETY: a `Bits512` is 64 bytes aligned to 64.
        unsafe { Row512(_mm512_load_si512((row as *const Bits512).cast())) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { Row512(_mm512_and_si512(self.0, o.0)) }
    }
}

/// Ones per 64-bit word, summed in `u64` lanes (no overflow: 64 per row).
#[derive(Clone, Copy)]
pub struct PopcntTally(__m512i);

// SAFETY: AVX-512F and VPOPCNTDQ instructions only.
unsafe impl Tally<Row512> for PopcntTally {
    const BATCH: usize = usize::MAX;
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { PopcntTally(_mm512_setzero_si512()) }
    }
    #[inline(always)]
    unsafe fn add(&mut self, r: Row512) {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { self.0 = _mm512_add_epi64(self.0, _mm512_popcnt_epi64(r.0)) }
    }
    #[inline(always)]
    unsafe fn sum(self, words: u8) -> u64 {
        // SAFETY: the caller runs with AVX-512F (the trait's condition); registers only, no memory access.
        unsafe { _mm512_reduce_add_epi64(_mm512_maskz_mov_epi64(words, self.0)) as u64 }
    }
}

/// [`crate::arch::scalar::transpose64`] in eight 512-bit registers: the three stages that
/// swap words 8 or more apart swap whole registers, the three within a register pair lanes with
/// a permute (about 200 vector operations instead of about 1,150 scalar ones).
///
/// # Safety
/// Needs AVX-512F.
#[inline(always)]
unsafe fn transpose64(a: &mut [u64; 64]) {
    // SAFETY: the caller runs with AVX-512F (this fn's condition); the loads and stores stay inside the 64 words of `a`.
    unsafe {
        // Eight unaligned loads and stores of 8 words each, inside the 64 words of `a`.
        let mut r: [__m512i; 8] = std::array::from_fn(|i| _mm512_loadu_si512(a.as_ptr().add(8 * i).cast()));
        macro_rules! across {
            ($d:literal, $j:literal, $m:literal) => {
                for i in (0..8).filter(|i| i & $d == 0) {
                    let t = _mm512_and_si512(
                        _mm512_xor_si512(_mm512_srli_epi64::<$j>(r[i]), r[i + $d]),
                        _mm512_set1_epi64($m),
                    );
                    r[i + $d] = _mm512_xor_si512(r[i + $d], t);
                    r[i] = _mm512_xor_si512(r[i], _mm512_slli_epi64::<$j>(t));
                }
            };
        }
        across!(4, 32, 0x0000_0000_ffff_ffff);
        across!(2, 16, 0x0000_ffff_0000_ffff);
        across!(1, 8, 0x00ff_00ff_00ff_00ff);
        macro_rules! within {
            ($j:literal, $m:literal, $low:literal) => {
                // Lane l pairs with lane l ^ j; `low` marks the lanes with bit j clear (word k
                // of the scalar loop), the others hold word k + j.
                let partner = _mm512_set_epi64(7 ^ $j, 6 ^ $j, 5 ^ $j, 4 ^ $j, 3 ^ $j, 2 ^ $j, 1 ^ $j, $j);
                for x in r.iter_mut() {
                    let p = _mm512_permutexvar_epi64(partner, *x);
                    let (lo, hi) =
                        (_mm512_mask_blend_epi64($low, p, *x), _mm512_mask_blend_epi64($low, *x, p));
                    let t = _mm512_and_si512(
                        _mm512_xor_si512(_mm512_srli_epi64::<$j>(lo), hi),
                        _mm512_set1_epi64($m),
                    );
                    *x = _mm512_xor_si512(*x, _mm512_mask_blend_epi64($low, t, _mm512_slli_epi64::<$j>(t)));
                }
            };
        }
        within!(4, 0x0f0f_0f0f_0f0f_0f0f, 0x0f);
        within!(2, 0x3333_3333_3333_3333, 0x33);
        within!(1, 0x5555_5555_5555_5555, 0x55);
        for (i, x) in r.iter().enumerate() {
            _mm512_storeu_si512(a.as_mut_ptr().add(8 * i).cast(), *x);
        }
    }
}

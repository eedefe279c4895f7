//! The AVX2 level (with BMI1, BMI2, LZCNT and POPCNT): four `u64` lanes in a 256-bit register,
//! a 512-bit row in two.
//!
//! AVX2 has no population count of a vector and no compress. Rows are counted with the
//! nibble-table method (`vpshufb` looks up the ones of each half byte; W. Muła, N. Kurz and D.
//! Lemire, "Faster population counts using AVX2 instructions", 2018, §2.3): the byte counts of up
//! to 31 rows add up in bytes (at most 8 per row and byte, so 248 ≤ 255) and are widened once
//! with `vpsadbw`. Lanes are compressed with a 16-entry permutation table (`vpermd`).

use std::arch::x86_64::*;

use crate::arch::{Bits512, Isa, Lanes, Row, Simd, Tally};

/// The AVX2 level's `Simd` implementation.
#[derive(Clone, Copy, Debug)]
pub struct Avx2;

// SAFETY: every method below executes AVX2, BMI1, BMI2, LZCNT or POPCNT instructions at most,
// the features of `Isa::Avx2`.
unsafe impl Simd for Avx2 {
    const ISA: Isa = Isa::Avx2;
    const PEXT: bool = true;
    type Lanes = V256;
    type Row = Row256x2;
    type Tally = NibbleTally;

    #[inline(always)]
    unsafe fn pext(x: u64, mask: u64) -> u64 {
        // SAFETY: BMI2 is a feature of this level.
        unsafe { _pext_u64(x, mask) }
    }

    #[inline(always)]
    unsafe fn transpose64(a: &mut [u64; 64]) {
        // SAFETY: AVX2 is a feature of this level.
        unsafe { transpose64(a) }
    }
}

/// Four `u64` lanes in one 256-bit register.
#[derive(Clone, Copy)]
pub struct V256(__m256i);

/// For each lane mask of four lanes, the 32-bit element indices that move its lanes to the
/// front, in order (`vpermd`); AVX2 has no compress instruction.
static COMPRESS: [[i32; 8]; 16] = {
    let mut table = [[0i32; 8]; 16];
    let mut keep = 0;
    while keep < 16 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 4 {
            if keep & (1 << lane) != 0 {
                table[keep][2 * out] = 2 * lane;
                table[keep][2 * out + 1] = 2 * lane + 1;
                out += 1;
            }
            lane += 1;
        }
        keep += 1;
    }
    table
};

// SAFETY: AVX2 instructions only.
unsafe impl Lanes for V256 {
    const WIDTH: usize = 4;
    #[inline(always)]
    unsafe fn load(v: &[u64], i: usize) -> Self {
        // SAFETY: (every method) the caller runs with AVX2 (the trait's condition); `i <=
        // v.len()` (`load`'s condition), so `v.len() - i` values are left.
        unsafe {
            if v.len() - i >= 4 {
                return V256(_mm256_loadu_si256(v.as_ptr().add(i).cast()));
            }
            let lanes = (v.len() - i) as i64;
            // The mask's lanes below `lanes` are all ones, the others zero, so only
            // `v[i..i + lanes]` is read.
            let mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(lanes), _mm256_setr_epi64x(0, 1, 2, 3));
            V256(_mm256_maskload_epi64(v.as_ptr().add(i).cast(), mask))
        }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_set1_epi64x(x as i64)) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_and_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_or_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_xor_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_andnot_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_sub_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn shlv(self, s: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_sllv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shrv(self, s: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_srlv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shl(self, k: u32) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_sll_epi64(self.0, _mm_cvtsi64_si128(i64::from(k)))) }
    }
    #[inline(always)]
    unsafe fn shr(self, k: u32) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { V256(_mm256_srl_epi64(self.0, _mm_cvtsi64_si128(i64::from(k)))) }
    }
    #[inline(always)]
    unsafe fn nonzero(self) -> u32 {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { !self.eq(V256(_mm256_setzero_si256())) & 0xf }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> u32 {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(self.0, o.0))) as u32 }
    }
    #[inline(always)]
    unsafe fn compress_store(dst: *mut u64, keep: u32, x: Self) -> usize {
        // SAFETY: `keep` < 16 indexes the table; the caller gives room for four values at `dst`.
        unsafe {
            let order = _mm256_loadu_si256(COMPRESS[(keep & 0xf) as usize].as_ptr().cast());
            _mm256_storeu_si256(dst.cast(), _mm256_permutevar8x32_epi32(x.0, order));
        }
        (keep & 0xf).count_ones() as usize
    }
}

/// A 512-bit row in two 256-bit registers.
#[derive(Clone, Copy)]
pub struct Row256x2(__m256i, __m256i);

// SAFETY: AVX2 instructions only.
unsafe impl Row for Row256x2 {
    #[inline(always)]
    unsafe fn load(row: &Bits512) -> Self {
        let p: *const __m256i = (row as *const Bits512).cast();
        // SAFETY: a `Bits512` is 64 bytes aligned to 64, so both 32-byte halves are aligned.
        unsafe { Row256x2(_mm256_load_si256(p), _mm256_load_si256(p.add(1))) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { Row256x2(_mm256_and_si256(self.0, o.0), _mm256_and_si256(self.1, o.1)) }
    }
}

/// Ones per byte of each half of the row, summed over up to `NibbleTally::BATCH` rows.
#[derive(Clone, Copy)]
pub struct NibbleTally(__m256i, __m256i);

/// Returns the ones of each byte of `x` (0..=8 per byte).
#[inline(always)]
unsafe fn byte_counts(x: __m256i) -> __m256i {
    // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
    unsafe {
        let table = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        );
        let low = _mm256_set1_epi8(0x0f);
        let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(x, low));
        let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(x), low));
        _mm256_add_epi8(lo, hi)
    }
}

/// Returns the all-ones mask of the lanes of `words` from bit `from` on (four lanes).
#[inline(always)]
unsafe fn lane_mask(words: u8, from: u32) -> __m256i {
    let bit = |w: u32| -i64::from((words >> (from + w)) & 1);
    // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
    unsafe { _mm256_setr_epi64x(bit(0), bit(1), bit(2), bit(3)) }
}

// SAFETY: AVX2 instructions only.
unsafe impl Tally<Row256x2> for NibbleTally {
    const BATCH: usize = 31;
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe { NibbleTally(_mm256_setzero_si256(), _mm256_setzero_si256()) }
    }
    #[inline(always)]
    unsafe fn add(&mut self, r: Row256x2) {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe {
            self.0 = _mm256_add_epi8(self.0, byte_counts(r.0));
            self.1 = _mm256_add_epi8(self.1, byte_counts(r.1));
        }
    }
    #[inline(always)]
    unsafe fn sum(self, words: u8) -> u64 {
        // SAFETY: the caller runs with AVX2 (the trait's or this fn's condition); registers only, no memory access.
        unsafe {
            let zero = _mm256_setzero_si256();
            let (a, b) = (_mm256_sad_epu8(self.0, zero), _mm256_sad_epu8(self.1, zero));
            let lanes = if words == 0xff {
                _mm256_add_epi64(a, b)
            } else {
                _mm256_add_epi64(
                    _mm256_and_si256(a, lane_mask(words, 0)),
                    _mm256_and_si256(b, lane_mask(words, 4)),
                )
            };
            let half = _mm_add_epi64(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256::<1>(lanes));
            (_mm_cvtsi128_si64(half) + _mm_extract_epi64::<1>(half)) as u64
        }
    }
}

/// [`crate::arch::scalar::transpose64`] in sixteen 256-bit registers: the four stages that
/// swap words 4 or more apart swap whole registers; the two within a register swap lanes with
/// a permute and a blend.
///
/// # Safety
/// Needs AVX2.
#[inline(always)]
unsafe fn transpose64(a: &mut [u64; 64]) {
    unsafe {
        // SAFETY: sixteen unaligned loads and stores of 4 words each, inside the 64 words.
        let mut r: [__m256i; 16] = std::array::from_fn(|i| _mm256_loadu_si256(a.as_ptr().add(4 * i).cast()));
        macro_rules! across {
            ($d:literal, $j:literal, $m:literal) => {
                for i in (0..16).filter(|i| i & $d == 0) {
                    let t = _mm256_and_si256(
                        _mm256_xor_si256(_mm256_srli_epi64::<$j>(r[i]), r[i + $d]),
                        _mm256_set1_epi64x($m),
                    );
                    r[i + $d] = _mm256_xor_si256(r[i + $d], t);
                    r[i] = _mm256_xor_si256(r[i], _mm256_slli_epi64::<$j>(t));
                }
            };
        }
        across!(8, 32, 0x0000_0000_ffff_ffff);
        across!(4, 16, 0x0000_ffff_0000_ffff);
        across!(2, 8, 0x00ff_00ff_00ff_00ff);
        across!(1, 4, 0x0f0f_0f0f_0f0f_0f0f);
        // Within a register: lane l pairs with lane l ^ j; `$low` (a blend mask of 32-bit
        // elements) marks the lanes with bit j clear, which hold word k of the scalar loop.
        macro_rules! within {
            ($perm:literal, $j:literal, $m:literal, $low:literal) => {
                for x in r.iter_mut() {
                    let p = _mm256_permute4x64_epi64::<$perm>(*x);
                    let (lo, hi) = (_mm256_blend_epi32::<$low>(p, *x), _mm256_blend_epi32::<$low>(*x, p));
                    let t = _mm256_and_si256(
                        _mm256_xor_si256(_mm256_srli_epi64::<$j>(lo), hi),
                        _mm256_set1_epi64x($m),
                    );
                    *x = _mm256_xor_si256(*x, _mm256_blend_epi32::<$low>(t, _mm256_slli_epi64::<$j>(t)));
                }
            };
        }
        // Lanes 0,1 ↔ 2,3 (permute 0b01_00_11_10), then 0 ↔ 1 and 2 ↔ 3 (0b10_11_00_01).
        within!(0b01_00_11_10, 2, 0x3333_3333_3333_3333, 0b0000_1111);
        within!(0b10_11_00_01, 1, 0x5555_5555_5555_5555, 0b0011_0011);
        for (i, x) in r.iter().enumerate() {
            _mm256_storeu_si256(a.as_mut_ptr().add(4 * i).cast(), *x);
        }
    }
}

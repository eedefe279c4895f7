//! The AVX2 copy of the batched search: four boards per step, a 16-entry permutation table to
//! append the children (needs AVX2 and POPCNT, [`crate::cpu::Features::Avx2`]).

use std::arch::x86_64::*;

use super::Level;
use super::lanes::{Lanes, drain};

#[derive(Clone, Copy)]
pub(super) struct V256(__m256i);

/// For each lane mask of four lanes, the 32-bit element indices that move its lanes to the
/// front, in order (`vpermd`); AVX2 has no compress instruction.
const COMPRESS: [[i32; 8]; 16] = {
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

impl Lanes for V256 {
    const WIDTH: usize = 4;
    #[inline(always)]
    unsafe fn load(v: &[u64], i: usize) -> Self {
        let lanes = (v.len() - i).min(4) as i64;
        // SAFETY: the mask's lanes below `lanes` are all ones, the others zero, so only
        // `v[i..i + lanes]` is read.
        unsafe {
            let mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(lanes), _mm256_setr_epi64x(0, 1, 2, 3));
            V256(_mm256_maskload_epi64(v.as_ptr().add(i).cast(), mask))
        }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        unsafe { V256(_mm256_set1_epi64x(x as i64)) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        unsafe { V256(_mm256_and_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        unsafe { V256(_mm256_or_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { V256(_mm256_xor_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        unsafe { V256(_mm256_andnot_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        unsafe { V256(_mm256_sub_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        unsafe { V256(_mm256_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn shlv(self, s: Self) -> Self {
        unsafe { V256(_mm256_sllv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shrv(self, s: Self) -> Self {
        unsafe { V256(_mm256_srlv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shr(self, k: u32) -> Self {
        unsafe { V256(_mm256_srl_epi64(self.0, _mm_cvtsi64_si128(i64::from(k)))) }
    }
    #[inline(always)]
    unsafe fn nonzero(self) -> u32 {
        unsafe { !self.eq(V256(_mm256_setzero_si256())) & 0xf }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> u32 {
        unsafe { _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(self.0, o.0))) as u32 }
    }
    #[inline(always)]
    unsafe fn append(v: &mut Vec<u64>, keep: u32, x: Self) {
        let len = v.len();
        v.reserve(4);
        // SAFETY: `keep` < 16 indexes the table; `reserve(4)` leaves room for the four
        // values stored after `len`, and `set_len` exposes only the first `keep.count_ones()`.
        unsafe {
            let order = _mm256_loadu_si256(COMPRESS[keep as usize].as_ptr().cast());
            _mm256_storeu_si256(v.as_mut_ptr().add(len).cast(), _mm256_permutevar8x32_epi32(x.0, order));
            v.set_len(len + keep.count_ones() as usize);
        }
    }
    #[inline(always)]
    unsafe fn drain<const NODES: bool>(levels: &mut [Level], rows: usize, count: &mut u64, nodes: &mut u64) {
        unsafe { drain_avx2::<NODES>(levels, rows, count, nodes) }
    }
}

/// The AVX2 entry point of [`drain`].
#[target_feature(enable = "avx2,popcnt")]
pub(super) fn drain_avx2<const NODES: bool>(
    levels: &mut [Level],
    rows: usize,
    count: &mut u64,
    nodes: &mut u64,
) {
    // SAFETY: this function runs with AVX2 enabled, the feature set of `V256`.
    unsafe { drain::<V256, NODES>(levels, rows, count, nodes) }
}

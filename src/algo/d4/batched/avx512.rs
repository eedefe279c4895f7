//! The AVX-512 copy of the batched search: eight boards per step, `vpcompressq` to append the
//! children (needs AVX-512F and POPCNT, [`crate::cpu::Features::Avx512`]).

use std::arch::x86_64::*;

use super::Level;
use super::lanes::{Lanes, drain};

#[derive(Clone, Copy)]
pub(super) struct V512(__m512i);

impl Lanes for V512 {
    const WIDTH: usize = 8;
    #[inline(always)]
    unsafe fn load(v: &[u64], i: usize) -> Self {
        let lanes = (v.len() - i).min(8);
        // SAFETY: the mask covers `v[i..i + lanes]` only; masked-off lanes are not read.
        unsafe { V512(_mm512_maskz_loadu_epi64(((1u32 << lanes) - 1) as u8, v.as_ptr().add(i).cast())) }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        unsafe { V512(_mm512_set1_epi64(x as i64)) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        unsafe { V512(_mm512_and_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        unsafe { V512(_mm512_or_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { V512(_mm512_xor_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        unsafe { V512(_mm512_andnot_si512(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        unsafe { V512(_mm512_sub_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        unsafe { V512(_mm512_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn shlv(self, s: Self) -> Self {
        unsafe { V512(_mm512_sllv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shrv(self, s: Self) -> Self {
        unsafe { V512(_mm512_srlv_epi64(self.0, s.0)) }
    }
    #[inline(always)]
    unsafe fn shr(self, k: u32) -> Self {
        unsafe { V512(_mm512_srl_epi64(self.0, _mm_cvtsi64_si128(i64::from(k)))) }
    }
    #[inline(always)]
    unsafe fn nonzero(self) -> u32 {
        unsafe { u32::from(_mm512_test_epi64_mask(self.0, self.0)) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> u32 {
        unsafe { u32::from(_mm512_cmpeq_epi64_mask(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn append(v: &mut Vec<u64>, keep: u32, x: Self) {
        let len = v.len();
        v.reserve(8);
        // SAFETY: `reserve(8)` leaves room for eight values after `len`; the store writes
        // exactly that, and `set_len` exposes only the `keep.count_ones()` ≤ 8 written first.
        unsafe {
            _mm512_storeu_si512(v.as_mut_ptr().add(len).cast(), _mm512_maskz_compress_epi64(keep as u8, x.0));
            v.set_len(len + keep.count_ones() as usize);
        }
    }
    #[inline(always)]
    unsafe fn drain<const NODES: bool>(levels: &mut [Level], rows: usize, count: &mut u64, nodes: &mut u64) {
        unsafe { drain_avx512::<NODES>(levels, rows, count, nodes) }
    }
}

/// The AVX-512 entry point of [`drain`].
#[target_feature(enable = "avx512f,popcnt")]
pub(super) fn drain_avx512<const NODES: bool>(
    levels: &mut [Level],
    rows: usize,
    count: &mut u64,
    nodes: &mut u64,
) {
    // SAFETY: this function runs with AVX-512F enabled, the feature set of `V512`.
    unsafe { drain::<V512, NODES>(levels, rows, count, nodes) }
}

//! The NEON level (aarch64 Advanced SIMD): four `u64` lanes in two 128-bit registers, a 512-bit
//! row in four.
//!
//! Rows are counted with `cnt` (`vcntq_u8`, the ones of each byte): the byte counts of up to 31
//! rows add up in bytes (at most 8 per row and byte) and are widened once with pairwise adds
//! (`uaddlp`). aarch64 has no `pext` and no compress: [`crate::arch::scalar::Squeeze`] and a
//! branch-free scalar store replace them.

use std::arch::aarch64::*;

use crate::arch::{Bits512, Isa, Lanes, Row, Simd, Tally};

/// The NEON level's `Simd` implementation.
#[derive(Clone, Copy, Debug)]
pub struct Neon;

// SAFETY: every method below executes NEON instructions at most, which every aarch64 target
// enables.
unsafe impl Simd for Neon {
    const ISA: Isa = Isa::Neon;
    const PEXT: bool = false;
    type Lanes = V128x2;
    type Row = Row128x4;
    type Tally = CntTally;
}

/// Four `u64` lanes in two 128-bit registers.
#[derive(Clone, Copy)]
pub struct V128x2(uint64x2_t, uint64x2_t);

impl V128x2 {
    #[inline(always)]
    fn map(self, o: Self, f: impl Fn(uint64x2_t, uint64x2_t) -> uint64x2_t) -> Self {
        V128x2(f(self.0, o.0), f(self.1, o.1))
    }

    /// Bit i of the result: lane i of `x` (all ones or all zeros) is all ones.
    #[inline(always)]
    fn bits(x: V128x2) -> u32 {
        // SAFETY: NEON is enabled on every aarch64 target.
        unsafe {
            (vgetq_lane_u64::<0>(x.0) & 1) as u32
                | ((vgetq_lane_u64::<1>(x.0) & 1) as u32) << 1
                | ((vgetq_lane_u64::<0>(x.1) & 1) as u32) << 2
                | ((vgetq_lane_u64::<1>(x.1) & 1) as u32) << 3
        }
    }
}

// SAFETY: NEON instructions only (every aarch64 target enables them).
unsafe impl Lanes for V128x2 {
    const WIDTH: usize = 4;
    #[inline(always)]
    unsafe fn load(v: &[u64], i: usize) -> Self {
        // SAFETY: (every method) NEON is part of the target; `i <= v.len()` (`load`'s
        // condition), and the loads read `v[i..i + 4]` only when that many values are left.
        unsafe {
            if v.len() - i >= 4 {
                let p = v.as_ptr().add(i);
                return V128x2(vld1q_u64(p), vld1q_u64(p.add(2)));
            }
            let at = |k: usize| v.get(i + k).copied().unwrap_or(0);
            V128x2(
                vcombine_u64(vcreate_u64(at(0)), vcreate_u64(at(1))),
                vcombine_u64(vcreate_u64(at(2)), vcreate_u64(at(3))),
            )
        }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        unsafe { V128x2(vdupq_n_u64(x), vdupq_n_u64(x)) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(o, |a, b| unsafe { vandq_u64(a, b) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(o, |a, b| unsafe { vorrq_u64(a, b) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(o, |a, b| unsafe { veorq_u64(a, b) })
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        // `bic b, a` is b & !a.
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(o, |a, b| unsafe { vbicq_u64(b, a) })
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(o, |a, b| unsafe { vsubq_u64(a, b) })
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(o, |a, b| unsafe { vaddq_u64(a, b) })
    }
    #[inline(always)]
    unsafe fn shlv(self, s: Self) -> Self {
        // `ushl` shifts left by a signed count per lane (negative: right).
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(s, |a, k| unsafe { vshlq_u64(a, vreinterpretq_s64_u64(k)) })
    }
    #[inline(always)]
    unsafe fn shrv(self, s: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        self.map(s, |a, k| unsafe { vshlq_u64(a, vnegq_s64(vreinterpretq_s64_u64(k))) })
    }
    #[inline(always)]
    unsafe fn shl(self, k: u32) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        unsafe {
            let k = vdupq_n_s64(i64::from(k));
            V128x2(vshlq_u64(self.0, k), vshlq_u64(self.1, k))
        }
    }
    #[inline(always)]
    unsafe fn shr(self, k: u32) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        unsafe {
            let k = vdupq_n_s64(-i64::from(k));
            V128x2(vshlq_u64(self.0, k), vshlq_u64(self.1, k))
        }
    }
    #[inline(always)]
    unsafe fn nonzero(self) -> u32 {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        unsafe { V128x2::bits(V128x2(vtstq_u64(self.0, self.0), vtstq_u64(self.1, self.1))) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> u32 {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        unsafe { V128x2::bits(V128x2(vceqq_u64(self.0, o.0), vceqq_u64(self.1, o.1))) }
    }
    #[inline(always)]
    unsafe fn compress_store(dst: *mut u64, keep: u32, x: Self) -> usize {
        // Branch-free: every lane is written, and the end advances only past the kept ones.
        // SAFETY: j ≤ i < 4, and the caller gives room for four values at `dst`.
        unsafe {
            let lanes = [
                vgetq_lane_u64::<0>(x.0),
                vgetq_lane_u64::<1>(x.0),
                vgetq_lane_u64::<0>(x.1),
                vgetq_lane_u64::<1>(x.1),
            ];
            let mut j = 0;
            for (i, v) in lanes.into_iter().enumerate() {
                dst.add(j).write(v);
                j += (keep >> i & 1) as usize;
            }
            j
        }
    }
}

/// A 512-bit row in four 128-bit registers.
#[derive(Clone, Copy)]
pub struct Row128x4([uint64x2_t; 4]);

// SAFETY: NEON instructions only.
unsafe impl Row for Row128x4 {
    #[inline(always)]
    unsafe fn load(row: &Bits512) -> Self {
        // SAFETY: the row's eight words are read, two at a time.
        unsafe { Row128x4(std::array::from_fn(|i| vld1q_u64(row.0.as_ptr().add(2 * i)))) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        Row128x4(std::array::from_fn(|i| unsafe { vandq_u64(self.0[i], o.0[i]) }))
    }
}

/// Ones per byte of the row, summed over up to [`CntTally::BATCH`] rows.
#[derive(Clone, Copy)]
pub struct CntTally([uint8x16_t; 4]);

// SAFETY: NEON instructions only.
unsafe impl Tally<Row128x4> for CntTally {
    const BATCH: usize = 31;
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: NEON instructions on registers only; NEON is part of every aarch64 target.
        unsafe { CntTally([vdupq_n_u8(0); 4]) }
    }
    #[inline(always)]
    unsafe fn add(&mut self, r: Row128x4) {
        for i in 0..4 {
            // SAFETY: NEON is part of the target.
            unsafe { self.0[i] = vaddq_u8(self.0[i], vcntq_u8(vreinterpretq_u8_u64(r.0[i]))) };
        }
    }
    #[inline(always)]
    unsafe fn sum(self, words: u8) -> u64 {
        let mut total = 0;
        for (i, &bytes) in self.0.iter().enumerate() {
            // SAFETY: NEON is part of the target.
            let lanes = unsafe { vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(bytes))) };
            // SAFETY: as above.
            let (a, b) = unsafe { (vgetq_lane_u64::<0>(lanes), vgetq_lane_u64::<1>(lanes)) };
            total += if words >> (2 * i) & 1 == 1 { a } else { 0 }
                + if words >> (2 * i + 1) & 1 == 1 { b } else { 0 };
        }
        total
    }
}

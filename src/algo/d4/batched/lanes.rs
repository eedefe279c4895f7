//! The generic step of the batched search on x86-64 ([`drain`]) over one small trait of lane
//! operations ([`Lanes`]), implemented once per instruction set: AVX-512 (eight `u64` lanes,
//! `avx512.rs`) and AVX2 (four, `avx2.rs`), each instance compiled inside that file's
//! `#[target_feature]` entry point. Every lane operation is `#[inline(always)]` so that it is
//! compiled with its caller's features; the recursion from one level to the next goes back
//! through the entry point, so no part is compiled without them.

use super::{FLUSH, Level};
use crate::algo::d4::search::LOOKAHEAD;
use crate::kernel::looks_ahead;

/// Lanes of `u64` in one vector register. Lane masks are the low `WIDTH` bits of a `u32`.
///
/// # Safety
/// Every method executes instructions of the implementing type's feature set: call them only
/// from that feature set's entry point (`drain_avx512`, `drain_avx2`).
pub(crate) trait Lanes: Copy {
    /// Lanes per vector.
    const WIDTH: usize;
    /// Loads `v[i..]`, at most `WIDTH` values, zero in the lanes past the end.
    unsafe fn load(v: &[u64], i: usize) -> Self;
    unsafe fn splat(x: u64) -> Self;
    unsafe fn and(self, o: Self) -> Self;
    unsafe fn or(self, o: Self) -> Self;
    unsafe fn xor(self, o: Self) -> Self;
    /// `!self & o`.
    unsafe fn andnot(self, o: Self) -> Self;
    unsafe fn sub(self, o: Self) -> Self;
    unsafe fn add(self, o: Self) -> Self;
    /// Each lane shifted left by the matching lane of `s`.
    unsafe fn shlv(self, s: Self) -> Self;
    /// Each lane shifted right by the matching lane of `s`.
    unsafe fn shrv(self, s: Self) -> Self;
    /// Each lane shifted right by `k`.
    unsafe fn shr(self, k: u32) -> Self;
    /// The lanes that are not zero.
    unsafe fn nonzero(self) -> u32;
    /// The lanes equal to those of `o`.
    unsafe fn eq(self, o: Self) -> u32;
    /// Appends the lanes `keep` of `x` to `v`, in lane order.
    unsafe fn append(v: &mut Vec<u64>, keep: u32, x: Self);
    /// Calls this type's entry point (the recursion to the next level).
    unsafe fn drain<const NODES: bool>(levels: &mut [Level], rows: usize, count: &mut u64, nodes: &mut u64);
}

/// Returns the shift after a placement with `rows` free rows left, per lane.
#[inline(always)]
unsafe fn shifts<V: Lanes>(schedule: V, rows: usize) -> V {
    unsafe { schedule.shr(2 * rows as u32).and(V::splat(3)).add(V::splat(1)) }
}

/// The look-ahead on the boards with `rows` free rows: the lanes that may complete.
#[inline(always)]
unsafe fn may_complete<V: Lanes>(rest: V, ld: V, rd: V, schedule: V, rows: usize) -> u32 {
    unsafe {
        let (mut l, mut r) = (ld, rd);
        let mut every_row = u32::MAX;
        let mut reachable = V::splat(0);
        for k in (1..=rows).rev() {
            let free = l.or(r).andnot(rest);
            every_row &= free.nonzero();
            reachable = reachable.or(free);
            let s = shifts(schedule, k);
            l = l.shlv(s);
            r = r.shrv(s);
        }
        every_row & reachable.eq(rest)
    }
}

/// Searches every board of `levels[rows]` (and, as they fill, the levels below), adding
/// completions to `count` and placements to `nodes`; leaves the buffers empty. `rows` ≥ 2.
#[inline(always)]
pub(super) unsafe fn drain<V: Lanes, const NODES: bool>(
    levels: &mut [Level],
    rows: usize,
    count: &mut u64,
    nodes: &mut u64,
) {
    let input = std::mem::take(&mut levels[rows]);
    let mut i = 0;
    while i < input.len() {
        // SAFETY (the whole step): the caller runs with `V`'s feature set.
        unsafe {
            let (rest, ld, rd) = (V::load(&input.rest, i), V::load(&input.ld, i), V::load(&input.rd, i));
            let schedule = V::load(&input.schedule, i);
            let s = shifts(schedule, rows);
            let mut avail = ld.or(rd).andnot(rest);
            let mut live = avail.nonzero();
            while live != 0 {
                if NODES {
                    *nodes += u64::from(live.count_ones());
                }
                let bit = avail.and(V::splat(0).sub(avail));
                avail = avail.xor(bit);
                let c_rest = rest.xor(bit);
                let c_ld = ld.or(bit).shlv(s);
                let c_rd = rd.or(bit).shrv(s);
                let mut keep = live & c_ld.or(c_rd).andnot(c_rest).nonzero();
                if rows == 2 {
                    // The child's one free row takes its last column: a solution.
                    let solved = u64::from(keep.count_ones());
                    *count += solved;
                    if NODES {
                        *nodes += solved;
                    }
                } else if keep != 0 {
                    if looks_ahead(LOOKAHEAD, rows as u32 - 1) {
                        keep &= may_complete(c_rest, c_ld, c_rd, schedule, rows - 1);
                    }
                    let out = &mut levels[rows - 1];
                    V::append(&mut out.rest, keep, c_rest);
                    V::append(&mut out.ld, keep, c_ld);
                    V::append(&mut out.rd, keep, c_rd);
                    V::append(&mut out.schedule, keep, schedule);
                }
                live = avail.nonzero();
            }
        }
        i += V::WIDTH;
        if rows > 2 && levels[rows - 1].len() >= FLUSH {
            // SAFETY: as above; the entry point has the same feature set.
            unsafe { V::drain::<NODES>(levels, rows - 1, count, nodes) };
        }
    }
    let mut input = input;
    input.clear();
    levels[rows] = input;
    if rows > 2 && levels[rows - 1].len() > 0 {
        // SAFETY: as above.
        unsafe { V::drain::<NODES>(levels, rows - 1, count, nodes) };
    }
}

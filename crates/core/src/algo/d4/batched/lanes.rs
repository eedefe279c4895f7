//! The generic step of the batched search ([`drain`]), written once over the `u64` lanes of
//! [`crate::arch::Lanes`] and compiled for every instruction-set level by
//! [`crate::arch::multiversion!`]. Every lane operation is `#[inline(always)]` so that it is
//! compiled with its caller's features; the recursion from one level of the search to the next
//! goes back through the entry point [`drain`], so no part is compiled without them.

use super::boards::{Boards, FLUSH};
use crate::algo::d4::search::LOOKAHEAD;
use crate::arch::{Lanes, Simd, multiversion};
use crate::kernel::looks_ahead;

multiversion! {
    /// Searches every board of `levels[rows]` (and, as they fill, the levels below) in the copy
    /// compiled for `level`, adding completions to `count` and placements to `nodes`; leaves the
    /// buffers empty. `rows` ≥ 2.
    pub(super) fn drain[const NODES: bool](levels: &mut [Boards], rows: usize, count: &mut u64, nodes: &mut u64)
        => drain_body[NODES];
}

/// Returns the shift after a placement with `rows` free rows left, per lane.
#[inline(always)]
unsafe fn shifts<V: Lanes>(schedule: V, rows: usize) -> V {
    // SAFETY: the caller runs with `V`'s level's features (this fn's condition); lane operations only.
    unsafe { schedule.shr(2 * rows as u32).and(V::splat(3)).add(V::splat(1)) }
}

/// The look-ahead on the boards with `rows` free rows: the lanes that may complete.
#[inline(always)]
unsafe fn may_complete<V: Lanes>(rest: V, ld: V, rd: V, schedule: V, rows: usize) -> u32 {
    // SAFETY: the caller runs with `V`'s level's features (this fn's condition); lane operations only.
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

/// [`drain`] at the level `S`.
///
/// # Safety
/// Runs `S`'s instructions: call it only with `S`'s features enabled.
#[inline(always)]
unsafe fn drain_body<S: Simd, const NODES: bool>(
    levels: &mut [Boards],
    rows: usize,
    count: &mut u64,
    nodes: &mut u64,
) {
    let input = std::mem::take(&mut levels[rows]);
    let mut i = 0;
    while i < input.len() {
        // SAFETY: (the whole step) the caller runs with `S`'s features.
        unsafe {
            let (rest, ld, rd) =
                (S::Lanes::load(&input.rest, i), S::Lanes::load(&input.ld, i), S::Lanes::load(&input.rd, i));
            let schedule = S::Lanes::load(&input.schedule, i);
            let s = shifts(schedule, rows);
            let mut avail = ld.or(rd).andnot(rest);
            let mut live = avail.nonzero();
            while live != 0 {
                if NODES {
                    *nodes += u64::from(live.count_ones());
                }
                let bit = avail.and(S::Lanes::splat(0).sub(avail));
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
                    S::Lanes::append(&mut out.rest, keep, c_rest);
                    S::Lanes::append(&mut out.ld, keep, c_ld);
                    S::Lanes::append(&mut out.rd, keep, c_rd);
                    S::Lanes::append(&mut out.schedule, keep, schedule);
                }
                live = avail.nonzero();
            }
        }
        i += S::Lanes::WIDTH;
        if rows > 2 && levels[rows - 1].len() >= FLUSH {
            // SAFETY: as above: this runs at `S`'s level.
            drain::<NODES>(unsafe { S::level() }, levels, rows - 1, count, nodes);
        }
    }
    let mut input = input;
    input.clear();
    levels[rows] = input;
    if rows > 2 && levels[rows - 1].len() > 0 {
        // SAFETY: as above.
        drain::<NODES>(unsafe { S::level() }, levels, rows - 1, count, nodes);
    }
}

//! The batched D4 search: the subtree of one start constellation searched level by level, eight
//! boards at a time in AVX-512 registers, instead of one board per recursive call.
//!
//! A recursive bitmask search spends most of its time on branches it cannot predict (how many
//! free squares a row has) and on calls. Here the boards with k free rows left are kept in a
//! buffer (one array per mask: structure of arrays); a step loads eight of them, takes the lowest
//! free square of each at once (`x & -x` on eight lanes), builds the eight children, drops those
//! whose next row is already full or that the look-ahead ([`crate::kernel_d4::LOOKAHEAD`]) rules
//! out, and appends the rest to the buffer of level k - 1 with `vpcompressq`. A level's buffer is
//! searched further whenever it holds [`FLUSH`] boards, so memory stays bounded (depth-first over
//! batches) and the buffers stay in the L2 cache. Children with one free row left are counted
//! where they are made. The same idea as the level-synchronous searches of GPU counters (e.g.
//! NQueensFAF's OpenCL kernels), written here from that description.
//!
//! # Masks without events
//! The event list of [`crate::kernel_d4`] exists because a diagonal of a pre-placed queen below
//! the current row may lie left of column 0 (or right of column 63) in a `u64`. Here every mask
//! is offset by n - 2 bits (column c is bit c + n - 2), so for n ≤ [`MAX_N`] every diagonal and
//! anti-diagonal of every queen, above or below, is a bit of `ld` or `rd` from the start
//! (anti-diagonals reach column 2n - 3: 3n - 5 ≤ 63 bits). What is left of the events are the
//! rows of the pre-placed queens of columns 0 and n-1, which the search steps over: each board
//! carries its *schedule*, for each number k of free rows left the number of rows (1, 2 or 3)
//! from this free row to the next, by which the diagonal masks shift after a placement.
//!
//! Counts and node counts are those of [`crate::kernel_d4::count_with_events`] (tested).

use std::cell::RefCell;

use crate::constellation::Constellation;
use crate::kernel::{full_mask, looks_ahead};
use crate::kernel_d4::LOOKAHEAD;

/// The largest board side of the batched search (see the module docs); larger boards use the
/// recursive search of [`crate::kernel_d4`].
pub const MAX_N: u32 = 22;

/// A level's buffer is searched further once it holds this many boards (2,048 boards of 32
/// bytes: 64 KiB per level). Measured at n = 16: 1,024 to 4,096 perform alike.
pub const FLUSH: usize = 2048;

/// A partial board of the batched search, in offset coordinates (column c is bit c + n - 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Free columns: one per free row left.
    pub rest: u64,
    /// Squares of the next free row attacked along a diagonal (shifted left per row).
    pub ld: u64,
    /// Squares of the next free row attacked along an anti-diagonal (shifted right per row).
    pub rd: u64,
    /// Bits 2k and 2k + 1: the rows from the free row with k free rows left to the next free row,
    /// less one (0, 1 or 2: pre-placed rows in between).
    pub schedule: u64,
}

impl Board {
    /// Returns the board of the start constellation `c` of an n×n board (2 ≤ n ≤ [`MAX_N`]) with
    /// the further queens `placed` (`(row, column)`, in free rows above `row`), whose next row
    /// to fill is `row`: a free row, or n - 1 when every free row is filled.
    pub fn new(c: &Constellation, n: u32, placed: &[(u32, u32)], row: u32) -> Board {
        debug_assert!((2..=MAX_N).contains(&n));
        let offset = n - 2;
        let (border, len) = c.border.queens(n);
        let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
        for &(r, col) in border[..len].iter().chain(placed) {
            cols |= 1 << (col + offset);
            // The diagonal through (r, col) meets `row` at column col + row - r, the
            // anti-diagonal at col + r - row; off the u64 they never reach the board.
            let l = (col + offset + row) as i64 - r as i64;
            let a = (col + offset + r) as i64 - row as i64;
            if (0..64).contains(&l) {
                ld |= 1 << l;
            }
            if (0..64).contains(&a) {
                rd |= 1 << a;
            }
        }
        let preplaced = |r: u32| border[..len].iter().any(|&(q, _)| q == r);
        let free: Vec<u32> = (row..n.saturating_sub(1)).filter(|&r| !preplaced(r)).collect();
        let mut schedule = 0u64;
        for (j, pair) in free.windows(2).enumerate() {
            let level = (free.len() - j) as u64;
            schedule |= u64::from(pair[1] - pair[0] - 1) << (2 * level);
        }
        let rest = (full_mask(n) << offset) & !cols;
        debug_assert_eq!(rest.count_ones() as usize, free.len());
        Board { rest, ld, rd, schedule }
    }

    /// Returns the rows by which the masks shift after a placement with `rows` free rows left.
    fn shift(&self, rows: u32) -> u32 {
        1 + ((self.schedule >> (2 * rows)) & 3) as u32
    }

    /// The look-ahead of [`crate::kernel_d4::may_complete`] on this board's schedule.
    fn may_complete(&self) -> bool {
        let (mut l, mut r) = (self.ld, self.rd);
        let mut every_row = true;
        let mut reachable = 0u64;
        let rows = self.rest.count_ones();
        for k in (1..=rows).rev() {
            let free = self.rest & !(l | r);
            every_row &= free != 0;
            reachable |= free;
            l <<= self.shift(k);
            r >>= self.shift(k);
        }
        every_row & (reachable == self.rest)
    }
}

/// Returns true if and only if this processor runs the batched search (x86-64 with AVX-512F
/// and POPCNT).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One level's boards, one array per mask.
#[derive(Default)]
struct Level {
    rest: Vec<u64>,
    ld: Vec<u64>,
    rd: Vec<u64>,
    schedule: Vec<u64>,
}

impl Level {
    fn len(&self) -> usize {
        self.rest.len()
    }

    fn clear(&mut self) {
        self.rest.clear();
        self.ld.clear();
        self.rd.clear();
        self.schedule.clear();
    }

    fn push(&mut self, b: &Board) {
        self.rest.push(b.rest);
        self.ld.push(b.ld);
        self.rd.push(b.rd);
        self.schedule.push(b.schedule);
    }
}

thread_local! {
    /// Each thread's level buffers, kept between subproblems (no allocation once warm).
    static LEVELS: RefCell<Vec<Level>> = RefCell::new((0..64).map(|_| Level::default()).collect());
}

/// Returns the number of completions of `board`, adding the queen placements made to `nodes`
/// when `NODES` is true; None if this processor lacks AVX-512F or POPCNT (see [`available`]).
///
/// The same counts and placements as [`crate::kernel_d4::count_with_events`] on the same board.
pub fn count<const NODES: bool>(board: &Board, nodes: &mut u64) -> Option<u64> {
    if !available() {
        return None;
    }
    let rows = board.rest.count_ones();
    if looks_ahead(LOOKAHEAD, rows) && !board.may_complete() {
        return Some(0);
    }
    match rows {
        0 => Some(1),
        1 => {
            let fits = (board.rest & !(board.ld | board.rd) != 0) as u64;
            if NODES {
                *nodes += fits;
            }
            Some(fits)
        }
        _ => {
            #[cfg(target_arch = "x86_64")]
            {
                LEVELS.with_borrow_mut(|levels| {
                    levels[rows as usize].push(board);
                    let mut count = 0;
                    // SAFETY: `available` has checked that this processor executes AVX-512F and POPCNT.
                    unsafe { avx512::drain::<NODES>(levels, rows as usize, &mut count, nodes) };
                    Some(count)
                })
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                unreachable!("available() is false off x86-64")
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{FLUSH, Level};
    use crate::kernel::looks_ahead;
    use crate::kernel_d4::LOOKAHEAD;

    /// Returns the shift after a placement with `rows` free rows left, per lane.
    #[target_feature(enable = "avx512f,popcnt")]
    fn shifts(schedule: __m512i, rows: usize) -> __m512i {
        let step = _mm512_and_si512(
            _mm512_srl_epi64(schedule, _mm_cvtsi64_si128(2 * rows as i64)),
            _mm512_set1_epi64(3),
        );
        _mm512_add_epi64(step, _mm512_set1_epi64(1))
    }

    /// The look-ahead on eight boards with `rows` free rows: the lanes that may complete.
    #[target_feature(enable = "avx512f,popcnt")]
    fn may_complete(rest: __m512i, ld: __m512i, rd: __m512i, schedule: __m512i, rows: usize) -> __mmask8 {
        let (mut l, mut r) = (ld, rd);
        let mut every_row: __mmask8 = 0xff;
        let mut reachable = _mm512_setzero_si512();
        for k in (1..=rows).rev() {
            let free = _mm512_andnot_si512(_mm512_or_si512(l, r), rest);
            every_row &= _mm512_test_epi64_mask(free, free);
            reachable = _mm512_or_si512(reachable, free);
            let s = shifts(schedule, k);
            l = _mm512_sllv_epi64(l, s);
            r = _mm512_srlv_epi64(r, s);
        }
        every_row & _mm512_cmpeq_epi64_mask(reachable, rest)
    }

    /// Appends the lanes `keep` of the four masks to `out`.
    #[target_feature(enable = "avx512f,popcnt")]
    fn append(out: &mut Level, keep: __mmask8, masks: [__m512i; 4]) {
        let len = out.len();
        let add = keep.count_ones() as usize;
        for (v, m) in [&mut out.rest, &mut out.ld, &mut out.rd, &mut out.schedule].into_iter().zip(masks) {
            v.reserve(8);
            // SAFETY: `reserve(8)` leaves room for eight u64 after `len`; the store writes
            // exactly that, and `set_len` exposes only the `add` ≤ 8 values just written.
            unsafe {
                _mm512_storeu_si512(v.as_mut_ptr().add(len).cast(), _mm512_maskz_compress_epi64(keep, m));
                v.set_len(len + add);
            }
        }
    }

    /// Searches every board of `levels[rows]` (and, as they fill, the levels below), adding
    /// completions to `count` and placements to `nodes`; leaves the buffers empty. `rows` ≥ 2.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) fn drain<const NODES: bool>(
        levels: &mut [Level],
        rows: usize,
        count: &mut u64,
        nodes: &mut u64,
    ) {
        let input = std::mem::take(&mut levels[rows]);
        let len = input.len();
        let mut i = 0;
        while i < len {
            let lanes: __mmask8 = if len - i >= 8 { 0xff } else { (1u8 << (len - i)) - 1 };
            // SAFETY: the lanes loaded are `i..i + 8` clipped to `len` by the mask; masked-off
            // lanes are neither read nor faulted on.
            let [rest, ld, rd, schedule] = [&input.rest, &input.ld, &input.rd, &input.schedule]
                .map(|v| unsafe { _mm512_maskz_loadu_epi64(lanes, v.as_ptr().add(i).cast()) });
            let s = shifts(schedule, rows);
            let mut avail = _mm512_andnot_si512(_mm512_or_si512(ld, rd), rest);
            let mut live = _mm512_test_epi64_mask(avail, avail);
            while live != 0 {
                if NODES {
                    *nodes += u64::from(live.count_ones());
                }
                let bit = _mm512_and_si512(avail, _mm512_sub_epi64(_mm512_setzero_si512(), avail));
                avail = _mm512_xor_si512(avail, bit);
                let c_rest = _mm512_xor_si512(rest, bit);
                let c_ld = _mm512_sllv_epi64(_mm512_or_si512(ld, bit), s);
                let c_rd = _mm512_srlv_epi64(_mm512_or_si512(rd, bit), s);
                let c_avail = _mm512_andnot_si512(_mm512_or_si512(c_ld, c_rd), c_rest);
                let mut keep = live & _mm512_test_epi64_mask(c_avail, c_avail);
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
                    append(&mut levels[rows - 1], keep, [c_rest, c_ld, c_rd, schedule]);
                }
                live = _mm512_test_epi64_mask(avail, avail);
            }
            i += 8;
            if rows > 2 && levels[rows - 1].len() >= FLUSH {
                drain::<NODES>(levels, rows - 1, count, nodes);
            }
        }
        let mut input = input;
        input.clear();
        levels[rows] = input;
        if rows > 2 && levels[rows - 1].len() > 0 {
            drain::<NODES>(levels, rows - 1, count, nodes);
        }
    }
}

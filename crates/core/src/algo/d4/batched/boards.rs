//! The batched search's boards: one partial [`Board`] (its masks in offset coordinates and its
//! schedule) and [`Boards`], one level's buffer of them, one array per mask.

use crate::algo::d4::constellation::Constellation;
use crate::kernel::full_mask;

/// The largest board side of the batched search, n ≤ 22 (see [`super`]'s docs): where d4
/// switches searches, not a limit of d4, whose larger boards (to [`crate::MAX_N`], 63) use the
/// recursive search of [`crate::algo::d4::search`].
pub const BATCHED_MAX_N: u32 = 22;

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
    /// Returns the board of the start constellation `c` of an n×n board (2 ≤ n ≤ [`BATCHED_MAX_N`]) with
    /// the further queens `placed` (`(row, column)`, in free rows above `row`), whose next row
    /// to fill is `row`: a free row, or n - 1 when every free row is filled.
    pub fn new(c: &Constellation, n: u32, placed: &[(u32, u32)], row: u32) -> Board {
        debug_assert!((2..=BATCHED_MAX_N).contains(&n));
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
        let free_rows = || (row..n.saturating_sub(1)).filter(|&r| !preplaced(r));
        // `level`: the free rows left at `previous`, the free row before r.
        let mut level = free_rows().count() as u64;
        let mut schedule = 0u64;
        let mut previous: Option<u32> = None;
        for r in free_rows() {
            if let Some(p) = previous {
                schedule |= u64::from(r - p - 1) << (2 * level);
                level -= 1;
            }
            previous = Some(r);
        }
        let rest = (full_mask(n) << offset) & !cols;
        debug_assert_eq!(rest.count_ones(), free_rows().count() as u32);
        Board { rest, ld, rd, schedule }
    }

    /// Returns the rows by which the masks shift after a placement with `rows` free rows left.
    fn shift(&self, rows: u32) -> u32 {
        1 + ((self.schedule >> (2 * rows)) & 3) as u32
    }

    /// The look-ahead of [`crate::algo::d4::search::may_complete`] on this board's schedule.
    pub(super) fn may_complete(&self) -> bool {
        // `k`: the free rows left at the row whose masks `next` shifts.
        let mut k = self.rest.count_ones();
        crate::kernel::may_complete_with(self.rest, self.ld, self.rd, |l, r| {
            let s = self.shift(k);
            k -= 1;
            (l << s, r >> s)
        })
    }
}

/// One level's boards, one array per mask.
///
/// Aligned to 128 bytes (two cache lines, what the adjacent-line prefetcher fetches together):
/// unaligned (96 bytes), two threads spent 25% more CPU time on the same count than one
/// (n = 17: 2.7 s against 2.15 s user, two threads 1.45 s wall); aligned, 2.18 s and 1.16 s. The
/// `len` fields are written at every step, so headers that share lines with another thread's
/// data are the likely cause (false sharing; not proven, no hardware counters here).
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Boards {
    pub(super) rest: Vec<u64>,
    pub(super) ld: Vec<u64>,
    pub(super) rd: Vec<u64>,
    pub(super) schedule: Vec<u64>,
}

impl Boards {
    pub(super) fn len(&self) -> usize {
        self.rest.len()
    }

    pub(super) fn clear(&mut self) {
        self.rest.clear();
        self.ld.clear();
        self.rd.clear();
        self.schedule.clear();
    }

    pub(super) fn push(&mut self, b: &Board) {
        self.rest.push(b.rest);
        self.ld.push(b.ld);
        self.rd.push(b.rd);
        self.schedule.push(b.schedule);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_step_over_the_preplaced_rows() {
        // n = 8, border queens (0, 2), (7, 5), (3, 0) and (6, 7): free rows 1, 2, 4, 5. From
        // row 1 the steps are 1 (to 2), 2 (to 4), 1 (to 5).
        let border = crate::algo::d4::constellation::Border { top: 2, bottom: 5, left: 3, right: 6 };
        assert!(border.is_valid(8));
        let b = Board::new(&Constellation::new(border, 8).unwrap(), 8, &[], 1);
        assert_eq!(b.rest.count_ones(), 4);
        assert_eq!([b.shift(4), b.shift(3), b.shift(2)], [1, 2, 1]);
    }
}

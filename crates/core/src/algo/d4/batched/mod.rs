//! The batched D4 search: the subtree of one start constellation searched level by level, eight
//! (AVX-512) or four (AVX2, NEON, portable) boards at a time in vector registers, instead of one
//! board per recursive call.
//!
//! A recursive bitmask search spends most of its time on branches it cannot predict (how many
//! free squares a row has) and on calls. Here the boards with k free rows left are kept in a
//! buffer (one array per mask: structure of arrays); a step loads a vector of them, takes the
//! lowest free square of each at once (`x & -x` on every lane), builds the children, drops those
//! whose next row is already full or that the look-ahead ([`crate::algo::d4::search::LOOKAHEAD`]) rules
//! out, and appends the rest to the buffer of level k - 1 (`vpcompressq`, a permutation table
//! on AVX2, a branch-free store elsewhere: `Lanes::compress_store` of `crate::arch`). A level's buffer is searched further whenever it holds [`FLUSH`] boards, so memory
//! stays bounded (depth-first over batches) and the buffers stay in the L2 cache. Children with
//! one free row left are counted where they are made. The same idea as the level-synchronous
//! searches of GPU counters (e.g. NQueensFAF's OpenCL kernels), written here from that
//! description.
//!
//! At n = 17 on one thread (Zen 4, `results/2026-11-29-d4-batched/`) the AVX-512 copy takes
//! 0.11 and the AVX2 copy 0.16 of the C reference's time, the recursive search 0.36.
//!
//! # Masks without events
//! The event list of [`crate::algo::d4::search`] exists because a diagonal of a pre-placed queen below
//! the current row may lie left of column 0 (or right of column 63) in a `u64`. Here every mask
//! is offset by n - 2 bits (column c is bit c + n - 2), so for n ≤ [`MAX_N`] every diagonal and
//! anti-diagonal of every queen, above or below, is a bit of `ld` or `rd` from the start
//! (anti-diagonals reach column 2n - 3: 3n - 5 ≤ 63 bits). What is left of the events are the
//! rows of the pre-placed queens of columns 0 and n-1, which the search steps over: each board
//! carries its *schedule*, for each number k of free rows left the number of rows (1, 2 or 3)
//! from this free row to the next, by which the diagonal masks shift after a placement.
//!
//! Counts and node counts are those of [`crate::algo::d4::search::count_with_events`] (tested).

use std::cell::RefCell;

use crate::algo::d4::constellation::Constellation;
use crate::algo::d4::search::LOOKAHEAD;
use crate::arch::Level;
use crate::kernel::{full_mask, looks_ahead};

/// The largest board side of the batched search (see the module docs); larger boards use the
/// recursive search of [`crate::algo::d4::search`].
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
    fn may_complete(&self) -> bool {
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
struct Boards {
    rest: Vec<u64>,
    ld: Vec<u64>,
    rd: Vec<u64>,
    schedule: Vec<u64>,
}

impl Boards {
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
    static LEVELS: RefCell<Vec<Boards>> = RefCell::new((0..64).map(|_| Boards::default()).collect());
}

/// Returns the number of completions of `board`, adding the queen placements made to `nodes`
/// when `NODES` is true, in the copy of the batched search compiled for `level`.
///
/// The same counts and placements as [`crate::algo::d4::search::count_with_events`] on the same
/// board.
pub fn count_with<const NODES: bool>(level: Level, board: &Board, nodes: &mut u64) -> u64 {
    let rows = board.rest.count_ones();
    if looks_ahead(LOOKAHEAD, rows) && !board.may_complete() {
        return 0;
    }
    match rows {
        0 => 1,
        1 => {
            let fits = (board.rest & !(board.ld | board.rd) != 0) as u64;
            if NODES {
                *nodes += fits;
            }
            fits
        }
        _ => LEVELS.with_borrow_mut(|levels| {
            levels[rows as usize].push(board);
            let mut count = 0;
            lanes::drain::<NODES>(level, levels, rows as usize, &mut count, nodes);
            count
        }),
    }
}

mod lanes;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::d4::constellation::canonical_constellations;
    use crate::algo::d4::search::{apply_events, count_with_events};

    /// Boards near the largest size, where the offset masks use bits up to 3n - 5 = 61: each
    /// copy of the batched search counts what the recursive search counts (and the same
    /// placements), on boards reached from several constellations by filling free rows greedily
    /// (every free square of the first free row, then the leftmost) until ten free rows are left.
    #[test]
    fn copies_agree_with_the_recursive_search_up_to_the_largest_board() {
        let copies = Level::available();
        let (mut compared, mut solved) = (0, 0);
        for n in [12u32, 17, 20, MAX_N] {
            let full = full_mask(n);
            let cons = canonical_constellations(n);
            let picks = cons.iter().filter(|c| c.stabilizer == 0).step_by(cons.len() / 5 + 1).take(5);
            for c in picks {
                // Row 1's events applied; then one board per free square of the first free row.
                let (events, row, ld, rd) = apply_events(c.events(), 1, c.ld, c.rd);
                let mut avail = full & !(c.cols | ld | rd);
                while avail != 0 {
                    let bit = avail & avail.wrapping_neg();
                    avail ^= bit;
                    let mut placed = vec![(row, bit.trailing_zeros())];
                    let (mut events, mut row, mut cols, mut ld, mut rd) =
                        (events, row + 1, c.cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
                    // Leftmost free square while more than ten free rows are left.
                    let reached = loop {
                        (events, row, ld, rd) = apply_events(events, row, ld, rd);
                        let free = full & !(cols | ld | rd);
                        if (full & !cols).count_ones() <= 10 || free == 0 {
                            break free != 0 || cols == full;
                        }
                        let b = free & free.wrapping_neg();
                        placed.push((row, b.trailing_zeros()));
                        (row, cols, ld, rd) = (row + 1, cols | b, (ld | b) << 1, (rd | b) >> 1);
                    };
                    if !reached {
                        continue;
                    }
                    let mut want_nodes = 0;
                    let want = count_with_events::<true>(
                        Level::portable(),
                        full,
                        events,
                        row,
                        cols,
                        ld,
                        rd,
                        &mut want_nodes,
                    );
                    let board = Board::new(c, n, &placed, row);
                    compared += 1;
                    solved += (want > 0) as u32;
                    for &level in &copies {
                        let mut nodes = 0;
                        let got = count_with::<true>(level, &board, &mut nodes);
                        assert_eq!(got, want, "{level} n = {n} {:?} {placed:?}", c.border);
                        assert_eq!(nodes, want_nodes, "{level} n = {n} {:?} {placed:?}", c.border);
                    }
                }
            }
        }
        assert!(compared >= 50 && solved >= 5, "{compared} boards compared, {solved} with solutions");
    }

    #[test]
    fn schedules_step_over_the_preplaced_rows() {
        // n = 8, border queens (0, 2), (7, 5), (3, 0) and (6, 7): free rows 1, 2, 4, 5. From
        // row 1 the steps are 1 (to 2), 2 (to 4), 1 (to 5).
        let border = crate::algo::d4::constellation::Border { top: 2, bottom: 5, left: 3, right: 6 };
        assert!(border.is_valid(8));
        let b = Board::new(&Constellation::new(border, 8), 8, &[], 1);
        assert_eq!(b.rest.count_ones(), 4);
        assert_eq!([b.shift(4), b.shift(3), b.shift(2)], [1, 2, 1]);
    }
}

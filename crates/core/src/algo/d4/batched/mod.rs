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
//! is offset by n - 2 bits (column c is bit c + n - 2), so for n ≤ [`BATCHED_MAX_N`] every diagonal and
//! anti-diagonal of every queen, above or below, is a bit of `ld` or `rd` from the start
//! (anti-diagonals reach column 2n - 3: 3n - 5 ≤ 63 bits). What is left of the events are the
//! rows of the pre-placed queens of columns 0 and n-1, which the search steps over: each board
//! carries its *schedule*, for each number k of free rows left the number of rows (1, 2 or 3)
//! from this free row to the next, by which the diagonal masks shift after a placement.
//!
//! Counts and node counts are those of [`crate::algo::d4::search::count_with_events`] (tested).
//!
//! `boards.rs` holds a board and a level's buffer of boards, `lanes.rs` the generic step over
//! vector lanes; this file the threads' buffers and the entry, [`count_with`].

use std::cell::RefCell;

use boards::Boards;
#[cfg(any(test, feature = "internals"))]
pub use boards::FLUSH;
pub use boards::{Board, BATCHED_MAX_N};

use crate::algo::d4::search::LOOKAHEAD;
use crate::arch::Level;
use crate::kernel::looks_ahead;

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

mod boards;
mod lanes;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::d4::constellation::canonical_constellations;
    use crate::kernel::full_mask;
    use crate::algo::d4::search::{apply_events, count_with_events};

    /// Boards near the largest size, where the offset masks use bits up to 3n - 5 = 61: each
    /// copy of the batched search counts what the recursive search counts (and the same
    /// placements), on boards reached from several constellations by filling free rows greedily
    /// (every free square of the first free row, then the leftmost) until ten free rows are left.
    #[test]
    fn copies_agree_with_the_recursive_search_up_to_the_largest_board() {
        let copies = Level::available();
        let (mut compared, mut solved) = (0, 0);
        for n in [12u32, 17, 20, BATCHED_MAX_N] {
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
}

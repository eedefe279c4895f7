//! The sequential searches of the D4 (start constellation) algorithm: boards whose border queens
//! are pre-placed, so some interior rows are already occupied. No rayon, no I/O, no allocation.
//!
//! The masks are those of [`crate::kernel`] (`cols`, `ld` shifted left per row, `rd` shifted
//! right per row), describing the next row to fill. A start constellation (see
//! [`crate::algo::d4::constellation`]) adds *row events*, sorted by row and at most one per row:
//! - a pre-placed queen in that row (the queen of column 0 or column n-1): the row is skipped,
//!   its queen's bit joins both diagonal masks before the shift (its column is in `cols` from
//!   the start);
//! - a diagonal of the row n-1 queen that enters the board at this row from the side (it cannot
//!   be carried in a shifted `u64` mask before, as it would sit left of column 0): its bit is ORed
//!   into `ld` (or `rd`) on arrival.
//!
//! Once the last event is behind, every remaining row is free and the plain kernel's recursion
//! ([`crate::kernel`], in its copy for the same level) finishes the count. Above
//! the last event each node pays one comparison of its row with the next event's row (the method
//! of NQueensFAF's specialised recursions, written once and driven by data instead of ~30
//! hand-written variants).
//!
//! Every search here drops a board with 4, 5 or 6 free rows as soon as a free row ahead has no
//! free square or a free column cannot be reached on any free row ([`LOOKAHEAD`],
//! [`may_complete`]). This recursive search is the one for n > 22 and for processors without
//! AVX2 or AVX-512F; otherwise the batched search of [`crate::algo::d4::batched`] makes the same
//! placements 2.2 (AVX2) to 3.4 (AVX-512) times faster.

use crate::Classes;
use crate::arch::{Level, multiversion};
#[cfg(test)]
use crate::kernel::count_completions;
use crate::kernel::{SearchCopies, count_free_body, full_mask, looks_ahead};
use crate::symmetry::Symmetry;

/// Something that happens on arrival at one row of a start constellation (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowEvent {
    /// The 0-based row.
    pub row: u32,
    /// Bits ORed into the diagonal mask `ld` on arrival (a diagonal entering at column 0).
    pub ld: u64,
    /// Bits ORed into the anti-diagonal mask `rd` on arrival.
    pub rd: u64,
    /// The bit of the pre-placed queen of this row (the row is skipped), or 0 for a free row.
    pub skip: u64,
}

/// Applies the events of `row` (and of the skipped rows after it) to the masks; returns the next
/// free row, its `ld` and `rd`, and the events still ahead.
#[inline(always)]
pub fn apply_events(
    events: &[RowEvent],
    mut row: u32,
    mut ld: u64,
    mut rd: u64,
) -> (&[RowEvent], u32, u64, u64) {
    let mut events = events;
    while let [e, rest @ ..] = events {
        if e.row != row {
            break;
        }
        ld |= e.ld;
        rd |= e.rd;
        events = rest;
        if e.skip == 0 {
            break;
        }
        ld = (ld | e.skip) << 1;
        rd = (rd | e.skip) >> 1;
        row += 1;
    }
    (events, row, ld, rd)
}

/// The numbers of free rows at which the D4 searches look ahead, as a mask (see
/// [`crate::kernel::LOOKAHEAD`]): boards with 4, 5 or 6 free rows (rows without a queen, pre-placed
/// or not) are checked with [`may_complete`], in every search of this module and in the D4
/// splitter, so node counts do not depend on the search or the split. Chosen by measurement
/// on the batched search ([`crate::algo::d4::batched`]), where it is about 10% faster at n = 16 than
/// checking at 4 free rows alone (`results/2026-11-29-d4/`).
pub const LOOKAHEAD: u64 = 0b111 << 4;

/// Returns false if the board whose next row is `row` (its events not yet applied), with free
/// columns `rest` (one per free row) and masks `ld`, `rd`, certainly has no completion: a free
/// row ahead has no square free of the queens placed so far (events included), or a free column
/// is attacked on every free row. The check of [`crate::kernel::may_complete`], stepping over
/// the events of the rows ahead.
///
/// The loop of [`crate::kernel::may_complete_with`], written out here rather than called with a
/// row step that applies the events: that call made the recursive d4 search 10% slower (n = 16,
/// one thread, `--d4-search recursive`: 1.50 s against 1.37 s user; results/2026-12-01-layout/).
#[inline(always)]
pub fn may_complete(events: &[RowEvent], row: u32, rest: u64, ld: u64, rd: u64) -> bool {
    let (mut events, mut row, mut l, mut r) = (events, row, ld, rd);
    let mut every_row = true;
    let mut reachable = 0u64;
    for _ in 0..rest.count_ones() {
        (events, row, l, r) = apply_events(events, row, l, r);
        let free = rest & !(l | r);
        every_row &= free != 0;
        reachable |= free;
        l <<= 1;
        r >>= 1;
        row += 1;
    }
    every_row & (reachable == rest)
}

/// Returns true if [`LOOKAHEAD`] checks a board with the free columns `rest` and
/// [`may_complete`] rules it out (see there for the arguments): the searches drop it.
#[inline(always)]
pub fn dropped(events: &[RowEvent], row: u32, rest: u64, ld: u64, rd: u64) -> bool {
    looks_ahead(LOOKAHEAD, rest.count_ones()) && !may_complete(events, row, rest, ld, rd)
}

/// Returns the number of ways to fill the free rows of a board with pre-placed queens, starting
/// at `row` whose masks are `cols`, `ld`, `rd` (events of `row` itself not yet applied), and adds
/// the queen placements made to `nodes` when `NODES` is true.
///
/// `events` are the events of rows `row..` in row order (see [`RowEvent`]); `full` is
/// [`board_mask`](crate::kernel::board_mask)`(n)`. `cols` holds the columns of every
/// pre-placed queen, so the board is complete when `cols == full`. The count is exact (see [`crate::kernel`]).
///
/// # Examples
/// ```
/// # // The building blocks are public with the `internals` feature only.
/// # #[cfg(feature = "internals")] {
/// use nqueens::arch::Level;
/// use nqueens::kernel::board_mask;
/// use nqueens::algo::d4::search::{count_with_events, RowEvent};
/// // 4 queens with (0,2) and a pre-placed (1,0): the rows below complete in one way, (2,3), (3,1).
/// let full = board_mask(4).unwrap();
/// let skip = [RowEvent { row: 1, skip: 1, ..RowEvent::default() }];
/// let (cols, ld, rd) = (0b0101, 0b0100 << 1, 0b0100 >> 1);
/// assert_eq!(count_with_events::<false>(Level::best(), full, &skip, 1, cols, ld, rd, &mut 0), 1);
/// # }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn count_with_events<const NODES: bool>(
    level: Level,
    full: u64,
    events: &[RowEvent],
    row: u32,
    cols: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    resume::<NODES>(level, events, row, full & !cols, ld, rd, nodes)
}

multiversion! {
    /// [`count_with_events`] on the free columns `rest` instead of `full` and `cols`, in the
    /// copy of `level` ([`resume_body`]).
    fn resume[const NODES: bool](events: &[RowEvent], row: u32, rest: u64, ld: u64, rd: u64, nodes: &mut u64) -> u64
        => resume_body[NODES];
}

// The recursion above the last event (`walk_body`), one copy per level: the searches call
// their copies through `WalkCopies` directly, so it has no entry that takes a `Level`.
multiversion! {
    trait WalkCopies[const NODES: bool](events: &[RowEvent], left: u32, rest: u64, ld: u64, rd: u64, nodes: &mut u64) -> u64
        => walk_body[NODES];
}

/// [`resume`] at the level `S`: applies the events of `row`, then walks to the next event, or
/// finishes below the last one in the plain kernel's copy for `S` (on free columns).
///
/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled (the searches below alike).
#[inline(always)]
unsafe fn resume_body<S: WalkCopies + SearchCopies, const NODES: bool>(
    events: &[RowEvent],
    row: u32,
    rest: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    if dropped(events, row, rest, ld, rd) {
        return 0;
    }
    let (events, row, ld, rd) = apply_events(events, row, ld, rd);
    // SAFETY: (both) this runs at `S`'s level; its own copies.
    match events.first() {
        // SAFETY: this runs at `S`'s level (this fn's condition) and calls that level's own copy.
        None => unsafe { count_free_body::<S, NODES, LOOKAHEAD>(rest, ld, rd, nodes) },
        // SAFETY: this runs at `S`'s level (this fn's condition) and calls that level's own copy.
        Some(e) => unsafe { <S as WalkCopies>::call::<NODES>(events, e.row - row, rest, ld, rd, nodes) },
    }
}

/// The recursion above the last event at the level `S`: the current row is free and the next
/// event (`events[0]`) is `left` ≥ 1 rows below it. The row count is checked once per row,
/// outside the loop over the row's free squares, and two rows are placed per call (halving the
/// calls, each of which saves and restores six registers); `rest` holds the free columns.
///
/// # Safety
/// As [`resume_body`].
#[inline(always)]
unsafe fn walk_body<S: WalkCopies + SearchCopies, const NODES: bool>(
    events: &[RowEvent],
    left: u32,
    rest: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    if left == 1 {
        // SAFETY: this runs at `S`'s level.
        return unsafe { before_event::<S, NODES>(events, rest, ld, rd, nodes) };
    }
    // The row below this one; the look-ahead checks the children here (`resume` checks the
    // boards after an event).
    let row = events[0].row - left + 1;
    let mut avail = rest & !(ld | rd);
    let mut count = 0u64;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        if NODES {
            *nodes += 1;
        }
        let (rest, l, r) = (rest ^ bit, (ld | bit) << 1, (rd | bit) >> 1);
        if dropped(events, row, rest, l, r) {
            continue;
        }
        if left == 2 {
            // SAFETY: as above.
            count += unsafe { before_event::<S, NODES>(events, rest, l, r, nodes) };
            continue;
        }
        let mut avail2 = rest & !(l | r);
        while avail2 != 0 {
            let b = avail2 & avail2.wrapping_neg();
            avail2 ^= b;
            if NODES {
                *nodes += 1;
            }
            let (rest, l, r) = (rest ^ b, (l | b) << 1, (r | b) >> 1);
            if dropped(events, row + 1, rest, l, r) {
                continue;
            }
            // SAFETY: as above: its own copy.
            count += unsafe { <S as WalkCopies>::call::<NODES>(events, left - 2, rest, l, r, nodes) };
        }
    }
    count
}

/// The row just above the next event (`events[0]`) at the level `S`: places its queen, then
/// applies the event.
///
/// # Safety
/// As [`resume_body`].
#[inline(always)]
unsafe fn before_event<S: WalkCopies + SearchCopies, const NODES: bool>(
    events: &[RowEvent],
    rest: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    let mut avail = rest & !(ld | rd);
    let mut count = 0u64;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        if NODES {
            *nodes += 1;
        }
        if rest == bit {
            // Every row left holds a pre-placed queen, whose diagonals were blocked from the
            // start: a solution.
            count += 1;
            continue;
        }
        let (l, r) = ((ld | bit) << 1, (rd | bit) >> 1);
        // SAFETY: this runs at `S`'s level.
        count += unsafe { resume_body::<S, NODES>(events, events[0].row, rest ^ bit, l, r, nodes) };
    }
    count
}

/// The counts of a classified search ([`classify_with_events`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classified {
    /// Completed boards found (every one, not only the representatives).
    pub solutions: u64,
    /// Representatives found, by orbit size.
    pub classes: Classes,
    /// Queen placements made (when asked for).
    pub nodes: u64,
}

/// Fills the free rows of `board` like [`count_with_events`] and classifies each completed
/// board under `stabilizer`, the non-identity symmetries that fix the pre-placed queens.
///
/// `board[r]` must hold the column of every pre-placed queen (row 0, row n-1 and the skipped
/// rows) and of the rows above `row`; `board.len()` is n. A completed board is a representative
/// if and only if it is lexicographically no larger than its image under each symmetry of
/// `stabilizer`; its orbit then has `8 / (1 + f)` boards, where f is the number of those
/// symmetries that fix it (every symmetry that fixes a board fixes its border queens, so none is
/// missed). Each symmetry class of completions is counted once. No allocation: the images are
/// written into a stack array.
#[allow(clippy::too_many_arguments)]
pub fn classify_with_events<const NODES: bool>(
    board: &mut [u8],
    stabilizer: &[Symmetry],
    events: &[RowEvent],
    row: u32,
    cols: u64,
    ld: u64,
    rd: u64,
    out: &mut Classified,
) {
    let full = full_mask(board.len() as u32);
    if dropped(events, row, full & !cols, ld, rd) {
        return;
    }
    let (events, row, ld, rd) = apply_events(events, row, ld, rd);
    if cols == full {
        out.solutions += 1;
        classify_leaf(board, stabilizer, out);
        return;
    }
    let mut avail = full & !(cols | ld | rd);
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        if NODES {
            out.nodes += 1;
        }
        board[row as usize] = bit.trailing_zeros() as u8;
        classify_with_events::<NODES>(
            board,
            stabilizer,
            events,
            row + 1,
            cols | bit,
            (ld | bit) << 1,
            (rd | bit) >> 1,
            out,
        );
    }
}

fn classify_leaf(board: &[u8], stabilizer: &[Symmetry], out: &mut Classified) {
    let mut image = [0u8; 64];
    let image = &mut image[..board.len()];
    let mut fixed = 0;
    for s in stabilizer {
        s.map_into(board, image);
        match board.cmp(image) {
            std::cmp::Ordering::Greater => return,
            std::cmp::Ordering::Equal => fixed += 1,
            std::cmp::Ordering::Less => {}
        }
    }
    // Stabiliser of size 1 + fixed: an orbit of 8 / (1 + fixed) boards.
    out.classes.add_one(8 / (1 + fixed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_events_is_the_plain_kernel() {
        for n in 0..=10 {
            let full = full_mask(n);
            let plain = count_completions::<false>(Level::best(), full, 0, 0, 0, &mut 0);
            assert_eq!(
                count_with_events::<false>(Level::best(), full, &[], 0, 0, 0, 0, &mut 0),
                plain,
                "n = {n}"
            );
        }
    }

    #[test]
    fn skipping_a_row_equals_placing_its_queen() {
        // 8 queens with the row-3 queen fixed in column 5: the same count as placing it in the
        // recursion, for every choice of rows 0..3 (checked against the plain backtracker's
        // boards).
        let n = 8usize;
        let mut want = 0;
        crate::reference::backtrack_each(n as u32, |q| {
            if q[3] == 5 {
                want += 1;
            }
        });
        let full = full_mask(n as u32);
        let ev = [RowEvent { row: 3, skip: 1 << 5, ..RowEvent::default() }];
        // The queen's diagonals must be blocked in rows 0..3 from the start: its anti-diagonal
        // (going up-right) sits at column 5 + 3 = 8 in row 0, off the board, its diagonal
        // (up-left) at column 2.
        let (ld, rd) = (1u64 << 2, 1u64 << 8);
        assert_eq!(count_with_events::<false>(Level::best(), full, &ev, 0, 1 << 5, ld, rd, &mut 0), want);
    }
}

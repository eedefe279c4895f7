//! What the join takes of memory and whether it fits: the quarter table and each thread's
//! buffers ([`per_thread_bytes`]), checked before a plan is built ([`check_memory_for`]).

use super::quarter;
use super::unit::{JOIN_MAX_N, Quarters};
use crate::Error;

/// Returns the bytes of memory available to this process, if known: the least of the node's
/// `MemAvailable`, the cgroup's room and the Slurm job's limit ([`crate::memory::available`]).
pub fn available_memory() -> Option<u64> {
    crate::memory::available()
}

/// Returns `Ok(())` if the join's quarter table for the `n`×`n` board fits with one thread's
/// working buffers ([`check_memory_for`] with one thread).
///
/// # Errors
/// [`Error::JoinTooLarge`] otherwise.
#[cfg(any(test, feature = "internals"))]
pub fn check_memory(n: u32) -> Result<(), Error> {
    check_memory_for(n, 1)
}

/// Returns the most half-boards of one bucket whose blocks the matcher holds at once on quarter
/// side `h` ([`Matcher::max_stored`](super::matcher::Matcher::max_stored)): 2^21 at every side, so
/// that the tables of a bucket of n = 28–29 take at most about 200 MB (about 100 B a half-board);
/// a larger bucket is sliced in pieces, which adds no matching work.
pub fn max_stored(h: u32) -> Option<usize> {
    let _ = h;
    Some(1 << 21)
}

/// Returns the estimated bytes of one thread's working buffers (half-boards, the sorts'
/// buffers, the matcher's tables) for quarter side `h`, from the peak resident set of units
/// counted alone on one thread (`examples/join_profile`, row sets instead of the table,
/// results/2026-12-04-frontier/): 38 MB at n = 22 (400 random units), 199 MB at n = 24 (200),
/// 655 MB at n = 26 and 1,048 MB at n = 27 (the 4 largest of 300 by `examples/join_sizes`),
/// 3,315 MiB at n = 28 (unit 2,263,085, the largest `examples/join_sizes` found: 3.5 · 10^8
/// west half-boards) and 1,857 MB at n = 29. Taken as 72 MiB, 400 MiB, 1.5 GiB and 3.5 GiB;
/// 4 MiB up to h = 10. A thread's buffers are the half-boards (8 B each), the sorts' (up to
/// 16 B a value of a side of at most 2^25, in place beyond), the buckets' indices (2 B a
/// half-board) and one bucket's tables (about 200 MB at most, [`max_stored`]); a thread keeps
/// them from unit to unit within 1 GiB, or three quarters of this figure where that is more
/// (2.6 GiB at n = 28–29), and frees them beyond (so its peak is about its largest unit's, not
/// the sum of each buffer's largest).
pub fn per_thread_bytes(h: u32) -> u64 {
    const MIB: u64 = 1 << 20;
    match h {
        0..=10 => 4 * MIB,
        11 => 72 * MIB,
        12 => 400 * MIB,
        13 => 1536 * MIB,
        _ => 3584 * MIB,
    }
}

/// The least bytes a thread's scratch keeps from one unit to the next ([`keep_bytes`]).
pub(super) const KEEP_BYTES: usize = 1 << 30;

/// Returns the most bytes a thread's scratch keeps on quarter side `h` (`Scratch::trim`,
/// `Scratch::make_room`): [`KEEP_BYTES`], or three quarters of what a thread is budgeted
/// ([`per_thread_bytes`]) where that is more (2.6 GiB at n = 28–29). A buffer kept is a buffer
/// whose pages are not found and zeroed again: a unit of n = 28 whose west side (1.6 GB) was
/// freed and written again spent 1.6 s of its 5 s share in page faults (`perf stat`, 550,000
/// faults a unit, results/2026-12-04-plan-coverage/). Both sides go in one buffer, which holds
/// what the largest unit so far needed: a buffer a side held the largest east side of one unit
/// beside the largest west side of another (4.8 GB over 8 units whose largest needed 3.4 GB
/// alone), and a unit whose larger side was not the one the unit before had wrote it into fresh
/// pages (one buffer: 1.13 million page faults instead of 1.88 million over 9 sampled units,
/// results/2026-12-05-plan-batches/). The matcher's buffers are freed before the halves grow past
/// the bound with them. Kept up to a thread's whole budget instead, the buffers of a unit of
/// 3.6 · 10^8 half-boards stayed beside those of the units after it: 30 units of n = 28 one after
/// the other peaked at 4.7 GB instead of 4.2 (same page). The enumerator's lists count against
/// the bound too and go first past it (`Scratch::trim`): uncounted, they held up to 577 MiB
/// beside the next large unit (results/2026-12-05-plan-memory/).
pub(super) fn keep_bytes(h: u32) -> usize {
    let budget = usize::try_from(per_thread_bytes(h)).unwrap_or(usize::MAX);
    KEEP_BYTES.max(budget / 4 * 3)
}

/// Returns `Ok(())` if the join fits for the `n`×`n` board on `threads` worker threads: n ≤
/// [`JOIN_MAX_N`] and the quarter table ([`quarter::estimated_bytes`]) plus `threads` ×
/// [`per_thread_bytes`] is at most 3/4 of the memory available ([`available_memory`], which
/// honours the address-space limit), when that is known. Checked before anything is built.
///
/// # Errors
/// [`Error::JoinTooLarge`] otherwise.
pub fn check_memory_for(n: u32, threads: usize) -> Result<(), Error> {
    check_memory_with(n, threads, Quarters::for_board(n))
}

/// Returns the estimated bytes the join of the `n`×`n` board takes on `threads` worker threads
/// with the quarter lists the join reads there ([`Quarters::for_board`]): the whole quarter
/// table ([`quarter::estimated_bytes`]) plus `threads` × [`per_thread_bytes`], or from n = 28
/// `threads` × ([`per_thread_bytes`] + 4 × [`ROW_SET_BYTES`]). What [`check_memory_for`]
/// checks and `nqueens plan` reports (plus its bookkeeping).
pub fn memory_bytes(n: u32, threads: usize) -> u64 {
    let (table, per_thread) = memory_parts(n, Quarters::for_board(n));
    table.saturating_add(per_thread.saturating_mul(threads.max(1) as u64))
}

/// Returns (bytes shared by the threads, bytes per thread) of the join of the `n`×`n` board
/// reading `quarters` (the whole table beyond n = 27: `u64::MAX`, it is never built).
fn memory_parts(n: u32, quarters: Quarters) -> (u64, u64) {
    match quarters {
        Quarters::Table if n / 2 > quarter::MAX_TABLE_H => (u64::MAX, per_thread_bytes(n / 2)),
        Quarters::Table => (quarter::estimated_bytes(n / 2), per_thread_bytes(n / 2)),
        Quarters::RowSets => (0, per_thread_bytes(n / 2).saturating_add(4 * ROW_SET_BYTES)),
    }
}

/// The most bytes the lists of one row set take at the largest side ([`quarter::MAX_H`] = 14):
/// 14.1 MB measured for the row set of alternate rows, 1.75 million placements (the test
/// `row_sets_of_side_14`), taken with a margin.
pub const ROW_SET_BYTES: u64 = 32 << 20;

/// As [`check_memory_for`], with the quarter lists read from `quarters`: the whole table once,
/// or four row sets ([`ROW_SET_BYTES`] each) per thread.
///
/// # Errors
/// [`Error::JoinTooLarge`] if it does not fit, or for [`Quarters::Table`] beyond n = 27.
pub fn check_memory_with(n: u32, threads: usize, quarters: Quarters) -> Result<(), Error> {
    let (table, per_thread) = memory_parts(n, quarters);
    let needed = table.saturating_add(per_thread.saturating_mul(threads.max(1) as u64));
    let available = available_memory();
    let fits = n <= JOIN_MAX_N && available.is_none_or(|a| needed <= a / 4 * 3);
    if fits {
        Ok(())
    } else {
        let mib = |b: u64| b.div_ceil(1 << 20);
        Err(Error::JoinTooLarge {
            n,
            needed_mib: mib(needed),
            table_mib: mib(table),
            threads: threads.max(1),
            per_thread_mib: mib(per_thread),
            address_space_limit_mib: crate::memory::address_space_limit().map(|b| b >> 20),
            available_mib: available.map_or(0, |a| a >> 20),
            max: JOIN_MAX_N,
        })
    }
}

//! Solution boards, listed in lexicographic order and streamed with flat memory.
//!
//! # Order
//! Solutions come in the order of a row-by-row search that tries columns left to right: by the
//! column of the queen in row 0, then row 1, and so on (for n = 4: `1 3 0 2`, then `2 0 3 1`,
//! 0-based). The bytes written are the same for every thread count.
//!
//! # Parallel and in order
//! The board is split into subproblems with the first rows fixed (`ordered_subproblems`:
//! `split::expand` from the empty board, *without* mirror halving, at the depth
//! `stream_split_depth` picks, at most 2^18 subproblems); their prefixes are in lexicographic order, so writing each
//! subproblem's solutions in turn gives the global order. A [`Stream`] searches them on a pool
//! of workers and hands their output over in order with bounded memory (see [`Stream`]);
//! [`write_solutions`] writes it in a [`BoardFormat`] ([`crate::boards`]), [`Solutions`]
//! iterates over it. [`for_each_solution`] visits the solutions on the calling thread.
//!
//! # Fundamental solutions
//! With `unique`, only the canonical board of each symmetry class is listed: the
//! lexicographically smallest of its D4 orbit ([`crate::symmetry`]); their number is OEIS
//! A002562. A board whose row-0 queen lies right of the middle is never canonical (its left-right
//! mirror is smaller), so those prefixes are not searched; every other solution is compared with
//! its seven images, without allocating.

mod stream;

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::boards::BoardFormat;
use crate::kernel::{self, full_mask};
use crate::{Error, check_n};
use stream::Chunk;
pub use stream::{SolveOptions, Stream};
// The stream's split and its bound, for the tests (one public path: the two above).
#[cfg(test)]
use stream::{MAX_STREAM_SUBPROBLEMS, ordered_subproblems, stream_split_depth};

/// Calls `visit` with every solution of the `n`×`n` board in lexicographic order (see the
/// module docs), on the calling thread, until `visit` returns [`ControlFlow::Break`]. Each
/// solution is the 0-based column of the queen in each row, row 0 first. n = 0 has one solution,
/// the empty board (OEIS A000170 convention).
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`].
///
/// # Examples
/// ```
/// use std::ops::ControlFlow;
/// let mut first = Vec::new();
/// nqueens::enumerate::for_each_solution(8, |q| {
///     first = q.to_vec();
///     ControlFlow::Break(())
/// })
/// .unwrap();
/// assert_eq!(first, vec![0, 4, 7, 5, 2, 6, 1, 3]);
/// ```
pub fn for_each_solution(n: u32, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> Result<(), Error> {
    check_n(n)?;
    let mut path = [0u8; 64];
    // n <= MAX_N rows from row 0 fit the path: the walk's own check cannot fail here.
    kernel::for_each_completion(full_mask(n), 0, 0, 0, &mut path, 0, &mut visit).map(drop)
}

/// Writes the solutions of the `n`×`n` board to `out` as `options` say and returns how many
/// were written (see [`Stream`]).
///
/// # Errors
/// A library error from [`Stream::new`] (as an [`io::Error`] of kind `InvalidInput`) or the
/// first write error.
///
/// # Examples
/// ```
/// use nqueens::boards::BoardFormat;
/// use nqueens::enumerate::{SolveOptions, write_solutions};
/// let mut out = Vec::new();
/// let options = SolveOptions { format: BoardFormat::Cols, threads: 2, ..SolveOptions::default() };
/// assert_eq!(write_solutions(4, &options, &mut out).unwrap(), 2);
/// assert_eq!(out, b"2 4 1 3\n3 1 4 2\n");
/// ```
pub fn write_solutions(n: u32, options: &SolveOptions, out: &mut dyn Write) -> io::Result<u64> {
    let stream = Stream::new(n, options).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    stream.write_to(out)
}

/// An iterator over the solutions of one board in lexicographic order, each the 0-based column
/// of the queen in every row (row 0 first), searched in parallel ahead of the reader with
/// bounded memory (see [`Stream`]). Dropping it stops the search.
pub struct Solutions {
    stream: Stream,
    chunk: Chunk,
    /// The next solution of `chunk` to hand out.
    at: usize,
}

impl Solutions {
    /// Returns the iterator over the solutions of the `n`×`n` board with `options` (its
    /// `format` is ignored: the iterator reads raw columns).
    ///
    /// # Errors
    /// As [`Stream::new`].
    pub fn new(n: u32, options: &SolveOptions) -> Result<Solutions, Error> {
        let options = SolveOptions { format: BoardFormat::Raw, ..options.clone() };
        Ok(Solutions { stream: Stream::new(n, &options)?, chunk: Chunk::default(), at: 0 })
    }
}

impl Iterator for Solutions {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        while self.at >= self.chunk.ends.len() {
            self.chunk = self.stream.next_chunk()?;
            self.at = 0;
        }
        let start = if self.at == 0 { 0 } else { self.chunk.ends[self.at - 1] as usize };
        let end = self.chunk.ends[self.at] as usize;
        self.at += 1;
        Some(self.chunk.bytes[start..end].to_vec())
    }
}

/// Returns an iterator over the solutions of the `n`×`n` board in lexicographic order, each
/// the 0-based column of the queen in every row, searched on every logical CPU.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::ThreadPool`] if the threads
/// cannot be started.
///
/// # Examples
/// ```
/// let boards: Vec<Vec<u8>> = nqueens::enumerate::solutions(4).unwrap().collect();
/// assert_eq!(boards, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
/// assert_eq!(nqueens::enumerate::solutions(8).unwrap().count(), 92);
/// ```
pub fn solutions(n: u32) -> Result<Solutions, Error> {
    Solutions::new(n, &SolveOptions::default())
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::oeis;
    use crate::reference::backtrack_each;

    fn reference(n: u32) -> Vec<Vec<u8>> {
        let mut all = Vec::new();
        backtrack_each(n, |q| all.push(q.iter().map(|&c| c as u8).collect()));
        all
    }

    fn listing(n: u32, options: &SolveOptions) -> Vec<u8> {
        let mut out = Vec::new();
        write_solutions(n, options, &mut out).unwrap();
        out
    }

    #[test]
    fn iterator_matches_the_reference_for_every_thread_count_and_depth() {
        for n in 0..=9 {
            let want = reference(n);
            for threads in [1, 2, 3] {
                for depth in [None, Some(1), Some(2), Some(n.max(1))] {
                    let options = SolveOptions { threads, split_depth: depth, ..SolveOptions::default() };
                    let got: Vec<Vec<u8>> = Solutions::new(n, &options).unwrap().collect();
                    assert_eq!(got, want, "n = {n}, threads = {threads}, depth = {depth:?}");
                }
            }
        }
    }

    #[test]
    fn sequential_listing_matches_the_reference() {
        for n in 0..=9 {
            let mut got = Vec::new();
            for_each_solution(n, |q| {
                got.push(q.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(got, reference(n), "n = {n}");
        }
        assert_eq!(for_each_solution(64, |_| ControlFlow::Continue(())), Err(Error::BoardTooLarge { n: 64 }));
    }

    #[test]
    fn unique_lists_the_canonical_boards_in_order() {
        for n in 1..=10 {
            let want: Vec<Vec<u8>> =
                reference(n).into_iter().filter(|q| crate::symmetry::is_canonical(q)).collect();
            assert_eq!(want.len() as u128, oeis::A002562.get(n).unwrap(), "n = {n}");
            let options = SolveOptions { threads: 2, unique: true, ..SolveOptions::default() };
            let got: Vec<Vec<u8>> = Solutions::new(n, &options).unwrap().collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn limit_cuts_at_any_point_and_across_chunks() {
        let all = reference(9);
        for limit in [0, 1, 2, 37, 351, 352, 353, 10_000] {
            for threads in [1, 3] {
                let options = SolveOptions { threads, limit: Some(limit), ..SolveOptions::default() };
                let got: Vec<Vec<u8>> = Solutions::new(9, &options).unwrap().collect();
                assert_eq!(got, all[..all.len().min(limit as usize)], "limit = {limit}, threads = {threads}");
            }
        }
        // The leetcode array stays well-formed when cut.
        let options =
            SolveOptions { threads: 2, limit: Some(1), format: BoardFormat::Leetcode, ..Default::default() };
        assert_eq!(listing(4, &options), b"[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]\n");
        let options = SolveOptions { limit: Some(0), format: BoardFormat::Leetcode, ..Default::default() };
        assert_eq!(listing(8, &options), b"[]\n");
    }

    #[test]
    fn bytes_do_not_depend_on_threads_or_depth_and_memory_stays_bounded() {
        // n = 11 in the board format is 2,680 × 133 bytes = 356 KB, several chunks per
        // subproblem at depth 1, so the back-pressure and head hand-over paths run.
        for format in BoardFormat::ALL {
            let one = listing(11, &SolveOptions { threads: 1, format, ..Default::default() });
            for (threads, depth) in [(2, Some(1)), (3, None), (4, Some(3))] {
                let options = SolveOptions { threads, format, split_depth: depth, ..Default::default() };
                assert!(listing(11, &options) == one, "{format}, threads = {threads}");
            }
        }
    }

    #[test]
    fn formats_of_four_queens() {
        let list = |format| listing(4, &SolveOptions { threads: 2, format, ..Default::default() });
        assert_eq!(list(BoardFormat::Board), b".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n");
        assert_eq!(
            list(BoardFormat::Leetcode),
            b"[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
        );
        assert_eq!(list(BoardFormat::Cols), b"2 4 1 3\n3 1 4 2\n");
        let cols10 = listing(
            10,
            &SolveOptions { threads: 1, format: BoardFormat::Cols, limit: Some(1), ..Default::default() },
        );
        assert_eq!(cols10, b"1 3 6 8 10 5 9 2 4 7\n");
    }

    #[test]
    fn edge_sizes() {
        let list = |n, format| listing(n, &SolveOptions { threads: 2, format, ..Default::default() });
        for n in [2, 3] {
            assert_eq!(list(n, BoardFormat::Board), b"");
            assert_eq!(list(n, BoardFormat::Cols), b"");
            assert_eq!(list(n, BoardFormat::Leetcode), b"[]\n");
        }
        assert_eq!(list(1, BoardFormat::Board), b"Q\n");
        assert_eq!(list(1, BoardFormat::Cols), b"1\n");
        assert_eq!(list(1, BoardFormat::Leetcode), b"[[\"Q\"]]\n");
        // n = 0: one solution, the empty board.
        assert_eq!(list(0, BoardFormat::Cols), b"\n");
        assert_eq!(list(0, BoardFormat::Leetcode), b"[[]]\n");
        assert_eq!(solutions(0).unwrap().collect::<Vec<_>>(), vec![Vec::<u8>::new()]);
    }

    #[test]
    fn bad_options_are_errors() {
        let err = |o: SolveOptions| Stream::new(8, &o).err();
        assert_eq!(err(SolveOptions { threads: 0, ..Default::default() }), Some(Error::ZeroThreads));
        assert_eq!(
            err(SolveOptions { split_depth: Some(0), ..Default::default() }),
            Some(Error::BadSplitDepth { depth: 0 })
        );
        assert_eq!(Stream::new(64, &SolveOptions::default()).err(), Some(Error::BoardTooLarge { n: 64 }));
    }

    #[test]
    fn auto_depth_bounds_the_work_per_subproblem() {
        // n = 16 in cols: 14,772,512 × ~40 bytes over ≥ 2,048 subproblems of ≤ 2 MiB each.
        let d = stream_split_depth(16, 2, 48).unwrap();
        let subs = ordered_subproblems(16, d, false).unwrap().len();
        assert!((2048..=MAX_STREAM_SUBPROBLEMS).contains(&subs), "depth {d}: {subs}");
        // Beyond the table the depth stops at the subproblem cap.
        let d = stream_split_depth(40, 2, 120).unwrap();
        assert!(ordered_subproblems(40, d, false).unwrap().len() <= MAX_STREAM_SUBPROBLEMS);
        assert!(d >= 3);
        assert_eq!(stream_split_depth(1, 8, 1), Ok(1));
    }

    /// Break-it round of 2026-12-03, findings 1 and 8: `threads` past usize::MAX / 4 divided by
    /// zero in the depth choice (a panic in release builds), and a listing started every thread
    /// it was given, even for fewer subproblems (`solve 1 -j 4096`: 75 s). The workers are at
    /// most the subproblems now, so any thread count lists the boards.
    #[test]
    fn any_thread_count_lists_the_boards() {
        for threads in [1usize << 62, usize::MAX, 4096] {
            let options = SolveOptions { threads, ..SolveOptions::default() };
            let boards = Solutions::new(8, &options).unwrap().count();
            assert_eq!(boards, 92, "{threads} threads");
            assert_eq!(Solutions::new(1, &options).unwrap().count(), 1, "{threads} threads");
        }
        assert!(stream_split_depth(8, usize::MAX, 48).is_ok());
    }

    /// Issue 32, finding 2: `ordered_subproblems(64, …)` made prefixes of a board whose masks
    /// wrapped; both public helpers refuse n > 63 now.
    #[test]
    fn the_listing_helpers_refuse_boards_past_max_n() {
        assert_eq!(ordered_subproblems(64, 2, false), Err(Error::BoardTooLarge { n: 64 }));
        assert_eq!(ordered_subproblems(200, 1, true), Err(Error::BoardTooLarge { n: 200 }));
        assert_eq!(stream_split_depth(64, 2, 48), Err(Error::BoardTooLarge { n: 64 }));
        assert_eq!(ordered_subproblems(8, 1, false).map(|s| s.len()), Ok(8));
        assert_eq!(ordered_subproblems(8, 1, true).map(|s| s.len()), Ok(4));
    }
}

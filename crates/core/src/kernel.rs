//! The sequential bitmask search: no rayon, no I/O, no allocation.
//!
//! A partial board whose first rows are filled is described by three `u64` masks, one bit per
//! column of the next empty row: `cols` (columns already taken), `ld` and `rd` (squares of the
//! next row attacked along a diagonal or an anti-diagonal). Placing a queen on bit `b` moves to the
//! row below with `cols | b`, `(ld | b) << 1` and `(rd | b) >> 1`: each diagonal direction shifts by
//! one column per row. The free squares of a row are `full & !(cols | ld | rd)`, and the lowest set
//! bit (`x & x.wrapping_neg()`) picks the next column to try. This is the classic formulation of
//! M. Richards, "Backtracking algorithms in MCPL using bit patterns and recursion" (1997), also
//! used by J. Somers' counter.
//!
//! [`count_completions`] counts; [`for_each_completion`] walks the same tree and hands each
//! solution to a callback (for listing boards, see [`crate::enumerate`]).
//!
//! Masks are passed by value, so the recursion touches no memory but its own stack frame.
//!
//! # Why `u64` per subproblem is exact
//! A single subproblem's count is kept in a `u64`. Reaching 2^64 would take at least 2^64 leaf
//! visits of one sequential search, about 1,700 years at 3·10^8 nodes per second; the parallel
//! sum over subproblems is exact in `u128` (see [`crate::Tally`]).

use std::ops::ControlFlow;

use crate::Error;
use crate::arch::{Level, multiversion};

pub use crate::limits::MAX_N;

/// Returns the mask with the low `n` bits set: every column of an `n`-column board, for the
/// `full` argument of [`count_completions`] and [`for_each_completion`].
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`MAX_N`] (a shift unchecked here made `full_mask(65)` 1 and
/// `full_mask(200)` 255, and so counted Q(8) for n = 72).
///
/// # Examples
/// ```
/// # // The building blocks are public with the `internals` feature only.
/// # #[cfg(feature = "internals")] {
/// use nqueens::kernel::board_mask;
/// assert_eq!(board_mask(8), Ok(0xff));
/// assert!(board_mask(72).is_err());
/// # }
/// ```
#[cfg(any(test, feature = "internals"))]
pub fn board_mask(n: u32) -> Result<u64, Error> {
    crate::check_n(n)?;
    Ok(full_mask(n))
}

/// [`board_mask`] unchecked, for the crate's own plans, which check n once when they are made:
/// `n` must be at most [`MAX_N`] (checked in debug builds only).
#[inline]
pub(crate) const fn full_mask(n: u32) -> u64 {
    debug_assert!(n <= MAX_N);
    if n == 0 { 0 } else { u64::MAX >> (64 - n) }
}

/// Returns the number of ways to complete a partial board, and adds the number of queen
/// placements the search makes (search-tree nodes below this board) to `nodes` when `NODES` is
/// true.
///
/// `full` has one bit per column (see [`board_mask`]); `cols`, `ld`, `rd` are the masks of the
/// next empty row as described in the module docs. A board with every column taken
/// (`cols == full`) is complete and counts 1. The count is exact (see the module docs).
///
/// With `NODES = false` the node counter is never touched, and the compiler removes it: the
/// counting path pays nothing for the statistics path.
///
/// The search runs in the copy for `level` (`multiversion!`): on x86-64 the AVX2 and AVX-512
/// copies are compiled with BMI1 and POPCNT among their features (`blsi`/`blsr`/`andn` pick and
/// clear the lowest free column in one instruction each). Every copy is the same source.
///
/// # Examples
/// ```
/// # // The building blocks are public with the `internals` feature only.
/// # #[cfg(feature = "internals")] {
/// use nqueens::arch::Level;
/// use nqueens::kernel::{board_mask, count_completions};
/// let mut nodes = 0;
/// // The empty 8×8 board has 92 completions (OEIS A000170).
/// assert_eq!(count_completions::<false>(Level::best(), board_mask(8)?, 0, 0, 0, &mut nodes), 92);
/// # }
/// # Ok::<(), nqueens::Error>(())
/// ```
#[inline]
pub fn count_completions<const NODES: bool>(
    level: Level,
    full: u64,
    cols: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    count_free::<NODES, LOOKAHEAD>(level, full & !cols, ld, rd, nodes)
}

/// The numbers of empty rows at which [`count_completions`] looks ahead, as a mask (bit k: boards
/// with k empty rows are checked with [`may_complete`]): four.
///
/// Checked once per board with four empty rows, the look-ahead drops about a third of the
/// search's placements (n = 14: 27.4 M → 19.8 M) and makes the count about 10% faster (n = 15,
/// one thread; `results/2026-11-29-d4/`); checking at five or six empty rows as well costs this
/// kernel more than it saves. The D4 counter uses its own mask (see [`crate::algo::d4::search`]).
pub const LOOKAHEAD: u64 = 1 << 4;

/// Returns true if and only if `mask` (a look-ahead mask such as [`LOOKAHEAD`]) checks boards
/// with `rows` empty rows.
#[inline(always)]
pub const fn looks_ahead(mask: u64, rows: u32) -> bool {
    rows < 64 && (mask >> rows) & 1 != 0
}

/// Returns false if a board whose free columns are `free` (one per empty row) and whose next
/// row's masks are `ld`, `rd` certainly has no completion: one of its empty rows has no square
/// free of the columns and diagonals taken so far, or one of its free columns is attacked on
/// every empty row. True says nothing (the queens still to place may attack each other).
///
/// Branch-free, about five instructions per empty row.
#[inline(always)]
pub fn may_complete(free: u64, ld: u64, rd: u64) -> bool {
    may_complete_with(free, ld, rd, |l, r| (l << 1, r >> 1))
}

/// [`may_complete`] on a board whose empty rows are not consecutive: `next` maps the diagonal
/// masks of one empty row to those of the next (a plain board shifts them by one column; a d4
/// board steps over its pre-placed rows, [`crate::algo::d4::search::may_complete`] and the
/// batched search's boards). The one scalar copy of the look-ahead; the batched search has a
/// lane-wise copy of it (`d4/batched/lanes.rs`), and [`crate::reference`] its own on purpose.
#[inline(always)]
pub fn may_complete_with(free: u64, ld: u64, rd: u64, mut next: impl FnMut(u64, u64) -> (u64, u64)) -> bool {
    let (mut l, mut r) = (ld, rd);
    let mut every_row = true;
    let mut reachable = 0u64;
    for _ in 0..free.count_ones() {
        let row = free & !(l | r);
        every_row &= row != 0;
        reachable |= row;
        (l, r) = next(l, r);
    }
    every_row & (reachable == free)
}

multiversion! {
    /// Counts the completions of a board whose empty columns are `free` (one per empty row)
    /// and whose next row's diagonal masks are `ld` and `rd`, in the copy of `level`:
    /// [`count_completions`] without the board mask, for callers that track free columns (see
    /// [`crate::algo::d4::search`]). Boards with k empty rows are checked with
    /// [`may_complete`] when bit k of `LOOK` is set.
    #[inline]
    pub(crate) fn count_free[const NODES: bool, const LOOK: u64](free: u64, ld: u64, rd: u64, nodes: &mut u64) -> u64
        => count_free_body[NODES, LOOK];
}

multiversion! {
    /// Counts the completions of a board with `rows` ≥ 3 empty rows ([`search_body`]) in the
    /// copy of `level` (for the tests: the searches call their copies through [`SearchCopies`]
    /// directly).
    #[cfg_attr(not(test), allow(dead_code))]
    fn search[const NODES: bool, const LOOK: u64](rows: u32, free: u64, ld: u64, rd: u64, nodes: &mut u64) -> u64
        => search_body[NODES, LOOK] through pub(crate) trait SearchCopies;
}

/// [`count_free`] at the level `S`.
///
/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled (the searches below alike).
#[inline(always)]
pub(crate) unsafe fn count_free_body<S: SearchCopies, const NODES: bool, const LOOK: u64>(
    free: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    match free.count_ones() {
        0 => 1,
        1 => {
            let n = (free & !(ld | rd) != 0) as u64;
            if NODES {
                *nodes += n;
            }
            n
        }
        2 => last_two::<NODES>(free, ld, rd, nodes),
        // The search looks ahead at its children; a board that starts with a checked
        // number of rows is checked here, so that every such board is checked once
        // whichever rows a splitter fixed (node counts do not depend on the split).
        rows if looks_ahead(LOOK, rows) && !may_complete(free, ld, rd) => 0,
        // SAFETY: this runs at `S`'s level.
        rows => unsafe { <S as SearchCopies>::call::<NODES, LOOK>(rows, free, ld, rd, nodes) },
    }
}

/// Counts the completions of the last two rows (`free` has two bits); compiled into each
/// caller, so with its features.
#[inline(always)]
fn last_two<const NODES: bool>(free: u64, ld: u64, rd: u64, nodes: &mut u64) -> u64 {
    let mut avail = free & !(ld | rd);
    let mut count = 0u64;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        let fits = ((free ^ bit) & !(((ld | bit) << 1) | ((rd | bit) >> 1)) != 0) as u64;
        if NODES {
            *nodes += 1 + fits;
        }
        count += fits;
    }
    count
}

/// Counts the completions of a board with `rows` ≥ 3 empty rows, two rows per call, at the
/// level `S`.
///
/// The recursion is written on *free* columns (`free = full & !cols`, so a placement is one
/// `xor`) and fixes two rows per call: LLVM does not inline a recursive function into itself, and
/// doing it by hand saves half of the calls (about 10% at n = 16). `rows` is the number of empty
/// rows (`free.count_ones()`); the last two rows are counted without a call: the row before the
/// last keeps a placement if and only if the single column left is free of both diagonals on
/// the last row.
///
/// # Safety
/// As [`count_free_body`].
#[inline(always)]
unsafe fn search_body<S: SearchCopies, const NODES: bool, const LOOK: u64>(
    rows: u32,
    free: u64,
    ld: u64,
    rd: u64,
    nodes: &mut u64,
) -> u64 {
    let mut avail = free & !(ld | rd);
    let mut count = 0u64;
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        if NODES {
            *nodes += 1;
        }
        let f1 = free ^ bit;
        let l1 = (ld | bit) << 1;
        let r1 = (rd | bit) >> 1;
        if rows == 3 {
            count += last_two::<NODES>(f1, l1, r1, nodes);
            continue;
        }
        if looks_ahead(LOOK, rows - 1) && !may_complete(f1, l1, r1) {
            continue;
        }
        let mut a1 = f1 & !(l1 | r1);
        while a1 != 0 {
            let b1 = a1 & a1.wrapping_neg();
            a1 ^= b1;
            if NODES {
                *nodes += 1;
            }
            let f2 = f1 ^ b1;
            let l2 = (l1 | b1) << 1;
            let r2 = (r1 | b1) >> 1;
            if looks_ahead(LOOK, rows - 2) && !may_complete(f2, l2, r2) {
                continue;
            }
            count += if rows == 4 {
                last_two::<NODES>(f2, l2, r2, nodes)
            } else {
                // SAFETY: this runs at `S`'s level: its own copy.
                unsafe { <S as SearchCopies>::call::<NODES, LOOK>(rows - 2, f2, l2, r2, nodes) }
            };
        }
    }
    count
}

/// Calls `visit` with every completion of a partial board, in lexicographic order (the next
/// row's queen in its leftmost free column first), and stops as soon as `visit` returns
/// [`ControlFlow::Break`]; returns `Break` if and only if `visit` did.
///
/// The search is the one of [`count_completions`] (same masks, same step, same shortcut for the
/// row before the last), with the column of each placed queen written to `path[row]` on the way
/// down. On entry `path[..depth]` holds the fixed rows (the prefix whose masks are `cols`, `ld`,
/// `rd`); each call of `visit` gets `&path[..n]`, the 0-based column of the queen in every row
/// of a solution, n = `full.count_ones()`. `path` has 64 entries because n ≤ [`MAX_N`]; nothing
/// is allocated. `depth` must equal the number of set bits of `cols`.
///
/// # Errors
/// [`Error::BoardTooLarge`] (naming `depth` plus the free columns of `full`) if the rows fixed
/// and the rows left are more than [`MAX_N`], which `path` could not hold (an unchecked
/// `depth` of 61 on a board of 8 free columns indexed past it).
///
/// # Examples
/// ```
/// # // The building blocks are public with the `internals` feature only.
/// # #[cfg(feature = "internals")] {
/// use std::ops::ControlFlow;
/// use nqueens::kernel::{board_mask, for_each_completion};
/// let mut seen = Vec::new();
/// let mut path = [0u8; 64];
/// let _ = for_each_completion(board_mask(4)?, 0, 0, 0, &mut path, 0, &mut |q: &[u8]| {
///     seen.push(q.to_vec());
///     ControlFlow::Continue(())
/// })?;
/// assert_eq!(seen, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
/// # }
/// # Ok::<(), nqueens::Error>(())
/// ```
#[inline]
pub fn for_each_completion<F>(
    full: u64,
    cols: u64,
    ld: u64,
    rd: u64,
    path: &mut [u8; 64],
    depth: usize,
    visit: &mut F,
) -> Result<ControlFlow<()>, Error>
where
    F: FnMut(&[u8]) -> ControlFlow<()>,
{
    // Checked once here, not in the recursion: `enumerate` writes path[depth..] one row a level.
    let rows = depth.saturating_add((full & !cols).count_ones() as usize);
    if rows > MAX_N as usize {
        return Err(Error::BoardTooLarge { n: u32::try_from(rows).unwrap_or(u32::MAX) });
    }
    Ok(each_completion(full, cols, ld, rd, path, depth, visit))
}

/// [`for_each_completion`] unchecked, for the crate's listings, whose boards are at most
/// [`MAX_N`] rows: `depth` plus the free columns of `full` must be at most 64.
#[inline]
pub(crate) fn each_completion<F>(
    full: u64,
    cols: u64,
    ld: u64,
    rd: u64,
    path: &mut [u8; 64],
    depth: usize,
    visit: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[u8]) -> ControlFlow<()>,
{
    if cols == full {
        return visit(&path[..depth]);
    }
    enumerate(full, cols, ld, rd, path, depth, visit)
}

/// The recursion behind [`for_each_completion`]; `cols != full` on entry.
fn enumerate<F>(
    full: u64,
    cols: u64,
    ld: u64,
    rd: u64,
    path: &mut [u8; 64],
    depth: usize,
    visit: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[u8]) -> ControlFlow<()>,
{
    let mut avail = full & !(cols | ld | rd);
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        path[depth] = bit.trailing_zeros() as u8;
        let c = cols | bit;
        let l = (ld | bit) << 1;
        let r = (rd | bit) >> 1;
        let rest = full & !c;
        if rest & rest.wrapping_sub(1) == 0 {
            // At most one column left, as in `search`: the last row takes it if it is free.
            if rest == 0 {
                visit(&path[..depth + 1])?;
            } else if rest & !(l | r) != 0 {
                path[depth + 1] = rest.trailing_zeros() as u8;
                visit(&path[..depth + 2])?;
            }
        } else {
            enumerate(full, c, l, r, path, depth + 1, visit)?;
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mask_has_n_bits() {
        for n in 0..=MAX_N {
            assert_eq!(full_mask(n).count_ones(), n);
        }
        assert_eq!(full_mask(1), 1);
        assert_eq!(full_mask(63), u64::MAX >> 1);
    }

    /// Issue 32, finding 2: `full_mask(65)` was 1 and `full_mask(200)` 255, so that
    /// `count_completions(full_mask(72), …)` returned 92, Q(8); the public mask is checked.
    #[test]
    fn the_public_mask_refuses_boards_past_max_n() {
        assert_eq!(board_mask(63), Ok(u64::MAX >> 1));
        assert_eq!(board_mask(0), Ok(0));
        for n in [64, 65, 72, 200, u32::MAX] {
            assert_eq!(board_mask(n), Err(Error::BoardTooLarge { n }));
        }
        assert_eq!(
            board_mask(72).unwrap_err().to_string(),
            "board size 72 is too large: the u64 masks allow n <= 63"
        );
    }

    /// Issue 32, finding 3: `for_each_completion` indexed `path` past its 64 entries when
    /// `depth` plus the free rows passed 64; now an error, before any row is written.
    #[test]
    fn a_completion_walk_past_the_path_is_refused() {
        let mut path = [0u8; 64];
        let mut calls = 0;
        let got = for_each_completion(full_mask(8), 0, 0, 0, &mut path, 61, &mut |_: &[u8]| {
            calls += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((got, calls, path), (Err(Error::BoardTooLarge { n: 69 }), 0, [0; 64]));
        let got = for_each_completion(u64::MAX, 0, 0, 0, &mut path, usize::MAX, &mut |_: &[u8]| {
            ControlFlow::Continue(())
        });
        assert_eq!(got, Err(Error::BoardTooLarge { n: u32::MAX }));
        // 63 rows in all still fit: row 62 fixed by the caller, the last row completes it.
        let mut seen = Vec::new();
        let got = for_each_completion(1, 0, 0, 0, &mut path, 62, &mut |q: &[u8]| {
            seen.push(q.len());
            ControlFlow::Continue(())
        });
        assert_eq!((got, seen), (Ok(ControlFlow::Continue(())), vec![63]));
    }

    #[test]
    fn empty_boards_match_a000170() {
        let known = [1u64, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
        for (n, &q) in known.iter().enumerate() {
            let mut nodes = 0;
            assert_eq!(
                count_completions::<false>(Level::best(), full_mask(n as u32), 0, 0, 0, &mut nodes),
                q,
                "n = {n}"
            );
        }
    }

    #[test]
    fn node_count_matches_the_reference_tree() {
        // Without the look-ahead the independent backtracker counts the tree of the C reference
        // in shared/anchors (mirror_ref -DCOUNT_NODES 14 full: 27,358,553 nodes with the root);
        // with it, the placements of this search, for boards small and large.
        let all: Vec<usize> = (0..14).collect();
        assert_eq!(crate::reference::tree_nodes(14, &all, 0) + 1, 27_358_553);
        for n in 0..=14u32 {
            let mut nodes = 0;
            let q = count_completions::<true>(Level::best(), full_mask(n), 0, 0, 0, &mut nodes);
            assert_eq!(q, crate::reference::backtrack_count(n), "n = {n}");
            let all: Vec<usize> = (0..n as usize).collect();
            let want = crate::reference::tree_nodes(n, &all, LOOKAHEAD);
            assert_eq!(nodes, want, "n = {n}");
        }
    }

    #[test]
    fn look_ahead_keeps_every_completable_board() {
        // Every board with four empty rows that has a completion passes the check.
        for n in 4..=10u32 {
            let full = full_mask(n);
            let all: Vec<u32> = (0..n).collect();
            let mut stack = vec![(0u32, 0u64, 0u64, 0u64)];
            while let Some((row, cols, ld, rd)) = stack.pop() {
                if n - row == 4 {
                    let completions = count_completions::<false>(Level::best(), full, cols, ld, rd, &mut 0);
                    let plain = search_portable_plain(full & !cols, ld, rd);
                    assert_eq!(completions, plain);
                    if plain > 0 {
                        assert!(may_complete(full & !cols, ld, rd), "n = {n}");
                    }
                    continue;
                }
                for &c in &all {
                    let bit = 1u64 << c;
                    if (cols | ld | rd) & bit == 0 {
                        stack.push((row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1));
                    }
                }
            }
        }
    }

    /// A plain recursion without look-ahead, for the test above.
    fn search_portable_plain(free: u64, ld: u64, rd: u64) -> u64 {
        if free == 0 {
            return 1;
        }
        let mut avail = free & !(ld | rd);
        let mut count = 0;
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            count += search_portable_plain(free ^ bit, (ld | bit) << 1, (rd | bit) >> 1);
        }
        count
    }

    #[test]
    fn portable_and_feature_copies_agree() {
        for n in 3..=11u32 {
            let full = full_mask(n);
            let mut a = 0;
            let portable = search::<true, LOOKAHEAD>(Level::portable(), n, full, 0, 0, &mut a);
            assert_eq!(portable as u128, crate::reference::backtrack_count(n) as u128, "n = {n}");
            for level in Level::available() {
                let mut b = 0;
                let fast = search::<true, LOOKAHEAD>(level, n, full, 0, 0, &mut b);
                assert_eq!((fast, b), (portable, a), "{level} n = {n}");
            }
        }
    }

    #[test]
    fn partial_boards_of_every_depth() {
        // A queen in row 0, column 1 of a 4×4 board leaves one solution; so does column 2.
        let mut nodes = 0;
        let b = 1u64 << 1;
        assert_eq!(count_completions::<true>(Level::best(), full_mask(4), b, b << 1, b >> 1, &mut nodes), 1);
        // A full board counts 1; a board with one empty row counts its free squares (0 or 1).
        assert_eq!(
            count_completions::<false>(Level::best(), full_mask(4), full_mask(4), 0, 0, &mut nodes),
            1
        );
        assert_eq!(count_completions::<false>(Level::best(), full_mask(4), 0b0111, 0, 0, &mut nodes), 1);
        assert_eq!(count_completions::<false>(Level::best(), full_mask(4), 0b0111, 0b1000, 0, &mut nodes), 0);
    }

    #[test]
    fn the_counting_path_leaves_nodes_alone() {
        let mut nodes = 7;
        count_completions::<false>(Level::best(), full_mask(10), 0, 0, 0, &mut nodes);
        assert_eq!(nodes, 7);
    }

    #[test]
    fn enumeration_matches_the_reference_in_order() {
        use crate::reference::backtrack_each;
        for n in 0..=10u32 {
            let mut want: Vec<Vec<u8>> = Vec::new();
            backtrack_each(n, |q| want.push(q.iter().map(|&c| c as u8).collect()));
            let mut got: Vec<Vec<u8>> = Vec::new();
            let mut path = [0u8; 64];
            let flow = for_each_completion(full_mask(n), 0, 0, 0, &mut path, 0, &mut |q: &[u8]| {
                got.push(q.to_vec());
                ControlFlow::Continue(())
            });
            assert_eq!(flow, Ok(ControlFlow::Continue(())));
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn enumeration_stops_when_asked_and_starts_from_a_prefix() {
        let mut path = [0u8; 64];
        let mut seen = 0;
        let flow = for_each_completion(full_mask(8), 0, 0, 0, &mut path, 0, &mut |_: &[u8]| {
            seen += 1;
            if seen == 5 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        assert_eq!((flow, seen), (Ok(ControlFlow::Break(())), 5));
        // Row 0 fixed in column 0 (bit 0): the 4 solutions of 8 queens that start with 1.
        let mut path = [0u8; 64];
        path[0] = 0;
        let mut got = Vec::new();
        let _ = for_each_completion(full_mask(8), 1, 1 << 1, 0, &mut path, 1, &mut |q: &[u8]| {
            got.push(q.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
        assert!(got.iter().all(|q| q[0] == 0 && q.len() == 8));
    }
}

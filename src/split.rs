//! The work splitter: fixes the first rows of the board to make independent subproblems.
//!
//! A subproblem is a *prefix* (the columns of the queens in rows `0..depth`) plus the three masks
//! of the next empty row (see [`crate::kernel`]) and a *weight*: how many solutions of the whole
//! board each completion stands for. Summing `weight × completions` over all subproblems gives
//! Q(n) exactly.
//!
//! # Mirror halving
//! Reflecting a board left to right maps solutions to solutions, and a solution's row-0 queen in
//! column `c` to column `n-1-c`. So only the row-0 queens in the left half (`c < n/2`) are
//! searched, each with weight 2. For odd n the middle column of row 0 is its own mirror image; there
//! the row-1 queen is restricted to the left half (it cannot be in the middle column too), again
//! with weight 2. This is the scheme of the C reference in `shared/anchors/mirror_ref.c` and of
//! J. Somers' counter. n = 0 (the empty board, Q(0) = 1 by the OEIS A000170 convention) and n = 1
//! are searched whole with weight 1.
//!
//! # Split depth
//! After the symmetry seeds, every further fixed row multiplies the number of subproblems by
//! about n - 2·depth (the free columns of that row), so a few rows are enough: at n = 16, depth 2
//! gives 98 subproblems and depth 3 about 1,100. [`auto_split_depth`] takes the smallest depth
//! with at least [`SUBPROBLEMS_PER_THREAD`] subproblems per thread and never fewer than
//! [`MIN_SUBPROBLEMS`]: subproblem costs differ by 10× or more (a queen near the edge leaves more
//! freedom than one in the middle), and rayon's work stealing evens that out only when each thread
//! has dozens of them to steal. The floor also keeps the subproblem list (and so a checkpoint
//! journal or a shard plan) the same for every thread count up to 64.

use crate::kernel::{self, full_mask};

/// The most rows a prefix can fix. 16 rows at n = 16 is a whole board; for larger n, a depth of
/// 4 already makes over a million subproblems.
pub const MAX_SPLIT_DEPTH: u32 = 16;

/// The most subproblems a plan holds (about 200 MB of prefixes): expansion stops there, and a
/// plan that reaches it is refused. The automatic depth aims far lower (at most 32 × 4,096).
pub const MAX_SUBPROBLEMS: usize = 1 << 22;

/// The subproblems [`auto_split_depth`] aims for per worker thread.
pub const SUBPROBLEMS_PER_THREAD: usize = 32;

/// The fewest subproblems [`auto_split_depth`] aims for, whatever the thread count (32 × 64).
pub const MIN_SUBPROBLEMS: usize = 2048;

/// The columns of the queens in the first rows of a board: `cols()[r]` is the 0-based column of
/// the queen in row `r`. At most [`MAX_SPLIT_DEPTH`] rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Prefix {
    len: u8,
    cols: [u8; MAX_SPLIT_DEPTH as usize],
}

impl Prefix {
    /// Returns the prefix with one more row whose queen is in column `col` (0-based).
    ///
    /// # Panics
    /// If the prefix already holds [`MAX_SPLIT_DEPTH`] rows.
    pub fn with(mut self, col: u32) -> Prefix {
        self.cols[self.len as usize] = col as u8;
        self.len += 1;
        self
    }

    /// Returns the columns of the fixed queens, row 0 first.
    pub fn cols(&self) -> &[u8] {
        &self.cols[..self.len as usize]
    }

    /// Returns the number of fixed rows.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Returns true if and only if no row is fixed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One independent piece of the search: a board with its first rows fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subproblem {
    /// The fixed queens, row 0 first.
    pub prefix: Prefix,
    /// Columns taken by the prefix (bit c = column c).
    pub cols: u64,
    /// Squares of the next empty row attacked along a diagonal (shifted left once per row).
    pub ld: u64,
    /// Squares of the next empty row attacked along an anti-diagonal (shifted right once per row).
    pub rd: u64,
    /// How many solutions of the whole board each completion of this prefix stands for.
    pub weight: u32,
}

impl Subproblem {
    /// The empty board of any size, weight 1.
    pub const ROOT: Subproblem = Subproblem {
        prefix: Prefix { len: 0, cols: [0; MAX_SPLIT_DEPTH as usize] },
        cols: 0,
        ld: 0,
        rd: 0,
        weight: 1,
    };

    /// Returns this subproblem with one more queen, in column `col` of the next row; the caller
    /// checks that the square is free.
    pub fn place(&self, col: u32) -> Subproblem {
        let bit = 1u64 << col;
        Subproblem {
            prefix: self.prefix.with(col),
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
            weight: self.weight,
        }
    }

    /// Returns the free squares of the next row of an `n`-column board, one bit per column.
    pub fn free(&self, n: u32) -> u64 {
        full_mask(n) & !(self.cols | self.ld | self.rd)
    }

    /// Returns the number of completions of this prefix on an `n`-column board (unweighted), and
    /// adds the search's queen placements to `nodes` when `NODES` is true.
    pub fn count<const NODES: bool>(&self, n: u32, nodes: &mut u64) -> u64 {
        kernel::count_completions::<NODES>(full_mask(n), self.cols, self.ld, self.rd, nodes)
    }
}

/// Returns the subproblems of the mirror-halved search of an `n`×`n` board with `depth` rows
/// fixed (at least the rows the symmetry seeds fix, at most `n` and [`MAX_SPLIT_DEPTH`]), in a
/// deterministic order: lexicographic by the prefix's columns.
///
/// Prefixes that leave no free square are dropped, so every subproblem can still be completed
/// as far as its fixed rows go. Σ weight × completions = Q(n) (OEIS A000170).
pub fn mirror_subproblems(n: u32, depth: u32) -> Vec<Subproblem> {
    mirror_subproblems_counting(n, depth).0
}

/// Returns [`mirror_subproblems`] and the number of queen placements the splitter made to build
/// them (every node of the prefix tree below the empty board, dead ends included). Adding the
/// search's nodes below the prefixes gives the nodes of the whole mirror-halved tree, whatever
/// the split depth.
pub fn mirror_subproblems_counting(n: u32, depth: u32) -> (Vec<Subproblem>, u64) {
    assert!(n <= kernel::MAX_N, "board side {n} is beyond the masks");
    let seeds = mirror_seeds(n);
    // Row 0's left half, plus (odd n) the middle column and its row-1 children.
    let mut nodes = match n {
        0 | 1 => 0,
        _ if n.is_multiple_of(2) => u64::from(n / 2),
        _ => u64::from(n / 2) + 1 + (seeds.len() - n as usize / 2) as u64,
    };
    let subproblems = expand_counting(seeds, n, depth, &mut nodes);
    (subproblems, nodes)
}

/// Returns the symmetry seeds of mirror halving (see the module docs), in column order.
fn mirror_seeds(n: u32) -> Vec<Subproblem> {
    if n <= 1 {
        return vec![Subproblem::ROOT];
    }
    let half = n / 2;
    let mut seeds: Vec<Subproblem> =
        (0..half).map(|c| Subproblem { weight: 2, ..Subproblem::ROOT }.place(c)).collect();
    if n % 2 == 1 {
        let middle = Subproblem::ROOT.place(half);
        let mut free = middle.free(n) & full_mask(half);
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            seeds.push(Subproblem { weight: 2, ..middle.place(col) });
        }
    }
    seeds
}

/// Extends each seed row by row until it has `depth` rows fixed (or the board is full), keeping
/// the order: the children of a prefix follow it, left column first.
pub fn expand(seeds: Vec<Subproblem>, n: u32, depth: u32) -> Vec<Subproblem> {
    expand_counting(seeds, n, depth, &mut 0)
}

/// [`expand`], adding the number of queen placements it makes (dead ends included) to `nodes`.
pub fn expand_counting(seeds: Vec<Subproblem>, n: u32, depth: u32, nodes: &mut u64) -> Vec<Subproblem> {
    let depth = depth.min(n).min(MAX_SPLIT_DEPTH);
    let mut out = Vec::with_capacity(seeds.len());
    for seed in seeds {
        expand_one(seed, n, depth, &mut out, nodes);
    }
    out
}

fn expand_one(sub: Subproblem, n: u32, depth: u32, out: &mut Vec<Subproblem>, nodes: &mut u64) {
    if out.len() >= MAX_SUBPROBLEMS {
        return;
    }
    // The search's look-ahead, applied here too so that node counts do not depend on the split.
    let rest = full_mask(n) & !sub.cols;
    if kernel::looks_ahead(kernel::LOOKAHEAD, rest.count_ones())
        && !kernel::may_complete(rest, sub.ld, sub.rd)
    {
        return;
    }
    if sub.prefix.len() as u32 >= depth {
        out.push(sub);
        return;
    }
    let mut free = sub.free(n);
    while free != 0 {
        let col = free.trailing_zeros();
        free &= free - 1;
        *nodes += 1;
        expand_one(sub.place(col), n, depth, out, nodes);
    }
}

/// Returns the smallest split depth whose subproblem list, as made by `make(depth)`, holds at
/// least `SUBPROBLEMS_PER_THREAD × threads` and at least [`MIN_SUBPROBLEMS`] subproblems, or the
/// deepest depth there is (see the module docs for why).
pub fn auto_split_depth(n: u32, threads: usize, make: impl Fn(u32) -> usize) -> u32 {
    split_depth_for(n, target_subproblems(threads), make)
}

/// Returns how many subproblems the automatic split aims for on `threads` threads:
/// [`SUBPROBLEMS_PER_THREAD`] per thread, and at least [`MIN_SUBPROBLEMS`].
pub fn target_subproblems(threads: usize) -> usize {
    SUBPROBLEMS_PER_THREAD.saturating_mul(threads).max(MIN_SUBPROBLEMS)
}

/// Returns the smallest split depth whose subproblem list, as made by `make(depth)`, holds at
/// least `target` subproblems, or the deepest depth there is.
pub fn split_depth_for(n: u32, target: usize, make: impl Fn(u32) -> usize) -> u32 {
    let deepest = n.min(MAX_SPLIT_DEPTH);
    (1..=deepest).find(|&d| make(d) >= target).unwrap_or(deepest.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::backtrack_count;

    fn mirror_total(n: u32, depth: u32) -> u128 {
        mirror_subproblems(n, depth)
            .iter()
            .map(|s| s.weight as u128 * s.count::<false>(n, &mut 0) as u128)
            .sum()
    }

    #[test]
    fn every_split_depth_gives_the_same_count() {
        for n in 0..=11 {
            let want = backtrack_count(n) as u128;
            for depth in 0..=n + 1 {
                assert_eq!(mirror_total(n, depth), want, "n = {n}, depth = {depth}");
            }
        }
    }

    #[test]
    fn nodes_of_the_halved_tree_do_not_depend_on_the_split_depth() {
        // Even n: the halved tree is row 0's left half, whose placements the independent
        // backtracker counts (with the kernel's look-ahead). Odd n: the same for every depth.
        for n in [1u32, 2, 3, 4, 5, 8, 9, 11, 12, 13] {
            let (subs, mut want) = mirror_subproblems_counting(n, 1);
            for s in &subs {
                s.count::<true>(n, &mut want);
            }
            if n % 2 == 0 {
                let half: Vec<usize> = (0..n as usize / 2).collect();
                assert_eq!(want, crate::reference::tree_nodes(n, &half, kernel::LOOKAHEAD), "n = {n}");
            }
            for depth in 1..=n {
                let (subs, mut nodes) = mirror_subproblems_counting(n, depth);
                for s in &subs {
                    s.count::<true>(n, &mut nodes);
                }
                assert_eq!(nodes, want, "n = {n}, depth = {depth}");
            }
        }
    }

    #[test]
    fn seeds_halve_the_first_row() {
        let seeds = mirror_seeds(8);
        assert_eq!(seeds.iter().map(|s| s.prefix.cols()[0]).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        // n = 5: columns 0 and 1, then the middle column 2 with the row-1 queen in column 0
        // (column 1 is attacked diagonally).
        let seeds = mirror_seeds(5);
        let prefixes: Vec<Vec<u8>> = seeds.iter().map(|s| s.prefix.cols().to_vec()).collect();
        assert_eq!(prefixes, vec![vec![0], vec![1], vec![2, 0]]);
        assert!(seeds.iter().all(|s| s.weight == 2));
    }

    #[test]
    fn expansion_keeps_lexicographic_order() {
        let subs = mirror_subproblems(10, 3);
        let prefixes: Vec<Vec<u8>> = subs.iter().map(|s| s.prefix.cols().to_vec()).collect();
        let mut sorted = prefixes.clone();
        sorted.sort();
        assert_eq!(prefixes, sorted);
        assert!(subs.iter().all(|s| s.prefix.len() == 3));
    }

    #[test]
    fn auto_depth_reaches_the_target_or_the_bottom() {
        for threads in [1, 2, 8, 64, 200] {
            let d = auto_split_depth(16, threads, |d| mirror_subproblems(16, d).len());
            let target = (SUBPROBLEMS_PER_THREAD * threads).max(MIN_SUBPROBLEMS);
            assert!(mirror_subproblems(16, d).len() >= target);
            assert!(d == 1 || mirror_subproblems(16, d - 1).len() < target);
        }
        // A small board cannot reach the target: the deepest depth is taken.
        assert_eq!(auto_split_depth(4, 2, |d| mirror_subproblems(4, d).len()), 4);
        assert_eq!(auto_split_depth(0, 2, |d| mirror_subproblems(0, d).len()), 1);
    }
}

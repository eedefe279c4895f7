//! The work splitter: fixes the first rows of the board to make independent subproblems (the
//! symmetry seeds they start from belong to each algorithm: [`crate::algo::mirror`],
//! [`crate::algo::d4::constellation`]).
//!
//! A subproblem is a *prefix* (the columns of the queens in rows `0..depth`) plus the three masks
//! of the next empty row (see [`crate::kernel`]) and a *weight*: how many solutions of the whole
//! board each completion stands for. Summing `weight × completions` over all subproblems gives
//! Q(n) exactly.
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

use std::ops::ControlFlow;

use crate::Error;
use crate::arch::Level;
use crate::kernel::{self, full_mask};

pub use crate::limits::{MAX_SPLIT_DEPTH, MAX_SUBPROBLEMS};

/// The subproblems [`auto_split_depth`] aims for per worker thread.
pub const SUBPROBLEMS_PER_THREAD: usize = 32;

/// The fewest subproblems [`auto_split_depth`] aims for, whatever the thread count (32 × 64).
pub const MIN_SUBPROBLEMS: usize = 2048;

/// Returns `depth` if and only if it is a split depth a plan can be built with, 1..=[`MAX_SPLIT_DEPTH`].
///
/// # Errors
/// [`Error::BadSplitDepth`] if `depth` is 0 or more than [`MAX_SPLIT_DEPTH`].
pub fn check_depth(depth: u32) -> Result<u32, Error> {
    if depth == 0 || depth > MAX_SPLIT_DEPTH { Err(Error::BadSplitDepth { depth }) } else { Ok(depth) }
}

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
    /// # Errors
    /// [`Error::BadSplitDepth`] (naming the depth it would have) if the prefix already holds
    /// [`MAX_SPLIT_DEPTH`] rows; [`Error::BadColumn`] if `col` is not below [`crate::MAX_N`].
    pub fn with(self, col: u32) -> Result<Prefix, Error> {
        if self.len as u32 >= MAX_SPLIT_DEPTH {
            return Err(Error::BadSplitDepth { depth: self.len as u32 + 1 });
        }
        if col >= crate::MAX_N {
            return Err(Error::BadColumn { col: col.into(), n: crate::MAX_N });
        }
        Ok(self.push(col))
    }

    /// [`Prefix::with`] unchecked, for the crate's expansions, which stop at [`MAX_SPLIT_DEPTH`]
    /// rows and place only columns of their board.
    #[inline]
    pub(crate) fn push(mut self, col: u32) -> Prefix {
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

    /// Returns the number of ways to place `rows` more queens below this prefix on the `n`×`n`
    /// board, one a row, each on a square the queens above leave free (no look-ahead; fewer
    /// rows where the board ends): the shard planner's estimate of a subproblem's cost.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::BadColumn`] if a queen of
    /// the prefix is off the board (column `n` or more); [`Error::BadSplitDepth`] if the prefix
    /// and `rows` are more than [`MAX_SPLIT_DEPTH`] rows (a prefix holds no more).
    ///
    /// # Examples
    /// ```
    /// use nqueens::plan::Prefix;
    /// let empty = Prefix::default();
    /// assert_eq!(empty.extensions(8, 2), Ok(42)); // 8·7 pairs of squares less 14 on a diagonal
    /// assert_eq!(empty.with(0).unwrap().extensions(8, 1), Ok(6));
    /// ```
    pub fn extensions(&self, n: u32, rows: u32) -> Result<u64, Error> {
        crate::check_n(n)?;
        if let Some(&col) = self.cols().iter().find(|&&c| u32::from(c) >= n) {
            return Err(Error::BadColumn { col: col.into(), n });
        }
        let sub = self.cols().iter().fold(Subproblem::ROOT, |s, &c| s.place(c.into()));
        extensions(&sub, n, rows)
    }
}

/// One independent piece of the search: a board with its first rows fixed.
///
/// Its count, free squares and expansions are the crate's own (they take the plan's n, checked
/// when the plan is made); what stays public is checked: [`Prefix::extensions`],
/// [`try_expand_counting`]. Unchecked and public, `count` returned Q(8) for n = 72 (issue 32):
///
/// ```compile_fail
/// use nqueens::{arch::Level, split::Subproblem};
/// let _ = Subproblem::ROOT.count::<false>(Level::best(), 72, &mut 0);
/// ```
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

    /// Returns this subproblem with one more queen, in column `col` of the next row, unchecked:
    /// for the crate's expansions, which stop at [`MAX_SPLIT_DEPTH`] rows and place only
    /// columns of their board (checked, a prefix grows by [`Prefix::with`]).
    #[inline]
    pub(crate) fn place(&self, col: u32) -> Subproblem {
        let bit = 1u64 << col;
        Subproblem {
            prefix: self.prefix.push(col),
            cols: self.cols | bit,
            ld: (self.ld | bit) << 1,
            rd: (self.rd | bit) >> 1,
            weight: self.weight,
        }
    }

    /// Returns the free squares of the next row of an `n`-column board, one bit per column;
    /// `n` ≤ [`crate::MAX_N`], as the crate's plans check.
    pub(crate) fn free(&self, n: u32) -> u64 {
        full_mask(n) & !(self.cols | self.ld | self.rd)
    }

    /// Returns the number of completions of this prefix on an `n`-column board (unweighted),
    /// counted at the instruction-set `level`, and adds the search's queen placements to
    /// `nodes` when `NODES` is true; `n` ≤ [`crate::MAX_N`], as the crate's plans check (a
    /// public copy unchecked counted Q(8) for n = 72).
    pub(crate) fn count<const NODES: bool>(&self, level: Level, n: u32, nodes: &mut u64) -> u64 {
        kernel::count_completions::<NODES>(level, full_mask(n), self.cols, self.ld, self.rd, nodes)
    }
}

/// Extends each seed row by row until it has `depth` rows fixed (or the board is full), keeping
/// the order: the children of a prefix follow it, left column first; `n` ≤ [`crate::MAX_N`], as
/// the crate's plans check.
pub(crate) fn expand(seeds: Vec<Subproblem>, n: u32, depth: u32) -> Vec<Subproblem> {
    expand_counting(seeds, n, depth, &mut 0)
}

/// [`expand`], adding the number of queen placements it makes (dead ends included) to `nodes`.
pub(crate) fn expand_counting(
    seeds: Vec<Subproblem>,
    n: u32,
    depth: u32,
    nodes: &mut u64,
) -> Vec<Subproblem> {
    let depth = depth.min(n).min(MAX_SPLIT_DEPTH);
    let mut out = Vec::with_capacity(seeds.len());
    for seed in seeds {
        expand_one(seed, n, depth, &mut out, nodes);
    }
    out
}

/// Returns how many subproblems [`expand`] makes of `seeds` at `depth`, counting at most `cap`
/// of them, without storing any: what the automatic split depth compares with its target (a
/// list of millions of prefixes took 384 MB just to be counted, and aborted under
/// `prlimit --as`). `n` ≤ [`crate::MAX_N`], as the crate's plans check.
pub(crate) fn count_expanded(seeds: &[Subproblem], n: u32, depth: u32, cap: usize) -> usize {
    let depth = depth.min(n).min(MAX_SPLIT_DEPTH);
    let mut count = 0usize;
    for &seed in seeds {
        let flow = walk(seed, n, depth, true, &mut 0, &mut |_| {
            count += 1;
            if count >= cap { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        if flow.is_break() {
            break;
        }
    }
    count
}

/// `expand_counting` for a plan: counts the subproblems first (`count_expanded`; refused
/// with [`crate::Error::TooManySubproblems`] at [`MAX_SUBPROBLEMS`]), checks their memory against what the process may use
/// and reserves it fallibly ([`crate::memory::reserve`]), so that a list that does not fit is
/// refused with [`crate::Error::OutOfMemory`] (naming `what`) instead of an abort.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`crate::Error::TooManySubproblems`];
/// [`crate::Error::OutOfMemory`] if the list does not fit.
pub fn try_expand_counting(
    seeds: Vec<Subproblem>,
    n: u32,
    depth: u32,
    nodes: &mut u64,
    what: impl Fn() -> String,
) -> Result<Vec<Subproblem>, Error> {
    crate::check_n(n)?;
    let depth = depth.min(n).min(MAX_SPLIT_DEPTH);
    let len = count_expanded(&seeds, n, depth, MAX_SUBPROBLEMS);
    if len >= MAX_SUBPROBLEMS {
        return Err(Error::TooManySubproblems { n, depth });
    }
    let bytes = (len as u64).saturating_mul(std::mem::size_of::<Subproblem>() as u64);
    let mut out = crate::memory::reserve(what, len, bytes)?;
    for seed in seeds {
        expand_one(seed, n, depth, &mut out, nodes);
    }
    Ok(out)
}

fn expand_one(sub: Subproblem, n: u32, depth: u32, out: &mut Vec<Subproblem>, nodes: &mut u64) {
    // The search's look-ahead, applied here too so that node counts do not depend on the split.
    let _ = walk(sub, n, depth, true, nodes, &mut |leaf| {
        if out.len() >= MAX_SUBPROBLEMS {
            return ControlFlow::Break(());
        }
        out.push(leaf);
        ControlFlow::Continue(())
    });
}

/// Returns the number of ways to place `rows` more queens below `sub` on an `n`-column board
/// (see [`Prefix::extensions`]).
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::BadSplitDepth`] if the prefix
/// and `rows` are more than [`MAX_SPLIT_DEPTH`] rows (a [`Prefix`] holds no more).
fn extensions(sub: &Subproblem, n: u32, rows: u32) -> Result<u64, Error> {
    crate::check_n(n)?;
    let depth = (sub.prefix.len() as u32).saturating_add(rows).min(n);
    if depth > MAX_SPLIT_DEPTH {
        return Err(Error::BadSplitDepth { depth });
    }
    let mut count = 0;
    let _ = walk(*sub, n, depth, false, &mut 0, &mut |_| {
        count += 1;
        ControlFlow::Continue(())
    });
    Ok(count)
}

/// The one prefix expansion of a plain board (d4's constellations, whose rows carry events,
/// have theirs in [`crate::algo::d4::constellation`]): calls `leaf` with each extension of `sub`
/// by one queen per row down to `depth` rows fixed, in lexicographic order, adding each
/// placement to `nodes`, until `leaf` breaks. With `lookahead`, a board the kernel's look-ahead
/// rules out is dropped with its subtree.
fn walk(
    sub: Subproblem,
    n: u32,
    depth: u32,
    lookahead: bool,
    nodes: &mut u64,
    leaf: &mut impl FnMut(Subproblem) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if lookahead {
        let rest = full_mask(n) & !sub.cols;
        if kernel::looks_ahead(kernel::LOOKAHEAD, rest.count_ones())
            && !kernel::may_complete(rest, sub.ld, sub.rd)
        {
            return ControlFlow::Continue(());
        }
    }
    if sub.prefix.len() as u32 >= depth {
        return leaf(sub);
    }
    let mut free = sub.free(n);
    while free != 0 {
        let col = free.trailing_zeros();
        free &= free - 1;
        *nodes += 1;
        walk(sub.place(col), n, depth, lookahead, nodes, leaf)?;
    }
    ControlFlow::Continue(())
}

/// The free rows a step of a stepwise solve (`StepWalk`: `for_each_step`, and d4's) leaves
/// to the kernel in one call: a random board of 16 free rows took at most 0.8 s at n = 20 and
/// less at larger n (0.16 s at n = 24, 0.04 s at 32, 0.006 s at 63; 40–60 boards drawn by
/// random descent per n, mirror kernel, this project's 2-core machine), so a subproblem split
/// into such steps can stop within about a second at any n. Subproblems with at most this many
/// free rows are solved in one step.
pub const STEP_ROWS: u32 = 16;

/// Boards the step walk visits between two calls that only ask whether to go on
/// ([`Step::Poll`], `StepTree::poll`): about a millisecond of walking where no step ends
/// (n ≥ 40, where most prefixes die out before reaching their step's depth).
pub const POLL_NODES: u32 = 1 << 16;

/// What the step walk (`for_each_step`, the crate's) hands its visitor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A board with at most [`STEP_ROWS`] free rows (the masks of its next row), standing for
    /// `share` of the walk's root (each node's share divided evenly among its children).
    Board {
        /// Columns taken.
        cols: u64,
        /// Diagonal mask of the next row.
        ld: u64,
        /// Anti-diagonal mask of the next row.
        rd: u64,
        /// The fraction of the root's subtree this board stands for, in (0, 1].
        share: f64,
    },
    /// No new board: the visitor may stop the walk.
    Poll,
}

/// Walks the `n`-column board below the masks `cols`, `ld`, `rd` down to the boards with at
/// most `step_rows` free rows ([`STEP_ROWS`] in the plans), in lexicographic order, and hands each to `visit`
/// ([`Step::Board`]), with a [`Step::Poll`] every [`POLL_NODES`] boards walked, until `visit`
/// breaks. Each placement is added to `nodes` when `NODES` is true, and the kernel's look-ahead
/// drops boards as [`expand`] does, so the walk's nodes plus those of the kernel below every
/// board handed out are the nodes of the kernel below the root: the count does not depend on
/// the steps. `n` ≤ [`crate::MAX_N`], as the crate's plans check. The [`StepWalk`] of a plain
/// board (no pre-placed queens).
pub(crate) fn for_each_step<const NODES: bool>(
    n: u32,
    (cols, ld, rd): (u64, u64, u64),
    step_rows: u32,
    nodes: &mut u64,
    visit: &mut impl FnMut(Step) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut walk = StepWalk::new(PlainBoards { visit }, n, step_rows);
    walk.walk::<NODES>((cols, ld, rd), 1.0, nodes)
}

/// The boards a [`StepWalk`] descends through, and what it does with the boards it stops at: the
/// one thing that differs between the plain board (mirror: [`for_each_step`]) and a board with
/// pre-placed queens (d4: its border queens' rows are stepped over on the way down, and the
/// columns chosen are kept to rebuild the board).
pub(crate) trait StepTree {
    /// A board of the walk: the masks of its next row and whatever else the tree keeps of it
    /// (small and copied, as the masks are).
    type Board: Copy;
    /// Returns the board ready to branch on, its free columns `rest` (one per free row) given:
    /// its forced rows applied (d4's pre-placed queens), or `None` if the search's look-ahead
    /// drops it (so that the walk's nodes are the search's).
    fn settle(&self, board: Self::Board, rest: u64) -> Option<Self::Board>;
    /// Returns the board's columns taken and the diagonal and anti-diagonal masks of its next
    /// row.
    fn masks(board: &Self::Board) -> (u64, u64, u64);
    /// Returns the board with a queen placed on `bit` (one bit, free) of its next row.
    fn child(&mut self, board: &Self::Board, bit: u64) -> Self::Board;
    /// Takes a board with at most the step's free rows, standing for `share` of the walk's root
    /// (in (0, 1]); breaks to stop the walk.
    fn visit(&mut self, board: Self::Board, share: f64) -> ControlFlow<()>;
    /// Called every [`POLL_NODES`] boards walked, so that the walk can stop where no step ends;
    /// breaks to stop the walk.
    fn poll(&mut self) -> ControlFlow<()>;
}

/// The step walk of a stepwise solve, for every plan (mirror's [`for_each_step`] and d4's):
/// from a root board down to the boards with at most `step_rows` free rows, in lexicographic
/// order, each handed to the tree's [`StepTree::visit`] with its share of the root (each board's
/// share divided evenly among its children), and a [`StepTree::poll`] every [`POLL_NODES`]
/// boards walked.
pub(crate) struct StepWalk<T> {
    /// The boards and what is done with the steps.
    pub(crate) tree: T,
    full: u64,
    step_rows: u32,
    walked: u32,
}

impl<T: StepTree> StepWalk<T> {
    /// Returns the walk of `tree` on the `n`-column board (`n` ≤ [`crate::MAX_N`]) in steps of
    /// at most `step_rows` free rows.
    pub(crate) fn new(tree: T, n: u32, step_rows: u32) -> StepWalk<T> {
        StepWalk { tree, full: full_mask(n), step_rows, walked: 0 }
    }

    /// Walks the tree below `board`, which stands for `share` of the root, adding each
    /// placement to `nodes` when `NODES` is true; breaks where the tree broke.
    pub(crate) fn walk<const NODES: bool>(&mut self, board: T::Board, share: f64, nodes: &mut u64) -> ControlFlow<()> {
        self.walked += 1;
        if self.walked >= POLL_NODES {
            self.walked = 0;
            self.tree.poll()?;
        }
        let rest = self.full & !T::masks(&board).0;
        let Some(board) = self.tree.settle(board, rest) else {
            return ControlFlow::Continue(());
        };
        if rest.count_ones() <= self.step_rows {
            return self.tree.visit(board, share);
        }
        let (_, ld, rd) = T::masks(&board);
        let mut free = rest & !(ld | rd);
        let share = share / f64::from(free.count_ones().max(1));
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            if NODES {
                *nodes += 1;
            }
            let child = self.tree.child(&board, bit);
            self.walk::<NODES>(child, share, nodes)?;
        }
        ControlFlow::Continue(())
    }
}

/// The plain board's tree: no pre-placed queens, the kernel's look-ahead, each step handed to
/// `visit` as a [`Step`].
struct PlainBoards<'v, V> {
    visit: &'v mut V,
}

impl<V: FnMut(Step) -> ControlFlow<()>> StepTree for PlainBoards<'_, V> {
    type Board = (u64, u64, u64);

    #[inline(always)]
    fn settle(&self, board: Self::Board, rest: u64) -> Option<Self::Board> {
        let (_, ld, rd) = board;
        let dropped = kernel::looks_ahead(kernel::LOOKAHEAD, rest.count_ones()) && !kernel::may_complete(rest, ld, rd);
        (!dropped).then_some(board)
    }

    #[inline(always)]
    fn masks(board: &Self::Board) -> (u64, u64, u64) {
        *board
    }

    #[inline(always)]
    fn child(&mut self, &(cols, ld, rd): &Self::Board, bit: u64) -> Self::Board {
        (cols | bit, (ld | bit) << 1, (rd | bit) >> 1)
    }

    fn visit(&mut self, (cols, ld, rd): Self::Board, share: f64) -> ControlFlow<()> {
        (self.visit)(Step::Board { cols, ld, rd, share })
    }

    fn poll(&mut self) -> ControlFlow<()> {
        (self.visit)(Step::Poll)
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
/// least `target` subproblems, or the deepest depth there is; never a depth past the first whose
/// list reaches [`MAX_SUBPROBLEMS`] (the depth before it is taken, so that a large target, such
/// as K = 4,096 shards at n = 27, gets the finest plan there is rather than an error).
pub fn split_depth_for(n: u32, target: usize, make: impl Fn(u32) -> usize) -> u32 {
    let deepest = n.clamp(1, MAX_SPLIT_DEPTH);
    for d in 1..=deepest {
        let len = make(d);
        if len >= MAX_SUBPROBLEMS && d > 1 {
            return d - 1;
        }
        if len >= target {
            return d;
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::mirror::mirror_subproblems;

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

    #[test]
    fn steps_count_what_the_kernel_counts_and_shares_add_up() {
        // n = 13 at depth 2 leaves 11 free rows; steps of 8 free rows are the boards three
        // rows further down (those the look-ahead keeps), and their completions and nodes add
        // up to the kernel's on the whole subproblem.
        let n = 13;
        let full = full_mask(n);
        for sub in mirror_subproblems(n, 2) {
            let (mut want_nodes, mut got_nodes, mut walk_nodes) = (0, 0, 0);
            let want = kernel::count_completions::<true>(
                Level::best(),
                full,
                sub.cols,
                sub.ld,
                sub.rd,
                &mut want_nodes,
            );
            let (mut got, mut shares, mut boards) = (0, 0.0, 0);
            let flow = for_each_step::<true>(n, (sub.cols, sub.ld, sub.rd), 8, &mut walk_nodes, &mut |s| {
                if let Step::Board { cols, ld, rd, share } = s {
                    assert_eq!((full & !cols).count_ones(), 8);
                    got +=
                        kernel::count_completions::<true>(Level::best(), full, cols, ld, rd, &mut got_nodes);
                    shares += share;
                    boards += 1;
                }
                ControlFlow::Continue(())
            });
            assert!(flow.is_continue());
            assert_eq!((got, got_nodes + walk_nodes), (want, want_nodes), "{:?}", sub.prefix.cols());
            assert!(boards > 1 && shares > 0.0 && shares <= 1.0 + 1e-9, "{boards} {shares}");
        }
        // A board with few free rows is one step, the whole of it.
        let mut seen = Vec::new();
        let _ = for_each_step::<false>(8, (0, 0, 0), STEP_ROWS, &mut 0, &mut |s| {
            seen.push(s);
            ControlFlow::Continue(())
        });
        assert_eq!(seen, vec![Step::Board { cols: 0, ld: 0, rd: 0, share: 1.0 }]);
        // A visitor that breaks ends the walk at once.
        let mut calls = 0;
        let flow = for_each_step::<false>(30, (0, 0, 0), STEP_ROWS, &mut 0, &mut |_| {
            calls += 1;
            ControlFlow::Break(())
        });
        assert!(flow.is_break() && calls == 1);
    }

    #[test]
    fn auto_depth_stops_before_the_subproblem_limit() {
        // A target past the limit: the last depth under it, not one that a plan would refuse.
        let len = |d: u32| 10usize.pow(d + 3);
        assert_eq!(split_depth_for(27, usize::MAX, len), 3);
        assert!(len(3) < MAX_SUBPROBLEMS && len(4) >= MAX_SUBPROBLEMS);
        // Depth 1 is kept even when it is already past the limit (the plan then refuses).
        assert_eq!(split_depth_for(27, usize::MAX, |_| MAX_SUBPROBLEMS), 1);
    }

    /// Issue 32, finding 3: `Prefix::with` panicked on its 17th row; finding 2:
    /// `Subproblem::place(64)` set bit 0. Both are refused.
    #[test]
    fn prefixes_refuse_a_17th_row_and_a_column_past_the_masks() {
        let mut p = Prefix::default();
        for r in 0..MAX_SPLIT_DEPTH {
            p = p.with(r % 8).unwrap();
        }
        assert_eq!(p.len(), 16);
        assert_eq!(p.with(0), Err(Error::BadSplitDepth { depth: 17 }));
        assert_eq!(Prefix::default().with(63), Err(Error::BadColumn { col: 63, n: 63 }));
        assert_eq!(Prefix::default().with(64), Err(Error::BadColumn { col: 64, n: 63 }));
        assert_eq!(
            Prefix::default().with(64).unwrap_err().to_string(),
            "column 64 is off the board: a board of side 63 has columns 0..63"
        );
        let s = Subproblem::ROOT.place(2);
        assert_eq!((s.prefix.cols(), s.cols, s.ld, s.rd), (&[2u8][..], 0b100, 0b1000, 0b10));
        assert_eq!(Prefix::default().with(62).map(|p| p.cols().to_vec()), Ok(vec![62]));
    }

    /// A prefix's extensions are those of its subproblem, and refuse a board too large, a queen
    /// off the board and more rows than a prefix holds.
    #[test]
    fn prefix_extensions_check_the_board_and_the_prefix() {
        let p = Prefix::default().with(1).unwrap().with(3).unwrap();
        let sub = Subproblem::ROOT.place(1).place(3);
        for (n, rows) in [(8, 1), (8, 3), (12, 4), (5, 16)] {
            assert_eq!(p.extensions(n, rows), extensions(&sub, n, rows), "n = {n}, rows {rows}");
        }
        // 6 queens from columns 1 and 3 of rows 0 and 1: Q(6)'s boards [1, 3, 5, 0, 2, 4] only.
        assert_eq!(p.extensions(6, 16), Ok(1));
        assert_eq!(p.extensions(64, 1), Err(Error::BoardTooLarge { n: 64 }));
        assert_eq!(p.extensions(3, 1), Err(Error::BadColumn { col: 3, n: 3 }));
        assert_eq!(p.extensions(20, 15), Err(Error::BadSplitDepth { depth: 17 }));
    }

    /// Issue 32, finding 2: the public expansions check n (`split::expand(…, 64, …)` made the
    /// prefixes of a wrapped mask) and the prefix's 16 rows.
    #[test]
    fn the_public_expansions_check_the_board() {
        assert_eq!(extensions(&Subproblem::ROOT, 64, 2), Err(Error::BoardTooLarge { n: 64 }));
        assert_eq!(extensions(&Subproblem::ROOT, 72, 1), Err(Error::BoardTooLarge { n: 72 }));
        assert_eq!(extensions(&Subproblem::ROOT, 20, 17), Err(Error::BadSplitDepth { depth: 17 }));
        // 8 queens: 8 first rows, 42 first two rows (8·7 less the 14 diagonal pairs).
        assert_eq!(extensions(&Subproblem::ROOT, 8, 1), Ok(8));
        assert_eq!(extensions(&Subproblem::ROOT, 8, 2), Ok(42));
        // A board shorter than the rows asked: the whole board, Q(6) = 4.
        assert_eq!(extensions(&Subproblem::ROOT, 6, 16), Ok(4));
        let refused = try_expand_counting(vec![Subproblem::ROOT], 64, 2, &mut 0, String::new);
        assert_eq!(refused, Err(Error::BoardTooLarge { n: 64 }));
        assert_eq!(
            try_expand_counting(vec![Subproblem::ROOT], 8, 2, &mut 0, String::new).map(|v| v.len()),
            Ok(42)
        );
    }
}

//! Mirror halving: the plan of the `mirror` algorithm. Its search is the plain kernel
//! ([`crate::kernel`]); it has no SIMD copy of its own (the kernel's copy for the plan's level
//! runs, one per level by `multiversion!`).
//!
//! Reflecting a board left to right maps solutions to solutions, and a solution's row-0 queen in
//! column `c` to column `n-1-c`. So only the row-0 queens in the left half (`c < n/2`) are
//! searched, each with weight 2. For odd n the middle column of row 0 is its own mirror image; there
//! the row-1 queen is restricted to the left half (it cannot be in the middle column too), again
//! with weight 2. This is the scheme of the C reference in `shared/anchors/mirror_ref.c` and of
//! J. Somers' counter. n = 0 (the empty board, Q(0) = 1 by the OEIS A000170 convention) and n = 1
//! are searched whole with weight 1.
//!
//! The subproblems are the seeds extended row by row by the one prefix expansion of
//! [`crate::split`]. Gives solutions (OEIS A000170) only.

use std::ops::ControlFlow;

use crate::algo::weight;
use crate::arch::Level;
use crate::kernel::{self, full_mask};
use crate::split::{self, Step, Subproblem};
use crate::vocabulary::Sealed;
use crate::{Algorithm, Classes, Error, Plan, Tally, check_n};

/// The mirror-halving plan (see the module docs): subproblems with `split_depth` rows fixed.
#[derive(Clone, Debug)]
pub struct MirrorPlan {
    n: u32,
    depth: u32,
    subproblems: Vec<split::Subproblem>,
    prefix_nodes: u64,
    step_rows: u32,
    /// The instruction-set level of the search.
    level: Level,
    /// The board's fundamental solutions by orbit size, where this plan stands in for an
    /// algorithm that classifies (the join below `join::MIN_N`, [`MirrorPlan::with_classes`]).
    classes: Option<Classes>,
}

impl MirrorPlan {
    /// Returns the plan for an `n`×`n` board with `depth` rows fixed.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::BadSplitDepth`] if `depth` is 0 or
    /// more than [`split::MAX_SPLIT_DEPTH`].
    pub fn new(n: u32, depth: u32) -> Result<MirrorPlan, Error> {
        check_n(n)?;
        split::check_depth(depth)?;
        // The list checked against the memory available and reserved fallibly: a refusal, not
        // an abort (n = 63 at depth 4 makes over 4 million subproblems).
        let seeds = mirror_seeds(n);
        let mut prefix_nodes = seed_nodes(n, seeds.len());
        let what = || format!("the mirror plan of n = {n} at split depth {depth} (its subproblem list)");
        let subproblems = split::try_expand_counting(seeds, n, depth, &mut prefix_nodes, what)?;
        if subproblems.len() >= split::MAX_SUBPROBLEMS {
            return Err(Error::TooManySubproblems { n, depth });
        }
        Ok(MirrorPlan {
            n,
            depth,
            subproblems,
            prefix_nodes,
            step_rows: split::STEP_ROWS,
            level: Level::best(),
            classes: None,
        })
    }

    /// Returns the plan with the split depth [`split::auto_split_depth`] picks for `threads`.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`].
    pub fn auto(n: u32, threads: usize) -> Result<MirrorPlan, Error> {
        check_n(n)?;
        // Counted, not built: the depths past the target are never stored.
        let seeds = mirror_seeds(n);
        let depth = split::auto_split_depth(n, threads, |d| {
            split::count_expanded(&seeds, n, d, split::MAX_SUBPROBLEMS)
        });
        MirrorPlan::new(n, depth)
    }

    /// Returns the subproblems, in their fixed order.
    #[cfg(any(test, feature = "internals"))]
    pub fn subproblems(&self) -> &[split::Subproblem] {
        &self.subproblems
    }

    /// Returns this plan with its search run at the instruction-set `level` (the default is
    /// [`Level::best`]).
    pub fn with_level(self, level: Level) -> MirrorPlan {
        MirrorPlan { level, ..self }
    }

    /// Returns this plan standing in for an algorithm that classifies (the join below
    /// `join::MIN_N`): [`Plan::fundamental`] gives `classes`, the board's fundamental
    /// solutions by orbit size found by other means, for a total of their solutions.
    pub(crate) fn with_classes(self, classes: Classes) -> MirrorPlan {
        MirrorPlan { classes: Some(classes), ..self }
    }

    /// Returns this plan with steps of `rows` free rows instead of [`split::STEP_ROWS`] (for
    /// tests, which cannot wait for boards of 17 free rows; the counts are the same).
    #[cfg(test)]
    pub(crate) fn with_step_rows(self, rows: u32) -> MirrorPlan {
        MirrorPlan { step_rows: rows, ..self }
    }
}

impl MirrorPlan {
    /// Returns the weight of subproblem `index` from `paths` random paths ([`Plan::weight`];
    /// 1 if `paths` is 0).
    fn weight_with(&self, index: usize, paths: u32) -> f64 {
        if paths == 0 {
            return 1.0;
        }
        let sub = &self.subproblems[index];
        let full = full_mask(self.n);
        let free = |&(c, l, r): &(u64, u64, u64)| full & !(c | l | r);
        let place = |&(c, l, r): &(u64, u64, u64), b: u64| (c | b, (l | b) << 1, (r | b) >> 1);
        weight::weight_of_tree(weight::tree_size(
            (sub.cols, sub.ld, sub.rd),
            paths,
            index as u64,
            free,
            place,
        ))
    }
}

impl Sealed for MirrorPlan {
    fn prefix_nodes(&self) -> u128 {
        self.prefix_nodes as u128
    }
}

impl Plan for MirrorPlan {
    fn n(&self) -> u32 {
        self.n
    }

    /// `None`: mirror halving does not classify; where the plan stands in for an algorithm
    /// that does ([`MirrorPlan::with_classes`]), its classes, if `total` is their solutions
    /// and n ≥ 1.
    fn fundamental(&self, total: &Tally) -> Option<Classes> {
        self.classes.filter(|c| self.n >= 1 && c.checked_solutions() == Some(total.solutions))
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Mirror
    }

    fn level(&self) -> Level {
        self.level
    }

    fn len(&self) -> usize {
        self.subproblems.len()
    }

    fn split_depth(&self) -> u32 {
        self.depth
    }

    fn solve(&self, index: usize, stats: bool) -> Tally {
        let sub = &self.subproblems[index];
        let mut nodes = 0u64;
        let completions = if stats {
            sub.count::<true>(self.level, self.n, &mut nodes)
        } else {
            sub.count::<false>(self.level, self.n, &mut nodes)
        };
        Tally {
            solutions: sub.weight as u128 * completions as u128,
            nodes: nodes as u128,
            ..Tally::default()
        }
    }

    fn prefix(&self, index: usize) -> Option<split::Prefix> {
        Some(self.subproblems[index].prefix)
    }

    /// The subproblem's weight: 2 from n = 2 (mirror halving), 1 for n = 0 and 1.
    fn multiple_of(&self, index: usize) -> u128 {
        u128::from(self.subproblems[index].weight)
    }

    /// The estimated size of the subproblem's search tree ([`weight::tree_size`] with
    /// [`weight::weight_paths`] paths, seeded by the index) to the power
    /// [`weight::WEIGHT_POWER`]; 1 in plans too large for the paths.
    fn weight(&self, index: usize) -> f64 {
        self.weight_with(index, weight::weight_paths(self.n, self.subproblems.len()))
    }

    /// The same with [`weight::WEIGHT_PATHS`] paths however large the plan (1 below
    /// [`weight::WEIGHTS_FROM`]).
    fn sample_weight(&self, index: usize) -> f64 {
        self.weight_with(index, weight::weight_paths(self.n, 1))
    }

    fn stops_midway(&self) -> bool {
        true
    }

    /// In steps of at most [`split::STEP_ROWS`] free rows (`split::for_each_step`); one step
    /// for subproblems with no more free rows.
    fn solve_in_steps(
        &self,
        index: usize,
        stats: bool,
        step: &mut dyn FnMut(f64) -> ControlFlow<()>,
    ) -> Option<Tally> {
        let sub = &self.subproblems[index];
        if self.n - sub.cols.count_ones() <= self.step_rows {
            return Some(self.solve(index, stats));
        }
        let (completions, nodes) = if stats {
            steps::<true>(self.level, self.n, sub, self.step_rows, step)?
        } else {
            steps::<false>(self.level, self.n, sub, self.step_rows, step)?
        };
        Some(Tally {
            solutions: sub.weight as u128 * completions as u128,
            nodes: nodes as u128,
            ..Tally::default()
        })
    }
}

/// Returns the completions and nodes of `sub` counted step by step, or `None` if `step` broke.
fn steps<const NODES: bool>(
    level: Level,
    n: u32,
    sub: &Subproblem,
    step_rows: u32,
    step: &mut dyn FnMut(f64) -> ControlFlow<()>,
) -> Option<(u64, u64)> {
    let full = full_mask(n);
    let (mut completions, mut nodes) = (0u64, 0u64);
    let mut kernel_nodes = 0u64;
    let flow = split::for_each_step::<NODES>(
        n,
        (sub.cols, sub.ld, sub.rd),
        step_rows,
        &mut nodes,
        &mut |s| match s {
            Step::Board { cols, ld, rd, share } => {
                completions +=
                    kernel::count_completions::<NODES>(level, full, cols, ld, rd, &mut kernel_nodes);
                step(share)
            }
            Step::Poll => step(0.0),
        },
    );
    flow.is_continue().then_some((completions, nodes + kernel_nodes))
}

/// Returns the subproblems of the mirror-halved search of an `n`×`n` board with `depth` rows
/// fixed (at least the rows the symmetry seeds fix, at most `n` and [`split::MAX_SPLIT_DEPTH`]), in a
/// deterministic order: lexicographic by the prefix's columns.
///
/// Prefixes that leave no free square are dropped, so every subproblem can still be completed
/// as far as its fixed rows go. Σ weight × completions = Q(n) (OEIS A000170).
#[cfg(any(test, feature = "internals"))]
pub fn mirror_subproblems(n: u32, depth: u32) -> Vec<Subproblem> {
    mirror_subproblems_counting(n, depth).0
}

/// Returns [`mirror_subproblems`] and the number of queen placements the splitter made to build
/// them (every node of the prefix tree below the empty board, dead ends included). Adding the
/// search's nodes below the prefixes gives the nodes of the whole mirror-halved tree, whatever
/// the split depth.
#[cfg(any(test, feature = "internals"))]
pub fn mirror_subproblems_counting(n: u32, depth: u32) -> (Vec<Subproblem>, u64) {
    assert!(n <= crate::kernel::MAX_N, "board side {n} is beyond the masks");
    let seeds = mirror_seeds(n);
    let mut nodes = seed_nodes(n, seeds.len());
    let subproblems = split::expand_counting(seeds, n, depth, &mut nodes);
    (subproblems, nodes)
}

/// Returns the queen placements that make the `seeds` symmetry seeds of the `n`×`n` board: row
/// 0's left half, plus (odd n) the middle column and its row-1 children.
fn seed_nodes(n: u32, seeds: usize) -> u64 {
    match n {
        0 | 1 => 0,
        _ if n.is_multiple_of(2) => u64::from(n / 2),
        _ => u64::from(n / 2) + 1 + (seeds - n as usize / 2) as u64,
    }
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
        let mut free = middle.free(n) & crate::kernel::full_mask(half);
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            seeds.push(Subproblem { weight: 2, ..middle.place(col) });
        }
    }
    seeds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel;
    use crate::reference::backtrack_count;

    fn mirror_total(n: u32, depth: u32) -> u128 {
        mirror_subproblems(n, depth)
            .iter()
            .map(|s| s.weight as u128 * s.count::<false>(Level::best(), n, &mut 0) as u128)
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
                s.count::<true>(Level::best(), n, &mut want);
            }
            if n % 2 == 0 {
                let half: Vec<usize> = (0..n as usize / 2).collect();
                assert_eq!(want, crate::reference::tree_nodes(n, &half, kernel::LOOKAHEAD), "n = {n}");
            }
            for depth in 1..=n {
                let (subs, mut nodes) = mirror_subproblems_counting(n, depth);
                for s in &subs {
                    s.count::<true>(Level::best(), n, &mut nodes);
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
    fn steps_give_the_counts_and_nodes_of_one_solve() {
        // n = 13 at depth 2 leaves 11 free rows: with steps of 7 free rows every subproblem
        // is solved in steps.
        let plan = MirrorPlan::new(13, 2).unwrap().with_step_rows(7);
        for index in 0..plan.len() {
            let mut shares = 0.0;
            let got = plan.solve_in_steps(index, true, &mut |f| {
                shares += f;
                ControlFlow::Continue(())
            });
            assert_eq!(got, Some(plan.solve(index, true)), "subproblem {index}");
            assert!(shares > 0.0 && shares <= 1.0 + 1e-9, "{shares}");
        }
        // A step that breaks loses the subproblem.
        assert_eq!(plan.solve_in_steps(0, false, &mut |_| ControlFlow::Break(())), None);
    }

    /// The weights order subproblems as their search trees do: n = 17 at depth 5, every 97th
    /// subproblem, weight against nodes searched.
    #[test]
    fn weights_follow_the_search_trees() {
        let plan = MirrorPlan::new(17, 5).unwrap();
        let pairs: Vec<(f64, f64)> =
            (0..plan.len()).step_by(97).map(|i| (plan.weight(i), plan.solve(i, true).nodes as f64)).collect();
        let rho = crate::algo::weight::rank_correlation(&pairs);
        assert!(pairs.len() > 100 && rho > 0.7, "{} subproblems, rank correlation {rho}", pairs.len());
        // Below n = 17 every weight is 1.
        assert_eq!(MirrorPlan::new(16, 3).unwrap().weight(5), 1.0);
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
}

//! The three algorithms, each in the same shape: a *plan* (a list of independent subproblems,
//! [`Plan`], built from the algorithm's symmetry reduction and the split depth), a sequential
//! *search* that counts one subproblem (no rayon, no I/O, no allocation), and where it has them
//! the search's SIMD copies, one file per instruction set behind one trait.
//!
//! | algorithm | plan | search | SIMD copies |
//! | --- | --- | --- | --- |
//! | [`mirror`] | `mirror.rs` (mirror halving) | [`crate::kernel`] | the kernel's BMI1 copy |
//! | [`d4`] | `d4/mod.rs`, `d4/constellation.rs` | `d4/search.rs` | `d4/batched/lanes.rs` (batched search) |
//! | [`join`] | `join/mod.rs`, `join/quarter.rs`, `join/half.rs` | `join/matcher.rs` | block loop, table fill, pairing |
//!
//! Mirror has no folder: its search is the plain kernel every algorithm shares (d4 finishes its
//! boards in it, listing walks it), so it lives at the crate root. The SIMD copies are generic
//! code over the traits of [`crate::arch`], compiled once per instruction-set level; a plan
//! holds the [`Level`] its searches run at. The runner ([`crate::parallel`]) sees only
//! [`Plan`].

pub mod d4;
pub mod join;
pub mod mirror;

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::arch::Level;
use crate::split;
use crate::{Classes, Error, Tally};
pub use d4::{D4Plan, D4Search};
pub use mirror::MirrorPlan;

/// The search algorithm behind a count. Serialized as its [`Algorithm::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Mirror halving: the row-0 queen in the left half, counted twice (see [`mirror`]). Visits
    /// half of the search tree. Gives solutions (A000170) only.
    Mirror,
    /// Full D4 symmetry by start constellations (see [`d4::constellation`]): one border
    /// configuration per symmetry class, weighted by its orbit. Gives solutions (A000170),
    /// fundamental solutions (A002562) and their orbit sizes.
    D4,
    /// Quadrant join (see [`join`]): joins half-boards built from quarter-board placements and
    /// counts disjoint pairs bit-sliced; no backtracking over whole boards. Gives solutions,
    /// fundamental solutions and classes (by Burnside). Boards below [`join::MIN_N`] fall back
    /// to `mirror`.
    Join,
    /// The fastest for each n (the default): [`Algorithm::Join`] from
    /// [`Algorithm::JOIN_FROM`] while its quarter table fits in memory, [`Algorithm::D4`]
    /// otherwise. See [`Algorithm::resolve`].
    #[default]
    Auto,
}

impl Algorithm {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [Algorithm; 3] = [Algorithm::D4, Algorithm::Mirror, Algorithm::Join];

    /// The smallest n for which [`Algorithm::Auto`] picks the join: measured side by side with
    /// d4 on one thread (results/2026-11-29-vm/README.md).
    pub const JOIN_FROM: u32 = 8;

    /// Returns the concrete algorithm that counts an `n`×`n` board: `self`, or for
    /// [`Algorithm::Auto`] the join from [`Algorithm::JOIN_FROM`] when its table fits in memory
    /// ([`join::check_memory`]), else d4.
    pub fn resolve(self, n: u32) -> Algorithm {
        self.resolve_for(n, 1)
    }

    /// [`Algorithm::resolve`] for a count on `threads` worker threads: `auto` takes the join
    /// only if its table and every thread's buffers fit ([`join::check_memory_for`]), so that
    /// `-j 64` on a board whose join fits one thread falls back to d4 instead of being refused.
    pub fn resolve_for(self, n: u32, threads: usize) -> Algorithm {
        match self {
            Algorithm::Auto if n >= Algorithm::JOIN_FROM && join::check_memory_for(n, threads).is_ok() => {
                Algorithm::Join
            }
            Algorithm::Auto => Algorithm::D4,
            concrete => concrete,
        }
    }

    /// Returns true if and only if the algorithm's subproblem tallies carry the fundamental
    /// solutions ([`Tally::classes`]): d4 does; the join gets them for a whole count by
    /// Burnside ([`Plan::classes`], [`join::burnside_classes`]), so its tallies do not.
    pub fn classifies(self) -> bool {
        matches!(self, Algorithm::D4)
    }

    /// Returns the algorithm's name as the CLI and the output formats spell it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Mirror => "mirror",
            Algorithm::D4 => "d4",
            Algorithm::Join => "join",
            Algorithm::Auto => "auto",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let every = [Algorithm::Auto, Algorithm::D4, Algorithm::Mirror, Algorithm::Join];
        crate::error::parse_name(s, &every, Algorithm::name, "algorithm")
    }
}

/// A list of independent subproblems that together count one board: what the parallel runner
/// ([`crate::parallel::run`]) consumes, whatever the algorithm.
pub trait Plan: Sync {
    /// Returns the board side n.
    fn n(&self) -> u32;
    /// Returns the number of subproblems.
    fn len(&self) -> usize;
    /// Returns true if and only if the plan has no subproblem.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Returns the number of rows each subproblem fixes (at least; symmetry seeds may fix more).
    fn split_depth(&self) -> u32;
    /// Returns the weighted counts of subproblem `index` (`0..len()`); counts nodes too when
    /// `stats` is true.
    fn solve(&self, index: usize, stats: bool) -> Tally;
    /// Returns the queen placements made while building the subproblems (the prefix tree), so
    /// that with the nodes of every subproblem they add up to the nodes of the whole search,
    /// whatever the split depth.
    fn prefix_nodes(&self) -> u128 {
        0
    }
    /// Returns the algorithm that really counts this plan (a join plan of a board below
    /// [`join::MIN_N`] is a mirror plan).
    fn algorithm(&self) -> Algorithm;
    /// Returns the instruction-set level the plan's searches run at.
    fn level(&self) -> Level;
    /// Returns the fundamental solutions of the whole board by orbit size, given the sum of
    /// every subproblem's tally, for plans that get them from the total rather than per
    /// subproblem (the join, by Burnside over its own quarter table); `None` otherwise, and then
    /// [`Tally::fundamental`] applies.
    fn classes(&self, total: &Tally) -> Option<Classes> {
        let _ = total;
        None
    }
    /// Returns a number that the solutions of subproblem `index` are always a multiple of: the
    /// weight every completion of it stands for (2 for mirror halving from n = 2; 8, 4 or 2, the
    /// orbit of its start constellation, for d4; for the join, the unit's row-set and
    /// long-diagonal weights). 1 by default. A shard result or journal line whose count is not
    /// a multiple was forged or damaged.
    fn multiple_of(&self, index: usize) -> u128 {
        let _ = index;
        1
    }
    /// Returns why `tally` cannot be the counts of subproblem `index` of this plan, or `None`:
    /// the cheap invariants of one subproblem, checked on every shard subtotal and journal line
    /// before it is added ([`Plan::multiple_of`]; no symmetry classes for an algorithm that
    /// does not classify; for d4 the orbit sizes its start constellation allows). `None` does
    /// not mean the count is right: only counting it again tells.
    fn impossible(&self, index: usize, tally: &Tally) -> Option<String> {
        let m = self.multiple_of(index);
        if !tally.solutions.is_multiple_of(m) {
            return Some(format!(
                "its {} solutions are not a multiple of {m}, the weight of every solution it counts",
                tally.solutions
            ));
        }
        (!self.algorithm().classifies() && tally.classes != Classes::default()).then(|| {
            format!("it records symmetry classes, which the {} algorithm does not count", self.algorithm())
        })
    }
    /// Returns the queens subproblem `index` fixes, as the columns of rows 0, 1, …, for plans
    /// whose subproblems are row prefixes; `None` for plans whose subproblems are not (the
    /// breakdown then leaves the prefix empty and the shard planner counts such a subproblem's
    /// cost as 1).
    fn prefix(&self, index: usize) -> Option<split::Prefix> {
        let _ = index;
        None
    }
    /// Returns the estimated cost of subproblem `index` (`0..len()`) in units of the plan's own
    /// choosing (the same for every subproblem of one plan), positive and finite; 1 by default.
    /// The runner weighs progress by it (so that the ETA of a run whose subproblems differ
    /// 100-fold holds), never the plan itself: which subproblems exist and their indices do not
    /// depend on it. A pure function of the plan and `index`, cheap next to [`Plan::solve`].
    fn weight(&self, index: usize) -> f64 {
        let _ = index;
        1.0
    }
    /// Returns true if and only if [`Plan::solve_in_steps`] can stop a subproblem midway, that
    /// is, within about a second at any n (the mirror and d4 plans); false where a running
    /// subproblem always runs to its end (the join's, of seconds up to n = 27).
    fn stops_midway(&self) -> bool {
        false
    }
    /// Returns what [`Plan::solve`] returns, solving in steps: calls `step` with the fraction of
    /// the subproblem's work each finished step stands for (an estimate; the fractions add up
    /// to at most 1, and 0 means "no new step, may I go on?"), at least once a second or so
    /// where [`Plan::stops_midway`] is true, and returns `None` as soon as `step` returns
    /// [`ControlFlow::Break`] (the subproblem's counts are then lost: it must be solved again).
    /// The default solves in one step, without calling `step`.
    fn solve_in_steps(
        &self,
        index: usize,
        stats: bool,
        step: &mut dyn FnMut(f64) -> ControlFlow<()>,
    ) -> Option<Tally> {
        let _ = step;
        Some(self.solve(index, stats))
    }
}

impl dyn Plan + '_ {
    /// Returns the fundamental solutions of the whole board from the sum `total` of its
    /// subproblems' tallies, counted with `algorithm`: [`Plan::classes`] where the plan gives
    /// them, else [`Tally::fundamental`].
    pub fn fundamental(&self, total: &Tally, algorithm: Algorithm) -> Option<Classes> {
        self.classes(total).or_else(|| total.fundamental(algorithm, self.n()))
    }
}

/// Returns the plan of `algorithm` for the `n`×`n` board with `split_depth` rows fixed, or the
/// depth the algorithm picks for `threads` worker threads when `split_depth` is `None`.
///
/// The plan is a pure function of (algorithm, n, split depth): building it again, on any
/// machine, gives the same subproblems under the same indices, which is what a checkpoint
/// journal and a shard plan rely on.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::BadSplitDepth`] if the depth is 0 or
/// more than [`split::MAX_SPLIT_DEPTH`].
pub fn make_plan(
    algorithm: Algorithm,
    n: u32,
    split_depth: Option<u32>,
    threads: usize,
) -> Result<Box<dyn Plan>, Error> {
    make_plan_with(algorithm, n, split_depth, threads, D4Search::Auto, Level::best())
}

/// [`make_plan`] with the search that counts d4 subproblems (see [`D4Search`]; other
/// algorithms ignore it) and the instruction-set `level` every search runs at (the counts are
/// the same at every level; the speed is not).
///
/// # Errors
/// Those of [`make_plan`].
pub fn make_plan_with(
    algorithm: Algorithm,
    n: u32,
    split_depth: Option<u32>,
    threads: usize,
    d4_search: D4Search,
    level: Level,
) -> Result<Box<dyn Plan>, Error> {
    let mirror = |depth: Option<u32>| -> Result<MirrorPlan, Error> {
        Ok(match depth {
            Some(depth) => MirrorPlan::new(n, depth)?,
            None => MirrorPlan::auto(n, threads)?,
        }
        .with_level(level))
    };
    Ok(match algorithm.resolve(n) {
        Algorithm::Mirror => Box::new(mirror(split_depth)?),
        Algorithm::D4 => Box::new(
            match split_depth {
                Some(depth) => D4Plan::new(n, depth)?,
                None => D4Plan::auto(n, threads)?,
            }
            .with_search(d4_search)
            .with_level(level),
        ),
        // The join's units are not row prefixes: the split depth does not apply.
        Algorithm::Join if n >= join::MIN_N => {
            let mut plan = join::JoinPlan::new(n)?;
            plan.set_level(level);
            Box::new(plan)
        }
        Algorithm::Join => Box::new(mirror(None)?),
        Algorithm::Auto => unreachable!("resolve() returns a concrete algorithm"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subproblem's real counts pass [`Plan::impossible`], every weight from n = 2 is at
    /// least 2, and one solution more or fewer (or one class of a kind the plan cannot have)
    /// is caught: n = 0..=13, every algorithm, two split depths.
    #[test]
    fn real_counts_are_possible_and_changed_ones_are_not() {
        for n in 0..=13u32 {
            for algorithm in Algorithm::ALL {
                for depth in [None, Some(3)] {
                    let plan = make_plan(algorithm, n, depth, 2).unwrap();
                    let mut total = 0u128;
                    for i in 0..plan.len() {
                        let t = plan.solve(i, false);
                        total += t.solutions;
                        let m = plan.multiple_of(i);
                        assert_eq!(plan.impossible(i, &t), None, "{algorithm} n = {n} subproblem {i}: {t:?}");
                        assert!(n < 2 || m >= 2, "{algorithm} n = {n} subproblem {i}: weight {m}");
                        let more = Tally { solutions: t.solutions + 1, ..t };
                        assert!(n < 2 || plan.impossible(i, &more).is_some(), "{algorithm} n = {n} {i}");
                        let mut odd = t;
                        odd.classes.orbit1 += 1;
                        assert!(plan.impossible(i, &odd).is_some(), "{algorithm} n = {n} {i}");
                    }
                    assert_eq!(Some(total), crate::oeis::A000170.get(n), "{algorithm} n = {n}");
                }
            }
        }
        // d4 at n = 10 (≡ 2 mod 4): an orbit-2 class is impossible in any subproblem; a class of
        // 8 more than the completions, too.
        let plan = make_plan(Algorithm::D4, 10, None, 2).unwrap();
        let t = plan.solve(0, false);
        let mut c2 = t;
        c2.classes.orbit2 += 1;
        c2.solutions += 8;
        let why = plan.impossible(0, &c2).unwrap();
        assert!(why.contains("no board of n ≡ 2 or 3 (mod 4) is symmetric under the 90° rotation"), "{why}");
        let mut c8 = t;
        c8.classes.orbit8 += 1;
        assert!(plan.impossible(0, &c8).is_some());
    }
}
